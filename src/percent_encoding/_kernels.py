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
from types import ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

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
        reason = _why_not_loaded(e)
    else:
        return _speedups, "c", ""
    if _flag("PERCENT_ENCODING_REQUIRE_EXTENSION"):
        raise ImportError(
            f"percent_encoding: PERCENT_ENCODING_REQUIRE_EXTENSION is set but {reason}; {_FIX}"
        )
    return _pure, "python", reason


def _why_not_loaded(error: ImportError) -> str:
    """Why ``_speedups`` did not import, in words.

    A missing compiled file makes ``from . import _speedups`` fail with Python's
    "partially initialized module ... (most likely due to a circular import)", since
    this runs while the package itself is being imported: that message is never the
    cause here, so the file is looked for first.
    """
    import sys
    from importlib.util import find_spec

    name = f"{__package__}._speedups"
    if name in sys.modules and sys.modules[name] is None:
        return f"the C extension did not import: sys.modules blocks {name} (it holds None)"
    try:
        spec = find_spec(name)
    except (ImportError, ValueError):
        spec = None
    if spec is None or spec.origin is None:
        folder = os.path.dirname(os.path.abspath(__file__))
        return (f"the C extension did not import: {name} was not built ({folder} has no "
                f"compiled _speedups file); {_missing_tools()}")
    return (f"the C extension did not import: {spec.origin} is there but does not load "
            f"here ({error}): built for another Python or platform, or a library it needs "
            "is missing")


def _missing_tools() -> str:
    """What this machine lacks to build the extension, as far as it can be seen now."""
    import shlex
    import shutil
    import sysconfig

    cc = os.environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    words = shlex.split(cc) or ["cc"]
    missing = []
    if shutil.which(words[0]) is None:
        missing.append(f"no C compiler: {words[0]!r} is not on PATH")
    include = sysconfig.get_paths().get("include", "")
    if not os.path.exists(os.path.join(include, "Python.h")):
        missing.append(f"no Python headers: {os.path.join(include, 'Python.h')} is missing")
    if missing:
        return "; ".join(missing)
    return ("a compiler and the Python headers are here now: the install ran without "
            "them, its build failed, or PERCENT_ENCODING_NO_EXTENSIONS skipped the build")


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
    """The public function ``kind`` (encode, decode_text, form.serialize, url.parse,
    url.can_parse).

    With the C twin built, its entry takes the common call straight to its kernel
    (while the C twin is the active one) and hands every other call, with its
    arguments as given, to ``checked``, the checked Python function; without it,
    ``checked`` itself.  Both carry the public name, so a bad call's TypeError reads
    "encode() got ...".  The registry of named sets is passed in, never looked up.

    The entry is a built-in function (CPython specializes calls of that type only;
    see src/csrc/entry.c): it has the checked function's name, module, docstring and
    signature (without annotations, as built-in functions have them), and
    :func:`checked` gives the checked function back.
    """
    checked.__name__ = checked.__qualname__ = name or kind
    make = getattr(kernels, "make_entry", None)
    if make is None:
        return checked
    doc = f"{checked.__name__}{_text_signature(checked)}\n--\n\n{checked.__doc__ or ''}"
    entry: Callable[..., _T] = make(kind, checked, REGISTRY, EncodeSet, checked.__name__, doc)
    _CHECKED[entry] = checked
    return entry


#: entry -> the checked function it hands calls to (make_entry).
_CHECKED: dict[Callable[..., object], Callable[..., object]] = {}


def checked(func: Callable[..., _T]) -> Callable[..., _T]:
    """The checked Python function behind a C entry; any other function as it is."""
    return _CHECKED.get(func, func)  # type: ignore[return-value]


def _text_signature(func: Callable[..., object]) -> str:
    """``func``'s parameters as a built-in function's text signature: "(data, *, x='a')".

    Read off the code object (``inspect.signature`` would cost start-up time at
    import), through ``functools.wraps`` as ``signature()`` goes.  A text signature
    can hold only literal defaults: any other default raises TypeError here, at
    import, rather than leave ``inspect.signature`` and ``help()`` without one.
    """
    inner: Any = func
    while hasattr(inner, "__wrapped__"):
        inner = inner.__wrapped__
    code = inner.__code__
    names = code.co_varnames
    npos, nkw = code.co_argcount, code.co_kwonlyargcount
    defaults = inner.__defaults__ or ()
    kwdefaults = inner.__kwdefaults__ or {}
    parts: list[str] = []
    for i in range(npos):
        d = i - (npos - len(defaults))
        parts.append(names[i] + (f"={_literal(defaults[d])}" if d >= 0 else ""))
        if i + 1 == code.co_posonlyargcount:
            parts.append("/")
    star = npos + nkw
    if code.co_flags & _CO_VARARGS:
        parts.append("*" + names[star])
        star += 1
    elif nkw:
        parts.append("*")
    parts += [k + (f"={_literal(kwdefaults[k])}" if k in kwdefaults else "")
              for k in names[npos:npos + nkw]]
    if code.co_flags & _CO_VARKEYWORDS:
        parts.append("**" + names[star])
    return f"({', '.join(parts)})"


_CO_VARARGS, _CO_VARKEYWORDS = 0x04, 0x08  # inspect.CO_VARARGS, inspect.CO_VARKEYWORDS


def _literal(value: object) -> str:
    # (the types whose repr inspect reads back from a text signature)
    if value is None or type(value) in (bool, int, str, bytes):
        return repr(value)
    raise TypeError(f"a built-in function's text signature cannot hold the default {value!r}")
