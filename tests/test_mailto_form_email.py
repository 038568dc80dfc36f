"""Forms sent by e-mail: mailto.form_email / mailto.read_form_email.

The body is the URL Standard's urlencoded serialization in a MIME message with
Content-Transfer-Encoding quoted-printable (RFC 2045 §6.7), built and read with
Python's email package.
"""

from __future__ import annotations

import email
from email import policy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import form, mailto
from percent_encoding.errors import MailtoError, PercentEncodingError, PercentEncodingTypeError
from percent_encoding.mailto import form_email, read_form_email


def test_message_shape() -> None:
    m = form_email([("a", "b c"), ("x", "=")], "forms@example.org")
    raw = m.as_bytes()
    parsed = email.message_from_bytes(raw, policy=policy.default)
    assert parsed["To"] == "forms@example.org"
    assert parsed.get_content_type() == "application/x-www-form-urlencoded"
    assert parsed.get_param("charset") is None  # the URL Standard defines no parameter
    assert parsed["Content-Transfer-Encoding"] == "quoted-printable"
    assert parsed["MIME-Version"] == "1.0"
    # RFC 2045 §6.7: "=" is written =3D; the decoded body is the serializer's output.
    assert "a=3Db+c&x=3D%3D" in raw.decode("ascii")
    assert parsed.get_payload(decode=True).rstrip(b"\r\n") == form.serialize(
        [("a", "b c"), ("x", "=")]).encode()


def test_long_bodies_are_wrapped_and_joined_again() -> None:
    fields = [("t", "\u00e9" * 500), ("u", "v")]
    raw = form_email(fields, ["a@example.org", "b@example.org"]).as_bytes()
    body = raw.split(b"\n\n", 1)[1]
    assert all(len(line.rstrip(b"\r")) <= 76 for line in body.split(b"\n"))
    assert body.count(b"=\n") > 10  # soft line breaks
    assert read_form_email(raw) == fields
    assert b"To: a@example.org, b@example.org" in raw


def test_mailto_action_gives_addresses_and_headers() -> None:
    # The form's action URL (HTML "mail as body" keeps its header fields).
    m = form_email([("q", "1")], "mailto:f@example.org,g@example.org?subject=Order%20form"
                                 "&cc=h@example.org&body=ignored")
    assert m["To"] == "f@example.org, g@example.org"
    assert m["Subject"] == "Order form" and m["Cc"] == "h@example.org"
    assert read_form_email(m) == [("q", "1")]


def test_legacy_encoding() -> None:
    fields = [("name", "\u00e9\u20ac")]
    m = form_email(fields, "a@example.org", encoding="windows-1252")
    assert "name=3D%E9%80" in m.as_string()
    assert read_form_email(m.as_bytes(), encoding="windows-1252") == fields
    assert read_form_email(m.as_bytes()) == [("name", "\ufffd")]  # E9 80: one maximal subpart


def test_reading_other_transfer_encodings_and_multipart() -> None:
    raw = (b"To: f@example.org\r\nMIME-Version: 1.0\r\n"
           b"Content-Type: multipart/mixed; boundary=XX\r\n\r\n"
           b"--XX\r\nContent-Type: text/plain\r\n\r\nhello\r\n"
           b"--XX\r\nContent-Type: application/x-www-form-urlencoded; charset=iso-8859-1\r\n"
           b"Content-Transfer-Encoding: base64\r\n\r\n"
           b"YT0lQzMlQTkmYj0x\r\n--XX--\r\n")
    # charset is ignored (UTF-8 unless told): a=%C3%A9 is "é".
    assert read_form_email(raw) == [("a", "\u00e9"), ("b", "1")]
    plain = (b"Content-Type: application/x-www-form-urlencoded\r\n\r\n"
             b"a=1&b=\r\n2\r\n")
    assert read_form_email(plain) == [("a", "1"), ("b", "2")]


def test_errors() -> None:
    with pytest.raises(MailtoError, match="no application/x-www-form-urlencoded"):
        read_form_email(b"Content-Type: text/html\r\n\r\na=b\r\n")
    with pytest.raises(PercentEncodingTypeError):
        read_form_email("a=b")  # type: ignore[arg-type]
    with pytest.raises(MailtoError):
        form_email([("a", "b")], [])
    with pytest.raises(MailtoError):
        form_email([("a", "b")], "a@example.org\r\nBcc: x@example.org")
    with pytest.raises(PercentEncodingTypeError):
        form_email([("a", "b")], 7)  # type: ignore[arg-type]


def test_text_plain_enctype() -> None:
    # HTML "mail as body" with enctype text/plain: the text/plain encoding algorithm
    # (name=value CR LF a field, newlines normalized), always UTF-8.
    fields = [("name", "Zo\u00eb"), ("note", "a=b c"), ("_charset_", "")]
    m = form_email(fields, "f@example.org", enctype="text/plain", encoding="windows-1252")
    parsed = email.message_from_bytes(m.as_bytes(), policy=policy.default)
    assert parsed.get_content_type() == "text/plain"
    assert parsed.get_param("charset") == "utf-8"
    assert parsed["Content-Transfer-Encoding"] == "quoted-printable"
    assert parsed.get_content() == "name=Zo\u00eb\r\nnote=a=b c\r\n_charset_=UTF-8\r\n" or \
        parsed.get_content() == "name=Zo\u00eb\nnote=a=b c\n_charset_=UTF-8\n"
    assert b"name=3DZo=C3=AB" in m.as_bytes()
    assert read_form_email(m.as_bytes()) == [
        ("name", "Zo\u00eb"), ("note", "a=b c"), ("_charset_", "UTF-8")]
    with pytest.raises(MailtoError, match="no '='"):
        read_form_email(b"Content-Type: text/plain\r\n\r\nhello\r\n")
    with pytest.raises(PercentEncodingError):
        form_email(fields, "f@example.org", enctype="multipart/form-data")


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(_TEXT, _TEXT), max_size=6))
def test_round_trip(fields: list[tuple[str, str]]) -> None:
    m = form_email(fields, "forms@example.org")
    assert read_form_email(m.as_bytes()) == fields
    assert read_form_email(m.as_bytes(policy=policy.SMTP)) == fields  # CRLF line ends


def test_module_doctests() -> None:
    import doctest

    assert doctest.testmod(mailto).failed == 0


@pytest.mark.parametrize("to", ["0@", "a@@b", "@", "<x"])
def test_an_address_rfc5322_refuses_is_our_error(to: str) -> None:
    # Found by the fuzz test: the email package raised IndexError for "0@".
    from percent_encoding.errors import MailtoError

    try:
        mailto.form_email([("a", "b")], to)
    except MailtoError:
        pass  # refused with our error; an address the package takes is fine too
