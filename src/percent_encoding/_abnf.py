"""The grammar rules several modules match, each written once, under the rule it implements.

Strategy (the h11 model): the ABNF of each rule, with its RFC or spec section, sits right
above the alphabet or regex that implements it; modules import these names instead of
writing their own copies, so the copies cannot drift apart.  Alphabets are ``str`` (for
``EncodeSet.from_allowed``, ``in`` tests and regex classes through :func:`re.escape`);
patterns are compiled once.  Nothing here raises: callers turn a match into their own error.
"""

from __future__ import annotations

import re

# --------------------------------------------------------------------------------------------
# RFC 5234 Appendix B.1 (core rules)
#
#   ALPHA  = %x41-5A / %x61-7A   ; A-Z / a-z
#   DIGIT  = %x30-39             ; 0-9
#   HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
#
# ABNF strings are case-insensitive (RFC 5234 §2.3), so HEXDIG takes a-f too.

ALPHA = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
DIGIT = "0123456789"
ALNUM = ALPHA + DIGIT
HEXDIG = "0123456789ABCDEFabcdef"

# --------------------------------------------------------------------------------------------
# RFC 3986 §2 (characters)
#
#   unreserved  = ALPHA / DIGIT / "-" / "." / "_" / "~"                       §2.3
#   gen-delims  = ":" / "/" / "?" / "#" / "[" / "]" / "@"                     §2.2
#   sub-delims  = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
#   reserved    = gen-delims / sub-delims
#   pct-encoded = "%" HEXDIG HEXDIG                                            §2.1

UNRESERVED = ALNUM + "-._~"
GEN_DELIMS = ":/?#[]@"
SUB_DELIMS = "!$&'()*+,;="
RESERVED = GEN_DELIMS + SUB_DELIMS

PCT_ENCODED = re.compile("%[0-9A-Fa-f]{2}")
# Adjacent triples, decoded together (a UTF-8 sequence spans several).
PCT_ENCODED_RUN = re.compile("(?:%[0-9A-Fa-f]{2})+")

# A "%" that does not start a pct-encoded triple.  The URL Standard's percent-decode
# (§1.3) passes it through as a literal byte; strict decoders report its position.
BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
BAD_PERCENT_BYTES = re.compile(rb"%(?![0-9A-Fa-f]{2})")

#   scheme        = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )                 §3.1
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*")

#   IP-literal    = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"    §3.2.2, RFC 6874 §2
#   IPv6addrz     = IPv6address "%25" ZoneID
#   ZoneID        = 1*( unreserved / pct-encoded )
#   IPvFuture     = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
#   IPv6address   =                            6( h16 ":" ) ls32
#                 /                       "::" 5( h16 ":" ) ls32
#                 / [               h16 ] "::" 4( h16 ":" ) ls32
#                 / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
#                 / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
#                 / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
#                 / [ *4( h16 ":" ) h16 ] "::"              ls32
#                 / [ *5( h16 ":" ) h16 ] "::"              h16
#                 / [ *6( h16 ":" ) h16 ] "::"
#   h16           = 1*4HEXDIG
#   ls32          = ( h16 ":" h16 ) / IPv4address
#   IPv4address   = dec-octet "." dec-octet "." dec-octet "." dec-octet
#   dec-octet     = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
#
# IP_LITERAL_BODY matches what sits between the brackets.
_H16 = "[0-9A-Fa-f]{1,4}"
_DEC_OCTET = "(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9][0-9]|[0-9])"
IPV4ADDRESS = rf"{_DEC_OCTET}(?:\.{_DEC_OCTET}){{3}}"
_LS32 = f"(?:{_H16}:{_H16}|{IPV4ADDRESS})"
IPV6ADDRESS = (
    "(?:"
    + "|".join(
        [
            f"(?:{_H16}:){{6}}{_LS32}",
            f"::(?:{_H16}:){{5}}{_LS32}",
            f"(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}",
            f"(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}",
            f"(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}",
            f"(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}",
            f"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}",
            f"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}",
            f"(?:(?:{_H16}:){{0,6}}{_H16})?::",
        ]
    )
    + ")"
)
_IP_LITERAL_BODY = (
    rf"{IPV6ADDRESS}(?:%25(?:[{re.escape(UNRESERVED)}]|%[0-9A-Fa-f]{{2}})+)?"
    rf"|[vV][0-9A-Fa-f]+\.[{re.escape(UNRESERVED + SUB_DELIMS + ':')}]+"
)


def __getattr__(name: str) -> re.Pattern[str]:
    # IP_LITERAL_BODY (the IPv6 grammar) compiles on first use (PEP 562): it was two
    # thirds of this module's import, which every `percent` command pays.
    if name == "IP_LITERAL_BODY":
        pattern = re.compile(_IP_LITERAL_BODY)
        globals()[name] = pattern
        return pattern
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

# --------------------------------------------------------------------------------------------
# Scalar values
#
# Infra (https://infra.spec.whatwg.org/#scalar-value) and Unicode D76: a scalar value is
# a code point that is not a surrogate (U+D800 to U+DFFF).  A Python str is a sequence of
# code points and stores a valid pair as one astral code point, so any character in this
# range is a lone surrogate: UTF-8 cannot encode it, and WebIDL's USVString conversion
# (https://webidl.spec.whatwg.org/#es-USVString) replaces it with U+FFFD.

LONE_SURROGATE = re.compile("[\ud800-\udfff]")

# --------------------------------------------------------------------------------------------
# HTTP header syntax, RFC 9110 §5.6 (was RFC 7230 §3.2.3 and §3.2.6)
#
#   token = 1*tchar                                                            §5.6.2
#   tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
#           "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
#   OWS   = *( SP / HTAB )                                                     §5.6.3

TCHAR = "!#$%&'*+-.^_`|~" + ALNUM
TOKEN = re.compile(f"[{re.escape(TCHAR)}]+")
OWS = re.compile(r"[ \t]*")

#   quoted-string = DQUOTE *( qdtext / quoted-pair ) DQUOTE                    §5.6.4
#   quoted-pair   = "\" ( HTAB / SP / VCHAR / obs-text )
#
# Wider than the ABNF: qdtext's range is not enforced (any character but DQUOTE and "\"
# is taken) and quoted-pair escapes any character.  Written as an unrolled loop so that
# matching stays linear on any input.
QUOTED_STRING = re.compile(r'"([^"\\]*(?:\\.[^"\\]*)*)"', re.DOTALL)
QUOTED_PAIR = re.compile(r"\\(.)", re.DOTALL)
