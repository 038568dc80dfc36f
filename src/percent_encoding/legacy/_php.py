"""PHP 8's ``urlencode``, ``rawurlencode``, ``urldecode``, ``rawurldecode``
and ``http_build_query``.

Strategy: the encode sets and rules of ``php_url_encode`` /
``php_raw_url_encode``; a malformed ``%`` is kept as PHP keeps it.
``http_build_query`` walks nested arrays and objects as PHP does (bracketed
keys, numeric prefixes, PHP's float and bool formatting).

Source: php-src ``ext/standard/url.c`` and ``ext/standard/http.c``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

from .. import _args
from .. import core as _core
from .._abnf import ALNUM as _ALNUM
from ..errors import (
    PercentEncodingTypeError,
)
from ..sets import (
    RFC3986_UNRESERVED,
    EncodeSet,
)
from ._common import Text, check, str_arg, to_text

#: ``http_build_query``'s ``enc_type`` for ``+`` as space (PHP manual, RFC 1738 style).
PHP_QUERY_RFC1738: Final = 1
#: ``http_build_query``'s ``enc_type`` for ``%20`` and ``~`` kept (RFC 3986 style).
PHP_QUERY_RFC3986: Final = 2

# php_url_encode: keep alphanumerics and "-_.", space as "+", the rest %XX.
PHP_URLENCODE_SET: Final = EncodeSet.from_allowed(
    _ALNUM + "-_.", name="php-urlencode", spec="PHP ext/standard/url.c php_url_encode"
)
# php_raw_url_encode (PHP >= 5.3): RFC 3986 unreserved stays.
PHP_RAWURLENCODE_SET: Final = RFC3986_UNRESERVED.named(
    "php-rawurlencode", "PHP ext/standard/url.c php_raw_url_encode"
)


def php_urlencode(data: Text) -> str:
    """PHP's ``urlencode()``: alphanumerics and ``-_.`` stay, space becomes
    ``+``, every other byte ``%XX`` (``~`` too).  ``str`` is UTF-8 encoded.

    >>> php_urlencode("a b~c*")
    'a+b%7Ec%2A'
    """
    return _core.encode(check(data, "php_urlencode"), PHP_URLENCODE_SET, space_as_plus=True)


def php_rawurlencode(data: Text) -> str:
    """PHP's ``rawurlencode()``: RFC 3986 unreserved (alphanumerics ``-._~``)
    stay, every other byte is ``%XX`` (space is ``%20``).

    >>> php_rawurlencode("a b~c*")
    'a%20b~c%2A'
    """
    return _core.encode(check(data, "php_rawurlencode"), PHP_RAWURLENCODE_SET)


def php_urldecode(data: Text) -> str:
    """PHP's ``urldecode()``: ``+`` is space, ``%XX`` its byte, a ``%`` without
    two hex digits stays.  The bytes are read as UTF-8 (U+FFFD for invalid).

    >>> php_urldecode("a+b%7e%zz")
    'a b~%zz'
    """
    return to_text(_core.decode(check(data, "php_urldecode"), plus_as_space=True))


def php_rawurldecode(data: Text) -> str:
    """PHP's ``rawurldecode()``: as :func:`php_urldecode` but ``+`` stays.

    >>> php_rawurldecode("a+b%20c")
    'a+b c'
    """
    return to_text(_core.decode(check(data, "php_rawurldecode")))


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
    whole = int(abs(v)) if abs(v) < 1e15 and abs(v) == int(abs(v)) else 0
    if whole >= 10**14 and whole % 10 == 5 and whole // 10 % 2 == 0:
        # A 15-digit integer halfway between two 14-digit values that rounds
        # down: zend_dtoa's fast path cannot decide the tie, and its exact
        # path for small integers keeps the trailing zeros (PHP prints
        # 100000000000005.0 as 1.0000000000000E+14).
        digits = str(whole // 10)
    sign = "-" if v < 0 else ""
    if decpt < -3 or decpt > 14:
        e = decpt - 1
        return f"{sign}{digits[0]}.{digits[1:] or '0'}E{'+' if e >= 0 else '-'}{abs(e)}"
    if decpt <= 0:
        return f"{sign}0.{'0' * -decpt}{digits}"
    if len(digits) <= decpt:
        return sign + digits + "0" * (decpt - len(digits))
    return f"{sign}{digits[:decpt]}.{digits[decpt:]}"


def _php_key(key: object) -> int | Text:
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


def _php_array(data: object) -> dict[int | Text, object] | None:
    if isinstance(data, Mapping):
        arr: dict[int | Text, object] = {}
        for k, v in data.items():
            arr[_php_key(k)] = v  # PHP overwrites a repeated key in place
        return arr
    if isinstance(data, (list, tuple)):
        return dict(enumerate(data))
    return None


@_args.positional_options("numeric_prefix", "arg_separator", "enc_type")
def http_build_query(
    data: Mapping[Any, Any] | Sequence[Any],
    *,
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
    The options are keyword-only; PHP's positional order still works, with a
    :class:`DeprecationWarning`.

    >>> http_build_query({"a": [1, 2], "b": {"c": None, "d": True}, 5: "x y"}, numeric_prefix="n")
    'a%5B0%5D=1&a%5B1%5D=2&b%5Bd%5D=1&n5=x+y'
    """
    _args.check_int_limit("enc_type", enc_type, none=False)
    # PHP treats any other value as RFC 1738; we refuse the ambiguity.
    enc: Callable[[Text], str] = (
        php_rawurlencode
        if _args.check_choice("enc_type", enc_type, (PHP_QUERY_RFC1738, PHP_QUERY_RFC3986))
        == PHP_QUERY_RFC3986
        else php_urlencode
    )
    str_arg(numeric_prefix, "numeric_prefix", "http_build_query")
    str_arg(arg_separator, "arg_separator", "http_build_query")
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
    stack: list[tuple[Iterator[tuple[int | Text, object]], int]] = [(iter(top.items()), id(data))]
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
