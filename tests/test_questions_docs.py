"""docs/qa-questions.md: every ``$ synagree ...`` example prints the numbers shown.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order, and the
first word of every line too (row names, table titles, notes).  The claims
the page's text makes about the outputs are asserted below.
"""
from __future__ import annotations

import pytest
from doc_examples import NUMBER, ROOT, console_examples, first_words

pytestmark = pytest.mark.usefixtures("terminal_100")  # the examples show a terminal

DOC = ROOT / "docs" / "qa-questions.md"
EXAMPLES = console_examples(DOC)


def test_every_question_has_an_example():
    opts = {o for args, _ in EXAMPLES for o in args}
    assert {"--bias", "--by", "--where"} <= opts
    assert any(a[0] == "categorical" and "--bias" in a for a, _ in EXAMPLES)


@pytest.mark.slow
@pytest.mark.parametrize("args,expected", EXAMPLES,
                         ids=[" ".join(a[-4:]) for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.delenv("COLUMNS", raising=False)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    assert first_words(out) == first_words(expected)


def _rows(expected: str, first: str):
    return [line.split() for line in expected.splitlines() if line.startswith(first)]


def test_what_the_text_says():
    bias, cat, plain, norm, where, each = (e for _, e in EXAMPLES)
    flagged = [r for r in _rows(bias, "deprel") if r[-1] == "yes"]
    assert [(r[3], r[8]) for r in flagged] == [("nmod", "cleo"), ("obl", "anna")]
    # (the counts are numbers: right-aligned under their headers)
    assert "nmod (cleo), obl (anna)" in cat and ["head", "anna", "cleo", "2426"] in \
        [r[:4] for r in _rows(cat, "head ")]
    status = [r[-1] for r in _rows(plain, "week")]
    assert status == ["above"] * 4 + ["below", "within", "below", "below"]
    assert [r[-1] for r in _rows(norm, "week")] == ["above"] * 4 + ["below"] * 4
    assert "p = 0.000999" in " ".join(plain.split())
    assert _rows(where, "deprel=conj")[0][1] == "96"  # "25 of the 96 sentences"
    assert [r[0] for r in _rows(where, "deprel=") + _rows(where, "upos=")
            + _rows(where, "head.")] == ["deprel=conj", "deprel=obl|nmod", "upos=ADP",
                                         "head.upos=VERB"]
    rows = _rows(each, "deprel=")
    assert rows[0][0] == "deprel=punct,head.upos=VERB" and len(rows) == 10
    assert all(float(r[-3]) < 0 for r in rows if r[0].startswith(("deprel=det", "deprel=case",
                                                                 "deprel=cc")))
