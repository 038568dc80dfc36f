/* The result of the column kernels: output buffers and the ArrowColumn that
 * exports them through the Arrow PyCapsule interface without copying. */
#include "arrow.h"

#ifndef _WIN32
#include <sys/mman.h>
#endif

/* -- output buffers ------------------------------------------------------- */

/* A buffer of n bytes; large ones on 2 MB pages, so that the first touch of
 * each costs one fault instead of 512 (page faults are a good share of the
 * time here). */
static void *
big_alloc(size_t n)
{
#if defined(MADV_HUGEPAGE)
    if (n >= (8u << 20)) {
        void *d = NULL;
        if (posix_memalign(&d, 2 << 20, n) == 0) {
            madvise(d, n, MADV_HUGEPAGE);
            return d;
        }
    }
#endif
    return malloc(n);
}

int
out_init(OutChunk *o, int64_t rows, int64_t data_hint, int kind)
{
    o->length = rows;
    o->null_count = 0;
    o->large = kind == OUT_OFF64;
    o->fixed = 0;
    o->validity = calloc((size_t)(rows + 7) / 8 + 1, 1);
    o->offsets = NULL;
    o->views = NULL;
    if (kind == OUT_VIEW) {
        o->views = big_alloc((size_t)(rows > 0 ? rows : 1) * 16);
    }
    else {
        o->offsets = big_alloc((size_t)(rows + 1) * (o->large ? 8 : 4));
    }
    o->data_cap = data_hint < 64 ? 64 : data_hint;
    o->data = big_alloc((size_t)o->data_cap);
    o->data_len = 0;
    o->data_skip = 0;
    if (o->validity == NULL || (o->offsets == NULL && o->views == NULL) || o->data == NULL) {
        return -1;
    }
    if (o->large) {
        ((int64_t *)o->offsets)[0] = 0;
    }
    else if (o->offsets != NULL) {
        ((int32_t *)o->offsets)[0] = 0;
    }
    return 0;
}

void
out_free(OutChunk *o)
{
    free(o->validity);
    free(o->offsets);
    free(o->views);
    free(o->data);
    o->validity = NULL;
    o->offsets = NULL;
    o->views = NULL;
    o->data = NULL;
}


/* -- the result object ----------------------------------------------------- */


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
    switch (c->kind) {
    case OUT_OFF64:
        return c->binary ? "Z" : "U";
    case OUT_VIEW:
        return c->binary ? "vz" : "vu";
    default:
        return c->binary ? "z" : "u";
    }
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
    const void *buffers[4];
    int64_t data_size; /* views: the variadic-sizes buffer (one data buffer) */
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
    pv->buffers[1] = o->views != NULL ? (const void *)o->views : o->offsets;
    pv->buffers[2] = o->data + o->data_skip;
    pv->buffers[3] = &pv->data_size;
    pv->data_size = o->data_len - o->data_skip;
    a->length = o->length;
    a->null_count = o->null_count;
    /* C Data Interface: a view array's last buffer holds its data buffers' sizes */
    a->n_buffers = o->views != NULL ? 4 : 3;
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
