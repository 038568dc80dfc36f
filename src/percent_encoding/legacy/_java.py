"""Java's ``java.net.URLEncoder.encode`` and ``URLDecoder.decode`` (UTF-8).

Strategy: the encoder works on UTF-16 code units as Java does (a lone
surrogate becomes ``?``); the decoder follows ``URLDecoder``'s parse of
``%`` escapes and raises :class:`PercentDecodeError` with the position where
Java throws ``IllegalArgumentException``.

Source: OpenJDK ``java/net/URLEncoder.java`` and ``URLDecoder.java``.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from .. import _args
from .. import core as _core
from .._abnf import ALNUM as _ALNUM
from .._abnf import LONE_SURROGATE
from ..errors import (
    PercentDecodeError,
)
from ..sets import (
    EncodeSet,
)

JAVA_URLENCODER_SET: Final = EncodeSet.from_allowed(
    _ALNUM + ".-*_", name="java-URLEncoder", spec="java.net.URLEncoder (DONT_NEED_ENCODING)"
)


def _utf16_units(text: str) -> str:
    # A Java String is UTF-16: an astral character is two chars.
    if all(ord(c) < 0x10000 for c in text):
        return text
    return "".join(
        c
        if ord(c) < 0x10000
        else chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + ((ord(c) - 0x10000) & 0x3FF))
        for c in text
    )


def _join_pairs(units: str) -> str:
    # Valid surrogate pairs become one code point; lone surrogates stay.
    if LONE_SURROGATE.search(units) is None:
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def java_urlencode(text: str) -> str:
    """Java's ``URLEncoder.encode(s, StandardCharsets.UTF_8)``: alphanumerics and
    ``.-*_`` stay, space becomes ``+``, everything else is UTF-8 ``%XX``.  A lone
    surrogate is written ``%3F`` (``?``), as Java's encoder replaces it.

    >>> java_urlencode("The string ü@foo-bar")
    'The+string+%C3%BC%40foo-bar'
    """
    _args.check_str_input("java_urlencode", text)
    t = LONE_SURROGATE.sub("?", _join_pairs(text)) if LONE_SURROGATE.search(text) else text
    return _core.encode(t, JAVA_URLENCODER_SET, space_as_plus=True)


def _java_digit(ch: str) -> int:
    # Character.digit(ch, 16): ASCII and fullwidth hex letters, Unicode Nd digits.
    o = ord(ch)
    if 0x41 <= o <= 0x46 or 0x61 <= o <= 0x66:
        return (o | 0x20) - 0x61 + 10
    if 0xFF21 <= o <= 0xFF26:
        return o - 0xFF21 + 10
    if 0xFF41 <= o <= 0xFF46:
        return o - 0xFF41 + 10
    if ch.isdecimal() and not 0xD800 <= o <= 0xDFFF:
        return unicodedata.decimal(ch)
    return -1


def _java_parse_hex(s: str, i: int) -> int:
    # Integer.parseInt(s, i+1, i+3, 16): an optional sign, then digits.
    body = s[i + 1 : i + 3]
    neg = False
    digits = body
    if body[0] in "+-":
        neg = body[0] == "-"
        digits = body[1:]
    value = 0
    for ch in digits:
        d = _java_digit(ch)
        if d < 0:
            raise PercentDecodeError(
                f"URLDecoder: Illegal hex characters in escape (%) pattern {s[i : i + 3]!r} "
                f"at position {i}",
                i,
            )
        value = value * 16 + d
    if neg and value != 0:
        raise PercentDecodeError(
            f"URLDecoder: Illegal hex characters in escape (%) pattern - negative value "
            f"at position {i}",
            i,
        )
    return value


def _java_utf8(b: bytes) -> str:
    # new String(bytes, UTF_8) in the JDK: valid input decodes as usual; each
    # malformed piece becomes one U+FFFD, sized the way the JDK's decoder sizes
    # it (an encoded surrogate ED A0 80 is ONE piece, unlike Python's three).
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out: list[str] = []
    n = len(b)
    i = 0
    while i < n:
        b1 = b[i]
        if b1 < 0x80:
            out.append(chr(b1))
            i += 1
        elif 0xC2 <= b1 <= 0xDF:
            if i + 1 < n and b[i + 1] & 0xC0 == 0x80:
                out.append(b[i : i + 2].decode("utf-8"))
                i += 2
            else:
                out.append("\ufffd")
                i += 1
        elif 0xE0 <= b1 <= 0xEF:
            if i + 2 < n:
                b2, b3 = b[i + 1], b[i + 2]
                if (b1 == 0xE0 and b2 & 0xE0 == 0x80) or b2 & 0xC0 != 0x80 or b3 & 0xC0 != 0x80:
                    out.append("\ufffd")
                    i += 1 if ((b1 == 0xE0 and b2 & 0xE0 == 0x80) or b2 & 0xC0 != 0x80) else 2
                else:
                    cp = (b1 & 0x0F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F)
                    out.append("\ufffd" if 0xD800 <= cp <= 0xDFFF else chr(cp))
                    i += 3
            else:
                out.append("\ufffd")
                if i + 1 < n and (
                    (b1 == 0xE0 and b[i + 1] & 0xE0 == 0x80) or b[i + 1] & 0xC0 != 0x80
                ):
                    i += 1
                else:
                    i = n
        elif 0xF0 <= b1 <= 0xF7:
            if i + 3 < n:
                b2, b3, b4 = b[i + 1], b[i + 2], b[i + 3]
                cp = (b1 & 0x07) << 18 | (b2 & 0x3F) << 12 | (b3 & 0x3F) << 6 | (b4 & 0x3F)
                if (
                    b2 & 0xC0 != 0x80
                    or b3 & 0xC0 != 0x80
                    or b4 & 0xC0 != 0x80
                    or not 0x10000 <= cp <= 0x10FFFF
                ):
                    out.append("\ufffd")
                    if (
                        b1 > 0xF4
                        or (b1 == 0xF0 and not 0x90 <= b2 <= 0xBF)
                        or (b1 == 0xF4 and b2 & 0xF0 != 0x80)
                        or b2 & 0xC0 != 0x80
                    ):
                        i += 1
                    elif b3 & 0xC0 != 0x80:
                        i += 2
                    else:
                        i += 3
                else:
                    out.append(chr(cp))
                    i += 4
            else:
                out.append("\ufffd")
                if b1 > 0xF4 or (
                    i + 1 < n
                    and (
                        (b1 == 0xF0 and not 0x90 <= b[i + 1] <= 0xBF)
                        or (b1 == 0xF4 and b[i + 1] & 0xF0 != 0x80)
                        or b[i + 1] & 0xC0 != 0x80
                    )
                ):
                    i += 1
                elif i + 2 < n and b[i + 2] & 0xC0 != 0x80:
                    i += 2
                else:
                    i = n
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def java_urldecode(text: str) -> str:
    """Java's ``URLDecoder.decode(s, StandardCharsets.UTF_8)``: ``+`` is space and
    each run of ``%xy`` is decoded as UTF-8 (U+FFFD for bad bytes).  Where Java
    throws ``IllegalArgumentException`` (a ``%`` without two hex digits) this
    raises :class:`PercentDecodeError`, its ``position`` counted in UTF-16 units
    like Java's index.  Java's ``Integer.parseInt`` quirks are kept: ``%+1`` is
    byte 1 and fullwidth or other Unicode digits count as hex digits.

    >>> java_urldecode("The+string+%C3%BC%40foo-bar")
    'The string ü@foo-bar'
    """
    _args.check_str_input("java_urldecode", text)
    if "%" not in text and "+" not in text:
        return _join_pairs(text)
    s = _utf16_units(text)
    n = len(s)
    out: list[str] = []
    i = 0
    while i < n:
        c = s[i]
        if c == "+":
            out.append(" ")
            i += 1
        elif c == "%":
            buf = bytearray()
            while i + 2 < n and c == "%":
                buf.append(_java_parse_hex(s, i))
                i += 3
                if i < n:
                    c = s[i]
            if i < n and c == "%":
                raise PercentDecodeError(
                    f"URLDecoder: Incomplete trailing escape (%) pattern at position {i}", i
                )
            out.append(_java_utf8(bytes(buf)))
        else:
            j = i + 1
            while j < n and s[j] not in "+%":
                j += 1
            out.append(s[i:j])
            i = j
    return _join_pairs("".join(out))
