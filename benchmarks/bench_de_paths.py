"""The throughput of the two paths of D_e, for the cost rule's SAMPLED_TO_EXACT.

EWT test against a perturbed copy (perturb(), heads and labels at rate p, seed
7 as bench_goals.py's), as `compare` builds its units: the exact pass
(`sums.unit_sums`, every tile) and the shape of the sampled draws (uniform
random pairs of distinct trees of the same pack through `ted.pair_distances`,
262,144 at once as the sampler's kernel calls take them), in turn, on every
thread the process is given (SYNAGREE_THREADS), wall seconds, medians over
the rounds.  Cells as the cost rule counts them: the exact pass's
`stats.alpha.exact_cells`, a sampled pair's min(cl_i cl_j, cr_i cr_j).  The
ratio sampled / exact of the cells per second is what `SAMPLED_TO_EXACT`
(synagree/stats/alpha.py) says.

    python benchmarks/bench_de_paths.py [--p 0.05] [--rounds 3]
"""
from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from common import SHARED, loadavg

from synagree.distance import sums
from synagree.distance import ted as T
from synagree.io.conllu import read_conllu
from synagree.noise.perturb import label_set, perturb
from synagree.stats.alpha import SAMPLED_TO_EXACT, exact_cells
from synagree.trees.flat import Vocabulary, dependency_trees

SAMPLED_CHUNK = 262_144


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--p", type=float, default=0.05)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    sents = read_conllu(SHARED / "ud" / "en_ewt-ud-test.conllu")
    labels, rng = label_set(sents), np.random.default_rng(7)
    noisy = [perturb(s, args.p, args.p, labels, rng) for s in sents]
    vocab = Vocabulary()
    gold, sys_ = dependency_trees(sents, vocab), dependency_trees(noisy, vocab)
    ut = sums.UnitTrees.build([[g, s] for g, s in zip(gold, sys_)])
    pack = ut.pack
    k = len(pack)
    draw = np.random.default_rng(1)
    i, j = draw.integers(0, k, SAMPLED_CHUNK), draw.integers(0, k, SAMPLED_CHUNK)
    keep = i != j
    i, j = i[keep], j[keep]
    cl, cr = pack.cl.astype(np.float64), pack.cr.astype(np.float64)
    s_cells = float(np.minimum(cl[i] * cl[j], cr[i] * cr[j]).sum())
    e_cells = float(exact_cells(pack))
    load0 = loadavg()
    te, ts = [], []
    for _ in range(args.rounds):
        t0 = time.perf_counter()
        sums.unit_sums(ut, progress=False)
        te.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        T.pair_distances(pack, i, j)
        ts.append(time.perf_counter() - t0)
    e, s = statistics.median(te), statistics.median(ts)
    print(f"EWT test vs a {args.p:g}-perturbed copy, {ut.n_units} units, {k} distinct trees; "
          f"load {load0} -> {loadavg()}")
    print(f"exact pass: {e_cells / 1e9:.2f} G cells in {e:.3f} s (median of "
          f"{args.rounds}): {e_cells / e / 1e9:.3f} G cells/s")
    print(f"sampled shape: {i.shape[0]:,} random pairs, {s_cells / 1e9:.3f} G cells in "
          f"{s:.3f} s: {s_cells / s / 1e9:.3f} G cells/s")
    print(f"sampled / exact throughput: {(s_cells / s) / (e_cells / e):.2f} "
          f"(SAMPLED_TO_EXACT = {SAMPLED_TO_EXACT:g})")


if __name__ == "__main__":
    main()
