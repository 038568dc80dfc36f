/* The column kernels' per-row work: each row's (pointer, length) slice of the
 * input through the per-string kernels into the output buffers. */
#include "arrow.h"

/* -- UTF-8 (Encoding Standard §8.1.1 UTF-8 decoder) ------------------------ */

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

/* -- per-row work ---------------------------------------------------------- */

static int
scratch_reserve(Job *j, int64_t need)
{
    return job_buf_reserve(&j->scratch, &j->scratch_cap, need);
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
