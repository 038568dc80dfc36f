/* Decode (URL Standard §1.3 percent-decode) and UTF-8 decode without BOM
 * (Encoding Standard §8.1.1): the general path, any length, any str kind. */
#include "speedups.h"

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

/* UTF-8 to str, straight into a str of the right kind.  A first pass (which
 * the compiler vectorizes) finds the largest byte, which fixes the kind, and
 * counts the bytes that start a character; a second pass validates strictly
 * (no overlong forms, surrogates, values above U+10FFFF or truncation) while
 * it writes.  Invalid input returns NULL with no exception set, and the
 * caller falls back to CPython's decoder with its error handler, so invalid
 * input gets exactly Python's treatment.  For short pieces this is much
 * cheaper than PyUnicode_DecodeUTF8 (no over-allocated writer to shrink). */
/* Index of the first byte of w (in memory order) with its high bit set, 8 if none. */
static inline int
first_high_byte(uint64_t w)
{
    uint64_t h = w & 0x8080808080808080ULL;
#ifdef PE_SWAR
    return h ? __builtin_ctzll(h) >> 3 : 8;
#else
    unsigned char b[8];
    int k;
    memcpy(b, &w, 8);
    for (k = 0; k < 8 && b[k] < 0x80; k++) {
    }
    (void)h;
    return k;
#endif
}

#if defined(__SSE2__) && defined(__GNUC__)
/* 16 bytes at p widened to code points at o (room for 16); returns how many
 * come before the first byte above 0x7F (16 if none): those are the ASCII
 * run's, the others are overwritten later. */
static inline int
ascii16_1(const uint8_t *p, Py_UCS1 *o)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
    unsigned m = (unsigned)_mm_movemask_epi8(v);
    _mm_storeu_si128((__m128i *)(void *)o, v);
    return m ? __builtin_ctz(m) : 16;
}

static inline int
ascii16_2(const uint8_t *p, Py_UCS2 *o)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p), z = _mm_setzero_si128();
    unsigned m = (unsigned)_mm_movemask_epi8(v);
    _mm_storeu_si128((__m128i *)(void *)o, _mm_unpacklo_epi8(v, z));
    _mm_storeu_si128((__m128i *)(void *)(o + 8), _mm_unpackhi_epi8(v, z));
    return m ? __builtin_ctz(m) : 16;
}

static inline int
ascii16_4(const uint8_t *p, Py_UCS4 *o)
{
    __m128i v = _mm_loadu_si128((const __m128i *)(const void *)p), z = _mm_setzero_si128();
    __m128i lo = _mm_unpacklo_epi8(v, z), hi = _mm_unpackhi_epi8(v, z);
    unsigned m = (unsigned)_mm_movemask_epi8(v);
    _mm_storeu_si128((__m128i *)(void *)o, _mm_unpacklo_epi16(lo, z));
    _mm_storeu_si128((__m128i *)(void *)(o + 4), _mm_unpackhi_epi16(lo, z));
    _mm_storeu_si128((__m128i *)(void *)(o + 8), _mm_unpacklo_epi16(hi, z));
    _mm_storeu_si128((__m128i *)(void *)(o + 12), _mm_unpackhi_epi16(hi, z));
    return m ? __builtin_ctz(m) : 16;
}
/* An ASCII run 16 bytes at a time (mostly-ASCII text with some escaped
 * characters: runs of a few dozen bytes), then 8 at a time below. */
#define PE_ASCII16(K)                                                                      \
    while (i + 16 <= n && end - o >= 16) {                                                 \
        int m16 = ascii16_##K(p + i, o);                                                   \
        o += m16;                                                                          \
        i += m16;                                                                          \
        if (m16 < 16) {                                                                    \
            break;                                                                         \
        }                                                                                  \
    }
#else
#define PE_ASCII16(K)
#endif

#define DEFINE_UTF8_FILL(K, T)                                                             \
    static int utf8_fill_##K(const uint8_t *p, Py_ssize_t n, T *o, const T *end)           \
    {                                                                                      \
        Py_ssize_t i = 0;                                                                  \
        while (i < n) {                                                                    \
            Py_UCS4 c = p[i], c1;                                                          \
            int len;                                                                       \
            if (c < 0x80) {                                                                \
                /* ASCII: this byte and then 16 or 8 at a time while they stay ASCII. */  \
                if (o == end) {                                                            \
                    return -1;                                                             \
                }                                                                          \
                *o++ = (T)c;                                                               \
                i += 1;                                                                    \
                PE_ASCII16(K)                                                              \
                while (i + 8 <= n && end - o >= 8) {                                       \
                    uint64_t w;                                                            \
                    int k, m;                                                              \
                    memcpy(&w, p + i, 8);                                                  \
                    m = first_high_byte(w);                                                \
                    for (k = 0; k < 8; k++) {                                              \
                        o[k] = (T)p[i + k];                                                \
                    }                                                                      \
                    o += m;                                                                \
                    i += m;                                                                \
                    if (m < 8) {                                                           \
                        break;                                                             \
                    }                                                                      \
                }                                                                          \
                continue;                                                                  \
            }                                                                              \
            else if (c < 0xC2) {                                                           \
                return -1;                                                                 \
            }                                                                              \
            else if (c < 0xE0) {                                                           \
                if (i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) {                             \
                    return -1;                                                             \
                }                                                                          \
                c = (c & 0x1F) << 6 | (p[i + 1] & 0x3Fu);                                  \
                i += 2;                                                                    \
                len = 2;                                                                   \
            }                                                                              \
            else if (c < 0xF0) {                                                           \
                if (i + 2 >= n) {                                                          \
                    return -1;                                                             \
                }                                                                          \
                c1 = p[i + 1];                                                             \
                if ((c1 & 0xC0) != 0x80 || (c == 0xE0 && c1 < 0xA0) ||                    \
                    (c == 0xED && c1 >= 0xA0) || (p[i + 2] & 0xC0) != 0x80) {              \
                    return -1;                                                             \
                }                                                                          \
                c = (c & 0x0F) << 12 | (c1 & 0x3F) << 6 | (p[i + 2] & 0x3Fu);              \
                i += 3;                                                                    \
                len = 3;                                                                   \
            }                                                                              \
            else if (c < 0xF5) {                                                           \
                if (i + 3 >= n) {                                                          \
                    return -1;                                                             \
                }                                                                          \
                c1 = p[i + 1];                                                             \
                if ((c1 & 0xC0) != 0x80 || (c == 0xF0 && c1 < 0x90) ||                     \
                    (c == 0xF4 && c1 >= 0x90) || (p[i + 2] & 0xC0) != 0x80 ||              \
                    (p[i + 3] & 0xC0) != 0x80) {                                           \
                    return -1;                                                             \
                }                                                                          \
                c = (c & 0x07) << 18 | (c1 & 0x3F) << 12 | (p[i + 2] & 0x3Fu) << 6 |       \
                    (p[i + 3] & 0x3Fu);                                                    \
                i += 4;                                                                    \
                len = 4;                                                                   \
            }                                                                              \
            else {                                                                         \
                return -1;                                                                 \
            }                                                                              \
            if (o == end) {                                                                \
                return -1;                                                                 \
            }                                                                              \
            *o++ = (T)c;                                                                   \
            /* Text in one script repeats one sequence length: stay in a */                \
            /* loop for it while the sequences are plainly valid (E0 and */                \
            /* ED, which may be overlong or a surrogate, and any doubt go */               \
            /* back to the checks above).  Each code point here uses up a */               \
            /* lead byte, and `end` leaves room for one per lead byte, so */               \
            /* o cannot pass it. */                                                        \
            if (len == 3) {                                                                \
                while (i + 3 <= n) {                                                       \
                    Py_UCS4 a = p[i], b = p[i + 1], d = p[i + 2];                          \
                    if (((a << 16 | b << 8 | d) & 0xF0C0C0) != 0xE08080 || a == 0xE0 ||     \
                        a == 0xED) {                                                       \
                        break;                                                             \
                    }                                                                      \
                    *o++ = (T)((a & 0x0F) << 12 | (b & 0x3F) << 6 | (d & 0x3F));           \
                    i += 3;                                                                \
                }                                                                          \
            }                                                                              \
            else if (len == 2) {                                                           \
                while (i + 2 <= n) {                                                       \
                    Py_UCS4 a = p[i], b = p[i + 1];                                        \
                    if ((a & 0xE0) != 0xC0 || a < 0xC2 || (b & 0xC0) != 0x80) {            \
                        break;                                                             \
                    }                                                                      \
                    *o++ = (T)((a & 0x1F) << 6 | (b & 0x3F));                              \
                    i += 2;                                                                \
                }                                                                          \
            }                                                                              \
        }                                                                                  \
        return o == end ? 0 : -1;                                                          \
    }

DEFINE_UTF8_FILL(1, Py_UCS1)
DEFINE_UTF8_FILL(2, Py_UCS2)
DEFINE_UTF8_FILL(4, Py_UCS4)

/* utf8_fill_K for bytes known to be valid UTF-8 (the block decoder checked
 * them): 16 bytes a step, an ASCII run widened whole and each multi-byte
 * sequence put together with no branch on its length (mostly-ASCII text with
 * escaped characters mixes lengths at random, which the checking loop pays
 * for in mispredicted branches); the last bytes through utf8_fill_K. */
#if defined(__SSE2__) && defined(__GNUC__)
#define DEFINE_UTF8_FILL_VALID(K, T)                                                       \
    static int utf8_fill_valid_##K(const uint8_t *p, Py_ssize_t n, T *o, const T *end)     \
    {                                                                                      \
        Py_ssize_t i = 0;                                                                  \
        while (i + 16 <= n && end - o >= 16) {                                             \
            int m = ascii16_##K(p + i, o);                                                 \
            Py_UCS4 c, b1, b2, b3, c2, c3, c4;                                             \
            o += m;                                                                        \
            i += m;                                                                        \
            if (m == 16) {                                                                 \
                continue;                                                                  \
            }                                                                              \
            /* p[i] leads a sequence of 2 to 4 bytes, all before p + n - 12. */            \
            c = p[i];                                                                      \
            b1 = p[i + 1] & 0x3Fu;                                                         \
            b2 = p[i + 2] & 0x3Fu;                                                         \
            b3 = p[i + 3] & 0x3Fu;                                                         \
            c2 = (c & 0x1Fu) << 6 | b1;                                                    \
            c3 = (c & 0x0Fu) << 12 | b1 << 6 | b2;                                         \
            c4 = (c & 0x07u) << 18 | b1 << 12 | b2 << 6 | b3;                              \
            *o++ = (T)(c < 0xE0 ? c2 : c < 0xF0 ? c3 : c4);                                \
            i += 2 + (c >= 0xE0) + (c >= 0xF0);                                            \
        }                                                                                  \
        return utf8_fill_##K(p + i, n - i, o, end);                                        \
    }
#else
#define DEFINE_UTF8_FILL_VALID(K, T)                                                       \
    static int utf8_fill_valid_##K(const uint8_t *p, Py_ssize_t n, T *o, const T *end)     \
    {                                                                                      \
        return utf8_fill_##K(p, n, o, end);                                                \
    }
#endif

DEFINE_UTF8_FILL_VALID(1, Py_UCS1)
DEFINE_UTF8_FILL_VALID(2, Py_UCS2)
DEFINE_UTF8_FILL_VALID(4, Py_UCS4)

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
/* The same 32 bytes a step with AVX2, when the CPU has it (pe_blocks_ok, the
 * block decoder's run-time check, is what sends valid bytes here): an ASCII
 * run of a few dozen bytes then takes one step, and the step's "all ASCII"
 * branch is almost never taken, so it is predicted. */
#include <immintrin.h>
#define PE_FILL_AVX2 1

__attribute__((target("avx2"))) static inline int
ascii32_1(const uint8_t *p, Py_UCS1 *o)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    unsigned m = (unsigned)_mm256_movemask_epi8(v);
    _mm256_storeu_si256((__m256i *)(void *)o, v);
    return m ? __builtin_ctz(m) : 32;
}

__attribute__((target("avx2"))) static inline int
ascii32_2(const uint8_t *p, Py_UCS2 *o)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    unsigned m = (unsigned)_mm256_movemask_epi8(v);
    _mm256_storeu_si256((__m256i *)(void *)o, _mm256_cvtepu8_epi16(_mm256_castsi256_si128(v)));
    _mm256_storeu_si256((__m256i *)(void *)(o + 16),
                        _mm256_cvtepu8_epi16(_mm256_extracti128_si256(v, 1)));
    return m ? __builtin_ctz(m) : 32;
}

__attribute__((target("avx2"))) static inline int
ascii32_4(const uint8_t *p, Py_UCS4 *o)
{
    __m256i v = _mm256_loadu_si256((const __m256i *)(const void *)p);
    __m128i lo = _mm256_castsi256_si128(v), hi = _mm256_extracti128_si256(v, 1);
    unsigned m = (unsigned)_mm256_movemask_epi8(v);
    _mm256_storeu_si256((__m256i *)(void *)o, _mm256_cvtepu8_epi32(lo));
    _mm256_storeu_si256((__m256i *)(void *)(o + 8), _mm256_cvtepu8_epi32(_mm_srli_si128(lo, 8)));
    _mm256_storeu_si256((__m256i *)(void *)(o + 16), _mm256_cvtepu8_epi32(hi));
    _mm256_storeu_si256((__m256i *)(void *)(o + 24), _mm256_cvtepu8_epi32(_mm_srli_si128(hi, 8)));
    return m ? __builtin_ctz(m) : 32;
}

#define DEFINE_UTF8_FILL_AVX2(K, T)                                                        \
    __attribute__((target("avx2"))) static int utf8_fill_avx2_##K(const uint8_t *p,       \
                                                                   Py_ssize_t n, T *o,     \
                                                                   const T *end)           \
    {                                                                                      \
        Py_ssize_t i = 0;                                                                  \
        while (i + 32 <= n && end - o >= 32) {                                             \
            int m = ascii32_##K(p + i, o);                                                 \
            Py_UCS4 c, b1, b2, b3, c2, c3, c4;                                             \
            o += m;                                                                        \
            i += m;                                                                        \
            if (m == 32) {                                                                 \
                continue;                                                                  \
            }                                                                              \
            c = p[i];                                                                      \
            b1 = p[i + 1] & 0x3Fu;                                                         \
            b2 = p[i + 2] & 0x3Fu;                                                         \
            b3 = p[i + 3] & 0x3Fu;                                                         \
            c2 = (c & 0x1Fu) << 6 | b1;                                                    \
            c3 = (c & 0x0Fu) << 12 | b1 << 6 | b2;                                         \
            c4 = (c & 0x07u) << 18 | b1 << 12 | b2 << 6 | b3;                              \
            *o++ = (T)(c < 0xE0 ? c2 : c < 0xF0 ? c3 : c4);                                \
            i += 2 + (c >= 0xE0) + (c >= 0xF0);                                            \
        }                                                                                  \
        return utf8_fill_valid_##K(p + i, n - i, o, end);                                  \
    }

DEFINE_UTF8_FILL_AVX2(1, Py_UCS1)
DEFINE_UTF8_FILL_AVX2(2, Py_UCS2)
DEFINE_UTF8_FILL_AVX2(4, Py_UCS4)

/* One step of utf8_fill_avx2_K on the stream (i, o). */
#define PE_FILL_STEP(K, T, i, o)                                                           \
    {                                                                                      \
        int m_ = ascii32_##K(p + (i), (o));                                                \
        (o) += m_;                                                                         \
        (i) += m_;                                                                         \
        if (m_ < 32) {                                                                     \
            Py_UCS4 c_ = p[i], b1_ = p[(i) + 1] & 0x3Fu, b2_ = p[(i) + 2] & 0x3Fu;         \
            Py_UCS4 b3_ = p[(i) + 3] & 0x3Fu;                                              \
            *(o)++ = (T)(c_ < 0xE0   ? (c_ & 0x1Fu) << 6 | b1_                             \
                         : c_ < 0xF0 ? (c_ & 0x0Fu) << 12 | b1_ << 6 | b2_                 \
                                     : (c_ & 0x07u) << 18 | b1_ << 12 | b2_ << 6 | b3_);   \
            (i) += 2 + (c_ >= 0xE0) + (c_ >= 0xF0);                                        \
        }                                                                                  \
    }

/* The same over two halves at once: p[0:mid] into o[0:omid - o] and p[mid:n]
 * into the rest (mid starts a sequence; omid - o is the first half's number
 * of code points).  Each step of one half waits on its own last load and
 * tzcnt; two independent halves keep the core busy while one waits. */
#define DEFINE_UTF8_FILL2_AVX2(K, T)                                                       \
    __attribute__((target("avx2"))) static int utf8_fill2_avx2_##K(                        \
        const uint8_t *p, Py_ssize_t n, Py_ssize_t mid, T *o, T *omid, const T *end)       \
    {                                                                                      \
        Py_ssize_t ia = 0, ib = mid;                                                       \
        T *oa = o, *ob = omid;                                                             \
        while (ia + 32 <= mid && omid - oa >= 32 && ib + 32 <= n && end - ob >= 32) {      \
            PE_FILL_STEP(K, T, ia, oa)                                                     \
            PE_FILL_STEP(K, T, ib, ob)                                                     \
        }                                                                                  \
        if (utf8_fill_avx2_##K(p + ia, mid - ia, oa, omid) < 0) {                          \
            return -1;                                                                     \
        }                                                                                  \
        return utf8_fill_avx2_##K(p + ib, n - ib, ob, end);                                \
    }

DEFINE_UTF8_FILL2_AVX2(1, Py_UCS1)
DEFINE_UTF8_FILL2_AVX2(2, Py_UCS2)
DEFINE_UTF8_FILL2_AVX2(4, Py_UCS4)
#define PE_FILL_AVX2_ON pe_blocks_ok
#else
#define PE_FILL_AVX2_ON 0
#endif

/* The largest byte of p[0:n] and the number of continuation bytes (10xxxxxx). */
static void
utf8_scan(const uint8_t *p, Py_ssize_t n, unsigned *pmx, Py_ssize_t *pcont)
{
    Py_ssize_t i = 0, cont = 0;
    unsigned mx = 0;
#if defined(__SSE2__) && defined(__GNUC__)
    /* 16 bytes at a time; the tail (under 16 bytes) one at a time below. */
    __m128i vmx = _mm_setzero_si128(), vcnt = _mm_setzero_si128();
    const __m128i c0 = _mm_set1_epi8((char)0xC0), zero = _mm_setzero_si128();
    int rounds = 0;
    for (; i + 16 <= n; i += 16) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
        vmx = _mm_max_epu8(vmx, v);
        /* As signed bytes, exactly 0x80-0xBF are below 0xC0 (-64); a hit is
         * -1, so subtracting counts per lane.  Lanes are summed before they
         * can wrap (255 rounds); no popcount (a libgcc call without -mpopcnt). */
        vcnt = _mm_sub_epi8(vcnt, _mm_cmplt_epi8(v, c0));
        if (++rounds == 255) {
            __m128i sad = _mm_sad_epu8(vcnt, zero);
            cont += _mm_cvtsi128_si32(sad) + _mm_cvtsi128_si32(_mm_srli_si128(sad, 8));
            vcnt = zero;
            rounds = 0;
        }
    }
    {
        uint8_t lanes[16];
        int k;
        __m128i sad = _mm_sad_epu8(vcnt, zero);
        cont += _mm_cvtsi128_si32(sad) + _mm_cvtsi128_si32(_mm_srli_si128(sad, 8));
        _mm_storeu_si128((__m128i *)(void *)lanes, vmx);
        for (k = 0; k < 16; k++) {
            mx = lanes[k] > mx ? lanes[k] : mx;
        }
    }
#endif
    for (; i < n; i++) {
        unsigned b = p[i];
        mx = b > mx ? b : mx;
        cont += (b & 0xC0) == 0x80;
    }
    *pmx = mx;
    *pcont = cont;
}

/* Valid UTF-8 p[0:n] with stats *st to str, or NULL with no exception set
 * when it is not valid.  Unknown stats (U8_UNKNOWN) are found by a scan. */
static PyObject *
utf8_valid_to_str_as(const uint8_t *p, Py_ssize_t n, const U8Stats *st, int valid);

static PyObject *
utf8_valid_to_str(const uint8_t *p, Py_ssize_t n, const U8Stats *st)
{
    return utf8_valid_to_str_as(p, n, st, 0);
}

/* Bytes the block decoder wrote and found to be UTF-8 (valid: 1) to str. */
PyObject *
utf8_checked_to_str(const uint8_t *p, Py_ssize_t n)
{
    PyObject *r = utf8_valid_to_str_as(p, n, NULL, 1);
    if (r != NULL || PyErr_Occurred()) {
        return r;
    }
    return PyUnicode_DecodeUTF8((const char *)p, n, "replace");
}

/* valid: p is known to be valid UTF-8 (the faster fill); else checked as it goes. */
static PyObject *
utf8_valid_to_str_as(const uint8_t *p, Py_ssize_t n, const U8Stats *st, int valid)
{
    Py_ssize_t cont, mid = 0, cont_a = 0;
    unsigned mx;
    int rc;
    Py_UCS4 maxchar;
    PyObject *r;
    if (valid && PE_FILL_AVX2_ON && n >= 8192) {
        /* Two halves for utf8_fill2_avx2_K: the scan counts each one's. */
        unsigned mx_b;
        Py_ssize_t cont_b;
        mid = n / 2;
        while (mid < n && (p[mid] & 0xC0) == 0x80) {
            mid++;
        }
        utf8_scan(p, mid, &mx, &cont_a);
        utf8_scan(p + mid, n - mid, &mx_b, &cont_b);
        mx = mx > mx_b ? mx : mx_b;
        cont = cont_a + cont_b;
    }
    else if (st == NULL || st->mx == U8_UNKNOWN) {
        utf8_scan(p, n, &mx, &cont);
    }
    else {
        mx = st->mx;
        cont = st->cont;
    }
    if (mx < 0x80) {
        r = PyUnicode_New(n, 127);
        if (r != NULL) {
            memcpy(PyUnicode_1BYTE_DATA(r), p, (size_t)n);
        }
        return r;
    }
    /* The largest lead byte bounds the largest code point: C2-C3 up to U+00FF,
     * C4-EF up to U+FFFF (and above U+00FF), F0-F4 astral.  A valid string
     * then has the canonical kind CPython requires. */
    if (mx < 0xC2 || mx > 0xF4) {
        return NULL;
    }
    maxchar = mx < 0xC4 ? 0xFF : mx < 0xF0 ? 0xFFFF : 0x10FFFF;
    r = PyUnicode_New(n - cont, maxchar);
    if (r == NULL) {
        return NULL;
    }
    switch (PyUnicode_KIND(r) + (valid ? (PE_FILL_AVX2_ON ? (mid > 0 ? 24 : 16) : 8) : 0)) {
    case PyUnicode_1BYTE_KIND:
        rc = utf8_fill_1(p, n, PyUnicode_1BYTE_DATA(r), PyUnicode_1BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_2BYTE_KIND:
        rc = utf8_fill_2(p, n, PyUnicode_2BYTE_DATA(r), PyUnicode_2BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_4BYTE_KIND:
        rc = utf8_fill_4(p, n, PyUnicode_4BYTE_DATA(r), PyUnicode_4BYTE_DATA(r) + (n - cont));
        break;
#ifdef PE_FILL_AVX2
    case PyUnicode_1BYTE_KIND + 24:
        rc = utf8_fill2_avx2_1(p, n, mid, PyUnicode_1BYTE_DATA(r),
                               PyUnicode_1BYTE_DATA(r) + (mid - cont_a),
                               PyUnicode_1BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_2BYTE_KIND + 24:
        rc = utf8_fill2_avx2_2(p, n, mid, PyUnicode_2BYTE_DATA(r),
                               PyUnicode_2BYTE_DATA(r) + (mid - cont_a),
                               PyUnicode_2BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_4BYTE_KIND + 24:
        rc = utf8_fill2_avx2_4(p, n, mid, PyUnicode_4BYTE_DATA(r),
                               PyUnicode_4BYTE_DATA(r) + (mid - cont_a),
                               PyUnicode_4BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_1BYTE_KIND + 16:
        rc = utf8_fill_avx2_1(p, n, PyUnicode_1BYTE_DATA(r), PyUnicode_1BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_2BYTE_KIND + 16:
        rc = utf8_fill_avx2_2(p, n, PyUnicode_2BYTE_DATA(r), PyUnicode_2BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_4BYTE_KIND + 16:
        rc = utf8_fill_avx2_4(p, n, PyUnicode_4BYTE_DATA(r), PyUnicode_4BYTE_DATA(r) + (n - cont));
        break;
#endif
    case PyUnicode_1BYTE_KIND + 8:
        rc = utf8_fill_valid_1(p, n, PyUnicode_1BYTE_DATA(r),
                               PyUnicode_1BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_2BYTE_KIND + 8:
        rc = utf8_fill_valid_2(p, n, PyUnicode_2BYTE_DATA(r),
                               PyUnicode_2BYTE_DATA(r) + (n - cont));
        break;
    default:
        rc = utf8_fill_valid_4(p, n, PyUnicode_4BYTE_DATA(r),
                               PyUnicode_4BYTE_DATA(r) + (n - cont));
        break;
    }
    if (rc < 0) {
        Py_DECREF(r);
        return NULL;
    }
    return r;
}

/* UTF-8 bytes to str; invalid input goes to CPython's decoder with `errors`
 * ("replace", "surrogatepass", or NULL for strict). */
PyObject *
utf8_str(const uint8_t *p, Py_ssize_t n, const char *errors, const U8Stats *st)
{
    PyObject *r = utf8_valid_to_str(p, n, st);
    if (r != NULL || PyErr_Occurred()) {
        return r;
    }
    return PyUnicode_DecodeUTF8((const char *)p, n, errors);
}

/* UTF-8 decode without BOM (Encoding Standard): U+FFFD per maximal subpart
 * (Python's "replace" does exactly that), or TextDecodeError when strict.
 * st: the bytes' stats when known, else NULL. */
PyObject *
utf8_text(const char *buf, Py_ssize_t len, int strict, const U8Stats *st)
{
    PyObject *r, *exc, *reason, *snippet, *msg, *err;
    Py_ssize_t start;
    if (!strict) {
        return utf8_str((const uint8_t *)buf, len, "replace", st);
    }
    r = utf8_str((const uint8_t *)buf, len, NULL, st);
    if (r != NULL || !PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) {
        return r;
    }
#if PY_VERSION_HEX >= 0x030C0000
    exc = PyErr_GetRaisedException();
#else
    {
        PyObject *type, *tb;
        PyErr_Fetch(&type, &exc, &tb);
        PyErr_NormalizeException(&type, &exc, &tb);
        Py_XDECREF(type);
        Py_XDECREF(tb);
    }
#endif
    if (exc == NULL || PyUnicodeDecodeError_GetStart(exc, &start) < 0 ||
        (reason = PyUnicodeDecodeError_GetReason(exc)) == NULL) {
        Py_XDECREF(exc);
        return NULL;
    }
    Py_DECREF(exc);
    snippet = PyBytes_FromStringAndSize(buf + start, len - start < 4 ? len - start : 4);
    if (snippet == NULL) {
        Py_DECREF(reason);
        return NULL;
    }
    msg = PyUnicode_FromFormat("percent-decoded bytes are not valid UTF-8: %U at byte %zd (%R)",
                               reason, start, snippet);
    Py_DECREF(reason);
    Py_DECREF(snippet);
    if (msg == NULL) {
        return NULL;
    }
    err = PyObject_CallFunction(TextDecodeError, "On", msg, start);
    Py_DECREF(msg);
    if (err != NULL) {
        PyErr_SetObject((PyObject *)Py_TYPE(err), err);
        Py_DECREF(err);
    }
    return NULL;
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
