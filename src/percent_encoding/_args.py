"""Argument checks shared by every public entry point: one wording per mistake.

Strategy: each ``check_*`` takes the parameter's name first and the value
second, returns the value (normalised where there is a canonical form) and
raises :class:`PercentEncodingTypeError` for a wrong type or
:class:`PercentEncodingError` for a wrong value.  The messages read the same
everywhere::

    space_as_plus must be True or False, not int
    errors must be one of 'replace', 'fatal', 'strict', not 'ignore'
    max_fields must be an int or None, not str
    max_fields must be non-negative, not -1

The option vocabulary (which word means what, which values it takes) is
written down once in docs/options.md; :data:`ERRORS` below is its ``errors``
row in code.  A test reads that table and checks it against the signatures.

Deprecation helpers (:func:`positional_options`, :func:`renamed_keyword`)
keep an old spelling working for a while with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import functools
import sys
import warnings
from collections.abc import Callable, Iterable
from typing import Any, Literal, TypeVar

from .errors import (
    PercentEncodingDeprecationWarning,
    PercentEncodingError,
    PercentEncodingTypeError,
)

__all__ = [
    "ARROW_ERRORS",
    "CODEC_ENCODE_ERRORS",
    "DECODE_ERRORS",
    "ENCODE_ERRORS",
    "ERRORS",
    "UTF8_LABELS",
    "check_bool",
    "check_choice",
    "check_errors",
    "check_int_limit",
    "check_label",
    "check_str",
    "check_str_input",
    "check_text",
    "is_fatal",
    "positional_options",
    "renamed_keyword",
    "type_name",
    "utf8_octets",
    "warn_deprecated",
]

# --------------------------------------------------------------------------------------------
# The errors= vocabulary (docs/options.md, "errors").  A mode is about turning text into
# bytes or bytes into text, never about the syntax of %XX escapes (that is strict=).
#
#   "replace"  decoders: U+FFFD for each error (Encoding Standard §4.1 error mode
#              "replacement"); encoders: a lone surrogate becomes U+FFFD first (the
#              WebIDL USVString conversion).
#   "fatal"    raise at the first error, with its position (Encoding Standard error mode
#              "fatal").
#   "strict"   the same as "fatal" (Python's codec word for it); accepted wherever "fatal" is.
#   "html"     encoders of legacy encodings only: a character the encoding cannot represent
#              becomes "&#N;" (Encoding Standard error mode "html").
#   "null"     Arrow columns only: a value that fails to decode becomes null.

ERRORS: dict[str, str] = {
    "replace": "U+FFFD for each error",
    "fatal": "raise at the first error, with its position",
    "strict": "same as 'fatal'",
    "html": "encoders: &#N; for a character the encoding cannot represent",
    "null": "Arrow columns: null for a value that fails to decode",
}
# Which modes each kind of entry point takes (the "values" column of the table):
DECODE_ERRORS = ("replace", "fatal", "strict")  # text decoders, form parsers, rfc8187.decode
ENCODE_ERRORS = ("fatal", "strict", "replace")  # percent-encoders (lone surrogates)
CODEC_ENCODE_ERRORS = ("fatal", "html", "strict")  # Encoding Standard encoders
ARROW_ERRORS = ("replace", "null", "fatal", "strict")  # arrow.decode_text

DecodeErrors = Literal["replace", "fatal", "strict"]
EncodeErrors = Literal["strict", "fatal", "replace"]
CodecEncodeErrors = Literal["fatal", "html", "strict"]
ArrowErrors = Literal["replace", "null", "fatal", "strict"]

_T = TypeVar("_T")
_MISSING: Any = object()
_F = TypeVar("_F", bound=Callable[..., Any])


def type_name(value: object) -> str:
    return type(value).__name__


def _choices(choices: Iterable[object]) -> str:
    return ", ".join(repr(c) for c in choices)


def check_bool(name: str, value: object) -> bool:
    """``True`` or ``False`` exactly (``1``, ``None`` or ``"yes"`` are mistakes)."""
    if value is True or value is False:
        return value
    raise PercentEncodingTypeError(f"{name} must be True or False, not {type_name(value)}")


def check_str(name: str, value: object, *, none: bool = False, empty: bool = True) -> Any:
    """A ``str`` (or ``None`` when ``none``); ``empty=False`` refuses ``""``."""
    if value is None and none:
        return None
    if not isinstance(value, str):
        kind = "a str or None" if none else "a str"
        raise PercentEncodingTypeError(f"{name} must be {kind}, not {type_name(value)}")
    if not empty and not value:
        raise PercentEncodingError(f"{name} must not be empty")
    return value


def check_choice(name: str, value: object, choices: Iterable[_T]) -> _T:
    """One of ``choices`` (compared with ``==``; strings must be ``str``)."""
    options = tuple(choices)
    if all(isinstance(c, str) for c in options) and not isinstance(value, str):
        raise PercentEncodingTypeError(
            f"{name} must be one of {_choices(options)}, not {type_name(value)}"
        )
    for c in options:
        if value == c:
            return c
    raise PercentEncodingError(f"{name} must be one of {_choices(options)}, not {value!r}")


def check_errors(
    value: object, allowed: Iterable[str] = DECODE_ERRORS, name: str = "errors"
) -> str:
    """An ``errors`` mode from ``allowed``; "strict" comes back as "fatal"."""
    mode = check_choice(name, value, allowed)
    return "fatal" if mode == "strict" else mode


def is_fatal(value: object, allowed: Iterable[str] = DECODE_ERRORS) -> bool:
    """True for "fatal"/"strict", False for the other allowed modes."""
    return check_errors(value, allowed) == "fatal"


def check_int_limit(
    name: str, value: object, *, none: bool = True, minimum: int | None = 0
) -> Any:
    """An ``int`` (not ``bool``) at least ``minimum`` (if not None), or ``None`` when ``none``."""
    if value is None and none:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        kind = "an int or None" if none else "an int"
        raise PercentEncodingTypeError(f"{name} must be {kind}, not {type_name(value)}")
    if minimum is not None and value < minimum:
        what = "non-negative" if minimum == 0 else f"at least {minimum}"
        raise PercentEncodingError(f"{name} must be {what}, not {value}")
    return value


def check_text(name: str, value: object, func: str | None = None) -> str | bytes:
    """``str`` or bytes-like (bytearray and memoryview become ``bytes``)."""
    if type(value) is str or type(value) is bytes:
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        return str(value)
    if isinstance(value, bytes):
        return bytes(value)
    where = f"{func}() takes" if func else f"{name} must be"
    raise PercentEncodingTypeError(f"{where} str or bytes, not {type_name(value)}")


def check_label(name: str, label: object) -> str:
    """The type of an encoding label only (the lookup comes later, or never for UTF-8)."""
    if not isinstance(label, str):
        raise PercentEncodingTypeError(
            f"{name} must be an encoding label (str), not {type_name(label)}"
        )
    return label


# The usual spellings of UTF-8's label: the one set every module compares against before
# paying for a lookup (a one-shot `percent encode x` never loads the encoding tables).
UTF8_LABELS = frozenset({"utf-8", "UTF-8", "utf8", "UTF8", "unicode-1-1-utf-8"})


def utf8_octets(
    value: object,
    surrogate: Callable[[int], Exception],
    wrong_type: Callable[[], Exception],
) -> bytes:
    """``value`` as octets: a str as its UTF-8, a bytes-like object as bytes.

    The callers' own errors: ``surrogate(position)`` for a lone surrogate in a str,
    ``wrong_type()`` for any other type.
    """
    if isinstance(value, str):
        try:
            return value.encode("utf-8")
        except UnicodeEncodeError as e:
            raise surrogate(e.start) from None
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise wrong_type()


def check_str_input(func: str, value: object) -> str:
    """The text a function works on, when it must be a ``str``."""
    if isinstance(value, str):
        return value
    raise PercentEncodingTypeError(f"{func}() takes a str, not {type_name(value)}")


# --------------------------------------------------------------------------------------------
# Deprecations


def warn_deprecated(message: str) -> None:
    """A :class:`PercentEncodingDeprecationWarning` (a DeprecationWarning) attributed to the
    caller's first frame outside this package (Python shows a DeprecationWarning by default
    only when it points at ``__main__``)."""
    frame = sys._getframe(1)
    level = 2
    while frame.f_back is not None and frame.f_globals.get("__name__", "").startswith(
        "percent_encoding."
    ):
        frame = frame.f_back
        level += 1
    warnings.warn(message, PercentEncodingDeprecationWarning, stacklevel=level)


def _public_name(func: Callable[..., Any]) -> str:
    # "percent_encoding.legacy._php" + "http_build_query" -> "legacy.http_build_query"
    parts = [p for p in func.__module__.split(".")[1:] if not p.startswith("_")]
    return ".".join([*parts[-1:], func.__name__])


def positional_options(*names: str) -> Callable[[_F], _F]:
    """Let ``names`` (now keyword-only) still be passed by position, with a warning.

    The wrapped function's signature is the new one; a call that passes more
    positional arguments than it takes maps the extra ones onto ``names`` in
    order and warns once per call.
    """

    def decorate(func: _F) -> _F:
        # Positional-only plus positional-or-keyword parameters, read off the
        # code object (inspect.signature would cost start-up time at import).
        inner: Any = func
        while hasattr(inner, "__wrapped__"):  # through functools.wraps, as signature() goes
            inner = inner.__wrapped__
        n_positional: int = inner.__code__.co_argcount
        qual = _public_name(func)

        @functools.wraps(func)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if len(args) > n_positional:
                extra = args[n_positional:]
                if len(extra) > len(names):
                    raise PercentEncodingTypeError(
                        f"{func.__name__}() takes at most {n_positional + len(names)} "
                        f"positional arguments ({len(args)} given)"
                    )
                given = names[: len(extra)]
                for k in given:
                    if k in kwargs:
                        raise PercentEncodingTypeError(
                            f"{func.__name__}() got multiple values for argument {k!r}"
                        )
                warn_deprecated(
                    f"passing {', '.join(given)} to {qual}() by position is deprecated; "
                    f"pass {', '.join(f'{k}=' for k in given)} by keyword"
                )
                kwargs.update(zip(given, extra, strict=True))
                args = args[:n_positional]
            return func(*args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate


def renamed_keyword(old: str, new: str) -> Callable[[_F], _F]:
    """Accept the keyword ``old`` as a deprecated spelling of ``new``."""

    def decorate(func: _F) -> _F:
        qual = _public_name(func)

        @functools.wraps(func)
        def wrapper(first: Any = _MISSING, /, *args: Any, **kwargs: Any) -> Any:
            # The common call, one positional argument, costs one extra frame and no packing.
            if not kwargs and not args and first is not _MISSING:
                return func(first)
            if old in kwargs:
                if new in kwargs:
                    raise PercentEncodingTypeError(
                        f"{func.__name__}() got both {new}= and its old name {old}="
                    )
                warn_deprecated(f"{qual}({old}=...) is deprecated; use {new}=")
                kwargs[new] = kwargs.pop(old)
            if first is _MISSING:
                return func(*args, **kwargs)
            return func(first, *args, **kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate
