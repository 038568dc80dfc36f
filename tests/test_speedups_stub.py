"""The written contract of the C extension, ``_speedups.pyi``, is what the C code takes.

Three sources say what each function of ``percent_encoding._speedups`` takes, and this
module holds them to one answer (mypy's stubtest does the second check, but needs a mypy
run of several seconds; this is the same comparison, plus the first):

* the C source: the names array and count that ``parse_args`` binds (src/csrc/module.c),
  ``METH_O`` (one argument), or the ``nargs`` bounds of a plain ``METH_FASTCALL`` function;
* the text signature in module.c's method table (what ``inspect.signature`` reads);
* the stub, ``src/percent_encoding/_speedups.pyi``.

Each gives, per function, the parameters in order as (name, has a default); a name the C
code never sees (positional only) is ``None`` and matches any.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path
from types import ModuleType

import pytest

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]

ROOT = Path(__file__).resolve().parents[1]
CSRC = ROOT / "src" / "csrc"
STUB = ROOT / "src" / "percent_encoding" / "_speedups.pyi"

Params = list[tuple[str | None, bool]]

_TABLE_ROW = re.compile(
    r'\{"(\w+)",\s*(?:FASTCALL_KW\((\w+)\)|\(PyCFunction\)\(void \(\*\)\(void\)\)(\w+)|(\w+)),'
    r"\s*([A-Z_ |]+),")
_NAMES_ARRAY = re.compile(r"static const char \*const (\w+)\[\]\s*=\s*\{([^}]*)\}")


def c_signatures(csrc: Path) -> dict[str, Params]:
    """What each function of the method table takes, read from the C source."""
    units = {p.name: p.read_text(encoding="utf-8") for p in sorted(csrc.glob("*.c"))}
    out: dict[str, Params] = {}
    for m in _TABLE_ROW.finditer(units["module.c"]):
        name, func = m.group(1), m.group(2) or m.group(3) or m.group(4)
        flags = {f.strip() for f in m.group(5).split("|")}
        if flags == {"METH_O"}:
            out[name] = [(None, False)]
        elif flags == {"METH_FASTCALL", "METH_KEYWORDS"}:
            out[name] = _parse_args_params(name, units)
        else:
            assert flags == {"METH_FASTCALL"}, (name, flags)
            out[name] = _nargs_params(name, func, units)
    return out


def _parse_args_params(name: str, units: dict[str, str]) -> Params:
    # parse_args("name", args, nargs, kwnames, ARRAY, COUNT, out): ARRAY names every
    # parameter; COUNT is how many it binds (a literal, or an expression such as
    # url_setup's ``given >= 5 ? 5 : 4`` when the last ones may be left out).
    call = re.compile(rf'parse_args\("{name}",\s*\w+,\s*\w+,\s*\w+,\s*(\w+),\s*([^,]+),')
    for text in units.values():
        found = call.search(text)
        if found is None:
            continue
        arrays = [a for a in _NAMES_ARRAY.finditer(text, 0, found.start())
                  if a.group(1) == found.group(1)]
        assert arrays, f"{name}: no names array {found.group(1)} before its parse_args"
        names = re.findall(r'"(\w+)"', arrays[-1].group(2))
        counts = [int(c) for c in re.findall(r"\d+", found.group(2))]
        assert max(counts) == len(names), f"{name}: binds {max(counts)} of {names}"
        return [(n, i >= min(counts)) for i, n in enumerate(names)]
    raise AssertionError(f"{name}: a METH_KEYWORDS function without parse_args")


def _nargs_params(name: str, func: str, units: dict[str, str]) -> Params:
    # A positional-only function checks nargs itself: ``nargs != K`` or
    # ``nargs < LO || nargs > HI``.
    body = re.compile(rf"^{func}\([^)]*\)\s*\{{(.*?)^\}}", re.S | re.M)
    for text in units.values():
        found = body.search(text)
        if found is None:
            continue
        exact = re.search(r"nargs != (\d+)", found.group(1))
        bounds = re.search(r"nargs < (\d+) \|\| nargs > (\d+)", found.group(1))
        lo, hi = ((int(exact.group(1)),) * 2 if exact else
                  (int(bounds.group(1)), int(bounds.group(2))) if bounds else (-1, -1))
        assert lo >= 0, f"{name}: {func} checks no argument count"
        return [(None, i >= lo) for i in range(hi)]
    raise AssertionError(f"{name}: no C function {func}")


def text_signatures(module: ModuleType) -> dict[str, Params]:
    """What each function's text signature (the method table's docstring) declares."""
    out = {}
    for name in dir(module):
        f = getattr(module, name)
        if name.startswith("_") or not callable(f) or isinstance(f, type):
            continue
        out[name] = [(p.name, p.default is not inspect.Parameter.empty)
                     for p in inspect.signature(f).parameters.values()]
    return out


def stub_signatures(text: str) -> dict[str, Params]:
    """What the stub declares."""
    out = {}
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef):
            args = node.args
            assert not (args.vararg or args.kwarg or args.kwonlyargs), node.name
            plain = args.posonlyargs + args.args
            first_default = len(plain) - len(args.defaults)
            out[node.name] = [(a.arg, i >= first_default) for i, a in enumerate(plain)]
    return out


def differences(a: dict[str, Params], b: dict[str, Params]) -> list[str]:
    """Where two readings of the contract disagree (a None name matches any)."""
    out = [f"{n}: only in the {'first' if n in a else 'second'}"
           for n in sorted(a.keys() ^ b.keys())]
    for n in sorted(a.keys() & b.keys()):
        same = len(a[n]) == len(b[n]) and all(
            da == db and (x is None or y is None or x == y)
            for (x, da), (y, db) in zip(a[n], b[n], strict=True))
        if not same:
            out.append(f"{n}: {a[n]} != {b[n]}")
    return out


def _load_c() -> ModuleType:
    try:
        from percent_encoding import _speedups
    except ImportError:
        pytest.skip("the C twin is not built (tests/test_speedups.py says why)")
    return _speedups


def test_the_stub_declares_what_the_c_code_takes() -> None:
    assert not differences(c_signatures(CSRC), stub_signatures(STUB.read_text(encoding="utf-8")))


def test_the_text_signatures_declare_what_the_c_code_takes() -> None:
    assert not differences(c_signatures(CSRC), text_signatures(_load_c()))


def test_the_stub_matches_the_built_module() -> None:
    assert not differences(text_signatures(_load_c()),
                           stub_signatures(STUB.read_text(encoding="utf-8")))


def test_one_argument_too_many_is_refused() -> None:
    # The built module agrees with the C reading: one positional argument past the last
    # is a TypeError before any work is done.
    c = _load_c()
    for name, params in c_signatures(CSRC).items():
        with pytest.raises(TypeError):
            getattr(c, name)(*[None] * (len(params) + 1))


def test_the_check_can_fail() -> None:
    # arrow_url before this check: seven in C, six in the stub and the docstring (and
    # url_parse with one parameter fewer than C takes).
    stub = stub_signatures(
        "def arrow_url(chunk: object, base: object, fields: object, fallback: Any,\n"
        "              large: bool, first_row: int) -> Any: ...\n"
        "def url_setup(url_type: type, error_type: type, host_hook: Any,\n"
        "              parse_error: type, nfc_check: Any = None) -> None: ...\n"
        "def arrow_map(column: object, op: str, arg: object, plus: bool, errors: str,\n"
        "              views: bool = ...) -> Any: ...\n"
        "def url_parse(text: str, base: Any = ...) -> Any: ...\n"
        "def gone(x: int) -> None: ...\n")
    c = c_signatures(CSRC)
    found = differences({n: c[n] for n in ("arrow_url", "url_setup", "arrow_map",
                                            "url_parse", "set_entries_active")}, stub)
    assert [f.split(":")[0] for f in found] == [
        "gone", "set_entries_active", "arrow_map", "arrow_url", "url_parse"]
