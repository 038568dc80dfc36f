/* The C twin of _pure.py: percent-encoding kernels against the CPython API.
 *
 * Strategy (the markupsafe model): each kernel takes already-checked
 * arguments from core.py / form/ and does the byte work only.  Signatures,
 * results and errors are identical to the pure twin (see its docstring):
 *
 *   encode(data, table, space_as_plus) -> str
 *   decode(data, plus_as_space, strict) -> bytes
 *   decode_text(data, plus_as_space, strict, utf8_strict) -> str
 *   form_parse(data) -> list[tuple[str, str]]
 *   form_parse_bytes(data) -> list[tuple[bytes, bytes]]
 *   form_serialize(pairs) -> str
 *
 * make_entry() builds the public core.encode, core.decode_text,
 * form.serialize, form.parse and url.parse: built-in functions whose fast path
 * calls a kernel for the common call and hands any other call to the checked
 * Python function (entry.c).
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
/* speedups.h: what the translation units of the C twin share.
 *
 *   module.c        the module object, method table, init, parse_args
 *   encode.c        encode tables and kernels
 *   decode.c        decode kernels (general path)
 *   decode_utf8.c   UTF-8 to str (general path; the block decoder's checked results)
 *   decode_short.c  the one-pass decoder for short input, decode_text (long input:
 *                   arrow_simd.c's block decoder when the CPU has AVX2)
 *   form.c          form parser and serializer
 *   entry.c         the vectorcall entries (core.encode, core.decode_text, form.serialize,
 *                   form.parse, url.parse)
 *   url.c           the common case of the WHATWG URL parser, building URL objects
 *                   (url_object.c: the URL type; url.h: what its units url.c,
 *                   url_host.c, url_path.c, url_object.c, url_setters.c and
 *                   url_replace.c share)
 *   arrow.c         column kernels over the Arrow C Data Interface (percent_encoding.arrow):
 *                   reading columns, threads, the entry point; arrow_rows.c the per-row
 *                   work; arrow_column.c the result object; arrow.h what they share;
 *                   arrow_url.c URL columns (components of each row's URL), its
 *                   GIL-free pass in arrow_url_parts.c, arrow_url.h what they share
 *
 * Functions called from another unit are declared here (hidden from the
 * shared object's exports); hot helpers used by several units are static
 * inline here, so each unit inlines its own copy. */
#ifndef PE_SPEEDUPS_H
#define PE_SPEEDUPS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "_tables.h"

#if defined(__SSE2__) && defined(__GNUC__)
#include <emmintrin.h>
#endif

/* Strings made through the legacy Py_UNICODE API need "readying" before 3.12. */
#if PY_VERSION_HEX < 0x030C0000
#define PE_READY(o) PyUnicode_READY(o)
#else
#define PE_READY(o) 0
#endif

#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PE_SWAR 1
#endif

#if defined(__GNUC__)
#define PE_INTERNAL __attribute__((visibility("hidden")))
#else
#define PE_INTERNAL
#endif

PE_INTERNAL extern PyObject *PercentDecodeError; /* percent_encoding.errors.PercentDecodeError */
PE_INTERNAL extern PyObject *TextDecodeError;    /* percent_encoding.errors.TextDecodeError */

/* module.c */
PE_INTERNAL int parse_args(const char *fname, PyObject *const *args, Py_ssize_t nargs,
                           PyObject *kwnames, const char *const *names, Py_ssize_t n,
                           PyObject **out);

/* encode.c */
enum { KEEP = 0, PLUS = 1, PCT = 3 }; /* PCT & 2 == 2: the two extra output chars */

typedef struct {
    PyObject *key;    /* the 256-byte table it was built from (strong ref), or NULL */
    int plus;         /* space_as_plus */
    int non_ascii;    /* table[0x80]: code points from U+0080 are encoded */
    uint8_t act[256]; /* per byte: KEEP, PLUS or PCT; bytes 0x80-0xFF are always PCT */
} EncTable;

PE_INTERNAL extern EncTable form_table; /* §5.2: application/x-www-form-urlencoded set, '+' */
PE_INTERNAL void fill_enc_table(EncTable *t, const uint8_t *table, int plus);
PE_INTERNAL void fill_pct4(void);
PE_INTERNAL PyObject *raise_utf8_encode_error(PyObject *s);
PE_INTERNAL int str_has_surrogate(PyObject *s);
PE_INTERNAL Py_ssize_t extra_u8(const uint8_t *p, Py_ssize_t n, const EncTable *t);
PE_INTERNAL Py_UCS1 *write_u8(const uint8_t *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o);
PE_INTERNAL Py_UCS1 *write_u8_text(const uint8_t *p, Py_ssize_t n, const EncTable *t,
                                   Py_UCS1 *o);
/* A str's code points of each kind: output length (-1 at a lone surrogate), and the writer. */
PE_INTERNAL Py_ssize_t enc_len_1(const Py_UCS1 *p, Py_ssize_t n, const EncTable *t);
PE_INTERNAL Py_ssize_t enc_len_2(const Py_UCS2 *p, Py_ssize_t n, const EncTable *t);
PE_INTERNAL Py_ssize_t enc_len_4(const Py_UCS4 *p, Py_ssize_t n, const EncTable *t);
PE_INTERNAL Py_UCS1 *enc_write_1(const Py_UCS1 *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o);
PE_INTERNAL Py_UCS1 *enc_write_2(const Py_UCS2 *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o);
PE_INTERNAL Py_UCS1 *enc_write_4(const Py_UCS4 *p, Py_ssize_t n, const EncTable *t, Py_UCS1 *o);
PE_INTERNAL PyObject *encode_obj(PyObject *data, PyObject *table, int plus);
PE_INTERNAL PyObject *pe_encode(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames);

/* decode.c */
PE_INTERNAL extern uint16_t hex2[65536];
PE_INTERNAL void fill_hex_pairs(void);

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

typedef struct {
    PyObject *obj;
    const void *data;
    Py_ssize_t n;
    int is_str;
    int kind; /* 0: a byte buffer (bytes or ASCII str); else the str's kind */
} Src;

static inline int
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
static inline Py_ssize_t
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
static inline int
nothing_to_decode(const Src *s, int plus)
{
    if (s->kind == 0) {
        return memchr(s->data, '%', (size_t)s->n) == NULL &&
               (!plus || memchr(s->data, '+', (size_t)s->n) == NULL);
    }
    return PyUnicode_FindChar(s->obj, '%', 0, s->n, 1) == -1 &&
           (!plus || PyUnicode_FindChar(s->obj, '+', 0, s->n, 1) == -1);
}

static inline int
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

/* arrow_simd.c's AVX2 block decoder (declared in arrow.h too), which decode_text
 * uses for long input when the CPU has AVX2 (pe_blocks_ok, found at run time). */
PE_INTERNAL extern int pe_blocks_ok;
PE_INTERNAL int64_t decode_row_avx2(const uint8_t *p, int64_t n, int64_t avail, uint8_t *o,
                                    int plus, int *check, int raw);
/* Bytes the block decoder may store past its result (arrow.h's PE_OUT_SLACK). */
#define PE_BLOCKS_SLACK 32
/* From this many bytes of input on, decode_text takes the block decoder. */
#define PE_BLOCKS_MIN 1024

PE_INTERNAL void raise_bad_percent(const Src *s, Py_ssize_t pos);
PE_INTERNAL Py_ssize_t decode_u8(const uint8_t *p, Py_ssize_t n, uint8_t *o, int plus,
                                 int strict, Py_ssize_t *bad, U8Stats *st);
PE_INTERNAL Py_ssize_t decode_into(const Src *s, uint8_t *o, int plus, int strict,
                                   U8Stats *st);
PE_INTERNAL PyObject *utf8_str(const uint8_t *p, Py_ssize_t n, const char *errors,
                               const U8Stats *st);
PE_INTERNAL PyObject *utf8_text(const char *buf, Py_ssize_t len, int strict,
                                const U8Stats *st);
PE_INTERNAL PyObject *utf8_checked_to_str(const uint8_t *p, Py_ssize_t n);
PE_INTERNAL PyObject *pe_decode(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                PyObject *kwnames);

/* decode_short.c */
#define FUSED_MAX 512
#define FUSED_DONE 0
#define FUSED_BAD_PERCENT (-1) /* strict, and a '%' at st->i starts no %XX */
#define FUSED_GENERAL (-3)
#define FUSED_WIDER (-4) /* st->hi needs a wider kind; resume at st->i */

PE_INTERNAL PyObject *decode_short(const uint8_t *p, Py_ssize_t n, int plus, int strict,
                                   PyObject *same, int *rc, Py_ssize_t *bad);
PE_INTERNAL PyObject *decode_text_obj(PyObject *data, const int *f);
PE_INTERNAL PyObject *pe_decode_text(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                     PyObject *kwnames);

/* form.c */
PE_INTERNAL PyObject *form_serialize_obj(PyObject *pairs);
PE_INTERNAL PyObject *pe_form_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames);
PE_INTERNAL PyObject *pe_form_parse_bytes(PyObject *self, PyObject *const *args,
                                          Py_ssize_t nargs, PyObject *kwnames);
PE_INTERNAL PyObject *pe_form_serialize(PyObject *self, PyObject *const *args,
                                        Py_ssize_t nargs, PyObject *kwnames);

/* arrow.c */
PE_INTERNAL int arrow_init(void);
PE_INTERNAL PyObject *pe_arrow_map(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames);
PE_INTERNAL PyObject *pe_arrow_set_threads(PyObject *self, PyObject *arg);
PE_INTERNAL PyObject *pe_arrow_set_blocks(PyObject *self, PyObject *arg);

/* entry.c */
PE_INTERNAL int entry_init(void);
PE_INTERNAL PyObject *pe_make_entry(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                    PyObject *kwnames);
PE_INTERNAL PyObject *pe_set_entries_active(PyObject *self, PyObject *flag);
PE_INTERNAL int pe_entries_are_active(void);

/* arrow_url.c */
PE_INTERNAL PyObject *pe_arrow_url(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames);

/* url.c */
PE_INTERNAL PyObject *url_fast_new(PyObject *input, PyObject *base, int raise);
PE_INTERNAL PyObject *pe_url_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PE_INTERNAL PyObject *pe_url_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PE_INTERNAL PyObject *pe_url_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames);

#endif /* PE_SPEEDUPS_H */
