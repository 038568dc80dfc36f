"""Fragment identifiers of media types: Media Fragments, text/plain, text/csv, PDF.

Strategy: each syntax gets a parser that returns a frozen dataclass shaped like
its spec, and a builder that writes the fragment back (without the ``#``):

* W3C Media Fragments URI 1.0 (basic), 2012: a name-value list (§4.1) with its
  own percent-decoding (§5.1.1: split on ``&`` and the first ``=`` first,
  then percent-decode and UTF-8 decode each name and value, dropping a pair
  whose escapes or UTF-8 are invalid; ``+`` is a plus sign), then the
  dimensions ``t`` (§4.2.1), ``xywh`` (§4.2.2), ``track`` (§4.2.3) and ``id``
  (§4.2.4).  The spec has user agents ignore an invalid dimension and use the
  last valid one of each (§5.1.2); :func:`parse_media` does that by default,
  and raises with ``strict=True``.
* RFC 5147 (text/plain): ``char=`` or ``line=`` with a position or range,
  then ``;length=`` and ``;md5=`` integrity checks, each with an optional
  charset.
* RFC 7111 (text/csv): ``row=``, ``col=`` or ``cell=`` with one or more
  ``;``-separated selections; ``*`` is the last row or column.
* RFC 8118 §3 (application/pdf): ``&``-separated parameters (``page``,
  ``nameddest``, ``comment``, ``structelem``, ``search``, ``zoom``, ``view``,
  ``viewrect``, ``highlight``, ``fdf``); a fragment with no ``=`` names a
  destination.

The RFC 5147, 7111 and 8118 parsers raise :class:`FragmentError` (a
:class:`~percent_encoding.errors.PercentEncodingError`, with the position) on
syntax their RFC does not allow; ``strict=False`` gives what a client does
instead (RFC 5147 §4.4 and RFC 7111 §3 ignore a fragment or a selection with
errors, RFC 8118 §3 an unusable parameter).  Every parser is one left-to-right
pass with bounded regular expressions: linear in its input.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from . import _args
from . import core as _core
from ._abnf import UNRESERVED
from ._scheme import Scheme
from .errors import FragmentError, PercentEncodingError, PercentEncodingTypeError
from .sets import EncodeSet

__all__ = [
    "MEDIA_VALUE",
    "SCHEMES",
    "CSVFragment",
    "CSVSelection",
    "FragmentError",
    "IntegrityCheck",
    "MediaFragment",
    "PDFFragment",
    "SMPTETime",
    "SpatialRegion",
    "TemporalRange",
    "TextPlainFragment",
    "build_csv",
    "build_media",
    "build_pdf",
    "build_text_plain",
    "decode_media_pairs",
    "parse_csv",
    "parse_media",
    "parse_pdf",
    "parse_text_plain",
]


def _strip_hash(text: str, func: str) -> str:
    _args.check_str_input(func, text)
    return text[1:] if text.startswith("#") else text


# ===========================================================================
# Media Fragments URI 1.0 (basic)
# ===========================================================================
#: What a name or value of a media fragment keeps as it is (§4.1 ``unistring``:
#: unreserved and the sub-delims, ``:``, ``@``, ``/``, ``?``, but not ``&`` and
#: ``=``, which separate the pairs); the rest is written as UTF-8 ``%XX``.
MEDIA_VALUE = EncodeSet.from_allowed(
    UNRESERVED + "!$'()*+,;:@/?",
    name="media-fragment",
    spec="W3C Media Fragments URI 1.0 (basic) §4.1 (unistring: fragment characters but & and =)",
)


def decode_media_pairs(text: str, *, strict: bool = False) -> list[tuple[str, str]]:
    """The name-value pairs of a media fragment or query (Media Fragments 1.0 §5.1.1).

    Split on ``&``, then each item on its first ``=`` (an item without one is
    dropped), and only then percent-decode and UTF-8 decode name and value:
    an escaped ``%26`` or ``%3D`` stays inside its name or value.  ``+`` is a
    plus sign.  A pair whose escapes are malformed or whose octets are not
    UTF-8 is removed, as §5.1.1 says; ``strict=True`` raises
    :class:`FragmentError` instead.

    >>> decode_media_pairs("t=10,20&track=n%40m3%20%26%3D&a+b=c+d&bad=%FF")
    [('t', '10,20'), ('track', 'n@m3 &='), ('a+b', 'c+d')]
    """
    text = _strip_hash(text, "decode_media_pairs")
    _args.check_bool("strict", strict)
    out: list[tuple[str, str]] = []
    at = 0
    for item in text.split("&"):
        eq = item.find("=")
        if eq > 0 or (eq == 0 and item):
            try:
                name = _core.decode_text(item[:eq], errors="strict", strict=True)
                value = _core.decode_text(item[eq + 1 :], errors="strict", strict=True)
            except PercentEncodingError as e:
                if strict:
                    raise FragmentError(
                        f"the pair at position {at} ({item[:40]!r}) is not valid percent-encoded "
                        f"UTF-8 (Media Fragments 1.0 §5.1.1): {e}",
                        at,
                    ) from None
            else:
                out.append((name, value))
        at += len(item) + 1
    return out


@dataclass(frozen=True, order=True)
class SMPTETime:
    """An SMPTE timecode ``h:mm:ss[:ff[.ss]]`` (Media Fragments 1.0 §4.2.1 ``frametime``)."""

    hours: int
    minutes: int
    seconds: int
    frames: int = 0
    subframes: int = 0

    def __str__(self) -> str:
        out = f"{self.hours}:{self.minutes:02d}:{self.seconds:02d}"
        if self.frames or self.subframes:
            out += f":{self.frames:02d}"
            if self.subframes:
                out += f".{self.subframes:02d}"
        return out


_TimePoint = float | SMPTETime | _dt.datetime


@dataclass(frozen=True)
class TemporalRange:
    """A temporal dimension ``t`` (Media Fragments 1.0 §4.2.1).

    ``unit`` is ``"npt"`` (seconds, as ``float``), ``"smpte"``, ``"smpte-25"``,
    ``"smpte-30"``, ``"smpte-30-drop"`` (:class:`SMPTETime`) or ``"clock"``
    (an aware :class:`datetime.datetime`).  ``start`` ``None`` is the beginning
    of the media (for npt, 0); ``end`` ``None`` its end.  The interval is
    ``[start, end)``.
    """

    unit: str
    start: _TimePoint | None
    end: _TimePoint | None


@dataclass(frozen=True)
class SpatialRegion:
    """A spatial dimension ``xywh`` (Media Fragments 1.0 §4.2.2): a rectangle in
    ``"pixel"`` or ``"percent"`` units, top-left corner ``(x, y)``, size ``w`` by ``h``."""

    unit: str
    x: int
    y: int
    w: int
    h: int


@dataclass(frozen=True)
class MediaFragment:
    """A parsed media fragment (Media Fragments 1.0 §4.2, §5.1.2).

    ``t``, ``xywh`` and ``id``: the last valid occurrence of each dimension, or
    ``None``; ``track``: every valid ``track`` in order (§4.2.3 selects one
    track per occurrence); ``pairs``: every name-value pair §5.1.1 kept,
    decoded, unknown names included (they are not errors: other applications
    may use them).
    """

    t: TemporalRange | None = None
    xywh: SpatialRegion | None = None
    track: tuple[str, ...] = ()
    id: str | None = None
    pairs: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)


# §4.2.1: npt-sec / npt-mmss / npt-hhmmss, mm and ss two digits (0-59).
_NPT = re.compile(
    r"(?:(?P<h>[0-9]+):(?P<m1>[0-9]{2}):(?P<s1>[0-9]{2})(?P<f1>\.[0-9]*)?"
    r"|(?P<m2>[0-9]{2}):(?P<s2>[0-9]{2})(?P<f2>\.[0-9]*)?"
    r"|(?P<sec>[0-9]+(?:\.[0-9]*)?))"
)
# frametime = 1*DIGIT ":" 2DIGIT ":" 2DIGIT [ ":" 2DIGIT [ "." 2DIGIT ] ]
_SMPTE = re.compile(r"([0-9]+):([0-9]{2}):([0-9]{2})(?::([0-9]{2})(?:\.([0-9]{2}))?)?")
# RFC 3339 date-time (the clock format's datetime).
_CLOCK = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?"
    r"(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))"
)
_SMPTE_UNITS = ("smpte", "smpte-25", "smpte-30", "smpte-30-drop")
# smpte-25 counts 25 frames a second; the others 30 (§4.2.1).
_FRAMES = {"smpte": 30, "smpte-25": 25, "smpte-30": 30, "smpte-30-drop": 30}


# A number is read in time linear in its digits: int() of a long digit string is
# quadratic (CPython refuses more than 4,300 digits).  A position or time with more
# than this many significant digits is out of any range the specs mean: it is read as
# invalid syntax, like a value the grammar does not allow.
_MAX_DIGITS = 1000


class _HugeNumber(Exception):
    """A number with more than _MAX_DIGITS significant digits (caught where it is read)."""


def _int(digits: str) -> int:
    significant = digits.lstrip("0")
    if len(significant) > _MAX_DIGITS:
        raise _HugeNumber
    return int(significant or "0")


def _npt(text: str) -> float | None:
    m = _NPT.fullmatch(text)
    if m is None:
        return None
    if m["sec"] is not None:
        return float(m["sec"] if not m["sec"].endswith(".") else m["sec"][:-1])
    try:
        hours = _int(m["h"]) if m["h"] is not None else 0
    except _HugeNumber:
        return None
    minutes = int(m["m1"] if m["m1"] is not None else m["m2"])
    sec = int(m["s1"] if m["s1"] is not None else m["s2"])
    frac = m["f1"] if m["f1"] is not None else m["f2"]
    if minutes > 59 or sec > 59:
        return None
    return float(hours * 3600 + minutes * 60 + sec) + (
        float("0" + frac) if frac and frac != "." else 0.0)


def _smpte(text: str, unit: str) -> SMPTETime | None:
    m = _SMPTE.fullmatch(text)
    if m is None:
        return None
    try:
        t = SMPTETime(*(_int(g) if g is not None else 0 for g in m.groups()))
    except _HugeNumber:
        return None
    if t.minutes > 59 or t.seconds > 59 or t.frames >= _FRAMES[unit]:
        return None
    return t


def _clock(text: str) -> _dt.datetime | None:
    m = _CLOCK.fullmatch(text)
    if m is None:
        return None
    y, mo, d, hh, mi, ss = (int(g) for g in m.groups()[:6])
    micro = int((m[7][1:] + "000000")[:6]) if m[7] else 0
    if m[8]:
        tz = _dt.timezone.utc
    else:
        off = _dt.timedelta(hours=int(m[10]), minutes=int(m[11]))
        tz = _dt.timezone(-off if m[9] == "-" else off)
    try:
        return _dt.datetime(y, mo, d, hh, mi, min(ss, 59), micro, tzinfo=tz)
    except ValueError:
        return None


_TIME_FORMAT = re.compile(r"(?:(npt|clock|smpte|smpte-25|smpte-30|smpte-30-drop):)?(.*)", re.S)


def _temporal(value: str) -> TemporalRange | None:
    # A format name is one of §4.2.1's; without one the time is npt (whose
    # h:mm:ss form also holds ":"; anything else fails the npt grammar).
    m = _TIME_FORMAT.fullmatch(value)
    assert m is not None
    unit = m[1] or "npt"
    start_s, comma, end_s = m[2].partition(",")
    if (not start_s and not end_s) or (comma and not end_s):
        return None  # "t=", "t=," and "t=3,": an end after "," is required
    start: _TimePoint | None = None
    end: _TimePoint | None = None
    if unit == "npt":
        start, end = (_npt(start_s) if start_s else None), (_npt(end_s) if end_s else None)
    elif unit == "clock":
        start, end = (_clock(start_s) if start_s else None), (_clock(end_s) if end_s else None)
    else:
        start = _smpte(start_s, unit) if start_s else None
        end = _smpte(end_s, unit) if end_s else None
    if (start_s and start is None) or (end_s and end is None):
        return None
    if start is not None and end is not None and not start < end:  # type: ignore[operator]
        return None  # §4.2.1: the begin time must be before the end time
    if unit == "npt" and start is None and end == 0:
        return None  # [0, 0) is empty
    return TemporalRange(unit, start, end)


_XYWH = re.compile(r"(?:(pixel|percent):)?([0-9]+),([0-9]+),([0-9]+),([0-9]+)")


def _spatial(value: str) -> SpatialRegion | None:
    m = _XYWH.fullmatch(value)
    if m is None:
        return None
    unit = m[1] or "pixel"
    try:
        x, y, w, h = (_int(g) for g in m.groups()[1:])
    except _HugeNumber:
        return None
    if w == 0 or h == 0:
        return None  # §4.2.2: width and height must be greater than zero
    if unit == "percent" and max(x, y, w, h) > 100:
        return None  # each percentage is between 0 and 100
    return SpatialRegion(unit, x, y, w, h)


# The dimensions with a syntax of their own: name -> (reader, kind, section).
_DIMENSIONS: dict[str, tuple[Callable[[str], object], str, str]] = {
    "t": (_temporal, "temporal", "§4.2.1"),
    "xywh": (_spatial, "spatial", "§4.2.2"),
}


def parse_media(fragment: str, *, strict: bool = False) -> MediaFragment:
    """Parse a media fragment (W3C Media Fragments URI 1.0 (basic), §4 and §5.1).

    The name-value pairs are read as §5.1.1 says (see :func:`decode_media_pairs`),
    then the dimensions: ``t`` (npt, smpte, clock; §4.2.1), ``xywh`` (pixel,
    percent; §4.2.2), ``track`` (§4.2.3), ``id`` (§4.2.4).  Names are
    case-sensitive; unknown ones are kept in ``pairs`` only.  As §5.1.2 has
    user agents do, an invalid dimension is ignored and the last valid
    occurrence of each wins; ``strict=True`` raises :class:`FragmentError`
    for an invalid dimension or pair instead.  A leading ``#`` is skipped.

    >>> f = parse_media("t=npt:10,20&xywh=percent:25,25,50,50&track=audio&id=chapter-1")
    >>> f.t, f.xywh.w, f.track, f.id
    (TemporalRange(unit='npt', start=10.0, end=20.0), 50, ('audio',), 'chapter-1')
    >>> parse_media("t=0:02:00,121.5").t
    TemporalRange(unit='npt', start=120.0, end=121.5)
    >>> parse_media("t=7&t=banana").t.start
    7.0
    """
    pairs = decode_media_pairs(fragment, strict=strict)
    last: dict[str, object] = {}  # the last valid t, xywh and id (§5.1.2)
    track: list[str] = []
    for name, value in pairs:
        if name in _DIMENSIONS:
            read, what, section = _DIMENSIONS[name]
            got = read(value)
            if got is not None:
                last[name] = got
            elif strict:
                raise FragmentError(f"{name}={value[:40]!r} is not a valid {what} dimension "
                                    f"(Media Fragments 1.0 {section})", None)
        elif name == "track":
            track.append(value)
        elif name == "id":
            last["id"] = value
    t, xywh, id_ = last.get("t"), last.get("xywh"), last.get("id")
    assert t is None or isinstance(t, TemporalRange)
    assert xywh is None or isinstance(xywh, SpatialRegion)
    assert id_ is None or isinstance(id_, str)
    return MediaFragment(t, xywh, tuple(track), id_, tuple(pairs))


def _format_seconds(x: float) -> str:
    text = repr(float(x))
    if "e" in text or "E" in text:
        text = f"{x:.9f}"
    if "." in text:
        text = text.rstrip("0").rstrip(".")
    return text


def _format_point(p: _TimePoint, unit: str) -> str:
    if unit == "npt":
        if not isinstance(p, (int, float)) or isinstance(p, bool) or p < 0 or p != p:
            raise FragmentError(f"an npt time is a non-negative number of seconds, not {p!r}", None)
        return _format_seconds(float(p))
    if unit == "clock":
        if not isinstance(p, _dt.datetime) or p.tzinfo is None:
            raise FragmentError(f"a clock time is an aware datetime, not {p!r}", None)
        text = p.isoformat()
        return text[:-6] + "Z" if text.endswith("+00:00") else text
    if not isinstance(p, SMPTETime):
        raise FragmentError(f"an {unit} time is an SMPTETime, not {p!r}", None)
    return str(p)


def build_media(
    fragment: MediaFragment | None = None,
    *,
    t: TemporalRange | tuple[float | None, float | None] | str | None = None,
    xywh: SpatialRegion | tuple[int, int, int, int] | str | None = None,
    track: Iterable[str] = (),
    id: str | None = None,
) -> str:
    """Write a media fragment (Media Fragments URI 1.0 (basic) §4), without the ``#``.

    Pass a :class:`MediaFragment` or the dimensions: ``t`` as a
    :class:`TemporalRange`, an npt ``(start, end)`` pair of seconds (``None``
    for an open end) or its text (``"npt:10,20"``), ``xywh`` as a
    :class:`SpatialRegion`, a pixel ``(x, y, w, h)`` or its text, ``track``
    names and an ``id``.  Names and values
    are percent-encoded as UTF-8 with :data:`MEDIA_VALUE` (``&``, ``=``, ``%``,
    space and non-ASCII escaped; ``+`` kept, since it means a plus sign).  A
    value the parser would reject raises :class:`FragmentError`.

    >>> build_media(t=(10, 20), xywh=(160, 120, 320, 240), track=["video 1"], id="a&b")
    't=10,20&xywh=160,120,320,240&track=video%201&id=a%26b'
    >>> build_media(parse_media("t=npt:,121.5&xywh=percent:25,25,50,50"))
    't=,121.5&xywh=percent:25,25,50,50'
    """
    if fragment is not None:
        if not isinstance(fragment, MediaFragment):
            raise _args_type("build_media", "a MediaFragment", fragment)
        t, xywh = t or fragment.t, xywh or fragment.xywh
        track = _strings(track, "build_media", "track names") or list(fragment.track)
        id = id if id is not None else fragment.id
    tracks = _strings(track, "build_media", "track names (str or an iterable of str)")
    if id is not None:
        _args.check_str_input("build_media", id)
    parts: list[str] = []
    if t is not None:
        if isinstance(t, str):
            parsed_t = _temporal(t)
            if parsed_t is None:
                raise FragmentError(f"t={t[:40]!r} is not a valid temporal dimension "
                                    "(Media Fragments 1.0 §4.2.1)", None)
            t = parsed_t
        if isinstance(t, TemporalRange):
            tr = t
        else:
            start_end = _items(t, (2,), "build_media", "t as a TemporalRange or (start, end)")
            tr = TemporalRange("npt", *start_end)  # type: ignore[arg-type]
        if tr.unit not in ("npt", "clock", *_SMPTE_UNITS):
            raise FragmentError(
                f"unknown time format {tr.unit!r} (Media Fragments 1.0 §4.2.1)", None)
        if tr.start is None and tr.end is None:
            raise FragmentError("a temporal dimension needs a start or an end", None)
        start = "" if tr.start is None else _format_point(tr.start, tr.unit)
        end = "" if tr.end is None else "," + _format_point(tr.end, tr.unit)
        text = ("" if tr.unit == "npt" else tr.unit + ":") + start + end
        if _temporal(text) is None:
            raise FragmentError(f"t={text} is not valid: the start must be before the end "
                                "(Media Fragments 1.0 §4.2.1)", None)
        parts.append("t=" + text)
    if xywh is not None:
        if isinstance(xywh, str):
            parsed_s = _spatial(xywh)
            if parsed_s is None:
                raise FragmentError(f"xywh={xywh[:40]!r} is not a valid spatial dimension "
                                    "(Media Fragments 1.0 §4.2.2)", None)
            xywh = parsed_s
        if isinstance(xywh, SpatialRegion):
            sr = xywh
        else:
            box = _items(xywh, (4,), "build_media", "xywh as a SpatialRegion or (x, y, w, h)")
            sr = SpatialRegion("pixel", *box)  # type: ignore[arg-type]
        text = ("" if sr.unit == "pixel" else sr.unit + ":") + f"{sr.x},{sr.y},{sr.w},{sr.h}"
        if not all(type(v) is int and v >= 0 for v in (sr.x, sr.y, sr.w, sr.h)) or \
                _spatial(text) is None:
            raise FragmentError(f"xywh={text} is not a valid region (Media Fragments 1.0 "
                                "§4.2.2: whole numbers, width and height above 0)", None)
        parts.append("xywh=" + text)
    for name in tracks:
        parts.append("track=" + _core.encode(name, MEDIA_VALUE))
    if id is not None:
        parts.append("id=" + _core.encode(id, MEDIA_VALUE))
    return "&".join(parts)


def _args_type(func: str, what: str, value: object) -> Exception:
    return PercentEncodingTypeError(f"{func}() takes {what}, not {type(value).__name__}")


def _items(value: object, n: tuple[int, ...], func: str, what: str) -> tuple[object, ...]:
    # A tuple or list of one of the lengths ``n``: anything else is a type error.
    if not isinstance(value, (tuple, list)) or len(value) not in n:
        raise _args_type(func, what, value)
    return tuple(value)


def _strings(value: object, func: str, what: str) -> list[str]:
    # One str, or an iterable of them.
    if isinstance(value, str):
        return [value]
    if isinstance(value, (bytes, bytearray, memoryview, dict)) or not isinstance(value, Iterable):
        raise _args_type(func, what, value)
    out = []
    for v in value:
        if not isinstance(v, str):
            raise _args_type(func, what, v)
        out.append(v)
    return out


# ===========================================================================
# RFC 5147: text/plain
# ===========================================================================
@dataclass(frozen=True)
class IntegrityCheck:
    """An RFC 5147 §3 integrity check: ``length`` (an ``int``, the length of the
    whole entity) or ``md5`` (32 hex digits of its MD5, lower-cased), and the
    optional ``mime-charset`` it was computed in."""

    kind: str
    value: int | str
    charset: str | None = None


@dataclass(frozen=True)
class TextPlainFragment:
    """An RFC 5147 text/plain fragment: ``scheme`` ``"char"`` or ``"line"``; a
    position (``end is start``... see below) or a range.

    A position is ``start`` with ``end`` equal to it and ``is_range`` false; a
    range has ``is_range`` true and ``start``/``end`` ``None`` where the
    fragment leaves them out (``line=,5``: from the start; ``line=5,``: to the
    end).  _Positions count from 0 and point between characters or lines.
    """

    scheme: str
    start: int | None
    end: int | None
    is_range: bool
    integrity: tuple[IntegrityCheck, ...] = ()


# §3 writes "char=", "line=", "length=" and "md5=" as ABNF quoted strings, which match
# in any case (RFC 5234 §2.3).
_TEXT_SCHEME = re.compile(r"((?ai:char|line))=(?:([0-9]+)|([0-9]+)?,([0-9]+)?)")
# mime-charset-chars (RFC 2978): ALPHA DIGIT ! # $ % & ' + - ^ _ ` { } ~, which a URI
# fragment may carry percent-encoded.
_INTEGRITY = re.compile(
    r"((?ai:length)=([0-9]+)|(?ai:md5)=([0-9A-Fa-f]{32}))"
    r"(?:,((?:[A-Za-z0-9!$&'+\-_~]|%[0-9A-Fa-f]{2})+))?"
)


def _text_error(msg: str, at: int, strict: bool) -> None:
    if strict:
        raise FragmentError(msg + " (RFC 5147 §3); pass strict=False to ignore it", at)


def parse_text_plain(fragment: str, *, strict: bool = True) -> TextPlainFragment | None:
    """Parse a text/plain fragment identifier (RFC 5147 §3).

    ``char=`` or ``line=`` with a position (``line=10``) or a range
    (``line=10,20``, ``line=,20``, ``line=10,``), then ``;length=N`` or
    ``;md5=HEX`` checks, each with ``,charset``.  Syntax the RFC does not
    allow raises :class:`FragmentError` with its position; with
    ``strict=False`` the result is ``None`` instead, as §4.4 has clients
    ignore such a fragment.  A leading ``#`` is skipped.

    >>> f = parse_text_plain("line=10,20;length=9876,UTF-8")
    >>> f.scheme, f.start, f.end, f.is_range
    ('line', 10, 20, True)
    >>> f.integrity
    (IntegrityCheck(kind='length', value=9876, charset='UTF-8'),)
    >>> parse_text_plain("char=,280").start is None
    True
    """
    text = _strip_hash(fragment, "parse_text_plain")
    _args.check_bool("strict", strict)
    pieces = text.split(";")
    m = _TEXT_SCHEME.fullmatch(pieces[0])
    if m is None or (m[2] is None and m[3] is None and m[4] is None):
        _text_error(f"{pieces[0][:40]!r} is not char= or line= with a position or range", 0,
                    strict)
        return None
    start: int | None
    end: int | None
    try:
        if m[2] is not None:
            start = end = _int(m[2])
            is_range = False
        else:
            start = _int(m[3]) if m[3] is not None else None
            end = _int(m[4]) if m[4] is not None else None
            is_range = True
    except _HugeNumber:
        _text_error(f"a position in {pieces[0][:40]!r} has more than {_MAX_DIGITS} digits",
                    0, strict)
        return None
    checks: list[IntegrityCheck] = []
    at = len(pieces[0]) + 1
    for piece in pieces[1:]:
        c = _INTEGRITY.fullmatch(piece)
        if c is None:
            _text_error(f"{piece[:40]!r} at position {at} is not a length= or md5= check", at,
                        strict)
            return None
        charset = None if c[4] is None else _core.decode_text(c[4])
        if c[2] is not None:
            try:
                length = _int(c[2])
            except _HugeNumber:
                _text_error(f"the length at position {at} has more than {_MAX_DIGITS} digits",
                            at, strict)
                return None
            checks.append(IntegrityCheck("length", length, charset))
        else:
            checks.append(IntegrityCheck("md5", c[3].lower(), charset))
        at += len(piece) + 1
    return TextPlainFragment(m[1].lower(), start, end, is_range, tuple(checks))


_CHARSET_SET = EncodeSet.from_allowed(UNRESERVED + "!$&'+", name="rfc5147-mime-charset")


def build_text_plain(
    scheme: str | TextPlainFragment,
    start: int | None = None,
    end: int | None = None,
    *,
    is_range: bool | None = None,
    length: int | None = None,
    md5: str | None = None,
    charset: str | None = None,
) -> str:
    """Write a text/plain fragment identifier (RFC 5147 §3), without the ``#``.

    ``scheme`` is ``"char"`` or ``"line"``; ``start`` alone is a position,
    ``start`` and ``end`` a range (either may be ``None`` for an open range;
    ``is_range=True`` forces ``start,``).  ``length`` and ``md5`` add the
    integrity checks, each followed by ``charset`` when given.  Or pass a
    :class:`TextPlainFragment` alone (what :func:`parse_text_plain` gives).
    Negative or non-``int`` positions, a malformed MD5 or an unknown scheme
    raise :class:`FragmentError`.

    >>> build_text_plain("line", 10, 20, length=9876, charset="UTF-8")
    'line=10,20;length=9876,UTF-8'
    >>> build_text_plain("char", 0, md5="D41D8CD98F00B204E9800998ECF8427E")
    'char=0;md5=d41d8cd98f00b204e9800998ecf8427e'
    >>> build_text_plain(parse_text_plain("line=,1;length=9"))
    'line=,1;length=9'
    """
    checks: list[IntegrityCheck] = []
    if isinstance(scheme, TextPlainFragment):
        f = scheme
        scheme, start, end, is_range = f.scheme, f.start, f.end, f.is_range
        if not is_range:
            end = None
        checks = list(f.integrity)
    elif not isinstance(scheme, str):
        raise _args_type("build_text_plain", "'char', 'line' or a TextPlainFragment", scheme)
    if charset is not None:
        _args.check_str_input("build_text_plain", charset)
    if length is not None:
        checks.append(IntegrityCheck("length", length, charset))
    if md5 is not None:
        checks.append(IntegrityCheck("md5", md5, charset))
    if scheme not in ("char", "line"):
        raise FragmentError(f"scheme is 'char' or 'line' (RFC 5147 §3), not {scheme!r}", None)
    for v in (start, end):
        if v is not None and (type(v) is not int or v < 0):
            raise FragmentError(f"positions are whole numbers >= 0, not {v!r}", None)
    ranged = (end is not None or start is None) if is_range is None else is_range
    if ranged:
        out = f"{scheme}={'' if start is None else start},{'' if end is None else end}"
        if start is None and end is None:
            raise FragmentError("a range needs a start or an end (RFC 5147 §3)", None)
    else:
        if start is None:
            raise FragmentError("a position needs a start (RFC 5147 §3)", None)
        out = f"{scheme}={start}"
    for c in checks:
        tail = "" if c.charset is None else "," + _core.encode(c.charset, _CHARSET_SET)
        if c.kind == "length":
            if type(c.value) is not int or c.value < 0:
                raise FragmentError(f"length is a whole number >= 0, not {c.value!r}", None)
            out += f";length={c.value}{tail}"
        elif c.kind == "md5" and isinstance(c.value, str) and re.fullmatch(
                r"[0-9A-Fa-f]{32}", c.value):
            out += f";md5={c.value.lower()}{tail}"
        else:
            raise FragmentError(f"an integrity check is length=N or md5= and 32 hex digits "
                                f"(RFC 5147 §3), not {c.kind}={c.value!r}", None)
    return out


# ===========================================================================
# RFC 7111: text/csv
# ===========================================================================
_Position = int | str  # a row or column number from 1, or "*" (the last)


@dataclass(frozen=True)
class CSVSelection:
    """One selection of an RFC 7111 fragment.

    For ``row`` and ``col``: ``start`` and ``end`` are positions (``int`` from 1
    or ``"*"`` for the last); a single row or column has ``end == start``.  For
    ``cell``: each is a ``(row, col)`` pair, the top-left and bottom-right
    corners.
    """

    start: _Position | tuple[_Position, _Position]
    end: _Position | tuple[_Position, _Position]


@dataclass(frozen=True)
class CSVFragment:
    """An RFC 7111 text/csv fragment: ``kind`` ``"row"``, ``"col"`` or ``"cell"`` and its
    ``;``-separated selections, in order."""

    kind: str
    selections: tuple[CSVSelection, ...]


_POS = r"(?:[0-9]+|\*)"
_SINGLE = re.compile(f"({_POS})(?:-({_POS}))?")
_CELL = re.compile(f"({_POS}),({_POS})(?:-({_POS}),({_POS}))?")


def _position(text: str) -> _Position:
    return "*" if text == "*" else _int(text)


def _ordered(a: _Position, b: _Position) -> bool:
    # A range ends at or after its start.  With "*" (the last row or column)
    # that depends on the data, so only two numbers can be out of order.
    return not (isinstance(a, int) and isinstance(b, int) and a > b)


def _csv_selection(kind: str, spec: str) -> CSVSelection | None:
    if kind == "cell":
        m = _CELL.fullmatch(spec)
        if m is not None:
            a = (_position(m[1]), _position(m[2]))
            b = a if m[3] is None else (_position(m[3]), _position(m[4]))
            if 0 not in a + b and _ordered(a[0], b[0]) and _ordered(a[1], b[1]):
                return CSVSelection(a, b)
        return None
    m = _SINGLE.fullmatch(spec)
    if m is not None:
        s = _position(m[1])
        e = s if m[2] is None else _position(m[2])
        if s != 0 and e != 0 and _ordered(s, e):
            return CSVSelection(s, e)
    return None


def parse_csv(fragment: str, *, strict: bool = True) -> CSVFragment | None:
    """Parse a text/csv fragment identifier (RFC 7111 §2, §3).

    ``row=``, ``col=`` or ``cell=`` with ``;``-separated selections: a
    position or ``start-end`` range for rows and columns, ``row,col`` or
    ``row,col-row,col`` for cells; ``*`` is the last row or column, numbers
    count from 1 (0 is not a position).  Syntax RFC 7111 does not allow and a
    range that ends before it starts raise :class:`FragmentError`; with
    ``strict=False``, a bad selection is dropped and the others kept (``None``
    when no selection or no valid prefix is left).  A leading ``#`` is skipped.

    >>> parse_csv("row=5-7")
    CSVFragment(kind='row', selections=(CSVSelection(start=5, end=7),))
    >>> [(s.start, s.end) for s in parse_csv("cell=4,1-6,2;8,3-*,*").selections]
    [((4, 1), (6, 2)), ((8, 3), ('*', '*'))]
    """
    text = _strip_hash(fragment, "parse_csv")
    _args.check_bool("strict", strict)
    written, eq, rest = text.partition("=")
    # §3's "row=", "col=", "cell=" match in any ASCII case (RFC 5234 §2.3).
    kind = written.lower() if written.isascii() else written
    if not eq or kind not in ("row", "col", "cell"):
        if strict:
            raise FragmentError(f"{text[:40]!r} is not row=, col= or cell= (RFC 7111 §3)", 0)
        return None
    out: list[CSVSelection] = []
    at = len(written) + 1
    for spec in rest.split(";"):
        try:
            sel = _csv_selection(kind, spec)
        except _HugeNumber:
            sel = None
        if sel is None:
            if strict:
                raise FragmentError(
                    f"selection {spec[:40]!r} at position {at} is not valid for {kind}= "
                    "(RFC 7111 §3: positions from 1 or '*', a range not ending before it "
                    "starts); pass strict=False to drop it",
                    at,
                )
        else:
            out.append(sel)
        at += len(spec) + 1
    if not out:
        return None
    return CSVFragment(kind, tuple(out))


def _format_position(p: object) -> str:
    if p == "*":
        return "*"
    if type(p) is not int or p < 1:
        raise FragmentError(f"a CSV position is an int from 1 or '*', not {p!r} (RFC 7111 §3)",
                            None)
    return str(p)


def build_csv(
    kind: str | CSVFragment,
    selections: Sequence[CSVSelection | _Position | tuple[object, object]] | None = None,
) -> str:
    """Write a text/csv fragment identifier (RFC 7111 §3), without the ``#``.

    ``kind`` is ``"row"``, ``"col"`` or ``"cell"``; each selection is a
    :class:`CSVSelection`, a single position (rows, columns), a ``(start,
    end)`` pair, or for cells a ``(row, col)`` pair or a pair of them.
    _Positions are ints from 1 or ``"*"``; anything else raises
    :class:`FragmentError`.

    >>> build_csv("row", [5, (7, 9), (12, "*")])
    'row=5;7-9;12-*'
    >>> build_csv("cell", [(4, 1), ((4, 1), (6, 2))])
    'cell=4,1;4,1-6,2'
    >>> build_csv(parse_csv("row=5-7;10-*"))
    'row=5-7;10-*'
    """
    if isinstance(kind, CSVFragment):
        selections = list(kind.selections)
        kind = kind.kind
    _args.check_str_input("build_csv", kind)
    if kind not in ("row", "col", "cell"):
        raise FragmentError(f"kind is 'row', 'col' or 'cell' (RFC 7111 §3), not {kind!r}", None)
    if isinstance(selections, (str, bytes, bytearray, memoryview, dict)) or not isinstance(
            selections, (list, tuple)):
        raise _args_type("build_csv", "a list of selections", selections)
    if not selections:
        raise FragmentError("build_csv() needs at least one selection", None)
    specs: list[str] = []
    for sel in selections:
        if isinstance(sel, CSVSelection):
            start, end = sel.start, sel.end
        elif kind == "cell":
            if not isinstance(sel, tuple) or len(sel) != 2:
                raise FragmentError(f"a cell selection is (row, col) or a pair of them: {sel!r}",
                                    None)
            start, end = (sel[0], sel[1]) if isinstance(sel[0], tuple) else (sel, sel)
        elif isinstance(sel, tuple):
            if len(sel) != 2:
                raise FragmentError(f"a range is (start, end), not {sel!r}", None)
            start, end = sel
        else:
            start = end = sel
        if kind == "cell":
            if not (isinstance(start, tuple) and isinstance(end, tuple)
                    and len(start) == 2 and len(end) == 2):
                raise FragmentError(f"a cell is (row, col): {start!r}, {end!r}", None)
            spec = _format_position(start[0]) + "," + _format_position(start[1])
            if end != start:
                spec += "-" + _format_position(end[0]) + "," + _format_position(end[1])
        else:
            spec = _format_position(start)
            if end != start:
                spec += "-" + _format_position(end)
        specs.append(spec)
    out = kind + "=" + ";".join(specs)
    parse_csv(out)  # a range that ends before it starts raises here
    return out


# ===========================================================================
# RFC 8118 §3: application/pdf
# ===========================================================================
_VIEW_KEYWORDS = ("Fit", "FitH", "FitV", "FitB", "FitBH", "FitBV")


@dataclass(frozen=True)
class PDFFragment:
    """The open parameters of a PDF fragment identifier (RFC 8118 §3, ISO 32000-2 §12.3).

    Each field holds the last valid value of its parameter, or ``None``:
    ``page`` (from 1), ``nameddest``, ``comment``, ``structelem``, ``search``
    (the words), ``zoom`` (``(scale, left, top)``, left and top ``None`` when
    absent), ``view`` (``(keyword, position)``), ``viewrect`` (``(left, top,
    width, height)``), ``highlight`` (``(left, right, top, bottom)``), ``fdf``.
    ``params`` holds every parameter as written (decoded), unknown ones too
    (Adobe's ``toolbar``, ``pagemode`` …, which RFC 8118 does not define).
    """

    page: int | None = None
    nameddest: str | None = None
    comment: str | None = None
    structelem: str | None = None
    search: tuple[str, ...] | None = None
    zoom: tuple[float, float | None, float | None] | None = None
    view: tuple[str, float | None] | None = None
    viewrect: tuple[float, float, float, float] | None = None
    highlight: tuple[float, float, float, float] | None = None
    fdf: str | None = None
    params: tuple[tuple[str, str], ...] = field(default=(), compare=False, repr=False)


_NUM = r"-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_NUM_RE = re.compile(_NUM)


def _nums(value: str, n: int) -> tuple[float, ...] | None:
    parts = value.split(",")
    if len(parts) != n or not all(_NUM_RE.fullmatch(p) for p in parts):
        return None
    return tuple(float(p) for p in parts)


def parse_pdf(fragment: str, *, strict: bool = True) -> PDFFragment:
    """Parse a PDF fragment identifier (RFC 8118 §3, the open parameters of ISO 32000-2).

    ``&``-separated ``name=value`` parameters, each value percent-decoded as
    UTF-8: ``page=N`` (from 1), ``nameddest=name``, ``comment=id`` and
    ``structelem=id`` (with a page), ``search="w1 w2"`` (quoted words),
    ``zoom=scale[,left,top]``, ``view=Fit|FitH|FitV|FitB|FitBH|FitBV[,pos]``,
    ``viewrect=l,t,w,h``, ``highlight=l,r,t,b`` and ``fdf=url`` (last).  A
    fragment without ``=`` is a named destination.  A malformed value of a
    known parameter raises :class:`FragmentError`; with ``strict=False`` it is
    ignored, as a viewer does.  Unknown parameters are kept in ``params``.

    >>> f = parse_pdf("page=5&zoom=200,250,100")
    >>> f.page, f.zoom
    (5, (200.0, 250.0, 100.0))
    >>> parse_pdf("Chapter6").nameddest, parse_pdf("search=%22word1%20word2%22").search
    ('Chapter6', ('word1', 'word2'))
    """
    text = _strip_hash(fragment, "parse_pdf")
    _args.check_bool("strict", strict)
    values: dict[str, object] = {}
    params: list[tuple[str, str]] = []
    if text and "=" not in text:
        name = _core.decode_text(text)
        return PDFFragment(nameddest=name, params=(("nameddest", name),))
    items = text.split("&") if text else []
    for i, item in enumerate(items):
        if item.startswith("fdf="):
            # §3: fdf is the last parameter; what follows belongs to its URL.
            items = [*items[:i], "&".join(items[i:])]
            break
    at = 0
    for item in items:
        raw_name, _, raw_value = item.partition("=")
        name = _core.decode_text(raw_name)
        value = _core.decode_text(raw_value)
        params.append((name, value))
        got: object = None
        if name == "page":
            try:
                page = _int(value) if value.isascii() and value.isdigit() else 0
            except _HugeNumber:
                page = 0
            got = page if page >= 1 else None
        elif name in ("nameddest", "comment", "structelem", "fdf"):
            got = value if value else None
        elif name == "search":
            if len(value) >= 2 and value[0] == '"' and value[-1] == '"' and value[1:-1].strip() \
                    and '"' not in value[1:-1]:
                got = tuple(value[1:-1].split())
        elif name == "zoom":
            parts = value.split(",")
            if len(parts) in (1, 3) and all(_NUM_RE.fullmatch(p) for p in parts) \
                    and float(parts[0]) > 0:
                got = (float(parts[0]), *(float(p) for p in parts[1:])) if len(parts) == 3 \
                    else (float(parts[0]), None, None)
        elif name == "view":
            kw, comma, pos = value.partition(",")
            if kw in _VIEW_KEYWORDS and (not comma or (_NUM_RE.fullmatch(pos)
                                                        and kw in ("FitH", "FitV", "FitBH",
                                                                   "FitBV"))):
                got = (kw, float(pos) if comma else None)
        elif name in ("viewrect", "highlight"):
            got = _nums(value, 4)
        else:
            at += len(item) + 1
            continue  # not a parameter RFC 8118 names: kept in params only
        if got is None:
            if strict:
                raise FragmentError(
                    f"{name}={value[:40]!r} at position {at} is not a valid PDF open "
                    "parameter (RFC 8118 §3); pass strict=False to ignore it",
                    at,
                )
        else:
            values[name] = got
        at += len(item) + 1
    if strict and ("comment" in values or "structelem" in values) and "page" not in values:
        raise FragmentError("comment= and structelem= need page= (RFC 8118 §3)", None)
    return PDFFragment(params=tuple(params), **values)  # type: ignore[arg-type]


#: What a PDF parameter value keeps as it is: fragment characters but ``&``, ``=``, ``#``
#: and ``"`` (the quotes of ``search`` are written ``%22``, as RFC 8118's examples do).
_PDF_VALUE = EncodeSet.from_allowed(UNRESERVED + "!$'()*+,;:@/?", name="pdf-fragment-value")


def build_pdf(
    fragment: PDFFragment | None = None,
    *,
    page: int | None = None,
    nameddest: str | None = None,
    comment: str | None = None,
    structelem: str | None = None,
    search: Iterable[str] | str | None = None,
    zoom: float | tuple[float, float, float] | None = None,
    view: str | tuple[str, float] | None = None,
    viewrect: tuple[float, float, float, float] | None = None,
    highlight: tuple[float, float, float, float] | None = None,
    fdf: str | None = None,
) -> str:
    """Write a PDF fragment identifier (RFC 8118 §3), without the ``#``.

    Parameters are written in the order RFC 8118 lists them, ``fdf`` last as it
    requires; text values are percent-encoded as UTF-8 (``&``, ``=``, ``#``,
    ``"``, ``%``, space and non-ASCII escaped); ``search`` words are joined by
    spaces inside quotes.  A :class:`PDFFragment` may be passed first; the
    keywords then replace its fields.  Values :func:`parse_pdf` would reject
    raise :class:`FragmentError`.

    >>> build_pdf(page=5, zoom=(200, 250, 100))
    'page=5&zoom=200,250,100'
    >>> build_pdf(nameddest="Chapter 6", search=["word1", "word2"])
    'nameddest=Chapter%206&search=%22word1%20word2%22'
    >>> build_pdf(parse_pdf("page=3&view=FitH,100"))
    'page=3&view=FitH,100'
    """
    if fragment is not None:
        if not isinstance(fragment, PDFFragment):
            raise _args_type("build_pdf", "a PDFFragment", fragment)
        # The keywords given win over the fragment's fields.
        page = fragment.page if page is None else page
        nameddest = fragment.nameddest if nameddest is None else nameddest
        comment = fragment.comment if comment is None else comment
        structelem = fragment.structelem if structelem is None else structelem
        search = fragment.search if search is None else search
        if zoom is None and fragment.zoom is not None:
            scale, left, top = fragment.zoom
            zoom = scale if left is None or top is None else (scale, left, top)
        if view is None and fragment.view is not None:
            view = fragment.view[0] if fragment.view[1] is None else (
                fragment.view[0], fragment.view[1])
        viewrect = fragment.viewrect if viewrect is None else viewrect
        highlight = fragment.highlight if highlight is None else highlight
        fdf = fragment.fdf if fdf is None else fdf
    parts: list[str] = []

    def text(name: str, value: str) -> None:
        _args.check_str_input("build_pdf", value)
        if not value:
            raise FragmentError(f"{name}= needs a value (RFC 8118 §3)", None)
        parts.append(name + "=" + _core.encode(value, _PDF_VALUE))

    def num(x: object) -> str:
        if isinstance(x, bool) or not isinstance(x, (int, float)) or x != x:
            raise FragmentError(f"a PDF open parameter takes numbers, not {x!r}", None)
        return _format_seconds(float(x)) if x >= 0 else "-" + _format_seconds(float(-x))

    if nameddest is not None:
        text("nameddest", nameddest)
    if page is not None:
        if type(page) is not int or page < 1:
            raise FragmentError(f"page is an int from 1 (RFC 8118 §3), not {page!r}", None)
        parts.append(f"page={page}")
    if (comment is not None or structelem is not None) and page is None:
        raise FragmentError("comment= and structelem= need page= (RFC 8118 §3)", None)
    if comment is not None:
        text("comment", comment)
    if structelem is not None:
        text("structelem", structelem)
    if search is not None:
        words = [w for item in _strings(search, "build_pdf", "search words (str or str items)")
                 for w in ([item] if not isinstance(search, str) else item.split())]
        if not words or any(not w or '"' in w or w.split() != [w] for w in words):
            raise FragmentError("search= takes words without spaces or quotes (RFC 8118 §3)", None)
        parts.append("search=" + _core.encode('"' + " ".join(words) + '"', _PDF_VALUE))
    if zoom is not None:
        z = _items(zoom, (1, 3), "build_pdf", "zoom as a number or (scale, left, top)") \
            if isinstance(zoom, (tuple, list)) else (zoom,)
        if num(z[0]).startswith("-") or float(z[0]) == 0:  # type: ignore[arg-type]
            raise FragmentError(
                f"zoom is a scale above 0 or (scale, left, top), not {zoom!r}", None)
        parts.append("zoom=" + ",".join(num(v) for v in z))
    if view is not None:
        kw, pos = (view, None) if isinstance(view, str) else _items(
            view, (2,), "build_pdf", "view as a keyword or (keyword, position)")
        if kw not in _VIEW_KEYWORDS or (pos is not None and kw in ("Fit", "FitB")):
            raise FragmentError(f"view is one of {', '.join(_VIEW_KEYWORDS)} (a position only "
                                f"with FitH, FitV, FitBH, FitBV), not {view!r}", None)
        parts.append("view=" + kw + ("" if pos is None else "," + num(pos)))
    for name, box in (("viewrect", viewrect), ("highlight", highlight)):
        if box is not None:
            four = _items(box, (4,), "build_pdf", f"{name} as four numbers")
            parts.append(name + "=" + ",".join(num(v) for v in four))
    if fdf is not None:
        text("fdf", fdf)
    return "&".join(parts)


# ===========================================================================
# Registry
# ===========================================================================
def _media_encode(text: str | bytes) -> str:
    return _core.encode(text, MEDIA_VALUE)


def _media_decode(text: str | bytes) -> str:
    try:
        return _core.decode_text(text, errors="strict", strict=True)
    except PercentEncodingError as e:
        raise FragmentError(f"not valid percent-encoded UTF-8 (Media Fragments 1.0 §5.1.1): {e}",
                            getattr(e, "position", None)) from None


def _media_pairs(pairs: Sequence[tuple[str, str]]) -> str:
    from ._scheme import pairs_arg

    return "&".join(_core.encode(n, MEDIA_VALUE) + "=" + _core.encode(v, MEDIA_VALUE)
                    for n, v in pairs_arg(pairs))


SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="media-fragments",
        spec="W3C Media Fragments URI 1.0 (basic) §4.1, §5.1.1",
        encode=_media_encode,
        decode=_media_decode,
        encode_set=MEDIA_VALUE,
        encode_pairs=_media_pairs,
        notes=(
            "name=value pairs joined by '&'; UTF-8; '+' is a plus sign, never a space "
            "(unlike application/x-www-form-urlencoded); a malformed escape or invalid UTF-8 "
            "drops the pair; no ';' separator"
        ),
        family="Fragment identifiers",
        aliases=("mediafrag",),
        plain=True,
        reversible=True,
    ),
)
