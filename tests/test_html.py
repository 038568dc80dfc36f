"""percent_encoding.html: HTML custom scheme handlers (registerProtocolHandler's %s)."""

from __future__ import annotations

import string
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from percent_encoding import PercentEncodingError, PercentEncodingTypeError, decode_text
from percent_encoding.html import protocol_handler_url

T = "https://handler.example/?uri=%s"


def test_component_set_not_query_set() -> None:
    # The component set escapes what a query would keep: + & = : / ? # and $ , ;
    got = protocol_handler_url(T, "web+x:a/b?c=d&e#f$g,h;i")
    assert got == (
        "https://handler.example/?uri="
        "web%2Bx%3Aa%2Fb%3Fc%3Dd%26e%23f%24g%2Ch%3Bi"
    )


def test_percent_is_escaped_so_nested_escapes_survive() -> None:
    # whatwg/html#3377: the older "default encode set" rule left % alone.
    assert protocol_handler_url(T, "web+x:%41") == "https://handler.example/?uri=web%2Bx%3A%2541"


def test_unreserved_and_component_safe_characters_stay() -> None:
    # The component set leaves ASCII alphanumerics and - . _ ~ ! ' ( ) * as they are.
    assert protocol_handler_url("%s", "Az09-._~!'()*") == "Az09-._~!'()*"


def test_only_the_first_placeholder() -> None:
    assert protocol_handler_url("a%sb%sc", "x y") == "ax%20yb%sc"


def test_credentials_are_removed() -> None:
    assert protocol_handler_url("%s", "ftp://u:p@h.example/f") == "ftp%3A%2F%2Fh.example%2Ff"
    # an @ in a path or a mailto address is not a credential
    assert protocol_handler_url("%s", "mailto:a@b") == "mailto%3Aa%40b"
    assert protocol_handler_url("%s", "x://h/p@q") == "x%3A%2F%2Fh%2Fp%40q"


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"])))
def test_same_as_encodeURIComponent(text: str) -> None:
    # URL Standard §1.3: the component set is what encodeURIComponent escapes.
    from percent_encoding import ecmascript

    assert protocol_handler_url("%s", text) == ecmascript.encode_uri_component(text)


def test_non_ascii_is_utf8() -> None:
    assert protocol_handler_url("%s", "web+x:é☃") == "web%2Bx%3A%C3%A9%E2%98%83"


def test_errors() -> None:
    with pytest.raises(PercentEncodingError, match="no %s"):
        protocol_handler_url("https://handler.example/", "web+x:a")
    with pytest.raises(PercentEncodingError):
        protocol_handler_url("https://handler.example/%S", "web+x:a")  # case matters
    with pytest.raises(PercentEncodingTypeError):
        protocol_handler_url(T, b"web+x:a")  # type: ignore[arg-type]


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"])))
def test_round_trip_through_the_handler_query(url: str) -> None:
    # What a handler reads back from its query is the URL it was given
    # (when there are no credentials to strip).
    got = protocol_handler_url(T, "web+x:" + url)
    value = got.split("?uri=", 1)[1]
    assert set(value) <= set(string.ascii_letters + string.digits + "-._~!'()*%")
    assert decode_text(value) == "web+x:" + url
    assert urllib.parse.parse_qs("uri=" + value, keep_blank_values=True)["uri"] == [
        "web+x:" + url
    ]
