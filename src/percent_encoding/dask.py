"""Dask: the column API partition by partition.

Each function takes a ``dask.dataframe`` Series and returns a lazy Series:
``map_partitions`` runs the pandas accessor (:mod:`percent_encoding.pandas`,
so the arrow kernels) on every partition, on whichever worker holds it::

    import dask.dataframe as dd
    from percent_encoding import dask as pe_dask

    df = dd.read_parquet("logs/")
    df["path"] = pe_dask.decode_text(df["url"], plus_as_space=True)

Row by row the result is exactly the per-string API; index, name and
missing values are kept as the pandas accessor keeps them, and the result's
dtype follows the input's (see :mod:`percent_encoding.pandas`).  Arguments
are checked when the graph is built, on the column's empty meta partition.
With ``errors="strict"`` the :class:`~percent_encoding.errors.TextDecodeError`
raised on a worker reaches the client with ``.row`` counted in its partition
and ``.label``, the row's index label.  Needs dask[dataframe], pandas and
pyarrow on the client and the workers (``pip install 'percent-encoding[dask]'``);
Dask is imported only when a function is called.
"""

from __future__ import annotations

from typing import Any

from . import arrow
from .errors import PercentEncodingTypeError

__all__ = ["decode", "decode_text", "encode", "form_get", "form_parse", "url_can_parse",
           "url_component", "url_parse"]


def _partition(part: Any, op: str, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """One partition through the pandas accessor (imported on the worker)."""
    from . import pandas  # noqa: F401  (registers the .pe accessor)

    return getattr(part.pe, op)(*args, **kwargs)


def _dask_dataframe() -> Any:
    try:
        import dask.dataframe as dd
    except ImportError:
        raise ImportError(
            "percent_encoding.dask needs dask[dataframe], pandas and pyarrow "
            "(pip install 'percent-encoding[dask]')"
        ) from None
    return dd


def _map(col: Any, op: str, *args: Any, **kwargs: Any) -> Any:
    dd = _dask_dataframe()
    if not isinstance(col, dd.Series):
        raise PercentEncodingTypeError(
            f"expected a dask.dataframe Series (a column: ddf['url']), not {type(col).__name__}"
        )
    meta = _partition(col._meta, op, args, kwargs)  # the result's dtype; checks the arguments
    return col.map_partitions(_partition, op, args, kwargs, meta=meta)


def decode_text(
    col: Any,
    *,
    encoding: str = "utf-8",
    plus_as_space: bool = False,
    errors: arrow.ArrowErrors = "replace",
) -> Any:
    """Percent-decode each row, then decode it as text
    (:func:`percent_encoding.arrow.decode_text`).

    >>> import pandas as pd, dask.dataframe as dd
    >>> s = dd.from_pandas(pd.Series(["caf%C3%A9+au+lait", "%FF", "x"], dtype=object),
    ...                    npartitions=2)
    >>> decode_text(s, plus_as_space=True).compute(scheduler="sync").tolist()
    ['café au lait', '\\ufffd', 'x']
    """
    return _map(col, "decode_text", encoding=encoding, plus_as_space=plus_as_space,
                errors=errors)


def decode(col: Any, *, plus_as_space: bool = False) -> Any:
    """Percent-decode each row to bytes (:func:`percent_encoding.arrow.decode`)."""
    return _map(col, "decode", plus_as_space=plus_as_space)


def encode(col: Any, encode_set: str = "component", *, space_as_plus: bool = False) -> Any:
    """Percent-encode each row as UTF-8 with ``encode_set``
    (:func:`percent_encoding.arrow.encode`)."""
    return _map(col, "encode", encode_set, space_as_plus=space_as_plus)


def form_get(col: Any, name: str, *, encoding: str = "utf-8") -> Any:
    """The first value of form field ``name`` in each row, missing when absent
    (:func:`percent_encoding.arrow.form_get`)."""
    return _map(col, "form_get", name, encoding=encoding)


def form_parse(col: Any, *, encoding: str = "utf-8") -> Any:
    """Each row's form fields (:func:`percent_encoding.arrow.form_parse`)."""
    return _map(col, "form_parse", encoding=encoding)


def _partition_base(part: Any, base: Any, op: str, args: tuple[Any, ...],
                    kwargs: dict[str, Any]) -> Any:
    """One partition with its base partition (Dask aligns the two Series)."""
    from . import pandas  # noqa: F401

    return getattr(part.pe, op)(*args, base=base, **kwargs)


def _map_url(col: Any, op: str, base: Any, *args: Any, **kwargs: Any) -> Any:
    dd = _dask_dataframe()
    if not isinstance(base, dd.Series):
        return _map(col, op, *args, base=base, **kwargs)
    if not isinstance(col, dd.Series):
        raise PercentEncodingTypeError(
            f"expected a dask.dataframe Series (a column: ddf['url']), not {type(col).__name__}"
        )
    meta = _partition_base(col._meta, base._meta, op, args, kwargs)
    return col.map_partitions(_partition_base, base, op, args, kwargs, meta=meta)


def url_parse(col: Any, base: Any = None, *, errors: str = "null") -> Any:
    """Each row parsed as a URL: a lazy DataFrame of its components, index kept
    (:func:`percent_encoding.arrow.url_parse`; a row that is not a URL is missing).

    ``base``: None, a str, or a dask Series with the same partitions.

    >>> import pandas as pd, dask.dataframe as dd
    >>> s = dd.from_pandas(pd.Series(["https://a.example/x?q", "nope"]), npartitions=2)
    >>> url_parse(s)["hostname"].compute(scheduler="sync").tolist()
    ['a.example', <NA>]
    """
    return _map_url(col, "url_parse", base, errors=errors)


def url_component(col: Any, name: str, base: Any = None, *, errors: str = "null") -> Any:
    """One component of each row's URL (:func:`percent_encoding.arrow.url_component`)."""
    return _map_url(col, "url_component", base, name, errors=errors)


def url_can_parse(col: Any, base: Any = None) -> Any:
    """Whether each row parses as a URL (:func:`percent_encoding.arrow.url_can_parse`)."""
    return _map_url(col, "url_can_parse", base)
