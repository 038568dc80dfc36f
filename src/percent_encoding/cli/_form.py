"""The ``form parse`` and ``form build`` subcommands.

Strategy: the body goes through :func:`percent_encoding.form.parse` (URL
Standard §5.1) and the pairs through :func:`percent_encoding.form.serialize`
(§5.2); the form module is imported only when these run, so start-up stays
fast.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._tool import (
    check_encoding,
)
from ._stream import _stdin_or_file
from ._term import _input_size, _Progress, _Style, _table, _visible


def _escape_tsv(s: str) -> str:
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def cmd_form_parse(args: argparse.Namespace) -> int:
    from .. import form
    enc = check_encoding(args.encoding) if args.encoding else None
    stream = _stdin_or_file(args.file)
    progress = _Progress(_input_size(stream))
    chunks = []
    try:
        while True:
            c = stream.read(1 << 20)
            if not c:
                break
            progress.update(len(c))
            chunks.append(c)
    finally:
        progress.finish()
        if stream is not sys.stdin.buffer:
            stream.close()
    body = b"".join(chunks).rstrip(b"\r\n")
    kwargs: dict[str, Any] = {}
    if enc is not None:
        kwargs["encoding"] = enc
    if args.charset_hack:
        kwargs["charset_hack"] = True
    result = form.parse(body, **kwargs)
    pairs: list[tuple[str, str]] = list(result)
    if isinstance(result, form.ParsedForm):  # encoding="auto" says what it chose, and why
        chosen = result.charset
        print(f"percent: charset: {chosen.encoding} ({chosen.reason})", file=sys.stderr)
    out = sys.stdout
    if args.json:
        out.write(json.dumps([list(p) for p in pairs], ensure_ascii=False) + "\n")
    elif args.tsv:
        for n, v in pairs:
            out.write(f"{_escape_tsv(n)}\t{_escape_tsv(v)}\n")
    else:
        style = _Style(out)
        if pairs:
            print(_table([[_visible(n), _visible(v)] for n, v in pairs], style, ["name", "value"]))
    return 0


def cmd_form_build(args: argparse.Namespace) -> int:
    from .. import form
    pairs = []
    for item in args.pairs:
        name, _sep, value = item.partition("=")
        pairs.append((name, value))
    kwargs: dict[str, Any] = {}
    if args.encoding:
        kwargs["encoding"] = check_encoding(args.encoding)
    print(form.serialize(pairs, **kwargs))
    return 0
