"""docs/morphology.md: every ``$ synagree ...`` example prints the numbers shown.

The commands run in-process from the repository root; the numbers of the
printed output must equal those of the documented output, in order, so
layout changes do not matter but any changed number does.  The hand
derivations of the page are asserted exactly in tests/test_features.py.
"""
from __future__ import annotations

import pytest
from doc_examples import NUMBER, ROOT, console_examples

DOC = ROOT / "docs" / "morphology.md"
EXAMPLES = console_examples(DOC)


def test_every_feature_has_an_example():
    opts = {o for args, _ in EXAMPLES for o in args}
    assert {"--per-feature", "--feature-items", "feats,feats:Number,feats:PronType"} <= opts
    assert {args[0] for args, _ in EXAMPLES} == {"categorical", "tags", "compare"}
    assert len(EXAMPLES) == 6


@pytest.mark.parametrize("args,expected", EXAMPLES, ids=[" ".join(a[-3:]) for a, _ in EXAMPLES])
def test_documented_output(args, expected, run_cli, monkeypatch):
    monkeypatch.chdir(ROOT)
    rc, out, err = run_cli(*args)
    assert rc == 0, err
    assert NUMBER.findall(out) == NUMBER.findall(expected)
    # the words matter too where they carry results (row names, captions)
    for line in expected.splitlines():
        first = line.split(",")[0].split()[0] if line.strip() else ""
        if first and not first[0].isdigit():
            assert first in out, first
