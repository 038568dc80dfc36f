"""DuckDB: the column API as vectorized SQL functions.

``register(con)`` creates, on one connection, Python UDFs of DuckDB's
``arrow`` kind (each call gets a whole vector of rows as an Arrow column and
runs the C kernels on it)::

    pe_decode_text(s VARCHAR) -> VARCHAR        -- percent_encoding.decode_text
    pe_decode_text_blob(b BLOB) -> VARCHAR      -- the same for bytes (any, even not UTF-8)
    pe_decode(s VARCHAR) -> BLOB                -- percent_encoding.decode
    pe_encode(s VARCHAR, set VARCHAR) -> VARCHAR  -- percent_encoding.encode(s, set)
    pe_form_get(s VARCHAR, name VARCHAR) -> VARCHAR  -- first value of a form field
    pe_url_parse(url VARCHAR) -> STRUCT(href VARCHAR, protocol VARCHAR, ..., hash VARCHAR)
    pe_url_component(url VARCHAR, name VARCHAR [, base VARCHAR]) -> VARCHAR
    pe_url_can_parse(url VARCHAR) -> BOOLEAN    -- the URL API's canParse

The URL functions are :func:`percent_encoding.arrow.url_parse`,
``url_component`` and ``url_can_parse``: each row as
:func:`percent_encoding.url.parse` gives it (the WHATWG URL Standard), NULL
for a row that is not a URL (``pe_url_can_parse`` is false there, so
``WHERE NOT pe_url_can_parse(url)`` lists those rows).

``pe_url_component`` is a macro: a ``CASE`` on the component name over one
UDF per component (``pe_url_component_hostname(url)``,
``pe_url_component_hostname_base(url, base)``, ...), and for a name that is
none of them (or NULL) the UDFs ``pe_url_component_nobase(url, name)`` and
``pe_url_component_base(url, name, base)``, which raise for an unknown name.
DuckDB folds the ``CASE`` when the name is a constant, so each vector
reaches Python as the URL column alone (a constant name would otherwise
arrive as a second column of 2,048 copies); a name that varies by row sends
each row to its component's UDF.  The kernels release the GIL while they
parse, so more DuckDB threads (``SET threads``) run more vectors at once.

Row by row each is exactly the per-string function (``form_get``: the first
value of ``name`` in :func:`percent_encoding.form.parse`, after one leading
``?``; NULL when the field is absent).  A NULL argument gives NULL; no other
row becomes NULL: bytes that are not valid UTF-8 after decoding become
U+FFFD and a ``%`` that starts no escape is kept, where DuckDB's own
``url_decode`` raises (and ``try(url_decode(...))`` gives NULL).

DuckDB passes a constant argument (``pe_encode(url, 'path')``) as a column
repeating the value; each distinct value is resolved once.  ``encoding``
and ``plus_as_space`` are fixed when registering; register again with
another ``prefix`` for a second flavour (``prefix="form_",
plus_as_space=True``).  Needs duckdb and pyarrow
(``pip install 'percent-encoding[duckdb]'``); DuckDB is imported when
:func:`register` is called.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import arrow
from .errors import PercentEncodingTypeError

__all__ = ["register"]

#: What pe_url_component takes (arrow.url_component's names): one UDF each.
_COMPONENT_NAMES = (*arrow.URL_COMPONENTS, "origin")


def _with_argument(
    pa: Any, f: Callable[[Any, str], Any], result_type: Any
) -> Callable[[Any, Any], Any]:
    """A two-column UDF whose second column (a set or field name) is usually constant."""

    def udf(col: Any, arg: Any) -> Any:
        col = pa.chunked_array(col).combine_chunks() if not isinstance(col, pa.Array) else col
        arg = pa.chunked_array(arg).combine_chunks() if not isinstance(arg, pa.Array) else arg
        distinct = arg.unique().to_pylist()
        if len(distinct) == 1 and distinct[0] is not None:
            return f(col, distinct[0])
        # several values (or NULLs): each value's rows at once, then back in row order
        parts = []
        order = []
        for value in distinct:
            if value is None:
                rows = pa.compute.indices_nonzero(arg.is_null())
                parts.append(pa.nulls(len(rows), result_type))
            else:
                rows = pa.compute.indices_nonzero(pa.compute.equal(arg, value).fill_null(False))
                parts.append(f(col.take(rows), value).cast(result_type))
            order.append(rows)
        if not parts:
            return pa.array([], result_type)
        where = pa.concat_arrays([pa.array(r, pa.int64()) for r in order])
        back = pa.compute.sort_indices(where)
        return pa.concat_arrays(parts).take(back)

    return udf


def _one_value(pa: Any, col: Any) -> Any:
    """The one value of a column that repeats it on every row (a constant), else None."""
    if len(col) == 0 or col.null_count:
        return None
    first = col[0]
    # one comparison in C: DuckDB hands a constant argument over as a whole vector, and
    # hashing it (unique) cost a tenth of a 2,048-row pe_url_component call
    return first.as_py() if col.equals(pa.repeat(first, len(col))) else None


def _one_array(pa: Any, col: Any) -> Any:
    """A UDF's argument as one Array (DuckDB passes a ChunkedArray, usually of one chunk)."""
    if isinstance(col, pa.Array):
        return col
    col = pa.chunked_array(col)
    return col.chunk(0) if col.num_chunks == 1 else col.combine_chunks()


def _base_column(pa: Any, base: Any) -> Any:
    """A UDF's base argument: None, its one value when constant (parsed once), or a column."""
    if base is None:
        return None
    base = _one_array(pa, base)
    one = _one_value(pa, base)
    return one if one is not None else base


def _url_component(pa: Any, col: Any, name: Any, base: Any = None) -> Any:
    """pe_url_component_nobase / _base: rows grouped by the component name."""
    col, name, base = _one_array(pa, col), _one_array(pa, name), _base_column(pa, base)

    def rows_of(rows: Any, component: str) -> Any:
        b = base if base is None or isinstance(base, str) else base.take(rows)
        return arrow.url_component(col.take(rows), component, b)

    one_name = _one_value(pa, name)
    if one_name is not None:
        return arrow.url_component(col, one_name, base)
    names = name.unique().to_pylist()
    parts, order = [], []
    for value in names:
        if value is None:
            rows = pa.compute.indices_nonzero(name.is_null())
            parts.append(pa.nulls(len(rows), pa.string()))
        else:
            rows = pa.compute.indices_nonzero(pa.compute.equal(name, value).fill_null(False))
            parts.append(rows_of(rows, value).cast(pa.string()))
        order.append(rows)
    if not parts:
        return pa.array([], pa.string())
    where = pa.concat_arrays([pa.array(r, pa.int64()) for r in order])
    return pa.concat_arrays(parts).take(pa.compute.sort_indices(where))


def _component_udf(pa: Any, component: str, with_base: bool) -> Callable[..., Any]:
    """pe_url_component_<component>[_base]: the URL column (and a base column) of a vector."""

    def udf(col: Any) -> Any:
        out = arrow.url_component(_one_array(pa, col), component)
        return pa.Table.from_arrays([out], names=["c0"])  # what DuckDB would build from it

    def udf_base(col: Any, base: Any) -> Any:
        out = arrow.url_component(_one_array(pa, col), component, _base_column(pa, base))
        return pa.Table.from_arrays([out], names=["c0"])

    return udf_base if with_base else udf


def _component_macro(prefix: str, base: bool) -> str:
    """The body of pe_url_component: a CASE on the name (DuckDB folds it for a constant)."""
    args, suffix = ("url, base", "_base") if base else ("url", "")
    arms = " ".join(f"WHEN '{c}' THEN {prefix}url_component_{c}{suffix}({args})"
                    for c in _COMPONENT_NAMES)
    generic = (f"{prefix}url_component_base(url, name, base)" if base
               else f"{prefix}url_component_nobase(url, name)")
    return f"CASE name {arms} ELSE {generic} END"


def register(
    con: Any, *, encoding: str = "utf-8", plus_as_space: bool = False, prefix: str = "pe_"
) -> None:
    """Create the ``pe_*`` SQL functions on the DuckDB connection ``con``.

    ``encoding`` (any WHATWG label) and ``plus_as_space`` apply to
    ``pe_decode_text``, ``pe_decode_text_blob`` and ``pe_decode`` (``encoding``
    also to ``pe_form_get``); they are checked now.

    >>> import duckdb
    >>> con = duckdb.connect()
    >>> register(con)
    >>> con.execute("SELECT pe_decode_text('caf%C3%A9'), pe_decode_text('%FF'), "
    ...         "pe_form_get('?q=a+b&x=1', 'q'), pe_encode('a b/c', 'path')").fetchone()
    ('café', '\\ufffd', 'a b', 'a%20b/c')
    >>> con.execute("SELECT pe_url_component('HTTPS://Example.COM:443/a', 'host'), "
    ...         "pe_url_component('../x', 'href', 'http://h/a/b'), "
    ...         "pe_url_can_parse('/x'), pe_url_parse('http://u@h/p').pathname").fetchone()
    ('example.com', 'http://h/x', False, '/p')
    """
    try:
        import duckdb
        import pyarrow as pa
        import pyarrow.compute
    except ImportError:
        raise ImportError(
            "percent_encoding.duckdb needs duckdb and pyarrow "
            "(pip install 'percent-encoding[duckdb]')"
        ) from None
    if not isinstance(con, duckdb.DuckDBPyConnection):
        raise PercentEncodingTypeError(
            f"expected a DuckDB connection (duckdb.connect()), not {type(con).__name__}"
        )
    if not isinstance(prefix, str) or not prefix.isidentifier():
        raise PercentEncodingTypeError("prefix must be a str that is an SQL identifier")
    text_opts: dict[str, Any] = {"encoding": encoding, "plus_as_space": plus_as_space}
    arrow.decode_text(pa.array([], pa.string()), **text_opts)  # checks both options now
    varchar, blob = duckdb.sqltype("VARCHAR"), duckdb.sqltype("BLOB")

    def decode_text(col: Any) -> Any:
        return arrow.decode_text(col, **text_opts)

    def decode(col: Any) -> Any:
        return arrow.decode(col, plus_as_space=plus_as_space)

    def encode(col: Any, encode_set: str) -> Any:
        return arrow.encode(col, encode_set)

    def form_get(col: Any, name: str) -> Any:
        return arrow.form_get(col, name, encoding=encoding)

    functions: list[tuple[str, Callable[..., Any], list[Any], Any]] = [
        ("decode_text", decode_text, [varchar], varchar),
        ("decode_text_blob", decode_text, [blob], varchar),
        ("decode", decode, [varchar], blob),
        ("encode", _with_argument(pa, encode, pa.string()), [varchar, varchar], varchar),
        ("form_get", _with_argument(pa, form_get, pa.string()), [varchar, varchar], varchar),
    ]
    url_struct = duckdb.struct_type({n: varchar for n in arrow.URL_COMPONENTS})
    functions += [
        ("url_parse", lambda c: arrow.url_parse(c), [varchar], url_struct),
        ("url_component_nobase", lambda c, n: _url_component(pa, c, n), [varchar, varchar],
         varchar),
        ("url_component_base", lambda c, n, b: _url_component(pa, c, n, b),
         [varchar, varchar, varchar], varchar),
        ("url_can_parse", lambda c: arrow.url_can_parse(c), [varchar],
         duckdb.sqltype("BOOLEAN")),
    ]
    for component in _COMPONENT_NAMES:
        functions += [
            (f"url_component_{component}", _component_udf(pa, component, False), [varchar],
             varchar),
            (f"url_component_{component}_base", _component_udf(pa, component, True),
             [varchar, varchar], varchar),
        ]
    for name, f, params, result in functions:
        # "special": the UDF sees NULL rows (the kernels keep them NULL) and may return NULL
        # (form_get for an absent field); "default" would reject a NULL result.
        con.create_function(prefix + name, f, params, result, type="arrow",
                            null_handling="special")
    # one name, two arities: a macro (DuckDB has one Python function per name)
    con.execute(f"CREATE OR REPLACE TEMP MACRO {prefix}url_component(url, name) AS "
                f"{_component_macro(prefix, False)}, (url, name, base) AS "
                f"{_component_macro(prefix, True)}")
