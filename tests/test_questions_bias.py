"""``--bias``: marginal homogeneity per annotator pair (docs/method.md §25).

Checked against statsmodels (Stuart–Maxwell, McNemar, Holm) and scipy (the
χ² and binomial tails) on random tables and on the real IAA tables, and on
generated annotators whose bias is known by construction.
"""
from __future__ import annotations

import json
import random
from itertools import combinations

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import SquareTable, mcnemar
from statsmodels.stats.multitest import multipletests

from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.agreement.bias import bias_of_layers, pair_bias
from synagree.agreement.token_layers import token_layer_agreement
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus
from synagree.stats.marginal_homogeneity import (
    binomial_cdf_half,
    chi2_sf,
    holm,
    mcnemar_exact,
    stuart_maxwell,
)

# --------------------------------------------------------------------------
# The statistics against scipy and statsmodels
# --------------------------------------------------------------------------


@pytest.mark.parametrize("df", [1, 2, 3, 4, 7, 10, 25, 60, 150])
def test_chi2_sf_equals_scipy(df):
    for x in [1e-4, 0.3, 1.0, 2.5, 6.0, 12.0, 30.0, 75.0, 200.0, 700.0]:
        want = stats.chi2.sf(x, df)
        assert chi2_sf(x, df) == pytest.approx(want, rel=1e-11, abs=1e-300)


def test_binomial_tail_equals_scipy():
    for n in [1, 2, 7, 30, 101, 1000, 2000, 2001, 5000, 40_000]:
        for k in sorted({0, 1, n // 3, n // 2 - 1, n // 2, n // 2 + 1, n - 1, n}):
            if 0 <= k <= n:
                assert binomial_cdf_half(k, n) == pytest.approx(stats.binom.cdf(k, n, 0.5),
                                                                rel=1e-9, abs=1e-300)


@pytest.mark.slow
def test_mcnemar_and_holm_equal_statsmodels():
    rng = np.random.default_rng(5)
    for _ in range(300):
        b, c = (int(x) for x in rng.integers(0, 60, 2))
        want = mcnemar(np.array([[5, b], [c, 7]]), exact=True).pvalue
        assert mcnemar_exact(b, c) == pytest.approx(want, rel=1e-12)
    for m in (1, 2, 5, 17):
        p = rng.random(m) ** 3
        assert holm(list(p)) == pytest.approx(list(multipletests(p, method="holm")[1]),
                                              rel=1e-12)


def _connected_table(rng, K):
    t = rng.integers(0, 25, (K, K)) * (rng.random((K, K)) < 0.6)
    t += np.diag(rng.integers(3, 80, K))
    for k in range(K - 1):  # a chain of confusions keeps every label connected
        t[k, k + 1] += 1
    return t


def test_stuart_maxwell_equals_statsmodels_on_random_tables():
    rng = np.random.default_rng(25)
    for _ in range(400):
        K = int(rng.integers(2, 9))
        t = _connected_table(rng, K)
        want = SquareTable(t, shift_zeros=False).homogeneity()
        got = stuart_maxwell(t)
        assert got.df == want.df == K - 1
        assert got.statistic == pytest.approx(want.statistic, rel=1e-9, abs=1e-12)
        assert got.p == pytest.approx(want.pvalue, rel=1e-8, abs=1e-14)


def test_stuart_maxwell_components_sum_and_equal_the_pseudo_inverse():
    """Labels never confused with one another: the components' tests add up, which is
    d' V⁺ d with df = rank V (labels agreed on everywhere drop out)."""
    rng = np.random.default_rng(7)
    for _ in range(100):
        a, b = _connected_table(rng, 3), _connected_table(rng, 4)
        t = np.zeros((9, 9), dtype=np.int64)
        t[:3, :3], t[3:7, 3:7] = a, b
        t[7, 7], t[8, 8] = 40, 3  # two labels with no disagreement at all
        got = stuart_maxwell(t)
        sa = SquareTable(a, shift_zeros=False).homogeneity()
        sb = SquareTable(b, shift_zeros=False).homogeneity()
        assert got.df == 2 + 3
        assert got.statistic == pytest.approx(sa.statistic + sb.statistic, rel=1e-9)
        w = (t + t.T).astype(float)
        np.fill_diagonal(w, 0.0)
        V = np.diag(w.sum(1)) - w
        d = t.sum(0) - t.sum(1)
        assert got.statistic == pytest.approx(float(d @ np.linalg.pinv(V) @ d), rel=1e-7)
        assert np.linalg.matrix_rank(V) == got.df
        assert got.p == pytest.approx(stats.chi2.sf(got.statistic, got.df), rel=1e-10)


@pytest.mark.slow
def test_pair_bias_rows_equal_statsmodels():
    rng = np.random.default_rng(3)
    for _ in range(20):
        K = int(rng.integers(3, 8))
        t = _connected_table(rng, K)
        pb = pair_bias("deprel", [f"l{k}" for k in range(K)], "x", "y", t)
        tested = [r for r in pb.labels if r.p is not None]
        for r in pb.labels:
            k = int(r.label[1:])
            both, b, c = t[k, k], t[k].sum() - t[k, k], t[:, k].sum() - t[k, k]
            assert (r.both, r.first_only, r.second_only) == (both, b, c)
            collapsed = np.array([[both, b], [c, t.sum() - both - b - c]])
            if b + c:
                assert r.p == pytest.approx(mcnemar(collapsed, exact=True).pvalue, rel=1e-12)
            assert pb.who(r) == ("x" if b > c else "y" if c > b else "")
        want = multipletests([r.p for r in tested], method="holm")[1]
        assert [r.p_holm for r in tested] == pytest.approx(list(want), rel=1e-12)
        assert [r.flagged for r in tested] == [bool(x < 0.05) for x in want]


# --------------------------------------------------------------------------
# Real square tables: the shared IAA data
# --------------------------------------------------------------------------


def _square(h, a_path, b_path):
    """The DEPREL square table of two files, read independently of synagree."""
    sa, sb = h.raw_conll(a_path), h.raw_conll(b_path)
    labels: dict = {}
    pairs = []
    for x, y in zip(sa, sb):
        if [c[1] for _, c in x] != [c[1] for _, c in y]:
            continue
        for (_, cx), (_, cy) in zip(x, y):
            pairs.append((labels.setdefault(cx[7], len(labels)),
                          labels.setdefault(cy[7], len(labels))))
    t = np.zeros((len(labels), len(labels)), dtype=np.int64)
    for i, j in pairs:
        t[i, j] += 1
    return t, list(labels)


IAA_PAIRS = [("cdt", "da-lotte", "da-morten"), ("cdt", "en-lotte", "en-morten"),
             ("ndt", "thor-norwegian", "odin-norwegian"), ("ndt", "thor-swedish", "odin-swedish"),
             ("ndt", "thor-danish", "odin-danish")]


@pytest.mark.slow
@pytest.mark.parametrize("tb,a,b", IAA_PAIRS)
def test_real_tables_equal_statsmodels(iaa, h, tb, a, b):
    ext = ".conll"
    pa, pbp = iaa / tb / f"{a}{ext}", iaa / tb / f"{b}{ext}"
    t, names = _square(h, pa, pbp)
    res = agree_corpus(load_corpus([pa, pbp]), ["plain"], bias=True)
    pb = res.bias.pairs[0]
    assert pb.items == t.sum()
    # Stuart–Maxwell: statsmodels on each component of the confusion graph, summed
    comps = pb.test.components
    total = 0.0
    idx = {name: k for k, name in enumerate(names)}
    got_components = []
    w = t + t.T
    np.fill_diagonal(w, 0)
    # the components, found here by a plain graph search over the independent table
    seen: set = set()
    for start in range(len(names)):
        if start in seen or not w[start].any():
            continue
        comp, stack = [], [start]
        seen.add(start)
        while stack:
            v = stack.pop()
            comp.append(v)
            for u in np.nonzero(w[v])[0].tolist():
                if u not in seen:
                    seen.add(u)
                    stack.append(u)
        got_components.append(sorted(comp))
        sub = t[np.ix_(sorted(comp), sorted(comp))]
        total += SquareTable(sub, shift_zeros=False).homogeneity().statistic
    assert len(got_components) == len(comps)
    assert pb.test.statistic == pytest.approx(total, rel=1e-8)
    assert pb.test.df == sum(len(c) - 1 for c in got_components)
    if len(got_components) == 1:  # the whole table, as statsmodels takes it
        used = got_components[0]
        want = SquareTable(t[np.ix_(used, used)], shift_zeros=False).homogeneity()
        assert pb.test.p == pytest.approx(want.pvalue, rel=1e-7, abs=1e-15)
    # per label: McNemar on the collapsed table, Holm over the tested labels
    for r in pb.labels:
        k = idx[r.label]
        both, bb, cc = t[k, k], t[k].sum() - t[k, k], t[:, k].sum() - t[k, k]
        assert (r.both, r.first_only, r.second_only) == (both, bb, cc)
        if bb + cc:
            assert r.p == pytest.approx(
                mcnemar(np.array([[both, bb], [cc, 0]]), exact=True).pvalue, rel=1e-9)
    tested = [r for r in pb.labels if r.p is not None]
    assert [r.p_holm for r in tested] == pytest.approx(
        list(multipletests([r.p for r in tested], method="holm")[1]), rel=1e-9)


def test_real_categorical_layers_equal_agree(iaa):
    files = [iaa / "cdt" / "da-lotte.conll", iaa / "cdt" / "da-morten.conll"]
    corpus = load_corpus(files)
    rep = token_layer_agreement(corpus, ["deprel", "head", "upos"], bias=True)
    res = agree_corpus(corpus, ["plain"], bias=True)
    by_layer = {p.layer: p for p in rep.bias.pairs}
    assert set(by_layer) == {"deprel", "head", "upos"}
    a, b = by_layer["deprel"], res.bias.pairs[0]
    assert (a.test.statistic, a.test.df, a.items) == (b.test.statistic, b.test.df, b.items)
    assert [x.label for x in a.flagged] == [x.label for x in b.flagged]
    for layer, la in rep.results.items():  # each layer's own table, through statsmodels
        t = la.pairs[0].table
        used = [k for k in range(t.shape[0]) if t[k].sum() + t[:, k].sum()]
        sub = t[np.ix_(used, used)]
        if len(by_layer[layer].test.components) == 1 and all(
                (sub + sub.T - 2 * np.diag(np.diag(sub))).sum(1) > 0):
            want = SquareTable(sub, shift_zeros=False).homogeneity()
            assert by_layer[layer].test.statistic == pytest.approx(want.statistic, rel=1e-8)


# --------------------------------------------------------------------------
# Known by construction: a relabelled label is flagged, random noise is not
# --------------------------------------------------------------------------

LABELS = ["nsubj", "obj", "obl", "nmod", "amod", "det", "case", "advmod", "conj", "cc"]
WEIGHTS = [10, 8, 9, 7, 6, 12, 14, 4, 3, 3]


def _reference(rng: random.Random, n: int = 300):
    out = []
    for _ in range(n):
        k = rng.randint(4, 12)
        # a tree: each word under an earlier one
        heads = [0] + [rng.randint(1, i) for i in range(1, k)]
        rels = ["root"] + rng.choices(LABELS, WEIGHTS, k=k - 1)
        out.append((heads, rels))
    return out


def _noisy(rng: random.Random, ref, rate: float, pool, prefer: float = 0.0):
    out = []
    for heads, rels in ref:
        new = list(rels)
        for i in range(1, len(new)):
            if prefer and new[i] == "obl" and rng.random() < prefer:
                new[i] = "nmod"  # the preference: obl written as nmod
            if rng.random() < rate:
                new[i] = rng.choice(pool)  # a slip: a label drawn from the corpus's own mix
        out.append(DepSentence.from_heads(heads, new))
    return out


def _corpus(seed: int, prefer: float):
    rng = random.Random(seed)
    ref = _reference(rng)
    pool = [r for _, rels in ref for r in rels[1:]]
    a = _noisy(random.Random(f"{seed}a"), ref, 0.1, pool)
    b = _noisy(random.Random(f"{seed}b"), ref, 0.1, pool, prefer)
    return Corpus.from_annotations({"a": a, "b": b})


def test_a_relabelled_label_is_flagged_with_its_direction():
    for seed in range(5):
        res = agree_corpus(_corpus(seed, prefer=0.3), ["plain"], bias=True)
        pb = res.bias.pairs[0]
        flagged = {x.label: pb.who(x) for x in pb.flagged}
        assert flagged == {"obl": "a", "nmod": "b"}, (seed, flagged)
        assert pb.test.p < 1e-3


@pytest.mark.slow
def test_random_noise_is_not_flagged():
    """Slips drawn from the labels' own distribution leave the margins equal in
    expectation: over 40 corpora, Holm keeps the share with any flagged label near
    5 %, and Stuart–Maxwell rejects about 5 % at 0.05."""
    any_flag = sm_reject = 0
    for seed in range(40):  # (categorical: the same tests, without the TED pass)
        rep = token_layer_agreement(_corpus(seed, prefer=0.0), ["deprel"], bias=True)
        pb = rep.bias.pairs[0]
        any_flag += bool(pb.flagged)
        sm_reject += pb.test.p < 0.05
    assert any_flag <= 6 and sm_reject <= 6, (any_flag, sm_reject)


def test_three_annotators_every_pair_and_json(run_cli, repo_root):
    d = repo_root / "tests" / "data" / "questions"
    rc, out, err = run_cli("agree", d / "anna.conllu", d / "ben.conllu", d / "cleo.conllu",
                           "--bias", "--metric", "plain", "--output", "json")
    assert rc == 0, err
    doc = json.loads(out)
    pairs = doc["details"]["bias"]["pairs"]
    assert [(p["first"], p["second"]) for p in pairs] == list(combinations(
        ["anna", "ben", "cleo"], 2))
    flagged = {(p["first"], p["second"]): p["flagged"] for p in pairs}
    assert flagged[("anna", "ben")] == []
    assert sorted(flagged[("anna", "cleo")]) == ["nmod", "obl"]
    assert sorted(flagged[("ben", "cleo")]) == ["nmod", "obl"]
    more = {r["label"]: r["more"] for r in pairs[1]["labels"]}
    assert (more["obl"], more["nmod"]) == ("anna", "cleo")
    assert doc["bias_flagged_labels"] == 4


def test_outputs_of_every_format(run_cli, repo_root, monkeypatch):
    monkeypatch.setenv("COLUMNS", "400")
    d = repo_root / "tests" / "data" / "questions"
    args = ["agree", d / "anna.conllu", d / "cleo.conllu", "--bias", "--metric", "plain"]
    rc, out, _ = run_cli(*args)
    assert rc == 0 and "Marginal homogeneity" in out and "nmod (cleo)" in out
    rc, csv_out, _ = run_cli(*args, "--output", "csv")
    rows = csv_out.splitlines()
    assert rows[0].startswith("section,") and {r.split(",")[0] for r in rows[1:]} >= {
        "summary", "bias", "bias_labels", "note"}
    rc, tex, _ = run_cli(*args, "--output", "latex")
    assert rc == 0 and tex.count("\\begin{tabular}") == 3
    rc, out, _ = run_cli("categorical", d / "anna.conllu", d / "cleo.conllu", "--bias",
                         "--layers", "deprel,upos", "--output", "markdown")
    assert rc == 0 and "| deprel | anna | cleo |" in out and "| upos | anna | cleo |" in out
    rc, out, _ = run_cli("categorical", d / "anna.conllu", d / "cleo.conllu", "--bias",
                         "--layers", "deprel", "--output", "json")
    assert json.loads(out)["bias"]["pairs"][0]["flagged"] == ["nmod", "obl"]


def test_bias_of_phrase_structure_is_a_usage_error(run_cli, repo_root):
    d = repo_root / "tests" / "data" / "qa"
    rc, _, err = run_cli("agree", d / "phrase-a.tree", d / "phrase-b.tree", "--bias")
    assert rc == 2 and "(usage)" in err and "--bias" in err


def test_bias_of_layers_matches_pair_tables():
    s = DepSentence.from_heads
    corpus = Corpus.from_annotations({"a": [s([0, 1], "root obl")] * 8,
                                      "b": [s([0, 1], "root nmod")] * 8,
                                      "c": [s([0, 1], "root obl")] * 8})
    from synagree.stats.categorical import categorical_agreement
    bias = bias_of_layers(categorical_agreement(corpus, ["deprel"]))
    assert [(p.first, p.second, len(p.flagged)) for p in bias.pairs] == [
        ("a", "b", 2), ("a", "c", 0), ("b", "c", 2)]
    assert any("agree on every word" in n for n in bias.notes)
