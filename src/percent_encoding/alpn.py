"""ALPN protocol IDs as HTTP tokens: RFC 7838 §3 (also RFC 7639 §2).

Strategy: an ALPN protocol ID (RFC 7301 §3.1) is an opaque string of 1 to
255 octets.  HTTP header fields (``Alt-Svc``, ``ALPN``) carry it as a
``token``; RFC 7838 §3 says how: every octet that is a ``tchar`` (RFC 7230
§3.2.6) stays, except ``%``; every other octet, ``%`` included, is written
``%XX`` with upper-case hex.  That gives exactly one spelling per ID, so
senders produce it with :func:`encode` and recipients may compare strings.

:func:`encode` takes bytes (the ID itself) or ``str`` (its UTF-8 bytes) and
returns the token.  :func:`decode` returns the octets; it is strict about the
token syntax and raises :class:`AlpnDecodeError` (a
:class:`~percent_encoding.errors.PercentDecodeError`) with the position of
the first problem.  Lower-case hex is accepted by default, because the
RFC's "upper-case" rule binds senders; ``canonical=True`` also rejects it
(and any other spelling that :func:`encode` would not produce).
:func:`equal` compares two IDs by their octets.

:func:`parse_alt_svc` reads a whole ``Alt-Svc`` field value (RFC 7838 §3)
into :class:`AltService` records (the protocol ID decoded, the authority
unquoted, the parameters as ordered pairs; ``clear`` is ``[]``) and raises
:class:`~percent_encoding.errors.AltSvcError` with the position of the first
thing that is not its grammar; :func:`alt_svc` writes one.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from typing import NamedTuple

from . import _args
from . import core as _core
from ._abnf import BAD_PERCENT as _BAD_PERCENT
from ._abnf import OWS as _OWS
from ._abnf import QUOTED_PAIR as _QUOTED_PAIR
from ._abnf import QUOTED_STRING as _QUOTED_STRING
from ._abnf import TCHAR as _TCHAR
from ._abnf import TOKEN as _TOKEN
from ._scheme import Scheme
from .errors import (
    AltSvcError,
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
)
from .sets import ALPN

__all__ = [
    "MAX_LENGTH",
    "SCHEMES",
    "AlpnDecodeError",
    "AltService",
    "AltSvcError",
    "alt_svc",
    "decode",
    "encode",
    "equal",
    "is_canonical",
    "parse_alt_svc",
]

#: RFC 7301 §3.1: a protocol name is 1 to 255 octets; empty names are not allowed.
MAX_LENGTH = 255

# RFC 7230 §3.2.6 tchar; "%" among them only ever starts an escape here.
_BAD_CHAR = re.compile(f"[^{re.escape(_TCHAR)}]")
_LOWER_HEX = re.compile(r"%(?:[0-9A-Fa-f][a-f]|[a-f][0-9A-F])")
_ESCAPE = re.compile(r"%([0-9A-Fa-f]{2})")


class AlpnDecodeError(PercentDecodeError):
    """A string that is not a valid RFC 7838 §3 protocol-id token.

    ``position`` is the index of the offending character in the input.
    """


def _as_bytes(protocol_id: object, func: str) -> bytes:
    return _args.utf8_octets(
        protocol_id,
        lambda at: PercentEncodeError(
            f"lone surrogate U+{ord(str(protocol_id)[at]):04X} at position {at} "
            "cannot be UTF-8 encoded; pass the protocol ID as bytes",
            at,
        ),
        lambda: PercentEncodingTypeError(
            f"{func}() takes the protocol ID as bytes or str, not {type(protocol_id).__name__}"
        ),
    )


def _check_length(octets: bytes) -> None:
    # RFC 7301 §3.1: 1 to 255 octets.
    if not octets:
        raise PercentEncodeError("an ALPN protocol ID cannot be empty (RFC 7301 §3.1)", 0)
    if len(octets) > MAX_LENGTH:
        raise PercentEncodeError(
            f"an ALPN protocol ID is at most {MAX_LENGTH} octets (RFC 7301 §3.1), "
            f"this one has {len(octets)}",
            MAX_LENGTH,
        )


def encode(protocol_id: bytes | str) -> str:
    """The RFC 7838 §3 token for an ALPN protocol ID.

    ``bytes`` are the ID itself; a ``str`` stands for its UTF-8 bytes.  An
    empty ID or one longer than 255 octets raises
    :class:`~percent_encoding.errors.PercentEncodeError`.

    >>> encode(b"h2"), encode("http/1.1"), encode(b"w=x%y")
    ('h2', 'http%2F1.1', 'w%3Dx%25y')
    """
    octets = _as_bytes(protocol_id, "encode")
    _check_length(octets)
    return _core.encode(octets, ALPN)


def _fail(message: str, position: int) -> AlpnDecodeError:
    return AlpnDecodeError(message, position)


def decode(token: str, *, canonical: bool = False) -> bytes:
    """The ALPN protocol ID (octets) that an RFC 7838 §3 token stands for.

    Raises :class:`AlpnDecodeError` with the position of a ``%`` without two
    hex digits, of a character that cannot appear in a token, and (with
    ``canonical=True``) of a lower-case escape or an escape of a character
    that must stay as it is.  A result that is empty or longer than 255
    octets raises too.

    >>> decode("http%2F1.1"), decode("h2")
    (b'http/1.1', b'h2')
    """
    if not isinstance(token, str):
        raise PercentEncodingTypeError(
            f"decode() takes the token as str, not {type(token).__name__}"
        )
    _args.check_bool("canonical", canonical)
    if not token:
        raise _fail("an ALPN protocol-id token cannot be empty (RFC 7301 §3.1)", 0)
    m = _BAD_CHAR.search(token)
    if m is not None:
        raise _fail(
            f"{m.group()!r} at position {m.start()} cannot appear in a protocol-id token "
            "(RFC 7838 §3: octets that are not tchar are written %XX)",
            m.start(),
        )
    m = _BAD_PERCENT.search(token)
    if m is not None:
        raise _fail(
            f"'%' at position {m.start()} must start an escape of two hex digits "
            "(a literal '%' in an ALPN ID is written %25)",
            m.start(),
        )
    if canonical:
        m = _LOWER_HEX.search(token)
        if m is not None:
            raise _fail(
                f"escape {m.group()!r} at position {m.start()} uses lower-case hex; "
                "RFC 7838 §3 requires upper case",
                m.start(),
            )
        for esc in _ESCAPE.finditer(token):
            if chr(int(esc.group(1), 16)) not in ALPN:
                raise _fail(
                    f"escape {esc.group()!r} at position {esc.start()} encodes a token "
                    "character, which RFC 7838 §3 says must not be percent-encoded",
                    esc.start(),
                )
    octets = _core.decode(token)
    if len(octets) > MAX_LENGTH:
        raise _fail(
            f"the protocol ID is {len(octets)} octets; RFC 7301 §3.1 allows at most "
            f"{MAX_LENGTH}",
            0,
        )
    return octets


def is_canonical(token: str) -> bool:
    """Whether ``token`` is the one spelling RFC 7838 §3 allows for its ID.

    >>> is_canonical("http%2F1.1"), is_canonical("http%2f1.1"), is_canonical("%68%32")
    (True, False, False)
    """
    try:
        decode(token, canonical=True)
    except AlpnDecodeError:
        return False
    return True


def _operand(value: object) -> bytes:
    if isinstance(value, str):
        return decode(value)
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise PercentEncodingTypeError(
        f"equal() takes tokens (str) or raw protocol IDs (bytes), not {type(value).__name__}"
    )


def equal(a: str | bytes, b: str | bytes) -> bool:
    """Whether two ALPN protocol IDs are the same, compared as octets.

    A ``str`` is a protocol-id token and is decoded first (so ``"h%32"`` and
    ``"h2"`` are equal even though only the second is canonical); ``bytes``
    are a raw protocol ID.  An invalid token raises :class:`AlpnDecodeError`.

    >>> equal("http%2F1.1", b"http/1.1"), equal("h2", "H2")
    (True, False)
    """
    return _operand(a) == _operand(b)


# --------------------------------------------------------------------------------------------
# The Alt-Svc field (RFC 7838 §3)
#
#   Alt-Svc       = clear / 1#alt-value
#   clear         = %s"clear"; "clear", case-sensitive
#   alt-value     = alternative *( OWS ";" OWS parameter )
#   alternative   = protocol-id "=" alt-authority
#   protocol-id   = token ; percent-encoded ALPN protocol name
#   alt-authority = quoted-string ; containing [ uri-host ] ":" port
#   parameter     = token "=" ( token / quoted-string )
#
# 1#element is RFC 9110 §5.6.1's list: a recipient accepts empty elements (",,").


class AltService(NamedTuple):
    """One alternative of an ``Alt-Svc`` field (RFC 7838 §3).

    ``protocol_id`` is the ALPN protocol ID, decoded, as text (octets that are not
    UTF-8 are kept as lone surrogates: ``protocol_id.encode("utf-8",
    "surrogateescape")`` gives them back); ``authority`` the unquoted
    ``[host]:port``; ``params`` the parameters (``ma``, ``persist``, ...) as
    ``(name, value)`` pairs in order, values unquoted.
    """

    protocol_id: str
    authority: str
    params: tuple[tuple[str, str], ...]


# RFC 7838 §3: alt-authority holds [ uri-host ] ":" port; port = *DIGIT (RFC 3986 §3.2.3).
_AUTHORITY = re.compile(r"(?:\[[^\[\]]*\]|[^\[\]:]*):[0-9]*\Z")
# RFC 9110 §5.6.4: what a quoted-string can hold (qdtext, and quoted-pair's characters).
_NOT_QUOTABLE = re.compile("[^\t\x20-\x7e\x80-\xff]")
_TOKEN_FULL = re.compile(f"[{re.escape(_TCHAR)}]+\\Z")


def _quoted(value: str, start: int, what: str) -> str:
    # The content of the quoted-string at value[start] ('"'), unescaped.
    m = _QUOTED_STRING.match(value, start)
    if m is None:
        raise AltSvcError(f"{what} at position {start} is not a quoted-string (a '\"' "
                          "is missing)", start)
    bad = _NOT_QUOTABLE.search(value, m.start(1), m.end(1))
    if bad is not None:
        raise AltSvcError(f"{bad.group()!r} at position {bad.start()} cannot appear in a "
                          "quoted-string (RFC 9110 §5.6.4)", bad.start())
    return _QUOTED_PAIR.sub(r"\1", m.group(1))


def _skip_ows(value: str, pos: int) -> int:
    m = _OWS.match(value, pos)
    return pos if m is None else m.end()


def parse_alt_svc(value: str) -> list[AltService]:
    """The alternatives in an ``Alt-Svc`` field value (RFC 7838 §3), most preferred first.

    ``clear`` (exactly, it is case-sensitive) gives ``[]``.  Each protocol-id is
    decoded as :func:`decode` does; the authority must be ``[host]:port``.
    Anything else raises :class:`~percent_encoding.errors.AltSvcError` with the
    position of the problem in ``value``.

    >>> parse_alt_svc('h2="alt.example.com:8000", h2=":443"; ma=3600')
    [AltService(protocol_id='h2', authority='alt.example.com:8000', params=()), \
AltService(protocol_id='h2', authority=':443', params=(('ma', '3600'),))]
    >>> parse_alt_svc('w%3Dx%3Ay#z=":443"')[0].protocol_id
    'w=x:y#z'
    >>> parse_alt_svc("clear")
    []
    """
    if not isinstance(value, str):
        raise PercentEncodingTypeError(f"parse_alt_svc() takes a str, not {type(value).__name__}")
    n = len(value)
    if value.strip(" \t") == "clear":
        return []
    out: list[AltService] = []
    pos = 0
    while True:
        # Empty list elements are skipped (RFC 9110 §5.6.1).
        while True:
            pos = _skip_ows(value, pos)
            if pos < n and value[pos] == ",":
                pos += 1
                continue
            break
        if pos >= n:
            break
        m = _TOKEN.match(value, pos)
        if m is None:
            raise AltSvcError(f"{value[pos]!r} at position {pos}: expected a protocol-id "
                              "(a token) or 'clear' (RFC 7838 §3)", pos)
        if m.group() == "clear":
            raise AltSvcError(f"'clear' at position {pos} must be the whole field value "
                              "(RFC 7838 §3)", pos)
        try:
            octets = decode(m.group())
        except AlpnDecodeError as e:
            raise AltSvcError(f"protocol-id at position {pos}: {e}",
                              pos + max(e.position, 0)) from None
        protocol_id = octets.decode("utf-8", "surrogateescape")
        pos = m.end()
        if pos >= n or value[pos] != "=":
            raise AltSvcError(f"position {pos}: expected '=' and the quoted alt-authority "
                              "after the protocol-id", pos)
        pos += 1
        if pos >= n or value[pos] != '"':
            raise AltSvcError(f"position {pos}: the alt-authority is a quoted-string "
                              '(h2=":443", not h2=:443)', pos)
        authority = _quoted(value, pos, "the alt-authority")
        if not _AUTHORITY.match(authority):
            raise AltSvcError(f"alt-authority {authority!r} at position {pos} is not "
                              "[host]:port (RFC 7838 §3)", pos)
        pos = _QUOTED_STRING.match(value, pos).end()  # type: ignore[union-attr]
        params: list[tuple[str, str]] = []
        while True:
            pos = _skip_ows(value, pos)
            if pos >= n or value[pos] != ";":
                break
            pos = _skip_ows(value, pos + 1)
            m = _TOKEN.match(value, pos)
            if m is None or m.end() >= n or value[m.end()] != "=":
                raise AltSvcError(f"position {pos}: expected a parameter, token=value "
                                  "(RFC 7838 §3)", pos)
            name = m.group()
            pos = m.end() + 1
            if pos < n and value[pos] == '"':
                params.append((name, _quoted(value, pos, f"parameter {name!r}")))
                pos = _QUOTED_STRING.match(value, pos).end()  # type: ignore[union-attr]
            else:
                t = _TOKEN.match(value, pos)
                if t is None:
                    raise AltSvcError(f"position {pos}: parameter {name!r} needs a value, "
                                      "a token or a quoted-string", pos)
                params.append((name, t.group()))
                pos = t.end()
        out.append(AltService(protocol_id, authority, tuple(params)))
        if pos < n and value[pos] != ",":
            raise AltSvcError(f"{value[pos]!r} at position {pos}: expected ',' or ';' "
                              "(RFC 7838 §3)", pos)
    if not out:
        raise AltSvcError("an Alt-Svc field value holds 'clear' or at least one alternative",
                          0)
    return out


def _quote(text: str, what: str) -> str:
    bad = _NOT_QUOTABLE.search(text)
    if bad is not None:
        raise AltSvcError(f"{what}: {bad.group()!r} at position {bad.start()} cannot be "
                          "written in a quoted-string (RFC 9110 §5.6.4)", bad.start())
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _entry(entry: object, i: int) -> tuple[str | bytes, str, list[tuple[str, str]]]:
    if not isinstance(entry, (tuple, list)) or len(entry) != 3:
        raise PercentEncodingTypeError(
            f"alt_svc(): entry {i} is not an AltService or a (protocol_id, authority, "
            f"params) tuple: {entry!r:.60}"
        )
    pid, authority, params = entry
    if not isinstance(pid, (str, bytes)) or not isinstance(authority, str):
        raise PercentEncodingTypeError(
            f"alt_svc(): entry {i} needs a str or bytes protocol_id and a str authority"
        )
    if params is None:
        params = ()
    if isinstance(params, (str, bytes, bytearray, memoryview)) or not isinstance(
            params, (Mapping, Iterable)):
        raise PercentEncodingTypeError(
            f"alt_svc(): entry {i}'s params are a mapping or (name, value) pairs, not "
            f"{type(params).__name__}"
        )
    items: Iterable[object] = params.items() if isinstance(params, Mapping) else params
    pairs = []
    for item in items:
        if (not isinstance(item, (tuple, list)) or len(item) != 2
                or not isinstance(item[0], str)
                or not isinstance(item[1], (str, int)) or isinstance(item[1], bool)):
            raise PercentEncodingTypeError(
                f"alt_svc(): entry {i} has a parameter that is not a (str, str or int) pair: "
                f"{item!r:.60}"
            )
        pairs.append((item[0], str(item[1])))
    return pid, authority, pairs


def alt_svc(entries: Iterable[AltService | tuple[str | bytes, str, object]]) -> str:
    """Write an ``Alt-Svc`` field value (RFC 7838 §3) for ``entries``, in order of preference.

    Each entry is an :class:`AltService` or a ``(protocol_id, authority, params)``
    tuple: the protocol ID as text or octets (encoded as :func:`encode` does), the
    authority ``[host]:port``, the parameters a mapping or ``(name, value)``
    pairs (values ``str`` or ``int``; a value that is not a token is quoted).  No
    entries give ``clear``.  A bad authority, parameter name or value raises
    :class:`~percent_encoding.errors.AltSvcError`.

    >>> alt_svc([("h2", "alt.example.com:8000", ()), ("h2", ":443", {"ma": 3600})])
    'h2="alt.example.com:8000", h2=":443"; ma=3600'
    >>> alt_svc([(b"w=x:y#z", ":443", [("note", "a b")])])
    'w%3Dx%3Ay#z=":443"; note="a b"'
    >>> alt_svc([])
    'clear'
    """
    if isinstance(entries, (str, bytes, bytearray, memoryview, Mapping)) or not isinstance(
            entries, Iterable):
        raise PercentEncodingTypeError(
            f"alt_svc() takes a list of alternatives, not {type(entries).__name__}"
        )
    parts = []
    for i, entry in enumerate(entries):
        pid, authority, params = _entry(entry, i)
        if isinstance(pid, str):
            pid = pid.encode("utf-8", "surrogateescape")
        try:
            token = encode(pid)
        except PercentEncodingError as e:
            raise AltSvcError(f"alternative {i}: {e}", None) from None
        if not _AUTHORITY.match(authority):
            raise AltSvcError(f"alternative {i}: authority {authority!r} is not [host]:port "
                              "(RFC 7838 §3)", None)
        out = f"{token}={_quote(authority, f'alternative {i} authority')}"
        for name, value in params:
            if not _TOKEN_FULL.match(name):
                raise AltSvcError(f"alternative {i}: parameter name {name!r} is not a token",
                                  None)
            shown = value if _TOKEN_FULL.match(value) else _quote(
                value, f"alternative {i} parameter {name!r}")
            out += f"; {name}={shown}"
        parts.append(out)
    return ", ".join(parts) if parts else "clear"


def _scheme_decode(token: str) -> str:
    # The registry speaks str: IDs are octets, shown as UTF-8 text (U+FFFD for
    # octets that are not UTF-8).  alpn.decode gives the exact octets.
    return decode(token).decode("utf-8", "replace")


SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="alpn",
        spec="RFC 7838 §3 (ALPN protocol-id in Alt-Svc; also RFC 7639 §2)",
        encode=encode,
        decode=_scheme_decode,
        encode_set=ALPN,
        notes=(
            "tchar stays except '%'; every other octet is %XX with upper-case hex, so each "
            "ID has exactly one spelling; text is UTF-8; ids are 1-255 octets (RFC 7301)"
        ),
        family="HTTP header fields",
        plain=True,
        reversible=True,
    ),
)
