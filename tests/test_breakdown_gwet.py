"""Gwet's AC1/AC2 in ``agree --breakdown --coefficient ac1|ac2`` (docs/method.md §21.6).

Oracle: the ``irrCAC`` package (as tests/test_gwet.py imports it; skipped
without it) on rating frames built here from the raw CoNLL-U columns (DEPREL
column 8, UPOS column 4): a sentence's words are items, each file's label a
rating, grouped by the words of the first file's sentence into the length bins.
Data: the three annotators of tests/data/humans, and the shared CDT/NDT
annotator pairs (``../shared/data/iaa``, skipped when absent).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List

import numpy as np
import pytest
from test_gwet import needs_irrcac, oracle

import synagree
from conftest import SHARED_DATA, raw_conll
from synagree.agreement.breakdown import length_bin
from synagree.base.metrics import is_registered
from synagree.cli.main import main
from synagree.stats.gwet import category_order, weight_matrix
from synagree.stats.hierarchical import load_hierarchy

HUMANS = Path(__file__).resolve().parent / "data" / "humans"
THREE = [HUMANS / f"{n}.conllu" for n in ("gold", "anna", "bert")]
EDGES = (10, 20, 30, 40)


def frames(files, column: int, edges=EDGES) -> Dict[str, List[List[str]]]:
    """Group -> items (each a list of the files' labels), from the raw columns."""
    sents = [raw_conll(f) for f in files]
    groups: Dict[str, List[List[str]]] = {"all": []}
    for unit in zip(*sents):
        if len({len(s) for s in unit}) != 1 or \
                len({tuple(c[1] for _, c in s) for s in unit}) != 1:
            continue  # not word-aligned: left out, as the breakdown's word views
        rows = [[s[k][1][column] for s in unit] for k in range(len(unit[0]))]
        groups["all"] += rows
        groups.setdefault(length_bin(len(unit[0]), edges), []).extend(rows)
    return groups


def irrcac(items: List[List[str]], kind: str, hierarchy=None) -> dict:
    labels = sorted({x for it in items for x in it})
    order = category_order(labels)[0]
    pos = {c: i for i, c in enumerate(order)}
    codes = np.array([[pos[x] for x in it] for it in items])
    if hierarchy is None:
        return oracle(codes, order, kind)
    w = weight_matrix("hierarchy", order, load_hierarchy(hierarchy, order))
    return oracle(codes, order, w)


def gwet_rows(files, *extra) -> List[dict]:
    res = synagree.agree([str(f) for f in files], breakdown=True, variants=["plain"],
                         **dict(extra))
    return res.breakdown.gwet_rows()


@pytest.mark.slow
@needs_irrcac
@pytest.mark.parametrize("coefficient,weights", [("ac1", None), ("ac2", "quadratic"),
                                                 ("ac2", "ordinal")])
def test_three_annotators_equal_irrcac_per_group(coefficient, weights):
    rows = gwet_rows(THREE, ("coefficient", coefficient), ("ac2_weights", weights))
    want = {"deprel": frames(THREE, 7), "upos": frames(THREE, 3)}
    seen = set()
    for r in rows:
        items = want[r["layer"]][r["group"]]
        o = irrcac(items, weights or "identity")
        assert r["items"] == len(items)
        assert r["gwet_ac"] == pytest.approx(o["coefficient_value"], abs=1e-10)
        assert r["gwet_se"] == pytest.approx(o["se"], abs=1e-10)
        assert r["p_a"] == pytest.approx(o["pa"], abs=1e-10)
        assert r["gwet_ci"] == pytest.approx(list(o["confidence_interval"]), abs=1e-8)
        seen.add((r["layer"], r["group"]))
    assert seen == {(layer, g) for layer, gs in want.items() for g in gs}


@needs_irrcac
def test_hierarchy_weighted_ac2_is_gwets_formula_with_the_hierarchys_weights():
    res = synagree.agree([str(f) for f in THREE], breakdown=True, variants=["plain"],
                         coefficient="ac2", hierarchy="ud")
    rows = {(r["layer"], r["group"]): r for r in res.breakdown.gwet_rows()}
    items = frames(THREE, 7)
    for group, its in items.items():
        r = rows[("deprel", group)]
        o = irrcac(its, "custom", hierarchy="ud")
        assert r["weights"] == "hierarchy" and r["coefficient"] == "AC2"
        assert r["gwet_ac"] == pytest.approx(o["coefficient_value"], abs=1e-10)
        assert r["gwet_se"] == pytest.approx(o["se"], abs=1e-10)


def _shared(sub, a, b):
    d = SHARED_DATA / "iaa" / sub
    if not d.is_dir():
        pytest.skip(f"shared data not found at {SHARED_DATA}")
    return [d / f"{a}.conll", d / f"{b}.conll"]


@needs_irrcac
@pytest.mark.slow
@pytest.mark.parametrize("sub,a,b", [("cdt", "da-lotte", "da-morten"),
                                     ("ndt", "odin-danish", "thor-danish")])
def test_shared_treebanks_equal_irrcac(sub, a, b):
    files = _shared(sub, a, b)
    rows = gwet_rows(files, ("coefficient", "ac1"))
    want = frames(files, 7)
    got = {r["group"]: r for r in rows if r["layer"] == "deprel"}
    assert set(got) == set(want)
    for group, items in want.items():
        o = irrcac(items, "identity")
        assert got[group]["gwet_ac"] == pytest.approx(o["coefficient_value"], abs=1e-10)
        assert got[group]["gwet_se"] == pytest.approx(o["se"], abs=1e-10)


def test_json_keys_are_registered_and_csv_has_the_rows(capsys):
    argv = ["agree", *map(str, THREE), "--breakdown", "--coefficient", "ac1", "--metric",
            "plain", "-q"]
    assert main([*argv, "--output", "json"]) == 0
    d = json.loads(capsys.readouterr().out)["details"]["breakdown"]["gwet"]
    assert d["settings"].startswith("AC1, weights identity")
    assert d["rows"][0]["layer"] == "deprel" and d["rows"][0]["group"] == "all"
    for r in d["rows"]:
        for k, v in r.items():
            if isinstance(v, (int, float)) and not isinstance(v, bool) or k.endswith("_ci"):
                assert is_registered(k), k
    assert main([*argv, "--output", "csv"]) == 0
    csv = capsys.readouterr().out
    assert "gwet,deprel,all,gwet_ac," in csv and "gwet,upos,1-10,gwet_ci_low," in csv


@pytest.mark.parametrize("fmt", ["table", "markdown", "latex"])
def test_every_text_format_has_the_table(fmt, capsys):
    assert main(["agree", *map(str, THREE), "--breakdown", "--coefficient", "ac2",
                 "--ac2-weights", "quadratic", "--metric", "plain", "-q", "--output",
                 fmt]) == 0
    out = capsys.readouterr().out
    assert "Gwet's AC2, weights quadratic" in out and "quadratic weights order" in out


def test_ac1_with_a_hierarchy_for_the_hier_scores(capsys):
    # --hierarchy feeds the *_hier scores; with ac1 it gives Gwet no weights
    assert main(["agree", *map(str, THREE), "--breakdown", "--coefficient", "ac1",
                 "--hierarchy", "ud", "--metric", "plain", "-q", "--output", "json"]) == 0
    d = json.loads(capsys.readouterr().out)["details"]["breakdown"]["gwet"]
    assert {r["coefficient"] for r in d["rows"]} == {"AC1"}


@pytest.mark.parametrize("extra,needle", [
    (["--coefficient", "ac1"], "add --breakdown"),
    (["--breakdown", "--ac2-weights", "ordinal"], "which was not asked for"),
    (["--breakdown", "--coefficient", "ac2"], "needs its weights"),
    (["--breakdown", "--coefficient", "ac1", "--ac2-weights", "ordinal"],
     "AC1 has identity weights"),
])
def test_usage_errors(extra, needle, capsys):
    assert main(["agree", *map(str, THREE), "--metric", "plain", "-q", *extra]) == 2
    err = capsys.readouterr().err
    assert needle in err and "Traceback" not in err


def test_phrase_structure_says_why_there_is_none(capsys):
    trees = ["tests/data/core/phrase/delex-a.tree", "tests/data/core/phrase/delex-b.tree"]
    root = Path(__file__).resolve().parents[1]
    res = synagree.agree([str(root / t) for t in trees], breakdown=True, coefficient="ac1")
    assert res.breakdown.gwet is None
    assert any("phrase-structure trees get none" in n for n in res.breakdown.notes)


@needs_irrcac
def test_an_annotation_without_upos_is_a_missing_rating(tmp_path):
    # bert's file without UPOS: his UPOS ratings are missing, not the category '_'
    blank = tmp_path / "bert.conllu"
    lines = []
    for line in THREE[2].read_text(encoding="utf-8").splitlines():
        cols = line.split("\t")
        if len(cols) == 10:
            cols[3] = "_"
        lines.append("\t".join(cols))
    blank.write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = [THREE[0], THREE[1], blank]
    rows = {(r["layer"], r["group"]): r for r in gwet_rows(files, ("coefficient", "ac1"))}
    items = [[x for x in it if x != "_"] for it in frames(files, 3)["all"]]
    labels = sorted({x for it in items for x in it})
    pos = {c: i for i, c in enumerate(labels)}
    codes = np.array([[pos[x] for x in it] for it in items])
    o = oracle(codes, labels, "identity")
    assert rows[("upos", "all")]["gwet_ac"] == pytest.approx(o["coefficient_value"], abs=1e-10)
    assert rows[("upos", "all")]["n_categories"] == len(labels)
