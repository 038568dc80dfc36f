"""percent_encoding.oauth2: RFC 6749 §2.3.1 and Appendix B."""

from __future__ import annotations

import base64

import pytest
from hypothesis import given
from hypothesis import strategies as st

from percent_encoding import (
    PercentDecodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    oauth2,
    schemes,
)
from percent_encoding.oauth2 import OAuth2Error


def test_rfc6749_section_2_3_1_example() -> None:
    # RFC 6749 §2.3.1: the example header for client s6BhdRkqt3 / gX1fBat3bV.
    value = "Basic czZCaGRSa3F0MzpnWDFmQmF0M2JW"
    assert oauth2.basic_auth("s6BhdRkqt3", "gX1fBat3bV") == value
    assert oauth2.parse_basic_auth(value) == ("s6BhdRkqt3", "gX1fBat3bV")


def test_appendix_b_example() -> None:
    # RFC 6749 Appendix B: " %&+£€" as a form-urlencoded value.
    assert oauth2.encode(" %&+£€") == "+%25%26%2B%C2%A3%E2%82%AC"
    assert oauth2.decode("+%25%26%2B%C2%A3%E2%82%AC") == " %&+£€"


def test_parts_are_form_urlencoded_before_base64() -> None:
    # A ':' in the id is escaped, so the id/secret split stays unambiguous.
    value = oauth2.basic_auth("a:b", "p w~")
    raw = base64.b64decode(value.split(" ", 1)[1]).decode("ascii")
    assert raw == "a%3Ab:p+w%7E"
    assert oauth2.parse_basic_auth(value) == ("a:b", "p w~")


def test_non_alphanumeric_ascii_is_escaped() -> None:
    # HTML 4.01 escaping keeps only letters and digits (unlike the URL Standard's set).
    assert oauth2.encode("-._~*") == "%2D%2E%5F%7E%2A"
    assert oauth2.encode("a\nb") == "a%0Ab"


@pytest.mark.parametrize(
    "value",
    ["Basic", "Bearer abc", "Basic !!!!", "Basic YWJj", "Basic YWI6Yw", "Basic 4pyTOg==", ""],
)
def test_parse_rejects(value: str) -> None:
    # no token / wrong scheme / not base64 / no ':' / unpadded / non-ASCII octets
    with pytest.raises(OAuth2Error):
        oauth2.parse_basic_auth(value)


def test_parse_scheme_case_and_spaces() -> None:
    assert oauth2.parse_basic_auth("BASIC   YTpi") == ("a", "b")


def test_parse_bad_escape_and_bad_utf8() -> None:
    bad_pct = "Basic " + base64.b64encode(b"a%zz:b").decode()
    with pytest.raises(OAuth2Error) as e:
        oauth2.parse_basic_auth(bad_pct)
    assert e.value.position == 6
    assert isinstance(e.value, PercentEncodingError)
    bad_utf8 = "Basic " + base64.b64encode(b"a%FF:b").decode()
    with pytest.raises(TextDecodeError):
        oauth2.parse_basic_auth(bad_utf8)
    with pytest.raises(PercentDecodeError):
        oauth2.decode("%4")


def test_types() -> None:
    with pytest.raises(PercentEncodingTypeError):
        oauth2.basic_auth(b"a", "b")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        oauth2.parse_basic_auth(b"Basic YTpi")  # type: ignore[arg-type]


def test_registered() -> None:
    s = schemes.get("oauth2")
    assert s.encode("a b") == "a+b"
    assert schemes.get("rfc6749") is s


@given(st.text(), st.text())
def test_round_trip(client_id: str, secret: str) -> None:
    client_id = client_id.encode("utf-8", "replace").decode("utf-8")
    secret = secret.encode("utf-8", "replace").decode("utf-8")
    value = oauth2.basic_auth(client_id, secret)
    assert value.isascii()
    assert oauth2.parse_basic_auth(value) == (client_id, secret)
