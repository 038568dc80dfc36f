"""The pure twin's URL parser on public URL corpora, against urllib.parse.

``url.parse(s).href`` with the pure twin (``PERCENT_ENCODING_NO_EXTENSIONS=1`` is set
here before the import) over every URL of each corpus file given on the command
line (one URL a line, as in ada's ``url-various-datasets``: ``others/kasztp.txt``,
``files/node_files.txt``, ...; not part of this repository), against
``urllib.parse.urlsplit(s).geturl()`` (no WHATWG semantics: for scale).  Each round
times both over the same URLs, one after the other; the table gives the best
µs/URL over rounds and the median of the rounds' own ratios (urllib's time over
ours: above 1 means ours is faster), so a shared machine's changing speed moves
both sides of a ratio together.  Times are CPU time of this thread.

Usage: python bench/bench_url_pure.py FILE... [--rounds N] [--limit N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

os.environ["PERCENT_ENCODING_NO_EXTENSIONS"] = "1"

from urllib.parse import urlsplit

import percent_encoding
from percent_encoding import url


def _load(path: Path, limit: int) -> list[str]:
    lines = path.read_text(encoding="utf-8").lstrip("\ufeff").splitlines()
    return [s for s in lines if s][:limit]


def _time(fn: Callable[[str], object], urls: list[str]) -> float:
    t0 = time.thread_time()
    for s in urls:
        try:
            fn(s)
        except ValueError:
            pass
    return (time.thread_time() - t0) / len(urls) * 1e6


def _ours(s: str) -> str:
    return url.parse(s).href


def _urllib(s: str) -> str:
    return urlsplit(s).geturl()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--limit", type=int, default=50_000, help="URLs a file at most")
    args = ap.parse_args(argv)
    assert percent_encoding.IMPLEMENTATION == "python"
    print("| corpus | URLs | ours: pure µs/URL | urllib µs/URL | urllib / ours |")
    print("|---|---:|---:|---:|---:|")
    for path in args.files:
        urls = _load(path, args.limit)
        ours: list[float] = []
        theirs: list[float] = []
        for _ in range(args.rounds):
            ours.append(_time(_ours, urls))
            theirs.append(_time(_urllib, urls))
        ratio = statistics.median(t / o for o, t in zip(ours, theirs, strict=True))
        print(f"| {path.name} | {len(urls):,} | {min(ours):.2f} | {min(theirs):.2f} | "
              f"{ratio:.2f}× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
