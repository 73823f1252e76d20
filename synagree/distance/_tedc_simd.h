/* Inter-pair SIMD Zhang-Shasha for int32 cells, included by _tedc.c.
 *
 * The idea of SWIPE (Rognes 2011, for Smith-Waterman) applied to the kernel
 * of _tedc_zs.h: one tree (tree 1) against up to 8 others (tree 2 of each
 * lane) in the 8 int32 lanes of an AVX2 vector.  Every lane runs its own
 * min-chain, so the latency of one chain (3 cycles a cell in the scalar
 * kernel) is shared by 8 cells.
 *
 * The row structure of Zhang-Shasha (keyroots of tree 1, their rows, forest
 * row or prefix row) depends on tree 1 only: it is the same for every lane.
 * The columns depend on tree 2: every lane lays out the tables of all its
 * keyroots in one sweep of w columns, as the scalar kernel does (a lane whose
 * sweep is wider than CHUNK_COLS runs the scalar kernel), and the sweep is
 * padded to the widest lane with columns that read the sentinel and feed no
 * real column.  The per-lane shape is in per-column vectors (which column
 * of fd and of td each cell reads), read without AVX2 gathers (simd_sweeps
 * says how).
 *
 * Layout, lane-interleaved (cell of lane l at [... * 8 + l]):
 *   fd   rows x W columns, as the scalar fd (row 0: insert-cost prefixes)
 *   tdc  n1 rows x T columns: the tree distances td[a][b] of the scalar
 *        kernel, stored by column instead of by node b: a node b on the
 *        left path of a keyroot of tree 2 at its column of the sweep (where
 *        the prefix row computes it, so the store is one vector store of the
 *        whole row), a leaf keyroot of tree 2 at a column after the sweep,
 *        the sentinel (BIG) last.  The columns of a prefix row that hold no
 *        tree distance are stored there too and never read.
 *
 * The arithmetic is the scalar kernel's, cell for cell (the same additions
 * and minima, the leaf keyroots by the same closed form, LEAF_FILLS), on
 * exact integers, except the first row of each table for plain unit costs
 * (a leaf against each column's forest: a closed form of the same exact
 * values, simd_sweeps): every distance is equal to the scalar kernel's (the
 * tests check this pair by pair).  float64 cells always run the scalar
 * kernel.
 *
 * Dispatch: the AVX2 functions are compiled with a target attribute, so no
 * compile flag is needed, and run only where __builtin_cpu_supports says the
 * CPU has AVX2; elsewhere (or with SYNAGREE_SIMD=0) the scalar kernel runs.
 */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TEDC_AVX2 1
#include <immintrin.h>
#else
#define TEDC_AVX2 0
#endif

#define SIMD_LANES 8
#define SIMD_MAXN 512        /* larger trees: the scalar kernel */
#define SIMD_MIN_LANES 2     /* fewer pairs in a batch: the scalar kernel */

/* Is the SIMD kernel usable in this process: built for x86-64 and the CPU
   has AVX2? */
static int simd_cpu(void)
{
#if TEDC_AVX2
    static int known = -1;
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
    }
    return known;
#else
    return 0;
#endif
}

/* SYNAGREE_SIMD, read per kernel call: 1 unset, blank, auto, on or 1 (any
   case, blanks around); 0 off or 0; -1 anything else (which
   synagree.base.native.simd refuses before a kernel runs). */
static int simd_env(void)
{
    const char *s = getenv("SYNAGREE_SIMD");
    if (!s) return 1;
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    char low[8] = {0};
    if (n >= sizeof low) return -1;
    for (size_t q = 0; q < n; q++) low[q] = (char)(s[q] | 0x20);
    if (n == 0 || strcmp(low, "auto") == 0 || strcmp(low, "on") == 0 || strcmp(low, "1") == 0)
        return 1;
    return strcmp(low, "off") == 0 || strcmp(low, "0") == 0 ? 0 : -1;
}

static int simd_setting(void) { return simd_env() != 0; }

/* Is SYNAGREE_SIMD one of the values synagree.base.native.simd takes?
   (ted_pair's fast path.) */
static int simd_value_ok(void) { return simd_env() >= 0; }

#if TEDC_AVX2

/* Buffers of the SIMD kernel, grown as needed, one set per thread (Work). */
typedef struct {
    size_t cap;         /* int32 items allocated */
    int32_t *mem;
    /* the lanes whose columns (plain unit costs) are at the front of mem:
       a batch of the same trees against another tree 1 reuses them */
    int key_nl;
    const int32_t *key[SIMD_LANES];
    size_t W, leaves, n2max, npl, rootcol[SIMD_LANES];
} SimdBuf;

static int32_t *simd_buf(Work *w, size_t items)
{
    SimdBuf *s = (SimdBuf *)w->simd;
    if (!s) {
        s = calloc(1, sizeof(SimdBuf));
        if (!s) return NULL;
        w->simd = s;
    }
    if (s->cap < items) {
        size_t want = s->cap ? 2 * s->cap : 1 << 16;
        while (want < items) want *= 2;
        /* 32-byte aligned; calloc-like: the read at column -1 of fd's row 0
           is of initialised memory */
        int32_t *m = NULL;
        if (posix_memalign((void **)&m, 32, want * sizeof(int32_t)) != 0) return NULL;
        memset(m, 0, want * sizeof(int32_t));
        if (s->mem) memcpy(m, s->mem, s->cap * sizeof(int32_t));   /* the cached columns */
        free(s->mem);
        s->mem = m;
        s->cap = want;
    }
    return s->mem;
}

static void simd_free(Work *w)
{
    SimdBuf *s = (SimdBuf *)w->simd;
    if (s) { free(s->mem); free(s); }
    w->simd = NULL;
}

/* One tree of a lane (tree 2), in the orientation of the batch */
typedef struct {
    const int32_t *L, *LM, *KR;
    size_t n;
    int64_t k, ke;
    size_t w;           /* the width of its sweep (sweep_width) */
} Side;

/* One cell vector: min(up + da, rr, left + insert cost), as the scalar
   kernel's cell (delete, rename or match, insert) */
__attribute__((target("avx2"), always_inline)) static inline __m256i
zs_cell(const int32_t *up, __m256i vda, __m256i rr, __m256i left, const int32_t *cic)
{
    __m256i d = _mm256_min_epi32(
        _mm256_add_epi32(_mm256_load_si256((const __m256i *)up), vda), rr);
    __m256i ins = _mm256_add_epi32(left, _mm256_load_si256((const __m256i *)cic));
    return _mm256_min_epi32(d, ins);
}

/* The sweep of every row: W columns of 8 lanes.  fd rows of W vectors;
   Q1: the index (column * 8 + lane) in the row of tdc where the tree
   distance of each cell's node is (prefix rows); LB: label of the column's
   node; M: -1 where the column is on the left path of its keyroot (a prefix
   row stores a tree distance there); CIC: insert cost of the column; CAT,
   PL, patch: how a forest row reads fd at the column before the subtree of
   each cell's node (below); tdc: n1 rows of T vectors.

   No AVX2 gathers: on Zen 3 one costs more than the loads and blends that
   replace it (benchmarks/README.md, issue 36).  A forest row reads
   its row pr at column cc - size(b) (b: the node of the lane's column), by
   category: one column back (b a leaf), two (a pair), column 0 (b on the
   left path of its keyroot: the column reads the table's first column,
   whose value, the deletes of the rows' forest, is the same in every table
   and every lane), or a copy made before the row (patch, from the list PL
   of (cell, cell of pr)).  A prefix row reads the tree distances lane by
   lane (a broadcast load and a blend each): some were written earlier in
   the same row. */
__attribute__((target("avx2"))) static void
simd_sweeps(const int32_t *L1, const int32_t *LM1, const int32_t *kr1, int64_t k1,
            int64_t k1e, const int32_t *dc, const int32_t *rmat, size_t W, size_t T,
            const int32_t *Q1, const int32_t *LB, const int32_t *M,
            const int32_t *CIC, const int32_t *FD0Q, const int32_t *CAT, const int32_t *PL,
            size_t npl, int32_t *patch, const int32_t *ND, const int32_t *BASEC,
            const int32_t *NZC, const int32_t *LMC, int32_t *fd, int32_t *tdc)
{
    const __m256i zero = _mm256_setzero_si256(), none = _mm256_set1_epi32(-1);
    const __m256i vbig = _mm256_set1_epi32(INT_BIG), one = _mm256_set1_epi32(1);
    const __m256i ren0 = _mm256_set1_epi32(rmat[0]), ren1 = _mm256_set1_epi32(rmat[1]);
    const size_t RW = W * SIMD_LANES, RT = T * SIMD_LANES;
    for (int64_t ii = k1; ii < k1e; ii++) {
        const size_t i = (size_t)kr1[ii], li = (size_t)LM1[i];
        if (li == i) continue;   /* leaf keyroot: filled by LEAF_FILLS */
        size_t patched = SIZE_MAX;   /* patch holds the copies from the pr of this lma */
        for (size_t a = li; a <= i; a++) {
            const __m256i vda = _mm256_set1_epi32(dc[a]);
            int32_t *cur = fd + (a + 1 - li) * RW;
            const int32_t *up = cur - RW;
            int32_t *tdr = tdc + a * RT;
            const size_t lma = (size_t)LM1[a];
            __m256i left = vbig;
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
                const __m256i lx = _mm256_set1_epi32(x);
                __m256i last = none;
                for (size_t cc = 0; cc < W; cc++) {
                    const size_t o = cc * SIMD_LANES;
                    const __m256i nd = _mm256_load_si256((const __m256i *)(ND + o));
                    const __m256i S = _mm256_load_si256((const __m256i *)(up + o));
                    const __m256i m = _mm256_load_si256((const __m256i *)(M + o));
                    __m256i v, t;
                    if (x == 0) {
                        v = S;
                        t = _mm256_load_si256((const __m256i *)(NZC + o));
                    } else {
                        const __m256i take = _mm256_or_si256(
                            _mm256_cmpeq_epi32(_mm256_load_si256((const __m256i *)(LB + o)), lx),
                            _mm256_cmpgt_epi32(zero, nd));
                        last = _mm256_blendv_epi8(last, nd, take);
                        /* S - 1 where F holds x, + 1 where S == 0 */
                        v = _mm256_sub_epi32(_mm256_add_epi32(S, _mm256_cmpgt_epi32(last, none)),
                                             _mm256_cmpeq_epi32(S, zero));
                        const __m256i gt = _mm256_cmpgt_epi32(
                            _mm256_load_si256((const __m256i *)(LMC + o)), last);
                        t = _mm256_sub_epi32(_mm256_sub_epi32(
                            _mm256_load_si256((const __m256i *)(BASEC + o)), one), gt);
                    }
                    _mm256_store_si256((__m256i *)(cur + o), v);
                    _mm256_store_si256((__m256i *)(tdr + o), _mm256_blendv_epi8(t, v, m));
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
                const __m256 col0 = _mm256_castsi256_ps(_mm256_load_si256((const __m256i *)pr));
                for (size_t cc = 0; cc < W; cc++) {
                    const size_t o = cc * SIMD_LANES;
                    /* pr at column cc - size(b): the column before the
                       subtree of b (a gather costs more than the four
                       candidates: one column back, two, column 0, patch) */
                    const __m256i cat = _mm256_load_si256((const __m256i *)(CAT + o));
                    const __m256 lo = _mm256_castsi256_ps(_mm256_slli_epi32(cat, 31));
                    const __m256 hi = _mm256_castsi256_ps(_mm256_slli_epi32(cat, 30));
                    const __m256 near = _mm256_blendv_ps(
                        _mm256_castsi256_ps(_mm256_load_si256((const __m256i *)(pr + o - 8))),
                        _mm256_castsi256_ps(_mm256_load_si256((const __m256i *)(pr + o - 16))),
                        lo);
                    const __m256 far = _mm256_blendv_ps(
                        col0, _mm256_castsi256_ps(_mm256_load_si256((const __m256i *)(patch + o))),
                        lo);
                    __m256i g = _mm256_castps_si256(_mm256_blendv_ps(near, far, hi));
                    __m256i rr = _mm256_add_epi32(g,
                                                  _mm256_load_si256((const __m256i *)(tdr + o)));
                    __m256i v = zs_cell(up + o, vda, rr, left, CIC + o);
                    _mm256_store_si256((__m256i *)(cur + o), v);
                    left = v;
                }
            } else {
                const __m256i la = _mm256_set1_epi32(L1[a]);
                for (size_t cc = 0; cc < W; cc++) {
                    const size_t o = cc * SIMD_LANES;
                    __m256i same = _mm256_cmpeq_epi32(
                        _mm256_load_si256((const __m256i *)(LB + o)), la);
                    __m256i ren = _mm256_blendv_epi8(ren1, ren0, same);
                    /* up[cc - 1]: column -1 of row 0 is the zeroed slack */
                    __m256i rt = _mm256_add_epi32(
                        _mm256_loadu_si256((const __m256i *)(up + o - SIMD_LANES)), ren);
                    __m256i m = _mm256_load_si256((const __m256i *)(M + o));
                    /* tdr at Q1, lane by lane (cheaper than a gather here) */
                    const int32_t *q1 = Q1 + o;
                    __m256i tdg = _mm256_set1_epi32(tdr[q1[0]]);
                    tdg = _mm256_blend_epi32(tdg, _mm256_set1_epi32(tdr[q1[1]]), 0x02);
                    tdg = _mm256_blend_epi32(tdg, _mm256_set1_epi32(tdr[q1[2]]), 0x04);
                    tdg = _mm256_blend_epi32(tdg, _mm256_set1_epi32(tdr[q1[3]]), 0x08);
                    tdg = _mm256_blend_epi32(tdg, _mm256_set1_epi32(tdr[q1[4]]), 0x10);
                    tdg = _mm256_blend_epi32(tdg, _mm256_set1_epi32(tdr[q1[5]]), 0x20);
                    tdg = _mm256_blend_epi32(tdg, _mm256_set1_epi32(tdr[q1[6]]), 0x40);
                    tdg = _mm256_blend_epi32(tdg, _mm256_set1_epi32(tdr[q1[7]]), 0x80);
                    __m256i rf = _mm256_add_epi32(
                        _mm256_load_si256((const __m256i *)(FD0Q + o)), tdg);
                    __m256i rr = _mm256_blendv_epi8(rf, rt, m);
                    __m256i v = zs_cell(up + o, vda, rr, left, CIC + o);
                    _mm256_store_si256((__m256i *)(cur + o), v);
                    /* the tree distance of the column's node: computed here
                       on the left path, else copied from where it was */
                    _mm256_store_si256((__m256i *)(tdr + o), _mm256_blendv_epi8(tdg, v, m));
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
__attribute__((target("avx2"))) static void
simd_leaf_plain(const int32_t *L1, const int32_t *LM1, size_t n1, const int32_t *kr1,
                int64_t k1, int64_t k1e, const int32_t *base1, const int32_t *nz1,
                size_t leaves, const int32_t *LYS, const int32_t *LB, const int32_t *ND,
                const int32_t *BASEC, const int32_t *NZC, const int32_t *LMC, size_t W,
                size_t T, int32_t *tdc)
{
    const __m256i zero = _mm256_setzero_si256(), one = _mm256_set1_epi32(1);
    const __m256i none = _mm256_set1_epi32(-1);
    const size_t V = SIMD_LANES;
    for (size_t k = 0; k < leaves; k++) {
        const __m256i ly = _mm256_load_si256((const __m256i *)(LYS + k * V));
        const __m256i lyzero = _mm256_cmpeq_epi32(ly, zero);
        __m256i last = none;
        for (size_t x = 0; x < n1; x++) {
            last = _mm256_blendv_epi8(last, _mm256_set1_epi32((int32_t)x),
                                      _mm256_cmpeq_epi32(_mm256_set1_epi32(L1[x]), ly));
            __m256i has = _mm256_cmpgt_epi32(last, _mm256_set1_epi32(LM1[x] - 1));
            __m256i v = _mm256_add_epi32(_mm256_set1_epi32(base1[x]), has);
            v = _mm256_blendv_epi8(v, _mm256_set1_epi32(nz1[x]), lyzero);
            _mm256_store_si256((__m256i *)(tdc + (x * T + W + k) * V), v);
        }
    }
    for (int64_t ii = k1; ii < k1e; ii++) {
        const size_t x = (size_t)kr1[ii];
        if ((size_t)LM1[x] != x) continue;
        int32_t *row = tdc + x * T * V;
        if (L1[x] == 0) {
            for (size_t cc = 0; cc < W; cc++)
                _mm256_store_si256((__m256i *)(row + cc * V),
                                   _mm256_load_si256((const __m256i *)(NZC + cc * V)));
            continue;
        }
        const __m256i ly = _mm256_set1_epi32(L1[x]);
        __m256i last = none;
        for (size_t cc = 0; cc < W; cc++) {
            const __m256i nd = _mm256_load_si256((const __m256i *)(ND + cc * V));
            /* the column's node has the label, or a table starts: -1 */
            const __m256i take = _mm256_or_si256(
                _mm256_cmpeq_epi32(_mm256_load_si256((const __m256i *)(LB + cc * V)), ly),
                _mm256_cmpgt_epi32(zero, nd));
            last = _mm256_blendv_epi8(last, nd, take);
            __m256i gt = _mm256_cmpgt_epi32(_mm256_load_si256((const __m256i *)(LMC + cc * V)),
                                            last);   /* -1: the subtree lacks the label */
            __m256i v = _mm256_sub_epi32(
                _mm256_sub_epi32(_mm256_load_si256((const __m256i *)(BASEC + cc * V)), one), gt);
            _mm256_store_si256((__m256i *)(row + cc * V), v);
        }
    }
}

static inline size_t round8(size_t x) { return (x + 7) & ~(size_t)7; }

/* Column q (index q = column * 8 + lane) reads itself in fd and the
   sentinel in td, and inserts at cost BIG: the first column of a keyroot's
   table (a forest of nothing), or a padding column */
static void sentinel_column(int32_t *Q1, int32_t *LB, int32_t *M, int32_t *CIC,
                            int32_t *FD0, int32_t *FD0Q, int32_t *ND, int32_t *CAT, size_t q,
                            size_t sent)
{
    Q1[q] = (int32_t)sent;
    LB[q] = M[q] = FD0[q] = FD0Q[q] = CAT[q] = 0;
    CIC[q] = INT_BIG;
    ND[q] = -1;
}

/* The columns of the sweep of one tree 2 (every keyroot that is not a leaf,
   in postorder): w, or 0 when it has none. */
static size_t sweep_width(const Side *s)
{
    size_t w = 0;
    for (int64_t jj = s->k; jj < s->ke; jj++) {
        size_t j = (size_t)s->KR[jj], lj = (size_t)s->LM[j];
        if (lj != j) w += j + 2 - lj;
    }
    return w;
}

/* TED of tree 1 (n1 > 0 nodes) against the trees of nl <= 8 lanes (each of
   1..SIMD_MAXN nodes with a sweep at most CHUNK_COLS wide), int32 cells,
   into out[0..nl).  Returns -1 when its buffers could not be allocated
   (nothing written). */
static int zs_i32_x8(const int32_t *L1, const int32_t *LM1, const int32_t *kr1, size_t n1,
                     int64_t k1, int64_t k1e, const Side *lanes, int nl,
                     const int32_t *dcost, const int32_t *icost, const int32_t *rmat,
                     int plain, Work *wk, double *out)
{
    size_t wl[SIMD_LANES], W = 0, leaves = 0, n2max = 1, npl = 0;
    SimdBuf *sb = (SimdBuf *)wk->simd;
    int hit = plain && sb && sb->key_nl == nl;
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
    const size_t T = W + leaves + 1, SENT = T - 1, V = SIMD_LANES;
    const size_t nmax = n1 > n2max ? n1 : n2max;
    /* the columns of the lanes (kept for the next batch of the same lanes):
       Q1 LB M CIC FD0 FD0Q ND BASEC NZC LMC CAT | PL | LYS;
       then this tree 1's: 8 items of zeroed slack | fd | tdc | patch | base1
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
    size_t rootcol[SIMD_LANES];
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
        for (int l = 0; l < nl; l++) sb->key[l] = lanes[l].L;
        sb->W = W; sb->leaves = leaves; sb->n2max = n2max; sb->npl = npl;
        memcpy(sb->rootcol, rootcol, sizeof rootcol);
    }
    memcpy(fd, FD0, W * V * sizeof(int32_t));
    if (plain) {
        LEAF_BASE_PLAIN(L1, LM1, n1, P, base1);
        for (size_t x = 0; x < n1; x++)
            nz1[x] = (int32_t)(x + 1 - (size_t)LM1[x]) - (P[x + 1] - P[LM1[x]]);
        simd_leaf_plain(L1, LM1, n1, kr1, k1, k1e, base1, nz1, leaves, LYS, LB, ND, BASEC,
                        NZC, LMC, W, T, tdc);
    }
    if (W)
        simd_sweeps(L1, LM1, kr1, k1, k1e, dc1, rmat, W, T, Q1, LB, M, CIC, FD0Q, CAT, PL,
                    npl, patch, plain ? ND : NULL, BASEC, NZC, LMC, fd, tdc);
    for (int l = 0; l < nl; l++)
        out[l] = (double)tdc[((n1 - 1) * T + rootcol[l]) * V + (size_t)l];
    return 0;
}

#endif  /* TEDC_AVX2 */
