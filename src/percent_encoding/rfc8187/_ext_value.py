"""The RFC 8187 §3.2.1 ext-value grammar shared by :mod:`.rfc8187` and
:mod:`._content_disposition`: the errors, the charsets an ext-value may name
(RFC 8187 §3.2.1, RFC 2231 §4), and the helpers that split an ext-value into
charset, language and value-chars and turn the value-chars into text.

Private: the public names (the error classes) are re-exported from
:mod:`.rfc8187`, where they are documented.
"""

from __future__ import annotations

import re

from .. import core as _core
from .. import encodings as _encodings
from .._abnf import BAD_PERCENT as _BAD_PERCENT
from ..errors import PercentDecodeError, TextDecodeError, UnknownEncodingError

__all__ = ["ContentDispositionError", "ExtValueError", "UnsupportedCharsetError"]


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
CHARSETS = {"utf-8": "utf-8", "iso-8859-1": "latin-1", "us-ascii": "ascii"}
_CANONICAL = {"utf-8": "UTF-8", "iso-8859-1": "ISO-8859-1", "us-ascii": "US-ASCII"}

# RFC 8187 §3.2.1 (via RFC 2978 §2.3): mime-charsetc, without "'".
_MIME_CHARSET = re.compile(r"[A-Za-z0-9!#$%&+\-^_`{}~]+")
# RFC 5646 §2.1 in outline: a primary subtag of letters, then subtags of
# letters and digits (covers privateuse "x-..." and the grandfathered tags).
LANGUAGE = re.compile(r"[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*\Z")
_ATTR_CHARS = "A-Za-z0-9!#$&+\\-.^_`|~"
_BAD_VALUE_CHAR = re.compile(f"[^{_ATTR_CHARS}%]")


def codec(charset: str, position: int | None) -> tuple[str, str]:
    """(codec, label) for a charset an ext-value may name.

    UTF-8, ISO-8859-1 and US-ASCII are read exactly as RFC 8187 §3.2.1 names
    them (Python codecs); any other label the Encoding Standard knows (RFC 2231
    §4 allows any MIME charset, RFC 8187 allows more than the two it requires)
    is read with that Standard's decoder, as browsers do: codec "whatwg:NAME".
    """
    key = charset.lower()
    codec = CHARSETS.get(key)
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


def octets_decode(octets: bytes, codec: str, errors: str = "strict") -> str:
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



def split(ext_value: str, error: type[ExtValueError], offset: int) -> tuple[str, str, int]:
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
    if language and not LANGUAGE.match(language):
        raise error(f"{language!r} is not a language tag (RFC 5646)", offset + first + 1)
    return charset, language, second + 1


def value_octets(value: str, error: type[ExtValueError], offset: int) -> bytes:
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


def octet_to_index(value: str, octet: int) -> int:
    # Where, in a checked value-chars string, the octet with this index came from.
    i = n = 0
    while n < octet:
        i += 3 if value[i] == "%" else 1
        n += 1
    return i


def to_text(
    octets: bytes, codec: str, label: str, errors: str, value: str,
    error: type[ExtValueError], offset: int,
) -> str:
    if errors == "replace":
        return octets_decode(octets, codec, "replace")
    try:
        return octets_decode(octets, codec)
    except UnicodeDecodeError as e:
        pos = offset + octet_to_index(value, e.start)
        hint = "" if error is ContentDispositionError else "; pass errors='replace' for U+FFFD"
        raise error(
            f"the octets at position {pos} are not valid {label} ({e.reason}){hint}", pos
        ) from None



def decode(
    ext_value: str, errors: str, error: type[ExtValueError], offset: int
) -> tuple[str, str]:
    charset, language, start = split(ext_value, error, offset)
    codec_name, label = codec(charset, offset)
    value = ext_value[start:]
    octets = value_octets(value, error, offset + start)
    return to_text(octets, codec_name, label, errors, value, error, offset + start), language

