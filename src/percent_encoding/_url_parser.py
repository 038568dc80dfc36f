"""The WHATWG URL Standard's basic URL parser (URL Standard §4.4).

Strategy: :func:`basic_parse` is the Standard's state machine, one small
function per state, run over the input one code point at a time with the
Standard's pointer arithmetic, so that state overrides (the URL API setters)
behave exactly as written.  Components are collected raw and percent-encoded
when they end, which gives the same result as the Standard's per-code-point
UTF-8 percent-encode (it is concatenation-compatible) through the library's
kernels.  Validation errors are recorded as ``(name, position)``, positions in
the caller's original input; a fatal one raises :class:`Failure`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from ._host import HostError, parse_host, parse_ipv4, parse_ipv6, serialize_host, url_unit_errors
from .core import encode

__all__ = ["SPECIAL", "Failure", "URLRecord", "basic_parse", "serialize"]

# URL Standard §4.1: special schemes and their default ports.
SPECIAL: dict[str, int | None] = {
    "ftp": 21,
    "file": None,
    "http": 80,
    "https": 443,
    "ws": 80,
    "wss": 443,
}

_ALPHA = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
_SCHEME_CHARS = _ALPHA | frozenset("0123456789+-.")
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")
_C0_OR_SPACE = "".join(chr(i) for i in range(0x21))


class Failure(Exception):
    """The parser returned failure; ``name`` is the validation error."""

    def __init__(self, name: str, position: int) -> None:
        super().__init__(name, position)
        self.name = name
        self.position = position


class _Return(Exception):
    """A state override run ended early without failure."""


Host = int | tuple[int, ...] | str


@dataclass
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
                and _is_normalized_drive_letter(path[0])):
            return
        if path:
            path.pop()


def _is_drive_letter(s: str) -> bool:
    return len(s) == 2 and s[0] in _ALPHA and s[1] in ":|"


def _is_normalized_drive_letter(s: str) -> bool:
    return len(s) == 2 and s[0] in _ALPHA and s[1] == ":"


def _starts_with_drive_letter(s: str, i: int) -> bool:
    # §4.1 "starts with a Windows drive letter", on s[i:].
    if len(s) - i < 2 or not _is_drive_letter(s[i:i + 2]):
        return False
    return len(s) - i == 2 or s[i + 2] in "/\\?#"


def _single_dot(s: str) -> bool:
    return s == "." or s.lower() == "%2e"


def _double_dot(s: str) -> bool:
    return s == ".." or s.lower() in (".%2e", "%2e.", "%2e%2e")


def serialize_path(url: URLRecord) -> str:
    """§4.5 "URL path serializer"."""
    if isinstance(url.path, str):
        return url.path
    return "".join("/" + seg for seg in url.path)


def serialize(url: URLRecord, exclude_fragment: bool = False) -> str:
    """§4.5 "URL serializer"."""
    out = [url.scheme, ":"]
    if url.host is not None:
        out.append("//")
        if url.includes_credentials():
            out.append(url.username)
            if url.password:
                out.append(":" + url.password)
            out.append("@")
        out.append(serialize_host(url.host))
        if url.port is not None:
            out.append(":" + str(url.port))
    elif (isinstance(url.path, list) and len(url.path) > 1 and url.path[0] == ""):
        out.append("/.")
    out.append(serialize_path(url))
    if url.query is not None:
        out.append("?" + url.query)
    if not exclude_fragment and url.fragment is not None:
        out.append("#" + url.fragment)
    return "".join(out)


Sink = Callable[[str, int], None]


class _Parser:
    __slots__ = (
        "at_seen",
        "base",
        "buf",
        "encoding",
        "in_brackets",
        "inp",
        "n",
        "override",
        "p",
        "pos_map",
        "pw_seen",
        "raw",
        "raw_start",
        "sink",
        "state",
        "url",
    )

    def __init__(self, inp: str, url: URLRecord, base: URLRecord | None,
                 override: str | None, sink: Sink, pos_map: Callable[[int], int],
                 encoding: str) -> None:
        self.inp = inp
        self.n = len(inp)
        self.p = 0
        self.buf = ""
        self.url = url
        self.base = base
        self.override = override
        self.state = override or "scheme_start"
        self.at_seen = False
        self.in_brackets = False
        self.pw_seen = False
        self.sink = sink
        self.pos_map = pos_map
        self.encoding = encoding
        self.raw_start = 0
        # The raw text of each component, for explain().
        self.raw: dict[str, list[str]] = {}

    # -- helpers -----------------------------------------------------------
    def err(self, name: str, p: int | None = None) -> None:
        self.sink(name, self.pos_map(self.p if p is None else p))

    def fail(self, name: str, p: int | None = None) -> Failure:
        pos = self.pos_map(self.p if p is None else p)
        self.sink(name, pos)
        return Failure(name, pos)

    def remaining_starts(self, s: str) -> bool:
        return self.inp.startswith(s, self.p + 1)

    def check_unit(self, c: str) -> None:
        # Shared by the path, opaque path, query and fragment states.
        if c == "%":
            if not (self.p + 2 < self.n and self.inp[self.p + 1] in _HEX
                    and self.inp[self.p + 2] in _HEX):
                self.err("invalid-URL-unit")
        else:
            url_unit_errors(c, self.p, lambda name, p: self.err(name, p))

    def host_parse(self, text: str, start: int) -> Host:
        def sink(name: str, off: int) -> None:
            self.err(name, start + off)

        try:
            return parse_host(text, not self.url.special, sink)
        except HostError as e:
            raise self.fail(e.name, start + e.position) from None

    # -- the machine -------------------------------------------------------
    def run(self) -> None:
        inp, n = self.inp, self.n
        states = _STATES
        try:
            while True:
                c = inp[self.p] if self.p < n else ""
                states[self.state](self, c)
                if self.p >= n:
                    break
                self.p += 1
        except _Return:
            return

    def take_run(self, pattern: re.Pattern[str], check: bool) -> str:
        # Consume the run of code points the current state treats alike
        # (none of them changes the state), leaving p on its last one.
        m = pattern.match(self.inp, self.p)
        assert m is not None
        end = max(m.end(), self.p + 1)
        chunk = self.inp[self.p:end]
        if check:
            url_unit_errors(chunk, self.p, self.err)
        self.p = end - 1
        return chunk

    def s_scheme_start(self, c: str) -> None:
        if c and c in _ALPHA:
            self.buf += c.lower()
            self.state = "scheme"
        elif self.override is None:
            self.state = "no_scheme"
            self.p -= 1
        else:
            raise Failure("scheme-start", self.p)

    def s_scheme(self, c: str) -> None:
        url = self.url
        if c and c in _SCHEME_CHARS:
            self.buf += c.lower()
        elif c == ":":
            if self.override is not None:
                if (url.scheme in SPECIAL) != (self.buf in SPECIAL):
                    raise _Return
                if ((url.includes_credentials() or url.port is not None)
                        and self.buf == "file"):
                    raise _Return
                if url.scheme == "file" and url.host == "":
                    raise _Return
            url.scheme = self.buf
            if self.override is not None:
                if url.port is not None and url.port == SPECIAL.get(url.scheme):
                    url.port = None
                raise _Return
            self.buf = ""
            if url.scheme == "file":
                if not self.remaining_starts("//"):
                    self.err("special-scheme-missing-following-solidus")
                self.state = "file"
            elif url.special and self.base is not None and self.base.scheme == url.scheme:
                self.state = "special_relative_or_authority"
            elif url.special:
                self.state = "special_authority_slashes"
            elif self.remaining_starts("/"):
                self.state = "path_or_authority"
                self.p += 1
            else:
                url.path = ""
                self.state = "opaque_path"
        elif self.override is None:
            self.buf = ""
            self.state = "no_scheme"
            self.p = -1
        else:
            raise Failure("scheme", self.p)

    def s_no_scheme(self, c: str) -> None:
        base, url = self.base, self.url
        if base is None or (base.opaque_path and c != "#"):
            raise self.fail("missing-scheme-non-relative-URL")
        if base.opaque_path and c == "#":
            url.scheme = base.scheme
            url.path = base.path
            url.query = base.query
            url.fragment = ""
            self.state = "fragment"
            self.raw_start = self.p + 1
        elif base.scheme != "file":
            self.state = "relative"
            self.p -= 1
        else:
            self.state = "file"
            self.p -= 1

    def s_special_relative_or_authority(self, c: str) -> None:
        if c == "/" and self.remaining_starts("/"):
            self.state = "special_authority_ignore_slashes"
            self.p += 1
        else:
            self.err("special-scheme-missing-following-solidus")
            self.state = "relative"
            self.p -= 1

    def s_path_or_authority(self, c: str) -> None:
        if c == "/":
            self.state = "authority"
        else:
            self.state = "path"
            self.p -= 1

    def _copy_base_authority(self) -> None:
        base, url = self.base, self.url
        assert base is not None
        url.username, url.password = base.username, base.password
        url.host, url.port = base.host, base.port

    def s_relative(self, c: str) -> None:
        base, url = self.base, self.url
        assert base is not None
        url.scheme = base.scheme
        if c == "/":
            self.state = "relative_slash"
        elif url.special and c == "\\":
            self.err("invalid-reverse-solidus")
            self.state = "relative_slash"
        else:
            self._copy_base_authority()
            url.path = list(base.path)
            url.query = base.query
            if c == "?":
                url.query = ""
                self.state = "query"
                self.raw_start = self.p + 1
            elif c == "#":
                url.fragment = ""
                self.state = "fragment"
                self.raw_start = self.p + 1
            elif c:
                url.query = None
                url.shorten_path()
                self.state = "path"
                self.p -= 1

    def s_relative_slash(self, c: str) -> None:
        if self.url.special and c in ("/", "\\") and c:
            if c == "\\":
                self.err("invalid-reverse-solidus")
            self.state = "special_authority_ignore_slashes"
        elif c == "/":
            self.state = "authority"
        else:
            self._copy_base_authority()
            self.state = "path"
            self.p -= 1

    def s_special_authority_slashes(self, c: str) -> None:
        if c == "/" and self.remaining_starts("/"):
            self.state = "special_authority_ignore_slashes"
            self.p += 1
        else:
            self.err("special-scheme-missing-following-solidus")
            self.state = "special_authority_ignore_slashes"
            self.p -= 1

    def s_special_authority_ignore_slashes(self, c: str) -> None:
        if c != "/" and c != "\\":
            self.state = "authority"
            self.p -= 1
        else:
            self.err("special-scheme-missing-following-solidus")

    def s_authority(self, c: str) -> None:
        url = self.url
        if c == "@":
            self.err("invalid-credentials")
            if self.at_seen:
                self.buf = "%40" + self.buf
            self.at_seen = True
            buf = self.buf
            self.raw.setdefault("userinfo", []).append(buf + "@")
            if not self.pw_seen and ":" in buf:
                i = buf.index(":")
                self.pw_seen = True
                url.username += encode(buf[:i], "userinfo")
                url.password += encode(buf[i + 1:], "userinfo")
            elif self.pw_seen:
                url.password += encode(buf, "userinfo")
            else:
                url.username += encode(buf, "userinfo")
            self.buf = ""
        elif c in ("", "/", "?", "#") or (url.special and c == "\\"):
            if self.at_seen and self.buf == "":
                raise self.fail("host-missing")
            self.p -= len(self.buf) + 1
            self.buf = ""
            self.state = "host"
        else:
            self.buf += self.take_run(_RUN_AUTH_SPECIAL if url.special else _RUN_AUTH, False)

    def s_host(self, c: str) -> None:
        url = self.url
        if self.override is not None and url.scheme == "file":
            self.p -= 1
            self.state = "file_host"
        elif c == ":" and not self.in_brackets:
            if self.buf == "":
                raise self.fail("host-missing")
            if self.override == "hostname":
                raise Failure("host-missing", self.p)
            self.raw["host"] = [self.buf]
            url.host = self.host_parse(self.buf, self.p - len(self.buf))
            self.buf = ""
            self.state = "port"
        elif c in ("", "/", "?", "#") or (url.special and c == "\\"):
            self.p -= 1
            if url.special and self.buf == "":
                raise self.fail("host-missing")
            if (self.override is not None and self.buf == ""
                    and (url.includes_credentials() or url.port is not None)):
                raise Failure("host-missing", self.p)
            self.raw["host"] = [self.buf]
            url.host = self.host_parse(self.buf, self.p + 1 - len(self.buf))
            self.buf = ""
            self.state = "path_start"
            if self.override is not None:
                raise _Return
        elif c == "[":
            self.in_brackets = True
            self.buf += c
        elif c == "]":
            self.in_brackets = False
            self.buf += c
        else:
            self.buf += self.take_run(_RUN_HOST_SPECIAL if url.special else _RUN_HOST, False)

    s_hostname = s_host

    def s_port(self, c: str) -> None:
        url = self.url
        if c and c in _DIGITS:
            self.buf += c
        elif (c in ("", "/", "?", "#") or (url.special and c == "\\")
              or self.override is not None):
            if self.buf != "":
                self.raw["port"] = [self.buf]
                port = int(self.buf)
                if port > 65535:
                    raise self.fail("port-out-of-range", self.p - len(self.buf))
                url.port = None if port == SPECIAL.get(url.scheme, -1) else port
                self.buf = ""
                if self.override is not None:
                    raise _Return
            if self.override is not None:
                raise Failure("port-invalid", self.p)
            self.state = "path_start"
            self.p -= 1
        else:
            raise self.fail("port-invalid")

    def s_file(self, c: str) -> None:
        url, base = self.url, self.base
        url.scheme = "file"
        url.host = ""
        if c in ("/", "\\") and c:
            if c == "\\":
                self.err("invalid-reverse-solidus")
            self.state = "file_slash"
        elif base is not None and base.scheme == "file":
            url.host = base.host
            url.path = list(base.path)
            url.query = base.query
            if c == "?":
                url.query = ""
                self.state = "query"
                self.raw_start = self.p + 1
            elif c == "#":
                url.fragment = ""
                self.state = "fragment"
                self.raw_start = self.p + 1
            elif c:
                url.query = None
                if not _starts_with_drive_letter(self.inp, self.p):
                    url.shorten_path()
                else:
                    self.err("file-invalid-Windows-drive-letter")
                    url.path = []
                self.state = "path"
                self.p -= 1
        else:
            self.state = "path"
            self.p -= 1

    def s_file_slash(self, c: str) -> None:
        url, base = self.url, self.base
        if c in ("/", "\\") and c:
            if c == "\\":
                self.err("invalid-reverse-solidus")
            self.state = "file_host"
        else:
            if base is not None and base.scheme == "file":
                url.host = base.host
                if (not _starts_with_drive_letter(self.inp, self.p)
                        and isinstance(base.path, list) and base.path
                        and _is_normalized_drive_letter(base.path[0])):
                    assert isinstance(url.path, list)
                    url.path.append(base.path[0])
            self.state = "path"
            self.p -= 1

    def s_file_host(self, c: str) -> None:
        url = self.url
        if c in ("", "/", "\\", "?", "#"):
            self.p -= 1
            if self.override is None and _is_drive_letter(self.buf):
                self.err("file-invalid-Windows-drive-letter-host")
                self.state = "path"
            elif self.buf == "":
                url.host = ""
                if self.override is not None:
                    raise _Return
                self.state = "path_start"
            else:
                host = self.host_parse(self.buf, self.p + 1 - len(self.buf))
                if host == "localhost":
                    host = ""
                url.host = host
                if self.override is not None:
                    raise _Return
                self.buf = ""
                self.state = "path_start"
        else:
            self.buf += c

    def s_path_start(self, c: str) -> None:
        url = self.url
        if url.special:
            if c == "\\":
                self.err("invalid-reverse-solidus")
            self.state = "path"
            if c != "/" and c != "\\":
                self.p -= 1
        elif self.override is None and c == "?":
            url.query = ""
            self.state = "query"
            self.raw_start = self.p + 1
        elif self.override is None and c == "#":
            url.fragment = ""
            self.state = "fragment"
            self.raw_start = self.p + 1
        elif c:
            self.state = "path"
            if c != "/":
                self.p -= 1
        elif self.override is not None and url.host is None:
            assert isinstance(url.path, list)
            url.path.append("")

    def s_path(self, c: str) -> None:
        url = self.url
        special = url.special
        if (c in ("", "/") or (special and c == "\\")
                or (self.override is None and c in ("?", "#"))):
            if special and c == "\\":
                self.err("invalid-reverse-solidus")
            buf = self.buf
            self.raw.setdefault("path", []).append("/" + buf)
            path = url.path
            assert isinstance(path, list)
            slash = c == "/" or (special and c == "\\")
            if _double_dot(buf):
                url.shorten_path()
                if not slash:
                    path.append("")
            elif _single_dot(buf) and not slash:
                path.append("")
            elif not _single_dot(buf):
                if url.scheme == "file" and not path and _is_drive_letter(buf):
                    buf = buf[0] + ":"
                path.append(encode(buf, "path"))
            self.buf = ""
            if c == "?":
                url.query = ""
                self.state = "query"
                self.raw_start = self.p + 1
            elif c == "#":
                url.fragment = ""
                self.state = "fragment"
                self.raw_start = self.p + 1
        else:
            if special:
                pat = _RUN_PATH_SPECIAL_OVR if self.override else _RUN_PATH_SPECIAL
            else:
                pat = _RUN_PATH_OVR if self.override else _RUN_PATH
            self.buf += self.take_run(pat, True)

    def s_opaque_path(self, c: str) -> None:
        url = self.url
        if c == "?":
            url.query = ""
            self.state = "query"
            self.raw_start = self.p + 1
        elif c == "#":
            url.fragment = ""
            self.state = "fragment"
            self.raw_start = self.p + 1
        elif c == " ":
            self.err("invalid-URL-unit")
            assert isinstance(url.path, str)
            if self.remaining_starts("?") or self.remaining_starts("#"):
                url.path += "%20"
            else:
                url.path += " "
        elif c:
            chunk = self.take_run(_RUN_OPAQUE, True)
            assert isinstance(url.path, str)
            self.raw.setdefault("path", []).append(chunk)
            url.path += encode(chunk, "c0-control")

    def s_query(self, c: str) -> None:
        url = self.url
        if self.encoding != "utf-8" and (not url.special or url.scheme in ("ws", "wss")):
            self.encoding = "utf-8"
        if (self.override is None and c == "#") or c == "":
            qset = "special-query" if url.special else "query"
            if self.encoding == "utf-8":
                enc = encode(self.buf, qset)
            else:
                enc = encode(self.buf, qset, encoding=self.encoding)
            url.query = (url.query or "") + enc
            self.raw["query"] = [self.buf]
            self.buf = ""
            if c == "#":
                url.fragment = ""
                self.state = "fragment"
                self.raw_start = self.p + 1
        else:
            self.buf += self.take_run(_RUN_QUERY_OVR if self.override else _RUN_QUERY, True)

    def s_fragment(self, c: str) -> None:
        # The fragment runs to the end: take the rest at once.
        if c:
            rest = self.inp[self.p:]
            self.raw["fragment"] = [rest]
            url_unit_errors(rest, self.p, lambda name, p: self.err(name, p))
            self.url.fragment = (self.url.fragment or "") + encode(rest, "fragment")
            self.p = self.n


# Runs each state consumes at once (URL Standard §4.4: none of these code
# points changes the state or anything but the buffer).
_RUN_PATH = re.compile(r"[^/?#]*")
_RUN_PATH_SPECIAL = re.compile(r"[^/\\?#]*")
_RUN_PATH_OVR = re.compile(r"[^/]*")
_RUN_PATH_SPECIAL_OVR = re.compile(r"[^/\\]*")
_RUN_OPAQUE = re.compile(r"[^?# ]*")
_RUN_QUERY = re.compile(r"[^#]*")
_RUN_QUERY_OVR = re.compile(r".*", re.DOTALL)
_RUN_AUTH = re.compile(r"[^@/?#]*")
_RUN_AUTH_SPECIAL = re.compile(r"[^@/?#\\]*")
_RUN_HOST = re.compile(r"[^:/?#\[\]]*")
_RUN_HOST_SPECIAL = re.compile(r"[^:/?#\[\]\\]*")

_STATES: dict[str, Callable[[_Parser, str], None]] = {
    name[2:]: fn for name, fn in vars(_Parser).items() if name.startswith("s_")
}


def _trim(inp: str, sink: Sink) -> tuple[str, int]:
    stripped = inp.lstrip(_C0_OR_SPACE)
    lead = len(inp) - len(stripped)
    stripped = stripped.rstrip(_C0_OR_SPACE)
    if lead or len(stripped) + lead != len(inp):
        sink("invalid-URL-unit", 0 if lead else lead + len(stripped))
    return stripped, lead


def basic_parse(
    inp: str,
    base: URLRecord | None = None,
    *,
    url: URLRecord | None = None,
    state_override: str | None = None,
    encoding: str = "utf-8",
    errors: list[tuple[str, int]] | None = None,
    raw: dict[str, str] | None = None,
) -> URLRecord:
    """Run the basic URL parser (§4.4); raise :class:`Failure` on failure.

    With ``url`` and ``state_override`` (the setters), ``url`` is changed in
    place and :class:`Failure` means the setter changes nothing more.
    """
    if errors is not None:
        out = errors

        def sink(name: str, pos: int) -> None:
            out.append((name, pos))
    else:
        def sink(name: str, pos: int) -> None:
            pass

    lead = 0
    if url is None:
        url = URLRecord()
        inp, lead = _trim(inp, sink)
    kept: list[int] | None = None
    if "\t" in inp or "\n" in inp or "\r" in inp:
        kept = [i for i, ch in enumerate(inp) if ch not in "\t\n\r"]
        first = next(i for i, ch in enumerate(inp) if ch in "\t\n\r")
        sink("invalid-URL-unit", lead + first)
        inp = inp.replace("\t", "").replace("\n", "").replace("\r", "")

    def pos_map(p: int) -> int:
        if kept is None:
            return lead + p
        if p < len(kept):
            return lead + kept[p]
        return lead + (kept[-1] + 1 if kept else 0)

    parser = _Parser(inp, url, base, state_override, sink, pos_map, encoding)
    parser.run()
    if raw is not None:
        # (pieces joined once: appending to a str per segment was quadratic)
        raw.update((k, "".join(v)) for k, v in parser.raw.items())
    return url


# --- the common case, without the state machine ----------------------------
# A special, non-file URL with an ASCII domain or dotted IPv4-free host, no
# credentials, no tabs or newlines, no backslash and no dot segments: the
# component boundaries are where RFC 3986's regular expression puts them, and
# each component is encoded with its set in one kernel call.  Anything else
# (or any doubt) returns None and the state machine runs.  A hypothesis test
# checks that both give the same record and the same validation errors.
_FAST = re.compile(
    r"(?P<scheme>[A-Za-z][A-Za-z0-9+.\-]*)://"
    r"(?:(?P<userinfo>[^/?#\\]*)@)?"
    r"(?P<host>[A-Za-z0-9\-_]+(?:\.[A-Za-z0-9\-_]+)*\.?|\[[0-9A-Fa-f:.]*\])"
    r"(?::(?P<port>[0-9]{0,5}))?"
    r"(?P<path>/[^?#]*)?"
    r"(?:\?(?P<query>[^#]*))?"
    r"(?:#(?P<fragment>.*))?",
    re.DOTALL,
)
_FAST_SCHEMES = frozenset(("http", "https", "ws", "wss", "ftp"))
# A host the state machine must see: one ending in a number (IPv4 parser) or
# holding an xn-- label (UTS #46 validation).
_FAST_HOST_NUMERIC = re.compile(r"(?:^|\.)(?:[0-9]+|0[xX][0-9A-Fa-f]*)\.?$")
# What strict domain to ASCII accepts of an LDH host (STD3, hyphens, lengths).
_FAST_HOST_STRICT = re.compile(
    r"(?!.{254})(?:(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*"
    r"(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.?"
)
_NEEDS_UNIT_CHECK = re.compile(r"[^0-9A-Za-z!$&'()*+,\-./:;=?@_~\u00a0-\ud7ff\ue000-\ufdcf]")


def _unit_errors(text: str, offset: int, found: list[tuple[str, int]]) -> None:
    if _NEEDS_UNIT_CHECK.search(text) is not None:
        url_unit_errors(text, offset, lambda n, p: found.append((n, p)))


def _fast_path_segments(path: str) -> list[str]:
    # The path state's dot-segment steps (URL Standard §4.4) on raw segments
    # of a special, non-file URL with no backslash.
    raw = path[1:].split("/")
    out: list[str] = []
    last = len(raw) - 1
    for i, seg in enumerate(raw):
        if _double_dot(seg):
            if out:
                out.pop()
            if i == last:
                out.append("")
        elif _single_dot(seg):
            if i == last:
                out.append("")
        else:
            out.append(seg)
    return out


def fast_parse(inp: str, errors: list[tuple[str, int]] | None) -> tuple[URLRecord, str] | None:
    """The common case of :func:`basic_parse` (no base, UTF-8): record and href, or None."""
    if not inp or inp[0] <= " " or inp[-1] <= " " or "\t" in inp or "\n" in inp or "\r" in inp:
        return None
    m = _FAST.fullmatch(inp)
    if m is None:
        return None
    scheme, userinfo, host_text, port_text, path, q, frag = m.groups()
    scheme = scheme.lower()
    if scheme not in _FAST_SCHEMES:
        return None
    found: list[tuple[str, int]] = []
    host: Host
    hs = m.start(3)
    if host_text[0] == "[":
        try:
            host = parse_ipv6(host_text[1:-1], lambda n, p: found.append((n, hs + 1 + p)))
        except HostError:
            return None
    else:
        host = host_text.lower()
        if "xn--" in host:
            return None
        if _FAST_HOST_STRICT.fullmatch(host) is None:
            found.append(("domain-to-ASCII", hs))
        if _FAST_HOST_NUMERIC.search(host) is not None:
            try:
                host = parse_ipv4(host, lambda n, p: found.append((n, hs + p)))
            except HostError:
                return None  # the state machine reports the failure
    username = password = ""
    if userinfo is not None:
        u0 = m.start(2)
        found += [("invalid-credentials", u0 + i) for i, ch in enumerate(userinfo) if ch == "@"]
        found.append(("invalid-credentials", m.end(2)))
        name, colon, pw = userinfo.partition(":")
        username = encode(name, "userinfo")
        password = encode(pw, "userinfo") if colon else ""
    segments: list[str] | None = None
    if path is None:
        epath = "/"
    elif "\\" in path:
        return None
    elif "/." in path or ("%" in path and "%2e" in path.lower()):
        segments = [encode(x, "path") for x in _fast_path_segments(path)]
        epath = "/" + "/".join(segments)
    else:
        epath = encode(path, "path")
    port: int | None = None
    if port_text:
        port = int(port_text)
        if port > 65535:
            return None
        if port == SPECIAL[scheme]:
            port = None
    if errors is not None:
        if path:
            _unit_errors(path, m.start(5), found)
        if q:
            _unit_errors(q, m.start(6), found)
        if frag:
            _unit_errors(frag, m.start(7), found)
        if found:
            found.sort(key=lambda e: e[1])
            errors.extend(found)
    href = [scheme, "://"]
    if username or password:
        href.append(username + (":" + password if password else "") + "@")
    href.append(host if isinstance(host, str) else serialize_host(host))
    if port is not None:
        href.append(":" + str(port))
    href.append(epath)
    equery = efrag = None
    if q is not None:
        equery = encode(q, "special-query")
        href.append("?" + equery)
    if frag is not None:
        efrag = encode(frag, "fragment")
        href.append("#" + efrag)
    if segments is None:
        segments = epath[1:].split("/")
    rec = URLRecord(scheme, username, password, host, port, segments, equery, efrag)
    return rec, "".join(href)
