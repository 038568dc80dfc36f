"""form.parse(encoding="auto"): the seeds' hints (a _charset_ field, a probe
field, a charset= parameter) and then detection, reporting what was chosen."""

from __future__ import annotations

import pytest

from percent_encoding import encode, form
from percent_encoding.errors import PercentEncodingError, PercentEncodingTypeError


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
    result = form.parse(body(encoding, q=text, n="1"), encoding="auto")
    assert list(result) == [("q", text), ("n", "1")]
    assert isinstance(result, form.ParsedForm) and isinstance(result, list)
    assert result.charset.encoding.lower().replace("_", "-") in (
        encoding.replace("_", "-"), "windows-1251" if encoding == "windows-1251" else encoding
    )
    assert result.charset.reason


def test_charset_field_decides() -> None:
    # %82%A0 is あ in Shift_JIS; the _charset_ field says EUC-JP, and wins.
    r = form.parse("a=%A4%A2&_charset_=EUC-JP", encoding="auto")
    assert list(r) == [("a", "あ"), ("_charset_", "EUC-JP")]
    assert r.charset.encoding == "EUC-JP" and "_charset_" in r.charset.reason


def test_probe_field_decides() -> None:
    # "・" is 0x81 0x45 in Shift_JIS and 0xA1 0xA6 in EUC-JP.
    r = form.parse("dot=%A1%A6&v=%A4%A2", encoding="auto", probe=("dot", "・"))
    assert r.charset.encoding == "EUC-JP" and "probe" in r.charset.reason
    assert list(r) == [("dot", "・"), ("v", "あ")]


def test_ascii_is_utf8_and_options_still_apply() -> None:
    r = form.parse("?a=1;b=2", encoding="auto", separators="&;", strip_leading_question_mark=True)
    assert list(r) == [("a", "1"), ("b", "2")] and r.charset.encoding == "UTF-8"
    assert "ParsedForm" in repr(r)


def test_limits_and_bad_hints() -> None:
    from percent_encoding.errors import FormLimitError

    with pytest.raises(FormLimitError):
        form.parse("a=1&b=2&c=3", encoding="auto", max_fields=2)
    with pytest.raises(PercentEncodingTypeError):
        form.parse("a=1", encoding="auto", probe="dot")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingError, match="auto"):
        form.parse("a=1", probe=("dot", "・"))
