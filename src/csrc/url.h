/* url.h: what the translation units of the C URL parser share.
 *
 *   url.c         the Python side: the base URL, building the url.URL
 *                 object (§4.5 serializer output), url_parse and url_setup
 *   url_input.c   the input buffer (trimmed, tabs and newlines removed), the
 *                 USVString conversion, the position map, the validation
 *                 errors, the output buffer (growth, appends, copies of a
 *                 base's spans)
 *   url_state.c   the §4.4 basic URL parser, every state, with or without a
 *                 base URL: url_parse_core, the entry for the column kernel
 *   url_file.c    the file, file slash and file host states
 *   url_host.c    §3.5 host parser: ASCII domains, IPv4 in every form, IPv6,
 *                 opaque hosts in C; non-ASCII domains through the Python
 *                 host hook
 *   url_idna.c    the xn-- labels of an ASCII domain (UTS #46 validity,
 *                 Punycode, ContextJ, Bidi) for the strict run of §3.3
 *   url_path.c    §1.3 percent-encoding of a run, the §4.4 path start, path,
 *                 opaque path, query and fragment states (dot segments, drive
 *                 letters)
 *   url_object.c  the URL API (§6.1): the URL type (getters that slice the
 *                 href, replace, ==, hash, pickling) and canParse
 *   url_setters.c the URL API setters (§6.1, the state overrides of §4.4)
 *   url_replace.c URL.replace: the setters in order, the fallback to Python
 *
 * The URL parser is layer 2: it stands on the byte kernels (kernels.h) and
 * knows nothing of Arrow.  Its units call each other one way, bottom to top:
 * url_input, url_idna, url_path, url_host, url_file, url_state, url_object
 * (the URL type: what it calls above, it reaches through two hooks module.c
 * sets), url, then url_setters and url_replace (tests/test_architecture.py).
 * Functions called from another unit are declared here, hidden from the
 * shared object's exports (PE_INTERNAL); is_hex is static inline so each unit
 * inlines its own copy. */
#ifndef PE_URL_H
#define PE_URL_H

#include "kernels.h"

/* Defined in url_object.c, set by url_setup (url.c); the host hook is read by url_host.c.  url_py_class
 * is the pure twin's class (url_object.c's pickling and ==, url.c's bases). */
PE_INTERNAL extern PyObject *url_py_class;     /* percent_encoding.url.URL */
PE_INTERNAL extern PyObject *host_hook;        /* (host text) -> (host, kind, errors) | None */
PE_INTERNAL extern PyObject *d_href, *d_parts; /* the C URL type's href and _parts getters */

/* Host kinds, the last of the nine offsets (url/_offsets.py names them for Python):
 * 0 no host and an opaque path, 1 domain or opaque host, 2 IPv4, 3 IPv6,
 * 4 the empty host, 5 no host and a list path ("foo:/a"). */
enum { HOST_NONE = 0, HOST_DOMAIN = 1, HOST_IPV4 = 2, HOST_IPV6 = 3, HOST_EMPTY = 4,
       HOST_NULL = 5 };

/* The validation errors (URL Standard §4.4, §3.5), by index into url_error_names. */
enum {
    E_UNIT, E_CREDENTIALS, E_MISSING_SOLIDUS, E_BACKSLASH, E_DRIVE, E_DRIVE_HOST,
    E_DOMAIN, E_DOMAIN_PCT, E_V4_EMPTY, E_V4_NONDEC, E_V4_RANGE, E_V6_ZERO, E_V4_FEW,
    E_V4_NONASCII, /* reported by the host hook (a non-ASCII host); from the open
                      proposal whatwg/url PR #925, not the Standard's text yet */
    /* the ones that end the parse with failure */
    E_NO_SCHEME, E_HOST_MISSING, E_PORT_RANGE, E_PORT_INVALID, E_HOST_CP, E_DOMAIN_CP,
    E_V4_MANY, E_V4_NONNUM, E_V6_UNCLOSED, E_V6_COMPRESSION, E_V6_MANY, E_V6_MULTI,
    E_V4V6_CP, E_V4V6_MANY, E_V4V6_RANGE, E_V4V6_FEW, E_V6_CP, E_V6_FEW, E_COUNT
};
PE_INTERNAL extern const char *const url_error_names[E_COUNT];

#define URL_STACK 512
#define URL_ERRS 16

typedef struct {
    Py_ssize_t pos; /* in the caller's input */
    int name;       /* E_... */
} UrlValidationError;

/* The state of one run of the URL parser (P in every unit: the AT, CH and NEED
 * macros name it): the input (kind, data, n) after trimming and tab/newline removal,
 * the position map back to the caller's input, the output buffer (the href)
 * and the validation errors. */
typedef struct {
    int kind;
    const void *data;
    Py_ssize_t n;
    Py_ssize_t lead;        /* leading C0 controls and spaces trimmed */
    Py_ssize_t *kept;       /* with tabs/newlines removed: input index of each kept one */
    void *clean;            /* the copy without tabs and newlines (PyMem) */
    char *out;
    Py_ssize_t len, cap;
    int heap;
    char stack[URL_STACK];
    UrlValidationError *errs; /* the validation errors so far */
    Py_ssize_t nerr, errcap;
    UrlValidationError errbuf[URL_ERRS];
    int fail;            /* after a failure (core returns 2): E_..., at fail_pos */
    Py_ssize_t fail_pos;
    /* Set by a caller that runs the parse without the GIL (the column
     * kernel, arrow_url.c): then the host hook is not called (need_gil is
     * set and the parse bails, returning 0) and running out of memory sets
     * nomem instead of MemoryError.  The buffers use the raw allocator
     * (PyMem_Raw*), which needs no GIL. */
    int nogil, need_gil, nomem;
    /* Set by a caller that reads only the scheme, userinfo, host and port
     * (or whether the input parses): the parse stops at the path start
     * after an authority, since the path, query and fragment states never
     * fail.  The href then ends there (P->len == o->p_start). */
    int head_only;
    /* Set by the setters (url_setters.c, §4.4 with a state override): the
     * path state then ends a segment only at '/' (and '\\' when special),
     * '?' and '#' being path code points.  url_parser_init clears it. */
    int override;
} UrlParser;

#define CH(P, i) PyUnicode_READ((P)->kind, (P)->data, (i))

#define NEED(P, k)                                                                         \
    do {                                                                                   \
        if ((P)->len + (k) > (P)->cap && url_grow((P), (k)) < 0) {                         \
            return -1;                                                                     \
        }                                                                                  \
    } while (0)

/* Offsets into the href: url/_offsets.py draws the layout and names each field for
 * Python (tests/test_url_offsets.py holds the two to each other). */
typedef struct {
    Py_ssize_t s_end, u_end, h_start, h_end, port, p_start, q_start, f_start;
    int host_kind;
} UrlParts;

/* url_object.c: the URL API's object (§6.1), the C twin of url.URL: its href
 * (a str), the offsets into it, the validation errors (a tuple), the hash once
 * computed (-1 before). */
typedef struct {
    PyObject_HEAD
    PyObject *href;
    PyObject *errs;
    Py_hash_t hash;
    UrlParts o;
} UrlObject;
PE_INTERNAL extern PyTypeObject UrlObjectType;
/* a new URL; href and errs are new references, stolen (also on failure) */
PE_INTERNAL PyObject *url_object_new(PyObject *href, const UrlParts *o, PyObject *errs);
/* the offsets as url/_record.py's record_of takes them (new reference) */
PE_INTERNAL PyObject *url_parts_tuple(const UrlParts *o);
/* §6.1 canParse of a str against None, a str or a URL: 1, 0, 2 (Python must say), -1 */
PE_INTERNAL int url_check(PyObject *input, PyObject *base);
PE_INTERNAL int url_object_init(PyObject *module);
/* What the type calls in the units above it, set by module.c at init (the URL
 * parser's units call one way, tools/c_layers.py): URL(input, base) is
 * url.c's url_fast_new, replace(**changes) url_replace.c's url_replace_core. */
typedef PyObject *(*UrlParseFn)(PyObject *, PyObject *, int);
typedef PyObject *(*UrlReplaceFn)(PyObject *, Py_ssize_t, PyObject *const *, PyObject *const *);
PE_INTERNAL extern UrlParseFn url_object_parse;
PE_INTERNAL extern UrlReplaceFn url_object_replace;
PE_INTERNAL PyObject *pe_url_from_parts(PyObject *self, PyObject *const *args,
                                        Py_ssize_t nargs);
PE_INTERNAL PyObject *pe_url_type_setup(PyObject *self, PyObject *const *args,
                                        Py_ssize_t nargs, PyObject *kwnames);
PE_INTERNAL PyObject *pe_url_can_parse(PyObject *self, PyObject *const *args,
                                       Py_ssize_t nargs);
/* url_replace.c: the setters keys[i] = values[i] on a URL, in order: a new URL,
 * None (the Python setters must run them), or NULL with an exception */
PE_INTERNAL PyObject *url_replace_core(PyObject *url, Py_ssize_t m, PyObject *const *keys,
                                       PyObject *const *values);

/* A parsed base URL: its href (ASCII) and offsets. */
typedef struct {
    const char *href;
    Py_ssize_t len;
    UrlParts o;
} UrlBase;

static inline int
is_hex(Py_UCS4 c)
{
    return c < 0x80 && PE_HEXVAL[c] != 0xFF;
}

static inline int
url_alpha(Py_UCS4 c)
{
    return c < 0x80 && (c | 0x20) >= 'a' && (c | 0x20) <= 'z';
}

/* Eight bytes in a uint64_t on a little-endian GCC or Clang: SWAR_IN(w, lo, hi)
 * has 0x80 in each byte of w (all below 0x80) from lo to hi, 0 in the others;
 * no sum carries into the next byte. */
#if defined(__GNUC__) && defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define PE_URL_SWAR 1
#define SWAR_ONES 0x0101010101010101ULL
#define SWAR_HIGH 0x8080808080808080ULL
#define SWAR_IN(w, lo, hi)                                                                 \
    (((w) + (0x80 - (uint64_t)(lo)) * SWAR_ONES) &                                         \
     ~((w) + (0x7F - (uint64_t)(hi)) * SWAR_ONES) & SWAR_HIGH)
#else
#define PE_URL_SWAR 0
#endif

/* the code point at i, or EOF_CP past the end */
#define EOF_CP ((Py_UCS4)0x110000)
#define AT(i) ((i) < P->n ? CH(P, (i)) : EOF_CP)

/* url_input.c: room for need more bytes of href; record a validation error
 * (§4.4, the parse goes on: 0, or -1 out of memory) or the failure that ends
 * the parse (always 2), each at input position pos */
PE_INTERNAL int url_grow(UrlParser *P, Py_ssize_t need);
PE_INTERNAL int url_validation_error(UrlParser *P, int name, Py_ssize_t pos);
PE_INTERNAL int url_fail(UrlParser *P, int name, Py_ssize_t pos);
/* Set up P over (kind, data, n): trims C0 controls and spaces, removes tabs
 * and newlines (recording their validation errors); 0 or -1.  url_parser_free
 * releases what the parse allocated. */
PE_INTERNAL int url_parser_init(UrlParser *P, int kind, const void *data, Py_ssize_t n);
/* The same with `how`: URL_IN_PARSE as url_parser_init; URL_IN_OVERRIDE no trimming (a
 * setter's value: §4.4 step 1 applies only without a URL given), tabs and
 * newlines removed; URL_IN_RAW the data as it is (the username and password
 * setters percent-encode the value without running the parser). */
enum { URL_IN_PARSE, URL_IN_OVERRIDE, URL_IN_RAW };
PE_INTERNAL int url_parser_init_ex(UrlParser *P, int kind, const void *data, Py_ssize_t n,
                                   int how);
/* record a validation error at a position already in the caller's terms */
PE_INTERNAL int url_validation_error_at(UrlParser *P, int name, Py_ssize_t pos);
PE_INTERNAL void url_parser_free(UrlParser *P);

/* Append s[0:k] to the href (inline: the states call it for every span). */
static inline int
url_put(UrlParser *P, const char *s, Py_ssize_t k)
{
    NEED(P, k);
    memcpy(P->out + P->len, s, (size_t)k);
    P->len += k;
    return 0;
}

/* url_state.c: the basic URL parser (§4.4), no state override, UTF-8.
 *
 * THE ENTRY FOR THE COLUMN KERNEL: after url_parser_init(P, kind, data, n), parse
 * against `base` (NULL for none) into P->out[0:P->len] (the href, ASCII) and
 * *o (the offsets), with the validation errors in P->errs.  Returns 1 parsed;
 * 2 failure (P->fail, P->fail_pos); 0 when the input needs the Python parser
 * (a lone surrogate, a non-ASCII host the hook declines); -1 with a Python
 * exception.  Python is touched only by the host hook, for hosts that are not
 * ASCII after percent-decoding, and by url_idna.c's NFC check for an xn--
 * label of code points that are not NFC-inert (so a caller on another thread
 * holds the GIL for those, or leaves such rows to Python);
 * url_setup has run (url_tables_init: the static tables, once). */
/* url.c: the base of a parse from a url.URL (its href and offsets) or a str
 * (parsed into BP, *used_bp set: url_parser_free it); 1, 0 (leave it to Python), -1.
 * *keep (a new reference or NULL) owns what B->href points into. */
PE_INTERNAL int url_base(PyObject *base, UrlParser *BP, UrlBase *B, int *used_bp, int raise,
                         PyObject **keep);
/* url.c: parse a str into P (url_parser_init, url_parse_core; head_only as in
 * UrlParser): 1, 2 failure, 0 bail, -1 */
PE_INTERNAL int url_parse_str(UrlParser *P, PyObject *s, const UrlBase *B, UrlParts *o,
                              int head_only);
PE_INTERNAL int url_parse_core(UrlParser *P, const UrlBase *base, UrlParts *o);
PE_INTERNAL int url_scheme_kind(const char *s, Py_ssize_t n, int *port);
/* url.c: a new URL (url_object.c) of href[0:len], the offsets and P's validation
 * errors; its href is `same` (a str, or NULL) when that holds those characters */
PE_INTERNAL PyObject *url_new_object(const char *href, Py_ssize_t len, const UrlParts *o,
                                     const UrlParser *P, PyObject *same);
/* url_input.c: WebIDL's USVString conversion (core.to_usv_string): surrogate pairs
 * joined, lone surrogates U+FFFD; a new reference (s itself when it has none).
 * With keep_lone the lone surrogates stay (the parsed input: url_encode_run
 * reports each as invalid-URL-unit, then writes it as U+FFFD). */
PE_INTERNAL PyObject *url_usv(PyObject *s, int keep_lone);
/* url.c: raise URLParseError for P's failure; how: 0 input, 1 base, 2 href setter */
PE_INTERNAL void url_raise_failure(const UrlParser *P, PyObject *input, int how);
/* url_path.c: its static tables (url_setup fills them once, before any parse,
 * with url_host_tables_init) */
PE_INTERNAL void url_tables_init(void);
/* url_input.c: the href's buffer work that the states share (ada's aggregator):
 * where a base's path ends; copy a base's query, or its scheme and authority
 * (with their offsets) */
PE_INTERNAL Py_ssize_t url_base_path_end(const UrlBase *B);
PE_INTERNAL int url_copy_base_query(UrlParser *P, const UrlBase *B, UrlParts *o);
PE_INTERNAL int url_copy_base_authority(UrlParser *P, const UrlBase *B, UrlParts *o);
/* url_path.c: the path start state at j, then the rest; the query and fragment
 * states after a path that ends at j (url_state.c and url_file.c end there) */
PE_INTERNAL int url_path_start(UrlParser *P, Py_ssize_t j, int special, int file, UrlParts *o);
PE_INTERNAL int url_tail(UrlParser *P, Py_ssize_t j, int special, UrlParts *o);

/* url_file.c: §4.4 file state at i (with its file slash and file host states) */
PE_INTERNAL int url_file_state(UrlParser *P, Py_ssize_t i, const UrlBase *B, UrlParts *o);

/* url_host.c: the host state of a special URL's authority in one pass over
 * one-byte input: 1, the host written and *end where it stops; 0 for url_host,
 * nothing written; -1 */
PE_INTERNAL int url_host_lead(UrlParser *P, Py_ssize_t a, int *kind, Py_ssize_t *end);
/* url_host.c: the host parser on input [a, b); special: not an opaque host.
 * Writes the serialized host, sets *kind; 1, 2 failure, 0 bail, -1. */
PE_INTERNAL int url_host(UrlParser *P, Py_ssize_t a, Py_ssize_t b, int special, int *kind);
PE_INTERNAL void url_host_tables_init(void);

/* url_idna.c: whether the strict run of domain to ASCII (§3.3) accepts the
 * lower-case ASCII domain d[0:m), which holds an xn-- label and passed
 * url_host.c's checks of the ASCII labels: 1 yes, 0 no, -1 error, -2 Python
 * must decide (the host hook).  nfc_check is url_setup's (str) -> bool. */
PE_INTERNAL extern PyObject *nfc_check;
PE_INTERNAL int url_idna_strict(UrlParser *P, const char *d, Py_ssize_t m);

/* url_path.c; the stop classes of url_encode_until */
enum { URL_STOP_PATH = 1, URL_STOP_SPATH = 2, URL_STOP_QUERY = 4, URL_STOP_OPAQUE = 8,
       URL_STOP_PATH_OVR = 16, URL_STOP_SPATH_OVR = 32 };
/* (the _OVR modes: with a state override, '?' and '#' do not end a path
 * segment and '#' does not end the query, §4.4 path and query states) */
enum { URL_M_PATH, URL_M_SPATH, URL_M_QUERY, URL_M_SQUERY, URL_M_FRAGMENT, URL_M_OPAQUE,
       URL_M_PATH_OVR, URL_M_SPATH_OVR, URL_M_QUERY_OVR, URL_M_SQUERY_OVR, URL_M_COUNT };
PE_INTERNAL int url_encode_until(UrlParser *P, Py_ssize_t a, int mode, int check, Py_ssize_t *end);
PE_INTERNAL int url_encode_run(UrlParser *P, Py_ssize_t a, Py_ssize_t b, unsigned bit, int check);
PE_INTERNAL int url_path(UrlParser *P, Py_ssize_t a, int special, int file, Py_ssize_t p_start,
                         Py_ssize_t *end);
PE_INTERNAL int url_opaque_path(UrlParser *P, Py_ssize_t i, Py_ssize_t *end);
PE_INTERNAL int url_query_fragment(UrlParser *P, Py_ssize_t i, int special, UrlParts *o);
PE_INTERNAL void url_shorten(UrlParser *P, Py_ssize_t p_start, int file);

/* url_setters.c: one URL API setter (§6.1) on the URL (h, len, *o), the new
 * href written to W and *o updated; 1, 0 (the Python setters must run), -1.
 * E gathers the validation errors of the run. */
enum { S_HREF, S_PROTOCOL, S_USERNAME, S_PASSWORD, S_HOST, S_HOSTNAME, S_PORT, S_PATHNAME,
       S_SEARCH, S_HASH, S_COUNT };
PE_INTERNAL int url_run_setter(int which, PyObject *value, const char *h, Py_ssize_t len,
                               UrlParts *o, UrlParser *W, UrlParser *E);

/* url.c, url_replace.c: the module's URL functions (module.c's
 * method table) and url.parse's fast path (entry.c) */
PE_INTERNAL PyObject *url_fast_new(PyObject *input, PyObject *base, int raise);
PE_INTERNAL PyObject *pe_url_parse(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PE_INTERNAL PyObject *pe_url_replace(PyObject *self, PyObject *const *args, Py_ssize_t nargs);
PE_INTERNAL PyObject *pe_url_setup(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                                   PyObject *kwnames);

#endif /* PE_URL_H */
