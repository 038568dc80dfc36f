"""The ``encode`` and ``decode`` subcommands.

Strategy: TEXT (or each line of stdin) goes through
:func:`percent_encoding._tool.encode_with` / ``decode_with`` for the chosen
scheme or encode set; ``--all`` prints a table of every scheme.  A bad ``%``
with ``--strict`` or text the encoding cannot represent is a data error
(exit status 1).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from .. import core, schemes
from .._tool import (
    NotApplicableError,
    _is_utf8,
    _utf8,
    check_encoding,
    decode_with,
    encode_with,
    plain_profile,
    resolve_scheme,
)
from ..errors import PercentEncodingError
from ._stream import _out_bytes, stream_lines
from ._term import CLIError, _input_size, _Progress, _Style, _table, _visible


def _all_table(text: str, args: argparse.Namespace, decode: bool) -> str:
    style = _Style(sys.stdout)
    rows = []
    for s in schemes.all_schemes():
        try:
            if decode:
                if s.decode is None and plain_profile(s) is None:
                    continue
                out, _ = decode_with(s, text, args.encoding, strict=args.strict)
            else:
                out = encode_with(s, text, args.encoding)
            cell = _visible(out)
        except NotApplicableError as e:
            cell = style.dim("n/a: " + str(e).split(",")[0])
        except PercentEncodingError as e:
            cell = style.red(f"error: {e}")
        rows.append([s.name, cell])
    return _table(rows, style, ["scheme", "decoded" if decode else "encoded"])


def _arg_data(text: str) -> str | bytes:
    """An argument that was not valid UTF-8 (surrogate-escaped by Python) as its raw bytes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text)
    return text


def cmd_encode(args: argparse.Namespace) -> int:
    check_encoding(args.encoding)
    if args.encoding == "auto":
        raise CLIError("--encoding auto only applies to decode", 2)
    s = resolve_scheme(args.scheme)
    if args.text is not None:
        if args.all:
            print(_all_table(args.text, args, decode=False))
            return 0
        print(encode_with(s, _arg_data(args.text), args.encoding))
        return 0
    if args.all:

        def fn(line: bytes) -> bytes:
            return _out_bytes(_all_table(_utf8(line), args, decode=False)) + b"\n"

    else:
        encode_with(s, "", args.encoding)  # report --encoding/scheme mismatches up front
        prof = plain_profile(s)
        if prof is not None and _is_utf8(args.encoding):
            es, plus = prof

            def fn(line: bytes) -> bytes:  # the common case, without per-line checks
                return core.encode(line, es, space_as_plus=plus).encode("ascii")

        else:

            def fn(line: bytes) -> bytes:
                return encode_with(s, line, args.encoding).encode("ascii", "backslashreplace")

    return _run_stream(fn, args)


def cmd_decode(args: argparse.Namespace) -> int:
    check_encoding(args.encoding)
    s = resolve_scheme(args.scheme)
    prof = plain_profile(s)
    if args.bytes and prof is None:
        raise CLIError(f"--bytes needs a plain percent-encoding; {s.name!r} is not one", 2)
    if args.bytes and args.all:
        raise CLIError("--bytes and --all do not go together", 2)
    if args.text is not None:
        if args.all:
            print(_all_table(args.text, args, decode=True))
            return 0
        if args.bytes:
            assert prof is not None
            raw = core.decode(args.text, plus_as_space=prof[1], strict=args.strict)
            sys.stdout.flush()
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            return 0
        out, chosen = decode_with(s, args.text, args.encoding, strict=args.strict)
        if chosen is not None:
            print(f"percent: charset: {chosen}", file=sys.stderr)
        sys.stdout.flush()
        sys.stdout.buffer.write(_out_bytes(out) + b"\n")
        sys.stdout.buffer.flush()
        return 0

    if args.all:

        def fn(line: bytes) -> bytes:
            return _out_bytes(_all_table(_utf8(line), args, decode=True)) + b"\n"

    elif args.bytes:
        assert prof is not None
        plus, strict = prof[1], args.strict

        def fn(line: bytes) -> bytes:
            return core.decode(line, plus_as_space=plus, strict=strict)

        if not strict:
            # Percent-decoding never joins bytes across a newline: decode whole blocks.
            return _run_stream(fn, args, lambda block: core.decode(block, plus_as_space=plus))

    elif prof is not None and not args.strict and args.encoding != "auto" and _is_utf8(
        args.encoding
    ):
        plus = prof[1]

        def fn(line: bytes) -> bytes:
            return _out_bytes(core.decode_text(line, plus_as_space=plus))

        # Neither percent-decoding nor UTF-8 decoding (a newline byte ends any bad
        # sequence) joins bytes across lines, so whole blocks give the same result.
        return _run_stream(fn, args, fn)

    else:
        if args.encoding != "auto":
            decode_with(s, "", args.encoding)

        def fn(line: bytes) -> bytes:
            return _out_bytes(decode_with(s, line, args.encoding, strict=args.strict)[0])

    return _run_stream(fn, args)


def _run_stream(
    fn: Callable[[bytes], bytes],
    args: argparse.Namespace,
    block_fn: Callable[[bytes], bytes] | None = None,
) -> int:
    inp = sys.stdin.buffer
    if inp.isatty() and sys.stderr.isatty():
        print("percent: reading lines from the terminal (Ctrl-D to end)", file=sys.stderr)
    progress = _Progress(_input_size(inp))
    sys.stdout.flush()
    try:
        stream_lines(inp, sys.stdout.buffer, fn, progress, block_fn=block_fn)
    finally:
        progress.finish()
    return 0
