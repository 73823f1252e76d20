"""--tag-syntax alternatives, --bdm and --wu-palmer (docs/method.md §15, §23): parser, errors,
numbers by hand."""
from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from synagree.base.problems import InputError
from synagree.evaluation.compare import compare
from synagree.evaluation.tags import evaluate_tags
from synagree.stats.hierarchical_kappa import hierarchical_kappa
from synagree.trees.annotation_bdm import (
    closeness_against_gold,
    expected_closeness,
    tag_closeness,
)
from synagree.trees.hierarchy import Hierarchy
from synagree.trees.tag_syntax import (
    TagSyntaxError,
    format_annotation,
    parse_annotation,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "tagcredit"
GOLD, SYSTEM, XPOS = DATA / "gold.conllu", DATA / "system.conllu", DATA / "xpos.txt"
ROOTED = DATA / "xpos-rooted.txt"  # the same under one root concept (GATE's BDM needs one)
# GATE's BDM on ROOTED, by hand (docs/tag-credit.md): n0 = 2, every n = 2, mean branching
# 11/5; NNS-NN: bran 2/(11/5) = 10/11, x = 5/11, 5/11 / (5/11 + 1/2 + 1/2) = 5/16;
# NNS-N: 5/11 / (5/11 + 1/2) = 10/21; VBD-VBZ: bran 15/11, 15/22 / (15/22 + 1) = 15/37
BDM_NNS_NN, BDM_NNS_N, BDM_VBD_VBZ = 5 / 16, 10 / 21, 15 / 37


# ------------------------------------------------------------------ parser
@pytest.mark.parametrize("text,expected", [
    ("NN", "NN"), ("NN|NNS", ("NN", "NNS")), ("NN=0.7|NNS=0.3", {"NN": 0.7, "NNS": 0.3}),
    ("NN=1", "NN"), (r"a\|b", "a|b"), (r"a\=b|c\\d", ("a=b", "c\\d")),
    ("x=0.5|y=0.4995", {"x": 0.5 / 0.9995, "y": 0.4995 / 0.9995}),  # within 0.001: rescaled
])
def test_parse(text, expected):
    assert parse_annotation(text) == expected


@pytest.mark.parametrize("text,words", [
    ("", "empty"), ("NN|", "empty alternative"), ("|NN", "empty alternative"),
    ("=0.5|NN=0.5", "no tag"), ("NN|NN", "repeated"), (r"a\x", "unknown escape"),
    ("a\\", "lone backslash"), ("NN=0.5|NNS", "some alternatives only"),
    ("NN=2", "not in (0, 1]"), ("NN=0|NNS=1", "not in (0, 1]"), ("NN=x", "not a number"),
    ("NN=0.7|NNS=0.2", "sum to 0.9"), ("a=b=0.5|c=0.5", "more than one '='"),
    ("NN=nan", "not in (0, 1]"),
])
def test_parse_errors(text, words):
    with pytest.raises(TagSyntaxError, match=words.replace("(", r"\(").replace(")", r"\)")):
        parse_annotation(text)


tag_text = st.text(alphabet="ab|=\\:", min_size=1, max_size=5)


@given(st.lists(tag_text, min_size=1, max_size=4, unique=True))
def test_round_trip(tags):
    ann = tags[0] if len(tags) == 1 else tuple(tags)
    assert parse_annotation(format_annotation(ann)) == ann
    dist = {t: 1 / len(tags) for t in tags}
    if len(tags) > 1:
        assert parse_annotation(format_annotation(dist)) == pytest.approx(dist)


# ------------------------------------------------------------------ closeness over annotations
def test_wu_palmer_by_hand():
    h = Hierarchy.from_file(XPOS)
    wup = tag_closeness(h, "wu-palmer")
    assert closeness_against_gold(wup, "NNS", "N") == pytest.approx(2 / 3)
    assert closeness_against_gold(wup, ["VB", "VBZ"], "VBZ") == 1.0
    assert closeness_against_gold(wup, "NNS", ("NN", "NNS")) == 0.75
    assert closeness_against_gold(wup, "VBD", {"VBD": 0.6, "VBZ": 0.4}) == pytest.approx(0.8)
    assert expected_closeness(wup, ("NN", "NNS"), ("NN", "NNS")) == 0.75
    assert expected_closeness(wup, "NN", "VB") == 0.0


def test_gate_bdm_by_hand():
    bdm = tag_closeness(Hierarchy.from_file(ROOTED), "bdm")
    assert bdm("NNS", "NN") == pytest.approx(BDM_NNS_NN, rel=1e-6)
    assert bdm("NNS", "N") == pytest.approx(BDM_NNS_N, rel=1e-6)
    assert bdm("VBD", "VBZ") == pytest.approx(BDM_VBD_VBZ, rel=1e-6)
    assert bdm("RB", "JJ") == 0.0  # common ancestor XPOS, a top class: CP = 0
    assert closeness_against_gold(bdm, "NNS", ("NN", "NNS")) == pytest.approx(
        (BDM_NNS_NN + 1) / 2, rel=1e-6)
    assert expected_closeness(bdm, ("NN", "NNS"), ("NN", "NNS")) == pytest.approx(
        (1 + 1 + 2 * BDM_NNS_NN) / 4, rel=1e-6)
    # without the root, N is a top class: GATE gives siblings and N/NNS nothing
    flat_top = tag_closeness(Hierarchy.from_file(XPOS), "bdm")
    assert flat_top("NNS", "NN") == flat_top("NNS", "N") == 0.0 and flat_top("NN", "NN") == 1.0


# ------------------------------------------------------------------ tags
def test_tags_by_hand():
    res = evaluate_tags(GOLD, SYSTEM, "xpos", str(XPOS), tag_syntax="alternatives",
                        wu_palmer=True)
    assert (res.words, res.exact) == (6, 1)
    assert res.credit == pytest.approx(3.6)  # 1/2 + 1 + 0 + 1/2 + 0.6 + 1
    assert res.alt_correct == pytest.approx(3.1)  # 0 + 1 + 0 + 1/2 + 0.6 + 1
    assert res.wup == pytest.approx(2 / 3 + 1 + 0 + 0.75 + 0.8 + 1)
    assert res.bdm is None and res.bdm_prf is None
    assert (res.gold_alternatives, res.system_alternatives, res.system_probabilities) == (1, 2, 1)
    rows = {r.tag: r for r in res.per_tag}
    assert set(rows) == {"NNS", "RB", "VBD", "VB|VBZ"}
    assert (rows["NNS"].credit, rows["NNS"].alt_correct) == (1.0, 0.5)
    assert rows["NNS"].wup == pytest.approx(2 / 3 + 0.75)
    assert rows["VB|VBZ"].mean_credit == 1.0
    # hierarchical kappa: gold alternatives as a uniform distribution (§15.2)
    h = Hierarchy.from_file(XPOS)
    pairs = [("NNS", "N"), (("VB", "VBZ"), "VBZ"), ("RB", "JJ"), ("NNS", ("NN", "NNS")),
             ("VBD", {"VBD": 0.6, "VBZ": 0.4}), ("RB", "RB")]
    assert res.hierarchical_kappa == pytest.approx(hierarchical_kappa(h, pairs).kappa)
    d = res.to_dict()
    assert d["accuracy_alt"] == pytest.approx(3.1 / 6)
    assert d["counts"]["wup"] == pytest.approx(res.wup) and "bdm" not in d["counts"]


def test_tags_gate_bdm_by_hand():
    res = evaluate_tags(GOLD, SYSTEM, "xpos", str(ROOTED), tag_syntax="alternatives", bdm=True)
    # Dogs NNS/N, bark VB|VBZ/VBZ, loudly RB/JJ, Cats NNS/NN|NNS, slept VBD/VBD=.6|VBZ=.4, today
    words = [BDM_NNS_N, 1.0, 0.0, (BDM_NNS_NN + 1) / 2, 0.6 + 0.4 * BDM_VBD_VBZ, 1.0]
    assert res.bdm == pytest.approx(sum(words), rel=1e-6)
    rows = {r.tag: r for r in res.per_tag}
    assert rows["NNS"].bdm == pytest.approx(words[0] + words[3], rel=1e-6)
    # GATE's BDM-based P/R/F: five words with a positive BDM match; loudly is missing and
    # spurious; with one annotation per word on both sides P = R = F = the mean BDM
    b = res.bdm_prf
    assert (b.matches, b.missing, b.spurious) == (5, 1, 1)
    assert b.precision() == b.recall() == pytest.approx(sum(words) / 6, rel=1e-6)
    assert b.f1() == pytest.approx(res.mean_bdm)
    assert res.to_dict()["bdm_prf"]["strict"]["f1"] == pytest.approx(res.mean_bdm)


def test_tags_plain_default_unchanged_and_noted():
    plain = evaluate_tags(GOLD, SYSTEM, "xpos", str(XPOS))
    assert plain.credit == 1.5 and plain.alt_correct is None and plain.bdm is None
    assert len(plain.notes) == 1 and "3 xpos value(s)" in plain.notes[0]
    assert "tag_syntax" not in plain.to_dict()
    upos = evaluate_tags(GOLD, SYSTEM, "upos")
    assert upos.notes == []


def test_tags_errors_name_file_and_line(tmp_path):
    sys_text = SYSTEM.read_text().replace("VBZ\t", "VBZ|\t", 1)
    bad = tmp_path / "sys.conllu"
    bad.write_text(sys_text)
    with pytest.raises(InputError) as exc:
        evaluate_tags(GOLD, bad, "xpos", tag_syntax="alternatives")
    [p] = exc.value.errors
    assert (p.file, p.line, p.kind) == (str(bad), 4, "tag-syntax")
    assert "xpos value 'VBZ|'" in p.message
    # probabilities in gold are refused
    with pytest.raises(InputError) as exc:
        evaluate_tags(SYSTEM, GOLD, "xpos", tag_syntax="alternatives")
    assert [(e.line, e.kind) for e in exc.value.errors] == [(10, "tag-syntax")]
    with pytest.raises(InputError, match="feats"):
        evaluate_tags(GOLD, SYSTEM, "feats", tag_syntax="alternatives")


def test_tags_cli_formats(run_cli, tmp_path):
    args = ["tags", GOLD, SYSTEM, "--column", "xpos", "--hierarchy", XPOS,
            "--tag-syntax", "alternatives", "--bdm", "--wu-palmer"]
    rc, out, _ = run_cli(*args, "--output", "csv")
    assert rc == 0
    head, all_row = out.splitlines()[:2]
    assert head.endswith("credit,alt_correct,accuracy_alt,bdm,accuracy_bdm,bdm_precision,"
                         "bdm_recall,bdm_f1,wup,accuracy_wup,note")
    assert all_row.split(",")[8:10] == ["3.6", "3.1"]
    assert float(all_row.split(",")[-3]) == pytest.approx(2 / 3 + 1 + 0 + 0.75 + 0.8 + 1)
    rc, out, _ = run_cli(*args)
    assert "BDM credit (GATE)" in out and "Wu-Palmer credit" in out
    rc, out, _ = run_cli(*args, "--output", "json")
    assert json.loads(out)["alternatives"] == {"gold_words": 1, "system_words": 2,
                                               "system_probabilities": 1}
    rc, out, err = run_cli("tags", GOLD, SYSTEM, "--column", "feats", "--tag-syntax",
                           "alternatives")
    assert rc == 2 and "feats" in err


# ------------------------------------------------------------------ compare
def test_compare_by_hand():
    res = compare(str(GOLD), [str(SYSTEM)], hierarchy="ud", alpha=False,
                  tag_syntax="alternatives", bdm=True, wu_palmer=True)
    sc = res.systems[0].scores
    assert sc["LAS_hier"].correct == pytest.approx(3.0)  # 1/2 + 1 + 1/2 + 0 + 1 + 0
    assert sc["LAS_wup"].correct == pytest.approx(3.5)  # ... + 1/2 for the sibling
    # GATE: obl:npmod and obl:tmod meet in obl, a top class, so the sibling gets 0
    assert sc["LAS_bdm"].correct == pytest.approx(3.0)
    assert sc["LAS"].correct == 2
    assert res.rows()[-2:] == ["LAS_bdm", "LAS_wup"]
    assert res.as_dict()["tag_syntax"] == "alternatives"
    assert res.as_dict()["bdm_definition"] == "gate"
    plain = compare(str(GOLD), [str(SYSTEM)], hierarchy="ud", alpha=False)
    assert any("DEPREL value(s) contain" in n for n in plain.notes)
    with pytest.raises(InputError, match="need --hierarchy"):
        compare(str(GOLD), [str(SYSTEM)], alpha=False, bdm=True)


def test_compare_formats(run_cli):
    args = ["compare", GOLD, SYSTEM, "--hierarchy", "ud", "--tag-syntax", "alternatives",
            "--bdm", "--no-alpha"]
    rc, out, _ = run_cli(*args, "--wu-palmer", "--output", "csv")
    rows = [r for r in out.splitlines() if ",LAS_wup," in r]
    assert rc == 0 and len(rows) == 1 and ",3.5,6,6,6," in rows[0]
    rows = [r for r in out.splitlines() if ",LAS_bdm," in r]
    assert len(rows) == 1 and ",3.0,6,6,6," in rows[0]
    rc, out, _ = run_cli(*args, "--wu-palmer", "--output", "latex")
    assert "LAS\\_wup" in out and "58.33" in out and "LAS\\_bdm" in out
    rc, out, _ = run_cli(*args, "-v")
    assert "LAS_bdm" in out


# ------------------------------------------------------------------ agree
def test_agree_by_hand(run_cli):
    rc, out, err = run_cli("agree", GOLD, SYSTEM, "--hierarchy", "ud", "--tag-syntax",
                           "alternatives", "--bdm", "--output", "json")
    assert rc == 0, err
    extra = json.loads(out)
    flat = json.dumps(extra)
    # GATE: today's advmod|obl:tmod vs obl:npmod scores 0 both ways (obl is a top class)
    assert '"LA_bdm": 0.75' in flat and '"LA_hier": 0.75' in flat
    assert '"LAS_bdm": 0.5833333333333334' in flat
    rc, out, err = run_cli("agree", GOLD, SYSTEM, "--hierarchy", "ud", "--tag-syntax",
                           "alternatives", "--wu-palmer", "--output", "json")
    assert '"LA_wup": 0.8125' in json.dumps(json.loads(out)) and "LA_bdm" not in out
    rc, out, err = run_cli("agree", GOLD, SYSTEM, "--bdm")
    assert rc == 2 and "need --hierarchy" in err


def test_agree_alpha_h_with_alternatives(run_cli):
    rc, out, err = run_cli("agree", GOLD, SYSTEM, "--hierarchy", "ud", "--tag-syntax",
                           "alternatives", "--label-distance", "hierarchy")
    assert rc == 0, err
    assert "alpha_plain_hier" in out


def test_agree_latex_carries_the_hierarchy_and_bdm_numbers(run_cli):
    # review: agree's LaTeX held only the alpha/LAS row, so LA_hier and LA_bdm were lost
    rc, out, err = run_cli("agree", GOLD, SYSTEM, "--hierarchy", "ud", "--tag-syntax",
                           "alternatives", "--wu-palmer", "--output", "latex")
    assert rc == 0, err
    assert "LA\\_hier & 75.0 \\\\" in out and "LA\\_wup & 81.2 \\\\" in out
    assert "LAS\\_wup & 64.6 \\\\" in out and "ted\\_zero" not in out
    rc, plain_out, err = run_cli("agree", GOLD, SYSTEM, "--output", "latex")
    assert "metric & value" in out  # the further metrics table (registered headers)
    assert rc == 0 and "metric & value" not in plain_out  # default output unchanged


def test_agree_bdm_on_phrase_structure_is_noted(run_cli):
    # review: --bdm on phrase structure computed nothing and the note named only
    # label accuracy and kappa; the signature said "bdm"
    phrase = ROOT / "tests" / "data" / "core" / "phrase"
    rc, out, err = run_cli("agree", str(phrase / "penn-a.mrg"), str(phrase / "penn-b.mrg"),
                           "--hierarchy", "flat", "--bdm")
    assert rc == 0, err
    assert "LA_bdm" not in out.split("note:")[0]
    # (notes wrap to the terminal's width: compare the words)
    assert "BDM credit (LA_bdm, LAS_bdm) apply to dependency input only" in " ".join(out.split())


# ------------------------------------------------------------------ real data
@pytest.mark.slow
def test_ewt_relabelled(shared_data, tmp_path):
    """EWT test vs a copy with 10% of DEPREL replaced: Wu-Palmer lies between exact and full
    credit; GATE's BDM equals exact credit on ``ud``, where every universal relation is a top
    class and so the common ancestor of two different relations is one (CP = 0)."""
    src = shared_data / "ud" / "en_ewt-ud-test.conllu"
    if not src.is_file():
        pytest.skip(f"{src} not found")
    rng = random.Random(1)
    labels = ["nsubj", "obj", "obl", "obl:tmod", "nmod", "advmod", "amod", "compound"]
    out = []
    for line in src.read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if len(cols) == 10 and cols[0].isdigit() and rng.random() < 0.1:
            cols[7] = rng.choice(labels)
        out.append("\t".join(cols))
    system = tmp_path / "sys.conllu"
    system.write_text("\n".join(out) + "\n", encoding="utf-8")
    res = evaluate_tags(src, system, "deprel", bdm=True, wu_palmer=True)
    assert res.accuracy < res.mean_wup < 1.0
    assert res.mean_bdm == pytest.approx(res.accuracy)
    cmp = compare(str(src), [str(system)], hierarchy="ud", alpha=False, bdm=True,
                  wu_palmer=True)
    sc = cmp.systems[0].scores
    assert sc["LAS_full"].f1 <= sc["LAS_wup"].f1 <= 1.0
    assert sc["LAS_bdm"].f1 == pytest.approx(sc["LAS_full"].f1)
