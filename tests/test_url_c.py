"""The C URL parser (``src/csrc/url*.c``) against the Python state machine.

``_speedups.url_parse(s)`` either says None (a failure here; with
``raise_failure`` it raises, see test_url_c_full.py) or returns a URL whose
href, record and validation errors are exactly what ``basic_parse`` gives.  The
public ``url.parse`` takes that path only while the C twin is active; the tests
through ``url.parse`` run on both twins.
"""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.twins import C_URL as C
from percent_encoding import url as U
from percent_encoding.core import to_usv_string
from percent_encoding.errors import URLParseError
from percent_encoding.url._parser import Failure, URLRecord, basic_parse, serialize

HAVE_C = C is not None

needs_c = pytest.mark.skipif(not HAVE_C, reason="the C twin is not built")


def _reference(s: str) -> tuple[str, URLRecord, list[tuple[str, int]]] | None:
    errs: list[tuple[str, int]] = []
    try:
        rec = basic_parse(to_usv_string(s), errors=errs)
    except Failure:
        return None
    probe = U._lone_surrogate_probe(s)
    if probe is not None:
        # a lone surrogate is invalid-URL-unit where a noncharacter is (the API parser)
        errs = []
        basic_parse(probe, errors=errs)
    return serialize(rec), rec, errs


def _check(s: str) -> bool:
    """Assert C agrees with the state machine on s; whether C took it."""
    u = C.url_parse(s)
    if u is None:
        return False
    ref = _reference(s)
    assert ref is not None, f"C accepted {s!r}, the state machine fails"
    href, rec, errs = ref
    assert u.href == href, s
    assert u._rec == rec, s
    assert [tuple(e) for e in u.validation_errors] == errs, s
    assert all(type(e) is U.ValidationError for e in u.validation_errors)
    # every getter reads the same as on the state machine's URL
    v = U.URL._from_record(rec)
    for name in ("href", "origin", "protocol", "username", "password", "host", "hostname",
                 "port", "pathname", "search", "hash", "has_opaque_path"):
        assert getattr(u, name) == getattr(v, name), (s, name)
        prop = vars(U.URL).get(name)
        if isinstance(prop, property):  # the pure class's slicing branch on the C offsets too
            assert prop.fget(u) == getattr(v, name), (s, name)
    assert u == v and hash(u) == hash(v)
    return True


_SCHEMES = ["http", "HTTP", "https", "hTTps", "ws", "wss", "ftp", "file", "FILE", "mailto",
            "foo", "javascript", "h3+x", "", "1a"]
_SEPS = ["://", ":", ":/", ":///", "://\\", ":\\\\", "//", ":////", "://///"]
_USERINFO = ["", "", "", "user@", "u:p@", ":@", "@", "a@b@", "u:p:q@", "ü@", "a b@", ":pw@",
             "u\t@", "%41@"]
_HOSTS = ["example.com", "EXAMPLE.COM", "a.b.c", "1.2.3.4", "1.2", "255.255.255.255",
          "0x7f.1", "01.2.3.4", "256.1.1.1", "1.2.3.4.", "1.2.3.4.5", "0", "4294967295",
          "xn--nxasmq6b.example", "xn--a.com", "XN--NXASMQ6B.example", "Bücher.example",
          "a_b.com", "-a.com", "a-.com", "ab--c.com", "[::1]", "[2001:db8::1]", "[1:2",
          "[::1.2.3.4]", "ex%41mple.com", "", "a..b", "com.", "１２７.０.０.１", "a" * 64 + ".com",
          "localhost", "faß.de", "a<b", "0x", "example.1", "\u00ad.com", "ａ.com", "a.0x1f",
          ("a" * 60 + ".") * 5 + "com", "a b", "h\x00", "日本.jp", "x.xn--", "é"]
_PORTS = ["", "", ":", ":80", ":443", ":21", ":8080", ":65535", ":65536", ":0080", ":x",
          ":99999999999999999999"]
_PATH = ["/", "/a", "/.", "/..", "/%2e", "/%2E%2e", "/.%2e", "/a b", "/ü", "\\", "/%", "/%zz",
         "/%4", "/C:", "/C|", "/^", "/{}", "/\t", "/\x00", "/\ufdd0", "/\ud800", "/\U0001f600",
         "/'", '/"', "/..%2f", "/...", "//", "/a.b", "/\x7f", "/\x85", "/\ufffe", "/%2e.",
         "/|", "/`", "/ ", "x", ":", "/.a", "/%41", "/a.", "/abcdefghijk", "/"]
_QUERY = ["", "", "?", "?a=b", "?'", "?a b", "?ü", "?%zz", "?\\", "??", "?\x01", "?`"]
_FRAG = ["", "", "#", "#x y", "#`", "##", "#ü", "#\x7f", "#%", "#?"]
_EDGE = ["", "", "", "", " ", "\t", "\n", "\x00", "\x1f"]


@st.composite
def _urls(draw: st.DrawFn) -> str:
    s = (draw(st.sampled_from(_SCHEMES)) + draw(st.sampled_from(_SEPS))
         + draw(st.sampled_from(_USERINFO)) + draw(st.sampled_from(_HOSTS))
         + draw(st.sampled_from(_PORTS))
         + "".join(draw(st.lists(st.sampled_from(_PATH), max_size=6)))
         + draw(st.sampled_from(_QUERY)) + draw(st.sampled_from(_FRAG)))
    s = draw(st.sampled_from(_EDGE)) + s + draw(st.sampled_from(_EDGE))
    if draw(st.booleans()) and s:
        # one code point anywhere: tab, newline, backslash, '@', '#', '?', '%', space, ...
        i = draw(st.integers(0, len(s)))
        s = s[:i] + draw(st.sampled_from("\t\n\\@#?% :/[].é\ud800\x00")) + s[i:]
    return s


@needs_c
@pytest.mark.one_impl
@settings(max_examples=2000, deadline=None)
@given(_urls())
def test_c_equals_state_machine(s: str) -> None:
    _check(s)


@needs_c
@pytest.mark.one_impl
@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("htpsfile:/\\.?#@%2eE[]01x- \tüß'\ud800"), max_size=30))
def test_c_equals_state_machine_on_any_text(s: str) -> None:
    _check("http://" + s)
    _check(s)


_TAKEN = [
    "https://www.example.com/",
    "http://example.com/a b/c d?x=y z",
    "https://example.com/ü/ß?q=日本語#frag ment",
    "https://api.example.io:8443/v1/items/42?fields=name,price",
    "http://Bücher.example/a?q=ü",
    "https://xn--nxasmq6b.example/",
    "https://192.168.0.1:8080/admin",
    "http://[2001:db8::1]/index.html",
    "https://user:pass@sub.example.org/a/./b/../c",
    "mailto:someone@example.com",
    "file:///C:/dir/file.txt",
    "https://EXAMPLE.COM:443/Mixed/Case?Q=1",
    "ws://h:80/?'#`",
    "http://a@b@h/",
    "http://1.2.3.4/",
]
_TAKEN += [
    " http://h/", "http://h/\t", "http://h\\x", "http:h", "http:///h", "http://h/a\\b",
    "file://host/x", "file:///a/../b", "file:///C|/x", "foo://h/", "foo:a b", "foo:/a//b",
    "http://0x7f.1/", "http://1.2/", "http://01.1.1.1/", "http://1.2.3.4./", "http://a_b/",
    "http://xn--a.com/", "http://ex%41mple/", "http://[::ffff:1.2.3.4]/", "file://localhost/x",
    "http://h:0080/", "http://0x" + "0" * 50 + "7f.1/", "http://h:" + "0" * 50 + "1/",
    "http://xn--/",
    "file:C:/../x", "file:///C:/a/../../..", "non-spec:/.//p", "http://%E2%98%83.example/",
    "http://ＥＸＡＭＰＬＥ.com/", "http://h/" + "0" * 100,
]
_TAKEN += ["http://h/\ud800", "foo://\ud800/?\udfff"]
# Failures: url_parse(s) says None (url_parse(s, None, True) raises URLParseError).
_LEFT = [
    "/rel", "http://h:x/", "http://h:65536/", "http://@/", "http://[1:2/",
    "http://1.2.3.4.5/", "http://a b/", "foo://a b/", "http://h:" + "9" * 50,
    "http://0x100000000/", "http://%zz/", "http://99999999999999999999.1/x",
]


@needs_c
@pytest.mark.one_impl
@pytest.mark.parametrize("s", _TAKEN)
def test_c_takes_common_urls(s: str) -> None:
    assert _check(s), s


@needs_c
@pytest.mark.one_impl
@pytest.mark.parametrize("s", _LEFT)
def test_c_leaves_the_rest_to_the_state_machine(s: str) -> None:
    assert C.url_parse(s) is None


@needs_c
@pytest.mark.one_impl
def test_c_url_is_a_full_url() -> None:
    u = C.url_parse("https://u:p@EXAMPLE.com:8443/a/./b/../c d?q='#f")
    assert type(u) is C.URL and isinstance(u, U.URL)
    assert repr(u) == "URL('https://u:p@example.com:8443/a/c%20d?q=%27#f')"
    assert u.replace(port="443").href == "https://u:p@example.com/a/c%20d?q=%27#f"
    assert u.search_params.get("q") == "'"
    assert [e.name for e in u.validation_errors] == ["invalid-credentials", "invalid-URL-unit"]
    assert U.URL("http://h/x") == C.url_parse("http://h/x")
    with pytest.raises(AttributeError):
        u.href = "x"  # type: ignore[misc]
    with pytest.raises(TypeError):
        C.url_parse(b"http://h/")


def _parses(s: str) -> bool:
    try:
        U.parse(s)
    except URLParseError:
        return False
    return True


# can_parse's C check first reads an "http" input as it is, without removing tabs
# and newlines or trimming (url.c's url_check_str): each of these must be decided
# as the full parse decides it
@pytest.mark.parametrize("s", [
    "http://a.b/", "http://a\t.b/", "http://a.b:8\t0/", "http://a.b:99999/", "http://a.b:9\t9999/",
    "http://a.b", "http://a.b  ", "http://a.b:80  ", "http://a.b:80\x00", "http://a b/",
    "httpx://a b", "http:/a b", "http://a.b:\n80/x", "http://a.b\n:80/x", "http://a.b/\tx",
    "http\t://a.b/", "http://[::1]/", "http://u@a/", "http://a.b:6553\r6/", "http://a.b\t",
    "  http://a.b:1\t/", "http://a.b:\t", "http://a.b?\t", "http://\t/", "http://a%41.b/",
    "https://xn--a.com/", "http://a.b:65536\t/",
])
def test_can_parse_is_whether_parse_succeeds_around_tabs_and_trims(s: str) -> None:
    assert U.can_parse(s) is _parses(s)


@given(_urls())
def test_can_parse_is_whether_parse_succeeds(s: str) -> None:
    assert U.can_parse(s) is _parses(s)


@needs_c
@pytest.mark.one_impl
def test_c_href_shares_an_input_that_is_its_own_serialization() -> None:
    # the href is the input str itself only when it holds exactly the serialization
    s = "https://a.example/p?q#f"
    assert C.url_parse(s).href is s
    for t in ["HTTPS://a.example/p", "https://a.example", " https://a.example/",
              "https://a.example/a b", "https://a.example/\tx", "https://a.example/./x", "https://a.example:443/"]:
        u = C.url_parse(t)
        assert u.href is not t and u.href != t and u.href == serialize(basic_parse(t))

    class S(str):
        pass

    h = C.url_parse(S(s)).href
    assert type(h) is str and h == s
    assert type(U.parse(s).href) is str


def test_parse_takes_the_c_path_only_on_the_c_twin(impl: str) -> None:
    from percent_encoding import core

    u = U.parse("https://a.example/x?y#z")
    assert (core.url_parse_kernel is not None) == (impl == "c" and HAVE_C)
    # (the C twin gives the component offsets, the record waits; the pure twin's
    # parser gives the record)
    assert (u._parts is not None) == (impl == "c" and HAVE_C)
    assert u.href == "https://a.example/x?y#z"
    # arguments the C path does not take still work, on both twins
    assert U.parse("x", "https://a.example/").href == "https://a.example/x"
    assert U.parse("http://h/?ü", encoding="windows-1252").search == "?%FC"
    assert U.parse(input="http://h/").href == U.parse("http://h/", None, encoding="utf-8").href
    with pytest.raises(URLParseError):
        U.parse("nope")
    with pytest.raises(TypeError):
        U.parse()  # type: ignore[call-arg]


@settings(max_examples=300, deadline=None)
@given(_urls())
def test_parse_equals_state_machine_on_both_twins(s: str) -> None:
    ref = _reference(s)
    if ref is None:
        with pytest.raises(URLParseError):
            U.parse(s)
        assert not U.can_parse(s)
        return
    assert U.can_parse(s)
    u = U.parse(s)
    assert u.href == ref[0]
    assert u._rec == ref[1]
    assert [tuple(e) for e in u.validation_errors] == ref[2]


@pytest.mark.slow  # timing: the full suite, not the quick tier
@needs_c
@pytest.mark.one_impl
@pytest.mark.parametrize("s", [
    "http://h/" + "a" * 1_000_000,
    "http://h/" + "é/" * 300_000,
    "http://h/" + "/.." * 300_000,
    "http://h/" + "a/.." * 300_000,
    "http://h/" + "\x00 " * 300_000,
    "http://h/?" + "\U0001f600" * 300_000,
    "mailto:" + "\x01" * 300_000,
    "http://" + "a." * 1000 + "com/",
])
def test_c_huge_inputs(s: str) -> None:
    t = time.perf_counter()
    _check(s)
    assert time.perf_counter() - t < 30


@pytest.mark.slow  # timing: the full suite, not the quick tier
@needs_c
@pytest.mark.one_impl
@pytest.mark.parametrize("piece", ["a/", "%", "/..", "é", "\x00", "a/../"])
def test_c_linear_time(piece: str) -> None:
    def best(s: str) -> float:
        out = 1e9
        for _ in range(5):
            t = time.thread_time()  # CPU time: the machine may be shared
            C.url_parse(s)
            out = min(out, time.thread_time() - t)
        return out

    n = 20000
    t1 = best("http://h/" + piece * n)
    t4 = best("http://h/" + piece * (4 * n))
    assert t4 < 12 * t1 + 0.01, (piece, t1, t4)


@needs_c
@pytest.mark.one_impl
@pytest.mark.parametrize("s", [
    # around the stack buffer (3 bytes a code point reserved, 6 for a Latin-1 one):
    # ASCII runs the eight-at-a-time copy takes, then Latin-1 code points to encode
    "http://h/" + "a" * n + "\xe9" * k + tail
    for n in (0, 7, 8, 9, 150, 165, 170, 171, 500)
    for k in (0, 1, 2, 90, 200)
    for tail in ("", "/b-c.d_e?q=\xe9#\xe9", "Ab9-._~!$&'()*+,;=:@")
])
def test_c_path_encoder_grows_its_buffer(s: str) -> None:
    assert _check(s), s
