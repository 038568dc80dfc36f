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


# ---------------------------------------------------------------------------
# Authorization responses at the redirect URI (RFC 6749 §4.1.2, §4.2.2)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(("url", "want"), [
    # §4.1.2's example (the code grant: the query).
    ("https://client.example.com/cb?code=SplxlOBeZQQYbYS6WxSbIA&state=xyz",
     {"code": "SplxlOBeZQQYbYS6WxSbIA", "state": "xyz"}),
    # §4.1.2.1's example.
    ("https://client.example.com/cb?error=access_denied&state=xyz",
     {"error": "access_denied", "state": "xyz"}),
    # §4.2.2's example (the implicit grant: the fragment).
    ("http://example.com/cb#access_token=2YotnFZFEjr1zCsicMWpAA&state=xyz"
     "&token_type=example&expires_in=3600",
     {"access_token": "2YotnFZFEjr1zCsicMWpAA", "state": "xyz", "token_type": "example",
      "expires_in": "3600"}),
    # §4.2.2.1's example.
    ("https://client.example.com/cb#error=access_denied&state=xyz",
     {"error": "access_denied", "state": "xyz"}),
])
def test_rfc6749_redirect_examples(url: str, want: dict[str, str]) -> None:
    assert oauth2.parse_redirect(url) == want


def test_redirect_values_are_form_data() -> None:
    # Appendix B: "+" is a space, %XX are UTF-8 octets.
    got = oauth2.parse_redirect(
        "https://c.example/cb#error=invalid_scope&error_description=The+scope+%22x%22+is+"
        "unknown%E2%80%94sorry&error_uri=https%3A%2F%2Fc.example%2Ferr%3Fa%3D1&state=a%2Bb")
    assert got == {"error": "invalid_scope",
                   "error_description": 'The scope "x" is unknown\u2014sorry',
                   "error_uri": "https://c.example/err?a=1", "state": "a+b"}
    assert list(got) == ["error", "error_description", "error_uri", "state"]


def test_redirect_uri_with_its_own_query() -> None:
    # §3.1.2: the redirect URI may have a query; an implicit grant's response is the fragment.
    got = oauth2.parse_redirect("com.example.app:/cb?app=1#access_token=t&token_type=bearer")
    assert got == {"access_token": "t", "token_type": "bearer"}
    # In the code grant, the response parameters are added to that query.
    assert oauth2.parse_redirect("https://c.example/cb?app=1&code=c&state=s#") == {
        "app": "1", "code": "c", "state": "s"}


@pytest.mark.parametrize(("url", "match", "position"), [
    ("https://c.example/cb?code=a&state=s#access_token=t", "both", 36),
    ("https://c.example/cb?state=s#code=a", "both", 29),
    ("https://c.example/cb?code=a&code=b", "twice", 28),
    ("https://c.example/cb#access_token=a&token_type=b&access_token=c", "twice", 49),
    ("https://c.example/cb?state=xyz", "no authorization response", 30),
    ("https://c.example/cb", "no authorization response", 20),
    ("https://c.example/cb?code=%FF", "UTF-8", 21),
])
def test_redirect_refusals(url: str, match: str, position: int) -> None:
    with pytest.raises(oauth2.OAuth2RedirectError, match=match) as e:
        oauth2.parse_redirect(url)
    assert e.value.position == position
    assert isinstance(e.value, OAuth2Error) and isinstance(e.value, PercentEncodingError)


def test_redirect_errors_live_in_errors() -> None:
    from percent_encoding import errors

    assert oauth2.OAuth2RedirectError is errors.OAuth2RedirectError
    assert oauth2.OAuth2Error is errors.OAuth2Error
    with pytest.raises(PercentEncodingTypeError):
        oauth2.parse_redirect(b"https://c.example/cb?code=a")  # type: ignore[arg-type]


@given(st.dictionaries(st.sampled_from(sorted(oauth2.RESPONSE_PARAMETERS)), st.text(max_size=8),
                       min_size=1).filter(lambda d: "code" in d or "error" in d),
       st.booleans())
def test_redirect_round_trip(params: dict[str, str], implicit: bool) -> None:
    from percent_encoding import form

    params = {k: v.encode("utf-8", "replace").decode("utf-8") for k, v in params.items()}
    body = form.serialize(list(params.items()))
    url = "https://c.example/cb" + ("#" if implicit else "?") + body
    assert oauth2.parse_redirect(url) == params
