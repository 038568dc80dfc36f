"""Small pieces of HTTP header syntax shared by :mod:`.oauth1` and :mod:`.rfc8187`.

RFC 7230 §3.2.6 (now RFC 9110 §5.6.4) quoted-string:
``DQUOTE *( qdtext / quoted-pair ) DQUOTE``.
"""

from __future__ import annotations

import re

# Written as an unrolled loop so that matching stays linear on any input.
_QUOTED = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"', re.DOTALL)
_QUOTED_PAIR = re.compile(r"\\(.)", re.DOTALL)


def read_quoted(header: str, start: int) -> tuple[str, int] | None:
    """Unescape the quoted-string that opens at ``header[start]``.

    Returns the value and the index just past the closing quote, or ``None``
    when the string is not terminated (callers raise their own error).

    >>> read_quoted('x="a\\\\"b" y', 2)
    ('a"b', 8)
    """
    m = _QUOTED.match(header, start)
    if m is None:
        return None
    value = m.group(1)
    if "\\" in value:
        value = _QUOTED_PAIR.sub(r"\1", value)
    return value, m.end()
