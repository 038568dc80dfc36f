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
"""

from __future__ import annotations

import re

from . import _args
from . import core as _core
from ._abnf import BAD_PERCENT as _BAD_PERCENT
from ._abnf import TCHAR as _TCHAR
from ._scheme import Scheme
from .errors import PercentDecodeError, PercentEncodeError, PercentEncodingTypeError
from .sets import ALPN

__all__ = [
    "MAX_LENGTH",
    "SCHEMES",
    "AlpnDecodeError",
    "decode",
    "encode",
    "equal",
    "is_canonical",
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
    return _core._utf8_octets(
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
