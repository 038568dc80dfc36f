"""URL columns: the WHATWG URL parser over Arrow string columns (see :mod:`.arrow`).

Each row is :func:`percent_encoding.url.parse` of it (URL Standard §4.4 basic
URL parser, §6.1 the API's getters), against ``base`` when one is given.  Two
twins: the pure one parses row by row through ``url.parse`` and builds the
result with pyarrow; the C one (``src/csrc/arrow_url.c``) reads the Arrow
buffers, parses each row with the C URL parser (the Python state machine for
the rows it leaves) and copies each component's span of the href into the
output buffers.  Both need pyarrow to build the result (a struct column is a
nested type, as ``form_parse``'s is).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import Any, Literal

from .. import _kernels, core, url
from ..errors import (
    ArrowFormatError,
    PercentEncodingError,
    PercentEncodingTypeError,
    URLParseError,
)

__all__ = ["COMPONENTS", "url_can_parse", "url_component", "url_parse"]

#: The fields of :func:`url_parse`'s struct, in order (the URL API's getters, §6.1).
COMPONENTS = ("href", "protocol", "username", "password", "host", "hostname", "port",
              "pathname", "search", "hash")
_ONE = (*COMPONENTS, "origin")  # what url_component takes
# Indexes into _ONE: the getters a column holds, in its order (not the URL's offsets).
Getters = tuple[int, ...]

URLErrors = Literal["null", "strict"]
_STRING_TYPES = {"string", "large_string", "string_view"}


def malformed_array_error(row: int, what: str) -> ArrowFormatError:
    """The error for an array whose buffers break the Arrow format (a C kernel's
    ``("malformed", row, what)``), with ``.row``."""
    return ArrowFormatError(
        f"malformed Arrow array at row {row}: {what} "
        "(the producer of this column wrote buffers the Arrow format does not allow)", row
    )


# The highest address a buffer can reach, as src/csrc/arrow.c's PE_ADDR_TOP: user space
# ends below 2**57 on every 64-bit platform CPython runs on.
_ADDR_TOP = 1 << 57 if sys.maxsize > 1 << 32 else 1 << 32


def check_chunk(pa: Any, chunk: Any, first_row: int, *, memory: bool = True) -> None:
    """Raise :class:`ArrowFormatError` when a pyarrow chunk's sizes cannot be true.

    Before any row is read: pyarrow's O(1) validation (a length or offset that is
    negative, a buffer smaller than the length needs, a last offset past the data
    buffer's size), then each buffer's size against the memory it would span.  An
    array imported from a raw C Data Interface capsule has the sizes its producer's
    last offset (or a view column's size list) gives, so a wild one shows here.
    ``memory=False`` leaves that to the C kernels, which check it themselves.
    """
    try:
        chunk.validate()
    except pa.ArrowException as e:
        raise malformed_array_error(first_row, str(e)) from None
    if not memory:
        return
    bufs = chunk.buffers()
    for k, b in enumerate(bufs):
        if b is not None and b.size > 0 and b.address + b.size > _ADDR_TOP:
            raise malformed_array_error(
                first_row + _first_row_in(pa, chunk, bufs, k),
                "a buffer's size reaches past memory the process can have")


def _first_row_in(pa: Any, chunk: Any, bufs: list[Any], k: int) -> int:
    """The first valid row whose bytes reach past what buffer k can hold (0: none)."""
    if k < 2:
        return 0
    t, off = chunk.type, chunk.offset
    bits = bufs[0].to_pybytes() if bufs[0] is not None and chunk.null_count else None
    rows = [i for i in range(len(chunk))
            if bits is None or bits[(off + i) >> 3] >> ((off + i) & 7) & 1]
    if pa.types.is_large_string(t) or pa.types.is_large_binary(t) or pa.types.is_string(
            t) or pa.types.is_binary(t):
        large = pa.types.is_large_string(t) or pa.types.is_large_binary(t)
        offsets = memoryview(bufs[1]).cast("q" if large else "i")
        limit = _ADDR_TOP - bufs[2].address
        return next((i for i in rows if offsets[off + i + 1] > limit), 0)
    views = memoryview(bufs[1]).cast("i")  # (length, prefix, buffer, offset) a row
    return next((i for i in rows
                 if views[4 * (off + i)] > 12 and views[4 * (off + i) + 2] == k - 2), 0)


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError:
        raise ImportError(
            "percent_encoding.arrow's URL functions need pyarrow "
            "(pip install 'percent-encoding[arrow]')"
        ) from None
    return pyarrow


def _chunks(pa: Any, array: object, what: str) -> tuple[bool, list[Any]]:
    """(was it a stream, its chunks as pyarrow string arrays)."""
    if isinstance(array, pa.Array):
        stream, chunks = False, [array]
    elif isinstance(array, pa.ChunkedArray):
        stream, chunks = True, list(array.chunks)
    elif hasattr(array, "__arrow_c_array__"):
        stream, chunks = False, [pa.array(array)]
    elif hasattr(array, "__arrow_c_stream__"):
        stream, chunks = True, list(pa.chunked_array(array).chunks)
    else:
        raise PercentEncodingTypeError(
            f"{what}: expected an Arrow string column (an object with __arrow_c_array__ or "
            f"__arrow_c_stream__), not {type(array).__name__}"
        )
    start = 0
    for c in chunks:
        if str(c.type) not in _STRING_TYPES:
            raise PercentEncodingTypeError(
                f"{what}: expected a string, large_string or string_view column, not {c.type}"
            )
        check_chunk(pa, c, start)  # before len(): a producer's length may be negative
        start += len(c)
    return stream, chunks


def _check_errors(errors: object) -> str:
    if errors == "null" or errors == "strict":
        return str(errors)
    if not isinstance(errors, str):
        raise PercentEncodingTypeError(f"errors must be a str, not {type(errors).__name__}")
    raise PercentEncodingError(f"errors must be 'null' or 'strict', not {errors!r}")


class _Base:
    """The ``base`` argument: none, one URL for every row, or a column (aligned to chunks)."""

    def __init__(self, pa: Any, base: object, rows: int) -> None:
        self.one: url.URL | None = None
        self.column: Any = None
        if base is None:
            return
        if isinstance(base, url.URL):
            self.one = base
        elif isinstance(base, str):
            try:
                self.one = url.parse(base)
            except URLParseError as e:
                raise URLParseError(
                    f"invalid base URL {base!r}: {e.name} at position {e.position}",
                    e.name, e.position,
                ) from None
        elif hasattr(base, "__arrow_c_array__") or hasattr(base, "__arrow_c_stream__"):
            _, chunks = _chunks(pa, base, "base")
            total = sum(len(c) for c in chunks)
            if total != rows:
                raise PercentEncodingError(
                    f"the base column has {total} rows, the URL column {rows}: "
                    "they must have the same length"
                )
            self.column = pa.chunked_array(chunks, type=chunks[0].type if chunks else
                                           pa.string())
        else:
            raise PercentEncodingTypeError(
                "base must be None, a str, a url.URL or an Arrow string column, not "
                f"{type(base).__name__}"
            )

    def rows(self, start: int, length: int) -> Any:
        """The base column's rows [start, start + length) as one array (or None)."""
        if self.column is None:
            return None
        part = self.column.slice(start, length)
        return part.chunk(0) if part.num_chunks == 1 else part.combine_chunks()


def _row_parser(base: _Base, strict: bool) -> Callable[[str, str | None, int], url.URL | None]:
    """value, the row's base (a base column's value), row -> its URL, or None (a null row)."""
    one = base.one
    cache: dict[str, url.URL | URLParseError] = {}

    def parse(value: str, b: str | None, row: int) -> url.URL | None:
        against: url.URL | None = one
        if base.column is not None:
            if b is None:
                return None  # a null base makes the row null
            hit = cache.get(b)
            if hit is None:
                if len(cache) > 256:
                    cache.clear()
                try:
                    hit = url.parse(b)
                except URLParseError as e:
                    hit = e
                cache[b] = hit
            if isinstance(hit, URLParseError):
                if strict:
                    raise URLParseError(
                        f"row {row}: invalid base URL {b!r}: {hit.name} at position "
                        f"{hit.position}", hit.name, hit.position, row,
                    ) from None
                return None
            against = hit
        try:
            return url.parse(value, against)
        except URLParseError as e:
            if strict:
                raise URLParseError(f"row {row}: {e}", e.name, e.position, row) from None
            return None

    return parse


def _string(pa: Any, large: bool) -> Any:
    return pa.large_string() if large else pa.string()


def _struct(pa: Any, large: bool, fields: Getters) -> Any:
    return pa.struct([(_ONE[f], _string(pa, large)) for f in fields])


def _c_kernel() -> Any:
    # the C column kernel only while the C twin is the active one
    return core.compiled_kernel("arrow_url") if core.url_parse_kernel is not None else None


def _run(array: object, base: object, errors: object, fields: Getters | None) -> Any:
    """The column, chunk by chunk: ``fields`` are indexes into _ONE, None for can_parse."""
    _kernels.warn_if_fallback()  # loud when the C twin was expected but did not load
    pa = _pyarrow()
    strict = _check_errors(errors) == "strict"
    stream, chunks = _chunks(pa, array, "url")
    b = _Base(pa, base, sum(len(c) for c in chunks))
    parse = _row_parser(b, strict)
    k = _c_kernel()
    results = []
    start = 0
    for chunk in chunks:
        large = str(chunk.type) == "large_string"
        bases = b.rows(start, len(chunk))
        if k is not None:
            results.append(_chunk_c(pa, k, chunk, bases if bases is not None else b.one, parse,
                                    fields, large, start, strict))
        else:
            results.append(_chunk_pure(pa, chunk, bases, parse, fields, large, start))
        start += len(chunk)
    if not stream:
        return results[0]
    if not results:
        large = bool(chunks) and str(chunks[0].type) == "large_string"
        return pa.chunked_array([], type=_type(pa, fields, large))
    return pa.chunked_array(results)


def _type(pa: Any, fields: Getters | None, large: bool) -> Any:
    if fields is None:
        return pa.bool_()
    if len(fields) == 1:
        return _string(pa, large)
    return _struct(pa, large, fields)


#: A text type's binary twin (the same buffers), for reading rows as bytes.
AS_BINARY = {"string": "binary", "large_string": "large_binary", "string_view": "binary_view"}


def chunk_values(pa: Any, chunk: Any, first_row: int) -> list[Any]:
    """A pyarrow chunk's rows as Python values, after pyarrow's full validation.

    A text row is read as the per-string API reads text: its bytes through the Encoding
    Standard's UTF-8 decoder (U+FFFD for what is not UTF-8; §8.1.1, which Python's
    ``"replace"`` follows), since a producer may break the Arrow format's promise that
    ``string`` rows are UTF-8.  Offsets or views the format does not allow raise
    :class:`ArrowFormatError` naming the first row that has them, as the C kernels do.
    """
    text = str(chunk.type) in AS_BINARY
    if text:
        try:
            chunk.validate(full=True)  # buffers and UTF-8: the usual column passes here
            return chunk.to_pylist()  # type: ignore[no-any-return]
        except pa.ArrowException:
            pass  # then see which: malformed buffers, or rows that are not UTF-8
    raw = chunk.view(getattr(pa, AS_BINARY[str(chunk.type)])()) if text else chunk
    try:
        raw.validate(full=True)  # offsets, views and their spans (not UTF-8: bytes now)
    except pa.ArrowException as e:
        raise malformed_array_error(first_row + _first_bad_row(pa, raw), str(e)) from None
    if not text:
        return raw.to_pylist()  # type: ignore[no-any-return]
    return [None if v is None else v.decode("utf-8", "replace") for v in raw.to_pylist()]


def _first_bad_row(pa: Any, chunk: Any) -> int:
    """The first valid row whose offsets go backwards or leave the first and last
    offsets, or whose view leaves its buffer (0 when the fault is the whole chunk's)."""
    bufs, off = chunk.buffers(), chunk.offset
    bits = bufs[0].to_pybytes() if bufs[0] is not None and chunk.null_count else None
    rows = (i for i in range(len(chunk))
            if bits is None or bits[(off + i) >> 3] >> ((off + i) & 7) & 1)
    t = chunk.type
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        o = memoryview(bufs[1]).cast("q" if pa.types.is_large_binary(t) else "i")
        lo, hi = o[off], o[off + len(chunk)]
        return next((i for i in rows if not lo <= o[off + i] <= o[off + i + 1] <= hi), 0)
    views = memoryview(bufs[1]).cast("i")  # (length, prefix, buffer, offset) a row
    sizes = [b.size for b in bufs[2:]]

    def bad(i: int) -> bool:
        n, _, k, at = views[4 * (off + i) : 4 * (off + i) + 4]
        return n < 0 or (n > 12 and not (0 <= k < len(sizes) and 0 <= at <= sizes[k] - n))

    return next((i for i in rows if bad(i)), 0)


def _chunk_pure(pa: Any, chunk: Any, bases: Any, parse: Callable[..., url.URL | None],
                fields: Getters | None, large: bool, start: int) -> Any:
    values = chunk_values(pa, chunk, start)
    base_values = chunk_values(pa, bases, start) if bases is not None else [None] * len(values)
    urls = [None if v is None else parse(v, bv, start + i)
            for i, (v, bv) in enumerate(zip(values, base_values, strict=True))]
    if fields is None:
        no_base = bases is not None  # a base column: its null rows are null
        return pa.array([None if v is None or (no_base and bv is None) else u is not None
                         for v, bv, u in zip(values, base_values, urls, strict=True)],
                        pa.bool_())
    names = [_ONE[f] for f in fields]
    columns = [pa.array([None if u is None else getattr(u, n) for u in urls],
                        _string(pa, large)) for n in names]
    if len(fields) == 1:
        return columns[0]
    mask = pa.array([u is None for u in urls], pa.bool_())
    return pa.StructArray.from_arrays(columns, names=names, mask=mask)


def _chunk_c(pa: Any, k: Any, chunk: Any, bases: Any, parse: Callable[..., url.URL | None],
             fields: Getters | None, large: bool, start: int, strict: bool) -> Any:
    # bases: the base column's rows for this chunk, the one base URL, or None
    base_arg = bases.__arrow_c_array__() if hasattr(bases, "__arrow_c_array__") else bases
    result = k(chunk.__arrow_c_array__(), base_arg, fields, parse, large, start, strict)
    if len(result) == 3:  # ("malformed", row, what): the array breaks the Arrow format
        raise malformed_array_error(result[1], result[2])
    n, nulls, validity, out = result
    valid = None if nulls == 0 else pa.py_buffer(validity)
    if fields is None:
        return pa.Array.from_buffers(pa.bool_(), n, [valid, pa.py_buffer(out)], nulls)
    t = _string(pa, large)
    columns = [pa.Array.from_buffers(t, n, [valid, pa.py_buffer(o), pa.py_buffer(d)], nulls)
               for o, d in out]
    if len(fields) == 1:
        return columns[0]
    return pa.StructArray.from_buffers(_struct(pa, large, fields), n, [valid], nulls,
                                       children=columns)


def url_parse(array: object, base: object = None, *, components: Sequence[str] | None = None,
              errors: URLErrors = "null") -> Any:
    """Parse each row as a browser does: a struct column of the URL API's components.

    Row by row :func:`percent_encoding.url.parse` (URL Standard §4.4, the
    getters of §6.1): fields ``href, protocol, username, password, host,
    hostname, port, pathname, search, hash``, all strings, or only the
    ``components`` named (in that order; ``origin`` too), from the same one
    parse of each row.  A row that is not a URL is a null struct
    (``errors="null"``) or raises
    :class:`~percent_encoding.errors.URLParseError` with ``.row``
    (``errors="strict"``); a null row stays null.  ``base`` is ``None``, one
    base URL (a ``str``, parsed once) or a string column of the same length
    (a row whose base is null is null).

    >>> import pyarrow as pa
    >>> col = url_parse(pa.array(["https://EXAMPLE.com:8080/a b?q#f", "not a url", None]))
    >>> col.field("hostname").to_pylist(), col.is_null().to_pylist()
    (['example.com', None, None], [False, True, True])
    >>> url_parse(pa.array(["https://h.example/p?q", "x"]),
    ...           components=["hostname", "pathname"]).to_pylist()
    [{'hostname': 'h.example', 'pathname': '/p'}, None]
    """
    if components is None:
        return _run(array, base, errors, tuple(range(len(COMPONENTS))))
    fields = _fields(components)
    if len(fields) > 1:
        return _run(array, base, errors, fields)
    # one field: url_component's column, with the struct's null rows (not a URL, or null)
    column = _run(array, base, errors, fields)
    pa = _pyarrow()
    return (_one_field_struct(pa, column, fields) if isinstance(column, pa.Array) else
            pa.chunked_array([_one_field_struct(pa, c, fields) for c in column.chunks],
                             type=_struct(pa, column.type == pa.large_string(), fields)))


def _fields(components: object) -> Getters:
    """url_parse's ``components``: the indexes into _ONE (each name once)."""
    if isinstance(components, str) or not isinstance(components, (list, tuple)):
        raise PercentEncodingTypeError(
            f"components must be a list or tuple of str, not {type(components).__name__}")
    fields: list[int] = []
    for name in components:
        field = _field(name, "components: each")
        if field in fields:
            raise PercentEncodingError(f"components: {name!r} is named twice")
        fields.append(field)
    if not fields:
        raise PercentEncodingError("components: name at least one")
    return tuple(fields)


def _one_field_struct(pa: Any, column: Any, fields: Getters) -> Any:
    # a component getter never gives null for a URL (§6.1: an empty string at most), so
    # the column's nulls are exactly the rows without a URL
    return pa.StructArray.from_arrays([column], names=[_ONE[fields[0]]],
                                      mask=column.is_null())


def url_component(array: object, component: str, base: object = None, *,
                  errors: URLErrors = "null") -> Any:
    """One component of each row's URL: a string column (``url_parse``'s field, or ``origin``).

    ``component`` is one of ``href, protocol, username, password, host,
    hostname, port, pathname, search, hash, origin`` (URL Standard §6.1 getters;
    ``origin`` is §4.7 serialized); only that component's strings are built.
    Rows, nulls, ``base`` and ``errors`` as in :func:`url_parse`.

    >>> import pyarrow as pa
    >>> url_component(pa.array(["http://[::1]:80/x", "/rel"]), "host").to_pylist()
    ['[::1]', None]
    >>> url_component(pa.array(["../c?d"]), "href", base="http://h/a/b").to_pylist()
    ['http://h/c?d']
    """
    return _run(array, base, errors, (_field(component, "component"),))


def _field(name: object, what: str) -> int:
    """A component name's index into _ONE (``what`` names the argument in the error)."""
    if not isinstance(name, str):
        raise PercentEncodingTypeError(f"{what} must be a str, not {type(name).__name__}")
    if name not in _ONE:
        raise PercentEncodingError(
            f"unknown URL component {name!r}: expected one of {', '.join(_ONE)}")
    return _ONE.index(name)


def url_can_parse(array: object, base: object = None) -> Any:
    """Whether each row parses as a URL (the URL API's ``canParse``, URL Standard §6.1).

    A bool column; a null row (or a null base in a base column) stays null.
    ``~url_can_parse(col)`` finds the rows :func:`url_parse` makes null.

    >>> import pyarrow as pa
    >>> url_can_parse(pa.array(["https://a.example", "/x", None])).to_pylist()
    [True, False, None]
    """
    return _run(array, base, "null", None)
