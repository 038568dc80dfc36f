"""OpenURL's Key/Encoded-Value format (ANSI/NISO Z39.88-2004, "The OpenURL Framework
for Context-Sensitive Services", Part 2 "Character Encoding" and Part 3 "KEV
ContextObject Format", info:ofi/fmt:kev).

Strategy: a KEV string is ``key=value`` pairs joined by ``&``.  Values are text in
the character encoding that ``ctx_enc`` names (``info:ofi/enc:UTF-8`` by default and
in practice), percent-encoded; building writes the version keys first
(``url_ver=Z39.88-2004``, ``ctx_ver=Z39.88-2004``, ``ctx_enc``; the matrix of
info:ofi/fmt:kev:mtx:ctx gives ``ctx_ver`` its fixed value) unless the pairs
already have them, and escapes every octet outside RFC 2396 *unreserved* (the URI
syntax of 2004; a space is ``%20``).  Reading takes ``+`` as a space too (KEV strings
travel as form data), checks ``url_ver``/``ctx_ver`` when present, and decodes the
values with the encoding ``ctx_enc`` names, looked up as a WHATWG Encoding
Standard label.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from .. import core as _core
from .. import encodings as _encodings
from .._scheme import pairs_arg
from ..errors import PercentEncodingError, UnknownEncodingError
from ..sets import RFC2396

#: The version of the standard, the value of ``url_ver`` and ``ctx_ver``.
Z39_88_2004: Final = "Z39.88-2004"
_ENC_PREFIX: Final = "info:ofi/enc:"


def _enc(text: str | bytes, encoding: str) -> str:
    return _core.encode(text, RFC2396, encoding=encoding)


def openurl_kev(pairs: Iterable[tuple[str, str]], *, encoding: str = "utf-8") -> str:
    """Write a KEV ContextObject (Z39.88-2004 Part 3) from ``(key, value)`` pairs:
    ``url_ver``, ``ctx_ver`` and ``ctx_enc`` first when missing, then the pairs;
    values in ``encoding`` (named in ``ctx_enc``), everything but RFC 2396
    unreserved as ``%XX``.

    >>> openurl_kev([("rft.atitle", "Isolation of a common receptor")])
    'url_ver=Z39.88-2004&ctx_ver=Z39.88-2004&ctx_enc=info%3Aofi%2Fenc%3AUTF-8&rft.atitle=Isolation%20of%20a%20common%20receptor'
    """
    items = pairs_arg(pairs, "openurl_kev()")
    enc = _encodings.lookup(encoding)
    keys = {k.decode("ascii", "replace") if isinstance(k, bytes) else k for k, _ in items}
    head = [(k, v) for k, v in (("url_ver", Z39_88_2004), ("ctx_ver", Z39_88_2004),
                                ("ctx_enc", _ENC_PREFIX + enc.name)) if k not in keys]
    return "&".join(_enc(k, enc.name) + "=" + _enc(v, enc.name) for k, v in [*head, *items])


def openurl_kev_parse(data: str | bytes) -> list[tuple[str, str]]:
    """Read a KEV string (Z39.88-2004 Part 3): ``&``-separated pairs, values decoded
    with the encoding ``ctx_enc`` names (``info:ofi/enc:<charset>`` or the bare
    IANA charset name; UTF-8 without one).  A ``url_ver`` or ``ctx_ver`` other than
    ``Z39.88-2004``, or two different ``ctx_enc``, raise
    :class:`~percent_encoding.errors.PercentEncodingError`; an unknown charset
    :class:`~percent_encoding.errors.UnknownEncodingError`.

    >>> openurl_kev_parse("ctx_enc=info%3Aofi%2Fenc%3AISO-8859-1&rft.au=M%FCller")
    [('ctx_enc', 'info:ofi/enc:ISO-8859-1'), ('rft.au', 'Müller')]
    """
    from ._parse import parse

    ascii_view = parse(data, encoding="windows-1252")  # keys and version values are ASCII
    declared = [v for k, v in ascii_view if k == "ctx_enc"]
    encoding = "utf-8"
    if declared:
        if len(set(declared)) != 1:
            raise PercentEncodingError(f"ctx_enc is given more than once: {declared!r:.80}")
        # The registry's identifier (info:ofi/enc:UTF-8), or the IANA charset name that
        # the KEV ContextObject Format matrix speaks of.
        label = declared[0].removeprefix(_ENC_PREFIX)
        try:
            encoding = _encodings.lookup(label).name
        except UnknownEncodingError as e:
            raise UnknownEncodingError(f"ctx_enc {declared[0]!r}: {e}") from None
    for key in ("url_ver", "ctx_ver"):
        for k, v in ascii_view:
            if k == key and v != Z39_88_2004:
                raise PercentEncodingError(f"{key}={v!r:.40}: this is a Z39.88-2004 reader")
    return parse(data, encoding=encoding)
