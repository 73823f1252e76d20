"""One pair at a time: ``synagree.ted`` vs the raw kernel vs edist (same run).

Issue 22, item 5: a single-pair call may cost at most 5 µs above the kernel,
and is compared with edist's ``standard_ted`` (Cython; unit costs) on trees
below 40 nodes.  Random dependency-shaped trees of n words (n + 1 nodes with
the artificial root), 200 trees per size, the 199 neighbouring pairs.  Per
pair:

* kernel: the C kernel inside its compiled pair loop (``_tedc.pairs`` on a
  pack of the trees, one thread, the pack trusted): no Python per pair;
* ``synagree.ted(a, b)`` on two `FlatTree`, one Python call per pair;
* ``synagree.ted`` on two `DepSentence` (trees built per call; for scale);
* the previous single-pair path (a `TreePack` of the two per call, then
  `pair_distances`; what ``synagree.distance.ted.ted`` did before);
* edist: ``edist.ted.standard_ted(x_nodes, x_adj, y_nodes, y_adj)`` with the
  node and adjacency lists built beforehand, one Python call per pair.

Rounds alternate between the candidates; each number is the minimum over
the rounds.  overhead = synagree.ted − kernel; ratio = synagree.ted / edist
(below 1: synagree is faster).  The distances are checked: synagree's equal
zss's (tests/test_ted_pairs.py) and edist's wherever the artificial root is
kept (edist charges 1 to delete or insert it, synagree 0, as zss's
``simple_distance`` on synagree's trees; the count of pairs where that
differs is printed).

    pip install edist
    python benchmarks/bench_single_pair.py
"""
from __future__ import annotations

import time
from typing import Callable, List, Sequence, Tuple

import numpy as np
from common import random_trees

import synagree
from synagree.distance import kernels
from synagree.distance import ted as T
from synagree.io.conllu import DepSentence
from synagree.trees.flat import Vocabulary

try:
    from edist.ted import standard_ted
except ImportError:  # pragma: no cover - the benchmark needs it
    raise SystemExit("pip install edist (the baseline of this benchmark)") from None

SIZES = (5, 10, 20, 30, 38)  # words; nodes = words + 1 < 40
ROUNDS = 7


def edist_tree(s: DepSentence) -> Tuple[List[str], List[List[int]]]:
    """The same tree for edist: nodes in preorder (the root first, label ""), children
    by word order, and each node's children as preorder indices."""
    kids: List[List[int]] = [[] for _ in range(len(s.heads) + 1)]
    for w, h in enumerate(s.heads.tolist(), start=1):
        kids[h].append(w)
    nodes: List[str] = []
    adj: List[List[int]] = []
    stack = [(0, -1)]
    while stack:
        w, parent = stack.pop()
        k = len(nodes)
        nodes.append("" if w == 0 else s.deprels[w - 1])
        adj.append([])
        if parent >= 0:
            adj[parent].append(k)
        stack.extend((c, k) for c in reversed(kids[w]))
    return nodes, adj


def per_call(fn: Callable[[], object], calls: int) -> float:
    t = time.perf_counter()
    fn()
    return (time.perf_counter() - t) / calls


def main() -> None:
    if kernels.backend() != "c":
        raise SystemExit("the C extension is not built (pip install -e .)")
    ext = kernels.C_EXTENSION
    print(f"{'words':>5} {'kernel':>8} {'ted(Flat)':>10} {'ted(Dep)':>9} {'previous':>9} "
          f"{'edist':>8} {'overhead':>9} {'ted/edist':>10} {'kernel/edist':>13} "
          f"{'root-diff':>9}")
    print(f"{'':>5} {'us/pair':>8} {'us/pair':>10} {'us/pair':>9} {'us/pair':>9} "
          f"{'us/pair':>8} {'us':>9}")
    for n in SIZES:
        vocab = Vocabulary()
        trees, sents = random_trees(200, n, seed=n, vocab=vocab)
        pairs = list(zip(range(199), range(1, 200)))
        pack = T.TreePack(trees)
        pi = np.arange(199, dtype=np.int64)
        pj = pi + 1
        out = np.zeros(199)
        costs = T.Costs.unit(len(vocab)).arrays()
        et = [edist_tree(s) for s in sents]
        flat: Sequence[Tuple[object, object]] = [(trees[i], trees[j]) for i, j in pairs]
        dep = [(sents[i], sents[j]) for i, j in pairs]
        ed = [(et[i][0], et[i][1], et[j][0], et[j][1]) for i, j in pairs]
        ours = np.array([synagree.ted(a, b) for a, b in flat])
        assert np.array_equal(ours, T.pair_distances(pack, pi, pj))
        assert np.array_equal(ours, [synagree.ted(a, b) for a, b in dep])
        theirs = np.array([standard_ted(*x) for x in ed], dtype=float)
        root_diff = int(np.sum(ours != theirs))

        reps = max(1, 4000 // (n * n))
        ted = synagree.ted

        def kernel() -> None:
            for _ in range(reps):
                ext.pairs(pi, pj, *pack._args(), *costs, 64, 1, out, True)

        def single() -> None:
            for _ in range(reps):
                for a, b in flat:
                    ted(a, b)

        def single_dep() -> None:
            for a, b in dep:
                ted(a, b)

        def previous() -> None:
            for a, b in flat:
                float(T.pair_distances(T.TreePack([a, b]), np.array([0]), np.array([1]))[0])

        def baseline() -> None:
            for _ in range(reps):
                for x in ed:
                    standard_ted(*x)

        best = {"kernel": 1e9, "flat": 1e9, "dep": 1e9, "edist": 1e9, "old": 1e9}
        for _ in range(ROUNDS):
            best["kernel"] = min(best["kernel"], per_call(kernel, reps * 199))
            best["flat"] = min(best["flat"], per_call(single, reps * 199))
            best["edist"] = min(best["edist"], per_call(baseline, reps * 199))
            best["dep"] = min(best["dep"], per_call(single_dep, 199))
            best["old"] = min(best["old"], per_call(previous, 199))
        us = {k: 1e6 * v for k, v in best.items()}
        print(f"{n:>5} {us['kernel']:>8.2f} {us['flat']:>10.2f} {us['dep']:>9.1f} "
              f"{us['old']:>9.1f} {us['edist']:>8.2f} {us['flat'] - us['kernel']:>9.2f} "
              f"{us['flat'] / us['edist']:>10.2f} {us['kernel'] / us['edist']:>13.2f} "
              f"{root_diff:>9}")


if __name__ == "__main__":
    main()
