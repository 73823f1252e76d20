/* The inter-pair SIMD kernel's body, width-generic: included by
 * _tedc_simd.h once per instruction set, with
 *   X(name)      name with the set's suffix
 *   TARGET_ATTR  its __attribute__((target(...)))
 *   VL           int32 lanes (4, 8, 16); VI the vector type, VM the mask
 *                type (a vector of -1/0 on SSE4.1 and AVX2, __mmask16 on
 *                AVX-512F)
 *   V_SET1 V_LOAD V_LOADU V_STORE V_ADD V_SUB V_MIN   vectors
 *   V_EQ V_GT (-> VM) M_OR V_MASK (a vector of -1/0 -> VM)
 *   V_SEL(a, b, m)    b where m, else a
 *   V_DEC(v, m) / V_INC(v, m)   v - 1 / v + 1 where m
 *   VC, VCM: the type the CAT selects work in (float vectors on SSE4.1 and
 *   AVX2, whose blendv_ps reads each lane's sign bit), and their mask:
 *   C_FROM(v) / C_TO(c) the casts, C_MASK(cat, k) the mask of bit k of cat,
 *   C_SEL(a, b, m) b where m, else a
 *   V_LANES(t, q)     the vector (t[q[0]], ..., t[q[VL - 1]])
 * The arithmetic is the same in every instantiation (exact int32 cells),
 * so each width gives the scalar kernel's distances. */

/* One cell vector: min(up + da, rr, left + insert cost), as the scalar
   kernel's cell (delete, rename or match, insert) */
TARGET_ATTR __attribute__((always_inline)) static inline VI
X(zs_cell)(const int32_t *up, VI vda, VI rr, VI left, const int32_t *cic)
{
    VI d = V_MIN(
        V_ADD(V_LOAD(up), vda), rr);
    VI ins = V_ADD(left, V_LOAD(cic));
    return V_MIN(d, ins);
}

/* The sweep of every row: W columns of VL lanes.  fd rows of W vectors;
   Q1: the index (column * VL + lane) in the row of tdc where the tree
   distance of each cell's node is (prefix rows); LB: label of the column's
   node; M: -1 where the column is on the left path of its keyroot (a prefix
   row stores a tree distance there); CIC: insert cost of the column; CAT,
   PL, patch: how a forest row reads fd at the column before the subtree of
   each cell's node (below); tdc: n1 rows of T vectors.

   No AVX2 gathers: on Zen 3 one costs more than the loads and blends that
   replace it (benchmarks/README.md, issue 36); V_LANES is the set's
   lane-by-lane read (a gather on AVX-512).  A forest row reads
   its row pr at column cc - size(b) (b: the node of the lane's column), by
   category: one column back (b a leaf), two (a pair), column 0 (b on the
   left path of its keyroot: the column reads the table's first column,
   whose value, the deletes of the rows' forest, is the same in every table
   and every lane), or a copy made before the row (patch, from the list PL
   of (cell, cell of pr)).  A prefix row reads the tree distances lane by
   lane (a broadcast load and a blend each): some were written earlier in
   the same row. */
TARGET_ATTR __attribute__((noinline)) static void
X(simd_sweeps)(const int32_t *L1, const int32_t *LM1, const int32_t *kr1, int64_t k1,
            int64_t k1e, const int32_t *dc, const int32_t *rmat, size_t W, size_t T,
            const int32_t *Q1, const int32_t *LB, const int32_t *M,
            const int32_t *CIC, const int32_t *FD0Q, const int32_t *CAT, const int32_t *PL,
            size_t npl, int32_t *patch, const int32_t *ND, const int32_t *BASEC,
            const int32_t *NZC, const int32_t *LMC, int32_t *fd, int32_t *tdc)
{
    const VI zero = V_SET1(0), none = V_SET1(-1);
    const VI vbig = V_SET1(INT_BIG), one = V_SET1(1);
    const VI ren0 = V_SET1(rmat[0]), ren1 = V_SET1(rmat[1]);
    const size_t RW = W * VL, RT = T * VL;
    for (int64_t ii = k1; ii < k1e; ii++) {
        const size_t i = (size_t)kr1[ii], li = (size_t)LM1[i];
        if (li == i) continue;   /* leaf keyroot: filled by LEAF_FILLS */
        size_t patched = SIZE_MAX;   /* patch holds the copies from the pr of this lma */
        for (size_t a = li; a <= i; a++) {
            const VI vda = V_SET1(dc[a]);
            int32_t *cur = fd + (a + 1 - li) * RW;
            const int32_t *up = cur - RW;
            int32_t *tdr = tdc + a * RT;
            const size_t lma = (size_t)LM1[a];
            VI left = vbig;
            if (a == li && ND) {
                /* the first row of the table, plain unit costs (ND set): the
                   leaf li against the forest F = lj..b of each column, in
                   closed form, as LEAF_FILL_PLAIN's: with c the cost of a
                   label (0 for label 0, else 1) and S = c(F) (row 0), a
                   label x != 0 gives S - [F holds x] + [S == 0] (x deleted,
                   or renamed into a node of F, the rest inserted), label 0
                   gives S.  F holds x where the last node with x's label
                   since the table's start (-1 at a sentinel or padding
                   column) is set; the tree distance of a column whose node
                   b is not on its keyroot's left path (F is then more than
                   b's subtree) is simd_leaf_plain's for a leaf keyroot
                   (the last node at or after b's leftmost leaf; NZC for
                   label 0), BIG on the sentinel and padding columns. */
                const int32_t x = L1[li];
                const VI lx = V_SET1(x);
                VI last = none;
                for (size_t cc = 0; cc < W; cc++) {
                    const size_t o = cc * VL;
                    const VI nd = V_LOAD((ND + o));
                    const VI S = V_LOAD((up + o));
                    const VM m = V_MASK(V_LOAD(M + o));
                    VI v, t;
                    if (x == 0) {
                        v = S;
                        t = V_LOAD((NZC + o));
                    } else {
                        const VM take = M_OR(
                            V_EQ(V_LOAD((LB + o)), lx),
                            V_GT(zero, nd));
                        last = V_SEL(last, nd, take);
                        /* S - 1 where F holds x, + 1 where S == 0 */
                        v = V_INC(V_DEC(S, V_GT(last, none)), V_EQ(S, zero));
                        const VM gt = V_GT(
                            V_LOAD((LMC + o)), last);
                        t = V_INC(V_SUB(V_LOAD(BASEC + o), one), gt);
                    }
                    V_STORE((cur + o), v);
                    V_STORE((tdr + o), V_SEL(t, v, m));
                }
            } else if (lma != li) {
                const int32_t *pr = fd + (lma - li) * RW;
                /* the cells whose subtree is not a leaf, a pair or a left
                   path read pr where they may: copied here first (the rest
                   of the row pr is final) */
                if (patched != lma) {   /* rows of one leftmost leaf share pr */
                    for (size_t e = 0; e < npl; e++) patch[PL[2 * e]] = pr[PL[2 * e + 1]];
                    patched = lma;
                }
                /* column 0 (a sentinel or padding column in every lane)
                   holds what every left-path column reads: the deletes of
                   the forest of pr's rows, the same in every lane */
                const VC col0 = C_FROM(V_LOAD(pr));
                for (size_t cc = 0; cc < W; cc++) {
                    const size_t o = cc * VL;
                    /* pr at column cc - size(b): the column before the
                       subtree of b (a gather costs more than the four
                       candidates: one column back, two, column 0, patch) */
                    const VI cat = V_LOAD((CAT + o));
                    /* bit 0 of CAT: two back (else one), or patch (else
                       column 0); bit 1: the far pair (column 0, patch) */
                    const VCM lo = C_MASK(cat, 0), hi = C_MASK(cat, 1);
                    const VC near = C_SEL(C_FROM(V_LOAD(pr + o - VL)),
                                          C_FROM(V_LOAD(pr + o - 2 * VL)), lo);
                    const VC far = C_SEL(col0, C_FROM(V_LOAD(patch + o)), lo);
                    const VI g = C_TO(C_SEL(near, far, hi));
                    VI rr = V_ADD(g, V_LOAD(tdr + o));
                    VI v = X(zs_cell)(up + o, vda, rr, left, CIC + o);
                    V_STORE((cur + o), v);
                    left = v;
                }
            } else {
                const VI la = V_SET1(L1[a]);
                for (size_t cc = 0; cc < W; cc++) {
                    const size_t o = cc * VL;
                    const VM same = V_EQ(
                        V_LOAD((LB + o)), la);
                    VI ren = V_SEL(ren1, ren0, same);
                    /* up[cc - 1]: column -1 of row 0 is the zeroed slack */
                    VI rt = V_ADD(
                        V_LOADU((up + o - VL)), ren);
                    const VM m = V_MASK(V_LOAD(M + o));
                    /* tdr at Q1, lane by lane (cheaper than a gather here) */
                    const int32_t *q1 = Q1 + o;
                    const VI tdg = V_LANES(tdr, q1);
                    VI rf = V_ADD(
                        V_LOAD((FD0Q + o)), tdg);
                    VI rr = V_SEL(rf, rt, m);
                    VI v = X(zs_cell)(up + o, vda, rr, left, CIC + o);
                    V_STORE((cur + o), v);
                    /* the tree distance of the column's node: computed here
                       on the left path, else copied from where it was */
                    V_STORE((tdr + o), V_SEL(tdg, v, m));
                    left = v;
                }
            }
        }
    }
}

/* The tree distances of the leaf keyroots for plain unit costs (LEAF_FILLS'
   closed form, LEAF_FILL_PLAIN), all lanes at once:
   (1) the k-th leaf keyroot of each lane's tree 2 (label LYS[k]) against
       every subtree x of tree 1, into tdc[x][W + k];
   (2) every leaf keyroot x of tree 1 against the node of every column of
       the sweep, into tdc[x][cc] (BASEC, NZC, LMC: base, other-label count
       and leftmost leaf of the column's node b; LB its label, ND b, -1 on
       sentinel and padding columns).  Whether the subtree of b holds x's
       label: whether the last node with that label since the start of b's
       table (its columns are the nodes lj..j in postorder, and lj <= the
       leftmost leaf of b) is at or after b's leftmost leaf -- a scan along
       the columns, no gather. */
TARGET_ATTR __attribute__((noinline)) static void
X(simd_leaf_plain)(const int32_t *L1, const int32_t *LM1, size_t n1, const int32_t *kr1,
                int64_t k1, int64_t k1e, const int32_t *base1, const int32_t *nz1,
                size_t leaves, const int32_t *LYS, const int32_t *LB, const int32_t *ND,
                const int32_t *BASEC, const int32_t *NZC, const int32_t *LMC, size_t W,
                size_t T, int32_t *tdc)
{
    const VI zero = V_SET1(0), one = V_SET1(1);
    const VI none = V_SET1(-1);
    const size_t V = VL;
    for (size_t k = 0; k < leaves; k++) {
        const VI ly = V_LOAD((LYS + k * V));
        const VM lyzero = V_EQ(ly, zero);
        VI last = none;
        for (size_t x = 0; x < n1; x++) {
            last = V_SEL(last, V_SET1((int32_t)x),
                                      V_EQ(V_SET1(L1[x]), ly));
            const VM has = V_GT(last, V_SET1(LM1[x] - 1));
            VI v = V_DEC(V_SET1(base1[x]), has);
            v = V_SEL(v, V_SET1(nz1[x]), lyzero);
            V_STORE((tdc + (x * T + W + k) * V), v);
        }
    }
    for (int64_t ii = k1; ii < k1e; ii++) {
        const size_t x = (size_t)kr1[ii];
        if ((size_t)LM1[x] != x) continue;
        int32_t *row = tdc + x * T * V;
        if (L1[x] == 0) {
            for (size_t cc = 0; cc < W; cc++)
                V_STORE((row + cc * V),
                                   V_LOAD((NZC + cc * V)));
            continue;
        }
        const VI ly = V_SET1(L1[x]);
        VI last = none;
        for (size_t cc = 0; cc < W; cc++) {
            const VI nd = V_LOAD((ND + cc * V));
            /* the column's node has the label, or a table starts: -1 */
            const VM take = M_OR(
                V_EQ(V_LOAD((LB + cc * V)), ly),
                V_GT(zero, nd));
            last = V_SEL(last, nd, take);
            /* set: the subtree lacks the label */
            const VM gt = V_GT(V_LOAD(LMC + cc * V), last);
            VI v = V_INC(V_SUB(V_LOAD(BASEC + cc * V), one), gt);
            V_STORE((row + cc * V), v);
        }
    }
}

/* TED of tree 1 (n1 > 0 nodes) against the trees of nl <= VL lanes (each of
   1..SIMD_MAXN nodes with a sweep at most CHUNK_COLS wide), int32 cells,
   into out[0..nl).  Returns -1 when its buffers could not be allocated
   (nothing written). */
/* (no target attribute: compiled as main's zs_i32_x8 was; the vector work is
   in the two functions above) */
static int X(zs_i32_x)(const int32_t *L1, const int32_t *LM1, const int32_t *kr1, size_t n1,
                     int64_t k1, int64_t k1e, const Side *lanes, int nl,
                     const int32_t *dcost, const int32_t *icost, const int32_t *rmat,
                     int plain, Work *wk, double *out)
{
    size_t wl[VL], W = 0, leaves = 0, n2max = 1, npl = 0;
    SimdBuf *sb = (SimdBuf *)wk->simd;
    int hit = plain && sb && sb->key_nl == nl && sb->key_v == VL;
    for (int l = 0; l < nl && hit; l++) hit = sb->key[l] == lanes[l].L;
    if (hit) {
        W = sb->W; leaves = sb->leaves; n2max = sb->n2max; npl = sb->npl;
    } else {
        if (sb) sb->key_nl = 0;
        for (int l = 0; l < nl; l++) {
            const Side *s = &lanes[l];
            wl[l] = s->w;
            W = wl[l] > W ? wl[l] : W;
            size_t lk = 0;
            for (int64_t jj = s->k; jj < s->ke; jj++)
                lk += (size_t)s->LM[s->KR[jj]] == (size_t)s->KR[jj];
            leaves = lk > leaves ? lk : leaves;
            n2max = s->n > n2max ? s->n : n2max;
        }
    }
    const size_t T = W + leaves + 1, SENT = T - 1, V = VL;
    const size_t nmax = n1 > n2max ? n1 : n2max;
    /* the columns of the lanes (kept for the next batch of the same lanes):
       Q1 LB M CIC FD0 FD0Q ND BASEC NZC LMC CAT | PL | LYS;
       then this tree 1's: VL items of zeroed slack | fd | tdc | patch | base1
       nz1 dc1 | scratch of the column build: ic2 col P m scr */
    const size_t o_q1 = 0, o_lb = o_q1 + W * V;
    const size_t o_m = o_lb + W * V, o_cic = o_m + W * V, o_fz = o_cic + W * V;
    const size_t o_f0 = o_fz + W * V;
    const size_t o_nd = o_f0 + W * V, o_bc = o_nd + W * V, o_nz = o_bc + W * V;
    const size_t o_lmc = o_nz + W * V, o_cat = o_lmc + W * V;
    const size_t o_pl = o_cat + W * V, o_lys = o_pl + 2 * W * V;
    const size_t o_fd = o_lys + leaves * V + V;
    const size_t o_tdc = o_fd + round8((n1 + 1) * W * V), o_pat = o_tdc + round8(n1 * T * V);
    const size_t o_b1 = o_pat + W * V, o_nz1 = o_b1 + round8(n1);
    const size_t o_dc = o_nz1 + round8(n1);
    const size_t o_ic = o_dc + round8(n1), o_col = o_ic + round8(n2max);
    const size_t o_P = o_col + round8(n2max), o_mm = o_P + round8(nmax + 1);
    const size_t o_scr = o_mm + round8(nmax + 1), total = o_scr + n1 * n2max;
    int32_t *base = simd_buf(wk, total);
    if (!base) return -1;
    sb = (SimdBuf *)wk->simd;
    int32_t *fd = base + o_fd, *tdc = base + o_tdc, *Q1 = base + o_q1;
    int32_t *LB = base + o_lb, *M = base + o_m, *CIC = base + o_cic, *dc1 = base + o_dc;
    int32_t *FD0Q = base + o_f0, *ND = base + o_nd;   /* fd row 0 at q0; node of a column */
    int32_t *FD0 = base + o_fz;                       /* fd row 0 */
    int32_t *ic2 = base + o_ic, *col = base + o_col, *P = base + o_P, *mm = base + o_mm;
    int32_t *scr = base + o_scr;
    /* plain unit costs: the leaf keyroots by simd_leaf_plain */
    int32_t *BASEC = base + o_bc, *NZC = base + o_nz, *LMC = base + o_lmc;
    int32_t *LYS = base + o_lys;
    int32_t *base1 = base + o_b1, *nz1 = base + o_nz1;
    /* the forest rows' reads (simd_sweeps): a category per cell, and the
       list of (cell, cell of pr) copied into patch before each row */
    int32_t *CAT = base + o_cat, *PL = base + o_pl, *patch = base + o_pat;
    size_t rootcol[VL];
    memset(fd - V, 0, V * sizeof(int32_t));   /* column -1 of row 0 */
    for (size_t a = 0; a < n1; a++) {
        dc1[a] = dcost[L1[a]];
        for (size_t l = 0; l < V; l++) tdc[(a * T + SENT) * V + l] = INT_BIG;
    }
    for (size_t l = 0; l < V && !hit; l++) {
        size_t c = 0;
        if ((int)l < nl) {
            const Side *s = &lanes[l];
            const size_t n2 = s->n;
            const int32_t *L2 = s->L, *LM2 = s->LM;
            for (size_t b = 0; b < n2; b++) ic2[b] = icost[L2[b]];
            /* the columns of the tree distances: left paths at their column
               of the sweep, leaf keyroots after the widest sweep */
            size_t slot = W;
            for (int64_t jj = s->k; jj < s->ke; jj++) {
                size_t j = (size_t)s->KR[jj], lj = (size_t)LM2[j];
                if (lj == j) { col[j] = (int32_t)slot++; continue; }
                size_t s0 = c;
                int32_t acc = 0;
                sentinel_column(Q1, LB, M, CIC, FD0, FD0Q, ND, CAT, c * V + l, SENT * V + l);
                c++;
                for (size_t b = lj; b <= j; b++, c++) {
                    acc = acc + ic2[b];
                    size_t lmb = (size_t)LM2[b];
                    if (lmb == lj) col[b] = (int32_t)c;
                    LB[c * V + l] = L2[b];
                    M[c * V + l] = lmb == lj ? -1 : 0;
                    CIC[c * V + l] = ic2[b];
                    FD0[c * V + l] = acc;
                    FD0Q[c * V + l] = FD0[(s0 + lmb - lj) * V + l];
                    ND[c * V + l] = (int32_t)b;
                    const size_t size = b + 1 - lmb;
                    CAT[c * V + l] = lmb == lj ? 2 : size == 1 ? 0 : size == 2 ? 1 : 3;
                    if (size > 2 && lmb != lj) {
                        PL[2 * npl] = (int32_t)(c * V + l);
                        PL[2 * npl + 1] = (int32_t)((s0 + lmb - lj) * V + l);
                        npl++;
                    }
                }
            }
            /* Q1: the column of each column's node b (known once all are) */
            c = 0;
            for (int64_t jj = s->k; jj < s->ke; jj++) {
                size_t j = (size_t)s->KR[jj], lj = (size_t)LM2[j];
                if (lj == j) continue;
                c++;
                for (size_t b = lj; b <= j; b++, c++)
                    Q1[c * V + l] = (int32_t)((size_t)col[b] * V + l);
            }
            rootcol[l] = (size_t)col[n2 - 1];
            if (plain) {
                /* what simd_leaf_plain needs of this lane: LEAF_BASE_PLAIN of
                   tree 2 (Z counts of label 0 into P, base into mm) */
                LEAF_BASE_PLAIN(L2, LM2, n2, P, mm);
                for (size_t cc = 0; cc < W; cc++) {
                    const int32_t b = cc < c ? ND[cc * V + l] : -1;
                    const size_t bz = b < 0 ? 0 : (size_t)b;
                    BASEC[cc * V + l] = b < 0 ? INT_BIG : mm[bz];
                    NZC[cc * V + l] = b < 0 ? INT_BIG : (int32_t)(bz + 1 - (size_t)LM2[bz]) -
                                                        (P[bz + 1] - P[LM2[bz]]);
                    LMC[cc * V + l] = b < 0 ? INT32_MAX : LM2[bz];
                }
                size_t k = 0;
                for (int64_t jj = s->k; jj < s->ke; jj++) {
                    size_t y = (size_t)s->KR[jj];
                    if ((size_t)LM2[y] == y) LYS[k++ * V + l] = L2[y];
                }
                for (; k < leaves; k++) LYS[k * V + l] = 0;
                goto columns_done;
            }
            /* the leaf keyroots of both trees, by the scalar kernel's closed
               form (LEAF_FILLS) into scr[a * n2 + b], then into tdc */
            leaf_fills_i32(L1, LM1, n1, dc1, L2, LM2, s->KR, s->k, s->ke, ic2, plain, rmat,
                           P, mm, scr, n2, 1);
            leaf_fills_i32(L2, LM2, n2, ic2, L1, LM1, kr1, k1, k1e, dc1, plain, rmat,
                           P, mm, scr, 1, n2);
            for (int64_t jj = s->k; jj < s->ke; jj++) {
                size_t y = (size_t)s->KR[jj];
                if ((size_t)LM2[y] != y) continue;
                for (size_t a = 0; a < n1; a++)
                    tdc[(a * T + (size_t)col[y]) * V + l] = scr[a * n2 + y];
            }
            /* the rows of tree 1's leaf keyroots, column by column (the
               forest rows read them so) */
            for (int64_t ii = k1; ii < k1e; ii++) {
                size_t x = (size_t)kr1[ii];
                if ((size_t)LM1[x] != x) continue;
                for (size_t cc = 0; cc < wl[l]; cc++) {
                    int32_t b = ND[cc * V + l];
                    tdc[(x * T + cc) * V + l] = b < 0 ? INT_BIG : scr[x * n2 + (size_t)b];
                }
                for (size_t cc = wl[l]; cc < W; cc++) tdc[(x * T + cc) * V + l] = INT_BIG;
            }
        } else if (plain) {   /* an empty lane */
            for (size_t cc = 0; cc < W; cc++) {
                BASEC[cc * V + l] = NZC[cc * V + l] = INT_BIG;
                LMC[cc * V + l] = INT32_MAX;
            }
            for (size_t k = 0; k < leaves; k++) LYS[k * V + l] = 0;
        }
    columns_done:
        /* padding: columns that read the sentinel and feed no real column */
        for (; c < W; c++)
            sentinel_column(Q1, LB, M, CIC, FD0, FD0Q, ND, CAT, c * V + l, SENT * V + l);
        if ((int)l >= nl && !plain)   /* an empty lane: the leaf keyroot rows of tree 1 */
            for (int64_t ii = k1; ii < k1e; ii++) {
                size_t x = (size_t)kr1[ii];
                if ((size_t)LM1[x] != x) continue;
                for (size_t cc = 0; cc < W; cc++) tdc[(x * T + cc) * V + l] = INT_BIG;
            }
    }
    if (hit) {
        memcpy(rootcol, sb->rootcol, sizeof rootcol);
    } else if (plain) {
        sb->key_nl = nl;
        sb->key_v = VL;
        for (int l = 0; l < nl; l++) sb->key[l] = lanes[l].L;
        sb->W = W; sb->leaves = leaves; sb->n2max = n2max; sb->npl = npl;
        memcpy(sb->rootcol, rootcol, sizeof rootcol);
    }
    memcpy(fd, FD0, W * V * sizeof(int32_t));
    if (plain) {
        LEAF_BASE_PLAIN(L1, LM1, n1, P, base1);
        for (size_t x = 0; x < n1; x++)
            nz1[x] = (int32_t)(x + 1 - (size_t)LM1[x]) - (P[x + 1] - P[LM1[x]]);
        X(simd_leaf_plain)(L1, LM1, n1, kr1, k1, k1e, base1, nz1, leaves, LYS, LB, ND, BASEC,
                        NZC, LMC, W, T, tdc);
    }
    if (W)
        X(simd_sweeps)(L1, LM1, kr1, k1, k1e, dc1, rmat, W, T, Q1, LB, M, CIC, FD0Q, CAT, PL,
                    npl, patch, plain ? ND : NULL, BASEC, NZC, LMC, fd, tdc);
    for (int l = 0; l < nl; l++)
        out[l] = (double)tdc[((n1 - 1) * T + rootcol[l]) * V + (size_t)l];
    return 0;
}

/* the macros of this instantiation, so that the next can define its own */
#undef X
#undef TARGET_ATTR
#undef VL
#undef VI
#undef VM
#undef V_SET1
#undef V_LOAD
#undef V_LOADU
#undef V_STORE
#undef V_ADD
#undef V_SUB
#undef V_MIN
#undef V_EQ
#undef V_GT
#undef M_OR
#undef V_MASK
#undef V_SEL
#undef V_DEC
#undef V_INC
#undef VC
#undef VCM
#undef C_FROM
#undef C_TO
#undef C_MASK
#undef C_SEL
#undef V_LANES
