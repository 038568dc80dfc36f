"""What the rfc8187 package hands its sibling modules, and the one place they take it from.

``oauth1`` reads the quoted-strings of an ``Authorization: OAuth`` header with the same
reader as the header parameters (:mod:`._http`); it is not public API of
:mod:`percent_encoding.rfc8187`, so it is re-exported here rather than from ``__init__``.

Spec: RFC 9110 §5.6.4 (quoted-string and quoted-pair).
"""

from __future__ import annotations

from ._http import read_quoted as read_quoted
