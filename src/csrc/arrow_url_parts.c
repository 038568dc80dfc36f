/* arrow_url_parts.c: the GIL-free pass of the URL column kernel (arrow_url.c
 * is the driver; arrow_url.h what they share).
 *
 * window_run() splits a window's rows into parts of SUB rows that
 * set_threads' threads take one at a time (upart_run): each part parses its
 * rows with the C URL parser (core_row, no GIL: the raw allocator, no host
 * hook) and writes the requested components into its own buffers, with a
 * state a row (ST_PY for a row the driver must finish with the GIL).
 * part_place() (with the GIL) gives a whole part with no such row its place
 * in the result, and part_fill() copies it there on the threads, while they
 * parse the next window. */
#include "arrow_url.h"

#ifndef _WIN32
#include <pthread.h>
#define PE_THREADS 1
#endif

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
    memcpy(b->d + b->len, s, (size_t)n);
    b->len += n;
    return 0;
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

/* Component k of a row the core parsed into b (no GIL): 0, -1 no memory. */
static int
pbuf_component(PBuf *b, const RowURL *r, int k)
{
    Py_ssize_t a, e;
    if (component_span(r, k, &a, &e)) {
        return pbuf_put(b, r->h + a, e - a);
    }
    if (origin_kind(r) == 1) {
        return pbuf_put(b, "null", 4);
    }
    span(r, 0, r->p[0] + 3, &a, &e);
    if (pbuf_put(b, r->h + a, e - a) < 0) {
        return -1;
    }
    span(r, r->p[2], r->p[5], &a, &e);
    return pbuf_put(b, r->h + a, e - a);
}

static void
upart_run(UPart *u)
{
    Scratch S;
    UrlParser P;
    BaseRow K;
    UrlParts o;
    int k, wants_origin = 0;
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
            rc = core_row(&S, &P, r.in, r.in_n, B, &o);
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
                for (k = 0; st == ST_OK && k < u->nf; k++) {
                    if (pbuf_component(&u->f[k], &r, u->fld[k]) < 0) {
                        u->nomem = 1;
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
        for (k = 0; k < u->nf; k++) {
            u->f[k].off[j + 1] = u->f[k].len;
        }
    }
    base_row_free(&K);
    scratch_free(&S);
}

PE_INTERNAL void
upart_free(UPart *u)
{
    int k;
    for (k = 0; k < 11; k++) {
        PyMem_RawFree(u->f[k].d);
        PyMem_RawFree(u->f[k].off);
        u->f[k].d = NULL;
        u->f[k].off = NULL;
    }
    PyMem_RawFree(u->st);
    u->st = NULL;
}

/* A placed part's rows into the result (no GIL): validity, then each
 * field's data in one copy and its offsets moved by where the data lands.
 * Parts start at a multiple of 8 rows, so two parts share no validity byte. */
static void
part_fill(UPart *u, const Sink *s)
{
    int64_t i, n = u->r1 - u->r0;
    int k;
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
    for (k = 0; k < s->nf; k++) {
        const PBuf *b = &u->f[k];
        int64_t at = u->at[k];
        if (b->len > 0) {
            memcpy(s->data[k] + at, b->d, (size_t)b->len);
        }
        if (s->large) {
            int64_t *o = (int64_t *)s->offsets[k] + u->r0 + 1;
            for (i = 0; i < n; i++) {
                o[i] = at + b->off[i + 1];
            }
        }
        else {
            int32_t *o = (int32_t *)s->offsets[k] + u->r0 + 1;
            for (i = 0; i < n; i++) {
                o[i] = (int32_t)(at + b->off[i + 1]);
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
    int p, k, fail = 0, n = (int)((w1 - w0 + SUB - 1) / SUB);
    Work w;
    for (p = 0; p < n; p++) {
        /* the buffers of the window before are kept (fresh ones each time
         * cost page faults: the allocator maps big blocks anew) */
        UPart *u = &parts[p];
        PBuf keep[11];
        uint8_t *st = u->st;
        memcpy(keep, u->f, sizeof keep);
        *u = *proto;
        memcpy(u->f, keep, sizeof keep);
        u->st = st;
        u->r0 = w0 + (int64_t)SUB * p;
        u->r1 = u->r0 + SUB < w1 ? u->r0 + SUB : w1;
        u->bad = -1;
        if (u->st == NULL) {
            u->st = PyMem_RawMalloc(SUB + 1);
        }
        fail |= u->st == NULL;
        for (k = 0; k < u->nf; k++) {
            u->f[k].len = 0;
            if (u->f[k].off == NULL) {
                u->f[k].off = PyMem_RawMalloc((SUB + 1) * sizeof(int64_t));
            }
            if (u->f[k].off == NULL) {
                fail = 1;
            }
            else {
                u->f[k].off[0] = 0;
            }
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
        const PBuf *b = &u->f[k];
        if (f->len + b->len > f->cap) {
            int64_t cap = f->cap < 64 ? 64 : f->cap;
            while (cap < f->len + b->len) {
                cap += cap / 2;
            }
            if (PyByteArray_Resize(f->data, (Py_ssize_t)cap) < 0) {
                return -1;
            }
            f->cap = cap;
        }
        if (!large && f->len + b->len > INT32_MAX) {
            PyErr_SetString(PyExc_OverflowError,
                            "URL column result over 2 GiB in one chunk: use a large_string column");
            return -1;
        }
        u->at[k] = f->len;
        f->len += b->len;
    }
    return 0;
}
