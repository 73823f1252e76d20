"""Every earlier CLI journey keeps its numbers.

``tests/data/golden/*.json`` are the JSON outputs of the commands in
``commands.tsv`` as written by synagree 0.1.0 before the layered redesign
(one file per command).  Each number there must come out the same today, at
the same place in the JSON; keys added since (settings, new metrics) are
allowed, keys that carry a number may not disappear.  Keys renamed since are
read through the registry's table of old names (`synagree.base.metrics.RENAMED`,
listed in CHANGELOG.md) and the moves of `_translate`.
"""
from __future__ import annotations

import json
import math
import shlex
from pathlib import Path

import pytest

from synagree.base.metrics import RENAMED

ROOT = Path(__file__).resolve().parents[1]
GOLDEN = ROOT / "tests" / "data" / "golden"
COMMANDS = [line.split("\t", 1) for line in
            (GOLDEN / "commands.tsv").read_text(encoding="utf-8").splitlines() if line]
# volatile leaves: the version, file paths, timings
SKIP = {"synagree_version", "created", "seconds"}


def _numbers(x, path=()):
    """(path, number) for every numeric leaf of a JSON value."""
    if isinstance(x, dict):
        for k, v in x.items():
            if k not in SKIP:
                yield from _numbers(v, path + (k,))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _numbers(v, path + (i,))
    elif isinstance(x, (int, float)) and not isinstance(x, bool):
        yield path, x


def _get(x, path):
    for p in path:
        x = x[p]
    return x


def _translate(path, command):
    """Where a number of an earlier release of ``command`` stands today."""
    path = list(path)
    if command == "report" and path[0] == "summary":  # the agree result, at the top now
        path = path[1:]
    for k in range(len(path) - 2):
        if path[k:k + 2] == ["details", "ci"]:  # details.ci.X -> X_ci (one interval, one place)
            path = path[:k] + [f"{path[k + 2]}_ci"] + path[k + 3:]
            break
    if command == "compare" and path[0] == "systems" and len(path) > 3:
        if path[2] == "scores":  # systems[i].scores.X.q -> systems[i].counts.X.q
            path[2] = "counts"
        elif path[2] == "alpha":  # systems[i].alpha.v.alpha -> systems[i].alpha_v
            q = path[4]
            path = path[:2] + ([f"alpha_{path[3]}"] if q == "alpha" else
                               ["counts", f"alpha_{path[3]}", q])
    renamed = RENAMED[command]
    return tuple(renamed.get(p, p) if isinstance(p, str) else p for p in path)


@pytest.mark.parametrize("name,cmd", COMMANDS, ids=[n for n, _ in COMMANDS])
def test_numbers_unchanged(name, cmd, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*shlex.split(cmd))
    assert rc == 0, err
    now = json.loads(out)
    old = json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))
    checked = 0
    for path, value in _numbers(old):
        got = _get(now, _translate(path, cmd.split()[0]))
        if isinstance(value, float) and math.isnan(value):
            assert got is None or math.isnan(got), path
        else:
            assert got == pytest.approx(value, rel=1e-12, abs=1e-12), path
        checked += 1
    assert checked > 5


@pytest.mark.slow
def test_noise_experiment_numbers_unchanged(tmp_path, run_cli, monkeypatch):
    """``synagree noise`` (the runs and their summary) as before the redesign."""
    monkeypatch.chdir(ROOT)
    rc, _, err = run_cli("noise", "synagree/data/en-sample/ann_a/sample.conllu", "-o",
                         tmp_path / "n", "--runs", "2", "--grid", "0.2,0.6", "--sample", "20",
                         "--seed", "4", "-q")
    assert rc == 0, err
    now = json.loads((tmp_path / "n" / "results.json").read_text(encoding="utf-8"))
    old = json.loads((GOLDEN / "noise.json").read_text(encoding="utf-8"))
    # summary rows are found by (series, p, metric), not by position: metrics added
    # since (LAS on UD relations) come between the old ones
    renamed = RENAMED["noise"]
    for rows in (old["summary"], now["summary"]):
        for r in rows:
            r["metric"] = renamed.get(r["metric"], r["metric"])
    by_key = {(r["series"], r["p"], r["metric"]): r for r in now["summary"]}
    now["summary"] = [by_key[(r["series"], r["p"], r["metric"])] for r in old["summary"]]
    pairs = list(_numbers(old))
    for path, value in pairs:
        got = _get(now, _translate(path, "noise"))
        assert got == pytest.approx(value, rel=1e-12, abs=1e-12), path
    assert len(pairs) > 50
    rc, _, err = run_cli("plot", tmp_path / "n", "-o", tmp_path / "figs", "--formats", "svg",
                         "-q")
    assert rc == 0, err
    assert sorted(p.name for p in (tmp_path / "figs").iterdir()) == [
        "noise-both.svg", "noise-las-vs-alpha.svg", "noise-reattach.svg", "noise-relabel.svg"]
