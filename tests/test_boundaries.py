"""Lose nothing, refuse nonsense: output paths, option values, planned memory,
stale temporary files.  Each case ended in data loss, an internal error
(exit 3) or silence before the options layer (synagree/options.py)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from synagree.io.files import write_atomic

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def pair(tmp_path, h):
    a = tmp_path / "a.conllu"
    b = tmp_path / "b.conllu"
    a.write_text(h.conll_text([[(0, "root"), (1, "obj")], [(0, "root")], [(2, "x"), (0, "root")]]))
    b.write_text(h.conll_text([[(0, "root"), (1, "iobj")], [(0, "root")], [(0, "root"), (1, "x")]]))
    return a, b


def _commands(a: Path, b: Path):
    return {
        "agree": ["agree", a, b],
        "report": ["report", a, b],
        "categorical": ["categorical", a, b],
        "compare": ["compare", a, b],
        "tags": ["tags", a, b],
    }


@pytest.mark.parametrize("cmd", ["agree", "report", "categorical", "compare", "tags"])
def test_output_equal_to_an_input_is_refused(pair, run_cli, cmd):
    a, b = pair
    before = a.read_bytes()
    rc, out, err = run_cli(*_commands(a, b)[cmd], "-o", a)
    assert rc == 2, err
    assert "is also an input" in err and "Traceback" not in err
    assert a.read_bytes() == before


@pytest.mark.parametrize("cmd", ["agree", "report", "categorical", "compare", "tags"])
def test_output_that_is_a_directory_is_refused(pair, tmp_path, run_cli, cmd):
    a, b = pair
    d = tmp_path / "existing_dir"
    d.mkdir()
    rc, out, err = run_cli(*_commands(a, b)[cmd], "-o", str(d) + "/")
    assert rc == 2 and "is a directory" in err and "Traceback" not in err


def test_missing_output_folder_is_created_and_said(pair, tmp_path, run_cli):
    a, b = pair
    target = tmp_path / "new" / "deeper" / "r.json"
    rc, out, err = run_cli("agree", a, b, "-o", target)
    assert rc == 0 and "created the folder" in err
    assert json.loads(target.read_text())["annotations"] == 6


@pytest.mark.parametrize("args, option", [
    (["agree", "--bootstrap", "-5"], "--bootstrap"),
    (["agree", "--bootstrap", "lots"], "--bootstrap"),
    (["agree", "--ci-level", "1.5"], "--ci-level"),
    (["agree", "--ci-level", "nan"], "--ci-level"),
    (["agree", "--sample-pairs", "0"], "--sample-pairs"),
    (["agree", "--seed", "-1"], "--seed"),
    (["agree", "--max-memory", "lots"], "--max-memory"),
    (["agree", "--worst", "-2"], "--worst"),
    (["report", "--confidence", "0"], "--confidence"),
    (["categorical", "--bootstrap", "-1"], "--bootstrap"),
    (["compare", "-B", "0"], "-B"),
    (["compare", "--top", "0"], "--top"),
    (["noise", "-o", "x", "--runs", "0"], "--runs"),
])
def test_option_values_are_checked_at_the_boundary(pair, run_cli, args, option):
    a, b = pair
    cmd, rest = args[0], args[1:]
    full = [cmd, a, b] + rest if cmd != "noise" else [cmd, a] + rest
    with pytest.raises(SystemExit) as ei:
        run_cli(*full)
    assert ei.value.code == 2


def test_option_message_names_option_and_range(pair):
    a, b = pair
    r = subprocess.run([sys.executable, "-m", "synagree", "agree", str(a), str(b),
                        "--bootstrap", "-5"], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and r.stdout == ""
    assert "argument --bootstrap: must be a whole number from 0 to 1,000,000, got -5" in r.stderr
    assert "Traceback" not in r.stderr


def test_noise_grid_too_large_is_refused_before_allocating(pair, tmp_path, run_cli):
    a, _ = pair
    rc, out, err = run_cli("noise", a, "-o", tmp_path / "n", "--grid", "0:1:100000000")
    assert rc == 2 and "--grid must be a sequence of at most 1,000 numbers" in err
    assert "got 100,000,000 numbers" in err  # the API's sentence (test_api_options)


def test_resampling_memory_is_planned(pair, run_cli):
    """A bootstrap whose unit x unit tables would exceed --max-memory is refused
    before any work, with a hint."""
    a, b = pair
    rc, out, err = run_cli("agree", a, b, "--bootstrap", "1000", "--max-memory", "1K")
    assert rc == 2 and "memory-limit" in err and "fewer replicates" in err
    rc, out, err = run_cli("compare", a, b, "--significance", "--max-memory", "1K")
    assert rc == 2 and "memory-limit" in err
    rc, out, err = run_cli("agree", a, b, "--bootstrap", "100")
    assert rc == 0, err


def test_report_refuses_to_flood_a_terminal(pair, run_cli, monkeypatch):
    a, b = pair
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True)
    rc, out, err = run_cli("report", a, b)
    assert rc == 2 and "give -o FILE.html" in err and out == ""


def test_csv_with_worst_is_one_document_or_refused(pair, run_cli):
    a, b = pair
    rc, out, err = run_cli("agree", a, b, "--output", "csv", "--worst", "2")
    assert rc == 2 and "two tables in one file" in err


def test_stale_temporaries_are_removed(tmp_path):
    target = tmp_path / "r.json"
    # a temporary left by a killed run: its PID no longer exists
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True).stdout.strip()
    stale = tmp_path / f".r.json.{dead}.abcd.tmp"
    stale.write_text("half a result")
    live = tmp_path / f".r.json.{os.getpid()}.efgh.tmp"  # a write in progress: kept
    live.write_text("")
    other = tmp_path / ".other.json.1.x.tmp"
    other.write_text("")
    write_atomic(target, "{}\n")
    assert not stale.exists() and live.exists() and other.exists()
    assert target.read_text() == "{}\n"


def test_killed_run_leaves_no_temporary(tmp_path):
    """SIGTERM during a write unwinds: the temporary file is removed."""
    code = ("import signal, os, synagree.cli.main as c, synagree.io.files as r\n"
            "signal.signal(signal.SIGTERM, c._terminate)\n"
            "class Slow(str):\n"
            "    pass\n"
            "orig = os.fsync\n"
            "def fsync(fd):\n"
            "    os.kill(os.getpid(), signal.SIGTERM)\n"
            "os.fsync = fsync\n"
            "try:\n"
            f"    r.write_atomic({str(tmp_path / 'out.json')!r}, 'x' * 1000)\n"
            "except c.Terminated:\n"
            "    print('terminated')\n")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert "terminated" in r.stdout, r.stderr
    assert list(tmp_path.iterdir()) == []


def test_noise_config_of_the_wrong_type(pair, tmp_path, run_cli):
    a, _ = pair
    out = tmp_path / "n"
    out.mkdir()
    (out / "config.json").write_text("[1, 2, 3]\n")
    (out / "runs.jsonl").write_text("")
    rc, _, err = run_cli("noise", a, "-o", out, "--runs", "1", "--grid", "0.5", "-q")
    assert rc == 2 and "corrupt-config" in err and "Traceback" not in err


def test_figures_without_matplotlib_say_how_to_install_it(tmp_path, run_cli, monkeypatch):
    """Plotting is an optional extra: the core runs without it, and a command
    that draws says what to install (exit 2, no traceback)."""
    import builtins

    real_import = builtins.__import__

    def no_matplotlib(name, *args, **kwargs):
        if name == "matplotlib" or name.startswith("matplotlib."):
            raise ImportError(f"No module named {name!r}")
        return real_import(name, *args, **kwargs)

    runs = tmp_path / "runs.csv"
    runs.write_text("series,p,p_relabel,p_reattach,p_random,run,seed,las\n"
                    "both,0.5,0.5,0.5,0,0,1,0.8\n")
    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    rc, out, err = run_cli("plot", runs, "-o", tmp_path / "figs")
    assert rc == 2 and "pip install 'synagree[plot]'" in err and "Traceback" not in err
