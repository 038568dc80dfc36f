"""The path, query and fragment states of the basic URL parser (URL Standard §4.4).

:class:`PathStates` holds the states from *path start* on: path, opaque path, query
and fragment.  The parser in :mod:`._parser` inherits them, and its earlier states
(scheme, authority, host, port, file) hand over to them.  Like those states, each
takes its whole run at once: the path is split into segments and its dot segments
resolved in one pass (``_record.parse_path``), and a query, fragment or opaque path
is checked for validation errors and percent-encoded only when it holds something
that needs either.
"""

from __future__ import annotations

import re

from ..core import encode
from ._host import url_unit_errors
from ._record import URLRecord, is_drive_letter, parse_path, plain_pattern


class PathStates:
    """The path start, path, opaque path, query and fragment states (§4.4)."""

    # The parser's fields these states use; url._parser._Parser sets them.
    __slots__ = ("buf", "encoding", "inp", "n", "override", "p", "raw", "special", "state",
                 "url")

    url: URLRecord
    inp: str
    n: int
    p: int
    buf: str
    state: str
    special: bool
    override: str | None
    encoding: str
    raw: dict[str, str] | None

    def err(self, name: str, p: int | None = None) -> None:
        """Record a validation error (the parser's own)."""
        raise NotImplementedError

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
        elif self.override is not None and url.host is None:
            assert isinstance(url.path, list)
            url.path.append("")

    def s_path(self, c: str) -> None:
        # The whole path at once (§4.4 path state, see _record.parse_path), up to
        # the "?" or "#" that ends it (the end of the input for a setter).
        url = self.url
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
        # The path state at the "?" or "#" that ends the path (nothing at its end),
        # then the query or fragment state from the next code point.
        if self.query_or_fragment(c):
            self.p = p = self.p + 1
            (self.s_query if c == "?" else self.s_fragment)(self.inp[p] if p < self.n else "")

    def s_opaque_path(self, c: str) -> None:
        url = self.url
        if self.query_or_fragment(c):
            pass
        elif c:
            # The whole path at once (a step per space was quadratic): a space
            # is kept, or "%20" when "?" or "#" follows it (§4.4 opaque path state).
            m = _RUN_OPAQUE.match(self.inp, self.p)
            assert m is not None
            chunk = m.group()
            end = m.end()
            assert isinstance(url.path, str)
            if self.raw is not None:
                self.raw["path"] = chunk
            enc = chunk
            if _PLAIN_TEXT.fullmatch(chunk) is None:
                url_unit_errors(chunk, self.p, self.err)
                enc = encode(chunk, "c0-control")
                if chunk[-1] == " " and end < self.n:
                    enc = enc[:-1] + "%20"
            url.path += enc
            self.p = end
            if end < self.n:
                self.s_opaque_path(self.inp[end])

    def s_query(self, c: str) -> None:
        url = self.url
        special = self.special
        if self.encoding != "utf-8" and (not special or url.scheme in ("ws", "wss")):
            self.encoding = "utf-8"
        # The whole query at once: the buffer is empty on entry and the run ends at the
        # "#" or the end that ends the query.
        buf = ""
        plain = True
        if c != "" and (c != "#" or self.override is not None):
            p = self.p
            end = self.n if self.override else self.inp.find("#", p)
            if end < 0:
                end = self.n
            buf = self.inp[p:end]
            # (plain by the special-query set is plain by the others: no error)
            plain = (_PLAIN_SPECIAL_QUERY if special else _PLAIN_TEXT).fullmatch(buf) is not None
            if not plain:
                url_unit_errors(buf, p, self.err)
            self.p = end
            c = self.inp[end] if end < self.n else ""
        if plain:
            enc = buf
        else:
            qset = "special-query" if special else "query"
            if self.encoding == "utf-8":
                enc = encode(buf, qset)
            else:
                enc = encode(buf, qset, encoding=self.encoding)
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
            if _PLAIN_TEXT.fullmatch(rest) is None:
                url_unit_errors(rest, self.p, self.err)
                rest = encode(rest, "fragment")
            self.url.fragment = (self.url.fragment or "") + rest
            self.p = self.n


# The opaque path's run: up to the "?" or "#" that ends it.
_RUN_OPAQUE = re.compile(r"[^?#]*")
# Text that needs neither a validation error (URL code points, "%" only before two
# hex digits, §4.3) nor percent-encoding: by the query, fragment and C0 control sets
# (§1.3), and by the special-query set ("'" too).
_PLAIN_TEXT = plain_pattern(r"0-9A-Za-z!$&'()*+,\-./:;=?@_~")
_PLAIN_SPECIAL_QUERY = plain_pattern(r"0-9A-Za-z!$&()*+,\-./:;=?@_~")
