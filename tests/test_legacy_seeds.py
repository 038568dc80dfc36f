"""The seeds' historic variants in ``legacy`` (issue 43): RFC 1808 resolution, RFC 1630's
encoding, ftp typecodes, Firefox 2's and Opera 9's ``decodeURIComponent`` and the
"Deterministic URI Encoding" header; each tested on its spec's own examples."""

from __future__ import annotations

import pytest

from percent_encoding import ecmascript, encodings, legacy, schemes
from percent_encoding.errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    UnknownEncodingError,
    URIError,
)

# RFC 1808 §5: "Within an object with a well-defined base URL of <URL:http://a/b/c/d;p?q#f>".
BASE_1808 = "http://a/b/c/d;p?q#f"

# §5.1 Normal Examples, every one.
NORMAL_1808 = [
    ("g:h", "g:h"),
    ("g", "http://a/b/c/g"),
    ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"),
    ("/g", "http://a/g"),
    ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"),
    ("g?y", "http://a/b/c/g?y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"),
    ("#s", "http://a/b/c/d;p?q#s"),
    ("g#s", "http://a/b/c/g#s"),
    ("g#s/./x", "http://a/b/c/g#s/./x"),
    ("g?y#s", "http://a/b/c/g?y#s"),
    (";x", "http://a/b/c/d;x"),
    ("g;x", "http://a/b/c/g;x"),
    ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    (".", "http://a/b/c/"),
    ("./", "http://a/b/c/"),
    ("..", "http://a/b/"),
    ("../", "http://a/b/"),
    ("../g", "http://a/b/g"),
    ("../..", "http://a/"),
    ("../../", "http://a/"),
    ("../../g", "http://a/g"),
]

# §5.2 Abnormal Examples, every one.
ABNORMAL_1808 = [
    ("", "http://a/b/c/d;p?q#f"),
    ("../../../g", "http://a/../g"),
    ("../../../../g", "http://a/../../g"),
    ("/./g", "http://a/./g"),
    ("/../g", "http://a/../g"),
    ("g.", "http://a/b/c/g."),
    (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."),
    ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"),
    ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"),
    ("g/../h", "http://a/b/c/h"),
    ("http:g", "http:g"),
    ("http:", "http:"),
]


@pytest.mark.parametrize(("ref", "want"), NORMAL_1808 + ABNORMAL_1808)
def test_rfc1808_resolves_every_example_of_section_5(ref: str, want: str) -> None:
    assert legacy.rfc1808_resolve(BASE_1808, ref) == want


def test_rfc1808_differs_from_rfc3986_where_the_rfcs_differ() -> None:
    from percent_encoding import rfc3986

    # RFC 3986 §5.4 resolves these three otherwise; RFC 1808 §5 as above.
    base = "http://a/b/c/d;p?q"
    assert rfc3986.resolve(base, ";x") == "http://a/b/c/;x"
    assert legacy.rfc1808_resolve(base, ";x") == "http://a/b/c/d;x"
    assert rfc3986.resolve(base, "../../../g") == "http://a/g"
    assert legacy.rfc1808_resolve(base, "../../../g") == "http://a/../g"
    assert legacy.rfc1808_resolve(base, "") == base


def test_rfc1808_edges() -> None:
    # A base with a net_loc and no path: the merged path still starts with "/".
    assert legacy.rfc1808_resolve("http://a", "g") == "http://a/g"
    # "<segment>/../" with an empty segment is removed too; ".." segments are not.
    assert legacy.rfc1808_resolve("http://a/b/c", "x//../y") == "http://a/b/x/y"
    assert legacy.rfc1808_resolve("http://a/../c", "../g") == "http://a/../../g"
    # An empty net_loc is not a net_loc (§4 step 3 speaks of a non-empty one).
    assert legacy.rfc1808_resolve(BASE_1808, "///g") == "http://a/g"
    # Linear time on many dot segments.
    deep = "x/" * 20000 + "../" * 20000 + "g"
    assert legacy.rfc1808_resolve("http://a/b", deep) == "http://a/g"


def test_rfc1808_refuses_a_relative_base_and_wrong_types() -> None:
    with pytest.raises(PercentEncodingError, match="no scheme"):
        legacy.rfc1808_resolve("/b/c", "g")
    with pytest.raises(PercentEncodingTypeError):
        legacy.rfc1808_resolve(b"http://a/", "g")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        legacy.rfc1808_resolve("http://a/", None)  # type: ignore[arg-type]


def test_rfc1808_encode_keeps_pchar() -> None:
    # §2.2: pchar = uchar | ":" | "@" | "&" | "="; ";" "/" "?" are reserved delimiters.
    assert legacy.rfc1808_encode("a:b@c&d=e$-_.+!*'(),") == "a:b@c&d=e$-_.+!*'(),"
    assert legacy.rfc1808_encode("a;b/c?d#e f%~") == "a%3Bb%2Fc%3Fd%23e%20f%25%7E"
    assert legacy.rfc1808_encode("é") == "%C3%A9"


def test_rfc1630_search_part_writes_space_as_plus() -> None:
    # "Query strings": within the search part "+" stands for a space, so a real "+"
    # must be encoded.
    assert legacy.rfc1630_encode("a b+c") == "a+b%2Bc"
    assert legacy.rfc1630_decode("a+b%2Bc") == "a b+c"
    # safe ($-_@.&) and extra (!*"'(),) stay; reserved (=;/#?:) and national are escaped.
    assert legacy.rfc1630_encode("$-_@.&!*\"'(),") == "$-_@.&!*\"'(),"
    assert legacy.rfc1630_encode("=;/#?: ~{}") == "%3D%3B%2F%23%3F%3A+%7E%7B%7D"
    assert legacy.rfc1630_encode("%") == "%25"


def test_rfc1630_path_keeps_plus() -> None:
    # In a path "+" is an xpalpha and stays; a space is escaped.
    assert legacy.rfc1630_encode("a b+c", search=False) == "a%20b+c"
    assert legacy.rfc1630_decode("a+b%20c", search=False) == "a+b c"
    assert legacy.rfc1630_encode(b"caf\xc3\xa9") == "caf%C3%A9"  # octets stay octets
    assert legacy.rfc1630_encode("caf\u00e9", encoding="windows-1252") == "caf%E9"
    with pytest.raises(PercentEncodingTypeError):
        legacy.rfc1630_encode("a", search=1)  # type: ignore[arg-type]


def test_rfc1630_escapes_give_the_iso_latin_1_code() -> None:
    # "Encoding rules": "%" and two hex digits "giving the ISO Latin 1 code" of the
    # character, so by default an escape is one octet, the code point itself (U+0080-U+009F
    # included, which windows-1252 would not give), and text beyond ISO Latin 1 has no code.
    assert legacy.rfc1630_encode("caf\u00e9 \u00ff") == "caf%E9+%FF"
    assert legacy.rfc1630_encode("\x80\x9f", search=False) == "%80%9F"
    assert legacy.rfc1630_decode("caf%E9+%FF%80") == "caf\u00e9 \u00ff\x80"
    assert legacy.rfc1630_decode("%C3%A9") == "\u00c3\u00a9"  # two codes, two characters
    with pytest.raises(PercentEncodeError) as e:
        legacy.rfc1630_encode("ab\u20ac")
    assert e.value.position == 2
    with pytest.raises(PercentEncodeError):
        legacy.rfc1630_encode("\ud800")
    with pytest.raises(PercentDecodeError):
        legacy.rfc1630_decode("%E9%", strict=True)
    # A WHATWG label still chooses another encoding.
    assert legacy.rfc1630_encode("\u20ac", encoding="utf-8") == "%E2%82%AC"
    assert legacy.rfc1630_decode("%E2%82%AC", encoding="utf-8") == "\u20ac"
    row = schemes.get("rfc1630")
    assert row.encode("\u00e9") == "%E9" and row.decode is not None
    assert row.decode("%E9+") == "\u00e9 "
    assert not row.plain and row.reversible


def test_the_1630_and_1808_rows() -> None:
    row = schemes.get("rfc1630")
    assert row.encode("a b+c") == "a+b%2Bc" and row.decode is not None
    assert row.decode("a+b%2Bc") == "a b+c"
    assert schemes.get("rfc1630-path").encode("a b+c") == "a%20b+c"
    assert schemes.get("rfc1808-pchar").encode("a;b") == "a%3Bb"
    table = schemes.compare(["rfc1630", "rfc1808-pchar", "rfc1738"])
    assert table["rows"][ord("@")]["output"] == [None, None, "%40"]
    assert table["rows"][ord("+")]["output"] == ["%2B", None, None]


# ---------------------------------------------------------------------------
# RFC 1738 §3.2.2 ftp typecodes
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(("path", "want"), [
    ("/f;type=a", ("/f", "a")),
    ("/pub/file.txt;type=i", ("/pub/file.txt", "i")),
    ("/pub/dir;type=d", ("/pub/dir", "d")),
    ("/f;type=A", ("/f", "A")),  # §5: ftptype = "A" | "I" | "D" | "a" | "i" | "d"
    ("/f", ("/f", None)),
    ("/a;type=a/b", ("/a;type=a/b", None)),  # not the last segment: part of a name
    ("", ("", None)),
])
def test_ftp_split_typecode(path: str, want: tuple[str, str | None]) -> None:
    assert legacy.ftp_split_typecode(path) == want


@pytest.mark.parametrize("path", ["/f;type=x", "/f;type=", "/f;type=ai", "/f;type=%61"])
def test_ftp_split_refuses_what_is_not_a_typecode(path: str) -> None:
    with pytest.raises(PercentEncodingError, match="typecode"):
        legacy.ftp_split_typecode(path)


def test_ftp_join_typecode() -> None:
    assert legacy.ftp_join_typecode("/f", "i") == "/f;type=i"
    assert legacy.ftp_join_typecode("/d", "d") == "/d;type=d"
    assert legacy.ftp_split_typecode(legacy.ftp_join_typecode("/f", "a")) == ("/f", "a")
    for bad in ("x", "", "ai", "b"):
        with pytest.raises(PercentEncodingError):
            legacy.ftp_join_typecode("/f", bad)
    with pytest.raises(PercentEncodingError, match="already"):
        legacy.ftp_join_typecode("/f;type=a", "i")
    with pytest.raises(PercentEncodingTypeError):
        legacy.ftp_join_typecode("/f", None)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# Firefox 2 and Opera 9 decodeURIComponent (SuikaWiki percent-encoding [145] [146])
# ---------------------------------------------------------------------------
def test_firefox2_gives_u_fffd_for_the_two_noncharacters() -> None:
    f = legacy.firefox2_decode_uri_component
    assert f("%EF%BF%BE") == "\ufffd"
    assert f("%EF%BF%BF") == "\ufffd"
    assert f("%ef%bf%be%ef%BF%bF") == "\ufffd\ufffd"
    # ECMA-262 itself decodes them to the noncharacters.
    assert ecmascript.decode_uri_component("%EF%BF%BE") == "\ufffe"
    # Everything else is decodeURIComponent: other escapes, literal U+FFFE, errors.
    assert f("%EF%BF%BD%EF%BF%BC\ufffe%2F") == "\ufffd\ufffc\ufffe/"
    with pytest.raises(URIError) as e:
        f("ab%EF%BF")
    assert e.value.position == 2


def test_opera9_leaves_percent_00_undecoded() -> None:
    f = legacy.opera9_decode_uri_component
    assert f("%00") == "%00"
    assert f("a%00b%41%00") == "a%00bA%00"
    assert ecmascript.decode_uri_component("a%00b") == "a\x00b"
    assert f("%2500") == "%00"  # an escaped "%" followed by "00" is not a %00 escape
    assert f("\U0001f600%C3%A9") == "\U0001f600\u00e9"
    # The error's position counts UTF-16 code units in the whole input, as JavaScript does.
    with pytest.raises(URIError, match="code unit 6") as e:
        f("\U0001f600%00a%E3")
    assert e.value.position == 6
    with pytest.raises(URIError) as e:
        f("%00%zz")
    assert e.value.position == 3


def test_the_browser_rows() -> None:
    ff = schemes.get("firefox2-decodeURIComponent")
    op = schemes.get("opera9-decodeURIComponent")
    assert ff.encode("a b") == op.encode("a b") == "a%20b"
    assert ff.decode is not None and op.decode is not None
    assert ff.decode(ff.encode("\uffff")) == "\ufffd"
    assert op.decode(op.encode("\x00")) == "%00"
    assert not ff.reversible and not op.reversible and ff.family == op.family
    for bad in (None, 3, b"%00"):
        with pytest.raises(PercentEncodingTypeError):
            legacy.opera9_decode_uri_component(bad)  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingTypeError):
            legacy.firefox2_decode_uri_component(bad)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# draft-montenegro-httpbis-uri-encoding-00
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(("value", "want", "name"), [
    ("utf-8", "utf-8", "UTF-8"),
    ("UTF-8", "UTF-8", "UTF-8"),
    (" Shift_JIS ", "Shift_JIS", "Shift_JIS"),
    ('"euc-jp"', "euc-jp", "EUC-JP"),
    ("charset=iso-8859-1", "iso-8859-1", "windows-1252"),
    ("Charset = \"utf8\"", "utf8", "UTF-8"),
])
def test_parse_uri_encoding_header(value: str, want: str, name: str) -> None:
    label = legacy.parse_uri_encoding_header(value)
    assert label == want
    assert encodings.lookup(label).name == name


def test_parse_uri_encoding_header_refuses_other_shapes() -> None:
    for bad in ("", "utf-8, shift_jis", "utf-8;q=1", "charset=", '"utf-8', "a b"):
        with pytest.raises(PercentEncodingError):
            legacy.parse_uri_encoding_header(bad)
    with pytest.raises(UnknownEncodingError):
        legacy.parse_uri_encoding_header("no-such-charset")
    with pytest.raises(PercentEncodingTypeError):
        legacy.parse_uri_encoding_header(None)  # type: ignore[arg-type]


def test_decode_with_uri_encoding() -> None:
    d = legacy.decode_with_uri_encoding
    assert d("/%82%A0?q=%82%A2", "Shift_JIS") == "/\u3042?q=\u3044"
    assert d("/%E3%81%82", "utf-8") == "/\u3042"
    assert d("/caf%E9", "iso-8859-1") == "/caf\u00e9"
    assert d("/caf%E9", None) == "/caf\ufffd"  # no header: UTF-8
    assert d(b"/a%20b+c", "utf-8") == "/a b+c"  # "+" is not a space in a request target
    assert d("/100%", "utf-8") == "/100%"
    assert legacy.build_uri_encoding_header("sjis") == "Shift_JIS"
    assert legacy.parse_uri_encoding_header(legacy.build_uri_encoding_header("latin1")) == (
        "windows-1252"
    )
    with pytest.raises(UnknownEncodingError):
        d("/", "x-nope")
