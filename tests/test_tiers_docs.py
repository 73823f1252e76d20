"""docs/tiers.md: every ``$ synagree ...`` example prints exactly what the page shows.

The commands run in-process from the repository root.  A block without
``...`` must match the output line for line; in a block with ``...`` the
shown lines must appear in the output, in order (``...`` stands for the lines
left out).  The ``text`` block with the refused derived mapping is checked
against stderr the same way, and the hand-derived numbers of the page are
asserted in tests/test_tiers.py.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import List

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "tiers.md"


def _blocks(kind: str):
    text = DOC.read_text(encoding="utf-8")
    out = []
    for block in re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S):
        lines = block.splitlines()
        if not lines[0].startswith("$ synagree "):
            continue
        out.append((shlex.split(lines[0][2:])[1:], lines[1:]))
    return out


EXAMPLES = _blocks("console")


def _shown_in(expected: List[str], actual: List[str]) -> None:
    actual = [a.rstrip() for a in actual]
    expected = [e.rstrip() for e in expected]
    if "..." not in expected:
        assert actual == expected
        return
    pos = 0
    for line in expected:
        if line == "...":
            continue
        assert line in actual[pos:], f"{line!r} not in the output (in order)"
        pos = actual.index(line, pos) + 1


def test_every_option_has_an_example():
    opts = {o for args, _ in EXAMPLES for o in args}
    assert {"--tiers", "--sibling-credit", "--tiers-unmapped", "--lexicon"} <= opts
    assert len(EXAMPLES) == 4


@pytest.mark.parametrize("args,expected", EXAMPLES,
                         ids=[" ".join(a[-4:]) for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    _shown_in(expected, out.splitlines())


def test_documented_error(run_cli, monkeypatch):
    [(args, expected)] = _blocks("text")
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 2 and out == ""
    _shown_in(expected + ["..."], err.splitlines())
