"""Bootstrap B = 1000 for 400 units once distances are known (goal: <= 0.2 s).

Compares the matrix-form bootstrap with a naive loop that recomputes D_o and
D_e from the unit sums replicate by replicate, in the same run.

    python benchmarks/bench_bootstrap.py
"""
from __future__ import annotations

import numpy as np
from common import best_of, random_trees

from synagree.stats.alpha import tree_alpha
from synagree.stats.bootstrap import alpha_bootstrap, resample_weights
from synagree.trees.flat import Vocabulary


def main() -> None:
    vocab = Vocabulary()
    trees, _ = random_trees(800, 18, seed=3, vocab=vocab, jitter=6)
    units = [trees[2 * k:2 * k + 2] for k in range(400)]
    ta = tree_alpha(units, keep_unit_matrix=True)
    sums = ta.sums
    t_mat = best_of(lambda: alpha_bootstrap(sums, B=1000, seed=1), 5)

    def naive():
        W = resample_weights(400, 100, 1)
        out = []
        for w in W:
            idx = np.repeat(np.arange(400), w.astype(int))
            S = sums.S[0][np.ix_(idx, idx)]
            n = sums.m[idx].sum()
            do = (sums.diag[idx, 0] / (sums.m[idx] - 1)).sum() / n
            out.append(1 - do / (S.sum() / (n * (n - 1))))
        return out
    t_naive = best_of(naive, 1) * 10  # 100 replicates, scaled to 1000
    print("bootstrap, 400 units, B = 1000, all three alpha variants")
    print(f"  matrix form          : {t_mat:.4f} s  (goal <= 0.2 s: "
          f"{'met' if t_mat <= 0.2 else 'MISSED'})")
    print(f"  naive per replicate  : {t_naive:.4f} s  (plain only, extrapolated; "
          f"{t_naive / t_mat:.1f}x slower)")


if __name__ == "__main__":
    main()
