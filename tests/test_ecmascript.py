"""percent_encoding.ecmascript: ECMA-262 §19.2.6 and Annex B.2.1, unit tests.

The differential test against Node is in test_ecmascript_node.py; these tests
pin the rules one by one (with expected values worked out from the spec) and
check the round trips with hypothesis.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import PercentEncodingTypeError, URIError, ecmascript, schemes
from percent_encoding.ecmascript import (
    decode_uri,
    decode_uri_component,
    encode_uri,
    encode_uri_component,
    escape,
    unescape,
)

RESERVED = ";/?:@&=+$,"
MARKS = "-_.!~*'()"
ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"


# -- encodeURI / encodeURIComponent -----------------------------------------
def test_encode_uri_component_keeps_exactly_alnum_and_marks() -> None:
    for cp in range(128):
        ch = chr(cp)
        expected = ch if ch in ALNUM + MARKS else f"%{cp:02X}"
        assert encode_uri_component(ch) == expected, ch


def test_encode_uri_also_keeps_reserved_and_hash() -> None:
    for cp in range(128):
        ch = chr(cp)
        expected = ch if ch in ALNUM + MARKS + RESERVED + "#" else f"%{cp:02X}"
        assert encode_uri(ch) == expected, ch
    # the only difference between the two, and "%" is always encoded
    assert encode_uri(RESERVED + "#") == RESERVED + "#"
    assert encode_uri_component(RESERVED + "#") == "%3B%2F%3F%3A%40%26%3D%2B%24%2C%23"
    assert encode_uri("%41") == "%2541"


def test_encode_is_utf8_upper_hex() -> None:
    assert encode_uri_component("é€😀\U0010ffff") == ("%C3%A9%E2%82%AC%F0%9F%98%80%F4%8F%BF%BF")
    assert encode_uri("\x00\x7f\x80\uffff") == "%00%7F%C2%80%EF%BF%BF"


def test_written_out_surrogate_pair_is_the_astral_character() -> None:
    assert encode_uri_component("\ud83d\ude00") == "%F0%9F%98%80"
    assert encode_uri("a\udbff\udfffb") == "a%F4%8F%BF%BFb"


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("\ud800", 0),
        ("\udc00", 0),
        ("ab\udfff", 2),
        ("\ude00\ud83d", 0),  # reversed halves: both lone
        ("\ud83d\ude00\ud83d", 2),  # the pair is fine, the trailing high is lone
        ("😀😀\ud800", 4),  # position counts UTF-16 code units
        ("\ud83d\ude00x\udc00", 3),
    ],
)
def test_lone_surrogate_is_uri_error_with_code_unit_position(text: str, position: int) -> None:
    for f in (encode_uri, encode_uri_component):
        with pytest.raises(URIError) as info:
            f(text)
        assert info.value.position == position
        assert "lone surrogate" in str(info.value)
        assert isinstance(info.value, ValueError)


def test_nothing_to_encode_returns_same_object() -> None:
    s = "abc-_.!~*'()" * 100
    assert encode_uri_component(s) is s
    u = "https://example.com/a;b?c=d&e#f"
    assert encode_uri(u) is u


# -- decodeURI / decodeURIComponent -----------------------------------------
def test_decode_component_any_hex_case() -> None:
    assert decode_uri_component("%c3%A9%E2%82%ac%F0%9F%98%80") == "é€😀"
    assert decode_uri_component("a+b%2B%20") == "a+b+ "  # "+" is not a space


def test_decode_uri_keeps_reserved_escapes_as_written() -> None:
    for ch in RESERVED + "#":
        for esc in (f"%{ord(ch):02X}", f"%{ord(ch):02x}"):
            assert decode_uri(esc) == esc
            assert decode_uri_component(esc) == ch
    assert decode_uri("%2f%2F%41%3b%c3%a9%23") == "%2f%2FA%3bé%23"
    # other ASCII escapes, "%" included, are decoded by both
    assert decode_uri("%25%20%41%5B%7e") == "% A[~"


def test_decode_keeps_lone_surrogates_and_joins_pairs() -> None:
    assert decode_uri_component("\ud800%41") == "\ud800A"
    out = decode_uri_component("\ud83d\ude00%20")
    assert out == "😀 " and len(out) == 2
    assert decode_uri("\ud83d\ude00") == "😀"


@pytest.mark.parametrize(
    ("text", "position", "fragment"),
    [
        ("%", 0, "two hex digits"),
        ("ab%", 2, "two hex digits"),
        ("%4", 0, "two hex digits"),
        ("%G1", 0, "two hex digits"),
        ("%41%zz", 3, "two hex digits"),
        ("😀%", 2, "two hex digits"),  # code units: the emoji is 2
        ("%E0%A4", 0, "cut short"),
        ("x%E0%A4%", 1, "cut short"),
        ("%C3", 0, "cut short"),
        ("%C3%41", 0, "invalid UTF-8"),
        ("%80", 0, "continuation byte"),
        ("%41%BF", 3, "continuation byte"),
        ("%ED%A0%80", 0, "surrogate"),  # encoded surrogate
        ("%ED%BF%BF", 0, "surrogate"),
        ("%F4%90%80%80", 0, "U+10FFFF"),  # past U+10FFFF
        ("%F5%80%80%80", 0, "F5-FF"),
        ("%C0%AF", 0, "overlong"),  # overlong "/"
        ("%E0%80%AF", 0, "overlong"),
        ("%F0%80%80%AF", 0, "overlong"),
        ("%F8%88%80%80%80", 0, "F5-FF"),  # 5-byte form
        ("%C3%A9%C3", 6, "cut short"),
        ("\ud800%C3", 1, "cut short"),
    ],
)
def test_decode_errors(text: str, position: int, fragment: str) -> None:
    for f in (decode_uri, decode_uri_component):
        with pytest.raises(URIError) as info:
            f(text)
        assert info.value.position == position, text
        assert fragment in str(info.value), str(info.value)


def test_decode_uri_validates_even_around_reserved_escapes() -> None:
    # a reserved byte cannot continue a multi-byte sequence in either function
    for f in (decode_uri, decode_uri_component):
        with pytest.raises(URIError) as info:
            f("ab%C3%2F")
        assert info.value.position == 2


def test_decode_nothing_to_do_returns_same_object() -> None:
    s = "plain text without escapes"
    assert decode_uri(s) is s
    assert decode_uri_component(s) is s


def test_decode_is_linear_on_long_inputs() -> None:
    # Many runs and one long run: both must be fast (a quadratic loop would not be).
    s = "%C3%A9x" * 50_000 + "%E2%82%AC" * 50_000
    assert decode_uri_component(s) == "éx" * 50_000 + "€" * 50_000
    assert decode_uri("%2F%C3%A9" * 50_000) == "%2Fé" * 50_000


# -- escape / unescape ------------------------------------------------------
def test_escape_keeps_its_own_set() -> None:
    for cp in range(128):
        ch = chr(cp)
        expected = ch if ch in ALNUM + "@*_+-./" else f"%{cp:02X}"
        assert escape(ch) == expected, ch


def test_escape_code_units_not_utf8() -> None:
    assert escape("\x80\xe9\xff") == "%80%E9%FF"
    assert escape("\u0100\u20ac\uffff") == "%u0100%u20AC%uFFFF"
    assert escape("😀") == "%uD83D%uDE00"  # astral: two code units
    assert escape("\ud800x\udfff") == "%uD800x%uDFFF"  # lone surrogates do not fail
    assert escape("a é€b") == "a%20%E9%u20ACb"


def test_unescape() -> None:
    assert unescape("%41%e9%E9%u20ac%u20AC") == "Aéé€€"
    assert unescape("%uD83D%uDE00") == "😀"  # pair joined
    assert unescape("%uD800") == "\ud800"
    # malformed escapes stay; "%U" is not "%u"; "%u12" falls back to nothing
    for s in ("%", "%4", "%zz", "%u", "%u12", "%uZZZZ", "%U0041", "%u004"):
        assert unescape(s) == s
    assert unescape("%u0041%") == "A%"
    assert unescape("%u00411") == "A1"
    assert unescape("%%41") == "%A"
    # the %XX form is the code unit, so a UTF-8 sequence stays byte-per-character
    assert unescape("%C3%A9") == "Ã©"


def test_unescape_no_percent_same_object() -> None:
    s = "abc"
    assert unescape(s) is s
    assert escape(s) is s


# -- round trips --------------------------------------------------------------
def js_join(s: str) -> str:
    return s.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


any_js = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=()))
scalar_text = st.text()  # no surrogates


@settings(max_examples=200)
@given(scalar_text)
def test_component_round_trip(s: str) -> None:
    assert decode_uri_component(encode_uri_component(s)) == s


@settings(max_examples=200)
@given(scalar_text)
def test_uri_round_trip(s: str) -> None:
    # decodeURI(encodeURI(s)) is s: encodeURI never writes a reserved escape
    assert decode_uri(encode_uri(s)) == s


@settings(max_examples=200)
@given(any_js)
def test_escape_round_trip_any_js_string(s: str) -> None:
    e = escape(s)
    assert e.isascii()
    assert unescape(e) == js_join(s)


@settings(max_examples=200)
@given(any_js)
def test_encode_fails_iff_lone_surrogate(s: str) -> None:
    joined = js_join(s)
    lone = any(0xD800 <= ord(c) <= 0xDFFF for c in joined)
    try:
        out = encode_uri_component(s)
    except URIError as e:
        assert lone
        assert e.position is not None
        units = s.encode("utf-16-le", "surrogatepass")
        unit = int.from_bytes(units[2 * e.position : 2 * e.position + 2], "little")
        assert 0xD800 <= unit <= 0xDFFF
    else:
        assert not lone
        assert out.isascii()


# -- API ------------------------------------------------------------------------
def test_types() -> None:
    for f in (encode_uri, encode_uri_component, decode_uri, decode_uri_component, escape, unescape):
        with pytest.raises(PercentEncodingTypeError):
            f(b"abc")  # type: ignore[arg-type]
        with pytest.raises(TypeError):
            f(None)  # type: ignore[arg-type]


def test_javascript_spellings() -> None:
    assert ecmascript.encodeURIComponent is encode_uri_component
    assert ecmascript.decodeURI is decode_uri


def test_schemes_registered() -> None:
    uri = schemes.get("ecmascript-encodeURI")
    assert uri.encode("a b#") == "a%20b#"
    assert uri.decode is not None and uri.decode("%23%20") == "%23 "
    comp = schemes.get("ecmascript-encodeURIComponent")
    assert comp.encode("a b#") == "a%20b%23"
    esc = schemes.get("ecmascript-escape")
    assert esc.encode("é€") == "%E9%u20AC"
    assert esc.decode is not None and esc.decode("%E9%u20AC") == "é€"
    assert esc.encode_set is not None and "/" not in esc.encode_set
    assert {s.family for s in (uri, comp, esc)} == {"ECMAScript"}


escape_soup = st.lists(
    st.sampled_from(
        [
            "%",
            "%4",
            "%41",
            "%C3",
            "%A9",
            "%E2%82",
            "%AC",
            "%F0",
            "%9F",
            "%ED%A0%80",
            "%2F",
            "%zz",
            "a",
            "é",
            "😀",
            "\ud800",
            "\udc00",
            "%u0041",
        ]
    ),
    max_size=10,
).map("".join)


@settings(max_examples=300)
@given(escape_soup)
def test_decode_error_position_is_first_failing_escape(s: str) -> None:
    units = s.encode("utf-16-le", "surrogatepass")
    for f in (decode_uri, decode_uri_component):
        try:
            f(s)
        except URIError as e:
            assert e.position is not None
            # the position (in UTF-16 code units) is a "%" ...
            assert units[2 * e.position : 2 * e.position + 2] == b"%\x00"
            # ... and everything before it decodes: it is the first failure
            f(units[: 2 * e.position].decode("utf-16-le", "surrogatepass"))
