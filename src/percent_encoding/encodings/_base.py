"""What the decoders and encoders of the Encoding Standard share.

Strategy: a ``_Codec`` decodes bytes and encodes text for one encoding.
``_TableCodec`` encodes through ``str.translate`` with a table built from the
Standard's encoder rules (unencodable code points come out marked, then
become ``&#N;`` or an error); ``_MultiByte`` adds the lead/trail decoders of
§10-§13: the Python codec first (strict, in C), kept unless its output holds
a character Python decodes differently, else the Standard's own decoder in
Python with its exact error recovery.  ``_Out`` collects that decoder's output
and applies the error mode (U+FFFD or :class:`TextDecodeError`).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import PercentEncodeError, TextDecodeError
from ._index import (
    LOCK,
)


class Out:
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


def decode_error(name: str, position: int) -> TextDecodeError:
    return TextDecodeError(f"invalid {name} byte sequence at byte offset {position}", position)


class Codec:
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


def split_marked(translated: str) -> list[bytes | int]:
    parts = _MARK_RE.split(translated)
    out: list[bytes | int] = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(int(part))
        elif part:
            out.append(part.encode("latin-1"))
    return out


class _Unencodable(Exception):
    def __init__(self, cp: int) -> None:
        self.cp = cp


class EncodeMap(dict[int, str]):
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


class _TableCodec(Codec):
    """Stateless encoders (§10-§14 except ISO-2022-JP) share this encode path."""

    _maps: tuple[EncodeMap, EncodeMap, EncodeMap] | None = None

    def _encode_table(self) -> dict[int, str]:
        raise NotImplementedError

    def _fallback(self, cp: int) -> str | None:
        return None

    def _get_maps(self) -> tuple[EncodeMap, EncodeMap, EncodeMap]:
        maps = self._maps
        if maps is None:
            with LOCK:
                if self._maps is None:
                    table = {i: chr(i) for i in range(128)}
                    table.update(self._encode_table())
                    fb = None if type(self)._fallback is _TableCodec._fallback else self._fallback
                    self._maps = tuple(  # type: ignore[assignment]
                        EncodeMap(table, mode, fb) for mode in ("fatal", "html", "mark")
                    )
                maps = self._maps
        assert maps is not None
        return maps

    def segments(self, text: str) -> list[bytes | int]:
        if text.isascii():
            return [text.encode("ascii")] if text else []
        return split_marked(text.translate(self._get_maps()[2]))

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


class MultiByte(_TableCodec):
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
        with LOCK:
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
        out = Out(fatal, self.name)
        self._slow_decode(data, out)
        return "".join(out.parts)

    def _slow_decode(self, data: bytes, out: Out) -> None:
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
