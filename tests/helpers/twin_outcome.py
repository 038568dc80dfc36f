"""What a call did, in a form two twins can be compared by.

Shared by tests/test_speedups.py and fuzz/fuzz_twins.py: a result with its
type, or an exception with its type, message, position and, for a
UnicodeError, everything it carries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Characters that reach deep into the decoders: escapes in both cases, bad
# escapes, the form delimiters, 2/3/4-byte UTF-8 and a lone surrogate.
ESCAPE_ALPHABET = "%%%+&=0123456789abcdefABCDEFgé日\U0001f600\ud800 "


def outcome(f: Callable[..., Any], *args: Any) -> tuple[Any, ...]:
    try:
        r = f(*args)
    except Exception as e:
        info: tuple[Any, ...] = (type(e), str(e), getattr(e, "position", None))
        if isinstance(e, UnicodeError):
            info += (e.start, e.end, e.reason, e.object)  # type: ignore[attr-defined]
        return ("raise", *info)
    return ("ok", type(r), r)
