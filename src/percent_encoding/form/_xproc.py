"""XProc's ``p:www-form-urlencode`` and ``p:www-form-urldecode`` steps (XProc: An XML
Pipeline Language, W3C Recommendation 11 May 2010, the step sections
``#c.www-form-urlencode`` and ``#c.www-form-urldecode``; the same steps in XProc 2.0:
Standard Step Library, W3C Note 21 July 2016).

Strategy: the Recommendation's text of the two steps was not at hand (docs/forms.md
says what was searched); the rules here are those of XML Calabash, the processor of
the spec's editor (``WWWFormURLEncode.java``, ``WWWFormURLDecode.java``), with the
error codes the steps name.  Encoding writes ``name=value`` pairs joined by ``&``, a
parameter set holding each name once (a later value replaces an earlier one); a value
is UTF-8, a space is ``+``, and every octet is ``%XX`` except RFC 3986 *unreserved*
and *reserved* characters other than ``&`` and ``+``.  Decoding is strict: a value
that is not properly urlencoded (a ``%`` without two hex digits, bytes that are not
UTF-8, a pair without ``=``) is the dynamic error ``err:XC0037``, a name that is not
an ``xs:NCName`` is ``err:XC0061``, and a repeated name gives a parameter for each
occurrence, in order.  The error code starts the message.
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import _args
from .. import core as _core
from .._abnf import BAD_PERCENT, RESERVED
from .._scheme import pairs_arg
from ..errors import PercentEncodingError, TextDecodeError
from ..sets import RFC3986_UNRESERVED
from ._wsdl import NCNAME

#: What ``p:www-form-urlencode`` escapes in a value (XML Calabash): everything but RFC
#: 3986 unreserved and reserved characters, and ``&`` and ``+``; a space is ``+``.
XPROC_URLENCODE = RFC3986_UNRESERVED.remove(RESERVED.replace("&", "").replace("+", "")).named(
    "xproc-www-form-urlencode",
    "XProc 1.0 p:www-form-urlencode as XML Calabash writes it (all but RFC 3986 "
    "unreserved and reserved, and & and +; space as +)",
)


def xproc_www_form_urlencode(pairs: Iterable[tuple[str, str]]) -> str:
    """What ``p:www-form-urlencode`` (XProc 1.0, ``#c.www-form-urlencode``) makes of
    a parameter set: ``name=value`` pairs, a value UTF-8 with a space as ``+`` and
    everything but RFC 3986 unreserved and reserved characters (``&`` and ``+``
    excepted) as ``%XX``; a repeated name keeps its last value.  Parameter names are
    ``xs:NCName`` s; another name raises ``err:XC0061``
    (:class:`~percent_encoding.errors.PercentEncodingError`).

    >>> xproc_www_form_urlencode([("q", "a b+c"), ("url", "http://x/?y=1&z")])
    'q=a+b%2Bc&url=http://x/?y=1%26z'
    """
    params: dict[str, str | bytes] = {}
    for name, value in pairs_arg(pairs, "xproc_www_form_urlencode()"):
        text = name.decode("utf-8", "replace") if isinstance(name, bytes) else name
        if NCNAME.fullmatch(text) is None:
            raise PercentEncodingError(f"err:XC0061: parameter name {text!r:.40} is not an "
                                       "xs:NCName")
        params.pop(text, None)  # a parameter set: the later value, at its place
        params[text] = value
    return "&".join(
        n + "=" + _core.encode(v, XPROC_URLENCODE, space_as_plus=True) for n, v in params.items()
    )


def xproc_www_form_urldecode(value: str) -> list[tuple[str, str]]:
    """What ``p:www-form-urldecode`` (XProc 1.0, ``#c.www-form-urldecode``) makes of its ``value``
    option: the ``(name, value)`` parameters in order, a repeated name repeated.
    Not properly urlencoded: ``err:XC0037``; a name that is not an ``xs:NCName``:
    ``err:XC0061`` (both :class:`~percent_encoding.errors.PercentEncodingError`).

    >>> xproc_www_form_urldecode("q=a+b&lang=en%26fr&q=2")
    [('q', 'a b'), ('lang', 'en&fr'), ('q', '2')]
    """
    text: str = _args.check_str("value", value)
    bad = BAD_PERCENT.search(text)
    if bad is not None:
        raise PercentEncodingError(
            f"err:XC0037: the '%' at {bad.start()} is not followed by two hex digits"
        )
    out: list[tuple[str, str]] = []
    at = 0
    for field in text.split("&"):
        if field:
            name, eq, val = field.partition("=")
            if not eq:
                raise PercentEncodingError(f"err:XC0037: {field!r:.40} at {at} has no '='")
            try:
                pair = tuple(_core.decode_text(x, plus_as_space=True, errors="fatal")
                             for x in (name, val))
            except TextDecodeError as e:
                raise PercentEncodingError(f"err:XC0037: {field!r:.40} at {at} is not "
                                           f"UTF-8: {e}") from None
            if NCNAME.fullmatch(pair[0]) is None:
                raise PercentEncodingError(f"err:XC0061: parameter name {pair[0]!r:.40} is "
                                           "not an xs:NCName")
            out.append((pair[0], pair[1]))
        at += len(field) + 1
    return out
