"""Polars: the column API as an expression and Series namespace, ``pe``.

Importing this module registers the namespace (Polars must be installed:
``pip install 'percent-encoding[polars]'``)::

    import polars as pl
    import percent_encoding.polars  # noqa: F401  (registers .pe)

    df.with_columns(pl.col("url").pe.decode_text(plus_as_space=True))

Each method is the function of the same name in :mod:`percent_encoding.arrow`
run on the column's Arrow buffers (Polars hands over its ``string_view``
data without a copy, and gets ``string_view`` results back, which it takes
without converting them), so row by row the result is exactly the per-string API
and nulls stay null.  The expressions are elementwise ``map_batches`` calls
with a fixed return type: they run in lazy queries and in the streaming
engine, which may cut a column into batches of any size.

Arguments are checked when the expression is built, so a wrong set name or
label fails before the query runs.  With ``errors="strict"`` in an
expression, the row in the :class:`~percent_encoding.errors.TextDecodeError`
counts from the start of the batch Polars passed, not of the frame (Polars
re-raises the error from its message, so ``.row`` is not kept); the Series
method counts from the start of the Series.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import arrow, sets
from .errors import PercentEncodingTypeError

try:
    import polars as pl
except ImportError:  # pragma: no cover - the module is only imported for Polars
    raise ImportError(
        "percent_encoding.polars needs Polars (pip install 'percent-encoding[polars]')"
    ) from None

__all__ = ["PercentEncodingExpr", "PercentEncodingSeries"]

_PAIRS = pl.List(pl.Struct({"name": pl.String, "value": pl.String}))
_URL = pl.Struct({name: pl.String for name in arrow.URL_COMPONENTS})


def _input(s: Any) -> Any:
    """The Series as the kernels read it: String and Binary as they are."""
    dtype = s.dtype
    if dtype == pl.String or dtype == pl.Binary:
        return s
    if dtype == pl.Categorical or dtype == pl.Enum:
        return s.cast(pl.String)
    if dtype == pl.Null:
        return s.cast(pl.String)  # all null: the result is all null, of the right type
    raise PercentEncodingTypeError(
        f"expected a String or Binary column, not {dtype} (column {s.name!r})"
    )


def _run(s: Any, f: Callable[[Any], Any], dtype: Any) -> Any:
    out = pl.Series(s.name, f(_input(s)))
    if out.dtype != dtype:  # a zero-length result can come back untyped
        out = out.cast(dtype)
    return out


def _checked(op: str, kwargs: dict[str, Any]) -> Callable[[Any], Any]:
    """The arrow function with its arguments bound, checked now on an empty column."""
    f = getattr(arrow, op)

    def call(col: Any) -> Any:
        # string_view results: Polars' own layout, taken without a conversion
        return arrow._with_views(f, col, **kwargs)

    call(pl.Series("", [], dtype=pl.String))  # raises for a bad set, label or flag
    return call


class _Methods:
    """The methods shared by both namespaces; ``_apply`` says how each runs."""

    def _apply(self, call: Callable[[Any], Any], dtype: Any) -> Any:
        raise NotImplementedError

    def decode_text(
        self,
        *,
        encoding: str = "utf-8",
        plus_as_space: bool = False,
        errors: arrow.ArrowErrors = "replace",
    ) -> Any:
        """Percent-decode each row, then decode it as text
        (:func:`percent_encoding.arrow.decode_text`).

        >>> import polars as pl
        >>> s = pl.Series(["caf%C3%A9+au+lait", None, "%FF"])
        >>> s.pe.decode_text(plus_as_space=True).to_list()
        ['café au lait', None, '\\ufffd']
        """
        call = _checked("decode_text", {
            "encoding": encoding, "plus_as_space": plus_as_space, "errors": errors})
        return self._apply(call, pl.String)

    def decode(self, *, plus_as_space: bool = False) -> Any:
        """Percent-decode each row to bytes (:func:`percent_encoding.arrow.decode`).

        >>> import polars as pl
        >>> pl.Series(["a%20b", "%FF"]).pe.decode().to_list()
        [b'a b', b'\\xff']
        """
        return self._apply(_checked("decode", {"plus_as_space": plus_as_space}), pl.Binary)

    def encode(self, encode_set: str = "component", *, space_as_plus: bool = False) -> Any:
        """Percent-encode each row as UTF-8 with ``encode_set``
        (:func:`percent_encoding.arrow.encode`).

        >>> import polars as pl
        >>> pl.Series(["a b/c"]).pe.encode("path").to_list()
        ['a%20b/c']
        """
        sets.resolve(encode_set)  # an unknown name raises before the query runs
        call = _checked("encode", {"encode_set": encode_set, "space_as_plus": space_as_plus})
        return self._apply(call, pl.String)

    def form_get(self, name: str, *, encoding: str = "utf-8") -> Any:
        """The first value of form field ``name`` in each row, null when absent
        (:func:`percent_encoding.arrow.form_get`).

        >>> import polars as pl
        >>> pl.Series(["?q=caf%C3%A9+au+lait&x=1", "x=2"]).pe.form_get("q").to_list()
        ['café au lait', None]
        """
        return self._apply(_checked("form_get", {"name": name, "encoding": encoding}), pl.String)

    def form_parse(self, *, encoding: str = "utf-8") -> Any:
        """Each row's form fields as a list of ``{name, value}`` structs
        (:func:`percent_encoding.arrow.form_parse`; needs pyarrow).

        >>> import polars as pl
        >>> pl.Series(["?a=1&b"]).pe.form_parse().to_list()
        [[{'name': 'a', 'value': '1'}, {'name': 'b', 'value': ''}]]
        """
        return self._apply(_checked("form_parse", {"encoding": encoding}), _PAIRS)

    def _apply_url(self, op: str, kwargs: dict[str, Any], base: Any, dtype: Any) -> Any:
        """A URL function: ``base`` None or a str is bound now; a column goes along."""
        if base is None or isinstance(base, str):
            return self._apply(_checked(op, {**kwargs, "base": base}), dtype)
        f = getattr(arrow, op)
        f(pl.Series("", [], dtype=pl.String), **kwargs)  # checks the other arguments
        return self._apply_with(lambda col, b: f(col, base=_input(b), **kwargs), base, dtype)

    def _apply_with(self, call: Callable[[Any, Any], Any], base: Any, dtype: Any) -> Any:
        raise NotImplementedError

    def url_parse(self, base: Any = None, *, errors: str = "null") -> Any:
        """Each row parsed as a browser does: a ``pl.Struct`` of the URL's components
        (:func:`percent_encoding.arrow.url_parse`; needs pyarrow).

        ``base``: None, a str, or a column (an expression, or a Series for the
        Series method).  A null struct is a row that is not a URL.

        >>> import polars as pl
        >>> s = pl.Series(["https://EXAMPLE.com/a?q", "nope"]).pe.url_parse()
        >>> s.struct.field("hostname").to_list()
        ['example.com', None]
        """
        return self._apply_url("url_parse", {"errors": errors}, base, _URL)

    def url_component(self, name: str, base: Any = None, *, errors: str = "null") -> Any:
        """One component of each row's URL (:func:`percent_encoding.arrow.url_component`).

        >>> import polars as pl
        >>> pl.Series(["http://u@[::1]:81/p", "/x"]).pe.url_component("host").to_list()
        ['[::1]:81', None]
        """
        return self._apply_url("url_component", {"component": name, "errors": errors}, base,
                               pl.String)

    def url_can_parse(self, base: Any = None) -> Any:
        """Whether each row parses as a URL (:func:`percent_encoding.arrow.url_can_parse`).

        >>> import polars as pl
        >>> pl.Series(["http://a", "/x", None]).pe.url_can_parse().to_list()
        [True, False, None]
        """
        return self._apply_url("url_can_parse", {}, base, pl.Boolean)


@pl.api.register_expr_namespace("pe")
class PercentEncodingExpr(_Methods):
    """``pl.col(...).pe``: each method is an elementwise expression."""

    def __init__(self, expr: Any) -> None:
        self._expr = expr

    def _apply(self, call: Callable[[Any], Any], dtype: Any) -> Any:
        return self._expr.map_batches(
            lambda s: _run(s, call, dtype), return_dtype=dtype, is_elementwise=True
        )

    def _apply_with(self, call: Callable[[Any, Any], Any], base: Any, dtype: Any) -> Any:
        if isinstance(base, pl.Series):
            base = pl.lit(base)
        both = pl.struct(self._expr.alias("u"), base.alias("b"))

        def run(s: Any) -> Any:
            out = pl.Series(s.name, call(_input(s.struct.field("u")), s.struct.field("b")))
            return out if out.dtype == dtype else out.cast(dtype)

        return both.map_batches(run, return_dtype=dtype, is_elementwise=True).alias(
            self._expr.meta.output_name(raise_if_undetermined=False) or "u")


@pl.api.register_series_namespace("pe")
class PercentEncodingSeries(_Methods):
    """``series.pe``: each method returns a new Series with the same name."""

    def __init__(self, series: Any) -> None:
        self._series = series

    def _apply(self, call: Callable[[Any], Any], dtype: Any) -> Any:
        return _run(self._series, call, dtype)

    def _apply_with(self, call: Callable[[Any, Any], Any], base: Any, dtype: Any) -> Any:
        if not isinstance(base, pl.Series):
            raise PercentEncodingTypeError(
                f"base must be None, a str or a Series, not {type(base).__name__}")
        return _run(self._series, lambda col: call(col, base), dtype)
