/*
 * synagree.trees._flatc -- the tree-building kernel of synagree/trees/flat.py in C.
 *
 * What it computes
 * ----------------
 * dependency_arrays(heads, hoff, labs, lab, lml, rlab, rlml, kr, rkr, info)
 * writes, for S dependency sentences at once, the postorder arrays of
 * flat.py's FlatTree in both orientations (docs/method.md §3 for the
 * postorder and keyroot conventions of the Zhang-Shasha kernels):
 *
 *   * sentence s has the words hoff[s] .. hoff[s+1]-1 of `heads` (1-based
 *     heads, 0 = the artificial root; a head outside 0..n hangs the word
 *     nowhere); its n + 1 node label ids (the root's first) are
 *     labs[o .. o+n] with o = hoff[s] + s;
 *   * the tree is the root with every word under its head, siblings in word
 *     order; words not reachable from the root (head cycles) are no nodes;
 *   * at offset o it writes lab/lml (postorder label id and leftmost-leaf
 *     index of each node), rlab/rlml (the same for the mirrored tree), and
 *     the ascending keyroots kr / rkr of either orientation;
 *   * info[s] = (nodes, keyroots, mirrored keyroots, cost left, cost right),
 *     a cost being the sum of |subtree(k)| over the keyroots k.
 *
 * It mirrors the numba kernel `_dependency_arrays` of
 * synagree/trees/flat_numba.py line by line -- the same walk (an explicit
 * preorder stack, postorder positions by arithmetic), the same integer
 * arithmetic, the same outputs -- so that either backend gives identical
 * arrays (synagree.base.native picks one).  Arrays come in through the buffer
 * protocol (no numpy C API); the computation runs without the GIL.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#ifndef SOURCE_SHA256
#define SOURCE_SHA256 ""  /* the declarative build records none: mtimes are compared */
#endif

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Is `format` (a struct-module format string) one signed integer of native
 * byte order?  The size is checked separately against view.itemsize. */
static int
is_signed_int_format(const char *format)
{
    if (format == NULL) {
        return 1; /* PEP 3118: NULL means "B"; itemsize then rejects it */
    }
    if (*format == '@' || *format == '=') {
        format++;
    }
#if PY_LITTLE_ENDIAN
    else if (*format == '<') {
        format++;
    }
#else
    else if (*format == '>' || *format == '!') {
        format++;
    }
#endif
    if (format[0] == '\0' || format[1] != '\0') {
        return 0;
    }
    return strchr("bhilqn", format[0]) != NULL;
}

/* The current exception (which is cleared) as text; NULL on failure. */
static PyObject *
take_error_text(void)
{
    PyObject *text;
#if PY_VERSION_HEX >= 0x030C0000
    PyObject *exc = PyErr_GetRaisedException();
    text = exc ? PyObject_Str(exc) : NULL;
    Py_XDECREF(exc);
#else
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    text = value ? PyObject_Str(value) : NULL;
    Py_XDECREF(type);
    Py_XDECREF(value);
    Py_XDECREF(tb);
#endif
    PyErr_Clear();
    return text;
}

/* Get a C-contiguous buffer of signed integers of `itemsize` bytes from `obj`
 * (writable when `writable`).  0 on success (release it with
 * PyBuffer_Release); -1 with an exception set otherwise: TypeError when `obj`
 * is no such buffer (no buffer at all, not C-contiguous, read-only, another
 * item type), whatever the exporter raised for anything else. */
static int
get_int_buffer(PyObject *obj, Py_buffer *view, const char *name, Py_ssize_t itemsize,
               int writable)
{
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj, view, flags) < 0) {
        /* numpy says ValueError for "not C-contiguous" and "read-only" */
        if (PyErr_ExceptionMatches(PyExc_BufferError)
            || PyErr_ExceptionMatches(PyExc_TypeError)
            || PyErr_ExceptionMatches(PyExc_ValueError)) {
            PyObject *why = take_error_text();
            if (why == NULL) {
                PyErr_Clear();
                why = PyUnicode_FromString("?");
                if (why == NULL) {
                    return -1;
                }
            }
            PyErr_Format(PyExc_TypeError,
                         "dependency_arrays: %s must be a C-contiguous%s array of int%d "
                         "(%.100s: %U)",
                         name, writable ? " writable" : "", (int)(8 * itemsize),
                         Py_TYPE(obj)->tp_name, why);
            Py_DECREF(why);
        }
        return -1;
    }
    if (view->itemsize != itemsize || !is_signed_int_format(view->format)) {
        PyErr_Format(PyExc_TypeError,
                     "dependency_arrays: %s must hold int%d, not items of format "
                     "'%s' and %zd bytes",
                     name, (int)(8 * itemsize), view->format ? view->format : "B",
                     view->itemsize);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

#define N_ARGS 10

PyDoc_STRVAR(dependency_arrays_doc,
"dependency_arrays(heads, hoff, labs, lab, lml, rlab, rlml, kr, rkr, info)\n"
"--\n"
"\n"
"flat_tree's arrays for many dependency trees at once (the C twin of the\n"
"numba kernel synagree.trees.flat_numba._dependency_arrays).\n"
"\n"
"Sentence s has words hoff[s] .. hoff[s+1]-1 with 1-based heads (0 = the\n"
"root); its n + 1 node label ids (the root's first) start at\n"
"o = hoff[s] + s in labs.  Its node arrays are written at o in\n"
"lab/lml/rlab/rlml, its keyroots at o in kr/rkr; info[s] = (nodes,\n"
"keyroots, mirrored keyroots, cost left, cost right).  Words not reachable\n"
"from the root are no nodes.\n"
"\n"
"heads: int64 (W,); hoff: int64 (S+1,), non-decreasing, hoff[0] >= 0,\n"
"hoff[S] <= W; labs: int32, at least hoff[S] + S; lab, lml, rlab, rlml,\n"
"kr, rkr: writable int32, at least hoff[S] + S each; info: writable\n"
"int64 (S, 5).  All C-contiguous.  Returns None.\n"
"\n"
"Raises TypeError for a wrong type or dtype, ValueError for wrong lengths,\n"
"MemoryError when the scratch space cannot be allocated.");

static PyObject *
dependency_arrays(PyObject *self, PyObject *args)
{
    static const char *names[N_ARGS] = {"heads", "hoff", "labs", "lab", "lml",
                                        "rlab", "rlml", "kr", "rkr", "info"};
    /* item sizes and writability of the ten arguments, in order */
    static const Py_ssize_t sizes[N_ARGS] = {8, 8, 4, 4, 4, 4, 4, 4, 4, 8};
    static const int writable[N_ARGS] = {0, 0, 0, 1, 1, 1, 1, 1, 1, 1};
    PyObject *objs[N_ARGS];
    Py_buffer views[N_ARGS];
    int got = 0; /* buffers acquired so far */
    PyObject *result = NULL;
    int64_t *scratch = NULL;
    char *flags = NULL;
    (void)self;

    if (!PyArg_UnpackTuple(args, "dependency_arrays", N_ARGS, N_ARGS, &objs[0], &objs[1],
                           &objs[2], &objs[3], &objs[4], &objs[5], &objs[6], &objs[7],
                           &objs[8], &objs[9])) {
        return NULL;
    }
    for (got = 0; got < N_ARGS; got++) {
        if (get_int_buffer(objs[got], &views[got], names[got], sizes[got],
                           writable[got]) < 0) {
            goto done;
        }
    }

    const int64_t *heads = (const int64_t *)views[0].buf;
    const int64_t *hoff = (const int64_t *)views[1].buf;
    const int32_t *labs = (const int32_t *)views[2].buf;
    int32_t *lab = (int32_t *)views[3].buf;
    int32_t *lml = (int32_t *)views[4].buf;
    int32_t *rlab = (int32_t *)views[5].buf;
    int32_t *rlml = (int32_t *)views[6].buf;
    int32_t *kr = (int32_t *)views[7].buf;
    int32_t *rkr = (int32_t *)views[8].buf;
    int64_t *info = (int64_t *)views[9].buf;
    const Py_ssize_t n_heads = views[0].len / 8;
    const Py_ssize_t n_hoff = views[1].len / 8;

    /* ---- shapes: everything the walk indexes must lie inside its buffer ---- */
    if (n_hoff < 1) {
        PyErr_SetString(PyExc_ValueError, "dependency_arrays: hoff must have S + 1 >= 1 entries");
        goto done;
    }
    const int64_t S = (int64_t)n_hoff - 1;
    int64_t maxn = 1;
    if (hoff[0] < 0) {
        PyErr_Format(PyExc_ValueError, "dependency_arrays: hoff[0] = %lld is negative",
                     (long long)hoff[0]);
        goto done;
    }
    for (int64_t s = 0; s < S; s++) {
        if (hoff[s + 1] < hoff[s]) {
            PyErr_Format(PyExc_ValueError,
                         "dependency_arrays: hoff must not decrease (hoff[%lld] = %lld > "
                         "hoff[%lld] = %lld)",
                         (long long)s, (long long)hoff[s], (long long)(s + 1),
                         (long long)hoff[s + 1]);
            goto done;
        }
        if (hoff[s + 1] - hoff[s] + 1 > maxn) {
            maxn = hoff[s + 1] - hoff[s] + 1;
        }
    }
    if (hoff[S] > (int64_t)n_heads) {
        PyErr_Format(PyExc_ValueError,
                     "dependency_arrays: hoff[-1] = %lld but heads has %zd entries",
                     (long long)hoff[S], n_heads);
        goto done;
    }
    const int64_t total = hoff[S] + S; /* node slots: words + one root per sentence */
    for (int i = 2; i < 9; i++) {
        if ((int64_t)(views[i].len / 4) < total) {
            PyErr_Format(PyExc_ValueError,
                         "dependency_arrays: %s has %zd entries, needs at least %lld "
                         "(words + sentences)",
                         names[i], views[i].len / 4, (long long)total);
            goto done;
        }
    }
    if (views[9].ndim != 2 || views[9].shape[0] != (Py_ssize_t)S || views[9].shape[1] != 5) {
        PyErr_Format(PyExc_ValueError,
                     "dependency_arrays: info must have shape (%lld, 5) (sentences, 5)",
                     (long long)S);
        goto done;
    }

    /* ---- scratch space, allocated once: 14 int64 arrays and 2 flag arrays ---- */
    const size_t len = (size_t)maxn + 1;
    if (len > SIZE_MAX / (14 * sizeof(int64_t))) {
        PyErr_NoMemory();
        goto done;
    }
    scratch = (int64_t *)malloc(14 * len * sizeof(int64_t));
    flags = (char *)malloc(2 * len);
    if (scratch == NULL || flags == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    int64_t *cnt = scratch;
    int64_t *start = cnt + len;
    int64_t *fill = start + len;
    int64_t *child = fill + len;
    int64_t *pre = child + len;
    int64_t *dep = pre + len;
    int64_t *par = dep + len;
    int64_t *edge = par + len;
    int64_t *sz = edge + len;
    int64_t *st_v = sz + len;
    int64_t *st_d = st_v + len;
    int64_t *st_p = st_d + len;
    int64_t *st_e = st_p + len;
    char *kflag = flags;
    char *rflag = flags + len;
    memset(scratch, 0, 14 * len * sizeof(int64_t));
    memset(flags, 0, 2 * len);

    Py_BEGIN_ALLOW_THREADS
    for (int64_t s = 0; s < S; s++) {
        const int64_t w0 = hoff[s];
        const int64_t n = hoff[s + 1] - w0;
        const int64_t o = w0 + s;
        /* children of each node, by word id */
        for (int64_t v = 0; v < n + 1; v++) {
            cnt[v] = 0;
        }
        for (int64_t i = 1; i < n + 1; i++) {
            const int64_t h = heads[w0 + i - 1];
            if (0 <= h && h <= n) {
                cnt[h] += 1;
            }
        }
        start[0] = 0;
        for (int64_t v = 0; v < n; v++) {
            start[v + 1] = start[v] + cnt[v];
        }
        for (int64_t v = 0; v < n + 1; v++) {
            fill[v] = start[v];
        }
        for (int64_t i = 1; i < n + 1; i++) {
            const int64_t h = heads[w0 + i - 1];
            if (0 <= h && h <= n) {
                child[fill[h]] = i;
                fill[h] += 1;
            }
        }
        /* depth-first walk from the root: preorder, depth, parent, first/last child */
        st_v[0] = 0;
        st_d[0] = 0;
        st_p[0] = -1;
        st_e[0] = 3;
        int64_t top = 1; /* entries on the stack */
        int64_t m = 0;   /* nodes placed in preorder */
        while (top > 0) {
            top -= 1;
            const int64_t v = st_v[top];
            const int64_t d = st_d[top];
            pre[m] = v;
            dep[m] = d;
            par[m] = st_p[top];
            edge[m] = st_e[top];
            const int64_t k = cnt[v];
            const int64_t b = start[v];
            if (k > 0) {
                st_v[top] = child[b + k - 1];
                st_d[top] = d + 1;
                st_p[top] = m;
                st_e[top] = k > 1 ? 2 : 3;
                top += 1;
                for (int64_t c = k - 2; c > 0; c--) {
                    st_v[top] = child[b + c];
                    st_d[top] = d + 1;
                    st_p[top] = m;
                    st_e[top] = 0;
                    top += 1;
                }
                if (k > 1) {
                    st_v[top] = child[b];
                    st_d[top] = d + 1;
                    st_p[top] = m;
                    st_e[top] = 1;
                    top += 1;
                }
            }
            m += 1;
        }
        for (int64_t q = 0; q < m; q++) {
            sz[q] = 1;
        }
        for (int64_t q = m - 1; q > 0; q--) {
            sz[par[q]] += sz[q];
        }
        int64_t cost_l = 0;
        int64_t cost_r = 0;
        for (int64_t q = 0; q < m; q++) {
            kflag[q] = 0;
            rflag[q] = 0;
        }
        for (int64_t q = 0; q < m; q++) {
            const int64_t sq = sz[q];
            const int64_t kp = q - dep[q] + sq - 1;
            const int64_t r = m - 1 - q;
            const int32_t lb = labs[o + pre[q]];
            lab[o + kp] = lb;
            lml[o + kp] = (int32_t)(kp - sq + 1);
            rlab[o + r] = lb;
            rlml[o + r] = (int32_t)(r - sq + 1);
            const int64_t e = q > 0 ? edge[q] : 0;
            if ((e & 1) == 0) {
                kflag[kp] = 1;
                cost_l += sq;
            }
            if ((e & 2) == 0) {
                rflag[r] = 1;
                cost_r += sq;
            }
        }
        int64_t nk = 0;
        int64_t nr = 0;
        for (int64_t q = 0; q < m; q++) {
            if (kflag[q]) {
                kr[o + nk] = (int32_t)q;
                nk += 1;
            }
            if (rflag[q]) {
                rkr[o + nr] = (int32_t)q;
                nr += 1;
            }
        }
        info[5 * s + 0] = m;
        info[5 * s + 1] = nk;
        info[5 * s + 2] = nr;
        info[5 * s + 3] = cost_l;
        info[5 * s + 4] = cost_r;
    }
    Py_END_ALLOW_THREADS

    result = Py_None;
    Py_INCREF(result);
done:
    free(scratch);
    free(flags);
    for (int i = 0; i < got; i++) {
        PyBuffer_Release(&views[i]);
    }
    return result;
}

static PyMethodDef flatc_methods[] = {
    {"dependency_arrays", dependency_arrays, METH_VARARGS, dependency_arrays_doc},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(flatc_doc,
"The C kernel of synagree.trees.flat: dependency trees as postorder arrays.\n"
"\n"
"dependency_arrays builds the FlatTree arrays of many dependency sentences\n"
"in one call, with the same walk and arithmetic as the numba kernel\n"
"synagree.trees.flat_numba._dependency_arrays (identical outputs).  Built\n"
"by pyproject.toml as an optional extension; synagree.base.native decides per call\n"
"whether it or numba runs.");

static struct PyModuleDef flatc_module = {
    PyModuleDef_HEAD_INIT,
    "synagree.trees._flatc",
    flatc_doc,
    -1,
    flatc_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__flatc(void)
{
    PyObject *m = PyModule_Create(&flatc_module);
    /* the sources this was built from (pyproject.toml), so that a build older than
       its sources is noticed (synagree.base.native.built_from) */
    if (m && PyModule_AddStringConstant(m, "SOURCE_SHA256", SOURCE_SHA256) != 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
