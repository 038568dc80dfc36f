""".NET's ``Uri.EscapeDataString`` and ``Uri.UnescapeDataString``.

Strategy: RFC 3986 unreserved characters stay; the unescaper decodes only
escape runs that form valid UTF-8 and keeps everything else as written, as
.NET does.

Source: .NET ``System.Uri`` (``UriHelper.EscapeString``,
``PercentEncodingHelper``).
"""

from __future__ import annotations

import re
from typing import Final

from .. import _args
from .. import core as _core
from ..sets import (
    RFC3986_UNRESERVED,
)

DOTNET_SET: Final = RFC3986_UNRESERVED.named(
    "dotnet-EscapeDataString", "System.Uri.EscapeDataString (UriHelper.Unreserved)"
)


def dotnet_escape_data_string(text: str) -> str:
    """.NET's ``Uri.EscapeDataString``: RFC 3986 unreserved stays, everything
    else is UTF-8 ``%XX``; a lone surrogate becomes U+FFFD (``%EF%BF%BD``),
    as enumerating runes does.

    >>> dotnet_escape_data_string("a b~ü")
    'a%20b~%C3%BC'
    """
    _args.check_str_input("dotnet_escape_data_string", text)
    return _core.encode(text, DOTNET_SET, errors="replace")


_DOTNET_ESCAPES = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+|%[0-7][0-9A-Fa-f]")


def _utf8_prefix_len(b: bytes, i: int) -> tuple[int, bool]:
    # The length of the well-formed UTF-8 sequence at b[i] (True), or of the
    # maximal ill-formed subpart to skip (False), per Unicode §3.9.
    lead = b[i]
    if 0xC2 <= lead <= 0xDF:
        need, lo, hi = 2, 0x80, 0xBF
    elif 0xE0 <= lead <= 0xEF:
        need = 3
        lo, hi = (0xA0, 0xBF) if lead == 0xE0 else (0x80, 0x9F) if lead == 0xED else (0x80, 0xBF)
    elif 0xF0 <= lead <= 0xF4:
        need = 4
        lo, hi = (0x90, 0xBF) if lead == 0xF0 else (0x80, 0x8F) if lead == 0xF4 else (0x80, 0xBF)
    else:
        return 1, False
    j = i + 1
    for k in range(1, need):
        if j >= len(b):
            return j - i, False
        c = b[j]
        if k == 1:
            if not lo <= c <= hi:
                return 1, False
        elif not 0x80 <= c <= 0xBF:
            return j - i, False
        j += 1
    return need, True


def _dotnet_run(m: re.Match[str]) -> str:
    text = m.group(0)
    if len(text) == 3 and text[1] in "01234567":
        return chr(int(text[1:], 16))
    raw = bytes.fromhex(text.replace("%", ""))
    out: list[str] = []
    i = 0
    while i < len(raw):
        n, ok = _utf8_prefix_len(raw, i)
        # An invalid sequence is left escaped, exactly as it was written.
        out.append(raw[i : i + n].decode("utf-8") if ok else text[3 * i : 3 * (i + n)])
        i += n
    return "".join(out)


def dotnet_unescape_data_string(text: str) -> str:
    """.NET's ``Uri.UnescapeDataString``: ``%XX`` of ASCII bytes are decoded;
    runs of non-ASCII escapes are decoded where they are valid UTF-8 and left
    as written where not; a bad ``%`` stays.

    >>> dotnet_unescape_data_string("a%20b%C3%BC%FF%zz")
    'a bü%FF%zz'
    """
    _args.check_str_input("dotnet_unescape_data_string", text)
    if "%" not in text:
        return text
    return _DOTNET_ESCAPES.sub(_dotnet_run, text)
