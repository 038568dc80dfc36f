"""Historical and other-language percent-encodings, each exactly as its source defines it.

Strategy: every variant here is a thin layer over :func:`percent_encoding.encode`
and :func:`percent_encoding.decode` with its own encode set (an
:class:`~percent_encoding.sets.EncodeSet`) and its own small rules (space as
``+``, CRLF line breaks, how a bad ``%`` is treated, what happens to lone
surrogates).  Encoders return ASCII ``str``; decoders return ``str``.  Where the
original raises on a malformed ``%`` (Java, Go, Ruby's ``URI``) ours raises
:class:`~percent_encoding.PercentDecodeError` with the position; where it keeps
it (PHP, Ruby's ``CGI``, .NET) ours keeps it too.

Families and their sources (see ``docs/legacy.md`` for the long form):

* URL/URI RFCs: RFC 1738 §2.2, RFC 2396 §2 (unreserved = alphanum | mark; the
  excluded characters of §2.4.3 must always be escaped), RFC 2732 §3 (``[`` and
  ``]`` move from *unwise* to *reserved*), RFC 3875 §2.3 and §4.4 (CGI),
  RFC 5023 §9.7 (the ``Slug`` header).
* Forms: HTML 4.01 §17.13.4.1 (``application/x-www-form-urlencoded``) and
  XForms 1.0 §11.6 (urlencoded serialization; separator attribute §3.3.3).
* PHP 8 ``ext/standard/url.c`` (``urlencode``, ``rawurlencode``, ``urldecode``,
  ``rawurldecode``) and ``ext/standard/http.c`` (``http_build_query``).
* Java ``java.net.URLEncoder`` / ``URLDecoder``; Go ``net/url`` (``shouldEscape``,
  ``QueryEscape``, ``PathEscape``, ``unescape``); .NET ``System.Uri``
  (``UriHelper.EscapeString``, ``PercentEncodingHelper``); Ruby ``CGI::Escape``
  (``cgi/escape.rb``) and ``URI.encode_www_form_component`` (``uri/common.rb``).
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from functools import lru_cache
from typing import Any, Final

from . import core as _core
from .errors import (
    PercentDecodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)
from .schemes import Scheme, pairs_arg
from .sets import (
    CGI as _CGI_SET,
)
from .sets import (
    FORM_URLENCODED,
    HTML4_FORM,
    RFC1738,
    RFC2396,
    RFC3986_UNRESERVED,
    XFORMS_URLENCODED,
    EncodeSet,
)

__all__ = [
    "PHP_QUERY_RFC1738",
    "PHP_QUERY_RFC3986",
    "SCHEMES",
    "cgi_decode",
    "cgi_encode",
    "cgi_search_words",
    "dotnet_escape_data_string",
    "dotnet_unescape_data_string",
    "go_path_escape",
    "go_path_unescape",
    "go_query_escape",
    "go_query_unescape",
    "html4_form_decode",
    "html4_form_encode",
    "html4_form_encode_component",
    "http_build_query",
    "java_urldecode",
    "java_urlencode",
    "php_rawurldecode",
    "php_rawurlencode",
    "php_urldecode",
    "php_urlencode",
    "rfc1738_encode",
    "rfc2396_encode",
    "rfc2732_encode",
    "rfc_decode",
    "ruby_cgi_escape",
    "ruby_cgi_unescape",
    "ruby_decode_www_form_component",
    "ruby_encode_www_form_component",
    "slug_decode",
    "slug_encode",
    "xforms_encode_component",
    "xforms_urlencode",
]

_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
_C0 = "".join(map(chr, range(0x20)))
_Text = str | bytes


def _check(data: object, func: str) -> _Text:
    if isinstance(data, (str, bytes)):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise PercentEncodingTypeError(f"{func}() takes str or bytes, not {type(data).__name__}")


def _str_arg(value: object, arg: str, func: str) -> str:
    # Option arguments are validated here so a wrong type is our error, not a
    # builtin TypeError/AttributeError from deep inside.
    if not isinstance(value, str):
        raise PercentEncodingTypeError(f"{func}(): {arg} must be a str, not {type(value).__name__}")
    return value


def _to_text(raw: bytes) -> str:
    # Most of the originals hand back bytes (PHP, Go, Ruby) or a UTF-8 string;
    # Python callers get text, invalid UTF-8 becoming U+FFFD.  Use
    # percent_encoding.decode() when the bytes themselves are wanted.
    return raw.decode("utf-8", "replace")


# ---------------------------------------------------------------------------
# RFC 1738, RFC 2396, RFC 2732
# ---------------------------------------------------------------------------
# RFC 2732 §3 changes only which characters are *reserved* ("[" and "]" leave
# "unwise"); both classes must be escaped in data, so the data encode set is
# RFC 2396's.
RFC2732: Final = RFC2396.named(
    "rfc2732", "RFC 2732 §3 (as RFC 2396: everything but unreserved; [ ] now reserved)"
)


@lru_cache(maxsize=128)
def _minus(base: EncodeSet, safe: str) -> EncodeSet:
    return base.remove(safe) if safe else base


def _safe_set(base: EncodeSet, safe: str) -> EncodeSet:
    if not isinstance(safe, str):
        raise PercentEncodingTypeError("safe must be a str of ASCII characters")
    if "%" in safe:
        raise PercentEncodingError("'%' cannot be safe: it always starts an escape")
    if not safe.isascii():
        raise PercentEncodingError("safe must contain only ASCII characters")
    return _minus(base, safe)


def rfc1738_encode(data: _Text, *, safe: str = "", encoding: str = "utf-8") -> str:
    """Encode data for a URL as RFC 1738 §2.2 says: only alphanumerics and
    ``$-_.+!*'(),`` stay; controls, 80–FF, *unsafe* and *reserved* become ``%XX``.

    ``safe`` keeps reserved characters that are used for their reserved
    purpose (e.g. ``"/"`` in a path).  RFC 1738 predates any charset rule: text
    is encoded with ``encoding`` (UTF-8, as RFC 2718 §2.2.5 recommends).

    >>> rfc1738_encode("a b~c/d'e")
    "a%20b%7Ec%2Fd'e"
    """
    return _core.encode(
        _check(data, "rfc1738_encode"),
        _safe_set(RFC1738, safe),
        encoding=_str_arg(encoding, "encoding", "rfc1738_encode"),
    )


def rfc2396_encode(data: _Text, *, safe: str = "", encoding: str = "utf-8") -> str:
    """Escape everything but RFC 2396 *unreserved* (§2.3: alphanum and
    ``-_.!~*'()``), as §2.4 requires for data; ``safe`` keeps reserved
    characters used for their reserved purpose.

    >>> rfc2396_encode("a b~c/d[e]", safe="/")
    'a%20b~c/d%5Be%5D'
    """
    return _core.encode(
        _check(data, "rfc2396_encode"),
        _safe_set(RFC2396, safe),
        encoding=_str_arg(encoding, "encoding", "rfc2396_encode"),
    )


def rfc2732_encode(data: _Text, *, safe: str = "", encoding: str = "utf-8") -> str:
    """RFC 2732 §3: as :func:`rfc2396_encode`; ``[`` and ``]`` are now reserved
    (so ``safe="[]:"`` may keep an IPv6 literal), not unwise.

    >>> rfc2732_encode("[::1]", safe="[]:")
    '[::1]'
    """
    return _core.encode(
        _check(data, "rfc2732_encode"),
        _safe_set(RFC2732, safe),
        encoding=_str_arg(encoding, "encoding", "rfc2732_encode"),
    )


def rfc_decode(data: _Text, *, encoding: str = "utf-8", strict: bool = False) -> str:
    """Undo RFC 1738/2396/2732/3875 escapes: every ``%XX`` becomes its octet
    (RFC 2396 §2.4.1); ``+`` stays ``+``.  A bad ``%`` is kept unless ``strict``.

    >>> rfc_decode("caf%C3%A9+x")
    'café+x'
    """
    return _core.decode_text(
        _check(data, "rfc_decode"),
        encoding=_str_arg(encoding, "encoding", "rfc_decode"),
        strict=strict,
    )


# ---------------------------------------------------------------------------
# HTML 4.01 and XForms 1.0 forms
# ---------------------------------------------------------------------------
_NEWLINES = re.compile(r"\r\n|\r|\n")
_Pairs = Mapping[str, str] | Sequence[tuple[str, str]]


def _crlf(text: _Text) -> _Text:
    # HTML 4.01 §17.13.4.1 and XForms 1.0 §11.6: line breaks are sent as CR LF.
    if isinstance(text, str):
        return _NEWLINES.sub("\r\n", text) if ("\r" in text or "\n" in text) else text
    return re.sub(rb"\r\n|\r|\n", b"\r\n", text)


def _pairs(pairs: _Pairs, func: str) -> list[tuple[_Text, _Text]]:
    items: list[Any]
    if isinstance(pairs, Mapping):
        items = list(pairs.items())
    elif isinstance(pairs, (str, bytes, bytearray)) or not hasattr(pairs, "__iter__"):
        raise PercentEncodingTypeError(
            f"{func}() takes a mapping or (name, value) pairs, not {type(pairs).__name__}"
        )
    else:
        items = list(pairs)
    out: list[tuple[_Text, _Text]] = []
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise PercentEncodingTypeError(f"{func}() takes (name, value) pairs, got {item!r}")
        out.append((_check(item[0], func), _check(item[1], func)))
    return out


def html4_form_encode_component(text: _Text, *, encoding: str = "utf-8") -> str:
    """One name or value as HTML 4.01 §17.13.4.1 escapes it: line breaks as
    ``%0D%0A``, space as ``+``, every other non-alphanumeric as ``%HH``.

    HTML 4 leaves the charset open (§17.13.1 expects ASCII); browsers used the
    page's or ``accept-charset``'s, so ``encoding`` takes a WHATWG label
    (characters it cannot represent are sent as ``&#N;``, as browsers do).

    >>> html4_form_encode_component("a b-c\\n")
    'a+b%2Dc%0D%0A'
    """
    t = _crlf(_check(text, "html4_form_encode_component"))
    enc = _str_arg(encoding, "encoding", "html4_form_encode_component")
    return _core.encode(t, HTML4_FORM, encoding=enc, space_as_plus=True)


def html4_form_encode(pairs: _Pairs, *, encoding: str = "utf-8", separator: str = "&") -> str:
    """A form data set as an HTML 4.01 §17.13.4.1 ``application/x-www-form-urlencoded``
    body: ``name=value`` joined by ``&`` (HTML 4.01 Appendix B.2.2 asks servers
    to accept ``;`` too; pass ``separator=";"`` to send it).

    >>> html4_form_encode([("q", "a b"), ("lang", "en-GB")])
    'q=a+b&lang=en%2DGB'
    """
    _str_arg(separator, "separator", "html4_form_encode")
    _str_arg(encoding, "encoding", "html4_form_encode")
    return separator.join(
        html4_form_encode_component(k, encoding=encoding)
        + "="
        + html4_form_encode_component(v, encoding=encoding)
        for k, v in _pairs(pairs, "html4_form_encode")
    )


def html4_form_decode(
    body: _Text, *, encoding: str = "utf-8", separators: str = "&;"
) -> list[tuple[str, str]]:
    """Parse a form body the way an HTML 4 era server would: split on ``&``
    and ``;`` (Appendix B.2.2), ``+`` as space, ``%XX`` decoded, text decoded
    with ``encoding``; empty pieces are skipped, a piece without ``=`` is a
    name with an empty value.

    >>> html4_form_decode("a=1;b=x+y&c")
    [('a', '1'), ('b', 'x y'), ('c', '')]
    """
    b = _check(body, "html4_form_decode")
    s = b if isinstance(b, str) else b.decode("latin-1")
    _str_arg(separators, "separators", "html4_form_decode")
    _str_arg(encoding, "encoding", "html4_form_decode")
    if not separators:
        raise PercentEncodingError("html4_form_decode(): separators must not be empty")
    out: list[tuple[str, str]] = []
    for piece in re.split("[" + re.escape(separators) + "]", s):
        if not piece:
            continue
        name, _, value = piece.partition("=")
        raw_n = name.encode("latin-1") if isinstance(b, bytes) else name
        raw_v = value.encode("latin-1") if isinstance(b, bytes) else value
        out.append(
            (
                _core.decode_text(raw_n, encoding=encoding, plus_as_space=True),
                _core.decode_text(raw_v, encoding=encoding, plus_as_space=True),
            )
        )
    return out


def xforms_encode_component(text: _Text) -> str:
    """One name or value as XForms 1.0 §11.6 escapes it: UTF-8, upper-case
    hex, space as ``+``, line breaks as ``%0D%0A``.

    The section names non-ASCII and RFC 2396 *reserved* characters; escaping
    there means RFC 2396 §2.4, which also requires the *excluded* characters
    (controls, space, delims, unwise) to be escaped, so everything but
    *unreserved* (alphanumerics and ``-_.!~*'()``) is ``%XX``.

    >>> xforms_encode_component("a b;c~")
    'a+b%3Bc~'
    """
    t = _crlf(_check(text, "xforms_encode_component"))
    return _core.encode(t, XFORMS_URLENCODED, space_as_plus=True)


def xforms_urlencode(pairs: _Pairs, *, separator: str = ";", terminate: bool = True) -> str:
    """XForms 1.0 §11.6 serialization: each leaf element becomes
    ``EltName=value{sep}`` and the pieces are concatenated in document order, so
    every pair, the last one included, is followed by the ``submission``
    element's ``separator`` (default ``;`` in XForms 1.0, §3.3.3).

    XForms 1.1 (§11.9.8) puts the separator only *between* pairs and defaults
    to ``&``: pass ``terminate=False, separator="&"`` for that.

    >>> xforms_urlencode([("GivenName", "René")])
    'GivenName=Ren%C3%A9;'
    >>> xforms_urlencode([("a", "J. Doe"), ("b", "x")], separator="&", terminate=False)
    'a=J.+Doe&b=x'
    """
    _str_arg(separator, "separator", "xforms_urlencode")
    if separator not in ("&", ";"):
        raise PercentEncodingError(
            f"xforms_urlencode(): XForms allows '&' or ';' as the separator, not {separator!r}"
        )
    parts = [
        xforms_encode_component(k) + "=" + xforms_encode_component(v)
        for k, v in _pairs(pairs, "xforms_urlencode")
    ]
    if terminate:
        return "".join(p + separator for p in parts)
    return separator.join(parts)


# ---------------------------------------------------------------------------
# CGI (RFC 3875)
# ---------------------------------------------------------------------------
# RFC 3875 §2.3: reserved characters are drawn from RFC 2396's set plus the
# two RFC 2732 added; in a given context only some are reserved and the rest
# of this set MUST NOT be encoded.  Everything outside unreserved and this set
# ("forbidden") is always encoded.
_CGI_RESERVED = ";/?:@&=+$,[]"


def cgi_encode(text: _Text, *, reserved: str = _CGI_RESERVED) -> str:
    """URL-encode for CGI as RFC 3875 §2.3 says: reserved and forbidden
    characters become ``%XX``; characters of the reserved set that are *not*
    reserved in this context (those missing from ``reserved``) stay as they are.

    >>> cgi_encode("a b/c=d")
    'a%20b%2Fc%3Dd'
    >>> cgi_encode("a b/c=d", reserved="&=+")
    'a%20b/c%3Dd'
    """
    _str_arg(reserved, "reserved", "cgi_encode")
    if not set(reserved) <= set(_CGI_RESERVED):
        raise PercentEncodingError(
            f"cgi_encode(): reserved must be a subset of {_CGI_RESERVED!r}, not {reserved!r}"
        )
    keep = "".join(c for c in _CGI_RESERVED if c not in reserved)
    return _core.encode(_check(text, "cgi_encode"), _minus(_CGI_SET, keep))


def cgi_decode(text: _Text, *, strict: bool = False) -> str:
    """RFC 3875 §2.3 URL-decoding: each ``%XX`` becomes its octet, ``+`` stays.

    >>> cgi_decode("a%20b+c")
    'a b+c'
    """
    return _core.decode_text(_check(text, "cgi_decode"), strict=strict)


def cgi_search_words(query_string: _Text) -> list[str] | None:
    """RFC 3875 §4.4: a QUERY_STRING without an unencoded ``=`` is a search
    string; its words are separated by ``+`` and each is URL-decoded.  Returns
    ``None`` when the query string is not a search string.

    >>> cgi_search_words("percent+encoding%2Bmore")
    ['percent', 'encoding+more']
    >>> cgi_search_words("a=1") is None
    True
    """
    q = _check(query_string, "cgi_search_words")
    s = q if isinstance(q, str) else q.decode("latin-1")
    if "=" in s or not s:
        return None
    return [_core.decode_text(w) for w in s.split("+")]


# ---------------------------------------------------------------------------
# Slug header (RFC 5023 §9.7)
# ---------------------------------------------------------------------------
# slugtext = %x20-7E | LWS; the value is the percent-encoded UTF-8 of the text,
# so octets outside %x20-7E and "%" itself (which would start an escape) are
# encoded.  HTAB (LWS) is encoded too: intermediaries may fold whitespace.
SLUG_SET: Final = EncodeSet(
    _C0 + "\x7f%", name="slug", spec="RFC 5023 §9.7 (everything outside %x20-7E, and %)"
)


def slug_encode(text: _Text) -> str:
    """The value of an AtomPub ``Slug`` header (RFC 5023 §9.7): UTF-8, then
    ``%`` and every octet outside ``%x20-7E`` as ``%XX``; spaces stay.

    >>> slug_encode("The Beach at Sète")
    'The Beach at S%C3%A8te'
    """
    return _core.encode(_check(text, "slug_encode"), SLUG_SET)


def slug_decode(value: _Text, *, strict: bool = False) -> str:
    """Read a ``Slug`` header: reverse the percent-encoding, then UTF-8
    decode (RFC 5023 §9.7).  With ``strict``, a bad ``%`` raises
    :class:`PercentDecodeError` and invalid UTF-8 :class:`TextDecodeError`.

    >>> slug_decode("The Beach at S%C3%A8te")
    'The Beach at Sète'
    """
    return _core.decode_text(
        _check(value, "slug_decode"), strict=strict, errors="strict" if strict else "replace"
    )


# ---------------------------------------------------------------------------
# PHP 8 (ext/standard/url.c, ext/standard/http.c)
# ---------------------------------------------------------------------------
PHP_QUERY_RFC1738: Final = 1
PHP_QUERY_RFC3986: Final = 2

# php_url_encode: keep alphanumerics and "-_.", space as "+", the rest %XX.
PHP_URLENCODE_SET: Final = EncodeSet.from_allowed(
    _ALNUM + "-_.", name="php-urlencode", spec="PHP ext/standard/url.c php_url_encode"
)
# php_raw_url_encode (PHP >= 5.3): RFC 3986 unreserved stays.
PHP_RAWURLENCODE_SET: Final = RFC3986_UNRESERVED.named(
    "php-rawurlencode", "PHP ext/standard/url.c php_raw_url_encode"
)


def php_urlencode(data: _Text) -> str:
    """PHP's ``urlencode()``: alphanumerics and ``-_.`` stay, space becomes
    ``+``, every other byte ``%XX`` (``~`` too).  ``str`` is UTF-8 encoded.

    >>> php_urlencode("a b~c*")
    'a+b%7Ec%2A'
    """
    return _core.encode(_check(data, "php_urlencode"), PHP_URLENCODE_SET, space_as_plus=True)


def php_rawurlencode(data: _Text) -> str:
    """PHP's ``rawurlencode()``: RFC 3986 unreserved (alphanumerics ``-._~``)
    stay, every other byte is ``%XX`` (space is ``%20``).

    >>> php_rawurlencode("a b~c*")
    'a%20b~c%2A'
    """
    return _core.encode(_check(data, "php_rawurlencode"), PHP_RAWURLENCODE_SET)


def php_urldecode(data: _Text) -> str:
    """PHP's ``urldecode()``: ``+`` is space, ``%XX`` its byte, a ``%`` without
    two hex digits stays.  The bytes are read as UTF-8 (U+FFFD for invalid).

    >>> php_urldecode("a+b%7e%zz")
    'a b~%zz'
    """
    return _to_text(_core.decode(_check(data, "php_urldecode"), plus_as_space=True))


def php_rawurldecode(data: _Text) -> str:
    """PHP's ``rawurldecode()``: as :func:`php_urldecode` but ``+`` stays.

    >>> php_rawurldecode("a+b%20c")
    'a+b c'
    """
    return _to_text(_core.decode(_check(data, "php_rawurldecode")))


_PHP_INT_KEY = re.compile(r"(?:0|-?[1-9][0-9]*)\Z")
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _php_float(v: float) -> str:
    # PHP 8 converts a float to string with zend_gcvt(value, precision=14, '.', 'E'):
    # 14 significant digits, trailing zeros dropped, exponent form when the
    # decimal exponent is < -4 or >= 15, written "1.0E+25" / "1.0E-5".
    if math.isnan(v):
        return "NAN"
    if math.isinf(v):
        return "INF" if v > 0 else "-INF"
    if v == 0:
        return "-0" if math.copysign(1.0, v) < 0 else "0"
    mant, exp = f"{abs(v):.13e}".split("e")
    digits = mant.replace(".", "").rstrip("0") or "0"
    decpt = int(exp) + 1
    sign = "-" if v < 0 else ""
    if decpt < -3 or decpt > 14:
        e = decpt - 1
        return f"{sign}{digits[0]}.{digits[1:] or '0'}E{'+' if e >= 0 else '-'}{abs(e)}"
    if decpt <= 0:
        return f"{sign}0.{'0' * -decpt}{digits}"
    if len(digits) <= decpt:
        return sign + digits + "0" * (decpt - len(digits))
    return f"{sign}{digits[:decpt]}.{digits[decpt:]}"


def _php_key(key: object) -> int | _Text:
    # PHP array keys are ints or strings; a canonical decimal string becomes an
    # int key, bools and floats are cast to int, null is "".
    if isinstance(key, bool):
        return int(key)
    if isinstance(key, int):
        return key
    if isinstance(key, float):
        if math.isnan(key) or math.isinf(key):
            return 0
        return int(key)
    if key is None:
        return ""
    if isinstance(key, (str, bytes)):
        s = key if isinstance(key, str) else key.decode("latin-1")
        if _PHP_INT_KEY.match(s) and _INT64_MIN <= int(s) <= _INT64_MAX:
            return int(s)
        return key
    raise PercentEncodingTypeError(
        f"a PHP array key is str, bytes, int, float, bool or None, not {type(key).__name__}"
    )


def _php_array(data: object) -> dict[int | _Text, object] | None:
    if isinstance(data, Mapping):
        arr: dict[int | _Text, object] = {}
        for k, v in data.items():
            arr[_php_key(k)] = v  # PHP overwrites a repeated key in place
        return arr
    if isinstance(data, (list, tuple)):
        return dict(enumerate(data))
    return None


def http_build_query(
    data: Mapping[Any, Any] | Sequence[Any],
    numeric_prefix: str = "",
    arg_separator: str = "&",
    enc_type: int = PHP_QUERY_RFC1738,
) -> str:
    """PHP 8's ``http_build_query()``: a query string from nested data.

    Dicts and lists stand for PHP arrays; nested keys are written
    ``outer%5Binner%5D`` (``a%5B0%5D=1``); ``True``/``False`` become ``1``/``0``;
    ``None`` and empty arrays are left out; floats are written as PHP prints
    them (14 significant digits); top-level integer keys get ``numeric_prefix``.
    ``enc_type`` selects ``urlencode`` (``PHP_QUERY_RFC1738``, the default:
    space as ``+``) or ``rawurlencode`` (``PHP_QUERY_RFC3986``).  Nesting
    depth is unlimited, as in PHP (the walk uses no recursion); an array that
    contains itself is skipped where it recurs, as PHP does.  A wrong option
    type raises :class:`~percent_encoding.errors.PercentEncodingTypeError`,
    any other ``enc_type`` :class:`~percent_encoding.errors.PercentEncodingError`.

    >>> http_build_query({"a": [1, 2], "b": {"c": None, "d": True}, 5: "x y"}, "n")
    'a%5B0%5D=1&a%5B1%5D=2&b%5Bd%5D=1&n5=x+y'
    """
    if isinstance(enc_type, bool) or not isinstance(enc_type, int):
        raise PercentEncodingTypeError(
            f"http_build_query(): enc_type must be an int, not {type(enc_type).__name__}"
        )
    if enc_type == PHP_QUERY_RFC3986:
        enc: Callable[[_Text], str] = php_rawurlencode
    elif enc_type == PHP_QUERY_RFC1738:
        enc = php_urlencode
    else:
        # PHP treats any other value as RFC 1738; we refuse the ambiguity.
        raise PercentEncodingError(
            "http_build_query(): enc_type must be PHP_QUERY_RFC1738 (1) or PHP_QUERY_RFC3986 (2)"
        )
    _str_arg(numeric_prefix, "numeric_prefix", "http_build_query")
    _str_arg(arg_separator, "arg_separator", "http_build_query")
    top = _php_array(data)
    if top is None:
        raise PercentEncodingTypeError(
            f"http_build_query() takes a dict or a list, not {type(data).__name__}"
        )
    out: list[str] = []
    # An explicit stack instead of recursion: PHP has no nesting limit, so
    # depth is bounded by memory, not by Python's recursion limit.  ``path``
    # holds the encoded key of every open array below the top level; a leaf's
    # name is built from it (``a%5Bb%5D%5Bc%5D``) only when it is written.
    active: set[int] = {id(data)}
    stack: list[tuple[Iterator[tuple[int | _Text, object]], int]] = [(iter(top.items()), id(data))]
    path: list[str] = []
    while stack:
        it, ident = stack[-1]
        item = next(it, None)
        if item is None:
            stack.pop()
            active.discard(ident)
            if path:
                path.pop()
            continue
        key, value = item
        top_level = len(stack) == 1
        if isinstance(key, int):
            k = (numeric_prefix if top_level else "") + str(key)
        else:
            k = enc(key)
        nested = _php_array(value)
        if nested is not None:
            if id(value) in active:  # PHP skips a recursive reference
                continue
            active.add(id(value))
            stack.append((iter(nested.items()), id(value)))
            path.append(k)
            continue
        name = path[0] + "".join(f"%5B{p}%5D" for p in path[1:]) + f"%5B{k}%5D" if path else k
        if value is None:
            continue
        if isinstance(value, bool):
            v = "1" if value else "0"
        elif isinstance(value, int):
            v = str(value) if _INT64_MIN <= value <= _INT64_MAX else enc(_php_float(value))
        elif isinstance(value, float):
            v = enc(_php_float(value))
        elif isinstance(value, (str, bytes, bytearray)):
            v = enc(bytes(value) if isinstance(value, bytearray) else value)
        else:
            raise PercentEncodingTypeError(
                f"http_build_query() cannot write a {type(value).__name__} value"
            )
        out.append(f"{name}={v}")
    return arg_separator.join(out)


# ---------------------------------------------------------------------------
# Java (java.net.URLEncoder / URLDecoder)
# ---------------------------------------------------------------------------
JAVA_URLENCODER_SET: Final = EncodeSet.from_allowed(
    _ALNUM + ".-*_", name="java-URLEncoder", spec="java.net.URLEncoder (DONT_NEED_ENCODING)"
)
_SURROGATE = re.compile("[\ud800-\udfff]")


def _utf16_units(text: str) -> str:
    # A Java String is UTF-16: an astral character is two chars.
    if all(ord(c) < 0x10000 for c in text):
        return text
    return "".join(
        c
        if ord(c) < 0x10000
        else chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + ((ord(c) - 0x10000) & 0x3FF))
        for c in text
    )


def _join_pairs(units: str) -> str:
    # Valid surrogate pairs become one code point; lone surrogates stay.
    if _SURROGATE.search(units) is None:
        return units
    return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def java_urlencode(text: str) -> str:
    """Java's ``URLEncoder.encode(s, StandardCharsets.UTF_8)``: alphanumerics and
    ``.-*_`` stay, space becomes ``+``, everything else is UTF-8 ``%XX``.  A lone
    surrogate is written ``%3F`` (``?``), as Java's encoder replaces it.

    >>> java_urlencode("The string ü@foo-bar")
    'The+string+%C3%BC%40foo-bar'
    """
    if not isinstance(text, str):
        raise PercentEncodingTypeError(f"java_urlencode() takes str, not {type(text).__name__}")
    t = _SURROGATE.sub("?", _join_pairs(text)) if _SURROGATE.search(text) else text
    return _core.encode(t, JAVA_URLENCODER_SET, space_as_plus=True)


def _java_digit(ch: str) -> int:
    # Character.digit(ch, 16): ASCII and fullwidth hex letters, Unicode Nd digits.
    o = ord(ch)
    if 0x41 <= o <= 0x46 or 0x61 <= o <= 0x66:
        return (o | 0x20) - 0x61 + 10
    if 0xFF21 <= o <= 0xFF26:
        return o - 0xFF21 + 10
    if 0xFF41 <= o <= 0xFF46:
        return o - 0xFF41 + 10
    if ch.isdecimal() and not 0xD800 <= o <= 0xDFFF:
        return unicodedata.decimal(ch)
    return -1


def _java_parse_hex(s: str, i: int) -> int:
    # Integer.parseInt(s, i+1, i+3, 16): an optional sign, then digits.
    body = s[i + 1 : i + 3]
    neg = False
    digits = body
    if body[0] in "+-":
        neg = body[0] == "-"
        digits = body[1:]
    value = 0
    for ch in digits:
        d = _java_digit(ch)
        if d < 0:
            raise PercentDecodeError(
                f"URLDecoder: Illegal hex characters in escape (%) pattern {s[i : i + 3]!r} "
                f"at position {i}",
                i,
            )
        value = value * 16 + d
    if neg and value != 0:
        raise PercentDecodeError(
            f"URLDecoder: Illegal hex characters in escape (%) pattern - negative value "
            f"at position {i}",
            i,
        )
    return value


def _java_utf8(b: bytes) -> str:
    # new String(bytes, UTF_8) in the JDK: valid input decodes as usual; each
    # malformed piece becomes one U+FFFD, sized the way the JDK's decoder sizes
    # it (an encoded surrogate ED A0 80 is ONE piece, unlike Python's three).
    try:
        return b.decode("utf-8")
    except UnicodeDecodeError:
        pass
    out: list[str] = []
    n = len(b)
    i = 0
    while i < n:
        b1 = b[i]
        if b1 < 0x80:
            out.append(chr(b1))
            i += 1
        elif 0xC2 <= b1 <= 0xDF:
            if i + 1 < n and b[i + 1] & 0xC0 == 0x80:
                out.append(b[i : i + 2].decode("utf-8"))
                i += 2
            else:
                out.append("\ufffd")
                i += 1
        elif 0xE0 <= b1 <= 0xEF:
            if i + 2 < n:
                b2, b3 = b[i + 1], b[i + 2]
                if (b1 == 0xE0 and b2 & 0xE0 == 0x80) or b2 & 0xC0 != 0x80 or b3 & 0xC0 != 0x80:
                    out.append("\ufffd")
                    i += 1 if ((b1 == 0xE0 and b2 & 0xE0 == 0x80) or b2 & 0xC0 != 0x80) else 2
                else:
                    cp = (b1 & 0x0F) << 12 | (b2 & 0x3F) << 6 | (b3 & 0x3F)
                    out.append("\ufffd" if 0xD800 <= cp <= 0xDFFF else chr(cp))
                    i += 3
            else:
                out.append("\ufffd")
                if i + 1 < n and (
                    (b1 == 0xE0 and b[i + 1] & 0xE0 == 0x80) or b[i + 1] & 0xC0 != 0x80
                ):
                    i += 1
                else:
                    i = n
        elif 0xF0 <= b1 <= 0xF7:
            if i + 3 < n:
                b2, b3, b4 = b[i + 1], b[i + 2], b[i + 3]
                cp = (b1 & 0x07) << 18 | (b2 & 0x3F) << 12 | (b3 & 0x3F) << 6 | (b4 & 0x3F)
                if (
                    b2 & 0xC0 != 0x80
                    or b3 & 0xC0 != 0x80
                    or b4 & 0xC0 != 0x80
                    or not 0x10000 <= cp <= 0x10FFFF
                ):
                    out.append("\ufffd")
                    if (
                        b1 > 0xF4
                        or (b1 == 0xF0 and not 0x90 <= b2 <= 0xBF)
                        or (b1 == 0xF4 and b2 & 0xF0 != 0x80)
                        or b2 & 0xC0 != 0x80
                    ):
                        i += 1
                    elif b3 & 0xC0 != 0x80:
                        i += 2
                    else:
                        i += 3
                else:
                    out.append(chr(cp))
                    i += 4
            else:
                out.append("\ufffd")
                if b1 > 0xF4 or (
                    i + 1 < n
                    and (
                        (b1 == 0xF0 and not 0x90 <= b[i + 1] <= 0xBF)
                        or (b1 == 0xF4 and b[i + 1] & 0xF0 != 0x80)
                        or b[i + 1] & 0xC0 != 0x80
                    )
                ):
                    i += 1
                elif i + 2 < n and b[i + 2] & 0xC0 != 0x80:
                    i += 2
                else:
                    i = n
        else:
            out.append("\ufffd")
            i += 1
    return "".join(out)


def java_urldecode(text: str) -> str:
    """Java's ``URLDecoder.decode(s, StandardCharsets.UTF_8)``: ``+`` is space and
    each run of ``%xy`` is decoded as UTF-8 (U+FFFD for bad bytes).  Where Java
    throws ``IllegalArgumentException`` (a ``%`` without two hex digits) this
    raises :class:`PercentDecodeError`, its ``position`` counted in UTF-16 units
    like Java's index.  Java's ``Integer.parseInt`` quirks are kept: ``%+1`` is
    byte 1 and fullwidth or other Unicode digits count as hex digits.

    >>> java_urldecode("The+string+%C3%BC%40foo-bar")
    'The string ü@foo-bar'
    """
    if not isinstance(text, str):
        raise PercentEncodingTypeError(f"java_urldecode() takes str, not {type(text).__name__}")
    if "%" not in text and "+" not in text:
        return _join_pairs(text)
    s = _utf16_units(text)
    n = len(s)
    out: list[str] = []
    i = 0
    while i < n:
        c = s[i]
        if c == "+":
            out.append(" ")
            i += 1
        elif c == "%":
            buf = bytearray()
            while i + 2 < n and c == "%":
                buf.append(_java_parse_hex(s, i))
                i += 3
                if i < n:
                    c = s[i]
            if i < n and c == "%":
                raise PercentDecodeError(
                    f"URLDecoder: Incomplete trailing escape (%) pattern at position {i}", i
                )
            out.append(_java_utf8(bytes(buf)))
        else:
            j = i + 1
            while j < n and s[j] not in "+%":
                j += 1
            out.append(s[i:j])
            i = j
    return _join_pairs("".join(out))


# ---------------------------------------------------------------------------
# Go (net/url)
# ---------------------------------------------------------------------------
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


def go_query_escape(data: _Text) -> str:
    """Go's ``url.QueryEscape``: unreserved stays, space is ``+``, every other
    byte (all reserved characters too) is ``%XX``.

    >>> go_query_escape("a b/c~")
    'a+b%2Fc~'
    """
    return _core.encode(_check(data, "go_query_escape"), GO_QUERY_SET, space_as_plus=True)


def go_path_escape(data: _Text) -> str:
    """Go's ``url.PathEscape``: for one path segment; ``/``, ``;``, ``,``, ``?``
    and everything not unreserved or ``$&+:=@`` is ``%XX`` (space is ``%20``).

    >>> go_path_escape("a b/c:d@e")
    'a%20b%2Fc:d@e'
    """
    return _core.encode(_check(data, "go_path_escape"), GO_PATH_SET)


_BAD_PCT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_BAD_PCT_B = re.compile(rb"%(?![0-9A-Fa-f]{2})")


def _first_bad_percent(data: _Text) -> int | None:
    m = _BAD_PCT.search(data) if isinstance(data, str) else _BAD_PCT_B.search(data)
    return m.start() if m is not None else None


def _go_unescape(data: _Text, plus: bool, func: str) -> str:
    d = _check(data, func)
    pos = _first_bad_percent(d)
    if pos is not None:
        bad = d[pos : pos + 3]
        raise PercentDecodeError(f"invalid URL escape {bad!r} at position {pos}", pos)
    return _to_text(_core.decode(d, plus_as_space=plus))


def go_query_unescape(data: _Text) -> str:
    """Go's ``url.QueryUnescape``: ``+`` is space, ``%XX`` its byte; a ``%`` not
    followed by two hex digits is an error (Go's ``EscapeError``), raised here
    as :class:`PercentDecodeError`.

    >>> go_query_unescape("a+b%2Fc")
    'a b/c'
    """
    return _go_unescape(data, True, "go_query_unescape")


def go_path_unescape(data: _Text) -> str:
    """Go's ``url.PathUnescape``: as :func:`go_query_unescape`, but ``+`` stays.

    >>> go_path_unescape("a+b%20c")
    'a+b c'
    """
    return _go_unescape(data, False, "go_path_unescape")


# ---------------------------------------------------------------------------
# .NET (System.Uri)
# ---------------------------------------------------------------------------
DOTNET_SET: Final = RFC3986_UNRESERVED.named(
    "dotnet-EscapeDataString", "System.Uri.EscapeDataString (UriHelper.Unreserved)"
)


def dotnet_escape_data_string(text: str) -> str:
    """.NET's ``Uri.EscapeDataString``: RFC 3986 unreserved stays, everything
    else is UTF-8 ``%XX``; a lone surrogate becomes U+FFFD (``%EF%BF%BD``),
    as enumerating runes does.

    >>> dotnet_escape_data_string("a b~ü")
    'a%20b~%C3%BC'
    """
    if not isinstance(text, str):
        raise PercentEncodingTypeError(
            f"dotnet_escape_data_string() takes str, not {type(text).__name__}"
        )
    return _core.encode(text, DOTNET_SET, errors="replace")


_DOTNET_ESCAPES = re.compile(r"(?:%[89A-Fa-f][0-9A-Fa-f])+|%[0-7][0-9A-Fa-f]")


def _utf8_prefix_len(b: bytes, i: int) -> tuple[int, bool]:
    # The length of the well-formed UTF-8 sequence at b[i] (True), or of the
    # maximal ill-formed subpart to skip (False), per Unicode §3.9.
    lead = b[i]
    if 0xC2 <= lead <= 0xDF:
        need, lo, hi = 2, 0x80, 0xBF
    elif 0xE0 <= lead <= 0xEF:
        need = 3
        lo, hi = (0xA0, 0xBF) if lead == 0xE0 else (0x80, 0x9F) if lead == 0xED else (0x80, 0xBF)
    elif 0xF0 <= lead <= 0xF4:
        need = 4
        lo, hi = (0x90, 0xBF) if lead == 0xF0 else (0x80, 0x8F) if lead == 0xF4 else (0x80, 0xBF)
    else:
        return 1, False
    j = i + 1
    for k in range(1, need):
        if j >= len(b):
            return j - i, False
        c = b[j]
        if k == 1:
            if not lo <= c <= hi:
                return 1, False
        elif not 0x80 <= c <= 0xBF:
            return j - i, False
        j += 1
    return need, True


def _dotnet_run(m: re.Match[str]) -> str:
    text = m.group(0)
    if len(text) == 3 and text[1] in "01234567":
        return chr(int(text[1:], 16))
    raw = bytes.fromhex(text.replace("%", ""))
    out: list[str] = []
    i = 0
    while i < len(raw):
        n, ok = _utf8_prefix_len(raw, i)
        # An invalid sequence is left escaped, exactly as it was written.
        out.append(raw[i : i + n].decode("utf-8") if ok else text[3 * i : 3 * (i + n)])
        i += n
    return "".join(out)


def dotnet_unescape_data_string(text: str) -> str:
    """.NET's ``Uri.UnescapeDataString``: ``%XX`` of ASCII bytes are decoded;
    runs of non-ASCII escapes are decoded where they are valid UTF-8 and left
    as written where not; a bad ``%`` stays.

    >>> dotnet_unescape_data_string("a%20b%C3%BC%FF%zz")
    'a bü%FF%zz'
    """
    if not isinstance(text, str):
        raise PercentEncodingTypeError(
            f"dotnet_unescape_data_string() takes str, not {type(text).__name__}"
        )
    if "%" not in text:
        return text
    return _DOTNET_ESCAPES.sub(_dotnet_run, text)


# ---------------------------------------------------------------------------
# Ruby (CGI::Escape, URI)
# ---------------------------------------------------------------------------
RUBY_CGI_SET: Final = RFC3986_UNRESERVED.named(
    "ruby-CGI.escape", "Ruby cgi/escape.rb CGI.escape ([^ a-zA-Z0-9_.\\-~])"
)
# URI.encode_www_form_component keeps *-._ and alphanumerics: the WHATWG
# application/x-www-form-urlencoded set.
RUBY_WWW_FORM_SET: Final = FORM_URLENCODED.named(
    "ruby-encode_www_form_component",
    "Ruby uri/common.rb URI.encode_www_form_component ([^*\\-.0-9A-Z_a-z])",
)


def ruby_cgi_escape(data: _Text) -> str:
    """Ruby's ``CGI.escape``: alphanumerics and ``_.-~`` stay, space is ``+``,
    every other byte ``%XX``.

    >>> ruby_cgi_escape("'Stop!' said Fred")
    '%27Stop%21%27+said+Fred'
    """
    return _core.encode(_check(data, "ruby_cgi_escape"), RUBY_CGI_SET, space_as_plus=True)


def ruby_cgi_unescape(data: _Text) -> str:
    """Ruby's ``CGI.unescape``: ``+`` is space, ``%XX`` its byte, a bad ``%``
    stays; bytes read as UTF-8 (U+FFFD where Ruby would return a broken string).

    The C extension (``ext/cgi/escape/escape.c``, ``optimized_unescape``) stops
    at a ``%`` in the last two bytes and copies the rest as is, so a ``+`` after
    it stays a ``+``; that is kept here.

    >>> ruby_cgi_unescape("%27Stop%21%27+said+Fred")
    "'Stop!' said Fred"
    >>> ruby_cgi_unescape("a%+"), ruby_cgi_unescape("a%+b")
    ('a%+', 'a% b')
    """
    d = _check(data, "ruby_cgi_unescape")
    if isinstance(d, str):
        try:
            d = d.encode("utf-8")
        except UnicodeEncodeError as e:
            raise PercentDecodeError(
                f"lone surrogate at position {e.start} cannot be UTF-8 encoded", e.start
            ) from None
    n = len(d)
    cut = n
    for k in (n - 2, n - 1):
        if k >= 0 and d[k] == 0x25:
            cut = k
            break
    return _to_text(_core.decode(d[:cut], plus_as_space=True) + d[cut:])


def ruby_encode_www_form_component(data: _Text) -> str:
    """Ruby's ``URI.encode_www_form_component``: ``*-._`` and alphanumerics
    stay, space is ``+``, the rest ``%XX`` (``~`` too).

    >>> ruby_encode_www_form_component("Ruby ~*")
    'Ruby+%7E*'
    """
    return _core.encode(
        _check(data, "ruby_encode_www_form_component"), RUBY_WWW_FORM_SET, space_as_plus=True
    )


def ruby_decode_www_form_component(data: _Text) -> str:
    """Ruby's ``URI.decode_www_form_component``: a ``%`` without two hex
    digits raises (Ruby's ``ArgumentError``; here :class:`PercentDecodeError`;
    bytes that are not UTF-8 raise :class:`TextDecodeError`), then ``+`` is
    space and ``%XX`` its byte.

    >>> ruby_decode_www_form_component("Ruby+%7E*")
    'Ruby ~*'
    """
    d = _check(data, "ruby_decode_www_form_component")
    if isinstance(d, bytes):
        try:
            d.decode("utf-8")
        except UnicodeDecodeError as e:
            # Ruby's regexp match raises ArgumentError on a broken UTF-8 string.
            raise TextDecodeError(
                f"invalid byte sequence in UTF-8 at byte {e.start}", e.start
            ) from None
    pos = _first_bad_percent(d)
    if pos is not None:
        raise PercentDecodeError(f"invalid %-encoding at position {pos}", pos)
    return _to_text(_core.decode(d, plus_as_space=True))


# ---------------------------------------------------------------------------
# The registry entries
# ---------------------------------------------------------------------------
def _php_pairs(enc: Callable[[_Text], str]) -> Callable[[Sequence[tuple[str, str]]], str]:
    def encode_pairs(pairs: Sequence[tuple[str, str]]) -> str:
        # What http_build_query writes for a flat array of these pairs (a
        # repeated name is kept, which a PHP array could not hold).
        return "&".join(enc(k) + "=" + enc(v) for k, v in pairs_arg(pairs))

    return encode_pairs


def _pairs_checked(func: Callable[..., str]) -> Callable[[Sequence[tuple[str, str]]], str]:
    # Registry contract: encode_pairs takes a mapping or (name, value) pairs and raises
    # PercentEncodingTypeError for anything else (schemes.pairs_arg checks it).
    def encode_pairs(pairs: Sequence[tuple[str, str]]) -> str:
        return func(pairs_arg(pairs))

    return encode_pairs


def _rfc_dec(text: str) -> str:
    return rfc_decode(text)


def _plus_dec(text: str) -> str:
    return _core.decode_text(text, plus_as_space=True)


def _s(func: Callable[[_Text], str]) -> Callable[[str], str]:
    def enc(text: str) -> str:
        return func(text)

    return enc


_PHP_SRC = "https://github.com/php/php-src/blob/master/ext/standard/"
_GO_SRC = "https://github.com/golang/go/blob/master/src/net/url/url.go"

SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        "php-urlencode",
        _PHP_SRC + "url.c (php_url_encode)",
        _s(php_urlencode),
        php_urldecode,
        PHP_URLENCODE_SET,
        "alphanumerics and -_. stay; space as +; ~ encoded",
        family="PHP",
    ),
    Scheme(
        "php-rawurlencode",
        _PHP_SRC + "url.c (php_raw_url_encode)",
        _s(php_rawurlencode),
        php_rawurldecode,
        PHP_RAWURLENCODE_SET,
        "RFC 3986 unreserved stays; space as %20",
        family="PHP",
    ),
    Scheme(
        "php-http_build_query-rfc1738",
        _PHP_SRC + "http.c (http_build_query, PHP_QUERY_RFC1738)",
        _s(php_urlencode),
        php_urldecode,
        PHP_URLENCODE_SET,
        "urlencode for names and values; space as +; nested keys a%5Bb%5D",
        _php_pairs(php_urlencode),
        "PHP",
    ),
    Scheme(
        "php-http_build_query-rfc3986",
        _PHP_SRC + "http.c (http_build_query, PHP_QUERY_RFC3986)",
        _s(php_rawurlencode),
        php_rawurldecode,
        PHP_RAWURLENCODE_SET,
        "rawurlencode for names and values; space as %20; nested keys a%5Bb%5D",
        _php_pairs(php_rawurlencode),
        "PHP",
    ),
    Scheme(
        "rfc1738",
        "RFC 1738 §2.2",
        _s(rfc1738_encode),
        _rfc_dec,
        RFC1738,
        "alphanumerics and $-_.+!*'(), stay; ~ encoded (unsafe)",
        family="URL RFCs",
    ),
    Scheme(
        "rfc2396",
        "RFC 2396 §2.3-§2.4",
        _s(rfc2396_encode),
        _rfc_dec,
        RFC2396,
        "unreserved (alphanumerics and -_.!~*'()) stays",
        family="URL RFCs",
    ),
    Scheme(
        "rfc2732",
        "RFC 2732 §3",
        _s(rfc2732_encode),
        _rfc_dec,
        RFC2732,
        "as RFC 2396; [ ] are reserved (escaped in data)",
        family="URL RFCs",
    ),
    Scheme(
        "html4-form",
        "HTML 4.01 §17.13.4.1",
        _s(html4_form_encode_component),
        _plus_dec,
        HTML4_FORM,
        "space as +; line breaks as %0D%0A; every non-alphanumeric %HH",
        _pairs_checked(html4_form_encode),
        "Forms",
    ),
    Scheme(
        "xforms-urlencoded",
        "XForms 1.0 §11.6",
        _s(xforms_encode_component),
        _plus_dec,
        XFORMS_URLENCODED,
        "UTF-8; space as +; line breaks as %0D%0A; RFC 2396 unreserved stays; "
        "pairs separated by ; by default",
        _pairs_checked(xforms_urlencode),
        "Forms",
    ),
    Scheme(
        "cgi",
        "RFC 3875 §2.3",
        _s(cgi_encode),
        _rfc_dec,
        _CGI_SET,
        "reserved and forbidden characters escaped; unreserved stays",
        family="CGI",
    ),
    Scheme(
        "slug",
        "RFC 5023 §9.7",
        _s(slug_encode),
        slug_decode,
        SLUG_SET,
        "UTF-8; only % and octets outside %x20-7E escaped; space stays",
        family="HTTP",
    ),
    Scheme(
        "java-URLEncoder",
        "java.net.URLEncoder.encode(s, UTF_8) / URLDecoder.decode",
        java_urlencode,
        java_urldecode,
        JAVA_URLENCODER_SET,
        "alphanumerics and .-*_ stay; space as +; decoder throws on a bad %",
        family="Other languages",
    ),
    Scheme(
        "go-QueryEscape",
        _GO_SRC + " (QueryEscape, QueryUnescape)",
        _s(go_query_escape),
        go_query_unescape,
        GO_QUERY_SET,
        "unreserved stays; space as +; decoder errors on a bad %",
        family="Other languages",
    ),
    Scheme(
        "go-PathEscape",
        _GO_SRC + " (PathEscape, PathUnescape)",
        _s(go_path_escape),
        go_path_unescape,
        GO_PATH_SET,
        "unreserved and $&+:=@ stay; space as %20",
        family="Other languages",
    ),
    Scheme(
        "dotnet-EscapeDataString",
        "System.Uri.EscapeDataString / UnescapeDataString (dotnet/runtime UriHelper.cs)",
        dotnet_escape_data_string,
        dotnet_unescape_data_string,
        DOTNET_SET,
        "RFC 3986 unreserved stays; invalid UTF-8 escapes stay escaped when decoding",
        family="Other languages",
    ),
    Scheme(
        "ruby-CGI.escape",
        "Ruby cgi/escape.rb (CGI.escape, CGI.unescape)",
        _s(ruby_cgi_escape),
        ruby_cgi_unescape,
        RUBY_CGI_SET,
        "alphanumerics and _.-~ stay; space as +",
        family="Other languages",
    ),
    Scheme(
        "ruby-encode_www_form_component",
        "Ruby uri/common.rb (URI.encode_www_form_component, URI.decode_www_form_component)",
        _s(ruby_encode_www_form_component),
        ruby_decode_www_form_component,
        RUBY_WWW_FORM_SET,
        "alphanumerics and *-._ stay; space as +; ~ encoded",
        family="Other languages",
    ),
)
