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

Second table, with or without corpora: resolving relative references against a base page,
the crawler's idiom ``base = url.parse(page); [url.parse(h, base).href for h in hrefs]``
(and with the base given as a string), against ``urllib.parse.urljoin(page, h)``, one row
a reference shape, interleaved rounds as above.

A third table: absolute URLs outside the parser's commonest shape (a special scheme and
a plain domain: here non-special schemes, and an ASCII host with an ``xn--`` label),
against ``urlsplit(s).geturl()``.

A fourth table, with corpora: the parser alone (``url._parser.basic_parse`` with its
validation errors recorded, then the URL serializer), without the ``URL`` object around
it, over the same URLs, against the same urllib call.  ``url._parser`` is the pure twin's
only URL parser: the first table's calls run it too.

Usage: python bench/bench_url_pure.py [FILE...] [--rounds N] [--limit N]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

os.environ["PERCENT_ENCODING_NO_EXTENSIONS"] = "1"

from urllib.parse import urljoin, urlsplit

import percent_encoding
from percent_encoding import url
from percent_encoding.core import to_usv_string
from percent_encoding.url._parser import Failure, basic_parse, serialize


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


def _machine(s: str) -> str:
    # (what url.parse runs, without the URL object: the URL Standard's basic URL
    # parser, §4.4, as a state machine)
    try:
        return serialize(basic_parse(s, errors=[]))
    except Failure:
        return ""


# The reference shapes of the second table (URL Standard §4.4 relative states).
PAGE = "https://www.example.org/news/2024/article.html?id=7"
REFS: list[tuple[str, str]] = [
    ("path-relative", "img/logo.png"),
    ("dot segments", "../2023/old.html"),
    ("path-absolute with query", "/search?q=url+parser"),
    ("query only", "?page=2"),
    ("fragment only", "#comments"),
    ("scheme-relative", "//cdn.example.net/js/app.js"),
    ("absolute", "https://other.example/a/b"),
    ("needs encoding", "files/a b/ü.pdf"),
]
# Absolute URLs outside the commonest shape (third table; urllib: urlsplit + geturl).
OTHERS: list[tuple[str, str]] = [
    ("opaque path", "mailto:info@example.org?subject=hi"),
    ("opaque path", "urn:isbn:0451450523"),
    ("non-special, authority", "git+ssh://git@github.com/org/repo.git"),
    ("non-special, authority", "redis://cache.internal:6379/0"),
    ("xn-- host", "https://xn--bcher-kva.example/katalog?s=1"),
]


def _versus(fn: Callable[[str], object], urls: list[str], rounds: int
            ) -> tuple[float, float, float]:
    """Best µs of fn and of urllib on urls, and the median of the rounds' urllib / fn."""
    ours: list[float] = []
    theirs: list[float] = []
    for _ in range(rounds):
        ours.append(_time(fn, urls))
        theirs.append(_time(_urllib, urls))
    ratio = statistics.median(t / o for o, t in zip(ours, theirs, strict=True))
    return min(ours), min(theirs), ratio


def _rel_rounds(ref: str, rounds: int, n: int = 2000) -> tuple[float, float, float, float]:
    # best µs of url.parse(ref, URL base), of url.parse(ref, str base), of urljoin,
    # and the median of the rounds' urljoin / ours (URL base) ratios
    base = url.parse(PAGE)
    # (distinct references, each ending in a number: urljoin's urlsplit caches strings)
    batch = [f"{ref}{i}" for i in range(n)]
    a: list[float] = []
    b: list[float] = []
    c: list[float] = []
    for _ in range(rounds):
        a.append(_time(lambda h: url.parse(h, base).href, batch))
        b.append(_time(lambda h: url.parse(h, PAGE).href, batch))
        c.append(_time(lambda h: urljoin(PAGE, h), batch))
    return min(a), min(b), min(c), statistics.median(z / x for x, z in zip(a, c, strict=True))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--limit", type=int, default=50_000, help="URLs a file at most")
    args = ap.parse_args(argv)
    assert percent_encoding.IMPLEMENTATION == "python"
    if args.files:
        print("| corpus | URLs | ours: pure µs/URL | urllib µs/URL | urllib / ours |")
        print("|---|---:|---:|---:|---:|")
    for path in args.files:
        urls = _load(path, args.limit)
        o, t, ratio = _versus(_ours, urls, args.rounds)
        print(f"| {path.name} | {len(urls):,} | {o:.2f} | {t:.2f} | {ratio:.2f}× |")
    print()
    print(f"Relative references against {PAGE}")
    print()
    print("| reference | example | ours, URL base µs | ours, str base µs | urljoin µs "
          "| urljoin / ours (URL base) |")
    print("|---|---|---:|---:|---:|---:|")
    for shape, ref in REFS:
        a, b, c, ratio = _rel_rounds(ref, args.rounds)
        print(f"| {shape} | `{ref}` | {a:.2f} | {b:.2f} | {c:.2f} | {ratio:.2f}× |")
    print()
    print("| URL | example | ours µs | urllib µs | urllib / ours |")
    print("|---|---|---:|---:|---:|")
    for shape, s in OTHERS:
        # (distinct strings: urlsplit keeps a cache of the strings it split)
        batch = [f"{s}{i}" for i in range(2000)]
        o, t, ratio = _versus(_ours, batch, args.rounds)
        print(f"| {shape} | `{s}` | {o:.2f} | {t:.2f} | {ratio:.2f}× |")
    if args.files:
        print()
        print("| corpus | state machine µs/URL | urllib µs/URL | urllib / state machine |")
        print("|---|---:|---:|---:|")
    for path in args.files:
        # (basic_parse takes a USVString, as url.parse hands it on)
        urls = [to_usv_string(s) for s in _load(path, args.limit)]
        o, t, ratio = _versus(_machine, urls, args.rounds)
        print(f"| {path.name} | {o:.2f} | {t:.2f} | {ratio:.2f}× |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
