"""docs/agree-breakdowns.md: every ``$ synagree ...`` example prints the numbers shown.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order, so
layout changes do not matter but any changed number does.  The values the
page derives by hand are asserted in tests/test_breakdown.py.
"""
from __future__ import annotations

import pytest
from doc_examples import NUMBER, ROOT, console_examples, first_words

pytestmark = pytest.mark.usefixtures("terminal_100")  # the examples show a terminal

DOC = ROOT / "docs" / "agree-breakdowns.md"
EXAMPLES = console_examples(DOC)


def test_the_page_has_the_example():
    assert len(EXAMPLES) == 1
    assert "--breakdown" in EXAMPLES[0][0]


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[-3:]) for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    # the words matter too where they carry results (row names, table titles, notes)
    assert first_words(out) == first_words(expected)


def test_hand_values_in_the_text():
    """The derivations of the page state the values the command prints."""
    text = DOC.read_text(encoding="utf-8")
    for value in ("0.4250", "-0.0455", "0.7946", "0.8889", "0.8296", "0.6349", "0.4000",
                  "0.5161"):
        assert value.replace("-", "−") in text or value in text
        assert value in EXAMPLES[0][1]
