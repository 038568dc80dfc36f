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
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import IO, Any

from .._tool import (
    check_encoding,
)
from ._stream import stdin_or_file
from ._term import CLIError, Progress, Style, input_size, table, visible

# RFC 9110 §8.3.1: media-type parameters; charset's value may be quoted.
_CHARSET_PARAM = re.compile(r';\s*charset\s*=\s*"?([^";\s]+)', re.IGNORECASE)


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
    per_field = getattr(args, "per_field", False)
    if per_field:
        if enc != "auto":
            raise CLIError("--per-field needs --encoding auto", 2)
        kwargs["per_field"] = True
    content_type = getattr(args, "content_type", None)
    if content_type is not None:
        if enc != "auto":
            raise CLIError("--content-type needs --encoding auto", 2)
        m = _CHARSET_PARAM.search(content_type)
        if m is not None:
            kwargs["content_type_charset"] = m.group(1)
    if getattr(args, "lines", False):
        if args.tsv:
            raise CLIError("--lines writes JSON Lines; it does not combine with --tsv", 2)
        return _parse_lines(args.file, kwargs)
    stream = stdin_or_file(args.file)
    progress = Progress(input_size(stream))
    out = sys.stdout
    try:
        if "charset_hack" in kwargs or enc == "auto":
            # The encoding depends on the whole body (a _charset_ field anywhere,
            # or detection over every field): read it all, then parse.
            body = b"".join(_chunks(stream, progress)).rstrip(b"\r\n")
            result = _parse_whole(body, kwargs)
            rows: list[tuple[str, ...]] = [tuple(p) for p in result]
            if isinstance(result, form.ParsedForm):  # "auto" says what it chose, and why
                chosen = result.charset
                print(f"percent: charset: {chosen.encoding} ({chosen.reason})", file=sys.stderr)
                for finding in chosen.findings:
                    # The library's advice, in the CLI's words (or dropped: already done).
                    finding = finding.replace(
                        " (parse with per_field=True)",
                        "" if per_field else " (--per-field decodes each with its own guess)")
                    print(f"percent: warning: {finding}", file=sys.stderr)
                if per_field:
                    rows = [(*row, g.encoding)
                            for row, g in zip(rows, result.fields, strict=True)]
            batches: Iterable[list[tuple[str, ...]]] = [rows]
        else:
            # Streamed through FormParser: memory is bounded by the largest field.
            batches = _stream_pairs(form.FormParser(**kwargs), _chunks(stream, progress))
        if args.json:
            _write_json(out, batches)
        elif args.tsv:
            for batch in batches:
                out.write("".join("\t".join(_escape_tsv(c) for c in row) + "\n"
                                  for row in batch))
        else:
            style = Style(out)
            # A table needs every width first: it is for people, not for large bodies.
            cells = [[visible(c) for c in row] for b in batches for row in b]
            if cells:
                head = ["name", "value", "charset"] if per_field else ["name", "value"]
                print(table(cells, style, head))
    finally:
        progress.finish()
        if stream is not sys.stdin.buffer:
            stream.close()
    return 0


def _parse_whole(body: bytes, kwargs: dict[str, Any]) -> list[tuple[str, str]]:
    """One parse of a whole body: ``--encoding auto`` is detect.parse_form, ``--charset-hack``
    the pre-2016 parser (legacy.whatwg_form_parse), anything else form.parse."""
    if kwargs.get("encoding") == "auto":
        from .. import detect

        # (a _charset_ field is the first thing detection looks at: --charset-hack adds nothing)
        options = {k: v for k, v in kwargs.items() if k not in ("encoding", "charset_hack")}
        return detect.parse_form(body, **options)
    if "charset_hack" in kwargs:
        from .. import legacy

        return legacy.whatwg_form_parse(body, **kwargs)
    from .. import form

    return form.parse(body, **kwargs)


def _chunks(stream: IO[bytes], progress: Progress) -> Iterator[bytes]:
    while True:
        c = stream.read(1 << 16)
        if not c:
            return
        progress.update(len(c))
        yield c


def _stream_pairs(parser: Any, chunks: Iterable[bytes]) -> Iterator[list[tuple[str, ...]]]:
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


def _write_json(out: IO[str], batches: Iterable[list[tuple[str, ...]]]) -> None:
    # The same text as json.dumps of the whole list, written batch by batch.
    import json  # here, not at the top: `percent encode x` starts without it

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

    import json

    stream = stdin_or_file(path)
    out = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None

    def one(line: bytes) -> bytes:
        pairs = _parse_whole(line, kwargs)
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


# HTML §4.10.21.7: the enctype attribute's states, by the names the CLI accepts.
_ENCTYPES = {
    "urlencoded": "application/x-www-form-urlencoded",
    "application/x-www-form-urlencoded": "application/x-www-form-urlencoded",
    "text/plain": "text/plain",
    "plain": "text/plain",
    "multipart": "multipart/form-data",
    "multipart/form-data": "multipart/form-data",
}


def enctype_arg(value: str) -> str:
    """``--enctype``: a short or full name, any case -> the MIME type."""
    kind = _ENCTYPES.get(value.strip().lower())
    if kind is None:
        raise argparse.ArgumentTypeError(
            f"{value!r} is not a form enctype: use urlencoded, text/plain or multipart "
            "(or application/x-www-form-urlencoded, multipart/form-data)")
    return kind


def cmd_form_build(args: argparse.Namespace) -> int:
    from .. import form
    from ._codec import arg_data

    pairs: list[tuple[str | bytes, str | bytes]] = []
    for item in args.pairs:
        # An argument that is not UTF-8 in the locale is taken as its original bytes,
        # which the serializer percent-encodes as they are.
        data = arg_data(item)
        if isinstance(data, bytes):
            bname, _bsep, bvalue = data.partition(b"=")
            pairs.append((bname, bvalue))
        else:
            name, _sep, value = data.partition("=")
            pairs.append((name, value))
    kwargs: dict[str, Any] = {}
    if args.encoding:
        kwargs["encoding"] = check_encoding(args.encoding)
    html_mode = (args.enctype is not None or args.isindex or args.headers
                 or args.boundary is not None)
    if not html_mode:
        # The URL Standard's serializer (§5.2), one line.
        print(form.serialize(pairs, **kwargs))
        return 0
    return _html_body(args, pairs, kwargs)


def _html_body(args: argparse.Namespace, pairs: list[tuple[str | bytes, str | bytes]],
               kwargs: dict[str, Any]) -> int:
    """``form build --enctype/--isindex/--boundary/--headers``: what an HTML form
    submission sends (HTML §4.10.22, :func:`percent_encoding.form.html_form_body`)."""
    import secrets

    from .. import form
    from ..errors import PercentEncodingError

    enctype: str = args.enctype or "application/x-www-form-urlencoded"
    multipart = enctype == "multipart/form-data"
    if args.boundary is not None and not multipart:
        raise CLIError("--boundary needs --enctype multipart", 2)
    if args.isindex and enctype != "application/x-www-form-urlencoded":
        raise CLIError("--isindex applies to the urlencoded enctype only", 2)
    entries: list[tuple[str, str]] = []
    for name, value in pairs:
        if not isinstance(name, str) or not isinstance(value, str):
            # A form's entries are text (HTML "entry list"); bytes have no form encoding.
            raw = os.fsencode(args.pairs[len(entries)])
            raise CLIError(f"{raw!r} is not valid UTF-8: with --enctype every NAME=VALUE "
                           "must be text (give it as UTF-8 and choose --encoding)", 2)
        entries.append((name, value))
    boundary = args.boundary
    if multipart and boundary is None:
        boundary = "----PercentEncodingFormBoundary" + secrets.token_hex(8)
    try:
        body = form.html_form_body(entries, enctype=enctype, isindex=args.isindex,
                                   boundary=boundary, **kwargs)
    except PercentEncodingError as e:
        raise CLIError(str(e), 2) from None
    content_type = f"{enctype}; boundary={boundary}" if multipart else enctype
    if args.headers:
        body = f"Content-Type: {content_type}\r\n\r\n".encode("ascii") + body
    else:
        if enctype == "application/x-www-form-urlencoded":
            body += b"\n"  # ASCII: one line, as without --enctype
        if multipart and args.boundary is None:
            # The reader needs the header to send the body; stdout stays the body alone.
            print(f"percent: Content-Type: {content_type}", file=sys.stderr)
    sys.stdout.flush()
    out = getattr(sys.stdout, "buffer", None)
    if out is None:  # a text-only stdout (tests)
        sys.stdout.write(body.decode("latin-1"))
    else:
        out.write(body)
        out.flush()
    return 0
