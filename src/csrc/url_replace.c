/* url_replace.c: URL.replace in C (see url_setters.c for the setters).
 *
 * url_replace(url, changes) runs the setters of `changes` (a dict, in its
 * order) on a URL and returns the new URL, or None when the Python setters
 * (url/_setters.py, the reference and the pure twin) must run: a key or value
 * that is not a str or an unknown key (Python says what is wrong), a host the
 * host hook declines, a URL whose href the C parser does not give back.  The
 * C URL type's replace method (url_object.c) runs the same core. */
#include "url.h"

static const char *const SETTER_NAMES[S_COUNT] = {
    "href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
    "search", "hash"};

/* the setter a key names, or S_COUNT */
static int
setter_index(PyObject *key)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(key);
    int k;
    if (!PyUnicode_IS_ASCII(key)) {
        return S_COUNT;
    }
    for (k = 0; k < S_COUNT; k++) {
        if ((Py_ssize_t)strlen(SETTER_NAMES[k]) == n &&
            !memcmp(PyUnicode_DATA(key), SETTER_NAMES[k], (size_t)n)) {
            break;
        }
    }
    return k;
}

/* The setters keys[i] = values[i] on url, in order: a new URL, None (Python
 * must run them), or NULL with an exception */
PyObject *
url_replace_core(PyObject *url, Py_ssize_t m, PyObject *const *keys, PyObject *const *values)
{
    UrlParser BP, E, bufs[2];
    UrlBase B;
    UrlParts o;
    PyObject *keep = NULL, *result = NULL;
    Py_ssize_t i, len;
    const char *h;
    int rc, used_bp = 0, w = 0, k;
    for (i = 0; i < m; i++) {
        /* another type of key or value, or an unknown name: Python says what is wrong */
        if (!PyUnicode_CheckExact(keys[i]) || !PyUnicode_CheckExact(values[i]) ||
            setter_index(keys[i]) == S_COUNT) {
            Py_RETURN_NONE;
        }
    }
    BP.nogil = 0;
    BP.head_only = 0;
    BP.errs = BP.errbuf;
    BP.heap = 0;
    BP.kept = NULL;
    BP.clean = NULL;
    rc = url_base(url, &BP, &B, &used_bp, 0, &keep);
    if (rc <= 0) {
        if (used_bp) {
            url_parser_free(&BP);
        }
        Py_XDECREF(keep);
        return rc < 0 ? NULL : Py_NewRef(Py_None);
    }
    url_parser_init_ex(&E, PyUnicode_1BYTE_KIND, "", 0, URL_IN_RAW);
    url_parser_init_ex(&bufs[0], PyUnicode_1BYTE_KIND, "", 0, URL_IN_RAW);
    url_parser_init_ex(&bufs[1], PyUnicode_1BYTE_KIND, "", 0, URL_IN_RAW);
    h = B.href;
    len = B.len;
    o = B.o;
    rc = 1;
    for (i = 0; i < m && rc == 1; i++) {
        k = setter_index(keys[i]);
        rc = url_run_setter(k, values[i], h, len, &o, &bufs[w], &E);
        if (rc == 1) {
            h = bufs[w].out;
            len = bufs[w].len;
            w ^= 1;
        }
    }
    if (rc == 1) {
        result = url_new_object(h, len, &o, &E, NULL);
    }
    else if (rc == 0) {
        result = Py_NewRef(Py_None);
    }
    url_parser_free(&E);
    url_parser_free(&bufs[0]);
    url_parser_free(&bufs[1]);
    if (used_bp) {
        url_parser_free(&BP);
    }
    Py_XDECREF(keep);
    return result;
}

/* url_replace(url, changes): see the top of this file */
PyObject *
pe_url_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    PyObject *keys[S_COUNT], *values[S_COUNT], *key, *value, *r;
    Py_ssize_t pos = 0, m = 0, i;
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "url_replace(url, changes) takes 2 arguments");
        return NULL;
    }
    /* (more than ten keys: one is not a setter's name) */
    if (!PyDict_CheckExact(args[1]) || PyDict_GET_SIZE(args[1]) > S_COUNT) {
        Py_RETURN_NONE;
    }
    while (PyDict_Next(args[1], &pos, &key, &value)) {
        keys[m] = Py_NewRef(key);
        values[m++] = Py_NewRef(value);
    }
    r = url_replace_core(args[0], m, keys, values);
    for (i = 0; i < m; i++) {
        Py_DECREF(keys[i]);
        Py_DECREF(values[i]);
    }
    return r;
}
