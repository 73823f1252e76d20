"""Enhanced dependency edges: how two lists of them are matched.

docs/method.md §20.2.  The rule is the one of the IWPT 2020/2021 shared-task
scorer (``udeval``, the successor of the CoNLL 2018 scorer): for one word,
every (edge of A, edge of B) pair whose heads are the same word and whose
labels are equal counts as one match.  ``universal=True`` compares labels by
their universal part only: in every ``>``-separated step of a label, the part
before the first ``:`` (``nsubj:pass`` -> ``nsubj``, ``conj:en>obl:voor`` ->
``conj>obl``).  When neither list repeats an edge (same head, same compared
label), the count is the size of the intersection of the two edge sets.
"""
from __future__ import annotations

from typing import Hashable, Sequence, Tuple

__all__ = ["universal_label", "edge_matches"]


def universal_label(label: str) -> str:
    """The universal part of an enhanced label, step by step.

    Parameters
    ----------
    label : str
        An enhanced label, possibly a ``>``-path.
    """
    if ":" not in label:
        return label
    return ">".join(step.split(":", 1)[0] for step in label.split(">"))


def edge_matches(a: Sequence[Tuple[Hashable, str]], b: Sequence[Tuple[Hashable, str]],
                 universal: bool = False) -> Tuple[int, int]:
    """Matches between two edge lists of one word, as the IWPT scorer counts them.

    Heads must already be in one space (the same object or value for the same
    head word, ``None`` for the root).

    Parameters
    ----------
    a, b : sequence of (head, label)
    universal : bool
        Compare labels by `universal_label` (EULAS) instead of in full (ELAS).

    Returns
    -------
    (int, int)
        The number of matching (edge of a, edge of b) pairs, and how many of
        them are surplus: matches beyond the first of an edge of ``a``
        (non-zero only when a list repeats an edge).
    """
    if not a or not b:
        return 0, 0
    key = universal_label if universal else _same_label
    bk = [(h, key(lab)) for h, lab in b]
    total = surplus = 0
    for h, lab in a:
        k = key(lab)
        hits = sum(1 for bh, bl in bk if bl == k and bh == h)
        total += hits
        surplus += max(hits - 1, 0)
    return total, surplus


def _same_label(label: str) -> str:
    return label
