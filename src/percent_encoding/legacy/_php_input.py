"""PHP's ``parse_str()``: a query string into nested arrays, as PHP fills ``$_GET``.

Strategy: the query is split on ``arg_separator.input`` (every character of
it separates; empty pieces are skipped, as ``strtok`` does), each piece at
its first ``=``; name and value are ``urldecode``d (``+`` is a space, a bad
``%`` stays).  The name is then read as PHP's ``php_register_variable_ex``
reads it: leading spaces dropped, the name ends at a NUL byte, ``.`` and
space before the first ``[`` become ``_``, each ``[key]`` goes one array
level deeper (``[]`` appends), text after a ``]`` that is not ``[`` is
ignored, and a ``[`` without a closing ``]`` is no bracket at all: it and
every later space, ``.`` and ``[`` become ``_``.  Keys that are canonical
decimal integers within PHP's 64-bit range become ``int``.  Two limits from
php.ini: ``max_input_vars`` (pieces past it are ignored) and
``max_input_nesting_level`` (a name nested deeper removes its whole
top-level variable).  PHP warns and goes on; ``strict=True`` raises
:class:`~percent_encoding.errors.FormLimitError` instead.

Work is done on bytes, like PHP; names and values are decoded at the end
(UTF-8 with U+FFFD by default, or ``encoding``).  Appending follows PHP 8.0
to 8.2: the next index is one more than the largest integer key so far
(so ``a[-5]=1&a[]=2`` gives ``-5`` and ``-4``), or 0 when there is none.

Source: php-src ``main/php_variables.c`` (``php_default_treat_data``,
``php_register_variable_ex``) and ``Zend/zend_hash.c``
(``_zend_handle_numeric_str_ex``); php.ini ``max_input_vars``,
``max_input_nesting_level``, ``arg_separator.input``.
"""

from __future__ import annotations

import re
from typing import Any

from .. import _args
from .. import core as _core
from ..errors import FormLimitError, PercentEncodingError, PercentEncodingTypeError
from ._common import Text

_LONG_MAX = 2**63 - 1
_LONG_MIN = -(2**63)
_NUMERIC = re.compile(rb"-?(?:0|[1-9][0-9]*)")
_MANGLE_HEAD = bytes.maketrans(b" .", b"__")
_MANGLE_REST = bytes.maketrans(b" .[", b"___")


class _PHPArray:
    """A PHP array while it is built: ordered keys and PHP's next free index."""

    __slots__ = ("items", "next_free")

    def __init__(self) -> None:
        self.items: dict[bytes | int, bytes | _PHPArray] = {}
        self.next_free: int | None = None

    def _note(self, key: bytes | int) -> None:
        if isinstance(key, int) and (self.next_free is None or key >= self.next_free):
            self.next_free = key + 1 if key < _LONG_MAX else _LONG_MAX

    def set(self, key: bytes, value: bytes | _PHPArray) -> None:
        k = _key(key)
        self.items[k] = value
        self._note(k)

    def append(self, value: bytes | _PHPArray) -> bool:
        k = 0 if self.next_free is None else self.next_free
        if k in self.items:
            return False  # zend_hash_next_index_insert fails at the top of the range
        self.items[k] = value
        self._note(k)
        return True

    def sub(self, key: bytes) -> _PHPArray:
        k = _key(key)
        old = self.items.get(k)
        if isinstance(old, _PHPArray):
            return old
        new = _PHPArray()
        self.items[k] = new  # a string there is replaced, keeping its place
        self._note(k)
        return new


def _key(key: bytes) -> bytes | int:
    # ZEND_HANDLE_NUMERIC_STR: canonical decimal (no "+", no leading zero, not
    # "-0") within zend_long.
    if _NUMERIC.fullmatch(key) and key != b"-0":
        n = int(key)
        if _LONG_MIN <= n <= _LONG_MAX:
            return n
    return key


def _register(
    top: _PHPArray, name: bytes, value: bytes, max_depth: int, strict: bool
) -> None:
    name = name.lstrip(b" ").split(b"\0", 1)[0]
    bracket = name.find(b"[")
    head = name if bracket < 0 else name[:bracket]
    head = head.translate(_MANGLE_HEAD)
    if not head:
        return  # an empty variable name
    if bracket < 0:
        top.set(head, value)
        return
    table = top
    index: bytes | None = head
    pos = bracket  # at a "["
    depth = 0
    while True:
        depth += 1
        if depth > max_depth:
            if strict:
                raise FormLimitError(
                    f"variable {head.decode('utf-8', 'replace')!r} is nested deeper than "
                    f"max_input_nesting_level={max_depth}",
                    "max_input_nesting_level",
                    max_depth,
                )
            top.items.pop(_key(head), None)
            return
        start = pos + 1
        probe = start + 1 if name[start : start + 1] == b" " else start
        if name[probe : probe + 1] == b"]":
            key: bytes | None = None
            close = probe
        else:
            close = name.find(b"]", probe)
            if close < 0:
                # Not an index: at the first level the "[" and what follows
                # join the name, mangled; deeper, the current index stays.
                if depth == 1:
                    index = head + b"_" + name[start:].translate(_MANGLE_REST)
                break
            key = name[start:close]
        if index is None:
            sub = _PHPArray()
            if not table.append(sub):
                return
            table = sub
        else:
            table = table.sub(index)
        index = key
        pos = close + 1
        if name[pos : pos + 1] != b"[":
            break
    if index is None:
        table.append(value)
    else:
        table.set(index, value)


def _decode(b: bytes, encoding: str) -> str:
    if encoding == "utf-8":
        return b.decode("utf-8", "replace")
    from ..encodings import lookup

    return lookup(encoding).decode(b)


def _convert(arr: _PHPArray, encoding: str) -> dict[str | int, Any]:
    out: dict[str | int, Any] = {}
    for k, v in arr.items.items():
        key = k if isinstance(k, int) else _decode(k, encoding)
        out[key] = _convert(v, encoding) if isinstance(v, _PHPArray) else _decode(v, encoding)
    return out


def php_parse_str(
    query: Text,
    *,
    max_input_vars: int = 1000,
    max_input_nesting_level: int = 64,
    arg_separator: str = "&",
    encoding: str = "utf-8",
    strict: bool = False,
) -> dict[str | int, Any]:
    """PHP's ``parse_str($query, $result)``: the ``$result`` array as nested dicts.

    Integer-like keys are ``int``, values ``str``; ``key[]`` appends, ``.`` and
    space in names become ``_``; the limits default to php.ini's (see the
    module docstring for every rule).  Source: php-src ``main/php_variables.c``.

    >>> php_parse_str("a[b][]=1&a[b][]=2&first.name=Jo+Doe&x[5]=y")
    {'a': {'b': {0: '1', 1: '2'}}, 'first_name': 'Jo Doe', 'x': {5: 'y'}}
    >>> php_parse_str("a[b=1&c%5Bd%5D=2")
    {'a_b': '1', 'c': {'d': '2'}}
    """
    if not isinstance(query, (str, bytes)):
        raise PercentEncodingTypeError(
            f"php_parse_str() takes str or bytes, not {type(query).__name__}"
        )
    _args.check_int_limit("max_input_vars", max_input_vars, none=False, minimum=None)
    _args.check_int_limit(
        "max_input_nesting_level", max_input_nesting_level, none=False, minimum=None
    )
    _args.check_str("arg_separator", arg_separator)
    _args.check_label("encoding", encoding)
    _args.check_bool("strict", strict)
    if not arg_separator or not arg_separator.isascii():
        raise PercentEncodingError("arg_separator must be one or more ASCII characters")
    data = query.encode("utf-8", "surrogatepass") if isinstance(query, str) else bytes(query)
    from ..encodings import is_utf8, lookup

    enc = "utf-8" if is_utf8(encoding) else lookup(encoding).name.lower()
    data = data.split(b"\0", 1)[0]  # parse_str hands PHP a C string
    seps = re.escape(arg_separator.encode("ascii"))
    pieces = [p for p in re.split(b"[" + seps + b"]", data) if p]
    if len(pieces) > max_input_vars:
        if strict:
            raise FormLimitError(
                f"{len(pieces)} variables exceed max_input_vars={max_input_vars}",
                "max_input_vars",
                max_input_vars,
            )
        pieces = pieces[: max(max_input_vars, 0)]
    top = _PHPArray()
    for piece in pieces:
        name, eq, value = piece.partition(b"=")
        _register(
            top,
            _core.decode(name, plus_as_space=True),
            _core.decode(value, plus_as_space=True) if eq else b"",
            max_input_nesting_level,
            strict,
        )
    return _convert(top, enc)
