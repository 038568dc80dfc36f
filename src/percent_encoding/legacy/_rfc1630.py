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
sign in the search part).  RFC 1630 names no character encoding for text beyond
ASCII; ``encoding`` (UTF-8 by default, as the later RFCs 2718 §2.2.5 and 3986
§2.5 advise) chooses the octets.
"""

from __future__ import annotations

from typing import Final

from .. import _args
from .. import core as _core
from ..sets import HTML4_FORM
from ._common import Text, check, str_arg

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


def rfc1630_encode(text: Text, *, search: bool = True, encoding: str = "utf-8") -> str:
    """Escape ``text`` as RFC 1630 does: in the search part (the default) a space
    becomes ``+`` and ``+`` itself ``%2B``; with ``search=False`` (a path) ``+``
    stays and a space is ``%20``.  Alphanumerics and ``$-_@.&!*"'(),`` stay.

    >>> rfc1630_encode("a b+c=d")
    'a+b%2Bc%3Dd'
    >>> rfc1630_encode("a b+c", search=False)
    'a%20b+c'
    """
    data = check(text, "rfc1630_encode")
    in_search = _args.check_bool("search", search)
    return _core.encode(
        data,
        RFC1630_SEARCH if in_search else RFC1630_PATH,
        space_as_plus=in_search,
        encoding=str_arg(encoding, "encoding", "rfc1630_encode"),
    )


def rfc1630_decode(
    text: Text, *, search: bool = True, encoding: str = "utf-8", strict: bool = False
) -> str:
    """Undo :func:`rfc1630_encode`: ``%XX`` becomes its octet; in the search part
    (the default) ``+`` is a space.  A bad ``%`` is kept unless ``strict``.

    >>> rfc1630_decode("a+b%2Bc")
    'a b+c'
    >>> rfc1630_decode("a+b", search=False)
    'a+b'
    """
    data = check(text, "rfc1630_decode")
    return _core.decode_text(
        data,
        plus_as_space=_args.check_bool("search", search),
        encoding=str_arg(encoding, "encoding", "rfc1630_decode"),
        strict=_args.check_bool("strict", strict),
    )
