"""Tests for synagree.tags (``synagree tags``): tag-level evaluation against gold
with Melamed & Resnik hierarchical credit.

Fixtures (tests/data/hier):

* ``msd-{gold,sys}.conllu``: MULTEXT-East style positional tags in XPOS,
  evaluated with the ``msd`` hierarchy (built from the tags of both files).
  Inventory: N > Nc > {Ncm > Ncms > Ncmsn, Ncf > Ncfs > {Ncfsa, Ncfsl,
  Ncfsn}}; V > Vm > Vmi > Vmip > Vmip3 > {Vmip3s, Vmip3p}; A > Ag > Agp > Agpm
  > Agpms > Agpmsn; S > Sl; Z.  ``Ncfs-`` is ``Ncfs``.
* ``ptb-{gold,sys}.conllu`` with the outline file ``coarse-ptb.hier``
  (coarse tag = parent of its Penn tags; RB is not listed).
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from synagree.base.problems import InputError
from synagree.evaluation.tags import evaluate_tag_pairs, evaluate_tags, read_tag_column
from synagree.render.tags import render_tags
from synagree.stats.contingency import Contingency
from synagree.stats.hierarchical_kappa import hierarchical_kappa
from synagree.trees.hierarchy import Hierarchy

DATA = Path(__file__).resolve().parent / "data" / "hier"
TOL = 1e-12

MSD_PAIRS = [("Ncmsn", "Ncmsn"), ("Vmip3s", "Vmip3s"), ("Ncfsa", "Ncfsn"), ("Z", "Z"),
             ("Agpmsn", "Agpms"), ("Ncmsn", "Nc"), ("Vmip3p", "Vmip3s"), ("Sl", "Sl"),
             ("Ncfsl", "Ncfs-"), ("Z", "Z")]
PTB_PAIRS = [("DT", "DT"), ("NN", "NOUN"), ("VBZ", "VBZ"), ("JJ", "JJR"), (".", "."),
             ("NNP", "NNP"), ("VBD", "VERB"), ("DT", "DT"), ("NNS", "NN"), (".", "."),
             ("RB", "RB"), (".", ".")]


def msd():
    return evaluate_tags(DATA / "msd-gold.conllu", DATA / "msd-sys.conllu", "xpos", "msd")


def ptb():
    return evaluate_tags(DATA / "ptb-gold.conllu", DATA / "ptb-sys.conllu", "xpos",
                         str(DATA / "coarse-ptb.hier"))


def test_msd_example_hand_values():
    r = msd()
    assert (r.sentences, r.words, r.exact) == (2, 10, 5)
    assert abs(r.accuracy - 0.5) < TOL
    # credits: 1 1 0 1 | Agpmsn/Agpms 1, Ncmsn/Nc 1/2, Vmip3p/Vmip3s 0, 1, Ncfsl/Ncfs- 1/3, 1
    assert abs(r.credit - (5 + 1 + 0.5 + 1 / 3)) < TOL
    assert abs(r.mean_credit - (41 / 6) / 10) < TOL
    rows = {row.tag: row for row in r.per_tag}
    assert [row.tag for row in r.per_tag][:2] == ["Ncmsn", "Z"]  # by count, then tag
    assert (rows["Ncmsn"].count, rows["Ncmsn"].exact) == (2, 1)
    assert abs(rows["Ncmsn"].mean_credit - 0.75) < TOL
    assert (rows["Ncmsn"].confusion, rows["Ncmsn"].confusion_count) == ("Nc", 1)
    assert abs(rows["Ncfsl"].mean_credit - 1 / 3) < TOL
    assert rows["Agpmsn"].accuracy == 0.0 and rows["Agpmsn"].mean_credit == 1.0
    assert rows["Z"].confusion is None
    assert r.hierarchy == "msd" and r.added_tags == []


def test_msd_kappas_match_the_hierarchy_module():
    r = msd()
    h = Hierarchy.from_msd([t for p in MSD_PAIRS for t in p])
    assert abs(r.cohen_kappa - Contingency.from_labels(MSD_PAIRS).kappa()) < TOL
    assert abs(r.scott_pi - Contingency.from_labels(MSD_PAIRS).pi()) < TOL
    assert abs(r.hierarchical_kappa - hierarchical_kappa(h, MSD_PAIRS).kappa) < TOL
    # exact Cohen by hand: P(A) = 1/2; marginals gold/system over 10 words
    p_e = (2 * 1 + 1 * 2 + 2 * 2 + 1 * 1) / 100  # Ncmsn, Vmip3s, Z, Sl
    assert abs(r.cohen_kappa - (0.5 - p_e) / (1 - p_e)) < TOL


def test_hierarchy_file_example():
    r = ptb()
    assert (r.words, r.exact) == (12, 8)
    assert abs(r.mean_credit - 8.5 / 12) < TOL  # NN/NOUN and VBD/VERB get 1/4
    assert r.added_tags == ["RB"]
    assert r.hierarchy.startswith("file ")
    rows = {row.tag: row for row in r.per_tag}
    assert abs(rows["NN"].mean_credit - 0.25) < TOL and rows["NN"].confusion == "NOUN"
    assert rows["JJ"].mean_credit == 0.0 and rows["NNS"].mean_credit == 0.0
    h = Hierarchy.from_file(DATA / "coarse-ptb.hier")
    assert abs(r.hierarchical_kappa - hierarchical_kappa(h, PTB_PAIRS).kappa) < TOL
    assert "RB" in render_tags(r, "table")


def test_flat_hierarchy_credit_is_accuracy():
    r = evaluate_tags(DATA / "msd-gold.conllu", DATA / "msd-sys.conllu", "xpos", "flat")
    assert abs(r.mean_credit - r.accuracy) < TOL
    assert abs(r.hierarchical_kappa - r.scott_pi) < TOL
    # default hierarchy: flat for xpos, ud for deprel
    assert evaluate_tags(DATA / "msd-gold.conllu", DATA / "msd-sys.conllu", "xpos").hierarchy \
        == "flat"


def test_deprel_with_ud_hierarchy(write):
    gold = (DATA / "ud-a.conllu").read_text(encoding="utf-8").split("\n\n# sent_id = s3")[0]
    sys_ = (DATA / "ud-b.conllu").read_text(encoding="utf-8").split("\n\n# sent_id = s3")[0]
    g, s = write("g.conllu", gold + "\n\n"), write("s.conllu", sys_ + "\n\n")
    r = evaluate_tags(g, s, "deprel")
    assert r.hierarchy == "ud" and r.words == 8 and r.exact == 5
    # gold as gold: nsubj:pass/nsubj 1/2, aux:pass/aux 1 (single child), nsubj/nsubj:outer 1
    assert abs(r.credit - 7.5) < TOL
    leaf = evaluate_tags(g, s, "deprel", "ud", plain_as_leaf=True)
    assert leaf.credit == leaf.exact and leaf.hierarchy == "ud (plain as leaf)"


def test_evaluate_tag_pairs_with_hierarchy_object():
    h = Hierarchy.from_edges({"A.1": "A", "A.2": "A"})
    out = evaluate_tag_pairs([("A.1", "A"), ("A.2", "A.2"), ("B", "B")], h)
    assert abs(out["credit"] - 2.5) < TOL and out["exact"] == 2
    assert out["added_tags"] == ["B"]


def test_word_count_mismatch_names_file_and_line():
    with pytest.raises(InputError) as e:
        evaluate_tags(DATA / "ud-a.conllu", DATA / "ud-b.conllu", "deprel")
    (err,) = e.value.errors
    assert err.kind == "word-count-mismatch"
    assert err.file == str(DATA / "ud-b.conllu")
    lines = (DATA / "ud-b.conllu").read_text(encoding="utf-8").split("\n")
    assert lines[err.line - 1] == "# sent_id = s3"
    assert "3 words here but 2" in err.message and str(DATA / "ud-a.conllu") in err.message


def test_sentence_count_mismatch_names_file_and_line(write):
    text = (DATA / "msd-gold.conllu").read_text(encoding="utf-8")
    first = text.split("\n\n")[0] + "\n\n"
    short = write("short.conllu", first)
    with pytest.raises(InputError) as e:
        evaluate_tags(DATA / "msd-gold.conllu", short, "xpos", "msd")
    (err,) = e.value.errors
    # both files carry sent_ids: sentences pair by them, as in agree
    assert err.kind == "sentence-mismatch" and "'m2' is missing from" in err.message
    assert err.file == str(DATA / "msd-gold.conllu")
    assert text.split("\n")[err.line - 1] == "# sent_id = m2"


def test_bad_lines_and_empty_file(write):
    bad = write("bad.conllu", "1 The the DET DT _ 0 root _ _\n\n")
    empty = write("empty.conllu", "\n")
    with pytest.raises(InputError) as e:
        evaluate_tags(bad, empty, "upos")
    kinds = {(p.file, p.kind, p.line) for p in e.value.errors}
    assert (str(bad), "column-count", 1) in kinds
    assert (str(empty), "empty-file", None) in kinds
    with pytest.raises(InputError):
        evaluate_tags(bad, bad, "lemma")
    with pytest.raises(InputError) as e:
        evaluate_tags(DATA / "msd-gold.conllu", DATA / "msd-sys.conllu", "xpos",
                      str(DATA / "bad.hier"))
    assert e.value.errors[0].kind == "hierarchy-indentation"


def test_tagger_output_without_heads_multiword_and_empty_nodes(write):
    gold = write("g.conllu", "# text = Del x\n1-2\tDel\t_\t_\t_\t_\t_\t_\t_\t_\n"
                             "1\tDe\tde\tADP\tSps00\t_\t3\tcase\t_\t_\n"
                             "2\tel\tel\tDET\tDa0ms0\t_\t3\tdet\t_\t_\n"
                             "3\tx\tx\tNOUN\tNcms000\t_\t0\troot\t_\t_\n"
                             "3.1\ty\ty\tNOUN\tNcms000\t_\t_\t_\t_\t_\n\n")
    system = write("s.conllu", "1\tDe\t_\tADP\tSps00\t_\t_\t_\t_\t_\n"
                               "2\tal\t_\tDET\tDa\t_\t_\t_\t_\t_\n"
                               "3\tx\t_\tNOUN\tNcms000\t_\t_\t_\t_\t_\n\n")
    r = evaluate_tags(gold, system, "xpos", "msd")
    assert r.words == 3 and r.exact == 2
    # Da0ms0 -> parents Da0ms, Da0m, Da0, Da (Da has the single chain down): credit 1
    assert abs(r.credit - 3.0) < TOL
    assert r.form_mismatches == 1 and r.warnings[0].kind == "form-mismatch"
    assert r.warnings[0].line == 2
    up = evaluate_tags(gold, system, "upos")
    assert up.exact == 3 and up.cohen_kappa == 1.0
    assert read_tag_column(gold, "feats")[0].words[0][2] == "_"


def test_render_formats():
    r = msd()
    table = render_tags(r, "table")
    assert "hierarchical credit  0.683333" in table and "Ncmsn" in table
    data = json.loads(render_tags(r, "json"))
    assert data["words"] == 10 and abs(data["accuracy_hier"] - 41 / 60) < TOL
    assert data["per_tag"][0]["tag"] == "Ncmsn"
    csv_lines = render_tags(r, "csv").strip().split("\n")
    assert csv_lines[0].startswith("section,tag,count,exact")
    assert csv_lines[1].startswith("tags,ALL,10,5")
    with pytest.raises(ValueError):
        render_tags(r, "html")
    latex = render_tags(r, "latex")  # through the table model (issue 31)
    assert "tag & count & accuracy & accuracy\\_hier" in latex and "% values: " in latex


def test_cli(run_cli, tmp_path):
    gold, sys_ = DATA / "msd-gold.conllu", DATA / "msd-sys.conllu"
    rc, out, err = run_cli("tags", gold, sys_, "--column", "xpos", "--hierarchy", "msd")
    assert rc == 0 and "hierarchical credit  0.683333" in out
    rc, out, _ = run_cli("tags", gold, sys_, "--column", "xpos", "--hierarchy", "msd",
                         "--output", "json")
    assert rc == 0 and json.loads(out)["accuracy"] == 0.5
    target = tmp_path / "out.csv"
    rc, out, _ = run_cli("tags", DATA / "ptb-gold.conllu", DATA / "ptb-sys.conllu",
                         "--column", "xpos", "--hierarchy", DATA / "coarse-ptb.hier",
                         "--output", "csv", "-o", target)
    assert rc == 0 and out == "" and target.read_text().startswith("section,tag,count")
    rc, out, err = run_cli("tags", DATA / "ud-a.conllu", DATA / "ud-b.conllu")
    assert rc == 2 and "ud-b.conllu:" in err and "word-count-mismatch" in err
    rc, _, err = run_cli("tags", gold, sys_, "--column", "xpos", "--hierarchy", "msd",
                         "--plain-as-leaf")
    assert rc == 2 and "plain-as-leaf" in err
    rc, _, err = run_cli("tags", gold, sys_, "--hierarchy", tmp_path / "missing.hier")
    assert rc == 2 and "hierarchy-not-found" in err
