/* One row of a URL column: its text read as code points, its parse by the C URL
 * parser's core (against no base, one base, or its row's base in a base
 * column); its components' spans are inline in arrow_url.h.  Below both the driver
 * (arrow_url.c) and the GIL-free pass (arrow_url_parts.c), which share it. */
#include "arrow_url.h"

PE_INTERNAL void
scratch_free(Scratch *S)
{
    PyMem_RawFree(S->ucs);
    free(S->fix.fix);
}

/* A row's UTF-8 as (kind, data, length) for url_parser_init: ASCII as it is, else
 * decoded into S->ucs.  0, or -1 out of memory (no exception set). */
static int
row_text(Scratch *S, const uint8_t *p, int64_t n, int *kind, const void **data, int64_t *len)
{
    int64_t i, ok, m = 0;
    uint64_t any = 0;
    if (S->ascii) {
        *kind = PyUnicode_1BYTE_KIND;
        *data = p;
        *len = n;
        return 0;
    }
    for (i = 0; i + 8 <= n; i += 8) {
        uint64_t w;
        memcpy(&w, p + i, 8);
        any |= w;
    }
    for (; i < n; i++) {
        any |= p[i];
    }
    if (!(any & 0x8080808080808080ULL)) {
        *kind = PyUnicode_1BYTE_KIND;
        *data = p;
        *len = n;
        return 0;
    }
    ok = utf8_valid_prefix(p, n);
    if (ok < n && (p = fix_row(&S->fix, p, &n, ok)) == NULL) {
        return -1;
    }
    if (n > S->ucs_cap) {
        Py_UCS4 *u = PyMem_RawRealloc(S->ucs, (size_t)n * sizeof(Py_UCS4));
        if (u == NULL) {
            return -1;
        }
        S->ucs = u;
        S->ucs_cap = n;
    }
    for (i = 0; i < n;) {
        unsigned c = p[i];
        Py_UCS4 v;
        if (c < 0x80) {
            v = c, i += 1;
        }
        else if (c < 0xE0) {
            v = ((Py_UCS4)(c & 0x1F) << 6) | (p[i + 1] & 0x3F), i += 2;
        }
        else if (c < 0xF0) {
            v = ((Py_UCS4)(c & 0x0F) << 12) | ((Py_UCS4)(p[i + 1] & 0x3F) << 6) |
                (p[i + 2] & 0x3F);
            i += 3;
        }
        else {
            v = ((Py_UCS4)(c & 0x07) << 18) | ((Py_UCS4)(p[i + 1] & 0x3F) << 12) |
                ((Py_UCS4)(p[i + 2] & 0x3F) << 6) | (p[i + 3] & 0x3F);
            i += 4;
        }
        S->ucs[m++] = v;
    }
    *kind = PyUnicode_4BYTE_KIND;
    *data = S->ucs;
    *len = m;
    return 0;
}

/* The C URL parser (url_parse_core) on a row's UTF-8 against B (NULL: none),
 * into P (url_parser_free it after): 1 parsed, 2 not a URL, 0 for the Python
 * parser, -1 with an exception. */
PE_INTERNAL int
core_row(Scratch *S, UrlParser *P, const uint8_t *p, int64_t n, const UrlBase *B, UrlParts *o)
{
    int kind;
    const void *data;
    int64_t len;
    if (row_text(S, p, n, &kind, &data, &len) < 0) {
        url_parser_init(P, PyUnicode_1BYTE_KIND, "", 0);
        if (P->nogil) {
            P->nomem = 1;
        }
        else {
            PyErr_NoMemory();
        }
        return -1;
    }
    if (url_parser_init(P, kind, data, (Py_ssize_t)len) < 0) {
        return -1;
    }
    return url_parse_core(P, B, o);
}

/* A row the core parsed (core_row's 1): its href and offsets into r. */
PE_INTERNAL void
row_parsed(RowURL *r, const UrlParser *P, const UrlParts *o)
{
    Py_ssize_t v[N_PARTS] = {o->s_end,   o->u_end,   o->h_start, o->h_end,    o->port,
                             o->p_start, o->q_start, o->f_start, o->host_kind};
    memcpy(r->p, v, sizeof v);
    r->has_parts = 1;
    r->h = P->out;
    r->len = P->len;
}

/* A row's base text (p, n) into K, parsed unless it repeats the row before's:
 * K->rc (1 parsed, K->B the base; 2 not a URL; 0 for the Python parser), or
 * -1 (core_row's -1: out of memory). */
PE_INTERNAL int
base_row(Scratch *S, BaseRow *K, const uint8_t *p, int64_t n)
{
    if (K->n == n && (K->p == p || !memcmp(K->p, p, (size_t)n))) {
        return K->rc;
    }
    if (K->live) {
        url_parser_free(&K->P);
    }
    K->live = 1;
    K->rc = core_row(S, &K->P, p, n, NULL, &K->B.o);
    if (K->rc < 0) {
        return -1;
    }
    K->B.href = K->P.out;
    K->B.len = K->P.len;
    K->p = p;
    K->n = n;
    return K->rc;
}

PE_INTERNAL void
base_row_free(BaseRow *K)
{
    if (K->live) {
        url_parser_free(&K->P);
        K->live = 0;
    }
}

