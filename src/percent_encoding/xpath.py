"""The three URI-escaping functions of XPath and XQuery Functions and Operators 3.1.

Strategy: each function is :func:`percent_encoding.core.encode` with one
encode set; they differ only in what they leave alone (F&O 3.1 §6.2–§6.4):

========================  =============================================  ==========
function                  left as is                                     ``%`` kept
========================  =============================================  ==========
``fn:encode-for-uri``     RFC 3986 unreserved: ``A-Za-z0-9-._~``         no (%25)
``fn:iri-to-uri``         printable ASCII but space and ``<>"{}|\\^```     yes
``fn:escape-html-uri``    all printable ASCII, space included            yes
========================  =============================================  ==========

Everything else is written as its UTF-8 octets in ``%XX`` with upper-case
hex.  As in XPath, ``None`` (the empty sequence) gives ``""``.  A lone
surrogate (which no XPath string can hold) raises
:class:`PercentEncodeError`; a non-``str`` argument raises
:class:`PercentEncodingTypeError`.
"""

from __future__ import annotations

from . import core as _core
from ._scheme import Scheme
from .errors import PercentEncodingTypeError
from .sets import RFC3986_UNRESERVED, EncodeSet

__all__ = [
    "ENCODE_FOR_URI",
    "ESCAPE_HTML_URI",
    "IRI_TO_URI",
    "SCHEMES",
    "encode_for_uri",
    "escape_html_uri",
    "iri_to_uri",
]

_F_AND_O = "XPath and XQuery Functions and Operators 3.1 "
_PRINTABLE = "".join(map(chr, range(0x20, 0x7F)))

# §6.2: "all characters are escaped except those identified as unreserved by
# RFC 3986".  (XQuery 1.0's first edition still escaped "~".)
ENCODE_FOR_URI = RFC3986_UNRESERVED.named(
    "xpath-encode-for-uri", _F_AND_O + "§6.2 fn:encode-for-uri"
)
# §6.3: characters invalid in an IRI (the ten printable ones in its note) and
# everything outside x20-x7E are escaped; "%" is not, so escapes survive.
IRI_TO_URI = EncodeSet.from_allowed(
    "".join(c for c in _PRINTABLE if c not in ' <>"{}|\\^`'),
    name="xpath-iri-to-uri",
    spec=_F_AND_O + "§6.3 fn:iri-to-uri",
)
# §6.4: everything except the printable ASCII code points 32-126 is escaped.
ESCAPE_HTML_URI = EncodeSet.from_allowed(
    _PRINTABLE, name="xpath-escape-html-uri", spec=_F_AND_O + "§6.4 fn:escape-html-uri"
)


def _arg(value: object, func: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    raise PercentEncodingTypeError(f"{func}() takes a str or None, not {type(value).__name__}")


def encode_for_uri(uri_part: str | None) -> str:
    """``fn:encode-for-uri`` (F&O 3.1 §6.2): escape all but RFC 3986 unreserved.

    Not idempotent (``%`` becomes ``%25``), but invertible.

    >>> encode_for_uri("http://www.example.com/00/Weather/CA/Los%20Angeles#ocean")
    'http%3A%2F%2Fwww.example.com%2F00%2FWeather%2FCA%2FLos%2520Angeles%23ocean'
    >>> encode_for_uri("~bébé")
    '~b%C3%A9b%C3%A9'
    >>> encode_for_uri("100% organic")
    '100%25%20organic'
    """
    return _core.encode(_arg(uri_part, "encode_for_uri"), ENCODE_FOR_URI)


def iri_to_uri(iri: str | None) -> str:
    """``fn:iri-to-uri`` (F&O 3.1 §6.3): escape what a URI cannot contain.

    Space, ``<``, ``>``, ``"``, ``{``, ``}``, ``|``, ``\\``, ``^``, backquote,
    controls, DEL and all non-ASCII are escaped;
    ``%`` is not, so the function is idempotent but not invertible
    (``My Documents`` and ``My%20Documents`` both give ``My%20Documents``).

    >>> iri_to_uri("http://www.example.com/00/Weather/CA/Los%20Angeles#ocean")
    'http://www.example.com/00/Weather/CA/Los%20Angeles#ocean'
    >>> iri_to_uri("http://www.example.com/~bébé")
    'http://www.example.com/~b%C3%A9b%C3%A9'
    """
    return _core.encode(_arg(iri, "iri_to_uri"), IRI_TO_URI)


def escape_html_uri(uri: str | None) -> str:
    """``fn:escape-html-uri`` (F&O 3.1 §6.4): escape all but printable ASCII (32-126).

    Spaces and every other printable ASCII character stay, as HTML user
    agents treat URI attribute values (HTML 4.01 Appendix B.2.1).

    >>> escape_html_uri("http://www.example.com/00/Weather/CA/Los Angeles#ocean")
    'http://www.example.com/00/Weather/CA/Los Angeles#ocean'
    >>> escape_html_uri("window.open('http://www.example.com/~bébé');")
    "window.open('http://www.example.com/~b%C3%A9b%C3%A9');"
    """
    return _core.encode(_arg(uri, "escape_html_uri"), ESCAPE_HTML_URI)


def _enc_for_uri(text: str) -> str:
    return encode_for_uri(text)


def _iri_to_uri(text: str) -> str:
    return iri_to_uri(text)


def _escape_html_uri(text: str) -> str:
    return escape_html_uri(text)


def _decode(text: str) -> str:
    return _core.decode_text(text)


_FAMILY = "XPath and XQuery Functions and Operators 3.1"
SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="xpath-encode-for-uri",
        spec=_F_AND_O + "§6.2 fn:encode-for-uri",
        encode=_enc_for_uri,
        decode=_decode,
        encode_set=ENCODE_FOR_URI,
        notes="everything but A-Z a-z 0-9 - . _ ~ as UTF-8 %XX; '%' becomes %25 (invertible)",
        family=_FAMILY,
        plain=True,
        reversible=True,
    ),
    Scheme(
        name="xpath-iri-to-uri",
        spec=_F_AND_O + "§6.3 fn:iri-to-uri",
        encode=_iri_to_uri,
        decode=None,
        encode_set=IRI_TO_URI,
        notes=(
            "space, controls, DEL, <>\"{}|\\^` and non-ASCII as UTF-8 %XX; '%' kept "
            "(idempotent, not invertible: no decoder; see iri-to-uri for RFC 3987 §3.2)"
        ),
        family=_FAMILY,
        plain=True,
    ),
    Scheme(
        name="xpath-escape-html-uri",
        spec=_F_AND_O + "§6.4 fn:escape-html-uri",
        encode=_escape_html_uri,
        decode=None,
        encode_set=ESCAPE_HTML_URI,
        notes="only controls, DEL and non-ASCII as UTF-8 %XX; space and '%' kept",
        family=_FAMILY,
        plain=True,
    ),
)
