"""What every legacy variant shares: argument checks and the bytes-to-text step.

Strategy: a data argument is str or bytes (bytearray and memoryview become
bytes), any other type is :class:`PercentEncodingTypeError`; decoders hand
back text, invalid UTF-8 becoming U+FFFD.
"""

from __future__ import annotations

from .. import _args
from .._abnf import BAD_PERCENT, BAD_PERCENT_BYTES

C0 = "".join(map(chr, range(0x20)))
Text = str | bytes


def check(data: object, func: str) -> Text:
    return _args.check_text("data", data, func)


def str_arg(value: object, arg: str, func: str) -> str:
    # Option arguments are validated here so a wrong type is our error, not a
    # builtin TypeError/AttributeError from deep inside.
    if arg == "encoding":
        return _args.check_label(arg, value)
    return _args.check_str(arg, value)  # type: ignore[no-any-return]


def to_text(raw: bytes) -> str:
    # Most of the originals hand back bytes (PHP, Go, Ruby) or a UTF-8 string;
    # Python callers get text, invalid UTF-8 becoming U+FFFD.  Use
    # percent_encoding.decode() when the bytes themselves are wanted.
    return raw.decode("utf-8", "replace")


def first_bad_percent(data: Text) -> int | None:
    m = BAD_PERCENT.search(data) if isinstance(data, str) else BAD_PERCENT_BYTES.search(data)
    return m.start() if m is not None else None
