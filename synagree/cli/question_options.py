"""``--bias``, ``--by`` and ``--where``: the options of the questions after agreement.

Shared by ``synagree agree`` and ``synagree report`` (``categorical`` takes
``--bias`` only, declared in `synagree.cli.options.OPTIONS`); docs/method.md
§25–27, docs/qa-questions.md.  The parser part only (light: ``agree --help``
imports nothing that computes); the queries are checked after parsing by
`synagree.cli.questions`.
"""
from __future__ import annotations

import argparse

from synagree.base.groupings import parse_by
from synagree.cli import options
from synagree.cli.options import argparse_type

#: an argparse type: ``batch``, ``document`` or ``order:N``
by_option = argparse_type(parse_by)


def add_question_args(p: argparse.ArgumentParser) -> None:
    """``--bias``, ``--by``, ``--where`` (for ``agree`` and ``report``)."""
    g = p.add_argument_group("bias, drift and queries (docs/qa-questions.md)")
    options.add_options(g, "--bias")
    options.add_declared(g, "by", type=by_option, default=None)
    options.add_declared(g, "where", action="append", default=None)  # one query a time

