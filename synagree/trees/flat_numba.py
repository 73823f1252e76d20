"""The numba twin of the C kernels of synagree/trees/_flatc.c.

Used when the optional C extension ``synagree.trees._flatc`` is not built,
or when ``SYNAGREE_KERNELS=numba`` asks for it (`synagree.base.native`).
`synagree.trees.flat` imports this module only then, so that numba's
~0.5 s import is not paid otherwise.  Both kernels do the same walk and the
same integer arithmetic and give identical arrays.
"""
from __future__ import annotations

import numpy as np

from synagree.base.numba_compat import njit


@njit(cache=True, nogil=True)
def _dependency_arrays(heads, hoff, labs, lab, lml, rlab, rlml, kr, rkr, info):
    """`synagree.trees.flat.flat_tree`'s arrays for many dependency trees at once.

    Sentence s has words ``hoff[s] .. hoff[s+1]-1`` with 1-based ``heads``
    (0 = the root); its n + 1 node label ids (the root's first) start at
    ``o = hoff[s] + s`` in ``labs``.  Its node arrays are written at ``o`` in
    ``lab``/``lml``/``rlab``/``rlml``, its keyroots at ``o`` in ``kr``/``rkr``;
    ``info[s]`` = (nodes, keyroots, mirrored keyroots, cost left, cost right).
    The same walk and arithmetic as `synagree.trees.flat.flat_tree`
    (children by word id; words not reachable from the root are no nodes),
    and as ``dependency_arrays`` of synagree/trees/_flatc.c.
    """
    S = hoff.shape[0] - 1
    maxn = 1
    for s in range(S):
        maxn = max(maxn, hoff[s + 1] - hoff[s] + 1)
    cnt = np.zeros(maxn + 1, np.int64)
    start = np.zeros(maxn + 1, np.int64)
    fill = np.zeros(maxn + 1, np.int64)
    child = np.zeros(maxn, np.int64)
    pre = np.zeros(maxn, np.int64)
    dep = np.zeros(maxn, np.int64)
    par = np.zeros(maxn, np.int64)
    edge = np.zeros(maxn, np.int64)
    sz = np.zeros(maxn, np.int64)
    st_v = np.zeros(maxn, np.int64)
    st_d = np.zeros(maxn, np.int64)
    st_p = np.zeros(maxn, np.int64)
    st_e = np.zeros(maxn, np.int64)
    kflag = np.zeros(maxn, np.bool_)
    rflag = np.zeros(maxn, np.bool_)
    for s in range(S):
        w0 = hoff[s]
        n = hoff[s + 1] - w0
        o = w0 + s
        # children of each node, by word id
        for v in range(n + 1):
            cnt[v] = 0
        for i in range(1, n + 1):
            h = heads[w0 + i - 1]
            if 0 <= h <= n:
                cnt[h] += 1
        start[0] = 0
        for v in range(n):
            start[v + 1] = start[v] + cnt[v]
        for v in range(n + 1):
            fill[v] = start[v]
        for i in range(1, n + 1):
            h = heads[w0 + i - 1]
            if 0 <= h <= n:
                child[fill[h]] = i
                fill[h] += 1
        # depth-first walk from the root: preorder, depth, parent, first/last child
        st_v[0] = 0
        st_d[0] = 0
        st_p[0] = -1
        st_e[0] = 3
        top = 1  # entries on the stack
        m = 0  # nodes placed in preorder
        while top > 0:
            top -= 1
            v = st_v[top]
            d = st_d[top]
            pre[m] = v
            dep[m] = d
            par[m] = st_p[top]
            edge[m] = st_e[top]
            k = cnt[v]
            b = start[v]
            if k > 0:
                st_v[top] = child[b + k - 1]
                st_d[top] = d + 1
                st_p[top] = m
                st_e[top] = 2 if k > 1 else 3
                top += 1
                for c in range(k - 2, 0, -1):
                    st_v[top] = child[b + c]
                    st_d[top] = d + 1
                    st_p[top] = m
                    st_e[top] = 0
                    top += 1
                if k > 1:
                    st_v[top] = child[b]
                    st_d[top] = d + 1
                    st_p[top] = m
                    st_e[top] = 1
                    top += 1
            m += 1
        for q in range(m):
            sz[q] = 1
        for q in range(m - 1, 0, -1):
            sz[par[q]] += sz[q]
        cost_l = 0
        cost_r = 0
        for q in range(m):
            kflag[q] = False
            rflag[q] = False
        for q in range(m):
            sq = sz[q]
            kp = q - dep[q] + sq - 1
            r = m - 1 - q
            lb = labs[o + pre[q]]
            lab[o + kp] = lb
            lml[o + kp] = kp - sq + 1
            rlab[o + r] = lb
            rlml[o + r] = r - sq + 1
            e = edge[q] if q > 0 else 0
            if (e & 1) == 0:
                kflag[kp] = True
                cost_l += sq
            if (e & 2) == 0:
                rflag[r] = True
                cost_r += sq
        nk = 0
        nr = 0
        for q in range(m):
            if kflag[q]:
                kr[o + nk] = q
                nk += 1
            if rflag[q]:
                rkr[o + nr] = q
                nr += 1
        info[s, 0] = m
        info[s, 1] = nk
        info[s, 2] = nr
        info[s, 3] = cost_l
        info[s, 4] = cost_r
