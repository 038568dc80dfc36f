/* The public core.encode, core.decode_text, form.serialize, form.parse,
 * url.parse and url.can_parse as built-in functions with a C fast path. */
#include "entry.h"

/* ------------------------------------------------------------------------ */
/* Entries: the five public functions above as built-in functions (Entry     */
/* below).  The fast path takes the common call straight to a kernel;        */
/* anything else (and a kernel UnicodeEncodeError) goes to the checked       */
/* Python function with the original arguments, so results, errors and       */
/* messages are unchanged.                                                   */

enum { ENTRY_ENCODE, ENTRY_DECODE_TEXT, ENTRY_SERIALIZE, ENTRY_URL_PARSE, ENTRY_FORM_PARSE,
       ENTRY_URL_CAN_PARSE, ENTRY_KINDS };

/* The name lookup must see what the checked function sees: both look the set
 * up in the one registry dict (_encode_set.REGISTRY), which make_entry is
 * given.  A name rebound in it must not leave the fast path on a stale set, so
 * the lookup runs on every call (one hashed lookup of an interned string)
 * through the public dict API only; the cache below saves just the .table
 * read.  (No CPython private field is read: dict version tags are deprecated
 * from 3.12.) */

/* Each entry is a plain built-in function (builtin_function_or_method, METH_FASTCALL |
 * METH_KEYWORDS): CPython specializes a call of exactly that type, where a
 * vectorcall object of our own type takes the generic call path, about 5 ns
 * more a call, which is a tenth of a short decode.  Its `self` is a small
 * module object whose state is the Entry below: a module, so that the
 * function's __qualname__ is its bare name and pickle finds it by
 * __module__ and name, as for any function.  The PyMethodDef, name and
 * docstring (with the checked function's text signature) live in that
 * state too, so they last as long as the function does. */
typedef struct {
    int kind;
    PyObject *fallback; /* the checked Python function */
    PyObject *registry; /* encode: the registry of named sets (name -> EncodeSet) */
    PyObject *set_type; /* sets.EncodeSet (encode) */
    PyObject *last_set; /* encode: the last EncodeSet used, and its .table */
    PyObject *last_table;
    PyMethodDef def;    /* the built-in function's: name, C function, flags, doc */
    char *name;
    char *doc;
} Entry;



static PyObject *s_table, *s_component, *s_utf8, *s_utf8_upper, *s_strict, *s_replace;
static PyObject *s_data, *s_encode_set, *s_encoding, *s_errors, *s_space_as_plus;
static PyObject *s_plus_as_space, *s_strict_kw, *s_pairs, *s_input, *s_base;

static int
kw_is(PyObject *key, PyObject *name)
{
    return key == name || (PyUnicode_CheckExact(key) && PyUnicode_Compare(key, name) == 0);
}

static int
str_is(PyObject *o, PyObject *want)
{
    return o == want ||
           (PyUnicode_CheckExact(o) && PyUnicode_GET_LENGTH(o) == PyUnicode_GET_LENGTH(want) &&
            PyUnicode_Compare(o, want) == 0);
}

/* 1: False, 2: True, 0: anything else */
static int
flag_of(PyObject *o)
{
    return o == NULL || o == Py_False ? 1 : o == Py_True ? 2 : 0;
}

/* The parameters an entry's fast path knows, in slot order; the first npos
 * may come positionally.  (Addresses of the interned names, which are
 * filled at module init.) */
typedef struct {
    PyObject **const *names;
    int n;
    int npos;
} EntrySig;

static PyObject **const encode_names[] = {&s_data, &s_encode_set, &s_encoding, &s_errors,
                                          &s_space_as_plus};
static PyObject **const decode_text_names[] = {&s_data, &s_encoding, &s_errors,
                                               &s_plus_as_space, &s_strict_kw};
static PyObject **const serialize_names[] = {&s_pairs, &s_encoding};
static PyObject **const url_parse_names[] = {&s_input, &s_base, &s_encoding};
static PyObject **const url_can_parse_names[] = {&s_input, &s_base};
/* (form.parse binds nothing: its one fast call is form.parse(data), every
 * option at its default, which entry_call_form_parse takes itself) */
static const EntrySig entry_sigs[] = {
    [ENTRY_ENCODE] = {encode_names, 5, 2},
    [ENTRY_DECODE_TEXT] = {decode_text_names, 5, 1},
    [ENTRY_SERIALIZE] = {serialize_names, 2, 1},
    [ENTRY_URL_PARSE] = {url_parse_names, 3, 2},
    [ENTRY_URL_CAN_PARSE] = {url_can_parse_names, 2, 2},
};
#define ENTRY_MAX_ARGS 5

/* Bind the call's arguments to the slots of sig (unset slots are NULL).
 * Returns 0, or -1 (no exception) when the call is not one the fast path
 * takes: too many positionals, an unknown keyword, a slot given twice.  The
 * checked function then raises Python's own TypeError. */
static int
entry_bind(const EntrySig *sig, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
           PyObject **out)
{
    Py_ssize_t j, nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    int i;
    if (nargs > sig->npos) {
        return -1;
    }
    for (i = 0; i < sig->n; i++) {
        out[i] = i < nargs ? args[i] : NULL;
    }
    for (j = 0; j < nkw; j++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, j);
        for (i = 0; i < sig->n && !kw_is(key, *sig->names[i]); i++) {
        }
        if (i == sig->n || out[i] != NULL) {
            return -1;
        }
        out[i] = args[nargs + j];
    }
    return 0;
}

/* What a fast path's kernel error means: a UnicodeEncodeError (a lone
 * surrogate) goes to the checked function, which raises ours with the
 * position; anything else (MemoryError, ...) propagates. */
static PyObject *
entry_kernel_result(PyObject *r, int *fall)
{
    if (r == NULL && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
        PyErr_Clear();
        return NULL;
    }
    *fall = 0;
    return r;
}

/* encode(data, encode_set="component", *, encoding, errors, space_as_plus) */
static PyObject *
entry_fast_encode(Entry *e, PyObject *const *a, int *fall)
{
    PyObject *data = a[0], *es = a[1], *set, *table, *r;
    int fp = flag_of(a[4]);
    if (data == NULL || fp == 0 || (a[2] != NULL && !str_is(a[2], s_utf8)) ||
        (a[3] != NULL && !str_is(a[3], s_strict)) ||
        (!PyUnicode_CheckExact(data) && !PyBytes_CheckExact(data))) {
        return NULL;
    }
    if (es == NULL) {
        es = s_component;
    }
    {
        if (PyUnicode_CheckExact(es)) {
            set = PyDict_GetItemWithError(e->registry, es);
            if (set == NULL) {
                *fall = !PyErr_Occurred();
                return NULL;
            }
        }
        else {
            set = es;
        }
        if ((PyObject *)Py_TYPE(set) != e->set_type) {
            return NULL;
        }
        if (set != e->last_set) {
            /* EncodeSet is immutable: its .table stays the same while it
             * lives, and the entry holds both. */
            Py_INCREF(set);
            table = PyObject_GetAttr(set, s_table);
            if (table == NULL) {
                Py_DECREF(set);
                *fall = 0;
                return NULL;
            }
            Py_XSETREF(e->last_set, set);
            Py_XSETREF(e->last_table, table);
        }
    }
    table = e->last_table;
    Py_INCREF(table);
    r = encode_obj(data, table, fp == 2);
    Py_DECREF(table);
    return entry_kernel_result(r, fall);
}

/* decode_text(data, *, encoding, errors, plus_as_space, strict) */
static PyObject *
entry_fast_decode_text(PyObject *const *a, int *fall)
{
    PyObject *data = a[0];
    int f[3];
    if (data == NULL || (f[0] = flag_of(a[3])) == 0 || (f[1] = flag_of(a[4])) == 0 ||
        (a[1] != NULL && !str_is(a[1], s_utf8)) || (a[2] != NULL && !str_is(a[2], s_replace)) ||
        (!PyUnicode_CheckExact(data) && !PyBytes_CheckExact(data))) {
        return NULL;
    }
    f[0] -= 1;
    f[1] -= 1;
    f[2] = 0;
    return entry_kernel_result(decode_text_obj(data, f), fall);
}

/* form.serialize(pairs, *, encoding="utf-8"): a list or tuple of 2-tuples
 * (or 2-lists) of exact str or bytes; any other shape goes to the checked
 * function, which also handles mappings, iterators and legacy encodings. */
static PyObject *
entry_fast_serialize(PyObject *const *a, int *fall)
{
    PyObject *pairs = a[0], *const *items;
    Py_ssize_t i, n;
    if (pairs == NULL ||
        (a[1] != NULL && !str_is(a[1], s_utf8) && !str_is(a[1], s_utf8_upper))) {
        return NULL;
    }
    if (PyList_CheckExact(pairs)) {
        items = PySequence_Fast_ITEMS(pairs);
        n = PyList_GET_SIZE(pairs);
    }
    else if (PyTuple_CheckExact(pairs)) {
        items = PySequence_Fast_ITEMS(pairs);
        n = PyTuple_GET_SIZE(pairs);
    }
    else {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        PyObject *p = items[i], *x, *y;
        if ((!PyTuple_CheckExact(p) || PyTuple_GET_SIZE(p) != 2) &&
            (!PyList_CheckExact(p) || PyList_GET_SIZE(p) != 2)) {
            return NULL;
        }
        x = PySequence_Fast_GET_ITEM(p, 0);
        y = PySequence_Fast_GET_ITEM(p, 1);
        if ((!PyUnicode_CheckExact(x) && !PyBytes_CheckExact(x)) ||
            (!PyUnicode_CheckExact(y) && !PyBytes_CheckExact(y))) {
            return NULL;
        }
    }
    /* Nothing above ran Python code, so the checked shape still holds. */
    return entry_kernel_result(form_serialize_obj(pairs), fall);
}

/* url.parse(input, base=None, *, encoding="utf-8"): UTF-8, an exact str, a
 * base that is None, a str or a URL; url.c builds the URL or says None (the
 * checked function runs). */
static PyObject *
entry_fast_url_parse(PyObject *const *a, int *fall)
{
    PyObject *r;
    if (a[0] == NULL || !PyUnicode_CheckExact(a[0]) ||
        (a[2] != NULL && !str_is(a[2], s_utf8))) {
        return NULL;
    }
    r = url_fast_new(a[0], a[1], 1);
    if (r == Py_None) {
        Py_DECREF(r);
        return NULL;
    }
    *fall = 0;
    return r;
}

/* url.can_parse(input, base=None): an exact str against None, a str or a URL;
 * url_object.c's check answers, or says the checked function must. */
static PyObject *
entry_fast_url_can_parse(PyObject *const *a, int *fall)
{
    int rc;
    if (a[0] == NULL || !PyUnicode_CheckExact(a[0])) {
        return NULL;
    }
    rc = url_check(a[0], a[1] == NULL ? Py_None : a[1]);
    if (rc == 2) {
        return NULL;
    }
    *fall = 0;
    return rc < 0 ? NULL : PyBool_FromLong(rc);
}

/* The state of the entry whose function was called (self is its state
 * module; see Entry). */
static inline Entry *
entry_of(PyObject *self)
{
    return (Entry *)PyModule_GetState(self);
}

/* Every call the one-argument shortcuts below do not answer: bind the
 * arguments, try the kind's fast path, else the checked function. */
static PyObject *
entry_general(Entry *e, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    PyObject *a[ENTRY_MAX_ARGS] = {NULL}, *r = NULL;
    int fall = 1;
    if (pe_fast_paths_active && e->kind != ENTRY_FORM_PARSE &&
        entry_bind(&entry_sigs[e->kind], args, nargs, kwnames, a) == 0) {
        switch (e->kind) {
        case ENTRY_ENCODE:
            r = entry_fast_encode(e, a, &fall);
            break;
        case ENTRY_DECODE_TEXT:
            r = entry_fast_decode_text(a, &fall);
            break;
        case ENTRY_URL_PARSE:
            r = entry_fast_url_parse(a, &fall);
            break;
        case ENTRY_URL_CAN_PARSE:
            r = entry_fast_url_can_parse(a, &fall);
            break;
        default:
            r = entry_fast_serialize(a, &fall);
            break;
        }
        if (r != NULL || !fall) {
            return r;
        }
    }
    if (e->fallback == NULL) {
        /* (only after its state module was cleared, which the function's own
         * reference to it should rule out) */
        PyErr_SetString(PyExc_RuntimeError, "percent_encoding: this entry was torn down");
        return NULL;
    }
    return PyObject_Vectorcall(e->fallback, args, (size_t)nargs, kwnames);
}

/* decode_text(s), the commonest call: every option at its default */
static PyObject *
entry_call_decode_text(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                       PyObject *kwnames)
{
    if (kwnames == NULL && nargs == 1 && pe_fast_paths_active && PyUnicode_CheckExact(args[0])) {
        static const int defaults[3] = {0, 0, 0};
        PyObject *d = args[0], *r;
        int fall = 1;
        if (PE_READY(d) < 0) {
            return NULL;
        }
        if (PyUnicode_IS_ASCII(d) &&
            memchr(PyUnicode_DATA(d), '%', (size_t)PyUnicode_GET_LENGTH(d)) == NULL) {
            /* ASCII and no '%': nothing to decode, the input is the answer */
            Py_INCREF(d);
            return d;
        }
        r = entry_kernel_result(decode_text_obj(d, defaults), &fall);
        if (r != NULL || !fall) {
            return r;
        }
    }
    return entry_general(entry_of(self), args, nargs, kwnames);
}

/* encode(s): the component set, every option at its default; no binding */
static PyObject *
entry_call_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    Entry *e = entry_of(self);
    if (kwnames == NULL && nargs == 1 && pe_fast_paths_active) {
        PyObject *a[ENTRY_MAX_ARGS] = {args[0], NULL, NULL, NULL, NULL}, *r;
        int fall = 1;
        r = entry_fast_encode(e, a, &fall);
        if (r != NULL || !fall) {
            return r;
        }
    }
    return entry_general(e, args, nargs, kwnames);
}

/* url.parse(s) */
static PyObject *
entry_call_url_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames)
{
    if (kwnames == NULL && nargs == 1 && pe_fast_paths_active) {
        PyObject *a[ENTRY_MAX_ARGS] = {args[0], NULL, NULL, NULL, NULL}, *r;
        int fall = 1;
        r = entry_fast_url_parse(a, &fall);
        if (r != NULL || !fall) {
            return r;
        }
    }
    return entry_general(entry_of(self), args, nargs, kwnames);
}

/* url.can_parse(s) */
static PyObject *
entry_call_url_can_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames)
{
    if (kwnames == NULL && nargs == 1 && pe_fast_paths_active && PyUnicode_CheckExact(args[0])) {
        int rc = url_check(args[0], Py_None);
        if (rc != 2) {
            return rc < 0 ? NULL : PyBool_FromLong(rc);
        }
    }
    return entry_general(entry_of(self), args, nargs, kwnames);
}

/* form.parse(data) with no option (each at its default): exact bytes or an
 * ASCII exact str straight to the kernel, as the checked function's own fast
 * path does; any option, and any other data, go to it. */
static PyObject *
entry_call_form_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                      PyObject *kwnames)
{
    if (kwnames == NULL && nargs == 1 && pe_fast_paths_active) {
        PyObject *d = args[0];
        if (PyUnicode_CheckExact(d) && PE_READY(d) < 0) {
            return NULL;
        }
        if (PyBytes_CheckExact(d) || (PyUnicode_CheckExact(d) && PyUnicode_IS_ASCII(d))) {
            return pe_form_parse(NULL, args, 1, NULL);
        }
    }
    return entry_general(entry_of(self), args, nargs, kwnames);
}

static PyObject *
entry_call_serialize(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                     PyObject *kwnames)
{
    return entry_general(entry_of(self), args, nargs, kwnames);
}

static int
entry_traverse(PyObject *m, visitproc visit, void *arg)
{
    Entry *e = entry_of(m);
    if (e == NULL) {
        return 0;
    }
    Py_VISIT(e->fallback);
    Py_VISIT(e->registry);
    Py_VISIT(e->set_type);
    Py_VISIT(e->last_set);
    Py_VISIT(e->last_table);
    return 0;
}

static int
entry_clear(PyObject *m)
{
    Entry *e = entry_of(m);
    if (e == NULL) {
        return 0;
    }
    Py_CLEAR(e->fallback);
    Py_CLEAR(e->registry);
    Py_CLEAR(e->set_type);
    Py_CLEAR(e->last_set);
    Py_CLEAR(e->last_table);
    return 0;
}

static void
entry_free(void *m)
{
    Entry *e = entry_of((PyObject *)m);
    if (e == NULL) {
        return;
    }
    entry_clear((PyObject *)m);
    PyMem_Free(e->name);
    PyMem_Free(e->doc);
    e->name = e->doc = NULL;
}

/* The state module of one entry (a module per entry, created with PyModule_Create,
 * never imported). */
static struct PyModuleDef entry_state_def = {
    PyModuleDef_HEAD_INIT,
    .m_name = "percent_encoding._speedups.entry",
    .m_doc = "The state of one public function's C fast path.",
    .m_size = sizeof(Entry),
    .m_traverse = entry_traverse,
    .m_clear = entry_clear,
    .m_free = entry_free,
};

static char *
copy_utf8(PyObject *s)
{
    Py_ssize_t n;
    const char *u = PyUnicode_AsUTF8AndSize(s, &n);
    char *c;
    if (u == NULL) {
        return NULL;
    }
    if ((c = PyMem_Malloc((size_t)n + 1)) == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(c, u, (size_t)n + 1);
    return c;
}

PyObject *
pe_make_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"kind", "fallback", "registry", "set_type", "name",
                                        "doc"};
    static const char *const kinds[] = {"encode", "decode_text", "serialize", "url_parse",
                                        "form_parse", "url_can_parse"};
    static const PyCFunctionWithKeywords calls[] = {
        [ENTRY_ENCODE] = (PyCFunctionWithKeywords)(void (*)(void))entry_call_encode,
        [ENTRY_DECODE_TEXT] = (PyCFunctionWithKeywords)(void (*)(void))entry_call_decode_text,
        [ENTRY_SERIALIZE] = (PyCFunctionWithKeywords)(void (*)(void))entry_call_serialize,
        [ENTRY_URL_PARSE] = (PyCFunctionWithKeywords)(void (*)(void))entry_call_url_parse,
        [ENTRY_FORM_PARSE] = (PyCFunctionWithKeywords)(void (*)(void))entry_call_form_parse,
        [ENTRY_URL_CAN_PARSE] =
            (PyCFunctionWithKeywords)(void (*)(void))entry_call_url_can_parse,
    };
    PyObject *a[6], *m, *module_name, *f;
    Entry *e;
    int kind;
    (void)self;
    if (parse_args("make_entry", args, nargs, kwnames, names, 6, a) < 0) {
        return NULL;
    }
    for (kind = 0; kind < ENTRY_KINDS; kind++) {
        if (PyUnicode_Check(a[0]) && PyUnicode_CompareWithASCIIString(a[0], kinds[kind]) == 0) {
            break;
        }
    }
    if (kind == ENTRY_KINDS) {
        PyErr_SetString(PyExc_ValueError,
                        "kind must be 'encode', 'decode_text', 'serialize', 'url_parse', "
                        "'form_parse' or 'url_can_parse'");
        return NULL;
    }
    if (!PyFunction_Check(a[1]) || !PyDict_Check(a[2]) || !PyType_Check(a[3]) ||
        !PyUnicode_Check(a[4]) || !PyUnicode_Check(a[5])) {
        PyErr_SetString(PyExc_TypeError,
                        "make_entry(kind, function, dict, type, name, doc) expected");
        return NULL;
    }
    if ((m = PyModule_Create(&entry_state_def)) == NULL) {
        return NULL;
    }
    e = entry_of(m); /* zeroed by PyModule_Create */
    e->kind = kind;
    Py_INCREF(a[1]);
    e->fallback = a[1];
    Py_INCREF(a[2]);
    e->registry = a[2];
    Py_INCREF(a[3]);
    e->set_type = a[3];
    if ((e->name = copy_utf8(a[4])) == NULL || (e->doc = copy_utf8(a[5])) == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    e->def.ml_name = e->name;
    e->def.ml_meth = (PyCFunction)(void (*)(void))calls[kind];
    e->def.ml_flags = METH_FASTCALL | METH_KEYWORDS;
    e->def.ml_doc = e->doc;
    module_name = PyObject_GetAttrString(a[1], "__module__");
    if (module_name == NULL) {
        Py_DECREF(m);
        return NULL;
    }
    f = PyCFunction_NewEx(&e->def, m, module_name);
    Py_DECREF(module_name);
    Py_DECREF(m);
    return f;
}

PyObject *
pe_set_entries_active(PyObject *self, PyObject *flag)
{
    int on = PyObject_IsTrue(flag);
    (void)self;
    if (on < 0) {
        return NULL;
    }
    pe_fast_paths_active = on;
    Py_RETURN_NONE;
}

/* Intern the names the fast paths compare against. */
int
entry_init(void)
{
#define PE_INTERN(var, text)                                                                  \
    if (var == NULL && (var = PyUnicode_InternFromString(text)) == NULL) {                    \
        return -1;                                                                           \
    }
    PE_INTERN(s_table, "table")
    PE_INTERN(s_component, "component")
    PE_INTERN(s_utf8, "utf-8")
    PE_INTERN(s_utf8_upper, "UTF-8")
    PE_INTERN(s_pairs, "pairs")
    PE_INTERN(s_input, "input")
    PE_INTERN(s_base, "base")
    PE_INTERN(s_strict, "strict")
    PE_INTERN(s_replace, "replace")
    PE_INTERN(s_data, "data")
    PE_INTERN(s_encode_set, "encode_set")
    PE_INTERN(s_encoding, "encoding")
    PE_INTERN(s_errors, "errors")
    PE_INTERN(s_space_as_plus, "space_as_plus")
    PE_INTERN(s_plus_as_space, "plus_as_space")
    PE_INTERN(s_strict_kw, "strict")
#undef PE_INTERN
    return 0;
}
