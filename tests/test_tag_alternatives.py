"""--tag-syntax alternatives and --bdm (docs/method.md §15): parser, errors, numbers by hand."""
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
from synagree.trees.annotation_bdm import bdm_against_gold, expected_bdm
from synagree.trees.hierarchy import Hierarchy, hierarchical_kappa
from synagree.trees.tag_syntax import (
    TagSyntaxError,
    format_annotation,
    parse_annotation,
)

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "tagcredit"
GOLD, SYSTEM, XPOS = DATA / "gold.conllu", DATA / "system.conllu", DATA / "xpos.txt"


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


# ------------------------------------------------------------------ BDM over annotations
def test_bdm_by_hand():
    h = Hierarchy.from_file(XPOS)
    assert bdm_against_gold(h, "NNS", "N") == pytest.approx(2 / 3)
    assert bdm_against_gold(h, ["VB", "VBZ"], "VBZ") == 1.0
    assert bdm_against_gold(h, "NNS", ("NN", "NNS")) == 0.75
    assert bdm_against_gold(h, "VBD", {"VBD": 0.6, "VBZ": 0.4}) == pytest.approx(0.8)
    assert expected_bdm(h, ("NN", "NNS"), ("NN", "NNS")) == 0.75
    assert expected_bdm(h, "NN", "VB") == 0.0


# ------------------------------------------------------------------ tags
def test_tags_by_hand():
    res = evaluate_tags(GOLD, SYSTEM, "xpos", str(XPOS), tag_syntax="alternatives", bdm=True)
    assert (res.words, res.exact) == (6, 1)
    assert res.credit == pytest.approx(3.6)  # 1/2 + 1 + 0 + 1/2 + 0.6 + 1
    assert res.alt_correct == pytest.approx(3.1)  # 0 + 1 + 0 + 1/2 + 0.6 + 1
    assert res.bdm == pytest.approx(2 / 3 + 1 + 0 + 0.75 + 0.8 + 1)
    assert (res.gold_alternatives, res.system_alternatives, res.system_probabilities) == (1, 2, 1)
    rows = {r.tag: r for r in res.per_tag}
    assert set(rows) == {"NNS", "RB", "VBD", "VB|VBZ"}
    assert (rows["NNS"].credit, rows["NNS"].alt_correct) == (1.0, 0.5)
    assert rows["NNS"].bdm == pytest.approx(2 / 3 + 0.75)
    assert rows["VB|VBZ"].mean_credit == 1.0
    # hierarchical kappa: gold alternatives as a uniform distribution (§15.2)
    h = Hierarchy.from_file(XPOS)
    pairs = [("NNS", "N"), (("VB", "VBZ"), "VBZ"), ("RB", "JJ"), ("NNS", ("NN", "NNS")),
             ("VBD", {"VBD": 0.6, "VBZ": 0.4}), ("RB", "RB")]
    assert res.hierarchical_kappa == pytest.approx(hierarchical_kappa(h, pairs).kappa)
    d = res.to_dict()
    assert d["alt_accuracy"] == pytest.approx(3.1 / 6)
    assert d["counts"]["bdm"] == pytest.approx(res.bdm)


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
            "--tag-syntax", "alternatives", "--bdm"]
    rc, out, _ = run_cli(*args, "--output", "csv")
    assert rc == 0
    head, all_row = out.splitlines()[:2]
    assert head.endswith("credit,alt_correct,alt_accuracy,bdm,mean_bdm")
    assert all_row.split(",")[7:9] == ["3.6", "3.1"]
    rc, out, _ = run_cli(*args, "--output", "json")
    assert json.loads(out)["alternatives"] == {"gold_words": 1, "system_words": 2,
                                               "system_probabilities": 1}
    rc, out, err = run_cli("tags", GOLD, SYSTEM, "--column", "feats", "--tag-syntax",
                           "alternatives")
    assert rc == 2 and "feats" in err


# ------------------------------------------------------------------ compare
def test_compare_by_hand():
    res = compare(str(GOLD), [str(SYSTEM)], hierarchy="ud", alpha=False,
                  tag_syntax="alternatives", bdm=True)
    sc = res.systems[0].scores
    assert sc["LAS_hier"].correct == pytest.approx(3.0)  # 1/2 + 1 + 1/2 + 0 + 1 + 0
    assert sc["LAS_bdm"].correct == pytest.approx(3.5)  # ... + 1/2 for the sibling
    assert sc["LAS"].correct == 2
    assert "LAS_bdm" in res.rows() and res.as_dict()["tag_syntax"] == "alternatives"
    plain = compare(str(GOLD), [str(SYSTEM)], hierarchy="ud", alpha=False)
    assert any("DEPREL value(s) contain" in n for n in plain.notes)
    with pytest.raises(InputError, match="need --hierarchy"):
        compare(str(GOLD), [str(SYSTEM)], alpha=False, bdm=True)


def test_compare_formats(run_cli):
    args = ["compare", GOLD, SYSTEM, "--hierarchy", "ud", "--tag-syntax", "alternatives",
            "--bdm", "--no-alpha"]
    rc, out, _ = run_cli(*args, "--output", "csv")
    rows = [r for r in out.splitlines() if ",LAS_bdm," in r]
    assert rc == 0 and len(rows) == 1 and ",3.5,6,6,6," in rows[0]
    rc, out, _ = run_cli(*args, "--output", "latex")
    assert "LAS\\_bdm" in out and "58.33" in out
    rc, out, _ = run_cli(*args, "-v")
    assert "LAS_bdm" in out


# ------------------------------------------------------------------ agree
def test_agree_by_hand(run_cli):
    rc, out, err = run_cli("agree", GOLD, SYSTEM, "--hierarchy", "ud", "--tag-syntax",
                           "alternatives", "--bdm", "--output", "json")
    assert rc == 0, err
    extra = json.loads(out)
    flat = json.dumps(extra)
    assert '"LA_bdm": 0.8125' in flat and '"LA_hier": 0.75' in flat
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
                           "alternatives", "--bdm", "--output", "latex")
    assert rc == 0, err
    assert "LA\\_hier & 75.0 \\\\" in out and "LA\\_bdm & 81.2 \\\\" in out
    assert "LAS\\_bdm & 64.6 \\\\" in out and "ted\\_zero" not in out
    rc, plain_out, err = run_cli("agree", GOLD, SYSTEM, "--output", "latex")
    assert rc == 0 and "Metric & Value" not in plain_out  # default output unchanged


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
def test_ewt_relabelled(shared_data, tmp_path):
    """EWT test vs a copy with 10% of DEPREL replaced: BDM lies between exact and full credit."""
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
    res = evaluate_tags(src, system, "deprel", bdm=True)
    assert res.accuracy < res.mean_bdm < 1.0
    cmp = compare(str(src), [str(system)], hierarchy="ud", alpha=False, bdm=True)
    sc = cmp.systems[0].scores
    assert sc["LAS_full"].f1 <= sc["LAS_bdm"].f1 <= 1.0
