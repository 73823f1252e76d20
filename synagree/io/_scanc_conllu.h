/*
 * The CoNLL-U scan of _scanc.c for one character width: included once per width
 * with CH (the character type: Py_UCS1, Py_UCS2 or Py_UCS4) and F(name) (the
 * name with the width's suffix) defined.  See _scanc.c for what it
 * computes.
 */

/* A plain number: ASCII digits without a leading zero ("0" itself allowed),
 * at most MAX_NUMBER; else -1 (as the look-up in conllu.py's _NUMBER_OF). */
static long
F(plain_number)(const CH *p, Py_ssize_t n)
{
    if (n == 0 || n > 4) {
        return -1;
    }
    if (p[0] == '0') {
        return n == 1 ? 0 : -1;
    }
    long v = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') {
            return -1;
        }
        v = v * 10 + (long)(p[i] - '0');
    }
    return v <= MAX_NUMBER ? v : -1;
}

/* The number of '\n' in d[0:size]. */
static Py_ssize_t
F(count_newlines)(const CH *d, Py_ssize_t size)
{
    Py_ssize_t n = 0;
    for (Py_ssize_t i = 0; i < size; i++) {
        n += d[i] == '\n';
    }
    return n;
}

/* The metadata pair of the comment line d[a:b] (d[a] == '#') into `metadata`,
 * as conllu.py's comment_pairs reads it: the line stripped, the '#' dropped,
 * cut at the first '='; key and value stripped; kept when the key is newpar
 * or newdoc (the value None without a '='), or when neither is empty.
 * Returns -1 with an exception set on failure. */
static int
F(comment_pair)(PyObject *chunk, const CH *d, Py_ssize_t a, Py_ssize_t b, PyObject *metadata)
{
    Py_ssize_t e = b;
    while (e > a && Py_UNICODE_ISSPACE(d[e - 1])) {
        e--;
    }
    Py_ssize_t k0 = a + 1, eq = k0;
    while (eq < e && d[eq] != '=') {
        eq++;
    }
    Py_ssize_t k1 = eq;  /* the key: [k0, k1) stripped */
    while (k0 < k1 && Py_UNICODE_ISSPACE(d[k0])) {
        k0++;
    }
    while (k1 > k0 && Py_UNICODE_ISSPACE(d[k1 - 1])) {
        k1--;
    }
    Py_ssize_t v0 = eq + 1, v1 = e;  /* the value, when there is a '=' */
    while (v0 < v1 && Py_UNICODE_ISSPACE(d[v0])) {
        v0++;
    }
    while (v1 > v0 && Py_UNICODE_ISSPACE(d[v1 - 1])) {
        v1--;
    }
    int has_value = eq < e;
    int keep;
    if (k1 - k0 == 6 && d[k0] == 'n' && d[k0 + 1] == 'e' && d[k0 + 2] == 'w'
        && ((d[k0 + 3] == 'p' && d[k0 + 4] == 'a' && d[k0 + 5] == 'r')
            || (d[k0 + 3] == 'd' && d[k0 + 4] == 'o' && d[k0 + 5] == 'c'))) {
        keep = 1;
    }
    else {
        keep = k1 > k0 && has_value && v1 > v0;
    }
    if (!keep) {
        return 0;
    }
    PyObject *key = PyUnicode_Substring(chunk, k0, k1);
    if (key == NULL) {
        return -1;
    }
    PyUnicode_InternInPlace(&key);
    PyObject *value = has_value ? PyUnicode_Substring(chunk, v0, v1) : (Py_INCREF(Py_None), Py_None);
    int rc = value == NULL ? -1 : PyDict_SetItem(metadata, key, value);
    Py_DECREF(key);
    Py_XDECREF(value);
    return rc;
}

/* Close the open block (ending before line `end`) into `o`. */
static int
F(close_block)(Out *o, Py_ssize_t end)
{
    Py_ssize_t k = o->n_blocks++;
    o->block_end[k] = end;
    if (PyList_Append(o->comments, o->cur_comments) < 0
        || PyList_Append(o->metadata, o->cur_metadata) < 0) {
        return -1;
    }
    Py_CLEAR(o->cur_comments);
    Py_CLEAR(o->cur_metadata);
    return 0;
}

/* Open a block at line `line` in `o`. */
static int
F(open_block)(Out *o, Py_ssize_t line)
{
    o->block_start[o->n_blocks] = line;
    o->fine[o->n_blocks] = 1;
    o->cur_comments = PyList_New(0);
    o->cur_metadata = PyDict_New();
    return o->cur_comments && o->cur_metadata ? 0 : -1;
}

/* The whole scan of the chunk chunk[begin:size] into `o` (its arrays sized
 * for the chunk's lines; offsets into the whole str).  Returns -1 with an
 * exception set on failure. */
static int
F(scan)(Out *o, Table *t, PyObject *chunk, Py_ssize_t begin, Py_ssize_t size)
{
    const CH *d = (const CH *)PyUnicode_DATA(chunk);
    Py_ssize_t line = 0, a = begin;
    Py_ssize_t tab[10];
    while (a <= size) {
        /* the line [a, b) and its first tabs */
        Py_ssize_t b = a, n_tabs = 0;
        while (b < size && d[b] != '\n') {
            if (d[b] == '\t') {
                if (n_tabs < 10) {
                    tab[n_tabs] = b;
                }
                n_tabs++;
            }
            b++;
        }
        o->starts[line] = a;
        if (b > a && o->cur_comments == NULL && F(open_block)(o, line) < 0) {
            return -1;
        }
        if (n_tabs == 9) {  /* a row */
            Py_ssize_t r = o->n_rows++;
            tab[9] = b;
            long id = F(plain_number)(d + a, tab[0] - a);
            o->ids[r] = id > 0 ? id : 0;
            o->heads[r] = F(plain_number)(d + tab[5] + 1, tab[6] - tab[5] - 1);
            o->rows[r] = line;
            for (int c = 0; c < N_COLUMNS; c++) {
                Py_ssize_t s = tab[KEPT[c] - 1] + 1, e = tab[KEPT[c]];
                PyObject *value;
                if (s == e) {
                    value = c == DEPREL_AT ? o->empty : o->underscore;
                }
                else if (e - s == 1 && d[s] < 256) {  /* "_", ",", "a", ... */
                    value = t->single[d[s]];
                    if (value == NULL) {
                        value = PyUnicode_FromOrdinal((int)d[s]);
                        if (value == NULL) {
                            return -1;
                        }
                        PyUnicode_InternInPlace(&value);
                        t->single[d[s]] = value;
                    }
                }
                else {
                    uint64_t h = 14695981039346656037ULL;
                    for (Py_ssize_t k = s; k < e; k++) {
                        h = (h ^ (uint64_t)d[k]) * 1099511628211ULL;
                    }
                    value = F(table_get)(t, d + s, e - s, h ? h : 1, chunk, s);
                    if (value == NULL) {
                        return -1;
                    }
                }
                Py_INCREF(value);
                PyList_SET_ITEM(o->columns[c], r, value);
            }
        }
        else if (b == a) {  /* an empty line ends the open block */
            if (o->cur_comments != NULL && F(close_block)(o, line) < 0) {
                return -1;
            }
        }
        else if (d[a] == '#') {  /* a comment */
            PyObject *text = PyUnicode_Substring(chunk, a, b);
            int rc = text == NULL ? -1 : PyList_Append(o->cur_comments, text);
            Py_XDECREF(text);
            if (rc < 0 || F(comment_pair)(chunk, d, a, b, o->cur_metadata) < 0) {
                return -1;
            }
        }
        else {  /* a wrong column count, or a whitespace-only line */
            o->fine[o->n_blocks] = 0;
        }
        line++;
        a = b + 1;
    }
    o->starts[line] = size + 1;
    if (o->cur_comments != NULL && F(close_block)(o, line) < 0) {
        return -1;
    }
    return 0;
}
