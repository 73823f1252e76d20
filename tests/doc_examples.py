"""The console examples of a documentation page, for the tests that rerun them.

A guide page shows each worked example as a ```console block: the first line
is ``$ synagree ARGS``, the rest is what the command prints.  The docs tests
run the command in-process and compare the numbers it prints (`NUMBER`) with
the page's, in order, so a layout change does not fail them but any changed
number does.
"""
from __future__ import annotations

import re
import shlex
from pathlib import Path
from typing import List, Tuple

ROOT = Path(__file__).resolve().parents[1]

#: integers, decimals, signed values and percentages in printed output
NUMBER = re.compile(r"(?<![\w.])[-+]?\d+(?:\.\d+)?%?(?![\w])")


def blocks(doc: Path, kind: str = "console") -> List[str]:
    """The bodies of the page's fenced blocks of one kind, in order."""
    return re.findall(rf"```{kind}\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S)


def console_examples(doc: Path) -> List[Tuple[List[str], str]]:
    """``(args after "synagree", expected output)`` of every console block of ``doc``."""
    out = []
    for block in blocks(doc):
        lines = block.splitlines()
        assert lines[0].startswith("$ synagree "), lines[0]
        out.append((shlex.split(lines[0][2:])[1:], "\n".join(lines[1:])))
    return out


def first_words(text: str) -> List[str]:
    """The first word of every non-blank line: the row names, titles and notes
    that carry results beside the numbers."""
    return [line.split()[0] for line in text.splitlines() if line.strip()]
