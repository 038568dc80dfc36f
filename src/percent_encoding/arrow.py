"""Percent-decode and encode whole Arrow columns: the batch API.

Every function takes one column: any object exporting the Arrow PyCapsule
interface (``__arrow_c_array__`` or ``__arrow_c_stream__``: a pyarrow
``Array`` or ``ChunkedArray``, a Polars ``Series``, a nanoarrow array, a
DuckDB Arrow result) whose type is ``string``, ``large_string``,
``string_view``, ``binary`` or ``large_binary``.  Slices and validity bitmaps
are honoured and nulls stay null.  Each row's result is exactly what the
per-string function gives for that row (:func:`percent_encoding.decode_text`,
:func:`~percent_encoding.decode`, :func:`~percent_encoding.encode`,
:func:`percent_encoding.form.parse`).

What comes back
---------------
* A column with ``__arrow_c_array__`` in gives a ``pyarrow.Array``; one with
  only ``__arrow_c_stream__`` (a ``ChunkedArray``, a Polars ``Series``) gives
  a ``pyarrow.ChunkedArray`` with one result chunk per input chunk.
* Result types: ``string`` (``large_string`` when the input has 64-bit
  offsets: ``large_string``/``large_binary``); :func:`decode` gives
  ``binary`` (``large_binary``); :func:`form_parse` gives
  ``list<struct<name: string, value: string>>``.
* Without pyarrow installed, the C kernels return a small ``ArrowColumn``
  object that exports ``__arrow_c_array__`` / ``__arrow_c_stream__`` /
  ``__arrow_c_schema__``, so Polars (``pl.Series(result)``), nanoarrow or
  DuckDB import it without a copy.  :func:`form_parse` (a nested result)
  always needs pyarrow.

URL columns: :func:`url_parse`, :func:`url_component` and :func:`url_can_parse`
(in :mod:`.url._columns`) run the WHATWG URL parser on each row of a ``string``,
``large_string`` or ``string_view`` column, against an optional base (one URL
or a column of them); each row is :func:`percent_encoding.url.parse` of it.
They need pyarrow for their results in both twins.

Two twins, as everywhere in the library: the C kernels read the Arrow buffers
directly with the GIL released (UTF-8 is the fast path; a legacy ``encoding``
runs the per-string codec row by row); long columns are split across
``set_threads(n)`` threads (default 1).  The pure-Python twin calls the
per-string API row by row and is the reference in the tests.  The pure twin needs pyarrow
to read and build columns (the Arrow C Data Interface's release callbacks
cannot be owned safely from pure Python); the C twin needs nothing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any, TypeVar

from . import _args, _kernels, core, form, sets
from .errors import PercentEncodingTypeError, TextDecodeError
from .url._for_siblings import COMPONENTS as _URL_COMPONENTS
from .url._for_siblings import (
    check_chunk,
    chunk_values,
    malformed_array_error,
    url_can_parse,
    url_component,
    url_parse,
)

__all__ = [
    "URL_COMPONENTS",
    "decode",
    "decode_text",
    "encode",
    "form_get",
    "form_parse",
    "set_threads",
    "url_can_parse",
    "url_component",
    "url_parse",
]

#: The fields of :func:`url_parse`'s struct, in order (each a URL getter's name,
#: URL Standard §6.1): what :func:`url_component` also takes, with ``"origin"``.
URL_COMPONENTS = _URL_COMPONENTS

_TEXT_FORMATS = {"u": "string", "U": "large_string", "vu": "string_view"}
_BINARY_FORMATS = {"z": "binary", "Z": "large_binary", "vz": "binary_view"}

ArrowErrors = _args.ArrowErrors

# Set by _with_views (the Polars adapter): string and binary results come
# back as string_view / binary_view (Polars' own layout, so Polars takes them
# without converting); 64-bit input keeps its large types.  A context
# variable, so a call in another thread or task is not affected.
_VIEWS: ContextVar[bool] = ContextVar("percent_encoding.arrow._VIEWS", default=False)
_T = TypeVar("_T")


def _with_views(f: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
    """``f(*args, **kwargs)`` with view-typed string and binary results."""
    token = _VIEWS.set(True)
    try:
        return f(*args, **kwargs)
    finally:
        _VIEWS.reset(token)


def _pyarrow() -> Any:
    try:
        import pyarrow
    except ImportError:
        raise ImportError(
            "percent_encoding.arrow without the C extension needs pyarrow "
            "(pip install 'percent-encoding[arrow]')"
        ) from None
    return pyarrow


def _columns(array: object) -> tuple[bool, list[Any]]:
    """(was it a stream, its chunks as pyarrow arrays): the pure twin's reader."""
    _kernels.warn_if_fallback()  # loud when the C twin was expected but did not load
    if not hasattr(array, "__arrow_c_array__") and not hasattr(array, "__arrow_c_stream__"):
        raise PercentEncodingTypeError(
            "expected an Arrow array (an object with __arrow_c_array__ or "
            f"__arrow_c_stream__), not {type(array).__name__}"
        )
    pa = _pyarrow()
    if isinstance(array, pa.Array):
        return False, [array]
    if isinstance(array, pa.ChunkedArray):
        return True, list(array.chunks)
    if hasattr(array, "__arrow_c_array__"):
        return False, [pa.array(array)]
    if hasattr(array, "__arrow_c_stream__"):
        return True, list(pa.chunked_array(array).chunks)
    raise PercentEncodingTypeError(
        "expected an Arrow array (an object with __arrow_c_array__ or __arrow_c_stream__), "
        f"not {type(array).__name__}"
    )


def _is_large(pa: Any, t: Any) -> bool:
    return bool(pa.types.is_large_string(t) or pa.types.is_large_binary(t))


def _check_type(pa: Any, t: Any) -> None:
    ok = (
        pa.types.is_string(t)
        or pa.types.is_large_string(t)
        or pa.types.is_binary(t)
        or pa.types.is_large_binary(t)
        or getattr(pa.types, "is_string_view", lambda _t: False)(t)
        or getattr(pa.types, "is_binary_view", lambda _t: False)(t)
    )
    if not ok:
        raise PercentEncodingTypeError(
            f"expected a string or binary Arrow column, not {t}"
        )


def _map_pure(
    array: object,
    row: Callable[[Any, int], Any],
    out_type: Callable[[Any, bool], Any],
) -> Any:
    pa = _pyarrow()
    stream, chunks = _columns(array)
    results = []
    base = 0
    for chunk in chunks:
        _check_type(pa, chunk.type)
        check_chunk(pa, chunk, base)
        values = chunk_values(pa, chunk, base)
        out = [None if v is None else row(v, base + i) for i, v in enumerate(values)]
        results.append(pa.array(out, type=out_type(pa, _is_large(pa, chunk.type))))
        base += len(values)
    views = _VIEWS.get() and out_type in (_string_type, _binary_type)
    if views:
        results = [_as_views(pa, r) for r in results]
    if stream:
        if not results:
            empty = pa.array([], type=out_type(pa, False))
            return pa.chunked_array([], type=(_as_views(pa, empty) if views else empty).type)
        return pa.chunked_array(results)
    return results[0]


def _as_views(pa: Any, result: Any) -> Any:
    """string -> string_view, binary -> binary_view (what the C kernels write)."""
    t = result.type
    if pa.types.is_string(t) and hasattr(pa, "string_view"):
        return result.cast(pa.string_view())
    if pa.types.is_binary(t) and hasattr(pa, "binary_view"):
        return result.cast(pa.binary_view())
    return result


def _string_type(pa: Any, large: bool) -> Any:
    return pa.large_string() if large else pa.string()


def _binary_type(pa: Any, large: bool) -> Any:
    return pa.large_binary() if large else pa.binary()


def _pairs_type(pa: Any, large: bool) -> Any:
    return pa.list_(pa.struct([("name", pa.string()), ("value", pa.string())]))


def _check_bool(value: object, name: str) -> None:
    _args.check_bool(name, value)


def _check_encoding(encoding: object) -> str:
    _args.check_label("encoding", encoding)
    assert isinstance(encoding, str)
    if encoding not in _args.UTF8_LABELS:
        from .encodings import lookup

        lookup(encoding)  # UnknownEncodingError for a label the Standard lacks
    return encoding


def _row_error(e: TextDecodeError, index: int) -> TextDecodeError:
    err = TextDecodeError(f"row {index}: {e} (byte offset {e.position})", e.position)
    err.row = index  # type: ignore[attr-defined]
    return err


def _c_kernel() -> Any:
    return core.arrow_map_kernel


def _run_c(k: Any, array: object, op: str, arg: object, plus: bool, errors: str) -> Any:
    """The C kernel's column, as pyarrow when pyarrow is installed (see the module doc)."""
    stream = not hasattr(array, "__arrow_c_array__")
    _check_pyarrow_sizes(array)
    try:
        result = k(array, op, arg, plus, errors, _VIEWS.get())
    except TypeError as e:
        raise PercentEncodingTypeError(str(e)) from None
    if type(result) is tuple:
        if len(result) == 3:  # ("malformed", row, what): the array breaks the Arrow format
            raise malformed_array_error(result[1], result[2])
        return result  # a strict decode stopped at this row: (row, value)
    try:
        import pyarrow as pa
    except ImportError:
        return result
    return pa.chunked_array(result) if stream else pa.array(result)


def _check_pyarrow_sizes(array: object) -> None:
    """A pyarrow column's buffer sizes, which the C Data Interface does not pass on,
    checked before the kernel reads it (check_chunk)."""
    pa = sys.modules.get("pyarrow")
    if pa is None:
        return  # not a pyarrow object: what the capsule says is all there is
    if isinstance(array, pa.Array):
        check_chunk(pa, array, 0, memory=False)  # (the kernel checks the memory itself)
    elif isinstance(array, pa.ChunkedArray):
        base = 0
        for chunk in array.chunks:
            check_chunk(pa, chunk, base, memory=False)
            base += len(chunk)


def _strict_failure(row: int, value: Any, encoding: str, plus_as_space: bool) -> TextDecodeError:
    try:
        core.decode_text(value, encoding=encoding, plus_as_space=plus_as_space, errors="strict")
    except TextDecodeError as e:
        return _row_error(e, row)
    raise AssertionError(f"row {row} decodes strictly in the per-string API")  # pragma: no cover


def decode_text(
    array: object,
    *,
    encoding: str = "utf-8",
    plus_as_space: bool = False,
    errors: ArrowErrors = "replace",
) -> Any:
    """Percent-decode each row of a column, then decode the bytes as text.

    Row by row exactly :func:`percent_encoding.decode_text` (URL Standard §1.3
    *percent-decode*, then the Encoding Standard's decoder for ``encoding``).
    ``errors="replace"`` gives U+FFFD for bytes that are not valid in the
    encoding, ``"null"`` makes such a row null, ``"fatal"`` (or its synonym
    ``"strict"``) raises :class:`TextDecodeError` naming the row index and
    the byte offset.

    >>> import pyarrow as pa
    >>> decode_text(pa.array(["caf%C3%A9", None, "%FF"])).to_pylist()
    ['café', None, '\\ufffd']
    """
    _check_bool(plus_as_space, "plus_as_space")
    _check_encoding(encoding)
    # the kernels' word for fatal is "strict"
    mode = _args.check_errors(errors, _args.ARROW_ERRORS)
    errors = "strict" if mode == "fatal" else mode  # type: ignore[assignment]
    if errors == "replace":
        def row(v: Any, i: int) -> Any:
            return core.decode_text(v, encoding=encoding, plus_as_space=plus_as_space)
    else:
        def row(v: Any, i: int) -> Any:
            try:
                return core.decode_text(
                    v, encoding=encoding, plus_as_space=plus_as_space, errors="strict"
                )
            except TextDecodeError as e:
                if errors == "null":
                    return None
                raise _row_error(e, i) from None

    k = _c_kernel()
    if k is not None:
        if encoding in _args.UTF8_LABELS:
            op, table = "decode_text", None
        else:
            op, table = _legacy_table(encoding)
        if op != "call_text":
            r = _run_c(k, array, op, table, plus_as_space, errors)
            if type(r) is tuple:
                raise _strict_failure(r[0], r[1], encoding, plus_as_space)
            return r
        return _run_c(k, array, "call_text", row, False, "replace")  # per-string codec
    return _map_pure(array, row, _string_type)


# Encoding Standard §9: the single-byte encodings (and x-user-defined, §14.3,
# which decodes the same way): the C kernels decode them from a table.
_SINGLE_BYTE = frozenset([
    "IBM866", "ISO-8859-2", "ISO-8859-3", "ISO-8859-4", "ISO-8859-5", "ISO-8859-6",
    "ISO-8859-7", "ISO-8859-8", "ISO-8859-8-I", "ISO-8859-10", "ISO-8859-13", "ISO-8859-14",
    "ISO-8859-15", "ISO-8859-16", "KOI8-R", "KOI8-U", "macintosh", "windows-874",
    "windows-1250", "windows-1251", "windows-1252", "windows-1253", "windows-1254",
    "windows-1255", "windows-1256", "windows-1257", "windows-1258", "x-mac-cyrillic",
    "x-user-defined",
])
_NO_CODE_POINT = 0xFFFFFFFF
_LEGACY_TABLES: dict[str, tuple[str, bytes | None]] = {}


def _legacy_table(label: str) -> tuple[str, bytes | None]:
    """(the C kernels' op, its code point table) for an encoding's decoder.

    ("call_text", None) for an encoding the kernels have no table for: then
    the per-string codec runs row by row.
    """
    from .encodings import lookup

    name = lookup(label).name
    got = _LEGACY_TABLES.get(name)
    if got is None:
        from array import array

        from . import encodings

        if name in _SINGLE_BYTE:
            enc = encodings.lookup(name)
            # §9.1: bytes 0x80-0xFF through the encoding's index (U+FFFD: none)
            high = [ord(enc.decode(bytes([b]))) for b in range(0x80, 0x100)]
            codes = array("I", [_NO_CODE_POINT if c == 0xFFFD else c for c in high])
            got = ("decode_sb", codes.tobytes())
        elif name == "Shift_JIS":
            jis = encodings.index("jis0208")  # §12.3.1 reads it by pointer
            codes = array("I", [_NO_CODE_POINT if c is None else c for c in jis])
            got = ("decode_sjis", codes.tobytes())
        else:
            got = ("call_text", None)
        _LEGACY_TABLES[name] = got
    return got


def decode(array: object, *, plus_as_space: bool = False) -> Any:
    """Percent-decode each row of a column to bytes (URL Standard §1.3 *percent-decode*).

    Row by row exactly :func:`percent_encoding.decode`; the result is a
    ``binary`` column.

    >>> import pyarrow as pa
    >>> decode(pa.array(["a%20b", "%zz", None])).to_pylist()
    [b'a b', b'%zz', None]
    """
    _check_bool(plus_as_space, "plus_as_space")
    k = _c_kernel()
    if k is not None:
        return _run_c(k, array, "decode", None, plus_as_space, "replace")
    return _map_pure(
        array, lambda v, i: core.decode(v, plus_as_space=plus_as_space), _binary_type
    )


def encode(
    array: object,
    encode_set: str = "component",
    *,
    encoding: str = "utf-8",
    space_as_plus: bool = False,
) -> Any:
    """Percent-encode each row of a column (URL Standard §1.3 *percent-encode after encoding*).

    Row by row exactly :func:`percent_encoding.encode` with ``encode_set``
    (a registered set name or an :class:`~percent_encoding.EncodeSet`) and
    ``encoding`` (a WHATWG label: a text row is encoded in it first, a
    character it lacks becoming ``%26%23N%3B``, ``&#N;``; a ``binary`` row's
    bytes are encoded as they are).

    >>> import pyarrow as pa
    >>> encode(pa.array(["a b/c", None]), "path").to_pylist()
    ['a%20b/c', None]
    >>> encode(pa.array(["café €", "日"]), encoding="windows-1252").to_pylist()
    ['caf%E9%20%80', '%26%2326085%3B']
    """
    _check_bool(space_as_plus, "space_as_plus")
    table = sets.resolve(encode_set).table  # an unknown name raises before any row
    encoding = _check_encoding(encoding)  # a wrong type or label raises before any row
    legacy = False
    if encoding not in _args.UTF8_LABELS:
        from .encodings import is_utf8

        legacy = not is_utf8(encoding, output=True)
    k = _c_kernel()
    if k is not None and not legacy:
        return _run_c(k, array, "encode", table, space_as_plus, "replace")
    if k is not None:
        from .encodings import lookup

        codes = _encoder_map(lookup(encoding).output_encoding.name)
        if codes is not None:
            return _run_c(k, array, "encode_map", table + codes, space_as_plus, "replace")
    kwargs: dict[str, Any] = {"space_as_plus": space_as_plus}
    if legacy:
        kwargs["encoding"] = encoding

    def row(v: Any, i: int) -> Any:
        return core.encode(v, encode_set, **kwargs)

    if k is not None:
        return _run_c(k, array, "call_text", row, False, "replace")
    return _map_pure(array, row, _string_type)


_ENCODER_MAPS: dict[str, bytes] = {}


def _sjis_bytes(pointer: int) -> int:
    # Encoding Standard §12.3.2 steps 9-10: a pointer's two bytes
    lead, trail = divmod(pointer, 188)
    return (lead + (0x81 if lead < 0x1F else 0xC1)) << 8 | trail + (0x40 if trail < 0x3F else 0x41)


def _encoder_map(name: str) -> bytes | None:
    """The C kernels' encoder for ``name``: per BMP code point its bytes, else None.

    Two bytes a code point (native order): 0 when the encoding has none (or
    for ASCII, which goes through the set's table), below 0x100 one byte,
    else two.  Single-byte encoders (§9.2): 0x80 plus the code point's first
    pointer in the index; Shift_JIS (§12.3.2) from index jis0208.
    """
    got = _ENCODER_MAPS.get(name)
    if got is not None:
        return got
    from array import array

    m = array("H", bytes(2 * 65536))
    if name in _SINGLE_BYTE:
        _, table = _legacy_table(name)
        assert table is not None
        codes = array("I")
        codes.frombytes(table)
        for b in range(127, -1, -1):  # the first pointer wins
            if codes[b] < 0x10000:
                m[codes[b]] = 0x80 + b
    elif name == "Shift_JIS":
        from . import encodings

        jis = encodings.index("jis0208")
        for ptr in range(len(jis) - 1, -1, -1):  # index Shift_JIS pointer: the first,
            cp = jis[ptr]
            if cp is not None and cp < 0x10000 and not 8272 <= ptr <= 8835:  # not 8272-8835
                m[cp] = _sjis_bytes(ptr)
        m[0x80], m[0xA5], m[0x203E] = 0x80, 0x5C, 0x7E  # steps 2-5 come before the index
        for cp in range(0xFF61, 0xFFA0):
            m[cp] = cp - 0xFF61 + 0xA1
        m[0x2212] = m[0xFF0D]  # step 6
    else:
        return None
    for cp in range(0x80):
        m[cp] = 0
    got = _ENCODER_MAPS[name] = m.tobytes()
    return got


def _parse_row(v: Any, encoding: str) -> list[tuple[str, str]]:
    # Both column readers skip one leading "?", so a column of search strings works.
    return form.parse(v, encoding=encoding, strip_leading_question_mark=True)


def form_get(array: object, name: str, *, encoding: str = "utf-8") -> Any:
    """The first value of field ``name`` in each row's query or form body, null when absent.

    Each row is read as :func:`percent_encoding.form.parse` reads it (URL
    Standard §5.1 *application/x-www-form-urlencoded parser*), after one
    leading ``?`` is skipped.

    >>> import pyarrow as pa
    >>> form_get(pa.array(["?utm_source=news+letter&x=1", "x=2", None]), "utm_source").to_pylist()
    ['news letter', None, None]
    """
    _args.check_str("name", name)
    _check_encoding(encoding)

    def row(v: Any, i: int) -> Any:
        for n, value in _parse_row(v, encoding):
            if n == name:
                return value
        return None

    k = _c_kernel()
    if k is not None:
        if encoding in _args.UTF8_LABELS and _utf8_encodable(name):
            return _run_c(k, array, "form_get", name, False, "replace")
        return _run_c(k, array, "call_text", row, False, "replace")
    return _map_pure(array, row, _string_type)


def _utf8_encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate never equals a decoded name
        return False
    return True


def form_parse(array: object, *, encoding: str = "utf-8") -> Any:
    """Parse each row as a form: a ``list<struct<name: string, value: string>>`` column.

    Each row is :func:`percent_encoding.form.parse` of it (URL Standard §5.1),
    after one leading ``?`` is skipped; a null row stays null.

    >>> import pyarrow as pa
    >>> form_parse(pa.array(["?a=1&b", None])).to_pylist()
    [[{'name': 'a', 'value': '1'}, {'name': 'b', 'value': ''}], None]
    """
    _check_encoding(encoding)
    return _map_pure(
        array,
        lambda v, i: [{"name": n, "value": val} for n, val in _parse_row(v, encoding)],
        _pairs_type,
    )



def set_threads(n: int) -> int:
    """Use up to ``n`` threads (1-8) for long columns in the C kernels; returns the old value.

    Rows are split into ``n`` ranges decoded at once with the GIL released;
    the result is byte for byte the one-thread result.  With two, the first
    range is written back to front so that it ends where the second begins,
    and no row is moved afterwards; with more, each range's output is moved
    into place after every million rows.  The pure twin ignores it.

    >>> old = set_threads(2)
    >>> set_threads(old)
    2
    """
    if type(n) is not int:
        raise PercentEncodingTypeError(f"set_threads() takes an int, not {type(n).__name__}")
    global _threads
    old, _threads = _threads, max(1, min(8, n))
    core.set_arrow_threads(_threads)
    return old


_threads = 1
