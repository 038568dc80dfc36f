"""Parse + href of a mixed URL corpus: percent_encoding.url against the peers.

Every contender parses each URL of the corpus and reads its serialization
(``href``, or ``geturl()`` for urllib), in one process, in interleaved rounds;
the table gives the median µs per URL and each peer's time over ours.

Ours three times: "C" is ``url.parse`` with the C twin active
(``_speedups/url.c`` takes the common URL and builds the URL object; anything
else runs the Python state machine), "pure" the same call with the pure twin
active (the Python fast path and state machine, pure-Python kernels), and "py
parser, C kernels" the Python parser with the C twin's kernels (what
``url.parse`` was before url.c).  Peers (each skipped when not
installed; the ``[bench]`` extra installs them): can_ada and ada-url (ada,
C++), yarl, urllib.parse (urlsplit + geturl: no WHATWG semantics, for scale)
and whatwg-url (pure Python).

A second table ("+ getters") also reads the nine URL API getters (protocol,
username, password, host, hostname, port, pathname, search, hash) of each
parsed URL, for the contenders that have them.  Times are CPU time of this
thread (``time.thread_time``; ``--clock wall`` for ``perf_counter``): on a
shared machine, time spent waiting for a CPU is not ours.  Each round times
every contender once; the table gives the median over rounds, and "vs ours"
each contender's time over ours in the same round (median over rounds).

Usage: python bench/bench_url.py [--rounds N] [--reps N] [--clock thread|wall]
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from types import ModuleType
from typing import Any

# A crawler-like mix: mostly plain http(s) URLs, some needing encoding, some
# IDN hosts, IP literals, credentials, dot segments and non-special schemes.
CORPUS = [
    "https://www.example.com/",
    "https://www.example.com/path/to/page?query=1&b=2#frag",
    "http://example.org/search?q=caf%C3%A9+au+lait&lang=fr",
    "https://shop.example.net/products/12345?ref=home&utm_source=news",
    "https://cdn.example.com/static/js/app.min.js?v=3.2.1",
    "http://example.com/a b/c d?x=y z",
    "https://example.com/ü/ß?q=日本語#frag ment",
    "https://api.example.io:8443/v1/items/42?fields=name,price",
    "ftp://ftp.example.com/pub/file.txt",
    "ws://chat.example.com/socket",
    "http://Bücher.example/a?q=ü",
    "https://xn--nxasmq6b.example/",
    "https://192.168.0.1:8080/admin",
    "http://[2001:db8::1]/index.html",
    "https://user:pass@sub.example.org/a/./b/../c",
    "mailto:someone@example.com",
    "file:///C:/dir/file.txt",
    "https://EXAMPLE.COM:443/Mixed/Case?Q=1",
    "https://example.com/path/with%20escapes/and%2Fslash",
    "https://news.example.co.uk/2026/11/24/story.html#comments",
]


C_NAME, PURE_NAME, PY_C_NAME = "ours: C", "ours: pure", "ours: py parser, C kernels"


def kernels() -> dict[str, ModuleType]:
    """The twin each of our contenders runs with."""
    from percent_encoding import _impl, _pure

    out = {PURE_NAME: _pure}
    if _impl.IMPLEMENTATION == "c":
        out[C_NAME] = _impl.kernels
    return out


def _getters(u: Any) -> tuple[str, ...]:
    return (u.href, u.protocol, u.username, u.password, u.host, u.hostname, u.port,
            u.pathname, u.search, u.hash)


def contenders(getters: bool = False) -> dict[str, Callable[[str], Any]]:
    out: dict[str, Callable[[str], Any]] = {}
    from percent_encoding import url

    parse = url.parse
    for name in kernels():
        out[name] = (lambda s: _getters(parse(s))) if getters else (lambda s: parse(s).href)
    if C_NAME in out:
        # The Python parser with the C kernels: url.parse before url.c.
        py = url._parse
        out[PY_C_NAME] = (lambda s: _getters(py(s))) if getters else (lambda s: py(s).href)
    try:
        import can_ada

        out["can_ada"] = (
            (lambda s: _getters(can_ada.parse(s))) if getters else (lambda s: can_ada.parse(s).href)
        )
    except ImportError:
        pass
    try:
        import ada_url

        out["ada-url"] = (
            (lambda s: _getters(ada_url.URL(s))) if getters else (lambda s: ada_url.URL(s).href)
        )
    except ImportError:
        pass
    if getters:
        return out
    try:
        import yarl

        out["yarl"] = lambda s: str(yarl.URL(s))
    except ImportError:
        pass
    from urllib.parse import urlsplit

    out["urllib.parse"] = lambda s: urlsplit(s).geturl()
    try:
        import whatwg_url

        out["whatwg-url"] = lambda s: whatwg_url.parse_url(s).href
    except ImportError:
        pass
    return out


def time_one(fn: Callable[[str], Any], reps: int, twin: ModuleType | None = None,
             clock: Callable[[], float] = time.thread_time) -> float:
    from percent_encoding import core

    corpus = CORPUS
    old = core._use_kernels(twin) if twin is not None else None
    try:
        t = clock()
        for _ in range(reps):
            for s in corpus:
                fn(s)
        return (clock() - t) / (reps * len(corpus)) * 1e6
    finally:
        if old is not None:
            core._use_kernels(old)


def table(cs: dict[str, Callable[[str], Any]], rounds: int, reps: int,
          clock: Callable[[], float]) -> None:
    twins = kernels()
    times: dict[str, list[float]] = {k: [] for k in cs}
    slow = ("whatwg-url", PURE_NAME, PY_C_NAME)
    for _ in range(rounds):
        for name, fn in cs.items():
            n = max(1, reps // 10) if name in slow else reps
            times[name].append(time_one(fn, n, twins.get(name), clock))
    ref = C_NAME if C_NAME in times else PURE_NAME
    print(f"{'contender':<27} {'µs/URL':>8} {'vs ' + ref:>12}")
    for name, ts in times.items():
        ratio = statistics.median(t / o for t, o in zip(ts, times[ref], strict=True))
        print(f"{name:<27} {statistics.median(ts):8.2f} {ratio:11.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--clock", choices=("thread", "wall"), default="thread")
    args = ap.parse_args()
    clock = time.thread_time if args.clock == "thread" else time.perf_counter
    print(f"parse + href, {len(CORPUS)} URLs")
    table(contenders(), args.rounds, args.reps, clock)
    print(f"\nparse + getters (href and 9 more), {len(CORPUS)} URLs")
    table(contenders(getters=True), args.rounds, args.reps, clock)


if __name__ == "__main__":
    main()
