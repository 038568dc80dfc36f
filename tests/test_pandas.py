"""percent_encoding.pandas: the ``pe`` accessor against the per-string API, row by row,
on every string-holding dtype; the index, name and missing values are kept.

The accessor calls the arrow kernels, so the tests run on both twins.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding import form
from percent_encoding.errors import PercentEncodingTypeError, TextDecodeError

pd = pytest.importorskip("pandas", reason="pandas is not installed (pip install pandas)")
pa = pytest.importorskip("pyarrow", reason="percent_encoding.pandas needs pyarrow")
import percent_encoding.pandas as pe_pandas  # noqa: E402
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

TEXT_DTYPES = ["str", "string[pyarrow]", "string[python]", "arrow-string", "arrow-large_string",
               "arrow-string_view", "object"]
BINARY_DTYPES = ["arrow-binary", "arrow-large_binary", "object"]


def dtype_of(name: str) -> Any:
    if name.startswith("arrow-"):
        return pd.ArrowDtype(getattr(pa, name[6:])())
    return name


def series(rows: list[Any], dtype: str, index: list[Any] | None = None) -> Any:
    return pd.Series(rows, dtype=dtype_of(dtype), index=index, name="url")


def missing(v: Any) -> bool:
    return v is None or v is pd.NA or (isinstance(v, float) and math.isnan(v))


def plain(out: Any) -> list[Any]:
    """The result's rows, every missing value as None."""
    return [None if missing(v) else v for v in out.tolist()]


def check(s: Any, out: Any, want: list[Any]) -> None:
    assert out.index.equals(s.index)
    assert out.name == s.name
    assert plain(out) == want


@settings(max_examples=80, deadline=None)
@given(text_rows(), st.sampled_from(TEXT_DTYPES), st.booleans(), st.sampled_from(ENCODINGS))
def test_decode_text_matches_per_string(rows: list[Any], dtype: str, plus: bool,
                                        encoding: str) -> None:
    s = series(rows, dtype, index=[f"r{i}" for i in range(len(rows))])
    out = s.pe.decode_text(encoding=encoding, plus_as_space=plus)
    check(s, out, per_row(rows, lambda r: pe.decode_text(r, encoding=encoding,
                                                          plus_as_space=plus)))
    check(s, s.pe.decode_text(errors="null"), per_row(rows, strict_or_none))


@settings(max_examples=80, deadline=None)
@given(byte_rows(), st.sampled_from(BINARY_DTYPES), st.booleans())
def test_binary_rows_with_invalid_utf8(rows: list[Any], dtype: str, plus: bool) -> None:
    s = series(rows, dtype)
    check(s, s.pe.decode_text(plus_as_space=plus),
          per_row(rows, lambda r: pe.decode_text(r, plus_as_space=plus)))
    check(s, s.pe.decode(plus_as_space=plus),
          per_row(rows, lambda r: pe.decode(r, plus_as_space=plus)))
    check(s, s.pe.form_get("q"), per_row(rows, lambda r: form_get(r, "q")))


@settings(max_examples=80, deadline=None)
@given(text_rows(), st.sampled_from(TEXT_DTYPES), st.sampled_from(SETS), st.booleans())
def test_decode_and_encode_match_per_string(rows: list[Any], dtype: str, encode_set: str,
                                            plus: bool) -> None:
    s = series(rows, dtype)
    check(s, s.pe.decode(), per_row(rows, pe.decode))
    check(s, s.pe.encode(encode_set, space_as_plus=plus),
          per_row(rows, lambda r: pe.encode(r, encode_set, space_as_plus=plus)))


@settings(max_examples=80, deadline=None)
@given(text_rows(), st.sampled_from(TEXT_DTYPES), st.sampled_from(NAMES),
       st.sampled_from(["utf-8", "windows-1252"]))
def test_form_get_and_parse_match_form_parse(rows: list[Any], dtype: str, name: str,
                                             encoding: str) -> None:
    s = series(rows, dtype)
    check(s, s.pe.form_get(name, encoding=encoding),
          per_row(rows, lambda r: form_get(r, name, encoding)))
    got = plain(s.pe.form_parse(encoding=encoding))
    if dtype == "object":  # the per-string API's own (name, value) pairs
        assert got == per_row(rows, lambda r: form.parse(
            r, encoding=encoding, strip_leading_question_mark=True))
    else:
        assert got == per_row(rows, lambda r: form_pairs(r, encoding))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), st.just(float("nan")), st.just(pd.NA),
                          st.text(alphabet="%FEab+").filter(bool),
                          st.binary(max_size=6)), max_size=20))
def test_object_series_mixing_str_bytes_and_missing_values(rows: list[Any]) -> None:
    s = pd.Series(rows, dtype=object, index=range(100, 100 + len(rows)))
    out = s.pe.decode_text()
    assert out.dtype == object and out.index.equals(s.index)
    for v, r in zip(rows, out.tolist(), strict=True):
        if missing(v):
            assert r is v or (isinstance(v, float) and isinstance(r, float))  # kept as it was
        else:
            assert r == pe.decode_text(v)
    first_bad = next((i for i, v in enumerate(rows)
                      if not missing(v) and strict_or_none(v) is None), None)
    if first_bad is None:
        assert plain(s.pe.decode_text(errors="strict")) == plain(out)
    else:
        with pytest.raises(TextDecodeError) as info:
            s.pe.decode_text(errors="strict")
        assert info.value.row == first_bad  # type: ignore[attr-defined]
        assert info.value.label == 100 + first_bad  # type: ignore[attr-defined]


def test_result_dtypes() -> None:
    rows = ["a%20b", None]
    for dtype in ("str", "string[pyarrow]", "string[python]", "object"):  # text keeps the dtype
        s = series(rows, dtype)
        assert s.pe.decode_text().dtype == s.dtype == s.pe.form_get("a").dtype
    assert series(rows, "string[pyarrow]").pe.encode().dtype == pd.StringDtype("pyarrow")
    assert series(rows, "string[pyarrow]").pe.decode().dtype == pd.ArrowDtype(pa.large_binary())
    assert series(rows, "string[python]").pe.decode().dtype == pd.ArrowDtype(pa.binary())
    assert series(rows, "arrow-large_string").pe.decode_text().dtype == pd.ArrowDtype(
        pa.large_string())
    assert series(rows, "arrow-string").pe.form_parse().dtype == pd.ArrowDtype(
        pa.list_(pa.struct([("name", pa.string()), ("value", pa.string())])))
    assert series(rows, "object").pe.decode().dtype == object
    # missing values keep their dtype's marker
    assert series(rows, "str").pe.decode_text().tolist()[1] is not None
    assert series(rows, "string[pyarrow]").pe.decode_text().tolist() == ["a b", pd.NA]


def test_strict_names_row_and_index_label() -> None:
    s = pd.Series(["ok", None, "a%FF"], index=["x", "y", "z"], dtype="string[pyarrow]")
    with pytest.raises(TextDecodeError, match=r"row 2 \(index 'z'\)") as info:
        s.pe.decode_text(errors="strict")
    assert (info.value.row, info.value.label, info.value.position) == (2, "z", 1)  # type: ignore[attr-defined]


def test_bad_values_and_dtypes() -> None:
    s = pd.Series(["a", b"b", 3], index=[7, 8, 9], name="u")
    with pytest.raises(PercentEncodingTypeError, match=r"row 2 \(index 9\) of Series 'u'.*int"):
        s.pe.decode_text()
    with pytest.raises(PercentEncodingTypeError, match="int64"):
        pd.Series([1, 2]).pe.encode()
    with pytest.raises(KeyError):
        pd.Series(["a"]).pe.encode("no-such-set")
    with pytest.raises(PercentEncodingTypeError):
        pd.Series(["a"]).pe.form_get(1)  # type: ignore[arg-type]


def test_empty_series() -> None:
    for dtype in TEXT_DTYPES:
        out = series([], dtype).pe.decode_text()
        assert len(out) == 0 and out.name == "url"


@pytest.mark.one_impl
def test_accessor_is_registered() -> None:
    assert isinstance(pd.Series(["a"]).pe, pe_pandas.PercentEncodingAccessor)
