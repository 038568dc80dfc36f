/* arrow_url.h: what the three units of the URL column kernel share.
 *
 *   arrow_url.c        the driver (pe_arrow_url): arguments, the result's
 *                      buffers, the rows a part leaves (with the GIL)
 *   arrow_url_parts.c  the GIL-free pass: parts of a window parsed on
 *                      set_threads' threads, and copied into the result
 *   arrow_url_row.c    one row's parse (core_row, base_row) and its
 *                      component spans, which both of the above use
 *
 * They call each other one way: arrow_url.c above arrow_url_parts.c above
 * arrow_url_row.c.  Functions called from another unit are declared here,
 * hidden from the shared object's exports (PE_INTERNAL). */
#ifndef PE_ARROW_URL_H
#define PE_ARROW_URL_H

#include "arrow.h"
#include "url.h"

#define N_PARTS 9
#define ORIGIN 10

/* Per-call scratch: a row's code points (UCS4) when it is not ASCII, and a
 * row that is not UTF-8 with U+FFFD (arrow_rows.c's fix_row, through a Job). */
typedef struct {
    Py_UCS4 *ucs;
    int64_t ucs_cap;
    Job fix;
} Scratch;

/* One parsed row: its href's bytes and, when the C parser made them, the
 * component offsets (else has_parts is 0 and u, the url.URL, has the getters). */
typedef struct {
    PyObject *u, *href;
    const char *h;
    Py_ssize_t len;
    Py_ssize_t p[N_PARTS];
    int has_parts;
    /* the row and its base (for the getters that need a url.URL) */
    const uint8_t *in, *bin;
    int64_t in_n, bin_n;
    int has_base;
} RowURL;

/* One output string field: offsets and data, bytearrays pyarrow takes as they are. */
typedef struct {
    PyObject *offsets, *data;
    int64_t len, cap;
} Field;

/* A row's base in a base column, parsed by the core; the row before's is
 * kept while the text repeats (base_row, arrow_url_row.c).  Set P.nogil and
 * P.head_only, n = -1 and live = 0 before the first row. */
typedef struct {
    UrlParser P;
    UrlBase B;
    const uint8_t *p; /* the text B was parsed from */
    int64_t n;
    int live, rc; /* P holds a parse; core_row's answer for it */
} BaseRow;

/* -- the GIL-free pass -------------------------------------------------------
 *
 * The rows of a window (WINDOW rows at a time, so the copies stay small) are
 * parsed without the GIL, split over set_threads' threads: each part writes
 * its rows' components into its own buffers and a state per row.  Then, with
 * the GIL, the driver takes the parts in row order: a whole part (no ST_PY
 * row) gets its place in the result (part_place: the room, where its data
 * lands), and the rows of any other part are copied one by one, those a part
 * left (ST_PY: a host for the host hook, a row for the Python parser, a blob:
 * origin, an error under errors="strict") run as before.  The placed parts
 * are copied (part_fill) on the threads while they parse the next window,
 * or after the last, so the copies and the page faults of the fresh result
 * are not left to one thread (the parts alternate between two sets). */

enum { ST_NULL, ST_OK, ST_PY, ST_FALSE };
#define WINDOW (1 << 15) /* rows a thread (two windows' parts are alive at once) */
#define SUB 8192
#define MAX_PARTS (WINDOW * 8 / SUB)

typedef struct {
    char *d;
    int64_t len, cap;
    int64_t *off; /* rows + 1 */
} PBuf;

typedef struct {
    const InChunk *c, *bc;
    const UrlBase *one; /* the single base, or NULL */
    int one_py;         /* a single base the core cannot read: every row for Python */
    int has_base, strict, nf;
    const int *fld;
    int64_t r0, r1;
    PBuf f[11];
    uint8_t *st;
    int64_t n_py;
    int nomem;
    int64_t bad; /* a malformed row (of the chunk), else -1 */
    /* a whole part (no ST_PY row) placed in the result by part_place: where
     * each field's data lands, and its null rows once part_fill has run */
    int64_t at[11];
    int64_t nulls;
} UPart;

/* The result's buffers as part_fill writes them without the GIL (read from
 * the bytearrays with it, between two resizes). */
typedef struct {
    char *data[11];
    char *offsets[11];
    uint8_t *validity, *bits;
    int nf, large;
} Sink;

/* arrow_url_row.c: one row's parse and its components' spans */
PE_INTERNAL void scratch_free(Scratch *S);
PE_INTERNAL int core_row(Scratch *S, UrlParser *P, const uint8_t *p, int64_t n, const UrlBase *B,
                         UrlParts *o);
PE_INTERNAL void row_parsed(RowURL *r, const UrlParser *P, const UrlParts *o);
PE_INTERNAL int base_row(Scratch *S, BaseRow *K, const uint8_t *p, int64_t n);
PE_INTERNAL void base_row_free(BaseRow *K);
PE_INTERNAL void span(const RowURL *r, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *a_out,
                      Py_ssize_t *b_out);
PE_INTERNAL int component_span(const RowURL *r, int k, Py_ssize_t *a, Py_ssize_t *b);

/* arrow_url_parts.c */
PE_INTERNAL int origin_kind(const RowURL *r);
PE_INTERNAL void upart_free(UPart *u);
PE_INTERNAL int window_run(UPart *parts, int t, const UPart *proto, int64_t w0, int64_t w1,
                           UPart *const *fills, int n_fills, const Sink *sink);
PE_INTERNAL int part_place(UPart *u, Field *fields, int nf, int large);

/* arrow_url.c: the module's URL column function (module.c's method table) */
PE_INTERNAL PyObject *pe_arrow_url(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames);

#endif /* PE_ARROW_URL_H */
