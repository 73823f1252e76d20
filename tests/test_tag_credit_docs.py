"""docs/tag-credit.md: every ``$ synagree ...`` example prints the numbers shown.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order.  The
hand-derived values of the page are asserted in tests/test_tag_alternatives.py.
"""
from __future__ import annotations

import pytest
from doc_examples import NUMBER, ROOT, console_examples

DOC = ROOT / "docs" / "tag-credit.md"
EXAMPLES = console_examples(DOC)


def test_every_command_has_an_example():
    assert [a[0] for a, _ in EXAMPLES] == ["tags", "tags", "tags", "compare", "agree"]
    assert all("--bdm" in a or "--wu-palmer" in a for a, _ in EXAMPLES[1:])


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[:1] + a[-3:])
                                                         for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    for line in expected.splitlines():
        if line.startswith(("note:", "LAS_", "bdm_", "wup_", "hier_", "BDM", "Wu-Palmer",
                            "accuracy")):
            assert line.split()[0] in out
