/* arrow_url.c: URL columns (percent_encoding.arrow.url_parse / url_component /
 * url_can_parse) over one Arrow string chunk.
 *
 * arrow_url(chunk, base, fields, fallback, large, first_row) reads a string, large_string
 * or string_view chunk (the (schema, array) capsule pair of __arrow_c_array__),
 * parses each row as a URL (URL Standard §4.4) and writes, for each requested
 * component (§6.1 getters; 10 is origin, §4.7), an offsets buffer and a data
 * buffer, with one validity bitmap for all of them; fields None asks for the
 * can-parse bitmap instead.  It returns (rows, null count, validity, out) with
 * bytearrays that pyarrow wraps without a copy (arrow.py builds the string,
 * struct or bool array from them).
 *
 * One row: row_url() gives its serialized href and, when the C URL parser made
 * it, the component offsets into the href (see url.py's URL._parts).  Today it
 * makes a str of the row and calls the C parser's entry (url_fast_new), and
 * `fallback(value, base, row)` (the Python parser: a url.URL or None) for the
 * rows the C parser leaves and for every row of a base column; a fallback URL
 * without offsets is read through its getters.  The component writers only see
 * (href bytes, offsets), so a GIL-free core parser that fills a buffer and the
 * offsets can replace row_url alone; the threads of set_threads then apply as in
 * arrow.c.  Until then the parse holds the GIL, and one thread does the work.
 *
 * With a single base (a str in arrow.py, parsed there once), rows the C parser
 * takes are parsed without it: the C parser only takes input that starts with a
 * scheme followed by "//" (special) or an opaque path, where the basic URL
 * parser never reads the base (§4.4 scheme state, special relative or
 * authority state: "//" goes on to the authority as without a base).  The tests
 * compare every row with url.parse(value, base). */
#include "arrow.h"
#include "url.h"

#define N_PARTS 9
#define ORIGIN 10

static PyObject *s_names[11]; /* the getter names, for URLs without offsets */

static const char *const names[11] = {"href",     "protocol", "username", "password",
                                      "host",     "hostname", "port",     "pathname",
                                      "search",   "hash",     "origin"};

/* One chunk, string layouts only (arrow.c's read_chunk does the same for the
 * map kernels, which also take binary). */
static int
url_read_chunk(PyObject *caps, InChunk *c, const char *what, PyObject **keep)
{
    struct ArrowSchema *s;
    struct ArrowArray *a;
    const char *f;
    if (!PyTuple_Check(caps) || PyTuple_GET_SIZE(caps) != 2) {
        PyErr_Format(PyExc_TypeError, "%s: expected the two capsules of __arrow_c_array__",
                     what);
        return -1;
    }
    s = PyCapsule_GetPointer(PyTuple_GET_ITEM(caps, 0), "arrow_schema");
    a = s == NULL ? NULL : PyCapsule_GetPointer(PyTuple_GET_ITEM(caps, 1), "arrow_array");
    if (a == NULL) {
        return -1;
    }
    f = s->format;
    memset(c, 0, sizeof *c);
    c->length = a->length;
    c->offset = a->offset;
    if (strcmp(f, "u") == 0) {
        c->layout = IN_OFF32;
    }
    else if (strcmp(f, "U") == 0) {
        c->layout = IN_OFF64;
    }
    else if (strcmp(f, "vu") == 0) {
        c->layout = IN_VIEW;
    }
    else {
        PyErr_Format(PyExc_TypeError, "%s: expected a string column, not format '%.20s'", what,
                     f);
        return -1;
    }
    if (a->length > 0 && (a->n_buffers < 3 || a->buffers[1] == NULL)) {
        PyErr_Format(PyExc_ValueError, "%s: malformed Arrow array (buffers)", what);
        return -1;
    }
    c->validity = a->null_count == 0 ? NULL : (const uint8_t *)a->buffers[0];
    c->offsets = a->buffers[1];
    if (c->layout == IN_VIEW) {
        c->view_data = (const uint8_t *const *)(a->buffers + 2);
        c->n_view_data = a->n_buffers - 3;
    }
    else {
        c->data = (const uint8_t *)a->buffers[2];
    }
    *keep = caps; /* the capsules own the buffers while we read them */
    return 0;
}

/* A str of a row's UTF-8 (ASCII: one copy). */
static PyObject *
row_str(const uint8_t *p, int64_t n)
{
    int64_t i;
    uint8_t any = 0;
    PyObject *s;
    for (i = 0; i < n; i++) {
        any |= p[i];
    }
    if (any & 0x80) {
        return PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "surrogateescape");
    }
    s = PyUnicode_New((Py_ssize_t)n, 127);
    if (s != NULL) {
        memcpy(PyUnicode_DATA(s), p, (size_t)n);
    }
    return s;
}

/* One parsed row: its href's bytes and, when the C parser made them, the
 * component offsets (else has_parts is 0 and u, the url.URL, has the getters). */
typedef struct {
    PyObject *value, *u, *href;
    const char *h;
    Py_ssize_t len;
    Py_ssize_t p[N_PARTS];
    int has_parts;
    int core; /* the href is in P.out (the C parser's buffer), not a str */
    UrlP P;
} RowURL;

static PyObject *
slot_get(PyObject *descr, PyObject *obj)
{
    return Py_TYPE(descr)->tp_descr_get(descr, obj, (PyObject *)Py_TYPE(obj));
}

/* The C parser's core on the row (no base): 1 (r->P holds the href, r->p the
 * offsets), 0 (it leaves this input to the Python parser), -1.  This is the
 * seam for a GIL-free core parse (from the row's bytes into a buffer and
 * offsets): only this function changes, and the rows can then be split
 * across threads as arrow.c splits its columns. */
static int
row_core(PyObject *value, RowURL *r)
{
    UrlParts o;
    int rc;
    UrlP *P = &r->P;
    if (host_hook == NULL || PE_READY(value) < 0) {
        return PyErr_Occurred() ? -1 : 0;
    }
    P->kind = PyUnicode_KIND(value);
    P->data = PyUnicode_DATA(value);
    P->n = PyUnicode_GET_LENGTH(value);
    P->out = P->stack;
    P->len = 0;
    P->cap = URL_STACK;
    P->heap = 0;
    P->errs = P->errbuf;
    P->nerr = 0;
    P->errcap = URL_ERRS;
    r->core = 1;
    rc = url_run(P, value, &o);
    if (rc == 1) {
        Py_ssize_t v[N_PARTS] = {o.s_end,   o.u_end,   o.h_start, o.h_end,    o.port,
                                 o.p_start, o.q_start, o.f_start, o.host_kind};
        memcpy(r->p, v, sizeof v);
        r->has_parts = 1;
        r->h = P->out;
        r->len = P->len;
    }
    return rc;
}

static void
row_clear(RowURL *r)
{
    if (r->core) {
        if (r->P.errs != r->P.errbuf) {
            PyMem_Free(r->P.errs);
        }
        if (r->P.heap) {
            PyMem_Free(r->P.out);
        }
        r->core = 0;
    }
    Py_CLEAR(r->value);
    Py_CLEAR(r->u);
    Py_CLEAR(r->href);
}

/* Parse one row: 1 (r filled), 0 (not a URL, or a null base: a null row), -1. */
static int
row_url(PyObject *fallback, PyObject *value, PyObject *base, int64_t row, RowURL *r)
{
    PyObject *u, *parts;
    int rc;
    r->u = r->href = NULL;
    r->has_parts = 0;
    r->core = 0;
    Py_INCREF(value);
    r->value = value;
    if (base == NULL) {
        rc = row_core(value, r);
        if (rc != 0) {
            return rc;
        }
        row_clear(r);
        Py_INCREF(value);
        r->value = value;
    }
    u = PyObject_CallFunction(fallback, "OOL", value, base == NULL ? Py_None : base,
                              (long long)row);
    if (u == NULL) {
        return -1;
    }
    if (u == Py_None) {
        Py_DECREF(u);
        return 0;
    }
    r->u = u;
    if (d_href == NULL || d_parts == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "arrow_url: url_setup has not run");
        return -1;
    }
    r->href = slot_get(d_href, u);
    if (r->href == NULL || !PyUnicode_Check(r->href)) {
        if (r->href != NULL) {
            PyErr_SetString(PyExc_TypeError, "arrow_url: URL.href is not a str");
        }
        return -1;
    }
    r->h = PyUnicode_AsUTF8AndSize(r->href, &r->len);
    if (r->h == NULL) {
        return -1;
    }
    parts = slot_get(d_parts, u);
    if (parts == NULL) {
        PyErr_Clear(); /* an unset slot: a URL the Python parser built */
    }
    else {
        if (PyTuple_Check(parts) && PyTuple_GET_SIZE(parts) == N_PARTS &&
            PyUnicode_IS_ASCII(r->href)) {
            int k;
            r->has_parts = 1;
            for (k = 0; k < N_PARTS; k++) {
                r->p[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(parts, k));
            }
            if (PyErr_Occurred()) {
                Py_DECREF(parts);
                return -1;
            }
        }
        Py_DECREF(parts);
    }
    return 1;
}

/* Python's href[a:b] for 0 <= a, b (the getters' slices): clamped, empty when b < a. */
static void
span(const RowURL *r, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *a_out, Py_ssize_t *b_out)
{
    if (a < 0) {
        a += r->len;
    }
    if (b < 0) {
        b += r->len;
    }
    a = a < 0 ? 0 : a > r->len ? r->len : a;
    b = b < 0 ? 0 : b > r->len ? r->len : b;
    *a_out = a;
    *b_out = b < a ? a : b;
}

/* Component k as spans of the href (url.py's getters on _parts); 0 when it
 * must come from the getter (a URL without offsets, an opaque origin). */
static int
component_span(const RowURL *r, int k, Py_ssize_t *a, Py_ssize_t *b)
{
    const Py_ssize_t *p = r->p, n = r->len;
    Py_ssize_t end;
    if (k == 0) {
        *a = 0;
        *b = n;
        return 1;
    }
    if (!r->has_parts) {
        return 0;
    }
    switch (k) {
    case 1:
        span(r, 0, p[0] + 1, a, b);
        break;
    case 2:
    case 3:
        if (p[2] > p[0] + 3) {
            if (k == 2) {
                span(r, p[0] + 3, p[1], a, b);
            }
            else {
                span(r, p[1] + 1, p[2] - 1, a, b);
            }
        }
        else {
            *a = *b = 0;
        }
        break;
    case 4:
        span(r, p[2], p[5], a, b);
        break;
    case 5:
        span(r, p[2], p[3], a, b);
        break;
    case 6:
        span(r, p[3] + 1, p[5], a, b);
        break;
    case 7:
        end = p[6] >= 0 ? p[6] : p[7] >= 0 ? p[7] : n;
        span(r, p[5], end, a, b);
        break;
    case 8:
        end = p[7] >= 0 ? p[7] : n;
        if (p[6] >= 0 && end - p[6] > 1) {
            span(r, p[6], end, a, b);
        }
        else {
            *a = *b = 0;
        }
        break;
    case 9:
        if (0 <= p[7] && p[7] < n - 1) {
            span(r, p[7], n, a, b);
        }
        else {
            *a = *b = 0;
        }
        break;
    default:
        return 0; /* origin: written by put_origin */
    }
    return 1;
}

/* One output string field: offsets and data, bytearrays pyarrow takes as they are. */
typedef struct {
    PyObject *offsets, *data;
    int64_t len, cap;
} Field;

static int
field_put(Field *f, int64_t row, int large, const char *s, Py_ssize_t n)
{
    if (n > 0) {
        if (f->len + n > f->cap) {
            /* by half again: the sizes are guessed from the input's bytes, so a
             * growth is rare, and a smaller step keeps the slack (memory beyond
             * the result) small */
            int64_t cap = f->cap < 64 ? 64 : f->cap;
            while (cap < f->len + n) {
                cap += cap / 2;
            }
            if (PyByteArray_Resize(f->data, (Py_ssize_t)cap) < 0) {
                return -1;
            }
            f->cap = cap;
        }
        memcpy(PyByteArray_AS_STRING(f->data) + f->len, s, (size_t)n);
        f->len += n;
    }
    if (large) {
        ((int64_t *)PyByteArray_AS_STRING(f->offsets))[row + 1] = f->len;
    }
    else if (f->len > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError,
                        "URL column result over 2 GiB in one chunk: use a large_string column");
        return -1;
    }
    else {
        ((int32_t *)PyByteArray_AS_STRING(f->offsets))[row + 1] = (int32_t)f->len;
    }
    return 0;
}

/* Component k of a parsed row into f. */
static int
put_component(Field *f, int64_t row, int large, RowURL *r, int k)
{
    Py_ssize_t a, b, n;
    const char *s;
    PyObject *v;
    int rc;
    if (component_span(r, k, &a, &b)) {
        return field_put(f, row, large, r->h + a, b - a);
    }
    if (k == ORIGIN && r->has_parts && r->p[8] != 0) {
        /* a tuple origin: "scheme://" and the host with its port; file: is opaque */
        if (r->len >= 5 && memcmp(r->h, "file:", 5) == 0) {
            return field_put(f, row, large, "null", 4);
        }
        span(r, 0, r->p[0] + 3, &a, &b);
        if (field_put(f, row, large, r->h + a, b - a) < 0) {
            return -1;
        }
        span(r, r->p[2], r->p[5], &a, &b);
        return field_put(f, row, large, r->h + a, b - a);
    }
    if (r->u == NULL) { /* a row the core parsed: its url.URL, made once for the getter */
        r->u = url_fast_new(r->value);
        if (r->u == NULL) {
            return -1;
        }
        if (r->u == Py_None) {
            PyErr_SetString(PyExc_RuntimeError, "arrow_url: the C parser changed its mind");
            return -1;
        }
    }
    v = PyObject_GetAttr(r->u, s_names[k]);
    if (v == NULL) {
        return -1;
    }
    s = PyUnicode_Check(v) ? PyUnicode_AsUTF8AndSize(v, &n) : NULL;
    if (s == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "arrow_url: a URL getter gave a non-str");
        }
        Py_DECREF(v);
        return -1;
    }
    rc = field_put(f, row, large, s, n);
    Py_DECREF(v);
    return rc;
}

static void
bit_set(PyObject *bits, int64_t i)
{
    ((uint8_t *)PyByteArray_AS_STRING(bits))[i >> 3] |= (uint8_t)(1u << (i & 7));
}

static PyObject *
zeroed(int64_t n)
{
    PyObject *b = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)n);
    if (b != NULL) {
        memset(PyByteArray_AS_STRING(b), 0, (size_t)n);
    }
    return b;
}

/* The bytes of the chunk's rows. */
static int64_t
in_bytes(const InChunk *c)
{
    int64_t i, n, total = 0;
    if (c->length == 0) {
        return 0;
    }
    if (c->layout == IN_OFF32) {
        const int32_t *o = (const int32_t *)c->offsets + c->offset;
        return (int64_t)o[c->length] - o[0];
    }
    if (c->layout == IN_OFF64) {
        const int64_t *o = (const int64_t *)c->offsets + c->offset;
        return o[c->length] - o[0];
    }
    for (i = 0; i < c->length; i++) {
        (void)in_row(c, i, &n);
        total += n;
    }
    return total;
}

/* A first size for component k's data: the href about the input's size, the
 * path most of it, the host a third; the short ones a few bytes a row. */
static int64_t
guess(int k, int64_t bytes, int64_t rows)
{
    switch (k) {
    case 0:
        return bytes + bytes / 16 + 64;
    case 7:
        return bytes / 2 + 64;
    case 4:
    case 5:
    case ORIGIN:
        return bytes / 3 + 64;
    case 1:
        return rows * 6 + 64;
    default:
        return rows / 2 + 64;
    }
}

/* The driver: rows of one chunk (and its aligned base rows) into the outputs. */
PyObject *
pe_arrow_url(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const argn[] = {"chunk", "base", "fields", "fallback", "large",
                                       "first_row"};
    PyObject *a[6], *keep = NULL, *bkeep = NULL, *validity = NULL, *bits = NULL;
    PyObject *out = NULL, *res = NULL;
    InChunk c, bc;
    int has_base, large, nf = 0, k, fld[11];
    Field fields[11];
    int64_t i, nulls = 0, bytes_hint;
    long long first;
    (void)self;
    if (parse_args("arrow_url", args, nargs, kwnames, argn, 6, a) < 0) {
        return NULL;
    }
    first = PyLong_AsLongLong(a[5]);
    if (first == -1 && PyErr_Occurred()) {
        return NULL;
    }
    if (s_names[0] == NULL) {
        for (k = 0; k < 11; k++) {
            if ((s_names[k] = PyUnicode_InternFromString(names[k])) == NULL) {
                return NULL;
            }
        }
    }
    if (url_read_chunk(a[0], &c, "url", &keep) < 0) {
        return NULL;
    }
    has_base = a[1] != Py_None;
    if (has_base) {
        if (url_read_chunk(a[1], &bc, "base", &bkeep) < 0) {
            return NULL;
        }
        if (bc.length != c.length) {
            PyErr_SetString(PyExc_ValueError, "arrow_url: the base chunk's length differs");
            return NULL;
        }
    }
    if (a[2] != Py_None) {
        if (!PyTuple_Check(a[2]) || PyTuple_GET_SIZE(a[2]) < 1 || PyTuple_GET_SIZE(a[2]) > 11) {
            PyErr_SetString(PyExc_TypeError, "arrow_url: fields must be a tuple of 1-11 ints");
            return NULL;
        }
        nf = (int)PyTuple_GET_SIZE(a[2]);
        for (k = 0; k < nf; k++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(a[2], k));
            if (v < 0 || v > 10) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "arrow_url: a field is 0-10");
                }
                return NULL;
            }
            fld[k] = (int)v;
        }
    }
    if (!PyCallable_Check(a[3])) {
        PyErr_SetString(PyExc_TypeError, "arrow_url: fallback must be callable");
        return NULL;
    }
    if ((large = PyObject_IsTrue(a[4])) < 0) {
        return NULL;
    }
    memset(fields, 0, sizeof fields);
    validity = zeroed((c.length + 7) / 8);
    if (validity == NULL) {
        goto done;
    }
    if (nf == 0 && (bits = zeroed((c.length + 7) / 8)) == NULL) {
        goto done;
    }
    /* the hrefs are about as long as the input rows: a first guess for each
     * component's share of them */
    bytes_hint = in_bytes(&c);
    for (k = 0; k < nf; k++) {
        int64_t cap = guess(fld[k], bytes_hint, c.length);
        fields[k].offsets = zeroed((c.length + 1) * (large ? 8 : 4));
        fields[k].data = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)(cap < 64 ? 64 : cap));
        if (fields[k].offsets == NULL || fields[k].data == NULL) {
            goto fail;
        }
        fields[k].cap = cap < 64 ? 64 : cap;
    }
    for (i = 0; i < c.length; i++) {
        RowURL r;
        int rc = 0, called = 0;
        if (in_valid(&c, i) && (!has_base || in_valid(&bc, i))) {
            int64_t n;
            const uint8_t *p = in_row(&c, i, &n);
            PyObject *value = row_str(p, n), *base = NULL;
            if (value == NULL) {
                goto fail;
            }
            if (has_base) {
                p = in_row(&bc, i, &n);
                if ((base = row_str(p, n)) == NULL) {
                    Py_DECREF(value);
                    goto fail;
                }
            }
            rc = row_url(a[3], value, base, first + i, &r);
            called = 1;
            Py_DECREF(value);
            Py_XDECREF(base);
            if (rc < 0) {
                row_clear(&r);
                goto fail;
            }
            if (nf == 0) {
                bit_set(validity, i); /* can_parse: not a URL is false, not null */
                if (rc) {
                    bit_set(bits, i);
                }
                row_clear(&r);
                continue;
            }
        }
        if (rc) {
            bit_set(validity, i);
        }
        else {
            nulls++;
        }
        for (k = 0; k < nf; k++) {
            if ((rc ? put_component(&fields[k], i, large, &r, fld[k])
                    : field_put(&fields[k], i, large, NULL, 0)) < 0) {
                if (called) {
                    row_clear(&r);
                }
                goto fail;
            }
        }
        if (called) {
            row_clear(&r);
        }
    }
    if (nf == 0) {
        res = Py_BuildValue("(LLOO)", (long long)c.length, (long long)nulls, validity, bits);
        goto done;
    }
    out = PyList_New(nf);
    if (out == NULL) {
        goto fail;
    }
    for (k = 0; k < nf; k++) {
        PyObject *pair;
        if (PyByteArray_Resize(fields[k].data, (Py_ssize_t)fields[k].len) < 0) {
            goto fail;
        }
        pair = PyTuple_Pack(2, fields[k].offsets, fields[k].data);
        if (pair == NULL) {
            goto fail;
        }
        PyList_SET_ITEM(out, k, pair);
    }
    res = Py_BuildValue("(LLOO)", (long long)c.length, (long long)nulls, validity, out);
fail:
done:
    for (k = 0; k < nf; k++) {
        Py_XDECREF(fields[k].offsets);
        Py_XDECREF(fields[k].data);
    }
    Py_XDECREF(out);
    Py_XDECREF(validity);
    Py_XDECREF(bits);
    (void)keep;
    (void)bkeep;
    return res;
}
