"""Analysis: reading percent-encoded data whose conventions nobody wrote down.

Strategy: four questions, four functions, each returning plain data.

* :func:`space_convention` — does ``+`` mean a space here?  The decision
  procedure: a POST body sent by a form is application/x-www-form-urlencoded
  (HTML §4.10.21.3, URL Standard §5); the query of an http, https, ws or wss
  URL most likely is (HTML forms write GET queries that way); other schemes'
  queries, paths and fragments are plain percent-encoding, where ``+`` is a
  plus sign (RFC 3986 §2.2, §3.4).
* :func:`charset` — which encoding are these percent-decoded bytes in (see
  :mod:`._charset`; valid UTF-8 first, then the legacy encodings of forms).
* :func:`diagnose` — what is wrong with this string: bad or truncated
  escapes, lower-case hex, needless escapes, raw characters, invalid UTF-8,
  double encoding, ``%uXXXX``, an ambiguous ``+``.  Each finding has a
  position and a fix.
* :func:`undo_double_encoding` and :func:`variants` — peel ``%25`` layers;
  list the registered schemes that could have written a string.

Everything here is linear in the input.
"""

from __future__ import annotations

import codecs
import re
import threading
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from . import _args
from ._charset import ECHO_CHARSET_FIELDS as ECHO_CHARSET_FIELDS
from ._charset import CharsetGuess
from .errors import PercentEncodingError, PercentEncodingTypeError
from .sets import EncodeSet
from .sets import get as _get_set

__all__ = [
    "ECHO_CHARSET_FIELDS",
    "RULES",
    "CharsetGuess",
    "Finding",
    "SpaceConvention",
    "charset",
    "choose_form_encoding",
    "diagnose",
    "form_field_charsets",
    "space_convention",
    "undo_double_encoding",
    "variants",
]

_FORM_SCHEMES = frozenset({"http", "https", "ws", "wss"})


@dataclass(frozen=True)
class SpaceConvention:
    """The answer of :func:`space_convention`.

    ``plus_is_space`` is the decision; ``confidence`` is "certain", "likely"
    or "probably"; ``reason`` says why, citing the specs; ``rule`` names the rule that
    fired with a stable identifier, one of :data:`RULES` (``"form-body"``,
    ``"no-form-body"``, ``"url-component"``, ``"http-query"``, ``"no-scheme-query"``,
    ``"other-scheme-query"``).
    """

    plus_is_space: bool
    reason: str
    confidence: Literal["certain", "likely", "probably"]
    rule: str

    @property
    def paragraph(self) -> str:
        """Deprecated: the bracketed paragraph number that ``rule`` held in 0.1.0 (``"[166]"``).

        Use :attr:`rule`, a stable identifier.
        """
        import warnings

        warnings.warn("SpaceConvention.paragraph is deprecated; use .rule, a stable identifier",
                      DeprecationWarning, stacklevel=2)
        return _OLD_RULES[self.rule]


#: The values of :attr:`SpaceConvention.rule`.
RULES = ("form-body", "no-form-body", "url-component", "http-query", "no-scheme-query",
         "other-scheme-query")
_OLD_RULES = {"form-body": "[160]", "no-form-body": "[163]", "url-component": "[164]",
              "http-query": "[166]", "no-scheme-query": "[168]", "other-scheme-query": "[168]"}


def _scheme_of(url: str) -> str | None:
    m = re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", url.strip(" \t\n\r\f\x00"))
    return m.group()[:-1].lower() if m else None


def space_convention(
    url: str | None = None,
    *,
    scheme: str | None = None,
    component: str | None = None,
    method: str | None = None,
) -> SpaceConvention:
    """Decide whether ``+`` stands for a space in a piece of percent-encoded data.

    ``component`` is "query" (the default when a URL or scheme is given),
    "path", "fragment", "userinfo", "host" or "body".  A ``method`` of POST
    with no component (or "body") means a form body.

    >>> space_convention("https://example.com/search?q=a+b").plus_is_space
    True
    >>> space_convention("mailto:a@example.com?subject=a+b").plus_is_space
    False
    """
    for name, value in (("url", url), ("scheme", scheme), ("component", component),
                        ("method", method)):
        _args.check_str(name, value, none=True)
    comp = component.lower() if component else None
    meth = method.upper() if method else None
    if comp == "body" or (comp is None and url is None and scheme is None and meth is not None):
        if meth in (None, "POST", "PUT", "PATCH"):
            return SpaceConvention(
                True,
                "a request body sent by an HTML form is application/x-www-form-urlencoded, "
                "where '+' is a space (HTML §4.10.21.3, URL Standard §5); certain only when "
                "its Content-Type says so",
                "likely" if comp == "body" and meth is None else "certain",
                "form-body",
            )
        return SpaceConvention(
            False,
            f"a {meth} request has no form body; nothing says '+' is a space",
            "probably",
            "no-form-body",
        )
    sch = scheme.lower().rstrip(":") if scheme else (_scheme_of(url) if url else None)
    if comp is None and url is not None and "+" in url:
        # A whole URL: judge the component the '+' is in (RFC 3986 §3; the
        # query ends at '#').  A '+' in the query decides; else the first one.
        spans = _url_spans(url)
        plus_in = [name for name, a, b in spans if "+" in url[a:b]]
        if plus_in and "query" not in plus_in:
            comp = plus_in[0]
    if comp is None:
        comp = "query"
    if comp not in ("query", "path", "fragment", "userinfo", "host"):
        raise PercentEncodingError(
            f"unknown component {component!r}: use query, path, fragment, userinfo, host or body"
        )
    if comp != "query":
        return SpaceConvention(
            False,
            f"the {comp} of a URL is plain percent-encoding: '+' is a plus sign and a space "
            "is %20 (RFC 3986 §2.2; URL Standard §4.4 gives '+' no meaning there)",
            "probably",
            "url-component",
        )
    if sch in _FORM_SCHEMES:
        return SpaceConvention(
            True,
            f"the query of an {sch}: URL is most likely application/x-www-form-urlencoded "
            "(HTML forms submit GET queries that way), where '+' is a space; the server "
            "alone decides for sure (HTML §4.10.21.3, URL Standard §5)",
            "likely",
            "http-query",
        )
    if sch is None:
        return SpaceConvention(
            False,
            "no scheme is known: a query is plain percent-encoding unless its server "
            "treats it as a form (RFC 3986 §3.4); pass the URL or scheme to decide",
            "probably",
            "no-scheme-query",
        )
    extra = (
        " (mailto: queries look like forms but give '+' no special meaning, RFC 6068 §2)"
        if sch == "mailto"
        else ""
    )
    return SpaceConvention(
        False,
        f"the query of a {sch}: URL is plain percent-encoding: '+' is a plus sign "
        f"(RFC 3986 §3.4){extra}",
        "probably",
        "other-scheme-query",
    )


def charset(
    data: bytes | bytearray | memoryview,
    *,
    candidates: Sequence[str] | None = None,
    hints: Mapping[str, object] | None = None,
) -> list[CharsetGuess]:
    """Guess the encoding of percent-decoded bytes, best first.

    Valid UTF-8 comes first; otherwise each legacy encoding that decodes the
    bytes is scored by a small per-language model.  ``hints`` may hold
    ``"_charset_"`` (a form's ``_charset_`` value: decisive), ``"probe"``
    (``(char, submitted_bytes)``: decisive) and ``"charset"`` (a Content-Type
    parameter: adds weight only).  See ``docs/detect.md`` for the accuracy
    table by input length.

    >>> from percent_encoding import decode
    >>> charset(decode("%93%FA%96%7B%8C%EA"))[0].encoding
    'Shift_JIS'
    """
    from ._charset import charset as _impl

    return _impl(data, candidates=candidates, hints=hints)


def choose_form_encoding(
    raw_pairs: Sequence[tuple[bytes, bytes]],
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    candidates: Sequence[str] | None = None,
    echo_fields: Sequence[str] | None = None,
) -> CharsetGuess:
    """Pick the encoding of a form's percent-decoded names and values: a
    ``_charset_`` field, then a probe field ``(name, expected_char)``, then a
    field echoing the charset (:data:`ECHO_CHARSET_FIELDS`, or ``echo_fields``),
    then detection; the answer's ``.reason`` says which rule decided and its
    ``.findings`` what looked wrong (fields that disagree, a cut UTF-8 value)."""
    from ._charset import choose_form_encoding as _impl

    return _impl(
        raw_pairs,
        probe=probe,
        content_type_charset=content_type_charset,
        candidates=candidates,
        echo_fields=echo_fields,
    )


def form_field_charsets(
    raw_pairs: Sequence[tuple[bytes, bytes]],
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    candidates: Sequence[str] | None = None,
    echo_fields: Sequence[str] | None = None,
) -> tuple[CharsetGuess, list[CharsetGuess]]:
    """The whole-form guess of :func:`choose_form_encoding` and one guess per pair.

    For :func:`percent_encoding.form.parse_bytes` output, when fields may come in
    different charsets: decode each pair with its own guess (an ASCII pair gets the
    whole-form one).  ``form.parse(..., encoding="auto", per_field=True)`` does this.

    >>> whole, fields = form_field_charsets([(b"a", b"\\x82\\xa0"), (b"b", b"\\xa4\\xa2")])
    >>> [g.encoding for g in fields], whole.findings[0][:15]
    (['Shift_JIS', 'EUC-JP'], 'fields disagree')
    """
    from ._charset import form_encodings

    return form_encodings(
        raw_pairs, probe=probe, content_type_charset=content_type_charset,
        candidates=candidates, echo_fields=echo_fields, per_field=True,
    )


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
_UNRESERVED = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_ESCAPE_RUN = re.compile(r"(?:%[0-9A-Fa-f]{2})+")
_TOKEN = re.compile(
    r"%u[0-9A-Fa-f]{4}"  # ECMAScript escape()
    r"|%(?:25)+[0-9A-Fa-f]{2}"  # an escape of an escape
    r"|%[0-9A-Fa-f]{2}"
    r"|%[0-9A-Fa-f]?\Z"  # truncated at the end
    r"|%"
    r"|[^%]",
    re.S,
)


@lru_cache(maxsize=64)
def _token_re(must_encode: EncodeSet, ctx: str) -> re.Pattern[str]:
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
    return re.compile(f"((?:[{cls}]+|{esc})+)|" + _TOKEN.pattern, re.S)


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


def _invalid_utf8_findings(text: str, findings: list[Finding]) -> None:
    # One decode per run of escapes, every error collected by the handler:
    # linear in the run, however many invalid bytes it holds.
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
        for a, b, reason in stretches:
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
_LOOKS_LIKE_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://")


def _url_spans(url: str) -> list[tuple[str, int, int]]:
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
    for comp, a, b in _url_spans(text):
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

    >>> [f.code for f in diagnose("a%2x%41%e9+b")]
    ['invalid-percent', 'encoded-unreserved', 'lowercase-hex', 'invalid-utf8', 'ambiguous-plus']
    >>> [(f.code, f.component) for f in diagnose("http://h/a+b#c+d?e%zz")]
    [('invalid-percent', 'fragment')]
    """
    _args.check_str_input("diagnose", text)
    if context == "auto":
        context = "url" if _LOOKS_LIKE_URL.match(text) else "query"
    if context == "url":
        return _diagnose_url(text)
    must_encode, ctx = _context_set(context)
    findings: list[Finding] = []
    n = len(text)
    for m in _token_re(must_encode, ctx).finditer(text):
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
        if b in _UNRESERVED:
            findings.append(Finding(
                "encoded-unreserved", s, t,
                f"{tok} encodes the unreserved character {chr(b)!r}, which never needs it "
                "(RFC 3986 §2.3)",
                chr(b),
            ))
    _invalid_utf8_findings(text, findings)
    findings.sort(key=lambda f: (f.start, f.end))
    return findings


def _encode_for_fix(ch: str, surrogate_ok: bool = False) -> str:
    from .core import encode

    return encode(ch, "rfc3986-unreserved", errors="replace" if surrogate_ok else "strict")


_TWOS_AND_FIVES = re.compile(r"[25]*")  # one-character repeat: no backtracking state
_HEX = frozenset("0123456789ABCDEFabcdef")


def _peel(text: str) -> str:
    # Replaces every match of %(?:25)+(?=[0-9A-Fa-f]{2}) by "%", without the regex: CPython's
    # engine keeps state per repetition of a group, which made long "%2525...41" runs
    # superlinear.  Per "%25": p = the "25" pairs that follow; an escape after them
    # peels all p; otherwise p-1 (the last "25" is the escape); p == 1: a real "%25".
    out: list[str] = []
    done = 0
    i = text.find("%25")
    while i != -1:
        a = i + 1
        run = _TWOS_AND_FIVES.match(text, a).end()  # type: ignore[union-attr]
        stop = run  # the alternating 2525... prefix ends before a "22" or "55"
        for pair in ("22", "55"):
            j = text.find(pair, a, run)
            if j != -1:
                stop = min(stop, j + 1)
        e = a + 2 * ((stop - a) // 2)
        if text[e:e + 1] in _HEX and text[e + 1:e + 2] in _HEX:  # ("" is not in _HEX)
            cut = e
        else:
            cut = e - 2 if e - a >= 4 else -1
        if cut == -1:
            i = text.find("%25", a)
            continue
        out += (text[done:i], "%")
        done = cut
        i = text.find("%25", cut)
    out.append(text[done:])
    return "".join(out)


def undo_double_encoding(text: str) -> str:
    """Peel ``%25`` layers until every escape is single: ``%252541`` → ``%41``.

    A ``%25`` that introduces no escape (``100%25`` followed by non-hex) is a
    real percent sign and stays.

    >>> undo_double_encoding("a%2520b%25zz")
    'a%20b%25zz'
    """
    _args.check_str_input("undo_double_encoding", text)
    return _peel(text)


def variants(text: str) -> list[str]:
    """The registered schemes that could have written ``text``.

    A scheme qualifies when decoding ``text`` with it and encoding the result
    again gives ``text`` back exactly.

    >>> "ecmascript-encodeURIComponent" in variants("a%20b!")
    True
    >>> "application/x-www-form-urlencoded" in variants("a%20b!")
    False
    """
    _args.check_str_input("variants", text)
    from . import schemes

    out = []
    for s in schemes.all_schemes():
        if s.decode is None:
            continue
        try:
            if s.encode(s.decode(text)) == text:
                out.append(s.name)
        except (ValueError, TypeError):
            continue
    return out
