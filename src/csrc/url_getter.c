/* url_getter.c: the URL API's getters (URL Standard §6.1) as C descriptors
 * (see url.c, url.h): on a url.URL that url_parse built they slice the href
 * at its component offsets; on any other URL they call the Python property. */
#include "url.h"

/* ------------------------------------------------------------------------ */
/* URL getters (URL Standard §6.1) as C descriptors: on a URL that url_parse  */
/* built they slice the href at its component offsets; on any other URL       */
/* (_parts None) they run the Python property they replace.                   */

enum {
    G_PROTOCOL, G_SCHEME, G_USERNAME, G_PASSWORD, G_HOST, G_HOSTNAME, G_PORT, G_PATHNAME,
    G_SEARCH, G_HASH, G_OPAQUE, G_COUNT
};
static const char *const getter_names[G_COUNT] = {
    "protocol", "scheme", "username", "password", "host", "hostname",
    "port", "pathname", "search", "hash", "has_opaque_path"};

typedef struct {
    PyObject_HEAD
    int which;
    PyObject *fallback; /* the Python property */
} UrlGetter;

static PyObject *
getter_get(PyObject *self, PyObject *obj, PyObject *type)
{
    UrlGetter *g = (UrlGetter *)self;
    PyObject *parts, *href, *r;
    Py_ssize_t v[9], len, a = 0, b = 0;
    int k;
    if (obj == NULL || obj == Py_None || d_parts == NULL ||
        !PyObject_TypeCheck(obj, (PyTypeObject *)url_type)) {
        return Py_TYPE(g->fallback)->tp_descr_get(g->fallback, obj, type);
    }
    parts = Py_TYPE(d_parts)->tp_descr_get(d_parts, obj, type);
    if (parts == NULL) {
        return NULL;
    }
    if (!PyTuple_CheckExact(parts) || PyTuple_GET_SIZE(parts) != 9) {
        Py_DECREF(parts);
        return Py_TYPE(g->fallback)->tp_descr_get(g->fallback, obj, type);
    }
    for (k = 0; k < 9; k++) {
        v[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(parts, k));
    }
    Py_DECREF(parts);
    if (PyErr_Occurred()) {
        return NULL;
    }
    if (g->which == G_OPAQUE) {
        return PyBool_FromLong(v[8] == 0);
    }
    href = Py_TYPE(d_href)->tp_descr_get(d_href, obj, type);
    if (href == NULL) {
        return NULL;
    }
    if (!PyUnicode_Check(href)) {
        Py_DECREF(href);
        PyErr_SetString(PyExc_TypeError, "URL.href is not a str");
        return NULL;
    }
    len = PyUnicode_GET_LENGTH(href);
    /* v: the nine offsets of UrlParts, as url/_offsets.py draws them */
    switch (g->which) {
    case G_PROTOCOL:
        b = v[0] + 1;
        break;
    case G_SCHEME:
        b = v[0];
        break;
    case G_USERNAME:
        if (v[2] > v[0] + 3) {
            a = v[0] + 3, b = v[1];
        }
        break;
    case G_PASSWORD:
        if (v[2] > v[0] + 3) {
            a = v[1] + 1, b = v[2] - 1;
        }
        break;
    case G_HOST:
        a = v[2], b = v[5];
        break;
    case G_HOSTNAME:
        a = v[2], b = v[3];
        break;
    case G_PORT:
        a = v[3] + 1, b = v[5];
        break;
    case G_PATHNAME:
        a = v[5], b = v[6] >= 0 ? v[6] : v[7] >= 0 ? v[7] : len;
        break;
    case G_SEARCH:
        if (v[6] >= 0) {
            a = v[6], b = v[7] >= 0 ? v[7] : len;
            if (b - a <= 1) {
                a = b = 0;
            }
        }
        break;
    default: /* G_HASH */
        if (v[7] >= 0 && v[7] < len - 1) {
            a = v[7], b = len;
        }
        break;
    }
    if (a < 0 || b > len || a >= b) {
        a = b = 0;
    }
    r = PyUnicode_Substring(href, a, b);
    Py_DECREF(href);
    return r;
}

static int
getter_traverse(UrlGetter *g, visitproc visit, void *arg)
{
    Py_VISIT(g->fallback);
    return 0;
}

static void
getter_dealloc(UrlGetter *g)
{
    PyObject_GC_UnTrack(g);
    Py_CLEAR(g->fallback);
    PyObject_GC_Del(g);
}

static PyObject *
getter_doc(UrlGetter *g, void *unused)
{
    (void)unused;
    return PyObject_GetAttrString(g->fallback, "__doc__");
}

static PyGetSetDef getter_getset[] = {
    {"__doc__", (getter)getter_doc, NULL, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject UrlGetterType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "percent_encoding._speedups.URLGetter",
    .tp_basicsize = sizeof(UrlGetter),
    .tp_dealloc = (destructor)getter_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_traverse = (traverseproc)getter_traverse,
    .tp_descr_get = getter_get,
    .tp_getset = getter_getset,
};

/* url_getter(name, prop): a descriptor for URL.<name> over the property prop. */
PyObject *
pe_url_getter(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"name", "fallback"};
    PyObject *a[2];
    UrlGetter *g;
    int which;
    (void)self;
    if (parse_args("url_getter", args, nargs, kwnames, names, 2, a) < 0) {
        return NULL;
    }
    if (!PyUnicode_Check(a[0]) || Py_TYPE(a[1])->tp_descr_get == NULL) {
        PyErr_SetString(PyExc_TypeError, "url_getter(str, descriptor) expected");
        return NULL;
    }
    for (which = 0; which < G_COUNT; which++) {
        if (PyUnicode_CompareWithASCIIString(a[0], getter_names[which]) == 0) {
            break;
        }
    }
    if (which == G_COUNT) {
        PyErr_Format(PyExc_ValueError, "url_getter: no getter %R", a[0]);
        return NULL;
    }
    if (PyType_Ready(&UrlGetterType) < 0) {
        return NULL;
    }
    g = PyObject_GC_New(UrlGetter, &UrlGetterType);
    if (g == NULL) {
        return NULL;
    }
    g->which = which;
    Py_INCREF(a[1]);
    g->fallback = a[1];
    PyObject_GC_Track(g);
    return (PyObject *)g;
}
