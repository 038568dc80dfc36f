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
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from types import MappingProxyType
from typing import NamedTuple

from . import _args
from . import core as _core
from ._abnf import BAD_PERCENT as _BAD_PERCENT
from ._abnf import HEXDIG as _HEX
from ._abnf import IP_LITERAL_BODY as _IP_LITERAL_BODY
from ._abnf import LONE_SURROGATE as _LONE_SURROGATE
from ._abnf import PCT_ENCODED as _PCT_RE
from ._abnf import SCHEME as _SCHEME
from ._abnf import SUB_DELIMS as _SUB_DELIMS
from ._abnf import UNRESERVED as _UNRESERVED
from ._scheme import Scheme, from_encode_set
from .errors import (
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    UnknownSetError,
)
from .sets import (
    RFC3986_FRAGMENT,
    RFC3986_PATH,
    RFC3986_PATH_SEGMENT,
    RFC3986_QUERY,
    RFC3986_REG_NAME,
    RFC3986_UNRESERVED,
    RFC3986_USERINFO,
    EncodeSet,
)

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


def _need_str(value: object, func: str, what: str = "uri") -> str:
    if isinstance(value, str):
        return value
    raise PercentEncodingTypeError(f"{func}() takes a str {what}, not {type(value).__name__}")


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
_SPLIT = re.compile(
    r"(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?(?P<path>[^?#]*)"
    r"(?:\?(?P<query>[^#]*))?(?:#(?P<fragment>.*))?",
    re.DOTALL,
)
# The same expression without the scheme, for a string whose would-be scheme
# is not one (§3.1), so that requote() treats it as a relative reference.
_SPLIT_RELATIVE = re.compile(
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
    m = _SPLIT.fullmatch(_need_str(uri, "split"))
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
    a = _need_str(authority, "split_authority", "authority")
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


def _join_authority(userinfo: str | None, host: str, port: str | None) -> str:
    a = host if userinfo is None else userinfo + "@" + host
    return a if port is None else a + ":" + port


# ---------------------------------------------------------------------------
# §5.2.4
# ---------------------------------------------------------------------------
def remove_dot_segments(path: str) -> str:
    """Remove ``.`` and ``..`` segments from a path (RFC 3986 §5.2.4).

    The result is the one the section's input/output-buffer algorithm gives,
    computed in one left-to-right pass (linear time).

    >>> remove_dot_segments("/a/b/c/./../../g")
    '/a/g'
    >>> remove_dot_segments("mid/content=5/../6")
    'mid/6'
    """
    p = _need_str(path, "remove_dot_segments", "path")
    if "." not in p:
        return p
    # Each output piece is one step-2E move: "/seg", or "seg" for a first
    # segment without a slash, so "remove the last segment and its
    # preceding '/'" (2C) is one pop.
    out: list[str] = []
    i, n = 0, len(p)
    while i < n:
        if p.startswith("../", i):  # 2A
            i += 3
        elif p.startswith("./", i):  # 2A
            i += 2
        elif p.startswith("/./", i):  # 2B: "/./" -> "/"
            i += 2
        elif i + 2 == n and p.startswith("/.", i):  # 2B: "/." at the end -> "/"
            out.append("/")
            break
        elif p.startswith("/../", i):  # 2C
            i += 3
            if out:
                out.pop()
        elif i + 3 == n and p.startswith("/..", i):  # 2C at the end
            if out:
                out.pop()
            out.append("/")
            break
        elif (i + 1 == n and p[i] == ".") or (i + 2 == n and p.startswith("..", i)):  # 2D
            break
        else:  # 2E
            j = p.find("/", i + 1)
            if j == -1:
                j = n
            out.append(p[i:j])
            i = j
    return "".join(out)


# ---------------------------------------------------------------------------
# §6.2.2 normalization
# ---------------------------------------------------------------------------
# Every %xx spelling -> its §6.2.2 normal form: the character for unreserved
# octets (§6.2.2.2), the triplet with upper-case hex otherwise (§6.2.2.1).
_PCT_NORMAL: dict[str, str] = {}
for _a in _HEX:
    for _b in _HEX:
        _c = chr(int(_a + _b, 16))
        _PCT_NORMAL["%" + _a + _b] = _c if _c in _UNRESERVED else "%" + (_a + _b).upper()
del _a, _b, _c


_HEX_DIGITS = frozenset(_HEX)


def _after_stray_percent(s: str, i: int) -> bool:
    """Whether the escape at ``s[i]`` directly follows a stray ``%`` or ``%X``.

    Such a ``%`` starts no valid escape, so it stands for itself (§2.4: it
    should have been ``%25``).  Decoding the escape at ``i`` to a hex digit
    would complete it into a new escape, a different octet: ``%1%41`` (the
    characters ``%1A``) would become ``%1A`` (the octet 0x1A).  ``s[i-1]`` and
    ``s[i-2]`` are literal characters here: an escape ends in a hex digit.
    """
    return (i >= 1 and s[i - 1] == "%") or (
        i >= 2 and s[i - 2] == "%" and s[i - 1] in _HEX_DIGITS
    )


def _pct_normal(m: re.Match[str]) -> str:
    t = _PCT_NORMAL[m.group()]
    if len(t) == 1 and t in _HEX_DIGITS and _after_stray_percent(m.string, m.start()):
        return m.group().upper()  # decoding would fuse with the stray "%": keep it encoded
    return t


def normalize_percent_encoding(component: str) -> str:
    """Normalize only the percent-encoding of ``component`` (RFC 3986 §6.2.2.1–2).

    ``%XX`` for an unreserved character (``A-Za-z0-9-._~``) is decoded; every
    other ``%XX`` gets upper-case hex.  Reserved characters stay encoded
    (§2.2: decoding them changes the URI), and a ``%`` that starts no valid
    escape is left alone.  Such a stray ``%`` is never completed by a decoded
    character: an escape of a hex digit right after ``%`` or ``%X`` stays
    encoded, so the result always percent-decodes to the same octets as the
    input (``%1%41`` means the characters ``%1A``, not the octet 0x1A).

    >>> normalize_percent_encoding("%7euser/%2f%c3%a9")
    '~user/%2F%C3%A9'
    >>> normalize_percent_encoding("%1%41%42")
    '%1%41B'
    """
    c = _need_str(component, "normalize_percent_encoding", "component")
    if "%" not in c:
        return c
    return _PCT_RE.sub(_pct_normal, c)


# Lower-case ASCII letters outside %XX triplets (§6.2.2.1: host is
# case-insensitive, but percent-encodings use upper-case hex).
_HOST_CASE_RE = re.compile(r"%[0-9A-F]{2}|[A-Z]+")


def _host_case(m: re.Match[str]) -> str:
    t = m.group()
    return t if t[0] == "%" else t.lower()


def _normalize_host(host: str) -> str:
    if host.startswith("[") and "%25" in host:
        # RFC 6874 §2: the ZoneID after "%25" names an interface, and its case
        # is the operating system's business; only the address is case-folded.
        cut = host.index("%25")
        return _normalize_host(host[:cut]) + normalize_percent_encoding(host[cut:])
    host = normalize_percent_encoding(host)
    if host.isascii() and "%" not in host:
        return host.lower()
    return _HOST_CASE_RE.sub(_host_case, host)


# RFC 3986 §6.2.3 and each scheme's own spec: the default port (RFC 9110
# §4.2.1-2, RFC 1738 §3.2, RFC 6455 §3).
_DEFAULT_PORTS = {"http": "80", "https": "443", "ftp": "21", "ws": "80", "wss": "443"}


def normalize(uri: str, *, scheme_based: bool = False) -> str:
    """Syntax-based normalization of a URI reference (RFC 3986 §6.2.2).

    * scheme and host lower-cased (§6.2.2.1; ASCII letters only, and never
      the hex digits of ``%XX``, which become upper case);
    * ``%XX`` of unreserved characters decoded, other hex upper-cased
      (§6.2.2.2) in every component; userinfo, path, query and fragment keep
      their letter case;
    * dot segments removed (§6.2.2.3, via §5.2.4) from paths that begin with
      ``/`` — the hierarchical ones.  A rootless path (``urn:a:b``,
      ``mailto:x``) or a relative-path reference (``../x``, whose dots mean
      something until it is resolved, §6.1) is left as it is.  If removing
      dots leaves a path starting with ``//`` and there is no authority,
      ``/.`` is put in front so the path does not turn into an authority.

    * an IPv6 zone ID (``[fe80::1%25en0]``, RFC 6874) keeps its letter case:
      it names an interface, it is not part of the case-insensitive address.
    * an empty port (``http://a:/``) keeps its ``:`` (§6.2.3: delimiters of
      empty components stay unless the scheme allows otherwise).

    Scheme-based normalization (§6.2.3) is done only with
    ``scheme_based=True``, and only for the schemes whose specs define it
    here: http, https, ws, wss and ftp lose an empty port or their default
    port (80, 443, 80, 443, 21), and an empty path with an authority becomes
    ``/``.  Other schemes are left as syntax-based normalization leaves them.
    The URI is not validated: a ``%`` that starts no valid
    escape is kept as it is, and the escape of a hex digit right after it
    is not decoded (see :func:`normalize_percent_encoding`), so a stray
    ``%`` never turns into a different escape.

    >>> normalize("eXAMPLE://a/./b/../b/%63/%7bfoo%7d")
    'example://a/b/c/%7Bfoo%7D'
    >>> normalize("HTTP://User@www.EXAMPLE.com:80/%7Euser/a/../b")
    'http://User@www.example.com:80/~user/b'
    >>> normalize("HTTP://www.EXAMPLE.com:80", scheme_based=True)
    'http://www.example.com/'
    """
    scheme, authority, path, query, fragment = split(_need_str(uri, "normalize"))
    _args.check_bool("scheme_based", scheme_based)
    if scheme is not None:
        scheme = scheme.lower() if scheme.isascii() else _HOST_CASE_RE.sub(_host_case, scheme)
    if authority is not None:
        userinfo, host, port = split_authority(authority)
        if userinfo is not None:
            userinfo = normalize_percent_encoding(userinfo)
        if scheme_based and scheme in _DEFAULT_PORTS and port in ("", _DEFAULT_PORTS[scheme]):
            port = None  # §6.2.3: "http://example.com:/" and ":80" are "http://example.com/"
        authority = _join_authority(userinfo, _normalize_host(host), port)
        if scheme_based and scheme in _DEFAULT_PORTS and path == "":
            path = "/"  # §6.2.3: an empty path with an authority is "/" for http(s)
    path = normalize_percent_encoding(path)
    if path.startswith("/"):
        path = remove_dot_segments(path)
        if authority is None and path.startswith("//"):
            path = "/." + path
    if query is not None:
        query = normalize_percent_encoding(query)
    if fragment is not None:
        fragment = normalize_percent_encoding(fragment)
    return recompose((scheme, authority, path, query, fragment))


def equivalent(a: str, b: str) -> bool:
    """Whether two URI references are equivalent after :func:`normalize` (RFC 3986 §6.2.2).

    A reserved character and its escape are never equivalent (§2.2).  Like
    §6.1 asks, a false negative is preferred to a false positive: a string
    with a stray ``%`` (not a URI, §2.4) is only equivalent to strings that
    normalize to the very same text, so ``http://a/%1%41`` (the characters
    ``%1A``) is not equivalent to ``http://a/%1A`` (the octet 0x1A), nor to
    ``http://a/%251A``.

    >>> equivalent("http://a/%7Euser", "HTTP://A/~user")
    True
    >>> equivalent("http://a/a%2Fb", "http://a/a/b")
    False
    """
    _need_str(a, "equivalent")
    _need_str(b, "equivalent")
    return a == b or normalize(a) == normalize(b)


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


# ---------------------------------------------------------------------------
# §5 reference resolution
# ---------------------------------------------------------------------------


def _merge(base: Components, ref_path: str) -> str:
    # §5.2.3: an authority with an empty path merges onto "/".
    if base.authority is not None and base.path == "":
        return "/" + ref_path
    return base.path[: base.path.rfind("/") + 1] + ref_path


def resolve(base: str, reference: str) -> str:
    """Resolve ``reference`` against the absolute URI ``base`` (RFC 3986 §5.2).

    The strict parser of §5.2.2 (a reference with the base's scheme is not
    treated as relative), §5.2.3 merging, §5.2.4 dot segments and §5.3
    recomposition; nothing is percent-encoded or normalized otherwise.  For
    what a browser does with the same strings use :func:`percent_encoding.url.parse`.

    >>> resolve("http://a/b/c/d;p?q", "../g?y#s")
    'http://a/b/g?y#s'
    >>> resolve("http://a/b/c/d;p?q", "g;x=1/../y")
    'http://a/b/c/y'
    """
    b = split(_need_str(base, "resolve", "base"))
    r = split(_need_str(reference, "resolve", "reference"))
    if b.scheme is None:
        raise PercentEncodingError(
            f"resolve() needs an absolute base URI with a scheme (RFC 3986 §5.1), not {base!r}"
        )
    if r.scheme is not None:
        t = Components(r.scheme, r.authority, remove_dot_segments(r.path), r.query, r.fragment)
    elif r.authority is not None:
        t = Components(b.scheme, r.authority, remove_dot_segments(r.path), r.query, r.fragment)
    elif r.path == "":
        t = Components(b.scheme, b.authority, b.path,
                       r.query if r.query is not None else b.query, r.fragment)
    elif r.path.startswith("/"):
        t = Components(b.scheme, b.authority, remove_dot_segments(r.path), r.query, r.fragment)
    else:
        t = Components(b.scheme, b.authority, remove_dot_segments(_merge(b, r.path)),
                       r.query, r.fragment)
    return recompose(t)
