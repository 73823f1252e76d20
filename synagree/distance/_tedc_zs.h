/* The Zhang-Shasha kernel for one cell type, included twice by _tedc.c:
 * with CELL = int32_t (integral unit costs) and CELL = double (any costs).
 * ZS, PREFIX_ROW, LEAF_FILL and LEAF_FILL_PLAIN name its functions;
 * LEAF_SHORTCUT is 1 for int32 cells.  See _tedc.c
 * for the layout and docs/method.md §3.
 *
 * Line for line the numba kernel `_zs` of synagree/distance/kernels_numba.py:
 * the same cells, the same additions in the same order, the same minima, so
 * the float64 distances are equal bit for bit.  One exception, int32 cells
 * only: the table of a keyroot that is a leaf (two columns of tree 2, or one
 * row of tree 1: about 40% of the cells on UD English pairs) is replaced by
 * a closed form of the same tree distances (LEAF_FILL below).  With integer
 * costs every distance is an exact integer, so the results are still equal.
 */

#if LEAF_SHORTCUT
/* Tree distances between the subtree of every node x of a tree X (postorder
 * labels LX, leftmost leaves LMX, nx nodes) and one single node y: the
 * cheapest script deletes all of x's subtree but one node t and renames t
 * to y, or deletes it all and inserts y:
 *
 *     td(x, y) = D(x) + min(cost_y, min over t in sub(x) of (ren(t, y) - cost(t)))
 *
 * with cost(t) = cost_x[t] (X's delete costs when X is tree 1, its insert
 * costs when X is tree 2), cost_y the other operation's cost of y, D(x) the
 * sum of cost over sub(x) (prefix sums P: D(x) = P[x+1] - P[LMX[x]]), and
 * unit renames ren = rmat[labels differ].  Writes out[x * stride]; m is
 * scratch (the inner minimum per node, children before parents). */
static void LEAF_FILL(const int32_t *LX, const int32_t *LMX, size_t nx, const CELL *cost_x,
                      const CELL *P, CELL cost_y, int32_t ly, const CELL *rmat, CELL *m,
                      CELL *out, size_t stride)
{
    for (size_t x = 0; x < nx; x++) {
        CELL mm = rmat[LX[x] != ly] - cost_x[x];
        /* children of x in postorder: x-1, then each previous sibling ends
           just before the leftmost leaf of the one after it */
        for (int64_t c = (int64_t)x - 1; c >= (int64_t)LMX[x]; c = (int64_t)LMX[c] - 1)
            mm = m[c] < mm ? m[c] : mm;
        m[x] = mm;
        CELL best = cost_y < mm ? cost_y : mm;
        out[x * stride] = (P[x + 1] - P[LMX[x]]) + best;
    }
}

/* LEAF_FILL for plain unit costs (every label costs 1 to insert or delete,
 * label 0 costs 0, renames 0/1), in a few operations per node.  With c(l)
 * that cost and y's label not 0, ren(t, y) - c(t) is -1 where t has y's
 * label, 1 where t has label 0, and 0 elsewhere (a leaf of label 0 is
 * handled by the caller); so
 *
 *     td(x, y) = base(x) - [sub(x) holds y's label]
 *     base(x)  = D(x) + (1 if sub(x) holds only label-0 nodes else 0)
 *
 * and the label test is whether the last node with y's label up to x is
 * inside [LMX[x], x].  LEAF_BASE_PLAIN fills base (Z: scratch for prefix
 * counts of label-0 nodes); LEAF_FILL_PLAIN one node y of label ly != 0. */
static void LEAF_BASE_PLAIN(const int32_t *LX, const int32_t *LMX, size_t nx, CELL *Z,
                            CELL *base)
{
    Z[0] = 0;
    for (size_t x = 0; x < nx; x++) Z[x + 1] = Z[x] + (LX[x] == 0);
    for (size_t x = 0; x < nx; x++) {
        const CELL size = (CELL)(x + 1 - (size_t)LMX[x]);
        const CELL zeros = Z[x + 1] - Z[LMX[x]];
        base[x] = size - zeros + (zeros == size);
    }
}

static void LEAF_FILL_PLAIN(const int32_t *LX, const int32_t *LMX, size_t nx,
                            const CELL *base, int32_t ly, CELL *out, size_t stride)
{
    int64_t last = -1;
    for (size_t x = 0; x < nx; x++) {
        last = LX[x] == ly ? (int64_t)x : last;
        out[x * stride] = base[x] - (last >= (int64_t)LMX[x]);
    }
}

/* Every leaf keyroot y of tree Y (keyroots kry[k:ke]) against the subtree
 * of every node x of tree X, into td[x * along + y * across].  General
 * costs: P holds prefix sums of cost_x, m is scratch (LEAF_FILL).  Plain
 * unit costs: P holds prefix counts of label-0 nodes and m the base of
 * LEAF_BASE_PLAIN; a leaf of label 0 (free to insert or delete, and renamed
 * to any other label at cost 1) is at distance D(x), the number of
 * other-label nodes of sub(x). */
/* always inlined, as GCC chose before the SIMD kernel had three widths (its
   calls in them tip GCC's inlining budget, and the scalar kernel slowed) */
static inline __attribute__((always_inline)) void
LEAF_FILLS(const int32_t *LX, const int32_t *LMX, size_t nx, const CELL *cost_x,
                       const int32_t *LY, const int32_t *LMY, const int32_t *kry, int64_t k,
                       int64_t ke, const CELL *cost_y, int plain, const CELL *rmat, CELL *P,
                       CELL *m, CELL *td, size_t along, size_t across)
{
    if (plain) LEAF_BASE_PLAIN(LX, LMX, nx, P, m);
    else {
        P[0] = 0;
        for (size_t x = 0; x < nx; x++) P[x + 1] = P[x] + cost_x[x];
    }
    for (int64_t kk = k; kk < ke; kk++) {
        const size_t y = (size_t)kry[kk];
        if ((size_t)LMY[y] != y) continue;
        CELL *out = td + y * across;
        if (!plain)
            LEAF_FILL(LX, LMX, nx, cost_x, P, cost_y[y], LY[y], rmat, m, out, along);
        else if (LY[y] != 0)
            LEAF_FILL_PLAIN(LX, LMX, nx, m, LY[y], out, along);
        else
            for (size_t x = 0; x < nx; x++)
                out[x * along] = (CELL)(x + 1 - (size_t)LMX[x]) - (P[x + 1] - P[LMX[x]]);
    }
}
#endif

/* One row of a node a whose subtree is a prefix of its keyroot's forest:
 * on the columns whose subtree is a prefix too the trees may match (rename
 * from the diagonal, and the result is a tree distance, stored at q[3]);
 * both candidates are computed and one selected, as a branch per column
 * mispredicts too often.  `unit`: renames cost ren[la != label of b], else
 * ren[label of b] (ren: la's row of the matrix).  Inlined with `unit` a
 * constant at each call, so the compiler makes one loop of each kind. */
static inline __attribute__((always_inline)) void
PREFIX_ROW(size_t w, const uint32_t *rec, const CELL *fd, const CELL *up, CELL *restrict cur,
           CELL *tdr, const CELL *cic, CELL da, CELL left, const CELL *ren, uint32_t la,
           int unit, size_t DUMP)
{
    for (size_t cc = 0; cc < w; cc++) {
        const uint32_t *q = rec + 4 * cc;
        uint32_t wb = q[3];
        CELL rt = up[(ptrdiff_t)cc - 1] + (unit ? ren[la != q[2]] : ren[q[2]]);
        CELL rf = fd[q[0]] + tdr[q[1]];
        CELL rr = wb != DUMP ? rt : rf;
        CELL d = up[cc] + da;
        d = d < rr ? d : rr;
        CELL ins = left + cic[cc];
        CELL v = d < ins ? d : ins;
        cur[cc] = v;
        tdr[wb] = v;
        left = v;
    }
}

static double ZS(const int32_t *L1, const int32_t *LM1, const int32_t *kr1, size_t n1,
                 int64_t k1, int64_t k1e,
                 const int32_t *L2, const int32_t *LM2, const int32_t *kr2, size_t n2,
                 int64_t k2, int64_t k2e,
                 const CELL *dcost, const CELL *icost, const CELL *rmat, size_t rstride,
                 int unit, int plain, Work *wk)
{
    (void)plain;  /* used by the int32 instantiation only */
    if (n1 == 0 || n2 == 0) {
        double s = 0.0;
        for (size_t a = 0; a < n1; a++) s += (double)dcost[L1[a]];
        for (size_t b = 0; b < n2; b++) s += (double)icost[L2[b]];
        return s;
    }
    const size_t maxn = wk->maxn, cw = wk->cw;
    CELL *td = (CELL *)wk->cells;             /* maxn rows of TS = n2 + 2 */
    CELL *fd = td + maxn * (maxn + 2);        /* maxn + 1 rows of w <= cw */
    CELL *dc = fd + (maxn + 1) * cw;          /* delete cost per node of tree 1 */
    CELL *ic = dc + maxn;                     /* insert cost per node of tree 2 */
    CELL *cic = ic + maxn;                    /* insert cost per column of a sweep */
    uint32_t *rec = wk->rec;                  /* 4 per column: q, b, label of b, store */
#if LEAF_SHORTCUT
    CELL *P = cic + cw;                       /* prefix sums of a tree's costs */
    CELL *m = P + maxn + 1;                   /* LEAF_FILL's scratch */
#endif
    const CELL big = (CELL)BIG;
    const size_t SENT = n2, DUMP = n2 + 1, TS = n2 + 2;
    for (size_t a = 0; a < n1; a++) {
        dc[a] = dcost[L1[a]];
        td[a * TS + SENT] = big;
    }
    for (size_t b = 0; b < n2; b++) ic[b] = icost[L2[b]];
#if LEAF_SHORTCUT
    /* the tree distances the tables of leaf keyroots would give (LEAF_FILLS):
       the leaves of tree 2 against every subtree of tree 1 (columns of td),
       then the leaves of tree 1 against every subtree of tree 2 (rows) */
    LEAF_FILLS(L1, LM1, n1, dc, L2, LM2, kr2, k2, k2e, ic, plain, rmat, P, m, td, TS, 1);
    LEAF_FILLS(L2, LM2, n2, ic, L1, LM1, kr1, k1, k1e, dc, plain, rmat, P, m, td, 1, TS);
#endif
    size_t jj0 = (size_t)k2;
    const size_t K2E = (size_t)k2e;
    while (jj0 < K2E) {
        /* the keyroots jj0..jj1-1 of tree 2 whose tables fit in one sweep */
        size_t w = 0, jj1 = jj0;
        while (jj1 < K2E) {
            size_t j = (size_t)kr2[jj1];
#if LEAF_SHORTCUT
            if ((size_t)LM2[j] == j) { jj1++; continue; }   /* filled above */
#endif
            size_t nj = j + 2 - (size_t)LM2[j];
            if (w > 0 && w + nj > cw) break;
            w += nj;
            jj1++;
        }
        size_t c = 0;
        for (size_t jj = jj0; jj < jj1; jj++) {
            size_t j = (size_t)kr2[jj], lj = (size_t)LM2[j], s0 = c;
#if LEAF_SHORTCUT
            if (lj == j) continue;
#endif
            uint32_t *r = rec + 4 * c;
            r[0] = (uint32_t)s0;
            r[1] = (uint32_t)SENT;
            r[2] = 0;
            r[3] = (uint32_t)DUMP;
            cic[c] = big;
            fd[c] = 0;
            CELL acc = fd[c];
            c++;
            for (size_t b = lj; b <= j; b++) {
                acc = acc + ic[b];
                fd[c] = acc;
                size_t lmb = (size_t)LM2[b];
                r = rec + 4 * c;
                r[0] = (uint32_t)(s0 + lmb - lj);
                r[1] = (uint32_t)b;
                r[2] = (uint32_t)L2[b];
                r[3] = (uint32_t)(lmb == lj ? b : DUMP);
                cic[c] = ic[b];
                c++;
            }
        }
        for (int64_t ii = k1; ii < (w ? k1e : k1); ii++) {
            size_t i = (size_t)kr1[ii], li = (size_t)LM1[i];
#if LEAF_SHORTCUT
            if (li == i) continue;   /* filled above */
#endif
            for (size_t a = li; a <= i; a++) {
                const CELL da = dc[a];
                CELL *restrict cur = fd + (a + 1 - li) * w;   /* row x = a - li + 1 */
                const CELL *up = cur - w;
                CELL *tdr = td + a * TS;
                size_t lma = (size_t)LM1[a];
                CELL left = big;
                if (lma != li) {
                    /* forest row: every column reads an earlier tree distance */
                    const CELL *pr = fd + (lma - li) * w;
                    for (size_t cc = 0; cc < w; cc++) {
                        const uint32_t *q = rec + 4 * cc;
                        CELL rr = pr[q[0]] + tdr[q[1]];
                        CELL d = up[cc] + da;
                        d = d < rr ? d : rr;
                        CELL ins = left + cic[cc];
                        CELL v = d < ins ? d : ins;
                        cur[cc] = v;
                        left = v;
                    }
                } else {
                    /* a's subtree is a prefix of the forest (PREFIX_ROW) */
                    const uint32_t la = (uint32_t)L1[a];
                    if (unit)
                        PREFIX_ROW(w, rec, fd, up, cur, tdr, cic, da, big, rmat, la, 1, DUMP);
                    else
                        PREFIX_ROW(w, rec, fd, up, cur, tdr, cic, da, big,
                                   rmat + (size_t)la * rstride, la, 0, DUMP);
                }
            }
        }
        jj0 = jj1;
    }
    return (double)td[(n1 - 1) * TS + n2 - 1];
}
