"""percent_encoding._abnf: each shared grammar rule equals its ABNF, and no module keeps a copy."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from percent_encoding import _abnf as A

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]

SRC = Path(__file__).resolve().parents[1] / "src" / "percent_encoding"


def _chars(lo: str, hi: str) -> set[str]:
    return {chr(c) for c in range(ord(lo), ord(hi) + 1)}


def test_core_rules_are_rfc5234() -> None:
    assert set(A.ALPHA) == _chars("A", "Z") | _chars("a", "z") and len(A.ALPHA) == 52
    assert set(A.DIGIT) == _chars("0", "9") and len(A.DIGIT) == 10
    assert set(A.HEXDIG) == set(A.DIGIT) | _chars("A", "F") | _chars("a", "f")
    assert len(A.HEXDIG) == 22


def test_rfc3986_character_classes() -> None:
    assert set(A.UNRESERVED) == set(A.ALPHA) | set(A.DIGIT) | set("-._~")
    assert len(A.UNRESERVED) == 66
    assert set(A.GEN_DELIMS) == set(":/?#[]@")
    assert set(A.SUB_DELIMS) == set("!$&'()*+,;=")
    assert set(A.RESERVED) == set(A.GEN_DELIMS) | set(A.SUB_DELIMS)
    assert not set(A.RESERVED) & set(A.UNRESERVED)


def test_bad_percent_finds_only_percents_that_start_no_triplet() -> None:
    text = "%41%4%zz%%2F%"
    assert [m.start() for m in A.BAD_PERCENT.finditer(text)] == [3, 5, 8, 12]
    assert [m.start() for m in A.BAD_PERCENT_BYTES.finditer(text.encode())] == [3, 5, 8, 12]
    assert A.BAD_PERCENT.search("%aF%Fa%00") is None
    # not Unicode digits: only ASCII hex makes a triplet
    assert A.BAD_PERCENT.search("%\u0661\u0662") is not None


def test_pct_encoded_and_runs() -> None:
    assert [m.group() for m in A.PCT_ENCODED.finditer("%41%4%zz%aF%%2f")] == ["%41", "%aF", "%2f"]
    assert [m.group() for m in A.PCT_ENCODED_RUN.finditer("a%C3%A9%2%41%42b")] == [
        "%C3%A9", "%41%42"
    ]


def test_lone_surrogate_is_the_surrogate_block() -> None:
    assert A.LONE_SURROGATE.search("a\ud800") is not None
    assert A.LONE_SURROGATE.search("\udfff") is not None
    assert A.LONE_SURROGATE.search("\ud7ff\ue000\U0001f600") is None


def test_http_token_and_ows() -> None:
    tchar = set("!#$%&'*+-.^_`|~") | set(A.ALPHA) | set(A.DIGIT)
    assert set(A.TCHAR) == tchar
    for c in map(chr, range(0x100)):
        assert bool(A.TOKEN.fullmatch(c)) == (c in tchar), repr(c)
    assert A.OWS.match(" \t \tx").end() == 4  # type: ignore[union-attr]
    assert A.OWS.match("\r\n").end() == 0  # type: ignore[union-attr]


def test_quoted_string() -> None:
    m = A.QUOTED_STRING.match('"a\\"b\\\\" rest')
    assert m is not None and m.group(1) == 'a\\"b\\\\' and m.end() == 8
    assert A.QUOTED_STRING.match('"unterminated\\"') is None
    assert A.QUOTED_PAIR.sub(r"\1", 'a\\"b') == 'a"b'


# The spellings that used to be copied from module to module.
COPIES = {
    "bad percent": re.compile(r"%\(\?!\[0-9A-Fa-f\]\{2\}\)"),
    "lone surrogate": re.compile(r"""re\.compile\(["']\[\\ud800-\\udfff\]["']\)"""),
    "unreserved": re.compile(r"0123456789-\._~"),
    "http token": re.compile(r"\[!#\$%&'\*\+\\-\.\^_`\|~0-9A-Za-z\]"),
    "ows": re.compile(r"\[ \\t\]\*"),
    "pct-encoded": re.compile(r"""["']%\[0-9A-Fa-f\]\{2\}["']"""),
    "pct-encoded run": re.compile(r"\(\?:%\[0-9A-Fa-f\]\{2\}\)\+"),
}
ALLOWED: set[tuple[str, str]] = set()


def test_no_module_keeps_its_own_copy() -> None:
    found = []
    for path in sorted(SRC.rglob("*.py")):
        if path.name == "_abnf.py":
            continue
        text = path.read_text(encoding="utf-8")
        for rule, pattern in COPIES.items():
            if pattern.search(text) and (rule, path.name) not in ALLOWED:
                found.append(f"{path.relative_to(SRC)}: {rule}")
    assert found == [], "import these from percent_encoding._abnf instead"


def test_scheme_and_ip_literal() -> None:
    for ok in ("http", "a", "svn+ssh", "z39.50r", "A-1"):
        assert A.SCHEME.fullmatch(ok), ok
    for bad in ("", "1a", "+a", "a b", "é"):
        assert not A.SCHEME.fullmatch(bad), bad
    for ok in ("::", "::1", "1:2:3:4:5:6:7:8", "::ffff:192.0.2.1", "1::8", "fe80::1%25eth0",
               "fe80::1%25%41", "v1.x", "V7.a:b!$", "1:2:3:4:5:6:1.2.3.4"):
        assert A.IP_LITERAL_BODY.fullmatch(ok), ok
    for bad in ("", ":", "1:2:3:4:5:6:7:8:9", "::1.2.3.256", "fe80::1%eth0", "fe80::1%25",
                "v1.", "v.x", "1.2.3.4", "::g", "1::2::3", "[::1]"):
        assert not A.IP_LITERAL_BODY.fullmatch(bad), bad
