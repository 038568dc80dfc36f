"""OAuth 2.0 client authentication with HTTP Basic: RFC 6749 §2.3.1 and Appendix B.

Strategy: a client sends its ``client_id`` and ``client_secret`` in an
``Authorization: Basic`` header after form-urlencoding each of them
(Appendix B: UTF-8, then HTML 4.01's escaping: space as ``+``, every other
non-alphanumeric octet as ``%HH``).  The two encoded strings are joined by
``:`` and base64-encoded (RFC 7617 §2).  Because ``:`` is itself escaped, a
client id that contains one survives the round trip.

:func:`basic_auth` writes the header value; :func:`parse_basic_auth` reads
one back and raises :class:`OAuth2Error` (a ``ValueError``) for anything that
is not a Basic credential or does not decode: bad base64, no ``:``, a ``%``
without two hex digits, octets that are not UTF-8.

Line breaks are escaped as they are (``%0A``), not rewritten to CRLF as an
HTML 4 form would: the credentials are opaque strings, and rewriting them
would break the round trip.
"""

from __future__ import annotations

import base64
import binascii

from . import _args
from . import core as _core
from ._scheme import Scheme
from .errors import PercentDecodeError, PercentEncodingError, PercentEncodingTypeError
from .sets import HTML4_FORM

__all__ = ["SCHEMES", "OAuth2Error", "basic_auth", "decode", "encode", "parse_basic_auth"]


class OAuth2Error(PercentEncodingError):
    """An ``Authorization`` value that is not RFC 6749 §2.3.1 client credentials."""

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


@_args.renamed_keyword("text", "data")
def encode(data: str | bytes) -> str:
    """One credential form-urlencoded as RFC 6749 Appendix B says.

    UTF-8, space as ``+``, every octet but ASCII letters and digits as
    ``%HH``; ``bytes`` are taken as the octets.

    >>> encode(" %&+£€")
    '+%25%26%2B%C2%A3%E2%82%AC'
    """
    if not isinstance(data, (str, bytes)):
        raise PercentEncodingTypeError(
            f"oauth2.encode() takes str or bytes, not {type(data).__name__}"
        )
    return _core.encode(data, HTML4_FORM, space_as_plus=True)


@_args.renamed_keyword("text", "data")
def decode(data: str | bytes) -> str:
    """Reverse :func:`encode`: ``+`` is a space, ``%HH`` an octet, text is UTF-8 (strict).

    Any alphabet is accepted (RFC 6749 Appendix B tells receivers to decode,
    not to check the producer's choices).  A ``%`` without two hex digits
    raises :class:`~percent_encoding.errors.PercentDecodeError`, octets that
    are not UTF-8 :class:`~percent_encoding.errors.TextDecodeError`.

    >>> decode("+%25%26%2B%C2%A3%E2%82%AC")
    ' %&+£€'
    """
    if not isinstance(data, (str, bytes)):
        raise PercentEncodingTypeError(
            f"oauth2.decode() takes str or bytes, not {type(data).__name__}"
        )
    return _core.decode_text(data, plus_as_space=True, strict=True, errors="strict")


def basic_auth(client_id: str, client_secret: str) -> str:
    """The ``Authorization`` header value for OAuth 2.0 client credentials (RFC 6749 §2.3.1).

    Each part is form-urlencoded (Appendix B), then the pair is HTTP Basic
    (RFC 7617 §2): ``Basic`` and the base64 of ``id:secret``.

    >>> basic_auth("s6BhdRkqt3", "gX1fBat3bV")
    'Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW'
    >>> basic_auth("a:b", "p w")
    'Basic YSUzQWI6cCt3'
    """
    for part in (client_id, client_secret):
        if not isinstance(part, str):
            raise PercentEncodingTypeError(
                f"basic_auth() takes str credentials, not {type(part).__name__}"
            )
    user = encode(client_id)
    password = encode(client_secret)
    token = base64.b64encode(f"{user}:{password}".encode("ascii")).decode("ascii")
    return "Basic " + token


def parse_basic_auth(value: str) -> tuple[str, str]:
    """``(client_id, client_secret)`` from an ``Authorization: Basic`` value (RFC 6749 §2.3.1).

    The scheme name is case-insensitive and may be followed by more than one
    space (RFC 9110 §11.4); the base64 must be canonical with its padding
    (RFC 7617 §2, RFC 4648 §4).  The part before the first ``:`` is the id.

    >>> parse_basic_auth("Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW")
    ('s6BhdRkqt3', 'gX1fBat3bV')
    >>> parse_basic_auth("basic YSUzQWI6cCt3")
    ('a:b', 'p w')
    """
    _args.check_str_input("parse_basic_auth", value)
    s = value.strip(" \t")
    scheme, sep, rest = s.partition(" ")
    if not sep or scheme.lower() != "basic":
        raise OAuth2Error(
            f"not a Basic credential: {value[:40]!r} (expected 'Basic <base64>')", 0
        )
    token = rest.lstrip(" ")
    start = value.find(token) if token else len(value)
    try:
        if not token.isascii():
            raise ValueError
        raw = base64.b64decode(token, validate=True)
        # Only the canonical encoding: b64decode accepts a few non-canonical ones.
        if base64.b64encode(raw).decode("ascii") != token:
            raise ValueError
    except (ValueError, binascii.Error):
        raise OAuth2Error(
            "the credentials are not valid base64 (RFC 4648 §4, with padding)", start
        ) from None
    try:
        pair = raw.decode("ascii")
    except UnicodeDecodeError:
        raise OAuth2Error(
            "the decoded credentials hold octets above 0x7F: RFC 6749 §2.3.1 sends "
            "them form-urlencoded, so they must be ASCII",
            start,
        ) from None
    user, colon, password = pair.partition(":")
    if not colon:
        raise OAuth2Error("the decoded credentials have no ':' between id and secret", start)
    try:
        return decode(user), decode(password)
    except PercentDecodeError as e:
        raise OAuth2Error(f"credentials: {e}", start) from e


SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="oauth2",
        spec="RFC 6749 Appendix B (OAuth 2.0 form-urlencoded client credentials)",
        encode=encode,
        decode=decode,
        encode_set=HTML4_FORM,
        notes=(
            "UTF-8, everything but ASCII letters and digits as %XX, space as +; "
            "oauth2.basic_auth() puts id and secret in an HTTP Basic header (§2.3.1)"
        ),
        family="OAuth 2.0",
        aliases=("rfc6749",),
        plain=True,
        space_as_plus=True,
        reversible=True,
    ),
)
