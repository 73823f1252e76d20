"""Regression tracking (``--baseline``; docs/method.md §18).

The tiny corpus of ``tests/data/regression`` (checked by hand in
docs/regression.md): gold has 4 sentences, 11 words; ``v1`` mislabels one word
of s2 (``mice`` obj → iobj); ``v2`` gets s2 right, mislabels ``Birds`` in s3
(nsubj → obj) and attaches ``books`` in s4 to ``She`` instead of ``reads``.
"""
from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import numpy as np
import pytest

from synagree.evaluation.baseline import add_unit_data, compare_baseline
from synagree.evaluation.compare import compare
from synagree.stats.regression import UnitData, match_units, text_digest

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data" / "regression"
GOLD, V1, V2 = (str(DATA / f) for f in ("gold.conllu", "v1.conllu", "v2.conllu"))


def _write_baseline(run_cli, tmp_path, *args, name="old.json"):
    out = tmp_path / name
    rc, _, err = run_cli(*args, "-o", str(out), "-q")
    assert rc == 0, err
    return out


def _json(run_cli, *args):
    rc, out, err = run_cli(*args, "--output", "json", "-q")
    assert rc == 0, err
    return json.loads(out)


def _result(doc, k=0):
    return doc["baseline"]["results"][k]


def _metric(r, name):
    return next(c for c in r["metrics"] if c["metric"] == name)


# --------------------------------------------------------------------------- compare


def test_compare_hand_checked(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, "--names", "parser")
    doc = _json(run_cli, "compare", GOLD, V2, "--names", "parser", "--baseline", str(old))
    r = _result(doc)
    assert r["units_matched"] == 4 and r["unmatched_old"] == [] == r["unmatched_new"]
    las = _metric(r, "LAS")
    assert las["old"] == pytest.approx(10 / 11) and las["new"] == pytest.approx(9 / 11)
    assert las["delta"] == pytest.approx(-1 / 11)
    uas = _metric(r, "UAS")
    assert (uas["old"], uas["new"]) == (pytest.approx(1.0), pytest.approx(10 / 11))
    assert las["significant"] is False  # 4 sentences: nothing can be significant
    # worse: s4 (LAS 3 -> 2, TED 0 -> 2) before s3 (2 -> 1, TED 0 -> 1); better: s2
    assert [(u["id"], u["LAS correct"]["old"], u["LAS correct"]["new"], u["TED"]["new"])
            for u in r["worse"]] == [("s4", 3, 2, 2), ("s3", 2, 1, 1)]
    assert [(u["id"], u["LAS correct"]["delta"], u["TED"]["old"]) for u in r["better"]] == \
        [("s2", 1, 1)]
    # alpha from the per-unit sums equals alpha as computed: D_o by hand,
    # 2 TED^2 per unit over n = 8 values
    base = json.loads(old.read_text())["systems"][0]
    a = _metric(r, "alpha_plain")
    assert a["old"] == pytest.approx(base["alpha_plain"], abs=1e-12)
    assert a["new"] == pytest.approx(doc["systems"][0]["alpha_plain"], abs=1e-12)
    assert base["counts"]["alpha_plain"]["d_o"] == pytest.approx(2 * 1 / 8)
    assert doc["systems"][0]["counts"]["alpha_plain"]["d_o"] == pytest.approx(2 * (1 + 4) / 8)
    # metrics without per-unit counts: change only
    blex = _metric(r, "BLEX")
    assert blex["p_bootstrap"] is None and blex["delta"] == pytest.approx(-1 / 11)


def test_identical_rerun_reports_no_change(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V2, "--names", "parser")
    doc = _json(run_cli, "compare", GOLD, V2, "--names", "parser", "--baseline", str(old))
    r = _result(doc)
    assert all(c["delta"] == 0 for c in r["metrics"])
    tested = [c for c in r["metrics"] if c["p_bootstrap"] is not None]
    assert {c["metric"] for c in tested} >= {"LAS", "UAS", "CLAS", "alpha_plain"}
    assert all(c["p_bootstrap"] == 1.0 and c["p_randomisation"] == 1.0 for c in tested)
    assert all(c["significant"] is False for c in tested)
    assert r["worse"] == [] and r["better"] == []
    rc, out, err = run_cli("compare", GOLD, V2, "--names", "parser", "--baseline", str(old),
                           "-q")
    assert "sentences that got worse: none" in out and "sentences that got better: none" in out


def _reordered(src: str, order, dst: Path, drop=(), edit=None) -> str:
    blocks = [b for b in Path(src).read_text().split("\n\n") if b.strip()]
    kept = [blocks[i] for i in order if i not in drop]
    text = "\n\n".join(kept) + "\n\n"
    if edit:
        text = text.replace(*edit)
    dst.write_text(text)
    return str(dst)


def test_units_are_matched_by_id(run_cli, tmp_path):
    """The new files hold the sentences in another order: the same comparison."""
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, "--names", "parser")
    ref = _result(_json(run_cli, "compare", GOLD, V2, "--names", "parser",
                        "--baseline", str(old)))
    order = [3, 1, 0, 2]
    g = _reordered(GOLD, order, tmp_path / "g.conllu")
    s = _reordered(V2, order, tmp_path / "s.conllu")
    r = _result(_json(run_cli, "compare", g, s, "--names", "parser", "--baseline", str(old)))
    assert r["units_matched"] == 4
    for name in ("LAS", "UAS", "CLAS", "alpha_plain"):
        a, b = _metric(r, name), _metric(ref, name)
        assert a["delta"] == pytest.approx(b["delta"], abs=1e-12)
        assert (a["old"], a["new"]) == (pytest.approx(b["old"]), pytest.approx(b["new"]))
    assert [u["id"] for u in r["worse"]] == ["s4", "s3"]


def test_unmatched_units_are_reported_and_left_out(run_cli, tmp_path):
    """s1 dropped, s2's text changed: 2 units matched; the notes say so."""
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, "--names", "parser")
    edit = ("Cats", "Rats")
    g = _reordered(GOLD, range(4), tmp_path / "g.conllu", drop={0}, edit=edit)
    s = _reordered(V2, range(4), tmp_path / "s.conllu", drop={0}, edit=edit)
    doc = _json(run_cli, "compare", g, s, "--names", "parser", "--baseline", str(old))
    r = _result(doc)
    assert r["units_matched"] == 2
    assert r["unmatched_old"] == ["s1", "s2"] and r["unmatched_new"] == ["s2"]
    assert any("2 baseline unit(s) not matched (s1, s2)" in n for n in r["notes"])
    las = _metric(r, "LAS")  # over s3 and s4 (5 words): 5 -> 3
    assert (las["old"], las["new"]) == (pytest.approx(1.0), pytest.approx(3 / 5))
    assert any("gold size" in n for n in doc["baseline"]["notes"])


def test_match_units_by_occurrence_and_text():
    z = [0.0] * 3

    def ud(ids, texts):
        return UnitData(ids, [text_digest(t) for t in texts], np.array(z[:len(ids)]),
                        np.array(z[:len(ids)]))

    io_, in_, oo, on = match_units(ud(["a", "a", "b"], ["x", "y", "z"]),
                                   ud(["a", "a", "b"], ["x", "y", "q"]))
    assert io_.tolist() == [0, 1] and in_.tolist() == [0, 1] and oo == ["b"] and on == ["b"]


def _corpus(tmp_path, n, damaged, name):
    """n two-word sentences; ``damaged`` of them mislabel their subject."""
    rows = []
    for i in range(n):
        rel = "obj" if i in damaged else "nsubj"
        rows.append(f"# sent_id = t{i}\n1\tw{i}\t_\tX\t_\t_\t2\t{rel}\t_\t_\n"
                    f"2\tv{i}\t_\tX\t_\t_\t0\troot\t_\t_\n")
    p = tmp_path / name
    p.write_text("\n".join(rows) + "\n")
    return str(p)


def test_known_significant_change_is_flagged(run_cli, tmp_path):
    gold = _corpus(tmp_path, 60, set(), "gold.conllu")
    v1 = _corpus(tmp_path, 60, set(), "v1.conllu")
    v2 = _corpus(tmp_path, 60, set(range(0, 60, 2)), "v2.conllu")  # 30 of 60 worse
    old = _write_baseline(run_cli, tmp_path, "compare", gold, v1, "--names", "p")
    r = _result(_json(run_cli, "compare", gold, v2, "--names", "p", "--baseline", str(old),
                      "--baseline-top", "3"))
    las = _metric(r, "LAS")
    assert las["delta"] == pytest.approx(-30 / 120)
    assert las["significant"] is True and las["p_randomisation"] < 0.01
    assert las["ci"][1] < 0
    assert _metric(r, "UAS")["delta"] == 0 and _metric(r, "UAS")["significant"] is False
    assert [u["id"] for u in r["worse"]] == ["t0", "t2", "t4"] and r["better"] == []


def test_old_json_without_per_unit_data_gives_changes_only(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, "--names", "parser")
    doc = json.loads(old.read_text())
    for s in doc["systems"]:
        del s["per_unit"]
    old.write_text(json.dumps(doc))
    r = _result(_json(run_cli, "compare", GOLD, V2, "--names", "parser",
                      "--baseline", str(old)))
    assert r["units_matched"] == 0 and r["worse"] == []
    assert _metric(r, "LAS")["delta"] == pytest.approx(-1 / 11)
    assert all(c["p_bootstrap"] is None for c in r["metrics"])
    assert any("no per-unit data" in n for n in r["notes"])


def test_without_alpha_the_lists_go_by_las_only(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, "--names", "parser")
    r = _result(_json(run_cli, "compare", GOLD, V2, "--names", "parser", "--baseline",
                      str(old), "--no-alpha"))
    assert r["lists_by"] == ["LAS correct"]
    assert [u["id"] for u in r["worse"]] == ["s3", "s4"]  # -1 each: gold order
    assert any("in the baseline only" in n and "alpha_plain" in n for n in r["notes"])


def test_systems_paired_by_name(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, V2, "--names", "a", "b")
    doc = _json(run_cli, "compare", GOLD, V2, V1, "--names", "b", "c", "--baseline", str(old))
    assert [(r["name"], r["baseline_name"]) for r in doc["baseline"]["results"]] == [("b", "b")]
    notes = doc["baseline"]["notes"]
    assert any(n.startswith("c: no system of that name") for n in notes)
    assert any(n.startswith("a: in the baseline only") for n in notes)
    assert all(c["delta"] == 0 for c in doc["baseline"]["results"][0]["metrics"])


def test_every_compare_format_carries_the_comparison(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, "--names", "parser")
    args = ["compare", GOLD, V2, "--names", "parser", "--baseline", str(old), "-q"]
    rc, out, _ = run_cli(*args, "--output", "csv")
    rows = list(csv.DictReader(io.StringIO(out)))
    new = {r["metric"]: r for r in rows if r["section"] == "baseline"}
    oldv = {r["metric"]: r for r in rows if r["section"] == "baseline:old"}
    assert float(new["LAS"]["value"]) == pytest.approx(9 / 11)
    assert float(new["LAS"]["diff"]) == pytest.approx(-1 / 11)
    assert float(oldv["LAS"]["value"]) == pytest.approx(10 / 11)
    worse = [(r["bin"], r["metric"], r["value"], r["diff"]) for r in rows
             if r["section"] == "baseline:worse"]
    assert ("s4", "LAS correct", "2", "-1") in worse
    rc, out, _ = run_cli(*args, "--output", "latex")
    assert "delta" in out and "LAS & 90.91 & 81.82 & -9.09 & [-40.00, 18.18]" in out
    rc, out, _ = run_cli(*args, "--output", "markdown")
    assert r"| LAS | 90.91 | 81.82 | -9.09 | \[-40.00, 18.18\] |" in out
    assert "sentences that got worse" in out
    rc, out, _ = run_cli(*args, "-v")
    assert "sentences that got worse" in out


def test_baseline_top_zero_lists_nothing(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, "--names", "parser")
    rc, out, _ = run_cli("compare", GOLD, V2, "--names", "parser", "--baseline", str(old),
                         "--baseline-top", "0", "--no-alpha", "-q")
    assert rc == 0 and "baseline: " in out and "sentences that got" not in out


@pytest.mark.parametrize("command", ["agree", "compare"])
def test_baseline_top_without_baseline_is_refused(run_cli, command):
    # review: --baseline-top without --baseline was silently ignored
    rc, out, err = run_cli(command, GOLD, V1, "--baseline-top", "3", "-q")
    assert rc == 2 and out == "" and "--baseline-top applies with --baseline only" in err


def test_library_compare_baseline():
    old = add_unit_data(compare(GOLD, [V1], names=["parser"])).as_dict()
    bc = compare_baseline(compare(GOLD, [V2], names=["parser"]), old, "old.json", B=100)
    assert bc.results[0].metric("LAS").delta == pytest.approx(-1 / 11)


# --------------------------------------------------------------------------- agree


def test_agree_hand_checked_and_formats(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "agree", GOLD, V1, "--names", "gold", "parser")
    args = ["agree", GOLD, V2, "--names", "gold", "parser", "--baseline", str(old)]
    doc = _json(run_cli, *args)
    bc = doc["details"]["baseline"]
    r = bc["results"][0]
    las = _metric(r, "LAS_full")
    assert (las["old"], las["new"]) == (pytest.approx(10 / 11), pytest.approx(9 / 11))
    assert _metric(r, "LA")["delta"] == 0  # one label wrong in each round
    assert [u["id"] for u in r["worse"]] == ["s4", "s3"]
    assert [u["id"] for u in r["better"]] == ["s2"]
    assert "ted_zero_pairs" not in {c["metric"] for c in r["metrics"]}  # a count
    # agree's alpha between gold and the parser is compare's alpha
    cmp_doc = _json(run_cli, "compare", GOLD, V2, "--names", "parser")
    assert doc["alpha_plain"] == pytest.approx(cmp_doc["systems"][0]["alpha_plain"])
    rc, out, _ = run_cli(*args, "--output", "csv", "-q")
    row = dict(zip(*csv.reader(io.StringIO(out))))
    assert float(row["baseline_LAS_full_change"]) == pytest.approx(-1 / 11)
    assert row["baseline_worse_1_id"] == "s4" and row["baseline_worse_1_TED_new"] == "2"
    rc, out, _ = run_cli(*args, "--output", "latex", "-q")
    assert "LAS\\_full & 0.9091 & 0.8182 & -0.0909" in out
    rc, out, _ = run_cli(*args, "-q")
    assert "now against baseline" in out and "sentences that got better" in out


def test_agree_incompatible_settings_refused(run_cli, tmp_path):
    old = _write_baseline(run_cli, tmp_path, "agree", GOLD, V1, "--names", "gold", "parser")
    doc = json.loads(old.read_text())
    doc["settings"]["labels"] = "universal relations"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc))
    out_path = tmp_path / "out.json"
    rc, out, err = run_cli("agree", GOLD, V2, "--names", "gold", "parser",
                           "--baseline", str(bad), "-o", str(out_path))
    assert rc == 2 and "(baseline-mismatch)" in err and "labels" in err
    assert "Traceback" not in err and not out_path.exists()
    # a version difference is a note, not an error
    doc["settings"]["labels"] = "DEPREL in full"
    doc["settings"]["version"] = "0.0.1"
    bad.write_text(json.dumps(doc))
    new = _json(run_cli, "agree", GOLD, V2, "--names", "gold", "parser", "--baseline", str(bad))
    assert any(n.startswith("version: 0.0.1 in the baseline")
               for n in new["details"]["baseline"]["notes"])
    # another command's JSON, and a file that is not JSON
    cmp_old = _write_baseline(run_cli, tmp_path, "compare", GOLD, V1, name="c.json")
    rc, _, err = run_cli("agree", GOLD, V2, "--baseline", str(cmp_old))
    assert rc == 2 and "`synagree compare`, not of `synagree agree`" in err
    bad.write_text("{")
    rc, _, err = run_cli("compare", GOLD, V2, "--baseline", str(bad))
    assert rc == 2 and "(bad-json)" in err
    rc, _, err = run_cli("compare", GOLD, V2, "--compare-to", str(tmp_path / "none.json"))
    assert rc == 2 and "(file-not-found)" in err


def test_agree_json_always_carries_per_unit_data(run_cli):
    doc = _json(run_cli, "agree", GOLD, V1)
    pu = doc["details"]["per_unit"]
    assert pu["ids"] == ["s1", "s2", "s3", "s4"]
    assert pu["ratios"]["LAS_full"]["correct"] == [3, 2, 2, 3]
    assert sum(pu["alpha"]["alpha_plain"]["do"]) == pytest.approx(
        doc["counts"]["alpha_plain"]["do_sum"])


# --------------------------------------------------------------------------- real data


def _perturb(src: Path, dst: Path, p: float, seed: int, limit: int) -> None:
    """The first ``limit`` sentences; each word mislabelled with probability p."""
    rng = random.Random(seed)
    blocks = [b for b in src.read_text(encoding="utf-8").split("\n\n") if b.strip()][:limit]
    labels = ["nsubj", "obj", "obl", "advmod", "amod", "det", "case", "nmod"]
    out = []
    for b in blocks:
        lines = b.split("\n")
        for k, line in enumerate(lines):
            c = line.split("\t")
            if len(c) == 10 and c[0].isdigit() and rng.random() < p:
                c[7] = rng.choice([x for x in labels if x != c[7]])
                lines[k] = "\t".join(c)
        out.append("\n".join(lines))
    dst.write_text("\n\n".join(out) + "\n\n", encoding="utf-8")


@pytest.mark.slow
def test_real_data_per_unit_counts_add_up(shared_data, run_cli, tmp_path):
    src = shared_data / "ud" / "en_ewt-ud-dev.conllu"
    if not src.exists():
        pytest.skip("UD EWT dev is not available")
    gold, a, b = (tmp_path / f for f in ("g.conllu", "a.conllu", "b.conllu"))
    _perturb(src, gold, 0.0, 0, 150)
    _perturb(src, a, 0.05, 1, 150)
    _perturb(src, b, 0.10, 2, 150)
    old = _write_baseline(run_cli, tmp_path, "compare", str(gold), str(a), "--names", "p")
    base = json.loads(old.read_text())["systems"][0]
    pu = base["per_unit"]
    for m in ("LAS", "UAS", "CLAS"):
        assert sum(pu["ratios"][m]["correct"]) == base["counts"][m]["correct"]
        assert sum(pu["ratios"][m]["gold"]) == base["counts"][m]["gold"]
    for v in ("plain", "diff", "norm"):
        assert sum(pu["alpha"][f"alpha_{v}"]["do"]) / (2 * len(pu["ids"])) == \
            pytest.approx(base["counts"][f"alpha_{v}"]["d_o"], rel=1e-9)
    r = _result(_json(run_cli, "compare", str(gold), str(b), "--names", "p",
                      "--baseline", str(old), "--bootstrap", "300"))
    assert r["units_matched"] == 150
    las = _metric(r, "LAS")
    assert las["delta"] < 0 and las["significant"] is True
    assert _metric(r, "UAS")["delta"] == 0  # relabelling only
    assert _metric(r, "alpha_plain")["delta"] < 0
    assert len(r["worse"]) == 10
