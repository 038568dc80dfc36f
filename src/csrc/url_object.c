/* url_object.c: the URL API (URL Standard §6.1) as a C type, and canParse.
 *
 * A URL object owns its href (a str) and the component offsets the parser
 * writes (UrlParts, url.h; the layout of url/_record.py's record_of), as
 * ada's url_aggregator does: every getter is a getset descriptor that slices
 * the href, and nothing is made per component until it is read.  The setters
 * (URL.replace) run in C (url_setters.c, url_replace.c).  What stays in
 * Python is given once by url_type_setup: the record (url/_record.py's
 * record_of) for `_rec`, the origin of a blob: URL (§4.7), `display` (§4.8),
 * the setters for what C leaves, and URLSearchParams.
 *
 * The pure twin's class, percent_encoding.url.URL, has the same API; this
 * type is registered as its virtual subclass, so isinstance(u, url.URL)
 * holds for both, and equal hrefs are equal URLs across the two.
 *
 * url_can_parse(input, base) is §6.1's canParse: the parser without the
 * object (the parse stops at the path start, whose states never fail;
 * head_only in url.h) and with no allocation for an input that fits the
 * parser's stack buffer. */
#include "url.h"

PyObject *url_py_class;     /* percent_encoding.url.URL, the pure twin's class (url_setup) */
PyObject *d_href, *d_parts; /* the type's getters, for arrow_url.c (url_object_init) */
UrlParseFn url_object_parse;
UrlReplaceFn url_object_replace;

/* The pure class and the Python pieces (url_type_setup). */
static PyObject *hook_record, *hook_origin, *hook_display, *hook_replace, *hook_params;
static PyObject *s_null, *s_url, *s_href; /* "null", "URL", "href" (interned) */

#define URL_OBJ(o) ((UrlObject *)(o))

/* Up to URL_FREE freed URLs' memory, for the next ones (one parse frees the URL
 * of the one before in a loop); the GIL guards it. */
#define URL_FREE 64
static UrlObject *free_urls[URL_FREE];
static int n_free;

/* A new URL of href (a str; a new reference, stolen), the offsets and the
 * validation errors (a tuple; stolen). */
PyObject *
url_object_new(PyObject *href, const UrlParts *o, PyObject *errs)
{
    UrlObject *u;
    if (n_free > 0) {
        /* a freed URL's memory (as CPython keeps its floats and tuples) */
        u = free_urls[--n_free];
        (void)PyObject_INIT(u, &UrlObjectType);
    }
    else {
        u = PyObject_New(UrlObject, &UrlObjectType);
    }
    if (u == NULL) {
        Py_DECREF(href);
        Py_DECREF(errs);
        return NULL;
    }
    u->href = href;
    u->errs = errs;
    u->hash = -1;
    u->o = *o;
    return (PyObject *)u;
}

/* href[a:b], clamped to the href as Python's slices are */
static PyObject *
url_slice(const UrlObject *u, Py_ssize_t a, Py_ssize_t b)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(u->href);
    PyObject *r;
    a = a < 0 ? 0 : a;
    b = b > n ? n : b;
    if (a >= b) {
        return PyUnicode_New(0, 0);
    }
    if (a == 0 && b == n) {
        return Py_NewRef(u->href);
    }
    if (!PyUnicode_IS_ASCII(u->href)) {
        return PyUnicode_Substring(u->href, a, b);
    }
    if (b - a == 1) {
        /* one character ("/", the commonest path): CPython's cached one */
        return PyUnicode_FromOrdinal(((const Py_UCS1 *)PyUnicode_DATA(u->href))[a]);
    }
    r = PyUnicode_New(b - a, 127);
    if (r != NULL) {
        memcpy(PyUnicode_DATA(r), (const char *)PyUnicode_DATA(u->href) + a, (size_t)(b - a));
    }
    return r;
}

/* The special schemes (§4.1), and each with its ':', as interned strs: the
 * scheme and protocol getters return these instead of a new slice. */
static const char *const SPECIAL_SCHEMES[] = {"http", "https", "ws", "wss", "ftp", "file"};
#define N_SPECIAL 6
static PyObject *scheme_strs[2][N_SPECIAL];

/* href[0:s_end] (with_colon: and its ':') */
static PyObject *
url_scheme_slice(const UrlObject *u, int with_colon)
{
    Py_ssize_t s = u->o.s_end;
    int k;
    if (PyUnicode_IS_ASCII(u->href)) {
        const char *h = (const char *)PyUnicode_DATA(u->href);
        for (k = 0; k < N_SPECIAL; k++) {
            if ((Py_ssize_t)strlen(SPECIAL_SCHEMES[k]) == s &&
                memcmp(h, SPECIAL_SCHEMES[k], (size_t)s) == 0 && scheme_strs[with_colon][k]) {
                return Py_NewRef(scheme_strs[with_colon][k]);
            }
        }
    }
    return url_slice(u, 0, s + with_colon);
}

/* the end of the path: the '?', else the '#', else the href's */
static Py_ssize_t
path_end(const UrlObject *u)
{
    const UrlParts *o = &u->o;
    return o->q_start >= 0 ? o->q_start
           : o->f_start >= 0 ? o->f_start
                              : PyUnicode_GET_LENGTH(u->href);
}

/* Whether there are credentials: the host starts past "scheme://". */
static int
has_userinfo(const UrlParts *o)
{
    return o->h_start > o->s_end + 3;
}

/* -- the getters (§6.1) --------------------------------------------------- */

static PyObject *
get_href(PyObject *self, void *unused)
{
    (void)unused;
    return Py_NewRef(URL_OBJ(self)->href);
}

static PyObject *
get_errors(PyObject *self, void *unused)
{
    (void)unused;
    return Py_NewRef(URL_OBJ(self)->errs);
}

static PyObject *
get_protocol(PyObject *self, void *unused)
{
    (void)unused;
    return url_scheme_slice(URL_OBJ(self), 1);
}

static PyObject *
get_scheme(PyObject *self, void *unused)
{
    (void)unused;
    return url_scheme_slice(URL_OBJ(self), 0);
}

static PyObject *
get_username(PyObject *self, void *unused)
{
    const UrlParts *o = &URL_OBJ(self)->o;
    (void)unused;
    if (!has_userinfo(o)) {
        return PyUnicode_New(0, 0);
    }
    return url_slice(URL_OBJ(self), o->s_end + 3, o->u_end);
}

static PyObject *
get_password(PyObject *self, void *unused)
{
    const UrlParts *o = &URL_OBJ(self)->o;
    (void)unused;
    if (!has_userinfo(o)) {
        return PyUnicode_New(0, 0);
    }
    return url_slice(URL_OBJ(self), o->u_end + 1, o->h_start - 1);
}

static PyObject *
get_host(PyObject *self, void *unused)
{
    (void)unused;
    return url_slice(URL_OBJ(self), URL_OBJ(self)->o.h_start, URL_OBJ(self)->o.p_start);
}

static PyObject *
get_hostname(PyObject *self, void *unused)
{
    (void)unused;
    return url_slice(URL_OBJ(self), URL_OBJ(self)->o.h_start, URL_OBJ(self)->o.h_end);
}

static PyObject *
get_port(PyObject *self, void *unused)
{
    (void)unused;
    return url_slice(URL_OBJ(self), URL_OBJ(self)->o.h_end + 1, URL_OBJ(self)->o.p_start);
}

static PyObject *
get_pathname(PyObject *self, void *unused)
{
    (void)unused;
    return url_slice(URL_OBJ(self), URL_OBJ(self)->o.p_start, path_end(URL_OBJ(self)));
}

/* "?" and the query, or "" when the query is null or empty */
static PyObject *
get_search(PyObject *self, void *unused)
{
    const UrlObject *u = URL_OBJ(self);
    Py_ssize_t a = u->o.q_start, b;
    (void)unused;
    if (a < 0) {
        return PyUnicode_New(0, 0);
    }
    b = u->o.f_start >= 0 ? u->o.f_start : PyUnicode_GET_LENGTH(u->href);
    return url_slice(u, b - a > 1 ? a : b, b);
}

/* "#" and the fragment, or "" when the fragment is null or empty */
static PyObject *
get_hash(PyObject *self, void *unused)
{
    const UrlObject *u = URL_OBJ(self);
    Py_ssize_t n = PyUnicode_GET_LENGTH(u->href);
    (void)unused;
    if (u->o.f_start < 0 || u->o.f_start >= n - 1) {
        return PyUnicode_New(0, 0);
    }
    return url_slice(u, u->o.f_start, n);
}

static PyObject *
get_opaque(PyObject *self, void *unused)
{
    (void)unused;
    return PyBool_FromLong(URL_OBJ(self)->o.host_kind == HOST_NONE);
}

/* §4.7 origin, serialized as HTML says: a tuple origin's is "scheme://host:port",
 * the href's own span; a blob: URL's is its path's (Python); the rest "null". */
static PyObject *
get_origin(PyObject *self, void *unused)
{
    static const char *const tuple_schemes[] = {"ftp", "http", "https", "ws", "wss"};
    const UrlObject *u = URL_OBJ(self);
    const char *h;
    Py_ssize_t s = u->o.s_end, k;
    (void)unused;
    if (!PyUnicode_IS_ASCII(u->href)) {
        goto python;
    }
    h = (const char *)PyUnicode_DATA(u->href);
    for (k = 0; k < 5; k++) {
        if ((Py_ssize_t)strlen(tuple_schemes[k]) == s && memcmp(h, tuple_schemes[k], s) == 0) {
            Py_ssize_t host = u->o.p_start - u->o.h_start;
            PyObject *r = PyUnicode_New(s + 3 + host, 127);
            if (r != NULL) {
                char *d = (char *)PyUnicode_DATA(r);
                memcpy(d, h, (size_t)s + 3);
                memcpy(d + s + 3, h + u->o.h_start, (size_t)host);
            }
            return r;
        }
    }
    if (!(s == 4 && memcmp(h, "blob", 4) == 0)) {
        return Py_NewRef(s_null);
    }
python:
    if (hook_origin == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "URL: url_type_setup has not run");
        return NULL;
    }
    return PyObject_CallOneArg(hook_origin, self);
}

/* A new URLSearchParams over the query (§6.1; changing it leaves the URL). */
static PyObject *
get_search_params(PyObject *self, void *unused)
{
    PyObject *search, *r;
    if (hook_params == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "URL: url_type_setup has not run");
        return NULL;
    }
    if ((search = get_search(self, unused)) == NULL) {
        return NULL;
    }
    r = PyObject_CallOneArg(hook_params, search);
    Py_DECREF(search);
    return r;
}

/* The offsets as a tuple, in url/_record.py's record_of order (new reference). */
PyObject *
url_parts_tuple(const UrlParts *o)
{
    return Py_BuildValue("(nnnnnnnni)", o->s_end, o->u_end, o->h_start, o->h_end, o->port,
                         o->p_start, o->q_start, o->f_start, o->host_kind);
}

static PyObject *
get_parts(PyObject *self, void *unused)
{
    (void)unused;
    return url_parts_tuple(&URL_OBJ(self)->o);
}

/* the URL record (url/_record.py's record_of), made anew at each read */
static PyObject *
get_rec(PyObject *self, void *unused)
{
    PyObject *parts, *r;
    (void)unused;
    if (hook_record == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "URL: url_type_setup has not run");
        return NULL;
    }
    if ((parts = get_parts(self, NULL)) == NULL) {
        return NULL;
    }
    r = PyObject_CallFunctionObjArgs(hook_record, URL_OBJ(self)->href, parts, NULL);
    Py_DECREF(parts);
    return r;
}

static PyGetSetDef url_getset[] = {
    {"href", get_href, NULL, "The serialized URL.", NULL},
    {"validation_errors", get_errors, NULL,
     "The validation errors the parser recorded (name, position).", NULL},
    {"origin", get_origin, NULL, "The serialized origin (``\"null\"`` for an opaque origin).",
     NULL},
    {"protocol", get_protocol, NULL, "The scheme followed by ``:``.", NULL},
    {"scheme", get_scheme, NULL, "The scheme, without ``:``.", NULL},
    {"username", get_username, NULL, "The percent-encoded username.", NULL},
    {"password", get_password, NULL, "The percent-encoded password.", NULL},
    {"host", get_host, NULL, "Host and port (``host:port``), or ``\"\"`` when there is no host.",
     NULL},
    {"hostname", get_hostname, NULL, "The serialized host, without the port.", NULL},
    {"port", get_port, NULL,
     "The port as a string, ``\"\"`` when absent or the scheme's default.", NULL},
    {"pathname", get_pathname, NULL, "The serialized path.", NULL},
    {"search", get_search, NULL,
     "``\"?\"`` and the query, or ``\"\"`` when the query is null or empty.", NULL},
    {"search_params", get_search_params, NULL,
     "A new URLSearchParams over the query (changing it leaves the URL).", NULL},
    {"hash", get_hash, NULL,
     "``\"#\"`` and the fragment, or ``\"\"`` when it is null or empty.", NULL},
    {"has_opaque_path", get_opaque, NULL,
     "Whether the path is opaque (``mailto:``, ``data:``, ...; §4.1).", NULL},
    {"_parts", get_parts, NULL, "The component offsets (url/_record.py's record_of).", NULL},
    {"_rec", get_rec, NULL, "The URL record (url/_record.py's record_of).", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

/* -- methods -------------------------------------------------------------- */

/* hook(self, *args, **kwargs) */
static PyObject *
call_with_self(PyObject *hook, PyObject *self, PyObject *const *args, Py_ssize_t nargs,
               PyObject *kwnames)
{
    PyObject *stack[16], **all = stack, *r;
    Py_ssize_t n = nargs + (kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames));
    if (hook == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "URL: url_type_setup has not run");
        return NULL;
    }
    if (n + 1 > (Py_ssize_t)(sizeof(stack) / sizeof(stack[0])) &&
        (all = PyMem_Malloc((size_t)(n + 1) * sizeof(PyObject *))) == NULL) {
        return PyErr_NoMemory();
    }
    all[0] = self;
    if (n > 0) {
        memcpy(all + 1, args, (size_t)n * sizeof(PyObject *));
    }
    r = PyObject_Vectorcall(hook, all, (size_t)nargs + 1, kwnames);
    if (all != stack) {
        PyMem_Free(all);
    }
    return r;
}

/* replace(**changes): the setters in C (url_replace.c), Python for what they leave */
static PyObject *
url_obj_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    if (nargs == 0) {
        Py_ssize_t m = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
        PyObject *r = url_object_replace(self, m, m ? &PyTuple_GET_ITEM(kwnames, 0) : NULL,
                                         args);
        if (r != Py_None) {
            return r;
        }
        Py_DECREF(r);
    }
    return call_with_self(hook_replace, self, args, nargs, kwnames);
}

static PyObject *
url_obj_display(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    return call_with_self(hook_display, self, args, nargs, kwnames);
}

/* pickle and copy: url.URL(href), as the pure class does */
static PyObject *
url_obj_reduce(PyObject *self, PyObject *unused)
{
    (void)unused;
    if (url_py_class == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "URL: url_setup has not run");
        return NULL;
    }
    return Py_BuildValue("O(O)", url_py_class, URL_OBJ(self)->href);
}

static PyMethodDef url_methods[] = {
    {"replace", FASTCALL_KW(url_obj_replace), METH_FASTCALL | METH_KEYWORDS,
     "replace($self, /, **changes)\n--\n\n"
     "A new URL with the API setters (URL Standard §6.1) run in the order given."},
    {"display", FASTCALL_KW(url_obj_display), METH_FASTCALL | METH_KEYWORDS,
     "display($self, /, *, scheme=True, credentials=False, host_only=False, query=True, "
     "fragment=True, max_length=None, isolate=False)\n--\n\n"
     "The URL as a person should see it (URL Standard §4.8 \"URL rendering\")."},
    {"__reduce__", url_obj_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

/* -- the Python protocol -------------------------------------------------- */

static void
url_obj_dealloc(PyObject *self)
{
    Py_XDECREF(URL_OBJ(self)->href);
    Py_XDECREF(URL_OBJ(self)->errs);
    if (n_free < URL_FREE && Py_IS_TYPE(self, &UrlObjectType)) {
        free_urls[n_free++] = URL_OBJ(self); /* (a static type: no reference to drop) */
        return;
    }
    PyObject_Free(self);
}

static PyObject *
url_obj_repr(PyObject *self)
{
    return PyUnicode_FromFormat("URL(%R)", URL_OBJ(self)->href);
}

static PyObject *
url_obj_str(PyObject *self)
{
    return Py_NewRef(URL_OBJ(self)->href);
}

/* hash(("URL", href)), the pure class's */
static Py_hash_t
url_obj_hash(PyObject *self)
{
    UrlObject *u = URL_OBJ(self);
    if (u->hash == -1) {
        PyObject *t = PyTuple_Pack(2, s_url, u->href);
        if (t == NULL) {
            return -1;
        }
        u->hash = PyObject_Hash(t);
        Py_DECREF(t);
    }
    return u->hash;
}

/* == and !=: URLs (of either twin) with equal hrefs */
static PyObject *
url_obj_richcompare(PyObject *self, PyObject *other, int op)
{
    PyObject *href, *r;
    if ((op != Py_EQ && op != Py_NE)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if (Py_IS_TYPE(other, &UrlObjectType)) {
        return PyObject_RichCompare(URL_OBJ(self)->href, URL_OBJ(other)->href, op);
    }
    if (url_py_class == NULL || !PyObject_TypeCheck(other, (PyTypeObject *)url_py_class)) {
        Py_RETURN_NOTIMPLEMENTED;
    }
    if ((href = PyObject_GetAttr(other, s_href)) == NULL) {
        return NULL;
    }
    r = PyObject_RichCompare(URL_OBJ(self)->href, href, op);
    Py_DECREF(href);
    return r;
}

static int
url_obj_setattro(PyObject *self, PyObject *name, PyObject *value)
{
    (void)self;
    (void)name;
    PyErr_SetString(PyExc_AttributeError, value == NULL ? "URL is immutable"
                                                         : "URL is immutable; use url.replace(...)");
    return -1;
}

/* URL(input, base=None): the parser in C; the pure class (url.URL) for what it leaves */
static PyObject *
url_obj_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {"input", "base", NULL};
    PyObject *input, *base = Py_None, *r;
    (void)type;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O|O:URL", names, &input, &base)) {
        return NULL;
    }
    if (PyUnicode_CheckExact(input) && pe_fast_paths_active) {
        r = url_object_parse(input, base, 1);
        if (r != Py_None) {
            return r;
        }
        Py_DECREF(r);
    }
    if (url_py_class == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "URL: url_setup has not run");
        return NULL;
    }
    return PyObject_CallFunctionObjArgs(url_py_class, input, base, NULL);
}

PyTypeObject UrlObjectType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "percent_encoding._speedups.URL",
    .tp_basicsize = sizeof(UrlObject),
    .tp_dealloc = url_obj_dealloc,
    .tp_repr = url_obj_repr,
    .tp_hash = url_obj_hash,
    .tp_str = url_obj_str,
    .tp_setattro = url_obj_setattro,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "URL(input, base=None)\n--\n\n"
              "An immutable URL record with the URL API's getters (URL Standard §6.1): the C "
              "twin of percent_encoding.url.URL, whose virtual subclass it is.",
    .tp_richcompare = url_obj_richcompare,
    .tp_methods = url_methods,
    .tp_getset = url_getset,
    .tp_new = url_obj_new,
};

/* -- functions for the Python side ---------------------------------------- */

/* url_from_parts(href, parts, errors): a URL of an href the Python parser wrote,
 * with its offsets (url/_record.py's parts_of) */
PyObject *
pe_url_from_parts(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    UrlParts o;
    Py_ssize_t v[9], n;
    int k;
    (void)self;
    if (nargs != 3 || !PyUnicode_Check(args[0]) || !PyTuple_CheckExact(args[1]) ||
        PyTuple_GET_SIZE(args[1]) != 9 || !PyTuple_CheckExact(args[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "url_from_parts(str, tuple of 9 ints, tuple of errors) expected");
        return NULL;
    }
    n = PyUnicode_GET_LENGTH(args[0]);
    for (k = 0; k < 9; k++) {
        v[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(args[1], k));
        if (v[k] == -1 && PyErr_Occurred()) {
            return NULL;
        }
        if (k != 4 && k != 8 && (v[k] < -1 || v[k] > n)) {
            PyErr_Format(PyExc_ValueError, "url_from_parts: offset %zd out of range", v[k]);
            return NULL;
        }
    }
    o.s_end = v[0], o.u_end = v[1], o.h_start = v[2], o.h_end = v[3], o.port = v[4];
    o.p_start = v[5], o.q_start = v[6], o.f_start = v[7], o.host_kind = (int)v[8];
    if (o.host_kind < HOST_NONE || o.host_kind > HOST_NULL) {
        PyErr_SetString(PyExc_ValueError, "url_from_parts: no such host kind");
        return NULL;
    }
    return url_object_new(Py_NewRef(args[0]), &o, Py_NewRef(args[2]));
}

/* url_type_setup(record_of, origin, display, replace, search_params) */
PyObject *
pe_url_type_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"record_of", "origin", "display", "replace",
                                        "search_params"};
    PyObject *a[5];
    int k;
    (void)self;
    if (parse_args("url_type_setup", args, nargs, kwnames, names, 5, a) < 0) {
        return NULL;
    }
    for (k = 0; k < 5; k++) {
        if (!PyCallable_Check(a[k])) {
            PyErr_Format(PyExc_TypeError, "url_type_setup: %s must be callable", names[k]);
            return NULL;
        }
    }
    Py_XSETREF(hook_record, Py_NewRef(a[0]));
    Py_XSETREF(hook_origin, Py_NewRef(a[1]));
    Py_XSETREF(hook_display, Py_NewRef(a[2]));
    Py_XSETREF(hook_replace, Py_NewRef(a[3]));
    Py_XSETREF(hook_params, Py_NewRef(a[4]));
    Py_RETURN_NONE;
}

/* The type into the module, its descriptors for arrow_url.c. */
int
url_object_init(PyObject *module)
{
    if (PyType_Ready(&UrlObjectType) < 0) {
        return -1;
    }
    if (s_null == NULL && (s_null = PyUnicode_InternFromString("null")) == NULL) {
        return -1;
    }
    if (s_url == NULL && (s_url = PyUnicode_InternFromString("URL")) == NULL) {
        return -1;
    }
    if (s_href == NULL && (s_href = PyUnicode_InternFromString("href")) == NULL) {
        return -1;
    }
    {
        int k;
        char buf[8];
        for (k = 0; k < N_SPECIAL; k++) {
            size_t n = strlen(SPECIAL_SCHEMES[k]);
            memcpy(buf, SPECIAL_SCHEMES[k], n);
            buf[n] = ':';
            if ((scheme_strs[0][k] == NULL &&
                 (scheme_strs[0][k] = PyUnicode_InternFromString(SPECIAL_SCHEMES[k])) == NULL) ||
                (scheme_strs[1][k] == NULL &&
                 (scheme_strs[1][k] = PyUnicode_FromStringAndSize(buf, (Py_ssize_t)n + 1)) ==
                     NULL)) {
                return -1;
            }
            PyUnicode_InternInPlace(&scheme_strs[1][k]);
        }
    }
    Py_XSETREF(d_href, PyObject_GetAttrString((PyObject *)&UrlObjectType, "href"));
    Py_XSETREF(d_parts, PyObject_GetAttrString((PyObject *)&UrlObjectType, "_parts"));
    if (d_href == NULL || d_parts == NULL) {
        return -1;
    }
    Py_INCREF(&UrlObjectType);
    if (PyModule_AddObject(module, "URL", (PyObject *)&UrlObjectType) < 0) {
        Py_DECREF(&UrlObjectType);
        return -1;
    }
    return 0;
}
