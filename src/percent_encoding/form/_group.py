"""Bracket names grouped into lists: ``group``.

Strategy: form bodies carry flat (name, value) pairs; Micropub (W3C
Recommendation 2017, §3.3.2 "Form-encoded and Multipart Requests") marks a
property with several values by ending its name in ``[]``
(``category[]=a&category[]=b``).  ``group`` folds parsed pairs into a dict:
a ``[]`` name always gives a list (even of one value), a plain name its
value.  Nothing is dropped: a plain name that repeats, or that also occurs
with ``[]``, gives the list of all its values in order.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import PercentEncodingTypeError
from ._serialize import check_pair, pairs_list


def group(pairs: Iterable[tuple[str, str]]) -> dict[str, str | list[str]]:
    """Pairs grouped by name with Micropub's ``[]`` convention (Micropub §3.3.2).

    >>> group([("h", "entry"), ("category[]", "a"), ("category[]", "b")])
    {'h': 'entry', 'category': ['a', 'b']}
    >>> group([("tag[]", "x"), ("q", "1"), ("q", "2")])
    {'tag': ['x'], 'q': ['1', '2']}
    """
    if isinstance(pairs, (str, bytes)):
        raise PercentEncodingTypeError("group() takes (name, value) pairs; parse the body first")
    out: dict[str, str | list[str]] = {}
    for i, pair in enumerate(pairs_list(pairs)):
        name, value = check_pair(pair, i)
        if not isinstance(name, str) or not isinstance(value, str):
            raise PercentEncodingTypeError(f"pair {i}: names and values must be str")
        many = name.endswith("[]")
        key = name[:-2] if many else name
        old = out.get(key)
        if old is None:
            out[key] = [value] if many else value
        elif isinstance(old, list):
            old.append(value)
        else:
            out[key] = [old, value]
    return out
