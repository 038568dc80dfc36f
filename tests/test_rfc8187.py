"""percent_encoding.rfc8187: RFC 8187 §3.2 ext-values, RFC 6266 Content-Disposition,
RFC 2231 continuations."""

from __future__ import annotations

import string
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    UnknownEncodingError,
    rfc8187,
    schemes,
)
from percent_encoding.rfc8187 import (
    ContentDispositionError,
    ExtValueError,
    UnsupportedCharsetError,
)

# RFC 8187 §3.2.1 attr-char.
ATTR_CHAR = string.ascii_letters + string.digits + "!#$&+-.^_`|~"


# -- encode ------------------------------------------------------------------------


def test_encode_examples() -> None:
    # RFC 8187 §3.2.3, written by a producer (upper-case hex, canonical charset).
    assert rfc8187.encode("£ rates") == "UTF-8''%C2%A3%20rates"
    assert rfc8187.encode("£ rates", language="en") == "UTF-8'en'%C2%A3%20rates"
    assert rfc8187.encode("£ and € rates") == "UTF-8''%C2%A3%20and%20%E2%82%AC%20rates"
    # RFC 5987 §3.2.2's ISO-8859-1 example.
    assert rfc8187.encode("£ rates", "iso-8859-1", language="en") == "ISO-8859-1'en'%A3%20rates"


def test_encode_keeps_exactly_attr_char() -> None:
    for cp in range(128):
        ch = chr(cp)
        expected = ch if ch in ATTR_CHAR else f"%{cp:02X}"
        assert rfc8187.encode(ch) == "UTF-8''" + expected, ch
    # The token characters that attr-char leaves out.
    assert rfc8187.encode("*'%") == "UTF-8''%2A%27%25"


def test_encode_bytes_and_errors() -> None:
    assert rfc8187.encode(b"\xa3", "ISO-8859-1") == "ISO-8859-1''%A3"
    with pytest.raises(PercentEncodeError) as e:
        rfc8187.encode("ab€", "ISO-8859-1")
    assert e.value.position == 2
    with pytest.raises(PercentEncodeError):
        rfc8187.encode("a\udc00")
    with pytest.raises(UnsupportedCharsetError):
        rfc8187.encode("x", "windows-1252")
    with pytest.raises(PercentEncodingError):
        rfc8187.encode("x", language="en_US")
    with pytest.raises(PercentEncodingTypeError):
        rfc8187.encode(3)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        rfc8187.encode("x", language=None)  # type: ignore[arg-type]


# -- decode ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ext_value", "expected"),
    [
        ("utf-8'en'%C2%A3%20rates", ("£ rates", "en")),  # RFC 8187 §3.2.3
        ("UTF-8''%c2%a3%20and%20%e2%82%ac%20rates", ("£ and € rates", "")),  # RFC 8187 §3.2.3
        ("iso-8859-1'en'%A3%20rates", ("£ rates", "en")),  # RFC 5987 §3.2.2
        ("us-ascii'en-us'This%20is%20%2A%2A%2Afun%2A%2A%2A", ("This is ***fun***", "en-us")),
        ("uTf-8'de-CH-1901'%C3%a4", ("ä", "de-CH-1901")),
        ("UTF-8''", ("", "")),
        ("UTF-8''!#$&+-.^_`|~", ("!#$&+-.^_`|~", "")),
    ],
)
def test_decode(ext_value: str, expected: tuple[str, str]) -> None:
    assert rfc8187.decode(ext_value) == expected


@pytest.mark.parametrize(
    ("ext_value", "position"),
    [
        ("UTF-8", 5),  # no quotes at all
        ("UTF-8'en", 5),  # one quote
        ("''abc", 0),  # no charset
        ("UT F-8''abc", 2),  # not a charset name
        ("UTF-8'e_n'x", 6),  # not a language tag
        ("UTF-8''a b", 8),  # space must be encoded
        ("UTF-8''a'b", 8),
        ("UTF-8''a*", 8),
        ("UTF-8''é", 7),
        ("UTF-8''ab%2", 9),
        ("UTF-8''%GG", 7),
        ("UTF-8''ok%C3%28", 9),  # not UTF-8: points at the escape that starts it
        ("UTF-8''%E2%82", 7),  # truncated sequence
        ("us-ascii''%80", 10),
    ],
)
def test_decode_errors_have_positions(ext_value: str, position: int) -> None:
    with pytest.raises(ExtValueError) as e:
        rfc8187.decode(ext_value)
    assert e.value.position == position
    assert isinstance(e.value, PercentDecodeError)


def test_decode_unsupported_charset_is_a_lookup_error() -> None:
    with pytest.raises(UnsupportedCharsetError) as e:
        rfc8187.decode("x-bogus''%C1")
    assert isinstance(e.value, LookupError)
    assert isinstance(e.value, UnknownEncodingError)
    assert e.value.position == 0


def test_decode_replace_only_relaxes_the_charset() -> None:
    assert rfc8187.decode("UTF-8''a%FFb", errors="replace") == ("a\ufffdb", "")
    with pytest.raises(ExtValueError):
        rfc8187.decode("UTF-8''a b", errors="replace")
    with pytest.raises(PercentEncodingError):
        rfc8187.decode("UTF-8''a", errors="ignore")
    with pytest.raises(PercentEncodingTypeError):
        rfc8187.decode(b"UTF-8''a")  # type: ignore[arg-type]


_text = st.text(alphabet=st.characters(codec="utf-8"))


@settings(max_examples=200)
@given(_text, st.sampled_from(["", "en", "de-CH", "x-private"]))
def test_round_trip_utf8(text: str, language: str) -> None:
    ext = rfc8187.encode(text, language=language)
    assert rfc8187.decode(ext) == (text, language)


@settings(max_examples=100)
@given(st.text(alphabet=st.characters(max_codepoint=0xFF)))
def test_round_trip_latin1(text: str) -> None:
    ext = rfc8187.encode(text, "ISO-8859-1")
    assert ext.startswith("ISO-8859-1''")
    assert rfc8187.decode(ext) == (text, "")


# -- content_disposition ----------------------------------------------------------------


def test_content_disposition_plain_ascii() -> None:
    assert rfc8187.content_disposition("report.pdf") == 'attachment; filename="report.pdf"'
    assert rfc8187.content_disposition("a b.txt", "inline") == 'inline; filename="a b.txt"'


def test_content_disposition_non_ascii_gets_fallback_and_filename_star() -> None:
    assert rfc8187.content_disposition("€ rates.pdf") == (
        "attachment; filename=\"_ rates.pdf\"; filename*=UTF-8''%E2%82%AC%20rates.pdf"
    )
    # Accents are dropped in the fallback, not the letters.
    assert rfc8187.content_disposition("Ärger.txt") == (
        "attachment; filename=\"Arger.txt\"; filename*=UTF-8''%C3%84rger.txt"
    )


def test_content_disposition_quotes_backslashes_and_escapes() -> None:
    # '"' is escaped in the quoted-string, and filename* carries the exact name.
    assert rfc8187.content_disposition('say "hi".txt') == (
        "attachment; filename=\"say \\\"hi\\\".txt\"; filename*=UTF-8''say%20%22hi%22.txt"
    )
    # RFC 6266 Appendix D: no "\" in the fallback; "%41" would be decoded by some agents.
    assert rfc8187.content_disposition("a\\b%41.txt") == (
        "attachment; filename=\"a_b%41.txt\"; filename*=UTF-8''a%5Cb%2541.txt"
    )
    # 100% alone is harmless and needs no filename*.
    assert rfc8187.content_disposition("100%.txt") == 'attachment; filename="100%.txt"'


def test_content_disposition_never_emits_control_characters() -> None:
    header = rfc8187.content_disposition("a\r\nSet-Cookie: x=1\x00.txt")
    assert not any(ord(c) < 0x20 or ord(c) > 0x7E for c in header)
    assert rfc8187.parse_content_disposition(header)[1]["filename"] == (
        "a\r\nSet-Cookie: x=1\x00.txt"
    )


def test_content_disposition_errors() -> None:
    with pytest.raises(PercentEncodingError):
        rfc8187.content_disposition("x", "attach ment")
    with pytest.raises(PercentEncodingError):
        rfc8187.content_disposition("x", "")
    with pytest.raises(PercentEncodeError):
        rfc8187.content_disposition("a\ud800")
    with pytest.raises(PercentEncodingTypeError):
        rfc8187.content_disposition(b"x")  # type: ignore[arg-type]


@settings(max_examples=200)
@given(_text)
def test_content_disposition_round_trip(name: str) -> None:
    header = rfc8187.content_disposition(name)
    assert header.isascii()
    disposition, params = rfc8187.parse_content_disposition(header)
    assert disposition == "attachment"
    assert params == {"filename": name}


# -- parse_content_disposition --------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        # RFC 6266 §5.
        ("Attachment; filename=example.html", ("attachment", {"filename": "example.html"})),
        ('INLINE; FILENAME= "an example.html"', ("inline", {"filename": "an example.html"})),
        (
            "attachment; filename*= UTF-8''%e2%82%ac%20rates",
            ("attachment", {"filename": "€ rates"}),
        ),
        (
            "attachment; filename=\"EURO rates\"; filename*=utf-8''%e2%82%ac%20rates",
            ("attachment", {"filename": "€ rates"}),
        ),
        # filename* wins whatever the order.
        (
            "attachment; filename*=utf-8''%e2%82%ac%20rates; filename=\"EURO rates\"",
            ("attachment", {"filename": "€ rates"}),
        ),
        ("inline", ("inline", {})),
        ("inline ;", ("inline", {})),
        ('attachment; filename="a\\"b\\\\c"', ("attachment", {"filename": 'a"b\\c'})),
        (
            "form-data; name=field; filename=\"x.txt\"",
            ("form-data", {"name": "field", "filename": "x.txt"}),
        ),
    ],
)
def test_parse(header: str, expected: tuple[str, dict[str, str]]) -> None:
    assert rfc8187.parse_content_disposition(header) == expected


def test_parse_rfc2231_continuations() -> None:
    # RFC 2231 §3 (plain sections) and §4.1 (encoded and plain sections mixed).
    header = (
        'attachment; URL*0="ftp://"; URL*1="cs.utk.edu/pub/moore/bulk-mailer/bulk-mailer.tar"; '
        "title*0*=us-ascii'en'This%20is%20even%20more%20; title*1*=%2A%2A%2Afun%2A%2A%2A%20; "
        "title*2=\"isn't it!\""
    )
    assert rfc8187.parse_content_disposition(header, rfc2231=True) == (
        "attachment",
        {
            "url": "ftp://cs.utk.edu/pub/moore/bulk-mailer/bulk-mailer.tar",
            "title": "This is even more ***fun*** isn't it!",
        },
    )


def test_parse_continuations_join_octets_before_decoding() -> None:
    # "€" split across two sections, out of order in the header.
    header = "attachment; filename*1*=%AC.txt; filename*0*=UTF-8''%E2%82"
    assert rfc8187.parse_content_disposition(header, rfc2231=True)[1] == {"filename": "€.txt"}


def test_parse_falls_back_to_filename_when_filename_star_is_unusable() -> None:
    for bad in ("x-bogus''%C1", "UTF-8''%E2%82", "UTF-8'e_n'x", '"UTF-8\'\'quoted"'):
        header = f'attachment; filename="fallback.txt"; filename*={bad}'
        assert rfc8187.parse_content_disposition(header)[1] == {"filename": "fallback.txt"}


@pytest.mark.parametrize(
    ("header", "error", "position"),
    [
        ("", ContentDispositionError, 0),
        ("; filename=x", ContentDispositionError, 0),
        ("attachment filename=x", ContentDispositionError, 11),
        ("attachment; filename", ContentDispositionError, 20),
        ("attachment; filename=", ContentDispositionError, 21),
        ('attachment; filename="abc', ContentDispositionError, 21),
        ("attachment; filename=a; FILENAME=b", ContentDispositionError, 24),
        ("attachment; filename*=UTF-8''%E2%82", ContentDispositionError, 29),
        ("attachment; filename*=UTF-8''ab%2", ContentDispositionError, 31),
        ("attachment; filename*=x-bogus''x", UnsupportedCharsetError, 22),
        ("attachment; t*0*=UTF-8''a; t*2=b", ContentDispositionError, 27),
        ("attachment; t*0=a; t*1*=%41", ContentDispositionError, 16),
        ("attachment; t*0*=UTF-8''%C3; t*1*=%28", ContentDispositionError, 24),
        ("attachment; filename*=\"UTF-8''x\"", ContentDispositionError, 23),
    ],
)
def test_parse_errors_have_positions(header: str, error: type[Exception], position: int) -> None:
    with pytest.raises(error) as e:
        rfc8187.parse_content_disposition(header, strict=True, rfc2231=True)
    assert e.value.position == position  # type: ignore[attr-defined]


def test_parse_type_error() -> None:
    with pytest.raises(PercentEncodingTypeError):
        rfc8187.parse_content_disposition(None)  # type: ignore[arg-type]


def test_registered_schemes() -> None:
    s = schemes.get("rfc8187")
    assert schemes.get("rfc5987") is s
    assert s.encode("£ rates*") == "%C2%A3%20rates%2A"
    assert s.decode is not None and s.decode("%c2%a3%20rates") == "£ rates"
    ext = schemes.get("rfc8187-ext-value")
    assert ext.encode("£") == "UTF-8''%C2%A3"
    assert ext.decode is not None and ext.decode("iso-8859-1''%A3") == "£"


# -- differential: the standard library's RFC 2231 code (email) -----------------------

_printable = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cc", "Cs", "Zl", "Zp")),
    min_size=1,
    max_size=120,
)


@settings(max_examples=150)
@given(_printable)
def test_parse_what_the_email_package_writes(name: str) -> None:
    # EmailMessage writes RFC 2231 parameters, splitting long ones into
    # continuations (filename*0*=utf-8''...; filename*1*=...).
    from email.message import EmailMessage

    msg = EmailMessage()
    msg.add_header("Content-Disposition", "attachment", filename=name)
    raw = msg.as_string().split("\n\n", 1)[0]
    value = raw.partition(":")[2].replace("\n", "").strip()  # unfold (RFC 5322 §2.2.3)
    assert rfc8187.parse_content_disposition(value, rfc2231=True) == (
        "attachment", {"filename": name}
    )


@settings(max_examples=150)
@given(_text)
def test_ext_values_agree_with_email_utils(text: str) -> None:
    import email.utils
    import urllib.parse

    theirs = email.utils.encode_rfc2231(text, "utf-8", "en")
    assert rfc8187.decode(theirs) == (text, "en")
    charset, language, value = email.utils.decode_rfc2231(rfc8187.encode(text, language="en"))
    assert (charset, language, urllib.parse.unquote(value)) == ("UTF-8", "en", text)


def test_bad_errors_mode_and_scheme_bytes() -> None:
    # Regression (robustness fuzz): an unknown mode was a bare ValueError, and the
    # registry's rfc8187 decode choked on bytes (a str regex over bytes).
    for mode in ("", "STRICT", "html"):
        with pytest.raises(PercentEncodingError, match="'fatal', 'strict'") as ei:
            rfc8187.decode("UTF-8''a", errors=mode)
        assert type(ei.value) is PercentEncodingError
    # "fatal" is the Encoding Standard's word for "strict": one vocabulary (docs/options.md).
    assert rfc8187.decode("UTF-8''%C2%A3", errors="fatal") == ("\u00a3", "")
    with pytest.raises(ExtValueError) as fatal:
        rfc8187.decode("UTF-8''%FF", errors="fatal")
    with pytest.raises(ExtValueError) as strict:
        rfc8187.decode("UTF-8''%FF", errors="strict")
    assert fatal.value.position == strict.value.position == 7
    with pytest.raises(PercentEncodingTypeError):
        rfc8187.decode("UTF-8''a", errors=None)  # type: ignore[arg-type]
    value: Any = schemes.get("rfc8187")  # str|bytes in, per the registry contract
    ext: Any = schemes.get("rfc8187-ext-value")
    assert value.decode(b"a%C2%A3") == value.decode("a%C2%A3") == "a\u00a3"
    assert value.decode(bytearray(b"%41")) == "A"
    assert ext.decode(b"UTF-8''%E2%82%AC") == "\u20ac"
    with pytest.raises(ExtValueError) as e:
        value.decode(b"ab\xff")  # a raw non-ASCII octet is not attr-char, at its offset
    assert e.value.position == 2
    for bad in (None, 7, ["a"]):
        with pytest.raises(PercentEncodingTypeError):
            value.decode(bad)
