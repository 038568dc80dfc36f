"""The common case of the URL parser, without the state machine.

A special URL (``file:`` included) that the URL Standard's basic URL parser (§4.4)
would run through its states without surprises is cut at the component boundaries of
RFC 3986 Appendix B's regular expression, and each component is percent-encoded with
its encode set (URL Standard §1.3) in one kernel call, or kept as it is when the text
after the host holds nothing any set encodes and no validation error.
:func:`fast_href` returns the serialization (§4.5) with the component offsets that
``url.URL`` reads its getters from (the layout ``src/csrc/url.c`` writes), or ``None``
when the input needs the state machine of :mod:`._parser`; :func:`fast_parse`
gives the record instead.  A hypothesis test checks that the fast path and the state
machine agree.
"""

from __future__ import annotations

import re

from ..core import encode
from ._host import (
    HOST_CACHE_MAX,
    HostError,
    parse_host,
    parse_ipv4,
    parse_ipv6,
    serialize_host,
    url_unit_errors,
)
from ._record import (
    URLRecord,
    double_dot,
    is_normalized_drive_letter,
    record_of,
    single_dot,
)

# --- the common case, without the state machine ----------------------------
# A special URL with "//", an ASCII domain (or IPv4, IPv6) host, no tabs or newlines,
# no backslash, no port or credentials on a file URL: the component boundaries are
# where RFC 3986's regular expression puts them, and each component is encoded with
# its set in one kernel call.  Anything else (or any doubt) returns None and the
# state machine runs.
_FAST = re.compile(
    r"((?i:https?|wss?|ftp|file))://"
    r"(?:([^/?#\\]*)@)?"
    r"([A-Za-z0-9\-_]+(?:\.[A-Za-z0-9\-_]+)*\.?|\[[0-9A-Fa-f:.]*\])?"
    r"(?::([0-9]{0,5}))?"
    r"((/[^?#]*)?(?:\?([^#]*))?(?:#(.*))?)",
    re.DOTALL,
)
_FAST_SCHEMES: dict[str, int] = {"http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21,
                                 "file": -1}
# A host that the IPv4 parser must see: one ending in a number.
_FAST_HOST_NUMERIC = re.compile(r"(?:^|\.)(?:[0-9]+|0[xX][0-9A-Fa-f]*)\.?$")
# What strict domain to ASCII accepts of an LDH host (STD3, hyphens, lengths).
_FAST_HOST_STRICT = re.compile(
    r"(?!.{254})(?:(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*"
    r"(?!..--)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"  # a final dot: domain-to-ASCII
)
_NEEDS_UNIT_CHECK = re.compile(r"[^0-9A-Za-z!$&'()*+,\-./:;=?@_~\u00a0-\ud7ff\ue000-\ufdcf]")
# Path, query and fragment text that no encode set changes and that holds no
# validation error (URL code points less "%" and "'", URL Standard §1.3, §4.3;
# and the "#" that starts the fragment, once).
_CLEAN = re.compile(r"[0-9A-Za-z!$&()*+,\-./:;=?@_~#]*")
# A host the fast path takes as it stands (lower-cased): LDH labels of at most 63,
# none starting or ending with "-", the last one starting with a letter (so it is no
# number, §3.5 "ends in a number"); with no "--" (no xn--, no hyphens at 3 and 4) and
# at most 253 long, strict domain to ASCII (UTS #46) accepts it.
_PLAIN_HOST = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)*"
    r"[A-Za-z](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"  # a final dot: domain-to-ASCII
)
# The commonest URL whole: a special scheme (§4.1; any other fails at once), a plain
# host (or none, for file:), a port, and after it only text that no encode set changes
# and that holds no validation error (URL code points less "%" and "'", URL Standard
# §1.3, §4.3), the path with no dot segment (checked after: "/." is not in it).
_PLAIN_URL = re.compile(
    r"((?i:https?|wss?|ftp|file))://"
    r"((?:[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?\.)*"
    r"[A-Za-z](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)?"
    r"(?::([0-9]{0,5}))?"
    r"((/[0-9A-Za-z!$&()*+,\-./:;=@_~]*)?(?:\?[0-9A-Za-z!$&()*+,\-./:;=?@_~]*)?"
    r"(?:#[0-9A-Za-z!$&()*+,\-./:;=?@_~]*)?)"
)
# A path that may hold a single-dot or double-dot segment (§4.1).
_DOT_SEGMENT = re.compile(r"/(?:\.|%2[eE])")

Found = list[tuple[str, int]]
# Parsed hosts by their text: (serialized host, kind as in url.c's layout (1 domain,
# 2 IPv4, 3 IPv6), the host parser's validation errors at offsets into the text), or
# None when the state machine must parse it.  Crawled URLs repeat their hosts.
_HOSTS: dict[str, tuple[str, int, tuple[tuple[str, int], ...]] | None] = {}
_NO_ERRORS: tuple[tuple[str, int], ...] = ()


def _unit_errors(text: str, offset: int, found: Found) -> None:
    if _NEEDS_UNIT_CHECK.search(text) is not None:
        url_unit_errors(text, offset, lambda n, p: found.append((n, p)))


def _parse_host(text: str) -> tuple[str, int, tuple[tuple[str, int], ...]] | None:
    # The host parser (§3.5) on the hosts the fast path takes.
    found: Found = []
    if text[0] == "[":
        try:
            addr = parse_ipv6(text[1:-1], lambda n, p: found.append((n, 1 + p)))
        except HostError:
            return None
        return serialize_host(addr), 3, tuple(found)
    host = text.lower()
    if "xn--" in host:
        # an xn-- label: the whole host parser (§3.5, UTS #46 validity of the
        # decoded label), once per host text (_HOSTS caches it)
        try:
            h = parse_host(text, False, lambda n, p: found.append((n, p)))
        except HostError:
            return None  # the state machine reports the failure
        kind = 2 if isinstance(h, int) else 3 if isinstance(h, tuple) else 1
        return serialize_host(h), kind, tuple(found)
    if _FAST_HOST_STRICT.fullmatch(host) is None:
        found.append(("domain-to-ASCII", 0))
    if _FAST_HOST_NUMERIC.search(host) is not None:
        try:
            v4 = parse_ipv4(host, lambda n, p: found.append((n, p)))
        except HostError:
            return None  # the state machine reports the failure
        return serialize_host(v4), 2, tuple(found)
    return host, 1, tuple(found)


def _cached_host(text: str) -> tuple[str, int, tuple[tuple[str, int], ...]] | None:
    if len(text) > HOST_CACHE_MAX:
        return _parse_host(text)
    try:
        return _HOSTS[text]
    except KeyError:
        pass
    if len(_HOSTS) >= 4096:
        _HOSTS.clear()
    parsed = _HOSTS[text] = _parse_host(text)
    return parsed


def _fast_path_segments(path: str, file: bool) -> list[str]:
    # The path state's dot-segment steps (URL Standard §4.4) on raw segments of a
    # special URL with no backslash (and no "|" in a file URL's path): "shorten a
    # URL's path" (§4.1) keeps a file URL's lone drive letter.
    raw = path[1:].split("/")
    out: list[str] = []
    last = len(raw) - 1
    for i, seg in enumerate(raw):
        if double_dot(seg):
            if out and not (file and len(out) == 1 and is_normalized_drive_letter(out[0])):
                out.pop()
            if i == last:
                out.append("")
        elif single_dot(seg):
            if i == last:
                out.append("")
        else:
            out.append(seg)
    return out


def fast_href(inp: str) -> tuple[str, tuple[int, ...], Found] | None:
    """The common case of :func:`basic_parse` (no base, UTF-8), or None.

    ``(href, parts, validation errors)``; ``parts`` are the offsets into ``href``
    that ``url.URL`` reads (scheme end, username end, host start and end, port or
    -1, path start, "?" or -1, "#" or -1, host kind).
    """
    m = _PLAIN_URL.fullmatch(inp)
    if m is not None:
        # The commonest case (see _PLAIN_URL) in a few steps.
        scheme, host, port_text, tail, path = m.groups()
        scheme = scheme.lower()
        default = _FAST_SCHEMES.get(scheme)
        if default is None:
            return None  # (the regex takes special schemes only)
        plain_host: str | None = None
        if host is not None:
            plain_host = host.lower()
            if "--" in host or len(host) > 253:
                # (an xn-- label, or long: a domain as the host parser leaves it, with no
                # validation error, or the general case below)
                parsed = _cached_host(host)
                plain_host = parsed[0] if parsed is not None and parsed[1:] == (
                    1, _NO_ERRORS) else None
        if ((path is None or "/." not in path)
                and (host is None or plain_host is not None)
                and (port_text is None or default != -1)):
            kind = 1
            if plain_host is None:
                if default != -1:
                    return None
                host, kind = "", 4
            else:
                host = plain_host
                if default == -1 and host == "localhost":
                    host, kind = "", 4
            s_end = len(scheme)
            h_start = s_end + 3
            h_end = p_start = h_start + len(host)
            port = -1
            ptext = ""
            if port_text:
                port = int(port_text)
                if port > 65535:
                    return None
                if port != default:
                    ptext = ":" + str(port)
                    p_start += len(ptext)
                else:
                    port = -1
            if path is None:
                tail = "/" + tail
            q_start = tail.find("?")
            f_start = tail.find("#")
            if f_start >= 0:
                if q_start > f_start:
                    q_start = -1
                f_start += p_start
            if q_start >= 0:
                q_start += p_start
            return (scheme + "://" + host + ptext + tail,
                    (s_end, h_start, h_start, h_end, port, p_start, q_start, f_start, kind), [])
    m = _FAST.fullmatch(inp)
    if m is None:
        return None
    scheme, userinfo, host_text, port_text, tail, path, q, frag = m.groups()
    # Clean: nothing after the host that a set encodes or that is a validation
    # error, which also rules out the C0 controls and spaces the parser would
    # trim or remove (the regex's other groups hold none).
    clean = (userinfo is None and _CLEAN.fullmatch(tail) is not None
             and (frag is None or "#" not in frag))
    if not clean and (inp[-1] <= " " or "\t" in inp or "\n" in inp or "\r" in inp):
        return None
    scheme = scheme.lower()
    default = _FAST_SCHEMES.get(scheme)
    if default is None:
        return None
    file = default == -1
    if file and (userinfo is not None or port_text is not None):
        return None  # a file host takes no credentials or port: the host parser fails
    host_found = _NO_ERRORS
    if host_text is None:
        if not file:
            return None
        host, kind = "", 4
    elif (_PLAIN_HOST.fullmatch(host_text) is not None and "--" not in host_text
          and len(host_text) <= 253):
        # Most hosts: a valid LDH domain not ending in a number (§3.5: no IPv4
        # parser, no validation error).
        host, kind = host_text.lower(), 1
    else:
        parsed = _cached_host(host_text)
        if parsed is None:
            return None
        host, kind, host_found = parsed
    if file and host == "localhost":
        host, kind = "", 4
    port = -1
    if port_text:
        port = int(port_text)
        if port > 65535:
            return None
        if port == default:
            port = -1
    if path is not None and ("\\" in path or (file and "|" in path)):
        return None
    s_end = len(scheme)
    if clean and (path is None or _DOT_SEGMENT.search(path) is None):
        # Nothing to encode, no validation error: the text as it stands.
        h_start = s_end + 3
        h_end = p_start = h_start + len(host)
        ptext = ""
        if port >= 0:
            ptext = ":" + str(port)
            p_start += len(ptext)
        if path is None:
            tail = "/" + tail
            p_len = 1
        else:
            p_len = len(path)
        q_start = -1 if q is None else p_start + p_len
        f_start = -1 if frag is None else p_start + len(tail) - len(frag) - 1
        href = scheme + "://" + host + ptext + tail
        hs = m.start(3)
        return href, (s_end, h_start, h_start, h_end, port, p_start, q_start, f_start,
                      kind), [(n, hs + p) for n, p in host_found]
    found: Found = []
    username = password = ""
    if userinfo is not None:
        u0 = m.start(2)
        found += [("invalid-credentials", u0 + i) for i, ch in enumerate(userinfo) if ch == "@"]
        found.append(("invalid-credentials", m.end(2)))
        name, colon, pw = userinfo.partition(":")
        username = encode(name, "userinfo")
        password = encode(pw, "userinfo") if colon else ""
    if host_found:
        # The host's errors after the userinfo's, in the host parser's order.
        hs = m.start(3)
        found += [(n, hs + p) for n, p in host_found]
    # scheme "://" [username [":" password] "@"] host [":" port] path ["?" query] ["#" fragment]
    out, u_end, h_start, h_end, p_start = authority_head(scheme, username, password, host, port)
    if path is None:
        epath = "/"
    elif _DOT_SEGMENT.search(path) is not None:
        epath = "/" + "/".join([encode(x, "path") for x in _fast_path_segments(path, file)])
    else:
        epath = encode(path, "path")
    out.append(epath)
    q_start = f_start = -1
    if q is not None:
        equery = encode(q, "special-query")
        q_start = p_start + len(epath)
        out.append("?")
        out.append(equery)
    if frag is not None:
        efrag = encode(frag, "fragment")
        f_start = p_start + len(epath) + (len(equery) + 1 if q is not None else 0)
        out.append("#")
        out.append(efrag)
    if path:
        _unit_errors(path, m.start(6), found)
    if q:
        _unit_errors(q, m.start(7), found)
    if frag:
        _unit_errors(frag, m.start(8), found)
    href = "".join(out)
    return href, (s_end, u_end, h_start, h_end, port, p_start, q_start, f_start, kind), found


def fast_parse(inp: str, errors: Found | None) -> tuple[URLRecord, str] | None:
    """The common case of :func:`basic_parse` (no base, UTF-8): record and href, or None."""
    r = fast_href(inp)
    if r is None:
        return None
    href, parts, found = r
    if errors is not None:
        errors.extend(found)
    return record_of(href, parts), href


def authority_head(
    scheme: str, username: str, password: str, host: str, port: int
) -> tuple[list[str], int, int, int, int]:
    """The serialized ``scheme "://" [username [":" password] "@"] host [":" port]`` as
    pieces (URL Standard §4.5), and where the username, the host and the port end:
    ``(pieces, username end, host start, host end, port end)``.  ``port`` is -1 for none."""
    out = [scheme, "://"]
    u_end = h_start = len(scheme) + 3
    if username or password:
        out.append(username)
        u_end += len(username)
        if password:
            out.append(":")
            out.append(password)
        out.append("@")
        h_start = u_end + (len(password) + 2 if password else 1)
    out.append(host)
    h_end = p_start = h_start + len(host)
    if port >= 0:
        ptext = ":" + str(port)
        out.append(ptext)
        p_start += len(ptext)
    return out, u_end, h_start, h_end, p_start
