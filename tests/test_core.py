"""Core encode/decode/decode_text: URL Standard §1.3 behaviour, errors with
positions, identity fast paths, and round-trip properties over every set.
Runs once per kernel twin (conftest's ``impl`` fixture)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding import sets
from percent_encoding.errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownSetError,
)

# Text without lone surrogates (scalar values), as the URL Standard takes.
scalar_text = st.text(st.characters(exclude_categories=("Cs",)))
ALL_SETS = [sets.get(n) for n in sets.names()]
ESCAPING_SETS = [s for s in ALL_SETS if "%" in s and s.non_ascii]


class TestEncode:
    def test_examples(self) -> None:
        assert pe.encode("a b/ü") == "a%20b%2F%C3%BC"
        assert pe.encode("a b/ü", "path") == "a%20b/%C3%BC"
        assert pe.encode("≡", "query") == "%E2%89%A1"
        assert pe.encode("‽") == "%E2%80%BD"
        assert pe.encode("Say what‽", "userinfo") == "Say%20what%E2%80%BD"
        assert pe.encode("^", "path") == "%5E"
        assert pe.encode("^", "path-before-2025") == "^"

    def test_hex_is_upper_case(self) -> None:
        assert pe.encode("\xff\n") == "%C3%BF%0A"
        assert re.fullmatch(r"(%[0-9A-F]{2})+", pe.encode(bytes(range(128, 256))))

    def test_bytes_are_encoded_as_given(self) -> None:
        assert pe.encode(b"\xff a") == "%FF%20a"
        assert pe.encode(bytearray(b"a/b")) == "a%2Fb"
        assert pe.encode(memoryview(b"\x00")) == "%00"
        assert pe.encode(b"abc") == "abc"

    def test_space_as_plus(self) -> None:
        assert pe.encode("a b+c", "application/x-www-form-urlencoded", space_as_plus=True) == (
            "a+b%2Bc"
        )
        # space_as_plus applies even when the set would not encode a space
        assert pe.encode("a b", "c0-control", space_as_plus=True) == "a+b"
        assert pe.encode(b"a b", "component", space_as_plus=True) == "a+b"

    def test_nothing_to_do_returns_same_object(self) -> None:
        s = "plain-ascii_text.~" * 100
        assert pe.encode(s) is s
        t = "ünïcödé"
        assert pe.encode(t, sets.EncodeSet("%", non_ascii=False)) is t

    def test_set_that_keeps_non_ascii(self) -> None:
        iri_like = sets.EncodeSet(" %", non_ascii=False)
        assert pe.encode("ü %", iri_like) == "ü%20%25"

    def test_lone_surrogate(self) -> None:
        with pytest.raises(PercentEncodeError) as ei:
            pe.encode("ab\ud800c")
        assert ei.value.position == 2 and "U+D800" in str(ei.value)
        assert isinstance(ei.value, ValueError)
        assert pe.encode("ab\ud800c", errors="replace") == "ab%EF%BF%BDc"
        # A surrogate pair spelled as two code points joins in USVString conversion.
        assert pe.encode("\ud83d\ude00", errors="replace") == "%F0%9F%98%80"
        assert pe.to_usv_string("\udc00\ud800") == "\ufffd\ufffd"

    def test_bad_arguments(self) -> None:
        with pytest.raises(PercentEncodingTypeError):
            pe.encode(12)  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingTypeError):
            pe.encode("x", 12)  # type: ignore[arg-type]
        with pytest.raises(UnknownSetError):
            pe.encode("x", "no-such-set")
        with pytest.raises(KeyError):
            pe.encode("x", "no-such-set")
        with pytest.raises(PercentEncodingError, match="errors"):
            pe.encode("x", errors="ignore")  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingError, match="errors"):
            pe.decode_text("x", errors="ignore")  # type: ignore[arg-type]

    @settings(max_examples=300)
    @given(scalar_text, st.sampled_from(ALL_SETS))
    def test_output_is_ascii_and_only_escapes_the_set(self, text: str, s: sets.EncodeSet) -> None:
        out = pe.encode(text, s)
        for m in re.finditer(r"%[0-9A-F]{2}|.", out, re.S):
            tok = m.group()
            if len(tok) == 3:
                continue
            assert tok not in s, (tok, s)
            assert tok.isascii() or not s.non_ascii

    @settings(max_examples=300)
    @given(scalar_text, st.sampled_from(ESCAPING_SETS))
    def test_round_trip_sets_that_encode_percent(self, text: str, s: sets.EncodeSet) -> None:
        assert pe.decode_text(pe.encode(text, s)) == text
        assert pe.decode_text(pe.encode(text, s), errors="strict", strict=True) == text

    @settings(max_examples=200)
    @given(scalar_text.filter(lambda t: "%" not in t), st.sampled_from(ALL_SETS))
    def test_round_trip_other_sets_without_percent(self, text: str, s: sets.EncodeSet) -> None:
        assert pe.decode_text(pe.encode(text, s)) == text

    @given(st.binary())
    def test_bytes_round_trip(self, data: bytes) -> None:
        assert pe.decode(pe.encode(data)) == data
        assert pe.decode(pe.encode(data, "application/x-www-form-urlencoded",
                                   space_as_plus=True), plus_as_space=True) == data


class TestDecode:
    def test_examples(self) -> None:
        assert pe.decode("%25%s%1G") == b"%%s%1G"
        assert pe.decode("‽%25%2E") == b"\xe2\x80\xbd%."
        assert pe.decode("caf%c3%a9") == b"caf\xc3\xa9"
        assert pe.decode("%") == b"%" and pe.decode("%4") == b"%4" and pe.decode("a%") == b"a%"

    def test_plus_as_space(self) -> None:
        assert pe.decode("a+b%2B") == b"a+b+"
        assert pe.decode("a+b%2B", plus_as_space=True) == b"a b+"

    def test_bytes_nothing_to_do_is_same_object(self) -> None:
        b = b"no escapes here" * 10
        assert pe.decode(b) is b

    def test_strict_positions(self) -> None:
        for text, pos in [("%", 0), ("ab%4", 2), ("%41%zz", 3), ("é%x1", 1), (b"\xff%g0", 1)]:
            with pytest.raises(PercentDecodeError) as ei:
                pe.decode(text, strict=True)
            assert ei.value.position == pos, text
            assert isinstance(ei.value, PercentEncodingError)
        assert pe.decode("%41%42", strict=True) == b"AB"

    def test_lone_surrogate_input(self) -> None:
        with pytest.raises(PercentDecodeError) as ei:
            pe.decode("a\udc80%41")
        assert ei.value.position == 1

    def test_bad_types(self) -> None:
        with pytest.raises(PercentEncodingTypeError):
            pe.decode(None)  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingTypeError):
            pe.decode_text(3.5)  # type: ignore[arg-type]

    def test_adversarial_input_is_linear(self) -> None:
        # Not a timing test: a quadratic decoder would not finish these in the
        # suite's time budget; the results must also be exact.
        n = 400_000
        assert pe.decode("%" * n) == b"%" * n
        assert pe.decode("%%41" * n) == b"%A" * n
        assert pe.decode_text("%E3" * n) == "\ufffd" * n


class TestDecodeText:
    def test_utf8_decode_without_bom(self) -> None:
        assert pe.decode_text("%EF%BB%BFa") == "\ufeffa"  # the BOM is kept
        assert pe.decode_text("%C2x") == "\ufffdx"
        assert pe.decode_text("%F0%9F%98") == "\ufffd"  # one U+FFFD per maximal subpart
        assert pe.decode_text("%ED%A0%80") == "\ufffd\ufffd\ufffd"
        assert pe.decode_text("a+b", plus_as_space=True) == "a b"

    def test_strict_utf8(self) -> None:
        with pytest.raises(TextDecodeError) as ei:
            pe.decode_text("ab%C3%28", errors="strict")
        assert ei.value.position == 2
        with pytest.raises(TextDecodeError):
            pe.decode_text("%FF", errors="fatal")  # the Encoding Standard's word
        with pytest.raises(PercentDecodeError):
            pe.decode_text("%zz", strict=True)

    def test_same_object(self) -> None:
        s = "nothing to decode"
        assert pe.decode_text(s) is s

    def test_lone_surrogate(self) -> None:
        with pytest.raises(PercentDecodeError):
            pe.decode_text("\ud800")


def test_bad_option_types_raise_our_type_error() -> None:
    for bad in (
        lambda: pe.encode("a b", space_as_plus={}),  # type: ignore[arg-type]
        lambda: pe.encode("a", encoding=[1]),  # type: ignore[arg-type]
        lambda: pe.decode_text("a", encoding={}),  # type: ignore[arg-type]
        lambda: pe.decode("a", strict=None),  # type: ignore[arg-type]
        lambda: pe.to_usv_string(None),  # type: ignore[arg-type]
        lambda: pe.to_usv_string(b"\x80"),  # type: ignore[arg-type]
    ):
        with pytest.raises(PercentEncodingTypeError):
            bad()


# URL Standard §1.3: a string is UTF-8 encoded before percent-decoding, so raw
# non-ASCII meets a legacy decoder as UTF-8 octets; bytes are taken as given.
@pytest.mark.parametrize(
    ("data", "encoding", "expected"),
    [
        ("é%E9", "windows-1252", "Ã©é"),
        ("é%E9".encode("windows-1252"), "windows-1252", "éé"),
        ("é", "windows-1252", "Ã©"),
        ("日本%93%fa", "shift_jis", "譌･譛ｬ日"),
        ("日本%93%fa".encode("shift_jis"), "shift_jis", "日本日"),
        ("é%E9", "utf-8", "é\ufffd"),
        ("€+%80", "iso-8859-1", "â‚¬+€"),
    ],
)
def test_decode_text_raw_non_ascii_with_legacy_encoding(
    data: str | bytes, encoding: str, expected: str
) -> None:
    assert pe.decode_text(data, encoding=encoding) == expected
    if isinstance(data, str):
        # The same as decoding the UTF-8 bytes of the string.
        assert pe.decode_text(data.encode("utf-8"), encoding=encoding) == expected


# -- the pure install's decode_text front ---------------------------------------------------

_OPTION_VALUES = st.fixed_dictionaries({}, optional={
    "encoding": st.sampled_from(["utf-8", "UTF8", "windows-1252", "nope"]),
    "errors": st.sampled_from(["replace", "fatal", "strict", "bad"]),
    "plus_as_space": st.sampled_from([False, True, 1]),
    "strict": st.sampled_from([False, True]),
})


def _outcome(f: object, data: object, options: dict[str, object]) -> object:
    try:
        return ("ok", f(data, **options))  # type: ignore[operator]
    except Exception as e:  # the exception is the outcome compared
        return (type(e), str(e))


@given(st.one_of(st.text(alphabet="ab%+2F\u00e9\ud800 ", max_size=12),
                 st.binary(max_size=8), st.integers()), _OPTION_VALUES)
@settings(max_examples=300)
def test_pure_front_is_the_checked_function(data: object, options: dict[str, object]) -> None:
    # Without the C entry, decode_text is a front that answers an option-free call with
    # nothing to decode itself (keyword-only defaults cost more than that answer); it
    # must give what the checked function gives, errors included.
    from percent_encoding import core

    front, checked = core._decode_text_pure, core._decode_text_checked
    assert _outcome(front, data, options) == _outcome(checked, data, options)
    if not options and isinstance(data, str) and data.isascii() and "%" not in data:
        assert front(data) is data


_ENCODE_OPTIONS = st.fixed_dictionaries({}, optional={
    "encoding": st.sampled_from(["utf-8", "windows-1252", "nope"]),
    "errors": st.sampled_from(["strict", "replace", "bad"]),
    "space_as_plus": st.sampled_from([False, True, 1]),
    "bogus": st.just(1),
})


@given(st.one_of(st.text(alphabet="a b%/?\u00e9\u65e5\ud800", max_size=12),
                 st.binary(max_size=8), st.integers(), st.none()),
       st.sampled_from(["component", "path", "nope", "", None, 5, b"path",
                        sets.get("userinfo"), sets.EncodeSet(mask=1 << ord("a"))]),
       st.booleans(), _ENCODE_OPTIONS)
@settings(max_examples=300)
def test_pure_encode_front_is_the_checked_function(data: object, encode_set: object,
                                                   positional: bool,
                                                   options: dict[str, object]) -> None:
    # Without the C entry, encode is a front that takes a call with no keyword option to
    # the kernel itself; it must give what the checked function gives, errors included.
    from percent_encoding import core

    def call(f: Any) -> object:
        try:
            if positional:
                return ("ok", f(data, encode_set, **options))
            return ("ok", f(data, encode_set=encode_set, **options))
        except Exception as e:  # the exception is the outcome compared
            return (type(e), str(e))

    assert call(core._encode_pure) == call(core._encode_checked)
    if not options and isinstance(data, str) and data.isalnum() and data.isascii():
        assert core._encode_pure(data) is data


def test_pure_front_reads_as_the_checked_function() -> None:
    import inspect

    from percent_encoding import core

    if core.decode_text is core._decode_text_pure:  # the pure install
        assert core.decode_text.__wrapped__ is core._decode_text_checked  # type: ignore[attr-defined]
        assert core.decode_text.__doc__ == core._decode_text_checked.__doc__
        assert str(inspect.signature(core.decode_text)) == str(
            inspect.signature(core._decode_text_checked))
    else:  # the C entry, a built-in function: the same parameters, no annotations
        assert [(p.name, p.kind, p.default)
                for p in inspect.signature(core.decode_text).parameters.values()] == [
            (p.name, p.kind, p.default)
            for p in inspect.signature(core._decode_text_checked).parameters.values()]
    with pytest.raises(TypeError, match=r"decode_text\(\) takes 1 positional argument"):
        core.decode_text("x", "utf-8")  # type: ignore[call-arg]
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        core.decode_text("x", bogus=1)  # type: ignore[call-arg]
