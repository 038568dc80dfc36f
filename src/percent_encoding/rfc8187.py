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
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import NamedTuple

from . import _args
from . import core as _core
from . import encodings as _encodings
from ._abnf import BAD_PERCENT as _BAD_PERCENT
from ._abnf import OWS as _OWS
from ._abnf import PCT_ENCODED as _PCT_LIKE
from ._abnf import TOKEN as _TOKEN
from ._http import read_quoted
from ._scheme import Scheme
from .errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownEncodingError,
)
from .sets import RFC8187

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


class ExtValueError(PercentDecodeError):
    """An ext-value that does not follow RFC 8187 §3.2.1 (or that does not
    decode in its charset).  ``position`` is the index in the ext-value."""


class ContentDispositionError(ExtValueError):
    """A Content-Disposition header value that does not follow RFC 6266 §4.1.
    ``position`` is the index in the header value."""


class UnsupportedCharsetError(UnknownEncodingError):
    """An ext-value charset other than UTF-8, ISO-8859-1 or US-ASCII.

    ``position`` is where the charset starts (0 in an ext-value), or ``None``
    when it was an argument to :func:`encode`.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


# Charset labels (case-insensitive, RFC 8187 §3.2.1) -> Python codec.
_CHARSETS = {"utf-8": "utf-8", "iso-8859-1": "latin-1", "us-ascii": "ascii"}
_CANONICAL = {"utf-8": "UTF-8", "iso-8859-1": "ISO-8859-1", "us-ascii": "US-ASCII"}

# RFC 8187 §3.2.1 (via RFC 2978 §2.3): mime-charsetc, without "'".
_MIME_CHARSET = re.compile(r"[A-Za-z0-9!#$%&+\-^_`{}~]+")
# RFC 5646 §2.1 in outline: a primary subtag of letters, then subtags of
# letters and digits (covers privateuse "x-..." and the grandfathered tags).
_LANGUAGE = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*\Z")
_ATTR_CHARS = "A-Za-z0-9!#$&+\\-.^_`|~"
_BAD_VALUE_CHAR = re.compile(f"[^{_ATTR_CHARS}%]")


def _codec(charset: str, position: int | None) -> tuple[str, str]:
    """(codec, label) for a charset an ext-value may name.

    UTF-8, ISO-8859-1 and US-ASCII are read exactly as RFC 8187 §3.2.1 names
    them (Python codecs); any other label the Encoding Standard knows (RFC 2231
    §4 allows any MIME charset, RFC 8187 allows more than the two it requires)
    is read with that Standard's decoder, as browsers do: codec "whatwg:NAME".
    """
    key = charset.lower()
    codec = _CHARSETS.get(key)
    if codec is not None:
        return codec, _CANONICAL[key]
    try:
        enc = _encodings.lookup(charset)
    except UnknownEncodingError:
        enc = None
    if enc is None or enc.name == "replacement":
        raise UnsupportedCharsetError(
            f"charset {charset!r} is not supported: RFC 8187 §3.2.1 asks for UTF-8 "
            "(ISO-8859-1, US-ASCII and the Encoding Standard's labels are read too)",
            position,
        )
    return "whatwg:" + enc.name, enc.name


def _octets_decode(octets: bytes, codec: str, errors: str = "strict") -> str:
    # Python's UnicodeDecodeError for both kinds of codec, so callers can say where.
    if not codec.startswith("whatwg:"):
        return octets.decode(codec, errors)
    enc = _encodings.lookup(codec[7:])
    if errors == "replace":
        return enc.decode(octets, "replace")
    try:
        return enc.decode(octets, "fatal")
    except TextDecodeError as e:
        start = e.position if e.position is not None else 0
        raise UnicodeDecodeError(
            codec[7:], octets, start, start + 1, f"invalid {codec[7:]} byte sequence"
        ) from None


@_args.positional_options("encoding", "language")
@_args.renamed_keyword("charset", "encoding")
@_args.renamed_keyword("text", "data")
def encode(data: str | bytes, *, encoding: str = "UTF-8", language: str = "") -> str:
    """An RFC 8187 §3.2 ext-value: ``charset'language'value-chars``.

    ``data`` is encoded in ``encoding`` (``"UTF-8"``, the only charset RFC
    8187 lets producers use, or ``"ISO-8859-1"`` for RFC 5987 peers), then
    every octet that is not an attr-char becomes ``%XX``.  ``bytes`` are
    taken as already encoded in ``encoding``.  ``language`` is an optional
    RFC 5646 tag.  ``charset=`` is the old name of ``encoding=`` (and
    ``text=`` of ``data=``), and both options used to be positional: all
    still work, with a :class:`DeprecationWarning`.

    >>> encode("£ rates")
    "UTF-8''%C2%A3%20rates"
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


def _split(ext_value: str, error: type[ExtValueError], offset: int) -> tuple[str, str, int]:
    first = ext_value.find("'")
    second = ext_value.find("'", first + 1) if first != -1 else -1
    if second == -1:
        raise error(
            f"{ext_value[:40]!r} is not an ext-value: expected charset'language'value "
            "(RFC 8187 §3.2.1), e.g. UTF-8''%C2%A3",
            offset + (len(ext_value) if first == -1 else first),
        )
    charset, language = ext_value[:first], ext_value[first + 1 : second]
    if not charset:
        raise error("the ext-value has no charset before the first \"'\"", offset)
    m = _MIME_CHARSET.match(charset)
    if m is None or m.end() != len(charset):
        pos = 0 if m is None else m.end()
        raise error(f"{charset[pos]!r} cannot appear in a charset name", offset + pos)
    if language and not _LANGUAGE.match(language):
        raise error(f"{language!r} is not a language tag (RFC 5646)", offset + first + 1)
    return charset, language, second + 1


def _value_octets(value: str, error: type[ExtValueError], offset: int) -> bytes:
    m = _BAD_VALUE_CHAR.search(value)
    if m is not None:
        raise error(
            f"{m.group()!r} at position {offset + m.start()} must be percent-encoded in an "
            "ext-value (RFC 8187 §3.2.1: only attr-char and %XX)",
            offset + m.start(),
        )
    m = _BAD_PERCENT.search(value)
    if m is not None:
        raise error(
            f"'%' at position {offset + m.start()} must be followed by two hex digits",
            offset + m.start(),
        )
    return _core.decode(value)


def _octet_to_index(value: str, octet: int) -> int:
    # Where, in a checked value-chars string, the octet with this index came from.
    i = n = 0
    while n < octet:
        i += 3 if value[i] == "%" else 1
        n += 1
    return i


def _to_text(
    octets: bytes, codec: str, label: str, errors: str, value: str,
    error: type[ExtValueError], offset: int,
) -> str:
    if errors == "replace":
        return _octets_decode(octets, codec, "replace")
    try:
        return _octets_decode(octets, codec)
    except UnicodeDecodeError as e:
        pos = offset + _octet_to_index(value, e.start)
        hint = "" if error is ContentDispositionError else "; pass errors='replace' for U+FFFD"
        raise error(
            f"the octets at position {pos} are not valid {label} ({e.reason}){hint}", pos
        ) from None


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


def _decode(
    ext_value: str, errors: str, error: type[ExtValueError], offset: int
) -> tuple[str, str]:
    charset, language, start = _split(ext_value, error, offset)
    codec, label = _codec(charset, offset)
    value = ext_value[start:]
    octets = _value_octets(value, error, offset + start)
    return _to_text(octets, codec, label, errors, value, error, offset + start), language


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


_SECTION = re.compile(r"(.+?)\*([0-9]{1,7})(\*?)\Z")


class Finding(NamedTuple):
    """Something :func:`parse_content_disposition` ignored or repaired:
    a short ``code``, where in the header (``position``) and what."""

    code: str
    position: int
    message: str


class ContentDisposition(tuple[str, dict[str, str]]):
    """The result of :func:`parse_content_disposition`: a ``(type, params)``
    pair (unpack it like a tuple), plus the :class:`Finding` list of what was
    ignored.  ``type`` is ``""`` when the whole header was invalid and ignored."""

    findings: tuple[Finding, ...]

    def __new__(
        cls, disposition: str, params: dict[str, str], findings: Iterable[Finding] = ()
    ) -> ContentDisposition:
        if not isinstance(disposition, str):
            raise PercentEncodingTypeError(
                f"disposition must be a str, not {type(disposition).__name__}"
            )
        if not isinstance(params, dict):
            raise PercentEncodingTypeError(f"params must be a dict, not {type(params).__name__}")
        if isinstance(findings, (str, bytes)) or not isinstance(findings, Iterable):
            raise PercentEncodingTypeError(
                f"findings must be an iterable of Finding, not {type(findings).__name__}"
            )
        found = tuple(findings)
        if not all(isinstance(f, Finding) for f in found):
            raise PercentEncodingTypeError("findings must be Finding objects")
        self = super().__new__(cls, (disposition, params))
        self.findings = found
        return self

    @property
    def type(self) -> str:
        """The disposition type, lower-cased (``""`` for an ignored header)."""
        return self[0]

    @property
    def params(self) -> dict[str, str]:
        """The parameters by lower-cased name, values decoded."""
        return self[1]

    @property
    def filename(self) -> str | None:
        """The ``filename`` parameter, or ``None``."""
        return self[1].get("filename")


class _Invalid(Exception):
    """The header breaks RFC 6266 §4.1 as a whole: tc2231's "ignore the header"."""

    def __init__(self, code: str, message: str, position: int) -> None:
        super().__init__(message)
        self.code, self.message, self.position = code, message, position


# name -> (value, position of the value, quoted, position of the name)
_Raw = dict[str, tuple[str, int, bool, int]]


def _parse_params(header: str, i: int, findings: list[Finding]) -> _Raw:
    # RFC 6266 §4.1: disposition-parm = ";" OWS token OWS "=" OWS ( token / quoted-string )
    n = len(header)
    params: _Raw = {}
    while True:
        i = _OWS.match(header, i).end()  # type: ignore[union-attr]
        if i >= n:
            return params
        if header[i] != ";":
            raise _Invalid(
                "expected-semicolon",
                f"expected ';' before the next parameter at position {i} (found "
                f"{header[i]!r}: a ',' or space inside an unquoted value needs quotes)",
                i,
            )
        semi = i
        i = _OWS.match(header, i + 1).end()  # type: ignore[union-attr]
        if i >= n:
            # Not in the grammar, but harmless and common: noted, not fatal.
            findings.append(Finding("trailing-semicolon", semi, "a ';' ends the header"))
            return params
        m = _TOKEN.match(header, i)
        if m is None:
            raise _Invalid("expected-name", f"expected a parameter name at position {i}", i)
        name, name_at = m.group().lower(), i  # parameter names are case-insensitive
        i = _OWS.match(header, m.end()).end()  # type: ignore[union-attr]
        if i >= n or header[i] != "=":
            raise _Invalid(
                "expected-equals", f"expected '=' after parameter {name!r} at position {i}", i
            )
        i = _OWS.match(header, i + 1).end()  # type: ignore[union-attr]
        if i < n and header[i] == '"':
            got = read_quoted(header, i)
            if got is None:
                raise _Invalid(
                    "unterminated-quote",
                    f"unterminated quoted-string starting at position {i}",
                    i,
                )
            value, end = got
            entry = (value, i + 1, True, name_at)
        else:
            m = _TOKEN.match(header, i)
            if m is None:
                raise _Invalid(
                    "expected-value",
                    f"expected a token or quoted-string value for {name!r} at position {i}",
                    i,
                )
            end = m.end()
            entry = (m.group(), i, False, name_at)
        if name in params:
            # RFC 6266 §4.1: a repeated parameter makes the header invalid.
            raise _Invalid(
                "duplicate-parameter",
                f"parameter {name!r} appears twice (RFC 6266 §4.1), again at position "
                f"{name_at}",
                name_at,
            )
        params[name] = entry
        i = end


class _Skip(Exception):
    """One parameter is unusable; the rest of the header still counts."""

    def __init__(self, code: str, message: str, position: int) -> None:
        super().__init__(message)
        self.code, self.message, self.position = code, message, position


def _ext_value(name: str, value: str, pos: int, quoted: bool) -> str:
    if quoted:
        raise _Skip(
            "quoted-ext-value",
            f"the ext-value of {name + '*'!r} must not be a quoted-string (RFC 8187 §3.2.1)",
            pos,
        )
    try:
        return _decode(value, "strict", ContentDispositionError, pos)[0]
    except UnsupportedCharsetError as e:
        raise _Skip("unsupported-charset", str(e), pos) from None
    except ExtValueError as e:
        raise _Skip("malformed-ext-value", str(e), e.position or pos) from None


def _join_continuations(
    base: str, sections: dict[str, tuple[str, str, int, bool, int]], findings: list[Finding]
) -> str:
    # RFC 2231 §3: sections *0, *1, ... in numeric order; a section number
    # with a leading zero is not a section, and joining stops at the first
    # gap (what mail and browser readers do).  §4.1: sections ending in "*"
    # are percent-encoded and the first of them carries charset'language';
    # the octets of all sections are joined, then decoded.
    by_number: dict[int, tuple[str, str, int, bool, int]] = {}
    for number, sec in sections.items():
        if number != "0" and number.startswith("0"):
            findings.append(Finding(
                "bad-continuation", sec[4],
                f"{base}*{number} is not an RFC 2231 section (no leading zeros); ignored",
            ))
        else:
            by_number[int(number)] = sec
    if 0 not in by_number:
        raise _Skip(
            "bad-continuation",
            f"parameter {base!r} has continuation sections but no {base}*0 (RFC 2231 §3)",
            min(v[4] for v in sections.values()),
        )
    ordered = []
    k = 0
    while k in by_number:
        ordered.append(by_number.pop(k))
        k += 1
    for later in sorted(by_number):
        findings.append(Finding(
            "bad-continuation", by_number[later][4],
            f"{base}*{later} follows a gap (no {base}*{k}); ignored (RFC 2231 §3)",
        ))
    if not any(star for _, star, _, _, _ in ordered):
        return "".join(v for v, _, _, _, _ in ordered)
    first_value, first_star, first_pos, _, _ = ordered[0]
    if not first_star:
        raise _Skip(
            "bad-continuation",
            f"{base}*0 must be the encoded section (name*0*=charset'lang'...) when later "
            "sections are encoded (RFC 2231 §4.1)",
            first_pos,
        )
    try:
        charset, _, start = _split(first_value, ContentDispositionError, first_pos)
        codec, label = _codec(charset, first_pos)
    except UnsupportedCharsetError as e:
        raise _Skip("unsupported-charset", str(e), first_pos) from None
    except ExtValueError as e:
        raise _Skip("malformed-ext-value", str(e), e.position or first_pos) from None
    chunks: list[bytes] = []
    where: list[tuple[int, int, str | None]] = []  # (first octet, position, value-chars)
    total = 0
    for idx, (value, star, pos, quoted, _) in enumerate(ordered):
        text = value[start:] if idx == 0 else value
        at = pos + (start if idx == 0 else 0)
        if star:
            if quoted:
                raise _Skip(
                    "quoted-ext-value",
                    f"the encoded section {base}*{idx}* must not be a quoted-string", pos,
                )
            try:
                raw = _value_octets(text, ContentDispositionError, at)
            except ExtValueError as e:
                raise _Skip("malformed-ext-value", str(e), e.position or at) from None
            where.append((total, at, text))
        else:
            try:
                raw = text.encode("latin-1" if codec.startswith("whatwg:") else codec)
            except UnicodeEncodeError as e:
                raise _Skip(
                    "malformed-ext-value",
                    f"{text[e.start]!r} cannot be represented in {label}", at + e.start,
                ) from None
            where.append((total, at, None))
        chunks.append(raw)
        total += len(raw)
    octets = b"".join(chunks)
    try:
        return _octets_decode(octets, codec)
    except UnicodeDecodeError as e:
        first, at, spelled = next(w for w in reversed(where) if w[0] <= e.start)
        pos = at + (_octet_to_index(spelled, e.start - first) if spelled is not None else 0)
        raise _Skip(
            "malformed-ext-value",
            f"the octets at position {pos} are not valid {label} ({e.reason})", pos,
        ) from None


def _check_flag(value: object, name: str) -> None:
    _args.check_bool(name, value)


def parse_content_disposition(
    header: str,
    *,
    strict: bool = False,
    rfc2231: bool = False,
    decode_plain_filename: bool = False,
) -> ContentDisposition:
    """Read a Content-Disposition header value as RFC 6266 §4 asks of a
    recipient: ``(type, params)`` with the findings of what was ignored.

    * The type and parameter names are lower-cased (§4.1, §4.2).
    * ``name*`` ext-values (RFC 8187) are decoded and stored under ``name``,
      winning over a plain ``name`` in either order (§4.3).  Charsets: UTF-8,
      ISO-8859-1, US-ASCII as RFC 8187 reads them, and any other label the
      Encoding Standard knows (``ISO-8859-15''%A4`` is ``€``).
    * A parameter that cannot be used (unknown charset, bad ``%``, quoted
      ext-value, bad continuation) is left out with a :class:`Finding`;
      the rest of the header still counts, and a plain ``filename`` is then
      the name.  Unknown parameters are kept as they are.
    * A header that breaks the §4.1 grammar as a whole (no disposition type,
      a repeated parameter, an unterminated quote, ``,`` or a space in an
      unquoted value, text after a quoted value) is ignored, as the tc2231
      cases expect: the result is ``("", {})`` with a finding.
    * ``rfc2231=True`` joins RFC 2231 continuations (``name*0``,
      ``name*1*``, ...) in numeric order; HTTP has none (RFC 8187 §3.1:
      they are left out with a finding), mail has them.
    * ``decode_plain_filename=True``: a browser quirk (RFC 6266 Appendix D notes
      that some user agents do this) percent-decodes a plain ``filename``
      as UTF-8 when there is no ``filename*``; off by default, as the RFC
      says the plain form holds no escapes.
    * ``strict=True`` raises :class:`ContentDispositionError` (with the
      position) or :class:`UnsupportedCharsetError` at the first finding.

    >>> parse_content_disposition("Attachment; filename=example.html")
    ('attachment', {'filename': 'example.html'})
    >>> parse_content_disposition(
    ...     "attachment; filename=\\"EURO rates\\"; filename*=utf-8''%e2%82%ac%20rates")
    ('attachment', {'filename': '€ rates'})
    >>> r = parse_content_disposition("attachment; foo*=bogus''x; filename=a.txt")
    >>> r.filename, [f.code for f in r.findings]
    ('a.txt', ['unsupported-charset'])
    """
    if not isinstance(header, str):
        raise PercentEncodingTypeError(
            f"the header value must be a str, not {type(header).__name__}"
        )
    _check_flag(strict, "strict")
    _check_flag(rfc2231, "rfc2231")
    _check_flag(decode_plain_filename, "decode_plain_filename")
    findings: list[Finding] = []
    try:
        i = _OWS.match(header, 0).end()  # type: ignore[union-attr]
        m = _TOKEN.match(header, i)
        if m is None:
            raise _Invalid(
                "missing-type",
                f"expected a disposition type (a token such as 'attachment') at position {i}",
                i,
            )
        disposition = m.group().lower()  # RFC 6266 §4.2: case-insensitive
        raw = _parse_params(header, m.end(), findings)
    except _Invalid as e:
        if strict:
            raise ContentDispositionError(e.message, e.position) from None
        return ContentDisposition("", {}, [Finding(e.code, e.position, e.message)])

    plain: dict[str, str] = {}
    extended: dict[str, tuple[str, int, bool]] = {}
    sections: dict[str, dict[str, tuple[str, str, int, bool, int]]] = {}
    for name, (value, pos, quoted, name_at) in raw.items():
        sec = _SECTION.match(name)
        if sec is not None:
            if not rfc2231:
                findings.append(Finding(
                    "rfc2231-continuation", name_at,
                    f"{name!r} is an RFC 2231 continuation, which HTTP does not use "
                    "(RFC 8187 §3.1); ignored (rfc2231=True joins them)",
                ))
                continue
            sections.setdefault(sec.group(1), {})[sec.group(2)] = (
                value, sec.group(3), pos, quoted, name_at,
            )
        elif name.endswith("*") and len(name) > 1:
            extended[name[:-1]] = (value, pos, quoted)
        else:
            plain[name] = value

    result = dict(plain)
    if decode_plain_filename and "filename" in plain and "filename" not in extended:
        result["filename"] = _browser_filename(plain["filename"], raw["filename"][1], findings)
    for base, secs in sections.items():
        try:
            result[base] = _join_continuations(base, secs, findings)
        except _Skip as e:
            findings.append(Finding(e.code, e.position, e.message + "; parameter ignored"))
    for base, (value, pos, quoted) in extended.items():
        try:
            result[base] = _ext_value(base, value, pos, quoted)
        except _Skip as e:
            findings.append(Finding(e.code, e.position, e.message + "; parameter ignored"))
    if strict and findings:
        f = min(findings, key=lambda f: f.position)
        if f.code == "unsupported-charset":
            raise UnsupportedCharsetError(f.message, f.position)
        raise ContentDispositionError(f.message, f.position)
    return ContentDisposition(disposition, result, sorted(findings, key=lambda f: f.position))


def _browser_filename(value: str, pos: int, findings: list[Finding]) -> str:
    # Some user agents percent-decode a plain filename (RFC 6266 Appendix D,
    # tc2231 "attwithfnrawpctenca"): %XX to octets, read as UTF-8.  A name
    # whose octets are not UTF-8 stays as written.
    if "%" not in value:
        return value
    try:
        octets = _core.decode(value.encode("utf-8"))
        return octets.decode("utf-8")
    except (UnicodeDecodeError, PercentDecodeError):
        findings.append(Finding(
            "plain-filename-not-decoded", pos,
            "the escapes in filename do not decode to UTF-8; kept as written",
        ))
        return value


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
