/* The column kernels' block decoder: percent-decodes a string column's row
 * 32 bytes at a time with AVX2 (URL Standard §1.3 percent-decode, with '+'
 * as a space when asked, as in §5.1).  Chosen at run time when the CPU has
 * AVX2; elsewhere the rows go through the portable per-byte decoder in
 * arrow_rows.c, which gives the same bytes.  (An SSSE3 twin, 16 bytes a
 * block, measured too little faster than the portable decoder to keep.)
 *
 * One block: find the '%' bytes and the hex digits, mark each '%' followed
 * by two hex digits of the same row as an escape, put the escape's value in
 * the '%' byte's place, and drop its two digits with a byte shuffle (pshufb,
 * one 8-byte quarter at a time from a 256-entry index table).  A block is
 * cut short before a '%' in its last two bytes whose digits lie in the next
 * block, so every escape is decoded whole in one block.  The same pass
 * checks that the escapes' values make whole UTF-8 sequences (u8_step), so a
 * row is rescanned only when they may not.  No branch depends on where the
 * escapes are: only on whether a block has any. */
#include "arrow.h"

#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
#define PE_HAVE_BLOCKS 1
#include <immintrin.h>
#endif

int pe_u8_wide = 0;

#ifdef PE_HAVE_BLOCKS

/* For each 8-bit keep mask: the indices of its set bits, in order (then 0x80,
 * which pshufb turns into a zero byte). */
static uint64_t keep_index[256];

/* The UTF-8 check (Encoding Standard §8.1.1: the sequences its decoder
 * accepts) looks at each byte with the one before it.  Every way two
 * adjacent bytes can be wrong is a product of three conditions: on the first
 * byte's high nibble, its low nibble, and the second byte's high nibble.  One
 * bit per way; the three tables say, per nibble, which ways it allows. */
enum {
    U8_TOO_SHORT = 1,   /* a lead byte, then no continuation byte */
    U8_TOO_LONG = 2,    /* ASCII, then a continuation byte */
    U8_OVERLONG_3 = 4,  /* E0 80-9F */
    U8_TOO_LARGE = 8,   /* F4 90-BF, or F5-FF 90-BF */
    U8_SURROGATE = 16,  /* ED A0-BF */
    U8_OVERLONG_2 = 32, /* C0 or C1, then anything */
    U8_BIG_OR_4 = 64,   /* F0 80-8F, or F5-FF 80-8F */
    U8_TWO_CONTS = 128, /* two continuation bytes: wrong unless the third or fourth byte */
};
static uint8_t u8_first_hi[16], u8_first_lo[16], u8_second_hi[16];
/* One of the three 16-byte UTF-8 class tables in both lanes of a 256-bit register. */
#define U8_TABLE(t) _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i *)(const void *)(t)))

static void
u8_way(int bit, int hi1_from, int hi1_to, const char *lo1, int hi2_from, int hi2_to)
{
    int k;
    for (k = hi1_from; k <= hi1_to; k++) {
        u8_first_hi[k] |= (uint8_t)bit;
    }
    for (k = 0; k < 16; k++) {
        if (lo1 == NULL || strchr(lo1, "0123456789ABCDEF"[k]) != NULL) {
            u8_first_lo[k] |= (uint8_t)bit;
        }
    }
    for (k = hi2_from; k <= hi2_to; k++) {
        u8_second_hi[k] |= (uint8_t)bit;
    }
}

static void
u8_tables_init(void)
{
    u8_way(U8_TOO_SHORT, 0xC, 0xF, NULL, 0x0, 0x7);
    u8_way(U8_TOO_SHORT, 0xC, 0xF, NULL, 0xC, 0xF);
    u8_way(U8_TOO_LONG, 0x0, 0x7, NULL, 0x8, 0xB);
    u8_way(U8_OVERLONG_3, 0xE, 0xE, "0", 0x8, 0x9);
    u8_way(U8_TOO_LARGE, 0xF, 0xF, "456789ABCDEF", 0x9, 0xB);
    u8_way(U8_SURROGATE, 0xE, 0xE, "D", 0xA, 0xB);
    u8_way(U8_OVERLONG_2, 0xC, 0xC, "01", 0x0, 0xF);
    u8_way(U8_BIG_OR_4, 0xF, 0xF, "056789ABCDEF", 0x8, 0x8);
    u8_way(U8_TWO_CONTS, 0x8, 0xB, NULL, 0x8, 0xB);
}

void
blocks_init(void)
{
    int m, b;
    u8_tables_init();
    for (m = 0; m < 256; m++) {
        uint64_t v = 0x8080808080808080ULL;
        int k = 0;
        for (b = 0; b < 8; b++) {
            if (m >> b & 1) {
                v &= ~(0xFFULL << (8 * k));
                v |= (uint64_t)b << (8 * k);
                k++;
            }
        }
        keep_index[m] = v;
    }
    pe_blocks_ok = blocks_supported();
    pe_u8_wide = pe_blocks_ok && wide_supported();
}

/* Whether the CPU has AVX-512 for utf8_prefix_avx2's 128-byte steps: BW for
 * byte lanes, and VBMI2 as the mark of a core (Ice Lake, Zen 4 and later)
 * that runs 512-bit integer work without lowering its clock, as the first
 * AVX-512 cores did. */
int
wide_supported(void)
{
#ifdef PE_NO_U8_WIDE
    return 0; /* bench/bench_input_checks.py --variant: the AVX2 path's figures */
#endif
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
           __builtin_cpu_supports("avx512vbmi2");
}

int
blocks_supported(void)
{
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("popcnt");
}

/* The stream of 64 bytes h then s, looked at k positions back from s. */
#define BACK256(s, h, k) _mm256_alignr_epi8((s), _mm256_permute2x128_si256((h), (s), 0x21), 16 - (k))
/* v looked at k positions on (zeros past its end). */
#define ON256(v, k) _mm256_alignr_epi8(_mm256_permute2x128_si256((v), (v), 0x81), (v), (k))

/* The UTF-8 check of the bytes s against their three predecessors p1, p2, p3
 * (0 where a run starts): the ways a pair can be wrong are the tables' bits,
 * and a third byte of E0-EF or a third or fourth of F0-F4 is the one place
 * two continuation bytes may follow each other.  Shared by the two steps
 * below, which differ only in how far back a predecessor stands. */
__attribute__((target("avx2,popcnt"))) static inline __m256i
u8_pairs(__m256i s, __m256i p1, __m256i p2, __m256i p3, __m256i t1, __m256i t2, __m256i t3)
{
    const __m256i nib = _mm256_set1_epi8(0x0F), x80 = _mm256_set1_epi8((char)0x80);
    __m256i special, must23;
    special = _mm256_and_si256(
        _mm256_and_si256(_mm256_shuffle_epi8(t1, _mm256_and_si256(_mm256_srli_epi16(p1, 4), nib)),
                         _mm256_shuffle_epi8(t2, _mm256_and_si256(p1, nib))),
        _mm256_shuffle_epi8(t3, _mm256_and_si256(_mm256_srli_epi16(s, 4), nib)));
    must23 = _mm256_or_si256(_mm256_subs_epu8(p2, _mm256_set1_epi8((char)0xDF)),
                             _mm256_subs_epu8(p3, _mm256_set1_epi8((char)0xEF)));
    must23 = _mm256_andnot_si256(_mm256_cmpeq_epi8(must23, _mm256_setzero_si256()), x80);
    return _mm256_xor_si256(special, must23);
}

/* One step of the UTF-8 check over the escapes' values, in the input's
 * positions: s holds each escape's value at its '%' and 0 elsewhere, h the
 * same for the 32 positions before.  Consecutive escapes are 3 bytes apart,
 * so a byte's predecessor in its run is 3 positions back (0 there: the run
 * starts here, as after ASCII).  A raw byte cannot end or continue a run (raw
 * text is whole UTF-8 sequences), so the result is UTF-8 exactly when each
 * run is by itself. */
__attribute__((target("avx2,popcnt"))) static inline __m256i
u8_step(__m256i s, __m256i h, __m256i t1, __m256i t2, __m256i t3)
{
    return u8_pairs(s, BACK256(s, h, 3), BACK256(s, h, 6), BACK256(s, h, 9), t1, t2, t3);
}

/* The same check over the raw bytes of a row (each byte with the three
 * before it: s the block, h the 32 bytes before), for a string column whose
 * rows may not be UTF-8 after all; '%' and hex digits are ASCII, so this is
 * the UTF-8 check of the row as it is. */
__attribute__((target("avx2,popcnt"))) static inline __m256i
raw_step(__m256i s, __m256i h, __m256i t1, __m256i t2, __m256i t3)
{
    return u8_pairs(s, BACK256(s, h, 1), BACK256(s, h, 2), BACK256(s, h, 3), t1, t2, t3);
}

/* The UTF-8 check of the 32 bytes at q against the three before them, which
 * are readable (the same run's): the predecessors come from overlapping
 * loads, not from shifts of the block before, which keeps the check off the
 * shuffle unit the tables need. */
__attribute__((target("avx2,popcnt"))) static inline __m256i
raw_step_at(const uint8_t *q, __m256i t1, __m256i t2, __m256i t3)
{
    return u8_pairs(_mm256_loadu_si256((const __m256i *)(const void *)q),
                    _mm256_loadu_si256((const __m256i *)(const void *)(q - 1)),
                    _mm256_loadu_si256((const __m256i *)(const void *)(q - 2)),
                    _mm256_loadu_si256((const __m256i *)(const void *)(q - 3)), t1, t2, t3);
}

/* Decode p[0:n] into o.  Loads may read up to p + avail (avail >= n); o has
 * room for n + PE_OUT_SLACK bytes (stores may write past the result).
 * *check: PE_CHECK_ESC when the escapes' values may not make UTF-8 by
 * themselves (the caller checks the result), PE_CHECK_RAW when the row's
 * own bytes may not be UTF-8 (a string column's rows should be; the caller
 * checks the row).  raw: 1 to check the row's own bytes, 0 not (they are
 * known to be UTF-8, or do not matter), or RAW_JOINS (below); a constant
 * where this is inlined.
 *
 * RAW_JOINS checks neither the raw bytes nor the escapes' values by
 * themselves: the caller checks the result (utf8_out_ok), and this checks
 * that wherever raw bytes and a run of escapes meet, the byte after the
 * meeting starts a character.  Together that is the same as both checks: if
 * the result is UTF-8 and each run (of raw bytes, of escapes) begins a
 * character, each run is whole characters, so the row's raw bytes are UTF-8
 * ('%' and hex digits are ASCII) and so is each run of escapes; and the
 * converse is plain.  One check of the result (shorter than the row) costs
 * less than two of the row's blocks.  *check is PE_CHECK_ESC for a bad
 * meeting, or when the row's end went byte by byte (unchecked): the caller
 * then takes the exact path.
 *
 * escs: 0 when the escapes' values need no check (a binary result): the
 * work of the check is skipped and *check has no PE_CHECK_ESC. */
#define IOTA256                                                                               \
    _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, \
                     21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31)

/* A block's hex digits (its first len bytes: *hexv) and their values (*val);
 * the escapes: the '%' of pm followed by two hex digits. */
__attribute__((target("avx2,popcnt"), always_inline)) static inline uint32_t
block_hex(__m256i w, unsigned len, uint32_t pm, __m256i *hexv, __m256i *val)
{
    const __m256i x20 = _mm256_set1_epi8(0x20);
    const __m256i d_lo = _mm256_set1_epi8('0' - 1), d_hi = _mm256_set1_epi8('9' + 1);
    const __m256i a_lo = _mm256_set1_epi8('a' - 1), a_hi = _mm256_set1_epi8('f' + 1);
    const __m256i c_0 = _mm256_set1_epi8('0'), c_a = _mm256_set1_epi8('a' - 10);
    __m256i lower = _mm256_or_si256(w, x20);
    __m256i dig = _mm256_and_si256(_mm256_cmpgt_epi8(w, d_lo), _mm256_cmpgt_epi8(d_hi, w));
    __m256i alp = _mm256_and_si256(_mm256_cmpgt_epi8(lower, a_lo), _mm256_cmpgt_epi8(a_hi, lower));
    __m256i limv = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)len), IOTA256);
    uint32_t hm;
    *hexv = _mm256_and_si256(_mm256_or_si256(dig, alp), limv);
    *val = _mm256_or_si256(_mm256_and_si256(dig, _mm256_sub_epi8(w, c_0)),
                           _mm256_and_si256(alp, _mm256_sub_epi8(lower, c_a)));
    hm = (uint32_t)_mm256_movemask_epi8(*hexv);
    return pm & (hm >> 1) & (hm >> 2);
}

/* The decoded block res to o without the two hex digits of each escape of
 * esc (a shuffle a 64-bit lane, four overlapping stores). */
__attribute__((target("avx2,popcnt"), always_inline)) static inline void
block_store(__m256i res, uint32_t esc, uint8_t *o)
{
    const __m256i high8 = _mm256_set_epi64x(0x0808080808080808LL, 0, 0x0808080808080808LL, 0);
    uint32_t keep = ~((esc << 1) | (esc << 2));
    __m256i shuf = _mm256_set_epi64x((long long)keep_index[keep >> 24],
                                     (long long)keep_index[(keep >> 16) & 0xFF],
                                     (long long)keep_index[(keep >> 8) & 0xFF],
                                     (long long)keep_index[keep & 0xFF]);
    __m128i lo, hi;
    unsigned c0, c1, c2;
    res = _mm256_shuffle_epi8(res, _mm256_add_epi8(shuf, high8));
    lo = _mm256_castsi256_si128(res);
    hi = _mm256_extracti128_si256(res, 1);
    c0 = (unsigned)__builtin_popcount(keep & 0xFF);
    c1 = c0 + (unsigned)__builtin_popcount(keep & 0xFF00);
    c2 = c1 + (unsigned)__builtin_popcount(keep & 0xFF0000);
    _mm_storel_epi64((__m128i *)(void *)o, lo);
    _mm_storel_epi64((__m128i *)(void *)(o + c0), _mm_srli_si128(lo, 8));
    _mm_storel_epi64((__m128i *)(void *)(o + c1), hi);
    _mm_storel_epi64((__m128i *)(void *)(o + c2), _mm_srli_si128(hi, 8));
}

/* Whether a UTF-8 sequence may go on past the checked blocks into the rest
 * p[i, n) (then the caller checks the row). */
__attribute__((target("avx2,popcnt"), always_inline)) static inline int
tail_high(const uint8_t *p, int64_t i, int64_t n, __m256i rhist)
{
    unsigned hi = (unsigned)_mm256_movemask_epi8(rhist);
    for (; i < n; i++) {
        hi |= p[i] & 0x80u;
    }
    return hi != 0;
}

/* RAW_JOINS, a block with escapes (esc, decoded in dec; len bytes its own):
 * where a run of escapes meets raw bytes, in either order, the byte after the
 * meeting may not continue a character (contw: the raw bytes that do).  The
 * bad meetings; *after_raw and *after_esc say what the block's last byte is,
 * for the next. */
__attribute__((target("avx2,popcnt"), always_inline)) static inline uint32_t
joins_step(uint32_t esc, unsigned len, __m256i dec, uint32_t contw, uint32_t *after_raw,
           uint32_t *after_esc)
{
    const __m256i xc0 = _mm256_set1_epi8((char)0xC0), x80 = _mm256_set1_epi8((char)0x80);
    uint32_t own = len == 32 ? 0xFFFFFFFFu : (1u << len) - 1;
    uint32_t ends = esc << 2, cov = esc | (esc << 1) | ends;
    uint32_t rawm = ~cov & own, bad;
    uint32_t contd =
        (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(_mm256_and_si256(dec, xc0), x80));
    bad = (esc & ((rawm << 1) | *after_raw) & contd) | (rawm & ((ends << 1) | *after_esc) & contw);
    *after_raw = rawm >> (len - 1) & 1;
    *after_esc = ends >> (len - 1) & 1;
    return bad;
}

/* The escapes' UTF-8 check over a block with escapes (dec, len bytes its own
 * of rem left): *err gathers the errors, *hist is the history for the next
 * block (and *rhist the raw bytes' when raw == 1 and the block was cut short). */
__attribute__((target("avx2,popcnt"), always_inline)) static inline void
esc_step(__m256i dec, unsigned len, int64_t rem, int raw, __m256i *err, __m256i *hist,
         __m256i *rhist)
{
    const __m256i t1 = U8_TABLE(u8_first_hi), t2 = U8_TABLE(u8_first_lo);
    const __m256i t3 = U8_TABLE(u8_second_hi), zero = _mm256_setzero_si256();
    if (len == 32) {
        *err = _mm256_or_si256(*err, u8_step(dec, *hist, t1, t2, t3));
        *hist = dec;
    }
    else if ((int64_t)len == rem) {
        /* The row's last block: its positions past the end are zeros, which
         * ends the runs, and no history is left. */
        *err = _mm256_or_si256(*err, u8_step(dec, *hist, t1, t2, t3));
        *hist = zero;
    }
    else {
        /* Cut short: check its own positions only; the next block starts len
         * (30 or 31) bytes on. */
        __m256i own = _mm256_cmpgt_epi8(_mm256_set1_epi8((char)len), IOTA256);
        *err = _mm256_or_si256(*err, _mm256_and_si256(own, u8_step(dec, *hist, t1, t2, t3)));
        *hist = len == 31 ? BACK256(dec, zero, 1) : BACK256(dec, zero, 2);
        if (raw == 1) {
            *rhist = len == 31 ? BACK256(*rhist, zero, 1) : BACK256(*rhist, zero, 2);
        }
    }
}

/* The raw bytes' UTF-8 check over a block (its first rem bytes when fewer than
 * 32 are left): no branch on whether the block has such bytes (in mixed text
 * it is mispredicted too often to pay). */
__attribute__((target("avx2,popcnt"), always_inline)) static inline void
raw_block(__m256i w, int64_t rem, __m256i *rerr, __m256i *rhist)
{
    const __m256i t1 = U8_TABLE(u8_first_hi), t2 = U8_TABLE(u8_first_lo);
    const __m256i t3 = U8_TABLE(u8_second_hi);
    __m256i wr = rem >= 32 ? w
                           : _mm256_and_si256(w, _mm256_cmpgt_epi8(_mm256_set1_epi8((char)rem),
                                                                   IOTA256));
    *rerr = _mm256_or_si256(*rerr, raw_step(wr, *rhist, t1, t2, t3));
    *rhist = wr;
}

/* The row's *check: PE_CHECK_ESC for bad escapes (esc_bad), PE_CHECK_RAW for
 * raw bytes that are not UTF-8 (the row's end checked when last_full) or not
 * settled here (raw_unsure). */
__attribute__((target("avx2,popcnt"), always_inline)) static inline int
blocks_check(int esc_bad, int last_full, __m256i rerr, __m256i rhist, int raw_unsure)
{
    const __m256i t1 = U8_TABLE(u8_first_hi), t2 = U8_TABLE(u8_first_lo);
    const __m256i t3 = U8_TABLE(u8_second_hi);
    if (last_full) {
        rerr = _mm256_or_si256(rerr, raw_step(_mm256_setzero_si256(), rhist, t1, t2, t3));
    }
    return (esc_bad ? PE_CHECK_ESC : 0) |
           (!_mm256_testz_si256(rerr, rerr) || raw_unsure ? PE_CHECK_RAW : 0);
}

#define RAW_JOINS 3
__attribute__((target("avx2,popcnt"), always_inline)) static inline int64_t
decode_row_blocks(const uint8_t *p, int64_t n, int64_t avail, uint8_t *o, int plus, int *check,
                  int raw, int escs)
{
    const __m256i pct = _mm256_set1_epi8('%'), pls = _mm256_set1_epi8('+');
    const __m256i spc = _mm256_set1_epi8(' ');
    const __m256i t1 = U8_TABLE(u8_first_hi), t2 = U8_TABLE(u8_first_lo);
    const __m256i t3 = U8_TABLE(u8_second_hi);
    const __m256i zero = _mm256_setzero_si256();
    __m256i hist = zero, err = zero;
    uint8_t *start = o;
    int64_t i = 0;
    int tail_bad = 0;
    /* The raw bytes' UTF-8 check: its errors, the bytes before the block,
     * whether a block was checked and whether it was the row's full last one. */
    __m256i rerr = zero, rhist = zero;
    uint32_t rprev = 0;
    int raw_unsure = 0, rfull = 0;
    /* RAW_JOINS: whether a meeting of raw bytes and escapes is bad (or the
     * row's end went byte by byte), the block's raw bytes that continue a
     * character, and whether the byte before the block is raw (not the
     * row's start) or an escape's last. */
    const __m256i xc0 = _mm256_set1_epi8((char)0xC0), x80 = _mm256_set1_epi8((char)0x80);
    uint32_t joins_bad = 0, contw = 0, after_raw = 0, after_esc = 0;
    while (i < n) {
        __m256i w, res, hexv, val, escv, dec;
        int64_t rem = n - i;
        uint32_t lim, pm, esc, cut;
        unsigned len;
        if (i + 32 > avail) {
            /* Too near the end of the readable bytes for a 32-byte load: the
             * rest byte by byte.  Its escape runs are checked by themselves,
             * so one that goes on from the blocks is flagged (then rescanned). */
            int utf8;
            if (raw == RAW_JOINS) {
                joins_bad = 1; /* the caller takes the row down the exact path */
            }
            if (raw == 1) {
                raw_unsure = tail_high(p, i, n, rhist); /* the caller checks the row */
                rprev = 0;
            }
            o += decode_utf8_row(p + i, n - i, avail - i, o, plus, &utf8);
            tail_bad = !utf8;
            break;
        }
        w = _mm256_loadu_si256((const __m256i *)(const void *)(p + i));
        len = rem >= 32 ? 32 : (unsigned)rem;
        lim = rem >= 32 ? 0xFFFFFFFFu : (1u << rem) - 1;
        if (raw == 1) {
            raw_block(w, rem, &rerr, &rhist);
            rprev = 1;
            rfull = rem >= 32; /* else the row's end is the zeros after it: checked */
        }
        res = w;
        if (plus) {
            res = _mm256_blendv_epi8(w, spc, _mm256_cmpeq_epi8(w, pls));
        }
        pm = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(w, pct)) & lim;
        if (raw == RAW_JOINS) {
            contw = (uint32_t)_mm256_movemask_epi8(
                _mm256_cmpeq_epi8(_mm256_and_si256(w, xc0), x80));
        }
        if (pm == 0) {
            if (raw == RAW_JOINS) {
                /* all raw: only its first byte can follow an escape */
                joins_bad |= after_esc & contw;
                after_esc = 0;
                after_raw = 1;
                _mm256_storeu_si256((__m256i *)(void *)o, res);
                o += len;
                i += len;
                continue;
            }
            if (escs) {
                err = _mm256_or_si256(err, u8_step(zero, hist, t1, t2, t3));
                hist = zero;
            }
            _mm256_storeu_si256((__m256i *)(void *)o, res);
            o += len;
            i += len;
            continue;
        }
        esc = block_hex(w, len, pm, &hexv, &val);
        cut = pm & 0xC0000000u;
        if (cut != 0) {
            unsigned k = (unsigned)__builtin_ctz(cut);
            if ((int64_t)k + 2 < rem) {
                len = k;
            }
        }
        escv = _mm256_and_si256(_mm256_cmpeq_epi8(w, pct),
                                _mm256_and_si256(ON256(hexv, 1), ON256(hexv, 2)));
        dec = _mm256_or_si256(_mm256_slli_epi16(ON256(val, 1), 4), ON256(val, 2));
        dec = _mm256_and_si256(escv, dec);
        if (raw == RAW_JOINS) {
            joins_bad |= joins_step(esc, len, dec, contw, &after_raw, &after_esc);
        }
        else if (!escs) {
            if (raw == 1 && len < 32 && (int64_t)len < rem) {
                rhist = len == 31 ? BACK256(rhist, zero, 1) : BACK256(rhist, zero, 2);
            }
        }
        else {
            esc_step(dec, len, rem, raw, &err, &hist, &rhist);
        }
        block_store(_mm256_blendv_epi8(res, dec, escv), esc, o);
        o += len - 2 * (unsigned)__builtin_popcount(esc);
        i += len;
    }
    if (escs) {
        err = _mm256_or_si256(err, u8_step(zero, hist, t1, t2, t3));
    }
    if (raw == RAW_JOINS) {
        *check = joins_bad ? PE_CHECK_ESC : 0;
        return o - start;
    }
    *check = blocks_check(escs && (!_mm256_testz_si256(err, err) || tail_bad),
                          raw && rprev && rfull, rerr, rhist, raw_unsure);
    return o - start;
}

__attribute__((target("avx2,popcnt"))) int64_t
decode_row_avx2(const uint8_t *p, int64_t n, int64_t avail, uint8_t *o, int plus, int *check,
                int raw)
{
    if (raw & PE_DEC_BYTES) {
        return raw & 1 ? decode_row_blocks(p, n, avail, o, plus, check, 1, 0)
                       : decode_row_blocks(p, n, avail, o, plus, check, 0, 0);
    }
    return raw ? decode_row_blocks(p, n, avail, o, plus, check, 1, 1)
               : decode_row_blocks(p, n, avail, o, plus, check, 0, 1);
}

/* Whether o[0:len] is UTF-8 (Encoding Standard §8.1.1), 32 bytes a step;
 * o has 32 bytes of room past len, which a load may read (and masks off). */
__attribute__((target("avx2,popcnt"))) static inline int
utf8_out_ok(const uint8_t *o, int64_t len)
{
    const __m256i t1 = U8_TABLE(u8_first_hi), t2 = U8_TABLE(u8_first_lo);
    const __m256i t3 = U8_TABLE(u8_second_hi);
    const __m256i iota = _mm256_setr_epi8(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
                                          16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28,
                                          29, 30, 31);
    __m256i prev = _mm256_setzero_si256(), err = prev;
    int64_t i;
    for (i = 0; i + 32 <= len; i += 32) {
        __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)(o + i));
        err = _mm256_or_si256(err, raw_step(w, prev, t1, t2, t3));
        prev = w;
    }
    {
        /* the rest (or nothing), with zeros after the end: a character cut
         * there shows as one that stops short */
        __m256i w = _mm256_loadu_si256((const __m256i *)(const void *)(o + i));
        w = _mm256_and_si256(w, _mm256_cmpgt_epi8(_mm256_set1_epi8((char)(len - i)), iota));
        err = _mm256_or_si256(err, raw_step(w, prev, t1, t2, t3));
    }
    return _mm256_testz_si256(err, err);
}

/* Whether any byte of the last three of b starts a UTF-8 sequence that
 * needs more bytes than are left in b (a 2-byte lead last, a 3-byte lead in
 * the last two, a 4-byte lead in the last three). */
__attribute__((target("avx2,popcnt"))) static inline int
u8_incomplete(__m256i b)
{
    const __m256i max = _mm256_setr_epi8(
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, (char)0xEF, (char)0xDF, (char)0xBF);
    __m256i over = _mm256_subs_epu8(b, max);
    return !_mm256_testz_si256(over, over);
}

/* The start of the last character that begins before p[i] (i > 0), or i:
 * where a byte-by-byte check can take over from the blocks below. */
static inline int64_t
u8_back(const uint8_t *p, int64_t i)
{
    int64_t k = i;
    while (k > 0 && i - k < 4) {
        k--;
        if ((p[k] & 0xC0) != 0x80) {
            return k;
        }
    }
    return i;
}

/* Length of the valid UTF-8 prefix of p[0:n] (Encoding Standard §8.1.1), or
 * of a shorter prefix that is valid (never one that is not): the window
 * check of row_utf8_known.  The "lookup" check of Keiser and Lemire
 * ("Validating UTF-8 In Less Than One Instruction Per Byte", Software:
 * Practice and Experience 51(5), 2021), 128 bytes a step: a step that is all
 * ASCII after a complete character costs four loads and a test; any other
 * is checked whole, each 32 bytes against the 3 before them (u8_pairs), with
 * no branch on which of its blocks hold what (in mixed text such branches
 * are mispredicted too often: the check costs less than the misses).  The
 * rest goes 32 bytes a step, the last (short) one overlapping the one
 * before.  The first step with an error is finished byte by byte from the
 * start of the character before it (the steps before are valid: they had no
 * error). */
#define U8_STEP 128

/* u8_pairs in 64-byte registers (the same tables in each 16-byte lane); the
 * three-way AND and the final "special ^ (must23 & 0x80)" are one ternary
 * logic op each. */
__attribute__((target("avx512f,avx512bw"))) static inline __m512i
u8_pairs512(const uint8_t *q, __m512i t1, __m512i t2, __m512i t3)
{
    const __m512i nib = _mm512_set1_epi8(0x0F);
    __m512i s = _mm512_loadu_si512((const void *)q), p1 = _mm512_loadu_si512((const void *)(q - 1));
    __m512i a = _mm512_shuffle_epi8(t1, _mm512_and_si512(_mm512_srli_epi16(p1, 4), nib));
    __m512i b = _mm512_shuffle_epi8(t2, _mm512_and_si512(p1, nib));
    __m512i c = _mm512_shuffle_epi8(t3, _mm512_and_si512(_mm512_srli_epi16(s, 4), nib));
    /* a third byte after E0-EF or a third or fourth after F0-F4: bit 7 set
     * after the saturating subtractions (0xE0 - 0x80, 0xF0 - 0x80) */
    __m512i must23 = _mm512_or_si512(
        _mm512_subs_epu8(_mm512_loadu_si512((const void *)(q - 2)), _mm512_set1_epi8(0x60)),
        _mm512_subs_epu8(_mm512_loadu_si512((const void *)(q - 3)), _mm512_set1_epi8(0x70)));
    __m512i special = _mm512_ternarylogic_epi64(a, b, c, 0x80); /* a & b & c */
    return _mm512_ternarylogic_epi64(special, must23, _mm512_set1_epi8((char)0x80),
                                     0x78); /* special ^ (must23 & 0x80) */
}

/* utf8_prefix_avx2's 128-byte steps from i (> 2: the 3 bytes before p + i
 * are readable) with AVX-512: the first step with an error (*bad set), or
 * where fewer than 128 bytes are left. */
__attribute__((target("avx512f,avx512bw"))) static int64_t
u8_steps512(const uint8_t *p, int64_t i, int64_t n, int *pending, int *bad)
{
#define U8_T512(t) _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i *)(const void *)(t)))
    const __m512i t1 = U8_T512(u8_first_hi), t2 = U8_T512(u8_first_lo);
    const __m512i t3 = U8_T512(u8_second_hi);
    for (; i + U8_STEP <= n; i += U8_STEP) {
        const uint8_t *q = p + i;
        __m512i any = _mm512_or_si512(_mm512_loadu_si512((const void *)q),
                                      _mm512_loadu_si512((const void *)(q + 64)));
        if (*pending || _mm512_movepi8_mask(any) != 0) {
            __m512i e = _mm512_or_si512(u8_pairs512(q, t1, t2, t3),
                                        u8_pairs512(q + 64, t1, t2, t3));
            if (_mm512_test_epi8_mask(e, e) != 0) {
                *bad = 1;
                return i;
            }
            *pending = q[127] >= 0xC0 || q[126] >= 0xE0 || q[125] >= 0xF0;
        }
    }
    return i;
}

__attribute__((target("avx2,popcnt"))) int64_t
utf8_prefix_avx2(const uint8_t *p, int64_t n)
{
    const __m256i t1 = U8_TABLE(u8_first_hi), t2 = U8_TABLE(u8_first_lo);
    const __m256i t3 = U8_TABLE(u8_second_hi);
    int64_t i = 0, end, k;
    int pending = 0; /* the bytes before i end inside a character */
    __m256i e;
    if (n >= 32) {
        /* the first 32 bytes: nothing before p to load */
        __m256i a = _mm256_loadu_si256((const __m256i *)(const void *)p);
        e = raw_step(a, _mm256_setzero_si256(), t1, t2, t3);
        if (!_mm256_testz_si256(e, e)) {
            end = 32;
            goto exact;
        }
        pending = u8_incomplete(a);
        i = 32;
        if (pe_u8_wide) {
            int bad = 0;
            i = u8_steps512(p, i, n, &pending, &bad);
            if (bad) {
                end = i + U8_STEP;
                goto exact;
            }
        }
    }
    while (i + U8_STEP <= n) {
        const uint8_t *q = p + i;
        __m256i d = _mm256_loadu_si256((const __m256i *)(const void *)(q + 96));
        __m256i any = _mm256_or_si256(
            _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)q),
                            _mm256_loadu_si256((const __m256i *)(const void *)(q + 32))),
            _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(const void *)(q + 64)), d));
        if (pending || _mm256_movemask_epi8(any) != 0) {
            e = _mm256_or_si256(
                _mm256_or_si256(raw_step_at(q, t1, t2, t3), raw_step_at(q + 32, t1, t2, t3)),
                _mm256_or_si256(raw_step_at(q + 64, t1, t2, t3), raw_step_at(q + 96, t1, t2, t3)));
            if (!_mm256_testz_si256(e, e)) {
                end = i + U8_STEP;
                goto exact;
            }
            pending = u8_incomplete(d);
        }
        i += U8_STEP;
    }
    while (i + 32 <= n) {
        e = raw_step_at(p + i, t1, t2, t3);
        if (!_mm256_testz_si256(e, e)) {
            end = i + 32;
            goto exact;
        }
        i += 32;
    }
    if (n >= 35) {
        /* the last 32 bytes (again, or some of them), and the end: no
         * character cut there */
        __m256i last = _mm256_loadu_si256((const __m256i *)(const void *)(p + n - 32));
        e = raw_step_at(p + n - 32, t1, t2, t3);
        if (_mm256_testz_si256(e, e) && !u8_incomplete(last)) {
            return n;
        }
    }
    end = n;
exact:
    k = i > 0 ? u8_back(p, i) : 0;
    return k + utf8_valid_prefix(p + k, end - k);
}

/* decode_text's loop for a string column, the rows the block decoder
 * finishes alone: from row i on, while a row is null, or decodes to surely
 * valid UTF-8 with room to spare in o.  Returns the first row it leaves to
 * run_rows (one that needs the UTF-8 check or more room), or r1. */
__attribute__((target("avx2,popcnt"))) int64_t
decode_text_rows_avx2(Job *j, const InChunk *c, int64_t i, int64_t r1, OutChunk *o, int64_t r0)
{
    for (; i < r1; i++) {
        int64_t start = o->data_len, n, len;
        int check = 0;
        if (in_valid(c, i)) {
            const uint8_t *p = in_row(c, i, &n);
            if (o->data_cap - start < n + PE_OUT_SLACK) {
                return i;
            }
            if (p == NULL) {
                return i; /* malformed offsets: run_rows reports the row */
            }
            /* The row's raw bytes UTF-8 (a string column's row need not be:
             * then it is read with U+FFFD first, in run_rows), and its escape
             * runs each UTF-8 by themselves: checked as one, RAW_JOINS. */
#ifdef PE_ARROW_UNCHECKED
            /* the measuring build (arrow.h): the raw bytes trusted */
            len = decode_row_blocks(p, n, in_avail(c, i, p, n, j->data_end), o->data + start,
                                    j->plus, &check, 0, 1);
            if (check) {
                return i;
            }
#else
            len = decode_row_blocks(p, n, in_avail(c, i, p, n, j->data_end), o->data + start,
                                    j->plus, &check, RAW_JOINS, 1);
            if (check || !utf8_out_ok(o->data + start, len)) {
                return i;
            }
#endif
            o->data_len += len;
            if (out_row(o, i - r0, 1, start) < 0) {
                o->data_len = start;
                return i;
            }
        }
        else if (out_row(o, i - r0, 0, start) < 0) {
            return i;
        }
    }
    return i;
}

#else

void
blocks_init(void)
{
}

int
blocks_supported(void)
{
    return 0;
}

int
wide_supported(void)
{
    return 0;
}

int64_t
decode_text_rows_avx2(Job *j, const InChunk *c, int64_t i, int64_t r1, OutChunk *o, int64_t r0)
{
    (void)j;
    (void)c;
    (void)r1;
    (void)o;
    (void)r0;
    return i; /* never called: pe_blocks_ok stays 0 */
}

int64_t
decode_row_avx2(const uint8_t *p, int64_t n, int64_t avail, uint8_t *o, int plus, int *check,
                int raw)
{
    (void)p;
    (void)n;
    (void)avail;
    (void)o;
    (void)plus;
    (void)raw;
    *check = 1;
    return -1; /* never called: pe_blocks_ok stays 0 */
}

int64_t
utf8_prefix_avx2(const uint8_t *p, int64_t n)
{
    return utf8_valid_prefix(p, n); /* never called: pe_blocks_ok stays 0 */
}

#endif
