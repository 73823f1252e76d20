"""docs/prf.md: every ``$ synagree ...`` example prints the numbers shown.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order, so layout
changes do not matter but any changed number does.  The hand derivations on
the page are asserted exactly in tests/test_prf.py.
"""
from __future__ import annotations

import pytest
from doc_examples import NUMBER, ROOT, console_examples

DOC = ROOT / "docs" / "prf.md"
EXAMPLES = console_examples(DOC)


def test_every_command_and_format_has_an_example():
    cmds = {args[0] for args, _ in EXAMPLES}
    assert cmds == {"tags", "compare"}
    assert all("--prf" in args for args, _ in EXAMPLES)
    assert any("csv" in args for args, _ in EXAMPLES)
    assert len(EXAMPLES) == 4


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[-3:]) for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    # the words matter too where they carry results (variant rows, notes)
    for line in expected.splitlines():
        if line.startswith(("note:", "strict", "lenient", "unlabelled", "MICRO", "MACRO")):
            assert line.split()[0] in out


def test_page_hand_values_match_the_tables():
    """The fractions derived by hand on the page are the ones printed."""
    text = DOC.read_text(encoding="utf-8")
    for derived in ("11/27 = 0.4074", "5/7 = 0.7143", "25/36 = 0.6944", "8/27 = 29.63%",
                    "4/7 = 57.14%"):
        assert derived in text
    assert abs(11 / 27 - 0.4074) < 5e-5 and abs(5 / 7 - 0.7143) < 5e-5
    assert abs(25 / 36 - 0.6944) < 5e-5 and abs(800 / 27 - 29.63) < 5e-3
    assert abs(400 / 7 - 57.14) < 5e-3
