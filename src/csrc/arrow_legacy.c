/* decode_text of a column in a legacy encoding, with no Python call a row:
 * each row is percent-decoded (URL Standard §1.3) into the job's scratch,
 * then decoded by the Encoding Standard's decoder for the encoding into the
 * output as UTF-8.  The code point tables come from Python as arguments
 * (arrow.py builds them from the library's own indexes):
 *
 *   OP_DECODE_SB   a single-byte encoding (§9): 128 code points for bytes
 *                  0x80-0xFF (ASCII bytes are themselves), NONE where the
 *                  index has none;
 *   OP_DECODE_SJIS Shift_JIS (§12.3): index jis0208's 11280 code points by
 *                  pointer, NONE where it has none.
 *
 * An error (a byte or sequence without a code point) is U+FFFD, or makes
 * the row null or stop the run (errors "null"/"strict"), as in decode_piece. */
#include "arrow.h"

#define LEGACY_NONE 0xFFFFFFFFu

static inline uint8_t *
put_utf8(uint8_t *o, uint32_t cp)
{
    if (cp < 0x80) {
        *o++ = (uint8_t)cp;
    }
    else if (cp < 0x800) {
        *o++ = (uint8_t)(0xC0 | cp >> 6);
        *o++ = (uint8_t)(0x80 | (cp & 0x3F));
    }
    else if (cp < 0x10000) {
        *o++ = (uint8_t)(0xE0 | cp >> 12);
        *o++ = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (uint8_t)(0x80 | (cp & 0x3F));
    }
    else {
        *o++ = (uint8_t)(0xF0 | cp >> 18);
        *o++ = (uint8_t)(0x80 | (cp >> 12 & 0x3F));
        *o++ = (uint8_t)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (uint8_t)(0x80 | (cp & 0x3F));
    }
    return o;
}

/* The single-byte table as UTF-8, once a call: 4 bytes a byte (stored
 * whole), the length in the last when shorter; U+FFFD's where there is no
 * code point, with length 0 marking it. */
void
legacy_init(Job *j)
{
    int b;
    if (j->op != OP_DECODE_SB) {
        return;
    }
    for (b = 0; b < 128; b++) {
        uint32_t cp = j->legacy[b];
        uint8_t *u = j->sb_utf8[b];
        uint8_t *e = put_utf8(u, cp == LEGACY_NONE || cp > 0xFFFF ? 0xFFFD : cp);
        u[3] = cp == LEGACY_NONE || cp > 0xFFFF ? 0 : (uint8_t)(e - u);
    }
}

/* §9.1 single-byte decoder over b[0:n]; -1 at the first error unless
 * replacing.  o has room for 3n + 1 bytes (a byte's UTF-8 is stored as 4). */
static int64_t
single_byte(const Job *j, const uint8_t *b, int64_t n, uint8_t *o, int replace)
{
    uint8_t *start = o;
    int64_t i = 0;
    while (i < n) {
        while (i + 8 <= n) { /* ASCII 8 bytes at a time */
            uint64_t w;
            memcpy(&w, b + i, 8);
            if (w & 0x8080808080808080ULL) {
                break;
            }
            memcpy(o, &w, 8);
            o += 8;
            i += 8;
        }
        if (i >= n) {
            break;
        }
        if (b[i] < 0x80) {
            *o++ = b[i++];
            continue;
        }
        {
            const uint8_t *u = j->sb_utf8[b[i++] - 0x80];
            unsigned len = u[3];
            if (len == 0) { /* no code point: U+FFFD, stored there */
                if (!replace) {
                    return -1;
                }
                len = 3;
            }
            memcpy(o, u, 4);
            o += len;
        }
    }
    return o - start;
}

/* §12.3.1 Shift_JIS decoder over b[0:n]; -1 at the first error unless
 * replacing.  o has room for 3n + 3 bytes (a lead at the end: U+FFFD). */
static int64_t
shift_jis(const uint32_t *jis0208, const uint8_t *b, int64_t n, uint8_t *o, int replace)
{
    uint8_t *start = o;
    int64_t i = 0;
    unsigned lead = 0;
    while (i < n) {
        unsigned c = b[i++];
        uint32_t cp;
        if (lead != 0) {
            unsigned off = c < 0x7F ? 0x40 : 0x41, lead_off = lead < 0xA0 ? 0x81 : 0xC1;
            cp = LEGACY_NONE;
            if ((c >= 0x40 && c <= 0x7E) || (c >= 0x80 && c <= 0xFC)) {
                unsigned ptr = (lead - lead_off) * 188 + c - off;
                if (ptr >= 8836 && ptr <= 10715) {
                    cp = 0xE000 - 8836 + ptr; /* EUDC: the Private Use Area */
                }
                else if (ptr < 11280) {
                    cp = jis0208[ptr];
                }
            }
            lead = 0;
            if (cp != LEGACY_NONE) {
                o = put_utf8(o, cp);
                continue;
            }
            if (c < 0x80) {
                i--; /* an ASCII byte after a lead is read again */
            }
            if (!replace) {
                return -1;
            }
            o = put_utf8(o, 0xFFFD);
            continue;
        }
        if (c <= 0x80) {
            o = put_utf8(o, c); /* ASCII and 0x80 are their own code points */
        }
        else if (c >= 0xA1 && c <= 0xDF) {
            o = put_utf8(o, 0xFF61 - 0xA1 + c);
        }
        else if ((c >= 0x81 && c <= 0x9F) || (c >= 0xE0 && c <= 0xFC)) {
            lead = c;
        }
        else {
            if (!replace) {
                return -1;
            }
            o = put_utf8(o, 0xFFFD);
        }
    }
    if (lead != 0) { /* end of the row inside a sequence */
        if (!replace) {
            return -1;
        }
        o = put_utf8(o, 0xFFFD);
    }
    return o - start;
}

/* One row: 1 valid, 0 null (errors null/strict on a decode error), -1 out
 * of memory.  utf8_in: RAW_BYTES, RAW_CHECK or RAW_UTF8 (arrow.h). */
int
legacy_row(Job *j, OutChunk *o, const uint8_t *p, int64_t n, int64_t avail, int utf8_in)
{
    Py_ssize_t bad;
    U8Stats st;
    int64_t len, out;
    int recheck; /* its raw bytes may not be UTF-8: see below */
    if (job_buf_reserve(&j->scratch, &j->scratch_cap, n + PE_OUT_SLACK) < 0) {
        return -1;
    }
    if (pe_blocks_ok) {
        int check;
        len = decode_row_avx2(p, n, avail, j->scratch, j->plus, &check,
                              PE_DEC_BYTES | (utf8_in == RAW_CHECK)); /* only the raw check counts */
        recheck = (check & PE_CHECK_RAW) != 0;
    }
    else {
        len = decode_u8(p, n, j->scratch, j->plus, 0, &bad, &st);
        recheck = utf8_in == RAW_CHECK;
    }
    if (recheck) {
        /* A string row is text: one that is not UTF-8 reads with U+FFFD
         * first, as the per-string API reads text. */
        int64_t ok = utf8_valid_prefix(p, n);
        if (ok != n) {
            p = fix_row(j, p, &n, ok);
            return p == NULL ? -1 : legacy_row(j, o, p, n, n, RAW_BYTES);
        }
    }
    if (out_reserve(o, 3 * len + 4) < 0) {
        return -1;
    }
    out = j->op == OP_DECODE_SB
              ? single_byte(j, j->scratch, len, o->data + o->data_len,
                            j->errors == ERR_REPLACE)
              : shift_jis(j->legacy, j->scratch, len, o->data + o->data_len,
                          j->errors == ERR_REPLACE);
    if (out < 0) {
        return 0;
    }
    o->data_len += out;
    return 1;
}

/* URL Standard §1.3 percent-encode after encoding, with a stateless legacy
 * encoder given as a map (the single-byte encoders, Encoding Standard §9.2;
 * Shift_JIS, §12.3.2) over a string row (UTF-8): ASCII through the set's
 * table, another code point as its one or two bytes (each through the table
 * too: a byte above 0x7F is always %XX), or as "%26%23" decimal "%3B"
 * (&#N;) when the encoding has none. */
int
legacy_encode_row(Job *j, OutChunk *o, const uint8_t *p, int64_t n)
{
    int64_t i = 0;
    uint8_t *w;
    /* at most 16 bytes out per code point of 1 to 4 bytes: 7 a byte, and room */
    if (out_reserve(o, 7 * n + 16) < 0) {
        return -1;
    }
    w = o->data + o->data_len;
    while (i < n) {
        int64_t k = i;
        uint32_t cp;
        unsigned c;
        while (k < n && p[k] < 0x80) {
            k++;
        }
        if (k > i) {
            w = write_u8(p + i, k - i, &j->table, w);
            i = k;
            if (i >= n) {
                break;
            }
        }
        c = p[i];
        if (c < 0xE0) {
            cp = (c & 0x1Fu) << 6 | (p[i + 1] & 0x3Fu);
            i += 2;
        }
        else if (c < 0xF0) {
            cp = (c & 0x0Fu) << 12 | (p[i + 1] & 0x3Fu) << 6 | (p[i + 2] & 0x3Fu);
            i += 3;
        }
        else {
            cp = (c & 0x07u) << 18 | (p[i + 1] & 0x3Fu) << 12 | (p[i + 2] & 0x3Fu) << 6 |
                 (p[i + 3] & 0x3Fu);
            i += 4;
        }
        if (cp < 0x10000 && j->enc_map[cp] != 0) {
            unsigned m = j->enc_map[cp];
            uint8_t bytes[2];
            int nb = 0;
            if (m >= 0x100) {
                bytes[nb++] = (uint8_t)(m >> 8);
            }
            bytes[nb++] = (uint8_t)(m & 0xFF);
            w = write_u8(bytes, nb, &j->table, w);
        }
        else {
            char dec[12];
            int len = 0;
            memcpy(w, "%26%23", 6);
            w += 6;
            do {
                dec[len++] = (char)('0' + cp % 10);
                cp /= 10;
            } while (cp != 0);
            while (len > 0) {
                *w++ = (uint8_t)dec[--len];
            }
            memcpy(w, "%3B", 3);
            w += 3;
        }
    }
    o->data_len = w - o->data;
    return 1;
}
