"""percent_encoding.idna against Unicode's own UTS #46 conformance file, IdnaTestV2.txt (17.0).

The file is vendored beside this module (``unicode/``, with its license and
provenance).  wpt's IdnaTestV2.json keeps only its nontransitional ToASCII
column; here every line is checked on all three columns it gives:

* toUnicode: ``to_unicode(..., strict=True)`` with CheckHyphens and
  UseSTD3ASCIIRules on fails exactly where the status is not ``[]`` (the 50
  lines whose only status is ``X4_2``, an empty label, included), and otherwise gives the column;
* toAsciiN and toAsciiT: ``to_ascii(..., url_rules=False, be_strict=True)``
  (plain UTS #46 ToASCII with every check on) without and with
  Transitional_Processing.

The file's header says an implementation with every flag on reports an error
exactly where a status is listed; it need not name the same codes.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import pytest

from helpers import data_path
from percent_encoding import idna
from percent_encoding.errors import IDNAError

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]  # no kernel is reached

DATA = data_path("unicode", "IdnaTestV2.txt")


class Line(NamedTuple):
    source: str
    to_unicode: str
    to_unicode_status: str
    to_ascii_n: str
    to_ascii_n_status: str
    to_ascii_t: str
    to_ascii_t_status: str


_ESCAPE = re.compile(r"\\u([0-9A-Fa-f]{4})|\\x\{([0-9A-Fa-f]+)\}")


def _unescape(s: str) -> str:
    return _ESCAPE.sub(lambda m: chr(int(m.group(1) or m.group(2), 16)), s)


def _lines() -> list[Line]:
    # The file's FORMAT section: seven columns; a blank value repeats the column
    # it names, "" is the empty string, a blank status repeats the one before.
    out = []
    for raw in DATA.read_text(encoding="utf-8").splitlines():
        text = raw.split("#", 1)[0]
        if not text.strip():
            continue
        cols = [c.strip() for c in text.split(";")]
        cols += [""] * (7 - len(cols))

        def value(col: str, blank: str) -> str:
            return blank if col == "" else "" if col == '""' else _unescape(col)

        src = value(cols[0], "")
        tu = value(cols[1], src)
        tus = cols[2] or "[]"
        an = value(cols[3], tu)
        ans = cols[4] or tus
        out.append(Line(src, tu, tus, an, ans, value(cols[5], an), cols[6] or ans))
    return out


LINES = _lines()


def test_the_file_is_the_unicode_version_of_the_mapping_table() -> None:
    from percent_encoding.url import _uts46_data

    head = DATA.read_text(encoding="utf-8")[:400]
    assert f"# Version: {_uts46_data.UNICODE_VERSION}" in head
    assert len(LINES) == 6391
    # X4_2 is the only status of 50 lines (an empty label and nothing else wrong)
    assert sum(line.to_unicode_status == "[X4_2]" for line in LINES) == 50
    assert sum(line.to_ascii_t != line.to_ascii_n for line in LINES) == 1589


def _report(bad: list[str]) -> None:
    assert not bad, f"{len(bad)}/{len(LINES)} lines differ:\n" + "\n".join(bad[:20])


def _to_ascii(src: str, transitional: bool) -> str | None:
    try:
        return idna.to_ascii(src, url_rules=False, be_strict=True,
                             transitional_processing=transitional)
    except IDNAError as e:
        assert 0 <= e.position <= len(src)
        return None


@pytest.mark.parametrize("transitional", [False, True], ids=["toAsciiN", "toAsciiT"])
def test_to_ascii(transitional: bool) -> None:
    bad = []
    for line in LINES:
        if transitional:
            want, status = line.to_ascii_t, line.to_ascii_t_status
        else:
            want, status = line.to_ascii_n, line.to_ascii_n_status
        got = _to_ascii(line.source, transitional)
        if got != (want if status == "[]" else None):
            bad.append(f"{line.source!r}: want {want!r} {status}, got {got!r}")
    _report(bad)


def test_to_unicode_strict() -> None:
    bad = []
    for line in LINES:
        try:
            got: str | None = idna.to_unicode(line.source, strict=True, check_hyphens=True,
                                              use_std3_ascii_rules=True)
        except IDNAError as e:
            assert 0 <= e.position <= len(line.source)
            got = None
        want = line.to_unicode if line.to_unicode_status == "[]" else None
        if got != want:
            bad.append(f"{line.source!r}: want {line.to_unicode!r} "
                       f"{line.to_unicode_status}, got {got!r}")
    _report(bad)


def test_transitional_capital_sharp_s() -> None:
    # UTS #46 §4 step 1 since Unicode 15.1: U+1E9E is mapped to U+00DF, but with
    # Transitional_Processing it gives "ss" (U+00DF, a deviation, would then fail).
    assert idna.to_ascii("FA\u1e9e.de", transitional_processing=True) == "fass.de"
    assert idna.to_ascii("FA\u1e9e.DE", transitional_processing=True, url_rules=False) == "fass.de"
    assert idna.to_ascii("FA\u1e9e.de") == "xn--fa-hia.de"


@pytest.mark.parametrize("domain,label,position", [
    ("", 0, 0), (".", 0, 0), ("a..c", 1, 2), ("..xn--skb", 0, 0),
    ("a\u3002\u3002b", 1, 2), ("\u00e4.\u00ad.c", 1, 2),
])
def test_to_unicode_strict_reports_an_empty_label(domain: str, label: int,
                                                  position: int) -> None:
    with pytest.raises(IDNAError) as ei:
        idna.to_unicode(domain, strict=True)
    assert (ei.value.rule, ei.value.label, ei.value.position) == (
        "X4_2 (empty label)", label, position)
    # the root label is not one, and without strict the input comes back as before
    assert idna.to_unicode("a.b.", strict=True) == "a.b."
    assert idna.to_unicode("a..c") == "a..c"
