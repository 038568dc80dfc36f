"""Decoding urlencoded fields on the general path: legacy encodings, strict mode, positions.

The URL Standard's parser (§5.1) percent-decodes each name and value and then UTF-8
decodes it; this module swaps that last step for any decoder of the Encoding Standard
(§4.1 error modes "replacement" and "fatal"), reports an undecodable byte or a bad
``%`` at its position in the caller's input, and implements the pre-2016 URL
Standard's ``_charset_`` flag (:func:`_sniff_charset`: the first ``_charset_`` field
naming a known label chooses the decoder; HTML §4.10.22.4 sends that field).  The
default path (UTF-8, lossy) never comes here: it is the kernels'.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from .. import _args
from .. import core as _core
from .._abnf import BAD_PERCENT, BAD_PERCENT_BYTES
from ..errors import PercentDecodeError, TextDecodeError
from ._input import BAD_PERCENT_UNDER_ERRORS, Pair, Text, amp, to_ampersands

if TYPE_CHECKING:
    from ..encodings import Encoding

_UTF8_LABELS = _args.UTF8_LABELS
_CHARSET_STR = re.compile("_charset_", re.IGNORECASE)
_CHARSET_BYTES = re.compile(b"_charset_", re.IGNORECASE)
_HEX_PAIR_STR = re.compile("[0-9A-Fa-f]{2}")
_HEX_PAIR_BYTES = re.compile(b"[0-9A-Fa-f]{2}")


def lookup(label: str | Encoding) -> Encoding:
    from ..encodings import lookup

    return lookup(label)


def encoding_or_none(encoding: str | Encoding | None) -> Encoding | None:
    """None for UTF-8 (the kernels' own decoder), else the Encoding."""
    if encoding is None or (type(encoding) is str and encoding in _UTF8_LABELS):
        return None
    enc = lookup(encoding)
    return None if enc.name == "UTF-8" else enc


# --------------------------------------------------------------------------------------------
# Decoding fields (the general path: legacy encodings, strict mode, positions)


def _input_offset(piece: Text, k: int) -> int:
    """Index in ``piece`` (the raw field text) of byte ``k`` of its percent-decoded bytes."""
    i = 0
    n = len(piece)
    if isinstance(piece, str):
        while i < n and k > 0:
            c = piece[i]
            if c == "%" and _HEX_PAIR_STR.match(piece, i + 1):
                i += 3
                k -= 1
                continue
            w = 1 if c < "\x80" else len(c.encode("utf-8"))
            if k < w:
                return i
            k -= w
            i += 1
    else:
        while i < n and k > 0:
            if piece[i] == 0x25 and _HEX_PAIR_BYTES.match(piece, i + 1):
                i += 3
            else:
                i += 1
            k -= 1
    return i


def _text_decoder(enc: Encoding | None, strict: bool) -> Callable[[bytes], str]:
    if enc is None:
        if not strict:
            return lambda b: b.decode("utf-8", "replace")

        def utf8_strict(b: bytes) -> str:
            try:
                return b.decode("utf-8")
            except UnicodeDecodeError as e:
                raise TextDecodeError(f"invalid UTF-8 ({e.reason})", e.start) from None

        return utf8_strict
    mode: Literal["fatal", "replace"] = "fatal" if strict else "replace"
    return lambda b: enc.decode(b, errors=mode)


def sniff_charset(data: Text, sep: str = "&") -> Encoding | None:
    # Pre-2016 URL Standard §5.1 step "use _charset_ flag": the first field
    # named `_charset_` (compared after "+" -> space, before percent-decoding)
    # whose value is a known label sets the encoding.  The old parser compared
    # bytes exactly; HTML sends the hidden field's name in any case (§4.10.22.4
    # matches it ASCII case-insensitively), so any case matches here.
    if isinstance(data, str):
        if _CHARSET_STR.search(data) is None:
            return None
        bdata = data.encode("utf-8")
    else:
        if _CHARSET_BYTES.search(data) is None:
            return None
        bdata = data
    from ..encodings import lookup

    for seq in bdata.split(sep.encode("ascii")):
        name, _, value = seq.partition(b"=")
        if name.replace(b"+", b" ").lower() != b"_charset_":
            continue
        label = _core.decode(value, plus_as_space=True).decode("latin-1")
        try:
            return lookup(label)
        except LookupError:
            continue
    return None


def check_percents(data: Text, strict: bool, base: int, percent_strict: bool | None) -> None:
    """With ``percent_strict`` (None: follow ``strict``, deprecated), raise
    :class:`PercentDecodeError` at the first ``%`` not followed by two hex digits
    (URL Standard §1.3 percent-decode leaves it; strict mode reports it)."""
    if strict if percent_strict is None else percent_strict:
        m = (BAD_PERCENT if isinstance(data, str) else BAD_PERCENT_BYTES).search(data)  # type: ignore[arg-type]
        if m is not None:
            if percent_strict is None:
                _args.warn_deprecated(BAD_PERCENT_UNDER_ERRORS)
            pos = m.start()
            raise PercentDecodeError(
                f"invalid percent-encoding {data[pos:pos + 3]!r} at position {base + pos}: "
                "'%' must be followed by two hex digits (a literal '%' is %25)",
                base + pos,
            )


def decode_fields(
    data: Text,
    enc: Encoding | None,
    strict: bool,
    base: int,
    sep: str = "&",
    percent_strict: bool | None = None,
) -> list[Pair]:
    """URL Standard §5.1 over ``&``-separated ``data`` with any decoder; positions
    in errors are ``base`` + the index into ``data``.  ``strict``: fatal text
    decoding; ``percent_strict`` (None: follow ``strict``, deprecated): a bad
    ``%`` raises."""
    check_percents(data, strict, base, percent_strict)
    if not strict:
        data = to_ampersands(data, sep)
        if enc is None:
            return _core.form_parse_kernel(data)
        raw = _core.form_parse_bytes_kernel(
            data.encode("utf-8") if isinstance(data, str) else data
        )
        dec = enc.decode
        return [(dec(n), dec(v)) for n, v in raw]
    decode_text = _text_decoder(enc, True)
    out: list[Pair] = []
    ampersand = amp(data, sep)
    pos = 0
    for seq in data.split(ampersand):  # type: ignore[arg-type]
        start = pos
        pos += len(seq) + 1
        if not seq:
            continue
        eq = seq.find("=" if isinstance(seq, str) else b"=")  # type: ignore[arg-type]
        parts = (seq, seq[:0]) if eq < 0 else (seq[:eq], seq[eq + 1 :])
        offsets = (start, start + eq + 1)
        texts: list[str] = []
        for piece, off, what in zip(parts, offsets, ("name", "value"), strict=True):
            raw_b = _core.decode(piece, plus_as_space=True)
            try:
                texts.append(decode_text(raw_b))
            except TextDecodeError as e:
                p = base + off + _input_offset(piece, e.position)
                label = enc.name if enc is not None else "UTF-8"
                raise TextDecodeError(
                    f"the {what} of field {len(out) + 1} is not valid {label} at position {p} "
                    f"({e}); pass errors='replace' to get U+FFFD instead",
                    p,
                ) from None
        out.append((texts[0], texts[1]))
    return out
