"""docs/spans.md: every ``$ synagree ...`` example prints exactly what the page shows.

The commands run in-process from the repository root and must print the
page's block line for line; the hand-derived numbers of the page are
asserted in tests/test_gate_spans.py.
"""
from __future__ import annotations

import pytest
from doc_examples import ROOT, console_examples

DOC = ROOT / "docs" / "spans.md"
EXAMPLES = console_examples(DOC)


def test_the_examples():
    assert [a[0] for a, _ in EXAMPLES] == ["spans", "spans", "spans"]
    assert any("--bdm" in a for a, _ in EXAMPLES) and any("upos" in a for a, _ in EXAMPLES)


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[1:3]) for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert [line.rstrip() for line in out.splitlines()] == expected.splitlines()
