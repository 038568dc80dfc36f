"""detect.form_conformance: the application/x-www-form-urlencoded ABNF of seed 001 [12]
(the project's reading of HTML 4.01 §17.13.4 with RFC 1738 §2.2 escapes), rule by rule,
against an oracle written straight from the ABNF, and linear on the ambiguous ';'."""

from __future__ import annotations

import dataclasses
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.linear_time import assert_linear
from percent_encoding import detect
from percent_encoding.errors import PercentEncodingTypeError
from percent_encoding.form import serialize

# --- the oracle: the ABNF as regular expressions (fine for short strings) -----------------
# Quoted strings are case-insensitive (RFC 5234 §2.3), so are the hex digits.
_HEXD = "[0-9A-Fa-f]"
# uchar without obs-uchar, and escaped without obs-escaped-code (rules 6 to 9)
_U_VALID = rf"(?:[A-Za-z0-9\-_.,:+]|%0[Dd]%0[Aa]|%(?:0[0-9BCEFbcef]|[1-7]{_HEXD}))"
_F_VALID = f"{_U_VALID}+={_U_VALID}+"  # rules 3 to 5 without obs-name, obs-value
_VALID = re.compile(f"{_F_VALID}(?:&{_F_VALID})*")  # rule 1 without obs-body
# every alternative: obs-uchar (15), obs-escaped-code (10), obs-name/-value (13, 14)
_U_ANY = rf"(?:[A-Za-z0-9\-_.,:+';()$@*!]|%{_HEXD}{{2}})"
_F_ANY = f"{_U_ANY}*={_U_ANY}*"
_ANY = re.compile(f"{_F_ANY}(?:[&;]{_F_ANY})*|(?:[&;]{_F_ANY})*[&;]?")  # rules 1, 2, 11, 12


def oracle(body: str) -> str:
    if _VALID.fullmatch(body):
        return "valid"
    return "obsolete" if _ANY.fullmatch(body) else "invalid"


def judged(body: str) -> tuple[str, list[tuple[str, int, int]]]:
    r = detect.form_conformance(body)
    return r.level, [(f.code, f.start, f.end) for f in r.findings]


# --- each rule and each alternative ----------------------------------------------------


@pytest.mark.parametrize("body,level,want", [
    # rule 1, first alternative; rule 3 field; rules 4, 5 as 1*uchar
    ("a=b", "valid", []),
    ("a=b&c=d&e=f", "valid", []),
    # rule 6: every plain uchar; rule 7 joint
    ("azAZ09-_.,:=+x+", "valid", []),
    # rule 8: "%0D%0A" as a pair, in either case (RFC 5234 §2.3)
    ("a=x%0D%0Ay", "valid", []), ("a=%0d%0a", "valid", []), ("a=%0D%0a", "valid", []),
    # rule 9: "0" then 0-9 B C E F, and 1-7 then any hex digit; lower case too
    ("a=%00%09%0B%0C%0E%0F%0b%0f", "valid", []),
    ("a=%10%1F%20%2B%3D%41%7E%7F%7f%2b", "valid", []),
    # rule 10: obs-escaped-code for the rest: bytes above 7F (a run is one finding)...
    ("a=%80", "obsolete", [("obs-escaped-code", 2, 5)]),
    ("a=%C3%A9x%ff", "obsolete", [("obs-escaped-code", 2, 8), ("obs-escaped-code", 9, 12)]),
    # ... and %0A or %0D that is not the pair
    ("a=%0A", "obsolete", [("obs-escaped-code", 2, 5)]),
    ("a=%0D", "obsolete", [("obs-escaped-code", 2, 5)]),
    ("a=%0a%0d", "obsolete", [("obs-escaped-code", 2, 5), ("obs-escaped-code", 5, 8)]),
    ("a=%0D%0D%0A", "obsolete", [("obs-escaped-code", 2, 5)]),  # the second %0D pairs
    ("a=%0D%0A%0A", "obsolete", [("obs-escaped-code", 8, 11)]),
    # rule 11: ';' as obs-separator (the ';' just before the next name)
    ("a=1;b=2", "obsolete", [("obs-separator", 3, 4)]),
    ("a=1;x;b=2", "obsolete", [("obs-uchar", 3, 4), ("obs-separator", 5, 6)]),
    ("a=1&b=2;c=3", "obsolete", [("obs-separator", 7, 8)]),
    # rule 12: obs-body: a leading separator, a trailing one after it, nothing at all
    ("&a=b", "obsolete", [("obs-body", 0, 1)]),
    ("&a=b&", "obsolete", [("obs-body", 0, 1), ("obs-body", 4, 5)]),
    (";a=b&", "obsolete", [("obs-body", 0, 1), ("obs-separator", 0, 1), ("obs-body", 4, 5)]),
    ("", "obsolete", [("obs-body", 0, 0)]),
    ("&", "obsolete", [("obs-body", 0, 1)]),
    (";", "obsolete", [("obs-body", 0, 1), ("obs-separator", 0, 1)]),
    # rules 13, 14: empty name, empty value
    ("=b", "obsolete", [("obs-name", 0, 0)]),
    ("a=", "obsolete", [("obs-value", 2, 2)]),
    ("=", "obsolete", [("obs-name", 0, 0), ("obs-value", 1, 1)]),
    ("a=&=b", "obsolete", [("obs-value", 2, 2), ("obs-name", 3, 3)]),
    # rule 15: obs-uchar, a run at a time; ';' inside a value or name is one
    ("a='()$@*!", "obsolete", [("obs-uchar", 2, 9)]),
    ("t=10;20", "obsolete", [("obs-uchar", 4, 5)]),
    (";a=b", "obsolete", [("obs-uchar", 0, 1)]),
    ("a=b;", "obsolete", [("obs-uchar", 3, 4)]),
    # outside the grammar
    ("a=~'()$@*!,:", "invalid", [("raw-character", 2, 3), ("obs-uchar", 3, 10)]),
    ("a=b c", "invalid", [("raw-character", 3, 4)]),
    ("a=caf\u00e9", "invalid", [("raw-character", 5, 6)]),
    ("a=/?#[]", "invalid", [("raw-character", i, i + 1) for i in range(2, 7)]),
    ("a=%zz", "invalid", [("invalid-percent", 2, 3)]),
    ("a=100%", "invalid", [("invalid-percent", 5, 6)]),
    ("a=%4", "invalid", [("invalid-percent", 2, 3)]),
    ("a=b=c", "invalid", [("raw-equals", 3, 4)]),
    ("a", "invalid", [("missing-equals", 0, 1)]),
    ("a=1&b", "invalid", [("missing-equals", 4, 5)]),
    (";;", "invalid", [("missing-equals", 0, 2), ("obs-uchar", 0, 2)]),
    ("a=1&&b=2", "invalid", [("empty-field", 4, 4)]),
    ("&&", "invalid", [("obs-body", 0, 1), ("empty-field", 1, 1), ("obs-body", 1, 2)]),
    # the letter of rule 12: a trailing separator needs a leading one
    ("a=b&", "invalid", [("trailing-separator", 3, 4)]),
    ("a=b;&", "invalid", [("obs-uchar", 3, 4), ("trailing-separator", 4, 5)]),
    (";&a=b&", "invalid", [("obs-body", 0, 1), ("obs-separator", 0, 1),
                           ("empty-field", 1, 1), ("obs-body", 5, 6)]),
])
def test_rules(body: str, level: str, want: list[tuple[str, int, int]]) -> None:
    assert judged(body) == (level, want)
    assert oracle(body) == level


def test_issue_examples_through_diagnose() -> None:
    # diagnose(context="form") follows the grammar too (issue 43 item 13)
    got = [(f.code, f.start, f.end) for f in detect.diagnose("a=~'()$@*!,:", context="form")]
    assert got == [("raw-character", 2, 3), ("obs-uchar", 3, 10)]
    assert [f.code for f in detect.diagnose("a=%FF", context="form")] == ["obs-escaped-code"]
    assert detect.diagnose("a=%41", context="form") == []
    # (a query keeps the RFC 3986 view: %41 needlessly encodes 'A', %FF is not UTF-8)
    assert [f.code for f in detect.diagnose("a=%41%FF")] == ["encoded-unreserved",
                                                            "invalid-utf8"]


def test_messages_say_the_rule_and_utf8() -> None:
    (f,) = detect.form_conformance("a=%C3%A9").findings
    assert "rules 9, 10" in f.message and "decode as UTF-8" in f.message
    (f,) = detect.form_conformance("a=%E9").findings
    assert "do not decode as UTF-8" in f.message
    (f,) = detect.form_conformance("a=b&").findings
    assert "obs-body" in f.message and f.fix == "drop the trailing '&'"
    (f,) = detect.form_conformance("a= ").findings
    assert f.fix == "+"
    (f,) = detect.form_conformance("a=\ud800").findings
    assert f.fix == "%EF%BF%BD"
    assert [f.fix for f in detect.form_conformance("abc&" + "x" * 50).findings] == [
        "abc=", "add '=' and a value"]


def test_result_is_frozen_and_typed() -> None:
    r = detect.form_conformance("a=b")
    assert isinstance(r, detect.FormConformance) and r.findings == ()
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.level = "invalid"  # type: ignore[misc]
    assert all(isinstance(f, detect.Finding) for f in detect.form_conformance("=").findings)
    with pytest.raises(PercentEncodingTypeError):
        detect.form_conformance(b"a=b")  # type: ignore[arg-type]


# --- against the oracle -------------------------------------------------------------

_PIECES = ["a", "Z", "0", "=", "&", ";", "*", "~", " ", "%", "%0D", "%0d", "%0A", "%0a",
           "%41", "%0B", "%7f", "%80", "%FF", "%C3%A9", "+", ",", ".", "é"]


@pytest.mark.one_impl  # the grammar is pure Python on both twins
@settings(max_examples=800)
@given(st.lists(st.sampled_from(_PIECES), max_size=9).map("".join))
def test_level_is_the_oracles(body: str) -> None:
    level, found = judged(body)
    assert level == oracle(body), (body, found)
    # findings are in order and inside the body
    assert found == sorted(found, key=lambda f: (f[1], f[2]))
    assert all(0 <= a <= b <= len(body) for _, a, b in found)


_NAME_CHAR = st.sampled_from([*"azAZ09-_.,:+", "%0D%0A", "%0d%0a", "%00", "%0b", "%1F",
                              "%20", "%7e", "%3D"])
_VALID_FIELD = st.tuples(st.lists(_NAME_CHAR, min_size=1, max_size=5),
                         st.lists(_NAME_CHAR, min_size=1, max_size=5)).map(
    lambda nv: "".join(nv[0]) + "=" + "".join(nv[1]))


@pytest.mark.one_impl
@settings(max_examples=200)
@given(st.lists(_VALID_FIELD, min_size=1, max_size=5).map("&".join))
def test_generated_valid_bodies_are_valid(body: str) -> None:
    assert judged(body) == ("valid", [])


_ALNUM = st.text(alphabet="abcxyzABCXYZ0123456789", max_size=6)


@settings(max_examples=300)
@given(st.lists(st.tuples(_ALNUM, _ALNUM), max_size=6))
def test_the_url_standard_serializer_writes_no_invalid_body(
    pairs: list[tuple[str, str]],
) -> None:
    # URL Standard §5.2 from ASCII alphanumeric names and values: valid, or obsolete for
    # an empty name, value or list
    body = serialize(pairs)
    level = detect.form_conformance(body).level
    assert level != "invalid", body
    if pairs and all(n and v for n, v in pairs):
        assert level == "valid", body


@settings(max_examples=300)
@given(st.lists(st.tuples(st.text(max_size=6), st.text(max_size=6)), max_size=4))
def test_the_serializer_writes_no_invalid_body_from_any_text(
    pairs: list[tuple[str, str]],
) -> None:
    # any text: the serializer escapes everything outside *-._ and ASCII alphanumerics
    assert detect.form_conformance(serialize(pairs)).level != "invalid"


# --- linear time on the ambiguous ';' ----------------------------------------------------


@pytest.mark.one_impl
@pytest.mark.parametrize("body,level", [
    (";" * 100_000, "invalid"),
    ("=;" * 50_000, "obsolete"),
    ("a=" + ";b=" * 30_000, "obsolete"),
    ("a=" + "%0D" * 30_000 + "%0A", "obsolete"),
    ("a=" + "=" * 100_000, "invalid"),
    ("&" * 100_000, "invalid"),
])
def test_adversarial_bodies_finish(body: str, level: str) -> None:
    assert detect.form_conformance(body).level == level


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.one_impl
@pytest.mark.parametrize("unit", [";", "=;", ";b=", "a;", "%0D", "&", "=", "%FF;", "~"])
def test_form_conformance_is_linear(unit: str) -> None:
    assert_linear(detect.form_conformance, lambda n: "a=" + unit * n, label=repr(unit))
    assert_linear(lambda s: detect.diagnose(s, context="form"), lambda n: "a=" + unit * n,
                  label=f"diagnose {unit!r}")
