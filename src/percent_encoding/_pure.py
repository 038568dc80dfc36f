"""The pure-Python kernels: the reference twin of ``src/csrc/*.c``.

Strategy: the kernels do the byte work and nothing else.  Argument checking,
encode-set lookup, legacy encodings and error wording live in :mod:`core` and
:mod:`form`; the kernels take already-checked arguments:

* ``encode(data, table, space_as_plus) -> str`` — percent-encode ``data``
  (``str``: its UTF-8 bytes; ``bytes``: as given).  ``table`` is an encode
  set's 256-byte table (``EncodeSet.table``).  For ``str`` input, code points
  of U+0080 and above are encoded when ``table[0x80]`` is set and kept as they
  are otherwise; for bytes input, bytes 0x80–0xFF are always encoded.  A
  ``str`` comes back as the same object when nothing needs encoding.  A lone
  surrogate that must be encoded raises ``UnicodeEncodeError``.
* ``decode(data, plus_as_space, strict) -> bytes`` — URL Standard §1.3
  percent-decode.  Invalid ``%`` stays; ``strict`` raises
  :class:`PercentDecodeError` at the first bad ``%`` (index into ``data``).
* ``decode_text(data, plus_as_space, strict, utf8_strict) -> str`` — decode,
  then UTF-8 decode without BOM (U+FFFD for invalid sequences, or
  :class:`TextDecodeError` when ``utf8_strict``).
* ``form_parse(data) -> list[tuple[str, str]]`` and ``form_parse_bytes(data)``
  — URL Standard §5.1 application/x-www-form-urlencoded parser (``&`` only).
* ``form_serialize(pairs) -> str`` — URL Standard §5.2 serializer, UTF-8.

Speed comes from letting C do the loops: ``re.search`` (on long ASCII text,
``bytes.translate``) to find whether anything needs work, ``str.translate`` to
expand bytes to ``%XX`` (``bytes.hex`` for text of multi-byte characters; one
pass over all the names and values of a form), and the codecs' escape decoder
for ``%XX`` (``bytes.split`` and a 484-entry dict when some ``%`` is not an
escape).
"""

from __future__ import annotations

import re
from codecs import escape_decode as _escape_decode
from collections.abc import Iterable

from ._abnf import BAD_PERCENT, BAD_PERCENT_BYTES
from .errors import PercentDecodeError, TextDecodeError
from .sets import FORM_URLENCODED

__all__ = [
    "decode",
    "decode_text",
    "encode",
    "form_parse",
    "form_parse_bytes",
    "form_serialize",
]

_HEXDIGITS = "0123456789ABCDEFabcdef"
# Every two-hex-digit pair, in any case, to the byte it names.
_HEXTOBYTE: dict[bytes, bytes] = {
    (a + b).encode("ascii"): bytes([int(a + b, 16)]) for a in _HEXDIGITS for b in _HEXDIGITS
}
_PCT = [f"%{i:02X}" for i in range(256)]

_Tables = tuple[
    "re.Pattern[str]", "re.Pattern[bytes]", list[str], list[str], bytes, "re.Pattern[bytes]"
]
_cache: dict[tuple[bytes, bool], _Tables] = {}


def _class(codes: Iterable[int]) -> str:
    return "".join(re.escape(chr(c)) for c in codes)


def _tables(table: bytes, space_as_plus: bool) -> _Tables:
    global _last
    # The last answer first, by identity: a run of calls with one set (the common
    # case) skips the key's tuple and its hash.  (One tuple, replaced whole: a
    # thread reads an old answer or a new one, never a mix.)
    last = _last
    if last[0] is table and last[1] is space_as_plus:
        return last[2]
    key = (table, space_as_plus)
    t = _cache.get(key)
    if t is None:
        ascii_codes = [i for i in range(128) if table[i]]
        if space_as_plus and not table[0x20]:
            ascii_codes.append(0x20)
        cls = _class(ascii_codes)
        if table[0x80]:
            cls += "\x80-\U0010ffff"
        str_re = re.compile(f"[{cls}]" if cls else "(?!)")
        bytes_re = re.compile(("[" + _class(ascii_codes) + "\x80-\xff]").encode("latin-1"))
        # Indexed by byte value (for latin-1-decoded bytes) ...
        trans = [_PCT[i] if (i >= 128 or table[i]) else chr(i) for i in range(256)]
        # ... and by ASCII code point only, for str input whose non-ASCII stays.
        trans_ascii = trans[:128]
        if space_as_plus:
            trans[0x20] = trans_ascii[0x20] = "+"
        # The ASCII bytes that come out as they went in: deleting them with
        # bytes.translate leaves nothing exactly when there is nothing to do.
        keep = bytes(i for i in range(128) if i not in ascii_codes)
        # Runs of bytes that become %XX (a space in "+" mode is done apart).
        pct_codes = [i for i in range(128) if table[i] and not (space_as_plus and i == 0x20)]
        runs_re = re.compile(("([" + _class(pct_codes) + "\x80-\xff]+)").encode("latin-1"))
        t = (str_re, bytes_re, trans, trans_ascii, keep, runs_re)
        if len(_cache) > 256:  # user-built sets: keep the cache bounded
            _cache.clear()
        _cache[key] = t
    _last = (table, space_as_plus, t)
    return t


_last: tuple[bytes | None, bool | None, _Tables] = (None, None, ())  # type: ignore[assignment]


def _encode_runs(b: bytes, runs_re: re.Pattern[bytes], space_as_plus: bool) -> str:
    # For text that is mostly multi-byte characters (CJK and the like): split
    # into runs to encode and runs to keep; bytes.hex("%") writes a whole run
    # of escapes in C.
    parts: list[str] = []
    append = parts.append
    for i, part in enumerate(runs_re.split(b)):
        if i & 1:
            append("%" + part.hex("%").upper())
        elif part:
            text = part.decode("ascii")
            append(text.replace(" ", "+") if space_as_plus else text)
    return "".join(parts)


def encode(data: str | bytes, table: bytes, space_as_plus: bool) -> str:
    last = _last  # (_tables' own first test, without the call: short input feels it)
    str_re, bytes_re, trans, trans_ascii, keep, runs_re = (
        last[2] if last[0] is table and last[1] is space_as_plus
        else _tables(table, space_as_plus))
    if isinstance(data, str):
        if len(data) > 64 and data.isascii():
            # On long text one bytes.translate pass (deleting what stays) is
            # much faster than a regex scan: nothing left, nothing to do.
            if not data.encode("ascii").translate(None, keep):
                return data
            return data.translate(trans_ascii)
        if str_re.search(data) is None:
            return data
        if table[0x80]:
            b = data.encode("utf-8")
            if len(b) >= 2 * len(data) and len(data) >= 16:
                return _encode_runs(b, runs_re, space_as_plus)
            # latin-1 maps each UTF-8 byte to one character, so one
            # translate pass expands the bytes that need it to %XX.
            return b.decode("latin-1").translate(trans)
        return data.translate(trans_ascii)
    if bytes_re.search(data) is None:
        return data.decode("ascii")
    return data.decode("latin-1").translate(trans)


def _bad_percent_position(data: str | bytes) -> int:
    m = (
        BAD_PERCENT.search(data)
        if isinstance(data, str)
        else BAD_PERCENT_BYTES.search(data)
    )
    assert m is not None
    return m.start()


def _raise_bad_percent(data: str | bytes) -> None:
    pos = _bad_percent_position(data)
    snippet = data[pos : pos + 3]
    raise PercentDecodeError(
        f"invalid percent-encoding {snippet!r} at position {pos}: '%' must be followed by "
        "two hex digits (encode a literal '%' as %25)",
        pos,
    )


def decode(data: str | bytes, plus_as_space: bool, strict: bool) -> bytes:
    if isinstance(data, str):
        b = data.encode("ascii") if data.isascii() else data.encode("utf-8")
    else:
        b = data
    if plus_as_space and b"+" in b:
        b = b.replace(b"+", b" ")
    if b"%" not in b:
        return b
    try:
        # With backslashes doubled, each "%XX" spelled "\\xXX" is a Python
        # bytes escape, and the codecs' escape decoder (the one pickle uses)
        # decodes them all in one pass in C.  It rejects a "\\x" without two
        # hex digits, which is exactly a "%" that does not start an escape.
        return _escape_decode(b.replace(b"\\", b"\\\\").replace(b"%", b"\\x"))[0]
    except ValueError:
        pass
    if strict:
        _raise_bad_percent(data)
    # Some "%" is not an escape (lenient mode keeps it): one escape at a time.
    parts = b.split(b"%")
    out = [parts[0]]
    append = out.append
    get = _HEXTOBYTE.get
    for item in parts[1:]:
        h = get(item[:2])
        if h is None:
            append(b"%")
            append(item)
        else:
            append(h)
            append(item[2:])
    return b"".join(out)


def _utf8(b: bytes, utf8_strict: bool) -> str:
    if not utf8_strict:
        return b.decode("utf-8", "replace")
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TextDecodeError(
            f"percent-decoded bytes are not valid UTF-8: {e.reason} at byte {e.start} "
            f"({b[e.start : e.start + 4]!r})",
            e.start,
        ) from None


def decode_text(data: str | bytes, plus_as_space: bool, strict: bool, utf8_strict: bool) -> str:
    if isinstance(data, str) and "%" not in data and (not plus_as_space or "+" not in data):
        if not data.isascii():
            data.encode("utf-8")  # a lone surrogate is an error here too
        return data
    return _utf8(decode(data, plus_as_space, strict), utf8_strict)


def _decode_piece_str(piece: str) -> str:
    # The UTF-8 round trip of a scalar-value string is the identity, so only
    # pieces with escapes need the byte path.
    if "+" in piece:
        piece = piece.replace("+", " ")
    if "%" not in piece:
        return piece
    return decode(piece, False, False).decode("utf-8", "replace")


def _decode_piece_bytes(piece: bytes) -> str:
    if b"+" in piece:
        piece = piece.replace(b"+", b" ")
    if b"%" in piece:
        piece = decode(piece, False, False)
    return piece.decode("utf-8", "replace")


def form_parse(data: str | bytes) -> list[tuple[str, str]]:
    # URL Standard §5.1: split on "&", drop empty sequences, split each at the
    # first "=", "+" -> space, percent-decode, UTF-8 decode without BOM.
    out: list[tuple[str, str]] = []
    append = out.append
    if not isinstance(data, str) and data.isascii():
        # ASCII bytes parse exactly like the same str, and the str path only
        # touches fields with escapes (2-3x faster than the bytes path here)
        data = data.decode("ascii")
    if isinstance(data, str):
        dec_s = _decode_piece_str
        for seq in data.split("&"):
            if seq:
                name, _, value = seq.partition("=")
                append((dec_s(name), dec_s(value)))
    else:
        dec_b = _decode_piece_bytes
        for bseq in data.split(b"&"):
            if bseq:
                bname, _, bvalue = bseq.partition(b"=")
                append((dec_b(bname), dec_b(bvalue)))
    return out


def _decode_piece_raw(piece: bytes) -> bytes:
    if b"+" in piece:
        piece = piece.replace(b"+", b" ")
    if b"%" in piece:
        piece = decode(piece, False, False)
    return piece


def form_parse_bytes(data: bytes) -> list[tuple[bytes, bytes]]:
    out: list[tuple[bytes, bytes]] = []
    append = out.append
    dec = _decode_piece_raw
    for seq in data.split(b"&"):
        if seq:
            name, _, value = seq.partition(b"=")
            append((dec(name), dec(value)))
    return out


_FORM_TABLE = FORM_URLENCODED.table
# The form set over latin-1-decoded UTF-8 (one character per byte), space as
# "+", and two code points no such string holds standing for "=" and "&".
_FORM_TRANS = [_PCT[i] if (i >= 128 or _FORM_TABLE[i]) else chr(i) for i in range(256)]
_FORM_TRANS[0x20] = "+"
_FORM_TRANS += ["=", "&"]
_EQ, _AMP = "\u0100", "\u0101"


def _as_latin1(x: str | bytes) -> str:
    # One character per byte of the UTF-8 (str) or of the bytes as given.
    if type(x) is str:
        return x if x.isascii() else x.encode("utf-8").decode("latin-1")
    if isinstance(x, str):
        return x.encode("utf-8").decode("latin-1")
    if isinstance(x, bytes):
        return x.decode("latin-1")
    raise TypeError(f"expected string or bytes-like object, got {type(x).__name__!r}")


def form_serialize(pairs: Iterable[tuple[str, str]]) -> str:
    # URL Standard §5.2: the application/x-www-form-urlencoded set (everything
    # but ASCII alphanumerics and *-._), space as "+", pairs joined by "&".
    # Every name and value is joined into one string with stand-ins for "="
    # and "&", so a single str.translate pass does all the encoding.
    parts: list[str] = []
    append = parts.append
    latin1 = _as_latin1
    for name, value in pairs:
        append(latin1(name))
        append(_EQ)
        append(latin1(value))
        append(_AMP)
    if not parts:
        return ""
    parts.pop()
    return "".join(parts).translate(_FORM_TRANS)
