"""Tests for percent_encoding.rfc3986 (RFC 3986)."""

from __future__ import annotations

import doctest
import ipaddress
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding
from percent_encoding import rfc3986, schemes
from percent_encoding.errors import (
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    UnknownSetError,
)
from percent_encoding.rfc3986 import (
    Components,
    encode,
    equivalent,
    normalize,
    normalize_percent_encoding,
    recompose,
    remove_dot_segments,
    requote,
    split,
    split_authority,
)
from percent_encoding.rfc3986 import _components as _uri_components
from percent_encoding.rfc3986 import _normalize as _uri_normalize
from percent_encoding.rfc3986 import _resolve as _uri_resolve

ROOT = Path(__file__).resolve().parents[1]

# ---------------------------------------------------------------------------
# An independent reading of the ABNF (RFC 3986 §2, §3, Appendix A)
# ---------------------------------------------------------------------------
ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGIT = "0123456789"
UNRESERVED = ALPHA + DIGIT + "-._~"
GEN_DELIMS = ":/?#[]@"
SUB_DELIMS = "!$&'()*+,;="
PCHAR = UNRESERVED + SUB_DELIMS + ":@"
ALLOWED = {
    "path-segment": PCHAR,
    "path": PCHAR + "/",
    "query": PCHAR + "/?",
    "fragment": PCHAR + "/?",
    "userinfo": UNRESERVED + SUB_DELIMS + ":",
    "host": UNRESERVED + SUB_DELIMS,
    "reg-name": UNRESERVED + SUB_DELIMS,
    "unreserved": UNRESERVED,
}

_PCT = "%[0-9A-Fa-f]{2}"
_U = re.escape(UNRESERVED)
_S = re.escape(SUB_DELIMS)
_PCHAR = f"(?:[{_U}{_S}:@]|{_PCT})"
_SEG = f"{_PCHAR}*"
_SEG_NZ = f"{_PCHAR}+"
_SEG_NZ_NC = f"(?:[{_U}{_S}@]|{_PCT})+"
_QF = f"(?:{_PCHAR}|[/?])*"
_USERINFO = f"(?:[{_U}{_S}:]|{_PCT})*"
_REG_NAME = f"(?:[{_U}{_S}]|{_PCT})*"


def _authority(n: int) -> str:
    return rf"(?:{_USERINFO}@)?(?:\[(?P<ip{n}>[^\[\]/?#@]*)\]|{_REG_NAME})(?::[0-9]*)?"


_ABEMPTY = f"(?:/{_SEG})*"
_ABSOLUTE = f"/(?:{_SEG_NZ}(?:/{_SEG})*)?"
URI_REFERENCE = re.compile(
    rf"(?:[A-Za-z][A-Za-z0-9+.\-]*:"
    rf"(?://{_authority(1)}{_ABEMPTY}|{_ABSOLUTE}|{_SEG_NZ}(?:/{_SEG})*|)"
    rf"|(?://{_authority(2)}{_ABEMPTY}|{_ABSOLUTE}|{_SEG_NZ_NC}(?:/{_SEG})*|))"
    rf"(?:\?{_QF})?(?:#{_QF})?"
)
_IPVFUTURE = re.compile(rf"[vV][0-9A-Fa-f]+\.[{_U}{_S}:]+")
_ZONE = re.compile(rf"(?:[{_U}]|{_PCT})+")


def _ip_literal_ok(body: str) -> bool:
    if _IPVFUTURE.fullmatch(body):
        return True
    addr, pct, zone = body.partition("%25")  # RFC 6874 IPv6addrz
    if pct and not _ZONE.fullmatch(zone):
        return False
    if "%" in addr:
        return False
    try:
        ipaddress.IPv6Address(addr)
    except ValueError:
        return False
    return True


def is_uri_reference(s: str) -> bool:
    m = URI_REFERENCE.fullmatch(s)
    if m is None:
        return False
    body = m["ip1"] if m["ip1"] is not None else m["ip2"]
    return body is None or _ip_literal_ok(body)


# A generator of valid URI references: the same grammar, with IP-literals
# drawn from a few well-formed shapes.
_GEN_IP = r"\[(?:(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}|::1|::ffff:192\.0\.2\.1|v1\.[a-z:]+)\]"
_GEN_AUTH = rf"(?:{_USERINFO}@)?(?:{_GEN_IP}|{_REG_NAME})(?::[0-9]*)?"
_GEN = (
    rf"(?:[A-Za-z][A-Za-z0-9+.\-]*:"
    rf"(?://{_GEN_AUTH}{_ABEMPTY}|{_ABSOLUTE}|{_SEG_NZ}(?:/{_SEG})*|)"
    rf"|(?://{_GEN_AUTH}{_ABEMPTY}|{_ABSOLUTE}|{_SEG_NZ_NC}(?:/{_SEG})*|))"
    rf"(?:\?{_QF})?(?:#{_QF})?"
)
valid_uris = st.from_regex(re.compile(_GEN, re.ASCII), fullmatch=True)


def test_oracle_sanity() -> None:
    for good in [
        "http://a/b",
        "ftp://ftp.is.co.za/rfc/rfc1808.txt",
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        "mailto:John.Doe@example.com",
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        "http://[fe80::1%25en0]/",
        "./this:that",
        "",
    ]:
        assert is_uri_reference(good), good
    for bad in ["a b", "this:that:x y", "http://[zz]/", "this%:that", "x:that:[", "a:b/%zz"]:
        assert not is_uri_reference(bad), bad
    # "this:that" is a URI (scheme "this"); a relative path cannot start with ":"
    assert is_uri_reference("this:that") and not is_uri_reference(":that")


@given(valid_uris)
@settings(max_examples=60)
def test_generator_makes_valid_uris(s: str) -> None:
    assert is_uri_reference(s)


# ---------------------------------------------------------------------------
# encode
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("component", sorted(ALLOWED))
def test_encode_allows_exactly_the_abnf(component: str) -> None:
    allowed = ALLOWED[component]
    for cp in range(128):
        ch = chr(cp)
        out = encode(ch, component)
        if ch in allowed:
            assert out == ch, (component, ch)
        else:
            assert out == f"%{cp:02X}", (component, ch, out)
    # "%" is always data, non-ASCII always UTF-8 escapes
    assert encode("%", component) == "%25"
    assert encode("é€😀", component) == "%C3%A9%E2%82%AC%F0%9F%98%80"


def test_encode_examples() -> None:
    assert encode("a b/c:d@e") == "a%20b%2Fc:d@e"  # path-segment is the default
    assert encode("a/b c", "path") == "a/b%20c"
    assert encode("k=v&x=?/#", "query") == "k=v&x=?/%23"
    assert encode("x y+z", "query") == "x%20y+z"  # RFC 3986 has no "+ means space"
    assert encode("user@host:pw", "userinfo") == "user%40host:pw"
    assert encode("ex ample.com:80", "host") == "ex%20ample.com%3A80"
    assert encode("[::1]", "host") == "%5B%3A%3A1%5D"
    assert encode(b"\xff/", "path-segment") == "%FF%2F"  # bytes as given
    assert encode("~-._", "unreserved") == "~-._"


def test_encode_returns_input_when_nothing_to_do() -> None:
    s = "plain-text_123"
    assert encode(s) is s


def test_encode_errors() -> None:
    with pytest.raises(UnknownSetError) as e:
        encode("x", "authority")
    assert isinstance(e.value, KeyError) and isinstance(e.value, ValueError)
    assert "path-segment" in str(e.value)
    with pytest.raises(PercentEncodingTypeError):
        encode(1, "path")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        encode("x", None)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodeError) as e2:
        encode("ab\ud800", "path")
    assert e2.value.position == 2


@given(st.text(), st.sampled_from(sorted(ALLOWED)))
@settings(max_examples=80)
def test_encode_round_trips_and_is_valid(text: str, component: str) -> None:
    text = percent_encoding.to_usv_string(text)
    out = encode(text, component)
    assert percent_encoding.decode_text(out, errors="strict") == text
    assert all(c in ALLOWED[component] or c in "%0123456789ABCDEF" for c in out)


# ---------------------------------------------------------------------------
# split / recompose (Appendix B, §5.3)
# ---------------------------------------------------------------------------
def test_split_appendix_b_example() -> None:
    assert split("http://www.ics.uci.edu/pub/ietf/uri/#Related") == Components(
        "http", "www.ics.uci.edu", "/pub/ietf/uri/", None, "Related"
    )


@pytest.mark.parametrize(
    ("uri", "parts"),
    [
        (
            "ftp://ftp.is.co.za/rfc/rfc1808.txt",
            ("ftp", "ftp.is.co.za", "/rfc/rfc1808.txt", None, None),
        ),
        (
            "ldap://[2001:db8::7]/c=GB?objectClass?one",
            ("ldap", "[2001:db8::7]", "/c=GB", "objectClass?one", None),
        ),
        ("mailto:John.Doe@example.com", ("mailto", None, "John.Doe@example.com", None, None)),
        (
            "news:comp.infosystems.www.servers.unix",
            ("news", None, "comp.infosystems.www.servers.unix", None, None),
        ),
        ("tel:+1-816-555-1212", ("tel", None, "+1-816-555-1212", None, None)),
        ("telnet://192.0.2.16:80/", ("telnet", "192.0.2.16:80", "/", None, None)),
        (
            "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
            ("urn", None, "oasis:names:specification:docbook:dtd:xml:4.1.2", None, None),
        ),
        (
            "foo://example.com:8042/over/there?name=ferret#nose",
            ("foo", "example.com:8042", "/over/there", "name=ferret", "nose"),
        ),
        ("foo://info.example.com?fred", ("foo", "info.example.com", "", "fred", None)),
        ("", (None, None, "", None, None)),
        ("?#", (None, None, "", "", "")),
        ("//", (None, "", "", None, None)),
        ("a#b#c?d", (None, None, "a", None, "b#c?d")),
        ("x:\n#\n", ("x", None, "\n", None, "\n")),
    ],
)
def test_split_examples(uri: str, parts: tuple[str | None, ...]) -> None:
    assert tuple(split(uri)) == parts
    assert recompose(split(uri)) == uri
    assert split(uri).recompose() == uri


def test_split_keeps_undefined_and_empty_apart() -> None:
    assert split("http://a/b?").query == ""
    assert split("http://a/b").query is None
    assert split("http://a/b#").fragment == ""
    assert recompose(("http", None, "", None, None)) == "http:"
    assert recompose(("http", "", "", "", "")) == "http://?#"
    assert recompose(["http", "a", "/b", None, None]) == "http://a/b"  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("parts", "error"),
    [
        (None, PercentEncodingTypeError),
        ("http://a/", PercentEncodingTypeError),  # a str is not five components
        (b"abcde", PercentEncodingTypeError),
        ({"scheme": "http"}, PercentEncodingTypeError),
        (12345, PercentEncodingTypeError),
        ((None,) * 5, PercentEncodingTypeError),  # the path is never undefined (§3)
        (("http", None, b"/b", None, None), PercentEncodingTypeError),
        ((1, None, "", None, None), PercentEncodingTypeError),
        (("http", None, "", None, object()), PercentEncodingTypeError),
        (Components("http", None, None, None, None), PercentEncodingTypeError),  # type: ignore
        ((), PercentEncodingError),
        ([], PercentEncodingError),
        (("http", None, ""), PercentEncodingError),
        (("http", None, "", None, None, None), PercentEncodingError),
    ],
)
def test_recompose_rejects_bad_parts(parts: object, error: type[Exception]) -> None:
    with pytest.raises(error) as e:
        recompose(parts)  # type: ignore[arg-type]
    assert "recompose" in str(e.value)


@given(st.text())
@settings(max_examples=100)
def test_split_recompose_round_trip(s: str) -> None:
    assert recompose(split(s)) == s


@pytest.mark.parametrize(
    ("authority", "parts"),
    [
        ("example.com", (None, "example.com", None)),
        ("example.com:", (None, "example.com", "")),
        ("u:p@h:1", ("u:p", "h", "1")),
        ("a@b@c", ("a@b", "c", None)),
        ("[::1]", (None, "[::1]", None)),
        ("[::1]:80", (None, "[::1]", "80")),
        ("@", ("", "", None)),
        ("", (None, "", None)),
        ("[::1", (None, "[:", "1")),
    ],
)
def test_split_authority(authority: str, parts: tuple[str | None, ...]) -> None:
    assert split_authority(authority) == parts


# ---------------------------------------------------------------------------
# remove_dot_segments (§5.2.4) and resolution (§5.2, §5.4)
# ---------------------------------------------------------------------------
def literal_remove_dot_segments(path: str) -> str:
    """§5.2.4 transcribed step by step with two string buffers (the oracle)."""
    inp, out = path, ""
    while inp:
        if inp.startswith("../"):
            inp = inp[3:]
        elif inp.startswith("./"):
            inp = inp[2:]
        elif inp.startswith("/./"):
            inp = "/" + inp[3:]
        elif inp == "/.":
            inp = "/"
        elif inp.startswith("/../") or inp == "/..":
            inp = "/" + inp[4:]
            out = out[: max(out.rfind("/"), 0)]
        elif inp in (".", ".."):
            inp = ""
        else:
            j = inp.find("/", 1 if inp.startswith("/") else 0)
            j = len(inp) if j == -1 else j
            out, inp = out + inp[:j], inp[j:]
    return out


def test_remove_dot_segments_rfc_examples() -> None:
    assert remove_dot_segments("/a/b/c/./../../g") == "/a/g"
    assert remove_dot_segments("mid/content=5/../6") == "mid/6"


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        ("", ""),
        (".", ""),
        ("..", ""),
        ("/.", "/"),
        ("/..", "/"),
        ("/a/..", "/"),
        ("/a/.", "/a/"),
        ("a/..", "/"),  # the algorithm's own (odd) answer for a relative path
        ("../../a", "a"),
        ("/a/b/../../../c", "/c"),
        ("/.a/..b/a./b../...", "/.a/..b/a./b../..."),
        ("//..", "/"),
        ("/a//../b", "/a/b"),
        ("/%2E/", "/%2E/"),  # escapes are not dots until decoded
    ],
)
def test_remove_dot_segments_edges(path: str, expected: str) -> None:
    assert remove_dot_segments(path) == expected
    assert literal_remove_dot_segments(path) == expected


@given(st.text(alphabet="./a", max_size=40))
@settings(max_examples=300)
def test_remove_dot_segments_matches_literal_algorithm(path: str) -> None:
    assert remove_dot_segments(path) == literal_remove_dot_segments(path)


def test_remove_dot_segments_linear() -> None:
    deep = "/a" * 200_000 + "/.." * 200_000 + "/x"
    assert remove_dot_segments(deep) == "/x"


def resolve(base: str, ref: str) -> str:
    """§5.2.2 strict resolution, built on split/recompose/remove_dot_segments."""
    b, r = split(base), split(ref)
    rds = remove_dot_segments
    if r.scheme is not None:
        return recompose((r.scheme, r.authority, rds(r.path), r.query, r.fragment))
    if r.authority is not None:
        return recompose((b.scheme, r.authority, rds(r.path), r.query, r.fragment))
    if r.path == "":
        path, query = b.path, (r.query if r.query is not None else b.query)
    else:
        if r.path.startswith("/"):
            path = rds(r.path)
        elif b.authority is not None and b.path == "":  # §5.2.3 merge
            path = rds("/" + r.path)
        else:
            path = rds(b.path[: b.path.rfind("/") + 1] + r.path)
        query = r.query
    return recompose((b.scheme, b.authority, path, query, r.fragment))


# §5.4.1 and §5.4.2, base "http://a/b/c/d;p?q" (strict parser for "http:g").
RESOLUTION_EXAMPLES = {
    "g:h": "g:h",
    "g": "http://a/b/c/g",
    "./g": "http://a/b/c/g",
    "g/": "http://a/b/c/g/",
    "/g": "http://a/g",
    "//g": "http://g",
    "?y": "http://a/b/c/d;p?y",
    "g?y": "http://a/b/c/g?y",
    "#s": "http://a/b/c/d;p?q#s",
    "g#s": "http://a/b/c/g#s",
    "g?y#s": "http://a/b/c/g?y#s",
    ";x": "http://a/b/c/;x",
    "g;x": "http://a/b/c/g;x",
    "g;x?y#s": "http://a/b/c/g;x?y#s",
    "": "http://a/b/c/d;p?q",
    ".": "http://a/b/c/",
    "./": "http://a/b/c/",
    "..": "http://a/b/",
    "../": "http://a/b/",
    "../g": "http://a/b/g",
    "../..": "http://a/",
    "../../": "http://a/",
    "../../g": "http://a/g",
    "../../../g": "http://a/g",
    "../../../../g": "http://a/g",
    "/./g": "http://a/g",
    "/../g": "http://a/g",
    "g.": "http://a/b/c/g.",
    ".g": "http://a/b/c/.g",
    "g..": "http://a/b/c/g..",
    "..g": "http://a/b/c/..g",
    "./../g": "http://a/b/g",
    "./g/.": "http://a/b/c/g/",
    "g/./h": "http://a/b/c/g/h",
    "g/../h": "http://a/b/c/h",
    "g;x=1/./y": "http://a/b/c/g;x=1/y",
    "g;x=1/../y": "http://a/b/c/y",
    "g?y/./x": "http://a/b/c/g?y/./x",
    "g?y/../x": "http://a/b/c/g?y/../x",
    "g#s/./x": "http://a/b/c/g#s/./x",
    "g#s/../x": "http://a/b/c/g#s/../x",
    "http:g": "http:g",
}


@pytest.mark.parametrize(("ref", "target"), sorted(RESOLUTION_EXAMPLES.items()))
def test_resolution_examples(ref: str, target: str) -> None:
    assert resolve("http://a/b/c/d;p?q", ref) == target


# ---------------------------------------------------------------------------
# normalization (§6.2.2)
# ---------------------------------------------------------------------------
def test_normalize_rfc_examples() -> None:
    a, b = "example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"
    assert normalize(b) == a
    assert equivalent(a, b)
    assert normalize("HTTP://www.EXAMPLE.com/") == "http://www.example.com/"
    assert equivalent("http://example.org/~user", "http://example.org/%7euser")
    assert equivalent("http://example.org/%7Euser", "http://example.org/%7euser")


@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        (
            "HTTP://User:PW@Example.COM:8080/P%61th/%7e?Q%3d%3D#F%2f",
            "http://User:PW@example.com:8080/Path/~?Q%3D%3D#F%2F",
        ),
        # host: letters lower-cased, hex of escapes upper-cased, unreserved decoded
        ("http://%C3%89x%2eCOM/", "http://%C3%89x.com/"),
        ("http://%c3%a9X/", "http://%C3%A9x/"),
        ("http://%41b/", "http://ab/"),
        ("http://[2001:DB8::A]/", "http://[2001:db8::a]/"),
        # dot segments: absolute paths only
        ("http://a/b/%2E%2E/c", "http://a/c"),
        ("http://a/b/./c/../d/", "http://a/b/d/"),
        ("urn:a/../b", "urn:a/../b"),
        ("mailto:x/./y", "mailto:x/./y"),
        ("../a/./b", "../a/./b"),
        ("/a/../b", "/b"),
        ("a:/.//x", "a:/.//x"),  # removing "/." would turn "//x" into an authority
        ("/.//x", "/.//x"),
        ("http://a/.//x", "http://a//x"),
        # delimiters of empty components are kept; no scheme-based normalization
        ("http://example.com/?", "http://example.com/?"),
        ("http://example.com:/", "http://example.com:/"),
        ("http://example.com:80", "http://example.com:80"),
        ("http://a/#", "http://a/#"),
        # reserved escapes and invalid "%" are left alone
        ("http://a/a%2Fb%3f%zz%", "http://a/a%2Fb%3F%zz%"),
        ("", ""),
    ],
)
def test_normalize(uri: str, expected: str) -> None:
    assert normalize(uri) == expected


def test_equivalent_reserved_escapes_are_not_equivalent() -> None:
    assert not equivalent("/a%2Fb", "/a/b")
    assert not equivalent("http://a/?x=%26", "http://a/?x=&")
    assert not equivalent("http://a/", "http://a/?")
    assert not equivalent("http://a/", "http://a/#")
    assert not equivalent("http://a/X", "http://a/x")  # path is case-sensitive
    assert equivalent("HTTP://A/x", "http://a/x")


def test_normalize_percent_encoding() -> None:
    assert normalize_percent_encoding("%7euser/%2f%c3%a9") == "~user/%2F%C3%A9"
    assert normalize_percent_encoding("%41%5a%61%7A%30%2D%2e%5F%7e") == "AZaz0-._~"
    # a stray "%" is kept, and the hex digit right after it stays encoded
    assert normalize_percent_encoding("%%41%zz%4") == "%%41%zz%4"
    assert normalize_percent_encoding("%zz%41%4") == "%zzA%4"
    assert normalize_percent_encoding("/path?q#f") == "/path?q#f"  # only percent
    s = "no-escapes"
    assert normalize_percent_encoding(s) is s
    for cp in range(256):
        t = normalize_percent_encoding(f"%{cp:02x}")
        assert t == (chr(cp) if chr(cp) in UNRESERVED else f"%{cp:02X}")


# A "%" that starts no valid escape stands for itself (§2.4; WHATWG percent-decode keeps
# it), so "%1%41" means the characters "%1A".  Decoding "%41" there would make "%1A", the
# octet 0x1A: a different URI.  The escape of a hex digit right after "%" or "%X" stays
# encoded; other unreserved characters are still decoded.
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("%1%41", "%1%41"),
        ("%1%61", "%1%61"),
        ("%4%41", "%4%41"),
        ("%a%41", "%a%41"),
        ("%%4141", "%%4141"),
        ("%%41%42", "%%41B"),  # only the first escape could complete the "%"
        ("%%30", "%%30"),
        ("%1%67", "%1g"),  # "g" is no hex digit: decoding it is safe
        ("%%7e", "%~"),
        ("%zz%41", "%zzA"),  # "%zz" is followed by a non-hex character already
        ("%1/%41", "%1/A"),
        ("%1%2f%41", "%1%2FA"),
        ("%1%c3%a9", "%1%C3%A9"),
    ],
)
def test_normalize_percent_encoding_stray_percent_does_not_fuse(text: str, expected: str) -> None:
    out = normalize_percent_encoding(text)
    assert out == expected
    assert percent_encoding.decode(out) == percent_encoding.decode(text)
    assert normalize_percent_encoding(out) == out


def test_normalize_stray_percent_does_not_fuse() -> None:
    assert normalize("http://a/%4%41") == "http://a/%4%41"
    assert normalize("http://a/%1%41?%1%41#%1%41") == "http://a/%1%41?%1%41#%1%41"
    assert normalize("http://u%1%41@%1%41/") == "http://u%1%41@%1%41/"
    assert normalize("HTTP://%A%41/") == "http://%a%41/"  # host case is still folded
    assert not equivalent("http://a/%1%41", "http://a/%1A")
    assert not equivalent("http://a/%4%41", "http://a/%4A")
    assert not equivalent("http://%1%41/", "http://%1A/")
    # §6.1: no false positives; a string with a stray "%" is not a URI, and it is not
    # taken to mean its %25-escaped form either
    assert not equivalent("http://a/%1%41", "http://a/%251A")
    assert equivalent("http://a/%1%41", "HTTP://A/%1%41")
    assert equivalent("http://a/%zz%41", "http://a/%zzA")


URI_PIECES = [
    "%", "%%", "%1", "%4", "%a", "%zz", "%25", "%41", "%61", "%30", "%46", "%66", "%67", "%7e",
    "%7E", "%2f", "%2F", "%c3%a9", "%C3", "%ff", "1", "4", "a", "A", "f", "F", "g", "/", "?",
    "#", "@", ":", "é", " ",
]
pieces_text = st.lists(st.sampled_from(URI_PIECES), max_size=12).map("".join)


@given(pieces_text)
@settings(max_examples=300)
def test_normalize_percent_encoding_keeps_the_decoded_octets(s: str) -> None:
    # §6.2.2.2: normalization must not change what the string means, i.e. the octets
    # its valid escapes (and its stray "%") percent-decode to
    out = normalize_percent_encoding(s)
    assert percent_encoding.decode(out) == percent_encoding.decode(s)
    assert normalize_percent_encoding(out) == out


@given(pieces_text.filter(lambda q: "#" not in q), pieces_text)
@settings(max_examples=200)
def test_normalize_keeps_the_decoded_query_and_fragment(query: str, fragment: str) -> None:
    # query and fragment get only percent-encoding normalization (no dots, no case)
    parts = split(normalize("http://a/?" + query + "#" + fragment))
    assert parts.query is not None and parts.fragment is not None
    assert percent_encoding.decode(parts.query) == percent_encoding.decode(query)
    assert percent_encoding.decode(parts.fragment) == percent_encoding.decode(fragment)


@given(pieces_text, pieces_text)
@settings(max_examples=200)
def test_equivalent_paths_decode_alike(a: str, b: str) -> None:
    # no false positives (§6.1): equivalent paths (no dot segments here) mean the same octets
    a, b = a.replace(".", ""), b.replace(".", "")
    if equivalent("http://h/" + a, "http://h/" + b):
        assert percent_encoding.decode(a) == percent_encoding.decode(b)


@given(st.text())
@settings(max_examples=150)
def test_normalize_idempotent(s: str) -> None:
    n = normalize(s)
    assert normalize(n) == n


@given(valid_uris)
@settings(max_examples=100)
def test_normalize_idempotent_valid(s: str) -> None:
    n = normalize(s)
    assert normalize(n) == n
    assert equivalent(s, n)


@given(st.text())
@settings(max_examples=50)
def test_equivalent_reflexive(s: str) -> None:
    assert equivalent(s, s)


# ---------------------------------------------------------------------------
# requote
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "http://example.com/a b/ü?q=1 2&r=%zz#frag#ment",
            "http://example.com/a%20b/%C3%BC?q=1%202&r=%25zz#frag%23ment",
        ),
        ("http://example.com/a%20b/%c3%bc", "http://example.com/a%20b/%c3%bc"),
        ("http://example.com/100%", "http://example.com/100%25"),
        ("http://example.com/%%41", "http://example.com/%25%41"),
        ("http://x/%zz%20", "http://x/%25zz%20"),  # requests double-encodes the %20 here
        ("http://x/a b?q=1 2", "http://x/a%20b?q=1%202"),  # not "+": that is a form rule
        ("http://x/[a]?x[]=1", "http://x/%5Ba%5D?x%5B%5D=1"),
        ('http://x/{a}|\\^`"<>', "http://x/%7Ba%7D%7C%5C%5E%60%22%3C%3E"),
        ("http://x/\x00\t\n\x7f", "http://x/%00%09%0A%7F"),
        ("http://u@s:p w@x/", "http://u%40s:p%20w@x/"),
        ("http://[::1]:80/x", "http://[::1]:80/x"),
        ("http://[fe80::1%eth0]:8080/", "http://[fe80::1%25eth0]:8080/"),
        ("http://[v1.a:b]/", "http://[v1.a:b]/"),
        ("http://[zz]/", "http://%5Bzz%5D/"),
        ("http://[::1]x:80/", "http://%5B%3A%3A1%5Dx:80/"),
        ("http://a:b/", "http://a%3Ab/"),
        ("http://a:/", "http://a:/"),
        ("http://münchen.de/", "http://m%C3%BCnchen.de/"),
        ("a b:c", "./a%20b:c"),
        ("1a:b", "./1a:b"),
        (":x", "./:x"),
        ("/a:b", "/a:b"),
        ("HTTP://EXAMPLE.COM/%7e", "HTTP://EXAMPLE.COM/%7e"),  # no normalization
        ("mailto:a b@example.com", "mailto:a%20b@example.com"),
        ("", ""),
    ],
)
def test_requote_examples(text: str, expected: str) -> None:
    out = requote(text)
    assert out == expected
    assert requote(out) == out
    assert is_uri_reference(out)


def test_requote_returns_the_same_object_for_valid_uris() -> None:
    s = "http://example.com/a%2Fb?x=1#y"
    assert requote(s) is s


@given(st.text())
@settings(max_examples=300)
def test_requote_idempotent_and_valid(s: str) -> None:
    once = requote(s)
    assert requote(once) == once
    assert once.isascii()
    assert is_uri_reference(once), once


@given(st.text(alphabet="%:/?#[]@ab1 é-.", max_size=30))
@settings(max_examples=300)
def test_requote_idempotent_delimiter_heavy(s: str) -> None:
    once = requote(s)
    assert requote(once) == once
    assert is_uri_reference(once), once


@given(valid_uris)
@settings(max_examples=150)
def test_requote_is_a_no_op_on_valid_uris(s: str) -> None:
    assert requote(s) == s


@given(st.text())
@settings(max_examples=100)
def test_requote_keeps_the_data(s: str) -> None:
    # Outside "%", requote only adds escapes: decoding gives the text back.
    if "%" not in s:
        out = requote(s)
        back = percent_encoding.decode_text(out)
        assert back == s or back == "./" + s


def test_requote_errors() -> None:
    with pytest.raises(PercentEncodeError) as e:
        requote("http://a/b\udc00")
    assert e.value.position == 10
    for func in (requote, normalize, split, remove_dot_segments, normalize_percent_encoding):
        with pytest.raises(PercentEncodingTypeError):
            func(b"http://a/")  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingTypeError):
            func(None)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        equivalent("a", 1)  # type: ignore[arg-type]
    assert issubclass(PercentEncodeError, PercentEncodingError)


# ---------------------------------------------------------------------------
# registry and docs
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("name", "component"),
    [
        ("rfc3986-path-segment", "path-segment"),
        ("rfc3986-path", "path"),
        ("rfc3986-query", "query"),
        ("rfc3986-fragment", "fragment"),
        ("rfc3986-userinfo", "userinfo"),
        ("rfc3986-host", "host"),
        ("rfc3986-unreserved", "unreserved"),
    ],
)
def test_schemes(name: str, component: str) -> None:
    s = schemes.get(name)
    assert s.family == "RFC 3986"
    sample = "a b/c?d#e@f:g[h]%ü"
    assert s.encode(sample) == encode(sample, component)
    assert s.decode is not None and s.decode(s.encode(sample)) == sample
    assert s.encode_set is not None and s.encode_set == rfc3986.COMPONENTS[component]
    assert s in rfc3986.SCHEMES


def test_docs_examples_run() -> None:
    doc = ROOT / "docs" / "rfc3986.md"
    result = doctest.testfile(str(doc), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 5


def test_module_doctests() -> None:
    # rfc3986 and the private modules whose functions it re-exports (doctest finds a
    # function's examples only in the module that defines it).
    attempted = 0
    for mod in (rfc3986, _uri_components, _uri_resolve, _uri_normalize):
        result = doctest.testmod(mod)
        assert result.failed == 0, mod.__name__
        attempted += result.attempted
    assert attempted > 10


# RFC 3986 §5.4.1 (normal) and §5.4.2 (abnormal) examples, base "http://a/b/c/d;p?q".
_RESOLVE = """
g:h g:h|g http://a/b/c/g|./g http://a/b/c/g|g/ http://a/b/c/g/|/g http://a/g|//g http://g
?y http://a/b/c/d;p?y|g?y http://a/b/c/g?y|#s http://a/b/c/d;p?q#s|g#s http://a/b/c/g#s
g?y#s http://a/b/c/g?y#s|;x http://a/b/c/;x|g;x http://a/b/c/g;x|g;x?y#s http://a/b/c/g;x?y#s
. http://a/b/c/|./ http://a/b/c/|.. http://a/b/|../ http://a/b/|../g http://a/b/g
../.. http://a/|../../ http://a/|../../g http://a/g|../../../g http://a/g|../../../../g http://a/g
/./g http://a/g|/../g http://a/g|g. http://a/b/c/g.|.g http://a/b/c/.g|g.. http://a/b/c/g..
..g http://a/b/c/..g|./../g http://a/b/g|./g/. http://a/b/c/g/|g/./h http://a/b/c/g/h
g/../h http://a/b/c/h|g;x=1/./y http://a/b/c/g;x=1/y|g;x=1/../y http://a/b/c/y
g?y/./x http://a/b/c/g?y/./x|g?y/../x http://a/b/c/g?y/../x|g#s/./x http://a/b/c/g#s/./x
g#s/../x http://a/b/c/g#s/../x|http:g http:g
"""
RESOLVE_CASES = [tuple(c.split(" ")) for c in _RESOLVE.replace("\n", "|").split("|") if c]


@pytest.mark.one_impl
@pytest.mark.parametrize("ref,expected", RESOLVE_CASES)
def test_resolve_rfc_examples(ref: str, expected: str) -> None:
    assert rfc3986.resolve("http://a/b/c/d;p?q", ref) == expected


@pytest.mark.one_impl
def test_resolve_empty_reference_and_errors() -> None:
    assert len(RESOLVE_CASES) == 41  # 22 normal (and the empty one below), 19 abnormal
    assert rfc3986.resolve("http://a/b/c/d;p?q", "") == "http://a/b/c/d;p?q"
    assert rfc3986.resolve("http://a", "g") == "http://a/g"  # §5.2.3 empty base path
    with pytest.raises(PercentEncodingError):
        rfc3986.resolve("/no/scheme", "g")
    with pytest.raises(PercentEncodingTypeError):
        rfc3986.resolve("http://a/", None)  # type: ignore[arg-type]


# RFC 6874 zone IDs and the §6.2.2/§6.2.3 review of every component.
@pytest.mark.one_impl
@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        # The zone ID names an interface: its case is kept, the address folds.
        ("http://[FE80::1%25EN0]/", "http://[fe80::1%25EN0]/"),
        ("http://[fe80::A%25Eth0%2e1]:8080/", "http://[fe80::a%25Eth0.1]:8080/"),
        ("http://[FE80::1%25en%30]/", "http://[fe80::1%25en0]/"),
        # Percent-encoded unreserved characters in a reg-name decode, then fold.
        ("http://%41%62c.EXAMPLE/", "http://abc.example/"),
        ("http://caf%c3%a9.EXAMPLE/", "http://caf%C3%A9.example/"),
        # Syntax-based normalization keeps an empty port and a default port.
        ("http://a.example:/", "http://a.example:/"),
        ("http://a.example:80", "http://a.example:80"),
        # Userinfo keeps its case.
        ("http://USER:PW@A.example/", "http://USER:PW@a.example/"),
    ],
)
def test_normalize_component_review(uri: str, expected: str) -> None:
    assert normalize(uri) == expected


@pytest.mark.one_impl
@pytest.mark.parametrize(
    ("uri", "expected"),
    [
        ("HTTP://a.example:80", "http://a.example/"),
        ("http://a.example:/x", "http://a.example/x"),
        ("https://a.example:443/x?q", "https://a.example/x?q"),
        ("https://a.example:80/x", "https://a.example:80/x"),
        ("ws://a.example:80", "ws://a.example/"),
        ("wss://a.example:443/chat", "wss://a.example/chat"),
        ("ftp://a.example:21/f", "ftp://a.example/f"),
        ("http://[FE80::1%25EN0]:80", "http://[fe80::1%25EN0]/"),
        # Schemes without such a rule here are left as syntax-based normalization leaves them.
        ("foo://a.example:80", "foo://a.example:80"),
        ("mailto:x@a.example", "mailto:x@a.example"),
        ("http:/x", "http:/x"),
    ],
)
def test_normalize_scheme_based(uri: str, expected: str) -> None:
    assert normalize(uri, scheme_based=True) == expected
