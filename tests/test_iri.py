"""Tests for percent_encoding.iri (RFC 3987)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding
from percent_encoding import iri, rfc3986, schemes, xpath
from percent_encoding.errors import PercentEncodeError, PercentEncodingTypeError
from percent_encoding.iri import iri_to_uri, is_bidi_formatting, uri_to_iri

ROOT = Path(__file__).resolve().parents[1]

UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
RESERVED = ":/?#[]@!$&'()*+,;="
BIDI = ["\u200e", "\u200f", "\u202a", "\u202b", "\u202c", "\u202d", "\u202e"]


def in_ucschar(cp: int) -> bool:
    """RFC 3987 §2.2 ucschar, range by range."""
    ranges = [(0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF)]
    ranges += [(p << 16, (p << 16) + 0xFFFD) for p in range(1, 14)]
    ranges += [(0xE1000, 0xEFFFD)]
    return any(lo <= cp <= hi for lo, hi in ranges)


def in_iprivate(cp: int) -> bool:
    return 0xE000 <= cp <= 0xF8FF or 0xF0000 <= cp <= 0xFFFFD or 0x100000 <= cp <= 0x10FFFD


# ---------------------------------------------------------------------------
# §3.1 IRI -> URI
# ---------------------------------------------------------------------------
def test_iri_to_uri_rfc_examples() -> None:
    # §3.1 notes: existing escapes and allowed characters are not encoded further
    assert (
        iri_to_uri("http://www.example.org/red%09ros\u00e9#red")
        == "http://www.example.org/red%09ros%C3%A9#red"
    )
    # §3.1: characters outside the BMP
    assert (
        iri_to_uri("http://example.com/\U00010300\U00010301\U00010302")
        == "http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82"
    )
    # §3.1: the ireg-name may be percent-encoded (instead of ToASCII)
    assert iri_to_uri("http://r\u00e9sum\u00e9.example.org") == (
        "http://r%C3%A9sum%C3%A9.example.org"
    )
    # §3.1 note on the validator example
    assert (
        iri_to_uri("http://validator.w3.org/check?uri=http%3A%2F%2Fr\u00e9sum\u00e9.example.org")
        == "http://validator.w3.org/check?uri=http%3A%2F%2Fr%C3%A9sum%C3%A9.example.org"
    )
    # §6.4
    assert iri_to_uri("http://www.example.org/r\u00e9sum\u00e9.html") == (
        "http://www.example.org/r%C3%A9sum%C3%A9.html"
    )


def test_iri_to_uri_ascii_rules() -> None:
    # §3.1: the printable ASCII a URI cannot hold are converted ...
    assert iri_to_uri('a b<>"{}|\\^`') == "a%20b%3C%3E%22%7B%7D%7C%5C%5E%60"
    # ... "#", "%", "[" and "]" must not be
    assert iri_to_uri("http://[::1]/a%zz#f#g%") == "http://[::1]/a%zz#f#g%"
    # controls and DEL cannot be in a URI either
    assert iri_to_uri("\x00\x1f\x7f") == "%00%1F%7F"
    for cp in range(128):
        ch = chr(cp)
        out = iri_to_uri(ch)
        if ch in UNRESERVED or ch in RESERVED or ch == "%":
            assert out == ch
        else:
            assert out == f"%{cp:02X}"


def test_iri_to_uri_all_non_ascii_encoded() -> None:
    for cp in [0x80, 0x9F, 0xA0, 0xFDD0, 0xFFFE, 0xE000, 0x10FFFF, 0x202E]:
        assert iri_to_uri(chr(cp)) == "".join(f"%{b:02X}" for b in chr(cp).encode())


def test_iri_to_uri_identity_on_uris_and_same_object() -> None:
    s = "http://example.com/a%20b?x=%2F#frag"
    assert iri_to_uri(s) is s


def test_iri_to_uri_strict() -> None:
    assert iri_to_uri("http://example.com/\u00e9?\ue000", strict=True) == (
        "http://example.com/%C3%A9?%EE%80%80"
    )
    cases = {
        "http://a/b c": 10,
        "http://a/\u202eabc": 9,
        "http://a/\x7f": 9,
        "http://a/\ufdd0": 9,
        "http://a/\U0001fffe": 9,
        "http://a/\ue000?x": 9,  # iprivate outside the query
        "http://a/?x#\ue000": 12,  # ... and in the fragment
        "http://\ue000/": 7,
        "\ue000:x": 0,
    }
    for text, pos in cases.items():
        with pytest.raises(PercentEncodeError) as e:
            iri_to_uri(text, strict=True)
        assert e.value.position == pos, text
        assert iri_to_uri(text).isascii()  # not strict: encoded instead


def test_iri_to_uri_errors() -> None:
    with pytest.raises(PercentEncodeError) as e:
        iri_to_uri("ab\ud800")
    assert e.value.position == 2
    for bad in (b"http://a/", None, 3):
        with pytest.raises(PercentEncodingTypeError):
            iri_to_uri(bad)  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingTypeError):
            uri_to_iri(bad)  # type: ignore[arg-type]


@given(st.text())
@settings(max_examples=200)
def test_iri_to_uri_ascii_idempotent_and_like_xpath(s: str) -> None:
    u = iri_to_uri(s)
    assert u.isascii()
    assert iri_to_uri(u) == u
    # F&O 3.1 fn:iri-to-uri is the same mapping (§6.3 vs RFC 3987 §3.1)
    assert xpath.iri_to_uri(s) == u


# ---------------------------------------------------------------------------
# §3.2 URI -> IRI
# ---------------------------------------------------------------------------
def test_uri_to_iri_rfc_examples() -> None:
    # §3.2.1 example 1: strictly legal UTF-8 is decoded
    assert uri_to_iri("http://www.example.org/D%C3%BCrst") == "http://www.example.org/D\u00fcrst"
    # example 2: not UTF-8, stays
    assert uri_to_iri("http://www.example.org/D%FCrst") == "http://www.example.org/D%FCrst"
    # example 3: RLO is not allowed (§4.1); re-encoded with upper-case hex;
    # the punycode label is not converted
    assert (
        uri_to_iri("http://xn--99zt52a.example.org/%e2%80%ae")
        == "http://xn--99zt52a.example.org/%E2%80%AE"
    )
    # §3.2: must not guess another encoding
    assert uri_to_iri("http://www.example.org/r%E9sum%E9.html") == (
        "http://www.example.org/r%E9sum%E9.html"
    )
    # §6.4: mixed encodings in one URI
    assert uri_to_iri("http://www.example.org/r%E9sum%E9.xml#r%C3%A9sum%C3%A9") == (
        "http://www.example.org/r%E9sum%E9.xml#r\u00e9sum\u00e9"
    )


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        # step 2: unreserved ASCII is decoded; "%", reserved and disallowed ASCII are not,
        # and keep their spelling
        ("/%41%7e%2d%2E%5f", "/A~-._"),
        (
            "/%25%2f%2F%3f%23%5B%5d%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%3A",
            "/%25%2f%2F%3f%23%5B%5d%40%21%24%26%27%28%29%2A%2B%2C%3B%3D%3A",
        ),
        ("/%20%3C%3e%22%7B%7D%7C%5C%5E%60%00%7F", "/%20%3C%3e%22%7B%7D%7C%5C%5E%60%00%7F"),
        # step 3: octets outside strictly legal UTF-8 (overlong, surrogate, truncated, > U+10FFFF)
        ("/%C0%AF", "/%C0%AF"),
        ("/%ed%a0%80", "/%ED%A0%80"),
        ("/%E2%82", "/%E2%82"),
        ("/%F4%90%80%80", "/%F4%90%80%80"),
        ("/%e2%82%ac%e2", "/\u20ac%E2"),
        ("/%C3%A9%zz%C3", "/\u00e9%zz%C3"),
        # step 4: not ucschar (C1 controls, non-characters), bidi formatting (§4.1)
        (
            "/%C2%80%C2%9F%EF%B7%90%EF%BF%BE%F0%9F%BF%BF",
            "/%C2%80%C2%9F%EF%B7%90%EF%BF%BE%F0%9F%BF%BF",
        ),
        (
            "/%E2%80%8E%E2%80%8F%E2%80%AA%E2%80%AB%E2%80%AC%E2%80%AD",
            "/%E2%80%8E%E2%80%8F%E2%80%AA%E2%80%AB%E2%80%AC%E2%80%AD",
        ),
        ("/%E2%81%A6%D8%9C", "/%E2%81%A6%D8%9C"),  # isolates and ALM (after 2005)
        # non-ASCII spaces are ucschar and are decoded; ASCII space is not
        ("/%C2%A0%20", "/\u00a0%20"),
        # iprivate: only in the query
        ("/%EE%80%80?%EE%80%80#%EE%80%80", "/%EE%80%80?\ue000#%EE%80%80"),
        # components: scheme and IP-literal untouched; userinfo and reg-name decoded
        ("http://%C3%A9@%C3%A9x%41:80/", "http://\u00e9@\u00e9xA:80/"),
        ("http://[fe80::1%25en%30]/", "http://[fe80::1%25en%30]/"),
        ("x%41:y", "x%41:y"),
        # already an IRI: non-ASCII left as it is
        ("/\u00fc%C3%BC", "/\u00fc\u00fc"),
        ("%", "%"),
        ("", ""),
    ],
)
def test_uri_to_iri(uri: str, expected: str) -> None:
    assert uri_to_iri(uri) == expected


# A "%" that starts no valid escape stands for itself: "%1%41" is the characters "%1A".
# Decoding "%41" there would give "%1A", the octet 0x1A, a different URI (§3.2 must not
# change what the URI identifies).
@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("%1%41", "%1%41"),
        ("%4%41", "%4%41"),
        ("http://a/%1%41", "http://a/%1%41"),
        ("http://a/?%1%61#%F%30", "http://a/?%1%61#%F%30"),
        ("http://u%1%41@%1%41/", "http://u%1%41@%1%41/"),
        ("%%4141", "%%4141"),
        ("%%41%42", "%%41B"),  # only the first escape of the run could complete the "%"
        ("%1%67", "%1g"),  # "g" is no hex digit
        ("%1%C3%A9", "%1\u00e9"),  # non-ASCII never completes an escape
        ("%zz%41", "%zzA"),
    ],
)
def test_uri_to_iri_stray_percent_does_not_fuse(uri: str, expected: str) -> None:
    out = uri_to_iri(uri)
    assert out == expected
    assert percent_encoding.decode(out) == percent_encoding.decode(uri)


URI_PIECES = [
    "%", "%%", "%1", "%4", "%a", "%zz", "%25", "%41", "%61", "%30", "%46", "%67", "%7e",
    "%2F", "%c3%a9", "%C3", "%E2%80%AE", "%ff", "%EE%80%80", "1", "4", "a", "f", "F", "g",
    "/", "?", "#", "@", ":", "\u00e9", " ",
]


@given(st.lists(st.sampled_from(URI_PIECES), max_size=12).map("".join))
@settings(max_examples=300)
def test_uri_to_iri_keeps_the_decoded_octets(s: str) -> None:
    # §3.2: converting to an IRI never changes the octets the string percent-decodes to
    out = uri_to_iri(s)
    assert percent_encoding.decode(out) == percent_encoding.decode(s)
    assert uri_to_iri(out) == out


def test_uri_to_iri_same_object_when_nothing_decodes() -> None:
    s = "http://a/%2F%20"
    assert uri_to_iri(s) is s
    t = "http://a/b"
    assert uri_to_iri(t) is t


def test_uri_to_iri_linear_on_long_input() -> None:
    s = "/" + "%E2%82%AC" * 100_000 + "%FF" * 100_000
    out = uri_to_iri(s)
    assert out == "/" + "\u20ac" * 100_000 + "%FF" * 100_000


def _iri_segment_chars() -> st.SearchStrategy[str]:
    # iunreserved without bidi controls, plus sub-delims, ":" and "@" (ipchar minus escapes)
    def ok(c: str) -> bool:
        cp = ord(c)
        return (
            c in UNRESERVED
            or c in "!$&'()*+,;=:@"
            or (in_ucschar(cp) and not is_bidi_formatting(c))
        )

    return st.characters(min_codepoint=0x21, max_codepoint=0x10FFFF).filter(ok)


@given(
    st.lists(st.text(_iri_segment_chars(), max_size=8), max_size=4), st.text(_iri_segment_chars())
)
@settings(max_examples=150)
def test_round_trip_iri_uri_iri(segments: list[str], query: str) -> None:
    iri_text = "http://example.org/" + "/".join(segments) + "?" + query
    uri = iri_to_uri(iri_text)
    assert uri.isascii()
    assert uri_to_iri(uri) == iri_text


@given(st.text())
@settings(max_examples=200)
def test_uri_to_iri_maps_back(s: str) -> None:
    # §3.2: the IRI maps back to the URI, up to hex case and decoded unreserved
    uri = rfc3986.requote(s)
    back = iri_to_uri(uri_to_iri(uri))
    assert rfc3986.normalize(back) == rfc3986.normalize(uri)
    assert uri_to_iri(uri_to_iri(uri)) == uri_to_iri(uri)


def test_bidi_helper() -> None:
    assert all(is_bidi_formatting(c) for c in BIDI)
    assert not is_bidi_formatting("a") and not is_bidi_formatting("\u05d0")
    assert not is_bidi_formatting("ab") and not is_bidi_formatting("")
    for bad in (None, 0x202E, b"\xe2\x80\xae", ["\u202e"]):
        with pytest.raises(PercentEncodingTypeError):
            is_bidi_formatting(bad)  # type: ignore[arg-type]


def test_iri_equivalence_example() -> None:
    # RFC 3987 §5.3.2: compare by mapping to URIs, then RFC 3986 normalization
    a = "example://a/b/c/%7Bfoo%7D/ros\u00e9"
    b = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d/ros%C3%A9"
    assert rfc3986.equivalent(iri_to_uri(a), iri_to_uri(b))


def test_scheme_registered() -> None:
    s = schemes.get("iri-to-uri")
    assert s.encode("http://a/\u00e9 x") == "http://a/%C3%A9%20x"
    assert s.decode is not None and s.decode("http://a/%C3%A9%20x") == "http://a/\u00e9%20x"
    assert s in iri.SCHEMES and s.family == "RFC 3987 (IRI)"


def test_docs_examples_run() -> None:
    doc = ROOT / "docs" / "iri.md"
    result = doctest.testfile(str(doc), module_relative=False)
    assert result.failed == 0 and result.attempted > 5


def test_module_doctests() -> None:
    assert doctest.testmod(iri).failed == 0


def test_iri_hosts_options() -> None:
    from percent_encoding.errors import IDNAError
    from percent_encoding.iri import iri_to_uri, uri_to_iri

    iri = "http://r\u00e9sum\u00e9.example.org/r\u00e9"
    assert iri_to_uri(iri) == "http://r%C3%A9sum%C3%A9.example.org/r%C3%A9"
    uri = iri_to_uri(iri, hosts="idna")
    assert uri == "http://xn--rsum-bpad.example.org/r%C3%A9"
    assert uri_to_iri(uri) == "http://xn--rsum-bpad.example.org/ré"
    assert uri_to_iri(uri, hosts="unicode") == iri
    assert uri_to_iri("http://u@XN--RSUM-BPAD.Example:80/", hosts="unicode") == \
        "http://u@résumé.Example:80/"
    # A name UTS #46 rejects keeps its labels; a bidi control is never shown.
    assert uri_to_iri("http://xn--8i7caa/", hosts="unicode") == "http://xn--8i7caa/"
    assert uri_to_iri("http://[::1]/", hosts="unicode") == "http://[::1]/"
    with pytest.raises(IDNAError):
        iri_to_uri("http://a\u200cb.example/", hosts="idna")
    # escapes in the host: UTF-8 ones are decoded first; others leave it to percent-encoding
    assert iri_to_uri("http://r%C3%A9\u00e9.example/", hosts="idna") == "http://xn--r-bgaa.example/"
    assert iri_to_uri("http://r%E9\u00e9.example/", hosts="idna") == "http://r%E9%C3%A9.example/"
    assert iri_to_uri("http://r%zz\u00e9.example/", hosts="idna") == "http://r%zz%C3%A9.example/"
    with pytest.raises(ValueError):
        iri_to_uri(iri, hosts="unicode")
    with pytest.raises(ValueError):
        uri_to_iri(uri, hosts="idna")
