"""The constituents of a phrase-structure tree as labelled token spans (docs/method.md §24.2).

A delexicalised tree's leaves are its tokens (position 0, 1, ... left to
right); every node with children is a *constituent* whose span is the
half-open range ``[first leaf, last leaf + 1)`` it covers.  The root is a
constituent; the leaves (preterminal categories) are not, and are available
as one-token spans by `preterminal_spans`.  Unary chains give several
constituents with the same span, each listed.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

from synagree.io.brackets import PhraseNode

__all__ = ["constituent_spans", "preterminal_spans"]

#: (label, start, end): a labelled half-open token span.
LabelledSpan = Tuple[str, int, int]


def constituent_spans(root: PhraseNode) -> List[LabelledSpan]:
    """Every constituent's ``(label, start, end)``, in preorder (outer before inner).

    Iterative, so any depth of nesting is fine.
    """
    span: Dict[int, Tuple[int, int]] = {}
    position = 0
    for node in root.postorder():  # leaves numbered left to right, parents after children
        if not node.children:
            span[id(node)] = (position, position + 1)
            position += 1
        else:
            span[id(node)] = (span[id(node.children[0])][0], span[id(node.children[-1])][1])
    out: List[LabelledSpan] = []
    stack = [root]
    while stack:
        node = stack.pop()
        if node.children:
            start, end = span[id(node)]
            out.append((node.label, start, end))
            stack.extend(reversed(node.children))
    return out


def preterminal_spans(root: PhraseNode) -> List[LabelledSpan]:
    """Every leaf's ``(category, k, k + 1)``, left to right."""
    return [(node.label, k, k + 1)
            for k, node in enumerate(n for n in root.postorder() if not n.children)]
