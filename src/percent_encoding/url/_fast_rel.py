"""The pure twin's fast path for a reference against a base URL.

``url.parse(ref, base)`` with a special base (URL Standard §4.1) runs, for the
common reference shapes, the steps the basic URL parser's relative states take
(§4.4 "no scheme", "relative", "relative slash", "file", "file slash" and the
path, query and fragment states) on strings instead of one code point a step:
a path-relative reference (``img/a.png``, ``../x``), a path-absolute one
(``/p?q``), a query (``?q``), a fragment (``#f``), the empty reference, a
scheme-relative one (``//host/p``: the absolute fast path of :mod:`._fast` after
the base's scheme) and an absolute URL (that fast path as it stands).  A base
with an opaque path takes a fragment-only reference.  The base's components are
read from its href and the offsets :mod:`._fast` and ``src/csrc/url.c`` write
(see :func:`._record.record_of`).  :func:`fast_rel_href` returns
``(href, parts, validation errors)`` or ``None``: ``None`` sends the input to
the state machine, which then also reports failures.  Tests compare the two on
every wpt case with a base and on random references.

The absolute non-special URLs the fast path of :mod:`._fast` leaves are here too:
:func:`fast_opaque_href` (an opaque path: ``mailto:``, ``urn:``, ``javascript:``)
and :func:`fast_authority_href` (``//`` and an opaque host: ``sc://host/p``).
"""

from __future__ import annotations

import re

from ..core import encode, to_usv_string
from ._fast import authority_head, fast_href
from ._host import HostError, parse_host, serialize_host, url_unit_errors
from ._record import (
    SPECIAL,
    Failure,
    URLRecord,
    is_drive_letter,
    is_normalized_drive_letter,
    parse_path,
    serialize,
    serialize_path,
    starts_with_drive_letter,
    walk_path,
)

Found = list[tuple[str, int]]
Parts = tuple[int, ...]

_C0_OR_SPACE = "".join(chr(i) for i in range(0x21))
# §4.4 scheme start and scheme states: a scheme is ALPHA *(ALPHA / DIGIT / "+-.") ":".
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
# Text that no encode set changes and that holds no validation error (URL code
# points less "%" and "'", URL Standard §1.3, §4.3).
_CLEAN = re.compile(r"[0-9A-Za-z!$&()*+,\-./:;=?@_~]*")
# A path text with a single-dot or double-dot segment (§4.1), or a backslash.
_DOT_OR_BACKSLASH = re.compile(r"(?:^|/)(?:\.|%2[eE])(?:\.|%2[eE])?(?:/|$)|\\")
_CLEAN_DOT_SEGMENT = re.compile(r"(?:^|/)\.\.?(?:/|$)")
# The commonest references (URL Standard §4.4 relative and path states): no scheme,
# not "//", a non-empty path with no backslash (a special URL's separator), then a
# query and a fragment, none with what the parser's first steps remove (§4.4: C0
# controls and spaces at either end, tabs and newlines; the end is checked apart).
_REF = re.compile(
    r"(?![A-Za-z][A-Za-z0-9+.\-]*:)(?!//)(?=[^?#\x00-\x20])"
    # each component: a clean run (see _CLEAN), then the rest
    r"([0-9A-Za-z!$&()*+,\-./:;=@_~]*)([^?#\\\t\n\r]*)"
    r"(?:\?([0-9A-Za-z!$&()*+,\-./:;=?@_~]*)([^#\t\n\r]*))?"
    r"(?:#([0-9A-Za-z!$&()*+,\-./:;=?@_~]*)([^\t\n\r]*))?",
    re.DOTALL,
)
_SPECIAL_NOT_FILE = frozenset(("http", "https", "ws", "wss", "ftp"))

# Bases given as strings, parsed once: (href, parts) or None (the state machine
# parses it, and reports a failure).
_BASES: dict[str, tuple[str, Parts] | None] = {}


def _host_kind(host: object) -> int:
    if isinstance(host, int):
        return 2
    if isinstance(host, tuple):
        return 3
    return 4 if host == "" else 1


def parts_of_record(rec: URLRecord) -> tuple[str, Parts] | None:
    """The href and the offsets of :func:`._record.record_of` of a special URL's record.

    Of a URL with an opaque path too (the fragment-only reference takes it); None for
    the others.
    """
    if isinstance(rec.path, str) and rec.host is None:
        href = serialize(rec)
        s = len(rec.scheme) + 1
        q = -1 if rec.query is None else s + len(rec.path)
        f = -1 if rec.fragment is None else len(href) - len(rec.fragment) - 1
        return href, (s - 1, s, s, s, -1, s, q, f, 0)
    if rec.scheme not in SPECIAL or rec.host is None or isinstance(rec.path, str):
        return None
    s_end = len(rec.scheme)
    u_end = h_start = s_end + 3
    if rec.includes_credentials():
        u_end += len(rec.username)
        h_start = u_end + (len(rec.password) + 2 if rec.password else 1)
    host = serialize_host(rec.host)
    h_end = p_start = h_start + len(host)
    port = -1
    if rec.port is not None:
        port = rec.port
        p_start += len(str(port)) + 1
    q_start = f_start = -1
    end = p_start + len(serialize_path(rec))
    if rec.query is not None:
        q_start = end
        end += len(rec.query) + 1
    if rec.fragment is not None:
        f_start = end
    return serialize(rec), (s_end, u_end, h_start, h_end, port, p_start, q_start, f_start,
                            _host_kind(rec.host))


def base_of_str(base: str) -> tuple[str, Parts] | None:
    """A base given as a string, parsed once: (href, offsets), or None for the machine."""
    try:
        return _BASES[base]
    except KeyError:
        pass
    if len(_BASES) >= 1024:
        _BASES.clear()
    from ._parser import basic_parse

    text = base if base.isascii() else to_usv_string(base)
    r = fast_href(text)
    got: tuple[str, Parts] | None
    if r is not None:
        got = r[0], r[1]
    else:
        try:
            got = parts_of_record(basic_parse(text))
        except Failure:
            got = None
    if len(base) <= 4096:  # (a long base is parsed each time rather than kept)
        _BASES[base] = got
    return got


def _check(text: str, offset: int, found: Found) -> str | None:
    # None: the text needs no encoding and holds no validation error.
    if _CLEAN.fullmatch(text) is not None:
        return None
    url_unit_errors(text, offset, lambda n, p: found.append((n, p)))
    return text


def _shifted(r: tuple[str, Parts, Found] | None, by: int) -> tuple[str, Parts, Found] | None:
    if r is None:
        return None
    return r[0], r[1], [(n, p - by) for n, p in r[2]]


def fast_rel_href(inp: str, base: tuple[str, Parts] | None) -> tuple[str, Parts, Found] | None:
    """``inp`` parsed against the base URL ``base`` as §4.4 does (UTF-8), or None.

    ``base`` is the base's href and offsets (see :func:`parts_of_record`,
    :func:`base_of_str`); the result is ``(href, parts, validation errors)`` as
    :func:`._fast.fast_href` gives them, or ``None`` when the state machine must run
    (or the result is failure).
    """
    if base is None:
        return None
    bhref, bp = base
    m = _REF.fullmatch(inp)
    if m is not None and inp[-1] > " " and bhref[:bp[0]] in _SPECIAL_NOT_FILE:
        # The commonest references (see _REF) against an http(s), ws(s) or ftp base:
        # each component as it is when it is clean (its second group empty), else
        # checked for URL units (§4.3) and encoded with its set (§1.3).
        path, rest, q, q_rest, frag, f_rest = m.groups()
        errs: Found = []
        if rest:
            path += rest
            url_unit_errors(path, 0, lambda n, p: errs.append((n, p)))
            path = encode(path, "path")
            # (its dot segments may be percent-encoded, §4.1)
            dot = ((path[0] == "." or path.startswith("%2") or "/." in path or "/%2" in path)
                   and _DOT_OR_BACKSLASH.search(path) is not None)
        else:
            dot = "." in path and _CLEAN_DOT_SEGMENT.search(path) is not None
        tail = ""
        if q is not None:
            if q_rest:
                q += q_rest
                url_unit_errors(q, m.start(3), lambda n, p: errs.append((n, p)))
                q = encode(q, "special-query")
            tail = "?" + q
        if frag is not None:
            if f_rest:
                frag += f_rest
                url_unit_errors(frag, m.start(5), lambda n, p: errs.append((n, p)))
                frag = encode(frag, "fragment")
            tail += "#" + frag
        p_start = bp[5]
        cut = p_start
        if path[0] != "/":
            # path-relative: the base's path less its last segment (§4.1 shorten)
            bq, bf = bp[6], bp[7]
            end = bq if bq >= 0 else bf if bf >= 0 else len(bhref)
            cut = bhref.rfind("/", p_start, end)
            if cut < 0:
                return None
        if dot:
            # §4.4 path state: ".." shortens the path, "." stays out; either one
            # last leaves an empty segment
            out: list[str] = bhref[p_start + 1:cut].split("/") if cut > p_start else []
            segs = path.split("/")
            if path[0] == "/":
                del segs[0]
            walk_path(out, segs, False)
            path = "/" + "/".join(out)
        elif path[0] != "/":
            path = bhref[p_start:cut + 1] + path
        head = bhref[:p_start] + path
        qs = f = -1
        if tail:
            n = len(head)
            if tail[0] == "?":
                qs = n
                f = tail.find("#")
                if f >= 0:
                    f += n
            else:
                f = n
        return head + tail, (*bp[:6], qs, f, bp[8]), errs
    errs = []
    found: Found = []
    s = inp
    lead = 0
    if s and (s[0] <= " " or s[-1] <= " "):
        # §4.4 step 1: leading and trailing C0 controls and spaces go
        stripped = s.lstrip(_C0_OR_SPACE)
        lead = len(s) - len(stripped)
        stripped = stripped.rstrip(_C0_OR_SPACE)
        found.append(("invalid-URL-unit", 0 if lead else lead + len(stripped)))
        s = stripped
    kept: list[int] | None = None
    if "\t" in s or "\n" in s or "\r" in s:
        # §4.4 step 3: so do ASCII tabs and newlines anywhere
        kept = [i for i, ch in enumerate(s) if ch not in "\t\n\r"]
        found.append(("invalid-URL-unit", lead + next(
            i for i, ch in enumerate(s) if ch in "\t\n\r")))
        s = s.replace("\t", "").replace("\n", "").replace("\r", "")
    if _SCHEME.match(s) is not None:
        # an absolute URL: the base plays no part unless it is the base's special
        # scheme without "//" after it, which the absolute fast paths never take
        return fast_href(inp) or fast_nonspecial_href(inp)
    kind = bp[8]
    c = s[:1]
    if kind == 0:
        # §4.4 no scheme state: an opaque-path base takes only a fragment
        if c != "#":
            return None
        f = bp[7]
        head = bhref if f < 0 else bhref[:f]
        frag = s[1:]
        enc = _check(frag, 1, errs)
        href = head + "#" + (frag if enc is None else encode(frag, "fragment"))
        return _finish(href, (*bp[:7], len(head), 0), found, errs, lead, kept)
    scheme = bhref[:bp[0]]
    if scheme not in SPECIAL:
        return None  # (a non-special base with a host or a list path: the machine)
    file = scheme == "file"
    p_start, q_start, f_start = bp[5], bp[6], bp[7]
    end = len(bhref) if f_start < 0 else f_start
    path_end = end if q_start < 0 else q_start
    base_path = bhref[p_start:path_end]
    if c in ("/", "\\"):
        c2 = s[1:2]
        if c2 == "/" or c2 == "\\":
            # §4.4 relative slash / file slash state, then the authority: the
            # states the absolute URL "scheme://..." takes after the scheme's "//"
            if c == "\\" or c2 == "\\":
                return None
            r = _shifted(fast_href(scheme + ":" + s), len(scheme) + 1)
            if r is None:
                return None
            return _finish(r[0], r[1], found, r[2], lead, kept)
        if c == "\\":
            errs.append(("invalid-reverse-solidus", 0))
        # a path-absolute reference: the base's authority, a path of its own
        out = []
        if file and not starts_with_drive_letter(s, 1):
            first = base_path[1:].partition("/")[0]
            if is_normalized_drive_letter(first):
                # §4.4 file slash state: the base's drive letter stays
                out.append(first)
        start = 1
        prefix = ""
    elif c == "" or c == "?" or c == "#":
        # §4.4 relative / file state: the base's path, and its query unless "?"
        head = bhref[:end]
        if c == "":
            return _finish(head, (*bp[:7], -1, kind), found, errs, lead, kept)
        if c == "#":
            frag = s[1:]
            enc = _check(frag, 1, errs)
            href = head + "#" + (frag if enc is None else encode(frag, "fragment"))
            return _finish(href, (*bp[:7], len(head), kind), found, errs, lead, kept)
        head = bhref[:path_end]
        h = s.find("#")
        qt = s[1:] if h < 0 else s[1:h]
        eq = _check(qt, 1, errs)
        href = head + "?" + (qt if eq is None else encode(qt, "special-query"))
        f = -1
        if h >= 0:
            frag = s[h + 1:]
            enc = _check(frag, h + 1, errs)
            f = len(href)
            href += "#" + (frag if enc is None else encode(frag, "fragment"))
        return _finish(href, (*bp[:6], len(head), f, kind), found, errs, lead, kept)
    else:
        # a path-relative reference: the base's path less its last segment
        start = 0
        if file and starts_with_drive_letter(s, 0):
            errs.append(("file-invalid-Windows-drive-letter", 0))
            prefix = ""
            out = []
        elif not base_path.startswith("/"):
            return None
        else:
            cut = base_path.rfind("/")
            if file and cut == 0 and is_normalized_drive_letter(base_path[1:]):
                cut = len(base_path)  # the lone drive letter stays
            prefix = base_path[:cut]
            out = []
    # the path state from s[start:], then the query and fragment states
    q = s.find("?", start)
    h = s.find("#", start)
    if h >= 0 and q > h:
        q = -1
    p_end = q if q >= 0 else h if h >= 0 else len(s)
    ptext = s[start:p_end]
    if (not out and _DOT_OR_BACKSLASH.search(ptext) is None
            and not (file and not prefix and is_drive_letter(ptext[:2])
                     and ptext[2:3] in ("", "/"))):
        ep = _check(ptext, start, errs)
        path = prefix + "/" + (ptext if ep is None else encode(ptext, "path"))
    else:
        if prefix:
            out = prefix[1:].split("/")
        parse_path(out, ptext, start, file, True, errs)
        path = "".join(["/" + seg for seg in out])
    href = bhref[:p_start] + path
    qs = f = -1
    if q >= 0:
        qs = len(href)
        qt = s[q + 1:] if h < 0 else s[q + 1:h]
        eq = _check(qt, q + 1, errs)
        href += "?" + (qt if eq is None else encode(qt, "special-query"))
    if h >= 0:
        f = len(href)
        frag = s[h + 1:]
        enc = _check(frag, h + 1, errs)
        href += "#" + (frag if enc is None else encode(frag, "fragment"))
    return _finish(href, (*bp[:6], qs, f, kind), found, errs, lead, kept)


def _finish(href: str, parts: Parts, found: Found, errs: Found, lead: int,
            kept: list[int] | None) -> tuple[str, Parts, Found]:
    # The errors of the parse proper at their places in the input as given
    # (basic_parse's pos_map), after those of the trimming and tab removal.
    if errs:
        if kept is None:
            found += [(n, lead + p) for n, p in errs] if lead else errs
        else:
            stop = lead + (kept[-1] + 1 if kept else 0)
            found += [(n, lead + kept[p] if p < len(kept) else stop) for n, p in errs]
    return href, parts, found


# --- non-special absolute URLs with an opaque path -----------------------------------
# §4.4 scheme state: a non-special scheme's ":" not followed by "/" starts an opaque
# path (mailto:, urn:, javascript:, data:, tel:, ...), then the query and fragment.
_OPAQUE_URL = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(?!/)([^?#]*)(?:\?([^#]*))?(?:#(.*))?",
                         re.DOTALL)
# Text that no encode set changes and that holds no validation error (URL code points,
# "%" before two hex digits, §4.3; "?" left to the caller's pattern).
_PQ = r"[0-9A-Za-z!$&'()*+,\-./:;=?@_~]*(?:%[0-9A-Fa-f]{2}[0-9A-Za-z!$&'()*+,\-./:;=?@_~]*)*"
# The commonest of these whole, where the href is the input with its scheme lower-cased.
_PLAIN_OPAQUE_URL = re.compile(
    r"([A-Za-z][A-Za-z0-9+.\-]*):(?!/)"
    r"([0-9A-Za-z!$&'()*+,\-./:;=@_~]*(?:%[0-9A-Fa-f]{2}[0-9A-Za-z!$&'()*+,\-./:;=@_~]*)*)"
    r"(\?" + _PQ + r")?(#" + _PQ + r")?"
)



def _non_special_match(pattern: re.Pattern[str], inp: str) -> re.Match[str] | None:
    # The shapes of the non-special fast paths: nothing to trim or strip (tabs and
    # newlines, §4.4's first steps), and a scheme that is not special (§4.1).
    if not inp or inp[0] <= " " or inp[-1] <= " " or "\t" in inp or "\n" in inp \
            or "\r" in inp:
        return None
    m = pattern.fullmatch(inp)
    if m is None or m.group(1).lower() in SPECIAL:
        return None
    return m


def fast_opaque_href(inp: str) -> tuple[str, Parts, Found] | None:
    """A non-special URL with an opaque path (no base, UTF-8) as §4.4 parses it, or None.

    ``(href, parts, validation errors)`` as :func:`._fast.fast_href` gives them; None
    when the input needs trimming, has tabs or newlines, or is anything else.
    """
    m = _PLAIN_OPAQUE_URL.fullmatch(inp)
    if m is not None:
        scheme = m.group(1)
        s_end = len(scheme)
        if scheme.lower() not in SPECIAL:
            qs, f = m.start(3), m.start(4)
            return (scheme.lower() + inp[s_end:],
                    (s_end, s_end + 1, s_end + 1, s_end + 1, -1, s_end + 1, qs, f, 0), [])
    m = _non_special_match(_OPAQUE_URL, inp)
    if m is None:
        return None
    scheme = m.group(1).lower()
    path, q, frag = m.group(2, 3, 4)
    found: Found = []
    p_start = len(scheme) + 1
    if _check(path, p_start, found) is not None:
        # §4.4 opaque path state: the C0 control set, and a last space before "?"
        # or "#" as "%20"
        enc = encode(path, "c0-control")
        if path[-1] == " " and (q is not None or frag is not None):
            enc = enc[:-1] + "%20"
        path = enc
    href = scheme + ":" + path
    qs = f = -1
    if q is not None:
        qs = len(href)
        if _check(q, m.start(3), found) is not None:
            q = encode(q, "query")
        href += "?" + q
    if frag is not None:
        f = len(href)
        if _check(frag, m.start(4), found) is not None:
            frag = encode(frag, "fragment")
        href += "#" + frag
    return href, (p_start - 1, p_start, p_start, p_start, -1, p_start, qs, f, 0), found


# --- non-special absolute URLs with an authority ---------------------------------------
# §4.4 scheme state: a non-special scheme's ":" then "//" is the authority state; here
# with at most one "@", an opaque host (§3.5) with no brackets, a port of digits, then a
# path whose segments only "/" ends (a "\" is a code point like any other).
_AUTHORITY_URL = re.compile(
    r"([A-Za-z][A-Za-z0-9+.\-]*)://(?:([^@/?#]*)@)?([^@:\[\]/?#]*)(?::([0-9]*))?"
    r"(/[^?#]*)?(?:\?([^#]*))?(?:#(.*))?",
    re.DOTALL,
)
# An opaque host the opaque-host parser (§3.5) keeps as it is: no forbidden host code
# point, nothing the C0 control set encodes, no validation error.
_PLAIN_OPAQUE_HOST = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,;=]*")
# Userinfo text that the userinfo percent-encode set (URL Standard §1.3) keeps as it is.
_PLAIN_USERINFO = re.compile(r"[A-Za-z0-9\-._~!$&'()*+,%]*")
# The commonest of these whole, where the href is the input with its scheme lower-cased:
# userinfo the userinfo set keeps (a username, and a password if there is a ":"), a
# plain opaque host, a port of no leading zero, a path with no "%" and no "\\" (whose
# dot segments are "." and ".."), then a query and a fragment that no set encodes and
# with no validation error (URL code points, "%" before two hex digits, §4.3).
_PLAIN_AUTHORITY_URL = re.compile(
    r"([A-Za-z][A-Za-z0-9+.\-]*)://"
    # (the lookahead: no userinfo is tried, nor given back code point by code point,
    # when no "@" comes before the authority's end)
    r"(?:(?=[^@/?#]*@)([A-Za-z0-9\-._~!$&'()*+,%]+)(?::([A-Za-z0-9\-._~!$&'()*+,%]+))?@)?"
    r"([A-Za-z0-9\-._~!$&'()*+,;=]+)(?::([1-9][0-9]{0,4}))?"
    r"(/[0-9A-Za-z!$&'()*+,\-./:;=@_~]*)?(\?" + _PQ + r")?(#" + _PQ + r")?"
)
_DOT_SEGMENT_ANY = re.compile(r"/(?:\.|%2[eE])(?:\.|%2[eE])?(?:/|$)")


def fast_authority_href(inp: str) -> tuple[str, Parts, Found] | None:
    """A non-special URL with "//" (no base, UTF-8) as §4.4 parses it, or None.

    ``sc://host/p``, ``git+ssh://git@host/x.git``: ``(href, parts, validation
    errors)`` as :func:`._fast.fast_href` gives them; None for anything else (and for
    a failure, which the state machine then reports).
    """
    m = _PLAIN_AUTHORITY_URL.fullmatch(inp)
    if m is not None:
        scheme, user, pw, host, port_text, path, q, frag = m.groups()
        s_end = len(scheme)
        port = -1 if port_text is None else int(port_text)
        if ((path is None or "/." not in path) and port <= 65535
                and scheme.lower() not in SPECIAL):
            h_start = m.start(4)
            p_start = m.end(5) if port_text is not None else m.end(4)
            return (scheme.lower() + inp[s_end:],
                    (s_end, m.end(2) if user else h_start, h_start, m.end(4), port, p_start,
                     -1 if q is None else m.start(7), -1 if frag is None else m.start(8), 1),
                    [("invalid-credentials", h_start - 1)] if user else [])
    m = _non_special_match(_AUTHORITY_URL, inp)
    if m is None:
        return None
    scheme = m.group(1).lower()
    userinfo, host_text, port_text, path, q, frag = m.groups()[1:]
    found: Found = []
    username = password = ""
    if userinfo is not None:
        if host_text == "":
            return None  # §4.4 authority state: host-missing, a failure
        # §4.4 authority state: "@" is a validation error; the first ":" splits
        found.append(("invalid-credentials", m.end(2)))
        name, colon, pw = userinfo.partition(":")
        username = name if _PLAIN_USERINFO.fullmatch(name) else encode(name, "userinfo")
        if colon:
            password = pw if _PLAIN_USERINFO.fullmatch(pw) else encode(pw, "userinfo")
    if port_text is not None and host_text == "":
        return None  # §4.4 host state: host-missing
    h0 = m.start(3)
    if _PLAIN_OPAQUE_HOST.fullmatch(host_text) is not None:
        host = host_text
    else:
        try:
            # §3.5 opaque-host parser: forbidden host code points fail
            parsed = parse_host(host_text, True, lambda n, p: found.append((n, h0 + p)))
        except HostError:
            return None
        assert isinstance(parsed, str)
        host = parsed
    port = -1
    if port_text:
        digits = port_text.lstrip("0")
        port = int(digits or "0") if len(digits) <= 5 else 65536
        if port > 65535:
            return None  # port-out-of-range
    s_end = len(scheme)
    out, u_end, h_start, h_end, p_start = authority_head(scheme, username, password, host, port)
    epath = ""
    if path is not None:
        # §4.4 path start and path states (not special: "/" only)
        p0 = m.start(5)
        if _DOT_SEGMENT_ANY.search(path) is None:
            epath = path if _check(path, p0, found) is None else encode(path, "path")
        else:
            segs: list[str] = []
            parse_path(segs, path[1:], p0 + 1, False, False, found)
            epath = "".join(["/" + seg for seg in segs])
    out.append(epath)
    qs = f = -1
    n = p_start + len(epath)
    if q is not None:
        qs = n
        eq = q if _check(q, m.start(6), found) is None else encode(q, "query")
        out.append("?" + eq)
        n += len(eq) + 1
    if frag is not None:
        f = n
        ef = frag if _check(frag, m.start(7), found) is None else encode(frag, "fragment")
        out.append("#" + ef)
    return "".join(out), (s_end, u_end, h_start, h_end, port, p_start, qs, f,
                          1 if host else 4), found


def fast_nonspecial_href(inp: str) -> tuple[str, Parts, Found] | None:
    """:func:`fast_opaque_href` or :func:`fast_authority_href` (no base, UTF-8), or None."""
    # (by what follows the first ":": only the second one takes a "/" there)
    i = inp.find(":")
    if inp.startswith("/", i + 1) and i > 0:
        return fast_authority_href(inp)
    return fast_opaque_href(inp)
