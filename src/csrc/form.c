/* Forms: URL Standard §5.1 parser, §5.2 serializer. */
#include "kernels.h"

/* ------------------------------------------------------------------------ */
/* Forms: URL Standard §5.1 parser, §5.2 serializer.                        */

enum {
    OUT_STR_FROM_BYTES, /* bytes input: pieces are UTF-8 decoded with U+FFFD */
    OUT_STR_ASCII,      /* ASCII str input: pieces without escapes are copied */
    OUT_STR_UTF8,       /* non-ASCII str input, seen as its UTF-8 (surrogatepass) */
    OUT_BYTES           /* form_parse_bytes */
};

typedef struct {
    uint8_t *p;
    Py_ssize_t cap;
    uint8_t stack[512];
} Scratch;

static uint8_t *
scratch_get(Scratch *s, Py_ssize_t n)
{
    if (n > s->cap) {
        if (s->p != s->stack) {
            PyMem_Free(s->p);
        }
        s->p = PyMem_Malloc((size_t)n);
        if (s->p == NULL) {
            s->p = s->stack;
            s->cap = (Py_ssize_t)sizeof(s->stack);
            PyErr_NoMemory();
            return NULL;
        }
        s->cap = n;
    }
    return s->p;
}

/* In the surrogatepass UTF-8 of a str, ED A0..BF starts a lone surrogate. */
static int
has_raw_surrogate(const uint8_t *p, Py_ssize_t n)
{
    Py_ssize_t i;
    for (i = 0; i + 1 < n; i++) {
        if (p[i] == 0xED && p[i + 1] >= 0xA0) {
            return 1;
        }
    }
    return 0;
}

/* The pure twin UTF-8 encodes a piece that has escapes (after '+' became a
 * space), so a lone surrogate in it raises there, relative to the piece. */
static PyObject *
raise_piece_surrogate(const uint8_t *p, Py_ssize_t n, Scratch *s)
{
    uint8_t *o = scratch_get(s, n);
    PyObject *piece;
    Py_ssize_t i;
    if (o == NULL) {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        o[i] = p[i] == '+' ? ' ' : p[i];
    }
    piece = PyUnicode_DecodeUTF8((const char *)o, n, "surrogatepass");
    if (piece == NULL) {
        return NULL;
    }
    raise_utf8_encode_error(piece);
    Py_DECREF(piece);
    return NULL;
}

static PyObject *
form_piece(const uint8_t *p, Py_ssize_t n, int mode, Scratch *s)
{
    const uint8_t *pct = memchr(p, '%', (size_t)n);
    uint8_t *o;
    Py_ssize_t m;
    U8Stats st;
    if (pct == NULL && mode == OUT_STR_ASCII) {
        /* ASCII without escapes: copy straight into the str, '+' as space. */
        PyObject *r = PyUnicode_New(n, 127);
        if (r != NULL) {
            Py_UCS1 *d = PyUnicode_1BYTE_DATA(r);
            for (m = 0; m < n; m++) {
                d[m] = p[m] == '+' ? ' ' : p[m];
            }
        }
        return r;
    }
    if (pct == NULL && memchr(p, '+', (size_t)n) == NULL) {
        switch (mode) {
        case OUT_BYTES:
            return PyBytes_FromStringAndSize((const char *)p, n);
        case OUT_STR_UTF8:
            return utf8_str(p, n, "surrogatepass", NULL);
        default:
            return utf8_str(p, n, "replace", NULL);
        }
    }
    if (pct != NULL && mode == OUT_STR_UTF8 && has_raw_surrogate(p, n)) {
        return raise_piece_surrogate(p, n, s);
    }
    if (mode == OUT_STR_ASCII && n <= FUSED_MAX) {
        int rc = FUSED_DONE;
        Py_ssize_t bad;
        PyObject *r = decode_short(p, n, 1, 0, NULL, &rc, &bad);
        if (rc != FUSED_GENERAL) {
            return r;
        }
    }
    if ((o = scratch_get(s, n)) == NULL) {
        return NULL;
    }
    m = decode_u8(p, n, o, 1, 0, NULL, &st);
    switch (mode) {
    case OUT_BYTES:
        return PyBytes_FromStringAndSize((const char *)o, m);
    case OUT_STR_UTF8:
        return utf8_str(o, m, pct == NULL ? "surrogatepass" : "replace", NULL);
    case OUT_STR_ASCII:
        /* ASCII input: only escapes made bytes above 0x7F, and st saw them all */
        return utf8_str(o, m, "replace", &st);
    default:
        return utf8_str(o, m, "replace", NULL);
    }
}

static PyObject *
form_parse_buf(const uint8_t *p, Py_ssize_t n, int mode)
{
    PyObject *list = PyList_New(0), *name = NULL, *value = NULL, *pair;
    Scratch s;
    Py_ssize_t i = 0;
    if (list == NULL) {
        return NULL;
    }
    s.p = s.stack;
    s.cap = (Py_ssize_t)sizeof(s.stack);
    /* Split on '&', skip empty sequences, split each at its first '='. */
    while (i < n) {
        const uint8_t *amp = memchr(p + i, '&', (size_t)(n - i));
        Py_ssize_t end = amp == NULL ? n : amp - p;
        if (end > i) {
            const uint8_t *eq = memchr(p + i, '=', (size_t)(end - i));
            Py_ssize_t name_end = eq == NULL ? end : eq - p;
            name = form_piece(p + i, name_end - i, mode, &s);
            if (name == NULL) {
                goto error;
            }
            if (eq == NULL) {
                value = mode == OUT_BYTES ? PyBytes_FromStringAndSize("", 0) : PyUnicode_New(0, 0);
            }
            else {
                value = form_piece(p + name_end + 1, end - name_end - 1, mode, &s);
            }
            if (value == NULL) {
                goto error;
            }
            pair = PyTuple_New(2);
            if (pair == NULL) {
                goto error;
            }
            PyTuple_SET_ITEM(pair, 0, name);
            PyTuple_SET_ITEM(pair, 1, value);
            name = value = NULL;
            /* Two str (or bytes) cannot form a cycle: untrack now, as the
             * collector would on its next pass, so 20,000 pairs cost it nothing. */
            PyObject_GC_UnTrack(pair);
            if (PyList_Append(list, pair) < 0) {
                Py_DECREF(pair);
                goto error;
            }
            Py_DECREF(pair);
        }
        i = end + 1;
    }
    if (s.p != s.stack) {
        PyMem_Free(s.p);
    }
    return list;
error:
    Py_XDECREF(name);
    Py_XDECREF(value);
    Py_DECREF(list);
    if (s.p != s.stack) {
        PyMem_Free(s.p);
    }
    return NULL;
}

/* Whether every byte of p[0:n] is below 0x80. */
static int
all_ascii(const uint8_t *p, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w & 0x8080808080808080ULL) {
            return 0;
        }
    }
    for (; i < n; i++) {
        if (p[i] & 0x80) {
            return 0;
        }
    }
    return 1;
}

PyObject *
pe_form_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"data"};
    PyObject *data, *utf8, *r;
    (void)self;
    if (parse_args("form_parse", args, nargs, kwnames, names, 1, &data) < 0) {
        return NULL;
    }
    if (PyBytes_Check(data)) {
        const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(data);
        Py_ssize_t n = PyBytes_GET_SIZE(data);
        /* ASCII bytes parse exactly like the same str, and that mode copies
         * pieces without escapes with no UTF-8 check. */
        return form_parse_buf(p, n, all_ascii(p, n) ? OUT_STR_ASCII : OUT_STR_FROM_BYTES);
    }
    if (!PyUnicode_Check(data)) {
        PyErr_Format(PyExc_TypeError, "expected str or bytes, got '%.200s'",
                     Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (PE_READY(data) < 0) {
        return NULL;
    }
    if (PyUnicode_IS_ASCII(data)) {
        return form_parse_buf(PyUnicode_1BYTE_DATA(data), PyUnicode_GET_LENGTH(data),
                              OUT_STR_ASCII);
    }
    /* surrogatepass keeps lone surrogates, as the pure twin does in pieces
     * without escapes; pieces with escapes raise as there. */
    utf8 = PyUnicode_AsEncodedString(data, "utf-8", "surrogatepass");
    if (utf8 == NULL) {
        return NULL;
    }
    r = form_parse_buf((const uint8_t *)PyBytes_AS_STRING(utf8), PyBytes_GET_SIZE(utf8),
                       OUT_STR_UTF8);
    Py_DECREF(utf8);
    return r;
}

PyObject *
pe_form_parse_bytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"data"};
    PyObject *data;
    (void)self;
    if (parse_args("form_parse_bytes", args, nargs, kwnames, names, 1, &data) < 0) {
        return NULL;
    }
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.200s'",
                     Py_TYPE(data)->tp_name);
        return NULL;
    }
    return form_parse_buf((const uint8_t *)PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data),
                          OUT_BYTES);
}

/* `for name, value in pairs`: new references in *a, *b. */
static int
unpack2(PyObject *item, PyObject **a, PyObject **b)
{
    PyObject *it, *extra;
    *a = *b = NULL;
    if ((PyTuple_CheckExact(item) && PyTuple_GET_SIZE(item) == 2) ||
        (PyList_CheckExact(item) && PyList_GET_SIZE(item) == 2)) {
        *a = PySequence_Fast_GET_ITEM(item, 0);
        *b = PySequence_Fast_GET_ITEM(item, 1);
        Py_INCREF(*a);
        Py_INCREF(*b);
        return 0;
    }
    it = PyObject_GetIter(item);
    if (it == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Format(PyExc_TypeError, "cannot unpack non-iterable %.200s object",
                         Py_TYPE(item)->tp_name);
        }
        return -1;
    }
    if ((*a = PyIter_Next(it)) == NULL || (*b = PyIter_Next(it)) == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected 2, got %d)",
                         *a == NULL ? 0 : 1);
        }
        goto fail;
    }
    if ((extra = PyIter_Next(it)) != NULL) {
        Py_DECREF(extra);
        PyErr_SetString(PyExc_ValueError, "too many values to unpack (expected 2)");
        goto fail;
    }
    if (PyErr_Occurred()) {
        goto fail;
    }
    Py_DECREF(it);
    return 0;
fail:
    Py_DECREF(it);
    Py_CLEAR(*a);
    Py_CLEAR(*b);
    return -1;
}

/* Length of a name or value serialized with the form set, or -1 (raised). */
static Py_ssize_t
form_len(PyObject *o)
{
    const EncTable *t = &form_table;
    Py_ssize_t n, len;
    if (PyUnicode_Check(o)) {
        if (PE_READY(o) < 0) {
            return -1;
        }
        n = PyUnicode_GET_LENGTH(o);
        if (n > PY_SSIZE_T_MAX / 12) {
            PyErr_NoMemory();
            return -1;
        }
        if (PyUnicode_IS_ASCII(o)) {
            return n + extra_u8(PyUnicode_1BYTE_DATA(o), n, t);
        }
        switch (PyUnicode_KIND(o)) {
        case PyUnicode_1BYTE_KIND:
            len = enc_len_1(PyUnicode_1BYTE_DATA(o), n, t);
            break;
        case PyUnicode_2BYTE_KIND:
            len = enc_len_2(PyUnicode_2BYTE_DATA(o), n, t);
            break;
        default:
            len = enc_len_4(PyUnicode_4BYTE_DATA(o), n, t);
            break;
        }
        if (len < 0) {
            raise_utf8_encode_error(o);
        }
        return len;
    }
    if (PyBytes_Check(o)) {
        n = PyBytes_GET_SIZE(o);
        if (n > PY_SSIZE_T_MAX / 3) {
            PyErr_NoMemory();
            return -1;
        }
        return n + extra_u8((const uint8_t *)PyBytes_AS_STRING(o), n, t);
    }
    PyErr_Format(PyExc_TypeError, "expected string or bytes-like object, got '%.200s'",
                 Py_TYPE(o)->tp_name);
    return -1;
}

static Py_UCS1 *
form_write(PyObject *o, Py_UCS1 *out)
{
    const EncTable *t = &form_table;
    if (PyBytes_Check(o)) {
        return write_u8((const uint8_t *)PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o), t, out);
    }
    if (PyUnicode_IS_ASCII(o)) {
        return write_u8(PyUnicode_1BYTE_DATA(o), PyUnicode_GET_LENGTH(o), t, out);
    }
    switch (PyUnicode_KIND(o)) {
    case PyUnicode_1BYTE_KIND:
        return enc_write_1(PyUnicode_1BYTE_DATA(o), PyUnicode_GET_LENGTH(o), t, out);
    case PyUnicode_2BYTE_KIND:
        return enc_write_2(PyUnicode_2BYTE_DATA(o), PyUnicode_GET_LENGTH(o), t, out);
    default:
        return enc_write_4(PyUnicode_4BYTE_DATA(o), PyUnicode_GET_LENGTH(o), t, out);
    }
}

PyObject *
form_serialize_obj(PyObject *pairs)
{
    PyObject *seq, *stack_items[32], **items = NULL, *r = NULL;
    Py_ssize_t n, i, got = 0, total = 0;
    Py_UCS1 *o;
    if (PyList_CheckExact(pairs) || PyTuple_CheckExact(pairs)) {
        Py_INCREF(pairs);
        seq = pairs;
    }
    else if ((seq = PySequence_List(pairs)) == NULL) {
        return NULL;
    }
    n = PySequence_Fast_GET_SIZE(seq);
    if (n == 0) {
        Py_DECREF(seq);
        return PyUnicode_New(0, 0);
    }
    if (n <= (Py_ssize_t)(sizeof(stack_items) / sizeof(stack_items[0]) / 2)) {
        items = stack_items;
    }
    else if ((size_t)n > PY_SSIZE_T_MAX / (2 * sizeof(PyObject *)) ||
             (items = PyMem_Malloc((size_t)n * 2 * sizeof(PyObject *))) == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    /* Pass 1, in the pure twin's order: unpack each pair, check and size it. */
    for (i = 0; i < n; i++) {
        Py_ssize_t a, b;
        /* A list may shrink while an item's __iter__ runs. */
        if (i >= PySequence_Fast_GET_SIZE(seq)) {
            break;
        }
        {
            /* Hold the pair: an item's __iter__ may change the list. */
            PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
            int rc;
            Py_INCREF(item);
            rc = unpack2(item, &items[2 * i], &items[2 * i + 1]);
            Py_DECREF(item);
            if (rc < 0) {
                goto done;
            }
        }
        got = i + 1;
        if ((a = form_len(items[2 * i])) < 0 || (b = form_len(items[2 * i + 1])) < 0) {
            goto done;
        }
        if (a > PY_SSIZE_T_MAX - 2 - b || total > PY_SSIZE_T_MAX - 2 - a - b) {
            PyErr_NoMemory();
            goto done;
        }
        total += a + b + 2; /* "=" and "&" (one "&" too many, taken off below) */
    }
    if (got == 0) {
        r = PyUnicode_New(0, 0);
        goto done;
    }
    r = PyUnicode_New(total - 1, 127);
    if (r == NULL) {
        goto done;
    }
    o = PyUnicode_1BYTE_DATA(r);
    for (i = 0; i < got; i++) {
        if (i > 0) {
            *o++ = '&';
        }
        o = form_write(items[2 * i], o);
        *o++ = '=';
        o = form_write(items[2 * i + 1], o);
    }
done:
    for (i = 0; i < got; i++) {
        Py_XDECREF(items[2 * i]);
        Py_XDECREF(items[2 * i + 1]);
    }
    if (items != stack_items) {
        PyMem_Free(items);
    }
    Py_DECREF(seq);
    return r;
}

PyObject *
pe_form_serialize(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"pairs"};
    PyObject *pairs;
    (void)self;
    if (parse_args("form_serialize", args, nargs, kwnames, names, 1, &pairs) < 0) {
        return NULL;
    }
    return form_serialize_obj(pairs);
}
