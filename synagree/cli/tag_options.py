"""``--tag-syntax``, ``--bdm`` and ``--wu-palmer``: the options shared by ``tags``,
``compare`` and ``agree`` (docs/method.md §15, §23)."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Optional, Sequence

from synagree.base.problems import InputError
from synagree.cli import options

# The option's values, as synagree.stats.tag_alternatives.TAG_SYNTAXES (a test
# checks they agree): that module and synagree.io.formats pull in numpy and the
# CoNLL-U reader, which `synagree compare` on bracketed files must not pay for
# (it stays within EVALB's own time; benchmarks/bench_parseval.py).
TAG_SYNTAXES = ("plain", "alternatives")


def add_tag_syntax_args(p: argparse.ArgumentParser) -> None:
    """Add ``--tag-syntax plain|alternatives``, ``--bdm`` and ``--wu-palmer`` to a parser."""
    options.add_declared(p, "tag_syntax")
    options.add_options(p, "--bdm", "--wu-palmer")


def _first_phrase_file(files: Sequence[str], dirs: Sequence[str], fmt: str) -> Optional[str]:
    """The first input file read as bracketed trees (one file per directory is sniffed)."""
    from synagree.io.formats import annotation_stem, format_of  # heavy: see TAG_SYNTAXES

    paths = list(files)
    for d in dirs:
        p = Path(d)
        found = sorted(f for f in p.iterdir() if f.is_file() and annotation_stem(f.name)) \
            if p.is_dir() else []
        paths += [str(f) for f in found[:1]]
    return next((f for f in paths if format_of(fmt, f) == "phrase"), None)


def check_dependency_input(files: Sequence[str], dirs: Sequence[str], fmt: str = "auto",
                           tag_syntax: str = "plain") -> None:
    """``--tag-syntax alternatives`` reads DEPREL: a usage error for bracketed input.

    Checked before any work, from the files' names or first lines (the
    format ``agree`` would read them in).
    """
    if tag_syntax == "plain":
        return
    phrase = _first_phrase_file(files, dirs, fmt)
    if phrase is not None:
        raise InputError.single("<command line>", None, "usage",
                                f"--tag-syntax alternatives reads DEPREL: dependency input "
                                f"only ({phrase} holds bracketed trees)")
