/*
 * synagree.io._scanc -- the scans of the CoNLL-U and bracket readers in C.
 *
 * What it computes
 * ----------------
 * scan(text, begin, end, table) cuts the chunk text[begin:end] of CoNLL text
 * into lines at '\n' (nothing else ends a line), into sentence blocks (runs
 * of lines between empty lines), and reads every line with exactly 9 tabs (a
 * "row": 10 columns) into columns.  It returns
 *
 *   (n_lines, n_rows, rows, ids, heads, starts, n_blocks, block_start,
 *    block_end, fine, comments, metadata, columns)
 *
 *   * rows, ids, heads: bytes holding int64 values, the first n_rows of
 *     them used: the row's 0-based line in the chunk; its ID when that is a
 *     plain word number (ASCII digits without a leading zero, 1 .. 4095),
 *     else 0; its HEAD when that is a plain number (0 .. 4095), else -1;
 *   * starts: bytes holding n_lines + 1 int64 values: where line i starts in
 *     the text (in characters); starts[n_lines] = end + 1, so that line i is
 *     text[starts[i]:starts[i + 1] - 1];
 *   * block_start, block_end: bytes holding int64 values, the first
 *     n_blocks used: each block's first line and the line after its last;
 *     fine: bytes, 1 when every line of the block that is not a row is a
 *     comment (starts with '#'), else 0;
 *   * comments, metadata: per block, its comment lines (a list) and their
 *     ``# key = value`` pairs (a dict), read as conllu.py's comment_pairs
 *     reads them;
 *   * columns: eight lists, one value per row: FORM, LEMMA, UPOS, XPOS,
 *     FEATS, DEPREL, DEPS, MISC as written, each value interned (sys.intern), an
 *     empty value read as "_" except an empty DEPREL, kept "".
 *
 * It is `_scan_python` of synagree/io/conllu.py in C, with the same results.
 *
 * brackets(text, table) parses bracketed trees as brackets.py's
 * `_parse_brackets_detailed` does when the text is clean: a list of (first
 * line, tree), a tree being [label, child, ...] with the tokens as str
 * (interned); a line whose first non-space character is '#' between trees
 * is skipped.  It returns None instead when the text is not clean (an
 * unmatched ')', an unclosed '(', a token outside any bracket): the reader
 * then reads it by the detailed path, which says what is wrong where.
 *
 * Both read each value once per file: the values repeat (labels, tags,
 * frequent words), and a table keyed by the characters themselves (table(),
 * one per file) makes one str object per distinct value of the file instead
 * of one per occurrence.  Nothing here judges CoNLL-U input: the reader
 * checks the rows and blocks it gets, and reads any sentence that fails a
 * check again, line by line.  Both readers' results are checked equal to
 * the detailed readers' (tests/test_reader_parity.py).  The per-width code
 * is in _scanc_table.h, _scanc_conllu.h and _scanc_brackets.h.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""  /* the declarative build records none: mtimes are compared */
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_NUMBER 4095  /* as _NUMBER_OF of conllu.py */
#define N_COLUMNS 8
/* the columns kept, by their 0-based position in the line */
static const int KEPT[N_COLUMNS] = {1, 2, 3, 4, 5, 7, 8, 9};
#define DEPREL_AT 5  /* DEPREL's place in KEPT: an empty one stays empty */

/* ---------------------------------------------------------------- the table */

/* The values met so far in a file, keyed by their characters: an open-
 * addressing hash table of interned str objects, kept in a capsule across
 * the scans of one file's chunks. */
typedef struct {
    uint64_t hash;   /* 0: free */
    Py_ssize_t len;  /* of str */
    PyObject *str;   /* owned; interned */
} Slot;

typedef struct {
    Slot *slots;
    size_t mask;  /* capacity - 1, capacity a power of 2 */
    size_t used;
    PyObject *single[256];  /* the values of one Latin-1 character (owned), or NULL */
} Table;

#define CAPSULE_NAME "synagree.io._scanc.table"

static void
table_destroy(PyObject *capsule)
{
    Table *t = (Table *)PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    if (t == NULL) {
        return;
    }
    for (size_t i = 0; i <= t->mask; i++) {
        Py_XDECREF(t->slots[i].str);
    }
    for (int c = 0; c < 256; c++) {
        Py_XDECREF(t->single[c]);
    }
    free(t->slots);
    free(t);
}

static PyObject *
table_new(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    Table *t = (Table *)calloc(1, sizeof(Table));
    size_t capacity = 1 << 14;
    if (t == NULL || (t->slots = (Slot *)calloc(capacity, sizeof(Slot))) == NULL) {
        free(t);
        return PyErr_NoMemory();
    }
    t->mask = capacity - 1;
    t->used = 0;
    PyObject *capsule = PyCapsule_New(t, CAPSULE_NAME, table_destroy);
    if (capsule == NULL) {
        free(t->slots);
        free(t);
    }
    return capsule;
}

static int
table_grow(Table *t)
{
    size_t capacity = (t->mask + 1) * 2;
    Slot *slots = (Slot *)calloc(capacity, sizeof(Slot));
    if (slots == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (size_t i = 0; i <= t->mask; i++) {
        Slot *s = &t->slots[i];
        if (s->hash) {
            size_t j = (size_t)s->hash & (capacity - 1);
            while (slots[j].hash) {
                j = (j + 1) & (capacity - 1);
            }
            slots[j] = *s;
        }
    }
    free(t->slots);
    t->slots = slots;
    t->mask = capacity - 1;
    return 0;
}

/* ---------------------------------------------------------------- the scan */

/* What a scan writes (see the top of the file). */
typedef struct {
    int64_t *rows, *ids, *heads, *starts, *block_start, *block_end;
    unsigned char *fine;
    Py_ssize_t n_rows, n_blocks;
    PyObject *comments, *metadata;          /* lists: one item per block */
    PyObject *cur_comments, *cur_metadata;  /* the open block's, or NULL */
    PyObject *columns[N_COLUMNS];           /* borrowed from the result's list */
    PyObject *underscore, *empty;           /* "_" and "" */
} Out;

#define CH Py_UCS1
#define F(name) name##_ucs1
#include "_scanc_table.h"
#include "_scanc_conllu.h"
#include "_scanc_brackets.h"
#undef CH
#undef F
#define CH Py_UCS2
#define F(name) name##_ucs2
#include "_scanc_table.h"
#include "_scanc_conllu.h"
#include "_scanc_brackets.h"
#undef CH
#undef F
#define CH Py_UCS4
#define F(name) name##_ucs4
#include "_scanc_table.h"
#include "_scanc_conllu.h"
#include "_scanc_brackets.h"
#undef CH
#undef F

static PyObject *
scan(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *chunk, *capsule;
    Py_ssize_t begin, end;
    if (!PyArg_ParseTuple(args, "UnnO:scan", &chunk, &begin, &end, &capsule)) {
        return NULL;
    }
    Table *t = (Table *)PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    if (t == NULL) {
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(chunk) < 0) {
        return NULL;
    }
#endif
    if (begin < 0 || end < begin || end > PyUnicode_GET_LENGTH(chunk)) {
        PyErr_SetString(PyExc_ValueError, "scan(): need 0 <= begin <= end <= len(text)");
        return NULL;
    }
    const int kind = PyUnicode_KIND(chunk);
    const char *data = (const char *)PyUnicode_DATA(chunk) + begin * kind;
    const Py_ssize_t n = end - begin;
    const Py_ssize_t n_lines = 1 + (kind == PyUnicode_1BYTE_KIND
                                    ? count_newlines_ucs1((const Py_UCS1 *)data, n)
                                    : kind == PyUnicode_2BYTE_KIND
                                    ? count_newlines_ucs2((const Py_UCS2 *)data, n)
                                    : count_newlines_ucs4((const Py_UCS4 *)data, n));
    const Py_ssize_t words = n_lines * 8;
    PyObject *rows = PyBytes_FromStringAndSize(NULL, words);
    PyObject *ids = PyBytes_FromStringAndSize(NULL, words);
    PyObject *heads = PyBytes_FromStringAndSize(NULL, words);
    PyObject *starts = PyBytes_FromStringAndSize(NULL, words + 8);
    PyObject *block_start = PyBytes_FromStringAndSize(NULL, words);
    PyObject *block_end = PyBytes_FromStringAndSize(NULL, words);
    PyObject *fine = PyBytes_FromStringAndSize(NULL, n_lines);
    PyObject *columns = PyList_New(N_COLUMNS);
    PyObject *result = NULL;
    Out o = {0};
    o.comments = PyList_New(0);
    o.metadata = PyList_New(0);
    o.underscore = PyUnicode_InternFromString("_");
    o.empty = PyUnicode_New(0, 0);
    if (!rows || !ids || !heads || !starts || !block_start || !block_end || !fine || !columns
        || !o.comments || !o.metadata || !o.underscore || !o.empty) {
        goto done;
    }
    for (int c = 0; c < N_COLUMNS; c++) {
        /* filled up to n_rows by the scan, the rest cut off below (a list's
         * unset items are NULL, which every list operation accepts) */
        o.columns[c] = PyList_New(n_lines);
        if (o.columns[c] == NULL) {
            goto done;
        }
        PyList_SET_ITEM(columns, c, o.columns[c]);
    }
    o.rows = (int64_t *)PyBytes_AS_STRING(rows);
    o.ids = (int64_t *)PyBytes_AS_STRING(ids);
    o.heads = (int64_t *)PyBytes_AS_STRING(heads);
    o.starts = (int64_t *)PyBytes_AS_STRING(starts);
    o.block_start = (int64_t *)PyBytes_AS_STRING(block_start);
    o.block_end = (int64_t *)PyBytes_AS_STRING(block_end);
    o.fine = (unsigned char *)PyBytes_AS_STRING(fine);
    int rc = kind == PyUnicode_1BYTE_KIND ? scan_ucs1(&o, t, chunk, begin, end)
             : kind == PyUnicode_2BYTE_KIND ? scan_ucs2(&o, t, chunk, begin, end)
             : scan_ucs4(&o, t, chunk, begin, end);
    for (int c = 0; rc == 0 && c < N_COLUMNS; c++) {
        rc = PyList_SetSlice(o.columns[c], o.n_rows, n_lines, NULL);
    }
    if (rc == 0) {
        result = Py_BuildValue("(nnOOOOnOOOOOO)", n_lines, o.n_rows, rows, ids, heads, starts,
                               o.n_blocks, block_start, block_end, fine, o.comments,
                               o.metadata, columns);
    }
done:
    Py_XDECREF(rows);
    Py_XDECREF(ids);
    Py_XDECREF(heads);
    Py_XDECREF(starts);
    Py_XDECREF(block_start);
    Py_XDECREF(block_end);
    Py_XDECREF(fine);
    Py_XDECREF(columns);
    Py_XDECREF(o.comments);
    Py_XDECREF(o.metadata);
    Py_XDECREF(o.cur_comments);
    Py_XDECREF(o.cur_metadata);
    Py_XDECREF(o.underscore);
    Py_XDECREF(o.empty);
    return result;
}

static PyObject *
brackets(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *text, *capsule;
    if (!PyArg_ParseTuple(args, "UO:brackets", &text, &capsule)) {
        return NULL;
    }
    Table *t = (Table *)PyCapsule_GetPointer(capsule, CAPSULE_NAME);
    if (t == NULL) {
        return NULL;
    }
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) {
        return NULL;
    }
#endif
    switch (PyUnicode_KIND(text)) {
    case PyUnicode_1BYTE_KIND:
        return brackets_ucs1(text, t);
    case PyUnicode_2BYTE_KIND:
        return brackets_ucs2(text, t);
    default:
        return brackets_ucs4(text, t);
    }
}

static PyMethodDef methods[] = {
    {"table", table_new, METH_NOARGS,
     "table() -> a new table of the values met, to pass to every scan of one file."},
    {"scan", scan, METH_VARARGS,
     "scan(text, begin, end, table) -> (n_lines, n_rows, rows, ids, heads, starts, n_blocks, "
     "block_start, block_end, fine, comments, metadata, columns): the lines, blocks and "
     "columns of the chunk text[begin:end] of CoNLL text (see _scanc.c)."},
    {"brackets", brackets, METH_VARARGS,
     "brackets(text, table) -> [(line, tree)] or None: the bracketed trees of a text "
     "(see _scanc.c)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_scanc",
    "The line and column scan of the CoNLL-U reader in C (see synagree/io/conllu.py).",
    -1, methods,
};

PyMODINIT_FUNC
PyInit__scanc(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m != NULL && PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
