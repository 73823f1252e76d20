"""Zhang–Shasha tree edit distance over flat postorder arrays (docs/method.md §3).

Costs: deleting a node with label id ``a`` costs ``dcost[a]``, inserting
``icost[a]``, renaming ``a → b`` costs ``rmat[a, b]`` (or, with unit costs,
0 if ``a == b`` else 1).  The default costs are zss's ``simple_distance``
with a 0/1 label distance: every label costs 1 to insert or delete except
the empty root label (id 0), which costs 0.  Distances are float64; with
unit costs they are exact integers.

Kernels are compiled with numba (``cache=True``: the JIT cache lives on disk
beside the module, so only the first run compiles).  All work happens on
`TreePack`, a corpus of trees packed into a handful of flat arrays,
so the loop over pairs runs inside compiled code with one work buffer per
thread.  Each pair runs in whichever orientation (left- or right-path
decomposition, i.e. original or mirrored trees) the Zhang–Shasha cost
estimate prefers; both give the same distance.

The kernel (`_zs`) fills exactly the textbook's cells with the
textbook's additions, so its distances are the textbook float64 values bit
for bit; it is laid out for speed (about 1 G cells/s per core on UD English
pairs, 3× the straightforward loop): per keyroot of tree 1 one long row
sweep over the tables of all keyroots of tree 2, no branches in the inner
loops, unsigned indices, and int32 cells where the costs are small integers
(unit costs), whose sums are then exact either way.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Dict, List, Optional, Sequence, Tuple

import numpy as np
from numba import njit, prange

from synagree.base import jit as _jit
from synagree.trees.flat import FlatTree

# --------------------------------------------------------------------------
# Compiled kernels
# --------------------------------------------------------------------------

_U1 = np.uint64(1)
CHUNK_COLS = 1024  # widest row swept at once (more keyroots: several sweeps)
INT_BIG = 1 << 29  # "+inf" of int32 cells: BIG + BIG and BIG + any distance fit
_HDR = 8  # idx[0:_HDR]: sweep width and the offsets of the regions of ``cells``


@njit(cache=True, nogil=True)
def _work(maxn, dcost):
    """Work buffers for trees of at most ``maxn`` nodes: ``(cells, idx)``.

    ``cells`` (the cost dtype) holds, at offsets kept in ``idx``: tree
    distances ``td`` (maxn rows of maxn+2: the node columns, a +inf sentinel,
    a dump slot for stores that must go nowhere), forest rows ``fd`` (maxn+1
    rows of at most ``cw`` columns), delete cost per node of tree 1, insert
    cost per node of tree 2, insert cost per column of a sweep, and +inf
    (float) or `INT_BIG` (int32).  ``idx`` (uint32) holds one record
    of 4 per column of a sweep.  Two flat buffers and offsets rather than
    views: the kernels run without reference counting (``_nrt=False``).
    """
    cw = max(CHUNK_COLS, maxn + 1)
    o_fd = maxn * (maxn + 2)
    o_dc = o_fd + (maxn + 1) * cw
    o_ic = o_dc + maxn
    o_cic = o_ic + maxn
    o_big = o_cic + cw
    cells = np.empty(o_big + 1, dcost.dtype)
    cells[o_big] = 0.5
    # 0.5 reads back as 0 from integer cells
    cells[o_big] = np.inf if cells[o_big] != 0 else INT_BIG
    idx = np.empty(_HDR + 4 * cw, np.uint32)
    idx[0] = cw
    idx[1] = o_fd
    idx[2] = o_dc
    idx[3] = o_ic
    idx[4] = o_cic
    idx[5] = o_big
    return cells, idx


# _nrt=False (no reference counting in the kernel) is a numba option its stubs omit
@njit(cache=True, nogil=True, _nrt=False, inline="always")  # type: ignore[call-overload]  # _nrt
def _zs(l1, lm1, kr1, o1, n1, k1, k1e, l2, lm2, kr2, o2, n2, k2, k2e,
        dcost, icost, rmat, unit, cells, idx):
    """Zhang–Shasha distance between two trees given as postorder arrays.

    Tree 1 is nodes ``o1 .. o1+n1-1`` of ``l1`` (labels) and ``lm1``
    (leftmost leaf, tree-local), its keyroots ``kr1[k1:k1e]`` (tree-local);
    tree 2 likewise.  ``cells``/``idx`` come from `_work`.  Cells are
    float64 or, for integral unit costs, int32 (exact, so the distance is
    the same float64).

    Same recurrences and cells as the textbook loop (keyroot pair by keyroot
    pair), but for a keyroot ``i`` of tree 1 the forest tables of *all*
    keyroots of tree 2 are laid side by side and filled row by row: one long
    inner loop per row instead of one short loop per keyroot pair (short loops
    cost a mispredicted exit and their set-up each).  The order is valid
    because a cell only reads cells of its own table, tree distances of
    earlier keyroots of tree 1, and tree distances of keyroots of tree 2 to
    its left on the same row.  Column 0 of each table needs no branch: its
    insert cost and tree distance are +inf sentinels, so the recurrence
    yields fd[x-1, 0] + delete, the textbook value.  The minimum of the three
    candidates is taken in another order than the textbook's, which cannot
    change it (each candidate is the same single addition).
    """
    if n1 == 0 or n2 == 0:
        s = 0.0
        for a in range(n1):
            s += dcost[l1[o1 + a]]
        for b in range(n2):
            s += icost[l2[o2 + b]]
        return s
    # Indices are unsigned: numba then skips its negative-index wraparound
    # (several instructions per array access in the inner loop).
    cw = np.uint64(idx[0])
    FD = np.uint64(idx[1])
    DC = np.uint64(idx[2])
    IC = np.uint64(idx[3])
    CIC = np.uint64(idx[4])
    big = cells[idx[5]]
    O1 = np.uint64(o1)
    O2 = np.uint64(o2)
    N1 = np.uint64(n1)
    N2 = np.uint64(n2)
    SENT = N2  # td column holding +inf
    DUMP = N2 + _U1  # td column that takes the stores of non-tree columns
    TS = N2 + np.uint64(2)  # td row stride
    R0 = np.uint64(_HDR)  # column c's record: idx[R0 + 4c : R0 + 4c + 4]
    for a in range(N1):
        cells[DC + a] = dcost[l1[O1 + a]]
        cells[a * TS + SENT] = big
    for b in range(N2):
        cells[IC + b] = icost[l2[O2 + b]]
    jj0 = np.uint64(k2)
    K2E = np.uint64(k2e)
    while jj0 < K2E:
        # the keyroots jj0..jj1-1 of tree 2 whose tables fit in one sweep
        w = np.uint64(0)
        jj1 = jj0
        while jj1 < K2E:
            j = np.uint64(kr2[jj1])
            nj = j + np.uint64(2) - np.uint64(lm2[O2 + j])
            if w > 0 and w + nj > cw:
                break
            w += nj
            jj1 += _U1
        # Per column: (q, b, label of b, td column stored to), where q is the
        # column of fd[., lm(b) - lm(j)], b the node (SENT for column 0), and
        # the store goes to b's tree distance when lm(b) == lm(j) (b's subtree
        # is a prefix of j's forest), else to DUMP.  Row 0 is the same for
        # every keyroot of tree 1.
        c = np.uint64(0)
        for jj in range(jj0, jj1):
            j = np.uint64(kr2[jj])
            lj = np.uint64(lm2[O2 + j])
            s0 = c
            rec = R0 + c * np.uint64(4)
            idx[rec] = s0
            idx[rec + _U1] = SENT
            idx[rec + np.uint64(2)] = 0
            idx[rec + np.uint64(3)] = DUMP
            cells[CIC + c] = big
            cells[FD + c] = 0
            acc = cells[FD + c]
            c += _U1
            for b in range(lj, j + _U1):
                acc = acc + cells[IC + b]
                cells[FD + c] = acc
                lmb = np.uint64(lm2[O2 + b])
                rec = R0 + c * np.uint64(4)
                idx[rec] = s0 + lmb - lj
                idx[rec + _U1] = b
                idx[rec + np.uint64(2)] = l2[O2 + b]
                idx[rec + np.uint64(3)] = b if lmb == lj else DUMP
                cells[CIC + c] = cells[IC + b]
                c += _U1
        for ii in range(np.uint64(k1), np.uint64(k1e)):
            i = np.uint64(kr1[ii])
            li = np.uint64(lm1[O1 + i])
            for a in range(li, i + _U1):
                da = cells[DC + a]
                cur = FD + (a + _U1 - li) * w  # row x = a - li + 1
                up = cur - w
                tdr = a * TS
                lma = np.uint64(lm1[O1 + a])
                left = big
                if lma != li:
                    # forest row: every column reads an earlier tree distance
                    pr = FD + (lma - li) * w  # row p = lm(a) - li
                    for cc in range(w):
                        rec = R0 + cc * np.uint64(4)
                        r = cells[pr + idx[rec]] + cells[tdr + idx[rec + _U1]]
                        d = cells[up + cc] + da
                        d = d if d < r else r
                        ins = left + cells[CIC + cc]
                        v = d if d < ins else ins
                        cells[cur + cc] = v
                        left = v
                else:
                    # a's subtree is a prefix of the forest: on the columns
                    # whose subtree is a prefix too the trees may match (rename
                    # from the diagonal, and the result is a tree distance).
                    # Both candidates are computed and one selected: a branch
                    # per column mispredicts too often.
                    la = np.uint32(l1[O1 + a])
                    if unit:
                        for cc in range(w):
                            rec = R0 + cc * np.uint64(4)
                            wb = idx[rec + np.uint64(3)]
                            ren = rmat[0, np.uint64(la != idx[rec + np.uint64(2)])]
                            rt = cells[up + cc - _U1] + ren
                            rf = cells[FD + idx[rec]] + cells[tdr + idx[rec + _U1]]
                            r = rt if wb != DUMP else rf
                            d = cells[up + cc] + da
                            d = d if d < r else r
                            ins = left + cells[CIC + cc]
                            v = d if d < ins else ins
                            cells[cur + cc] = v
                            cells[tdr + wb] = v
                            left = v
                    else:
                        for cc in range(w):
                            rec = R0 + cc * np.uint64(4)
                            wb = idx[rec + np.uint64(3)]
                            ren = rmat[la, idx[rec + np.uint64(2)]]
                            rt = cells[up + cc - _U1] + ren
                            rf = cells[FD + idx[rec]] + cells[tdr + idx[rec + _U1]]
                            r = rt if wb != DUMP else rf
                            d = cells[up + cc] + da
                            d = d if d < r else r
                            ins = left + cells[CIC + cc]
                            v = d if d < ins else ins
                            cells[cur + cc] = v
                            cells[tdr + wb] = v
                            left = v
        jj0 = jj1
    return np.float64(cells[(N1 - _U1) * TS + N2 - _U1])


@njit(cache=True, nogil=True, _nrt=False)  # type: ignore[call-overload]  # _nrt: see _zs
def _pair(i, j, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
          dcost, icost, rmat, unit, cells, idx):
    """TED between trees ``i`` and ``j`` of a pack, in the cheaper orientation."""
    if cl[i] * cl[j] <= cr[i] * cr[j]:
        L, LM, K, KO = lab, lml, kr, koff
    else:
        L, LM, K, KO = rlab, rlml, rkr, rkoff
    return _zs(L, LM, K, noff[i], noff[i + 1] - noff[i], KO[i], KO[i + 1],
               L, LM, K, noff[j], noff[j + 1] - noff[j], KO[j], KO[j + 1],
               dcost, icost, rmat, unit, cells, idx)


@njit(cache=True, parallel=True)
def _pairs_kernel(pi, pj, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                  dcost, icost, rmat, unit, maxn, chunk, out):
    """Distances for the listed pairs, chunks of pairs spread over threads."""
    npairs = pi.shape[0]
    nchunks = (npairs + chunk - 1) // chunk
    for cc in prange(nchunks):
        c = np.int64(cc)
        cells, idx = _work(maxn, dcost)
        for k in range(c * chunk, min(npairs, (c + 1) * chunk)):
            out[k] = _pair(pi[k], pj[k], lab, lml, noff, kr, koff, rlab, rlml, rkr,
                           rkoff, cl, cr, dcost, icost, rmat, unit, cells, idx)


@njit(cache=True, nogil=True)
def _pairs_serial(pi, pj, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                  dcost, icost, rmat, unit, maxn, out):
    """Serial twin of `_pairs_kernel` for short pair lists (loads faster)."""
    cells, idx = _work(maxn, dcost)
    for k in range(pi.shape[0]):
        out[k] = _pair(pi[k], pj[k], lab, lml, noff, kr, koff, rlab, rlml, rkr,
                       rkoff, cl, cr, dcost, icost, rmat, unit, cells, idx)


@njit(cache=True, parallel=True)
def _all_pairs_kernel(lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                      dcost, icost, rmat, unit, maxn, out):
    """Upper triangle of the distance matrix; rows r and K-1-r go together
    so that every parallel task has the same amount of work."""
    K = noff.shape[0] - 1
    half = (K + 1) // 2
    for rr in prange(half):
        r = np.int64(rr)  # prange indices may be unsigned; keep row arithmetic signed
        cells, idx = _work(maxn, dcost)
        for t in range(2):
            row = r if t == 0 else K - 1 - r
            if t == 1 and row == r:
                break  # middle row of an odd K
            for j in range(row + 1, K):
                d = _pair(row, j, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff,
                          cl, cr, dcost, icost, rmat, unit, cells, idx)
                out[row, j] = d
                out[j, row] = d


# --------------------------------------------------------------------------
# Python side
# --------------------------------------------------------------------------

INT_COST_MAX = 1024  # integral unit costs up to this run on int32 cells


@dataclass
class Costs:
    """Edit costs per label id (docs/method.md §3; unit costs by default).

    Parameters
    ----------
    delete : numpy.ndarray
        float64 (L,): cost of deleting a node with label id ``a``.
    insert : numpy.ndarray
        float64 (L,): cost of inserting one.
    rename : numpy.ndarray, optional
        float64 (L, L): cost of renaming ``a → b``; None: 0 for equal labels,
        1 otherwise.

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ted(a, b), ted(a, b, Costs.unit(len(v)))
    (1.0, 1.0)
    >>> half = Costs.unit(len(v))
    >>> half.rename = np.where(np.eye(len(v)) > 0, 0.0, 0.5)
    >>> ted(a, b, half)
    0.5
    """

    delete: np.ndarray  # float64 (L,)
    insert: np.ndarray  # float64 (L,)
    rename: Optional[np.ndarray] = None  # float64 (L, L); None = 0/1 equality

    @classmethod
    def unit(cls, n_labels: int) -> "Costs":
        """Unit costs for ``n_labels`` label ids: 1 to insert or delete, 0/1 renames.

        The root's empty label (id 0) costs 0 to insert or delete, as under zss.

        Examples
        --------
        >>> c = Costs.unit(3)
        >>> c.delete.tolist(), c.insert.tolist(), c.rename is None
        ([0.0, 1.0, 1.0], [0.0, 1.0, 1.0], True)
        """
        c = np.ones(n_labels, dtype=np.float64)
        c[0] = 0.0  # the root's empty label, as zss
        return cls(c, c.copy(), None)

    def arrays(self) -> Tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
        """``(delete, insert, rename, unit)`` as the kernels take them.

        Equality renames with small integral insert/delete costs run on int32
        cells: every sum is then an exact integer both ways, so the distances
        are the float64 ones, bit for bit.  Otherwise cells are float64.  With
        ``unit``, ``rename`` is ``[[0, 1]]``: the cost of an equal / unequal pair.

        Examples
        --------
        >>> d, i, r, unit = Costs.unit(3).arrays()
        >>> d.dtype.name, r.tolist(), unit
        ('int32', [[0, 1]], True)
        """
        dc = np.ascontiguousarray(self.delete, dtype=np.float64)
        ic = np.ascontiguousarray(self.insert, dtype=np.float64)
        if self.rename is not None:
            return dc, ic, np.ascontiguousarray(self.rename, dtype=np.float64), False
        both = np.concatenate([dc, ic])
        if np.all(both == np.round(both)) and np.all(np.abs(both) <= INT_COST_MAX):
            # every cell is at most INT_COST_MAX · (n1 + n2), far below the
            # INT_BIG sentinel (2**29) for any pair whose work buffers fit in
            # memory (n1 + n2 would need 2**19 nodes)
            return (dc.astype(np.int32), ic.astype(np.int32),
                    np.array([[0, 1]], dtype=np.int32), True)
        return dc, ic, np.array([[0.0, 1.0]]), True


# the pack's arrays in the kernels' argument order; a fixed-length tuple, so that
# the typed numba dispatchers can count the arguments of ``kernel(*pack._args(), ...)``
_PackArrays = Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class TreePack:
    """A set of `FlatTree` packed into contiguous arrays for the kernels.

    Parameters
    ----------
    trees : sequence of FlatTree

    Attributes
    ----------
    trees : list of FlatTree
    sizes : numpy.ndarray
        float64: |t| of each tree.
    maxn : int
        The largest node count (sizes the work buffers).

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> pack = TreePack([a, b, c])
    >>> len(pack), pack.sizes.tolist(), pack.maxn
    (3, [4.0, 4.0, 4.0], 4)
    """

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

    def _args(self) -> _PackArrays:
        return (self.lab, self.lml, self.noff, self.kr, self.koff, self.rlab, self.rlml,
                self.rkr, self.rkoff, self.cl, self.cr)


def _costs_for(pack: TreePack, costs: Optional[Costs]) -> Costs:
    if costs is not None:
        return costs
    n_labels = int(max(pack.lab.max(initial=0), pack.rlab.max(initial=0))) + 1
    return Costs.unit(n_labels)


def ted(t1: FlatTree, t2: FlatTree, costs: Optional[Costs] = None) -> float:
    """Tree edit distance between two trees (unit costs unless ``costs``).

    Zhang–Shasha (docs/method.md §3.1): with unit costs every non-root node
    costs 1 to insert, delete or relabel; the result equals
    ``zss.simple_distance`` on the same trees.

    Parameters
    ----------
    t1, t2 : FlatTree
        Trees whose label ids come from one `Vocabulary`.
    costs : Costs, optional
        None: unit costs.

    Returns
    -------
    float

    See Also
    --------
    pair_distances, pairwise

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> ted(a, b), ted(a, c), ted(c, c)
    (1.0, 3.0, 0.0)
    """
    return float(pair_distances(TreePack([t1, t2]), np.array([0]), np.array([1]), costs)[0])


SERIAL_BELOW = 4096  # shorter pair lists run serially: no thread start-up, faster load


def pair_distances(pack: TreePack, i: np.ndarray, j: np.ndarray,
                   costs: Optional[Costs] = None, chunk: int = 64) -> np.ndarray:
    """TED for the listed index pairs ``(i[k], j[k])`` of ``pack``.

    Short lists run serially, longer ones in parallel chunks.

    Parameters
    ----------
    pack : TreePack
    i, j : numpy.ndarray
        Tree indices into ``pack``, of equal length.
    costs : Costs, optional
        None: unit costs.
    chunk : int
        Pairs per parallel task.

    Returns
    -------
    numpy.ndarray
        float64, one distance per pair.

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> pair_distances(TreePack([a, b, c]), np.array([0, 0, 1]), np.array([1, 2, 2])).tolist()
    [1.0, 3.0, 3.0]
    """
    i = np.ascontiguousarray(i, dtype=np.int64)
    j = np.ascontiguousarray(j, dtype=np.int64)
    out = np.zeros(i.shape[0], dtype=np.float64)
    if i.shape[0] == 0:
        return out
    dc, ic, rm, unit = _costs_for(pack, costs).arrays()
    if i.shape[0] < SERIAL_BELOW:
        serial_args = (i, j, *pack._args(), dc, ic, rm, unit, pack.maxn, out)
        _jit.before_call(_pairs_serial, serial_args)
        _pairs_serial(*serial_args)
    else:
        args = (i, j, *pack._args(), dc, ic, rm, unit, pack.maxn, chunk, out)
        _jit.before_call(_pairs_kernel, args)
        _pairs_kernel(*args)
    return out


def distance_matrix(pack: TreePack, costs: Optional[Costs] = None) -> np.ndarray:
    """Symmetric K × K matrix of TED between all trees of ``pack`` (each pair once).

    Parameters
    ----------
    pack : TreePack
    costs : Costs, optional
        None: unit costs.

    Returns
    -------
    numpy.ndarray
        float64 (K, K), zero diagonal.

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> distance_matrix(TreePack([a, b, c])).tolist()
    [[0.0, 1.0, 3.0], [1.0, 0.0, 3.0], [3.0, 3.0, 0.0]]
    """
    K = len(pack)
    out = np.zeros((K, K), dtype=np.float64)
    if K < 2:
        return out
    dc, ic, rm, unit = _costs_for(pack, costs).arrays()
    args = (*pack._args(), dc, ic, rm, unit, pack.maxn, out)
    _jit.before_call(_all_pairs_kernel, args)
    _all_pairs_kernel(*args)
    return out


def dedupe(trees: Sequence[FlatTree]) -> Tuple[List[FlatTree], np.ndarray]:
    """Distinct trees (same labelled shape and |t|) and each input's index among them.

    Parameters
    ----------
    trees : sequence of FlatTree

    Returns
    -------
    distinct : list of FlatTree
        In order of first occurrence.
    which : numpy.ndarray
        int64: the index into ``distinct`` of each input tree.

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> distinct, which = dedupe([a, c, tree([2, 0, 2], ["nsubj", "root", "obj"])])
    >>> len(distinct), which.tolist()
    (2, [0, 1, 0])
    """
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

    Parameters
    ----------
    trees : sequence of FlatTree
    costs : Costs, optional
        None: unit costs.

    Returns
    -------
    numpy.ndarray
        float64 (N, N), symmetric.

    Examples
    --------
    >>> import numpy as np
    >>> from synagree.io.conllu import DepSentence
    >>> from synagree.trees.flat import Vocabulary, dependency_tree
    >>> v = Vocabulary()
    >>> def tree(heads, rels):
    ...     s = DepSentence("-", 0, 1, ["w"] * len(heads), np.array(heads), rels)
    ...     return dependency_tree(s, v)
    >>> a = tree([2, 0, 2], ["nsubj", "root", "obj"])
    >>> b = tree([2, 0, 2], ["nsubj", "root", "iobj"])
    >>> c = tree([0, 1, 2], ["root", "dep", "dep"])
    >>> pairwise([a, c, a]).tolist()
    [[0.0, 3.0, 0.0], [3.0, 0.0, 3.0], [0.0, 3.0, 0.0]]
    """
    distinct, which = dedupe(trees)
    dm = distance_matrix(TreePack(distinct), costs)
    return dm[np.ix_(which, which)]
