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
component="hostname")``).  Adding a URL's host and path to a DataFrame, in
one pass over the rows (each row parsed once, both columns written)::

    df = map_in_arrow(df, "url", "url_component", component=["hostname", "pathname"],
                      output=["host", "path"])

The URL operations take a base for relative rows as the Arrow functions do:
one URL (``base="https://example.com/"``, parsed once) or a column of the
DataFrame, one base per row (``map_in_arrow(..., base_column="page")``, or a
second column argument to a :func:`udf`: ``udf("url_component",
component="href")("link", "page")``); a row whose base is null is null.

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


_URL_OPERATIONS = ("url_component", "url_can_parse", "url_parse")


def _operation(op: str, options: dict[str, Any]) -> Callable[[Any, Any], Any]:
    """``call(column, base)``: ``op`` on an Arrow column (base: a per-row base column or
    None), its options checked now."""
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

    def call(col: Any, base: Any = None) -> Any:
        return f(col, **options) if base is None else f(col, base=base, **options)

    import pyarrow as pa

    call(pa.array([], pa.string()))  # an unknown set, label or flag raises here
    return call


def _components(op: str, options: dict[str, Any]) -> list[str] | None:
    """The components of a one-pass url_component (``component`` a list), else None;
    the options become url_parse's."""
    names = options.get("component")
    if op != "url_component" or not isinstance(names, (list, tuple)):
        return None
    options.pop("component")
    options["components"] = list(names)
    return list(names)


def _struct_fields(op: str, options: dict[str, Any]) -> list[str] | None:
    """url_parse's fields when ``components`` names them (else None: all ten)."""
    names = options.get("components") if op == "url_parse" else None
    return None if names is None else list(names)


def _check_base_column(op: str, options: dict[str, Any], base_column: object) -> None:
    if base_column is None:
        return
    if not isinstance(base_column, str):
        raise PercentEncodingTypeError("base_column must be a str (a column's name) or None")
    if op not in _URL_OPERATIONS:
        raise PercentEncodingError(f"base_column is for the URL operations, not {op!r}")
    if "base" in options:
        raise PercentEncodingError("give base (one URL) or base_column, not both")


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


def _spark_type(T: Any, name: str, components: list[str] | None = None) -> Any:
    if name == "binary":
        return T.BinaryType()
    if name == "boolean":
        return T.BooleanType()
    if name.startswith("struct<"):
        return T.StructType([T.StructField(n, T.StringType(), True)
                             for n in components or arrow.URL_COMPONENTS])
    return T.StringType()


def map_in_arrow(df: Any, column: str, op: str, *, output: str | list[str] | None = None,
                 base_column: str | None = None, **options: Any) -> Any:
    """``df`` with ``op`` applied to ``column``, as column ``output`` (default: in place).

    Runs ``df.mapInArrow``: each executor gets Arrow record batches and the
    kernels read the column's buffers.  A new ``output`` is appended at the end.
    With ``op="url_component"`` and ``component`` a list of names, one pass
    writes each component to its own column (``output``: a list of as many
    names; default the component names), parsing each row once.
    ``base_column`` names a column of per-row bases for the URL operations.
    """
    options = dict(options)
    components = _components(op, options)
    call = _operation("url_parse" if components else op, options)
    _check_base_column(op, options, base_column)
    if not hasattr(df, "mapInArrow") or not hasattr(df, "schema"):
        raise PercentEncodingTypeError(
            f"expected a Spark DataFrame (with mapInArrow), not {type(df).__name__}"
        )
    if not isinstance(column, str):
        raise PercentEncodingTypeError("column must be a str")
    outputs = _outputs(column, output, components)
    from pyspark.sql import types as T

    _use_this_python(_context_of(df))
    for name in (column, base_column):
        if name is not None and name not in df.columns:
            raise PercentEncodingError(f"no column {name!r} in the DataFrame ({df.columns})")
    result_type = _spark_type(T, OPERATIONS[op], _struct_fields(op, options))
    types = dict.fromkeys(outputs, result_type)
    fields = [T.StructField(f.name, types[f.name], True) if f.name in types else f
              for f in df.schema.fields]
    fields += [T.StructField(out, result_type, True) for out in outputs
               if out not in df.columns]
    schema = T.StructType(fields)

    def batches(it: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa

        for batch in it:
            source = batch.column(column)
            result = call(source, None if base_column is None else batch.column(base_column))
            # flatten: a row that is not a URL is null in each of its component columns
            parts = result.flatten() if components else [result]
            results = dict(zip(outputs, [_as_type(p, source.type) for p in parts], strict=True))
            names = batch.schema.names
            cols = [results[n] if n in results else batch.column(n) for n in names]
            new = [n for n in outputs if n not in names]
            yield pa.RecordBatch.from_arrays([*cols, *(results[n] for n in new)],
                                             names=[*names, *new])

    return df.mapInArrow(batches, schema)


def _outputs(column: str, output: object, components: list[str] | None) -> list[str]:
    """The output column names: one, or one per component of a one-pass url_component."""
    if components is None:
        if output is not None and not isinstance(output, str):
            raise PercentEncodingTypeError("output must be a str or None")
        return [output or column]
    if output is None:
        return list(components)
    if (not isinstance(output, (list, tuple)) or len(output) != len(components)
            or not all(isinstance(o, str) for o in output)):
        raise PercentEncodingTypeError(
            f"output must be a list of {len(components)} column names, one per component")
    if len(set(output)) != len(output):
        raise PercentEncodingError("output: each column name once")
    return list(output)


def udf(op: str, **options: Any) -> Any:
    """A Spark column function applying ``op`` to its one column argument.

    An Arrow UDF where PySpark has ``arrow_udf`` (4.1+), else a pandas UDF.
    A URL operation's function takes a second column, the base of each row
    (``udf("url_component", component="href")("link", "page")``).  For
    ``url_parse`` with ``components``, a row that is not a URL is a null
    struct (on the pandas UDF, a struct of nulls: pandas has no null row).
    """
    call = _operation(op, options)
    from pyspark.sql import functions as F

    _use_this_python(_active_context())

    fields = _struct_fields(op, options)
    return_type = OPERATIONS[op] if fields is None else (
        "struct<" + ",".join(f"{n}:string" for n in fields) + ">")
    url_op = op in _URL_OPERATIONS
    arrow_udf = getattr(F, "arrow_udf", None)
    if arrow_udf is not None:

        def on_arrow(*cols: Any) -> Any:
            _check_columns(op, url_op, cols)
            return _as_type(call(*cols), cols[0].type)

        import pyarrow as pa

        # Spark picks the UDF kind from the type hints, so they must be the classes
        on_arrow.__annotations__ = {"cols": pa.Array, "return": pa.Array}
        on_arrow.__name__ = on_arrow.__qualname__ = f"pe_{op}"  # the result column's name
        return arrow_udf(on_arrow, return_type)

    def on_pandas(*series: Any) -> Any:
        from . import pandas  # noqa: F401  (registers .pe on the executor)

        _check_columns(op, url_op, series)
        kwargs = dict(options)
        if op == "url_component":  # the accessor calls it name
            kwargs["name"] = kwargs.pop("component")
        if len(series) == 2:
            kwargs["base"] = series[1]
        if fields is not None:  # the accessor's url_parse has all ten fields, and no origin
            kwargs.pop("components")
            return pd.DataFrame({n: series[0].pe.url_component(n, **kwargs) for n in fields})
        return getattr(series[0].pe, op)(**kwargs)

    import pandas as pd

    on_pandas.__annotations__ = {"series": pd.Series, "return": pd.Series}
    on_pandas.__name__ = on_pandas.__qualname__ = f"pe_{op}"
    return F.pandas_udf(on_pandas, return_type)


def _check_columns(op: str, url_op: bool, cols: tuple[Any, ...]) -> None:
    """One column, or for a URL operation two (the URLs and their bases)."""
    if not 1 <= len(cols) <= (2 if url_op else 1):
        takes = "a URL column and an optional base column" if url_op else "one column"
        raise PercentEncodingTypeError(f"pe_{op} takes {takes}, not {len(cols)} columns")


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
