/* Inter-pair SIMD Zhang-Shasha for int32 cells, included by _tedc.c.
 *
 * The idea of SWIPE (Rognes 2011, for Smith-Waterman) applied to the kernel
 * of _tedc_zs.h: one tree (tree 1) against up to V others (tree 2 of each
 * lane) in the V int32 lanes of a vector (V = 4 SSE4.1, 8 AVX2, 16
 * AVX-512F).  Every lane runs its own min-chain, so the latency of one chain
 * (3 cycles a cell in the scalar kernel) is shared by V cells.
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
 * Layout, lane-interleaved (cell of lane l at [... * V + l]):
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
 * Widths and dispatch: the body (_tedc_simd_body.h) is compiled once per
 * instruction set, each with a target attribute (no compile flag needed):
 * SSE4.1 (4 lanes), AVX2 (8), AVX-512F (16).  The widest the CPU has
 * (__builtin_cpu_supports) and SYNAGREE_SIMD allows runs (simd_level);
 * before a width first runs in a process, it computes a fixed set of pairs
 * and compares them with the scalar kernel (simd_selfcheck): a width that
 * disagrees is disabled for the process, with one line on stderr, and the
 * next lower width runs.  No width, or SYNAGREE_SIMD=off: the scalar
 * kernel.  NEON (ARM) is not written: there is no ARM machine to test it.
 */

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define TEDC_AVX2 1          /* the x86-64 SIMD kernels are compiled */
#include <immintrin.h>
#include <stdio.h>
#else
#define TEDC_AVX2 0
#endif

#define SIMD_MAXLANES 16     /* the widest (AVX-512F); arrays are sized for it */
#define SIMD_MAXN 512        /* larger trees: the scalar kernel */
#define SIMD_MIN_LANES 2     /* fewer pairs in a batch: the scalar kernel */

/* A level's index: 0 SSE4.1 (4 lanes), 1 AVX2 (8), 2 AVX-512F (16) */
static const char *const simd_names[3] = {"SSE4.1", "AVX2", "AVX-512"};
static int simd_index(int lanes) { return lanes == 16 ? 2 : lanes == 8 ? 1 : 0; }

/* Does the CPU have the level of `lanes` (and is it compiled)? */
static int simd_cpu_has(int lanes)
{
#if TEDC_AVX2
    static int known[3] = {-1, -1, -1};
    const int k = simd_index(lanes);
#if defined(TEDC_SIMD_EMU16)
    if (k == 2) return 1;   /* a test build: the 16 lanes in plain C */
#endif
    if (known[k] < 0) {
        __builtin_cpu_init();
        known[k] = k == 2 ? __builtin_cpu_supports("avx512f") != 0
                 : k == 1 ? __builtin_cpu_supports("avx2") != 0
                 : __builtin_cpu_supports("sse4.1") != 0;
    }
    return known[k];
#else
    (void)lanes;
    return 0;
#endif
}

/* A SYNAGREE_SIMD-like value (any case, blanks around): the widest lanes it
   allows, 16 for unset, blank, auto, on, 1 or avx512; 8 avx2; 4 sse4.1; 0 off
   or 0; -1 anything else (which synagree.base.native.simd refuses before a
   kernel runs). */
static int simd_parse(const char *s, int unset)
{
    if (!s) return unset;
    while (*s == ' ' || *s == '\t') s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    char low[8] = {0};
    if (n >= sizeof low) return -1;
    for (size_t q = 0; q < n; q++) low[q] = (char)(s[q] | 0x20);
    if (n == 0 || strcmp(low, "auto") == 0 || strcmp(low, "on") == 0 || strcmp(low, "1") == 0 ||
        strcmp(low, "avx512") == 0)
        return 16;
    if (strcmp(low, "avx2") == 0) return 8;
    if (strcmp(low, "sse4.1") == 0) return 4;
    return strcmp(low, "off") == 0 || strcmp(low, "0") == 0 ? 0 : -1;
}

/* SYNAGREE_SIMD, read per kernel call (simd_parse) */
static int simd_env(void) { return simd_parse(getenv("SYNAGREE_SIMD"), 16); }

/* Is SYNAGREE_SIMD one of the values synagree.base.native.simd takes?
   (ted_pair's fast path.) */
static int simd_value_ok(void) { return simd_env() >= 0; }

/* Buffers of the SIMD kernel, grown as needed, one set per thread (Work). */
typedef struct {
    size_t cap;         /* int32 items allocated */
    int32_t *mem;
    /* the lanes whose columns (plain unit costs) are at the front of mem:
       a batch of the same trees against another tree 1 reuses them */
    int key_nl, key_v;
    const int32_t *key[SIMD_MAXLANES];
    size_t W, leaves, n2max, npl, rootcol[SIMD_MAXLANES];
} SimdBuf;

/* One tree of a lane (tree 2), in the orientation of the batch */
typedef struct {
    const int32_t *L, *LM, *KR;
    size_t n;
    int64_t k, ke;
    size_t w;           /* the width of its sweep (sweep_width) */
} Side;

/* The kernel of one width: TED of a tree 1 against nl lanes (zs_i32_x*) */
typedef int (*SimdFn)(const int32_t *L1, const int32_t *LM1, const int32_t *kr1, size_t n1,
                      int64_t k1, int64_t k1e, const Side *lanes, int nl,
                      const int32_t *dcost, const int32_t *icost, const int32_t *rmat,
                      int plain, Work *wk, double *out);

static void simd_free(Work *w)
{
    SimdBuf *s = (SimdBuf *)w->simd;
    if (s) { free(s->mem); free(s); }
    w->simd = NULL;
}

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
        /* 64-byte aligned (AVX-512's aligned loads); calloc-like: the read
           at column -1 of fd's row 0 is of initialised memory */
        int32_t *m = NULL;
        if (posix_memalign((void **)&m, 64, want * sizeof(int32_t)) != 0) return NULL;
        memset(m, 0, want * sizeof(int32_t));
        if (s->mem) memcpy(m, s->mem, s->cap * sizeof(int32_t));   /* the cached columns */
        free(s->mem);
        s->mem = m;
        s->cap = want;
    }
    return s->mem;
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

#if TEDC_AVX2

/* ---- SSE4.1: 4 lanes ---- */
#define X(name) name##_sse41
#define TARGET_ATTR __attribute__((target("sse4.1")))
#define VL 4
#define VI __m128i
#define VM __m128i
#define V_SET1(x) _mm_set1_epi32(x)
#define V_LOAD(p) _mm_load_si128((const __m128i *)(p))
#define V_LOADU(p) _mm_loadu_si128((const __m128i *)(p))
#define V_STORE(p, v) _mm_store_si128((__m128i *)(p), (v))
#define V_ADD(a, b) _mm_add_epi32((a), (b))
#define V_SUB(a, b) _mm_sub_epi32((a), (b))
#define V_MIN(a, b) _mm_min_epi32((a), (b))
#define V_EQ(a, b) _mm_cmpeq_epi32((a), (b))
#define V_GT(a, b) _mm_cmpgt_epi32((a), (b))
#define M_OR(a, b) _mm_or_si128((a), (b))
#define V_MASK(v) (v)
#define V_SEL(a, b, m) _mm_blendv_epi8((a), (b), (m))
#define V_DEC(v, m) _mm_add_epi32((v), (m))
#define V_INC(v, m) _mm_sub_epi32((v), (m))
#define VC __m128
#define VCM __m128
#define C_FROM(v) _mm_castsi128_ps(v)
#define C_TO(c) _mm_castps_si128(c)
#define C_MASK(cat, k) _mm_castsi128_ps(_mm_slli_epi32((cat), 31 - (k)))
#define C_SEL(a, b, m) _mm_blendv_ps((a), (b), (m))
#define V_LANES(t, q) _mm_set_epi32((t)[(q)[3]], (t)[(q)[2]], (t)[(q)[1]], (t)[(q)[0]])
#include "_tedc_simd_body.h"   /* which #undefs the macros */

/* ---- AVX2: 8 lanes (the code of the kernel before it was made generic) ---- */
#define X(name) name##_avx2
#define TARGET_ATTR __attribute__((target("avx2")))
#define VL 8
#define VI __m256i
#define VM __m256i
#define V_SET1(x) _mm256_set1_epi32(x)
#define V_LOAD(p) _mm256_load_si256((const __m256i *)(p))
#define V_LOADU(p) _mm256_loadu_si256((const __m256i *)(p))
#define V_STORE(p, v) _mm256_store_si256((__m256i *)(p), (v))
#define V_ADD(a, b) _mm256_add_epi32((a), (b))
#define V_SUB(a, b) _mm256_sub_epi32((a), (b))
#define V_MIN(a, b) _mm256_min_epi32((a), (b))
#define V_EQ(a, b) _mm256_cmpeq_epi32((a), (b))
#define V_GT(a, b) _mm256_cmpgt_epi32((a), (b))
#define M_OR(a, b) _mm256_or_si256((a), (b))
#define V_MASK(v) (v)
#define V_SEL(a, b, m) _mm256_blendv_epi8((a), (b), (m))
#define V_DEC(v, m) _mm256_add_epi32((v), (m))
#define V_INC(v, m) _mm256_sub_epi32((v), (m))
#define VC __m256
#define VCM __m256
#define C_FROM(v) _mm256_castsi256_ps(v)
#define C_TO(c) _mm256_castps_si256(c)
#define C_MASK(cat, k) _mm256_castsi256_ps(_mm256_slli_epi32((cat), 31 - (k)))
#define C_SEL(a, b, m) _mm256_blendv_ps((a), (b), (m))
/* a broadcast load and a blend a lane: cheaper than a gather on Zen 3 */
#define V_LANES(t, q) simd_lanes8_avx2((t), (q))
__attribute__((target("avx2"), always_inline)) static inline __m256i
simd_lanes8_avx2(const int32_t *t, const int32_t *q)
{
    __m256i g = _mm256_set1_epi32(t[q[0]]);
    g = _mm256_blend_epi32(g, _mm256_set1_epi32(t[q[1]]), 0x02);
    g = _mm256_blend_epi32(g, _mm256_set1_epi32(t[q[2]]), 0x04);
    g = _mm256_blend_epi32(g, _mm256_set1_epi32(t[q[3]]), 0x08);
    g = _mm256_blend_epi32(g, _mm256_set1_epi32(t[q[4]]), 0x10);
    g = _mm256_blend_epi32(g, _mm256_set1_epi32(t[q[5]]), 0x20);
    g = _mm256_blend_epi32(g, _mm256_set1_epi32(t[q[6]]), 0x40);
    return _mm256_blend_epi32(g, _mm256_set1_epi32(t[q[7]]), 0x80);
}
#include "_tedc_simd_body.h"   /* which #undefs the macros */

/* ---- AVX-512F: 16 lanes, masks in __mmask16 ---- */
#define X(name) name##_avx512
#define TARGET_ATTR __attribute__((target("avx512f")))
#define VL 16
#define VI __m512i
#define VM __mmask16
#define V_SET1(x) _mm512_set1_epi32(x)
#define V_LOAD(p) _mm512_load_si512((const void *)(p))
#define V_LOADU(p) _mm512_loadu_si512((const void *)(p))
#define V_STORE(p, v) _mm512_store_si512((void *)(p), (v))
#define V_ADD(a, b) _mm512_add_epi32((a), (b))
#define V_SUB(a, b) _mm512_sub_epi32((a), (b))
#define V_MIN(a, b) _mm512_min_epi32((a), (b))
#define V_EQ(a, b) _mm512_cmpeq_epi32_mask((a), (b))
#define V_GT(a, b) _mm512_cmpgt_epi32_mask((a), (b))
#define M_OR(a, b) ((__mmask16)((a) | (b)))
#define V_MASK(v) _mm512_test_epi32_mask((v), (v))
#define V_SEL(a, b, m) _mm512_mask_blend_epi32((m), (a), (b))
#define V_DEC(v, m) _mm512_mask_sub_epi32((v), (m), (v), _mm512_set1_epi32(1))
#define V_INC(v, m) _mm512_mask_add_epi32((v), (m), (v), _mm512_set1_epi32(1))
#define VC __m512i
#define VCM __mmask16
#define C_FROM(v) (v)
#define C_TO(c) (c)
#define C_MASK(cat, k) _mm512_test_epi32_mask((cat), _mm512_set1_epi32(1 << (k)))
#define C_SEL(a, b, m) _mm512_mask_blend_epi32((m), (a), (b))
#define V_LANES(t, q) _mm512_i32gather_epi32(_mm512_load_si512((const void *)(q)), (t), 4)
#include "_tedc_simd_body.h"   /* which #undefs the macros */

#endif  /* TEDC_AVX2 */

#if defined(TEDC_SIMD_EMU16)
/* ---- test builds only (-DTEDC_SIMD_EMU16): the 16-lane width in plain C ----
   The AVX-512 width cannot run on a CPU without AVX-512F.  This build puts in
   its place the same body with 16 lanes whose operations are written lane by
   lane with the semantics of the AVX-512F intrinsics above (masks as bits),
   and aligned loads and stores that abort unless 64-byte aligned as
   _mm512_load_si512 requires, so that tests/test_ted_simd.py can run the
   16-lane layout, batching and masks against the scalar kernel anywhere. */
#pragma GCC diagnostic ignored "-Wpsabi"   /* static functions: no ABI to keep */
typedef int32_t emu_v __attribute__((vector_size(64)));
typedef uint32_t emu_m;
static inline emu_v emu_set1(int32_t x) { emu_v v; for (int l = 0; l < 16; l++) v[l] = x; return v; }
static inline emu_v emu_loadu(const int32_t *p) { emu_v v; memcpy(&v, p, sizeof v); return v; }
static inline emu_v emu_load(const int32_t *p)
{
    if ((uintptr_t)p % 64) abort();
    return emu_loadu(p);
}
static inline void emu_store(int32_t *p, emu_v v)
{
    if ((uintptr_t)p % 64) abort();
    memcpy(p, &v, sizeof v);
}
static inline emu_v emu_min(emu_v a, emu_v b)
{
    for (int l = 0; l < 16; l++) a[l] = b[l] < a[l] ? b[l] : a[l];
    return a;
}
static inline emu_m emu_eq(emu_v a, emu_v b)
{
    emu_m m = 0;
    for (int l = 0; l < 16; l++) m |= (emu_m)(a[l] == b[l]) << l;
    return m;
}
static inline emu_m emu_gt(emu_v a, emu_v b)
{
    emu_m m = 0;
    for (int l = 0; l < 16; l++) m |= (emu_m)(a[l] > b[l]) << l;
    return m;
}
static inline emu_m emu_bit(emu_v v, int k)   /* lanes where bit k is set (k < 0: v != 0) */
{
    emu_m m = 0;
    for (int l = 0; l < 16; l++) m |= (emu_m)(k < 0 ? v[l] != 0 : (v[l] >> k) & 1) << l;
    return m;
}
static inline emu_v emu_sel(emu_v a, emu_v b, emu_m m)
{
    for (int l = 0; l < 16; l++) if (m >> l & 1) a[l] = b[l];
    return a;
}
static inline emu_v emu_lanes(const int32_t *t, const int32_t *q)
{
    if ((uintptr_t)q % 64) abort();
    emu_v v;
    for (int l = 0; l < 16; l++) v[l] = t[q[l]];
    return v;
}
#define X(name) name##_emu16
#define TARGET_ATTR
#define VL 16
#define VI emu_v
#define VM emu_m
#define V_SET1(x) emu_set1(x)
#define V_LOAD(p) emu_load((const int32_t *)(p))
#define V_LOADU(p) emu_loadu((const int32_t *)(p))
#define V_STORE(p, v) emu_store((int32_t *)(p), (v))
#define V_ADD(a, b) ((a) + (b))
#define V_SUB(a, b) ((a) - (b))
#define V_MIN(a, b) emu_min((a), (b))
#define V_EQ(a, b) emu_eq((a), (b))
#define V_GT(a, b) emu_gt((a), (b))
#define M_OR(a, b) ((a) | (b))
#define V_MASK(v) emu_bit((v), -1)
#define V_SEL(a, b, m) emu_sel((a), (b), (m))
#define V_DEC(v, m) emu_sel((v), (v) - emu_set1(1), (m))
#define V_INC(v, m) emu_sel((v), (v) + emu_set1(1), (m))
#define VC emu_v
#define VCM emu_m
#define C_FROM(v) (v)
#define C_TO(c) (c)
#define C_MASK(cat, k) emu_bit((cat), (k))
#define C_SEL(a, b, m) emu_sel((a), (b), (m))
#define V_LANES(t, q) emu_lanes((t), (q))
#include "_tedc_simd_body.h"   /* which #undefs the macros */
#endif  /* TEDC_SIMD_EMU16 */

/* The kernel of `lanes` lanes (4, 8, 16), or NULL */
static SimdFn simd_fn(int lanes)
{
#if TEDC_AVX2
#if defined(TEDC_SIMD_EMU16)
    if (lanes == 16) return zs_i32_x_emu16;   /* a test build */
#endif
    return lanes == 16 ? zs_i32_x_avx512 : lanes == 8 ? zs_i32_x_avx2
         : lanes == 4 ? zs_i32_x_sse41 : NULL;
#else
    (void)lanes;
    return NULL;
#endif
}

/* A random-like tree of n nodes for the self-check, from the generator *g:
   labels 0..4 (0 free for plain costs), leftmost leaves and keyroots
   (ascending) in postorder; returns the keyroots' count.  A random walk of
   opening and closing nodes under the root: a node's postorder index is the
   count of nodes closed before it closes, its leftmost leaf's the count
   closed before it opens. */
static size_t selfcheck_tree(uint32_t *g, size_t n, int32_t *L, int32_t *LM, int32_t *KR)
{
    size_t stack[64], depth = 0, closed = 0, opened = 1;
    for (size_t step = 0; closed + 1 < n || depth; step++) {
        *g = *g * 1664525u + 1013904223u;
        const uint32_t r = *g >> 16;
        if (opened < n && depth < 60 && (depth == 0 || r % 3 != 0)) {
            stack[depth++] = closed;
            opened++;
        } else {
            const size_t v = closed++;
            LM[v] = (int32_t)stack[--depth];
        }
    }
    LM[n - 1] = 0;   /* the root */
    for (size_t v = 0; v < n; v++) {
        *g = *g * 1664525u + 1013904223u;
        L[v] = (int32_t)((*g >> 16) % 5);
    }
    size_t k = 0;
    for (size_t v = 0; v < n; v++) {
        int key = 1;
        for (size_t u = v + 1; u < n && key; u++) key = LM[u] != LM[v];
        if (key) KR[k++] = (int32_t)v;
    }
    return k;
}

#define SELFCHECK_TREES 20   /* a full batch of 16 lanes and a partial one */
#define SELFCHECK_MAXN 31

/* Does the kernel of `lanes` give the scalar kernel's distance on a fixed
   set of pairs (5 trees against 20 of 1..31 nodes, about 1 ms; plain unit costs, whose first rows
   and leaf keyroots take the closed forms, and other integral costs; label
   0; the columns of a batch reused across trees 1)?  1 yes, 0 no, -1 out of
   memory.  The test-only variable SYNAGREE_SIMD_SELFCHECK_BREAK (a level
   name, as SYNAGREE_SIMD's) adds 1 to one of that level's distances, so
   that the tests can see a failed check. */
static int simd_selfcheck(int lanes)
{
    const SimdFn fn = simd_fn(lanes);
    if (!fn) return 0;
    enum { N = SELFCHECK_TREES, MAXN = SELFCHECK_MAXN };
    static int32_t L[N * MAXN], LM[N * MAXN], KR[N * MAXN];
    size_t n[N], off[N], koff[N + 1];
    uint32_t g = 36u;
    size_t at = 0, kat = 0;
    for (int t = 0; t < N; t++) {
        n[t] = t < 4 ? (size_t)t + 1 : 5 + (size_t)(t * 13 % (MAXN - 4));
        off[t] = at;
        koff[t] = kat;
        kat += selfcheck_tree(&g, n[t], L + at, LM + at, KR + kat);
        at += n[t];
    }
    koff[N] = kat;
    static const int32_t dplain[5] = {0, 1, 1, 1, 1}, rplain[2] = {0, 1};
    static const int32_t dother[5] = {1, 2, 1, 3, 1}, iother[5] = {2, 1, 1, 1, 3};
    static const int32_t rother[2] = {0, 2};
    const int brk = simd_parse(getenv("SYNAGREE_SIMD_SELFCHECK_BREAK"), 0) == lanes;
    Work w;
    if (work_init(&w, MAXN, sizeof(int32_t)) != 0) return -1;
    int ok = 1;
    for (int plain = 1; plain >= 0 && ok == 1; plain--) {
        const int32_t *dc = plain ? dplain : dother, *ic = plain ? dplain : iother;
        const int32_t *rm = plain ? rplain : rother;
        for (int q = 0; q < N && ok == 1; q += lanes) {
            const int nl = N - q < lanes ? N - q : lanes;
            Side sides[SIMD_MAXLANES];
            for (int l = 0; l < nl; l++) {
                const int t = q + l;
                Side s = {L + off[t], LM + off[t], KR, n[t], (int64_t)koff[t],
                          (int64_t)koff[t + 1], 0};
                s.w = sweep_width(&s);
                sides[l] = s;
            }
            static const int ones[5] = {0, 3, 7, 12, N - 1};   /* the trees 1 */
            for (int ii = 0; ii < 5 && ok == 1; ii++) {
                const int i = ones[ii];
                double d[SIMD_MAXLANES];
                if (fn(L + off[i], LM + off[i], KR, n[i], (int64_t)koff[i], (int64_t)koff[i + 1],
                       sides, nl, dc, ic, rm, plain, &w, d) != 0) {
                    ok = -1;
                    break;
                }
                if (brk && ii == 4) d[nl - 1] += 1;
                for (int l = 0; l < nl && ok == 1; l++) {
                    const int t = q + l;
                    const double e = zs_i32(L + off[i], LM + off[i], KR, n[i], (int64_t)koff[i],
                                            (int64_t)koff[i + 1], L + off[t], LM + off[t], KR,
                                            n[t], (int64_t)koff[t], (int64_t)koff[t + 1],
                                            dc, ic, rm, 2, 1, plain, &w);
                    ok = d[l] == e;
                }
            }
        }
    }
    work_free(&w);
    return ok;
}

/* The lanes of the SIMD kernel that runs now: the widest level at most
   SYNAGREE_SIMD's cap that the CPU has and that passed its self-check
   (run once per process and level, the first time it is asked; callers
   hold the GIL), or 0: the scalar kernel. */
static int simd_level(void)
{
    static int checked[3] = {-1, -1, -1};
    int cap = simd_env();
    for (int lanes = cap > 16 ? 16 : cap; lanes >= 4; lanes /= 2) {
        const int k = simd_index(lanes);
        if (!simd_cpu_has(lanes)) continue;
        if (checked[k] < 0) {
            const int r = simd_selfcheck(lanes);
            if (r < 0) continue;   /* no memory for the check: not this call */
            checked[k] = r;
            if (!r) {
                fprintf(stderr, "synagree: the %s SIMD kernel disagreed with the scalar "
                        "kernel in its self-check; it is disabled in this process\n",
                        simd_names[k]);
                fflush(stderr);
            }
        }
        if (checked[k]) return lanes;
    }
    return 0;
}
