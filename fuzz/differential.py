"""Bounded differential fuzz: the C twin against the pure twin, a fixed number of inputs.

Where ``fuzz_twins.py`` runs for as long as it is given (atheris, coverage-guided), this
run is deterministic: ``count`` inputs made from a fixed ``seed``, each run through both
twins (``core._use_kernels``, as the test suite switches them), with every difference
reported.  The slow tier of the test suite runs it (tests/test_fuzz_differential.py); by
hand it takes a larger count:

    .venv/bin/python fuzz/differential.py                      # the default count
    .venv/bin/python fuzz/differential.py --count 200000 --seed 7

What is compared, input by input (URL Standard §4.4 basic URL parser, §6.1 the API):

* ``url.parse(s)`` and ``url.parse(s, base)``: the href, the validation errors, every
  getter and ``origin`` (§4.7), or the exception (type, name, position, message);
  ``url.can_parse`` against both.
* The setters (§6.1): ``URL.replace(component=value)`` on a URL each twin parsed itself.
* Hosts (§3.5, UTS #46 through ``idna.to_ascii``): special and opaque hosts, long ones
  (past 253 code points, where the C parser hands over) and Unicode ones.
* URL columns: ``arrow.url_parse``, ``url_component`` (``origin``) and ``url_can_parse``
  on a batch of the inputs (``string``, ``large_string``, ``string_view``, with nulls and
  rows that are not UTF-8), with no base, one base and a base column, against the
  per-string API of the pure twin, row by row.

Inputs are mutations of wpt's urltestdata.json, setters_tests.json and toascii.json
inputs (vendored in ``tests/data/wpt``, or ``../shared/conformance/wpt``; a small built-in
list without either): characters inserted, replaced and deleted from an alphabet of
controls, ``%`` escapes, delimiters, lone surrogates and Unicode that IDNA maps, splices
of two seeds, random code points, and long hosts.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
from helpers.twins import KERNELS  # noqa: E402
from percent_encoding import core, idna, url  # noqa: E402

DEFAULT_COUNT = 4000
ATTRS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
         "search", "hash", "origin", "has_opaque_path")
SETTERS = ("href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
           "search", "hash")

_BUILTIN_SEEDS = [
    "http://example.com/", "https://user:pass@EXAMPLE.org:8080/a/../b?q=1#f", "file:///C:/x",
    "foo://h/p", "mailto:a@b", "http://[::1]/", "http://1.2.3.4/", "http://0x7f.1/",
    "http://faß.de/", "http://xn--nxasmq6b.com/", "ws://h:80/", "blob:https://a/b", "a:",
    "//x/y", "/p?q", "?q", "#f", "", "http://ü.example/ä?ö#ü", "http://a%2eb/",
]
_BUILTIN_HOSTS = ["example.com", "faß.de", "xn--nxasmq6b", "日本.jp", "a.b.c", "1.2.3.4",
                  "[::1]", "ａｂｃ", "a\u200db", "xn--", "EXAMPLE.COM", "a..b", ".", ""]

# What mutations insert: controls, escapes, delimiters, lone surrogates, Unicode that
# UTS #46 maps or rejects, IPv4/IPv6 pieces.
_PIECES = [
    "\x00", "\t", "\n", "\r", "\x1f", " ", "\x7f", "%", "%2", "%2e", "%2E", "%00", "%zz",
    "%41", "%C3%A9", "%ff", "%25", ":", "/", "//", "\\", "?", "#", "@", "[", "]", ".", "..",
    "/./", "/../", "xn--", "0x", "0", "255", "256", "4294967296", "::", "1:2", "[::ffff:1.2.3.4]",
    "\ud800", "\udfff", "\ud83d\ude00", "\ufffd", "\ufeff", "\u00ad", "\u200c", "\u200d",
    "ü", "ß", "ẞ", "ς", "日", "\u0307", "\U000105d2", "．", "。", "ａ", "\u2488", "\u0660",
    "\u05d0", "\U0001f600", "\U0010ffff", "'", "\"", "<", ">", "^", "`", "{", "|", "}", "~",
    "+", "&", "=", ";", ",", "A", "z", "9", "-", "_",
]
_SCHEMES = ["http://", "https://", "ws://", "wss://", "ftp://", "file://", "file:///", "foo://",
            "mailto:", "blob:", "javascript:", "HTTP://", "sc:", "data:", ""]


@dataclass
class Report:
    """What a run compared, and every difference it found."""

    checks: dict[str, int] = field(default_factory=dict)
    differences: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def count(self, what: str) -> None:
        self.checks[what] = self.checks.get(what, 0) + 1

    def differ(self, what: str, detail: str) -> None:
        self.differences.append(f"{what}: {detail}")

    def summary(self) -> str:
        parts = ", ".join(f"{k} {v}" for k, v in sorted(self.checks.items()))
        return (f"{sum(self.checks.values())} comparisons ({parts}) in {self.seconds:.1f} s: "
                f"{len(self.differences)} differences")


# -- seeds and mutations ----------------------------------------------------------------


# wpt's data: vendored in tests/data, or the copy in ../shared beside the checkout
_WPT = (ROOT / "tests" / "data" / "wpt", ROOT.parent / "shared" / "conformance" / "wpt")


def _load(name: str) -> Any:
    for folder in _WPT:
        p = folder / name
        if p.exists():
            return json.loads(p.read_text(encoding="utf-8"))
    return None


def seeds() -> tuple[list[str], list[str], list[tuple[str, str, str]], list[str]]:
    """(inputs, bases, setter cases (href, setter, value), hosts) from wpt, or built in."""
    inputs, bases = list(_BUILTIN_SEEDS), ["http://example.org/foo/bar", "file:///C:/a/b",
                                           "sc://x/", "about:blank", "http://h/?q#f"]
    setters: list[tuple[str, str, str]] = [("http://h/p?q#f", s, "x") for s in SETTERS]
    hosts = list(_BUILTIN_HOSTS)
    data = _load("urltestdata.json")
    for case in data or []:
        if isinstance(case, dict):
            inputs.append(case["input"])
            if case.get("base"):
                bases.append(case["base"])
    for name, cases in (_load("setters_tests.json") or {}).items():
        if name in SETTERS:
            setters += [(c["href"], name, c["new_value"]) for c in cases]
    for case in _load("toascii.json") or []:
        if isinstance(case, dict):
            hosts.append(case["input"])
    return inputs, sorted(set(bases)), setters, hosts


def mutate(rng: random.Random, s: str, others: list[str]) -> str:
    """s with one to four random edits."""
    for _ in range(rng.randint(1, 4)):
        k = rng.randrange(7)
        at = rng.randint(0, len(s))
        if k <= 1:
            s = s[:at] + rng.choice(_PIECES) + s[at:]
        elif k == 2 and s:
            s = s[:at] + s[at + 1:]
        elif k == 3 and s:
            s = s[:at] + rng.choice(_PIECES) + s[at + 1:]
        elif k == 4:
            o = rng.choice(others)
            s = s[:at] + o[rng.randint(0, len(o)):]
        elif k == 5:
            s = s[:at] + chr(rng.randrange(0x110000)) + s[at:]  # surrogates included
        else:
            s = s[:at] + rng.choice(_SCHEMES) + s[at:]
    return s


def long_host(rng: random.Random) -> str:
    """A host past what DNS allows: long labels, many labels, distinct code points."""
    k = rng.randrange(4)
    if k == 0:  # one label of distinct CJK code points (Punycode's work grows with them)
        start = rng.randrange(0x4E00, 0x9000)
        return "".join(chr(start + i) for i in range(rng.randint(60, 700)))
    if k == 1:  # many short labels, some Unicode
        return ".".join(rng.choice(["a", "b1", "ü", "日本", "xn--nxa", "ß"])
                        for _ in range(rng.randint(60, 200)))
    if k == 2:  # an ASCII label at and past 63 octets
        return "a" * rng.choice([62, 63, 64, 300]) + ".example"
    return "".join(chr(rng.randrange(0xA0, 0x3000)) for _ in range(rng.randint(100, 400)))


def inputs(rng: random.Random, count: int) -> Iterator[tuple[str, str | None]]:
    """(input, base or None), count of them."""
    seeds_in, bases, _, hosts = seeds()
    for _ in range(count):
        k = rng.randrange(10)
        if k < 6:
            s = mutate(rng, rng.choice(seeds_in), seeds_in)
        elif k < 8:
            host = long_host(rng) if rng.randrange(3) == 0 else mutate(
                rng, rng.choice(hosts), hosts)
            s = rng.choice(["http://", "https://", "foo://", "ws://"]) + host + rng.choice(
                ["/", "/p?q#f", ":80/", ""])
        elif k < 9:
            s = "".join(chr(rng.randrange(0x110000)) if rng.randrange(3) == 0
                        else rng.choice(_PIECES) for _ in range(rng.randint(1, 24)))
            s = rng.choice(_SCHEMES) + s
        else:
            s = rng.choice(seeds_in)
        base = None if rng.randrange(2) else mutate(rng, rng.choice(bases), bases) if (
            rng.randrange(4) == 0) else rng.choice(bases)
        yield s, base


# -- the twins --------------------------------------------------------------------------


def _twins() -> dict[str, Any]:
    if KERNELS.get("c") is None:
        raise SystemExit("the C twin is not built (./dev setup): nothing to compare")
    return {"c": KERNELS["c"], "python": KERNELS["python"]}


def _in(twin: Any, f: Callable[[], Any]) -> Any:
    old = core._use_kernels(twin)
    try:
        return f()
    finally:
        core._use_kernels(old)


def _url_outcome(f: Callable[[], url.URL]) -> tuple[Any, ...]:
    try:
        u = f()
    except Exception as e:  # the exception is part of what must agree
        return ("raise", type(e).__name__, getattr(e, "name", None),
                getattr(e, "position", None), str(e))
    return ("ok", u.href, tuple(tuple(v) for v in u.validation_errors),
            tuple(getattr(u, a) for a in ATTRS))


def _parser_of(s: str) -> Callable[[], tuple[Any, ...]]:
    return lambda: _url_outcome(lambda: url.parse(s))


def _both(twins: dict[str, Any], f: Callable[[], Any]) -> tuple[Any, Any]:
    return _in(twins["c"], f), _in(twins["python"], f)


def check_parse(rep: Report, twins: dict[str, Any], s: str, base: str | None) -> None:
    c, py = _both(twins, lambda: _url_outcome(lambda: url.parse(s, base)))
    rep.count("parse with base" if base is not None else "parse")
    if c != py:
        rep.differ("parse", f"url.parse({s!r}, {base!r})\n    C:    {c!r}\n    pure: {py!r}")
    cc, pc = _both(twins, lambda: url.can_parse(s, base))
    rep.count("can_parse")
    if not cc == pc == (c[0] == "ok"):
        rep.differ("can_parse", f"url.can_parse({s!r}, {base!r}): C {cc}, pure {pc}, "
                   f"parse {c[0]}")


def check_setter(rep: Report, twins: dict[str, Any], href: str, name: str, value: str) -> None:
    def run() -> tuple[Any, ...]:
        try:
            u = url.parse(href)
        except Exception:
            return ("no URL",)
        return _url_outcome(lambda: u.replace(**{name: value}))

    c, py = _both(twins, run)
    rep.count("setter")
    if c != py:
        rep.differ("setter", f"url.parse({href!r}).replace({name}={value!r})\n"
                   f"    C:    {c!r}\n    pure: {py!r}")


def check_host(rep: Report, twins: dict[str, Any], host: str) -> None:
    for head in ("http://", "foo://"):
        s = head + host + "/"
        c, py = _both(twins, _parser_of(s))
        rep.count("host")
        if c != py:
            rep.differ("host", f"url.parse({s!r})\n    C:    {c!r}\n    pure: {py!r}")

    def to_ascii() -> tuple[Any, ...]:
        try:
            return ("ok", idna.to_ascii(host))
        except Exception as e:
            return ("raise", type(e).__name__, str(e), getattr(e, "position", None))

    c, py = _both(twins, to_ascii)
    rep.count("idna.to_ascii")
    if c != py:
        rep.differ("idna.to_ascii", f"idna.to_ascii({host!r})\n    C:    {c!r}\n    pure: {py!r}")


# -- URL columns --------------------------------------------------------------------------


def _per_string(s: str | None, base: str | None, has_base_column: bool, what: str) -> Any:
    """The row's value by the per-string API: what url_* must give for it."""
    if s is None or (has_base_column and base is None):
        return None
    try:
        u = url.parse(s, base)
    except Exception:
        return False if what == "can_parse" else None
    if what == "can_parse":
        return True
    if what == "origin":
        return u.origin
    return {a: getattr(u, a) for a in ATTRS[:10]}


def check_columns(rep: Report, twins: dict[str, Any], rng: random.Random,
                  batch: list[tuple[str, str | None]]) -> None:
    try:
        import pyarrow as pa

        from percent_encoding import arrow
    except ImportError:
        return
    rows: list[bytes | None] = []
    texts: list[str | None] = []
    for s, _ in batch:
        if rng.randrange(10) == 0:
            rows.append(None)
            texts.append(None)
            continue
        raw = s.encode("utf-8", "surrogatepass")  # a lone surrogate: a row not UTF-8
        rows.append(raw)
        texts.append(raw.decode("utf-8", "replace"))  # how a string row that is not UTF-8 reads
    t = rng.choice(["string", "large_string", "string_view"])
    binary = {"string": pa.binary(), "large_string": pa.large_binary(),
              "string_view": pa.binary_view()}[t]
    col = pa.array(rows, type=binary).view(getattr(pa, t)())
    one_base = rng.choice([b for _, b in batch if b is not None] or ["http://h/"])
    base_raw = [None if b is None or rng.randrange(8) == 0 else b.encode("utf-8", "surrogatepass")
                for _, b in batch]
    base_texts = [None if b is None else b.decode("utf-8", "replace") for b in base_raw]
    base_col = pa.array(base_raw, type=pa.binary()).view(pa.string())
    for base_kind in ("none", "one", "column"):
        row_bases: list[str | None] = (
            base_texts if base_kind == "column" else
            [one_base] * len(batch) if base_kind == "one" else [None] * len(batch))
        if base_kind == "one" and _in(twins["python"], lambda: not url.can_parse(one_base)):
            continue  # an invalid single base raises before any row
        base_arg: Any = {"none": None, "one": one_base, "column": base_col}[base_kind]
        for what in ("parse", "origin", "can_parse"):
            def run(what: str = what, base_arg: Any = base_arg) -> Any:
                try:
                    if what == "parse":
                        return arrow.url_parse(col, base_arg).to_pylist()
                    if what == "origin":
                        return arrow.url_component(col, "origin", base_arg).to_pylist()
                    return arrow.url_can_parse(col, base_arg).to_pylist()
                except Exception as e:
                    return ("raise", type(e).__name__, str(e))

            def expect(what: str = what, row_bases: list[str | None] = row_bases,
                       column: bool = base_kind == "column") -> list[Any]:
                return [_per_string(s, b, column, what)
                        for s, b in zip(texts, row_bases, strict=True)]

            want = _in(twins["python"], expect)
            for name in ("c", "python"):
                got = _in(twins[name], run)
                rep.count(f"column {what}")
                if got != want:
                    rep.differ(f"column {what}", _first_row_difference(
                        name, t, base_kind, one_base, batch, texts, row_bases, got, want))


def _first_row_difference(twin: str, t: str, base_kind: str, one_base: str,
                          batch: list[tuple[str, str | None]], texts: list[str | None],
                          row_bases: list[str | None], got: Any, want: list[Any]) -> str:
    head = f"{twin} twin, {t} column, base {base_kind}"
    if not isinstance(got, list):
        return f"{head}: {got!r} (inputs {[s for s, _ in batch][:8]!r}...)"
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        if g != w:
            return (f"{head}, row {i}: {texts[i]!r} against {row_bases[i]!r}\n"
                    f"    column:     {g!r}\n    per-string: {w!r}")
    return f"{head}: {len(got)} rows, {len(want)} expected"


# -- the run ----------------------------------------------------------------------------


def run(count: int = DEFAULT_COUNT, seed: int = 0, batch: int = 64) -> Report:
    """Compare the twins on ``count`` inputs made from ``seed``; returns the report."""
    t0 = time.perf_counter()
    twins = _twins()
    rng = random.Random(seed)
    _, _, setters, hosts = seeds()
    rep = Report()
    pending: list[tuple[str, str | None]] = []
    for s, base in inputs(rng, count):
        check_parse(rep, twins, s, None)
        if base is not None:
            check_parse(rep, twins, s, base)
        k = rng.randrange(4)
        if k == 0:
            href, name, value = rng.choice(setters)
            check_setter(rep, twins, href, name, mutate(rng, value, [s]) if rng.randrange(3)
                         else value)
        elif k == 1:
            host = long_host(rng) if rng.randrange(4) == 0 else mutate(rng, rng.choice(hosts),
                                                                        hosts)
            check_host(rep, twins, host)
        pending.append((s, base))
        if len(pending) == batch:
            check_columns(rep, twins, rng, pending)
            pending = []
    if pending:
        check_columns(rep, twins, rng, pending)
    rep.seconds = time.perf_counter() - t0
    return rep


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("--count", type=int, default=DEFAULT_COUNT, help="inputs to make")
    ap.add_argument("--seed", type=int, default=0, help="the random seed")
    ap.add_argument("--show", type=int, default=20, help="differences to print")
    args = ap.parse_args(argv)
    rep = run(args.count, args.seed)
    for d in rep.differences[: args.show]:
        print(d)
    print(rep.summary())
    return 1 if rep.differences else 0


if __name__ == "__main__":
    sys.exit(main())
