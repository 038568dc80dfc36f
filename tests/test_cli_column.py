"""``percent decode --column``: Parquet and CSV files, each row against the per-string API.

Runs on both kernel twins (the column functions have a C and a pure twin); skips
cleanly without pyarrow.
"""

from __future__ import annotations

import csv
import gzip
import io
import sys
from pathlib import Path
from typing import Any

import pytest

import percent_encoding as pe
from percent_encoding import cli
from percent_encoding.errors import TextDecodeError

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

# Escapes valid and not, '+', multi-byte text, and bytes that are not UTF-8 once decoded.
TEXTS = ["caf%C3%A9+au+lait", "a%20b", "%zz", "100%", "%FF", "%C3", "%E6%97%A5%E6%9C%AC",
         "plain", "", "x+y%2B", "%ED%A0%80", "\u65e5%20\U0001f600", "%0A%0D", "%E9t%E9"]


def run(capsys: Any, *argv: str) -> tuple[int, bytes, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err.decode() if isinstance(err, bytes) else err


def expected(v: str | bytes | None, *, encoding: str = "utf-8", plus: bool = False,
             errors: str = "replace") -> str | None:
    """What the per-string API gives for one row (None: the row is null)."""
    if v is None:
        return None
    if errors == "null":
        try:
            return pe.decode_text(v, encoding=encoding, plus_as_space=plus, errors="strict")
        except TextDecodeError:
            return None
    return pe.decode_text(v, encoding=encoding, plus_as_space=plus)


def table(n: int = 1) -> Any:
    texts = (TEXTS * n)
    urls = [None if i % 7 == 3 else t for i, t in enumerate(texts)]
    raw = [None if i % 5 == 1 else t.encode() + b"\xff%41" for i, t in enumerate(texts)]
    return pa.table({
        "id": pa.array(range(len(texts)), pa.int64()),
        "url": pa.array(urls, pa.string()),
        "big": pa.array(texts, pa.large_string()),
        "raw": pa.array(raw, pa.binary()),
        "keep": pa.array(urls, pa.string()),
    })


@pytest.mark.parametrize(("opts", "kw"), [
    ([], {}),
    (["-s", "form"], {"plus": True}),
    (["--errors", "null"], {"errors": "null"}),
    (["-e", "windows-1252"], {"encoding": "windows-1252"}),
    (["-s", "application/x-www-form-urlencoded", "-e", "shift_jis", "--errors", "null"],
     {"plus": True, "encoding": "Shift_JIS", "errors": "null"}),
])
def test_parquet_rows_equal_per_string_api(tmp_path: Path, capsys: Any, opts: list[str],
                                           kw: dict[str, Any]) -> None:
    t = table()
    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(t, src)
    code, _, err = run(capsys, "decode", "-c", "url", "-c", "big", "--column", "raw", *opts,
                       str(src), "-o", str(out))
    assert (code, err) == (0, "")
    got = pq.read_table(out)
    assert got.num_rows == t.num_rows  # no row dropped
    assert got.column_names == t.column_names
    for name in ("url", "big", "raw"):
        assert got[name].to_pylist() == [expected(v, **kw) for v in t[name].to_pylist()], name
    assert got.schema.field("big").type == pa.large_string()
    assert got.schema.field("raw").type == pa.string()
    # Columns not named go through untouched.
    assert got["id"].to_pylist() == t["id"].to_pylist()
    assert got["keep"].to_pylist() == t["keep"].to_pylist()


def test_nulls_stay_null_and_binary_not_utf8(tmp_path: Path, capsys: Any) -> None:
    t = pa.table({"b": pa.array([b"\xff%41", None, b"%C3%A9\xfe", b""], pa.large_binary())})
    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(t, src)
    assert run(capsys, "decode", "-c", "b", str(src), "-o", str(out))[0] == 0
    got = pq.read_table(out)
    assert got.schema.field("b").type == pa.large_string()
    assert got["b"].to_pylist() == ["\ufffdA", None, "\u00e9\ufffd", ""]
    # --bytes keeps the decoded bytes: a binary column.
    assert run(capsys, "decode", "--bytes", "-c", "b", str(src), "-o", str(out))[0] == 0
    got = pq.read_table(out)
    assert got["b"].to_pylist() == [b"\xffA", None, b"\xc3\xa9\xfe", b""]


def test_multi_batch_file(tmp_path: Path, capsys: Any) -> None:
    t = table(800)  # 11,200 rows
    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(t, src, row_group_size=1000)
    code, _, err = run(capsys, "decode", "-c", "url", "--batch-size", "777", "--threads", "2",
                       "-s", "form", str(src), "-o", str(out))
    assert (code, err) == (0, "")
    f = pq.ParquetFile(out)
    assert f.metadata.num_row_groups > 10  # one per batch: the file went through in pieces
    got = f.read()
    assert got["url"].to_pylist() == [expected(v, plus=True) for v in t["url"].to_pylist()]
    assert got["raw"].to_pylist() == t["raw"].to_pylist()


def test_strict_names_the_row_across_batches(tmp_path: Path, capsys: Any) -> None:
    rows = ["ok%41"] * 5000 + ["%FF"] + ["x"] * 10 + ["100%"]
    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"u": rows}), src, row_group_size=1000)
    code, _, err = run(capsys, "decode", "-c", "u", "--errors", "strict", "--batch-size", "999",
                       str(src), "-o", str(out))
    assert code == 1
    assert "column 'u', row 5000 " in err and "UTF-8" in err
    assert not out.exists() and list(tmp_path.iterdir()) == [src]  # no partial file left
    # --strict also rejects a bad '%', and reports whichever row comes first.
    rows[3] = "%zz"
    pq.write_table(pa.table({"u": rows}), src, row_group_size=1000)
    code, _, err = run(capsys, "decode", "-c", "u", "--strict", str(src), "-o", str(out))
    assert code == 1 and "row 3 " in err and "'%' must be followed by two hex digits" in err
    # Without --strict both stay as the per-string API leaves them.
    assert run(capsys, "decode", "-c", "u", str(src), "-o", str(out))[0] == 0
    assert pq.read_table(out)["u"].to_pylist() == [expected(v) for v in rows]


def test_bad_columns_are_usage_errors(tmp_path: Path, capsys: Any) -> None:
    src = tmp_path / "in.parquet"
    pq.write_table(table(), src)
    code, _, err = run(capsys, "decode", "-c", "nope", str(src), "-o", str(tmp_path / "o.parquet"))
    assert code == 2
    assert "no column 'nope'" in err and "'id', 'url', 'big', 'raw', 'keep'" in err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    code, _, err = run(capsys, "decode", "-c", "id", str(src), "-o", str(tmp_path / "o.parquet"))
    assert code == 2 and "column 'id'" in err and "int64" in err
    assert not (tmp_path / "o.parquet").exists()


def test_usage_errors(tmp_path: Path, capsys: Any) -> None:
    src = tmp_path / "in.parquet"
    pq.write_table(table(), src)
    for argv, needle in [
        (["-c", "url", str(src)], "Parquet output needs -o"),
        (["-c", "url", "--raw", str(src), "-o", "x.parquet"], "--raw does not apply"),
        (["-c", "url", "-e", "auto", str(src), "-o", "x.parquet"], "--encoding auto"),
        (["-c", "url", "-s", "escape", str(src), "-o", "x.parquet"], "own rules"),
        (["-c", "url", "-o", "x.parquet"], "needs an input FILE"),
        (["-c", "url", str(src), "-o", str(src)], "names the input file"),
        (["-c", "url", str(tmp_path / "in.txt"), "-o", "x.parquet"], "--format"),
        (["-o", "x.csv", "a%41"], "only with --column"),
        (["-c", "url", "--strict", "--errors", "null", str(src), "-o", "x.parquet"],
         "do not go together"),
    ]:
        code, _, err = run(capsys, "decode", *argv)
        assert code == 2, (argv, err)
        assert needle in err, (argv, err)


def test_without_pyarrow(tmp_path: Path, capsys: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    src = tmp_path / "in.parquet"
    pq.write_table(table(), src)
    for mod in ("pyarrow", "pyarrow.csv", "pyarrow.parquet"):
        monkeypatch.setitem(sys.modules, mod, None)  # import raises ImportError
    code, _, err = run(capsys, "decode", "-c", "url", str(src), "-o", str(tmp_path / "o.parquet"))
    assert code == 2 and "needs pyarrow" in err and "pip install" in err


def _csv_rows(data: bytes) -> list[list[str]]:
    return list(csv.reader(io.StringIO(data.decode("utf-8"), newline="")))


def test_csv_in_stdout_out(tmp_path: Path, capsysbinary: Any) -> None:
    src = tmp_path / "log.csv"
    src.write_bytes(b'id,url,note\n007,caf%C3%A9+au+lait,1.50\n2,"a%0Ab,c",x\n'
                    b'3,%FF\xfe%41,\n4,100%,NULL\n')
    code, out, err = run(capsysbinary, "decode", "-c", "url", "-s", "form", str(src))
    assert (code, err) == (0, "")
    rows = _csv_rows(out)
    assert rows[0] == ["id", "url", "note"]
    # Other columns keep their text exactly (no type inference), the named one is
    # decoded as the per-string API decodes the raw bytes of each field.
    assert [r[0] for r in rows[1:]] == ["007", "2", "3", "4"]
    assert [r[2] for r in rows[1:]] == ["1.50", "x", "", "NULL"]
    raws = [b"caf%C3%A9+au+lait", b"a%0Ab,c", b"%FF\xfe%41", b"100%"]
    assert [r[1] for r in rows[1:]] == [expected(v, plus=True) for v in raws]
    assert rows[2][1] == "a\nb,c"  # a decoded newline is quoted, the row stays one row


def test_csv_to_file_and_parquet(tmp_path: Path, capsysbinary: Any) -> None:
    src = tmp_path / "log.tsv"
    src.write_bytes(b"u\tv\na%20b\t%41\n%E6%97%A5\t\n")
    out = tmp_path / "out.csv.gz"
    assert run(capsysbinary, "decode", "-c", "u", "-c", "v", str(src), "-o", str(out))[0] == 0
    assert _csv_rows(gzip.decompress(out.read_bytes())) == [["u", "v"], ["a b", "A"],
                                                            ["\u65e5", ""]]
    pout = tmp_path / "out.parquet"
    assert run(capsysbinary, "decode", "-c", "u", str(src), "-o", str(pout))[0] == 0
    got = pq.read_table(pout)
    assert got["u"].to_pylist() == ["a b", "\u65e5"] and got["v"].to_pylist() == ["%41", ""]
    # Parquet in, CSV on stdout; --format names a format the extension does not give.
    odd = tmp_path / "data.bin"
    odd.write_bytes(pout.read_bytes())
    code, out_b, err = run(capsysbinary, "decode", "-c", "v", "--format", "parquet",
                           "--output-format", "csv", str(odd))
    assert (code, err) == (0, "")
    assert _csv_rows(out_b) == [["u", "v"], ["a b", "A"], ["\u65e5", ""]]


def test_csv_strict_leaves_stdout_empty(tmp_path: Path, capsysbinary: Any) -> None:
    src = tmp_path / "in.csv"
    src.write_bytes(b"u\nok\n%zz\n")
    code, out, err = run(capsysbinary, "decode", "-c", "u", "--strict", str(src))
    assert code == 1 and out == b"" and "row 1 " in err
    code, out, err = run(capsysbinary, "decode", "-c", "u", "--errors", "null", str(src))
    assert code == 0 and _csv_rows(out) == [["u"], ["ok"], ["%zz"]]


def test_dictionary_and_view_columns(tmp_path: Path, capsys: Any) -> None:
    rows = ["a%20b", "caf%C3%A9", None, "a%20b", "%E6%97%A5"]
    t = pa.table({"d": pa.array(rows).dictionary_encode(),
                  "v": pa.array(rows, pa.string_view())})
    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(t, src)
    code, _, err = run(capsys, "decode", "-c", "d", "-c", "v", "--strict", str(src),
                       "-o", str(out))
    assert (code, err) == (0, "")
    got = pq.read_table(out)
    want = [expected(v) for v in rows]
    assert got["d"].to_pylist() == want and got["v"].to_pylist() == want
    for t in (pa.string_view(), pa.binary_view()):
        bad: Any = "%41%4" if t == pa.string_view() else b"\xff%41%4"
        pq.write_table(pa.table({"v": pa.array(["ok", bad], t)}), src)
        code, _, err = run(capsys, "decode", "-c", "v", "--strict", str(src), "-o", str(out))
        assert code == 1 and "row 1 " in err and "'%' must be followed" in err, err


def test_csv_multi_block(tmp_path: Path, capsysbinary: Any) -> None:
    # More than one 64 KiB block: the CSV reader hands over several batches.
    rows = [f"r{i}%20caf%C3%A9+{'x' * 20}" for i in range(6000)]
    src = tmp_path / "in.csv"
    src.write_text("u\n" + "\n".join(rows) + "\n")
    assert src.stat().st_size > 3 * (1 << 16)
    code, out, err = run(capsysbinary, "decode", "-c", "u", "--batch-size", "1", str(src))
    assert (code, err) == (0, "")
    assert [r[0] for r in _csv_rows(out)[1:]] == [expected(v) for v in rows]
    rows[5000] = "%C3x"
    src.write_text("u\n" + "\n".join(rows) + "\n")
    code, out, err = run(capsysbinary, "decode", "-c", "u", "--errors", "strict",
                         "--batch-size", "1", str(src))
    assert code == 1 and "row 5000 " in err


@pytest.mark.parametrize("tty", [True, False])
def test_progress_bar_on_a_terminal_only(tmp_path: Path, capsys: Any, monkeypatch: Any,
                                         tty: bool) -> None:
    # As `percent url --column`: a bar on stderr while a long file is decoded, only when
    # stderr is a terminal; cleared at the end, so the terminal is left as it was.
    from percent_encoding.cli._term import Progress

    src, out = tmp_path / "in.parquet", tmp_path / "out.parquet"
    pq.write_table(pa.table({"url": ["a%20b"] * 50}), src)
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    monkeypatch.setattr(Progress, "INTERVAL", 0.0)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: tty)
    code, _, err = run(capsys, "decode", "-c", "url", str(src), "-o", str(out),
                       "--batch-size", "10")
    assert code == 0
    if tty:
        import re

        shown = [float(x) for x in re.findall(r"(\d+\.\d)%", err)]
        # by rows: about a fifth of the file after each batch of 10 of the 50 rows
        assert [round(x / 20) for x in shown] == [1, 2, 3, 4, 5] and shown[-1] == 100.0
        assert err.endswith("\r\x1b[2K")  # drawn, then cleared
    else:
        assert err == ""
    assert pq.read_table(out).column("url").to_pylist() == ["a b"] * 50
