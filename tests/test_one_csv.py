"""Every CSV output is ONE table (docs/output.md, "One table per CSV file").

A CSV reader reading the whole file gets one header and rows of that
header's width, for every option combination that used to write several
tables; the notes of the text output are rows of section ``note``; the
sections keep each table's cells exactly.  Also: ``agree --tag-syntax
alternatives`` on bracketed trees is refused before any work, and ``agree
--baseline`` leaves out the metrics read through a differing hierarchy.
"""
from __future__ import annotations

import csv
import io
import itertools
import json
from pathlib import Path
from typing import List

import pytest

from synagree.render.rows import sections_csv

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
ENH = [DATA / "enhanced" / "anna.conllu", DATA / "enhanced" / "bert.conllu"]
FEATS = [DATA / "feats" / "ann1.conllu", DATA / "feats" / "ann2.conllu"]
TIERS = [DATA / "tiers" / "gold.conllu", DATA / "tiers" / "system.conllu"]
PHRASE = [DATA / "core" / "phrase" / "delex-a.tree", DATA / "core" / "phrase" / "delex-b.tree"]
UD = [DATA / "hier" / "ud-a.conllu", DATA / "hier" / "ud-b.conllu"]
REG = DATA / "regression"


def one_table(text: str) -> List[List[str]]:
    """The rows of ``text``, asserting one header and a constant width."""
    rows = list(csv.reader(io.StringIO(text)))
    assert rows, "empty CSV"
    width = len(rows[0])
    assert all(len(r) == width for r in rows), {len(r) for r in rows}
    assert rows[0] and len(set(rows[0])) == width  # one header, no column twice
    return rows


def section(text: str, name: str, header: List[str]) -> List[List[str]]:
    return [[r[h] for h in header] for r in csv.DictReader(io.StringIO(text))
            if r["section"] == name]


# ---------------------------------------------------------------- the helper
def test_sections_csv_by_hand():
    text = sections_csv([("a", "x,y\n1,2\n"), ("b", "y,z\n3,'=4\n")], ["n, with comma"])
    assert text == ("section,x,y,z,note\n"
                    "a,1,2,,\n"
                    "b,,3,'=4,\n"
                    "note,,,,\"n, with comma\"\n")
    assert sections_csv([("a", "x\n1\n")]) == "section,x\na,1\n"  # no notes: no note column
    with pytest.raises(ValueError):
        sections_csv([("a", "section,x\n1,2\n")])


def test_sections_csv_round_trip():
    tables = [("t1", "a,b,c\n1,,3\n4,5,6\n"), ("t2", "c,d\n\"x,y\",\n")]
    text = sections_csv(tables)
    one_table(text)
    for name, t in tables:
        rows = list(csv.reader(io.StringIO(t)))
        assert section(text, name, rows[0]) == rows[1:]


# ---------------------------------------------------------------- categorical
CATEGORICAL = [opts for n in range(1, 4) for opts in
               itertools.combinations((("--specific", "deprel"), ("--per-feature",),
                                       ("--enhanced",)), n)]


@pytest.mark.parametrize("opts", CATEGORICAL, ids=lambda o: "+".join(x[0] for x in o))
def test_categorical_csv_is_one_table(opts, run_cli, tmp_path):
    args = ["categorical", *ENH, "--layers", "deprel,feats"] + [a for o in opts for a in o]
    out_file = tmp_path / "x.csv"
    rc, _, err = run_cli(*args, "-o", out_file)
    assert rc == 0, err
    text = out_file.read_text(encoding="utf-8")
    rows = one_table(text)
    assert rows[0][0] == "section"
    names = {r[0] for r in rows[1:]}
    want = {"layers"} | {{"--specific": "specific", "--per-feature": "per_feature",
                          "--enhanced": "enhanced"}[o[0]] for o in opts}
    # ENH has no FEATS: no per_feature rows
    assert "layers" in names and names <= want | {"note", "signature"}
    # the layers section is the plain CSV, cell for cell
    rc, plain, _ = run_cli("categorical", *ENH, "--layers", "deprel,feats", "--output", "csv")
    # (ENH has no FEATS: the note on feats makes the plain CSV sectioned too)
    header = ["layer", "items", "observed", "cohen_kappa", "scott_pi", "alpha_nominal",
              "specific_macro", "cohen_kappa_macro"]
    assert section(text, "layers", header) == section(plain, "layers", header)
    notes = [r["note"] for r in csv.DictReader(io.StringIO(text)) if r["section"] == "note"]
    assert notes[0].startswith("layer feats (column FEATS): no word has a value")
    if ("--enhanced",) in opts:  # the empty-node note is carried
        assert notes[1:] == ["edges from empty nodes are left out, as ELAS leaves them out: "
                             "anna 3, bert 0"]


def test_categorical_plain_csv_unchanged(run_cli):
    rc, out, _ = run_cli("categorical", *FEATS, "--output", "csv")
    assert rc == 0 and out.startswith("section,layer,items,observed,")
    rows = one_table(out)
    assert rows[-1][0] == "signature" and "layers:" in rows[-1][-1]


def test_categorical_specific_rows_by_hand(run_cli):
    rc, out, _ = run_cli("categorical", *FEATS, "--layers", "upos", "--specific", "upos",
                         "--output", "csv")
    rows = section(out, "specific", ["category", "assignments", "specific"])
    assert rows and all(r[2] == "1.0000" for r in rows)  # both annotators agree on UPOS
    assert sum(int(r[1]) for r in rows) == 18  # 9 words x 2 annotators


# ---------------------------------------------------------------- tags
TAGS = [opts for n in range(0, 3) for opts in
        itertools.combinations((("--prf",), ("--tag-syntax", "alternatives", "--bdm",
                                             "--hierarchy", "flat"),
                                ("--tiers-unmapped", "own-class")), n)]


@pytest.mark.parametrize("opts", TAGS, ids=lambda o: "+".join(x[0] for x in o) or "tiers")
def test_tags_tiers_csv_is_one_table(opts, run_cli, tmp_path):
    args = ["tags", *TIERS, "--column", "xpos", "--tiers", DATA / "tiers" / "ptb-coarse.tsv"]
    out_file = tmp_path / "x.csv"
    rc, _, err = run_cli(*args, *[a for o in opts for a in o], "-o", out_file)
    assert rc == 0, err
    text = out_file.read_text(encoding="utf-8")
    rows = one_table(text)
    assert rows[0][:3] == ["section", "tag", "count"] and "\n\n" not in text
    secs = [r[0] for r in rows[1:]]
    assert secs[0] == "tags" and "tiers" in secs
    tiers = section(text, "tiers", ["coarse", "words"])
    assert tiers[0] == ["ALL", "13"]
    if ("--prf",) in opts:
        notes = [r["note"] for r in csv.DictReader(io.StringIO(text)) if r["section"] == "note"]
        assert "lenient = strict: no tag has an ancestor in the flat hierarchy" in notes
    if ("--tiers-unmapped", "own-class") in opts:
        rc, table, _ = run_cli(*args, *[a for o in opts for a in o])
        shown = [line[len("note: "):] for line in table.splitlines()
                 if line.startswith("note: ")]
        notes = [r["note"] for r in csv.DictReader(io.StringIO(text)) if r["section"] == "note"]
        assert sorted(notes) == sorted(shown)  # every note of the table, none lost


def test_tags_without_tiers_unchanged(run_cli):
    rc, out, _ = run_cli("tags", *TIERS, "--column", "xpos", "--output", "csv")
    assert rc == 0 and out.startswith("section,tag,count,exact,")
    one_table(out)


# ---------------------------------------------------------------- the long CSVs
def test_compare_csv_carries_notes(run_cli, tmp_path):
    old = tmp_path / "v1.json"
    assert run_cli("compare", REG / "gold.conllu", REG / "v1.conllu", "-o", old)[0] == 0
    rc, out, err = run_cli("compare", REG / "gold.conllu", REG / "v2.conllu", "--baseline",
                           old, "--prf", "--breakdown", "--output", "csv")
    assert rc == 0, err
    one_table(out)
    notes = [r for r in csv.DictReader(io.StringIO(out)) if r["section"] == "note"]
    assert {"the baseline's only system v1.conllu is compared with v2.conllu"} <= \
        {r["value"] for r in notes}
    assert all(r["metric"] for r in notes)


def test_agree_breakdown_csv_carries_notes(run_cli, tmp_path):
    old = tmp_path / "old.json"
    assert run_cli("agree", *UD, "-o", old, "-q")[0] == 0
    rc, out, err = run_cli("agree", *UD, "--breakdown", "--baseline", old, "--output", "csv",
                           "-q")
    assert rc == 0, err
    one_table(out)
    notes = [r["value"] for r in csv.DictReader(io.StringIO(out)) if r["section"] == "note"]
    assert any(n.startswith("1 unit(s) whose annotations differ in word count") for n in notes)
    assert any(n.startswith("baseline: alpha tests hold each side's D_e fixed") for n in notes)


def test_report_csv_is_one_table(run_cli):
    rc, out, err = run_cli("report", *UD, "--output", "csv", "-q")
    assert rc == 0, err
    assert one_table(out)[0] == ["table", "row", "column", "value"]


# ---------------------------------------------------------------- agree checks
def test_tag_syntax_on_bracketed_trees_refused_before_the_run(run_cli, monkeypatch):
    import synagree.cli.agree as cli_agree

    def never(*a, **k):
        raise AssertionError("the agreement ran")

    monkeypatch.setattr(cli_agree, "agree", never)
    rc, _, err = run_cli("agree", *PHRASE, "--hierarchy", "flat", "--tag-syntax",
                         "alternatives")
    assert rc == 2 and "dependency input only" in err and "delex-a.tree" in err
    assert "(usage)" in err
    rc, _, err = run_cli("agree", "--dirs", DATA / "core" / "dirs" / "anna",
                         DATA / "core" / "dirs" / "bob", "--hierarchy", "flat",
                         "--tag-syntax", "alternatives", "--format", "phrase")
    assert rc == 2 and "bracketed trees" in err


@pytest.mark.parametrize("old_opts,new_opts", [
    (["--hierarchy", "ud"], ["--hierarchy", "ud", "--tag-syntax", "alternatives", "--bdm"]),
    (["--hierarchy", "ud", "--tag-syntax", "alternatives"], ["--hierarchy", "ud"]),
    (["--hierarchy", "ud"], ["--hierarchy", "flat", "--label-distance", "hierarchy"]),
])
def test_agree_baseline_leaves_reread_metrics_out(old_opts, new_opts, run_cli, tmp_path):
    old = tmp_path / "old.json"
    assert run_cli("agree", *UD, *old_opts, "-o", old, "-q")[0] == 0
    new = tmp_path / "new.json"
    rc, _, err = run_cli("agree", *UD, *new_opts, "--baseline", old, "-o", new, "-q")
    assert rc == 0, err
    r = json.loads(new.read_text())["details"]["baseline"]["results"][0]
    compared = {c["metric"] for c in r["metrics"]}
    assert compared == {"alpha_plain", "alpha_diff", "alpha_norm", "LAS", "LAS_full", "UAS", "LA"}
    bc = json.loads(new.read_text())["details"]["baseline"]
    note = next(n for n in bc["notes"] if "not compared: hierarchy" in n)
    assert note.startswith("LA_hier, LAS_hier, kappa_hier")


def test_agree_baseline_hierarchy_only_new_is_not_compared(run_cli, tmp_path):
    old = tmp_path / "old.json"
    assert run_cli("agree", *UD, "-o", old, "-q")[0] == 0
    new = tmp_path / "new.json"
    rc, _, err = run_cli("agree", *UD, "--hierarchy", "ud", "--tag-syntax", "alternatives",
                         "--baseline", old, "-o", new, "-q")
    assert rc == 0, err
    r = json.loads(new.read_text())["details"]["baseline"]["results"][0]
    assert not any(c["metric"].startswith(("hier_", "bdm_")) for c in r["metrics"])
    assert any(n.startswith("not in the baseline, so not compared: LA_hier") for n in r["notes"])
