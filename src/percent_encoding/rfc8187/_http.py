"""Small pieces of HTTP header syntax shared by :mod:`.oauth1` and :mod:`.rfc8187`.

RFC 7230 §3.2.6 (now RFC 9110 §5.6.4) quoted-string:
``DQUOTE *( qdtext / quoted-pair ) DQUOTE``; the patterns (and token, OWS) are in
:mod:`._abnf`.
"""

from __future__ import annotations

from .._abnf import QUOTED_PAIR, QUOTED_STRING


def read_quoted(header: str, start: int) -> tuple[str, int] | None:
    """Unescape the quoted-string that opens at ``header[start]``.

    Returns the value and the index just past the closing quote, or ``None``
    when the string is not terminated (callers raise their own error).

    >>> read_quoted('x="a\\\\"b" y', 2)
    ('a"b', 8)
    """
    m = QUOTED_STRING.match(header, start)
    if m is None:
        return None
    value = m.group(1)
    if "\\" in value:
        value = QUOTED_PAIR.sub(r"\1", value)
    return value, m.end()
