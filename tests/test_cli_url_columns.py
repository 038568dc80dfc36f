"""``percent url --column``: a file's URL column split into component columns, row by row
against url.parse.  Runs on both twins; skips cleanly without pyarrow."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest

from percent_encoding import cli, url
from percent_encoding.errors import URLParseError

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

COMPONENTS = ["href", "protocol", "username", "password", "host", "hostname", "port",
              "pathname", "search", "hash"]
URLS = ["https://user:pw@EXAMPLE.com:8443/a/./b/../c?x=1#f", "http://[::1]/", "/relative",
        None, "mailto:x@y", "http://a\\b\\c", "https://h/%zz path", "not a url"]


def run(capsys: Any, *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def comp(v: str | None, name: str, base: str | None = None) -> Any:
    if v is None:
        return None
    try:
        return getattr(url.parse(v, base), name)
    except URLParseError:
        return None


def test_parquet_in_small_batches(tmp_path: Path, capsys: Any) -> None:
    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"id": list(range(len(URLS) * 3)), "url": URLS * 3}), src)
    code, _, err = run(capsys, "url", "--column", "url", str(src), "-o", str(out),
                       "--batch-size", "5", "--can-parse")
    assert code == 0, err
    t = pq.read_table(out)
    assert t.column_names == ["id", "url", *[f"url_{n}" for n in COMPONENTS], "url_ok"]
    assert t.column("id").to_pylist() == list(range(len(URLS) * 3))
    for n in COMPONENTS:
        assert t.column(f"url_{n}").to_pylist() == [comp(v, n) for v in URLS * 3], n
    assert t.column("url_ok").to_pylist() == [None if v is None else url.can_parse(v)
                                              for v in URLS * 3]


def test_csv_to_stdout_with_base_and_components(tmp_path: Path, capsys: Any) -> None:
    src = tmp_path / "in.csv"
    src.write_text("page,link\n" + "".join(f'p,"{v}"\n' for v in URLS if v), encoding="utf-8")
    code, out, err = run(capsys, "url", "-c", "link", str(src), "--base", "http://b.example/d/",
                         "--components", "hostname,origin", "--prefix", "")
    assert code == 0, err
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["page", "link", "hostname", "origin"]
    for row, v in zip(rows[1:], [v for v in URLS if v], strict=True):
        assert row[2] == (comp(v, "hostname", "http://b.example/d/") or "")
        assert row[3] == (comp(v, "origin", "http://b.example/d/") or "")


def test_usage_and_data_errors(tmp_path: Path, capsys: Any) -> None:
    src = tmp_path / "in.parquet"
    pq.write_table(pa.table({"url": URLS, "url_host": URLS}), src)
    code, _, err = run(capsys, "url", "-c", "nope", str(src), "-o", str(tmp_path / "o.parquet"))
    assert code == 2 and "'nope'" in err and "'url'" in err
    code, _, err = run(capsys, "url", "-c", "url", str(src), "-o", str(tmp_path / "o.parquet"))
    assert code == 2 and "url_host" in err  # would overwrite a column
    code, _, err = run(capsys, "url", "-c", "url", str(src), "--prefix", "p_", "-o",
                       str(tmp_path / "o.parquet"), "--errors", "strict")
    assert code == 1 and "row 2" in err and "missing-scheme-non-relative-URL" in err
    assert not (tmp_path / "o.parquet").exists()  # nothing half-written
    code, _, err = run(capsys, "url", "-c", "url", str(src), "--components", "path",
                       "-o", str(tmp_path / "o.parquet"))
    assert code == 2 and "unknown component 'path'" in err
    code, _, err = run(capsys, "url", "-o", "x.parquet", "http://a/")
    assert code == 2 and "--column" in err
    code, _, err = run(capsys, "url", "-c", "url", str(src), "--base", "nope", "--prefix", "q",
                       "-o", str(tmp_path / "o.parquet"))
    assert code == 2 and "--base" in err


def test_progress_bar_on_a_terminal(tmp_path: Path, capsys: Any, monkeypatch: Any) -> None:
    import sys

    from percent_encoding.cli._term import Progress

    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"url": ["http://a/"] * 50}), src)
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    monkeypatch.setattr(Progress, "INTERVAL", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    code, _, err = run(capsys, "url", "-c", "url", str(src), "-o", str(out), "--batch-size", "10")
    assert code == 0
    assert "100.0%" in err and err.endswith("\r\x1b[2K")  # drawn, then cleared
    assert pq.read_table(out).column("url_host").to_pylist() == ["a"] * 50
