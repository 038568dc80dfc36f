/* url_idna.c: the xn-- labels of an ASCII domain, in C (see url_host.c).
 *
 * URL Standard §3.3 "domain to ASCII": an ASCII domain is only lower-cased
 * (the run with beStrict false never fails on one), and the run with
 * beStrict true decides whether the host gets the domain-to-ASCII validation
 * error.  That strict run is UTS #46 §4.2 ToASCII with CheckHyphens,
 * UseSTD3ASCIIRules and VerifyDnsLength on, CheckBidi and CheckJoiners on,
 * nontransitional, IgnoreInvalidPunycode off.  url_host.c's scan has already
 * applied everything an ASCII label decides by itself (LDH, hyphens, label
 * and domain lengths); what is left is here: each xn-- label is decoded
 * (RFC 3492 §6.2) and must pass the UTS #46 §4.1 validity criteria
 * (NFC, hyphens, no leading mark, status valid or deviation, ContextJ of
 * RFC 5892 Appendix A), and a domain with a right-to-left character gets the
 * RFC 5893 §2 Bidi rule on every label.  Only a yes/no comes out (the URL
 * parser reports one error name at host offset 0), so the checks may run in
 * any order.  The length checks on the input labels are exact because a
 * label that decodes is the canonical encoding of what it decodes to (the
 * decoder fixes the insertion order, and each delta has one spelling), so
 * ToASCII's re-encoding gives it back unchanged.
 *
 * Mirrors percent_encoding.url._idna (uts46_process, _validate, _context_j_ok,
 * _bidi_ok, _punycode_decode) step for step; the tables are generated from
 * the same data (_idna_tables.h).  NFC: the pure twin's check follows the
 * mapping table's Unicode version (url/_nfc.py); here a label the NFC quick
 * check passes with the classes of the code points the generating Python knew
 * (see tools/gen_idna_tables.py: sound for that version too, by Unicode's
 * stability policy, and tests/test_url_idna_c.py holds it to it) is NFC at
 * once, and any other label is put to the pure twin's own check (the
 * nfc_check callable url_setup was given), so both twins agree on every
 * Python. */
#include "url.h"

#include "_idna_tables.h"

PyObject *nfc_check; /* url_setup's nfc_check: (str) -> bool, or NULL */

#define N_OF(a) ((Py_ssize_t)(sizeof(a) / sizeof((a)[0])))

/* how many of the sorted starts t[0:n) are <= cp */
static Py_ssize_t
upto(const uint32_t *t, Py_ssize_t n, Py_UCS4 cp)
{
    Py_ssize_t lo = 0, hi = n;
    while (lo < hi) {
        Py_ssize_t mid = (lo + hi) / 2;
        if (t[mid] <= cp) {
            lo = mid + 1;
        }
        else {
            hi = mid;
        }
    }
    return lo;
}

/* the two-stage tables of _idna_tables.h; cp <= U+10FFFF */
#define STAGE2(name, cp) name##_2[(name##_1[(cp) >> 8] << 8) | ((cp) & 0xFF)]
#define PROP_VALID 1
#define PROP_MARK 2
#define BIDI(cp) (STAGE2(IDNA_PROP, (cp)) >> 2)

static int
joining_of(Py_UCS4 cp)
{
    return IDNA_JOIN_TYPES[upto(IDNA_JOIN_STARTS, N_OF(IDNA_JOIN_STARTS), cp) - 1];
}

static int
is_virama(Py_UCS4 cp)
{
    Py_ssize_t k = upto(IDNA_VIRAMA, N_OF(IDNA_VIRAMA), cp);
    return k > 0 && IDNA_VIRAMA[k - 1] == cp;
}

/* RFC 3492 §6.2 with the pure twin's bounds (maxint 2^31 - 1, code points up
 * to U+10FFFF); s[0:n) is lower case.  Writes at most n code points. */
enum { BASE = 36, TMIN = 1, TMAX = 26, SKEW = 38, DAMP = 700 };
#define PMAX ((int64_t)0x7FFFFFFF)

static int64_t
adapt(int64_t delta, int64_t numpoints, int first)
{
    int64_t k = 0;
    delta = first ? delta / DAMP : delta / 2;
    delta += delta / numpoints;
    while (delta > ((BASE - TMIN) * TMAX) / 2) {
        delta /= BASE - TMIN;
        k += BASE;
    }
    return k + (BASE - TMIN + 1) * delta / (delta + SKEW);
}

static int
punycode_decode(const char *s, Py_ssize_t n, Py_UCS4 *out, Py_ssize_t *outlen)
{
    Py_ssize_t d = -1, pos, len = 0, j;
    int64_t nn = 128, i = 0, bias = 72;
    for (j = 0; j < n; j++) {
        if (s[j] == '-') {
            d = j;
        }
    }
    if (d > 0) {
        for (j = 0; j < d; j++) {
            out[len++] = (Py_UCS4)(unsigned char)s[j];
        }
        pos = d + 1;
    }
    else {
        pos = 0;
    }
    while (pos < n) {
        int64_t oldi = i, w = 1, k = BASE, t, dv;
        for (;;) {
            unsigned char c;
            if (pos >= n) {
                return 0; /* truncated */
            }
            c = (unsigned char)s[pos++];
            if (c >= '0' && c <= '9') {
                dv = c - 22;
            }
            else if (c >= 'a' && c <= 'z') {
                dv = c - 'a';
            }
            else {
                return 0; /* not a digit (upper case was lowered before) */
            }
            if (dv > (PMAX - i) / w) {
                return 0;
            }
            i += dv * w;
            t = k <= bias ? TMIN : k >= bias + TMAX ? TMAX : k - bias;
            if (dv < t) {
                break;
            }
            if (w > PMAX / (BASE - t)) {
                return 0;
            }
            w *= BASE - t;
            k += BASE;
        }
        bias = adapt(i - oldi, len + 1, oldi == 0);
        if (i / (len + 1) > PMAX - nn) {
            return 0;
        }
        nn += i / (len + 1);
        i %= len + 1;
        if (nn > 0x10FFFF) {
            return 0;
        }
        memmove(out + i + 1, out + i, (size_t)(len - i) * sizeof(Py_UCS4));
        out[i] = (Py_UCS4)nn;
        len++;
        i++;
    }
    *outlen = len;
    return 1;
}

/* RFC 5892 Appendix A.1 and A.2 for the joiner at l[i] */
static int
context_j_ok(const Py_UCS4 *l, Py_ssize_t n, Py_ssize_t i)
{
    Py_ssize_t j;
    int jt;
    if (i > 0 && is_virama(l[i - 1])) {
        return 1;
    }
    if (l[i] == 0x200D) {
        return 0;
    }
    for (j = i - 1; j >= 0 && joining_of(l[j]) == IDNA_JOIN_T; j--) {
    }
    if (j < 0 || ((jt = joining_of(l[j])) != IDNA_JOIN_L && jt != IDNA_JOIN_D)) {
        return 0;
    }
    for (j = i + 1; j < n && joining_of(l[j]) == IDNA_JOIN_T; j++) {
    }
    return j < n && ((jt = joining_of(l[j])) == IDNA_JOIN_R || jt == IDNA_JOIN_D);
}

/* UTS #46 §4.1 criteria 2-7 on a decoded label (CheckHyphens, STD3 rules,
 * CheckJoiners, nontransitional); *nfc: the NFC quick check (UAX #15 §9)
 * said yes with this Python's classes (see tools/gen_idna_tables.py). */
static int
label_valid(const Py_UCS4 *l, Py_ssize_t n, int *nfc)
{
    Py_ssize_t i;
    int last = 0;
    if ((n >= 4 && l[2] == '-' && l[3] == '-') || l[0] == '-' || l[n - 1] == '-') {
        return 0;
    }
    if (STAGE2(IDNA_PROP, l[0]) & PROP_MARK) {
        return 0;
    }
    *nfc = 1;
    for (i = 0; i < n; i++) {
        Py_UCS4 c = l[i];
        int ccc;
        if (c < 0x80) {
            /* UseSTD3ASCIIRules: letters, digits, hyphen (a '.' fails too) */
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return 0;
            }
            last = 0;
            continue;
        }
        if (!(STAGE2(IDNA_PROP, c) & PROP_VALID)) {
            return 0;
        }
        ccc = STAGE2(IDNA_NFC, c);
        if (ccc == IDNA_NFC_UNKNOWN || (ccc != 0 && last > ccc)) {
            *nfc = 0; /* maybe not NFC: Python decides */
        }
        last = ccc;
    }
    for (i = 0; i < n; i++) {
        if ((l[i] == 0x200C || l[i] == 0x200D) && !context_j_ok(l, n, i)) {
            return 0;
        }
    }
    return 1;
}

/* RFC 5893 §2 rules 1-6 on one label */
static int
bidi_ok(const Py_UCS4 *l, Py_ssize_t n)
{
    Py_ssize_t i, end = n;
    int first = BIDI(l[0]), last, en = 0, an = 0;
    if (first != IDNA_BIDI_L && first != IDNA_BIDI_R && first != IDNA_BIDI_AL) {
        return 0;
    }
    while (end > 0 && BIDI(l[end - 1]) == IDNA_BIDI_NSM) {
        end--;
    }
    last = end ? BIDI(l[end - 1]) : -1;
    for (i = 0; i < n; i++) {
        int b = BIDI(l[i]);
        int shared = b == IDNA_BIDI_EN || b == IDNA_BIDI_ES || b == IDNA_BIDI_CS ||
                     b == IDNA_BIDI_ET || b == IDNA_BIDI_ON || b == IDNA_BIDI_BN ||
                     b == IDNA_BIDI_NSM;
        if (first == IDNA_BIDI_L) {
            if (!shared && b != IDNA_BIDI_L) {
                return 0; /* rule 5 */
            }
        }
        else if (!shared && b != IDNA_BIDI_R && b != IDNA_BIDI_AL && b != IDNA_BIDI_AN) {
            return 0; /* rule 2 */
        }
        en |= b == IDNA_BIDI_EN;
        an |= b == IDNA_BIDI_AN;
    }
    if (first == IDNA_BIDI_L) {
        return last == IDNA_BIDI_L || last == IDNA_BIDI_EN; /* rule 6 */
    }
    /* rules 3 and 4 */
    return (last == IDNA_BIDI_R || last == IDNA_BIDI_AL || last == IDNA_BIDI_EN ||
            last == IDNA_BIDI_AN) &&
           !(en && an);
}

/* the pure twin's NFC check on l[0:n); 1 yes, 0 no, -1 error */
static int
nfc_ok(const Py_UCS4 *l, Py_ssize_t n)
{
    PyObject *s, *r;
    int ok;
    s = PyUnicode_FromKindAndData(PyUnicode_4BYTE_KIND, l, n);
    if (s == NULL) {
        return -1;
    }
    r = PyObject_CallOneArg(nfc_check, s);
    Py_DECREF(s);
    if (r == NULL) {
        return -1;
    }
    ok = PyObject_IsTrue(r);
    Py_DECREF(r);
    return ok;
}

/* The strict run's VerifyDnsLength: a longer domain fails it with nothing to
 * decode (url_host.c's domain_scan calls url_idna_strict only for one of at
 * most 253), which also bounds the buffers below and punycode_decode's
 * insertions (memmove, O(n^2) in general) to 253 code points. */
#define DOMAIN_MAX 253

int
url_idna_strict(UrlParser *P, const char *d, Py_ssize_t m)
{
    Py_UCS4 buf[DOMAIN_MAX + 1];
    Py_ssize_t starts[DOMAIN_MAX + 1], lens[DOMAIN_MAX + 1];
    int xn[DOMAIN_MAX + 1], nfc[DOMAIN_MAX + 1];
    Py_ssize_t nlab = 0, used = 0, a = 0, j, k;
    int rtl = 0;
    if (m > DOMAIN_MAX) {
        return 0;
    }
    for (j = 0; j <= m; j++) {
        Py_ssize_t n;
        if (j < m && d[j] != '.') {
            continue;
        }
        n = j - a;
        starts[nlab] = used;
        nfc[nlab] = 1;
        xn[nlab] = n >= 4 && memcmp(d + a, "xn--", 4) == 0;
        if (xn[nlab]) {
            if (!punycode_decode(d + a + 4, n - 4, buf + used, &n)) {
                return 0;
            }
            for (k = 0; k < n && buf[used + k] < 0x80; k++) {
            }
            if (k == n || !label_valid(buf + used, n, &nfc[nlab])) {
                return 0; /* empty or ASCII after decoding, or invalid */
            }
            for (k = 0; k < n; k++) {
                Py_UCS4 c = buf[used + k];
                int b;
                if (c >= 0x80 && ((b = BIDI(c)) == IDNA_BIDI_R || b == IDNA_BIDI_AL ||
                                  b == IDNA_BIDI_AN)) {
                    rtl = 1;
                }
            }
        }
        else {
            for (k = 0; k < n; k++) {
                buf[used + k] = (Py_UCS4)(unsigned char)d[a + k];
            }
        }
        lens[nlab++] = n;
        used += n;
        a = j + 1;
    }
    /* CheckBidi (UTS #46 §4.1 criterion 8) in a Bidi domain name */
    for (k = 0; rtl && k < nlab; k++) {
        if (lens[k] > 0 && !bidi_ok(buf + starts[k], lens[k])) {
            return 0;
        }
    }
    for (k = 0; k < nlab; k++) {
        if (xn[k] && !nfc[k]) {
            int ok;
            if (nfc_check == NULL || P->nogil) {
                return -2; /* Python is needed: the host hook decides */
            }
            if ((ok = nfc_ok(buf + starts[k], lens[k])) <= 0) {
                return ok;
            }
        }
    }
    return 1;
}
