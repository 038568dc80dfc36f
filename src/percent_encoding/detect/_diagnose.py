"""Diagnosis of a percent-encoded string for :mod:`.detect`: :func:`diagnose`
and its :class:`Finding` records (bad or truncated escapes, lower-case hex,
needless escapes, raw characters, invalid UTF-8, double encoding, ``%uXXXX``,
an ambiguous ``+``, a raw ``%`` in a Message-ID), judged against the encode
set of a context (RFC 3986 §2.1, §2.3, §2.4 and the URL Standard §1.3 sets;
UTF-8 per the Encoding Standard).

Private: the public names are re-exported from :mod:`.detect`.
"""

from __future__ import annotations

import codecs
import re
import threading
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .. import _args
from .._abnf import PCT_ENCODED_RUN as _ESCAPE_RUN
from .._abnf import UNRESERVED
from ..errors import PercentEncodingTypeError
from ..sets import EncodeSet
from ..sets import get as _get_set

__all__ = ["Finding", "FormConformance", "diagnose", "form_conformance"]


# ---------------------------------------------------------------------------
# Diagnosis
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class Finding:
    """One problem in a string: a code, where (``start``/``end`` are indices
    into the text), what, and how to fix it."""

    code: str
    start: int
    end: int
    message: str
    fix: str
    component: str | None = None


_CONTEXT_SETS = {
    "query": "rfc3986-query",
    "form": "rfc3986-query",
    "path": "rfc3986-path",
    "path-segment": "rfc3986-path-segment",
    "fragment": "rfc3986-fragment",
    "userinfo": "rfc3986-userinfo",
    "host": "rfc3986-reg-name",
    "component": "rfc3986-unreserved",
}
_UNRESERVED = frozenset(UNRESERVED.encode("ascii"))
TOKEN = re.compile(
    r"%u[0-9A-Fa-f]{4}"  # ECMAScript escape()
    r"|%(?:25)+[0-9A-Fa-f]{2}"  # an escape of an escape
    r"|%[0-9A-Fa-f]{2}"
    r"|%[0-9A-Fa-f]?\Z"  # truncated at the end
    r"|%"
    r"|[^%]",
    re.S,
)


@lru_cache(maxsize=64)
def token_re(must_encode: EncodeSet, ctx: str) -> re.Pattern[str]:
    # _TOKEN, led by one alternative that swallows a run of ASCII characters
    # that give no finding here, so plain text costs one match per run.
    quiet = [
        chr(c) for c in range(0x20, 0x7F)
        if chr(c) not in must_encode and chr(c) not in "%+"
    ]
    if ctx == "form":
        quiet += [c for c in "&=+" if c not in quiet]
    elif ctx != "query" and "+" not in must_encode:
        quiet.append("+")
    cls = "".join(re.escape(c) for c in quiet)
    # Escapes that give no finding either: upper-case hex of a byte that is not
    # unreserved, and not %25 before two hex digits (a double encoding).
    # Unreserved bytes (RFC 3986 §2.3): 2D 2E 30-39 41-5A 5F 61-7A 7E.
    unreserved = "2[DE]|3[0-9]|4[1-9A-F]|5[0-9AF]|6[1-9A-F]|7[0-9AE]"
    esc = f"%(?!{unreserved}|25[0-9A-Fa-f]{{2}})[0-9A-F]{{2}}"
    return re.compile(f"((?:[{cls}]+|{esc})+)|" + TOKEN.pattern, re.S)


def _context_set(context: str | EncodeSet) -> tuple[EncodeSet, str]:
    if isinstance(context, EncodeSet):
        return context, context.name or "custom"
    if not isinstance(context, str):
        raise PercentEncodingTypeError(
            f"context must be a str or an EncodeSet, not {type(context).__name__}"
        )
    name = _CONTEXT_SETS.get(context)
    if name is not None:
        return _get_set(name), context
    return _get_set(context), context


class _Collect(threading.local):
    errors: list[tuple[int, int, str]]


_COLLECT = _Collect()


def _collect_errors(e: UnicodeError) -> tuple[str, int]:
    assert isinstance(e, UnicodeDecodeError)
    _COLLECT.errors.append((e.start, max(e.end, e.start + 1), e.reason))
    return "", max(e.end, e.start + 1)


codecs.register_error("percent_encoding.detect.collect", _collect_errors)


# A Message-ID (RFC 5322 §3.6.4 msg-id: id-left "@" id-right, without its angle
# brackets as mid: and news: URLs carry it, RFC 2392 §2, RFC 5538 §2.2) lies between
# these delimiters: ':' ends a scheme, '/' starts a mid: URL's content-id, '?', '#',
# '&' and '=' are URL or form syntax, '<' '>' and white space frame the id in text.
# (atext allows '/', '?', '=' and '&' in id-left too; an id that holds them is cut
# into pieces here and is not recognized, which errs towards reporting invalid-utf8.)
_MSGID_SEGMENT = re.compile(r"[^\s<>:/?#&=]+")
# id-right: a dot-atom of domain-like labels or a [no-fold-literal].
_ID_RIGHT = re.compile(r"(?:[A-Za-z0-9!#$%'*+\-^_`{|}~]+(?:\.[A-Za-z0-9!#$%'*+\-^_`{|}~]+)*"
                       r"|\[[^\[\]\\]*\])\Z")


def msgid_spans(text: str) -> list[tuple[int, int]]:
    """(start, end) of each segment of ``text`` shaped like a Message-ID, ``local@domain``."""
    out: list[tuple[int, int]] = []
    for m in _MSGID_SEGMENT.finditer(text):
        seg = m.group()
        at = seg.find("@")
        if at > 0 and seg.count("@") == 1 and _ID_RIGHT.match(seg, at + 1):
            out.append(m.span())
    return out


def _raw_percent_findings(text: str, a: int, b: int, findings: list[Finding]) -> None:
    # Each '%' of an invalid stretch inside a Message-ID: most likely a raw '%', which
    # Message-IDs often hold (RFC 5322 §3.6.4 allows it in atext), written unencoded.
    for i in range(a, b, 3):
        findings.append(Finding(
            "raw-percent-likely", i, i + 3,
            f"{text[i:i + 3]} is inside what looks like a Message-ID (local@domain, "
            "RFC 5322 §3.6.4), where '%' is a common raw character, and it does not decode "
            "as UTF-8: the '%' was most likely copied in without being encoded (a mid: or "
            "news: URL writes it %25, RFC 2392 §2)",
            "%25" + text[i + 1:i + 3],
        ))


def _invalid_utf8_findings(text: str, findings: list[Finding]) -> None:
    # One decode per run of escapes, every error collected by the handler:
    # linear in the run, however many invalid bytes it holds.
    msgids = msgid_spans(text) if "@" in text else []
    k = 0  # msgids[k] is the first Message-ID segment not wholly before the run
    for run in _ESCAPE_RUN.finditer(text):
        raw = bytes.fromhex(run.group().replace("%", ""))
        if raw.isascii():
            continue
        _COLLECT.errors = []
        raw.decode("utf-8", "percent_encoding.detect.collect")
        errors, _COLLECT.errors = _COLLECT.errors, []
        # Contiguous invalid stretches become one finding each.
        stretches: list[tuple[int, int, str]] = []
        for bad_start, bad_end, why in errors:
            a = run.start() + 3 * bad_start
            b = run.start() + 3 * bad_end
            if stretches and stretches[-1][1] == a:
                stretches[-1] = (stretches[-1][0], b, stretches[-1][2])
            else:
                stretches.append((a, b, why))
        while k < len(msgids) and msgids[k][1] <= run.start():
            k += 1
        for a, b, reason in stretches:
            if k < len(msgids) and msgids[k][0] <= a and b <= msgids[k][1]:
                _raw_percent_findings(text, a, b, findings)
                continue
            shown = text[a:b] if b - a <= 60 else text[a:a + 60] + f"… ({b - a} characters)"
            findings.append(
                Finding(
                    "invalid-utf8",
                    a,
                    b,
                    f"the escapes {shown} do not decode as UTF-8 ({reason}); "
                    "they may be in a legacy encoding (see detect.charset)",
                    "decode with the right encoding, then re-encode as UTF-8",
                )
            )


# RFC 3986 Appendix B, with the authority split as §3.2 says.
_URL_PARTS = re.compile(r"(?:([A-Za-z][A-Za-z0-9+.\-]*):)?(?://([^/?#]*))?([^?#]*)"
                        r"(?:\?([^#]*))?(?:#(.*))?", re.S)
LOOKS_LIKE_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")


def url_spans(url: str) -> list[tuple[str, int, int]]:
    """(component, start, end) for userinfo, host, path, query and fragment."""
    m = _URL_PARTS.match(url)
    assert m is not None
    out: list[tuple[str, int, int]] = []
    if m.group(2) is not None:
        a, b = m.span(2)
        auth = url[a:b]
        at = auth.rfind("@")
        if at != -1:
            out.append(("userinfo", a, a + at))
            a += at + 1
        hostport = url[a:b]
        colon = hostport.rfind(":")
        if colon != -1 and "]" not in hostport[colon:]:
            b = a + colon
        out.append(("host", a, b))
    out.append(("path", *m.span(3)))
    if m.group(4) is not None:
        out.append(("query", *m.span(4)))
    if m.group(5) is not None:
        out.append(("fragment", *m.span(5)))
    return out


def _diagnose_url(text: str) -> list[Finding]:
    findings: list[Finding] = []
    for comp, a, b in url_spans(text):
        if a == b:
            continue
        for f in diagnose(text[a:b], context=comp):
            findings.append(Finding(f.code, f.start + a, f.end + a,
                                    f.message, f.fix, comp))
    return findings


def diagnose(text: str, *, context: str | EncodeSet = "auto") -> list[Finding]:
    """Everything questionable in a percent-encoded string, in order.

    ``context`` says where the string lives: "url" (a whole URL: each
    component is judged by its own rules, and findings name it in
    ``.component``), "query", "form", "path", "path-segment", "fragment",
    "userinfo", "host", "component" (one encoded value), or any encode-set
    name; it decides which raw characters must have been encoded (RFC 3986's
    grammar for that component) and whether a ``+`` is ambiguous.  The
    default, "auto", is "url" for text that starts like an absolute URL
    (``scheme://``) and "query" otherwise.  A clean string gives an empty list.
    Linear in the length of the text.

    An escape that does not decode as UTF-8 inside a segment shaped like a
    Message-ID (``local@domain``, RFC 5322 §3.6.4; a ``mid:`` URL, RFC 2392) is
    ``raw-percent-likely``: a raw ``%`` that should have been ``%25``.

    "form" judges an application/x-www-form-urlencoded body by the HTML 4.01
    form grammar (see :func:`form_conformance`: ``obs-uchar``,
    ``obs-escaped-code``, ``obs-value`` and the other rules, so ``%41`` is no
    finding there and ``%FF`` is ``obs-escaped-code``), and as the URL
    Standard's parser reads it (§5.1, HTML §4.10.22): ``semicolon-separator``,
    ``raw-equals``, ``missing-equals``, ``empty-name``, ``empty-field``,
    ``lone-newline``; and names a protocol owns: ``oauth-reserved-name``
    (RFC 5849 §3.1), ``openid-name`` (OpenID Authentication 2.0 §4.1.3).  A
    body a browser sends gives at most the grammar's ``obs-`` findings.

    >>> [f.code for f in diagnose("a%2x%41%e9+b")]
    ['invalid-percent', 'encoded-unreserved', 'lowercase-hex', 'invalid-utf8', 'ambiguous-plus']
    >>> [(f.code, f.component) for f in diagnose("http://h/a+b#c+d?e%zz")]
    [('invalid-percent', 'fragment')]
    >>> [f.code for f in diagnose("a=1;b=2", context="form")]
    ['semicolon-separator']
    """
    _args.check_str_input("diagnose", text)
    if context == "auto":
        context = "url" if LOOKS_LIKE_URL.match(text) else "query"
    if context == "url":
        return _diagnose_url(text)
    must_encode, ctx = _context_set(context)
    findings: list[Finding] = []
    n = len(text)
    for m in token_re(must_encode, ctx).finditer(text):
        tok = m.group()
        s, t = m.start(), m.end()
        if m.lastindex == 1:
            continue  # a run of characters that need no finding
        if tok[0] != "%":
            if tok == "+" and ctx == "query":
                findings.append(Finding(
                    "ambiguous-plus", s, t,
                    "'+' is a space if the server reads the query as a form, and a plus "
                    "sign otherwise (see detect.space_convention)",
                    "write %20 for a space or %2B for a plus sign",
                ))
            elif "\ud800" <= tok <= "\udfff":
                findings.append(Finding(
                    "raw-character", s, t,
                    f"a lone surrogate U+{ord(tok):04X} is not a character: no encoding can "
                    "write it (browsers turn it into U+FFFD)",
                    "%EF%BF%BD",
                ))
            elif tok in must_encode and not (ctx == "form" and tok in "&=+"):
                findings.append(Finding(
                    "raw-character", s, t,
                    f"{tok!r} (U+{ord(tok):04X}) must be percent-encoded in a {ctx}",
                    _encode_for_fix(tok),
                ))
            continue
        if tok.startswith("%u") and len(tok) == 6:
            cp = int(tok[2:], 16)
            findings.append(Finding(
                "percent-u", s, t,
                f"{tok} is ECMAScript escape() syntax, which no URL spec allows",
                "use the UTF-8 escapes " + _encode_for_fix(chr(cp), surrogate_ok=True),
            ))
            continue
        if len(tok) < 3:  # "%" anywhere, or "%X" at the very end
            if t == n:
                findings.append(Finding(
                    "trailing-percent", s, t,
                    f"the text ends in a truncated escape {tok!r} (cut off?)",
                    "drop it, or write %25 for a literal percent sign",
                ))
            else:
                findings.append(Finding(
                    "invalid-percent", s, s + 1,
                    f"'%' at {s} is not followed by two hex digits",
                    "write %25 for a literal percent sign",
                ))
            continue
        if tok.startswith("%25") and len(tok) > 3:
            findings.append(Finding(
                "double-encoded", s, t,
                f"{tok} decodes to the escape %{tok[-2:]}: the text was probably "
                "percent-encoded twice",
                f"%{tok[-2:].upper()} (detect.undo_double_encoding)",
            ))
            continue
        hexpart = tok[1:]
        if hexpart != hexpart.upper():
            findings.append(Finding(
                "lowercase-hex", s, t,
                f"{tok} uses lower-case hex; the specs produce upper case",
                tok.upper(),
            ))
        b = int(hexpart, 16)
        if b in _UNRESERVED and ctx != "form":
            # (the HTML 4.01 form grammar takes %41 as a valid escaped-code, and a form's
            # serializer writes ~ as %7E: URL Standard §5.2)
            findings.append(Finding(
                "encoded-unreserved", s, t,
                f"{tok} encodes the unreserved character {chr(b)!r}, which never needs it "
                "(RFC 3986 §2.3)",
                chr(b),
            ))
    _invalid_utf8_findings(text, findings)
    if ctx == "form":  # the grammar's obs-escaped-code speaks for bytes above 7F
        findings = [f for f in findings if f.code != "invalid-utf8"]
    raw = {(f.start, f.end) for f in findings if f.code == "raw-percent-likely"}
    if raw:  # a '%' that is likely raw has no hex case to fix
        findings = [f for f in findings
                    if not (f.code == "lowercase-hex" and (f.start, f.end) in raw)]
    if context == "form":
        from ._diagnose_form import form_findings
        from ._form_grammar import grammar_findings

        findings += [Finding(*f) for f in form_findings(text)]
        findings += _new_grammar_findings(findings, grammar_findings(text))
    findings.sort(key=lambda f: (f.start, f.end))
    return findings


# A grammar finding that names what one of these codes already reports at the same
# place is not repeated by diagnose (form_conformance keeps it).
_SAME_AS = {
    "obs-separator": ("semicolon-separator",),
    "obs-name": ("empty-name",),
    "obs-escaped-code": ("lone-newline",),
    "obs-body": ("empty-field",),
    "trailing-separator": ("empty-field",),
    "empty-field": ("empty-field",),
    "missing-equals": ("missing-equals",),
    "raw-equals": ("raw-equals",),
    "raw-character": ("raw-character",),
    "invalid-percent": ("invalid-percent", "trailing-percent"),
}


def _meets(a: Finding, b_start: int, b_end: int) -> bool:
    # Overlapping spans; an empty span meets a span it lies in, ends included.
    if a.start == a.end:
        return b_start <= a.start <= b_end
    if b_start == b_end:
        return a.start <= b_start <= a.end
    return a.start < b_end and b_start < a.end


def _new_grammar_findings(
    have: list[Finding], grammar: list[tuple[str, int, int, str, str]]
) -> list[Finding]:
    # Linear: the findings by code, then each grammar finding looks at the
    # ones of its equivalent codes near its position (both lists are sorted).
    by_code: dict[str, list[Finding]] = {}
    for f in sorted(have, key=lambda f: (f.start, f.end)):
        by_code.setdefault(f.code, []).append(f)
    cursor = dict.fromkeys(by_code, 0)
    out: list[Finding] = []
    for code, a, b, message, fix in grammar:
        repeated = False
        for other in _SAME_AS.get(code, ()):
            row = by_code.get(other, [])
            i = cursor.get(other, 0)
            while i < len(row) and row[i].end < a:
                i += 1
            cursor[other] = i
            j = i
            while j < len(row) and row[j].start <= b:
                if _meets(row[j], a, b):
                    repeated = True
                    break
                j += 1
            if repeated:
                break
        if not repeated:
            out.append(Finding(code, a, b, message, fix))
    return out


@dataclass(frozen=True)
class FormConformance:
    """The answer of :func:`form_conformance`: the ``level`` and the ``findings`` behind it."""

    level: Literal["valid", "obsolete", "invalid"]
    findings: tuple[Finding, ...]


def form_conformance(body: str) -> FormConformance:
    """Judge a form body by an ABNF grammar of application/x-www-form-urlencoded.

    The grammar is the project's ABNF reading of HTML 4.01 §17.13.4 and RFC 1738
    §2.2, with the old usages as ``obs-`` rules (shown in ``docs/detect.md``).
    ``level`` is "valid" (no ``obs-`` rule needed), "obsolete" (some ``obs-``
    rule needed) or "invalid" (outside the grammar); ``findings`` has one
    :class:`Finding` per rule broken, at its position: ``obs-body``,
    ``obs-separator``, ``obs-name``, ``obs-value``, ``obs-uchar``,
    ``obs-escaped-code``, and for an invalid body ``raw-character``,
    ``invalid-percent``, ``raw-equals``, ``missing-equals``, ``empty-field``,
    ``trailing-separator``.  Linear in the length of the body.

    >>> form_conformance("a=%41&b=c+d").level
    'valid'
    >>> r = form_conformance("a=1;b=%FF")
    >>> r.level, [f.code for f in r.findings]
    ('obsolete', ['obs-separator', 'obs-escaped-code'])
    >>> form_conformance("a=b&").level  # a trailing separator: only obs-body, which leads with one
    'invalid'
    """
    _args.check_str_input("form_conformance", body)
    from ._form_grammar import grammar_findings, level_of

    found = tuple(Finding(*f) for f in grammar_findings(body))
    return FormConformance(level_of({f.code for f in found}), found)


def _encode_for_fix(ch: str, surrogate_ok: bool = False) -> str:
    from ..core import encode

    return encode(ch, "rfc3986-unreserved", errors="replace" if surrogate_ok else "strict")
