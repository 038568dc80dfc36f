"""Go's ``net/url``: ``QueryEscape``, ``PathEscape``, ``QueryUnescape``,
``PathUnescape``.

Strategy: the encode sets follow ``shouldEscape`` for each mode; the
unescapers raise :class:`PercentDecodeError` at the first malformed ``%``,
as Go returns an ``EscapeError``.

Source: Go ``src/net/url/url.go``.
"""

from __future__ import annotations

from typing import Final

from .. import core as _core
from .._abnf import ALNUM as _ALNUM
from ..errors import (
    PercentDecodeError,
)
from ..sets import (
    RFC3986_UNRESERVED,
    EncodeSet,
)
from ._common import Text, check, first_bad_percent, to_text

# shouldEscape: alphanumerics and "-_.~" never; for encodeQueryComponent every
# reserved character is escaped; for encodePathSegment "/;,?" are escaped and
# "$&+:=@" are kept; everything else is escaped.
GO_QUERY_SET: Final = RFC3986_UNRESERVED.named(
    "go-QueryEscape", "Go net/url shouldEscape(c, encodeQueryComponent)"
)
GO_PATH_SET: Final = EncodeSet.from_allowed(
    _ALNUM + "-_.~$&+:=@",
    name="go-PathEscape",
    spec="Go net/url shouldEscape(c, encodePathSegment)",
)


def go_query_escape(data: Text) -> str:
    """Go's ``url.QueryEscape``: unreserved stays, space is ``+``, every other
    byte (all reserved characters too) is ``%XX``.

    >>> go_query_escape("a b/c~")
    'a+b%2Fc~'
    """
    return _core.encode(check(data, "go_query_escape"), GO_QUERY_SET, space_as_plus=True)


def go_path_escape(data: Text) -> str:
    """Go's ``url.PathEscape``: for one path segment; ``/``, ``;``, ``,``, ``?``
    and everything not unreserved or ``$&+:=@`` is ``%XX`` (space is ``%20``).

    >>> go_path_escape("a b/c:d@e")
    'a%20b%2Fc:d@e'
    """
    return _core.encode(check(data, "go_path_escape"), GO_PATH_SET)


def _go_unescape(data: Text, plus: bool, func: str) -> str:
    d = check(data, func)
    pos = first_bad_percent(d)
    if pos is not None:
        bad = d[pos : pos + 3]
        raise PercentDecodeError(f"invalid URL escape {bad!r} at position {pos}", pos)
    return to_text(_core.decode(d, plus_as_space=plus))


def go_query_unescape(data: Text) -> str:
    """Go's ``url.QueryUnescape``: ``+`` is space, ``%XX`` its byte; a ``%`` not
    followed by two hex digits is an error (Go's ``EscapeError``), raised here
    as :class:`PercentDecodeError`.

    >>> go_query_unescape("a+b%2Fc")
    'a b/c'
    """
    return _go_unescape(data, True, "go_query_unescape")


def go_path_unescape(data: Text) -> str:
    """Go's ``url.PathUnescape``: as :func:`go_query_unescape`, but ``+`` stays.

    >>> go_path_unescape("a+b%20c")
    'a+b c'
    """
    return _go_unescape(data, False, "go_path_unescape")
