"""Per-pair TED: synagree's compiled kernel vs zss.simple_distance (same run).

Random dependency-shaped trees, n = 10, 20, 40, 80 words.  Prints the time
per pair of each and the ratio.  The kernel is timed inside its compiled pair
loop on one thread (``numba.set_num_threads(1)``), so the ratio is per core.

    python benchmarks/bench_ted_pair.py
"""
from __future__ import annotations

import time

import numba
import numpy as np
import zss
from common import best_of, random_trees

from synagree.distance import ted
from synagree.trees.flat import Vocabulary, to_zss


def strdist(a, b):
    return 0 if a == b else 1


def main() -> None:
    numba.set_num_threads(1)
    vocab = Vocabulary()
    ted.ted(*random_trees(2, 5, 0, vocab)[0])  # compile / load cache
    print(f"{'n':>4} {'zss us/pair':>12} {'synagree us/pair':>17} {'ratio':>8}")
    for n in (10, 20, 40, 80):
        trees, _ = random_trees(200, n, seed=n, vocab=vocab)
        pack = ted.TreePack(trees)
        idx = np.arange(len(trees))
        pi, pj = idx[:-1], idx[1:]
        z = [to_zss(t, vocab) for t in trees]
        n_zss = {10: 100, 20: 40, 40: 10, 80: 4}[n]
        t = time.perf_counter()
        for k in range(n_zss):
            zss.simple_distance(z[k], z[k + 1], label_dist=strdist)
        t_zss = (time.perf_counter() - t) / n_zss
        reps = max(1, 20000 // (n * n))
        def run():
            for _ in range(reps):
                ted.pair_distances(pack, pi, pj)
        t_fast = best_of(run) / (reps * len(pi))
        print(f"{n:>4} {1e6 * t_zss:>12.1f} {1e6 * t_fast:>17.3f} {t_zss / t_fast:>7.0f}x")


if __name__ == "__main__":
    main()
