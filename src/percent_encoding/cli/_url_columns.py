"""``percent url --column NAME FILE``: add a URL column's components as columns.

Strategy: as ``percent decode --column`` (:mod:`._columns`, whose readers and writer
this reuses), the file is read one record batch at a time; the named column of each
batch goes through :func:`percent_encoding.arrow.url_parse` (the WHATWG URL Standard's
parser, row by row what ``url.parse`` gives), its fields are appended as new columns
(``url_host``, ``url_pathname``, ... for a column ``url``) and the batch is written at
once, so memory is bounded by a batch.  A row that is not a URL gets nulls in the new
columns (``--errors strict`` stops there instead, naming the row); a ``url_ok`` column
(``--can-parse``) says which rows parsed.  On a terminal a progress bar shows the part
of the input read.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from typing import Any

from .. import arrow
from ..errors import URLParseError
from ._columns import (
    BatchProgress,
    check_paths,
    file_format,
    pyarrow,
    read_csv,
    read_parquet,
    write,
)
from ._term import CLIError


def _components(spec: str | None) -> list[str]:
    if spec is None:
        return list(arrow.URL_COMPONENTS)
    names = [n.strip() for n in spec.split(",") if n.strip()]
    allowed = (*arrow.URL_COMPONENTS, "origin")
    for n in names:
        if n not in allowed:
            raise CLIError(f"--components: unknown component {n!r}; choose from "
                           f"{', '.join(allowed)}", 2)
    if not names:
        raise CLIError("--components names no component", 2)
    return names


def cmd_url_columns(args: argparse.Namespace) -> int:
    """Parse column ``args.column`` of the file ``args.url`` into ``args.output``."""
    pa = pyarrow()
    src = args.url
    if src is None:
        raise CLIError("--column needs an input FILE (Parquet or CSV)", 2)
    if args.json:
        raise CLIError("--json does not apply to --column", 2)
    if args.batch_size < 1:
        raise CLIError("--batch-size must be at least 1", 2)
    names = _components(args.components)
    in_fmt = file_format(src, args.format)
    out_fmt = args.output_format or (file_format(args.output, None) if args.output else in_fmt)
    check_paths(src, args.output, out_fmt)
    base: str | None = args.base
    if base is not None:
        try:
            arrow.url_can_parse(pa.array([], pa.string()), base)
        except URLParseError as e:
            raise CLIError(f"--base: {e}", 2) from None
    if in_fmt == "parquet":
        schema, batches = read_parquet(pa, src, [], args.batch_size)
    else:
        schema, batches = read_csv(pa, src, [], args.batch_size)
    column = args.column
    idx = schema.get_all_field_indices(column)
    if len(idx) != 1:
        have = ", ".join(repr(n) for n in schema.names) or "none"
        raise CLIError(f"{src} has no single column {column!r}; its columns: {have}", 2)
    prefix = column + "_" if args.prefix is None else args.prefix
    new = [prefix + n for n in names] + ([prefix + "ok"] if args.can_parse else [])
    clash = [n for n in new if n in schema.names]
    if clash:
        raise CLIError(f"{src} already has a column {clash[0]!r}; give another --prefix", 2)
    large = pa.types.is_large_string(schema.field(idx[0]).type)
    text = pa.large_string() if large else pa.string()
    out_schema = schema
    for n in new:
        out_schema = out_schema.append(pa.field(n, pa.bool_() if n == prefix + "ok" else text))
    progress = BatchProgress(pa, src, in_fmt, args.output)

    def converted() -> Iterator[Any]:
        start = 0
        for batch in batches:
            col = _as_string(pa, batch.column(idx[0]), column, start)
            try:
                if len(names) == 1:
                    parts = [arrow.url_component(col, names[0], base, errors=args.errors)]
                else:
                    parsed = arrow.url_parse(col, base, errors=args.errors)
                    parts = [_field(pa, parsed, n, col, base) for n in names]
            except URLParseError as e:
                msg = str(e).split(": ", 1)[1] if str(e).startswith("row ") else str(e)
                row = start + (e.row or 0)
                raise CLIError(f"column {column!r}, row {row} (counting from 0): {msg}",
                               1) from None
            if args.can_parse:
                parts.append(arrow.url_can_parse(col, base))
            cols = list(batch.columns) + [p.cast(t) if p.type != t else p for p, t in
                                          zip(parts, out_schema.types[len(batch.columns):],
                                              strict=True)]
            yield pa.RecordBatch.from_arrays(cols, schema=out_schema)
            start += batch.num_rows
            progress.batch_done(start, batch)

    try:
        write(pa, out_fmt, args.output, out_schema, converted(), src)
    finally:
        progress.finish()
    return 0


def _as_string(pa: Any, col: Any, name: str, start: int) -> Any:
    """The batch's URL column as a string column (dictionaries decoded, binary checked)."""
    t = col.type
    if pa.types.is_dictionary(t):
        col, t = col.dictionary_decode(), t.value_type
    if pa.types.is_string(t) or pa.types.is_large_string(t) or str(t) == "string_view":
        return col
    if pa.types.is_binary(t) or pa.types.is_large_binary(t):
        try:
            return col.cast(pa.large_string() if pa.types.is_large_binary(t) else pa.string())
        except pa.ArrowInvalid as e:
            raise CLIError(f"column {name!r} (rows from {start}) is not UTF-8: {e}", 1) from None
    raise CLIError(f"column {name!r} is {t}, not a string column of URLs", 2)


def _field(pa: Any, parsed: Any, name: str, col: Any, base: str | None) -> Any:
    """One new column from the parsed struct (``origin`` is not in it: parsed on its own)."""
    if name == "origin":
        return arrow.url_component(col, "origin", base)
    child = parsed.field(name)
    # a struct's child ignores the struct's validity: give it back the null rows
    if parsed.null_count and child.null_count != parsed.null_count:
        child = pa.compute.if_else(parsed.is_null(), pa.scalar(None, child.type), child)
    return child


def check_column_args(args: argparse.Namespace) -> None:
    """Usage errors for the column options given without --column."""
    for flag in ("output", "format", "output_format", "components", "prefix"):
        if getattr(args, flag, None) is not None:
            raise CLIError(f"--{flag.replace('_', '-')} applies only with --column", 2)
    if args.can_parse or args.errors != "null":
        raise CLIError("--can-parse and --errors apply only with --column", 2)

