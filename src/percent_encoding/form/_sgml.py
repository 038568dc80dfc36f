"""Lynx's ``application/sgml-form-urlencoded``: a form body with ``;`` between the
pairs instead of ``&``, so that it can stand in an SGML/HTML attribute without
``&`` entity trouble.

Strategy: the names and values are written as the URL Standard's urlencoded
serializer writes them (UTF-8, space as ``+``), joined with ``;``; reading splits
on ``;`` only, with the URL Standard's parser otherwise.

Sources: the Lynx browser, which submits forms with this ``enctype`` with ``;``
between the pairs (as the SuikaWiki "application/x-www-form-urlencoded" page
records); HTML 4.01 §B.2.2 asks servers to accept ``;`` in place of ``&`` for the
same reason.  No spec defines the media type beyond that.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from ._parse import parse
from ._serialize import serialize

#: The media type Lynx sends such a form with.
SGML_FORM_URLENCODED: Final = "application/sgml-form-urlencoded"


def sgml_form_serialize(
    pairs: Iterable[tuple[str | bytes, str | bytes]], *, encoding: str = "utf-8"
) -> str:
    """Write ``(name, value)`` pairs as ``application/sgml-form-urlencoded`` (Lynx):
    the URL Standard §5.2 serializer's pairs, separated by ``;``.

    >>> sgml_form_serialize([("a", "1 2"), ("b", "x;y&z")])
    'a=1+2;b=x%3By%26z'
    """
    return serialize(pairs, encoding=encoding).replace("&", ";")


def sgml_form_parse(data: str | bytes, *, encoding: str | None = None) -> list[tuple[str, str]]:
    """Read an ``application/sgml-form-urlencoded`` body (Lynx): pairs split on ``;``
    (an ``&`` is data), then the URL Standard §5.1 parser's rules.

    >>> sgml_form_parse("a=1+2;b=x%3By&z")
    [('a', '1 2'), ('b', 'x;y&z')]
    """
    return parse(data, encoding=encoding, separators=";")
