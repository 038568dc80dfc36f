"""The charset of a request target declared in a header, as the expired draft
"Deterministic URI Encoding" proposed (draft-montenegro-httpbis-uri-encoding-00,
2014-02-13).

Strategy: the header value names one charset; :func:`parse_uri_encoding_header`
gives its label once ``encodings.lookup`` (the WHATWG Encoding Standard's labels)
knows it, and :func:`decode_with_uri_encoding` percent-decodes a request
target and decodes its octets with that encoding's decoder.

What is known of the draft: its datatracker page (authors O. Mazahir, D. Thaler,
M. Cox, G. Montenegro; revision -00 of 2014-02-13, expired 2014-08-17) gives only
its abstract: http and https URIs have no fixed character encoding, and the draft
defines HTTP headers that state it.  The issue behind it (httpwg/http2-spec #342,
2014-01-15) asked for the same determinism in HTTP/2.  The draft's text, with the header
names and their grammar, was not found; docs/legacy.md says what was searched and
what is chosen here: the value is one charset label (an RFC 9110 ``token`` or
``quoted-string``, optionally written ``charset=<label>``), surrounding
whitespace ignored, and any other shape refused.
"""

from __future__ import annotations

import re
from typing import Final

from .. import _args
from .. import core as _core
from .. import encodings as _encodings
from .._abnf import OWS, QUOTED_PAIR, QUOTED_STRING, TOKEN
from ..errors import PercentEncodingError

# One RFC 9110 §5.6.2 token or §5.6.4 quoted-string, optionally after "charset=", in OWS.
_VALUE: Final = re.compile(
    f"{OWS.pattern}(?:charset{OWS.pattern}={OWS.pattern})?"
    f"(?:({TOKEN.pattern})|{QUOTED_STRING.pattern}){OWS.pattern}",
    re.IGNORECASE | re.DOTALL,
)


def parse_uri_encoding_header(value: str) -> str:
    """The charset a "Deterministic URI Encoding" header value declares
    (draft-montenegro-httpbis-uri-encoding-00): its label as written, once
    checked to be a WHATWG Encoding Standard label (``encodings.lookup(label).name``
    gives the encoding's name).

    An unknown label raises :class:`~percent_encoding.errors.UnknownEncodingError`;
    a value that is not one label raises
    :class:`~percent_encoding.errors.PercentEncodingError`.

    >>> parse_uri_encoding_header("utf-8")
    'utf-8'
    >>> parse_uri_encoding_header(' charset="Shift_JIS" ')
    'Shift_JIS'
    """
    text: str = _args.check_str("value", value)
    m = _VALUE.fullmatch(text)
    if m is None:
        raise PercentEncodingError(
            f"{text!r:.60} is not one charset label (a token or a quoted string, "
            "optionally as charset=<label>)"
        )
    label: str = m.group(1) if m.group(1) is not None else QUOTED_PAIR.sub(r"\1", m.group(2))
    _encodings.lookup(label)  # an unknown label is refused here, not when decoding
    return label


def build_uri_encoding_header(encoding: str) -> str:
    """The header value that declares ``encoding`` (any WHATWG label), written as
    the encoding's name; :func:`parse_uri_encoding_header` reads it back.

    >>> build_uri_encoding_header("latin1")
    'windows-1252'
    """
    return _encodings.lookup(_args.check_label("encoding", encoding)).name


def decode_with_uri_encoding(target: str | bytes, header_value: str | None) -> str:
    """Percent-decode a request target and decode its octets with the charset
    ``header_value`` declares (draft-montenegro-httpbis-uri-encoding-00); with no
    header (``None``) UTF-8, as RFC 3986 §2.5 advises.  Invalid octets become
    U+FFFD (the Encoding Standard's decoders); a bad ``%`` is kept.

    >>> decode_with_uri_encoding("/%82%A0?q=%82%A2", "Shift_JIS")
    '/あ?q=い'
    """
    data = _args.check_text("target", target, "decode_with_uri_encoding")
    label = "utf-8" if header_value is None else parse_uri_encoding_header(header_value)
    return _core.decode_text(data, encoding=label)
