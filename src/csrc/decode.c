/* Decode (URL Standard §1.3 percent-decode) and UTF-8 decode without BOM
 * (Encoding Standard §8.1.1): the general path, any length, any str kind. */
#include "kernels.h"

/* ------------------------------------------------------------------------ */
/* Decode (URL Standard §1.3 percent-decode).                               */

/* hex2[two bytes cd, as a native uint16] is the byte %cd stands for, or
 * 0x100 when c or d is not a hex digit: one load and one lookup per escape.
 * 128 KB, of which the 22 x 22 hex pairs touch a few dozen cache lines.
 * Filled from PE_HEXVAL at module init. */
uint16_t hex2[65536];

void
fill_hex_pairs(void)
{
    int a, b;
    for (a = 0; a < 65536; a++) {
        hex2[a] = 0x100;
    }
    for (a = 0; a < 256; a++) {
        for (b = 0; b < 256; b++) {
            if (PE_HEXVAL[a] != 0xFF && PE_HEXVAL[b] != 0xFF) {
                uint8_t pair[2] = {(uint8_t)a, (uint8_t)b};
                uint16_t k;
                memcpy(&k, pair, 2);
                hex2[k] = (uint16_t)(PE_HEXVAL[a] << 4 | PE_HEXVAL[b]);
            }
        }
    }
}

/* The byte the hex digits q[0], q[1] stand for, or 0x100. */

/* Decode p[0:n] (bytes, or an ASCII str's buffer) into o, which has room for
 * n bytes.  Returns the length written, or -1 when `strict` and p[*bad] is a
 * '%' that does not start %XX.  *st says whether the bytes that came from
 * %XX escapes are all ASCII (mx 0) or not (U8_UNKNOWN): when p is ASCII and
 * so are they, the UTF-8 decode that follows needs no scan of its own. */
Py_ssize_t
decode_u8(const uint8_t *p, Py_ssize_t n, uint8_t *o, int plus, int strict, Py_ssize_t *bad,
          U8Stats *st)
{
    uint8_t *start = o;
    Py_ssize_t i = 0, last = n - 2; /* a %XX can start below `last` */
    unsigned high = 0, v;
    while (i < n) {
        uint8_t c = p[i];
        if (c == '%') {
            /* hex_pair is the byte, or above 0xFF when either digit is not
             * hex: one test covers both. */
            if (i < last && (v = hex_pair(p + i + 1)) < 0x100) {
                *o++ = (uint8_t)v;
                high |= v;
                i += 3;
                /* Escapes come in runs (every byte of non-ASCII text). */
                while (i < last && p[i] == '%' &&
                       (v = hex_pair(p + i + 1)) < 0x100) {
                    *o++ = (uint8_t)v;
                    high |= v;
                    i += 3;
                }
                continue;
            }
            if (strict) {
                *bad = i;
                return -1;
            }
            *o++ = '%';
            i++;
            continue;
        }
        *o++ = (c == '+' && plus) ? ' ' : c;
        i++;
        /* After an ordinary byte, copy 8 at a time up to the next '%' (or
         * '+'): o never runs ahead of p, so the n-byte output has room. */
        plain_run_1(p, n, plus, 0, &i, &o);
    }
    /* Only an all-ASCII result is worth recording: keeping the largest byte
     * and a count here costs more, on escape-heavy input, than the
     * vectorized scan does. */
    st->mx = high < 0x80 ? 0 : U8_UNKNOWN;
    st->cont = 0;
    return o - start;
}

/* Decode a non-ASCII str, UTF-8 encoding it on the way (the spec's "UTF-8
 * encode, then percent-decode" in one pass).  o has room for
 * n * (bytes per code point, worst case).  Returns the length, -1 for a bad
 * '%' at code point *bad (strict), -2 at a lone surrogate. */
#define DEFINE_DECODE_WIDE(K, T)                                                             \
    static Py_ssize_t decode_##K(const T *p, Py_ssize_t n, uint8_t *o, int plus, int strict, \
                                 Py_ssize_t *bad)                                            \
    {                                                                                        \
        uint8_t *start = o;                                                                  \
        Py_ssize_t i;                                                                        \
        for (i = 0; i < n; i++) {                                                            \
            Py_UCS4 c = p[i];                                                                \
            if (c < 0x80) {                                                                  \
                if (c == '%') {                                                              \
                    Py_UCS4 a, b;                                                            \
                    if (i + 2 < n && (a = p[i + 1]) < 0x80 && PE_HEXVAL[a] != 0xFF &&        \
                        (b = p[i + 2]) < 0x80 && PE_HEXVAL[b] != 0xFF) {                     \
                        *o++ = (uint8_t)(PE_HEXVAL[a] << 4 | PE_HEXVAL[b]);                  \
                        i += 2;                                                              \
                        continue;                                                            \
                    }                                                                        \
                    if (strict) {                                                            \
                        *bad = i;                                                            \
                        return -1;                                                           \
                    }                                                                        \
                }                                                                            \
                else if (c == '+' && plus) {                                                 \
                    c = ' ';                                                                 \
                }                                                                            \
                *o++ = (uint8_t)c;                                                           \
            }                                                                                \
            else if (c < 0x800) {                                                            \
                o[0] = (uint8_t)(0xC0 | (c >> 6));                                           \
                o[1] = (uint8_t)(0x80 | (c & 0x3F));                                         \
                o += 2;                                                                      \
            }                                                                                \
            else if (c < 0x10000) {                                                          \
                if (Py_UNICODE_IS_SURROGATE(c)) {                                            \
                    return -2;                                                               \
                }                                                                            \
                o[0] = (uint8_t)(0xE0 | (c >> 12));                                          \
                o[1] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));                                  \
                o[2] = (uint8_t)(0x80 | (c & 0x3F));                                         \
                o += 3;                                                                      \
            }                                                                                \
            else {                                                                           \
                o[0] = (uint8_t)(0xF0 | (c >> 18));                                          \
                o[1] = (uint8_t)(0x80 | ((c >> 12) & 0x3F));                                 \
                o[2] = (uint8_t)(0x80 | ((c >> 6) & 0x3F));                                  \
                o[3] = (uint8_t)(0x80 | (c & 0x3F));                                         \
                o += 4;                                                                      \
            }                                                                                \
        }                                                                                    \
        return o - start;                                                                    \
    }

DEFINE_DECODE_WIDE(1, Py_UCS1)
DEFINE_DECODE_WIDE(2, Py_UCS2)
DEFINE_DECODE_WIDE(4, Py_UCS4)

/* The input of decode/decode_text, seen as bytes or as code points. */




void
raise_bad_percent(const Src *s, Py_ssize_t pos)
{
    Py_ssize_t end = pos + 3 < s->n ? pos + 3 : s->n;
    PyObject *snippet, *msg, *exc;
    if (s->is_str) {
        snippet = PyUnicode_Substring(s->obj, pos, end);
    }
    else {
        snippet = PyBytes_FromStringAndSize((const char *)s->data + pos, end - pos);
    }
    if (snippet == NULL) {
        return;
    }
    msg = PyUnicode_FromFormat("invalid percent-encoding %R at position %zd: '%%' must be "
                               "followed by two hex digits (encode a literal '%%' as %%25)",
                               snippet, pos);
    Py_DECREF(snippet);
    if (msg == NULL) {
        return;
    }
    exc = PyObject_CallFunction(PercentDecodeError, "On", msg, pos);
    Py_DECREF(msg);
    if (exc != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(exc), exc);
        Py_DECREF(exc);
    }
}

/* Decode s into o (room for decode_capacity(s) bytes).  Returns the length,
 * or -1 with an exception set, raised in the pure twin's order: a lone
 * surrogate anywhere (UTF-8 encoding comes first) before a bad '%'. */
Py_ssize_t
decode_into(const Src *s, uint8_t *o, int plus, int strict, U8Stats *st)
{
    Py_ssize_t len, bad = 0;
    st->mx = U8_UNKNOWN;
    switch (s->kind) {
    case 0:
        len = decode_u8((const uint8_t *)s->data, s->n, o, plus, strict, &bad, st);
        if (!s->is_str) {
            st->mx = U8_UNKNOWN; /* raw bytes above 0x7F were not counted */
        }
        break;
    case PyUnicode_1BYTE_KIND:
        len = decode_1((const Py_UCS1 *)s->data, s->n, o, plus, strict, &bad);
        break;
    case PyUnicode_2BYTE_KIND:
        len = decode_2((const Py_UCS2 *)s->data, s->n, o, plus, strict, &bad);
        break;
    default:
        len = decode_4((const Py_UCS4 *)s->data, s->n, o, plus, strict, &bad);
        break;
    }
    if (len == -2 || (len == -1 && s->kind != 0 && str_has_surrogate(s->obj))) {
        raise_utf8_encode_error(s->obj);
        return -1;
    }
    if (len == -1) {
        raise_bad_percent(s, bad);
    }
    return len;
}


PyObject *
pe_decode(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"data", "plus_as_space", "strict"};
    PyObject *a[3], *r;
    int f[2];
    Src s;
    U8Stats st;
    Py_ssize_t cap, len;
    (void)self;
    if (parse_args("decode", args, nargs, kwnames, names, 3, a) < 0 || get_flags(a + 1, 2, f) < 0 ||
        get_src(a[0], &s) < 0) {
        return NULL;
    }
    if (s.kind == 0 && nothing_to_decode(&s, f[0])) {
        if (!s.is_str) {
            Py_INCREF(a[0]);
            return a[0];
        }
        return PyBytes_FromStringAndSize((const char *)s.data, s.n);
    }
    if ((cap = decode_capacity(&s)) < 0) {
        return NULL;
    }
    r = PyBytes_FromStringAndSize(NULL, cap);
    if (r == NULL) {
        return NULL;
    }
    len = decode_into(&s, (uint8_t *)PyBytes_AS_STRING(r), f[0], f[1], &st);
    if (len < 0) {
        Py_DECREF(r);
        return NULL;
    }
    if (len != cap && _PyBytes_Resize(&r, len) < 0) {
        return NULL;
    }
    return r;
}

/* Short input in one pass (decode_text, and form names and values): URL
 * Standard §1.3 percent-decode and Encoding Standard §8.1.1 UTF-8 decode
 * fused.  A byte buffer (an ASCII str, or bytes) of up to FUSED_MAX bytes is
 * decoded straight into code points: the
 * UTF-8 that escapes spell is put together as the escapes come, which skips
 * the stats scan and the second pass of utf8_valid_to_str.  The pass writes
 * Latin-1 while it can and widens what it wrote (in place) when a code point
 * needs 2 or 4 bytes, so the str comes out in its canonical kind.  Anything
 * unusual (a raw byte above 0x7F, or UTF-8 that is not valid, whose U+FFFD
 * or error is the general path's business) hands the whole input back to the
 * general path, which has the last word on every result. */

/* Whether p[0:n] is all valid UTF-8: utf8_valid_prefix's sequence rules
 * without its 8-byte ASCII skip, inlined for the short runs of decoded
 * escapes (mostly one character of 2 to 4 bytes). */
static inline int
utf8_whole(const uint8_t *p, int64_t n)
{
    int64_t i = 0;
    while (i < n) {
        unsigned c = p[i], b1;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c < 0xE0) {
            if (c < 0xC2 || i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) {
                return 0;
            }
            i += 2;
            continue;
        }
        if (c < 0xF0) {
            if (i + 2 >= n) {
                return 0;
            }
            b1 = p[i + 1];
            if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (c == 0xE0 && b1 < 0xA0) ||
                (c == 0xED && b1 > 0x9F)) {
                return 0;
            }
            i += 3;
            continue;
        }
        if (c > 0xF4 || i + 3 >= n) {
            return 0;
        }
        b1 = p[i + 1];
        if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (p[i + 3] & 0xC0) != 0x80 ||
            (c == 0xF0 && b1 < 0x90) || (c == 0xF4 && b1 > 0x8F)) {
            return 0;
        }
        i += 4;
    }
    return 1;
}

/* decode_u8 (URL Standard §1.3 percent-decode) for a row of a string column,
 * which the Arrow format requires to be UTF-8: its raw bytes are whole UTF-8
 * sequences and '%' and '+' are ASCII, so the result is UTF-8 exactly when
 * every run of consecutive %XX escapes is UTF-8 by itself (a run cannot end
 * inside a raw sequence, nor a raw continuation byte follow it).  Checking
 * those runs here, while they are in cache, saves scanning the whole result;
 * *utf8 says whether it is UTF-8. */
int64_t
decode_utf8_row(const uint8_t *p, int64_t n, int64_t avail, uint8_t *o, int plus, int *utf8)
{
    uint8_t *start = o;
    Py_ssize_t i = 0, last = (Py_ssize_t)n - 2; /* a %XX can start below `last` */
    unsigned v;
    int ok = 1;
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i pct = _mm_set1_epi8('%'), pls = _mm_set1_epi8('+');
#endif
    while (i < n) {
        uint8_t c = p[i];
        if (c == '%') {
            if (i < last && (v = hex_pair(p + i + 1)) < 0x100) {
                uint8_t *run = o;
                unsigned high = v;
                *o++ = (uint8_t)v;
                i += 3;
                while (i < last && p[i] == '%' && (v = hex_pair(p + i + 1)) < 0x100) {
                    *o++ = (uint8_t)v;
                    high |= v;
                    i += 3;
                }
                if (high >= 0x80 && ok && !utf8_whole(run, o - run)) {
                    ok = 0;
                }
                continue;
            }
            *o++ = '%';
            i++;
            continue;
        }
        *o++ = (c == '+' && plus) ? ' ' : c;
        i++;
#if defined(__SSE2__) && defined(__GNUC__)
        /* The plain run, 16 bytes at a time: a load may reach past the row
         * (never past `avail`, the bytes readable from p) and a store past
         * its output (the caller leaves 16 bytes of room); only the bytes
         * before the first '%' ('+' when plus), or the row's end, count. */
        if (i + 16 <= avail) {
            for (;;) {
                __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
                unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(w, pct));
                unsigned k;
                if (plus) {
                    m |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(w, pls));
                }
                _mm_storeu_si128((__m128i *)(void *)o, w);
                if (n - i < 16) {
                    m |= 1u << (n - i); /* the row ends there */
                }
                k = (unsigned)__builtin_ctz(m | 0x10000u);
                o += k;
                i += k;
                if (k < 16) {
                    goto next; /* at a '%', a '+' (when plus) or the row's end */
                }
                if (i + 16 > avail) {
                    break;
                }
            }
        }
#endif
        plain_run_1(p, (Py_ssize_t)n, plus, 0, &i, &o);
#if defined(__SSE2__) && defined(__GNUC__)
    next:;
#endif
    }
    *utf8 = ok;
    return o - start;
}
