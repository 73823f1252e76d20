"""``synagree agree --breakdown``: agreement per label, UPOS, arc and sentence length.

The expected values of the example corpus (tests/data/breakdowns, derived by
hand in docs/agree-breakdowns.md) are asserted exactly; the coefficients are
checked against independent implementations (statsmodels' Fleiss' κ, the
categorical-agreement code, a textbook α loop) and the bins against the
corpus totals.
"""
from __future__ import annotations

import csv
import io
import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from synagree.agreement.agree import agree, agree_corpus
from synagree.agreement.breakdown import (
    ARC_BINS,
    UPOS_DIFFERS,
    arc_bin,
    breakdown,
    length_bin,
    length_bin_names,
)
from synagree.io.conllu import DepSentence
from synagree.io.corpus import Corpus, Unit
from synagree.render.agreement import render
from synagree.render.tables import render_csv
from synagree.stats.categorical import items_from_corpus, layer_agreement, nominal_alpha
from synagree.stats.krippendorff import krippendorff_alpha
from synagree.stats.per_category import CategoryTable

DATA = Path(__file__).resolve().parent / "data"
EX = DATA / "breakdowns"
FILES = [EX / "a.conllu", EX / "b.conllu"]


def approx(x):
    return pytest.approx(float(x), abs=1e-12)


@pytest.fixture(scope="module")
def example():
    res = agree(FILES)
    return res, breakdown(res, edges=[2])


# ---------------------------------------------------------------- bins


def test_bin_names():
    assert length_bin_names() == ["1-10", "11-20", "21-30", "31-40", "41+"]
    assert length_bin_names([2]) == ["1-2", "3+"]
    assert [length_bin(n, [2]) for n in (1, 2, 3, 50)] == ["1-2", "1-2", "3+", "3+"]
    with pytest.raises(ValueError):
        length_bin_names([5, 5])
    with pytest.raises(ValueError):
        length_bin_names([0, 5])
    assert [arc_bin(1, 2), arc_bin(2, 1), arc_bin(3, 0), arc_bin(10, 3), arc_bin(4, 10)] == \
        ["right 1", "left 1", "root", "left 7+", "right 3-6"]


# ---------------------------------------------------------------- the hand example


def test_labels_by_hand(example):
    _, bd = example
    rows = {r["label"]: r for r in bd.label_rows()}
    got = {k: (r["first"], r["second"], r["both"], r["both_head"]) for k, r in rows.items()}
    assert got == {"root": (4, 4, 4, 4), "nsubj": (3, 3, 3, 3), "advmod": (3, 1, 1, 1),
                   "amod": (1, 1, 1, 0), "obj": (1, 1, 1, 1), "obl": (0, 2, 0, 0)}
    assert [r["label"] for r in bd.label_rows()] == ["root", "nsubj", "advmod", "amod", "obj",
                                                     "obl"]
    assert rows["advmod"]["specific"] == 0.5 and rows["amod"]["specific_head"] == 0.0
    assert rows["obl"]["specific"] == 0.0 and rows["root"]["specific"] == 1.0
    # one-vs-rest alpha, n = 24 values: 1 - 23 * dis_c / (2 n_c (24 - n_c))
    assert rows["advmod"]["alpha"] == approx(Fraction(68, 160))  # 1 - 23*4/160
    assert rows["obl"]["alpha"] == approx(Fraction(-1, 22))  # 1 - 23*4/88
    assert rows["amod"]["alpha"] == 1.0 and rows["root"]["alpha"] == 1.0
    assert rows["advmod"]["values"] == 4 and rows["advmod"]["disagree"] == 4
    tot = bd.totals()
    assert (tot["words"], tot["LA_correct"], tot["LAS_full_correct"], tot["values"]) == \
        (12, 10, 9, 24)
    assert tot["alpha_label"] == approx(Fraction(89, 112))  # 1 - 23*4/448
    assert bd.confusion_rows() == [{"label_1": "advmod", "label_2": "obl", "words": 2.0,
                                    "first_label_1": 2.0, "first_label_2": 0.0,
                                    "same_head": 2.0}]


def test_upos_by_hand(example):
    _, bd = example
    got = {r["upos"]: (r["words"], r["LAS_full_correct"], r["UAS_correct"], r["LA_correct"])
           for r in bd.upos_rows()}
    assert got == {"VERB": (4, 4, 4, 4), "NOUN": (3, 3, 3, 3), "ADV": (2, 0, 2, 0),
                   UPOS_DIFFERS: (1, 1, 1, 1), "ADJ": (1, 0, 0, 1), "PRON": (1, 1, 1, 1)}


def test_arcs_by_hand(example):
    _, bd = example
    rows = bd.arc_rows()
    assert [r["arc"] for r in rows] == ["root", "left 1", "left 2", "right 1"]
    got = {r["arc"]: (r["first"], r["second"], r["both"], r["both_head"]) for r in rows}
    assert got == {"root": (4, 4, 4, 4), "left 1": (1, 2, 1, 1), "left 2": (2, 2, 2, 2),
                   "right 1": (5, 4, 4, 4)}
    alpha = {r["arc"]: r["alpha"] for r in rows}
    assert alpha["right 1"] == approx(Fraction(224, 270))  # 1 - 23*2/270
    assert alpha["left 1"] == approx(Fraction(80, 126))  # 1 - 23*2/126
    spec = {r["arc"]: r["specific"] for r in rows}
    assert spec["right 1"] == approx(Fraction(8, 9)) and spec["left 1"] == approx(Fraction(2, 3))


def test_lengths_by_hand(example):
    _, bd = example
    short, long_ = bd.lengths
    assert (short.name, short.units, short.annotations) == ("1-2", 2, 4)
    assert (long_.name, long_.units, long_.annotations) == ("3+", 2, 4)
    assert short.scores.correct == {"LAS": 3.0, "LAS_full": 3.0, "UAS": 4.0, "LA": 3.0}
    assert long_.scores.correct == {"LAS": 6.0, "LAS_full": 6.0, "UAS": 7.0, "LA": 7.0}
    # bin 1-2: TEDs 0 (s1), 1 (s2), 1 between units: do_sum 2, de_sum 10, alpha 1 - (2/4)/(10/12)
    st = short.alpha["plain"]
    assert (st.do_sum, st.de_sum, st.n) == (2.0, 10.0, 4)
    assert short.alpha_value("plain") == approx(Fraction(2, 5))
    # bin 3+: TEDs 2 (s3), 1 (s4), 2, 2, 3, 3 between: do_sum 10, de_sum 62
    st = long_.alpha["plain"]
    assert (st.do_sum, st.de_sum, st.n) == (10.0, 62.0, 4)
    assert long_.alpha_value("plain") == approx(Fraction(16, 31))
    for b in (short, long_):  # equal tree sizes within each bin: diff = norm = plain
        assert b.alpha_value("diff") == approx(b.alpha_value("plain"))
        assert b.alpha_value("norm") == approx(b.alpha_value("plain"))


def test_bins_with_the_bins_own_de_agree_with_a_corpus_of_the_bin(example):
    """alpha of a bin is alpha of the corpus made of the bin's units alone."""
    res, bd = example
    units = [u for u in res.corpus.units if u.uid in ("s3", "s4")]
    alone = agree_corpus(Corpus(res.corpus.annotators, units, "dependency"))
    assert bd.lengths[1].alpha_value("plain") == approx(alone.alpha_value("plain"))


# ---------------------------------------------------------------- more annotators, sums


def _s(heads, rels, upos=None):
    return DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels.split(),
                       upos=(upos or "").split())


def test_three_annotators_by_hand():
    unit = Unit("1", "d", {"a": _s([0, 1], "root obj", "VERB NOUN"),
                           "b": _s([0, 1], "root obj", "VERB NOUN"),
                           "c": _s([0, 1], "root nmod", "VERB PROPN")})
    res = agree_corpus(Corpus(["a", "b", "c"], [unit, unit], "dependency"))
    bd = breakdown(res)
    obj = bd.labels.counts("obj")
    third = 1 / 3  # each of the 3 pairs weighs 1/3 per unit; two identical units
    assert obj["first"] == approx(2 * 3 * third) and obj["second"] == approx(2 * third)
    assert obj["both"] == approx(2 * third)
    assert bd.labels.specific("obj") == approx(0.5)
    # alpha_obj: n = 12 values, n_obj = 4, per unit dis = 2*2*1/(3-1) = 2: 1 - 11*4/(2*4*8)
    assert bd.labels.alpha("obj") == approx(Fraction(1) - Fraction(44, 64))
    assert bd.confusion_rows() == [{"label_1": "nmod", "label_2": "obj", "words": approx(4 / 3),
                                    "first_label_1": 0.0, "first_label_2": approx(4 / 3),
                                    "same_head": approx(4 / 3)}]
    # LA per unit: pairs ab 2, ac 1, bc 1 -> mean 4/3; the same as agree's LA count
    assert bd.totals()["LA_correct"] == approx(res.scores.correct["LA"]) == approx(8 / 3)
    ups = {r["upos"]: r["words"] for r in bd.upos_rows()}
    assert ups == {"VERB": approx(2.0), "NOUN": approx(2 / 3), UPOS_DIFFERS: approx(4 / 3)}
    assert "weighted 1/(pairs of the unit)" in bd.notes[0]


def _check_sums(res, bd):
    sc = res.scores
    tot = bd.totals()
    assert tot["LA_correct"] == approx(sc.correct["LA"])
    assert tot["LAS_full_correct"] == approx(sc.correct["LAS_full"])
    assert tot["words"] == approx(sc.total)
    for m in ("LAS_full", "UAS", "LA"):
        assert sum(r[f"{m}_correct"] for r in bd.upos_rows()) == approx(sc.correct[m])
        assert sum(b.scores.correct[m] for b in bd.lengths) == approx(sc.correct[m])
    assert sum(r["words"] for r in bd.upos_rows()) == approx(sc.total)
    assert sum(r["both_head"] for r in bd.arc_rows()) == approx(sc.correct["UAS"])
    assert sum(r["first"] for r in bd.label_rows()) == approx(sc.total)
    assert sum(b.units for b in bd.lengths) == res.units
    assert sum(b.annotations for b in bd.lengths) == res.annotations


def test_views_add_up_to_the_corpus_scores(example):
    _check_sums(*example)


def test_three_annotators_parity_with_categorical():
    """With every unit coded by all annotators, specific agreement and α per label
    equal those of the categorical (token-layer) code for DEPREL."""
    res = agree([DATA / "qa" / f"{n}.conllu" for n in ("anna", "bert", "cleo")],
                allow_missing=True)
    bd = breakdown(res)
    _check_sums(res, bd)
    # alpha (coincidences) takes missing annotations as they come
    data = items_from_corpus(res.corpus, "deprel")
    la = layer_agreement(data, by_document=False)
    assert bd.labels.alpha_all() == approx(la.alpha())
    for k, lab in enumerate(data.categories):
        binary = np.where(data.codes < 0, -1, (data.codes == k).astype(int))
        assert bd.labels.alpha(lab) == approx(nominal_alpha(binary, 2))
    # units of differing annotator counts weigh differently (noted); on the
    # complete units, specific agreement is that of the pooled pair tables
    assert any("different numbers of annotations" in n for n in bd.notes)
    full = [u for u in res.corpus.units if len(u.annotations) == 3]
    sub = Corpus(res.corpus.annotators, full, "dependency")
    bd_full = breakdown(agree_corpus(sub))
    la_full = layer_agreement(items_from_corpus(sub, "deprel"), by_document=False)
    assert la_full.specific()
    for lab, ps in la_full.specific().items():
        assert bd_full.labels.specific(lab) == approx(ps)


def test_one_vs_rest_alpha_textbook_and_statsmodels():
    """α_c against the textbook double loop (krippendorff_alpha) and, with two
    annotators, against statsmodels' Fleiss' κ: α = 1 − (1 − κ)(n − 1)/n."""
    inter_rater = pytest.importorskip("statsmodels.stats.inter_rater")
    rng = np.random.default_rng(7)
    t = CategoryTable()
    for c in "xyz":
        t.code(c)
    rows = []
    for _ in range(25):
        w = int(rng.integers(1, 5))
        codes = rng.integers(0, 3, (2, w))
        codes[1] = np.where(rng.random(w) < 0.6, codes[0], codes[1])
        t.add_unit(codes, np.zeros((2, w)))
        rows.append(codes.T)
    x = np.concatenate(rows)
    n = 2 * x.shape[0]
    for k, c in enumerate("xyz"):
        b = (x == k).astype(int)
        assert t.alpha(c) == approx(krippendorff_alpha(b.T.tolist()).alpha)
        table = np.stack([b.sum(1), 2 - b.sum(1)], axis=1)
        kappa = inter_rater.fleiss_kappa(table, method="fleiss")
        assert t.alpha(c) == approx(1 - (1 - kappa) * (n - 1) / n)
    assert t.alpha_all() == approx(krippendorff_alpha(x.T.tolist()).alpha)


def test_retokenised_units_are_left_out_of_word_views():
    u1 = Unit("1", "d", {"a": _s([0, 1], "root obj"), "b": _s([0, 1], "root obj")})
    u2 = Unit("2", "d", {"a": _s([0, 1], "root obj"), "b": _s([0, 1, 1], "root obj dep")})
    res = agree_corpus(Corpus(["a", "b"], [u1, u2], "dependency"), )
    bd = breakdown(res)
    assert bd.ignored == 1 and bd.labels.units == 1 and bd.totals()["words"] == 2
    assert bd.lengths[0].units == 2 and bd.lengths[0].scores.ignored == 1
    assert any("differ in word count" in n for n in bd.notes)


def test_phrase_structure_gets_length_bins_only():
    phrase = DATA / "core" / "phrase"
    res = agree([phrase / "delex-a.tree", phrase / "delex-b.tree"], phrase_style="delex",
                breakdown=True)
    bd = res.breakdown
    assert bd.labels is None and bd.upos_rows() == [] and bd.arc_rows() == []
    assert bd.lengths[0].units == 2 and bd.lengths[0].scores.ratio("jaccard") == \
        approx(res.scores.ratio("jaccard"))
    assert any("dependency input" in n for n in bd.notes)
    d = json.loads(render(res, "json"))["details"]["breakdown"]
    assert "labels" not in d and d["lengths"][0]["jaccard"] == approx(res.scores.ratio("jaccard"))
    assert "Sentence length" in render(res, "table")


def test_single_unit_bin_is_noted():
    u1 = Unit("1", "d", {"a": _s([0, 1], "root obj"), "b": _s([0, 1], "root nmod")})
    u2 = Unit("2", "d", {"a": _s([0, 1, 1], "root obj obl"), "b": _s([0, 1, 1], "root obj obl")})
    res = agree_corpus(Corpus(["a", "b"], [u1, u2], "dependency"))
    bd = breakdown(res, [2])
    assert bd.lengths[0].alpha_value("plain") == 0.0
    assert any("length bin 1-2 holds one unit" in n for n in bd.notes)


def test_bin_with_identical_trees_is_noted_undefined_not_zero():
    # review: a one-unit bin whose annotations agree has D_e = 0: alpha is undefined
    # (shown "–"), and the note used to claim it was 0 by construction
    u1 = Unit("1", "d", {"a": _s([0, 1], "root obj"), "b": _s([0, 1], "root obj")})
    u2 = Unit("2", "d", {"a": _s([0, 1, 1], "root obj obl"), "b": _s([0, 1, 1], "root obj nmod")})
    res = agree_corpus(Corpus(["a", "b"], [u1, u2], "dependency"))
    bd = breakdown(res, [2])
    assert bd.lengths[0].alpha_value("plain") is None
    assert not any("1-2 holds one unit" in n for n in bd.notes)
    assert any("length bin 1-2: D_e = 0" in n and "undefined" in n for n in bd.notes)
    assert any("length bin 3+ holds one unit" in n for n in bd.notes)


# ---------------------------------------------------------------- outputs and CLI


def test_breakdown_section_goes_into_json_details():
    res = agree(FILES, breakdown=True, length_bins=[2])
    d = json.loads(render(res, "json"))
    assert d["details"]["breakdown"] == json.loads(json.dumps(res.breakdown.to_dict()))
    assert d["details"]["breakdown"]["lengths"][1]["counts"]["alpha_plain"]["de_sum"] == 62.0


def test_cli_formats(tmp_path, run_cli):
    args = [*FILES, "--breakdown", "--length-bins", "2"]
    rc, out, err = run_cli("agree", *args)
    assert rc == 0, err
    assert "advmod" in out and "0.4250" in out and "0.5161" in out and "(differs)" in out
    rc, out, _ = run_cli("agree", *args, "--output", "json")
    d = json.loads(out)["details"]["breakdown"]
    assert d["labels"]["rows"][2]["label"] == "advmod" and d["totals"]["alpha_label"] == \
        approx(Fraction(89, 112))
    # CSV: one long table; its summary section is the usual one-row CSV, losslessly
    rc, out, _ = run_cli("agree", *args, "--output", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    plain_header, plain_values = list(csv.reader(io.StringIO(render_csv(agree(FILES)))))
    summary = {r["quantity"]: r["value"] for r in rows if r["section"] == "summary"}
    assert summary == dict(zip(plain_header, plain_values))
    cell = {(r["section"], r["bin"], r["bin2"], r["quantity"]): r["value"] for r in rows}
    assert float(cell[("label", "advmod", "", "first")]) == 3.0
    assert float(cell[("label_confusion", "advmod", "obl", "same_head")]) == 2.0
    assert float(cell[("upos", "ADJ", "", "LA_correct")]) == 1.0
    assert float(cell[("arc", "right 1", "", "alpha")]) == approx(Fraction(224, 270))
    assert float(cell[("length", "3+", "", "alpha_plain_de_sum")]) == 62.0
    assert float(cell[("length", "3+", "", "alpha_plain")]) == approx(Fraction(16, 31))
    # LaTeX: the usual row, then the breakdown tables in percent
    rc, out, _ = run_cli("agree", *args, "--output", "latex")
    assert out.count("\\begin{tabular}") == 6 and "advmod & 3 & 1 & 1 & 1 & 50.0 & 50.0 & 42.5" \
        in out
    # -o suffix picks the format
    rc, _, _ = run_cli("agree", *args, "-o", tmp_path / "bd.csv")
    assert (tmp_path / "bd.csv").read_text().startswith("section,bin,bin2,quantity,value")


def test_default_output_unchanged(run_cli):
    rc, plain_out, _ = run_cli("agree", *FILES)
    rc2, bd_out, _ = run_cli("agree", *FILES, "--breakdown")
    assert rc == rc2 == 0
    assert bd_out.startswith(plain_out)  # the breakdown only adds after the usual output
    assert "Labels" not in plain_out


@pytest.mark.parametrize("extra", [["--length-bins", "10,20"], ["--breakdown", "--length-bins",
                                                                 "20,10"],
                                   ["--breakdown", "--length-bins", "0,5"],
                                   ["--breakdown", "--length-bins", "x"]])
def test_bad_options_exit_2(extra, run_cli):
    try:
        rc, _, err = run_cli("agree", *FILES, *extra)
    except SystemExit as exc:  # argparse type errors
        rc = exc.code
    assert rc == 2


def test_worst_and_breakdown_together(run_cli):
    rc, out, err = run_cli("agree", *FILES, "--breakdown", "--worst", "1")
    assert rc == 0, err
    assert "Labels" in out and out.index("Labels") < out.rindex("s3")
    rc, out, _ = run_cli("agree", *FILES, "--breakdown", "--worst", "1", "--output", "json")
    d = json.loads(out)["details"]
    assert "worst" in d and "breakdown" in d


# ---------------------------------------------------------------- real data


@pytest.mark.parametrize("pair", [("ndt", "odin-danish", "thor-danish"),
                                  ("cdt", "da-lotte", "da-morten")])
def test_real_data(pair, iaa):
    sub, a, b = pair
    res = agree([iaa / sub / f"{a}.conll", iaa / sub / f"{b}.conll"])
    bd = breakdown(res)
    _check_sums(res, bd)
    data = items_from_corpus(res.corpus, "deprel")
    la = layer_agreement(data, by_document=False)
    assert bd.labels.alpha_all() == approx(la.alpha())
    for lab, ps in la.specific().items():
        assert bd.labels.specific(lab) == approx(ps)
    assert [r["arc"] for r in bd.arc_rows()] == [x for x in ARC_BINS
                                                 if x in {r["arc"] for r in bd.arc_rows()}]
    # the confusions add up to the words whose labels differ
    assert sum(r["words"] for r in bd.confusion_rows()) == approx(
        res.scores.total - res.scores.correct["LA"])
