/* url_input.c: the input side of the C URL parser (see url.h): the input
 * buffer of one parse (URL Standard §4.4 steps 1-3: leading and trailing C0
 * controls and spaces trimmed, tabs and newlines removed, lone surrogates
 * read as U+FFFD as the USVString conversion makes them), the map from its
 * positions back to the caller's input, the validation errors and the output
 * buffer's growth.  Nothing here uses Python objects (only MemoryError is
 * set on a failed allocation), so a column kernel can run it per row. */
#include "url.h"

/* The validation error names (URL Standard §4.4, §3.5), by E_... */
const char *const url_error_names[E_COUNT] = {
    "invalid-URL-unit", "invalid-credentials", "special-scheme-missing-following-solidus",
    "invalid-reverse-solidus", "file-invalid-Windows-drive-letter",
    "file-invalid-Windows-drive-letter-host", "domain-to-ASCII", "domain-percent-encoded",
    "IPv4-empty-part", "IPv4-non-decimal-part", "IPv4-out-of-range-part",
    "IPv6-piece-leading-zero", "IPv4-too-few-parts", "IPv4-non-ASCII-input", "missing-scheme-non-relative-URL", "host-missing",
    "port-out-of-range", "port-invalid", "host-invalid-code-point",
    "domain-to-ASCII", "IPv4-too-many-parts", "IPv4-non-numeric-part",
    "IPv6-unclosed", "IPv6-invalid-compression", "IPv6-too-many-pieces",
    "IPv6-multiple-compression", "IPv4-in-IPv6-invalid-code-point",
    "IPv4-in-IPv6-too-many-pieces", "IPv4-in-IPv6-out-of-range-part",
    "IPv4-in-IPv6-too-few-parts", "IPv6-invalid-code-point", "IPv6-too-few-pieces",
};

/* -1 with MemoryError (or P->nomem without the GIL) */
static int
url_nomem(UrlParser *P)
{
    if (P->nogil) {
        P->nomem = 1;
    }
    else {
        PyErr_NoMemory();
    }
    return -1;
}

/* 0, or -1 with MemoryError */
int
url_grow(UrlParser *P, Py_ssize_t need)
{
    Py_ssize_t cap = P->cap;
    char *o;
    if (need > PY_SSIZE_T_MAX / 2 - P->len) {
        url_nomem(P);
        return -1;
    }
    while (cap < P->len + need) {
        cap *= 2;
    }
    if (P->heap) {
        o = PyMem_RawRealloc(P->out, (size_t)cap);
    }
    else {
        o = PyMem_RawMalloc((size_t)cap);
        if (o != NULL) {
            memcpy(o, P->out, (size_t)P->len);
        }
    }
    if (o == NULL) {
        url_nomem(P);
        return -1;
    }
    P->out = o;
    P->cap = cap;
    P->heap = 1;
    return 0;
}

/* record a validation error at an input position already in the caller's terms */
int
url_validation_error_at(UrlParser *P, int name, Py_ssize_t pos)
{
    if (P->nerr == P->errcap) {
        UrlValidationError *e;
        if (P->errcap > PY_SSIZE_T_MAX / 2 / (Py_ssize_t)sizeof(UrlValidationError)) {
            url_nomem(P);
            return -1;
        }
        if (P->errs == P->errbuf) {
            e = PyMem_RawMalloc(2 * (size_t)P->errcap * sizeof(UrlValidationError));
            if (e != NULL) {
                memcpy(e, P->errbuf, sizeof(P->errbuf));
            }
        }
        else {
            e = PyMem_RawRealloc(P->errs, 2 * (size_t)P->errcap * sizeof(UrlValidationError));
        }
        if (e == NULL) {
            url_nomem(P);
            return -1;
        }
        P->errs = e;
        P->errcap *= 2;
    }
    P->errs[P->nerr].pos = pos;
    P->errs[P->nerr].name = name;
    P->nerr++;
    return 0;
}

/* a position of the cleaned input in the caller's input (url/_parser.py's pos_map) */
static Py_ssize_t
url_pos(const UrlParser *P, Py_ssize_t p)
{
    if (p < 0) {
        p = 0;
    }
    if (P->kept == NULL) {
        return P->lead + p;
    }
    if (p < P->n) {
        return P->lead + P->kept[p];
    }
    return P->lead + (P->n ? P->kept[P->n - 1] + 1 : 0);
}

int
url_validation_error(UrlParser *P, int name, Py_ssize_t pos)
{
    return url_validation_error_at(P, name, url_pos(P, pos));
}

int
url_fail(UrlParser *P, int name, Py_ssize_t pos)
{
    P->fail = name;
    P->fail_pos = url_pos(P, pos);
    return 2;
}

int
url_parser_init(UrlParser *P, int kind, const void *data, Py_ssize_t n)
{
    return url_parser_init_ex(P, kind, data, n, URL_IN_PARSE);
}

int
url_parser_init_ex(UrlParser *P, int kind, const void *data, Py_ssize_t n, int how)
{
    Py_ssize_t a = 0, b = n, j, first = -1, m = 0;
    P->kind = kind;
    P->kept = NULL;
    P->clean = NULL;
    P->out = P->stack;
    P->len = 0;
    P->cap = URL_STACK;
    P->heap = 0;
    P->errs = P->errbuf;
    P->nerr = 0;
    P->errcap = URL_ERRS;
    P->fail = -1;
    P->fail_pos = 0;
    P->need_gil = 0;
    P->nomem = 0;
    P->override = 0;
    if (how == URL_IN_RAW) {
        P->lead = 0;
        P->data = data;
        P->n = n;
        return 0;
    }
    /* §4.4 step 1: leading and trailing C0 control or space, one error */
    if (how == URL_IN_PARSE && kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *u = (const Py_UCS1 *)data;
        while (a < n && u[a] <= 0x20) {
            a++;
        }
        while (b > a && u[b - 1] <= 0x20) {
            b--;
        }
    }
    while (how == URL_IN_PARSE && a < n && PyUnicode_READ(kind, data, a) <= 0x20) {
        a++;
    }
    while (how == URL_IN_PARSE && b > a && PyUnicode_READ(kind, data, b - 1) <= 0x20) {
        b--;
    }
    if ((a > 0 || b < n) && url_validation_error_at(P, E_UNIT, a > 0 ? 0 : b) < 0) {
        return -1;
    }
    P->lead = a;
    P->data = (const char *)data + a * kind;
    P->n = b - a;
    /* steps 2-3: tabs and newlines removed, one error at the first */
    if (kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *u = (const Py_UCS1 *)P->data;
        j = 0;
        /* eight bytes at a time: is any byte below 0x0E? (then look closer) */
        uint64_t w;
        for (; j + 8 <= P->n; j += 8) {
            memcpy(&w, u + j, 8);
            if (((w - 0x0E0E0E0E0E0E0E0EULL) & ~w & 0x8080808080808080ULL) != 0) {
                break;
            }
        }
        if (j + 8 > P->n && P->n >= 8) {
            /* the last up to 7: the input's last eight bytes, read again */
            memcpy(&w, u + P->n - 8, 8);
            if (((w - 0x0E0E0E0E0E0E0E0EULL) & ~w & 0x8080808080808080ULL) == 0) {
                j = P->n;
            }
        }
        for (; j < P->n; j++) {
            if (u[j] <= '\r' && (u[j] == '\t' || u[j] == '\n' || u[j] == '\r')) {
                first = j;
                break;
            }
        }
    }
    else {
        /* (a lone surrogate stays: url_encode_run reports it and writes U+FFFD) */
        for (j = 0; j < P->n; j++) {
            Py_UCS4 c = PyUnicode_READ(kind, P->data, j);
            if (c == '\t' || c == '\n' || c == '\r') {
                first = j;
                break;
            }
        }
    }
    if (first < 0) {
        return 0;
    }
    if (first >= 0 && url_validation_error_at(P, E_UNIT, a + first) < 0) {
        return -1;
    }
    P->kept = PyMem_RawMalloc((size_t)P->n * sizeof(Py_ssize_t));
    P->clean = PyMem_RawMalloc((size_t)P->n * (size_t)kind);
    if (P->kept == NULL || P->clean == NULL) {
        url_nomem(P);
        return -1;
    }
    for (j = 0; j < P->n; j++) {
        Py_UCS4 c = PyUnicode_READ(kind, P->data, j);
        if (c != '\t' && c != '\n' && c != '\r') {
            PyUnicode_WRITE(kind, P->clean, m, c);
            P->kept[m++] = j;
        }
    }
    P->data = P->clean;
    P->n = m;
    return 0;
}

void
url_parser_free(UrlParser *P)
{
    if (P->errs != P->errbuf) {
        PyMem_RawFree(P->errs);
        P->errs = P->errbuf;
    }
    if (P->heap) {
        PyMem_RawFree(P->out);
        P->heap = 0;
    }
    if (P->kept != NULL || P->clean != NULL) {
        /* (only after tabs or newlines: no call for the common row) */
        PyMem_RawFree(P->kept);
        PyMem_RawFree(P->clean);
        P->kept = NULL;
        P->clean = NULL;
    }
}

/* the end of a base URL's path */
Py_ssize_t
url_base_path_end(const UrlBase *B)
{
    return B->o.q_start >= 0 ? B->o.q_start : B->o.f_start >= 0 ? B->o.f_start : B->len;
}

/* the base's query with its '?' (none: nothing), as the URL's query */
int
url_copy_base_query(UrlParser *P, const UrlBase *B, UrlParts *o)
{
    if (B->o.q_start >= 0) {
        Py_ssize_t e = B->o.f_start >= 0 ? B->o.f_start : B->len;
        o->q_start = P->len;
        return url_put(P, B->href + B->o.q_start, e - B->o.q_start);
    }
    return 0;
}

/* copy a base's scheme and authority (the offsets are the base's) */
int
url_copy_base_authority(UrlParser *P, const UrlBase *B, UrlParts *o)
{
    Py_ssize_t e = B->o.s_end + 1;
    int k = B->o.host_kind;
    P->len = 0;
    if (k != HOST_NONE && k != HOST_NULL) {
        e = B->o.p_start;
    }
    if (url_put(P, B->href, e) < 0) {
        return -1;
    }
    o->s_end = B->o.s_end;
    o->u_end = B->o.u_end;
    o->h_start = B->o.h_start;
    o->h_end = B->o.h_end;
    o->port = B->o.port;
    o->host_kind = k == HOST_NONE ? HOST_NULL : k;
    o->p_start = P->len;
    return 0;
}

/* WebIDL's USVString conversion (core.to_usv_string): surrogate pairs joined,
 * lone surrogates U+FFFD, or kept as they are with keep_lone; a new reference
 * (the same str when it has none) */
PyObject *
url_usv(PyObject *s, int keep_lone)
{
    Py_ssize_t i, n;
    int kind, found = 0;
    const void *d;
    PyObject *b, *u;
    if (PE_READY(s) < 0) {
        return NULL;
    }
    n = PyUnicode_GET_LENGTH(s);
    kind = PyUnicode_KIND(s);
    d = PyUnicode_DATA(s);
    if (kind != PyUnicode_1BYTE_KIND) {
        for (i = 0; i < n && !found; i++) {
            Py_UCS4 c = PyUnicode_READ(kind, d, i);
            found = c >= 0xD800 && c <= 0xDFFF;
        }
    }
    if (!found) {
        return Py_NewRef(s);
    }
    b = PyUnicode_AsEncodedString(s, "utf-16-le", "surrogatepass");
    if (b == NULL) {
        return NULL;
    }
    {
        /* little-endian given: a U+FEFF in the text is kept, not read as a BOM */
        int order = -1;
        u = PyUnicode_DecodeUTF16(PyBytes_AS_STRING(b), PyBytes_GET_SIZE(b),
                                  keep_lone ? "surrogatepass" : "replace", &order);
    }
    Py_DECREF(b);
    return u;
}
