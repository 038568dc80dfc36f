"""The decoders and encoders of the WHATWG Encoding Standard (§8-§14).

Strategy: each encoding is a ``_Codec`` made on first use (``_codec(name)``).
Decoding tries the Python codec first (strict, in C) and keeps its output
unless it holds a character Python decodes differently from the Standard;
otherwise, or when it fails, the Standard's own decoder runs in Python with
its exact error recovery.  Encoding goes through ``str.translate`` with a
table built from the Standard's encoder rules, so the work stays in C.
Errors: ``TextDecodeError`` (fatal decode, byte offset) and the encoders'
``_Unencodable`` (turned into ``PercentEncodeError`` or ``&#N;`` by callers).
"""

from __future__ import annotations

import bisect
import codecs
import re
from collections.abc import Callable

from ..errors import PercentEncodeError, TextDecodeError
from ._data import _SINGLE_BYTE_INDEX
from ._index import (
    _LOCK,
    _first_pointers,
    _ptr_big5,
    _ptr_euc_kr,
    _ptr_gb,
    _ptr_gb4,
    _ptr_sjis,
    _py_char,
    index,
)


class _Out:
    """Output of a pure-Python decoder: collects text, handles the error mode."""

    __slots__ = ("fatal", "name", "parts")

    def __init__(self, fatal: bool, name: str) -> None:
        self.parts: list[str] = []
        self.fatal = fatal
        self.name = name

    def error(self, position: int) -> None:
        if self.fatal:
            raise TextDecodeError(
                f"invalid {self.name} byte sequence at byte offset {position}", position
            )
        self.parts.append("\ufffd")


def _decode_error(name: str, position: int) -> TextDecodeError:
    return TextDecodeError(f"invalid {name} byte sequence at byte offset {position}", position)


# --------------------------------------------------------------------------------------------
# Codecs


class _Codec:
    name: str = ""

    def decode(self, data: bytes, fatal: bool) -> str:
        raise NotImplementedError

    def encode(self, text: str, html: bool) -> bytes:
        raise NotImplementedError

    def segments(self, text: str) -> list[bytes | int]:
        """Encoded runs and unencodable code points; only UTF-8 never has the latter."""
        return [self.encode(text, False)] if text else []


_MARK = "\ud800"  # cannot occur in encoder input: surrogates are rejected first
_MARK_RE = re.compile("\ud800([0-9]+)\ud800")


def _split_marked(translated: str) -> list[bytes | int]:
    parts = _MARK_RE.split(translated)
    out: list[bytes | int] = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(int(part))
        elif part:
            out.append(part.encode("latin-1"))
    return out


class _UTF8(_Codec):
    """§8.1 UTF-8.  CPython's decoder replaces maximal subparts exactly like §8.1.1 does."""

    name = "UTF-8"

    def decode(self, data: bytes, fatal: bool) -> str:
        if not fatal:
            return data.decode("utf-8", "replace")
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as e:
            raise _decode_error(self.name, e.start) from None

    def encode(self, text: str, html: bool) -> bytes:
        return text.encode("utf-8")  # surrogates were rejected by Encoding.encode


class _Unencodable(Exception):
    def __init__(self, cp: int) -> None:
        self.cp = cp


class _EncodeMap(dict[int, str]):
    """A ``str.translate`` table: code point -> bytes (as latin-1 text).

    Missing code points are either computed by ``fallback`` (and memoised), replaced by an
    HTML numeric character reference, or reported by raising :class:`_Unencodable`.
    """

    def __init__(
        self, data: dict[int, str], mode: str, fallback: Callable[[int], str | None] | None
    ) -> None:
        super().__init__(data)
        self.mode = mode  # "fatal", "html" or "mark"
        self.fallback = fallback

    def __missing__(self, cp: int) -> str:
        if self.fallback is not None:
            got = self.fallback(cp)
            if got is not None:
                self[cp] = got
                return got
        if self.mode == "html":
            return f"&#{cp};"
        if self.mode == "mark":
            return f"{_MARK}{cp}{_MARK}"
        raise _Unencodable(cp)


class _TableCodec(_Codec):
    """Stateless encoders (§10-§14 except ISO-2022-JP) share this encode path."""

    _maps: tuple[_EncodeMap, _EncodeMap, _EncodeMap] | None = None

    def _encode_table(self) -> dict[int, str]:
        raise NotImplementedError

    def _fallback(self, cp: int) -> str | None:
        return None

    def _get_maps(self) -> tuple[_EncodeMap, _EncodeMap, _EncodeMap]:
        maps = self._maps
        if maps is None:
            with _LOCK:
                if self._maps is None:
                    table = {i: chr(i) for i in range(128)}
                    table.update(self._encode_table())
                    fb = None if type(self)._fallback is _TableCodec._fallback else self._fallback
                    self._maps = tuple(  # type: ignore[assignment]
                        _EncodeMap(table, mode, fb) for mode in ("fatal", "html", "mark")
                    )
                maps = self._maps
        assert maps is not None
        return maps

    def segments(self, text: str) -> list[bytes | int]:
        if text.isascii():
            return [text.encode("ascii")] if text else []
        return _split_marked(text.translate(self._get_maps()[2]))

    def encode(self, text: str, html: bool) -> bytes:
        if text.isascii():
            return text.encode("ascii")
        maps = self._get_maps()
        try:
            return text.translate(maps[html]).encode("latin-1")
        except _Unencodable as e:
            pos = text.index(chr(e.cp))
            raise PercentEncodeError(
                f"U+{e.cp:04X} at index {pos} cannot be encoded in {self.name} "
                "(use errors='html' for &#N; references)",
                pos,
            ) from None


class _SingleByte(_Codec):
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
            raise _decode_error(self.name, e.start) from None

    def segments(self, text: str) -> list[bytes | int]:
        try:
            return [codecs.charmap_encode(text, "strict", self.encmap)[0]] if text else []
        except UnicodeEncodeError:
            pass
        table = {i: chr(i) for i in range(128)}
        table.update({ord(ch): chr(b) for b, ch in enumerate(self.table) if ch != "\ufffe"})
        return _split_marked(text.translate(_EncodeMap(table, "mark", None)))

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
    idx = index(_SINGLE_BYTE_INDEX[name])
    table = "".join(map(chr, range(128))) + "".join(
        "\ufffe" if cp is None else chr(cp) for cp in idx
    )
    return _SingleByte(name, table)


class _UTF16(_Codec):
    """§14.2 shared UTF-16 decoder; encoding goes to UTF-8 (the output encoding)."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.be = name == "UTF-16BE"

    def decode(self, data: bytes, fatal: bool) -> str:
        try:
            return data.decode("utf-16-be" if self.be else "utf-16-le")
        except UnicodeDecodeError:
            pass
        out = _Out(fatal, self.name)
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


class _Replacement(_Codec):
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


class _MultiByte(_TableCodec):
    """Shared machinery of the lead/trail decoders (§10-§13): Python codec fast path.

    Subclasses set ``pycodec`` and build ``singles`` (non-ASCII byte decoded alone),
    ``pairs`` ((lead << 8) | trail -> text for every complete two-byte sequence) and
    implement :meth:`_slow_decode`, a direct transcription of the Standard's decoder.
    """

    pycodec = ""
    _ready = False
    singles: dict[int, str]
    pairs: dict[int, str]
    suspect: re.Pattern[str] | None

    def _build(self) -> None:
        raise NotImplementedError

    def _spec_long(self) -> dict[bytes, str]:
        """Spec results for Python tokens longer than two bytes (EUC-JP, gb18030)."""
        return {}

    def _ensure(self) -> None:
        if self._ready:
            return
        with _LOCK:
            if self._ready:
                return
            self._build()
            self._find_suspects()
            self._ready = True

    def _find_suspects(self) -> None:
        """Characters whose presence in Python's output means Python and the Standard may
        disagree: for every token Python accepts, compare with the Standard's result."""
        bad: set[str] = set()
        codec = self.pycodec
        py_single: set[int] = set()
        for b in range(256):
            try:
                s = bytes((b,)).decode(codec)
            except UnicodeDecodeError:
                continue
            py_single.add(b)
            if s != (chr(b) if b < 0x80 else self.singles.get(b)):
                bad.update(s)
        for lead in range(0x80, 0x100):
            if lead in py_single:
                continue  # Python reads it alone: two one-byte tokens, checked above
            for trail in range(256):
                try:
                    s = bytes((lead, trail)).decode(codec)
                except UnicodeDecodeError:
                    continue
                if self.pairs.get(lead << 8 | trail) != s:
                    bad.update(s)
        for seq, want in self._spec_long().items():
            try:
                s = seq.decode(codec)
            except UnicodeDecodeError:
                continue
            if len(s) == 1 and s != want:  # longer output = shorter tokens, checked above
                bad.add(s)
        self.suspect = (
            re.compile("[" + "".join(re.escape(c) for c in sorted(bad)) + "]") if bad else None
        )

    _leads: frozenset[int] = frozenset()

    def decode(self, data: bytes, fatal: bool) -> str:
        if data.isascii():
            return data.decode("ascii")
        self._ensure()
        try:
            s = data.decode(self.pycodec)
        except UnicodeDecodeError:
            pass
        else:
            if self.suspect is None or self.suspect.search(s) is None:
                return s
        out = _Out(fatal, self.name)
        self._slow_decode(data, out)
        return "".join(out.parts)

    def _slow_decode(self, data: bytes, out: _Out) -> None:
        """Lead/trail decoders of Shift_JIS (§12.3.1), EUC-KR (§13.1.1), Big5 (§11.1.1):
        after a bad trail byte that is ASCII, that byte is decoded again ("restore")."""
        singles, pairs, leads = self.singles, self.pairs, self._leads
        parts = out.parts
        n = len(data)
        i = 0
        while i < n:
            b = data[i]
            if b < 0x80:
                parts.append(chr(b))
                i += 1
            elif b in leads:
                if i + 1 >= n:
                    out.error(i)
                    i += 1
                    continue
                t = data[i + 1]
                s = pairs.get(b << 8 | t)
                if s is not None:
                    parts.append(s)
                    i += 2
                else:
                    out.error(i)
                    i += 1 if t < 0x80 else 2
            else:
                s = singles.get(b)
                if s is None:
                    out.error(i)
                else:
                    parts.append(s)
                i += 1


class _ShiftJIS(_MultiByte):
    name = "Shift_JIS"
    pycodec = "cp932"
    _leads = frozenset([*range(0x81, 0xA0), *range(0xE0, 0xFD)])

    def _build(self) -> None:
        jis = index("jis0208")
        self.singles = {0x80: "\x80"} | {b: chr(0xFF61 - 0xA1 + b) for b in range(0xA1, 0xE0)}
        pairs: dict[int, str] = {}
        for p in range(11280):
            b = _ptr_sjis(p)
            if 8836 <= p <= 10715:  # §12.3.1: EUDC maps to the Private Use Area
                pairs[b[0] << 8 | b[1]] = chr(0xE000 - 8836 + p)
            elif jis[p] is not None:
                pairs[b[0] << 8 | b[1]] = chr(jis[p])  # type: ignore[arg-type]
        self.pairs = pairs

    def _encode_table(self) -> dict[int, str]:
        # §12.3.2 Shift_JIS encoder with §5 "index Shift_JIS pointer" (skip 8272-8835).
        ptrs = _first_pointers(index("jis0208"), lambda p: 8272 <= p <= 8835)
        table = {cp: _ptr_sjis(p).decode("latin-1") for cp, p in ptrs.items()}
        table[0x80] = "\x80"
        table[0xA5] = "\\"
        table[0x203E] = "~"
        for cp in range(0xFF61, 0xFFA0):
            table[cp] = chr(cp - 0xFF61 + 0xA1)
        if 0xFF0D in table:
            table[0x2212] = table[0xFF0D]
        return table


class _EUCKR(_MultiByte):
    name = "EUC-KR"
    pycodec = "cp949"
    _leads = frozenset(range(0x81, 0xFF))

    def _build(self) -> None:
        idx = index("euc-kr")
        self.singles = {}
        self.pairs = {
            (p // 190 + 0x81) << 8 | (p % 190 + 0x41): chr(cp)
            for p, cp in enumerate(idx)
            if cp is not None
        }

    def _encode_table(self) -> dict[int, str]:
        # §13.1.2 EUC-KR encoder: first pointer.
        return {
            cp: _ptr_euc_kr(p).decode("latin-1")
            for cp, p in _first_pointers(index("euc-kr")).items()
        }


# §11.1.1: four Big5 pointers decode to two code points each.
_BIG5_PAIRS = {
    1133: "\u00ca\u0304",
    1135: "\u00ca\u030c",
    1164: "\u00ea\u0304",
    1166: "\u00ea\u030c",
}
# §5 "index Big5 pointer": these take the *last* pointer.
_BIG5_LAST = (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345)


class _Big5(_MultiByte):
    name = "Big5"
    pycodec = "big5hkscs"
    _leads = frozenset(range(0x81, 0xFF))

    def _build(self) -> None:
        idx = index("big5")
        self.singles = {}
        pairs: dict[int, str] = {}
        for p, cp in enumerate(idx):
            if cp is not None:
                b = _ptr_big5(p)
                pairs[b[0] << 8 | b[1]] = chr(cp)
        for p, s in _BIG5_PAIRS.items():
            b = _ptr_big5(p)
            pairs[b[0] << 8 | b[1]] = s
        self.pairs = pairs

    def _encode_table(self) -> dict[int, str]:
        # §11.1.2 with "index Big5 pointer": no HKSCS pointers below (0xA1-0x81)*157.
        idx = index("big5")
        lo = (0xA1 - 0x81) * 157
        ptrs = _first_pointers(idx, lambda p: p < lo)
        for p in range(lo, len(idx)):
            if idx[p] in _BIG5_LAST:
                ptrs[idx[p]] = p  # type: ignore[index]
        return {cp: _ptr_big5(p).decode("latin-1") for cp, p in ptrs.items()}


class _EUCJP(_MultiByte):
    name = "EUC-JP"
    pycodec = "euc_jp"
    _leads = frozenset([0x8E, *range(0xA1, 0xFF)])

    def _build(self) -> None:
        jis = index("jis0208")
        self.singles = {}
        pairs: dict[int, str] = {}
        for p in range(94 * 94):
            cp = jis[p]
            if cp is not None:
                pairs[(p // 94 + 0xA1) << 8 | (p % 94 + 0xA1)] = chr(cp)
        for b in range(0xA1, 0xE0):
            pairs[0x8E00 | b] = chr(0xFF61 - 0xA1 + b)
        self.pairs = pairs
        j212 = index("jis0212")
        self.triples = {
            (p // 94 + 0xA1) << 8 | (p % 94 + 0xA1): chr(cp)
            for p, cp in enumerate(j212)
            if cp is not None
        }

    def _spec_long(self) -> dict[bytes, str]:
        out: dict[bytes, str] = {}
        for b2 in range(0x80, 0x100):
            for b3 in range(0x80, 0x100):
                s = self.triples.get(b2 << 8 | b3)
                out[bytes((0x8F, b2, b3))] = s if s is not None else ""
        return out

    def _slow_decode(self, data: bytes, out: _Out) -> None:
        # §12.1.1 EUC-JP decoder.
        pairs, triples, leads = self.pairs, self.triples, self._leads
        parts = out.parts
        n = len(data)
        i = 0
        while i < n:
            b = data[i]
            if b < 0x80:
                parts.append(chr(b))
                i += 1
            elif b == 0x8F:
                if i + 1 >= n:
                    out.error(i)
                    break
                b2 = data[i + 1]
                if not 0xA1 <= b2 <= 0xFE:
                    out.error(i)
                    i += 1 if b2 < 0x80 else 2
                    continue
                if i + 2 >= n:
                    out.error(i)
                    break
                b3 = data[i + 2]
                s = triples.get(b2 << 8 | b3)
                if s is not None:
                    parts.append(s)
                    i += 3
                else:
                    out.error(i)
                    i += 2 if b3 < 0x80 else 3
            elif b in leads:
                if i + 1 >= n:
                    out.error(i)
                    break
                t = data[i + 1]
                s = pairs.get(b << 8 | t)
                if s is not None:
                    parts.append(s)
                    i += 2
                else:
                    out.error(i)
                    i += 1 if t < 0x80 else 2
            else:
                out.error(i)
                i += 1

    def _encode_table(self) -> dict[int, str]:
        # §12.1.2 EUC-JP encoder.
        ptrs = _first_pointers(index("jis0208"))
        table = {
            cp: bytes((p // 94 + 0xA1, p % 94 + 0xA1)).decode("latin-1")
            for cp, p in ptrs.items()
            if p < 8836
        }
        table[0xA5] = "\\"
        table[0x203E] = "~"
        for cp in range(0xFF61, 0xFFA0):
            table[cp] = "\x8e" + chr(cp - 0xFF61 + 0xA1)
        if 0xFF0D in table:
            table[0x2212] = table[0xFF0D]
        return table


# §10.2.2 gb18030 encoder: code points with fixed two-byte sequences (GB18030-2005 compat).
_GB18030_PUA_ENCODE = {
    0xE78D: b"\xa6\xd9",
    0xE78E: b"\xa6\xda",
    0xE78F: b"\xa6\xdb",
    0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd",
    0xE792: b"\xa6\xde",
    0xE793: b"\xa6\xdf",
    0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed",
    0xE796: b"\xa6\xf3",
    0xE81E: b"\xfe\x59",
    0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66",
    0xE82C: b"\xfe\x67",
    0xE832: b"\xfe\x6d",
    0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90",
    0xE864: b"\xfe\xa0",
}


class _Ranges:
    """§5 index gb18030 ranges, derived from Python's four-byte gb18030 mapping."""

    def __init__(self) -> None:
        ptrs: list[int] = []
        cps: list[int] = []
        last_delta: int | None = None
        prev = -2
        for p in range(39420):
            cp = _py_char(_ptr_gb4(p), "gb18030")
            if cp is None:
                continue
            if cp - p != last_delta or p != prev + 1:
                ptrs.append(p)
                cps.append(cp)
                last_delta = cp - p
            prev = p
        # Supplementary planes are one linear range starting at pointer 189000.
        sup = 189000
        first = _py_char(_ptr_gb4(sup), "gb18030")
        ptrs.append(sup)
        cps.append(first if first is not None else 0x10000)
        self.ptrs = ptrs
        self.cps = cps

    def code_point(self, pointer: int) -> int | None:
        # §5 "index gb18030 ranges code point".
        if 39419 < pointer < 189000 or pointer > 1237575:
            return None
        if pointer == 7457:
            return 0xE7C7
        i = bisect.bisect_right(self.ptrs, pointer) - 1
        return self.cps[i] + pointer - self.ptrs[i]

    def pointer(self, cp: int) -> int:
        # §5 "index gb18030 ranges pointer".
        if cp == 0xE7C7:
            return 7457
        i = bisect.bisect_right(self.cps, cp) - 1
        return self.ptrs[i] + cp - self.cps[i]


_RANGES: list[_Ranges] = []


def _ranges() -> _Ranges:
    with _LOCK:
        if not _RANGES:
            _RANGES.append(_Ranges())
        return _RANGES[0]


class _GB18030(_MultiByte):
    name = "gb18030"
    pycodec = "gb18030"
    is_gbk = False
    _leads = frozenset(range(0x81, 0xFF))

    def _build(self) -> None:
        idx = index("gb18030")
        self.singles = {0x80: "\u20ac"}
        self.pairs = {}
        for p, cp in enumerate(idx):
            if cp is not None:
                b = _ptr_gb(p)
                self.pairs[b[0] << 8 | b[1]] = chr(cp)
        self.ranges = _ranges()

    def _spec_long(self) -> dict[bytes, str]:
        # Python's BMP four-byte sequences; beyond them both sides are linear (tested).
        r = self.ranges
        out: dict[bytes, str] = {}
        for p in range(4 * 12600):
            cp = r.code_point(p)
            out[_ptr_gb4(p)] = "" if cp is None else chr(cp)
        return out

    def _slow_decode(self, data: bytes, out: _Out) -> None:
        # §10.2.1 gb18030 decoder, including its restore rules.
        pairs, ranges = self.pairs, self.ranges
        parts = out.parts
        n = len(data)
        i = 0
        while i < n:
            b = data[i]
            if b < 0x80:
                parts.append(chr(b))
                i += 1
            elif b == 0x80:
                parts.append("\u20ac")
                i += 1
            elif b == 0xFF:
                out.error(i)
                i += 1
            else:
                if i + 1 >= n:
                    out.error(i)
                    break
                b2 = data[i + 1]
                if 0x30 <= b2 <= 0x39:
                    if i + 2 >= n:
                        out.error(i)
                        break
                    b3 = data[i + 2]
                    if not 0x81 <= b3 <= 0xFE:
                        out.error(i)
                        i += 1  # restore « second, byte »
                        continue
                    if i + 3 >= n:
                        out.error(i)
                        break
                    b4 = data[i + 3]
                    if not 0x30 <= b4 <= 0x39:
                        out.error(i)
                        i += 1  # restore « second, third, byte »
                        continue
                    cp = ranges.code_point(
                        (b - 0x81) * 12600 + (b2 - 0x30) * 1260 + (b3 - 0x81) * 10 + b4 - 0x30
                    )
                    if cp is None:
                        out.error(i)
                    else:
                        parts.append(chr(cp))
                    i += 4
                    continue
                s = pairs.get(b << 8 | b2)
                if s is not None:
                    parts.append(s)
                    i += 2
                else:
                    out.error(i)
                    i += 1 if b2 < 0x80 else 2

    def _encode_table(self) -> dict[int, str]:
        # §10.2.2 gb18030 encoder, two-byte part; four-byte sequences come from _fallback.
        table = {
            cp: _ptr_gb(p).decode("latin-1") for cp, p in _first_pointers(index("gb18030")).items()
        }
        table.pop(0xE5E5, None)
        for cp, bs in _GB18030_PUA_ENCODE.items():
            table[cp] = bs.decode("latin-1")
        if self.is_gbk:
            table[0x20AC] = "\x80"
        return table

    def _fallback(self, cp: int) -> str | None:
        if self.is_gbk or cp == 0xE5E5 or cp < 0x80 or 0xD800 <= cp <= 0xDFFF:
            return None
        return _ptr_gb4(_ranges().pointer(cp)).decode("latin-1")


class _GBK(_GB18030):
    """§10.1: GBK decodes like gb18030 and encodes with "is GBK" set."""

    name = "GBK"
    is_gbk = True


class _ISO2022JP(_Codec):
    """§12.2 ISO-2022-JP: always the pure-Python state machines (no Python codec agrees)."""

    name = "ISO-2022-JP"
    _ready = False

    def _ensure(self) -> None:
        if self._ready:
            return
        with _LOCK:
            if not self._ready:
                self.jis = index("jis0208")
                self.ptrs = {cp: p for cp, p in _first_pointers(self.jis).items() if p < 8836}
                self.kana = index("iso-2022-jp-katakana")
                self._ready = True

    def decode(self, data: bytes, fatal: bool) -> str:
        if data.isascii() and not any(c in data for c in b"\x0e\x0f\x1b"):
            return data.decode("ascii")
        self._ensure()
        jis = self.jis
        out = _Out(fatal, self.name)
        parts = out.parts
        ASCII, ROMAN, KATAKANA, LEAD, TRAIL, ESC_START, ESC = range(7)
        state = output_state = ASCII
        lead = 0
        output_flag = False
        esc_pos = 0
        n = len(data)
        i = 0
        while True:
            b = data[i] if i < n else -1  # -1 is end-of-queue
            i += 1
            if state in (ASCII, ROMAN, KATAKANA, LEAD):
                if b == 0x1B:
                    state, esc_pos = ESC_START, i - 1
                    continue
                if b == -1:
                    break
                output_flag = False
                if state == ASCII and b <= 0x7F and b not in (0x0E, 0x0F):
                    parts.append(chr(b))
                elif state == ROMAN and b <= 0x7F and b not in (0x0E, 0x0F):
                    parts.append("\u00a5" if b == 0x5C else "\u203e" if b == 0x7E else chr(b))
                elif state == KATAKANA and 0x21 <= b <= 0x5F:
                    parts.append(chr(0xFF61 - 0x21 + b))
                elif state == LEAD and 0x21 <= b <= 0x7E:
                    lead, state = b, TRAIL
                else:
                    out.error(i - 1)
            elif state == TRAIL:
                if b == 0x1B:
                    state, esc_pos = ESC_START, i - 1
                    out.error(i - 2)
                    continue
                state = LEAD
                if 0x21 <= b <= 0x7E:
                    cp = jis[(lead - 0x21) * 94 + b - 0x21]
                    if cp is None:
                        out.error(i - 2)
                    else:
                        parts.append(chr(cp))
                    continue
                out.error(i - 2)
                if b == -1:
                    break
            elif state == ESC_START:
                if b in (0x24, 0x28):
                    lead, state = b, ESC
                    continue
                if b != -1:
                    i -= 1  # restore byte
                output_flag = False
                state = output_state
                out.error(esc_pos)
            else:  # ESC
                lead_b, lead = lead, 0
                new: int | None = None
                if lead_b == 0x28 and b == 0x42:
                    new = ASCII
                elif lead_b == 0x28 and b == 0x4A:
                    new = ROMAN
                elif lead_b == 0x28 and b == 0x49:
                    new = KATAKANA
                elif lead_b == 0x24 and b in (0x40, 0x42):
                    new = LEAD
                if new is not None:
                    state = output_state = new
                    was = output_flag
                    output_flag = True
                    if was:
                        out.error(esc_pos)
                    continue
                i -= 1 if b == -1 else 2  # restore « lead, byte » (or just lead at the end)
                output_flag = False
                state = output_state
                out.error(esc_pos)
        return "".join(parts)

    def encode(self, text: str, html: bool) -> bytes:
        if text.isascii() and not any(c in text for c in "\x0e\x0f\x1b"):
            return text.encode("ascii")
        return b"".join(self._run(text, "html" if html else "fatal"))  # type: ignore[arg-type]

    def segments(self, text: str) -> list[bytes | int]:
        if text.isascii() and not any(c in text for c in "\x0e\x0f\x1b"):
            return [text.encode("ascii")] if text else []
        return self._run(text, "mark")

    def _run(self, text: str, mode: str) -> list[bytes | int]:
        # §12.2.2 ISO-2022-JP encoder; it always ends in the ASCII state.
        self._ensure()
        result: list[bytes | int] = []
        ptrs, kana = self.ptrs, self.kana
        ASCII, ROMAN, JIS = 0, 1, 2
        state = ASCII
        out = bytearray()
        pending: list[int] = []  # code points restored to the input (stack, reversed)
        pos = 0
        n = len(text)
        while True:
            if pending:
                cp = pending.pop()
            elif pos < n:
                cp = ord(text[pos])
                pos += 1
            else:
                break
            err: int | None = None
            if state in (ASCII, ROMAN) and cp in (0x0E, 0x0F, 0x1B):
                err = 0xFFFD  # reported as U+FFFD to prevent attacks
            elif state == ASCII and cp < 0x80:
                out.append(cp)
                continue
            elif state == ROMAN and (
                (cp < 0x80 and cp not in (0x5C, 0x7E)) or cp in (0xA5, 0x203E)
            ):
                out.append(0x5C if cp == 0xA5 else 0x7E if cp == 0x203E else cp)
                continue
            elif cp < 0x80:
                pending.append(cp)
                state = ASCII
                out += b"\x1b(B"
                continue
            elif cp in (0xA5, 0x203E):
                pending.append(cp)
                state = ROMAN
                out += b"\x1b(J"
                continue
            else:
                look = cp
                if look == 0x2212:
                    look = 0xFF0D
                if 0xFF61 <= look <= 0xFF9F:
                    look = kana[look - 0xFF61]  # type: ignore[assignment]
                p = ptrs.get(look)
                if p is None:
                    if state == JIS:
                        pending.append(cp)
                        state = ASCII
                        out += b"\x1b(B"
                        continue
                    err = cp
                elif state != JIS:
                    pending.append(cp)
                    state = JIS
                    out += b"\x1b$B"
                    continue
                else:
                    out += bytes((p // 94 + 0x21, p % 94 + 0x21))
                    continue
            # Error: in html mode "&#N;" is prepended to the input (§7 "process an item").
            if mode == "mark":
                if out:
                    result.append(bytes(out))
                    out.clear()
                result.append(err)
                continue
            if mode == "fatal":
                where = pos - 1
                raise PercentEncodeError(
                    f"U+{ord(text[where]):04X} at index {where} cannot be encoded in "
                    "ISO-2022-JP (use errors='html' for &#N; references)",
                    where,
                )
            pending.extend(reversed([ord(c) for c in f"&#{err};"]))
        if state != ASCII:
            out += b"\x1b(B"
        if out:
            result.append(bytes(out))
        return result


_CODEC_FACTORIES: dict[str, Callable[[], _Codec]] = {
    "UTF-8": _UTF8,
    "UTF-16BE": lambda: _UTF16("UTF-16BE"),
    "UTF-16LE": lambda: _UTF16("UTF-16LE"),
    "replacement": _Replacement,
    "Shift_JIS": _ShiftJIS,
    "EUC-JP": _EUCJP,
    "ISO-2022-JP": _ISO2022JP,
    "EUC-KR": _EUCKR,
    "Big5": _Big5,
    "gb18030": _GB18030,
    "GBK": _GBK,
}
_CODECS: dict[str, _Codec] = {}


def _codec(name: str) -> _Codec:
    got = _CODECS.get(name)
    if got is None:
        with _LOCK:
            got = _CODECS.get(name)
            if got is None:
                factory = _CODEC_FACTORIES.get(name)
                got = factory() if factory is not None else _single_byte(name)
                _CODECS[name] = got
    return got
