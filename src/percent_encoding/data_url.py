"""``data:`` URLs as browsers read them: the Fetch Standard's ``data:`` URL processor.

Strategy: :func:`parse` runs the URL Standard's parser (:func:`percent_encoding.url.parse`)
and then Fetch §6 ("``data:`` URLs") on the serialized URL without its fragment: the
text before the first ``,`` is the MIME type, the rest is percent-decoded into the
body; a MIME type that ends in ``;base64`` (spaces allowed before ``base64``, any
case) means the body is then forgiving-base64 decoded (Infra §7,
:func:`forgiving_base64_decode`).  The MIME type is parsed and serialized as MIME
Sniffing §4.4 and §4.5 say (:func:`parse_mime_type`, :func:`serialize_mime_type`);
one that does not parse becomes ``text/plain;charset=US-ASCII``.

Every failure (a URL that does not parse, another scheme, no ``,``, base64 that
does not decode) raises :class:`DataURLError`, a ``ValueError``, with a position.
Everything is linear in the input.

RFC 2397 describes ``data:`` URLs informatively; Fetch replaces its processing
rules to match what browsers do (``data:text/plain ,X`` works, ``;base64`` is
found case-insensitively, a bad MIME type falls back instead of failing).
"""

from __future__ import annotations

import binascii
import re
from typing import NamedTuple

from . import core as _core
from . import url as _url
from ._abnf import TOKEN
from ._args import type_name
from .errors import DataURLError, PercentEncodingTypeError, URLParseError

__all__ = [
    "DEFAULT_MIME_TYPE",
    "DataURL",
    "DataURLError",
    "MIMEType",
    "forgiving_base64_decode",
    "parse",
    "parse_mime_type",
    "serialize_mime_type",
]

#: What a ``data:`` URL without a (valid) MIME type is (Fetch §6, the last steps).
DEFAULT_MIME_TYPE = "text/plain;charset=US-ASCII"


class DataURL(NamedTuple):
    """A ``data:`` URL struct (Fetch §6): the serialized MIME type and the body bytes."""

    mime_type: str
    body: bytes


class MIMEType(NamedTuple):
    """A MIME type record (MIME Sniffing §4.1): ``type`` and ``subtype`` in lower
    case, ``parameters`` as ``(name, value)`` pairs in order, names in lower case."""

    type: str
    subtype: str
    parameters: tuple[tuple[str, str], ...]


# --------------------------------------------------------------------------------------------
# Forgiving base64 (Infra §7)

_ASCII_WHITESPACE = "\t\n\f\r "
_WHITESPACE_RE = re.compile("[\t\n\f\r ]+")
_NOT_BASE64 = re.compile("[^A-Za-z0-9+/]")


def _original_index(data: str, k: int) -> int:
    # The index in ``data`` of the k-th character that is not ASCII whitespace.
    seen = 0
    for i, c in enumerate(data):
        if c not in _ASCII_WHITESPACE:
            if seen == k:
                return i
            seen += 1
    return len(data)


def forgiving_base64_decode(data: str) -> bytes:
    """The bytes a base64 string stands for, read as Infra's forgiving-base64 decode does (§7).

    ASCII whitespace anywhere is ignored, the ``=`` padding is optional (but
    never more than the length calls for), and the unused bits of the last
    character need not be zero.  Anything else raises :class:`DataURLError`
    with the position of the problem.

    >>> forgiving_base64_decode("aGVsbG8=")
    b'hello'
    >>> forgiving_base64_decode(" aGVs bG8 ")
    b'hello'
    """
    if not isinstance(data, str):
        raise PercentEncodingTypeError(
            f"forgiving_base64_decode() takes a str, not {type_name(data)}"
        )
    s = _WHITESPACE_RE.sub("", data)
    if len(s) % 4 == 0:
        if s.endswith("=="):
            s = s[:-2]
        elif s.endswith("="):
            s = s[:-1]
    # Infra checks the length before the alphabet; either way the input fails, and the
    # message names the character when there is one.
    m = _NOT_BASE64.search(s)
    if m is not None:
        at = _original_index(data, m.start())
        raise DataURLError(
            f"forgiving-base64: {data[at]!r} at position {at} is not a base64 character "
            "(only A-Z a-z 0-9 + / and final = padding are; Infra §7)",
            at,
        )
    if len(s) % 4 == 1:
        raise DataURLError(
            "forgiving-base64: the data (without whitespace and padding) is one character "
            "too long or too short to be base64 (Infra §7)",
            len(data),
        )
    # The leftover 4 or 2 bits are dropped, zero or not (Infra §7); binascii does too.
    return binascii.a2b_base64(s + "=" * (-len(s) % 4))


# --------------------------------------------------------------------------------------------
# MIME types (MIME Sniffing §4.4, §4.5)

# MIME Sniffing §3: an HTTP token code point, and an HTTP quoted-string token code point.
_QUOTED_STRING_TOKEN = re.compile("[\t\x20-\x7e\x80-\xff]*\\Z")
_HTTP_WHITESPACE = "\n\r\t "  # Fetch §2.2 HTTP whitespace


def _collect_quoted(s: str, pos: int) -> tuple[str, int]:
    # Fetch §2.2 "collect an HTTP quoted string" with extract-value true; s[pos] is '"'.
    out = []
    pos += 1
    n = len(s)
    while True:
        stop = pos
        while stop < n and s[stop] not in '"\\':
            stop += 1
        out.append(s[pos:stop])
        pos = stop
        if pos >= n:
            break
        c = s[pos]
        pos += 1
        if c == "\\":
            if pos >= n:
                out.append("\\")
                break
            out.append(s[pos])
            pos += 1
        else:
            break
    return "".join(out), pos


def parse_mime_type(text: str) -> MIMEType | None:
    """Parse a MIME type as MIME Sniffing §4.4 says, or ``None`` where it returns failure.

    Type and subtype are lower-cased; a parameter is kept only the first time
    its name appears and when name and value are well-formed.

    >>> parse_mime_type('Text/HTML; Charset="utf-8"; charset=x')
    MIMEType(type='text', subtype='html', parameters=(('charset', 'utf-8'),))
    >>> parse_mime_type("text") is None
    True
    """
    if not isinstance(text, str):
        raise PercentEncodingTypeError(f"parse_mime_type() takes a str, not {type_name(text)}")
    s = text.strip(_HTTP_WHITESPACE)
    n = len(s)
    slash = s.find("/")
    if slash == -1 or not TOKEN.fullmatch(s[:slash]):
        return None
    semi = s.find(";", slash + 1)
    end = n if semi == -1 else semi
    subtype = s[slash + 1 : end].rstrip(_HTTP_WHITESPACE)
    if not TOKEN.fullmatch(subtype):
        return None
    params: dict[str, str] = {}
    pos = end
    while pos < n:
        pos += 1  # past ";"
        while pos < n and s[pos] in _HTTP_WHITESPACE:
            pos += 1
        start = pos
        while pos < n and s[pos] not in ";=":
            pos += 1
        name = s[start:pos].lower()
        if pos < n:
            if s[pos] == ";":
                continue
            pos += 1  # past "="
        if pos >= n:
            break
        if s[pos] == '"':
            value, pos = _collect_quoted(s, pos)
            semi = s.find(";", pos)
            pos = n if semi == -1 else semi
        else:
            semi = s.find(";", pos)
            stop = n if semi == -1 else semi
            value = s[pos:stop].rstrip(_HTTP_WHITESPACE)
            pos = stop
            if not value:
                continue
        if (name and TOKEN.fullmatch(name) and _QUOTED_STRING_TOKEN.match(value)
                and name not in params):
            params[name] = value
    return MIMEType(s[:slash].lower(), subtype.lower(), tuple(params.items()))


def serialize_mime_type(mime_type: MIMEType) -> str:
    """A MIME type record as text (MIME Sniffing §4.5): values that are not tokens quoted.

    >>> serialize_mime_type(MIMEType("text", "plain", (("charset", " x"), ("a", "b"))))
    'text/plain;charset=" x";a=b'
    """
    if not isinstance(mime_type, MIMEType):
        raise PercentEncodingTypeError(
            f"serialize_mime_type() takes a MIMEType, not {type_name(mime_type)}"
        )
    out = [mime_type.type, "/", mime_type.subtype]
    for name, value in mime_type.parameters:
        if not value or not TOKEN.fullmatch(value):
            value = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
        out += [";", name, "=", value]
    return "".join(out)


# --------------------------------------------------------------------------------------------
# The data: URL processor (Fetch §6)

_BASE64_SUFFIX = re.compile(r";\x20*[Bb][Aa][Ss][Ee]64\Z")


def parse(url: str | _url.URL) -> DataURL:
    """Process a ``data:`` URL as the Fetch Standard does (§6): its MIME type and body.

    ``url`` is a string (parsed with :func:`percent_encoding.url.parse`) or a
    parsed :class:`~percent_encoding.url.URL`.  Raises :class:`DataURLError`
    when the URL does not parse, is not ``data:``, has no ``,``, or holds base64
    that does not decode.

    >>> parse("data:,Hello%2C%20World%21")
    DataURL(mime_type='text/plain;charset=US-ASCII', body=b'Hello, World!')
    >>> parse("data:text/HTML;Charset=UTF-8;base64,PGI+aGk8L2I+")
    DataURL(mime_type='text/html;charset=UTF-8', body=b'<b>hi</b>')
    """
    if isinstance(url, str):
        try:
            u = _url.parse(url)
        except URLParseError as e:
            raise DataURLError(f"not a URL: {e}", e.position) from e
    elif isinstance(url, _url.URL):
        u = url
    else:
        raise PercentEncodingTypeError(
            f"data_url.parse() takes a str or a url.URL, not {type_name(url)}"
        )
    if u.scheme != "data":
        raise DataURLError(f"not a data: URL (the scheme is {u.scheme!r})", 0)
    # The URL serializer with "exclude fragment": the first "#" of an href starts it.
    rest = u.href.partition("#")[0][5:]
    comma = rest.find(",")
    if comma == -1:
        raise DataURLError("a data: URL needs a ',' between the MIME type and the body",
                           len(url) if isinstance(url, str) else None)
    mime = rest[:comma].strip("\t\n\f\r ")
    body = _core.decode(rest[comma + 1 :])
    m = _BASE64_SUFFIX.search(mime)
    if m is not None:
        try:
            body = forgiving_base64_decode(body.decode("latin-1"))  # isomorphic decode
        except DataURLError as e:
            at = url.find(",") + 1 if isinstance(url, str) else None
            raise DataURLError(f"the body is not base64: {e}", at) from None
        mime = mime[: m.start()]
    if mime.startswith(";"):
        mime = "text/plain" + mime
    record = parse_mime_type(mime)
    return DataURL(DEFAULT_MIME_TYPE if record is None else serialize_mime_type(record), body)
