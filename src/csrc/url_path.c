/* url_path.c: the path, opaque path, query and fragment of the C URL parser
 * (see url.c, url.h).
 *
 * URL Standard §1.3 percent-encoding of a run of input with the userinfo,
 * path, query, special-query, fragment or C0 control set (UTF-8, with the
 * §4.3 invalid-URL-unit validation errors), and the §4.4 path (single- and
 * double-dot segments, Windows drive letters of file URLs), opaque path,
 * query and fragment states.  The path is written as it is read; "shorten
 * the path" (§4.1) cuts the output back to the previous "/", so each output
 * byte is removed at most once. */
#include "url.h"

/* Percent-encode input [a, b) into the output with the set `bit` (UTF-8),
 * recording invalid-URL-unit errors (§4.3) when `check`.  A lone surrogate
 * (url_fast_build keeps them) is written as the USVString's U+FFFD, and it is
 * not a URL code point.  Returns 1, -1 on error. */
int
url_encode_run(UrlParser *P, Py_ssize_t a, Py_ssize_t b, unsigned bit, int check)
{
    Py_ssize_t j;
    for (j = a; j < b; j++) {
        Py_UCS4 c = CH(P, j);
        NEED(P, 12);
        if (c < 0x80) {
            unsigned t = PE_URL_SETS[c];
            if (check && !(t & PE_URL_UNIT)) {
                if (c != '%' || !(j + 2 < b && is_hex(CH(P, j + 1)) && is_hex(CH(P, j + 2)))) {
                    if (url_validation_error(P, E_UNIT, j) < 0) {
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
            /* URL code points from U+00A0, less surrogates and noncharacters (§4.3) */
            if (check && (c < 0xA0 || (c >= 0xD800 && c <= 0xDFFF) ||
                          (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE)) {
                if (url_validation_error(P, E_UNIT, j) < 0) {
                    return -1;
                }
            }
            if (c >= 0xD800 && c <= 0xDFFF) {
                c = 0xFFFD; /* WebIDL's USVString conversion */
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

/* Stop classes of url_encode_until: the code points that end a run. */
static const uint8_t STOP[128] = {
    ['/'] = URL_STOP_PATH | URL_STOP_SPATH | URL_STOP_PATH_OVR | URL_STOP_SPATH_OVR,
    ['\\'] = URL_STOP_SPATH | URL_STOP_SPATH_OVR,
    ['?'] = URL_STOP_PATH | URL_STOP_SPATH | URL_STOP_OPAQUE,
    ['#'] = URL_STOP_PATH | URL_STOP_SPATH | URL_STOP_QUERY | URL_STOP_OPAQUE,
    [' '] = URL_STOP_OPAQUE,
};

/* The modes of url_encode_until: the stop class and the encode set. */
static const struct {
    unsigned stop, bit;
} MODES[URL_M_COUNT] = {
    [URL_M_PATH] = {URL_STOP_PATH, PE_URL_PATH},
    [URL_M_SPATH] = {URL_STOP_SPATH, PE_URL_PATH},
    [URL_M_QUERY] = {URL_STOP_QUERY, PE_URL_QUERY},
    [URL_M_SQUERY] = {URL_STOP_QUERY, PE_URL_SPECIAL_QUERY},
    [URL_M_FRAGMENT] = {0, PE_URL_FRAGMENT},
    [URL_M_OPAQUE] = {URL_STOP_OPAQUE, PE_URL_C0},
    [URL_M_PATH_OVR] = {URL_STOP_PATH_OVR, PE_URL_PATH},
    [URL_M_SPATH_OVR] = {URL_STOP_SPATH_OVR, PE_URL_PATH},
    [URL_M_QUERY_OVR] = {0, PE_URL_QUERY},
    [URL_M_SQUERY_OVR] = {0, PE_URL_SPECIAL_QUERY},
};

/* PLAIN[mode][byte]: 1 where a byte is copied as it is in that mode (an ASCII
 * URL unit outside the set and the stop class; '%' takes the slow branch). */
static uint8_t PLAIN[URL_M_COUNT][256];
static int plain_ready;
static void plain_init(void);

void
url_tables_init(void)
{
    if (!plain_ready) {
        plain_init();
    }
}

static void
plain_init(void)
{
    int m, c;
    for (m = 0; m < URL_M_COUNT; m++) {
        for (c = 0; c < 128; c++) {
            unsigned t = PE_URL_SETS[c];
            PLAIN[m][c] = (uint8_t)((t & PE_URL_UNIT) && !(t & MODES[m].bit) &&
                                    !(STOP[c] & MODES[m].stop));
        }
    }
    plain_ready = 1;
}

#if PE_URL_SWAR
/* How many of the eight bytes of w, from the first, are ASCII letters, digits,
 * '-', '.' or '_' (0-8), which every mode copies as they are (§1.3: in no
 * encode set).  A byte from 0x80 up stops the count; the carries of SWAR_IN
 * out of such a byte reach only the bytes after it. */
static inline int
url_simple8(uint64_t w)
{
    uint64_t ok = SWAR_IN(w | 0x2020202020202020ULL, 'a', 'z') | SWAR_IN(w, '0', '9') |
                  SWAR_IN(w, '-', '.') | SWAR_IN(w, '_', '_');
    uint64_t stop = (~ok | w) & SWAR_HIGH;
    return stop ? __builtin_ctzll(stop) / 8 : 8;
}
#endif

/* Percent-encode input from a up to the first ASCII code point of the mode's
 * stop class (or the end: *end) with the mode's set, as url_encode_run.
 * Input of one byte a code point (the common case) is copied run by run: the
 * bytes PLAIN says are copied as they are, anything else takes the slow
 * branch one code point at a time. */
static int
encode_until(UrlParser *P, Py_ssize_t a, int mode, int check, Py_ssize_t *end, Py_ssize_t *seg)
{
    Py_ssize_t n = P->n, j = a;
    unsigned stop = MODES[mode].stop, bit = MODES[mode].bit;
    if (P->kind == PyUnicode_1BYTE_KIND) {
        const Py_UCS1 *s = (const Py_UCS1 *)P->data;
        const uint8_t *plain;
        char *o;
        /* With seg (url_path), the run goes on past a '/' when neither the
         * segment it ends nor the one it starts can be a single- or double-dot
         * segment (§4.4 path state: those start with '.' or "%2e"); *seg is
         * then the href offset of the last '/' written. */
        int fuse = seg != NULL && (a >= n || (s[a] != '.' && s[a] != '%'));
        plain = PLAIN[mode]; /* filled by url_tables_init (url_setup), never on a thread */
        /* room for 3 bytes a code point (an ASCII one as %XX), so that a URL of up
         * to about URL_STACK / 3 code points stays in the stack buffer; a Latin-1
         * one (two UTF-8 bytes, 6) makes its other 3 below */
        NEED(P, (n - a) * 3);
        o = P->out + P->len;
        while (j < n) {
            Py_ssize_t r = j;
            Py_UCS1 c;
            for (;;) {
#if PE_URL_SWAR
                /* eight at a time, copied as read, up to the first byte that is
                 * not simple (url_simple8); the bytes written past it are written
                 * again from there on, within the room reserved above (3 a code
                 * point, so 8 more than r's are there while r + 8 <= n) */
                while (r + 8 <= n) {
                    uint64_t w;
                    int k;
                    memcpy(&w, s + r, 8);
                    memcpy(o + (r - j), &w, 8);
                    r += k = url_simple8(w);
                    if (k < 8) {
                        break;
                    }
                }
#endif
                /* one byte copied as it is ('=', '&', '~', ...), then words again */
                if (r >= n || !plain[s[r]]) {
                    break;
                }
                o[r - j] = (char)s[r];
                r++;
            }
            o += r - j;
            if ((j = r) >= n) {
                break;
            }
            c = s[j];
            if (c < 0x80) {
                unsigned t = PE_URL_SETS[c];
                if ((STOP[c] & stop) &&
                    !(fuse && c == '/' && (j + 1 >= n || (s[j + 1] != '.' && s[j + 1] != '%')))) {
                    break;
                }
                if (fuse && c == '/') {
                    *seg = o - P->out; /* (a path's '/' gets here only when fused) */
                }
                if (check && !(t & PE_URL_UNIT) &&
                    (c != '%' || !(j + 2 < n && is_hex(s[j + 1]) && is_hex(s[j + 2]))) &&
                    url_validation_error(P, E_UNIT, j) < 0) {
                    return -1;
                }
                if (t & bit) {
                    *o++ = '%';
                    *o++ = PE_HEX_PAIRS[2 * c];
                    *o++ = PE_HEX_PAIRS[2 * c + 1];
                }
                else {
                    *o++ = (char)c;
                }
            }
            else {
                unsigned b0 = 0xC0 | (c >> 6), b1 = 0x80 | (c & 0x3F);
                if (check && c < 0xA0 && url_validation_error(P, E_UNIT, j) < 0) {
                    return -1;
                }
                P->len = o - P->out;
                NEED(P, 6 + (n - j - 1) * 3);
                o = P->out + P->len;
                o[0] = '%';
                o[1] = PE_HEX_PAIRS[2 * b0];
                o[2] = PE_HEX_PAIRS[2 * b0 + 1];
                o[3] = '%';
                o[4] = PE_HEX_PAIRS[2 * b1];
                o[5] = PE_HEX_PAIRS[2 * b1 + 1];
                o += 6;
            }
            j++;
        }
        P->len = o - P->out;
        *end = j;
        return 1;
    }
    for (; j < n; j++) {
        Py_UCS4 c = CH(P, j);
        if (c < 0x80 && (STOP[c] & stop)) {
            break;
        }
    }
    *end = j;
    return url_encode_run(P, a, j, bit, check);
}

int
url_encode_until(UrlParser *P, Py_ssize_t a, int mode, int check, Py_ssize_t *end)
{
    return encode_until(P, a, mode, check, end, NULL);
}

/* §4.4 path state's single-dot and double-dot URL path segments, on the
 * segment as written (dots and "%2e" are written as they are): 1, 2 or 0. */
static int
url_dot_segment(const char *s, Py_ssize_t k)
{
    int dots = 0;
    Py_ssize_t j = 0;
    if (k > 6) {
        return 0;
    }
    while (j < k) {
        if (s[j] == '.') {
            j++;
        }
        else if (s[j] == '%' && j + 2 < k && s[j + 1] == '2' &&
                 (s[j + 2] | 0x20) == 'e') {
            j += 3;
        }
        else {
            return 0;
        }
        dots++;
    }
    return dots <= 2 ? dots : 0;
}

/* §4.1 shorten a URL's path, on the path written from p_start: a file URL's
 * lone normalized drive letter stays. */
void
url_shorten(UrlParser *P, Py_ssize_t p_start, int file)
{
    char *o = P->out + p_start;
    if (file && P->len - p_start == 3 && o[0] == '/' && ((o[1] | 0x20) >= 'a') &&
        ((o[1] | 0x20) <= 'z') && o[2] == ':') {
        return;
    }
    while (P->len > p_start && P->out[P->len - 1] != '/') {
        P->len--;
    }
    if (P->len > p_start) {
        P->len--;
    }
}

static int
is_alpha(Py_UCS4 c)
{
    return (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* §4.4 path state from the start of a segment at a, appending to the path
 * written from p_start, up to '?', '#' or the end (*end).  1, 0 bail, -1. */
int
url_path(UrlParser *P, Py_ssize_t a, int special, int file, Py_ssize_t p_start, Py_ssize_t *end)
{
    Py_ssize_t n = P->n;
    for (;;) {
        Py_ssize_t b, seg = P->len, k;
        int dots, slash, rc;
        Py_UCS4 c;
        NEED(P, 1);
        P->out[P->len++] = '/';
        /* (a file path's first segment alone: it may be a drive letter) */
        rc = encode_until(P, a, special ? (P->override ? URL_M_SPATH_OVR : URL_M_SPATH)
                                        : (P->override ? URL_M_PATH_OVR : URL_M_PATH),
                          1, &b, file && seg == p_start ? NULL : &seg);
        if (rc <= 0) {
            return rc;
        }
        c = b < n ? CH(P, b) : 0;
        slash = c == '/' || c == '\\';
        k = P->len - seg - 1;
        dots = url_dot_segment(P->out + seg + 1, k);
        if (dots) {
            P->len = seg;
            if (dots == 2) {
                url_shorten(P, p_start, file);
            }
            if (!slash) {
                NEED(P, 1);
                P->out[P->len++] = '/';
            }
        }
        else if (file && seg == p_start && k == 2 && is_alpha((Py_UCS1)P->out[seg + 1]) &&
                 (P->out[seg + 2] == ':' || P->out[seg + 2] == '|')) {
            /* a Windows drive letter first in a file path: "C|" is "C:" */
            P->out[seg + 2] = ':';
        }
        if (c == '\\' && url_validation_error(P, E_BACKSLASH, b) < 0) {
            return -1;
        }
        if (!slash) {
            *end = b;
            return 1;
        }
        a = b + 1;
    }
}

/* §4.4 opaque path state from i up to '?', '#' or the end (*end). */
int
url_opaque_path(UrlParser *P, Py_ssize_t i, Py_ssize_t *end)
{
    Py_ssize_t n = P->n, j;
    int rc;
    for (;;) {
        if ((rc = url_encode_until(P, i, URL_M_OPAQUE, 1, &j)) <= 0) {
            return rc;
        }
        if (j >= n || CH(P, j) != ' ') {
            *end = j;
            return 1;
        }
        if (url_validation_error(P, E_UNIT, j) < 0) {
            return -1;
        }
        NEED(P, 3);
        if (j + 1 < n && (CH(P, j + 1) == '?' || CH(P, j + 1) == '#')) {
            memcpy(P->out + P->len, "%20", 3);
            P->len += 3;
        }
        else {
            P->out[P->len++] = ' ';
        }
        i = j + 1;
    }
}

int
url_query_fragment(UrlParser *P, Py_ssize_t i, int special, UrlParts *o)
{
    Py_ssize_t n = P->n, j;
    int rc;
    if (i < n && CH(P, i) == '?') {
        NEED(P, 1);
        o->q_start = P->len;
        P->out[P->len++] = '?';
        rc = url_encode_until(P, i + 1, special ? URL_M_SQUERY : URL_M_QUERY, 1, &j);
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
        rc = url_encode_until(P, i + 1, URL_M_FRAGMENT, 1, &j);
        if (rc <= 0) {
            return rc;
        }
    }
    return 1;
}

/* after the path ends at j: the query and fragment states */
int
url_tail(UrlParser *P, Py_ssize_t j, int special, UrlParts *o)
{
    return url_query_fragment(P, j, special, o);
}

/* §4.4 path start state at j (after a host), then the rest. */
int
url_path_start(UrlParser *P, Py_ssize_t j, int special, int file, UrlParts *o)
{
    Py_UCS4 c = AT(j);
    int rc;
    o->p_start = P->len;
    if (P->head_only) {
        return 1; /* see url.h */
    }
    if (special) {
        if (c == '\\' && url_validation_error(P, E_BACKSLASH, j) < 0) {
            return -1;
        }
        if (c == '/' || c == '\\') {
            j++;
        }
    }
    else if (c == '?' || c == '#' || c == EOF_CP) {
        return url_tail(P, j, 0, o);
    }
    else if (c == '/') {
        j++;
    }
    if ((rc = url_path(P, j, special, file, o->p_start, &j)) <= 0) {
        return rc;
    }
    return url_tail(P, j, special, o);
}
