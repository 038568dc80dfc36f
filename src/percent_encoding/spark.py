"""PySpark (3.5 and later): the column API on Spark DataFrames, through Arrow.

Two ways in, both handing whole Arrow record batches to the kernels on the
executors (no Python object per row on the way in or out):

* :func:`map_in_arrow` runs ``DataFrame.mapInArrow`` and adds (or replaces) a
  column: ``map_in_arrow(df, "url", "decode_text", output="path")``.
* :func:`udf` makes a column function for ``select``/``withColumn``: an
  Arrow UDF (``pyspark.sql.functions.arrow_udf``) where Spark has them
  (4.1 and later), otherwise a pandas UDF over :mod:`percent_encoding.pandas`.

The operations are the functions of :mod:`percent_encoding.arrow`:
``"decode_text"``, ``"decode"`` (a binary column), ``"encode"``,
``"form_get"``, and for URLs ``"url_component"``, ``"url_can_parse"`` (a
boolean column) and ``"url_parse"`` (a struct of the ten components); their
arguments are passed by name (``udf("form_get", name="q")``,
``udf("encode", encode_set="path")``, ``udf("url_component",
component="hostname")``).  Adding a URL's host and path to a DataFrame::

    df = map_in_arrow(df, "url", "url_component", output="host", component="hostname")
    df = map_in_arrow(df, "url", "url_component", output="path", component="pathname")

A row that is not a URL (WHATWG URL Standard) is null there, where Spark's
``parse_url(url, 'HOST')`` follows java.net.URI and also gives null for
many URLs browsers accept (see docs/columns.md).  Row by row the result is the
per-string API; null stays null and no other row becomes null (Spark's
``url_decode`` raises on a ``%`` that starts no escape, and
``try_url_decode`` turns such a row to null).  Arguments are checked when
the function is made.  The executors need percent-encoding and pyarrow
(``pip install 'percent-encoding[spark]'``); PySpark is imported only when a
function is called.

Which Python the workers run: PySpark starts them with ``PYSPARK_PYTHON``, or
plain ``python3`` from ``PATH`` when it is not set, which is often not the
Python that has this package (a venv used without activating it).  So on a
local master (``local``, ``local[N]``, ``local-cluster[...]``: the workers run
on this machine) the helpers point the session's Python workers at the
interpreter running them, ``sys.executable``, when neither ``PYSPARK_PYTHON``
nor ``spark.pyspark.python`` says otherwise.  On a cluster they leave it
alone: there the executors' Python is yours to set (docs/columns.md), and
:func:`check_executors` says which twin each one loaded.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator
from typing import Any

from . import arrow
from .errors import PercentEncodingError, PercentEncodingTypeError

__all__ = ["OPERATIONS", "check_executors", "map_in_arrow", "udf"]

#: The operations, and the Spark type of each one's result.
OPERATIONS = {"decode_text": "string", "decode": "binary", "encode": "string",
              "form_get": "string", "url_component": "string", "url_can_parse": "boolean",
              "url_parse": "struct<" + ",".join(f"{n}:string" for n in arrow.URL_COMPONENTS)
              + ">"}


def _operation(op: str, options: dict[str, Any]) -> Callable[[Any], Any]:
    if not isinstance(op, str):
        raise PercentEncodingTypeError(f"op must be a str, not {type(op).__name__}")
    if op not in OPERATIONS:
        raise PercentEncodingError(
            f"unknown operation {op!r}: expected one of {', '.join(sorted(OPERATIONS))}"
        )
    f = getattr(arrow, op)
    try:
        inspect.signature(f).bind(None, **options)
    except TypeError as e:
        raise PercentEncodingTypeError(f"arrow.{op}() arguments: {e}") from None

    def call(col: Any) -> Any:
        return f(col, **options)

    import pyarrow as pa

    call(pa.array([], pa.string()))  # an unknown set, label or flag raises here
    return call


def _use_this_python(sc: Any) -> None:
    """A local session's Python workers run ``sys.executable``, unless the user chose one.

    PySpark reads ``PYSPARK_PYTHON`` once, when the SparkContext starts
    (``python3`` without it), and hands ``sc.pythonExec`` to each Python function it
    makes; setting it here reaches every function made after.  A ``PYSPARK_PYTHON``
    set only after the session started is taken too.  Spark Connect (no
    SparkContext) and clusters are left as they are.
    """
    import os
    import sys

    if sc is None or not sys.executable:
        return
    try:
        master = str(sc.master)
        chosen = sc.getConf().get("spark.pyspark.python")
        current = sc.pythonExec
    except Exception:  # not a classic SparkContext: nothing to point
        return
    if chosen or not master.startswith("local") or current != "python3":
        return  # chosen (PYSPARK_PYTHON when the session started, or the conf), or a cluster
    # PYSPARK_PYTHON set after the session started is still what the user asked for
    sc.pythonExec = os.environ.get("PYSPARK_PYTHON") or sys.executable


def _context_of(df_or_session: Any) -> Any:
    """The SparkContext behind a DataFrame or a SparkSession (None: Spark Connect)."""
    try:
        session = getattr(df_or_session, "sparkSession", df_or_session)
        return session.sparkContext
    except Exception:
        return None


def _active_context() -> Any:
    try:
        from pyspark import SparkContext
    except ImportError:
        return None
    return SparkContext._active_spark_context


def _as_type(result: Any, like: Any) -> Any:
    """The kernel's result with the offsets width Spark sent (string/large_string)."""
    import pyarrow as pa

    if pa.types.is_boolean(result.type) or pa.types.is_struct(result.type):
        return result  # the URL functions: bool, or strings as wide as the input's
    large = pa.types.is_large_string(like) or pa.types.is_large_binary(like)
    binary = pa.types.is_binary(result.type) or pa.types.is_large_binary(result.type)
    want = (pa.large_binary() if large else pa.binary()) if binary else (
        pa.large_string() if large else pa.string())
    return result if result.type == want else result.cast(want)


def _spark_type(T: Any, name: str) -> Any:
    if name == "binary":
        return T.BinaryType()
    if name == "boolean":
        return T.BooleanType()
    if name.startswith("struct<"):
        return T.StructType([T.StructField(n, T.StringType(), True)
                             for n in arrow.URL_COMPONENTS])
    return T.StringType()


def map_in_arrow(df: Any, column: str, op: str, *, output: str | None = None,
                 **options: Any) -> Any:
    """``df`` with ``op`` applied to ``column``, as column ``output`` (default: in place).

    Runs ``df.mapInArrow``: each executor gets Arrow record batches and the
    kernels read the column's buffers.  A new ``output`` is appended at the end.
    """
    call = _operation(op, options)
    if not hasattr(df, "mapInArrow") or not hasattr(df, "schema"):
        raise PercentEncodingTypeError(
            f"expected a Spark DataFrame (with mapInArrow), not {type(df).__name__}"
        )
    if not isinstance(column, str):
        raise PercentEncodingTypeError("column must be a str")
    if output is not None and not isinstance(output, str):
        raise PercentEncodingTypeError("output must be a str or None")
    from pyspark.sql import types as T

    _use_this_python(_context_of(df))
    if column not in df.columns:
        raise PercentEncodingError(f"no column {column!r} in the DataFrame ({df.columns})")
    out = output or column
    result_type = _spark_type(T, OPERATIONS[op])
    fields = [T.StructField(out, result_type, True) if f.name == out else f
              for f in df.schema.fields]
    if out not in df.columns:
        fields.append(T.StructField(out, result_type, True))
    schema = T.StructType(fields)

    def batches(it: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in it:
            source = batch.column(column)
            result = _as_type(call(source), source.type)
            names = batch.schema.names
            cols = [result if n == out else batch.column(n) for n in names]
            if out not in names:
                names, cols = [*names, out], [*cols, result]
            yield pa.RecordBatch.from_arrays(cols, names=names)

    return df.mapInArrow(batches, schema)


def udf(op: str, **options: Any) -> Any:
    """A Spark column function applying ``op`` to its one column argument.

    An Arrow UDF where PySpark has ``arrow_udf`` (4.1+), else a pandas UDF.
    """
    call = _operation(op, options)
    from pyspark.sql import functions as F

    _use_this_python(_active_context())

    return_type = OPERATIONS[op]
    arrow_udf = getattr(F, "arrow_udf", None)
    if arrow_udf is not None:

        def on_arrow(col: Any) -> Any:
            return _as_type(call(col), col.type)

        import pyarrow as pa

        # Spark picks the UDF kind from the type hints, so they must be the classes
        on_arrow.__annotations__ = {"col": pa.Array, "return": pa.Array}
        on_arrow.__name__ = on_arrow.__qualname__ = f"pe_{op}"  # the result column's name
        return arrow_udf(on_arrow, return_type)

    def on_pandas(s: Any) -> Any:
        from . import pandas  # noqa: F401  (registers .pe on the executor)

        return getattr(s.pe, op)(**options)

    import pandas as pd

    on_pandas.__annotations__ = {"s": pd.Series, "return": pd.Series}
    on_pandas.__name__ = on_pandas.__qualname__ = f"pe_{op}"
    return F.pandas_udf(on_pandas, return_type)


def _probe(batches: Iterator[Any]) -> Iterator[Any]:
    """On an executor: which twin this Python worker runs, and why (one row)."""
    import os
    import socket

    import pyarrow as pa

    from . import __version__, _kernels

    for _ in batches:
        pass
    yield pa.RecordBatch.from_pydict({
        "worker": [f"{socket.gethostname()}:{os.getpid()}"],
        "implementation": [_kernels.IMPLEMENTATION],
        "reason": [_kernels.describe()],
        "version": [__version__],
    })


def check_executors(spark: Any, *, partitions: int | None = None,
                    require_c: bool = False) -> dict[str, str]:
    """Each executor Python worker's :data:`percent_encoding.IMPLEMENTATION`, by ``host:pid``.

    Runs one small job of ``partitions`` tasks (default: the session's default
    parallelism) so that every executor reports which twin its Python workers
    load: ``"c"``, or ``"python"`` when the package reached it without its
    compiled extension (a zip through ``--py-files``/``addPyFile`` carries no
    usable extension; ship a wheel in a packed environment with ``--archives``
    or install the package on every node, see docs/columns.md).  With
    ``require_c=True`` a worker on the pure twin raises
    :class:`~percent_encoding.errors.PercentEncodingError` naming it and the cause.

    >>> check_executors(spark)  # doctest: +SKIP
    {'node-1:4120': 'c', 'node-2:3877': 'c'}
    """
    if not hasattr(spark, "range"):
        raise PercentEncodingTypeError(
            f"expected a SparkSession, not {type(spark).__name__}")
    _use_this_python(_context_of(spark))
    if partitions is None:
        try:
            partitions = int(spark.sparkContext.defaultParallelism)
        except Exception:  # Spark Connect has no SparkContext
            partitions = 2
    if not isinstance(partitions, int) or isinstance(partitions, bool) or partitions < 1:
        raise PercentEncodingTypeError("partitions must be a positive int")
    schema = "worker string, implementation string, reason string, version string"
    rows = spark.range(0, partitions, 1, partitions).mapInArrow(_probe, schema).collect()
    found = {r["worker"]: r["implementation"] for r in rows}
    if require_c:
        slow = [f"{r['worker']} ({r['reason']})" for r in rows if r["implementation"] != "c"]
        if slow:
            raise PercentEncodingError(
                "executors without the C twin: " + "; ".join(sorted(set(slow))))
    return found
