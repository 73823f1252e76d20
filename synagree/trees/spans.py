"""Constituent spans of a phrase-structure tree: (label, first leaf, leaf after the last).

The brackets of a tree as PARSEVAL, GATE's span measures and bracket Jaccard
see them: every internal node over the leaves ``start .. end - 1``, counted
as a multiset (a unary chain ``(NP (NP x))`` gives the span twice).  Leaves
are the tree's leaves in order (preterminal categories for Penn-style input,
`synagree.io.brackets`); a leaf is not a constituent.
"""
from __future__ import annotations

from typing import List, NamedTuple

from synagree.io.brackets import PhraseNode

__all__ = ["Span", "constituent_spans"]


class Span(NamedTuple):
    """One constituent: its label and the leaves it covers, ``start <= i < end``."""

    label: str
    start: int
    end: int


def constituent_spans(root: PhraseNode) -> List[Span]:
    """Every internal node's span, in preorder (parents before children, left to right)."""
    # iterative: brackets may nest deeper than Python's recursion limit
    out: List[Span] = []
    slots: List[int] = []  # index in out of each open node, to set its end
    stack: List[tuple] = [(root, False)]
    leaf = 0
    while stack:
        node, closing = stack.pop()
        if closing:
            k = slots.pop()
            out[k] = Span(out[k].label, out[k].start, leaf)
            continue
        if not node.children:
            leaf += 1
            continue
        slots.append(len(out))
        out.append(Span(node.label, leaf, leaf))
        stack.append((node, True))
        stack.extend((c, False) for c in reversed(node.children))
    return out
