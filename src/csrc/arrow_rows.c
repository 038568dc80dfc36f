/* The column kernels' per-row work: each row's (pointer, length) slice of the
 * input through the per-string kernels into the output buffers. */
#include "arrow.h"

/* -- UTF-8 (Encoding Standard §8.1.1 UTF-8 decoder) ------------------------ */

/* Length of the valid UTF-8 prefix of p[0:n]: n when all of it is valid.
 * ASCII is skipped 8 bytes at a time; a sequence is checked by its lead
 * byte's class (the second byte's range depends on the lead: no overlong
 * forms, surrogates, or values above U+10FFFF). */
int64_t
utf8_valid_prefix(const uint8_t *p, int64_t n)
{
    int64_t i = 0;
    for (;;) {
        unsigned c, b1;
        uint64_t w;
        while (i + 8 <= n) {
            memcpy(&w, p + i, 8);
            if (w & 0x8080808080808080ULL) {
                break;
            }
            i += 8;
        }
        while (i < n && p[i] < 0x80) {
            i++;
            if ((i & 7) == 0 && i + 8 <= n) {
                break;
            }
        }
        if (i >= n) {
            return n;
        }
        c = p[i];
        if (c < 0x80) {
            continue;
        }
        if (c < 0xE0) {
            if (c < 0xC2 || i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) {
                return i;
            }
            i += 2;
        }
        else if (c < 0xF0) {
            if (i + 2 >= n) {
                return i;
            }
            b1 = p[i + 1];
            if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (c == 0xE0 && b1 < 0xA0) ||
                (c == 0xED && b1 > 0x9F)) {
                return i;
            }
            i += 3;
        }
        else {
            if (c > 0xF4 || i + 3 >= n) {
                return i;
            }
            b1 = p[i + 1];
            if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (p[i + 3] & 0xC0) != 0x80 ||
                (c == 0xF0 && b1 < 0x90) || (c == 0xF4 && b1 > 0x8F)) {
                return i;
            }
            i += 4;
        }
    }
}

/* Open row_utf8_known's window at p, a row p[0:n] whose buffer holds bytes
 * up to end: the UTF-8 prefix of the data from p, up to PE_U8_WINDOW bytes or
 * the row's end, whichever is further; only the row when it does not start
 * inside or right after the last window (rows out of order).  Whether the
 * row lies inside it. */
int
utf8_window(Job *j, const uint8_t *p, int64_t n, const uint8_t *end)
{
    uintptr_t a = (uintptr_t)p;
    int in_order = j->win_lo == NULL || (a >= (uintptr_t)j->win_lo && a <= (uintptr_t)j->win_hi);
    int64_t want = n > PE_U8_WINDOW || !in_order ? n : PE_U8_WINDOW, ok;
    if (want > end - p) {
        want = end - p; /* at least n: the row lies before end */
    }
    ok = pe_blocks_ok ? utf8_prefix_avx2(p, want) : utf8_valid_prefix(p, want);
    j->win_lo = p;
    j->win_hi = p + ok;
    return ok >= n;
}

/* Write p[0:n] to o with U+FFFD for each maximal subpart that is not valid
 * UTF-8 (what Python's "replace" does); o has room for 3n bytes. */
static int64_t
utf8_replace(const uint8_t *p, int64_t n, uint8_t *o)
{
    uint8_t *start = o;
    int64_t i = 0;
    while (i < n) {
        unsigned c = p[i], lo = 0x80, hi = 0xBF;
        int need, k;
        if (c < 0x80) {
            *o++ = (uint8_t)c;
            i++;
            continue;
        }
        if (c >= 0xC2 && c <= 0xDF) {
            need = 1;
        }
        else if (c >= 0xE0 && c <= 0xEF) {
            need = 2;
            lo = c == 0xE0 ? 0xA0 : 0x80;
            hi = c == 0xED ? 0x9F : 0xBF;
        }
        else if (c >= 0xF0 && c <= 0xF4) {
            need = 3;
            lo = c == 0xF0 ? 0x90 : 0x80;
            hi = c == 0xF4 ? 0x8F : 0xBF;
        }
        else {
            need = 0;
        }
        /* k: how many bytes of the sequence are there and in range */
        k = 1;
        if (need > 0) {
            if (i + 1 < n && p[i + 1] >= lo && p[i + 1] <= hi) {
                k = 2;
                while (k <= need && i + k < n && p[i + k] >= 0x80 && p[i + k] <= 0xBF) {
                    k++;
                }
            }
        }
        if (need > 0 && k == need + 1) {
            memcpy(o, p + i, (size_t)k);
            o += k;
        }
        else {
            *o++ = 0xEF;
            *o++ = 0xBF;
            *o++ = 0xBD;
        }
        i += k;
    }
    return o - start;
}

/* -- per-row work ---------------------------------------------------------- */


/* Room for need bytes in the job's buffer *buf of *cap bytes (the scratch
 * row or the fixed row): grow by doubling from 256; -1 out of memory. */
int
job_buf_reserve(uint8_t **buf, int64_t *cap, int64_t need)
{
    if (need > *cap) {
        int64_t c = *cap ? *cap : 256;
        uint8_t *b;
        while (c < need) {
            c *= 2;
        }
        b = realloc(*buf, (size_t)c);
        if (b == NULL) {
            return -1;
        }
        *buf = b;
        *cap = c;
    }
    return 0;
}

static int
scratch_reserve(Job *j, int64_t need)
{
    return job_buf_reserve(&j->scratch, &j->scratch_cap, need);
}

/* A string column's row that is not UTF-8 (the Arrow format forbids it, but
 * nothing stops a producer): read as the per-string API reads text, by the
 * Encoding Standard's UTF-8 decoder (§8.1.1), U+FFFD for each maximal
 * subpart that is not UTF-8 (ok: the valid prefix's length).  The row's
 * replacement in j->fix (n updated), or NULL out of memory. */
const uint8_t *
fix_row(Job *j, const uint8_t *p, int64_t *n, int64_t ok)
{
    int64_t need = ok + 3 * (*n - ok);
    if (job_buf_reserve(&j->fix, &j->fix_cap, need) < 0) {
        return NULL;
    }
    memcpy(j->fix, p, (size_t)ok);
    *n = ok + utf8_replace(p + ok, *n - ok, j->fix + ok);
    return j->fix;
}

/* Whether p[0:n] is all valid UTF-8: utf8_valid_prefix's sequence rules
 * without its 8-byte ASCII skip, inlined for the short runs of decoded
 * escapes (mostly one character of 2 to 4 bytes). */
static inline int
utf8_whole(const uint8_t *p, int64_t n)
{
    int64_t i = 0;
    while (i < n) {
        unsigned c = p[i], b1;
        if (c < 0x80) {
            i++;
            continue;
        }
        if (c < 0xE0) {
            if (c < 0xC2 || i + 1 >= n || (p[i + 1] & 0xC0) != 0x80) {
                return 0;
            }
            i += 2;
            continue;
        }
        if (c < 0xF0) {
            if (i + 2 >= n) {
                return 0;
            }
            b1 = p[i + 1];
            if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (c == 0xE0 && b1 < 0xA0) ||
                (c == 0xED && b1 > 0x9F)) {
                return 0;
            }
            i += 3;
            continue;
        }
        if (c > 0xF4 || i + 3 >= n) {
            return 0;
        }
        b1 = p[i + 1];
        if ((b1 & 0xC0) != 0x80 || (p[i + 2] & 0xC0) != 0x80 || (p[i + 3] & 0xC0) != 0x80 ||
            (c == 0xF0 && b1 < 0x90) || (c == 0xF4 && b1 > 0x8F)) {
            return 0;
        }
        i += 4;
    }
    return 1;
}

/* decode_u8 (URL Standard §1.3 percent-decode) for a row of a string column,
 * which the Arrow format requires to be UTF-8: its raw bytes are whole UTF-8
 * sequences and '%' and '+' are ASCII, so the result is UTF-8 exactly when
 * every run of consecutive %XX escapes is UTF-8 by itself (a run cannot end
 * inside a raw sequence, nor a raw continuation byte follow it).  Checking
 * those runs here, while they are in cache, saves scanning the whole result;
 * *utf8 says whether it is UTF-8. */
int64_t
decode_utf8_row(const uint8_t *p, int64_t n, int64_t avail, uint8_t *o, int plus, int *utf8)
{
    uint8_t *start = o;
    Py_ssize_t i = 0, last = (Py_ssize_t)n - 2; /* a %XX can start below `last` */
    unsigned v;
    int ok = 1;
#if defined(__SSE2__) && defined(__GNUC__)
    const __m128i pct = _mm_set1_epi8('%'), pls = _mm_set1_epi8('+');
#endif
    while (i < n) {
        uint8_t c = p[i];
        if (c == '%') {
            if (i < last && (v = hex_pair(p + i + 1)) < 0x100) {
                uint8_t *run = o;
                unsigned high = v;
                *o++ = (uint8_t)v;
                i += 3;
                while (i < last && p[i] == '%' && (v = hex_pair(p + i + 1)) < 0x100) {
                    *o++ = (uint8_t)v;
                    high |= v;
                    i += 3;
                }
                if (high >= 0x80 && ok && !utf8_whole(run, o - run)) {
                    ok = 0;
                }
                continue;
            }
            *o++ = '%';
            i++;
            continue;
        }
        *o++ = (c == '+' && plus) ? ' ' : c;
        i++;
#if defined(__SSE2__) && defined(__GNUC__)
        /* The plain run, 16 bytes at a time: a load may reach past the row
         * (never past `avail`, the bytes readable from p) and a store past
         * its output (the caller leaves 16 bytes of room); only the bytes
         * before the first '%' ('+' when plus), or the row's end, count. */
        if (i + 16 <= avail) {
            for (;;) {
                __m128i w = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
                unsigned m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(w, pct));
                unsigned k;
                if (plus) {
                    m |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(w, pls));
                }
                _mm_storeu_si128((__m128i *)(void *)o, w);
                if (n - i < 16) {
                    m |= 1u << (n - i); /* the row ends there */
                }
                k = (unsigned)__builtin_ctz(m | 0x10000u);
                o += k;
                i += k;
                if (k < 16) {
                    goto next; /* at a '%', a '+' (when plus) or the row's end */
                }
                if (i + 16 > avail) {
                    break;
                }
            }
        }
#endif
        plain_run_1(p, (Py_ssize_t)n, plus, 0, &i, &o);
#if defined(__SSE2__) && defined(__GNUC__)
    next:;
#endif
    }
    *utf8 = ok;
    return o - start;
}

/* Percent-decode p[0:n] (plus: '+' is a space) into the output, then keep it
 * as is (binary), or check it is UTF-8 (text; utf8_in: RAW_BYTES, or a string
 * column's row, RAW_CHECK or RAW_UTF8: arrow.h).  Returns 1 for a valid row,
 * 0 for a null one (errors null/strict on bad UTF-8), -1 out of memory.  avail: the bytes readable
 * from p (n or more). */
static int
decode_piece(Job *j, OutChunk *o, const uint8_t *p, int64_t n, int64_t avail, int text,
             int utf8_in)
{
    Py_ssize_t bad;
    U8Stats st;
    int64_t len, ok;
    uint8_t *at;
    if (out_reserve(o, n + PE_OUT_SLACK) < 0) {
        return -1;
    }
    at = o->data + o->data_len;
    if (text && utf8_in) {
        /* A string column's row: the decoder says whether the result is
         * surely UTF-8; only when it is not sure is it scanned.  The row
         * itself may not be UTF-8 (a malformed column): then it is read
         * with U+FFFD first, as the per-string API reads text. */
        int utf8, check;
        int64_t raw_ok;
        if (pe_blocks_ok) {
            len = decode_row_avx2(p, n, avail, at, j->plus, &check, utf8_in == RAW_CHECK);
            utf8 = !(check & PE_CHECK_ESC);
            raw_ok = check & PE_CHECK_RAW ? utf8_valid_prefix(p, n) : n;
        }
        else {
            raw_ok = utf8_in == RAW_UTF8 ? n : utf8_valid_prefix(p, n);
            len = raw_ok == n ? decode_utf8_row(p, n, avail, at, j->plus, &utf8) : 0;
        }
        if (raw_ok != n) {
            p = fix_row(j, p, &n, raw_ok);
            return p == NULL ? -1 : decode_piece(j, o, p, n, n, text, RAW_UTF8);
        }
        ok = utf8 ? len : utf8_valid_prefix(at, len);
    }
    else if (!text && pe_blocks_ok) {
        /* to bytes: the block decoder's bytes; of its checks only the raw
         * one counts (a string row that is not UTF-8 reads with U+FFFD) */
        int check;
        len = decode_row_avx2(p, n, avail, at, j->plus, &check,
                              PE_DEC_BYTES | (utf8_in == RAW_CHECK));
        if ((check & PE_CHECK_RAW) && (ok = utf8_valid_prefix(p, n)) != n) {
            p = fix_row(j, p, &n, ok);
            return p == NULL ? -1 : decode_piece(j, o, p, n, n, text, RAW_BYTES);
        }
        ok = len;
    }
    else {
        len = decode_u8(p, n, at, j->plus, 0, &bad, &st);
        ok = text ? utf8_valid_prefix(at, len) : len;
    }
    if (ok == len) {
        o->data_len += len;
        return 1;
    }
    if (j->errors != ERR_REPLACE) {
        return 0;
    }
    /* Rewrite with U+FFFD from a copy: up to 3 bytes out per byte in. */
    if (scratch_reserve(j, len) < 0) {
        return -1;
    }
    memcpy(j->scratch, at, (size_t)len);
    o->data_len += ok;
    if (out_reserve(o, 3 * (len - ok)) < 0) {
        return -1;
    }
    o->data_len += utf8_replace(j->scratch + ok, len - ok, o->data + o->data_len);
    return 1;
}

/* URL Standard §5.1: the first value of field j->name, or 0 when absent. */
static int
form_get_row(Job *j, OutChunk *o, const uint8_t *p, int64_t n, int64_t avail, int utf8_in)
{
    int64_t s = 0;
    if (n > 0 && p[0] == '?') {
        s = 1; /* one leading '?': a column of search strings works as is */
    }
    while (s < n) {
        const uint8_t *amp = memchr(p + s, '&', (size_t)(n - s));
        int64_t e = amp ? amp - p : n, eq, nl;
        const uint8_t *eqp;
        if (e == s) {
            s = e + 1;
            continue;
        }
        eqp = memchr(p + s, '=', (size_t)(e - s));
        eq = eqp ? eqp - p : e;
        nl = eq - s;
        /* Compare the decoded name: decode into scratch, then to UTF-8 with
         * U+FFFD, and compare bytes. */
        {
            Py_ssize_t bad;
            U8Stats st;
            int64_t len, ok;
            const uint8_t *nm;
            int64_t nmlen;
            if (scratch_reserve(j, 4 * nl + 8) < 0) {
                return -1;
            }
            len = decode_u8(p + s, nl, j->scratch, 1, 0, &bad, &st);
            ok = utf8_valid_prefix(j->scratch, len);
            if (ok == len) {
                nm = j->scratch;
                nmlen = len;
            }
            else {
                uint8_t *r = j->scratch + len;
                nmlen = ok + utf8_replace(j->scratch + ok, len - ok, r + ok);
                memcpy(r, j->scratch, (size_t)ok);
                nm = r;
            }
            if (nmlen == j->name_len && memcmp(nm, j->name, (size_t)nmlen) == 0) {
                int64_t vs = eqp ? eq + 1 : e;
                int saved = j->errors;
                int r;
                j->errors = ERR_REPLACE;
                r = decode_piece(j, o, p + vs, e - vs, avail - vs, 1, utf8_in);
                j->errors = saved;
                return r;
            }
        }
        s = e + 1;
    }
    return 0;
}

/* encode (URL Standard §1.3 percent-encode) of p[0:n] into o: 1, or -1 out
 * of memory.  A string row not known to be UTF-8 (raw RAW_CHECK) is checked
 * as it is encoded (write_u8_text); one that is not UTF-8 is encoded as read
 * with U+FFFD (fix_row), as the per-string API reads text. */
static int
encode_row(Job *j, OutChunk *o, const uint8_t *p, int64_t n, int raw)
{
    uint8_t *at, *end;
    if (out_reserve(o, 3 * n + 1) < 0) {
        return -1;
    }
    at = o->data + o->data_len;
    if (raw != RAW_CHECK) {
        end = write_u8(p, n, &j->table, at);
    }
    else if ((end = write_u8_text(p, n, &j->table, at)) == NULL) {
        if ((p = fix_row(j, p, &n, utf8_valid_prefix(p, n))) == NULL ||
            out_reserve(o, 3 * n + 1) < 0) {
            return -1;
        }
        at = o->data + o->data_len;
        end = write_u8(p, n, &j->table, at);
    }
    o->data_len += end - at;
    return 1;
}

/* Rows [r0, r1) of c into o (rows numbered from r0).  GIL released. */
int
run_rows(Job *j, const InChunk *c, int64_t r0, int64_t r1, OutChunk *o, int64_t base)
{
    int64_t i;
    j->data_end = NULL;
    j->win_lo = j->win_hi = NULL;
    /* (no data buffer: every row is empty and there is no end to compute, nor
     * arithmetic to do on a null pointer) */
    if (c->data != NULL && c->length > 0 && c->layout != IN_VIEW) {
        /* hi: the last offset, or less when it reaches past memory (read_chunk) */
        j->data_end = c->data + c->hi;
    }
    /* decode_text on a string column: the block decoder's own loop takes
     * the rows it finishes alone; the rest come here one at a time. */
    int blocks = j->op == OP_DECODE_TEXT && !c->is_binary && pe_blocks_ok;
    /* The ops that would check each string row by itself: the data checked
     * a window at a time instead (row_utf8_known), which costs less than a
     * check in the block decoder's loop.  decode_text's block loop checks
     * the rows it decodes as it goes (a row it leaves here is checked alone:
     * a window would check the rows it takes again). */
#ifdef PE_ARROW_UNCHECKED
    int window = 1;
#else
    int window = !pe_blocks_ok || j->op != OP_DECODE_TEXT;
#endif
    for (i = r0; i < r1; i++) {
        int valid = 0;
        int64_t start;
        if (blocks && (i = decode_text_rows_avx2(j, c, i, r1, o, r0)) >= r1) {
            break;
        }
        start = o->data_len;
        if (in_valid(c, i)) {
            int64_t n, avail;
            const uint8_t *p = in_row(c, i, &n);
            int raw;
            if (p == NULL) {
                j->bad_input = base + i;
                j->oom = 3;
                return -1;
            }
            avail = in_avail(c, i, p, n, j->data_end);
            raw = c->is_binary ? RAW_BYTES
                  : window && row_utf8_known(j, c, i, p, n) ? RAW_UTF8
                                                         : RAW_CHECK;
            if (raw == RAW_CHECK &&
                (j->op == OP_FORM_GET || j->op == OP_ENCODE_MAP ||
                 (j->op == OP_DECODE && !pe_blocks_ok))) {
                /* decode_text and the block decoder's decode check the row
                 * as they decode (decode_piece, legacy_row), encode as it
                 * encodes (encode_row) */
                int64_t ok = utf8_valid_prefix(p, n);
                if (ok != n) {
                    if ((p = fix_row(j, p, &n, ok)) == NULL) {
                        j->oom = 1;
                        return -1;
                    }
                    avail = n;
                }
                raw = RAW_UTF8;
            }
            switch (j->op) {
            case OP_DECODE:
                valid = decode_piece(j, o, p, n, avail, 0, raw);
                break;
            case OP_DECODE_TEXT:
                valid = decode_piece(j, o, p, n, avail, 1, raw);
                if (valid == 0 && j->errors == ERR_STRICT) {
                    j->bad_row = base + i;
                    return 0;
                }
                break;
            case OP_ENCODE_MAP:
            case OP_ENCODE:
                if (j->op == OP_ENCODE_MAP && !c->is_binary) {
                    valid = legacy_encode_row(j, o, p, n); /* bytes are encoded as they are */
                    break;
                }
                valid = encode_row(j, o, p, n, raw);
                break;
            case OP_DECODE_SB:
            case OP_DECODE_SJIS:
                valid = legacy_row(j, o, p, n, avail, raw);
                if (valid == 0 && j->errors == ERR_STRICT) {
                    j->bad_row = base + i;
                    return 0;
                }
                break;
            default:
                valid = form_get_row(j, o, p, n, avail, raw);
                break;
            }
            if (valid < 0) {
                j->oom = 1;
                return -1;
            }
        }
        if (out_row(o, i - r0, valid, start) < 0) {
            j->oom = 2;
            return -1;
        }
    }
    return 0;
}
