"""Percent-encode sets: which code points a percent-encoding leaves alone.

Strategy: an :class:`EncodeSet` is data, not code (the rust-url model).  It is a
128-bit mask of the ASCII code points it encodes plus one flag saying whether
every non-ASCII code point is encoded too (all WHATWG and RFC sets do; IRI-style
sets keep non-ASCII as is).  Sets are immutable and hashable, so they can be
module constants, dict keys and ``functools.cache`` arguments.

Every named set is a module constant with the spec it comes from, and is
registered under a name (``get("component")``) so strings can select it.
:func:`compare` draws a comparison table: the 128 ASCII code points against
any number of sets.

Sources:
  WHATWG URL Standard §1.3 "Percent-encoded bytes" (current sets; ``^`` joined the
  path set in 2025) and its 2014–2016 editions (simple/default/userinfo sets);
  RFC 3986 §2 and Appendix A; RFC 2396 §2; RFC 2732 §3; RFC 1738 §2.2;
  ECMA-262 §19.2.6 and Annex B.2.1.1; RFC 5849 §3.6; RFC 7838 §3; RFC 8187 §3.2.1;
  RFC 3875 §2.3; HTML 4.01 §17.13.4.1; XForms 1.0 §11.6.

Layout: the :class:`EncodeSet` type itself lives in :mod:`._encode_set`; this
module holds the registry and the named sets, and re-exports it.
"""

from __future__ import annotations

from typing import Any, Final

from . import _args
from ._abnf import ALNUM as _ALNUM
from ._abnf import SUB_DELIMS as _SUB_DELIMS
from ._abnf import UNRESERVED as _UNRESERVED
from ._encode_set import REGISTRY, EncodeSet
from ._encode_set import display as _display
from .errors import PercentEncodingError, PercentEncodingTypeError, UnknownSetError

__all__ = [
    "ALPN",
    "C0_CONTROL",
    "CGI",
    "COMPONENT",
    "ECMASCRIPT_ENCODE_URI",
    "ECMASCRIPT_ENCODE_URI_COMPONENT",
    "ECMASCRIPT_ESCAPE",
    "FORM_URLENCODED",
    "FRAGMENT",
    "HTML4_FORM",
    "OAUTH1",
    "PATH",
    "PATH_BEFORE_2025",
    "QUERY",
    "RFC1738",
    "RFC1738_RESERVED",
    "RFC1738_UNSAFE",
    "RFC2396",
    "RFC2396_DELIMS",
    "RFC2396_RESERVED",
    "RFC2396_UNWISE",
    "RFC2732_RESERVED",
    "RFC2732_UNWISE",
    "RFC3986_FRAGMENT",
    "RFC3986_GEN_DELIMS",
    "RFC3986_PATH",
    "RFC3986_PATH_SEGMENT",
    "RFC3986_QUERY",
    "RFC3986_REG_NAME",
    "RFC3986_RESERVED",
    "RFC3986_SUB_DELIMS",
    "RFC3986_UNRESERVED",
    "RFC3986_USERINFO",
    "RFC8187",
    "SPECIAL_QUERY",
    "USERINFO",
    "WHATWG_2016_DEFAULT",
    "WHATWG_2016_SIMPLE",
    "WHATWG_2016_USERINFO",
    "WHATWG_DEFAULT_2015_06_10",
    "WHATWG_DEFAULT_BEFORE_2015_06_10",
    "WHATWG_PASSWORD_BEFORE_2015_08_14",
    "WHATWG_QUERY_2015_06_10",
    "WHATWG_QUERY_BEFORE_2015_06_10",
    "WHATWG_SIMPLE_BEFORE_2017",
    "WHATWG_USERINFO_2015_08_14",
    "WHATWG_USERNAME_BEFORE_2015_08_14",
    "XFORMS_URLENCODED",
    "EncodeSet",
    "compare",
    "deprecated_names",
    "get",
    "names",
    "register",
    "resolve",
]


# ---------------------------------------------------------------------------
# The registry
# ---------------------------------------------------------------------------
_REGISTRY = REGISTRY  # name -> set; the C entries read it (see _kernels.make_entry)


def register(name: str, encode_set: EncodeSet, spec: str | None = None) -> EncodeSet:
    """Register ``encode_set`` under ``name`` and return the named copy."""
    if not isinstance(name, str) or not name:
        raise PercentEncodingTypeError("register() takes a non-empty str name")
    if not isinstance(encode_set, EncodeSet):
        raise PercentEncodingTypeError("register() takes an EncodeSet")
    _args.check_str("spec", spec, none=True)
    if name in _REGISTRY:
        raise PercentEncodingError(f"encode set {name!r} is already registered")
    named = encode_set.named(name, spec if spec is not None else encode_set.spec)
    _REGISTRY[name] = named
    return named


def resolve(set_or_name: EncodeSet | str) -> EncodeSet:
    """An encode set given as itself or by its registered name, as an :class:`EncodeSet`.

    What every function that takes ``encode_set=`` does with it (the URL Standard's
    sets by their names, §1.3; ``percent encode --set``): an :class:`EncodeSet` is
    returned as is, a name is looked up in the registry, and an unknown name raises
    :class:`UnknownSetError` with the closest names.

    >>> from percent_encoding import sets
    >>> sets.resolve("path") is sets.PATH, sets.resolve(sets.QUERY) is sets.QUERY
    (True, True)
    """
    if type(set_or_name) is str:
        s = _REGISTRY.get(set_or_name)
        if s is not None:
            return s
    return get(set_or_name)


def get(name: str | EncodeSet) -> EncodeSet:
    """The set registered under ``name`` (an :class:`EncodeSet` is returned as is).

    Raises :class:`UnknownSetError` (a ``KeyError``) for an unknown name.
    """
    if isinstance(name, EncodeSet):
        return name
    if not isinstance(name, str):
        raise PercentEncodingTypeError(
            f"an encode set is an EncodeSet or a registered name, got {type(name).__name__}"
        )
    try:
        return _REGISTRY[name]
    except KeyError:
        if name in _DEPRECATED:
            _args.warn_deprecated(
                f"encode set {name!r} is deprecated; use {_DEPRECATED[name]!r} (the same set, "
                "named by the date the URL Standard changed it)"
            )
            return _REGISTRY[_DEPRECATED[name]]
        close = [n for n in _REGISTRY if name.lower() in n.lower()][:5]
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise UnknownSetError(
            f"unknown encode set {name!r}{hint} (percent_encoding.sets.names() lists them)"
        ) from None


def deprecated_names() -> dict[str, str]:
    """Old set names that :func:`get` still accepts (with a DeprecationWarning),
    each mapped to its current name."""
    return dict(_DEPRECATED)


def names() -> list[str]:
    """Every registered set name, in registration order."""
    return list(_REGISTRY)


def compare(*sets_or_names: str | EncodeSet) -> dict[str, Any]:
    """Which of the 128 ASCII code points each set encodes, side by side.

    Returns plain data a CLI or web page can render::

        {"sets": [{"name", "spec", "non_ascii"}...],
         "rows": [{"code_point": 33, "char": "!", "encoded": [True, False, ...]}...]}

    With no arguments, every registered set is compared.
    """
    chosen = [get(s) for s in sets_or_names] if sets_or_names else [get(n) for n in _REGISTRY]
    rows = [
        {
            "code_point": cp,
            "char": _display(cp),
            "encoded": [bool(s.mask >> cp & 1) for s in chosen],
        }
        for cp in range(128)
    ]
    return {
        "sets": [
            {"name": s.name or repr(s), "spec": s.spec or "", "non_ascii": s.non_ascii}
            for s in chosen
        ],
        "rows": rows,
    }


# ---------------------------------------------------------------------------
# Named sets
# ---------------------------------------------------------------------------
_URL = "https://url.spec.whatwg.org/#"
_C0 = "".join(map(chr, range(0x20)))

# WHATWG URL Standard §1.3: each set below extends the one before it.
C0_CONTROL: Final = register(
    "c0-control",
    EncodeSet(_C0 + "\x7f"),  # C0 controls and everything above U+007E
    _URL + "c0-control-percent-encode-set",
)
FRAGMENT: Final = register(
    "fragment", C0_CONTROL | ' "<>`', _URL + "fragment-percent-encode-set"
)
QUERY: Final = register("query", C0_CONTROL | ' "#<>', _URL + "query-percent-encode-set")
SPECIAL_QUERY: Final = register(
    "special-query", QUERY | "'", _URL + "special-query-percent-encode-set"
)
# U+005E (^) joined the path set in 2025 (whatwg/url PR #846).
PATH: Final = register("path", QUERY | "?^`{}", _URL + "path-percent-encode-set")
USERINFO: Final = register(
    "userinfo", PATH | "/:;=@[\\]^|", _URL + "userinfo-percent-encode-set"
)
COMPONENT: Final = register(
    "component", USERINFO | "$%&+,", _URL + "component-percent-encode-set"
)
FORM_URLENCODED: Final = register(
    "application/x-www-form-urlencoded",
    COMPONENT | "!'()~",
    _URL + "application-x-www-form-urlencoded-percent-encode-set",
)

# WHATWG history, dated by the whatwg/url commit that changed each set (its
# git history of url.bs).  A name "whatwg-<set>-<date>" is the set from that
# commit on; "-before-<date>" the set until that commit.  The sets of the
# 2014 editions are those of the first url.bs (whatwg/url 0bfe056, 2014-10-22).
_GH = "whatwg/url "
WHATWG_SIMPLE_BEFORE_2017: Final = register(
    "whatwg-simple-before-2017-02-14",
    EncodeSet(_C0 + "\x7f"),
    "URL Standard simple encode set, 2014-10-22 to 2017-02-14, when " + _GH
    + "1d69a77 renamed it the C0 control percent-encode set (same code points)",
)
WHATWG_DEFAULT_BEFORE_2015_06_10: Final = register(
    "whatwg-default-before-2015-06-10",
    WHATWG_SIMPLE_BEFORE_2017 | ' "#<>?`',
    "URL Standard default encode set (paths), 2014-10-22 to 2015-06-10, before " + _GH
    + "c296e2f added { and }",
)
WHATWG_DEFAULT_2015_06_10: Final = register(
    "whatwg-default-2015-06-10",
    WHATWG_DEFAULT_BEFORE_2015_06_10 | "{}",
    "URL Standard default encode set (paths) from " + _GH + "c296e2f (2015-06-10, "
    "{ and } added); renamed the path percent-encode set by 1d69a77 (2017-02-14); "
    "unchanged until 9bc33c3 (2025-03-05) added ^",
)
WHATWG_QUERY_BEFORE_2015_06_10: Final = register(
    "whatwg-query-before-2015-06-10",
    WHATWG_SIMPLE_BEFORE_2017 | ' "#<>`',
    "URL Standard query state, 2014-10-22 to 2015-06-10, when " + _GH
    + "f54c44d stopped encoding ` (0x60)",
)
WHATWG_QUERY_2015_06_10: Final = register(
    "whatwg-query-2015-06-10",
    WHATWG_SIMPLE_BEFORE_2017 | ' "#<>',
    "URL Standard query state from " + _GH + "f54c44d (2015-06-10, ` no longer "
    "encoded); today's query percent-encode set; special schemes add ' from "
    "6ef17eb (2018-06-08)",
)
WHATWG_USERNAME_BEFORE_2015_08_14: Final = register(
    "whatwg-username-before-2015-08-14",
    WHATWG_DEFAULT_2015_06_10 | "/:@\\",
    "URL Standard username encode set, 2015-06-10 to 2015-08-14 (used by the "
    "authority state from " + _GH + "7876306, 2015-06-16); 9ca26e5 replaced it "
    "with the userinfo encode set",
)
WHATWG_PASSWORD_BEFORE_2015_08_14: Final = register(
    "whatwg-password-before-2015-08-14",
    WHATWG_DEFAULT_2015_06_10 | "/@\\",
    "URL Standard password encode set, 2015-06-10 to 2015-08-14 (used by the "
    "authority state from " + _GH + "7876306, 2015-06-16); 9ca26e5 replaced it "
    "with the userinfo encode set",
)
WHATWG_USERINFO_2015_08_14: Final = register(
    "whatwg-userinfo-2015-08-14",
    WHATWG_DEFAULT_2015_06_10 | "/:;=@[\\]^|",
    "URL Standard userinfo encode set from " + _GH + "9ca26e5 (2015-08-14); "
    "renamed the userinfo percent-encode set by 1d69a77 (2017-02-14), same code "
    "points today",
)
PATH_BEFORE_2025: Final = register(
    "path-before-2025",
    QUERY | "?`{}",
    "URL Standard path percent-encode set, 2017-02-14 to 2025-03-05, before "
    + _GH + "9bc33c3 added U+005E (^)",
)

# Old names kept working: get() warns (DeprecationWarning) and returns the
# set under its dated name.  The 2016 names did not say when the sets began.
_DEPRECATED: dict[str, str] = {
    "whatwg-2016-simple": "whatwg-simple-before-2017-02-14",
    "whatwg-2016-default": "whatwg-default-2015-06-10",
    "whatwg-2016-userinfo": "whatwg-userinfo-2015-08-14",
}
WHATWG_2016_SIMPLE: Final = WHATWG_SIMPLE_BEFORE_2017  # deprecated name
WHATWG_2016_DEFAULT: Final = WHATWG_DEFAULT_2015_06_10  # deprecated name
WHATWG_2016_USERINFO: Final = WHATWG_USERINFO_2015_08_14  # deprecated name

# RFC 3986 §2.2/§2.3 and the component rules of §3 (Appendix A ABNF).
_RFC3986 = "RFC 3986 "
RFC3986_UNRESERVED: Final = register(
    "rfc3986-unreserved",
    EncodeSet.from_allowed(_UNRESERVED),
    _RFC3986 + "§2.3 (everything but unreserved)",
)
RFC3986_PATH_SEGMENT: Final = register(
    "rfc3986-path-segment",
    EncodeSet.from_allowed(_UNRESERVED + _SUB_DELIMS + ":@"),
    _RFC3986 + "§3.3 segment = *pchar",
)
RFC3986_PATH: Final = register(
    "rfc3986-path",
    EncodeSet.from_allowed(_UNRESERVED + _SUB_DELIMS + ":@/"),
    _RFC3986 + "§3.3 path-abempty = *( \"/\" segment )",
)
RFC3986_QUERY: Final = register(
    "rfc3986-query",
    EncodeSet.from_allowed(_UNRESERVED + _SUB_DELIMS + ":@/?"),
    _RFC3986 + "§3.4 query = *( pchar / \"/\" / \"?\" )",
)
RFC3986_FRAGMENT: Final = register(
    "rfc3986-fragment",
    EncodeSet.from_allowed(_UNRESERVED + _SUB_DELIMS + ":@/?"),
    _RFC3986 + "§3.5 fragment = *( pchar / \"/\" / \"?\" )",
)
RFC3986_USERINFO: Final = register(
    "rfc3986-userinfo",
    EncodeSet.from_allowed(_UNRESERVED + _SUB_DELIMS + ":"),
    _RFC3986 + "§3.2.1 userinfo = *( unreserved / pct-encoded / sub-delims / \":\" )",
)
RFC3986_REG_NAME: Final = register(
    "rfc3986-reg-name",
    EncodeSet.from_allowed(_UNRESERVED + _SUB_DELIMS),
    _RFC3986 + "§3.2.2 reg-name = *( unreserved / pct-encoded / sub-delims )",
)
# The character classes themselves, as sets that encode exactly that class.
RFC3986_GEN_DELIMS: Final = register(
    "rfc3986-gen-delims", EncodeSet(":/?#[]@", non_ascii=False), _RFC3986 + "§2.2 gen-delims"
)
RFC3986_SUB_DELIMS: Final = register(
    "rfc3986-sub-delims", EncodeSet(_SUB_DELIMS, non_ascii=False), _RFC3986 + "§2.2 sub-delims"
)
RFC3986_RESERVED: Final = register(
    "rfc3986-reserved", RFC3986_GEN_DELIMS | RFC3986_SUB_DELIMS, _RFC3986 + "§2.2 reserved"
)

# RFC 2396 §2: reserved, unreserved (alphanum + mark), and the excluded
# classes (control, space, delims, unwise).  RFC 2732 §3 moved "[" and "]"
# from unwise to reserved for IPv6 literals.
_RFC2396 = "RFC 2396 "
_MARK = "-_.!~*'()"
RFC2396_RESERVED: Final = register(
    "rfc2396-reserved", EncodeSet(";/?:@&=+$,", non_ascii=False), _RFC2396 + "§2.2 reserved"
)
RFC2396_UNWISE: Final = register(
    "rfc2396-unwise", EncodeSet("{}|\\^[]`", non_ascii=False), _RFC2396 + "§2.4.3 unwise"
)
RFC2396_DELIMS: Final = register(
    "rfc2396-delims", EncodeSet('<>#%"', non_ascii=False), _RFC2396 + "§2.4.3 delims"
)
RFC2396: Final = register(
    "rfc2396",
    EncodeSet.from_allowed(_ALNUM + _MARK),
    _RFC2396 + "§2.3/§2.4 (everything but unreserved = alphanum | mark)",
)
RFC2732_RESERVED: Final = register(
    "rfc2732-reserved", RFC2396_RESERVED | "[]", "RFC 2732 §3 reserved (adds [ ])"
)
RFC2732_UNWISE: Final = register(
    "rfc2732-unwise", RFC2396_UNWISE - "[]", "RFC 2732 §3 unwise (without [ ])"
)

# RFC 1738 §2.2: only alphanumerics, "$-_.+!*'()," may appear unencoded in
# data; "unsafe" and "reserved" name the rest.
_RFC1738 = "RFC 1738 §2.2 "
RFC1738_UNSAFE: Final = register(
    "rfc1738-unsafe",
    EncodeSet(' <>"#%{}|\\^~[]`' + _C0 + "\x7f", non_ascii=True),
    _RFC1738 + "unsafe (with controls and 80-FF, which must always be encoded)",
)
RFC1738_RESERVED: Final = register(
    "rfc1738-reserved", EncodeSet(";/?:@=&", non_ascii=False), _RFC1738 + "reserved"
)
RFC1738: Final = register(
    "rfc1738",
    EncodeSet.from_allowed(_ALNUM + "$-_.+!*'(),"),
    _RFC1738 + "(everything but alphanumerics and $-_.+!*'(),)",
)

# ECMA-262 §19.2.6 (uriReserved, uriUnescaped) and Annex B.2.1.1 (escape).
_ES = "ECMA-262 "
ECMASCRIPT_ENCODE_URI_COMPONENT: Final = register(
    "ecmascript-encodeURIComponent",
    EncodeSet.from_allowed(_ALNUM + "-_.!~*'()"),
    _ES + "§19.2.6.4 encodeURIComponent (unescaped: uriUnescaped)",
)
ECMASCRIPT_ENCODE_URI: Final = register(
    "ecmascript-encodeURI",
    EncodeSet.from_allowed(_ALNUM + "-_.!~*'()" + ";/?:@&=+$," + "#"),
    _ES + "§19.2.6.3 encodeURI (unescaped: uriReserved, uriUnescaped, #)",
)
ECMASCRIPT_ESCAPE: Final = register(
    "ecmascript-escape",
    EncodeSet.from_allowed(_ALNUM + "@*_+-./"),
    _ES + "Annex B.2.1.1 escape (non-ASCII above U+00FF becomes %uXXXX)",
)

OAUTH1: Final = register(
    "oauth1", EncodeSet.from_allowed(_UNRESERVED), "RFC 5849 §3.6 (everything but unreserved)"
)
# RFC 7838 §3: an ALPN id is a token; tchar (RFC 7230 §3.2.6) stays, except "%".
ALPN: Final = register(
    "alpn",
    EncodeSet.from_allowed(_ALNUM + "!#$&'*+-.^_`|~"),
    "RFC 7838 §3 (tchar except %)",
)
RFC8187: Final = register(
    "rfc8187",
    EncodeSet.from_allowed(_ALNUM + "!#$&+-.^_`|~"),
    "RFC 8187 §3.2.1 (everything but attr-char)",
)
# RFC 3875 §2.3: URL-encoding in CGI follows RFC 2396 — unreserved stays.
CGI: Final = register(
    "cgi", EncodeSet.from_allowed(_ALNUM + _MARK), "RFC 3875 §2.3 (everything but unreserved)"
)
# HTML 4.01 §17.13.4.1: space becomes "+", then non-alphanumerics are %HH.
HTML4_FORM: Final = register(
    "html4-form",
    EncodeSet.from_allowed(_ALNUM),
    "HTML 4.01 §17.13.4.1 (everything but alphanumerics; space as +)",
)
# XForms 1.0 §11.6: like HTML 4 but the characters RFC 2396 calls unreserved
# stay (alphanumerics and -_.!~*'()), space as +.
XFORMS_URLENCODED: Final = register(
    "xforms-urlencoded",
    EncodeSet.from_allowed(_ALNUM + _MARK),
    "XForms 1.0 §11.6 (everything but alphanumerics and -_.!~*'(); space as +)",
)
