"""percent_encoding.duckdb: the pe_* SQL functions against the per-string API, and against
DuckDB's own url_decode (which raises on, or with try() turns to NULL, rows ours decode).

The UDFs run in this process on the arrow kernels, so the tests run on both twins.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding.errors import PercentEncodingTypeError, UnknownEncodingError

duckdb = pytest.importorskip("duckdb", reason="DuckDB is not installed (pip install duckdb)")
pa = pytest.importorskip("pyarrow", reason="DuckDB's arrow UDFs need pyarrow")
from helpers.column_cases import (  # noqa: E402
    NAMES,
    SETS,
    byte_rows,
    form_get,
    per_row,
    text_rows,
)
from percent_encoding.duckdb import register  # noqa: E402


@pytest.fixture(scope="module")
def con() -> Any:
    c = duckdb.connect()
    register(c)
    register(c, prefix="form_", plus_as_space=True, encoding="windows-1252")
    return c


def query(con: Any, sql: str, blob: bool = False, **columns: list[Any]) -> list[tuple[Any, ...]]:
    """``sql`` over a table ``t`` of the given columns (VARCHAR, or BLOB) plus a row number
    ``i``, in row order."""
    n = len(next(iter(columns.values())))
    kind = pa.binary() if blob else pa.string()
    table = pa.table({"i": pa.array(range(n), pa.int64()),
                      **{k: pa.array(v, kind) for k, v in columns.items()}})
    con.register("t", table)
    try:
        return con.execute(sql + " ORDER BY i").fetchall()  # type: ignore[no-any-return]
    finally:
        con.unregister("t")


@settings(max_examples=80, deadline=None)
@given(text_rows())
def test_decode_text_and_decode_match_per_string(con: Any, rows: list[Any]) -> None:
    got = query(con, "SELECT pe_decode_text(x), pe_decode(x), form_decode_text(x) FROM t", x=rows)
    assert [r[0] for r in got] == per_row(rows, pe.decode_text)
    assert [r[1] for r in got] == per_row(rows, pe.decode)
    assert [r[2] for r in got] == per_row(
        rows, lambda r: pe.decode_text(r, encoding="windows-1252", plus_as_space=True))


@settings(max_examples=80, deadline=None)
@given(byte_rows())
def test_blob_rows_that_are_not_utf8(con: Any, rows: list[Any]) -> None:
    got = query(con, "SELECT pe_decode_text_blob(x) FROM t", blob=True, x=rows)
    assert [r[0] for r in got] == per_row(rows, pe.decode_text)


@settings(max_examples=60, deadline=None)
@given(text_rows(), st.sampled_from(SETS), st.sampled_from(NAMES))
def test_constant_arguments(con: Any, rows: list[Any], encode_set: str, name: str) -> None:
    got = query(con, "SELECT pe_encode(x, $s), pe_form_get(x, $n) FROM t".replace(
        "$s", f"'{encode_set}'").replace("$n", f"'{name}'"), x=rows)
    assert [r[0] for r in got] == per_row(rows, lambda r: pe.encode(r, encode_set))
    assert [r[1] for r in got] == per_row(rows, lambda r: form_get(r, name))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_arguments_that_vary_by_row(con: Any, data: Any) -> None:
    rows = data.draw(text_rows())
    sets = data.draw(st.lists(st.one_of(st.none(), st.sampled_from(SETS)),
                              min_size=len(rows), max_size=len(rows)))
    names = data.draw(st.lists(st.one_of(st.none(), st.sampled_from(NAMES)),
                               min_size=len(rows), max_size=len(rows)))
    got = query(con, "SELECT pe_encode(x, s), pe_form_get(x, n) FROM t", x=rows, s=sets, n=names)
    assert [r[0] for r in got] == [None if r is None or s is None else pe.encode(r, s)
                                   for r, s in zip(rows, sets, strict=True)]
    assert [r[1] for r in got] == [None if r is None or n is None else form_get(r, n)
                                   for r, n in zip(rows, names, strict=True)]


def test_many_vectors(con: Any) -> None:
    """More rows than one DuckDB vector (2048): the UDF is called once per vector, with
    arguments that change inside a vector."""
    got = con.execute(
        "SELECT pe_decode_text('r%20' || i::VARCHAR),"
        " pe_form_get('a=' || i::VARCHAR, CASE WHEN i % 3 = 0 THEN 'a' ELSE 'b' END),"
        " pe_encode('/' || i::VARCHAR || ' x', CASE WHEN i % 2 = 0 THEN 'path' ELSE"
        " 'component' END)"
        " FROM range(10000) r(i) ORDER BY i").fetchall()
    assert got == [(f"r {i}", str(i) if i % 3 == 0 else None,
                    f"/{i}%20x" if i % 2 == 0 else f"%2F{i}%20x") for i in range(10000)]


# --- what DuckDB's url_decode loses --------------------------------------------------------

@settings(max_examples=100, deadline=None)
@given(text_rows())
def test_ours_keeps_every_row_url_decode_loses(con: Any, rows: list[Any]) -> None:
    """try(url_decode(x)) is NULL for a row whose decoded bytes are not UTF-8; ours gives
    the per-string result (U+FFFD for those bytes).  Where url_decode succeeds, the two
    agree: DuckDB's percent-decoding is the URL Standard's for these rows."""
    got = query(con, "SELECT x, try(url_decode(x)), pe_decode_text(x) FROM t", x=rows)
    for x, theirs, ours in got:
        if x is None:
            assert theirs is None and ours is None
            continue
        assert ours == pe.decode_text(x)
        if theirs is None:
            assert "\ufffd" in ours  # lost by url_decode, kept by ours
        else:
            assert theirs == ours


def test_url_decode_loses_rows_a_concrete_example(con: Any) -> None:
    rows = ["caf%C3%A9", "%FF", "caf%E9", "100%", "%zz"]
    got = query(con, "SELECT try(url_decode(x)), pe_decode_text(x) FROM t", x=rows)
    assert got == [("café", "café"), (None, "\ufffd"), (None, "caf\ufffd"),
                   ("100%", "100%"), ("%zz", "%zz")]
    with pytest.raises(duckdb.Error, match=r"UTF-?8"):
        con.execute("SELECT url_decode('%FF')").fetchall()


def test_register_checks_its_options() -> None:
    c = duckdb.connect()
    with pytest.raises(UnknownEncodingError):
        register(c, encoding="no-such-label")
    with pytest.raises(PercentEncodingTypeError):
        register(c, plus_as_space=1)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        register(c, prefix="pe; DROP")
    register(c)
    with pytest.raises(duckdb.Error, match="unknown encode set 'nope'"):
        c.execute("SELECT pe_encode('a', 'nope')").fetchall()
