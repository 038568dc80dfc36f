"""What the column kernels' input checks cost: builds of the C twin side by side in one process.

The Arrow kernels check what they are given (offsets, views, and that a ``string``
row is UTF-8, which the Arrow format requires but a producer can break).  This
builds the extension's C sources several ways into a temporary directory,
loads each build as its own module, and times the same kernel call on the
benchmark's log column (``bench_columns.make_column``) with the builds taking turns,
so that each sees the same phases of a shared host:

* ``checked``: the sources in the working tree, as shipped;
* ``unchecked``: the same with ``-DPE_ARROW_UNCHECKED``, which trusts that every row
  of a ``string``/``large_string``/``string_view`` column is UTF-8 and every view's
  buffer index and span (a build for this measure only: it would pass invalid text
  through);
* ``before``: the sources at a git revision (``--before REV``), when given, and
  with ``--before-unchecked`` also ``before-unchecked``, those sources built with
  ``-DPE_ARROW_UNCHECKED`` (what trusting the rows cost then).

Each figure is the best CPU time of ``--calls`` calls a round, one thread; the
ratios are per round (the same rows, the same minute of the host), then their
range and median over ``--rounds`` rounds.

    nice .venv/bin/python bench/bench_input_checks.py --rows 1000000 --before HEAD
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import shutil
import statistics
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import bench_columns
import pyarrow as pa

from percent_encoding import sets

ROOT = Path(__file__).resolve().parent.parent
CSRC = "src/csrc"


def build(name: str, src: Path, out_dir: Path, defines: list[str]) -> ModuleType:
    """Compile the C sources in ``src`` into a module of its own, and load it."""
    ext = sysconfig.get_config_var("EXT_SUFFIX")
    target = out_dir / name / f"_speedups{ext}"
    target.parent.mkdir(parents=True)
    cc = os.environ.get("CC", "gcc")
    include = sysconfig.get_paths()["include"]
    sources = sorted(str(p) for p in src.glob("*.c"))
    subprocess.run([cc, "-std=c99", "-O3", "-shared", "-fPIC", "-fwrapv", "-I", include,
                    *defines, *sources, "-o", str(target)], check=True)
    # The same module name from another file: CPython keeps extension modules by
    # (file, name), so each build initialises on its own.
    loader = importlib.machinery.ExtensionFileLoader("percent_encoding._speedups", str(target))
    spec = importlib.util.spec_from_file_location("percent_encoding._speedups", target,
                                                  loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def sources_at(rev: str, out_dir: Path) -> Path:
    """The C sources at git revision ``rev``, written out under ``out_dir``."""
    dest = out_dir / "src-before"
    dest.mkdir()
    names = subprocess.run(["git", "-C", str(ROOT), "ls-tree", "--name-only", f"{rev}:{CSRC}"],
                           check=True, capture_output=True, text=True).stdout.split()
    for n in names:
        blob = subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:{CSRC}/{n}"],
                              check=True, capture_output=True).stdout
        (dest / n).write_bytes(blob)
    return dest


def best_cpu(call: Any, calls: int) -> float:
    times = []
    for _ in range(calls):
        t = time.process_time()
        call()
        times.append(time.process_time() - t)
    return min(times)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--rounds", type=int, default=4)
    ap.add_argument("--calls", type=int, default=5)
    ap.add_argument("--before", metavar="REV", help="also time the sources at this git revision")
    ap.add_argument("--before-unchecked", action="store_true",
                    help="with --before: also those sources built with -DPE_ARROW_UNCHECKED")
    ap.add_argument("--ops", default="decode_text,decode,encode",
                    help="comma-separated: decode_text, decode, encode")
    ap.add_argument("--type", default="string", choices=["string", "large_string", "string_view"])
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=FLAGS",
                    help="also time the working tree's sources built with these compiler flags")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pe-checks-"))
    try:
        builds = {"checked": build("checked", ROOT / CSRC, tmp, []),
                  "unchecked": build("unchecked", ROOT / CSRC, tmp, ["-DPE_ARROW_UNCHECKED"])}
        for v in args.variant:
            name, _, flags = v.partition("=")
            builds[name] = build(name, ROOT / CSRC, tmp, flags.split())
        if args.before:
            old = sources_at(args.before, tmp)
            builds["before"] = build("before", old, tmp, [])
            if args.before_unchecked:
                builds["before-unchecked"] = build("before-unchecked", old, tmp,
                                                   ["-DPE_ARROW_UNCHECKED"])
        col = bench_columns.make_column(args.rows)
        col = col.cast(getattr(pa, args.type)())
        path = sets.resolve("path").table
        op_args = {"decode_text": None, "decode": None, "encode": path}
        for m in builds.values():
            m.arrow_set_threads(1)
        nbytes = sum(b.size for b in col.buffers() if b is not None)
        print(f"{len(col):,} rows, {nbytes / 1e6:.0f} MB ({args.type}), one thread, best of "
              f"{args.calls} calls (CPU time) a round; builds: {', '.join(builds)}")
        for op in args.ops.split(","):
            rates: dict[str, list[float]] = {b: [] for b in builds}
            for _ in range(args.rounds):
                for name, m in builds.items():
                    def call(m: ModuleType = m, op: str = op) -> Any:
                        return m.arrow_map(col, op, op_args[op], False, "replace", False)
                    call()  # once unmeasured: the result's pages, the caches
                    rates[name].append(len(col) / best_cpu(call, args.calls))
            line = [f"{op}:"]
            for name in builds:
                line.append(f"{name} {max(rates[name]) / 1e6:.1f}M rows/CPU-s")
            print("  " + ", ".join(line))
            for a, b in (("checked", "unchecked"), ("checked", "before"),
                         ("before", "before-unchecked"), ("checked", "before-unchecked")):
                if b in rates:
                    r = [x / y for x, y in zip(rates[a], rates[b], strict=True)]
                    med = statistics.median(r)
                    print(f"    {a} / {b} speed, per round: "
                          + " ".join(f"{x:.3f}" for x in r)
                          + f"  (CPU per row {a} vs {b}: {100 / max(r) - 100:+.1f}% to "
                          f"{100 / min(r) - 100:+.1f}%, median {100 / med - 100:+.1f}%)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
