"""Unit tests for percent_encoding.encodings (WHATWG Encoding Standard).

Hand-checked examples for each encoder/decoder rule, error positions, and hypothesis
properties: round trips, the Python-codec fast path agreeing with the pure-Python decoders,
and UTF-8 replacement matching a direct transcription of the Standard's UTF-8 decoder.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import encodings as E
from percent_encoding.encodings import _base, _codecs
from percent_encoding.errors import (
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownEncodingError,
)

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]


# ----------------------------------------------------------------------------- lookup


@pytest.mark.parametrize(
    ("label", "name"),
    [
        ("latin1", "windows-1252"),
        ("iso-8859-1", "windows-1252"),
        ("ascii", "windows-1252"),
        ("US-ASCII", "windows-1252"),
        (" \t\nUTF8\f\r", "UTF-8"),
        ("shift_jis", "Shift_JIS"),
        ("sjis", "Shift_JIS"),
        ("windows-31j", "Shift_JIS"),
        ("gb2312", "GBK"),
        ("GB18030", "gb18030"),
        ("big5-hkscs", "Big5"),
        ("x-euc-jp", "EUC-JP"),
        ("csiso2022jp", "ISO-2022-JP"),
        ("windows-949", "EUC-KR"),
        ("iso-8859-9", "windows-1254"),
        ("tis-620", "windows-874"),
        ("iso-8859-8-i", "ISO-8859-8-I"),
        ("koi8-ru", "KOI8-U"),
        ("mac", "macintosh"),
        ("x-mac-ukrainian", "x-mac-cyrillic"),
        ("866", "IBM866"),
        ("iso-2022-kr", "replacement"),
        ("hz-gb-2312", "replacement"),
        ("utf-16", "UTF-16LE"),
        ("unicodefffe", "UTF-16BE"),
        ("x-user-defined", "x-user-defined"),
    ],
)
def test_lookup(label: str, name: str) -> None:
    enc = E.lookup(label)
    assert enc.name == name
    assert E.lookup(enc) is enc
    assert enc == E.lookup(name)


@pytest.mark.parametrize("label", ["", "utf-7", "latin-1", "iso-8859-11x", "utf 8", "\u00a0utf-8"])
def test_unknown_label(label: str) -> None:
    with pytest.raises(UnknownEncodingError) as ei:
        E.lookup(label)
    assert isinstance(ei.value, LookupError)
    assert isinstance(ei.value, PercentEncodingError)


@pytest.mark.one_impl
@pytest.mark.parametrize(
    ("label", "use", "reads_as"),
    [
        ("latin-1", "iso-8859-1", "windows-1252"),
        ("latin_1", "iso-8859-1", "windows-1252"),
        ("cp932", "shift_jis", None),
        ("euc_jp", "euc-jp", None),
        ("utf_8", "utf-8", None),
        ("cp936", "gbk", None),
        ("mac_roman", "macintosh", None),
    ],
)
def test_python_codec_names_get_the_whatwg_label(label: str, use: str,
                                                  reads_as: str | None) -> None:
    with pytest.raises(UnknownEncodingError) as ei:
        E.lookup(label)
    msg = str(ei.value)
    assert f"use {use!r}" in msg and "Python's codec name" in msg
    assert (reads_as in msg) if reads_as else "reads it as" not in msg
    E.lookup(use)  # the suggestion itself is a label


@pytest.mark.one_impl
@pytest.mark.parametrize("label", ["nope", "utf-7", "rot13"])
def test_no_suggestion_without_a_whatwg_equivalent(label: str) -> None:
    with pytest.raises(UnknownEncodingError) as ei:
        E.lookup(label)
    assert "is not a label in the WHATWG Encoding Standard" in str(ei.value)


def test_lookup_type_error() -> None:
    with pytest.raises(PercentEncodingTypeError):
        E.lookup(b"utf-8")  # type: ignore[arg-type]


def test_names_and_labels() -> None:
    assert len(E.names()) == 40
    assert E.names()[0] == "UTF-8"
    assert "latin1" in E.lookup("windows-1252").labels
    assert sum(len(E.lookup(n).labels) for n in E.names()) == 228


@pytest.mark.parametrize(
    ("label", "out"),
    [("utf-16be", "UTF-8"), ("utf-16", "UTF-8"), ("replacement", "UTF-8"), ("sjis", "Shift_JIS")],
)
def test_output_encoding(label: str, out: str) -> None:
    assert E.lookup(label).output_encoding.name == out


# ---------------------------------------------------------------------- single-byte


def test_windows_1252() -> None:
    enc = E.lookup("latin1")
    assert enc.decode(b"\x80\x9f\xff") == "\u20ac\u0178\u00ff"
    # Python's cp1252 leaves 0x81 0x8D 0x8F 0x90 0x9D undefined; the Standard maps them.
    assert enc.decode(b"\x81\x8d\x8f\x90\x9d", "fatal") == "\x81\x8d\x8f\x90\x9d"
    assert enc.encode("\x81\u20ac") == b"\x81\x80"
    assert enc.encode("a\u2603b", "html") == b"a&#9731;b"
    with pytest.raises(PercentEncodeError) as ei:
        enc.encode("ab\u2603")
    assert ei.value.position == 2


def test_single_byte_undefined_byte() -> None:
    enc = E.lookup("windows-1253")
    assert enc.decode(b"a\xaab") == "a\ufffdb"
    with pytest.raises(TextDecodeError) as ei:
        enc.decode(b"a\xaab", "fatal")
    assert ei.value.position == 1


def test_koi8_u_and_windows_874() -> None:
    assert E.lookup("koi8-u").decode(b"\xae\xbe") == "\u045e\u040e"
    assert E.lookup("windows-874").decode(b"\x81", "fatal") == "\x81"


def test_x_user_defined() -> None:
    enc = E.lookup("x-user-defined")
    assert enc.decode(b"a\x80\xff") == "a\uf780\uf7ff"
    assert enc.encode("\uf780\uf7ffa") == b"\x80\xffa"
    assert enc.encode("\u00e9", "html") == b"&#233;"


# ---------------------------------------------------------------------- multi-byte


def test_shift_jis() -> None:
    enc = E.lookup("shift_jis")
    assert enc.encode("ア") == b"\x83\x41"
    assert enc.encode("\u00a5\u203e") == b"\\~"
    assert enc.encode("\u2212") == b"\x81\x7c"  # via U+FF0D
    assert enc.encode("\uff71\u0080") == b"\xb1\x80"
    # U+2170 (small roman one): NEC-selected IBM pointer 8272+ skipped -> IBM row 0xFA.
    assert enc.encode("\u2170") == b"\xfa\x40"
    assert enc.decode(b"\xed\x40") == enc.decode(b"\xfa\x5c")  # duplicates decode alike
    assert enc.decode(b"\x83\x41\x5c\x7e") == "ア\\~"
    assert enc.decode(b"\xf0\x40") == "\ue000"  # EUDC -> Private Use Area
    # A bad trail byte that is ASCII is decoded again ("restore").
    assert enc.decode(b"\x81\x30\x81\xff") == "\ufffd0\ufffd"
    with pytest.raises(TextDecodeError) as ei:
        enc.decode(b"ab\x81", "fatal")
    assert ei.value.position == 2


def test_euc_kr() -> None:
    enc = E.lookup("euc-kr")
    assert enc.encode("가") == b"\xb0\xa1"
    assert enc.encode("\uac02") == b"\x81\x41"  # UHC extension
    assert enc.decode(b"\xb0\xa1\x81\x41") == "가\uac02"
    assert enc.decode(b"\x81\x30") == "\ufffd0"
    assert enc.decode(b"\x80") == "\ufffd"


def test_big5() -> None:
    enc = E.lookup("big5")
    assert enc.encode("═") == b"\xf9\xf9"  # last pointer, not 0xA2A4
    assert enc.encode("十卅") == b"\xa4\x51\xa4\xca"  # last pointers, not 0xA2CC 0xA2CE
    assert enc.decode(b"\xa2\xcc\xa4\x51") == "十十"
    assert enc.decode(b"\x88\x62\x88\xa5") == "\u00ca\u0304\u00ea\u030c"
    # HKSCS rows below 0xA1 decode but are never produced by the encoder.
    assert enc.decode(b"\x87\x40") == "\u43f0"
    assert enc.encode("\u43f0", "html") == b"&#17392;"
    assert enc.decode(b"\xa1\x40\xa1\x30") == "\u3000\ufffd0"


def test_gb18030_and_gbk() -> None:
    gb, gbk = E.lookup("gb18030"), E.lookup("gbk")
    assert gb.encode("\u0080") == b"\x81\x30\x81\x30"
    assert gb.encode("\U00010000") == b"\x90\x30\x81\x30"
    assert gb.encode("\uffff") == b"\x84\x31\xa4\x39"
    assert gb.encode("\ue7c7") == b"\x81\x35\xf4\x37"
    assert gb.encode("\u20ac") == b"\xa2\xe3"
    assert gbk.encode("\u20ac") == b"\x80"
    assert gb.decode(b"\x80") == gbk.decode(b"\x80") == "\u20ac"
    assert gb.encode("\ue78d") == b"\xa6\xd9" and gb.decode(b"\xa6\xd9") == "\ufe10"
    with pytest.raises(PercentEncodeError) as ei:
        gb.encode("a\ue5e5")
    assert ei.value.position == 1
    assert gb.encode("\ue5e5", "html") == b"&#58853;"
    assert gbk.encode("\u0080", "html") == b"&#128;"
    assert gb.decode(b"\xa3\xa0") == "\u3000"
    # Four-byte errors restore bytes: « second, third, byte » go back to the input.
    assert gb.decode(b"\x81\x30\x81A") == "\ufffd0\u4e04"  # 0x81 0x41 is pointer 1
    assert gb.decode(b"\x81\x30A") == "\ufffd0A"
    assert gb.decode(b"\x81\x30\x81") == "\ufffd"
    assert gb.decode(b"\x84\x31\xa5\x30") == "\ufffd"  # beyond the BMP ranges
    assert gb.decode(b"\xe3\x32\x9a\x35") == "\U0010ffff"


def test_euc_jp() -> None:
    enc = E.lookup("euc-jp")
    assert enc.encode("ｱ") == b"\x8e\xb1"
    assert enc.encode("\u00a5\u203e\u2212") == b"\\~\xa1\xdd"
    assert enc.decode(b"\x8e\xb1\xa4\xa2") == "ｱあ"
    assert enc.decode(b"\x8f\xa2\xaf") == "\u02d8"  # JIS X 0212, decode only
    assert enc.encode("\u02d8", "html") == b"&#728;"
    assert enc.decode(b"\x8f\xa2A") == "\ufffdA"
    assert enc.decode(b"\x8e\xe0") == "\ufffd"


def test_iso_2022_jp_encoder() -> None:
    enc = E.lookup("iso-2022-jp")
    assert enc.encode("ｱ") == b"\x1b$B%\x22\x1b(B"  # half-width -> full-width katakana
    assert enc.encode("a\u00a5b") == b"a\x1b(J\\b\x1b(B"
    assert enc.encode("\u00a5\\") == b"\x1b(J\\\x1b(B\\"
    assert enc.encode("あ\u2603", "html") == b"\x1b$B$\x22\x1b(B&#9731;"
    assert enc.encode("\x1b", "html") == b"&#65533;"
    with pytest.raises(PercentEncodeError) as ei:
        enc.encode("ab\x0e")
    assert ei.value.position == 2
    with pytest.raises(PercentEncodeError) as ei:
        enc.encode("あい\u2603")
    assert ei.value.position == 2


def test_iso_2022_jp_decoder() -> None:
    enc = E.lookup("iso-2022-jp")
    assert enc.decode(b"\x1b$B$\x22\x1b(B") == "あ"
    assert enc.decode(b"\x1b(I1") == "ｱ"
    assert enc.decode(b"\x1b(J\\~") == "\u00a5\u203e"
    # Encoding U+00A5 twice and concatenating yields an error (§12.2.2 note).
    twice = enc.encode("\u00a5") * 2
    assert enc.decode(twice) == "\u00a5\ufffd\u00a5"
    assert enc.decode(b"\x1b$B\x1b(B") == "\ufffd"  # two escapes in a row
    assert enc.decode(b"\x1bx") == "\ufffdx"
    assert enc.decode(b"\x1b(x") == "\ufffd(x"
    assert enc.decode(b"\x1b$B$") == "\ufffd"
    assert enc.decode(b"a\x0eb") == "a\ufffdb"
    assert enc.decode(b"\xa4") == "\ufffd"
    with pytest.raises(TextDecodeError) as ei:
        enc.decode(b"ab\x1bx", "fatal")
    assert ei.value.position == 2


# ------------------------------------------------------------------ misc encodings


def test_replacement() -> None:
    enc = E.lookup("iso-2022-kr")
    assert enc.decode(b"") == ""
    assert enc.decode(b"abc\xff") == "\ufffd"
    with pytest.raises(TextDecodeError) as ei:
        enc.decode(b"a", "fatal")
    assert ei.value.position == 0
    assert enc.encode("é") == b"\xc3\xa9"


def test_utf16() -> None:
    le, be = E.lookup("utf-16le"), E.lookup("utf-16be")
    assert le.decode(b"a\x00=\xd8\x00\xde") == "a\U0001f600"
    assert be.decode(b"\x00a") == "a"
    assert le.decode(b"\x00\xd8A\x00") == "\ufffdA"  # lone lead surrogate, unit restored
    assert le.decode(b"\x00\xdcA\x00") == "\ufffdA"
    assert le.decode(b"A\x00B") == "A\ufffd"
    assert le.decode(b"\x00\xd8B") == "\ufffd"
    with pytest.raises(TextDecodeError) as ei:
        le.decode(b"A\x00\x00\xdc", "fatal")
    assert ei.value.position == 2
    assert le.encode("é") == b"\xc3\xa9"  # output encoding is UTF-8


def test_decode_with_bom_and_utf8() -> None:
    assert E.decode(b"\xef\xbb\xbfa", "latin1") == "a"
    assert E.decode(b"\xff\xfea\x00", "shift_jis") == "a"
    assert E.decode(b"\xfe\xff\x00a") == "a"
    assert E.decode(b"\x80", "latin1") == "\u20ac"
    assert E.bom_sniff(b"\xef\xbb") is None
    assert E.utf8_decode_without_bom(b"\xef\xbb\xbfa") == "\ufeffa"
    assert E.utf8_decode_without_bom(b"\xf0\x9f\x98") == "\ufffd"
    with pytest.raises(TextDecodeError) as ei:
        E.utf8_decode_without_bom(b"ab\xc3(", errors="fatal")
    assert ei.value.position == 2
    # "strict" is an alias of "fatal" (the word core.decode_text uses).
    assert E.decode(b"", errors="strict") == ""
    with pytest.raises(TextDecodeError) as ei:
        E.utf8_decode_without_bom(b"ab\xff", errors="strict")
    assert ei.value.position == 2


def test_encode_function_and_surrogates() -> None:
    assert E.encode("é") == b"\xc3\xa9"
    assert E.encode("é", "latin1") == b"\xe9"
    assert E.encode("\u2603", "shift_jis", errors="html") == b"&#9731;"
    for name in ("utf-8", "windows-1252", "shift_jis", "gb18030", "iso-2022-jp", "utf-16le"):
        for errors in ("fatal", "html"):
            with pytest.raises(PercentEncodeError) as ei:
                E.encode("ab\ud800", name, errors=errors)
            assert ei.value.position == 2
    with pytest.raises(PercentEncodingTypeError):
        E.encode(b"x")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingError):
        E.encode("x", errors="replace")  # type: ignore[arg-type]


def test_bytes_like_input() -> None:
    assert E.lookup("sjis").decode(bytearray(b"\x83\x41")) == "ア"
    assert E.lookup("sjis").decode(memoryview(b"\x83\x41")) == "ア"
    with pytest.raises(PercentEncodingTypeError):
        E.lookup("sjis").decode("abc")  # type: ignore[arg-type]


# ------------------------------------------------------------------------- properties

ROUND_TRIP = [
    "UTF-8",
    "windows-1252",
    "ISO-8859-8-I",
    "KOI8-U",
    "x-mac-cyrillic",
    "windows-874",
    "x-user-defined",
    "Shift_JIS",
    "EUC-JP",
    "ISO-2022-JP",
    "EUC-KR",
    "Big5",
    "gb18030",
    "GBK",
]


@cache
def alphabet(name: str) -> list[str]:
    """Characters that encode and decode back to themselves (candidates sampled widely)."""
    enc = E.lookup(name)
    cands = [*range(0x20, 0x7F), *range(0x80, 0x3100), *range(0x4E00, 0x9FFF, 7)]
    cands += [*range(0xF780, 0xF800), *range(0xFF01, 0xFFA0), 0x1F600, 0x20021]
    out = []
    for cp in cands:
        if 0xD800 <= cp <= 0xDFFF:
            continue
        ch = chr(cp)
        try:
            if enc.decode(enc.encode(ch), "fatal") == ch:
                out.append(ch)
        except (PercentEncodeError, TextDecodeError):
            pass
    return out


@pytest.mark.parametrize("name", ROUND_TRIP)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_round_trip(name: str, data: st.DataObject) -> None:
    text = data.draw(st.text(alphabet=st.sampled_from(alphabet(name)), max_size=40))
    enc = E.lookup(name)
    assert enc.decode(enc.encode(text), "fatal") == text


FAST_PATH = ["Shift_JIS", "EUC-JP", "EUC-KR", "Big5", "gb18030", "GBK"]


@pytest.mark.parametrize("name", FAST_PATH)
@settings(max_examples=150, deadline=None)
@given(
    data=st.binary(max_size=24)
    | st.lists(
        st.sampled_from(
            [b"\x81", b"\x30", b"\xa1", b"\xfe", b"A", b"\x8e", b"\x8f", b"\x84", b"\x31", b"\x80"]
        ),
        max_size=10,
    ).map(b"".join)
)
def test_fast_path_agrees_with_spec_decoder(name: str, data: bytes) -> None:
    codec = _codecs.codec(name)
    assert isinstance(codec, _base.MultiByte)
    codec._ensure()
    out = _base.Out(False, name)
    codec._slow_decode(data, out)
    assert E.lookup(name).decode(data) == "".join(out.parts)


def whatwg_utf8(data: bytes) -> str:
    """Encoding Standard §8.1.1 UTF-8 decoder, transcribed directly (replacement mode)."""
    out: list[str] = []
    cp = needed = seen = 0
    lower, upper = 0x80, 0xBF
    i = 0
    while i < len(data):
        b = data[i]
        i += 1
        if needed == 0:
            if b <= 0x7F:
                out.append(chr(b))
            elif 0xC2 <= b <= 0xDF:
                needed, cp = 1, b & 0x1F
            elif 0xE0 <= b <= 0xEF:
                lower = 0xA0 if b == 0xE0 else 0x80
                upper = 0x9F if b == 0xED else 0xBF
                needed, cp = 2, b & 0xF
            elif 0xF0 <= b <= 0xF4:
                lower = 0x90 if b == 0xF0 else 0x80
                upper = 0x8F if b == 0xF4 else 0xBF
                needed, cp = 3, b & 0x7
            else:
                out.append("\ufffd")
            continue
        if not lower <= b <= upper:
            cp = needed = seen = 0
            lower, upper = 0x80, 0xBF
            i -= 1  # restore byte
            out.append("\ufffd")
            continue
        lower, upper = 0x80, 0xBF
        cp = cp << 6 | (b & 0x3F)
        seen += 1
        if seen == needed:
            out.append(chr(cp))
            cp = needed = seen = 0
    if needed:
        out.append("\ufffd")
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [
                b"a",
                b"\x80",
                b"\xbf",
                b"\xc2",
                b"\xe0",
                b"\xed",
                b"\xa0",
                b"\x9f",
                b"\xf0",
                b"\xf4",
                b"\x90",
                b"\x8f",
                b"\xf5",
                b"\xff",
                b"\xc0",
            ]
        ),
        max_size=12,
    ).map(b"".join)
    | st.binary(max_size=16)
)
def test_utf8_replacement_matches_the_standard(data: bytes) -> None:
    assert E.utf8_decode_without_bom(data) == whatwg_utf8(data)


def test_encode_segments() -> None:
    assert E.lookup("windows-1252").encode_segments("a\u2603b") == [b"a", 9731, b"b"]
    assert E.lookup("gbk").encode_segments("\u0080") == [0x80]
    assert E.lookup("utf-16le").encode_segments("\u2603") == [b"\xe2\x98\x83"]
    assert E.lookup("sjis").encode_segments("") == []
    # ISO-2022-JP: the error happens after switching back to ASCII; ESC is reported as U+FFFD.
    assert E.lookup("iso-2022-jp").encode_segments("あ\u2603\x1b") == [
        b"\x1b$B$\x22\x1b(B",
        9731,
        65533,
    ]
    with pytest.raises(PercentEncodeError):
        E.lookup("sjis").encode_segments("\udc00")


SEGMENT_NAMES = ["windows-1252", "x-user-defined", "Shift_JIS", "ISO-2022-JP", "gb18030", "GBK"]


@pytest.mark.parametrize("name", SEGMENT_NAMES)
@settings(max_examples=80, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from("a\\~\x1b\u00a5\u203e\u00e9\u2603ｱあ\ue5e5\U0001f600"))
)
def test_segments_agree_with_html_mode(name: str, text: str) -> None:
    enc = E.lookup(name)
    segs = enc.encode_segments(text)
    joined = b"".join(s if isinstance(s, bytes) else b"&#%d;" % s for s in segs)
    assert joined == enc.encode(text, "html")


def test_bad_errors_mode_is_ours() -> None:
    # Regression (robustness fuzz): an unknown errors= was a bare ValueError, a
    # non-str one a bare TypeError, and bom_sniff("") a TypeError from slicing.
    enc = E.lookup("shift_jis")
    for call in (
        lambda: E.decode(b"a", errors="ignore"),  # type: ignore[arg-type]
        lambda: E.utf8_decode_without_bom(b"a", errors="surrogateescape"),  # type: ignore[arg-type]
        lambda: enc.decode(b"a", errors="html"),  # type: ignore[arg-type]
        lambda: enc.encode("a", errors="replace"),  # type: ignore[arg-type]
        lambda: E.encode("a", "utf-8", errors=""),  # type: ignore[arg-type]
    ):
        with pytest.raises(PercentEncodingError, match="errors must be one of") as ei:
            call()
        assert type(ei.value) is PercentEncodingError  # not a bare builtin ValueError
        assert "'fatal'" in str(ei.value)
    for bad in (None, 1, ["fatal"]):
        with pytest.raises(PercentEncodingTypeError):
            E.decode(b"a", errors=bad)  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingTypeError):
            enc.encode("a", errors=bad)  # type: ignore[arg-type]
    # "strict" means "fatal" in both directions.
    assert E.encode("a", "shift_jis", errors="strict") == b"a"
    with pytest.raises(PercentEncodeError) as pe:
        E.encode("a\u2603", "windows-1252", errors="strict")
    assert pe.value.position == 1
    with pytest.raises(TextDecodeError) as te:
        enc.decode(b"a\x81", errors="strict")
    assert te.value.position == 1
    for bad_data in ("", "\xef\xbb\xbf", None, 3, [0xEF]):
        with pytest.raises(PercentEncodingTypeError):
            E.bom_sniff(bad_data)  # type: ignore[arg-type]
    assert E.bom_sniff(bytearray(b"\xfe\xffa")) == E.lookup("utf-16be")


def test_index_rejects_unknown_names_and_non_str() -> None:
    assert E.index("jis0208")[0] == 0x3000 and E.index("jis0208") is E.index("jis0208")
    for bad in ("", "utf-8", "JIS0208", "component"):
        with pytest.raises(UnknownEncodingError, match="not an index") as info:
            E.index(bad)
        assert isinstance(info.value, LookupError)
    with pytest.raises(PercentEncodingTypeError):
        E.index(b"jis0208")  # type: ignore[arg-type]
