"""Benchmark: application/x-www-form-urlencoded parse and serialize, side by side.

Run as ``python bench/bench_form.py`` (``--quick`` for a shorter run).  One run
times every implementation that is importable on the same inputs (best CPU
time over interleaved rounds) and prints ns per call and the ratio to ours
(``>1`` means ours is faster):

* ours: ``percent_encoding.form.parse`` / ``serialize`` (and URLSearchParams)
* urllib.parse: ``parse_qsl(keep_blank_values=True)`` / ``urlencode``
* yarl: ``URL("?" + q).query`` (a MultiDict; yarl's URL cache is cleared
  before each call so it really parses) / ``URL.with_query(pairs)``
* ada_url (or can_ada): ``URLSearchParams(q)`` / append + ``str()``

Inputs: a typical 8-field query, and a 1 MB body of 20,000 fields with escapes
and ``+``.  This is a benchmark, not a test: nothing is asserted except that
the parsers agree on the inputs.
"""

from __future__ import annotations

import sys
import time
import timeit
import urllib.parse
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

import percent_encoding
from percent_encoding import form

QUERY = (
    "q=hello+world&lang=en-US&page=2&sort=relevance&filter=caf%C3%A9"
    "&sid=abc123&utm_source=news&next=%2Fpath%2Fto%3Fx%3D1"
)


def _body() -> str:
    fields = []
    for i in range(20_000):
        v = f"value+{i}+with+spaces%2C+caf%C3%A9+%E2%82%AC" if i % 3 else f"plain{i}"
        fields.append(f"field_{i}={v}")
    # pad the values so the body is about 1 MB
    pad = "z" * max(0, (1_000_000 - len("&".join(fields))) // len(fields))
    return "&".join(f + pad for f in fields)


BODY = _body()


def _parsers() -> dict[str, Callable[[str], object]]:
    impls: dict[str, Callable[[str], object]] = {
        "ours parse(str)": form.parse,
        "ours parse(bytes)": lambda s: form.parse(s.encode("ascii")),
        "ours URLSearchParams": form.URLSearchParams,
        "urllib parse_qsl": lambda s: urllib.parse.parse_qsl(s, keep_blank_values=True),
    }
    try:
        import yarl

        # yarl memoizes URL parsing (an lru_cache on the URL string, and the
        # query on the URL object): clear it so every call really parses.
        clear = getattr(getattr(yarl, "_url", None), "encode_url", None)
        clear_cache: Callable[[], None] = getattr(clear, "cache_clear", lambda: None)

        def yarl_parse(s: str) -> object:
            clear_cache()
            return yarl.URL("?" + s).query

        impls["yarl URL().query"] = yarl_parse
    except ImportError:
        pass
    try:
        import ada_url

        impls["ada_url URLSearchParams"] = lambda s: ada_url.URLSearchParams(s).items()
    except ImportError:
        try:
            import can_ada  # type: ignore[import-not-found]

            impls["can_ada URLSearchParams"] = lambda s: list(can_ada.URLSearchParams(s))
        except ImportError:
            pass
    return impls


def _serializers() -> dict[str, Callable[[list[tuple[str, str]]], object]]:
    impls: dict[str, Callable[[list[tuple[str, str]]], object]] = {
        "ours serialize": form.serialize,
        "urllib urlencode": urllib.parse.urlencode,
    }
    try:
        import yarl

        base = yarl.URL("http://h/")
        impls["yarl with_query"] = lambda pairs: base.with_query(pairs).raw_query_string
    except ImportError:
        pass
    try:
        import ada_url

        def ada_ser(pairs: list[tuple[str, str]]) -> str:
            p = ada_url.URLSearchParams("")
            for k, v in pairs:
                p.append(k, v)
            return str(p)

        impls["ada_url append+str"] = ada_ser
    except ImportError:
        pass
    return impls


def _run(impls: dict[str, Callable[[], object]], budget: float) -> dict[str, float]:
    """Best ns/call of each; rounds interleave the implementations so that
    load from other processes hits them alike."""
    # CPU time, not wall time: on a shared machine, time spent descheduled
    # would otherwise land on whichever implementation was running.
    timers = {name: timeit.Timer(f, timer=time.process_time) for name, f in impls.items()}
    numbers = {name: t.autorange()[0] for name, t in timers.items()}
    best = {name: float("inf") for name in impls}
    spent = 0.0
    rounds = 0
    while rounds < 3 or (spent < budget * len(impls) and rounds < 15):
        for name, t in timers.items():
            elapsed = t.timeit(numbers[name])
            spent += elapsed
            best[name] = min(best[name], elapsed / numbers[name] * 1e9)
        rounds += 1
    return best


def _table(title: str, results: dict[str, float], ours: str) -> None:
    print(f"\n{title}")
    base = results[ours]
    width = max(map(len, results))
    for name, ns in results.items():
        ratio = ns / base
        note = "" if name == ours else f"  x{ratio:.2f} vs ours"
        print(f"  {name:<{width}}  {ns:>14,.0f} ns/call{note}")


def main() -> None:
    budget = 0.1 if "--quick" in sys.argv else 0.5
    print(
        f"percent_encoding {percent_encoding.__version__} "
        f"(kernels: {percent_encoding.IMPLEMENTATION}), Python {sys.version.split()[0]}"
    )
    print(f"query: {len(QUERY)} chars, 8 fields; body: {len(BODY):,} chars, "
          f"{BODY.count('&') + 1:,} fields")
    expected_q = urllib.parse.parse_qsl(QUERY, keep_blank_values=True)
    assert form.parse(QUERY) == expected_q
    assert form.parse(BODY) == urllib.parse.parse_qsl(BODY, keep_blank_values=True)
    pairs_q = expected_q
    pairs_b = form.parse(BODY)

    for label, data in (("8-field query", QUERY), ("1 MB body, 20,000 fields", BODY)):
        calls: dict[str, Callable[[], object]] = {
            name: partial(f, data) for name, f in _parsers().items()
        }
        res = _run(calls, budget)
        _table(f"parse: {label}", res, "ours parse(str)")
    for label, pairs in (("8 pairs", pairs_q), ("20,000 pairs (1 MB)", pairs_b)):
        calls = {name: partial(f, pairs) for name, f in _serializers().items()}
        res = _run(calls, budget)
        _table(f"serialize: {label}", res, "ours serialize")


if __name__ == "__main__":
    main()
