"""All-pairs TED over 500 random dependency trees of ~20 words (goal: <= 1 s).

Compares, in the same run, the parallel all-pairs kernel against the same
kernel driven one pair per Python call (the 'no compiled pair loop' baseline),
and against zss on a subset extrapolated by pair count.

    python benchmarks/bench_allpairs.py
"""
from __future__ import annotations

import time

import zss
from common import best_of, random_trees

from synagree.distance import ted
from synagree.trees.flat import Vocabulary, to_zss


def main() -> None:
    vocab = Vocabulary()
    trees, _ = random_trees(500, 20, seed=7, vocab=vocab, jitter=5)
    pack = ted.TreePack(trees)
    ted.distance_matrix(ted.TreePack(trees[:3]))  # compile / load cache
    npairs = 500 * 499 // 2
    t_all = best_of(lambda: ted.distance_matrix(pack), 3)
    sub = 300
    t = time.perf_counter()
    for k in range(sub):
        ted.ted(trees[k], trees[k + 1])
    t_call = (time.perf_counter() - t) / sub * npairs
    z = [to_zss(x, vocab) for x in trees[:41]]
    t = time.perf_counter()
    for k in range(40):
        zss.simple_distance(z[k], z[k + 1], label_dist=lambda a, b: 0 if a == b else 1)
    t_zss = (time.perf_counter() - t) / 40 * npairs
    print(f"all pairs of 500 trees ({npairs:,} pairs, ~20 words)")
    print(f"  compiled all-pairs kernel : {t_all:8.3f} s   (goal <= 1 s: "
          f"{'met' if t_all <= 1 else 'MISSED'})")
    print(f"  one Python call per pair  : {t_call:8.3f} s   (extrapolated; {t_call / t_all:.0f}x slower)")
    print(f"  zss.simple_distance       : {t_zss:8.1f} s   (extrapolated; {t_zss / t_all:.0f}x slower)")


if __name__ == "__main__":
    main()
