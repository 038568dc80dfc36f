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

:func:`parse_redirect` reads the authorization response a client receives at
its redirect URI: in the query for the authorization code grant (§4.1.2,
errors §4.1.2.1), in the fragment for the implicit grant (§4.2.2, errors
§4.2.2.1), form-urlencoded either way (Appendix B: ``+`` is a space, UTF-8).
It raises :class:`OAuth2RedirectError` (an :class:`OAuth2Error`) for a
response split over both places, a parameter given twice (§3.1), or no
response at all.
"""

from __future__ import annotations

import base64
import binascii

from . import _args
from . import core as _core
from ._scheme import Scheme
from .errors import (
    OAuth2Error,
    OAuth2RedirectError,
    PercentDecodeError,
    PercentEncodingTypeError,
    TextDecodeError,
)
from .sets import HTML4_FORM

__all__ = [
    "RESPONSE_PARAMETERS",
    "SCHEMES",
    "OAuth2Error",
    "OAuth2RedirectError",
    "basic_auth",
    "decode",
    "encode",
    "parse_basic_auth",
    "parse_redirect",
]


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


#: The parameters RFC 6749 defines for an authorization response (§4.1.2, §4.1.2.1,
#: §4.2.2, §4.2.2.1) and two that extensions send with it (``iss``: RFC 9207 §2;
#: ``id_token``: OpenID Connect Core §3.2.2.5).  Where these appear decides whether
#: the response is in the query or in the fragment.
RESPONSE_PARAMETERS = frozenset({
    "code", "state", "error", "error_description", "error_uri", "access_token",
    "token_type", "expires_in", "scope", "iss", "id_token",
})
# One of these must be there: a response is a code, a token, or an error.
_DEFINING = ("code", "access_token", "error", "id_token")


def _form_pairs(text: str, offset: int) -> list[tuple[str, str, int]]:
    # URL Standard §5.1 (application/x-www-form-urlencoded parsing, which RFC 6749
    # Appendix B's encoding is read with), strict UTF-8, with each field's position.
    out = []
    at = offset
    for field in text.split("&"):
        if field:
            name, _, value = field.partition("=")
            try:
                out.append((_core.decode_text(name, plus_as_space=True, errors="strict"),
                            _core.decode_text(value, plus_as_space=True, errors="strict"), at))
            except TextDecodeError:
                raise OAuth2RedirectError(
                    f"the parameter at position {at} is not UTF-8 once percent-decoded "
                    "(RFC 6749 Appendix B encodes UTF-8)",
                    at,
                ) from None
        at += len(field) + 1
    return out


def parse_redirect(url: str) -> dict[str, str]:
    """The authorization response in a redirect URI (RFC 6749 §4.1.2, §4.2.2), as a dict.

    The response is read from the query (authorization code grant, §4.1.2) or
    from the fragment (implicit grant, §4.2.2), whichever holds the response
    parameters, as application/x-www-form-urlencoded data (Appendix B: ``+`` is
    a space, text is UTF-8).  An error response (§4.1.2.1, §4.2.2.1) comes back
    the same way, with ``error`` and, when sent, ``error_description``,
    ``error_uri`` and ``state``.  Raises :class:`OAuth2RedirectError` when both
    the query and the fragment hold response parameters, when a parameter is
    repeated (§3.1), or when there is no ``code``, ``access_token`` or ``error``.

    >>> parse_redirect("https://client.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz")
    {'code': 'SplxlOBeZQQYbYS6WxSbIA', 'state': 'xyz'}
    >>> parse_redirect("https://client.example.com/cb?error=access_denied&state=xyz")
    {'error': 'access_denied', 'state': 'xyz'}
    >>> parse_redirect("https://client.example.com/cb#access_token=2YotnFZFEjr1zCsicMWpAA"
    ...                "&state=xyz&token_type=example&expires_in=3600")["expires_in"]
    '3600'
    """
    _args.check_str_input("parse_redirect", url)
    hash_at = url.find("#")
    end = len(url) if hash_at == -1 else hash_at
    q = url.find("?", 0, end)
    query = _form_pairs(url[q + 1 : end], q + 1) if q != -1 else []
    fragment = _form_pairs(url[hash_at + 1 :], hash_at + 1) if hash_at != -1 else []
    in_query = [p for p in query if p[0] in RESPONSE_PARAMETERS]
    in_fragment = [p for p in fragment if p[0] in RESPONSE_PARAMETERS]
    if in_query and in_fragment:
        raise OAuth2RedirectError(
            f"response parameters in both the query ({in_query[0][0]!r}) and the fragment "
            f"({in_fragment[0][0]!r}): a response is in the query (code grant, RFC 6749 "
            "§4.1.2) or in the fragment (implicit grant, §4.2.2), not both",
            in_fragment[0][2],
        )
    # The client's own query parameters (a redirect URI may have a query, §3.1.2) are
    # not part of an implicit grant's response in the fragment.
    pairs = fragment if in_fragment else query
    out: dict[str, str] = {}
    for name, value, at in pairs:
        if name in out:
            raise OAuth2RedirectError(
                f"parameter {name!r} appears twice (the second at position {at}); RFC 6749 "
                "§3.1: response parameters MUST NOT be included more than once",
                at,
            )
        out[name] = value
    if not any(k in out for k in _DEFINING):
        raise OAuth2RedirectError(
            "no authorization response: neither the query nor the fragment has 'code', "
            "'access_token' or 'error' (RFC 6749 §4.1.2, §4.2.2)",
            len(url),
        )
    return out


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
