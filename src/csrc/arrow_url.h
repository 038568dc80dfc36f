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
    int ascii; /* set by a caller that knows the next row is ASCII (no check) */
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
    /* the hrefs of the part's ST_OK rows one after the other (row j's from
     * h.off[j] to h.off[j + 1]), each with its N_PARTS offsets (pp, N_PARTS
     * a row, as row_parsed reads them); each requested field's bytes over
     * those rows (tot): part_fill cuts the components from the hrefs straight
     * into the result, one copy a component */
    PBuf h;
    int32_t *pp;
    int64_t tot[11];
    int direct; /* one field: h holds its bytes a row, not the hrefs (no pp) */
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

/* Python's href[a:b] for 0 <= a, b (the getters' slices): clamped, empty when b < a. */
static inline void
span(const RowURL *r, Py_ssize_t a, Py_ssize_t b, Py_ssize_t *a_out, Py_ssize_t *b_out)
{
    if (a < 0) {
        a += r->len;
    }
    if (b < 0) {
        b += r->len;
    }
    a = a < 0 ? 0 : a > r->len ? r->len : a;
    b = b < 0 ? 0 : b > r->len ? r->len : b;
    *a_out = a;
    *b_out = b < a ? a : b;
}

/* Component k as spans of the href (url/__init__.py's getters on _parts); 0 when it
 * must come from the getter (a URL without offsets, an opaque origin).  The offsets
 * are url.h's UrlParts in row_parsed's order: scheme end, username end, host start
 * and end, port, path start, query start, fragment start, host kind. */
static inline int
component_span(const RowURL *r, int k, Py_ssize_t *a, Py_ssize_t *b)
{
    const Py_ssize_t *p = r->p, n = r->len;
    Py_ssize_t end;
    if (k == 0) {
        *a = 0;
        *b = n;
        return 1;
    }
    if (!r->has_parts) {
        return 0;
    }
    switch (k) {
    case 1:
        span(r, 0, p[0] + 1, a, b);
        break;
    case 2:
    case 3:
        if (p[2] > p[0] + 3) {
            if (k == 2) {
                span(r, p[0] + 3, p[1], a, b);
            }
            else {
                span(r, p[1] + 1, p[2] - 1, a, b);
            }
        }
        else {
            *a = *b = 0;
        }
        break;
    case 4:
        span(r, p[2], p[5], a, b);
        break;
    case 5:
        span(r, p[2], p[3], a, b);
        break;
    case 6:
        span(r, p[3] + 1, p[5], a, b);
        break;
    case 7:
        end = p[6] >= 0 ? p[6] : p[7] >= 0 ? p[7] : n;
        span(r, p[5], end, a, b);
        break;
    case 8:
        end = p[7] >= 0 ? p[7] : n;
        if (p[6] >= 0 && end - p[6] > 1) {
            span(r, p[6], end, a, b);
        }
        else {
            *a = *b = 0;
        }
        break;
    case 9:
        if (0 <= p[7] && p[7] < n - 1) {
            span(r, p[7], n, a, b);
        }
        else {
            *a = *b = 0;
        }
        break;
    default:
        return 0; /* origin: written by put_origin */
    }
    return 1;
}

/* All ten components' spans of a row with offsets (component_span for k = 0..9
 * at once, for a row whose every field is asked). */
static inline void
row_spans(const RowURL *r, Py_ssize_t a[10], Py_ssize_t b[10])
{
    const Py_ssize_t *p = r->p, n = r->len;
    Py_ssize_t qe = p[7] >= 0 ? p[7] : n, pe = p[6] >= 0 ? p[6] : qe;
    int cred = p[2] > p[0] + 3;
    a[0] = 0;
    b[0] = n;
    span(r, 0, p[0] + 1, &a[1], &b[1]);
    if (cred) {
        span(r, p[0] + 3, p[1], &a[2], &b[2]);
        span(r, p[1] + 1, p[2] - 1, &a[3], &b[3]);
    }
    else {
        a[2] = b[2] = a[3] = b[3] = 0;
    }
    span(r, p[2], p[5], &a[4], &b[4]);
    span(r, p[2], p[3], &a[5], &b[5]);
    span(r, p[3] + 1, p[5], &a[6], &b[6]);
    span(r, p[5], pe, &a[7], &b[7]);
    if (p[6] >= 0 && qe - p[6] > 1) {
        span(r, p[6], qe, &a[8], &b[8]);
    }
    else {
        a[8] = b[8] = 0;
    }
    if (0 <= p[7] && p[7] < n - 1) {
        span(r, p[7], n, &a[9], &b[9]);
    }
    else {
        a[9] = b[9] = 0;
    }
}

/* arrow_url_row.c: one row's parse */
PE_INTERNAL void scratch_free(Scratch *S);
PE_INTERNAL int core_row(Scratch *S, UrlParser *P, const uint8_t *p, int64_t n, const UrlBase *B,
                         UrlParts *o);
PE_INTERNAL void row_parsed(RowURL *r, const UrlParser *P, const UrlParts *o);
PE_INTERNAL int base_row(Scratch *S, BaseRow *K, const uint8_t *p, int64_t n);
PE_INTERNAL void base_row_free(BaseRow *K);

/* arrow_url_parts.c */
PE_INTERNAL int origin_kind(const RowURL *r);
PE_INTERNAL void upart_free(UPart *u);
PE_INTERNAL int window_run(UPart *parts, int t, const UPart *proto, int64_t w0, int64_t w1,
                           UPart *const *fills, int n_fills, const Sink *sink);
PE_INTERNAL int part_place(UPart *u, Field *fields, int nf, int large);
PE_INTERNAL int upart_pieces(const UPart *u, int64_t j, int k, const char *s[2], int64_t n[2]);

/* arrow_url.c: the module's URL column function (module.c's method table) */
PE_INTERNAL PyObject *pe_arrow_url(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames);

#endif /* PE_ARROW_URL_H */
