"""Robustness: bad input gets one of our exceptions, never a crash, a hang or a quadratic blow-up.

The project standard: every error a caller can meet is a subclass of
:class:`percent_encoding.errors.PercentEncodingError` (a ``ValueError``) or
:class:`percent_encoding.errors.PercentEncodingTypeError` (a ``TypeError``), and
the ones that point into the input carry a ``.position``.  Decoders run in
linear time on adversarial input.

Strategy:

* Discovery, not a hand-kept list: every public module's ``__all__`` is walked;
  every function, every non-record class's constructor and every method of an
  instance is fuzzed with hypothesis.  Arguments are drawn from the parameter's
  name and annotation: ``%``-heavy text, lone surrogates, astral and control
  characters, bytes, and the wrong types (``None``, numbers, lists, dicts,
  ``object()``).  The only exceptions allowed out are ours (plus ``KeyError``
  from ``__getitem__``/``__delitem__``, as the mapping protocol requires).
* Every call runs under a SIGALRM guard, so a hang is a failure, not a stuck run.
* ``object()`` in a text or mapping parameter must be a
  :class:`PercentEncodingTypeError`, not a silent ``str(object())``.
* Linear time: adversarial inputs (``%%%%``, ``%%41``, ``&&&&``, ``====``,
  ``%25%25``, ``{{{{``, ``/../..``) through every decoder and parser at size n
  and 4n (n calibrated, at least 50k characters): 4n must take less than 12x
  the time of n (tests/linear_time.py); results are checked exactly at both
  sizes where that is easy.  tests/test_linear.py does the same for every
  public entry point.

A module that does not import is skipped with its name and the error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import inspect
import io
import os
import reprlib
import signal
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from conftest import ENGINE_MODULES, IMPLS
from linear_time import assert_linear
from percent_encoding.errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingDeprecationWarning,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)
from public_modules import public_modules

OURS = (PercentEncodingError, PercentEncodingTypeError)

# Every public module of the package (found by walking it), the package itself last: its
# re-exports are fuzzed under their defining module (deduplicated).
PUBLIC_MODULES = tuple(sorted(public_modules(), key=lambda name: name == "percent_encoding"))
# Modules whose functions never reach the kernels: run once, not per twin.
KERNEL_FREE = {"percent_encoding.sets", "percent_encoding.encodings", "percent_encoding.errors"}

# Public names that are not fuzzed, and why.
NOT_FUZZED = {
    "percent_encoding.web.make_server": "binds a socket (covered by tests/test_web.py)",
    "percent_encoding.web.serve": "runs a server forever",
    "percent_encoding.web.server.make_server": "binds a socket (covered by tests/test_web.py)",
    "percent_encoding.web.server.serve": "runs a server forever",
    "percent_encoding.sets.register": "mutates the registry (see test_register_rejects_bad_input)",
}

EXAMPLES = int(os.environ.get("ROBUSTNESS_EXAMPLES", "50"))
HANG_SECONDS = 10.0  # per small fuzz call; a loaded CI machine is still far below it

_HEALTH = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large]
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=_HEALTH)
# Tests that run once per kernel twin share the budget, so that building the C twin does
# not double the file's run time (the twins are compared example by example elsewhere).
FUZZ_TWIN = settings(max_examples=max(20, EXAMPLES // len(IMPLS)), deadline=None,
                     suppress_health_check=_HEALTH)


# ---------------------------------------------------------------------------
# Value strategies
# ---------------------------------------------------------------------------

TOKENS = [
    "%", "%%", "%2", "%25", "%41", "%zz", "%G0", "%u", "%u00", "%u0041", "%uD800", "%uDC00",
    "%C3%A9", "%C3", "%E2%82", "%ED%A0%80", "%F0%9F%98%80", "%FF", "%80", "%00", "%0A",
    "+", "&", "=", ";", "?", "#", "/", "//", "/.", "/..", "./", "../", ":", "@", "[", "]",
    "{", "}", "{+", "{#", "{.", "{/", "{;", "{?", "{&", "{var", "{x}", "{x,y}", ":3", ":0", "*",
    ",", "|", "!", "=", "'", "''", '"', "\\", "UTF-8''", "utf-8'en'", "ISO-8859-1'", "iso-8859-1''",
    "filename*=", "filename=", "attachment;", "inline", "http://", "https://", "mailto:",
    "HTTP://EXAMPLE.com:80", "[::1]", "user:pw@", "OAuth ", 'realm="x"', "oauth_token=",
    "a", "A", "f", "F", "u", "U", "0", "9", "é", "ü", "€", "日本", "\ud800", "\udfff",
    "\ud83d\ude00", "😀", "\U0010ffff", " ", "\t", "\r\n", "\n", "\x00", "\x1f", "\x7f",
    "\x85", "\xa0", "\u200e", "\u202e", "\ufeff", "\ufffd", "&#", "&#1234;", "_charset_",
]

any_char = st.characters(exclude_categories=())  # includes lone surrogates
special_char = st.sampled_from(
    ["\ud800", "\udbff", "\udc00", "\udfff", "😀", "\U0010ffff", "\x00", "\x1f", "\x7f",
     "\x80", "\x9f", "é", "\u2028", "\ufeff", "\ufffe", "\uffff", "日"]
)
pct_alphabet = st.sampled_from(list("%25AaFf+&=;?#uU"))
text_any: st.SearchStrategy[str] = st.one_of(
    st.text(st.one_of(pct_alphabet, any_char, special_char), max_size=24),
    st.text(pct_alphabet, max_size=24),
    st.lists(st.sampled_from(TOKENS), max_size=10).map("".join),
    st.text(any_char, max_size=12),
)
bytes_any: st.SearchStrategy[bytes] = st.one_of(
    st.binary(max_size=24),
    st.lists(st.sampled_from(TOKENS), max_size=8).map(
        lambda xs: "".join(xs).encode("utf-8", "surrogatepass")
    ),
)


class _Weird:
    """An object with no useful protocol at all."""

    def __repr__(self) -> str:
        return "<weird>"


WRONG_SCALARS: list[Any] = [
    None, 0, -1, 7, 2**70, 1.5, float("nan"), True, object(), _Weird(), 1j, ...,
]
WRONG_CONTAINERS: list[Any] = [
    [], [1], ["a", None], (), ("a",), {}, {"a": 1}, {1: "a"}, {"a": None}, set(), frozenset({"a"}),
    bytearray(b"%41"), memoryview(b"%41"), range(3), [("a",)], [("a", "b", "c")], [1, 2],
    [["a", "b"]], [("a", 1)], [(None, "b")], {"a": ["b", 1]}, {"a": {"b": None}},
]
wrong = st.sampled_from(WRONG_SCALARS + WRONG_CONTAINERS)

text_or_bytes = st.one_of(text_any, bytes_any)
textish = st.one_of(text_any, text_any, bytes_any, wrong)

scalar_value = st.one_of(text_any, bytes_any, st.none(), st.integers(-3, 10**6), st.booleans(),
                         st.floats(allow_nan=True), st.just(object()))
nested_value: st.SearchStrategy[Any] = st.recursive(
    scalar_value,
    lambda c: st.one_of(
        st.lists(c, max_size=4), st.tuples(c, c), st.dictionaries(text_any, c, max_size=4)
    ),
    max_leaves=12,
)
pair = st.one_of(
    st.tuples(text_any, text_any), st.tuples(text_any, text_any), st.tuples(text_any, text_any),
    st.lists(text_any, min_size=2, max_size=2), st.tuples(text_any),
    st.tuples(text_any, text_any, text_any), st.tuples(text_or_bytes, text_or_bytes),
    st.tuples(text_any, nested_value), text_any, wrong,
)
pairs_any = st.one_of(
    st.lists(st.tuples(text_any, text_any), max_size=6),
    st.lists(pair, max_size=5),
    st.lists(pair, max_size=5).map(tuple),
    st.dictionaries(text_any, text_any, max_size=5),
    st.dictionaries(text_any, nested_value, max_size=4),
    st.lists(st.tuples(text_any, text_any), max_size=4).map(iter),
    text_any,
    wrong,
)
bool_any = st.one_of(st.booleans(), st.booleans(), st.booleans(), wrong)
int_any = st.one_of(st.none(), st.integers(-2, 50), st.integers(), st.sampled_from([0, 1, 2**63]),
                    wrong)

ENCODING_LABELS = [
    "utf-8", "UTF-8", " utf8 ", "latin1", "iso-8859-1", "windows-1252", "shift_jis", "sjis",
    "euc-jp", "iso-2022-jp", "gbk", "gb18030", "big5", "euc-kr", "utf-16le", "utf-16be",
    "utf-16", "iso-2022-kr", "replacement", "x-user-defined", "koi8-r", "windows-1251",
    "macintosh", "ibm866", "bogus", "", "auto", "utf-7", "UTF-8\x00",
]
encoding_any = st.one_of(st.sampled_from(ENCODING_LABELS), st.sampled_from(ENCODING_LABELS),
                         text_any, wrong)

LITERAL_OPTIONS = ["strict", "replace", "fatal", "html", "ignore", "surrogateescape", "bogus", ""]


def _set_names() -> list[str]:
    from percent_encoding import sets

    return list(sets.names())


def _scheme_names() -> list[str]:
    try:
        from percent_encoding import schemes

        return list(schemes.names())
    except Exception:  # the registry is tested elsewhere; here it only seeds names
        return ["whatwg-component"]


@st.composite
def encode_set_any(draw: DrawFn) -> Any:
    from percent_encoding import sets

    kind = draw(st.integers(0, 4))
    if kind <= 1:
        return draw(st.sampled_from(_set_names()))
    if kind == 2:
        return sets.get(draw(st.sampled_from(_set_names())))
    if kind == 3:
        return draw(text_any)
    return draw(wrong)


@st.composite
def scheme_obj(draw: DrawFn) -> Any:
    from percent_encoding import schemes

    return schemes.get(draw(st.sampled_from(_scheme_names())))


def _literal_options(annotation: str) -> list[str]:
    out = []
    for part in annotation.split("'")[1::2]:
        out.append(part)
    for part in annotation.split('"')[1::2]:
        if part.isidentifier():
            out.append(part)
    return out


# Strategies chosen by parameter name first (the annotation is often just ``str``).
def _by_name(name: str, annotation: str) -> st.SearchStrategy[Any] | None:
    if name in ("encoding",):
        return encoding_any
    if name == "charset" and "bytes" not in annotation:
        return encoding_any
    if name == "errors":
        opts = _literal_options(annotation) or LITERAL_OPTIONS
        return st.one_of(st.sampled_from(opts), st.sampled_from(LITERAL_OPTIONS), wrong)
    if name in ("encode_set", "context", "sets_or_names"):
        return encode_set_any()
    if name == "component":
        comps = ["path-segment", "path", "query", "fragment", "userinfo", "host", "reg-name"]
        return st.one_of(st.sampled_from(comps), text_any, wrong)
    if name == "scheme" and "Scheme" not in annotation:
        return st.one_of(st.sampled_from(["http", "https", "ws", "mailto", "ftp", "file", "HTTP"]),
                         st.none(), text_any, wrong)
    if name == "method":
        return st.one_of(st.sampled_from(["GET", "POST", "get", "post", "PUT"]), st.none(),
                         text_any, wrong)
    if name == "enctype":
        return st.one_of(st.sampled_from(["application/x-www-form-urlencoded", "text/plain",
                                          "multipart/form-data"]), text_any, wrong)
    if name == "mailto":
        return st.one_of(st.sampled_from(["headers", "body"]), st.none(), text_any, wrong)
    if name in ("separators", "separator", "arg_separator"):
        return st.one_of(st.sampled_from(["&", "&;", ";", "", "==", "%"]), text_any, wrong)
    if name == "enc_type":
        return st.one_of(st.sampled_from([1, 2]), st.integers(-3, 5), wrong)
    if name in ("max_fields", "max_field_size", "max_total"):
        return int_any
    if name == "candidates":
        return st.one_of(st.none(), st.lists(st.sampled_from(ENCODING_LABELS), max_size=4),
                         st.lists(text_any, max_size=3), wrong)
    if name == "hints":
        return st.one_of(st.none(), st.dictionaries(text_any, text_any, max_size=3),
                         st.dictionaries(st.sampled_from(["_charset_", "charset", "probe"]),
                                         st.sampled_from(ENCODING_LABELS), max_size=3), wrong)
    if name == "scheme_names":
        return st.one_of(st.none(), st.lists(st.sampled_from(_scheme_names()), max_size=4),
                         st.lists(text_any, max_size=2), wrong)
    if name == "s" and "Scheme" in annotation:
        return scheme_obj()
    if name in ("variables", "kwargs"):
        return st.one_of(st.dictionaries(st.sampled_from(["x", "y", "var", "list", "keys", "a.b"])
                                         | text_any, nested_value, max_size=4), wrong)
    if name == "init":
        return st.one_of(text_any, pairs_any, st.none())
    if name == "parts":
        return st.one_of(_components(), st.tuples(*[st.one_of(st.none(), text_any)] * 5), wrong)
    if name == "realm":
        return st.one_of(st.none(), text_any, wrong)
    if name == "numeric_prefix":
        return st.one_of(text_any, wrong)
    if name == "argv":
        return cli_argv()
    if name in ("callback", "fn", "func"):
        return st.one_of(st.just(lambda *a: None), st.just(lambda *a: None), wrong)
    return None


@st.composite
def _components(draw: DrawFn) -> Any:
    from percent_encoding import rfc3986

    opt = st.one_of(st.none(), text_any)
    return rfc3986.Components(draw(opt), draw(opt), draw(text_any), draw(opt), draw(opt))


def strategy_for(param: inspect.Parameter) -> st.SearchStrategy[Any]:
    ann = param.annotation if isinstance(param.annotation, str) else str(param.annotation)
    by_name = _by_name(param.name, ann)
    if by_name is not None:
        return by_name
    if any(k in ann for k in ("Mapping", "Iterable", "Sequence", "Pairs", "list[", "dict[")):
        return st.one_of(pairs_any, st.dictionaries(text_any, nested_value, max_size=3))
    if "Literal" in ann:
        return st.one_of(st.sampled_from(_literal_options(ann) or LITERAL_OPTIONS), text_any, wrong)
    if ann.strip() in ("bool", "'bool'"):
        return bool_any
    if "int" in ann and "str" not in ann:
        return int_any
    if "EncodeSet" in ann:
        return encode_set_any()
    if any(k in ann for k in ("str", "bytes", "_Text", "memoryview")):
        return textish
    return st.one_of(textish, pairs_any, nested_value)


# ---------------------------------------------------------------------------
# CLI arguments
# ---------------------------------------------------------------------------

@composite
def cli_argv(draw: DrawFn) -> list[str]:
    """A command line for ``percent`` (never ``serve``), random but shaped like real use."""
    sub = draw(st.sampled_from([
        ["encode"], ["decode"], ["form", "parse"], ["form", "build"], ["compare"], ["schemes"],
        ["detect"], ["form"], [],
    ]))
    flags = draw(st.lists(st.sampled_from([
        ["--scheme", draw(st.sampled_from([*_scheme_names(), *_set_names(), "bogus"]))],
        ["--encoding", draw(st.sampled_from([*ENCODING_LABELS, "auto"]))],
        ["--strict"], ["--json"], ["--tsv"], ["--charset-hack"], ["--all-rows"], ["--help"],
        ["--version"], ["-"], ["--"], ["--bogus"],
    ]), max_size=3))
    texts = draw(st.lists(text_any.filter(lambda t: "\x00" not in t), max_size=3))
    argv = list(sub)
    for f in flags:
        argv += f
    return argv + texts


@contextlib.contextmanager
def _fake_stdio(stdin: bytes) -> Iterator[tuple[io.StringIO, io.StringIO]]:
    """Swap sys.stdin/stdout/stderr for in-memory streams with a real ``.buffer``."""
    old = sys.stdin, sys.stdout, sys.stderr
    fin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
    fout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    ferr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    sys.stdin, sys.stdout, sys.stderr = fin, fout, ferr
    try:
        yield fout, ferr  # type: ignore[misc]
    finally:
        sys.stdin, sys.stdout, sys.stderr = old


def _stderr_text(ferr: Any) -> str:
    ferr.flush()
    return bytes(ferr.buffer.getvalue()).decode("utf-8", "replace")


# ---------------------------------------------------------------------------
# The call guard
# ---------------------------------------------------------------------------

class Hang(BaseException):
    """Raised by the alarm when a single small call runs for HANG_SECONDS."""


@contextlib.contextmanager
def no_hang(seconds: float = HANG_SECONDS) -> Iterator[None]:
    if (not hasattr(signal, "setitimer") or os.name == "nt"
            or signal.getitimer(signal.ITIMER_REAL)[0] > 0):
        yield  # no alarms here, or an outer guard is already running
        return

    def _alarm(signum: int, frame: Any) -> None:
        raise Hang(f"call did not finish in {seconds} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


_REPR = reprlib.Repr()
_REPR.maxlevel = 4
_REPR.maxstring = 120
_REPR.maxother = 120
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = 8


def _short(x: Any, limit: int = 160) -> str:
    try:
        r = _REPR.repr(x)
    except Exception as e:  # a broken __repr__ must not hide the real failure
        r = f"<unrepresentable {type(x).__name__}: {type(e).__name__}>"
    return r if len(r) <= limit else r[:limit] + f"...<{len(r)} chars>"


def _describe(label: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    parts = [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
    return f"{label}({', '.join(parts)})"


def check_error(e: BaseException, where: str) -> None:
    """An exception of ours must say something and point at a sane position."""
    assert str(e).strip(), f"{where}: {type(e).__name__} with an empty message"
    if isinstance(e, (PercentDecodeError, PercentEncodeError, TextDecodeError)):
        p = e.position
        assert isinstance(p, int) and not isinstance(p, bool) and p >= 0, (
            f"{where}: {type(e).__name__}.position is {p!r}"
        )
    pos = getattr(e, "position", None)
    assert pos is None or (isinstance(pos, int) and pos >= 0), (
        f"{where}: {type(e).__name__}.position is {pos!r}"
    )


def call_checked(
    label: str,
    fn: Callable[..., Any],
    args: tuple[Any, ...] = (),
    kwargs: dict[str, Any] | None = None,
    *,
    also_allowed: tuple[type[BaseException], ...] = (),
    hang_seconds: float = HANG_SECONDS,
) -> tuple[bool, Any]:
    """Call fn; return (True, result) or (False, our exception); fail on anything else."""
    kwargs = kwargs or {}
    where = _describe(label, args, kwargs)
    try:
        # Random arguments meet old spellings too (an option by position, an old keyword):
        # they must still work, and their deprecation warning is expected here.
        with no_hang(hang_seconds), warnings.catch_warnings():
            warnings.simplefilter("ignore", PercentEncodingDeprecationWarning)
            result = fn(*args, **kwargs)
            if inspect.isgenerator(result) or isinstance(result, Iterator):
                result = list(result)
    except OURS as e:
        check_error(e, where)
        return False, e
    except also_allowed as e:
        return False, e
    except Hang as e:
        raise AssertionError(f"{where} hung: {e}") from None
    except (KeyboardInterrupt, SystemExit, pytest.skip.Exception):
        raise
    except BaseException as e:
        raise AssertionError(
            f"{where} raised {type(e).__module__}.{type(e).__qualname__}: {_short(str(e), 300)} "
            "(expected PercentEncodingError or PercentEncodingTypeError)"
        ) from e
    return True, result


# ---------------------------------------------------------------------------
# Discovery
# ---------------------------------------------------------------------------

@dataclasses.dataclass(frozen=True)
class Target:
    """One public callable: ``kind`` is "function", "class" or "instance"."""

    module: str
    name: str
    kind: str

    @property
    def label(self) -> str:
        return f"{self.module}.{self.name}"


# Result containers the library builds and returns; callers never construct them.
RESULT_TYPES = {"ParsedForm", "CharsetGuess", "Finding", "SpaceConvention", "Components"}


def _is_record(cls: type) -> bool:
    """Plain data records (dataclasses, NamedTuples, result containers): constructing them
    by hand checks nothing."""
    return (dataclasses.is_dataclass(cls) or cls.__name__ in RESULT_TYPES
            or (issubclass(cls, tuple) and hasattr(cls, "_fields")))


# Classes fuzzed through instances (methods), by how an instance is made.
INSTANCE_CLASSES = {
    "EncodeSet", "Encoding", "UriTemplate", "FormParser", "URLSearchParams", "Scheme",
}


def _import(module: str) -> Any:
    return importlib.import_module(module)


def _importable(name: str) -> bool:
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def discover() -> list[Any]:
    out: list[Any] = []
    seen: set[int] = set()
    for mod_name in PUBLIC_MODULES:
        marks: list[Any] = []  # run-once marking is by test function (see the *_once tests)
        missing = [e for e in ENGINE_MODULES.get(mod_name, ()) if not _importable(e)]
        if missing:  # an engine adapter whose engine is not installed: nothing to call
            out.append(pytest.param(
                Target(mod_name, "<import>", "import"), id=f"{mod_name}:import",
                marks=[pytest.mark.skip(reason=f"{mod_name} needs {', '.join(missing)}, "
                                               "not installed")],
            ))
            continue
        try:
            mod = _import(mod_name)
        except Exception as e:
            out.append(pytest.param(
                Target(mod_name, "<import>", "import"), id=f"{mod_name}:import",
                marks=[pytest.mark.skip(reason=f"{mod_name} does not import: "
                                               f"{type(e).__name__}: {e}")],
            ))
            continue
        names = getattr(mod, "__all__", None)
        if names is None:
            out.append(pytest.param(
                Target(mod_name, "<no __all__>", "import"), id=f"{mod_name}:no-all",
                marks=[pytest.mark.skip(reason=f"{mod_name} has no __all__")],
            ))
            continue
        for name in names:
            obj = getattr(mod, name, None)
            label = f"{mod_name}.{name}"
            if obj is None or label in NOT_FUZZED or id(obj) in seen:
                continue
            seen.add(id(obj))
            if inspect.ismodule(obj):
                continue
            if isinstance(obj, type):
                if issubclass(obj, BaseException):
                    continue
                if name in INSTANCE_CLASSES:
                    out.append(pytest.param(Target(mod_name, name, "instance"),
                                            id=f"{label}()-methods", marks=marks))
                if _is_record(obj) or name in ("Encoding", "Scheme"):
                    continue
                out.append(pytest.param(Target(mod_name, name, "class"), id=f"{label}()",
                                        marks=marks))
                continue
            if callable(obj):
                out.append(pytest.param(Target(mod_name, name, "function"), id=label,
                                        marks=marks))
    return out


TARGETS = discover()


def _callable(t: Target) -> Any:
    return getattr(_import(t.module), t.name)


def _signature(fn: Any) -> inspect.Signature | None:
    try:
        return inspect.signature(fn)
    except (TypeError, ValueError):
        return None


@st.composite
def call_args(draw: DrawFn, fn: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """Arguments for fn drawn from its signature; optional ones are sometimes left out."""
    sig = _signature(fn)
    if sig is None:
        return (draw(textish),), {}
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    for p in sig.parameters.values():
        if p.name == "self":
            continue
        strat = strategy_for(p)
        if p.kind is p.VAR_POSITIONAL:
            args.extend(draw(st.lists(strat, max_size=3)))
            continue
        if p.kind is p.VAR_KEYWORD:
            extra = draw(st.dictionaries(
                st.sampled_from(["x", "y", "var", "list", "keys", "half", "who"]),
                nested_value, max_size=3,
            ))
            kwargs.update({k: v for k, v in extra.items() if k not in sig.parameters})
            continue
        optional = p.default is not p.empty
        if optional and draw(st.booleans()):
            continue
        value = draw(strat)
        if p.kind is p.POSITIONAL_ONLY or (p.kind is p.POSITIONAL_OR_KEYWORD and not kwargs
                                           and draw(st.booleans())):
            args.append(value)
        else:
            kwargs[p.name] = value
    return tuple(args), kwargs


# ---------------------------------------------------------------------------
# Fuzz: functions and constructors
# ---------------------------------------------------------------------------

def _run_cli(argv: Any, stdin: bytes) -> None:
    from percent_encoding import cli

    label = "percent_encoding.cli.main"
    old_debug = os.environ.get("PERCENT_DEBUG")
    os.environ["PERCENT_DEBUG"] = "1"  # an internal error re-raises instead of printing
    try:
        with _fake_stdio(stdin) as (_out, err):
            ok, result = call_checked(label, cli.main, (argv,), also_allowed=(SystemExit,))
            err_text = _stderr_text(err)
    finally:
        if old_debug is None:
            del os.environ["PERCENT_DEBUG"]
        else:
            os.environ["PERCENT_DEBUG"] = old_debug
    where = _describe(label, (argv,), {}) + f" with stdin {stdin!r}"
    if ok:
        assert isinstance(result, int), f"{where} returned {result!r}, not an exit status"
    elif isinstance(result, SystemExit):
        assert result.code in (0, 2, None), f"{where}: SystemExit({result.code!r})"
    assert "Traceback" not in err_text, f"{where} printed a traceback:\n{err_text}"
    assert "internal error" not in err_text, f"{where}: {err_text}"


FUNCTION_TARGETS = [t for t in TARGETS if t.values[0].kind in ("function", "class", "import")]
INSTANCE_TARGETS = [t for t in TARGETS if t.values[0].kind == "instance"]


def _split(targets: list[Any]) -> tuple[list[Any], list[Any]]:
    """(targets that may reach the kernels, targets in kernel-free modules)."""
    kernel_free = [t for t in targets if t.values[0].module in KERNEL_FREE]
    return [t for t in targets if t not in kernel_free], kernel_free


@pytest.mark.parametrize("target", _split(FUNCTION_TARGETS)[0])
@FUZZ_TWIN
@given(data=st.data())
def test_fuzz_call(target: Target, data: st.DataObject) -> None:
    """Random and wrong arguments: our exceptions only, no crash, no hang."""
    _fuzz_call(target, data)


@pytest.mark.one_impl
@pytest.mark.parametrize("target", _split(FUNCTION_TARGETS)[1])
@FUZZ
@given(data=st.data())
def test_fuzz_call_once(target: Target, data: st.DataObject) -> None:
    """As test_fuzz_call, for modules that never reach the kernels."""
    _fuzz_call(target, data)


def _fuzz_call(target: Target, data: st.DataObject) -> None:
    fn = _callable(target)
    if target.label == "percent_encoding.cli.main":
        _run_cli(data.draw(cli_argv(), label="argv"), data.draw(bytes_any, label="stdin"))
        return
    args, kwargs = data.draw(call_args(fn), label="arguments")
    call_checked(target.label, fn, args, kwargs)


# ---------------------------------------------------------------------------
# Fuzz: methods of instances, as short random call sequences
# ---------------------------------------------------------------------------

DUNDER_ARITY = {
    "__contains__": 1, "__getitem__": 1, "__delitem__": 1, "__setitem__": 2, "__or__": 1,
    "__sub__": 1, "__and__": 1, "__xor__": 1, "__eq__": 1, "__iter__": 0, "__len__": 0,
    "__str__": 0, "__repr__": 0, "__hash__": 0, "__bool__": 0,
}
# The mapping protocol: a missing key is a KeyError by contract.
PROTOCOL_ERRORS: dict[str, tuple[type[BaseException], ...]] = {
    "__getitem__": (KeyError,), "__delitem__": (KeyError,),
}


def _encoding_names() -> list[str]:
    from percent_encoding import encodings

    return list(encodings.names())


@st.composite
def instance_of(draw: DrawFn, cls_name: str, module: str) -> Any:
    """A live instance of a public class, built the way a caller would build one."""
    mod = _import(module)
    cls = getattr(mod, cls_name)
    if cls_name == "EncodeSet":
        from percent_encoding import sets

        if draw(st.booleans()):
            return sets.get(draw(st.sampled_from(_set_names())))
        allowed = draw(st.text(st.characters(max_codepoint=127), max_size=20))
        return cls.from_allowed(allowed.replace("%", ""))
    if cls_name == "Encoding":
        from percent_encoding import encodings

        return encodings.lookup(draw(st.sampled_from(_encoding_names())))
    if cls_name == "Scheme":
        return draw(scheme_obj())
    if cls_name == "FormParser":
        kw: dict[str, Any] = {}
        if draw(st.booleans()):
            kw["encoding"] = draw(st.sampled_from([None, "utf-8", "shift_jis", "windows-1252",
                                                   "iso-2022-jp", "utf-16le"]))
        for k in ("max_fields", "max_field_size", "max_total"):
            if draw(st.booleans()):
                kw[k] = draw(st.one_of(st.none(), st.integers(0, 40)))
        if draw(st.booleans()):
            kw["separators"] = draw(st.sampled_from(["&", "&;", ";"]))
        return cls(**kw)
    if cls_name == "UriTemplate":
        template = draw(st.one_of(
            st.lists(st.sampled_from(["{x}", "{+x}", "{#x,y}", "{.list*}", "{/x:2}", "{;keys*}",
                                      "{?x,y}", "{&var}", "a", "%41", "/", "é"]), max_size=5)
            .map("".join),
            text_any,
        ))
        try:
            return cls(template)
        except OURS:
            pass
        return cls("{x}")
    if cls_name == "URLSearchParams":
        init = draw(st.one_of(st.none(), text_any, st.lists(st.tuples(text_any, text_any),
                                                               max_size=4)))
        try:
            return cls(init)
        except OURS:
            return cls()
    return cls()


def _methods(obj: Any) -> list[str]:
    names = []
    for n in dir(obj):
        if n.startswith("_"):
            continue
        try:
            attr = getattr(obj, n)
        except Exception:
            continue
        if callable(attr) and not isinstance(attr, type):
            names.append(n)
    for n in DUNDER_ARITY:
        own = [k for k in type(obj).__mro__ if k is not object and n in vars(k)]
        if own and vars(own[0])[n] is not None:
            names.append(n)
    return sorted(set(names))


@st.composite
def method_call(draw: DrawFn, obj: Any, name: str) -> tuple[tuple[Any, ...], dict[str, Any]]:
    if name in DUNDER_ARITY:
        n = DUNDER_ARITY[name]
        if name in ("__or__", "__sub__", "__and__", "__xor__", "__eq__") and draw(st.booleans()):
            return (draw(encode_set_any()),), {}
        return tuple(draw(st.one_of(textish, st.integers(-2, 200))) for _ in range(n)), {}
    return draw(call_args(getattr(obj, name)))


def _invoke(obj: Any, name: str) -> Callable[..., Any]:
    if name == "__iter__":
        return lambda: list(iter(obj))
    if name in DUNDER_ARITY:
        return getattr(obj, name)  # type: ignore[no-any-return]
    return getattr(obj, name)  # type: ignore[no-any-return]


@pytest.mark.parametrize("target", _split(INSTANCE_TARGETS)[0])
@FUZZ_TWIN
@given(data=st.data())
def test_fuzz_methods(target: Target, data: st.DataObject) -> None:
    """Random call sequences on live objects: our exceptions only, no crash, no hang."""
    _fuzz_methods(target, data)


@pytest.mark.one_impl
@pytest.mark.parametrize("target", _split(INSTANCE_TARGETS)[1])
@FUZZ
@given(data=st.data())
def test_fuzz_methods_once(target: Target, data: st.DataObject) -> None:
    """As test_fuzz_methods, for classes of modules that never reach the kernels."""
    _fuzz_methods(target, data)


def _fuzz_methods(target: Target, data: st.DataObject) -> None:
    obj = data.draw(instance_of(target.name, target.module), label="instance")
    names = _methods(obj)
    assert names, f"{target.label} has no public methods?"
    steps = data.draw(st.integers(1, 4), label="steps")
    for _ in range(steps):
        name = data.draw(st.sampled_from(names), label="method")
        args, kwargs = data.draw(method_call(obj, name), label=f"{name} arguments")
        call_checked(f"{_short(obj, 60)}.{name}", _invoke(obj, name), args, kwargs,
                     also_allowed=PROTOCOL_ERRORS.get(name, ()))


# ---------------------------------------------------------------------------
# object() where text, pairs or a set is expected: our TypeError, never str(object())
# ---------------------------------------------------------------------------

def _valid_value(module: str, fn_name: str, p: inspect.Parameter) -> Any:
    """A plausible valid argument, so that only the parameter under test is wrong."""
    ann = p.annotation if isinstance(p.annotation, str) else str(p.annotation)
    by_name: dict[str, Any] = {
        "encode_set": "component", "context": "query", "component": "path",
        "encoding": "utf-8", "charset": "UTF-8", "method": "GET", "url": "http://a.example/b?c=d",
        "uri": "http://a.example/b", "template": "{x}", "ext_value": "UTF-8''a",
        "header": 'OAuth oauth_token="a"' if module.endswith("oauth1") else "attachment",
        "filename": "a.txt", "disposition": "attachment", "protocol_id": "h2", "token": "h2",
        "base_string": "GET&a&b", "consumer_secret": "k", "token_secret": "t",
        "argv": ["encode", "a"], "label": "utf-8", "name": "component", "ch": "a",
        "scheme": None, "realm": None, "enctype": "application/x-www-form-urlencoded",
        "mailto": None, "raw": b"a=b", "page": "utf-8", "accept": "", "content_type": "",
        "value": "a", "auto": False, "allowed": "abc", "errors": p.default,
        "separators": p.default, "separator": p.default, "arg_separator": "&",
        "numeric_prefix": "", "enc_type": 1, "safe": "", "reserved": p.default, "language": "",
        "data": {"a": "b"} if fn_name == "http_build_query" else "a",
    }
    if p.name in by_name and by_name[p.name] is not inspect.Parameter.empty:
        return by_name[p.name]
    if p.default is not p.empty and p.default is not None:
        return p.default
    if "Scheme" in ann:
        from percent_encoding import schemes

        return schemes.get("whatwg-component")
    if "Components" in ann or "_Parts" in ann:
        from percent_encoding import rfc3986

        return rfc3986.split("http://a.example/b")
    if any(k in ann for k in ("Mapping", "Iterable", "Sequence", "Pairs")):
        return [("a", "b")]
    if ann.strip() == "bool":
        return False
    if "int" in ann and "str" not in ann:
        return 0
    return "a"


def _type_cases() -> list[Any]:
    out = []
    for param in FUNCTION_TARGETS:
        t: Target = param.values[0]
        if t.kind not in ("function", "class"):
            continue
        fn = _callable(t)
        sig = _signature(fn)
        if sig is None or t.label == "percent_encoding.cli.main":
            continue
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in ("self", "callback"):
                continue
            ann = p.annotation if isinstance(p.annotation, str) else str(p.annotation)
            if ann in ("Any", "object", "inspect._empty"):
                continue
            out.append(pytest.param(t, p.name, id=f"{t.label}:{p.name}", marks=param.marks))
    return out


@pytest.mark.one_impl  # argument checks happen before any kernel runs
@pytest.mark.parametrize(("target", "pname"), _type_cases())
def test_object_is_a_type_error(target: Target, pname: str) -> None:
    """``object()`` in a text, pairs or set parameter is PercentEncodingTypeError."""
    fn = _callable(target)
    sig = _signature(fn)
    assert sig is not None
    chosen = sig.parameters[pname]

    def build(value: Any) -> tuple[tuple[Any, ...], dict[str, Any]]:
        args: list[Any] = []
        kwargs: dict[str, Any] = {}
        for p in sig.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                continue
            if p.name == pname:
                v = value
            elif p.default is not p.empty and p.name not in ("data",):
                continue  # leave optional parameters at their defaults
            else:
                v = _valid_value(target.module, target.name, p)
            if p.kind is p.POSITIONAL_ONLY:
                args.append(v)
            else:
                kwargs[p.name] = v
        return tuple(args), kwargs

    # The same call with a valid value first: when even that is refused (the parameter
    # only makes sense with another option), any error of ours will do for object().
    baseline_ok, _ = call_checked(target.label, fn, *build(_valid_value(target.module,
                                                                       target.name, chosen)))
    args, kwargs = build(object())
    ok, res = call_checked(target.label, fn, args, kwargs)
    ann = chosen.annotation if isinstance(chosen.annotation, str) else str(chosen.annotation)
    where = _describe(target.label, args, kwargs)
    if ann.strip() == "bool":
        return  # truthiness is an accepted Python convention for flags
    assert not ok, f"{where} accepted object() and returned {_short(res)}"
    strict_type = baseline_ok and not ("Literal" in ann or ann.strip() in ("int", "int | None")
                                       or chosen.name in ("errors", "enc_type"))
    if strict_type:
        assert isinstance(res, PercentEncodingTypeError), (
            f"{where} raised {type(res).__name__} ({res}); a wrong type is PercentEncodingTypeError"
        )


@pytest.mark.one_impl
def test_register_rejects_bad_input() -> None:
    """sets.register is not fuzzed (it mutates the registry): check its errors directly."""
    from percent_encoding import sets

    before = list(sets.names())
    snapshot = dict(sets._REGISTRY)
    try:
        _check_register(sets)
    finally:  # keep the registry intact for the rest of the session, whatever happened
        sets._REGISTRY.clear()
        sets._REGISTRY.update(snapshot)
    assert list(sets.names()) == before


def _check_register(sets: Any) -> None:
    for args in ((None, sets.PATH), (1, sets.PATH), ("robustness-x", object()),
                 ("robustness-x", "path"), ("robustness-x", sets.PATH, 5)):
        _ok, err = call_checked("percent_encoding.sets.register", sets.register, args)
        assert isinstance(err, OURS), f"sets.register{_short(args)} returned {err!r}"
    ok, err = call_checked("percent_encoding.sets.register", sets.register,
                           ("component", sets.COMPONENT))
    assert not ok and isinstance(err, PercentEncodingError), "re-registering 'component'"


@pytest.mark.one_impl
def test_every_public_module_is_fuzzed() -> None:
    """The walk finds the modules, subpackages and all, and puts the package last."""
    assert {"percent_encoding.core", "percent_encoding.url", "percent_encoding.arrow",
            "percent_encoding.web", "percent_encoding.web.server"} <= set(PUBLIC_MODULES)
    assert PUBLIC_MODULES[-1] == "percent_encoding"
    assert not any(part.startswith("_") for name in PUBLIC_MODULES
                   for part in name.split(".")[1:])


@pytest.mark.one_impl
def test_deep_nesting_is_our_error_not_recursion() -> None:
    """PHP-style nested arrays and templates: deep input is an error of ours or works."""
    from percent_encoding import legacy

    deep: dict[str, Any] = {}
    node = deep
    for _ in range(5000):
        node["a"] = {}
        node = node["a"]
    node["a"] = "x"
    ok, res = call_checked("percent_encoding.legacy.http_build_query", legacy.http_build_query,
                           (deep,))
    if ok:
        assert res == "a" + "%5Ba%5D" * 5000 + "=x"


# ---------------------------------------------------------------------------
# Linear time on adversarial input: size n against 4n
# ---------------------------------------------------------------------------

N = 200_000  # the cases' default size (their ids); the timing starts at N // 4 and grows


def _outcome(fn: Callable[[], Any]) -> tuple[bool, Any]:
    """(True, result) or (False, our exception); anything else fails (no alarm: the
    n-against-4n timing is what catches a slow algorithm)."""
    try:
        result = fn()
        if inspect.isgenerator(result) or isinstance(result, Iterator):
            result = list(result)
    except OURS as e:
        check_error(e, "adversarial input")
        return False, e
    except (KeyboardInterrupt, SystemExit, pytest.skip.Exception):
        raise
    except BaseException as e:
        raise AssertionError(
            f"adversarial input raised {type(e).__module__}.{type(e).__qualname__}: "
            f"{_short(str(e), 300)} (expected PercentEncodingError or PercentEncodingTypeError)"
        ) from e
    return True, result


def _raises(exc: type[BaseException], fn: Callable[[], Any], position: int | None = None) -> Any:
    ok, res = _outcome(fn)
    assert not ok and isinstance(res, exc), f"expected {exc.__name__}, got {_short(res)}"
    if position is not None:
        assert getattr(res, "position", None) == position, (
            f"{type(res).__name__}.position is {getattr(res, 'position', None)}, "
            f"expected {position}"
        )
    return res


def _feed_bytewise(data: bytes, **kw: Any) -> list[tuple[str, str]]:
    from percent_encoding import form

    parser = form.FormParser(**kw)
    out: list[tuple[str, str]] = []
    for i in range(len(data)):
        out += parser.feed(data[i:i + 1])
    return out + parser.close()


@functools.lru_cache(maxsize=2)  # n and 4n of the case being timed
def _linear_cases(N: int = N) -> list[Any]:  # the size N, as the cases spell it
    # Imports are lazy so that a module that does not import skips only its own cases.
    K3 = N // 3  # repetitions of a 3-character unit
    K4 = N // 4
    def core() -> Any:
        return _import("percent_encoding.core")

    def mod(name: str) -> Any:
        try:
            return _import(f"percent_encoding.{name}")
        except Exception as e:
            pytest.skip(f"percent_encoding.{name} does not import: {type(e).__name__}: {e}")

    from percent_encoding.errors import (
        FormLimitError,
        URIError,
        UriTemplateError,
    )

    # (label, the call, None or a thunk of the exact result): the results are built only
    # for the case being checked, at its two sizes, not for every case at every size.
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any] | None]] = [
        # core: percent-decode keeps every invalid %, so the output equals the input
        ("core.decode %", lambda: core().decode("%" * N), lambda: b"%" * N),
        ("core.decode %%41", lambda: core().decode("%%41" * K4), lambda: b"%A" * K4),
        ("core.decode %25", lambda: core().decode("%25" * K3), lambda: b"%" * K3),
        ("core.decode + as space", lambda: core().decode("+" * N, plus_as_space=True),
         lambda: b" " * N),
        ("core.decode bytes %%", lambda: core().decode(b"%%" * K4 + b"%4"),
         lambda: b"%%" * K4 + b"%4"),
        ("core.decode strict at end",
         lambda: _raises(PercentDecodeError, lambda: core().decode("%41" * K3 + "%",
                                                                   strict=True), 3 * K3), None),
        ("core.decode strict %",
         lambda: _raises(PercentDecodeError, lambda: core().decode("%" * N, strict=True), 0),
         None),
        ("core.decode_text %C3", lambda: core().decode_text("%C3" * K3), lambda: "\ufffd" * K3),
        ("core.decode_text %C3%A9", lambda: core().decode_text("%C3%A9" * (N // 6)),
         lambda: "é" * (N // 6)),
        ("core.decode_text %ED%A0%80 (surrogate)",
         lambda: core().decode_text("%ED%A0%80" * (N // 9)), lambda: "\ufffd" * 3 * (N // 9)),
        ("core.decode_text strict at end",
         lambda: _raises(TextDecodeError, lambda: core().decode_text(
             "a" * N + "%FF", errors="strict"), N), None),
        ("core.encode %", lambda: core().encode("%" * N), lambda: "%25" * N),
        ("core.encode lone surrogates replace",
         lambda: core().encode("\ud800" * N, errors="replace"), lambda: "%EF%BF%BD" * N),
        ("core.encode lone surrogate at end",
         lambda: _raises(PercentEncodeError, lambda: core().encode("é" * N + "\udc00"), N),
         None),
        ("core.encode shift_jis ncr",
         lambda: core().encode("€" * (N // 4), encoding="shift_jis"),
         lambda: "%26%238364%3B" * (N // 4)),
        # forms
        ("form.parse &", lambda: mod("form").parse("&" * N), lambda: []),
        ("form.parse =", lambda: mod("form").parse("=" * N), lambda: [("", "=" * (N - 1))]),
        ("form.parse a=b&", lambda: mod("form").parse("a=b&" * K4), lambda: [("a", "b")] * K4),
        ("form.parse %", lambda: mod("form").parse("%" * N), lambda: [("%" * N, "")]),
        ("form.parse %%41=", lambda: mod("form").parse("%%41" * K4 + "="),
         lambda: [("%A" * K4, "")]),
        ("form.parse +", lambda: mod("form").parse("+" * N), lambda: [(" " * N, "")]),
        ("form.parse ;", lambda: mod("form").parse(";" * N, separators="&;"), lambda: []),
        ("form.parse shift_jis %82", lambda: mod("form").parse("a=" + "%82" * K3,
                                                                encoding="shift_jis"),
         None),
        ("form.parse auto shift_jis", lambda: list(mod("form").parse(
            "a=" + "%82%A0" * (N // 6), encoding="auto")), lambda: [("a", "あ" * (N // 6))]),
        ("form.parse max_fields",
         lambda: _raises(FormLimitError, lambda: mod("form").parse("a&" * K4, max_fields=10)),
         None),
        ("form.parse_bytes &=", lambda: mod("form").parse_bytes(b"&=" * K4),
         lambda: [(b"", b"")] * K4),
        ("form.parse_bytes %25", lambda: mod("form").parse_bytes(b"a=" + b"%25" * K3),
         lambda: [(b"a", b"%" * K3)]),
        ("form.URLSearchParams &", lambda: str(mod("form").URLSearchParams("&" * N)), lambda: ""),
        ("form.URLSearchParams =", lambda: len(mod("form").URLSearchParams("a=b&" * K4)),
         lambda: K4),
        ("form.URLSearchParams sort",
         lambda: str(_sorted(mod("form").URLSearchParams([(str(i % 97), "x") for i in
                                                          range(N // 10)])))[:12],
         lambda: "0=x&0=x&0=x&"),
        ("form.serialize %", lambda: mod("form").serialize([("%" * N, "&" * N)]),
         lambda: "%25" * N + "=" + "%26" * N),
        ("form.FormParser one field, bytewise", lambda: _feed_bytewise(b"a=" + b"b" * (N // 2)),
         lambda: [("a", "b" * (N // 2))]),
        ("form.FormParser %, bytewise", lambda: _feed_bytewise(b"%" * (N // 2)),
         lambda: [("%" * (N // 2), "")]),
        ("form.FormParser &, bytewise", lambda: _feed_bytewise(b"&" * (N // 2)), lambda: []),
        ("form.FormParser max_field_size",
         lambda: _raises(FormLimitError, lambda: _feed_bytewise(b"a" * (N // 2),
                                                                max_field_size=1000)), None),
        # ECMAScript
        ("ecmascript.decodeURIComponent %",
         lambda: _raises(URIError, lambda: mod("ecmascript").decode_uri_component("%" * N), 0),
         None),
        ("ecmascript.decodeURIComponent % at end",
         lambda: _raises(URIError, lambda: mod("ecmascript").decode_uri_component(
             "%41" * K3 + "%"), 3 * K3), None),
        ("ecmascript.decodeURIComponent %25",
         lambda: mod("ecmascript").decode_uri_component("%25" * K3), lambda: "%" * K3),
        ("ecmascript.decodeURI %23 kept", lambda: mod("ecmascript").decode_uri("%23" * K3),
         lambda: "%23" * K3),
        ("ecmascript.decodeURI %E2%82",
         lambda: _raises(URIError, lambda: mod("ecmascript").decode_uri("%E2%82" * (N // 6)),
                         0), None),
        ("ecmascript.unescape %u", lambda: mod("ecmascript").unescape("%u" * (N // 2)),
         lambda: "%u" * (N // 2)),
        ("ecmascript.unescape %u0025", lambda: mod("ecmascript").unescape("%u0025" * (N // 6)),
         lambda: "%" * (N // 6)),
        ("ecmascript.unescape %", lambda: mod("ecmascript").unescape("%" * N), lambda: "%" * N),
        ("ecmascript.escape surrogates", lambda: mod("ecmascript").escape("\ud800" * N),
         lambda: "%uD800" * N),
        ("ecmascript.encodeURIComponent lone surrogate at end",
         lambda: _raises(URIError, lambda: mod("ecmascript").encode_uri_component(
             "😀" * N + "\ud800"), 2 * N), None),
        # URI Templates
        ("uritemplate {", lambda: _raises(UriTemplateError,
                                          lambda: mod("uritemplate").expand("{" * N, {})), None),
        ("uritemplate }", lambda: _raises(UriTemplateError,
                                          lambda: mod("uritemplate").expand("}" * N, {})), None),
        # RFC 6570 §2.1: a '%' in a literal must start a pct-encoded triplet
        ("uritemplate %", lambda: _raises(UriTemplateError, lambda: mod("uritemplate").expand(
            "%" * N, {}), 0), None),
        ("uritemplate %25", lambda: mod("uritemplate").expand("%25" * K3, {}), lambda: "%25" * K3),
        ("uritemplate {x} x%", lambda: mod("uritemplate").expand("{x}" * (N // 30), {"x": "%"}),
         lambda: "%25" * (N // 30)),
        ("uritemplate prefix", lambda: mod("uritemplate").expand("{x:9999}", {"x": "%" * N}),
         lambda: "%25" * 9999),
        ("uritemplate explode list",
         lambda: mod("uritemplate").expand("{/x*}", {"x": ["%"] * (N // 10)}),
         lambda: "/%25" * (N // 10)),
        ("uritemplate UriTemplate {",
         lambda: _raises(UriTemplateError, lambda: mod("uritemplate").UriTemplate("{" * N)),
         None),
        # OAuth 1.0
        ("oauth1.decode %25", lambda: mod("oauth1").decode("%25" * K3), lambda: "%" * K3),
        ("oauth1.decode %",
         lambda: _raises(PercentDecodeError, lambda: mod("oauth1").decode("%" * N), 0), None),
        ("oauth1.normalize_parameters",
         lambda: mod("oauth1").normalize_parameters([("a", "%")] * (N // 10)),
         lambda: "&".join(["a=%25"] * (N // 10))),
        ("oauth1.signature_base_string &",
         lambda: mod("oauth1").signature_base_string("GET", "http://a.example/?" + "&" * N),
         lambda: "GET&http%3A%2F%2Fa.example%2F&"),
        ("oauth1.parse_authorization_header \\",
         lambda: mod("oauth1").parse_authorization_header('OAuth a="' + "\\\\" * K4 + '"'),
         None),
        # RFC 8187 / Content-Disposition
        ("rfc8187.decode %25", lambda: mod("rfc8187").decode("UTF-8''" + "%25" * K3),
         lambda: ("%" * K3, "")),
        ("rfc8187.decode %", lambda: _raises(PercentDecodeError,
                                             lambda: mod("rfc8187").decode("UTF-8''" + "%" * N)),
         None),
        ("rfc8187.parse_content_disposition ;",
         lambda: _call_quiet(lambda: mod("rfc8187").parse_content_disposition(
             "attachment" + ";" * N)), None),
        ("rfc8187.parse_content_disposition quoted \\",
         lambda: mod("rfc8187").parse_content_disposition(
             'attachment; filename="' + "\\\\" * K4 + '"'),
         lambda: ("attachment", {"filename": "\\" * K4})),
        ("rfc8187.content_disposition %", lambda: len(mod("rfc8187").content_disposition(
            "%" * N)) > N, lambda: True),
        # ALPN
        ("alpn.decode %", lambda: _raises(PercentDecodeError,
                                          lambda: mod("alpn").decode("%" * N)), None),
        # RFC 7301 §3.1: a protocol ID is at most 255 octets
        ("alpn.encode %", lambda: _raises(PercentEncodeError, lambda: mod("alpn").encode(
            "%" * N)), None),
        # RFC 3986
        ("rfc3986.remove_dot_segments /..", lambda: mod("rfc3986").remove_dot_segments(
            "/.." * K3), lambda: "/"),
        ("rfc3986.remove_dot_segments /a then /..",
         lambda: mod("rfc3986").remove_dot_segments("/a" * (N // 5) + "/.." * (N // 5)),
          lambda: "/"),
        ("rfc3986.remove_dot_segments /a/..", lambda: mod("rfc3986").remove_dot_segments(
            "/a/.." * (N // 5)), lambda: "/"),
        ("rfc3986.remove_dot_segments ./", lambda: mod("rfc3986").remove_dot_segments(
            "./" * (N // 2) + "a"), lambda: "a"),
        ("rfc3986.normalize %41", lambda: mod("rfc3986").normalize("HTTP://A.example/" +
                                                                   "%41" * K3),
         lambda: "http://a.example/" + "A" * K3),
        ("rfc3986.normalize %", lambda: _call_quiet(
            lambda: mod("rfc3986").normalize("http://a.example/" + "%" * N)), None),
        ("rfc3986.requote %", lambda: mod("rfc3986").requote("%" * N), lambda: "%25" * N),
        ("rfc3986.requote %%41", lambda: mod("rfc3986").requote("%%41" * K4),
         lambda: "%25%41" * K4),
        ("rfc3986.split ?", lambda: mod("rfc3986").split("?" * N).query, lambda: "?" * (N - 1)),
        ("rfc3986.split_authority @", lambda: _call_quiet(
            lambda: mod("rfc3986").split_authority("@" * N)), None),
        ("rfc3986.split_authority [", lambda: _call_quiet(
            lambda: mod("rfc3986").split_authority("[" * N)), None),
        ("rfc3986.normalize_percent_encoding %c3",
         lambda: mod("rfc3986").normalize_percent_encoding("%c3" * K3), lambda: "%C3" * K3),
        # IRI / XPath
        ("iri.uri_to_iri %C3%A9", lambda: mod("iri").uri_to_iri("%C3%A9" * (N // 6)),
         lambda: "é" * (N // 6)),
        ("iri.uri_to_iri %C3", lambda: mod("iri").uri_to_iri("%C3" * K3), lambda: "%C3" * K3),
        ("iri.uri_to_iri %", lambda: _call_quiet(lambda: mod("iri").uri_to_iri("%" * N)), None),
        ("iri.iri_to_uri é", lambda: mod("iri").iri_to_uri("é" * N), lambda: "%C3%A9" * N),
        ("xpath.encode_for_uri %", lambda: mod("xpath").encode_for_uri("%" * N), lambda: "%25" * N),
        ("xpath.iri_to_uri %", lambda: mod("xpath").iri_to_uri("%" * N), lambda: "%" * N),
        ("xpath.escape_html_uri é", lambda: mod("xpath").escape_html_uri("é" * N),
         lambda: "%C3%A9" * N),
        # legacy decoders
        ("legacy.php_urldecode %", lambda: mod("legacy").php_urldecode("%" * N), lambda: "%" * N),
        ("legacy.php_urldecode %%41", lambda: mod("legacy").php_urldecode("%%41" * K4),
         lambda: "%A" * K4),
        ("legacy.php_rawurldecode %25", lambda: mod("legacy").php_rawurldecode("%25" * K3),
         lambda: "%" * K3),
        ("legacy.go_query_unescape %", lambda: _raises(
            PercentDecodeError, lambda: mod("legacy").go_query_unescape("%" * N), 0), None),
        ("legacy.go_query_unescape % at end", lambda: _raises(
            PercentDecodeError, lambda: mod("legacy").go_query_unescape("+" * N + "%"), N),
         None),
        ("legacy.java_urldecode %25", lambda: mod("legacy").java_urldecode("%25" * K3),
         lambda: "%" * K3),
        ("legacy.dotnet_unescape_data_string %",
         lambda: mod("legacy").dotnet_unescape_data_string("%" * N), lambda: "%" * N),
        ("legacy.ruby_cgi_unescape %", lambda: mod("legacy").ruby_cgi_unescape("%" * N),
         lambda: "%" * N),
        ("legacy.html4_form_decode &;", lambda: mod("legacy").html4_form_decode("&;" * K4),
         lambda: []),
        ("legacy.cgi_decode %25", lambda: mod("legacy").cgi_decode("%25" * K3), lambda: "%" * K3),
        ("legacy.cgi_search_words +", lambda: _call_quiet(
            lambda: mod("legacy").cgi_search_words("+" * N)), None),
        ("legacy.slug_decode %", lambda: _call_quiet(
            lambda: mod("legacy").slug_decode("%" * N)), None),
        ("legacy.rfc_decode %25", lambda: mod("legacy").rfc_decode("%25" * K3), lambda: "%" * K3),
        ("legacy.http_build_query wide",
         lambda: len(mod("legacy").http_build_query({str(i): "%" for i in range(N // 10)})),
         None),
        # analysis
        ("detect.diagnose %%%%", lambda: len(mod("detect").diagnose("%" * (N // 4))),
         lambda: N // 4),
        ("detect.diagnose \"", lambda: _call_quiet(
            lambda: mod("detect").diagnose('"' * (N // 8))), None),
        ("detect.undo_double_encoding %252525", lambda: mod("detect").undo_double_encoding(
            "%" + "25" * (N // 2) + "41"), lambda: "%41"),
        ("detect.undo_double_encoding %25 runs", lambda: mod("detect").undo_double_encoding(
            "%2541" * (N // 5)), lambda: "%41" * (N // 5)),
        ("detect.variants %%41", lambda: _call_quiet(
            lambda: mod("detect").variants("%%41" * (N // 16))), None),
        ("detect.space_convention ?", lambda: _call_quiet(
            lambda: mod("detect").space_convention("http://a.example/?" + "+" * N)), None),
        ("detect.charset \\x82", lambda: _call_quiet(
            lambda: mod("detect").charset(b"\x82" * (N // 20))), None),
        # encodings
        ("encodings.decode iso-2022-jp ESC", lambda: _call_quiet(
            lambda: mod("encodings").decode(b"\x1b" * N, "iso-2022-jp")), None),
        ("encodings.decode iso-2022-jp ESC $ B", lambda: _call_quiet(
            lambda: mod("encodings").decode(b"\x1b$B" * K3, "iso-2022-jp")), None),
        ("encodings.decode shift_jis lead bytes",
         lambda: len(mod("encodings").decode(b"\xa0" * N, "shift_jis")), lambda: N),
        ("encodings.decode gb18030 four-byte",
         lambda: mod("encodings").decode(b"\x81\x30\x81\x30" * K4, "gb18030"), lambda: "\x80" * K4),
        ("encodings.decode big5 lead bytes",
         lambda: mod("encodings").decode(b"\x81" * N, "big5"), lambda: "\ufffd" * (N // 2)),
        ("encodings.decode utf-16le lone surrogates",
         lambda: mod("encodings").decode(b"\x00\xd8" * (N // 2), "utf-16le"),
         lambda: "\ufffd" * (N // 2)),
        ("encodings.decode utf-8 fatal at end", lambda: _raises(
            TextDecodeError, lambda: mod("encodings").decode(b"a" * N + b"\xff", "utf-8",
                                                             errors="fatal"), N), None),
        ("encodings.encode shift_jis html",
         lambda: mod("encodings").encode("€" * (N // 4), "shift_jis", errors="html"),
         lambda: b"&#8364;" * (N // 4)),
    ]
    return [pytest.param(fn, expected, id=label) for label, fn, expected in cases]


def _linear_split(kernel_free: bool) -> list[str]:
    return [c.id for c in _linear_cases() if c.id.startswith("encodings.") == kernel_free]


def _linear_case(label: str, size: int) -> tuple[Callable[[], Any], Callable[[], Any] | None]:
    """The case ``label`` built for ``size`` characters: (call, None or a thunk of the
    expected result)."""
    for c in _linear_cases(size):
        if c.id == label:
            fn, expected = c.values
            return fn, expected
    raise KeyError(label)


def _sorted(p: Any) -> Any:
    p.sort()
    return p


def _call_quiet(fn: Callable[[], Any]) -> None:
    """Only the exception type and the time matter for these cases."""
    _outcome(fn)


@pytest.mark.parametrize("label", _linear_split(kernel_free=False))
def test_linear_time(label: str) -> None:
    """Adversarial input of size 4n takes less than 12x the time of size n (linear is 4x),
    with the exact result at both sizes where it is known."""
    _linear(label)


@pytest.mark.one_impl
@pytest.mark.parametrize("label", _linear_split(kernel_free=True))
def test_linear_time_once(label: str) -> None:
    """As test_linear_time, for the encodings (they never reach the kernels)."""
    _linear(label)


def _linear(label: str) -> None:
    g = assert_linear(lambda fn: _outcome(fn), lambda n: _linear_case(label, n)[0],
                      label=label, n0=N // 4)
    for size in (g.n, 4 * g.n):
        fn, expect = _linear_case(label, size)
        ok, result = _outcome(fn)
        assert ok, f"adversarial input of size {size} raised {result!r}"
        if expect is not None:
            expected = expect()
            assert result == expected, (
                f"size {size}: got {_short(result)}, expected {_short(expected)}")


# ---------------------------------------------------------------------------
# No silent loss at chunk boundaries: the incremental parser equals the one-shot one
# ---------------------------------------------------------------------------

FORM_PIECES = [
    b"a", b"=", b"&", b";", b"%", b"%4", b"%41", b"%C3%A9", b"%82%A0", b"\x82\xa0", b"\xc3\xa9",
    b"+", b"\xff", b"\x1b$B", b"\x1b(B", b"%1B%24B", b"_charset_", b"=shift_jis", b"\xed\xa0\x80",
]


@FUZZ_TWIN
@given(
    body=st.lists(st.sampled_from(FORM_PIECES), max_size=16).map(b"".join),
    cuts=st.lists(st.integers(0, 80), max_size=8),
    encoding=st.sampled_from([None, "utf-8", "shift_jis", "iso-2022-jp", "utf-16le",
                              "windows-1252"]),
    separators=st.sampled_from(["&", "&;"]),
)
def test_form_parser_chunks_equal_parse(body: bytes, cuts: list[int], encoding: str | None,
                                        separators: str) -> None:
    from percent_encoding import form

    parser = form.FormParser(encoding=encoding, separators=separators)
    got: list[tuple[str, str]] = []
    prev = 0
    for cut in [*sorted({c for c in cuts if c <= len(body)}), len(body)]:
        got += parser.feed(body[prev:cut])
        prev = cut
    got += parser.close()
    assert got == form.parse(body, encoding=encoding, separators=separators)


# ---------------------------------------------------------------------------
# No silent change of meaning: transforms that only re-encode keep the decoded bytes
# ---------------------------------------------------------------------------

URI_PIECES = [
    "%", "%25", "%41", "%4", "%1", "%zz", "%C3%A9", "%c3%a9", "%C3", "%E2%80%AE", "%ED%A0%80",
    "a", "1", "/", ".", "?", "#", "@", "[", "]", " ", "é", "😀", "+", "=", "&", "%2F", "%7e",
    "~", "\u202e", "<", '"', "%20",
]
# name -> transform; each may re-encode or decode characters, never change what the
# string percent-decodes to.  (A '%' that does not start an escape decodes to itself, so
# '%1%41' means the bytes '%1A': turning it into '%1A' would mean the byte 0x1A.)
MEANING_PRESERVING: dict[str, Callable[[str], str]] = {
    "rfc3986.requote": lambda s: _strip_dot_slash(s, _import("percent_encoding.rfc3986")
                                                  .requote(s)),
    "rfc3986.normalize_percent_encoding":
        lambda s: _import("percent_encoding.rfc3986").normalize_percent_encoding(s),
    "iri.uri_to_iri": lambda s: _import("percent_encoding.iri").uri_to_iri(s),
    "iri.iri_to_uri": lambda s: _import("percent_encoding.iri").iri_to_uri(s),
    "xpath.iri_to_uri": lambda s: _import("percent_encoding.xpath").iri_to_uri(s),
    "xpath.escape_html_uri": lambda s: _import("percent_encoding.xpath").escape_html_uri(s),
}


def _strip_dot_slash(before: str, after: str) -> str:
    """requote may prefix './' to a relative path whose first segment has a ':' (§4.2)."""
    if after.startswith("./") and not before.startswith("./"):
        return after[2:]
    return after


@pytest.mark.parametrize("name", sorted(MEANING_PRESERVING))
@FUZZ_TWIN
@given(text=st.lists(st.sampled_from(URI_PIECES), max_size=10).map("".join))
@example(text="%1%41")
@example(text="%%4141")
def test_reencoding_keeps_meaning(name: str, text: str) -> None:
    from percent_encoding import core

    ok, out = call_checked(name, MEANING_PRESERVING[name], (text,))
    if ok:
        assert core.decode(out) == core.decode(text), (
            f"{name}({text!r}) = {out!r}: decodes to {core.decode(out)!r}, "
            f"the input to {core.decode(text)!r}"
        )


# ---------------------------------------------------------------------------
# The web tool over HTTP: never a 500, never a desynchronized connection
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def web_port() -> Iterator[int]:
    import threading

    try:
        from percent_encoding.web.server import make_server
    except Exception as e:
        pytest.skip(f"percent_encoding.web.server does not import: {type(e).__name__}: {e}")
    srv = make_server("127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(srv.server_address[1])
    finally:
        srv.shutdown()
        srv.server_close()


def _http(port: int, method: str, path: str, body: bytes | None = None,
          conn: Any = None) -> tuple[int, str, bytes]:
    import http.client

    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    if conn is None:
        c.close()
    return r.status, r.getheader("Content-Type") or "", data


@pytest.mark.one_impl  # the HTTP layer; the kernels behind it are fuzzed above
@pytest.mark.parametrize("path", ["/", "/api/schemes", "/api/compare", "/lab/form", "/nope"])
def test_web_unread_body_does_not_desync(web_port: int, path: str) -> None:
    """A POST body the route does not read must not be parsed as the next request."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", web_port, timeout=30)
    try:
        smuggled = b"GET /api/schemes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _http(web_port, "POST", path, smuggled, conn=conn)
        try:
            status, ctype, _ = _http(web_port, "GET", "/static/app.css", conn=conn)
        except (http.client.RemoteDisconnected, ConnectionError):
            return  # the server closed the connection instead: that is fine too
        except http.client.HTTPException as e:
            raise AssertionError(f"POST {path} with an unread body, then GET /static/app.css "
                                 f"on the same connection: unparseable answer {e!r}") from e
        assert status == 200 and ctype.startswith("text/css"), (
            f"POST {path} with an unread body, then GET /static/app.css on the same "
            f"connection answered {status} {ctype}: the body was read as a request"
        )
    finally:
        conn.close()


@pytest.mark.one_impl
@FUZZ
@given(
    path=st.sampled_from(["/api/encode", "/api/decode", "/api/compare", "/lab/form",
                          "/lab/echo/shift_jis/-", "/lab/echo/utf-8/utf-8", "/lab/echo/x/-"]),
    params=st.dictionaries(
        st.sampled_from(["input", "scheme", "encoding", "context", "schemes", "charset",
                         "accept", "method", "value", "auto"]),
        st.one_of(text_any, st.sampled_from(["auto", "sjis", "bogus", "path", "component",
                                             "php-urlencode", "utf-16le", "replacement"])),
        max_size=5,
    ),
    as_json=st.booleans(),
)
def test_web_api_never_500(web_port: int, path: str, params: dict[str, str],
                           as_json: bool) -> None:
    import json
    import urllib.parse

    if as_json and path.startswith("/api/"):
        status, ctype, data = _http(web_port, "POST", path, json.dumps(params).encode())
    else:
        query = urllib.parse.urlencode(
            {k: v.encode("utf-8", "surrogatepass") for k, v in params.items()})
        status, ctype, data = _http(web_port, "GET", f"{path}?{query}")
    assert status < 500, f"{path} {params!r} -> {status}: {data[:300]!r}"
    if path.startswith("/api/") and ctype.startswith("application/json"):
        json.loads(data)
