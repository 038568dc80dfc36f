"""URL.display(): the URL Standard's "URL rendering" advice (§4.8, whatwg/url@d1152b9).

Runs on both twins (the C parser's URL objects hold offsets, the pure ones a record).
"""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import url as U
from percent_encoding.errors import PercentEncodingTypeError
from percent_encoding.url import _display


def test_credentials_are_not_rendered() -> None:
    # §4.8's own example: a username that looks like the host.
    u = U.parse("https://examplecorp.com@attacker.example/")
    assert u.display() == "https://attacker.example/"
    assert u.display(credentials=True) == "https://examplecorp.com@attacker.example/"
    assert U.parse("https://u%C3%A9:p%20w@h.example/").display(credentials=True) == (
        "https://ué:p%20w@h.example/")


def test_domain_to_unicode_only_for_domains() -> None:
    assert U.parse("https://xn--bcher-kva.example/").display() == "https://bücher.example/"
    assert U.parse("http://xn--bcher-kva.example:81/").display(host_only=True) == "bücher.example"
    # An opaque host (non-special scheme) is not a domain: shown as serialized.
    assert U.parse("foo://xn--bcher-kva.example/").display() == "foo://xn--bcher-kva.example/"
    assert U.parse("foo://%C3%A9/").display() == "foo://%C3%A9/"
    assert U.parse("http://[::1]:8080/").display() == "http://[::1]:8080/"
    # A label domain to Unicode refuses stays as it is.
    assert U.parse("http://xn--a.example/").display() == "http://xn--a.example/"


def test_percent_decoding_keeps_meaning() -> None:
    u = U.parse("https://h.example/caf%C3%A9/%E6%97%A5%E6%9C%AC?q=%C3%A9#%C3%A9")
    assert u.display() == "https://h.example/café/日本?q=é#é"
    # Reserved ASCII, %25 and a space keep their escapes; unreserved ASCII is decoded.
    assert U.parse("http://h/a%2Fb%3F%23%26%3D%25%20%41%7E").display() == (
        "http://h/a%2Fb%3F%23%26%3D%25%20A~")
    # Invalid UTF-8 is not decoded; a valid neighbour is.
    assert U.parse("http://h/%FF%C3%A9%C3").display() == "http://h/%FFé%C3"
    # A hex digit right after a stray "%" stays encoded: "%%34%31" means "%" "4" "1".
    assert U.parse("http://h/%%34%31").display() == "http://h/%%341"
    assert U.parse("http://h/%4%31").display() == "http://h/%4%31"


@pytest.mark.parametrize("escaped", [
    "%E2%80%AE",  # U+202E RIGHT-TO-LEFT OVERRIDE (bidi)
    "%E2%81%A6",  # U+2066 LEFT-TO-RIGHT ISOLATE
    "%E2%80%8F",  # U+200F RIGHT-TO-LEFT MARK
    "%E2%80%8B",  # U+200B ZERO WIDTH SPACE
    "%C2%A0",  # U+00A0 NO-BREAK SPACE
    "%E3%80%80",  # U+3000 IDEOGRAPHIC SPACE
    "%E2%80%A8",  # U+2028 LINE SEPARATOR
    "%C2%85",  # U+0085, a C1 control
    "%00", "%1F", "%7F",  # C0 controls, DEL
    "%EF%BB%BF",  # U+FEFF (a BOM is not decoded either)
    "%E3%85%A4",  # U+3164 HANGUL FILLER (default ignorable)
    "%EF%B8%8F",  # U+FE0F VARIATION SELECTOR-16
    "%F0%9F%94%92",  # U+1F512 LOCK, the Standard's spoofing example
    "%EE%80%80",  # U+E000 private use
    "%EF%BF%BF",  # U+FFFF non-character
])
def test_invisible_or_spoofing_characters_stay_encoded(escaped: str) -> None:
    u = U.parse(f"https://h.example/a{escaped}b?{escaped}#{escaped}")
    assert u.display() == f"https://h.example/a{escaped}b?{escaped}#{escaped}"


def test_optional_parts() -> None:
    u = U.parse("https://u:p@h.example:8443/p?q=1#frag")
    assert u.display(scheme=False) == "h.example:8443/p?q=1#frag"
    assert u.display(query=False) == "https://h.example:8443/p#frag"
    assert u.display(fragment=False) == "https://h.example:8443/p?q=1"
    assert u.display(host_only=True) == "h.example"
    assert u.display(isolate=True) == "\u2066https://h.example:8443/p?q=1#frag\u2069"
    # An empty query or fragment is kept: "h/?" and "h/" are different URLs.
    assert U.parse("http://h/?#").display() == "http://h/?#"


def test_urls_without_a_host() -> None:
    assert U.parse("mailto:%E2%82%AC@example.org").display() == "mailto:€@example.org"
    assert U.parse("web+x:/.//p%41").display() == "web+x:/.//pA"
    assert U.parse("data:text/plain,%C3%A9").display(host_only=True) == "data:text/plain,é"


def test_elision_keeps_the_host_and_cuts_whole_labels() -> None:
    # §4.8: examplecorp.com.evil.com is elided as ...com.evil.com, from the lowest label.
    u = U.parse("https://examplecorp.com.evil.com/a/long/path")
    assert u.display(max_length=100) == "https://examplecorp.com.evil.com/a/long/path"
    assert u.display(max_length=24) == "https://…com.evil.com/…h"
    assert u.display(host_only=True, max_length=16) == "…com.evil.com"
    # Never below the last two labels (the registrable domain needs the PSL).
    assert u.display(host_only=True, max_length=3) == "…evil.com"
    # An IP address is never cut.
    assert U.parse("http://192.168.100.200/").display(host_only=True, max_length=3) == (
        "192.168.100.200")
    # The rest loses its middle.
    v = U.parse("https://h.example/abcdefghijklmnopqrstuvwxyz")
    assert v.display(max_length=30) == "https://h.example/abcde…uvwxyz"
    assert v.display(max_length=19) == "https://h.example/…"


@settings(max_examples=60, deadline=None)
@given(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x2FFFF,
                             blacklist_categories=("Cs",)), max_size=30))
def test_display_never_shows_a_hidden_character(path: str) -> None:
    u = U.parse("https://h.example/" + path.replace("#", "").replace("?", ""))
    shown = u.display()
    assert not any(_display._keep_encoded(ch) for ch in shown), (path, shown)
    # Decoding and showing never drops characters that were escapes: re-encoding the
    # shown text with the path set gives back the same URL.
    assert U.parse(shown).href == u.href


def test_bad_arguments() -> None:
    u = U.parse("http://h/")
    with pytest.raises(PercentEncodingTypeError):
        u.display(max_length=-1)
    with pytest.raises(PercentEncodingTypeError):
        u.display(max_length="3")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        u.display(query=1)  # type: ignore[arg-type]


def test_doctests() -> None:
    assert doctest.testmod(_display).failed == 0
    runner = doctest.DocTestRunner()
    for t in doctest.DocTestFinder().find(U.URL.display, "display", globs={"parse": U.parse}):
        runner.run(t)
    assert runner.failures == 0 and runner.tries >= 2
