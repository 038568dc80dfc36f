"""The five generic components of a URI reference (RFC 3986 §3): splitting a
reference with Appendix B's regular expression, splitting an authority
(§3.2) and putting components back together (§5.3).

Private, the layer the rest of the RFC 3986 code stands on; the public names
(:class:`Components`, :func:`split`, :func:`recompose`, :func:`split_authority`)
are re-exported from :mod:`.rfc3986`.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import PercentEncodingError, PercentEncodingTypeError

__all__ = ["Components", "recompose", "split", "split_authority"]


def need_str(value: object, func: str, what: str = "uri") -> str:
    if isinstance(value, str):
        return value
    raise PercentEncodingTypeError(f"{func}() takes a str {what}, not {type(value).__name__}")


# ---------------------------------------------------------------------------
# Appendix B / §5.3
# ---------------------------------------------------------------------------
class Components(NamedTuple):
    """The five generic components of a URI reference (RFC 3986 §3, Appendix B).

    A component that is absent (its delimiter does not occur) is ``None``; a
    present but empty one is ``""`` — §5.3 keeps the two apart.
    """

    scheme: str | None
    authority: str | None
    path: str
    query: str | None
    fragment: str | None

    def recompose(self) -> str:
        """The URI reference these components make (§5.3)."""
        return recompose(self)


# Appendix B, written with the groups we use named.
SPLIT = re.compile(
    r"(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?(?P<path>[^?#]*)"
    r"(?:\?(?P<query>[^#]*))?(?:#(?P<fragment>.*))?",
    re.DOTALL,
)
# The same expression without the scheme, for a string whose would-be scheme
# is not one (§3.1), so that requote() treats it as a relative reference.
SPLIT_RELATIVE = re.compile(
    r"(?://(?P<authority>[^/?#]*))?(?P<path>[^?#]*)"
    r"(?:\?(?P<query>[^#]*))?(?:#(?P<fragment>.*))?",
    re.DOTALL,
)


def split(uri: str) -> Components:
    """Split a URI reference into its five components (RFC 3986 Appendix B).

    Like the appendix's regular expression, this never fails and does not
    validate: every string splits.

    >>> tuple(split("foo://example.com:8042/over/there?name=ferret#nose"))
    ('foo', 'example.com:8042', '/over/there', 'name=ferret', 'nose')
    >>> split("urn:example:animal:ferret:nose").path
    'example:animal:ferret:nose'
    """
    m = SPLIT.fullmatch(need_str(uri, "split"))
    assert m is not None  # every group is optional: the expression matches any string
    return Components(m["scheme"], m["authority"], m["path"], m["query"], m["fragment"])


_Parts = tuple[str | None, str | None, str, str | None, str | None]
_FIELDS = Components._fields


def recompose(parts: Components | _Parts) -> str:
    """Join five components back into a URI reference (RFC 3986 §5.3).

    ``parts`` is a :class:`Components` or any tuple (or list) of five; the
    path must be a ``str``, the others a ``str`` or ``None``.  Anything else
    raises :class:`PercentEncodingTypeError` (a wrong count:
    :class:`PercentEncodingError`).

    >>> recompose(("http", "a", "/b", "", None))
    'http://a/b?'
    """
    if not isinstance(parts, (tuple, list)):
        raise PercentEncodingTypeError(
            f"recompose() takes a Components or a 5-tuple, not {type(parts).__name__}"
        )
    if len(parts) != 5:
        raise PercentEncodingError(
            "recompose() takes five components (scheme, authority, path, query, "
            f"fragment), not {len(parts)}"
        )
    scheme, authority, path, query, fragment = parts
    for name, value in zip(_FIELDS, parts, strict=True):
        if not (isinstance(value, str) or (value is None and name != "path")):
            expected = "a str" if name == "path" else "a str or None"
            raise PercentEncodingTypeError(
                f"recompose(): {name} must be {expected}, not {type(value).__name__}"
            )
    out = []
    if scheme is not None:
        out.append(scheme + ":")
    if authority is not None:
        out.append("//" + authority)
    out.append(path)
    if query is not None:
        out.append("?" + query)
    if fragment is not None:
        out.append("#" + fragment)
    return "".join(out)


def split_authority(authority: str) -> tuple[str | None, str, str | None]:
    """Split an authority into ``(userinfo, host, port)`` (RFC 3986 §3.2).

    ``userinfo`` and ``port`` are ``None`` when their delimiter is absent.
    The userinfo ends at the *last* ``@`` (a literal ``@`` is not allowed in
    userinfo, so in a valid authority there is only one).  A host starting
    with ``[`` is an IP-literal up to the first ``]`` when only ``:port``
    (or nothing) follows it; otherwise the port is what follows the last
    ``:``.

    >>> split_authority("user:pw@[::1]:8080")
    ('user:pw', '[::1]', '8080')
    >>> split_authority("example.com")
    (None, 'example.com', None)
    """
    userinfo: str | None
    a = need_str(authority, "split_authority", "authority")
    userinfo, at, hostport = a.rpartition("@")
    if not at:
        userinfo = None
    if hostport.startswith("["):
        end = hostport.find("]")
        if end != -1:
            rest = hostport[end + 1 :]
            if not rest:
                return userinfo, hostport, None
            if rest.startswith(":") and ":" not in rest[1:]:
                return userinfo, hostport[: end + 1], rest[1:]
    host, colon, port = hostport.rpartition(":")
    if not colon:
        return userinfo, hostport, None
    return userinfo, host, port


def join_authority(userinfo: str | None, host: str, port: str | None) -> str:
    a = host if userinfo is None else userinfo + "@" + host
    return a if port is None else a + ":" + port
