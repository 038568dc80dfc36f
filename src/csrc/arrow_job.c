/* A column job's own buffers (arrow.h's Job): room in the scratch and fixed
 * rows, and a string row that is not UTF-8 read with U+FFFD.  Below the
 * per-row work (arrow_rows.c, arrow_legacy.c) and the URL columns
 * (arrow_url.c), which all use them. */
#include "arrow.h"

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
