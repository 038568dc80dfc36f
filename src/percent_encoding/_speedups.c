/* The C twin of _pure.py: percent-encoding kernels against the CPython API.
 *
 * Strategy (the markupsafe model): each kernel takes already-checked
 * arguments from core.py / form.py and does the byte work only.  Signatures,
 * results and errors are identical to the pure twin (see its docstring):
 *
 *   encode(data, table, space_as_plus) -> str
 *   decode(data, plus_as_space, strict) -> bytes
 *   decode_text(data, plus_as_space, strict, utf8_strict) -> str
 *   form_parse(data) -> list[tuple[str, str]]
 *   form_parse_bytes(data) -> list[tuple[bytes, bytes]]
 *   form_serialize(pairs) -> str
 *
 * make_entry() builds the public core.encode, core.decode_text and
 * form.serialize: vectorcall objects whose fast path calls a kernel for the
 * common call and hands any other call to the checked Python function.
 *
 * Speed comes from: switching once on the str's kind (1, 2 or 4 bytes per
 * code point) so inner loops read a plain array; an ASCII fast path that
 * works on the str's own buffer; finding the first character that needs
 * work and returning the input itself when there is none (ada's model);
 * sizing each result once and writing into it directly; one table lookup per
 * escape; and, for short input, decoding the escapes and the UTF-8 they
 * spell in a single pass (decode_short).  Tables come from _tables.h,
 * generated from sets.py.
 *
 * Specs: WHATWG URL Standard §1.3 (percent-encode, percent-decode, the encode
 * sets), §5.1/§5.2 (application/x-www-form-urlencoded parser and serializer);
 * Encoding Standard "UTF-8 decode without BOM (or fail)".
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "_tables.h"

#include <stddef.h>

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

/* Strings made through the legacy Py_UNICODE API need "readying" before 3.12. */
#if PY_VERSION_HEX < 0x030C0000
#define PE_READY(o) PyUnicode_READY(o)
#else
#define PE_READY(o) 0
#endif

static PyObject *PercentDecodeError; /* percent_encoding.errors.PercentDecodeError */
static PyObject *TextDecodeError;    /* percent_encoding.errors.TextDecodeError */

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PE_SWAR 1
#endif

/* ------------------------------------------------------------------------ */
/* Arguments: positional or keyword, like the pure twin's def statements.    */

static int
parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
           const char *const *names, Py_ssize_t n, PyObject **out)
{
    Py_ssize_t i, j, nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (nargs > n) {
        PyErr_Format(PyExc_TypeError, "%s() takes %zd positional arguments but %zd were given",
                     fname, n, nargs);
        return -1;
    }
    for (i = 0; i < n; i++) {
        out[i] = i < nargs ? args[i] : NULL;
    }
    for (j = 0; j < nkw; j++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, j);
        for (i = 0; i < n; i++) {
            if (PyUnicode_CompareWithASCIIString(key, names[i]) == 0) {
                break;
            }
        }
        if (i == n) {
            PyErr_Format(PyExc_TypeError, "%s() got an unexpected keyword argument '%U'", fname,
                         key);
            return -1;
        }
        if (out[i] != NULL) {
            PyErr_Format(PyExc_TypeError, "%s() got multiple values for argument '%s'", fname,
                         names[i]);
            return -1;
        }
        out[i] = args[nargs + j];
    }
    for (i = 0; i < n; i++) {
        if (out[i] == NULL) {
            PyErr_Format(PyExc_TypeError, "%s() missing required argument: '%s'", fname,
                         names[i]);
            return -1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Encode tables: what each byte (or ASCII code point) becomes.             */

enum { KEEP = 0, PLUS = 1, PCT = 3 }; /* PCT & 2 == 2: the two extra output chars */

typedef struct {
    PyObject *key;    /* the 256-byte table it was built from (strong ref), or NULL */
    int plus;         /* space_as_plus */
    int non_ascii;    /* table[0x80]: code points from U+0080 are encoded */
    uint8_t act[256]; /* per byte: KEEP, PLUS or PCT; bytes 0x80-0xFF are always PCT */
} EncTable;

/* EncodeSet.table objects live as long as their sets, so a few cached
 * entries (keyed by object, then by content) make the per-call cost one
 * pointer compare.  The GIL protects this state. */
#define ENC_CACHE_SIZE 8
static EncTable enc_cache[ENC_CACHE_SIZE];
static int enc_cache_next;
static EncTable form_table; /* §5.2: application/x-www-form-urlencoded set, space as '+' */

static void
fill_enc_table(EncTable *t, const uint8_t *table, int plus)
{
    int c;
    for (c = 0; c < 256; c++) {
        t->act[c] = (c >= 0x80 || table[c]) ? PCT : KEEP;
    }
    if (plus) {
        t->act[' '] = PLUS;
    }
    t->plus = plus;
    t->non_ascii = table[0x80] != 0;
}

static const EncTable *
get_enc_table(PyObject *table, int plus)
{
    int i;
    const uint8_t *raw;
    EncTable *t;
    PyObject *old;
    for (i = 0; i < ENC_CACHE_SIZE; i++) {
        if (enc_cache[i].key == table && enc_cache[i].plus == plus) {
            return &enc_cache[i];
        }
    }
    if (!PyBytes_Check(table) || PyBytes_GET_SIZE(table) != 256) {
        PyErr_SetString(PyExc_TypeError,
                        "table must be a 256-byte bytes object (an EncodeSet's .table)");
        return NULL;
    }
    raw = (const uint8_t *)PyBytes_AS_STRING(table);
    for (i = 0; i < ENC_CACHE_SIZE; i++) {
        if (enc_cache[i].key != NULL && enc_cache[i].plus == plus &&
            memcmp(PyBytes_AS_STRING(enc_cache[i].key), raw, 256) == 0) {
            return &enc_cache[i];
        }
    }
    t = &enc_cache[enc_cache_next];
    enc_cache_next = (enc_cache_next + 1) % ENC_CACHE_SIZE;
    old = t->key;
    Py_INCREF(table);
    t->key = table;
    Py_XDECREF(old);
    fill_enc_table(t, raw, plus);
    return t;
}

/* Raise the UnicodeEncodeError that str.encode("utf-8") raises for s (a lone
 * surrogate): the same exception, start and end as the pure twin. */
static PyObject *
raise_utf8_encode_error(PyObject *s)
{
    PyObject *b = PyUnicode_AsUTF8String(s);
    if (b != NULL) {
        Py_DECREF(b);
        PyErr_SetString(PyExc_SystemError, "percent_encoding: lone surrogate not reported");
    }
    return NULL;
}

/* "%XY" and a NUL per byte: one 4-byte store writes an escape.  The 4th
 * byte lands on the next output position (overwritten by what follows) or,
 * at the very end, on the str's own NUL terminator, which it rewrites as 0:
 * every caller writes into a PyUnicode_New(len, 127) buffer of exact size. */
static char pct4[256][4];

static void
fill_pct4(void)
{
    int b;
    for (b = 0; b < 256; b++) {
        pct4[b][0] = '%';
        pct4[b][1] = PE_HEX_PAIRS[2 * b];
        pct4[b][2] = PE_HEX_PAIRS[2 * b + 1];
        pct4[b][3] = 0;
    }
}

static inline Py_UCS1 *
put_pct(Py_UCS1 *o, unsigned b)
{
    memcpy(o, pct4[b], 4);
    return o + 3;
}

static inline Py_UCS1 *
put_byte(Py_UCS1 *o, const EncTable *t, unsigned c)
{
    switch (t->act[c]) {
    case KEEP:
        *o++ = (Py_UCS1)c;
        return o;
    case PLUS:
        *o++ = '+';
        return o;
    default:
        return put_pct(o, c);
    }
}

/* Bytes, or the buffer of an ASCII str: bytes >= 0x80 are always encoded. */
static Py_ssize_t
first_u8(const uint8_t *p, Py_ssize_t n, const EncTable *t)
{
    const uint8_t *a = t->act;
    Py_ssize_t i = 0;
    while (i + 4 <= n && !(a[p[i]] | a[p[i + 1]] | a[p[i + 2]] | a[p[i + 3]])) {
        i += 4;
    }
    while (i < n && !a[p[i]]) {
        i++;
    }
    return i;
}

static Py_ssize_t
extra_u8(const uint8_t *p, Py_ssize_t n, const EncTable *t)
{
    Py_ssize_t i, extra = 0;
    for (i = 0; i < n; i++) {
        extra += t->act[p[i]] & 2;
    }
    return extra;
}

static Py_UCS1 *
write_u8(const uint8_t *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o)
{
    Py_ssize_t i;
    for (i = 0; i < n; i++) {
        o = put_byte(o, t, p[i]);
    }
    return o;
}

/* Code points of a non-ASCII str, one copy per kind.  "enc_*": non-ASCII is
 * encoded as its UTF-8 bytes (the output is ASCII); "keep_*": non-ASCII stays
 * and the output has the input's kind. */
#define DEFINE_WIDE(K, T)                                                                  \
    static Py_ssize_t first_##K(const T *p, Py_ssize_t n, const EncTable *t)               \
    {                                                                                      \
        Py_ssize_t i;                                                                      \
        for (i = 0; i < n; i++) {                                                          \
            Py_UCS4 c = p[i];                                                              \
            if (c < 0x80 ? t->act[c] : t->non_ascii) {                                     \
                break;                                                                     \
            }                                                                              \
        }                                                                                  \
        return i;                                                                          \
    }                                                                                      \
    /* Output length, or -1 at a lone surrogate. */                                        \
    static Py_ssize_t enc_len_##K(const T *p, Py_ssize_t n, const EncTable *t)             \
    {                                                                                      \
        Py_ssize_t i, len = n;                                                             \
        for (i = 0; i < n; i++) {                                                          \
            Py_UCS4 c = p[i];                                                              \
            if (c < 0x80) {                                                                \
                len += t->act[c] & 2;                                                      \
            }                                                                              \
            else if (c < 0x800) {                                                          \
                len += 5;                                                                  \
            }                                                                              \
            else if (c < 0x10000) {                                                        \
                if (Py_UNICODE_IS_SURROGATE(c)) {                                          \
                    return -1;                                                             \
                }                                                                          \
                len += 8;                                                                  \
            }                                                                              \
            else {                                                                         \
                len += 11;                                                                 \
            }                                                                              \
        }                                                                                  \
        return len;                                                                        \
    }                                                                                      \
    static Py_UCS1 *enc_write_##K(const T *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o) \
    {                                                                                      \
        Py_ssize_t i;                                                                      \
        for (i = 0; i < n; i++) {                                                          \
            Py_UCS4 c = p[i];                                                              \
            if (c < 0x80) {                                                                \
                o = put_byte(o, t, c);                                                     \
            }                                                                              \
            else if (c < 0x800) {                                                          \
                o = put_pct(o, 0xC0 | (c >> 6));                                           \
                o = put_pct(o, 0x80 | (c & 0x3F));                                         \
            }                                                                              \
            else if (c < 0x10000) {                                                        \
                o = put_pct(o, 0xE0 | (c >> 12));                                          \
                o = put_pct(o, 0x80 | ((c >> 6) & 0x3F));                                  \
                o = put_pct(o, 0x80 | (c & 0x3F));                                         \
            }                                                                              \
            else {                                                                         \
                o = put_pct(o, 0xF0 | (c >> 18));                                          \
                o = put_pct(o, 0x80 | ((c >> 12) & 0x3F));                                 \
                o = put_pct(o, 0x80 | ((c >> 6) & 0x3F));                                  \
                o = put_pct(o, 0x80 | (c & 0x3F));                                         \
            }                                                                              \
        }                                                                                  \
        return o;                                                                          \
    }                                                                                      \
    static Py_ssize_t keep_extra_##K(const T *p, Py_ssize_t n, const EncTable *t)          \
    {                                                                                      \
        Py_ssize_t i, extra = 0;                                                           \
        for (i = 0; i < n; i++) {                                                          \
            Py_UCS4 c = p[i];                                                              \
            if (c < 0x80) {                                                                \
                extra += t->act[c] & 2;                                                    \
            }                                                                              \
        }                                                                                  \
        return extra;                                                                      \
    }                                                                                      \
    static void keep_write_##K(const T *p, Py_ssize_t n, const EncTable *t, T *o)          \
    {                                                                                      \
        Py_ssize_t i;                                                                      \
        for (i = 0; i < n; i++) {                                                          \
            Py_UCS4 c = p[i];                                                              \
            if (c >= 0x80 || t->act[c] == KEEP) {                                          \
                *o++ = (T)c;                                                               \
            }                                                                              \
            else if (t->act[c] == PLUS) {                                                  \
                *o++ = '+';                                                                \
            }                                                                              \
            else {                                                                         \
                o[0] = '%';                                                                \
                o[1] = (T)PE_HEX_PAIRS[2 * c];                                             \
                o[2] = (T)PE_HEX_PAIRS[2 * c + 1];                                         \
                o += 3;                                                                    \
            }                                                                              \
        }                                                                                  \
    }

DEFINE_WIDE(1, Py_UCS1)
DEFINE_WIDE(2, Py_UCS2)
DEFINE_WIDE(4, Py_UCS4)

#define DEFINE_HAS_SURROGATE(K, T)                                                         \
    static int has_surrogate_##K(const T *p, Py_ssize_t n)                                 \
    {                                                                                      \
        Py_ssize_t i;                                                                      \
        for (i = 0; i < n; i++) {                                                          \
            if (Py_UNICODE_IS_SURROGATE((Py_UCS4)p[i])) {                                  \
                return 1;                                                                  \
            }                                                                              \
        }                                                                                  \
        return 0;                                                                          \
    }

DEFINE_HAS_SURROGATE(2, Py_UCS2)
DEFINE_HAS_SURROGATE(4, Py_UCS4)

static int
str_has_surrogate(PyObject *s)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    switch (PyUnicode_KIND(s)) {
    case PyUnicode_2BYTE_KIND:
        return has_surrogate_2(PyUnicode_2BYTE_DATA(s), n);
    case PyUnicode_4BYTE_KIND:
        return has_surrogate_4(PyUnicode_4BYTE_DATA(s), n);
    default:
        return 0;
    }
}

/* Percent-encode p[0:n] (bytes, or an ASCII str's buffer).  `same` is the
 * str to return when nothing needs encoding (NULL for bytes input). */
static PyObject *
encode_u8(PyObject *same, const uint8_t *p, Py_ssize_t n, const EncTable *t)
{
    Py_ssize_t i = first_u8(p, n, t), extra;
    PyObject *r;
    Py_UCS1 *o;
    if (i == n && same != NULL) {
        Py_INCREF(same);
        return same;
    }
    if (n > PY_SSIZE_T_MAX / 3) {
        return PyErr_NoMemory();
    }
    extra = extra_u8(p + i, n - i, t);
    r = PyUnicode_New(n + extra, 127);
    if (r == NULL) {
        return NULL;
    }
    o = PyUnicode_1BYTE_DATA(r);
    memcpy(o, p, (size_t)i);
    write_u8(p + i, n - i, t, o + i);
    return r;
}

static PyObject *
encode_str(PyObject *s, const EncTable *t)
{
    Py_ssize_t n = PyUnicode_GET_LENGTH(s), i, len, j;
    int kind = PyUnicode_KIND(s);
    const void *data = PyUnicode_DATA(s);
    PyObject *r;

    if (PyUnicode_IS_ASCII(s)) {
        return encode_u8(s, (const uint8_t *)data, n, t);
    }
    if (n > PY_SSIZE_T_MAX / 12) {
        return PyErr_NoMemory();
    }
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        i = first_1((const Py_UCS1 *)data, n, t);
        break;
    case PyUnicode_2BYTE_KIND:
        i = first_2((const Py_UCS2 *)data, n, t);
        break;
    default:
        i = first_4((const Py_UCS4 *)data, n, t);
        break;
    }
    if (i == n) {
        Py_INCREF(s);
        return s;
    }
    if (t->non_ascii) {
        /* Everything before i is ASCII that stays; from i on, UTF-8 %XX. */
        Py_UCS1 *o;
        switch (kind) {
        case PyUnicode_1BYTE_KIND:
            len = enc_len_1((const Py_UCS1 *)data + i, n - i, t);
            break;
        case PyUnicode_2BYTE_KIND:
            len = enc_len_2((const Py_UCS2 *)data + i, n - i, t);
            break;
        default:
            len = enc_len_4((const Py_UCS4 *)data + i, n - i, t);
            break;
        }
        if (len < 0) {
            return raise_utf8_encode_error(s);
        }
        r = PyUnicode_New(i + len, 127);
        if (r == NULL) {
            return NULL;
        }
        o = PyUnicode_1BYTE_DATA(r);
        switch (kind) {
        case PyUnicode_1BYTE_KIND:
            memcpy(o, data, (size_t)i);
            enc_write_1((const Py_UCS1 *)data + i, n - i, t, o + i);
            break;
        case PyUnicode_2BYTE_KIND:
            for (j = 0; j < i; j++) {
                o[j] = (Py_UCS1)((const Py_UCS2 *)data)[j];
            }
            enc_write_2((const Py_UCS2 *)data + i, n - i, t, o + i);
            break;
        default:
            for (j = 0; j < i; j++) {
                o[j] = (Py_UCS1)((const Py_UCS4 *)data)[j];
            }
            enc_write_4((const Py_UCS4 *)data + i, n - i, t, o + i);
            break;
        }
        return r;
    }
    /* Non-ASCII stays: the result keeps every non-ASCII code point, so it has
     * the input's kind (and is canonical, as CPython requires). */
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        len = n + keep_extra_1((const Py_UCS1 *)data + i, n - i, t);
        break;
    case PyUnicode_2BYTE_KIND:
        len = n + keep_extra_2((const Py_UCS2 *)data + i, n - i, t);
        break;
    default:
        len = n + keep_extra_4((const Py_UCS4 *)data + i, n - i, t);
        break;
    }
    r = PyUnicode_New(len, PyUnicode_MAX_CHAR_VALUE(s));
    if (r == NULL) {
        return NULL;
    }
    memcpy(PyUnicode_DATA(r), data, (size_t)i * (size_t)kind);
    switch (kind) {
    case PyUnicode_1BYTE_KIND:
        keep_write_1((const Py_UCS1 *)data + i, n - i, t, PyUnicode_1BYTE_DATA(r) + i);
        break;
    case PyUnicode_2BYTE_KIND:
        keep_write_2((const Py_UCS2 *)data + i, n - i, t, PyUnicode_2BYTE_DATA(r) + i);
        break;
    default:
        keep_write_4((const Py_UCS4 *)data + i, n - i, t, PyUnicode_4BYTE_DATA(r) + i);
        break;
    }
    return r;
}

static PyObject *
encode_obj(PyObject *data, PyObject *table, int plus)
{
    const EncTable *t;
    if ((t = get_enc_table(table, plus)) == NULL) {
        return NULL;
    }
    if (PyUnicode_Check(data)) {
        if (PE_READY(data) < 0) {
            return NULL;
        }
        return encode_str(data, t);
    }
    if (PyBytes_Check(data)) {
        return encode_u8(NULL, (const uint8_t *)PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data),
                         t);
    }
    PyErr_Format(PyExc_TypeError, "expected string or bytes-like object, got '%.200s'",
                 Py_TYPE(data)->tp_name);
    return NULL;
}

static PyObject *
pe_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"data", "table", "space_as_plus"};
    PyObject *a[3];
    int plus;
    (void)self;
    if (parse_args("encode", args, nargs, kwnames, names, 3, a) < 0) {
        return NULL;
    }
    if ((plus = PyObject_IsTrue(a[2])) < 0) {
        return NULL;
    }
    return encode_obj(a[0], a[1], plus);
}

/* ------------------------------------------------------------------------ */
/* Decode (URL Standard §1.3 percent-decode).                               */

/* hex2[two bytes cd, as a native uint16] is the byte %cd stands for, or
 * 0x100 when c or d is not a hex digit: one load and one lookup per escape.
 * 128 KB, of which the 22 x 22 hex pairs touch a few dozen cache lines.
 * Filled from PE_HEXVAL at module init. */
static uint16_t hex2[65536];

static void
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
static inline unsigned
hex_pair(const uint8_t *q)
{
    uint16_t k;
    memcpy(&k, q, 2);
    return hex2[k];
}

/* What utf8_valid_to_str needs to know of a byte string: its largest byte and its
 * number of continuation bytes (10xxxxxx). */
typedef struct {
    unsigned mx;
    Py_ssize_t cont;
} U8Stats;

#define U8_UNKNOWN 0x100u /* mx when the stats are not known: scan first */

/* How many of the 8 bytes at p come before the first '%', '+' (when plus)
 * or, when high, byte above 0x7F: 8 when there is none. */
static inline int
plain_prefix8(const uint8_t *p, int plus, int high)
{
#ifdef PE_SWAR
    uint64_t w, x, m;
    memcpy(&w, p, 8);
    x = w ^ 0x2525252525252525ULL;
    m = (x - 0x0101010101010101ULL) & ~x;
    if (plus) {
        uint64_t y = w ^ 0x2B2B2B2B2B2B2B2BULL;
        m |= (y - 0x0101010101010101ULL) & ~y;
    }
    if (high) {
        m |= w;
    }
    m &= 0x8080808080808080ULL;
    /* The lowest flagged byte is exact (false hits only follow it). */
    return m ? __builtin_ctzll(m) >> 3 : 8;
#else
    int k;
    for (k = 0; k < 8 && p[k] != '%' && !(plus && p[k] == '+') && !(high && p[k] >= 0x80); k++) {
    }
    return k;
#endif
}

/* Copy the plain bytes at p[*pi] to *po, 8 at a time, up to the first '%',
 * '+' (when plus) or, when high, byte above 0x7F, or until fewer than 8
 * bytes are left; both positions move past what was copied.  The 8-byte
 * store may run past the run, never past p[n] in step: *po holds at most
 * one element per input byte, so callers size it for n elements. */
#define DEFINE_PLAIN_RUN(K, T)                                                             \
    static inline void plain_run_##K(const uint8_t *p, Py_ssize_t n, int plus, int high,   \
                                     Py_ssize_t *pi, T **po)                               \
    {                                                                                      \
        Py_ssize_t i = *pi;                                                                \
        T *o = *po;                                                                        \
        while (i + 8 <= n) {                                                               \
            int j, k = plain_prefix8(p + i, plus, high);                                   \
            if (K == 1) {                                                                  \
                memcpy(o, p + i, 8);                                                       \
            }                                                                              \
            else {                                                                         \
                for (j = 0; j < 8; j++) {                                                  \
                    o[j] = p[i + j];                                                       \
                }                                                                          \
            }                                                                              \
            o += k;                                                                        \
            i += k;                                                                        \
            if (k < 8) {                                                                   \
                break;                                                                     \
            }                                                                              \
        }                                                                                  \
        *pi = i;                                                                           \
        *po = o;                                                                           \
    }

DEFINE_PLAIN_RUN(1, Py_UCS1)
DEFINE_PLAIN_RUN(2, Py_UCS2)
DEFINE_PLAIN_RUN(4, Py_UCS4)

/* Decode p[0:n] (bytes, or an ASCII str's buffer) into o, which has room for
 * n bytes.  Returns the length written, or -1 when `strict` and p[*bad] is a
 * '%' that does not start %XX.  *st says whether the bytes that came from
 * %XX escapes are all ASCII (mx 0) or not (U8_UNKNOWN): when p is ASCII and
 * so are they, the UTF-8 decode that follows needs no scan of its own. */
static Py_ssize_t
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
typedef struct {
    PyObject *obj;
    const void *data;
    Py_ssize_t n;
    int is_str;
    int kind; /* 0: a byte buffer (bytes or ASCII str); else the str's kind */
} Src;

static int
get_src(PyObject *data, Src *s)
{
    s->obj = data;
    if (PyUnicode_Check(data)) {
        if (PE_READY(data) < 0) {
            return -1;
        }
        s->is_str = 1;
        s->n = PyUnicode_GET_LENGTH(data);
        s->data = PyUnicode_DATA(data);
        s->kind = PyUnicode_IS_ASCII(data) ? 0 : (int)PyUnicode_KIND(data);
        return 0;
    }
    if (PyBytes_Check(data)) {
        s->is_str = 0;
        s->n = PyBytes_GET_SIZE(data);
        s->data = PyBytes_AS_STRING(data);
        s->kind = 0;
        return 0;
    }
    PyErr_Format(PyExc_TypeError, "expected str or bytes, got '%.200s'", Py_TYPE(data)->tp_name);
    return -1;
}

/* Worst-case decoded size: UTF-8 bytes per code point of the input. */
static Py_ssize_t
decode_capacity(const Src *s)
{
    Py_ssize_t per = s->kind == 0 ? 1 : s->kind == 1 ? 2 : s->kind == 2 ? 3 : 4;
    if (s->n > PY_SSIZE_T_MAX / per) {
        PyErr_NoMemory();
        return -1;
    }
    return s->n * per;
}

/* Whether decoding is the identity: no '%' and (no '+' or no plus mode). */
static int
nothing_to_decode(const Src *s, int plus)
{
    if (s->kind == 0) {
        return memchr(s->data, '%', (size_t)s->n) == NULL &&
               (!plus || memchr(s->data, '+', (size_t)s->n) == NULL);
    }
    return PyUnicode_FindChar(s->obj, '%', 0, s->n, 1) == -1 &&
           (!plus || PyUnicode_FindChar(s->obj, '+', 0, s->n, 1) == -1);
}

static void
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
static Py_ssize_t
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

static int
get_flags(PyObject *const *objs, int n, int *out)
{
    int i;
    for (i = 0; i < n; i++) {
        if ((out[i] = PyObject_IsTrue(objs[i])) < 0) {
            return -1;
        }
    }
    return 0;
}

static PyObject *
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

#define DEFINE_UTF8_FILL(K, T)                                                             \
    static int utf8_fill_##K(const uint8_t *p, Py_ssize_t n, T *o, const T *end)           \
    {                                                                                      \
        Py_ssize_t i = 0;                                                                  \
        while (i < n) {                                                                    \
            Py_UCS4 c = p[i], c1;                                                          \
            int len;                                                                       \
            if (c < 0x80) {                                                                \
                /* ASCII: this byte and then 8 at a time while they stay ASCII. */         \
                if (o == end) {                                                            \
                    return -1;                                                             \
                }                                                                          \
                *o++ = (T)c;                                                               \
                i += 1;                                                                    \
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
utf8_valid_to_str(const uint8_t *p, Py_ssize_t n, const U8Stats *st)
{
    Py_ssize_t cont;
    unsigned mx;
    int rc;
    Py_UCS4 maxchar;
    PyObject *r;
    if (st == NULL || st->mx == U8_UNKNOWN) {
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
    switch (PyUnicode_KIND(r)) {
    case PyUnicode_1BYTE_KIND:
        rc = utf8_fill_1(p, n, PyUnicode_1BYTE_DATA(r), PyUnicode_1BYTE_DATA(r) + (n - cont));
        break;
    case PyUnicode_2BYTE_KIND:
        rc = utf8_fill_2(p, n, PyUnicode_2BYTE_DATA(r), PyUnicode_2BYTE_DATA(r) + (n - cont));
        break;
    default:
        rc = utf8_fill_4(p, n, PyUnicode_4BYTE_DATA(r), PyUnicode_4BYTE_DATA(r) + (n - cont));
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
static PyObject *
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
static PyObject *
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
#define FUSED_MAX 512
#define FUSED_DONE 0
#define FUSED_BAD_PERCENT (-1) /* strict, and a '%' at st->i starts no %XX */
#define FUSED_GENERAL (-3)
#define FUSED_WIDER (-4) /* st->hi needs a wider kind; resume at st->i */
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
static PyObject *
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

static PyObject *decode_text_obj(PyObject *data, const int *f);

static PyObject *
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
static PyObject *
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

/* ------------------------------------------------------------------------ */
/* Forms: URL Standard §5.1 parser, §5.2 serializer.                        */

enum {
    OUT_STR_FROM_BYTES, /* bytes input: pieces are UTF-8 decoded with U+FFFD */
    OUT_STR_ASCII,      /* ASCII str input: pieces without escapes are copied */
    OUT_STR_UTF8,       /* non-ASCII str input, seen as its UTF-8 (surrogatepass) */
    OUT_BYTES           /* form_parse_bytes */
};

typedef struct {
    uint8_t *p;
    Py_ssize_t cap;
    uint8_t stack[512];
} Scratch;

static uint8_t *
scratch_get(Scratch *s, Py_ssize_t n)
{
    if (n > s->cap) {
        if (s->p != s->stack) {
            PyMem_Free(s->p);
        }
        s->p = PyMem_Malloc((size_t)n);
        if (s->p == NULL) {
            s->p = s->stack;
            s->cap = (Py_ssize_t)sizeof(s->stack);
            PyErr_NoMemory();
            return NULL;
        }
        s->cap = n;
    }
    return s->p;
}

/* In the surrogatepass UTF-8 of a str, ED A0..BF starts a lone surrogate. */
static int
has_raw_surrogate(const uint8_t *p, Py_ssize_t n)
{
    Py_ssize_t i;
    for (i = 0; i + 1 < n; i++) {
        if (p[i] == 0xED && p[i + 1] >= 0xA0) {
            return 1;
        }
    }
    return 0;
}

/* The pure twin UTF-8 encodes a piece that has escapes (after '+' became a
 * space), so a lone surrogate in it raises there, relative to the piece. */
static PyObject *
raise_piece_surrogate(const uint8_t *p, Py_ssize_t n, Scratch *s)
{
    uint8_t *o = scratch_get(s, n);
    PyObject *piece;
    Py_ssize_t i;
    if (o == NULL) {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        o[i] = p[i] == '+' ? ' ' : p[i];
    }
    piece = PyUnicode_DecodeUTF8((const char *)o, n, "surrogatepass");
    if (piece == NULL) {
        return NULL;
    }
    raise_utf8_encode_error(piece);
    Py_DECREF(piece);
    return NULL;
}

static PyObject *
form_piece(const uint8_t *p, Py_ssize_t n, int mode, Scratch *s)
{
    const uint8_t *pct = memchr(p, '%', (size_t)n);
    uint8_t *o;
    Py_ssize_t m;
    U8Stats st;
    if (pct == NULL && mode == OUT_STR_ASCII) {
        /* ASCII without escapes: copy straight into the str, '+' as space. */
        PyObject *r = PyUnicode_New(n, 127);
        if (r != NULL) {
            Py_UCS1 *d = PyUnicode_1BYTE_DATA(r);
            for (m = 0; m < n; m++) {
                d[m] = p[m] == '+' ? ' ' : p[m];
            }
        }
        return r;
    }
    if (pct == NULL && memchr(p, '+', (size_t)n) == NULL) {
        switch (mode) {
        case OUT_BYTES:
            return PyBytes_FromStringAndSize((const char *)p, n);
        case OUT_STR_UTF8:
            return utf8_str(p, n, "surrogatepass", NULL);
        default:
            return utf8_str(p, n, "replace", NULL);
        }
    }
    if (pct != NULL && mode == OUT_STR_UTF8 && has_raw_surrogate(p, n)) {
        return raise_piece_surrogate(p, n, s);
    }
    if (mode == OUT_STR_ASCII && n <= FUSED_MAX) {
        int rc = FUSED_DONE;
        Py_ssize_t bad;
        PyObject *r = decode_short(p, n, 1, 0, NULL, &rc, &bad);
        if (rc != FUSED_GENERAL) {
            return r;
        }
    }
    if ((o = scratch_get(s, n)) == NULL) {
        return NULL;
    }
    m = decode_u8(p, n, o, 1, 0, NULL, &st);
    switch (mode) {
    case OUT_BYTES:
        return PyBytes_FromStringAndSize((const char *)o, m);
    case OUT_STR_UTF8:
        return utf8_str(o, m, pct == NULL ? "surrogatepass" : "replace", NULL);
    case OUT_STR_ASCII:
        /* ASCII input: only escapes made bytes above 0x7F, and st saw them all */
        return utf8_str(o, m, "replace", &st);
    default:
        return utf8_str(o, m, "replace", NULL);
    }
}

static PyObject *
form_parse_buf(const uint8_t *p, Py_ssize_t n, int mode)
{
    PyObject *list = PyList_New(0), *name = NULL, *value = NULL, *pair;
    Scratch s;
    Py_ssize_t i = 0;
    if (list == NULL) {
        return NULL;
    }
    s.p = s.stack;
    s.cap = (Py_ssize_t)sizeof(s.stack);
    /* Split on '&', skip empty sequences, split each at its first '='. */
    while (i < n) {
        const uint8_t *amp = memchr(p + i, '&', (size_t)(n - i));
        Py_ssize_t end = amp == NULL ? n : amp - p;
        if (end > i) {
            const uint8_t *eq = memchr(p + i, '=', (size_t)(end - i));
            Py_ssize_t name_end = eq == NULL ? end : eq - p;
            name = form_piece(p + i, name_end - i, mode, &s);
            if (name == NULL) {
                goto error;
            }
            if (eq == NULL) {
                value = mode == OUT_BYTES ? PyBytes_FromStringAndSize("", 0) : PyUnicode_New(0, 0);
            }
            else {
                value = form_piece(p + name_end + 1, end - name_end - 1, mode, &s);
            }
            if (value == NULL) {
                goto error;
            }
            pair = PyTuple_New(2);
            if (pair == NULL) {
                goto error;
            }
            PyTuple_SET_ITEM(pair, 0, name);
            PyTuple_SET_ITEM(pair, 1, value);
            name = value = NULL;
            /* Two str (or bytes) cannot form a cycle: untrack now, as the
             * collector would on its next pass, so 20,000 pairs cost it nothing. */
            PyObject_GC_UnTrack(pair);
            if (PyList_Append(list, pair) < 0) {
                Py_DECREF(pair);
                goto error;
            }
            Py_DECREF(pair);
        }
        i = end + 1;
    }
    if (s.p != s.stack) {
        PyMem_Free(s.p);
    }
    return list;
error:
    Py_XDECREF(name);
    Py_XDECREF(value);
    Py_DECREF(list);
    if (s.p != s.stack) {
        PyMem_Free(s.p);
    }
    return NULL;
}

/* Whether every byte of p[0:n] is below 0x80. */
static int
all_ascii(const uint8_t *p, Py_ssize_t n)
{
    Py_ssize_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        if (w & 0x8080808080808080ULL) {
            return 0;
        }
    }
    for (; i < n; i++) {
        if (p[i] & 0x80) {
            return 0;
        }
    }
    return 1;
}

static PyObject *
pe_form_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"data"};
    PyObject *data, *utf8, *r;
    (void)self;
    if (parse_args("form_parse", args, nargs, kwnames, names, 1, &data) < 0) {
        return NULL;
    }
    if (PyBytes_Check(data)) {
        const uint8_t *p = (const uint8_t *)PyBytes_AS_STRING(data);
        Py_ssize_t n = PyBytes_GET_SIZE(data);
        /* ASCII bytes parse exactly like the same str, and that mode copies
         * pieces without escapes with no UTF-8 check. */
        return form_parse_buf(p, n, all_ascii(p, n) ? OUT_STR_ASCII : OUT_STR_FROM_BYTES);
    }
    if (!PyUnicode_Check(data)) {
        PyErr_Format(PyExc_TypeError, "expected str or bytes, got '%.200s'",
                     Py_TYPE(data)->tp_name);
        return NULL;
    }
    if (PE_READY(data) < 0) {
        return NULL;
    }
    if (PyUnicode_IS_ASCII(data)) {
        return form_parse_buf(PyUnicode_1BYTE_DATA(data), PyUnicode_GET_LENGTH(data),
                              OUT_STR_ASCII);
    }
    /* surrogatepass keeps lone surrogates, as the pure twin does in pieces
     * without escapes; pieces with escapes raise as there. */
    utf8 = PyUnicode_AsEncodedString(data, "utf-8", "surrogatepass");
    if (utf8 == NULL) {
        return NULL;
    }
    r = form_parse_buf((const uint8_t *)PyBytes_AS_STRING(utf8), PyBytes_GET_SIZE(utf8),
                       OUT_STR_UTF8);
    Py_DECREF(utf8);
    return r;
}

static PyObject *
pe_form_parse_bytes(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"data"};
    PyObject *data;
    (void)self;
    if (parse_args("form_parse_bytes", args, nargs, kwnames, names, 1, &data) < 0) {
        return NULL;
    }
    if (!PyBytes_Check(data)) {
        PyErr_Format(PyExc_TypeError, "a bytes-like object is required, not '%.200s'",
                     Py_TYPE(data)->tp_name);
        return NULL;
    }
    return form_parse_buf((const uint8_t *)PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data),
                          OUT_BYTES);
}

/* `for name, value in pairs`: new references in *a, *b. */
static int
unpack2(PyObject *item, PyObject **a, PyObject **b)
{
    PyObject *it, *extra;
    *a = *b = NULL;
    if ((PyTuple_CheckExact(item) && PyTuple_GET_SIZE(item) == 2) ||
        (PyList_CheckExact(item) && PyList_GET_SIZE(item) == 2)) {
        *a = PySequence_Fast_GET_ITEM(item, 0);
        *b = PySequence_Fast_GET_ITEM(item, 1);
        Py_INCREF(*a);
        Py_INCREF(*b);
        return 0;
    }
    it = PyObject_GetIter(item);
    if (it == NULL) {
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Format(PyExc_TypeError, "cannot unpack non-iterable %.200s object",
                         Py_TYPE(item)->tp_name);
        }
        return -1;
    }
    if ((*a = PyIter_Next(it)) == NULL || (*b = PyIter_Next(it)) == NULL) {
        if (!PyErr_Occurred()) {
            PyErr_Format(PyExc_ValueError, "not enough values to unpack (expected 2, got %d)",
                         *a == NULL ? 0 : 1);
        }
        goto fail;
    }
    if ((extra = PyIter_Next(it)) != NULL) {
        Py_DECREF(extra);
        PyErr_SetString(PyExc_ValueError, "too many values to unpack (expected 2)");
        goto fail;
    }
    if (PyErr_Occurred()) {
        goto fail;
    }
    Py_DECREF(it);
    return 0;
fail:
    Py_DECREF(it);
    Py_CLEAR(*a);
    Py_CLEAR(*b);
    return -1;
}

/* Length of a name or value serialized with the form set, or -1 (raised). */
static Py_ssize_t
form_len(PyObject *o)
{
    const EncTable *t = &form_table;
    Py_ssize_t n, len;
    if (PyUnicode_Check(o)) {
        if (PE_READY(o) < 0) {
            return -1;
        }
        n = PyUnicode_GET_LENGTH(o);
        if (n > PY_SSIZE_T_MAX / 12) {
            PyErr_NoMemory();
            return -1;
        }
        if (PyUnicode_IS_ASCII(o)) {
            return n + extra_u8(PyUnicode_1BYTE_DATA(o), n, t);
        }
        switch (PyUnicode_KIND(o)) {
        case PyUnicode_1BYTE_KIND:
            len = enc_len_1(PyUnicode_1BYTE_DATA(o), n, t);
            break;
        case PyUnicode_2BYTE_KIND:
            len = enc_len_2(PyUnicode_2BYTE_DATA(o), n, t);
            break;
        default:
            len = enc_len_4(PyUnicode_4BYTE_DATA(o), n, t);
            break;
        }
        if (len < 0) {
            raise_utf8_encode_error(o);
        }
        return len;
    }
    if (PyBytes_Check(o)) {
        n = PyBytes_GET_SIZE(o);
        if (n > PY_SSIZE_T_MAX / 3) {
            PyErr_NoMemory();
            return -1;
        }
        return n + extra_u8((const uint8_t *)PyBytes_AS_STRING(o), n, t);
    }
    PyErr_Format(PyExc_TypeError, "expected string or bytes-like object, got '%.200s'",
                 Py_TYPE(o)->tp_name);
    return -1;
}

static Py_UCS1 *
form_write(PyObject *o, Py_UCS1 *out)
{
    const EncTable *t = &form_table;
    if (PyBytes_Check(o)) {
        return write_u8((const uint8_t *)PyBytes_AS_STRING(o), PyBytes_GET_SIZE(o), t, out);
    }
    if (PyUnicode_IS_ASCII(o)) {
        return write_u8(PyUnicode_1BYTE_DATA(o), PyUnicode_GET_LENGTH(o), t, out);
    }
    switch (PyUnicode_KIND(o)) {
    case PyUnicode_1BYTE_KIND:
        return enc_write_1(PyUnicode_1BYTE_DATA(o), PyUnicode_GET_LENGTH(o), t, out);
    case PyUnicode_2BYTE_KIND:
        return enc_write_2(PyUnicode_2BYTE_DATA(o), PyUnicode_GET_LENGTH(o), t, out);
    default:
        return enc_write_4(PyUnicode_4BYTE_DATA(o), PyUnicode_GET_LENGTH(o), t, out);
    }
}

static PyObject *
form_serialize_obj(PyObject *pairs)
{
    PyObject *seq, *stack_items[32], **items = NULL, *r = NULL;
    Py_ssize_t n, i, got = 0, total = 0;
    Py_UCS1 *o;
    if (PyList_CheckExact(pairs) || PyTuple_CheckExact(pairs)) {
        Py_INCREF(pairs);
        seq = pairs;
    }
    else if ((seq = PySequence_List(pairs)) == NULL) {
        return NULL;
    }
    n = PySequence_Fast_GET_SIZE(seq);
    if (n == 0) {
        Py_DECREF(seq);
        return PyUnicode_New(0, 0);
    }
    if (n <= (Py_ssize_t)(sizeof(stack_items) / sizeof(stack_items[0]) / 2)) {
        items = stack_items;
    }
    else if ((size_t)n > PY_SSIZE_T_MAX / (2 * sizeof(PyObject *)) ||
             (items = PyMem_Malloc((size_t)n * 2 * sizeof(PyObject *))) == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    /* Pass 1, in the pure twin's order: unpack each pair, check and size it. */
    for (i = 0; i < n; i++) {
        Py_ssize_t a, b;
        /* A list may shrink while an item's __iter__ runs. */
        if (i >= PySequence_Fast_GET_SIZE(seq)) {
            break;
        }
        {
            /* Hold the pair: an item's __iter__ may change the list. */
            PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
            int rc;
            Py_INCREF(item);
            rc = unpack2(item, &items[2 * i], &items[2 * i + 1]);
            Py_DECREF(item);
            if (rc < 0) {
                goto done;
            }
        }
        got = i + 1;
        if ((a = form_len(items[2 * i])) < 0 || (b = form_len(items[2 * i + 1])) < 0) {
            goto done;
        }
        if (a > PY_SSIZE_T_MAX - 2 - b || total > PY_SSIZE_T_MAX - 2 - a - b) {
            PyErr_NoMemory();
            goto done;
        }
        total += a + b + 2; /* "=" and "&" (one "&" too many, taken off below) */
    }
    if (got == 0) {
        r = PyUnicode_New(0, 0);
        goto done;
    }
    r = PyUnicode_New(total - 1, 127);
    if (r == NULL) {
        goto done;
    }
    o = PyUnicode_1BYTE_DATA(r);
    for (i = 0; i < got; i++) {
        if (i > 0) {
            *o++ = '&';
        }
        o = form_write(items[2 * i], o);
        *o++ = '=';
        o = form_write(items[2 * i + 1], o);
    }
done:
    for (i = 0; i < got; i++) {
        Py_XDECREF(items[2 * i]);
        Py_XDECREF(items[2 * i + 1]);
    }
    if (items != stack_items) {
        PyMem_Free(items);
    }
    Py_DECREF(seq);
    return r;
}

static PyObject *
pe_form_serialize(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"pairs"};
    PyObject *pairs;
    (void)self;
    if (parse_args("form_serialize", args, nargs, kwnames, names, 1, &pairs) < 0) {
        return NULL;
    }
    return form_serialize_obj(pairs);
}

/* ------------------------------------------------------------------------ */
/* Entries: core.encode, core.decode_text and form.serialize as vectorcall   */
/* objects.  The fast path takes the common call straight to a kernel;       */
/* anything else (and a kernel UnicodeEncodeError) goes to the checked       */
/* Python function with the original arguments, so results, errors and       */
/* messages are unchanged.                                                   */

enum { ENTRY_ENCODE, ENTRY_DECODE_TEXT, ENTRY_SERIALIZE };

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    int kind;
    PyObject *fallback; /* the checked Python function */
    PyObject *registry; /* sets._REGISTRY (encode) */
    PyObject *set_type; /* sets.EncodeSet (encode) */
    PyObject *last_set; /* encode: the last EncodeSet used, and its .table */
    PyObject *last_table;
    PyObject *last_name; /* encode: the str that named last_set, or NULL */
    PyObject *dict;     /* __name__, __doc__, __wrapped__, ... */
} Entry;

/* Whether the fast paths may run: core._use_kernels turns them off while the
 * pure twin is the active kernel module (the test suite runs on both). */
static int entries_active = 1;

static PyObject *s_table, *s_component, *s_utf8, *s_utf8_upper, *s_strict, *s_replace;
static PyObject *s_data, *s_encode_set, *s_encoding, *s_errors, *s_space_as_plus;
static PyObject *s_plus_as_space, *s_strict_kw, *s_pairs;

static int
kw_is(PyObject *key, PyObject *name)
{
    return key == name || (PyUnicode_CheckExact(key) && PyUnicode_Compare(key, name) == 0);
}

static int
str_is(PyObject *o, PyObject *want)
{
    return o == want ||
           (PyUnicode_CheckExact(o) && PyUnicode_GET_LENGTH(o) == PyUnicode_GET_LENGTH(want) &&
            PyUnicode_Compare(o, want) == 0);
}

/* 1: False, 2: True, 0: anything else */
static int
flag_of(PyObject *o)
{
    return o == NULL || o == Py_False ? 1 : o == Py_True ? 2 : 0;
}

/* The parameters an entry's fast path knows, in slot order; the first npos
 * may come positionally.  (Addresses of the interned names, which are
 * filled at module init.) */
typedef struct {
    PyObject **const *names;
    int n;
    int npos;
} EntrySig;

static PyObject **const encode_names[] = {&s_data, &s_encode_set, &s_encoding, &s_errors,
                                          &s_space_as_plus};
static PyObject **const decode_text_names[] = {&s_data, &s_encoding, &s_errors,
                                               &s_plus_as_space, &s_strict_kw};
static PyObject **const serialize_names[] = {&s_pairs, &s_encoding};
static const EntrySig entry_sigs[] = {
    [ENTRY_ENCODE] = {encode_names, 5, 2},
    [ENTRY_DECODE_TEXT] = {decode_text_names, 5, 1},
    [ENTRY_SERIALIZE] = {serialize_names, 2, 1},
};
#define ENTRY_MAX_ARGS 5

/* Bind the call's arguments to the slots of sig (unset slots are NULL).
 * Returns 0, or -1 (no exception) when the call is not one the fast path
 * takes: too many positionals, an unknown keyword, a slot given twice.  The
 * checked function then raises Python's own TypeError. */
static int
entry_bind(const EntrySig *sig, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames,
           PyObject **out)
{
    Py_ssize_t j, nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    int i;
    if (nargs > sig->npos) {
        return -1;
    }
    for (i = 0; i < sig->n; i++) {
        out[i] = i < nargs ? args[i] : NULL;
    }
    for (j = 0; j < nkw; j++) {
        PyObject *key = PyTuple_GET_ITEM(kwnames, j);
        for (i = 0; i < sig->n && !kw_is(key, *sig->names[i]); i++) {
        }
        if (i == sig->n || out[i] != NULL) {
            return -1;
        }
        out[i] = args[nargs + j];
    }
    return 0;
}

/* What a fast path's kernel error means: a UnicodeEncodeError (a lone
 * surrogate) goes to the checked function, which raises ours with the
 * position; anything else (MemoryError, ...) propagates. */
static PyObject *
entry_kernel_result(PyObject *r, int *fall)
{
    if (r == NULL && PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
        PyErr_Clear();
        return NULL;
    }
    *fall = 0;
    return r;
}

/* encode(data, encode_set="component", *, encoding, errors, space_as_plus) */
static PyObject *
entry_fast_encode(Entry *e, PyObject *const *a, int *fall)
{
    PyObject *data = a[0], *es = a[1], *set, *table, *r;
    int fp = flag_of(a[4]);
    if (data == NULL || fp == 0 || (a[2] != NULL && !str_is(a[2], s_utf8)) ||
        (a[3] != NULL && !str_is(a[3], s_strict)) ||
        (!PyUnicode_CheckExact(data) && !PyBytes_CheckExact(data))) {
        return NULL;
    }
    if (es == NULL) {
        es = s_component;
    }
    /* A registered name is never bound again (sets.register refuses), so the
     * same str object names the same set as last time: no dict lookup. */
    if (es != e->last_name || e->last_name == NULL) {
        PyObject *name = NULL;
        if (PyUnicode_CheckExact(es)) {
            set = PyDict_GetItemWithError(e->registry, es);
            if (set == NULL) {
                *fall = !PyErr_Occurred();
                return NULL;
            }
            name = es;
        }
        else {
            set = es;
        }
        if ((PyObject *)Py_TYPE(set) != e->set_type) {
            return NULL;
        }
        if (set != e->last_set) {
            /* EncodeSet is immutable: its .table stays the same while it
             * lives, and the entry holds both. */
            Py_INCREF(set);
            table = PyObject_GetAttr(set, s_table);
            if (table == NULL) {
                Py_DECREF(set);
                *fall = 0;
                return NULL;
            }
            Py_XSETREF(e->last_set, set);
            Py_XSETREF(e->last_table, table);
        }
        Py_XINCREF(name);
        Py_XSETREF(e->last_name, name);
    }
    table = e->last_table;
    Py_INCREF(table);
    r = encode_obj(data, table, fp == 2);
    Py_DECREF(table);
    return entry_kernel_result(r, fall);
}

/* decode_text(data, *, encoding, errors, plus_as_space, strict) */
static PyObject *
entry_fast_decode_text(PyObject *const *a, int *fall)
{
    PyObject *data = a[0];
    int f[3];
    if (data == NULL || (f[0] = flag_of(a[3])) == 0 || (f[1] = flag_of(a[4])) == 0 ||
        (a[1] != NULL && !str_is(a[1], s_utf8)) || (a[2] != NULL && !str_is(a[2], s_replace)) ||
        (!PyUnicode_CheckExact(data) && !PyBytes_CheckExact(data))) {
        return NULL;
    }
    f[0] -= 1;
    f[1] -= 1;
    f[2] = 0;
    return entry_kernel_result(decode_text_obj(data, f), fall);
}

/* form.serialize(pairs, *, encoding="utf-8"): a list or tuple of 2-tuples
 * (or 2-lists) of exact str or bytes; any other shape goes to the checked
 * function, which also handles mappings, iterators and legacy encodings. */
static PyObject *
entry_fast_serialize(PyObject *const *a, int *fall)
{
    PyObject *pairs = a[0], *const *items;
    Py_ssize_t i, n;
    if (pairs == NULL ||
        (a[1] != NULL && !str_is(a[1], s_utf8) && !str_is(a[1], s_utf8_upper))) {
        return NULL;
    }
    if (PyList_CheckExact(pairs)) {
        items = PySequence_Fast_ITEMS(pairs);
        n = PyList_GET_SIZE(pairs);
    }
    else if (PyTuple_CheckExact(pairs)) {
        items = PySequence_Fast_ITEMS(pairs);
        n = PyTuple_GET_SIZE(pairs);
    }
    else {
        return NULL;
    }
    for (i = 0; i < n; i++) {
        PyObject *p = items[i], *x, *y;
        if ((!PyTuple_CheckExact(p) || PyTuple_GET_SIZE(p) != 2) &&
            (!PyList_CheckExact(p) || PyList_GET_SIZE(p) != 2)) {
            return NULL;
        }
        x = PySequence_Fast_GET_ITEM(p, 0);
        y = PySequence_Fast_GET_ITEM(p, 1);
        if ((!PyUnicode_CheckExact(x) && !PyBytes_CheckExact(x)) ||
            (!PyUnicode_CheckExact(y) && !PyBytes_CheckExact(y))) {
            return NULL;
        }
    }
    /* Nothing above ran Python code, so the checked shape still holds. */
    return entry_kernel_result(form_serialize_obj(pairs), fall);
}

static PyObject *
entry_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Entry *e = (Entry *)self;
    PyObject *a[ENTRY_MAX_ARGS] = {NULL}, *r = NULL;
    int fall = 1;
    if (e->kind == ENTRY_DECODE_TEXT && kwnames == NULL && PyVectorcall_NARGS(nargsf) == 1 &&
        entries_active && PyUnicode_CheckExact(args[0])) {
        /* decode_text(s), the commonest call: every option at its default */
        static const int defaults[3] = {0, 0, 0};
        r = entry_kernel_result(decode_text_obj(args[0], defaults), &fall);
        if (r != NULL || !fall) {
            return r;
        }
    }
    else if (entries_active && entry_bind(&entry_sigs[e->kind], args, PyVectorcall_NARGS(nargsf),
                                          kwnames, a) == 0) {
        switch (e->kind) {
        case ENTRY_ENCODE:
            r = entry_fast_encode(e, a, &fall);
            break;
        case ENTRY_DECODE_TEXT:
            r = entry_fast_decode_text(a, &fall);
            break;
        default:
            r = entry_fast_serialize(a, &fall);
            break;
        }
        if (r != NULL || !fall) {
            return r;
        }
    }
    return PyObject_Vectorcall(e->fallback, args, nargsf, kwnames);
}

static int
entry_traverse(Entry *e, visitproc visit, void *arg)
{
    Py_VISIT(e->fallback);
    Py_VISIT(e->registry);
    Py_VISIT(e->set_type);
    Py_VISIT(e->last_set);
    Py_VISIT(e->last_table);
    Py_VISIT(e->last_name);
    Py_VISIT(e->dict);
    return 0;
}

static int
entry_clear(Entry *e)
{
    Py_CLEAR(e->fallback);
    Py_CLEAR(e->registry);
    Py_CLEAR(e->set_type);
    Py_CLEAR(e->last_set);
    Py_CLEAR(e->last_table);
    Py_CLEAR(e->last_name);
    Py_CLEAR(e->dict);
    return 0;
}

static void
entry_dealloc(Entry *e)
{
    PyObject_GC_UnTrack(e);
    entry_clear(e);
    PyObject_GC_Del(e);
}

static PyObject *
entry_repr(Entry *e)
{
    static const char *const kinds[] = {"encode", "decode_text", "serialize"};
    return PyUnicode_FromFormat("<percent_encoding entry %s (C fast path)>", kinds[e->kind]);
}

static PyObject *
entry_get(PyObject *self, PyObject *obj, PyObject *type)
{
    /* like a builtin function: no binding when stored on a class */
    (void)obj;
    (void)type;
    Py_INCREF(self);
    return self;
}

static PyObject *
entry_reduce(PyObject *self, PyObject *unused)
{
    /* pickle (and copy) by reference, as for functions: module.__qualname__ */
    (void)unused;
    return PyObject_GetAttrString(self, "__qualname__");
}

static PyMethodDef entry_methods[] = {
    {"__reduce__", entry_reduce, METH_NOARGS, NULL},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef entry_getset[] = {
    {"__dict__", PyObject_GenericGetDict, PyObject_GenericSetDict, NULL, NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject EntryType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "percent_encoding._speedups.Entry",
    .tp_basicsize = sizeof(Entry),
    .tp_dealloc = (destructor)entry_dealloc,
    .tp_vectorcall_offset = offsetof(Entry, vectorcall),
    .tp_repr = (reprfunc)entry_repr,
    .tp_call = PyVectorcall_Call,
    .tp_getattro = PyObject_GenericGetAttr,
    .tp_setattro = PyObject_GenericSetAttr,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "A public entry of percent_encoding.core with a C fast path.",
    .tp_traverse = (traverseproc)entry_traverse,
    .tp_clear = (inquiry)entry_clear,
    .tp_methods = entry_methods,
    .tp_getset = entry_getset,
    .tp_descr_get = entry_get,
    .tp_dictoffset = offsetof(Entry, dict),
};

static PyObject *
pe_make_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"kind", "fallback", "registry", "set_type"};
    static const char *const kinds[] = {"encode", "decode_text", "serialize"};
    PyObject *a[4];
    Entry *e;
    int kind;
    (void)self;
    if (parse_args("make_entry", args, nargs, kwnames, names, 4, a) < 0) {
        return NULL;
    }
    for (kind = 0; kind < 3; kind++) {
        if (PyUnicode_Check(a[0]) && PyUnicode_CompareWithASCIIString(a[0], kinds[kind]) == 0) {
            break;
        }
    }
    if (kind == 3) {
        PyErr_SetString(PyExc_ValueError, "kind must be 'encode', 'decode_text' or 'serialize'");
        return NULL;
    }
    if (!PyCallable_Check(a[1]) || !PyDict_Check(a[2]) || !PyType_Check(a[3])) {
        PyErr_SetString(PyExc_TypeError, "make_entry(kind, callable, dict, type) expected");
        return NULL;
    }
    e = PyObject_GC_New(Entry, &EntryType);
    if (e == NULL) {
        return NULL;
    }
    e->vectorcall = entry_vectorcall;
    e->kind = kind;
    Py_INCREF(a[1]);
    e->fallback = a[1];
    Py_INCREF(a[2]);
    e->registry = a[2];
    Py_INCREF(a[3]);
    e->set_type = a[3];
    e->last_set = e->last_table = e->last_name = NULL;
    e->dict = NULL;
    PyObject_GC_Track(e);
    return (PyObject *)e;
}

static PyObject *
pe_set_entries_active(PyObject *self, PyObject *flag)
{
    int on = PyObject_IsTrue(flag);
    (void)self;
    if (on < 0) {
        return NULL;
    }
    entries_active = on;
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------------ */

#define FASTCALL_KW(f) ((PyCFunction)(void (*)(void))(f))

static PyMethodDef methods[] = {
    {"encode", FASTCALL_KW(pe_encode), METH_FASTCALL | METH_KEYWORDS,
     "encode(data, table, space_as_plus)\n--\n\n"
     "Percent-encode str (its UTF-8) or bytes with a 256-byte encode-set table."},
    {"decode", FASTCALL_KW(pe_decode), METH_FASTCALL | METH_KEYWORDS,
     "decode(data, plus_as_space, strict)\n--\n\n"
     "Percent-decode str (UTF-8 encoded first) or bytes to bytes."},
    {"decode_text", FASTCALL_KW(pe_decode_text), METH_FASTCALL | METH_KEYWORDS,
     "decode_text(data, plus_as_space, strict, utf8_strict)\n--\n\n"
     "Percent-decode, then UTF-8 decode without BOM."},
    {"form_parse", FASTCALL_KW(pe_form_parse), METH_FASTCALL | METH_KEYWORDS,
     "form_parse(data)\n--\n\n"
     "application/x-www-form-urlencoded parser: a list of (name, value) str pairs."},
    {"form_parse_bytes", FASTCALL_KW(pe_form_parse_bytes), METH_FASTCALL | METH_KEYWORDS,
     "form_parse_bytes(data)\n--\n\n"
     "application/x-www-form-urlencoded parser without the UTF-8 decode: bytes pairs."},
    {"form_serialize", FASTCALL_KW(pe_form_serialize), METH_FASTCALL | METH_KEYWORDS,
     "form_serialize(pairs)\n--\n\n"
     "application/x-www-form-urlencoded serializer (UTF-8, space as '+')."},
    {"make_entry", FASTCALL_KW(pe_make_entry), METH_FASTCALL | METH_KEYWORDS,
     "make_entry(kind, fallback, registry, set_type)\n--\n\n"
     "A public encode/decode_text/serialize with a C fast path; 'fallback' gets every other "
     "call."},
    {"set_entries_active", pe_set_entries_active, METH_O,
     "set_entries_active(flag)\n--\n\n"
     "Turn the entries' fast paths on or off (off while the pure twin is the active kernel)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    "percent_encoding._speedups",
    "C twin of percent_encoding._pure (same functions, same results).",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    PyObject *errors = PyImport_ImportModule("percent_encoding.errors");
    if (errors == NULL) {
        return NULL;
    }
    Py_XDECREF(PercentDecodeError);
    Py_XDECREF(TextDecodeError);
    PercentDecodeError = PyObject_GetAttrString(errors, "PercentDecodeError");
    TextDecodeError = PyObject_GetAttrString(errors, "TextDecodeError");
    Py_DECREF(errors);
    if (PercentDecodeError == NULL || TextDecodeError == NULL) {
        return NULL;
    }
    fill_enc_table(&form_table, PE_FORM_URLENCODED, 1);
    fill_pct4();
    fill_hex_pairs();
    if (PyType_Ready(&EntryType) < 0) {
        return NULL;
    }
#define PE_INTERN(var, text)                                                                  \
    if (var == NULL && (var = PyUnicode_InternFromString(text)) == NULL) {                    \
        return NULL;                                                                           \
    }
    PE_INTERN(s_table, "table")
    PE_INTERN(s_component, "component")
    PE_INTERN(s_utf8, "utf-8")
    PE_INTERN(s_utf8_upper, "UTF-8")
    PE_INTERN(s_pairs, "pairs")
    PE_INTERN(s_strict, "strict")
    PE_INTERN(s_replace, "replace")
    PE_INTERN(s_data, "data")
    PE_INTERN(s_encode_set, "encode_set")
    PE_INTERN(s_encoding, "encoding")
    PE_INTERN(s_errors, "errors")
    PE_INTERN(s_space_as_plus, "space_as_plus")
    PE_INTERN(s_plus_as_space, "plus_as_space")
    PE_INTERN(s_strict_kw, "strict")
#undef PE_INTERN
    return PyModule_Create(&moduledef);
}
