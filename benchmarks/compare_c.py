"""Historical one-off: a straightforward Zhang-Shasha loop compiled as C (gcc -O3)
vs the package's numba kernel.

Same algorithm, same flat arrays, same pairs, one thread each, loop over pairs
inside compiled code on both sides.  Prints time per pair and the ratio
numba / C (goal: <= 1.3).  Needs gcc.  The package's own C kernels
(synagree.distance._tedc) are timed by bench_kernel.py; this script runs the
package on its numba kernels (SYNAGREE_KERNELS=numba).

    python benchmarks/compare_c.py
"""
from __future__ import annotations

import ctypes
import os
import subprocess
import tempfile

import numba
import numpy as np
from common import best_of, random_trees

from synagree.distance import ted
from synagree.trees.flat import Vocabulary

os.environ["SYNAGREE_KERNELS"] = "numba"  # read per call: the package's numba kernels

C_SRC = r"""
#include <stdint.h>
#include <stdlib.h>
static double zs(const int32_t *l1, const int32_t *lm1, const int32_t *kr1, int64_t n1, int64_t k1,
                 const int32_t *l2, const int32_t *lm2, const int32_t *kr2, int64_t n2, int64_t k2,
                 const double *dc, const double *ic, double *td, double *fd, int64_t W) {
    for (int64_t ii = 0; ii < k1; ii++) {
        int64_t i = kr1[ii], li = lm1[i], m = i - li + 2;
        for (int64_t jj = 0; jj < k2; jj++) {
            int64_t j = kr2[jj], lj = lm2[j], n = j - lj + 2;
            fd[0] = 0.0;
            for (int64_t x = 1; x < m; x++) fd[x*(W+1)] = fd[(x-1)*(W+1)] + dc[l1[li+x-1]];
            for (int64_t y = 1; y < n; y++) fd[y] = fd[y-1] + ic[l2[lj+y-1]];
            for (int64_t x = 1; x < m; x++) {
                int64_t a = li + x - 1; int32_t la = l1[a]; double da = dc[la];
                int32_t lma = lm1[a]; int64_t p = lma - li;
                for (int64_t y = 1; y < n; y++) {
                    int64_t b = lj + y - 1; int32_t lb = l2[b];
                    double dl = fd[(x-1)*(W+1)+y] + da, in = fd[x*(W+1)+y-1] + ic[lb];
                    double v = dl < in ? dl : in;
                    int32_t lmb = lm2[b];
                    if (lma == li && lmb == lj) {
                        double r = fd[(x-1)*(W+1)+y-1] + (la == lb ? 0.0 : 1.0);
                        if (r < v) v = r;
                        fd[x*(W+1)+y] = v; td[a*W+b] = v;
                    } else {
                        double r = fd[p*(W+1)+(lmb-lj)] + td[a*W+b];
                        if (r < v) v = r;
                        fd[x*(W+1)+y] = v;
                    }
                }
            }
        }
    }
    return td[(n1-1)*W + n2-1];
}
void pairs(int64_t np_, const int64_t *pi, const int64_t *pj, const int32_t *lab, const int32_t *lml,
           const int64_t *noff, const int32_t *kr, const int64_t *koff, const double *dc,
           const double *ic, int64_t W, double *out) {
    double *td = malloc(sizeof(double)*W*W), *fd = malloc(sizeof(double)*(W+1)*(W+1));
    for (int64_t k = 0; k < np_; k++) {
        int64_t i = pi[k], j = pj[k];
        out[k] = zs(lab+noff[i], lml+noff[i], kr+koff[i], noff[i+1]-noff[i], koff[i+1]-koff[i],
                    lab+noff[j], lml+noff[j], kr+koff[j], noff[j+1]-noff[j], koff[j+1]-koff[j],
                    dc, ic, td, fd, W);
    }
    free(td); free(fd);
}
"""


def build():
    d = tempfile.mkdtemp()
    src, lib = os.path.join(d, "zs.c"), os.path.join(d, "zs.so")
    with open(src, "w") as fh:
        fh.write(C_SRC)
    subprocess.run(["gcc", "-O3", "-march=native", "-shared", "-fPIC", src, "-o", lib], check=True)
    return ctypes.CDLL(lib)


def main() -> None:
    numba.set_num_threads(1)
    lib = build()
    P = ctypes.c_void_p
    lib.pairs.argtypes = [ctypes.c_int64, P, P, P, P, P, P, P, P, P, ctypes.c_int64, P]
    vocab = Vocabulary()
    print(f"{'n':>4} {'C us/pair':>10} {'numba us/pair':>14} {'numba/C':>8}")
    for n in (10, 20, 40, 80):
        trees, _ = random_trees(200, n, seed=n, vocab=vocab)
        pack = ted.TreePack(trees)
        # force the left-path orientation in numba too, as the C code does
        pack.cr[:] = np.iinfo(np.int64).max // 4
        pi = np.arange(len(trees) - 1, dtype=np.int64)
        pj = pi + 1
        costs = ted.Costs.unit(len(vocab))
        dc, ic = costs.delete, costs.insert
        out = np.zeros(len(pi))
        W = pack.maxn
        args = [ctypes.c_int64(len(pi))] + [a.ctypes.data for a in
                (pi, pj, pack.lab, pack.lml, pack.noff, pack.kr, pack.koff, dc, ic)] + \
               [ctypes.c_int64(W), out.ctypes.data]
        reps = max(1, 20000 // (n * n))
        t_c = best_of(lambda: [lib.pairs(*args) for _ in range(reps)], 5) / (reps * len(pi))
        ref = ted.pair_distances(pack, pi, pj, costs)
        assert np.array_equal(out, ref), "C and numba kernels disagree"
        t_nb = best_of(lambda: [ted.pair_distances(pack, pi, pj, costs) for _ in range(reps)],
                       5) / (reps * len(pi))
        print(f"{n:>4} {1e6 * t_c:>10.3f} {1e6 * t_nb:>14.3f} {t_nb / t_c:>8.2f}")


if __name__ == "__main__":
    main()
