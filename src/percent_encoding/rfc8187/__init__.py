"""Extended header parameters (``title*=UTF-8''%C2%A3%20rates``) and the
Content-Disposition header: RFC 8187 §3.2 (which obsoletes RFC 5987), RFC 6266
§4, and RFC 2231 §3-§4 continuations when parsing.

Strategy: an *ext-value* is ``charset "'" [language] "'" value-chars`` where
value-chars are ``attr-char`` (ALPHA DIGIT ``!#$&+-.^_`|~``) or ``%XX``
(RFC 8187 §3.2.1).  :func:`encode` writes one (over the core with the
``rfc8187`` set); :func:`decode` reads one back into ``(text, language)``.

* Charsets: producers use UTF-8 (RFC 8187 §3.2.1); :func:`decode` also reads
  ISO-8859-1 (required by RFC 5987) and US-ASCII (RFC 2231's examples), in
  any letter case, and any other Encoding Standard label with that
  Standard's decoder; an unknown label raises
  :class:`UnsupportedCharsetError` (a ``LookupError``).  Hex digits may be
  either case when decoding; encoding writes upper case.
* :func:`decode` is strict: a character outside the grammar, a ``%``
  without two hex digits or octets that are not valid in the charset raise
  :class:`ExtValueError` (a
  :class:`~percent_encoding.errors.PercentDecodeError`) with the position in
  the ext-value.  ``errors="replace"`` relaxes only the charset decoding
  (U+FFFD), as RFC 8187 §3.2.1's note on robust recipients suggests.
* :func:`content_disposition` writes a header value with an ASCII
  ``filename="..."`` fallback and, when the name needs it, ``filename*``
  (RFC 6266 §4.3 and Appendix D).  :func:`parse_content_disposition` reads
  one as a recipient should: ``filename*`` (and any ``name*``) wins over
  the plain form, unusable parameters are left out and an invalid header
  is ignored, each with a :class:`Finding`; ``strict=True`` raises
  :class:`ContentDispositionError` with the position instead.  RFC 2231
  continuations (not in HTTP, RFC 8187 §3.1; mail writes them) are joined
  with ``rfc2231=True``.

Layout: the ext-value grammar (errors, charsets, splitting and decoding)
lives in :mod:`._ext_value` and the RFC 6266 §4 header parser in
:mod:`._content_disposition`; this module holds the public functions that
write and read ext-values and headers, and re-exports the rest.
"""

from __future__ import annotations

import re
import unicodedata

from .. import _args
from .. import core as _core
from .._abnf import PCT_ENCODED as _PCT_LIKE
from .._abnf import TOKEN as _TOKEN
from .._scheme import Scheme
from ..errors import (
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
)
from ..sets import RFC8187
from ._content_disposition import ContentDisposition, Finding, parse_content_disposition
from ._ext_value import (
    CHARSETS as _CHARSETS,
)
from ._ext_value import (
    LANGUAGE as _LANGUAGE,
)
from ._ext_value import (
    ContentDispositionError,
    ExtValueError,
    UnsupportedCharsetError,
)
from ._ext_value import (
    codec as _codec,
)
from ._ext_value import (
    decode as _decode,
)
from ._ext_value import (
    to_text as _to_text,
)
from ._ext_value import (
    value_octets as _value_octets,
)

__all__ = [
    "SCHEMES",
    "ContentDisposition",
    "ContentDispositionError",
    "ExtValueError",
    "Finding",
    "UnsupportedCharsetError",
    "content_disposition",
    "decode",
    "encode",
    "parse_content_disposition",
]


@_args.positional_options("language")
@_args.renamed_keyword("charset", "encoding")
@_args.renamed_keyword("text", "data")
def encode(data: str | bytes, encoding: str = "UTF-8", *, language: str = "") -> str:
    """An RFC 8187 §3.2 ext-value: ``charset'language'value-chars``.

    ``data`` is encoded in ``encoding`` (``"UTF-8"``, the only charset RFC
    8187 lets producers use, or ``"ISO-8859-1"`` for RFC 5987 peers), then
    every octet that is not an attr-char becomes ``%XX``.  ``bytes`` are
    taken as already encoded in ``encoding``.  ``language`` is an optional
    RFC 5646 tag.  ``encoding`` may be passed by position or by keyword (as
    in ``str.encode``); ``language`` is keyword-only (by position: deprecated).
    ``charset=`` is the old name of ``encoding=`` (and ``text=`` of ``data=``):
    both still work, with a :class:`DeprecationWarning`.

    >>> encode("£ rates")
    "UTF-8''%C2%A3%20rates"
    >>> encode("£ rates", "ISO-8859-1")
    "ISO-8859-1''%A3%20rates"
    >>> encode("£ rates", encoding="ISO-8859-1", language="en")
    "ISO-8859-1'en'%A3%20rates"
    """
    charset = _args.check_label("encoding", encoding)
    _args.check_str("language", language)
    if charset.lower() not in _CHARSETS:
        raise UnsupportedCharsetError(
            f"charset {charset!r} cannot be written: RFC 8187 §3.2.1 lets producers use "
            "UTF-8 (and ISO-8859-1 for RFC 5987 peers)",
        )
    codec, label = _codec(charset, None)
    if language and not _LANGUAGE.match(language):
        raise PercentEncodingError(
            f"{language!r} is not a language tag (RFC 5646), e.g. 'en' or 'de-CH'"
        )
    text = data
    if isinstance(text, str):
        if codec != "utf-8":
            try:
                text = text.encode(codec)
            except UnicodeEncodeError as e:
                raise PercentEncodeError(
                    f"{text[e.start]!r} at position {e.start} cannot be encoded in {label}; "
                    "use UTF-8",
                    e.start,
                ) from None
    elif not isinstance(text, (bytes, bytearray, memoryview)):
        raise PercentEncodingTypeError(f"encode() takes str or bytes, not {type(text).__name__}")
    else:
        text = bytes(text)
    return f"{label}'{language}'{_core.encode(text, RFC8187)}"


def _check_errors(errors: object) -> str:
    return _args.check_errors(errors)  # "fatal"/"strict" -> "fatal"


def decode(ext_value: str, *, errors: str = "strict") -> tuple[str, str]:
    """Read an RFC 8187 ext-value: ``(text, language)``.

    Charset and hex digits may be in any case; the language comes back as
    written (``""`` when absent).

    >>> decode("utf-8'en'%C2%A3%20rates")
    ('£ rates', 'en')
    >>> decode("UTF-8''%c2%a3%20and%20%e2%82%ac%20rates")
    ('£ and € rates', '')
    >>> decode("iso-8859-1'en'%A3%20rates")
    ('£ rates', 'en')
    """
    if not isinstance(ext_value, str):
        raise PercentEncodingTypeError(
            f"decode() takes the ext-value as str, not {type(ext_value).__name__}"
        )
    return _decode(ext_value, _check_errors(errors), ExtValueError, 0)


# ---------------------------------------------------------------------------
# RFC 6266: Content-Disposition

_NEEDS_QUOTE_ESCAPE = re.compile(r'["\\]')
_UNSAFE_FALLBACK = re.compile(r"[^\x20-\x7e]|\\")


def _fallback_name(filename: str) -> str:
    # RFC 6266 Appendix D: the plain "filename" should be ASCII, without "\".
    # Letters with accents keep their base letter (NFKD, marks dropped: "é" ->
    # "e", "ﬁ" -> "fi"); anything else that is not printable ASCII, and "\",
    # becomes "_".
    if filename.isascii() and _UNSAFE_FALLBACK.search(filename) is None:
        return filename
    out = []
    for ch in filename:
        if " " <= ch <= "~" and ch != "\\":
            out.append(ch)
            continue
        if ord(ch) >= 0x80:
            base = "".join(
                c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c)
            )
            if base and all(" " <= c <= "~" and c != "\\" for c in base):
                out.append(base)
                continue
        out.append("_")
    return "".join(out)


def content_disposition(filename: str, disposition: str = "attachment") -> str:
    """A Content-Disposition header value for a download (RFC 6266 §4).

    ``filename="..."`` is always there, ASCII only, as a quoted-string
    (``"`` escaped as ``\\"``); non-ASCII letters lose their accents and other
    unsafe characters become ``_``.  When that fallback differs from the
    real name, or the name contains ``"`` or something that looks like a
    ``%XX`` escape (which some user agents would decode, RFC 6266 Appendix
    D), ``filename*=UTF-8''...`` follows it with the exact name.

    >>> content_disposition("report.pdf")
    'attachment; filename="report.pdf"'
    >>> content_disposition("€ rates.pdf", "inline")
    'inline; filename="_ rates.pdf"; filename*=UTF-8\\'\\'%E2%82%AC%20rates.pdf'
    """
    _args.check_str("filename", filename)
    _args.check_str("disposition", disposition)
    m = _TOKEN.match(disposition)
    if m is None or m.end() != len(disposition):
        raise PercentEncodingError(
            f"disposition type {disposition!r} is not a token (RFC 6266 §4.1), "
            "e.g. 'attachment' or 'inline'"
        )
    fallback = _fallback_name(filename)
    quoted = '"' + _NEEDS_QUOTE_ESCAPE.sub(lambda m: "\\" + m.group(), fallback) + '"'
    header = f"{disposition}; filename={quoted}"
    if fallback != filename or '"' in filename or _PCT_LIKE.search(filename):
        # RFC 6266 Appendix D: filename* after filename, for older agents.
        header += "; filename*=" + encode(filename)
    return header


def _scheme_encode(text: str) -> str:
    return _core.encode(text, RFC8187)


def _scheme_text(data: object) -> str:
    # The registry hands schemes str or bytes (contract).  An ext-value is ASCII; Latin-1
    # maps each byte to one character, so a stray non-ASCII byte is still reported (as a
    # character that is not attr-char) at its own offset.
    if isinstance(data, str):
        return data
    if isinstance(data, (bytes, bytearray, memoryview)):
        return bytes(data).decode("latin-1")
    raise PercentEncodingTypeError(f"expected str or bytes, not {type(data).__name__}")


def _scheme_decode(text: str | bytes) -> str:
    text = _scheme_text(text)
    return _to_text(
        _value_octets(text, ExtValueError, 0), "utf-8", "UTF-8", "strict", text,
        ExtValueError, 0,
    )


def _scheme_encode_ext(text: str) -> str:
    return encode(text)


def _scheme_decode_ext(text: str | bytes) -> str:
    return decode(_scheme_text(text))[0]


SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="rfc8187",
        spec="RFC 8187 §3.2.1 value-chars (UTF-8)",
        encode=_scheme_encode,
        decode=_scheme_decode,
        encode_set=RFC8187,
        notes=(
            "the value-chars of an ext-value: UTF-8, every octet but attr-char "
            "(ALPHA DIGIT !#$&+-.^_`|~) as %XX; a full ext-value is UTF-8'' + this "
            "(scheme rfc8187-ext-value)"
        ),
        family="HTTP header fields",
        aliases=("rfc5987",),
        plain=True,
        reversible=True,
    ),
    Scheme(
        name="rfc8187-ext-value",
        spec="RFC 8187 §3.2 ext-value (charset'language'value-chars)",
        encode=_scheme_encode_ext,
        decode=_scheme_decode_ext,
        encode_set=RFC8187,
        notes="UTF-8'' followed by the value-chars; decode reads UTF-8, ISO-8859-1, US-ASCII",
        family="HTTP header fields",
        reversible=True,
    ),
)
