"""The URL record of the WHATWG URL Standard and its serializers.

:class:`URLRecord` is a URL as the Standard defines it (URL Standard §4.1 "URLs":
scheme, username, password, host, port, path, query, fragment), with the §4.1
helpers the parser and the record share (Windows drive letters, single-dot and
double-dot path segments, "shorten a URL's path").  :func:`serialize` and
:func:`serialize_path` are §4.5 "URL serializing".  :class:`Failure` is the
parser's "return failure", which both parsers (the state machine in
:mod:`._parser`, the fast path in :mod:`._fast`) raise or mean.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..core import encode
from ._host import parse_ipv4, parse_ipv6, serialize_host, url_unit_errors

# URL Standard §4.1: special schemes and their default ports.
SPECIAL: dict[str, int | None] = {
    "ftp": 21,
    "file": None,
    "http": 80,
    "https": 443,
    "ws": 80,
    "wss": 443,
}

ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")


class Failure(Exception):
    """The parser returned failure; ``name`` is the validation error."""

    def __init__(self, name: str, position: int) -> None:
        super().__init__(name, position)
        self.name = name
        self.position = position


Host = int | tuple[int, ...] | str


@dataclass(slots=True)
class URLRecord:
    """A URL as the Standard defines it (§4.1): mutable, internal."""

    scheme: str = ""
    username: str = ""
    password: str = ""
    host: Host | None = None
    port: int | None = None
    path: list[str] | str = field(default_factory=list)
    query: str | None = None
    fragment: str | None = None

    @property
    def special(self) -> bool:
        return self.scheme in SPECIAL

    @property
    def opaque_path(self) -> bool:
        return isinstance(self.path, str)

    def includes_credentials(self) -> bool:
        return self.username != "" or self.password != ""

    def cannot_have_credentials(self) -> bool:
        return self.host is None or self.host == "" or self.scheme == "file"

    def copy(self) -> URLRecord:
        path = self.path if isinstance(self.path, str) else list(self.path)
        return URLRecord(self.scheme, self.username, self.password, self.host,
                         self.port, path, self.query, self.fragment)

    def shorten_path(self) -> None:
        # §4.1 "shorten a URL's path".
        path = self.path
        assert isinstance(path, list)
        if (self.scheme == "file" and len(path) == 1
                and is_normalized_drive_letter(path[0])):
            return
        if path:
            path.pop()


def is_drive_letter(s: str) -> bool:
    return len(s) == 2 and s[0] in ALPHA and s[1] in ":|"


def is_normalized_drive_letter(s: str) -> bool:
    return len(s) == 2 and s[0] in ALPHA and s[1] == ":"


def starts_with_drive_letter(s: str, i: int) -> bool:
    # §4.1 "starts with a Windows drive letter", on s[i:].
    if len(s) - i < 2 or not is_drive_letter(s[i:i + 2]):
        return False
    return len(s) - i == 2 or s[i + 2] in "/\\?#"


def single_dot(s: str) -> bool:
    return s == "." or s.lower() == "%2e"


def double_dot(s: str) -> bool:
    return s == ".." or s.lower() in (".%2e", "%2e.", "%2e%2e")


# §4.1 single-dot and double-dot URL path segments: 1 and 2.
_DOTS = {seg: 1 for seg in (".", "%2e", "%2E")} | {
    a + b: 2 for a in (".", "%2e", "%2E") for b in (".", "%2e", "%2E")}


def plain_pattern(units: str) -> re.Pattern[str]:
    """A regular expression for text of ``units`` (a character class body) and "%"
    only before two hex digits: with URL code points only (§4.3), text with no
    validation error."""
    # (a run of the class, then escapes each followed by a run: no per-character
    # alternation, which is several times slower in re)
    return re.compile(f"[{units}]*(?:%[0-9A-Fa-f]{{2}}[{units}]*)*")


# Path text that the path percent-encode set (§1.3) keeps as it is and that holds no
# validation error, with and without "/".
_PLAIN_PATH = plain_pattern(r"0-9A-Za-z!$&'()*+,\-./:;=@_~")
_PLAIN_SEGMENT = plain_pattern(r"0-9A-Za-z!$&'()*+,\-.:;=@_~")
_DOT_SEGMENT = re.compile(r"(?:^|/)(?:\.|%2[eE]){1,2}(?:/|$)")
_SEPARATORS = re.compile(r"[/\\]")


def walk_path(out: list[str], segs: list[str], file: bool) -> None:
    """The §4.4 path state's steps at the end of each segment, over whole segments.

    ``segs`` are a path text's segments, encoded, each ended by "/" but the last (by
    the path's end); they are appended to the path ``out``: a double-dot segment
    shortens it (§4.1 "shorten a URL's path": a file URL's lone normalized drive
    letter stays), a single-dot one is dropped, either one last leaves an empty
    segment, and a file URL's first segment that is a Windows drive letter gets ":".
    """
    last = len(segs) - 1
    dots = _DOTS
    for i, seg in enumerate(segs):
        d = dots.get(seg)
        if d is None:
            if file and not out and is_drive_letter(seg):
                seg = seg[0] + ":"
            out.append(seg)
            continue
        if d == 2 and out and not (file and len(out) == 1
                                   and is_normalized_drive_letter(out[0])):
            out.pop()
        if i == last:
            out.append("")


def parse_path(out: list[str], text: str, start: int, file: bool, special: bool,
               found: list[tuple[str, int]]) -> None:
    """The §4.4 path state over ``text`` (at input offset ``start``) to its end.

    "/" (and in a special URL "\\", a validation error) ends a segment; each
    segment is checked for URL units and percent-encoded with the path set, then
    :func:`walk_path` appends it to ``out``.  Validation errors go to ``found``.
    """
    if _PLAIN_PATH.fullmatch(text) is not None:
        # nothing to encode, no error: the segments as they are
        segs = text.split("/")
        if ((text[:1] == "." or "/." in text or "%2" in text)
                and _DOT_SEGMENT.search(text) is not None):
            walk_path(out, segs, file)
        else:
            if file and not out and is_drive_letter(segs[0]):
                segs[0] = segs[0][0] + ":"
            out += segs
        return
    if special and "\\" in text:
        # segment by segment: in a special URL "\\" ends one, as a validation error
        segs = _SEPARATORS.split(text)
        off = start
        for i, seg in enumerate(segs):
            if _PLAIN_SEGMENT.fullmatch(seg) is None:
                url_unit_errors(seg, off, lambda n, p: found.append((n, p)))
                segs[i] = encode(seg, "path")
            off += len(seg)
            if off - start < len(text) and text[off - start] == "\\":
                found.append(("invalid-reverse-solidus", off))
            off += 1
    else:
        # (the path set leaves "/" as it is: the whole text at once, then its segments)
        url_unit_errors(text, start, lambda n, p: found.append((n, p)))
        segs = encode(text, "path").split("/")
    walk_path(out, segs, file)


def serialize_path(url: URLRecord) -> str:
    """§4.5 "URL path serializer"."""
    if isinstance(url.path, str):
        return url.path
    return "/" + "/".join(url.path) if url.path else ""


def serialize(url: URLRecord, exclude_fragment: bool = False) -> str:
    """§4.5 "URL serializer"."""
    out = [url.scheme, ":"]
    host, path = url.host, url.path
    if host is not None:
        out.append("//")
        if url.username or url.password:
            out.append(url.username)
            if url.password:
                out.append(":" + url.password)
            out.append("@")
        out.append(host if type(host) is str else serialize_host(host))
        if url.port is not None:
            out.append(":" + str(url.port))
    elif isinstance(path, list) and len(path) > 1 and path[0] == "":
        out.append("/.")
    if type(path) is str:
        out.append(path)
    elif path:
        out.append("/")
        out.append("/".join(path))
    if url.query is not None:
        out.append("?")
        out.append(url.query)
    if not exclude_fragment and url.fragment is not None:
        out.append("#")
        out.append(url.fragment)
    return "".join(out)


def _ignore(name: str, pos: int) -> None:
    pass


def record_of(href: str, parts: tuple[int, ...]) -> URLRecord:
    """The record of an href that a fast parser wrote, from its component offsets."""
    # (src/csrc/url.c and url/_fast.py's fast_href write the same layout):
    # scheme end (the ':'), username end, host start and end, port (-1: none),
    # path start, '?' and '#' (-1: none), host kind (0 none: opaque path,
    # 1 domain or opaque host, 2 IPv4, 3 IPv6, 4 empty, 5 none: list path).
    s_end, u_end, h_start, h_end, port, p_start, q_start, f_start, kind = parts
    rec = URLRecord(href[:s_end])
    end = len(href)
    if f_start >= 0:
        rec.fragment = href[f_start + 1:]
        end = f_start
    if q_start >= 0:
        rec.query = href[q_start + 1:end]
        end = q_start
    if kind == 0:
        rec.path = href[p_start:end]
        return rec
    rec.path = href[p_start + 1:end].split("/") if end > p_start else []
    if kind == 5:
        return rec
    if h_start > s_end + 3:
        rec.username = href[s_end + 3:u_end]
        if u_end < h_start - 1:
            rec.password = href[u_end + 1:h_start - 1]
    text = href[h_start:h_end]
    if kind == 2:
        rec.host = parse_ipv4(text, _ignore)
    elif kind == 3:
        rec.host = parse_ipv6(text[1:-1], _ignore)
    else:
        rec.host = text
    rec.port = None if port < 0 else port
    return rec


def parts_of(rec: URLRecord, href: str | None = None) -> tuple[str, tuple[int, ...]]:
    """The href of any record and its component offsets: the inverse of :func:`record_of`.

    The offsets are the layout the C parser writes (src/csrc/url.h's UrlParts), so
    that the C twin's URL type can hold what the Python parser built.

        >>> parts_of(record_of("http://u@h:8/p?q#f", (4, 8, 9, 10, 8, 12, 14, 16, 1)))
        ('http://u@h:8/p?q#f', (4, 8, 9, 10, 8, 12, 14, 16, 1))
    """
    if href is None:
        href = serialize(rec)
    s_end = len(rec.scheme)
    end = len(href)
    f_start = q_start = -1
    if rec.fragment is not None:
        f_start = end = end - len(rec.fragment) - 1
    if rec.query is not None:
        q_start = end = end - len(rec.query) - 1
    p_start = end - len(serialize_path(rec))
    host = rec.host
    if host is None:
        # no host: the username, host and port spans are empty at the path start
        kind = 0 if isinstance(rec.path, str) else 5
        return href, (s_end, p_start, p_start, p_start, -1, p_start, q_start, f_start, kind)
    u_end = h_start = s_end + 3
    if rec.username or rec.password:
        u_end += len(rec.username)
        h_start = u_end + (len(rec.password) + 2 if rec.password else 1)
    text = host if type(host) is str else serialize_host(host)
    kind = 2 if isinstance(host, int) else 3 if isinstance(host, tuple) else 1 if text else 4
    port = -1 if rec.port is None else rec.port
    return href, (s_end, u_end, h_start, h_start + len(text), port, p_start, q_start, f_start,
                  kind)
