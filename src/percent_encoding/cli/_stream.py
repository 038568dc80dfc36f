"""Line streaming for ``encode`` and ``decode`` without TEXT.

Strategy: stdin (or a file) is read in large blocks and transformed line by
line in constant memory; output is flushed whenever the input pauses, so
``tail -f log | percent decode`` is interactive while a large file is still
written in large blocks.  Line endings are kept as they are.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import IO

from ..errors import PercentEncodingError
from ._term import CLIError, _exit_code, _Progress


def stream_lines(
    inp: IO[bytes],
    out: IO[bytes],
    fn: Callable[[bytes], bytes],
    progress: _Progress | None = None,
    chunk_size: int = 65536,
    block_fn: Callable[[bytes], bytes] | None = None,
) -> int:
    """Apply ``fn`` to each line of ``inp`` (without its ``\\n`` or ``\\r\\n``, which are written
    back unchanged) in constant memory; returns the number of lines.

    ``block_fn``, when given, is applied instead to runs of whole lines (with their line
    endings) at once; it must give the same bytes as ``fn`` line by line (true of percent-
    decoding and UTF-8 decoding, which never join bytes across a newline).

    Output is flushed before every read that may block, so results of an interactive
    pipeline appear at once while a fast producer still gets large writes.
    """
    read1: Callable[[int], bytes] = getattr(inp, "read1", inp.read)
    pending: list[bytes] = []
    count = 0
    while True:
        out.flush()
        chunk = read1(chunk_size)
        if not chunk:
            break
        if progress is not None:
            progress.update(len(chunk))
        if block_fn is not None:
            cut = chunk.rfind(b"\n") + 1
            if cut == 0:
                pending.append(chunk)
                continue
            pending.append(chunk[:cut])
            block = b"".join(pending)
            pending = [chunk[cut:]] if cut < len(chunk) else []
            count += block.count(b"\n")
            out.write(block_fn(block))
            continue
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
        parts = []
        try:
            for line in lines:
                count += 1
                if line.endswith(b"\r"):
                    parts.append(_line(fn, line[:-1], count) + b"\r\n")
                else:
                    parts.append(_line(fn, line, count) + b"\n")
        finally:  # the lines before a bad one still go out
            out.write(b"".join(parts))
    if pending:
        count += 1
        rest = b"".join(pending)
        out.write(block_fn(rest) if block_fn is not None else _line(fn, rest, count))
    out.flush()
    return count


def _line(fn: Callable[[bytes], bytes], line: bytes, n: int) -> bytes:
    try:
        return fn(line)
    except CLIError as e:
        raise CLIError(f"line {n}: {e}", e.code) from None
    except PercentEncodingError as e:
        raise CLIError(f"line {n}: {e}", _exit_code(e)) from None


def _out_bytes(text: str) -> bytes:
    return text.encode("utf-8", "backslashreplace")


def _stdin_or_file(path: str | None) -> IO[bytes]:
    if path is None or path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as e:
        raise CLIError(f"cannot read {path}: {e.strerror}", 1) from None
