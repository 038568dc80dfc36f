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


# ---------------------------------------------------------------------------
# RFC 2533 string values
# ---------------------------------------------------------------------------
# RFC 2533 §4.1: string = DQUOTE *(%x20-21 / %x23-7E) DQUOTE
_STRING_CHARS = "".join(chr(c) for c in range(0x20, 0x7F) if c != 0x22)


def test_string_value_rfc2533_4_1() -> None:
    # §6.3's example of a string value, a multi-part version number
    assert tcn.encode_feature_string("x.y.z") == '"x.y.z"'
    assert tcn.decode_feature_string('"x.y.z"') == "x.y.z"
    # tokens of §3.4's examples are strings too, and the empty string is one (*)
    assert tcn.encode_feature_string("iso-A4") == '"iso-A4"'
    assert tcn.encode_feature_string("") == '""'
    assert tcn.decode_feature_string('""') == ""
    # every character the production allows stands for itself, escape-looking ones too
    assert tcn.encode_feature_string(_STRING_CHARS) == '"' + _STRING_CHARS + '"'
    assert tcn.decode_feature_string('"' + _STRING_CHARS + '"') == _STRING_CHARS
    assert tcn.encode_feature_string("100%25 a+b") == '"100%25 a+b"'
    assert tcn.decode_feature_string('"100%25 a+b"') == "100%25 a+b"


def test_string_value_has_no_quoted_pair() -> None:
    # A wrong implementation borrows RFC 2295's quoted-string (quoted-pairs): RFC 2533's
    # string has none, so a backslash is itself and never hides a quote.
    assert tcn.encode_feature_string("a\\b") == '"a\\b"'
    assert tcn.decode_feature_string('"a\\b"') == "a\\b"
    assert tcn.decode_feature_string('"a\\\\"') == "a\\\\"
    assert tcn.decode_feature_string('"C:\\"') == "C:\\"  # the quote after \ closes it
    with pytest.raises(PercentEncodeError) as ei:
        tcn.encode_feature_string('say "hi"')
    assert ei.value.position == 4
    with pytest.raises(PercentDecodeError) as di:
        tcn.decode_feature_string('"a\\"b"')  # \" is not an escape: the string ends at 3
    assert di.value.position == 3
    # RFC 2295's tag-value does escape them: the two codecs differ exactly here
    assert tcn.encode_feature_value("a\\b") == '"a\\\\b"'


@pytest.mark.parametrize(
    ("value", "position"),
    [
        ('"', 0),
        ('ab"', 2),
        ("a\tb", 1),  # HTAB: RFC 2068's qdtext has it, RFC 2533's string does not
        ("\n", 0),
        ("line\r\n", 4),
        ("del\x7f", 3),
        ("\x00", 0),
        ("caf\u00e9", 3),  # US-ASCII only, and no %XX to write it with
        ("a\U0001f600", 1),
    ],
)
def test_string_value_refusals_name_the_position(value: str, position: int) -> None:
    with pytest.raises(PercentEncodeError) as ei:
        tcn.encode_feature_string(value)
    assert ei.value.position == position
    assert f"position {position}" in str(ei.value) and "RFC 2533" in str(ei.value)


@pytest.mark.parametrize(
    ("text", "position"),
    [
        ("", 0),  # no opening quote
        ("x.y.z", 0),  # a token is not a string
        (' "a"', 0),  # white space around it belongs to the predicate: strip it first
        ('"', 1),  # no closing quote: the position is the end of the text
        ('"abc', 4),
        ('"a"b"', 2),  # the second quote ends the string and text follows
        ('"a" ', 2),
        ('""""', 1),
        ('"a\tb"', 2),
        ('"caf\u00e9"', 4),
        ('"a\x7f"', 2),
    ],
)
def test_string_value_decode_refusals(text: str, position: int) -> None:
    with pytest.raises(PercentDecodeError) as ei:
        tcn.decode_feature_string(text)
    assert ei.value.position == position
    assert "RFC 2533" in str(ei.value)


def test_string_value_types() -> None:
    with pytest.raises(PercentEncodingTypeError):
        tcn.encode_feature_string(b"x")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        tcn.decode_feature_string(None)  # type: ignore[arg-type]


@settings(max_examples=300)
@given(st.text(alphabet=_STRING_CHARS))
def test_string_value_round_trip(value: str) -> None:
    quoted = tcn.encode_feature_string(value)
    assert quoted == '"' + value + '"'
    assert tcn.decode_feature_string(quoted) == value


@settings(max_examples=300)
@given(st.text())
def test_string_value_encode_refuses_exactly_the_first_bad_character(value: str) -> None:
    try:
        quoted = tcn.encode_feature_string(value)
    except PercentEncodeError as e:
        i = e.position
        assert value[i] not in _STRING_CHARS
        assert all(c in _STRING_CHARS for c in value[:i])
    else:
        assert all(c in _STRING_CHARS for c in value)
        assert quoted[1:-1] == value


@settings(max_examples=300)
@given(st.text(alphabet=_STRING_CHARS + '"\t\\\u00e9', max_size=12))
def test_string_value_decode_is_the_inverse_on_its_domain(text: str) -> None:
    try:
        value = tcn.decode_feature_string(text)
    except PercentDecodeError as e:
        assert 0 <= e.position <= len(text)
        ok = (len(text) >= 2 and text[0] == text[-1] == '"'
              and all(c in _STRING_CHARS for c in text[1:-1]))
        assert not ok, text
    else:
        assert tcn.encode_feature_string(value) == text


def test_string_registry_row() -> None:
    s = schemes.get("rfc2533-string")
    assert (s.plain, s.reversible, s.encode_set) == (False, True, None)
    assert s.encode("C:\\temp 100%") == "C:\\temp 100%"
    assert s.decode("C:\\temp 100%") == "C:\\temp 100%"
    assert s.encode(b"a\\b") == "a\\b"  # type: ignore[arg-type]
    for bad, pos in (('a"b', 1), ("\t", 0), ("\u00e9", 0), (b"ab\xff", 2)):
        with pytest.raises(PercentEncodeError) as ei:
            s.encode(bad)  # type: ignore[arg-type]
        assert ei.value.position == pos
        with pytest.raises(PercentDecodeError) as di:
            s.decode(bad)  # type: ignore[arg-type]
        assert di.value.position == pos
    # compare() shows what the row cannot carry, and that it escapes nothing
    table = schemes.compare(["rfc2533-string"])
    outs = {r["code_point"]: r["output"][0] for r in table["rows"]}
    refused = {cp for cp, o in outs.items() if o is not None}
    assert refused == {*range(0x20), 0x22, 0x7F}
    assert all(str(outs[cp]).startswith("error: ") for cp in refused)
