"""percent_encoding.spark on a local Spark session, against the per-string API and Spark's
own url_decode / try_url_decode.

PySpark is not in the test extra (about 450 MB, with its own jars); CI installs the
PySpark (``PERCENT_ENCODING_TEST_ALSO="pyspark>=3.5" ./dev test``) and has Java 17, so these run
there (marked slow); elsewhere, without PySpark or Java, they skip with the reason.
The executors' Python workers are separate processes with their own
kernels (the C twin when it is built), so the tests run once (``one_impl``).
"""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

import percent_encoding as pe
from percent_encoding.errors import PercentEncodingError, PercentEncodingTypeError

# engine_workers: the columns are computed in Spark's Python workers; ./dev test's pure-twin
# pass does not start a JVM again for them (the pure twin's column functions are checked
# in-process, against the C twin, by tests/test_arrow*.py and tests/test_url_columns*.py).
pytestmark = [pytest.mark.slow, pytest.mark.one_impl, pytest.mark.engine_workers]

pytest.importorskip("pyspark", reason="PySpark is not installed (pip install "
                    "'percent-encoding[spark]'; not in the test extra: ~450 MB)")
pytest.importorskip("pyarrow", reason="percent_encoding.spark needs pyarrow")
pytest.importorskip("pandas", reason="PySpark's Arrow path needs pandas")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs Java (no java on PATH, no JAVA_HOME)", allow_module_level=True)

from pyspark.sql import functions as F  # noqa: E402

from helpers.column_cases import byte_rows, form_get, per_row, text_rows  # noqa: E402

try:  # where PySpark keeps it moved in 4.0
    from pyspark.util import PythonEvalType
except ImportError:  # pragma: no cover - PySpark 3.5
    from pyspark.rdd import PythonEvalType  # type: ignore[attr-defined,no-redef]

from percent_encoding import spark as pe_spark  # noqa: E402

SPARK_SETTINGS = settings(max_examples=8, deadline=None,
                          suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.fixture
def spark(spark_session: Any) -> Any:
    return spark_session  # one session per test process (tests/helpers/spark_session.py)


def frame(spark: Any, rows: list[Any], kind: str = "string") -> Any:
    """A DataFrame (i, url) in row order."""
    return spark.createDataFrame(list(enumerate(rows)), f"i long, url {kind}")


def column(df: Any, name: str) -> list[Any]:
    return [r[name] for r in df.orderBy("i").collect()]


@SPARK_SETTINGS
@given(text_rows())
def test_map_in_arrow_and_udf_match_per_string(spark: Any, rows: list[Any]) -> None:
    df = frame(spark, rows)
    out = pe_spark.map_in_arrow(df, "url", "decode_text", output="text", plus_as_space=True)
    out = pe_spark.map_in_arrow(out, "url", "decode", output="raw")
    out = out.withColumn("enc", pe_spark.udf("encode", encode_set="path")("url"))
    out = out.withColumn("q", pe_spark.udf("form_get", name="q")("url"))
    got = out.orderBy("i").collect()
    assert [r["url"] for r in got] == rows  # the input column is kept
    assert [r["text"] for r in got] == per_row(rows, lambda r: pe.decode_text(
        r, plus_as_space=True))
    assert [r["raw"] for r in got] == per_row(rows, lambda r: bytearray(pe.decode(r)))
    assert [r["enc"] for r in got] == per_row(rows, lambda r: pe.encode(r, "path"))
    assert [r["q"] for r in got] == per_row(rows, lambda r: form_get(r, "q"))


@SPARK_SETTINGS
@given(byte_rows())
def test_binary_rows_that_are_not_utf8(spark: Any, rows: list[Any]) -> None:
    df = frame(spark, rows, "binary")
    got = column(pe_spark.map_in_arrow(df, "url", "decode_text"), "url")
    assert got == per_row(rows, pe.decode_text)
    got = column(df.withColumn("d", pe_spark.udf("decode_text")("url")), "d")
    assert got == per_row(rows, pe.decode_text)


# Spark's try_url_decode (the NULL-on-bad-escape oracle) is new in PySpark 4.0; the
# extra's floor, 3.5, has only url_decode, which fails the whole query instead.
needs_try_url_decode = pytest.mark.skipif(
    not hasattr(F, "try_url_decode"), reason="this PySpark has no try_url_decode (added in 4.0)"
)


@needs_try_url_decode
@SPARK_SETTINGS
@given(text_rows())
def test_ours_keeps_the_rows_try_url_decode_turns_to_null(spark: Any, rows: list[Any]) -> None:
    """Spark's url_decode is Java's form decoder: '+' is a space, and a '%' that starts
    no escape fails the row (try_url_decode: NULL).  Ours decodes every row."""
    df = frame(spark, rows).withColumn("theirs", F.try_url_decode("url"))
    got = pe_spark.map_in_arrow(df, "url", "decode_text", output="ours", plus_as_space=True)
    for r in got.orderBy("i").collect():
        if r["url"] is None:
            assert r["theirs"] is None and r["ours"] is None
            continue
        assert r["ours"] == pe.decode_text(r["url"], plus_as_space=True)
        if r["theirs"] is None:  # lost by Spark: a bad escape, kept by ours
            assert "%" in r["ours"]
        elif "\ufffd" not in r["theirs"]:
            assert r["theirs"] == r["ours"]


@needs_try_url_decode
def test_concrete_rows_spark_loses(spark: Any) -> None:
    df = frame(spark, ["caf%C3%A9+au+lait", "100%", "%zz", "%FF"])
    df = df.withColumn("theirs", F.try_url_decode("url"))
    got = pe_spark.map_in_arrow(df, "url", "decode_text", output="ours", plus_as_space=True)
    assert [(r["theirs"], r["ours"]) for r in got.orderBy("i").collect()] == [
        ("café au lait", "café au lait"), (None, "100%"), (None, "%zz"), ("\ufffd", "\ufffd")]


def test_arguments_are_checked_when_the_function_is_made(spark: Any) -> None:
    df = frame(spark, ["a"])
    assert pe_spark.udf("decode").evalType == getattr(  # an Arrow UDF where Spark has them
        PythonEvalType, "SQL_SCALAR_ARROW_UDF", PythonEvalType.SQL_SCALAR_PANDAS_UDF)
    with pytest.raises(KeyError):
        pe_spark.udf("encode", encode_set="no-such-set")
    with pytest.raises(PercentEncodingError, match="unknown operation"):
        pe_spark.map_in_arrow(df, "url", "explode")
    with pytest.raises(PercentEncodingError, match="no column 'nope'"):
        pe_spark.map_in_arrow(df, "nope", "decode")
    with pytest.raises(PercentEncodingTypeError, match="unexpected keyword"):
        pe_spark.udf("decode", plus_as_spaces=True)
    with pytest.raises(PercentEncodingTypeError, match="Spark DataFrame"):
        pe_spark.map_in_arrow(df.toPandas(), "url", "decode")


def test_pandas_udf_where_spark_has_no_arrow_udf(spark: Any, monkeypatch: Any) -> None:
    """PySpark 3.5 and 4.0 have no arrow_udf: udf() falls back to a pandas UDF."""
    monkeypatch.delattr(F, "arrow_udf", raising=False)
    rows = ["caf%C3%A9+x", None, "%FF", "?q=1&q=2", ""]
    df = frame(spark, rows)
    decoded = pe_spark.udf("decode_text", plus_as_space=True)
    assert decoded.evalType == PythonEvalType.SQL_SCALAR_PANDAS_UDF
    got = df.withColumn("d", decoded("url"))
    got = got.withColumn("q", pe_spark.udf("form_get", name="q")("url"))
    got = got.orderBy("i").collect()
    assert [r["d"] for r in got] == per_row(rows, lambda r: pe.decode_text(r, plus_as_space=True))
    assert [r["q"] for r in got] == per_row(rows, lambda r: form_get(r, "q"))


def test_check_executors_reports_each_workers_twin(spark: Any) -> None:
    # The executors' Python workers run this interpreter (PYSPARK_PYTHON), with the
    # package installed in it: they load the twin this process loads.
    found = pe_spark.check_executors(spark, partitions=2)
    assert found and set(found.values()) == {pe.IMPLEMENTATION}
    assert all(":" in worker for worker in found)  # host:pid
    if pe.IMPLEMENTATION == "c":
        assert set(pe_spark.check_executors(spark, require_c=True).values()) == {"c"}


def test_check_executors_names_a_worker_without_the_c_twin(monkeypatch: Any) -> None:
    # A worker whose extension did not load (as when the package reaches the executors as
    # a zip through --py-files).  Spark reuses its Python workers, forked before a test
    # could change their environment, so the job runs here on a stand-in session that
    # feeds _probe as mapInArrow would, with this process's twin set to the pure one.
    import pyarrow as pa

    from percent_encoding import _kernels

    class Frame:
        def __init__(self, n: int) -> None:
            self.n = n

        def mapInArrow(self, f: Any, schema: str) -> Any:  # Spark's name
            out = [b for part in range(self.n)
                   for b in f(iter([pa.record_batch({"id": [part]})]))]
            return Frame.Rows([row for b in out for row in b.to_pylist()])

        class Rows:
            def __init__(self, rows: list[dict[str, Any]]) -> None:
                self.rows = rows

            def collect(self) -> list[dict[str, Any]]:
                return self.rows

    class Session:
        def range(self, start: int, end: int, step: int, n: int) -> Frame:
            return Frame(n)

    monkeypatch.setattr(_kernels, "IMPLEMENTATION", "python")
    monkeypatch.setattr(_kernels, "FORCED", False)
    monkeypatch.setattr(_kernels, "REASON", "the C extension did not import (test)")
    found = pe_spark.check_executors(Session(), partitions=3)
    assert set(found.values()) == {"python"}
    with pytest.raises(PercentEncodingError,
                       match=r"executors without the C twin: .*:\d+ \(python kernels \(slow\): "
                             r"the C extension did not import \(test\); fix: .*compiler"):
        pe_spark.check_executors(Session(), partitions=3, require_c=True)


def test_check_executors_checks_its_arguments() -> None:
    with pytest.raises(PercentEncodingTypeError):
        pe_spark.check_executors(object())
