"""Pick the kernel implementation: the C twin when it is built, else pure Python.

``PERCENT_ENCODING_NO_EXTENSIONS=1`` (any non-empty value but ``0``) forces the
pure twin.  Type checkers see the pure twin's signatures (the yarl model).

Loud, never silent: when the C twin was expected (not forced off) but did not
load, :data:`REASON` says why, the first column operation warns once
(:func:`warn_if_fallback`), and ``percent --version`` prints :func:`describe`.
``PERCENT_ENCODING_REQUIRE_EXTENSION=1`` turns a missing C twin into an
``ImportError`` at import (and a failed build into a failed install).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import update_wrapper
from types import ModuleType
from typing import TYPE_CHECKING, TypeVar

from . import _pure
from ._encode_set import REGISTRY, EncodeSet

_T = TypeVar("_T")

#: Which twin runs the kernels: ``"c"`` (the C extension) or ``"python"`` (the pure twin,
#: also when ``PERCENT_ENCODING_NO_EXTENSIONS=1``).  Both give the same results.
IMPLEMENTATION: str
kernels: ModuleType
#: Why this twin: "" for the C twin, else the cause of the pure one.
REASON: str = ""
#: Whether the pure twin was chosen on purpose (PERCENT_ENCODING_NO_EXTENSIONS).
FORCED: bool = False

_FIX = (
    "reinstall with a C compiler and the Python headers available (e.g. "
    "`apt-get install gcc python3-dev`, then `pip install --force-reinstall "
    "--no-binary percent-encoding percent-encoding`; set "
    "PERCENT_ENCODING_REQUIRE_EXTENSION=1 to make a failed build fail the install), "
    "or set PERCENT_ENCODING_NO_EXTENSIONS=1 to choose the pure-Python twin on purpose"
)


def _flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


def _load() -> tuple[ModuleType, str, str]:
    """(kernels, IMPLEMENTATION, REASON) for this process."""
    if _flag("PERCENT_ENCODING_NO_EXTENSIONS"):
        return _pure, "python", "PERCENT_ENCODING_NO_EXTENSIONS is set"
    try:
        from . import _speedups
    except ImportError as e:
        reason = (
            f"the C extension did not import ({e}): it is not built (no C compiler or "
            "Python headers at install time, or the build failed) or does not load here"
        )
    else:
        return _speedups, "c", ""
    if _flag("PERCENT_ENCODING_REQUIRE_EXTENSION"):
        raise ImportError(
            f"percent_encoding: PERCENT_ENCODING_REQUIRE_EXTENSION is set but {reason}; {_FIX}"
        )
    return _pure, "python", reason


if TYPE_CHECKING:
    kernels = _pure
    IMPLEMENTATION = "python"
else:
    kernels, IMPLEMENTATION, REASON = _load()
    FORCED = IMPLEMENTATION == "python" and _flag("PERCENT_ENCODING_NO_EXTENSIONS")

_warned = False


def describe() -> str:
    """Which twin runs and why, in one line (for ``percent --version``)."""
    if IMPLEMENTATION == "c":
        return "c kernels: the compiled extension percent_encoding._speedups is loaded"
    if FORCED:
        return f"python kernels: {REASON}"
    return f"python kernels (slow): {REASON}; fix: {_FIX}"


def warn_if_fallback() -> None:
    """Warn once (RuntimeWarning) when the C twin was expected but did not load.

    Called by the column operations, where the pure twin is 10-100x slower; a
    chosen pure twin (PERCENT_ENCODING_NO_EXTENSIONS) stays quiet.
    """
    global _warned
    if _warned or IMPLEMENTATION == "c" or FORCED:
        return
    _warned = True
    import warnings

    warnings.warn(
        f"percent_encoding runs its pure-Python twin on columns (much slower): {REASON}. "
        f"Fix: {_FIX}.",
        RuntimeWarning,
        stacklevel=3,
    )


def make_entry(
    kind: str, checked: Callable[..., _T], name: str | None = None
) -> Callable[..., _T]:
    """The public function ``kind`` (encode, decode_text, form.serialize, url.parse).

    With the C twin built, its entry takes the common call straight to its kernel
    (while the C twin is the active one) and hands every other call, with its
    arguments as given, to ``checked``, the checked Python function; without it,
    ``checked`` itself.  Both carry the public name, so a bad call's TypeError reads
    "encode() got ...".  The registry of named sets is passed in, never looked up.
    """
    checked.__name__ = checked.__qualname__ = name or kind
    make = getattr(kernels, "make_entry", None)
    if make is None:
        return checked
    entry: Callable[..., _T] = update_wrapper(make(kind, checked, REGISTRY, EncodeSet), checked)
    return entry
