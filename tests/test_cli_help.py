"""The CLI's help texts, and what printing them imports (issue 36, item 3).

* ``synagree --help`` and ``synagree CMD --help`` print exactly what argparse
  printed before the start-up work (tests/data/help/*.txt: written from main at
  5c2ed20 with ``COLUMNS=100``, before any change to the CLI's imports): making
  the start-up lazy must not change a word of the help.
* Printing the help (a fresh process) imports neither numpy nor any of the
  computing layers (distance, stats, agreement, evaluation, noise): the top-level
  help does not even import a command's module, and a command's help only its
  options.
"""
from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest

from synagree.cli.main import COMMANDS, main

HELP = Path(__file__).resolve().parent / "data" / "help"
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
