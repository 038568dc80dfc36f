/* url.c: the WHATWG URL parser in C, straight to a url.URL object.
 *
 * What it implements (URL Standard, https://url.spec.whatwg.org/):
 *   §4.4 the basic URL parser with or without a base URL, no state override,
 *        UTF-8: every state (url_state.c), the trimming of leading and
 *        trailing C0 controls and spaces and the removal of tabs and newlines
 *        (here: url_parser_init, with their validation errors);
 *   §3.5 the host parser (url_host.c): IPv6, IPv4 in every form, opaque hosts,
 *        ASCII domains, their xn-- labels too (url_idna.c); other domains
 *        through a cached Python host hook;
 *   §1.3 the userinfo, path, query, special-query, fragment and C0 control
 *        percent-encode sets (UTF-8), tables generated from sets.py;
 *   §4.3 URL code points, for the invalid-URL-unit validation errors;
 *   §4.5 the URL serializer (written while parsing, as ada's url_aggregator).
 *
 * url_parse(input, base=None) returns a URL (url_object.c: its href, the
 * component offsets, the validation errors) or None: the input failed to parse (the
 * Python parser then raises with its message), holds a lone surrogate, or has
 * a host the hook declines (a failure in the Python host parser).  The base
 * is a url.URL (its href and offsets are reused; one the Python parser built
 * is parsed again from its href) or a str, parsed first.  The tests check
 * that a non-None result is exactly what the Python state machine gives.
 *
 * The work is linear: one pass over the input; a ".." segment truncates the
 * output back to the previous "/", and each output byte is removed at most once.
 *
 * The URL object itself (its getters, replace, ==, hash, pickling) is the C
 * type of url_object.c.
 */
#include "url.h"

static PyObject *verr_type;   /* percent_encoding.url.ValidationError (a NamedTuple) */
static PyObject *parse_error;                 /* percent_encoding.errors.URLParseError */
static PyObject *err_strs[E_COUNT];           /* the validation error names, interned */

/* A ValidationError(name, position) for each recorded error, as a tuple.
 * ValidationError is a NamedTuple: a tuple subclass without a __dict__, made
 * here as tuple.__new__ makes one (tp_alloc, then the two items). */
static PyObject *
url_errors_tuple(const UrlParser *P)
{
    Py_ssize_t i;
    PyTypeObject *vt = (PyTypeObject *)verr_type;
    PyObject *t = PyTuple_New(P->nerr);
    if (t == NULL) {
        return NULL;
    }
    for (i = 0; i < P->nerr; i++) {
        PyObject *name = err_strs[P->errs[i].name];
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

/* Parse a str into P (url_parser_init + url_parse_core): 1, 2 failure, 0 bail, -1. */
int
url_parse_str(UrlParser *P, PyObject *s, const UrlBase *B, UrlParts *o, int head_only)
{
    P->nogil = 0;
    P->head_only = head_only;
    if (PE_READY(s) < 0) {
        url_parser_init(P, PyUnicode_1BYTE_KIND, "", 0);
        return -1;
    }
    if (url_parser_init(P, PyUnicode_KIND(s), PyUnicode_DATA(s), PyUnicode_GET_LENGTH(s)) < 0) {
        return -1;
    }
    return url_parse_core(P, B, o);
}

/* URLParseError(message, name, position) for a failed parse: of the input
 * (how 0), of the base (1), of the href setter's value (2, url/_setters.py's
 * message) */
void
url_raise_failure(const UrlParser *P, PyObject *input, int how)
{
    PyObject *msg, *pos, *e;
    if (parse_error == NULL) {
        return;
    }
    msg = how ? PyUnicode_FromFormat(how == 1 ? "invalid base URL (%s at %zd)"
                                              : "invalid URL (%s at %zd)",
                                     url_error_names[P->fail], P->fail_pos)
              : PyUnicode_FromFormat("invalid URL %R: %s at position %zd", input,
                                     url_error_names[P->fail], P->fail_pos);
    pos = PyLong_FromSsize_t(P->fail_pos);
    if (msg != NULL && pos != NULL) {
        e = PyObject_CallFunctionObjArgs(parse_error, msg, err_strs[P->fail], pos, NULL);
        if (e != NULL) {
            PyErr_SetObject((PyObject *)Py_TYPE(e), e);
            Py_DECREF(e);
        }
    }
    Py_XDECREF(msg);
    Py_XDECREF(pos);
}

/* The base of a parse, from a URL (its href and offsets) or a str (parsed
 * into BP).  1 with *B set, 0 to leave it to Python, -1. */
int
url_base(PyObject *base, UrlParser *BP, UrlBase *B, int *used_bp, int raise, PyObject **keep)
{
    PyObject *href = NULL, *parts = NULL;
    int rc = 0;
    *used_bp = 0;
    if (PyUnicode_CheckExact(base)) {
        /* (as a USVString; *keep holds the converted text while BP reads it) */
        PyObject *text = url_usv(base, 0);
        if (text == NULL) {
            return -1;
        }
        *keep = text;
        *used_bp = 1;
        if ((rc = url_parse_str(BP, text, NULL, &B->o, 0)) == 1) {
            B->href = BP->out;
            B->len = BP->len;
        }
        else if (rc == 2) {
            rc = 0;
            if (raise) {
                url_raise_failure(BP, base, 1);
                rc = -1;
            }
        }
        return rc;
    }
    if (Py_IS_TYPE(base, &UrlObjectType)) {
        /* the C twin's URL: its href and offsets as they are */
        UrlObject *u = (UrlObject *)base;
        if (!PyUnicode_IS_ASCII(u->href)) {
            return 0;
        }
        B->href = (const char *)PyUnicode_DATA(u->href);
        B->len = PyUnicode_GET_LENGTH(u->href);
        B->o = u->o;
        *keep = Py_NewRef(u->href);
        return 1;
    }
    /* the pure twin's URL: its href, and its offsets when its fast path set them */
    if (url_py_class == NULL || !PyObject_TypeCheck(base, (PyTypeObject *)url_py_class)) {
        return 0;
    }
    /* (interned names: a name made per call would fill the type's method cache) */
    static PyObject *s_href, *s_parts;
    if ((s_href == NULL && (s_href = PyUnicode_InternFromString("href")) == NULL) ||
        (s_parts == NULL && (s_parts = PyUnicode_InternFromString("_parts")) == NULL)) {
        return -1;
    }
    href = PyObject_GetAttr(base, s_href);
    if (href == NULL || !PyUnicode_Check(href) || !PyUnicode_IS_ASCII(href)) {
        Py_XDECREF(href);
        PyErr_Clear();
        return 0;
    }
    parts = PyObject_GetAttr(base, s_parts);
    if (parts == NULL) {
        PyErr_Clear();
    }
    if (parts != NULL && PyTuple_CheckExact(parts) && PyTuple_GET_SIZE(parts) == 9) {
        Py_ssize_t v[9];
        int k;
        for (k = 0; k < 9; k++) {
            v[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(parts, k));
        }
        if (PyErr_Occurred()) {
            rc = -1;
            goto done;
        }
        B->o.s_end = v[0], B->o.u_end = v[1], B->o.h_start = v[2], B->o.h_end = v[3];
        B->o.port = v[4], B->o.p_start = v[5], B->o.q_start = v[6], B->o.f_start = v[7];
        B->o.host_kind = (int)v[8];
        /* the caller keeps the href alive (the host hook runs Python code) */
        B->href = (const char *)PyUnicode_DATA(href);
        B->len = PyUnicode_GET_LENGTH(href);
        *keep = href;
        href = NULL;
        rc = 1;
        goto done;
    }
    /* a URL the Python parser built: its href parsed again must give it back */
    *used_bp = 1;
    if ((rc = url_parse_str(BP, href, NULL, &B->o, 0)) != 1) {
        rc = rc < 0 ? -1 : 0;
    }
    else {
        if (BP->len != PyUnicode_GET_LENGTH(href) ||
            memcmp(BP->out, PyUnicode_DATA(href), (size_t)BP->len) != 0) {
            rc = 0;
        }
        B->href = BP->out;
        B->len = BP->len;
    }
done:
    Py_XDECREF(parts);
    Py_XDECREF(href);
    return rc;
}

/* href[0:len] as a str: `same` itself (a new reference) when it is an exact
 * ASCII str of those very characters, else a new str.  Most URLs in use are
 * written as the serializer writes them (§4.5: on ada's corpora, 94% to all
 * of the inputs), and a str is immutable: the URL shares the caller's. */
static PyObject *
url_href_str(const char *h, Py_ssize_t len, PyObject *same)
{
    PyObject *href;
    if (same != NULL && PyUnicode_CheckExact(same) && PyUnicode_IS_COMPACT_ASCII(same) &&
        PyUnicode_GET_LENGTH(same) == len && memcmp(PyUnicode_DATA(same), h, (size_t)len) == 0) {
        return Py_NewRef(same);
    }
    if ((href = PyUnicode_New(len, 127)) != NULL) {
        memcpy(PyUnicode_DATA(href), h, (size_t)len);
    }
    return href;
}

PyObject *
url_new_object(const char *h, Py_ssize_t len, const UrlParts *o, const UrlParser *P,
               PyObject *same)
{
    PyObject *href, *errs;
    if ((href = url_href_str(h, len, same)) == NULL) {
        return NULL;
    }
    if ((errs = P->nerr ? url_errors_tuple(P) : PyTuple_New(0)) == NULL) {
        Py_DECREF(href);
        return NULL;
    }
    return url_object_new(href, o, errs);
}

/* A new URL for input (a str) against base (NULL or None: none), or None
 * (new reference) to leave it to the Python parser; NULL on error. */
PyObject *
url_fast_new(PyObject *input, PyObject *base, int raise)
{
    UrlParser P, BP;
    UrlBase B;
    UrlParts o;
    PyObject *u = NULL, *keep = NULL, *text;
    int rc = 1, used_bp = 0;
    if (host_hook == NULL) {
        Py_RETURN_NONE; /* url_setup has not run */
    }
    /* the input as a USVString (surrogate pairs joined), as the API URL parser
     * takes it: positions are the converted text's, as in url/__init__.py's
     * _api_parse.  The lone surrogates stay until url_encode_run writes them
     * as U+FFFD: the USVString's U+FFFD is a URL code point, but what the
     * caller gave there is not one (§4.3), so it is reported as
     * invalid-URL-unit where the Standard checks URL code points. */
    if ((text = url_usv(input, 1)) == NULL) {
        return NULL;
    }
    P.errs = P.errbuf;
    P.heap = 0;
    P.kept = NULL;
    P.clean = NULL;
    if (base != NULL && base != Py_None) {
        rc = url_base(base, &BP, &B, &used_bp, raise, &keep);
    }
    if (rc == 1) {
        rc = url_parse_str(&P, text, base != NULL && base != Py_None ? &B : NULL, &o, 0);
        if (rc == 2) {
            rc = 0;
            if (raise) {
                url_raise_failure(&P, input, 0);
                rc = -1;
            }
        }
    }
    if (rc <= 0) {
        goto done;
    }
    u = url_new_object(P.out, P.len, &o, &P, text);
    rc = u == NULL ? -1 : 1;
done:
    url_parser_free(&P);
    Py_DECREF(text);
    Py_XDECREF(keep);
    if (used_bp) {
        url_parser_free(&BP);
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
pe_url_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    int raise = 0;
    if (nargs < 1 || nargs > 3) {
        PyErr_SetString(PyExc_TypeError,
                        "url_parse(input, base=None, raise_failure=False) takes 1 to 3 arguments");
        return NULL;
    }
    if (nargs >= 3 && (raise = PyObject_IsTrue(args[2])) < 0) {
        return NULL;
    }
    if (!PyUnicode_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "url_parse() takes a str, not %.200s",
                     Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    return url_fast_new(args[0], nargs >= 2 ? args[1] : NULL, raise);
}

/* url_setup(URL, ValidationError, host_hook, parse_error, nfc_check=None):
 * what url_parse builds with.  nfc_check (str -> bool) is the pure twin's NFC
 * test of a decoded label (url_idna.c); without it such labels go to the hook. */
PyObject *
pe_url_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"url_type", "error_type", "host_hook", "parse_error",
                                        "nfc_check"};
    PyObject *a[5];
    /* nfc_check is optional: parse_args wants every name it is given */
    Py_ssize_t given = nargs + (kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames));
    (void)self;
    a[4] = Py_None;
    if (parse_args("url_setup", args, nargs, kwnames, names, given >= 5 ? 5 : 4, a) < 0) {
        return NULL;
    }
    if (a[4] != Py_None && !PyCallable_Check(a[4])) {
        PyErr_SetString(PyExc_TypeError, "url_setup: nfc_check must be callable or None");
        return NULL;
    }
    if (!PyType_Check(a[3]) || !PyType_IsSubtype((PyTypeObject *)a[3],
                                                 (PyTypeObject *)PyExc_Exception)) {
        PyErr_SetString(PyExc_TypeError, "url_setup: parse_error must be an exception class");
        return NULL;
    }
    if (!PyType_Check(a[0]) || !PyType_Check(a[1]) ||
        !PyType_IsSubtype((PyTypeObject *)a[1], &PyTuple_Type) ||
        ((PyTypeObject *)a[1])->tp_dictoffset != 0 || !PyCallable_Check(a[2])) {
        PyErr_SetString(PyExc_TypeError,
                        "url_setup(type, tuple subclass without __dict__, callable) expected");
        return NULL;
    }
    {
        int k;
        for (k = 0; k < E_COUNT; k++) {
            if (err_strs[k] == NULL &&
                (err_strs[k] = PyUnicode_InternFromString(url_error_names[k])) == NULL) {
                return NULL;
            }
        }
    }
    url_tables_init();
    url_host_tables_init();
    Py_INCREF(a[0]);
    Py_XSETREF(url_py_class, a[0]);
    Py_INCREF(a[1]);
    Py_XSETREF(verr_type, a[1]);
    Py_INCREF(a[2]);
    Py_XSETREF(host_hook, a[2]);
    Py_INCREF(a[3]);
    Py_XSETREF(parse_error, a[3]);
    Py_XSETREF(nfc_check, a[4] == Py_None ? NULL : Py_NewRef(a[4]));
    Py_RETURN_NONE;
}

/* url_can_parse(input, base=None): True, False, or None when the Python parser
 * must decide (a lone surrogate, a host the hook declines, a base it builds). */
PyObject *
pe_url_can_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    int rc;
    (void)self;
    if (nargs < 1 || nargs > 2 || !PyUnicode_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "url_can_parse(str, base=None) expected");
        return NULL;
    }
    rc = url_check(args[0], nargs == 2 ? args[1] : Py_None);
    if (rc < 0) {
        return NULL;
    }
    if (rc == 2) {
        Py_RETURN_NONE;
    }
    return PyBool_FromLong(rc);
}

/* Whether input (a str) parses against base (None, a str or a URL), §6.1
 * canParse: 1 yes, 0 no, 2 the Python parser must say, -1 error. */
int
url_check(PyObject *input, PyObject *base)
{
    UrlParser P, BP;
    UrlBase B;
    UrlParts o;
    PyObject *keep = NULL, *text;
    int rc = 1, used_bp = 0;
    if ((text = url_usv(input, 1)) == NULL) {
        return -1;
    }
    P.errs = P.errbuf;
    P.heap = 0;
    P.kept = NULL;
    P.clean = NULL;
    if (base != Py_None) {
        rc = url_base(base, &BP, &B, &used_bp, 0, &keep);
    }
    if (rc == 1) {
        rc = url_parse_str(&P, text, base != Py_None ? &B : NULL, &o, 1);
        rc = rc == 1 ? 1 : rc == 2 ? 0 : rc == 0 ? 2 : -1;
        url_parser_free(&P);
    }
    else if (rc == 0) {
        rc = 2;
    }
    Py_DECREF(text);
    Py_XDECREF(keep);
    if (used_bp) {
        url_parser_free(&BP);
    }
    return rc;
}
