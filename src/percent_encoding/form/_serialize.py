"""application/x-www-form-urlencoded serializing: ``serialize``.

Strategy: UTF-8 pairs of str or bytes go straight to the kernel
(``core.form_serialize_kernel``; with the C twin ``serialize`` itself is a C
entry); a legacy encoding, or any pair the kernel refuses, takes the checked
path, which raises the library's errors with the pair's index.  The checked
path also takes what ``urllib.parse.urlencode(query, doseq=True)`` takes:
names and values that are neither str nor bytes go through ``str()``, and a
value that is a sequence (not str or bytes) gives one pair per item.

Spec: URL Standard §5.2 "application/x-www-form-urlencoded serializer".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from .. import _args, _kernels
from .. import core as _core
from ..errors import (
    PercentEncodingTypeError,
)
from ..sets import FORM_URLENCODED
from ._parse import Text, lookup


def check_pair(pair: object, index: int) -> tuple[Text, Text]:
    if isinstance(pair, (str, bytes)):
        raise PercentEncodingTypeError(f"pair {index} is a string, not a (name, value) pair")
    if isinstance(pair, tuple):
        items: tuple[object, ...] = pair
    else:
        try:
            items = tuple(pair)  # type: ignore[arg-type]
        except TypeError:
            raise PercentEncodingTypeError(
                f"pair {index} is a {type(pair).__name__}, not a (name, value) pair"
            ) from None
    if len(items) != 2:
        raise PercentEncodingTypeError(
            f"pair {index} has {len(items)} items; a pair is (name, value)"
        )
    name, value = items
    if not isinstance(name, (str, bytes)) or not isinstance(value, (str, bytes)):
        bad = "name" if not isinstance(name, (str, bytes)) else "value"
        raise PercentEncodingTypeError(
            f"the {bad} of pair {index} is a "
            f"{type(name if bad == 'name' else value).__name__}; names and values are "
            "str (or bytes, written as given)"
        )
    return name, value


def pairs_list(pairs: object) -> list[tuple[Text, Text]]:
    if type(pairs) is list:
        return pairs  # (first: the isinstance check on the Mapping ABC costs more)
    if isinstance(pairs, Mapping):
        return list(pairs.items())
    if isinstance(pairs, (str, bytes)):
        raise PercentEncodingTypeError(
            "serialize() takes (name, value) pairs; to re-encode a query string parse it first"
        )
    try:
        return list(pairs)  # type: ignore[call-overload, no-any-return]
    except TypeError:
        raise PercentEncodingTypeError(
            f"serialize() takes an iterable of (name, value) pairs, not {type(pairs).__name__}"
        ) from None


def _scalar(x: object) -> Text:
    # urllib.parse.urlencode: bytes as they are, str as it is, anything else str(x).
    return x if isinstance(x, (str, bytes)) else str(x)


def _loose_pair(pair: object, index: int) -> tuple[Text, list[Text]]:
    """A (name, values) pair from what urlencode(doseq=True) accepts as one item."""
    if isinstance(pair, (str, bytes)):
        raise PercentEncodingTypeError(f"pair {index} is a string, not a (name, value) pair")
    try:
        items: tuple[Any, ...] = tuple(pair)  # type: ignore[arg-type]
    except TypeError:
        raise PercentEncodingTypeError(
            f"pair {index} is a {type(pair).__name__}, not a (name, value) pair"
        ) from None
    if len(items) != 2:
        raise PercentEncodingTypeError(
            f"pair {index} has {len(items)} items; a pair is (name, value)"
        )
    name, value = items
    if isinstance(value, (str, bytes)):
        return _scalar(name), [value]
    try:  # a sequence of values repeats the name (doseq=True); len() decides, as in urllib
        len(value)
    except TypeError:
        return _scalar(name), [_scalar(value)]
    return _scalar(name), [_scalar(v) for v in value]


def _serialize_checked(pairs: list[tuple[Text, Text]], encoding: str) -> str:
    out: list[str] = []
    enc = _core.encode
    for i, pair in enumerate(pairs):
        name, values = _loose_pair(pair, i)
        ename = enc(name, FORM_URLENCODED, encoding=encoding, space_as_plus=True)
        for value in values:
            out.append(
                ename + "=" + enc(value, FORM_URLENCODED, encoding=encoding, space_as_plus=True)
            )
    return "&".join(out)


def checked_serialize(
    pairs: Iterable[tuple[str | bytes, str | bytes]] | Mapping[str, str],
    *,
    encoding: str = "utf-8",
) -> str:
    """Serialize (name, value) pairs as application/x-www-form-urlencoded.

    ``pairs`` is what ``urllib.parse.urlencode(pairs, doseq=True)`` takes: a
    mapping or an iterable of (name, value) pairs; a name or value that is not
    ``str`` or ``bytes`` is written as ``str()`` of it, and a value that is a
    sequence (list, tuple, ...) gives the name once per item.  Only the
    encoding differs from urlencode: this is the URL Standard's.

    URL Standard §5.2: each name and value is *percent-encoded after encoding*
    with the application/x-www-form-urlencoded set, space as ``+``, upper-case
    hex; pairs are joined with ``&``.  ``encoding`` is a WHATWG label: its
    output encoding is used (UTF-16 and replacement give UTF-8), and what it
    cannot represent is sent as ``&#N;`` (``%26%23N%3B``).  ``bytes`` names or
    values are percent-encoded as given.  A lone surrogate raises
    :class:`PercentEncodeError` (:class:`URLSearchParams` converts them to
    U+FFFD first, as WebIDL does).

    >>> serialize([("q", "café au lait"), ("x", "1+1=2")])
    'q=caf%C3%A9+au+lait&x=1%2B1%3D2'
    >>> serialize([("q", "€ ☃")], encoding="windows-1252")
    'q=%80+%26%239731%3B'
    >>> serialize({"tag": ["a b", "c"], "page": 2, "ok": True})
    'tag=a+b&tag=c&page=2&ok=True'
    """
    lst = pairs_list(pairs)
    if type(encoding) is not str or encoding not in _args.UTF8_LABELS:
        _args.check_label("encoding", encoding)
        name = lookup(encoding).output_encoding.name
        if name != "UTF-8":
            return _serialize_checked(lst, name)
    if not set(map(type, lst)) <= _PAIR_TYPES:
        # a 2-character str would unpack as a pair in the kernel
        return _serialize_checked(lst, "utf-8")
    try:
        return _core.form_serialize_kernel(lst)
    except (TypeError, ValueError):
        # a name or value of another type, a pair of another length, a lone
        # surrogate: the checked path raises our error, with the pair's index
        return _serialize_checked(lst, "utf-8")

_PAIR_TYPES = frozenset({tuple, list})


# With the C twin, serialize is a C entry: a list or tuple of (str | bytes)
# pairs in UTF-8 goes straight to the kernel, any other call to checked_serialize.
if TYPE_CHECKING:
    serialize = checked_serialize
else:
    serialize = _kernels.make_entry("serialize", checked_serialize)
