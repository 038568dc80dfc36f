/* UTF-8 decode without BOM (Encoding Standard §8.1.1) of decoded bytes, straight
 * into a str of the right kind: decode.c's general path and the block decoder's
 * results (decode_short.c) end here.  Split from decode.c, which keeps the
 * percent-decoding. */
#include "kernels.h"

/* The block decoder's switch and hook (kernels.h): set by the column layer. */
int pe_blocks_ok = 0;
PeBlockDecoder pe_block_decoder = NULL;

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

/* One step on the stream (i, o) of valid UTF-8: asciiW_K widens the ASCII run
 * at p + i, W bytes at a time; unless all W were ASCII, p[i] then leads a
 * valid sequence of 2 to 4 bytes, put together with no branch on its length.
 * The 16-byte (SSE2) and 32-byte (AVX2) fills below share it. */
#define PE_FILL_STEP(W, K, T, i, o)                                                        \
    {                                                                                      \
        int m_ = ascii##W##_##K(p + (i), (o));                                             \
        (o) += m_;                                                                         \
        (i) += m_;                                                                         \
        if (m_ < (W)) {                                                                    \
            /* len_ bytes (2-4) from the lead byte; the continuation bits of three     \
             * bytes, shifted down to the len_ - 1 that belong: no branch on len_ */   \
            Py_UCS4 c_ = p[i];                                                             \
            unsigned len_ = 2u + (c_ >= 0xE0) + (c_ >= 0xF0);                              \
            Py_UCS4 t_ = (p[(i) + 1] & 0x3Fu) << 12 | (p[(i) + 2] & 0x3Fu) << 6 |          \
                         (p[(i) + 3] & 0x3Fu);                                             \
            *(o)++ = (T)((c_ & (0x7Fu >> len_)) << (6 * (len_ - 1)) |                      \
                         t_ >> (6 * (4 - len_)));                                          \
            (i) += len_;                                                                   \
        }                                                                                  \
    }

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
            PE_FILL_STEP(16, K, T, i, o)                                                   \
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
            PE_FILL_STEP(32, K, T, i, o)                                                   \
        }                                                                                  \
        return utf8_fill_valid_##K(p + i, n - i, o, end);                                  \
    }

DEFINE_UTF8_FILL_AVX2(1, Py_UCS1)
DEFINE_UTF8_FILL_AVX2(2, Py_UCS2)
DEFINE_UTF8_FILL_AVX2(4, Py_UCS4)

/* The same over four parts at once: p[cut[j]:cut[j + 1]] into
 * out[j][0:out[j + 1] - out[j]] (each cut starts a sequence; out[4] is the
 * result's end).  Each step of one part waits on its own last load and tzcnt;
 * four independent parts keep the core busy while one waits (measured: two
 * parts gave 1.4x one, four 1.2x two, on mostly-ASCII text with escaped
 * characters of mixed lengths). */
#define DEFINE_UTF8_FILL4_AVX2(K, T)                                                       \
    __attribute__((target("avx2"))) static int utf8_fill4_avx2_##K(                        \
        const uint8_t *p, const Py_ssize_t *cut, T *const *out)                            \
    {                                                                                      \
        Py_ssize_t i0 = cut[0], i1 = cut[1], i2 = cut[2], i3 = cut[3];                     \
        T *o0 = out[0], *o1 = out[1], *o2 = out[2], *o3 = out[3];                          \
        while (i0 + 32 <= cut[1] && out[1] - o0 >= 32 && i1 + 32 <= cut[2] &&              \
               out[2] - o1 >= 32 && i2 + 32 <= cut[3] && out[3] - o2 >= 32 &&              \
               i3 + 32 <= cut[4] && out[4] - o3 >= 32) {                                   \
            PE_FILL_STEP(32, K, T, i0, o0)                                                 \
            PE_FILL_STEP(32, K, T, i1, o1)                                                 \
            PE_FILL_STEP(32, K, T, i2, o2)                                                 \
            PE_FILL_STEP(32, K, T, i3, o3)                                                 \
        }                                                                                  \
        if (utf8_fill_avx2_##K(p + i0, cut[1] - i0, o0, out[1]) < 0 ||                     \
            utf8_fill_avx2_##K(p + i1, cut[2] - i1, o1, out[2]) < 0 ||                     \
            utf8_fill_avx2_##K(p + i2, cut[3] - i2, o2, out[3]) < 0) {                     \
            return -1;                                                                     \
        }                                                                                  \
        return utf8_fill_avx2_##K(p + i3, cut[4] - i3, o3, out[4]);                        \
    }

DEFINE_UTF8_FILL4_AVX2(1, Py_UCS1)
DEFINE_UTF8_FILL4_AVX2(2, Py_UCS2)
DEFINE_UTF8_FILL4_AVX2(4, Py_UCS4)
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

/* Where each of the four parts starts in the result d (cut, cs: its bytes'
 * starts and continuation-byte counts), and the result's end. */
#define PE_PART_STARTS(out, d)                                                             \
    {                                                                                      \
        Py_ssize_t before_ = 0;                                                            \
        int j_;                                                                            \
        for (j_ = 0; j_ < 4; j_++) {                                                       \
            (out)[j_] = (d) + (cut[j_] - before_);                                         \
            before_ += cs[j_];                                                             \
        }                                                                                  \
        (out)[4] = (d) + (n - cont);                                                       \
    }

/* valid: p is known to be valid UTF-8 (the faster fill); else checked as it goes. */
static PyObject *
utf8_valid_to_str_as(const uint8_t *p, Py_ssize_t n, const U8Stats *st, int valid)
{
    Py_ssize_t cont, cut[5], cs[4];
    int parts = 1;
    unsigned mx;
    int rc;
    Py_UCS4 maxchar;
    PyObject *r;
    if (valid && PE_FILL_AVX2_ON && n >= 8192) {
        /* Four parts for utf8_fill4_avx2_K, each cut at the start of a
         * sequence: the scan counts each one's continuation bytes. */
        int j;
        cut[0] = 0;
        cut[4] = n;
        for (j = 1; j < 4; j++) {
            Py_ssize_t c = n / 4 * j;
            while (c < n && (p[c] & 0xC0) == 0x80) {
                c++;
            }
            cut[j] = c;
        }
        mx = 0;
        cont = 0;
        for (j = 0; j < 4; j++) {
            unsigned m;
            utf8_scan(p + cut[j], cut[j + 1] - cut[j], &m, &cs[j]);
            mx = mx > m ? mx : m;
            cont += cs[j];
        }
        parts = 4;
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
    switch (PyUnicode_KIND(r) + (valid ? (PE_FILL_AVX2_ON ? (parts == 4 ? 24 : 16) : 8) : 0)) {
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
    case PyUnicode_1BYTE_KIND + 24: {
        Py_UCS1 *out[5], *d = PyUnicode_1BYTE_DATA(r);
        PE_PART_STARTS(out, d);
        rc = utf8_fill4_avx2_1(p, cut, out);
        break;
    }
    case PyUnicode_2BYTE_KIND + 24: {
        Py_UCS2 *out[5], *d = PyUnicode_2BYTE_DATA(r);
        PE_PART_STARTS(out, d);
        rc = utf8_fill4_avx2_2(p, cut, out);
        break;
    }
    case PyUnicode_4BYTE_KIND + 24: {
        Py_UCS4 *out[5], *d = PyUnicode_4BYTE_DATA(r);
        PE_PART_STARTS(out, d);
        rc = utf8_fill4_avx2_4(p, cut, out);
        break;
    }
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

/* Length of the valid UTF-8 prefix of p[0:n]: n when all of it is valid.
 * ASCII is skipped 8 bytes at a time; a sequence is checked by its lead
 * byte's class (the second byte's range depends on the lead: no overlong
 * forms, surrogates, or values above U+10FFFF). */
int64_t
utf8_valid_prefix(const uint8_t *p, int64_t n)
{
    int64_t i = 0;
    for (;;) {
        unsigned c, b1;
        uint64_t w;
        while (i + 8 <= n) {
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL) {
                break;
            }
            i += 8;
        }
        while (i < n && p[i] < 0x80) {
            i++;
            if ((i & 7) == 0 && i + 8 <= n) {
                break;
            }
        }
        if (i >= n) {
            return n;
        }
        c = p[i];
        if (c < 0x80) {
            continue;
        }
        if (c < 0xE0) {
            if (c < 0xC2 || i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) {
                return i;
            }
            i += 2;
        }
        else if (c < 0xF0) {
            if (i + 2 >= n) {
                return i;
            }
            b1 = p[i + 1];
            if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (c == 0xE0 && b1 < 0xA0) ||
                (c == 0xED && b1 > 0x9F)) {
                return i;
            }
            i += 3;
        }
        else {
            if (c > 0xF4 || i + 3 >= n) {
                return i;
            }
            b1 = p[i + 1];
            if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (p[i + 3] & 0xC0) != 0x80 ||
                (c == 0xF0 && b1 < 0x90) || (c == 0xF4 && b1 > 0x8F)) {
                return i;
            }
            i += 4;
        }
    }
}

/* Write p[0:n] to o with U+FFFD for each maximal subpart that is not valid
 * UTF-8 (what Python's "replace" does); o has room for 3n bytes. */
int64_t
utf8_replace(const uint8_t *p, int64_t n, uint8_t *o)
{
    uint8_t *start = o;
    int64_t i = 0;
    while (i < n) {
        unsigned c = p[i], lo = 0x80, hi = 0xBF;
        int need, k;
        if (c < 0x80) {
            *o++ = (uint8_t)c;
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        }
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        }
        else {
            need = 0;
        }
        /* k: how many bytes of the sequence are there and in range */
        k = 1;
        if (need > 0) {
            if (i + 1 < n && p[i + 1] >= lo && p[i + 1] <= hi) {
                k = 2;
                while (k <= need && i + k < n && p[i + k] >= 0x80 && p[i + k] <= 0xBF) {
                    k++;
                }
            }
        }
        if (need > 0 && k == need + 1) {
            memcpy(o, p + i, (size_t)k);
            o += k;
        }
        else {
            *o++ = 0xEF;
            *o++ = 0xBF;
            *o++ = 0xBD;
        }
        i += k;
    }
    return o - start;
}
