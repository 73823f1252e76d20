"""A dependency tree restricted to some of its words (docs/method.md §29.3).

The restriction of ε(root(...)) to a set of words is the dependency tree
(§2.1) of the sentence without the other words: each kept word's head is
its nearest ancestor in the set (the artificial root when there is none),
and siblings are ordered by word ID as in every dependency tree.  For a
projective tree this is the tree that deleting every other word leaves under
tree edit distance's delete operation (a deleted node's children take its
place under its parent).  Words that reach neither the root nor a kept
ancestor (on or under a head cycle) stay out of the tree, as in
`synagree.trees.flat.dependency_tree` (§2.4); |t| counts every kept word + 1.
"""
from __future__ import annotations

from typing import List, Optional, Sequence

import numpy as np

from synagree.io.conllu import DepSentence
from synagree.trees.flat import FlatTree, Vocabulary, flat_tree

__all__ = ["restricted_tree", "restricted_heads"]


def restricted_heads(heads: Sequence[int], keep: Sequence[bool]) -> List[Optional[int]]:
    """For each kept word (in order), its new head: the 1-based position among the
    kept words of its nearest kept ancestor, 0 for the root, None when the head
    chain loops before reaching either.

    Parameters
    ----------
    heads : sequence of int
        1-based heads, 0 for the root.
    keep : sequence of bool
        Per word, whether it is kept.
    """
    n = len(heads)
    new_pos = [0] * (n + 1)
    k = 0
    for w in range(1, n + 1):
        if keep[w - 1]:
            k += 1
            new_pos[w] = k
    out: List[Optional[int]] = []
    for w in range(1, n + 1):
        if not keep[w - 1]:
            continue
        p = int(heads[w - 1])
        seen = set()
        while p != 0 and not keep[p - 1]:
            if p in seen:
                break
            seen.add(p)
            p = int(heads[p - 1])
        if p != 0 and not keep[p - 1]:
            out.append(None)  # a cycle of dropped words
        else:
            out.append(new_pos[p])
    return out


def restricted_tree(sent: DepSentence, keep: "np.ndarray | Sequence[bool]",
                    vocab: Vocabulary) -> FlatTree:
    """The dependency tree of ``sent`` restricted to the words ``keep`` marks.

    Parameters
    ----------
    sent : DepSentence
    keep : sequence of bool
        Per word of ``sent``.
    vocab : Vocabulary
        Label ids (new labels are added).

    Returns
    -------
    FlatTree
        Nodes: the root and the kept words reachable from it; |t| = kept words + 1.

    Raises
    ------
    ValueError
        ``keep`` does not have one entry per word.
    """
    keep = [bool(x) for x in keep]
    if len(keep) != sent.n_words:
        raise ValueError(f"keep has {len(keep)} entries for {sent.n_words} words")
    heads = restricted_heads(sent.heads.tolist(), keep)
    kept = [w for w in range(sent.n_words) if keep[w]]
    children: List[List[int]] = [[] for _ in range(len(kept) + 1)]
    for k, h in enumerate(heads, start=1):  # ascending word ids: children stay ordered
        if h is not None:
            children[h].append(k)
    labels = [0] + [vocab.id(sent.deprels[w]) for w in kept]
    return flat_tree(children, labels, size=len(kept) + 1)
