"""percent_encoding.oauth1: RFC 5849 §3.4.1, §3.4.2, §3.4.4, §3.5.1, §3.6."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    oauth1,
    schemes,
)
from percent_encoding.oauth1 import OAuth1Error

UNRESERVED = string.ascii_letters + string.digits + "-._~"

# RFC 5849 §3.4.1.1 / §3.4.1.3.1: the running example request.
EXAMPLE_URL = "http://example.com/request?b5=%3D%253D&a3=a&c%40=&a2=r%20b"
EXAMPLE_BODY = "c2&a3=2+q"
EXAMPLE_HEADER = (
    'OAuth realm="Example", oauth_consumer_key="9djdj82h48djs9d2", '
    'oauth_token="kkk9d7dh3k39sjv7", oauth_signature_method="HMAC-SHA1", '
    'oauth_timestamp="137131201", oauth_nonce="7d8f3e4a", '
    'oauth_signature="bYT5CMsGcbgUdFHObYMEfcx6bsw%3D"'
)
EXAMPLE_BASE_STRING = (
    "POST&http%3A%2F%2Fexample.com%2Frequest&a2%3Dr%2520b%26a3%3D2%2520q"
    "%26a3%3Da%26b5%3D%253D%25253D%26c%2540%3D%26c2%3D%26oauth_consumer_"
    "key%3D9djdj82h48djs9d2%26oauth_nonce%3D7d8f3e4a%26oauth_signature_m"
    "ethod%3DHMAC-SHA1%26oauth_timestamp%3D137131201%26oauth_token%3Dkkk"
    "9d7dh3k39sjv7"
)
# §3.4.1.3.2: the normalized parameters of that request.
EXAMPLE_NORMALIZED = (
    "a2=r%20b&a3=2%20q&a3=a&b5=%3D%253D&c%40=&c2=&oauth_consumer_key=9dj"
    "dj82h48djs9d2&oauth_nonce=7d8f3e4a&oauth_signature_method=HMAC-SHA1"
    "&oauth_timestamp=137131201&oauth_token=kkk9d7dh3k39sjv7"
)


# -- §3.6 encode / decode -----------------------------------------------------


def test_encode_keeps_exactly_the_unreserved_characters() -> None:
    for cp in range(128):
        ch = chr(cp)
        expected = ch if ch in UNRESERVED else f"%{cp:02X}"
        assert oauth1.encode(ch) == expected, ch


def test_encode_space_is_percent_20_and_hex_is_upper_case() -> None:
    # §3.6: not "+" for space (unlike forms), upper-case hex.
    assert oauth1.encode("Ladies + Gentlemen") == "Ladies%20%2B%20Gentlemen"
    assert oauth1.encode("\u00ff") == "%C3%BF"
    assert oauth1.encode("*") == "%2A"  # encodeURIComponent and forms leave "*"
    assert oauth1.encode("~") == "~"  # urllib.quote before 3.7 encoded "~"


def test_encode_text_as_utf8_and_bytes_as_given() -> None:
    assert oauth1.encode("\u2603") == "%E2%98%83"
    assert oauth1.encode(b"\xff\x00a") == "%FF%00a"


def test_encode_rejects_lone_surrogates_and_wrong_types() -> None:
    with pytest.raises(PercentEncodeError) as e:
        oauth1.encode("ab\ud800")
    assert e.value.position == 2
    with pytest.raises(PercentEncodingTypeError):
        oauth1.encode(12)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        oauth1.decode(None)  # type: ignore[arg-type]


def test_decode_is_strict_and_plus_is_a_plus() -> None:
    assert oauth1.decode("Ladies%20%2B%20Gentlemen") == "Ladies + Gentlemen"
    assert oauth1.decode("a+b") == "a+b"
    assert oauth1.decode("%e2%98%83") == "\u2603"  # lower-case hex is read
    with pytest.raises(PercentDecodeError) as e:
        oauth1.decode("ab%2")
    assert e.value.position == 2
    with pytest.raises(PercentDecodeError) as e:
        oauth1.decode("a%zz%20")
    assert e.value.position == 1
    with pytest.raises(TextDecodeError):
        oauth1.decode("%FF")


def test_decode_bytes_keeps_binary_values() -> None:
    assert oauth1.decode_bytes("%FF%00a") == b"\xff\x00a"
    with pytest.raises(PercentDecodeError):
        oauth1.decode_bytes("%")


@settings(max_examples=200)
@given(st.text())
def test_round_trip_text(s: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return
    enc = oauth1.encode(s)
    assert set(enc) <= set(UNRESERVED + "%0123456789ABCDEF")
    assert oauth1.decode(enc) == s


@settings(max_examples=200)
@given(st.binary())
def test_round_trip_bytes(b: bytes) -> None:
    enc = oauth1.encode(b)
    assert oauth1.decode_bytes(enc) == b
    assert all(h == h.upper() for h in re.findall("%(..)", enc))
    assert all(c in UNRESERVED for c in re.sub("%..", "", enc))


# -- §3.4.1.3.2 normalization ---------------------------------------------------


def test_normalize_parameters_rfc_example() -> None:
    pairs = [
        ("b5", "=%3D"), ("a3", "a"), ("c@", ""), ("a2", "r b"),
        ("oauth_consumer_key", "9djdj82h48djs9d2"), ("oauth_token", "kkk9d7dh3k39sjv7"),
        ("oauth_signature_method", "HMAC-SHA1"), ("oauth_timestamp", "137131201"),
        ("oauth_nonce", "7d8f3e4a"), ("c2", ""), ("a3", "2 q"),
    ]
    assert oauth1.normalize_parameters(pairs) == EXAMPLE_NORMALIZED


def test_normalize_sorts_by_encoded_bytes() -> None:
    # Raw "é" sorts after "Z", but its encoding "%C3%A9" sorts before it.
    assert oauth1.normalize_parameters([("Z", "1"), ("é", "2"), ("a", "3")]) == (
        "%C3%A9=2&Z=1&a=3"
    )
    # Same name: by encoded value ("%20" < "0" < "A" < "a").
    assert oauth1.normalize_parameters([("n", "a"), ("n", "A"), ("n", "0"), ("n", " ")]) == (
        "n=%20&n=0&n=A&n=a"
    )


def test_normalize_accepts_mappings_and_bytes() -> None:
    assert oauth1.normalize_parameters({"b": "2", "a": "1"}) == "a=1&b=2"
    assert oauth1.normalize_parameters([(b"k", b"\xff")]) == "k=%FF"
    with pytest.raises(PercentEncodingTypeError):
        oauth1.normalize_parameters("a=1")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        oauth1.normalize_parameters([("a", 1)])  # type: ignore[list-item]
    with pytest.raises(PercentEncodingTypeError):
        oauth1.normalize_parameters([("a", "b", "c")])  # type: ignore[list-item]


# -- §3.4.1.2 base string URI ----------------------------------------------------


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        # The two examples of §3.4.1.2.
        ("http://EXAMPLE.COM:80/r%20v/X?id=123", "http://example.com/r%20v/X"),
        ("https://www.example.net:8080/?q=1", "https://www.example.net:8080/"),
        ("HTTPS://Example.COM:443", "https://example.com/"),
        ("http://example.com:443/", "http://example.com:443/"),
        ("https://example.com:80/", "https://example.com:80/"),
        ("http://user:pw@example.com/p#frag", "http://example.com/p"),
        ("http://example.com:/p", "http://example.com/p"),
        ("http://[::1]:8080/P/Q", "http://[::1]:8080/P/Q"),
        ("http://[2001:DB8::1]/", "http://[2001:db8::1]/"),
        ("http://example.com?x", "http://example.com/"),
    ],
)
def test_base_string_uri(url: str, expected: str) -> None:
    assert oauth1.base_string_uri(url) == expected


@pytest.mark.parametrize(
    "url", ["/request?a=1", "example.com/x", "http:/x", "http:///path", "http://h:8x/", "mailto:x"]
)
def test_base_string_uri_rejects(url: str) -> None:
    with pytest.raises(OAuth1Error):
        oauth1.base_string_uri(url)


# -- §3.4.1.1 signature base string ---------------------------------------------


def test_signature_base_string_rfc_example_exactly() -> None:
    params = oauth1.parse_authorization_header(EXAMPLE_HEADER)
    got = oauth1.signature_base_string("POST", EXAMPLE_URL, body=EXAMPLE_BODY, oauth_params=params)
    assert got == EXAMPLE_BASE_STRING


def test_signature_base_string_body_forms_agree() -> None:
    params = oauth1.parse_authorization_header(EXAMPLE_HEADER)
    as_bytes = oauth1.signature_base_string(
        "post", EXAMPLE_URL, body=EXAMPLE_BODY.encode(), oauth_params=params
    )
    as_pairs = oauth1.signature_base_string(
        "post", EXAMPLE_URL, body=[("c2", ""), ("a3", "2 q")], oauth_params=dict(params)
    )
    assert as_bytes == as_pairs == EXAMPLE_BASE_STRING


def test_signature_base_string_excludes_signature_everywhere_and_header_realm_only() -> None:
    got = oauth1.signature_base_string(
        "GET",
        "http://h/?oauth_signature=x&realm=q",
        body="oauth_signature=y",
        oauth_params=[("realm", "R"), ("oauth_signature", "z"), ("oauth_nonce", "n")],
    )
    # A query parameter called realm is an ordinary parameter; the header's is not.
    assert got == "GET&http%3A%2F%2Fh%2F&oauth_nonce%3Dn%26realm%3Dq"


def test_signature_base_string_keeps_octets_and_custom_methods() -> None:
    # %FF is not UTF-8: it is signed as the octet that was sent, not as U+FFFD.
    got = oauth1.signature_base_string("m-search", "http://h/p?k=%FF+%41")
    assert got == "M-SEARCH&http%3A%2F%2Fh%2Fp&k%3D%25FF%2520A"
    # A custom method with reserved characters is encoded (§3.4.1.1 item 1).
    assert oauth1.signature_base_string("a b", "http://h/").startswith("A%20B&")


def test_signature_base_string_errors() -> None:
    with pytest.raises(OAuth1Error):
        oauth1.signature_base_string("", "http://h/")
    with pytest.raises(OAuth1Error):
        oauth1.signature_base_string("GET", "/relative")
    with pytest.raises(PercentEncodingTypeError):
        oauth1.signature_base_string(b"GET", "http://h/")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        oauth1.signature_base_string("GET", "http://h/", body=5)  # type: ignore[arg-type]


# -- §3.4.2 HMAC-SHA1 and §3.4.4 PLAINTEXT -----------------------------------------


def test_hmac_sha1_rfc_example_with_erratum_2550() -> None:
    # The RFC prints bYT5CMsGcbgUdFHObYMEfcx6bsw= for this request; verified
    # erratum 2550 corrects it to the value below.
    sig = oauth1.hmac_sha1_signature(EXAMPLE_BASE_STRING, "j49sk3j29djd", "dh893hdasih9")
    assert sig == "r6/TJjbCOr97/+UU0NsvSne7s5g="


@pytest.mark.parametrize(
    ("method", "url", "header", "token_secret"),
    [
        # RFC 5849 §1.2, the three signed requests of the walk-through.
        (
            "POST",
            "https://photos.example.net/initiate",
            'OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03", '
            'oauth_signature_method="HMAC-SHA1", oauth_timestamp="137131200", '
            'oauth_nonce="wIjqoS", oauth_callback="http%3A%2F%2Fprinter.example.com%2Fready", '
            'oauth_signature="74KNZJeDHnMBp0EMJ9ZHt%2FXKycU%3D"',
            "",
        ),
        (
            "POST",
            "https://photos.example.net/token",
            'OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03", '
            'oauth_token="hh5s93j4hdidpola", oauth_signature_method="HMAC-SHA1", '
            'oauth_timestamp="137131201", oauth_nonce="walatlh", '
            'oauth_verifier="hfdp7dh39dks9884", oauth_signature="gKgrFCywp7rO0OXSjdot%2FIHF7IU%3D"',
            "hdhd0244k9j7ao03",
        ),
        (
            "GET",
            "http://photos.example.net/photos?file=vacation.jpg&size=original",
            'OAuth realm="Photos", oauth_consumer_key="dpf43f3p2l4k3l03", '
            'oauth_token="nnch734d00sl2jdk", oauth_signature_method="HMAC-SHA1", '
            'oauth_timestamp="137131202", oauth_nonce="chapoH", '
            'oauth_signature="MdpQcU8iPSUjWoN%2FUDMsK2sui9I%3D"',
            "pfkkdhi9sl3r4s00",
        ),
    ],
)
def test_rfc_walkthrough_signatures(method: str, url: str, header: str, token_secret: str) -> None:
    params = oauth1.parse_authorization_header(header)
    base = oauth1.signature_base_string(method, url, oauth_params=params)
    assert oauth1.hmac_sha1_signature(base, "kd94hf93k423kf44", token_secret) == dict(params)[
        "oauth_signature"
    ]


def test_hmac_key_encodes_secrets() -> None:
    # The key is encode(consumer) & encode(token); "&" inside a secret is escaped.
    assert oauth1.plaintext_signature("a&b", "c d") == "a%26b&c%20d"
    assert oauth1.plaintext_signature("ja893SD9") == "ja893SD9&"  # §2.1 example
    assert oauth1.hmac_sha1_signature("x", "a&b") != oauth1.hmac_sha1_signature("x", "a", "b")


# -- §3.5.1 Authorization header ------------------------------------------------------


def test_authorization_header_format() -> None:
    h = oauth1.authorization_header(
        [
            ("oauth_consumer_key", "0685bd9184jfhq22"),
            ("oauth_signature", "wOJIO9A2W5mFwDgiDvZbTSMK/PY="),
        ],
        realm='Ex "a" \\ b',
    )
    assert h == (
        'OAuth realm="Ex \\"a\\" \\\\ b", oauth_consumer_key="0685bd9184jfhq22", '
        'oauth_signature="wOJIO9A2W5mFwDgiDvZbTSMK%2FPY%3D"'
    )
    assert oauth1.authorization_header([]) == "OAuth"


def test_authorization_header_refuses_header_injection() -> None:
    with pytest.raises(OAuth1Error) as e:
        oauth1.authorization_header([], realm="a\r\nX-Evil: 1")
    assert e.value.position == 1
    # Values are always §3.6-encoded, so CR/LF there are harmless.
    assert "%0D%0A" in oauth1.authorization_header([("oauth_token", "a\r\nb")])
    with pytest.raises(OAuth1Error):
        oauth1.authorization_header([("realm", "x")], realm="y")
    # A realm pair (any case) is the realm, written first and unencoded.
    assert oauth1.authorization_header([("a", "1"), ("Realm", "r r")]) == 'OAuth realm="r r", a="1"'



def test_parse_rfc_3_5_1_example() -> None:
    header = (
        'OAuth realm="Example",\r\n   oauth_consumer_key="0685bd9184jfhq22",'
        '\toauth_token="ad180jjd733klru7",oauth_signature_method="HMAC-SHA1",'
        ' oauth_signature="wOJIO9A2W5mFwDgiDvZbTSMK%2FPY%3D", oauth_timestamp="137131200",'
        ' oauth_nonce="4572616e48616d6d65724c61686176", oauth_version="1.0"'
    ).replace("\r\n", "")  # after unfolding
    assert oauth1.parse_authorization_header(header) == [
        ("realm", "Example"),
        ("oauth_consumer_key", "0685bd9184jfhq22"),
        ("oauth_token", "ad180jjd733klru7"),
        ("oauth_signature_method", "HMAC-SHA1"),
        ("oauth_signature", "wOJIO9A2W5mFwDgiDvZbTSMK/PY="),
        ("oauth_timestamp", "137131200"),
        ("oauth_nonce", "4572616e48616d6d65724c61686176"),
        ("oauth_version", "1.0"),
    ]


def test_parse_is_lenient_where_http_is() -> None:
    # Case-insensitive scheme, token values, empty list elements, realm unescaped.
    got = oauth1.parse_authorization_header('oauth   , realm="a\\"b" ,, oauth_nonce=abc%2B ,')
    assert got == [("realm", 'a"b'), ("oauth_nonce", "abc+")]
    assert oauth1.parse_authorization_header("OAuth") == []


@pytest.mark.parametrize(
    ("header", "position"),
    [
        ('Basic realm="x"', 0),
        ('OAuthx a="1"', 0),
        ('OAuth a="1" b="2"', 12),
        ('OAuth a', 7),
        ('OAuth a=', 8),
        ('OAuth a="1', 8),
        ('OAuth a="1", a="2"', 13),
        ('OAuth a="x%2"', 10),
        ('OAuth a="ok", b="%zz"', 17),
        ('OAuth ="1"', 6),
    ],
)
def test_parse_errors_have_positions(header: str, position: int) -> None:
    with pytest.raises(OAuth1Error) as e:
        oauth1.parse_authorization_header(header)
    assert e.value.position == position
    assert isinstance(e.value, PercentEncodingError)


def test_parse_type_error() -> None:
    with pytest.raises(PercentEncodingTypeError):
        oauth1.parse_authorization_header(b"OAuth")  # type: ignore[arg-type]


_names = st.text(alphabet=st.characters(codec="utf-8"), min_size=1).filter(
    lambda n: n.lower() != "realm"
)


@settings(max_examples=100)
@given(
    st.lists(st.tuples(_names, st.text(alphabet=st.characters(codec="utf-8"))),
             unique_by=lambda p: p[0]),
    st.one_of(st.none(), st.text(alphabet=st.characters(min_codepoint=0x20, max_codepoint=0x7E))),
)
def test_header_round_trip(pairs: list[tuple[str, str]], realm: str | None) -> None:
    header = oauth1.authorization_header(pairs, realm=realm)
    expected = ([("realm", realm)] if realm is not None else []) + pairs
    assert oauth1.parse_authorization_header(header) == expected


def test_registered_scheme() -> None:
    s = schemes.get("oauth1")
    assert schemes.get("rfc5849") is s
    assert s.encode("a b*") == "a%20b%2A"
    assert s.decode is not None and s.decode("a%20b%2A") == "a b*"
    assert s.encode_pairs is not None and s.encode_pairs([("b", "1"), ("a", "2")]) == "a=2&b=1"


@settings(max_examples=200)
@given(st.one_of(st.text(alphabet=st.characters(codec="utf-8")), st.binary()))
def test_encode_agrees_with_urllib_quote(value: str | bytes) -> None:
    # Since Python 3.7, quote(safe="") keeps exactly the RFC 3986 unreserved
    # characters and writes upper-case hex: the §3.6 rule.
    import urllib.parse

    assert oauth1.encode(value) == urllib.parse.quote(value, safe="")


def test_hmac_sha1_lone_surrogate_in_base_string() -> None:
    # Regression (robustness fuzz): a UnicodeEncodeError escaped; now it is a
    # PercentEncodeError with the position, as plaintext_signature gives for secrets.
    with pytest.raises(PercentEncodeError) as ei:
        oauth1.hmac_sha1_signature("\ud800", "k")
    assert ei.value.position == 0
    with pytest.raises(PercentEncodeError) as ei:
        oauth1.hmac_sha1_signature("GET&ab\udfff", "k", "t")
    assert ei.value.position == 6
    with pytest.raises(PercentEncodeError) as ei:
        oauth1.plaintext_signature("\ud800")
    assert ei.value.position == 0


@pytest.mark.parametrize(
    "url,expected",
    [
        # What the request line carries: raw space and non-ASCII encoded, IDNA host.
        ("http://EXAMPLE.com:80/a b/ü", "http://example.com/a%20b/%C3%BC"),
        ("https://Bücher.example:443/x?q", "https://xn--bcher-kva.example/x"),
        ("http://user:pw@h.example:8080/a/./b/../c#f", "http://h.example:8080/a/c"),
        ("http://[::FFFF:1.2.3.4]/", "http://[::ffff:102:304]/"),
    ],
)
def test_base_string_uri_as_sent(url: str, expected: str) -> None:
    assert oauth1.base_string_uri(url) == expected


# RFC 9112 §5.2 obs-fold and the RFC 5849 §3.5.1 / RFC 9110 §11.4 grammar.
@pytest.mark.one_impl
@pytest.mark.parametrize(
    "header",
    [
        'OAuth realm="Example",\r\n oauth_token="t%20x", oauth_nonce="n"',
        'OAuth realm="Example",\r\n\toauth_token="t%20x",\r\n   oauth_nonce="n"',
        'OAuth realm="Example",\n oauth_token="t%20x", oauth_nonce="n"',
        'OAuth\r\n realm="Example" , oauth_token = "t%20x" ,oauth_nonce= "n"',
        'OAuth realm="Example", oauth_token="t%20x",\r\n oauth_nonce="n"\r\n ',
    ],
)
def test_parse_authorization_header_obs_fold_and_ows(header: str) -> None:
    assert oauth1.parse_authorization_header(header) == [
        ("realm", "Example"),
        ("oauth_token", "t x"),
        ("oauth_nonce", "n"),
    ]


@pytest.mark.one_impl
@pytest.mark.parametrize(
    ("header", "position"),
    [
        # A line break not followed by SP/HTAB is not a fold: the field ended.
        ('OAuth a="b",\r\nc="d"', 12),
        ('OAuth a="b"\r\n, c="d"', 11),
        # realm is case-insensitive, so this is the same parameter twice.
        ('OAuth realm="a", Realm="b"', 17),
        ('OAuth oauth_token="a",\r\n oauth_token="b"', 25),
    ],
)
def test_parse_authorization_header_rejects(header: str, position: int) -> None:
    with pytest.raises(oauth1.OAuth1Error) as e:
        oauth1.parse_authorization_header(header)
    assert e.value.position == position


_OCTETS = st.binary(max_size=6) | st.sampled_from([b"&", b"=", b"\x00", b"\n", b"&=\x00\n", b"%26"])


@given(st.lists(st.tuples(_OCTETS, _OCTETS), max_size=8))
def test_normalize_parameters_equals_per_item_encoding(pairs: list[tuple[bytes, bytes]]) -> None:
    # normalize_parameters encodes all names (and all values) in one kernel call joined
    # by an octet none of them holds; every joint choice, and the fallback, must give the
    # §3.4.1.3.2 string built item by item.
    want = "&".join(f"{n}={v}" for n, v in sorted(
        (oauth1.encode(n), oauth1.encode(v)) for n, v in pairs))
    assert oauth1.normalize_parameters(pairs) == want


def test_signature_base_string_query_not_parsed_and_positions_in_the_url() -> None:
    # The base string URI keeps scheme, host and path only; the query is parsed as a form.
    # A space before "?" stays in the path (the "?" keeps the input's end for stripping).
    assert oauth1.base_string_uri("http://a.example/p ?q") == "http://a.example/p%20"
    assert oauth1.base_string_uri("http://a.example/p#x?y") == "http://a.example/p"
    assert oauth1.base_string_uri("http://a.example/p?x#y ") == "http://a.example/p"
    url = "http://a.example/p?a=b&c=\ud800"
    with pytest.raises(OAuth1Error) as e:
        oauth1.signature_base_string("GET", url)
    assert e.value.position == url.index("\ud800")
    assert f"position {url.index(chr(0xD800))}" in str(e.value)


# -- §3.1: the oauth_ prefix is reserved -------------------------------------------


@pytest.mark.parametrize(("url", "body", "name", "where"), [
    ("http://example.com/?oauth_foo=1", None, "oauth_foo", "query"),
    ("http://example.com/?a=1&oauth%5Fbody_hash=x", None, "oauth_body_hash", "query"),
    ("http://example.com/", "a=1&oauth_extra=2", "oauth_extra", "body"),
    ("http://example.com/", b"oauth_x+y=2", "oauth_x y", "body"),
    ("http://example.com/", [("oauth_z", "1")], "oauth_z", "body"),
    ("http://example.com/", "oauth_token_secret=s", "oauth_token_secret", "body"),
])
def test_signature_base_string_refuses_reserved_names(url: str, body: object, name: str,
                                                      where: str) -> None:
    with pytest.raises(oauth1.ReservedParameterError) as e:
        oauth1.signature_base_string("POST", url, body=body)  # type: ignore[arg-type]
    assert isinstance(e.value, OAuth1Error) and isinstance(e.value, PercentEncodingError)
    assert e.value.name == name and "§3.1" in str(e.value) and where in str(e.value)
    if name == "oauth_token_secret":
        assert "response parameter" in str(e.value)


def test_signature_base_string_takes_protocol_parameters_in_query_and_body() -> None:
    # §3.5.2 and §3.5.3: the protocol parameters may travel in the body or the query.
    q = "&".join(f"{n}=v" for n in sorted(oauth1.PROTOCOL_PARAMETERS))
    got = oauth1.signature_base_string("POST", "http://example.com/?" + q, body=q)
    assert got.count("oauth_nonce%3Dv") == 2 and "oauth_signature%3D" not in got
    # names are case sensitive (§3.1): OAuth_x is not in the reserved space
    assert "OAuth_x%3D1" in oauth1.signature_base_string("GET", "http://example.com/?OAuth_x=1")
    # the header's own parameters are not checked here (oauth_params)
    assert "oauth_foo" in oauth1.signature_base_string("GET", "http://e.com/",
                                                       oauth_params=[("oauth_foo", "1")])
    assert oauth1.PROTOCOL_PARAMETERS >= {"oauth_callback", "oauth_verifier", "oauth_version"}
    assert oauth1.RESPONSE_PARAMETERS == {"oauth_token", "oauth_token_secret",
                                          "oauth_callback_confirmed"}
