"""percent_encoding.uritemplate: RFC 6570 unit tests and round trips.

The uritemplate-test suite runs in tests/conformance/test_uritemplate_suite.py;
these tests pin the rules that suite leaves open (value types, undefined
members, literal validation, error positions, the API) and round-trip values
through expansion and percent-decoding with hypothesis.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from urllib.parse import parse_qsl

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import (
    PercentEncodingTypeError,
    UriTemplateError,
    core,
    schemes,
)
from percent_encoding.uritemplate import UriTemplate, expand

VARS = {
    "var": "value",
    "hello": "Hello World!",
    "empty": "",
    "list": ["red", "green", "blue"],
    "keys": [("semi", ";"), ("dot", "."), ("comma", ",")],
    "undef": None,
}


# -- the Appendix A table, one operator at a time ------------------------------
@pytest.mark.parametrize(
    ("template", "expected"),
    [
        # string, empty, undefined
        ("{var}", "value"),
        ("{+hello}", "Hello%20World!"),
        ("{#hello}", "#Hello%20World!"),
        ("{.var}", ".value"),
        ("{/var}", "/value"),
        ("{;var}", ";var=value"),
        ("{?var}", "?var=value"),
        ("{&var}", "&var=value"),
        ("{;empty}", ";empty"),  # ifemp "" for ";"
        ("{?empty}", "?empty="),  # ifemp "=" for "?" and "&"
        ("{&empty}", "&empty="),
        ("{.empty}", "."),
        ("{#empty}", "#"),
        ("{#undef}", ""),
        ("{?undef,undef}", ""),  # nothing defined: not even the "?"
        ("{?undef,var}", "?var=value"),  # first defined one gets "?"
        # lists
        ("{list}", "red,green,blue"),
        ("{list*}", "red,green,blue"),
        ("{.list*}", ".red.green.blue"),
        ("{;list}", ";list=red,green,blue"),
        ("{;list*}", ";list=red;list=green;list=blue"),
        ("{&list*}", "&list=red&list=green&list=blue"),
        # ordered pairs: order kept exactly
        ("{keys}", "semi,%3B,dot,.,comma,%2C"),
        ("{+keys}", "semi,;,dot,.,comma,,"),
        ("{keys*}", "semi=%3B,dot=.,comma=%2C"),
        ("{/keys*}", "/semi=%3B/dot=./comma=%2C"),
        ("{?keys}", "?keys=semi,%3B,dot,.,comma,%2C"),
        ("{?keys*}", "?semi=%3B&dot=.&comma=%2C"),
        ("{#keys*}", "#semi=;,dot=.,comma=,"),
        # prefix
        ("{var:3}", "val"),
        ("{;var:2}", ";var=va"),
        ("{?var:9999}", "?var=value"),
        ("{hello:6}", "Hello%20"),
    ],
)
def test_operator_table(template: str, expected: str) -> None:
    assert expand(template, VARS) == expected


def test_u_and_u_plus_r_encodings() -> None:
    v = {"v": "a/b?c#d[e]@f!$&'()*+,;=%41%zz%4é ~"}
    assert expand("{v}", v) == (
        "a%2Fb%3Fc%23d%5Be%5D%40f%21%24%26%27%28%29%2A%2B%2C%3B%3D%2541%25zz%254%C3%A9%20~"
    )
    # U+R: reserved stay, the %41 triplet stays, stray "%" becomes %25
    assert expand("{+v}", v) == "a/b?c#d[e]@f!$&'()*+,;=%41%25zz%254%C3%A9%20~"
    assert expand("{+v}", v={"x": "%"}) == "x,%25"
    assert expand("{+v}", v="%") == "%25"
    assert expand("{#v}", v="100%2") == "#100%252"
    assert expand("{+v}", v="%2f%2F") == "%2f%2F"  # kept in their case


def test_prefix_counts_code_points_not_bytes() -> None:
    assert expand("{x:1}", x="😀abc") == "%F0%9F%98%80"
    assert expand("{x:2}", x="é😀é") == "%C3%A9%F0%9F%98%80"
    # a prefix can split a triplet; U+R then sees a stray "%"
    assert expand("{+x:2}", x="%41") == "%254"


# -- values --------------------------------------------------------------------
def test_scalar_types() -> None:
    assert expand("{a,b,c,d,e}", a=6, b=-1.5, c=True, d=False, e=0) == "6,-1.5,true,false,0"
    assert expand("{?n}", n=0) == "?n=0"


def test_undefined_rules() -> None:
    # §2.3: empty composites are undefined; empty strings are not
    assert expand("{?a,b,c}", a=[], b={}, c="") == "?c="
    assert expand("X{/a}", a=[]) == "X"
    # a mapping whose values are all undefined is undefined
    assert expand("{?m}", m={"a": None}) == ""
    assert expand("{?m*}", m={"a": None, "b": "1"}) == "?b=1"
    # list members that are None are skipped; all None -> undefined
    assert expand("{/l*}", l=["a", None, "b"]) == "/a/b"
    assert expand("{/l*}", l=[None, None]) == ""
    # empty strings inside composites are still values
    assert expand("{?l*}", l=["", "x"]) == "?l=&l=x"
    assert expand("{;m*}", m={"a": "", "b": "1"}) == ";a;b=1"
    assert expand("{/l}", l=[""]) == "/"


def test_mapping_kinds_keep_order() -> None:
    class Ordered(Mapping[str, str]):
        def __getitem__(self, k: str) -> str:
            return {"z": "1", "a": "2"}[k]

        def __iter__(self) -> Iterator[str]:
            return iter(["z", "a"])

        def __len__(self) -> int:
            return 2

    assert expand("{?m*}", m=Ordered()) == "?z=1&a=2"
    assert expand("{?m*}", m=OrderedDict([("b", "1"), ("a", "2")])) == "?b=1&a=2"
    # a list of 2-tuples is a mapping that may repeat names
    assert expand("{?m*}", m=[("a", "1"), ("a", "2")]) == "?a=1&a=2"
    assert expand("{m}", m=(("k", 1),)) == "k,1"
    # numeric keys are written as text
    assert expand("{?m*}", m={1: "x"}) == "?1=x"


@pytest.mark.parametrize(
    ("template", "variables", "position", "fragment"),
    [
        ("ab{x:2}", {"x": ["a"]}, 3, "prefix"),
        ("{x:2}", {"x": {"a": "b"}}, 1, "prefix"),
        ("{y,x}", {"x": [["a"]]}, 3, "nest"),
        ("{x}", {"x": {"a": ["b"]}}, 1, "nest"),
        ("{x}", {"x": [("a", "b"), "c"]}, 1, "nest"),  # pairs mixed with strings
        ("{x}", {"x": [(None, "b")]}, 1, "key is None"),
        ("{x}", {"x": "\ud800"}, 1, "UTF-8"),
        ("{?x*}", {"x": {"k": "\udc00"}}, 2, "UTF-8"),
    ],
)
def test_impossible_expansions(
    template: str, variables: dict[str, object], position: int, fragment: str
) -> None:
    with pytest.raises(UriTemplateError) as info:
        expand(template, variables)
    assert info.value.position == position
    assert fragment in str(info.value)


def test_unsupported_value_type() -> None:
    with pytest.raises(PercentEncodingTypeError):
        expand("{x}", x=object())
    with pytest.raises(PercentEncodingTypeError):
        expand("{x}", x={"a", "b"})  # a set has no order


# -- literals and the grammar --------------------------------------------------
def test_literals() -> None:
    assert expand("café/{var}", VARS) == "caf%C3%A9/value"
    assert expand("x%20y%2f{var}", VARS) == "x%20y%2fvalue"  # triplets kept as written
    assert expand("'{var}'", VARS) == "'value'"  # see the module docstring
    assert expand("/a;b=c?d&e#f[g]@!$()*+,:~", {}) == "/a;b=c?d&e#f[g]@!$()*+,:~"
    assert expand("\ue000\U00010000", {}) == "%EE%80%80%F0%90%80%80"  # iprivate, ucschar
    t = "/plain/path?x=1"
    assert expand(t, {}) == t


@pytest.mark.parametrize(
    ("template", "position"),
    [
        ("a b", 1),
        ('a"b', 1),
        ("<x>", 0),
        ("a\\b", 1),
        ("a^b", 1),
        ("a`b", 1),
        ("a|b", 1),
        ("a\x7fb", 1),
        ("ab\x85", 2),  # C1 control: not ucschar
        ("\ufdd0", 0),  # noncharacter
        ("x\U0001fffe", 1),
        ("\U000e0001", 0),  # tag characters are not ucschar
        ("\ud800", 0),
        ("100%", 3),
        ("%zz", 0),
        ("%4", 0),
        ("a}", 1),
        ("{a", 0),
        ("{a{b}}", 2),
        ("{}", 0),
        ("{+}", 2),
        ("{a,}", 3),
        ("{,a}", 1),
        ("{a:1:2}", 4),
        ("{a*:1}", 3),
        ("{.a.}", 3),
        ("{@a}", 1),
        ("{a.%2}", 2),
    ],
)
def test_malformed_templates(template: str, position: int) -> None:
    with pytest.raises(UriTemplateError) as info:
        UriTemplate(template)
    assert info.value.position == position, str(info.value)
    assert isinstance(info.value, ValueError)


def test_variable_names_as_written() -> None:
    v = {"a.b": "1", "a%2Eb": "2", "_x9": "3"}
    assert expand("{a.b}{a%2Eb}{?_x9}", v) == "12?_x9=3"
    assert expand("{?a%2Eb}", v) == "?a%2Eb=2"  # the name is written out verbatim


# -- the class -------------------------------------------------------------------
def test_uri_template_object() -> None:
    t = UriTemplate("/users/{id}{/path*}{?q,id}")
    assert t.variables == ("id", "path", "q")
    assert t.expand(id=7, q="a b") == "/users/7?q=a%20b&id=7"
    assert t.expand({"id": 1, "q": "x"}, q="y") == "/users/1?q=y&id=1"  # kwargs win
    assert t.expand() == "/users/"
    assert repr(t) == "UriTemplate('/users/{id}{/path*}{?q,id}')"
    assert str(t) == t.template
    assert t == UriTemplate("/users/{id}{/path*}{?q,id}")
    assert t != UriTemplate("/users/{id}")
    assert t != "/users/{id}{/path*}{?q,id}"
    assert len({t, UriTemplate(t.template)}) == 1
    assert t.level == 4


@pytest.mark.parametrize(
    ("template", "level"),
    [
        ("/x", 1),
        ("{var}", 1),
        ("{+var}", 2),
        ("{#v}", 2),
        ("{a,b}", 3),
        ("{?a}", 3),
        ("{a:3}", 4),
        ("{/a*}", 4),
    ],
)
def test_level(template: str, level: int) -> None:
    assert UriTemplate(template).level == level


def test_argument_types() -> None:
    with pytest.raises(PercentEncodingTypeError):
        UriTemplate(b"{x}")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        expand("{x}", [("x", "1")])  # type: ignore[arg-type]


def test_schemes_registered() -> None:
    u = schemes.get("uritemplate")
    assert u.encode("a/b c") == "a%2Fb%20c"
    r = schemes.get("uritemplate-reserved")
    assert r.encode("a/b c%41%") == "a/b%20c%41%25"
    assert r.decode is not None and r.decode("a%2Fb") == "a/b"


# -- round trips ----------------------------------------------------------------
text = st.text()  # scalar values: no lone surrogates
URI_CHARS = re.compile(r"[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]*")


@settings(max_examples=150)
@given(text)
def test_simple_expansion_round_trip(s: str) -> None:
    out = expand("{var}", var=s)
    assert re.fullmatch(r"(?:[A-Za-z0-9\-._~]|%[0-9A-F]{2})*", out)
    assert core.decode_text(out) == s


@settings(max_examples=150)
@given(text)
def test_reserved_expansion_round_trip_without_percent(s: str) -> None:
    s = s.replace("%", "")
    out = expand("{+var}", var=s)
    assert URI_CHARS.fullmatch(out)
    assert core.decode_text(out) == s


@settings(max_examples=150)
@given(text, st.integers(1, 9999))
def test_prefix_round_trip(s: str, n: int) -> None:
    assert core.decode_text(expand("{v:" + str(n) + "}", v=s)) == s[:n]


@settings(max_examples=100)
@given(st.lists(st.tuples(text, text), min_size=1, max_size=6))
def test_exploded_query_round_trip(pairs: list[tuple[str, str]]) -> None:
    out = expand("{?m*}", m=pairs)
    assert out.startswith("?")
    # form-style query: "+" is always written %2B, so a form parser gives the pairs back
    assert parse_qsl(out[1:], keep_blank_values=True) == pairs


@settings(max_examples=100)
@given(st.lists(text, min_size=1, max_size=6))
def test_path_segments_round_trip(segments: list[str]) -> None:
    out = expand("{/segs*}", segs=segments)
    assert [core.decode_text(p) for p in out.split("/")[1:]] == segments
    # non-exploded: one comma-separated value, commas inside members encoded
    joined = expand("{segs}", segs=segments)
    assert [core.decode_text(p) for p in joined.split(",")] == segments


template_soup = st.lists(
    st.one_of(
        st.sampled_from(
            [
                "{",
                "}",
                "{var}",
                "{+",
                "{#x,y}",
                ":",
                ":3",
                "*",
                ",",
                ".",
                "%",
                "%41",
                "%4",
                "{?list*}",
                "{keys:2}",
                "=",
                "|",
                " ",
                "'",
                "é",
                "\ud800",
                "\ufdd0",
                "var",
                "x",
            ]
        ),
        st.text(max_size=3),
    ),
    max_size=10,
).map("".join)


@settings(max_examples=300)
@given(template_soup)
def test_any_template_expands_or_raises_with_position(template: str) -> None:
    variables = {"var": "v", "x": "1", "y": "", "list": ["a", "b"], "keys": {"k": "v"}}
    try:
        out = expand(template, variables)
    except UriTemplateError as e:
        assert e.position is not None and 0 <= e.position < len(template)
    else:
        assert out.isascii()
        assert URI_CHARS.fullmatch(out), out
