"""OAuth 1.0 percent-encoding, signature base strings and the Authorization
header: RFC 5849 §3.4.1, §3.5.1 and §3.6.

Strategy: OAuth signs a request by normalizing it into one string, so every
party must encode identically.  §3.6 fixes that encoding: UTF-8, then every
octet but the unreserved characters (ALPHA DIGIT ``-._~``) as ``%XX`` with
upper-case hex (:func:`encode`, over the core with the ``oauth1`` set).

* :func:`signature_base_string` builds the §3.4.1.1 string from a method, the
  request URL (its query supplies parameters), an optional form body and the
  protocol parameters; :func:`normalize_parameters` is its §3.4.1.3.2 step.
  Parameters are handled as octets all the way through, so a query that
  carries bytes that are not UTF-8 is signed exactly as it was sent.
* :func:`authorization_header` writes the §3.5.1 header value and
  :func:`parse_authorization_header` reads one back.
* :func:`hmac_sha1_signature` and :func:`plaintext_signature` are §3.4.2 and
  §3.4.4.

:func:`decode` reverses §3.6 strictly: a ``%`` without two hex digits raises
:class:`~percent_encoding.errors.PercentDecodeError`, octets that are not
UTF-8 raise :class:`~percent_encoding.errors.TextDecodeError` (§3.6 says text
is UTF-8; :func:`decode_bytes` returns the octets of binary values), and
``+`` is a plus sign, never a space.  Lower-case hex is accepted: the
upper-case rule binds the producer of the base string, and servers recompute
that string from decoded values.  Malformed URLs and headers raise
:class:`OAuth1Error`.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TypeAlias

from . import _args
from . import core as _core
from ._abnf import OWS as _OWS
from ._abnf import TOKEN as _TOKEN
from ._scheme import Scheme
from .errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
)
from .rfc8187._for_siblings import read_quoted
from .sets import OAUTH1

__all__ = [
    "PROTOCOL_PARAMETERS",
    "RESPONSE_PARAMETERS",
    "SCHEMES",
    "OAuth1Error",
    "ReservedParameterError",
    "authorization_header",
    "base_string_uri",
    "decode",
    "decode_bytes",
    "encode",
    "hmac_sha1_signature",
    "normalize_parameters",
    "parse_authorization_header",
    "plaintext_signature",
    "signature_base_string",
]

#: Decoded (name, value) pairs, or a mapping of them.
Pairs: TypeAlias = (
    "Mapping[str, str] | Mapping[bytes, bytes] | Iterable[tuple[str | bytes, str | bytes]]"
)


class OAuth1Error(PercentEncodingError):
    """A request URL or an Authorization header that RFC 5849 cannot use.

    ``position`` is the index in the offending string, when there is one.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


#: The ``oauth_`` parameters RFC 5849 defines for a request: §3.1's seven, ``oauth_callback``
#: (§2.1, the temporary credentials request) and ``oauth_verifier`` (§2.3).  §3.1 reserves
#: the ``oauth_`` prefix for the protocol, so a request carries no other ``oauth_`` name.
PROTOCOL_PARAMETERS = frozenset({
    "oauth_consumer_key", "oauth_token", "oauth_signature_method", "oauth_signature",
    "oauth_timestamp", "oauth_nonce", "oauth_version", "oauth_callback", "oauth_verifier",
})
#: The ``oauth_`` parameters of the server's form-encoded responses, RFC 5849 §2.1 and
#: §2.3: ``oauth_token``, ``oauth_token_secret`` and ``oauth_callback_confirmed``.
RESPONSE_PARAMETERS = frozenset({"oauth_token", "oauth_token_secret", "oauth_callback_confirmed"})


class ReservedParameterError(OAuth1Error):
    """A request parameter whose name begins with ``oauth_`` but that RFC 5849 does not define.

    §3.1 reserves the prefix for the protocol; ``name`` is the decoded name.
    """

    def __init__(self, message: str, name: str, position: int | None = None) -> None:
        super().__init__(message, position)
        self.name = name


@_args.renamed_keyword("value", "data")
def encode(data: str | bytes) -> str:
    """Percent-encode ``data`` as RFC 5849 §3.6 says.

    Text is UTF-8 encoded, ``bytes`` are taken as given; every octet except
    ALPHA, DIGIT and ``-._~`` becomes ``%XX`` with upper-case hex.

    >>> encode("Ladies + Gentlemen"), encode("An encoded string!")
    ('Ladies%20%2B%20Gentlemen', 'An%20encoded%20string%21')
    >>> encode("Dogs, Cats & Mice"), encode("☃")
    ('Dogs%2C%20Cats%20%26%20Mice', '%E2%98%83')
    """
    return _core.encode(data, OAUTH1)


@_args.renamed_keyword("value", "data")
def decode(data: str | bytes) -> str:
    """Reverse :func:`encode`: percent-decode strictly, then UTF-8 decode strictly.

    >>> decode("Ladies%20%2B%20Gentlemen"), decode("a+b")
    ('Ladies + Gentlemen', 'a+b')
    """
    return _core.decode_text(data, errors="strict", strict=True)


@_args.renamed_keyword("value", "data")
def decode_bytes(data: str | bytes) -> bytes:
    """Percent-decode strictly to octets (for binary values, §3.6 step 1).

    >>> decode_bytes("%FF%00")
    b'\\xff\\x00'
    """
    return _core.decode(data, strict=True)


# ---------------------------------------------------------------------------
# §3.4.1.3: request parameters


def _as_octets(value: object, what: str) -> bytes:
    return _args.utf8_octets(
        value,
        lambda at: OAuth1Error(
            f"{what} has a lone surrogate at position {at}; it cannot be UTF-8 "
            "encoded (RFC 5849 §3.6)",
            at,
        ),
        lambda: PercentEncodingTypeError(
            f"{what} must be str or bytes, not {type(value).__name__}"
        ),
    )


def _pairs(pairs: object, what: str) -> list[tuple[bytes, bytes]]:
    if isinstance(pairs, (str, bytes, bytearray)):
        raise PercentEncodingTypeError(
            f"{what} must be (name, value) pairs or a mapping, not {type(pairs).__name__}"
        )
    items: Iterable[object]
    if isinstance(pairs, Mapping):
        items = pairs.items()
    elif isinstance(pairs, Iterable):
        items = pairs
    else:
        raise PercentEncodingTypeError(
            f"{what} must be (name, value) pairs or a mapping, not {type(pairs).__name__}"
        )
    out: list[tuple[bytes, bytes]] = []
    for item in items:
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise PercentEncodingTypeError(f"each item of {what} must be a (name, value) pair")
        out.append((_as_octets(item[0], f"a name in {what}"), _as_octets(item[1], "a value")))
    return out


def _normalize(pairs: Iterable[tuple[bytes, bytes]]) -> str:
    # §3.4.1.3.2: encode names and values (§3.6), sort by encoded name, then by
    # encoded value, in byte order (the encoded strings are ASCII, so str order
    # is byte order), join as name=value with "&".
    pairs = list(pairs)
    names = _encode_each([n for n, _ in pairs])
    values = _encode_each([v for _, v in pairs])
    return "&".join(f"{n}={v}" for n, v in sorted(zip(names, values, strict=True)))


def _encode_each(items: list[bytes]) -> list[str]:
    """[encode(x) for x in items], in one kernel call when it can be done.

    The items are joined with an octet that none of them contains; §3.6 encodes it, and
    in the output every "%" starts a triplet, so its triplet marks exactly the joints.
    """
    for joint in (b"&", b"=", b"\x00", b"\n"):
        joined = joint.join(items)
        if joined.count(joint) == len(items) - 1:
            return encode(joined).split(f"%{joint[0]:02X}") if items else []
    return [encode(x) for x in items]


def normalize_parameters(pairs: Pairs) -> str:
    """RFC 5849 §3.4.1.3.2: the normalized request parameters string.

    ``pairs`` are decoded ``(name, value)`` pairs (``str`` is UTF-8, ``bytes``
    as given) or a mapping.  Names and values are encoded (§3.6), sorted by
    name and then value in byte order, and joined as ``name=value`` with
    ``&``.  No parameter is left out: filter ``oauth_signature`` yourself, or
    use :func:`signature_base_string`.

    >>> normalize_parameters([("b", "2 q"), ("a", "x"), ("b", "1"), ("c@", "")])
    'a=x&b=1&b=2%20q&c%40='
    """
    return _normalize(_pairs(pairs, "pairs"))


def _form_pairs(data: bytes) -> list[tuple[bytes, bytes]]:
    # §3.4.1.3.1: the query and a form body are parsed as
    # application/x-www-form-urlencoded (HTML 4.0 §17.13.4): split on "&",
    # name and value at the first "=", "+" is a space, %XX an octet.  Kept as
    # octets, so what was sent is what gets signed.
    return _core.form_parse_bytes_kernel(data)


_DEFAULT_PORTS = {"http": "80", "https": "443"}
_SCHEME_RE = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*\Z")


def _split_url(url: str) -> tuple[str, str, str, str]:
    """scheme, authority, path, query (without "?"); the fragment is dropped."""
    url = url.partition("#")[0]
    scheme, sep, rest = url.partition(":")
    if not sep or not _SCHEME_RE.match(scheme) or not rest.startswith("//"):
        raise OAuth1Error(
            f"{url!r} is not an absolute http(s) URL (scheme://host/path); RFC 5849 §3.4.1.2 "
            "builds the base string URI from the scheme, host and path",
            0,
        )
    rest = rest[2:]
    end = len(rest)
    for ch in "/?":
        i = rest.find(ch)
        if i != -1:
            end = min(end, i)
    authority, tail = rest[:end], rest[end:]
    path, _, query = tail.partition("?")
    return scheme, authority, path, query


def base_string_uri(url: str) -> str:
    """RFC 5849 §3.4.1.2: the base string URI of a request URL.

    The URL is parsed as a browser or HTTP client parses it (the WHATWG URL
    parser, :mod:`percent_encoding.url`), so the result is what the request
    line and ``Host`` header carry: scheme and host in lower case and in
    ASCII (IDNA), the default port dropped and any other port kept, the path
    with dot segments resolved and spaces and non-ASCII percent-encoded;
    user info, query and fragment removed; an empty path is ``/``.

    >>> base_string_uri("http://EXAMPLE.COM:80/r%20v/X?id=123")
    'http://example.com/r%20v/X'
    >>> base_string_uri("https://www.example.net:8080?q=1")
    'https://www.example.net:8080/'
    >>> base_string_uri("http://EXAMPLE.com:80/a b/ü")
    'http://example.com/a%20b/%C3%BC'
    """
    _args.check_str("url", url)
    from .errors import URLParseError
    from .rfc3986 import split
    from .url import parse

    # RFC 5849 builds on RFC 3986: the request URI must have an authority.
    # (A browser would read "http:/x" as http://x/; a signer should not guess.)
    if not split(url.strip()).authority:
        raise OAuth1Error(f"{url!r} has no authority (RFC 5849 §3.4.1.2)", 0)
    # Only scheme, host, port and path are kept, so the query and fragment are not parsed
    # (WHATWG URL §4.4: the first "?" or "#" ends the path, whatever precedes it).  The
    # "?" put back keeps the input's end where it was for the leading/trailing C0-control-
    # or-space stripping, so "http://a/p ?q" still has the path "/p%20".
    cut = min((i for i in (url.find("?"), url.find("#")) if i != -1), default=-1)
    try:
        u = parse(url if cut == -1 else url[:cut] + "?")
    except URLParseError as e:
        raise OAuth1Error(f"{url!r} is not a URL ({e.name})", e.position) from None
    if not u.hostname:
        raise OAuth1Error(f"{url!r} has no host (RFC 5849 §3.4.1.2)", 0)
    # §3.4.1.2 item 1: scheme and host in lower case; item 3: default port excluded.
    return f"{u.scheme}://{u.host}{u.pathname or '/'}"


_PROTOCOL_OCTETS = frozenset(n.encode("ascii") for n in PROTOCOL_PARAMETERS)


def _refuse_reserved(params: list[tuple[bytes, bytes]], where: str) -> None:
    # §3.1: the oauth_ prefix is the protocol's.  Names compare as decoded octets and
    # case-sensitively (§3.1: protocol parameter names are case sensitive).
    for i, (name, _) in enumerate(params):
        if name.startswith(b"oauth_") and name not in _PROTOCOL_OCTETS:
            shown = name.decode("utf-8", "backslashreplace")
            why = (" (a server's response parameter, RFC 5849 §2.1, §2.3)"
                   if shown in RESPONSE_PARAMETERS else "")
            raise ReservedParameterError(
                f"parameter {i + 1} of {where} is named {shown!r}{why}: RFC 5849 §3.1 "
                "reserves the 'oauth_' prefix for the protocol parameters "
                f"({', '.join(sorted(PROTOCOL_PARAMETERS))}); rename it",
                shown,
            )


def signature_base_string(
    method: str,
    url: str,
    *,
    body: str | bytes | Pairs | None = None,
    oauth_params: Pairs = (),
) -> str:
    """RFC 5849 §3.4.1.1: the signature base string of a request.

    ``method`` is upper-cased; ``url`` is the full request URL, whose query
    supplies parameters (parsed as a form, ``+`` as space); ``body`` is an
    ``application/x-www-form-urlencoded`` entity-body (``str`` or ``bytes``,
    parsed the same way) or already-decoded pairs — pass it only when the
    request really has that content type (§3.4.1.3.1); ``oauth_params`` are
    the protocol parameters, decoded (for example what
    :func:`parse_authorization_header` returns): ``realm`` is left out, and
    ``oauth_signature`` is left out wherever it appears.  A query or body
    parameter named ``oauth_...`` that is not one of
    :data:`PROTOCOL_PARAMETERS` raises :class:`ReservedParameterError` (§3.1
    reserves the prefix).

    >>> signature_base_string("get", "HTTP://Example.com/p?b=2&a=1",
    ...                       oauth_params=[("oauth_nonce", "n")])
    'GET&http%3A%2F%2Fexample.com%2Fp&a%3D1%26b%3D2%26oauth_nonce%3Dn'
    """
    _args.check_str("method", method)
    if not method:
        raise OAuth1Error("the HTTP method cannot be empty", 0)
    uri = base_string_uri(url)
    query = _split_url(url)[3]
    try:
        params = _form_pairs(_as_octets(query, "the URL"))
    except OAuth1Error as e:  # the position in the URL, not in its query
        at = len(url.partition("#")[0]) - len(query) + (e.position or 0)
        raise OAuth1Error(str(e).replace(f"position {e.position}", f"position {at}"),
                          at) from None
    _refuse_reserved(params, "the URL's query")
    if body is not None:
        if isinstance(body, (str, bytes, bytearray, memoryview)):
            from_body = _form_pairs(_as_octets(body, "the body"))
        else:
            from_body = _pairs(body, "body")
        _refuse_reserved(from_body, "the body")
        params += from_body
    # §3.4.1.3.1: the header's realm is not a parameter of the request.
    params += [(n, v) for n, v in _pairs(oauth_params, "oauth_params") if n.lower() != b"realm"]
    # §3.4.1.3.1: oauth_signature is excluded whatever its source.
    params = [(n, v) for n, v in params if n != b"oauth_signature"]
    # §3.4.1.1: method, "&", encoded base string URI, "&", encoded parameters.
    return "&".join((encode(method.upper()), encode(uri), encode(_normalize(params))))


# ---------------------------------------------------------------------------
# §3.4.2 and §3.4.4: signatures over the base string


def _secret(value: str | bytes, what: str) -> str:
    if not isinstance(value, (str, bytes)):
        raise PercentEncodingTypeError(f"{what} must be str or bytes, not {type(value).__name__}")
    return encode(value)


def plaintext_signature(consumer_secret: str | bytes, token_secret: str | bytes = "") -> str:
    """RFC 5849 §3.4.4: the encoded client secret, ``&``, the encoded token secret.

    This is also the HMAC-SHA1 key (§3.4.2).

    >>> plaintext_signature("j49sk3j29djd", "dh893hdasih9")
    'j49sk3j29djd&dh893hdasih9'
    """
    return _secret(consumer_secret, "consumer_secret") + "&" + _secret(token_secret, "token_secret")


def hmac_sha1_signature(
    base_string: str, consumer_secret: str | bytes, token_secret: str | bytes = ""
) -> str:
    """RFC 5849 §3.4.2: base64 of HMAC-SHA1 over the base string, keyed with the
    encoded secrets joined by ``&`` (the ``&`` is there even when a secret is empty).

    The result is the ``oauth_signature`` value before §3.6 encoding
    (:func:`authorization_header` does that).
    """
    if not isinstance(base_string, str):
        raise PercentEncodingTypeError(
            f"the base string must be a str, not {type(base_string).__name__}"
        )
    key = plaintext_signature(consumer_secret, token_secret).encode("ascii")
    try:
        message = base_string.encode("utf-8")
    except UnicodeEncodeError as e:
        # As plaintext_signature does for the secrets: a lone surrogate has no UTF-8 form.
        raise PercentEncodeError(
            f"the base string has a lone surrogate at position {e.start}; it cannot be "
            "UTF-8 encoded (RFC 5849 §3.6)",
            e.start,
        ) from None
    digest = hmac.new(key, message, hashlib.sha1).digest()
    return base64.b64encode(digest).decode("ascii")


# ---------------------------------------------------------------------------
# §3.5.1: the Authorization header

# RFC 7230 §3.2.6 token characters, for auth-scheme, parameter names and token values.
_BAD_REALM_CHAR = re.compile(r"[^\t\x20-\x7e]")
# RFC 9112 §5.2: obs-fold = OWS CRLF RWS (a bare LF is accepted as a line
# end too, §2.2); the recipient reads each fold as SP.
_OBS_FOLD = re.compile(r"\r?\n(?=[ \t])")


def _unfold(m: re.Match[str]) -> str:
    return " " * len(m.group())  # same length, so positions still point into the input


def _quote(value: str, what: str) -> str:
    # RFC 7230 §3.2.6 quoted-string: '"' and '\' are escaped with '\'.  Control
    # characters (CR/LF would split the header) and non-ASCII are refused.
    m = _BAD_REALM_CHAR.search(value)
    if m is not None:
        raise OAuth1Error(
            f"{what} has U+{ord(m.group()):04X} at position {m.start()}, which cannot appear "
            "in a quoted-string header value (use printable ASCII)",
            m.start(),
        )
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def authorization_header(oauth_params: Pairs, realm: str | None = None) -> str:
    """RFC 5849 §3.5.1: the value of an ``Authorization: OAuth ...`` header.

    Names and values are encoded (§3.6) and quoted, in the order given,
    separated by ``", "``; ``realm`` (RFC 2617 §1.2) comes first as a plain
    quoted-string (a ``("realm", ...)`` pair in ``oauth_params`` counts as
    the realm, so a parsed header can be written back).

    >>> authorization_header([("oauth_consumer_key", "0685bd9184jfhq22"),
    ...                       ("oauth_signature", "wOJIO9A2W5mFwDgiDvZbTSMK/PY=")],
    ...                      realm="Example")
    'OAuth realm="Example", oauth_consumer_key="0685bd9184jfhq22", oauth_signature="wOJIO9A2W5mFwDgiDvZbTSMK%2FPY%3D"'
    """  # noqa: E501
    _args.check_str("realm", realm, none=True)
    parts = []
    for name, value in _pairs(oauth_params, "oauth_params"):
        if name.lower() == b"realm":  # RFC 2617 auth-param names ignore case
            # What parse_authorization_header returns can be written back.
            if realm is not None:
                raise OAuth1Error("the realm is given twice (in oauth_params and as realm=)")
            realm = value.decode("utf-8")
            continue
        parts.append(f'{encode(name)}="{encode(value)}"')
    if realm is not None:
        parts.insert(0, "realm=" + _quote(realm, "the realm"))
    return "OAuth " + ", ".join(parts) if parts else "OAuth"


def _read_quoted(header: str, start: int) -> tuple[str, int]:
    """The quoted-string that opens at ``header[start]`` and the index past it."""
    got = read_quoted(header, start)
    if got is None:
        raise OAuth1Error(f"unterminated quoted-string starting at position {start}", start)
    return got


def parse_authorization_header(header: str) -> list[tuple[str, str]]:
    """Read an ``OAuth`` Authorization header value (RFC 5849 §3.5.1).

    Returns the parameters in order as decoded ``(name, value)`` pairs; a
    ``realm`` is included as ``("realm", value)`` (unquoted, not
    percent-decoded), so the result can go straight to
    :func:`signature_base_string`'s ``oauth_params``, which drops it.  The
    auth-scheme ``OAuth`` is matched case-insensitively; values may be
    quoted-strings (as §3.5.1 says) or bare tokens (RFC 2617 allows both).
    Optional whitespace is allowed around ``=`` and ``,`` (RFC 9110 §11.4
    auth-param), and a header folded across lines (obs-fold: a line break
    followed by a space or tab) is read with the fold as spaces, as RFC 9112
    §5.2 asks of a recipient.
    Raises :class:`OAuth1Error` with the position for another scheme, a
    malformed parameter, a bad ``%`` escape, a line break that is not a fold,
    or a repeated parameter (§3.1: each parameter appears once; ``realm`` is
    matched in any letter case, so ``realm`` and ``Realm`` are a repeat).

    >>> parse_authorization_header('OAuth realm="Example", oauth_token="ad%2B1"')
    [('realm', 'Example'), ('oauth_token', 'ad+1')]
    """
    if not isinstance(header, str):
        raise PercentEncodingTypeError(
            f"the header value must be a str, not {type(header).__name__}"
        )
    if "\n" in header:
        header = _OBS_FOLD.sub(_unfold, header)
    i = _OWS.match(header, 0).end()  # type: ignore[union-attr]
    m = _TOKEN.match(header, i)
    if m is None or m.group().lower() != "oauth":
        raise OAuth1Error(
            f"the header does not use the OAuth auth-scheme (RFC 5849 §3.5.1): {header[:40]!r}",
            i,
        )
    i = m.end()
    n = len(header)
    out: list[tuple[str, str]] = []
    seen: set[str] = set()
    if i < n and header[i] not in " \t":
        raise OAuth1Error(f"expected a space after 'OAuth' at position {i}", i)
    expect_comma = False
    while True:
        i = _OWS.match(header, i).end()  # type: ignore[union-attr]
        if i >= n:
            break
        if header[i] == ",":
            i += 1
            expect_comma = False
            continue  # RFC 7230 §7: empty list elements are allowed
        if expect_comma:
            raise OAuth1Error(f"expected ',' between parameters at position {i}", i)
        m = _TOKEN.match(header, i)
        if m is None:
            raise OAuth1Error(f"expected a parameter name at position {i}", i)
        raw_name, name_at = m.group(), i
        i = _OWS.match(header, m.end()).end()  # type: ignore[union-attr]
        if i >= n or header[i] != "=":
            raise OAuth1Error(f"expected '=' after {raw_name!r} at position {i}", i)
        i = _OWS.match(header, i + 1).end()  # type: ignore[union-attr]
        value_at = i
        if i < n and header[i] == '"':
            raw_value, i = _read_quoted(header, i)
            value_at += 1
        else:
            m = _TOKEN.match(header, i)
            if m is None:
                raise OAuth1Error(f"expected a value for {raw_name!r} at position {i}", i)
            raw_value, i = m.group(), m.end()
        if raw_name.lower() == "realm":
            name, value = "realm", raw_value
        else:
            name = _decode_at(raw_name, name_at, "name")
            value = _decode_at(raw_value, value_at, f"value of {name!r}")
        if name in seen:
            raise OAuth1Error(
                f"parameter {name!r} appears twice (RFC 5849 §3.1), again at position {name_at}",
                name_at,
            )
        seen.add(name)
        out.append((name, value))
        expect_comma = True
    return out


def _decode_at(text: str, offset: int, what: str) -> str:
    try:
        return decode(text)
    except PercentDecodeError as e:
        pos = offset + e.position
        raise OAuth1Error(
            f"bad percent-encoding in the {what} at position {pos}: {e}", pos
        ) from None
    except PercentEncodingError as e:
        raise OAuth1Error(f"the {what} at position {offset} is not UTF-8: {e}", offset) from None


def _scheme_encode_pairs(pairs: Sequence[tuple[str, str]]) -> str:
    return normalize_parameters(pairs)


SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="oauth1",
        spec="RFC 5849 §3.6 (OAuth 1.0 percent-encoding)",
        encode=encode,
        decode=decode,
        encode_set=OAUTH1,
        notes=(
            "UTF-8, everything but ALPHA DIGIT -._~ as %XX with upper-case hex, space is %20; "
            "encode_pairs is the §3.4.1.3.2 normalized parameter string (sorted)"
        ),
        encode_pairs=_scheme_encode_pairs,
        family="OAuth 1.0",
        aliases=("rfc5849",),
        plain=True,
        reversible=True,
    ),
)
