"""Maximum spanning arborescence (Chu–Liu/Edmonds) for consensus dependency trees.

Written here, in numpy, rather than taken from networkx: it is the
project's own contribution to adjudication (docs/method.md §31), the
sentences are small (tens of words, so the O(n³) recursion costs
microseconds), and it needs the *root constraint* that networkx does not
offer: exactly one child of the artificial root.  networkx's
``maximum_spanning_arborescence`` is the oracle in the tests.

Conventions: a weight matrix ``W`` of shape (n + 1, n + 1) holds
``W[h, d]``, the score of the arc from head ``h`` (0 = the artificial root)
to dependent ``d`` (1..n); ``-inf`` forbids an arc; column 0 and the diagonal
are ignored.  The result is an int array of n heads (1-based, 0 = root), as
`synagree.io.conllu.DepSentence.heads`.

Ties between arcs of equal weight go to the lower head position (numpy's
``argmax`` takes the first maximum), so the result is deterministic;
callers that want another tie rule add it to the weights
(`synagree.agreement.adjudicate` adds a small priority per annotator).
"""
from __future__ import annotations

from typing import List, Optional

import numpy as np

__all__ = ["max_arborescence", "tree_weight"]

NEG = -np.inf


def _find_cycle(heads: np.ndarray) -> Optional[List[int]]:
    """A cycle of the head function ``heads`` (heads[0] unused), or None."""
    m = heads.shape[0]
    state = np.zeros(m, dtype=np.int8)  # 0 new, 1 on the current walk, 2 done
    state[0] = 2
    for start in range(1, m):
        if state[start]:
            continue
        walk = []
        v = start
        while state[v] == 0:
            state[v] = 1
            walk.append(v)
            v = int(heads[v])
        if state[v] == 1:  # closed a cycle on this walk
            cycle = walk[walk.index(v):]
            for w in walk:
                state[w] = 2
            return cycle
        for w in walk:
            state[w] = 2
    return None


def _cle(W: np.ndarray) -> np.ndarray:
    """Chu–Liu/Edmonds on a square matrix (node 0 the root); heads per node, [0] = -1."""
    m = W.shape[0]
    heads = np.full(m, -1, dtype=np.int64)
    if m == 1:
        return heads
    heads[1:] = np.argmax(W[:, 1:], axis=0)
    cycle = _find_cycle(heads)
    if cycle is None:
        return heads
    in_cycle = np.zeros(m, dtype=bool)
    in_cycle[cycle] = True
    others = np.flatnonzero(~in_cycle)  # 0 first
    k = others.shape[0]
    cyc = np.asarray(cycle)
    # into the cycle: W[u, v] - W[head(v), v], the best v per u
    gain = W[:, cyc] - W[heads[cyc], cyc][None, :]
    enter = np.argmax(gain, axis=1)
    # out of the cycle: the best cycle node as head of each outside node
    leave = np.argmax(W[cyc, :], axis=0)
    W2 = np.full((k + 1, k + 1), NEG)
    W2[:k, :k] = W[np.ix_(others, others)]
    W2[:k, k] = gain[others, enter[others]]
    W2[k, :k] = W[cyc[leave[others]], others]
    W2[k, 0] = NEG
    h2 = _cle(W2)
    out = heads.copy()
    for i in range(1, k):
        v = others[i]
        out[v] = cyc[leave[v]] if h2[i] == k else others[h2[i]]
    u = others[h2[k]]
    out[cyc[enter[u]]] = u
    return out


def tree_weight(W: np.ndarray, heads: np.ndarray) -> float:
    """The total weight of the arcs ``heads`` (1-based dependents) in ``W``."""
    n = heads.shape[0]
    return float(W[heads, np.arange(1, n + 1)].sum()) if n else 0.0


def max_arborescence(W: np.ndarray, single_root: bool = False) -> np.ndarray:
    """The maximum-weight spanning arborescence rooted at node 0.

    Parameters
    ----------
    W : numpy.ndarray
        float, shape (n + 1, n + 1): ``W[h, d]`` is the weight of the arc
        h → d; ``-inf`` forbids it.  Every word must have an allowed head
        that leads to a tree (a complete matrix always does).
    single_root : bool
        Exactly one child of node 0 (the root constraint of dependency
        treebanks): the best tree over each choice of the root's child,
        choices tried in order of an upper bound and stopped once no choice
        can beat the best found.

    Returns
    -------
    numpy.ndarray
        int32, shape (n,): the head of each word, 1-based (0 = root).

    Examples
    --------
    >>> W = np.array([[0, 6, 1, 1], [0, 0, 11, 4], [0, 10, 0, 5], [0, 2, 1, 0]], float)
    >>> max_arborescence(W).tolist()
    [0, 1, 2]
    >>> W[0, 3] = 12.0  # the root prefers word 3 as well as word 1
    >>> max_arborescence(W).tolist(), max_arborescence(W, single_root=True).tolist()
    ([0, 1, 0], [3, 1, 0])
    """
    n = W.shape[0] - 1
    if n <= 0:
        return np.zeros(0, dtype=np.int32)
    W = np.array(W, dtype=float)
    W[:, 0] = NEG
    np.fill_diagonal(W, NEG)
    heads = _cle(W)[1:]
    if not single_root or np.count_nonzero(heads == 0) <= 1:
        return heads.astype(np.int32)
    inner = W[1:, 1:]
    best_in = inner.max(axis=0)  # the best non-root head of each word
    total = float(np.sum(best_in[np.isfinite(best_in)]))
    bounds = W[0, 1:] + total - np.where(np.isfinite(best_in), best_in, 0.0)
    best: Optional[np.ndarray] = None
    best_w = NEG
    for r in np.argsort(-bounds, kind="stable"):
        if best is not None and bounds[r] <= best_w:
            break  # sorted by bound: no later choice can do better
        if not np.isfinite(W[0, r + 1]):
            continue
        Wr = W.copy()
        Wr[0, 1:] = NEG
        Wr[0, r + 1] = W[0, r + 1]
        h = _cle(Wr)[1:]
        w = tree_weight(Wr, h)
        if w > best_w:
            best, best_w = h, w
    if best is None:
        raise ValueError("no tree with one child of the root: every root arc is forbidden")
    return best.astype(np.int32)
