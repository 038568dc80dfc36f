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
 * url_parse(input, base=None) returns a url.URL (its href, the component
 * offsets, the validation errors) or None: the input failed to parse (the
 * Python parser then raises with its message), holds a lone surrogate, or has
 * a host the hook declines (a failure in the Python host parser).  The base
 * is a url.URL (its href and offsets are reused; one the Python parser built
 * is parsed again from its href) or a str, parsed first.  The tests check
 * that a non-None result is exactly what the Python state machine gives.
 *
 * The work is linear: one pass over the input; a ".." segment truncates the
 * output back to the previous "/", and each output byte is removed at most once.
 *
 * url_getter(name, property) makes the URL API's getters (§6.1) C descriptors:
 * on a URL built here they slice the href at the offsets; on any other URL
 * they call the Python property.
 */
#include "url.h"
#include "structmember.h"

PyObject *url_type;           /* percent_encoding.url.URL */
static PyObject *verr_type;   /* percent_encoding.url.ValidationError (a NamedTuple) */
PyObject *d_href, *d_parts;   /* URL's slot descriptors */
static PyObject *d_errors;
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

/* The byte offsets of URL's slots href, _parts and validation_errors in an
 * instance (member descriptors), or -1 to set them through the descriptors. */
static Py_ssize_t slot_off[3] = {-1, -1, -1};

static Py_ssize_t
member_offset(PyObject *descr)
{
    if (Py_TYPE(descr) == &PyMemberDescr_Type) {
        PyMemberDef *m = ((PyMemberDescrObject *)descr)->d_member;
        if (m->type == T_OBJECT_EX && !(m->flags & READONLY)) {
            return m->offset;
        }
    }
    return -1;
}

/* set slot k of a new URL (value: a new reference, stolen) */
static int
url_set(int k, PyObject *descr, PyObject *obj, PyObject *value)
{
    int rc;
    if (slot_off[k] >= 0) {
        PyObject **slot = (PyObject **)((char *)obj + slot_off[k]);
        Py_XSETREF(*slot, value);
        return 0;
    }
    rc = Py_TYPE(descr)->tp_descr_set(descr, obj, value);
    Py_DECREF(value);
    return rc;
}

/* The parts tuple of a URL (new reference). */
static PyObject *
url_parts_tuple(const UrlParts *o)
{
    Py_ssize_t vals[9] = {o->s_end,   o->u_end,   o->h_start, o->h_end,    o->port,
                          o->p_start, o->q_start, o->f_start, o->host_kind};
    int k;
    PyObject *parts = PyTuple_New(9);
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
    return parts;
}

/* Parse a str into P (url_parser_init + url_parse_core): 1, 2 failure, 0 bail, -1. */
static int
url_parse_str(UrlParser *P, PyObject *s, const UrlBase *B, UrlParts *o)
{
    P->nogil = 0;
    P->head_only = 0;
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
        if ((rc = url_parse_str(BP, text, NULL, &B->o)) == 1) {
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
    if (url_type == NULL || !PyObject_TypeCheck(base, (PyTypeObject *)url_type)) {
        return 0;
    }
    href = Py_TYPE(d_href)->tp_descr_get(d_href, base, (PyObject *)Py_TYPE(base));
    if (href == NULL || !PyUnicode_IS_ASCII(href)) {
        Py_XDECREF(href);
        PyErr_Clear();
        return 0;
    }
    parts = Py_TYPE(d_parts)->tp_descr_get(d_parts, base, (PyObject *)Py_TYPE(base));
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
    if ((rc = url_parse_str(BP, href, NULL, &B->o)) != 1) {
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

PyObject *
url_new_object(const char *h, Py_ssize_t len, const UrlParts *o, const UrlParser *P)
{
    PyObject *href, *parts = NULL, *errs = NULL, *u = NULL;
    int rc;
    if ((href = PyUnicode_New(len, 127)) == NULL) {
        return NULL;
    }
    memcpy(PyUnicode_DATA(href), h, (size_t)len);
    if ((parts = url_parts_tuple(o)) == NULL ||
        (errs = P->nerr ? url_errors_tuple(P) : PyTuple_New(0)) == NULL ||
        (u = ((PyTypeObject *)url_type)->tp_alloc((PyTypeObject *)url_type, 0)) == NULL) {
        Py_DECREF(href);
        Py_XDECREF(parts);
        Py_XDECREF(errs);
        return NULL;
    }
    rc = url_set(0, d_href, u, href);
    rc |= url_set(1, d_parts, u, parts);
    rc |= url_set(2, d_errors, u, errs);
    if (rc < 0) {
        Py_CLEAR(u);
    }
    return u;
}

/* A new URL for input (a str) against base (NULL or None: none), or None
 * (new reference) to leave it to the Python parser; NULL on error. */
static PyObject *url_fast_build(PyObject *input, PyObject *base, int raise, PyObject *into);

PyObject *
url_fast_new(PyObject *input, PyObject *base, int raise)
{
    return url_fast_build(input, base, raise, NULL);
}

/* as url_fast_new, filling the slots of `into` (a URL: URL.__init__) when it
 * is not NULL; then the result is `into` itself */
static PyObject *
url_fast_build(PyObject *input, PyObject *base, int raise, PyObject *into)
{
    UrlParser P, BP;
    UrlBase B;
    UrlParts o;
    PyObject *href = NULL, *parts = NULL, *errs = NULL, *u = NULL, *keep = NULL, *text;
    int rc = 1, used_bp = 0;
    if (url_type == NULL) {
        Py_RETURN_NONE;
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
        rc = url_parse_str(&P, text, base != NULL && base != Py_None ? &B : NULL, &o);
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
    href = PyUnicode_New(P.len, 127);
    if (href == NULL) {
        rc = -1;
        goto done;
    }
    memcpy(PyUnicode_DATA(href), P.out, (size_t)P.len);
    if ((parts = url_parts_tuple(&o)) == NULL) {
        rc = -1;
        goto done;
    }
    errs = P.nerr ? url_errors_tuple(&P) : PyTuple_New(0);
    if (errs == NULL) {
        rc = -1;
        goto done;
    }
    if (into != NULL) {
        Py_INCREF(into);
        u = into;
    }
    else {
        u = ((PyTypeObject *)url_type)->tp_alloc((PyTypeObject *)url_type, 0);
    }
    if (u == NULL) {
        rc = -1;
        goto done;
    }
    rc = url_set(0, d_href, u, href);
    rc |= url_set(1, d_parts, u, parts);
    rc |= url_set(2, d_errors, u, errs);
    href = parts = errs = NULL;
    if (rc < 0) {
        Py_CLEAR(u);
        rc = -1;
    }
    else {
        rc = 1;
    }
done:
    Py_XDECREF(href);
    Py_XDECREF(parts);
    Py_XDECREF(errs);
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
    PyObject *into = NULL;
    if (nargs < 1 || nargs > 4) {
        PyErr_SetString(PyExc_TypeError, "url_parse(input, base=None, raise_failure=False, "
                                         "into=None) takes 1 to 4 arguments");
        return NULL;
    }
    if (nargs >= 3 && (raise = PyObject_IsTrue(args[2])) < 0) {
        return NULL;
    }
    if (nargs == 4 && args[3] != Py_None) {
        into = args[3];
        if (url_type == NULL || Py_TYPE(into) != (PyTypeObject *)url_type ||
            slot_off[0] < 0 || slot_off[1] < 0 || slot_off[2] < 0) {
            into = NULL; /* a subclass, or slots we cannot write: a new URL */
        }
    }
    if (!PyUnicode_Check(args[0])) {
        PyErr_Format(PyExc_TypeError, "url_parse() takes a str, not %.200s",
                     Py_TYPE(args[0])->tp_name);
        return NULL;
    }
    return url_fast_build(args[0], nargs >= 2 ? args[1] : NULL, raise, into);
}

/* url_setup(URL, ValidationError, host_hook, parse_error, nfc_check=None):
 * what url_parse builds with.  nfc_check (str -> bool) is the pure twin's NFC
 * test of a decoded label (url_idna.c); without it such labels go to the hook. */
PyObject *
pe_url_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"url_type", "error_type", "host_hook", "parse_error",
                                        "nfc_check"};
    PyObject *a[5], *dh, *dp, *de;
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
    {
        int k;
        for (k = 0; k < E_COUNT; k++) {
            if (err_strs[k] == NULL &&
                (err_strs[k] = PyUnicode_InternFromString(url_error_names[k])) == NULL) {
                goto fail;
            }
        }
    }
    Py_XSETREF(d_href, dh);
    Py_XSETREF(d_parts, dp);
    Py_XSETREF(d_errors, de);
    url_tables_init();
    url_host_tables_init();
    slot_off[0] = member_offset(dh);
    slot_off[1] = member_offset(dp);
    slot_off[2] = member_offset(de);
    Py_INCREF(a[0]);
    Py_XSETREF(url_type, a[0]);
    Py_INCREF(a[1]);
    Py_XSETREF(verr_type, a[1]);
    Py_INCREF(a[2]);
    Py_XSETREF(host_hook, a[2]);
    Py_INCREF(a[3]);
    Py_XSETREF(parse_error, a[3]);
    Py_XSETREF(nfc_check, a[4] == Py_None ? NULL : Py_NewRef(a[4]));
    Py_RETURN_NONE;
fail:
    Py_DECREF(dh);
    Py_DECREF(dp);
    Py_DECREF(de);
    return NULL;
}
