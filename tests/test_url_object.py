"""The URL object's protocol on both twins: the pure class and the C type.

With the C twin active, ``url.parse`` and ``url.URL(...)`` give its type
(``src/csrc/url_object.c``); with the pure twin, the Python class.  Each test
runs on both (the ``impl`` fixture) and holds them to the same API and results:
the getters, ``replace``, ``display``, equality and hashing across the twins,
pickling, ``copy``, immutability, ``isinstance`` and the doc strings.
"""

from __future__ import annotations

import copy
import pickle

import pytest

from helpers.twins import C_URL as C
from percent_encoding import url as U
from percent_encoding.errors import PercentEncodingTypeError, URLParseError
from percent_encoding.url._parser import basic_parse
from percent_encoding.url._record import parts_of, record_of

_GETTERS = ("href", "origin", "protocol", "scheme", "username", "password", "host",
            "hostname", "port", "pathname", "search", "hash", "has_opaque_path")

# One of each shape of the offsets: credentials, a port, each host kind, an opaque
# path, no host with a list path (and its "/." prefix), empty query and fragment,
# a blob: origin, a non-ASCII href (a legacy edition's fragment).
_HREFS = [
    "https://u:p@example.com:8443/a/c%20d?q=%27#f",
    "http://u@h/", "http://:p@h/", "ftp://h:21/x", "ws://1.2.3.4:81/", "wss://[::1]/",
    "file:///C:/x", "file://host/share", "foo://", "foo://h:1?#", "foo:/.//a?x#y",
    "mailto:a@b?c#d", "data:,x", "javascript:", "sc:", "http://h/?#",
    "blob:https://a.example:8/x", "blob:foo:x", "blob:file:///x",
]


def _pure_of(u: U.URL) -> U.URL:
    """The pure class's URL with u's record (the reference for the getters)."""
    return U.URL._from_record(basic_parse(u.href))


def test_parse_gives_the_active_twins_type(impl: str) -> None:
    u = U.parse("http://h/")
    v = U.URL("http://h/")
    expect = C.URL if impl == "c" and C is not None else U.URL
    assert type(u) is expect and type(v) is expect
    assert isinstance(u, U.URL) and isinstance(v, U.URL)
    # the other routes to a URL: a legacy encoding, an edition, replace, the Python
    # parser's leftovers (a lone surrogate), and a base that does not parse in C
    for w in (U.parse("http://h/?\xfc", encoding="windows-1252"),
              U.parse("http://h/a%2eb#\xfc x", edition="2016-01-14"),
              u.replace(pathname="/x"), U.parse("http://h/\ud800"),
              U.parse("x", U.URL._from_record(basic_parse("http://h/a")))):
        assert type(w) is expect, w


@pytest.mark.parametrize("href", _HREFS)
def test_getters_equal_the_record_reference(href: str) -> None:
    u = U.parse(href)
    ref = _pure_of(u)
    for name in _GETTERS:
        assert getattr(u, name) == getattr(ref, name), (href, name)
    assert str(u.search_params) == str(ref.search_params)
    assert u._rec == ref._rec
    assert u.display() == ref.display()
    assert u.display(credentials=True, max_length=12) == ref.display(credentials=True,
                                                                       max_length=12)


def test_a_legacy_edition_keeps_a_non_ascii_href(impl: str) -> None:
    u = U.parse("http://u@h:1/a%2eb?q#\xfc x", edition="2016-01-14")
    assert u.href == "http://u@h:1/a.b?q#\xfc x"
    assert (u.username, u.host, u.pathname, u.search, u.hash, u.origin) == (
        "u", "h:1", "/a.b", "?q", "#\xfc x", "http://h:1")
    assert u.replace(hash="z").href == "http://u@h:1/a.b?q#z"


def test_equality_and_hash_across_twins() -> None:
    href = "https://a.example/p?q#f"
    u = U.parse(href)
    pure = U.URL._from_record(basic_parse(href))
    assert u == pure and pure == u and not (u != pure)
    assert hash(u) == hash(pure) == hash(("URL", href))
    assert len({u, pure, U.URL(href)}) == 1
    assert u != U.parse("https://a.example/p?q#g")
    assert u != href and (u == href) is False
    assert u.__eq__(href) is NotImplemented
    with pytest.raises(TypeError):
        _ = u < pure  # type: ignore[operator]


@pytest.mark.parametrize("href", _HREFS)
def test_pickle_and_copy_give_an_equal_url(href: str) -> None:
    u = U.parse(href)
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        v = pickle.loads(pickle.dumps(u, protocol))
        assert v == u and type(v) is type(u) and v.validation_errors == u.validation_errors
    for v in (copy.copy(u), copy.deepcopy(u), copy.deepcopy([u])[0]):
        assert v == u and type(v) is type(u)
    assert u.__reduce__() == (U.URL, (u.href,))


def test_immutable() -> None:
    u = U.parse("http://a.example/x")
    for name in (*_GETTERS, "validation_errors", "other"):
        with pytest.raises(AttributeError, match=r"URL is immutable; use url\.replace"):
            setattr(u, name, "x")
        with pytest.raises(AttributeError, match="URL is immutable"):
            delattr(u, name)
    assert u.href == "http://a.example/x"


def test_replace_and_its_errors() -> None:
    u = U.parse("https://a.example/p")
    assert u.replace().href == u.href
    assert u.replace(hostname="B\xfccher.example", port="8").href == (
        "https://xn--bcher-kva.example:8/p")
    with pytest.raises(PercentEncodingTypeError, match="unknown component 'nope'"):
        u.replace(nope="x")
    with pytest.raises(PercentEncodingTypeError):
        u.replace(search=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        u.replace("x")  # type: ignore[call-arg]
    with pytest.raises(URLParseError):
        u.replace(href="no scheme")
    with pytest.raises(PercentEncodingTypeError):
        u.display(query="no")  # type: ignore[arg-type]


def test_search_params_is_made_on_each_read() -> None:
    u = U.parse("http://h/?a=1&b=2")
    sp = u.search_params
    sp.append("c", "3")
    assert u.search == "?a=1&b=2" and str(u.search_params) == "a=1&b=2"
    assert u.search_params is not u.search_params


def test_the_constructor_checks_its_arguments() -> None:
    with pytest.raises(URLParseError):
        U.URL("nope")
    with pytest.raises(TypeError):
        U.URL(b"http://h/")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        U.URL()  # type: ignore[call-arg]
    assert U.URL("x", "https://a.example/d/").href == "https://a.example/d/x"
    assert U.URL(input="x", base=U.parse("https://a.example/")).href == "https://a.example/x"


def test_a_subclass_is_its_own_class() -> None:
    class Mine(U.URL):
        __slots__ = ()

    m = Mine("HTTP://H/x")
    assert type(m) is Mine and m.hostname == "h" and m == U.parse("http://h/x")


@pytest.mark.parametrize("s", ["http://h/", "/x", "", "http://[::1", "https://\u00fc.example/",
                               "http://h/\ud800", "a:b", "http://a b/"])
@pytest.mark.parametrize("base", [None, "https://a.example/d/", "nope"])
def test_can_parse_is_whether_parse_succeeds(s: str, base: str | None) -> None:
    try:
        U.parse(s, base)
    except URLParseError:
        ok = False
    else:
        ok = True
    assert U.can_parse(s, base) is ok
    if base is not None and base != "nope":
        assert U.can_parse(s, U.parse(base)) is ok


@pytest.mark.parametrize("href", _HREFS)
def test_parts_of_is_the_inverse_of_record_of(href: str) -> None:
    rec = basic_parse(href)
    text, parts = parts_of(rec)
    assert record_of(text, parts) == rec
    if C is not None:
        u = C.url_parse(href)
        if u is not None:  # the C parser's offsets are the same
            assert (u.href, u._parts) == (text, parts)


@pytest.mark.one_impl
@pytest.mark.skipif(C is None, reason="the C twin is not built")
def test_the_c_type_itself() -> None:
    assert C.URL.__doc__ and "URL Standard" in C.URL.__doc__
    for name in (*_GETTERS, "search_params", "validation_errors"):
        assert getattr(C.URL, name).__doc__, name
    assert issubclass(C.URL, U.URL)
    with pytest.raises(TypeError):
        type("Sub", (C.URL,), {})
    with pytest.raises(TypeError):
        C.url_from_parts("http://h/", (4, 7, 7, 8, -1, 8, -1, -1), ())
    with pytest.raises(ValueError):
        C.url_from_parts("http://h/", (4, 7, 7, 99, -1, 8, -1, -1, 1), ())
    with pytest.raises(ValueError):
        C.url_from_parts("http://h/", (4, 7, 7, 8, -1, 8, -1, -1, 9), ())
    assert C.url_can_parse("http://h/") is True and C.url_can_parse("nope") is False
    assert C.url_can_parse("http://h/\ud800") is not False
    with pytest.raises(TypeError):
        C.url_can_parse(1)


def test_can_parse_binds_its_arguments_as_parse_does() -> None:
    assert U.can_parse(input="x", base="https://a.example/") is True
    assert U.can_parse("x", base=None) is False
    with pytest.raises(TypeError):
        U.can_parse()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        U.can_parse("x", "y", "z")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        U.can_parse("x", bogus=1)  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        U.can_parse(b"http://h/")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        U.can_parse("x", 5)  # type: ignore[arg-type]
