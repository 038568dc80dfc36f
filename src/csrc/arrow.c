/* Column kernels over the Arrow C Data Interface (PyCapsule protocol).
 *
 * arrow_map(column, op, arg, plus, errors) reads a string/binary column from
 * __arrow_c_array__ or __arrow_c_stream__ and runs the per-string kernel on
 * each row's (pointer, length) slice of the data buffer, with the GIL
 * released for the UTF-8 ops.  Each output chunk is one data buffer sized up
 * front (the input's byte count) and grown by doubling, its offsets and
 * validity bitmap written in the same pass; no Python object per row.  The
 * result is an ArrowColumn, which exports __arrow_c_array__ (one chunk) and
 * __arrow_c_stream__ without copying; its buffers live as long as it does,
 * and each exported ArrowArray holds a reference to it.
 *
 * Ops: "decode" (binary out), "decode_text" (UTF-8; errors replace, null or
 * strict), "encode" (arg: a 256-byte encode-set table), "form_get" (arg: the
 * field name), and "call_text"/"call_binary" (arg: a Python callable(value,
 * row) giving str/bytes or None, run with the GIL held: legacy encodings).
 * A strict decode_text stops at the first row that is not UTF-8 and returns
 * (row, value) instead of a column: arrow.py raises the per-string error. */
#include "arrow.h"

#ifndef _WIN32
#include <pthread.h>
#define PE_THREADS 1
#endif
#ifdef __linux__
#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#endif

/* A malformed array: the message for arrow.py, which raises
 * PercentEncodingError.  *row is the row it names (the chunk's first row
 * when it is about the whole chunk). */

/* -- what a producer's sizes can be ------------------------------------------
 *
 * The C Data Interface gives a buffer's address but not its size: an offsets
 * layout's data buffer is as long as its last offset says (Arrow C++ and
 * Polars read it so), and a view column passes its data buffers' sizes.
 * Those numbers are trusted, but not past what memory can be: a buffer lies
 * below PE_ADDR_TOP (user space ends below 2^57 on every 64-bit platform
 * CPython runs on: x86-64 with 5-level paging at 2^56, AArch64 at 2^52), and
 * on Linux its first and last pages are mapped (mincore(2) fails with ENOMEM
 * on a page that is not).  So a wild size (an offset near 2^62) is a
 * malformed array, not a read of memory the process does not have. */
#if UINTPTR_MAX > 0xFFFFFFFFu
#define PE_ADDR_TOP ((uintptr_t)1 << 57)
#else
#define PE_ADDR_TOP UINTPTR_MAX
#endif

static uintptr_t page_mask; /* set by arrow_init */

/* Whether n bytes at address a can be memory of this process (n <= 0: yes). */
static int
mem_possible(uintptr_t a, int64_t n)
{
    if (n <= 0) {
        return 1;
    }
    if (a == 0 || (uint64_t)n > (uint64_t)PE_ADDR_TOP || a > PE_ADDR_TOP - (uintptr_t)n) {
        return 0;
    }
#ifdef __linux__
    {
        unsigned char v;
        if ((mincore((void *)(a & page_mask), 1, &v) != 0 && errno == ENOMEM) ||
            (mincore((void *)((a + (uintptr_t)n - 1) & page_mask), 1, &v) != 0 &&
             errno == ENOMEM)) {
            return 0;
        }
    }
#endif
    return 1;
}

/* The end, in [lo, hi], up to which an offsets layout's rows may be read: hi,
 * or, when the bytes from lo to hi cannot all be memory, the end of the part
 * that can (by bisection), so that in_row names the first row past it. */
static int64_t
readable_end(const uint8_t *data, int64_t lo, int64_t hi)
{
    uintptr_t a = (uintptr_t)data + (uintptr_t)lo;
    int64_t ok = lo, bad = hi;
    if ((uint64_t)lo <= (uint64_t)PE_ADDR_TOP && mem_possible(a, hi - lo)) {
        return hi;
    }
    if ((uint64_t)lo > (uint64_t)PE_ADDR_TOP) {
        return lo;
    }
    while (bad - ok > 1) {
        int64_t mid = ok + (bad - ok) / 2;
        if (mem_possible(a, mid - lo)) {
            ok = mid;
        }
        else {
            bad = mid;
        }
    }
    return ok;
}

/* A view column's data buffers: each declared size must be possible memory
 * at its address.  -1, or the first buffer that fails. */
static int64_t
view_buffers_check(const InChunk *c)
{
    int64_t b;
    for (b = 0; b < c->n_view_data; b++) {
        if (c->view_data[b] != NULL &&
            !mem_possible((uintptr_t)c->view_data[b], c->view_sizes[b])) {
            return b;
        }
    }
    return -1;
}

/* The first valid row whose view names data buffer b (0 when none does). */
static int64_t
first_row_in_buffer(const InChunk *c, int64_t b)
{
    const uint8_t *v = (const uint8_t *)c->offsets + 16 * c->offset;
    int64_t k;
    for (k = 0; k < c->length; k++, v += 16) {
        int32_t len, buf;
        memcpy(&len, v, 4);
        memcpy(&buf, v + 8, 4);
        if (len > 12 && buf == b && in_valid(c, k)) {
            return k;
        }
    }
    return 0;
}

/* Check a view column's views (Arrow columnar format, "Variable-size Binary
 * View Layout") and sum the valid rows' lengths: a long row's buffer index
 * must name one of the variadic buffers and its span lie inside that
 * buffer's size, which the C Data Interface passes as the last buffer.  The
 * kernels read views without checking again; this one pass over 16 bytes a
 * row also sizes the output.  -1 for a malformed view (*bad: its row). */
static int64_t
views_check(const InChunk *c, int64_t *bad)
{
    const uint8_t *v = (const uint8_t *)c->offsets + 16 * c->offset;
    int64_t k, sum = 0;
    for (k = 0; k < c->length; k++, v += 16) {
        int32_t len, buf, off;
        memcpy(&len, v, 4);
        if (len <= 12) {
            if (len < 0 && in_valid(c, k)) {
                *bad = k;
                return -1;
            }
            sum += len > 0 ? len : 0;
            continue;
        }
#ifdef PE_ARROW_UNCHECKED
        sum += len; /* the measuring build (arrow.h): views trusted */
        continue;
#endif
        if (!in_valid(c, k)) {
            continue; /* a null row's view is never read */
        }
        memcpy(&buf, v + 8, 4);
        memcpy(&off, v + 12, 4);
        if (buf < 0 || buf >= c->n_view_data || off < 0 || c->view_data[buf] == NULL ||
            (int64_t)off + len > c->view_sizes[buf]) {
            *bad = k;
            return -1;
        }
        sum += len;
    }
    return sum;
}

int
read_chunk(const struct ArrowSchema *s, const struct ArrowArray *a, InChunk *c, Malformed *bad)
{
    const char *f = s->format;
    int64_t k = 0;
    c->length = a->length;
    c->offset = a->offset;
    c->view_data = NULL;
    c->n_view_data = 0;
    c->view_sizes = NULL;
    c->lo = c->hi = c->bytes = 0;
    bad->row = 0;
    if (f == NULL) {
        PyErr_SetString(PyExc_TypeError, "expected a string or binary Arrow column, not no format");
        return -1;
    }
    if (strcmp(f, "u") == 0 || strcmp(f, "z") == 0) {
        c->layout = IN_OFF32;
    }
    else if (strcmp(f, "U") == 0 || strcmp(f, "Z") == 0) {
        c->layout = IN_OFF64;
    }
    else if (strcmp(f, "vu") == 0 || strcmp(f, "vz") == 0) {
        c->layout = IN_VIEW;
    }
    else {
        PyErr_Format(PyExc_TypeError,
                     "expected a string or binary Arrow column, not format '%.20s'", f);
        return -1;
    }
    c->is_binary = f[strlen(f) - 1] == 'z' || f[strlen(f) - 1] == 'Z';
    /* What the C Data Interface says of a string/binary array's fields:
     * length and offset not negative, null_count -1 (unknown) up to length,
     * buffers (validity, offsets or views, data; views add the variadic
     * buffers and their sizes) where rows need them. */
    if (a->length < 0 || a->offset < 0 || a->offset > INT64_MAX / 16 - a->length) {
        bad->what = "negative or too large length or offset";
        return 1;
    }
    if (a->null_count < -1 || a->null_count > a->length) {
        bad->what = "null_count out of range";
        return 1;
    }
    if (a->length == 0) {
        c->validity = NULL;
        c->offsets = NULL;
        c->data = NULL;
        return 0;
    }
    if (a->n_buffers < 3 || a->buffers == NULL) {
        bad->what = "too few buffers";
        return 1;
    }
    c->validity = a->null_count == 0 ? NULL : (const uint8_t *)a->buffers[0];
    if (c->validity == NULL && a->null_count > 0) {
        bad->what = "nulls but no validity bitmap";
        return 1;
    }
    c->offsets = a->buffers[1];
    if (c->offsets == NULL) {
        bad->what = c->layout == IN_VIEW ? "no views buffer" : "no offsets buffer";
        return 1;
    }
    if (c->layout == IN_VIEW) {
        c->view_data = (const uint8_t *const *)(a->buffers + 2);
        c->n_view_data = a->n_buffers - 3;
        /* The C Data Interface ends a view array's buffers with the data
         * buffers' sizes (int64). */
        c->view_sizes = (const int64_t *)a->buffers[a->n_buffers - 1];
        c->data = NULL;
        if (c->view_sizes == NULL && c->n_view_data > 0) {
            bad->what = "no buffer sizes";
            return 1;
        }
        if (c->view_sizes != NULL && (k = view_buffers_check(c)) >= 0) {
            bad->what = "a data buffer's size reaches past memory the process can have";
            bad->row = first_row_in_buffer(c, k);
            return 1;
        }
        Py_BEGIN_ALLOW_THREADS
        c->bytes = views_check(c, &k);
        Py_END_ALLOW_THREADS
        if (c->bytes < 0) {
            bad->what = "a view's buffer index or span is out of range of its data buffers";
            bad->row = k;
            return 1;
        }
        return 0;
    }
    c->data = (const uint8_t *)a->buffers[2];
    if (c->layout == IN_OFF32) {
        c->lo = ((const int32_t *)c->offsets)[c->offset];
        c->hi = ((const int32_t *)c->offsets)[c->offset + c->length];
    }
    else {
        c->lo = ((const int64_t *)c->offsets)[c->offset];
        c->hi = ((const int64_t *)c->offsets)[c->offset + c->length];
    }
    /* Each row's offsets are checked against these as it is read (in_row). */
    if (c->lo < 0 || c->hi < c->lo) {
        bad->what = "the first offset is negative or above the last";
        return 1;
    }
    if (c->data == NULL && c->hi > c->lo) {
        bad->what = "no data buffer";
        return 1;
    }
    if (c->data != NULL) {
        /* a last offset beyond any memory: the rows past what can be read
         * are malformed (in_row names the first) */
        c->hi = readable_end(c->data, c->lo, c->hi);
    }
    c->bytes = c->hi - c->lo;
    return 0;
}

/* -- driving ---------------------------------------------------------------- */

static int n_threads = 1;

#ifdef PE_THREADS
typedef struct {
    Job job;
    const InChunk *in;
    int64_t r0, r1, base;
    OutChunk out;
    int rc;
} Part;

/* The part runs on copies of its Job and OutChunk in its own thread's stack:
 * the Parts sit side by side in one array, and a thread that updates its
 * out.data_len for every row next to the fields another thread reads for
 * every row (false sharing of a cache line) cost 25-30% more CPU a row. */
static void *
part_main(void *arg)
{
    Part *pt = (Part *)arg;
    Job job = pt->job;
    OutChunk out = pt->out;
    int rc = run_rows(&job, pt->in, pt->r0, pt->r1, &out, pt->base);
    pt->job = job;
    pt->out = out;
    pt->rc = rc;
    return NULL;
}
#endif

static int64_t
data_bytes(const InChunk *c, int64_t r0, int64_t r1)
{
    /* Only a size: rows are checked as they are read, so offsets out of
     * order here give a size in [0, all the rows' bytes] that a part may
     * outgrow (then the chunk runs again on one thread, which stops at the
     * malformed row). */
    if (c->layout != IN_VIEW && r1 > r0) {
        int64_t s, e;
        if (c->layout == IN_OFF32) {
            s = ((const int32_t *)c->offsets)[c->offset + r0];
            e = ((const int32_t *)c->offsets)[c->offset + r1];
        }
        else {
            s = ((const int64_t *)c->offsets)[c->offset + r0];
            e = ((const int64_t *)c->offsets)[c->offset + r1];
        }
        s = s < c->lo ? c->lo : s > c->hi ? c->hi : s;
        e = e < s ? s : e > c->hi ? c->hi : e;
        return e - s;
    }
    if (c->layout == IN_VIEW && r1 > r0) {
        /* string_view/binary_view: the rows' lengths are the first 4 bytes
         * of their 16-byte views.  A guess here would be wrong both ways: too
         * small, and the output is reallocated as it grows, and the parts of
         * a threaded run outgrow their regions and start again on one thread. */
        const uint8_t *v = (const uint8_t *)c->offsets + 16 * (c->offset + r0);
        int64_t k, sum = 0;
        for (k = 0; k < r1 - r0; k++) {
            int32_t len;
            memcpy(&len, v + 16 * k, 4);
            sum += len > 0 ? len : 0; /* a null row's view may hold anything */
        }
        return sum;
    }
    return 0;
}

#ifdef PE_THREADS
/* Rows [r0, r1) of the chunk's buffers `out` (r0 a multiple of 8, so no
 * validity byte is shared), as a fixed chunk of their own with nothing
 * written yet; its data region is the caller's to set. */
static OutChunk
out_rows(const OutChunk *out, int64_t r0, int64_t r1)
{
    OutChunk o = *out;
    o.fixed = 1;
    o.data_len = 0;
    o.null_count = 0;
    o.length = r1 - r0;
    o.validity = out->validity + (r0 >> 3);
    if (out->views != NULL) {
        o.views = out->views + 16 * r0;
    }
    else {
        o.offsets = (uint8_t *)out->offsets + r0 * (out->large ? 8 : 4);
    }
    return o;
}

/* Part pt does rows [r0, r1) of c into out's rows, on its own copy of the job. */
static void
part_init(Part *pt, const Job *proto, const InChunk *c, const OutChunk *out, int64_t r0,
          int64_t r1, int64_t base)
{
    pt->job = *proto;
    pt->job.scratch = NULL;
    pt->job.scratch_cap = 0;
    pt->job.fix = NULL;
    pt->job.fix_cap = 0;
    pt->in = c;
    pt->base = base;
    pt->rc = 0;
    pt->r0 = r0;
    pt->r1 = r1;
    pt->out = out_rows(out, r0, r1);
}

typedef struct {
    OutChunk *out;
    int64_t r0, r1, by;
} Shift;

static void *
shift_main(void *arg)
{
    Shift *sh = (Shift *)arg;
    out_shift(sh->out, sh->r0, sh->r1, sh->by);
    return NULL;
}

/* Part 0 of a two-part run, written back to front so that it ends at `end`,
 * where part 1 begins: BLOCK_ROWS rows at a time, last block first.  A block
 * is decoded forward into the room just below what is placed already (as
 * much as it could need), then moved up against it, and its offsets (or
 * views) moved by where it landed; so every byte written lies in the result
 * but for the first block's unused room.  Returns run_rows' code;
 * pt->out.data_len is then where part 0 begins. */
enum { BLOCK_ROWS = 2048 };

static int
part_backward(Part *pt, int64_t end, int64_t grow, int64_t slack)
{
    Job job = pt->job;
    const OutChunk *out = &pt->out; /* the chunk's own buffers */
    int64_t pos = end, b1 = pt->r1, nulls = 0;
    int rc = 0;
    while (b1 > pt->r0) {
        /* a multiple of 8 (part 0 starts at row 0), so no validity byte is shared */
        int64_t b0 = (b1 - 1) / BLOCK_ROWS * BLOCK_ROWS;
        int64_t need;
        OutChunk bo;
        if (b0 < pt->r0) {
            b0 = pt->r0;
        }
        need = grow * data_bytes(pt->in, b0, b1) + slack;
        if (need > pos) {
            job.oom = 1; /* earlier blocks outgrew their input: the one-thread path can grow */
            rc = -1;
            break;
        }
        bo = out_rows(out, b0, b1);
        bo.data = out->data + pos - need;
        bo.data_cap = need;
        rc = run_rows(&job, pt->in, b0, b1, &bo, pt->base);
        if (rc < 0 || job.bad_row >= 0) {
            break;
        }
        pos -= bo.data_len;
        memmove(out->data + pos, bo.data, (size_t)bo.data_len);
        out_shift(&bo, 0, b1 - b0, pos); /* the block's rows, from its start to pos */
        nulls += bo.null_count;
        b1 = b0;
    }
    pt->job = job;
    pt->out.null_count = nulls;
    pt->out.data_len = pos;
    return rc;
}

/* Two threads, and no join: part 0 (rows [0, m)) ends exactly at P, the
 * most it could write, and part 1 (rows [m, rows)) runs forward from P on
 * the other thread; no byte is moved afterwards.  The rows then start at P
 * minus part 0's output rather than at 0: the offsets (or views) are counted
 * from there, each thread half of them, and the data is exported from there
 * (data_skip), so the result is what one thread makes.  The space before is
 * never written (fresh pages: not resident either).  0 done, -1 failed, 1
 * when the chunk must go down the one-thread path (a part outgrew its region,
 * 32-bit offsets overflowed, or a strict error needs the first bad row in
 * order). */
static int
map_two(Job *proto, const InChunk *c, OutChunk *out, int64_t base, int kind, int64_t bytes)
{
    int64_t rows = c->length, m = (rows / 2) & ~(int64_t)7;
    int64_t grow = proto->op == OP_ENCODE || proto->op >= OP_DECODE_SB ? 3 : 1, slack = PE_OUT_SLACK * grow + 64;
    int64_t p = grow * data_bytes(c, 0, m) + slack;
    int64_t e = grow * bytes + 2 * slack; /* bytes: all the rows' */
    Part parts[2];
    pthread_t tid;
    int k, started, rc0;
    if ((kind != OUT_OFF64 && e > INT32_MAX) || p > e) {
        return 1;
    }
    if (out_init(out, rows, e, kind) < 0) {
        out_free(out); /* the one-thread path may make do with less */
        return 1;
    }
    part_init(&parts[0], proto, c, out, 0, m, base);
    part_init(&parts[1], proto, c, out, m, rows, base);
    /* part 1 writes at P onwards, its offsets counted from the buffer's start */
    parts[1].out.data_len = p;
    started = pthread_create(&tid, NULL, part_main, &parts[1]) == 0;
    rc0 = part_backward(&parts[0], p, grow, slack);
    if (started) {
        pthread_join(tid, NULL);
    }
    else if (rc0 == 0 && parts[0].job.bad_row < 0) {
        part_main(&parts[1]); /* no thread: run it here */
    }
    for (k = 0; k < 2; k++) {
        free(parts[k].job.scratch);
        free(parts[k].job.fix);
    }
    if (rc0 == 0 && parts[0].job.bad_row < 0 && parts[1].job.bad_row >= 0) {
        proto->bad_row = parts[1].job.bad_row; /* part 0 has none: the first */
        return 0;
    }
    if (parts[0].job.bad_row >= 0 || rc0 < 0 || parts[1].rc < 0) {
        out_free(out);
        return 1;
    }
    out->null_count = parts[0].out.null_count + parts[1].out.null_count;
    out->data_len = parts[1].out.data_len;
    /* The rows start at skip, not 0: count from there (each thread half the
     * rows), and export the data from there, so the space before is never
     * seen and the result is what one thread makes. */
    out->data_skip = parts[0].out.data_len;
    if (out->data_skip > 0) {
        Shift half = {out, m, rows, -out->data_skip};
        started = pthread_create(&tid, NULL, shift_main, &half) == 0;
        out_shift(out, 0, m, -out->data_skip);
        if (started) {
            pthread_join(tid, NULL);
        }
        else {
            shift_main(&half);
        }
    }
    return 0;
}
#endif

/* The chunk on this thread, into a buffer of `cap` bytes that can grow. */
static int
map_rows(Job *proto, const InChunk *c, OutChunk *out, int64_t base, int kind, int64_t cap)
{
    if (out_init(out, c->length, cap, kind) < 0) {
        proto->oom = 1;
        return -1;
    }
    return run_rows(proto, c, 0, c->length, out, base);
}

#ifdef PE_THREADS
/* After a round of map_chunk's threads: free the parts' job buffers, then take
 * their results in row order.  0: a malformed row (proto->bad_row, the earliest
 * part's); 1: joined (each part's data moved down to *at, its offsets shifted);
 * 2: start again on one thread (a part ran out of room or met a malformed row,
 * which one thread finds first; or the 32-bit offsets overflow); -1 out of
 * memory (proto->oom). */
static int
round_join(Job *proto, Part *parts, int t, OutChunk *out, int large, int64_t *at)
{
    int k;
    for (k = 0; k < t; k++) {
        free(parts[k].job.scratch);
        free(parts[k].job.fix);
    }
    for (k = 0; k < t; k++) {
        if (parts[k].job.bad_row >= 0) {
            proto->bad_row = parts[k].job.bad_row;
            return 0;
        }
        if (parts[k].rc < 0) {
            if (parts[k].job.oom == 1 || parts[k].job.oom == 3) {
                return 2; /* out of room, or malformed */
            }
            proto->oom = parts[k].job.oom;
            return -1;
        }
    }
    for (k = 0; k < t; k++) {
        Part *pt = &parts[k];
        if (!large && *at + pt->out.data_len > INT32_MAX) {
            return 2;
        }
        if (out->data + *at != pt->out.data) {
            memmove(out->data + *at, pt->out.data, (size_t)pt->out.data_len);
        }
        if (*at != 0) {
            out_shift(out, pt->r0, pt->r1, *at); /* they counted from the region */
        }
        *at += pt->out.data_len;
        out->null_count += pt->out.null_count;
    }
    return 1;
}
#endif

/* Map one chunk into out (GIL released).  Splits the rows across up to
 * n_threads threads for long chunks, then joins the parts' buffers. */
static int
map_chunk(Job *proto, const InChunk *c, OutChunk *out, int64_t base, int kind)
{
    int64_t rows = c->length;
    int large = kind == OUT_OFF64;
    int t = n_threads;
    int64_t bytes = c->bytes, hint = bytes;
    if (proto->op == OP_ENCODE || proto->op >= OP_DECODE_SB) {
        hint += hint / 2;
    }
    if (t < 2 || rows < 65536) {
        return map_rows(proto, c, out, base, kind, hint + PE_OUT_SLACK);
    }
#ifdef PE_THREADS
    if (t == 2) {
        int rc = map_two(proto, c, out, base, kind, bytes);
        return rc <= 0 ? rc : map_rows(proto, c, out, base, kind, hint + PE_OUT_SLACK);
    }
    {
        /* More than two threads: the parts write straight into the
         * chunk's buffers, in rounds of ROUND_ROWS rows: each round's rows
         * split at multiples of 8 (so no two threads share a validity byte),
         * each part's data in its own region (its input bytes times `grow`) after what is written so
         * far; then the regions are moved down to close the gaps and the
         * offsets shifted.  Rounds keep the gaps (memory touched beyond the
         * output) to one round's worth.  A part that outgrows its region
         * (U+FFFD for raw bytes) sends the chunk down the one-thread path. */
        enum { ROUND_ROWS = 1 << 20 };
        Part parts[8];
        pthread_t tids[8];
        int k, rc = 0, overflow = 0;
        int64_t grow = proto->op == OP_ENCODE || proto->op >= OP_DECODE_SB ? 3 : 1, at = 0, b0, slack = PE_OUT_SLACK * grow + 64;
        int64_t region[9];
        if (t > 8) {
            t = 8;
        }
        if (out_init(out, rows, grow * bytes + (t + 1) * slack, kind) < 0) {
            proto->oom = 1;
            return -1;
        }
        for (b0 = 0; b0 < rows && rc == 0 && !overflow; b0 += ROUND_ROWS) {
            int64_t b1 = b0 + ROUND_ROWS < rows ? b0 + ROUND_ROWS : rows, n = b1 - b0;
            int started = 0;
            region[0] = at;
            for (k = 0; k < t; k++) {
                Part *pt = &parts[k];
                int64_t r0 = k == 0 ? b0 : b0 + ((n * k / t) & ~(int64_t)7);
                int64_t r1 = k == t - 1 ? b1 : b0 + ((n * (k + 1) / t) & ~(int64_t)7);
                region[k + 1] = region[k] + grow * data_bytes(c, r0, r1) + slack;
                part_init(pt, proto, c, out, r0, r1, base);
                pt->out.data = out->data + region[k];
                pt->out.data_cap = region[k + 1] - region[k];
            }
            if (region[t] > out->data_cap) {
                overflow = 1; /* earlier rounds grew: the one-thread path can grow */
                break;
            }
            for (k = 1; k < t; k++) {
                if (pthread_create(&tids[k], NULL, part_main, &parts[k]) == 0) {
                    started |= 1 << k;
                }
            }
            part_main(&parts[0]);
            for (k = 1; k < t; k++) {
                if (started & (1 << k)) {
                    pthread_join(tids[k], NULL);
                }
                else {
                    part_main(&parts[k]); /* no thread: run it here */
                }
            }
            switch (round_join(proto, parts, t, out, large, &at)) {
            case 0:
                return 0;
            case -1:
                rc = -1;
                break;
            case 2:
                overflow = 1;
                break;
            }
        }
        if (rc < 0) {
            return -1;
        }
        if (overflow) {
            /* Start again on one thread with a buffer that can grow. */
            int64_t cap = out->data_cap;
            out_free(out);
            return map_rows(proto, c, out, base, kind, cap);
        }
        out->data_len = at;
        return 0;
    }
#else
    return -1;
#endif
}

static int
parse_op(PyObject *op)
{
    static const char *const names[] = {"decode",      "decode_text", "encode",
                                        "form_get",    "call_text",   "call_binary",
                                        "decode_sb",   "decode_sjis", "encode_map"};
    int k;
    for (k = 0; k < 9; k++) {
        if (PyUnicode_Check(op) && PyUnicode_CompareWithASCIIString(op, names[k]) == 0) {
            return k;
        }
    }
    PyErr_SetString(PyExc_ValueError, "unknown arrow_map op");
    return -1;
}

/* call_text / call_binary: the Python callable per row, GIL held. */
static int
call_rows(Job *job, PyObject *fn, const InChunk *c, OutChunk *out, int64_t base, int kind)
{
    int64_t i;
    if (out_init(out, c->length, c->bytes + PE_OUT_SLACK, kind) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    for (i = 0; i < c->length; i++) {
        int valid = 0;
        int64_t start = out->data_len;
        if (in_valid(c, i)) {
            int64_t n;
            const uint8_t *p = in_row(c, i, &n);
            PyObject *v, *r;
            if (p == NULL) {
                job->bad_input = base + i;
                job->oom = 3;
                return -1;
            }
            /* a string row that is not UTF-8 reads with U+FFFD (Python's
             * "replace" is the Encoding Standard's UTF-8 decoder) */
            v = c->is_binary ? PyBytes_FromStringAndSize((const char *)p, n)
                             : PyUnicode_DecodeUTF8((const char *)p, n, "replace");
            if (v == NULL) {
                return -1;
            }
            r = PyObject_CallFunction(fn, "NL", v, (long long)(base + i));
            if (r == NULL) {
                return -1;
            }
            if (r != Py_None) {
                const char *s;
                Py_ssize_t len;
                if (PyUnicode_Check(r)) {
                    s = PyUnicode_AsUTF8AndSize(r, &len);
                }
                else if (PyBytes_Check(r)) {
                    s = PyBytes_AS_STRING(r);
                    len = PyBytes_GET_SIZE(r);
                }
                else {
                    PyErr_SetString(PyExc_TypeError, "row function must return str, bytes or None");
                    s = NULL;
                }
                if (s == NULL || out_reserve(out, len) < 0) {
                    if (s != NULL) {
                        PyErr_NoMemory();
                    }
                    Py_DECREF(r);
                    return -1;
                }
                memcpy(out->data + out->data_len, s, (size_t)len);
                out->data_len += len;
                valid = 1;
            }
            Py_DECREF(r);
        }
        if (out_row(out, i, valid, start) < 0) {
            PyErr_SetString(PyExc_OverflowError,
                            "result over 2 GiB in one chunk: use a large_string column");
            return -1;
        }
    }
    return 0;
}

/* The strict failure: (row, its value as str or bytes). */
static PyObject *
bad_row_result(const InChunk *c, int64_t i, int64_t base)
{
    int64_t n;
    const uint8_t *p = in_row(c, i - base, &n);
    PyObject *v;
    if (p == NULL) { /* cannot be: the row was read */
        PyErr_SetString(PyExc_SystemError, "arrow_map: the failing row went away");
        return NULL;
    }
    v = c->is_binary ? PyBytes_FromStringAndSize((const char *)p, n)
                     : PyUnicode_DecodeUTF8((const char *)p, n, "replace");
    if (v == NULL) {
        return NULL;
    }
    return Py_BuildValue("(LN)", (long long)i, v);
}

/* One chunk: map it into col->chunks[k]; 1 when a strict error stopped it. */
static int
map_one(Job *job, PyObject *fn, const struct ArrowSchema *s, const struct ArrowArray *a,
        Column *col, int64_t base, PyObject **bad)
{
    InChunk c;
    OutChunk *out;
    int rc, kind;
    OutChunk *grown;
    Malformed m;
    if ((rc = read_chunk(s, a, &c, &m)) != 0) {
        if (rc > 0) {
            *bad = Py_BuildValue("(sLs)", "malformed", (long long)(base + m.row), m.what);
            return *bad == NULL ? -1 : 1;
        }
        return -1;
    }
    /* 64-bit input keeps 64-bit offsets; views (32-bit offsets) otherwise,
     * when asked for */
    kind = c.layout == IN_OFF64 ? OUT_OFF64 : job->views ? OUT_VIEW : OUT_OFF32;
    if (col->n_chunks == 0) {
        col->kind = kind;
    }
    if (job->op == OP_ENCODE_MAP) {
        memset(job->table.act + 0x80, PCT, 0x80); /* bytes above 0x7F: always %XX */
    }
    if (job->op == OP_ENCODE) {
        /* A str keeps its non-ASCII code points when the set does not encode
         * them (their UTF-8 passes through); bytes above 0x7F always are. */
        memset(job->table.act + 0x80, c.is_binary || job->table.non_ascii ? PCT : KEEP, 0x80);
    }
    grown = PyMem_Realloc(col->chunks, sizeof(OutChunk) * (size_t)(col->n_chunks + 1));
    if (grown == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    col->chunks = grown;
    out = &col->chunks[col->n_chunks];
    memset(out, 0, sizeof *out);
    col->n_chunks++;
    if (job->op == OP_CALL_TEXT || job->op == OP_CALL_BINARY) {
        rc = call_rows(job, fn, &c, out, base, kind);
    }
    else {
        Py_BEGIN_ALLOW_THREADS
        rc = map_chunk(job, &c, out, base, kind);
        Py_END_ALLOW_THREADS
    }
    if (rc < 0 && job->oom == 3) {
        *bad = Py_BuildValue("(sLs)", "malformed", (long long)job->bad_input,
                             "its offsets go backwards or beyond the first and last offsets "
                             "(or past memory the process can have)");
        return *bad == NULL ? -1 : 1;
    }
    if (rc < 0 && PyErr_Occurred()) {
        return -1;
    }
    if (job->bad_row >= 0) {
        *bad = bad_row_result(&c, job->bad_row, base);
        return *bad == NULL ? -1 : 1;
    }
    if (rc < 0) {
        if (job->oom == 2) {
            PyErr_SetString(PyExc_OverflowError,
                            "result over 2 GiB in one chunk: use a large_string column");
        }
        else {
            PyErr_NoMemory();
        }
        return -1;
    }
    /* Give back what doubling over-reserved. */
    if (out->data_cap > out->data_len + 4096) {
        uint8_t *d = realloc(out->data, (size_t)(out->data_len ? out->data_len : 1));
        if (d != NULL) {
            out->data = d;
            out->data_cap = out->data_len;
        }
    }
    return 0;
}

/* The op's own argument (arg) into job: the encode set's table (and code map),
 * the form field's name, the row function (*fn), the legacy code point table.
 * 0, or -1 with an exception. */
static int
map_op_arg(Job *job, PyObject *op, PyObject *arg, PyObject **fn)
{
    if (job->op == OP_ENCODE) {
        if (!PyBytes_Check(arg) || PyBytes_GET_SIZE(arg) != 256) {
            PyErr_SetString(PyExc_TypeError, "encode: arg must be a 256-byte table");
            return -1;
        }
        fill_enc_table(&job->table, (const uint8_t *)PyBytes_AS_STRING(arg), job->plus);
    }
    else if (job->op == OP_ENCODE_MAP) {
        /* the set's 256-byte table, then two bytes per BMP code point */
        if (!PyBytes_Check(arg) || PyBytes_GET_SIZE(arg) != 256 + 2 * 65536) {
            PyErr_SetString(PyExc_TypeError, "encode_map: arg must be a set table and a code map");
            return -1;
        }
        fill_enc_table(&job->table, (const uint8_t *)PyBytes_AS_STRING(arg), job->plus);
        job->enc_map = (const uint16_t *)(const void *)(PyBytes_AS_STRING(arg) + 256);
    }
    else if (job->op == OP_FORM_GET) {
        Py_ssize_t len;
        const char *nm;
        if (!PyUnicode_Check(arg) || (nm = PyUnicode_AsUTF8AndSize(arg, &len)) == NULL) {
            return -1;
        }
        job->name = (const uint8_t *)nm;
        job->name_len = len;
        job->plus = 1; /* §5.1: '+' is a space in names and values */
    }
    else if (job->op == OP_CALL_TEXT || job->op == OP_CALL_BINARY) {
        *fn = arg;
    }
    else if (job->op == OP_DECODE_SB || job->op == OP_DECODE_SJIS) {
        Py_ssize_t want = job->op == OP_DECODE_SB ? 128 * 4 : 11280 * 4;
        if (!PyBytes_Check(arg) || PyBytes_GET_SIZE(arg) != want) {
            PyErr_Format(PyExc_TypeError, "%U: arg must be a %zd-byte code point table", op,
                         want);
            return -1;
        }
        job->legacy = (const uint32_t *)(const void *)PyBytes_AS_STRING(arg);
        legacy_init(job);
    }
    return 0;
}

/* The job from the arguments (op, arg, plus, errors, views): 0, or -1. */
static int
map_job(Job *job, PyObject *const *a, PyObject **fn)
{
    memset(job, 0, sizeof *job);
    job->bad_row = -1;
    job->bad_input = -1;
    if ((job->op = parse_op(a[1])) < 0 || (job->plus = PyObject_IsTrue(a[3])) < 0 ||
        (job->views = PyObject_IsTrue(a[5])) < 0) {
        return -1;
    }
    job->errors = PyUnicode_CompareWithASCIIString(a[4], "null") == 0     ? ERR_NULL
                  : PyUnicode_CompareWithASCIIString(a[4], "strict") == 0 ? ERR_STRICT
                                                                          : ERR_REPLACE;
    return map_op_arg(job, a[1], a[2], fn);
}

/* A column with one chunk (__arrow_c_array__'s result, the capsule pair) into
 * col: map_one's 0, 1 (a strict error or a malformed chunk: *bad), or -1. */
static int
map_array(Job *job, PyObject *fn, PyObject *pair, Column *col, PyObject **bad)
{
    struct ArrowSchema *s;
    struct ArrowArray *arr;
    if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
        PyErr_SetString(PyExc_TypeError, "__arrow_c_array__ must return two capsules");
        return -1;
    }
    s = PyCapsule_GetPointer(PyTuple_GET_ITEM(pair, 0), "arrow_schema");
    arr = s == NULL ? NULL : PyCapsule_GetPointer(PyTuple_GET_ITEM(pair, 1), "arrow_array");
    if (arr == NULL) {
        return -1;
    }
    return map_one(job, fn, s, arr, col, 0, bad);
}

/* A stream of chunks (__arrow_c_stream__'s capsule) into col, chunk by chunk:
 * 0, 1 (*bad), or -1. */
static int
map_stream(Job *job, PyObject *fn, PyObject *cap, Column *col, PyObject **bad)
{
    struct ArrowArrayStream *st = PyCapsule_GetPointer(cap, "arrow_array_stream");
    struct ArrowSchema s;
    int64_t base = 0;
    int rc = 0;
    if (st == NULL) {
        return -1;
    }
    if (st->get_schema(st, &s) != 0) {
        PyErr_SetString(PyExc_ValueError, "Arrow stream: get_schema failed");
        return -1;
    }
    for (;;) {
        struct ArrowArray arr;
        if (st->get_next(st, &arr) != 0) {
            const char *m = st->get_last_error(st);
            PyErr_Format(PyExc_ValueError, "Arrow stream: %s", m ? m : "get_next failed");
            rc = -1;
            break;
        }
        if (arr.release == NULL) {
            break;
        }
        rc = map_one(job, fn, &s, &arr, col, base, bad);
        base += arr.length;
        arr.release(&arr);
        if (rc != 0) {
            break;
        }
    }
    if (s.release != NULL) {
        s.release(&s);
    }
    return rc;
}

/* The column (an Arrow array or stream, by the PyCapsule interface) into col:
 * 0, 1 (*bad), or -1. */
static int
map_column(Job *job, PyObject *fn, PyObject *column, Column *col, PyObject **bad)
{
    PyObject *meth, *got;
    int stream = 0, rc;
    if ((meth = PyObject_GetAttrString(column, "__arrow_c_array__")) == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_AttributeError)) {
            return -1;
        }
        PyErr_Clear();
        stream = 1;
        if ((meth = PyObject_GetAttrString(column, "__arrow_c_stream__")) == NULL) {
            if (PyErr_ExceptionMatches(PyExc_AttributeError)) {
                PyErr_Clear();
                PyErr_Format(PyExc_TypeError,
                             "expected an Arrow array (an object with __arrow_c_array__ or "
                             "__arrow_c_stream__), not %.200s",
                             Py_TYPE(column)->tp_name);
            }
            return -1;
        }
    }
    got = PyObject_CallNoArgs(meth);
    Py_DECREF(meth);
    if (got == NULL) {
        return -1;
    }
    rc = stream ? map_stream(job, fn, got, col, bad) : map_array(job, fn, got, col, bad);
    Py_DECREF(got); /* the capsules release the input */
    return rc;
}

/* arrow_map(column, op, arg, plus, errors, views): the op over every row of
 * the column, a Column of the results (pure-C row work without the GIL,
 * map_one), or (row, value) of a strict error, or ("malformed", row, what).
 * Check the arguments, make the result, map the column. */
PyObject *
pe_arrow_map(PyObject *self, PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
    static const char *const names[] = {"column", "op", "arg", "plus", "errors", "views"};
    PyObject *a[6], *bad = NULL, *fn = NULL;
    Job job;
    Column *col;
    int rc;
    (void)self;
    if (parse_args("arrow_map", args, nargs, kwnames, names, 6, a) < 0) {
        return NULL;
    }
    if (map_job(&job, a, &fn) < 0) {
        return NULL;
    }
    col = PyObject_New(Column, &ArrowColumnType);
    if (col == NULL) {
        return NULL;
    }
    col->binary = job.op == OP_DECODE || job.op == OP_CALL_BINARY;
    col->n_chunks = 0;
    col->chunks = NULL;
    col->kind = job.views ? OUT_VIEW : OUT_OFF32; /* until a chunk says */
    rc = map_column(&job, fn, a[0], col, &bad);
    free(job.scratch);
    free(job.fix);
    if (rc != 0) {
        Py_DECREF(col);
        return rc < 0 ? NULL : bad;
    }
    return (PyObject *)col;
}

/* the threads of set_threads, for arrow_url.c */
int
arrow_n_threads(void)
{
    return n_threads;
}

PyObject *
pe_arrow_set_threads(PyObject *self, PyObject *arg)
{
    long n = PyLong_AsLong(arg);
    long old = n_threads;
    (void)self;
    if (n == -1 && PyErr_Occurred()) {
        return NULL;
    }
    n_threads = n < 1 ? 1 : n > 8 ? 8 : (int)n;
    return PyLong_FromLong(old);
}

/* Tests compare the block decoder with the portable one: turn it off (or
 * back on, where the CPU has it).  Returns whether it was on. */
PyObject *
pe_arrow_set_blocks(PyObject *self, PyObject *arg)
{
    /* False/0: the portable kernels; 1: AVX2; True/2: AVX2, and AVX-512 for
     * the UTF-8 window check where the CPU has it.  Returns the level before. */
    long on = PyBool_Check(arg) ? (arg == Py_True ? 2 : 0) : PyLong_AsLong(arg);
    int old = pe_blocks_ok ? 1 + pe_u8_wide : 0;
    (void)self;
    if (on == -1 && PyErr_Occurred()) {
        return NULL;
    }
    pe_blocks_ok = on > 0 && blocks_supported();
    pe_u8_wide = pe_blocks_ok && on > 1 && wide_supported();
    return PyLong_FromLong(old);
}

int
arrow_init(void)
{
#ifdef __linux__
    long page = sysconf(_SC_PAGESIZE);
    page_mask = ~(uintptr_t)((page > 0 ? page : 4096) - 1);
#else
    page_mask = ~(uintptr_t)4095;
#endif
    blocks_init();
    pe_block_decoder = decode_row_avx2; /* the hook decode_text calls (kernels.h) */
    return PyType_Ready(&ArrowColumnType);
}
