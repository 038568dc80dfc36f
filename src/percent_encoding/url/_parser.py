"""The WHATWG URL Standard's basic URL parser (URL Standard §4.4): the one URL parser of
the pure twin.

Strategy: :func:`basic_parse` is the Standard's state machine, one method per state
(``s_`` and the state's name) in one class, with the Standard's pointer arithmetic,
so that state overrides (the URL API setters) behave exactly as written.  Its
shortcuts are steps inside the states, never a parser beside them: where a state
only copies code points into a buffer, it takes the whole run at once (a regular
expression or ``str.find`` finds the next code point that matters) rather than one
code point a step; the authority state takes a plain domain in one step; the path
state takes the whole path and splits it into segments, and a plain path, query
and fragment in one step.  A state that ends a component hands the next code point
straight to the next state where the loop would have done just that.  Before the
loop, :func:`_special_start` is the scheme start state's step for the commonest
start (a special scheme, "//", a plain host and a port), and for the commonest URL
whole when what follows is plain too; it writes the record the states would write
and hands anything else to the path start state or to the loop from the start.

What a state does with its run of text (checking it for validation errors,
percent-encoding it with its set, resolving dot segments) is the buffer work of
:mod:`._runs`, as ada keeps its state switch in ``parser.cpp`` and its buffer work
in ``url_aggregator``.  Components are percent-encoded when they end, which gives
the same result as the Standard's per-code-point UTF-8 percent-encode (it is
concatenation-compatible), and text that needs neither encoding nor a validation
error is kept as it is.  Validation errors are recorded as ``(name, position)``,
positions in the caller's original input; a fatal one raises :class:`Failure`.
The URL record and its serializers (§4.1, §4.5) are in :mod:`._record`; this
module re-exports them.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

from ._host import PLAIN_DOMAIN, HostError, parse_host_remembered, plain_host
from ._record import (
    ALPHA,
    SPECIAL,
    Failure,
    Host,
    URLRecord,
    is_drive_letter,
    is_normalized_drive_letter,
    serialize,
    starts_with_drive_letter,
)
from ._record import serialize_path as serialize_path
from ._runs import (
    PLAIN_REST,
    PLAIN_REST_SPECIAL,
    PLAIN_REST_SPECIAL_TEXT,
    PLAIN_REST_TEXT,
    fragment_text,
    opaque_path_text,
    parse_path,
    plain_path,
    query_text,
    userinfo_text,
)

__all__ = ["SPECIAL", "Failure", "URLRecord", "basic_parse", "serialize"]

_SCHEME_CHARS = ALPHA | frozenset("0123456789+-.")
_DIGITS = frozenset("0123456789")
_C0_OR_SPACE = "".join(chr(i) for i in range(0x21))


class _Return(Exception):
    """A state override run ended early without failure."""


class _Parser:
    """One run of the basic URL parser (§4.4): the input, the pointer, the buffer and
    the flags the Standard names, and one method per state (``s_`` and its name)."""

    __slots__ = ("base", "buf", "encoding", "errors", "in_brackets", "inp", "kept", "lead", "n",
                 "override", "p", "raw", "special", "state", "url")

    def __init__(self, inp: str, url: URLRecord, base: URLRecord | None,
                 override: str | None, errors: list[tuple[str, int]] | None, lead: int,
                 kept: list[int] | None, encoding: str, raw: dict[str, str] | None) -> None:
        self.inp = inp
        self.n = len(inp)
        self.p = 0
        self.buf = ""
        self.url = url
        # whether url's scheme is special (§4.1), kept up to date where it is set
        self.special = url.scheme in SPECIAL
        self.base = base
        self.override = override
        self.state = override or "scheme_start"
        self.in_brackets = False
        self.errors = errors
        # where the parsed text's code points were in the input as given
        # (basic_parse's trimming and tab and newline removal)
        self.lead = lead
        self.kept = kept
        self.encoding = encoding
        # The raw text of each component, for explain() (None: not asked for).
        self.raw = raw

    # -- helpers -----------------------------------------------------------
    def pos_map(self, p: int) -> int:
        # p is -1 when a state stepped back at the start (a setter's empty
        # host): the error is at the start of the input
        if p < 0:
            p = 0
        kept = self.kept
        if kept is None:
            return self.lead + p
        if p < len(kept):
            return self.lead + kept[p]
        return self.lead + (kept[-1] + 1 if kept else 0)

    def err(self, name: str, p: int | None = None) -> None:
        if self.errors is not None:
            self.errors.append((name, self.pos_map(self.p if p is None else p)))

    def fail(self, name: str, p: int | None = None) -> Failure:
        pos = self.pos_map(self.p if p is None else p)
        if self.errors is not None:
            self.errors.append((name, pos))
        return Failure(name, pos)

    def remaining_starts(self, s: str) -> bool:
        return self.inp.startswith(s, self.p + 1)

    def host_parse(self, text: str, start: int) -> Host:
        plain = plain_host(text, not self.special)
        if plain is not None:
            return plain

        def sink(name: str, off: int) -> None:
            self.err(name, start + off)

        try:
            return parse_host_remembered(text, not self.special, sink)
        except HostError as e:
            raise self.fail(e.name, start + e.position) from None

    def from_base(self, c: str) -> bool:
        # The relative and file states' common steps (§4.4): the base's path and
        # query, then "?" starts a query and "#" a fragment of the input's own; True
        # when c starts a path instead (the query is then null).
        base, url = self.base, self.url
        assert base is not None
        url.path = list(base.path)
        url.query = base.query
        if not self.query_or_fragment(c) and c:
            url.query = None
            return True
        return False

    # -- the machine -------------------------------------------------------
    # Each state is a method taking the code point at p ("" past the end); the
    # loop that runs them is basic_parse's.  A state that only copies consumes its
    # whole run at once and then goes on with the code point that ends the run
    # (what the loop's next step would do), and a state that ends a component
    # hands the next code point straight to the next state where the loop would
    # have done just that.
    def s_scheme_start(self, c: str) -> None:
        if c in ALPHA:
            self.state = "scheme"
            self.s_scheme(c)
        elif self.override is None:
            self.state = "no_scheme"
            self.p -= 1
        else:
            raise Failure("scheme-start", self.p)

    def s_scheme(self, c: str) -> None:
        url = self.url
        inp = self.inp
        override = self.override
        buf = self.buf
        if c in _SCHEME_CHARS:
            # (the whole run at once: one code point a step was quadratic)
            m = _RUN_SCHEME.match(inp, self.p)
            assert m is not None
            buf += m.group().lower()
            self.p = p = m.end()
            c = inp[p] if p < self.n else ""
        if c == ":":
            if override is not None:
                if (url.scheme in SPECIAL) != (buf in SPECIAL):
                    raise _Return
                if (url.includes_credentials() or url.port is not None) and buf == "file":
                    raise _Return
                if url.scheme == "file" and url.host == "":
                    raise _Return
            url.scheme = scheme = buf
            self.special = special = scheme in SPECIAL
            if override is not None:
                if url.port is not None and url.port == SPECIAL.get(scheme):
                    url.port = None
                raise _Return
            self.buf = ""
            p = self.p
            if scheme == "file":
                if not inp.startswith("//", p + 1):
                    self.err("special-scheme-missing-following-solidus")
                self.state = "file"
                self.p = p = p + 1
                self.s_file(inp[p] if p < self.n else "")
            elif special and self.base is not None and self.base.scheme == scheme:
                self.state = "special_relative_or_authority"
            elif special:
                c = inp[p + 3] if p + 3 < self.n else ""
                if inp.startswith("//", p + 1) and c != "/" and c != "\\":
                    # (what the special authority slashes state and the next one do
                    # with "//" and then no slash: the authority state at the third
                    # code point)
                    self.state = "authority"
                    self.p = p = p + 3
                    self.s_authority(c)
                else:
                    self.state = "special_authority_slashes"
                    self.p = p = p + 1
                    self.s_special_authority_slashes(inp[p] if p < self.n else "")
            elif inp.startswith("//", p + 1):
                # (what the path or authority state does with the second "/": the
                # authority state at the next code point)
                self.state = "authority"
                self.p = p = p + 3
                self.s_authority(inp[p] if p < self.n else "")
            elif inp.startswith("/", p + 1):
                self.state = "path_or_authority"
                self.p += 1
            else:
                url.path = ""
                self.state = "opaque_path"
                self.p = p = p + 1
                self.s_opaque_path(inp[p] if p < self.n else "")
        elif override is None:
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
            self.special = base.scheme in SPECIAL
            url.path = base.path
            url.query = base.query
            url.fragment = ""
            self.state = "fragment"
        elif base.scheme != "file":
            # (decreasing the pointer, then the loop's next turn: this code point)
            self.state = "relative"
            self.s_relative(c)
        else:
            self.state = "file"
            self.s_file(c)

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
        self.special = special = base.scheme in SPECIAL
        if c == "/":
            self.state = "relative_slash"
        elif special and c == "\\":
            self.err("invalid-reverse-solidus")
            self.state = "relative_slash"
        else:
            self._copy_base_authority()
            if self.from_base(c):
                url.shorten_path()
                self.state = "path"
                self.s_path(c)

    def s_relative_slash(self, c: str) -> None:
        if self.special and c in ("/", "\\"):
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
            self.p = p = self.p + 2
            self.s_special_authority_ignore_slashes(self.inp[p] if p < self.n else "")
        else:
            self.err("special-scheme-missing-following-solidus")
            self.state = "special_authority_ignore_slashes"
            self.p -= 1

    def s_special_authority_ignore_slashes(self, c: str) -> None:
        if c != "/" and c != "\\":
            self.state = "authority"
            self.s_authority(c)
        else:
            self.err("special-scheme-missing-following-solidus")

    def s_authority(self, c: str) -> None:
        # The whole authority at once (§4.4 authority state): each "@" in it is a
        # validation error and makes the buffer so far userinfo, the "@"s before
        # the last one as "%40"; the first ":" of all of it splits username from
        # password.  The host state then starts after the last "@".
        url = self.url
        inp, p = self.inp, self.p
        special = self.special
        if special and self.raw is None and not self.buf:
            # The commonest authority: a plain domain (_host.plain_host), then the
            # path, query, fragment or the end.  One search for both.
            m = _PLAIN_DOMAIN_AUTH.match(inp, p)
            if m is not None:
                end = m.end()
                if end - p <= _PLAIN_DOMAIN_AUTH_MAX and inp.find("--", p, end) < 0:
                    url.host = m.group().lower()
                    self.host_then_path(inp[end] if end < self.n else "", end)
                    return
        m = (_PLAIN_AUTH_SPECIAL if special else _PLAIN_AUTH).match(inp, p)
        assert m is not None
        end = m.end()
        c = inp[end] if end < self.n else ""
        if c in _AUTH_STOP or (c == "\\" and special):
            # (no "@", brackets or ":": all of it is the host state's run)
            text = self.buf + m.group()
            if text and self.raw is None:
                url.host = self.host_parse(text, end - len(text))
                self.buf = ""
                self.host_then_path(c, end)
                return
            self.buf = text
            self.p = end
            self.state = "host"
            self.s_host(c)
            return
        m = (_AUTH_END_SPECIAL if special else _AUTH_END).search(inp, end)
        end = self.n if m is None else m.start()
        last_at = inp.rfind("@", p, end)
        if last_at >= 0:
            bufs = inp[p:last_at].split("@")
            pos = p - 1
            for b in bufs:
                pos += len(b) + 1
                self.err("invalid-credentials", pos)
            if self.raw is not None:
                self.raw["userinfo"] = "@%40".join(bufs) + "@"
            if last_at + 1 == end:
                raise self.fail("host-missing", end)
            name, colon, pw = "%40".join(bufs).partition(":")
            url.username += userinfo_text(name)
            if colon:
                url.password += userinfo_text(pw)
            p = self.p = last_at + 1
        self.state = "host"
        if inp.find("[", p, end) < 0:
            # (the host state's run, without brackets: up to a ":" or the end)
            port_at = inp.find(":", p, end)
            if port_at >= 0:
                end = port_at
            self.buf += inp[p:end]
            self.p = p = end
        self.s_host(inp[p] if p < self.n else "")

    def s_host(self, c: str) -> None:
        url = self.url
        special = self.special
        if self.override is not None and url.scheme == "file":
            self.p -= 1
            self.state = "file_host"
            return
        if c not in _AUTH_STOP and (c != ":" or self.in_brackets) and (c != "\\" or not special):
            # The rest of the host at once, "[" and "]" toggling the brackets
            # flag on the way (one code point a step was quadratic).  The run
            # stops only where this state leaves (a ":" outside brackets, the
            # end of the authority), so the flag is never set on entry here.
            m = (_RUN_HOST_SPECIAL if special else _RUN_HOST).match(self.inp, self.p)
            assert m is not None and m.end() > self.p
            self.in_brackets = m.group("open") is not None
            self.buf += m.group()
            self.p = p = m.end()
            c = self.inp[p] if p < self.n else ""
        if c == ":" and not self.in_brackets:
            if self.buf == "":
                raise self.fail("host-missing")
            if self.override == "hostname":
                raise Failure("host-missing", self.p)
            if self.raw is not None:
                self.raw["host"] = self.buf
            url.host = self.host_parse(self.buf, self.p - len(self.buf))
            self.buf = ""
            self.state = "port"
            self.p = p = self.p + 1
            self.s_port(self.inp[p] if p < self.n else "")
        else:
            self.p -= 1
            if special and self.buf == "":
                raise self.fail("host-missing")
            if (self.override is not None and self.buf == ""
                    and (url.includes_credentials() or url.port is not None)):
                raise Failure("host-missing", self.p)
            if self.raw is not None:
                self.raw["host"] = self.buf
            url.host = self.host_parse(self.buf, self.p + 1 - len(self.buf))
            self.buf = ""
            self.state = "path_start"
            if self.override is not None:
                raise _Return
            self.p += 1
            self.s_path_start(c)

    s_hostname = s_host

    def s_port(self, c: str) -> None:
        url = self.url
        if c in _DIGITS:
            m = _RUN_DIGITS.match(self.inp, self.p)
            assert m is not None
            self.buf += m.group()
            self.p = p = m.end()
            c = self.inp[p] if p < self.n else ""
        if (c in _AUTH_STOP or (self.special and c == "\\")
              or self.override is not None):
            if self.buf != "":
                if self.raw is not None:
                    self.raw["port"] = self.buf
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
            self.s_path_start(c)
        else:
            raise self.fail("port-invalid")

    def s_file(self, c: str) -> None:
        url, base = self.url, self.base
        url.scheme = "file"
        self.special = True
        url.host = ""
        if c in ("/", "\\"):
            if c == "\\":
                self.err("invalid-reverse-solidus")
            self.state = "file_slash"
            self.p = p = self.p + 1
            self.s_file_slash(self.inp[p] if p < self.n else "")
        elif base is not None and base.scheme == "file":
            url.host = base.host
            if self.from_base(c):
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
        if c in ("/", "\\"):
            if c == "\\":
                self.err("invalid-reverse-solidus")
            self.state = "file_host"
            self.p = p = self.p + 1
            self.s_file_host(self.inp[p] if p < self.n else "")
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
        if c not in _FILE_HOST_STOP:
            m = _RUN_FILE_HOST.match(self.inp, self.p)
            assert m is not None
            self.buf += m.group()
            self.p = p = m.end()
            c = self.inp[p] if p < self.n else ""
        self.p -= 1
        if self.override is None and is_drive_letter(self.buf):
            # (the buffer stays: the path state takes it as the first segment)
            self.err("file-invalid-Windows-drive-letter-host")
            self.state = "path"
        elif self.buf == "":
            url.host = ""
            if self.override is not None:
                raise _Return
            self.state = "path_start"
            self.p += 1
            self.s_path_start(c)
        else:
            host = self.host_parse(self.buf, self.p + 1 - len(self.buf))
            if host == "localhost":
                host = ""
            url.host = host
            if self.override is not None:
                raise _Return
            self.buf = ""
            self.state = "path_start"
            self.p += 1
            self.s_path_start(c)

    # -- path start, path, opaque path, query, fragment ----------------------
    def query_or_fragment(self, c: str) -> bool:
        # "?" starts the query and "#" the fragment, in the states where either may
        # follow (§4.4: relative, file, path start, path, opaque path): True when c did.
        if c == "?":
            self.url.query = ""
            self.state = "query"
        elif c == "#":
            self.url.fragment = ""
            self.state = "fragment"
        else:
            return False
        return True

    def host_then_path(self, c: str, end: int) -> None:
        # The host state at c (input offset end), the host parsed, and then the path
        # start state, in one step: what the two states do with a host and no port.
        if self.special:
            self.state = "path"
            if c == "/" or c == "\\":
                if c == "\\":
                    self.err("invalid-reverse-solidus", end)
                self.p = end = end + 1
                c = self.inp[end] if end < self.n else ""
            else:
                self.p = end
            self.s_path(c)
        else:
            self.state = "path_start"
            self.p = end
            self.s_path_start(c)

    def s_path_start(self, c: str) -> None:
        url = self.url
        if self.special:
            self.state = "path"
            if c == "/" or c == "\\":
                if c == "\\":
                    self.err("invalid-reverse-solidus")
                self.p = p = self.p + 1
                self.s_path(self.inp[p] if p < self.n else "")
            else:
                self.s_path(c)
        elif self.override is None and self.query_or_fragment(c):
            pass
        elif c:
            self.state = "path"
            if c != "/":
                self.p -= 1
            elif self.override is None:
                self.p = p = self.p + 1
                self.s_path(self.inp[p] if p < self.n else "")
        elif self.override is not None and url.host is None:
            assert isinstance(url.path, list)
            url.path.append("")

    def s_path(self, c: str) -> None:
        # The whole path at once (§4.4 path state, see _runs.parse_path), up to
        # the "?" or "#" that ends it (the end of the input for a setter).
        url = self.url
        if self.override is None and self.raw is None and not self.buf:
            # The commonest rest in one step: a path, then a query and a fragment,
            # none of which needs percent-encoding or holds a validation error (the
            # path, query and fragment states over their whole runs, §4.4).
            m = (PLAIN_REST_SPECIAL if self.special else PLAIN_REST).fullmatch(self.inp, self.p)
            if m is not None:
                text, url.query, url.fragment = m.groups()
                plain_path(url.path, text, url.scheme == "file")  # type: ignore[arg-type]
                self.p = self.n
                return
        path = url.path
        assert isinstance(path, list)
        special = self.special
        file = url.scheme == "file"
        inp, p, n = self.inp, self.p, self.n
        raw = self.raw
        if p >= n and raw is None and not self.buf:
            # Nothing left (a special URL with no path, or one ending in "/"): one
            # empty segment, as the loop below would find.
            path.append("")
            return
        if self.buf:
            # The file host state's Windows drive letter (§4.4), left in the
            # buffer: the first segment, which c ends.
            seg, self.buf = self.buf, ""
            if raw is not None:
                raw["path"] = "/" + seg
            path.append(seg[0] + ":" if file and not path and is_drive_letter(seg) else seg)
            if c == "\\":
                self.err("invalid-reverse-solidus")
            if c not in ("/", "\\"):
                self.end_path(c)
                return
            p += 1
        if self.override is None:
            # (the first "?" or "#": two searches for one character each are
            # several times faster than one for a class of two)
            end = inp.find("#", p)
            if end < 0:
                end = n
            q = inp.find("?", p, end)
            if q >= 0:
                end = q
        else:
            end = n
        text = inp[p:end]
        found: list[tuple[str, int]] = []
        parse_path(path, text, p, file, special, found)
        for name, pos in found:
            self.err(name, pos)
        if raw is not None:
            raw["path"] = raw.get("path", "") + "/" + (text.replace("\\", "/") if special
                                                       else text)
        self.p = end
        if end < n:
            self.end_path(inp[end])

    def end_path(self, c: str) -> None:
        # The path (or opaque path) state at the "?" or "#" that ends it (nothing
        # at its end), then the query or fragment state from the next code point.
        if self.query_or_fragment(c):
            self.p = p = self.p + 1
            (self.s_query if c == "?" else self.s_fragment)(self.inp[p] if p < self.n else "")

    def s_opaque_path(self, c: str) -> None:
        url = self.url
        if self.query_or_fragment(c):
            pass
        elif c:
            # The whole path at once (a step per space was quadratic), up to the "?"
            # or "#" that ends it.
            inp, p = self.inp, self.p
            end = inp.find("#", p)
            if end < 0:
                end = self.n
            q = inp.find("?", p, end)
            if q >= 0:
                end = q
            chunk = inp[p:end]
            assert isinstance(url.path, str)
            if self.raw is not None:
                self.raw["path"] = chunk
            url.path += opaque_path_text(chunk, p, end < self.n, self.err)
            self.p = end
            if end < self.n:
                self.end_path(inp[end])

    def s_query(self, c: str) -> None:
        url = self.url
        special = self.special
        if self.encoding != "utf-8" and (not special or url.scheme in ("ws", "wss")):
            self.encoding = "utf-8"
        # The whole query at once: the buffer is empty on entry and the run ends at the
        # "#" or the end that ends the query.
        buf = ""
        if c != "" and (c != "#" or self.override is not None):
            p = self.p
            end = self.n if self.override else self.inp.find("#", p)
            if end < 0:
                end = self.n
            buf = self.inp[p:end]
            enc = query_text(buf, p, special, self.encoding, self.err)
            self.p = end
            c = self.inp[end] if end < self.n else ""
        else:
            enc = ""
        url.query = (url.query or "") + enc
        if self.raw is not None:
            self.raw["query"] = buf
        if c == "#":
            url.fragment = ""
            self.state = "fragment"

    def s_fragment(self, c: str) -> None:
        # The fragment runs to the end: take the rest at once.
        if c:
            rest = self.inp[self.p:]
            if self.raw is not None:
                self.raw["fragment"] = rest
            self.url.fragment = (self.url.fragment or "") + fragment_text(rest, self.p,
                                                                          self.err)
            self.p = self.n


# Runs each state consumes at once (URL Standard §4.4: none of these code
# points changes the state or anything but the buffer).
# The host state's run: outside brackets anything but ":", "[" and the
# authority's end; a "[" opens brackets, inside which ":" is part of the host
# until a "]"; the run ends inside an open bracket when no "]" follows ("open").
_RUN_HOST = re.compile(r"(?:[^:\[/?#]+|\[[^\]/?#]*\])*(?P<open>\[[^\]/?#]*)?")
_RUN_HOST_SPECIAL = re.compile(r"(?:[^:\[/?#\\]+|\[[^\]/?#\\]*\])*(?P<open>\[[^\]/?#\\]*)?")
_RUN_FILE_HOST = re.compile(r"[^/\\?#]*")
_RUN_SCHEME = re.compile(r"[A-Za-z0-9+\-.]*")
# A scheme and its ":" at the start of the input (§4.4 scheme start and scheme states).
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+\-.]*:")
_RUN_DIGITS = re.compile(r"[0-9]*")
# Where the authority and the path end (§4.4 authority and path states).
_PLAIN_AUTH = re.compile(r"[^@\[:/?#]*")
# A special URL's authority that is a plain domain (_host.plain_host's, its length
# and "--" checked apart) ending where the authority does.  From Python 3.11 with
# possessive quantifiers, nearly twice as fast: labels of letters and digits with
# hyphens inside, whose runs (of three disjoint classes, so nothing is ever given
# back) need no backtracking.  That pattern has no bound on a label's length, so the
# authority step takes authorities of up to 63 characters, where no label can be
# longer (the first step checks the labels' lengths).
if sys.version_info >= (3, 11):
    _DOMAIN = (r"(?:[A-Za-z0-9]++(?:-++[A-Za-z0-9]++)*+\.)*+[A-Za-z][A-Za-z0-9]*+"
               r"(?:-++[A-Za-z0-9]++)*+")
    _PLAIN_DOMAIN_AUTH_MAX = 63
else:  # pragma: no cover - Python 3.10
    _DOMAIN = PLAIN_DOMAIN.pattern
    _PLAIN_DOMAIN_AUTH_MAX = 253
_PLAIN_DOMAIN_AUTH = re.compile(_DOMAIN + r"(?=[/?#\\]|\Z)")
# The first step (_special_start): a special scheme, "//", then a plain domain as
# above, a dotted-decimal IPv4 address or no host, and a port, ending where the
# authority does; and when the rest is plain to the end (PLAIN_REST_SPECIAL after
# the path start's "/", if any), the path text, the query and the fragment, with
# group 5 the "/" or "" (None: the rest is not plain).  No userinfo: a special URL
# seldom has one, and looking for it would cost every other one a second scan.
# The first step for other schemes (_other_start): a scheme; "//", userinfo, a plain
# opaque host and a port, then the path start's "/" or nothing (groups 2 to 6), or
# else a "/" that starts a path or nothing for an opaque path (group 7); and the rest
# plain to the end (PLAIN_REST: groups 8 to 10).  A special scheme fails it at once.
_P = "+" if sys.version_info >= (3, 11) else ""  # (possessive: the classes never overlap)
# Userinfo as _other_start takes it: a username and a password (groups) that the
# userinfo set leaves as they are (_runs.userinfo_text), and the "@".
_USERINFO = (r"(?:([0-9A-Za-z!$%&'()*+,\-._~]*" + _P + r")"
             r"(?::([0-9A-Za-z!$%&'()*+,\-._~]*" + _P + r"))?@)?")
_OTHER_URL = re.compile(
    r"(?!(?i:https?|wss?|ftp|file):)([A-Za-z][A-Za-z0-9+\-.]*):"
    r"(?://" + _USERINFO + r"([A-Za-z0-9\-._~!$&'()*+,;=]*)(?::([0-9]+))?(?=[/?#]|\Z)(/?)"
    r"|(/?)(?!/))"
    + PLAIN_REST_TEXT)
_DECIMAL_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])"
_SPECIAL_HEAD = re.compile(
    r"((?i:https?|wss?|ftp|file))://"
    r"(?:(" + _DOMAIN + r")|(" + _DECIMAL_OCTET + r"(?:\." + _DECIMAL_OCTET + r"){3}))?"
    r"(?::([0-9]+))?(?=[/?#\\]|\Z)"
    r"(?:(/?)" + PLAIN_REST_SPECIAL_TEXT + r"\Z)?")
_PLAIN_AUTH_SPECIAL = re.compile(r"[^@\[:/?#\\]*")
_AUTH_END = re.compile(r"[/?#]")
_AUTH_END_SPECIAL = re.compile(r"[/?#\\]")
_AUTH_STOP = frozenset(("", "/", "?", "#"))
_FILE_HOST_STOP = frozenset(("", "/", "\\", "?", "#"))
_STATES: dict[str, Callable[[_Parser, str], None]] = {
    name[2:]: getattr(_Parser, name) for name in dir(_Parser) if name.startswith("s_")
}


def _special_start(inp: str, url: URLRecord) -> int:
    """The scheme start state's step for the commonest start, before the loop (§4.4).

    A special scheme, "//", a plain domain or a dotted-decimal IPv4 address (for
    file: or no host) and a port, up to the end of the authority: what the scheme,
    special authority (ignore) slashes, authority, host and port states (for file:
    the file, file slash and file host states) do with it, with no validation
    error: the scheme and domain lower-cased, the address as its number, the
    scheme's default port null, and for file: "localhost" the empty host.  (With a
    base of the same scheme, the special relative or authority state takes "//" as
    those do.)  When the rest is plain to the end (``_runs.PLAIN_REST_SPECIAL``),
    also what the path start, path, query and fragment states do with it.  Returns
    where the path start state takes over, past the end when nothing is left, or
    -1 (``url`` unchanged) when the input needs the states one by one.
    """
    m = _SPECIAL_HEAD.match(inp)
    if m is None:
        return -1
    scheme, domain, ipv4, port, slash, text, query, fragment = m.groups()
    scheme = scheme.lower()
    file = scheme == "file"
    host: Host
    if domain is not None:
        if len(domain) > 63 and (len(domain) > 253 or max(map(len, domain.split("."))) > 63):
            return -1  # (a label too long: domain to ASCII's validation error, §3.5)
        if "--" in domain:
            # (an xn-- label, or "--" elsewhere: the host parser, §3.5, its outcome
            # remembered; taken only without a validation error)
            found: list[tuple[str, int]] = []
            try:
                host = parse_host_remembered(domain, False,
                                             lambda name, offset: found.append((name, offset)))
            except HostError:
                return -1
            if found:
                return -1
        else:
            host = domain.lower()
        if file and host == "localhost":
            host = ""
    elif ipv4 is not None:
        # (the IPv4 parser's number: four decimal parts with no leading zero, §3.5)
        a, b, c, d = ipv4.split(".")
        host = int(a) << 24 | int(b) << 16 | int(c) << 8 | int(d)
    elif file:
        host = ""
    else:
        return -1
    if port is not None:
        # (the port state, §4.4: a file URL has none, and too many digits fail)
        if file or len(port) > 5 or int(port) > 65535:
            return -1
        number = int(port)
        url.port = None if number == SPECIAL[scheme] else number
    url.scheme = scheme
    url.host = host
    if slash is None:
        return m.end()
    url.query = query
    url.fragment = fragment
    plain_path(url.path, text, file)  # type: ignore[arg-type]
    return len(inp) + 1


def _other_start(inp: str, url: URLRecord, errors: list[tuple[str, int]] | None,
                 lead: int) -> bool:
    """The first step for the commonest URL of a non-special scheme, whole (§4.4).

    The scheme, then either "//", a plain opaque host (``_host.plain_host``'s) and a
    port, or no authority (a "/" path, or an opaque path), and a path, query and
    fragment that are plain to the end: what the scheme, path or authority,
    authority, host, port, path start, path (or opaque path), query and fragment
    states do with it, with no validation error.  True when it took the input;
    False (``url`` unchanged) when the input needs the states one by one.
    """
    m = _OTHER_URL.fullmatch(inp)
    if m is None:
        return False
    scheme, user, password, host, port, slash, path_slash, text, query, fragment = m.groups()
    scheme = scheme.lower()
    if scheme in SPECIAL:
        return False
    number = None
    if port is not None or user is not None:
        # (the port state and credentials: a host is needed, and too many digits fail)
        if not host or (port is not None and (len(port) > 5 or int(port) > 65535)):
            return False
        if user is not None and lead < 0:
            return False
        if port is not None:
            number = int(port)
    url.scheme = scheme
    url.query = query
    url.fragment = fragment
    if host is not None:
        url.host = host
        url.port = number
        if user is not None:
            _credentials(url, user, password, m.start(4) - 1, errors, lead)
        if slash:
            plain_path(url.path, text, False)  # type: ignore[arg-type]
    elif path_slash:
        plain_path(url.path, text, False)  # type: ignore[arg-type]
    else:
        url.path = text
    return True


def _credentials(url: URLRecord, user: str, password: str | None, at: int,
                 errors: list[tuple[str, int]] | None, lead: int) -> None:
    # The authority state's steps for userinfo with one "@" (at input offset at), as
    # _other_start takes it: the "@" is a validation error, and the username and
    # password need no encoding (§4.4).
    if errors is not None:
        errors.append(("invalid-credentials", lead + at))
    url.username = user
    url.password = password or ""


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
    lead = 0
    if url is None:
        url = URLRecord()
        if inp and (inp[0] <= " " or inp[-1] <= " "):
            # §4.4 step 1: leading and trailing C0 controls and spaces go
            stripped = inp.lstrip(_C0_OR_SPACE)
            lead = len(inp) - len(stripped)
            stripped = stripped.rstrip(_C0_OR_SPACE)
            if errors is not None:
                errors.append(("invalid-URL-unit", 0 if lead else len(stripped)))
            inp = stripped
    kept: list[int] | None = None
    if "\t" in inp or "\n" in inp or "\r" in inp:
        # §4.4 step 3: so do ASCII tabs and newlines anywhere
        kept = [i for i, ch in enumerate(inp) if ch not in "\t\n\r"]
        if errors is not None:
            first = next(i for i, ch in enumerate(inp) if ch in "\t\n\r")
            errors.append(("invalid-URL-unit", lead + first))
        inp = inp.replace("\t", "").replace("\n", "").replace("\r", "")
    n = len(inp)
    p = 0
    state = None
    if state_override is None:
        if base is not None and _SCHEME.match(inp) is None:
            # (a reference: the scheme start and scheme states find no scheme and
            # start over in the no scheme state, §4.4)
            state = "no_scheme"
        elif raw is None:
            # (lead -1: the positions need the parser's map from the tabs and newlines
            # removed, and _other_start then takes no userinfo)
            at = lead if kept is None else -1
            p = _special_start(inp, url)
            if p > n or (p < 0 and _other_start(inp, url, errors, at)):
                return url
            if p > 0:
                state = "path_start"
            else:
                p = 0
    parser = _Parser(inp, url, base, state_override, errors, lead, kept, encoding, raw)
    if state is not None:
        parser.state = state
        parser.p = p
    # §4.4 step 9: the state machine's loop, over the code point at the pointer
    states = _STATES
    try:
        while True:
            states[parser.state](parser, inp[p] if p < n else "")
            p = parser.p + 1
            if p > n:
                break
            parser.p = p
    except _Return:
        pass
    return url
