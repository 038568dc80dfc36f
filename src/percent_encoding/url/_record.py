"""The URL record of the WHATWG URL Standard and its serializers.

:class:`URLRecord` is a URL as the Standard defines it (URL Standard §4.1 "URLs":
scheme, username, password, host, port, path, query, fragment), with the §4.1
helpers the parser and the record share (Windows drive letters, single-dot and
double-dot path segments, "shorten a URL's path").  :func:`serialize` and
:func:`serialize_path` are §4.5 "URL serializing".  :class:`Failure` is the
parser's "return failure", which the state machine in :mod:`._parser` raises.
:func:`record_of` is the record of an href and offsets that the C parser wrote.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from . import _offsets as O
from ._host import parse_ipv4, parse_ipv6, serialize_host

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


def serialize_path(url: URLRecord) -> str:
    """§4.5 "URL path serializer"."""
    if isinstance(url.path, str):
        return url.path
    return "/" + "/".join(url.path) if url.path else ""


def serialize(url: URLRecord, exclude_fragment: bool = False) -> str:
    """§4.5 "URL serializer"."""
    host, path = url.host, url.path
    if host is not None:
        if type(host) is not str:
            host = serialize_host(host)
        if url.username or url.password:
            user = url.username
            if url.password:
                user += ":" + url.password
            host = user + "@" + host
        if url.port is not None:
            host += ":" + str(url.port)
        out = url.scheme + "://" + host
    elif type(path) is list and len(path) > 1 and path[0] == "":
        out = url.scheme + ":/."
    else:
        out = url.scheme + ":"
    if type(path) is str:
        out += path
    elif path:
        out += "/" + "/".join(path)
    if url.query is not None:
        out += "?" + url.query
    if not exclude_fragment and url.fragment is not None:
        out += "#" + url.fragment
    return out


def _ignore(name: str, pos: int) -> None:
    pass


def record_of(href: str, parts: tuple[int, ...]) -> URLRecord:
    """The record of an href that the C parser wrote, from its component offsets.

    ``parts`` are laid out as :mod:`._offsets` draws them."""
    s_end = parts[O.SCHEME_END]
    p_start = parts[O.PATH_START]
    q_start = parts[O.QUERY_START]
    f_start = parts[O.FRAGMENT_START]
    kind = parts[O.HOST_KIND]
    rec = URLRecord(href[:s_end])
    end = len(href)
    if f_start >= 0:
        rec.fragment = href[f_start + 1:]
        end = f_start
    if q_start >= 0:
        rec.query = href[q_start + 1:end]
        end = q_start
    if kind == O.HOST_NONE:
        rec.path = href[p_start:end]
        return rec
    rec.path = href[p_start + 1:end].split("/") if end > p_start else []
    if kind == O.HOST_NULL:
        return rec
    u_end, h_start = parts[O.USERNAME_END], parts[O.HOST_START]
    if h_start > s_end + 3:
        rec.username = href[s_end + 3:u_end]
        if u_end < h_start - 1:
            rec.password = href[u_end + 1:h_start - 1]
    text = href[h_start:parts[O.HOST_END]]
    if kind == O.HOST_IPV4:
        rec.host = parse_ipv4(text, _ignore)
    elif kind == O.HOST_IPV6:
        rec.host = parse_ipv6(text[1:-1], _ignore)
    else:
        rec.host = text
    port = parts[O.PORT]
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
