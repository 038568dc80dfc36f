"""URL columns: ``arrow.url_component`` / ``url_parse`` next to loops, Polars and DuckDB.

The column is ada's ``kasztp`` URL list (url-various-datasets: 48,009 real
URLs, a few not valid) tiled to ``--rows`` (default 10M).  Give its path with
``--data`` or ``$PERCENT_ENCODING_URL_DATASETS`` (a directory holding
``kasztp.txt``); the file is read, never copied.  One run reports rows/s for:

* ``arrow.url_component(col, "hostname")``, 1 and 2 threads (``set_threads``;
  ``--pairs`` alternating calls, each pair after a measure of how the machine
  itself scales to two threads right then), ``arrow.url_parse(col)`` (all ten
  fields) and ``arrow.url_can_parse(col)``;
* the per-string loop ``[url.parse(s).hostname for s in col]`` (a row that
  does not parse gives None), on a subsample;
* Polars: ``pl.col("u").pe.url_component("hostname")`` next to
  ``map_elements(lambda s: urlsplit(s).hostname)`` (a subsample);
* DuckDB: ``pe_url_component(u, 'hostname')`` next to ``regexp_extract`` of
  the host with a reasonable pattern;
* Spark (``--only spark``, needs pyspark and a JVM): our ``map_in_arrow``
  helper next to ``parse_url(u, 'HOST')``, and the rows each leaves NULL;
* memory: the RSS high-water mark of ``url_parse`` over the whole column in a
  fresh process, above the column itself, next to the result's size.

    .venv/bin/python bench/bench_url_columns.py --rows 2000000

``--only native`` is the native anchor (issue 42): on each of ada's four
corpora (``userbait``, ``kasztp``, ``isaacs_files``, ``node_files``; give the
url-various-datasets checkout with ``--datasets DIR`` or
``$PERCENT_ENCODING_URL_DATASETS``), one column of the file's lines, ns per row,
best of ``--passes``, CPU time of the calling thread (``time.thread_time``, and
``CLOCK_THREAD_CPUTIME_ID`` in the native tool; one thread, ``set_threads(1)``,
runs the kernel on the calling thread), one after the other in one run:
``arrow.url_component(col, "hostname")`` next to ada's own C++ parse +
``get_hostname`` (``bench/native_ada.py`` builds it from the ada-url sdist with
``g++ -O3``; skipped with a message when there is no C++ compiler), and
``arrow.url_parse(col)`` next to the parse + all ten getters (five rounds of
native, ours, ours, each a fifth of the passes, so that both see the same
moments of a shared machine); then the corpus
tiled to ``--tile`` rows on 1 and 2 threads (``set_threads``, alternating pairs,
best wall time of each) for the two-thread scaling, next to the machine's own
two-thread scaling right then (``bench_columns.host_scaling``).

    .venv/bin/python bench/bench_url_columns.py --only native --datasets DIR
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import pyarrow as pa
import pyarrow.compute as pc

from percent_encoding import _kernels, arrow, url

# scheme "://" optional userinfo, then the host up to ':', '/', '?' or '#'
HOST_REGEX = r"^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^:/?#]*)"


def kasztp(path: str | None) -> Path:
    where = path or os.environ.get("PERCENT_ENCODING_URL_DATASETS", "")
    p = Path(where)
    if p.is_dir():  # the file itself, or in others/ of a url-various-datasets checkout
        p = p / "kasztp.txt" if (p / "kasztp.txt").exists() else p / "others" / "kasztp.txt"
    if not where or not p.exists():
        sys.exit("give --data PATH/kasztp.txt (or PERCENT_ENCODING_URL_DATASETS=DIR)")
    return p


def make_column(path: Path, rows: int) -> Any:
    lines = path.read_text(encoding="utf-8").splitlines()
    pool = pa.array(lines, pa.string())
    idx = pa.array(range(rows), pa.int64())
    return pc.take(pool, pc.remainder(idx, len(lines)))  # tiled, one pyarrow buffer


def best(f: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """(wall, CPU) seconds of the fastest of ``repeat`` runs.  The machine is shared:
    the CPU time of this process is the steadier measure of one thread's work."""
    runs = []
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        f()
        runs.append((time.perf_counter() - t, time.process_time() - c))
    return min(runs)


def bench_threads(col: Any, pairs: int) -> dict[int, list[tuple[float, float]]]:
    """url_component(col, "hostname") on 1 and 2 threads, alternating, each pair after a
    measure of the machine's own two-thread scaling right then (bench_columns.host_scaling:
    two threads hashing a cached buffer, the ceiling no kernel can pass on a shared box)."""
    from bench_columns import host_scaling

    runs: dict[int, list[tuple[float, float]]] = {1: [], 2: []}
    host = []
    for _ in range(pairs):
        host.append(host_scaling())
        for threads in (1, 2):
            old = arrow.set_threads(threads)
            gc.collect()
            t, c = time.perf_counter(), time.process_time()
            arrow.url_component(col, "hostname")
            runs[threads].append((time.perf_counter() - t, time.process_time() - c))
            arrow.set_threads(old)
    ratios = [one[0] / two[0] for one, two in zip(runs[1], runs[2], strict=True)]
    print("  host scaling (2 threads hashing / 1), per pair: "
          + " ".join(f"{h:.2f}x" for h in host))
    print("  hostname 2 threads / 1 thread, per pair:        "
          + " ".join(f"{r:.2f}x" for r in ratios)
          + f" (median {sorted(ratios)[len(ratios) // 2]:.2f}x)", flush=True)
    return runs


def hostname(s: str) -> str | None:
    try:
        return url.parse(s).hostname
    except ValueError:
        return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--pairs", type=int, default=5, help="alternating 1- and 2-thread calls")
    ap.add_argument("--loop-rows", type=int, default=300_000)
    ap.add_argument("--data", help="kasztp.txt (or a directory holding it)")
    ap.add_argument("--only", default="", help="comma-separated: kernel,loop,polars,duckdb,"
                    "memory")
    ap.add_argument("--spark-rows", type=int, default=1_000_000)
    ap.add_argument("--peak-child", type=int, default=0, help=argparse.SUPPRESS)
    ap.add_argument("--datasets", help="url-various-datasets checkout (--only native)")
    ap.add_argument("--passes", type=int, default=15, help="best of N (--only native)")
    ap.add_argument("--json", type=Path, help="also write the --only native table here")
    ap.add_argument("--tile", type=int, default=400_000,
                    help="rows of the two-thread column (--only native)")
    a = ap.parse_args(argv)
    if a.only == "native":
        return bench_native(a)
    path = kasztp(a.data)
    if a.peak_child:
        return peak_child(path, a.peak_child)
    only = set(filter(None, a.only.split(",")))
    col = make_column(path, a.rows)
    n = len(col)
    print(f"{n:,} rows of kasztp ({col.nbytes / 1e6:.0f} MB), kernels: {_kernels.IMPLEMENTATION}")
    res: dict[str, float] = {}
    print(f"  {'':<58} {'wall':>8} {'CPU':>8}  (M rows/s)")

    def report(key: str, label: str, t: tuple[float, float], rows: int = n) -> None:
        wall, cpu = t
        # one thread's rate by its CPU time; the threaded run by the wall clock
        res[key] = rows / (wall if key == "host2" else cpu)
        res[key + "wall"] = rows / wall
        print(f"  {label:<58} {rows / wall / 1e6:8.2f} {rows / cpu / 1e6:8.2f}")

    if not only or "kernel" in only:
        pairs = bench_threads(col, a.pairs)
        for threads in (1, 2):
            report(f"host{threads}", f"url_component(col, 'hostname'), {threads} thread(s)",
                   min(pairs[threads]))
        report("parse", "url_parse(col): all ten fields",
               best(lambda: arrow.url_parse(col), a.repeat))
        report("can", "url_can_parse(col)", best(lambda: arrow.url_can_parse(col), a.repeat))
    if not only or "loop" in only:
        sample = col.slice(0, min(n, a.loop_rows)).to_pylist()
        report("loop", "[url.parse(s).hostname for s in col] (subsample)",
               best(lambda: [hostname(s) for s in sample], 1), len(sample))
    if not only or "polars" in only:
        bench_polars(col, a, report)
    if not only or "duckdb" in only:
        bench_duckdb(col, a, report)
    if "spark" in only:  # only when asked: a JVM, and minutes
        bench_spark(col.slice(0, min(n, a.spark_rows)), a, report)
    if not only or "memory" in only:
        out = subprocess.run([sys.executable, __file__, "--data", str(path), "--peak-child",
                              str(a.rows)], capture_output=True, text=True, check=False)
        print(out.stdout.rstrip() or out.stderr.rstrip())
    print_targets(res)
    return 0


CORPORA = ["others/userbait.txt", "others/kasztp.txt", "files/isaacs_files.txt",
           "files/node_files.txt"]


def _lines(path: Path) -> list[str]:
    """The file's lines as the native tool reads them (split at "\\n" only)."""
    rows = path.read_bytes().decode("utf-8", "replace").split("\n")
    return rows[:-1] if rows and rows[-1] == "" else rows


def _ns_per_row(f: Callable[[], Any], rows: int, passes: int) -> float:
    """CPU time of this thread, best of ``passes`` (the native tool's clock)."""
    runs = []
    for _ in range(passes):
        t = time.thread_time()
        f()
        runs.append(time.thread_time() - t)
    return min(runs) / rows * 1e9


def _scaling(col: Any, passes: int) -> tuple[float, float]:
    """(url_component hostname, url_parse): best 1-thread wall time over best 2-thread,
    alternating calls."""
    from bench_columns import host_scaling

    out = []
    for f in (lambda: arrow.url_component(col, "hostname"), lambda: arrow.url_parse(col)):
        t: dict[int, list[float]] = {1: [], 2: []}
        for _ in range(passes):
            for threads in (1, 2):
                old = arrow.set_threads(threads)
                t[threads].append(best(f, 1)[0])
                arrow.set_threads(old)
        out.append(min(t[1]) / min(t[2]))
    print(f"    (the machine's own two-thread scaling right now: {host_scaling():.2f}x)")
    return out[0], out[1]


def _native_row(path: Path, exe: Path | None, a: Any) -> dict[str, float | str]:
    """One corpus: ada's C++ and ours on one thread, then ours on two."""
    import native_ada

    col = pa.array(_lines(path), pa.string())
    n = len(col)
    old = arrow.set_threads(1)
    # in rounds, the native tool and ours one after the other, so that both see the
    # same moments of a shared machine; the best of all the rounds' passes
    nat: dict[str, float] = {}
    host = parse = float("inf")
    each = max(1, a.passes // 5)
    for _ in range(max(1, a.passes // each)):
        for k, v in (native_ada.run(exe, path, each) if exe else {}).items():
            nat[k] = min(v, nat.get(k, v))
        host = min(host, _ns_per_row(lambda: arrow.url_component(col, "hostname"), n, each))
        parse = min(parse, _ns_per_row(lambda: arrow.url_parse(col), n, each))
    arrow.set_threads(old)
    tiled = pc.take(col, pc.remainder(pa.array(range(a.tile), pa.int64()), n))
    two_host, two_parse = _scaling(tiled, max(3, a.passes // 3))
    nh, nt = nat.get("host", float("nan")), nat.get("ten", float("nan"))
    print(f"  {path.stem:<13} {n:>6} {nh:9.1f} {host:10.1f} {nh / host:5.2f}x"
          f" {nt:8.1f} {parse:11.1f} {nt / parse:5.2f}x   {two_host:.2f}x {two_parse:.2f}x",
          flush=True)
    return {"corpus": path.stem, "rows": n, "ada_host_ns": nh, "host_ns": host,
            "ada_ten_ns": nt, "parse_ns": parse, "two_threads_host": two_host,
            "two_threads_parse": two_parse}


def bench_native(a: Any) -> int:
    """Issue 42's targets: columns on one thread against ada's C++, per corpus."""
    import native_ada

    where = Path(a.datasets or os.environ.get("PERCENT_ENCODING_URL_DATASETS", ""))
    if not where.is_dir():
        sys.exit("give --datasets DIR (a url-various-datasets checkout)")
    exe = native_ada.build()
    load = os.getloadavg()
    print(f"kernels: {_kernels.IMPLEMENTATION}; native: "
          f"{'ada ' + native_ada.version(exe) + ' C++, g++ -O3' if exe else 'skipped'}; "
          f"load average {load[0]:.2f} {load[1]:.2f}; best of {a.passes}, CPU ns per row")
    print(f"  {'corpus':<13} {'rows':>6} {'ada host':>9} {'ours host':>10} {'x':>6}"
          f" {'ada ten':>8} {'ours parse':>11} {'x':>6}   2 threads: host, parse")
    rows = []
    for rel in CORPORA:
        path = where / rel
        if path.exists():
            rows.append(_native_row(path, exe, a))
        else:
            print(f"  {rel}: not found under {where}")
    if a.json:
        # bench/plot.py draws docs/_static/url-speed.svg from this
        a.json.write_text(json.dumps({"load": load, "native": bool(exe), "rows": rows},
                                     indent=1) + "\n")
    print("targets (issue 42): host >= 1.0x ada parse + hostname, url_parse >= 0.5x ada parse "
          "+ ten getters, 2 threads >= 1.8x")
    return 0


def bench_polars(col: Any, a: Any, report: Callable[..., None]) -> None:
    try:
        import polars as pl

        import percent_encoding.polars  # noqa: F401
    except ImportError:
        print("  polars: not installed")
        return
    df = pl.DataFrame({"u": pl.Series("u", col)})
    report("polars", "Polars pl.col('u').pe.url_component('hostname')",
           best(lambda: df.select(pl.col("u").pe.url_component("hostname")), a.repeat))
    small = df.head(min(len(df), a.loop_rows))
    report("polars_urlsplit", "Polars map_elements(urlsplit(s).hostname) (subsample)",
           best(lambda: small.select(pl.col("u").map_elements(
               lambda s: urlsplit(s).hostname, return_dtype=pl.String)), 1), len(small))


def bench_duckdb(col: Any, a: Any, report: Callable[..., None]) -> None:
    try:
        import duckdb

        from percent_encoding.duckdb import register
    except ImportError:
        print("  duckdb: not installed")
        return
    con = duckdb.connect()
    con.execute("SET threads = 1")
    register(con)
    t = pa.table({"u": col})
    con.register("t_arrow", t)
    con.execute("CREATE TABLE t AS SELECT * FROM t_arrow")
    report("duckdb", "DuckDB pe_url_component(u, 'hostname') (1 thread)",
           best(lambda: con.execute("SELECT count(pe_url_component(u, 'hostname')) FROM t")
                .fetchall(), a.repeat))
    report("duckdb_regex", "DuckDB regexp_extract(u, host pattern, 1) (1 thread)",
           best(lambda: con.execute(f"SELECT count(regexp_extract(u, '{HOST_REGEX}', 1)) "
                                    "FROM t").fetchall(), a.repeat))


def bench_spark(col: Any, a: Any, report: Callable[..., None]) -> None:
    """Spark's parse_url(u, 'HOST') (java.net.URI; NULL where it fails, ANSI mode off)
    next to our map_in_arrow helper, and the rows each leaves NULL."""
    try:
        from pyspark.sql import SparkSession

        from percent_encoding.spark import map_in_arrow
    except ImportError:
        print("  spark: pyspark not installed")
        return
    spark = (SparkSession.builder.master("local[1]").appName("pe-url-bench")
             .config("spark.sql.ansi.enabled", "false")
             .config("spark.sql.execution.arrow.pyspark.enabled", "true")
             .config("spark.driver.memory", "4g").getOrCreate())
    spark.sparkContext.setLogLevel("ERROR")
    df = spark.createDataFrame(pa.table({"u": col}).to_pandas()).cache()
    n = df.count()
    ours = map_in_arrow(df, "u", "url_component", output="host", component="hostname")
    theirs = df.selectExpr("u", "parse_url(u, 'HOST') AS host")
    report("spark_ours", "Spark map_in_arrow url_component('hostname') (local[1])",
           _wall(lambda: ours.where("host IS NOT NULL").count(), a.repeat), n)
    report("spark_parse_url", "Spark parse_url(u, 'HOST') (local[1])",
           _wall(lambda: theirs.where("host IS NOT NULL").count(), a.repeat), n)
    ours_null = ours.where("host IS NULL").count()
    theirs_null = theirs.where("host IS NULL").count()
    joined = ours.withColumnRenamed("host", "h1").join(
        theirs.withColumnRenamed("host", "h2"), "u").distinct()
    differ = joined.where("h1 IS NOT NULL AND (h2 IS NULL OR h1 != h2)")
    print(f"  NULL hosts of {n:,} rows: ours {ours_null:,}, parse_url {theirs_null:,}; "
          "distinct URLs where parse_url's host is NULL or not ours: "
          f"{differ.count():,}, e.g.:")
    for r in differ.limit(5).collect():
        print(f"    {r['u']!r}: ours {r['h1']!r}, parse_url {r['h2']!r}")
    spark.stop()


def _wall(f: Callable[[], Any], repeat: int) -> tuple[float, float]:
    """Wall time twice: the work is in the JVM and its Python workers, not this process."""
    wall, _ = best(f, repeat)
    return wall, wall


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    return 0


def peak_child(path: Path, rows: int) -> int:
    col = make_column(path, rows)
    before = _status("VmRSS:")
    out = arrow.url_parse(col)
    peak = _status("VmHWM:") - before
    size = out.nbytes
    print(f"  memory: url_parse over {rows:,} rows: peak {peak / 2**20:.0f} MiB above the "
          f"column; the result is {size / 2**20:.0f} MiB (+{(peak - size) / 2**20:.0f} MiB)")
    return 0


def print_targets(res: dict[str, float]) -> None:
    def ratio(a: str, b: str) -> str:
        return f"{res[a] / res[b]:.2f}x" if a in res and b in res else "n/a"

    print("targets (issue 29; one thread by CPU time, two threads by the wall clock):")
    print(f"  hostname >= 5M rows/s a core: {res.get('host1', 0) / 1e6:.2f}M")
    print(f"  hostname >= 3x the per-string loop: {ratio('host1', 'loop')}")
    two = res["host2"] / res["host1wall"] if "host2" in res and "host1wall" in res else 0
    print(f"  2 threads >= 1.7x 1 thread (wall): {two:.2f}x")
    print(f"  url_parse >= 2M rows/s a core: {res.get('parse', 0) / 1e6:.2f}M")
    print(f"  Polars >= 10x map_elements(urlsplit): {ratio('polars', 'polars_urlsplit')}")
    print(f"  DuckDB >= 3x regexp_extract: {ratio('duckdb', 'duckdb_regex')}")


if __name__ == "__main__":
    raise SystemExit(main())
