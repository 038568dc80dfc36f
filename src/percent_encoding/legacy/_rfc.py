"""The URL/URI RFCs before RFC 3986: RFC 1738, RFC 2396 and RFC 2732.

Strategy: each encoder is :func:`percent_encoding.encode` with the RFC's
encode set (minus a caller's ``safe`` characters); ``rfc_decode`` is the
common decoder of all three.

Specs: RFC 1738 §2.2; RFC 2396 §2 (unreserved = alphanum | mark; the
excluded characters of §2.4.3 are always escaped); RFC 2732 §3 (``[`` and
``]`` move from *unwise* to *reserved*).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from .. import _args
from .. import core as _core
from ..errors import (
    PercentEncodingError,
)
from ..sets import (
    RFC1738,
    RFC2396,
    EncodeSet,
)
from ._common import Text, check, str_arg

# RFC 2732 §3 changes only which characters are *reserved* ("[" and "]" leave
# "unwise"); both classes must be escaped in data, so the data encode set is
# RFC 2396's.
RFC2732: Final = RFC2396.named(
    "rfc2732", "RFC 2732 §3 (as RFC 2396: everything but unreserved; [ ] now reserved)"
)


@lru_cache(maxsize=128)
def minus(base: EncodeSet, safe: str) -> EncodeSet:
    return base.remove(safe) if safe else base


# What each RFC says must always be encoded, whatever the character is used
# for; ``safe`` may keep only the others (reserved characters used for their
# reserved purpose).  "%" and non-ASCII are refused for every RFC below.
# RFC 1738 §2.2: controls, space, the unsafe characters ("<>\"#%{}|\\^~[]`").
_MUST_1738: Final = "".join(map(chr, range(0x20))) + "\x7f" + ' <>"#{}|\\^~[]`'
# RFC 2396 §2.4.3: the excluded characters (control, space, delims, unwise).
_MUST_2396: Final = "".join(map(chr, range(0x20))) + '\x7f <>"#{}|\\^[]`'
# RFC 2732 §3 moves "[" and "]" from unwise to reserved.
_MUST_2732: Final = _MUST_2396.replace("[]", "")


def _safe_set(
    base: EncodeSet, safe: str, must: str, rfc: str, allow_unsafe: object
) -> EncodeSet:
    _args.check_str("safe", safe)
    _args.check_bool("allow_unsafe", allow_unsafe)
    if "%" in safe:
        raise PercentEncodingError("'%' cannot be safe: it always starts an escape")
    if not safe.isascii():
        raise PercentEncodingError("safe must contain only ASCII characters")
    if not allow_unsafe:
        bad = next((c for c in safe if c in must), None)
        if bad is not None:
            raise PercentEncodingError(
                f"{bad!r} cannot be safe: {rfc} says it must always be percent-encoded; "
                "pass allow_unsafe=True to keep it anyway (the result then breaks that rule)"
            )
    return minus(base, safe)


def rfc1738_encode(
    data: Text, *, safe: str = "", encoding: str = "utf-8", allow_unsafe: bool = False
) -> str:
    """Encode data for a URL as RFC 1738 §2.2 says: only alphanumerics and
    ``$-_.+!*'(),`` stay; controls, 80–FF, *unsafe* and *reserved* become ``%XX``.

    ``safe`` keeps reserved characters that are used for their reserved
    purpose (e.g. ``"/"`` in a path).  RFC 1738 predates any charset rule: text
    is encoded with ``encoding`` (UTF-8, as RFC 2718 §2.2.5 recommends).
    A ``safe`` character that §2.2 says must always be encoded (controls,
    space, ``<>"#%{}|\\^~[]``` and non-ASCII) raises
    :class:`~percent_encoding.errors.PercentEncodingError`;
    ``allow_unsafe=True`` lets ASCII ones through on purpose.

    >>> rfc1738_encode("a b~c/d'e")
    "a%20b%7Ec%2Fd'e"
    """
    return _core.encode(
        check(data, "rfc1738_encode"),
        _safe_set(RFC1738, safe, _MUST_1738, "RFC 1738 §2.2", allow_unsafe),
        encoding=str_arg(encoding, "encoding", "rfc1738_encode"),
    )


def rfc2396_encode(
    data: Text, *, safe: str = "", encoding: str = "utf-8", allow_unsafe: bool = False
) -> str:
    """Escape everything but RFC 2396 *unreserved* (§2.3: alphanum and
    ``-_.!~*'()``), as §2.4 requires for data; ``safe`` keeps reserved
    characters used for their reserved purpose.  A ``safe`` character that
    §2.4.3 excludes (controls, space, ``<>"#%{}|\\^[]``` and non-ASCII)
    raises :class:`~percent_encoding.errors.PercentEncodingError`;
    ``allow_unsafe=True`` lets ASCII ones through on purpose.

    >>> rfc2396_encode("a b~c/d[e]", safe="/")
    'a%20b~c/d%5Be%5D'
    """
    return _core.encode(
        check(data, "rfc2396_encode"),
        _safe_set(RFC2396, safe, _MUST_2396, "RFC 2396 §2.4.3", allow_unsafe),
        encoding=str_arg(encoding, "encoding", "rfc2396_encode"),
    )


def rfc2732_encode(
    data: Text, *, safe: str = "", encoding: str = "utf-8", allow_unsafe: bool = False
) -> str:
    """RFC 2732 §3: as :func:`rfc2396_encode`; ``[`` and ``]`` are now reserved
    (so ``safe="[]:"`` may keep an IPv6 literal), not unwise.  The other
    excluded characters raise in ``safe`` as for :func:`rfc2396_encode`.

    >>> rfc2732_encode("[::1]", safe="[]:")
    '[::1]'
    """
    return _core.encode(
        check(data, "rfc2732_encode"),
        _safe_set(RFC2732, safe, _MUST_2732, "RFC 2732 §3", allow_unsafe),
        encoding=str_arg(encoding, "encoding", "rfc2732_encode"),
    )


def rfc_decode(data: Text, *, encoding: str = "utf-8", strict: bool = False) -> str:
    """Undo RFC 1738/2396/2732/3875 escapes: every ``%XX`` becomes its octet
    (RFC 2396 §2.4.1); ``+`` stays ``+``.  A bad ``%`` is kept unless ``strict``.

    >>> rfc_decode("caf%C3%A9+x")
    'café+x'
    """
    return _core.decode_text(
        check(data, "rfc_decode"),
        encoding=str_arg(encoding, "encoding", "rfc_decode"),
        strict=strict,
    )
