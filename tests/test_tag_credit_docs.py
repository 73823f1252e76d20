"""docs/tag-credit.md: every ``$ synagree ...`` example prints the numbers shown.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order.  The
hand-derived values of the page are asserted in tests/test_tag_alternatives.py.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "tag-credit.md"
NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?%?(?![\w])")


def _examples():
    text = DOC.read_text(encoding="utf-8")
    out = []
    for block in re.findall(r"```console\n(.*?)```", text, flags=re.S):
        lines = block.splitlines()
        assert lines[0].startswith("$ synagree "), lines[0]
        out.append((shlex.split(lines[0][2:])[1:], "\n".join(lines[1:])))
    return out


EXAMPLES = _examples()


def test_every_command_has_an_example():
    assert [a[0] for a, _ in EXAMPLES] == ["tags", "tags", "compare", "agree"]
    assert all("--bdm" in a for a, _ in EXAMPLES[1:])


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[:1] + a[-3:])
                                                         for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    for line in expected.splitlines():
        if line.startswith(("note:", "LAS_", "bdm_", "hier_", "BDM", "accuracy")):
            assert line.split()[0] in out
