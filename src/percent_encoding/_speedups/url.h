/* url.h: what the translation units of the C URL parser share.
 *
 *   url.c         the parse driver (§4.4 basic URL parser, no base, no state
 *                 override), the output and error buffers, building the url.URL
 *                 object (§4.5 serializer output), url_parse and url_setup
 *   url_host.c    the host: §3.5 host parser for plain ASCII domains and IPv4,
 *                 anything else through the Python host hook
 *   url_path.c    §1.3 percent-encoding of a run, the §4.4 path, query and
 *                 fragment states (dot segments included)
 *   url_getter.c  the URL API getters (§6.1) as C descriptors
 *
 * url.c's header comment describes the parser as a whole.  Functions called
 * from another unit are declared here, hidden from the shared object's exports
 * (PE_INTERNAL); is_hex is static inline so each unit inlines its own copy. */
#ifndef PE_URL_H
#define PE_URL_H

#include "speedups.h"

/* Set by url_setup (url.c); the host hook is read by url_host.c, the URL type
 * and the slot descriptors by url_getter.c. */
PE_INTERNAL extern PyObject *url_type;         /* percent_encoding.url.URL */
PE_INTERNAL extern PyObject *host_hook;        /* (host text) -> (host, kind) | None, cached */
PE_INTERNAL extern PyObject *d_href, *d_parts; /* URL's slot descriptors */

enum { HOST_NONE = 0, HOST_DOMAIN = 1, HOST_IPV4 = 2, HOST_IPV6 = 3, HOST_EMPTY = 4 };

#define URL_STACK 512
#define URL_HOOK_MAX 1024 /* longer hosts are left to the state machine (bounded cache) */
#define URL_ERRS 16

typedef struct {
    Py_ssize_t pos;
    int credentials; /* invalid-credentials, else invalid-URL-unit */
} UrlErr;

typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
    char *out;
    Py_ssize_t len, cap;
    int heap;
    char stack[URL_STACK];
    UrlErr *errs; /* the validation errors so far */
    Py_ssize_t nerr, errcap;
    UrlErr errbuf[URL_ERRS];
} UrlP;

#define CH(P, i) PyUnicode_READ((P)->kind, (P)->data, (i))

#define NEED(P, k)                                                                         \
    do {                                                                                   \
        if ((P)->len + (k) > (P)->cap && url_grow((P), (k)) < 0) {                         \
            return -1;                                                                     \
        }                                                                                  \
    } while (0)

typedef struct {
    Py_ssize_t s_end, u_end, h_start, h_end, port, p_start, q_start, f_start;
    int host_kind;
} UrlParts;

static inline int
is_hex(Py_UCS4 c)
{
    return c < 0x80 && PE_HEXVAL[c] != 0xFF;
}

/* url.c */
PE_INTERNAL int url_run(UrlP *P, PyObject *input, UrlParts *o);
PE_INTERNAL int url_grow(UrlP *P, Py_ssize_t need);
PE_INTERNAL int url_err(UrlP *P, int credentials, Py_ssize_t pos);

/* url_host.c */
PE_INTERNAL int url_ascii_host(UrlP *P, Py_ssize_t a, Py_ssize_t b, int *kind);
PE_INTERNAL int url_host_from_hook(UrlP *P, PyObject *input, Py_ssize_t a, Py_ssize_t b,
                                   int *kind);

/* url_path.c */
PE_INTERNAL int url_encode_run(UrlP *P, Py_ssize_t a, Py_ssize_t b, unsigned bit, int check,
                               int no_space);
PE_INTERNAL int url_path(UrlP *P, Py_ssize_t i, int file, Py_ssize_t *end);
PE_INTERNAL int url_query_fragment(UrlP *P, Py_ssize_t i, int special, UrlParts *o);

#endif /* PE_URL_H */
