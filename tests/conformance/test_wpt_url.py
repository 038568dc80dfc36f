"""The URL parser against web-platform-tests' URL suites (the vendored tests/data/wpt).

* urltestdata.json: every success case (every attribute, and the origin where
  given) and every failure case, as wpt's url-constructor and url-origin tests
  check them;
* setters_tests.json: each setter, as wpt's url-setters test runs them;
* toascii.json and IdnaTestV2.json: the host as ``new URL("https://" + input +
  "/x").host`` gives it, ``null`` meaning failure (wpt's IdnaTestV2 and
  toascii tests; wpt skips the empty input, which cannot be tested that way).

Each test collects every mismatch and reports the first ones, so one run shows
how far off a regression is.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from helpers import data_path
from percent_encoding import url as U
from percent_encoding.errors import URLParseError

ATTRS = ("href", "protocol", "username", "password", "host", "hostname", "port",
         "pathname", "search", "hash")


def _load(name: str) -> Any:
    return json.loads(data_path("wpt", name).read_text(encoding="utf-8"))


def _report(failures: list[str], total: int) -> None:
    assert not failures, f"{len(failures)}/{total} failed:\n" + "\n".join(failures[:20])


def test_urltestdata() -> None:
    cases = [c for c in _load("urltestdata.json") if isinstance(c, dict)]
    assert len(cases) == 891
    failures = []
    # the cases that give searchParams (wpt's url-constructor compares it too)
    assert sum("searchParams" in c for c in cases) == 9
    for c in cases:
        try:
            u = U.parse(c["input"], c.get("base"))
        except URLParseError as e:
            if not c.get("failure"):
                failures.append(f"{c['input']!r} base={c.get('base')!r}: raised {e}")
            continue
        if c.get("failure"):
            failures.append(f"{c['input']!r} base={c.get('base')!r}: parsed as {u.href!r}")
            continue
        bad = [(a, getattr(u, a), c[a]) for a in ATTRS if getattr(u, a) != c[a]]
        if "origin" in c and u.origin != c["origin"]:
            bad.append(("origin", u.origin, c["origin"]))
        if "searchParams" in c and str(u.search_params) != c["searchParams"]:
            bad.append(("searchParams", str(u.search_params), c["searchParams"]))
        if str(u) != u.href or not U.can_parse(c["input"], c.get("base")):
            bad.append(("str/can_parse", str(u), u.href))
        if bad:
            failures.append(f"{c['input']!r} base={c.get('base')!r}: {bad}")
    _report(failures, len(cases))


def test_urltestdata_failures_are_ours_with_a_name() -> None:
    cases = [c for c in _load("urltestdata.json") if isinstance(c, dict) and c.get("failure")]
    assert len(cases) == 267
    for c in cases:
        assert not U.can_parse(c["input"], c.get("base"))
        with pytest.raises(URLParseError) as ei:
            U.parse(c["input"], c.get("base"))
        assert ei.value.name, c
        assert isinstance(ei.value, ValueError)


def test_setters() -> None:
    data = _load("setters_tests.json")
    failures = []
    total = 0
    for attr, cases in data.items():
        if attr == "comment":
            continue
        for c in cases:
            total += 1
            before = U.parse(c["href"])
            href_before = before.href
            after = before.replace(**{attr: c["new_value"]})
            bad = [(k, getattr(after, k), v) for k, v in c["expected"].items()
                   if getattr(after, k) != v]
            if bad:
                failures.append(f"{attr} {c['href']!r} <- {c['new_value']!r}: {bad}")
            assert before.href == href_before  # immutable: the original is untouched
    assert total == 278
    _report(failures, total)


@pytest.mark.parametrize("name,count", [("toascii.json", 87), ("IdnaTestV2.json", 2671)])
def test_hosts(name: str, count: int) -> None:
    cases = [c for c in _load(name) if isinstance(c, dict)]
    assert len(cases) == count
    failures = []
    for c in cases:
        if c["input"] == "":
            continue  # wpt skips it: "https:///x" is not a host test
        try:
            got: str | None = U.parse("https://" + c["input"] + "/x").host
        except URLParseError:
            got = None
        if got != c["output"]:
            failures.append(f"{c['input']!r}: want {c['output']!r}, got {got!r}")
    _report(failures, len(cases))


def test_idna_to_ascii_is_what_the_host_parser_does() -> None:
    # percent_encoding.idna.to_ascii is the domain parser the host parser runs (§3.3).
    from percent_encoding import idna
    from percent_encoding.errors import IDNAError

    for c in _load("toascii.json") + _load("IdnaTestV2.json")[::7]:
        if not isinstance(c, dict):
            continue
        d = str(c["input"])
        if not d or "%" in d:
            continue
        try:
            want: str | None = U.parse("https://" + d + "/x").host
        except ValueError:
            want = None
        try:
            got: str | None = idna.to_ascii(d)
        except IDNAError:
            got = None
        assert got == want, d
