"""Enhanced dependencies (DEPS): ELAS/EULAS with parity to the official IWPT
scorer (``udeval``), and annotator agreement on enhanced edges.

Hand-checked numbers refer to ``tests/data/enhanced`` (docs/enhanced.md
derives them).
"""
from __future__ import annotations

import csv
import io
import json
import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from conftest import SHARED_DATA
from synagree.agreement.agree import load_corpus
from synagree.agreement.enhanced import enhanced_agreement
from synagree.base.problems import InputError
from synagree.evaluation.compare import compare
from synagree.evaluation.conll18 import (
    ENHANCED_METRICS,
    OFFICIAL_METRICS,
    evaluate,
    read_treebank,
    render_counts,
    render_scorer_table,
)
from synagree.render.compare import render
from synagree.stats.set_alpha import set_alpha

DATA = Path(__file__).resolve().parent / "data" / "enhanced"
ANNA, BERT = DATA / "anna.conllu", DATA / "bert.conllu"
PARITY = SHARED_DATA / "parity" / "conll18"
UD = SHARED_DATA / "ud"
ALL = list(OFFICIAL_METRICS) + list(ENHANCED_METRICS)


def _counts(s):
    return (s.correct, s.gold_total, s.system_total)


# --------------------------------------------------------------------------- hand-checked


def test_elas_eulas_by_hand():
    res = evaluate(ANNA, BERT)
    # gold: 5 + 5 + 3 edges between words (4 edges touch the empty node 5.1);
    # system: 4 + 5 + 6.  ELAS misses She's xsubj edge, Bill's conj:and (conj:or)
    # and the 3 system edges of the gapped clause; EULAS credits conj:or.
    assert _counts(res["ELAS"]) == (11, 13, 15)
    assert _counts(res["EULAS"]) == (12, 13, 15)
    assert res["ELAS"].f1 == pytest.approx(22 / 28) and res["EULAS"].f1 == pytest.approx(24 / 28)
    assert res["ELAS"].aligned_accuracy is None
    info = res.enhanced
    assert info.computed and (info.gold_empty_node_edges, info.system_empty_node_edges) == (4, 0)
    assert info.surplus == {"ELAS": 0, "EULAS": 0}


def test_compare_outputs_carry_elas():
    res = compare(ANNA, [BERT], alpha=False)
    assert res.rows()[-2:] == ["ELAS", "EULAS"]
    d = json.loads(render(res, "json"))["systems"][0]
    assert d["counts"]["ELAS"]["correct"] == 11 and d["counts"]["EULAS"]["system"] == 15
    assert d["enhanced"]["gold_empty_node_edges"] == 4 and d["enhanced"]["computed"]
    rows = {r["metric"]: r for r in csv.DictReader(io.StringIO(render(res, "csv")))}
    assert (rows["ELAS"]["correct"], rows["ELAS"]["gold"], rows["ELAS"]["predicted"]) == \
        ("11", "13", "15")
    latex = render(res, "latex")
    assert "ELAS & 78.57 \\\\" in latex and "EULAS & 85.71 \\\\" in latex
    verbose = render(res, "table", verbose=True).splitlines()
    assert verbose[15:17] == ["ELAS       |     73.33 |     84.62 |     78.57 |",
                              "EULAS      |     80.00 |     92.31 |     85.71 |"]
    assert any("leave out 4 gold and 0 system" in n for n in res.notes)


def test_system_without_deps_leaves_elas_out_with_a_note(tmp_path):
    """Absent, never zero: gold has DEPS, the system none.  The scorer would print 0.00
    (and -v still does, for parity); compare's table, JSON, CSV and LaTeX leave ELAS
    and EULAS out and a note says why."""
    text = BERT.read_text(encoding="utf-8").splitlines()
    bare = tmp_path / "bare.conllu"
    bare.write_text("\n".join(
        "\t".join(cols[:8] + ["_"] + cols[9:]) if len(cols := line.split("\t")) == 10
        and "." not in cols[0] else line
        for line in text if not (line[:1].isdigit() and "." in line.split("\t")[0]))
        + "\n", encoding="utf-8")
    res = compare(ANNA, [bare], alpha=False)
    scorer = evaluate(ANNA, bare)
    assert scorer["ELAS"].f1 == 0.0  # the scorer's number, which would read as a score
    assert "ELAS" not in res.rows() and "EULAS" not in res.rows()
    d = json.loads(render(res, "json"))["systems"][0]
    assert "ELAS" not in d["counts"] and not d["enhanced"]["system_has_deps"]
    assert any("ELAS/EULAS left out" in n and "no enhanced graph" in n for n in res.notes)
    for fmt in ("table", "csv", "latex", "markdown"):
        out = render(res, fmt)
        assert "ELAS" not in out.replace("ELAS/EULAS left out", ""), fmt
    verbose = render(res, "table", verbose=True)
    assert "ELAS       |      0.00 |" in verbose


def test_no_deps_in_gold_means_no_elas(tmp_path):
    plain = tmp_path / "plain.conllu"
    lines = []
    for line in ANNA.read_text(encoding="utf-8").splitlines():
        c = line.split("\t")
        if len(c) == 10:
            if "." in c[0]:
                continue
            c[8] = "_"
        lines.append("\t".join(c))
    plain.write_text("\n".join(lines) + "\n", encoding="utf-8")
    res = evaluate(plain, BERT)
    assert "ELAS" not in res and not res.enhanced.computed
    assert "DEPS column is _ throughout" in res.enhanced.reason
    cres = compare(plain, [BERT], alpha=False)
    assert "ELAS" not in cres.rows()
    assert any("ELAS/EULAS not computed" in n and "prints 0.00" in n for n in cres.notes)
    # neither file has DEPS: no note (nothing enhanced to evaluate), JSON says why
    none = compare(plain, [plain], alpha=False)
    assert not any("ELAS" in n for n in none.notes)
    assert json.loads(render(none, "json"))["systems"][0]["enhanced"]["computed"] is False
    # enhanced=True scores it anyway, as the official scorer does
    assert _counts(evaluate(plain, BERT, enhanced=True)["ELAS"]) == (0, 0, 15)


def test_surplus_matches_are_counted_and_noted(tmp_path):
    sys = tmp_path / "dup.conllu"
    sys.write_text(BERT.read_text(encoding="utf-8").replace("\t0:root\t", "\t0:root|0:root\t", 1),
                   encoding="utf-8")
    res = evaluate(ANNA, sys)
    assert _counts(res["ELAS"]) == (12, 13, 16) and res.enhanced.surplus["ELAS"] == 1
    assert any("surplus" in n for n in res.enhanced.notes())


@pytest.mark.parametrize("deps,kind", [("2nsubj", "bad-deps"), ("x:nsubj", "bad-deps"),
                                       ("2:", "bad-deps"), ("1-2:dep", "bad-deps"),
                                       ("9:nsubj", "head-out-of-range")])
def test_malformed_deps_are_errors(deps, kind):
    bad = ANNA.read_text(encoding="utf-8").replace("2:nsubj|4:nsubj:xsubj", deps)
    with pytest.raises(InputError) as info:
        read_treebank(bad, "bad.conllu")
    assert [(p.kind, p.line) for p in info.value.errors] == [(kind, 3)]


# --------------------------------------------------------------------------- agreement


def _masi(a, b):
    """NLTK's masi_distance, written out (two empty sets: 0)."""
    if not a and not b:
        return 0.0
    inter, union = len(a & b), len(a | b)
    if a == b:
        m = 1.0
    elif a <= b or b <= a:
        m = 2 / 3
    elif inter:
        m = 1 / 3
    else:
        m = 0.0
    return 1 - inter / union * m


def _jaccard(a, b):
    return 0.0 if not (a | b) else 1 - len(a & b) / len(a | b)


def _textbook_alpha(items, d):
    """α over the coincidence matrix of the values (Krippendorff 2004, ch. 11)."""
    values = sorted({v for row in items for v in row if v is not None}, key=sorted)
    idx = {v: k for k, v in enumerate(values)}
    o = np.zeros((len(values), len(values)))
    for row in items:
        vs = [v for v in row if v is not None]
        m = len(vs)
        if m < 2:
            continue
        for i, j in ((i, j) for i in range(m) for j in range(m) if i != j):
            o[idx[vs[i]], idx[vs[j]]] += 1 / (m - 1)
    nc = o.sum(1)
    n = nc.sum()
    delta = np.array([[d(a, b) for b in values] for a in values])
    return 1 - (n - 1) * (o * delta).sum() / (np.outer(nc, nc) * delta).sum()


def test_agreement_by_hand():
    corpus = load_corpus([ANNA, BERT], ())
    res = enhanced_agreement(corpus)
    elas, eulas = res.levels["ELAS"], res.levels["EULAS"]
    assert (res.units, res.edges, res.empty_node_edges) == (3, {"anna": 13, "bert": 15},
                                                            {"anna": 3, "bert": 0})
    assert elas.alpha.n == 28 and elas.alpha.units == 14
    assert elas.alpha.d_o == pytest.approx(41 / 126) and elas.alpha.d_e == pytest.approx(517 / 567)
    assert elas.alpha.alpha == pytest.approx(665 / 1034)
    assert eulas.alpha.alpha == pytest.approx(2197 / 3088)
    assert (elas.pairs[0].matches, eulas.pairs[0].matches) == (11, 12)
    assert elas.pairs[0].f1 == pytest.approx(evaluate(ANNA, BERT)["ELAS"].f1)
    jac = enhanced_agreement(corpus, "jaccard")
    assert jac.levels["ELAS"].alpha.alpha == pytest.approx(92 / 137)
    assert float(Fraction(92, 137)) == pytest.approx(0.6715, abs=1e-4)


def test_set_alpha_matches_the_textbook_computation():
    rng = np.random.default_rng(5)
    universe = list("abcde")
    for trial in range(30):
        m = int(rng.integers(2, 5))
        items = []
        for _ in range(int(rng.integers(2, 25))):
            row = []
            for _ in range(m):
                if rng.random() < 0.15:
                    row.append(None)
                else:
                    k = int(rng.integers(0, 3))
                    row.append(frozenset(rng.choice(universe, size=k, replace=False).tolist()))
            items.append(row)
        for name, d in (("masi", _masi), ("jaccard", _jaccard)):
            ours = set_alpha(items, name).alpha
            with np.errstate(divide="ignore", invalid="ignore"):
                theirs = _textbook_alpha(items, d)
            if ours is None:  # D_e = 0: the textbook formula divides by zero
                assert not math.isfinite(theirs)
            else:
                assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12), (trial, name)


def test_pairwise_f1_is_symmetric():
    a = enhanced_agreement(load_corpus([ANNA, BERT], ())).levels["ELAS"].pairs[0]
    b = enhanced_agreement(load_corpus([BERT, ANNA], ())).levels["ELAS"].pairs[0]
    assert (a.matches, a.f1) == (b.matches, b.f1) and (a.edges_a, a.edges_b) == (b.edges_b,
                                                                                    b.edges_a)


def test_agreement_needs_an_enhanced_graph(tmp_path, run_cli):
    plain = tmp_path / "plain.conllu"
    plain.write_text("\n".join("\t".join(c[:8] + ["_", c[9]]) if len(c) == 10 else "\t".join(c)
                               for c in (line.split("\t") for line in
                                         BERT.read_text(encoding="utf-8").splitlines()))
                     + "\n", encoding="utf-8")
    rc, out, err = run_cli("categorical", ANNA, plain, "--enhanced")
    assert rc == 2 and "no-enhanced-graph" in err and "plain.conllu" in err


def test_categorical_enhanced_options_are_not_silently_ignored(run_cli):
    # review: --set-distance without --enhanced changed nothing, silently; --bootstrap
    # gives no interval for the enhanced-edge numbers, silently
    rc, out, err = run_cli("categorical", ANNA, BERT, "--set-distance", "jaccard")
    assert rc == 2 and "--set-distance applies to --enhanced" in err and out == ""
    rc, out, err = run_cli("categorical", ANNA, BERT, "--enhanced", "--bootstrap", "40")
    assert rc == 0, err
    assert "note: --bootstrap gives intervals for the token layers only" in out
    rc, out, err = run_cli("categorical", ANNA, BERT, "--enhanced", "--bootstrap", "40",
                           "--output", "json")
    assert any("--bootstrap" in n for n in json.loads(out)["enhanced"]["notes"])


def test_categorical_specific_needs_its_layer(run_cli):
    # review: --specific on a layer not in --layers was an internal error (KeyError)
    rc, out, err = run_cli("categorical", ANNA, BERT, "--layers", "upos", "--specific",
                           "deprel")
    assert rc == 2 and "--specific deprel: the layer is not among --layers" in err
    assert "internal error" not in err


@pytest.mark.parametrize("fmt", ["table", "json", "csv", "markdown", "latex"])
def test_categorical_enhanced_formats(fmt, run_cli):
    rc, out, err = run_cli("categorical", ANNA, BERT, "--layers", "deprel", "--enhanced",
                           "--output", fmt)
    assert rc == 0, err
    if fmt == "json":
        d = json.loads(out)["enhanced"]
        assert d["levels"]["ELAS"]["pairs"][0]["matches"] == 11
        assert d["levels"]["ELAS"]["alpha"] == pytest.approx(665 / 1034)
    else:
        assert "0.6431" in out and "0.7857" in out and "13" in out


# --------------------------------------------------------------------------- parity


@pytest.fixture(scope="module")
def udeval():
    try:
        import udtools.udeval as mod
    except ImportError as e:
        pytest.skip(f"udtools (official scorer with ELAS/EULAS) not importable: {e}")
    return mod


def _oracle(udeval, gold_text, system_text):
    g = udeval.load_conllu(io.StringIO(gold_text), "gold", {})
    s = udeval.load_conllu(io.StringIO(system_text), "system", {})
    return udeval.evaluate(g, s)


def _check_parity(udeval, gold_text, system_text):
    ours = evaluate(gold_text, system_text, enhanced=True)
    theirs = _oracle(udeval, gold_text, system_text)
    for m in ALL:
        assert (_counts(ours[m]), ours[m].aligned_total) == \
            (_counts(theirs[m]), theirs[m].aligned_total), m
    assert render_scorer_table(ours, metrics=ALL) == \
        udeval.build_evaluation_table(theirs, True, False, True)
    assert render_counts(ours, metrics=ALL) == \
        udeval.build_evaluation_table(theirs, True, True, True)
    return ours


@pytest.mark.parametrize("gold,system", [("gold.conllu", "sys1.conllu"),
                                         ("gold.conllu", "sys2.conllu"),
                                         ("gold.conllu", "sys-space.conllu"),
                                         ("case-gold.conllu", "case-sys.conllu"),
                                         ("func-gold.conllu", "func-sys.conllu")])
def test_parity_on_the_2018_fixtures(udeval, gold, system):
    if not PARITY.is_dir():
        pytest.skip(f"shared parity fixtures not found at {PARITY}")
    ours = _check_parity(udeval, (PARITY / gold).read_text(encoding="utf-8"),
                         (PARITY / system).read_text(encoding="utf-8"))
    assert "ELAS" not in evaluate(PARITY / gold, PARITY / system)  # DEPS is _ there
    assert _counts(ours["ELAS"])[1] == 0


def _blocks(text):
    return [b for b in text.split("\n\n") if b.strip()]


def perturb_deps(text, rng, p=0.1):
    """Change DEPS heads and labels, drop, add and repeat edges (empty nodes kept)."""
    labels = ["nsubj", "obj", "obl:in", "obl:on", "conj:and", "conj:or", "nmod:poss", "root",
              "advmod", "nsubj:xsubj", "ref", "acl:relcl"]
    out = []
    for block in _blocks(text):
        lines = block.split("\n")
        ids = [ln.split("\t")[0] for ln in lines if ln and ln[0] != "#"]
        heads = ["0"] + [i for i in ids if "-" not in i]
        new = []
        for ln in lines:
            c = ln.split("\t")
            if len(c) != 10 or "-" in c[0] or c[8] == "_":
                new.append(ln)
                continue
            edges = [e.split(":", 1) for e in c[8].split("|")]
            kept = []
            for h, lab in edges:
                r = rng.random()
                if r < p:
                    h = str(rng.choice(heads))
                elif r < 2 * p:
                    lab = str(rng.choice(labels)) if rng.random() < 0.5 else \
                        lab.split(":")[0] + ":x"
                elif r < 2.5 * p:
                    continue
                kept.append([h, lab])
            if rng.random() < p:
                kept.append([str(rng.choice(heads)), str(rng.choice(labels))])
            if kept and rng.random() < p / 4:
                kept.append(list(kept[0]))  # a repeated edge
            c[8] = "|".join(f"{h}:{lab}" for h, lab in kept) or "_"
            new.append("\t".join(c))
        out.append("\n".join(new))
    return "\n\n".join(out) + "\n\n"


def retokenise(text, rng, p=0.1):
    """Group two plain tokens into a multiword token (member forms sometimes changed)
    or dissolve a multiword token whose members spell it; word IDs are kept."""
    out = []
    for block in _blocks(text):
        lines = block.split("\n")
        new = []
        k = 0
        mwt_end = 0  # last member of the latest multiword token kept
        while k < len(lines):
            ln, c = lines[k], lines[k].split("\t")
            nxt = lines[k + 1].split("\t") if k + 1 < len(lines) else None
            if len(c) == 10 and "-" in c[0]:
                a, b = map(int, c[0].split("-"))
                members = [x.split("\t") for x in lines[k + 1:k + 2 + b - a]]
                if "".join(m[1] for m in members) == c[1] and rng.random() < 3 * p:
                    k += 1  # dissolve: the members become tokens
                    continue
                mwt_end = b
            if (len(c) == 10 and c[0].isdigit() and int(c[0]) > mwt_end and nxt
                    and len(nxt) == 10 and nxt[0].isdigit() and rng.random() < p):
                surface = c[1] + nxt[1]
                r = rng.random()
                if r < 0.3:
                    c[1] = c[1].upper()
                elif r < 0.5:
                    nxt[1] = nxt[1] + "x"
                new.append(f"{c[0]}-{nxt[0]}\t{surface}" + "\t_" * 8)
                new += ["\t".join(c), "\t".join(nxt)]
                k += 2
                continue
            new.append(ln)
            k += 1
        out.append("\n".join(new))
    return "\n\n".join(out) + "\n\n"


def _ewt(name):
    path = UD / name
    if not path.is_file():
        pytest.skip(f"UD English EWT not found at {path}")
    return path.read_text(encoding="utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("name", ["en_ewt-ud-dev.conllu", "en_ewt-ud-test.conllu"])
def test_parity_on_ewt_with_perturbed_deps(udeval, name):
    gold = _ewt(name)
    assert "\n1.1\t" in gold or ".1\t" in gold  # EWT has empty nodes
    system = perturb_deps(gold, np.random.default_rng(2020))
    ours = _check_parity(udeval, gold, system)
    assert ours["ELAS"].correct < ours["ELAS"].gold_total
    assert ours["EULAS"].correct > ours["ELAS"].correct
    assert ours.enhanced.gold_empty_node_edges > 0
    assert ours.enhanced.surplus["ELAS"] > 0  # repeated edges: counted as the scorer does


@pytest.mark.slow
def test_parity_on_ewt_with_differing_tokenisation(udeval):
    gold = _ewt("en_ewt-ud-test.conllu")
    rng = np.random.default_rng(2021)
    blocks = _blocks(gold)
    for k in range(12):
        start = int(rng.integers(len(blocks) - 40))
        chunk = "\n\n".join(blocks[start:start + 40]) + "\n\n"
        system = retokenise(perturb_deps(chunk, rng, 0.05), rng)
        ours = _check_parity(udeval, chunk, system)
        if k == 0:
            assert ours["Words"].correct < ours["Words"].gold_total  # tokenisation differs
    whole = _check_parity(udeval, gold, retokenise(perturb_deps(gold, rng), rng))
    assert whole["Words"].correct < whole["Words"].gold_total
    assert whole["Tokens"].correct < whole["Tokens"].gold_total
