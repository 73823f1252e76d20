"""Categorical agreement on token layers (synagree.categorical).

Hand-computed examples first (every expected number is derived in the
comments), then agreement with statsmodels / scikit-learn on random data when
those are importable, then the corpus-level views and the CLI.
"""
from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement.agree import load_corpus
from synagree.stats import categorical as C
from synagree.stats import contingency as T
from synagree.stats.krippendorff import krippendorff_alpha

QA = Path(__file__).resolve().parent / "data" / "qa"
from conftest import SHARED_DATA as SHARED


def three():
    return load_corpus([QA / f"{n}.conllu" for n in ("anna", "bert", "cleo")],
                       allow_missing=True)


# --------------------------------------------------------------------------
# Hand-computed examples
# --------------------------------------------------------------------------

# Two raters, yes/no, 50 items: yes-yes 20, yes-no 5, no-yes 10, no-no 15.
# A_o = 35/50 = 0.7.  Marginals: rater 1 yes 25/50, rater 2 yes 30/50.
# Cohen: P_e = .5·.6 + .5·.4 = .5, κ = (.7 − .5)/.5 = 0.4.
# Scott: pooled yes (25+30)/100 = .55, P_e = .55² + .45² = .505,
#        π = (.7 − .505)/(.495) = 0.195/0.495.
# Specific: yes 2·20/(25+30) = 40/55, no 2·15/(25+20) = 30/45.
TABLE = np.array([[20, 5], [10, 15]])


def test_two_by_two_hand_example():
    assert T.observed_agreement(TABLE) == pytest.approx(0.7, abs=1e-15)
    assert T.cohen_kappa(TABLE) == pytest.approx(0.4, abs=1e-15)
    assert T.scott_pi(TABLE) == pytest.approx(0.195 / 0.495, abs=1e-15)
    ps = T.specific_agreement(TABLE)
    assert ps[0] == pytest.approx(40 / 55, abs=1e-15)
    assert ps[1] == pytest.approx(30 / 45, abs=1e-15)
    # the sparse table gives the same numbers
    ct = T.Contingency.from_dense(TABLE)
    assert (ct.observed(), ct.kappa(), ct.pi()) == pytest.approx(
        (0.7, 0.4, 0.195 / 0.495), abs=1e-15)
    assert np.allclose(ct.specific(), ps)
    assert (ct.dense() == TABLE).all()


def test_degenerate_tables_are_undefined_not_errors():
    t = np.array([[10, 0], [0, 0]])  # one category only: P_e = 1
    assert T.observed_agreement(t) == 1.0
    assert math.isnan(T.cohen_kappa(t)) and math.isnan(T.scott_pi(t))
    assert math.isnan(T.cohen_kappa(np.zeros((2, 2))))


# Fleiss (1971) as in the Wikipedia worked example: 10 subjects, 14 raters,
# 5 categories; P̄ = 0.378022, P̄_e = 0.213243, κ = 0.209931 (Wikipedia rounds: 0.210).
FLEISS = np.array([[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0],
                   [2, 2, 8, 1, 1], [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2],
                   [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]])


def test_fleiss_worked_example():
    pbar = ((FLEISS * (FLEISS - 1)).sum(1) / (14 * 13)).mean()
    p = FLEISS.sum(0) / 140
    expected = (pbar - p @ p) / (1 - p @ p)
    assert expected == pytest.approx(0.209931, abs=1e-6)
    assert C.fleiss_kappa(FLEISS) == pytest.approx(expected, abs=1e-15)


# Three raters A, B, C; four items (x/y):
#   i1: x x x   i2: x x y   i3: y y y   i4: x y y
# P_o = mean over items of agreeing ordered pairs / 6 = (1 + 1/3 + 1 + 1/3)/4 = 2/3.
# Marginals A (3/4, 1/4), B (1/2, 1/2), C (1/4, 3/4).
# Davies & Fleiss: P_e = mean over pairs of Σ_k p_a p_b = (1/2 + 3/8 + 1/2)/3 = 11/24,
#   κ = (2/3 − 11/24)/(13/24) = 5/13.
# Fleiss: pooled (1/2, 1/2), P_e = 1/2, κ = (2/3 − 1/2)/(1/2) = 1/3.
# α nominal: n = 12 (6 x, 6 y); disagreeing coincidences: items 2 and 4 have
#   4 disagreeing ordered pairs each, / (m − 1) = 2 → Σ = 4;
#   α = 1 − 11·4 / (144 − 72) = 7/18.
CODES = np.array([[0, 0, 0], [0, 0, 1], [1, 1, 1], [0, 1, 1]])


def test_three_rater_hand_example():
    assert C.davies_fleiss_kappa(CODES) == pytest.approx(5 / 13, abs=1e-15)
    counts = np.stack([np.bincount(r, minlength=2) for r in CODES])
    assert C.fleiss_kappa(counts) == pytest.approx(1 / 3, abs=1e-15)
    assert C.nominal_alpha(CODES) == pytest.approx(7 / 18, abs=1e-15)
    # the generic α of synagree.alpha agrees (coders × units layout)
    assert krippendorff_alpha(CODES.T.tolist()).alpha == pytest.approx(7 / 18, abs=1e-15)
    o = C.coincidences(CODES, 2)
    assert o.tolist() == [[4.0, 2.0], [2.0, 4.0]]
    assert C.alpha_from_coincidences(o) == pytest.approx(7 / 18, abs=1e-15)


def test_two_raters_multi_coefficients_reduce_to_cohen_and_scott():
    rng = np.random.default_rng(5)
    codes = rng.integers(0, 4, size=(200, 2))
    codes[:120, 1] = codes[:120, 0]
    t = C.pair_table(codes, 0, 1, 4)
    counts = np.stack([np.bincount(r, minlength=4) for r in codes])
    assert C.davies_fleiss_kappa(codes, 4) == pytest.approx(T.cohen_kappa(t), abs=1e-14)
    assert C.fleiss_kappa(counts) == pytest.approx(T.scott_pi(t), abs=1e-14)


def test_missing_values_in_alpha():
    # Krippendorff's 3-coder, 15-unit nominal example (α = 0.691 with missing values)
    data = [[None, None, None, None, None, 3, 4, 1, 2, 1, 1, 3, 3, None, 3],
            [1, None, 2, 1, 3, 3, 4, 3, None, None, None, None, None, None, None],
            [None, None, 2, 1, 3, 4, 4, None, 2, 1, 1, 3, 3, None, 4]]
    codes = np.array([[-1 if v is None else v - 1 for v in row] for row in data]).T
    assert C.nominal_alpha(codes, 4) == pytest.approx(0.691, abs=5e-4)
    assert C.nominal_alpha(codes, 4) == pytest.approx(krippendorff_alpha(data).alpha,
                                                      abs=1e-14)


# --------------------------------------------------------------------------
# Against statsmodels / scikit-learn on random data
# --------------------------------------------------------------------------

def _random_codes(seed, n, m, k, agree=0.6):
    rng = np.random.default_rng(seed)
    truth = rng.integers(0, k, size=n)
    codes = np.empty((n, m), dtype=np.int64)
    for a in range(m):
        noise = rng.integers(0, k, size=n)
        codes[:, a] = np.where(rng.random(n) < agree, truth, noise)
    return codes


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cohen_kappa_matches_sklearn_and_statsmodels(seed):
    sk = pytest.importorskip("sklearn.metrics")
    ir = pytest.importorskip("statsmodels.stats.inter_rater")
    codes = _random_codes(seed, 300, 2, 5)
    t = C.pair_table(codes, 0, 1, 5)
    ours = T.cohen_kappa(t)
    assert ours == pytest.approx(sk.cohen_kappa_score(codes[:, 0], codes[:, 1]), abs=1e-12)
    assert ours == pytest.approx(ir.cohens_kappa(t).kappa, abs=1e-12)
    # Scott's π is Fleiss' κ with two raters
    agg, _ = ir.aggregate_raters(codes)
    assert T.scott_pi(t) == pytest.approx(ir.fleiss_kappa(agg), abs=1e-12)


@pytest.mark.parametrize("seed,m", [(3, 3), (4, 5), (5, 8)])
def test_fleiss_kappa_matches_statsmodels(seed, m):
    ir = pytest.importorskip("statsmodels.stats.inter_rater")
    codes = _random_codes(seed, 250, m, 6)
    agg, _ = ir.aggregate_raters(codes)
    assert C.fleiss_kappa(agg) == pytest.approx(ir.fleiss_kappa(agg), abs=1e-12)
    # and the layer machinery computes the same from codes
    data = C.ItemData("x", [f"r{i}" for i in range(m)], [str(i) for i in range(6)],
                      codes.astype(np.int32), np.arange(250) // 10,
                      [str(u) for u in range(25)], ["d"] * 25)
    la = C.layer_agreement(data, by_document=False)
    assert la.fleiss() == pytest.approx(ir.fleiss_kappa(agg), abs=1e-12)
    assert la.davies_fleiss() == pytest.approx(C.davies_fleiss_kappa(codes, 6), abs=1e-12)
    assert la.alpha() == pytest.approx(C.nominal_alpha(codes, 6), abs=1e-12)


def test_davies_fleiss_is_mean_pair_chance_kappa():
    codes = _random_codes(9, 400, 4, 3, agree=0.5)
    N, m = codes.shape
    counts = np.stack([np.bincount(r, minlength=3) for r in codes])
    po = ((counts * (counts - 1)).sum(1) / (m * (m - 1))).mean()
    marg = [np.bincount(codes[:, a], minlength=3) / N for a in range(m)]
    pe = np.mean([marg[a] @ marg[b] for a in range(m) for b in range(m) if a != b])
    assert C.davies_fleiss_kappa(codes) == pytest.approx((po - pe) / (1 - pe), abs=1e-14)


# --------------------------------------------------------------------------
# Corpus level
# --------------------------------------------------------------------------

def test_layers_on_three_annotator_fixture():
    corpus = three()
    res = C.categorical_agreement(corpus, ["deprel", "head", "upos"])
    la = res["deprel"]
    # s1: obj/obj/subj on word 2; all else agree; bert lacks s3 (items with 2 values)
    assert la.items == 6 and la.complete_items == 4
    pairs = {(p.a, p.b): p for p in la.pairs}
    assert pairs[("anna", "bert")].items == 4
    assert pairs[("anna", "cleo")].items == 6
    assert pairs[("anna", "cleo")].coefficients()["observed"] == pytest.approx(5 / 6)
    # pooled observed agreement: 14 pair comparisons, 12 agree
    assert la.observed() == pytest.approx(12 / 14)
    # α from the generic implementation with missing values
    d = C.items_from_corpus(corpus, "deprel")
    assert la.alpha() == pytest.approx(krippendorff_alpha(d.codes.T.tolist(), missing=-1).alpha)
    # head offsets: every head agrees
    assert res["head"].observed() == 1.0
    # UPOS has one category only: chance-corrected coefficients undefined
    assert math.isnan(res["upos"].coefficients()["cohen_kappa"])
    # specific agreement over the pooled pair tables (pairs anna-bert, anna-cleo,
    # bert-cleo; rows = first of the pair):
    #   obj:  n_kk = 1 (ab, s1) + 1 (ac, s3) = 2; row 1 + 2 + 1 = 4; col 1 + 1 + 0 = 2
    #         → 2·2 / 6 = 2/3
    #   subj: n_kk = 3 (s2, each pair); row 3; col 1 + 2 + 2 = 5 → 6/8 = 3/4
    #   root: always agreed → 1
    spec = la.specific()
    assert spec == pytest.approx({"obj": 2 / 3, "subj": 3 / 4, "root": 1.0})
    assert la.specific_macro() == pytest.approx((2 / 3 + 3 / 4 + 1) / 3)


def test_unit_sums_reproduce_pooled_coefficients():
    corpus = three()
    for layer in ("deprel", "head"):
        data = C.items_from_corpus(corpus, layer)
        la = C.layer_agreement(data, by_document=False)
        s = C.unit_sums(data)
        got = C.coefficients_from_sums(s, np.ones((1, s.n_units)))
        for k in ("observed", "cohen_kappa", "scott_pi", "alpha_nominal"):
            assert got[k][0] == pytest.approx(la.coefficients()[k], abs=1e-14, nan_ok=True)
        # doubling every unit changes nothing for A_o; weights are honoured
        got2 = C.coefficients_from_sums(s, 2 * np.ones((1, s.n_units)))
        assert got2["observed"][0] == pytest.approx(got["observed"][0])


def test_macro_and_micro_over_documents(tmp_path):
    """Two documents per annotator directory: micro pools, macro averages."""
    def block(rows):
        return "\n".join("\t".join([str(i), f"w{i}", "_", "X", "X", "_", str(h), lab, "_", "_"])
                         for i, (h, lab) in enumerate(rows, start=1)) + "\n\n"
    a1 = block([(0, "root"), (1, "obj"), (1, "obj")]) + block([(0, "root"), (1, "nsubj")])
    b1 = block([(0, "root"), (1, "obj"), (1, "nmod")]) + block([(0, "root"), (1, "nsubj")])
    a2 = block([(0, "root"), (1, "obj"), (2, "det")])
    b2 = block([(0, "root"), (1, "nmod"), (2, "det")])
    for ann, docs in (("a", (a1, a2)), ("b", (b1, b2))):
        (tmp_path / ann).mkdir()
        (tmp_path / ann / f"doc1-{ann}.conllu").write_text(docs[0])
        (tmp_path / ann / f"doc2-{ann}.conllu").write_text(docs[1])
    corpus = load_corpus(dirs=[tmp_path / "a", tmp_path / "b"])
    la = C.categorical_agreement(corpus, ["deprel"])["deprel"]
    assert set(la.by_document) == {"doc1", "doc2"}
    assert la.by_document["doc1"].observed() == pytest.approx(4 / 5)
    assert la.by_document["doc2"].observed() == pytest.approx(2 / 3)
    assert la.observed() == pytest.approx(6 / 8)  # micro: pooled items
    md = la.macro_documents()
    assert md["observed"] == pytest.approx((4 / 5 + 2 / 3) / 2)  # macro: mean of documents
    per = [la.by_document[d].coefficients()["cohen_kappa"] for d in ("doc1", "doc2")]
    assert md["cohen_kappa"] == pytest.approx(np.mean(per))
    # macro over categories: mean of specific agreement; micro = observed agreement
    assert la.specific_macro() == pytest.approx(np.mean(list(la.specific().values())))
    d = la.to_dict()
    assert d["macro_documents"]["observed"] == pytest.approx(md["observed"])
    assert set(d["documents"]) == {"doc1", "doc2"}


def test_word_count_mismatch_is_ignored(tmp_path):
    a = tmp_path / "a.conllu"
    b = tmp_path / "b.conllu"
    a.write_text("1\tx\t_\tX\tX\t_\t0\troot\t_\t_\n2\ty\t_\tX\tX\t_\t1\tobj\t_\t_\n\n"
                 "1\tz\t_\tX\tX\t_\t0\troot\t_\t_\n\n")
    b.write_text("1\txy\t_\tX\tX\t_\t0\troot\t_\t_\n\n"  # same text, one token
                 "1\tz\t_\tX\tX\t_\t0\troot\t_\t_\n\n")
    la = C.categorical_agreement(load_corpus([a, b]), ["deprel"])["deprel"]
    assert la.ignored_units == 1 and la.items == 1


def test_shared_cdt_pairs_equal_pooled():
    d = SHARED / "iaa" / "cdt"
    if not d.is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    corpus = load_corpus([d / "da-lotte.conll", d / "da-morten.conll"])
    res = C.categorical_agreement(corpus)
    la = res["deprel"]
    p = la.pairs[0].coefficients()
    # two annotators: D&F κ = Cohen's κ, Fleiss κ = Scott's π, A_o = LA of docs/method.md §6
    assert la.davies_fleiss() == pytest.approx(p["cohen_kappa"], abs=1e-14)
    assert la.fleiss() == pytest.approx(p["scott_pi"], abs=1e-14)
    assert la.observed() == pytest.approx(0.923976608, abs=1e-9)  # REFERENCE.md LA
    assert res["head"].observed() == pytest.approx(0.961152882, abs=1e-9)  # UAS
    b = C.layer_bootstrap(C.items_from_corpus(corpus, "deprel"), B=200, seed=1)
    assert b["cohen_kappa"].low < la.davies_fleiss() < b["cohen_kappa"].high
    b2 = C.layer_bootstrap(C.items_from_corpus(corpus, "deprel"), B=200, seed=1)
    assert np.array_equal(b["cohen_kappa"].replicates, b2["cohen_kappa"].replicates)


# --------------------------------------------------------------------------
# CLI
# --------------------------------------------------------------------------

def test_cli_categorical(capsys):
    from synagree.cli.main import main
    files = [str(QA / f"{n}.conllu") for n in ("anna", "bert", "cleo")]
    assert main(["categorical", *files, "--allow-missing", "--specific", "deprel"]) == 0
    out = capsys.readouterr().out
    assert "cohen_kappa" in out and "obj" in out
    assert "cohen_kappa: Davies & Fleiss' kappa, scott_pi: Fleiss' kappa" in " ".join(
        out.split())  # three annotators: the values line says what the keys are
    assert main(["categorical", *files, "--allow-missing", "--output", "json",
                 "--bootstrap", "50", "--confusion"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["layers"]["deprel"]["coefficient_names"]["cohen_kappa"] == "Davies & Fleiss kappa"
    assert "table" in d["layers"]["deprel"]["pairs"][0]
    assert "deprel" in d["bootstrap"]["intervals"]
    for fmt in ("csv", "markdown", "latex"):
        assert main(["categorical", *files, "--allow-missing", "--output", fmt]) == 0
        assert "deprel" in capsys.readouterr().out
    assert main(["categorical", *files, "--allow-missing", "--layers", "nonsense"]) == 2
    assert "unknown layer" in capsys.readouterr().err
