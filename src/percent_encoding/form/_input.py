"""The input side of urlencoded parsing: argument checks, rewrites, and the limits scan.

Everything :func:`~percent_encoding.form.parse`, :func:`parse_bytes` and
:class:`FormParser` do to the input before a kernel sees it: check the arguments,
turn a lone surrogate into U+FFFD (the string parser UTF-8 encodes its input, URL
Standard §5.1, which needs scalar values), rewrite extra separators to one (HTML 4.01
§B.2.2 allows ``;``), escape a literal ``&`` when it is not a separator, find a
first field without ``=`` (the pre-2016 URL Standard's isindex flag), and count
fields and sizes against ``max_fields``/``max_field_size``/``max_total`` while
scanning, so crossing a limit costs no more than the limit.
"""

from __future__ import annotations

import re

from .. import _args
from .._abnf import LONE_SURROGATE
from ..core import to_usv_string
from ..errors import (
    FormLimitError,
    PercentDecodeError,
    PercentEncodingError,
)

Errors = _args.DecodeErrors
Text = str | bytes
Pair = tuple[str, str]

# Characters a separator may not be: they mean something inside a field.
_NOT_SEPARATORS = frozenset("=+%") | frozenset("0123456789ABCDEFabcdef")


# --------------------------------------------------------------------------------------------
# Argument helpers


def check_data(data: object, func: str) -> Text:
    return _args.check_text("data", data, func)


def check_errors(errors: str) -> bool:
    """True for "fatal" (or its synonym "strict"), False for "replace"."""
    if errors == "replace":
        return False
    return _args.is_fatal(errors)


def check_strict(strict: bool | None) -> bool | None:
    # strict= is the %-syntax switch everywhere (docs/options.md).  Before it
    # existed here, errors="strict" covered a bad "%" too; strict=None keeps
    # that for now (with a DeprecationWarning when a bad "%" is actually met)
    # and will mean False in a later release.
    return None if strict is None else _args.check_bool("strict", strict)


BAD_PERCENT_UNDER_ERRORS = (
    "a bad '%' raising because of errors='fatal'/'strict' is deprecated: errors= is "
    "about text decoding only; pass strict=True to keep rejecting bad escapes "
    "(or strict=False to keep them as they are)"
)



def check_separators(separators: str) -> str:
    _args.check_str("separators", separators)
    if not separators:
        raise PercentEncodingError(
            "separators must name at least one character, e.g. '&' or '&;'"
        )
    for ch in separators:
        if not ch.isascii() or ch in _NOT_SEPARATORS:
            raise PercentEncodingError(
                f"{ch!r} cannot be a separator: use ASCII characters other than "
                "'=', '+', '%' and hex digits (e.g. '&;')"
            )
    return separators


def check_limit(value: int | None, name: str) -> int | None:
    return _args.check_int_limit(name, value)  # type: ignore[no-any-return]


def check_flag(value: object, name: str) -> bool:
    # A flag that is not a bool is a mistake (isindex=object() would swap a
    # name and value silently), as the core functions' flags are checked.
    return _args.check_bool(name, value)


def check_limits(
    max_fields: int | None, max_field_size: int | None, max_total: int | None
) -> tuple[int | None, int | None, int | None]:
    return (
        check_limit(max_fields, "max_fields"),
        check_limit(max_field_size, "max_field_size"),
        check_limit(max_total, "max_total"),
    )


def usv(text: Text, strict: bool) -> Text:
    # The string parser UTF-8 encodes its input (URL Standard §5.1), which
    # needs scalar values: a lone surrogate becomes U+FFFD (the USVString
    # conversion), or is an error in strict mode.
    if type(text) is str and not text.isascii():
        m = LONE_SURROGATE.search(text)
        if m is not None:
            if strict:
                raise PercentDecodeError(
                    f"lone surrogate U+{ord(m.group()):04X} at position {m.start()} cannot "
                    "be UTF-8 encoded; pass errors='replace' to read it as U+FFFD",
                    m.start(),
                )
            return to_usv_string(text)
    return text


def main_separator(separators: str) -> str:
    return "&" if "&" in separators else separators[0]


def amp(data: Text, sep: str = "&") -> Text:
    return sep if isinstance(data, str) else sep.encode("ascii")


def unify_separators(data: Text, separators: str, sep: str) -> Text:
    # Every separator means the same, and none survives in a name or value,
    # so they are all rewritten to one (length-preserving, so positions hold).
    for ch in separators:
        if ch != sep:
            if isinstance(data, str):
                data = data.replace(ch, sep)
            else:
                data = data.replace(ch.encode("ascii"), sep.encode("ascii"))
    return data


def to_ampersands(data: Text, sep: str) -> Text:
    # For the "&" kernels when "&" is not a separator: a literal "&" and
    # "%26" decode alike, so escape it, then make the separator "&".
    if sep == "&":
        return data
    if isinstance(data, str):
        return data.replace("&", "%26").replace(sep, "&")
    return data.replace(b"&", b"%26").replace(sep.encode("ascii"), b"&")


def isindex_first(data: Text, sep: str = "&") -> bool:
    """Whether the isindex rule applies: the first field is non-empty and has no '='."""
    ampersand = amp(data, sep)
    end = data.find(ampersand)  # type: ignore[arg-type]
    first = data if end < 0 else data[:end]
    eq = "=" if isinstance(data, str) else b"="
    return bool(first) and eq not in first  # type: ignore[operator]


_FIELD_RE: dict[tuple[str, bool], re.Pattern[str] | re.Pattern[bytes]] = {}


def _field_re(sep: str, as_bytes: bool) -> re.Pattern[str] | re.Pattern[bytes]:
    key = (sep, as_bytes)
    pat = _FIELD_RE.get(key)
    if pat is None:
        src = "[^" + re.escape(sep) + "]+"
        pat = re.compile(src.encode("ascii")) if as_bytes else re.compile(src)
        _FIELD_RE[key] = pat
    return pat


def _utf8_len(text: Text, limit: int) -> int:
    """The UTF-8 length of ``text``, exact when it is at most ``limit`` + 1."""
    n = len(text)
    if isinstance(text, bytes) or n > limit or 4 * n <= limit or text.isascii():
        return n
    return len(text.encode("utf-8", "surrogatepass"))


def count_fields(
    data: Text,
    max_fields: int | None,
    sep: str = "&",
    max_field_size: int | None = None,
    max_total: int | None = None,
) -> None:
    # Counted while scanning, stopping at the first field past a limit: the
    # limits bound the work and memory spent before the error, not just the
    # result (a split() first would cost ~15x the body).  Sizes are UTF-8 bytes
    # of the body and of one name=value, as FormParser counts them.
    if max_total is not None:
        total = _utf8_len(data, max_total)
        if total > max_total:
            raise FormLimitError(
                f"the body ({total} bytes) exceeds max_total={max_total}", "max_total", total
            )
    if max_field_size is not None and _utf8_len(data, max_field_size) <= max_field_size:
        max_field_size = None  # no field can be longer than the whole body
    if max_fields is not None and max_field_size is None:
        if data.count(amp(data, sep)) < max_fields:  # type: ignore[arg-type]
            return  # at most count + 1 <= max_fields fields
    elif max_field_size is None:
        return
    n = 0
    for m in _field_re(sep, isinstance(data, bytes)).finditer(data):  # type: ignore[arg-type]
        n += 1
        if max_fields is not None and n > max_fields:
            raise FormLimitError(
                f"the form has more than max_fields={max_fields} fields "
                f"(field {n} starts at position {m.start()})",
                "max_fields",
                n,
            )
        if max_field_size is not None:
            size = m.end() - m.start()
            if size <= max_field_size < 4 * size and isinstance(data, str):
                size = _utf8_len(m.group(), max_field_size)
            if size > max_field_size:
                raise FormLimitError(
                    f"field {n} ({size} bytes, at position {m.start()}) exceeds "
                    f"max_field_size={max_field_size}",
                    "max_field_size",
                    size,
                )
