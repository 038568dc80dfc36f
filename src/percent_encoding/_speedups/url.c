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
 */
#include "speedups.h"

static PyObject *url_type;    /* percent_encoding.url.URL */
static PyObject *verr_type;   /* percent_encoding.url.ValidationError (a NamedTuple) */
static PyObject *host_hook;   /* (host text) -> (serialized host, kind) | None, cached */
static PyObject *d_href, *d_parts, *d_errors; /* URL's slot descriptors */
static PyObject *s_unit, *s_credentials;       /* validation error names */

enum { HOST_NONE = 0, HOST_DOMAIN = 1, HOST_IPV4 = 2, HOST_IPV6 = 3, HOST_EMPTY = 4 };

#define URL_STACK 512
#define URL_HOOK_MAX 1024 /* longer hosts are left to the state machine (bounded cache) */
#define URL_ERRS 16

typedef struct {
    Py_ssize_t pos;
    int credentials; /* invalid-credentials, else invalid-URL-unit */
} UrlErr;

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
    char *out;
    Py_ssize_t len, cap;
    int heap;
    char stack[URL_STACK];
    UrlErr *errs; /* the validation errors so far */
    Py_ssize_t nerr, errcap;
    UrlErr errbuf[URL_ERRS];
} UrlP;

#define CH(P, i) PyUnicode_READ((P)->kind, (P)->data, (i))

/* 0, or -1 with MemoryError */
static int
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

#define NEED(P, k)                                                                         \
    do {                                                                                   \
        if ((P)->len + (k) > (P)->cap && url_grow((P), (k)) < 0) {                         \
            return -1;                                                                     \
        }                                                                                  \
    } while (0)

static int
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

static inline int
is_hex(Py_UCS4 c)
{
    return c < 0x80 && PE_HEXVAL[c] != 0xFF;
}

/* Percent-encode input [a, b) into the output with the set `bit` (UTF-8),
 * recording invalid-URL-unit errors (§4.3) when `check`.  Returns 1, 0 to
 * bail (tab, newline, a lone surrogate; `no_space`: a space), -1 on error. */
static int
url_encode_run(UrlP *P, Py_ssize_t a, Py_ssize_t b, unsigned bit, int check, int no_space)
{
    Py_ssize_t j;
    for (j = a; j < b; j++) {
        Py_UCS4 c = CH(P, j);
        NEED(P, 12);
        if (c < 0x80) {
            unsigned t = PE_URL_SETS[c];
            if (c == '\t' || c == '\n' || c == '\r' || (no_space && c == ' ')) {
                return 0;
            }
            if (check && !(t & PE_URL_UNIT)) {
                if (c != '%' || !(j + 2 < b && is_hex(CH(P, j + 1)) && is_hex(CH(P, j + 2)))) {
                    if (url_err(P, 0, j) < 0) {
                        return -1;
                    }
                }
            }
            if (t & bit) {
                P->out[P->len++] = '%';
                P->out[P->len++] = PE_HEX_PAIRS[2 * c];
                P->out[P->len++] = PE_HEX_PAIRS[2 * c + 1];
            }
            else {
                P->out[P->len++] = (char)c;
            }
            continue;
        }
        {
            uint8_t u[4];
            int k, m;
            if (c >= 0xD800 && c <= 0xDFFF) {
                return 0;
            }
            /* URL code points from U+00A0, less noncharacters (§4.3) */
            if (check && (c < 0xA0 || (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE)) {
                if (url_err(P, 0, j) < 0) {
                    return -1;
                }
            }
            if (c < 0x800) {
                u[0] = (uint8_t)(0xC0 | (c >> 6));
                u[1] = (uint8_t)(0x80 | (c & 0x3F));
                m = 2;
            }
            else if (c < 0x10000) {
                u[0] = (uint8_t)(0xE0 | (c >> 12));
                u[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
                u[2] = (uint8_t)(0x80 | (c & 0x3F));
                m = 3;
            }
            else {
                u[0] = (uint8_t)(0xF0 | (c >> 18));
                u[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));
                u[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));
                u[3] = (uint8_t)(0x80 | (c & 0x3F));
                m = 4;
            }
            for (k = 0; k < m; k++) {
                P->out[P->len++] = '%';
                P->out[P->len++] = PE_HEX_PAIRS[2 * u[k]];
                P->out[P->len++] = PE_HEX_PAIRS[2 * u[k] + 1];
            }
        }
    }
    return 1;
}

/* §4.4 path state's single-dot and double-dot URL path segments: 1, 2 or 0. */
static int
url_dot_segment(UrlP *P, Py_ssize_t a, Py_ssize_t b)
{
    int dots = 0;
    Py_ssize_t j = a;
    while (j < b) {
        Py_UCS4 c = CH(P, j);
        if (c == '.') {
            j++;
        }
        else if (c == '%' && j + 2 < b && CH(P, j + 1) == '2' &&
                 (CH(P, j + 2) == 'e' || CH(P, j + 2) == 'E')) {
            j += 3;
        }
        else {
            return 0;
        }
        if (++dots > 2) {
            return 0;
        }
    }
    return dots;
}

/* The path of a special URL from the '/' at i up to '?', '#' or the end
 * (§4.4 path start and path states).  Returns 1 with *end set, 0 to bail, -1. */
static int
url_path(UrlP *P, Py_ssize_t i, int file, Py_ssize_t *end)
{
    Py_ssize_t n = P->n, path_start = P->len;
    for (;;) {
        Py_ssize_t a = i + 1, b = a;
        int dots, last, rc;
        Py_UCS4 c = 0;
        while (b < n && (c = CH(P, b)) != '/' && c != '?' && c != '#') {
            if (c == '\\' || (file && c == '|')) {
                return 0;
            }
            b++;
        }
        last = b >= n || c != '/';
        dots = url_dot_segment(P, a, b);
        if (dots && file) {
            return 0;
        }
        if (dots == 2) {
            /* shorten the path: back to the previous '/' */
            while (P->len > path_start && P->out[P->len - 1] != '/') {
                P->len--;
            }
            if (P->len > path_start) {
                P->len--;
            }
        }
        if (dots) {
            if (last) {
                NEED(P, 1);
                P->out[P->len++] = '/';
            }
        }
        else {
            NEED(P, 1);
            P->out[P->len++] = '/';
            if ((rc = url_encode_run(P, a, b, PE_URL_PATH, 1, 0)) <= 0) {
                return rc;
            }
        }
        if (last) {
            *end = b;
            return 1;
        }
        i = b;
    }
}

/* A plain ASCII host written lower-case if it is a domain that domain to
 * ASCII leaves alone with no error (LDH labels of 1-63, no leading or
 * trailing hyphen, no "--" at 3-4, at most 253 without a final dot), or
 * clean dotted-decimal IPv4 (§3.5).  1: written; 0: bail; 2: ask the hook. */
static int
url_ascii_host(UrlP *P, Py_ssize_t a, Py_ssize_t b, int *kind)
{
    Py_ssize_t j, lab = a, body = b;
    int all_digits_last = 1;
    Py_UCS4 c;
    if (b - a > 1 && CH(P, b - 1) == '.') {
        body = b - 1;
    }
    if (body - a > 253) {
        return 2;
    }
    for (j = a; j <= body; j++) {
        c = j < body ? CH(P, j) : '.';
        if (c == '.') {
            Py_ssize_t len = j - lab;
            if (len == 0 || len > 63 || CH(P, lab) == '-' || CH(P, j - 1) == '-') {
                return 2;
            }
            if (len >= 4 && CH(P, lab + 2) == '-' && CH(P, lab + 3) == '-') {
                return 2;
            }
            lab = j + 1;
            if (j < body) {
                all_digits_last = 1;
            }
            continue;
        }
        if (c >= '0' && c <= '9') {
            continue;
        }
        all_digits_last = 0;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-')) {
            return 2;
        }
    }
    /* "ends in a number": the last label all digits, or 0x... (hex) */
    {
        Py_ssize_t ls = body;
        while (ls > a && CH(P, ls - 1) != '.') {
            ls--;
        }
        if (!all_digits_last) {
            if (body - ls >= 2 && CH(P, ls) == '0' && (CH(P, ls + 1) | 0x20) == 'x') {
                for (j = ls + 2; j < body && is_hex(CH(P, j)); j++) {
                }
                if (j == body) {
                    return 0;
                }
            }
        }
        else {
            /* IPv4 parser, the case with no validation error: four decimal
             * parts without leading zeros, each at most 255. */
            uint32_t v = 0, part;
            int parts = 0;
            if (body != b) {
                return 0; /* IPv4-empty-part */
            }
            lab = a;
            for (j = a; j <= b; j++) {
                c = j < b ? CH(P, j) : '.';
                if (c != '.') {
                    continue;
                }
                if (j - lab == 0 || j - lab > 3 || (j - lab > 1 && CH(P, lab) == '0')) {
                    return 0;
                }
                part = 0;
                for (; lab < j; lab++) {
                    c = CH(P, lab);
                    if (c < '0' || c > '9') {
                        return 0;
                    }
                    part = part * 10 + (c - '0');
                }
                if (part > 255 || ++parts > 4) {
                    return 0;
                }
                v = (v << 8) | part;
                lab = j + 1;
            }
            if (parts != 4) {
                return 0; /* IPv4-too-few-parts */
            }
            NEED(P, 16);
            P->len += sprintf(P->out + P->len, "%u.%u.%u.%u", (v >> 24) & 0xFF,
                              (v >> 16) & 0xFF, (v >> 8) & 0xFF, v & 0xFF);
            *kind = HOST_IPV4;
            return 1;
        }
    }
    NEED(P, b - a);
    for (j = a; j < b; j++) {
        c = CH(P, j);
        P->out[P->len++] = (char)((c >= 'A' && c <= 'Z') ? c + 32 : c);
    }
    *kind = HOST_DOMAIN;
    return 1;
}

static int url_host_from_hook(UrlP *P, PyObject *input, Py_ssize_t a, Py_ssize_t b, int *kind);

typedef struct {
    Py_ssize_t s_end, u_end, h_start, h_end, port, p_start, q_start, f_start;
    int host_kind;
} UrlParts;

static int
url_query_fragment(UrlP *P, Py_ssize_t i, int special, UrlParts *o)
{
    Py_ssize_t n = P->n, j;
    int rc;
    o->q_start = o->f_start = -1;
    if (i < n && CH(P, i) == '?') {
        for (j = i + 1; j < n && CH(P, j) != '#'; j++) {
        }
        NEED(P, 1);
        o->q_start = P->len;
        P->out[P->len++] = '?';
        rc = url_encode_run(P, i + 1, j, special ? PE_URL_SPECIAL_QUERY : PE_URL_QUERY, 1, 0);
        if (rc <= 0) {
            return rc;
        }
        i = j;
    }
    if (i < n) {
        /* CH(P, i) == '#' */
        NEED(P, 1);
        o->f_start = P->len;
        P->out[P->len++] = '#';
        rc = url_encode_run(P, i + 1, n, PE_URL_FRAGMENT, 1, 0);
        if (rc <= 0) {
            return rc;
        }
    }
    return 1;
}

/* The whole parse: 1 with *o filled and the href in P->out, 0 to bail, -1. */
static int
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

static int
url_host_from_hook(UrlP *P, PyObject *input, Py_ssize_t a, Py_ssize_t b, int *kind)
{
    PyObject *text, *r, *h;
    Py_ssize_t hn;
    long k;
    if (host_hook == NULL || b - a > URL_HOOK_MAX) {
        return 0;
    }
    if (P->kind != PyUnicode_1BYTE_KIND) {
        Py_ssize_t j;
        for (j = a; j < b; j++) {
            Py_UCS4 c = CH(P, j);
            if (c >= 0xD800 && c <= 0xDFFF) {
                return 0; /* a lone surrogate: USVString conversion first */
            }
        }
    }
    text = PyUnicode_Substring(input, a, b);
    if (text == NULL) {
        return -1;
    }
    r = PyObject_CallOneArg(host_hook, text);
    Py_DECREF(text);
    if (r == NULL) {
        return -1;
    }
    if (r == Py_None) {
        Py_DECREF(r);
        return 0;
    }
    if (!PyTuple_Check(r) || PyTuple_GET_SIZE(r) != 2 ||
        !PyUnicode_IS_ASCII(h = PyTuple_GET_ITEM(r, 0)) ||
        (k = PyLong_AsLong(PyTuple_GET_ITEM(r, 1))) < HOST_DOMAIN || k > HOST_IPV6) {
        Py_DECREF(r);
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "url host hook: (ascii str, kind) expected");
        }
        return -1;
    }
    hn = PyUnicode_GET_LENGTH(h);
    if (P->len + hn > P->cap && url_grow(P, hn) < 0) {
        Py_DECREF(r);
        return -1;
    }
    memcpy(P->out + P->len, PyUnicode_DATA(h), (size_t)hn);
    P->len += hn;
    *kind = (int)k;
    Py_DECREF(r);
    return 1;
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
    /* v: scheme end, username end, host start, host end, port, path start,
     * '?', '#', host kind (see _record_of in url.py) */
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
