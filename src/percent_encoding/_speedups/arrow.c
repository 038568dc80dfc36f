/* Column kernels over the Arrow C Data Interface (PyCapsule protocol).
 *
 * arrow_map(column, op, arg, plus, errors) reads a string/binary column from
 * __arrow_c_array__ or __arrow_c_stream__ and runs the per-string kernel on
 * each row's (pointer, length) slice of the data buffer, with the GIL
 * released for the UTF-8 ops.  Each output chunk is one data buffer sized up
 * front (the input's byte count) and grown by doubling, its offsets and
 * validity bitmap written in the same pass; no Python object per row.  The
 * result is an ArrowColumn, which exports __arrow_c_array__ (one chunk) and
 * __arrow_c_stream__ without copying; its buffers live as long as it does,
 * and each exported ArrowArray holds a reference to it.
 *
 * Ops: "decode" (binary out), "decode_text" (UTF-8; errors replace, null or
 * strict), "encode" (arg: a 256-byte encode-set table), "form_get" (arg: the
 * field name), and "call_text"/"call_binary" (arg: a Python callable(value,
 * row) giving str/bytes or None, run with the GIL held: legacy encodings).
 * A strict decode_text stops at the first row that is not UTF-8 and returns
 * (row, value) instead of a column: arrow.py raises the per-string error. */
#include "speedups.h"

#ifndef _WIN32
#include <pthread.h>
#include <sys/mman.h>
#define PE_THREADS 1
#endif

/* The Arrow C Data Interface structs (an ABI fixed by the Arrow format spec). */
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#define ARROW_FLAG_NULLABLE 2

enum { IN_OFF32, IN_OFF64, IN_VIEW };
enum { OP_DECODE, OP_DECODE_TEXT, OP_ENCODE, OP_FORM_GET, OP_CALL_TEXT, OP_CALL_BINARY };
enum { ERR_REPLACE, ERR_NULL, ERR_STRICT };

/* One input chunk, read-only. */
typedef struct {
    int layout;
    int is_binary;
    int64_t length, offset;
    const uint8_t *validity;
    const void *offsets; /* int32/int64 offsets, or 16-byte views */
    const uint8_t *data;
    const uint8_t *const *view_data; /* string_view: the variadic data buffers */
    int64_t n_view_data;
} InChunk;

/* One output chunk: owned buffers. */
typedef struct {
    int64_t length, null_count;
    uint8_t *validity;
    void *offsets;
    uint8_t *data;
    int64_t data_len, data_cap;
    int large;
    int fixed; /* a view of a part of a shared buffer: it cannot grow */
} OutChunk;

static inline int
in_valid(const InChunk *c, int64_t i)
{
    int64_t j = i + c->offset;
    return c->validity == NULL || (c->validity[j >> 3] >> (j & 7)) & 1;
}

static inline const uint8_t *
in_row(const InChunk *c, int64_t i, int64_t *n)
{
    int64_t j = i + c->offset;
    if (c->layout == IN_OFF32) {
        const int32_t *o = (const int32_t *)c->offsets;
        *n = (int64_t)o[j + 1] - o[j];
        return c->data + o[j];
    }
    if (c->layout == IN_OFF64) {
        const int64_t *o = (const int64_t *)c->offsets;
        *n = o[j + 1] - o[j];
        return c->data + o[j];
    }
    {
        const uint8_t *v = (const uint8_t *)c->offsets + 16 * j;
        int32_t len, buf, off;
        memcpy(&len, v, 4);
        *n = len;
        if (len <= 12) {
            return v + 4;
        }
        memcpy(&buf, v + 8, 4);
        memcpy(&off, v + 12, 4);
        return c->view_data[buf] + off;
    }
}

static int
read_chunk(const struct ArrowSchema *s, const struct ArrowArray *a, InChunk *c)
{
    const char *f = s->format;
    c->length = a->length;
    c->offset = a->offset;
    c->view_data = NULL;
    c->n_view_data = 0;
    if (strcmp(f, "u") == 0 || strcmp(f, "z") == 0) {
        c->layout = IN_OFF32;
    }
    else if (strcmp(f, "U") == 0 || strcmp(f, "Z") == 0) {
        c->layout = IN_OFF64;
    }
    else if (strcmp(f, "vu") == 0 || strcmp(f, "vz") == 0) {
        c->layout = IN_VIEW;
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "expected a string or binary Arrow column, not format '%.20s'", f);
        return -1;
    }
    c->is_binary = f[strlen(f) - 1] == 'z' || f[strlen(f) - 1] == 'Z';
    if (a->length > 0 && (a->n_buffers < (c->layout == IN_VIEW ? 3 : 3))) {
        PyErr_SetString(PyExc_ValueError, "malformed Arrow array: too few buffers");
        return -1;
    }
    c->validity = a->null_count == 0 ? NULL : (const uint8_t *)a->buffers[0];
    c->offsets = a->buffers[1];
    if (c->layout == IN_VIEW) {
        c->view_data = (const uint8_t *const *)(a->buffers + 2);
        c->n_view_data = a->n_buffers - 3;
        c->data = NULL;
    }
    else {
        c->data = (const uint8_t *)a->buffers[2];
    }
    if (a->length > 0 && c->offsets == NULL) {
        PyErr_SetString(PyExc_ValueError, "malformed Arrow array: no offsets buffer");
        return -1;
    }
    return 0;
}

/* -- output buffers ------------------------------------------------------- */

static int
out_init(OutChunk *o, int64_t rows, int64_t data_hint, int large)
{
    o->length = rows;
    o->null_count = 0;
    o->large = large;
    o->fixed = 0;
    o->validity = calloc((size_t)(rows + 7) / 8 + 1, 1);
    o->offsets = malloc((size_t)(rows + 1) * (large ? 8 : 4));
    o->data_cap = data_hint < 64 ? 64 : data_hint;
    o->data = NULL;
#if defined(MADV_HUGEPAGE)
    /* Large outputs: 2 MB pages, so the first touch of each costs one fault
     * instead of 512 (page faults are a good share of the time here). */
    if (o->data_cap >= (8 << 20)) {
        void *d = NULL;
        if (posix_memalign(&d, 2 << 20, (size_t)o->data_cap) == 0) {
            madvise(d, (size_t)o->data_cap, MADV_HUGEPAGE);
            o->data = d;
        }
    }
#endif
    if (o->data == NULL) {
        o->data = malloc((size_t)o->data_cap);
    }
    o->data_len = 0;
    if (o->validity == NULL || o->offsets == NULL || o->data == NULL) {
        return -1;
    }
    if (large) {
        ((int64_t *)o->offsets)[0] = 0;
    }
    else {
        ((int32_t *)o->offsets)[0] = 0;
    }
    return 0;
}

static void
out_free(OutChunk *o)
{
    free(o->validity);
    free(o->offsets);
    free(o->data);
    o->validity = NULL;
    o->offsets = NULL;
    o->data = NULL;
}

/* Room for `need` more bytes at data_len: grow by doubling. */
static inline int
out_reserve(OutChunk *o, int64_t need)
{
    int64_t cap = o->data_cap;
    uint8_t *d;
    if (o->data_len + need <= cap) {
        return 0;
    }
    if (o->fixed) {
        return -1;
    }
    while (o->data_len + need > cap) {
        if (cap > INT64_MAX / 2) {
            return -1;
        }
        cap *= 2;
    }
    d = realloc(o->data, (size_t)cap);
    if (d == NULL) {
        return -1;
    }
    o->data = d;
    o->data_cap = cap;
    return 0;
}

/* Close row i: valid or null; -1 when 32-bit offsets overflow. */
static inline int
out_row(OutChunk *o, int64_t i, int valid)
{
    if (valid) {
        o->validity[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    else {
        o->null_count++;
    }
    if (o->large) {
        ((int64_t *)o->offsets)[i + 1] = o->data_len;
        return 0;
    }
    if (o->data_len > INT32_MAX) {
        return -1;
    }
    ((int32_t *)o->offsets)[i + 1] = (int32_t)o->data_len;
    return 0;
}

/* -- UTF-8 (Encoding Standard §8.1.1 UTF-8 decoder) ------------------------ */

/* Length of the valid UTF-8 prefix of p[0:n]: n when all of it is valid.
 * ASCII is skipped 8 bytes at a time; a sequence is checked by its lead
 * byte's class (the second byte's range depends on the lead: no overlong
 * forms, surrogates, or values above U+10FFFF). */
static int64_t
utf8_valid_prefix(const uint8_t *p, int64_t n)
{
    int64_t i = 0;
    for (;;) {
        unsigned c, b1;
        uint64_t w;
        while (i + 8 <= n) {
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL) {
                break;
            }
            i += 8;
        }
        while (i < n && p[i] < 0x80) {
            i++;
            if ((i & 7) == 0 && i + 8 <= n) {
                break;
            }
        }
        if (i >= n) {
            return n;
        }
        c = p[i];
        if (c < 0x80) {
            continue;
        }
        if (c < 0xE0) {
            if (c < 0xC2 || i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) {
                return i;
            }
            i += 2;
        }
        else if (c < 0xF0) {
            if (i + 2 >= n) {
                return i;
            }
            b1 = p[i + 1];
            if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (c == 0xE0 && b1 < 0xA0) ||
                (c == 0xED && b1 > 0x9F)) {
                return i;
            }
            i += 3;
        }
        else {
            if (c > 0xF4 || i + 3 >= n) {
                return i;
            }
            b1 = p[i + 1];
            if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (p[i + 3] & 0xC0) != 0x80 ||
                (c == 0xF0 && b1 < 0x90) || (c == 0xF4 && b1 > 0x8F)) {
                return i;
            }
            i += 4;
        }
    }
}

/* Write p[0:n] to o with U+FFFD for each maximal subpart that is not valid
 * UTF-8 (what Python's "replace" does); o has room for 3n bytes. */
static int64_t
utf8_replace(const uint8_t *p, int64_t n, uint8_t *o)
{
    uint8_t *start = o;
    int64_t i = 0;
    while (i < n) {
        unsigned c = p[i], lo = 0x80, hi = 0xBF;
        int need, k;
        if (c < 0x80) {
            *o++ = (uint8_t)c;
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        }
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        }
        else {
            need = 0;
        }
        /* k: how many bytes of the sequence are there and in range */
        k = 1;
        if (need > 0) {
            if (i + 1 < n && p[i + 1] >= lo && p[i + 1] <= hi) {
                k = 2;
                while (k <= need && i + k < n && p[i + k] >= 0x80 && p[i + k] <= 0xBF) {
                    k++;
                }
            }
        }
        if (need > 0 && k == need + 1) {
            memcpy(o, p + i, (size_t)k);
            o += k;
        }
        else {
            *o++ = 0xEF;
            *o++ = 0xBF;
            *o++ = 0xBD;
        }
        i += k;
    }
    return o - start;
}

/* -- per-row work ---------------------------------------------------------- */

typedef struct {
    int op, errors, plus;
    EncTable table;
    const uint8_t *name; /* form_get: the field name's UTF-8 */
    int64_t name_len;
    uint8_t *scratch; /* thread-private */
    int64_t scratch_cap;
    int64_t bad_row; /* strict: the first row that is not UTF-8, else -1 */
    int oom;
} Job;

static int
scratch_reserve(Job *j, int64_t need)
{
    if (need > j->scratch_cap) {
        int64_t cap = j->scratch_cap ? j->scratch_cap : 256;
        uint8_t *s;
        while (cap < need) {
            cap *= 2;
        }
        s = realloc(j->scratch, (size_t)cap);
        if (s == NULL) {
            return -1;
        }
        j->scratch = s;
        j->scratch_cap = cap;
    }
    return 0;
}

/* Percent-decode p[0:n] (plus: '+' is a space) into the output, then keep it
 * as is (binary), or check it is UTF-8 (text).  Returns 1 for a valid row, 0
 * for a null one (errors null/strict on bad UTF-8), -1 out of memory. */
static int
decode_piece(Job *j, OutChunk *o, const uint8_t *p, int64_t n, int text)
{
    Py_ssize_t bad;
    U8Stats st;
    int64_t len, ok;
    uint8_t *at;
    if (out_reserve(o, n + 8) < 0) {
        return -1;
    }
    at = o->data + o->data_len;
    len = decode_u8(p, n, at, j->plus, 0, &bad, &st);
    if (!text || (ok = utf8_valid_prefix(at, len)) == len) {
        o->data_len += len;
        return 1;
    }
    if (j->errors != ERR_REPLACE) {
        return 0;
    }
    /* Rewrite with U+FFFD from a copy: up to 3 bytes out per byte in. */
    if (scratch_reserve(j, len) < 0) {
        return -1;
    }
    memcpy(j->scratch, at, (size_t)len);
    o->data_len += ok;
    if (out_reserve(o, 3 * (len - ok)) < 0) {
        return -1;
    }
    o->data_len += utf8_replace(j->scratch + ok, len - ok, o->data + o->data_len);
    return 1;
}

/* URL Standard §5.1: the first value of field j->name, or 0 when absent. */
static int
form_get_row(Job *j, OutChunk *o, const uint8_t *p, int64_t n)
{
    int64_t s = 0;
    if (n > 0 && p[0] == '?') {
        s = 1; /* one leading '?': a column of search strings works as is */
    }
    while (s < n) {
        const uint8_t *amp = memchr(p + s, '&', (size_t)(n - s));
        int64_t e = amp ? amp - p : n, eq, nl;
        const uint8_t *eqp;
        if (e == s) {
            s = e + 1;
            continue;
        }
        eqp = memchr(p + s, '=', (size_t)(e - s));
        eq = eqp ? eqp - p : e;
        nl = eq - s;
        /* Compare the decoded name: decode into scratch, then to UTF-8 with
         * U+FFFD, and compare bytes. */
        {
            Py_ssize_t bad;
            U8Stats st;
            int64_t len, ok;
            const uint8_t *nm;
            int64_t nmlen;
            if (scratch_reserve(j, 4 * nl + 8) < 0) {
                return -1;
            }
            len = decode_u8(p + s, nl, j->scratch, 1, 0, &bad, &st);
            ok = utf8_valid_prefix(j->scratch, len);
            if (ok == len) {
                nm = j->scratch;
                nmlen = len;
            }
            else {
                uint8_t *r = j->scratch + len;
                nmlen = ok + utf8_replace(j->scratch + ok, len - ok, r + ok);
                memcpy(r, j->scratch, (size_t)ok);
                nm = r;
            }
            if (nmlen == j->name_len && memcmp(nm, j->name, (size_t)nmlen) == 0) {
                int64_t vs = eqp ? eq + 1 : e;
                int saved = j->errors;
                int r;
                j->errors = ERR_REPLACE;
                r = decode_piece(j, o, p + vs, e - vs, 1);
                j->errors = saved;
                return r;
            }
        }
        s = e + 1;
    }
    return 0;
}

/* Rows [r0, r1) of c into o (rows numbered from r0).  GIL released. */
static int
run_rows(Job *j, const InChunk *c, int64_t r0, int64_t r1, OutChunk *o, int64_t base)
{
    int64_t i;
    for (i = r0; i < r1; i++) {
        int valid = 0;
        if (in_valid(c, i)) {
            int64_t n;
            const uint8_t *p = in_row(c, i, &n);
            switch (j->op) {
            case OP_DECODE:
                valid = decode_piece(j, o, p, n, 0);
                break;
            case OP_DECODE_TEXT:
                valid = decode_piece(j, o, p, n, 1);
                if (valid == 0 && j->errors == ERR_STRICT) {
                    j->bad_row = base + i;
                    return 0;
                }
                break;
            case OP_ENCODE:
                if (out_reserve(o, 3 * n + 1) < 0) {
                    valid = -1;
                    break;
                }
                o->data_len += write_u8(p, n, &j->table, o->data + o->data_len) -
                               (o->data + o->data_len);
                valid = 1;
                break;
            default:
                valid = form_get_row(j, o, p, n);
                break;
            }
            if (valid < 0) {
                j->oom = 1;
                return -1;
            }
        }
        if (out_row(o, i - r0, valid) < 0) {
            j->oom = 2;
            return -1;
        }
    }
    return 0;
}

/* -- the result object ----------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int binary;
    Py_ssize_t n_chunks;
    OutChunk *chunks;
} Column;

static void
column_dealloc(Column *self)
{
    Py_ssize_t i;
    for (i = 0; i < self->n_chunks; i++) {
        out_free(&self->chunks[i]);
    }
    PyMem_Free(self->chunks);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static const char *
column_format(Column *c)
{
    int large = c->n_chunks > 0 && c->chunks[0].large;
    return c->binary ? (large ? "Z" : "z") : (large ? "U" : "u");
}

static void
schema_release(struct ArrowSchema *s)
{
    s->release = NULL;
}

static void
fill_schema(struct ArrowSchema *s, const char *format)
{
    memset(s, 0, sizeof *s);
    s->format = format;
    s->name = "";
    s->flags = ARROW_FLAG_NULLABLE;
    s->release = schema_release;
}

typedef struct {
    PyObject *owner;
    const void *buffers[3];
} ArrayPrivate;

static void
array_release(struct ArrowArray *a)
{
    ArrayPrivate *pv = (ArrayPrivate *)a->private_data;
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF(pv->owner);
    PyGILState_Release(g);
    free(pv);
    a->release = NULL;
}

static int
fill_array(struct ArrowArray *a, Column *c, Py_ssize_t k)
{
    OutChunk *o = &c->chunks[k];
    ArrayPrivate *pv = malloc(sizeof *pv);
    if (pv == NULL) {
        return -1;
    }
    memset(a, 0, sizeof *a);
    pv->owner = (PyObject *)c;
    Py_INCREF(c);
    pv->buffers[0] = o->null_count ? o->validity : NULL;
    pv->buffers[1] = o->offsets;
    pv->buffers[2] = o->data;
    a->length = o->length;
    a->null_count = o->null_count;
    a->n_buffers = 3;
    a->buffers = pv->buffers;
    a->release = array_release;
    a->private_data = pv;
    return 0;
}

static void
schema_capsule_free(PyObject *cap)
{
    struct ArrowSchema *s = PyCapsule_GetPointer(cap, "arrow_schema");
    if (s != NULL) {
        if (s->release != NULL) {
            s->release(s);
        }
        free(s);
    }
}

static void
array_capsule_free(PyObject *cap)
{
    struct ArrowArray *a = PyCapsule_GetPointer(cap, "arrow_array");
    if (a != NULL) {
        if (a->release != NULL) {
            a->release(a);
        }
        free(a);
    }
}

static PyObject *
schema_capsule(Column *c)
{
    struct ArrowSchema *s = malloc(sizeof *s);
    PyObject *cap;
    if (s == NULL) {
        return PyErr_NoMemory();
    }
    fill_schema(s, column_format(c));
    cap = PyCapsule_New(s, "arrow_schema", schema_capsule_free);
    if (cap == NULL) {
        free(s);
    }
    return cap;
}

static PyObject *
column_c_schema(Column *self, PyObject *noargs)
{
    (void)noargs;
    return schema_capsule(self);
}

static PyObject *
column_c_array(Column *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"requested_schema", NULL};
    PyObject *req = Py_None, *sc, *ac;
    struct ArrowArray *a;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &req)) {
        return NULL;
    }
    if (self->n_chunks != 1) {
        PyErr_SetString(PyExc_TypeError,
                        "this column has several chunks: use __arrow_c_stream__");
        return NULL;
    }
    if ((sc = schema_capsule(self)) == NULL) {
        return NULL;
    }
    a = malloc(sizeof *a);
    if (a == NULL || fill_array(a, self, 0) < 0) {
        free(a);
        Py_DECREF(sc);
        return PyErr_NoMemory();
    }
    ac = PyCapsule_New(a, "arrow_array", array_capsule_free);
    if (ac == NULL) {
        a->release(a);
        free(a);
        Py_DECREF(sc);
        return NULL;
    }
    return Py_BuildValue("(NN)", sc, ac);
}

typedef struct {
    Column *col;
    Py_ssize_t next;
} StreamPrivate;

static int
stream_get_schema(struct ArrowArrayStream *st, struct ArrowSchema *out)
{
    StreamPrivate *pv = (StreamPrivate *)st->private_data;
    fill_schema(out, column_format(pv->col));
    return 0;
}

static int
stream_get_next(struct ArrowArrayStream *st, struct ArrowArray *out)
{
    StreamPrivate *pv = (StreamPrivate *)st->private_data;
    int rc = 0;
    if (pv->next >= pv->col->n_chunks) {
        memset(out, 0, sizeof *out); /* release NULL: the end */
        return 0;
    }
    {
        PyGILState_STATE g = PyGILState_Ensure();
        if (fill_array(out, pv->col, pv->next) < 0) {
            rc = 12; /* ENOMEM */
        }
        PyGILState_Release(g);
    }
    if (rc == 0) {
        pv->next++;
    }
    return rc;
}

static const char *
stream_last_error(struct ArrowArrayStream *st)
{
    (void)st;
    return "out of memory";
}

static void
stream_release(struct ArrowArrayStream *st)
{
    StreamPrivate *pv = (StreamPrivate *)st->private_data;
    PyGILState_STATE g = PyGILState_Ensure();
    Py_DECREF(pv->col);
    PyGILState_Release(g);
    free(pv);
    st->release = NULL;
}

static void
stream_capsule_free(PyObject *cap)
{
    struct ArrowArrayStream *st = PyCapsule_GetPointer(cap, "arrow_array_stream");
    if (st != NULL) {
        if (st->release != NULL) {
            st->release(st);
        }
        free(st);
    }
}

static PyObject *
column_c_stream(Column *self, PyObject *args, PyObject *kwargs)
{
    static char *kw[] = {"requested_schema", NULL};
    PyObject *req = Py_None, *cap;
    struct ArrowArrayStream *st;
    StreamPrivate *pv;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "|O", kw, &req)) {
        return NULL;
    }
    st = malloc(sizeof *st);
    pv = malloc(sizeof *pv);
    if (st == NULL || pv == NULL) {
        free(st);
        free(pv);
        return PyErr_NoMemory();
    }
    pv->col = self;
    Py_INCREF(self);
    pv->next = 0;
    st->get_schema = stream_get_schema;
    st->get_next = stream_get_next;
    st->get_last_error = stream_last_error;
    st->release = stream_release;
    st->private_data = pv;
    cap = PyCapsule_New(st, "arrow_array_stream", stream_capsule_free);
    if (cap == NULL) {
        st->release(st);
        free(st);
    }
    return cap;
}

static PyObject *
column_len(Column *self, PyObject *noargs)
{
    Py_ssize_t i;
    int64_t n = 0;
    (void)noargs;
    for (i = 0; i < self->n_chunks; i++) {
        n += self->chunks[i].length;
    }
    return PyLong_FromLongLong(n);
}

static PyMethodDef column_methods[] = {
    {"__arrow_c_array__", (PyCFunction)(void (*)(void))column_c_array,
     METH_VARARGS | METH_KEYWORDS, "Export the column (one chunk) as Arrow C Data capsules."},
    {"__arrow_c_stream__", (PyCFunction)(void (*)(void))column_c_stream,
     METH_VARARGS | METH_KEYWORDS, "Export the column as an Arrow C stream capsule."},
    {"__arrow_c_schema__", (PyCFunction)column_c_schema, METH_NOARGS,
     "Export the column's type as an Arrow C schema capsule."},
    {"num_rows", (PyCFunction)column_len, METH_NOARGS, "The number of rows."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject ArrowColumnType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "percent_encoding._speedups.ArrowColumn",
    .tp_basicsize = sizeof(Column),
    .tp_dealloc = (destructor)column_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A string or binary column made by percent_encoding.arrow: it exports the Arrow "
              "PyCapsule interface (__arrow_c_array__, __arrow_c_stream__) without copying.",
    .tp_methods = column_methods,
};

/* -- driving ---------------------------------------------------------------- */

static int n_threads = 1;

#ifdef PE_THREADS
typedef struct {
    Job job;
    const InChunk *in;
    int64_t r0, r1, base;
    OutChunk out;
    int rc;
} Part;

static void *
part_main(void *arg)
{
    Part *pt = (Part *)arg;
    pt->rc = run_rows(&pt->job, pt->in, pt->r0, pt->r1, &pt->out, pt->base);
    return NULL;
}
#endif

static int64_t
data_bytes(const InChunk *c, int64_t r0, int64_t r1)
{
    if (c->layout == IN_OFF32 && r1 > r0) {
        const int32_t *o = (const int32_t *)c->offsets;
        return (int64_t)o[c->offset + r1] - o[c->offset + r0];
    }
    if (c->layout == IN_OFF64 && r1 > r0) {
        const int64_t *o = (const int64_t *)c->offsets;
        return o[c->offset + r1] - o[c->offset + r0];
    }
    return (r1 - r0) * 16;
}

/* Map one chunk into out (GIL released).  Splits the rows across up to
 * n_threads threads for long chunks, then joins the parts' buffers. */
static int
map_chunk(Job *proto, const InChunk *c, OutChunk *out, int64_t base, int large)
{
    int64_t rows = c->length;
    int t = n_threads;
    int64_t hint = data_bytes(c, 0, rows);
    if (proto->op == OP_ENCODE) {
        hint += hint / 2;
    }
    if (t < 2 || rows < 65536) {
        if (out_init(out, rows, hint + 8, large) < 0) {
            proto->oom = 1;
            return -1;
        }
        return run_rows(proto, c, 0, rows, out, base);
    }
#ifdef PE_THREADS
    {
        /* The parts write straight into the chunk's buffers, in rounds of
         * ROUND_ROWS rows: each round's rows split at multiples of 8 (so no
         * two threads share a validity byte), each part's data in its own
         * region (its input bytes times `grow`) after what is written so
         * far; then the regions are moved down to close the gaps and the
         * offsets shifted.  Rounds keep the gaps (memory touched beyond the
         * output) to one round's worth.  A part that outgrows its region
         * (U+FFFD for raw bytes) sends the chunk down the one-thread path. */
        enum { ROUND_ROWS = 1 << 20 };
        Part parts[8];
        pthread_t tids[8];
        int k, rc = 0, overflow = 0;
        int64_t grow = proto->op == OP_ENCODE ? 3 : 1, at = 0, b0, slack = 16 * grow + 64;
        int64_t region[9];
        if (t > 8) {
            t = 8;
        }
        if (out_init(out, rows, grow * data_bytes(c, 0, rows) + (t + 1) * slack, large) < 0) {
            proto->oom = 1;
            return -1;
        }
        for (b0 = 0; b0 < rows && rc == 0 && !overflow; b0 += ROUND_ROWS) {
            int64_t b1 = b0 + ROUND_ROWS < rows ? b0 + ROUND_ROWS : rows, n = b1 - b0;
            int started = 0;
            region[0] = at;
            for (k = 0; k < t; k++) {
                Part *pt = &parts[k];
                pt->r0 = k == 0 ? b0 : b0 + ((n * k / t) & ~(int64_t)7);
                pt->r1 = k == t - 1 ? b1 : b0 + ((n * (k + 1) / t) & ~(int64_t)7);
                region[k + 1] = region[k] + grow * data_bytes(c, pt->r0, pt->r1) + slack;
                pt->job = *proto;
                pt->job.scratch = NULL;
                pt->job.scratch_cap = 0;
                pt->in = c;
                pt->base = base;
                pt->rc = 0;
                pt->out = *out;
                pt->out.fixed = 1;
                pt->out.data = out->data + region[k];
                pt->out.data_cap = region[k + 1] - region[k];
                pt->out.data_len = 0;
                pt->out.null_count = 0;
                pt->out.length = pt->r1 - pt->r0;
                pt->out.validity = out->validity + (pt->r0 >> 3);
                pt->out.offsets = (uint8_t *)out->offsets + pt->r0 * (large ? 8 : 4);
            }
            if (region[t] > out->data_cap) {
                overflow = 1; /* earlier rounds grew: the one-thread path can grow */
                break;
            }
            for (k = 1; k < t; k++) {
                if (pthread_create(&tids[k], NULL, part_main, &parts[k]) == 0) {
                    started |= 1 << k;
                }
            }
            part_main(&parts[0]);
            for (k = 1; k < t; k++) {
                if (started & (1 << k)) {
                    pthread_join(tids[k], NULL);
                }
                else {
                    part_main(&parts[k]); /* no thread: run it here */
                }
            }
            for (k = 0; k < t; k++) {
                free(parts[k].job.scratch);
            }
            for (k = 0; k < t; k++) {
                if (parts[k].job.bad_row >= 0) {
                    proto->bad_row = parts[k].job.bad_row; /* the earliest part's row */
                    return 0;
                }
                if (parts[k].rc < 0) {
                    if (parts[k].job.oom == 1) {
                        overflow = 1;
                    }
                    else {
                        rc = -1;
                        proto->oom = parts[k].job.oom;
                    }
                    break;
                }
            }
            if (rc < 0 || overflow) {
                break;
            }
            for (k = 0; k < t; k++) {
                Part *pt = &parts[k];
                int64_t r;
                if (!large && at + pt->out.data_len > INT32_MAX) {
                    overflow = 1;
                    break;
                }
                if (out->data + at != pt->out.data) {
                    memmove(out->data + at, pt->out.data, (size_t)pt->out.data_len);
                }
                if (at != 0) {
                    for (r = pt->r0 + 1; r <= pt->r1; r++) {
                        if (large) {
                            ((int64_t *)out->offsets)[r] += at;
                        }
                        else {
                            ((int32_t *)out->offsets)[r] += (int32_t)at;
                        }
                    }
                }
                at += pt->out.data_len;
                out->null_count += pt->out.null_count;
            }
        }
        if (rc < 0) {
            return -1;
        }
        if (overflow) {
            /* Start again on one thread with a buffer that can grow. */
            int64_t cap = out->data_cap;
            out_free(out);
            if (out_init(out, rows, cap, large) < 0) {
                proto->oom = 1;
                return -1;
            }
            return run_rows(proto, c, 0, rows, out, base);
        }
        out->data_len = at;
        return 0;
    }
#else
    return -1;
#endif
}

static int
parse_op(PyObject *op)
{
    static const char *const names[] = {"decode", "decode_text", "encode", "form_get",
                                        "call_text", "call_binary"};
    int k;
    for (k = 0; k < 6; k++) {
        if (PyUnicode_Check(op) && PyUnicode_CompareWithASCIIString(op, names[k]) == 0) {
            return k;
        }
    }
    PyErr_SetString(PyExc_ValueError, "unknown arrow_map op");
    return -1;
}

/* call_text / call_binary: the Python callable per row, GIL held. */
static int
call_rows(PyObject *fn, int op, const InChunk *c, OutChunk *out, int64_t base, int large)
{
    int64_t i;
    if (out_init(out, c->length, data_bytes(c, 0, c->length) + 8, large) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < c->length; i++) {
        int valid = 0;
        if (in_valid(c, i)) {
            int64_t n;
            const uint8_t *p = in_row(c, i, &n);
            PyObject *v, *r;
            v = c->is_binary ? PyBytes_FromStringAndSize((const char *)p, n)
                             : PyUnicode_DecodeUTF8((const char *)p, n, "surrogateescape");
            if (v == NULL) {
                return -1;
            }
            r = PyObject_CallFunction(fn, "NL", v, (long long)(base + i));
            if (r == NULL) {
                return -1;
            }
            if (r != Py_None) {
                const char *s;
                Py_ssize_t len;
                if (PyUnicode_Check(r)) {
                    s = PyUnicode_AsUTF8AndSize(r, &len);
                }
                else if (PyBytes_Check(r)) {
                    s = PyBytes_AS_STRING(r);
                    len = PyBytes_GET_SIZE(r);
                }
                else {
                    PyErr_SetString(PyExc_TypeError, "row function must return str, bytes or None");
                    s = NULL;
                }
                if (s == NULL || out_reserve(out, len) < 0) {
                    if (s != NULL) {
                        PyErr_NoMemory();
                    }
                    Py_DECREF(r);
                    return -1;
                }
                memcpy(out->data + out->data_len, s, (size_t)len);
                out->data_len += len;
                valid = 1;
            }
            Py_DECREF(r);
        }
        if (out_row(out, i, valid) < 0) {
            PyErr_SetString(PyExc_OverflowError,
                            "result over 2 GiB in one chunk: use a large_string column");
            return -1;
        }
    }
    (void)op;
    return 0;
}

/* The strict failure: (row, its value as str or bytes). */
static PyObject *
bad_row_result(const InChunk *c, int64_t i, int64_t base)
{
    int64_t n;
    const uint8_t *p = in_row(c, i - base, &n);
    PyObject *v = c->is_binary ? PyBytes_FromStringAndSize((const char *)p, n)
                               : PyUnicode_DecodeUTF8((const char *)p, n, "surrogateescape");
    if (v == NULL) {
        return NULL;
    }
    return Py_BuildValue("(LN)", (long long)i, v);
}

/* One chunk: map it into col->chunks[k]; 1 when a strict error stopped it. */
static int
map_one(Job *job, PyObject *fn, const struct ArrowSchema *s, const struct ArrowArray *a,
        Column *col, int64_t base, PyObject **bad)
{
    InChunk c;
    OutChunk *out;
    int rc, large;
    OutChunk *grown;
    if (read_chunk(s, a, &c) < 0) {
        return -1;
    }
    large = c.layout == IN_OFF64;
    if (job->op == OP_ENCODE) {
        /* A str keeps its non-ASCII code points when the set does not encode
         * them (their UTF-8 passes through); bytes above 0x7F always are. */
        memset(job->table.act + 0x80, c.is_binary || job->table.non_ascii ? PCT : KEEP, 0x80);
    }
    grown = PyMem_Realloc(col->chunks, sizeof(OutChunk) * (size_t)(col->n_chunks + 1));
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    col->chunks = grown;
    out = &col->chunks[col->n_chunks];
    memset(out, 0, sizeof *out);
    col->n_chunks++;
    if (job->op == OP_CALL_TEXT || job->op == OP_CALL_BINARY) {
        return call_rows(fn, job->op, &c, out, base, large);
    }
    Py_BEGIN_ALLOW_THREADS
    rc = map_chunk(job, &c, out, base, large);
    Py_END_ALLOW_THREADS
    if (job->bad_row >= 0) {
        *bad = bad_row_result(&c, job->bad_row, base);
        return *bad == NULL ? -1 : 1;
    }
    if (rc < 0) {
        if (job->oom == 2) {
            PyErr_SetString(PyExc_OverflowError,
                            "result over 2 GiB in one chunk: use a large_string column");
        }
        else {
            PyErr_NoMemory();
        }
        return -1;
    }
    /* Give back what doubling over-reserved. */
    if (out->data_cap > out->data_len + 4096) {
        uint8_t *d = realloc(out->data, (size_t)(out->data_len ? out->data_len : 1));
        if (d != NULL) {
            out->data = d;
            out->data_cap = out->data_len;
        }
    }
    return 0;
}

PyObject *
pe_arrow_map(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"column", "op", "arg", "plus", "errors"};
    PyObject *a[5], *meth, *res = NULL, *bad = NULL, *fn = NULL;
    Job job;
    Column *col;
    int rc = 0;
    int64_t base = 0;
    (void)self;
    if (parse_args("arrow_map", args, nargs, kwnames, names, 5, a) < 0) {
        return NULL;
    }
    memset(&job, 0, sizeof job);
    job.bad_row = -1;
    if ((job.op = parse_op(a[1])) < 0 || (job.plus = PyObject_IsTrue(a[3])) < 0) {
        return NULL;
    }
    job.errors = PyUnicode_CompareWithASCIIString(a[4], "null") == 0     ? ERR_NULL
                 : PyUnicode_CompareWithASCIIString(a[4], "strict") == 0 ? ERR_STRICT
                                                                         : ERR_REPLACE;
    if (job.op == OP_ENCODE) {
        if (!PyBytes_Check(a[2]) || PyBytes_GET_SIZE(a[2]) != 256) {
            PyErr_SetString(PyExc_TypeError, "encode: arg must be a 256-byte table");
            return NULL;
        }
        fill_enc_table(&job.table, (const uint8_t *)PyBytes_AS_STRING(a[2]), job.plus);
    }
    else if (job.op == OP_FORM_GET) {
        Py_ssize_t len;
        const char *nm;
        if (!PyUnicode_Check(a[2]) || (nm = PyUnicode_AsUTF8AndSize(a[2], &len)) == NULL) {
            return NULL;
        }
        job.name = (const uint8_t *)nm;
        job.name_len = len;
        job.plus = 1; /* §5.1: '+' is a space in names and values */
    }
    else if (job.op == OP_CALL_TEXT || job.op == OP_CALL_BINARY) {
        fn = a[2];
    }
    col = PyObject_New(Column, &ArrowColumnType);
    if (col == NULL) {
        return NULL;
    }
    col->binary = job.op == OP_DECODE || job.op == OP_CALL_BINARY;
    col->n_chunks = 0;
    col->chunks = NULL;

    if ((meth = PyObject_GetAttrString(a[0], "__arrow_c_array__")) != NULL) {
        PyObject *pair = PyObject_CallNoArgs(meth), *sc, *ac;
        struct ArrowSchema *s;
        struct ArrowArray *arr;
        Py_DECREF(meth);
        if (pair == NULL) {
            goto fail;
        }
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            Py_DECREF(pair);
            PyErr_SetString(PyExc_TypeError, "__arrow_c_array__ must return two capsules");
            goto fail;
        }
        sc = PyTuple_GET_ITEM(pair, 0);
        ac = PyTuple_GET_ITEM(pair, 1);
        s = PyCapsule_GetPointer(sc, "arrow_schema");
        arr = s == NULL ? NULL : PyCapsule_GetPointer(ac, "arrow_array");
        if (arr == NULL) {
            Py_DECREF(pair);
            goto fail;
        }
        rc = map_one(&job, fn, s, arr, col, 0, &bad);
        Py_DECREF(pair); /* the capsules release the input */
    }
    else if (PyErr_ExceptionMatches(PyExc_AttributeError) &&
             (PyErr_Clear(), meth = PyObject_GetAttrString(a[0], "__arrow_c_stream__")) != NULL) {
        PyObject *cap = PyObject_CallNoArgs(meth);
        struct ArrowArrayStream *st;
        struct ArrowSchema s;
        Py_DECREF(meth);
        if (cap == NULL) {
            goto fail;
        }
        st = PyCapsule_GetPointer(cap, "arrow_array_stream");
        if (st == NULL) {
            Py_DECREF(cap);
            goto fail;
        }
        if (st->get_schema(st, &s) != 0) {
            PyErr_SetString(PyExc_ValueError, "Arrow stream: get_schema failed");
            Py_DECREF(cap);
            goto fail;
        }
        for (;;) {
            struct ArrowArray arr;
            if (st->get_next(st, &arr) != 0) {
                const char *m = st->get_last_error(st);
                PyErr_Format(PyExc_ValueError, "Arrow stream: %s", m ? m : "get_next failed");
                rc = -1;
                break;
            }
            if (arr.release == NULL) {
                break;
            }
            rc = map_one(&job, fn, &s, &arr, col, base, &bad);
            base += arr.length;
            arr.release(&arr);
            if (rc != 0) {
                break;
            }
        }
        if (s.release != NULL) {
            s.release(&s);
        }
        Py_DECREF(cap);
    }
    else {
        if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError,
                         "expected an Arrow array (an object with __arrow_c_array__ or "
                         "__arrow_c_stream__), not %.200s",
                         Py_TYPE(a[0])->tp_name);
        }
        goto fail;
    }
    free(job.scratch);
    if (rc < 0) {
        Py_DECREF(col);
        return NULL;
    }
    if (rc == 1) {
        Py_DECREF(col);
        return bad;
    }
    res = (PyObject *)col;
    return res;
fail:
    free(job.scratch);
    Py_DECREF(col);
    return NULL;
}

PyObject *
pe_arrow_set_threads(PyObject *self, PyObject *arg)
{
    long n = PyLong_AsLong(arg);
    long old = n_threads;
    (void)self;
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    n_threads = n < 1 ? 1 : n > 8 ? 8 : (int)n;
    return PyLong_FromLong(old);
}

int
arrow_init(void)
{
    return PyType_Ready(&ArrowColumnType);
}
