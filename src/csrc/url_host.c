/* url_host.c: the host parser of the C URL parser (see url.c, url.h).
 *
 * URL Standard §3.5 host parser: IPv6 in brackets (§3.5 IPv6 parser), the
 * opaque host of a non-special URL, and for special URLs the domain:
 * percent-decoded, then §3.3 domain to ASCII, the forbidden domain code
 * points, "ends in a number" and the §3.5 IPv4 parser (decimal, octal and hex
 * parts, one to four of them), serialized by §3.6.  A domain that is ASCII
 * after percent-decoding is done here: UTS #46 maps it to lower case, and the
 * strict run (STD3 rules, hyphens, DNS lengths, and for an xn-- label its
 * Punycode, UTS #46 validity and Bidi: url_idna.c) decides the domain-to-ASCII
 * validation error.  A non-ASCII domain, of any length, goes to the Python
 * host parser through the host hook (UTS #46 and Punycode in O(n log n),
 * url/_idna.py); the URL stays in C.
 *
 * Numbers of any length: digits are read with saturation (a value past 2^40
 * stays there), so a run of a million digits costs one pass and never
 * overflows. */
#include "url.h"

/* (host text) -> (host, kind, errors) | (name, offset): the Python host parser
 * for the hosts this unit leaves, given by url_setup (url.c). */
PyObject *host_hook;

#define SAT ((uint64_t)1 << 40)

/* §3.5 IPv4 number parser on d[a:b): 1 with *v (saturated) and *flag, 0 not a number. */
static int
ipv4_number(const char *d, Py_ssize_t a, Py_ssize_t b, uint64_t *v, int *flag)
{
    int radix = 10;
    uint64_t x = 0;
    *flag = 0;
    if (a == b) {
        return 0;
    }
    if (b - a >= 2 && d[a] == '0' && (d[a + 1] | 0x20) == 'x') {
        a += 2, radix = 16, *flag = 1;
    }
    else if (b - a >= 2 && d[a] == '0') {
        a += 1, radix = 8, *flag = 1;
    }
    for (; a < b; a++) {
        unsigned char c = (unsigned char)d[a];
        unsigned dv = PE_HEXVAL[c];
        if (dv == 0xFF || dv >= (unsigned)radix) {
            return 0;
        }
        x = x * (uint64_t)radix + dv;
        if (x > SAT) {
            x = SAT + 1;
        }
    }
    *v = x;
    return 1;
}

/* §3.5 ends in a number checker on d[0:m) */
static int
ends_in_number(const char *d, Py_ssize_t m)
{
    Py_ssize_t e = m, s, j;
    if (m > 0 && d[m - 1] == '.') {
        e = m - 1; /* a final empty label is dropped */
    }
    for (s = e; s > 0 && d[s - 1] != '.'; s--) {
    }
    if (s == e) {
        return 0;
    }
    for (j = s; j < e && d[j] >= '0' && d[j] <= '9'; j++) {
    }
    if (j == e) {
        return 1;
    }
    if (e - s >= 2 && d[s] == '0' && (d[s + 1] | 0x20) == 'x') {
        for (j = s + 2; j < e && is_hex((unsigned char)d[j]); j++) {
        }
        return j == e;
    }
    return 0;
}

/* §3.5 IPv4 parser on d[0:m), errors at a + offset; writes the §3.6 form. */
static int
ipv4(UrlParser *P, const char *d, Py_ssize_t m, Py_ssize_t a)
{
    uint64_t nums[4], v;
    Py_ssize_t e = m, s, j;
    int k = 0, nparts = 1, flag, big = 0;
    uint64_t addr;
    if (d[m - 1] == '.') {
        if (url_validation_error(P, E_V4_EMPTY, a + m - 1) < 0) {
            return -1;
        }
        e = m - 1;
    }
    for (j = 0; j < e; j++) {
        nparts += d[j] == '.';
    }
    /* §3.5 IPv4 parser (2026): fewer than four parts is a validation error,
     * though "127.1" still parses */
    if (nparts < 4 && url_validation_error(P, E_V4_FEW, a) < 0) {
        return -1;
    }
    if (nparts > 4) {
        return url_fail(P, E_V4_MANY, a);
    }
    for (s = 0, j = 0; j <= e; j++) {
        if (j < e && d[j] != '.') {
            continue;
        }
        if (!ipv4_number(d, s, j, &v, &flag)) {
            return url_fail(P, E_V4_NONNUM, a);
        }
        if (flag && url_validation_error(P, E_V4_NONDEC, a) < 0) {
            return -1;
        }
        nums[k++] = v;
        s = j + 1;
    }
    for (j = 0; j < k; j++) {
        big |= nums[j] > 255;
    }
    if (big && url_validation_error(P, E_V4_RANGE, a) < 0) {
        return -1;
    }
    for (j = 0; j < k - 1; j++) {
        if (nums[j] > 255) {
            return url_fail(P, E_V4_RANGE, a);
        }
    }
    if (nums[k - 1] >= ((uint64_t)1 << (8 * (5 - k)))) {
        return url_fail(P, E_V4_RANGE, a);
    }
    addr = nums[k - 1];
    for (j = 0; j < k - 1; j++) {
        addr += nums[j] << (8 * (3 - j));
    }
    NEED(P, 16);
    P->len += sprintf(P->out + P->len, "%u.%u.%u.%u", (unsigned)(addr >> 24) & 0xFF,
                      (unsigned)(addr >> 16) & 0xFF, (unsigned)(addr >> 8) & 0xFF,
                      (unsigned)addr & 0xFF);
    return 1;
}

/* The code point at q of the host [a, b), or 0 past its end. */
#define C6(q) ((q) < b ? CH(P, (q)) : 0)

/* §3.5 IPv6 parser, the IPv4 part at p (the address's last 32 bits in dotted
 * decimal): into addr[*piece] and addr[*piece + 1]; 1, or url_fail's 2. */
static int
ipv6_v4(UrlParser *P, Py_ssize_t p, Py_ssize_t b, unsigned *addr, int *piece)
{
    int seen = 0;
    if (*piece > 6) {
        return url_fail(P, E_V4V6_MANY, p);
    }
    while (p < b) {
        int v4 = -1;
        if (seen > 0) {
            if (C6(p) == '.' && seen < 4) {
                p++;
            }
            else {
                return url_fail(P, E_V4V6_CP, p);
            }
        }
        if (p >= b || C6(p) < '0' || C6(p) > '9') {
            return url_fail(P, E_V4V6_CP, p);
        }
        while (p < b && C6(p) >= '0' && C6(p) <= '9') {
            int dg = (int)(C6(p) - '0');
            if (v4 < 0) {
                v4 = dg;
            }
            else if (v4 == 0) {
                return url_fail(P, E_V4V6_CP, p);
            }
            else {
                v4 = v4 * 10 + dg;
            }
            if (v4 > 255) {
                return url_fail(P, E_V4V6_RANGE, p);
            }
            p++;
        }
        addr[*piece] = addr[*piece] * 0x100 + (unsigned)v4;
        seen++;
        if (seen == 2 || seen == 4) {
            ++*piece;
        }
    }
    return seen == 4 ? 1 : url_fail(P, E_V4V6_FEW, p);
}

/* §3.6 host serializer, an IPv6 address: "[", the pieces in lower-case hex with
 * the first longest run of two or more zero pieces compressed to "::", "]". */
static int
ipv6_write(UrlParser *P, const unsigned *addr)
{
    int i, best = -1, bestlen = 1;
    for (i = 0; i < 8;) {
        if (addr[i] == 0) {
            int j = i;
            while (j < 8 && addr[j] == 0) {
                j++;
            }
            if (j - i > bestlen) {
                best = i, bestlen = j - i;
            }
            i = j;
        }
        else {
            i++;
        }
    }
    NEED(P, 48);
    P->out[P->len++] = '[';
    for (i = 0; i < 8; i++) {
        if (i == best) {
            P->out[P->len++] = ':';
            if (i == 0) {
                P->out[P->len++] = ':';
            }
            i += bestlen - 1;
            continue;
        }
        P->len += sprintf(P->out + P->len, "%x", addr[i]);
        if (i != 7) {
            P->out[P->len++] = ':';
        }
    }
    P->out[P->len++] = ']';
    return 1;
}

/* §3.5 IPv6 parser on input [a, b) (inside the brackets); writes "[...]" (§3.6). */
static int
ipv6(UrlParser *P, Py_ssize_t a, Py_ssize_t b)
{
    unsigned addr[8] = {0};
    int piece = 0, compress = -1;
    Py_ssize_t p = a;
    if (p < b && C6(p) == ':') {
        if (C6(p + 1) != ':') {
            return url_fail(P, E_V6_COMPRESSION, p);
        }
        p += 2;
        compress = ++piece;
    }
    while (p < b) {
        unsigned value = 0;
        int length = 0;
        if (piece == 8) {
            return url_fail(P, E_V6_MANY, p);
        }
        if (C6(p) == ':') {
            if (compress >= 0) {
                return url_fail(P, E_V6_MULTI, p);
            }
            p++;
            compress = ++piece;
            continue;
        }
        while (length < 4 && p < b && is_hex(C6(p))) {
            value = value * 16 + PE_HEXVAL[C6(p)];
            p++, length++;
        }
        if (p < b && C6(p) == '.') {
            int rc;
            if (length == 0) {
                return url_fail(P, E_V4V6_CP, p);
            }
            if ((rc = ipv6_v4(P, p - length, b, addr, &piece)) != 1) {
                return rc;
            }
            p = b;
            break;
        }
        else if (p < b && C6(p) == ':') {
            p++;
            if (p >= b) {
                return url_fail(P, E_V6_CP, p);
            }
        }
        else if (p < b) {
            return url_fail(P, E_V6_CP, p);
        }
        if (length > 1 && value < (1u << (4 * (length - 1))) &&
            url_validation_error(P, E_V6_ZERO, p - length) < 0) {
            return -1;
        }
        addr[piece++] = value;
    }
    if (compress >= 0) {
        int swaps = piece - compress;
        piece = 7;
        while (piece != 0 && swaps > 0) {
            int j = compress + swaps - 1;
            unsigned t = addr[piece];
            addr[piece] = addr[j];
            addr[j] = t;
            piece--, swaps--;
        }
    }
    else if (piece != 8) {
        return url_fail(P, E_V6_FEW, p);
    }
    return ipv6_write(P, addr);
}
#undef C6

/* The host hook's validation errors ((name, offset) pairs, offsets from a)
 * recorded on P: 1, or 0 for an answer this parser does not know (the caller
 * gives the host up), or -1 with an exception set. */
static int
hook_errors(UrlParser *P, PyObject *errs, Py_ssize_t a)
{
    Py_ssize_t i;
    for (i = 0; i < PyTuple_GET_SIZE(errs); i++) {
        PyObject *e = PyTuple_GET_ITEM(errs, i);
        const char *name;
        Py_ssize_t off;
        int en;
        if (!PyTuple_Check(e) || PyTuple_GET_SIZE(e) != 2 ||
            (name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(e, 0))) == NULL ||
            ((off = PyLong_AsSsize_t(PyTuple_GET_ITEM(e, 1))) == -1 && PyErr_Occurred())) {
            return PyErr_Occurred() ? -1 : 0;
        }
        for (en = 0; en < E_COUNT && strcmp(name, url_error_names[en]) != 0; en++) {
        }
        if (en == E_COUNT) {
            return 0;
        }
        if (url_validation_error(P, en, a + off) < 0) {
            return -1;
        }
    }
    return 1;
}

/* The Python host parser for input [a, b): (serialized host, kind, errors). */
static int
host_from_hook(UrlParser *P, Py_ssize_t a, Py_ssize_t b, int *kind)
{
    PyObject *text, *r, *h, *errs;
    Py_ssize_t hn, i;
    long k;
    /* Any length: the hook's Punycode encoder is O(n log n) (url/_idna.py) */
    if (host_hook == NULL) {
        return 0;
    }
    if (P->nogil) {
        P->need_gil = 1; /* the caller parses the row again with the GIL */
        return 0;
    }
    text = PyUnicode_FromKindAndData(P->kind, (const char *)P->data + a * P->kind, b - a);
    if (text != NULL && P->kind != PyUnicode_1BYTE_KIND) {
        /* a lone surrogate the input kept (url.c) is the USVString's U+FFFD */
        PyObject *usv = url_usv(text, 0);
        Py_DECREF(text);
        text = usv;
    }
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
    if (PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 4) {
        /* (name, offset, errors, None): failure after validation errors,
         * which go first (the setters keep them) */
        errs = PyTuple_GET_ITEM(r, 2);
        if (PyTuple_Check(errs) && (i = hook_errors(P, errs, a)) <= 0) {
            Py_DECREF(r);
            return (int)i;
        }
        if (!PyTuple_Check(errs)) {
            Py_DECREF(r);
            return 0;
        }
    }
    if (PyTuple_Check(r) && (PyTuple_GET_SIZE(r) == 2 || PyTuple_GET_SIZE(r) == 4)) {
        /* (name, offset[, ...]): the host parser returned failure */
        const char *name = PyUnicode_Check(PyTuple_GET_ITEM(r, 0))
                               ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(r, 0))
                               : NULL;
        Py_ssize_t off = PyLong_Check(PyTuple_GET_ITEM(r, 1))
                             ? PyLong_AsSsize_t(PyTuple_GET_ITEM(r, 1))
                             : -1;
        int en = E_COUNT;
        if (name != NULL && off >= 0) {
            for (en = 0; en < E_COUNT && strcmp(name, url_error_names[en]) != 0; en++) {
            }
        }
        Py_DECREF(r);
        if (PyErr_Occurred()) {
            return -1;
        }
        return en == E_COUNT ? 0 : url_fail(P, en, a + off);
    }
    /* (h is assigned before the test: Python 3.10's PyUnicode_IS_ASCII is a
     * macro that casts its argument, so it cannot take an assignment.) */
    h = PyTuple_Check(r) && PyTuple_GET_SIZE(r) == 3 ? PyTuple_GET_ITEM(r, 0) : NULL;
    if (h == NULL || !PyUnicode_Check(h) || !PyUnicode_IS_ASCII(h) ||
        (k = PyLong_AsLong(PyTuple_GET_ITEM(r, 1))) < HOST_DOMAIN || k > HOST_IPV6 ||
        !PyTuple_Check(errs = PyTuple_GET_ITEM(r, 2))) {
        Py_DECREF(r);
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "url host hook: (ascii str, kind, errors) expected");
        }
        return -1;
    }
    if ((i = hook_errors(P, errs, a)) <= 0) {
        Py_DECREF(r);
        return (int)i;
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

static const char FORBIDDEN_HOST[] = "\t\n\r #/:<>?@[\\]^|";

/* ASCII classes for a domain: LDH (what the strict run allows) and the
 * forbidden domain code points (§3.2). */
enum { D_LDH = 1, D_FORBID = 2 };
static uint8_t DCLS[128];
static void dcls_init(void);

/* HFAST[byte]: the class of a byte for host_fast.  HF_UP (0x20) is added to
 * the byte to lower-case it (upper-case ASCII letters only); HF_DOT a label
 * separator; HF_NLDH an ASCII byte that is neither LDH nor a forbidden domain
 * code point (the strict run rejects it: a validation error, the host still
 * parses); HF_STOP anything host_fast leaves to the full path: '%', the
 * forbidden domain code points, non-ASCII; HF_END (with HF_STOP) a byte that
 * ends an open host: ':', '/', '?', '#', '\\'. */
enum { HF_STOP = 1, HF_DOT = 2, HF_NLDH = 4, HF_END = 8, HF_UP = 0x20 };
static uint8_t HFAST[256];

/* The static tables, filled once by url_setup (url_tables_init) before any
 * parse, so the GIL-free column threads only ever read them. */
void
url_host_tables_init(void)
{
    int c;
    if (DCLS['%'] != 0) {
        return;
    }
    dcls_init();
    for (c = 0; c < 256; c++) {
        uint8_t t;
        if (c >= 0x80 || (DCLS[c] & D_FORBID)) {
            t = HF_STOP;
            if (c == ':' || c == '/' || c == '?' || c == '#' || c == '\\') {
                t |= HF_END;
            }
        }
        else if (c >= 'A' && c <= 'Z') {
            t = HF_UP;
        }
        else if (c == '.') {
            t = HF_DOT;
        }
        else {
            t = (DCLS[c] & D_LDH) ? 0 : HF_NLDH;
        }
        HFAST[c] = t;
    }
}

static void
dcls_init(void)
{
    int c;
    for (c = 0; c < 128; c++) {
        DCLS[c] = (uint8_t)(((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') ? D_LDH
                                                                                           : 0);
        if (c <= 0x20 || c == 0x7F || c == '%' || strchr(FORBIDDEN_HOST, c) != NULL) {
            DCLS[c] |= D_FORBID;
        }
    }
    DCLS[0] |= D_FORBID;
}

/* One pass over a lower-case ASCII domain d[0:m): whether a label starts
 * with "xn--" (then url_idna.c has the last word on *strict), *strict (§3.3
 * the strict run accepts its ASCII labels: LDH labels of 1-63, no hyphen
 * first or last, none at 3-4 unless "xn--" (UTS #46 checks those hyphens on
 * the decoded label), at most 253, no final dot) and *forbid (the first
 * forbidden domain code point, or -1). */
static int
domain_scan(const char *d, Py_ssize_t m, int *strict, Py_ssize_t *forbid)
{
    Py_ssize_t body = m, j, lab = 0;
    int ok, xn = 0;
    if (m > 1 && d[m - 1] == '.') {
        body = m - 1;
    }
    /* A final dot leaves an empty root label, which VerifyDnsLength rejects in
     * the strict run: a domain-to-ASCII validation error (URL Standard §3.3,
     * as rewritten in July 2026), though the host itself parses. */
    ok = body > 0 && body <= 253 && body == m;
    *forbid = -1;
    for (j = 0; j <= body; j++) {
        unsigned char c = j < body ? (unsigned char)d[j] : '.';
        if (c == '.') {
            Py_ssize_t len = j - lab;
            int pfx = len >= 4 && d[lab + 2] == '-' && d[lab + 3] == '-';
            if (pfx && d[lab] == 'x' && d[lab + 1] == 'n') {
                xn = 1, pfx = 0;
            }
            if (len == 0 || len > 63 || d[lab] == '-' || d[j - 1] == '-' || pfx) {
                ok = 0;
            }
            lab = j + 1;
            continue;
        }
        if (!(DCLS[c] & D_LDH)) {
            ok = 0;
            if ((DCLS[c] & D_FORBID) && *forbid < 0) {
                *forbid = j;
            }
        }
    }
    *strict = ok;
    return xn;
}

/* The label o[lab:j) that a dot at j ends: 0 with *bad set unless it is 1-63
 * code points with no hyphen first or last (the strict run); 1 for a label
 * with "--" at its third and fourth code points (host_fast leaves those). */
static inline int
label_end(const char *o, Py_ssize_t lab, Py_ssize_t j, int *bad)
{
    Py_ssize_t len = j - lab;
    if (len >= 4 && o[lab + 2] == '-' && o[lab + 3] == '-') {
        return 1;
    }
    *bad |= len == 0 || len > 63 || o[lab] == '-' || o[j - 1] == '-';
    return 0;
}

#if PE_URL_SWAR
/* Eight bytes of a host at u[j], lower-cased into o[j:j+8): how many of them,
 * from the first, are ASCII letters, digits and dots (0-8), the label the
 * first of those dots ends checked (label_end: -1 for host_fast to leave) and
 * *lab after the last.  (A byte from 0x80 up stops the word; the sums of
 * SWAR_IN may carry out of it into the bytes after it, which are then not
 * read: the caller writes each byte from the stop on again.) */
static inline Py_ssize_t
host_word(const Py_UCS1 *u, char *o, Py_ssize_t j, Py_ssize_t *lab, int *bad)
{
    uint64_t w, up, dot, stop;
    Py_ssize_t k, first;
    memcpy(&w, u + j, 8);
    up = SWAR_IN(w, 'A', 'Z');
    dot = SWAR_IN(w, '.', '.');
    stop = (~(SWAR_IN(w, 'a', 'z') | SWAR_IN(w, '0', '9') | up | dot) | w) & SWAR_HIGH;
    w |= up >> 2;
    memcpy(o + j, &w, 8);
    k = stop ? __builtin_ctzll(stop) / 8 : 8;
    if (k < 8) {
        dot &= ((uint64_t)1 << (8 * k)) - 1;
    }
    if (dot) {
        first = j + __builtin_ctzll(dot) / 8;
        if (label_end(o, *lab, first, bad)) {
            return -1;
        }
        /* the labels between this word's dots: letters and digits, 0-6 long */
        *bad |= (dot & (dot << 8)) != 0;
        *lab = j + (63 - __builtin_clzll(dot)) / 8 + 1;
    }
    return k;
}
#endif

/* The common host of a special URL in one pass: a domain of ASCII letters,
 * digits, hyphens and dots (and other ASCII that is neither LDH nor a
 * forbidden domain code point), no '%', no label with "--" at its third and
 * fourth code points (an xn-- label: url_idna.c), not ending in a number.
 * Classifies, lower-cases and writes it into the href at once, eight bytes at
 * a time while they are letters, digits and dots (host_word), with the
 * strict run's verdict (§3.3: domain_scan's rules, from the same bytes) as
 * the one possible validation error.  The host is [a, lim) when end is NULL;
 * else it is open: it ends at the first byte that ends the host state of an
 * authority with no '@' or '[' (§4.4: ':', '/', '?', '#', '\\'), or at lim,
 * and *end is that position.  1 done; 0 leave the host to the full path
 * (nothing written, no error recorded); -1 error. */
static int
host_fast(UrlParser *P, Py_ssize_t a, Py_ssize_t lim, int *kind, Py_ssize_t *end)
{
    const Py_UCS1 *u = (const Py_UCS1 *)P->data + a;
    Py_ssize_t m = lim - a, j = 0, lab = 0, len, body;
    unsigned any = 0;
    int bad = 0;
    char *o;
    if (m == 0) {
        return 0;
    }
    if (P->len + m > P->cap && url_grow(P, m) < 0) {
        return -1;
    }
    o = P->out + P->len;
    while (j < m) {
        unsigned x, t;
#if PE_URL_SWAR
        if (j + 8 <= m) {
            Py_ssize_t k = host_word(u, o, j, &lab, &bad);
            if (k < 0) {
                return 0;
            }
            j += k;
            if (k == 8) {
                continue;
            }
        }
#endif
        x = u[j], t = HFAST[x];
        o[j] = (char)(x + (t & HF_UP));
        if (t & (HF_STOP | HF_DOT | HF_NLDH)) {
            any |= t;
            if (t & HF_STOP) {
                if (end != NULL && (t & HF_END)) {
                    break; /* the open host's end */
                }
                return 0;
            }
            if ((t & HF_DOT) && label_end(o, lab, j, &bad)) {
                return 0;
            }
            lab = (t & HF_DOT) ? j + 1 : lab;
        }
        j++;
    }
    if ((m = j) == 0 || (end != NULL && j == lim - a && lim < P->n)) {
        return 0; /* empty, or an open host longer than the room url_host_lead gave */
    }
    body = m;
    if (o[m - 1] == '.') {
        /* a final dot: the strict run rejects the empty root label */
        bad = 1;
        if (m > 1) {
            body = m - 1;
        }
    }
    else {
        len = m - lab;
        if (len >= 4 && o[lab + 2] == '-' && o[lab + 3] == '-') {
            return 0;
        }
        bad |= len > 63 || o[lab] == '-' || o[m - 1] == '-';
    }
    /* §3.5: a host that ends in a number is the IPv4 parser's: its last
     * label is digits, or "0x" and hex digits, so it ends in a digit, a-f or
     * 'x' (lower case here); only then is that label read again */
    len = (unsigned char)o[body - 1];
    if ((len <= '9' || (len >= 'a' && len <= 'f') || len == 'x') && ends_in_number(o, m)) {
        return 0;
    }
    if ((bad || (any & HF_NLDH) || body > 253) && url_validation_error(P, E_DOMAIN, a) < 0) {
        return -1;
    }
    P->len += m;
    *kind = HOST_DOMAIN;
    if (end != NULL) {
        *end = a + m;
    }
    return 1;
}

/* The host state of a special URL's authority from a (one-byte input), when
 * host_fast takes its host: 1 with the host written and *end where the host
 * state stops (a ':' or the authority's end: the caller checks that the
 * authority has no '@'); 0 for the full path, nothing written; -1 error. */
int
url_host_lead(UrlParser *P, Py_ssize_t a, int *kind, Py_ssize_t *end)
{
    /* the host must end within the output's room: a longer one (rare) takes
     * the full path, so a long URL's output is not grown here for its path */
    Py_ssize_t lim = P->n - a < P->cap - P->len ? P->n : a + (P->cap - P->len);
    return P->kind == PyUnicode_1BYTE_KIND ? host_fast(P, a, lim, kind, end) : 0;
}

int
url_host(UrlParser *P, Py_ssize_t a, Py_ssize_t b, int special, int *kind)
{
    Py_ssize_t j, m = 0, forbid, from = a;
    char stack[256], *d = stack;
    int rc, pct = 0, strict;
    Py_UCS4 c;
    if (a < b && CH(P, a) == '[') {
        if (b - a < 2 || CH(P, b - 1) != ']') {
            return url_fail(P, E_V6_UNCLOSED, a);
        }
        *kind = HOST_IPV6;
        return ipv6(P, a + 1, b - 1);
    }
    if (!special) {
        /* §3.5 opaque-host parser */
        for (j = a; j < b; j++) {
            c = CH(P, j);
            if (c == 0 || (c < 0x80 && strchr(FORBIDDEN_HOST, (int)c) != NULL)) {
                return url_fail(P, E_HOST_CP, j);
            }
        }
        *kind = a == b ? HOST_EMPTY : HOST_DOMAIN;
        return url_encode_run(P, a, b, PE_URL_C0, 1);
    }
    if (P->kind == PyUnicode_1BYTE_KIND && (rc = host_fast(P, a, b, kind, NULL)) != 0) {
        return rc;
    }
    if (b - a > (Py_ssize_t)sizeof(stack) && (d = PyMem_RawMalloc((size_t)(b - a))) == NULL) {
        if (P->nogil) {
            P->nomem = 1;
        }
        else {
            PyErr_NoMemory();
        }
        return -1;
    }
    /* percent-decode and lower-case; anything non-ASCII goes to the hook */
    if (P->kind == PyUnicode_1BYTE_KIND) {
        /* the common case: no '%', no upper case, ASCII */
        const Py_UCS1 *u = (const Py_UCS1 *)P->data + a;
        for (j = 0; j < b - a; j++) {
            Py_UCS1 x = u[j];
            if (x >= 0x80 || x == '%' || (x >= 'A' && x <= 'Z')) {
                break;
            }
            d[j] = (char)x;
        }
        m = j;
        from = a + j;
    }
    for (j = from; j < b; j++) {
        c = CH(P, j);
        if (c >= 0x80) {
            rc = 3;
            goto done;
        }
        if (c == '%' && j + 2 < b && is_hex(CH(P, j + 1)) && is_hex(CH(P, j + 2))) {
            c = PE_HEXVAL[CH(P, j + 1)] * 16 + PE_HEXVAL[CH(P, j + 2)];
            if (c >= 0x80) {
                rc = 3;
                goto done;
            }
            pct = 1;
            j += 2;
        }
        d[m++] = (char)((c >= 'A' && c <= 'Z') ? c + 32 : c);
    }
    if (domain_scan(d, m, &strict, &forbid) && strict) {
        /* an xn-- label: Punycode, UTS #46 validity and Bidi (url_idna.c) */
        strict = url_idna_strict(P, d, m);
        if (strict < 0) {
            rc = strict == -1 ? -1 : 3;
            goto done;
        }
    }
    if (pct && url_validation_error(P, E_DOMAIN_PCT, a) < 0) {
        rc = -1;
        goto done;
    }
    if (!strict && url_validation_error(P, E_DOMAIN, a) < 0) {
        rc = -1;
        goto done;
    }
    if (m == 0) {
        rc = url_fail(P, E_DOMAIN, a);
        goto done;
    }
    if (forbid >= 0 || (m > 1 && (DCLS[(unsigned char)d[m - 1]] & D_FORBID))) {
        rc = url_fail(P, E_DOMAIN_CP, a + (forbid >= 0 ? forbid : m - 1));
        goto done;
    }
    if (ends_in_number(d, m)) {
        *kind = HOST_IPV4;
        rc = ipv4(P, d, m, a);
        goto done;
    }
    if (P->len + m > P->cap && url_grow(P, m) < 0) {
        rc = -1;
        goto done;
    }
    memcpy(P->out + P->len, d, (size_t)m);
    P->len += m;
    *kind = HOST_DOMAIN;
    rc = 1;
done:
    if (d != stack) {
        PyMem_RawFree(d);
    }
    if (rc == 3) {
        rc = host_from_hook(P, a, b, kind);
    }
    return rc;
}
