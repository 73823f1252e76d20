"""The CLI's help texts, and what printing them imports (issue 36, item 3).

* ``synagree --help`` and ``synagree CMD --help`` print exactly what argparse
  printed before the start-up work (tests/data/help/*.txt: written from main at
  5c2ed20 with ``COLUMNS=100``, before any change to the CLI's imports): making
  the start-up lazy must not change a word of the help.
* Printing the help (a fresh process) imports neither numpy nor any of the
  computing layers (distance, stats, agreement, evaluation, noise): the top-level
  help does not even import a command's module (nor the machinery of a run,
  `synagree.cli.session`).  A command's help loads the command's parser part
  (`synagree.cli.parsers`), which declares its options, and not its run part, for
  every command.  No help loads an optional heavy module (scipy, pandas,
  matplotlib, jinja2, numba, dask).
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from synagree.cli.main import COMMANDS, build_parser, main

HELP = Path(__file__).resolve().parent / "data" / "help"
ROOT = Path(__file__).resolve().parents[1]
NAMES = ["synagree", *COMMANDS]


def _help(name: str) -> str:
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), pytest.raises(SystemExit) as stop:
        main(["--help"] if name == "synagree" else [name, "--help"])
    assert stop.value.code == 0
    return buf.getvalue()


def test_every_command_has_its_snapshot():
    assert sorted(p.stem for p in HELP.glob("*.txt")) == sorted(NAMES)


@pytest.mark.parametrize("name", NAMES)
def test_help_text_unchanged(name, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")  # argparse wraps to the terminal's width
    assert _help(name) == (HELP / f"{name}.txt").read_text()


def test_bare_command_prints_the_same_help_on_stderr(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "100")
    assert main([]) == 2
    assert capsys.readouterr().err == (HELP / "synagree.txt").read_text()


# what a help may not import: numpy (and the heavy optional modules), and the layers
# that compute; of synagree.stats only the two modules that declare options and
# check them (no numpy) may be loaded
HEAVY = ("numpy", "scipy", "pandas", "matplotlib", "jinja2", "numba", "dask")
COMPUTING = ("synagree.distance", "synagree.stats", "synagree.agreement",
             "synagree.evaluation", "synagree.noise", "synagree.trees")
OPTION_MODULES = {"synagree.stats", "synagree.stats.replicates",
                  "synagree.stats.baseline_options"}

_PROBE = """
import json, sys
from synagree.cli.main import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
json.dump(sorted(sys.modules), sys.__stderr__)
"""


def _imported(*argv: str) -> list:
    r = subprocess.run([sys.executable, "-c", _PROBE, *argv], capture_output=True, text=True,
                       cwd=ROOT, env={"COLUMNS": "100", "PATH": "/usr/bin:/bin",
                                      "PYTHONPATH": str(ROOT)}, timeout=60)
    assert r.stdout, r.stderr
    return json.loads(r.stderr)


def _computing(modules: list) -> list:
    return [m for m in modules if m.split(".")[0] in HEAVY
            or (m not in OPTION_MODULES
                and any(m == c or m.startswith(c + ".") for c in COMPUTING))]


def test_top_level_help_imports_no_command():
    modules = _imported("--help")
    assert _computing(modules) == []
    commands = [m for m in modules if m.startswith("synagree.cli.")]
    # (parseval_fast: the PARSEVAL fast path's test of argv; it loads nothing at import)
    assert sorted(commands) == ["synagree.cli.descriptions", "synagree.cli.main",
                                "synagree.cli.parseval_fast", "synagree.cli.signals"], commands


OPTIONAL = ("scipy", "pandas", "matplotlib", "jinja2", "numba", "dask")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_command_help_imports_nothing_that_computes(name):
    modules = _imported(name, "--help")
    # no help loads an optional heavy module (jinja2 only when report writes its page)
    assert [m for m in modules if m.split(".")[0] in OPTIONAL] == []
    # each command's parser part (synagree.cli.parsers) declares its options without
    # anything that computes; its run part is loaded only after parsing
    assert _computing(modules) == [], name


def test_a_run_builds_its_own_command_parser_only():
    """A command's run parses with that command's parser alone (issue 36: building the
    other eleven cost a tenth of a PARSEVAL run); the help and an unknown command get all."""
    def commands(parser: argparse.ArgumentParser) -> list:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        return list(sub.choices)

    assert commands(build_parser("compare")) == ["compare"]
    assert commands(build_parser(None)) == list(COMMANDS)
    assert commands(build_parser("no-such-command")) == list(COMMANDS)
