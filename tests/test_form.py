"""percent_encoding.form: parse (every option), parse_bytes, serialize,
html_form_body, FormParser and the registered schemes."""

from __future__ import annotations

import inspect
import re
import string
import urllib.parse
import warnings
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from percent_encoding import (
    FormLimitError,
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownEncodingError,
    form,
    schemes,
)
from percent_encoding.form import (
    FormParser,
    html_form_body,
    parse,
    parse_bytes,
    serialize,
)
from percent_encoding.legacy import whatwg_form_parse

# --------------------------------------------------------------------------------------------
# parse: the URL Standard parser


def test_parse_basics() -> None:
    assert parse("a=1&b=caf%C3%A9+au+lait&c&=d&&e=") == [
        ("a", "1"),
        ("b", "café au lait"),
        ("c", ""),
        ("", "d"),
        ("e", ""),
    ]
    assert parse("a==b") == [("a", "=b")]
    assert parse("%zz=%4") == [("%zz", "%4")]
    assert parse("%2B=%26") == [("+", "&")]
    assert parse("") == []


def test_parse_str_and_bytes_agree() -> None:
    s = "n%C3%A9=é+%FF&x"
    assert parse(s) == parse(s.encode("utf-8")) == [("né", "é \ufffd"), ("x", "")]
    assert parse(bytearray(b"a=b")) == [("a", "b")]
    assert parse(memoryview(b"a=b")) == [("a", "b")]


def test_parse_keeps_bom_and_replaces_invalid_utf8() -> None:
    # UTF-8 decode *without BOM*: a leading BOM stays; each bad sequence is one U+FFFD.
    assert parse("%EF%BB%BFa=%E2%82") == [("\ufeffa", "\ufffd")]
    assert parse(b"a=\xc3(") == [("a", "\ufffd(")]


def test_parse_lone_surrogate_in_str() -> None:
    assert parse("a\ud800=%41") == [("a\ufffd", "A")]
    with pytest.raises(PercentDecodeError) as e:
        parse("ab=\udc00", errors="strict")
    assert e.value.position == 3


def test_parse_type_errors() -> None:
    with pytest.raises(PercentEncodingTypeError):
        parse(123)  # type: ignore[call-overload]
    with pytest.raises(TypeError):
        parse(None)  # type: ignore[call-overload]
    with pytest.raises(ValueError):
        parse("a", errors="ignore")  # type: ignore[call-overload]


def test_parse_encoding_override() -> None:
    assert parse(b"q=%93%FA%96%7B", encoding="shift_jis") == [("q", "日本")]
    assert parse(b"q=%93%FA%96%7B", encoding="  SJIS ") == [("q", "日本")]
    assert parse(b"q=%80+%E9", encoding="latin1") == [("q", "€ é")]  # windows-1252
    assert parse(b"q=%B0%A1", encoding="euc-kr") == [("q", "가")]
    # a str is UTF-8 encoded first (URL Standard string parser), then decoded
    assert parse("é", encoding="windows-1252") == [("Ã©", "")]
    assert parse(b"q=%C3%A9", encoding="utf8") == [("q", "é")]
    with pytest.raises(UnknownEncodingError):
        parse(b"a", encoding="no-such-charset")
    with pytest.raises(LookupError):
        parse(b"a", encoding="utf-7")


def test_parse_charset_hack() -> None:
    body = b"a=%93%FA&_charset_=shift_jis&b=%96%7B"
    # the _charset_ field decodes every field, also those before it
    assert whatwg_form_parse(body, charset_hack=True) == [
        ("a", "日"),
        ("_charset_", "shift_jis"),
        ("b", "本"),
    ]
    # without the flag: UTF-8 (what browsers' parsers do today)
    assert parse(body) == [("a", "\ufffd\ufffd"), ("_charset_", "shift_jis"), ("b", "\ufffd{")]
    # it beats an encoding override
    assert whatwg_form_parse(body, charset_hack=True, encoding="windows-1252")[0] == ("a", "日")
    # an unknown label is skipped; the first known one wins
    body2 = b"_charset_=bogus&_charset_=windows-1252&_charset_=shift_jis&x=%E9"
    assert whatwg_form_parse(body2, charset_hack=True)[-1] == ("x", "é")
    # the name is matched in any case, before percent-decoding
    assert whatwg_form_parse(b"_CHARSET_=latin1&x=%E9", charset_hack=True)[-1] == ("x", "é")
    body3 = b"%5Fcharset%5F=latin1&x=%E9"
    assert whatwg_form_parse(body3, charset_hack=True)[-1] == ("x", "\ufffd")
    # the value may be percent-encoded or use + (ASCII whitespace is trimmed by lookup)
    body4 = b"_charset_=+Shift%5FJIS&x=%83A"
    assert whatwg_form_parse(body4, charset_hack=True)[-1] == ("x", "ア")
    # no _charset_ field: the override (or UTF-8) decodes
    assert whatwg_form_parse(b"x=%E9", charset_hack=True, encoding="latin1") == [("x", "é")]
    assert whatwg_form_parse("x=%C3%A9", charset_hack=True) == [("x", "é")]


def test_the_pre_2016_keywords_of_parse_warn_and_still_work() -> None:
    # charset_hack=, isindex= and edition= moved to legacy.whatwg_form_parse; for one
    # release form.parse still takes them, with a warning that names the new call.
    body = b"a=%93%FA&_charset_=shift_jis"
    new = whatwg_form_parse(body, charset_hack=True)
    with pytest.deprecated_call(match=r"form\.parse\(charset_hack=\) is deprecated; "
                                      r"use legacy\.whatwg_form_parse\(\)"):
        assert parse(body, charset_hack=True) == new == [("a", "日"), ("_charset_", "shift_jis")]  # type: ignore[call-arg]
    with pytest.deprecated_call(match=r"isindex=, max_fields=|isindex=\)"):
        assert parse("x&a=b", isindex=True, max_fields=5) == [("", "x"), ("a", "b")]  # type: ignore[call-arg]
    with pytest.deprecated_call(match=r"edition=\)"):
        with pytest.raises(TextDecodeError):
            parse(b"a=\xe9", encoding="latin1", edition="2014")  # type: ignore[call-arg]
    # the new calls do not warn
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert whatwg_form_parse("x&a=b", isindex=True) == [("", "x"), ("a", "b")]
        assert parse("a=1", encoding="latin1") == [("a", "1")]
    with pytest.raises(PercentEncodingError, match=r"detect\.parse_form"):
        whatwg_form_parse("a=1", encoding="auto")


@pytest.mark.one_impl
def test_parse_has_one_signature_with_the_spec_options() -> None:
    params = inspect.signature(parse).parameters.values()
    options = [p.name for p in params if p.kind is p.KEYWORD_ONLY]
    assert options == ["encoding", "separators", "strip_leading_question_mark", "max_fields",
                       "max_field_size", "max_total", "errors", "strict"]
    assert len(options) <= 9
    # the old keywords are only a deprecated catch-all, no second signature
    assert [p.kind for p in params][-1] is inspect.Parameter.VAR_KEYWORD
    # the C twin's entry (src/csrc/entry.c) wraps the one Python function, itself
    # unwrapped
    inner = inspect.unwrap(parse)
    assert not hasattr(inner, "__wrapped__")
    assert inspect.signature(inner) == inspect.signature(parse)
    import typing

    if hasattr(typing, "get_overloads"):  # Python 3.11+
        assert typing.get_overloads(inner) == []


def test_parse_isindex() -> None:
    assert whatwg_form_parse("hello+world", isindex=True) == [("", "hello world")]
    assert whatwg_form_parse("q%3D1&a=b", isindex=True) == [("", "q=1"), ("a", "b")]
    # a first field with "=" is a normal field; later fields are never touched
    assert whatwg_form_parse("a=b&c", isindex=True) == [("a", "b"), ("c", "")]
    # an empty first field is dropped as usual; the rule looks only at the first
    assert whatwg_form_parse("&c", isindex=True) == [("c", "")]
    assert whatwg_form_parse("", isindex=True) == []
    assert parse_bytes(b"k%FF", isindex=True) == [(b"", b"k\xff")]


def test_parse_separators() -> None:
    assert parse("a=1;b=2&c=3") == [("a", "1;b=2"), ("c", "3")]
    assert parse("a=1;b=2&c=3", separators="&;") == [("a", "1"), ("b", "2"), ("c", "3")]
    assert parse("a=1;b=2&c=3", separators=";") == [("a", "1"), ("b", "2&c=3")]
    assert parse("a=%3B;b", separators=";") == [("a", ";"), ("b", "")]
    assert parse("a=1&x;b", separators=";", errors="strict", strict=True) == [
        ("a", "1&x"),
        ("b", ""),
    ]
    assert parse_bytes(b"a=1&x;b", separators=";") == [(b"a", b"1&x"), (b"b", b"")]
    with pytest.raises(PercentDecodeError) as e:
        parse("a&b;c=%zz", separators=";", errors="strict", strict=True)
    assert e.value.position == 6
    for bad in ("", "=", "+", "%", "a", "&7", "é"):
        with pytest.raises(ValueError):
            parse("a", separators=bad)


def test_parse_strip_leading_question_mark() -> None:
    assert parse("?a=b") == [("?a", "b")]
    assert parse("?a=b", strip_leading_question_mark=True) == [("a", "b")]
    assert parse(b"??a", strip_leading_question_mark=True) == [("?a", "")]
    assert parse("a?=b", strip_leading_question_mark=True) == [("a?", "b")]


def test_parse_max_fields() -> None:
    assert parse("a&b&&&", max_fields=2) == [("a", ""), ("b", "")]
    with pytest.raises(FormLimitError) as e:
        parse("a&b&c", max_fields=2)
    assert e.value.limit == "max_fields"
    assert e.value.value == 3
    assert isinstance(e.value, ValueError)
    assert parse("", max_fields=0) == []
    with pytest.raises(FormLimitError):
        parse("x", max_fields=0)
    with pytest.raises(ValueError):
        parse("x", max_fields=-1)
    with pytest.raises(FormLimitError):
        parse_bytes(b"a&b", max_fields=1)


def test_parse_strict_positions() -> None:
    with pytest.raises(PercentDecodeError) as e:
        parse("a=1&b=%4G", errors="strict", strict=True)
    assert e.value.position == 6
    with pytest.raises(PercentDecodeError) as e:
        parse(b"?a=%", errors="strict", strict=True, strip_leading_question_mark=True)
    assert e.value.position == 3
    with pytest.raises(TextDecodeError) as te:
        parse("x=1&n%C3%A9%FF=v", errors="strict", strict=True)
    # %FF starts at index 11 of the input
    assert te.value.position == 11
    with pytest.raises(TextDecodeError) as te:
        parse("a=é&b=%E9", errors="strict", strict=True)
    assert te.value.position == 6
    with pytest.raises(TextDecodeError) as te:
        parse(b"a=%82%A0&b=%82", encoding="shift_jis", errors="strict", strict=True)
    assert te.value.position == 11
    assert parse("a=%C3%A9+", errors="strict", strict=True) == [("a", "é ")]
    assert parse(b"a=%82%A0", encoding="shift_jis", errors="strict", strict=True) == [("a", "あ")]


def test_parse_bytes() -> None:
    assert parse_bytes(b"a=%93%FA&b=caf%C3%A9+x&&c") == [
        (b"a", b"\x93\xfa"),
        (b"b", b"caf\xc3\xa9 x"),
        (b"c", b""),
    ]
    assert parse_bytes("é=%FF") == [("é".encode(), b"\xff")]
    assert parse_bytes(b"?a;b", separators="&;", strip_leading_question_mark=True) == [
        (b"a", b""),
        (b"b", b""),
    ]


# --------------------------------------------------------------------------------------------
# serialize


def test_serialize_set() -> None:
    # URL Standard §5.2: only ASCII alphanumerics and *-._ stay; space is "+".
    keep = set(string.ascii_letters + string.digits + "*-._")
    for cp in range(128):
        ch = chr(cp)
        out = serialize([(ch, "")])[:-1]
        if ch == " ":
            assert out == "+"
        elif ch in keep:
            assert out == ch
        else:
            assert out == f"%{cp:02X}", ch


def test_serialize_examples() -> None:
    assert serialize([("q", "café au lait"), ("x", "1+1=2"), ("", "")]) == (
        "q=caf%C3%A9+au+lait&x=1%2B1%3D2&="
    )
    assert serialize({"a": "~", "b": "\U0001f4a9"}) == "a=%7E&b=%F0%9F%92%A9"
    assert serialize(p for p in [("a", "b")]) == "a=b"
    assert serialize([]) == ""
    assert serialize([("raw", b"\xff ")]) == "raw=%FF+"
    assert serialize([["a", "b"]]) == "a=b"  # type: ignore[list-item]


def test_serialize_legacy_encodings() -> None:
    pairs = [("q", "€ ☃")]
    assert serialize(pairs, encoding="windows-1252") == "q=%80+%26%239731%3B"
    assert serialize([("q", "日本&")], encoding="shift_jis") == "q=%93%FA%96%7B%26"
    assert serialize([("q", "é")], encoding="iso-8859-2") == "q=%E9"
    assert serialize([("q", "\u00a5")], encoding="iso-2022-jp") == "q=%1B%28J%5C%1B%28B"
    # output encoding: UTF-16 and replacement serialize as UTF-8
    assert serialize([("q", "é")], encoding="utf-16le") == "q=%C3%A9"
    assert serialize([("q", "é")], encoding="replacement") == "q=%C3%A9"
    with pytest.raises(UnknownEncodingError):
        serialize([("a", "b")], encoding="bogus")


def test_serialize_errors() -> None:
    with pytest.raises(PercentEncodeError) as e:
        serialize([("a", "x\ud800")])
    assert e.value.position == 1
    with pytest.raises(PercentEncodeError):
        serialize([("a", "x\ud800")], encoding="shift_jis")
    # (("a", 1) and (None, "b") are fine: str() of them, as urllib.parse.urlencode does.)
    for bad in ([("a",)], [("a", "b", "c")], ["ab"], [1]):
        with pytest.raises(PercentEncodingTypeError):
            serialize(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        serialize("a=b")  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        serialize(3)  # type: ignore[arg-type]


usv_text = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"]), max_size=12
)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(usv_text, usv_text), max_size=6))
def test_serialize_parse_round_trip(pairs: list[tuple[str, str]]) -> None:
    s = serialize(pairs)
    assert s.isascii()
    assert parse(s) == pairs
    assert parse(s.encode("ascii")) == pairs


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(usv_text, usv_text), max_size=4))
def test_legacy_round_trip_when_encodable(pairs: list[tuple[str, str]]) -> None:
    # gb18030 encodes every scalar value but U+E5E5, so it round-trips.
    pairs = [(n.replace("\ue5e5", ""), v.replace("\ue5e5", "")) for n, v in pairs]
    s = serialize(pairs, encoding="gb18030")
    assert parse(s, encoding="gb18030") == pairs


# --------------------------------------------------------------------------------------------
# html_form_body


def test_html_form_body_urlencoded() -> None:
    entries = [("a b", "x\ny\rz\r\nw\n\r"), ("_charset_", "ignored"), ("s", "\ud800")]
    assert html_form_body(entries) == (
        b"a+b=x%0D%0Ay%0D%0Az%0D%0Aw%0D%0A%0D%0A&_charset_=UTF-8&s=%EF%BF%BD"
    )
    assert html_form_body([("_ChArSeT_", "")], encoding="sjis") == b"_ChArSeT_=Shift_JIS"
    # only the exact ASCII name counts
    assert html_form_body([("_charset", "x")], encoding="sjis") == b"_charset=x"
    # UTF-16 forms submit as UTF-8
    assert html_form_body([("_charset_", ""), ("e", "é")], encoding="utf-16") == (
        b"_charset_=UTF-8&e=%C3%A9"
    )
    assert html_form_body([("e", "é☃")], encoding="windows-1252") == b"e=%E9%26%239731%3B"
    assert html_form_body({"k": "v"}, enctype="Application/X-WWW-Form-URLEncoded") == b"k=v"


def test_html_form_body_text_plain() -> None:
    entries = [("a b", "1+1=2&x"), ("n", "l1\nl2"), ("_charset_", "")]
    assert html_form_body(entries, enctype="text/plain") == (
        b"a b=1+1=2&x\r\nn=l1\r\nl2\r\n_charset_=UTF-8\r\n"
    )
    # legacy encodings write unencodable characters as raw &#N; (HTML mode)
    assert html_form_body([("t", "日☃")], encoding="shift_jis", enctype="text/plain") == (
        b"t=\x93\xfa&#9731;\r\n"
    )
    assert html_form_body([], enctype="text/plain") == b""


def test_html_form_body_mailto() -> None:
    entries = [("subject", "a b+c"), ("body", "x\ny")]
    assert html_form_body(entries, mailto="headers") == (
        b"subject=a%20b%2Bc&body=x%0D%0Ay"
    )
    # mail-with-headers ignores enctype
    assert html_form_body(entries, mailto="headers", enctype="text/plain") == (
        b"subject=a%20b%2Bc&body=x%0D%0Ay"
    )
    # mail-as-body: the urlencoded body as is ...
    assert html_form_body(entries, mailto="body") == b"subject=a+b%2Bc&body=x%0D%0Ay"
    # ... or the text/plain lines, UTF-8 percent-encoded with the path set
    assert html_form_body(
        [("a", "é &?")], mailto="body", enctype="text/plain", encoding="latin1"
    ) == b"a=%C3%A9%20&%3F%0D%0A"


def test_html_form_body_errors() -> None:
    with pytest.raises(ValueError):
        html_form_body([], enctype="multipart/mixed")
    for bad in ("", "x" * 71, "ends in space ", "semi;colon", "é"):
        with pytest.raises(PercentEncodingError, match="boundary"):
            html_form_body([], enctype="multipart/form-data", boundary=bad)
    with pytest.raises(PercentEncodingTypeError):
        html_form_body([], enctype="multipart/form-data", boundary=b"x")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        html_form_body([], mailto="cc")  # type: ignore[arg-type]
    with pytest.raises(UnknownEncodingError):
        html_form_body([], encoding="nope")
    with pytest.raises(PercentEncodingTypeError):
        html_form_body([("a", b"b")])  # type: ignore[list-item]


# --------------------------------------------------------------------------------------------
# FormParser


def _feed_all(parser: FormParser, chunks: list[bytes]) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for c in chunks:
        out += parser.feed(c)
    out += parser.close()
    return out


def _split(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({min(c, len(data)) for c in cuts})
    chunks, prev = [], 0
    for p in points:
        chunks.append(data[prev:p])
        prev = p
    chunks.append(data[prev:])
    return chunks


body_atoms = st.sampled_from(
    [b"a", b"b", b"=", b"&", b"&", b"+", b"%", b"%4", b"%41", b"%C3", b"%A9", b"%FF",
     b"\xc3\xa9", b"\xff", b"\x93\xfa", b";", b"_charset_"]
)
bodies = st.lists(body_atoms, max_size=30).map(b"".join)


@settings(max_examples=200, deadline=None)
@given(bodies, st.lists(st.integers(0, 200), max_size=8),
       st.sampled_from([None, "shift_jis", "windows-1252"]),
       st.sampled_from(["&", "&;", ";"]))
def test_form_parser_any_chunking_equals_parse(
    body: bytes, cuts: list[int], encoding: str | None, separators: str
) -> None:
    expected = parse(body, encoding=encoding, separators=separators)
    parser = FormParser(encoding=encoding, separators=separators)
    assert _feed_all(parser, _split(body, cuts)) == expected


@settings(max_examples=150, deadline=None)
@given(bodies, st.lists(st.integers(0, 200), max_size=8), st.integers(0, 5))
def test_form_parser_max_fields_agrees_with_parse(
    body: bytes, cuts: list[int], limit: int
) -> None:
    try:
        expected = parse(body, max_fields=limit, separators="&;")
    except FormLimitError:
        with pytest.raises(FormLimitError):
            _feed_all(FormParser(max_fields=limit, separators="&;"), _split(body, cuts))
    else:
        got = _feed_all(FormParser(max_fields=limit, separators="&;"), _split(body, cuts))
        assert got == expected


def test_form_parser_example() -> None:
    p = FormParser()
    assert p.feed(b"a=1&b=caf%C3") == [("a", "1")]
    assert p.feed(b"%A9&c") == [("b", "café")]
    assert p.feed(b"") == []
    assert p.close() == [("c", "")]
    assert p.fields == 3
    assert p.total == 17
    with pytest.raises(PercentEncodingError):
        p.feed(b"x")
    with pytest.raises(PercentEncodingError):
        p.close()


def test_form_parser_buffers_only_the_current_field() -> None:
    p = FormParser()
    big = b"x=" + b"v" * 1000
    for _ in range(50):
        p.feed(big + b"&")
        assert len(p._buf) == 0
    p.feed(b"partial=12")
    assert len(p._buf) == 10
    assert p.close() == [("partial", "12")]


def test_form_parser_max_field_size_raises_mid_field() -> None:
    p = FormParser(max_field_size=8)
    assert p.feed(b"a=1234&b=") == [("a", "1234")]
    p.feed(b"123456")  # 8 bytes in the field: still allowed
    with pytest.raises(FormLimitError) as e:
        p.feed(b"7")  # no separator yet: raised as soon as the field passes 8
    assert e.value.limit == "max_field_size"
    assert e.value.value == 9
    with pytest.raises(PercentEncodingError):
        p.feed(b"&")  # the parser is dead after an error
    q = FormParser(max_field_size=3)
    with pytest.raises(FormLimitError):
        q.feed(b"ab&abcd&x")  # a complete field inside one chunk


def test_form_parser_max_total_and_fields() -> None:
    p = FormParser(max_total=10)
    p.feed(b"a=1&b=2")
    with pytest.raises(FormLimitError) as e:
        p.feed(b"&cc=")
    assert (e.value.limit, e.value.value) == ("max_total", 11)
    p = FormParser(max_fields=1)
    assert p.feed(b"a=1&&&") == [("a", "1")]
    with pytest.raises(FormLimitError) as e:
        p.feed(b"b")  # the first byte of a second field crosses the limit
    assert e.value.limit == "max_fields"


def test_form_parser_strict_positions_are_stream_offsets() -> None:
    p = FormParser(errors="strict", strict=True)
    p.feed(b"aaaa=1&")
    with pytest.raises(PercentDecodeError) as e:
        p.feed(b"b=%zz&")
    assert e.value.position == 9
    p = FormParser(errors="strict", strict=True)
    p.feed(b"a=%C3")
    with pytest.raises(TextDecodeError) as te:
        p.feed(b"&b")
    assert te.value.position == 2


def test_form_parser_input_types() -> None:
    p = FormParser()
    assert p.feed("é=1&") == [("é", "1")]
    assert p.feed(bytearray(b"b=2&")) == [("b", "2")]
    with pytest.raises(PercentEncodingTypeError):
        p.feed(12)  # type: ignore[arg-type]
    with pytest.raises(UnknownEncodingError):
        FormParser(encoding="bogus")
    with pytest.raises(ValueError):
        FormParser(max_fields=-2)


# --------------------------------------------------------------------------------------------
# schemes


def test_schemes_registered() -> None:
    s = schemes.get("application/x-www-form-urlencoded")
    assert schemes.get("url-search-params") is s
    assert s.encode("a b+é") == "a+b%2B%C3%A9"
    assert s.decode is not None and s.decode("a+b%2B%C3%A9") == "a b+é"
    assert s.encode_pairs is not None and s.encode_pairs([("a", "b c")]) == "a=b+c"
    m = schemes.get("html-form-mailto")
    assert m.encode("a b+") == "a%20b%2B"
    assert m.decode is not None and m.decode("a+b%20") == "a+b "
    assert m.encode_pairs is not None and m.encode_pairs([("s", "x y")]) == "s=x%20y"
    table = schemes.compare(["application/x-www-form-urlencoded", "html-form-mailto"])
    space = table["rows"][0x20]["output"]
    assert space == ["+", "%20"]


# --------------------------------------------------------------------------------------------
# every parse option against an independent byte-level reference of the old
# (pre-2016) URL Standard parser


def _ref_percent_decode(b: bytes) -> bytes:
    out = bytearray()
    i = 0
    while i < len(b):
        if b[i] == 0x25 and all(c in b"0123456789abcdefABCDEF" for c in b[i + 1 : i + 3]) and (
            len(b[i + 1 : i + 3]) == 2
        ):
            out.append(int(b[i + 1 : i + 3], 16))
            i += 3
        else:
            out.append(b[i])
            i += 1
    return bytes(out)


def _ref_parse(
    data: bytes, separators: str, strip: bool, isindex: bool, encoding: str | None
) -> list[tuple[str, str]]:
    from percent_encoding import encodings

    if strip and data[:1] == b"?":
        data = data[1:]
    seqs = [data]
    for sep in separators.encode("ascii"):
        seqs = [part for s in seqs for part in s.split(bytes([sep]))]
    if isindex and seqs[0] and b"=" not in seqs[0]:
        seqs[0] = b"=" + seqs[0]
    enc = encodings.lookup(encoding or "utf-8")
    out = []
    for seq in seqs:
        if not seq:
            continue
        name, _, value = seq.partition(b"=")
        out.append(
            (
                enc.decode(_ref_percent_decode(name.replace(b"+", b" "))),
                enc.decode(_ref_percent_decode(value.replace(b"+", b" "))),
            )
        )
    return out


@settings(max_examples=300, deadline=None)
@given(
    bodies | st.lists(st.sampled_from([b"?", b"a", b"&", b";", b"%26", b"%", b"=", b"|"]),
                      max_size=12).map(b"".join),
    st.sampled_from(["&", "&;", ";", ";|", "|&"]),
    st.booleans(),
    st.booleans(),
    st.sampled_from([None, "utf-8", "shift_jis", "windows-1252"]),
    st.booleans(),
)
def test_parse_options_match_reference(
    body: bytes, separators: str, strip: bool, isindex: bool, encoding: str | None,
    as_str: bool,
) -> None:
    expected = _ref_parse(body, separators, strip, isindex, encoding)
    data: str | bytes = body
    if as_str:
        data = body.decode("utf-8", "replace")
        expected = _ref_parse(data.encode("utf-8"), separators, strip, isindex, encoding)
    got = whatwg_form_parse(
        data,
        separators=separators,
        strip_leading_question_mark=strip,
        isindex=isindex,
        encoding=encoding,
    )
    assert got == expected
    if not isindex:  # today's parser is the same without the flag
        assert parse(data, separators=separators, strip_leading_question_mark=strip,
                     encoding=encoding) == expected
    raw = parse_bytes(
        data, separators=separators, strip_leading_question_mark=strip, isindex=isindex
    )
    assert len(raw) == len(expected)


@settings(max_examples=300, deadline=None)
@given(bodies, st.sampled_from([None, "shift_jis", "windows-1252", "euc-kr"]))
def test_strict_raises_exactly_when_replace_would_repair(body: bytes, encoding: str | None) -> None:
    lenient = parse(body, encoding=encoding)
    try:
        got = parse(body, encoding=encoding, errors="strict", strict=True)
    except PercentDecodeError as e:
        assert body[e.position : e.position + 1] == b"%"
        assert not re.fullmatch(rb"%[0-9A-Fa-f]{2}", body[e.position : e.position + 3])
    except TextDecodeError as e:
        assert not re.search(rb"%(?![0-9A-Fa-f]{2})", body)
        # the position is where an undecodable byte (raw or escaped) starts
        assert body[e.position] == 0x25 or body[e.position] >= 0x80
    else:
        assert got == lenient
        assert not re.search(rb"%(?![0-9A-Fa-f]{2})", body)


# -- serialize takes what urllib.parse.urlencode(..., doseq=True) takes ---------------------

_scalar_st = st.one_of(
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=8),
    st.binary(max_size=6),
    st.integers(), st.floats(allow_nan=False), st.booleans(), st.none(),
)
_value_st = st.one_of(_scalar_st, st.lists(_scalar_st, max_size=3),
                      st.tuples(_scalar_st, _scalar_st))
_name_st = st.one_of(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=6),
                     st.integers(), st.binary(max_size=4))


@given(st.one_of(
    st.lists(st.tuples(_name_st, _value_st), max_size=6),
    st.dictionaries(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=5),
                    _value_st, max_size=5),
))
def test_serialize_matches_urlencode_structure(query: Any) -> None:
    # The same pairs, in the same order, as urllib.parse.urlencode(query, doseq=True):
    # both outputs parse back to the same list.  Only the escaping differs (the URL
    # Standard leaves *, encodes ~; urllib's quote_plus does the opposite).
    ours = serialize(query)
    theirs = urllib.parse.urlencode(query, doseq=True)
    assert urllib.parse.parse_qsl(ours, keep_blank_values=True, errors="surrogateescape") == \
        urllib.parse.parse_qsl(theirs, keep_blank_values=True, errors="surrogateescape")
    assert ours.count("&") == theirs.count("&")


@pytest.mark.parametrize(("query", "want"), [
    ({"page": 2, "q": "a b"}, "page=2&q=a+b"),
    ([("tag", ["x", "y z"]), ("n", (1, 2.5))], "tag=x&tag=y+z&n=1&n=2.5"),
    ({"flag": True, "none": None}, "flag=True&none=None"),
    ({"empty": []}, ""),
    ([(1, b"\xff")], "1=%FF"),
    ({"s": "abc"}, "s=abc"),          # a str value is one value, not three
    ({"b": b"ab"}, "b=ab"),           # bytes too
    ({"nested": [["a", "b"]]}, "nested=%5B%27a%27%2C+%27b%27%5D"),  # str() of the inner list
])
def test_serialize_doseq_cases(query: Any, want: str) -> None:
    assert serialize(query) == want
    assert serialize(query, encoding="windows-1252") == want


def test_serialize_exact_same_as_urlencode_where_the_escaping_agrees() -> None:
    q = {"a": [1, 2], "b": "x_y-z.0", "c": None}
    assert serialize(q) == urllib.parse.urlencode(q, doseq=True)


@pytest.mark.parametrize("bad", ["ab", b"ab", 5, [("a", "b", "c")], [("a",)], [5]])
def test_serialize_still_refuses_what_is_not_pairs(bad: Any) -> None:
    with pytest.raises(PercentEncodingTypeError):
        serialize(bad)


# --------------------------------------------------------------------------------------------
# multipart/form-data, isindex (HTML before 2016) and group (Micropub)


def test_multipart_escape_only_three_characters() -> None:
    # HTML §4.10.22.8: LF, CR and " are the only escapes; % and \ stay.
    assert form.multipart_escape('a"b\rc\nd%22\\e;=') == "a%22b%0Dc%0Ad%22\\e;="
    with pytest.raises(PercentEncodingTypeError):
        form.multipart_escape(b"x")  # type: ignore[arg-type]


def test_multipart_body_shape() -> None:
    body = html_form_body(
        [("n\nm", 'v"\r'), ("_charset_", "")],
        enctype="multipart/form-data",
        boundary="B",
    )
    assert body == (
        b'--B\r\nContent-Disposition: form-data; name="n%0D%0Am"\r\n\r\nv"\r\n\r\n'
        b'--B\r\nContent-Disposition: form-data; name="_charset_"\r\n\r\nUTF-8\r\n'
        b"--B--\r\n"
    )
    assert html_form_body([], enctype="multipart/form-data", boundary="B") == b"--B--\r\n"


def test_multipart_legacy_encoding_uses_character_references() -> None:
    body = html_form_body(
        [("☃é", "€☃")], enctype="multipart/form-data", boundary="B", encoding="latin1"
    )
    assert b'name="&#9731;\xe9"' in body
    assert b"\r\n\r\n\x80&#9731;\r\n" in body


def test_multipart_escapes_encoded_bytes() -> None:
    # "※" is 0x22 0x28 in ISO-2022-JP's JIS X 0208 mode: the 0x22 byte is escaped
    # (Chromium does the same; see test_form_chromium.py).
    body = html_form_body([("※", "※")], enctype="multipart/form-data", boundary="B",
                          encoding="iso-2022-jp")
    assert b'name="\x1b$B%22(\x1b(B"' in body
    assert b'\r\n\r\n\x1b$B"(\x1b(B\r\n' in body  # values are not escaped


def test_multipart_random_boundary_is_on_the_first_line() -> None:
    a = html_form_body([("a", "1")], enctype="multipart/form-data")
    b = html_form_body([("a", "1")], enctype="multipart/form-data")
    first = a.split(b"\r\n", 1)[0]
    assert first.startswith(b"--") and a.endswith(first + b"--\r\n")
    assert a != b


def test_isindex_first_entry_is_value_alone() -> None:
    # HTML before 2016, urlencoded algorithm, the isindex step.
    entries = [("isindex", "a b&c=d"), ("x", "1"), ("isindex", "2")]
    assert html_form_body(entries, isindex=True) == b"a+b%26c%3Dd&x=1&isindex=2"
    assert html_form_body(entries) == b"isindex=a+b%26c%3Dd&x=1&isindex=2"
    # only when it is the first entry, and the name is exact
    assert html_form_body([("x", "1"), ("isindex", "v")], isindex=True) == b"x=1&isindex=v"
    assert html_form_body([("ISINDEX", "v")], isindex=True) == b"ISINDEX=v"
    assert html_form_body([("isindex", "é")], isindex=True, encoding="latin1") == b"%E9"
    # and the URL Standard's pre-2016 parser reads it back, with an empty name
    assert whatwg_form_parse("a+b%26c%3Dd&x=1", isindex=True) == [("", "a b&c=d"), ("x", "1")]


@given(st.text(min_size=1), st.lists(st.tuples(st.text(min_size=1), st.text()), max_size=3))
def test_isindex_round_trip(value: str, rest: list[tuple[str, str]]) -> None:
    # (an empty isindex value sends an empty field, which the parser skips)
    value = value.encode("utf-8", "replace").decode()
    rest = [(n.encode("utf-8", "replace").decode().replace("\r", "").replace("\n", ""),
             v.encode("utf-8", "replace").decode().replace("\r", "").replace("\n", ""))
            for n, v in rest]
    value = value.replace("\r", "").replace("\n", "")
    assume(value and all(n for n, _ in rest))
    body = html_form_body([("isindex", value), *rest], isindex=True)
    assert whatwg_form_parse(body, isindex=True) == [("", value), *rest]


def test_group_micropub() -> None:
    # Micropub §3.3.2: category[]=a&category[]=b
    pairs = form.parse("h=entry&content=hi&category[]=foo&category[]=bar&photo[]=p")
    assert form.group(pairs) == {
        "h": "entry", "content": "hi", "category": ["foo", "bar"], "photo": ["p"]
    }
    # nothing is lost: a repeated plain name, and a mix, give lists in order
    assert form.group([("a", "1"), ("a[]", "2"), ("a", "3")]) == {"a": ["1", "2", "3"]}
    assert form.group([("a[]", "1"), ("a", "2")]) == {"a": ["1", "2"]}
    assert form.group([("[]", "x"), ("a[][]", "y")]) == {"": ["x"], "a[]": ["y"]}
    with pytest.raises(PercentEncodingTypeError):
        form.group("a=1")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        form.group([("a",)])  # type: ignore[list-item]


@given(st.lists(st.tuples(st.sampled_from(["a", "a[]", "b", "c[]"]), st.text())))
def test_group_keeps_every_value(pairs: list[tuple[str, str]]) -> None:
    g = form.group(pairs)
    flat = [v for x in g.values() for v in (x if isinstance(x, list) else [x])]
    assert sorted(flat) == sorted(v for _, v in pairs)


def test_2014_edition_fails_on_raw_non_ascii_with_an_override() -> None:
    # URL Standard 2014-2016, urlencoded parser: encoding override not utf-8 and a
    # byte above 0x7F in the input: failure.  Escaped bytes are fine; UTF-8 is fine.
    assert whatwg_form_parse(b"a=%E9", encoding="latin1", edition="2014") == [("a", "é")]
    with pytest.raises(TextDecodeError) as e:
        whatwg_form_parse(b"a=1&b=\xe9", encoding="latin1", edition="2014")
    assert e.value.position == 6
    with pytest.raises(TextDecodeError) as e:
        whatwg_form_parse("?a=é", encoding="shift_jis", edition="2014",
                          strip_leading_question_mark=True)
    assert e.value.position == 3
    assert whatwg_form_parse(b"a=\xc3\xa9", edition="2014") == [("a", "é")]
    assert whatwg_form_parse(b"a=\xc3\xa9", encoding="utf-8", edition="2014") == [("a", "é")]
    # today's parser decodes the raw byte with the override
    assert parse(b"a=\xe9", encoding="latin1") == [("a", "é")]
    with pytest.raises(PercentEncodingError):
        whatwg_form_parse("a=1", edition="2015")  # type: ignore[arg-type]


@given(st.binary())
def test_2014_edition_matches_today_on_ascii_input(data: bytes) -> None:
    ascii_only = bytes(b & 0x7F for b in data)
    assert whatwg_form_parse(ascii_only, encoding="latin1", edition="2014") == parse(
        ascii_only, encoding="latin1"
    )


@given(st.lists(st.tuples(
    st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="%\r")),
    st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\r")),
), max_size=4))
@settings(max_examples=60)
def test_multipart_round_trip(pairs: list[tuple[str, str]]) -> None:
    # RFC 7578 / RFC 2046 §5.1.1 read back by splitting at the delimiters: every
    # part is there, undoing HTML's three escapes gives the name (LF became CRLF),
    # and the value is as sent (CRLF-normalized, UTF-8).
    assume(all("b0und" not in n + v for n, v in pairs))
    body = html_form_body(pairs, enctype="multipart/form-data", boundary="b0und")
    assert body.startswith(b"--b0und") and body.endswith(b"--b0und--\r\n")
    chunks = body[len(b"--b0und"):-len(b"--\r\n")].split(b"\r\n--b0und")
    parts = [c for c in chunks if c]
    if not pairs:
        assert body == b"--b0und--\r\n"
        return
    assert len(parts) == len(pairs)
    for part, (name, value) in zip(parts, pairs, strict=True):
        head, sep, payload = part.partition(b"\r\n\r\n")
        assert sep
        prefix = b'\r\nContent-Disposition: form-data; name="'
        assert head.startswith(prefix) and head.endswith(b'"')
        raw_name = head[len(prefix):-1]
        assert b'"' not in raw_name and b"\r" not in raw_name and b"\n" not in raw_name
        got = raw_name.decode().replace("%22", '"').replace("%0D", "\r").replace("%0A", "\n")
        assert got == name.replace("\n", "\r\n")
        assert payload == value.replace("\n", "\r\n").encode("utf-8")


# --- files in the entry list (HTML §4.10.22.4, §4.10.22.8) ------------------------


@pytest.mark.one_impl
def test_file_entries_multipart() -> None:
    from percent_encoding.form import File

    body = html_form_body(
        [("t", "a\nb"), ("f", File('x"y\rz\n.bin', b"\r\n\x00\xff", "image/png")),
         ("_charset_", File("c.txt", b"", "")), ("e", File(""))],
        enctype="multipart/form-data", boundary="B")
    assert body == (
        b'--B\r\nContent-Disposition: form-data; name="t"\r\n\r\na\r\nb\r\n'
        # the file name keeps its lone CR and LF (escaped), the content its bytes
        b'--B\r\nContent-Disposition: form-data; name="f"; filename="x%22y%0Dz%0A.bin"\r\n'
        b"Content-Type: image/png\r\n\r\n\r\n\x00\xff\r\n"
        # a file named _charset_ is not the hidden field; an empty type is octet-stream
        b'--B\r\nContent-Disposition: form-data; name="_charset_"; filename="c.txt"\r\n'
        b"Content-Type: application/octet-stream\r\n\r\n\r\n"
        b'--B\r\nContent-Disposition: form-data; name="e"; filename=""\r\n'
        b"Content-Type: application/octet-stream\r\n\r\n\r\n--B--\r\n")
    # the file name is encoded like a name: the form's encoding, &#N; when it cannot
    body = html_form_body([("f", File("café☃.txt"))], encoding="windows-1252",
                          enctype="multipart/form-data", boundary="B")
    assert b'filename="caf\xe9&#9731;.txt"' in body


@pytest.mark.one_impl
def test_file_entries_send_their_name_elsewhere() -> None:
    from percent_encoding.form import File

    f = File("a b\rc.txt", b"ignored", "text/plain")
    # HTML "convert to a list of name-value pairs": the file's name, newlines made CRLF
    assert html_form_body([("f", f), ("x", "1")]) == b"f=a+b%0D%0Ac.txt&x=1"
    assert html_form_body([("f", f)], enctype="text/plain") == b"f=a b\r\nc.txt\r\n"
    assert html_form_body({"f": f}, mailto="headers") == b"f=a%20b%0D%0Ac.txt"
    assert html_form_body([["f", File("é")]], encoding="latin1") == b"f=%E9"


@pytest.mark.one_impl
def test_file_argument_errors() -> None:
    from percent_encoding.form import File

    with pytest.raises(PercentEncodingTypeError):
        File(b"a.txt")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        File("a.txt", "text")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingError) as ei:
        File("a.txt", b"", "text/plain\r\nX-Evil: 1")
    assert "position 10" in str(ei.value)
    with pytest.raises(PercentEncodingTypeError):
        html_form_body([(File("a"), "x")])  # type: ignore[list-item]
