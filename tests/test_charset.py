"""Tests for percent_encoding.encodings._detect: charset detection of percent-decoded bytes and the
choice of a form's encoding (detect.charset, choose_form_encoding)."""

from __future__ import annotations

import dataclasses
import importlib
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.linear_time import assert_linear
from percent_encoding import detect, encodings
from percent_encoding.encodings._detect import (
    DEFAULT_CANDIDATES,
    MAX_BYTES,
    CharsetGuess,
    charset,
    choose_form_encoding,
)
from percent_encoding.errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownEncodingError,
)

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]

BENCH = Path(__file__).resolve().parents[1] / "bench"


def enc(text: str, name: str) -> bytes:
    return encodings.lookup(name).encode(text)


def names(guesses: list[CharsetGuess]) -> list[str]:
    return [g.encoding for g in guesses]


def reads_right(guess: CharsetGuess, data: bytes, text: str) -> bool:
    """The guess decodes the bytes to the text (twins such as GBK/gb18030 both count)."""
    return encodings.lookup(guess.encoding).decode(data) == text


# --- the result type ----------------------------------------------------------------


def test_guess_is_frozen_and_confidences_are_probabilities() -> None:
    guesses = charset(enc("Привет, мир", "windows-1251"))
    with pytest.raises(dataclasses.FrozenInstanceError):
        guesses[0].encoding = "x"  # type: ignore[misc]
    assert all(0.0 <= g.confidence <= 1.0 for g in guesses)
    assert guesses[0].confidence == max(g.confidence for g in guesses)
    assert guesses[0].reason.startswith("scored as")


def test_detect_module_delegates() -> None:
    data = enc("東京都は日本の首都", "shift_jis")
    assert detect.charset(data) == charset(data)


# --- rule 3: UTF-8 first ------------------------------------------------------------


@pytest.mark.parametrize("text", ["Größe", "é", "日本語", "Привет", "😀"])
def test_valid_utf8_comes_first(text: str) -> None:
    data = text.encode("utf-8")
    guesses = charset(data)
    assert guesses[0].encoding == "UTF-8"
    assert guesses[0].reason == "valid UTF-8 with multi-byte sequences"
    assert guesses[0].confidence >= 0.9
    # "é" as UTF-8 is also valid windows-1252 ("Ã©"): it is still listed, far behind
    if text == "é":
        assert "windows-1252" in names(guesses)
        assert guesses[1].confidence < 0.1


def test_utf8_confidence_grows_with_multibyte_sequences() -> None:
    one = charset("é".encode())[0].confidence
    three = charset("ééé".encode())[0].confidence
    assert one < three


def test_invalid_utf8_is_not_utf8() -> None:
    data = enc("Größe", "windows-1252")
    assert "UTF-8" not in names(charset(data))


# --- rule 4: ASCII ------------------------------------------------------------------


def test_pure_ascii_is_utf8_and_says_every_ascii_encoding_fits() -> None:
    guesses = charset(b"hello world")
    assert names(guesses) == ["UTF-8"]
    assert "every ASCII-compatible encoding" in guesses[0].reason
    assert charset(b"")[0].encoding == "UTF-8"


def test_iso_2022_jp_escapes() -> None:
    data = enc("日本語のテキスト", "iso-2022-jp")
    assert data.isascii() and b"\x1b$B" in data
    guesses = charset(data)
    assert guesses[0].encoding == "ISO-2022-JP"
    assert "escape" in guesses[0].reason
    assert guesses[1].encoding == "UTF-8"


def test_bogus_escape_is_not_iso_2022_jp() -> None:
    assert names(charset(b"\x1b$Zabc")) == ["UTF-8"]
    # ESC sequences that switch to ASCII only carry no Japanese
    assert names(charset(b"\x1b(Babc")) == ["UTF-8"]


def test_ascii_without_utf8_candidate_names_the_first_compatible_one() -> None:
    assert names(charset(b"abc", candidates=["koi8-r", "latin1"])) == ["KOI8-R"]


# --- rule 5: scoring ----------------------------------------------------------------

# about 30 bytes of real sentences in each major legacy encoding
CASES = [
    ("東京都は日本の首都です", "Shift_JIS"),
    ("富士山は日本一高い山", "EUC-JP"),
    ("北京是中国的首都，人口众多", "GBK"),
    ("臺北市是臺灣最大的城市", "Big5"),
    ("서울은 대한민국의 수도이다", "EUC-KR"),
    ("Москва — столица России", "windows-1251"),
    ("Москва - столица России", "KOI8-R"),
    ("Київ - столиця України", "KOI8-U"),
    ("Москва - столица России", "IBM866"),
    ("Warszawa jest stolicą Polski", "windows-1250"),
    ("Příliš žluťoučký kůň", "ISO-8859-2"),
    ("Größere Städte müssen", "windows-1252"),
    ("Η Αθήνα είναι η πρωτεύουσα", "windows-1253"),
    ("İstanbul Boğazı önemli", "windows-1254"),
    ("ירושלים היא בירת ישראל", "windows-1255"),
    ("القاهرة هي عاصمة مصر", "windows-1256"),
    ("กรุงเทพมหานครเป็นเมืองหลวง", "windows-874"),
]


@pytest.mark.parametrize(("text", "name"), CASES, ids=[c[1] for c in CASES])
def test_real_sentences_are_detected(text: str, name: str) -> None:
    data = enc(text, name)
    assert 15 <= len(data) <= 40
    top = charset(data)[0]
    assert reads_right(top, data, text), (top, text)


def test_koi8r_and_windows1251_are_told_apart_by_case() -> None:
    # the same letters; read with the other table, lower case becomes upper case
    text = "Новая станция метро"
    assert charset(enc(text, "koi8-r"))[0].encoding == "KOI8-R"
    assert charset(enc(text, "windows-1251"))[0].encoding == "windows-1251"


def test_twins_share_confidence_and_say_so() -> None:
    data = enc("北京是中国的首都", "gbk")
    guesses = charset(data)
    by = {g.encoding: g for g in guesses}
    assert by["GBK"].confidence == by["gb18030"].confidence
    assert "decodes the same as GBK" in by["gb18030"].reason


def test_fatal_decode_failure_excludes() -> None:
    data = enc("日本", "shift_jis")  # 0x93 cannot start an EUC-JP or EUC-KR sequence
    found = names(charset(data))
    assert "EUC-JP" not in found and "EUC-KR" not in found
    for data in (enc("日本語です", "euc-jp"), enc("Größe", "latin1"), b"\x81\x40\xfe"):
        for g in charset(data):
            encodings.lookup(g.encoding).decode(data, "fatal")  # must not raise


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=40))
def test_any_bytes_give_a_sorted_list_of_clean_decodes(data: bytes) -> None:
    guesses = charset(data)
    assert guesses
    confidences = [g.confidence for g in guesses]
    assert confidences == sorted(confidences, reverse=True)
    if guesses[0].confidence > 0.05:  # not the "nothing decodes" fallback
        for g in guesses:
            codec = encodings.lookup(g.encoding)
            if "cut inside its last character" in g.reason:
                # UTF-8 cut at a length limit: all but the incomplete last character (at
                # most 3 bytes) decodes cleanly, and the whole does not.
                assert g.encoding == "UTF-8" and g.findings
                with pytest.raises(TextDecodeError):
                    codec.decode(data, "fatal")
                assert any(_decodes(codec, data[:-t]) for t in (1, 2, 3))
            else:
                codec.decode(data, "fatal")


def _decodes(codec: encodings.Encoding, data: bytes) -> bool:
    try:
        codec.decode(data, "fatal")
    except TextDecodeError:
        return False
    return True


def test_nothing_decodes_gives_low_confidence_fallback() -> None:
    guesses = charset(b"\xff\xff", candidates=["shift_jis", "euc-jp"])
    assert sorted(names(guesses)) == ["EUC-JP", "Shift_JIS"]
    assert all(g.confidence <= 0.05 for g in guesses)
    assert "no candidate decodes" in guesses[0].reason


def test_candidates_restrict_the_set() -> None:
    data = enc("Привет, как дела", "windows-1251")
    guesses = charset(data, candidates=["koi8-r", "cp866"])
    assert set(names(guesses)) <= {"KOI8-R", "IBM866"}
    assert names(charset(data, candidates=[" WINDOWS-1251 "])) == ["windows-1251"]
    with pytest.raises(UnknownEncodingError):
        charset(data, candidates=["no-such-encoding"])
    with pytest.raises(PercentEncodingError):
        charset(data, candidates=[])


def test_utf8_rule_only_when_utf8_is_a_candidate() -> None:
    data = "é".encode()
    assert charset(data, candidates=["latin1"])[0].encoding == "windows-1252"


# --- hints --------------------------------------------------------------------------


def test_charset_field_is_decisive() -> None:
    data = enc("あい", "euc-jp")  # also valid Shift_JIS (half-width katakana)
    guesses = charset(data, hints={"_charset_": "shift_jis"})
    assert guesses[0].encoding == "Shift_JIS"
    assert guesses[0].reason == "_charset_ field says 'shift_jis'"
    assert guesses[0].confidence == 0.99
    assert all(g.confidence < 0.05 for g in guesses[1:])
    # beats valid UTF-8 too, and accepts the raw bytes of the field
    g = charset("é".encode(), hints={"_charset_": b"windows-1252"})[0]
    assert g.encoding == "windows-1252"


def test_charset_field_that_does_not_decode_is_still_first_but_doubted() -> None:
    g = charset(b"\xff\xff", hints={"_charset_": "euc-jp"})[0]
    assert g.encoding == "EUC-JP" and g.confidence < 0.99
    assert "do not decode" in g.reason


def test_unknown_charset_field_is_ignored() -> None:
    data = enc("Привет, мир", "windows-1251")
    assert charset(data, hints={"_charset_": "klingon"}) == charset(data)


def test_probe_is_decisive() -> None:
    # the data alone look like GBK; the probe says the browser used Shift_JIS
    data = enc("中文", "shift_jis")
    probe = ("・", enc("・", "shift_jis"))
    guesses = charset(data, hints={"probe": probe})
    assert guesses[0].encoding == "Shift_JIS"
    assert guesses[0].reason.startswith("probe field matched")
    assert guesses[0].confidence >= 0.9


def test_probe_ncr_matches_encodings_without_the_character() -> None:
    # a browser sends "&#12539;" for U+30FB from a windows-1251 page
    data = enc("Привет", "windows-1251")
    guesses = charset(data, hints={"probe": ("・", b"&#12539;")})
    assert guesses[0].encoding == "windows-1251"
    matched = [g for g in guesses if g.reason.startswith("probe field matched")]
    rest = guesses[len(matched):]
    assert "KOI8-R" in names(matched) and "gb18030" in names(rest)  # gb18030 has U+30FB
    assert all(g.confidence < 0.05 for g in rest)


def test_probe_matching_nothing_falls_back_to_detection() -> None:
    data = enc("Привет, мир", "windows-1251")
    assert charset(data, hints={"probe": ("・", b"\x00\x01")}) == charset(data)


def test_content_type_charset_is_only_a_hint() -> None:
    strong = enc("Москва - столица России", "windows-1251")
    assert charset(strong, hints={"charset": "koi8-r"})[0].encoding == "windows-1251"
    # a near tie (these bytes read the same in both): the hint decides
    tie = enc("Größe", "windows-1252")
    assert charset(tie)[0].encoding == "windows-1252"
    g = charset(tie, hints={"charset": "iso-8859-15"})[0]
    assert g.encoding == "ISO-8859-15" and "Content-Type" in g.reason


# --- input checks and bounds ---------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        (("text",), {}),
        ((123,), {}),
        ((b"x",), {"candidates": "utf-8"}),
        ((b"x",), {"candidates": [b"utf-8"]}),
        ((b"x",), {"hints": [("charset", "utf-8")]}),
        ((b"x",), {"hints": {"probe": "・"}}),
        ((b"x",), {"hints": {"probe": ("・", "str")}}),
        ((b"x",), {"hints": {"_charset_": 5}}),
    ],
)
def test_bad_types_raise(args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    with pytest.raises(PercentEncodingTypeError):
        charset(*args, **kwargs)  # type: ignore[arg-type]


def test_unknown_hint_key_raises() -> None:
    with pytest.raises(PercentEncodingError, match="unknown hint"):
        charset(b"x", hints={"encoding": "utf-8"})


def test_bytearray_and_memoryview_accepted() -> None:
    data = enc("Привет, мир", "windows-1251")
    assert charset(bytearray(data)) == charset(memoryview(data)) == charset(data)


def test_work_is_bounded_and_a_cut_sequence_is_forgiven() -> None:
    big = "日本語のテキスト。" * 20000
    data = big.encode("utf-8")
    assert len(data) > 100 * MAX_BYTES and MAX_BYTES % 3
    assert charset(data)[0].encoding == "UTF-8"
    # Bounded: at most MAX_BYTES are looked at, so 4x the data costs about the same (the
    # check allows 2x; a scan of all of it would be 4x).
    assert_linear(charset, lambda n: ("日本語のテキスト。" * n).encode("utf-8"), n=20000,
                  factor=2.0, label="charset(long UTF-8)")
    sjis = enc(big, "shift_jis")[: MAX_BYTES * 3 + 1]  # the cut falls inside a character
    assert charset(sjis)[0].encoding == "Shift_JIS"


def test_non_ascii_after_the_first_4kb_is_still_seen() -> None:
    data = b"a=1&" * 3000 + enc("Москва - столица России", "koi8-r")
    assert len(data) > 2 * MAX_BYTES
    assert charset(data)[0].encoding == "KOI8-R"


def test_default_candidates_are_canonical_names() -> None:
    for name in DEFAULT_CANDIDATES:
        assert encodings.lookup(name).name == name


# --- accuracy over the benchmark corpus (a regression guard) ------------------------


def _corpus_accuracy(length: int, per_cell: int) -> tuple[float, int]:
    sys.path.insert(0, str(BENCH))
    try:
        corpus = importlib.import_module("corpus")
        bench = importlib.import_module("bench_charset")
    finally:
        sys.path.remove(str(BENCH))
    adapt, windows = bench.adapt, bench.windows
    right = total = 0
    for lang, sentences in corpus.SENTENCES.items():
        for stream in (" ".join(sentences), " ".join(corpus.HELDOUT[lang])):
            for name in corpus.LEGACY[lang]:
                e = encodings.lookup(name)
                text = adapt(stream, e)
                for data in windows(text, e, length, per_cell):
                    top = charset(data)[0]
                    right += encodings.lookup(top.encoding).decode(data) == e.decode(data)
                    total += 1
    return right / total, total


def test_corpus_accuracy_at_100_bytes() -> None:
    # measured 100% (as in bench/bench_charset.py); a margin for small changes
    acc, n = _corpus_accuracy(100, 4)
    assert n > 200
    assert acc >= 0.97, acc


def test_corpus_accuracy_at_30_bytes() -> None:
    # measured 98.3% on these windows (bench/bench_charset.py: 99.3% on all of them)
    acc, n = _corpus_accuracy(30, 4)
    assert n > 200
    assert acc >= 0.93, acc


# --- choose_form_encoding ------------------------------------------------------------


def test_form_charset_field() -> None:
    pairs = [(b"_CHARSET_", b"EUC-JP"), (b"q", enc("日本", "shift_jis"))]
    g = choose_form_encoding(pairs)
    assert g.encoding == "EUC-JP" and g.reason == "_charset_ field says 'EUC-JP'"
    # an unknown label is skipped
    g = choose_form_encoding([(b"_charset_", b"nope"), (b"q", enc("Größe", "latin1"))])
    assert g.encoding == "windows-1252" and g.reason.startswith("detected from 1")


def test_form_probe_field() -> None:
    pairs = [(b"enc", enc("・", "euc-jp")), (b"q", enc("中文", "euc-jp"))]
    g = choose_form_encoding(pairs, probe=("enc", "・"))
    assert g.encoding == "EUC-JP"
    assert g.reason.startswith("probe field 'enc' matched")
    # probe absent: detection, and the reason says so
    g = choose_form_encoding([(b"q", enc("東京都は日本の首都", "euc-jp"))], probe=("enc", "・"))
    assert g.encoding == "EUC-JP" and "no probe field 'enc'" in g.reason


def test_form_detection_fallback_over_names_and_values() -> None:
    pairs = [(b"a", b"1"), (enc("имя", "koi8-r"), enc("Новая станция метро", "koi8-r"))]
    g = choose_form_encoding(pairs)
    assert g.encoding == "KOI8-R"
    assert g.reason.startswith("detected from 2 non-ASCII")


def test_form_all_ascii() -> None:
    pairs = [(b"a", b"1"), (b"b", b"x y")]
    assert choose_form_encoding(pairs).encoding == "UTF-8"
    g = choose_form_encoding(pairs, content_type_charset="Shift_JIS")
    assert g.encoding == "Shift_JIS" and "Content-Type" in g.reason


def test_form_content_type_is_a_hint() -> None:
    pairs = [(b"q", enc("Москва - столица России", "windows-1251"))]
    assert choose_form_encoding(pairs, content_type_charset="koi8-r").encoding == "windows-1251"


@pytest.mark.parametrize(
    ("pairs", "kwargs"),
    [
        ("a=b", {}),
        (b"a=b", {}),
        ([("a", "b")], {}),
        ([(b"a",)], {}),
        ([(b"a", b"b")], {"probe": "enc"}),
        ([(b"a", b"b")], {"content_type_charset": b"utf-8"}),
    ],
)
def test_form_bad_types(pairs: object, kwargs: dict[str, object]) -> None:
    with pytest.raises(PercentEncodingTypeError):
        choose_form_encoding(pairs, **kwargs)  # type: ignore[arg-type]


# A value cut inside its last UTF-8 character (a length-limited log field) is still UTF-8:
# every byte before the incomplete tail is valid UTF-8 with multi-byte sequences.
@pytest.mark.parametrize(("text", "drop"), [("日本語テキスト", 1), ("日本語テキスト", 2),
                                            ("Привет мир", 1), ("Ελληνικά", 1), ("日本", 2),
                                            ("çà", 1), ("a€€", 2)])
def test_utf8_cut_inside_the_last_character_stays_utf8(text: str, drop: int) -> None:
    data = text.encode("utf-8")[:-drop]
    with pytest.raises(UnicodeDecodeError, match="unexpected end of data"):
        data.decode("utf-8")
    g = charset(data)[0]
    assert g.encoding == "UTF-8", g
    assert len(g.findings) == 1 and "end inside a UTF-8 sequence" in g.findings[0]
    assert g.confidence < charset(text.encode("utf-8"))[0].confidence


def test_only_an_incomplete_last_character_counts_as_cut() -> None:
    # No complete multi-byte sequence before the tail: a legacy byte, not a cut value.
    assert charset(b"caf\xe9")[0].encoding == "windows-1252"
    assert charset(b"ab" + "€".encode()[:2])[0].findings == ()
    # An invalid byte in the middle is not a cut at a length limit.
    assert charset("日本".encode() + b"\xa4\xa2" + "本".encode())[0].findings == ()
    # Complete UTF-8: no finding.
    assert charset("日本語".encode())[0].findings == ()
