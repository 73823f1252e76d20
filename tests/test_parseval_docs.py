"""docs/parseval.md: every ``$ synagree ...`` example prints the numbers shown."""
from __future__ import annotations

import pytest
from doc_examples import NUMBER, ROOT, console_examples

DOC = ROOT / "docs" / "parseval.md"
EXAMPLES = console_examples(DOC)


def test_the_page_has_its_examples():
    assert len(EXAMPLES) == 3
    assert any("evalb" in args for args, _ in EXAMPLES)


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[-3:]) for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)


def test_hand_derivations():
    text = DOC.read_text(encoding="utf-8")
    for derived in ("15/17 = 88.24", "15/16 = 93.75", "6/7 = 85.71", "4/5 = 80.00"):
        assert derived in text
    assert round(100 * 15 / 17, 2) == 88.24 and round(100 * 15 / 16, 2) == 93.75
    assert round(100 * 6 / 7, 2) == 85.71
