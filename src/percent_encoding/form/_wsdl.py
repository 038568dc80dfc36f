"""WSDL 2.0's HTTP binding: the instance data of a message written as
``application/x-www-form-urlencoded`` (W3C Recommendation 26 June 2007, "Web Services
Description Language (WSDL) Version 2.0 Part 2: Adjuncts", §6.8.2 "Serialization as
application/x-www-form-urlencoded").

Strategy: each child element of the instance data is one pair, its local name (an
``xs:NCName``) and its text.  A value is UTF-8 and every octet outside RFC 3986
*unreserved* is percent-encoded (a space is ``%20``; the spec's example town
``Fréjus`` is ``Fr%C3%A9jus``); pairs are joined by the operation's
``{http query parameter separator}``, ``&`` unless the binding sets another single
character (``whttp:queryParameterSeparator``; ``;`` is the other one in use).  Only
the Recommendation's contents and the working group's discussion of the separator
were at hand, not the section's text: docs/forms.md says so, and what was chosen.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

from .. import _args
from .. import core as _core
from .._scheme import pairs_arg
from ..errors import PercentEncodingError
from ..sets import RFC3986_UNRESERVED

# XML Namespaces' NCName, ASCII and BMP letters (the WSDL component model's element names).
NCNAME: Final = re.compile(
    "[A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff]"
    "[A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d"
    "\u2070-\u218f\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
    "\\-.0-9\u00b7\u0300-\u036f\u203f-\u2040]*"
)


def wsdl_urlencode(pairs: Iterable[tuple[str, str]], *, separator: str = "&") -> str:
    """Serialize a message's instance data (element local name, text) as WSDL 2.0
    Adjuncts §6.8.2 does: UTF-8, everything but RFC 3986 unreserved as ``%XX``,
    pairs joined by ``separator`` (the ``{http query parameter separator}``, ``&``
    by default).  A name that is not an ``xs:NCName``, or a separator that is not
    one character that would be escaped in a value, raises
    :class:`~percent_encoding.errors.PercentEncodingError`.

    >>> wsdl_urlencode([("city", "São Paulo"), ("n", "1&2")])
    'city=S%C3%A3o%20Paulo&n=1%262'
    >>> wsdl_urlencode([("a", "1"), ("b", "2")], separator=";")
    'a=1;b=2'
    """
    sep: str = _args.check_str("separator", separator)
    if len(sep) != 1 or not sep.isascii() or not RFC3986_UNRESERVED.encodes(ord(sep)) or (
            sep in "=%"):
        raise PercentEncodingError(
            f"{sep!r:.20} cannot be the query parameter separator: WSDL 2.0 takes one "
            "character, and it must be one that a value escapes ('&' or ';')"
        )
    out = []
    for name, value in pairs_arg(pairs, "wsdl_urlencode()"):
        text = name.decode("utf-8") if isinstance(name, bytes) else name
        if NCNAME.fullmatch(text) is None:
            raise PercentEncodingError(
                f"{text!r:.40} is not an element local name (xs:NCName), which WSDL 2.0 "
                "serializes as the parameter name"
            )
        out.append(
            _core.encode(text, RFC3986_UNRESERVED) + "=" + _core.encode(value, RFC3986_UNRESERVED)
        )
    return sep.join(out)
