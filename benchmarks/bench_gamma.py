"""γ's exact best alignment vs pygamma-agreement's (integer linear program) on the same units.

pygamma-agreement's example data (tests/data/gamma: 3 annotators; 3by100 has
372 units).  Both compute the observed disorder of the same units (``best_disorder`` here,
``Continuum.get_best_alignment`` with pygamma's default dissimilarity there);
the times are the best of ``--repeat`` runs each, interleaved, and the ratio
pygamma / synagree is printed beside the two disorders.  pygamma (a test
dependency, never a runtime one) must be installed: pip install -e '.[test]'.

    python benchmarks/bench_gamma.py
"""
from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

import numpy as np

from synagree.stats.gamma import best_disorder

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "gamma"


def rows_of(name: str) -> list:
    with open(DATA / name, newline="") as fh:
        return [(r[0], r[1], float(r[2]), float(r[3])) for r in csv.reader(fh) if r]


def ours(rows: list) -> list:
    annotators = sorted({r[0] for r in rows})
    cats = sorted({r[1] for r in rows})
    return [np.array(sorted({(s, e, cats.index(c)) for a, c, s, e in rows if a == x}),
                     dtype=float) for x in annotators]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--files", nargs="+", default=["AlexPaulSuzan.csv", "3by100.csv"])
    args = ap.parse_args()
    import pygamma_agreement as pg  # the baseline: an oracle of the tests
    from pyannote.core import Segment
    for name in args.files:
        rows = rows_of(name)
        units = ours(rows)
        cont = pg.Continuum()
        for a, c, s, e in rows:
            cont.add(a, Segment(s, e), c)
        diss = pg.CombinedCategoricalDissimilarity()
        cont.get_best_alignment(diss)  # numba's compilation, not timed
        t_ours, t_theirs = [], []
        for _ in range(args.repeat):
            t = time.perf_counter()
            d_ours = best_disorder(units)
            t_ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            d_theirs = cont.get_best_alignment(diss).disorder
            t_theirs.append(time.perf_counter() - t)
        print(f"{name}: {len(rows)} units; D_o {d_ours:.9f} (pygamma {d_theirs:.7f}); "
              f"synagree {min(t_ours):.3f} s, pygamma {min(t_theirs):.3f} s, "
              f"ratio pygamma/synagree {min(t_theirs) / min(t_ours):.1f}")


if __name__ == "__main__":
    main()
