"""What the detect package hands its sibling modules, and the one place they take it from.

``_tool`` (the CLI's and the web tool's shared layer) asks whether a string starts like
a URL the way :func:`percent_encoding.detect.diagnose` does with ``context="auto"``
(:mod:`._diagnose`); that pattern is not public API, so it is re-exported here.

Spec: RFC 3986 §3.1 (a scheme, then ``://``: the shape that marks a URL).
"""

from __future__ import annotations

from ._diagnose import LOOKS_LIKE_URL as LOOKS_LIKE_URL
