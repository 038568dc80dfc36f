"""mailto: URLs (RFC 6068): the RFC's examples both ways, its encoding rules, round trips."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import detect, mailto, schemes, url
from percent_encoding.errors import MailtoError, PercentEncodingError, PercentEncodingTypeError

pytestmark = pytest.mark.one_impl

# RFC 6068 §6.1, §6.2 and §6.3: (URL, to, headers).  Each is parsed, and built back
# from what it holds (the RFC writes each one the way build() does).
RFC_EXAMPLES: list[tuple[str, list[str], list[tuple[str, str]]]] = [
    ("mailto:chris@example.com", ["chris@example.com"], []),
    ("mailto:infobot@example.com?subject=current-issue", ["infobot@example.com"],
     [("subject", "current-issue")]),
    ("mailto:infobot@example.com?body=send%20current-issue", ["infobot@example.com"],
     [("body", "send current-issue")]),
    ("mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index",
     ["infobot@example.com"], [("body", "send current-issue\r\nsend index")]),
    ("mailto:list@example.org?In-Reply-To=%3C3469A91.D10AF4C@example.com%3E",
     ["list@example.org"], [("In-Reply-To", "<3469A91.D10AF4C@example.com>")]),
    ("mailto:majordomo@example.com?body=subscribe%20bamboo-l", ["majordomo@example.com"],
     [("body", "subscribe bamboo-l")]),
    ("mailto:joe@example.com?cc=bob@example.com&body=hello", ["joe@example.com"],
     [("cc", "bob@example.com"), ("body", "hello")]),
    ("mailto:gorby%25kremvax@example.com", ["gorby%kremvax@example.com"], []),
    ("mailto:unlikely%3Faddress@example.com?blat=foop", ["unlikely?address@example.com"],
     [("blat", "foop")]),
    ("mailto:Mike%26family@example.org", ["Mike&family@example.org"], []),
    ("mailto:%22not%40me%22@example.org", ['"not@me"@example.org'], []),
    ("mailto:%22oh%5C%5Cno%22@example.org", ['"oh\\\\no"@example.org'], []),
    ("mailto:%22%5C%5C%5C%22it's%5C%20ugly%5C%5C%5C%22%22@example.org",
     ['"\\\\\\"it\'s\\ ugly\\\\\\""@example.org'], []),
    ("mailto:user@example.org?subject=caf%C3%A9", ["user@example.org"],
     [("subject", "café")]),
    ("mailto:user@example.org?subject=%3D%3Futf-8%3FQ%3Fcaf%3DC3%3DA9%3F%3D",
     ["user@example.org"], [("subject", "=?utf-8?Q?caf=C3=A9?=")]),
    ("mailto:user@example.org?subject=%3D%3Fiso-8859-1%3FQ%3Fcaf%3DE9%3F%3D",
     ["user@example.org"], [("subject", "=?iso-8859-1?Q?caf=E9?=")]),
    ("mailto:user@example.org?subject=caf%C3%A9&body=caf%C3%A9", ["user@example.org"],
     [("subject", "café"), ("body", "café")]),
    ("mailto:user@%E7%B4%8D%E8%B1%86.example.org?subject=Test&body=NATTO",
     ["user@\u7d0d\u8c46.example.org"], [("subject", "Test"), ("body", "NATTO")]),
]


@pytest.mark.parametrize(("href", "to", "headers"), RFC_EXAMPLES)
def test_rfc6068_examples_parse(href: str, to: list[str], headers: list[tuple[str, str]]) -> None:
    m = mailto.parse(href)
    assert m.to == to
    assert m.headers == headers
    assert m.subject == next((v for n, v in headers if n.lower() == "subject"), None)
    assert m.body == next((v for n, v in headers if n.lower() == "body"), None)


@pytest.mark.parametrize(("href", "to", "headers"), RFC_EXAMPLES)
def test_rfc6068_examples_build(href: str, to: list[str], headers: list[tuple[str, str]]) -> None:
    assert mailto.build(to, headers) == href


def test_to_fields_are_equivalent_spellings() -> None:
    # RFC 6068 §2: these three are equivalent.
    for href in ("mailto:addr1@an.example,addr2@an.example",
                 "mailto:?to=addr1@an.example,addr2@an.example",
                 "mailto:addr1@an.example?to=addr2@an.example"):
        assert mailto.parse(href).to == ["addr1@an.example", "addr2@an.example"], href
    m = mailto.parse("mailto:?to=a%2Cb@x.example,c@x.example")
    assert m.to == ["a,b@x.example", "c@x.example"]  # split before decoding
    assert m.headers == [("to", "a,b@x.example,c@x.example")]


def test_plus_is_a_plus_and_space_is_percent_20() -> None:
    # RFC 6068 §5: "+" is a plus sign (sub-addresses); spaces are %20.
    m = mailto.parse("mailto:bill+ietf@example.org?subject=a+b%20c")
    assert m.to == ["bill+ietf@example.org"]
    assert m.subject == "a+b c"
    assert mailto.build("bill+ietf@example.org", {"subject": "a+b c"}) == (
        "mailto:bill+ietf@example.org?subject=a+b%20c")


def test_what_build_escapes() -> None:
    # RFC 6068 §2: %, the gen-delims but "@" and ":", "&", ";", "=", and what a URI cannot
    # hold; "," inside an address; "#" anywhere.
    assert mailto.build('"a,b;c=d&e/f?g#h[i]j%k"@x.example') == (
        "mailto:%22a%2Cb%3Bc%3Dd%26e%2Ff%3Fg%23h%5Bi%5Dj%25k%22@x.example")
    assert mailto.build([], [("subject", "a,b;c=d&e/f?g#h[i]j%k:@!$'()*+~")]) == (
        "mailto:?subject=a,b%3Bc%3Dd%26e%2Ff%3Fg%23h%5Bi%5Dj%25k:@!$'()*+~")
    assert mailto.build("user@[192.0.2.1]") == "mailto:user@%5B192.0.2.1%5D"
    assert mailto.build("a@x.example", {"subject": "é €"}) == (
        "mailto:a@x.example?subject=%C3%A9%20%E2%82%AC")
    assert mailto.build([]) == "mailto:"


@pytest.mark.parametrize("newline", ["\n", "\r", "\r\n"])
def test_body_line_breaks_are_crlf(newline: str) -> None:
    body = f"line 1{newline}line 2{newline}"
    assert mailto.build("a@x.example", [("Body", body)]) == (
        "mailto:a@x.example?Body=line%201%0D%0Aline%202%0D%0A")


def test_line_breaks_elsewhere_are_refused() -> None:
    with pytest.raises(MailtoError, match="RFC 6068 §5") as e:
        mailto.build("a@x.example", {"subject": "hi\nBcc: eve@x.example"})
    assert e.value.position == 2
    with pytest.raises(MailtoError):
        mailto.build("a@x.example\r\nBcc: eve@x.example")
    with pytest.raises(MailtoError):
        mailto.build("a@x.example", {"X\n": "y"})
    with pytest.raises(MailtoError, match="empty"):
        mailto.build(["a@x.example", ""])
    with pytest.raises(MailtoError, match="empty name"):
        mailto.build("a@x.example", {"": "y"})


def test_parse_details() -> None:
    m = mailto.parse("MAILTO:a@x.example?SUBJECT=one&subject=two&body=&x#frag?y=z")
    assert m.headers == [("SUBJECT", "one"), ("subject", "two"), ("body", ""), ("x", "")]
    assert (m.subject, m.body) == ("one", "")
    assert mailto.parse("mailto:").to == []
    assert mailto.parse("mailto:a@x.example,,b@x.example").to == ["a@x.example", "b@x.example"]
    assert mailto.parse("mailto:a@x.example?subject=100%").subject == "100%"
    assert mailto.parse("mailto:a@x.example?subject=caf\u00e9").subject == "café"


def test_parse_errors() -> None:
    with pytest.raises(MailtoError) as e:
        mailto.parse("http://example.com/")
    assert e.value.position == 0
    with pytest.raises(MailtoError, match="UTF-8") as e:
        mailto.parse("mailto:a@x.example?subject=caf%E9")
    assert e.value.position == 27
    assert isinstance(e.value, PercentEncodingError) and isinstance(e.value, ValueError)
    for bad in (None, b"mailto:a@x", 3):
        with pytest.raises(PercentEncodingTypeError):
            mailto.parse(bad)  # type: ignore[arg-type]


def test_build_wrong_types() -> None:
    bad_calls: list[tuple[Any, Any]] = [
        (3, ()), (b"a@x", ()), ([b"a@x"], ()), ({"a@x": 1}, ()),
        ("a@x", "subject=x"), ("a@x", [("subject",)]), ("a@x", {"subject": 3}), ("a@x", 7),
    ]
    for to, headers in bad_calls:
        with pytest.raises(PercentEncodingTypeError):
            mailto.build(to, headers)


_text = st.text(st.characters(exclude_categories=("Cs",)), max_size=12)
_address = st.builds(lambda a, b: f"{a}@{b}", _text, _text.filter(lambda s: "@" not in s))


@settings(max_examples=200, deadline=None)
@given(to=st.lists(_address.filter(lambda s: "\r" not in s and "\n" not in s), max_size=3),
       headers=st.lists(st.tuples(_text.filter(lambda s: s and "\r" not in s and "\n" not in s),
                                  _text.filter(lambda s: "\r" not in s and "\n" not in s)),
                        max_size=4),
       body=st.one_of(st.none(), _text))
def test_build_then_parse_round_trips(to: list[str], headers: list[tuple[str, str]],
                                      body: str | None) -> None:
    fields = headers + ([("body", body)] if body is not None else [])
    href = mailto.build(to, fields)
    assert href.isascii() and "#" not in href and " " not in href
    m = mailto.parse(href)
    extra = [a for n, v in fields if n.lower() == "to" for a in v.split(",") if a]
    assert m.to == to + extra
    want = [(n, v.replace("\r\n", "\n").replace("\r", "\n").replace("\n", "\r\n")
             if n.lower() == "body" else v) for n, v in fields]
    assert m.headers == want


def test_registry_rows() -> None:
    s = schemes.get("mailto")
    assert schemes.get("rfc6068") is s
    assert s.encode("a b+c;d,e") == "a%20b+c%3Bd,e"
    assert not s.space_as_plus and s.plain and s.reversible
    assert schemes.get("mailto-address").encode("a,b@x") == "a%2Cb@x"
    row = {chr(r["code_point"]): r["output"] for r in schemes.compare(["mailto"])["rows"]}
    assert row["+"] == [None] and row[" "] == ["%20"] and row[";"] == ["%3B"]


def test_detect_and_explain_say_plus_is_a_plus() -> None:
    sc = detect.space_convention("mailto:a@example.com?subject=a+b")
    assert sc.plus_is_space is False and sc.confidence == "certain"
    assert "RFC 6068" in sc.reason
    assert detect.space_convention(scheme="mailto").plus_is_space is False
    report = url.explain("mailto:a@example.com?subject=a+b")
    query = next(c for c in report["components"] if c.component == "query")
    assert "RFC 6068" in query.reason and "plus sign" in query.reason
    http = url.explain("http://example.com/?a+b")
    assert "RFC 6068" not in next(c for c in http["components"] if c.component == "query").reason
