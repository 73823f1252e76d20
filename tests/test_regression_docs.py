"""docs/regression.md: every ``$ synagree ...`` example prints the numbers shown.

The examples run in order, in-process, in a scratch directory that sees the
repository's ``tests/`` (so the baseline files the first examples write with
``-o`` are there for the later ones, and nothing is written into the
repository).  The numbers of the printed output must equal those of the
documented output, in order; the error example must fail as shown.
"""
from __future__ import annotations

import shlex

from doc_examples import NUMBER, ROOT, blocks, console_examples

DOC = ROOT / "docs" / "regression.md"
EXAMPLES = console_examples(DOC)


def test_the_examples_cover_both_commands():
    opts = [args for args, _ in EXAMPLES]
    assert [a[0] for a in opts] == ["compare", "compare", "agree", "agree"]
    assert sum("--baseline" in a for a in opts) == 2 and sum("-o" in a for a in opts) == 2


def test_documented_output(run_cli, monkeypatch, tmp_path):
    (tmp_path / "tests").symlink_to(ROOT / "tests", target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    for args, expected in EXAMPLES:
        rc, out, err = run_cli(*args)
        assert rc == 0, (args, err)
        assert NUMBER.findall(out) == NUMBER.findall(expected), args
        for line in expected.splitlines():
            if line.startswith(("note:", "sentences that got", "baseline:")):
                assert line in out, line
    # the refused example
    [error] = blocks(DOC, "text")
    command, message = error.split("\n", 1)
    assert command.startswith("$ synagree ")
    rc, out, err = run_cli(*shlex.split(command[2:])[1:])
    assert rc == 2 and err.strip() == message.strip()
