"""Ruby's ``CGI.escape`` / ``CGI.unescape`` and
``URI.encode_www_form_component`` / ``URI.decode_www_form_component``.

Strategy: each is the core encoder or decoder with Ruby's set and space as
``+``; ``CGI.unescape`` keeps a malformed ``%``, ``URI``'s decoder raises
:class:`PercentDecodeError` on it, as Ruby raises ``ArgumentError``.

Source: Ruby ``lib/cgi/escape.rb`` (and ``ext/cgi/escape``) and
``lib/uri/common.rb``.
"""

from __future__ import annotations

from typing import Final

from .. import core as _core
from ..errors import (
    PercentDecodeError,
    TextDecodeError,
)
from ..sets import (
    FORM_URLENCODED,
    RFC3986_UNRESERVED,
)
from ._common import Text, check, first_bad_percent, to_text

RUBY_CGI_SET: Final = RFC3986_UNRESERVED.named(
    "ruby-CGI.escape", "Ruby cgi/escape.rb CGI.escape ([^ a-zA-Z0-9_.\\-~])"
)
# URI.encode_www_form_component keeps *-._ and alphanumerics: the WHATWG
# application/x-www-form-urlencoded set.
RUBY_WWW_FORM_SET: Final = FORM_URLENCODED.named(
    "ruby-encode_www_form_component",
    "Ruby uri/common.rb URI.encode_www_form_component ([^*\\-.0-9A-Z_a-z])",
)


def ruby_cgi_escape(data: Text) -> str:
    """Ruby's ``CGI.escape``: alphanumerics and ``_.-~`` stay, space is ``+``,
    every other byte ``%XX``.

    >>> ruby_cgi_escape("'Stop!' said Fred")
    '%27Stop%21%27+said+Fred'
    """
    return _core.encode(check(data, "ruby_cgi_escape"), RUBY_CGI_SET, space_as_plus=True)


def ruby_cgi_unescape(data: Text) -> str:
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
    d = check(data, "ruby_cgi_unescape")
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
    return to_text(_core.decode(d[:cut], plus_as_space=True) + d[cut:])


def ruby_encode_www_form_component(data: Text) -> str:
    """Ruby's ``URI.encode_www_form_component``: ``*-._`` and alphanumerics
    stay, space is ``+``, the rest ``%XX`` (``~`` too).

    >>> ruby_encode_www_form_component("Ruby ~*")
    'Ruby+%7E*'
    """
    return _core.encode(
        check(data, "ruby_encode_www_form_component"), RUBY_WWW_FORM_SET, space_as_plus=True
    )


def ruby_decode_www_form_component(data: Text) -> str:
    """Ruby's ``URI.decode_www_form_component``: a ``%`` without two hex
    digits raises (Ruby's ``ArgumentError``; here :class:`PercentDecodeError`;
    bytes that are not UTF-8 raise :class:`TextDecodeError`), then ``+`` is
    space and ``%XX`` its byte.

    >>> ruby_decode_www_form_component("Ruby+%7E*")
    'Ruby ~*'
    """
    d = check(data, "ruby_decode_www_form_component")
    if isinstance(d, bytes):
        try:
            d.decode("utf-8")
        except UnicodeDecodeError as e:
            # Ruby's regexp match raises ArgumentError on a broken UTF-8 string.
            raise TextDecodeError(
                f"invalid byte sequence in UTF-8 at byte {e.start}", e.start
            ) from None
    pos = first_bad_percent(d)
    if pos is not None:
        raise PercentDecodeError(f"invalid %-encoding at position {pos}", pos)
    return to_text(_core.decode(d, plus_as_space=True))
