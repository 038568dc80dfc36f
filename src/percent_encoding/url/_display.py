"""URL rendering: a URL as a person should see it (URL Standard §4.8 "URL rendering").

Strategy: the Standard's rendering section (added in whatwg/url@d1152b9) is
advice, not an algorithm; :func:`render` follows each point of it and makes
the choices it leaves explicit as keyword arguments:

* username and password are not shown (they can pass for the host);
* a domain is shown with *domain to Unicode* (§3.3); IP addresses and
  opaque hosts as serialized;
* in the other components, runs of percent-encoded bytes that are UTF-8 are
  shown decoded, except where that would hide them or change what the text
  says: controls, spaces, format characters (the bidi controls among them),
  other default-ignorable and unassigned code points, private use and
  non-characters, and the lock symbols the Standard names as a spoofing risk
  stay encoded; an ASCII byte is decoded only when it is unreserved
  (``A-Za-z0-9-._~``), so ``%25``, ``%2F``, ``%3F``, ``%23``, ``%26`` keep
  their escapes, and a hex digit right after a stray ``%`` stays encoded (it
  would make a new escape);
* elision keeps the host, never cuts inside a label, and drops whole labels
  from the lowest level first (§4.8 "Elision"); the rest is elided in its
  middle.

The result is for display only: it is not a URL to parse again (a decoded
character is not re-encoded the way the parser would).
"""

from __future__ import annotations

import re
import unicodedata

from .._abnf import HEXDIG, PCT_ENCODED_RUN, UNRESERVED
from ._host import serialize_host
from ._idna import domain_to_unicode
from ._record import SPECIAL, URLRecord, serialize_path

__all__ = ["ELLIPSIS", "render"]

#: What an elided part is replaced with (U+2026 HORIZONTAL ELLIPSIS).
ELLIPSIS = "\u2026"

_UNRESERVED = frozenset(UNRESERVED)
_HEX = frozenset(HEXDIG)
# Characters shown as escapes although they decode: Unicode's hidden categories
# (controls, format characters including the bidi controls, surrogates, private
# use, unassigned and non-characters, space separators), the default-ignorable
# code points of other categories (Hangul fillers, combining grapheme joiner,
# variation selectors, Mongolian free variation selectors), and the lock
# symbols U+1F50F-U+1F513 (§4.8 names U+1F512 as a spoofing risk).
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zs", "Zl", "Zp"})
_INVISIBLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0"
    "\U000e0100-\U000e01ef\U0001f50f-\U0001f513]"
)


def _keep_encoded(ch: str) -> bool:
    return unicodedata.category(ch) in _HIDDEN_CATEGORIES or _INVISIBLE.match(ch) is not None


def _decode_run(run: str, after_stray: bool) -> str:
    # One run of %XX: UTF-8 decode without BOM, per character.  Bytes that are
    # not part of valid UTF-8 come back as U+DC80-U+DCFF and keep their escapes.
    octets = bytes.fromhex(run.replace("%", ""))
    text = octets.decode("utf-8", "surrogateescape")
    out: list[str] = []
    pos = 0  # the index of the character's first byte in the run
    for ch in text:
        n = len(ch.encode("utf-8", "surrogateescape"))
        written = run[3 * pos : 3 * (pos + n)]
        if ch < "\x80":
            stray = pos == 0 and after_stray and ch in _HEX
            out.append(ch if ch in _UNRESERVED and not stray else written)
        elif 0xDC80 <= ord(ch) <= 0xDCFF or _keep_encoded(ch):
            out.append(written)
        else:
            out.append(ch)
        pos += n
    return "".join(out)


def decode_for_display(text: str) -> str:
    """``text`` with its percent-encoded UTF-8 shown decoded where that is safe (§4.8).

    >>> decode_for_display("/caf%C3%A9/%E2%80%AE/%2F%41%25")
    '/café/%E2%80%AE/%2FA%25'
    """
    if "%" not in text:
        return text
    parts: list[str] = []
    last = 0
    for m in PCT_ENCODED_RUN.finditer(text):
        i = m.start()
        # A run right after "%" or "%X" that starts no escape (a stray "%"):
        # its first byte, if a hex digit, would complete that "%" into one.
        stray = (i >= 1 and text[i - 1] == "%") or (
            i >= 2 and text[i - 2] == "%" and text[i - 1] in _HEX
        )
        parts.append(text[last:i])
        parts.append(_decode_run(m.group(), stray))
        last = m.end()
    parts.append(text[last:])
    return "".join(parts)


def _is_domain(rec: URLRecord) -> bool:
    # A special URL's non-empty host that is not an IP address is a domain;
    # a non-special URL's host is an opaque host (§3.5 host parser).
    return rec.scheme in SPECIAL and type(rec.host) is str and rec.host != ""


def _display_host(rec: URLRecord) -> str:
    assert rec.host is not None
    host = serialize_host(rec.host)
    if _is_domain(rec):
        # §4.8: a domain is rendered with domain to Unicode (§3.3).
        return domain_to_unicode(host)
    return host


def _elide_host(host: str, room: int) -> str:
    # §4.8 Elision: drop whole labels from the lowest level, keeping at least
    # the last two (the registrable domain needs the Public Suffix List, which
    # this library does not carry: two labels is the least it can be).
    labels = host.split(".")
    keep = len(labels)
    while keep > 2 and len(host) > room:
        keep -= 1
        host = ELLIPSIS + ".".join(labels[-keep:])
    return host


def _elide_middle(text: str, room: int) -> str:
    if len(text) <= room:
        return text
    if room <= 1:
        return ELLIPSIS if text else ""
    head = room // 2
    tail = room - 1 - head
    return text[:head] + ELLIPSIS + (text[len(text) - tail :] if tail else "")


def render(
    rec: URLRecord,
    href: str,
    *,
    scheme: bool = True,
    credentials: bool = False,
    host_only: bool = False,
    query: bool = True,
    fragment: bool = True,
    max_length: int | None = None,
    isolate: bool = False,
) -> str:
    """The rendering of the URL ``rec`` serialized as ``href`` for a person (URL
    Standard §4.8); see :meth:`percent_encoding.url.URL.display`.
    """
    host = None if rec.host is None else _display_host(rec)
    domain = host is not None and _is_domain(rec)
    if host_only and host is not None:
        shown = host
        if domain and max_length is not None and len(shown) > max_length:
            shown = _elide_host(shown, max_length)
        return "\u2066" + shown + "\u2069" if isolate else shown
    path = serialize_path(rec)
    q = "" if rec.query is None or not query else "?" + rec.query
    f = "" if rec.fragment is None or not fragment else "#" + rec.fragment
    tail_len = len(path) + (0 if rec.query is None else 1 + len(rec.query)) + (
        0 if rec.fragment is None else 1 + len(rec.fragment))
    head = href[: len(href) - tail_len]
    start = rec.scheme + ":" if scheme else ""
    authority = ""
    if host is not None:
        userinfo = ""
        if credentials and (rec.username or rec.password):
            userinfo = decode_for_display(rec.username)
            if rec.password:
                userinfo += ":" + decode_for_display(rec.password)
            userinfo += "@"
        port = "" if rec.port is None else ":" + str(rec.port)
        start += "//" if scheme else ""
        if domain and max_length is not None:
            # The host comes first: it is what trust decisions are made on.
            room = max_length - len(start) - len(userinfo) - len(port)
            if len(host) > room:
                host = _elide_host(host, room)
        authority = userinfo + host + port
    elif head.endswith("/."):
        # The serializer's "/." before a path that starts with "//" (§4.5).
        start += "/."
    rest = decode_for_display(path + q + f)
    if max_length is not None and len(start) + len(authority) + len(rest) > max_length:
        rest = _elide_middle(rest, max(max_length - len(start) - len(authority), 0))
    shown = start + authority + rest
    return "\u2066" + shown + "\u2069" if isolate else shown
