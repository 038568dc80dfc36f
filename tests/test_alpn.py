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


# ---------------------------------------------------------------------------
# The Alt-Svc field (RFC 7838 §3)
# ---------------------------------------------------------------------------
AS = alpn.AltService

# RFC 7838's examples (§3, §3.1), each parsed and written back exactly.
RFC7838_EXAMPLES = [
    ('h2=":8000"', [AS("h2", ":8000", ())]),
    ('h2="new.example.org:80"', [AS("h2", "new.example.org:80", ())]),
    ('h2="alt.example.com:8000", h2=":443"',
     [AS("h2", "alt.example.com:8000", ()), AS("h2", ":443", ())]),
    ('h2=":443"; ma=3600', [AS("h2", ":443", (("ma", "3600"),))]),
    ('h2=":443"; ma=2592000; persist=1',
     [AS("h2", ":443", (("ma", "2592000"), ("persist", "1")))]),
    ("clear", []),
    # §3's protocol name escaping table.
    ('w%3Dx%3Ay#z=":443"', [AS("w=x:y#z", ":443", ())]),
    ('x%25y=":443"', [AS("x%y", ":443", ())]),
]


@pytest.mark.parametrize(("value", "want"), RFC7838_EXAMPLES)
def test_rfc7838_examples(value: str, want: list[alpn.AltService]) -> None:
    assert alpn.parse_alt_svc(value) == want
    assert alpn.alt_svc(want) == value


def test_parse_alt_svc_details() -> None:
    got = alpn.parse_alt_svc(' , h3=":443" ;ma=60 ;  v="a\\"b,c;d", ,h2="[::1]:8443",, ')
    assert got == [AS("h3", ":443", (("ma", "60"), ("v", 'a"b,c;d'))),
                   AS("h2", "[::1]:8443", ())]
    assert alpn.parse_alt_svc("\tclear ") == []
    assert alpn.parse_alt_svc('h%32=":1"')[0].protocol_id == "h2"  # lower-level: decoded
    octet = alpn.parse_alt_svc('%FF=":1"')[0].protocol_id  # not UTF-8: kept losslessly
    assert octet.encode("utf-8", "surrogateescape") == b"\xff"
    assert alpn.alt_svc([(octet, ":1", ())]) == '%FF=":1"'


@pytest.mark.parametrize(("value", "position"), [
    ("", 0),
    (",", 0),
    ("Clear", 5),  # case-sensitive: an alternative without '='
    ('clear, h2=":443"', 0),
    ('h2=":443", clear', 11),
    ("h2=:443", 3),
    ('h2 =":443"', 2),
    ('h2="example.com"', 3),
    ('h2="host:port"', 3),
    ('h2=":443', 3),
    ('h2=":443" ma=1', 10),
    ('h2=":443";', 10),
    ('h2=":443"; ma', 11),
    ('h2=":443"; ma=', 14),
    ('h2=":443"; ma = 1', 11),
    ('http/1.1=":443"', 4),
    ('h2%=":443"', 2),
    ('h2=":4\x0043"', 6),
])
def test_parse_alt_svc_errors_have_positions(value: str, position: int) -> None:
    with pytest.raises(alpn.AltSvcError) as e:
        alpn.parse_alt_svc(value)
    assert e.value.position == position, str(e.value)
    assert isinstance(e.value, ValueError)


def test_alt_svc_builder() -> None:
    assert alpn.alt_svc([alpn.AltService("h3", ":443", (("ma", "86400"),)),
                         ("h2", "alt.example.com:443", [("persist", 1)])]) == (
        'h3=":443"; ma=86400, h2="alt.example.com:443"; persist=1')
    assert alpn.alt_svc([("h2", ":443", None), ("h2", ":80", {"x": ""})]) == (
        'h2=":443", h2=":80"; x=""')
    from percent_encoding.errors import AltSvcError

    for bad in [[("h2", "example.com", ())], [("", ":443", ())], [("h2", ":443", {"a b": "1"})],
                [("h2", ":443", {"a": "\u0100"})], [("h2", "h\n:1", ())]]:
        with pytest.raises(AltSvcError):
            alpn.alt_svc(bad)
    for wrong in [None, "h2", {"h2": ":443"}, [("h2", ":443")], [(1, ":443", ())],
                  [("h2", ":443", "ma=1")], [("h2", ":443", {"ma": True})]]:
        with pytest.raises(PercentEncodingTypeError):
            alpn.alt_svc(wrong)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        alpn.parse_alt_svc(b'h2=":443"')  # type: ignore[arg-type]


_quotable = st.text(st.one_of(st.characters(min_codepoint=0x20, max_codepoint=0x7E),
                              st.sampled_from(["\t", "\x80", "\xe9", "\xff"])), max_size=8)
_token = st.text(st.sampled_from(TCHAR), min_size=1, max_size=6)
_services = st.lists(st.builds(
    alpn.AltService,
    st.binary(min_size=1, max_size=12).map(lambda b: b.decode("utf-8", "surrogateescape")),
    st.builds(lambda h, p: f"{h}:{p}", st.sampled_from(["", "alt.example", "[::1]", "a-b.c"]),
              st.integers(0, 65535)),
    st.lists(st.tuples(_token, st.one_of(_token, _quotable)), max_size=3).map(tuple)),
    max_size=4)


@settings(max_examples=200, deadline=None)
@given(_services)
def test_alt_svc_round_trips(services: list[alpn.AltService]) -> None:
    value = alpn.alt_svc(services)
    assert alpn.parse_alt_svc(value) == services
