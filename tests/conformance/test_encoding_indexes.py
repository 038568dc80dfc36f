"""percent_encoding.encodings against the WHATWG Encoding Standard's own data.

Reads the vendored tests/data/encoding/ (encodings.json, indexes.json) at test time and
checks, code point for code point, every decoder and encoder against an independent model
of the Standard's algorithms written here from the index data (Encoding Standard §5, §9-§14).
"""

from __future__ import annotations

import bisect
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from helpers import data_path
from percent_encoding import encodings as E
from percent_encoding.errors import PercentEncodeError, TextDecodeError

# Nothing here reaches the percent-encoding kernels: run once, not once per twin.
pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]


def shared(name: str) -> Any:
    return json.loads(data_path("encoding", name).read_text(encoding="utf-8"))


@cache
def indexes() -> dict[str, list[Any]]:
    return shared("indexes.json")  # type: ignore[no-any-return]


def idx(name: str) -> list[int | None]:
    return indexes()[name]


SINGLE_BYTE = [
    n
    for n in (
        "IBM866 ISO-8859-2 ISO-8859-3 ISO-8859-4 ISO-8859-5 ISO-8859-6 ISO-8859-7 ISO-8859-8 "
        "ISO-8859-8-I ISO-8859-10 ISO-8859-13 ISO-8859-14 ISO-8859-15 ISO-8859-16 KOI8-R KOI8-U "
        "macintosh windows-874 windows-1250 windows-1251 windows-1252 windows-1253 windows-1254 "
        "windows-1255 windows-1256 windows-1257 windows-1258 x-mac-cyrillic"
    ).split()
]
BMP = [c for c in range(0x80, 0x10000) if not 0xD800 <= c <= 0xDFFF]
BMP_TEXT = "".join(map(chr, BMP))


def first_pointers(index: list[int | None], skip: Any = lambda p: False) -> dict[int, int]:
    out: dict[int, int] = {}
    for p, cp in enumerate(index):
        if cp is not None and cp not in out and not skip(p):
            out[cp] = p
    return out


def html_expected(table: dict[int, bytes], chars: list[int]) -> bytes:
    return b"".join(table.get(c, b"&#%d;" % c) for c in chars)


def check_encoder(name: str, table: dict[int, bytes], chars: list[int] = BMP) -> None:
    """Encoding all of ``chars`` at once must give the model's bytes (or &#N;) for each."""
    got = E.lookup(name).encode("".join(map(chr, chars)), "html")
    want = html_expected(table, chars)
    if got != want:
        for c in chars:
            g = E.lookup(name).encode(chr(c), "html")
            assert g == table.get(c, b"&#%d;" % c), f"{name}: U+{c:04X} -> {g!r}"
        raise AssertionError(f"{name}: bulk encode differs")  # pragma: no cover


# ------------------------------------------------------------------------------- labels


def test_label_table_equals_encodings_json() -> None:
    groups = shared("encodings.json")
    ours = [
        {"heading": h, "encodings": [{"name": n, "labels": list(ls)} for n, ls in g]}
        for h, g in E._ENCODING_GROUPS
    ]
    assert ours == groups
    assert E.names() == tuple(e["name"] for g in groups for e in g["encodings"])


def test_generated_label_table_is_current() -> None:
    """tools/gen_encoding_labels.py run on encodings.json writes what encodings/_data.py holds."""
    import importlib.util

    root = Path(__file__).resolve().parents[2]
    spec = importlib.util.spec_from_file_location(
        "gen_encoding_labels", root / "tools" / "gen_encoding_labels.py"
    )
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    text = gen.MODULE.read_text(encoding="utf-8")
    block = text[text.index(gen.BEGIN) + len(gen.BEGIN):text.index(gen.END)]
    assert block == gen.render(shared("encodings.json")), (
        "encodings/_data.py is stale: run python tools/gen_encoding_labels.py"
    )


def test_every_label_resolves() -> None:
    for group in shared("encodings.json"):
        for enc in group["encodings"]:
            for label in enc["labels"]:
                assert E.lookup(label).name == enc["name"]
                assert E.lookup(f"\t {label.upper()}\n\f\r").name == enc["name"]
                assert label in E.lookup(label).labels


# ------------------------------------------------------------------------ single-byte


@pytest.mark.parametrize("name", SINGLE_BYTE)
def test_single_byte(name: str) -> None:
    index = idx("iso-8859-8" if name == "ISO-8859-8-I" else name.lower())
    enc = E.lookup(name)
    for b in range(256):
        cp = b if b < 0x80 else index[b - 0x80]
        if cp is None:
            assert enc.decode(bytes((b,))) == "\ufffd"
            with pytest.raises(TextDecodeError) as ei:
                enc.decode(b"ab" + bytes((b,)), "fatal")
            assert ei.value.position == 2
        else:
            assert enc.decode(bytes((b,)), "fatal") == chr(cp), hex(b)
    table = {cp: bytes((p + 0x80,)) for cp, p in first_pointers(index).items()}
    check_encoder(name, table)


def test_x_user_defined() -> None:
    enc = E.lookup("x-user-defined")
    assert enc.decode(bytes(range(256)), "fatal") == "".join(map(chr, range(128))) + "".join(
        chr(0xF780 + i) for i in range(128)
    )
    check_encoder("x-user-defined", {0xF780 + i: bytes((0x80 + i,)) for i in range(128)})


# ------------------------------------------------------------------------- multi-byte
# Models of the two-byte decoders (§10.2.1, §11.1.1, §12.1.1, §12.3.1, §13.1.1): given a
# lead and a trail byte, the text the Standard produces for exactly those two bytes.

BIG5_PAIRS = {
    1133: "\u00ca\u0304",
    1135: "\u00ca\u030c",
    1164: "\u00ea\u0304",
    1166: "\u00ea\u030c",
}


def two_byte_model(name: str, lead: int, trail: int) -> str:
    def err(cp: int | None) -> str:
        if cp is not None:
            return chr(cp)
        return "\ufffd" + (chr(trail) if trail < 0x80 else "")

    if name == "Shift_JIS":
        if lead < 0x80 or lead == 0x80 or 0xA1 <= lead <= 0xDF:
            first = chr(lead) if lead <= 0x80 else chr(0xFF61 - 0xA1 + lead)
            return first + single_model(name, trail)
        if not (0x81 <= lead <= 0x9F or 0xE0 <= lead <= 0xFC):
            return "\ufffd" + single_model(name, trail)
        ptr = None
        if 0x40 <= trail <= 0x7E or 0x80 <= trail <= 0xFC:
            ptr = (
                (lead - (0x81 if lead < 0xA0 else 0xC1)) * 188
                + trail
                - (0x40 if trail < 0x7F else 0x41)
            )
        if ptr is not None and 8836 <= ptr <= 10715:
            return chr(0xE000 - 8836 + ptr)
        jis = idx("jis0208")
        return err(jis[ptr] if ptr is not None and ptr < len(jis) else None)
    if name == "EUC-KR":
        if not 0x81 <= lead <= 0xFE:
            return "\ufffd" + single_model(name, trail)
        ptr = (lead - 0x81) * 190 + trail - 0x41 if 0x41 <= trail <= 0xFE else None
        return err(idx("euc-kr")[ptr] if ptr is not None else None)
    if name == "Big5":
        if not 0x81 <= lead <= 0xFE:
            return "\ufffd" + single_model(name, trail)
        ptr = None
        if 0x40 <= trail <= 0x7E or 0xA1 <= trail <= 0xFE:
            ptr = (lead - 0x81) * 157 + trail - (0x40 if trail < 0x7F else 0x62)
        if ptr in BIG5_PAIRS:
            return BIG5_PAIRS[ptr]
        big5 = idx("big5")
        return err(big5[ptr] if ptr is not None and ptr < len(big5) else None)
    if name in ("gb18030", "GBK"):
        if lead == 0x80:
            return "\u20ac" + single_model(name, trail)
        if lead == 0xFF:
            return "\ufffd" + single_model(name, trail)
        if 0x30 <= trail <= 0x39:
            return "\ufffd"  # an incomplete four-byte sequence: one error at the end
        ptr = None
        if 0x40 <= trail <= 0x7E or 0x80 <= trail <= 0xFE:
            ptr = (lead - 0x81) * 190 + trail - (0x40 if trail < 0x7F else 0x41)
        return err(idx("gb18030")[ptr] if ptr is not None else None)
    if name == "EUC-JP":
        if lead == 0x8E:
            if 0xA1 <= trail <= 0xDF:
                return chr(0xFF61 - 0xA1 + trail)
            return err(None)
        if lead == 0x8F:
            return "\ufffd" if 0xA1 <= trail <= 0xFE else err(None)
        if not 0xA1 <= lead <= 0xFE:
            return "\ufffd" + single_model(name, trail)
        ptr = (lead - 0xA1) * 94 + trail - 0xA1 if 0xA1 <= trail <= 0xFE else None
        return err(idx("jis0208")[ptr] if ptr is not None else None)
    raise AssertionError(name)


def single_model(name: str, b: int) -> str:
    if b < 0x80:
        return chr(b)
    if name == "Shift_JIS":
        if b == 0x80:
            return "\x80"
        if 0xA1 <= b <= 0xDF:
            return chr(0xFF61 - 0xA1 + b)
    if name in ("gb18030", "GBK") and b == 0x80:
        return "\u20ac"
    return "\ufffd"  # a lead byte at the end of input, or an invalid byte


MULTI = ["Shift_JIS", "EUC-KR", "Big5", "gb18030", "GBK", "EUC-JP"]


@pytest.mark.parametrize("name", MULTI)
def test_two_byte_space_decodes_like_the_standard(name: str) -> None:
    """Every byte and every (lead, trail) pair, including error recovery (how many bytes
    an error consumes; ASCII trail bytes are decoded again)."""
    enc = E.lookup(name)
    for b in range(256):
        assert enc.decode(bytes((b,))) == single_model(name, b), f"{name} {b:02X}"
    for lead in range(0x80, 0x100):
        seqs = [bytes((lead, t)) for t in range(256)]
        want = [two_byte_model(name, lead, t) for t in range(256)]
        got = [enc.decode(s) for s in seqs]
        if got != want:
            bad = [(s.hex(), g, w) for s, g, w in zip(seqs, got, want, strict=True) if g != w]
            raise AssertionError(f"{name}: {len(bad)} differences, first {bad[:5]}")


def _decoder_cases(name: str) -> tuple[list[bytes], list[str]]:
    """Every pointer of the index as bytes, and the code point the Standard gives it."""
    seqs: list[bytes] = []
    want: list[str] = []
    if name == "Shift_JIS":
        for p, cp in enumerate(idx("jis0208")):
            if cp is not None and not 8836 <= p <= 10715:
                lead, trail = divmod(p, 188)
                seqs.append(
                    bytes(
                        (
                            lead + (0x81 if lead < 0x1F else 0xC1),
                            trail + (0x40 if trail < 0x3F else 0x41),
                        )
                    )
                )
                want.append(chr(cp))
    elif name == "EUC-JP":
        for p, cp in enumerate(idx("jis0208")[: 94 * 94]):
            if cp is not None:
                seqs.append(bytes((p // 94 + 0xA1, p % 94 + 0xA1)))
                want.append(chr(cp))
        for p, cp in enumerate(idx("jis0212")):
            if cp is not None:
                seqs.append(bytes((0x8F, p // 94 + 0xA1, p % 94 + 0xA1)))
                want.append(chr(cp))
    elif name == "EUC-KR":
        for p, cp in enumerate(idx("euc-kr")):
            if cp is not None:
                seqs.append(bytes((p // 190 + 0x81, p % 190 + 0x41)))
                want.append(chr(cp))
    elif name == "Big5":
        for p, cp in enumerate(idx("big5")):
            if cp is not None:
                lead, trail = divmod(p, 157)
                seqs.append(bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62))))
                want.append(chr(cp))
    else:
        for p, cp in enumerate(idx("gb18030")):
            if cp is not None:
                lead, trail = divmod(p, 190)
                seqs.append(bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41))))
                want.append(chr(cp))
    return seqs, want


@pytest.mark.parametrize("name", MULTI)
def test_every_pointer_decodes_to_its_index_code_point(name: str) -> None:
    enc = E.lookup(name)
    seqs, want = _decoder_cases(name)
    data, text = b"".join(seqs), "".join(want)
    assert enc.decode(data, "fatal") == text  # Python-codec fast path with its checks
    # An invalid byte at the end forces the pure-Python decoder over the same input.
    assert enc.decode(data + b"\xff") == text + "\ufffd"
    for s, w in zip(seqs[::97], want[::97], strict=True):
        assert enc.decode(s, "fatal") == w


def test_jis0212_unmapped_three_byte_sequences() -> None:
    enc = E.lookup("EUC-JP")
    j212 = idx("jis0212")
    for p, cp in enumerate(j212):
        if cp is None:
            s = bytes((0x8F, p // 94 + 0xA1, p % 94 + 0xA1))
            assert enc.decode(s) == "\ufffd"
    assert enc.decode(b"\x8f\xa1A") == "\ufffdA"
    assert enc.decode(b"\x8fA") == "\ufffdA"


# ----------------------------------------------------------------------------- encoders


def sjis_bytes(p: int) -> bytes:
    lead, trail = divmod(p, 188)
    return bytes((lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)))


def test_shift_jis_encoder() -> None:
    # §12.3.2 with "index Shift_JIS pointer" (pointers 8272-8835 excluded).
    ptrs = first_pointers(idx("jis0208"), lambda p: 8272 <= p <= 8835)
    table = {cp: sjis_bytes(p) for cp, p in ptrs.items()}
    table[0x80] = b"\x80"
    table[0xA5] = b"\\"
    table[0x203E] = b"~"
    for cp in range(0xFF61, 0xFFA0):
        table[cp] = bytes((cp - 0xFF61 + 0xA1,))
    table[0x2212] = table[0xFF0D]
    assert table[0x2212] == b"\x81\x7c"
    check_encoder("Shift_JIS", table)


def test_euc_jp_encoder() -> None:
    ptrs = first_pointers(idx("jis0208"))
    assert max(ptrs.values()) < 94 * 94  # the §12.1.2 note
    table = {cp: bytes((p // 94 + 0xA1, p % 94 + 0xA1)) for cp, p in ptrs.items()}
    table[0xA5] = b"\\"
    table[0x203E] = b"~"
    for cp in range(0xFF61, 0xFFA0):
        table[cp] = bytes((0x8E, cp - 0xFF61 + 0xA1))
    table[0x2212] = table[0xFF0D]
    check_encoder("EUC-JP", table)


def test_euc_kr_encoder() -> None:
    table = {
        cp: bytes((p // 190 + 0x81, p % 190 + 0x41))
        for cp, p in first_pointers(idx("euc-kr")).items()
    }
    check_encoder("EUC-KR", table)


def big5_table() -> dict[int, bytes]:
    index = idx("big5")
    lo = (0xA1 - 0x81) * 157
    ptrs = first_pointers(index, lambda p: p < lo)
    for cp in (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345):
        ptrs[cp] = max(p for p in range(lo, len(index)) if index[p] == cp)
    out = {}
    for cp, p in ptrs.items():
        lead, trail = divmod(p, 157)
        out[cp] = bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)))
    return out


def test_big5_encoder() -> None:
    table = big5_table()
    # Last pointer (§5 "index Big5 pointer"): 0xA451 rather than 0xA2CC, 0xF9F9 not 0xA2A4.
    assert table[0x5341] == b"\xa4\x51" and table[0x2550] == b"\xf9\xf9"
    astral = sorted(c for c in first_pointers(idx("big5")) if c > 0xFFFF)
    check_encoder("Big5", table, BMP + astral + [0x10000, 0x1F600])


PUA_GB = {
    0xE78D: b"\xa6\xd9",
    0xE78E: b"\xa6\xda",
    0xE78F: b"\xa6\xdb",
    0xE790: b"\xa6\xdc",
    0xE791: b"\xa6\xdd",
    0xE792: b"\xa6\xde",
    0xE793: b"\xa6\xdf",
    0xE794: b"\xa6\xec",
    0xE795: b"\xa6\xed",
    0xE796: b"\xa6\xf3",
    0xE81E: b"\xfe\x59",
    0xE826: b"\xfe\x61",
    0xE82B: b"\xfe\x66",
    0xE82C: b"\xfe\x67",
    0xE832: b"\xfe\x6d",
    0xE843: b"\xfe\x7e",
    0xE854: b"\xfe\x90",
    0xE864: b"\xfe\xa0",
}


def ranges_code_point(pointer: int) -> int | None:
    rng = indexes()["gb18030-ranges"]
    if 39419 < pointer < 189000 or pointer > 1237575:
        return None
    if pointer == 7457:
        return 0xE7C7
    i = bisect.bisect_right([r[0] for r in rng], pointer) - 1
    return int(rng[i][1] + pointer - rng[i][0])


def ranges_pointer(cp: int) -> int:
    rng = indexes()["gb18030-ranges"]
    if cp == 0xE7C7:
        return 7457
    i = bisect.bisect_right([r[1] for r in rng], cp) - 1
    return int(rng[i][0] + cp - rng[i][1])


def four(p: int) -> bytes:
    b1, p = divmod(p, 12600)
    b2, p = divmod(p, 1260)
    b3, b4 = divmod(p, 10)
    return bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))


def gb_table(gbk: bool, chars: list[int]) -> dict[int, bytes]:
    two = first_pointers(idx("gb18030"))
    out: dict[int, bytes] = {}
    for cp in chars:
        if cp == 0xE5E5:
            continue
        if gbk and cp == 0x20AC:
            out[cp] = b"\x80"
        elif cp in PUA_GB:
            out[cp] = PUA_GB[cp]
        elif cp in two:
            lead, trail = divmod(two[cp], 190)
            out[cp] = bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)))
        elif not gbk:
            out[cp] = four(ranges_pointer(cp))
    return out


ASTRAL_SAMPLE = [
    *(0x10000, 0x10001, 0x1F600, 0x20000, 0x2A6D6, 0xE0001, 0x10FFFE, 0x10FFFF),
    *range(0x10000, 0x110000, 4093),
]


@pytest.mark.parametrize("gbk", [False, True])
def test_gb18030_and_gbk_encoders(gbk: bool) -> None:
    chars = BMP + ASTRAL_SAMPLE
    table = gb_table(gbk, chars)
    check_encoder("GBK" if gbk else "gb18030", table, chars)
    with pytest.raises(PercentEncodeError) as ei:
        E.lookup("GBK" if gbk else "gb18030").encode("ab\ue5e5")
    assert ei.value.position == 2


def test_gb18030_four_byte_decoding() -> None:
    enc = E.lookup("gb18030")
    rng = indexes()["gb18030-ranges"]
    # Every BMP pointer, in one call and then through the pure-Python decoder.
    data = b"".join(four(p) for p in range(39420))
    want = "".join(chr(ranges_code_point(p)) for p in range(39420))  # type: ignore[arg-type]
    assert enc.decode(data, "fatal") == want
    assert enc.decode(data + b"\xff") == want + "\ufffd"
    # Every range boundary (and its neighbours), the gaps, and a dense supplementary sample.
    probes = {0, 39419, 39420, 188999, 189000, 1237575, 1237576, 12600 * 126 - 1}
    for p, _cp in rng:
        probes.update((p - 1, p, p + 1))
    probes.update(range(189000, 1237576, 257))
    for p in sorted(x for x in probes if x >= 0):
        cp = ranges_code_point(p)
        got = enc.decode(four(p))
        assert got == ("\ufffd" if cp is None else chr(cp)), f"pointer {p}"


def test_gb18030_bmp_round_trip() -> None:
    enc = E.lookup("gb18030")
    text = BMP_TEXT.replace("\ue5e5", "")
    decoded = enc.decode(enc.encode(text), "fatal")
    assert len(decoded) == len(text)
    diff = {a for a, b in zip(text, decoded, strict=True) if a != b}
    # Only the GB18030-2022 side table (§10.2.2) does not round-trip.
    assert {ord(c) for c in diff} == set(PUA_GB)
    with pytest.raises(PercentEncodeError):
        enc.encode("\ue5e5")


def test_iso_2022_jp_encoder_and_katakana() -> None:
    enc = E.lookup("ISO-2022-JP")
    ptrs = {cp: p for cp, p in first_pointers(idx("jis0208")).items() if p < 8836}
    for cp, p in ptrs.items():
        if cp < 0x80 or cp in (0xA5, 0x203E):
            continue
        assert enc.encode(chr(cp)) == b"\x1b$B" + bytes((p // 94 + 0x21, p % 94 + 0x21)) + b"\x1b(B"
    kana = idx("iso-2022-jp-katakana")
    for i, full in enumerate(kana):
        p = ptrs[full]  # type: ignore[index]
        want = b"\x1b$B" + bytes((p // 94 + 0x21, p % 94 + 0x21)) + b"\x1b(B"
        assert enc.encode(chr(0xFF61 + i)) == want
    assert enc.encode("\u2212") == enc.encode("\uff0d")
    # Decoding: every jis0208 pointer below 8836.
    seqs = [
        bytes((p // 94 + 0x21, p % 94 + 0x21)) for p in range(8836) if idx("jis0208")[p] is not None
    ]
    want_s = "".join(chr(c) for c in idx("jis0208")[:8836] if c is not None)  # type: ignore[arg-type]
    assert enc.decode(b"\x1b$B" + b"".join(seqs) + b"\x1b(B", "fatal") == want_s


def test_index_text_files_equal_indexes_json() -> None:
    # The Standard publishes each index as index-NAME.txt ("pointer<TAB>0xCODEPOINT..."
    # lines under a "#" header); indexes.json, which the tests above read, must say the
    # same: every pointer and code point, nothing more.  (Lines end in "\n" only: the
    # glyph column of C1 controls holds U+0085, which str.splitlines would break at.)
    data = shared("indexes.json")
    files = sorted(data_path("encoding", "indexes.json").parent.glob("index-*.txt"))
    assert len(files) == len(data) == 34
    for f in files:
        name = f.name[len("index-"):-len(".txt")]
        pairs = [(int(p), int(c, 16)) for p, c, *_ in
                 (line.split("\t") for line in f.read_text("utf-8").split("\n")
                  if line.strip() and not line.startswith("#"))]
        if name == "gb18030-ranges":
            assert [list(x) for x in pairs] == data[name], name
            continue
        table = data[name]
        assert {p: c for p, c in pairs} == {p: c for p, c in enumerate(table)
                                           if c is not None}, name
