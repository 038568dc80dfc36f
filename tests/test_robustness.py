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
* Linear time: 200k-character adversarial inputs (``%%%%``, ``%%41``, ``&&&&``,
  ``====``, ``%25%25``, ``{{{{``, ``/../..``) through every decoder and parser;
  a quadratic algorithm would not finish within the run.  No timing
  assertions: results are checked exactly where that is easy.

A module that does not import is skipped with its name and the error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import inspect
import io
import os
import pkgutil
import signal
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

import percent_encoding
from percent_encoding.errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)

OURS = (PercentEncodingError, PercentEncodingTypeError)

# Every public module of the package; a test below checks that none is missing.
PUBLIC_MODULES = (
    "percent_encoding.core",
    "percent_encoding.sets",
    "percent_encoding.encodings",
    "percent_encoding.detect",
    "percent_encoding.ecmascript",
    "percent_encoding.uritemplate",
    "percent_encoding.form",
    "percent_encoding.oauth1",
    "percent_encoding.rfc8187",
    "percent_encoding.alpn",
    "percent_encoding.rfc3986",
    "percent_encoding.iri",
    "percent_encoding.xpath",
    "percent_encoding.legacy",
    "percent_encoding.schemes",
    "percent_encoding.cli",
    "percent_encoding.errors",
    "percent_encoding.web.server",
    "percent_encoding.web",
    "percent_encoding",  # re-exports: fuzzed under their defining module (deduplicated)
)
# Modules whose functions never reach the kernels: run once, not per twin.
KERNEL_FREE = {"percent_encoding.sets", "percent_encoding.encodings", "percent_encoding.errors"}

# Public names that are not fuzzed, and why.
NOT_FUZZED = {
    "percent_encoding.web.make_server": "binds a socket (covered by tests/test_web.py)",
    "percent_encoding.web.serve": "runs a server forever",
    "percent_encoding.web.server.make_server": "binds a socket (covered by tests/test_web.py)",
    "percent_encoding.web.server.serve": "runs a server forever",
    "percent_encoding.sets.register": "mutates the global registry (checked by test_register_types)",
}

EXAMPLES = int(os.environ.get("ROBUSTNESS_EXAMPLES", "60"))
HANG_SECONDS = 10.0

FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)


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
    sys.stdin, sys.stdout, sys.stderr = fin, fout, ferr  # type: ignore[assignment]
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
    if not hasattr(signal, "setitimer") or os.name == "nt":
        yield
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


def _short(x: Any, limit: int = 160) -> str:
    r = repr(x)
    return r if len(r) <= limit else r[:limit] + f"...<{len(r)} chars>"


def _describe(label: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> str:
    parts = [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
    return f"{label}({', '.join(parts)})"


def check_error(e: BaseException, where: str) -> None:
    """An exception of ours must say something and point at a sane position."""
    assert str(e).strip(), f"{where}: {type(e).__name__} with an empty message"
    if isinstance(e, (PercentDecodeError, PercentEncodeError, TextDecodeError)):
        pos = e.position
        assert isinstance(pos, int) and not isinstance(pos, bool) and pos >= 0, (
            f"{where}: {type(e).__name__}.position is {pos!r}"
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
) -> tuple[bool, Any]:
    """Call fn; return (True, result) or (False, our exception); fail on anything else."""
    kwargs = kwargs or {}
    where = _describe(label, args, kwargs)
    try:
        with no_hang():
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
    except (KeyboardInterrupt, SystemExit):
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


def _is_record(cls: type) -> bool:
    """Plain data records (dataclasses, NamedTuples): constructing them checks nothing."""
    return dataclasses.is_dataclass(cls) or (issubclass(cls, tuple) and hasattr(cls, "_fields"))


# Classes fuzzed through instances (methods), by how an instance is made.
INSTANCE_CLASSES = {
    "EncodeSet", "Encoding", "UriTemplate", "FormParser", "URLSearchParams", "Scheme",
}


def _import(module: str) -> Any:
    return importlib.import_module(module)


def discover() -> list[Any]:
    out: list[Any] = []
    seen: set[int] = set()
    for mod_name in PUBLIC_MODULES:
        marks: list[Any] = []
        if mod_name in KERNEL_FREE:
            marks.append(pytest.mark.one_impl)
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


@pytest.mark.parametrize("target", FUNCTION_TARGETS)
@FUZZ
@given(data=st.data())
def test_fuzz_call(target: Target, data: st.DataObject) -> None:
    """Random and wrong arguments: our exceptions only, no crash, no hang."""
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


@pytest.mark.parametrize("target", INSTANCE_TARGETS)
@FUZZ
@given(data=st.data())
def test_fuzz_methods(target: Target, data: st.DataObject) -> None:
    """Random call sequences on live objects: our exceptions only, no crash, no hang."""
    obj = data.draw(instance_of(target.name, target.module), label="instance")
    names = _methods(obj)
    assert names, f"{target.label} has no public methods?"
    steps = data.draw(st.integers(1, 4), label="steps")
    for _ in range(steps):
        name = data.draw(st.sampled_from(names), label="method")
        args, kwargs = data.draw(method_call(obj, name), label=f"{name} arguments")
        call_checked(f"{_short(obj, 60)}.{name}", _invoke(obj, name), args, kwargs,
                     also_allowed=PROTOCOL_ERRORS.get(name, ()))
