"""``percent decode --column NAME FILE``: decode columns of a Parquet or CSV file.

Strategy: the file is read one record batch at a time (``ParquetFile.iter_batches``,
``pyarrow.csv.open_csv``), the named columns of each batch go through
:func:`percent_encoding.arrow.decode_text` (or :func:`~percent_encoding.arrow.decode`
with ``--bytes``), every other column is passed through untouched, and the batch is
written at once (``ParquetWriter`` / ``pyarrow.csv.CSVWriter``), so memory is bounded by
a batch (and, for Parquet, the row group being read), never by the file.  A file output
is written beside its target and renamed into place when complete: a failure leaves no
half-written file.

Errors: no pyarrow, an unknown column (the message lists the file's columns), a column
that is neither string nor binary, or options that do not apply to columns are usage
errors (exit status 2); a row that fails ``--strict`` / ``--errors strict`` is a data
error (exit status 1) naming the column and the row index (counted from 0 across the
whole file).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
from collections.abc import Callable, Iterator
from typing import Any

from .. import arrow, core
from .._tool import check_encoding, plain_profile, resolve_scheme, utf8_output
from ..errors import PercentDecodeError, TextDecodeError
from ._term import CLIError, Progress

_FORMATS = {".parquet": "parquet", ".parq": "parquet", ".pq": "parquet", ".csv": "csv",
            ".tsv": "csv"}
_COMPRESSED = (".gz", ".bz2", ".zst", ".lz4")

# A '%' not followed by two hex digits: what decode(strict=True) rejects (URL Standard
# §1.3 keeps such a '%' as it is).  Matched on the bytes (RE2 in Latin-1 mode for binary
# columns), so rows that are not UTF-8 are searched too.
_BAD_PERCENT = r"%([^0-9A-Fa-f]|[0-9A-Fa-f][^0-9A-Fa-f]|[0-9A-Fa-f]?$)"


def pyarrow() -> Any:
    try:
        import pyarrow
        import pyarrow.csv
        import pyarrow.parquet
    except ImportError:
        raise CLIError("--column needs pyarrow to read and write Parquet and CSV files "
                       "(pip install 'percent-encoding[arrow]')", 2) from None
    return pyarrow


def file_format(path: str, given: str | None) -> str:
    """``parquet`` or ``csv``: ``given``, else from the file name's extension."""
    if given:
        return given
    name = path.lower()
    for c in _COMPRESSED:
        if name.endswith(c):
            name = name[: -len(c)]
    fmt = _FORMATS.get(os.path.splitext(name)[1])
    if fmt is None:
        raise CLIError(f"cannot tell the format of {path!r} from its extension; "
                       "give --format parquet or --format csv", 2)
    return fmt


def _check_args(args: argparse.Namespace) -> tuple[bool, str]:
    """(plus_as_space, errors) for the column kernels; usage errors for what does not apply."""
    for flag, on in (("--all", args.all), ("--raw", args.raw), ("--per-line", args.per_line)):
        if on:
            raise CLIError(f"{flag} does not apply to --column (columns have no line "
                           "structure: %0A and %0D are decoded, and CSV output quotes them)",
                           2)
    if args.encoding == "auto":
        raise CLIError("--encoding auto does not apply to --column; give the label", 2)
    prof = plain_profile(resolve_scheme(args.scheme))
    if prof is None:
        raise CLIError(f"--column needs a plain percent-encoding scheme; {args.scheme!r} "
                       "has its own rules (try --scheme component or --scheme form)", 2)
    errors = args.errors or ("strict" if args.strict else "replace")
    if args.strict and errors != "strict":
        raise CLIError(f"--strict and --errors {errors} do not go together", 2)
    if args.bytes and errors != "replace" and not args.strict:
        raise CLIError("--errors applies to text; with --bytes there is no charset to fail", 2)
    if args.text is None:
        raise CLIError("--column needs an input FILE (Parquet or CSV)", 2)
    if args.threads is not None and not 1 <= args.threads <= 8:
        raise CLIError("--threads takes 1 to 8", 2)
    if args.batch_size < 1:
        raise CLIError("--batch-size must be at least 1", 2)
    return prof[1], errors


def check_paths(src: str, output: str | None, out_fmt: str) -> None:
    """The input exists, the output is not the input, and only CSV goes to stdout."""
    if output is None and out_fmt != "csv":
        raise CLIError("Parquet output needs -o OUT (only CSV can go to standard output; "
                       "--output-format csv)", 2)
    if not os.path.exists(src):
        raise CLIError(f"{src}: no such file", 1)
    if output and os.path.exists(output) and os.path.samefile(src, output):
        raise CLIError("-o names the input file; write to another file", 2)


def cmd_decode_columns(args: argparse.Namespace) -> int:
    """Decode ``args.column`` of the file ``args.text`` into ``args.output`` (or stdout)."""
    plus, errors = _check_args(args)
    check_encoding(args.encoding)
    pa = pyarrow()
    src = args.text
    in_fmt = file_format(src, args.format)
    out_fmt = args.output_format or (file_format(args.output, None) if args.output and
                                     _has_known_ext(args.output) else in_fmt)
    check_paths(src, args.output, out_fmt)
    old_threads = arrow.set_threads(args.threads) if args.threads is not None else None
    try:
        return _run(pa, args, src, in_fmt, out_fmt, plus, errors)
    finally:
        if old_threads is not None:
            arrow.set_threads(old_threads)


def _run(pa: Any, args: argparse.Namespace, src: str, in_fmt: str, out_fmt: str, plus: bool,
         errors: str) -> int:
    schema, batches = (read_parquet if in_fmt == "parquet" else read_csv)(
        pa, src, args.column, args.batch_size)
    targets = _targets(pa, schema, args.column, src)
    decode = _decoder(pa, args, plus, errors)
    out_schema = _out_schema(pa, schema, targets, args.bytes, errors)

    progress = BatchProgress(pa, src, in_fmt, args.output)

    def converted() -> Iterator[Any]:
        base = 0
        for batch in batches:
            cols = list(batch.columns)
            for i in targets:
                name = schema.field(i).name
                cols[i] = _cast(decode(cols[i], name, base), out_schema.field(i).type)
            yield pa.RecordBatch.from_arrays(cols, schema=out_schema)
            base += batch.num_rows
            progress.batch_done(base, batch)

    try:
        write(pa, out_fmt, args.output, out_schema, converted(), src)
    finally:
        progress.finish()
    return 0


class BatchProgress:
    """The progress bar of a file read batch by batch (``decode --column``, ``url --column``).

    On stderr, only when stderr is a terminal and the output is not (a file ``-o OUT``,
    or CSV piped on), and only once the input has taken a while (:class:`Progress`).
    The part read is counted by rows for Parquet (its footer holds the row count), and
    by each batch's own size for CSV.
    """

    def __init__(self, pa: Any, src: str, fmt: str, output: str | None) -> None:
        self.total = os.path.getsize(src)
        self.rows_total = _row_count(pa, src, fmt)
        enabled = sys.stderr.isatty() and (output is not None or not sys.stdout.isatty())
        self.bar = Progress(self.total, enabled)

    def batch_done(self, rows_done: int, batch: Any) -> None:
        """After a batch: ``rows_done`` rows of the file, ``batch`` the last of them."""
        bar = self.bar
        bar.update(self.total * rows_done // self.rows_total - bar.done if self.rows_total
                   else batch.nbytes)

    def finish(self) -> None:
        self.bar.finish()


def _row_count(pa: Any, src: str, fmt: str) -> int | None:
    if fmt != "parquet":
        return None
    import pyarrow.parquet as pq

    try:
        return int(pq.ParquetFile(src).metadata.num_rows)
    except (pa.ArrowException, OSError):
        return None


def _has_known_ext(path: str) -> bool:
    try:
        file_format(path, None)
    except CLIError:
        return False
    return True


def _arrow_error(pa: Any, path: str, e: Exception) -> CLIError:
    return CLIError(f"{path}: cannot read it: {' '.join(str(e).split())}", 1)


def read_parquet(pa: Any, path: str, names: list[str], batch_size: int) -> tuple[Any, Any]:
    import pyarrow.parquet as pq

    try:
        # pre_buffer=False: the default reads ahead whole column chunks (~100 MB live
        # for a 200 MB column); without it the reader holds about one row group.
        f = pq.ParquetFile(path, pre_buffer=False)
        schema = f.schema_arrow
    except (pa.ArrowException, OSError) as e:
        raise _arrow_error(pa, path, e) from None

    def batches() -> Iterator[Any]:
        try:
            yield from f.iter_batches(batch_size=batch_size)
        except (pa.ArrowException, OSError) as e:
            raise _arrow_error(pa, path, e) from None

    return schema, batches()


def read_csv(pa: Any, path: str, names: list[str], batch_size: int) -> tuple[Any, Any]:
    import pyarrow.csv as pacsv

    # The named columns are read as binary, so their bytes reach the decoder even when
    # they are not UTF-8; the others as unchecked strings, so they go out as they came
    # (no type inference rewriting "007" as 7).  Empty fields stay "" (not null).
    parse = pacsv.ParseOptions(delimiter=_delimiter(path))
    # The reader's unit is bytes, and it keeps many blocks in flight (about 36 MB live
    # with 1 MiB blocks, 120 MB with 8 MiB): 16 bytes per batch row, 1 MiB by default.
    read = pacsv.ReadOptions(block_size=max(1 << 16, min(batch_size * 16, 1 << 26)))
    try:
        with pacsv.open_csv(_in(pa, path), read_options=read, parse_options=parse) as probe:
            header = probe.schema.names
        convert = pacsv.ConvertOptions(
            column_types={n: pa.binary() if n in names else pa.string() for n in header},
            check_utf8=False)
        reader = pacsv.open_csv(_in(pa, path), read_options=read, parse_options=parse,
                                convert_options=convert)
    except (pa.ArrowException, OSError) as e:
        raise _arrow_error(pa, path, e) from None

    def batches() -> Iterator[Any]:
        with reader:
            while True:
                try:
                    batch = reader.read_next_batch()
                except StopIteration:
                    return
                except (pa.ArrowException, OSError) as e:
                    raise _arrow_error(pa, path, e) from None
                yield batch

    return reader.schema, batches()


def _delimiter(path: str) -> str:
    name = path.lower()
    for c in _COMPRESSED:
        if name.endswith(c):
            name = name[: -len(c)]
    return "\t" if name.endswith(".tsv") else ","


def _in(pa: Any, path: str) -> Any:
    return pa.input_stream(path, compression="detect")


def _targets(pa: Any, schema: Any, names: list[str], path: str) -> list[int]:
    out: list[int] = []
    for name in names:
        idx = schema.get_all_field_indices(name)
        if not idx:
            have = ", ".join(repr(n) for n in schema.names) or "none"
            raise CLIError(f"{path} has no column {name!r}; its columns: {have}", 2)
        if len(idx) > 1:
            raise CLIError(f"{path} has {len(idx)} columns named {name!r}; cannot tell which",
                           2)
        t = schema.field(idx[0]).type
        if pa.types.is_dictionary(t) and _texty(pa, t.value_type):
            t = t.value_type  # decoded as its values (a Parquet file written from categories)
        if not _texty(pa, t):
            raise CLIError(f"column {name!r} of {path} is {t}, not a string or binary column; "
                           "only text can be percent-decoded", 2)
        if idx[0] not in out:
            out.append(idx[0])
    return out


def _texty(pa: Any, t: Any) -> bool:
    ty = pa.types
    return bool(ty.is_string(t) or ty.is_large_string(t) or ty.is_binary(t)
                or ty.is_large_binary(t) or getattr(ty, "is_string_view", lambda _t: False)(t)
                or getattr(ty, "is_binary_view", lambda _t: False)(t))


def _out_schema(pa: Any, schema: Any, targets: list[int], raw: bool, errors: str) -> Any:
    for i in targets:
        f = schema.field(i)
        vt = f.type.value_type if pa.types.is_dictionary(f.type) else f.type
        large = pa.types.is_large_string(vt) or pa.types.is_large_binary(vt)
        if raw:
            t = pa.large_binary() if large else pa.binary()
        else:
            t = pa.large_string() if large else pa.string()
        nullable = f.nullable or errors == "null"
        schema = schema.set(i, pa.field(f.name, t, nullable, f.metadata))
    return schema


def _cast(col: Any, t: Any) -> Any:
    return col if col.type == t else col.cast(t)


def _decoder(pa: Any, args: argparse.Namespace, plus: bool,
             errors: str) -> Callable[[Any, str, int], Any]:
    import pyarrow.compute as pc

    encoding = args.encoding
    strict_percent = args.strict

    def first_bad_percent(col: Any) -> int | None:
        if not (pa.types.is_binary(col.type) or pa.types.is_large_binary(col.type)):
            # The same bytes seen as binary, so RE2 matches bytes, not characters.
            large = pa.types.is_large_string(col.type)
            if large or pa.types.is_string(col.type):
                col = col.view(pa.large_binary() if large else pa.binary())
            else:  # a view type: plain offsets first
                col = col.cast(pa.binary())
        hits = pc.match_substring_regex(col, _BAD_PERCENT)
        if not pc.any(hits).as_py():
            return None
        return int(pc.index(hits, True).as_py())

    def fail(name: str, row: int, e: Exception) -> CLIError:
        msg = str(e)
        return CLIError(f"column {name!r}, row {row} (counting from 0): {msg}", 1)

    def decode(col: Any, name: str, base: int) -> Any:
        if pa.types.is_dictionary(col.type):
            col = col.dictionary_decode()
        bad = first_bad_percent(col) if strict_percent else None
        try:
            if args.bytes:
                out = arrow.decode(col, plus_as_space=plus)
            else:
                out = arrow.decode_text(col, encoding=encoding, plus_as_space=plus,
                                        errors=errors)  # type: ignore[arg-type]
        except TextDecodeError as e:
            row = getattr(e, "row", 0)
            if bad is None or row < bad:
                # arrow's message starts "row N: "; say it once, counted across the file.
                msg = str(e).split(": ", 1)[1] if str(e).startswith("row ") else str(e)
                raise CLIError(f"column {name!r}, row {base + row} (counting from 0): {msg}",
                               1) from None
        if bad is not None:
            value = col[bad].as_py()
            try:
                core.decode(value, strict=True)
            except PercentDecodeError as e:
                raise fail(name, base + bad, e) from None
            raise AssertionError("the bad-% pattern and decode(strict=True) disagree")
        return out

    if not (args.bytes or utf8_output(encoding)):
        arrow.decode_text(pa.array([""]), encoding=encoding)  # an unusable label fails here
    return decode


def write(pa: Any, fmt: str, output: str | None, schema: Any, batches: Iterator[Any],
           src: str) -> None:
    import itertools

    import pyarrow.csv as pacsv
    import pyarrow.parquet as pq

    # The first batch is decoded before anything is written, so an error in it (a
    # --strict row) leaves standard output empty rather than holding a lone header.
    first = list(itertools.islice(batches, 1))
    batches = itertools.chain(first, batches)

    def csv_out(sink: Any, name: str) -> None:
        opts = pacsv.WriteOptions(delimiter=_delimiter(name))
        with pacsv.CSVWriter(sink, schema, write_options=opts) as w:
            for b in batches:
                try:
                    w.write_batch(b)
                except pa.ArrowInvalid as e:  # a binary column that is not UTF-8
                    raise CLIError(f"cannot write CSV: {e}: a binary column holds bytes that "
                                   "are not UTF-8, which CSV cannot carry; write Parquet "
                                   "(-o OUT.parquet)", 1) from None

    if output is None:
        sys.stdout.flush()
        csv_out(sys.stdout.buffer, src)
        sys.stdout.buffer.flush()
        return
    folder = os.path.dirname(os.path.abspath(output))
    fd, tmp = tempfile.mkstemp(prefix=".percent-", suffix=".tmp", dir=folder)
    os.close(fd)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp's 0600 would outlive the rename
    try:
        if fmt == "parquet":
            with pq.ParquetWriter(tmp, schema) as pw:
                for b in batches:
                    pw.write_batch(b)
        else:
            with pa.output_stream(tmp, compression=_out_compression(output)) as sink:
                csv_out(sink, output)
        os.replace(tmp, output)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _out_compression(path: str) -> str | None:
    name = path.lower()
    for ext, codec in ((".gz", "gzip"), (".bz2", "bz2"), (".zst", "zstd"), (".lz4", "lz4")):
        if name.endswith(ext):
            return codec
    return None
