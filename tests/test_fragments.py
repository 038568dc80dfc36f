"""percent_encoding.fragments: Media Fragments URI 1.0, RFC 5147, RFC 7111, RFC 8118.

Built from the specs' own examples, and for Media Fragments from the behaviour the
W3C working group's user-agent test cases (TC0001-TC0102) expect of each fragment.
"""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import form, schemes
from percent_encoding.errors import PercentEncodingError, PercentEncodingTypeError
from percent_encoding.fragments import (
    CSVFragment,
    CSVSelection,
    FragmentError,
    IntegrityCheck,
    MediaFragment,
    SMPTETime,
    SpatialRegion,
    TemporalRange,
    build_csv,
    build_media,
    build_pdf,
    build_text_plain,
    decode_media_pairs,
    parse_csv,
    parse_media,
    parse_pdf,
    parse_text_plain,
)

UTC = dt.timezone.utc


# ---------------------------------------------------------------------------
# Media Fragments URI 1.0 (basic)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(("frag", "start", "end"), [
    # §4.2.1's examples
    ("t=npt:10,20", 10.0, 20.0),
    ("t=npt:,121.5", None, 121.5),
    ("t=0:02:00,121.5", 120.0, 121.5),
    ("t=npt:120,0:02:01.5", 120.0, 121.5),
    ("t=10,20", 10.0, 20.0),
    ("t=10", 10.0, None),
    ("t=3.", 3.0, None),
    ("t=00:00.", 0.0, None),
    ("t=00:00:03,00:00:07", 3.0, 7.0),
])
def test_media_npt(frag: str, start: float | None, end: float | None) -> None:
    assert parse_media(frag).t == TemporalRange("npt", start, end)


def test_media_smpte_and_clock() -> None:
    t = parse_media("t=smpte-30:0:02:00,0:02:01:15").t
    assert t == TemporalRange("smpte-30", SMPTETime(0, 2, 0), SMPTETime(0, 2, 1, 15))
    t = parse_media("t=smpte:0:00:03:15.00,0:00:07").t
    assert t is not None and t.unit == "smpte" and t.start == SMPTETime(0, 0, 3, 15, 0)
    assert parse_media("t=smpte-25:0:00:03:24").t is not None
    assert parse_media("t=smpte-25:0:00:03:25").t is None  # 25 frames a second
    assert parse_media("t=clock:2009-07-26T11:19:01Z,2009-07-26T11:20:01Z").t == TemporalRange(
        "clock", dt.datetime(2009, 7, 26, 11, 19, 1, tzinfo=UTC),
        dt.datetime(2009, 7, 26, 11, 20, 1, tzinfo=UTC))
    t = parse_media("t=clock:2010-10-22T07:33:56+00:20").t
    assert t is not None and t.start == dt.datetime(2010, 10, 22, 7, 13, 56, tzinfo=UTC)
    assert parse_media("t=clock:,2009-07-26T11:20:01Z").t is not None


@pytest.mark.parametrize("frag", [
    "t=,", "t=3,3", "t=7,3", "t=3,", "t=banana", "t=3,banana", "t=banana,7", "t='3'",
    "t=3-7", "t=3:7", "t=3,7,9", "t%3D3", "t%3d10", "t=-1,3", "T=3,7", "t=", "t=.", "t=.0",
    "t=0s", "t=,0s", "t=00:00:00s", "t=s", "t=npt:", "t=1e-1", "t=0:0:0", "t=0:00:60",
    "t=0:01:60", "t=0:60:00", "t=0:000:000", "t=0:00:10e-1", "t=0:00:60.000", "t=10%26",
    "t=3,7,", "t=foo:7", "t=,0", "t=clock:2009-07-26", "t=smpte:1:2:3",
])
def test_media_invalid_times_are_ignored_or_raise(frag: str) -> None:
    assert parse_media(frag).t is None
    if frag.startswith("t="):
        with pytest.raises(FragmentError):
            parse_media(frag, strict=True)


def test_media_last_valid_occurrence_wins() -> None:
    # §5.1.2, and the W3C test cases TC0053-TC0055, TC0059, TC0085.
    assert parse_media("t=7&t=3").t == TemporalRange("npt", 3.0, None)
    assert parse_media("t=3,7&t=foo").t == TemporalRange("npt", 3.0, 7.0)
    assert parse_media("t=foo:7&t=npt:3").t == TemporalRange("npt", 3.0, None)
    assert parse_media("&&=&=tom&jerry=&t=3&t=meow:0").t == TemporalRange("npt", 3.0, None)
    assert parse_media("u=12&t=3&").t == TemporalRange("npt", 3.0, None)


def test_media_decoding_happens_after_splitting() -> None:
    # §5.1.1: escapes are decoded in the name and the value, after the split.
    assert parse_media("%74=3").t == TemporalRange("npt", 3.0, None)
    assert parse_media("t=%33").t == TemporalRange("npt", 3.0, None)
    assert parse_media("t=3%2C7").t == TemporalRange("npt", 3.0, 7.0)
    assert parse_media("t=npt%3A3").t == TemporalRange("npt", 3.0, None)
    assert parse_media("track=n%40m3%20%26%3D").track == ("n@m3 &=",)
    # Invalid escapes or UTF-8 drop the pair (or raise in strict mode).
    assert decode_media_pairs("a=%zz&b=%C3%A9&c=%FF&d=1") == [("b", "é"), ("d", "1")]
    with pytest.raises(FragmentError) as e:
        decode_media_pairs("a=1&c=%FF", strict=True)
    assert e.value.position == 4


def test_media_differs_from_urlencoded() -> None:
    frag = "track=a+b&id=x;y&t=1"
    # Media fragments: "+" is a plus sign and ";" is an ordinary character.
    assert decode_media_pairs(frag) == [("track", "a+b"), ("id", "x;y"), ("t", "1")]
    # application/x-www-form-urlencoded: "+" is a space.
    assert form.parse(frag) == [("track", "a b"), ("id", "x;y"), ("t", "1")]
    # A pair without "=" is dropped here, kept with an empty value there.
    assert decode_media_pairs("a&b=1") == [("b", "1")]
    assert form.parse("a&b=1") == [("a", ""), ("b", "1")]
    # A malformed escape drops the pair here; urlencoded keeps the "%".
    assert decode_media_pairs("a=%zz") == []
    assert form.parse("a=%zz") == [("a", "%zz")]


@pytest.mark.parametrize(("frag", "want"), [
    ("xywh=160,120,320,240", SpatialRegion("pixel", 160, 120, 320, 240)),
    ("xywh=pixel:160,120,320,240", SpatialRegion("pixel", 160, 120, 320, 240)),
    ("xywh=percent:25,25,50,50", SpatialRegion("percent", 25, 25, 50, 50)),
    ("xywh=200,100,2000,200", SpatialRegion("pixel", 200, 100, 2000, 200)),
    ("xywh=200,100,0,0", None),
    ("xywh=-200,100,200,200", None),
    ("xywh=percent:0,0,150,50", None),
    ("xywh=pixels:1,1,1,1", None),
    ("xywh=1,1,1", None),
    ("xywh=1.5,1,1,1", None),
])
def test_media_spatial(frag: str, want: SpatialRegion | None) -> None:
    assert parse_media(frag).xywh == want
    if want is None:
        with pytest.raises(FragmentError, match=r"4\.2\.2"):
            parse_media(frag, strict=True)


def test_media_track_and_id() -> None:
    f = parse_media("track=1&track=2&id=chapter-1&id=My%20Chapter")
    assert f.track == ("1", "2") and f.id == "My Chapter"
    assert parse_media("#track=Wide%20Angle%20Video").track == ("Wide Angle Video",)
    f = parse_media("t=10&foo=bar")
    assert f.pairs == (("t", "10"), ("foo", "bar"))
    assert f == MediaFragment(t=TemporalRange("npt", 10.0, None))


def test_build_media() -> None:
    assert build_media(t=(10, 20)) == "t=10,20"
    assert build_media(t=(None, 121.5)) == "t=,121.5"
    assert build_media(t=TemporalRange("smpte-30", SMPTETime(0, 2, 0), SMPTETime(0, 2, 1, 15))) \
        == "t=smpte-30:0:02:00,0:02:01:15"
    assert build_media(t=TemporalRange(
        "clock", dt.datetime(2009, 7, 26, 11, 19, 1, tzinfo=UTC), None)) == \
        "t=clock:2009-07-26T11:19:01Z"
    assert build_media(xywh=SpatialRegion("percent", 25, 25, 50, 50)) == \
        "xywh=percent:25,25,50,50"
    assert build_media(track=["a b", "c+d&e=f"], id="é") == \
        "track=a%20b&track=c+d%26e%3Df&id=%C3%A9"
    for bad in ({"t": (20, 10)}, {"t": (None, None)}, {"xywh": (1, 1, 0, 1)},
                {"xywh": SpatialRegion("percent", 0, 0, 150, 10)}, {"t": (-1, 2)}):
        with pytest.raises(FragmentError):
            build_media(**bad)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        build_media(t=3)  # type: ignore[arg-type]


_NAME = st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=8)


@settings(max_examples=60, deadline=None)
@given(
    t=st.one_of(st.none(), st.tuples(st.integers(0, 5000), st.integers(1, 5000)).filter(
        lambda p: p[0] < p[1])),
    xywh=st.one_of(st.none(), st.tuples(*[st.integers(0, 2000)] * 2, *[st.integers(1, 2000)] * 2)),
    track=st.lists(_NAME, max_size=3),
    id_=st.one_of(st.none(), _NAME),
)
def test_media_round_trip(t: tuple[int, int] | None, xywh: tuple[int, int, int, int] | None,
                          track: list[str], id_: str | None) -> None:
    text = build_media(t=t, xywh=xywh, track=track, id=id_)
    f = parse_media(text, strict=True)
    assert f.t == (None if t is None else TemporalRange("npt", float(t[0]), float(t[1])))
    assert f.xywh == (None if xywh is None else SpatialRegion("pixel", *xywh))
    assert f.track == tuple(track) and f.id == id_
    assert build_media(f) == text


def test_media_build_takes_dimension_text() -> None:
    assert build_media(t="npt:10,20", xywh="percent:25,25,50,50") == \
        "t=10,20&xywh=percent:25,25,50,50"
    with pytest.raises(FragmentError):
        build_media(t="20,10")
    with pytest.raises(FragmentError):
        build_media(xywh="1,2,0,4")


@pytest.mark.parametrize("text", [
    "line=10,20", "line=,1", "char=0,280", "line=11", "line=10,20;length=9876,UTF-8",
    "char=5,;md5=b1ca25ae7f10d0ea6fbbf2cb6a0e77e4,ISO-8859-1;length=3",
])
def test_text_plain_build_of_parse_is_the_input(text: str) -> None:
    f = parse_text_plain(text)
    assert f is not None and build_text_plain(f) == text


@pytest.mark.parametrize("text", ["row=5", "row=5-7", "col=5-*", "cell=4,1-6,2;*,*",
                                  "row=5-7;10-12"])
def test_csv_build_of_parse_is_the_input(text: str) -> None:
    f = parse_csv(text)
    assert f is not None and build_csv(f) == text


@pytest.mark.parametrize("text", [
    "page=5", "nameddest=Chapter6", "page=3&comment=452fde0e", "search=%22word1%20word2%22",
    "page=5&zoom=200,250,100", "zoom=50", "page=1&view=FitH,100", "view=Fit",
    "page=1&viewrect=50,50,640,480", "page=2&highlight=10,200,300,400",
])
def test_pdf_build_of_parse_is_the_input(text: str) -> None:
    assert build_pdf(parse_pdf(text)) == text
    assert "page=9" in build_pdf(parse_pdf(text), page=9).split("&")  # a keyword wins


def test_media_registry_row() -> None:
    s = schemes.get("media-fragments")
    assert s.encode("a b+c&d=é") == "a%20b+c%26d%3D%C3%A9"
    assert s.decode("a%20b+c") == "a b+c"
    with pytest.raises(PercentEncodingError):
        s.decode("%FF")
    assert s.encode_pairs is not None and s.encode_pairs([("t", "10,20")]) == "t=10,20"


# ---------------------------------------------------------------------------
# RFC 5147: text/plain
# ---------------------------------------------------------------------------
def test_text_plain_examples() -> None:
    # RFC 5147 §5's examples.
    f = parse_text_plain("line=10,20")
    assert (f.scheme, f.start, f.end, f.is_range, f.integrity) == ("line", 10, 20, True, ())
    f = parse_text_plain("line=,1")
    assert (f.start, f.end, f.is_range) == (None, 1, True)
    f = parse_text_plain("char=0,280")
    assert (f.scheme, f.start, f.end) == ("char", 0, 280)
    f = parse_text_plain("line=11")
    assert (f.start, f.end, f.is_range) == (11, 11, False)
    f = parse_text_plain("line=10,20;length=9876,UTF-8")
    assert f.integrity == (IntegrityCheck("length", 9876, "UTF-8"),)
    f = parse_text_plain("line=10,20;md5=b1ca25ae7f10d0ea6fbbf2cb6a0e77e4")
    assert f.integrity == (IntegrityCheck("md5", "b1ca25ae7f10d0ea6fbbf2cb6a0e77e4"),)
    f = parse_text_plain("#char=5,;md5=B1CA25AE7F10D0EA6FBBF2CB6A0E77E4,ISO-8859-1;length=3")
    assert f.end is None and f.integrity == (
        IntegrityCheck("md5", "b1ca25ae7f10d0ea6fbbf2cb6a0e77e4", "ISO-8859-1"),
        IntegrityCheck("length", 3))


@pytest.mark.parametrize(("frag", "at"), [
    ("line=a", 0), ("line=,", 0), ("pos=1", 0), ("char=-1", 0), ("char=1;foo", 7),
    ("line=1;md5=abc", 7), ("line=1;length=", 7), ("lines=1", 0), ("line=1,2,3", 0),
])
def test_text_plain_errors(frag: str, at: int) -> None:
    with pytest.raises(FragmentError) as e:
        parse_text_plain(frag)
    assert e.value.position == at
    assert parse_text_plain(frag, strict=False) is None  # §4.4: clients ignore it


def test_text_plain_and_csv_names_are_case_insensitive() -> None:
    # RFC 5147 §3 and RFC 7111 §3 write "char=", "line=", "length=", "md5=", "row=",
    # "col=" and "cell=" as ABNF quoted strings, which RFC 5234 §2.3 matches in any case;
    # the results name them in lower case, as the RFCs write them.
    f = parse_text_plain("LINE=10,20;Length=9876,UTF-8;MD5=B1CA25AE7F10D0EA6FBBF2CB6A0E77E4")
    assert f is not None and (f.scheme, f.start, f.end) == ("line", 10, 20)
    assert f.integrity == (IntegrityCheck("length", 9876, "UTF-8"),
                           IntegrityCheck("md5", "b1ca25ae7f10d0ea6fbbf2cb6a0e77e4"))
    assert build_text_plain(f) == (
        "line=10,20;length=9876,UTF-8;md5=b1ca25ae7f10d0ea6fbbf2cb6a0e77e4")
    c = parse_text_plain("Char=5")
    assert c is not None and c.scheme == "char"
    assert parse_csv("Row=5-7") == CSVFragment("row", (CSVSelection(5, 7),))
    assert parse_csv("CELL=4,1-6,2") == CSVFragment("cell", (CSVSelection((4, 1), (6, 2)),))
    assert parse_csv("cOl=2;4-*").kind == "col"  # type: ignore[union-attr]
    for frag in ("l\u0131ne=1", "LINE=1;LENGTH=1;\u0131", "c\u0131ll=1"):  # ASCII case only
        with pytest.raises(FragmentError):
            (parse_csv if frag.startswith("c") else parse_text_plain)(frag)


def test_build_text_plain() -> None:
    assert build_text_plain("line", 10, 20) == "line=10,20"
    assert build_text_plain("line", None, 1) == "line=,1"
    assert build_text_plain("char", 5, is_range=True) == "char=5,"
    assert build_text_plain("line", 11) == "line=11"
    assert build_text_plain("line", 10, 20, length=9876, charset="UTF-8") == \
        "line=10,20;length=9876,UTF-8"
    for bad in ({"scheme": "word", "start": 1}, {"scheme": "line", "start": -1},
                {"scheme": "line", "start": None}, {"scheme": "line", "start": 1, "md5": "xyz"}):
        with pytest.raises(FragmentError):
            build_text_plain(**bad)  # type: ignore[arg-type]
    for text in ("line=10,20;length=9876,UTF-8", "char=,5", "char=7"):
        f = parse_text_plain(text)
        assert f is not None
        lengths = [c for c in f.integrity if c.kind == "length"]
        assert build_text_plain(
            f.scheme, f.start, f.end if f.is_range else None, is_range=f.is_range,
            length=lengths[0].value if lengths else None,  # type: ignore[arg-type]
            charset=lengths[0].charset if lengths else None) == text


# ---------------------------------------------------------------------------
# RFC 7111: text/csv
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(("frag", "kind", "sels"), [
    # RFC 7111 §3's examples.
    ("row=5", "row", [(5, 5)]),
    ("row=5-7", "row", [(5, 7)]),
    ("row=5-*", "row", [(5, "*")]),
    ("col=2", "col", [(2, 2)]),
    ("col=2-4", "col", [(2, 4)]),
    ("col=5-*", "col", [(5, "*")]),
    ("cell=4,1", "cell", [((4, 1), (4, 1))]),
    ("cell=4,1-6,2", "cell", [((4, 1), (6, 2))]),
    ("cell=5,5-*,*", "cell", [((5, 5), ("*", "*"))]),
    ("row=5-7;10-12", "row", [(5, 7), (10, 12)]),
    ("cell=1,1;4,1-6,2;*,*", "cell", [((1, 1), (1, 1)), ((4, 1), (6, 2)), (("*", "*"),) * 2]),
])
def test_csv_examples(frag: str, kind: str, sels: list[tuple[object, object]]) -> None:
    f = parse_csv(frag)
    assert f == CSVFragment(kind, tuple(CSVSelection(a, b) for a, b in sels))  # type: ignore[arg-type]
    assert build_csv(kind, list(f.selections)) == frag


@pytest.mark.parametrize(("frag", "at", "lenient"), [
    ("row=7-5", 4, None), ("row=0", 4, None), ("row=a", 4, None), ("rows=1", 0, None),
    ("row=1;7-5;3", 6, [(1, 1), (3, 3)]), ("cell=1", 5, None), ("cell=1,2-0,3", 5, None),
    ("col=", 4, None), ("row=1-2-3", 4, None),
])
def test_csv_errors(frag: str, at: int, lenient: list[tuple[int, int]] | None) -> None:
    with pytest.raises(FragmentError) as e:
        parse_csv(frag)
    assert e.value.position == at
    f = parse_csv(frag, strict=False)
    if lenient is None:
        assert f is None
    else:  # a bad selection is dropped, the others kept
        assert f is not None and [(s.start, s.end) for s in f.selections] == lenient


def test_build_csv() -> None:
    assert build_csv("row", [5, (7, 9), (12, "*")]) == "row=5;7-9;12-*"
    assert build_csv("cell", [(4, 1), ((4, 1), (6, 2))]) == "cell=4,1;4,1-6,2"
    for kind, sels in (("row", [0]), ("row", [(9, 7)]), ("rows", [1]), ("row", []),
                       ("cell", [5])):
        with pytest.raises(FragmentError):
            build_csv(kind, sels)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------
# RFC 8118: application/pdf
# ---------------------------------------------------------------------------
def test_pdf_examples() -> None:
    # RFC 8118 §3's parameters, as its examples use them.
    assert parse_pdf("page=5").page == 5
    assert parse_pdf("nameddest=Chapter6").nameddest == "Chapter6"
    assert parse_pdf("Chapter6").nameddest == "Chapter6"  # no "=": a named destination
    f = parse_pdf("page=3&comment=452fde0e-fd22-457c-84aa-2cf5bed5a349")
    assert (f.page, f.comment) == (3, "452fde0e-fd22-457c-84aa-2cf5bed5a349")
    assert parse_pdf("search=%22word1%20word2%22").search == ("word1", "word2")
    assert parse_pdf("page=5&zoom=200,250,100").zoom == (200.0, 250.0, 100.0)
    assert parse_pdf("zoom=50").zoom == (50.0, None, None)
    assert parse_pdf("page=1&view=FitH,100").view == ("FitH", 100.0)
    assert parse_pdf("view=Fit").view == ("Fit", None)
    assert parse_pdf("page=1&viewrect=50,50,640,480").viewrect == (50.0, 50.0, 640.0, 480.0)
    assert parse_pdf("page=2&highlight=10,200,300,400").highlight == (10.0, 200.0, 300.0, 400.0)
    f = parse_pdf("page=2&fdf=http://example.org/a.fdf?b=1&c=2")
    assert f.fdf == "http://example.org/a.fdf?b=1&c=2" and f.page == 2
    f = parse_pdf("page=1&toolbar=0&nameddest=D%C3%BCrst")
    assert f.nameddest == "Dürst" and f.params == (
        ("page", "1"), ("toolbar", "0"), ("nameddest", "Dürst"))


@pytest.mark.parametrize("frag", [
    "page=0", "page=x", "page=-1", "zoom=0", "zoom=1,2", "view=Fitt", "view=Fit,10",
    "viewrect=1,2,3", "highlight=a,b,c,d", "search=word1", "search=%22%22", "comment=1",
    "nameddest=",
])
def test_pdf_invalid_parameters(frag: str) -> None:
    with pytest.raises(FragmentError):
        parse_pdf(frag)
    f = parse_pdf(frag, strict=False)
    assert f.page is None and f.zoom is None and f.view is None and f.search is None


def test_build_pdf() -> None:
    assert build_pdf(page=5, zoom=(200, 250, 100)) == "page=5&zoom=200,250,100"
    assert build_pdf(nameddest="Chapter 6", search=["word1", "word2"]) == \
        "nameddest=Chapter%206&search=%22word1%20word2%22"
    assert build_pdf(page=1, view=("FitH", 100), viewrect=(50, 50, 640, 480)) == \
        "page=1&view=FitH,100&viewrect=50,50,640,480"
    assert build_pdf(page=3, comment="c1", fdf="http://x/a.fdf?b=1&c=2") == \
        "page=3&comment=c1&fdf=http://x/a.fdf?b%3D1%26c%3D2"
    for bad in ({"page": 0}, {"comment": "x"}, {"view": "Fitt"}, {"zoom": 0},
                {"search": ['a"b']}, {"view": ("Fit", 3)}):
        with pytest.raises(FragmentError):
            build_pdf(**bad)  # type: ignore[arg-type]
    text = build_pdf(page=2, nameddest="Dürst & co", search="a b", zoom=150,
                     highlight=(1, 2, 3.5, 4))
    f = parse_pdf(text)
    assert (f.page, f.nameddest, f.search, f.zoom, f.highlight) == (
        2, "Dürst & co", ("a", "b"), (150.0, None, None), (1.0, 2.0, 3.5, 4.0))


def test_numbers_of_any_length_get_our_answer() -> None:
    # int() refuses over 4,300 digits (and is quadratic below): a position with more than
    # a thousand significant digits is invalid syntax, in linear time; leading zeros count
    # for nothing.
    from percent_encoding import fragments as F
    from percent_encoding.errors import FragmentError

    huge = "1" * 5000
    with pytest.raises(FragmentError):
        F.parse_text_plain("char=" + huge)
    with pytest.raises(FragmentError):
        F.parse_text_plain("line=1;length=" + huge)
    assert F.parse_text_plain("char=" + huge, strict=False) is None
    got = F.parse_text_plain("line=" + "0" * 5000 + "5")
    assert got is not None and got.start == 5
    with pytest.raises(FragmentError):
        F.parse_csv("row=" + huge)
    csv = F.parse_csv("row=" + huge + ";2", strict=False)
    assert csv is not None and [s.start for s in csv.selections] == [2]
    assert F.parse_media("xywh=" + huge + ",1,1,1").xywh is None
    assert F.parse_media("t=" + huge + ":00:00").t is None
    assert F.parse_pdf("page=" + huge, strict=False).page is None
