"""Column decoding across engines: our kernel next to the engines' own URL decoders.

One synthetic log column (default 10M rows, ``--rows``): URLs and query strings
of about 60 bytes, ~30% of characters inside ``%XX`` escapes, some multi-byte
UTF-8, some invalid ``%``, ~2% of rows whose decoded bytes are not UTF-8,
~1% null.  It is built from 100,000 distinct rows tiled to length (no Python
object per row of the full column).  One run reports rows/s and MB/s (input
bytes: text + offsets) side by side for:

* ``arrow.decode_text``, C kernel, 1 and 2 threads (``arrow.set_threads``);
* the per-string ``decode_text`` in a Python loop (a subsample, extrapolated);
* the Polars namespace ``pl.col(c).pe.decode_text()`` and the pandas accessor
  ``s.pe.decode_text()``;
* our DuckDB function ``pe_decode_text`` next to DuckDB's ``url_decode`` and
  ``try(url_decode(...))`` (how many rows DuckDB fails on or turns NULL);
* Dask on a ``LocalCluster`` of 2 workers against the local kernel;
* Spark: our ``mapInArrow`` helper next to ``try_url_decode`` and an identity
  ``mapInArrow`` (the ceiling of any Arrow UDF);
* the peak memory of the kernel run (RSS high-water mark in a fresh process).

Each section prints why it is skipped when its engine or our adapter is not
installed.  The targets of the column work are checked at the end.

    .venv/bin/python bench/bench_columns.py                 # 10M rows
    nice .venv/bin/python bench/bench_columns.py --rows 1000000 --only kernel,duckdb
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

# numpy (imported by pyarrow, pandas and the engines) starts an OpenBLAS
# thread pool whose idle threads spin; on 2 cores they take time from the
# kernel's threads.  Nothing here does linear algebra.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import log_column
import pyarrow as pa

import percent_encoding as pe
from percent_encoding import _kernels, arrow

POOL = 100_000
PLAIN = ["search", "q", "id", "page", "lang", "utm_source", "news", "item", "view", "ref",
         "caf\u00e9", "\u65e5\u672c"]  # some raw multi-byte text too
ESCAPED = ["%20", "%2F", "%3D", "%26", "%C3%A9", "%E6%97%A5%E6%9C%AC", "%F0%9F%98%80",
           "%3F", "%2B", "%25"]
SECTIONS = ["kernel", "legacy", "loop", "polars", "pandas", "duckdb", "dask", "spark",
            "memory"]
LEGACY = ["windows-1252", "shift_jis"]  # decode_text(col, encoding=...): the C kernels' tables


def make_column(rows: int, seed: int = 1) -> Any:
    """The log column: a pool of distinct rows, tiled (a few ms per million rows)."""
    return log_column.make_column(rows, PLAIN, ESCAPED, pool=POOL, size=54, query_share=0.8,
                                  separators="=&+", seed=seed)


def best(f: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of this process) of the fastest of ``repeat`` runs.

    CPU time counts every thread of this process, so on a shared machine it
    shows what the work costs even when neighbours take the cores away; it
    misses work done in other processes (Dask workers, Spark's JVM).
    """
    times = []
    for _ in range(repeat):
        gc.collect()
        c = time.process_time()
        t = time.perf_counter()
        f()
        times.append((time.perf_counter() - t, time.process_time() - c))
    return min(times)


class Report:
    def __init__(self, rows: int, nbytes: int) -> None:
        self.rows, self.nbytes = rows, nbytes
        self.lines = ["| contender | rows/s | MB/s | rows per CPU-second | note |",
                      "|---|---:|---:|---:|---|"]
        self.rate: dict[str, float] = {}
        self.cpu_rate: dict[str, float] = {}
        self.host: list[float] = []  # bench_kernel: the host's two-thread scaling, per pair

    def add(self, key: str, label: str, t: tuple[float, float], rows: int | None = None,
            note: str = "", in_process: bool = True) -> None:
        secs, cpu = t
        n = self.rows if rows is None else rows
        size = self.nbytes * n / self.rows
        self.rate[key] = n / secs
        per_cpu = "–"
        if in_process and cpu > 0:
            self.cpu_rate[key] = n / cpu
            per_cpu = f"{n / cpu / 1e6:.1f}M"
        self.lines.append(f"| {label} | {n / secs / 1e6:.1f}M | {size / secs / 1e6:,.0f} | "
                          f"{per_cpu} | {note} |")
        print(f"  {label}: {n / secs / 1e6:.2f}M rows/s, {per_cpu} rows per CPU-s {note}",
              flush=True)

    def skip(self, label: str, why: str) -> None:
        self.lines.append(f"| {label} | – | – | – | skipped: {why} |")
        print(f"  {label}: skipped: {why}", flush=True)


def _adapter(name: str) -> tuple[Any, str | None]:
    """(our adapter module, None) or (None, why it is not there)."""
    try:
        return importlib.import_module(f"percent_encoding.{name}"), None
    except ImportError as e:
        return None, f"percent_encoding.{name} not importable ({e})"


def _engine(name: str) -> tuple[Any, str | None]:
    try:
        return importlib.import_module(name), None
    except ImportError:
        return None, f"{name} is not installed"


# -- sections ---------------------------------------------------------------------------------


_CAL_BUF = bytes(range(256)) * 1024  # 256 KB: stays in cache, so hashing it is CPU-bound


def host_scaling(rounds: int = 600) -> float:
    """How much work two threads of this process get done, against one, right now.

    Each thread hashes a cached buffer (``hashlib`` releases the GIL for it): no
    memory traffic and no shared data, so a machine with two free cores gives
    2.0x.  On a VM whose two vCPUs share a physical core, or while neighbours
    run, it gives less; no code of ours can scale past what this shows.
    """
    import hashlib
    import threading

    def work() -> None:
        for _ in range(rounds):
            hashlib.sha256(_CAL_BUF).digest()

    def run(n: int) -> float:
        ts = [threading.Thread(target=work) for _ in range(n)]
        t = time.perf_counter()
        for th in ts:
            th.start()
        for th in ts:
            th.join()
        return time.perf_counter() - t

    return 2 * run(1) / run(2)


def bench_kernel(col: Any, rep: Report, repeat: int) -> None:
    if _kernels.IMPLEMENTATION != "c":
        rep.skip("arrow.decode_text, C kernel", "the C extension is not built")
        return
    # 1 and 2 threads alternate, so that both see the same phases of a shared host,
    # and each pair is preceded by a measure of the host's own two-thread scaling.
    runs: dict[int, list[tuple[float, float, float]]] = {1: [], 2: []}
    host: list[float] = []
    for _ in range(repeat):
        host.append(host_scaling())
        for threads in (1, 2):
            arrow.set_threads(threads)
            gc.collect()
            t0, w = os.times(), time.perf_counter()
            arrow.decode_text(col)
            w, t1 = time.perf_counter() - w, os.times()
            runs[threads].append((w, t1.user - t0.user, t1.system - t0.system))
    for threads in (1, 2):
        w, user, system = min(runs[threads])
        # The OS share is mostly the kernel (the OS's) zeroing the result's
        # fresh pages on first touch, which on a VM costs from run to run.
        rep.add(f"kernel{threads}", f"arrow.decode_text, C kernel, {threads} "
                f"thread{'s' * (threads > 1)}", (w, user + system),
                note=f"user CPU {len(col) / user / 1e6:.1f}M rows/s; OS {system:.2f} s"
                if user > 0 else "")
    arrow.set_threads(1)
    pairs = [a[0] / b[0] for a, b in zip(runs[1], runs[2], strict=True)]
    rep.host = host
    print("  host scaling (2 threads hashing / 1), per pair: "
          + " ".join(f"{h:.2f}x" for h in host), flush=True)
    print("  kernel 2 threads / 1 thread, per pair:            "
          + " ".join(f"{p:.2f}x" for p in pairs), flush=True)


def bench_loop(col: Any, rep: Report, sample: int) -> None:
    small = col.slice(0, min(len(col), sample))
    values = small.to_pylist()
    dt = pe.decode_text
    secs = best(lambda: [None if v is None else dt(v) for v in values], 1)
    rep.add("loop", "Python loop over per-string decode_text", secs, len(small),
            f"{len(small):,}-row subsample, extrapolated; values already Python str")


def bench_polars(col: Any, rep: Report, repeat: int) -> None:
    label = "Polars `pl.col(c).pe.decode_text()`"
    pl, why = _engine("polars")
    if pl is None or (why := _adapter("polars")[1]):
        rep.skip(label, str(why))
        return
    df = pl.DataFrame({"s": col})  # Polars keeps it as string_view
    expr = pl.col("s").pe.decode_text()
    secs = best(lambda: df.select(expr), repeat)
    rep.add("polars", label, secs, note=f"polars {pl.__version__}, kernel on 1 thread")
    if _kernels.IMPLEMENTATION == "c":
        old = arrow.set_threads(2)
        try:
            secs = best(lambda: df.select(expr), repeat)
        finally:
            arrow.set_threads(old)
        rep.add("polars2", label + ", `arrow.set_threads(2)`", secs,
                note=f"polars {pl.__version__}, kernel on 2 threads")


def bench_pandas(col: Any, rep: Report, repeat: int) -> None:
    label = "pandas `s.pe.decode_text()` (ArrowDtype string)"
    pd, why = _engine("pandas")
    if pd is None or (why := _adapter("pandas")[1]):
        rep.skip(label, str(why))
        return
    s = pd.Series(pd.arrays.ArrowExtensionArray(col))
    secs = best(lambda: s.pe.decode_text(), repeat)
    rep.add("pandas", label, secs, note=f"pandas {pd.__version__}")


def bench_duckdb(col: Any, rep: Report, repeat: int) -> None:
    duckdb, why = _engine("duckdb")
    if duckdb is None:
        rep.skip("DuckDB", str(why))
        return
    con = duckdb.connect()
    con.execute("SET threads = 2")
    t = pa.table({"s": col})
    con.register("t_arrow", t)
    con.execute("CREATE TABLE t AS SELECT s FROM t_arrow")  # DuckDB's own storage
    con.unregister("t_arrow")
    ver = f"duckdb {duckdb.__version__}, 2 threads"

    # sum(strlen(...)) makes every row be decoded without shipping the result out.
    def q(expr: str, table: str = "t") -> Callable[[], Any]:
        sql = f"SELECT sum(strlen({expr})) FROM {table}"
        return lambda: con.execute(sql).fetchall()

    nulls = con.execute("SELECT count(*) FILTER (WHERE s IS NOT NULL AND "
                        "try(url_decode(s)) IS NULL) FROM t").fetchone()[0]
    try:
        con.execute("SELECT sum(strlen(url_decode(s))) FROM t").fetchall()
        fails = "does not fail"
    except duckdb.Error as e:
        msg = " ".join(str(e).split())
        fails = f"fails the whole query ({type(e).__name__}: …{msg[-45:]})"
    secs = best(q("try(url_decode(s))"), repeat)
    rep.add("duckdb_try", "DuckDB `try(url_decode(s))`", secs,
            note=f"{ver}; NULL for {nulls:,} rows ({nulls / len(col):.1%}) our "
            "decode_text decodes with U+FFFD")
    con.execute("CREATE TABLE ok AS SELECT s FROM t WHERE try(url_decode(s)) IS NOT NULL "
                "OR s IS NULL")
    ok_rows = con.execute("SELECT count(*) FROM ok").fetchone()[0]
    secs = best(q("url_decode(s)", "ok"), repeat)
    rep.add("duckdb_url", "DuckDB `url_decode(s)` (rows it can decode)", secs, ok_rows,
            note=f"on the full column it {fails}")

    mod, why2 = _adapter("duckdb")
    if mod is None:
        rep.skip("DuckDB `pe_decode_text(s)` (ours)", str(why2))
        return
    mod.register(con)
    secs = best(q("pe_decode_text(s)"), repeat)
    rep.add("duckdb_pe", "DuckDB `pe_decode_text(s)` (ours)", secs, note=ver)
    # A Python UDF holds the GIL while DuckDB hands it each 2,048-row vector and takes
    # the result back; with two DuckDB threads the second waits for it.  One thread
    # each, for both functions:
    con.execute("SET threads = 1")
    secs = best(q("try(url_decode(s))"), repeat)
    rep.add("duckdb_try1", "DuckDB `try(url_decode(s))`, `SET threads = 1`", secs,
            note=f"duckdb {duckdb.__version__}, 1 thread")
    secs = best(q("pe_decode_text(s)"), repeat)
    rep.add("duckdb_pe1", "DuckDB `pe_decode_text(s)` (ours), `SET threads = 1`", secs,
            note=f"duckdb {duckdb.__version__}, 1 thread")
    # The ceiling of any Arrow UDF: one that returns its argument as it is, so all its
    # time is DuckDB's, moving each vector to Arrow and back (as Spark's identity below).
    varchar = duckdb.sqltype("VARCHAR")
    con.create_function("bench_identity", lambda c: c, [varchar], varchar, type="arrow",
                        null_handling="special")
    for threads, ours in ((2, "duckdb_pe"), (1, "duckdb_pe1")):
        con.execute(f"SET threads = {threads}")
        secs = best(q("bench_identity(s)"), repeat)
        share = rep.rate[ours] / (len(col) / secs[0])
        rep.add(f"duckdb_id{threads}", f"DuckDB identity Arrow UDF (the UDF ceiling), "
                f"{threads} thread{'s' * (threads > 1)}", secs,
                note=f"`pe_decode_text` reaches {share:.0%} of it")
    con.execute("SET threads = 2")


def bench_dask(col: Any, rep: Report, repeat: int) -> None:
    label = "Dask, LocalCluster(2 workers), percent_encoding.dask"
    dd, why = _engine("dask.dataframe")
    if dd is None or (why := _engine("distributed")[1]):
        rep.skip(label, str(why))
        return
    mod, why = _adapter("dask")
    if mod is None:
        rep.skip(label, str(why))
        return
    helper = getattr(mod, "decode_text", None)
    if helper is None:
        rep.skip(label, "percent_encoding.dask has no decode_text()")
        return
    import pandas as pd
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True) as cluster, \
            Client(cluster) as client:
        s = pd.Series(pd.arrays.ArrowExtensionArray(col), name="s")
        ddf = dd.from_pandas(s.to_frame(), npartitions=8)
        ddf = client.persist(ddf)  # the data lives on the workers before the clock starts
        client.wait_for_workers(2)

        def run() -> Any:
            out = helper(ddf["s"])
            return out.map_partitions(len).sum().compute()

        secs = best(run, repeat)
    rep.add("dask", label, secs, note="8 partitions, data persisted on the workers",
            in_process=False)


def bench_spark(col: Any, rep: Report, repeat: int) -> None:
    label = "Spark"
    ps, why = _engine("pyspark")
    if ps is None:
        rep.skip(label, str(why))
        return
    if not any(os.access(os.path.join(p, "java"), os.X_OK)
               for p in os.environ.get("PATH", "").split(os.pathsep)) \
            and not os.environ.get("JAVA_HOME"):
        rep.skip(label, "no Java runtime (java not on PATH, JAVA_HOME unset)")
        return
    from pyspark.sql import SparkSession
    from pyspark.sql import functions as F

    # The Python workers must be this interpreter (with pyarrow and percent-encoding).
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (SparkSession.builder.master("local[2]").appName("bench_columns")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.driver.memory", "4g").getOrCreate())
    try:
        df = spark.createDataFrame(pa.table({"s": col}).to_pandas()).cache()
        df.count()

        def total(d: Any, c: str) -> Callable[[], Any]:
            return lambda: d.agg(F.sum(F.length(c))).collect()

        secs = best(total(df.select(F.expr("try_url_decode(s)").alias("d")), "d"), repeat)
        rep.add("spark_try", "Spark `try_url_decode(s)`", secs, note="local[2]", in_process=False)
        ident = df.mapInArrow(lambda it: it, df.schema)
        secs = best(total(ident, "s"), repeat)
        rep.add("spark_identity", "Spark identity `mapInArrow` (ceiling)", secs,
                note="local[2]", in_process=False)
        mod, why = _adapter("spark")
        if mod is None:
            rep.skip("Spark, percent_encoding.spark (ours)", str(why))
            return
        ours = mod.map_in_arrow(df, "s", "decode_text")
        secs = best(total(ours, "s"), repeat)
        rep.add("spark_pe", "Spark, percent_encoding.spark `mapInArrow` (ours)", secs,
                note="local[2]", in_process=False)
        # The column-function form: an Arrow UDF on Spark 4.1+, a pandas UDF before.
        udf = mod.udf("decode_text")
        secs = best(total(df.select(udf("s").alias("d")), "d"), repeat)
        rep.add("spark_udf", "Spark, percent_encoding.spark `udf` (ours)", secs,
                note="local[2]", in_process=False)
    finally:
        spark.stop()


# -- peak memory ------------------------------------------------------------------------------


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1]) * 1024
    return 0


def peak_child(rows: int, threads: int) -> None:
    """In a fresh process: RSS before the call, the high-water mark during it."""
    col = make_column(rows)
    arrow.set_threads(threads)
    arrow.decode_text(col.slice(0, 1000))  # imports and first-call setup out of the way
    gc.collect()
    before = _status("VmRSS")
    with open("/proc/self/clear_refs", "w") as f:  # Linux: reset VmHWM to the current RSS
        f.write("5")
    out = arrow.decode_text(col)
    peak = _status("VmHWM")
    print(before, peak, col.nbytes, out.nbytes)


def bench_memory(rows: int, rep: Report) -> list[str]:
    if _kernels.IMPLEMENTATION != "c" or not os.path.exists("/proc/self/clear_refs"):
        return ["peak memory: skipped (needs the C kernels and Linux /proc)"]
    lines = []
    for threads in (1, 2):
        res = subprocess.run([sys.executable, __file__, "--rows", str(rows),
                              "--peak-child", str(threads)],
                             capture_output=True, text=True)
        if res.returncode != 0:
            lines.append(f"peak memory, {threads} thread(s): failed: {res.stderr.strip()[-200:]}")
            continue
        before, peak, inb, outb = (int(x) for x in res.stdout.split())
        over = peak - before - outb
        rep.rate[f"overhead{threads}"] = over / 1e6
        lines.append(f"peak memory, {rows:,} rows, {threads} thread(s): input {inb / 1e6:,.0f} MB"
                     f" (resident before the call), output {outb / 1e6:,.0f} MB, RSS growth "
                     f"during the call {(peak - before) / 1e6:,.0f} MB: overhead over the "
                     f"output {round(over / 1e6) or 0:,} MB")
    return lines


# -- targets ----------------------------------------------------------------------------------


def bench_legacy(col: Any, rep: Report, repeat: int) -> None:
    """decode_text with a legacy encoding on the same column, one thread."""
    if _kernels.IMPLEMENTATION != "c":
        rep.skip("arrow.decode_text, legacy encodings", "the C extension is not built")
        return
    arrow.set_threads(1)
    for enc in LEGACY:
        rep.add(f"legacy_{enc}", f"arrow.decode_text(encoding={enc!r}), C kernel, 1 thread",
                best(lambda enc=enc: arrow.decode_text(col, encoding=enc), repeat))


def targets(rep: Report) -> list[str]:
    r = rep.rate
    out = ["| target | measured | |", "|---|---:|---|"]

    def line(name: str, value: float | None, goal: float, unit: str, fmt: str = "{:.2f}",
             lower_is_better: bool = False) -> None:
        if value is None:
            out.append(f"| {name} | – | pending |")
            return
        ok = value <= goal if lower_is_better else value >= goal
        out.append(f"| {name} | {fmt.format(value)}{unit} | {'met' if ok else 'NOT met'} |")

    k1 = r.get("kernel1")
    c1 = rep.cpu_rate.get("kernel1")
    line("kernel, 1 thread >= 15M rows/s (wall clock)", k1 / 1e6 if k1 else None, 15,
         "M rows/s", "{:.1f}")
    line("kernel, 1 thread >= 15M rows/s (per CPU-second)", c1 / 1e6 if c1 else None, 15,
         "M rows/s", "{:.1f}")
    line("kernel, 2 threads >= 1.8x 1 thread (the fastest run of each)",
         r["kernel2"] / k1 if k1 and "kernel2" in r else None, 1.8, "x")
    if rep.host:
        # Not a target: what the machine allowed while the kernel ran (see host_scaling).
        h = sorted(rep.host)
        out.append(f"| (context) the host's own two-thread scaling during those runs | "
                   f"median {h[len(h) // 2]:.2f}x, best {h[-1]:.2f}x | |")
    for enc, goal in (("windows-1252", 5), ("shift_jis", 2)):
        c = rep.cpu_rate.get(f"legacy_{enc}")
        line(f"decode_text(encoding={enc!r}) >= {goal}M rows/s a core (per CPU-second)",
             c / 1e6 if c else None, goal, "M rows/s", "{:.1f}")
    pol = max((r[k] for k in ("polars", "polars2") if k in r), default=None)
    line("Polars >= 20M rows/s (the faster of 1 and 2 kernel threads)",
         pol / 1e6 if pol else None, 20, "M rows/s", "{:.1f}")
    line("DuckDB pe_decode_text >= 5x url_decode (on the rows url_decode can decode)",
         r["duckdb_pe"] / r["duckdb_url"] if "duckdb_pe" in r and "duckdb_url" in r else None,
         5, "x")
    line("DuckDB pe_decode_text >= 5x try(url_decode) (the full column, 2 threads each)",
         r["duckdb_pe"] / r["duckdb_try"] if "duckdb_pe" in r and "duckdb_try" in r else None,
         5, "x")
    pe_best = max((r[k] for k in ("duckdb_pe", "duckdb_pe1") if k in r), default=None)
    try_best = max((r[k] for k in ("duckdb_try", "duckdb_try1") if k in r), default=None)
    line("DuckDB pe_decode_text >= 5x try(url_decode) (each at its faster thread count)",
         pe_best / try_best if pe_best and try_best else None, 5, "x")
    line("Spark ours >= 90% of identity mapInArrow",
         r["spark_pe"] / r["spark_identity"] if "spark_pe" in r and "spark_identity" in r
         else None, 0.9, "", "{:.0%}")
    line("Dask >= 80% of the local kernel (1 thread)",
         r["dask"] / k1 if "dask" in r and k1 else None, 0.8, "", "{:.0%}")
    ov = max((v for k, v in r.items() if k.startswith("overhead")), default=None)
    line("peak memory overhead <= 64 MB", ov, 64, " MB", "{:.0f}", lower_is_better=True)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=3, help="timed runs per contender (best)")
    ap.add_argument("--kernel-repeat", type=int, default=7,
                    help="alternating 1- and 2-thread kernel pairs (each ~1 s at 10M rows)")
    ap.add_argument("--loop-rows", type=int, default=500_000,
                    help="subsample for the per-string Python loop")
    ap.add_argument("--only", default="",
                    help="comma-separated sections: " + ",".join(SECTIONS))
    ap.add_argument("--peak-child", type=int, default=0, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.peak_child:
        peak_child(args.rows, args.peak_child)
        return 0
    only = set(args.only.split(",")) - {""} if args.only else set(SECTIONS)
    unknown = only - set(SECTIONS)
    if unknown:
        ap.error(f"unknown sections {sorted(unknown)}; choose from {SECTIONS}")
    print(f"load average at start: {os.getloadavg()[0]:.1f} ({os.cpu_count()} CPUs)")
    t = time.perf_counter()
    col = make_column(args.rows)
    print(f"column: {len(col):,} rows, {col.nbytes / 1e6:,.0f} MB (text + offsets), "
          f"{col.null_count:,} null, built in {time.perf_counter() - t:.1f} s; "
          f"kernels: {_kernels.IMPLEMENTATION}; pyarrow {pa.__version__}", flush=True)
    rep = Report(len(col), col.nbytes)
    if "kernel" in only:
        bench_kernel(col, rep, args.kernel_repeat)
    if "legacy" in only:
        bench_legacy(col, rep, args.repeat)
    if "loop" in only:
        bench_loop(col, rep, args.loop_rows)
    for name, fn in (("polars", bench_polars), ("pandas", bench_pandas),
                     ("duckdb", bench_duckdb), ("dask", bench_dask), ("spark", bench_spark)):
        if name in only:
            try:
                fn(col, rep, args.repeat)
            except Exception as e:  # one engine's failure must not lose the others' numbers
                rep.skip(name, f"failed: {type(e).__name__}: {' '.join(str(e).split())[:120]}")
    mem = bench_memory(args.rows, rep) if "memory" in only else []
    print()
    print("\n".join(rep.lines))
    print()
    print("\n".join(mem))
    print()
    print("\n".join(targets(rep)))
    print(f"\nload average at the end: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
