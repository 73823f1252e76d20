"""The ``--where`` queries of ``agree`` and ``report``, checked once the options are parsed.

The run part of `synagree.cli.question_options` (which declares ``--bias``, ``--by``
and ``--where``): checking a query needs the query language of `synagree.trees`,
which the parser part does without (issue 36).
"""
from __future__ import annotations

import argparse
from typing import List, Optional

from synagree.agreement.where import check_queries


def queries(args: argparse.Namespace) -> List[str]:
    """The ``--where`` queries, checked (a ``bad-where`` `InputError` before any work)."""
    given: Optional[List[str]] = getattr(args, "where", None)
    check_queries(given or ())
    return list(given or ())
