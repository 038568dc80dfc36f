"""Parse + href of a mixed URL corpus: percent_encoding.url against the peers.

Every contender parses each URL of the corpus and reads its serialization
(``href``, or ``geturl()`` for urllib), in one process, in interleaved rounds;
the table gives the median µs per URL and each peer's time over ours.

Ours three times: "C" is ``url.parse`` with the C twin active
(``src/csrc/url.c`` takes the common URL and builds the URL object; anything
else runs the Python state machine), "pure" the same call with the pure twin
active (the Python state machine, pure-Python kernels), and "py
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

Then, with ``--datasets DIR`` (or ``PERCENT_ENCODING_URL_DATASETS``; a checkout
of ada-url/url-various-datasets, read in place), parse + href on each of ada's
corpora ``userbait``, ``kasztp``, ``isaacs_files`` and ``node_files`` for ours
(C), can_ada and ada-url, with the count of inputs the C parser leaves to the
Python one; a table of URLs that need IDNA, IPv4/IPv6 parsing, escapes,
controls or a non-special scheme; and relative references resolved against a
page: ``url.parse(ref, base)`` with the base a ``URL`` (parsed once) and a
``str``, against ``ada_url.join_url(base, ref)`` and ``urllib.parse.urljoin``.
Every contender catches its own failure (a corpus has a few invalid lines).

A "setters" table times the URL API setters (§6.1): ``URL.replace`` with one
setter on an already parsed URL, for ours with the C twin (``url_setters.c``)
and with the pure twin (``url/_setters.py`` on the Python state machine),
against can_ada's and ada-url's settable attributes on an already parsed
object (then ``href``); the same (URL, setter, value) cases for everyone.

A "per string" section (``--only strings``, and after the dataset tables) holds the
per-string targets of issue 42 on each of ada's corpora, in one run with ratios:
``url.parse(s).href`` and ``.hostname`` against ``can_ada.parse(s)``'s (target: peer
time / ours >= 2), ``url.can_parse(s)`` against ``can_ada.can_parse(s)`` (>= 2), and
on URLs parsed beforehand each component getter and ``origin`` against ``href`` (at
most 2x and 4x its time; the loop is included on both sides).  Each contender is a
loop of its own, written out as a user writes the call (``parse(s).href``: no lambda
or wrapper frame); the inputs are those both parse
(can_parse runs on every line).  Every round times every contender once, one right
after the other; "ns" is the minimum over the rounds, a ratio the median over rounds
of the two times taken in the same round.

Usage: python bench/bench_url.py [--rounds N] [--reps N] [--clock thread|wall]
       [--datasets DIR] [--only datasets|xn|setters|strings]

``--only xn`` times just the rows of ASCII hosts with ``xn--`` labels (a few
repeated, then 3,000 distinct ones) against can_ada; it needs no datasets.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable, Iterator
from pathlib import Path
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
    from percent_encoding import _kernels, _pure

    out = {PURE_NAME: _pure}
    if _kernels.IMPLEMENTATION == "c":
        out[C_NAME] = _kernels.kernels
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


# URLs that leave the common path: IDNA and full-width hosts, IPv4 in other
# forms, IPv6, escapes to decode or encode, controls, tabs and spaces to strip,
# backslashes, non-special schemes.
HARD = [
    "http://Bücher.example/a", "https://xn--nxasmq6b.example/", "http://ＥＸＡＭＰＬＥ.com/",
    "http://faß.de/", "http://日本.jp/パス?q=値", "http://0x7f.0.0.1/", "http://127.1/",
    "http://0300.0250.0.1/", "http://4294967295/", "http://[2001:db8::1]:8080/x",
    "http://[::ffff:192.168.0.1]/", "http://[0:0:0:0:0:0:0:1]/", "http://ex%41mple.com/%7e/",
    "https://h/a%2fb/%2e%2E/c?q=%zz&x=ü#%", "  http://h/a\tb\nc  ", "http://h\\a\\b",
    "https://h/\x01\x7f?\x00#\x1f", "foo://h/p?q#f", "web+app:/a//b", "mailto:a b@c",
    "javascript:alert(1)", "file:///C|/dir/../x", "file://server/share/f", "urn:isbn:0451450523",
]
# ASCII hosts with xn-- labels (Punycode, UTS #46 validity, Bidi, a mark that
# needs the NFC check): the C parser decides them without the Python hook.
XN = [
    "http://xn--bcher-kva.example/a", "https://xn--nxasmq6b.example/", "http://xn--fiqs8s.cn/",
    "http://xn--mgbh0a.example/", "https://www.xn--11b5bs3a9aj6g.in/p?q",
    "http://xn--e1afmkfd.xn--p1ai/", "http://XN--ZCA.example/", "http://xn--ngba8ho06i.com/",
]
JOIN_BASE = "https://www.example.com/dir/sub/page.html?x=1"
JOIN_REFS = [
    "../a/b.html", "img/logo.png", "/abs/path?q=1", "#frag", "?q=2", "//cdn.example.org/x.js",
    "https://other.example/", "./c/./d/../e", "page2.html#top", "../../up.html",
]
DATASETS = ["others/userbait.txt", "others/kasztp.txt", "files/isaacs_files.txt",
            "files/node_files.txt"]


def _guarded(fn: Callable[[str], Any]) -> Callable[[str], Any]:
    def run(s: str) -> Any:
        try:
            return fn(s)
        except ValueError:
            return None

    return run


def _side_by_side(title: str, corpus: list[str], cs: dict[str, Callable[[str], Any]],
                  rounds: int, clock: Callable[[], float], ref: str, peer: str) -> float:
    """Interleaved rounds over the corpus; prints and returns median(peer / ref)."""
    times: dict[str, list[float]] = {k: [] for k in cs}
    for _ in range(rounds):
        for name, fn in cs.items():
            t = clock()
            for s in corpus:
                fn(s)
            times[name].append((clock() - t) / len(corpus) * 1e6)
    print(f"\n{title}")
    print(f"{'contender':<34} {'µs/URL':>8} {'time / ' + ref:>14}")
    for name, ts in times.items():
        r = statistics.median(t / o for t, o in zip(ts, times[ref], strict=True))
        print(f"{name:<34} {statistics.median(ts):8.3f} {r:13.2f}x")
    return statistics.median(p / o for p, o in zip(times[peer], times[ref], strict=True))


def _fallbacks(corpus: list[str], base: Any = None) -> int:
    """How many inputs the C parser leaves to the Python one (not failures)."""
    from percent_encoding import _kernels
    from percent_encoding.errors import URLParseError

    cp = getattr(_kernels.kernels, "url_parse", None)
    if cp is None:
        return len(corpus)
    n = 0
    for s in corpus:
        try:
            n += cp(s, base, True) is None
        except URLParseError:
            pass
    return n


def _distinct_xn(n: int) -> list[str]:
    # n different xn-- hosts (Cyrillic, Greek, Han, Arabic words): more than
    # any cache of ours holds, as in a crawl's link list
    from percent_encoding import idna

    rng = random.Random(5)
    scripts = [(0x430, 0x44F), (0x3B1, 0x3C9), (0x4E00, 0x4EFF), (0x627, 0x64A)]
    out = []
    for i in range(n):
        lo, hi = scripts[i % len(scripts)]
        word = "".join(chr(rng.randint(lo, hi)) for _ in range(rng.randint(3, 9)))
        out.append(f"http://{idna.to_ascii(word)}.example/p")
    return out


def xn_table(peers: dict[str, Callable[[str], Any]], rounds: int,
             clock: Callable[[], float]) -> float:
    """The xn-- hosts rows: peer (can_ada) time / ours, on distinct hosts."""
    _side_by_side(f"parse + href, {len(XN)} URLs with xn-- hosts, repeated "
                  f"({_fallbacks(XN)} left to Python)", XN * 200, peers, rounds, clock,
                  C_NAME, "can_ada")
    distinct = _distinct_xn(3000)
    return _side_by_side(f"parse + href, {len(distinct)} distinct xn-- hosts "
                         f"({_fallbacks(distinct)} left to Python)", distinct, peers, rounds,
                         clock, C_NAME, "can_ada")


# (URL, setter, value): every setter, plain values and ones with work to do.
SETTER_CASES = [
    ("https://www.example.com/path/to/page?query=1#frag", "pathname", "/a/b c/../d"),
    ("https://www.example.com/path/to/page?query=1#frag", "search", "?q=caf\u00e9&x=1"),
    ("https://www.example.com/path/to/page?query=1#frag", "hash", "section 2"),
    ("https://www.example.com/path/to/page?query=1#frag", "host", "cdn.example.org:8443"),
    ("https://www.example.com/path/to/page?query=1#frag", "hostname", "EXAMPLE.net"),
    ("https://www.example.com/path/to/page?query=1#frag", "port", "8080"),
    ("https://www.example.com/path/to/page?query=1#frag", "protocol", "http"),
    ("https://www.example.com/path/to/page?query=1#frag", "username", "user name"),
    ("https://www.example.com/path/to/page?query=1#frag", "password", "p@ss"),
    ("http://h.example/a?b#c", "search", ""),
    ("http://h.example/a?b#c", "port", "0080"),
    ("http://h.example/a?b#c", "host", "192.168.0.1"),
    ("foo://h/p", "pathname", "x?y#z"),
    ("file:///C:/dir/file.txt", "pathname", "/D:/other/./f.txt"),
]


def setters_table(rounds: int, clock: Callable[[], float]) -> float:
    """The setters rows: can_ada time / ours (C); prints the table."""
    from percent_encoding import _kernels, _pure, core, url

    cases = [(url.parse(h), name, {name: v}) for h, name, v in SETTER_CASES]
    reps = 100

    def ours(twin: ModuleType) -> Callable[[], float]:
        def run() -> float:
            old = core._use_kernels(twin)
            try:
                t = clock()
                for _ in range(reps):
                    for u, _name, kw in cases:
                        _ = u.replace(**kw).href
                return clock() - t
            finally:
                core._use_kernels(old)
        return run

    cs: dict[str, Callable[[], float]] = {}
    if _kernels.IMPLEMENTATION == "c":
        cs[C_NAME] = ours(_kernels.kernels)
    cs[PURE_NAME] = ours(_pure)

    def peer(make: Callable[[str], Any]) -> Callable[[], float]:
        objs = [(make(h), name, v) for h, name, v in SETTER_CASES]

        def run() -> float:
            t = clock()
            for _ in range(reps):
                for o, name, v in objs:
                    try:
                        setattr(o, name, v)
                    except ValueError:  # ada's "the setter changed nothing"
                        pass
                    _ = o.href
            return clock() - t
        return run

    try:
        import can_ada

        cs["can_ada"] = peer(can_ada.parse)
    except ImportError:
        pass
    try:
        import ada_url

        cs["ada-url"] = peer(ada_url.URL)
    except ImportError:
        pass
    times: dict[str, list[float]] = {k: [] for k in cs}
    for _ in range(rounds):
        for name, fn in cs.items():
            times[name].append(fn() / (reps * len(cases)) * 1e6)
    ref = C_NAME if C_NAME in times else PURE_NAME
    print(f"\nsetters: URL.replace(one setter) on a parsed URL, {len(cases)} cases "
          f"(peers: setattr on a parsed object, then href)")
    print(f"{'contender':<27} {'µs/set':>8} {'time / ' + ref:>14}")
    for name, ts in times.items():
        r = statistics.median(t / o for t, o in zip(ts, times[ref], strict=True))
        print(f"{name:<27} {statistics.median(ts):8.3f} {r:13.2f}x")
    if "can_ada" not in times:
        return float("nan")
    return statistics.median(p / o for p, o in zip(times["can_ada"], times[ref], strict=True))


def _corpora(root: str) -> Iterator[tuple[str, list[str]]]:
    """(name, lines) of each of ada's corpora found under root."""
    for name in DATASETS:
        path = os.path.join(root, name)
        if not os.path.isfile(path):
            print(f"{path}: not found, skipped")
            continue
        with open(path, encoding="utf-8") as f:
            yield name, f.read().splitlines()


# -- per string (issue 42): parse + one getter, can_parse, getters on parsed URLs ------

_COMPONENTS = ("protocol", "username", "password", "host", "hostname", "port", "pathname",
               "search", "hash")


def _loop(body: str, **names: Any) -> Callable[[list[Any]], None]:
    """A loop over a list whose body is written out (``_ = parse(s).href``), so that
    every contender pays what its own call costs and nothing more."""
    ns: dict[str, Any] = dict(names)
    exec(f"def run(xs):\n    for s in xs:\n        _ = {body}\n", ns)
    run: Callable[[list[Any]], None] = ns["run"]
    return run


def _rounds(loops: dict[str, tuple[Callable[[list[Any]], None], list[Any]]], rounds: int,
            clock: Callable[[], float]) -> dict[str, list[float]]:
    """ns per item of each loop, per round (every loop once a round, one after another)."""
    times: dict[str, list[float]] = {k: [] for k in loops}
    for _ in range(rounds):
        for name, (run, xs) in loops.items():
            t = clock()
            run(xs)
            times[name].append((clock() - t) / len(xs) * 1e9)
    return times


def _ratio(times: dict[str, list[float]], num: str, den: str) -> float:
    return statistics.median(a / b for a, b in zip(times[num], times[den], strict=True))


def per_string_tables(root: str, rounds: int, clock: Callable[[], float],
                      rows: list[dict[str, Any]] | None = None) -> bool:
    """The per-string targets on each of ada's corpora; whether every one was met.
    ``rows`` (when given) gets each corpus's ratios, for bench/plot.py."""
    from percent_encoding import url

    try:
        import can_ada
    except ImportError:
        print("can_ada not installed: no per-string table")
        return False
    met = True
    parse, can_parse, cparse, ccan = url.parse, url.can_parse, can_ada.parse, can_ada.can_parse
    for name, lines in _corpora(root):
        good = [s for s in lines if can_parse(s) and ccan(s)]
        loops = {
            "ours parse+href": (_loop("parse(s).href", parse=parse), good),
            "can_ada parse+href": (_loop("parse(s).href", parse=cparse), good),
            "ours parse+hostname": (_loop("parse(s).hostname", parse=parse), good),
            "can_ada parse+hostname": (_loop("parse(s).hostname", parse=cparse), good),
            "ours can_parse": (_loop("can_parse(s)", can_parse=can_parse), lines),
            "can_ada can_parse": (_loop("can_parse(s)", can_parse=ccan), lines),
        }
        times = _rounds(loops, rounds, clock)
        print(f"\nper string, {name} ({len(lines)} lines, {len(good)} parsed by both)")
        print(f"{'':<24} {'ours ns':>8} {'can_ada ns':>11} {'can_ada / ours':>15} target")
        row: dict[str, Any] = {"corpus": name}
        if rows is not None:
            rows.append(row)
        for what in ("parse+href", "parse+hostname", "can_parse"):
            r = _ratio(times, f"can_ada {what}", f"ours {what}")
            row[what] = r
            ok = r >= 2.0
            met &= ok
            print(f"{what:<24} {min(times['ours ' + what]):8.0f} "
                  f"{min(times['can_ada ' + what]):11.0f} {r:14.2f}x >= 2  "
                  f"{'met' if ok else 'NOT MET'}")
        us = [parse(s) for s in good]
        getters = {"href": (_loop("s.href"), us)}
        for attr in (*_COMPONENTS, "origin"):
            getters[attr] = (_loop(f"s.{attr}"), us)
        times = _rounds(getters, rounds * 3, clock)
        print(f"{'getter on a parsed URL':<24} {'ns':>8} {'/ href':>8} target")
        for attr in ("href", *_COMPONENTS, "origin"):
            r = _ratio(times, attr, "href")
            limit = 4.0 if attr == "origin" else 2.0
            ok = attr == "href" or r <= limit
            met &= ok
            print(f"{attr:<24} {min(times[attr]):8.1f} {r:7.2f}x "
                  f"{'' if attr == 'href' else f'<= {limit:g}  '}"
                  f"{'' if attr == 'href' else 'met' if ok else 'NOT MET'}")
    return met


def _url_peers() -> dict[str, Callable[[str], Any]] | None:
    from percent_encoding import url

    peers: dict[str, Callable[[str], Any]] = {C_NAME: _guarded(lambda s: url.parse(s).href)}
    try:
        import can_ada
    except ImportError:
        return None
    peers["can_ada"] = _guarded(lambda s: can_ada.parse(s).href)
    return peers


def dataset_tables(root: str, rounds: int, clock: Callable[[], float]) -> None:
    from percent_encoding import url

    peers: dict[str, Callable[[str], Any]] = {C_NAME: _guarded(lambda s: url.parse(s).href)}
    try:
        import can_ada

        peers["can_ada"] = _guarded(lambda s: can_ada.parse(s).href)
    except ImportError:
        print("can_ada not installed: no dataset tables")
        return
    try:
        import ada_url

        peers["ada-url"] = _guarded(lambda s: ada_url.URL(s).href)
    except ImportError:
        ada_url = None
    summary = []
    for name, corpus in _corpora(root):
        r = _side_by_side(f"parse + href, {name} ({len(corpus)} lines, "
                          f"{_fallbacks(corpus)} left to the Python parser)",
                          corpus, peers, rounds, clock, C_NAME, "can_ada")
        summary.append((name, r))
    r = _side_by_side(f"parse + href, {len(HARD)} URLs needing IDNA, IPv4/IPv6, escapes, "
                      f"controls, non-special schemes ({_fallbacks(HARD)} left to Python)",
                      HARD * 20, peers, rounds, clock, C_NAME, "can_ada")
    summary.append(("IDNA/IPv4/IPv6/escapes/controls", r))
    summary.append(("xn-- hosts", xn_table(peers, rounds, clock)))
    base = url.parse(JOIN_BASE)
    joins: dict[str, Callable[[str], Any]] = {
        C_NAME + " (base a URL)": _guarded(lambda h: url.parse(h, base).href),
        C_NAME + " (base a str)": _guarded(lambda h: url.parse(h, JOIN_BASE).href),
    }
    if ada_url is not None:
        joins["ada_url.join_url(base, ref)"] = _guarded(lambda h: ada_url.join_url(JOIN_BASE, h))
    from urllib.parse import urljoin

    joins["urllib.parse.urljoin"] = lambda h: urljoin(JOIN_BASE, h)
    if ada_url is not None:
        r = _side_by_side(f"relative references against a page ({len(JOIN_REFS)} refs, "
                          f"{_fallbacks(JOIN_REFS, base)} left to Python)", JOIN_REFS * 100,
                          joins, rounds, clock, C_NAME + " (base a str)",
                          "ada_url.join_url(base, ref)")
        summary.append(("join, base a str, vs ada_url.join_url", r))
    print("\npeer time / ours (>= 1: ours faster)")
    for name, r in summary:
        print(f"  {name:<40} {r:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--reps", type=int, default=200)
    ap.add_argument("--clock", choices=("thread", "wall"), default="thread")
    ap.add_argument("--datasets", default=os.environ.get("PERCENT_ENCODING_URL_DATASETS", ""),
                    help="a checkout of ada-url/url-various-datasets")
    ap.add_argument("--only", choices=("datasets", "xn", "setters", "strings"), default=None)
    ap.add_argument("--json", type=Path,
                    help="also write the per-string ratios here (bench/plot.py --strings)")
    args = ap.parse_args()
    clock = time.thread_time if args.clock == "thread" else time.perf_counter
    if args.only is None:
        print(f"parse + href, {len(CORPUS)} URLs")
        table(contenders(), args.rounds, args.reps, clock)
        print(f"\nparse + getters (href and 9 more), {len(CORPUS)} URLs")
        table(contenders(getters=True), args.rounds, args.reps, clock)
    if args.only in (None, "setters"):
        r = setters_table(args.rounds, clock)
        print(f"\npeer time / ours (>= 1: ours faster)\n  {'setters (can_ada)':<40} {r:.2f}x")
    if args.only == "strings":
        if not args.datasets:
            print("--only strings needs --datasets (or PERCENT_ENCODING_URL_DATASETS)")
            return
        rows: list[dict[str, Any]] = []
        met = per_string_tables(args.datasets, args.rounds, clock, rows)
        print(f"\nper-string targets: {'all met' if met else 'NOT all met'}")
        if args.json:
            args.json.write_text(json.dumps({"series": ["parse+href", "parse+hostname",
                                                         "can_parse"],
                                             "load": os.getloadavg(), "rows": rows},
                                            indent=1) + "\n")
        return
    if args.only == "xn":
        peers = _url_peers()
        if peers is None:
            print("can_ada not installed: no xn-- table")
            return
        r = xn_table(peers, args.rounds, clock)
        print(f"\npeer time / ours (>= 1: ours faster)\n  {'xn-- hosts':<40} {r:.2f}x")
    elif args.datasets:
        dataset_tables(args.datasets, max(3, args.rounds // 3), clock)
        met = per_string_tables(args.datasets, args.rounds, clock)
        print(f"\nper-string targets: {'all met' if met else 'NOT all met'}")


if __name__ == "__main__":
    main()
