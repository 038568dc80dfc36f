/* url_host.c: the host of the C URL parser's common case (see url.c, url.h).
 *
 * URL Standard §3.5 host parser for plain ASCII input: a domain that §3.3
 * domain to ASCII leaves as it is (lower-case LDH labels) and clean
 * dotted-decimal IPv4 (§3.5 IPv4 parser, "ends in a number").  Any other
 * host goes to the Python host parser through the cached host hook. */
#include "url.h"

/* A plain ASCII host written lower-case if it is a domain that domain to
 * ASCII leaves alone with no error (LDH labels of 1-63, no leading or
 * trailing hyphen, no "--" at 3-4, at most 253 without a final dot), or
 * clean dotted-decimal IPv4 (§3.5).  1: written; 0: bail; 2: ask the hook. */
int
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
                return 0; /* fewer parts (127.1): the general parser */
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

int
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
    /* (h is assigned before the test: Python 3.10's PyUnicode_IS_ASCII is a
     * macro that casts its argument, so it cannot take an assignment.) */
    h = PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 2 ? PyTuple_GET_ITEM(r, 0) : NULL;
    if (h == NULL || !PyUnicode_Check(h) || !PyUnicode_IS_ASCII(h) ||
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
