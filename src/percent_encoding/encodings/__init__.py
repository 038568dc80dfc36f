"""The WHATWG Encoding Standard: labels, decoders and encoders.

Follows https://encoding.spec.whatwg.org/ (§4.2 "get an encoding", §4.3 "get an output
encoding", §5 indexes, §6 hooks for standards, §8-§14 the encodings themselves).  The URL
Standard's "percent-encode after encoding" and HTML form submission need these legacy
encoders, with their "html" error mode (unencodable code points become ``&#N;``).

Strategy
--------
* :func:`lookup` turns a label into an :class:`Encoding` (case-insensitive, ASCII whitespace
  trimmed).  Unknown labels raise :class:`~percent_encoding.errors.UnknownEncodingError`.
* Tables are never shipped as copies of the Standard's index files.  On first use of an
  encoding its index is *derived from the matching Python codec* (``cp932`` for index
  jis0208, ``big5hkscs`` for index Big5, ...) and then patched with the small correction
  tables below (``_INDEX_FIXES``), which record exactly where Python and the Standard
  disagree.  ``tests/conformance/test_encoding_indexes.py`` proves the result equals the
  Standard's indexes entry for entry.
* Decoding: the Python codec is tried first (strict, in C).  Its output is accepted only when
  it contains none of the characters that Python decodes differently from the Standard
  (computed per encoding at first use); otherwise, or when the codec fails, a pure-Python
  implementation of the Standard's decoder runs, with the Standard's exact error recovery.
* Encoding: ``str.translate`` with a table built from the Standard's encoder rules (C speed),
  then ``latin-1``; single-byte encodings use ``codecs.charmap_encode``.

Layout: this package's ``__init__`` is the public API; ``_data`` holds the generated tables,
``_index`` derives the §5 indexes from Python's codecs, ``_codecs`` has the decoders and
encoders by name (UTF-8, single-byte, UTF-16, replacement), ``_chinese``, ``_japanese`` and
``_korean`` the CJK ones, ``_base`` what they share.

Errors: decoders in "fatal" mode raise :class:`~percent_encoding.errors.TextDecodeError`
(``position`` = byte offset where the bad sequence starts); encoders in "fatal" mode raise
:class:`~percent_encoding.errors.PercentEncodeError` (``position`` = index in the ``str``).
Lone surrogates are not scalar values, so every encoder rejects them in both modes (the URL
Standard converts input to a USVString before it gets here).  ``errors="strict"`` is accepted
as an alias of ``"fatal"`` (the word the rest of the library uses); any other unknown mode raises
:class:`~percent_encoding.errors.PercentEncodingError` listing the allowed ones.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from .. import _args
from .._abnf import LONE_SURROGATE as _SURROGATE_RE
from ..errors import (
    PercentEncodeError,
    PercentEncodingTypeError,
    UnknownEncodingError,
)
from ._codecs import codec as _codec
from ._data import ENCODING_GROUPS as _ENCODING_GROUPS
from ._data import SINGLE_BYTE_INDEX as _SINGLE_BYTE_INDEX
from ._index import INDEX_LAYOUT as _INDEX_LAYOUT
from ._index import index as _index

__all__ = [
    "Encoding",
    "bom_sniff",
    "decode",
    "encode",
    "index",
    "is_utf8",
    "lookup",
    "names",
    "utf8_decode_without_bom",
]

# "strict" is accepted as an alias of "fatal" (the word core.decode_text and core.encode use),
# so one vocabulary works across the library; the Encoding Standard's own word is "fatal".
DecodeErrors = _args.DecodeErrors
EncodeErrors = _args.CodecEncodeErrors


# --------------------------------------------------------------------------------------------
# Public API


@dataclass(frozen=True)
class Encoding:
    """One encoding of the Encoding Standard (§4), e.g. ``lookup("sjis").name == "Shift_JIS"``.

    >>> lookup("latin1").decode(b"\\x80")
    '€'
    >>> lookup("shift_jis").encode("ア")
    b'\\x83A'
    """

    name: str
    labels: tuple[str, ...] = field(compare=False, repr=False)

    @property
    def output_encoding(self) -> Encoding:
        """§4.3 "get an output encoding": UTF-16BE/LE and replacement give UTF-8."""
        if self.name in ("replacement", "UTF-16BE", "UTF-16LE"):
            return lookup("utf-8")
        return self

    def decode(self, data: bytes | bytearray | memoryview, errors: DecodeErrors = "replace") -> str:
        """Run this encoding's decoder over ``data`` (no BOM sniffing; see :func:`decode`).

        ``errors="replace"`` gives U+FFFD per decoder error, ``"fatal"`` raises
        :class:`TextDecodeError` with the byte offset where the bad sequence starts.
        """
        fatal = _check_decode_errors(errors)
        return _codec(self.name).decode(_as_bytes(data), fatal)

    def encode(self, text: str, errors: EncodeErrors = "fatal") -> bytes:
        """Run the encoder of this encoding's output encoding over ``text``.

        ``errors="fatal"`` raises :class:`PercentEncodeError` at the first code point the
        encoding cannot represent; ``errors="html"`` writes ``&#N;`` for each one instead
        (Encoding Standard §7 "process an item", error mode "html").  Lone surrogates raise
        in both modes.
        """
        _args.check_str_input("encode", text)
        html = _check_encode_errors(errors)
        m = _SURROGATE_RE.search(text)
        if m is not None:
            raise PercentEncodeError(
                f"lone surrogate U+{ord(m.group()):04X} at index {m.start()} is not a scalar "
                "value; convert the text to a USVString (e.g. replace it with U+FFFD) first",
                m.start(),
            )
        return _codec(self.output_encoding.name).encode(text, html)

    def encode_segments(self, text: str) -> list[bytes | int]:
        """Encode like :meth:`encode`, reporting unencodable code points instead of failing.

        The result alternates runs of encoded bytes with ``int`` code points that could not
        be encoded, in input order (ISO-2022-JP keeps its state across them).  This is the
        Encoding Standard's "encode or fail" loop (§6) as the URL Standard's "percent-encode
        after encoding" uses it: the caller writes ``%26%23N%3B`` for each ``int``.

        >>> lookup("windows-1252").encode_segments("a\u2603b")
        [b'a', 9731, b'b']
        """
        _args.check_str_input("encode", text)
        m = _SURROGATE_RE.search(text)
        if m is not None:
            raise PercentEncodeError(
                f"lone surrogate U+{ord(m.group()):04X} at index {m.start()} is not a scalar "
                "value; convert the text to a USVString (e.g. replace it with U+FFFD) first",
                m.start(),
            )
        return _codec(self.output_encoding.name).segments(text)


def is_utf8(label: str, *, output: bool = False) -> bool:
    """Whether the encoding label ``label`` names UTF-8.

    Encoding Standard §4.2 *get an encoding* (any spelling, surrounding ASCII
    whitespace ignored).  With ``output=True`` the question is about *get an output
    encoding* (§4.3), the encoding a URL query or a form is percent-encoded with:
    UTF-16BE, UTF-16LE and replacement give UTF-8 there.  An unknown label raises
    :class:`~percent_encoding.errors.UnknownEncodingError`.

    >>> from percent_encoding.encodings import is_utf8
    >>> is_utf8(" UTF8 "), is_utf8("shift_jis"), is_utf8("utf-16le", output=True)
    (True, False, True)
    """
    _args.check_bool("output", output)
    if type(label) is str and label in _args.UTF8_LABELS:
        return True
    _args.check_label("label", label)
    return _is_utf8_lookup(label, output)


@lru_cache(maxsize=64)
def _is_utf8_lookup(label: str, output: bool) -> bool:
    enc = lookup(label)
    return (enc.output_encoding if output else enc).name == "UTF-8"


def lookup(label: str | Encoding) -> Encoding:
    """§4.2 "get an encoding": ``lookup(" Latin1 ").name == "windows-1252"``.

    Raises :class:`UnknownEncodingError` (also a ``LookupError``) for unknown labels.
    """
    if isinstance(label, Encoding):
        return label
    if not isinstance(label, str):
        raise PercentEncodingTypeError(
            f"encoding must be an encoding label (str), not {type(label).__name__}"
        )
    enc = _BY_LABEL.get(label.strip("\t\n\f\r ").lower())
    if enc is None:
        raise UnknownEncodingError(
            _suggest(label)
            or f"{label!r} is not a label in the WHATWG Encoding Standard "
            "(see percent_encoding.encodings.names())"
        )
    return enc


# Python codec names (codecs.lookup(...).name) whose WHATWG label is not the same word.
_PY_TO_WHATWG = {
    "iso8859-1": "iso-8859-1",
    "cp932": "shift_jis",
    "shift_jis_2004": "shift_jis",
    "shift_jisx0213": "shift_jis",
    "euc_jp": "euc-jp",
    "euc_jis_2004": "euc-jp",
    "euc_jisx0213": "euc-jp",
    "iso2022_jp": "iso-2022-jp",
    "cp949": "euc-kr",
    "euc_kr": "euc-kr",
    "cp936": "gbk",
    "cp950": "big5",
    "big5hkscs": "big5",
    "mac-roman": "macintosh",
    "mac-cyrillic": "x-mac-cyrillic",
}


def _suggest(label: str) -> str:
    """The error message for a Python codec name that has a WHATWG label, else ''.

    Encoding Standard §4.2 labels are not Python's codec names: ``latin-1`` and
    ``cp932`` are Python's; the Standard says ``iso-8859-1`` (which it decodes as
    windows-1252) and ``shift_jis``.
    """
    import codecs

    key = label.strip("\t\n\f\r ").lower()
    try:
        py = codecs.lookup(key).name
    except (LookupError, ValueError):
        py = None
    candidates = [key.replace("_", "-")]
    if py is not None:
        candidates[:0] = [_PY_TO_WHATWG.get(py, py), py.replace("_", "-")]
    for c in candidates:
        enc = _BY_LABEL.get(c)
        if enc is not None:
            same = enc.name.lower() == c
            note = "" if same else f" (the Standard, like browsers, reads it as {enc.name})"
            return (f"{label!r} is Python's codec name, not a WHATWG Encoding Standard label: "
                    f"use {c!r}{note}")
    return ""


def names() -> tuple[str, ...]:
    """The canonical names of all 40 encodings, in the Standard's order."""
    return tuple(enc.name for enc in _ALL)


def bom_sniff(data: bytes | bytearray | memoryview) -> Encoding | None:
    """§6 "BOM sniff": UTF-8, UTF-16BE or UTF-16LE when ``data`` starts with a BOM."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise PercentEncodingTypeError(f"bom_sniff() takes bytes, not {type(data).__name__}")
    head = bytes(data[:3])
    if head == b"\xef\xbb\xbf":
        return lookup("utf-8")
    if head[:2] == b"\xfe\xff":
        return lookup("utf-16be")
    if head[:2] == b"\xff\xfe":
        return lookup("utf-16le")
    return None


@_args.positional_options("errors")
def decode(
    data: bytes | bytearray | memoryview,
    encoding: str | Encoding = "utf-8",
    *,
    errors: DecodeErrors = "replace",
) -> str:
    """§6 "decode": a byte order mark wins over ``encoding``, then that encoding's decoder.

    ``encoding`` may be passed by position or by keyword, as in
    ``bytes.decode``; ``errors`` is keyword-only (by position: deprecated).
    It is ``"replace"`` or ``"fatal"`` (``"strict"`` is an alias of ``"fatal"``);
    anything else raises :class:`PercentEncodingError`.

    >>> decode(b"\\x82\\xa0", "shift_jis")
    'あ'
    >>> decode(b"\\xff\\xfea\\x00", encoding="shift_jis")
    'a'
    """
    _check_decode_errors(errors)
    raw = _as_bytes(data)
    enc = lookup(encoding)
    bom = bom_sniff(raw)
    if bom is not None:
        enc = bom
        raw = raw[3:] if bom.name == "UTF-8" else raw[2:]
    return enc.decode(raw, errors)


@_args.positional_options("errors")
def utf8_decode_without_bom(
    data: bytes | bytearray | memoryview, *, errors: DecodeErrors = "replace"
) -> str:
    """§6 "UTF-8 decode without BOM" (``errors="fatal"``: "... or fail", raising)."""
    fatal = _check_decode_errors(errors)
    return _codec("UTF-8").decode(_as_bytes(data), fatal)


@_args.positional_options("errors")
def encode(
    text: str, encoding: str | Encoding = "utf-8", *, errors: EncodeErrors = "fatal"
) -> bytes:
    """Encode ``text`` with the output encoding (§4.3) of ``encoding``.

    ``errors`` is ``"fatal"`` (or its alias ``"strict"``) or ``"html"``, as in
    :meth:`Encoding.encode`; anything else raises :class:`PercentEncodingError`.

    ``encoding`` may be passed by position or by keyword, as in ``str.encode``;
    ``errors`` is keyword-only (by position: deprecated).

    >>> encode("\\u3042", "shift_jis")
    b'\\x82\\xa0'

    >>> encode("\\u2603", encoding="windows-1252", errors="html")
    b'&#9731;'
    """
    return lookup(encoding).encode(text, errors)


# --------------------------------------------------------------------------------------------
# Helpers


def _as_bytes(data: bytes | bytearray | memoryview) -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise PercentEncodingTypeError(f"decode() takes bytes, not {type(data).__name__}")


def _error_mode(errors: object, allowed: tuple[str, ...]) -> str:
    """Validate an ``errors`` argument; "strict" is folded into "fatal"."""
    return _args.check_errors(errors, allowed)


def _check_decode_errors(errors: object) -> bool:
    """True for fatal mode ("fatal" or its alias "strict"), False for "replace"."""
    return _error_mode(errors, _args.DECODE_ERRORS) == "fatal"


def _check_encode_errors(errors: object) -> bool:
    """True for "html" mode, False for fatal ("fatal" or its alias "strict")."""
    return _error_mode(errors, _args.CODEC_ENCODE_ERRORS) == "html"


# --------------------------------------------------------------------------------------------
# Registry

_ALL: tuple[Encoding, ...] = tuple(
    Encoding(name, labels) for _heading, group in _ENCODING_GROUPS for name, labels in group
)
_BY_LABEL: dict[str, Encoding] = {label: enc for enc in _ALL for label in enc.labels}


def index(name: str) -> list[int | None]:
    """The Encoding Standard's index ``name`` (§5), derived from Python's codecs and corrected.

    ``index(name)[pointer]`` is the index code point, or ``None`` where the index has none.
    Names are the Standard's (``"jis0208"``, ``"big5"``, ``"windows-1252"``, ...); an
    unknown one raises :class:`~percent_encoding.errors.UnknownEncodingError`.  The list is
    cached and shared: do not modify it.

    >>> index("jis0208")[0] == ord("\u3000")
    True
    >>> index("windows-1252")[0] == ord("€")
    True
    """
    if not isinstance(name, str):
        raise PercentEncodingTypeError(
            f"index() takes an index name (str), not {type(name).__name__}"
        )
    try:
        return _index(name)
    except KeyError:
        known = sorted({*_INDEX_LAYOUT, "iso-2022-jp-katakana", *_SINGLE_BYTE_INDEX.values()})
        raise UnknownEncodingError(
            f"{name!r} is not an index of the Encoding Standard (§5); known: {', '.join(known)}"
        ) from None
