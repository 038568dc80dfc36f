"""Robustness: bad input gets one of our exceptions, never a crash, a hang or a quadratic blow-up.

The project standard: every error a caller can meet is a subclass of
:class:`percent_encoding.errors.PercentEncodingError` (a ``ValueError``) or
:class:`percent_encoding.errors.PercentEncodingTypeError` (a ``TypeError``), and
the ones that point into the input carry a ``.position``.

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

A module that does not import is skipped with its name and the error.

The robustness tests are split by concern: this file fuzzes every public function,
constructor and method; test_robustness_linear.py times adversarial input (linear time);
test_robustness_meaning.py checks that streaming and re-encoding lose nothing;
test_robustness_web.py drives the web tool over HTTP.  Their shared machinery (the
strategies, the call guard) is tests/helpers/fuzzing.py.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import os
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.strategies import DrawFn

from helpers.engines import ENGINE_MODULES
from helpers.fuzzing import (
    FUZZ,
    FUZZ_TWIN,
    OURS,
    _describe,
    _fake_stdio,
    _import,
    _set_names,
    _short,
    _stderr_text,
    bytes_any,
    call_checked,
    cli_argv,
    encode_set_any,
    nested_value,
    scheme_obj,
    strategy_for,
    text_any,
    textish,
)
from helpers.public_modules import public_modules
from percent_encoding.errors import PercentEncodingError, PercentEncodingTypeError

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
