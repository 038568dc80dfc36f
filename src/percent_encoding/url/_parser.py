"""The WHATWG URL Standard's basic URL parser (URL Standard §4.4).

Strategy: :func:`basic_parse` is the Standard's state machine, one small
function per state, run over the input one code point at a time with the
Standard's pointer arithmetic, so that state overrides (the URL API setters)
behave exactly as written.  Components are collected raw and percent-encoded
when they end, which gives the same result as the Standard's per-code-point
UTF-8 percent-encode (it is concatenation-compatible) through the library's
kernels.  Validation errors are recorded as ``(name, position)``, positions in
the caller's original input; a fatal one raises :class:`Failure`.

The URL record and its serializers (§4.1, §4.5) are in :mod:`._url_record`; the fast
path for the common case is in :mod:`._url_fast`.  This module re-exports both.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..core import encode
from ._fast import fast_parse as fast_parse
from ._host import HostError, parse_host, url_unit_errors
from ._record import (
    ALPHA,
    SPECIAL,
    Failure,
    Host,
    URLRecord,
    double_dot,
    is_drive_letter,
    is_normalized_drive_letter,
    serialize,
    single_dot,
    starts_with_drive_letter,
)
from ._record import serialize_path as serialize_path

__all__ = ["SPECIAL", "Failure", "URLRecord", "basic_parse", "serialize"]

_SCHEME_CHARS = ALPHA | frozenset("0123456789+-.")
_DIGITS = frozenset("0123456789")
_HEX = frozenset("0123456789abcdefABCDEF")
_C0_OR_SPACE = "".join(chr(i) for i in range(0x21))


class _Return(Exception):
    """A state override run ended early without failure."""


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
        "raw",
        "raw_start",
        "sink",
        "state",
        "url",
        "userinfo",
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
        # The authority state's buffers at each "@", joined once at its end.
        self.userinfo: list[str] = []
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
        if c and c in ALPHA:
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
            # (the whole run at once: one code point a step was quadratic)
            self.buf += self.take_run(_RUN_SCHEME, False).lower()
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
            self.raw.setdefault("userinfo", []).append(self.buf + "@")
            self.userinfo.append(self.buf)
            self.buf = ""
        elif c in ("", "/", "?", "#") or (url.special and c == "\\"):
            if self.at_seen and self.buf == "":
                raise self.fail("host-missing")
            if self.userinfo:
                # The buffers of every "@" in order: the first ":" of all of them
                # splits username from password (§4.4 authority state); encoded
                # once here (appending at each "@" was quadratic).
                name, colon, pw = "".join(self.userinfo).partition(":")
                url.username += encode(name, "userinfo")
                if colon:
                    url.password += encode(pw, "userinfo")
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
        else:
            # The rest of the host at once, "[" and "]" toggling the brackets
            # flag on the way (one code point a step was quadratic).  The run
            # stops only where this state leaves (a ":" outside brackets, the
            # end of the authority), so the flag is never set on entry here.
            m = (_RUN_HOST_SPECIAL if url.special else _RUN_HOST).match(self.inp, self.p)
            assert m is not None and m.end() > self.p
            self.in_brackets = m.group("open") is not None
            self.buf += self.inp[self.p:m.end()]
            self.p = m.end() - 1

    s_hostname = s_host

    def s_port(self, c: str) -> None:
        url = self.url
        if c and c in _DIGITS:
            self.buf += self.take_run(_RUN_DIGITS, False)
        elif (c in ("", "/", "?", "#") or (url.special and c == "\\")
              or self.override is not None):
            if self.buf != "":
                self.raw["port"] = [self.buf]
                # Any number of digits (§4.4 port state): leading zeros
                # dropped, the length checked before int() sees the text.
                digits = self.buf.lstrip("0")
                port = int(digits or "0") if len(digits) <= 5 else 65536
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
                if not starts_with_drive_letter(self.inp, self.p):
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
                if (not starts_with_drive_letter(self.inp, self.p)
                        and isinstance(base.path, list) and base.path
                        and is_normalized_drive_letter(base.path[0])):
                    assert isinstance(url.path, list)
                    url.path.append(base.path[0])
            self.state = "path"
            self.p -= 1

    def s_file_host(self, c: str) -> None:
        url = self.url
        if c in ("", "/", "\\", "?", "#"):
            self.p -= 1
            if self.override is None and is_drive_letter(self.buf):
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
            self.buf += self.take_run(_RUN_FILE_HOST, False)

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
            if double_dot(buf):
                url.shorten_path()
                if not slash:
                    path.append("")
            elif single_dot(buf) and not slash:
                path.append("")
            elif not single_dot(buf):
                if url.scheme == "file" and not path and is_drive_letter(buf):
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
        elif c:
            # The whole path at once (a step per space was quadratic): a space
            # is kept, or "%20" when "?" or "#" follows it (§4.4 opaque path state).
            chunk = self.take_run(_RUN_OPAQUE, True)
            assert isinstance(url.path, str)
            self.raw.setdefault("path", []).append(chunk)
            enc = encode(chunk, "c0-control")
            if chunk[-1] == " " and self.p + 1 < self.n:
                enc = enc[:-1] + "%20"
            url.path += enc

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
_RUN_OPAQUE = re.compile(r"[^?#]*")
_RUN_QUERY = re.compile(r"[^#]*")
_RUN_QUERY_OVR = re.compile(r".*", re.DOTALL)
_RUN_AUTH = re.compile(r"[^@/?#]*")
_RUN_AUTH_SPECIAL = re.compile(r"[^@/?#\\]*")
# The host state's run: outside brackets anything but ":", "[" and the
# authority's end; a "[" opens brackets, inside which ":" is part of the host
# until a "]"; the run ends inside an open bracket when no "]" follows ("open").
_RUN_HOST = re.compile(r"(?:[^:\[/?#]+|\[[^\]/?#]*\])*(?P<open>\[[^\]/?#]*)?")
_RUN_HOST_SPECIAL = re.compile(r"(?:[^:\[/?#\\]+|\[[^\]/?#\\]*\])*(?P<open>\[[^\]/?#\\]*)?")
_RUN_FILE_HOST = re.compile(r"[^/\\?#]*")
_RUN_SCHEME = re.compile(r"[A-Za-z0-9+\-.]*")
_RUN_DIGITS = re.compile(r"[0-9]*")

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
        # p is -1 when a state stepped back at the start (a setter's empty
        # host): the error is at the start of the input
        p = max(p, 0)
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
