"""IRIs (RFC 3987): mapping an IRI to a URI and a URI back to an IRI.

Strategy: :func:`iri_to_uri` is one pass of :func:`percent_encoding.core.encode`
with a set that keeps every character a URI allows (and ``%``, so existing
escapes survive) and encodes the rest as UTF-8 ``%XX`` (§3.1).
:func:`uri_to_iri` splits the URI into its components (RFC 3986 Appendix B),
decodes runs of ``%XX`` in each, and keeps encoded whatever §3.2 says must
stay encoded: reserved and other non-unreserved ASCII, octets that are not
strictly valid UTF-8, characters outside ``ucschar`` (``iprivate`` is allowed
in the query only, §2.2) and the bidirectional formatting characters (§4.1).

Errors: :class:`PercentEncodingTypeError` for non-``str`` input;
:class:`PercentEncodeError` (with the index of the character) for a lone
surrogate, or in ``strict`` mode for a character an IRI cannot contain.
"""

from __future__ import annotations

import re

from . import _args
from . import core as _core
from ._abnf import HEXDIG as _HEXDIG
from ._abnf import PCT_ENCODED_RUN as _RUN_RE
from ._abnf import RESERVED as _RESERVED
from ._abnf import UNRESERVED as _UNRESERVED
from ._scheme import Scheme
from .errors import PercentEncodeError, PercentEncodingError, PercentEncodingTypeError
from .rfc3986 import recompose, split, split_authority
from .sets import EncodeSet

__all__ = [
    "IRI_TO_URI",
    "LEIRI_TO_URI",
    "SCHEMES",
    "any_uri_to_uri",
    "iri_to_uri",
    "is_bidi_formatting",
    "leiri_to_uri",
    "uri_to_iri",
    "xlink_href_to_uri",
    "xml_system_id_to_uri",
]


# §2.2 ucschar and iprivate, as regular-expression ranges.
_UCSCHAR = (
    "\u00a0-\ud7ff\uf900-\ufdcf\ufdf0-\uffef"
    "\U00010000-\U0001fffd\U00020000-\U0002fffd\U00030000-\U0003fffd"
    "\U00040000-\U0004fffd\U00050000-\U0005fffd\U00060000-\U0006fffd"
    "\U00070000-\U0007fffd\U00080000-\U0008fffd\U00090000-\U0009fffd"
    "\U000a0000-\U000afffd\U000b0000-\U000bfffd\U000c0000-\U000cfffd"
    "\U000d0000-\U000dfffd\U000e1000-\U000efffd"
)
_IPRIVATE = "\ue000-\uf8ff\U000f0000-\U000ffffd\U00100000-\U0010fffd"
# §4.1: LRM, RLM, LRE, RLE, PDF, LRO, RLO may not appear in an IRI.  The
# isolates (U+2066-U+2069) and ARABIC LETTER MARK (U+061C) came to Unicode
# after RFC 3987 (2005); they are the same kind of control and are treated
# the same way here.
_BIDI = "\u200e\u200f\u202a-\u202e\u061c\u2066-\u2069"
_BIDI_RE = re.compile(f"[{_BIDI}]")


def is_bidi_formatting(ch: str) -> bool:
    """Whether ``ch`` is a bidirectional formatting character (RFC 3987 §4.1).

    >>> is_bidi_formatting("\\u202e"), is_bidi_formatting("a")
    (True, False)

    A string that is not exactly one character is ``False``; a non-``str``
    raises :class:`PercentEncodingTypeError`.
    """
    _args.check_str_input("is_bidi_formatting", ch)
    return len(ch) == 1 and _BIDI_RE.match(ch) is not None


# ---------------------------------------------------------------------------
# §3.1 IRI -> URI
# ---------------------------------------------------------------------------
# Kept: the ASCII a URI may contain (unreserved, reserved) and "%", which §3.1
# says must not be converted.  Encoded: every non-ASCII character (step 2 for
# ucschar / iprivate) and the ASCII a URI may not contain — the ten printable
# ones §3.1 lets a converter handle in step 2 ('<', '>', '"', space, '{',
# '}', '|', '\\', '^', '`'), the C0 controls and DEL.
IRI_TO_URI = EncodeSet.from_allowed(
    _UNRESERVED + _RESERVED + "%",
    name="iri-to-uri",
    spec="RFC 3987 §3.1 (ucschar, iprivate and characters a URI cannot hold, as UTF-8 %XX)",
)

# Characters an IRI cannot contain at all, for strict mode: ASCII outside
# unreserved / reserved / "%", anything non-ASCII that is neither ucschar nor
# iprivate, and the §4.1 bidi controls.
_NOT_IRI_RE = re.compile(f"[^{re.escape(_UNRESERVED + _RESERVED)}%{_UCSCHAR}{_IPRIVATE}]|[{_BIDI}]")
_IPRIVATE_RE = re.compile(f"[{_IPRIVATE}]")


def _check_iri(iri: str) -> None:
    m = _NOT_IRI_RE.search(iri)
    if m is not None:
        ch = m.group()
        why = (
            "a bidirectional formatting character (RFC 3987 §4.1)"
            if is_bidi_formatting(ch)
            else "not allowed in an IRI (RFC 3987 §2.2)"
        )
        raise PercentEncodeError(
            f"U+{ord(ch):04X} at position {m.start()} is {why}; "
            "pass strict=False to percent-encode it",
            m.start(),
        )
    if _IPRIVATE_RE.search(iri) is None:
        return
    # iprivate is allowed in iquery only (§2.2): look for one outside it.
    parts = split(iri)
    offset = 0
    for name, value, prefix in (
        ("scheme", parts.scheme, ""),
        ("authority", parts.authority, "//"),
        ("path", parts.path, ""),
        ("query", parts.query, "?"),
        ("fragment", parts.fragment, "#"),
    ):
        if value is None:
            continue
        offset += len(prefix)
        m = _IPRIVATE_RE.search(value) if name != "query" else None
        if m is not None:
            pos = offset + m.start()
            raise PercentEncodeError(
                f"private-use character U+{ord(m.group()):04X} at position {pos} is allowed "
                "only in the query of an IRI (RFC 3987 §2.2); pass strict=False to "
                "percent-encode it",
                pos,
            )
        offset += len(value) + (1 if name == "scheme" else 0)


_HOSTS_TO_URI = ("percent", "idna")
_HOSTS_TO_IRI = ("percent", "unicode")


def _check_hosts(value: object, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str):
        raise PercentEncodingTypeError(f"hosts must be a str, not {type(value).__name__}")
    if value not in allowed:
        raise PercentEncodingError(
            f"hosts={value!r} is not one of " + ", ".join(repr(a) for a in allowed))
    return value


def _host_to_ascii(iri: str) -> str:
    # RFC 3987 §3.1, the paragraph after step 2: an ireg-name may be replaced by
    # its ToASCII form.  RFC 3490 ToASCII with UseSTD3ASCIIRules is done here as
    # UTS #46 ToASCII (its successor, the one browsers run) with UseSTD3ASCIIRules.
    scheme, authority, path, query, fragment = split(iri)
    if authority is None:
        return iri
    userinfo, host, port = split_authority(authority)
    if host.isascii() or host.startswith("["):
        return iri
    from .idna import to_ascii

    if "%" in host:
        try:
            host = _core.decode_text(host, errors="strict", strict=False)
        except PercentEncodingError:
            return iri  # not UTF-8 escapes: leave the host to percent-encoding
        if "%" in host:
            return iri  # a stray or encoded "%": no domain name, percent-encode it
    host = to_ascii(host, url_rules=False, use_std3_ascii_rules=True)
    authority = host if userinfo is None else userinfo + "@" + host
    if port is not None:
        authority += ":" + port
    return recompose((scheme, authority, path, query, fragment))


def iri_to_uri(iri: str, *, strict: bool = False, hosts: str = "percent") -> str:
    """Map an IRI (or IRI reference) to a URI (RFC 3987 §3.1).

    Every non-ASCII character becomes its UTF-8 octets as ``%XX`` (upper-case
    hex); existing escapes, ``%``, ``#``, ``[`` and ``]`` are kept (§3.1 says
    they must not be converted), as is every other character a URI allows.
    The ASCII characters a URI cannot contain — space, ``<``, ``>``, ``"``,
    ``{``, ``}``, ``|``, ``\\``, ``^``, backquote, the controls and DEL — are
    encoded too (§3.1 lets a converter do this for the printable ones; a URI
    cannot contain any of them).  The mapping is the identity on URIs and
    idempotent.

    Step 1 of §3.1 is the caller's: a Python ``str`` is already Unicode, so
    no NFC normalization is done (variant c).

    ``hosts`` says what happens to a non-ASCII host name (``ireg-name``):
    ``"percent"`` (the default) percent-encodes it like the rest;
    ``"idna"`` converts it to ``xn--`` labels with ToASCII, which §3.1 allows
    in place of percent-encoding (done as UTS #46 ToASCII with
    UseSTD3ASCIIRules, see :func:`percent_encoding.idna.to_ascii`; a name it
    rejects raises :class:`~percent_encoding.errors.IDNAError`).

    With ``strict=True``, a character that no IRI may contain (the ASCII
    above, non-characters and other non-``ucschar``, bidi formatting
    characters (§4.1), ``iprivate`` outside the query) raises
    :class:`PercentEncodeError` with its index instead of being encoded.

    >>> iri_to_uri("http://www.example.org/red%09ros\\u00e9#red")
    'http://www.example.org/red%09ros%C3%A9#red'
    >>> iri_to_uri("http://example.com/\\U00010300\\U00010301\\U00010302")
    'http://example.com/%F0%90%8C%80%F0%90%8C%81%F0%90%8C%82'
    >>> iri_to_uri("http://r\\u00e9sum\\u00e9.example.org/r\\u00e9", hosts="idna")
    'http://xn--rsum-bpad.example.org/r%C3%A9'
    """
    _args.check_str_input("iri_to_uri", iri)
    _args.check_bool("strict", strict)
    if strict:
        _check_iri(iri)
    if hosts != "percent" and _check_hosts(hosts, _HOSTS_TO_URI) == "idna":
        iri = _host_to_ascii(iri)
    return _core.encode(iri, IRI_TO_URI)


# ---------------------------------------------------------------------------
# §3.2 URI -> IRI
# ---------------------------------------------------------------------------
_UCS_RE = re.compile(f"[{_UCSCHAR}]")
_UCS_OR_PRIVATE_RE = re.compile(f"[{_UCSCHAR}{_IPRIVATE}]")
_PCT_UPPER = [f"%{i:02X}" for i in range(256)]


_HEX_DIGITS = frozenset(_HEXDIG)


def _decode_run(run: str, allowed: re.Pattern[str], after_stray: bool = False) -> str:
    # Steps 2-5 on one run of adjacent escapes.  Python's UTF-8 decoder is
    # strict (no overlongs, surrogates or values above U+10FFFF), and
    # surrogateescape hands back each octet that is not part of a legal
    # sequence as U+DC80-U+DCFF, which step 3 re-encodes.
    text = bytes.fromhex(run.replace("%", "")).decode("utf-8", "surrogateescape")
    out: list[str] = []
    pos = 0  # index of the octet (and of its triplet in ``run``, times 3)
    for ch in text:
        cp = ord(ch)
        if cp < 0x80:
            # Step 2 decodes only what is not "%", reserved or disallowed
            # ASCII: the unreserved characters.  The rest keep their spelling.
            keep = ch not in _UNRESERVED or (pos == 0 and after_stray and ch in _HEX_DIGITS)
            out.append(run[3 * pos : 3 * pos + 3] if keep else ch)
            pos += 1
        elif 0xDC80 <= cp <= 0xDCFF:  # step 3: not strictly legal UTF-8
            out.append(_PCT_UPPER[cp - 0xDC00])
            pos += 1
        else:
            n = 2 if cp < 0x800 else 3 if cp < 0x10000 else 4
            if allowed.match(ch) is not None and not _BIDI_RE.match(ch):
                out.append(ch)
            else:  # step 4: not appropriate in an IRI (§2.2, §4.1)
                out.append("".join(_PCT_UPPER[b] for b in ch.encode("utf-8")))
            pos += n
    return "".join(out)


def _after_stray_percent(s: str, i: int) -> bool:
    # Whether the run at s[i] directly follows a "%" or "%X" that starts no
    # valid escape (RFC 3986 §2.4: it stands for itself).  Decoding the run's
    # first escape to a hex digit would complete it into a different escape:
    # "%1%41" (the characters "%1A") must not become "%1A" (the octet 0x1A).
    # s[i-1] and s[i-2] are literal characters: a run ends in a hex digit.
    return (i >= 1 and s[i - 1] == "%") or (
        i >= 2 and s[i - 2] == "%" and s[i - 1] in _HEX_DIGITS
    )


def _decode_component(text: str, allowed: re.Pattern[str]) -> str:
    if "%" not in text:
        return text
    return _RUN_RE.sub(
        lambda m: _decode_run(m.group(), allowed, _after_stray_percent(text, m.start())), text
    )


_XN_LABEL_RE = re.compile(r"(?:^|(?<=\.))[xX][nN]--")


def _host_to_unicode(host: str) -> str:
    # RFC 3987 §3.2.1: xn-- labels may be shown decoded with ToUnicode.  Done as
    # the URL Standard's domain to Unicode (UTS #46 ToUnicode, §3.3); a label is
    # replaced only when the whole name converts without an error and the
    # result holds nothing an IRI must keep encoded (ucschar only, no bidi
    # formatting characters, §2.2 and §4.1).
    if not _XN_LABEL_RE.search(host):
        return host
    from .idna import to_unicode

    decoded = to_unicode(host)
    if decoded == host:
        return host
    old, new = host.split("."), decoded.split(".")
    if len(old) != len(new):
        return host
    out = []
    for a, b in zip(old, new, strict=True):
        if _XN_LABEL_RE.match(a) and all(_UCS_RE.match(c) for c in b if c >= "\x80") \
                and not _BIDI_RE.search(b):
            out.append(b)
        else:
            out.append(a)
    return ".".join(out)


def uri_to_iri(uri: str, *, hosts: str = "percent") -> str:
    """Convert a URI (or URI reference) to an IRI (RFC 3987 §3.2).

    A ``%XX`` sequence is decoded only when the result belongs in an IRI:

    * ASCII: only unreserved characters (``A-Za-z0-9-._~``) are decoded;
      ``%25``, reserved characters (``%2F``, ``%3F``, ``%23``, …), space and
      other characters a URI cannot hold stay encoded, exactly as written;
    * non-ASCII: only strictly valid UTF-8 that decodes to a ``ucschar``
      (or, in the query, an ``iprivate``) character; a bidirectional
      formatting character (§4.1) is never decoded.  Octets that stay
      encoded are written with upper-case hex, as in the RFC's examples;
    * a ``%`` that starts no valid escape is kept, and is never completed by
      a decoded character: the escape of a hex digit right after ``%`` or
      ``%X`` stays encoded (``%1%41`` means the characters ``%1A``; decoding
      it to ``%1A`` would mean the octet 0x1A).

    The scheme and IP-literal hosts are left alone.  ``hosts="percent"``
    (the default) treats a host like the other components; ``hosts="unicode"``
    also shows its ``xn--`` labels decoded (UTS #46 ToUnicode, which §3.2.1
    allows; a label is kept when the name has an error).  The result maps
    back to the input with :func:`iri_to_uri` (with ``hosts="idna"`` for the
    second), up to hex case and decoded unreserved characters.

    >>> uri_to_iri("http://www.example.org/D%C3%BCrst")
    'http://www.example.org/Dürst'
    >>> uri_to_iri("http://www.example.org/D%FCrst")
    'http://www.example.org/D%FCrst'
    >>> uri_to_iri("http://xn--99zt52a.example.org/%e2%80%ae")
    'http://xn--99zt52a.example.org/%E2%80%AE'
    >>> uri_to_iri("http://xn--99zt52a.example.org/%e2%80%ae", hosts="unicode")
    'http://納豆.example.org/%E2%80%AE'
    """
    _args.check_str_input("uri_to_iri", uri)
    to_unicode = hosts != "percent" and _check_hosts(hosts, _HOSTS_TO_IRI) == "unicode"
    if "%" not in uri and not to_unicode:
        return uri
    scheme, authority, path, query, fragment = split(uri)
    if authority is not None and ("%" in authority or to_unicode):
        userinfo, host, port = split_authority(authority)
        if userinfo is not None:
            userinfo = _decode_component(userinfo, _UCS_RE)
        if not host.startswith("["):  # ireg-name takes ucschar; IP-literal does not
            host = _decode_component(host, _UCS_RE)
            if to_unicode:
                host = _host_to_unicode(host)
        authority = host if userinfo is None else userinfo + "@" + host
        if port is not None:
            authority += ":" + port
    path = _decode_component(path, _UCS_RE)
    if query is not None:
        query = _decode_component(query, _UCS_OR_PRIVATE_RE)
    if fragment is not None:
        fragment = _decode_component(fragment, _UCS_RE)
    out = recompose((scheme, authority, path, query, fragment))
    return uri if out == uri else out


def _iri_to_uri_scheme(text: str) -> str:
    return iri_to_uri(text)


# ---------------------------------------------------------------------------
# IRI-like strings of the XML family, and their conversion to URIs
# ---------------------------------------------------------------------------
# The W3C Note "Legacy extended IRIs for XML resource identification" (LEIRI,
# 2008-11-03) keeps RFC 3987's syntax but widens ucschar to leiri-ucschar:
# space, < > " { } | \ ^ `, %x0-1F, %x7F-D7FF, %xE000-FFFD, %x10000-10FFFF
# (so iprivate and the bidi controls of §4.1 are allowed too).  A LEIRI becomes
# an IRI by percent-encoding (as UTF-8) each character of leiri-ucschar that
# ucschar lacks, and the IRI a URI by RFC 3987 §3.1: together, every
# non-ASCII character and the ASCII a URI cannot hold are encoded, which is
# the set of iri_to_uri.  What the variants differ in is what they accept.
LEIRI_TO_URI = IRI_TO_URI.named(
    "leiri-to-uri",
    "W3C Note 'Legacy extended IRIs for XML resource identification' (2008), "
    "leiri-ucschar, converted with RFC 3987 §3.1",
)
# Not leiri-ucschar (nor any other IRI production): the surrogates, U+FFFE, U+FFFF.
_NOT_LEIRI_RE = re.compile("[\ud800-\udfff\ufffe\uffff]")
# XML 1.0 (Fifth Edition) §2.2 Char: #x9 | #xA | #xD | [#x20-#xD7FF] |
# [#xE000-#xFFFD] | [#x10000-#x10FFFF].
_NOT_XML_CHAR_RE = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")
# XML Schema 1.1 Part 2 §4.3.6 whiteSpace "collapse" (fixed for anyURI): #x9,
# #xA, #xD become #x20, runs of #x20 become one, and the ends are trimmed.
_XML_SPACE_RUN_RE = re.compile("[\t\n\r ]+")


def _refuse(text: str, pattern: re.Pattern[str], what: str) -> None:
    m = pattern.search(text)
    if m is not None:
        raise PercentEncodeError(
            f"U+{ord(m.group()):04X} at position {m.start()} is not allowed in {what}",
            m.start(),
        )


def leiri_to_uri(leiri: str) -> str:
    """Convert a Legacy Extended IRI to a URI (W3C Note "Legacy extended IRIs for XML
    resource identification", 2008).

    A LEIRI may hold what an IRI may not: space, ``<>"{}|\\^``, backquote, the
    C0 controls, DEL, C1 controls, private-use and bidi formatting characters
    anywhere.  Each of these and every other non-ASCII character becomes its
    UTF-8 octets as ``%XX`` (LEIRI to IRI, then RFC 3987 §3.1); ``%`` and existing
    escapes are kept.  A surrogate, U+FFFE or U+FFFF (outside ``leiri-ucschar``)
    raises :class:`PercentEncodeError` with its index.

    >>> leiri_to_uri("http://example.org/a b/<r\u00e9sum\u00e9>")
    'http://example.org/a%20b/%3Cr%C3%A9sum%C3%A9%3E'
    >>> leiri_to_uri("http://example.org/\u202eabc%20")
    'http://example.org/%E2%80%AEabc%20'
    """
    _args.check_str_input("leiri_to_uri", leiri)
    _refuse(leiri, _NOT_LEIRI_RE, "a LEIRI (leiri-ucschar excludes surrogates, U+FFFE, U+FFFF)")
    return _core.encode(leiri, LEIRI_TO_URI)


def xml_system_id_to_uri(system_id: str, *, strict: bool = True) -> str:
    """Convert an XML system identifier to a URI reference (XML 1.0 Fifth Edition §4.2.2).

    §4.2.2 lists what is escaped before a system identifier is used as a URI: the
    controls #x0-#x1F and #x7F, space, ``<``, ``>``, ``"``, ``{``, ``}``,
    ``|``, ``\\``, ``^``, backquote and every character above #x7F, each as its
    UTF-8 octets in ``%XX``.  A character that is not an XML ``Char`` (§2.2)
    cannot be in a system identifier and raises :class:`PercentEncodeError`.
    §4.2.2 also calls a fragment identifier in a system identifier an error: with
    ``strict=True`` (the default) a ``#`` raises; ``strict=False`` keeps it.

    >>> xml_system_id_to_uri("http://www.example.com/dtds/my doc.dtd")
    'http://www.example.com/dtds/my%20doc.dtd'
    >>> xml_system_id_to_uri("../r\u00e9sum\u00e9.ent")
    '../r%C3%A9sum%C3%A9.ent'
    """
    _args.check_str_input("xml_system_id_to_uri", system_id)
    _args.check_bool("strict", strict)
    _refuse(system_id, _NOT_XML_CHAR_RE, "an XML document (XML 1.0 §2.2 Char)")
    if strict and "#" in system_id:
        at = system_id.index("#")
        raise PercentEncodeError(
            f"'#' at position {at}: a fragment identifier in a system identifier is an error "
            "(XML 1.0 §4.2.2); pass strict=False to keep it",
            at,
        )
    return _core.encode(system_id, LEIRI_TO_URI)


def xlink_href_to_uri(href: str) -> str:
    """Convert the value of an ``xlink:href`` attribute to a URI (XLink 1.1 §5.4).

    XLink 1.1 makes ``href`` a LEIRI, so this is :func:`leiri_to_uri`: space,
    controls, ``<>"{}|\\^``, backquote and non-ASCII become UTF-8 ``%XX``; ``%``,
    ``#`` and ``[ ]`` are kept.  (XLink 1.0 §5.4 listed the same characters as
    RFC 2396 §2.4's excluded ones less ``#``, ``%``, ``[`` and ``]``, with the
    same result.)  An attribute value holds XML ``Char`` only (XML 1.0 §2.2): any
    other character raises :class:`PercentEncodeError`.

    >>> xlink_href_to_uri("http://example.org/Dürst#sec 2")
    'http://example.org/D%C3%BCrst#sec%202'
    """
    _args.check_str_input("xlink_href_to_uri", href)
    _refuse(href, _NOT_XML_CHAR_RE, "an XML attribute value (XML 1.0 §2.2 Char)")
    return _core.encode(href, LEIRI_TO_URI)


def any_uri_to_uri(value: str) -> str:
    """Convert an XML Schema ``anyURI`` literal to a URI (XSD 1.1 Part 2 §3.3.17).

    The literal is first whitespace-collapsed (the ``whiteSpace`` facet of
    ``anyURI`` is fixed to ``collapse``, §4.3.6: tab, CR and LF become spaces, runs
    of spaces one space, the ends trimmed); then every character a URI cannot
    hold is written as UTF-8 ``%XX``, as RFC 3987 §3.1 (which §3.3.17 names for
    using an ``anyURI`` as a URI) and the LEIRI Note do.  The lexical space is any
    string of XML ``Char`` (XML 1.0 §2.2); another character raises
    :class:`PercentEncodeError` with its index in ``value``.

    >>> any_uri_to_uri("  http://example.org/a  b\tc ")
    'http://example.org/a%20b%20c'
    >>> any_uri_to_uri("urn:x:\u00e9")
    'urn:x:%C3%A9'
    """
    _args.check_str_input("any_uri_to_uri", value)
    _refuse(value, _NOT_XML_CHAR_RE, "an anyURI (XSD 1.1 Part 2 §3.3.17: XML Char only)")
    return _core.encode(_XML_SPACE_RUN_RE.sub(" ", value).strip(" "), LEIRI_TO_URI)


def _leiri_scheme(text: str) -> str:
    return leiri_to_uri(text)


def _system_id_scheme(text: str) -> str:
    return xml_system_id_to_uri(text)


def _xlink_scheme(text: str) -> str:
    return xlink_href_to_uri(text)


def _any_uri_scheme(text: str) -> str:
    return any_uri_to_uri(text)


_XML_FAMILY = "IRI-like (XML family)"
# Rows kept apart from the RFC 3987 row so that merges stay simple (issue 43 item 11).
_XML_SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="leiri-to-uri",
        spec="W3C Note 'Legacy extended IRIs for XML resource identification' (2008-11-03)",
        encode=_leiri_scheme,
        encode_set=LEIRI_TO_URI,
        notes=(
            "accepts space, controls, <>\"{}|\\^`, bidi and private-use characters "
            "anywhere; all of them and every non-ASCII as UTF-8 %XX; '%' kept; "
            "surrogates, U+FFFE, U+FFFF refused"
        ),
        family=_XML_FAMILY,
        aliases=("leiri",),
        plain=True,
    ),
    Scheme(
        name="xml-system-id-to-uri",
        spec="XML 1.0 (Fifth Edition) §4.2.2 (system identifier)",
        encode=_system_id_scheme,
        encode_set=LEIRI_TO_URI,
        notes=(
            "controls, space, <>\"{}|\\^` and all above #x7F as UTF-8 %XX; a '#' "
            "(fragment identifier) is an error; non-XML characters refused"
        ),
        family=_XML_FAMILY,
    ),
    Scheme(
        name="xlink-href-to-uri",
        spec="XLink 1.1 §5.4 (href is a LEIRI)",
        encode=_xlink_scheme,
        encode_set=LEIRI_TO_URI,
        notes="as leiri-to-uri, on an attribute value (XML Char only)",
        family=_XML_FAMILY,
    ),
    Scheme(
        name="xsd-anyuri-to-uri",
        spec="XML Schema 1.1 Part 2 §3.3.17 anyURI (whiteSpace collapse, then RFC 3987 §3.1)",
        encode=_any_uri_scheme,
        notes=(
            "whitespace collapsed and trimmed first (a space stays only between words, "
            "as %20); then as leiri-to-uri; XML Char only"
        ),
        family=_XML_FAMILY,
        aliases=("anyURI",),
    ),
)


SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="iri-to-uri",
        spec="RFC 3987 §3.1 (decode: §3.2)",
        encode=_iri_to_uri_scheme,
        decode=uri_to_iri,
        encode_set=IRI_TO_URI,
        notes=(
            "non-ASCII as UTF-8 %XX, plus space, controls and <>\"{}|\\^`; '%' and existing "
            "escapes kept (idempotent); decode converts back only what an IRI may contain"
        ),
        family="RFC 3987 (IRI)",
        plain=True,
    ),
    *_XML_SCHEMES,
)
