"""The DEPS column of CoNLL-U (the enhanced dependency graph): reading it.

docs/method.md §20.1.  DEPS is ``_`` (no enhanced edges) or a ``|``-separated
list of ``HEAD:LABEL`` items: HEAD is a word ID (``0`` = root) or an empty
node ID (``8.1``), in ASCII digits without leading zeros (the checks of
`synagree.io.conllu_ids`); LABEL is everything after the first ``:`` and must
not be empty.  A LABEL may be a path through collapsed empty nodes
(``conj>obl:voor``), which is kept as written.
"""
from __future__ import annotations

from typing import List, Tuple

from synagree.base.problems import quote
from synagree.io.conllu_ids import ConlluId, parse_id

__all__ = ["DepsEdge", "NO_DEPS", "has_deps", "parse_deps"]

#: one enhanced edge as written: (head ID, label)
DepsEdge = Tuple[ConlluId, str]

NO_DEPS = ("_", "")
"""DEPS values that mean "no enhanced edges" (the official scorer reads both so)."""


def has_deps(value: str) -> bool:
    """Does a DEPS value list any edge (is it neither ``_`` nor empty)?

    Parameters
    ----------
    value : str
        The DEPS column as written.
    """
    return value not in NO_DEPS


def parse_deps(value: str) -> List[DepsEdge]:
    """The edges of a DEPS value, in the order written.

    Parameters
    ----------
    value : str
        The DEPS column as written.

    Returns
    -------
    list of (ConlluId, str)
        (head, label) per edge; ``[]`` for ``_``.

    Raises
    ------
    ValueError
        A malformed item; the message quotes it (the readers turn it into a
        ``bad-deps`` problem).
    """
    if value in NO_DEPS:
        return []
    edges: List[DepsEdge] = []
    for item in value.split("|"):
        head, sep, label = item.partition(":")
        if not sep or not label:
            raise ValueError(f"DEPS item {quote(item)} is not HEAD:LABEL")
        hid = parse_id(head)
        if hid is None or hid.is_range:
            raise ValueError(f"DEPS item {quote(item)}: head {quote(head)} is neither a word "
                             f"ID (0 for the root) nor an empty node ID like 8.1")
        edges.append((hid, label))
    return edges
