"""percent_encoding.alpn: RFC 7838 §3 protocol-id tokens (and RFC 7639 §2)."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingTypeError,
    alpn,
    schemes,
)
from percent_encoding.alpn import AlpnDecodeError

# RFC 7230 §3.2.6 tchar.
TCHAR = string.ascii_letters + string.digits + "!#$%&'*+-.^_`|~"


@pytest.mark.parametrize(
    ("protocol_id", "token"),
    [
        (b"h2", "h2"),  # RFC 7838 §3 examples use h2
        (b"h3", "h3"),
        (b"http/1.1", "http%2F1.1"),  # RFC 7639 §2 example: ALPN: h2, http%2F1.1
        (b"w=x", "w%3Dx"),  # "=" is not a tchar
        (b"100%", "100%25"),  # "%" is a tchar but must be encoded
        (b"a b\x00\xff", "a%20b%00%FF"),
        ("\u2603", "%E2%98%83"),  # str: its UTF-8 octets
        (bytearray(b"spdy/3"), "spdy%2F3"),
    ],
)
def test_encode(protocol_id: bytes | str, token: str) -> None:
    assert alpn.encode(protocol_id) == token
    assert alpn.decode(token) == (
        protocol_id.encode() if isinstance(protocol_id, str) else bytes(protocol_id)
    )


def test_encode_keeps_every_tchar_but_percent() -> None:
    for b in range(256):
        ch = chr(b)
        expected = ch if ch in TCHAR and ch != "%" else f"%{b:02X}"
        assert alpn.encode(bytes([b])) == expected, b


def test_encode_length_and_type_errors() -> None:
    with pytest.raises(PercentEncodeError) as e:
        alpn.encode(b"")
    assert e.value.position == 0
    with pytest.raises(PercentEncodeError) as e:
        alpn.encode(b"x" * 256)
    assert e.value.position == 255
    assert alpn.encode(b"x" * 255) == "x" * 255
    with pytest.raises(PercentEncodeError):
        alpn.encode("a\ud800")
    with pytest.raises(PercentEncodingTypeError):
        alpn.encode(2)  # type: ignore[arg-type]


def test_decode_accepts_lower_case_hex_unless_canonical() -> None:
    # RFC 7838 §3's upper-case rule binds senders; recipients may be lenient.
    assert alpn.decode("http%2f1.1") == b"http/1.1"
    with pytest.raises(AlpnDecodeError) as e:
        alpn.decode("http%2f1.1", canonical=True)
    assert e.value.position == 4


def test_canonical_rejects_escaped_token_characters() -> None:
    assert alpn.decode("%68%32") == b"h2"
    with pytest.raises(AlpnDecodeError) as e:
        alpn.decode("h%32", canonical=True)
    assert e.value.position == 1
    assert alpn.decode("%25%FF", canonical=True) == b"%\xff"
    assert alpn.is_canonical("http%2F1.1")
    assert not alpn.is_canonical("%68%32")
    assert not alpn.is_canonical("http%2f1.1")
    assert not alpn.is_canonical("h 2")


@pytest.mark.parametrize(
    ("token", "position"),
    [
        ("", 0),
        ("h2%", 2),
        ("h2%2", 2),
        ("%zz", 0),
        ("a%2Fb%G0", 5),
        ("http/1.1", 4),  # "/" must be written %2F
        ("h2 ", 2),
        ('h2="', 2),
        ("caf\u00e9", 3),
    ],
)
def test_decode_errors_have_positions(token: str, position: int) -> None:
    with pytest.raises(AlpnDecodeError) as e:
        alpn.decode(token)
    assert e.value.position == position
    assert isinstance(e.value, PercentDecodeError)


def test_decode_length_and_type() -> None:
    assert alpn.decode("%FF" * 255) == b"\xff" * 255
    with pytest.raises(AlpnDecodeError):
        alpn.decode("%FF" * 256)
    with pytest.raises(PercentEncodingTypeError):
        alpn.decode(b"h2")  # type: ignore[arg-type]


def test_equal_compares_octets() -> None:
    assert alpn.equal("h2", "h2")
    assert alpn.equal("h%32", "h2")  # same octets, different spellings
    assert alpn.equal("http%2f1.1", b"http/1.1")
    assert not alpn.equal("h2", "H2")  # ALPN ids are case-sensitive octets
    assert not alpn.equal(b"h2", b"h2c")
    with pytest.raises(AlpnDecodeError):
        alpn.equal("h2%", "h2")
    with pytest.raises(PercentEncodingTypeError):
        alpn.equal("h2", 2)  # type: ignore[arg-type]


@settings(max_examples=300)
@given(st.binary(min_size=1, max_size=255))
def test_round_trip(protocol_id: bytes) -> None:
    token = alpn.encode(protocol_id)
    assert alpn.decode(token, canonical=True) == protocol_id
    assert alpn.is_canonical(token)
    assert set(token) <= set(TCHAR)
    assert alpn.equal(token, protocol_id)


def test_registered_scheme() -> None:
    s = schemes.get("alpn")
    assert s.encode("http/1.1") == "http%2F1.1"
    assert s.decode is not None
    assert s.decode("http%2F1.1") == "http/1.1"
    assert s.decode("%E2%98%83") == "\u2603"
    assert s.decode("%FF") == "\ufffd"  # the registry speaks str; alpn.decode gives octets
