"""The fuzzing machinery of the robustness tests (tests/test_robustness*.py).

* Value strategies drawn from a parameter's name and annotation: ``%``-heavy text, lone
  surrogates, astral and control characters, bytes, and the wrong types (``None``,
  numbers, lists, dicts, ``object()``).
* CLI argument vectors and a fake stdin/stdout for ``percent_encoding.cli.main``.
* The call guard: every call runs under a SIGALRM guard (a hang is a failure, not a stuck
  run), and the only exceptions allowed out are ours (:data:`OURS`), checked for a
  useful message and position.
* The hypothesis budgets ``FUZZ`` and ``FUZZ_TWIN`` (``ROBUSTNESS_EXAMPLES`` in the
  environment raises or lowers them).
"""

from __future__ import annotations

import contextlib
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
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn, composite

from percent_encoding.errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingDeprecationWarning,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)

from .twins import IMPLS

OURS = (PercentEncodingError, PercentEncodingTypeError)

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
    if any(k in ann for k in ("str", "bytes", "Text", "memoryview")):
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


def _import(module: str) -> Any:
    return importlib.import_module(module)
