"""Generate ``src/csrc/_idna_tables.h``, the UTS #46 data of the C host parser.

The C twin checks an ASCII host's ``xn--`` labels (``src/csrc/url_idna.c``)
with the same data the pure twin uses, so the tables come from the generated
module ``percent_encoding.url._uts46_data`` (itself from ``tools/gen_uts46.py``):

* which code points have the status valid or deviation (UTS #46 §5; the only
  ones a decoded label may hold under nontransitional processing);
* General_Category=Mark edges, the Virama list, Joining_Type and Bidi_Class
  ranges (RFC 5892 Appendix A, RFC 5893).

One table has another source.  The pure twin's NFC check
(``percent_encoding.url._nfc.is_nfc``) follows the mapping table's Unicode
version on every Python, while this Python's ``unicodedata`` has its own
(13.0 on Python 3.10, 15.1 on 3.13).  The C twin
runs the NFC quick check (UAX #15 §9) with this Python's combining classes,
only for code points this Python knows whose NFC_Quick_Check is Yes, and
answers "yes" on its own only when the check does; for any other label (a
code point unknown here or Quick_Check No or Maybe, or marks out of canonical
order) it asks the pure twin's own function.  That is exact on every Python:
the Unicode stability policies keep the combining class, decomposition and
composition exclusion of an assigned character forever, so in another version
each of these code points either has the same class and Quick_Check or is
unassigned (class 0, Quick_Check Yes), and turning classes to 0 never breaks
the canonical order the check saw.  The NFC block records the Unicode version
it was made from, and ``tests/test_url_idna_c.py`` compares it exactly only on
a Python with that version (and checks it is sound on every one, and for the
mapping table's version: a Quick_Check Yes a later version turns to Maybe
could matter only beside a code point unknown here, which goes to Python).

    python tools/gen_idna_tables.py          # rewrite the header
    python tools/gen_idna_tables.py --check  # exit 1 if it is stale
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = ROOT / "src" / "csrc" / "_idna_tables.h"
NFC_BEGIN = "/* --- NFC-inert code points"
NFC_END = "/* --- end of the NFC block */"


def _array(ctype: str, name: str, values: list[int], per_row: int = 10) -> str:
    rows = []
    for i in range(0, len(values), per_row):
        rows.append("    " + ", ".join(f"0x{v:X}" for v in values[i:i + per_row]) + ",")
    return f"static const {ctype} {name}[{len(values)}] = {{\n" + "\n".join(rows) + "\n};\n"


def _edges(flags: list[tuple[int, bool]]) -> list[int]:
    # (range start, in the set) pairs -> alternating starts of in/out ranges, from "out"
    out: list[int] = []
    inside = False
    for start, flag in flags:
        if flag != inside:
            out.append(start)
            inside = flag
    return out


def nfc_maybe() -> set[int]:
    """NFC_Quick_Check=Maybe in this Python: second parts of primary composites."""
    maybe = set(range(0x1161, 0x1176)) | set(range(0x11A8, 0x11C3))  # Hangul V and T jamo
    for cp in range(0x110000):
        dec = unicodedata.decomposition(chr(cp))
        if not dec or dec.startswith("<"):
            continue
        parts = [int(x, 16) for x in dec.split()]
        pair = "".join(map(chr, parts))
        if len(parts) == 2 and unicodedata.normalize("NFC", pair) == chr(cp):
            maybe.add(parts[1])
    return maybe


UNKNOWN = 255


def nfc_classes() -> bytes:
    """Per code point: its combining class when this Python knows it and its
    NFC_Quick_Check is Yes, else UNKNOWN (unassigned here, or Quick_Check No or
    Maybe): what the quick check of UAX #15 §9 needs to answer "yes"."""
    maybe = nfc_maybe()
    out = bytearray(0x110000)
    for cp in range(0x110000):
        ch = chr(cp)
        if (unicodedata.category(ch) in ("Cn", "Cs") or cp in maybe
                or unicodedata.normalize("NFC", ch) != ch):
            out[cp] = UNKNOWN
        else:
            out[cp] = unicodedata.combining(ch)
    return bytes(out)


def _two_stage(name: str, values: bytes, shift: int = 8) -> str:
    # values[cp] == NAME_2[(NAME_1[cp >> shift] << shift) | (cp & mask)]
    size = 1 << shift
    blocks: dict[bytes, int] = {}
    index = []
    for k in range(0, len(values), size):
        index.append(blocks.setdefault(values[k:k + size], len(blocks)))
    itype = "uint8_t" if len(blocks) <= 256 else "uint16_t"
    flat = b"".join(blocks)
    rows = []
    for i in range(0, len(flat), 32):
        rows.append("    " + ",".join(str(v) for v in flat[i:i + 32]) + ",")
    return (
        _array(itype, f"{name}_1", index, 16)
        + f"static const uint8_t {name}_2[{len(flat)}] = {{\n" + "\n".join(rows) + "\n};\n"
    )


def render_nfc() -> str:
    """The NFC block: this Python's combining classes where its quick check says Yes."""
    return (
        f"{NFC_BEGIN} (Python's unicodedata {unicodedata.unidata_version}):\n"
        " * IDNA_NFC(cp) is the combining class of cp, or IDNA_NFC_UNKNOWN: not\n"
        " * assigned in this version, or NFC_Quick_Check No or Maybe */\n"
        f'#define IDNA_NFC_UNIDATA "{unicodedata.unidata_version}"\n'
        f"#define IDNA_NFC_UNKNOWN {UNKNOWN}\n"
        + _two_stage("IDNA_NFC", nfc_classes())
        + NFC_END + "\n"
    )


def properties() -> bytes:
    """Per code point: bit 0 status valid or deviation, bit 1 Mark, bits 2-6 Bidi_Class."""
    sys.path.insert(0, str(ROOT / "src"))
    try:
        from percent_encoding.url import _uts46_data as d
    finally:
        sys.path.pop(0)
    valid = _edges([(s, st in "VD") for s, st in zip(d.MAP_STARTS, d.MAP_STATUS, strict=True)])
    out = bytearray(0x110000)
    marks = list(d.MARK_EDGES)
    for edges, bit in ((valid, 1), (marks, 2)):
        for i, lo in enumerate(edges[::2]):
            hi = edges[2 * i + 1] if 2 * i + 1 < len(edges) else 0x110000
            for cp in range(lo, hi):
                out[cp] |= bit
    starts = [*d.BIDI_STARTS, 0x110000]
    for i, code in enumerate(d.BIDI_CODES):
        b = (ord(code) - 65) << 2
        for cp in range(starts[i], starts[i + 1]):
            out[cp] |= b
    return bytes(out)


def render(nfc: str | None = None) -> str:
    """The header's full text (``nfc``: the NFC block to use instead of this Python's)."""
    sys.path.insert(0, str(ROOT / "src"))
    try:
        from percent_encoding.url import _uts46_data as d
    finally:
        sys.path.pop(0)
    names = list(d.BIDI_NAMES)
    assert len(names) <= 32
    join_names = "UCDLRT"
    join_codes = [join_names.index(t) for t in d.JOIN_TYPES]
    defines = "".join(
        f"#define IDNA_BIDI_{n or 'NONE'} {i}\n" for i, n in enumerate(names)
    ) + "".join(f"#define IDNA_JOIN_{t} {i}\n" for i, t in enumerate(join_names))
    return (
        "/* _idna_tables.h: generated by tools/gen_idna_tables.py from\n"
        " * percent_encoding.url._uts46_data (Unicode "
        f"{d.UNICODE_VERSION}) and this Python's unicodedata; do not edit.\n"
        " * Read by url_idna.c (UTS #46 validity of xn-- labels, RFC 5892 ContextJ,\n"
        " * RFC 5893 Bidi, the NFC quick check).  Two-stage tables: the value for\n"
        " * cp is NAME_2[(NAME_1[cp >> 8] << 8) | (cp & 0xFF)]. */\n"
        "#ifndef PE_IDNA_TABLES_H\n#define PE_IDNA_TABLES_H\n\n"
        f'#define IDNA_UNICODE "{d.UNICODE_VERSION}"\n'
        + defines
        + "\n/* IDNA_PROP: bit 0 UTS #46 status valid or deviation, bit 1\n"
        " * General_Category=Mark, bits 2-6 the IDNA_BIDI_* of Bidi_Class */\n"
        + _two_stage("IDNA_PROP", properties())
        + "\n/* Virama (canonical combining class 9), sorted */\n"
        + _array("uint32_t", "IDNA_VIRAMA", sorted(d.VIRAMA))
        + "\n/* Joining_Type: range starts and one IDNA_JOIN_* a range */\n"
        + _array("uint32_t", "IDNA_JOIN_STARTS", list(d.JOIN_STARTS))
        + _array("uint8_t", "IDNA_JOIN_TYPES", join_codes, 24)
        + "\n"
        + (nfc if nfc is not None else render_nfc())
        + "\n#endif /* PE_IDNA_TABLES_H */\n"
    )


def nfc_block(text: str) -> str:
    """The NFC block of a header's text."""
    start = text.index(NFC_BEGIN)
    end = text.index(NFC_END) + len(NFC_END) + 1
    return text[start:end]


def two_stage_values(text: str, name: str) -> bytes:
    """Read a two-stage table back from a header's text (for the tests)."""
    def ints(arr: str) -> list[int]:
        body = text.split(f" {arr}[", 1)[1].split("{", 1)[1].split("}", 1)[0]
        return [int(t, 0) for t in body.replace("\n", ",").split(",") if t.strip()]

    index, flat = ints(f"{name}_1"), ints(f"{name}_2")
    return bytes(v for i in index for v in flat[i << 8:(i + 1) << 8])


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        return 0 if HEADER.read_text(encoding="utf-8") == text else 1
    HEADER.write_text(text, encoding="utf-8")
    print(f"wrote {HEADER} ({len(text)} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
