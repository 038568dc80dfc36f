/* arrow_url_parts.c: the GIL-free pass of the URL column kernel (arrow_url.c
 * is the driver; arrow_url.h what they share).
 *
 * window_run() splits a window's rows into parts of SUB rows that
 * set_threads' threads take one at a time (upart_run): each part parses its
 * rows with the C URL parser (core_row, no GIL: the raw allocator, no host
 * hook) and keeps each row's href and offsets in its own buffers, with a
 * state a row (ST_PY for a row the driver must finish with the GIL).
 * part_place() (with the GIL) gives a whole part with no such row its place
 * in the result, and part_fill() cuts its rows' components from the hrefs
 * into the result on the threads, while they parse the next window. */
#include "arrow_url.h"

#ifndef _WIN32
#include <pthread.h>
#define PE_THREADS 1
#endif

/* n bytes from s to d, exactly (no byte past d + n: the next part's room may
 * be written by another thread), the short ones without a call. */
static inline void
copy_bytes(char *d, const char *s, int64_t n)
{
    if (n >= 8) {
        if (n <= 16) {
            uint64_t x, y;
            memcpy(&x, s, 8);
            memcpy(&y, s + n - 8, 8);
            memcpy(d, &x, 8);
            memcpy(d + n - 8, &y, 8);
        }
        else if (n <= 32) {
            char x[16], y[16];
            memcpy(x, s, 16);
            memcpy(y, s + n - 16, 16);
            memcpy(d, x, 16);
            memcpy(d + n - 16, y, 16);
        }
        else {
            memcpy(d, s, (size_t)n);
        }
    }
    else if (n >= 4) {
        uint32_t x, y;
        memcpy(&x, s, 4);
        memcpy(&y, s + n - 4, 4);
        memcpy(d, &x, 4);
        memcpy(d + n - 4, &y, 4);
    }
    else if (n > 0) {
        d[0] = s[0];
        d[n / 2] = s[n / 2];
        d[n - 1] = s[n - 1];
    }
}

static int
pbuf_put(PBuf *b, const char *s, int64_t n)
{
    if (n <= 0) {
        return 0; /* an empty component: b->d may still be NULL (memcpy's arguments) */
    }
    if (b->len + n > b->cap) {
        int64_t cap = b->cap < 256 ? 256 : b->cap;
        char *d;
        while (cap < b->len + n) {
            cap *= 2;
        }
        if ((d = PyMem_RawRealloc(b->d, (size_t)cap)) == NULL) {
            return -1;
        }
        b->d = d;
        b->cap = cap;
    }
    copy_bytes(b->d + b->len, s, n);
    b->len += n;
    return 0;
}

/* Whether the input bytes of rows [r0, r1) are all ASCII (offset layouts; a
 * view chunk: 0, not known).  A row that is not malformed lies between the
 * first row's start and the last one's end. */
static int
rows_ascii(const InChunk *c, int64_t r0, int64_t r1)
{
    int64_t s, e, i;
    uint8_t any = 0;
    if (c->layout == IN_VIEW || c->data == NULL || r1 <= r0) {
        return 0;
    }
    if (c->layout == IN_OFF32) {
        s = ((const int32_t *)c->offsets)[r0 + c->offset];
        e = ((const int32_t *)c->offsets)[r1 + c->offset];
    }
    else {
        s = ((const int64_t *)c->offsets)[r0 + c->offset];
        e = ((const int64_t *)c->offsets)[r1 + c->offset];
    }
    if (s < c->lo || e < s || e > c->hi) {
        return 0;
    }
    for (i = s; i < e; i++) {
        any |= c->data[i];
    }
    return any < 0x80;
}

/* §4.7 origin of a row with offsets: 0 a tuple origin, 1 opaque ("null"),
 * 2 blob: (its path's URL's origin, from the getter) */
PE_INTERNAL int
origin_kind(const RowURL *r)
{
    static const char *const tuple[] = {"ftp", "http", "https", "ws", "wss"};
    Py_ssize_t sl = r->p[0];
    int t;
    for (t = 0; t < 5; t++) {
        if ((Py_ssize_t)strlen(tuple[t]) == sl && r->len >= sl &&
            memcmp(r->h, tuple[t], (size_t)sl) == 0) {
            return 0;
        }
    }
    return sl == 4 && r->len >= 4 && memcmp(r->h, "blob", 4) == 0 ? 2 : 1;
}

/* A row of a part as the component writers read it (a row with offsets). */
static inline void
upart_row(const UPart *u, int64_t j, RowURL *r)
{
    const int32_t *q = u->pp + j * N_PARTS;
    int k;
    for (k = 0; k < N_PARTS; k++) {
        r->p[k] = q[k];
    }
    r->h = u->h.d + u->h.off[j];
    r->len = (Py_ssize_t)(u->h.off[j + 1] - u->h.off[j]);
    r->has_parts = 1;
}

/* Component k of a row with offsets as one or two pieces of its href (a
 * tuple origin, §4.7: "scheme://" and the host with its port; an opaque one
 * is "null"; a blob: origin is never asked here, upart_run leaves it). */
static inline int
row_pieces(const RowURL *r, int k, const char *s[2], int64_t n[2])
{
    Py_ssize_t a, e;
    if (component_span(r, k, &a, &e)) {
        s[0] = r->h + a;
        n[0] = e - a;
        return 1;
    }
    if (origin_kind(r) == 1) {
        s[0] = "null";
        n[0] = 4;
        return 1;
    }
    span(r, 0, r->p[0] + 3, &a, &e);
    s[0] = r->h + a;
    n[0] = e - a;
    span(r, r->p[2], r->p[5], &a, &e);
    s[1] = r->h + a;
    n[1] = e - a;
    return 2;
}

/* Row j (ST_OK) of a part, component k: its pieces (for the driver's row by row copy). */
PE_INTERNAL int
upart_pieces(const UPart *u, int64_t j, int k, const char *s[2], int64_t n[2])
{
    RowURL r;
    if (u->direct) {
        s[0] = u->h.d + u->h.off[j];
        n[0] = u->h.off[j + 1] - u->h.off[j];
        return 1;
    }
    upart_row(u, j, &r);
    return row_pieces(&r, k, s, n);
}

/* A row the core parsed into the part (no GIL): with one field, the field's
 * bytes; else its href, offsets and each field's share.  ST_OK, ST_PY (an
 * href past what int32 offsets hold, for the driver's row by row copy), or
 * -1 no memory. */
static int
upart_keep(UPart *u, int64_t j, const RowURL *r)
{
    int k, m, np;
    int32_t *q;
    const char *s[2];
    int64_t n[2];
    Py_ssize_t a[10], b[10];
    if (u->direct) {
        np = row_pieces(r, u->fld[0], s, n);
        for (m = 0; m < np; m++) {
            if (pbuf_put(&u->h, s[m], n[m]) < 0) {
                return -1;
            }
        }
        return ST_OK;
    }
    if (r->len > INT32_MAX) {
        return ST_PY;
    }
    if (pbuf_put(&u->h, r->h, r->len) < 0) {
        return -1;
    }
    q = u->pp + j * N_PARTS;
    for (k = 0; k < N_PARTS; k++) {
        q[k] = (int32_t)r->p[k];
    }
    row_spans(r, a, b);
    for (k = 0; k < u->nf; k++) {
        int f = u->fld[k];
        if (f < ORIGIN) {
            u->tot[k] += b[f] - a[f];
            continue;
        }
        np = row_pieces(r, f, s, n);
        for (m = 0; m < np; m++) {
            u->tot[k] += n[m];
        }
    }
    return ST_OK;
}

static void
upart_run(UPart *u)
{
    Scratch S;
    UrlParser P;
    BaseRow K;
    UrlParts o;
    int k, wants_origin = 0, ascii;
    int64_t i;
    memset(&S, 0, sizeof S);
    P.nogil = K.P.nogil = 1;
    K.P.head_only = 0;
    K.n = -1;
    K.live = 0;
    P.head_only = 1; /* only the components before the path? (and can-parse) */
    for (k = 0; k < u->nf; k++) {
        wants_origin |= u->fld[k] == ORIGIN;
        P.head_only &= (u->fld[k] >= 1 && u->fld[k] <= 6) || u->fld[k] == ORIGIN;
    }
    ascii = rows_ascii(u->c, u->r0, u->r1);
    for (i = u->r0; i < u->r1; i++) {
        int64_t j = i - u->r0;
        uint8_t st = ST_NULL;
        RowURL r;
        if (in_valid(u->c, i) && (!u->has_base || in_valid(u->bc, i))) {
            const UrlBase *B = u->one;
            int rc;
            r.in = in_row(u->c, i, &r.in_n);
            if (r.in == NULL) {
                u->bad = i;
                break;
            }
            if (u->has_base) {
                r.bin = in_row(u->bc, i, &r.bin_n);
                if (r.bin == NULL) {
                    u->bad = i;
                    break;
                }
                rc = base_row(&S, &K, r.bin, r.bin_n);
                if (rc < 0) {
                    u->nomem = 1;
                    break;
                }
                B = &K.B;
                if (rc != 1) {
                    st = rc == 2 && !u->strict ? (u->nf ? ST_NULL : ST_FALSE) : ST_PY;
                    goto put;
                }
            }
            else if (u->one_py) {
                st = ST_PY;
                goto put;
            }
            S.ascii = ascii;
            rc = core_row(&S, &P, r.in, r.in_n, B, &o);
            S.ascii = 0;
            if (rc < 0) {
                url_parser_free(&P);
                u->nomem = 1;
                break;
            }
            if (rc == 1) {
                row_parsed(&r, &P, &o);
                st = ST_OK;
                if (wants_origin && origin_kind(&r) == 2) {
                    st = ST_PY;
                }
                else if (u->nf > 0) {
                    int kept = upart_keep(u, j, &r);
                    if (kept < 0) {
                        u->nomem = 1;
                    }
                    else {
                        st = (uint8_t)kept;
                    }
                }
            }
            else if (rc == 2 && !u->strict) {
                st = u->nf ? ST_NULL : ST_FALSE;
            }
            else {
                st = ST_PY;
            }
            url_parser_free(&P);
            if (u->nomem) {
                break;
            }
        }
    put:
        u->st[j] = st;
        u->n_py += st == ST_PY;
        u->h.off[j + 1] = u->h.len;
    }
    base_row_free(&K);
    scratch_free(&S);
}

/* A part's buffers, kept from one call to the next (a fresh buffer costs
 * page faults: the allocator maps big blocks anew and returns them after).
 * Only touched with the GIL (window_run before it lets the GIL go, and
 * upart_free), so a build without the GIL keeps none. */
#ifndef Py_GIL_DISABLED
#define KEEP_PARTS 8
#define KEEP_BYTES (2 << 20) /* an href buffer kept: at most this (8 parts: under 20 MB) */
static struct {
    PBuf h;
    int32_t *pp;
    uint8_t *st;
} kept[KEEP_PARTS];
static int n_kept;
#endif

PE_INTERNAL void
upart_free(UPart *u)
{
#ifndef Py_GIL_DISABLED
    if (u->st != NULL && n_kept < KEEP_PARTS && u->h.cap <= KEEP_BYTES) {
        kept[n_kept].h = u->h;
        kept[n_kept].pp = u->pp;
        kept[n_kept].st = u->st;
        n_kept++;
        u->h.d = NULL;
        u->h.off = NULL;
        u->pp = NULL;
        u->st = NULL;
        return;
    }
#endif
    PyMem_RawFree(u->h.d);
    PyMem_RawFree(u->h.off);
    PyMem_RawFree(u->pp);
    u->h.d = NULL;
    u->h.off = NULL;
    u->pp = NULL;
    PyMem_RawFree(u->st);
    u->st = NULL;
}

/* A part used for the first time in this call: the buffers of one kept. */
static void
upart_reuse(UPart *u)
{
#ifndef Py_GIL_DISABLED
    if (n_kept > 0) {
        n_kept--;
        u->h = kept[n_kept].h;
        u->pp = kept[n_kept].pp;
        u->st = kept[n_kept].st;
    }
#else
    (void)u;
#endif
}

/* One field's part (direct): its bytes in one copy, its offsets moved by where
 * they land. */
static void
fill_direct(const UPart *u, const Sink *s)
{
    int64_t i, n = u->r1 - u->r0, at = u->at[0];
    if (u->h.len > 0) {
        memcpy(s->data[0] + at, u->h.d, (size_t)u->h.len);
    }
    if (s->large) {
        int64_t *o = (int64_t *)s->offsets[0] + u->r0 + 1;
        for (i = 0; i < n; i++) {
            o[i] = at + u->h.off[i + 1];
        }
    }
    else {
        int32_t *o = (int32_t *)s->offsets[0] + u->r0 + 1;
        for (i = 0; i < n; i++) {
            o[i] = (int32_t)(at + u->h.off[i + 1]);
        }
    }
}

/* A placed part's rows into the result (no GIL): validity, then, a row at a
 * time, each field's component cut from the row's href into the room
 * part_place gave it, and its end offset.  Parts start at a multiple of 8
 * rows, so two parts share no validity byte. */
static void
part_fill(UPart *u, const Sink *s)
{
    int64_t i, n = u->r1 - u->r0, pos[11];
    int k, m;
    for (i = 0; i < n; i++) {
        int st = u->st[i];
        int64_t r = u->r0 + i;
        if (st == ST_NULL) {
            u->nulls++;
            continue;
        }
        if (s->nf == 0 || st == ST_OK) {
            s->validity[r >> 3] |= (uint8_t)(1u << (r & 7));
        }
        if (s->nf == 0 && st == ST_OK) {
            s->bits[r >> 3] |= (uint8_t)(1u << (r & 7));
        }
    }
    if (u->direct) {
        fill_direct(u, s);
        return;
    }
    for (k = 0; k < s->nf; k++) {
        pos[k] = u->at[k];
    }
    for (i = 0; i < n && s->nf > 0; i++) {
        int64_t r = u->r0 + i + 1;
        if (u->st[i] == ST_OK) {
            RowURL row;
            Py_ssize_t a[10], b[10];
            upart_row(u, i, &row);
            row_spans(&row, a, b);
            for (k = 0; k < s->nf; k++) {
                const char *p[2];
                int64_t len[2];
                int f = u->fld[k], np;
                if (f < ORIGIN) {
                    copy_bytes(s->data[k] + pos[k], row.h + a[f], b[f] - a[f]);
                    pos[k] += b[f] - a[f];
                    continue;
                }
                np = row_pieces(&row, f, p, len);
                for (m = 0; m < np; m++) {
                    copy_bytes(s->data[k] + pos[k], p[m], len[m]);
                    pos[k] += len[m];
                }
            }
        }
        for (k = 0; k < s->nf; k++) {
            if (s->large) {
                ((int64_t *)s->offsets[k])[r] = pos[k];
            }
            else {
                ((int32_t *)s->offsets[k])[r] = (int32_t)pos[k];
            }
        }
    }
}

/* The work of a window: the placed parts of the window before to copy, then
 * the parts to parse, taken one at a time by each thread (a busy core does
 * fewer of them, and no thread waits long for another). */
typedef struct {
    UPart *parts;
    UPart *const *fills;
    const Sink *sink;
    int n, n_fills;
    int next; /* the next task to take (atomic) */
} Work;

static void *
work_main(void *arg)
{
    Work *w = (Work *)arg;
    int k;
    while ((k = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) < w->n_fills + w->n) {
        if (k < w->n_fills) {
            part_fill(w->fills[k], w->sink);
        }
        else {
            upart_run(&w->parts[k - w->n_fills]);
        }
    }
    return NULL;
}

/* Rows [w0, w1) into parts of SUB rows (at most MAX_PARTS), run without the
 * GIL on t threads, with the copies of the n_fills parts placed before: the
 * number of parts, or -1 (no memory). */
PE_INTERNAL int
window_run(UPart *parts, int t, const UPart *proto, int64_t w0, int64_t w1,
           UPart *const *fills, int n_fills, const Sink *sink)
{
    int p, fail = 0, n = (int)((w1 - w0 + SUB - 1) / SUB);
    Work w;
    for (p = 0; p < n; p++) {
        /* the buffers of the window before are kept (fresh ones each time
         * cost page faults: the allocator maps big blocks anew) */
        UPart *u = &parts[p];
        PBuf keep;
        if (u->st == NULL) {
            upart_reuse(u);
        }
        keep = u->h;
        int32_t *pp = u->pp;
        uint8_t *st = u->st;
        *u = *proto;
        u->h = keep;
        u->pp = pp;
        u->st = st;
        u->r0 = w0 + (int64_t)SUB * p;
        u->r1 = u->r0 + SUB < w1 ? u->r0 + SUB : w1;
        u->bad = -1;
        if (u->st == NULL) {
            u->st = PyMem_RawMalloc(SUB + 1);
        }
        fail |= u->st == NULL;
        u->h.len = 0;
        if (u->h.off == NULL) {
            u->h.off = PyMem_RawMalloc((SUB + 1) * sizeof(int64_t));
        }
        if (u->h.off == NULL) {
            fail = 1;
        }
        else {
            u->h.off[0] = 0;
        }
        u->direct = u->nf == 1;
        if (u->nf > 1 && u->pp == NULL) {
            u->pp = PyMem_RawMalloc((size_t)SUB * N_PARTS * sizeof(int32_t));
            fail |= u->pp == NULL;
        }
    }
    if (fail) {
        PyErr_NoMemory();
        return -1;
    }
    w.parts = parts;
    w.n = n;
    w.fills = fills;
    w.n_fills = n_fills;
    w.sink = sink;
    w.next = 0;
    t = t > n + n_fills ? n + n_fills : t;
    Py_BEGIN_ALLOW_THREADS
#ifdef PE_THREADS
    {
        pthread_t tids[8];
        int started[8] = {0};
        for (p = 1; p < t; p++) {
            started[p] = pthread_create(&tids[p], NULL, work_main, &w) == 0;
        }
        work_main(&w);
        for (p = 1; p < t; p++) {
            if (started[p]) {
                pthread_join(tids[p], NULL);
            }
        }
    }
#else
    (void)t;
    work_main(&w);
#endif
    Py_END_ALLOW_THREADS
    return n;
}

/* A whole part (no ST_PY row) gets its place in the result (with the GIL):
 * room in each field's data after what is there, and where its data lands;
 * part_fill copies it later.  0, or -1 with an exception. */
PE_INTERNAL int
part_place(UPart *u, Field *fields, int nf, int large)
{
    int k;
    u->nulls = 0;
    for (k = 0; k < nf; k++) {
        Field *f = &fields[k];
        int64_t need = u->direct ? u->h.len : u->tot[k];
        if (f->len + need > f->cap) {
            int64_t cap = f->cap < 64 ? 64 : f->cap;
            while (cap < f->len + need) {
                cap += cap / 2;
            }
            if (PyByteArray_Resize(f->data, (Py_ssize_t)cap) < 0) {
                return -1;
            }
            f->cap = cap;
        }
        if (!large && f->len + need > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError,
                            "URL column result over 2 GiB in one chunk: use a large_string column");
            return -1;
        }
        u->at[k] = f->len;
        f->len += need;
    }
    return 0;
}
