"""Gwet's AC1/AC2 (synagree.stats.gwet, categorical --coefficient).

Oracles: the ``irrCAC`` package (coefficients, standard errors, intervals)
on random rating matrices with missing values and on the shared CDT/NDT
label layers; a direct computation of Gwet's formula, written here with
loops, for the hierarchy-weighted AC2; scipy for Student's t.

irrCAC 0.4.4 pins scipy 1.12 and pandas < 3, so it is installed without its
dependencies (``pip install --no-deps irrCAC``, .ci/run); under pandas 3 its
own category detection counts NaN as a category, so the categories are
always passed to it explicitly.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED_DATA
from synagree.agreement.agree import load_corpus
from synagree.agreement.gwet_layers import GwetOptions, gwet_of_layers
from synagree.base.problems import InputError
from synagree.cli.main import main
from synagree.stats.categorical import items_from_corpus
from synagree.stats.gwet import category_order, gwet_from_codes, rating_counts, weight_matrix
from synagree.stats.student_t import t_cdf, t_quantile
from synagree.trees.hierarchy import Hierarchy

HUMANS = Path(__file__).resolve().parent / "data" / "humans"

try:  # the oracle; the tests that need it skip without it (.ci/run installs it)
    import irrCAC.raw as irr
    import pandas as pd
except ImportError:  # pragma: no cover - depends on the environment
    irr = pd = None

needs_irrcac = pytest.mark.skipif(irr is None, reason="irrCAC (the AC1/AC2 oracle) is not "
                                                     "installed: pip install --no-deps irrCAC")


def oracle(codes: np.ndarray, labels, weights) -> dict:
    """irrCAC's AC1/AC2 of an items × raters code array (-1 missing), labels in order."""
    vals = np.array(labels, dtype=object)
    frame = pd.DataFrame([[vals[c] if c >= 0 else np.nan for c in row] for row in codes])
    return irr.CAC(frame, weights=weights, categories=list(labels), digits=15).gwet()["est"]


def assert_equal_to_oracle(r, o, tol=1e-10):
    assert r.value == pytest.approx(o["coefficient_value"], abs=tol)
    assert r.se == pytest.approx(o["se"], abs=tol)
    assert r.p_a == pytest.approx(o["pa"], abs=tol)
    assert r.p_e == pytest.approx(o["pe"], abs=tol)
    assert r.ci[0] == pytest.approx(o["confidence_interval"][0], abs=1e-8)
    assert r.ci[1] == pytest.approx(o["confidence_interval"][1], abs=1e-8)
    assert r.name == o["coefficient_name"]


@needs_irrcac
@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("kind", ["identity", "ordinal", "quadratic"])
def test_random_matrices_with_missing_values_equal_irrcac(seed, kind):
    rng = np.random.default_rng(seed)
    n, m, k = int(rng.integers(6, 80)), int(rng.integers(2, 7)), int(rng.integers(2, 7))
    x = rng.integers(0, k, (n, m))
    x[rng.random(x.shape) < 0.3] = -1
    x = x[(x >= 0).sum(1) >= 1]
    used = sorted(set(x[x >= 0].tolist()))
    if len(used) < 2:
        pytest.skip("a draw with one category")
    x = np.vectorize({c: i for i, c in enumerate(used)}.get)(np.where(x >= 0, x, used[0]))
    x[np.asarray(rng.random(x.shape) < 0)] = -1
    labels = [float(v + 1) for v in range(len(used))]  # numbers: quadratic uses the values
    r = gwet_from_codes(x, len(used), weight_matrix(kind, [str(v) for v in labels]), 0.95,
                        kind)
    assert_equal_to_oracle(r, oracle(x, labels, kind))


@needs_irrcac
def test_missing_ratings_equal_irrcac():
    rng = np.random.default_rng(7)
    x = rng.integers(0, 4, (60, 5))
    x[rng.random(x.shape) < 0.4] = -1
    x = x[(x >= 0).sum(1) >= 1]
    assert ((x >= 0).sum(1) == 1).any()  # items with one rating: in π, not in p_a
    labels = [1.0, 2.0, 3.0, 4.0]
    for kind in ("identity", "quadratic"):
        r = gwet_from_codes(x, 4, weight_matrix(kind, ["1", "2", "3", "4"]), 0.9, kind)
        o = irr.CAC(pd.DataFrame(np.where(x >= 0, x + 1.0, np.nan)), weights=kind,
                    categories=labels, confidence_level=0.9, digits=15).gwet()["est"]
        assert_equal_to_oracle(r, o)
        assert r.pairable < r.items


@needs_irrcac
def test_custom_weights_and_unordered_labels_equal_irrcac():
    # labels that are not numbers: irrCAC ranks them 1..q in the order it is given,
    # and synagree orders them alphabetically; given that order, the two agree
    codes = np.array([[0, 1, 2], [2, 2, -1], [1, 1, 1], [0, 2, 0], [1, -1, 1], [2, 0, 2]])
    labels = ["nsubj", "obj", "amod"]
    order = category_order(labels)[0]
    assert order == ["amod", "nsubj", "obj"]
    re_code = np.vectorize(lambda c: order.index(labels[c]) if c >= 0 else -1)(codes)
    for kind in ("ordinal", "quadratic"):
        r = gwet_from_codes(codes, 3, weight_matrix(kind, labels), 0.95, kind)
        assert_equal_to_oracle(r, oracle(re_code, order, kind))


def _pair_layers(sub, a, b):
    d = SHARED_DATA / "iaa" / sub
    if not d.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    return load_corpus([d / f"{a}.conll", d / f"{b}.conll"])


@pytest.mark.slow
@needs_irrcac
@pytest.mark.parametrize("sub,a,b", [("cdt", "da-lotte", "da-morten"),
                                     ("ndt", "odin-danish", "thor-danish")])
@pytest.mark.parametrize("layer", ["deprel", "head"])
def test_shared_label_layers_equal_irrcac(sub, a, b, layer):
    data = items_from_corpus(_pair_layers(sub, a, b), layer)
    order = category_order(data.categories)[0]
    pos = {c: i for i, c in enumerate(order)}
    re_code = np.vectorize(lambda c: pos[data.categories[c]] if c >= 0 else -1)(data.codes)
    for kind in ("identity", "quadratic"):
        opts = GwetOptions("ac1") if kind == "identity" else GwetOptions("ac2", kind)
        r = gwet_of_layers({layer: data}, opts).results[layer]
        assert_equal_to_oracle(r, oracle(re_code, order, kind))


def direct_gwet(codes, w):
    """Gwet (2014) eq. for AC2 with missing ratings, item by item, and its variance."""
    n_items, raters = codes.shape
    q = len(w)
    items = [[c for c in row if c >= 0] for row in codes]
    items = [it for it in items if it]
    n = len(items)
    r = [[sum(1 for c in it if c == k) for k in range(q)] for it in items]
    two = [i for i, it in enumerate(items) if len(it) >= 2]

    def pa_item(i):
        ri = len(items[i])
        s = 0.0
        for k in range(q):
            star = sum(w[k][m] * r[i][m] for m in range(q))
            s += r[i][k] * (star - 1)
        return s / (ri * (ri - 1))

    pa = sum(pa_item(i) for i in two) / len(two)
    pi = [sum(r[i][k] / len(items[i]) for i in range(n)) / n for k in range(q)]
    tw = sum(sum(row) for row in w)
    pe = tw / (q * (q - 1)) * sum(p * (1 - p) for p in pi)
    ac = (pa - pe) / (1 - pe)
    dev = 0.0
    for i in range(n):
        pa_i = pa_item(i) if i in two else 0.0
        ac_i = n / len(two) * (pa_i - (pe if i in two else 0.0)) / (1 - pe)
        pe_i = tw / (q * (q - 1)) * sum(r[i][k] * (1 - pi[k]) for k in range(q)) / len(items[i])
        star = ac_i - 2 * (1 - ac) * (pe_i - pe) / (1 - pe)
        dev += (star - ac) ** 2
    return ac, math.sqrt(dev / (n * (n - 1))), pa, pe


def test_hierarchy_weighted_ac2_equals_gwet_formula():
    h = Hierarchy.from_edges({"nsubj": None, "nsubj:pass": "nsubj", "nsubj:outer": "nsubj",
                              "obj": None, "obl": None, "obl:tmod": "obl"})
    labels = ["nsubj", "nsubj:pass", "nsubj:outer", "obj", "obl", "obl:tmod"]
    rng = np.random.default_rng(3)
    codes = rng.integers(0, len(labels), (70, 4))
    codes[rng.random(codes.shape) < 0.2] = -1
    # the hierarchy's weight matrix, from its credit (mutual: both directions averaged)
    w = [[1.0 if a == b else (h.credit(a, b) + h.credit(b, a)) / 2 for b in labels]
         for a in labels]
    assert w[0][1] == pytest.approx(0.75)  # credit(nsubj, nsubj:pass) 1, reverse 1/2
    assert w[0][3] == 0.0
    ac, se, pa, pe = direct_gwet(codes, w)
    r = gwet_from_codes(codes, len(labels), weight_matrix("hierarchy", labels, h), 0.95,
                        "hierarchy")
    assert r.name == "AC2"
    assert r.value == pytest.approx(ac, abs=1e-12)
    assert r.se == pytest.approx(se, abs=1e-12)
    assert (r.p_a, r.p_e) == pytest.approx((pa, pe), abs=1e-12)
    if irr is None:
        return  # the formula above is the oracle; irrCAC is a second one
    # irrCAC with the same weights as a custom matrix agrees too
    o = irr.CAC(pd.DataFrame(np.where(codes >= 0, codes.astype(float), np.nan)),
                weights=np.array(w), categories=[float(k) for k in range(len(labels))],
                digits=15).gwet()["est"]
    assert r.value == pytest.approx(o["coefficient_value"], abs=1e-10)
    assert r.se == pytest.approx(o["se"], abs=1e-10)


def test_student_t_equals_scipy():
    stats = pytest.importorskip("scipy.stats")
    for df in (1, 2.5, 7, 30, 400):
        for t in (-40.0, -3.1, -0.2, 0.0, 0.7, 2.0, 12.0):
            assert t_cdf(t, df) == pytest.approx(float(stats.t.cdf(t, df)), abs=1e-10)
        for p in (0.001, 0.025, 0.3, 0.5, 0.9, 0.975, 0.9995):
            assert t_quantile(p, df) == pytest.approx(float(stats.t.ppf(p, df)), rel=1e-9)
    assert math.isnan(t_quantile(1.0, 3)) and math.isnan(t_cdf(1.0, 0))


def test_degenerate_and_counts():
    assert rating_counts(np.array([[0, -1], [-1, -1]]), 2).tolist() == [[1, 0], [0, 0]]
    one = gwet_from_codes(np.array([[0, 0], [0, 0]]), 1)
    assert math.isnan(one.value)  # one category: undefined (irrCAC: p_e = 1 − 1e-15)
    alone = gwet_from_codes(np.array([[0, -1], [1, -1]]), 2)
    assert alone.pairable == 0 and math.isnan(alone.value)


@pytest.mark.parametrize("argv,needle", [
    (["--coefficient", "ac2"], "needs its weights"),
    (["--coefficient", "ac1", "--ac2-weights", "quadratic"], "AC1 has identity weights"),
    (["--ac2-weights", "ordinal"], "not asked for"),
    (["--coefficient", "ac2", "--ac2-weights", "ordinal", "--hierarchy", "ud"], "not both"),
    (["--coefficient", "ac2", "--hierarchy", "no/such/file.txt"], "no such hierarchy"),
])
def test_cli_bad_options_are_one_line_errors(argv, needle, core_data, capsys):
    files = sorted(core_data.glob("*.conllu"))[:2]
    assert main(["categorical", *map(str, files), "--layers", "deprel", *argv]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_options_checked():
    with pytest.raises(InputError):
        GwetOptions("ac3")
    with pytest.raises(InputError):
        GwetOptions("ac2", "linear")


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown", "latex"])
def test_cli_every_format(fmt, core_data, capsys):
    files = sorted(core_data.glob("*.conllu"))[:2]
    assert main(["categorical", *map(str, files), "--layers", "deprel,head",
                 "--coefficient", "ac2", "--ac2-weights", "quadratic", "--output", fmt]) == 0
    out = capsys.readouterr().out
    if fmt == "json":
        d = json.loads(out)["gwet"]
        assert set(d["layers"]) == {"deprel", "head"}
        corpus = load_corpus(files)
        data = items_from_corpus(corpus, "head")
        r = gwet_from_codes(data.codes, data.n_categories,
                            weight_matrix("quadratic", data.categories), 0.95)
        assert d["layers"]["head"]["gwet_ac"] == pytest.approx(r.value, nan_ok=True)
        assert d["layers"]["head"]["coefficient"] == "AC2"
        assert "category_order" in d
    else:
        assert "AC2, weights quadratic" in out
        assert ("gwet_ac" if fmt == "csv" else "gwet") in out


# --------------------------------------------------------------------------
# tags --coefficient: gold and system as two raters
# --------------------------------------------------------------------------

def _tag_pairs(h, gold, system, col):
    return [(x[col], y[col]) for s, t in zip(h.raw_conll(gold), h.raw_conll(system))
            for (_, x), (_, y) in zip(s, t)]


@needs_irrcac
@pytest.mark.parametrize("column,col", [("upos", 3), ("deprel", 7)])
def test_tags_ac1_equals_irrcac(column, col, h, run_cli):
    d = HUMANS
    gold, system = d / "gold.conllu", d / "parser.conllu"
    rc, out, err = run_cli("tags", gold, system, "--column", column, "--coefficient", "ac1",
                           "--output", "json")
    assert rc == 0, err
    got = json.loads(out)["gwet"]
    pairs = _tag_pairs(h, gold, system, col)
    labels = sorted({t for p in pairs for t in p})
    codes = np.array([[labels.index(a), labels.index(b)] for a, b in pairs])
    o = oracle(codes, labels, "identity")
    assert got["gwet_ac"] == pytest.approx(o["coefficient_value"], abs=1e-10)
    assert got["gwet_se"] == pytest.approx(o["se"], abs=1e-10)
    assert got["coefficient"] == "AC1" and got["items"] == len(pairs)


def test_tags_ac2_takes_the_hierarchy_credit(h, run_cli):
    d = HUMANS
    gold, system = d / "gold.conllu", d / "parser.conllu"
    rc, out, err = run_cli("tags", gold, system, "--coefficient", "ac2", "--output", "json")
    assert rc == 0, err
    got = json.loads(out)["gwet"]
    pairs = _tag_pairs(h, gold, system, 7)
    labels = sorted({t for p in pairs for t in p})
    hier = Hierarchy.from_ud(labels)
    w = [[1.0 if a == b else (hier.credit(a, b) + hier.credit(b, a)) / 2 for b in labels]
         for a in labels]
    codes = np.array([[labels.index(a), labels.index(b)] for a, b in pairs])
    ac, se, _, _ = direct_gwet(codes, w)
    assert got["gwet_ac"] == pytest.approx(ac, abs=1e-12)
    assert got["gwet_se"] == pytest.approx(se, abs=1e-12)
    assert got["weights"] == "hierarchy" and got["coefficient"] == "AC2"
    assert any(0 < x < 1 for row in w for x in row)  # the hierarchy gives partial credit


@pytest.mark.parametrize("extra,needle", [
    (["--ac2-weights", "quadratic"], "not asked for"),
    (["--coefficient", "ac1", "--ac2-weights", "ordinal"], "AC1 has identity weights"),
    (["--coefficient", "ac1", "--tag-syntax", "alternatives"], "one tag per word"),
])
def test_tags_bad_options(extra, needle, run_cli):
    d = HUMANS
    rc, _, err = run_cli("tags", d / "gold.conllu", d / "parser.conllu", *extra)
    assert rc == 2 and needle in err and "Traceback" not in err


@pytest.mark.parametrize("argv", [["categorical", "--feature", "Op", "--coefficient", "ac1"],
                                  ["spans", "--coefficient", "alpha-u"]])
def test_gate_documents_refuse_the_coefficients(argv, run_cli):
    beijing = HUMANS.parent / "formats" / "gate" / "beijing-opera.xml"
    rc, _, err = run_cli(argv[0], beijing, "--format", "gate", "--sets", "ann1,ann2",
                         "--type", "sent", *argv[1:])
    assert rc == 2 and "--coefficient: not for GATE" in err
