"""percent_encoding.tcn: RFC 2295's description attribute and feature tag values,
RFC 2506's feature tag names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import schemes, tcn
from percent_encoding.errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingTypeError,
    TextDecodeError,
)


def test_description_is_utf8_with_percent_escapes() -> None:
    # RFC 2295 §5.6: UTF-8, with "%" HEX HEX encoding, in a quoted-string (§5.1)
    assert tcn.encode_description("Japanese version") == '"Japanese version"'
    assert tcn.encode_description("日本語版") == '"%E6%97%A5%E6%9C%AC%E8%AA%9E%E7%89%88"'
    assert tcn.encode_description('50% "off"\\\r\n') == '"50%25 %22off%22%5C%0D%0A"'
    assert tcn.encode_description("") == '""'
    # in a variant description (the shape of §5.1's examples)
    vd = '{"paper.2" 0.7 {type text/html} {language fr} {description %s fr}}'
    assert vd % tcn.encode_description("Version française") == (
        '{"paper.2" 0.7 {type text/html} {language fr} '
        '{description "Version fran%C3%A7aise" fr}}')


def test_description_decoding() -> None:
    assert tcn.decode_description('"Version fran%C3%A7aise"') == "Version française"
    assert tcn.decode_description('"a \\"b\\" %5c"') == 'a "b" \\'  # quoted-pairs, then %XX
    assert tcn.decode_description("bare%20text") == "bare text"
    assert tcn.decode_description('"100%"') == "100%"  # a lone % stands for itself
    with pytest.raises(PercentDecodeError):
        tcn.decode_description('"100%"', strict=True)
    with pytest.raises(TextDecodeError):
        tcn.decode_description('"%E9"', errors="strict")
    assert tcn.decode_description('"%E9"') == "\ufffd"
    with pytest.raises(PercentDecodeError):
        tcn.decode_description('"unterminated')
    with pytest.raises(PercentEncodingTypeError):
        tcn.encode_description(b"x")  # type: ignore[arg-type]


@settings(max_examples=300)
@given(st.text(alphabet=st.characters(exclude_categories=["Cs"])))
def test_description_round_trip(text: str) -> None:
    enc = tcn.encode_description(text)
    assert enc.isascii() and enc.count('"') == 2 and "\\" not in enc
    assert all(c >= " " and c != "\x7f" for c in enc)
    assert tcn.decode_description(enc, strict=True, errors="strict") == text


def test_feature_tag_values() -> None:
    # RFC 2295 §8.2's Accept-Features example: paper = A4, paper!="A2", colordepth={5},
    # x-version=104; a token and the quoted-string of the same text are equal (§6.1)
    assert [tcn.encode_feature_value(v) for v in ("A4", "A2", "5", "104")] == \
        ["A4", "A2", "5", "104"]
    assert tcn.decode_feature_value('"A2"') == tcn.decode_feature_value("A2") == "A2"
    assert tcn.encode_feature_value("A 2") == '"A 2"'
    assert tcn.encode_feature_value("") == '""'
    assert tcn.encode_feature_value('a"b\\c') == '"a\\"b\\\\c"'
    assert tcn.decode_feature_value('"a\\"b\\\\c"') == 'a"b\\c'
    assert tcn.encode_feature_value("{x}") == '"{x}"'  # tspecials need quoting
    with pytest.raises(PercentEncodeError) as ei:
        tcn.encode_feature_value("caf\u00e9")  # feature tag values are US-ASCII (§6.1.1)
    assert ei.value.position == 3
    with pytest.raises(PercentEncodeError):
        tcn.encode_feature_value("a\nb")
    with pytest.raises(PercentDecodeError):
        tcn.decode_feature_value("a b")


@settings(max_examples=300)
@given(st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E) | st.just("\t")))
def test_feature_value_round_trip(value: str) -> None:
    assert tcn.decode_feature_value(tcn.encode_feature_value(value)) == value


def test_feature_tag_names() -> None:
    # RFC 2295 §6.1's example tags need nothing; RFC 2506 §2.2 allows :/.%- too
    for tag in ("tables", "fonts", "blebber", "wolx", "screenwidth", "colordepth",
                "x.version", "u.http://x.example/f-1"):
        assert tcn.encode_feature_tag(tag) == tag
    assert tcn.encode_feature_tag("u.http://x.example/a b?c#d") == \
        "u.http://x.example/a%20b%3Fc%23d"
    assert tcn.encode_feature_tag("100%") == "100%25"
    assert tcn.encode_feature_tag("é") == "%C3%A9"
    assert tcn.decode_feature_tag("u.http://x.example/a%20b") == "u.http://x.example/a b"
    with pytest.raises(PercentDecodeError):
        tcn.decode_feature_tag("a%zz", strict=True)


def test_feature_tag_set_is_rfc2506_2_2_exactly() -> None:
    # RFC 2506 §2.2: a tag name is letters, digits, ":", "/", ".", "%" and "-"; "%" starts
    # an escape, so of ASCII exactly the other 65 stay and everything else becomes %XX
    stay = set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:/.-")
    for cp in range(0x80):
        c = chr(cp)
        expected = c if c in stay else f"%{cp:02X}"
        assert tcn.encode_feature_tag(c) == expected, c
        assert tcn.decode_feature_tag(expected) == c
    # "_", "+", "~" and "*" are not in RFC 2506's set, though URLs and tokens allow them
    assert tcn.encode_feature_tag("x_y+z~*") == "x%5Fy%2Bz%7E%2A"


def test_registry_rows() -> None:
    d = schemes.get("rfc2295-description")
    assert d.encode('50% "off" é') == "50%25 %22off%22 %C3%A9"
    assert d.decode("50%25 %22off%22 %C3%A9") == '50% "off" é'
    f = schemes.get("rfc2506-feature-tag")
    assert f.encode("a b/c") == "a%20b/c" and f.decode("a%20b/c") == "a b/c"
