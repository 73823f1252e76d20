"""docs/agreement-extras.md: every ``$ synagree ...`` example prints the numbers shown.

The commands run in-process from the repository root; the numbers (integers,
decimals, signed values, percentages) of the printed output must equal those
of the documented output, in order, so layout changes do not matter but any
changed number does.
"""
from __future__ import annotations

import pytest
from doc_examples import NUMBER, ROOT, console_examples

pytestmark = pytest.mark.usefixtures("terminal_100")  # the examples show a terminal

DOC = ROOT / "docs" / "agreement-extras.md"
EXAMPLES = console_examples(DOC)


def test_every_feature_has_an_example():
    opts = {o for args, _ in EXAMPLES for o in args}
    assert {"--unlabelled", "--worst-by", "--label-direction"} <= opts
    assert len(EXAMPLES) == 4


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[-3:]) for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    # the words matter too where they carry results (row names, notes)
    for line in expected.splitlines():
        if line.startswith(("note:", "alpha_", "ted_zero", "la_given_head")):
            assert line.split()[0] in out
