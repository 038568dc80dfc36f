"""The C host parser's one-pass path for the common host, against the state machine.

``url_host.c`` reads a special URL's host of ASCII letters, digits, hyphens and
dots (no ``%``, no label with ``--`` at its third and fourth code points, not
ending in a number) in one pass that classifies, lower-cases and copies it;
anything else leaves that pass for the full host parser (URL Standard §3.5,
§3.3 domain to ASCII).  These tests build hosts from those characters plus the
ones that must leave it, and hold the C parser's href, record, validation errors
and failures to the Python state machine (§4.4), per string and in a column.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.twins import C_URL as C
from percent_encoding import url as U
from percent_encoding.core import to_usv_string
from percent_encoding.errors import URLParseError
from percent_encoding.url._parser import Failure, basic_parse, serialize

pytestmark = [pytest.mark.skipif(C is None, reason="the C twin is not built"),
              pytest.mark.one_impl]


def _check(s: str) -> None:
    """C's url_parse(s) is the state machine's URL (href, record, errors) or its failure."""
    errs: list[tuple[str, int]] = []
    try:
        rec = basic_parse(to_usv_string(s), errors=errs)
    except Failure as e:
        with pytest.raises(URLParseError) as info:
            C.url_parse(s, None, True)
        assert (info.value.name, info.value.position) == (e.name, e.position), s
        return
    u = C.url_parse(s, None, True)
    assert u is not None, s
    assert u.href == serialize(rec), s
    assert u._rec == rec, s
    assert [tuple(e) for e in u.validation_errors] == errs, s
    v = U.URL._from_record(rec)
    assert (u.host, u.hostname) == (v.host, v.hostname), s


# the fast path's own alphabet, and what must leave it
_PLAIN = "abcxyzABCXYZ0189-."
_LEAVE = ["%", "%41", "%2e", "%zz", "%C3%A9", " ", "#", "<", "^", "|", "\x00", "\x7f", "é",
          "ß", "\u00ad", "\uff0e", "日", "xn--", "XN--", "xn--nxasmq6b", "ab--", "_", "!", "*",
          "~", "0x", "0X1f", ".1", ".", "..", "a" * 64, "-"]
_SCHEMES = ["http://", "HTTPS://", "ws:", "ftp:\\\\", "file://", "foo://", "https://u:p@"]
_TAILS = ["", "/", ":8080/", ":80", "?q#f", "/p?q", ":x", ":80@x.y/", ":@x/", "@x/", ":1:2/",
          ":080\\p", ":99999#f", ":[/", "]/"]


@st.composite
def _hosts(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.one_of(st.text(st.sampled_from(_PLAIN), min_size=1, max_size=12),
                                    st.sampled_from(_LEAVE)), min_size=1, max_size=6))
    return "".join(parts)


@settings(max_examples=3000, deadline=None)
@given(st.sampled_from(_SCHEMES), _hosts(), st.sampled_from(_TAILS))
def test_hosts_equal_the_state_machine(scheme: str, host: str, tail: str) -> None:
    _check(scheme + host + tail)


@settings(max_examples=1500, deadline=None)
@given(st.text(st.sampled_from(_PLAIN + "%x"), max_size=40))
def test_plain_alphabet_equals_the_state_machine(host: str) -> None:
    _check("http://" + host + "/")


# one case for each way in and out of the one-pass path
_EXITS = [
    # taken: lower-cased, with or without the strict run's validation error
    "http://example.com/", "http://WWW.Example.COM/", "http://a-b.c-d.e/", "http://a/",
    "http://a1.b2.c3/", "http://1a.com/", "http://a.b1/", "http://1.2.3.a/",
    "http://a_b.com/", "http://a!b.com/", "http://a~b/",       # not LDH: domain-to-ASCII error
    "http://-a.com/", "http://a-.com/", "http://a.-b/", "http://a.b-/",  # hyphens first/last
    "http://a..b/", "http://.a/", "http://./", "http://../",  # empty labels
    "http://example.com./", "http://a./",                      # a final dot
    "http://" + "a" * 63 + ".com/", "http://" + "a" * 64 + ".com/", "http://com." + "a" * 64,
    "http://" + ("a" * 50 + ".") * 5 + "com/",                 # over 253
    "http://" + ("a" * 50 + ".") * 4 + "a" * 49 + "./",        # 253 and a final dot
    "http://" + "b" * 300 + "/",                               # longer than the stack copy
    "http://ab-c.com/", "http://abc--d.com/", "http://a--/",   # "--" elsewhere: taken
    "http://x.0y/", "http://a.0x1g/", "http://a.1b/", "http://a.b.0xz/",
    # eight bytes at a time: dots at every offset of a word, empty labels across words
    "http://abcdefg..hij/", "http://abcdefgh..ij/", "http://abcdefgh.ijklmno..x/",
    "http://abcdefgh.ijklmnop.q/", "http://.abcdefghij/", "http://abcdefghijklmno./",
    "http://abcdefgh/", "http://ABCDEFGH.IJKLMNOP/", "http://a.b.c.d.e.f.g.h.i/",
    "http://abcdefg-hijklmn.o/", "http://abcdefgh-.ijk/", "http://abcdefgh.-ijk/",
    "http://abcdefgh.ij--klm/", "http://abcdefgh.xn--nxasmq6b/", "http://abcdefgh.0x1f/",
    "http://abcdefgh.ijklmnop.1/", "http://abcdefghé.com/", "http://abcdefgh%41.com/",
    "http://ab..cdefghij/", "http://abcdefghij..klmnopqr/", "http://a.bcdefg.h.ijklmn/",
    "http://" + "a" * 62 + "." + "/", "http://" + "a" * 56 + "..b/", "http://" + "a" * 64 + "/",
    "http://" + "a" * 63 + "/", "http://" + "a." * 40 + "/",
    # left to the full path
    "http://xn--nxasmq6b.com/", "http://XN--NXASMQ6B.com/", "http://ab--c.com/",
    "http://xn--a.com/", "http://a.xn--/", "http://xn--/", "http://-x--a.com/",
    "http://ex%41mple.com/", "http://%2e/", "http://a%/", "http://a%zz/",
    "http://a<b/", "http://a^b/", "http://a|b/", "http://a\x7fb/", "http://a\x01b/",
    "http://a b/", "http://Bücher.example/", "http://\u00e9/", "http://a\u00ad.com/",
    "http://a.1/", "http://a.1./", "http://1.2.3.4/", "http://0x1/", "http://a.0x/",
    "http://a.0X1F/", "http://a.09/", "http://1/", "http://1.2.3.4.5/", "http://a.256/",
    "http://[::1]/", "http://[::1/",
    # the other users of the host parser
    "file://LocalHost/x", "file://EXAMPLE.com/x", "file://a.1/x", "foo://A.B/", "http:a.b",
    "http://u@A.b:81/", "https://a.b:443", "http://a.b:99999/", "http://a.b:x/",
    # the authority read in the same pass (url_state.c authority_fast): a port of digits
    # and the authority's end are taken; a ':' then anything else is undone
    "http://A.b:80@C.d/", "http://a.b:@c/", "http://a.b@c/", "http://a-.b:1@c/",
    "http://a.b:8\\x", "http://a.b:80#f", "http://a.b:80?q", "https://a.b:0443/",
    "http://a.b", "http://a.b:", "http://a.b:/", "http://a.b:65536/", "http://a.b:1:2/",
    "http://a.b:99999999999999999999/", "HTTP://A.B\\c", "ws://a.b:80", "http://a_b:7/x",
    "http://" + "a" * 70 + ".b/", "http://" + "ab." * 30 + "d" * 64 + ".e/",
    "http://abcdefgh" + "i" * 56 + ".j/", "http://abcdefgh.ijklmnop:1@x/", "http://a.b:1[/",
    # a word stops at its first other byte and the next word starts after it: hyphens,
    # labels that end in a later word, "--" and non-ASCII met part way
    "http://ab-cdefghij.com/", "http://-abcdefghij.k/", "http://abcdefghij-.klmnopqr/",
    "http://ab--cdefghijk.l/", "http://xy-z.ab--cdefghij.k/", "http://a-b-c-d-e-f-g-h-i-j.k/",
    "http://abcdefé.com/", "http://abc.défghijkl/", "http://ABCDEF-GHIJKLMN.OPQ/",
    "http://" + "a-" * 40 + ".b/", "http://" + "ab-" * 22 + "c.d/",
    "http://" + "a" * 30 + "-" + "a" * 32 + ".b/", "http://" + "a" * 30 + "-" + "a" * 33 + ".b/",
    "http://abcdefg_hijklmnop.q/", "http://abcdefgh%41ijklmno.p/", "http://abcdefghijk:8/x",
    # the last label read again only when it may be a number
    "http://a.f/", "http://a.0xf/", "http://a.x/", "http://a.9./", "http://a.ef./",
    "http://a.0xg/", "http://ABCDEFGH.0XAB/", "http://abcdefgh.ijk.09/",
    # the scheme state before it, one loop over one-byte input (url_state.c scheme)
    "HtTp://A.b/", "h1+.-:x", "1http://a", "+a:b", "a:", ":a", "http", "HTTP:", "Z9:z",
    "hTtPs:\\\\a.b", "a\u00e9:b", "\u00e9a:b", "@:x", "[:x", "`a:b", "{a:b", "ws:",
    "x" * 600 + ":y", "A" * 511 + ":b", "A" * 510 + ":b", "HTTP://A.B:80/\u00e9",
    # hosts about as long as the output's first buffer (512 bytes): the one pass leaves a
    # host that does not end within it; the URL is the same
    "http://" + "a" * 498 + "/", "http://" + "a" * 503, "http://" + "a" * 504,
    "http://" + "a" * 505 + "/", "http://" + "ab." * 200 + "c/", "http://" + "B" * 600 + ":1/",
    "http://a.b/" + "p" * 2000, "http://A.B:8080?" + "q" * 1000,
]


@pytest.mark.parametrize("s", _EXITS)
def test_each_exit(s: str) -> None:
    _check(s)


def test_targeted_results() -> None:
    # what a wrong fast path would get wrong: case, the error, the IPv4 hand-over
    def errors(s: str) -> list[tuple[str, int]]:
        return [tuple(e) for e in C.url_parse(s).validation_errors]

    assert C.url_parse("http://WWW.EXAMPLE.COM/").hostname == "www.example.com"
    assert errors("http://WWW.EXAMPLE.COM/") == []
    assert errors("http://a_b.com/") == [("domain-to-ASCII", 7)]
    assert errors("https://u@-a.com/") == [("invalid-credentials", 9), ("domain-to-ASCII", 10)]
    assert errors("http://com./") == [("domain-to-ASCII", 7)]
    assert C.url_parse("http://A.0x1F/") is None
    assert C.url_parse("http://0X7F.1/").hostname == "127.0.0.1"
    assert C.url_parse("http://AB.xn--Nxasmq6b/").hostname == "ab.xn--nxasmq6b"
    assert C.url_parse("http://EX%41MPLE.com/").hostname == "example.com"
    assert C.url_parse("http://a.1b/").hostname == "a.1b"


def test_column_equals_per_string() -> None:
    pa = pytest.importorskip("pyarrow")
    from percent_encoding import arrow

    rows: list[Any] = [s for s in _EXITS] + [None]
    col = pa.array(rows, pa.string())
    got = arrow.url_component(col, "hostname").to_pylist()
    want = []
    for s in rows:
        try:
            want.append(None if s is None else U.parse(s).hostname)
        except URLParseError:
            want.append(None)
    assert got == want
