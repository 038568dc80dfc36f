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
 * One row (arrow_url_row.c): core_row() reads its UTF-8 (ASCII as it is, else decoded to code
 * points in a scratch buffer; not UTF-8: U+FFFD, as the other string kernels
 * read it) and runs the C URL parser's core (url_parse_core, url.h) against
 * the base: none, one url.URL (its href and offsets, read once) or the row's
 * base in a base column (base_row: parsed by the same core; the row before's
 * is kept while the text repeats).  Most rows are parsed without the GIL on
 * set_threads' threads (arrow_url_parts.c); the driver here copies their
 * results and finishes the rows they leave.  The component writers copy spans of the href the
 * core wrote, with no Python object per row.  A row the core leaves (a lone
 * surrogate, a host the hook declines), an invalid row under errors="strict"
 * (for the error) and a row whose base the core leaves go to
 * `fallback(value, base, row)` (the Python parser: a url.URL or None), read
 * through its href and offsets or its getters.  A malformed chunk (offsets
 * out of range: arrow.c's read_chunk and in_row) returns ("malformed", row,
 * what) for the caller to raise.  The tests compare every row with
 * url.parse(value, base). */
#include "arrow_url.h"

static PyObject *s_names[11]; /* the getter names, for URLs without offsets */

static const char *const names[11] = {"href",     "protocol", "username", "password",
                                      "host",     "hostname", "port",     "pathname",
                                      "search",   "hash",     "origin"};

/* One chunk, string layouts only (arrow.c's read_chunk reads and checks it):
 * 0, 1 malformed (*bad), -1. */
static int
url_read_chunk(PyObject *caps, InChunk *c, const char *what, Malformed *bad)
{
    struct ArrowSchema *s;
    struct ArrowArray *a;
    int rc;
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
    if (s->format == NULL ||
        (strcmp(s->format, "u") != 0 && strcmp(s->format, "U") != 0 &&
         strcmp(s->format, "vu") != 0)) {
        PyErr_Format(PyExc_TypeError, "%s: expected a string column, not format '%.20s'", what,
                     s->format == NULL ? "" : s->format);
        return -1;
    }
    rc = read_chunk(s, a, c, bad);
    return rc;
}

/* A str of a row's UTF-8 (not UTF-8: read with U+FFFD, as the other string
 * kernels read it). */
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
        return PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)n, "replace");
    }
    s = PyUnicode_New((Py_ssize_t)n, 127);
    if (s != NULL) {
        memcpy(PyUnicode_DATA(s), p, (size_t)n);
    }
    return s;
}

static PyObject *
slot_get(PyObject *descr, PyObject *obj)
{
    return Py_TYPE(descr)->tp_descr_get(descr, obj, (PyObject *)Py_TYPE(obj));
}

static void
row_clear(RowURL *r)
{
    Py_CLEAR(r->u);
    Py_CLEAR(r->href);
}

/* The Python parser on a row (fallback(value, base, row): a url.URL or None). */
static PyObject *
row_fallback(PyObject *fallback, RowURL *r, int64_t row)
{
    PyObject *value = row_str(r->in, r->in_n), *base = NULL, *u;
    if (value == NULL) {
        return NULL;
    }
    if (r->has_base && (base = row_str(r->bin, r->bin_n)) == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    u = PyObject_CallFunction(fallback, "OOL", value, base == NULL ? Py_None : base,
                              (long long)row);
    Py_DECREF(value);
    Py_XDECREF(base);
    return u;
}

/* A row the Python parser takes: 1 (r filled), 0 (a null row), -1. */
static int
row_python(PyObject *fallback, RowURL *r, int64_t row)
{
    PyObject *u, *parts;
    u = row_fallback(fallback, r, row);
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
put_component(Field *f, int64_t row, int large, RowURL *r, int k, PyObject *fallback,
              int64_t first)
{
    Py_ssize_t a, b, n;
    const char *s;
    PyObject *v;
    int rc;
    if (component_span(r, k, &a, &b)) {
        return field_put(f, row, large, r->h + a, b - a);
    }
    if (k == ORIGIN && r->has_parts) {
        /* §4.7: a tuple origin for the special schemes but file (url/__init__.py's
         * _TUPLE_ORIGIN): "scheme://" and the host with its port; blob: reads
         * its path's URL (the getter); any other scheme is opaque */
        static const char *const tuple[] = {"ftp", "http", "https", "ws", "wss"};
        Py_ssize_t sl = r->p[0];
        int t, blob = sl == 4 && r->len >= 4 && memcmp(r->h, "blob", 4) == 0;
        for (t = 0; t < 5; t++) {
            if ((Py_ssize_t)strlen(tuple[t]) == sl && r->len >= sl &&
                memcmp(r->h, tuple[t], (size_t)sl) == 0) {
                span(r, 0, r->p[0] + 3, &a, &b);
                if (field_put(f, row, large, r->h + a, b - a) < 0) {
                    return -1;
                }
                span(r, r->p[2], r->p[5], &a, &b);
                return field_put(f, row, large, r->h + a, b - a);
            }
        }
        if (!blob) {
            return field_put(f, row, large, "null", 4);
        }
    }
    if (r->u == NULL) { /* a row the core parsed: its url.URL, made once for the getter */
        r->u = row_fallback(fallback, r, first + row);
        if (r->u == NULL) {
            return -1;
        }
        if (r->u == Py_None) {
            PyErr_SetString(PyExc_RuntimeError, "arrow_url: the C and Python parsers differ");
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

/* One call of the kernel: its arguments and base mode, the result's buffers,
 * and the two sets of parts of the GIL-free pass (one parsed while the other's
 * placed parts are copied).  call_free releases what it holds. */
typedef struct {
    PyObject *fallback;
    long long first;
    int strict, large, nf, fld[11];
    InChunk c, bc;
    int has_base;               /* a base column, bc */
    int one, one_ok, used_one;  /* one base URL (a url.URL): B1, parsed in OP when one_ok */
    UrlParser OP;
    UrlBase B1;
    PyObject *one_keep;
    Scratch S;
    BaseRow K; /* the row before's base (a base column, rows the driver parses) */
    Field fields[11];
    PyObject *validity, *bits;
    int64_t nulls;
    UPart proto, *set, *placed[MAX_PARTS];
    int n_parts, cur, threads, n_placed, used[2];
    int64_t w1;    /* the end of the current window */
    PyObject *res; /* the answer, once known (a malformed chunk's early) */
    UPart parts[2 * MAX_PARTS]; /* last: call_new zeroes only what is above */
} UrlCall;

/* The call's state, zeroed but for the parts (a part is zeroed when first used);
 * NULL with MemoryError. */
static UrlCall *
call_new(void)
{
    UrlCall *C = PyMem_Malloc(sizeof(UrlCall));
    if (C == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memset(C, 0, offsetof(UrlCall, parts));
    C->K.n = -1;
    C->set = C->parts;
    return C;
}

static void
call_free(UrlCall *C)
{
    int k;
    for (k = 0; k < C->used[0]; k++) {
        upart_free(&C->parts[k]);
    }
    for (k = 0; k < C->used[1]; k++) {
        upart_free(&C->parts[MAX_PARTS + k]);
    }
    for (k = 0; k < C->nf; k++) {
        Py_XDECREF(C->fields[k].offsets);
        Py_XDECREF(C->fields[k].data);
    }
    base_row_free(&C->K);
    if (C->used_one) {
        url_parser_free(&C->OP);
    }
    Py_XDECREF(C->one_keep);
    scratch_free(&C->S);
    Py_XDECREF(C->validity);
    Py_XDECREF(C->bits);
    PyMem_Free(C);
}

/* ("malformed", row, what) for arrow.py to raise, as the call's answer: 1, or -1. */
static int
malformed(UrlCall *C, int64_t row, const char *what)
{
    C->res = Py_BuildValue("(sLs)", "malformed", C->first + (long long)row, what);
    return C->res == NULL ? -1 : 1;
}

/* The arguments but the chunks: first_row, strict, large, fields (None: the
 * can-parse bitmap), fallback.  0, or -1 with an exception. */
static int
call_args(UrlCall *C, PyObject *const *a)
{
    int k;
    C->first = PyLong_AsLongLong(a[5]);
    if (C->first == -1 && PyErr_Occurred()) {
        return -1;
    }
    if ((C->strict = PyObject_IsTrue(a[6])) < 0 || (C->large = PyObject_IsTrue(a[4])) < 0) {
        return -1;
    }
    if (s_names[0] == NULL) {
        for (k = 0; k < 11; k++) {
            if ((s_names[k] = PyUnicode_InternFromString(names[k])) == NULL) {
                return -1;
            }
        }
    }
    if (a[2] != Py_None) {
        if (!PyTuple_Check(a[2]) || PyTuple_GET_SIZE(a[2]) < 1 || PyTuple_GET_SIZE(a[2]) > 11) {
            PyErr_SetString(PyExc_TypeError, "arrow_url: fields must be a tuple of 1-11 ints");
            return -1;
        }
        for (k = 0; k < (int)PyTuple_GET_SIZE(a[2]); k++) {
            long v = PyLong_AsLong(PyTuple_GET_ITEM(a[2], k));
            if (v < 0 || v > 10) {
                if (!PyErr_Occurred()) {
                    PyErr_SetString(PyExc_ValueError, "arrow_url: a field is 0-10");
                }
                return -1;
            }
            C->fld[k] = (int)v;
        }
        C->nf = k; /* only now: call_free releases nf fields */
    }
    if (!PyCallable_Check(a[3])) {
        PyErr_SetString(PyExc_TypeError, "arrow_url: fallback must be callable");
        return -1;
    }
    C->fallback = a[3];
    return 0;
}

/* The chunk, and the base mode: a base column (its chunk, as long), one url.URL
 * (its href and offsets, read once) or none.  0, 1 malformed (C->res), -1. */
static int
call_chunks(UrlCall *C, PyObject *chunk, PyObject *base)
{
    Malformed m;
    int rc;
    if ((rc = url_read_chunk(chunk, &C->c, "url", &m)) != 0) {
        return rc < 0 ? -1 : malformed(C, m.row, m.what);
    }
    if (PyTuple_Check(base)) {
        C->has_base = 1;
        if ((rc = url_read_chunk(base, &C->bc, "base", &m)) != 0) {
            return rc < 0 ? -1 : malformed(C, m.row, m.what);
        }
        if (C->bc.length != C->c.length) {
            PyErr_SetString(PyExc_ValueError, "arrow_url: the base chunk's length differs");
            return -1;
        }
    }
    else if (base != Py_None) {
        C->one = 1;
        C->OP.errs = C->OP.errbuf;
        if ((rc = url_base(base, &C->OP, &C->B1, &C->used_one, 0, &C->one_keep)) < 0) {
            return -1;
        }
        C->one_ok = rc == 1;
    }
    return 0;
}

/* The result's buffers (validity, the can-parse bits or each field's offsets and
 * data, sized from the input) and the parts' common settings.  0, or -1. */
static int
call_buffers(UrlCall *C)
{
    int k;
    int64_t rows = C->c.length;
    C->validity = zeroed((rows + 7) / 8);
    if (C->validity == NULL || (C->nf == 0 && (C->bits = zeroed((rows + 7) / 8)) == NULL)) {
        return -1;
    }
    for (k = 0; k < C->nf; k++) {
        /* the hrefs are about as long as the input rows: a first guess for each
         * component's share of them */
        int64_t cap = guess(C->fld[k], C->c.bytes, rows);
        Field *f = &C->fields[k];
        cap = cap < 64 ? 64 : cap;
        /* every row's end offset is written (by field_put or part_fill, which
         * touches the fresh pages on the threads): only the first is set here */
        f->offsets =
            PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)((rows + 1) * (C->large ? 8 : 4)));
        f->data = PyByteArray_FromStringAndSize(NULL, (Py_ssize_t)cap);
        if (f->offsets == NULL || f->data == NULL) {
            return -1;
        }
        memset(PyByteArray_AS_STRING(f->offsets), 0, C->large ? 8 : 4);
        f->cap = cap;
    }
    C->proto.c = &C->c;
    C->proto.bc = &C->bc;
    C->proto.one = C->one && C->one_ok ? &C->B1 : NULL;
    C->proto.one_py = C->one && !C->one_ok;
    C->proto.has_base = C->has_base;
    C->proto.strict = C->strict;
    C->proto.nf = C->nf;
    C->proto.fld = C->fld;
    C->threads = arrow_n_threads();
    C->threads = C->threads < 1 ? 1 : C->threads > 8 ? 8 : C->threads;
    return 0;
}

/* window_run over rows [w0, w1) of the parts in set, with the copies of the
 * parts placed before into the result (then counted in nulls, and none is
 * left placed): 0, or -1 with an exception. */
static int
fill_run(UrlCall *C, UPart *set, int t, int64_t w0, int64_t w1)
{
    Sink sink;
    int k, rc;
    /* the buffers' addresses now: nothing resizes them until window_run returns */
    for (k = 0; k < C->nf; k++) {
        sink.data[k] = PyByteArray_AS_STRING(C->fields[k].data);
        sink.offsets[k] = PyByteArray_AS_STRING(C->fields[k].offsets);
    }
    sink.validity = (uint8_t *)PyByteArray_AS_STRING(C->validity);
    sink.bits = C->bits == NULL ? NULL : (uint8_t *)PyByteArray_AS_STRING(C->bits);
    sink.nf = C->nf;
    sink.large = C->large;
    rc = window_run(set, t, &C->proto, w0, w1, C->placed, C->n_placed, &sink);
    for (k = 0; k < C->n_placed; k++) {
        C->nulls += C->placed[k]->nulls;
    }
    C->n_placed = 0;
    return rc < 0 ? -1 : 0;
}

/* The window from row i: parsed without the GIL on the threads (with the
 * copies of the parts placed from the window before, in the other set).
 * 0, 1 malformed (C->res), -1. */
static int
next_window(UrlCall *C, int64_t i)
{
    int64_t rows = C->c.length, span_rows = (int64_t)WINDOW * C->threads;
    int t, k, which;
    C->set = C->set == C->parts ? C->parts + MAX_PARTS : C->parts;
    C->w1 = rows - i > span_rows ? i + span_rows : rows;
    t = C->w1 - i >= 16384 ? C->threads : 1;
    C->n_parts = (int)((C->w1 - i + SUB - 1) / SUB);
    /* parts used for the first time start empty (a short column, the common
     * call from an engine's UDF, touches one) */
    which = C->set == C->parts ? 0 : 1;
    if (C->n_parts > C->used[which]) {
        memset(C->set + C->used[which], 0,
               (size_t)(C->n_parts - C->used[which]) * sizeof(UPart));
        C->used[which] = C->n_parts;
    }
    if (fill_run(C, C->set, t, i, C->w1) < 0) {
        return -1;
    }
    C->cur = 0;
    for (k = 0; k < C->n_parts; k++) {
        if (C->set[k].bad >= 0) {
            return malformed(C, C->set[k].bad,
                             "its offsets (or its base's) go backwards or beyond the first and "
                             "last offsets (or past memory the process can have)");
        }
        if (C->set[k].nomem) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* Row i, which its part u parsed (not ST_PY), copied into the result: 0, or -1. */
static int
row_from_part(UrlCall *C, const UPart *u, int64_t i)
{
    int64_t j = i - u->r0;
    int st = u->st[j], k, q;
    if (C->nf == 0) {
        if (st != ST_NULL) {
            bit_set(C->validity, i);
            if (st == ST_OK) {
                bit_set(C->bits, i);
            }
        }
        else {
            C->nulls++;
        }
        return 0;
    }
    if (st == ST_OK) {
        bit_set(C->validity, i);
    }
    else {
        C->nulls++;
    }
    for (k = 0; k < C->nf; k++) {
        const char *ps[2];
        int64_t pn[2];
        int np = st == ST_OK ? upart_pieces(u, j, C->fld[k], ps, pn) : 0;
        if (field_put(&C->fields[k], i, C->large, NULL, 0) < 0) {
            return -1;
        }
        for (q = 0; q < np; q++) {
            if (field_put(&C->fields[k], i, C->large, ps[q], pn[q]) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

/* The base of row i (its text in r): B, and how the row is parsed (*go): 1 by
 * the core, 0 by the Python parser, -1 a null row (an invalid base under
 * errors="null").  0, 1 the base's offsets are malformed, or -1 (no memory). */
static int
row_base(UrlCall *C, RowURL *r, int64_t i, const UrlBase **B, int *go)
{
    int rc;
    *B = NULL;
    *go = 1;
    if (C->has_base) {
        r->has_base = 1;
        r->bin = in_row(&C->bc, i, &r->bin_n);
        if (r->bin == NULL) {
            return 1;
        }
        /* the base of the row before, when it is the same text */
        rc = base_row(&C->S, &C->K, r->bin, r->bin_n);
        if (rc < 0) {
            return -1;
        }
        if (rc == 1) {
            *B = &C->K.B;
        }
        else {
            *go = rc == 2 && !C->strict ? -1 : 0;
        }
    }
    else if (C->one) {
        *B = &C->B1;
        *go = C->one_ok;
    }
    return 0;
}

/* Row i parsed with the GIL (the core, else the Python parser) into r: 1 a URL,
 * 0 a null row (not a URL), 2 its base is malformed (C->res), -1 with an exception.  *P holds the core's parse
 * when *p_live. */
static int
row_parse(UrlCall *C, RowURL *r, int64_t i, UrlParser *P, int *p_live)
{
    const UrlBase *B;
    UrlParts o;
    int go, rc = row_base(C, r, i, &B, &go);
    if (rc != 0) {
        return rc < 0 || malformed(C, i, "the base column's offsets go backwards or beyond "
                                         "the first and last offsets (or past memory the "
                                         "process can have)") < 0
                   ? -1
                   : 2;
    }
    if (go == 1) {
        *p_live = 1;
        rc = core_row(&C->S, P, r->in, r->in_n, B, &o);
        if (rc < 0) {
            return -1;
        }
        if (rc == 1) {
            row_parsed(r, P, &o);
        }
        else if (rc == 2 && !C->strict) {
            rc = 0; /* not a URL: a null row */
        }
        else {
            go = 0; /* strict (for the error), or a row the C parser leaves */
        }
    }
    else if (go < 0) {
        rc = 0;
    }
    if (go == 0) {
        rc = row_python(C->fallback, r, C->first + i);
    }
    return rc;
}

/* Row i's outputs once parsed (rc: row_parse's 1 or 0): validity, and the
 * can-parse bit or each field.  0, or -1. */
static int
row_write(UrlCall *C, RowURL *r, int64_t i, int valid, int rc)
{
    int k;
    if (C->nf == 0) {
        if (valid) {
            bit_set(C->validity, i); /* can_parse: not a URL is false, not null */
            if (rc) {
                bit_set(C->bits, i);
            }
        }
        else {
            C->nulls++;
        }
        return 0;
    }
    if (rc) {
        bit_set(C->validity, i);
    }
    else {
        C->nulls++;
    }
    for (k = 0; k < C->nf; k++) {
        if ((rc ? put_component(&C->fields[k], i, C->large, r, C->fld[k], C->fallback,
                                C->first)
                : field_put(&C->fields[k], i, C->large, NULL, 0)) < 0) {
            return -1;
        }
    }
    return 0;
}

/* A row a part left (ST_PY): parsed here, with the GIL, and written.  0, 1
 * malformed (C->res), -1. */
static int
row_slow(UrlCall *C, int64_t i)
{
    RowURL r;
    UrlParser P;
    int rc = 0, p_live = 0, valid;
    memset(&r, 0, sizeof r);
    P.nogil = P.head_only = 0;
    valid = in_valid(&C->c, i) && (!C->has_base || in_valid(&C->bc, i));
    if (valid) {
        r.in = in_row(&C->c, i, &r.in_n);
        if (r.in == NULL) {
            return malformed(C, i, "its offsets go backwards or beyond the first and last "
                                   "offsets (or past memory the process can have)");
        }
        rc = row_parse(C, &r, i, &P, &p_live);
    }
    if (rc == 0 || rc == 1) {
        rc = row_write(C, &r, i, valid, rc);
    }
    else if (rc == 2) {
        rc = 1;
    }
    row_clear(&r);
    if (p_live) {
        url_parser_free(&P);
    }
    return rc;
}

/* Every row, window by window: a whole part placed (copied on the threads with
 * the next window), the rows of any other part one by one.  0, 1 malformed, -1. */
static int
url_rows(UrlCall *C)
{
    int64_t i;
    int rc;
    for (i = 0; i < C->c.length; i++) {
        UPart *u;
        if (i == C->w1 && (rc = next_window(C, i)) != 0) {
            return rc;
        }
        while (i >= C->set[C->cur].r1) {
            C->cur++;
        }
        u = &C->set[C->cur];
        if (i == u->r0 && u->n_py == 0 && u->r1 > u->r0) {
            /* a part with no row for Python: its place now, its buffers copied
             * on the threads with the next window */
            if (part_place(u, C->fields, C->nf, C->large) < 0) {
                return -1;
            }
            C->placed[C->n_placed++] = u;
            i = u->r1 - 1;
            continue;
        }
        rc = u->st[i - u->r0] != ST_PY ? row_from_part(C, u, i) : row_slow(C, i);
        if (rc != 0) {
            return rc;
        }
    }
    /* the parts placed from the last window */
    if (C->n_placed > 0 && fill_run(C, C->set == C->parts ? C->parts + MAX_PARTS : C->parts,
                                    C->threads, C->c.length, C->c.length) < 0) {
        return -1;
    }
    return 0;
}

/* (rows, null count, validity, the can-parse bits or [(offsets, data)] a field). */
static PyObject *
call_result(UrlCall *C)
{
    PyObject *out;
    int k;
    if (C->nf == 0) {
        C->res = Py_BuildValue("(LLOO)", (long long)C->c.length, (long long)C->nulls,
                               C->validity, C->bits);
        return C->res;
    }
    out = PyList_New(C->nf);
    for (k = 0; out != NULL && k < C->nf; k++) {
        PyObject *pair = NULL;
        if (PyByteArray_Resize(C->fields[k].data, (Py_ssize_t)C->fields[k].len) == 0) {
            pair = PyTuple_Pack(2, C->fields[k].offsets, C->fields[k].data);
        }
        if (pair == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, k, pair);
    }
    if (out == NULL) {
        return NULL;
    }
    C->res = Py_BuildValue("(LLOO)", (long long)C->c.length, (long long)C->nulls, C->validity,
                           out);
    Py_DECREF(out);
    return C->res;
}

/* The driver: rows of one chunk (and its aligned base rows) into the outputs.
 * Check the arguments, pick the base mode, make the buffers, run the rows,
 * build the result. */
PyObject *
pe_arrow_url(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const argn[] = {"chunk", "base", "fields", "fallback", "large",
                                       "first_row", "strict"};
    PyObject *a[7], *res = NULL;
    UrlCall *C;
    int rc;
    (void)self;
    if (parse_args("arrow_url", args, nargs, kwnames, argn, 7, a) < 0) {
        return NULL;
    }
    if ((C = call_new()) == NULL) {
        return NULL;
    }
    rc = call_args(C, a);
    if (rc == 0) {
        rc = call_chunks(C, a[0], a[1]);
    }
    if (rc == 0) {
        rc = call_buffers(C);
    }
    if (rc == 0) {
        rc = url_rows(C);
    }
    if (rc == 0) {
        call_result(C);
    }
    res = rc >= 0 ? C->res : NULL;
    if (rc < 0) {
        Py_CLEAR(C->res);
    }
    call_free(C);
    return res;
}
