"""detect.parse_form (``form.parse(encoding="auto")`` until it moved there): the seeds'
hints (a _charset_ field, a probe field, a charset= parameter) and then detection,
reporting what was chosen; the old spelling still works, with a deprecation warning."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from percent_encoding import detect, encode, form
from percent_encoding.errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)


def body(encoding: str, **fields: str) -> str:
    def enc(v: str) -> str:
        return encode(v, "application/x-www-form-urlencoded", encoding=encoding,
                      space_as_plus=True)

    return "&".join(f"{k}={enc(v)}" for k, v in fields.items())


@pytest.mark.parametrize(
    ("encoding", "text"),
    [
        ("shift_jis", "日本語のテキストです"),
        ("euc-jp", "日本語のテキストです"),
        ("euc-kr", "한국어 문장입니다"),
        ("windows-1251", "Привет, как дела?"),
        ("utf-8", "Grüße aus Köln"),
    ],
)
def test_detects_the_encoding(encoding: str, text: str) -> None:
    result = detect.parse_form(body(encoding, q=text, n="1"))
    assert list(result) == [("q", text), ("n", "1")]
    assert isinstance(result, form.ParsedForm) and isinstance(result, list)
    assert result.charset.encoding.lower().replace("_", "-") in (
        encoding.replace("_", "-"), "windows-1251" if encoding == "windows-1251" else encoding
    )
    assert result.charset.reason


def test_charset_field_decides() -> None:
    # %82%A0 is あ in Shift_JIS; the _charset_ field says EUC-JP, and wins.
    r = detect.parse_form("a=%A4%A2&_charset_=EUC-JP")
    assert list(r) == [("a", "あ"), ("_charset_", "EUC-JP")]
    assert r.charset.encoding == "EUC-JP" and "_charset_" in r.charset.reason


def test_probe_field_decides() -> None:
    # "・" is 0x81 0x45 in Shift_JIS and 0xA1 0xA6 in EUC-JP.
    r = detect.parse_form("dot=%A1%A6&v=%A4%A2", probe=("dot", "・"))
    assert r.charset.encoding == "EUC-JP" and "probe" in r.charset.reason
    assert list(r) == [("dot", "・"), ("v", "あ")]


def test_ascii_is_utf8_and_options_still_apply() -> None:
    r = detect.parse_form("?a=1;b=2", separators="&;", strip_leading_question_mark=True)
    assert list(r) == [("a", "1"), ("b", "2")] and r.charset.encoding == "UTF-8"
    assert "ParsedForm" in repr(r)


def test_limits_and_bad_hints() -> None:
    from percent_encoding.errors import FormLimitError

    with pytest.raises(FormLimitError):
        detect.parse_form("a=1&b=2&c=3", max_fields=2)
    with pytest.raises(PercentEncodingTypeError):
        detect.parse_form("a=1", probe="dot")  # type: ignore[call-overload]
    with pytest.raises(PercentEncodingError, match=r"\(probe=\): use detect\.parse_form\(\)"):
        form.parse("a=1", probe=("dot", "・"))  # type: ignore[call-arg]


# --------------------------------------------------------------------------------------------
# Mixed charsets, escape-based encodings, cut values, echo fields, types


def test_fields_in_different_charsets_are_noticed() -> None:
    # Shift_JIS "あ" in one field, EUC-JP "あ" in the other: no single encoding
    # reads both, so the whole-form guess must not be confident, and says why.
    r = detect.parse_form("a=%82%A0&b=%A4%A2")
    assert r.charset.confidence <= 0.5
    assert any("disagree" in f for f in r.charset.findings)
    assert r.fields == []


def test_per_field_decodes_each_field_with_its_own_guess() -> None:
    sj = body("shift_jis", a="日本語のテキストです")
    ej = body("euc-jp", b="日本語のテキストです")
    r = detect.parse_form(f"{sj}&{ej}&c=plain", per_field=True)
    assert r == [("a", "日本語のテキストです"), ("b", "日本語のテキストです"), ("c", "plain")]
    assert [g.encoding for g in r.fields[:2]] == ["Shift_JIS", "EUC-JP"]
    assert r.fields[2].encoding == r.charset.encoding
    assert r.charset.findings


def test_agreeing_fields_keep_their_confidence() -> None:
    r = detect.parse_form(body("shift_jis", a="日本語のテキスト", b="東京都の天気予報"))
    assert r.charset.encoding == "Shift_JIS"
    assert r.charset.findings == ()
    assert r.charset.confidence > 0.8


def test_per_field_needs_auto() -> None:
    with pytest.raises(PercentEncodingError, match=r"detect\.parse_form\(\)"):
        form.parse("a=1", per_field=True)  # type: ignore[call-arg]
    with pytest.raises(PercentEncodingTypeError):
        detect.parse_form("a=1", per_field="yes")  # type: ignore[call-overload]


def test_iso_2022_jp_in_the_auto_path() -> None:
    q = "q=" + "".join(f"%{b:02X}" for b in "日本語のテキスト".encode("iso2022_jp"))
    r = detect.parse_form(q)
    assert r == [("q", "日本語のテキスト")]
    assert r.charset.encoding == "ISO-2022-JP"
    r = detect.parse_form(q + "&x=%82%A0", per_field=True)
    assert r.fields[0].encoding == "ISO-2022-JP" and r[0] == ("q", "日本語のテキスト")


@pytest.mark.parametrize("text", ["Привет мир", "日本語のテキスト", "Grüße aus Köln ☃"])
def test_utf8_cut_at_the_end_of_a_value_stays_utf8(text: str) -> None:
    raw = text.encode("utf-8")[:-1]
    q = "q=" + "".join(f"%{b:02X}" for b in raw)
    r = detect.parse_form(q)
    assert r.charset.encoding == "UTF-8"
    assert r[0][1] == text[:-1] + "\ufffd"
    assert any("ends inside a UTF-8 sequence" in f and "'q'" in f for f in r.charset.findings)
    r = detect.parse_form(q, per_field=True)
    assert r.fields[0].encoding == "UTF-8" and r.fields[0].findings


def test_a_legacy_byte_at_the_end_is_not_a_cut_utf8_value() -> None:
    r = detect.parse_form("q=caf%E9")
    assert r == [("q", "café")]
    assert r.charset.findings == ()


@pytest.mark.parametrize("field", ["ie", "IE", "ei", "inputEncoding", "charset", "oe"])
def test_echo_charset_fields(field: str) -> None:
    r = detect.parse_form(f"{field}=EUC-JP&q=%A4%A2")
    assert r.charset.encoding == "EUC-JP"
    assert r.charset.reason.startswith(f"field {field!r} echoes the input charset")


def test_echo_field_that_does_not_fit_is_not_trusted() -> None:
    # ie says UTF-8 but the value is not UTF-8: detection decides, and says so.
    r = detect.parse_form("ie=UTF-8&q=" + body("windows-1251", x="Привет, как дела?")[2:])
    assert r.charset.encoding == "windows-1251"
    assert "'ie' says 'UTF-8', but the data do not decode in it" in r.charset.reason


def test_echo_fields_are_overridable() -> None:
    q = "my_enc=EUC-JP&ie=Shift_JIS&q=%A4%A2"
    r = detect.parse_form(q, echo_fields=["my_enc"])
    assert r.charset.encoding == "EUC-JP"
    assert detect.parse_form("ie=EUC-JP&q=%A4%A2",
                             echo_fields=[]).charset.reason.startswith("detected")
    with pytest.raises(PercentEncodingError, match=r"detect\.parse_form\(\)"):
        form.parse("a=1", echo_fields=["ie"])  # type: ignore[call-arg]


@pytest.mark.parametrize("bad", [0, "ie", b"ie", ["ie", 1], None.__class__])
def test_echo_fields_of_the_wrong_type_are_refused(bad: object) -> None:
    # Any iterable of str names is taken (a generator too); anything else is our
    # type error, from detect.parse_form and from detect.form_field_charsets alike.
    from percent_encoding import detect

    with pytest.raises(PercentEncodingTypeError, match="echo_fields"):
        detect.parse_form("ie=EUC-JP&q=%A4%A2", echo_fields=bad)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError, match="echo_fields"):
        detect.form_field_charsets([], echo_fields=bad)  # type: ignore[arg-type]
    r = detect.parse_form("my_enc=EUC-JP&q=%A4%A2", echo_fields=(f for f in ["my_enc"]))
    assert r.charset.encoding == "EUC-JP"


def test_probe_beats_an_echo_field() -> None:
    q = "ie=EUC-JP&p=%81E&q=%83e"
    r = detect.parse_form(q, probe=("p", "・"))
    assert r.charset.encoding == "Shift_JIS"


@pytest.mark.slow
@pytest.mark.one_impl
def test_auto_result_type_checks(tmp_path: Path) -> None:
    mypy_api = pytest.importorskip("mypy.api")
    code = (
        "from percent_encoding import detect, form\n"
        "r = detect.parse_form('a=%82%A0')\n"
        "enc: str = r.charset.encoding\n"
        "plain: list[tuple[str, str]] = form.parse('a=1')\n"
        "plain.charset\n"
    )
    (tmp_path / "mypy.ini").write_text("[mypy]\n")
    (tmp_path / "check.py").write_text(code)
    out, _, status = mypy_api.run([
        "--config-file", str(tmp_path / "mypy.ini"), "--strict", "--no-incremental",
        "--cache-dir", str(tmp_path / "cache"), str(tmp_path / "check.py"),
    ])
    assert status == 1
    # the only error is .charset on the plain list
    assert out.count("error:") == 1 and "check.py:5:" in out and '"charset"' in out, out


def test_content_type_charset_is_reported() -> None:
    q = "q=%93%FA%96%7B%8C%EA"  # Shift_JIS
    r = detect.parse_form(q, content_type_charset="shift_jis")
    assert r.charset.encoding == "Shift_JIS" and "Content-Type charset" in r.charset.reason
    r = detect.parse_form(q, content_type_charset="utf-8")
    assert r.charset.encoding == "Shift_JIS"
    assert r.charset.findings == (
        "the Content-Type header says charset=UTF-8, but the data do not decode in it",
    )
    r = detect.parse_form("q=caf%E9+au+lait", content_type_charset="windows-1251")
    assert r.charset.encoding == "windows-1252"
    assert "charset=windows-1251, but the data read better as windows-1252" in r.charset.findings[0]


def test_form_field_charsets_for_parse_bytes() -> None:
    from percent_encoding.detect import form_field_charsets

    raw = form.parse_bytes(body("shift_jis", a="日本語のテキスト") + "&"
                           + body("euc-kr", b="한국어 문장입니다") + "&n=1")
    whole, fields = form_field_charsets(raw)
    assert [g.encoding for g in fields[:2]] == ["Shift_JIS", "EUC-KR"]
    assert fields[2].encoding == whole.encoding
    assert whole.findings and whole.confidence <= 0.5


def test_the_old_auto_spelling_raises_and_names_detect() -> None:
    # 0.x: form.parse(encoding="auto") is gone (form never reaches detect); the error
    # names the call that guesses, and no guess is made.
    q = "q=%93%FA%96%7B%8C%EA"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for spelling in ("auto", "AUTO", " Auto "):
            with pytest.raises(PercentEncodingError,
                               match=r"no longer guesses.*use detect\.parse_form\(\)"):
                form.parse(q, encoding=spelling)
        with pytest.raises(PercentEncodingError, match=r"encoding='auto', per_field=, probe="):
            form.parse(q, encoding="auto", per_field=True,  # type: ignore[call-arg]
                       probe=("x", "・"))
        with pytest.raises(PercentEncodingError, match=r"content_type_charset="):
            form.parse(q, content_type_charset="utf-8")  # type: ignore[call-arg]
    assert detect.parse_form(q).charset.encoding == "Shift_JIS"


def test_parse_form_takes_no_encoding_and_form_parse_no_unknown_keyword() -> None:
    with pytest.raises(TypeError):
        detect.parse_form("a=1", encoding="shift_jis")  # type: ignore[call-arg]
    with pytest.raises(PercentEncodingTypeError, match="unexpected keyword argument 'bogus'"):
        form.parse("a=1", bogus=True)  # type: ignore[call-arg]


def test_the_guessing_path_splits_the_body_once(monkeypatch: pytest.MonkeyPatch) -> None:
    # detect.parse_form percent-decodes the fields once; the guess and the decoders share
    # them (before, the body was split for the guess and again for the decoding).
    from percent_encoding import core

    calls: list[object] = []
    real = core.form_parse_bytes_kernel

    def counting(data: bytes) -> list[tuple[bytes, bytes]]:
        calls.append(data)
        return real(data)

    monkeypatch.setattr(core, "form_parse_bytes_kernel", counting)
    r = detect.parse_form("a=%82%A0;b=%A4%A2", separators="&;", per_field=True)
    assert len(calls) == 1
    assert [g.encoding for g in r.fields] == ["Shift_JIS", "EUC-JP"]
    assert list(r) == [("a", "あ"), ("b", "あ")]
    # errors="fatal" still reports the position into the input.
    body_ = "_charset_=utf-8&q=%E6%97%A5%FF"
    with pytest.raises(TextDecodeError) as e:
        detect.parse_form(body_, errors="fatal", strict=False)
    assert e.value.position == 16 + 2 + 9
    with pytest.raises(TextDecodeError) as e2:
        form.parse(body_, errors="fatal", strict=False)
    assert str(e.value) == str(e2.value)


def test_form_options_are_one_frozen_value() -> None:
    import dataclasses

    opts = form.FormOptions(separators="&;")
    with pytest.raises(dataclasses.FrozenInstanceError):
        opts.separators = "&"  # type: ignore[misc]
    assert not hasattr(opts, "__dict__")
    assert form.parse_with("a=1;b=2", opts) == [("a", "1"), ("b", "2")]
    # The option sets form.parse has built are reused, yet every value is still checked.
    assert form.parse("?a=1", strip_leading_question_mark=True) == [("a", "1")]
    with pytest.raises(PercentEncodingTypeError):
        form.parse("?a=1", strip_leading_question_mark=1)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        form.parse("a=1", separators=["&"])  # type: ignore[arg-type]
