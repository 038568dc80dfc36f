/* url_setters.c: the URL API setters (URL Standard §6.1) in C, for URL.replace
 * (url_replace.c: the entries, the order, the fallback to Python).
 *
 * url_run_setter runs one setter on a URL's href and offsets.  The results
 * are the Python setters' (url/_setters.py, the reference and the pure twin)
 * exactly: the href, the offsets, and the validation errors of the runs in
 * order, at positions of each value (tests/test_url_setters_c.py).
 *
 * The design is ada's url_aggregator's: the URL is its href and offsets
 * (UrlParts); a setter reads the record's components as spans of the href
 * (rec_of), parses the new value from the Standard's state override with the
 * C parser's own states (the host parser, the port digits, the path, query
 * and fragment states in their override modes), and the §4.5 serializer
 * writes the href again from the spans (rec_write).  Each setter below names
 * the §4.4 states it stands for; where the Standard returns early (a setter
 * that changes nothing), so does the setter here.
 *
 * A run that "returns failure" keeps what it changed before failing (the host
 * setter's host before a bad port).  Its validation error is on the list when
 * the Standard's state reports one (host-missing, port-out-of-range, the host
 * parser's); the override's own early returns (scheme, port-invalid without
 * digits, hostname with a port, an empty host with credentials) add none,
 * as in _parser.py. */
#include "url.h"

typedef struct {
    const char *p;
    Py_ssize_t n;
} Span;

/* A URL record (§4.1) as spans: of the current href, or of a setter's output */
typedef struct {
    Span scheme, user, pass, host, path, query, frag;
    int kind;     /* host kind; HOST_NONE: opaque path, HOST_NULL: no host */
    Py_ssize_t port; /* -1: null */
    int has_q, has_f;
} Rec;

static void
rec_of(Rec *r, const char *h, Py_ssize_t len, const UrlParts *o)
{
    Py_ssize_t qe = o->f_start >= 0 ? o->f_start : len;
    Py_ssize_t pe = o->q_start >= 0 ? o->q_start : qe;
    r->scheme = (Span){h, o->s_end};
    r->kind = o->host_kind;
    r->port = o->port;
    r->user = r->pass = r->host = (Span){h, 0};
    if (r->kind != HOST_NONE && r->kind != HOST_NULL) {
        if (o->h_start > o->s_end + 3) {
            r->user = (Span){h + o->s_end + 3, o->u_end - o->s_end - 3};
            if (o->u_end < o->h_start - 1) {
                r->pass = (Span){h + o->u_end + 1, o->h_start - o->u_end - 2};
            }
        }
        r->host = (Span){h + o->h_start, o->h_end - o->h_start};
    }
    r->path = (Span){h + o->p_start, pe - o->p_start};
    r->has_q = o->q_start >= 0;
    r->query = r->has_q ? (Span){h + o->q_start + 1, qe - o->q_start - 1} : (Span){h, 0};
    r->has_f = o->f_start >= 0;
    r->frag = r->has_f ? (Span){h + o->f_start + 1, len - o->f_start - 1} : (Span){h, 0};
}

static int
put(UrlParser *S, Span s)
{
    return url_put(S, s.p, s.n);
}

/* §4.5 URL serializer of r into S, with the offsets (url.h's layout) */
static int
rec_write(UrlParser *S, const Rec *r, UrlParts *o)
{
    S->len = 0;
    if (put(S, r->scheme) < 0 || url_put(S, ":", 1) < 0) {
        return -1;
    }
    o->s_end = r->scheme.n;
    o->port = -1;
    o->host_kind = r->kind;
    if (r->kind != HOST_NONE && r->kind != HOST_NULL) {
        if (url_put(S, "//", 2) < 0) {
            return -1;
        }
        o->u_end = S->len;
        if (r->user.n || r->pass.n) {
            if (put(S, r->user) < 0) {
                return -1;
            }
            o->u_end = S->len;
            if (r->pass.n && (url_put(S, ":", 1) < 0 || put(S, r->pass) < 0)) {
                return -1;
            }
            if (url_put(S, "@", 1) < 0) {
                return -1;
            }
        }
        o->h_start = S->len;
        if (put(S, r->host) < 0) {
            return -1;
        }
        o->h_end = S->len;
        if (r->port >= 0) {
            /* ':' and the decimal digits (at most five) */
            char d[6];
            int m = 0;
            Py_ssize_t v = r->port;
            NEED(S, 6);
            do {
                d[m++] = (char)('0' + v % 10);
                v /= 10;
            } while (v > 0);
            S->out[S->len++] = ':';
            while (m > 0) {
                S->out[S->len++] = d[--m];
            }
            o->port = r->port;
        }
        o->p_start = S->len;
    }
    else {
        /* no host and a path whose first segment is empty: "/." first */
        if (r->kind == HOST_NULL && r->path.n >= 2 && r->path.p[1] == '/' &&
            url_put(S, "/.", 2) < 0) {
            return -1;
        }
        o->p_start = o->u_end = o->h_start = o->h_end = S->len;
    }
    if (put(S, r->path) < 0) {
        return -1;
    }
    o->q_start = o->f_start = -1;
    if (r->has_q) {
        o->q_start = S->len;
        if (url_put(S, "?", 1) < 0 || put(S, r->query) < 0) {
            return -1;
        }
    }
    if (r->has_f) {
        o->f_start = S->len;
        if (url_put(S, "#", 1) < 0 || put(S, r->frag) < 0) {
            return -1;
        }
    }
    return 0;
}

static int
rec_special(const Rec *r, int *defport)
{
    return url_scheme_kind(r->scheme.p, r->scheme.n, defport);
}

/* §4.1 cannot have a username/password/port: a null or empty host, or file */
static int
cannot_have_credentials(const Rec *r)
{
    int d;
    return r->kind == HOST_NONE || r->kind == HOST_NULL || r->kind == HOST_EMPTY ||
           rec_special(r, &d) == 2;
}

/* a setter that returns before running the parser: what the value's set-up
 * recorded (a tab, a newline) is not a validation error of any run */
static int
no_run(UrlParser *V)
{
    V->nerr = 0;
    return 1;
}

/* a run that returned failure with a validation error the Standard reports:
 * on the list, as _parser.py's fail() puts it there */
static int
failed(UrlParser *V)
{
    return url_validation_error_at(V, V->fail, V->fail_pos) < 0 ? -1 : 1;
}

/* §4.4 port state with a state override, from i: the digits up to the first
 * other code point (the rest is ignored); none: failure without an error.
 * 1 (r->port set, or failure), -1. */
static int
port_run(UrlParser *V, Py_ssize_t i, Rec *r)
{
    Py_ssize_t j;
    long v = 0;
    int sig = 0, defport;
    for (j = i; j < V->n; j++) {
        Py_UCS4 c = CH(V, j);
        if (c < '0' || c > '9') {
            break;
        }
        /* leading zeros skipped; past six significant digits it is too big */
        if ((sig || c != '0') && ++sig <= 6) {
            v = v * 10 + (long)(c - '0');
        }
    }
    if (j == i) {
        return 1;
    }
    if (v > 65535) {
        url_fail(V, E_PORT_RANGE, i);
        return failed(V);
    }
    rec_special(r, &defport);
    r->port = v == defport ? -1 : v;
    return 1;
}

/* protocol: §4.4 scheme start and scheme states on value + ":" */
static int
set_protocol(UrlParser *V, Rec *r)
{
    Py_ssize_t n = V->n, i, k;
    int oldk, newk, defport, od;
    if (n == 0 || !url_alpha(CH(V, 0))) {
        return 1;
    }
    for (i = 1; i < n; i++) {
        Py_UCS4 c = CH(V, i);
        if (!(url_alpha(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
            break;
        }
    }
    /* the ":" the setter appends is at n; an earlier one ends the scheme too */
    if (i < n && CH(V, i) != ':') {
        return 1;
    }
    NEED(V, i);
    for (k = 0; k < i; k++) {
        Py_UCS4 c = CH(V, k);
        V->out[k] = (char)((c >= 'A' && c <= 'Z') ? c + 32 : c);
    }
    V->len = i;
    oldk = rec_special(r, &od);
    newk = url_scheme_kind(V->out, i, &defport);
    if ((oldk != 0) != (newk != 0)) {
        return 1;
    }
    if ((r->user.n || r->pass.n || r->port >= 0) && newk == 2) {
        return 1;
    }
    if (oldk == 2 && r->kind == HOST_EMPTY) {
        return 1;
    }
    r->scheme = (Span){V->out, i};
    if (r->port >= 0 && r->port == defport) {
        r->port = -1;
    }
    return 1;
}

/* username, password: the value percent-encoded with the userinfo set; no
 * parser run (no tab removal, no validation errors) */
static int
set_userinfo(UrlParser *V, Rec *r, int password)
{
    int rc;
    if (cannot_have_credentials(r)) {
        return 1;
    }
    if ((rc = url_encode_run(V, 0, V->n, PE_URL_USERINFO, 0)) <= 0) {
        return rc;
    }
    if (password) {
        r->pass = (Span){V->out, V->len};
    }
    else {
        r->user = (Span){V->out, V->len};
    }
    return 1;
}

/* the host parser on the value's [0, b): r->host, r->kind; 1 (or failure), 0, -1 */
static int
host_run(UrlParser *V, Py_ssize_t b, int special, int file, Rec *r)
{
    int kind, rc = url_host(V, 0, b, special, &kind);
    if (rc == 2) {
        return failed(V);
    }
    if (rc != 1) {
        return rc;
    }
    if (file && V->len == 9 && !memcmp(V->out, "localhost", 9)) {
        V->len = 0;
        kind = HOST_EMPTY;
    }
    r->host = (Span){V->out, V->len};
    r->kind = kind;
    return 1;
}

/* host, hostname: §4.4 host (hostname) state, then the port state for host;
 * a file URL's go to the file host state */
static int
set_host(UrlParser *V, Rec *r, int hostname)
{
    Py_ssize_t n = V->n, hb;
    int defport, sk, special, br = 0, rc;
    Py_UCS4 c = 0;
    if (r->kind == HOST_NONE) {
        return no_run(V); /* an opaque path */
    }
    sk = rec_special(r, &defport);
    special = sk != 0;
    if (sk == 2) {
        /* file host state: up to '/', '\', '?', '#'; the empty host stays empty */
        for (hb = 0; hb < n; hb++) {
            c = CH(V, hb);
            if (c == '/' || c == '\\' || c == '?' || c == '#') {
                break;
            }
        }
        if (hb == 0) {
            r->host = (Span){V->out, 0};
            r->kind = HOST_EMPTY;
            return 1;
        }
        return host_run(V, hb, 1, 1, r);
    }
    for (hb = 0; hb < n; hb++) {
        c = CH(V, hb);
        if (c == '[') {
            br = 1;
        }
        else if (c == ']') {
            br = 0;
        }
        else if ((c == ':' && !br) || c == '/' || c == '?' || c == '#' ||
                 (special && c == '\\')) {
            break;
        }
    }
    if (hb < n && c == ':') {
        if (hb == 0) {
            url_fail(V, E_HOST_MISSING, hb);
            return failed(V);
        }
        if (hostname) {
            return 1;
        }
        if ((rc = host_run(V, hb, special, 0, r)) != 1 || V->fail >= 0) {
            return rc;
        }
        /* the host stays set whatever the port state does */
        return port_run(V, hb + 1, r);
    }
    if (hb == 0) {
        if (special) {
            url_fail(V, E_HOST_MISSING, 0);
            return failed(V);
        }
        if (r->user.n || r->pass.n || r->port >= 0) {
            return 1;
        }
    }
    return host_run(V, hb, special, 0, r);
}

/* port: "" makes it null; else §4.4 port state */
static int
set_port(UrlParser *V, Rec *r, Py_ssize_t raw_len)
{
    if (cannot_have_credentials(r)) {
        return no_run(V);
    }
    if (raw_len == 0) {
        r->port = -1;
        return 1;
    }
    return port_run(V, 0, r);
}

/* pathname: the path emptied, then §4.4 path start and path states with the
 * override ('?' and '#' are path code points, P->override) */
static int
set_pathname(UrlParser *V, Rec *r)
{
    int defport, sk, rc;
    Py_ssize_t i = 0, end;
    Py_UCS4 c;
    if (r->kind == HOST_NONE) {
        return no_run(V); /* an opaque path */
    }
    sk = rec_special(r, &defport);
    c = V->n > 0 ? CH(V, 0) : EOF_CP;
    V->override = 1;
    if (sk) {
        if (c == '\\' && url_validation_error(V, E_BACKSLASH, 0) < 0) {
            return -1;
        }
        if (c == '/' || c == '\\') {
            i = 1;
        }
    }
    else if (c == EOF_CP) {
        /* path start state at the end: a URL without a host gets one empty
         * segment; with a host the path stays empty */
        if (r->kind == HOST_NULL && url_put(V, "/", 1) < 0) {
            return -1;
        }
        r->path = (Span){V->out, V->len};
        return 1;
    }
    else if (c == '/') {
        i = 1;
    }
    if ((rc = url_path(V, i, sk != 0, sk == 2, 0, &end)) <= 0) {
        return rc;
    }
    r->path = (Span){V->out, V->len};
    return 1;
}

/* search, hash: "" makes the component null; else one leading '?' ('#') is
 * dropped (by the caller, before the run) and §4.4 query (fragment) state runs
 * to the end with the override ('#' is a query code point) */
static int
set_tail(UrlParser *V, Rec *r, Py_ssize_t raw_len, int hash)
{
    Py_ssize_t end;
    int rc, defport, mode;
    if (raw_len == 0) {
        if (hash) {
            r->has_f = 0;
        }
        else {
            r->has_q = 0;
        }
        return 1;
    }
    mode = hash ? URL_M_FRAGMENT
                : rec_special(r, &defport) ? URL_M_SQUERY_OVR : URL_M_QUERY_OVR;
    if ((rc = url_encode_until(V, 0, mode, 1, &end)) <= 0) {
        return rc;
    }
    if (hash) {
        r->has_f = 1;
        r->frag = (Span){V->out, V->len};
    }
    else {
        r->has_q = 1;
        r->query = (Span){V->out, V->len};
    }
    return 1;
}

/* One setter on the URL (h, len, *o), its result written to W: 1 (W, *o
 * updated), 0 leave it all to Python, -1 error.  E gathers the errors. */
int
url_run_setter(int which, PyObject *value, const char *h, Py_ssize_t len, UrlParts *o,
               UrlParser *W, UrlParser *E)
{
    UrlParser V;
    Rec r;
    PyObject *v = url_usv(value, 0);
    Py_ssize_t n, skip = 0;
    int rc, kind, how = URL_IN_OVERRIDE;
    const char *data;
    if (v == NULL) {
        return -1;
    }
    n = PyUnicode_GET_LENGTH(v);
    kind = PyUnicode_KIND(v);
    data = PyUnicode_DATA(v);
    if (which == S_HREF) {
        how = URL_IN_PARSE;
    }
    else if (which == S_USERNAME || which == S_PASSWORD) {
        how = URL_IN_RAW;
    }
    else if ((which == S_SEARCH || which == S_HASH) && n > 0 &&
             PyUnicode_READ(kind, data, 0) == (which == S_SEARCH ? '?' : '#')) {
        skip = 1; /* positions are the rest's, as url/_setters.py runs value[1:] */
    }
    V.nogil = 0;
    V.head_only = 0;
    if (url_parser_init_ex(&V, kind, data + skip * kind, n - skip, how) < 0) {
        url_parser_free(&V);
        Py_DECREF(v);
        return -1;
    }
    rec_of(&r, h, len, o);
    switch (which) {
    case S_HREF:
        rc = url_parse_core(&V, NULL, o);
        if (rc == 2) {
            url_raise_failure(&V, v, 2);
            rc = -1;
        }
        else if (rc == 1) {
            W->len = 0;
            rc = url_put(W, V.out, V.len) < 0 ? -1 : 1;
        }
        break;
    case S_PROTOCOL:
        rc = set_protocol(&V, &r);
        break;
    case S_USERNAME:
    case S_PASSWORD:
        rc = set_userinfo(&V, &r, which == S_PASSWORD);
        break;
    case S_HOST:
    case S_HOSTNAME:
        rc = set_host(&V, &r, which == S_HOSTNAME);
        break;
    case S_PORT:
        rc = set_port(&V, &r, n);
        break;
    case S_PATHNAME:
        rc = set_pathname(&V, &r);
        break;
    default:
        rc = set_tail(&V, &r, n, which == S_HASH);
        break;
    }
    if (rc == 1 && which != S_HREF) {
        rc = rec_write(W, &r, o) < 0 ? -1 : 1;
    }
    if (rc == 1) {
        Py_ssize_t k;
        for (k = 0; k < V.nerr && rc == 1; k++) {
            if (url_validation_error_at(E, V.errs[k].name, V.errs[k].pos) < 0) {
                rc = -1;
            }
        }
    }
    url_parser_free(&V);
    Py_DECREF(v);
    return rc;
}
