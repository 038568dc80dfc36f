"""percent_encoding.url on adversarial input: linear time and digit runs of any length.

The reproducers of an independent audit (issue 32): the URL state machine appended one code
point at a time (scheme, file host, bracketed host, port) or re-concatenated a growing
component (userinfo at each "@", an opaque path at each space), so a 1 MiB ``file:`` URL took
22 s; and ``int()`` on a port or an IPv4 part of more than 4,300 digits raised a bare
``ValueError`` (CPython's int-string limit) where the URL Standard (§3.5 IPv4 number parser,
§4.4 port state) gives a number.  Both twins run these (the C parser hands every input it
does not take to the state machine).
"""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.linear_time import assert_linear
from percent_encoding import url as U
from percent_encoding.errors import URLParseError
from percent_encoding.url._host import _ipv4_number


def _parse(s: str) -> None:
    try:
        U.parse(s)
    except URLParseError:
        pass


# --- linear time ----------------------------------------------------------------------
# A fixed, large n: the quadratic part of the old code was memory copying (a str grown by
# one code point a step), a small share of the time at the few thousand code points that a
# calibrated n picks; at 64K it is most of it.
_N = 1 << 16

_PARSE_CASES: dict[str, Callable[[int], str]] = {
    "file host": lambda n: "file://" + "a" * n + "/",
    "file host, no slash": lambda n: "file://" + "a" * n,
    "long scheme": lambda n: "a" * n + ":b",
    "long special-looking scheme": lambda n: "h" * n + "://h/",
    "bracketed host": lambda n: "http://[" + "1:" * (n // 2) + "]/",
    "bracketed host, opaque": lambda n: "foo://[" + "a:" * (n // 2) + "]/",
    "brackets toggling": lambda n: "http://" + "[]" * (n // 2) + "/",
    "brackets toggling, opaque": lambda n: "foo://" + "[]a" * (n // 3) + "/",
    "unclosed bracket": lambda n: "http://[" + "a" * n,
    "userinfo @ runs": lambda n: "http://" + "a@" * (n // 2) + "h/",
    "userinfo with password": lambda n: "http://" + "u:p@" * (n // 4) + "h/",
    "opaque path spaces": lambda n: "web+x:" + " a" * (n // 2) + "?q",
    "port zeros": lambda n: "http://h:" + "0" * n + "1/",
    "port digits": lambda n: "http://h:" + "9" * n + "/",
    "ipv4 decimal": lambda n: "http://1" + "0" * n + "/",
    "ipv4 hex": lambda n: "http://0x" + "f" * n + "/",
    "ipv4 octal zeros": lambda n: "http://0" + "0" * n + "7.1/",
    "relative file host": lambda n: "//" + "a" * n + "/",
}


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.parametrize("name", list(_PARSE_CASES))
def test_parse_is_linear(name: str) -> None:
    make = _PARSE_CASES[name]
    if name.startswith("relative"):
        base = U.parse("file:///C:/x")
        assert_linear(lambda s: U.parse(s, base), make, label=name, n=_N)
    else:
        assert_linear(_parse, make, label=name, n=_N)


@pytest.mark.slow  # timing: the full suite, not the quick tier
def test_a_mebibyte_file_host_parses_quickly() -> None:
    # The audit's reproducer: a valid URL that took 22 s.
    s = "file://" + "a" * 2**20 + "/"
    t0 = time.process_time()
    u = U.parse(s)
    assert time.process_time() - t0 < 2.0
    assert u.hostname == "a" * 2**20 and u.pathname == "/"
    assert U.parse("x", u).href == "file://" + "a" * 2**20 + "/x"


_SETTER_CASES: dict[str, Callable[[int], str]] = {
    "protocol": lambda n: "a" * n,
    "username": lambda n: "u@" * (n // 2),
    "password": lambda n: "p:" * (n // 2),
    "host": lambda n: "a" * n,
    "hostname": lambda n: "[" + "1:" * (n // 2) + "]",
    "port": lambda n: "0" * n + "8",
    "pathname": lambda n: "abcdefg/" * (n // 8),
    "search": lambda n: "q " * (n // 2),
    "hash": lambda n: "f " * (n // 2),
}


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.parametrize("base", ["http://u@h.example:1/p", "file:///p", "foo://h/p"])
@pytest.mark.parametrize("setter", list(_SETTER_CASES))
def test_setters_are_linear(base: str, setter: str) -> None:
    u = U.parse(base)
    assert_linear(lambda v: u.replace(**{setter: v}), _SETTER_CASES[setter],
                  label=f"{base} .replace({setter}=...)", n=_N)


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.parametrize("value", ["a" * 5000, "[" + "1:" * 3000 + "]", "0" * 5000 + "8"])
def test_host_setter_on_file_urls_is_linear(value: str) -> None:
    u = U.parse("file:///p")
    assert_linear(lambda v: u.replace(host=v), lambda n: value[:1] + value[1:] * (n // 5000 + 1),
                  label=f"file host setter {value[:8]!r}", n=8)


def test_the_runs_change_nothing_the_standard_says() -> None:
    # What each of the runs taken at once must still give (URL Standard §4.4).
    assert U.parse("HtTp+X-1.2://h/").protocol == "http+x-1.2:"
    assert U.parse("http://a@b:c@d@h/").href == "http://a%40b:c%40d@h/"
    assert U.parse("http://a:b:c@h/").password == "b%3Ac"
    assert U.parse("http://@@h/").href == "http://%40@h/"
    assert U.parse("foo://[::1]:8/").port == "8"
    assert U.parse("foo://[::1]/").hostname == "[::1]"
    assert U.parse("web+x:a b  ?q").href == "web+x:a b %20?q"
    assert U.parse("web+x:a b  #f").pathname == "a b %20"
    assert U.parse("web+x:a b  ").pathname == "a b"  # trailing spaces are trimmed first
    assert U.parse("file://HOST.example/x").host == "host.example"
    assert U.parse("file://localhost/x").href == "file:///x"
    with pytest.raises(URLParseError) as e:
        U.parse("http://[::1/")
    assert e.value.name == "IPv6-unclosed"
    with pytest.raises(URLParseError) as e:
        U.parse("http://h[::1]/")
    assert e.value.name == "domain-to-ASCII"
    assert U.parse("http://[::1]:80/").href == "http://[::1]/"
    for s, name in (("http://[::1]x/", "IPv6-unclosed"),
                    ("foo://[]x[:1]/", "IPv6-invalid-code-point"),
                    ("http://[::1]]/", "IPv6-invalid-code-point"),
                    ("http://[:1/", "IPv6-unclosed")):
        with pytest.raises(URLParseError) as e:
            U.parse(s)
        assert e.value.name == name, s


# --- digit runs of any length ----------------------------------------------------------

_Z = "0" * 5000


def test_the_audits_digit_reproducers() -> None:
    assert U.can_parse("http://1" + _Z + "/") is False
    assert U.parse("/x", "http://h:" + _Z + "1/").href == "http://h:1/x"
    assert U.parse("http://h:" + _Z + "8080/").port == "8080"
    assert U.parse("http://h:" + _Z + "80/").port == ""  # the default port, however written
    with pytest.raises(URLParseError) as e:
        U.parse("http://h:1" + _Z + "/")
    assert e.value.name == "port-out-of-range"
    with pytest.raises(URLParseError) as e:
        U.parse("http://1" + _Z + "/")
    assert e.value.name == "IPv4-out-of-range-part"
    assert U.parse("http://0x" + _Z + "7f.1/").href == "http://127.0.0.1/"
    assert U.parse("http://0" + _Z + "177.1/").href == "http://127.0.0.1/"
    assert U.parse("http://" + _Z + "127.1/").href == "http://87.0.0.1/"  # octal
    assert U.parse("http://1.2.3." + _Z + "4/").href == "http://1.2.3.4/"
    assert U.parse("http://h/").replace(port=_Z + "8").port == "8"
    assert U.parse("http://h:9/").replace(port="7" + _Z).port == "9"  # out of range: unchanged


@pytest.mark.one_impl
def test_ipv4_number_parser_on_long_digit_runs() -> None:
    # §3.5 IPv4 number parser: the value, past 2**32 any stand-in the checks treat alike.
    assert _ipv4_number("0x" + "0" * 30 + "ffffffff") == (2**32 - 1, True)
    assert _ipv4_number("0" + "0" * 30 + "37777777777") == (2**32 - 1, True)
    assert _ipv4_number("0" * 30 + "4294967295") is None  # octal: no 9
    assert _ipv4_number("4294967295") == (2**32 - 1, False)
    assert _ipv4_number("4294967296") == (2**32, False)
    assert _ipv4_number("1" + "0" * 5000)[0] >= 2**32  # type: ignore[index]
    assert _ipv4_number("0x" + "f" * 5000)[0] >= 2**32  # type: ignore[index]
    assert _ipv4_number("1" + "0" * 5000 + "a") is None
    assert _ipv4_number("0x") == (0, True)
    assert _ipv4_number("08") is None
    assert _ipv4_number("1_0") is None  # int() would take it


ada_url = pytest.importorskip("ada_url", reason="ada-url not installed (pip install ada-url)")


def _ours(s: str, base: str | None = None) -> str | None:
    try:
        return U.parse(s, base).href
    except URLParseError:
        return None


def _ada(s: str, base: str | None = None) -> str | None:
    try:
        return str(ada_url.URL(s, base).href) if base else str(ada_url.URL(s).href)
    except ValueError:
        return None


_LONG = [
    "http://1" + _Z + "/", "http://0x" + _Z + "1/", "http://0" + _Z + "1/",
    "http://1.2.3." + _Z + "4/", "http://0x" + "f" * 5000 + "/", "http://1" + _Z + ".1/",
    "http://" + _Z + "." + _Z + "/", "http://h:" + _Z + "1/", "http://h:" + _Z + "65535/",
    "http://h:" + _Z + "65536/", "http://h:1" + _Z + "/", "http://h:" + _Z + "/",
    "foo://h:" + _Z + "1/", "file://1" + _Z + "/", "http://[::" + _Z + "1]/",
    "http://[::1.2.3." + _Z + "4]/", "http://a.1" + _Z + "/", "http://1" + _Z + "a/",
]


@pytest.mark.parametrize("s", _LONG, ids=lambda s: s[:12] + "…" + s[-6:])
def test_long_digit_runs_against_ada(s: str) -> None:
    assert _ours(s) == _ada(s)
    assert U.can_parse(s) is (_ada(s) is not None)
    assert _ours("/x", s) == _ada("/x", s)


_DIGITS = ["", "0", "00", "0" * 7, "0" * 4400, "1", "7", "8", "9", "f", "x", "0x", "255", "256",
           "65535", "65536", "4294967295", "4294967296", "1" + "0" * 4400, "."]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_DIGITS), min_size=1, max_size=6).map("".join),
       st.lists(st.sampled_from(_DIGITS), max_size=4).map("".join))
def test_digit_runs_against_ada(host: str, port: str) -> None:
    s = "http://" + host + (":" + port if port else "") + "/"
    assert _ours(s) == _ada(s), (host[:40], port[:40])
    assert U.can_parse(s) is (_ada(s) is not None)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.sampled_from(_DIGITS), max_size=4).map("".join))
def test_port_setter_digit_runs_against_ada(port: str) -> None:
    ours = U.parse("http://h:7/").replace(port=port).href
    theirs = ada_url.URL("http://h:7/")
    try:
        theirs.port = port
    except ValueError:
        pass
    assert ours == theirs.href, port[:40]
