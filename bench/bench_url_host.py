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


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", default="main", metavar="REV")
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--duckdb-rows", type=int, default=500_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--datasets", default=os.environ.get("PERCENT_ENCODING_URL_DATASETS", ""))
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
        col = buc.make_column(buc.kasztp(str(root)), args.rows)
        import duckdb

        from percent_encoding.duckdb import register
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
        rates: dict[tuple[str, str], list[float]] = {}
        regex: list[float] = []
        print(f"{len(col):,} kasztp rows ({args.duckdb_rows:,} in DuckDB), one thread, "
              f"CPU time, best of {args.calls} calls a round, {args.rounds} rounds")
        for _ in range(args.rounds):
            for task, (rows, call) in tasks.items():
                for name, m in builds.items():
                    use(m)
                    call()  # once unmeasured
                    rates.setdefault((task, name), []).append(rows / bic.best_cpu(call, args.calls))
            regex.append(args.duckdb_rows / bic.best_cpu(
                lambda: con.execute(regex_sql).fetchall(), args.calls))
        for task in tasks:
            a, b = rates[(task, "after")], rates[(task, "before")]
            r = sorted(x / y for x, y in zip(a, b, strict=True))
            print(f"  {task:<28} after {max(a) / 1e6:6.2f}M/CPU-s, before "
                  f"{max(b) / 1e6:6.2f}M; after/before per round {r[0]:.3f}-{r[-1]:.3f} "
                  f"(median {r[len(r) // 2]:.3f})")
        print(f"  DuckDB regexp_extract        {max(regex) / 1e6:6.2f}M/CPU-s")
        for name in builds:
            ours = rates[("DuckDB pe_url_component", name)]
            r = sorted(x / y for x, y in zip(ours, regex, strict=True))
            print(f"  DuckDB ours / regexp_extract, {name}: per round {r[0]:.2f}-{r[-1]:.2f}x "
                  f"(median {r[len(r) // 2]:.2f}x)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
