"""percent_encoding.dask on a real cluster: two worker processes, one thread each.

The partitions are decoded in the workers' processes, which load their own
kernels (the C twin when it is built), so the twin fixture cannot reach them:
the tests run once (``one_impl``) and compare with the per-string API here.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding.errors import TextDecodeError

pytestmark = [pytest.mark.slow, pytest.mark.one_impl]

pd = pytest.importorskip("pandas", reason="pandas is not installed (pip install pandas)")
pa = pytest.importorskip("pyarrow", reason="percent_encoding.dask needs pyarrow")
dd = pytest.importorskip("dask.dataframe",
                         reason="Dask is not installed (pip install 'dask[dataframe]')")
distributed = pytest.importorskip("distributed", reason="distributed is not installed")
from helpers.column_cases import (  # noqa: E402
    SETS,
    byte_rows,
    form_get,
    per_row,
    strict_or_none,
    text_rows,
)
from percent_encoding import dask as pe_dask  # noqa: E402

CLUSTER_SETTINGS = settings(max_examples=10, deadline=None,
                            suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        with distributed.Client(cluster) as c:
            yield c


def plain(values: list[Any]) -> list[Any]:
    return [None if v is None or v is pd.NA or v != v else v for v in values]


def column(rows: list[Any], dtype: Any, n: int) -> Any:
    s = pd.Series(rows, dtype=dtype, name="url", index=[f"k{i}" for i in range(len(rows))])
    return dd.from_pandas(s, npartitions=max(1, min(n, len(rows))), sort=False)


@CLUSTER_SETTINGS
@given(text_rows(40), st.sampled_from(["string[pyarrow]", object]), st.integers(1, 4),
       st.sampled_from(SETS))
def test_functions_match_per_string_on_the_cluster(client: Any, rows: list[Any], dtype: Any,
                                                   n: int, encode_set: str) -> None:
    col = column(rows, dtype, n)
    out = client.compute([
        pe_dask.decode_text(col, plus_as_space=True),
        pe_dask.decode_text(col, errors="null"),
        pe_dask.decode(col),
        pe_dask.encode(col, encode_set),
        pe_dask.form_get(col, "q"),
    ], sync=True)
    for result in out:
        assert list(result.index) == [f"k{i}" for i in range(len(rows))]
        assert result.name == "url"
    got = [plain(r.tolist()) for r in out]
    assert got[0] == per_row(rows, lambda r: pe.decode_text(r, plus_as_space=True))
    assert got[1] == per_row(rows, strict_or_none)
    assert got[2] == per_row(rows, pe.decode)
    assert got[3] == per_row(rows, lambda r: pe.encode(r, encode_set))
    assert got[4] == per_row(rows, lambda r: form_get(r, "q"))


@CLUSTER_SETTINGS
@given(byte_rows(40), st.integers(1, 3))
def test_bytes_rows_that_are_not_utf8(client: Any, rows: list[Any], n: int) -> None:
    # binary, not object: Dask turns object columns into strings, which bytes that are
    # not UTF-8 cannot be (its dataframe.convert-string setting)
    col = column(rows, pd.ArrowDtype(pa.binary()), n)
    got = client.compute(pe_dask.decode_text(col), sync=True)
    assert plain(got.tolist()) == per_row(rows, pe.decode_text)


def test_the_work_runs_in_the_workers(client: Any) -> None:
    col = column(["a%20b"] * 8, "string[pyarrow]", 2)
    assert client.compute(pe_dask.decode_text(col), sync=True).tolist() == ["a b"] * 8
    loaded = client.run(lambda: "percent_encoding.pandas" in sys.modules)
    assert len(loaded) == 2 and any(loaded.values())


def test_strict_error_crosses_the_process_boundary(client: Any) -> None:
    col = column(["ok", "fine", "a%FF", "x"], "string[pyarrow]", 2)
    with pytest.raises(TextDecodeError, match=r"index 'k2'") as info:
        client.compute(pe_dask.decode_text(col, errors="strict"), sync=True)
    e = info.value
    assert (e.row, e.label, e.position) == (0, "k2", 1)  # type: ignore[attr-defined]


def test_arguments_are_checked_when_the_graph_is_built() -> None:
    col = column(["a"], object, 1)
    with pytest.raises(KeyError):
        pe_dask.encode(col, "no-such-set")
    with pytest.raises(TypeError):
        pe_dask.form_get(col, 3)  # type: ignore[arg-type]
