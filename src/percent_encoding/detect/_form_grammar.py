"""The form-body grammar for ``detect.form_conformance`` and
``detect.diagnose(s, context="form")``.

application/x-www-form-urlencoded written as ABNF (RFC 5234): the project's
reading (after the notes it grew from, 001 [12]) of HTML 4.01 §17.13.4 (names
and values escaped as RFC 1738 §2.2 says, ``+`` for a space, CR LF as
``%0D%0A``, fields joined by ``&``) with the older usages kept as ``obs-``
rules::

    body             = field *(separator field) / obs-body  ; 1
    separator        = "&" / obs-separator  ; 2
    field            = name "=" value  ; 3
    name             = 1*uchar / obs-name  ; 4
    value            = 1*uchar / obs-value  ; 5
    uchar            = ALPHA / DIGIT / "-" / "_" / "." / "," / ":" / joint
                       / escaped / obs-uchar  ; 6
    joint            = "+"  ; 7
    escaped          = "%" escaped-code / "%0D%0A"  ; 8
    escaped-code     = "0" ("0" / .. / "9" / "B" / "C" / "E" / "F")
                       / ("1" / .. / "7") HEXDIGIT / obs-escaped-code  ; 9
    obs-escaped-code = 2HEXDIGIT  ; 10
    obs-separator    = ";"  ; 11
    obs-body         = *(separator field) [separator]  ; 12
    obs-name         = *uchar  ; 13
    obs-value        = *uchar  ; 14
    obs-uchar        = "'" / "(" / ")" / ";" / "$" / "@" / "*" / "!"  ; 15

A body is "valid" when it matches without any ``obs-`` alternative,
"obsolete" when it needs one, "invalid" when it does not match at all.
Quoted strings are case-insensitive (RFC 5234 §2.3), so ``%0d%0a`` and ``%c3``
match too.

Strategy: no backtracking.  ``;`` is both ``obs-separator`` and ``obs-uchar``,
the one ambiguity that matters; ``&`` can only be a separator.  So the body is
split on ``&`` into chunks, and each chunk is a run of fields joined by ``;``:
every field holds exactly one ``=``, so the ``;``-pieces that hold an ``=``
anchor the fields, and the ``;`` just before an anchor is the separator (any
other ``;`` is an ``obs-uchar`` of the name or value around it; every choice
gives an obsolete body, so the level does not depend on it).  Within a field
one token pattern with disjoint alternatives classifies each character.  Both
steps are linear in the length of the body.

By the letter of the grammar a separator may end the body only in ``obs-body``,
which starts with a separator: ``&a=b&`` is obsolete, ``a=b&`` is invalid
(``trailing-separator``).  The empty body matches only ``obs-body``.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["INVALID_CODES", "OBSOLETE_CODES", "grammar_findings", "level_of"]

# (code, start, end, message, fix), as _diagnose_form's FormFinding.
GrammarFinding = tuple[str, int, int, str, str]

#: The codes of the rules the obs- alternatives stand for.
OBSOLETE_CODES = frozenset({"obs-body", "obs-separator", "obs-name", "obs-value",
                            "obs-uchar", "obs-escaped-code"})
#: The codes of what no derivation of ``body`` matches.
INVALID_CODES = frozenset({"raw-character", "invalid-percent", "raw-equals", "missing-equals",
                           "empty-field", "trailing-separator"})

_HEX = "0-9A-Fa-f"
# Rule 6 to 10 and 15 as one token pattern; the alternatives start differently or
# are tried longest-first (%0D%0A before %0D), so a match never backtracks.
_UCHAR_TOKEN = re.compile(
    rf"(?P<ok>(?:[A-Za-z0-9\-_.,:+]+|%0[Dd]%0[Aa]|%(?:0[0-9BCEFbcef]|[1-7][{_HEX}]))+)"
    rf"|(?P<obsuchar>[';()$@*!]+)"
    rf"|(?P<obsbyte>(?:%[89A-Fa-f][{_HEX}])+)"  # bytes above 7F, as runs
    rf"|(?P<obsnl>%0[AaDd])"                    # a CR or LF alone
    rf"|(?P<pct>%)"
    rf"|(?P<eq>=)"
    rf"|(?P<other>.)",
    re.S,
)


def level_of(codes: set[str]) -> Literal["valid", "obsolete", "invalid"]:
    """The level a set of finding codes gives."""
    if codes & INVALID_CODES:
        return "invalid"
    return "obsolete" if codes & OBSOLETE_CODES else "valid"


def grammar_findings(body: str) -> list[GrammarFinding]:
    """Every rule of the grammar that ``body`` breaks or needs an obs- rule for, in order."""
    out: list[GrammarFinding] = []
    n = len(body)
    if n == 0 or body in ("&", ";"):
        # rule 12: the empty body, or a lone separator, is obs-body alone
        out.append(("obs-body", 0, n,
                    "the empty body and a body that is a single separator match only "
                    "obs-body (rule 12); body needs at least one field (rule 1)",
                    "send at least one name=value field"))
        if body == ";":
            out.append(_obs_separator(0))
        return out
    chunks = body.split("&")
    last = len(chunks) - 1
    starts = [0] * len(chunks)
    for i in range(1, len(chunks)):
        starts[i] = starts[i - 1] + len(chunks[i - 1]) + 1
    trailing = last > 0 and chunks[last] == ""
    # obs-body (rule 12) begins with a separator; only it may end with one.
    lead_amp = chunks[0] == "" and last > 0
    lead_semi = trailing and not lead_amp and body[0] == ";"
    if lead_amp or lead_semi:
        out.append(("obs-body", 0, 1,
                    f"the body begins with the separator {body[0]!r}: only obs-body "
                    "(rule 12) allows that",
                    "drop the leading separator"))
        if lead_semi:
            out.append(_obs_separator(0))
    for i, chunk in enumerate(chunks):
        s = starts[i]  # (the '&' before a chunk is a separator, rule 2)
        if chunk == "":
            if i == 0 and lead_amp:
                continue
            if i == last:
                if lead_amp or lead_semi:
                    out.append(("obs-body", s - 1, s,
                                "a separator that ends the body: only obs-body (rule 12) "
                                "allows that",
                                "drop the trailing '&'"))
                else:
                    out.append(("trailing-separator", s - 1, s,
                                "a separator ends the body, which by the letter of the "
                                "grammar only obs-body allows, and obs-body must begin "
                                "with a separator too (rule 12): 'a=b&' matches neither "
                                "body nor obs-body",
                                "drop the trailing '&'"))
                continue
            out.append(("empty-field", s, s,
                        "two separators with no field between: a field is name '=' value "
                        "and always has its '=' (rule 3)",
                        "drop the extra '&'"))
            continue
        if i == 0 and lead_semi:
            chunk, s = chunk[1:], 1
            if chunk == "":
                out.append(("empty-field", s, s,
                            "two separators with no field between: a field is name '=' "
                            "value and always has its '=' (rule 3)",
                            "drop the extra separator"))
                continue
        _chunk_findings(body, s, chunk, out)
    out.sort(key=lambda f: (f[1], f[2]))
    return out


def _obs_separator(at: int) -> GrammarFinding:
    return ("obs-separator", at, at + 1,
            "';' separates fields only as obs-separator (rule 11; HTML 4.01 Appendix "
            "B.2.2 asked servers to accept it)",
            "'&'")


def _chunk_findings(body: str, s: int, chunk: str, out: list[GrammarFinding]) -> None:
    # The fields of a chunk between '&'s: each ';'-piece holding an '=' anchors one
    # field, which runs from the ';' before it (a separator) to the next such ';'.
    field_starts: list[int] = []
    eqs: list[int] = []
    pos = s
    for piece in chunk.split(";"):
        j = piece.find("=")
        if j != -1:
            if field_starts:
                out.append(_obs_separator(pos - 1))
                field_starts.append(pos)
            else:
                field_starts.append(s)
            eqs.append(pos + j)
        pos += len(piece) + 1
    end = s + len(chunk)
    if not field_starts:
        out.append(("missing-equals", s, end,
                    f"{chunk[:40]!r} has no '=': a field is name '=' value (rule 3)",
                    chunk + "=" if len(chunk) <= 40 else "add '=' and a value"))
        _uchars(body, s, end, out)
        return
    for k, a in enumerate(field_starts):
        b = field_starts[k + 1] - 1 if k + 1 < len(field_starts) else end
        eq = eqs[k]
        if eq == a:
            out.append(("obs-name", a, a,
                        "an empty name: name is 1*uchar, and only obs-name (rule 13) "
                        "may be empty",
                        "give the field a name"))
        if eq + 1 == b:
            out.append(("obs-value", b, b,
                        "an empty value: value is 1*uchar, and only obs-value (rule 14) "
                        "may be empty",
                        "leave the field out, or give it a value"))
        _uchars(body, a, eq, out)
        _uchars(body, eq + 1, b, out)


def _uchars(body: str, a: int, b: int, out: list[GrammarFinding]) -> None:
    # Rule 6 over body[a:b], which is a name or a value.
    for m in _UCHAR_TOKEN.finditer(body, a, b):
        kind = m.lastgroup
        if kind == "ok":
            continue
        s, t = m.span()
        tok = m.group()
        if kind == "obsuchar":
            out.append(("obs-uchar", s, t,
                        f"{tok!r}: these characters are uchar only as obs-uchar (rule 15)",
                        "".join(f"%{ord(c):02X}" for c in tok[:20])))
        elif kind == "obsbyte":
            try:
                bytes.fromhex(tok.replace("%", "")).decode("utf-8")
                what = "they decode as UTF-8"
            except UnicodeDecodeError:
                what = "they do not decode as UTF-8 either (see detect.charset)"
            out.append(("obs-escaped-code", s, t,
                        f"{tok[:60]}: escapes of bytes above 7F are escaped-code only as "
                        "obs-escaped-code (rules 9, 10; HTML 4.01 forms sent ASCII only); "
                        + what,
                        "send the field as multipart/form-data, or accept the obsolete form"))
        elif kind == "obsnl":
            out.append(("obs-escaped-code", s, t,
                        f"{tok} alone is escaped-code only as obs-escaped-code (rules 8 to "
                        "10: a line break is the pair %0D%0A)",
                        "%0D%0A"))
        elif kind == "pct":
            out.append(("invalid-percent", s, t,
                        "'%' not followed by two hex digits is not escaped (rule 8)",
                        "%25"))
        elif kind == "eq":
            out.append(("raw-equals", s, t,
                        "an '=' after the first in a field is not a uchar (rules 3, 6)",
                        "%3D"))
        else:
            out.append(("raw-character", s, t,
                        f"{tok!r} (U+{ord(tok):04X}) is not a uchar (rule 6): outside the "
                        "grammar",
                        "+" if tok == " " else _escape(tok)))


def _escape(ch: str) -> str:
    if "\ud800" <= ch <= "\udfff":
        return "%EF%BF%BD"
    return "".join(f"%{b:02X}" for b in ch.encode("utf-8"))
