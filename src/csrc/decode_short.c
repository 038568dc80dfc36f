/* decode_text: the one-pass decoder for short input, and the entry point. */
#include "kernels.h"

#define BAD_CP 0xFFFFFFFFu

typedef struct {
    Py_ssize_t i;   /* input position */
    Py_ssize_t len; /* code points written */
    Py_UCS4 hi;     /* kind 1: OR of the code points; FUSED_WIDER: the one that did not fit */
    int plus_seen;  /* a '+' became a space */
} Fused;

/* Whether p[i:i+3] is an escape of a UTF-8 continuation byte (80..BF), *w
 * its value.  hex_pair's 0x100 for bad hex digits fails the mask too. */
static inline int
cont_escape(const uint8_t *p, Py_ssize_t i, Py_ssize_t last, unsigned *w)
{
    return i < last && p[i] == '%' && ((*w = hex_pair(p + i + 1)) & 0x1C0) == 0x80;
}

/* The code point of a UTF-8 sequence spelled by escapes: v (0x80 or more) is
 * its lead byte, from the escape just before p[*pi], and *pi moves past the
 * continuation escapes.  BAD_CP when it is not valid UTF-8: the Encoding
 * Standard's UTF-8 decoder bounds (no overlong forms, surrogates, or values
 * above U+10FFFF; the second byte's range depends on the lead). */
static inline Py_UCS4
escaped_utf8(const uint8_t *p, Py_ssize_t *pi, Py_ssize_t last, unsigned v)
{
    Py_ssize_t i = *pi;
    unsigned b1, b2, b3;
    if (v < 0xC2 || v > 0xF4 || !cont_escape(p, i, last, &b1)) {
        return BAD_CP;
    }
    if (v < 0xE0) {
        *pi = i + 3;
        return (v & 0x1F) << 6 | (b1 & 0x3F);
    }
    if ((v == 0xE0 && b1 < 0xA0) || (v == 0xED && b1 > 0x9F) || (v == 0xF0 && b1 < 0x90) ||
        (v == 0xF4 && b1 > 0x8F) || !cont_escape(p, i + 3, last, &b2)) {
        return BAD_CP;
    }
    if (v < 0xF0) {
        *pi = i + 6;
        return (v & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F);
    }
    if (!cont_escape(p, i + 6, last, &b3)) {
        return BAD_CP;
    }
    *pi = i + 9;
    return (v & 0x07) << 18 | (b1 & 0x3F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F);
}

/* Index of the first '%', '+' (when plus) or byte above 0x7F in p[0:n], or
 * n; the bytes before it are copied to o (room for n bytes). */
static inline Py_ssize_t
plain_prefix(const uint8_t *p, Py_ssize_t n, int plus, Py_UCS1 *o)
{
    Py_ssize_t i = 0;
    Py_UCS1 *q = o;
    plain_run_1(p, n, plus, 1, &i, &q);
    for (; i < n && p[i] != '%' && !(plus && p[i] == '+') && p[i] < 0x80; i++) {
        o[i] = p[i];
    }
    return i;
}

/* One pass of the short decoder writing kind K from st->i, st->len on; o has
 * room for n code points (never more than one per input byte). */
#define DEFINE_FUSED(K, T, MAXCP)                                                          \
    static int fused_##K(const uint8_t *p, Py_ssize_t n, T *o0, int plus, int strict,      \
                         Fused *st)                                                        \
    {                                                                                      \
        Py_ssize_t i = st->i, last = n - 2;                                                \
        T *o = o0 + st->len;                                                               \
        Py_UCS4 v, hi = st->hi;                                                            \
        int rc = FUSED_DONE;                                                               \
        while (i < n) {                                                                    \
            unsigned c = p[i];                                                             \
            if (c == '%') {                                                                \
                if (i < last && (v = hex_pair(p + i + 1)) < 0x100) {                       \
                    Py_ssize_t at = i;                                                     \
                    i += 3;                                                                \
                    if (v >= 0x80) {                                                       \
                        if ((v = escaped_utf8(p, &i, last, v)) == BAD_CP) {                \
                            return FUSED_GENERAL;                                          \
                        }                                                                  \
                        if (v > (MAXCP)) {                                                 \
                            i = at;                                                        \
                            hi = v;                                                        \
                            rc = FUSED_WIDER;                                              \
                            break;                                                         \
                        }                                                                  \
                        if (K == 1) {                                                      \
                            hi |= v;                                                       \
                        }                                                                  \
                    }                                                                      \
                    *o++ = (T)v;                                                           \
                    continue;                                                              \
                }                                                                          \
                if (strict) {                                                              \
                    rc = FUSED_BAD_PERCENT;                                                \
                    break;                                                                 \
                }                                                                          \
                *o++ = '%';                                                                \
                i++;                                                                       \
                continue;                                                                  \
            }                                                                              \
            if (c >= 0x80) {                                                               \
                return FUSED_GENERAL;                                                      \
            }                                                                              \
            if (c == '+' && plus) {                                                        \
                c = ' ';                                                                   \
                st->plus_seen = 1;                                                         \
            }                                                                              \
            *o++ = (T)c;                                                                   \
            i++;                                                                           \
            /* Then 8 at a time while the bytes stay plain. */                             \
            plain_run_##K(p, n, plus, 1, &i, &o);                                          \
        }                                                                                  \
        st->i = i;                                                                         \
        st->len = o - o0;                                                                  \
        st->hi = hi;                                                                       \
        return rc;                                                                         \
    }

DEFINE_FUSED(1, Py_UCS1, 0xFFu)
DEFINE_FUSED(2, Py_UCS2, 0xFFFFu)
DEFINE_FUSED(4, Py_UCS4, 0x10FFFFu)

/* Widen the first len code points of buf from kind `from` to kind `to`, in
 * place: from the end backwards, so no element is overwritten before it is
 * read (element j moves from byte from*j to byte to*j, never lower). */
static void
widen_in_place(void *buf, Py_ssize_t len, int from, int to)
{
    Py_ssize_t j;
    for (j = len - 1; j >= 0; j--) {
        Py_UCS4 c = from == 1 ? ((Py_UCS1 *)buf)[j] : ((Py_UCS2 *)buf)[j];
        if (to == 2) {
            ((Py_UCS2 *)buf)[j] = (Py_UCS2)c;
        }
        else {
            ((Py_UCS4 *)buf)[j] = c;
        }
    }
}

/* Decode p[0:n] (n <= FUSED_MAX; ASCII str buffer or bytes) to a str in one
 * pass.  `same`, when given, is the str to return when decoding changes
 * nothing.  NULL with *rc FUSED_GENERAL: the general path must decide;
 * FUSED_BAD_PERCENT: strict, and the '%' at *bad starts no %XX; otherwise
 * an exception is set. */
PyObject *
decode_short(const uint8_t *p, Py_ssize_t n, int plus, int strict, PyObject *same, int *rc,
             Py_ssize_t *bad)
{
    union {
        Py_UCS4 u4[FUSED_MAX];
        Py_UCS2 u2[FUSED_MAX];
        Py_UCS1 u1[FUSED_MAX];
    } buf;
    Fused st = {0, 0, 0, 0};
    int kind = 1;
    Py_UCS4 maxchar;
    PyObject *r;
    /* The plain prefix is copied as is; none at all: the input is the answer
     * (the check after the pass would say so too, a few ns later). */
    st.i = st.len = plain_prefix(p, n, plus, buf.u1);
    if (st.i == n && same != NULL) {
        Py_INCREF(same);
        return same;
    }
    *rc = fused_1(p, n, buf.u1, plus, strict, &st);
    if (*rc == FUSED_WIDER && st.hi <= 0xFFFF) {
        widen_in_place(&buf, st.len, 1, 2);
        kind = 2;
        *rc = fused_2(p, n, buf.u2, plus, strict, &st);
    }
    if (*rc == FUSED_WIDER) {
        widen_in_place(&buf, st.len, kind, 4);
        kind = 4;
        *rc = fused_4(p, n, buf.u4, plus, strict, &st);
    }
    if (*rc != FUSED_DONE) {
        *bad = st.i;
        return NULL;
    }
    if (st.len == n && same != NULL && !st.plus_seen) {
        /* nothing was decoded: the input itself, as the general path does */
        Py_INCREF(same);
        return same;
    }
    maxchar = kind == 1 ? st.hi : kind == 2 ? 0xFFFF : 0x10FFFF;
    r = PyUnicode_New(st.len, maxchar);
    if (r != NULL) {
        memcpy(PyUnicode_DATA(r), &buf, (size_t)(st.len * kind));
    }
    return r;
}


PyObject *
pe_decode_text(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"data", "plus_as_space", "strict", "utf8_strict"};
    PyObject *a[4];
    int f[3];
    (void)self;
    if (parse_args("decode_text", args, nargs, kwnames, names, 4, a) < 0 ||
        get_flags(a + 1, 3, f) < 0) {
        return NULL;
    }
    return decode_text_obj(a[0], f);
}

/* f: plus_as_space, strict, utf8_strict */
/* A UCS-2 str (Japanese, Chinese, ... text with escapes) in one pass, code
 * points in and code points out: URL Standard §1.3 percent-decode and the
 * Encoding Standard's UTF-8 decoder fused, as decode_short does for bytes,
 * without the round trip through a UTF-8 buffer.  Plain characters are
 * copied; escapes spelling valid UTF-8 of U+0000..U+FFFF become their code
 * point.  Anything else (a lone surrogate, escapes that are not valid UTF-8
 * or spell an astral code point, a bad '%' when strict, a result that would
 * be Latin-1) returns NULL with *general set: the general path decides. */
static inline unsigned
hex_at2(const Py_UCS2 *p)
{
    Py_UCS2 a = p[0], b = p[1];
    unsigned x, y;
    if ((a | b) >= 0x80) {
        return 0x100;
    }
    x = PE_HEXVAL[a];
    y = PE_HEXVAL[b];
    return (x | y) == 0xFF ? 0x100 : x << 4 | y;
}

static inline int
cont_escape2(const Py_UCS2 *p, Py_ssize_t i, Py_ssize_t n, unsigned *w)
{
    return i + 2 < n && p[i] == '%' && ((*w = hex_at2(p + i + 1)) & 0x1C0) == 0x80;
}

static PyObject *
decode_wide2(const Py_UCS2 *p, Py_ssize_t n, int plus, int strict, int *general)
{
    PyObject *r = PyUnicode_New(n, 0xFFFF);
    Py_UCS2 *o, *start;
    Py_ssize_t i = 0;
    unsigned hi = 0;
    if (r == NULL) {
        return NULL;
    }
    o = start = PyUnicode_2BYTE_DATA(r);
    while (i < n) {
        Py_UCS2 c = p[i];
        if (c == '%') {
            unsigned v, b1, b2;
            if (i + 2 < n && (v = hex_at2(p + i + 1)) < 0x100) {
                i += 3;
                if (v < 0x80) {
                    *o++ = (Py_UCS2)v;
                    continue;
                }
                if (v < 0xC2 || v > 0xEF || !cont_escape2(p, i, n, &b1)) {
                    goto general;
                }
                if (v < 0xE0) {
                    c = (Py_UCS2)((v & 0x1F) << 6 | (b1 & 0x3F));
                    i += 3;
                }
                else {
                    if ((v == 0xE0 && b1 < 0xA0) || (v == 0xED && b1 > 0x9F) ||
                        !cont_escape2(p, i + 3, n, &b2)) {
                        goto general;
                    }
                    c = (Py_UCS2)((v & 0x0F) << 12 | (b1 & 0x3F) << 6 | (b2 & 0x3F));
                    i += 6;
                }
                hi |= c;
                *o++ = c;
                continue;
            }
            if (strict) {
                goto general;
            }
        }
        else if (c == '+' && plus) {
            c = ' ';
        }
        else if (Py_UNICODE_IS_SURROGATE(c)) {
            goto general;
        }
        hi |= c;
        *o++ = c;
        i++;
    }
    if (hi < 0x100) {
        goto general; /* the result is Latin-1: its canonical str is 1 byte a character */
    }
    if (o - start != n && PyUnicode_Resize(&r, o - start) < 0) {
        return NULL;
    }
    return r;
general:
    Py_DECREF(r);
    *general = 1;
    return NULL;
}

PyObject *
decode_text_obj(PyObject *data, const int *f)
{
    PyObject *r;
    Src s;
    U8Stats st;
    Py_ssize_t cap, len;
    uint8_t stackbuf[512], *buf;
    if (get_src(data, &s) < 0) {
        return NULL;
    }
    if (s.kind == 0 && s.n <= FUSED_MAX) {
        int rc = FUSED_DONE;
        Py_ssize_t bad = 0;
        r = decode_short((const uint8_t *)s.data, s.n, f[0], f[1], s.is_str ? data : NULL, &rc,
                         &bad);
        if (rc == FUSED_BAD_PERCENT) {
            raise_bad_percent(&s, bad);
            return NULL;
        }
        if (rc != FUSED_GENERAL) {
            return r;
        }
    }
    if (nothing_to_decode(&s, f[0])) {
        if (!s.is_str) {
            return utf8_text((const char *)s.data, s.n, f[2], NULL);
        }
        if (str_has_surrogate(data)) {
            return raise_utf8_encode_error(data);
        }
        Py_INCREF(data);
        return data;
    }
    if (s.kind == PyUnicode_2BYTE_KIND) {
        int general = 0;
        r = decode_wide2((const Py_UCS2 *)s.data, s.n, f[0], f[1], &general);
        if (!general) {
            return r;
        }
    }
    if (s.kind == 0 && !f[1] && pe_blocks_ok && pe_block_decoder != NULL &&
        s.n >= PE_BLOCKS_MIN) {
        /* Long bytes or ASCII text, lenient about a bad '%': the Arrow kernels'
         * AVX2 block decoder (arrow_simd.c, through the
         * pe_block_decoder hook) gives the same bytes as decode_u8,
         * 32 input bytes at a time; the UTF-8 decode below checks them. */
        int check = 1;
        buf = PyMem_Malloc((size_t)s.n + PE_BLOCKS_SLACK);
        if (buf == NULL) {
            return PyErr_NoMemory();
        }
        len = (Py_ssize_t)pe_block_decoder((const uint8_t *)s.data, s.n, s.n, buf, f[0],
                                           &check, 0); /* ASCII, or bytes checked below */
        if (!check && s.is_str) {
            /* ASCII text whose escapes the block decoder found to spell whole
             * UTF-8 sequences: valid UTF-8, no check needed. */
            r = utf8_checked_to_str(buf, len);
        }
        else {
            r = utf8_text((const char *)buf, len, f[2], NULL);
        }
        PyMem_Free(buf);
        return r;
    }
    if ((cap = decode_capacity(&s)) < 0) {
        return NULL;
    }
    if (cap <= (Py_ssize_t)sizeof(stackbuf)) {
        buf = stackbuf;
    }
    else if ((buf = PyMem_Malloc((size_t)cap)) == NULL) {
        return PyErr_NoMemory();
    }
    len = decode_into(&s, buf, f[0], f[1], &st);
    r = len < 0 ? NULL : utf8_text((const char *)buf, len, f[2], &st);
    if (buf != stackbuf) {
        PyMem_Free(buf);
    }
    return r;
}
