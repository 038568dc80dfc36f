"""data: URLs (Fetch §6), forgiving-base64 (Infra §7) and MIME types (MIME Sniffing §4.4-4.5):
wpt's data-urls.json and base64.json, the Standards' own cases, properties."""

from __future__ import annotations

import base64
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import data_path
from percent_encoding import data_url, url
from percent_encoding.data_url import DEFAULT_MIME_TYPE, DataURL, MIMEType
from percent_encoding.errors import DataURLError, PercentEncodingError, PercentEncodingTypeError

pytestmark = pytest.mark.one_impl

def _outcome(href: str) -> tuple[str, list[int]] | None:
    try:
        r = data_url.parse(href)
    except DataURLError:
        return None
    return r.mime_type, list(r.body)


def test_wpt_data_urls() -> None:
    # The current wpt file (70 vectors; tests/data/wpt/README.md): the Fetch Standard's
    # data: URL processor (§6) with MIME Sniffing's parameter rules (§4.4-4.5).
    vectors = json.loads(data_path("wpt", "data-urls.json").read_text(encoding="utf-8"))
    assert len(vectors) == 70
    failures = []
    for v in vectors:
        href, mime = v[0], v[1]
        want: Any = None if mime is None else (mime or DEFAULT_MIME_TYPE, v[2])
        if _outcome(href) != want:
            failures.append((href, _outcome(href), want))
    assert failures == []


def test_wpt_base64() -> None:
    vectors = json.loads(data_path("wpt", "base64.json").read_text(encoding="utf-8"))
    assert len(vectors) == 80
    failures = []
    for text, want in vectors:
        try:
            got: list[int] | None = list(data_url.forgiving_base64_decode(text))
        except DataURLError:
            got = None
        # wpt runs each as fetch("data:;base64," + input): through the URL parser too.
        through_url = _outcome("data:;base64," + text)
        if got != want or (through_url is None) != (want is None) or (
                through_url is not None and through_url[1] != want):
            failures.append((text, got, through_url, want))
    assert failures == []


# Cases of wpt's data-urls.json and of the Standards, each spelled out.
CURRENT = [
    ("data:", None),
    ("data:text/html", None),
    ("data:text/html    ;charset=x   ", None),
    ("data:,", (DEFAULT_MIME_TYPE, [])),
    ("data:text / html,X", (DEFAULT_MIME_TYPE, [88])),
    ("data:;  base64,WA", (DEFAULT_MIME_TYPE, [88])),
    ("data:  ;charset=x   ;  base64,WA", ("text/plain;charset=x", [88])),
    ("data:;base64   ,WA", (DEFAULT_MIME_TYPE, [88])),
    ("data:text/plain;a=b;base64,WA", ("text/plain;a=b", [88])),
    ("data:;base64,W A", (DEFAULT_MIME_TYPE, [88])),
    ("data:text/plain,%", ("text/plain", [37])),
    ("data:text/plain,X%%", ("text/plain", [88, 37, 37])),
    ("data:text/plain;Charset=UTF-8,X%0", ("text/plain;charset=UTF-8", [88, 37, 48])),
    ("DATA:,x", (DEFAULT_MIME_TYPE, [120])),
    ("data:,a#b,c", (DEFAULT_MIME_TYPE, [97])),  # the fragment is excluded
    ("data:;base64,%", None),
    ("data:;base64,WA=", None),  # "WA=" is 3 long: not a multiple of 4, "=" stays, fails
    ("data:;base64,WA==", (DEFAULT_MIME_TYPE, [88])),
    ("http://example.com/,x", None),
]


@pytest.mark.parametrize(("href", "want"), CURRENT)
def test_current_standard(href: str, want: tuple[str, list[int]] | None) -> None:
    assert _outcome(href) == want


def test_parse_takes_a_parsed_url_and_reports_positions() -> None:
    u = url.parse("data:text/plain;base64,aGk=#frag")
    assert data_url.parse(u) == DataURL("text/plain", b"hi")
    with pytest.raises(DataURLError) as e:
        data_url.parse("data:;base64,a")
    assert e.value.position == 13
    with pytest.raises(DataURLError) as e:
        data_url.parse("https://example.com/,a")
    assert e.value.position == 0
    with pytest.raises(DataURLError) as e:
        data_url.parse("data://h:x/,a")  # the URL parser fails
    assert isinstance(e.value, PercentEncodingError) and isinstance(e.value, ValueError)
    for bad in (None, b"data:,x", 3):
        with pytest.raises(PercentEncodingTypeError):
            data_url.parse(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(("text", "want"), [
    ("text/html;charset=gbk", MIMEType("text", "html", (("charset", "gbk"),))),
    ("TEXT/HTML;CHARSET=GBK", MIMEType("text", "html", (("charset", "GBK"),))),
    ("text/html;charset=gbk;charset=windows-1252",
     MIMEType("text", "html", (("charset", "gbk"),))),
    ('text/html;charset="shift_jis"iso-2022-jp',
     MIMEType("text", "html", (("charset", "shift_jis"),))),  # MIME Sniffing §4.4 example
    (" text/html ; charset = x ", MIMEType("text", "html", ())),
    ("text/html;charset=", MIMEType("text", "html", ())),
    ('text/html;charset=""', MIMEType("text", "html", (("charset", ""),))),
    ('text/html;a="\\', MIMEType("text", "html", (("a", "\\"),))),
    ("text/html;\u00e9=x;a=\u00e9", MIMEType("text", "html", (("a", "\u00e9"),))),
    ("text/html;a=\u0100", MIMEType("text", "html", ())),
    ("text/", None), ("/html", None), ("text", None), ("te xt/html", None), ("", None),
    ("text/html\u00e9", None),
])
def test_parse_mime_type(text: str, want: MIMEType | None) -> None:
    assert data_url.parse_mime_type(text) == want


def test_serialize_mime_type() -> None:
    m = MIMEType("text", "plain", (("a", 'x"y\\z'), ("b", ""), ("c", "tok")))
    assert data_url.serialize_mime_type(m) == 'text/plain;a="x\\"y\\\\z";b="";c=tok'
    with pytest.raises(PercentEncodingTypeError):
        data_url.serialize_mime_type("text/plain")  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(st.text(st.sampled_from(list('ab/;="\\ \t,X\u00e9')), max_size=24))
def test_mime_type_serialization_is_a_fixed_point(text: str) -> None:
    m = data_url.parse_mime_type(text)
    if m is not None:
        s = data_url.serialize_mime_type(m)
        assert data_url.parse_mime_type(s) == m


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=40), st.sampled_from(["", " ", "\n", "\t\r\f"]))
def test_forgiving_base64_reads_rfc4648_with_and_without_padding(raw: bytes, ws: str) -> None:
    enc = base64.b64encode(raw).decode()
    assert data_url.forgiving_base64_decode(enc) == raw
    assert data_url.forgiving_base64_decode(enc.rstrip("=")) == raw
    assert data_url.forgiving_base64_decode(ws.join(enc)) == raw
    href = "data:application/octet-stream;base64," + enc
    assert data_url.parse(href) == DataURL("application/octet-stream", raw)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=40))
def test_percent_encoded_bodies_round_trip(raw: bytes) -> None:
    from percent_encoding import core

    href = "data:," + core.encode(raw, "component")
    assert data_url.parse(href).body == raw


def test_forgiving_base64_errors_have_positions() -> None:
    with pytest.raises(DataURLError) as e:
        data_url.forgiving_base64_decode(" ab\u00e9d")
    assert e.value.position == 3
    with pytest.raises(DataURLError) as e:
        data_url.forgiving_base64_decode("ab=cd")
    assert e.value.position == 2
    with pytest.raises(DataURLError):
        data_url.forgiving_base64_decode("abcde")
    with pytest.raises(PercentEncodingTypeError):
        data_url.forgiving_base64_decode(b"abcd")  # type: ignore[arg-type]
