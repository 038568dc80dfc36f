"""The common case of the URL parser, without the state machine.

A special, non-file URL that the URL Standard's basic URL parser (§4.4) would run
through its states without surprises is cut at the component boundaries of RFC 3986
Appendix B's regular expression, and each component is percent-encoded with its
encode set (URL Standard §1.3) in one kernel call.  :func:`fast_parse` returns the
record and its serialization (§4.5), or ``None`` when the input needs the state
machine of :mod:`._url_parser`; a hypothesis test checks that both agree.
"""

from __future__ import annotations

import re

from ._host import HostError, parse_ipv4, parse_ipv6, serialize_host, url_unit_errors
from ._url_record import SPECIAL, Host, URLRecord, _double_dot, _single_dot
from .core import encode

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
    r"(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"  # a final dot: domain-to-ASCII
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
    # The host's errors come first in `found`; they sort as one group at the host's start,
    # in the order the host parser gave them (URL Standard §3.5 / §3.4 step order).
    n_host = len(found)
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
            order = sorted(range(len(found)),
                           key=lambda i: (hs if i < n_host else found[i][1], i))
            errors.extend(found[i] for i in order)
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
