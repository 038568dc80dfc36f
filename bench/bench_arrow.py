"""Column throughput of percent_encoding.arrow on a synthetic log column.

The column: URLs and queries of about 60 bytes, ~30% of characters escaped,
some multi-byte UTF-8, some invalid ``%``, ~2% of rows not UTF-8 once
decoded, ~1% null.  Rows/s and MB/s (input bytes) for the C kernel on 1 and
2 threads, the pure twin, and a Python loop over the per-string
``decode_text``; the peak memory of a kernel run (in a fresh process)
against input + output.

    .venv/bin/python bench/bench_arrow.py            # 10M rows
    .venv/bin/python bench/bench_arrow.py --rows 1000000
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from typing import Any

import log_column

import percent_encoding as pe
from percent_encoding import _kernels, _pure, arrow, core

PIECES_PLAIN = ["search", "q", "id", "page", "lang", "utm_source", "news", "item", "view"]
ESCAPED = ["%20", "%2F", "%3D", "%26", "%C3%A9", "%E6%97%A5%E6%9C%AC", "%F0%9F%98%80"]


def make_column(rows: int, seed: int = 1) -> Any:
    return log_column.make_column(rows, PIECES_PLAIN, ESCAPED, pool=20_000, size=52,
                                  query_share=1.0, separators="=&", seed=seed)


def best(f: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        f()
        times.append(time.perf_counter() - t)
    return min(times)


def peak_child(rows: int, threads: int) -> None:
    col = make_column(rows)
    arrow.set_threads(threads)
    arrow.decode_text(col.slice(0, 1000))  # imports and first-call setup out of the way
    before = _rss("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:  # Linux: reset the peak (VmHWM) to now
        f.write("5")
    out = arrow.decode_text(col)
    after = _rss("VmHWM")
    print(before, after, col.nbytes, out.nbytes)


def _rss(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--peak-child", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.peak_child:
        peak_child(args.rows, args.peak_child)
        return 0
    col = make_column(args.rows)
    mb = col.nbytes / 1e6
    print(f"column: {len(col):,} rows, {col.nbytes / 1e6:.0f} MB, {col.null_count:,} null, "
          f"implementation {_kernels.IMPLEMENTATION}")
    lines = ["| contender | rows/s | MB/s |", "|---|---:|---:|"]

    def row(label: str, secs: float, n: int, size: float) -> None:
        lines.append(f"| {label} | {n / secs / 1e6:.1f}M | {size / secs:,.0f} |")

    if _kernels.IMPLEMENTATION == "c":
        for threads in (1, 2):
            arrow.set_threads(threads)
            secs = best(lambda: arrow.decode_text(col), args.repeat)
            row(f"arrow.decode_text, C kernel, {threads} thread{'s' * (threads > 1)}",
                secs, len(col), mb)
        arrow.set_threads(2)
        secs = best(lambda: arrow.decode_text(col, errors="null"), args.repeat)
        row("arrow.decode_text errors='null', C, 2 threads", secs, len(col), mb)
        secs = best(lambda: arrow.decode(col), args.repeat)
        row("arrow.decode (binary), C, 2 threads", secs, len(col), mb)
        secs = best(lambda: arrow.form_get(col, "utm_source"), args.repeat)
        row("arrow.form_get('utm_source'), C, 2 threads", secs, len(col), mb)
        arrow.set_threads(1)
    small = col.slice(0, min(len(col), 1_000_000))
    small_mb = mb * len(small) / len(col)
    values = small.to_pylist()
    dt = pe.decode_text
    secs = best(lambda: [None if v is None else dt(v) for v in values], 1)
    row("Python loop over decode_text (values already Python str)", secs, len(small), small_mb)
    old = core._use_kernels(_pure)
    try:
        secs = best(lambda: arrow.decode_text(small), 1)
    finally:
        core._use_kernels(old)
    row("arrow.decode_text, pure twin (pyarrow, row by row)", secs, len(small), small_mb)
    print("\n".join(lines))

    if _kernels.IMPLEMENTATION == "c":
        for threads in (1, 2):
            out = subprocess.run([sys.executable, __file__, "--rows", str(args.rows),
                                  "--peak-child", str(threads)],
                                 capture_output=True, text=True, check=True).stdout.split()
            before, after, inb, outb = (int(x) for x in out)
            print(f"peak memory, {threads} thread(s): input {inb / 1e6:.0f} MB, output "
                  f"{outb / 1e6:.0f} MB, peak growth during the call {(after - before) / 1e6:.0f}"
                  f" MB, over input + output {(after - before - outb) / 1e6:.0f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
