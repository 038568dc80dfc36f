/* arrow.h: what the Arrow column units share (arrow.c reads columns and drives
 * the work, arrow_rows.c is the per-row work, arrow_column.c the result,
 * arrow_job.c a job's buffers).  The Arrow drivers are layer 3: they stand on
 * the byte kernels (kernels.h) and, for URL columns (arrow_url.h), the URL
 * parser (url.h); nothing below them knows of Arrow. */
#ifndef PE_ARROW_H
#define PE_ARROW_H

#include "kernels.h"

/* The Arrow C Data Interface structs (an ABI fixed by the Arrow format spec). */
struct ArrowSchema {
    const char *format;
    const char *name;
    const char *metadata;
    int64_t flags;
    int64_t n_children;
    struct ArrowSchema **children;
    struct ArrowSchema *dictionary;
    void (*release)(struct ArrowSchema *);
    void *private_data;
};

struct ArrowArray {
    int64_t length;
    int64_t null_count;
    int64_t offset;
    int64_t n_buffers;
    int64_t n_children;
    const void **buffers;
    struct ArrowArray **children;
    struct ArrowArray *dictionary;
    void (*release)(struct ArrowArray *);
    void *private_data;
};

struct ArrowArrayStream {
    int (*get_schema)(struct ArrowArrayStream *, struct ArrowSchema *out);
    int (*get_next)(struct ArrowArrayStream *, struct ArrowArray *out);
    const char *(*get_last_error)(struct ArrowArrayStream *);
    void (*release)(struct ArrowArrayStream *);
    void *private_data;
};

#define ARROW_FLAG_NULLABLE 2

enum { IN_OFF32, IN_OFF64, IN_VIEW };
enum {
    OP_DECODE, OP_DECODE_TEXT, OP_ENCODE, OP_FORM_GET, OP_CALL_TEXT, OP_CALL_BINARY,
    OP_DECODE_SB, OP_DECODE_SJIS, /* decode_text in a legacy encoding: arrow_legacy.c */
    OP_ENCODE_MAP /* encode in a legacy encoding from a code point map: arrow_legacy.c */
};
enum { ERR_REPLACE, ERR_NULL, ERR_STRICT };

/* One input chunk, read-only. */
typedef struct {
    int layout;
    int is_binary;
    int64_t length, offset;
    const uint8_t *validity;
    const void *offsets; /* int32/int64 offsets, or 16-byte views */
    const uint8_t *data;
    const uint8_t *const *view_data; /* string_view: the variadic data buffers */
    int64_t n_view_data;
    const int64_t *view_sizes; /* and their sizes */
    /* offsets layouts: the first and last offsets (0 <= lo <= hi), which
     * bound every row's bytes (the data buffer's size is not in the C Data
     * Interface); views: checked in one pass when the chunk is read */
    int64_t lo, hi;
    int64_t bytes; /* all the rows' input bytes */
} InChunk;

/* One output chunk: owned buffers. */
typedef struct {
    int64_t length, null_count;
    uint8_t *validity;
    void *offsets;  /* int32 or int64 offsets; NULL when views are written */
    uint8_t *views; /* string_view/binary_view: 16 bytes a row, else NULL */
    uint8_t *data;
    int64_t data_len, data_cap;
    /* bytes at the start of data before the first row's, left unused by a
     * two-thread run: not exported (the rows' offsets count from after them) */
    int64_t data_skip;
    int large;
    int fixed; /* a view of a part of a shared buffer: it cannot grow */
} OutChunk;

static inline int
in_valid(const InChunk *c, int64_t i)
{
    int64_t j = i + c->offset;
    return c->validity == NULL || (c->validity[j >> 3] >> (j & 7)) & 1;
}

/* Row i's bytes and length; NULL when its offsets go backwards or leave
 * [lo, hi] (a malformed array: checked as the rows are read, so a crafted
 * array never makes a kernel read outside what its offsets span). */
static const uint8_t in_empty[1] = {0};

static inline const uint8_t *
in_row(const InChunk *c, int64_t i, int64_t *n)
{
    int64_t j = i + c->offset, s, e;
    if (c->layout == IN_OFF32) {
        const int32_t *o = (const int32_t *)c->offsets;
        s = o[j];
        e = o[j + 1];
    }
    else if (c->layout == IN_OFF64) {
        const int64_t *o = (const int64_t *)c->offsets;
        s = o[j];
        e = o[j + 1];
    }
    else {
        s = e = 0;
    }
    if (c->layout != IN_VIEW) {
        if (s < c->lo || e < s || e > c->hi) {
            return NULL;
        }
        *n = e - s;
        return c->data != NULL ? c->data + s : in_empty; /* no data: every row is empty */
    }
    {
        const uint8_t *v = (const uint8_t *)c->offsets + 16 * j;
        int32_t len, buf, off;
        memcpy(&len, v, 4);
        *n = len;
        if (len <= 12) {
            return v + 4;
        }
        memcpy(&buf, v + 8, 4);
        memcpy(&off, v + 12, 4);
        return c->view_data[buf] + off;
    }
}

/* How many bytes can be read from row i's start p (its length n, or more:
 * up to the end of the rows' data, where a block decoder may read ahead). */
static inline int64_t
in_avail(const InChunk *c, int64_t i, const uint8_t *p, int64_t n, const uint8_t *data_end)
{
    if (data_end != NULL) {
        return data_end - p > n ? data_end - p : n;
    }
    if (c->layout == IN_VIEW && n > 12 && c->view_sizes != NULL) {
        const uint8_t *v = (const uint8_t *)c->offsets + 16 * (i + c->offset);
        int32_t buf;
        int64_t end;
        memcpy(&buf, v + 8, 4);
        end = c->view_sizes[buf] - (p - c->view_data[buf]);
        return end > n ? end : n;
    }
    return n;
}


/* Room for `need` more bytes at data_len: grow by doubling. */
static inline int
out_reserve(OutChunk *o, int64_t need)
{
    int64_t cap = o->data_cap;
    uint8_t *d;
    if (o->data_len + need <= cap) {
        return 0;
    }
    if (o->fixed) {
        return -1;
    }
    while (o->data_len + need > cap) {
        if (cap > INT64_MAX / 2) {
            return -1;
        }
        cap *= 2;
    }
    d = realloc(o->data, (size_t)cap);
    if (d == NULL) {
        return -1;
    }
    o->data = d;
    o->data_cap = cap;
    return 0;
}

/* Row i as a view (Arrow columnar format, "Variable-size Binary View
 * Layout"): its length, then up to 12 bytes inline, or its first 4 bytes,
 * buffer 0 and its offset in the data.  An inline row's bytes leave the
 * data buffer again.  -1 when the offset does not fit 32 bits. */
static inline int
out_view(OutChunk *o, int64_t i, int64_t start)
{
    uint8_t *v = o->views + 16 * i;
    int64_t len = o->data_len - start;
    int32_t w;
    memset(v, 0, 16);
    if (len <= 12) {
        w = (int32_t)len;
        memcpy(v, &w, 4);
        memcpy(v + 4, o->data + start, (size_t)len);
        o->data_len = start;
        return 0;
    }
    if (o->data_len > INT32_MAX) {
        return -1;
    }
    w = (int32_t)len;
    memcpy(v, &w, 4);
    memcpy(v + 4, o->data + start, 4);
    w = (int32_t)start;
    memcpy(v + 12, &w, 4);
    return 0;
}

/* Add `by` to the data offsets of rows' views that point into the data (a
 * threaded run's part, moved to its place in the chunk's data). */
static inline void
views_shift(uint8_t *views, int64_t rows, int64_t by)
{
    int64_t r;
    for (r = 0; r < rows; r++) {
        uint8_t *v = views + 16 * r;
        int32_t len, off;
        memcpy(&len, v, 4);
        if (len > 12) {
            memcpy(&off, v + 12, 4);
            off += (int32_t)by;
            memcpy(v + 12, &off, 4);
        }
    }
}

/* Add `by` to where rows [r0, r1) of o begin in the data: their views'
 * offsets, or their offsets' slots r0 + 1 .. r1 (where each row ends; slot
 * r0, where row r0 begins, belongs to the row before). */
static inline void
out_shift(OutChunk *o, int64_t r0, int64_t r1, int64_t by)
{
    int64_t r;
    if (o->views != NULL) {
        views_shift(o->views + 16 * r0, r1 - r0, by);
    }
    else if (o->large) {
        for (r = r0 + 1; r <= r1; r++) {
            ((int64_t *)o->offsets)[r] += by;
        }
    }
    else {
        for (r = r0 + 1; r <= r1; r++) {
            ((int32_t *)o->offsets)[r] += (int32_t)by;
        }
    }
}

/* Close row i, which began at data offset start: valid or null; -1 when
 * 32-bit offsets overflow. */
static inline int
out_row(OutChunk *o, int64_t i, int valid, int64_t start)
{
    if (valid) {
        o->validity[i >> 3] |= (uint8_t)(1u << (i & 7));
    }
    else {
        o->null_count++;
    }
    if (o->views != NULL) {
        return out_view(o, i, start);
    }
    if (o->large) {
        ((int64_t *)o->offsets)[i + 1] = o->data_len;
        return 0;
    }
    if (o->data_len > INT32_MAX) {
        return -1;
    }
    ((int32_t *)o->offsets)[i + 1] = (int32_t)o->data_len;
    return 0;
}


typedef struct {
    int op, errors, plus;
    EncTable table;
    const uint8_t *name; /* form_get: the field name's UTF-8 */
    const uint32_t *legacy; /* OP_DECODE_SB / OP_DECODE_SJIS: the code point table */
    /* OP_ENCODE_MAP: per BMP code point its bytes in the encoding: 0 none,
     * below 0x100 one byte, else two (high byte first) */
    const uint16_t *enc_map;
    uint8_t sb_utf8[128][4]; /* OP_DECODE_SB: bytes 0x80-0xFF as UTF-8 (length in [3] when < 4; 0: none) */
    int64_t name_len;
    uint8_t *scratch; /* thread-private */
    int64_t scratch_cap;
    int64_t bad_row; /* strict: the first row that is not UTF-8, else -1 */
    int64_t bad_input; /* with oom == 3: the row (of the column) whose offsets are malformed */
    uint8_t *fix; /* thread-private: a string row that is not UTF-8, with U+FFFD */
    int64_t fix_cap;
    int views;       /* write string_view/binary_view (not for 64-bit input) */
    int oom;         /* 1 no memory (or a part's region is full), 2 32-bit overflow, 3 malformed */
    /* The end of the chunk's last row in its data buffer (offsets layouts;
     * NULL for views): a row may be read 16 bytes at a time up to here. */
    const uint8_t *data_end;
    /* Offsets layouts: a stretch of the chunk's data checked to be UTF-8 as
     * a whole (row_utf8_known); empty until a row opens one. */
    const uint8_t *win_lo, *win_hi;
} Job;

typedef struct {
    PyObject_HEAD
    int binary;
    int kind; /* OUT_OFF32, OUT_OFF64 or OUT_VIEW: the chunks' layout */
    Py_ssize_t n_chunks;
    OutChunk *chunks;
} Column;

PE_INTERNAL extern PyTypeObject ArrowColumnType;
/* arrow.c: read and check one chunk (string or binary): 0, 1 malformed (*bad
 * says what and where), -1 with an exception. */
typedef struct {
    const char *what;
    int64_t row;
} Malformed;
PE_INTERNAL int arrow_n_threads(void);
PE_INTERNAL int read_chunk(const struct ArrowSchema *s, const struct ArrowArray *a, InChunk *c,
                           Malformed *bad);
/* The result's layout: 32- or 64-bit offsets, or views. */
enum { OUT_OFF32, OUT_OFF64, OUT_VIEW };
PE_INTERNAL int out_init(OutChunk *o, int64_t rows, int64_t data_hint, int kind);
PE_INTERNAL void out_free(OutChunk *o);
/* Bytes of room a row's decoder may write past its result (the block
 * decoders store whole 8- to 32-byte pieces). */
#define PE_OUT_SLACK 32

/* arrow_simd.c: the AVX2 block decoder; pe_blocks_ok (kernels.h) says whether
 * it is in use (the CPU has AVX2, unless a test turned it off). */
PE_INTERNAL int64_t decode_row_avx2(const uint8_t *p, int64_t n, int64_t avail, uint8_t *o,
                                    int plus, int *check, int raw);
/* and whether the UTF-8 window check uses AVX-512 (the CPU has it, unless a
 * test turned it off) */
PE_INTERNAL extern int pe_u8_wide;
PE_INTERNAL void blocks_init(void);
PE_INTERNAL int blocks_supported(void);
PE_INTERNAL int wide_supported(void);
PE_INTERNAL int64_t utf8_prefix_avx2(const uint8_t *p, int64_t n);
PE_INTERNAL int64_t decode_text_rows_avx2(Job *j, const InChunk *c, int64_t i, int64_t r1,
                                          OutChunk *o, int64_t r0);
/* decode_row_avx2's *check bits: the escapes' values may not be UTF-8 by
 * themselves; the row's raw bytes may not be UTF-8 (only when asked to check
 * them: raw) */
#define PE_CHECK_ESC 1
#define PE_CHECK_RAW 2
/* decode_row_avx2's raw argument: 1 to check the row's own bytes, or 0; with
 * PE_DEC_BYTES the result is bytes, so the escapes' values go unchecked */
#define PE_DEC_BYTES 4
/* arrow_rows.c (the portable decoder of a row, decode_utf8_row, and the UTF-8
 * checks are the byte kernels', kernels.h) */
PE_INTERNAL int utf8_window(Job *j, const uint8_t *p, int64_t n, const uint8_t *end);

/* A row's UTF-8 state, for the per-row work's utf8_in: the bytes of a binary
 * column; a string row that may not be UTF-8 (the Arrow format requires it,
 * but a producer can break that: such a row reads with U+FFFD); a string row
 * known to be UTF-8. */
enum { RAW_BYTES = 0, RAW_CHECK = 1, RAW_UTF8 = 2 };

/* Whether a string row p[0:n] (row i) is surely UTF-8 without a look at it
 * alone.  The data is checked a window of PE_U8_WINDOW bytes at a time, from
 * the start of the first row that lies outside the last window (so each byte
 * is checked about once, and the bytes are in cache when the row is decoded);
 * a window ends before its first byte that is not UTF-8, and never passes the
 * end of what the row's buffer holds (an offsets layout's last offset; a
 * view's data buffer size, from the C Data Interface).  A row inside a window
 * is UTF-8 exactly when it begins and ends on a character's first byte or at
 * the window's end (Encoding Standard §8.1.1: a UTF-8 string cut there is
 * whole UTF-8 sequences).  The rows of an offsets layout tile the data; a
 * view column's rows may lie anywhere, so a window grows past its row only
 * when the row starts inside or right after the last window (rows in order:
 * each byte is still checked about once; rows out of order: each row alone).
 * 0 means "look at the row": it may still be UTF-8 (a row that straddles a
 * bad byte's window, or a short view's inline bytes).  Built with
 * -DPE_ARROW_UNCHECKED (bench/bench_input_checks.py only), it trusts every
 * row, and views_check trusts the views: the figure the checks' cost is
 * measured against. */
#ifndef PE_U8_WINDOW
#define PE_U8_WINDOW 16384
#endif

static inline int
row_utf8_known(Job *j, const InChunk *c, int64_t i, const uint8_t *p, int64_t n)
{
    uintptr_t a = (uintptr_t)p, e = a + (uintptr_t)n;
    if (n == 0) {
        return 1;
    }
#ifdef PE_ARROW_UNCHECKED
    (void)j;
    (void)c;
    (void)i;
    (void)e;
    return 1;
#else
    if (a < (uintptr_t)j->win_lo || e > (uintptr_t)j->win_hi) {
        const uint8_t *end = j->data_end;
        if (c->layout == IN_VIEW) {
            const uint8_t *v = (const uint8_t *)c->offsets + 16 * (i + c->offset);
            int32_t buf;
            if (n <= 12) {
                return 0; /* inline in the view: looked at alone */
            }
            memcpy(&buf, v + 8, 4);
            end = c->view_data[buf] + c->view_sizes[buf]; /* views_check: p + n <= end */
        }
        if (!utf8_window(j, p, n, end)) {
            return 0;
        }
    }
    return (p[0] & 0xC0) != 0x80 && (e == (uintptr_t)j->win_hi || (p[n] & 0xC0) != 0x80);
#endif
}
PE_INTERNAL void legacy_init(Job *j);
PE_INTERNAL int legacy_encode_row(Job *j, OutChunk *o, const uint8_t *p, int64_t n);
PE_INTERNAL int legacy_row(Job *j, OutChunk *o, const uint8_t *p, int64_t n, int64_t avail,
                           int utf8_in);
/* arrow_job.c: room for need bytes in a job buffer (j->scratch, j->fix) and its
 * *cap; -1 out of memory. */
PE_INTERNAL int job_buf_reserve(uint8_t **buf, int64_t *cap, int64_t need);
/* A string row that is not UTF-8 (ok: its valid prefix) read with U+FFFD into j->fix. */
PE_INTERNAL const uint8_t *fix_row(Job *j, const uint8_t *p, int64_t *n, int64_t ok);
PE_INTERNAL int run_rows(Job *j, const InChunk *c, int64_t r0, int64_t r1, OutChunk *o,
                         int64_t base);

/* arrow.c: the module's column functions (module.c's method table) */
PE_INTERNAL int arrow_init(void);
PE_INTERNAL PyObject *pe_arrow_map(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames);
PE_INTERNAL PyObject *pe_arrow_set_threads(PyObject *self, PyObject *arg);
PE_INTERNAL PyObject *pe_arrow_set_blocks(PyObject *self, PyObject *arg);

#endif /* PE_ARROW_H */
