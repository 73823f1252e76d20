/*
 * The value table of _scanc.c for one character width: included once per
 * width with CH (the character type) and F(name) (the name with the width's
 * suffix) defined.
 */

/* The interned str of the len characters at p, which are chunk[start:start +
 * len] (a borrowed reference), or NULL with an exception set.  `hash`: the
 * characters' FNV-1a hash, never 0.  A str is stored in its narrowest width,
 * so one narrower than the chunk is compared character by character, and
 * one wider cannot be equal. */
static PyObject *
F(table_get)(Table *t, const CH *p, Py_ssize_t len, uint64_t hash, PyObject *chunk,
             Py_ssize_t start)
{
    size_t i = (size_t)hash & t->mask;
    for (;;) {
        Slot *s = &t->slots[i];
        if (!s->hash) {
            break;
        }
        if (s->hash == hash && s->len == len) {
            int kind = PyUnicode_KIND(s->str);
            const void *data = PyUnicode_DATA(s->str);
            if (kind == (int)sizeof(CH)) {
                if (memcmp(data, p, (size_t)len * sizeof(CH)) == 0) {
                    return s->str;
                }
            }
            else if (kind < (int)sizeof(CH)) {
                Py_ssize_t k = 0;
                while (k < len && PyUnicode_READ(kind, data, k) == p[k]) {
                    k++;
                }
                if (k == len) {
                    return s->str;
                }
            }
        }
        i = (i + 1) & t->mask;
    }
    PyObject *str = PyUnicode_Substring(chunk, start, start + len);
    if (str == NULL) {
        return NULL;
    }
    PyUnicode_InternInPlace(&str);
    t->slots[i].hash = hash;
    t->slots[i].len = len;
    t->slots[i].str = str;
    if (++t->used * 2 > t->mask + 1 && table_grow(t) < 0) {
        return NULL; /* the new value is in the table (freed with it) */
    }
    return str;
}

