"""The C host parser's xn-- labels (``src/csrc/url_idna.c``) against the Python twin.

An ASCII host is only lower-cased by domain to ASCII (URL Standard §3.3); its
``xn--`` labels decide, through UTS #46 ToASCII with beStrict (Punycode,
validity criteria, ContextJ, Bidi), whether the host gets the domain-to-ASCII
validation error.  The C twin does that without the Python host hook: these
tests count the hook's calls, compare every wpt host and random Punycode
labels with the state machine, and keep the generated tables honest.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import re
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import data_path
from helpers.twins import C_URL as C
from percent_encoding import url as U
from percent_encoding.errors import URLParseError
from percent_encoding.url import _idna as _idna
from percent_encoding.url._parser import Failure, basic_parse, serialize

ROOT = Path(__file__).resolve().parents[1]
HEADER = ROOT / "src" / "csrc" / "_idna_tables.h"

pytestmark = pytest.mark.one_impl
needs_c = pytest.mark.skipif(C is None, reason="the C twin is not built")


def _gen() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "gen_idna_tables", ROOT / "tools" / "gen_idna_tables.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


# -- the generated header ------------------------------------------------------


def test_idna_tables_header_is_current() -> None:
    gen = _gen()
    text = HEADER.read_text(encoding="utf-8")
    block = gen.nfc_block(text)
    if f'IDNA_NFC_UNIDATA "{unicodedata.unidata_version}"' in block:
        assert text == gen.render(), "run python tools/gen_idna_tables.py"
    else:
        # Made on a Python with another Unicode: everything but the NFC block is
        # regenerated here (the block itself is checked for soundness below).
        assert text == gen.render(nfc=block), "run python tools/gen_idna_tables.py"


def _sound_for_the_mapping_tables_unicode(gen: ModuleType, classes: bytes) -> None:
    # ... and for Unicode 17, the version the pure twin's NFC follows (url/_nfc.py):
    # the same class, neither NFC_Quick_Check=No (a decomposition that is not a
    # primary composite) nor Maybe (the second part of one, or a Hangul V or T jamo).
    from percent_encoding.url import _nfc

    t = _nfc._tables()
    maybe = {b for _, b in t.compose} | set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))
    composites = set(t.compose.values())
    no = {cp for cp in t.decomposition if cp not in composites}
    bad = [cp for cp, ccc in enumerate(classes) if ccc != gen.UNKNOWN and (
        t.ccc.get(cp, 0) != ccc or cp in maybe or cp in no)]
    assert bad == []
    assert len(maybe) > 100 and len(no) > 1000


def test_nfc_block_is_sound_on_this_python() -> None:
    # Every code point the C twin's NFC quick check may pass is, for this
    # Python's unicodedata, unassigned, or of that combining class with
    # NFC_Quick_Check=Yes: where the check says yes, the label is NFC here.
    gen = _gen()
    classes = gen.two_stage_values(HEADER.read_text(encoding="utf-8"), "IDNA_NFC")
    assert len(classes) == 0x110000
    maybe = gen.nfc_maybe()
    bad = []
    for cp, ccc in enumerate(classes):
        if ccc == gen.UNKNOWN:
            continue
        ch = chr(cp)
        if unicodedata.category(ch) == "Cn":
            continue
        if unicodedata.combining(ch) != ccc or unicodedata.normalize("NFC", ch) != ch or (
                cp in maybe):
            bad.append(cp)
    assert bad == []
    _sound_for_the_mapping_tables_unicode(gen, classes)
    # the known Quick_Check No and Maybe ones are left to Python, marks keep their class
    for cp in (0x0301, 0x1161, 0x212B, 0x0340, 0xF900, 0x0958, 0x10FFFF):
        assert classes[cp] == gen.UNKNOWN, hex(cp)
    assert [classes[cp] for cp in (0x61, 0xE9, 0x4E00, 0xAC00, 0x094D, 0x064B, 0x0E38)] == [
        0, 0, 0, 0, 9, 27, 103]


def test_property_table_is_the_pure_twins_data() -> None:
    # valid/deviation status, Mark and Bidi_Class, for every code point of the
    # BMP and a sample of the rest, as _idna reads them from _uts46_data
    prop = _gen().two_stage_values(HEADER.read_text(encoding="utf-8"), "IDNA_PROP")
    names = _idna._tables().BIDI_NAMES
    for cp in [*range(0x10000), *range(0x10000, 0x110000, 97), 0x10FFFF, 0xE0100, 0x1F4A9]:
        p = prop[cp]
        assert bool(p & 1) == (_idna._status(cp)[0] in "VD"), hex(cp)
        assert bool(p & 2) == _idna._is_mark(cp), hex(cp)
        assert names[p >> 2] == _idna._bidi(cp), hex(cp)


# -- counting the host hook ------------------------------------------------------


@contextlib.contextmanager
def _setup(host: Callable[[str], Any], *nfc: Callable[[str], bool]) -> Iterator[None]:
    """The C parser set up with this host hook (and NFC check, if given), then as
    the package sets it up again."""
    assert C is not None
    C.url_setup(U.URL, U.ValidationError, host, URLParseError, *nfc)
    try:
        yield
    finally:
        C.url_setup(U.URL, U.ValidationError, U._c_host_hook, URLParseError, _idna.is_nfc)


def _counted(calls: list[str]) -> Callable[[str], Any]:
    def counted(text: str) -> Any:
        calls.append(text)
        return U._c_host(text)

    return counted


@pytest.fixture
def hook_calls() -> Iterator[list[str]]:
    """The C parser's host hook, counted: the hosts it was given."""
    calls: list[str] = []
    with _setup(_counted(calls), _idna.is_nfc):
        yield calls


def _reference(s: str) -> tuple[str, list[tuple[str, int]]] | tuple[str, int]:
    errs: list[tuple[str, int]] = []
    try:
        rec = basic_parse(s, errors=errs)
    except Failure as e:
        return e.name, e.position
    return serialize(rec), errs


def _same(s: str) -> None:
    """C (raising on failure) agrees with the state machine on s."""
    ref = _reference(s)
    try:
        u = C.url_parse(s, None, True)
    except URLParseError as e:
        assert (e.name, e.position) == ref, s
        return
    assert u is not None, s
    assert (u.href, [tuple(e) for e in u.validation_errors]) == ref, s


def _needs_no_hook(host: str) -> bool:
    # ASCII after percent-decoding (no "%" at all, to be sure)
    return host.isascii() and "%" not in host


def _hosts(name: str) -> list[str]:
    data = json.loads(data_path("wpt", name).read_text(encoding="utf-8"))
    return [str(c["input"]) for c in data if isinstance(c, dict)]


@needs_c
@pytest.mark.parametrize("name", ["toascii.json", "IdnaTestV2.json"])
def test_wpt_idna_hosts_equal_the_state_machine(name: str, hook_calls: list[str]) -> None:
    hosts = _hosts(name)
    xn = 0
    for h in hosts:
        for s in (f"http://{h}/", f"http://{h.upper()}/", f"https://a.{h}./"):
            before = len(hook_calls)
            _same(s)
            if _needs_no_hook(h):
                assert len(hook_calls) == before, s
                xn += "xn--" in h.lower()
    assert xn > (10 if name == "toascii.json" else 300)


@needs_c
def test_wpt_urltestdata_hosts_equal_the_state_machine(hook_calls: list[str]) -> None:
    data = json.loads(data_path("wpt", "urltestdata.json").read_text(encoding="utf-8"))
    hosts = {str(d["hostname"]) for d in data if isinstance(d, dict) and d.get("hostname")}
    hosts |= {"xn--" + h for h in hosts if not h.startswith("[")}
    for h in sorted(hosts):
        before = len(hook_calls)
        _same(f"http://{h}/")
        if _needs_no_hook(h):
            assert len(hook_calls) == before, h


@needs_c
def test_the_hook_still_serves_non_ascii_hosts(hook_calls: list[str]) -> None:
    # the counter is real: a non-ASCII host does reach it
    _same("http://b\u00fccher.example/")
    assert hook_calls == ["b\u00fccher.example"]


_CASES = [
    # valid: Latin, Greek, CJK, emoji, RTL (Arabic, Hebrew), Devanagari with virama
    "xn--bcher-kva.example", "xn--nxasmq6b.example", "xn--fiqs8s", "xn--ls8h.la",
    "xn--mgbh0a.com", "xn--4dbrk0ce", "xn--11b5bs3a9aj6g", "xn--zca.xn--zca",
    # invalid Punycode, overflow, ASCII or empty results, bad decoded labels
    "xn--a.com", "xn--", "xn--0.com", "xn--99999999999a", "xn--abc-", "xn--a-", "xn---",
    "xn--zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz", "xn--1ug.example", "xn--a-yoc", "xn--zn7c.com",
    "xn--ssa", "xn--tda", "xn--53h", "xn--ls8h=", "xn--a.1", "xn--zca.1.2.3",
    "xn--mgbh0a.1com", "xn--mgbh0a.xn--zca", "xn--0ca.com", "a.xn--", "xn--zca.",
    "XN--ZCA.COM", "Xn--zCa", "xn--zca..com", "xn--zca.-a", "ab--c.xn--zca",
    # decoded with hyphens at 3-4, first or last; a combining mark first
    "xn--ab---3oa", "xn----6fa", "xn----5fa", "xn--ksa", "xn--a-wbb", "xn--a-ecp.com",
    # ZWNJ and ZWJ alone and after a virama
    "xn--0ug", "xn--1ug", "xn--a-1xd385o", "xn--11b6iy14e", "xn--ab-j1t",
    # between dual-joining letters (a transparent mark skipped): ZWNJ may, ZWJ may not
    "xn--ngba799q", "xn--ngba8ho06i", "xn--ngba000r",
    # NFC: a base and a combining acute (not NFC), and a precomposed letter (NFC)
    "xn--e-xbb", "xn--9ca",
    # Hebrew points of classes 10 and 11 in canonical order (NFC) and not
    "xn--7cbc5g", "xn--7cbb6g",
    # forbidden domain code points next to an xn-- label
    "xn--zca.a%20b", "xn--zca.a<b", "xn--zca%2ecom",
]


@needs_c
@pytest.mark.parametrize("host", _CASES)
def test_xn_hosts_stay_in_c(host: str, hook_calls: list[str]) -> None:
    _same(f"http://{host}/")
    _same(f"ws://user@{host}:81/p?q#f")
    if host.isascii() and "%" not in host:
        assert hook_calls == []


@needs_c
def test_the_nfc_quick_check_settles_most_labels_in_c() -> None:
    # Python's NFC check runs only where the quick check cannot say yes: a
    # Quick_Check=Maybe mark (U+0301) or marks out of canonical order.
    asked: list[str] = []

    def nfc(label: str) -> bool:
        asked.append(label)
        return _idna.is_nfc(label)

    with _setup(U._c_host, nfc):
        for h in ("xn--11b5bs3a9aj6g", "xn--ngba8ho06i", "xn--7cbc5g", "xn--e1afmkfd.xn--p1ai",
                  "xn--7cbb6g", "xn--e-xbb"):
            _same(f"http://{h}/")
    assert asked == ["\u05d0\u05b1\u05b0", "e\u0301"]
    assert [tuple(e) for e in U.parse("http://xn--7cbb6g/").validation_errors] == [
        ("domain-to-ASCII", 7)]


@needs_c
def test_long_xn_hosts_are_linear_and_stay_in_c(hook_calls: list[str]) -> None:
    # far past the DNS lengths: the strict run fails without decoding anything
    for h in ("xn--" + "a" * 100_000, ("xn--zca." * 20_000) + "com",
              "xn--" + "9" * 5000 + ".com"):
        _same(f"http://{h}/")
    assert hook_calls == []


@needs_c
def test_without_nfc_check_the_hook_decides() -> None:
    # url_setup without nfc_check (an older caller): labels that are not
    # NFC-inert go to the hook, with the same answers.
    calls: list[str] = []
    with _setup(_counted(calls)):
        _same("http://xn--e-xbb/")  # e + U+0301
        _same("http://xn--bcher-kva.example/")  # all inert
    assert calls == ["xn--e-xbb"]


# -- random Punycode labels ----------------------------------------------------

_RANGES = [
    (0x61, 0x7A), (0x30, 0x39), (0x2D, 0x2D), (0xC0, 0x24F), (0x300, 0x36F), (0x370, 0x3FF),
    (0x400, 0x4FF), (0x591, 0x5F4), (0x600, 0x6FF), (0x660, 0x669), (0x6F0, 0x6F9),
    (0x900, 0x97F), (0xE00, 0xE7F), (0x1100, 0x11FF), (0x200C, 0x200D), (0x3000, 0x303F),
    (0x4E00, 0x4E20), (0xAC00, 0xAC10), (0xFB1D, 0xFB4F), (0xFE00, 0xFE0F), (0x1F300, 0x1F64F),
    (0x10FFF0, 0x10FFFF), (0xD800, 0xDFFF), (0x80, 0x10FFFF),
]


@st.composite
def _labels(draw: st.DrawFn) -> str:
    n = draw(st.integers(1, 8))
    cps = []
    for _ in range(n):
        lo, hi = draw(st.sampled_from(_RANGES))
        cps.append(draw(st.integers(lo, hi)))
    return "".join(map(chr, cps))


@st.composite
def _xn_label(draw: st.DrawFn) -> str:
    raw = draw(_labels())
    if draw(st.integers(0, 9)) == 0:
        raw = unicodedata.normalize("NFD", raw)
    enc = "xn--" + _idna.punycode_encode(raw)
    how = draw(st.integers(0, 9))
    if how == 0:  # break it: a character in, out or changed
        i = draw(st.integers(0, len(enc)))
        enc = enc[:i] + draw(st.sampled_from("a9z-_.0A")) + enc[i + 1:]
    elif how == 1:
        enc = enc.upper()
    elif how == 2:
        enc = "xn--" + draw(st.text("abcdefghijklmnopqrstuvwxyz0123456789-", max_size=12))
    return enc


_PLAIN = st.sampled_from(["com", "a", "1a", "a1", "ab--c", "a-", "-a", "", "a_b", "0x1", "9",
                          "x" * 63, "x" * 64, "localhost", "ex-ample"])


@needs_c
@settings(max_examples=2000, deadline=None)
@given(st.lists(st.one_of(_xn_label(), _PLAIN), min_size=1, max_size=4),
       st.sampled_from(["", "", "."]))
def test_random_xn_hosts_equal_the_state_machine(labels: list[str], dot: str) -> None:
    host = ".".join(labels) + dot
    calls: list[str] = []

    def counted(text: str) -> Any:
        calls.append(text)
        return U._c_host(text)

    C.url_setup(U.URL, U.ValidationError, counted, URLParseError, _idna.is_nfc)
    try:
        _same(f"http://{host}/")
    finally:
        C.url_setup(U.URL, U.ValidationError, U._c_host_hook, URLParseError, _idna.is_nfc)
    assert calls == [], host


@settings(max_examples=1000, deadline=None)
@given(st.text("abcdefghijklmnopqrstuvwxyz0123456789-", max_size=20))
def test_a_label_that_decodes_is_its_own_encoding(s: str) -> None:
    # url_idna.c checks the DNS lengths on the input labels: ToASCII's
    # re-encoding of a decoded label gives the label back.
    try:
        dec = _idna._punycode_decode(s)
    except _idna._PunycodeError:
        return
    if not dec.isascii():
        assert _idna.punycode_encode(dec) == s


@settings(max_examples=500, deadline=None)
@given(_labels())
def test_encoded_labels_round_trip(raw: str) -> None:
    enc = _idna.punycode_encode(raw)
    assert _idna._punycode_decode(enc) == raw
    if not raw.isascii():
        assert _idna.punycode_encode(_idna._punycode_decode(enc)) == enc


def _strict(domain: str) -> bool:
    try:
        _idna.domain_to_ascii(domain, True)
    except _idna.IDNAError:
        return False
    return True


@needs_c
@settings(max_examples=1000, deadline=None)
@given(st.lists(_xn_label(), min_size=1, max_size=3))
def test_the_error_is_the_strict_run(labels: list[str]) -> None:
    # the domain-to-ASCII validation error at the host is exactly "the strict
    # ToASCII fails" (URL Standard §3.3), on the C twin too
    host = ".".join(labels)
    if not re.fullmatch(r"[A-Za-z0-9.\-]+", host):
        return
    u = C.url_parse(f"http://{host}/", None, True)
    assert (("domain-to-ASCII", 7) in [tuple(e) for e in u.validation_errors]) == (
        not _strict(host)), host


def _parse_all(hosts: list[str], parse: Callable[[str], Any]) -> list[Any]:
    return [parse(f"http://{h}/").href for h in hosts]


def test_public_parse_agrees_on_both_twins() -> None:
    # url.parse (whichever twin is active) gives the wpt answer for xn-- hosts
    ok = ["xn--bcher-kva.example", "xn--mgbh0a.com", "xn--a.com", "xn--0ug"]
    assert _parse_all(ok, U.parse) == [f"http://{h}/" for h in ok]
    assert [tuple(e) for e in U.parse("http://xn--a.com/").validation_errors] == [
        ("domain-to-ASCII", 7)]
    assert U.parse("http://XN--BCHER-KVA.example/").validation_errors == ()


@pytest.mark.parametrize("threads", [1, 2])
def test_url_columns_agree_on_xn_hosts(threads: int) -> None:
    # The column kernel parses without the GIL: a label that is not NFC-inert
    # (a mark of class > 0: U+0301, U+064B, a virama) needs the NFC check,
    # so that row is parsed again with the GIL; every row equals url.parse.
    pa = pytest.importorskip("pyarrow")
    from percent_encoding import arrow as A

    pool = [f"http://{h}/p" for h in _CASES] + ["http://plain.example/", None]
    rows = [pool[(i * 7) % len(pool)] for i in range(40_000)]
    old = A.set_threads(threads)
    try:
        got = A.url_component(pa.array(rows, pa.string()), "href").to_pylist()
    finally:
        A.set_threads(old)
    want: dict[str | None, str | None] = {}
    for r in pool:
        try:
            want[r] = None if r is None else U.parse(r).href
        except URLParseError:
            want[r] = None
    assert got == [want[r] for r in rows]
