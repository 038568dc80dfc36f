"""Side-by-side benchmarks: percent_encoding (C and pure twins) against its peers.

One run measures every operation for every implementation, interleaved: each
round times every contender once, one right after the other, by the same
direct call.  The time shown is the minimum over rounds; the ratio to the
fastest peer is the median of the rounds' own ratios, so a machine whose
speed changes from second to second (a shared VM) moves both sides of each
ratio together.  Peers: ``urllib.parse`` (stdlib, pure Python),
``yarl`` (Cython: ``_quoting_c._Quoter`` / ``_Unquoter`` and its query
helpers), ``can_ada`` and ``ada_url`` (ada, C++) for forms; a plain C loop
compiled here gives the machine's ceiling for the long inputs.

    ./dev bench                       # or: .venv/bin/python bench/run.py
    .venv/bin/python bench/run.py --rounds 61 --json out.json

Contenders whose output differs from ours on an input are marked ``*`` (for
example ``urllib.parse.quote`` encodes ``!'()*``, which the component set
leaves alone); they do the same amount of work.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

import percent_encoding
from percent_encoding import _kernels, _pure, core, form, sets

try:
    from percent_encoding import _speedups as C
except ImportError:  # pragma: no cover - reported in the output
    C = None  # type: ignore[assignment]


# -- inputs ----------------------------------------------------------------------------------

random.seed(20261122)
COMPONENT = sets.COMPONENT.table
S24 = "user query: café & más!"[:24].ljust(24, "?")
JA = ("日本語の文章を百分率符号化する試験です。" * 200)
JA = JA[: 8192 // 3]  # 8 KB of UTF-8
ASCII64K = "".join(random.choice("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
                   for _ in range(65536))
E24 = _pure.encode(S24, COMPONENT, False)
EJA = _pure.encode(JA, COMPONENT, False)
# More short decodes: CJK text (3-byte UTF-8, a UCS-2 result) and a path
# segment with nothing to decode (the input itself comes back).
ESJA = _pure.encode("検索: 東京の天気", COMPONENT, False)
PLAIN27 = "plain-ascii_path.segment-27"


def _one_mb_30pct() -> str:
    # 7 plain characters, then one %XX: 3 of every 10 characters are escapes.
    out: list[str] = []
    size = 0
    letters = "abcdefghijklmnopqrstuvwxyz0123456789-._"
    escapes = [f"%{b:02X}" for b in b" /?&=#+,;:@$!"]
    while size < 1 << 20:
        out.append("".join(random.choices(letters, k=7)) + random.choice(escapes))
        size += 10
    return "".join(out)


MB30 = _one_mb_30pct()


def _one_mb_japanese_30pct() -> str:
    # Japanese text (a UCS-2 str) with 30% of its characters percent-encoded
    # (each as three %XX escapes of its UTF-8): the multi-byte decode case.
    rng = random.Random(8)
    src = "日本語の文章を百分率符号化する試験です。東京の天気は晴れ、"
    out: list[str] = []
    size = 0
    while size < 1 << 20:
        ch = rng.choice(src)
        piece = _pure.encode(ch, COMPONENT, False) if rng.random() < 0.3 else ch
        out.append(piece)
        size += len(piece)
    return "".join(out)


MBJA30 = _one_mb_japanese_30pct()


def _one_mb_multibyte_30pct() -> str:
    # ASCII text with escaped 2- to 4-byte characters (é, 日, 😀, ...), about 30% of
    # its characters in escapes: decode_text's long-input path (the AVX2 block
    # decoder, then a str of kind 4).
    rng = random.Random(28)
    chars = ["é", "ß", "ж", "ש", "日", "本", "€", "語", "\U0001f600", "\U0001d11e", "\U0001f680"]
    letters = "abcdefghijklmnopqrstuvwxyz0123456789-._"
    out: list[str] = []
    size = 0
    while size < 1 << 20:
        piece = (_pure.encode(rng.choice(chars), COMPONENT, False) if rng.random() < 0.0455
                 else rng.choice(letters))
        out.append(piece)
        size += len(piece)
    return "".join(out)


MBMB30 = _one_mb_multibyte_30pct()
Q8_PAIRS = [
    ("q", "percent encoding"), ("lang", "ja"), ("page", "2"), ("sort", "date desc"),
    ("name", "José Müller"), ("city", "東京"), ("tags", "a,b&c"), ("empty", ""),
]
Q8 = _pure.form_serialize(Q8_PAIRS)


def _big_pairs() -> list[tuple[str, str]]:
    pairs = []
    for i in range(20000):
        value = "".join(random.choices("abcdefghij klmnop", k=24)) + random.choice(
            ["", "é", "日本", "a&b", "1+1=2", "50%"]
        )
        pairs.append((f"field_{i}", value))
    return pairs


BIG_PAIRS = _big_pairs()
BIG_BODY = _pure.form_serialize(BIG_PAIRS)


# -- contenders ------------------------------------------------------------------------------


class Call:
    """One contender: a callable and its arguments, timed as ``fn(a0, a1, ...)``.

    Every contender, ours and the peers', is timed by the same kind of loop
    calling its function directly, as a user writes the call (no lambda or
    wrapper frame in between, no ``*args``), so each pays the Python call
    cost a real call pays.  ``kernels`` (ours, API rows) sets
    core's kernel twin around the whole timed loop: the swap is the
    benchmark's cost, not the library's.
    """

    def __init__(self, fn: Callable[..., Any], *args: Any, kernels: Any = None,
                 **kwargs: Any) -> None:
        self.fn, self.args, self.kwargs, self.kernels = fn, args, kwargs, kernels

    def __call__(self) -> Any:
        old = core._use_kernels(self.kernels) if self.kernels is not None else None
        try:
            return self.fn(*self.args, **self.kwargs)
        finally:
            if old is not None:
                core._use_kernels(old)


def _peers() -> dict[str, Any]:
    found: dict[str, Any] = {}
    try:
        from yarl import _parse as yparse
        from yarl import _query as yquery
        from yarl._quoting_c import _Quoter, _Unquoter

        found["yarl"] = (_Quoter(requote=False), _Unquoter(), yparse.query_to_pairs,
                         yquery.get_str_query_from_iterable)
    except ImportError:
        pass
    try:
        import can_ada

        found["can_ada"] = can_ada
    except ImportError:
        pass
    try:
        import ada_url

        found["ada_url"] = ada_url
    except ImportError:
        pass
    return found


def _ada_serialize(mod: Any, pairs: list[tuple[str, str]]) -> str:
    # ada has no constructor from pairs: append them one by one
    p = mod.URLSearchParams("")
    for k, v in pairs:
        p.append(k, v)
    return str(p)


def _can_ada_parse(mod: Any, body: str) -> list[tuple[str, str]]:
    return list(mod.URLSearchParams(body))


def _ada_url_parse(mod: Any, body: str) -> list[tuple[str, str]]:
    return list(mod.URLSearchParams(body).items())


def operations() -> list[dict[str, Any]]:
    peers = _peers()
    ops: list[dict[str, Any]] = []

    def op(name: str, size: int, ours: dict[str, Call], others: dict[str, Call]) -> None:
        ops.append({"name": name, "bytes": size, "ours": ours, "peers": others})

    def ours(api: Callable[..., Any], kernel: str, *kargs: Any, api_args: tuple[Any, ...]
             ) -> dict[str, Call]:
        d: dict[str, Call] = {}
        if C is not None:
            d["ours: C, API"] = Call(api, *api_args, kernels=C)
            d["ours: C, kernel"] = Call(getattr(C, kernel), *kargs)
        # A pure-twin install binds the public name to the checked function
        # itself (_kernels.make_entry), or for decode_text and encode to a front
        # that takes an option-free call (core._decode_text_pure, _encode_pure); the C entry's
        # hand-off is no part of that install's call.
        pure_api = (core._decode_text_pure if api is percent_encoding.decode_text
                    else core._encode_pure if api is percent_encoding.encode
                    else _kernels.checked(api))
        d["ours: pure, API"] = Call(pure_api, *api_args, kernels=_pure)
        return d

    y = peers.get("yarl")
    # encode
    for label, text in (("encode 24 chars", S24), ("encode 8 KB Japanese", JA),
                        ("encode no-op 64 KB ASCII", ASCII64K)):
        others: dict[str, Call] = {"urllib.parse.quote": Call(urllib.parse.quote, text, safe="")}
        if y:
            others["yarl _Quoter"] = Call(y[0], text)
        op(label, len(text.encode()),
           ours(percent_encoding.encode, "encode", text, COMPONENT, False, api_args=(text,)),
           others)
    # decode (str -> str: what the peers return)
    for label, text in (("decode short", E24), ("decode short Japanese", ESJA),
                        ("decode no-op 27 chars", PLAIN27), ("decode 8 KB Japanese", EJA),
                        ("decode 1 MB, 30% escapes", MB30),
                        ("decode 1 MB Japanese, 30% escaped", MBJA30),
                        ("decode 1 MB, 30% escapes of 2-4 byte UTF-8", MBMB30)):
        others = {"urllib.parse.unquote": Call(urllib.parse.unquote, text)}
        if y:
            others["yarl _Unquoter"] = Call(y[1], text)
        op(label, len(text),
           ours(percent_encoding.decode_text, "decode_text", text, False, False, False,
                api_args=(text,)),
           others)
    # forms
    for label, body in (("form parse 8 fields", Q8), ("form parse 1 MB, 20,000 fields", BIG_BODY)):
        others = {"urllib.parse.parse_qsl": Call(urllib.parse.parse_qsl, body,
                                                 keep_blank_values=True)}
        if y:
            others["yarl query_to_pairs"] = Call(y[2], body)
        if "can_ada" in peers:
            others["can_ada URLSearchParams"] = Call(_can_ada_parse, peers["can_ada"], body)
        if "ada_url" in peers:
            others["ada_url URLSearchParams"] = Call(_ada_url_parse, peers["ada_url"], body)
        op(label, len(body.encode()),
           ours(form.parse, "form_parse", body, api_args=(body,)), others)
    for label, pairs, out in (("form serialize 8 fields", Q8_PAIRS, Q8),
                              ("form serialize 20,000 fields (1 MB)", BIG_PAIRS, BIG_BODY)):
        others = {"urllib.parse.urlencode": Call(urllib.parse.urlencode, pairs)}
        if y:
            others["yarl get_str_query"] = Call(y[3], pairs)
        if "can_ada" in peers:
            others["can_ada URLSearchParams"] = Call(_ada_serialize, peers["can_ada"], pairs)
        if "ada_url" in peers:
            others["ada_url URLSearchParams"] = Call(_ada_serialize, peers["ada_url"], pairs)
        op(label, len(out), ours(form.serialize, "form_serialize", pairs, api_args=(pairs,)),
           others)
    return ops


# -- timing ----------------------------------------------------------------------------------


_LOOPS: dict[tuple[int, tuple[str, ...]], Callable[..., float]] = {}


def _loop(nargs: int, kwnames: tuple[str, ...]) -> Callable[..., float]:
    """A timing loop that calls ``f`` as a user writes the call.

    ``f(a0, a1, key=k0)`` with the arguments as locals, not ``f(*args)``:
    spreading a ready-made tuple hands a ``tp_call`` callable (yarl's Cython
    ``_Quoter``/``_Unquoter``) the argument tuple that every real call of it
    has to build, and that is a fifth to a third of a short call.
    """
    key = (nargs, kwnames)
    if key not in _LOOPS:
        params = [f"a{i}" for i in range(nargs)] + [f"k{i}" for i in range(len(kwnames))]
        call = [f"a{i}" for i in range(nargs)] + [f"{k}=k{i}" for i, k in enumerate(kwnames)]
        src = (f"def loop(n, f, {', '.join(params)}):\n"
               "    t0 = perf_counter()\n"
               "    for _ in range(n):\n"
               f"        f({', '.join(call)})\n"
               "    return perf_counter() - t0\n")
        space: dict[str, Any] = {"perf_counter": time.perf_counter}
        exec(src, space)  # the benchmark's own loop source, built above
        _LOOPS[key] = space["loop"]
    return _LOOPS[key]


def _sample(fn: Call, n: int) -> float:
    old = core._use_kernels(fn.kernels) if fn.kernels is not None else None
    loop = _loop(len(fn.args), tuple(fn.kwargs))
    try:
        return loop(n, fn.fn, *fn.args, *fn.kwargs.values()) / n
    finally:
        if old is not None:
            core._use_kernels(old)


def _calibrate(fn: Call, target: float) -> int:
    n = 1
    while True:
        dt = _sample(fn, n) * n
        if dt >= target or n >= 1 << 22:
            return max(1, int(n * target / dt)) if dt > 0 else n
        n *= 4


def _warm_up(ops: list[dict[str, Any]], seconds: float = 1.0) -> None:
    # A second of the first operation's calls before anything is timed: the first
    # rows of a run were up to 2x slower in every round (every contender alike) while
    # the machine came up to speed.
    if not ops:
        return
    fns = list(ops[0]["ours"].values()) + list(ops[0]["peers"].values())
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for fn in fns:
            _sample(fn, 100)


def measure(ops: list[dict[str, Any]], rounds: int, target: float) -> list[dict[str, Any]]:
    results = []
    _warm_up(ops)
    for o in ops:
        contenders: dict[str, Call] = {**o["ours"], **o["peers"]}
        reference = o["ours"]["ours: pure, API"]()
        agree = {name: _same(fn(), reference) for name, fn in contenders.items()}
        counts = {name: _calibrate(fn, target) for name, fn in contenders.items()}
        samples: dict[str, list[float]] = {name: [] for name in contenders}
        gc.collect()
        for _ in range(rounds):
            for name, fn in contenders.items():
                samples[name].append(_sample(fn, counts[name]) * 1e9)
        results.append({"name": o["name"], "bytes": o["bytes"],
                        "ns": {k: min(v) for k, v in samples.items()}, "samples": samples,
                        "agree": agree, "peers": list(o["peers"])})
        print(f"  measured {o['name']}", file=sys.stderr)
    return results


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return [tuple(x) for x in a] == [tuple(x) for x in b]
    return bool(a == b)


# -- the plain C loop ------------------------------------------------------------------------

C_LOOP = r"""
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
static unsigned char hexval[256];
static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + t.tv_nsec * 1e-9; }
static unsigned char *slurp(const char *path, long *n) { FILE *f = fopen(path, "rb");
  fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
  unsigned char *p = malloc(*n + 1); if (fread(p, 1, *n, f) != (size_t)*n) exit(1);
  fclose(f); return p; }
/* The textbook loops, one byte at a time. */
static long decode(const unsigned char *p, long n, unsigned char *o) { long i = 0, k = 0;
  while (i < n) { if (p[i] == '%' && i + 2 < n && hexval[p[i+1]] < 16 && hexval[p[i+2]] < 16) {
      o[k++] = hexval[p[i+1]] << 4 | hexval[p[i+2]]; i += 3; } else o[k++] = p[i++]; }
  return k; }
static const char *hx = "0123456789ABCDEF";
static unsigned char enc_set[256];
static long encode(const unsigned char *p, long n, unsigned char *o) { long k = 0;
  for (long i = 0; i < n; i++) { unsigned char c = p[i];
    if (enc_set[c]) { o[k] = '%'; o[k+1] = hx[c >> 4]; o[k+2] = hx[c & 15]; k += 3; }
    else o[k++] = c; }
  return k; }
static long scan(const unsigned char *p, long n) { for (long i = 0; i < n; i++)
  if (enc_set[p[i]]) return i; return n; }
int main(int argc, char **argv) {
  memset(hexval, 255, 256);
  for (int i = 0; i < 10; i++) hexval['0' + i] = i;
  for (int i = 0; i < 6; i++) hexval['a' + i] = hexval['A' + i] = 10 + i;
  for (int c = 0; c < 256; c++) enc_set[c] = !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z')
      && !(c >= '0' && c <= '9') && !strchr("-._~!'()*", c);
  volatile long sink = 0;
  for (int a = 1; a + 1 < argc; a += 2) {
    long n; unsigned char *p = slurp(argv[a + 1], &n); unsigned char *o = malloc(3 * n + 16);
    double best = 1e9; long reps = 1 + (long)(2e7 / (n + 1));
    for (int r = 0; r < 7; r++) { double t = now();
      for (long k = 0; k < reps; k++) {
        if (!strcmp(argv[a], "decode")) sink += decode(p, n, o);
        else if (!strcmp(argv[a], "encode")) sink += encode(p, n, o);
        else if (!strcmp(argv[a], "scan")) sink += scan(p, n);
        else { memcpy(o, p, n); sink += o[n / 2]; } }
      t = (now() - t) / reps; if (t < best) best = t; }
    printf("%s %ld %.1f\n", argv[a], n, best * 1e9);
    free(p); free(o); }
  return (int)(sink & 0);
}
"""


def plain_c_loop() -> dict[str, dict[str, float]] | None:
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        (d / "loop.c").write_text(C_LOOP)
        exe = d / "loop"
        r = subprocess.run([cc, "-O2", "-o", str(exe), str(d / "loop.c")], capture_output=True)
        if r.returncode != 0:
            return None
        files = {"encode": JA.encode(), "decode": MB30.encode(), "scan": ASCII64K.encode(),
                 "memcpy": MB30.encode()}
        args = []
        for kind, data in files.items():
            (d / kind).write_bytes(data)
            args += [kind, str(d / kind)]
        out = subprocess.run([str(exe), *args], capture_output=True, text=True, check=True).stdout
    res = {}
    for line in out.split("\n"):
        if line.strip():
            kind, n, ns = line.split()
            res[kind] = {"bytes": int(n), "ns": float(ns), "mb_s": int(n) / float(ns) * 1e3}
    return res


# -- report ----------------------------------------------------------------------------------


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = []
    for mod in ("yarl", "can_ada", "ada_url"):
        try:
            from importlib.metadata import version

            versions.append(f"{mod} {version(mod.replace('_', '-'))}")
        except Exception:
            pass
    return (f"{cpu}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}, percent-encoding "
            f"{percent_encoding.__version__} ({percent_encoding.IMPLEMENTATION}); "
            + ", ".join(versions))


def _fmt_ns(ns: float) -> str:
    if ns >= 1e6:
        return f"{ns / 1e6:,.2f} ms"
    if ns >= 1e4:
        return f"{ns / 1e3:,.1f} µs"
    return f"{ns:,.0f} ns"


def ratio(r: dict[str, Any], name: str) -> float:
    """The fastest peer's time over ``name``'s: the median of per-round ratios.

    The contenders of a round are timed one right after the other, so a
    round's ratio is taken at one machine speed; the median over rounds
    then shrugs off the rounds a neighbour slowed down.
    """
    peers = {k: v for k, v in r["ns"].items() if k in r["peers"]}
    if not peers:
        return float("nan")
    fastest = min(peers, key=peers.__getitem__)
    return statistics.median(
        p / ours for p, ours in zip(r["samples"][fastest], r["samples"][name], strict=True))


def report(results: list[dict[str, Any]], cloop: dict[str, dict[str, float]] | None) -> str:
    lines = ["| operation | implementation | time per call | MB/s | vs fastest peer |",
             "|---|---|---:|---:|---:|"]
    for r in results:
        first = True
        for name, ns in sorted(r["ns"].items(), key=lambda kv: kv[1]):
            mark = "" if r["agree"][name] else " *"
            lines.append(
                f"| {r['name'] if first else ''} | {name}{mark} | {_fmt_ns(ns)} | "
                f"{r['bytes'] / ns * 1e3:,.0f} | {ratio(r, name):.2f}× |"
            )
            first = False
    out = ["\n".join(lines)]
    if cloop:
        rows = ["| plain C loop (cc -O2, one byte at a time) | input | MB/s |", "|---|---:|---:|"]
        labels = {"encode": "percent-encode 8 KB Japanese (UTF-8)",
                  "decode": "percent-decode 1 MB, 30% escapes",
                  "scan": "scan 64 KB ASCII for a byte to encode", "memcpy": "memcpy 1 MB"}
        for kind, v in cloop.items():
            rows.append(f"| {labels[kind]} | {v['bytes']:,} B | {v['mb_s']:,.0f} |")
        out.append("\n".join(rows))
        ours = {r["name"]: r for r in results}
        cmp_rows = ["| long input | ours (C kernel) MB/s | plain C loop MB/s | share |",
                    "|---|---:|---:|---:|"]
        for name, kind in (("encode 8 KB Japanese", "encode"),
                           ("decode 1 MB, 30% escapes", "decode"),
                           ("encode no-op 64 KB ASCII", "scan")):
            r = ours.get(name)
            if r and "ours: C, kernel" in r["ns"]:
                mb = r["bytes"] / r["ns"]["ours: C, kernel"] * 1e3
                cmp_rows.append(f"| {name} | {mb:,.0f} | {cloop[kind]['mb_s']:,.0f} | "
                                f"{mb / cloop[kind]['mb_s']:.0%} |")
        out.append("\n".join(cmp_rows))
    return "\n\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rounds", type=int, default=31,
                    help="interleaved rounds (time: the min; ratio: the median of rounds)")
    ap.add_argument("--target", type=float, default=0.003, help="seconds per sample")
    ap.add_argument("--only", default="", help="run operations whose name contains this")
    ap.add_argument("--json", type=Path, help="also write raw results here")
    ap.add_argument("--columns", nargs="?", type=int, const=10_000_000, metavar="ROWS",
                    help="also run bench/bench_columns.py (column decoding across engines) "
                    "on ROWS rows (default 10M); with --only columns, only that")
    args = ap.parse_args(argv)
    if args.columns is not None:
        cols = subprocess.run([sys.executable, str(Path(__file__).with_name("bench_columns.py")),
                               "--rows", str(args.columns)])
        if args.only == "columns" or cols.returncode != 0:
            return cols.returncode
    if C is None:
        print("warning: the C twin is not built; only the pure twin is measured", file=sys.stderr)
    ops = [o for o in operations() if args.only in o["name"]]
    results = measure(ops, args.rounds, args.target)
    cloop = plain_c_loop()
    text = f"Machine: {machine()}\n\n" + report(results, cloop)
    print(text)
    if args.json:
        args.json.write_text(json.dumps({"machine": machine(), "results": results,
                                         "plain_c": cloop}, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
