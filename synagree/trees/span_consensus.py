"""The consensus of several phrase-structure trees of one sentence (docs/method.md §31.6).

A tree is its set of labelled spans (first leaf, last leaf, label; leaves
numbered from 0, as `synagree.stats.attachment.brackets` counts them).  Each
annotator votes with its weight *for* every span of a non-leaf node it has
and *against* every span it does not have: a span's score is its support
minus its opposition, 2·s − W, with s the weight of the annotators that have
the span (under any label) and W the total weight.  The consensus is the
**maximum-score set of mutually compatible spans** (nested or disjoint, never
crossing), found by a CKY-style dynamic programme over the sentence's leaf
intervals (O(n³)); a span of score ≤ 0 is never chosen.  Two spans with more
than half the weight each share an annotator and so never cross, so the
consensus is exactly the spans that more than half the weight gives: a
majority tree, which a stray bracket of one annotator cannot enter (scoring a
span by its support alone would keep every span that crosses nothing heavier,
one annotator's included, and made the consensus worse than the better
annotators on noisy input).  A span that exactly half the weight gives is
left out (a tie, on the worklist).  Each chosen span takes its most voted
label (ties: the earliest annotator's) plus, on the same span, every other
label with more than half the total weight (a unary chain, ordered as the
first annotator having them orders them).  The whole sentence's span is
always chosen (every tree has it).  Leaves take the most voted category at
their position.  Tie rule, as for dependency trees: every chosen span's score
gets ε · Σ_j 2^−(j+1) over the trees j (0-based, in the order given) that have
it, ε far below any difference of vote weights.

Written here: it is the phrase-structure half of the project's adjudication;
tests check it against an exhaustive search over small sentences.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Sequence, Tuple

import numpy as np

from synagree.io.brackets import PhraseNode

__all__ = ["labelled_spans", "span_consensus", "span_votes", "consensus_of", "SpanVotes"]

Span = Tuple[int, int]
#: the scale of the tie-breaking priorities, far below any difference of vote weights
TIE_EPS = 1e-9


def labelled_spans(root: PhraseNode) -> Tuple[List[Tuple[int, int, str]], List[str]]:
    """The non-leaf nodes as (first leaf, last leaf, label), outermost first on a
    span, and the leaf labels in order."""
    out: List[Tuple[int, int, str, int]] = []
    leaves: List[str] = []
    span: Dict[int, Span] = {}
    depth: Dict[int, int] = {id(root): 0}
    stack = [root]
    while stack:  # depths, iteratively
        node = stack.pop()
        for c in node.children:
            depth[id(c)] = depth[id(node)] + 1
            stack.append(c)
    for node in root.postorder():
        if not node.children:
            span[id(node)] = (len(leaves), len(leaves))
            leaves.append(node.label)
        else:
            span[id(node)] = (span[id(node.children[0])][0], span[id(node.children[-1])][1])
            out.append((*span[id(node)], node.label, depth[id(node)]))
    out.sort(key=lambda x: (x[0], -x[1], x[3]))
    return [(a, b, lab) for a, b, lab, _ in out], leaves


def _best_set(n: int, w: np.ndarray) -> List[Span]:
    """The maximum-weight set of non-crossing spans (w[i, j] the weight of [i, j]; a span
    of weight ≤ 0 is never chosen)."""
    F = np.zeros((n + 1, n + 1))  # F[i, j + 1]: best within leaves i..j (j + 1 > i)
    choice = np.zeros((n + 1, n + 1), dtype=np.int64)  # -1: leaf i uncovered, else k
    for length in range(1, n + 1):
        for i in range(0, n - length + 1):
            j = i + length  # exclusive end
            best, arg = F[i + 1, j], -1  # leaf i not under a top-level span
            if length > 1:
                ks = np.arange(i + 1, j)  # top-level span [i, k - 1] then the rest
                vals = F[i, ks] + F[ks, j]
                k = int(np.argmax(vals))
                if vals[k] > best:  # exact: the tie priorities decide ties
                    best, arg = float(vals[k]), int(ks[k])
            # F[i, j] with [i, j - 1] itself: its weight on top of the best inside
            F[i, j] = max(float(w[i, j - 1]), 0.0) + best
            choice[i, j] = arg
    out: List[Span] = []
    stack = [(0, n)]
    while stack:
        i, j = stack.pop()
        if i >= j:
            continue
        if w[i, j - 1] > 0:
            out.append((i, j - 1))
        arg = int(choice[i, j])
        if arg == -1:
            stack.append((i + 1, j))
        else:
            stack.extend([(i, arg), (arg, j)])
    return out


@dataclass(frozen=True)
class SpanVotes:
    """The votes of one sentence's trees, each tree read once (`span_votes`).

    Attributes
    ----------
    n : int
        Leaves.
    total : float
        The total vote weight.
    labels : dict
        Per span of a non-leaf node: the weight of each label given there.
    order : dict
        Per span: its labels in the order first given (trees in order, outermost
        first within a tree).
    support : dict
        Per span: the weight of the trees that have it, under any label.
    leaves : list of dict
        Per leaf: the weight of each category.
    given : list of dict
        Per tree: its labels per span, outermost first, joined by ``/``.
    leaf_labels : list of list of str
        Per tree: its leaf categories.
    """

    n: int
    total: float
    labels: Dict[Span, Dict[str, float]]
    order: Dict[Span, List[str]]
    support: Dict[Span, float]
    leaves: List[Dict[str, float]]
    given: List[Dict[Span, str]]
    leaf_labels: List[List[str]]


def span_votes(trees: Sequence[PhraseNode], weights: Sequence[float]) -> SpanVotes:
    """The votes of ``trees`` (one sentence, same leaf count) under ``weights``."""
    labels: Dict[Span, Dict[str, float]] = {}
    order: Dict[Span, List[str]] = {}
    support: Dict[Span, float] = {}
    leaves: List[Dict[str, float]] = []
    given: List[Dict[Span, str]] = []
    leaf_labels: List[List[str]] = []
    for t, wt in zip(trees, weights):
        wt = float(wt)
        spans, leaf = labelled_spans(t)
        mine: Dict[Span, List[str]] = {}
        for a, b, lab in spans:
            d = labels.setdefault((a, b), {})
            d[lab] = d.get(lab, 0.0) + wt
            if lab not in order.setdefault((a, b), []):
                order[(a, b)].append(lab)
            mine.setdefault((a, b), []).append(lab)
        for sp in mine:  # once per tree, whatever its labels there
            support[sp] = support.get(sp, 0.0) + wt
        for k, lab in enumerate(leaf):
            if k == len(leaves):
                leaves.append({})
            leaves[k][lab] = leaves[k].get(lab, 0.0) + wt
        given.append({sp: "/".join(v) for sp, v in mine.items()})
        leaf_labels.append(leaf)
    return SpanVotes(len(leaf_labels[0]), float(sum(weights)), labels, order, support, leaves,
                     given, leaf_labels)


def span_consensus(trees: Sequence[PhraseNode], weights: Sequence[float]) -> PhraseNode:
    """The consensus tree of ``trees`` (one sentence, same leaf count) under ``weights``.

    Examples
    --------
    >>> from synagree.io.brackets import PhraseNode as N
    >>> a = N("S", [N("NP", [N("D"), N("N")]), N("VP", [N("V")])])
    >>> b = N("S", [N("D"), N("VP", [N("N"), N("V")])])  # VP crosses the others' NP
    >>> c = N("S", [N("NP", [N("D"), N("N")]), N("V")])
    >>> t = span_consensus([a, b, c], [1, 1, 1])  # NP: 2 of 3; a's unary VP: 1 of 3
    >>> t == c, t.label, [ch.label for ch in t.children]
    (True, 'S', ['NP', 'V'])
    >>> span_consensus([a, b, c], [3, 1, 1]) == a  # a alone has more than half the weight
    True
    """
    return consensus_of(span_votes(trees, weights))


def consensus_of(v: SpanVotes) -> PhraseNode:
    """The consensus tree of the votes ``v`` (module docstring)."""
    n, total = v.n, v.total
    w = np.full((n, n), -total)  # a span no annotator has: everyone against it
    for (a, b), x in v.support.items():
        w[a, b] += 2.0 * x
    eps = TIE_EPS / (n + 1)
    for j, mine in enumerate(v.given):
        for a, b in mine:
            if w[a, b] > eps:  # only among chosen spans: a tie at half stays out
                w[a, b] += eps * 2.0 ** -(j + 1)
    w[0, n - 1] = max(w[0, n - 1], 1e-9)  # the whole sentence is always a node
    chosen = sorted(_best_set(n, w), key=lambda s: (s[0], -s[1]))
    leaves = []
    for tally in v.leaves:
        top = max(tally.values())
        leaves.append(PhraseNode(next(x for x in tally if tally[x] >= top - 1e-9)))
    return _build(n, chosen, v.labels, v.order, total, leaves)


def _labels(span: Span, votes: Dict[Span, Dict[str, float]], order: Dict[Span, List[str]],
            total: float) -> List[str]:
    """The labels of a chosen span, outermost first."""
    d = votes.get(span, {"": 0.0})
    top = max(d.values())
    best = next(x for x in order.get(span, [""]) if d.get(x, 0.0) >= top - 1e-9)
    keep = {best} | {x for x, v in d.items() if v > total / 2 + 1e-9}
    return [x for x in order.get(span, [best]) if x in keep] or [best]


def _build(n: int, chosen: List[Span], votes: Dict[Span, Dict[str, float]],
           order: Dict[Span, List[str]], total: float, leaves: List[PhraseNode]
           ) -> PhraseNode:
    """Nest the chosen spans (outer first) over the leaves."""
    root_labels = _labels((0, n - 1), votes, order, total)
    root = PhraseNode(root_labels[0])
    inner = root
    for lab in root_labels[1:]:
        node = PhraseNode(lab)
        inner.children.append(node)
        inner = node
    stack: List[Tuple[Span, PhraseNode]] = [((0, n - 1), inner)]
    for span in chosen:
        if span == (0, n - 1):
            continue
        while not (stack[-1][0][0] <= span[0] and span[1] <= stack[-1][0][1]):
            _close(stack, leaves)
        parent = stack[-1][1]
        _fill(parent, stack[-1][0], span[0], leaves)
        labs = _labels(span, votes, order, total)
        top = PhraseNode(labs[0])
        parent.children.append(top)
        node = top
        for lab in labs[1:]:
            child = PhraseNode(lab)
            node.children.append(child)
            node = child
        stack.append((span, node))
    while stack:
        _close(stack, leaves)
    return root


def _next_leaf(node: PhraseNode, span: Span) -> int:
    """The first leaf position of ``span`` not yet under ``node``."""
    count = sum(1 for c in node.children for x in c.postorder() if not x.children)
    return span[0] + count


def _fill(node: PhraseNode, span: Span, upto: int, leaves: List[PhraseNode]) -> None:
    """Append the leaves of ``span`` before position ``upto`` not yet under ``node``."""
    for k in range(_next_leaf(node, span), upto):
        node.children.append(leaves[k])


def _close(stack: List[Tuple[Span, PhraseNode]], leaves: List[PhraseNode]) -> None:
    span, node = stack.pop()
    _fill(node, span, span[1] + 1, leaves)
