"""Rerun the ``$ synagree ...`` console examples of the documentation and write their output.

Each guide page shows worked examples as fenced ``console`` blocks whose first
line is ``$ synagree ARGS`` and whose rest is what the command prints; the
docs tests (``tests/test_*_docs.py``) rerun them and compare the numbers.
After a change of output, this script refreshes the pages:

    python scripts/doc_outputs.py docs/agreement-extras.md docs/agree-breakdowns.md
    python scripts/doc_outputs.py --check docs/*.md     # exit 1 if a page is stale

Commands run in-process, in order, in a scratch directory that sees the
repository's ``tests/``, ``synagree/`` and ``treebanks/`` (so files an example
writes with ``-o`` serve the later examples of the page, and nothing is written
into the repository), with standard error dropped; a command that fails leaves
its block as it is and is reported.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path

from synagree.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"```console\n(\$ synagree [^\n]*)\n(.*?)```", re.S)


def run(args: list) -> tuple:
    """``(exit status, standard output)`` of ``synagree ARGS``."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            rc = main(args)
        except SystemExit as exc:
            rc = int(exc.code or 0)
    return rc, out.getvalue()


def refresh(page: Path) -> tuple:
    """The page with every console block's output rerun, and the commands that failed."""
    failed: list = []
    elided: list = []

    def one(m: re.Match) -> str:
        command = m.group(1)
        try:
            args = shlex.split(command[2:])[1:]
        except ValueError:  # a continued or quoted line: not a single command
            failed.append(f"{page}: {command} (not a single command)")
            return m.group(0)
        if any(a in ("|", ">", "<", "&&") for a in args):
            return m.group(0)  # a shell pipeline: shown, not rerun
        if "\n...\n" in f"\n{m.group(2)}":
            elided.append(f"{page}: {command}")
            return m.group(0)  # an output cut short on purpose: left for the writer
        rc, out = run(args)
        if rc != 0:
            failed.append(f"{page}: {command} (exit {rc})")
            return m.group(0)
        body = "\n".join(line.rstrip() for line in out.rstrip().splitlines())
        return f"```console\n{command}\n" + (f"{body}\n" if body else "") + "```"

    text = BLOCK.sub(one, page.read_text(encoding="utf-8"))
    failed += [f"{e} (its output is cut short with '...': check it by hand)" for e in elided]
    return text, failed


def cli() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("pages", nargs="+", type=Path)
    p.add_argument("--check", action="store_true", help="exit 1 if a page would change")
    a = p.parse_args()
    stale, failures = [], []
    pages = [page.resolve() for page in a.pages]
    here = os.getcwd()
    with tempfile.TemporaryDirectory() as scratch:
        for name in ("tests", "synagree", "treebanks"):
            os.symlink(ROOT / name, Path(scratch) / name, target_is_directory=True)
        os.chdir(scratch)
        try:
            refreshed = [(page, *refresh(page)) for page in pages]
        finally:
            os.chdir(here)
        for page, text, failed in refreshed:
            failures += failed
            if text != page.read_text(encoding="utf-8"):
                stale.append(str(page))
                if not a.check:
                    page.write_text(text, encoding="utf-8")
    for f in failures:
        print(f"failed: {f}", file=sys.stderr)
    for s in stale:
        print(("stale: " if a.check else "rewrote: ") + s)
    return 1 if failures or (a.check and stale) else 0


if __name__ == "__main__":
    sys.exit(cli())
