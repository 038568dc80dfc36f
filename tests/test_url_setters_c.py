"""The URL API setters in C (``src/csrc/url_setters.c``) against the Python setters.

``_speedups.url_replace(url, changes)`` returns the URL that ``URL.replace``
gives, or None where the Python setters (``url/_setters.py``, the reference and
the pure twin) must run.  Here: wpt's setters_tests.json through the C path
with no fallback; C against the Python setters, run on a record the Python
parser made, on generated (URL, setter, value) triples with hostile values
(href, every component, the validation errors, the exception); linear time on
long values; what falls back.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import data_path
from helpers.linear_time import assert_linear
from helpers.twins import C_URL as C
from percent_encoding import url as U
from percent_encoding.core import to_usv_string
from percent_encoding.errors import PercentEncodingTypeError, URLParseError
from percent_encoding.url._parser import Failure, basic_parse, serialize
from percent_encoding.url._record import record_of
from percent_encoding.url._setters import SETTERS

needs_c = pytest.mark.skipif(C is None, reason="the C twin is not built")

ATTRS = ("href", "protocol", "username", "password", "host", "hostname", "port",
         "pathname", "search", "hash", "origin", "has_opaque_path")


def _python(href: str, changes: dict[str, str]) -> tuple[str, Any]:
    """The Python setters on the record the Python parser makes of href:
    ("ok", (href, errors)) or ("raise", (type, name, position, message))."""
    rec = basic_parse(href)
    errs: list[tuple[str, int]] = []
    try:
        for name, value in changes.items():
            rec = SETTERS[name](rec, to_usv_string(value), errs)
    except URLParseError as e:
        return "raise", (type(e), e.name, e.position, str(e))
    return "ok", (serialize(rec), errs, U.URL._from_record(rec))


def _c(u: U.URL, changes: dict[str, str]) -> tuple[str, Any]:
    assert C is not None
    try:
        got = C.url_replace(u, changes)
    except URLParseError as e:
        return "raise", (type(e), e.name, e.position, str(e))
    return "ok", got


def _check(href: str, changes: dict[str, str], *, fallback_ok: bool = False) -> None:
    """C and Python give the same URL (or the same exception)."""
    u = U.parse(href)
    want = _python(href, changes)
    got = _c(u, changes)
    if got == ("ok", None):
        assert fallback_ok, (href, changes, "fell back to Python")
        return
    assert got[0] == want[0], (href, changes, got, want)
    if got[0] == "raise":
        assert got[1] == want[1], (href, changes)
        return
    c_url = got[1]
    w_href, w_errs, w_url = want[1]
    assert c_url.href == w_href, (href, changes)
    assert [tuple(e) for e in c_url.validation_errors] == w_errs, (href, changes)
    assert isinstance(c_url, U.URL) and type(c_url.validation_errors) is tuple
    # the offsets say what the record says, component by component
    assert c_url._parts is not None
    assert record_of(c_url.href, c_url._parts) == basic_parse(w_href), (href, changes)
    for a in ATTRS:
        assert getattr(c_url, a) == getattr(w_url, a), (href, changes, a)


# --- wpt -----------------------------------------------------------------------


def _wpt() -> list[tuple[str, str, str, dict[str, str]]]:
    data = json.loads(data_path("wpt", "setters_tests.json").read_text(encoding="utf-8"))
    return [(attr, c["href"], c["new_value"], c["expected"])
            for attr, cases in data.items() if attr != "comment" for c in cases]


@needs_c
@pytest.mark.one_impl
def test_wpt_setters_in_c_without_fallback() -> None:
    assert C is not None
    cases = _wpt()
    assert len(cases) == 278
    failures = []
    for attr, href, value, expected in cases:
        u = U.parse(href)
        got = C.url_replace(u, {attr: value})
        if got is None:
            failures.append(f"{attr} {href!r} <- {value!r}: fell back")
            continue
        bad = [(k, getattr(got, k), v) for k, v in expected.items() if getattr(got, k) != v]
        if bad:
            failures.append(f"{attr} {href!r} <- {value!r}: {bad}")
        _check(href, {attr: value})
    assert not failures, "\n".join(failures[:20])


def test_wpt_setters_through_replace() -> None:
    # URL.replace on the active twin (the C one takes url_replace)
    for attr, href, value, expected in _wpt():
        got = U.parse(href).replace(**{attr: value})
        for k, v in expected.items():
            assert getattr(got, k) == v, (attr, href, value, k)


# --- the Standard's early returns, one by one ------------------------------------------

_EDGES: list[tuple[str, dict[str, str], str]] = [
    # protocol: special <-> non-special refused, file with credentials or a port,
    # a file URL with an empty host, the default port dropped, junk after ':'
    ("http://h/p", {"protocol": "foo"}, "http://h/p"),
    ("foo://h/p", {"protocol": "http"}, "foo://h/p"),
    ("http://u@h/p", {"protocol": "file"}, "http://u@h/p"),
    ("http://h:8/p", {"protocol": "file"}, "http://h:8/p"),
    ("http://h/p", {"protocol": "file"}, "file://h/p"),
    ("file:///p", {"protocol": "http"}, "file:///p"),
    ("file://h/p", {"protocol": "https"}, "https://h/p"),
    ("http://h:443/p", {"protocol": "https"}, "https://h/p"),
    ("http://h/p", {"protocol": "wss:x/y"}, "wss://h/p"),
    ("http://h/p", {"protocol": "ht tp"}, "http://h/p"),
    ("http://h/p", {"protocol": "1http"}, "http://h/p"),
    ("http://h/p", {"protocol": "HT\tTPS"}, "https://h/p"),
    ("foo://h/p", {"protocol": "B+a.r-1"}, "b+a.r-1://h/p"),
    # username/password: no host, empty host, file
    ("foo:/p", {"username": "u"}, "foo:/p"),
    ("foo:///p", {"username": "u"}, "foo:///p"),
    ("file://h/p", {"password": "x"}, "file://h/p"),
    ("http://h/", {"username": "a:b@c\t", "password": "p:@"}, "http://a%3Ab%40c%09:p%3A%40@h/"),
    ("http://u:p@h/", {"username": "", "password": ""}, "http://h/"),
    ("http://u:p@h/", {"username": ""}, "http://:p@h/"),
    # port: cannot have a port, "" vs digits vs trailing garbage, range, leading zeros
    ("file://h/p", {"port": "8"}, "file://h/p"),
    ("foo:/p", {"port": "8"}, "foo:/p"),
    ("http://h:8/", {"port": ""}, "http://h/"),
    ("http://h:8/", {"port": "\t"}, "http://h:8/"),
    ("http://h/", {"port": "81x"}, "http://h:81/"),
    ("http://h/", {"port": "x81"}, "http://h/"),
    ("http://h/", {"port": "000080"}, "http://h/"),
    ("http://h/", {"port": "0" * 5000 + "8"}, "http://h:8/"),
    ("http://h/", {"port": "65536"}, "http://h/"),
    ("http://h:1/", {"port": "9" * 5000}, "http://h:1/"),
    ("http://h/", {"port": "65535"}, "http://h:65535/"),
    # host: opaque path, the port part, a bad port keeps the host, empty values
    ("mailto:x", {"host": "h"}, "mailto:x"),
    ("http://h/p", {"host": "a.b:81/x?y#z"}, "http://a.b:81/p"),
    ("http://h:8/p", {"host": "a.b:"}, "http://a.b:8/p"),
    ("http://h:8/p", {"host": "a.b:x"}, "http://a.b:8/p"),
    ("http://h:8/p", {"host": "a.b:99999"}, "http://a.b:8/p"),
    ("http://h/p", {"host": ":80"}, "http://h/p"),
    ("http://h/p", {"host": ""}, "http://h/p"),
    ("foo://h/p", {"host": ""}, "foo:///p"),
    ("foo://u@h/p", {"host": ""}, "foo://u@h/p"),
    ("foo://h:8/p", {"host": ""}, "foo://h:8/p"),
    ("foo:/.//p", {"host": "h"}, "foo://h//p"),
    ("http://h/p", {"host": "[::1]:8"}, "http://[::1]:8/p"),
    ("http://h/p", {"host": "[::1"}, "http://h/p"),
    ("http://h/p", {"host": "a@b"}, "http://h/p"),
    ("http://h/p", {"host": "EX%41MPLE.com"}, "http://example.com/p"),
    ("http://h/p", {"host": "0x7f.1"}, "http://127.0.0.1/p"),
    ("http://h/p", {"host": "ｅｘａｍｐｌｅ.com"}, "http://example.com/p"),
    ("http://h/p", {"host": "bücher.de"}, "http://xn--bcher-kva.de/p"),
    ("file://h/p", {"host": "localhost"}, "file:///p"),
    ("file://h/p", {"host": "x:8"}, "file://h/p"),
    ("file://h/p", {"host": ""}, "file:///p"),
    ("file:///p", {"host": "a\\b"}, "file://a/p"),
    # hostname: a port refused, brackets
    ("http://h/p", {"hostname": "a:8"}, "http://h/p"),
    ("http://h/p", {"hostname": "[::1]:8"}, "http://h/p"),
    ("http://h:8/p", {"hostname": "[1::]"}, "http://[1::]:8/p"),
    # pathname: opaque paths, '?' and '#' are path code points, no host
    ("mailto:x", {"pathname": "y"}, "mailto:x"),
    ("http://h/p", {"pathname": "a?b#c"}, "http://h/a%3Fb%23c"),
    ("http://h/p", {"pathname": ""}, "http://h/"),
    ("foo://h/p", {"pathname": ""}, "foo://h"),
    ("foo:/p", {"pathname": ""}, "foo:/"),
    ("foo:/p", {"pathname": "//x"}, "foo:/.//x"),
    ("foo://h/p", {"pathname": "x\\y"}, "foo://h/x\\y"),
    ("http://h/p", {"pathname": "\\a\\..\\b\\.\\"}, "http://h/b/"),
    ("file:///p", {"pathname": "c|/x/../.."}, "file:///c:/"),
    ("file:///p", {"pathname": "/%2e%2E/a"}, "file:///a"),
    # search, hash: "" is null, one leading '?' / '#' dropped, '#' in a query
    ("http://h/p?q#f", {"search": ""}, "http://h/p#f"),
    ("http://h/p", {"search": "?"}, "http://h/p?"),
    ("http://h/p", {"search": "??a#b'"}, "http://h/p??a%23b%27"),
    ("foo://h/p", {"search": "a#b'"}, "foo://h/p?a%23b'"),
    ("http://h/p#f", {"hash": ""}, "http://h/p"),
    ("http://h/p", {"hash": "#"}, "http://h/p#"),
    ("http://h/p", {"hash": "##a b"}, "http://h/p##a%20b"),
    ("data:a b ?q", {"search": ""}, "data:a b%20"),
    ("data:a b #f", {"hash": ""}, "data:a b%20"),
    ("mailto:x", {"search": "\t?y", "hash": "\nz"}, "mailto:x??y#z"),
    # href
    ("http://h/p", {"href": " FOO://X/\t./y "}, "foo://X/y"),
    # several, in the order given
    ("http://h/p", {"protocol": "foo", "host": "x", "pathname": "a", "search": "b",
                    "hash": "c", "username": "u", "password": "w", "port": "7"},
     "http://u:w@x:7/a?b#c"),
    ("http://h/p", {"href": "foo:bar", "pathname": "z", "search": "q"}, "foo:bar?q"),
]


@needs_c
@pytest.mark.one_impl
@pytest.mark.parametrize("href,changes,want", _EDGES)
def test_early_returns_and_edges(href: str, changes: dict[str, str], want: str) -> None:
    assert U.parse(href).replace(**changes).href == want
    _check(href, changes)


@pytest.mark.parametrize("href,changes,want", _EDGES)
def test_edges_on_both_twins(href: str, changes: dict[str, str], want: str) -> None:
    assert U.parse(href).replace(**changes).href == want


@needs_c
@pytest.mark.one_impl
def test_href_setter_failure_is_the_python_one() -> None:
    for href, value in [("http://h/", "no scheme"), ("http://h/", "http://[::1"),
                        ("http://h/", "http://a:99999/"), ("http://h/", "\t")]:
        _check(href, {"pathname": "x", "href": value})
        with pytest.raises(URLParseError) as e:
            U.parse(href).replace(href=value)
        assert e.value.name and e.value.position >= 0


@needs_c
@pytest.mark.one_impl
def test_error_positions_are_in_the_value() -> None:
    u = U.parse("http://ex.com/p?q#f")
    got = C.url_replace(u, {"host": "\t:80"})  # type: ignore[union-attr]
    assert [tuple(e) for e in got.validation_errors] == [("invalid-URL-unit", 0),
                                                         ("host-missing", 1)]
    got = C.url_replace(u, {"search": "?a\tb c", "pathname": "x y"})  # type: ignore[union-attr]
    assert [tuple(e) for e in got.validation_errors] == [
        ("invalid-URL-unit", 1), ("invalid-URL-unit", 3), ("invalid-URL-unit", 1)]


@needs_c
@pytest.mark.one_impl
def test_what_falls_back_to_python() -> None:
    assert C is not None
    u = U.parse("http://h/p")

    class S(str):
        pass

    # another type of key or value, or an unknown key: Python says what is wrong
    assert C.url_replace(u, {"pathname": S("x")}) is None
    assert C.url_replace(u, {"nope": "x"}) is None
    assert C.url_replace(u, {"pathname": 1}) is None
    with pytest.raises(PercentEncodingTypeError):
        u.replace(nope="x")
    with pytest.raises(PercentEncodingTypeError):
        u.replace(pathname=1)  # type: ignore[arg-type]
    assert u.replace(pathname=S("x y")).href == "http://h/x%20y"
    # a non-ASCII host of any length stays in C (through the host hook, whose Punycode
    # encoder is O(n log n)): no fallback to the Python setters (issue 39)
    long_host = "é" * 1100
    _check("http://h/p", {"host": long_host})
    _check("http://h/p", {"host": "".join(map(chr, range(0x4E00, 0x4E00 + 5000)))})
    assert u.replace(host=long_host).href == U.URL._from_record(
        SETTERS["host"](basic_parse("http://h/p"), long_host, [])).href


@needs_c
@pytest.mark.one_impl
def test_surrogates_as_usv_strings() -> None:
    # lone surrogates are U+FFFD, pairs one code point (WebIDL USVString), positions
    # in the converted value
    for v in ["\ud83d\ude00\t x", "a\ud800b", "\udc00", "\ud83d", "\ufeff\ud83d\ude00 "]:
        for setter in ("pathname", "search", "hash", "username", "host", "protocol"):
            _check("http://h/p", {setter: v})
            _check("foo://h/p", {setter: v})


# --- generated triples ------------------------------------------------------------

_BASES = ["http://u:p@ex.com:8080/a/b?q#f", "https://ex.com/", "file:///C:/a/b", "file://h/x",
          "foo://h/p?q", "foo://u@h:9/p", "foo:/p", "foo:/.//p", "foo:///x", "foo:", "mailto:x",
          "ws://h/", "data:text/plain,abc", "data:a b ?q", "http://[::1]:8/", "http://1.2.3.4/",
          "http://xn--bcher-kva.de/", "blob:https://h/u", "sc:\\../", "ftp://h:21/"]
_PIECES = ["a", "B", "é", "Bücher", "日本", "\U0001f600", "\ud800", "\udc00", "\ufffe",
           "xn--", "xn--a", "1.2.3.4", "0x7f", "[::1]", "[1:2::3]", "[", "]", ":", ":80",
           ":0080", ":65536", ":8x", "/", "\\", "?", "#", "@", "%", "%41", "%2e", "%zz", ".",
           "..", " ", "\t", "\n", "\r", "\x00", "\x1f", "\x7f", "'", "{", "^", "|", "~", "+",
           "=", "http", "https", "file", "foo", "x:", "C:", "c|", "localhost", "0" * 40,
           "9" * 7, "ｅ", "\u00ad", "%C3%A9", "%00", "1", "-"]
_ALL = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname",
        "search", "hash"]
_value = st.lists(st.sampled_from(_PIECES), max_size=7).map("".join)


@needs_c
@pytest.mark.one_impl
@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_BASES), st.sampled_from(_ALL[1:]), _value)
def test_c_equals_python_on_one_setter(href: str, setter: str, value: str) -> None:
    _check(href, {setter: value}, fallback_ok=False)


@needs_c
@pytest.mark.one_impl
@settings(max_examples=1000, deadline=None)
@given(st.sampled_from(_BASES),
       st.lists(st.tuples(st.sampled_from(_ALL), _value), min_size=1, max_size=5))
def test_c_equals_python_on_chains(href: str, steps: list[tuple[str, str]]) -> None:
    _check(href, dict(steps))


@needs_c
@pytest.mark.one_impl
@settings(max_examples=500, deadline=None)
@given(st.sampled_from(_BASES), st.sampled_from(_ALL[1:]), st.text(max_size=12))
def test_c_equals_python_on_any_text(href: str, setter: str, value: str) -> None:
    _check(href, {setter: value})


@needs_c
@pytest.mark.one_impl
def test_a_url_the_python_parser_built() -> None:
    # (its href is parsed again in C, which must give it back)
    u = U.URL._from_record(basic_parse("http://u@h:1/a/../b?c#d"))
    assert u._parts is None
    got = C.url_replace(u, {"port": "2"})  # type: ignore[union-attr]
    assert got is not None and got.href == "http://u@h:2/b?c#d"


# --- linear time ---------------------------------------------------------------------

_LONG: dict[str, Any] = {
    "protocol": lambda n: "a" * n,
    "username": lambda n: "u@é" * (n // 3),
    "password": lambda n: "p:" * (n // 2),
    "host": lambda n: "a." * (n // 2) + "b",
    "hostname": lambda n: "[" + "1:" * (n // 2) + "]",
    "port": lambda n: "0" * n + "8",
    "pathname": lambda n: "ab/../c/%2e/" * (n // 12),
    "search": lambda n: "q #\t" * (n // 4),
    "hash": lambda n: "f é" * (n // 3),
}


@needs_c
@pytest.mark.one_impl
@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.parametrize("setter", list(_LONG))
@pytest.mark.parametrize("base", ["http://u@h.example:1/p", "file:///p", "foo://h/p"])
def test_c_setters_are_linear(base: str, setter: str) -> None:
    assert C is not None
    u = U.parse(base)
    assert C.url_replace(u, {setter: _LONG[setter](64)}) is not None
    assert_linear(lambda v: C.url_replace(u, {setter: v}), _LONG[setter],
                  label=f"{base} url_replace({setter}=...)", n=1 << 16)


_BASE_PIECES = ["http://", "HTTPS://", "ws://", "ftp://", "foo://", "file://", "file:///",
                "foo:", "mailto:", "a", "Z", ".", "1", "0x", "xn--a", ":", ":80", ":21", "/",
                "//", "/.", "/..", "%2e", "%", "?", "#", "é", " ", "\\", "@", "u:p@", "[::1]",
                "C:", "c|", "localhost", "\t"]


@needs_c
@pytest.mark.one_impl
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.sampled_from(_BASE_PIECES), min_size=1, max_size=8).map("".join),
       st.lists(st.tuples(st.sampled_from(_ALL[1:]), _value), min_size=1, max_size=3))
def test_c_equals_python_on_generated_urls(href: str, steps: list[tuple[str, str]]) -> None:
    try:
        basic_parse(href)
    except Failure:
        return
    _check(href, dict(steps))
    # and on a URL the Python parser built (its href parsed again in C)
    u = U.URL._from_record(basic_parse(href))
    got = C.url_replace(u, dict(steps))  # type: ignore[union-attr]
    want = _python(href, dict(steps))
    assert got is not None and want[0] == "ok"
    assert got.href == want[1][0] and [tuple(e) for e in got.validation_errors] == want[1][1]


@needs_c
@pytest.mark.one_impl
@pytest.mark.parametrize("s", ["http://h/\ud83d\ude00\t?\ud800#\udc00\ud83d",
                               "foo:\ud83d\ude00 \ud83d\ude00 ?x", "http://\ud83d\ude00.com/",
                               "\ud83d\ude00", "http://h/\ufeff\ud83d\ude00"])
def test_parse_takes_the_input_as_a_usv_string(s: str) -> None:
    # (the C parser read each surrogate of a pair as U+FFFD; the API URL parser
    # converts its input first, joining pairs, and the positions are the result's)
    assert C is not None
    errs: list[tuple[str, int]] = []
    try:
        rec = basic_parse(to_usv_string(s), errors=errs)
    except Failure as e:
        with pytest.raises(URLParseError) as ei:
            C.url_parse(s, None, True)
        assert (ei.value.name, ei.value.position) == (e.name, e.position)
        return
    probe = U._lone_surrogate_probe(s)
    if probe is not None:
        # a lone surrogate is invalid-URL-unit where a noncharacter is (the API parser)
        errs = []
        basic_parse(probe, errors=errs)
    got = C.url_parse(s)
    assert got.href == serialize(rec)
    assert [tuple(e) for e in got.validation_errors] == errs
    via_base = C.url_parse("x", s)
    if via_base is not None:
        assert via_base.href == serialize(basic_parse("x", rec))


def test_replace_takes_c_only_while_the_c_twin_is_active(
        impl: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # URL.replace is a C method when the C twin is built; with the pure twin active
    # (core._use_kernels) it calls the Python setters
    calls: list[str] = []
    original = SETTERS["port"]

    def spy(rec: Any, value: str, errs: list[tuple[str, int]]) -> Any:
        calls.append(value)
        return original(rec, value, errs)

    monkeypatch.setitem(U._SETTERS, "port", spy)
    u = U.parse("http://h/")
    assert u.replace(port="8").href == "http://h:8/"
    assert calls == ([] if impl == "c" else ["8"])
    # what C leaves goes to Python on either twin
    assert u.replace(port="9", pathname=type("S", (str,), {})("a")).href == "http://h:9/a"
    assert calls[-1] == "9"
