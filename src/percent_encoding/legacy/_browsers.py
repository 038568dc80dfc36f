"""Historic browsers' ``decodeURIComponent``: two quirks the SuikaWiki notes
record, each as a named decoder beside :mod:`percent_encoding.ecmascript`.

Strategy: everything but the quirk is ECMA-262 ``decodeURIComponent``
(:func:`percent_encoding.ecmascript.decode_uri_component`), results and
``URIError`` positions alike.  In input that decodes at all, every ``%`` starts a
three-character escape, so a quirk can be applied to whole escapes found by a
left-to-right scan:

* Firefox 2 gave U+FFFD for the noncharacters U+FFFE and U+FFFF
  (``%EF%BF%BE``, ``%EF%BF%BF``); the escapes are rewritten to ``%EF%BF%BD``
  (same length, so error positions stay) before decoding.
* Opera 9 left ``%00`` as it was; the text between ``%00`` escapes is decoded
  piece by piece (a ``%00`` is a whole UTF-8 sequence, so no character spans
  one) and an error's position is moved to where it is in the whole input.

Sources: the SuikaWiki "percent-encoding" page, history notes [145] (Firefox 2;
not WinIE 6 or Opera 9) and [146] (Opera 9; not Firefox 2 or WinIE 6); the
browsers' own code is not public for Opera and is long gone for Firefox 2.
ECMA-262 §19.2.6.2 (decodeURIComponent) for everything else.
"""

from __future__ import annotations

import re
from typing import Final

from .. import _args
from ..ecmascript import decode_uri_component
from ..errors import URIError

_NONCHAR: Final = re.compile("%EF%BF%B[EF]", re.IGNORECASE)
_UNIT: Final = re.compile(r"code unit \d+")


def _units(text: str) -> int:
    # UTF-16 code units, as URIError positions count them.
    return len(text) + sum(1 for c in text if c > "\uffff")


def firefox2_decode_uri_component(s: str) -> str:
    """``decodeURIComponent`` as Firefox 2 ran it: ECMA-262 §19.2.6.2, except that
    ``%EF%BF%BE`` and ``%EF%BF%BF`` (U+FFFE, U+FFFF) decode to U+FFFD (SuikaWiki
    percent-encoding [145]).  Errors are ECMA-262's ``URIError``.

    >>> firefox2_decode_uri_component("a%EF%BF%BFb%C3%A9")
    'a\\ufffdbé'
    """
    text = _args.check_str_input("firefox2_decode_uri_component", s)
    return decode_uri_component(_NONCHAR.sub("%EF%BF%BD", text))


def opera9_decode_uri_component(s: str) -> str:
    """``decodeURIComponent`` as Opera 9 ran it: ECMA-262 §19.2.6.2, except that
    ``%00`` is left undecoded (SuikaWiki percent-encoding [146]).  Errors are
    ECMA-262's ``URIError``, with their position in the whole input.

    >>> opera9_decode_uri_component("a%00b%20c")
    'a%00b c'
    """
    text = _args.check_str_input("opera9_decode_uri_component", s)
    if "%00" not in text:
        return decode_uri_component(text)
    out: list[str] = []
    start = 0
    for piece in text.split("%00"):
        try:
            out.append(decode_uri_component(piece))
        except URIError as e:
            if e.position is None:
                raise
            at = e.position + _units(text[:start])
            raise URIError(_UNIT.sub(f"code unit {at}", str(e)), at) from None
        start += len(piece) + 3
    return "%00".join(out)
