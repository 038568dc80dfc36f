"""The pure twin's fast path for references against a base (url._fast_rel) vs the state machine.

``url.parse(ref, base)`` without the C twin resolves the common reference shapes
(path-relative, path-absolute, query, fragment, empty, scheme-relative, absolute) on
strings; everything it takes must come out as the URL Standard's basic URL parser (§4.4,
``url._parser``) gives it: href, every component, the validation errors with their
positions, and failure (the fast path never takes an input the machine fails on).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import data_path
from helpers.linear_time import assert_linear
from percent_encoding import url as U
from percent_encoding.core import to_usv_string
from percent_encoding.url._fast import fast_href
from percent_encoding.url._fast_rel import (
    fast_authority_href,
    fast_nonspecial_href,
    fast_opaque_href,
    fast_rel_href,
)
from percent_encoding.url._parser import Failure, basic_parse, serialize
from percent_encoding.url._record import record_of

ATTRS = ("href", "protocol", "username", "password", "host", "hostname", "port",
         "pathname", "search", "hash", "has_opaque_path", "origin")


def _bases(base: str) -> list[Any]:
    # The base as a string, as a URL holding a record (the state machine's), and as a
    # URL holding offsets (the absolute fast path's), when it parses.
    out: list[Any] = [base]
    try:
        rec = basic_parse(to_usv_string(base))
    except Failure:
        return out
    out.append(U.URL._from_record(rec))
    r = fast_href(to_usv_string(base))
    if r is not None:
        u = object.__new__(U.URL)
        U._init_parts(u, *r)
        out.append(u)
    return out


def _compare(ref: str, base: str) -> int:
    """Check every fast result for ``ref`` against ``base``; how many the fast path took."""
    text = to_usv_string(ref)
    try:
        brec = basic_parse(to_usv_string(base))
    except Failure:
        brec = None
    taken = 0
    for b in _bases(base):
        r = fast_rel_href(text, U._base_parts(b))
        if r is None:
            continue
        taken += 1
        assert brec is not None, (ref, base)
        errs: list[tuple[str, int]] = []
        try:
            rec = basic_parse(text, brec, errors=errs)
        except Failure as e:  # pragma: no cover - a failure here is the bug
            raise AssertionError(f"fast path took {ref!r} on {base!r}; the machine fails: "
                                 f"{e.name} at {e.position}") from None
        href, parts, found = r
        assert href == serialize(rec), (ref, base, type(b))
        assert record_of(href, parts) == rec, (ref, base, type(b))
        assert found == errs, (ref, base, type(b))
        fast_url = object.__new__(U.URL)
        U._init_parts(fast_url, href, parts, found)
        slow_url = U.URL._from_record(rec)
        for a in ATTRS:
            assert getattr(fast_url, a) == getattr(slow_url, a), (ref, base, a)
    return taken


_SPECIAL = ("http", "https", "ws", "wss", "ftp", "file")


def _clean_parse(ref: str, base: str) -> bool:
    errs: list[tuple[str, int]] = []
    try:
        basic_parse(to_usv_string(ref), basic_parse(to_usv_string(base)), errors=errs)
    except Failure:
        return False
    return not errs


def test_wpt_cases_with_a_base() -> None:
    cases = [c for c in json.loads(data_path("wpt", "urltestdata.json").read_text("utf-8"))
             if isinstance(c, dict) and c.get("base") is not None]
    assert len(cases) > 300
    taken = sum(_compare(c["input"], c["base"]) > 0 for c in cases)
    # The plain ones: a special base, an ASCII reference with no scheme or a special
    # one, and an input the machine parses with no validation error.
    plain = [c for c in cases if c["base"].split(":")[0] in ("http", "https", "file")
             and c["input"].isascii()
             and (":" not in c["input"] or c["input"].split(":")[0].lower() in _SPECIAL)
             and _clean_parse(c["input"], c["base"])]
    plain_taken = sum(_compare(c["input"], c["base"]) > 0 for c in plain)
    assert plain_taken >= 0.9 * len(plain), (plain_taken, len(plain))
    # (wpt's cases with a base are mostly edge cases the state machine takes)
    assert taken >= 0.4 * len(cases), (taken, len(cases))


_BASES = [
    "http://h.example/a/b/c.html?x=1#y",
    "https://u:p@h.example:8080/",
    "http://H.EXAMPLE",
    "ws://[::1]/x/",
    "ftp://1.2.3.4/a",
    "https://ex.com/a%2e/b/..%2f/?q=1",
    "http://xn--bcher-kva.example/a/",
    "https://bücher.example/ä/ö?ü#é",
    "file:///C:/dir/f.txt",
    "file:///C:",
    "file:///C:/",
    "file:///c|/a/b",
    "file://host/share/x",
    "file:///tmp/a/b",
    "file:///",
    "mailto:x@y",
    "data:text/plain,abc#frag",
    "sc:opaque?q",
    "sc://h/p",
    "javascript:alert(1)",
]
_HEADS = ["", "", "", "/", "//", "?", "#", "./", "../", "\\", "/\\", " ", "\t", "\x00 ",
          "C|", "c:", "/C|/", "//h.example", "//h.example:80", "http://x", "http:", "file:",
          "File://H/", "mailto:", "urn:isbn:", "SC:", "javascript:"]
_PIECES = ["a", "img", "x.html", ".", "..", "%2e", "%2E", ".%2e", "%2e%2E", "/", "/", "\\",
           "?", "#", " ", "%", "%41", "%zz", "\t", "\n", "\r", "é", "\ud800", "\x00", "'",
           "C|", "c:", "|", "~", "=", "&", "@", ":", "^", "{", "`", "\x7f", "\u00a0",
           "\ufdd0", "\U0001f600", "q=1", "<", '"']


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_BASES), st.sampled_from(_HEADS),
       st.lists(st.sampled_from(_PIECES), max_size=10), st.sampled_from(["", " ", "\x01", "\n"]))
def test_random_references_equal_the_state_machine(base: str, head: str, pieces: list[str],
                                                   tail: str) -> None:
    _compare(head + "".join(pieces) + tail, base)


@pytest.mark.parametrize("ref", [
    "img/a.png", "../x/y.html", "./c/./d/../e", "/abs/p?q=1", "?q=2", "#frag", "",
    "//cdn.example.org/x.js", "https://other.example/p", "a b/ü?é#ö", "%2e%2E/x", "..\\y",
    "  \tq\n ", "/a/../../..",
])
@pytest.mark.parametrize("base", ["https://www.example.org/news/2024/a.html?id=7#top",
                                  "file:///C:/Users/x/doc.html", "http://h"])
def test_common_shapes_take_the_fast_path(ref: str, base: str) -> None:
    assert _compare(ref, base) == len(_bases(base)), (ref, base)


def test_opaque_base_takes_a_fragment_only() -> None:
    assert _compare("#x y", "mailto:a@b?q#f") == 2
    assert fast_rel_href("x", U._base_parts("mailto:a@b")) is None
    with pytest.raises(U.URLParseError):
        U.parse("x", "mailto:a@b")
    assert U.parse("#x y", "mailto:a@b?q#f").href == "mailto:a@b?q#x%20y"


def test_parse_uses_it_and_agrees() -> None:
    base = U.parse("https://www.example.org/news/2024/article.html?id=7")
    got = [U.parse(h, base).href for h in ("img/a.png", "../x.html", "/p?q", "?r", "#s",
                                            "//cdn.example/x.js", "./a/./b/../c")]
    assert got == [
        "https://www.example.org/news/2024/img/a.png",
        "https://www.example.org/news/x.html",
        "https://www.example.org/p?q",
        "https://www.example.org/news/2024/article.html?r",
        "https://www.example.org/news/2024/article.html?id=7#s",
        "https://cdn.example/x.js",
        "https://www.example.org/news/2024/a/c",
    ]
    assert U.URL("..\\b c", base).validation_errors == (
        U.ValidationError("invalid-reverse-solidus", 2), U.ValidationError("invalid-URL-unit", 4))
    assert U.can_parse("x", "https://a.example/") and not U.can_parse("x", "mailto:a")
    with pytest.raises(TypeError):
        U.parse("x", 3)  # type: ignore[arg-type]


# --- non-special URLs with an opaque path (no base) -----------------------------------


def _compare_opaque(s: str) -> bool:
    text = to_usv_string(s)
    r = fast_nonspecial_href(text)
    if r is None:
        return False
    errs: list[tuple[str, int]] = []
    try:
        rec = basic_parse(text, errors=errs)
    except Failure as e:  # pragma: no cover - a failure here is the bug
        raise AssertionError(f"fast path took {s!r}; the machine fails: {e.name}") from None
    href, parts, found = r
    assert href == serialize(rec), s
    assert record_of(href, parts) == rec, s
    assert found == errs, s
    fast_url = object.__new__(U.URL)
    U._init_parts(fast_url, href, parts, found)
    slow_url = U.URL._from_record(rec)
    for a in ATTRS:
        assert getattr(fast_url, a) == getattr(slow_url, a), (s, a)
    return True


def test_wpt_cases_opaque_paths() -> None:
    cases = [c for c in json.loads(data_path("wpt", "urltestdata.json").read_text("utf-8"))
             if isinstance(c, dict)]
    taken = sum(_compare_opaque(c["input"]) for c in cases)
    assert taken >= 80, taken


_OPAQUE_HEADS = ["mailto:", "urn:isbn:", "javascript:", "data:text/plain,", "SC:", "a+b.c-d:",
                 "tel:", "blob:", "http:", "file:", "sc:/", " sc:", "\tsc:", "1a:"]
_OPAQUE_PIECES = ["x@y", "123", " ", "  ", "%", "%41", "%zz", "?", "#", "é", "\ud800",
                  "\x00", "\x1f", "\x7f", "'", "/", "\\", "a", "{", "`", "<", "\ufdd0",
                  "\t", "\n", "alert(1)", "\U0001f600", "^", "|", ":"]


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(_OPAQUE_HEADS), st.lists(st.sampled_from(_OPAQUE_PIECES), max_size=10))
def test_random_opaque_urls_equal_the_state_machine(head: str, pieces: list[str]) -> None:
    _compare_opaque(head + "".join(pieces))


def test_opaque_fast_path_is_taken_and_parse_uses_it() -> None:
    for s in ("mailto:x@y", "urn:isbn:123", "javascript:alert(1)", "data:,a b?c#d",
              "sc:x y ?q#f", "tel:+1-555", "MAILTO:a@b?subject=hi%20there"):
        assert _compare_opaque(s), s
    for s in ("sc://h/p", "sc:/p", " mailto:x", "mailto:x\t", "http:x", "file:x", "a"):
        assert fast_opaque_href(s) is None, s
    u = U.parse("sc:a b ?c d#e f")
    assert (u.href, u.pathname, u.search, u.hash, u.has_opaque_path) == (
        "sc:a b%20?c%20d#e%20f", "a b%20", "?c%20d", "#e%20f", True)
    assert U.parse("mailto:x", "https://h/a").href == "mailto:x"
    assert U.parse("mailto:\x01x").validation_errors == (U.ValidationError("invalid-URL-unit", 7),)


# --- ASCII hosts with xn-- labels (the absolute fast path, url._fast) ----------------


def test_xn_hosts_take_the_fast_path_and_equal_the_state_machine() -> None:
    from percent_encoding.url._parser import fast_parse

    cases = [c["input"] for name in ("IdnaTestV2.json", "toascii.json")
             for c in json.loads(data_path("wpt", name).read_text("utf-8"))
             if isinstance(c, dict) and c["input"].isascii() and "xn--" in c["input"].lower()]
    assert len(cases) > 500
    taken = 0
    for host in cases:
        s = "http://" + host + "/p?q#f"
        errs: list[tuple[str, int]] = []
        fast = fast_parse(s, errs)
        if fast is None:
            continue
        taken += 1
        slow_errs: list[tuple[str, int]] = []
        slow = basic_parse(s, errors=slow_errs)
        assert fast == (slow, serialize(slow)), s
        assert errs == slow_errs, s
        assert U.parse(s).href == serialize(slow), s
        assert _compare("//" + host + "/x", "https://h/") >= 0
    assert taken > 0.8 * len(cases), (taken, len(cases))


_AUTH_HEADS = ["sc://", "git+ssh://", "SC://", "foo://", "sc:///", "http://", "sc:"]
_AUTH_PIECES = ["h", "H.example", "u", "p", "@", ":", "80", "0080", "99999", "/", "/", ".",
                "..", "%2e", "%2E.", "%", "%41", "%zz", "?", "#", "é", "\ud800", "\x00",
                "\x7f", "'", "\\", "a", "{", "`", "\ufdd0", "<", " ", "^", "|", "[", "]",
                "x.git", "\t"]


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_AUTH_HEADS), st.lists(st.sampled_from(_AUTH_PIECES), max_size=10))
def test_random_authority_urls_equal_the_state_machine(head: str, pieces: list[str]) -> None:
    _compare_opaque(head + "".join(pieces))


def test_authority_fast_path_is_taken() -> None:
    for s in ("sc://host/path", "git+ssh://git@github.com/org/repo.git", "sc://H/a/../b?c d#e",
              "sc:///x", "sc://h", "sc://u:p@h:0080/%2e/x", "redis://h:6379/0", "sc://h/a\\b"):
        assert _compare_opaque(s), s
        assert fast_authority_href(s) is not None, s
    for s in ("sc://a@b@c/", "sc://[::1]/", "sc://h:x/", "sc://h:99999/", "sc://u@/",
              "sc://:80/", "sc://a b/", "http://h/", " sc://h/"):
        assert fast_authority_href(s) is None, s
    assert U.parse("SC://u@H:0080/a/./b/../c").href == "sc://u@H:80/a/c"


_LINEAR = {
    "segments": lambda n: "a/" * n,
    "dot segments": lambda n: "../" * n + "x",
    "%2e segments": lambda n: "b/%2e%2E/" * (n // 3),
    "backslashes": lambda n: "a\\" * n,
    "tabs": lambda n: "a\t" * n,
    "query": lambda n: "?" + "é " * n,
    "fragment": lambda n: "#" + "%zz" * n,
    "scheme-like": lambda n: "a" * n + "/:",
    "spaces": lambda n: " " * n + "x" + " " * n,
    "opaque path": lambda n: "sc:" + " a" * n + "?q",
    "authority path": lambda n: "sc://h/" + "a/../" * (n // 5) + "é",
}


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.parametrize("name", list(_LINEAR))
def test_linear_time(name: str) -> None:
    for base in (U.parse("http://h.example/a/b"), U.parse("file:///C:/x")):
        b = U._base_parts(base)
        assert b is not None
        assert_linear(lambda s, b=b: fast_rel_href(s, b), _LINEAR[name], label=name, n0=2000)
