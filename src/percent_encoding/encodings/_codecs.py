"""The decoders and encoders of the WHATWG Encoding Standard (§8-§14), by name.

Strategy: each encoding is a ``_Codec`` made on first use (``_codec(name)``)
and cached.  UTF-8 (§8), the single-byte encodings (§9), UTF-16BE/LE and
replacement (§14) are here; the CJK encodings are in ``_chinese`` (§10-§11),
``_japanese`` (§12) and ``_korean`` (§13), over the machinery of ``_base``.
Errors: ``TextDecodeError`` (fatal decode, byte offset) and the encoders'
``_Unencodable`` (turned into ``PercentEncodeError`` or ``&#N;`` by callers).
"""

from __future__ import annotations

import codecs
from collections.abc import Callable

from ..errors import PercentEncodeError, TextDecodeError
from ._base import Codec, EncodeMap, Out, decode_error, split_marked
from ._chinese import GB18030, GBK, Big5
from ._data import SINGLE_BYTE_INDEX
from ._index import (
    LOCK,
    index,
)
from ._japanese import EUCJP, ISO2022JP, ShiftJIS
from ._korean import EUCKR


class _UTF8(Codec):
    """§8.1 UTF-8.  CPython's decoder replaces maximal subparts exactly like §8.1.1 does."""

    name = "UTF-8"

    def decode(self, data: bytes, fatal: bool) -> str:
        if not fatal:
            return data.decode("utf-8", "replace")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise decode_error(self.name, e.start) from None

    def encode(self, text: str, html: bool) -> bytes:
        return text.encode("utf-8")  # surrogates were rejected by Encoding.encode


class _SingleByte(Codec):
    """§9 single-byte decoder/encoder via ``codecs.charmap_*`` over a 256-entry table."""

    def __init__(self, name: str, table: str) -> None:
        self.name = name
        self.table = table  # U+FFFE marks a byte without a code point
        self.encmap = codecs.charmap_build(table)

    def decode(self, data: bytes, fatal: bool) -> str:
        if not fatal:
            return codecs.charmap_decode(data, "replace", self.table)[0]
        try:
            return codecs.charmap_decode(data, "strict", self.table)[0]
        except UnicodeDecodeError as e:
            raise decode_error(self.name, e.start) from None

    def segments(self, text: str) -> list[bytes | int]:
        try:
            return [codecs.charmap_encode(text, "strict", self.encmap)[0]] if text else []
        except UnicodeEncodeError:
            pass
        table = {i: chr(i) for i in range(128)}
        table.update({ord(ch): chr(b) for b, ch in enumerate(self.table) if ch != "\ufffe"})
        return split_marked(text.translate(EncodeMap(table, "mark", None)))

    def encode(self, text: str, html: bool) -> bytes:
        if html:
            return codecs.charmap_encode(text, "xmlcharrefreplace", self.encmap)[0]
        try:
            return codecs.charmap_encode(text, "strict", self.encmap)[0]
        except UnicodeEncodeError as e:
            raise PercentEncodeError(
                f"U+{ord(text[e.start]):04X} at index {e.start} cannot be encoded in "
                f"{self.name} (use errors='html' for &#N; references)",
                e.start,
            ) from None


def _single_byte(name: str) -> _SingleByte:
    if name == "x-user-defined":
        # §14.3: bytes 0x80-0xFF are U+F780-U+F7FF.
        return _SingleByte(
            name, "".join(map(chr, range(128))) + "".join(chr(0xF780 + i) for i in range(128))
        )
    idx = index(SINGLE_BYTE_INDEX[name])
    table = "".join(map(chr, range(128))) + "".join(
        "\ufffe" if cp is None else chr(cp) for cp in idx
    )
    return _SingleByte(name, table)


class _UTF16(Codec):
    """§14.2 shared UTF-16 decoder; encoding goes to UTF-8 (the output encoding)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.be = name == "UTF-16BE"

    def decode(self, data: bytes, fatal: bool) -> str:
        try:
            return data.decode("utf-16-be" if self.be else "utf-16-le")
        except UnicodeDecodeError:
            pass
        out = Out(fatal, self.name)
        parts = out.parts
        be = self.be
        n = len(data)
        i = 0
        lead: int | None = None
        lead_pos = 0
        while i + 1 < n:
            unit = (data[i] << 8 | data[i + 1]) if be else (data[i + 1] << 8 | data[i])
            i += 2
            if lead is not None:
                if 0xDC00 <= unit <= 0xDFFF:
                    parts.append(chr(0x10000 + ((lead - 0xD800) << 10) + (unit - 0xDC00)))
                    lead = None
                    continue
                lead = None
                out.error(lead_pos)
                i -= 2  # the Standard restores the two bytes of this code unit
                continue
            if 0xD800 <= unit <= 0xDBFF:
                lead, lead_pos = unit, i - 2
            elif 0xDC00 <= unit <= 0xDFFF:
                out.error(i - 2)
            else:
                parts.append(chr(unit))
        if lead is not None or i < n:
            out.error(lead_pos if lead is not None else i)
        return "".join(parts)

    def encode(self, text: str, html: bool) -> bytes:  # pragma: no cover - via output_encoding
        return text.encode("utf-8")


class _Replacement(Codec):
    """§14.1 replacement: one error for non-empty input, then finished."""

    name = "replacement"

    def decode(self, data: bytes, fatal: bool) -> str:
        if not data:
            return ""
        if fatal:
            raise TextDecodeError(
                "the replacement encoding decodes any non-empty input to an error", 0
            )
        return "\ufffd"

    def encode(self, text: str, html: bool) -> bytes:  # pragma: no cover - via output_encoding
        return text.encode("utf-8")


_CODEC_FACTORIES: dict[str, Callable[[], Codec]] = {
    "UTF-8": _UTF8,
    "UTF-16BE": lambda: _UTF16("UTF-16BE"),
    "UTF-16LE": lambda: _UTF16("UTF-16LE"),
    "replacement": _Replacement,
    "Shift_JIS": ShiftJIS,
    "EUC-JP": EUCJP,
    "ISO-2022-JP": ISO2022JP,
    "EUC-KR": EUCKR,
    "Big5": Big5,
    "gb18030": GB18030,
    "GBK": GBK,
}
_CODECS: dict[str, Codec] = {}


def codec(name: str) -> Codec:
    got = _CODECS.get(name)
    if got is None:
        with LOCK:
            got = _CODECS.get(name)
            if got is None:
                factory = _CODEC_FACTORIES.get(name)
                got = factory() if factory is not None else _single_byte(name)
                _CODECS[name] = got
    return got
