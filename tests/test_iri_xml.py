"""Tests for the IRI-like variants of the XML family in percent_encoding.iri.

LEIRI (W3C Note 2008), XML 1.0 §4.2.2 system identifiers, XLink 1.1 §5.4
``href`` and XML Schema 1.1 ``anyURI``: each converter to a URI, checked on the
character lists the specs give and against RFC 3987 §3.1 where they agree.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import iri, schemes
from percent_encoding.errors import PercentEncodeError, PercentEncodingTypeError
from percent_encoding.iri import (
    any_uri_to_uri,
    iri_to_uri,
    leiri_to_uri,
    xlink_href_to_uri,
    xml_system_id_to_uri,
)

# leiri-ucschar's ASCII additions (the Note): space < > " { } | \ ^ ` and %x0-1F, %x7F.
LEIRI_ASCII_EXTRA = ' <>"{}|\\^`' + "".join(map(chr, range(0x20))) + "\x7f"
# XML 1.0 §4.2.2's list of characters to escape (ASCII part).
SYSTEM_ID_ESCAPED = "".join(map(chr, range(0x20))) + '\x7f <>"{}|\\^`'


def test_leiri_escapes_exactly_its_extra_ascii() -> None:
    for cp in range(128):
        ch = chr(cp)
        want = f"%{cp:02X}" if ch in LEIRI_ASCII_EXTRA else ch
        assert leiri_to_uri(ch) == want, ch


def test_leiri_allows_what_an_iri_refuses() -> None:
    # Bidi controls (RFC 3987 §4.1) and private use outside the query (§2.2) are
    # LEIRI characters: converted, not refused (iri_to_uri strict refuses them).
    for ch in ("\u202e", "\ue000", "\x85", "\ufdd0"):
        with pytest.raises(PercentEncodeError):
            iri_to_uri("http://a/" + ch, strict=True)
        assert leiri_to_uri("http://a/" + ch) == "http://a/" + "".join(
            f"%{b:02X}" for b in ch.encode("utf-8"))


@pytest.mark.parametrize("ch", ["\ud800", "\udfff", "\ufffe", "\uffff"])
def test_leiri_refuses_what_is_outside_leiri_ucschar(ch: str) -> None:
    with pytest.raises(PercentEncodeError) as e:
        leiri_to_uri("ab" + ch)
    assert e.value.position == 2


def test_leiri_keeps_escapes_and_delimiters() -> None:
    uri = "http://u@example.org:80/a%20b;p?q=1&r[]=2#f%C3%A9"
    assert leiri_to_uri(uri) == uri
    assert leiri_to_uri("100%") == "100%"


@settings(max_examples=80, deadline=None)
@given(st.text(st.characters(blacklist_categories=("Cs",))))
def test_leiri_is_iri_to_uri_on_its_repertoire(text: str) -> None:
    # LEIRI -> IRI -> URI (the Note, then RFC 3987 §3.1) writes the same octets
    # as iri_to_uri's lenient mode, which also encodes what an IRI may not hold.
    if "\ufffe" in text or "\uffff" in text:
        return
    assert leiri_to_uri(text) == iri_to_uri(text)
    assert leiri_to_uri(leiri_to_uri(text)) == leiri_to_uri(text)


def test_system_id_escapes_the_list_of_4_2_2() -> None:
    for cp in range(0x20, 128):
        ch = chr(cp)
        if ch == "#":
            continue
        want = f"%{cp:02X}" if ch in SYSTEM_ID_ESCAPED else ch
        assert xml_system_id_to_uri(ch) == want, ch
    # The XML examples of §4.2.2 and §4.3 are already URIs.
    for sid in ("http://www.textuality.com/boilerplate/OpenHatch.xml", "../grafix/OpenHatch.gif",
                "http://www.example.com/dtds/mydoc.dtd"):
        assert xml_system_id_to_uri(sid) == sid
    assert xml_system_id_to_uri("a\tb\nc\u00e9") == "a%09b%0Ac%C3%A9"


def test_system_id_fragment_is_an_error_unless_lenient() -> None:
    with pytest.raises(PercentEncodeError, match=r"4\.2\.2") as e:
        xml_system_id_to_uri("doc.dtd#x")
    assert e.value.position == 7
    assert xml_system_id_to_uri("doc.dtd#x y", strict=False) == "doc.dtd#x%20y"


@pytest.mark.parametrize("ch", ["\x00", "\x01", "\x1f", "\ufffe", "\ud800"])
def test_xml_variants_refuse_non_chars(ch: str) -> None:
    for f in (xml_system_id_to_uri, xlink_href_to_uri, any_uri_to_uri):
        with pytest.raises(PercentEncodeError) as e:
            f("x" + ch)
        assert e.value.position == 1


def test_xlink_href() -> None:
    # XLink 1.1's own examples are relative references, already URIs.
    for href in ("students/patjones62.xml", "profs/jaysmith7.xml", "#xpointer(id('a'))"):
        assert xlink_href_to_uri(href) == href
    assert xlink_href_to_uri("http://example.org/Dürst#sec 2") == (
        "http://example.org/D%C3%BCrst#sec%202")
    # Same conversion as LEIRI on XML characters.
    assert xlink_href_to_uri("a\u202eb<c>") == leiri_to_uri("a\u202eb<c>")


def test_any_uri_collapses_whitespace_first() -> None:
    assert any_uri_to_uri("  http://example.org/a  b\tc \r\n") == "http://example.org/a%20b%20c"
    assert any_uri_to_uri("\t \n") == ""
    assert any_uri_to_uri("urn:x:\u00e9%41") == "urn:x:%C3%A9%41"
    assert any_uri_to_uri("a<b>") == "a%3Cb%3E"


@pytest.mark.parametrize("f", [leiri_to_uri, xml_system_id_to_uri, xlink_href_to_uri,
                               any_uri_to_uri])
def test_type_errors(f: object) -> None:
    for bad in (b"a", None, 3):
        with pytest.raises(PercentEncodingTypeError):
            f(bad)  # type: ignore[operator]


def test_registry_rows() -> None:
    rows = {"leiri-to-uri": leiri_to_uri, "xml-system-id-to-uri": xml_system_id_to_uri,
            "xlink-href-to-uri": xlink_href_to_uri, "xsd-anyuri-to-uri": any_uri_to_uri}
    for name, f in rows.items():
        s = schemes.get(name)
        assert s.encode("a b\u00e9") == f("a b\u00e9") == "a%20b%C3%A9"
        assert s.decode is None and not s.reversible
    assert schemes.get("leiri").name == "leiri-to-uri"
    assert schemes.get("anyURI").name == "xsd-anyuri-to-uri"
    table = schemes.compare(list(rows))
    assert table["rows"][ord(" ")]["output"] == ["%20", "%20", "%20", ""]  # anyURI trims
    assert table["rows"][ord("#")]["output"][1].startswith("error:")
    assert iri.LEIRI_TO_URI.name == "leiri-to-uri"
