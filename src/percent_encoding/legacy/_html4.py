"""Form encodings before the URL Standard: HTML 4.01 and XForms 1.0.

Strategy: line breaks become CRLF, then each name and value is encoded with
the spec's set (space as ``+`` in HTML 4) and the pairs are joined with the
separator the spec names.

Specs: HTML 4.01 §17.13.4.1 (application/x-www-form-urlencoded); XForms 1.0
§11.6 (urlencoded serialization) and §3.3.3 (the separator attribute).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .. import _args
from .. import core as _core
from ..errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
)
from ..sets import (
    HTML4_FORM,
    RFC3986_UNRESERVED,
    XFORMS_URLENCODED,
    EncodeSet,
)
from ._common import Text, check, str_arg

_NEWLINES = re.compile(r"\r\n|\r|\n")
_Pairs = Mapping[str, str] | Sequence[tuple[str, str]]


def _crlf(text: Text) -> Text:
    # HTML 4.01 §17.13.4.1 and XForms 1.0 §11.6: line breaks are sent as CR LF.
    if isinstance(text, str):
        return _NEWLINES.sub("\r\n", text) if ("\r" in text or "\n" in text) else text
    return re.sub(rb"\r\n|\r|\n", b"\r\n", text)


def _pairs(pairs: _Pairs, func: str) -> list[tuple[Text, Text]]:
    items: list[Any]
    if isinstance(pairs, Mapping):
        items = list(pairs.items())
    elif isinstance(pairs, (str, bytes, bytearray)) or not hasattr(pairs, "__iter__"):
        raise PercentEncodingTypeError(
            f"{func}() takes a mapping or (name, value) pairs, not {type(pairs).__name__}"
        )
    else:
        items = list(pairs)
    out: list[tuple[Text, Text]] = []
    for item in items:
        if not isinstance(item, tuple) or len(item) != 2:
            raise PercentEncodingTypeError(f"{func}() takes (name, value) pairs, got {item!r}")
        out.append((check(item[0], func), check(item[1], func)))
    return out


@_args.renamed_keyword("text", "data")
def html4_form_encode_component(data: Text, *, encoding: str = "utf-8") -> str:
    """One name or value as HTML 4.01 §17.13.4.1 escapes it: line breaks as
    ``%0D%0A``, space as ``+``, every other non-alphanumeric as ``%HH``.

    HTML 4 leaves the charset open (§17.13.1 expects ASCII); browsers used the
    page's or ``accept-charset``'s, so ``encoding`` takes a WHATWG label
    (characters it cannot represent are sent as ``&#N;``, as browsers do).

    >>> html4_form_encode_component("a b-c\\n")
    'a+b%2Dc%0D%0A'
    """
    t = _crlf(check(data, "html4_form_encode_component"))
    enc = str_arg(encoding, "encoding", "html4_form_encode_component")
    return _core.encode(t, HTML4_FORM, encoding=enc, space_as_plus=True)


def html4_form_encode(pairs: _Pairs, *, encoding: str = "utf-8", separator: str = "&") -> str:
    """A form data set as an HTML 4.01 §17.13.4.1 ``application/x-www-form-urlencoded``
    body: ``name=value`` joined by ``&`` (HTML 4.01 Appendix B.2.2 asks servers
    to accept ``;`` too; pass ``separator=";"`` to send it).

    >>> html4_form_encode([("q", "a b"), ("lang", "en-GB")])
    'q=a+b&lang=en%2DGB'
    """
    str_arg(separator, "separator", "html4_form_encode")
    str_arg(encoding, "encoding", "html4_form_encode")
    return separator.join(
        html4_form_encode_component(k, encoding=encoding)
        + "="
        + html4_form_encode_component(v, encoding=encoding)
        for k, v in _pairs(pairs, "html4_form_encode")
    )


def html4_form_decode(
    body: Text, *, encoding: str = "utf-8", separators: str = "&;"
) -> list[tuple[str, str]]:
    """Parse a form body the way an HTML 4 era server would: split on ``&``
    and ``;`` (Appendix B.2.2), ``+`` as space, ``%XX`` decoded, text decoded
    with ``encoding``; empty pieces are skipped, a piece without ``=`` is a
    name with an empty value.

    >>> html4_form_decode("a=1;b=x+y&c")
    [('a', '1'), ('b', 'x y'), ('c', '')]
    """
    b = check(body, "html4_form_decode")
    s = b if isinstance(b, str) else b.decode("latin-1")
    str_arg(separators, "separators", "html4_form_decode")
    str_arg(encoding, "encoding", "html4_form_decode")
    if not separators:
        raise PercentEncodingError("html4_form_decode(): separators must not be empty")
    out: list[tuple[str, str]] = []
    for piece in re.split("[" + re.escape(separators) + "]", s):
        if not piece:
            continue
        name, _, value = piece.partition("=")
        raw_n = name.encode("latin-1") if isinstance(b, bytes) else name
        raw_v = value.encode("latin-1") if isinstance(b, bytes) else value
        out.append(
            (
                _core.decode_text(raw_n, encoding=encoding, plus_as_space=True),
                _core.decode_text(raw_v, encoding=encoding, plus_as_space=True),
            )
        )
    return out


# XForms 1.0 §11.6 escapes "reserved characters (as defined by RFC 2396 as amended
# by subsequent documents in the IETF track)", read as URI escaping (RFC 2396 §2.4:
# what is not unreserved is escaped).  Which RFC amends it changes what that is:
# RFC 2732 §3 moves [ ] from "unwise" to reserved (escaped either way, so the same
# set); RFC 3986 §2.2-2.3 makes ! * ' ( ) reserved sub-delims (escaped from then on).
_XFORMS_RESERVED = ("rfc2396", "rfc2732", "rfc3986")


def _xforms_set(reserved: str, func: str) -> EncodeSet:
    if reserved == "rfc2396" or reserved == "rfc2732":
        return XFORMS_URLENCODED
    if reserved == "rfc3986":
        return RFC3986_UNRESERVED
    str_arg(reserved, "reserved", func)
    raise PercentEncodingError(
        f"{func}(): reserved={reserved!r} is not one of 'rfc2396', 'rfc2732', 'rfc3986'"
    )


@_args.renamed_keyword("text", "data")
def xforms_encode_component(data: Text, *, reserved: str = "rfc2396") -> str:
    """One name or value as XForms 1.0 §11.6 escapes it: UTF-8, upper-case
    hex, space as ``+``, line breaks as ``%0D%0A``.

    The section names non-ASCII and RFC 2396 *reserved* characters; escaping
    there means RFC 2396 §2.4, which also requires the *excluded* characters
    (controls, space, delims, unwise) to be escaped, so everything but
    *unreserved* (alphanumerics and ``-_.!~*'()``) is ``%XX``.

    ``reserved`` picks the RFC that "as amended by subsequent documents"
    brings in: ``"rfc2396"`` (the default), ``"rfc2732"`` (``[`` and ``]``
    become reserved, RFC 2732 §3; they were "unwise" and escaped already, so
    the output is the same) or ``"rfc3986"`` (``!*'()`` are reserved
    sub-delims, RFC 3986 §2.2, and are escaped too; only ``A-Za-z0-9-._~``
    stays).

    >>> xforms_encode_component("a b;c~")
    'a+b%3Bc~'
    >>> xforms_encode_component("it's [x]!", reserved="rfc3986")
    'it%27s+%5Bx%5D%21'
    """
    t = _crlf(check(data, "xforms_encode_component"))
    enc_set = XFORMS_URLENCODED if reserved == "rfc2396" else _xforms_set(
        reserved, "xforms_encode_component")
    return _core.encode(t, enc_set, space_as_plus=True)


def xforms_urlencode(
    pairs: _Pairs, *, separator: str = ";", terminate: bool = True, reserved: str = "rfc2396"
) -> str:
    """XForms 1.0 §11.6 serialization: each leaf element becomes
    ``EltName=value{sep}`` and the pieces are concatenated in document order, so
    every pair, the last one included, is followed by the ``submission``
    element's ``separator`` (default ``;`` in XForms 1.0, §3.3.3).

    XForms 1.1 (§11.9.8) puts the separator only *between* pairs and defaults
    to ``&``: pass ``terminate=False, separator="&"`` for that.

    ``reserved`` says which RFC defines the reserved characters that
    §11.6 escapes: ``"rfc2396"`` (default), ``"rfc2732"`` (same output) or
    ``"rfc3986"`` (``!*'()`` escaped too); see :func:`xforms_encode_component`.

    >>> xforms_urlencode([("GivenName", "René")])
    'GivenName=Ren%C3%A9;'
    >>> xforms_urlencode([("a", "J. Doe"), ("b", "x")], separator="&", terminate=False)
    'a=J.+Doe&b=x'
    >>> xforms_urlencode([("q", "(it's)")], reserved="rfc3986")
    'q=%28it%27s%29;'
    """
    if reserved != "rfc2396":
        _xforms_set(reserved, "xforms_urlencode")
    str_arg(separator, "separator", "xforms_urlencode")
    if separator not in ("&", ";"):
        raise PercentEncodingError(
            f"xforms_urlencode(): XForms allows '&' or ';' as the separator, not {separator!r}"
        )
    parts = [
        xforms_encode_component(k, reserved=reserved) + "="
        + xforms_encode_component(v, reserved=reserved)
        for k, v in _pairs(pairs, "xforms_urlencode")
    ]
    if terminate:
        return "".join(p + separator for p in parts)
    return separator.join(parts)
