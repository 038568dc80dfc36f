"""Line streaming for ``encode`` and ``decode`` without TEXT.

Strategy: stdin (or a file) is read in large blocks and transformed line by
line in constant memory; output is flushed whenever the input pauses, so
``tail -f log | percent decode`` is interactive while a large file is still
written in large blocks.  Line endings are kept as they are.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import IO

from ..errors import PercentEncodingError
from ._term import CLIError, Progress, exit_code

Step = Callable[[bytes, bool], bytes]

# A line longer than this is transformed in pieces (``step``), so memory stays
# constant however long it is.
LONG_LINE = 1 << 18


def stream_lines(
    inp: IO[bytes],
    out: IO[bytes],
    fn: Callable[[bytes], bytes],
    progress: Progress | None = None,
    chunk_size: int = 65536,
    block_fn: Callable[[bytes], bytes] | None = None,
    step_factory: Callable[[], Step] | None = None,
    long_line: int = LONG_LINE,
) -> int:
    """Apply ``fn`` to each line of ``inp`` (without its ``\\n`` or ``\\r\\n``, which are written
    back unchanged) in constant memory; returns the number of lines.

    ``block_fn``, when given, is applied instead to runs of whole lines (with their line
    endings) at once; it must give the same bytes as ``fn`` line by line (true of percent-
    decoding and UTF-8 decoding, which never join bytes across a newline).

    ``step_factory``, when given, makes a fresh ``step(data, final)`` for a line that grows
    past ``long_line`` bytes without a newline: the line is passed to it in pieces (the last
    with ``final=True``) and the pieces' outputs, concatenated, must equal ``fn`` of the
    whole line (the step carries a split ``%XX`` or a split character itself).

    Output is flushed before every read that may block, so results of an interactive
    pipeline appear at once while a fast producer still gets large writes.
    """
    read1: Callable[[int], bytes] = getattr(inp, "read1", inp.read)
    pending: list[bytes] = []
    pending_len = 0
    step: Step | None = None  # the current line's, once it grew past long_line
    count = 0

    def piece() -> None:
        # Pass the long line's pending bytes on, but for a last CR (maybe half a CRLF).
        nonlocal pending, pending_len, step
        data = b"".join(pending)
        keep = data[-1:] == b"\r"
        if keep:
            data = data[:-1]
        if step is None:
            assert step_factory is not None
            step = step_factory()
        out.write(_line(lambda b: step(b, False), data, count + 1))  # type: ignore[misc]
        pending = [b"\r"] if keep else []
        pending_len = len(pending)

    def finish_long(rest: bytes) -> bytes:
        # The end of a long line: its last piece, through the same step, and its ending.
        nonlocal pending, pending_len, step, count
        data = b"".join(pending) + rest
        pending, pending_len = [], 0
        count += 1
        crlf = data[-1:] == b"\r"
        assert step is not None
        done = step
        step = None
        return _line(lambda b: done(b, True), data[:-1] if crlf else data, count) + (
            b"\r\n" if crlf else b"\n")

    while True:
        out.flush()
        chunk = read1(chunk_size)
        if not chunk:
            break
        if progress is not None:
            progress.update(len(chunk))
        if step is not None:
            i = chunk.find(b"\n")
            if i < 0:
                pending.append(chunk)
                piece()
                continue
            out.write(finish_long(chunk[:i]))
            chunk = chunk[i + 1 :]
            if not chunk:
                continue
        if block_fn is not None:
            cut = chunk.rfind(b"\n") + 1
            if cut == 0:
                pending.append(chunk)
                pending_len += len(chunk)
                if step_factory is not None and pending_len >= long_line:
                    piece()
                continue
            pending.append(chunk[:cut])
            block = b"".join(pending)
            pending = [chunk[cut:]] if cut < len(chunk) else []
            pending_len = len(chunk) - cut
            count += block.count(b"\n")
            out.write(block_fn(block))
            continue
        lines = chunk.split(b"\n")
        if len(lines) == 1:
            pending.append(chunk)
            pending_len += len(chunk)
            if step_factory is not None and pending_len >= long_line:
                piece()
            continue
        if pending:
            pending.append(lines[0])
            lines[0] = b"".join(pending)
            pending = []
        last = lines.pop()
        pending_len = len(last)
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
    if step is not None:
        count += 1
        done = step
        out.write(_line(lambda b: done(b, True), b"".join(pending), count))
    elif pending:
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
        raise CLIError(f"line {n}: {e}", exit_code(e)) from None


def escape_cut(buf: bytes) -> int:
    """Where to cut ``buf`` so that no ``%XX`` is split: before a ``%`` in the last two bytes."""
    n = len(buf)
    if buf[n - 1 : n] == b"%":
        return n - 1
    if buf[n - 2 : n - 1] == b"%":
        return n - 2
    return n


# URL Standard §4.4: %0A and %0D decode to LF and CR, which would split one
# line of a stream into two (log forging); in line mode they stay encoded.
_CRLF_ESCAPE = re.compile(rb"%(0[AaDd])")


def keep_crlf_encoded(data: bytes) -> bytes:
    """``%0A``/``%0D`` rewritten so that decoding gives them back as text (``%250A``)."""
    return _CRLF_ESCAPE.sub(rb"%25\1", data) if b"%0" in data else data


# What a terminal would obey: C0 controls, DEL, and C1 controls (UTF-8 C2 80–C2 9F).
_TERMINAL_CONTROLS = re.compile(rb"[\x00-\x1f\x7f]|\xc2[\x80-\x9f]")


def terminal_safe(data: bytes) -> bytes:
    """Controls shown percent-encoded (``%1B``), so decoded text cannot drive the terminal."""
    return _TERMINAL_CONTROLS.sub(lambda m: "".join(f"%{b:02X}" for b in m.group()).encode(),
                                  data)


def out_bytes(text: str) -> bytes:
    return text.encode("utf-8", "backslashreplace")


def stdin_or_file(path: str | None) -> IO[bytes]:
    if path is None or path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as e:
        raise CLIError(f"cannot read {path}: {e.strerror}", 1) from None
