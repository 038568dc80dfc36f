"""The C URL parser before and after a change, side by side in one process.

Builds the working tree's C sources and those at ``--before REV`` into a
temporary directory (``bench_input_checks.build``), sets each build's URL
parser up (``url_setup``) and, round after round with the builds taking turns
(so each sees the same minutes of a shared host), times on one thread:

* ``arrow.url_component(col, "hostname")`` on ada's ``kasztp`` list tiled to
  ``--rows`` (the column kernel of the build in turn);
* DuckDB's ``pe_url_component(u, 'hostname')`` on the same rows (``SET threads
  = 1``) and, once a round, ``regexp_extract`` of the host with
  ``bench_url_columns.HOST_REGEX``;
* ``url.parse(s).href`` on each line of the four url-various-datasets corpora
  (``--datasets``), through the public ``url.parse``.

With ``--columns``, instead: the hostname column of each corpus's own lines
(issue 42's measure) and, in each round, ada's own C++ parse + ``get_hostname``
on the same file (``native_ada.py``, when it builds), with each build's ratio
to it per round.

Every figure is CPU time of this process (best of ``--calls`` calls a round);
the ratios are per round, then their range.

    nice .venv/bin/python bench/bench_url_host.py --before main --datasets PATH
"""

from __future__ import annotations

import argparse
import os
import shutil
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import bench_input_checks as bic
import bench_url_columns as buc
import pyarrow as pa

from percent_encoding import arrow, core, url
from percent_encoding.url import _columns

CORPORA = ("files/isaacs_files.txt", "files/node_files.txt", "others/kasztp.txt",
           "others/userbait.txt")


def use(m: ModuleType) -> None:
    """Make build ``m`` the one url.parse and the column functions call."""
    core.url_parse_kernel = m.url_parse
    _columns._c_kernel = lambda: m.arrow_url


def href(s: str) -> str | None:
    try:
        return url.parse(s).href
    except ValueError:
        return None


def ratios(a: list[float], b: list[float]) -> str:
    """The per-round ratios of a to b: their range and median."""
    r = sorted(x / y for x, y in zip(a, b, strict=True))
    return f"{r[0]:.3f}-{r[-1]:.3f} (median {r[len(r) // 2]:.3f})"


def rounds(builds: dict[str, ModuleType], tasks: dict[str, tuple[int, Any]], args: Any,
           extra: dict[str, tuple[int, Any]]) -> dict[tuple[str, str], list[float]]:
    """Rows per CPU-second, per (task, build) and per extra task, round after round."""
    rates: dict[tuple[str, str], list[float]] = {}
    for _ in range(args.rounds):
        for task, (rows, call) in tasks.items():
            for name, m in builds.items():
                use(m)
                call()  # once unmeasured
                rates.setdefault((task, name), []).append(rows / bic.best_cpu(call, args.calls))
        for task, (rows, call) in extra.items():
            rates.setdefault((task, ""), []).append(rows / bic.best_cpu(call, args.calls))
    return rates


def columns(builds: dict[str, ModuleType], root: Path, args: Any) -> int:
    """The hostname column of each corpus, both builds, against ada's C++ (issue 42)."""
    import native_ada

    exe = native_ada.build()
    tasks: dict[str, tuple[int, Any]] = {}
    rates: dict[tuple[str, str], list[float]] = {}
    for n in CORPORA:
        if (root / n).exists():
            col = pa.array((root / n).read_text(encoding="utf-8").splitlines(), pa.string())
            reps = max(1, 200_000 // len(col))
            tasks[Path(n).stem] = (len(col) * reps, lambda col=col, reps=reps: [
                arrow.url_component(col, "hostname") for _ in range(reps)])
    print(f"hostname column of each corpus, one thread, CPU time, best of {args.calls} "
          f"calls a round, {args.rounds} rounds; native: {'ada C++' if exe else 'skipped'}")
    for _ in range(args.rounds):  # each round: ours (both builds), then ada's C++
        part = rounds(builds, tasks, argparse.Namespace(rounds=1, calls=args.calls), {})
        for k, v in part.items():
            rates.setdefault(k, []).extend(v)
        for n in CORPORA:
            if exe is not None and Path(n).stem in tasks:
                ns = native_ada.run(exe, root / n, args.calls)["host"]
                rates.setdefault((Path(n).stem, "ada"), []).append(1e9 / ns)
    for task in tasks:
        a, b = rates[(task, "after")], rates[(task, "before")]
        line = (f"  {task:<13} after {1e9 / max(a):6.1f} ns, before {1e9 / max(b):6.1f} ns; "
                f"after/before {ratios(a, b)}")
        if (task, "ada") in rates:
            c = rates[(task, "ada")]
            line += (f"; ada {1e9 / max(c):6.1f} ns, after/ada {ratios(a, c)}, "
                     f"before/ada {ratios(b, c)}")
        print(line)
    return 0


def engines(builds: dict[str, ModuleType], root: Path, args: Any) -> int:
    """The kasztp hostname column, DuckDB and url.parse, both builds."""
    import duckdb

    from percent_encoding.duckdb import register
    col = buc.make_column(buc.kasztp(str(root)), args.rows)
    con = duckdb.connect()
    con.execute("SET threads = 1")
    register(con)
    con.register("t_arrow", pa.table({"u": col.slice(0, args.duckdb_rows)}))
    con.execute("CREATE TABLE t AS SELECT * FROM t_arrow")
    ours_sql = "SELECT count(pe_url_component(u, 'hostname')) FROM t"
    regex_sql = f"SELECT count(regexp_extract(u, '{buc.HOST_REGEX}', 1)) FROM t"
    corpora = {n: (root / n).read_text(encoding="utf-8").splitlines()
               for n in CORPORA if (root / n).exists()}
    tasks: dict[str, tuple[int, Any]] = {
        "hostname column": (len(col), lambda: arrow.url_component(col, "hostname")),
        "DuckDB pe_url_component": (args.duckdb_rows,
                                    lambda: con.execute(ours_sql).fetchall()),
    }
    for n, lines in corpora.items():
        tasks[f"url.parse {Path(n).stem}"] = (
            len(lines), lambda lines=lines: [href(s) for s in lines])
    print(f"{len(col):,} kasztp rows ({args.duckdb_rows:,} in DuckDB), one thread, "
          f"CPU time, best of {args.calls} calls a round, {args.rounds} rounds")
    rates = rounds(builds, tasks, args, {"regexp_extract": (
        args.duckdb_rows, lambda: con.execute(regex_sql).fetchall())})
    for task in tasks:
        a, b = rates[(task, "after")], rates[(task, "before")]
        print(f"  {task:<28} after {max(a) / 1e6:6.2f}M/CPU-s, before "
              f"{max(b) / 1e6:6.2f}M; after/before per round {ratios(a, b)}")
    regex = rates[("regexp_extract", "")]
    print(f"  DuckDB regexp_extract        {max(regex) / 1e6:6.2f}M/CPU-s")
    for name in builds:
        print(f"  DuckDB ours / regexp_extract, {name}: per round "
              f"{ratios(rates[('DuckDB pe_url_component', name)], regex)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="main", metavar="REV")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--duckdb-rows", type=int, default=500_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--datasets", default=os.environ.get("PERCENT_ENCODING_URL_DATASETS", ""))
    ap.add_argument("--columns", action="store_true",
                    help="only the hostname column of each corpus, against ada's C++")
    args = ap.parse_args(argv)
    tmp = Path(tempfile.mkdtemp(prefix="pe-host-"))
    try:
        builds = {"after": bic.build("after", bic.ROOT / bic.CSRC, tmp, []),
                  "before": bic.build("before", bic.sources_at(args.before, tmp), tmp, [])}
        from percent_encoding.url import URL, URLParseError, ValidationError, _c_host
        from percent_encoding.url._idna import is_nfc
        for m in builds.values():
            m.url_setup(URL, ValidationError, _c_host, URLParseError, is_nfc)
            m.arrow_set_threads(1)
        root = Path(args.datasets)
        return (columns if args.columns else engines)(builds, root, args)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
