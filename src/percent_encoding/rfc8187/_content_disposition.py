"""Reading a Content-Disposition header value as a recipient (RFC 6266 §4.1-§4.3,
with RFC 2231 §3-§4 continuations on request): :func:`parse_content_disposition`,
its result :class:`ContentDisposition` and the :class:`Finding` records of what
was ignored.

Private: the public names are re-exported from :mod:`.rfc8187` (which also
writes the header, :func:`~percent_encoding.rfc8187.content_disposition`); the
ext-values in ``name*`` parameters are read by :mod:`._ext_value`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import NamedTuple

from .. import _args
from .. import core as _core
from .._abnf import OWS as _OWS
from .._abnf import TOKEN as _TOKEN
from ..errors import PercentDecodeError, PercentEncodingTypeError
from ._ext_value import (
    ContentDispositionError,
    ExtValueError,
    UnsupportedCharsetError,
    decode,
    octet_to_index,
    octets_decode,
    split,
    value_octets,
)
from ._ext_value import (
    codec as charset_codec,
)
from ._http import read_quoted

__all__ = ["ContentDisposition", "Finding", "parse_content_disposition"]


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
        return decode(value, "strict", ContentDispositionError, pos)[0]
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
        charset, _, start = split(first_value, ContentDispositionError, first_pos)
        codec, label = charset_codec(charset, first_pos)
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
                raw = value_octets(text, ContentDispositionError, at)
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
        return octets_decode(octets, codec)
    except UnicodeDecodeError as e:
        first, at, spelled = next(w for w in reversed(where) if w[0] <= e.start)
        pos = at + (octet_to_index(spelled, e.start - first) if spelled is not None else 0)
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

