"""Content-Disposition as recipients read it: the cases of the well-known
browser test collection for RFC 6266 (greenbytes' "tc2231"), with what each
case expects written here as our own data, and the table in docs/rfc8187.md
checked against them.  Run this file with Python to print that table.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from percent_encoding import rfc8187


class Case(NamedTuple):
    name: str  # the tc2231 case name (or ours, for cases added here)
    header: str
    disposition: str  # "" = the header is ignored as invalid
    params: dict[str, str]
    rfc: str  # what RFC 6266 (and RFC 8187/2231) say
    findings: tuple[str, ...] = ()
    rfc2231: bool = False
    decode_plain_filename: bool = False


_IGNORE = "invalid (§4.1 grammar): ignore the header"
C = Case
CASES: list[Case] = [
    C("inlonly", "inline", "inline", {}, "inline, no filename"),
    C("inlonlyquoted", '"inline"', "", {}, _IGNORE + " (type is a token)", ("missing-type",)),
    C("inlwithasciifilename", 'inline; filename="foo.html"', "inline", {"filename": "foo.html"},
      "inline; filename foo.html (§4.3)"),
    C("attonly", "attachment", "attachment", {}, "attachment, no filename"),
    C("attonlyquoted", '"attachment"', "", {}, _IGNORE + " (type is a token)",
      ("missing-type",)),
    C("attonlyucase", "ATTACHMENT", "attachment", {}, "attachment (§4.2: case-insensitive)"),
    C("attwithasciifnescapedchar", 'attachment; filename="f\\oo.html"', "attachment",
      {"filename": "foo.html"}, "foo.html (quoted-pair)"),
    C("attwithasciifnescapedquote", 'attachment; filename="\\"quoting\\" tested.html"',
      "attachment", {"filename": '"quoting" tested.html'}, '"quoting" tested.html'),
    C("attwithquotedsemicolon", "attachment; filename=\"Here's a semicolon;.html\"",
      "attachment", {"filename": "Here's a semicolon;.html"}, "Here's a semicolon;.html"),
    C("attwithfilenameandextparamescaped", 'attachment; foo="\\"\\\\";filename="foo.html"',
      "attachment", {"foo": '"\\', "filename": "foo.html"},
      "foo.html; unknown parameters are ignored (§4.4)"),
    C("attwithasciifilenameucase", 'attachment; FILENAME="foo.html"', "attachment",
      {"filename": "foo.html"}, "foo.html (parameter names are case-insensitive)"),
    C("attwithasciifilenamenq", "attachment; filename=foo.html", "attachment",
      {"filename": "foo.html"}, "foo.html (a token value)"),
    C("attwithtokfncommanq", "attachment; filename=foo,bar.html", "", {},
      _IGNORE + " (',' is not a token character)", ("expected-semicolon",)),
    C("attwithasciifilenamenqs", "attachment; filename=foo.html ;", "attachment",
      {"filename": "foo.html"}, "a trailing ';' is outside the grammar", ("trailing-semicolon",)),
    C("attemptyparam", "attachment; ;filename=foo", "", {}, _IGNORE + " (empty parameter)",
      ("expected-name",)),
    C("attwithasciifilenamenqws", "attachment; filename=foo bar.html", "", {},
      _IGNORE + " (space in a token)", ("expected-semicolon",)),
    C("attwithfntokensq", "attachment; filename='foo.bar'", "attachment",
      {"filename": "'foo.bar'"}, "'foo.bar' (single quotes are token characters)"),
    C("attwithisofnplain", 'attachment; filename="foo-ä.html"', "attachment",
      {"filename": "foo-ä.html"}, "foo-ä.html (ISO-8859-1 octets in a quoted-string)"),
    C("attwithfnrawpctenca", 'attachment; filename="foo-%41.html"', "attachment",
      {"filename": "foo-%41.html"}, "foo-%41.html: no percent-decoding of the plain form"),
    C("attwithfnrawpctenca (quirk)", 'attachment; filename="foo-%41.html"', "attachment",
      {"filename": "foo-A.html"}, "some user agents decode it (Appendix D)",
      decode_plain_filename=True),
    C("attwithfnusingpct", 'attachment; filename="50%.html"', "attachment",
      {"filename": "50%.html"}, "50%.html"),
    C("attwithfnusingpct (quirk)", 'attachment; filename="50%.html"', "attachment",
      {"filename": "50%.html"}, "50%.html (no escape to decode)", decode_plain_filename=True),
    C("attwithasciifilenamews1", 'attachment; filename ="foo.html"', "attachment",
      {"filename": "foo.html"}, "foo.html (whitespace around '=')"),
    C("attwith2filenames", 'attachment; filename="foo.html"; filename="bar.html"', "", {},
      _IGNORE + " (a parameter twice, §4.1)", ("duplicate-parameter",)),
    C("attfnbrokentoken", "attachment; filename=foo[1](2).html", "", {},
      _IGNORE + " ('[' is not a token character)", ("expected-semicolon",)),
    C("attfnbrokentokeniso", "attachment; filename=foo-ä.html", "", {},
      _IGNORE + " (non-ASCII in a token)", ("expected-semicolon",)),
    C("attmissingdisposition", "filename=foo.html", "", {}, _IGNORE + " (no type)",
      ("expected-semicolon",)),
    C("attmissingdisposition2", "x=y; filename=foo.html", "", {}, _IGNORE + " (no type)",
      ("expected-semicolon",)),
    C("emptydisposition", "; filename=foo.html", "", {}, _IGNORE + " (no type)",
      ("missing-type",)),
    C("attandinline", "inline; attachment; filename=foo.html", "", {},
      _IGNORE + " (two types)", ("expected-equals",)),
    C("attbrokenquotedfn", 'attachment; filename="foo.html".txt', "", {},
      _IGNORE + " (text after a quoted-string)", ("expected-semicolon",)),
    C("attbrokenquotedfn2", 'attachment; filename="bar', "", {},
      _IGNORE + " (unterminated quoted-string)", ("unterminated-quote",)),
    C("attbrokenquotedfn3", 'attachment; filename=foo"bar;baz"qux', "", {},
      _IGNORE + " ('\"' inside a token)", ("expected-semicolon",)),
    C("attmultinstances", "attachment; filename=foo.html, attachment; filename=bar.html",
      "", {}, _IGNORE + " (one disposition only)", ("expected-semicolon",)),
    C("attmissingdelim3", "attachment filename=bar", "", {}, _IGNORE + " (no ';')",
      ("expected-semicolon",)),
    C("attreversed", "filename=foo.html; attachment", "", {}, _IGNORE + " (type first)",
      ("expected-semicolon",)),
    C("attconfusedparam", "attachment; xfilename=foo.html", "attachment",
      {"xfilename": "foo.html"}, "attachment, no filename"),
    C("dispext", "foobar", "foobar", {}, "an unknown type: handle as attachment (§4.2)"),
    C("attwithisofn2231iso", "attachment; filename*=iso-8859-1''foo-%E4.html", "attachment",
      {"filename": "foo-ä.html"}, "foo-ä.html (RFC 8187 ISO-8859-1)"),
    C("attwithfn2231utf8", "attachment; filename*=UTF-8''foo-%c3%a4-%e2%82%ac.html",
      "attachment", {"filename": "foo-ä-€.html"}, "foo-ä-€.html"),
    C("attwithfn2231noc", "attachment; filename*=''foo-%c3%a4-%e2%82%ac.html", "attachment",
      {}, "no charset: the parameter is invalid, ignore it", ("malformed-ext-value",)),
    C("attwithfn2231ws1", "attachment; filename *=UTF-8''foo-%c3%a4.html", "", {},
      _IGNORE + " (space inside the name)", ("expected-equals",)),
    C("attwithfn2231ws3", "attachment; filename* =UTF-8''foo-%c3%a4.html", "attachment",
      {"filename": "foo-ä.html"}, "foo-ä.html (whitespace before '=')"),
    C("attwithfn2231quot", "attachment; filename*=\"UTF-8''foo-%c3%a4.html\"", "attachment",
      {}, "an ext-value is never quoted: ignore the parameter", ("quoted-ext-value",)),
    C("attwithfn2231singleqmissing", "attachment; filename*=UTF-8'foo-%c3%a4.html",
      "attachment", {}, "malformed ext-value: ignore the parameter", ("malformed-ext-value",)),
    C("attwithfn2231nbadpct1", "attachment; filename*=UTF-8''foo%", "attachment", {},
      "bad '%': ignore the parameter", ("malformed-ext-value",)),
    C("attwithfn2231dpct", "attachment; filename*=UTF-8''A-%2541.html", "attachment",
      {"filename": "A-%41.html"}, "A-%41.html (decoded once)"),
    C("attfncont", 'attachment; filename*0="foo."; filename*1="html"', "attachment", {},
      "HTTP has no RFC 2231 continuations (RFC 8187 §3.1)",
      ("rfc2231-continuation", "rfc2231-continuation")),
    C("attfncont (rfc2231)", 'attachment; filename*0="foo."; filename*1="html"', "attachment",
      {"filename": "foo.html"}, "RFC 2231 §3: foo.html", rfc2231=True),
    C("attfncontenc (rfc2231)", "attachment; filename*0*=UTF-8''foo-%c3%a4; filename*1=\".html\"",
      "attachment", {"filename": "foo-ä.html"}, "RFC 2231 §4.1: foo-ä.html", rfc2231=True),
    C("attfncontlz (rfc2231)", 'attachment; filename*0="foo"; filename*01="bar"', "attachment",
      {"filename": "foo"}, "RFC 2231 §3: no leading zeros, so foo", ("bad-continuation",),
      rfc2231=True),
    C("attfncontnc (rfc2231)", 'attachment; filename*0="foo"; filename*2="bar"', "attachment",
      {"filename": "foo"}, "RFC 2231 §3: stop at the gap, so foo", ("bad-continuation",),
      rfc2231=True),
    C("attfnconts1 (rfc2231)", 'attachment; filename*1="foo."; filename*2="html"',
      "attachment", {}, "RFC 2231 §3: no *0, no filename", ("bad-continuation",),
      rfc2231=True),
    C("attfncontord (rfc2231)", 'attachment; filename*1="bar"; filename*0="foo"', "attachment",
      {"filename": "foobar"}, "RFC 2231 §3: numeric order, foobar", rfc2231=True),
    C("attfnboth", "attachment; filename=\"foo-ae.html\"; filename*=UTF-8''foo-%c3%a4.html",
      "attachment", {"filename": "foo-ä.html"}, "filename* wins (§4.3)"),
    C("attfnboth2", "attachment; filename*=UTF-8''foo-%c3%a4.html; filename=\"foo-ae.html\"",
      "attachment", {"filename": "foo-ä.html"}, "filename* wins in either order (§4.3)"),
    C("attfnboth3 (rfc2231)",
      "attachment; filename*0*=ISO-8859-15''euro-sign%3d%a4; "
      "filename*=ISO-8859-1''currency-sign%3d%a4",
      "attachment", {"filename": "currency-sign=¤"}, "filename* wins over continuations",
      rfc2231=True),
    C("attfnboth3", "attachment; filename*0*=ISO-8859-15''euro-sign%3d%a4; "
      "filename*=ISO-8859-1''currency-sign%3d%a4",
      "attachment", {"filename": "currency-sign=¤"}, "filename* (continuations ignored)",
      ("rfc2231-continuation",)),
    C("attnewandfn", 'attachment; foobar=x; filename="foo.html"', "attachment",
      {"foobar": "x", "filename": "foo.html"}, "foo.html"),
    C("attrfc2047token", "attachment; filename==?ISO-8859-1?Q?foo-=E4.html?=", "", {},
      _IGNORE + " ('=' is not a token character)", ("expected-value",)),
    C("attrfc2047quoted", 'attachment; filename="=?ISO-8859-1?Q?foo-=E4.html?="',
      "attachment", {"filename": "=?ISO-8859-1?Q?foo-=E4.html?="},
      "taken literally: no RFC 2047 decoding"),
    # Cases added here.
    C("iso-8859-15", "attachment; filename*=ISO-8859-15''euro-sign%3d%a4", "attachment",
      {"filename": "euro-sign=€"}, "RFC 8187 allows other charsets"),
    C("unknown-charset", "attachment; foo*=bogus''x; filename=\"a.txt\"", "attachment",
      {"filename": "a.txt"}, "an unusable parameter is ignored", ("unsupported-charset",)),
    C("unknown-charset-filename", "attachment; filename*=x-bogus''x; filename=\"a.txt\"",
      "attachment", {"filename": "a.txt"}, "fall back to filename (Appendix D)",
      ("unsupported-charset",)),
    C("semicolon-in-token", "attachment; filename=foo;bar.html", "", {},
      _IGNORE + " (';' ends the value; 'bar.html' has no '=')", ("expected-equals",)),
    C("duplicate-ext", "attachment; filename*=UTF-8''a; FILENAME*=UTF-8''b", "", {},
      _IGNORE + " (a parameter twice, §4.1)", ("duplicate-parameter",)),
    C("duplicate-unknown", "attachment; foo=a; filename=x; foo=b", "", {},
      _IGNORE + " (a parameter twice, §4.1)", ("duplicate-parameter",)),
    C("quirk-not-utf8", 'attachment; filename="a%E4.txt"', "attachment",
      {"filename": "a%E4.txt"}, "not UTF-8 once decoded: kept as written",
      ("plain-filename-not-decoded",), decode_plain_filename=True),
    C("quirk-loses-to-ext", "attachment; filename=\"a%41\"; filename*=UTF-8''b", "attachment",
      {"filename": "b"}, "filename* wins (§4.3)", decode_plain_filename=True),
]


def _parse(case: Case) -> rfc8187.ContentDisposition:
    return rfc8187.parse_content_disposition(
        case.header, rfc2231=case.rfc2231, decode_plain_filename=case.decode_plain_filename
    )


@pytest.mark.one_impl
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_tc2231_case(case: Case) -> None:
    got = _parse(case)
    assert tuple(got) == (case.disposition, case.params)
    assert tuple(f.code for f in got.findings) == case.findings
    assert got.type == case.disposition and got.params == case.params
    assert got.filename == case.params.get("filename")
    for f in got.findings:
        assert 0 <= f.position <= len(case.header) and f.message


@pytest.mark.one_impl
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_tc2231_strict(case: Case) -> None:
    # strict=True raises exactly where the lenient parse finds something.
    if not case.findings:
        assert tuple(
            rfc8187.parse_content_disposition(
                case.header, strict=True, rfc2231=case.rfc2231,
                decode_plain_filename=case.decode_plain_filename,
            )
        ) == (case.disposition, case.params)
        return
    first = min(_parse(case).findings, key=lambda f: f.position)
    with pytest.raises((rfc8187.ContentDispositionError, rfc8187.UnsupportedCharsetError)) as e:
        rfc8187.parse_content_disposition(
            case.header, strict=True, rfc2231=case.rfc2231,
            decode_plain_filename=case.decode_plain_filename,
        )
    assert getattr(e.value, "position", None) == first.position


_HEADERISH = st.text(
    alphabet=st.sampled_from(list("attachment;filename*=\"'\\%0aAé, \t*012UTF-8")), max_size=60
)


@pytest.mark.one_impl
@settings(max_examples=300)
@given(_HEADERISH)
def test_lenient_parse_never_raises_and_strict_agrees(header: str) -> None:
    got = rfc8187.parse_content_disposition(header, rfc2231=True)
    assert isinstance(got, rfc8187.ContentDisposition)
    try:
        strict = rfc8187.parse_content_disposition(header, strict=True, rfc2231=True)
    except (rfc8187.ContentDispositionError, rfc8187.UnsupportedCharsetError) as e:
        assert got.findings
        assert getattr(e, "position", None) == min(f.position for f in got.findings)
    else:
        assert not got.findings and tuple(strict) == tuple(got)


def _cell(text: str) -> str:
    return "`" + text.replace("|", "\\|") + "`" if text else ""


def _we_give(case: Case) -> str:
    got = _parse(case)
    if not got.type:
        out = "header ignored"
    else:
        out = got.type
        if "filename" in got.params:
            out += ", filename " + _cell(got.params["filename"])
        else:
            out += ", no filename"
    if got.findings:
        out += " (" + ", ".join(dict.fromkeys(f.code for f in got.findings)) + ")"
    return out


def render_table() -> str:
    rows = ["| case | input | we give | RFC 6266 says |", "|---|---|---|---|"]
    for case in CASES:
        opts = [o for o, on in (("rfc2231=True", case.rfc2231),
                                ("decode_plain_filename=True", case.decode_plain_filename)) if on]
        name = case.name + ("<br>" + ", ".join(opts) if opts else "")
        rows.append(f"| {name} | {_cell(case.header)} | {_we_give(case)} | {case.rfc} |")
    return "\n".join(rows) + "\n"


@pytest.mark.one_impl
def test_docs_table_is_current() -> None:
    doc = (Path(__file__).parent.parent / "docs" / "rfc8187.md").read_text(encoding="utf-8")
    assert render_table() in doc, "docs/rfc8187.md: rerun `python tests/test_rfc8187_tc2231.py`"


if __name__ == "__main__":
    sys.stdout.write(render_table())
