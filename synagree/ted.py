"""Zhang–Shasha tree edit distance over flat postorder arrays (SPEC §3).

Costs: deleting a node with label id ``a`` costs ``dcost[a]``, inserting
``icost[a]``, renaming ``a → b`` costs ``rmat[a, b]`` (or, with unit costs,
0 if ``a == b`` else 1).  The default costs are zss's ``simple_distance``
with a 0/1 label distance: every label costs 1 to insert or delete except
the empty root label (id 0), which costs 0.  Distances are float64; with
unit costs they are exact integers.

Kernels are compiled with numba (``cache=True``: the JIT cache lives on disk
beside the module, so only the first run compiles).  All work happens on
:class:`TreePack`, a corpus of trees packed into a handful of flat arrays,
so the loop over pairs runs inside compiled code with one work buffer per
thread.  Each pair runs in whichever orientation (left- or right-path
decomposition, i.e. original or mirrored trees) the Zhang–Shasha cost
estimate prefers; both give the same distance.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
from numba import njit, prange

from .trees import FlatTree


# --------------------------------------------------------------------------
# Compiled kernels
# --------------------------------------------------------------------------

_U0 = np.uint64(0)
_U1 = np.uint64(1)


@njit(cache=True, nogil=True)
def _work(maxn, dcost):
    """Work buffers for trees of at most ``maxn`` nodes, in the cost dtype:
    ``td`` (maxn²), ``fd`` ((maxn+1)²), per-node costs (2·maxn)."""
    td = np.empty(maxn * maxn, dcost.dtype)
    fd = np.empty((maxn + 1) * (maxn + 1), dcost.dtype)
    nc = np.empty(2 * maxn + 2, dcost.dtype)
    return td, fd, nc


@njit(cache=True, nogil=True)
def _zs(l1, lm1, kr1, l2, lm2, kr2, dcost, icost, rmat, unit, work):
    """Zhang–Shasha distance between two trees given as postorder arrays.

    ``work`` comes from :func:`_work`.  Cells are float64 or, for integral
    unit costs, int32 (exact, so the distance is the same float64).
    """
    td, fd, nc = work
    n1 = l1.shape[0]
    n2 = l2.shape[0]
    if n1 == 0 or n2 == 0:
        s = 0.0
        for a in range(n1):
            s += dcost[l1[a]]
        for b in range(n2):
            s += icost[l2[b]]
        return s
    # Indices are unsigned: numba then skips its negative-index wraparound
    # (several instructions per array access in the inner loop).
    N2 = np.uint64(n2)
    S = N2 + _U1  # fd row stride
    dc1 = nc[:n1]  # delete cost per node of tree 1
    ic2 = nc[n1:n1 + n2]  # insert cost per node of tree 2
    for a in range(n1):
        dc1[a] = dcost[l1[a]]
    for b in range(n2):
        ic2[b] = icost[l2[b]]
    for ii in range(kr1.shape[0]):
        i = np.uint64(kr1[ii])
        li = np.uint64(lm1[i])
        for jj in range(kr2.shape[0]):
            j = np.uint64(kr2[jj])
            lj = np.uint64(lm2[j])
            j1 = j + _U1
            # fd[x, y] lives at fd[x*S + y]; column y is node b = lj + y - 1
            fd[0] = 0
            acc = fd[0]
            for b in range(lj, j1):
                acc = acc + ic2[b]
                fd[b + _U1 - lj] = acc
            col = fd[0]
            for a in range(li, i + _U1):
                da = dc1[a]
                row = (a + _U1 - li) * S
                col = col + da
                fd[row] = col
                left = col
                cur = row + _U1 - lj  # fd[cur + b] = fd[x, y]; wraps, sums do not
                up = cur - S
                tdr = a * N2
                lma = np.uint64(lm1[a])
                pb = (lma - li) * S - lj  # fd[pb + lm2[b]] = fd[p, lm2[b] - lj]
                if lma == li:
                    # a's subtree is a prefix of the forest: trees may match here
                    la = l1[a]
                    for b in range(lj, j1):
                        lmb = np.uint64(lm2[b])
                        c = fd[up + b] + da
                        if lmb == lj:
                            lb = l2[b]
                            if unit:
                                ren = rmat[0, 0] if la == lb else rmat[0, 1]
                            else:
                                ren = rmat[la, lb]
                            r = fd[up + b - _U1] + ren
                            c = c if c < r else r
                            ins = left + ic2[b]
                            v = c if c < ins else ins
                            td[tdr + b] = v
                        else:
                            r = fd[pb + lmb] + td[tdr + b]
                            c = c if c < r else r
                            ins = left + ic2[b]
                            v = c if c < ins else ins
                        fd[cur + b] = v
                        left = v
                else:
                    # forest case only: reuse the tree distances computed before
                    for b in range(lj, j1):
                        r = fd[pb + np.uint64(lm2[b])] + td[tdr + b]
                        c = fd[up + b] + da
                        c = c if c < r else r
                        ins = left + ic2[b]
                        v = c if c < ins else ins
                        fd[cur + b] = v
                        left = v
    return np.float64(td[(np.uint64(n1) - _U1) * N2 + N2 - _U1])


@njit(cache=True, nogil=True)
def _pair(i, j, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
          dcost, icost, rmat, unit, work):
    """TED between trees ``i`` and ``j`` of a pack, in the cheaper orientation."""
    a0, a1 = noff[i], noff[i + 1]
    b0, b1 = noff[j], noff[j + 1]
    if cl[i] * cl[j] <= cr[i] * cr[j]:
        return _zs(lab[a0:a1], lml[a0:a1], kr[koff[i]:koff[i + 1]],
                   lab[b0:b1], lml[b0:b1], kr[koff[j]:koff[j + 1]],
                   dcost, icost, rmat, unit, work)
    return _zs(rlab[a0:a1], rlml[a0:a1], rkr[rkoff[i]:rkoff[i + 1]],
               rlab[b0:b1], rlml[b0:b1], rkr[rkoff[j]:rkoff[j + 1]],
               dcost, icost, rmat, unit, work)


@njit(cache=True, parallel=True)
def _pairs_kernel(pi, pj, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                  dcost, icost, rmat, unit, maxn, chunk, out):
    """Distances for the listed pairs, chunks of pairs spread over threads."""
    npairs = pi.shape[0]
    nchunks = (npairs + chunk - 1) // chunk
    for cc in prange(nchunks):
        c = np.int64(cc)
        work = _work(maxn, dcost)
        for k in range(c * chunk, min(npairs, (c + 1) * chunk)):
            out[k] = _pair(pi[k], pj[k], lab, lml, noff, kr, koff, rlab, rlml, rkr,
                           rkoff, cl, cr, dcost, icost, rmat, unit, work)


@njit(cache=True, nogil=True)
def _pairs_serial(pi, pj, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                  dcost, icost, rmat, unit, maxn, out):
    """Serial twin of :func:`_pairs_kernel` for short pair lists (loads faster)."""
    work = _work(maxn, dcost)
    for k in range(pi.shape[0]):
        out[k] = _pair(pi[k], pj[k], lab, lml, noff, kr, koff, rlab, rlml, rkr,
                       rkoff, cl, cr, dcost, icost, rmat, unit, work)


@njit(cache=True, parallel=True)
def _all_pairs_kernel(lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                      dcost, icost, rmat, unit, maxn, out):
    """Upper triangle of the distance matrix; rows r and K-1-r go together
    so that every parallel task has the same amount of work."""
    K = noff.shape[0] - 1
    half = (K + 1) // 2
    for rr in prange(half):
        r = np.int64(rr)  # prange indices may be unsigned; keep row arithmetic signed
        work = _work(maxn, dcost)
        for t in range(2):
            row = r if t == 0 else K - 1 - r
            if t == 1 and row == r:
                break  # middle row of an odd K
            for j in range(row + 1, K):
                d = _pair(row, j, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff,
                          cl, cr, dcost, icost, rmat, unit, work)
                out[row, j] = d
                out[j, row] = d


# --------------------------------------------------------------------------
# Python side
# --------------------------------------------------------------------------

INT_COST_MAX = 1024  # integral unit costs up to this run on int32 cells


@dataclass
class Costs:
    """Edit costs per label id (SPEC §3 unit costs by default)."""

    delete: np.ndarray  # float64 (L,)
    insert: np.ndarray  # float64 (L,)
    rename: Optional[np.ndarray] = None  # float64 (L, L); None = 0/1 equality

    @classmethod
    def unit(cls, n_labels: int) -> "Costs":
        c = np.ones(n_labels, dtype=np.float64)
        c[0] = 0.0  # the root's empty label, as zss
        return cls(c, c.copy(), None)

    def arrays(self):
        """``(delete, insert, rename, unit)`` as the kernels take them.

        Equality renames with small integral insert/delete costs run on int32
        cells: every sum is then an exact integer both ways, so the distances
        are the float64 ones, bit for bit.  Otherwise cells are float64.  With
        ``unit``, ``rename`` is ``[[0, 1]]``: the cost of an equal / unequal pair.
        """
        dc = np.ascontiguousarray(self.delete, dtype=np.float64)
        ic = np.ascontiguousarray(self.insert, dtype=np.float64)
        if self.rename is not None:
            return dc, ic, np.ascontiguousarray(self.rename, dtype=np.float64), False
        both = np.concatenate([dc, ic])
        if np.all(both == np.round(both)) and np.all(np.abs(both) <= INT_COST_MAX):
            # |sums| <= INT_COST_MAX · (n1 + n2) < 2**31 for any tree pair whose
            # work buffers fit in memory
            return (dc.astype(np.int32), ic.astype(np.int32),
                    np.array([[0, 1]], dtype=np.int32), True)
        return dc, ic, np.array([[0.0, 1.0]]), True


class TreePack:
    """A set of :class:`FlatTree` packed into contiguous arrays for the kernels."""

    def __init__(self, trees: Sequence[FlatTree]):
        self.trees = list(trees)
        K = len(self.trees)
        sizes_nodes = np.array([t.n_nodes for t in self.trees], dtype=np.int64)
        self.noff = np.zeros(K + 1, dtype=np.int64)
        np.cumsum(sizes_nodes, out=self.noff[1:])
        self.koff = np.zeros(K + 1, dtype=np.int64)
        np.cumsum([t.keyroots.shape[0] for t in self.trees], out=self.koff[1:])
        self.rkoff = np.zeros(K + 1, dtype=np.int64)
        np.cumsum([t.r_keyroots.shape[0] for t in self.trees], out=self.rkoff[1:])

        def cat(name, dtype=np.int32):
            parts = [getattr(t, name) for t in self.trees]
            return np.concatenate(parts).astype(dtype) if parts else np.zeros(0, dtype)

        self.lab, self.lml, self.kr = cat("labels"), cat("lml"), cat("keyroots")
        self.rlab, self.rlml, self.rkr = cat("r_labels"), cat("r_lml"), cat("r_keyroots")
        self.cl = np.array([t.cost_left for t in self.trees], dtype=np.int64)
        self.cr = np.array([t.cost_right for t in self.trees], dtype=np.int64)
        self.sizes = np.array([t.size for t in self.trees], dtype=np.float64)
        self.maxn = int(sizes_nodes.max()) if K else 1

    def __len__(self) -> int:
        return len(self.trees)

    def _args(self):
        return (self.lab, self.lml, self.noff, self.kr, self.koff, self.rlab, self.rlml,
                self.rkr, self.rkoff, self.cl, self.cr)


def _costs_for(pack: TreePack, costs: Optional[Costs]) -> Costs:
    if costs is not None:
        return costs
    n_labels = int(max(pack.lab.max(initial=0), pack.rlab.max(initial=0))) + 1
    return Costs.unit(n_labels)


def ted(t1: FlatTree, t2: FlatTree, costs: Optional[Costs] = None) -> float:
    """Tree edit distance between two trees (unit costs unless ``costs``)."""
    return float(pair_distances(TreePack([t1, t2]), np.array([0]), np.array([1]), costs)[0])


SERIAL_BELOW = 4096  # shorter pair lists run serially: no thread start-up, faster load


def pair_distances(pack: TreePack, i: np.ndarray, j: np.ndarray,
                   costs: Optional[Costs] = None, chunk: int = 64) -> np.ndarray:
    """TED for the listed index pairs ``(i[k], j[k])`` of ``pack``."""
    i = np.ascontiguousarray(i, dtype=np.int64)
    j = np.ascontiguousarray(j, dtype=np.int64)
    out = np.zeros(i.shape[0], dtype=np.float64)
    if i.shape[0] == 0:
        return out
    dc, ic, rm, unit = _costs_for(pack, costs).arrays()
    if i.shape[0] < SERIAL_BELOW:
        _pairs_serial(i, j, *pack._args(), dc, ic, rm, unit, pack.maxn, out)
    else:
        _pairs_kernel(i, j, *pack._args(), dc, ic, rm, unit, pack.maxn, chunk, out)
    return out


def distance_matrix(pack: TreePack, costs: Optional[Costs] = None) -> np.ndarray:
    """Symmetric K × K matrix of TED between all trees of ``pack`` (each pair once)."""
    K = len(pack)
    out = np.zeros((K, K), dtype=np.float64)
    if K < 2:
        return out
    dc, ic, rm, unit = _costs_for(pack, costs).arrays()
    _all_pairs_kernel(*pack._args(), dc, ic, rm, unit, pack.maxn, out)
    return out


def dedupe(trees: Sequence[FlatTree]) -> Tuple[List[FlatTree], np.ndarray]:
    """Distinct trees (same labelled shape and |t|) and each input's index among them."""
    index: Dict[bytes, int] = {}
    distinct: List[FlatTree] = []
    which = np.empty(len(trees), dtype=np.int64)
    for k, t in enumerate(trees):
        key = t.key()
        d = index.get(key)
        if d is None:
            d = len(distinct)
            index[key] = d
            distinct.append(t)
        which[k] = d
    return distinct, which


def pairwise(trees: Sequence[FlatTree], costs: Optional[Costs] = None) -> np.ndarray:
    """Bulk entry point: all pairwise TEDs of ``trees`` (N × N).

    Identical trees are computed once (deduplicated) and each unordered pair of
    distinct trees once.
    """
    distinct, which = dedupe(trees)
    dm = distance_matrix(TreePack(distinct), costs)
    return dm[np.ix_(which, which)]
