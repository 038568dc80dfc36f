"""RFC 3986 (URI Generic Syntax): per-component encoding, splitting,
normalization, comparison, and requoting of half-encoded URIs.

Strategy: everything here works on the five generic components that
Appendix B's regular expression finds (scheme, authority, path, query,
fragment), so a character is always judged by the rule of the component it
sits in (§3).  Encoding goes through :func:`percent_encoding.core.encode`
with the ``rfc3986-*`` encode sets of :mod:`percent_encoding.sets`.

* :func:`encode` — percent-encode data for one component (§2.1, §3.2.1–§3.5).
* :func:`split` / :func:`recompose` — Appendix B and §5.3; undefined
  components are ``None``, empty ones ``""``.
* :func:`remove_dot_segments` — §5.2.4, linear time.
* :func:`normalize_percent_encoding` — §6.2.2.1 hex case + §6.2.2.2.
* :func:`normalize` / :func:`equivalent` — §6.2.2 syntax-based normalization.
* :func:`requote` — turn a typed or half-encoded string into a URI reference
  without double-encoding; idempotent.

Nothing here validates a URI: the functions accept any ``str`` (Appendix B
splits every string) and raise :class:`PercentEncodingTypeError` for other
types and :class:`PercentEncodeError` (with the index into the input) for a
lone surrogate that would have to be UTF-8 encoded.

Layout: the components (Appendix B, §3.2, §5.3) live in
:mod:`._components`, reference resolution (§5.2) in :mod:`._resolve`
and normalization (§6.2.2) in :mod:`._normalize`; this module holds
:func:`encode`, :func:`requote` and the schemes, and re-exports the rest.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType

from .. import _args
from .. import core as _core
from .._abnf import BAD_PERCENT as _BAD_PERCENT
from .._abnf import IP_LITERAL_BODY as _IP_LITERAL_BODY
from .._abnf import LONE_SURROGATE as _LONE_SURROGATE
from .._abnf import SCHEME as _SCHEME
from .._abnf import SUB_DELIMS as _SUB_DELIMS
from .._abnf import UNRESERVED as _UNRESERVED
from .._scheme import Scheme, from_encode_set
from ..errors import PercentEncodeError, UnknownSetError
from ..sets import (
    RFC3986_FRAGMENT,
    RFC3986_PATH,
    RFC3986_PATH_SEGMENT,
    RFC3986_QUERY,
    RFC3986_REG_NAME,
    RFC3986_UNRESERVED,
    RFC3986_USERINFO,
    EncodeSet,
)
from ._components import (
    SPLIT as _SPLIT,
)
from ._components import (
    SPLIT_RELATIVE as _SPLIT_RELATIVE,
)
from ._components import (
    Components,
    recompose,
    split,
    split_authority,
)
from ._components import (
    join_authority as _join_authority,
)
from ._components import (
    need_str as _need_str,
)
from ._normalize import equivalent, normalize, normalize_percent_encoding
from ._resolve import remove_dot_segments, resolve

__all__ = [
    "COMPONENTS",
    "SCHEMES",
    "Components",
    "encode",
    "equivalent",
    "normalize",
    "normalize_percent_encoding",
    "recompose",
    "remove_dot_segments",
    "requote",
    "resolve",
    "split",
    "split_authority",
]


#: component name -> the encode set whose complement is what the ABNF allows.
COMPONENTS: Mapping[str, EncodeSet] = MappingProxyType(
    {
        "path-segment": RFC3986_PATH_SEGMENT,  # §3.3 segment = *pchar
        "path": RFC3986_PATH,  # §3.3 path-abempty: segments and "/"
        "query": RFC3986_QUERY,  # §3.4
        "fragment": RFC3986_FRAGMENT,  # §3.5
        "userinfo": RFC3986_USERINFO,  # §3.2.1
        "host": RFC3986_REG_NAME,  # §3.2.2 reg-name
        "reg-name": RFC3986_REG_NAME,
        "unreserved": RFC3986_UNRESERVED,  # §2.3: everything else is encoded
    }
)


@_args.renamed_keyword("text", "data")
def encode(data: str | bytes, component: str = "path-segment") -> str:
    """Percent-encode ``data`` for one URI component (RFC 3986 §2.1, §3).

    Everything the component's ABNF does not allow literally is written as
    UTF-8 ``%XX`` (upper-case hex, §2.1); ``%`` itself is always encoded, so
    the result decodes back to ``data``.  ``component`` is one of
    ``"path-segment"`` (the default: ``/`` is encoded), ``"path"``,
    ``"query"``, ``"fragment"``, ``"userinfo"``, ``"host"`` (reg-name; alias
    ``"reg-name"``) or ``"unreserved"`` (everything but ``A-Za-z0-9-._~``).

    >>> encode("a b/c:d@e")
    'a%20b%2Fc:d@e'
    >>> encode("a=1&b=?/", "query")
    'a=1&b=?/'
    >>> encode("50%", "unreserved")
    '50%25'
    """
    _args.check_str("component", component)
    s = COMPONENTS.get(component)
    if s is None:
        raise UnknownSetError(
            f"unknown RFC 3986 component {component!r}; expected one of "
            + ", ".join(map(repr, COMPONENTS))
        )
    return _core.encode(data, s)


# ---------------------------------------------------------------------------
# requote
# ---------------------------------------------------------------------------

# What each component keeps literally when requoting: the ABNF's characters
# plus "%" (every "%" left at that point starts a valid escape).
_RQ_USERINFO = RFC3986_USERINFO.remove("%")
_RQ_REG_NAME = RFC3986_REG_NAME.remove("%")
# IP-literal = "[" ( IPv6address / IPvFuture ) "]": hex, ":", "." and, for
# IPvFuture, unreserved / sub-delims / ":"; "%" for RFC 6874 zone ids.
_RQ_IP_LITERAL = EncodeSet.from_allowed(_UNRESERVED + _SUB_DELIMS + ":%")
_RQ_PATH = RFC3986_PATH.remove("%")
_RQ_QUERY = RFC3986_QUERY.remove("%")  # query and fragment have the same rule


def _rq(text: str, s: EncodeSet) -> str:
    if "%" in text:
        text = _BAD_PERCENT.sub("%25", text)
    return _core.encode(text, s)


_PORT = re.compile("[0-9]*")


def _rq_authority(authority: str) -> str:
    userinfo, host, port = split_authority(authority)
    if userinfo is not None:
        userinfo = _rq(userinfo, _RQ_USERINFO)
    if port is not None and _PORT.fullmatch(port) is None:
        # port = *DIGIT (§3.2.3): anything else after the last ":" is host
        # data, so the ":" gets encoded with it.
        host, port = host + ":" + port, None
    if host.startswith("[") and host.endswith("]"):
        body = _rq(host[1:-1], _RQ_IP_LITERAL)
        if _IP_LITERAL_BODY.fullmatch(body) is not None:
            return _join_authority(userinfo, "[" + body + "]", port)
    # Not an IP-literal: a reg-name, in which "[", "]" and ":" are data.
    return _join_authority(userinfo, _rq(host, _RQ_REG_NAME), port)


def requote(uri: str) -> str:
    """Make a URI reference from a typed or half-encoded string, without double-encoding.

    The string is split into its components (Appendix B) and, in each,
    only what that component's ABNF does not allow is percent-encoded
    (UTF-8, upper-case hex):

    * a valid ``%XX`` is kept exactly as written (its hex case too);
    * a ``%`` that starts no valid escape becomes ``%25``;
    * non-ASCII characters become UTF-8 escapes;
    * ``[``/``]`` are kept only around an IP-literal host; a second ``#``
      goes into the fragment as ``%23``; in the authority, an ``@`` before
      the last one is userinfo data (``%40``);
    * a would-be scheme that is not one (§3.1, e.g. ``"a b:c"``) makes the
      string a relative reference, and a relative path whose first segment
      holds a ``:`` gets ``./`` in front (§4.2);
    * a port that is not all digits is host data (``host%3Aport``), and
      ``[...]`` that is not an IP-literal (IPv6, IPvFuture, or IPv6 with an
      RFC 6874 zone) is a reg-name with ``%5B``/``%5D``.

    The result always matches RFC 3986's ``URI-reference`` rule.

    Leading and trailing whitespace is data too (browsers strip it from what
    is typed in the address bar; call ``s.strip()`` first if you want that).
    Nothing is decoded and nothing is lower-cased, so a string that already
    is a valid URI reference comes back unchanged, and
    ``requote(requote(s)) == requote(s)`` for every ``s``.

    >>> requote("http://example.com/a b/ü?q=1 2&r=%zz#frag#ment")
    'http://example.com/a%20b/%C3%BC?q=1%202&r=%25zz#frag%23ment'
    >>> requote("http://example.com/a%20b/%c3%bc")
    'http://example.com/a%20b/%c3%bc'
    >>> requote("http://[fe80::1%eth0]:8080/")
    'http://[fe80::1%25eth0]:8080/'
    """
    u = _need_str(uri, "requote")
    if not u.isascii():
        m = _LONE_SURROGATE.search(u)
        if m is not None:
            raise PercentEncodeError(
                f"lone surrogate U+{ord(u[m.start()]):04X} at position {m.start()} "
                "cannot be UTF-8 encoded",
                m.start(),
            )
    m = _SPLIT.fullmatch(u)
    assert m is not None
    scheme = m["scheme"]
    if scheme is not None and _SCHEME.fullmatch(scheme) is None:
        scheme = None
        m = _SPLIT_RELATIVE.fullmatch(u)
        assert m is not None
    authority: str | None = m["authority"]
    query: str | None = m["query"]
    fragment: str | None = m["fragment"]
    if authority is not None:
        authority = _rq_authority(authority)
    path = _rq(m["path"], _RQ_PATH)
    if scheme is None and authority is None and ":" in path.partition("/")[0]:
        # §4.2: a relative-path reference whose first segment has a ":"
        # would read as a scheme; a "./" in front keeps it a path.
        path = "./" + path
    if query is not None:
        query = _rq(query, _RQ_QUERY)
    if fragment is not None:
        fragment = _rq(fragment, _RQ_QUERY)
    out = recompose((scheme, authority, path, query, fragment))
    return u if out == u else out


# ---------------------------------------------------------------------------
# Registry
# ---------------------------------------------------------------------------
def _make_schemes() -> tuple[Scheme, ...]:
    def make(name: str, s: EncodeSet, spec: str, notes: str) -> Scheme:
        return from_encode_set(s, name=name, spec=spec, notes=notes, family="RFC 3986")

    base = "UTF-8, then every octet the component does not allow as %XX (upper-case hex)"
    return (
        make(
            "rfc3986-path-segment",
            RFC3986_PATH_SEGMENT,
            "RFC 3986 §3.3 segment",
            base + "; '/' is encoded, pchar (unreserved, sub-delims, ':', '@') kept",
        ),
        make(
            "rfc3986-path",
            RFC3986_PATH,
            "RFC 3986 §3.3 path-abempty",
            base + "; pchar and '/' kept",
        ),
        make(
            "rfc3986-query",
            RFC3986_QUERY,
            "RFC 3986 §3.4 query",
            base + "; pchar, '/' and '?' kept; space is %20, not +",
        ),
        make(
            "rfc3986-fragment",
            RFC3986_FRAGMENT,
            "RFC 3986 §3.5 fragment",
            base + "; pchar, '/' and '?' kept",
        ),
        make(
            "rfc3986-userinfo",
            RFC3986_USERINFO,
            "RFC 3986 §3.2.1 userinfo",
            base + "; unreserved, sub-delims and ':' kept ('@' encoded)",
        ),
        make(
            "rfc3986-host",
            RFC3986_REG_NAME,
            "RFC 3986 §3.2.2 reg-name",
            base + "; unreserved and sub-delims kept; for registered names, not IP literals",
        ),
        make(
            "rfc3986-unreserved",
            RFC3986_UNRESERVED,
            "RFC 3986 §2.3 unreserved",
            "everything but A-Z a-z 0-9 - . _ ~ as UTF-8 %XX (upper-case hex)",
        ),
    )


SCHEMES: tuple[Scheme, ...] = _make_schemes()
