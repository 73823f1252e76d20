"""The tree-edit-distance kernels compiled by numba (docs/method.md §3-§4).

The twin of the C extension ``synagree.distance._tedc``: the same cells,
the same additions in the same order and the same reductions, so both give
bit-identical distances and sums.  `synagree.distance.kernels` runs these
when the C extension is not built (no C compiler at install time) or when
``SYNAGREE_KERNELS=numba`` asks for them; it imports this module only then,
so that a run on the C kernels never pays numba's import and start-up.

Kernels are compiled with ``cache=True``: the machine code lives on disk
beside the module, so only the first run compiles (`synagree.base.jit` says
so on stderr).

The kernel (`_zs`) fills exactly the textbook's cells with the textbook's
additions, so its distances are the textbook float64 values bit for bit; it
is laid out for speed (3× the straightforward loop): per keyroot of tree 1
one long row sweep over the tables of all keyroots of tree 2, no branches in
the inner loops, unsigned indices, and int32 cells where the costs are small
integers (unit costs), whose sums are then exact either way.
"""
from __future__ import annotations

import numpy as np

from synagree.base.numba_compat import AVAILABLE as _NUMBA
from synagree.base.numba_compat import njit, prange

# Unsigned indices for numba (see _zs); as plain Python (numba not installed) Python ints,
# since NumPy 1.x turns uint64 + int into float64.  The indices never go below 0.
U64 = np.uint64 if _NUMBA else int

_U1 = U64(1)
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
    cw = U64(idx[0])
    FD = U64(idx[1])
    DC = U64(idx[2])
    IC = U64(idx[3])
    CIC = U64(idx[4])
    big = cells[idx[5]]
    O1 = U64(o1)
    O2 = U64(o2)
    N1 = U64(n1)
    N2 = U64(n2)
    SENT = N2  # td column holding +inf
    DUMP = N2 + _U1  # td column that takes the stores of non-tree columns
    TS = N2 + U64(2)  # td row stride
    R0 = U64(_HDR)  # column c's record: idx[R0 + 4c : R0 + 4c + 4]
    for a in range(N1):
        cells[DC + a] = dcost[l1[O1 + a]]
        cells[a * TS + SENT] = big
    for b in range(N2):
        cells[IC + b] = icost[l2[O2 + b]]
    jj0 = U64(k2)
    K2E = U64(k2e)
    while jj0 < K2E:
        # the keyroots jj0..jj1-1 of tree 2 whose tables fit in one sweep
        w = U64(0)
        jj1 = jj0
        while jj1 < K2E:
            j = U64(kr2[jj1])
            nj = j + U64(2) - U64(lm2[O2 + j])
            if w > 0 and w + nj > cw:
                break
            w += nj
            jj1 += _U1
        # Per column: (q, b, label of b, td column stored to), where q is the
        # column of fd[., lm(b) - lm(j)], b the node (SENT for column 0), and
        # the store goes to b's tree distance when lm(b) == lm(j) (b's subtree
        # is a prefix of j's forest), else to DUMP.  Row 0 is the same for
        # every keyroot of tree 1.
        c = U64(0)
        for jj in range(jj0, jj1):
            j = U64(kr2[jj])
            lj = U64(lm2[O2 + j])
            s0 = c
            rec = R0 + c * U64(4)
            idx[rec] = s0
            idx[rec + _U1] = SENT
            idx[rec + U64(2)] = 0
            idx[rec + U64(3)] = DUMP
            cells[CIC + c] = big
            cells[FD + c] = 0
            acc = cells[FD + c]
            c += _U1
            for b in range(lj, j + _U1):
                acc = acc + cells[IC + b]
                cells[FD + c] = acc
                lmb = U64(lm2[O2 + b])
                rec = R0 + c * U64(4)
                idx[rec] = s0 + lmb - lj
                idx[rec + _U1] = b
                idx[rec + U64(2)] = l2[O2 + b]
                idx[rec + U64(3)] = b if lmb == lj else DUMP
                cells[CIC + c] = cells[IC + b]
                c += _U1
        for ii in range(U64(k1), U64(k1e)):
            i = U64(kr1[ii])
            li = U64(lm1[O1 + i])
            for a in range(li, i + _U1):
                da = cells[DC + a]
                cur = FD + (a + _U1 - li) * w  # row x = a - li + 1
                up = cur - w
                tdr = a * TS
                lma = U64(lm1[O1 + a])
                left = big
                if lma != li:
                    # forest row: every column reads an earlier tree distance
                    pr = FD + (lma - li) * w  # row p = lm(a) - li
                    for cc in range(w):
                        rec = R0 + cc * U64(4)
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
                            rec = R0 + cc * U64(4)
                            wb = idx[rec + U64(3)]
                            ren = rmat[0, U64(la != idx[rec + U64(2)])]
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
                            rec = R0 + cc * U64(4)
                            wb = idx[rec + U64(3)]
                            ren = rmat[la, idx[rec + U64(2)]]
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


@njit(cache=True, nogil=True)
def _d2(d, sa, sb, out):
    out[0] = d * d
    e = d - abs(sa - sb)
    out[1] = e * e
    f = d / (sa + sb)
    out[2] = f * f


@njit(cache=True, parallel=True)
def _tile_kernel(lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,
                 dcost, icost, rmat, unit, maxn,
                 uoff, utree, ucount, sizes,
                 r0, r1, c0, c1, want_s, s_out, row_out, diag_out, woff, within_out):
    """One tile pair: units [r0, r1) × [c0, c1).  A diagonal tile (r0 == c0)
    covers v ≥ u only; rows r and n-1-r go together for balance.  The TEDs
    of the distinct-tree pairs inside a unit u (computed here for D_e anyway)
    go to ``within_out[woff[u]:woff[u+1]]`` in CSR pair order, so D_o needs
    no second kernel."""
    nr = r1 - r0
    is_diag = r0 == c0
    ntask = (nr + 1) // 2 if is_diag else nr
    for tt in prange(ntask):
        t = np.int64(tt)
        cells, idx = _work(maxn, dcost)
        tmp = np.empty(3, dtype=np.float64)
        for half in range(2):
            if half == 1 and not is_diag:
                break
            ri = t if half == 0 else nr - 1 - t
            if half == 1 and ri == t:
                break
            u = r0 + ri
            acc0 = 0.0
            acc1 = 0.0
            acc2 = 0.0
            vstart = u if is_diag else c0
            for v in range(vstart, c1):
                s0 = 0.0
                s1 = 0.0
                s2 = 0.0
                wk = woff[u]
                for a in range(uoff[u], uoff[u + 1]):
                    ta = utree[a]
                    ca = ucount[a]
                    bstart = uoff[v]
                    if v == u:
                        bstart = a + 1  # unordered distinct-tree pairs in u
                    for b in range(bstart, uoff[v + 1]):
                        tb = utree[b]
                        if ta == tb:
                            continue
                        d = _pair(ta, tb, lab, lml, noff, kr, koff, rlab, rlml,
                                       rkr, rkoff, cl, cr, dcost, icost, rmat, unit,
                                       cells, idx)
                        if v == u:
                            within_out[wk] = d
                            wk += 1
                        _d2(d, sizes[ta], sizes[tb], tmp)
                        w = ca * ucount[b]
                        s0 += w * tmp[0]
                        s1 += w * tmp[1]
                        s2 += w * tmp[2]
                if v == u:
                    # ordered pairs i≠j within the unit
                    diag_out[ri, 0] = 2.0 * s0
                    diag_out[ri, 1] = 2.0 * s1
                    diag_out[ri, 2] = 2.0 * s2
                    if want_s:
                        s_out[ri, v - c0, 0] = 2.0 * s0
                        s_out[ri, v - c0, 1] = 2.0 * s1
                        s_out[ri, v - c0, 2] = 2.0 * s2
                else:
                    acc0 += s0
                    acc1 += s1
                    acc2 += s2
                    if want_s:
                        s_out[ri, v - c0, 0] = s0
                        s_out[ri, v - c0, 1] = s1
                        s_out[ri, v - c0, 2] = s2
            row_out[ri, 0] = acc0
            row_out[ri, 1] = acc1
            row_out[ri, 2] = acc2
