"""What the subcommands share for talking to people: :class:`CLIError`, the
exit status of an error, colour, tables and the progress bar.

Strategy: colour and the progress bar appear only on a terminal (colour never
when ``NO_COLOR`` is set, https://no-color.org); errors are one line with
exit status 2 for usage errors and 1 for bad data.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Sequence
from typing import IO, Any

from .._tool import (
    USAGE_ERRORS,
)
from ..errors import PercentEncodingError

DEFAULT_SCHEME = "component"


class CLIError(PercentEncodingError):
    """An error the CLI reports in one line; ``code`` is the exit status (2 usage, 1 data).

    A :class:`~percent_encoding.errors.PercentEncodingError`, so callers that catch the
    library's errors catch the CLI's too.
    """

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def exit_code(e: PercentEncodingError) -> int:
    """2 for the errors that mean the command line is wrong, 1 for bad data."""
    return 2 if isinstance(e, USAGE_ERRORS) else 1


# ---------------------------------------------------------------------------
# Terminal helpers: colour, tables, progress.
# ---------------------------------------------------------------------------


def _colour_ok(stream: IO[Any]) -> bool:
    if os.environ.get("NO_COLOR", "") != "":
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


class Style:
    def __init__(self, stream: IO[Any]) -> None:
        self.on = _colour_ok(stream)

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on else text

    def bold(self, t: str) -> str:
        return self(t, "1")

    def dim(self, t: str) -> str:
        return self(t, "2")

    def red(self, t: str) -> str:
        return self(t, "31")

    def green(self, t: str) -> str:
        return self(t, "32")

    def yellow(self, t: str) -> str:
        return self(t, "33")

    def cyan(self, t: str) -> str:
        return self(t, "36")


def visible(text: str) -> str:
    """Control characters as escapes so a table cell stays on one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def table(rows: Sequence[Sequence[str]], style: Style, header: Sequence[str] | None) -> str:
    cols = len(rows[0]) if rows else len(header or ())
    widths = [0] * cols
    for r in [header or [], *rows]:
        for i, cell in enumerate(r):
            widths[i] = max(widths[i], len(cell))
    lines = []
    if header:
        h = "  ".join(c.ljust(widths[i]) for i, c in enumerate(header)).rstrip()
        lines.append(style.bold(h))
    for r in rows:
        cells = [c.ljust(widths[i]) if i < cols - 1 else c for i, c in enumerate(r)]
        if cells:
            cells[0] = style.cyan(cells[0])
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


class Progress:
    """A byte-count progress bar on stderr, only when stderr is a terminal and stdout is not
    (otherwise the output itself shows progress), and only after the input has taken a while."""

    DELAY = 0.4
    INTERVAL = 0.1

    def __init__(self, total: int | None, enabled: bool | None = None) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty() and not sys.stdout.isatty()
        self.enabled = enabled
        self.total = total if total else None
        self.done = 0
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.DELAY or now - self.last < self.INTERVAL:
            return
        self.last = now
        self.shown = True
        mib = self.done / 1048576
        rate = mib / max(now - self.start, 1e-6)
        if self.total:
            frac = min(self.done / self.total, 1.0)
            bar = "█" * int(frac * 30) + "░" * (30 - int(frac * 30))
            msg = f"\r{bar} {frac * 100:5.1f}%  {mib:8.1f} MiB  {rate:6.1f} MiB/s"
        else:
            msg = f"\r{mib:8.1f} MiB  {rate:6.1f} MiB/s"
        sys.stderr.write(msg)
        sys.stderr.flush()

    def finish(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()


def input_size(stream: IO[bytes]) -> int | None:
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    import stat

    return st.st_size if stat.S_ISREG(st.st_mode) else None
