"""docs/enhanced.md: every ``$ synagree ...`` example prints the numbers shown.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order.
"""
from __future__ import annotations

import pytest
from doc_examples import NUMBER, ROOT, console_examples

pytestmark = pytest.mark.usefixtures("terminal_100")  # the examples show a terminal

DOC = ROOT / "docs" / "enhanced.md"
EXAMPLES = console_examples(DOC)


def test_every_feature_has_an_example():
    opts = {o for args, _ in EXAMPLES for o in args}
    assert {"--enhanced", "--set-distance", "-v"} <= opts
    assert len(EXAMPLES) == 3


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[:1] + a[-2:])
                                                         for a, _ in EXAMPLES])
def test_example_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    assert [line.rstrip() for line in out.strip().splitlines()] == \
        [line.rstrip() for line in expected.strip().splitlines()]


def test_hand_derived_numbers_in_the_page():
    text = DOC.read_text(encoding="utf-8")
    for claim in ("22/28 = 78.57", "24/28 = 85.71", "665/1034 = 0.6431",
                  "2197/3088 = 0.7115", "92/137 = 0.6715", "41/126 = 0.3254",
                  "517/567 = 0.9118", "25/84 = 0.2976", "685/756 = 0.9061"):
        assert claim in text
    assert round(665 / 1034, 4) == 0.6431 and round(2197 / 3088, 4) == 0.7115
    assert round(92 / 137, 4) == 0.6715 and round(100 * 22 / 28, 2) == 78.57
