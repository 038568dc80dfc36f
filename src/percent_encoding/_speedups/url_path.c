/* url_path.c: the path, query and fragment of the C URL parser's common case
 * (see url.c, url.h).
 *
 * URL Standard §1.3 percent-encoding of a run of input with the userinfo,
 * path, query, special-query, fragment or C0 control set (UTF-8, with the
 * §4.3 invalid-URL-unit validation errors), and the §4.4 path start, path
 * (single- and double-dot segments), query and fragment states. */
#include "url.h"

/* Percent-encode input [a, b) into the output with the set `bit` (UTF-8),
 * recording invalid-URL-unit errors (§4.3) when `check`.  Returns 1, 0 to
 * bail (tab, newline, a lone surrogate; `no_space`: a space), -1 on error. */
int
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
int
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

int
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
