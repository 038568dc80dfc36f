"""References against a base, non-special URLs and xn-- hosts: both twins and ada agree.

``url.parse(ref, base)`` runs the URL Standard's basic URL parser (§4.4) from the
relative states: path-relative, path-absolute, query, fragment, empty,
scheme-relative and absolute references, against a base given as a string, as a URL
the pure twin built (a record) and as one the C twin built (offsets into its href,
``url/_offsets.py``).  The pure twin's parser (``url._parser``) and the C twin's
(``src/csrc/url*.c``) are two implementations of the Standard: they must agree on the
href, every getter, the validation errors with their positions, and failure; and the
href must be what ada (``ada_url``, when installed) gives.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import data_path
from helpers.linear_time import assert_linear
from helpers.twins import IMPLS, twin
from percent_encoding import url as U
from percent_encoding.core import to_usv_string

try:
    import ada_url
except ImportError:  # pragma: no cover - ada-url is a test extra
    ada_url = None

# Each test runs both twins itself (or the pure twin alone, for the timing), so
# ./dev test's pure-twin pass leaves the module out (twins_inside).
pytestmark = [pytest.mark.one_impl, pytest.mark.twins_inside]

ATTRS = ("href", "protocol", "username", "password", "host", "hostname", "port",
         "pathname", "search", "hash", "has_opaque_path", "origin")


def _snapshot(u: U.URL) -> tuple[Any, ...]:
    return (*(getattr(u, a) for a in ATTRS), u.validation_errors)


def _bases(base: str) -> list[Any]:
    # The base as a string, and as a URL each twin built, when it parses.
    out: list[Any] = [base]
    for name in IMPLS:
        with twin(name):
            try:
                out.append(U.parse(base))
            except U.URLParseError:
                return out
    return out


def _parse(ref: str, base: Any) -> tuple[Any, ...] | str:
    try:
        return _snapshot(U.parse(ref, base))
    except U.URLParseError as e:
        return f"failure: {e}"


def _ada(ref: str, base: str | None) -> str | None:
    # (ada takes UTF-8: the USVString a browser would hand it, WebIDL §3.2.11)
    assert ada_url is not None
    ref = to_usv_string(ref)
    base = None if base is None else to_usv_string(base)
    try:
        return str(ada_url.URL(ref, base).href if base is not None else ada_url.URL(ref).href)
    except ValueError:
        return None


def _compare(ref: str, base: str | None) -> tuple[Any, ...] | str:
    """Parse ``ref`` against every form of ``base`` with each twin: all must agree (and
    with ada's href); the pure twin's result."""
    results = []
    for b in _bases(base) if base is not None else [None]:
        for name in IMPLS:
            with twin(name):
                results.append((name, type(b).__name__, _parse(ref, b)))
    first = results[0][2]
    for name, kind, got in results[1:]:
        assert got == first, (ref, base, name, kind)
    if ada_url is not None:
        href = first[0] if isinstance(first, tuple) else None
        assert href == _ada(ref, base), (ref, base)
    return first


def _compare_opaque(s: str) -> bool:
    """``s`` without a base: both twins and ada agree; whether it parses."""
    return isinstance(_compare(s, None), tuple)


def _wpt(name: str) -> list[dict[str, Any]]:
    return [c for c in json.loads(data_path("wpt", name).read_text("utf-8"))
            if isinstance(c, dict)]


def test_wpt_cases_with_a_base() -> None:
    cases = [c for c in _wpt("urltestdata.json") if c.get("base") is not None]
    assert len(cases) > 300
    for c in cases:
        got = _compare(c["input"], c["base"])
        if c.get("failure"):
            assert isinstance(got, str), c
        else:
            assert isinstance(got, tuple) and got[0] == c["href"], c


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
def test_random_references(base: str, head: str, pieces: list[str],
                                                   tail: str) -> None:
    _compare(head + "".join(pieces) + tail, base)


@pytest.mark.parametrize("ref", [
    "img/a.png", "../x/y.html", "./c/./d/../e", "/abs/p?q=1", "?q=2", "#frag", "",
    "//cdn.example.org/x.js", "https://other.example/p", "a b/ü?é#ö", "%2e%2E/x", "..\\y",
    "  \tq\n ", "/a/../../..",
])
@pytest.mark.parametrize("base", ["https://www.example.org/news/2024/a.html?id=7#top",
                                  "file:///C:/Users/x/doc.html", "http://h"])
def test_common_shapes(ref: str, base: str) -> None:
    assert isinstance(_compare(ref, base), tuple), (ref, base)


def test_opaque_base_takes_a_fragment_only() -> None:
    assert isinstance(_compare("#x y", "mailto:a@b?q#f"), tuple)
    assert isinstance(_compare("x", "mailto:a@b"), str)
    for name in IMPLS:
        with twin(name):
            with pytest.raises(U.URLParseError):
                U.parse("x", "mailto:a@b")
            assert U.parse("#x y", "mailto:a@b?q#f").href == "mailto:a@b?q#x%20y"


@pytest.mark.parametrize("name", IMPLS)
def test_common_references(name: str) -> None:
    with twin(name):
        _common_references()


def _common_references() -> None:
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


def test_wpt_cases_without_a_base() -> None:
    cases = [c for c in _wpt("urltestdata.json") if c.get("base") is None]
    assert len(cases) > 100
    for c in cases:
        assert _compare_opaque(c["input"]) == (not c.get("failure")), c


_OPAQUE_HEADS = ["mailto:", "urn:isbn:", "javascript:", "data:text/plain,", "SC:", "a+b.c-d:",
                 "tel:", "blob:", "http:", "file:", "sc:/", " sc:", "\tsc:", "1a:"]
_OPAQUE_PIECES = ["x@y", "123", " ", "  ", "%", "%41", "%zz", "?", "#", "é", "\ud800",
                  "\x00", "\x1f", "\x7f", "'", "/", "\\", "a", "{", "`", "<", "\ufdd0",
                  "\t", "\n", "alert(1)", "\U0001f600", "^", "|", ":"]


@settings(max_examples=2000, deadline=None)
@given(st.sampled_from(_OPAQUE_HEADS), st.lists(st.sampled_from(_OPAQUE_PIECES), max_size=10))
def test_random_opaque_urls(head: str, pieces: list[str]) -> None:
    _compare_opaque(head + "".join(pieces))


@pytest.mark.parametrize("name", IMPLS)
def test_opaque_paths(name: str) -> None:
    for s in ("mailto:x@y", "urn:isbn:123", "javascript:alert(1)", "data:,a b?c#d",
              "sc:x y ?q#f", "tel:+1-555", "MAILTO:a@b?subject=hi%20there", "sc://h/p",
              "sc:/p", " mailto:x", "mailto:x\t", "http:x", "file:x"):
        assert _compare_opaque(s), s
    assert not _compare_opaque("a")
    with twin(name):
        _opaque_paths()


def _opaque_paths() -> None:
    u = U.parse("sc:a b ?c d#e f")
    assert (u.href, u.pathname, u.search, u.hash, u.has_opaque_path) == (
        "sc:a b%20?c%20d#e%20f", "a b%20", "?c%20d", "#e%20f", True)
    assert U.parse("mailto:x", "https://h/a").href == "mailto:x"
    assert U.parse("mailto:\x01x").validation_errors == (U.ValidationError("invalid-URL-unit", 7),)


# --- ASCII hosts with xn-- labels -------------------------------------------------


def test_xn_hosts() -> None:
    cases = [c["input"] for name in ("IdnaTestV2.json", "toascii.json") for c in _wpt(name)
             if c["input"].isascii() and "xn--" in c["input"].lower()]
    assert len(cases) > 500
    parsed = 0
    for host in cases:
        parsed += _compare_opaque("http://" + host + "/p?q#f")
        _compare("//" + host + "/x", "https://h/")
    assert parsed > 0.3 * len(cases), (parsed, len(cases))


# --- the parser's first step (url._parser._special_start) ---------------------------

_START_SCHEMES = ["http://", "HTTPS://", "ws://", "Wss://", "ftp://", "file://", "FILE://",
                  "sc://", "http:/", "http:", "sc:", "sc:/", "Git+SSH://", "a.b-c+d://",
                  "  http://", "ht\ttp://", "sc:\n//"]
_START_HOSTS = ["", "h.example", "H.Example.COM", "localhost", "LocalHost", "1.2.3.4",
                "255.255.255.255", "256.1.1.1", "01.2.3.4", "1.2.3", "1.2.3.4.5", "0x7f.1",
                "a" * 63 + ".b", "a" * 64 + ".b", ("a" * 63 + ".") * 4 + "b",
                ("a" * 62 + ".") * 4 + "b", "xn--bcher-kva.example", "a--b.c", "a-b.c",
                "-a.b", "a.b-", "a.1", "a.b.", "[::1]", "u@h", "h.example.", "h%41",
                "h~!$&'()*+,;=", "h b", "u:p@h.example", ":@h", "u:@1.2.3.4", "a@b@c",
                "u:p:q@h", "%41:%zz@h", "u@", "u@[::1]"]
_START_PORTS = ["", ":", ":0", ":80", ":443", ":21", ":0080", ":65535", ":65536", ":123456",
                ":8x"]
_START_RESTS = ["", "/", "/a/b", "/a/../b", "/./x", "/%2e%2E/", "?q=1", "#f", "/p?q#f",
                "/a b", "\\a", "/C:/x", "/c|/x", "?'", "#'", "/%zz", "/é", "?é", "\t"]


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_START_SCHEMES), st.sampled_from(_START_HOSTS),
       st.sampled_from(_START_PORTS), st.lists(st.sampled_from(_START_RESTS), max_size=3))
def test_random_starts(scheme: str, host: str, port: str, rests: list[str]) -> None:
    s = scheme + host + port + "".join(rests)
    _compare_opaque(s)
    _compare(s, "http://base.example/a/b")


_AUTH_HEADS = ["sc://", "git+ssh://", "SC://", "foo://", "sc:///", "http://", "sc:"]
_AUTH_PIECES = ["h", "H.example", "u", "p", "@", ":", "80", "0080", "99999", "/", "/", ".",
                "..", "%2e", "%2E.", "%", "%41", "%zz", "?", "#", "é", "\ud800", "\x00",
                "\x7f", "'", "\\", "a", "{", "`", "\ufdd0", "<", " ", "^", "|", "[", "]",
                "x.git", "\t"]


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_AUTH_HEADS), st.lists(st.sampled_from(_AUTH_PIECES), max_size=10))
def test_random_authority_urls(head: str, pieces: list[str]) -> None:
    _compare_opaque(head + "".join(pieces))


def test_authorities() -> None:
    for s in ("sc://host/path", "git+ssh://git@github.com/org/repo.git", "sc://H/a/../b?c d#e",
              "sc:///x", "sc://h", "sc://u:p@h:0080/%2e/x", "redis://h:6379/0", "sc://h/a\\b",
              "sc://a@b@c/", "sc://[::1]/", "http://h/", " sc://h/"):
        assert _compare_opaque(s), s
    for s in ("sc://h:x/", "sc://h:99999/", "sc://u@/", "sc://:80/", "sc://a b/"):
        assert not _compare_opaque(s), s
    for name in IMPLS:
        with twin(name):
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
    # (what the parser's first step tries and then leaves to the states)
    "first step, authority": lambda n: "sc://" + "a/" * (n // 2) + " ",
    "first step, opaque path": lambda n: "sc:" + "%41" * (n // 3) + " ",
    "first step, special": lambda n: "http://h/" + "./" * (n // 2) + "%",
    "first step, host": lambda n: "http://" + "a." * (n // 2) + "1a/",
    "first step, escapes": lambda n: "http://h/" + "%41" * (n // 3) + "?" + "%41" * (n // 3),
    "first step, userinfo": lambda n: "sc://" + "a" * (n // 2) + ":" + "b" * (n // 2) + "@h/",
    "first step, userinfo @": lambda n: "http://" + "a:" * (n // 2) + "@h/",
}


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.parametrize("name", list(_LINEAR))
def test_linear_time(name: str) -> None:
    # (the pure twin's parser: the C twin's is timed in test_linear.py)
    with twin("python"):
        for base in (U.parse("http://h.example/a/b"), U.parse("file:///C:/x")):
            assert_linear(lambda s, b=base: U.parse(s, b), _LINEAR[name], label=name,
                          n0=2000)


def test_a_base_string_is_parsed_once_and_left_as_it_was() -> None:
    # (the pure twin remembers a base string's record: resolving must never change it)
    page = "https://h.example/a/b/c?q#f"
    refs = ("../../x", "y", "?z", "#w", "/v", "../../../../..", "./", "")
    want = ["https://h.example/x", "https://h.example/a/b/y", "https://h.example/a/b/c?z",
            "https://h.example/a/b/c?q#w", "https://h.example/v", "https://h.example/",
            "https://h.example/a/b/", "https://h.example/a/b/c?q"]
    for name in IMPLS:
        with twin(name):
            for _ in range(2):
                assert [U.parse(r, page).href for r in refs] == want
