"""Tests for percent_encoding.xpath (XPath and XQuery Functions and Operators 3.1 §6.2-§6.4)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding
from percent_encoding import schemes, xpath
from percent_encoding.errors import PercentEncodeError, PercentEncodingTypeError
from percent_encoding.xpath import encode_for_uri, escape_html_uri, iri_to_uri

ROOT = Path(__file__).resolve().parents[1]
UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


# Every example in F&O 3.1 §6.2, §6.3 and §6.4.
def test_encode_for_uri_spec_examples() -> None:
    assert (
        encode_for_uri("http://www.example.com/00/Weather/CA/Los%20Angeles#ocean")
        == "http%3A%2F%2Fwww.example.com%2F00%2FWeather%2FCA%2FLos%2520Angeles%23ocean"
    )
    assert encode_for_uri("~bébé") == "~b%C3%A9b%C3%A9"
    assert encode_for_uri("100% organic") == "100%25%20organic"


def test_iri_to_uri_spec_examples() -> None:
    assert (
        iri_to_uri("http://www.example.com/00/Weather/CA/Los%20Angeles#ocean")
        == "http://www.example.com/00/Weather/CA/Los%20Angeles#ocean"
    )
    assert iri_to_uri("http://www.example.com/~bébé") == "http://www.example.com/~b%C3%A9b%C3%A9"
    # from the notes: idempotent, not invertible
    assert iri_to_uri("My Documents") == iri_to_uri("My%20Documents") == "My%20Documents"


def test_escape_html_uri_spec_examples() -> None:
    assert (
        escape_html_uri("http://www.example.com/00/Weather/CA/Los Angeles#ocean")
        == "http://www.example.com/00/Weather/CA/Los Angeles#ocean"
    )
    assert (
        escape_html_uri(
            "javascript:if (navigator.browserLanguage == 'fr') "
            "window.open('http://www.example.com/~bébé');"
        )
        == "javascript:if (navigator.browserLanguage == 'fr') "
        "window.open('http://www.example.com/~b%C3%A9b%C3%A9');"
    )


def test_empty_sequence_gives_empty_string() -> None:
    assert encode_for_uri(None) == iri_to_uri(None) == escape_html_uri(None) == ""
    assert encode_for_uri("") == ""


def test_what_each_function_escapes_in_ascii() -> None:
    iri_invalid = ' <>"{}|\\^`'
    for cp in range(128):
        ch = chr(cp)
        esc = f"%{cp:02X}"
        # §6.2: all but RFC 3986 unreserved
        assert encode_for_uri(ch) == (ch if ch in UNRESERVED else esc)
        # §6.3: the ten printable characters invalid in an IRI, and outside x20-x7E
        assert iri_to_uri(ch) == (esc if ch in iri_invalid or not 0x20 <= cp <= 0x7E else ch)
        # §6.4: everything except the printable characters 32-126
        assert escape_html_uri(ch) == (ch if 32 <= cp <= 126 else esc)


def test_differences_between_the_three() -> None:
    s = "a b%/?#[]é\t"
    assert encode_for_uri(s) == "a%20b%25%2F%3F%23%5B%5D%C3%A9%09"
    assert iri_to_uri(s) == "a%20b%/?#[]%C3%A9%09"
    assert escape_html_uri(s) == "a b%/?#[]%C3%A9%09"


def test_non_ascii_is_utf8_upper_hex() -> None:
    for f in (encode_for_uri, iri_to_uri, escape_html_uri):
        assert f("\u0080\u00ff\u20ac\U0010ffff") == "%C2%80%C3%BF%E2%82%AC%F4%8F%BF%BF"
        s = "plain"
        assert f(s) is s


def test_errors() -> None:
    for f in (encode_for_uri, iri_to_uri, escape_html_uri):
        with pytest.raises(PercentEncodeError) as e:
            f("ab\udfff")
        assert e.value.position == 2
        for bad in (b"abc", 1, ["a"]):
            with pytest.raises(PercentEncodingTypeError):
                f(bad)  # type: ignore[arg-type]


@given(st.text())
@settings(max_examples=150)
def test_properties(s: str) -> None:
    # encode-for-uri: invertible, not idempotent
    e = encode_for_uri(s)
    assert percent_encoding.decode_text(e, errors="strict") == s
    assert set(e) <= set(UNRESERVED + "%0123456789ABCDEF")
    # iri-to-uri and escape-html-uri: idempotent, ASCII output
    for f in (iri_to_uri, escape_html_uri):
        out = f(s)
        assert out.isascii() and f(out) == out
    # escape-html-uri escapes a subset of what iri-to-uri escapes
    assert iri_to_uri(escape_html_uri(s)) == iri_to_uri(s)


@pytest.mark.parametrize(
    ("name", "func", "has_decode"),
    [
        ("xpath-encode-for-uri", encode_for_uri, True),
        ("xpath-iri-to-uri", iri_to_uri, False),
        ("xpath-escape-html-uri", escape_html_uri, False),
    ],
)
def test_schemes(name: str, func: object, has_decode: bool) -> None:
    s = schemes.get(name)
    sample = "a b%/?#[]é\t"
    assert callable(func)
    assert s.encode(sample) == func(sample)
    assert (s.decode is not None) == has_decode
    if s.decode is not None:
        assert s.decode(s.encode(sample)) == sample
    assert s.encode_set is not None and s in xpath.SCHEMES
    assert s.family == "XPath and XQuery Functions and Operators 3.1"


def test_compare_table_rows() -> None:
    table = schemes.compare(["xpath-encode-for-uri", "xpath-iri-to-uri", "xpath-escape-html-uri"])
    row = {r["char"]: r["output"] for r in table["rows"]}
    assert row["SP"] == ["%20", "%20", None]
    assert row["/"] == ["%2F", None, None]
    assert row["~"] == [None, None, None]
    assert row["DEL"] == ["%7F", "%7F", "%7F"]


def test_docs_examples_run() -> None:
    doc = ROOT / "docs" / "xpath.md"
    result = doctest.testfile(str(doc), module_relative=False)
    assert result.failed == 0 and result.attempted > 5


def test_module_doctests() -> None:
    assert doctest.testmod(xpath).failed == 0


def test_xpath_iri_to_uri_is_rfc3987_mapping() -> None:
    from percent_encoding import iri

    assert xpath.IRI_TO_URI == iri.IRI_TO_URI
    assert xpath.ENCODE_FOR_URI == percent_encoding.sets.RFC3986_UNRESERVED


def test_qt3_k2_iri_to_uri_func9() -> None:
    # The QT3 test suite's k2-IRIToURIfunc-9: iri-to-uri(codepoints-to-string(32 to 294))
    out = iri_to_uri("".join(map(chr, range(32, 295))))
    ascii_part = (
        "%20!%22#$%&'()*+,-./0123456789:;%3C=%3E?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[%5C]%5E_%60"
        "abcdefghijklmnopqrstuvwxyz%7B%7C%7D~%7F"
    )
    assert out.startswith(ascii_part + "%C2%80%C2%81")
    assert out == ascii_part + "".join(
        "".join(f"%{b:02X}" for b in chr(cp).encode()) for cp in range(128, 295)
    )
    # k2-IRIToURIfunc-7 and -8
    assert iri_to_uri('<> "{}|\\^`') == "%3C%3E%20%22%7B%7D%7C%5C%5E%60"
    assert iri_to_uri("\n") == "%0A"
