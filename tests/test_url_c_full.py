"""The whole C URL parser against the Python state machine, with base URLs.

``_speedups.url_parse(input, base, raise_failure)`` parses every input the
URL Standard's basic URL parser (§4.4) takes, against a base given as a str or
a ``url.URL``; a failure raises ``URLParseError`` with the state machine's
validation-error name, position and message.  It would say None (the Python
parser runs) only for a host its host hook declines; the hook takes non-ASCII hosts
of any length, and test_nothing_falls_back finds nothing it declines.  These tests hold
it to the state machine (the reference) on the wpt suite, on generated URLs
and relative references, on ada's URL corpora when they are on disk
(``PERCENT_ENCODING_URL_DATASETS``: a checkout of ada-url/url-various-datasets)
and against ada-url itself when it is installed.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import data_path
from helpers.twins import C_URL as C
from percent_encoding import url as U
from percent_encoding.core import to_usv_string
from percent_encoding.errors import URLParseError
from percent_encoding.url._parser import Failure, URLRecord, basic_parse, serialize

HAVE_C = C is not None

needs_c = pytest.mark.skipif(not HAVE_C, reason="the C twin is not built")
pytestmark = [needs_c, pytest.mark.one_impl]

Ref = tuple[str, URLRecord, list[tuple[str, int]]] | tuple[str, int]


def _reference(s: str, base: str | None) -> Ref | None:
    """(href, record, errors), or (name, position) of the failure; None: bad base."""
    brec = None
    if base is not None:
        try:
            brec = basic_parse(to_usv_string(base))
        except Failure:
            return None
    errs: list[tuple[str, int]] = []
    try:
        rec = basic_parse(to_usv_string(s), brec, errors=errs)
    except Failure as e:
        return e.name, e.position
    probe = U._lone_surrogate_probe(s)
    if probe is not None:
        # a lone surrogate is invalid-URL-unit where a noncharacter is (the API parser)
        errs = []
        basic_parse(probe, brec, errors=errs)
    return serialize(rec), rec, errs


def _has_surrogate(s: str) -> bool:
    return any(0xD800 <= ord(c) <= 0xDFFF for c in s)


def _check(s: str, base: str | None = None) -> bool:
    """Assert C agrees with the state machine on s against base (a str, and
    the same base as a C-built and a Python-built URL); whether C took it."""
    ref = _reference(s, base)
    if ref is None:
        return True
    bases: list[Any] = [base]
    if base is not None:
        bases += [U.URL(base), U.URL._from_record(basic_parse(to_usv_string(base)))]
    took = True
    for b in bases:
        try:
            u = C.url_parse(s, b, True)
        except URLParseError as e:
            assert len(ref) == 2, (s, base, e)
            assert (e.name, e.position) == ref, (s, base)
            assert str(e) == f"invalid URL {s!r}: {ref[0]} at position {ref[1]}"
            continue
        if u is None:
            took = False
            continue
        assert len(ref) == 3, (s, base, u)
        href, rec, errs = ref
        assert u.href == href, (s, base)
        assert u._rec == rec, (s, base)
        assert [tuple(e) for e in u.validation_errors] == errs, (s, base)
        v = U.URL._from_record(rec)
        for name in ("origin", "protocol", "username", "password", "host", "hostname",
                     "port", "pathname", "search", "hash", "has_opaque_path"):
            assert getattr(u, name) == getattr(v, name), (s, base, name)
            prop = vars(U.URL).get(name)
            if isinstance(prop, property):  # the pure class's slicing branch too
                assert prop.fget(u) == getattr(v, name), (s, base, name)
    return took


def test_wpt_every_case_through_c() -> None:
    p = data_path("wpt", "urltestdata.json")
    cases = [d for d in json.loads(p.read_text(encoding="utf-8")) if isinstance(d, dict)]
    fell = []
    for d in cases:
        if not _check(d["input"], d.get("base")):
            fell.append(d["input"])
    # no input is left to Python
    assert fell == []
    assert len(cases) > 800


# -- generated URLs and relative references -----------------------------------

_BASES = [
    "http://example.com/dir/sub/page.html?x=1#f", "https://u:p@h.example:8443/a/b/",
    "http://h", "file:///C:/dir/file.txt", "file://host/share/x", "file:///", "file:///C:",
    "foo://auth/p/q?r", "foo:/p/q", "foo:opaque?q#f", "mailto:a@b", "sc://ñ/x", "web+x:/.//a/b",
    "http://[::1]:81/x/y", "http://1.2.3.4/", "ftp://h/a;type=i", "wss://h/ws",
]
_REFS = [
    "", "x", "../x", "./x", "..", ".", "/", "//", "///x", "\\x", "\\\\h\\x", "?q", "#f", "?",
    "#", "//h2/p", "//h2", "/a/../../b", "C:/x", "C|/x", "/C:/x", "//C:/x", "file:x",
    "file:/x", "file:C:/x", "file://h/x", "file:..", "http:x", "http:/x", "http:\\\\h/x",
    "https:x", "foo:x", "foo:/x", "foo://h/x", "a b", "%2e%2E/x", ".%2e/x", "x/%2e", "ü",
    "x?ü'#`", "//u@h:80/x", "//[::1]/", "//0x7f.1/", "//ＥＸ.com/", "//%41.com/", "\t/x\n",
    " x ", "\x00x", "x\\y", "//h:99999/", "//@h/", "javascript:alert(1)", "mailto:x",
    "//xn--nxasmq6b/", "../" * 5 + "z",
]


@st.composite
def _relatives(draw: st.DrawFn) -> str:
    s = "".join(draw(st.lists(st.sampled_from(_REFS), min_size=1, max_size=3)))
    if draw(st.booleans()) and s:
        i = draw(st.integers(0, len(s)))
        s = s[:i] + draw(st.sampled_from("\t\n\\@#?% :/[].é|\x00")) + s[i:]
    return s


@settings(max_examples=1500, deadline=None)
@given(_relatives(), st.sampled_from(_BASES))
def test_relative_references_equal_the_state_machine(s: str, base: str) -> None:
    _check(s, base)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from("af:/\\.?#@%2eE[]01x- \t|Cüß'"), max_size=24),
       st.sampled_from(_BASES))
def test_any_text_against_a_base(s: str, base: str) -> None:
    _check(s, base)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(["http://", "file://", "foo://", "https://u@"]),
       st.text(alphabet=st.sampled_from("0123456789xX.abfABF:[]%"), max_size=20))
def test_hosts_ipv4_ipv6_equal_the_state_machine(scheme: str, host: str) -> None:
    _check(scheme + host + "/p")


# The state machine takes whole runs (the authority, the host, the path split into
# segments, the query, an opaque path) where a state only copies: URLs built from the
# pieces where a run starts, stops or is cut short, parsed by basic_parse directly (no
# fast path) with and without a base, and held to the C parser (href, record and
# validation errors with their positions, or the failure and its position).
_RUN_HEADS = ["http://", "HTTPS://", "file://", "file:///", "file:", "foo://", "foo:",
              "git+ssh://", "ws:\\\\", "http:", "", "//", "/", "\\\\", "?", "#", " ", "\t"]
_RUN_PIECES = ["a", "B.example", "xn--nxasmq6b", "1.2.3.4", "0x7f", "@", "u:p@", "a@b@", ":",
               ":80", ":0080", ":99999", ":x", "[", "]", "[::1]", "/", "\\", "//", ".", "..",
               "%2e", "%2E.", "%", "%41", "%zz", "?", "#", " ", "\t", "\n", "\x00", "\x7f",
               "ü", "\ud800", "'", "`", "{", "|", "^", "C:", "C|", "c|/", "localhost",
               "x.git", "\ufdd0", "\U0001f600", "a" * 70,
               # around the plain domain the authority state takes in one search:
               # hyphens at label ends, "--", a numeric last label, over 253 long
               "-", "a--b", "b-.", "9", "abc." * 70]


@st.composite
def _run_urls(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(_RUN_HEADS)) + "".join(
        draw(st.lists(st.sampled_from(_RUN_PIECES), max_size=12)))


@settings(max_examples=2000, deadline=None)
@given(_run_urls(), st.sampled_from([None, *_BASES]))
def test_state_machine_runs_equal_c(s: str, base: str | None) -> None:
    _check(s, base)


_TAKEN = [
    ("../c?d", "http://h/a/b"), ("//x/y", "https://q/"), ("#f", "sc:op"), ("..", "file:///C:/a"),
    ("x", "http://q/a?b#c"), ("", "http://q/a?b#c"), ("C|", "file:///D:/x"), ("/x", "file:///C:/y"),
    ("?q", "file://h/p?r"), ("http:x", "http://h/a/"), ("//h", "foo:/p"), ("x", "foo:/.//a/b"),
]


@pytest.mark.parametrize(("s", "base"), _TAKEN)
def test_c_takes_relative_references(s: str, base: str) -> None:
    assert _check(s, base)


def test_nothing_falls_back() -> None:
    # lone surrogates are U+FFFD, as the USVString conversion makes them, and each is
    # an invalid-URL-unit where the Standard checks URL code points
    for s, base in [("http://h/\ud800", None), ("x\ud800", "http://h/"),
                    ("http://\ud800.com/", None), ("x", "http://h/\ud800"),
                    ("foo://\udfff/\ud800?\ud800#\ud800", None)]:
        assert _check(s, base), (s, base)
    # a non-ASCII host of any length stays in C: the host hook takes it, and keeps
    # in its cache only the hosts of at most url._host.HOST_CACHE_MAX code points
    for n in (1024, 1025, 20000):
        assert _check("http://" + "é" * n + "/"), n
    # a failure: None by default, URLParseError when asked (what url.parse does)
    assert C.url_parse("/rel") is None
    with pytest.raises(URLParseError, match="missing-scheme-non-relative-URL at position 0"):
        C.url_parse("/rel", None, True)
    with pytest.raises(URLParseError, match=r"invalid base URL \(host-missing"):
        C.url_parse("x", "http://@/", True)
    with pytest.raises(URLParseError, match="port-out-of-range"):
        U.parse("http://h:" + "9" * 100 + "/")


def test_parse_with_a_base_takes_the_c_path() -> None:
    base = U.parse("https://www.example.com/dir/page.html")
    u = U.parse("../img/a.png?x#y", base)
    assert u._parts is not None and u.href == "https://www.example.com/img/a.png?x#y"
    assert U.URL("b", base).href == "https://www.example.com/dir/b"
    assert U.parse("b", "https://h/a/").href == "https://h/a/b"
    assert U.can_parse("b", base) and not U.can_parse("b", "nope")
    # a base built by the Python parser (replace) is read from its href
    b2 = base.replace(pathname="/other/x")
    assert U.parse("y", b2).href == "https://www.example.com/other/y"


# -- linear time on adversarial input ---------------------------------------------

@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.parametrize(("s", "base"), [
    ("http://" + "1" * 200_000 + "/", None),
    ("http://0x" + "0" * 200_000 + "1/", None),
    ("http://h:" + "0" * 200_000 + "80/", None),
    ("http://" + "1." * 100_000 + "/", None),
    ("http://" + "a@" * 100_000 + "h/", None),
    ("http://[" + "1:" * 100_000 + "]/", None),
    ("../" * 100_000 + "x", "http://h/" + "a/" * 100_000),
    ("file:///" + "C:/../" * 100_000, None),
    ("foo:" + " " * 100_000 + "x", None),
    ("http://h/" + "%" * 200_000, None),
    ("x", "http://h/" + "a/" * 200_000),
])
def test_linear_on_adversarial_input(s: str, base: str | None) -> None:
    def cpu(t: str, b: str | None) -> float:
        best = 1e9
        for _ in range(3):
            t0 = time.thread_time()
            try:
                C.url_parse(t, b, True)
            except URLParseError:
                pass
            best = min(best, time.thread_time() - t0)
        return best

    # the input at a quarter of its size against the full one: linear means ~4x
    q = s[: len(s) // 4] + s[-3:] if len(s) > 12 else s
    t1, t4 = cpu(q, base), cpu(s, base)
    assert t4 < 12 * t1 + 0.02, (t1, t4)


# -- ada's URL corpora and ada-url itself --------------------------------------------

_DATASETS = ["others/userbait.txt", "others/kasztp.txt", "files/isaacs_files.txt",
             "files/node_files.txt"]


def _dataset(name: str) -> list[str]:
    root = os.environ.get("PERCENT_ENCODING_URL_DATASETS", "")
    p = Path(root) / name
    if not root or not p.is_file():
        pytest.skip("PERCENT_ENCODING_URL_DATASETS (ada-url/url-various-datasets) not set")
    return p.read_text(encoding="utf-8").splitlines()


@pytest.mark.parametrize("name", _DATASETS)
def test_datasets_c_equals_state_machine_and_none_fall_back(name: str) -> None:
    lines = _dataset(name)
    fell = [s for s in lines if not _check(s)]
    assert fell == [], f"{len(fell)} of {len(lines)} fell back to Python: {fell[:5]}"


def _ada_href(s: str, base: str | None = None) -> str | None:
    ada_url = pytest.importorskip("ada_url")
    try:
        return str(ada_url.URL(s, base).href) if base else str(ada_url.URL(s).href)
    except ValueError:
        return None


def _our_href(s: str, base: str | None = None) -> str | None:
    try:
        return U.parse(s, base).href
    except URLParseError:
        return None


@pytest.mark.parametrize("name", _DATASETS)
def test_datasets_equal_ada(name: str) -> None:
    lines = _dataset(name)
    diffs = [s for s in lines if _our_href(s) != _ada_href(s)]
    assert diffs == []


@settings(max_examples=1000, deadline=None)
@given(_relatives(), st.sampled_from([b for b in _BASES if "ñ" not in b]))
def test_generated_relative_references_equal_ada(s: str, base: str) -> None:
    pytest.importorskip("ada_url")
    if "\x00" in s or _has_surrogate(s):
        return  # ada's Python binding takes C strings
    assert _our_href(s, base) == _ada_href(s, base), (s, base)
