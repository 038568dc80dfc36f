/* Encode (URL Standard §1.3 percent-encode, the encode sets): tables, kernels. */
#include "kernels.h"

/* ------------------------------------------------------------------------ */
/* Encode tables: what each byte (or ASCII code point) becomes.             */


/* EncodeSet.table objects live as long as their sets, so a few cached
 * entries (keyed by object, then by content) make the per-call cost one
 * pointer compare.  The GIL protects this state. */
#define ENC_CACHE_SIZE 8
static EncTable enc_cache[ENC_CACHE_SIZE];
static int enc_cache_next;
EncTable form_table; /* §5.2: application/x-www-form-urlencoded set, space as '+' */

void
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
PyObject *
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

/* UTF-8 as a shift automaton (Encoding Standard §8.1.1, the UTF-8
 * decoder's byte ranges: no overlong form, surrogate or value above
 * U+10FFFF): a state is a multiple of 6 below 64, and u8_dfa[c] holds, at bit
 * s, the state byte c leads to from state s.  One step is a table load, which
 * does not wait on the state, and a shift, which does: a byte costs one cycle
 * of latency and no branch, so the check rides along a byte loop. */
enum {
    U8S_ACCEPT = 0, /* between characters */
    U8S_REJECT = 6, /* not UTF-8, for good */
    U8S_CONT1 = 12, /* one continuation byte (80-BF) to go */
    U8S_CONT2 = 18, /* two */
    U8S_E0 = 24,    /* after E0: A0-BF, then one */
    U8S_ED = 30,    /* after ED: 80-9F (no surrogates), then one */
    U8S_F0 = 36,    /* after F0: 90-BF, then two */
    U8S_CONT3 = 42, /* after F1-F3: 80-BF, then two */
    U8S_F4 = 48,    /* after F4: 80-8F (up to U+10FFFF), then two */
};
static uint64_t u8_dfa[256];

static unsigned
u8_next(unsigned s, unsigned c)
{
    int cont = c >= 0x80 && c <= 0xBF;
    switch (s) {
    case U8S_ACCEPT:
        return c < 0x80                 ? U8S_ACCEPT
               : c >= 0xC2 && c <= 0xDF ? U8S_CONT1
               : c == 0xE0              ? U8S_E0
               : c == 0xED              ? U8S_ED
               : c >= 0xE1 && c <= 0xEF ? U8S_CONT2
               : c == 0xF0              ? U8S_F0
               : c >= 0xF1 && c <= 0xF3 ? U8S_CONT3
               : c == 0xF4              ? U8S_F4
                                        : U8S_REJECT;
    case U8S_CONT1:
        return cont ? U8S_ACCEPT : U8S_REJECT;
    case U8S_CONT2:
        return cont ? U8S_CONT1 : U8S_REJECT;
    case U8S_E0:
        return c >= 0xA0 && c <= 0xBF ? U8S_CONT1 : U8S_REJECT;
    case U8S_ED:
        return c >= 0x80 && c <= 0x9F ? U8S_CONT1 : U8S_REJECT;
    case U8S_F0:
        return c >= 0x90 && c <= 0xBF ? U8S_CONT2 : U8S_REJECT;
    case U8S_CONT3:
        return cont ? U8S_CONT2 : U8S_REJECT;
    case U8S_F4:
        return c >= 0x80 && c <= 0x8F ? U8S_CONT2 : U8S_REJECT;
    default:
        return U8S_REJECT;
    }
}

void
fill_pct4(void)
{
    int b;
    unsigned s;
    for (b = 0; b < 256; b++) {
        uint64_t row = 0;
        for (s = 0; s < 64; s += 6) {
            row |= (uint64_t)u8_next(s, (unsigned)b) << s;
        }
        u8_dfa[b] = row;
    }
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

Py_ssize_t
extra_u8(const uint8_t *p, Py_ssize_t n, const EncTable *t)
{
    Py_ssize_t i, extra = 0;
    for (i = 0; i < n; i++) {
        extra += t->act[p[i]] & 2;
    }
    return extra;
}

Py_UCS1 *
write_u8(const uint8_t *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o)
{
    Py_ssize_t i;
    for (i = 0; i < n; i++) {
        o = put_byte(o, t, p[i]);
    }
    return o;
}

/* write_u8 for bytes that should be UTF-8 (a string column's row: the Arrow
 * format requires it, but a producer can break that), checked by u8_dfa in
 * the same pass.  NULL when p[0:n] is not UTF-8 (what was written to o then
 * is to be dropped). */
Py_UCS1 *
write_u8_text(const uint8_t *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o)
{
    Py_ssize_t i;
    uint64_t s = U8S_ACCEPT;
    for (i = 0; i < n; i++) {
        s = u8_dfa[p[i]] >> (s & 63);
        o = put_byte(o, t, p[i]);
    }
    return (s & 63) == U8S_ACCEPT ? o : NULL;
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
    Py_ssize_t enc_len_##K(const T *p, Py_ssize_t n, const EncTable *t)                    \
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
    Py_UCS1 *enc_write_##K(const T *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o)        \
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

int
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

PyObject *
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

PyObject *
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
