/* synagree.distance._tedc -- the tree-edit-distance kernels in C.
 *
 * What it computes (docs/method.md §3-§4): Zhang-Shasha tree edit distance
 * between trees packed in flat postorder arrays (a TreePack), for
 *
 *   pairs(...)      listed index pairs            -> one distance per pair
 *   all_pairs(...)  every pair of a pack          -> a symmetric K x K matrix
 *   tile(...)       one tile pair of the all-pairs sums alpha needs
 *                   (row sums, diagonal sums, the unit x unit block, and the
 *                   distances inside each unit)
 *
 * It is the C twin of the numba kernels in kernels_numba.py, written line for
 * line from them: the same cells, the same additions in the same order and
 * the same reductions, so every distance and every sum is bit-identical to
 * numba's (the tests check this on random and real trees).  One shortcut,
 * for integer costs only: the tables of keyroots that are leaves are replaced
 * by a closed form of the same tree distances (_tedc_zs.h), exact integers
 * like the rest; and for integral unit costs, batches of up to 16, 8 or 4
 * pairs that share their first tree run in the int32 lanes of AVX-512F, AVX2
 * or SSE4.1 vectors, the widest the CPU has (_tedc_simd.h; SYNAGREE_SIMD=off:
 * never), with the same distances.
 * It exists to spare each run numba's start-up (importing
 * numba and loading its cached machine code cost more than half a second)
 * and the first run's compile, and is faster per pair.
 *
 * Conventions: arrays arrive through the buffer protocol, C-contiguous, with
 * the dtypes of the numba kernels (labels, leftmost leaves and keyroots
 * int32; offsets and costs of the orientation int64; float64 or, for
 * integral unit costs, int32 edit costs).  Work is split into tasks taken by
 * `threads` POSIX threads from a shared counter; every task writes only its
 * own outputs and sums in a fixed order, so the result does not depend on
 * the number of threads or on which thread runs a task.  The GIL is released
 * while the kernels run.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""  /* the declarative build records none: mtimes are compared */
#endif

#include <math.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK_COLS 1024       /* widest row swept at once, as kernels_numba.CHUNK_COLS */
#define INT_BIG (1 << 29)     /* "+inf" of int32 cells: BIG + BIG and BIG + any distance fit */

/* ------------------------------------------------------------------------ */
/* Work buffers                                                              */
/* ------------------------------------------------------------------------ */

typedef struct {
    size_t maxn, cw;
    void *cells;        /* td | fd | dc | ic | cic, in the cell type */
    uint32_t *rec;      /* 4 per column of a sweep */
    void *simd;         /* the SIMD kernel's buffers (_tedc_simd.h), made when first used */
} Work;

static void simd_free(Work *w);

static int work_init(Work *w, size_t maxn, size_t cell_size)
{
    w->maxn = maxn;
    w->cw = maxn + 1 > CHUNK_COLS ? maxn + 1 : CHUNK_COLS;
    /* td | fd | dc | ic | cic | P and m of the leaf shortcut (int32 cells) */
    size_t n = maxn * (maxn + 2) + (maxn + 1) * w->cw + 2 * maxn + w->cw + 2 * (maxn + 1);
    /* calloc: the discarded read at column -1 of each row (the previous row's
       last cell, or the end of td before row 0) is of initialised memory */
    w->cells = calloc(n, cell_size);
    w->rec = calloc(4 * w->cw, sizeof(uint32_t));
    w->simd = NULL;
    if (!w->cells || !w->rec) {
        free(w->cells);
        free(w->rec);
        w->cells = NULL;
        w->rec = NULL;
        return -1;
    }
    return 0;
}

static void work_free(Work *w)
{
    free(w->cells);
    free(w->rec);
    simd_free(w);
}

/* ------------------------------------------------------------------------ */
/* The kernel, for int32 and float64 cells                                   */
/* ------------------------------------------------------------------------ */

#define CELL int32_t
#define BIG INT_BIG
#define ZS zs_i32
#define LEAF_SHORTCUT 1
#define LEAF_FILL leaf_fill_i32
#define LEAF_FILL_PLAIN leaf_fill_plain_i32
#define LEAF_FILLS leaf_fills_i32
#define PREFIX_ROW prefix_row_i32
#include "_tedc_zs.h"
#undef CELL
#undef BIG
#undef ZS
#undef LEAF_SHORTCUT
#undef LEAF_FILL
#undef LEAF_FILL_PLAIN
#undef LEAF_FILLS
#undef PREFIX_ROW

#define CELL double
#define BIG INFINITY
#define ZS zs_f64
#define LEAF_SHORTCUT 0
#define PREFIX_ROW prefix_row_f64
#include "_tedc_zs.h"
#undef CELL
#undef BIG
#undef ZS
#undef LEAF_SHORTCUT
#undef PREFIX_ROW

/* the inter-pair SIMD kernel (int32 cells, AVX2) */
#include "_tedc_simd.h"

/* ------------------------------------------------------------------------ */
/* A pack of trees, the costs, one pair                                      */
/* ------------------------------------------------------------------------ */

typedef struct {
    const int32_t *lab, *lml, *kr, *rlab, *rlml, *rkr;
    const int64_t *noff, *koff, *rkoff, *cl, *cr;
    int64_t K;
    int32_t *sw;    /* SIMD lane widths + 2, 2 per tree, 0 until asked (simd_lane_width) */
} Pack;

typedef struct {
    const void *dcost, *icost, *rmat;
    size_t rstride;     /* columns of rmat */
    int unit, int_cells;
    int plain;          /* int32 cells with plain unit costs (see _tedc_zs.h) */
    int simd;           /* lanes of the SIMD kernel batches of pairs run (_tedc_simd.h), or 0 */
    SimdFn xfn;         /* that kernel (simd_fn) */
    int sym;            /* insert cost = delete cost for every label: TED(a, b) = TED(b, a) */
} Costs;

/* TED between trees i and j of the pack, in the cheaper orientation
   (left-path or mirrored, by the Zhang-Shasha cost estimate) */
static double pair(const Pack *p, int64_t i, int64_t j, const Costs *c, Work *w)
{
    const int32_t *L, *LM, *KR;
    const int64_t *KO;
    if (p->cl[i] * p->cl[j] <= p->cr[i] * p->cr[j]) {
        L = p->lab; LM = p->lml; KR = p->kr; KO = p->koff;
    } else {
        L = p->rlab; LM = p->rlml; KR = p->rkr; KO = p->rkoff;
    }
    const int64_t oi = p->noff[i], oj = p->noff[j];
    const size_t ni = (size_t)(p->noff[i + 1] - oi), nj = (size_t)(p->noff[j + 1] - oj);
    if (c->int_cells)
        return zs_i32(L + oi, LM + oi, KR, ni, KO[i], KO[i + 1],
                      L + oj, LM + oj, KR, nj, KO[j], KO[j + 1],
                      (const int32_t *)c->dcost, (const int32_t *)c->icost,
                      (const int32_t *)c->rmat, c->rstride, c->unit, c->plain, w);
    return zs_f64(L + oi, LM + oi, KR, ni, KO[i], KO[i + 1],
                  L + oj, LM + oj, KR, nj, KO[j], KO[j + 1],
                  (const double *)c->dcost, (const double *)c->icost,
                  (const double *)c->rmat, c->rstride, c->unit, 0, w);
}

#define BLOCK 64    /* pairs of one tree whose distances are taken at once (pairs_of) */

/* The width of tree j's sweep in orientation `right` when it can be a lane
   of the SIMD kernel (1..SIMD_MAXN nodes, a sweep of at most CHUNK_COLS
   columns), else -1. */
static int64_t lane_width(const Pack *p, int64_t j, int right)
{
#if TEDC_AVX2
    const int64_t n = p->noff[j + 1] - p->noff[j];
    if (n < 1 || n > SIMD_MAXN) return -1;
    const int64_t *KO = right ? p->rkoff : p->koff;
    Side s = {NULL, (right ? p->rlml : p->lml) + p->noff[j], right ? p->rkr : p->kr,
              (size_t)n, KO[j], KO[j + 1], 0};
    const size_t w = sweep_width(&s);
    return w <= CHUNK_COLS ? (int64_t)w : -1;
#else
    (void)p; (void)j; (void)right;
    return -1;
#endif
}

/* lane_width, computed once per tree and call where the call has a table
   (take_pack); threads that compute the same entry store the same value */
static int64_t simd_lane_width(const Pack *p, int64_t j, int right)
{
    if (!p->sw) return lane_width(p, j, right);
    int32_t *slot = &p->sw[2 * j + right];
    int32_t v = __atomic_load_n(slot, __ATOMIC_RELAXED);
    if (v == 0) {
        v = (int32_t)lane_width(p, j, right) + 2;
        __atomic_store_n(slot, v, __ATOMIC_RELAXED);
    }
    return (int64_t)v - 2;
}

/* The SIMD kernel on the trees js[lane[0..nl)] against tree i in one
   orientation, into dout[0..nl); the scalar kernel where it cannot run. */
static void run_lanes(const Pack *p, int64_t i, int right, const int64_t *js,
                      const int64_t *lane, int nl, const Costs *c, Work *w, double *dout)
{
#if TEDC_AVX2
    if (nl >= SIMD_MIN_LANES && c->xfn) {
        const int32_t *L = right ? p->rlab : p->lab, *LM = right ? p->rlml : p->lml;
        const int32_t *KR = right ? p->rkr : p->kr;
        const int64_t *KO = right ? p->rkoff : p->koff;
        Side sides[SIMD_MAXLANES];
        double d[SIMD_MAXLANES];
        for (int l = 0; l < nl; l++) {
            const int64_t j = js[lane[l]], oj = p->noff[j];
            Side s = {L + oj, LM + oj, KR, (size_t)(p->noff[j + 1] - oj), KO[j], KO[j + 1],
                      (size_t)simd_lane_width(p, j, right)};
            sides[l] = s;
        }
        const int64_t oi = p->noff[i];
        if (c->xfn(L + oi, LM + oi, KR, (size_t)(p->noff[i + 1] - oi), KO[i], KO[i + 1],
                      sides, nl, (const int32_t *)c->dcost, (const int32_t *)c->icost,
                      (const int32_t *)c->rmat, c->plain, w, d) == 0) {
            for (int l = 0; l < nl; l++) dout[l] = d[l];
            return;
        }
    }
#endif
    for (int l = 0; l < nl; l++) dout[l] = pair(p, i, js[lane[l]], c, w);
}

/* The SIMD batch of the trees js[lane[0..nl)] against each tree is[0..ni),
   into dout[ii * si + lane[l] * sj]: those it takes left first, then the
   others, each in the batch's orientation (the cheaper by the sum of
   pair()'s estimates): the kernel builds the batch's columns once for all
   the trees of one orientation. */
static void batch_rows(const Pack *p, const int64_t *is, int64_t ni, const int64_t *js,
                       const int64_t *lane, int nl, const Costs *c, Work *w, double *dout,
                       int64_t si, int64_t sj)
{
    for (int side = 0; side < 2; side++) {
        for (int64_t ii = 0; ii < ni; ii++) {
            const int64_t i = is[ii], n = p->noff[i + 1] - p->noff[i];
            int64_t el = 0, er = 0;
            for (int l = 0; l < nl; l++) {
                const int64_t j = js[lane[l]];
                el += p->cl[i] * p->cl[j];
                er += p->cr[i] * p->cr[j];
            }
            if ((el > er) != side) continue;
            double d[SIMD_MAXLANES];
            if (n >= 1 && n <= SIMD_MAXN)
                run_lanes(p, i, side, js, lane, nl, c, w, d);
            else
                for (int l = 0; l < nl; l++) d[l] = pair(p, i, js[lane[l]], c, w);
            for (int l = 0; l < nl; l++) dout[ii * si + lane[l] * sj] = d[l];
        }
    }
}

/* TED of each tree is[0..ni) against each tree js[0..nj) into
   dout[ii * si + jj * sj]: batches of up to c->simd trees of js on the SIMD kernel
   where it applies (c->simd, int32 cells, trees that fit), the rest on the
   scalar kernel.  Equal distances either way: the distances are exact
   integers, and a pair and its mirror image have the same distance, so a
   batch takes one orientation for all its pairs (the cheaper by the sum of
   pair()'s estimates) where pair() picks one per pair.  Within each block of
   BLOCK trees of js the lanes are sorted by the width of their sweep, so that
   a batch pads little, and each batch runs against every tree of is in turn
   (those it takes left first, then the others): the kernel builds the
   batch's columns once for all of them. */
static void block_pairs(const Pack *p, const int64_t *is, int64_t ni, const int64_t *js,
                        int64_t nj, const Costs *c, Work *w, double *dout, int64_t si,
                        int64_t sj)
{
    if (!c->simd || nj < SIMD_MIN_LANES) {
        for (int64_t ii = 0; ii < ni; ii++)
            for (int64_t k = 0; k < nj; k++)
                dout[ii * si + k * sj] = pair(p, is[ii], js[k], c, w);
        return;
    }
    for (int64_t k0 = 0; k0 < nj; k0 += BLOCK) {
        const int64_t ke = nj - k0 < BLOCK ? nj : k0 + BLOCK;
        int64_t key[BLOCK], idx[BLOCK];
        int m = 0;
        for (int64_t k = k0; k < ke; k++) {
            const int64_t j = js[k];
            const int64_t wj = simd_lane_width(p, j, 0);
            if (wj < 0 || simd_lane_width(p, j, 1) < 0) {
                for (int64_t ii = 0; ii < ni; ii++)
                    dout[ii * si + k * sj] = pair(p, is[ii], j, c, w);
                continue;
            }
            int q = m++;   /* insertion sort by width */
            for (; q > 0 && key[q - 1] > wj; q--) { key[q] = key[q - 1]; idx[q] = idx[q - 1]; }
            key[q] = wj;
            idx[q] = k;
        }
        const int VL = c->simd;
        for (int q = 0; q < m; q += VL) {
            const int nl = m - q < VL ? m - q : VL;
            batch_rows(p, is, ni, js, idx + q, nl, c, w, dout, si, sj);
        }
    }
}

/* Every pair of the trees js[0..n) (n <= BLOCK, a column block of
   all_pairs) into out (K columns, both triangles).  The trees the SIMD
   kernel takes are sorted by the width of their sweep, and each batch of c->simd
   runs against the trees sorted before it and itself (batch_rows: the
   batch's columns are built once for all of them); of its diagonal square
   only the pairs above the diagonal are kept.  The other trees run
   on the scalar kernel.  A pair may so run with its trees in either order:
   only for symmetric costs (c->sym; all_task checks). */
static void block_self(const Pack *p, const int64_t *js, int64_t n, const Costs *c, Work *w,
                       double *out, int64_t K)
{
    int64_t key[BLOCK], ord[BLOCK], rows[BLOCK], lane_j[SIMD_MAXLANES];
    int simd_ok[BLOCK];
    static const int64_t lane_idx[SIMD_MAXLANES] = {0, 1, 2, 3, 4, 5, 6, 7,
                                                    8, 9, 10, 11, 12, 13, 14, 15};
    double d[BLOCK * SIMD_MAXLANES];
    const int VL = c->simd;
    int m = 0;
    for (int64_t k = 0; k < n; k++) {
        const int64_t wk = c->simd ? simd_lane_width(p, js[k], 0) : -1;
        simd_ok[k] = wk >= 0 && simd_lane_width(p, js[k], 1) >= 0;
        if (!simd_ok[k]) continue;
        int q = m++;   /* insertion sort by width */
        for (; q > 0 && key[q - 1] > wk; q--) { key[q] = key[q - 1]; ord[q] = ord[q - 1]; }
        key[q] = wk;
        ord[q] = k;
    }
    if (m < SIMD_MIN_LANES) m = 0;
    for (int64_t k = 0; k < n; k++) {   /* the scalar kernel's pairs */
        if (m && simd_ok[k]) continue;
        for (int64_t k2 = 0; k2 < n; k2++) {
            if (k2 == k || (k2 < k && !(m && simd_ok[k2]))) continue;
            const double dist = pair(p, js[k], js[k2], c, w);
            out[js[k] * K + js[k2]] = dist;
            out[js[k2] * K + js[k]] = dist;
        }
    }
    for (int q = 0; q < m; q += VL) {
        const int nl = m - q < VL ? m - q : VL;
        for (int l = 0; l < nl; l++) lane_j[l] = js[ord[q + l]];
        for (int r = 0; r < q + nl; r++) rows[r] = js[ord[r]];
        batch_rows(p, rows, q + nl, lane_j, lane_idx, nl, c, w, d, VL, 1);
        for (int r = 0; r < q + nl; r++)
            for (int l = 0; l < nl; l++) {
                if (r >= q + l) continue;   /* the pair of positions r < q + l only */
                out[rows[r] * K + lane_j[l]] = d[r * VL + l];
                out[lane_j[l] * K + rows[r]] = d[r * VL + l];
            }
    }
}

/* TED of tree i against each tree js[0..n) into dout[0..n) (block_pairs) */
static void pairs_of(const Pack *p, int64_t i, const int64_t *js, int64_t n, const Costs *c,
                     Work *w, double *dout)
{
    block_pairs(p, &i, 1, js, n, c, w, dout, 0, 1);
}

/* ------------------------------------------------------------------------ */
/* Tasks on threads                                                          */
/* ------------------------------------------------------------------------ */

typedef void (*TaskFn)(void *ctx, int64_t task, Work *w);

typedef struct {
    TaskFn fn;
    void *ctx;
    int64_t ntask;
    int64_t next;       /* the next task to take (atomic) */
    size_t maxn, cell_size;
    int64_t done;       /* tasks completed (atomic) */
} Pool;

static void *pool_worker(void *arg)
{
    Pool *pool = (Pool *)arg;
    Work w;
    if (work_init(&w, pool->maxn, pool->cell_size) != 0)
        return NULL;   /* no buffers: the other threads take the tasks */
    for (;;) {
        int64_t t = __atomic_fetch_add(&pool->next, 1, __ATOMIC_RELAXED);
        if (t >= pool->ntask) break;
        pool->fn(pool->ctx, t, &w);
        __atomic_fetch_add(&pool->done, 1, __ATOMIC_RELAXED);
    }
    work_free(&w);
    return NULL;
}

/* Run tasks 0..ntask-1 on up to `threads` threads (the caller's included).
   Returns 0, or -1 when memory ran out for every thread (the outputs are
   then incomplete). */
static int run_tasks(TaskFn fn, void *ctx, int64_t ntask, size_t maxn, size_t cell_size,
                     int threads)
{
    Pool pool = {fn, ctx, ntask, 0, maxn, cell_size, 0};
    if (ntask <= 0) return 0;
    if (threads > ntask) threads = (int)ntask;
    if (threads < 1) threads = 1;
    pthread_t *tid = threads > 1 ? malloc(sizeof(pthread_t) * (size_t)(threads - 1)) : NULL;
    int started = 0;
    if (tid) {
        for (; started < threads - 1; started++)
            if (pthread_create(&tid[started], NULL, pool_worker, &pool) != 0) break;
    }
    pool_worker(&pool);     /* fewer threads than asked if some did not start */
    for (int k = 0; k < started; k++) pthread_join(tid[k], NULL);
    free(tid);
    /* short only if no thread could get its work buffers */
    return pool.done == ntask ? 0 : -1;
}

/* ------------------------------------------------------------------------ */
/* Arguments through the buffer protocol                                     */
/* ------------------------------------------------------------------------ */

enum { K_INT = 'i', K_FLOAT = 'f', K_ANY = 'a' };

typedef struct {
    Py_buffer v;
    int held;
} Buf;

/* the struct-module format of a buffer: 'i' integer, 'f' floating, 0 other */
static int format_kind(const char *fmt)
{
    if (!fmt) return 'i';   /* "B": unsigned bytes */
    const uint16_t one = 1;
    const int little = *(const uint8_t *)&one == 1;
    if (*fmt == '@' || *fmt == '=') fmt++;
    else if (*fmt == '<' || *fmt == '>' || *fmt == '!') {
        if ((*fmt == '<') != little) return 0;   /* not this machine's byte order */
        fmt++;
    }
    if (fmt[0] == 0 || fmt[1] != 0) return 0;
    if (strchr("bhilq", fmt[0])) return 'i';
    if (strchr("efd", fmt[0])) return 'f';
    return 0;
}

/* Take the buffer of `obj`: C-contiguous, items of `itemsize` bytes of
   `kind`, at least `min_len` items; writable if asked. */
static int take(PyObject *obj, Buf *b, const char *name, Py_ssize_t itemsize, int kind,
                Py_ssize_t min_len, int writable)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, &b->v, flags) != 0) {
        PyErr_Format(PyExc_TypeError, "%s: expected a C-contiguous%s array", name,
                     writable ? " writable" : "");
        return -1;
    }
    b->held = 1;
    int k = format_kind(b->v.format);
    if (b->v.itemsize != itemsize || (kind != K_ANY && k != kind) || k == 0) {
        PyErr_Format(PyExc_TypeError, "%s: expected %s items of %zd bytes, got format '%s'",
                     name, kind == K_FLOAT ? "floating" : "integer", itemsize,
                     b->v.format ? b->v.format : "B");
        return -1;
    }
    Py_ssize_t n = b->v.len / itemsize;
    if (n < min_len) {
        PyErr_Format(PyExc_ValueError, "%s: %zd items, at least %zd needed", name, n, min_len);
        return -1;
    }
    return 0;
}

static Py_ssize_t items(const Buf *b) { return b->v.len / b->v.itemsize; }

static void release_all(Buf *bufs, int n)
{
    for (int k = 0; k < n; k++)
        if (bufs[k].held) PyBuffer_Release(&bufs[k].v);
}

/* Every tree of the pack is well formed in one orientation: leftmost leaves
   lml[x] in 0..x and nested as a postorder tree's are (walking the children
   of x from x-1 back over whole subtrees lands exactly before lml[x]), and the
   keyroots are exactly the highest node of each leftmost leaf, in postorder.
   O(nodes); what the kernels index by relies on it. */
static int check_trees_shape(const int64_t *noff, const int64_t *koff, const int32_t *lml,
                             const int32_t *kr, Py_ssize_t K)
{
    int64_t maxn = 0;
    for (Py_ssize_t k = 0; k < K; k++)
        if (noff[k + 1] - noff[k] > maxn) maxn = noff[k + 1] - noff[k];
    int64_t *last = malloc(sizeof(int64_t) * (size_t)(maxn + 1));
    char *is_kr = malloc((size_t)(maxn + 1));
    if (!last || !is_kr) { free(last); free(is_kr); PyErr_NoMemory(); return -1; }
    const char *bad = NULL;
    for (Py_ssize_t k = 0; k < K && !bad; k++) {
        const int64_t n = noff[k + 1] - noff[k];
        const int32_t *LM = lml + noff[k];
        for (int64_t x = 0; x < n && !bad; x++) {
            if (LM[x] < 0 || LM[x] > x) { bad = "leftmost leaf out of range"; break; }
            int64_t c = x - 1;
            while (c >= LM[x]) {
                if (LM[c] < LM[x]) { bad = "subtrees not nested"; break; }
                c = (int64_t)LM[c] - 1;
            }
            if (!bad && c != (int64_t)LM[x] - 1) bad = "subtrees not nested";
        }
        if (!bad && n > 0 && LM[n - 1] != 0) bad = "the last node is not the root of all";
        if (bad) break;
        /* keyroots: the highest node of each leftmost leaf, in postorder */
        for (int64_t x = 0; x < n; x++) last[x] = -1;
        for (int64_t x = 0; x < n; x++) last[LM[x]] = x;
        for (int64_t x = 0; x < n; x++) is_kr[x] = 0;
        for (int64_t x = 0; x < n; x++)
            if (last[x] >= 0) is_kr[last[x]] = 1;
        int64_t q = koff[k];
        for (int64_t x = 0; x < n && !bad; x++) {
            if (!is_kr[x]) continue;
            if (q >= koff[k + 1] || kr[q] != x) bad = "keyroots do not match the tree";
            q++;
        }
        if (!bad && q != koff[k + 1]) bad = "keyroots do not match the tree";
    }
    free(last);
    free(is_kr);
    if (bad) {
        PyErr_Format(PyExc_ValueError, "inconsistent pack: %s", bad);
        return -1;
    }
    return 0;
}

/* The pack (11 arrays) and the costs (3 arrays), checked for the pack's
   offsets and node labels; bufs[0..13]. */
enum { B_LAB, B_LML, B_NOFF, B_KR, B_KOFF, B_RLAB, B_RLML, B_RKR, B_RKOFF, B_CL, B_CR,
       B_DC, B_IC, B_RM, N_PACK };

/* The pack's 11 arrays (bufs[0..10]): taken, and the offsets checked against
   the arrays' lengths, O(trees).  What the kernels index by within each tree
   is checked by check_shapes. */
static int take_trees(PyObject *const *o, Buf *b, Pack *p)
{
    static const char *names[B_DC] = {"lab", "lml", "noff", "kr", "koff", "rlab", "rlml",
                                      "rkr", "rkoff", "cl", "cr"};
    for (int k = B_LAB; k <= B_CR; k++) {
        int wide = k == B_NOFF || k == B_KOFF || k == B_RKOFF || k == B_CL || k == B_CR;
        if (take(o[k], &b[k], names[k], wide ? 8 : 4, K_INT, 0, 0)) return -1;
    }
    Py_ssize_t K = items(&b[B_NOFF]) - 1;
    if (K < 0 || items(&b[B_KOFF]) != K + 1 || items(&b[B_RKOFF]) != K + 1 ||
        items(&b[B_CL]) != K || items(&b[B_CR]) != K) {
        PyErr_SetString(PyExc_ValueError, "inconsistent pack: offsets and costs per tree differ in length");
        return -1;
    }
    const int64_t *noff = b[B_NOFF].v.buf, *koff = b[B_KOFF].v.buf, *rkoff = b[B_RKOFF].v.buf;
    int ok = noff[0] >= 0 && koff[0] >= 0 && rkoff[0] >= 0;
    for (Py_ssize_t k = 0; k < K && ok; k++)
        ok = noff[k + 1] >= noff[k] && koff[k + 1] >= koff[k] && rkoff[k + 1] >= rkoff[k];
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "inconsistent pack: offsets must be >= 0 and not decrease");
        return -1;
    }
    if (items(&b[B_LAB]) < noff[K] || items(&b[B_LML]) < noff[K] || items(&b[B_RLAB]) < noff[K] ||
        items(&b[B_RLML]) < noff[K] || items(&b[B_KR]) < koff[K] || items(&b[B_RKR]) < rkoff[K]) {
        PyErr_SetString(PyExc_ValueError, "inconsistent pack: node arrays shorter than the offsets say");
        return -1;
    }
    p->lab = b[B_LAB].v.buf; p->lml = b[B_LML].v.buf; p->kr = b[B_KR].v.buf;
    p->rlab = b[B_RLAB].v.buf; p->rlml = b[B_RLML].v.buf; p->rkr = b[B_RKR].v.buf;
    p->noff = noff; p->koff = koff; p->rkoff = rkoff;
    p->cl = b[B_CL].v.buf; p->cr = b[B_CR].v.buf; p->K = K;
    return 0;
}

/* Every tree well formed in both orientations (check_trees_shape) and every
   label id >= 0; *labels = the largest label id + 1 (the costs must cover
   it).  O(nodes). */
static int check_shapes(const Pack *p, int64_t *labels)
{
    if (check_trees_shape(p->noff, p->koff, p->lml, p->kr, p->K) ||
        check_trees_shape(p->noff, p->rkoff, p->rlml, p->rkr, p->K))
        return -1;
    int64_t top = -1;
    for (int64_t q = 0; q < p->noff[p->K]; q++) {
        if (p->lab[q] < 0 || p->rlab[q] < 0) {
            PyErr_SetString(PyExc_ValueError, "label id out of range of the costs");
            return -1;
        }
        if (p->lab[q] > top) top = p->lab[q];
        if (p->rlab[q] > top) top = p->rlab[q];
    }
    *labels = top + 1;
    return 0;
}

/* The pack and the costs (bufs[0..13]).  `trusted`: the pack passed
   check_pack and the costs cover its labels (the caller knows), so the
   O(nodes) checks are skipped. */
/* The costs (3 arrays into b[0..2]): the dtype of dcost decides the cells,
   int32 (integral unit costs) or float64; *L = the label ids they cover. */
static int take_costs(PyObject *od, PyObject *oi, PyObject *orm, Buf *b, int unit, Costs *c,
                      Py_ssize_t *L)
{
    Py_buffer probe;
    if (PyObject_GetBuffer(od, &probe, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) != 0) {
        PyErr_SetString(PyExc_TypeError, "dcost: expected a C-contiguous array");
        return -1;
    }
    Py_ssize_t cs = probe.itemsize;
    PyBuffer_Release(&probe);
    int kind = cs == 4 ? K_INT : K_FLOAT;
    if (cs != 4 && cs != 8) {
        PyErr_SetString(PyExc_TypeError, "dcost: expected int32 or float64 costs");
        return -1;
    }
    if (kind == K_INT && !unit) {
        PyErr_SetString(PyExc_TypeError, "int32 costs need unit renames");
        return -1;
    }
    if (take(od, &b[0], "dcost", cs, kind, 1, 0) ||
        take(oi, &b[1], "icost", cs, kind, items(&b[0]), 0) ||
        take(orm, &b[2], "rmat", cs, kind, unit ? 2 : 1, 0))
        return -1;
    *L = items(&b[0]);
    if (!unit && items(&b[2]) != *L * *L) {
        PyErr_SetString(PyExc_ValueError, "rmat: expected a square matrix over the label ids");
        return -1;
    }
    c->dcost = b[0].v.buf; c->icost = b[1].v.buf; c->rmat = b[2].v.buf;
    c->rstride = unit ? 2 : (size_t)*L;
    c->unit = unit;
    c->int_cells = kind == K_INT;
    c->plain = 0;
    c->simd = c->int_cells ? simd_level() : 0;
    c->xfn = simd_fn(c->simd);
    if (c->int_cells) {
        /* plain unit costs: label 0 free, every other label 1, renames 0/1 */
        const int32_t *dc = c->dcost, *ic = c->icost, *rm = c->rmat;
        c->plain = rm[0] == 0 && rm[1] == 1 && dc[0] == 0 && ic[0] == 0;
        for (Py_ssize_t l = 1; l < *L && c->plain; l++)
            c->plain = dc[l] == 1 && ic[l] == 1;
    }
    c->sym = unit;   /* unit renames are symmetric; the indels must be too */
    for (Py_ssize_t l = 0; l < *L && c->sym; l++)
        c->sym = c->int_cells ? ((const int32_t *)c->dcost)[l] == ((const int32_t *)c->icost)[l]
                              : ((const double *)c->dcost)[l] == ((const double *)c->icost)[l];
    return 0;
}

static int take_pack(PyObject *const *o, Buf *b, int unit, int trusted, Pack *p, Costs *c)
{
    p->sw = NULL;
    if (take_trees(o, b, p)) return -1;
    Py_ssize_t L;
    if (take_costs(o[B_DC], o[B_IC], o[B_RM], &b[B_DC], unit, c, &L)) return -1;
    if (!trusted) {
        int64_t labels;
        if (check_shapes(p, &labels)) return -1;
        if (labels > L) {
            PyErr_SetString(PyExc_ValueError, "label id out of range of the costs");
            return -1;
        }
    }
    /* the SIMD lane widths, each computed once in the call when first asked
       (without memory for the table, each batch computes its own) */
    if (c->simd && p->K > 0) p->sw = calloc(2 * (size_t)p->K, sizeof(int32_t));
    return 0;
}

static void pack_free(Pack *p)
{
    free(p->sw);
    p->sw = NULL;
}

static size_t pack_maxn(const Pack *p)
{
    int64_t m = 1;
    for (int64_t k = 0; k < p->K; k++)
        if (p->noff[k + 1] - p->noff[k] > m) m = p->noff[k + 1] - p->noff[k];
    return (size_t)m;
}

/* Run the tasks with the GIL released, each thread with work buffers for the
   pack's largest tree in the costs' cell type: a new reference to None, or
   NULL with MemoryError set. */
static PyObject *run_released(TaskFn fn, void *ctx, int64_t ntask, const Pack *p,
                              const Costs *c, int threads)
{
    size_t maxn = pack_maxn(p);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = run_tasks(fn, ctx, ntask, maxn, c->int_cells ? 4 : 8, threads);
    Py_END_ALLOW_THREADS
    if (rc != 0) return PyErr_NoMemory();
    Py_RETURN_NONE;
}

static int check_trees(const Pack *p, const int64_t *t, Py_ssize_t n, const char *name)
{
    for (Py_ssize_t k = 0; k < n; k++) {
        if (t[k] < 0 || t[k] >= p->K) {
            PyErr_Format(PyExc_IndexError, "%s: tree index %lld out of range 0..%lld", name,
                         (long long)t[k], (long long)p->K - 1);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* pairs                                                                     */
/* ------------------------------------------------------------------------ */

typedef struct {
    const Pack *p; const Costs *c;
    const int64_t *pi, *pj;
    double *out;
    int64_t n, chunk;
} PairsCtx;

static void pairs_task(void *vctx, int64_t t, Work *w)
{
    PairsCtx *x = vctx;
    int64_t end = (t + 1) * x->chunk < x->n ? (t + 1) * x->chunk : x->n;
    /* runs of pairs of the same first tree (kernels.pairs sorts them so) */
    for (int64_t k = t * x->chunk, e; k < end; k = e) {
        for (e = k + 1; e < end && x->pi[e] == x->pi[k]; e++) {}
        pairs_of(x->p, x->pi[k], x->pj + k, e - k, x->c, w, x->out + k);
    }
}

PyDoc_STRVAR(pairs_doc,
"pairs(i, j, lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,\n"
"      dcost, icost, rmat, unit, chunk, threads, out, trusted=False)\n\n"
"TED of each listed pair (i[k], j[k]) of a pack into out[k] (float64),\n"
"in chunks of `chunk` pairs spread over `threads` threads.");

static PyObject *py_pairs(PyObject *self, PyObject *args)
{
    PyObject *o[N_PACK], *oi, *oj, *oout;
    int unit, threads, trusted = 0;
    Py_ssize_t chunk;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOOOpniO|p", &oi, &oj, &o[0], &o[1], &o[2], &o[3],
                          &o[4], &o[5], &o[6], &o[7], &o[8], &o[9], &o[10], &o[11], &o[12],
                          &o[13], &unit, &chunk, &threads, &oout, &trusted))
        return NULL;
    Buf b[N_PACK + 3] = {{{0}, 0}};
    Buf *bi = &b[N_PACK], *bj = &b[N_PACK + 1], *bo = &b[N_PACK + 2];
    Pack p; Costs c;
    PyObject *ret = NULL;
    if (take_pack(o, b, unit, trusted, &p, &c) ||
        take(oi, bi, "i", 8, K_INT, 0, 0) ||
        take(oj, bj, "j", 8, K_INT, items(bi), 0) ||
        take(oout, bo, "out", 8, K_FLOAT, items(bi), 1) ||
        check_trees(&p, bi->v.buf, items(bi), "i") ||
        check_trees(&p, bj->v.buf, items(bi), "j"))
        goto done;
    if (chunk < 1) chunk = 1;
    PairsCtx x = {&p, &c, bi->v.buf, bj->v.buf, bo->v.buf, items(bi), chunk};
    int64_t ntask = x.n / chunk + (x.n % chunk != 0);   /* no overflow for any chunk */
    ret = run_released(pairs_task, &x, ntask, &p, &c, threads);
done:
    pack_free(&p);
    release_all(b, N_PACK + 3);
    return ret;
}

/* ------------------------------------------------------------------------ */
/* all_pairs                                                                 */
/* ------------------------------------------------------------------------ */

typedef struct {
    const Pack *p; const Costs *c;
    double *out;
} AllCtx;

/* Column block q = [q * BLOCK, (q + 1) * BLOCK) of the upper triangle:
   every earlier row against the whole block at once (block_pairs: its
   batches are built once for all the rows), then the pairs inside the block;
   each distance written to both triangles.  Task t takes block nb - 1 - t,
   the largest first. */
static void all_task(void *vctx, int64_t t, Work *w)
{
    AllCtx *x = vctx;
    const int64_t K = x->p->K, nb = (K + BLOCK - 1) / BLOCK, q = nb - 1 - t;
    const int64_t j0 = q * BLOCK, j1 = K - j0 < BLOCK ? K : j0 + BLOCK;
    int64_t js[BLOCK];
    for (int64_t j = j0; j < j1; j++) js[j - j0] = j;
    int64_t *rows = j0 > 0 ? malloc(sizeof(int64_t) * (size_t)j0) : NULL;
    if (rows) {
        for (int64_t r = 0; r < j0; r++) rows[r] = r;
        block_pairs(x->p, rows, j0, js, j1 - j0, x->c, w, x->out + j0, K, 1);
        free(rows);
    } else {
        for (int64_t r = 0; r < j0; r++)   /* no memory for the list: row by row */
            pairs_of(x->p, r, js, j1 - j0, x->c, w, x->out + r * K + j0);
    }
    for (int64_t r = 0; r < j0; r++)
        for (int64_t j = j0; j < j1; j++) x->out[j * K + r] = x->out[r * K + j];
    if (x->c->simd && x->c->sym) {
        block_self(x->p, js, j1 - j0, x->c, w, x->out, K);
        return;
    }
    double d[BLOCK];
    for (int64_t r = j0; r < j1; r++) {   /* TED(r, j) for r < j, as the scalar kernel */
        pairs_of(x->p, r, js + (r + 1 - j0), j1 - r - 1, x->c, w, d);
        for (int64_t j = r + 1; j < j1; j++) {
            x->out[r * K + j] = d[j - r - 1];
            x->out[j * K + r] = d[j - r - 1];
        }
    }
}

PyDoc_STRVAR(all_pairs_doc,
"all_pairs(lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr,\n"
"          dcost, icost, rmat, unit, threads, out, trusted=False)\n\n"
"TED of every pair of trees of a pack into the K x K float64 matrix out\n"
"(both triangles; the diagonal is left as it is).");

static PyObject *py_all_pairs(PyObject *self, PyObject *args)
{
    PyObject *o[N_PACK], *oout;
    int unit, threads, trusted = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOpiO|p", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &o[9], &o[10], &o[11], &o[12], &o[13], &unit,
                          &threads, &oout, &trusted))
        return NULL;
    Buf b[N_PACK + 1] = {{{0}, 0}};
    Pack p; Costs c;
    PyObject *ret = NULL;
    if (take_pack(o, b, unit, trusted, &p, &c)) goto done;
    if (take(oout, &b[N_PACK], "out", 8, K_FLOAT, p.K * p.K, 1)) goto done;
    AllCtx x = {&p, &c, b[N_PACK].v.buf};
    ret = run_released(all_task, &x, (p.K + BLOCK - 1) / BLOCK, &p, &c, threads);
done:
    pack_free(&p);
    release_all(b, N_PACK + 1);
    return ret;
}

/* ------------------------------------------------------------------------ */
/* tile                                                                      */
/* ------------------------------------------------------------------------ */

typedef struct {
    const Pack *p; const Costs *c;
    const int64_t *uoff, *utree, *woff;
    const double *ucount, *sizes;
    int64_t r0, r1, c0, c1, ns;   /* ns: columns of s_out */
    int want_s, is_diag;
    double *s_out, *row_out, *diag_out, *within_out;
} TileCtx;

/* Row units per task: their trees' distances are taken in one block_pairs
   call, so that each SIMD batch's columns (built per batch, orientation and
   call) serve that many rows.  Off the diagonal every task is alike; on the
   diagonal a task takes a short group and a long one, and a group's rows
   also meet the trees of its own earlier units (computed, not used: about
   DIAG_GROUP / 2 units more per row). */
#define TILE_GROUP 32
#define DIAG_GROUP 8
#define ROW_TREES 64    /* at most this many row trees a call (more: the runs of tile_group),
                           so that the distances held stay ROW_TREES x the tile's columns */

/* The distances of the trees of row units u0..u1-1 against every tree from
   unit v0 to the tile's last column unit (on a diagonal tile v0 == u0: the
   sums use only each unit's later trees), into
   dist[(a - uoff[u0]) * nb + (bb - uoff[v0])]: one
   call of block_pairs, so that the SIMD kernel gets full batches, each built
   once for all those rows.  0 or -1 (memory). */
static int tile_row_distances(const TileCtx *x, int64_t u0, int64_t u1, int64_t v0, Work *w,
                              double **dist, size_t *cap)
{
    const int64_t b0 = x->uoff[v0], nb = x->uoff[x->c1] - b0;
    const int64_t na = x->uoff[u1] - x->uoff[u0];
    if ((size_t)(na * nb + nb) > *cap) {
        size_t want = (size_t)(na * nb + nb);
        double *d = realloc(*dist, want * sizeof(double));
        if (!d) return -1;
        *dist = d;
        *cap = want;
    }
    int64_t *js = (int64_t *)(*dist + na * nb);   /* the partners (8 bytes each) */
    for (int64_t bb = b0; bb < b0 + nb; bb++) js[bb - b0] = x->utree[bb];
    /* every tree of the row units against every listed tree (a few pairs
       more than needed on a diagonal tile) */
    block_pairs(x->p, x->utree + x->uoff[u0], na, js, nb, x->c, w, *dist, nb, 1);
    return 0;
}

/* The sums of row unit r0 + ri against the column units from vstart on:
   drow, when not NULL, holds the distances of its trees (row a - uoff[u],
   nbt apart) against the trees from unit vstart on; else pair() runs. */
static void tile_unit_sums(const TileCtx *x, int64_t ri, int64_t vstart, const double *drow,
                           int64_t nbt, Work *w)
{
    const int64_t u = x->r0 + ri;
    const int64_t b0 = x->uoff[vstart];
    double acc0 = 0.0, acc1 = 0.0, acc2 = 0.0;
    for (int64_t v = vstart; v < x->c1; v++) {
        double s0 = 0.0, s1 = 0.0, s2 = 0.0;
        int64_t wk = x->woff[u];
        for (int64_t a = x->uoff[u]; a < x->uoff[u + 1]; a++) {
            int64_t ta = x->utree[a];
            double ca = x->ucount[a];
            int64_t bstart = v == u ? a + 1 : x->uoff[v];  /* unordered pairs in u */
            for (int64_t bb = bstart; bb < x->uoff[v + 1]; bb++) {
                int64_t tb = x->utree[bb];
                if (ta == tb) continue;
                double d = drow ? drow[(a - x->uoff[u]) * nbt + (bb - b0)]
                                : pair(x->p, ta, tb, x->c, w);
                if (v == u) x->within_out[wk++] = d;
                /* delta^2 of the three variants (kernels_numba._d2) */
                double sa = x->sizes[ta], sb = x->sizes[tb];
                double d0 = d * d;
                double e = d - fabs(sa - sb);
                double d1 = e * e;
                double f = d / (sa + sb);
                double d2 = f * f;
                double wgt = ca * x->ucount[bb];
                s0 += wgt * d0;
                s1 += wgt * d1;
                s2 += wgt * d2;
            }
        }
        double *sv = x->want_s ? x->s_out + (ri * x->ns + (v - x->c0)) * 3 : NULL;
        if (v == u) {
            /* ordered pairs i != j within the unit */
            x->diag_out[ri * 3 + 0] = 2.0 * s0;
            x->diag_out[ri * 3 + 1] = 2.0 * s1;
            x->diag_out[ri * 3 + 2] = 2.0 * s2;
            if (sv) { sv[0] = 2.0 * s0; sv[1] = 2.0 * s1; sv[2] = 2.0 * s2; }
        } else {
            acc0 += s0;
            acc1 += s1;
            acc2 += s2;
            if (sv) { sv[0] = s0; sv[1] = s1; sv[2] = s2; }
        }
    }
    x->row_out[ri * 3 + 0] = acc0;
    x->row_out[ri * 3 + 1] = acc1;
    x->row_out[ri * 3 + 2] = acc2;
}

/* The sums of row units g0..g1-1 (indices into the tile's rows), their
   distances taken by runs of consecutive units of at most ROW_TREES trees
   (at least one unit) in one call each: against the column units from c0
   off the diagonal, from the run's first unit on it. */
static void tile_group(const TileCtx *x, int64_t g0, int64_t g1, Work *w, double **dist,
                       size_t *cap)
{
    for (int64_t s0 = g0, s1; s0 < g1; s0 = s1) {
        const int64_t u0 = x->r0 + s0;
        for (s1 = s0 + 1; s1 < g1 && x->uoff[x->r0 + s1 + 1] - x->uoff[u0] <= ROW_TREES; s1++) {}
        const int64_t v0 = x->is_diag ? u0 : x->c0, nb = x->uoff[x->c1] - x->uoff[v0];
        const int have = tile_row_distances(x, u0, x->r0 + s1, v0, w, dist, cap) == 0;
        for (int64_t ri = s0; ri < s1; ri++) {
            const int64_t k = x->uoff[x->r0 + ri] - x->uoff[u0];
            /* on the diagonal, unit ri against the units from itself on */
            const int64_t skip = x->is_diag ? k : 0;
            tile_unit_sums(x, ri, x->is_diag ? x->r0 + ri : x->c0,
                           have ? *dist + k * nb + skip : NULL, nb, w);
        }
    }
}

/* Task t of a tile: on a diagonal tile the row groups t and ng - 1 - t of
   DIAG_GROUP units (a short group and a long one), each unit against the
   units from itself on; off the diagonal the row units t * TILE_GROUP ..
   + TILE_GROUP - 1 (tile_group); the sums per row unit as before, in the
   same order. */
static void tile_task(void *vctx, int64_t t, Work *w)
{
    TileCtx *x = vctx;
    const int64_t nr = x->r1 - x->r0;
    double *dist = NULL;
    size_t cap = 0;
    if (!x->is_diag) {
        const int64_t g0 = t * TILE_GROUP;
        tile_group(x, g0, nr - g0 < TILE_GROUP ? nr : g0 + TILE_GROUP, w, &dist, &cap);
    } else {
        const int64_t ng = (nr + DIAG_GROUP - 1) / DIAG_GROUP;
        for (int half = 0; half < 2; half++) {
            const int64_t g = half == 0 ? t : ng - 1 - t;
            if (half == 1 && g == t) break;
            const int64_t g0 = g * DIAG_GROUP;
            tile_group(x, g0, nr - g0 < DIAG_GROUP ? nr : g0 + DIAG_GROUP, w, &dist, &cap);
        }
    }
    free(dist);
}

PyDoc_STRVAR(tile_doc,
"tile(lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr, dcost, icost, rmat,\n"
"     unit, uoff, utree, ucount, sizes, r0, r1, c0, c1, want_s,\n"
"     s_out, row_out, diag_out, woff, within_out, threads, trusted=False)\n\n"
"One tile pair of the all-pairs sums: units [r0, r1) x [c0, c1); see\n"
"synagree.distance.sums.run_tile for the outputs.");

static PyObject *py_tile(PyObject *self, PyObject *args)
{
    PyObject *o[N_PACK], *ouoff, *outree, *oucount, *osizes, *os, *orow, *odiag, *owoff, *owithin;
    int unit, want_s, threads, trusted = 0;
    Py_ssize_t r0, r1, c0, c1;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOOOOOpOOOOnnnnpOOOOOi|p", &o[0], &o[1], &o[2], &o[3],
                          &o[4], &o[5], &o[6], &o[7], &o[8], &o[9], &o[10], &o[11], &o[12],
                          &o[13], &unit, &ouoff, &outree, &oucount, &osizes, &r0, &r1, &c0,
                          &c1, &want_s, &os, &orow, &odiag, &owoff, &owithin, &threads,
                          &trusted))
        return NULL;
    enum { UOFF = N_PACK, UTREE, UCOUNT, SIZES, S, ROW, DIAG, WOFF, WITHIN, NB };
    Buf b[NB] = {{{0}, 0}};
    Pack p; Costs c;
    PyObject *ret = NULL;
    if (take_pack(o, b, unit, trusted, &p, &c)) goto done;
    if (take(ouoff, &b[UOFF], "uoff", 8, K_INT, 1, 0)) goto done;
    Py_ssize_t U = items(&b[UOFF]) - 1;
    if (!(0 <= r0 && r0 <= r1 && r1 <= U && 0 <= c0 && c0 <= c1 && c1 <= U) ||
        (r0 == c0 && r1 != c1) || (r0 != c0 && c0 < r1)) {
        PyErr_SetString(PyExc_ValueError, "tile span out of range, or a diagonal tile that is not square");
        goto done;
    }
    const int64_t *uoff = b[UOFF].v.buf;
    for (Py_ssize_t u = 0; u < U; u++) {
        if (uoff[0] != 0 || uoff[u + 1] < uoff[u]) {
            PyErr_SetString(PyExc_ValueError, "uoff: offsets must start at 0 and not decrease");
            goto done;
        }
    }
    Py_ssize_t nv = uoff[U];
    Py_ssize_t nr = r1 - r0, nc = c1 - c0;
    if (take(outree, &b[UTREE], "utree", 8, K_INT, nv, 0) ||
        take(oucount, &b[UCOUNT], "ucount", 8, K_FLOAT, nv, 0) ||
        take(osizes, &b[SIZES], "sizes", 8, K_FLOAT, p.K, 0) ||
        take(os, &b[S], "s_out", 8, K_FLOAT, want_s ? nr * nc * 3 : 0, 1) ||
        take(orow, &b[ROW], "row_out", 8, K_FLOAT, nr * 3, 1) ||
        take(odiag, &b[DIAG], "diag_out", 8, K_FLOAT, nr * 3, 1) ||
        take(owoff, &b[WOFF], "woff", 8, K_INT, U + 1, 0) ||
        take(owithin, &b[WITHIN], "within_out", 8, K_FLOAT, 0, 1) ||
        check_trees(&p, b[UTREE].v.buf, nv, "utree"))
        goto done;
    const int64_t *woff = b[WOFF].v.buf;
    if (r0 == c0) {
        /* the distinct-tree pairs of the tile's units must fit in within_out */
        for (Py_ssize_t u = r0; u < r1; u++) {
            int64_t k = uoff[u + 1] - uoff[u];
            if (woff[u] < 0 || woff[u] + k * (k - 1) / 2 > items(&b[WITHIN])) {
                PyErr_SetString(PyExc_ValueError, "within_out too short for the units' pairs");
                goto done;
            }
        }
    }
    TileCtx x = {&p, &c, uoff, b[UTREE].v.buf, woff, b[UCOUNT].v.buf, b[SIZES].v.buf,
                 r0, r1, c0, c1, nc, want_s, r0 == c0,
                 b[S].v.buf, b[ROW].v.buf, b[DIAG].v.buf, b[WITHIN].v.buf};
    int64_t ntask = r0 == c0 ? ((nr + DIAG_GROUP - 1) / DIAG_GROUP + 1) / 2
                             : (nr + TILE_GROUP - 1) / TILE_GROUP;
    ret = run_released(tile_task, &x, ntask, &p, &c, threads);
done:
    pack_free(&p);
    release_all(b, NB);
    return ret;
}

/* ------------------------------------------------------------------------ */

/* ------------------------------------------------------------------------ */
/* check_pack                                                                */
/* ------------------------------------------------------------------------ */

PyDoc_STRVAR(check_pack_doc,
"check_pack(lab, lml, noff, kr, koff, rlab, rlml, rkr, rkoff, cl, cr) -> int\n\n"
"Check a pack as every kernel call does (offsets, trees well formed in both\n"
"orientations, label ids >= 0) and return the number of label ids it uses\n"
"(largest + 1).  A pack that passed, with costs covering that many labels,\n"
"may be given to the kernels with trusted=True: they then skip these\n"
"O(nodes) checks.");

static PyObject *py_check_pack(PyObject *self, PyObject *args)
{
    PyObject *o[B_DC];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOOOOOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5],
                          &o[6], &o[7], &o[8], &o[9], &o[10]))
        return NULL;
    Buf b[B_DC] = {{{0}, 0}};
    Pack p;
    int64_t labels = 0;
    PyObject *ret = NULL;
    if (take_trees(o, b, &p) == 0 && check_shapes(&p, &labels) == 0)
        ret = PyLong_FromLongLong((long long)labels);
    release_all(b, B_DC);
    return ret;
}

/* ------------------------------------------------------------------------ */
/* ted_pair: one pair of trees, given by their own arrays                    */
/* ------------------------------------------------------------------------ */

/* A single pair is a few microseconds of work: building a pack for it, or
   allocating work buffers, would cost ten times that.  So the pair's arrays
   are taken as they are (a FlatTree's), checked in O(nodes), and small pairs
   run with the GIL held in work buffers kept between calls. */
#define SMALL_PAIR 256      /* larger trees: own buffers, the GIL released */

static Work kept_work;      /* the small pairs' buffers (float64-sized cells; either type) */
static int32_t *plain_costs;    /* 0, 1, 1, ...: plain unit insert/delete costs */
static size_t plain_len;
static const int32_t plain_ren[2] = {0, 1};

/* One tree's 6 arrays (b[0..5]) and its 2 cost estimates: well formed in
   both orientations, labels >= 0; *top = its largest label id. */
static int take_one_tree(PyObject *const *o, Buf *b, int second, int64_t *cl,
                         int64_t *cr, int32_t *top)
{
    static const char *names[2][6] = {
        {"t1.labels", "t1.lml", "t1.keyroots", "t1.r_labels", "t1.r_lml", "t1.r_keyroots"},
        {"t2.labels", "t2.lml", "t2.keyroots", "t2.r_labels", "t2.r_lml", "t2.r_keyroots"}};
    const char *which = second ? "t2" : "t1";
    for (int k = 0; k < 6; k++)
        if (take(o[k], &b[k], names[second][k], 4, K_INT, 0, 0)) return -1;
    const Py_ssize_t n = items(&b[0]);
    if (n < 1 || items(&b[1]) != n || items(&b[3]) != n || items(&b[4]) != n) {
        PyErr_Format(PyExc_ValueError, "%s: labels and leftmost leaves of both orientations "
                     "must have the same length (at least 1 node)", which);
        return -1;
    }
    *cl = PyLong_AsLongLong(o[6]);
    *cr = PyLong_AsLongLong(o[7]);
    if ((*cl == -1 || *cr == -1) && PyErr_Occurred()) return -1;
    const int64_t noff[2] = {0, n}, koff[2] = {0, items(&b[2])}, rkoff[2] = {0, items(&b[5])};
    if (check_trees_shape(noff, koff, b[1].v.buf, b[2].v.buf, 1) ||
        check_trees_shape(noff, rkoff, b[4].v.buf, b[5].v.buf, 1)) {
        PyObject *type, *value, *tb;   /* name the tree in the message */
        PyErr_Fetch(&type, &value, &tb);
        PyErr_Format(PyExc_ValueError, "%s: not a well-formed FlatTree (%S)", which, value);
        Py_XDECREF(type); Py_XDECREF(value); Py_XDECREF(tb);
        return -1;
    }
    const int32_t *lab = b[0].v.buf, *rlab = b[3].v.buf;
    int32_t t = 0;
    for (Py_ssize_t q = 0; q < n; q++) {
        if (lab[q] < 0 || rlab[q] < 0) {
            PyErr_Format(PyExc_ValueError, "%s: negative label id", which);
            return -1;
        }
        t = lab[q] > t ? lab[q] : t;
        t = rlab[q] > t ? rlab[q] : t;
    }
    *top = t;
    return 0;
}

/* plain_costs covering label ids 0..top */
static int grow_plain(int32_t top)
{
    if ((size_t)top < plain_len) return 0;
    size_t n = (size_t)top + 1 > 2 * plain_len ? (size_t)top + 1 : 2 * plain_len;
    int32_t *c = malloc(sizeof(int32_t) * n);
    if (!c) { PyErr_NoMemory(); return -1; }
    c[0] = 0;
    for (size_t l = 1; l < n; l++) c[l] = 1;
    free(plain_costs);
    plain_costs = c;
    plain_len = n;
    return 0;
}

/* Do the settings plainly let the C kernels run (synagree.base.native)?
   SYNAGREE_KERNELS unset, blank, auto or c, and SYNAGREE_THREADS unset, blank
   or a whole number 1..MAX_THREADS (the same bound as native.MAX_THREADS).
   Anything else: no, and the caller takes the general path, which reads the
   settings as every kernel does (numba, or a usage error naming the variable).
   getenv: os.environ's changes reach the C environment (putenv). */
#define MAX_THREADS 1024

static int settings_allow_c(void)
{
    const char *k = getenv("SYNAGREE_KERNELS");
    if (k) {
        while (*k == ' ' || *k == '\t') k++;
        size_t n = strlen(k);
        while (n && (k[n - 1] == ' ' || k[n - 1] == '\t')) n--;
        int ok = n == 0 || (n == 1 && (k[0] == 'c' || k[0] == 'C'));
        if (n == 4) {
            char low[4];
            for (int q = 0; q < 4; q++) low[q] = (char)(k[q] | 0x20);
            ok = memcmp(low, "auto", 4) == 0;
        }
        if (!ok) return 0;
    }
    const char *t = getenv("SYNAGREE_THREADS");
    if (t) {
        while (*t == ' ' || *t == '\t') t++;
        long v = 0;
        int digits = 0;
        for (; *t >= '0' && *t <= '9' && v <= MAX_THREADS; t++, digits++) v = v * 10 + (*t - '0');
        while (*t == ' ' || *t == '\t') t++;
        if (*t != 0 || (digits && (v < 1 || v > MAX_THREADS))) return 0;
    }
    return simd_value_ok();
}

typedef struct {
    const int32_t *L1, *LM1, *KR1, *L2, *LM2, *KR2;
    size_t n1, n2;
    int64_t k1, k2;
    const Costs *c;
    Work *w;
    double d;
} OnePair;

static void one_pair(OnePair *x)
{
    const Costs *c = x->c;
    if (c->int_cells)
        x->d = zs_i32(x->L1, x->LM1, x->KR1, x->n1, 0, x->k1, x->L2, x->LM2, x->KR2, x->n2, 0,
                      x->k2, (const int32_t *)c->dcost, (const int32_t *)c->icost,
                      (const int32_t *)c->rmat, c->rstride, c->unit, c->plain, x->w);
    else
        x->d = zs_f64(x->L1, x->LM1, x->KR1, x->n1, 0, x->k1, x->L2, x->LM2, x->KR2, x->n2, 0,
                      x->k2, (const double *)c->dcost, (const double *)c->icost,
                      (const double *)c->rmat, c->rstride, c->unit, 0, x->w);
}

PyDoc_STRVAR(ted_pair_doc,
"ted_pair(lab1, lml1, kr1, rlab1, rlml1, rkr1, cl1, cr1,\n"
"         lab2, lml2, kr2, rlab2, rlml2, rkr2, cl2, cr2, dcost, icost, rmat, unit)\n\n"
"TED between two trees given by their arrays (a FlatTree's labels, lml,\n"
"keyroots, r_labels, r_lml, r_keyroots, cost_left, cost_right each), in the\n"
"orientation pairs() would take.  dcost None: plain unit costs (icost and\n"
"rmat None too).  Each tree is checked, O(nodes).  None when the settings\n"
"(SYNAGREE_KERNELS, SYNAGREE_THREADS) are not plainly for C: the caller\n"
"then takes the general path, which reads them.");

static PyObject *py_ted_pair(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 20) {
        PyErr_Format(PyExc_TypeError, "ted_pair takes 20 arguments (%zd given)", nargs);
        return NULL;
    }
    if (!settings_allow_c()) Py_RETURN_NONE;
    Buf b[15] = {{{0}, 0}};
    PyObject *ret = NULL;
    int64_t cl1, cr1, cl2, cr2;
    int32_t top1, top2;
    Costs c;
    Work own = {0, 0, NULL, NULL, NULL};
    if (take_one_tree(args, b, 0, &cl1, &cr1, &top1) ||
        take_one_tree(args + 8, b + 6, 1, &cl2, &cr2, &top2))
        goto done;
    const int32_t top = top1 > top2 ? top1 : top2;
    if (args[16] == Py_None) {
        if (args[17] != Py_None || args[18] != Py_None) {
            PyErr_SetString(PyExc_TypeError, "dcost None (plain unit costs) needs icost and "
                            "rmat None");
            goto done;
        }
        if (grow_plain(top)) goto done;
        c.dcost = plain_costs; c.icost = plain_costs; c.rmat = plain_ren;
        c.rstride = 2; c.unit = 1; c.int_cells = 1; c.plain = 1; c.simd = 0; c.sym = 1;
        c.xfn = NULL;
    } else {
        int unit = PyObject_IsTrue(args[19]);
        Py_ssize_t L;
        if (unit < 0 || take_costs(args[16], args[17], args[18], b + 12, unit, &c, &L))
            goto done;
        if ((Py_ssize_t)top >= L) {
            PyErr_SetString(PyExc_ValueError, "label id out of range of the costs");
            goto done;
        }
    }
    /* the orientation pairs() takes (kernels.pairs: same distance, same cells) */
    const int left = cl1 * cl2 <= cr1 * cr2;
    const int o = left ? 0 : 3;
    OnePair x = {b[o].v.buf, b[o + 1].v.buf, b[o + 2].v.buf,
                 b[6 + o].v.buf, b[6 + o + 1].v.buf, b[6 + o + 2].v.buf,
                 (size_t)items(&b[0]), (size_t)items(&b[6]),
                 items(&b[o + 2]), items(&b[6 + o + 2]), &c, NULL, 0.0};
    const size_t maxn = x.n1 > x.n2 ? x.n1 : x.n2;
    if (maxn <= SMALL_PAIR) {
        if (kept_work.maxn < maxn) {   /* grown to 64, 128, 256 nodes */
            Work w;
            size_t want = kept_work.maxn ? 2 * kept_work.maxn : 64;
            while (want < maxn) want *= 2;
            if (work_init(&w, want, 8)) { PyErr_NoMemory(); goto done; }
            work_free(&kept_work);
            kept_work = w;
        }
        x.w = &kept_work;
        one_pair(&x);   /* the GIL held: kept_work is this thread's alone */
    } else {
        if (work_init(&own, maxn, c.int_cells ? 4 : 8)) { PyErr_NoMemory(); goto done; }
        x.w = &own;
        Py_BEGIN_ALLOW_THREADS
        one_pair(&x);
        Py_END_ALLOW_THREADS
        work_free(&own);
    }
    ret = PyFloat_FromDouble(x.d);
done:
    release_all(b, 15);
    return ret;
}

PyDoc_STRVAR(simd_lanes_doc,
"simd_lanes() -> int\n\n"
"Lanes of the inter-pair SIMD kernel the next call runs (int32 cells): 16\n"
"AVX-512F, 8 AVX2, 4 SSE4.1, or 0 (the scalar kernel): the widest level the CPU\n"
"has, at most SYNAGREE_SIMD's cap (avx512, avx2, sse4.1; off or 0: none; read\n"
"at every call), that passed its self-check against the scalar kernel (run\n"
"once per process and level; a level that fails is disabled, with one line\n"
"on stderr).");

static PyObject *py_simd_lanes(PyObject *self, PyObject *unused)
{
    (void)self; (void)unused;
    return PyLong_FromLong(simd_level());
}

static PyMethodDef methods[] = {
    {"pairs", py_pairs, METH_VARARGS, pairs_doc},
    {"all_pairs", py_all_pairs, METH_VARARGS, all_pairs_doc},
    {"tile", py_tile, METH_VARARGS, tile_doc},
    {"check_pack", py_check_pack, METH_VARARGS, check_pack_doc},
    {"simd_lanes", py_simd_lanes, METH_NOARGS, simd_lanes_doc},
    {"ted_pair", (PyCFunction)(void (*)(void))py_ted_pair, METH_FASTCALL, ted_pair_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "synagree.distance._tedc",
    "Tree-edit-distance kernels in C (the twin of kernels_numba; see the source header).",
    -1, methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__tedc(void)
{
    PyObject *m = PyModule_Create(&module);
    /* the sources this was built from (pyproject.toml), so that a build older than
       its sources is noticed (synagree.base.native.built_from) */
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) != 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
