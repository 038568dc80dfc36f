"""Domain to ASCII as the URL Standard asks: UTS #46 processing, no IDNA2008.

Strategy: :func:`domain_to_ascii` is UTS #46 §4.2 ToASCII with the flags the
URL Standard's "domain to ASCII" sets (§3.3: CheckHyphens and
UseSTD3ASCIIRules and VerifyDnsLength follow ``be_strict``; CheckBidi and
CheckJoiners on; nontransitional; invalid Punycode is an error).  Every
recorded error ends in :class:`IDNAError` naming the label and the rule.
:func:`domain_to_unicode` is §4.3 ToUnicode with the same flags.

Data: the IDNA Mapping Table, Mark, Virama, Joining_Type and Bidi_Class come
from tables generated at development time (``_uts46_data``,
``tools/gen_uts46.py``) so the library needs nothing at run time and follows
the current Unicode, not the runtime's.  NFC is the same version's too
(``_nfc``: the runtime's ``unicodedata`` for what it knows, the generated
``_nfc_data`` for a string holding a character only newer Unicode has).

Punycode (RFC 3492) is written here: Python's codec accepts inputs the RFC
says to reject (overflow, non-basic code points) and raises its own errors.
"""

from __future__ import annotations

from bisect import bisect_right
from functools import lru_cache
from types import ModuleType

from ..errors import PercentEncodingError
from . import _nfc

__all__ = [
    "IDNAError",
    "ascii_labels",
    "domain_to_ascii",
    "domain_to_unicode",
    "is_nfc",
    "punycode_decode",
    "punycode_encode",
    "uts46_map",
    "uts46_process",
]


class IDNAError(PercentEncodingError):
    """A UTS #46 error was recorded; ``rule`` names it, ``label`` is the label index."""

    def __init__(self, rule: str, label: int, detail: str = "") -> None:
        super().__init__(f"UTS #46 {rule} in label {label}" + (f": {detail}" if detail else ""))
        self.rule = rule
        self.label = label


_data: ModuleType | None = None


def _tables() -> ModuleType:
    global _data
    if _data is None:
        from . import _uts46_data

        _data = _uts46_data
    return _data


# --- Punycode (RFC 3492 §5, §6) --------------------------------------------

_BASE, _TMIN, _TMAX, _SKEW, _DAMP, _INITIAL_BIAS, _INITIAL_N = 36, 1, 26, 38, 700, 72, 128
_MAXINT = 0x7FFFFFFF


class _PunycodeError(Exception):
    pass


def _adapt(delta: int, numpoints: int, first: bool) -> int:
    delta = delta // _DAMP if first else delta // 2
    delta += delta // numpoints
    k = 0
    while delta > ((_BASE - _TMIN) * _TMAX) // 2:
        delta //= _BASE - _TMIN
        k += _BASE
    return k + (_BASE - _TMIN + 1) * delta // (delta + _SKEW)


def _digit_value(ch: str) -> int:
    o = ord(ch)
    if 0x30 <= o <= 0x39:
        return o - 22
    if 0x41 <= o <= 0x5A:
        return o - 0x41
    if 0x61 <= o <= 0x7A:
        return o - 0x61
    raise _PunycodeError(f"invalid digit {ch!r}")


def punycode_decode(text: str) -> str:
    """RFC 3492 §6.2 decoding; raises ``ValueError`` on bad input or overflow.

        >>> punycode_decode("mnchen-3ya")
        'münchen'
    """
    try:
        return _punycode_decode(text)
    except _PunycodeError as e:
        raise PercentEncodingError(f"invalid Punycode {text!r}: {e}") from None


def _punycode_decode(text: str) -> str:
    # RFC 3492 §6.2, with its overflow checks (maxint 2^31 - 1).  The RFC's
    # decoder inserts each code point into the output as it goes, which costs
    # O(n) a step; here the steps only record (index, code point), and
    # _place puts them all at the end in O(n log n).
    if not text.isascii():
        raise _PunycodeError("non-ASCII input")
    d = text.rfind("-")
    basic = text[:d] if d > 0 else ""
    pos = d + 1 if d > 0 else 0
    n, i, bias = _INITIAL_N, 0, _INITIAL_BIAS
    length = len(text)
    count = len(basic)  # the output's length so far
    at: list[int] = []
    cps: list[int] = []
    while pos < length:
        oldi, w, k = i, 1, _BASE
        while True:
            if pos >= length:
                raise _PunycodeError("truncated")
            digit = _digit_value(text[pos])
            pos += 1
            if digit > (_MAXINT - i) // w:
                raise _PunycodeError("overflow")
            i += digit * w
            t = _TMIN if k <= bias else _TMAX if k >= bias + _TMAX else k - bias
            if digit < t:
                break
            if w > _MAXINT // (_BASE - t):
                raise _PunycodeError("overflow")
            w *= _BASE - t
            k += _BASE
        count += 1
        bias = _adapt(i - oldi, count, oldi == 0)
        if i // count > _MAXINT - n:
            raise _PunycodeError("overflow")
        n += i // count
        i %= count
        if n > 0x10FFFF:
            raise _PunycodeError("code point out of range")
        at.append(i)
        cps.append(n)
        i += 1
    return _place(basic, at, cps)


def _place(basic: str, at: list[int], cps: list[int]) -> str:
    # The output of RFC 3492 §6.2's insertions: cps[k] was inserted at index
    # at[k] of the output then.  Walking the insertions last first, each one
    # takes the free slot of rank at[k] among the final slots (the later ones
    # are already placed around it), found in a Fenwick tree of the free slots
    # in O(log n); the basic code points fill the slots left, in order.
    if len(at) < 64:
        out = list(basic)
        for k, cp in zip(at, cps, strict=True):
            out.insert(k, chr(cp))
        return "".join(out)
    size = len(basic) + len(at)
    tree = [i & -i for i in range(size + 1)]  # every slot free: a 1 at each
    top = 1 << (size.bit_length() - 1)
    slots: list[str] = [""] * size
    for k in range(len(at) - 1, -1, -1):
        rank, p, step = at[k] + 1, 0, top
        while step:
            q = p + step
            if q <= size and tree[q] < rank:
                p = q
                rank -= tree[q]
            step >>= 1
        slots[p] = chr(cps[k])
        q = p + 1
        while q <= size:
            tree[q] -= 1
            q += q & -q
    it = iter(basic)
    return "".join(s or next(it) for s in slots)


def punycode_encode(text: str) -> str:
    """RFC 3492 §6.3 encoding; raises ``ValueError`` on overflow (§6.4).

        >>> punycode_encode("münchen")
        'mnchen-3ya'
    """
    try:
        return _punycode_encode(text)
    except _PunycodeError as e:
        raise PercentEncodingError(f"cannot encode {text[:20]!r}... in Punycode: {e}") from None


def _punycode_encode(text: str) -> str:
    # RFC 3492 §6.3 with its overflow checks (§6.4, maxint 2^31 - 1), in
    # O(n log n).  The RFC walks the whole input once per distinct code point;
    # what the walk adds to delta before each occurrence of n is the number of
    # code points below n since the previous one.  So the distinct code points
    # are sorted once, and a Fenwick tree over the positions, holding a 1 at
    # each code point below n, counts them in O(log n).
    size = len(text)
    out = [c for c in text if c < "\x80"]
    b = h = len(out)
    if b:
        out.append("-")
    if b == size:
        return "".join(out)
    where: dict[int, list[int]] = {}
    tree = [0] * (size + 1)
    for j, ch in enumerate(text):
        if ch < "\x80":
            tree[j + 1] = 1
        else:
            where.setdefault(ord(ch), []).append(j)
    for j in range(1, size + 1):  # the tree of the basic positions, in O(n)
        up = j + (j & -j)
        if up <= size:
            tree[up] += tree[j]
    n, delta, bias = _INITIAL_N, 0, _INITIAL_BIAS
    for m in sorted(where):
        if m - n > (_MAXINT - delta) // (h + 1):
            raise _PunycodeError("overflow")
        delta += (m - n) * (h + 1)
        n = m
        below = h  # the code points below n
        seen = 0  # of those, the ones before the last occurrence
        positions = where[m]
        for j in positions:
            q, upto = j, 0
            while q:
                upto += tree[q]
                q &= q - 1
            delta += upto - seen
            seen = upto
            if delta > _MAXINT:
                raise _PunycodeError("overflow")
            q, k = delta, _BASE
            while True:
                t = _TMIN if k <= bias else _TMAX if k >= bias + _TMAX else k - bias
                if q < t:
                    break
                dgt = t + (q - t) % (_BASE - t)
                out.append(chr(dgt + 22 + 75 * (dgt < 26)))
                q = (q - t) // (_BASE - t)
                k += _BASE
            out.append(chr(q + 22 + 75 * (q < 26)))
            bias = _adapt(delta, h + 1, h == b)
            delta = 0
            h += 1
        delta += below - seen
        if delta > _MAXINT:
            raise _PunycodeError("overflow")
        for j in positions:
            q = j + 1
            while q <= size:
                tree[q] += 1
                q += q & -q
        delta += 1
        n += 1
    return "".join(out)


def ascii_labels(labels: list[str]) -> list[str]:
    """UTS #46 §4.2 ToASCII step 3: each label that is not ASCII in Punycode, after "xn--".

    Raises :class:`IDNAError` when RFC 3492 §6.4 overflows (a label of
    thousands of code points far apart), the error that step records.

        >>> ascii_labels(["bücher", "example"])
        ['xn--bcher-kva', 'example']
    """
    out: list[str] = []
    for idx, lab in enumerate(labels):
        if lab.isascii():
            out.append(lab)
            continue
        try:
            out.append("xn--" + _punycode_encode(lab))
        except _PunycodeError as e:
            raise IDNAError("4.2 (Punycode)", idx, str(e)) from None
    return out


# --- UTS #46 ---------------------------------------------------------------


def _status(cp: int) -> tuple[str, str | None]:
    d = _tables()
    i = bisect_right(d.MAP_STARTS, cp) - 1
    return d.MAP_STATUS[i], d.MAP_REPL[i]


def uts46_map(domain: str, transitional: bool = False) -> str:
    """UTS #46 §4 step 1, the mapping (deviations stay unless ``transitional``).

    Since Unicode 15.1 the table maps U+1E9E (capital sharp s) to U+00DF, a
    deviation; with Transitional_Processing the Map step gives it "ss" at
    once instead, so one pass maps it as it maps U+00DF.

        >>> uts46_map("FA\u1E9E"), uts46_map("FA\u1E9E", transitional=True)
        ('fa\xdf', 'fass')
    """
    out: list[str] = []
    for ch in domain:
        cp = ord(ch)
        if 0x61 <= cp <= 0x7A or 0x30 <= cp <= 0x39 or cp in (0x2D, 0x2E):
            out.append(ch)
            continue
        st, repl = _status(cp)
        if cp == 0x1E9E and transitional:
            out.append("ss")
        elif st == "M" or (st == "D" and transitional):
            assert repl is not None
            out.append(repl)
        elif st != "I":
            out.append(ch)
    return "".join(out)


def _is_mark(cp: int) -> bool:
    return bisect_right(_tables().MARK_EDGES, cp) % 2 == 1


def _joining(cp: int) -> str:
    d = _tables()
    return str(d.JOIN_TYPES[bisect_right(d.JOIN_STARTS, cp) - 1])


def _bidi(cp: int) -> str:
    d = _tables()
    code = d.BIDI_CODES[bisect_right(d.BIDI_STARTS, cp) - 1]
    return str(d.BIDI_NAMES[ord(code) - 65])


def _context_j_ok(label: str, i: int) -> bool:
    # RFC 5892 Appendix A.1 (ZWNJ) and A.2 (ZWJ).
    virama = _tables().VIRAMA
    if i > 0 and ord(label[i - 1]) in virama:
        return True
    if label[i] == "\u200d":
        return False
    j = i - 1
    while j >= 0 and _joining(ord(label[j])) == "T":
        j -= 1
    if j < 0 or _joining(ord(label[j])) not in ("L", "D"):
        return False
    j = i + 1
    while j < len(label) and _joining(ord(label[j])) == "T":
        j += 1
    return j < len(label) and _joining(ord(label[j])) in ("R", "D")


_RTL_ALLOWED = frozenset(("R", "AL", "AN", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))
_LTR_ALLOWED = frozenset(("L", "EN", "ES", "CS", "ET", "ON", "BN", "NSM"))


def _bidi_ok(label: str) -> str | None:
    # RFC 5893 §2, rules 1-6; returns the failing rule or None.
    classes = [_bidi(ord(c)) for c in label]
    first = classes[0]
    if first not in ("L", "R", "AL"):
        return "bidi rule 1"
    end = len(classes)
    while end > 0 and classes[end - 1] == "NSM":
        end -= 1
    last = classes[end - 1] if end else ""
    if first in ("R", "AL"):
        if any(c not in _RTL_ALLOWED for c in classes):
            return "bidi rule 2"
        if last not in ("R", "AL", "EN", "AN"):
            return "bidi rule 3"
        if "EN" in classes and "AN" in classes:
            return "bidi rule 4"
        return None
    if any(c not in _LTR_ALLOWED for c in classes):
        return "bidi rule 5"
    if last not in ("L", "EN"):
        return "bidi rule 6"
    return None


def is_nfc(label: str) -> bool:
    """Whether ``label`` is in NFC, with the UTS #46 table's Unicode version (``_nfc``).

    UTS #46 §4.1 criterion 1.  The C host parser (``src/csrc/url_idna.c``)
    calls this same function for a label it cannot settle from its tables, so
    both twins give one answer on every Unicode version.

        >>> is_nfc("caf\u00e9"), is_nfc("cafe\u0301"), is_nfc("\U000105D2\u0307")
        (True, False, False)
    """
    return _nfc.is_nfc(label)


def _validate(label: str, index: int, check_hyphens: bool, std3: bool,
              check_joiners: bool = True, transitional: bool = False) -> None:
    # UTS #46 §4.1 validity criteria.
    if not is_nfc(label):
        raise IDNAError("validity 1 (not NFC)", index)
    if check_hyphens:
        if label[2:4] == "--":
            raise IDNAError("validity 2 (hyphens in positions 3-4)", index)
        if label.startswith("-") or label.endswith("-"):
            raise IDNAError("validity 3 (leading or trailing hyphen)", index)
    elif label.startswith("xn--"):
        raise IDNAError("validity 2 (xn-- prefix)", index)
    if "." in label:
        raise IDNAError("validity 4 (full stop)", index)
    if _is_mark(ord(label[0])):
        raise IDNAError("validity 5 (leading combining mark)", index)
    for i, ch in enumerate(label):
        cp = ord(ch)
        if cp < 0x80:
            if 0x61 <= cp <= 0x7A or 0x30 <= cp <= 0x39 or cp == 0x2D:
                continue
            if std3:
                raise IDNAError("validity 6 (UseSTD3ASCIIRules)", index, f"U+{cp:04X}")
        st, _ = _status(cp)
        if st != "V" and (st != "D" or transitional):
            raise IDNAError("validity 6 (status not valid)", index, f"U+{cp:04X} at {i}")
    if not check_joiners:
        return
    for i, ch in enumerate(label):
        if ch in "\u200c\u200d" and not _context_j_ok(label, i):
            raise IDNAError("validity 7 (ContextJ)", index, f"U+{ord(ch):04X} at {i}")


def uts46_process(
    domain: str,
    check_hyphens: bool,
    std3: bool,
    check_bidi: bool = True,
    check_joiners: bool = True,
    transitional: bool = False,
    ignore_invalid_punycode: bool = False,
) -> tuple[list[str], list[IDNAError]]:
    """UTS #46 §4 Processing: map, normalize, break, convert/validate.

    Returns the labels (decoded) and the errors recorded, first first.
    """
    # §4 step 2: NFC at the mapping table's Unicode version
    text = _nfc.nfc(uts46_map(domain, transitional))
    labels = text.split(".")
    errors: list[IDNAError] = []
    for idx, label in enumerate(labels):
        if label.startswith("xn--"):
            if not label.isascii():
                errors.append(IDNAError("4.1 (non-ASCII in an xn-- label)", idx))
                continue
            try:
                decoded = _punycode_decode(label[4:])
            except _PunycodeError as e:
                if not ignore_invalid_punycode:
                    errors.append(IDNAError("4.1 (Punycode)", idx, str(e)))
                    continue
                decoded = label
            else:
                if decoded == "" or decoded.isascii():
                    errors.append(IDNAError("4.1 (xn-- label decodes to ASCII)", idx))
                    continue
            labels[idx] = decoded
            label = decoded
            # A decoded label is checked as nontransitional whatever the flag (§4 step 4).
            try:
                _validate(label, idx, check_hyphens, std3, check_joiners, False)
            except IDNAError as e:
                errors.append(e)
            continue
        if label == "":
            continue
        try:
            _validate(label, idx, check_hyphens, std3, check_joiners, transitional)
        except IDNAError as e:
            errors.append(e)
    # CheckBidi (UTS #46 §4.1 step 8): only in a Bidi domain name.
    if check_bidi and not errors and any(
        _bidi(ord(c)) in ("R", "AL", "AN") for lab in labels for c in lab if ord(c) >= 0x80
    ):
        for idx, label in enumerate(labels):
            if label:
                rule = _bidi_ok(label)
                if rule:
                    errors.append(IDNAError(rule, idx))
                    break
    return labels, errors


def domain_to_ascii(domain: str, be_strict: bool = False) -> str:
    """UTS #46 ToASCII with the URL Standard's flags (URL Standard §3.3).

        >>> domain_to_ascii("Bücher.example")
        'xn--bcher-kva.example'
        >>> domain_to_ascii("☕.example")
        'xn--53h.example'
    """
    labels, errors = uts46_process(domain, be_strict, be_strict)
    if errors:
        raise errors[0]
    out = ascii_labels(labels)
    if be_strict:
        # VerifyDnsLength (UTS #46 §4.2 step 4).
        total = ".".join(out)
        if len(total.rstrip(".")) > 253 or len(total.rstrip(".")) == 0:
            raise IDNAError("4.2 (DNS length)", 0)
        # Every label counts, the empty root label too (UTS #46 §4.2 step 4).
        for idx, lab in enumerate(out):
            if not 1 <= len(lab) <= 63:
                raise IDNAError("4.2 (DNS label length)", idx)
    return ".".join(out)


@lru_cache(maxsize=2048)
def domain_to_ascii_checked(domain: str) -> tuple[str, bool]:
    """ToASCII with beStrict false, and whether beStrict true would succeed.

    One processing pass serves both runs the URL Standard's domain parser
    makes (§3.3): the strict flags only add checks on the same labels.  The
    result is a pure function of the domain, so recent ones are cached (hosts
    repeat: a crawl or a log column names a few hosts many times).
    """
    labels, errors = uts46_process(domain, False, False)
    if errors:
        raise errors[0]
    out = ascii_labels(labels)
    strict_ok = True
    for lab in labels:
        if lab and (lab[2:4] == "--" or lab[0] == "-" or lab[-1] == "-"
                    or any(c < "\x80" and not ((c.isalnum() and c.islower()) or c.isdigit()
                                               or c == "-") for c in lab)):
            strict_ok = False
            break
    if strict_ok:
        total = ".".join(out)
        body = total[:-1] if total.endswith(".") else total
        if not body or len(body) > 253 or any(not 1 <= len(x) <= 63 for x in out):
            strict_ok = False
    return ".".join(out), strict_ok


def domain_to_unicode(domain: str, be_strict: bool = False) -> str:
    """UTS #46 ToUnicode with the URL Standard's flags; errors leave the input.

        >>> domain_to_unicode("xn--bcher-kva.example")
        'bücher.example'
    """
    labels, errors = uts46_process(domain, be_strict, be_strict)
    return domain if errors else ".".join(labels)
