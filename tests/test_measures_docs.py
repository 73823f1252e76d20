"""docs/measures.md: every ``$ synagree ...`` example prints the numbers shown, and the
page's Python examples run and give the values their comments show.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order (layout
changes do not matter, a changed number does).
"""
from __future__ import annotations

import re

import pytest
from doc_examples import NUMBER, ROOT, blocks, console_examples

DOC = ROOT / "docs" / "measures.md"
EXAMPLES = console_examples(DOC)


def test_the_page_shows_both_measures():
    commands = [args[0] for args, _ in EXAMPLES]
    assert commands == ["categorical", "categorical", "alt-test", "alt-test", "agree", "spans",
                        "spans"]
    assert "gamma" in EXAMPLES[6][0]
    assert "--runs" in EXAMPLES[4][0] and "--retest" in EXAMPLES[4][0]
    assert "--coefficient" in EXAMPLES[0][0] and "--hierarchy" in EXAMPLES[1][0]


@pytest.mark.slow
@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[:1] + a[-2:])
                                                          for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    for word in ("passes", "fails", "AC1", "AC2", "retest"):
        assert (word in out) == (word in expected)


def _run_block(code: str) -> dict:
    ns: dict = {}
    lines, checks = [], []
    for line in code.splitlines():  # "expr  # value": run expr, compare with value
        m = re.match(r"^(\S.*?)\s+# (.*)$", line)
        if m:
            checks.append((m.group(1), m.group(2)))
            lines.append(m.group(1))
        else:
            lines.append(line)
    exec("\n".join(lines), ns)
    for expr, value in checks:
        if "=" in expr.split("(")[0]:
            continue
        assert repr(eval(expr, ns)) == value, expr
    return ns


@pytest.mark.parametrize("index", [0, 1])
def test_python_examples(index, monkeypatch):
    monkeypatch.chdir(ROOT / "tests" / "data" / "humans")
    code = blocks(DOC, "python")
    assert len(code) == 2
    ns = _run_block(("import synagree\n" if index else "") + code[index])
    assert ("res" in ns) == (index == 0)


def test_tags_excerpt(run_cli, monkeypatch):
    """The ```text excerpt of tags --coefficient: its Gwet rows are the command's."""
    monkeypatch.chdir(ROOT)
    block = next(b for b in blocks(DOC, "text") if "synagree tags" in b)
    args = block.splitlines()[0].split()[2:]
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    rows = [line for line in block.splitlines() if line.startswith(("column", "deprel"))]
    assert len(rows) == 2
    for line in rows:
        assert NUMBER.findall(line) == NUMBER.findall(next(
            o for o in out.splitlines() if o.split()[:1] == line.split()[:1]))
