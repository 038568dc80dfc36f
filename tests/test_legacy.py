"""Tests of percent_encoding.legacy against each source's own rules and examples.

The examples come from the specs and the languages' documentation (RFC 5023
§9.7.1, the PHP manual's http_build_query examples, the Javadoc of URLEncoder,
Go's net/url examples, Ruby's docs); the character tables from the sources'
code (php_url_encode, shouldEscape, DONT_NEED_ENCODING, ...).  The live
oracles (php, java, go, ruby) are in test_legacy_oracles.py.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import string
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import legacy as L
from percent_encoding.errors import (
    FormLimitError,
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)

ALNUM = string.ascii_letters + string.digits
PRINTABLE = [chr(c) for c in range(0x20, 0x7F)]


def kept(encoder: object, chars: list[str] | None = None) -> str:
    """The printable ASCII characters an encoder leaves as they are."""
    f = encoder
    assert callable(f)
    return "".join(c for c in (chars or PRINTABLE) if f(c) == c)


# ---------------------------------------------------------------------------
# RFC 1738 / 2396 / 2732
# ---------------------------------------------------------------------------
def test_rfc1738_keeps_exactly_alnum_and_its_safe_extras() -> None:
    # RFC 1738 §2.2: alphanumerics and "$-_.+!*'()," may be used unencoded.
    assert sorted(kept(L.rfc1738_encode)) == sorted(ALNUM + "$-_.+!*'(),")
    assert L.rfc1738_encode("~") == "%7E"  # "~" is unsafe in RFC 1738
    assert L.rfc1738_encode("\x00\x7f") == "%00%7F"
    assert L.rfc1738_encode("é") == "%C3%A9"


def test_rfc2396_keeps_exactly_unreserved() -> None:
    # RFC 2396 §2.3: unreserved = alphanum | mark ("-_.!~*'()").
    assert sorted(kept(L.rfc2396_encode)) == sorted(ALNUM + "-_.!~*'()")
    assert L.rfc2396_encode("a/b;c", safe="/") == "a/b%3Bc"
    assert L.rfc2396_encode(b"\xff") == "%FF"


def test_rfc2732_brackets_are_reserved_not_data() -> None:
    assert L.rfc2732_encode("[::1]") == "%5B%3A%3A1%5D"
    assert L.rfc2732_encode("[::1]", safe="[]:") == "[::1]"
    assert kept(L.rfc2732_encode) == kept(L.rfc2396_encode)


def test_rfc_encoders_with_a_legacy_encoding() -> None:
    assert L.rfc1738_encode("é", encoding="windows-1252") == "%E9"
    assert L.rfc2396_encode("€ x", encoding="iso-8859-1") == "%80%20x"  # windows-1252 per WHATWG


def test_rfc_safe_cannot_hold_percent_and_must_be_ascii() -> None:
    with pytest.raises(ValueError):
        L.rfc2396_encode("a", safe="%")
    with pytest.raises(ValueError):
        L.rfc1738_encode("a", safe="é")
    with pytest.raises(PercentEncodingTypeError):
        L.rfc1738_encode(3)  # type: ignore[arg-type]


def test_rfc_decode_keeps_plus_and_bad_escapes() -> None:
    assert L.rfc_decode("a+b%20c%zz") == "a+b c%zz"
    with pytest.raises(PercentDecodeError) as e:
        L.rfc_decode("ab%z", strict=True)
    assert e.value.position == 2


# ---------------------------------------------------------------------------
# HTML 4.01 §17.13.4.1
# ---------------------------------------------------------------------------
def test_html4_every_non_alphanumeric_is_escaped_space_is_plus() -> None:
    assert kept(L.html4_form_encode_component) == "".join(c for c in PRINTABLE if c in ALNUM)
    assert L.html4_form_encode_component(" ") == "+"
    assert L.html4_form_encode_component("-_.*~") == "%2D%5F%2E%2A%7E"


@pytest.mark.parametrize("text", ["a\nb", "a\rb", "a\r\nb"])
def test_html4_line_breaks_are_crlf(text: str) -> None:
    assert L.html4_form_encode_component(text) == "a%0D%0Ab"


def test_html4_form_body() -> None:
    body = L.html4_form_encode([("name", "O'Reilly Media"), ("address", "1005 Gravenstein\nCA")])
    assert body == "name=O%27Reilly+Media&address=1005+Gravenstein%0D%0ACA"
    assert L.html4_form_encode({"a": "1", "b": "2"}, separator=";") == "a=1;b=2"
    assert L.html4_form_encode([]) == ""


def test_html4_charset_is_the_callers() -> None:
    assert L.html4_form_encode([("q", "é")], encoding="windows-1252") == "q=%E9"
    # Characters the charset lacks go as "&#N;", as browsers send them.
    assert L.html4_form_encode([("q", "€")], encoding="iso-8859-2") == "q=%26%238364%3B"
    assert L.html4_form_encode([("q", "€")]) == "q=%E2%82%AC"


def test_html4_decode_accepts_semicolons() -> None:
    assert L.html4_form_decode("a=1;b=x+y&&c=%E9", encoding="windows-1252") == [
        ("a", "1"),
        ("b", "x y"),
        ("c", "é"),
    ]
    assert L.html4_form_decode(b"k=%C3%A9") == [("k", "é")]
    assert L.html4_form_decode("a;b", separators="&") == [("a;b", "")]


def test_html4_pairs_must_be_pairs() -> None:
    with pytest.raises(PercentEncodingTypeError):
        L.html4_form_encode([("a", "b", "c")])  # type: ignore[list-item]
    with pytest.raises(PercentEncodingTypeError):
        L.html4_form_encode([("a", 1)])  # type: ignore[list-item]


# ---------------------------------------------------------------------------
# XForms 1.0 §11.6
# ---------------------------------------------------------------------------
def test_xforms_spec_example_and_separator() -> None:
    assert L.xforms_urlencode([("GivenName", "René")]) == "GivenName=Ren%C3%A9;"
    assert L.xforms_urlencode([("a", "1"), ("b", "2")]) == "a=1;b=2;"
    assert L.xforms_urlencode([("a", "1"), ("b", "2")], separator="&", terminate=False) == "a=1&b=2"
    with pytest.raises(ValueError):
        L.xforms_urlencode([("a", "1")], separator=",")


def test_xforms_reserved_escaped_unreserved_kept() -> None:
    # RFC 2396 reserved (with RFC 2732's "[" "]") are escaped; the marks stay.
    for c in ";/?:@&=+$,[]":
        assert L.xforms_encode_component(c) == f"%{ord(c):02X}"
    assert L.xforms_encode_component("-_.!~*'()") == "-_.!~*'()"
    assert L.xforms_encode_component("a b\nc") == "a+b%0D%0Ac"
    assert L.xforms_encode_component("%") == "%25"


# ---------------------------------------------------------------------------
# CGI (RFC 3875)
# ---------------------------------------------------------------------------
def test_cgi_encode_reserved_subset() -> None:
    assert L.cgi_encode("a b/c=d[e]") == "a%20b%2Fc%3Dd%5Be%5D"
    # Only "&=+" are reserved here: the other reserved characters MUST NOT be encoded.
    assert L.cgi_encode("a/b:c=d&e+f[g]", reserved="&=+") == "a/b:c%3Dd%26e%2Bf[g]"
    assert L.cgi_encode("%~") == "%25~"
    with pytest.raises(ValueError):
        L.cgi_encode("x", reserved="a")


def test_cgi_decode_and_search_words() -> None:
    assert L.cgi_decode("a%2Fb+c") == "a/b+c"
    assert L.cgi_search_words("foo+bar%2Bbaz+%C3%A9") == ["foo", "bar+baz", "é"]
    assert L.cgi_search_words("a=b") is None
    assert L.cgi_search_words("") is None
    assert L.cgi_search_words("a%3Db") == ["a=b"]  # an *encoded* "=" keeps it a search


# ---------------------------------------------------------------------------
# Slug (RFC 5023 §9.7)
# ---------------------------------------------------------------------------
def test_slug_spec_example() -> None:
    assert L.slug_encode("The Beach at Sète") == "The Beach at S%C3%A8te"
    assert L.slug_decode("The Beach at S%C3%A8te") == "The Beach at Sète"


def test_slug_encodes_percent_controls_and_non_ascii_only() -> None:
    assert kept(L.slug_encode) == "".join(c for c in PRINTABLE if c != "%")
    assert L.slug_encode("100%\t\x7f") == "100%25%09%7F"


def test_slug_decode_strict() -> None:
    assert L.slug_decode("50%") == "50%"
    with pytest.raises(PercentDecodeError) as e:
        L.slug_decode("50%", strict=True)
    assert e.value.position == 2
    assert L.slug_decode("%FF") == "\ufffd"
    with pytest.deprecated_call(), pytest.raises(TextDecodeError):
        L.slug_decode("%FF", strict=True)  # deprecated: errors="fatal" says it now


# ---------------------------------------------------------------------------
# PHP
# ---------------------------------------------------------------------------
def test_php_urlencode_and_rawurlencode_tables() -> None:
    assert sorted(kept(L.php_urlencode)) == sorted(ALNUM + "-_.")
    assert sorted(kept(L.php_rawurlencode)) == sorted(ALNUM + "-_.~")
    assert L.php_urlencode(" ~") == "+%7E"
    assert L.php_rawurlencode(" ~") == "%20~"
    assert L.php_urlencode(b"\x00\xff") == "%00%FF"


def test_php_decoders() -> None:
    assert L.php_urldecode("a+b%41%4%zz%") == "a bA%4%zz%"
    assert L.php_rawurldecode("a+b%41") == "a+bA"
    assert L.php_urldecode("%C3") == "\ufffd"  # PHP's lone byte, read as UTF-8


def test_php_lone_surrogate_cannot_be_a_php_string() -> None:
    with pytest.raises(PercentEncodeError):
        L.php_urlencode("\ud800")


# The examples of the PHP manual's http_build_query page.
def test_http_build_query_manual_example_1() -> None:
    data = {"foo": "bar", "baz": "boom", "cow": "milk", "null": None, "php": "hypertext processor"}
    assert L.http_build_query(data) == "foo=bar&baz=boom&cow=milk&php=hypertext+processor"
    assert (
        L.http_build_query(data, numeric_prefix="", arg_separator="&amp;")
        == "foo=bar&amp;baz=boom&amp;cow=milk&amp;php=hypertext+processor"
    )


def test_http_build_query_manual_example_2() -> None:
    data = {
        0: "foo",
        1: "bar",
        2: "baz",
        3: None,
        4: "boom",
        "cow": "milk",
        "php": "hypertext processor",
    }
    assert L.http_build_query(data) == "0=foo&1=bar&2=baz&4=boom&cow=milk&php=hypertext+processor"
    assert (
        L.http_build_query(data, numeric_prefix="myvar_")
        == "myvar_0=foo&myvar_1=bar&myvar_2=baz&myvar_4=boom&cow=milk"
        "&php=hypertext+processor"
    )


def test_http_build_query_manual_example_3() -> None:
    data = {
        "user": {"name": "Bob Smith", "age": 47, "sex": "M", "dob": "5/12/1956"},
        "pastimes": ["golf", "opera", "poker", "rap"],
        "children": {"bobby": {"age": 12, "sex": "M"}, "sally": {"age": 8, "sex": "F"}},
        0: "CEO",
    }
    assert L.http_build_query(data, numeric_prefix="flags_") == (
        "user%5Bname%5D=Bob+Smith&user%5Bage%5D=47&user%5Bsex%5D=M&"
        "user%5Bdob%5D=5%2F12%2F1956&pastimes%5B0%5D=golf&pastimes%5B1%5D=opera&"
        "pastimes%5B2%5D=poker&pastimes%5B3%5D=rap&children%5Bbobby%5D%5Bage%5D=12&"
        "children%5Bbobby%5D%5Bsex%5D=M&children%5Bsally%5D%5Bage%5D=8&"
        "children%5Bsally%5D%5Bsex%5D=F&flags_0=CEO"
    )


def test_http_build_query_modes_and_scalars() -> None:
    data = {"a b": "c d~", "t": True, "f": False, "n": None, "e": [], "x": {"0": {"k": ""}}}
    assert L.http_build_query(data) == "a+b=c+d%7E&t=1&f=0&x%5B0%5D%5Bk%5D="
    assert (
        L.http_build_query(data, enc_type=L.PHP_QUERY_RFC3986)
        == "a%20b=c%20d~&t=1&f=0&x%5B0%5D%5Bk%5D="
    )
    assert L.http_build_query(["a", "b"], numeric_prefix="n") == "n0=a&n1=b"
    assert L.http_build_query({}) == ""
    with pytest.raises(ValueError):
        L.http_build_query({"a": 1}, enc_type=3)
    with pytest.raises(PercentEncodingTypeError):
        L.http_build_query("a=1")
    with pytest.raises(PercentEncodingTypeError):
        L.http_build_query({"a": object()})


@pytest.mark.parametrize(
    ("value", "php"),
    [
        (0.1 + 0.2, "0.3"),
        (1.0, "1"),
        (-1.5, "-1.5"),
        (1e20, "1.0E+20"),
        (1e14, "1.0E+14"),
        (1e13, "10000000000000"),
        (0.0001, "0.0001"),
        (0.00001, "1.0E-5"),
        (-0.0, "-0"),
        (123456789012345.678, "1.2345678901235E+14"),
        (float("inf"), "INF"),
        (float("-inf"), "-INF"),
        (float("nan"), "NAN"),
        (2.5e-300, "2.5E-300"),
        (0.5, "0.5"),
        (100.0, "100"),
        # 15-digit integers halfway between two 14-digit values: PHP keeps the
        # zeros when the tie rounds down (its exact path), not when it rounds up
        (100000000000005.0, "1.0000000000000E+14"),
        (853560480964205.0, "8.5356048096420E+14"),
        (-987113651880805.0, "-9.8711365188080E+14"),
        (100000000000015.0, "1.0000000000002E+14"),
        (100000000000095.0, "1.000000000001E+14"),
        (999999999999995.0, "1.0E+15"),
        (100000000000001.0, "1.0E+14"),
    ],
)
def test_http_build_query_floats_print_as_php(value: float, php: str) -> None:
    # PHP 8 (string)$float: precision=14, zend_gcvt.  Observed with php 8.2.
    assert L.http_build_query({"v": value}) == "v=" + L.php_urlencode(php)


def test_http_build_query_keys_follow_php_arrays() -> None:
    # Canonical decimal strings are integer keys (and get the numeric prefix);
    # "007" and "-0" stay strings; bool keys are 0/1; a repeated key keeps its place.
    data = {"5": "a", "007": "b", "-0": "c", True: "d", "x": "e", 5: "f"}
    assert L.http_build_query(data, numeric_prefix="p") == "p5=f&007=b&-0=c&p1=d&x=e"
    assert L.http_build_query({2**70: "big"}) == f"{2**70}=big"


def test_http_build_query_skips_recursion() -> None:
    d: dict[str, object] = {"a": "1"}
    d["self"] = d
    assert L.http_build_query(d) == "a=1"


@pytest.mark.slow  # the full tier (./dev test); the quick tier leaves it out
def test_http_build_query_deep_nesting_is_iterative() -> None:
    # Regression (found by fuzzing): 5000 levels raised RecursionError.  PHP has no
    # depth limit, so neither do we: the name is a%5Ba%5D... as PHP writes it.
    depth = 5000
    data: object = "x"
    for _ in range(depth):
        data = {"a": data}
    assert isinstance(data, dict)
    assert L.http_build_query(data) == "a" + "%5Ba%5D" * (depth - 1) + "=x"
    lists: object = [1]
    for _ in range(depth):
        lists = [lists, 2]
    out = L.http_build_query(lists, numeric_prefix="n")  # type: ignore[arg-type]
    assert out.startswith("n0" + "%5B0%5D" * depth + "=1&")
    assert out.endswith("&n1=2") and out.count("=") == depth + 1


def test_http_build_query_nested_order_and_siblings() -> None:
    # Siblings after a nested array keep document order and their own prefix.
    data = {"a": {"b": [1, {"c": "d"}], "e": "f"}, 3: "g", "h": {}}
    assert L.http_build_query(data, numeric_prefix="n") == (
        "a%5Bb%5D%5B0%5D=1&a%5Bb%5D%5B1%5D%5Bc%5D=d&a%5Be%5D=f&n3=g"
    )


@pytest.mark.parametrize(
    ("call", "error"),
    [
        (lambda: L.cgi_encode("a", reserved="0"), PercentEncodingError),
        (lambda: L.cgi_encode("a", reserved=1), PercentEncodingTypeError),
        (lambda: L.html4_form_decode("a", separators=""), PercentEncodingError),
        (lambda: L.html4_form_decode("a", separators=1), PercentEncodingTypeError),
        (lambda: L.html4_form_decode("a", encoding=1), PercentEncodingTypeError),
        (lambda: L.html4_form_encode(0), PercentEncodingTypeError),
        (lambda: L.html4_form_encode("ab"), PercentEncodingTypeError),
        (lambda: L.html4_form_encode([], separator=1), PercentEncodingTypeError),
        (lambda: L.html4_form_encode([("a", "b")], encoding=[1]), PercentEncodingTypeError),
        (lambda: L.html4_form_encode_component("a", encoding=1), PercentEncodingTypeError),
        (lambda: L.http_build_query({}, enc_type=0), PercentEncodingError),
        (lambda: L.http_build_query({}, enc_type="1"), PercentEncodingTypeError),
        (lambda: L.http_build_query({}, enc_type=True), PercentEncodingTypeError),
        (lambda: L.http_build_query({}, arg_separator=1), PercentEncodingTypeError),
        (lambda: L.http_build_query({}, numeric_prefix=[]), PercentEncodingTypeError),
        (lambda: L.http_build_query({1: "x"}, numeric_prefix=object()), PercentEncodingTypeError),
        (lambda: L.rfc1738_encode("a", safe="%"), PercentEncodingError),
        (lambda: L.rfc2396_encode("a", safe="é"), PercentEncodingError),
        (lambda: L.rfc2732_encode("a", safe=1), PercentEncodingTypeError),
        (lambda: L.rfc1738_encode("a", encoding=[1]), PercentEncodingTypeError),
        (lambda: L.rfc2396_encode("a", encoding=None), PercentEncodingTypeError),
        (lambda: L.rfc2732_encode("a", encoding=b"utf-8"), PercentEncodingTypeError),
        (lambda: L.rfc_decode("a", encoding=1), PercentEncodingTypeError),
        (lambda: L.xforms_urlencode(None), PercentEncodingTypeError),
        (lambda: L.xforms_urlencode([], separator=""), PercentEncodingError),
        (lambda: L.xforms_urlencode([], separator=1), PercentEncodingTypeError),
    ],
)
def test_bad_arguments_raise_library_errors(call: object, error: type[Exception]) -> None:
    # Regression (found by fuzzing): these raised bare ValueError/TypeError/AttributeError,
    # or (numeric_prefix=object()) silently ignored the argument.
    assert callable(call)
    with pytest.raises(error) as info:
        call()
    assert type(info.value).__module__ == "percent_encoding.errors"


# ---------------------------------------------------------------------------
# Java
# ---------------------------------------------------------------------------
def test_java_urlencoder_javadoc_example_and_table() -> None:
    assert L.java_urlencode("The string ü@foo-bar") == "The+string+%C3%BC%40foo-bar"
    assert sorted(kept(L.java_urlencode)) == sorted(ALNUM + ".-*_")
    assert L.java_urlencode(" ~") == "+%7E"


def test_java_urlencoder_lone_surrogate_is_question_mark() -> None:
    assert L.java_urlencode("a\ud800b") == "a%3Fb"
    assert L.java_urlencode("\ud83d\ude00") == "%F0%9F%98%80"  # a valid pair is one character


def test_java_urldecoder() -> None:
    assert L.java_urldecode("The+string+%C3%BC%40foo-bar") == "The string ü@foo-bar"
    assert L.java_urldecode("%ED%A0%80") == "\ufffd"  # one U+FFFD, as the JDK decodes it
    assert L.java_urldecode("%+1") == "\x01"  # Integer.parseInt accepts a sign
    assert L.java_urldecode("%\uff14\uff41") == "J"  # ... and fullwidth digits


@pytest.mark.parametrize(
    ("text", "position"),
    [("%", 0), ("a%4", 1), ("a%zz", 1), ("%41%", 3), ("%-1", 0), ("\U0001f600%", 2)],
)
def test_java_urldecoder_throws_where_java_does(text: str, position: int) -> None:
    with pytest.raises(PercentDecodeError) as e:
        L.java_urldecode(text)
    assert e.value.position == position  # in UTF-16 units, like Java's index


# ---------------------------------------------------------------------------
# Go
# ---------------------------------------------------------------------------
def test_go_examples_from_net_url() -> None:
    assert L.go_query_escape("my/cool+blog&about,stuff") == "my%2Fcool%2Bblog%26about%2Cstuff"
    assert L.go_path_escape("my/cool+blog&about,stuff") == "my%2Fcool+blog&about%2Cstuff"
    assert L.go_query_unescape("my%2Fcool%2Bblog%26about%2Cstuff") == "my/cool+blog&about,stuff"
    assert L.go_path_unescape("my%2Fcool+blog&about%2Cstuff") == "my/cool+blog&about,stuff"


def test_go_tables() -> None:
    assert sorted(kept(L.go_query_escape)) == sorted(ALNUM + "-_.~")
    assert L.go_query_escape(" ") == "+"
    assert sorted(kept(L.go_path_escape)) == sorted(ALNUM + "-_.~$&+:=@")
    assert L.go_path_escape(" ") == "%20"


@pytest.mark.parametrize(("text", "position"), [("%", 0), ("a%2", 1), ("ab%zz%41", 2)])
def test_go_unescape_errors(text: str, position: int) -> None:
    for f in (L.go_query_unescape, L.go_path_unescape):
        with pytest.raises(PercentDecodeError) as e:
            f(text)
        assert e.value.position == position


# ---------------------------------------------------------------------------
# .NET
# ---------------------------------------------------------------------------
def test_dotnet_escape_data_string() -> None:
    assert sorted(kept(L.dotnet_escape_data_string)) == sorted(ALNUM + "-_.~")
    assert L.dotnet_escape_data_string("a b!é") == "a%20b%21%C3%A9"
    assert L.dotnet_escape_data_string("\udc00") == "%EF%BF%BD"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("%41%42", "AB"),
        ("%C3%A9", "é"),
        ("%c3%a9", "é"),
        ("%FF", "%FF"),
        ("%E2%82%AC%FF", "€%FF"),
        ("%ED%A0%80", "%ED%A0%80"),
        ("%C3", "%C3"),
        ("%C3%41", "%C3A"),
        ("%F0%9F%98%80", "\U0001f600"),
        ("%zz%4", "%zz%4"),
        ("%25%34%31", "%41"),
        ("+", "+"),
    ],
)
def test_dotnet_unescape_data_string(text: str, want: str) -> None:
    assert L.dotnet_unescape_data_string(text) == want


# ---------------------------------------------------------------------------
# Ruby
# ---------------------------------------------------------------------------
def test_ruby_cgi() -> None:
    assert L.ruby_cgi_escape("'Stop!' said Fred") == "%27Stop%21%27+said+Fred"
    assert L.ruby_cgi_unescape("%27Stop%21%27+said+Fred") == "'Stop!' said Fred"
    assert sorted(kept(L.ruby_cgi_escape)) == sorted(ALNUM + "_.-~")
    assert L.ruby_cgi_unescape("%zz%4") == "%zz%4"
    # The C extension stops at a "%" in the last two bytes: a "+" after it stays.
    assert L.ruby_cgi_unescape("a%+") == "a%+"
    assert L.ruby_cgi_unescape("a%+b") == "a% b"


def test_ruby_www_form_component() -> None:
    assert L.ruby_encode_www_form_component("Ruby リファレンスマニュアル") == (
        "Ruby+%E3%83%AA%E3%83%95%E3%82%A1%E3%83%AC%E3%83%B3%E3%82%B9%E3%83%9E%E3%83%8B"
        "%E3%83%A5%E3%82%A2%E3%83%AB"
    )
    assert sorted(kept(L.ruby_encode_www_form_component)) == sorted(ALNUM + "*-._")
    assert L.ruby_decode_www_form_component("a+b%7E") == "a b~"
    with pytest.raises(PercentDecodeError) as e:
        L.ruby_decode_www_form_component("a%b")
    assert e.value.position == 1


# ---------------------------------------------------------------------------
# Round trips
# ---------------------------------------------------------------------------
PAIRS = [
    (L.rfc1738_encode, L.rfc_decode),
    (L.rfc2396_encode, L.rfc_decode),
    (L.rfc2732_encode, L.rfc_decode),
    (L.cgi_encode, L.cgi_decode),
    (L.slug_encode, L.slug_decode),
    (L.php_urlencode, L.php_urldecode),
    (L.php_rawurlencode, L.php_rawurldecode),
    (L.java_urlencode, L.java_urldecode),
    (L.go_query_escape, L.go_query_unescape),
    (L.go_path_escape, L.go_path_unescape),
    (L.dotnet_escape_data_string, L.dotnet_unescape_data_string),
    (L.ruby_cgi_escape, L.ruby_cgi_unescape),
    (L.ruby_encode_www_form_component, L.ruby_decode_www_form_component),
]


@pytest.mark.parametrize(("enc", "dec"), PAIRS, ids=lambda f: getattr(f, "__name__", "?"))
@settings(max_examples=60, deadline=None)
@given(text=st.text())
def test_round_trip(enc: object, dec: object, text: str) -> None:
    assert callable(enc) and callable(dec)
    out = enc(text)
    assert out.isascii()
    assert dec(out) == text


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.text(), st.text())))
def test_form_round_trips_modulo_line_breaks(pairs: list[tuple[str, str]]) -> None:
    def crlf(s: str) -> str:
        return s.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")

    want = [(crlf(k), crlf(v)) for k, v in pairs]
    assert L.html4_form_decode(L.html4_form_encode(pairs)) == want
    assert L.html4_form_decode(L.xforms_urlencode(pairs), separators=";") == want


def test_docs_and_docstring_examples_run() -> None:
    root = Path(__file__).resolve().parents[1]
    result = doctest.testfile(str(root / "docs" / "legacy.md"), module_relative=False)
    assert result.failed == 0 and result.attempted > 20
    # legacy is a package: its examples live in one module per origin
    failed = attempted = 0
    for info in pkgutil.iter_modules(L.__path__, L.__name__ + "."):
        result = doctest.testmod(importlib.import_module(info.name))
        failed += result.failed
        attempted += result.attempted
    assert failed == 0 and attempted > 20


# safe= may not keep what the RFCs say must always be encoded.
@pytest.mark.parametrize(
    ("func", "safe"),
    [
        *((L.rfc1738_encode, c) for c in ' \x00\x1f\x7f<>"#{}|\\^~[]`'),
        *((L.rfc2396_encode, c) for c in ' \x00\x1f\x7f<>"#{}|\\^[]`'),
        *((L.rfc2732_encode, c) for c in ' \x00\x7f<>"#{}|\\^`'),
    ],
)
def test_rfc_safe_refuses_must_encode(func: object, safe: str) -> None:
    assert callable(func)
    with pytest.raises(PercentEncodingError, match="must always be percent-encoded"):
        func("a" + safe, safe=safe)
    # The explicit escape hatch keeps it.
    assert func("a" + safe, safe=safe, allow_unsafe=True) == "a" + safe


def test_rfc_safe_keeps_reserved() -> None:
    assert L.rfc1738_encode("a;b/c?d:e@f=g&h", safe=";/?:@=&") == "a;b/c?d:e@f=g&h"
    assert L.rfc2396_encode("a;b/c?d:e@f=g&h+$,", safe=";/?:@&=+$,") == "a;b/c?d:e@f=g&h+$,"
    assert L.rfc2396_encode("~", safe="~") == "~"  # unreserved in RFC 2396
    assert L.rfc2732_encode("[::1]", safe="[]:") == "[::1]"
    # "%" and non-ASCII stay refused even with the escape hatch.
    with pytest.raises(PercentEncodingError):
        L.rfc1738_encode("a", safe="%", allow_unsafe=True)
    with pytest.raises(PercentEncodingError):
        L.rfc2396_encode("a", safe="é", allow_unsafe=True)
    with pytest.raises(PercentEncodingTypeError):
        L.rfc2396_encode("a", safe="/", allow_unsafe="yes")  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# php_parse_str (differential against php-cli in test_legacy_oracles.py)


@pytest.mark.one_impl
def test_php_parse_str_rules() -> None:
    from percent_encoding.legacy import php_parse_str

    assert php_parse_str("a[b][]=1&a[b][]=2&a[b][c]=3") == {"a": {"b": {0: "1", 1: "2", "c": "3"}}}
    # . and space become _ in the name only before the first [
    assert php_parse_str("x.y z[a.b c]=1") == {"x_y_z": {"a.b c": "1"}}
    # an unclosed [ is no bracket: it and later . space [ become _
    assert php_parse_str("a[b.c[d=1") == {"a_b_c_d": "1"}
    # keys are decoded before brackets are read; integer-like keys become int
    assert php_parse_str("a%5B1%5D=x&a%5B01%5D=y") == {"a": {1: "x", "01": "y"}}
    # appending continues after the largest integer key (PHP 8.0-8.2)
    assert php_parse_str("a[-5]=1&a[]=2&a[7]=3&a[]=4") == {"a": {-5: "1", -4: "2", 7: "3", 8: "4"}}
    # empty names are dropped; a name ends at NUL; a later plain value replaces an array
    assert php_parse_str("=1&[x]=2&a%00b=3&c[d]=4&c=5") == {"a": "3", "c": "5"}


@pytest.mark.one_impl
def test_php_parse_str_limits_and_strict() -> None:
    from percent_encoding.legacy import php_parse_str

    q = "a=1&b=2&c=3"
    assert php_parse_str(q, max_input_vars=2) == {"a": "1", "b": "2"}
    with pytest.raises(FormLimitError) as e:
        php_parse_str(q, max_input_vars=2, strict=True)
    assert e.value.limit == "max_input_vars"
    deep = "keep=1&a[x]=1&a[b][c][d]=2"
    # too deep: the whole top-level variable goes, as in PHP
    assert php_parse_str(deep, max_input_nesting_level=2) == {"keep": "1"}
    assert php_parse_str(deep, max_input_nesting_level=3) == {
        "keep": "1", "a": {"x": "1", "b": {"c": {"d": "2"}}}
    }
    with pytest.raises(FormLimitError):
        php_parse_str(deep, max_input_nesting_level=2, strict=True)
    assert php_parse_str("a[1]=%E9", encoding="latin1") == {"a": {1: "é"}}
    with pytest.raises(PercentEncodingTypeError):
        php_parse_str(None)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingError):
        php_parse_str("a=1", arg_separator="")


@pytest.mark.one_impl
def test_php_parse_str_inverts_http_build_query() -> None:
    from percent_encoding.legacy import http_build_query, php_parse_str

    data = {"a": {"b": ["x", "y z"], "c": {"d": "&="}}, "e": "é"}
    back = php_parse_str(http_build_query(data))
    assert back == {"a": {"b": {0: "x", 1: "y z"}, "c": {"d": "&="}}, "e": "é"}


# --- XForms 1.0 §11.6: which RFC's "reserved" ------------------------------------


def test_xforms_reserved_readings() -> None:
    from percent_encoding.errors import PercentEncodingError, PercentEncodingTypeError

    text = "it's [x]! ~*(a) 50%"
    # RFC 2396: reserved and excluded are escaped, so only alphanumerics and the
    # marks -_.!~*'() stay; [ ] are "unwise" (excluded) there.
    old = "n=it's+%5Bx%5D!+~*(a)+50%25;"
    assert L.xforms_urlencode([("n", text)]) == old
    assert L.xforms_urlencode([("n", text)], reserved="rfc2396") == old
    # RFC 2732 §3 makes [ ] reserved instead of unwise: escaped either way.
    assert L.xforms_urlencode([("n", text)], reserved="rfc2732") == old
    # RFC 3986 §2.2: ! * ' ( ) are sub-delims, reserved; unreserved is A-Za-z0-9-._~.
    assert L.xforms_urlencode([("n", text)], reserved="rfc3986") == \
        "n=it%27s+%5Bx%5D%21+~%2A%28a%29+50%25;"
    assert L.xforms_encode_component("a\nb!", reserved="rfc3986") == "a%0D%0Ab%21"
    for ch in map(chr, range(0x80)):
        want = ch.isalnum() or ch in "-._~"
        assert (L.xforms_encode_component(ch, reserved="rfc3986") == ch) == want or ch == " "
    with pytest.raises(PercentEncodingError):
        L.xforms_urlencode([("a", "b")], reserved="rfc1738")
    with pytest.raises(PercentEncodingTypeError):
        L.xforms_encode_component("a", reserved=None)  # type: ignore[arg-type]


def test_xforms_rfc3986_registry_row() -> None:
    from percent_encoding import schemes

    s = schemes.get("xforms-urlencoded-rfc3986")
    assert s.encode("(a b)") == "%28a+b%29"
    assert s.decode("%28a+b%29") == "(a b)"


# --- RFC 3875 §4.1.5: PATH_INFO ------------------------------------------------


def test_cgi_path_info() -> None:
    from percent_encoding.errors import (
        PercentDecodeError,
        PercentEncodingError,
        PercentEncodingTypeError,
    )

    # not URL-encoded, no path-segment parameters; "/" is a single void segment
    assert L.cgi_path_info("/caf%C3%A9/a%20b;v=1/x;y") == "/café/a b/x"
    assert L.cgi_path_info("") == "" and L.cgi_path_info("/") == "/"
    assert L.cgi_path_info("/a;b=%2F/c", parameters="keep", encoded_slash="decode") == "/a;b=//c"
    assert L.cgi_path_info("/a%3Bb") == "/a;b"  # an encoded ";" is data, not a parameter
    assert L.cgi_path_info("/100%/x%4") == "/100%/x%4"  # a stray % stands for itself
    assert L.cgi_path_info("/Dir/FILE") == "/Dir/FILE"  # case kept
    # an encoded "/": refused with its position, kept, or decoded
    with pytest.raises(PercentDecodeError) as ei:
        L.cgi_path_info("/a;p=%2F/b%2fc")
    assert ei.value.position == 10
    assert L.cgi_path_info("/a%2Fb%20c", encoded_slash="keep") == "/a%2Fb c"
    assert L.cgi_path_info("/a%2fb", encoded_slash="decode") == "/a/b"
    # non-ASCII is system-defined: the encoding, bytes as they arrive
    assert L.cgi_path_info("/%E9", encoding="windows-1252") == "/é"
    assert L.cgi_path_info(b"/a%20\xc3\xa9") == "/a é"
    assert L.cgi_path_info("/%FF") == "/\ufffd"
    with pytest.raises(PercentEncodingError):
        L.cgi_path_info("/%FF", errors="strict")
    with pytest.raises(PercentEncodingError):
        L.cgi_path_info("relative")
    with pytest.raises(PercentEncodingError):
        L.cgi_path_info("/a", encoded_slash="allow")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        L.cgi_path_info(42)  # type: ignore[arg-type]


@settings(max_examples=200)
@given(st.lists(st.text(alphabet=st.characters(blacklist_characters="/;",
                                               blacklist_categories=["Cs"]), max_size=6),
                max_size=5))
def test_cgi_path_info_inverts_cgi_encode(segments: list[str]) -> None:
    path_info = "".join("/" + s for s in segments)
    assert L.cgi_path_info(L.cgi_encode(path_info, reserved="?;")) == path_info
