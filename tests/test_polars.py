"""percent_encoding.polars: the ``pe`` namespaces against the per-string API, row by row.

The namespaces call the arrow kernels, so the tests run on both twins.  Each
expression is checked eagerly, in a lazy query and in the streaming engine
(which cuts columns into batches).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding.errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownEncodingError,
)

pl = pytest.importorskip("polars", reason="Polars is not installed (pip install polars)")
pytest.importorskip("pyarrow", reason="the results come back through pyarrow")
import percent_encoding.polars as pe_polars  # noqa: E402
from helpers.column_cases import (  # noqa: E402
    ENCODINGS,
    NAMES,
    SETS,
    byte_rows,
    form_get,
    form_pairs,
    per_row,
    strict_or_none,
    text_rows,
)

ENGINES = ["eager", "lazy", "streaming"]


def run_expr(rows: list[Any], expr: Any, engine: str, dtype: Any = None) -> list[Any]:
    """The expression over a one-column frame of ``rows``, three ways."""
    frame = pl.DataFrame({"u": pl.Series("u", rows, dtype=dtype or pl.String)})
    if engine == "eager":
        out = frame.select(expr)
    else:
        out = frame.lazy().select(expr).collect(engine="streaming" if engine == "streaming"
                                                else "in-memory")
    return out.to_series().to_list()  # type: ignore[no-any-return]


@settings(max_examples=60, deadline=None)
@given(text_rows(), st.booleans(), st.sampled_from(ENCODINGS), st.sampled_from(ENGINES))
def test_decode_text_expr_matches_per_string(rows: list[Any], plus: bool, encoding: str,
                                             engine: str) -> None:
    expr = pl.col("u").pe.decode_text(encoding=encoding, plus_as_space=plus)
    assert run_expr(rows, expr, engine) == per_row(
        rows, lambda r: pe.decode_text(r, encoding=encoding, plus_as_space=plus))


@settings(max_examples=60, deadline=None)
@given(byte_rows(), st.booleans(), st.sampled_from(ENGINES))
def test_binary_column_with_invalid_utf8(rows: list[Any], plus: bool, engine: str) -> None:
    got = run_expr(rows, pl.col("u").pe.decode_text(plus_as_space=plus), engine, pl.Binary)
    assert got == per_row(rows, lambda r: pe.decode_text(r, plus_as_space=plus))
    got = run_expr(rows, pl.col("u").pe.decode_text(errors="null"), engine, pl.Binary)
    assert got == per_row(rows, strict_or_none)
    assert run_expr(rows, pl.col("u").pe.decode(), engine, pl.Binary) == per_row(rows, pe.decode)


@settings(max_examples=60, deadline=None)
@given(text_rows(), st.sampled_from(ENGINES))
def test_decode_and_errors_null_match_per_string(rows: list[Any], engine: str) -> None:
    assert run_expr(rows, pl.col("u").pe.decode(plus_as_space=True), engine) == per_row(
        rows, lambda r: pe.decode(r, plus_as_space=True))
    assert run_expr(rows, pl.col("u").pe.decode_text(errors="null"), engine) == per_row(
        rows, strict_or_none)


@settings(max_examples=60, deadline=None)
@given(text_rows(), st.sampled_from(SETS), st.booleans(), st.sampled_from(ENGINES))
def test_encode_matches_per_string(rows: list[Any], encode_set: str, plus: bool,
                                   engine: str) -> None:
    got = run_expr(rows, pl.col("u").pe.encode(encode_set, space_as_plus=plus), engine)
    assert got == per_row(rows, lambda r: pe.encode(r, encode_set, space_as_plus=plus))


@settings(max_examples=60, deadline=None)
@given(text_rows(), st.sampled_from(NAMES), st.sampled_from(["utf-8", "windows-1252"]),
       st.sampled_from(ENGINES))
def test_form_get_and_parse_match_form_parse(rows: list[Any], name: str, encoding: str,
                                             engine: str) -> None:
    got = run_expr(rows, pl.col("u").pe.form_get(name, encoding=encoding), engine)
    assert got == per_row(rows, lambda r: form_get(r, name, encoding))
    got = run_expr(rows, pl.col("u").pe.form_parse(encoding=encoding), engine)
    assert got == per_row(rows, lambda r: form_pairs(r, encoding))


def test_series_namespace_keeps_name_and_nulls() -> None:
    s = pl.Series("url", ["?q=caf%C3%A9+au+lait", None, "", "%FF", "100%"])
    out = s.pe.decode_text(plus_as_space=True)
    assert out.name == "url" and out.dtype == pl.String
    assert out.to_list() == ["?q=café au lait", None, "", "\ufffd", "100%"]
    assert s.pe.decode().dtype == pl.Binary
    assert s.pe.form_get("q").to_list() == ["café au lait", None, None, None, None]
    assert s.pe.encode("path").to_list() == ["%3Fq=caf%C3%A9+au+lait", None, "", "%FF", "100%"]
    assert s.pe.encode().to_list() == [
        "%3Fq%3Dcaf%25C3%25A9%2Bau%2Blait", None, "", "%25FF", "100%25"]


def test_result_dtypes_in_the_schema() -> None:
    lf = pl.LazyFrame({"u": ["a"]}).select(
        t=pl.col("u").pe.decode_text(), b=pl.col("u").pe.decode(), e=pl.col("u").pe.encode(),
        g=pl.col("u").pe.form_get("a"), p=pl.col("u").pe.form_parse())
    schema = lf.collect_schema()
    assert schema == pl.Schema({
        "t": pl.String, "b": pl.Binary, "e": pl.String, "g": pl.String,
        "p": pl.List(pl.Struct({"name": pl.String, "value": pl.String}))})
    assert lf.collect().collect_schema() == schema


def test_string_view_chunks_and_slices() -> None:
    # Polars keeps strings as string_view; a multi-chunk, sliced column is read in place
    s = pl.concat([pl.Series("u", ["a%41", None, "x" * 40 + "%E6%97%A5"]),
                   pl.Series("u", ["%zz", "b+c"])], rechunk=False)
    assert s.n_chunks() == 2
    assert s.slice(1).pe.decode_text().to_list() == [None, "x" * 40 + "日", "%zz", "b+c"]
    big = pl.Series("u", [f"row%20{i}" if i % 7 else None for i in range(100_000)])
    got = big.pe.decode_text()
    assert got.null_count() == big.null_count()
    assert got[99_999] == "row 99999"


def test_other_dtypes() -> None:
    assert pl.Series(["a%20b"], dtype=pl.Categorical).pe.decode_text().to_list() == ["a b"]
    assert pl.Series([None, None]).pe.decode_text().to_list() == [None, None]
    with pytest.raises(PercentEncodingTypeError, match="column 'n'"):
        pl.Series("n", [1, 2]).pe.decode_text()
    with pytest.raises(PercentEncodingTypeError):
        pl.DataFrame({"n": [1]}).select(pl.col("n").pe.encode())


def test_arguments_are_checked_when_the_expression_is_built() -> None:
    with pytest.raises(KeyError):
        pl.col("u").pe.encode("no-such-set")
    with pytest.raises(UnknownEncodingError):
        pl.col("u").pe.decode_text(encoding="no-such-encoding")
    with pytest.raises(PercentEncodingError):
        pl.col("u").pe.decode_text(errors="ignore")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        pl.col("u").pe.decode(plus_as_space="yes")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        pl.col("u").pe.form_get(b"q")  # type: ignore[arg-type]


def test_strict_errors() -> None:
    s = pl.Series("u", ["ok", None, "a%FF"])
    with pytest.raises(TextDecodeError, match="row 2") as info:
        s.pe.decode_text(errors="strict")
    assert info.value.row == 2  # type: ignore[attr-defined]
    assert info.value.position == 1
    # in a query, Polars re-raises our error from its message (rows count per batch)
    with pytest.raises(TextDecodeError, match="byte offset 1"):
        pl.DataFrame({"u": s}).lazy().select(pl.col("u").pe.decode_text(errors="strict")).collect()


@pytest.mark.one_impl
def test_namespace_classes_are_registered() -> None:
    assert isinstance(pl.col("u").pe, pe_polars.PercentEncodingExpr)
    assert isinstance(pl.Series(["a"]).pe, pe_polars.PercentEncodingSeries)


@pytest.mark.one_impl
def test_without_pyarrow_on_the_c_twin() -> None:
    """The C kernels hand Polars a capsule column; the namespace needs no pyarrow."""
    from helpers.twins import C_KERNELS

    if C_KERNELS is None:
        pytest.skip("the C twin is not built")
    import os
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "import polars as pl\n"
        "import percent_encoding.polars\n"
        "s = pl.Series('u', ['a%20b', None, '?q=%FF'])\n"
        "print(s.pe.decode_text().to_list(), s.pe.form_get('q').to_list())\n"
        "lf = pl.LazyFrame({'u': s}).select(pl.col('u').pe.decode(plus_as_space=True))\n"
        "print(lf.collect(engine='streaming').to_series().to_list())\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, encoding="utf-8",
                       timeout=120, env={**os.environ, "PYTHONIOENCODING": "utf-8"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["['a b', None, '?q=\ufffd'] [None, None, '\ufffd']",
                                     "[b'a b', None, b'?q=\\xff']"]
