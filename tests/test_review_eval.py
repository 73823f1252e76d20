"""Regression tests for problems found reviewing ``tags`` and ``compare`` (this round's
options: --tag-syntax, --bdm, --tiers, --prf, --per-feature, ELAS/EULAS, --baseline)."""
from __future__ import annotations

import json
from pathlib import Path

DATA = Path(__file__).parent / "data"
FEATS = DATA / "feats"
TAGCREDIT = DATA / "tagcredit"


def test_tags_per_feature_with_tiers_refused_in_csv(run_cli, tmp_path):
    # the per-feature CSV holds only the per-feature rows: --tiers was silently dropped
    mapping = tmp_path / "map.tsv"
    mapping.write_text("Number=Sing\tSING\n", encoding="utf-8")
    args = ["tags", FEATS / "ann1.conllu", FEATS / "ann2.conllu", "--column", "feats",
            "--per-feature", "--tiers", mapping, "--tiers-unmapped", "own-class", "-q"]
    out = tmp_path / "both.csv"
    rc, _, err = run_cli(*args, "-o", out)
    assert rc == 2 and "--per-feature and --tiers" in err and not out.exists()
    rc, _, err = run_cli(*args, "-o", tmp_path / "both.json")
    assert rc == 0, err
    data = json.loads((tmp_path / "both.json").read_text(encoding="utf-8"))
    assert data["per_feature"] and data["tiers"]


def test_baseline_top_without_baseline_refused(run_cli, tmp_path):
    # --baseline-top without --baseline was silently ignored
    out = tmp_path / "c.json"
    rc, _, err = run_cli("compare", TAGCREDIT / "gold.conllu", TAGCREDIT / "system.conllu",
                         "--no-alpha", "--baseline-top", "3", "-q", "-o", out)
    assert rc == 2 and "--baseline-top applies with --baseline only" in err
    assert not out.exists()
    rc, _, err = run_cli("compare", TAGCREDIT / "gold.conllu", TAGCREDIT / "system.conllu",
                         "--no-alpha", "-q", "-o", out)
    assert rc == 0, err
    rc, stdout, err = run_cli("compare", TAGCREDIT / "gold.conllu", TAGCREDIT / "system.conllu",
                              "--no-alpha", "-q", "--baseline", out, "--baseline-top", "3")
    assert rc == 0 and "sentences that got worse" in stdout, err


def test_compare_baseline_with_another_tag_syntax_leaves_label_credit_out(run_cli, tmp_path):
    # a baseline scored with plain tags against a run with --tag-syntax alternatives reported
    # LAS_hier 33.33 -> 50.00 and LAS_bdm 33.33 -> 58.33 as changes of the system
    gold, system = TAGCREDIT / "gold.conllu", TAGCREDIT / "system.conllu"
    old = tmp_path / "old.json"
    rc, _, err = run_cli("compare", gold, system, "--hierarchy", "ud", "--bdm", "--no-alpha",
                         "-q", "-o", old)
    assert rc == 0, err
    new = tmp_path / "new.json"
    rc, _, err = run_cli("compare", gold, system, "--hierarchy", "ud", "--bdm", "--no-alpha",
                         "--tag-syntax", "alternatives", "-q", "--baseline", old, "-o", new)
    assert rc == 0, err
    (res,) = json.loads(new.read_text(encoding="utf-8"))["baseline"]["results"]
    metrics = [m["metric"] for m in res["metrics"]]
    assert "LAS" in metrics and "LAS_hier" not in metrics and "LAS_bdm" not in metrics
    assert any("tag syntax plain in the baseline, alternatives now" in n for n in res["notes"])
    # the same syntax on both sides: compared as before
    rc, _, err = run_cli("compare", gold, system, "--hierarchy", "ud", "--bdm", "--no-alpha",
                         "-q", "--baseline", old, "-o", new)
    assert rc == 0, err
    (res,) = json.loads(new.read_text(encoding="utf-8"))["baseline"]["results"]
    assert {"LAS_hier", "LAS_bdm"} <= {m["metric"] for m in res["metrics"]}


def test_prf_with_tag_syntax_alternatives_says_values_are_counted_as_written(run_cli):
    # --prf silently counted 'advmod|obl:tmod' as one label (lenient: 'advmod|obl')
    gold, system = TAGCREDIT / "gold.conllu", TAGCREDIT / "system.conllu"
    note = "P/R/F1 count the values as written: a value with alternatives (e.g. "
    rc, out, err = run_cli("tags", gold, system, "--tag-syntax", "alternatives", "--prf", "-q")
    assert rc == 0, err
    assert note + "advmod|obl:tmod) is one label here" in out
    rc, out, err = run_cli("compare", gold, system, "--hierarchy", "ud", "--tag-syntax",
                           "alternatives", "--prf", "--no-alpha", "-q")
    assert rc == 0, err
    assert out.count(note) == 1
    rc, out, err = run_cli("tags", gold, system, "--prf", "-q")  # plain: no such note
    assert rc == 0 and note not in out, err
