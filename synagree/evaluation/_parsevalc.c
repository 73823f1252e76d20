/* PARSEVAL as EVALB computes it: the compiled scorer (synagree.evaluation.parseval).
 *
 * The same steps as the Python scorer in parseval.py, which is the reference
 * (and the only path for DEBUG output and per-bracket detail): EVALB's
 * read_line over each line, then calc_result (the 2006 length fix, massage,
 * multiset matching, crossing, tagging).  Counts only: the percentages are
 * computed in Python with EVALB's formulas.  Lines are Python str objects of
 * Latin-1 characters (one per input byte), read in place.
 *
 * score(gold, test, delete, delete_for_length, quote_labels, eq_labels,
 *       eq_words, labeled) returns one tuple per line
 *   (status, length, matched, gold, test, crossing, words, correct_tags,
 *    wn1, wn2, bad_word)
 * (a Words unmatch row also carries the two words), or None when any line
 * needs the Python reader: an input error to report
 * with its line, or a line beyond EVALB's fixed buffers (warned about there).
 * Why compiled: the whole `synagree compare` on 2,400 sentences must stay
 * within twice the compiled EVALB's time (benchmarks/bench_parseval.py).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""  /* the declarative build records none: mtimes are compared */
#endif

/* EVALB's fixed buffers (evalb.c); beyond them the Python path warns */
#define LIM_LINE 5000
#define LIM_WORDS 200
#define LIM_BRACKETS 200
#define LIM_QUOTES 20
#define LIM_WORD 100
#define LIM_LABEL 30

typedef struct { const unsigned char *s; Py_ssize_t n; } str_t;
typedef struct { str_t word, label; } term_t;
typedef struct { Py_ssize_t start, end; str_t label; int result; } br_t;
typedef struct { str_t word, label; Py_ssize_t index, bracket, ends, nends; } quote_t;

typedef struct {
    term_t *t; Py_ssize_t nt;
    br_t *b; Py_ssize_t nb;
    quote_t *q; Py_ssize_t nq;
    Py_ssize_t *ends; Py_ssize_t nends;
    Py_ssize_t *stack;
    Py_ssize_t *head, *next; /* brackets by start word: head[start], then next[j] */
    Py_ssize_t length, nterms, cap;
    int over; /* beyond one of EVALB's buffers */
} line_t;

/* first[c]: some member begins with byte c; empty: some member is "".  A
   label whose first byte begins no member is in no list, which settles most
   lookups without a comparison (exact: the loop still decides the rest) */
typedef struct { str_t *v; Py_ssize_t n; unsigned char first[256]; int empty; } list_t;
typedef struct { str_t a, b; } pair_t;
typedef struct { pair_t *v; Py_ssize_t n; unsigned char first[256]; int empty; } pairs_t;
typedef struct { list_t del, len, quote; pairs_t eql, eqw; int labeled; } params_t;

/* C's isspace in the "C" locale, and the bytes that end a label or a word */
static unsigned char WS[256], TERM[256];
static void init_classes(void) {
    const char *ws = " \t\n\v\f\r";
    for (const char *c = ws; *c; c++) WS[(unsigned char)*c] = TERM[(unsigned char)*c] = 1;
    TERM['('] = TERM[')'] = 1;
}
static inline int is_ws(unsigned char c) { return WS[c]; }
static inline int is_term(unsigned char c) { return TERM[c]; }
static inline int may_hold(const unsigned char *first, int empty, str_t x) {
    return x.n ? first[x.s[0]] : empty;
}
/* labels and words are a few bytes: a byte loop beats a call to memcmp (a
   third of the kernel's time went to memcmp and its PLT stub) */
static inline int eq(str_t a, str_t b) {
    if (a.n != b.n) return 0;
    for (Py_ssize_t k = 0; k < a.n; k++)
        if (a.s[k] != b.s[k]) return 0;
    return 1;
}
static int in_list(const list_t *l, str_t x) {
    if (!may_hold(l->first, l->empty, x)) return 0;
    for (Py_ssize_t i = 0; i < l->n; i++) if (eq(l->v[i], x)) return 1;
    return 0;
}
static int in_pairs(const pairs_t *p, str_t x, str_t y) {
    if (eq(x, y)) return 1;
    if (!may_hold(p->first, p->empty, x)) return 0; /* x is no pair's member */
    for (Py_ssize_t i = 0; i < p->n; i++)
        if ((eq(p->v[i].a, x) && eq(p->v[i].b, y)) || (eq(p->v[i].b, x) && eq(p->v[i].a, y)))
            return 1;
    return 0;
}
static int is_quote_word(str_t w) {
    return w.n == 1 && (w.s[0] == '\'' || w.s[0] == '"' || w.s[0] == '/');
}

static int ensure(line_t *L, Py_ssize_t n) {
    Py_ssize_t cap = n + LIM_QUOTES + 2;
    if (cap <= L->cap) return 0;
    free(L->t); free(L->b); free(L->q); free(L->ends); free(L->stack);
    free(L->head); free(L->next);
    L->head = malloc(sizeof(Py_ssize_t) * (size_t)(cap + 1));
    L->next = malloc(sizeof(Py_ssize_t) * (size_t)cap);
    L->t = malloc(sizeof(term_t) * (size_t)cap);
    L->b = malloc(sizeof(br_t) * (size_t)cap);
    L->q = malloc(sizeof(quote_t) * (size_t)(LIM_QUOTES + 1));
    L->ends = malloc(sizeof(Py_ssize_t) * (size_t)(LIM_QUOTES + 1) * (size_t)cap);
    L->stack = malloc(sizeof(Py_ssize_t) * (size_t)cap);
    L->cap = cap;
    if (!L->t || !L->b || !L->q || !L->ends || !L->stack || !L->head || !L->next) {
        L->cap = 0;
        return -1;
    }
    return 0;
}

/* EVALB's read_line; -1: an input error (the Python reader reports it) */
static int parse(const unsigned char *s, Py_ssize_t n, const params_t *P, line_t *L) {
    Py_ssize_t p = 0, depth = 0;
    L->nt = L->nb = L->nq = L->nends = L->length = L->nterms = 0;
    L->over = n + 1 >= LIM_LINE;
    if (memchr(s, 0, (size_t)n)) return -1;
    while (p < n) {
        unsigned char c = s[p];
        if (is_ws(c)) { p++; continue; }
        if (c == '(') {
            Py_ssize_t l0 = ++p;
            while (p < n && !is_term(s[p])) p++;
            str_t label = {s + l0, p - l0};
            if (label.n >= LIM_LABEL) L->over = 1;
            if (p < n && is_ws(s[p])) {
                Py_ssize_t q = p + 1;
                while (q < n && is_ws(s[q])) q++;
                Py_ssize_t w0 = q;
                while (q < n && !is_term(s[q])) q++;
                str_t word = {s + w0, q - w0};
                if (q < n && s[q] == ')') {
                    L->nterms++;
                    if (!in_list(&P->len, label)) L->length++;
                    if (in_list(&P->quote, label) && is_quote_word(word)) {
                        if (L->nq >= LIM_QUOTES) { L->over = 1; }
                        else {
                            quote_t *qt = &L->q[L->nq++];
                            qt->word = word; qt->label = label;
                            qt->index = L->nt; qt->bracket = L->nb;
                            qt->ends = L->nends; qt->nends = depth;
                            memcpy(L->ends + L->nends, L->stack, sizeof(Py_ssize_t) * (size_t)depth);
                            L->nends += depth;
                        }
                    }
                    if (!in_list(&P->del, label)) {
                        if (word.n >= LIM_WORD) L->over = 1;
                        L->t[L->nt].word = word; L->t[L->nt].label = label; L->nt++;
                    }
                    p = q + 1;
                    continue;
                }
                if (word.n > 0) return -1;  /* a word beside a bracket */
            }
            br_t *b = &L->b[L->nb];
            b->start = L->nt; b->end = -1; b->label = label; b->result = 9;
            L->stack[depth++] = L->nb++;
            continue;
        }
        if (c == ')') {
            if (depth == 0) return -1;
            L->b[L->stack[--depth]].end = L->nt;
            p++;
            continue;
        }
        return -1;  /* text outside a (TAG word) bracket */
    }
    if (depth) return -1;
    if (L->nt > LIM_WORDS || L->nb > LIM_BRACKETS) L->over = 1;
    return 0;
}

static void reinsert(line_t *L, const quote_t *q) {
    memmove(L->t + q->index + 1, L->t + q->index, sizeof(term_t) * (size_t)(L->nt - q->index));
    L->t[q->index].word = q->word;
    L->t[q->index].label = q->label;
    L->nt++;
    for (Py_ssize_t k = q->bracket; k < L->nb; k++) { L->b[k].start++; L->b[k].end++; }
    for (Py_ssize_t k = 0; k < q->nends; k++) L->b[L->ends[q->ends + k]].end++;
}

/* EVALB's fix_quote (2006) */
static void fix_quote(line_t *G, line_t *T, const params_t *P) {
    for (Py_ssize_t i = 0; i < T->nq; i++) {
        Py_ssize_t ind = T->q[i].index;
        for (Py_ssize_t j = 0; j < G->nq; j++) {
            if (G->q[j].index == ind && !eq(G->q[j].label, T->q[i].label)) {
                int d1 = in_list(&P->del, G->q[j].label), d2 = in_list(&P->del, T->q[i].label);
                if (d1 && !d2) {
                    reinsert(G, &G->q[j]);
                    for (Py_ssize_t k = j; k < G->nq; k++) G->q[k].index++;
                } else if (d2 && !d1) {
                    reinsert(T, &T->q[i]);
                    for (Py_ssize_t k = i; k < T->nq; k++) T->q[k].index++;
                }
            }
        }
    }
}

static Py_ssize_t massage(line_t *L, const params_t *P) {
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < L->nb; i++) {
        br_t *b = &L->b[i];
        b->result = 0;
        if (b->start == b->end) { b->result = 5; continue; }
        for (Py_ssize_t k = 0; k < b->label.n; k++)
            if (b->label.s[k] == '-' || b->label.s[k] == '=') { b->label.n = k; break; }
        /* EVALB: deleted when EQ to a DELETE_LABEL; "equal" settles most labels */
        if (in_list(&P->del, b->label)) { b->result = 5; continue; }
        if (may_hold(P->eql.first, P->eql.empty, b->label))
            for (Py_ssize_t k = 0; k < P->del.n; k++)
                if (in_pairs(&P->eql, b->label, P->del.v[k])) { b->result = 5; break; }
        if (b->result == 0) kept++;
    }
    return kept;
}

static PyObject *row(long status, long length, long matched, long gold, long test,
                     long crossing, long words, long correct, long wn1, long wn2, long bad) {
    return Py_BuildValue("(lllllllllll)", status, length, matched, gold, test, crossing, words,
                         correct, wn1, wn2, bad);
}

/* Words unmatch: the row with the two words (Latin-1 str) appended */
static PyObject *words_row(long length, long wn1, long wn2, long bad, str_t a, str_t b) {
    return Py_BuildValue("(lllllllllllN N)", 1L, length, 0L, 0L, 0L, 0L, 0L, 0L, wn1, wn2,
                         bad, PyUnicode_DecodeLatin1((const char *)a.s, a.n, NULL),
                         PyUnicode_DecodeLatin1((const char *)b.s, b.n, NULL));
}

static PyObject *score_pair(line_t *G, line_t *T, const params_t *P) {
    long len = (long)G->length;
    if (T->nt == 0) return row(2, len, 0, 0, 0, 0, 0, 0, (long)G->nt, 0, -1);
    if (G->nt != T->nt) {
        fix_quote(G, T, P);
        if (G->nt != T->nt) return row(1, len, 0, 0, 0, 0, 0, 0, (long)G->nt, (long)T->nt, -1);
    }
    for (Py_ssize_t i = 0; i < G->nt; i++)
        if (!in_pairs(&P->eqw, G->t[i].word, T->t[i].word))
            return words_row(len, (long)G->nt, (long)T->nt, (long)i, G->t[i].word,
                             T->t[i].word);
    Py_ssize_t n1 = massage(G, P), n2 = massage(T, P), match = 0, crossing = 0, correct = 0;
    /* EVALB takes, for each gold bracket in turn, the first test bracket (in
       test order) still free with the same span and label; only brackets of
       the same start can match, so the scan walks that start's chain, which
       lists them in test order */
    for (Py_ssize_t k = 0; k <= T->nt; k++) T->head[k] = -1;
    for (Py_ssize_t j = T->nb - 1; j >= 0; j--) {
        Py_ssize_t st = T->b[j].start;
        T->next[j] = T->head[st];
        T->head[st] = j;
    }
    for (Py_ssize_t i = 0; i < G->nb; i++) {
        br_t *g = &G->b[i];
        if (g->result == 5 || g->start > T->nt) continue;
        for (Py_ssize_t j = T->head[g->start]; j >= 0; j = T->next[j]) {
            br_t *t = &T->b[j];
            if (t->result == 0 && g->start == t->start && g->end == t->end &&
                (!P->labeled || in_pairs(&P->eql, g->label, t->label))) {
                g->result = t->result = 1;
                match++;
                break;
            }
        }
    }
    /* A test bracket [s, e) crosses a gold one [gs, ge) when gs < s < ge < e
       or s < gs < e < ge (EVALB's test, counted once per test bracket).  With
       min_start[x] the least start of the gold brackets ending at x and
       max_end[x] the greatest end of those starting at x, that is: some x in
       (s, e) has min_start[x] < s or max_end[x] > e -- a walk over the span
       instead of over every gold bracket. */
    Py_ssize_t nw = G->nt > T->nt ? G->nt : T->nt;
    Py_ssize_t *min_start = G->head, *max_end = G->next; /* G's chains are unused */
    for (Py_ssize_t x = 0; x <= nw; x++) { min_start[x] = nw + 1; max_end[x] = -1; }
    for (Py_ssize_t i = 0; i < G->nb; i++) {
        br_t *g = &G->b[i];
        if (g->result == 5) continue;
        if (g->start < min_start[g->end]) min_start[g->end] = g->start;
        if (g->end > max_end[g->start]) max_end[g->start] = g->end;
    }
    for (Py_ssize_t j = 0; j < T->nb; j++) {
        br_t *t = &T->b[j];
        if (t->result == 5) continue;
        for (Py_ssize_t x = t->start + 1; x < t->end; x++)
            if (min_start[x] < t->start || max_end[x] > t->end) { crossing++; break; }
    }
    for (Py_ssize_t i = 0; i < G->nt; i++)
        correct += in_pairs(&P->eql, G->t[i].label, T->t[i].label);
    return row(0, len, (long)match, (long)n1, (long)n2, (long)crossing, (long)G->nt,
               (long)correct, (long)G->nt, (long)T->nt, -1);
}

/* a str of Latin-1 characters, read in place; -1 when it is not one */
static int as_str(PyObject *o, str_t *out) {
    if (!PyUnicode_Check(o) || PyUnicode_READY(o) != 0 || PyUnicode_KIND(o) != PyUnicode_1BYTE_KIND)
        return -1;
    out->s = PyUnicode_1BYTE_DATA(o);
    out->n = PyUnicode_GET_LENGTH(o);
    return 0;
}

static void note_first(unsigned char *first, int *empty, str_t x) {
    if (x.n) first[x.s[0]] = 1;
    else *empty = 1;
}

static int as_list(PyObject *o, list_t *l) {
    if (!PyList_Check(o)) return -1;
    l->n = PyList_GET_SIZE(o);
    l->v = malloc(sizeof(str_t) * (size_t)(l->n + 1));
    if (!l->v) return -1;
    for (Py_ssize_t i = 0; i < l->n; i++) {
        if (as_str(PyList_GET_ITEM(o, i), &l->v[i]) < 0) return -1;
        note_first(l->first, &l->empty, l->v[i]);
    }
    return 0;
}

static int as_pairs(PyObject *o, pairs_t *p) {
    if (!PyList_Check(o)) return -1;
    p->n = PyList_GET_SIZE(o);
    p->v = malloc(sizeof(pair_t) * (size_t)(p->n + 1));
    if (!p->v) return -1;
    for (Py_ssize_t i = 0; i < p->n; i++) {
        PyObject *it = PyList_GET_ITEM(o, i);
        if (!PyList_Check(it) || PyList_GET_SIZE(it) != 2 ||
            as_str(PyList_GET_ITEM(it, 0), &p->v[i].a) < 0 ||
            as_str(PyList_GET_ITEM(it, 1), &p->v[i].b) < 0)
            return -1;
        note_first(p->first, &p->empty, p->v[i].a);
        note_first(p->first, &p->empty, p->v[i].b);
    }
    return 0;
}

static PyObject *score(PyObject *self, PyObject *args) {
    PyObject *gl, *tl, *del, *len, *quote, *eql, *eqw;
    int labeled;
    if (!PyArg_ParseTuple(args, "O!O!OOOOOi", &PyList_Type, &gl, &PyList_Type, &tl, &del,
                          &len, &quote, &eql, &eqw, &labeled))
        return NULL;
    Py_ssize_t n = PyList_GET_SIZE(gl);
    if (PyList_GET_SIZE(tl) != n) {
        PyErr_SetString(PyExc_ValueError, "gold and test differ in line count");
        return NULL;
    }
    params_t P;
    memset(&P, 0, sizeof P);
    line_t G, T;
    memset(&G, 0, sizeof G);
    memset(&T, 0, sizeof T);
    PyObject *out = NULL, *result = NULL;
    P.labeled = labeled;
    if (as_list(del, &P.del) < 0 || as_list(len, &P.len) < 0 || as_list(quote, &P.quote) < 0 ||
        as_pairs(eql, &P.eql) < 0 || as_pairs(eqw, &P.eqw) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "bad parameters");
        goto done;
    }
    out = PyList_New(n);
    if (!out) goto done;
    for (Py_ssize_t k = 0; k < n; k++) {
        str_t g, t;
        if (as_str(PyList_GET_ITEM(gl, k), &g) < 0 || as_str(PyList_GET_ITEM(tl, k), &t) < 0 ||
            ensure(&G, g.n) < 0 || ensure(&T, t.n) < 0)
            goto fallback;
        if (parse(g.s, g.n, &P, &G) < 0 || parse(t.s, t.n, &P, &T) < 0 || G.nterms == 0 ||
            G.over || T.over)
            goto fallback;
        PyObject *r = score_pair(&G, &T, &P);
        if (!r) goto done;
        PyList_SET_ITEM(out, k, r);
    }
    result = out;
    out = NULL;
    goto done;
fallback:
    result = Py_None;
    Py_INCREF(result);
done:
    Py_XDECREF(out);
    free(P.del.v); free(P.len.v); free(P.quote.v); free(P.eql.v); free(P.eqw.v);
    free(G.t); free(G.b); free(G.q); free(G.ends); free(G.stack); free(G.head); free(G.next);
    free(T.t); free(T.b); free(T.q); free(T.ends); free(T.stack); free(T.head); free(T.next);
    return result;
}

static PyMethodDef methods[] = {
    {"score", score, METH_VARARGS,
     "score(gold, test, delete, delete_for_length, quote_labels, eq_labels, eq_words, "
     "labeled) -> list of row tuples, or None when a line needs the Python reader"},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_parsevalc",
                                    "PARSEVAL as EVALB computes it (compiled counts).", -1,
                                    methods};

PyMODINIT_FUNC PyInit__parsevalc(void) {
    init_classes();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) != 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
