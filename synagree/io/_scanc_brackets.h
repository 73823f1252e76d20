/*
 * The bracket parse of _scanc.c for one character width: included once per
 * width with CH (the character type) and F(name) (the name with the width's
 * suffix) defined.  See _scanc.c for what it computes.
 */

/* The trees of the text as (first line, nested list) pairs, Py_None when the
 * text is not clean (an unmatched ')', an unclosed '(', text outside any
 * bracket), or NULL with an exception set. */
static PyObject *
F(brackets)(PyObject *text, Table *t)
{
    const CH *d = (const CH *)PyUnicode_DATA(text);
    const Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    PyObject *trees = PyList_New(0);
    Py_ssize_t depth = 0, capacity = 64, line = 1, start_line = 0;
    PyObject **stack = (PyObject **)malloc((size_t)capacity * sizeof(PyObject *));
    int clean = 1;
    if (trees == NULL || stack == NULL) {
        Py_XDECREF(trees);
        free(stack);
        return stack == NULL ? PyErr_NoMemory() : NULL;
    }
    Py_ssize_t i = 0;
    int line_start = 1;
    while (i < size && clean) {
        if (line_start) {
            line_start = 0;
            if (depth == 0) {  /* a comment line between trees: '#' after spaces */
                Py_ssize_t j = i;
                while (j < size && d[j] != '\n' && Py_UNICODE_ISSPACE(d[j])) {
                    j++;
                }
                if (j < size && d[j] == '#') {
                    while (j < size && d[j] != '\n') {
                        j++;
                    }
                    i = j;
                    continue;
                }
            }
        }
        const Py_UCS4 c = d[i];
        if (c == '\n') {
            line++;
            line_start = 1;
            i++;
        }
        else if (Py_UNICODE_ISSPACE(c)) {
            i++;
        }
        else if (c == '(') {
            PyObject *node = PyList_New(0);
            if (node == NULL) {
                goto fail;
            }
            if (depth > 0) {
                if (PyList_Append(stack[depth - 1], node) < 0) {
                    Py_DECREF(node);
                    goto fail;
                }
                Py_DECREF(node);  /* the parent holds it */
            }
            else {
                start_line = line;
            }
            if (depth == capacity) {
                capacity *= 2;
                PyObject **grown = (PyObject **)realloc(stack, (size_t)capacity
                                                        * sizeof(PyObject *));
                if (grown == NULL) {
                    if (depth == 0) {
                        Py_DECREF(node);
                    }
                    PyErr_NoMemory();
                    goto fail;
                }
                stack = grown;
            }
            stack[depth++] = node;  /* owned only at depth 0 (else its parent's) */
            i++;
        }
        else if (c == ')') {
            if (depth == 0) {
                clean = 0;
                break;
            }
            PyObject *node = stack[--depth];
            if (depth == 0) {
                PyObject *pair = Py_BuildValue("(nN)", start_line, node);  /* steals */
                if (pair == NULL || PyList_Append(trees, pair) < 0) {
                    Py_XDECREF(pair);
                    goto fail;
                }
                Py_DECREF(pair);
            }
            i++;
        }
        else {  /* a token: up to whitespace or a bracket */
            Py_ssize_t j = i;
            uint64_t h = 14695981039346656037ULL;
            while (j < size && d[j] != '(' && d[j] != ')' && !Py_UNICODE_ISSPACE(d[j])) {
                h = (h ^ (uint64_t)d[j]) * 1099511628211ULL;
                j++;
            }
            if (depth == 0) {
                clean = 0;
                break;
            }
            PyObject *value = F(table_get)(t, d + i, j - i, h ? h : 1, text, i);
            if (value == NULL || PyList_Append(stack[depth - 1], value) < 0) {
                goto fail;
            }
            i = j;
        }
    }
    if (depth > 0) {
        clean = 0;
        Py_DECREF(stack[0]);  /* the unclosed tree */
        depth = 0;
    }
    free(stack);
    if (!clean) {
        Py_DECREF(trees);
        Py_RETURN_NONE;
    }
    return trees;
fail:
    if (depth > 0) {
        Py_DECREF(stack[0]);
    }
    free(stack);
    Py_DECREF(trees);
    return NULL;
}
