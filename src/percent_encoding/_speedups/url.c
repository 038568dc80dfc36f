/* url.c: the common case of the WHATWG URL parser, straight to a url.URL object.
 *
 * What it implements (URL Standard, https://url.spec.whatwg.org/):
 *   §4.4 the basic URL parser with no base and no state override: the scheme
 *        start, scheme, special authority slashes, authority, host, port,
 *        path start, path, opaque path, query and fragment states, and the
 *        file / file slash / file host states for "file:///" with an empty host;
 *   §3.5 the host parser for ASCII domains, "ends in a number" and the IPv4
 *        parser (four plain decimal parts); §3.3 domain to ASCII's strict result
 *        for lower-case LDH labels (any other host goes to the Python host
 *        parser through a cached hook);
 *   §1.3 the userinfo, path, query, special-query, fragment and C0 control
 *        percent-encode sets (UTF-8), tables generated from sets.py;
 *   §4.3 URL code points, for the invalid-URL-unit validation errors;
 *   §4.5 the URL serializer (written while parsing, as ada's url_aggregator).
 *
 * url_parse(input) returns a url.URL (its href, the component offsets, the
 * validation errors) or None when the input needs anything else: leading or
 * trailing C0 control or space, tab or newline, a backslash in a special URL,
 * a missing "//", a host that is empty, not clean dotted-decimal IPv4 or whose
 * parse records a validation error, a bad port, dot segments in a file URL, a
 * non-special URL with "/" after the scheme, a space in an opaque path, a lone
 * surrogate.  Then the caller runs the Python state machine (the reference),
 * so a None costs nothing but the time spent here.  The tests check that a
 * non-None result is exactly what the state machine gives.
 *
 * The work is linear: one pass over the input; a ".." segment truncates the
 * output back to the previous "/", and each output byte is removed at most once.
 *
 * url_getter(name, property) makes the URL API's getters (§6.1) C descriptors:
 * on a URL built here they slice the href at the offsets; on any other URL
 * they call the Python property.
 *
 * The units (url.h lists them): this one drives the parse and builds the URL;
 * url_host.c parses the host, url_path.c encodes runs and the path, query and
 * fragment, url_getter.c holds the getters.
 */
#include "url.h"

PyObject *url_type;           /* percent_encoding.url.URL */
static PyObject *verr_type;   /* percent_encoding.url.ValidationError (a NamedTuple) */
PyObject *host_hook;          /* (host text) -> (serialized host, kind) | None, cached */
PyObject *d_href, *d_parts;   /* URL's slot descriptors */
static PyObject *d_errors;
static PyObject *s_unit, *s_credentials;       /* validation error names */

/* 0, or -1 with MemoryError */
int
url_grow(UrlP *P, Py_ssize_t need)
{
    Py_ssize_t cap = P->cap;
    char *o;
    if (need > PY_SSIZE_T_MAX / 2 - P->len) {
        PyErr_NoMemory();
        return -1;
    }
    while (cap < P->len + need) {
        cap *= 2;
    }
    if (P->heap) {
        o = PyMem_Realloc(P->out, (size_t)cap);
    }
    else {
        o = PyMem_Malloc((size_t)cap);
        if (o != NULL) {
            memcpy(o, P->out, (size_t)P->len);
        }
    }
    if (o == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    P->out = o;
    P->cap = cap;
    P->heap = 1;
    return 0;
}

int
url_err(UrlP *P, int credentials, Py_ssize_t pos)
{
    if (P->nerr == P->errcap) {
        UrlErr *e;
        if (P->errcap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(UrlErr)) {
            PyErr_NoMemory();
            return -1;
        }
        if (P->errs == P->errbuf) {
            e = PyMem_Malloc(2 * (size_t)P->errcap * sizeof(UrlErr));
            if (e != NULL) {
                memcpy(e, P->errbuf, sizeof(P->errbuf));
            }
        }
        else {
            e = PyMem_Realloc(P->errs, 2 * (size_t)P->errcap * sizeof(UrlErr));
        }
        if (e == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        P->errs = e;
        P->errcap *= 2;
    }
    P->errs[P->nerr].pos = pos;
    P->errs[P->nerr].credentials = credentials;
    P->nerr++;
    return 0;
}

/* The whole parse: 1 with *o filled and the href in P->out, 0 to bail, -1.
 * (Also arrow_url.c's per-row parse, on a P set up as url_fast_new does.) */
int
url_run(UrlP *P, PyObject *input, UrlParts *o)
{
    Py_ssize_t n = P->n, i, j, auth_end, at = -1, host_a, host_b;
    Py_UCS4 c;
    int rc, special = 0, file = 0, defport = -1;
    char scheme[8];
    if (n == 0 || CH(P, 0) <= 0x20 || CH(P, n - 1) <= 0x20) {
        return 0; /* empty, or leading/trailing C0 control or space to trim */
    }
    /* scheme start and scheme states */
    c = CH(P, 0);
    if (!((c | 0x20) >= 'a' && (c | 0x20) <= 'z')) {
        return 0;
    }
    for (i = 0; i < n; i++) {
        c = CH(P, i);
        if (c >= 'A' && c <= 'Z') {
            c += 32;
        }
        else if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
                   c == '.')) {
            break;
        }
        NEED(P, 1);
        P->out[P->len++] = (char)c;
    }
    if (i >= n || c != ':') {
        return 0; /* no scheme: relative, which needs a base */
    }
    o->s_end = i;
    if (i <= 5) {
        memcpy(scheme, P->out, (size_t)i);
        scheme[i] = 0;
        if (!strcmp(scheme, "http") || !strcmp(scheme, "ws")) {
            special = 1, defport = 80;
        }
        else if (!strcmp(scheme, "https") || !strcmp(scheme, "wss")) {
            special = 1, defport = 443;
        }
        else if (!strcmp(scheme, "ftp")) {
            special = 1, defport = 21;
        }
        else if (!strcmp(scheme, "file")) {
            special = 1, file = 1;
        }
    }
    NEED(P, 1);
    P->out[P->len++] = ':';
    i++;
    o->port = -1;
    if (!special) {
        /* opaque path state (a "/" here means path-or-authority: bail) */
        if (i < n && CH(P, i) == '/') {
            return 0;
        }
        o->u_end = o->h_start = o->h_end = P->len;
        o->host_kind = HOST_NONE;
        o->p_start = P->len;
        for (j = i; j < n && (c = CH(P, j)) != '?' && c != '#'; j++) {
        }
        if ((rc = url_encode_run(P, i, j, PE_URL_C0, 1, 1)) <= 0) {
            return rc;
        }
        return url_query_fragment(P, j, 0, o);
    }
    /* special authority slashes: exactly "//" then no further slash */
    if (i + 1 >= n || CH(P, i) != '/' || CH(P, i + 1) != '/') {
        return 0;
    }
    i += 2;
    NEED(P, 2);
    P->out[P->len++] = '/';
    P->out[P->len++] = '/';
    if (file) {
        /* file slash and file host states with an empty host: "file:///" */
        if (i >= n || CH(P, i) != '/') {
            return 0;
        }
        o->u_end = o->h_start = o->h_end = P->len;
        o->host_kind = HOST_EMPTY;
        o->p_start = P->len;
        if ((rc = url_path(P, i, 1, &j)) <= 0) {
            return rc;
        }
        return url_query_fragment(P, j, 1, o);
    }
    if (i < n && ((c = CH(P, i)) == '/' || c == '\\')) {
        return 0;
    }
    /* authority state: up to '/', '?', '#' (a backslash: bail) */
    for (auth_end = i; auth_end < n; auth_end++) {
        c = CH(P, auth_end);
        if (c == '/' || c == '?' || c == '#') {
            break;
        }
        if (c == '\\' || c == '\t' || c == '\n' || c == '\r') {
            return 0;
        }
        if (c == '@') {
            at = auth_end;
        }
    }
    o->u_end = P->len;
    if (at >= 0) {
        Py_ssize_t colon = -1;
        for (j = i; j <= at; j++) {
            c = CH(P, j);
            if (c == '@' && url_err(P, 1, j) < 0) {
                return -1;
            }
            if (c == ':' && colon < 0) {
                colon = j;
            }
        }
        if (colon < 0) {
            colon = at;
        }
        if (at > i && !(colon == i && at == i + 1)) {
            /* username (and ':' password) then '@'; an '@' before the last is %40 */
            if ((rc = url_encode_run(P, i, colon, PE_URL_USERINFO, 0, 0)) <= 0) {
                return rc;
            }
            o->u_end = P->len;
            if (colon + 1 < at) {
                NEED(P, 1);
                P->out[P->len++] = ':';
                if ((rc = url_encode_run(P, colon + 1, at, PE_URL_USERINFO, 0, 0)) <= 0) {
                    return rc;
                }
            }
            NEED(P, 1);
            P->out[P->len++] = '@';
        }
        i = at + 1;
    }
    /* host state: up to a ':' outside brackets */
    host_a = i;
    {
        int br = 0;
        for (host_b = i; host_b < auth_end; host_b++) {
            c = CH(P, host_b);
            if (c == '[') {
                br = 1;
            }
            else if (c == ']') {
                br = 0;
            }
            else if (c == ':' && !br) {
                break;
            }
        }
    }
    if (host_b == host_a) {
        return 0; /* host-missing */
    }
    o->h_start = P->len;
    rc = CH(P, host_a) == '[' ? 2 : url_ascii_host(P, host_a, host_b, &o->host_kind);
    if (rc == 2) {
        rc = url_host_from_hook(P, input, host_a, host_b, &o->host_kind);
    }
    if (rc <= 0) {
        return rc;
    }
    o->h_end = P->len;
    /* port state */
    if (host_b < auth_end) {
        long v = 0;
        int digits = 0;
        for (j = host_b + 1; j < auth_end; j++) {
            c = CH(P, j);
            if (c < '0' || c > '9') {
                return 0;
            }
            v = v * 10 + (long)(c - '0');
            if (v > 65535) {
                return 0;
            }
            digits++;
        }
        if (digits && v != defport) {
            NEED(P, 8);
            P->len += sprintf(P->out + P->len, ":%ld", v);
            o->port = v;
        }
    }
    /* path start and path states */
    o->p_start = P->len;
    if (auth_end < n && CH(P, auth_end) == '/') {
        if ((rc = url_path(P, auth_end, 0, &j)) <= 0) {
            return rc;
        }
    }
    else {
        NEED(P, 1);
        P->out[P->len++] = '/';
        j = auth_end;
    }
    return url_query_fragment(P, j, 1, o);
}

/* A ValidationError(name, position) for each recorded error, as a tuple.
 * ValidationError is a NamedTuple: a tuple subclass without a __dict__, made
 * here as tuple.__new__ makes one (tp_alloc, then the two items). */
static PyObject *
url_errors_tuple(const UrlP *P)
{
    Py_ssize_t i;
    PyTypeObject *vt = (PyTypeObject *)verr_type;
    PyObject *t = PyTuple_New(P->nerr);
    if (t == NULL) {
        return NULL;
    }
    for (i = 0; i < P->nerr; i++) {
        PyObject *name = P->errs[i].credentials ? s_credentials : s_unit;
        PyObject *pos = PyLong_FromSsize_t(P->errs[i].pos), *v;
        if (pos == NULL || (v = vt->tp_alloc(vt, 2)) == NULL) {
            Py_XDECREF(pos);
            Py_DECREF(t);
            return NULL;
        }
        Py_INCREF(name);
        PyTuple_SET_ITEM(v, 0, name);
        PyTuple_SET_ITEM(v, 1, pos);
        /* a str and an int cannot be in a cycle: untracked, as the GC itself
         * untracks such tuples (one error per code point must not make the
         * collector's passes the cost) */
        PyObject_GC_UnTrack(v);
        PyTuple_SET_ITEM(t, i, v);
    }
    PyObject_GC_UnTrack(t);
    return t;
}

static int
url_set(PyObject *descr, PyObject *obj, PyObject *value)
{
    descrsetfunc set = Py_TYPE(descr)->tp_descr_set;
    return set == NULL ? -1 : set(descr, obj, value);
}

/* A new URL for input (a str), or None (new reference) to bail; NULL on error. */
PyObject *
url_fast_new(PyObject *input)
{
    UrlP P;
    UrlParts o;
    PyObject *href = NULL, *parts = NULL, *errs = NULL, *u = NULL;
    int rc;
    if (url_type == NULL || PE_READY(input) < 0) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        Py_RETURN_NONE;
    }
    P.kind = PyUnicode_KIND(input);
    P.data = PyUnicode_DATA(input);
    P.n = PyUnicode_GET_LENGTH(input);
    P.out = P.stack;
    P.len = 0;
    P.cap = URL_STACK;
    P.heap = 0;
    P.errs = P.errbuf;
    P.nerr = 0;
    P.errcap = URL_ERRS;
    rc = url_run(&P, input, &o);
    if (rc <= 0) {
        goto done;
    }
    href = PyUnicode_New(P.len, 127);
    if (href == NULL) {
        rc = -1;
        goto done;
    }
    memcpy(PyUnicode_DATA(href), P.out, (size_t)P.len);
    {
        Py_ssize_t vals[9] = {o.s_end, o.u_end,   o.h_start, o.h_end,    o.port,
                              o.p_start, o.q_start, o.f_start, o.host_kind};
        int k;
        parts = PyTuple_New(9);
        for (k = 0; parts != NULL && k < 9; k++) {
            PyObject *v = PyLong_FromSsize_t(vals[k]);
            if (v == NULL) {
                Py_CLEAR(parts);
                break;
            }
            PyTuple_SET_ITEM(parts, k, v);
        }
        if (parts != NULL) {
            PyObject_GC_UnTrack(parts); /* ints only */
        }
    }
    if (parts == NULL) {
        rc = -1;
        goto done;
    }
    if (P.nerr) {
        errs = url_errors_tuple(&P);
    }
    else {
        errs = PyTuple_New(0);
    }
    if (errs == NULL) {
        rc = -1;
        goto done;
    }
    u = ((PyTypeObject *)url_type)->tp_alloc((PyTypeObject *)url_type, 0);
    if (u == NULL || url_set(d_href, u, href) < 0 || url_set(d_parts, u, parts) < 0 ||
        url_set(d_errors, u, errs) < 0) {
        Py_CLEAR(u);
        rc = -1;
    }
done:
    Py_XDECREF(href);
    Py_XDECREF(parts);
    Py_XDECREF(errs);
    if (P.errs != P.errbuf) {
        PyMem_Free(P.errs);
    }
    if (P.heap) {
        PyMem_Free(P.out);
    }
    if (rc < 0) {
        return NULL;
    }
    if (rc == 0) {
        Py_RETURN_NONE;
    }
    return u;
}

PyObject *
pe_url_parse(PyObject *self, PyObject *arg)
{
    (void)self;
    if (!PyUnicode_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "url_parse() takes a str, not %.200s",
                     Py_TYPE(arg)->tp_name);
        return NULL;
    }
    return url_fast_new(arg);
}

/* url_setup(URL, ValidationError, host_hook): what url_parse builds with. */
PyObject *
pe_url_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"url_type", "error_type", "host_hook"};
    PyObject *a[3], *dh, *dp, *de;
    (void)self;
    if (parse_args("url_setup", args, nargs, kwnames, names, 3, a) < 0) {
        return NULL;
    }
    if (!PyType_Check(a[0]) || !PyType_Check(a[1]) ||
        !PyType_IsSubtype((PyTypeObject *)a[1], &PyTuple_Type) ||
        ((PyTypeObject *)a[1])->tp_dictoffset != 0 || !PyCallable_Check(a[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "url_setup(type, tuple subclass without __dict__, callable) expected");
        return NULL;
    }
    dh = PyObject_GetAttrString(a[0], "href");
    dp = PyObject_GetAttrString(a[0], "_parts");
    de = PyObject_GetAttrString(a[0], "validation_errors");
    if (dh == NULL || dp == NULL || de == NULL || Py_TYPE(dh)->tp_descr_set == NULL ||
        Py_TYPE(dp)->tp_descr_set == NULL || Py_TYPE(de)->tp_descr_set == NULL) {
        Py_XDECREF(dh);
        Py_XDECREF(dp);
        Py_XDECREF(de);
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "url_setup: URL needs slots href, _parts, "
                                             "validation_errors");
        }
        return NULL;
    }
    if (s_unit == NULL && (s_unit = PyUnicode_InternFromString("invalid-URL-unit")) == NULL) {
        goto fail;
    }
    if (s_credentials == NULL &&
        (s_credentials = PyUnicode_InternFromString("invalid-credentials")) == NULL) {
        goto fail;
    }
    Py_XSETREF(d_href, dh);
    Py_XSETREF(d_parts, dp);
    Py_XSETREF(d_errors, de);
    Py_INCREF(a[0]);
    Py_XSETREF(url_type, a[0]);
    Py_INCREF(a[1]);
    Py_XSETREF(verr_type, a[1]);
    Py_INCREF(a[2]);
    Py_XSETREF(host_hook, a[2]);
    Py_RETURN_NONE;
fail:
    Py_DECREF(dh);
    Py_DECREF(dp);
    Py_DECREF(de);
    return NULL;
}
