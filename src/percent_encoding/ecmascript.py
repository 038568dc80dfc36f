"""JavaScript's six global URI functions, with a JavaScript engine's results and errors.

Spec: ECMA-262 §19.2.6 (``encodeURI``, ``encodeURIComponent``, ``decodeURI``,
``decodeURIComponent``: the abstract operations *Encode* and *Decode*) and
Annex B.2.1 (``escape``, ``unescape``).

Strategy: a Python ``str`` stands for a JavaScript string.  JavaScript strings
are UTF-16 code units, so an astral character and a valid surrogate pair are
the same string, and a lone surrogate is a lone surrogate.  Inputs may hold
either form of a pair; every result comes back with valid pairs joined into one
code point (lone surrogates stay).

* Encoding goes through :func:`percent_encoding.core.encode` with the ECMA-262
  sets of :mod:`percent_encoding.sets`; lone surrogates are found first, as
  they are the only way encoding can fail (a ``URIError`` in JavaScript).
* Decoding finds runs of ``%XX`` escapes, percent-decodes each run with
  :func:`percent_encoding.core.decode` and checks the bytes with Python's
  strict UTF-8 decoder, whose rules (no overlong forms, no surrogates, nothing
  past U+10FFFF, no truncated sequences) are the ones §19.2.6.6 (Decode) requires of
  every escape sequence.  Linear time.
* ``escape``/``unescape`` never fail.

Errors: :class:`~percent_encoding.errors.URIError` (a ``ValueError``) where an
engine throws ``URIError``.  Its ``position`` is a UTF-16 code-unit index into
the input, as JavaScript would count it: the lone surrogate when encoding; the
``%`` that starts the escape sequence that cannot be decoded when decoding.
"""

from __future__ import annotations

import re

from . import core as _core
from ._abnf import BAD_PERCENT as _BAD_PERCENT
from ._abnf import LONE_SURROGATE as _SURROGATE
from ._abnf import PCT_ENCODED_RUN as _ESCAPE_RUN  # each run decoded, UTF-8 checked at once
from ._scheme import Scheme
from .errors import PercentEncodingTypeError, URIError
from .sets import (
    ECMASCRIPT_ENCODE_URI,
    ECMASCRIPT_ENCODE_URI_COMPONENT,
    ECMASCRIPT_ESCAPE,
    EncodeSet,
)

__all__ = [
    "SCHEMES",
    "decodeURI",
    "decodeURIComponent",
    "decode_uri",
    "decode_uri_component",
    "encodeURI",
    "encodeURIComponent",
    "encode_uri",
    "encode_uri_component",
    "escape",
    "unescape",
]

_NOT_LATIN1 = re.compile("([^\x00-\xff]+)")
# §19.2.6.1 decodeURI: the escapes of uriReserved and "#" (; / ? : @ & = + $ , #)
# stay as written.  Only a one-byte escape can name one of them; inside a
# multi-byte sequence such a byte is simply invalid UTF-8 either way.
_RESERVED_ESCAPE = re.compile("(%(?:2[346BbCcFf]|3[AaBbDdFf]|40))")
# Used on input with no bad "%": every "%" then starts an escape, so this
# only ever matches the "%" of a reserved escape.
_RESERVED_PERCENT = re.compile("%(?=2[346BbCcFf]|3[AaBbDdFf]|40)")
_UNESCAPE = re.compile("%u([0-9A-Fa-f]{4})|%([0-9A-Fa-f]{2})")
_FOUR_HEX = re.compile("(....)")


def _check(value: object, func: str) -> str:
    if isinstance(value, str):
        return value
    raise PercentEncodingTypeError(
        f"{func}() takes a str (standing for a JavaScript string), not {type(value).__name__}"
    )


def _code_units(text: str) -> int:
    """How many UTF-16 code units ``text`` is in JavaScript."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def _join_pairs(text: str) -> str:
    """The same JavaScript string with every valid surrogate pair as one code point."""
    if text.isascii() or _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


# ---------------------------------------------------------------------------
# §19.2.6.5 Encode
# ---------------------------------------------------------------------------
def _encode(text: str, func: str, encode_set: EncodeSet) -> str:
    text = _check(text, func)
    if not text.isascii() and _SURROGATE.search(text) is not None:
        text = _join_pairs(text)
        m = _SURROGATE.search(text)
        if m is not None:
            # Encode step: CodePointAt reports an unpaired surrogate -> URIError.
            pos = _code_units(text[: m.start()])
            raise URIError(
                f"URI malformed: {func}() cannot encode the lone surrogate "
                f"U+{ord(m.group()):04X} at code unit {pos}",
                pos,
            )
    return _core.encode(text, encode_set)


def encode_uri(uri: str) -> str:
    """JavaScript's ``encodeURI`` (ECMA-262 §19.2.6.3).

    UTF-8 percent-encodes everything but ASCII letters, digits,
    ``-_.!~*'()``, the reserved ``;/?:@&=+$,`` and ``#``.  A lone surrogate
    raises :class:`URIError`.

    >>> encode_uri("https://example.com/a b?q=ü#top")
    'https://example.com/a%20b?q=%C3%BC#top'
    """
    return _encode(uri, "encode_uri", ECMASCRIPT_ENCODE_URI)


def encode_uri_component(component: str) -> str:
    """JavaScript's ``encodeURIComponent`` (ECMA-262 §19.2.6.4).

    UTF-8 percent-encodes everything but ASCII letters, digits and
    ``-_.!~*'()``.  A lone surrogate raises :class:`URIError`.

    >>> encode_uri_component("a&b=c/d 😀")
    'a%26b%3Dc%2Fd%20%F0%9F%98%80'
    """
    return _encode(component, "encode_uri_component", ECMASCRIPT_ENCODE_URI_COMPONENT)


# ---------------------------------------------------------------------------
# §19.2.6.6 Decode
# ---------------------------------------------------------------------------
def _bad_percent(text: str, index: int, func: str) -> URIError:
    pos = _code_units(text[:index])
    return URIError(
        f"URI malformed: {func}() found {text[index : index + 3]!r} at code unit {pos}; "
        "'%' must be followed by two hex digits (write a literal '%' as %25)",
        pos,
    )


def _decode_run(text: str, start: int, end: int, func: str) -> str:
    """Decode the well-formed escapes ``text[start:end]`` as one UTF-8 sequence."""
    raw = _core.decode(text[start:end])
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        # Python's strict decoder and §19.2.6.6 agree on where a sequence starts
        # and on what is valid, so e.start (a byte offset, 3 characters per
        # byte) is the escape that begins the sequence JavaScript rejects.
        index = start + 3 * e.start
        pos = _code_units(text[:index])
        lead = raw[e.start]
        if 0x80 <= lead < 0xC0:
            why = "is a continuation byte with no lead byte before it"
        elif e.reason == "invalid start byte":
            why = "can never start UTF-8 (C0/C1 are overlong, F5-FF past U+10FFFF)"
        elif e.reason == "unexpected end of data":
            why = "starts a UTF-8 sequence that is cut short"
        else:
            why = (
                "starts an invalid UTF-8 sequence (a missing continuation byte, an overlong "
                "form, an encoded surrogate or a code point past U+10FFFF)"
            )
        raise URIError(
            f"URI malformed: {func}() cannot decode the escape {text[index : index + 3]!r} "
            f"at code unit {pos}: byte 0x{lead:02X} {why}",
            pos,
        ) from None


def _decode(text: str, func: str, keep_reserved: bool) -> str:
    text = _check(text, func)
    if "%" not in text:
        return _join_pairs(text)
    if _BAD_PERCENT.search(text) is None and (text.isascii() or _SURROGATE.search(text) is None):
        # Fast path, one kernel call: the literal text is valid UTF-8 and
        # every byte it contributes is ASCII or a lead byte, so the whole
        # decodes iff each escape run does.  A reserved escape is turned into
        # the literal text "%2F" etc. by escaping its "%": it stays as written,
        # and, being ASCII, it breaks a multi-byte sequence just as the byte
        # would.  On failure, the loop below finds where.
        src = _RESERVED_PERCENT.sub("%25", text) if keep_reserved else text
        try:
            return _core.decode(src).decode("utf-8")
        except UnicodeDecodeError:
            pass
    out: list[str] = []
    append = out.append
    pos = 0
    for m in _ESCAPE_RUN.finditer(text):
        start, end = m.span()
        if text.find("%", pos, start) != -1:
            raise _bad_percent(text, text.index("%", pos, start), func)
        append(text[pos:start])
        if keep_reserved and _RESERVED_ESCAPE.search(text, start, end) is not None:
            # Split the run at the reserved escapes, which stay as written
            # (original case); the pieces between them are decoded.
            piece = start
            for r in _RESERVED_ESCAPE.finditer(text, start, end):
                if r.start() > piece:
                    append(_decode_run(text, piece, r.start(), func))
                append(r.group())
                piece = r.end()
            if piece < end:
                append(_decode_run(text, piece, end, func))
        else:
            append(_decode_run(text, start, end, func))
        pos = end
    if text.find("%", pos) != -1:
        raise _bad_percent(text, text.index("%", pos), func)
    append(text[pos:])
    return _join_pairs("".join(out))


def decode_uri(encoded_uri: str) -> str:
    """JavaScript's ``decodeURI`` (ECMA-262 §19.2.6.1).

    Decodes ``%XX`` escapes (UTF-8, any hex case), except that the escape of
    a reserved character or ``#`` (``;/?:@&=+$,#``) is kept as written.  A
    ``%`` without two hex digits, invalid or overlong UTF-8, an encoded
    surrogate, a code point past U+10FFFF or a cut-short sequence raises
    :class:`URIError`.

    >>> decode_uri("/caf%C3%A9?a%3Db%26c%2fd")
    '/café?a%3Db%26c%2fd'
    """
    return _decode(encoded_uri, "decode_uri", True)


def decode_uri_component(encoded_component: str) -> str:
    """JavaScript's ``decodeURIComponent`` (ECMA-262 §19.2.6.2).

    Decodes every ``%XX`` escape (UTF-8, any hex case); errors as
    :func:`decode_uri`.

    >>> decode_uri_component("a%26b%3Dc%20%F0%9F%98%80")
    'a&b=c 😀'
    """
    return _decode(encoded_component, "decode_uri_component", False)


# ---------------------------------------------------------------------------
# Annex B.2.1 escape / unescape
# ---------------------------------------------------------------------------
def _escape_wide(run: str) -> str:
    # B.2.1.1: a code unit above 0xFF becomes "%u" and four upper-case hex
    # digits; astral characters are two code units, so two escapes.
    hexed = run.encode("utf-16-be", "surrogatepass").hex().upper()
    return _FOUR_HEX.sub(r"%u\1", hexed)


def escape(string: str) -> str:
    """JavaScript's ``escape`` (ECMA-262 Annex B.2.1.1).

    Keeps ASCII letters, digits and ``@*_+-./``; a code unit up to U+00FF
    becomes ``%XX`` (the code unit, not UTF-8), a code unit above it
    ``%uXXXX``, upper-case hex.  Never fails.

    >>> escape("a b+é€😀")
    'a%20b+%E9%u20AC%uD83D%uDE00'
    """
    string = _check(string, "escape")
    if string.isascii():
        return _core.encode(string, ECMASCRIPT_ESCAPE)
    parts = _NOT_LATIN1.split(string)
    # Even parts are code units <= 0xFF: as Latin-1 bytes each is one byte,
    # which the kernel writes as %XX; odd parts are the wide runs.
    return "".join(
        _escape_wide(p) if i & 1 else _core.encode(p.encode("latin-1"), ECMASCRIPT_ESCAPE)
        for i, p in enumerate(parts)
        if p
    )


def _unescape_one(m: re.Match[str]) -> str:
    return chr(int(m.group(1) or m.group(2), 16))


def unescape(string: str) -> str:
    """JavaScript's ``unescape`` (ECMA-262 Annex B.2.1.2).

    ``%uXXXX`` becomes that code unit and ``%XX`` that code unit (not UTF-8),
    hex digits in any case; anything else, including a malformed escape, is
    kept.  Escaped surrogate pairs come back as one character.  Never fails.

    >>> unescape("%u20AC%e9%uD83D%uDE00%zz%u12")
    '€é😀%zz%u12'
    """
    string = _check(string, "unescape")
    if "%" not in string:
        return _join_pairs(string)
    return _join_pairs(_UNESCAPE.sub(_unescape_one, string))


# The JavaScript spellings, for code ported from JavaScript.
encodeURI = encode_uri
encodeURIComponent = encode_uri_component
decodeURI = decode_uri
decodeURIComponent = decode_uri_component


def _schemes() -> tuple[Scheme, ...]:
    family = "ECMAScript"
    return (
        Scheme(
            name="ecmascript-encodeURI",
            spec="ECMA-262 §19.2.6.3 encodeURI / §19.2.6.1 decodeURI",
            encode=encode_uri,
            decode=decode_uri,
            encode_set=ECMASCRIPT_ENCODE_URI,
            notes="UTF-8; keeps ;/?:@&=+$,# and -_.!~*'(); lone surrogates throw URIError; "
            "decodeURI keeps escapes of ;/?:@&=+$,#",
            family=family,
            plain=True,
            reversible=True,
        ),
        Scheme(
            name="ecmascript-encodeURIComponent",
            spec="ECMA-262 §19.2.6.4 encodeURIComponent / §19.2.6.2 decodeURIComponent",
            encode=encode_uri_component,
            decode=decode_uri_component,
            encode_set=ECMASCRIPT_ENCODE_URI_COMPONENT,
            notes="UTF-8; keeps only ASCII alphanumerics and -_.!~*'(); lone surrogates throw",
            family=family,
            plain=True,
            reversible=True,
        ),
        Scheme(
            name="ecmascript-escape",
            spec="ECMA-262 Annex B.2.1.1 escape / B.2.1.2 unescape",
            encode=escape,
            decode=unescape,
            encode_set=ECMASCRIPT_ESCAPE,
            notes="not UTF-8: %XX for code units up to U+00FF, %uXXXX above; keeps @*_+-./",
            family=family,
            reversible=True,
        ),
    )


SCHEMES: tuple[Scheme, ...] = _schemes()
