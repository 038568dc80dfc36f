"""URL columns inside DuckDB and Spark, next to each engine's own host extraction, in one run.

The column is ada's four public corpora (url-various-datasets: ``userbait``,
``kasztp``, ``isaacs_files``, ``node_files``; 109,061 URLs) interleaved and
tiled to ``--rows`` (default 10M).  Each tile after the first is rotated and
varied (a ``#t<k>`` fragment on the rows that have none), so no two tiles are
the same rows in the same order and DuckDB's vectors differ from tile to
tile.  Give the corpora with ``--datasets DIR`` (a checkout of
url-various-datasets) or ``$PERCENT_ENCODING_URL_DATASETS``; the files are
read, never copied.  One run reports rows/s and ratios for:

* DuckDB, ``SET threads = 1`` and ``2``: ``pe_url_component(u, 'hostname')``
  next to ``regexp_extract(u, <host pattern>, 1)``, the regex a SQL user
  writes (``docs/columns.md`` shows the rows it gets wrong), on a table in
  DuckDB's own storage.  Each round times every contender once, one after the
  other; the figure is the best round, the ratio the median of the rounds'
  ratios.  Beside them, the machine's own two-thread scaling at that moment
  (two threads hashing a cached buffer: no code scales past it) and the load.
* Spark ``local[2]`` (``--spark``; a JVM and minutes): host and path of every
  row, written to Spark's ``noop`` sink so each column is computed, by the
  docs' recipe (``map_in_arrow`` with ``component=["hostname", "pathname"]``:
  one pass), by an Arrow UDF struct (``udf("url_parse", components=...)``)
  and by the recipe before (two ``map_in_arrow`` calls, one a component),
  next to ``try_parse_url(u, 'HOST')`` and ``try_parse_url(u, 'PATH')``; and
  how many rows each leaves NULL (ours: only the rows that are not URLs).

    .venv/bin/python bench/bench_engines.py --rows 1000000 --spark --spark-rows 1000000
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from percent_encoding import _kernels

# scheme "://" optional userinfo, then the host up to ':', '/', '?' or '#'
HOST_REGEX = r"^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^:/?#]*)"
CORPORA = ["others/userbait.txt", "others/kasztp.txt", "files/isaacs_files.txt",
           "files/node_files.txt"]


def corpora(where: str) -> list[list[str]]:
    root = Path(where)
    files = [root / c for c in CORPORA]
    if not where or not all(f.exists() for f in files):
        sys.exit("give --datasets DIR (a url-various-datasets checkout) or "
                 "PERCENT_ENCODING_URL_DATASETS=DIR")
    return [f.read_text(encoding="utf-8").splitlines() for f in files]


def make_column(lists: list[list[str]], rows: int) -> Any:
    """The corpora interleaved (one row of each in turn while it lasts), tiled to ``rows``:
    tile k rotated by k * 7919 rows, its rows without a '#' given a ``#t<k>`` fragment."""
    pool: list[str] = []
    for i in range(max(len(x) for x in lists)):
        pool += [x[i] for x in lists if i < len(x)]
    base = pa.array(pool, pa.string())
    tiles = []
    for k in range(-(-rows // len(pool))):
        shift = k * 7919 % len(pool)
        tile = pa.concat_arrays([base.slice(shift), base.slice(0, shift)])
        if k:
            plain = pc.invert(pc.match_substring(tile, "#"))
            tile = pc.if_else(plain, pc.binary_join_element_wise(tile, f"#t{k}", ""), tile)
        tiles.append(tile)
    return pa.concat_arrays(tiles).slice(0, rows)


def machine() -> str:
    load = os.getloadavg()
    return f"load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}, {os.cpu_count()} CPUs"


def rounds(contenders: dict[str, Callable[[], Any]], n: int) -> dict[str, list[float]]:
    """Each round times every contender once, one right after the other (wall seconds)."""
    times: dict[str, list[float]] = {k: [] for k in contenders}
    for _ in range(n):
        for k, f in contenders.items():
            t = time.perf_counter()
            f()
            times[k].append(time.perf_counter() - t)
    return times


def median(xs: list[float]) -> float:
    return sorted(xs)[len(xs) // 2]


def query(con: Any, sql: str) -> Callable[[], Any]:
    return lambda: con.execute(sql).fetchall()


def bench_duckdb(col: Any, n_rounds: int) -> dict[str, float]:
    try:
        import duckdb

        from percent_encoding.duckdb import register
    except ImportError:
        print("DuckDB: not installed")
        return {}
    from bench_columns import host_scaling

    n = len(col)
    con = duckdb.connect()
    register(con)
    con.register("t_arrow", pa.table({"u": col}))
    con.execute("CREATE TABLE t AS SELECT * FROM t_arrow")  # DuckDB's own storage
    con.unregister("t_arrow")
    queries = {
        "ours": "SELECT count(pe_url_component(u, 'hostname')) FROM t",
        "regex": f"SELECT count(regexp_extract(u, '{HOST_REGEX}', 1)) FROM t",
    }
    print(f"DuckDB {duckdb.__version__}, {n:,} rows ({machine()})")
    res: dict[str, float] = {}
    per_round: dict[int, dict[str, list[float]]] = {}
    for threads in (1, 2):
        con.execute(f"SET threads = {threads}")
        scaling = host_scaling()
        times = rounds({k: query(con, q) for k, q in queries.items()}, n_rounds)
        per_round[threads] = times
        ratio = median([r / o for o, r in zip(times["ours"], times["regex"], strict=True)])
        for k in queries:
            res[f"{k}{threads}"] = n / min(times[k])
        print(f"  threads={threads} (machine's own 2-thread scaling now: {scaling:.2f}x)")
        print(f"    pe_url_component(u, 'hostname')   {res[f'ours{threads}'] / 1e6:6.2f}M rows/s")
        print(f"    regexp_extract(u, host pattern, 1) {res[f'regex{threads}'] / 1e6:6.2f}M rows/s")
        print(f"    ours / regexp_extract: {ratio:.2f}x (median of {n_rounds} rounds)")
    two = median([a / b for a, b in zip(per_round[1]["ours"], per_round[2]["ours"],
                                        strict=True)])
    res["scale"] = res["ours2"] / res["ours1"]
    print(f"  ours, 2 threads / 1 thread: {res['scale']:.2f}x best, {two:.2f}x median of "
          f"rounds (regexp_extract: {res['regex2'] / res['regex1']:.2f}x)")
    con.close()
    return res


def bench_spark(col: Any, n_rounds: int) -> dict[str, float]:
    try:
        from pyspark.sql import SparkSession

        from percent_encoding import spark as pe_spark
    except ImportError:
        print("Spark: pyspark not installed")
        return {}
    import pyarrow.parquet as pq

    n = len(col)
    tmp = Path(tempfile.mkdtemp(prefix="pe-bench-engines-"))
    try:
        pq.write_table(pa.table({"u": col}), tmp / "urls.parquet", row_group_size=1 << 20)
        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        spark = (SparkSession.builder.master("local[2]").appName("pe-bench-engines")
                 .config("spark.ui.enabled", "false")
                 .config("spark.ui.showConsoleProgress", "false")
                 .config("spark.driver.memory", "3g").getOrCreate())
        spark.sparkContext.setLogLevel("ERROR")
        import pyspark

        df = spark.read.parquet(str(tmp / "urls.parquet"))
        ours = pe_spark.map_in_arrow(df, "u", "url_component",
                                     component=["hostname", "pathname"],
                                     output=["host", "path"])
        # the recipe before: one mapInArrow a component, every row parsed twice
        two = pe_spark.map_in_arrow(df, "u", "url_component", component="hostname",
                                    output="host")
        two = pe_spark.map_in_arrow(two, "u", "url_component", component="pathname",
                                    output="path")
        parts = pe_spark.udf("url_parse", components=["hostname", "pathname"])
        struct = df.select("u", parts("u").alias("p")).select(
            "u", "p.hostname", "p.pathname")
        theirs = df.selectExpr("u", "try_parse_url(u, 'HOST') AS host",
                               "try_parse_url(u, 'PATH') AS path")

        def run(frame: Any) -> Callable[[], Any]:
            return lambda: frame.write.format("noop").mode("overwrite").save()

        print(f"Spark {pyspark.__version__} local[2], {n:,} rows, host and path "
              f"({machine()})")
        times = rounds({"ours": run(ours), "udf": run(struct), "two": run(two),
                        "theirs": run(theirs)}, n_rounds)
        res = {k: n / min(v) for k, v in times.items()}
        ratio = median([t / o for o, t in zip(times["ours"], times["theirs"], strict=True)])
        ratio_udf = median([t / o for o, t in zip(times["udf"], times["theirs"], strict=True)])
        print(f"    map_in_arrow(component=[hostname, pathname]) {res['ours'] / 1e6:6.2f}M rows/s"
              f"  {ratio:.2f}x try_parse_url (median of {n_rounds} rounds)")
        print(f"    udf('url_parse', components=[...]) (arrow)  {res['udf'] / 1e6:6.2f}M rows/s"
              f"  {ratio_udf:.2f}x")
        ratio_two = median([t / o for o, t in zip(times["two"], times["theirs"], strict=True)])
        print(f"    two map_in_arrow passes (the recipe before)   {res['two'] / 1e6:6.2f}M rows/s"
              f"  {ratio_two:.2f}x")
        print(f"    try_parse_url(u, 'HOST'), (u, 'PATH')        "
              f"{res['theirs'] / 1e6:6.2f}M rows/s")
        null_ours = ours.where("host IS NULL").count()
        null_theirs = theirs.where("host IS NULL").count()
        print(f"    rows whose host is NULL: ours {null_ours:,} (not URLs), try_parse_url "
              f"{null_theirs:,}")
        res["ratio"] = ratio
        spark.stop()
        return res
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--datasets", default=os.environ.get("PERCENT_ENCODING_URL_DATASETS", ""))
    ap.add_argument("--spark", action="store_true", help="also Spark local[2] (a JVM)")
    ap.add_argument("--spark-rows", type=int, default=0, help="rows for Spark (default --rows)")
    ap.add_argument("--spark-rounds", type=int, default=2)
    ap.add_argument("--no-duckdb", action="store_true")
    a = ap.parse_args(argv)
    lists = corpora(a.datasets)
    col = make_column(lists, a.rows)
    print(f"{len(col):,} rows ({col.nbytes / 1e6:.0f} MB) from ada's four corpora, kernels: "
          f"{_kernels.IMPLEMENTATION}, Python {sys.version.split()[0]}")
    res: dict[str, float] = {}
    if not a.no_duckdb:
        res.update(bench_duckdb(col, a.rounds))
    if a.spark:
        rows = a.spark_rows or a.rows
        res.update({f"spark_{k}": v for k, v in bench_spark(
            col if rows == len(col) else make_column(lists, rows), a.spark_rounds).items()})
    print("targets (issue 42):")
    if "ours1" in res:
        print(f"  DuckDB 1 thread >= 3x regexp_extract: {res['ours1'] / res['regex1']:.2f}x")
        print(f"  DuckDB 2 threads >= 1.6x its 1 thread: {res['scale']:.2f}x")
    if "spark_ratio" in res:
        print(f"  Spark local[2] host+path >= 1.0x try_parse_url: {res['spark_ratio']:.2f}x")
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).parent))
    raise SystemExit(main())
