"""Annotation QA (synagree.qa): per-unit diagnostics, worst list, pair matrix,
leave-one-out α, annotator distances, bootstrap and comparison of rounds.

The three-annotator fixture (tests/data/qa/README.md) has hand-computed
values: every tree is P = ε(root(obj)) or Q = ε(root(subj)), TED(P, Q) = 1,
all sizes 3, so the three α variants coincide.

    s1: anna P, bert P, cleo Q     s2: Q, Q, Q     s3: anna P, cleo P (no bert)

* α: n = 8 values (4 P, 4 Q); D_o = (1/8)·(4 ordered disagreeing pairs in s1)/2
  = 1/4; D_e = 2·4·4/(8·7) = 4/7; α = 1 − 7/16 = 9/16.
* anna–bert (s1, s2): D_o = 0 → α = 1.
* anna–cleo (s1, s2, s3): n = 6 (3 P, 3 Q); D_o = (1/6)·2 = 1/3;
  D_e = 2·9/30 = 3/5; α = 1 − 5/9 = 4/9.
* bert–cleo (s1, s2): n = 4 (1 P, 3 Q); D_o = (1/4)·2 = 1/2; D_e = 6/12; α = 0.
* leave out anna → {bert, cleo} on s1, s2 → 0; leave out bert → anna–cleo → 4/9;
  leave out cleo → anna–bert → 1.
* LAS anna–cleo: s1 1 of 2, s2 2 of 2, s3 2 of 2 → 5/6; bert–cleo 3/4; UAS 1.
* mean TED to the others: anna (0 + 1 + 0 + 0 + 0)/5, bert (0 + 1 + 0 + 0)/4,
  cleo (1 + 1 + 0 + 0 + 0)/5.
"""
from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement import qa
from synagree.agreement.agree import agree_corpus, load_corpus
from synagree.cli.parsers import agree as agree_parser
from synagree.render import qa as render_qa
from synagree.render.agreement import render as render_agreement

QA = Path(__file__).resolve().parent / "data" / "qa"
from conftest import SHARED_DATA as SHARED

IAA = SHARED / "iaa"


def need_shared():
    if not IAA.is_dir():
        pytest.skip(f"shared reference data not found at {SHARED} (expected ../shared/data "
                    f"beside the project root)")


@pytest.fixture(scope="module")
def three():
    corpus = load_corpus([QA / f"{n}.conllu" for n in ("anna", "bert", "cleo")],
                         allow_missing=True)
    return agree_corpus(corpus)


@pytest.fixture(scope="module")
def cdt_en():
    need_shared()
    corpus = load_corpus([IAA / "cdt" / "en-lotte.conll", IAA / "cdt" / "en-morten.conll"])
    return agree_corpus(corpus, bootstrap=300, seed=11)


# --------------------------------------------------------------------------
# Three-annotator fixture: hand-known values
# --------------------------------------------------------------------------

def test_fixture_alpha(three):
    for v in ("plain", "diff", "norm"):
        assert three.alpha[v].alpha == pytest.approx(9 / 16, abs=1e-14)
    assert three.alpha["plain"].d_o == pytest.approx(1 / 4)


def test_pair_matrix_hand_values(three):
    pm = qa.pair_matrix(three)
    assert pm.annotators == ["anna", "bert", "cleo"]
    assert pm.units.tolist() == [[3, 2, 3], [2, 2, 2], [3, 2, 3]]
    for v in ("plain", "diff", "norm"):
        a = pm.alpha[v]
        assert a[0, 1] == pytest.approx(1.0) and a[1, 0] == pytest.approx(1.0)
        assert a[0, 2] == pytest.approx(4 / 9, abs=1e-14)
        assert a[1, 2] == pytest.approx(0.0, abs=1e-14)
        assert all(math.isnan(a[i, i]) for i in range(3))
    assert pm.las[0, 1] == 1.0 and pm.las[0, 2] == pytest.approx(5 / 6)
    assert pm.las[1, 2] == pytest.approx(3 / 4)
    assert pm.la[0, 2] == pytest.approx(5 / 6) and pm.uas[1, 2] == 1.0
    assert pm.words[0, 2] == 6 and pm.words[1, 2] == 4
    assert pm.mean_ted[0, 2] == pytest.approx(1 / 3) and pm.mean_ted[1, 2] == pytest.approx(1 / 2)
    d = pm.to_dict()
    assert d["alpha_plain"][0][0] is None and d["units"][1][1] == 2


def test_leave_one_out_hand_values(three):
    loo = {x.annotator: x for x in qa.leave_one_out(three)}
    assert loo["anna"].alpha["plain"] == pytest.approx(0.0, abs=1e-14)
    assert loo["anna"].units == 2
    assert loo["bert"].alpha["plain"] == pytest.approx(4 / 9, abs=1e-14)
    assert loo["bert"].units == 3
    assert loo["cleo"].alpha["plain"] == pytest.approx(1.0)
    assert loo["cleo"].change["plain"] == pytest.approx(1 - 9 / 16)
    assert loo["anna"].change["norm"] == pytest.approx(-9 / 16)


def test_annotator_distances_hand_values(three):
    d = {x.annotator: x for x in qa.annotator_distances(three)}
    assert (d["anna"].comparisons, d["bert"].comparisons, d["cleo"].comparisons) == (5, 4, 5)
    assert d["anna"].mean_ted == pytest.approx(1 / 5)
    assert d["bert"].mean_ted == pytest.approx(1 / 4)
    assert d["cleo"].mean_ted == pytest.approx(2 / 5)
    assert d["cleo"].mean_norm == pytest.approx(2 / 5 / 6)
    assert d["bert"].units == 2


def test_unit_diagnostics_and_worst_on_fixture(three):
    diags = qa.unit_diagnostics(three)
    assert [x.uid for x in diags] == ["s1", "s2", "s3"]
    s1 = diags[0]
    assert s1.contribution["plain"] == pytest.approx(1 / 4)  # (4 / 2) / 8
    assert s1.contribution["norm"] == pytest.approx((4 / 36) / 2 / 8)
    assert s1.mean_ted == pytest.approx(2 / 3)
    assert [(a, b) for a, b, _ in s1.disagreeing_pairs] == [("anna", "cleo"), ("bert", "cleo")]
    (w,) = s1.differing_words
    assert (w.index, w.form, w.kind) == (2, "apples", "label")
    assert w.deprels == {"anna": "obj", "bert": "obj", "cleo": "subj"}
    assert diags[2].annotators == ["anna", "cleo"]
    worst = qa.worst_units(three, 10)
    assert [x.uid for x in worst] == ["s1"]  # the others contribute nothing
    for v in ("plain", "diff", "norm"):
        assert sum(x.contribution[v] for x in diags) == pytest.approx(three.alpha[v].d_o,
                                                                       rel=1e-12)


def test_phrase_structure_units():
    corpus = load_corpus([QA / "phrase-a.tree", QA / "phrase-b.tree"])
    res = agree_corpus(corpus)
    diags = qa.unit_diagnostics(res)
    assert len(diags) == 3 and diags[1].mean_ted == 0
    assert sum(d.contribution["plain"] for d in diags) == pytest.approx(res.alpha["plain"].d_o,
                                                                        rel=1e-12)
    assert all(d.differing_words == [] for d in diags)
    pm = qa.pair_matrix(res)
    assert pm.alpha["plain"][0, 1] == pytest.approx(res.alpha["plain"].alpha)
    assert math.isnan(pm.las[0, 1])


# --------------------------------------------------------------------------
# Shared CDT / NDT data
# --------------------------------------------------------------------------

@pytest.mark.parametrize("files", [("cdt/da-lotte.conll", "cdt/da-morten.conll"),
                                   ("cdt/en-lotte.conll", "cdt/en-morten.conll"),
                                   ("ndt/odin-danish.conll", "ndt/thor-danish.conll"),
                                   ("ndt/odin-norwegian.conll", "ndt/thor-norwegian.conll")])
def test_contributions_sum_to_d_o_exactly(files):
    need_shared()
    res = agree_corpus(load_corpus([IAA / f for f in files]))
    diags = qa.unit_diagnostics(res)
    assert len(diags) == res.units
    for v in ("plain", "diff", "norm"):
        total = math.fsum(d.contribution[v] for d in diags)
        assert total == pytest.approx(res.alpha[v].d_o, rel=1e-12)
        # α = 1 − Σ contributions / D_e
        assert 1 - total / res.alpha[v].d_e == pytest.approx(res.alpha[v].alpha, rel=1e-12)


def test_worst_list_and_pair_matrix_on_cdt(cdt_en):
    worst = qa.worst_units(cdt_en, 10)
    assert len(worst) == 10
    c = [w.contribution["plain"] for w in worst]
    assert c == sorted(c, reverse=True) and c[-1] > 0
    all_c = sorted((d.contribution["plain"] for d in qa.unit_diagnostics(cdt_en)), reverse=True)
    assert c == all_c[:10]
    top = worst[0]
    assert top.text and top.annotators == ["en-lotte", "en-morten"]
    assert top.differing_words and top.mean_ted == top.ted[0, 1]
    assert qa.worst_units(cdt_en, 5, variant="diff")[0].contribution["diff"] == max(
        d.contribution["diff"] for d in qa.unit_diagnostics(cdt_en))
    pm = qa.pair_matrix(cdt_en)
    # two annotators: the pair is the corpus
    for v in ("plain", "diff", "norm"):
        assert pm.alpha[v][0, 1] == pytest.approx(cdt_en.alpha[v].alpha, rel=1e-12)
    assert pm.las[0, 1] == pytest.approx(0.884406657, abs=1e-9)  # REFERENCE.md
    assert pm.units[0, 1] == 264
    assert all(x.alpha["plain"] is None for x in qa.leave_one_out(cdt_en))
    worst = qa.worst_list(cdt_en, 3)
    text = render_qa.render_worst(worst, width=100)  # fitted to 100 columns
    assert "d_o_" in text and top.label in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "d_o_share,mean_ted" in render_qa.render_worst(worst, "csv")
    for fmt in ("csv", "markdown", "latex"):
        assert top.label in render_qa.render_worst(worst, fmt)
    js = json.loads(render_qa.render_worst(worst, "json"))
    assert js[0]["uid"] == top.uid and js[0]["differing_words"]


def test_bootstrap_shares_resamples_with_core(cdt_en):
    b = qa.bootstrap_intervals(cdt_en, 300, seed=11, categorical_layers=["deprel", "head"])
    core = cdt_en.bootstrap  # agree_corpus(bootstrap=300, seed=11)
    for name in ("alpha_plain", "alpha_diff", "alpha_norm", "LAS_full", "UAS", "LA"):
        assert np.allclose(b.intervals[name].replicates, core.replicates[name], equal_nan=True)
        lo, hi = core.ci(name)
        assert (b.intervals[name].low, b.intervals[name].high) == pytest.approx((lo, hi))
    for name in ("alpha_plain", "LAS_full", "deprel_cohen_kappa", "deprel_alpha_nominal",
                 "head_scott_pi"):
        iv = b.intervals[name]
        assert iv.low <= iv.estimate <= iv.high
        assert iv.se > 0
    # deprel observed agreement is LA; its replicates equal LA's (same resamples)
    assert np.allclose(b.intervals["deprel_observed"].replicates, b.intervals["LA"].replicates)
    d = b.to_dict()
    assert len(d["metrics"]["alpha_plain"]["replicates"]) == 300


def test_bootstrap_without_kept_matrix_equals_with(three):
    # `three` was computed without bootstrap: the unit × unit sums are built on demand
    b1 = qa.bootstrap_intervals(three, 200, seed=4)
    corpus = three.corpus
    b2 = qa.bootstrap_intervals(agree_corpus(corpus, bootstrap=200, seed=4), 200, seed=4)
    for k in ("alpha_plain", "alpha_norm", "LAS_full"):
        assert np.allclose(b1.intervals[k].replicates, b2.intervals[k].replicates,
                           equal_nan=True)


@pytest.mark.slow
def test_report_compares_rounds_on_the_regression_engine(tmp_path, run_cli):
    """report --baseline: one round-comparison engine for every command (method §18), a
    stored report or agree JSON as the previous round, paired over matched sentences."""
    need_shared()
    cdt = [IAA / "cdt" / "en-lotte.conll", IAA / "cdt" / "en-morten.conll"]
    old = tmp_path / "old.json"
    assert run_cli("report", *cdt, "--output", "json", "--layers", "", "-o", old, "-q")[0] == 0
    stored = json.loads(old.read_text())
    assert stored["details"]["per_unit"]["ids"] and "alpha_plain" in stored
    rc, out, err = run_cli("report", *cdt, "--output", "json", "--layers", "", "--baseline",
                           old, "--test-replicates", "200", "-q")
    assert rc == 0, err
    [r] = json.loads(out)["details"]["baseline"]["results"]
    same = {c["metric"]: c for c in r["metrics"]}
    assert same["alpha_plain"]["delta"] == 0 and not same["alpha_plain"]["significant"]
    # agree's JSON serves as the previous round too, and the page shows the change
    agree_old = tmp_path / "agree.json"
    assert run_cli("agree", *cdt, "-o", agree_old, "-q")[0] == 0
    page = tmp_path / "r.html"
    rc, _, err = run_cli("report", *cdt, "--layers", "", "--baseline", agree_old, "-o", page,
                         "-q")
    assert rc == 0, err
    assert "Change since the previous round" in page.read_text(encoding="utf-8")


def test_worst_section_for_agree(three):
    res = agree_corpus(three.corpus, worst=2)
    text = render_agreement(res, "table")
    assert "s1" in text and "apples" in text
    assert json.loads(render_agreement(res, "json"))["details"]["worst"][0]["uid"] == "s1"
    assert agree_corpus(three.corpus).worst is None
    p = argparse.ArgumentParser()
    agree_parser.add_worst_args(p)
    a = p.parse_args(["--worst", "5", "--variant", "norm"])
    assert a.worst == 5 and a.variant == "norm"
    # the earlier spelling is still accepted
    assert p.parse_args(["--worst-variant", "diff"]).variant == "diff"


def test_qa_summary_tables(three):
    d = qa.qa_summary(three, worst=5, bootstrap_replicates=50, layers=["deprel"])
    assert d["worst"]["units"][0]["uid"] == "s1"
    assert d["pairs"]["alpha_plain"][0][2] == pytest.approx(4 / 9)
    assert "deprel_cohen_kappa" in d["bootstrap"]["metrics"]
    json.dumps(d, allow_nan=False)  # strict JSON: no NaN
    for fmt in ("csv", "markdown", "latex", "table"):
        text = render_qa.render_tables(d, fmt)
        assert "anna" in text and "alpha_plain" in text
