"""Stdin as one argument per line, for the subcommands that take one TEXT or URL
(``url``, ``detect``) and are given none, as ``encode`` and ``decode`` read it.

A line is UTF-8 text without its ``\\n`` or ``\\r\\n``; one that is not UTF-8 is a
data error naming its line (exit status 1), as a non-UTF-8 argument is.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator

from ._term import CLIError


def each_line(command: str) -> Iterator[tuple[int, str]]:
    """(line number from 1, text) for each line of stdin, read one line at a time."""
    for n, raw in enumerate(sys.stdin.buffer, 1):
        if raw.endswith(b"\n"):
            raw = raw[:-2] if raw.endswith(b"\r\n") else raw[:-1]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            raise CLIError(f"line {n}: not valid UTF-8 (byte 0x{raw[e.start]:02X} at offset "
                           f"{e.start}); {command} reads UTF-8 text", 1) from None
        yield n, text
