"""URIs in WWW as RFC 1630 (June 1994) wrote them: its encoding rules, with ``+``
standing for a space in the search part.

Strategy: plain percent-encoding with the RFC's own set (what its BNF allows
unescaped in an ``xalpha`` stays: alphanumerics, *safe* ``$-_@.&+`` and *extra*
``!*"'(),``), through :func:`percent_encoding.encode`.  In the search part
(after ``?``) ``+`` is shorthand for a space, so a space is written ``+`` and a
real ``+`` is escaped; in a path ``+`` is an ``xpalpha`` and stays, and a space
is ``%20``.

Spec: RFC 1630 "Universal Resource Identifiers in WWW", "Encoding rules" / the
BNF (``xalpha``, ``safe``, ``extra``, ``escape``) and "Query strings" (the plus
sign in the search part).  Its "Encoding rules" make the two hex digits "the ISO
Latin 1 code" of the character: by default (``encoding=None``) an escape is the
code point of a character up to U+00FF (U+0080-U+009F included, unlike the WHATWG
``iso-8859-1`` label, which is windows-1252), a character beyond it has no code and
raises :class:`~percent_encoding.errors.PercentEncodeError`, and decoding reads
each octet as the character with that code.  A WHATWG label in ``encoding``
(``"utf-8"``, as the later RFCs 2718 §2.2.5 and 3986 §2.5 advise) chooses other
octets.
"""

from __future__ import annotations

import re
from typing import Final

from .. import _args
from .. import core as _core
from ..errors import PercentEncodeError
from ..sets import HTML4_FORM
from ._common import Text, check, str_arg

# "Encoding rules": an escape gives a character's ISO Latin 1 code; these have none.
_BEYOND_LATIN_1: Final = re.compile("[^\x00-\xff]")

# The BNF's xalpha without escape: alpha | digit | safe | extra (safe lists "-" twice).
_XALPHA_PUNCT: Final = "$-_@.&+!*\"'(),"

#: What RFC 1630 escapes in a path: everything that is not an ``xpalpha``.
RFC1630_PATH: Final = HTML4_FORM.remove(_XALPHA_PUNCT).named(
    "rfc1630-path", "RFC 1630 BNF: everything but xpalpha (alphanumerics, $-_@.&+!*\"'(),)"
)
#: What RFC 1630 escapes in the search part: as in a path, and ``+`` (a space is ``+``).
RFC1630_SEARCH: Final = RFC1630_PATH.add("+").named(
    "rfc1630", "RFC 1630 BNF and 'Query strings': everything but xalpha; '+' is a space"
)


def _latin_1(data: Text) -> Text:
    # RFC 1630 "Encoding rules": the ISO Latin 1 code of each character is its octet.
    if isinstance(data, bytes):
        return data
    m = _BEYOND_LATIN_1.search(data)
    if m is not None:
        raise PercentEncodeError(
            f"U+{ord(m.group()):04X} at position {m.start()} has no ISO Latin 1 code, which "
            "RFC 1630's escapes give; pass encoding='utf-8' (or another label) for other octets",
            m.start(),
        )
    return data.encode("latin-1")


def rfc1630_encode(text: Text, *, search: bool = True, encoding: str | None = None) -> str:
    """Escape ``text`` as RFC 1630 does: in the search part (the default) a space
    becomes ``+`` and ``+`` itself ``%2B``; with ``search=False`` (a path) ``+``
    stays and a space is ``%20``.  Alphanumerics and ``$-_@.&!*"'(),`` stay.  An
    escape gives the character's ISO Latin 1 code ("Encoding rules"); a character
    beyond U+00FF raises :class:`~percent_encoding.errors.PercentEncodeError` unless
    ``encoding`` names another encoding (a WHATWG label).

    >>> rfc1630_encode("a b+c=d")
    'a+b%2Bc%3Dd'
    >>> rfc1630_encode("a b+c", search=False)
    'a%20b+c'
    >>> rfc1630_encode("caf\u00e9")
    'caf%E9'
    """
    data = check(text, "rfc1630_encode")
    in_search = _args.check_bool("search", search)
    label = None if encoding is None else str_arg(encoding, "encoding", "rfc1630_encode")
    es = RFC1630_SEARCH if in_search else RFC1630_PATH
    if label is None:
        return _core.encode(_latin_1(data), es, space_as_plus=in_search)
    return _core.encode(data, es, space_as_plus=in_search, encoding=label)


def rfc1630_decode(
    text: Text, *, search: bool = True, encoding: str | None = None, strict: bool = False
) -> str:
    """Undo :func:`rfc1630_encode`: ``%XX`` becomes the character with ISO Latin 1
    code ``XX`` (or, with ``encoding``, the octet, decoded with that WHATWG label);
    in the search part (the default) ``+`` is a space.  A bad ``%`` is kept unless
    ``strict``.

    >>> rfc1630_decode("a+b%2Bc%E9")
    'a b+c\u00e9'
    >>> rfc1630_decode("a+b", search=False)
    'a+b'
    """
    data = check(text, "rfc1630_decode")
    plus = _args.check_bool("search", search)
    bad = _args.check_bool("strict", strict)
    if encoding is None:
        return _core.decode(data, plus_as_space=plus, strict=bad).decode("latin-1")
    return _core.decode_text(
        data,
        plus_as_space=plus,
        encoding=str_arg(encoding, "encoding", "rfc1630_decode"),
        strict=bad,
    )
