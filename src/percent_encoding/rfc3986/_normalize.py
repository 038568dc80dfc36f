"""Syntax-based normalization and comparison of URI references (RFC 3986 §6.2.2,
with the scheme-based §6.2.3 on request): :func:`normalize_percent_encoding`,
:func:`normalize` and :func:`equivalent`.

Private: the public names are re-exported from :mod:`.rfc3986`.
"""

from __future__ import annotations

import re

from .. import _args
from .._abnf import HEXDIG as _HEX
from .._abnf import PCT_ENCODED as _PCT_RE
from .._abnf import UNRESERVED as _UNRESERVED
from ._components import join_authority, need_str, recompose, split, split_authority
from ._resolve import remove_dot_segments

__all__ = ["equivalent", "normalize", "normalize_percent_encoding"]


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
    c = need_str(component, "normalize_percent_encoding", "component")
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
    scheme, authority, path, query, fragment = split(need_str(uri, "normalize"))
    _args.check_bool("scheme_based", scheme_based)
    if scheme is not None:
        scheme = scheme.lower() if scheme.isascii() else _HOST_CASE_RE.sub(_host_case, scheme)
    if authority is not None:
        userinfo, host, port = split_authority(authority)
        if userinfo is not None:
            userinfo = normalize_percent_encoding(userinfo)
        if scheme_based and scheme in _DEFAULT_PORTS and port in ("", _DEFAULT_PORTS[scheme]):
            port = None  # §6.2.3: "http://example.com:/" and ":80" are "http://example.com/"
        authority = join_authority(userinfo, _normalize_host(host), port)
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
    need_str(a, "equivalent")
    need_str(b, "equivalent")
    return a == b or normalize(a) == normalize(b)
