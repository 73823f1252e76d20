"""docs/qa-questions-2.md: every ``$ synagree ...`` example prints the numbers shown,
and the page's Python example runs and gives the values its comments show.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order (layout
changes do not matter, a changed number does).
"""
from __future__ import annotations

import re

import pytest
from doc_examples import NUMBER, ROOT, blocks, console_examples

DOC = ROOT / "docs" / "qa-questions-2.md"
EXAMPLES = console_examples(DOC)


def test_every_question_has_an_example():
    commands = [(args[0], args) for args, _ in EXAMPLES]
    assert [c for c, _ in commands] == ["compare", "agree", "plan"]
    assert "--humans" in commands[0][1] and "--preannotation" in commands[1][1]
    assert "--width" in commands[2][1]


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[a[0] for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    for line in expected.splitlines():  # the words that carry results
        if line.startswith(("parser against", "alpha_", "kept_by_all", "LAS_")):
            assert line.split()[0] in out


def test_prose_numbers_match_the_outputs():
    text = DOC.read_text(encoding="utf-8")
    assert "(0.88 against 0.82)" in text and "from 0.77 to 0.50" in text
    assert "about 106 sentences" in text
    assert "| CDT English (lotte, morten) | 264 | 0.9237 | 281 | 4,645 | 74 |" in text


def test_python_example(monkeypatch):
    """The page's Python block, run in tests/data/humans, gives the values it shows."""
    code = next(b for b in blocks(DOC, "python") if "human_band" in b)
    monkeypatch.chdir(ROOT / "tests" / "data" / "humans")
    ns: dict = {}
    lines = []
    for line in code.splitlines():  # the commented expressions are checked below
        m = re.match(r"^(\S.*?)\s+# (.*)$", line)
        lines.append(m.group(1) if m else line)
    exec("\n".join(lines), ns)
    assert ns["band"].comparison("gold", "LAS").verdict == "below"
    assert ns["res"].plan.plan.needed["plain"] == 106
    assert set(ns["band"].to_dict()) >= {"pairs", "comparisons", "verdicts"}
