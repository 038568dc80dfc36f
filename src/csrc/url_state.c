/* url_state.c: the URL Standard's basic URL parser (§4.4) in C, every state,
 * with or without a base URL, no state override, UTF-8.
 *
 * One pass over the input (already trimmed of leading and trailing C0
 * controls and spaces, tabs and newlines removed: url.c) that appends the
 * §4.5 serialization to P->out and records the component offsets, as ada's
 * url_aggregator does.  The states map to code as follows:
 *
 *   scheme start, scheme, no scheme       url_parse_core
 *   special relative or authority,
 *   special authority (ignore) slashes,
 *   relative, relative slash              url_parse_core, relative
 *   path or authority, authority, host,
 *   port, path start                      authority, path_start
 *   file, file slash, file host           url_file.c
 *   path, opaque path, query, fragment    url_path.c
 *
 * A base URL is its href and offsets (UrlBase): copying its scheme,
 * authority, path or query is copying a span of its href, and since the
 * scheme is the same, the authority offsets are the same too.
 *
 * Validation errors go to P->errs in the order the Standard's state machine
 * meets them (the Python state machine in url/_parser.py is the reference the
 * tests compare with), at positions of the caller's input (url_validation_error maps
 * them).  A failure returns 2 with the error in P->fail. */
#include "url.h"



/* §4.1 special schemes: 0 not special, 1 special, 2 file; *port the default
 * (url_setters.c asks too). */
int
url_scheme_kind(const char *s, Py_ssize_t n, int *port)
{
    *port = -1;
    switch (n) {
    case 2:
        if (s[0] == 'w' && s[1] == 's') {
            return *port = 80, 1;
        }
        break;
    case 3:
        if (s[0] == 'w' && s[1] == 's' && s[2] == 's') {
            return *port = 443, 1;
        }
        if (s[0] == 'f' && s[1] == 't' && s[2] == 'p') {
            return *port = 21, 1;
        }
        break;
    case 4:
        if (s[0] == 'h' && s[1] == 't' && s[2] == 't' && s[3] == 'p') {
            return *port = 80, 1;
        }
        if (s[0] == 'f' && s[1] == 'i' && s[2] == 'l' && s[3] == 'e') {
            return 2;
        }
        break;
    case 5:
        if (s[0] == 'h' && s[1] == 't' && s[2] == 't' && s[3] == 'p' && s[4] == 's') {
            return *port = 443, 1;
        }
        break;
    }
    return 0;
}

/* The bytes the authority scan below looks at: its ends, '@', ':' and the brackets. */
static const uint8_t AUTH_STOP[256] = {['/'] = 1, ['?'] = 1, ['#'] = 1, ['\\'] = 1,
                                       ['@'] = 1, [':'] = 1, ['['] = 1, [']'] = 1};

/* The end of the authority that starts at i: at '/', '?', '#' (or '\\' when
 * special); each '@' is a validation error, the last one (*at, else -1) ends
 * the userinfo.  For one-byte input, *host_end is the host state's end too:
 * the first ':' after the last '@' when no bracket follows that '@' (else -1,
 * and the host loop finds it).  -1 with an exception. */
static Py_ssize_t
authority_end(UrlParser *P, Py_ssize_t i, int special, Py_ssize_t *at, Py_ssize_t *host_end)
{
    Py_ssize_t n = P->n, end;
    *at = *host_end = -1;
    if (P->kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *u = (const Py_UCS1 *)P->data;
        Py_ssize_t colon = -1;
        int bracket = 0;
        for (end = i; end < n; end++) {
            Py_UCS1 b = u[end];
            if (!AUTH_STOP[b]) {
                continue; /* letters, digits, '.', '-' and most of the rest */
            }
            if (b == '/' || b == '?' || b == '#' || (special && b == '\\')) {
                break;
            }
            if (b == '@') {
                if (url_validation_error(P, E_CREDENTIALS, end) < 0) {
                    return -1;
                }
                *at = end;
                colon = -1;
                bracket = 0;
            }
            else if (b == ':' && colon < 0) {
                colon = end;
            }
            else if (b == '[' || b == ']') {
                bracket = 1;
            }
        }
        if (!bracket) {
            *host_end = colon >= 0 ? colon : end;
        }
        return end;
    }
    for (end = i; end < n; end++) {
        Py_UCS4 c = CH(P, end);
        if (c == '/' || c == '?' || c == '#' || (special && c == '\\')) {
            break;
        }
        if (c == '@') {
            if (url_validation_error(P, E_CREDENTIALS, end) < 0) {
                return -1;
            }
            *at = end;
        }
    }
    return end;
}

/* §4.4 port state on the input (hb, end) after the host's ':': digits of any
 * length (leading zeros skipped, no overflow), written unless the scheme's
 * default port; 1, 2 failure, -1. */
static int
port_state(UrlParser *P, Py_ssize_t hb, Py_ssize_t end, int defport, UrlParts *o)
{
    Py_ssize_t j;
    long v = 0;
    int sig = 0;
    for (j = hb + 1; j < end; j++) {
        Py_UCS4 c = CH(P, j);
        if (c < '0' || c > '9') {
            /* a non-digit before the end is port-invalid even after a
             * run too long for a port: the range is checked at the end */
            return url_fail(P, E_PORT_INVALID, j);
        }
        if ((sig || c != '0') && ++sig <= 6) {
            v = v * 10 + (long)(c - '0');
        }
    }
    if (v > 65535) {
        return url_fail(P, E_PORT_RANGE, hb + 1);
    }
    if (end > hb + 1 && v != defport) {
        NEED(P, 8);
        P->len += sprintf(P->out + P->len, ":%ld", v);
        o->port = v;
    }
    return 1;
}

/* The common authority of a special URL, each byte read once: a host that
 * url_host_lead takes, then nothing or ':' and ASCII digits, then the
 * authority's end (§4.4 authority state: '/', '?', '#', '\\' or the input's
 * end).  So there is no '@' (no userinfo, no credentials error) and no '[',
 * and the host and port states see exactly what authority() would give them.
 * 1, 2 failure, -1 error as authority(); 0 another shape: nothing written
 * and no validation error kept, for authority() below. */
static int
authority_fast(UrlParser *P, Py_ssize_t i, int defport, UrlParts *o)
{
    const Py_UCS1 *u = (const Py_UCS1 *)P->data;
    Py_ssize_t len0 = P->len, nerr0 = P->nerr, hb, end;
    int rc, kind = o->host_kind;
    if (url_put(P, "//", 2) < 0) {
        return -1;
    }
    o->u_end = o->h_start = P->len;
    if ((rc = url_host_lead(P, i, &o->host_kind, &hb)) != 1) {
        P->len = len0;
        return rc;
    }
    end = hb;
    if (end < P->n && u[end] == ':') {
        for (end++; end < P->n && u[end] >= '0' && u[end] <= '9'; end++) {
        }
    }
    if (end < P->n && u[end] != '/' && u[end] != '?' && u[end] != '#' && u[end] != '\\') {
        /* a ':' then anything else ('@' of a userinfo, a bad port): undo */
        P->len = len0;
        P->nerr = nerr0;
        o->host_kind = kind;
        return 0;
    }
    o->h_end = P->len;
    if (hb < end && (rc = port_state(P, hb, end, defport, o)) != 1) {
        return rc;
    }
    return url_path_start(P, end, 1, 0, o);
}

/* §4.4 authority and host states from i (after "//"), then the port. */
static int
authority(UrlParser *P, Py_ssize_t i, int special, int defport, UrlParts *o)
{
    Py_ssize_t j, end, at, ha, hb, fast_hb;
    Py_UCS4 c;
    int rc, br = 0;
    if (special && P->kind == PyUnicode_1BYTE_KIND && (rc = authority_fast(P, i, defport, o)) != 0) {
        return rc;
    }
    if ((end = authority_end(P, i, special, &at, &fast_hb)) < 0) {
        return -1;
    }
    if (at >= 0 && at == end - 1) {
        return url_fail(P, E_HOST_MISSING, end);
    }
    if (url_put(P, "//", 2) < 0) {
        return -1;
    }
    o->u_end = P->len;
    if (at >= 0) {
        Py_ssize_t colon = at;
        for (j = i; j < at; j++) {
            if (CH(P, j) == ':') {
                colon = j;
                break;
            }
        }
        if (at > i && !(colon == i && at == i + 1)) {
            /* username (and ':' password) then '@'; an '@' before the last is %40 */
            if ((rc = url_encode_run(P, i, colon, PE_URL_USERINFO, 0)) <= 0) {
                return rc;
            }
            o->u_end = P->len;
            if (colon + 1 < at) {
                NEED(P, 1);
                P->out[P->len++] = ':';
                if ((rc = url_encode_run(P, colon + 1, at, PE_URL_USERINFO, 0)) <= 0) {
                    return rc;
                }
            }
            NEED(P, 1);
            P->out[P->len++] = '@';
        }
        i = at + 1;
    }
    /* host state: up to a ':' outside brackets */
    ha = i;
    for (hb = fast_hb >= 0 ? fast_hb : i; hb < end; hb++) {
        c = CH(P, hb);
        if (c > ']' || (c > ':' && c < '[')) {
            continue;
        }
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
    if (hb == ha && (special || hb < end)) {
        return url_fail(P, E_HOST_MISSING, hb < end ? hb : (end > 0 ? end - 1 : 0));
    }
    o->h_start = P->len;
    if ((rc = url_host(P, ha, hb, special, &o->host_kind)) != 1) {
        return rc;
    }
    o->h_end = P->len;
    if (hb < end && (rc = port_state(P, hb, end, defport, o)) != 1) {
        return rc;
    }
    return url_path_start(P, end, special, 0, o);
}

/* §4.4 special authority ignore slashes state, then the authority */
static int
ignore_slashes(UrlParser *P, Py_ssize_t i, int defport, UrlParts *o)
{
    Py_UCS4 c;
    while (i < P->n && ((c = CH(P, i)) == '/' || c == '\\')) {
        if (url_validation_error(P, E_MISSING_SOLIDUS, i) < 0) {
            return -1;
        }
        i++;
    }
    return authority(P, i, 1, defport, o);
}

/* §4.4 relative state at i, against a base with a list path */
static int
relative(UrlParser *P, Py_ssize_t i, const UrlBase *B, UrlParts *o)
{
    int defport, rc, special = url_scheme_kind(B->href, B->o.s_end, &defport) != 0;
    Py_UCS4 c = AT(i);
    Py_ssize_t j;
    P->len = 0;
    if (c == '/' || (special && c == '\\')) {
        if (c == '\\' && url_validation_error(P, E_BACKSLASH, i) < 0) {
            return -1;
        }
        /* relative slash state */
        c = AT(i + 1);
        if (url_put(P, B->href, B->o.s_end + 1) < 0) {
            return -1;
        }
        o->s_end = B->o.s_end;
        if (special && (c == '/' || c == '\\')) {
            if (c == '\\' && url_validation_error(P, E_BACKSLASH, i + 1) < 0) {
                return -1;
            }
            return ignore_slashes(P, i + 2, defport, o);
        }
        if (c == '/') {
            return authority(P, i + 2, 0, -1, o);
        }
        if (url_copy_base_authority(P, B, o) < 0) {
            return -1;
        }
        i++;
    }
    else {
        if (url_copy_base_authority(P, B, o) < 0 ||
            url_put(P, B->href + B->o.p_start, url_base_path_end(B) - B->o.p_start) < 0) {
            return -1;
        }
        if (c == '?') {
            return url_tail(P, i, special, o);
        }
        if (c == '#' || c == EOF_CP) {
            if (url_copy_base_query(P, B, o) < 0) {
                return -1;
            }
            return url_tail(P, i, special, o);
        }
        url_shorten(P, o->p_start, 0);
    }
    if ((rc = url_path(P, i, special, 0, o->p_start, &j)) <= 0) {
        return rc;
    }
    return url_tail(P, j, special, o);
}

/* No host, a list path: the serializer's "/." when the path starts with an
 * empty segment (§4.5), and the host offsets at the path start. */
static int
finish(UrlParser *P, UrlParts *o)
{
    if (o->host_kind == HOST_NULL) {
        Py_ssize_t pe = o->q_start >= 0 ? o->q_start : o->f_start >= 0 ? o->f_start : P->len;
        if (pe - o->p_start >= 2 && P->out[o->p_start + 1] == '/') {
            NEED(P, 2);
            memmove(P->out + o->p_start + 2, P->out + o->p_start,
                    (size_t)(P->len - o->p_start));
            P->out[o->p_start] = '/';
            P->out[o->p_start + 1] = '.';
            P->len += 2;
            o->p_start += 2;
            o->q_start += o->q_start >= 0 ? 2 : 0;
            o->f_start += o->f_start >= 0 ? 2 : 0;
        }
    }
    if (o->host_kind == HOST_NULL || o->host_kind == HOST_NONE) {
        o->u_end = o->h_start = o->h_end = o->p_start;
    }
    return 1;
}

/* §4.4 scheme start and scheme states: the length of the input's scheme (0
 * for none: the no scheme state), written lower-cased to P->out with its ':',
 * and its kind (*kind, *port: url_scheme_kind's); -1 error.  One-byte input is
 * read and written in one loop. */
static Py_ssize_t
scheme(UrlParser *P, int *kind, int *port)
{
    Py_ssize_t n = P->n, i = 0, j;
    Py_UCS4 c = 0;
    if (P->kind == PyUnicode_1BYTE_KIND && n < P->cap) {
        const Py_UCS1 *u = (const Py_UCS1 *)P->data;
        /* the commonest schemes as they are written, compared at once */
        if (n >= 6 && memcmp(u, "http", 4) == 0 && (u[4] == ':' || (u[4] == 's' && u[5] == ':'))) {
            i = u[4] == ':' ? 4 : 5;
            memcpy(P->out, u, 6);
            *kind = 1;
            *port = i == 4 ? 80 : 443;
            return i;
        }
        if (n >= 5 && memcmp(u, "file:", 5) == 0) {
            memcpy(P->out, u, 5);
            *kind = 2;
            *port = -1;
            return 4;
        }
        for (; i < n; i++) {
            unsigned x = u[i], low = x | 0x20;
            if (low - 'a' < 26u) {
                x = low; /* an ASCII letter, lower-cased */
            }
            else if (i == 0 || !(x - '0' < 10u || x == '+' || x == '-' || x == '.')) {
                break;
            }
            P->out[i] = (char)x;
        }
        if (i == 0 || i >= n || u[i] != ':') {
            return 0;
        }
        P->out[i] = ':';
        *kind = url_scheme_kind(P->out, i, port);
        return i;
    }
    if (n > 0 && url_alpha(CH(P, 0))) {
        for (i = 1; i < n; i++) {
            c = CH(P, i);
            if (!(url_alpha(c) || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.')) {
                break;
            }
        }
        if (i >= n || c != ':') {
            return 0;
        }
    }
    if (i == 0) {
        return 0;
    }
    NEED(P, i + 1);
    for (j = 0; j < i; j++) {
        c = CH(P, j);
        P->out[j] = (char)((c >= 'A' && c <= 'Z') ? c + 32 : c);
    }
    P->out[i] = ':';
    *kind = url_scheme_kind(P->out, i, port);
    return i;
}

int
url_parse_core(UrlParser *P, const UrlBase *B, UrlParts *o)
{
    Py_ssize_t i = 0, j;
    Py_UCS4 c = 0;
    int rc, kind, defport;
    o->port = -1;
    o->q_start = o->f_start = -1;
    o->host_kind = HOST_NULL;
    P->len = 0;
    if ((i = scheme(P, &kind, &defport)) < 0) {
        return -1;
    }
    if (i == 0) {
        /* no scheme state */
        c = AT(0);
        if (B == NULL || (B->o.host_kind == HOST_NONE && c != '#')) {
            return url_fail(P, E_NO_SCHEME, 0);
        }
        if (B->o.host_kind == HOST_NONE) {
            /* an opaque-path base and a fragment */
            *o = B->o;
            o->f_start = -1;
            if (url_put(P, B->href, B->o.f_start >= 0 ? B->o.f_start : B->len) < 0) {
                return -1;
            }
            rc = url_tail(P, 0, 0, o);
        }
        else if (B->o.s_end == 4 && !memcmp(B->href, "file", 4)) {
            rc = url_file_state(P, 0, B, o);
        }
        else {
            rc = relative(P, 0, B, o);
        }
        return rc == 1 ? finish(P, o) : rc;
    }
    P->len = i + 1;
    o->s_end = i;
    j = i + 1; /* after the ':' */
    if (kind == 2) {
        if (!(AT(j) == '/' && AT(j + 1) == '/') &&
            url_validation_error(P, E_MISSING_SOLIDUS, i) < 0) {
            return -1;
        }
        rc = url_file_state(P, j, B, o);
    }
    else if (kind == 1) {
        if (B != NULL && B->o.s_end == i && !memcmp(B->href, P->out, (size_t)i)) {
            /* special relative or authority state */
            if (AT(j) == '/' && AT(j + 1) == '/') {
                rc = ignore_slashes(P, j + 2, defport, o);
            }
            else {
                if (url_validation_error(P, E_MISSING_SOLIDUS, j) < 0) {
                    return -1;
                }
                rc = relative(P, j, B, o);
            }
        }
        else {
            /* special authority slashes state */
            if (AT(j) == '/' && AT(j + 1) == '/') {
                j += 2;
            }
            else if (url_validation_error(P, E_MISSING_SOLIDUS, j) < 0) {
                return -1;
            }
            rc = ignore_slashes(P, j, defport, o);
        }
    }
    else if (AT(j) == '/') {
        /* path or authority state */
        if (AT(j + 1) == '/') {
            rc = authority(P, j + 2, 0, -1, o);
        }
        else {
            o->p_start = P->len;
            if ((rc = url_path(P, j + 1, 0, 0, o->p_start, &j)) == 1) {
                rc = url_tail(P, j, 0, o);
            }
        }
    }
    else {
        o->host_kind = HOST_NONE;
        o->p_start = P->len;
        if ((rc = url_opaque_path(P, j, &j)) == 1) {
            rc = url_tail(P, j, 0, o);
        }
    }
    return rc == 1 ? finish(P, o) : rc;
}
