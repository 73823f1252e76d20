/* The Zhang-Shasha kernel for one cell type, included twice by _tedc.c:
 * with CELL = int32_t (integral unit costs) and CELL = double (any costs).
 * ZS names the function.  See _tedc.c for the layout and docs/method.md §3.
 *
 * Line for line the numba kernel `_zs` of synagree/distance/kernels_numba.py:
 * the same cells, the same additions in the same order, the same minima, so
 * the float64 distances are equal bit for bit.
 */
static double ZS(const int32_t *L1, const int32_t *LM1, const int32_t *kr1, size_t n1,
                 int64_t k1, int64_t k1e,
                 const int32_t *L2, const int32_t *LM2, const int32_t *kr2, size_t n2,
                 int64_t k2, int64_t k2e,
                 const CELL *dcost, const CELL *icost, const CELL *rmat, size_t rstride,
                 int unit, Work *wk)
{
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
    const CELL big = (CELL)BIG;
    const size_t SENT = n2, DUMP = n2 + 1, TS = n2 + 2;
    for (size_t a = 0; a < n1; a++) {
        dc[a] = dcost[L1[a]];
        td[a * TS + SENT] = big;
    }
    for (size_t b = 0; b < n2; b++) ic[b] = icost[L2[b]];
    size_t jj0 = (size_t)k2;
    const size_t K2E = (size_t)k2e;
    while (jj0 < K2E) {
        /* the keyroots jj0..jj1-1 of tree 2 whose tables fit in one sweep */
        size_t w = 0, jj1 = jj0;
        while (jj1 < K2E) {
            size_t j = (size_t)kr2[jj1];
            size_t nj = j + 2 - (size_t)LM2[j];
            if (w > 0 && w + nj > cw) break;
            w += nj;
            jj1++;
        }
        size_t c = 0;
        for (size_t jj = jj0; jj < jj1; jj++) {
            size_t j = (size_t)kr2[jj], lj = (size_t)LM2[j], s0 = c;
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
        for (int64_t ii = k1; ii < k1e; ii++) {
            size_t i = (size_t)kr1[ii], li = (size_t)LM1[i];
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
                    /* a's subtree is a prefix of the forest: rename from the
                       diagonal where column b's subtree is a prefix too, and
                       the result is a tree distance (stored at q[3]) */
                    const uint32_t la = (uint32_t)L1[a];
                    if (unit) {
                        for (size_t cc = 0; cc < w; cc++) {
                            const uint32_t *q = rec + 4 * cc;
                            uint32_t wb = q[3];
                            CELL ren = rmat[la != q[2]];
                            CELL rt = up[(ptrdiff_t)cc - 1] + ren;
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
                    } else {
                        const CELL *rrow = rmat + (size_t)la * rstride;
                        for (size_t cc = 0; cc < w; cc++) {
                            const uint32_t *q = rec + 4 * cc;
                            uint32_t wb = q[3];
                            CELL ren = rrow[q[2]];
                            CELL rt = up[(ptrdiff_t)cc - 1] + ren;
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
                }
            }
        }
        jj0 = jj1;
    }
    return (double)td[(n1 - 1) * TS + n2 - 1];
}
