"""The ``form parse`` and ``form build`` subcommands.

Strategy: the body is streamed through :class:`percent_encoding.form.FormParser`
(URL Standard §5.1), so memory is bounded by the largest field (the table, and
``--charset-hack`` / ``-e auto``, which depend on every field, read it whole);
``--lines`` parses each line with :func:`percent_encoding.form.parse`; ``build``
serializes the pairs with :func:`percent_encoding.form.serialize` (§5.2).  The
form module is imported only when these run, so start-up stays fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from .._tool import (
    check_encoding,
)
from ._stream import _stdin_or_file
from ._term import CLIError, _input_size, _Progress, _Style, _table, _visible


def _escape_tsv(s: str) -> str:
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def cmd_form_parse(args: argparse.Namespace) -> int:
    from .. import form
    enc = check_encoding(args.encoding) if args.encoding else None
    kwargs: dict[str, Any] = {}
    if enc is not None:
        kwargs["encoding"] = enc
    if args.charset_hack:
        kwargs["charset_hack"] = True
    if getattr(args, "lines", False):
        if args.tsv:
            raise CLIError("--lines writes JSON Lines; it does not combine with --tsv", 2)
        return _parse_lines(args.file, kwargs)
    stream = _stdin_or_file(args.file)
    progress = _Progress(_input_size(stream))
    out = sys.stdout
    try:
        if "charset_hack" in kwargs or enc == "auto":
            # The encoding depends on the whole body (a _charset_ field anywhere,
            # or detection over every field): read it all, then parse.
            body = b"".join(_chunks(stream, progress)).rstrip(b"\r\n")
            result = form.parse(body, **kwargs)
            if isinstance(result, form.ParsedForm):  # "auto" says what it chose, and why
                chosen = result.charset
                print(f"percent: charset: {chosen.encoding} ({chosen.reason})", file=sys.stderr)
            batches: Iterable[list[tuple[str, str]]] = [list(result)]
        else:
            # Streamed through FormParser: memory is bounded by the largest field.
            batches = _stream_pairs(form.FormParser(**kwargs), _chunks(stream, progress))
        if args.json:
            _write_json(out, batches)
        elif args.tsv:
            for batch in batches:
                out.write("".join(f"{_escape_tsv(n)}\t{_escape_tsv(v)}\n" for n, v in batch))
        else:
            style = _Style(out)
            # A table needs every width first: it is for people, not for large bodies.
            rows = [[_visible(n), _visible(v)] for b in batches for n, v in b]
            if rows:
                print(_table(rows, style, ["name", "value"]))
    finally:
        progress.finish()
        if stream is not sys.stdin.buffer:
            stream.close()
    return 0


def _chunks(stream: IO[bytes], progress: _Progress) -> Iterator[bytes]:
    while True:
        c = stream.read(1 << 16)
        if not c:
            return
        progress.update(len(c))
        yield c


def _stream_pairs(parser: Any, chunks: Iterable[bytes]) -> Iterator[list[tuple[str, str]]]:
    # The body's trailing newlines are not part of it (as `echo ... |` adds one):
    # hold back a chunk's trailing CR/LF run until more data shows it was inside.
    held = b""
    for c in chunks:
        body = c.rstrip(b"\r\n")
        if body:
            yield parser.feed(held + body)
            held = c[len(body):]
        else:
            held += c
    yield parser.close()


def _write_json(out: IO[str], batches: Iterable[list[tuple[str, str]]]) -> None:
    # The same text as json.dumps of the whole list, written batch by batch.
    out.write("[")
    sep = ""
    for batch in batches:
        if batch:
            out.write(sep + json.dumps([list(p) for p in batch], ensure_ascii=False)[1:-1])
            sep = ", "
    out.write("]\n")


def _parse_lines(path: str | None, kwargs: dict[str, Any]) -> int:
    """``--lines``: each input line is one query or body; one JSON array per output
    line (JSON Lines), streamed, flushed whenever the input pauses."""
    from .. import form

    stream = _stdin_or_file(path)
    out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None

    def one(line: bytes) -> bytes:
        pairs = form.parse(line, **kwargs)
        return json.dumps([list(p) for p in pairs], ensure_ascii=False).encode("utf-8")

    try:
        if out is None:  # a text-only stdout (tests): no streaming needed
            for raw in stream:
                sys.stdout.write(one(raw.rstrip(b"\r\n")).decode("utf-8") + "\n")
            return 0
        sys.stdout.flush()
        read1: Callable[[int], bytes] = getattr(stream, "read1", stream.read)
        pending: list[bytes] = []
        while True:
            out.flush()
            chunk = read1(1 << 16)
            if not chunk:
                break
            lines = chunk.split(b"\n")
            if len(lines) == 1:
                pending.append(chunk)
                continue
            if pending:
                pending.append(lines[0])
                lines[0] = b"".join(pending)
                pending = []
            last = lines.pop()
            if last:
                pending.append(last)
            out.write(b"".join(one(ln.rstrip(b"\r")) + b"\n" for ln in lines))
        if pending:
            out.write(one(b"".join(pending).rstrip(b"\r")) + b"\n")
        out.flush()
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()
    return 0


def cmd_form_build(args: argparse.Namespace) -> int:
    from .. import form
    from ._codec import _arg_data

    pairs: list[tuple[str | bytes, str | bytes]] = []
    for item in args.pairs:
        # An argument that is not UTF-8 in the locale is taken as its original bytes,
        # which the serializer percent-encodes as they are.
        data = _arg_data(item)
        if isinstance(data, bytes):
            bname, _bsep, bvalue = data.partition(b"=")
            pairs.append((bname, bvalue))
        else:
            name, _sep, value = data.partition("=")
            pairs.append((name, value))
    kwargs: dict[str, Any] = {}
    if args.encoding:
        kwargs["encoding"] = check_encoding(args.encoding)
    print(form.serialize(pairs, **kwargs))
    return 0
