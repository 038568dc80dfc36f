"""percent_encoding.url._nfc: NFC at the UTS #46 table's Unicode version (17), on every Python.

The primary composites Unicode added after the oldest Python this library
supports (3.10, Unicode 13.0) are the strings whose NFC a Python's own
``unicodedata`` can get wrong; each is checked here, with no extra package.
With ``unicodedata2`` of the table's version installed (``pip install
'.[tables]'``), the generated data is also compared with a fresh run of
``tools/gen_nfc.py`` and the normalization with ``unicodedata2``'s.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers import ROOT
from percent_encoding import idna
from percent_encoding import url as U
from percent_encoding.url import _nfc, _nfc_data, _uts46_data

# (composite, its canonical decomposition): the primary composites of Unicode 14.0-17.0
# (Todhri, Tulu-Tigalari, Gurung Khema, Kirat Rai; all from 16.0).
NEWER_COMPOSITES = [
    (0x105C9, 0x105D2, 0x0307), (0x105E4, 0x105DA, 0x0307),
    (0x11383, 0x11382, 0x113C9), (0x11385, 0x11384, 0x113BB), (0x1138E, 0x1138B, 0x113C2),
    (0x11391, 0x11390, 0x113C9), (0x113C5, 0x113C2, 0x113C2), (0x113C7, 0x113C2, 0x113B8),
    (0x113C8, 0x113C2, 0x113C9),
    (0x16121, 0x1611E, 0x1611E), (0x16122, 0x1611E, 0x16129), (0x16123, 0x1611E, 0x1611F),
    (0x16124, 0x16129, 0x1611F), (0x16125, 0x1611E, 0x16120), (0x16126, 0x16121, 0x1611F),
    (0x16127, 0x16122, 0x1611F), (0x16128, 0x16121, 0x16120),
    (0x16D68, 0x16D67, 0x16D67), (0x16D69, 0x16D63, 0x16D67), (0x16D6A, 0x16D69, 0x16D67),
]


def test_the_data_is_the_mapping_tables_version() -> None:
    assert _nfc_data.UNICODE_VERSION == _nfc.UNICODE_VERSION == _uts46_data.UNICODE_VERSION
    # every composite above is a primary composite of the data, with that decomposition
    for comp, a, b in NEWER_COMPOSITES:
        assert comp in _nfc_data.PRIMARY_COMPOSITES
        assert _nfc_data.DECOMPOSITION[comp] == (a, b)


@pytest.mark.one_impl
@pytest.mark.no_kernels
@pytest.mark.parametrize("comp,a,b", NEWER_COMPOSITES)
def test_newer_composites_compose_on_every_python(comp: int, a: int, b: int) -> None:
    pair, one = chr(a) + chr(b), chr(comp)
    assert _nfc.nfc(pair) == one and _nfc.nfc(one) == one
    assert _nfc.nfc("x" + pair + "\u0301y") == "x" + one + "\u0301y"
    assert not _nfc.is_nfc(pair) and _nfc.is_nfc(one)


def test_to_ascii_and_url_hosts_take_the_composite() -> None:
    # the case: U+105D2 U+0307 is U+105C9 in NFC (Unicode 16.0)
    assert idna.to_ascii("\U000105D2\u0307") == idna.to_ascii("\U000105C9") == "xn--ev8c"
    assert idna.to_unicode("xn--rsa5163k") == "xn--rsa5163k"  # decodes to a non-NFC label
    assert U.parse("http://\U000105D2\u0307/").host == "xn--ev8c"
    assert U.parse("http://a.\U000105D2\u0307.b/").host == "a.xn--ev8c.b"
    # the xn-- form of the decomposed label fails the strict run (criterion 1: NFC)
    assert [e.name for e in U.parse("http://xn--rsa5163k/").validation_errors] == [
        "domain-to-ASCII"]
    assert U.parse("http://xn--ev8c/").validation_errors == ()


def _known_involved() -> list[str]:
    t = _nfc._tables()
    cps = set(t.ccc) | set(t.decomposition) | {c for pair in t.compose for c in pair}
    return sorted(chr(c) for c in cps if unicodedata.category(chr(c)) != "Cn")


KNOWN = _known_involved()


@pytest.mark.one_impl
@pytest.mark.no_kernels
@given(st.lists(st.sampled_from([*KNOWN, "a", "\u1100", "\u1161", "\u11a8", "\uac00"]),
                max_size=8))
def test_the_algorithm_agrees_with_unicodedata_where_it_knows(chars: list[str]) -> None:
    # Characters this Python knows normalize alike in every version (Unicode's
    # stability policy): the decomposition, ordering and composition here must
    # give unicodedata's result on them.
    s = "".join(chars)
    assert _nfc._nfc_here(s, _nfc._tables()) == unicodedata.normalize("NFC", s)


def _unicodedata2() -> object:
    if importlib.util.find_spec("unicodedata2") is None:
        pytest.skip("unicodedata2 is needed (pip install '.[tables]')")
    import unicodedata2

    if unicodedata2.unidata_version != _nfc_data.UNICODE_VERSION:
        pytest.skip(f"unicodedata2 is not Unicode {_nfc_data.UNICODE_VERSION}")
    return unicodedata2


@pytest.mark.one_impl
@pytest.mark.no_kernels
def test_generated_data_is_current() -> None:
    _unicodedata2()
    r = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_nfc.py"), "--check"])
    assert r.returncode == 0, "run tools/gen_nfc.py"


@pytest.mark.one_impl
@pytest.mark.no_kernels
@given(st.lists(st.sampled_from(sorted(
    {chr(c) for c in _nfc._tables().ccc} | {chr(c) for c in _nfc._tables().decomposition}
    | {chr(c) for pair in _nfc._tables().compose for c in pair} | set("a\u1100\u1161\u11a8"))),
    max_size=8))
def test_nfc_is_unicodedata2s(chars: list[str]) -> None:
    ud2 = _unicodedata2()
    s = "".join(chars)
    want = ud2.normalize("NFC", s)  # type: ignore[attr-defined]
    assert _nfc.nfc(s) == want
    assert _nfc.is_nfc(s) == (want == s)


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.one_impl
@pytest.mark.no_kernels
@pytest.mark.parametrize("piece", [
    "\U000105D2\u0307",  # composes
    "\U000105D2" + "\u0315\u0300\u0316\u0301" * 3,  # marks to reorder after a newer starter
    "\U00016D67" * 3,  # a chain of compositions
])
def test_newer_text_normalizes_in_linear_time(piece: str) -> None:
    from helpers.linear_time import assert_linear

    assert_linear(_nfc.nfc, lambda n: piece * n, label=f"nfc({piece!r} * n)", n0=1000)
    assert_linear(_nfc.is_nfc, lambda n: piece * n, label=f"is_nfc({piece!r} * n)", n0=1000)
