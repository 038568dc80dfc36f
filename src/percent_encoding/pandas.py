"""pandas: the column API as a Series accessor, ``pe``.

Importing this module registers the accessor (pandas and pyarrow must be
installed: ``pip install 'percent-encoding[pandas]'``)::

    import pandas as pd
    import percent_encoding.pandas  # noqa: F401  (registers .pe)

    df["path"] = df["url"].pe.decode_text(plus_as_space=True)

Each method is the function of the same name in :mod:`percent_encoding.arrow`,
so row by row the result is exactly the per-string API.  The result keeps the
Series' index and name, and missing values stay missing:

* Arrow-backed Series (``str`` / ``string[pyarrow]`` / ``string[python]``,
  ``ArrowDtype`` of a string or binary type) go to the kernels without a
  per-row Python object.  Text results keep a ``StringDtype`` input's dtype
  (its missing value too); otherwise the result is an ``ArrowDtype`` of the
  kernel's type (``binary`` for :meth:`~PercentEncodingAccessor.decode`,
  ``list<struct<name, value>>`` for :meth:`~PercentEncodingAccessor.form_parse`).
* ``object`` Series hold ``str`` or ``bytes`` rows (a column may mix them)
  and missing values (``None``, ``NaN``, ``pd.NA``), which are kept as they
  were; the result is an ``object`` Series of what the per-string API
  returns.  Any other value raises
  :class:`~percent_encoding.errors.PercentEncodingTypeError` naming the row.

``errors="strict"`` raises :class:`~percent_encoding.errors.TextDecodeError`
with ``.row`` (the position), ``.label`` (the index label) and ``.position``
(the byte offset in that row).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import arrow, sets
from .errors import PercentEncodingTypeError, TextDecodeError, URLParseError

try:
    import pandas as pd
    import pyarrow as pa
except ImportError:  # pragma: no cover - the module is only imported for pandas
    raise ImportError(
        "percent_encoding.pandas needs pandas and pyarrow "
        "(pip install 'percent-encoding[pandas]')"
    ) from None

__all__ = ["PercentEncodingAccessor"]


def _arrow_backed(dtype: Any) -> bool:
    if isinstance(dtype, pd.StringDtype):
        return True
    return isinstance(dtype, pd.ArrowDtype)


def _label(s: Any, row: int) -> Any:
    """The index label of ``row`` as a plain Python value (not a NumPy scalar)."""
    label = s.index[row]
    item = getattr(label, "item", None)
    return item() if callable(item) and not isinstance(label, (str, bytes)) else label


def _where(s: Any, row: int) -> str:
    named = f" of Series {s.name!r}" if s.name is not None else ""
    return f"row {row} (index {_label(s, row)!r}){named}"


def _relabel(e: TextDecodeError, row: int, label: Any) -> TextDecodeError:
    """The kernel's error, with the row counted in the Series and its index label."""
    message = str(e)
    if message.startswith("row "):
        message = message.split(": ", 1)[1]
    err = TextDecodeError(f"row {row} (index {label!r}): {message}", e.position)
    err.row = row  # type: ignore[attr-defined]
    err.label = label  # type: ignore[attr-defined]
    return err


def _from_object(s: Any, call: Callable[[Any], Any], pairs: bool) -> Any:
    """An object Series: str rows and bytes rows each as one Arrow column."""
    values = s.to_numpy(dtype=object, copy=True)
    missing = s.isna().to_numpy()
    groups: dict[str, list[int]] = {"str": [], "bytes": []}
    for i, v in enumerate(values):
        if missing[i]:
            continue
        if isinstance(v, str):
            groups["str"].append(i)
        elif isinstance(v, bytes):
            groups["bytes"].append(i)
        else:
            raise PercentEncodingTypeError(
                f"{_where(s, i)}: expected str or bytes, not {type(v).__name__}"
            )
    failures: list[tuple[int, TextDecodeError]] = []
    for kind, rows in groups.items():
        if not rows:
            continue
        col = pa.array([values[i] for i in rows],
                       type=pa.large_string() if kind == "str" else pa.large_binary())
        try:
            result = call(col).to_pylist()
        except TextDecodeError as e:
            row = rows[e.row]  # type: ignore[attr-defined]
            failures.append((row, _relabel(e, row, _label(s, row))))
            continue
        for i, r in zip(rows, result, strict=True):
            values[i] = [(p["name"], p["value"]) for p in r] if pairs and r is not None else r
    if failures:  # the first failing row of the Series, as one column would report it
        raise min(failures, key=lambda f: f[0])[1]
    return pd.Series(values, index=s.index, name=s.name, dtype=object)


class _Op:
    """One column operation: the arrow function with its arguments, and its result kind."""

    def __init__(self, name: str, kwargs: dict[str, Any], kind: str) -> None:
        self.call: Callable[[Any], Any] = lambda col: getattr(arrow, name)(col, **kwargs)
        self.kind = kind  # "text", "binary" or "pairs"
        self.call(pa.array([], pa.string()))  # check the arguments before any row


@pd.api.extensions.register_series_accessor("pe")
class PercentEncodingAccessor:
    """``series.pe``: the column API on a pandas Series."""

    def __init__(self, series: Any) -> None:
        self._s = series

    def _run(self, op: _Op) -> Any:
        s = self._s
        dtype = s.dtype
        if dtype == object:  # noqa: E721  (NumPy's dtype compares equal to object)
            return _from_object(s, op.call, op.kind == "pairs")
        if not _arrow_backed(dtype):
            raise PercentEncodingTypeError(
                f"Series {s.name!r} has dtype {dtype}: expected str or string, an "
                "ArrowDtype of a string or binary type, or object"
            )
        try:
            result = op.call(pa.array(s.array))
        except TextDecodeError as e:
            row = e.row  # type: ignore[attr-defined]
            raise _relabel(e, row, _label(s, row)) from None
        if op.kind == "text" and isinstance(dtype, pd.StringDtype):
            values = pd.array(result, dtype=dtype)
        else:
            values = pd.arrays.ArrowExtensionArray(result)
        return pd.Series(values, index=s.index, name=s.name, copy=False)

    def decode_text(
        self,
        *,
        encoding: str = "utf-8",
        plus_as_space: bool = False,
        errors: arrow.ArrowErrors = "replace",
    ) -> Any:
        """Percent-decode each row, then decode it as text
        (:func:`percent_encoding.arrow.decode_text`).

        >>> import pandas as pd
        >>> s = pd.Series(["caf%C3%A9+au+lait", None, "%FF"], index=[10, 11, 12])
        >>> s.pe.decode_text(plus_as_space=True).tolist()
        ['café au lait', nan, '\\ufffd']
        """
        return self._run(_Op("decode_text", {
            "encoding": encoding, "plus_as_space": plus_as_space, "errors": errors}, "text"))

    def decode(self, *, plus_as_space: bool = False) -> Any:
        """Percent-decode each row to bytes (:func:`percent_encoding.arrow.decode`).

        >>> import pandas as pd
        >>> pd.Series(["a%20b", "%FF"]).pe.decode().tolist()
        [b'a b', b'\\xff']
        """
        return self._run(_Op("decode", {"plus_as_space": plus_as_space}, "binary"))

    def encode(self, encode_set: str = "component", *, space_as_plus: bool = False) -> Any:
        """Percent-encode each row as UTF-8 with ``encode_set``
        (:func:`percent_encoding.arrow.encode`).

        >>> import pandas as pd
        >>> pd.Series(["a b/c"]).pe.encode("path").tolist()
        ['a%20b/c']
        """
        sets.resolve(encode_set)
        return self._run(_Op("encode", {
            "encode_set": encode_set, "space_as_plus": space_as_plus}, "text"))

    def form_get(self, name: str, *, encoding: str = "utf-8") -> Any:
        """The first value of form field ``name`` in each row, missing when absent
        (:func:`percent_encoding.arrow.form_get`).

        >>> import pandas as pd
        >>> pd.Series(["?q=caf%C3%A9+au+lait&x=1", "x=2"], dtype="string").pe.form_get("q").tolist()
        ['café au lait', <NA>]
        """
        return self._run(_Op("form_get", {"name": name, "encoding": encoding}, "text"))

    def form_parse(self, *, encoding: str = "utf-8") -> Any:
        """Each row's form fields (:func:`percent_encoding.arrow.form_parse`): a
        ``list<struct<name, value>>`` column, or for an object Series the
        ``(name, value)`` lists :func:`percent_encoding.form.parse` returns.

        >>> import pandas as pd
        >>> pd.Series(["?a=1&b"], dtype=object).pe.form_parse().tolist()
        [[('a', '1'), ('b', '')]]
        """
        return self._run(_Op("form_parse", {"encoding": encoding}, "pairs"))

    # -- URLs -------------------------------------------------------------------

    def _url_column(self, what: Any, name: str = "url") -> Any:
        """A Series (this one, or a base) as an Arrow string column, position by position."""
        s = what
        if s.dtype == object:
            values = s.to_numpy(dtype=object)
            missing = s.isna().to_numpy()
            for i, v in enumerate(values):
                if not missing[i] and not isinstance(v, str):
                    raise PercentEncodingTypeError(
                        f"{name}: {_where(s, i)}: expected str, not {type(v).__name__}")
            return pa.array([None if missing[i] else v for i, v in enumerate(values)],
                            pa.large_string())
        if not _arrow_backed(s.dtype):
            raise PercentEncodingTypeError(
                f"{name}: Series {s.name!r} has dtype {s.dtype}: expected str or string, "
                "an ArrowDtype of a string type, or object")
        return pa.array(s.array)

    def _url(self, op: str, base: Any, **kwargs: Any) -> Any:
        """The arrow URL function over this Series; a strict error names the index label."""
        s = self._s
        if isinstance(base, pd.Series):
            if len(base) != len(s):
                raise PercentEncodingTypeError(
                    f"base has {len(base)} rows, the Series {len(s)}: they must match "
                    "(rows are paired by position)")
            base = self._url_column(base, "base")
        col = self._url_column(s)
        try:
            return getattr(arrow, op)(col, base=base, **kwargs)
        except URLParseError as e:
            if e.row is None:
                raise
            label = _label(s, e.row)
            err = URLParseError(f"row {e.row} (index {label!r}): {str(e).split(': ', 1)[1]}",
                                e.name, e.position, e.row)
            err.label = label  # type: ignore[attr-defined]
            raise err from None

    def _url_series(self, result: Any, name: Any) -> Any:
        s = self._s
        if s.dtype == object:
            return pd.Series(result.to_pylist(), index=s.index, name=name, dtype=object)
        if isinstance(s.dtype, pd.StringDtype) and not pa.types.is_boolean(result.type):
            values = pd.array(result, dtype=s.dtype)
        else:
            values = pd.arrays.ArrowExtensionArray(result)
        return pd.Series(values, index=s.index, name=name, copy=False)

    def url_parse(self, base: Any = None, *, errors: str = "null") -> Any:
        """Each row parsed as a browser does: a DataFrame of the URL's components, index kept
        (:func:`percent_encoding.arrow.url_parse`).

        ``base``: None, a str, or a Series paired by position.  A row that is
        not a URL is missing in every column (see :meth:`url_can_parse`).

        >>> import pandas as pd
        >>> df = pd.Series(["https://a.example:8443/p?q", "x"], index=[7, 9]).pe.url_parse()
        >>> df[["hostname", "port", "search"]].values.tolist()
        [['a.example', '8443', '?q'], [nan, nan, nan]]
        >>> list(df.index)
        [7, 9]
        """
        result = self._url("url_parse", base, errors=errors)
        if isinstance(result, pa.ChunkedArray):
            result = result.combine_chunks()
        return pd.DataFrame({name: self._url_series(result.field(i), name)
                             for i, name in enumerate(arrow.URL_COMPONENTS)}, index=self._s.index)

    def url_component(self, name: str, base: Any = None, *, errors: str = "null") -> Any:
        """One component of each row's URL, missing for a row that is not a URL
        (:func:`percent_encoding.arrow.url_component`).

        >>> import pandas as pd
        >>> s = pd.Series(["HTTP://User@Example.COM/a/../b", "/x"])
        >>> s.pe.url_component("pathname").tolist()
        ['/b', nan]
        """
        return self._url_series(
            self._url("url_component", base, component=name, errors=errors), self._s.name)

    def url_can_parse(self, base: Any = None) -> Any:
        """Whether each row parses as a URL (:func:`percent_encoding.arrow.url_can_parse`).

        >>> import pandas as pd
        >>> s = pd.Series(["https://a", "/x", "b"], dtype="string")
        >>> s[~s.pe.url_can_parse()].tolist()
        ['/x', 'b']
        """
        return self._url_series(self._url("url_can_parse", base), self._s.name)
