"""The URL Standard's ``URLSearchParams`` class, with Python names.

Strategy: a list of (name, value) pairs of USV strings (lone surrogates
become U+FFFD on the way in, as WebIDL's USVString conversion does), parsed
and serialized by this package's parser and serializer.

Spec: URL Standard §6.2 "URLSearchParams class".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from operator import itemgetter

from .. import core as _core
from ..core import to_usv_string
from ..errors import (
    PercentEncodingTypeError,
)
from ._parse import Pair, parse

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def _usv_arg(x: object, what: str) -> str:
    if type(x) is str:
        return x if x.isascii() else to_usv_string(x)
    if isinstance(x, str):
        return to_usv_string(str(x))
    raise PercentEncodingTypeError(
        f"URLSearchParams {what} must be str, not {type(x).__name__} "
        "(JavaScript would stringify it; call str() first)"
    )


class URLSearchParams:
    """The URL Standard's ``URLSearchParams`` (§6.2), with Python names.

    Construct it from a query string (one leading ``?`` is dropped), a
    mapping (a record), an iterable of (name, value) pairs or another
    instance.  Strings are converted to USVStrings (lone surrogates become
    U+FFFD), as WebIDL does.

    >>> p = URLSearchParams("?b=2&a=1&b=3")
    >>> p.get("b"), p.get_all("b"), p.has("a", "1"), len(p)
    ('2', ['2', '3'], True, 3)
    >>> p.append("c", "x y"); p.sort(); str(p)
    'a=1&b=2&b=3&c=x+y'
    """

    __slots__ = ("_list",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(
        self,
        init: str | Mapping[str, str] | Iterable[Sequence[str]] | URLSearchParams | None = None,
    ) -> None:
        self._list: list[Pair]
        if type(init) is str:
            # (the commonest call first)
            self._list = parse(init[1:] if init[:1] == "?" else init)
        elif init is None:
            self._list = []
        elif isinstance(init, str):
            # §6.2 constructor: a leading "?" is removed, then the string parser.
            s = str(init)
            self._list = parse(s[1:] if s[:1] == "?" else s)
        elif isinstance(init, URLSearchParams):
            self._list = list(init._list)
        elif isinstance(init, Mapping):
            # A record<USVString, USVString>: keys converted first, a repeated
            # key keeps the first position and the last value (WebIDL).
            rec: dict[str, str] = {}
            for k, v in init.items():
                rec[_usv_arg(k, "names")] = _usv_arg(v, "values")
            self._list = list(rec.items())
        elif isinstance(init, (bytes, bytearray, memoryview)):
            raise PercentEncodingTypeError(
                "URLSearchParams takes a str; parse a body with form.parse(data) and pass "
                "the pairs"
            )
        else:
            self._list = []
            try:
                items = iter(init)
            except TypeError:
                raise PercentEncodingTypeError(
                    f"URLSearchParams() takes a str, a mapping or pairs, not "
                    f"{type(init).__name__}"
                ) from None
            for i, item in enumerate(items):
                if isinstance(item, (str, bytes)):
                    raise PercentEncodingTypeError(
                        f"item {i} is a string, not a (name, value) pair"
                    )
                try:
                    pair = tuple(item)
                except TypeError:
                    raise PercentEncodingTypeError(
                        f"item {i} is a {type(item).__name__}, not a (name, value) pair"
                    ) from None
                if len(pair) != 2:
                    # §6.2 constructor step: each pair must have exactly two items.
                    raise PercentEncodingTypeError(
                        f"item {i} has {len(pair)} items; each pair needs exactly 2"
                    )
                self._list.append((_usv_arg(pair[0], "names"), _usv_arg(pair[1], "values")))

    # -- §6.2 methods -------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """The number of (name, value) pairs."""
        return len(self._list)

    def append(self, name: str, value: str) -> None:
        """Add a pair at the end."""
        self._list.append((_usv_arg(name, "names"), _usv_arg(value, "values")))

    def delete(self, name: str, value: str | None = None) -> None:
        """Remove every pair named ``name`` (and, if given, whose value is ``value``)."""
        n = _usv_arg(name, "names")
        if value is None:
            self._list[:] = [p for p in self._list if p[0] != n]
        else:
            v = _usv_arg(value, "values")
            self._list[:] = [p for p in self._list if p[0] != n or p[1] != v]

    def get(self, name: str) -> str | None:
        """The value of the first pair named ``name``, or None."""
        n = _usv_arg(name, "names")
        for k, v in self._list:
            if k == n:
                return v
        return None

    def get_all(self, name: str) -> list[str]:
        """The values of every pair named ``name``, in order."""
        n = _usv_arg(name, "names")
        return [v for k, v in self._list if k == n]

    getAll = get_all  # the JavaScript name

    def has(self, name: str, value: str | None = None) -> bool:
        """Whether a pair named ``name`` (with value ``value``, if given) exists."""
        n = _usv_arg(name, "names")
        if value is None:
            return any(k == n for k, _ in self._list)
        v = _usv_arg(value, "values")
        return (n, v) in self._list

    def set(self, name: str, value: str) -> None:
        """Set the first pair named ``name`` to ``value`` and remove the others
        (append when there is none)."""
        n = _usv_arg(name, "names")
        v = _usv_arg(value, "values")
        out: list[Pair] = []
        found = False
        for p in self._list:
            if p[0] != n:
                out.append(p)
            elif not found:
                out.append((n, v))
                found = True
        if not found:
            out.append((n, v))
        self._list[:] = out

    def sort(self) -> None:
        """Sort the pairs by name, stably, comparing UTF-16 code units (§6.2 sort)."""
        lst = self._list
        # Code point order equals UTF-16 code unit order unless a name has an
        # astral character (its surrogates sort below U+E000-U+FFFF).
        if any(not k.isascii() and _ASTRAL.search(k) for k, _ in lst):
            lst.sort(key=lambda p: p[0].encode("utf-16-be"))
        else:
            lst.sort(key=itemgetter(0))

    def __str__(self) -> str:
        """The application/x-www-form-urlencoded serialization (§6.2 stringifier)."""
        return _core.form_serialize_kernel(self._list)

    def to_string(self) -> str:
        """Same as ``str(self)``."""
        return str(self)

    toString = to_string  # the JavaScript name

    # -- iteration (a WebIDL pair iterator: live, index-based) --------------------------------

    def __iter__(self) -> Iterator[tuple[str, str]]:
        i = 0
        while i < len(self._list):
            yield self._list[i]
            i += 1

    def items(self) -> Iterator[tuple[str, str]]:
        """The (name, value) pairs (a live iterator, like JavaScript's ``entries()``)."""
        return iter(self)

    entries = items

    def keys(self) -> Iterator[str]:
        """The names, in order (live)."""
        return (k for k, _ in self)

    def values(self) -> Iterator[str]:
        """The values, in order (live)."""
        return (v for _, v in self)

    def for_each(self, callback: Callable[[str, str, URLSearchParams], object]) -> None:
        """Call ``callback(value, name, self)`` for each pair, as JavaScript's ``forEach``."""
        if not callable(callback):
            raise PercentEncodingTypeError(
                f"forEach() needs a callable, not {type(callback).__name__}"
            )
        for k, v in self:
            callback(v, k, self)

    forEach = for_each  # the JavaScript name

    def __len__(self) -> int:
        return len(self._list)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.has(name)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URLSearchParams):
            return self._list == other._list
        return NotImplemented

    def __repr__(self) -> str:
        return f"URLSearchParams({self._list!r})"

    def copy(self) -> URLSearchParams:
        """An independent copy."""
        return URLSearchParams(self)


