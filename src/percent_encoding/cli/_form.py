"""The ``form parse`` and ``form build`` subcommands.

Strategy: the body goes through :func:`percent_encoding.form.parse` (URL
Standard §5.1) and the pairs through :func:`percent_encoding.form.serialize`
(§5.2); the form module is imported only when these run, so start-up stays
fast.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from .._tool import (
    check_encoding,
)
from ._stream import _stdin_or_file
from ._term import CLIError, _input_size, _Progress, _Style, _table, _visible

# RFC 9110 §8.3.1: media-type parameters; charset's value may be quoted.
_CHARSET_PARAM = re.compile(r';\s*charset\s*=\s*"?([^";\s]+)', re.IGNORECASE)


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
    result = form.parse(body, **kwargs)
    rows: list[list[str]] = [list(p) for p in result]
    if isinstance(result, form.ParsedForm):  # encoding="auto" says what it chose, and why
        chosen = result.charset
        print(f"percent: charset: {chosen.encoding} ({chosen.reason})", file=sys.stderr)
        for finding in chosen.findings:
            print(f"percent: warning: {finding}", file=sys.stderr)
        if per_field:
            for row, g in zip(rows, result.fields, strict=True):
                row.append(g.encoding)
    out = sys.stdout
    if args.json:
        out.write(json.dumps(rows, ensure_ascii=False) + "\n")
    elif args.tsv:
        for row in rows:
            out.write("\t".join(_escape_tsv(c) for c in row) + "\n")
    else:
        style = _Style(out)
        if rows:
            head = ["name", "value", "charset"] if per_field else ["name", "value"]
            print(_table([[_visible(c) for c in row] for row in rows], style, head))
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
