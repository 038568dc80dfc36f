"""Hosts of the WHATWG URL Standard: parsing and serializing.

Strategy: :func:`parse_host` is the Standard's host parser (URL Standard §3.5
"Host parsing"): a bracketed IPv6 literal, an opaque host for non-special
URLs, or a domain that goes through domain to ASCII and then, when it ends in
a number, the IPv4 parser.  Hosts are kept as the Standard's values: an ``int``
for IPv4, a tuple of eight 16-bit pieces for IPv6, a ``str`` for a domain, an
opaque host or the empty host.  Failure raises :class:`HostError` carrying the
Standard's validation-error name; non-fatal validation errors are appended to
the caller's list as ``(name, offset)`` pairs, offsets relative to the host.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from .._abnf import BAD_PERCENT, PCT_ENCODED
from ..core import decode_text, encode
from ..errors import PercentEncodingError

__all__ = [
    "HostError",
    "ends_in_a_number",
    "parse_host",
    "serialize_host",
]

ErrorSink = Callable[[str, int], None]


class HostError(PercentEncodingError):
    """A host failed to parse; ``name`` is the URL Standard's validation error."""

    def __init__(self, name: str, position: int, detail: str = "") -> None:
        msg = f"{name} at host offset {position}"
        super().__init__(msg + (f": {detail}" if detail else ""))
        self.name = name
        self.position = position


# URL Standard §3.2 "Host miscellaneous".
_FORBIDDEN_HOST = frozenset("\x00\t\n\r #/:<>?@[\\]^|")
_FORBIDDEN_HOST_RE = re.compile(r"[\x00\t\n\r #/:<>?@\[\\\]^|]")
_FORBIDDEN_DOMAIN_RE = re.compile(r"[\x00-\x20#/:<>?@\[\\\]^|%\x7f]")
_HEX = frozenset("0123456789abcdefABCDEF")
# URL code points (URL Standard §4.3 "URL writing"), as a negated class:
# ASCII alphanumerics and !$&'()*+,-./:;=?@_~, then U+00A0 to U+10FFFD less
# surrogates and noncharacters.  "%" is allowed here and checked on its own.
def _url_unit_class() -> str:
    ranges = [(0xA0, 0xD7FF), (0xE000, 0xFDCF), (0xFDF0, 0xFFFD)]
    ranges += [(p << 16, (p << 16) + 0xFFFD) for p in range(1, 17)]
    body = "".join(f"{chr(a)}-{chr(b)}" for a, b in ranges)
    return "[^0-9A-Za-z!$&'()*+,\\-./:;=?@_~%" + body + "]"


_NOT_URL_UNIT_RE = re.compile(_url_unit_class())


def url_unit_errors(text: str, offset: int, sink: ErrorSink) -> None:
    """Record invalid-URL-unit for code points that are not URL units (§4.3).

    A ``%`` not followed by two hex digits counts too; errors come in input order.
    """
    if "%" not in text:
        # (one search a code point found: cheaper than finditer for the few there are)
        search = _NOT_URL_UNIT_RE.search
        m = search(text)
        while m is not None:
            sink("invalid-URL-unit", offset + m.start())
            m = search(text, m.end())
        return
    where = [m.start() for m in _NOT_URL_UNIT_RE.finditer(text)]
    where += [m.start() for m in BAD_PERCENT.finditer(text)]
    where.sort()
    for i in where:
        sink("invalid-URL-unit", offset + i)


# --- IPv4 (URL Standard §3.5, "IPv4 parser", "IPv4 number parser") ---------


_IPV4_DIGITS = {8: re.compile("[0-7]+"), 10: re.compile("[0-9]+"), 16: re.compile("[0-9A-Fa-f]+")}
_IPV4_TOO_BIG = 1 << 32


def _ipv4_number(part: str) -> tuple[int, bool] | None:
    if not part:
        return None
    radix = 10
    flagged = False
    if len(part) >= 2 and part[0] == "0" and part[1] in "xX":
        part, radix, flagged = part[2:], 16, True
    elif len(part) >= 2 and part[0] == "0":
        part, radix, flagged = part[1:], 8, True
    if not part:
        return 0, True
    if _IPV4_DIGITS[radix].fullmatch(part) is None:
        return None
    # Any number of digits: leading zeros dropped, and a value past 2**32 (more
    # than 11 significant digits in any of the radixes) kept as 2**32, which
    # every check of the IPv4 parser treats as it would the true value; int()
    # never sees unbounded text (CPython limits decimal int() to 4,300 digits).
    part = part.lstrip("0")
    if len(part) > 11:
        return _IPV4_TOO_BIG, flagged
    return min(int(part or "0", radix), _IPV4_TOO_BIG), flagged


def ends_in_a_number(text: str) -> bool:
    """The URL Standard's "ends in a number checker" (§3.5)."""
    parts = text.split(".")
    if parts[-1] == "" and len(parts) > 1:
        parts.pop()
    last = parts[-1]
    if last and last.isascii() and last.isdigit():
        return True
    return _ipv4_number(last) is not None


def parse_ipv4(text: str, sink: ErrorSink) -> int:
    parts = text.split(".")
    if parts[-1] == "":
        sink("IPv4-empty-part", len(text) - 1)
        if len(parts) > 1:
            parts.pop()
    if len(parts) < 4:
        # §3.5 IPv4 parser step 3 (URL Standard, 2026): 127.1 still parses.
        sink("IPv4-too-few-parts", 0)
    if len(parts) > 4:
        raise HostError("IPv4-too-many-parts", 0, text)
    numbers: list[int] = []
    for part in parts:
        r = _ipv4_number(part)
        if r is None:
            raise HostError("IPv4-non-numeric-part", 0, text)
        if r[1]:
            sink("IPv4-non-decimal-part", 0)
        numbers.append(r[0])
    if any(n > 255 for n in numbers):
        sink("IPv4-out-of-range-part", 0)
    if any(n > 255 for n in numbers[:-1]):
        raise HostError("IPv4-out-of-range-part", 0, text)
    if numbers[-1] >= 256 ** (5 - len(numbers)):
        raise HostError("IPv4-out-of-range-part", 0, text)
    ipv4 = numbers[-1]
    for counter, n in enumerate(numbers[:-1]):
        ipv4 += n * 256 ** (3 - counter)
    return ipv4


# --- IPv6 (URL Standard §3.5, "IPv6 parser") --------------------------------


def parse_ipv6(s: str, sink: ErrorSink, base: int = 0) -> tuple[int, ...]:
    address = [0] * 8
    piece = 0
    compress: int | None = None
    p = 0
    n = len(s)

    def fail(name: str) -> HostError:
        return HostError(name, base + p)

    if p < n and s[p] == ":":
        if not s.startswith(":", p + 1):
            raise fail("IPv6-invalid-compression")
        p += 2
        piece += 1
        compress = piece
    while p < n:
        if piece == 8:
            raise fail("IPv6-too-many-pieces")
        if s[p] == ":":
            if compress is not None:
                raise fail("IPv6-multiple-compression")
            p += 1
            piece += 1
            compress = piece
            continue
        value = length = 0
        while length < 4 and p < n and s[p] in _HEX:
            value = value * 16 + int(s[p], 16)
            p += 1
            length += 1
        if p < n and s[p] == ".":
            if length == 0:
                raise fail("IPv4-in-IPv6-invalid-code-point")
            p -= length
            if piece > 6:
                raise fail("IPv4-in-IPv6-too-many-pieces")
            seen = 0
            while p < n:
                v4: int | None = None
                if seen > 0:
                    if s[p] == "." and seen < 4:
                        p += 1
                    else:
                        raise fail("IPv4-in-IPv6-invalid-code-point")
                if p >= n or not ("0" <= s[p] <= "9"):
                    raise fail("IPv4-in-IPv6-invalid-code-point")
                while p < n and "0" <= s[p] <= "9":
                    d = ord(s[p]) - 48
                    if v4 is None:
                        v4 = d
                    elif v4 == 0:
                        raise fail("IPv4-in-IPv6-invalid-code-point")
                    else:
                        v4 = v4 * 10 + d
                    if v4 > 255:
                        raise fail("IPv4-in-IPv6-out-of-range-part")
                    p += 1
                assert v4 is not None
                address[piece] = address[piece] * 0x100 + v4
                seen += 1
                if seen in (2, 4):
                    piece += 1
            if seen != 4:
                raise fail("IPv4-in-IPv6-too-few-parts")
            break
        elif p < n and s[p] == ":":
            p += 1
            if p >= n:
                raise fail("IPv6-invalid-code-point")
        elif p < n:
            raise fail("IPv6-invalid-code-point")
        if length > 1 and value < 16 ** (length - 1):
            sink("IPv6-piece-leading-zero", base + p - length)
        address[piece] = value
        piece += 1
    if compress is not None:
        swaps = piece - compress
        piece = 7
        while piece != 0 and swaps > 0:
            j = compress + swaps - 1
            address[piece], address[j] = address[j], address[piece]
            piece -= 1
            swaps -= 1
    elif piece != 8:
        raise fail("IPv6-too-few-pieces")
    return tuple(address)


def _serialize_ipv6(address: tuple[int, ...]) -> str:
    # §3.6 "IPv6 serializer": compress the first longest run of two or more zeros.
    best_start, best_len = -1, 1
    i = 0
    while i < 8:
        if address[i] == 0:
            j = i
            while j < 8 and address[j] == 0:
                j += 1
            if j - i > best_len:
                best_start, best_len = i, j - i
            i = j
        else:
            i += 1
    out = []
    ignore0 = False
    for idx in range(8):
        if ignore0 and address[idx] == 0:
            continue
        ignore0 = False
        if idx == best_start:
            out.append("::" if idx == 0 else ":")
            ignore0 = True
            continue
        out.append(format(address[idx], "x"))
        if idx != 7:
            out.append(":")
    return "".join(out)


def serialize_host(host: int | tuple[int, ...] | str) -> str:
    """The URL Standard's host serializer (§3.6)."""
    if isinstance(host, int):
        return ".".join(str((host >> s) & 0xFF) for s in (24, 16, 8, 0))
    if isinstance(host, tuple):
        return "[" + _serialize_ipv6(host) + "]"
    return host


# --- domain to ASCII --------------------------------------------------------


_LDH_LABEL = re.compile(r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?")


def _strict_ascii_ok(domain: str) -> bool:
    # What UTS #46 ToASCII with beStrict (STD3 rules, CheckHyphens,
    # VerifyDnsLength) accepts, for an ASCII domain with no xn-- label.
    # VerifyDnsLength (UTS #46 §4.2): the root label is left out of the total but,
    # being empty, fails the 1-63 label check, so "example.com." is not strict.
    body = domain[:-1] if domain.endswith(".") else domain
    if not body or len(body) > 253:
        return False
    return all(_LDH_LABEL.fullmatch(lab) and lab[2:4] != "--" for lab in domain.split("."))


# The longest host text (in code points) the host caches keep, here and in
# url/__init__.py: hosts that repeat are short, and a long one
# would make one cache entry of megabytes.
HOST_CACHE_MAX = 1024


@lru_cache(maxsize=2048)
def _ascii_strict_ok(domain: str) -> bool:
    from ._idna import IDNAError, domain_to_ascii

    try:
        domain_to_ascii(domain, True)
    except IDNAError:
        return False
    return True


def _domain_to_ascii(domain: str, sink: ErrorSink) -> str:
    # URL Standard §3.3 "domain parser" with beStrict false.
    if domain.isascii() and "xn--" not in domain.lower():
        lowered = domain.lower()
        if not _strict_ascii_ok(lowered):
            sink("domain-to-ASCII", 0)
        return lowered
    if domain.isascii():
        # Only the strict run can fail here, and it only reports.  A body over 253
        # fails VerifyDnsLength (UTS #46 §4.2) with nothing to decode: ToASCII gives
        # each label of an ASCII domain back as long as it was, or an error (an xn--
        # label that decodes is the Punycode of what it decodes to, RFC 3492 §6.3;
        # url_host.c decides the same).
        if len(domain[:-1] if domain.endswith(".") else domain) > 253:
            sink("domain-to-ASCII", 0)
            return domain.lower()
        check = _ascii_strict_ok if len(domain) <= HOST_CACHE_MAX else _ascii_strict_ok.__wrapped__
        if not check(domain):
            sink("domain-to-ASCII", 0)
        return domain.lower()
    from ._idna import IDNAError, domain_to_ascii_checked

    run = (domain_to_ascii_checked if len(domain) <= HOST_CACHE_MAX
           else domain_to_ascii_checked.__wrapped__)
    try:
        result, strict_ok = run(domain)
    except IDNAError as e:
        sink("domain-to-ASCII", 0)
        raise HostError("domain-to-ASCII", 0, str(e)) from None
    if not strict_ok:
        sink("domain-to-ASCII", 0)
    return result


# An LDH domain (labels of 1 to 63, none starting or ending with "-") whose last label
# starts with a letter: with no "--" (no xn-- label, no hyphens at 3 and 4) and at most
# 253 long, UTS #46 ToASCII, strict or not, only lower-cases it, and it does not end
# in a number (§3.5).
PLAIN_DOMAIN = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)*"
    r"[A-Za-z](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
)
# An opaque host with no forbidden host code point, nothing the C0 control set
# encodes and no validation error (§3.5 opaque-host parser).
_PLAIN_OPAQUE_HOST = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=]*")


def plain_host(text: str, is_opaque: bool) -> str | None:
    """The host parser's result (§3.5) for the commonest hosts, or None for the others.

    A domain of LDH labels not ending in a number, which domain to ASCII only
    lower-cases, or an opaque host that needs nothing: no validation error for either.
    """
    if is_opaque:
        return text if _PLAIN_OPAQUE_HOST.fullmatch(text) is not None else None
    if len(text) <= 253 and "--" not in text and PLAIN_DOMAIN.fullmatch(text) is not None:
        return text.lower()
    return None


def parse_host(text: str, is_opaque: bool, sink: ErrorSink) -> int | tuple[int, ...] | str:
    """The URL Standard's host parser (§3.5); raises :class:`HostError`."""
    plain = plain_host(text, is_opaque)
    if plain is not None:
        return plain
    if text.startswith("["):
        if not text.endswith("]"):
            raise HostError("IPv6-unclosed", 0)
        return parse_ipv6(text[1:-1], sink, 1)
    if is_opaque:
        m = _FORBIDDEN_HOST_RE.search(text)
        if m:
            raise HostError("host-invalid-code-point", m.start())
        url_unit_errors(text, 0, sink)
        return encode(text, "c0-control", errors="replace")
    if "%" in text and PCT_ENCODED.search(text):
        sink("domain-percent-encoded", 0)
    domain = decode_text(text) if "%" in text else text
    ascii_domain = _domain_to_ascii(domain, sink)
    if ascii_domain == "":
        raise HostError("domain-to-ASCII", 0, "empty host")
    m = _FORBIDDEN_DOMAIN_RE.search(ascii_domain)
    if m:
        # §3.3 domain parser (2026): a forbidden domain code point is a failure
        # whose validation error is the strict run's domain-to-ASCII (the
        # former domain-invalid-code-point is folded into it).
        raise HostError("domain-to-ASCII", m.start(), "forbidden domain code point")
    if ends_in_a_number(ascii_domain):
        if not domain.isascii():
            # Not in the Standard's text yet: the open proposal whatwg/url PR #925
            # (its §3.5 host parser step), which whatwg-url already reports.
            sink("IPv4-non-ASCII-input", 0)
        return parse_ipv4(ascii_domain, sink)
    return ascii_domain


def parse_host_remembered(text: str, is_opaque: bool, sink: ErrorSink
                          ) -> int | tuple[int, ...] | str:
    """:func:`parse_host`, with the outcome of a short host remembered: a crawl repeats
    its hosts.  The validation errors reach ``sink`` in the same order, those before a
    failure included."""
    if len(text) > HOST_CACHE_MAX:
        return parse_host(text, is_opaque, sink)
    host, found, failure = _host_outcome(text, is_opaque)
    for name, offset in found:
        sink(name, offset)
    if failure is not None:
        raise HostError(*failure)
    assert host is not None
    return host


@lru_cache(maxsize=2048)
def _host_outcome(text: str, is_opaque: bool) -> tuple[
        int | tuple[int, ...] | str | None, tuple[tuple[str, int], ...], tuple[str, int] | None]:
    # (the host, its validation errors, and the failure's name and offset or None)
    found: list[tuple[str, int]] = []
    try:
        host = parse_host(text, is_opaque, lambda name, offset: found.append((name, offset)))
    except HostError as e:
        return None, tuple(found), (e.name, e.position)
    return host, tuple(found), None

