"""The Chinese encodings of the Encoding Standard: Big5 (§11) and gb18030 / GBK
(§10).

Strategy: ``_MultiByte`` codecs over index Big5 and index gb18030; the four
Big5 pointers that decode to two code points and gb18030's four-byte ranges
(index gb18030 ranges, §5) are handled here, in Python.
"""

from __future__ import annotations

import bisect

from ._base import MultiByte, Out
from ._index import (
    LOCK,
    first_pointers,
    index,
    ptr_big5,
    ptr_gb,
    ptr_gb4,
    py_char,
)

# §11.1.1: four Big5 pointers decode to two code points each.
_BIG5_PAIRS = {
    1133: "\u00ca\u0304",
    1135: "\u00ca\u030c",
    1164: "\u00ea\u0304",
    1166: "\u00ea\u030c",
}
# §5 "index Big5 pointer": these take the *last* pointer.
_BIG5_LAST = (0x2550, 0x255E, 0x2561, 0x256A, 0x5341, 0x5345)


class Big5(MultiByte):
    name = "Big5"
    pycodec = "big5hkscs"
    _leads = frozenset(range(0x81, 0xFF))

    def _build(self) -> None:
        idx = index("big5")
        self.singles = {}
        pairs: dict[int, str] = {}
        for p, cp in enumerate(idx):
            if cp is not None:
                b = ptr_big5(p)
                pairs[b[0] << 8 | b[1]] = chr(cp)
        for p, s in _BIG5_PAIRS.items():
            b = ptr_big5(p)
            pairs[b[0] << 8 | b[1]] = s
        self.pairs = pairs

    def _encode_table(self) -> dict[int, str]:
        # §11.1.2 with "index Big5 pointer": no HKSCS pointers below (0xA1-0x81)*157.
        idx = index("big5")
        lo = (0xA1 - 0x81) * 157
        ptrs = first_pointers(idx, lambda p: p < lo)
        for p in range(lo, len(idx)):
            if idx[p] in _BIG5_LAST:
                ptrs[idx[p]] = p  # type: ignore[index]
        return {cp: ptr_big5(p).decode("latin-1") for cp, p in ptrs.items()}


# §10.2.2 gb18030 encoder: code points with fixed two-byte sequences (GB18030-2005 compat).
_GB18030_PUA_ENCODE = {
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


class _Ranges:
    """§5 index gb18030 ranges, derived from Python's four-byte gb18030 mapping."""

    def __init__(self) -> None:
        ptrs: list[int] = []
        cps: list[int] = []
        last_delta: int | None = None
        prev = -2
        for p in range(39420):
            cp = py_char(ptr_gb4(p), "gb18030")
            if cp is None:
                continue
            if cp - p != last_delta or p != prev + 1:
                ptrs.append(p)
                cps.append(cp)
                last_delta = cp - p
            prev = p
        # Supplementary planes are one linear range starting at pointer 189000.
        sup = 189000
        first = py_char(ptr_gb4(sup), "gb18030")
        ptrs.append(sup)
        cps.append(first if first is not None else 0x10000)
        self.ptrs = ptrs
        self.cps = cps

    def code_point(self, pointer: int) -> int | None:
        # §5 "index gb18030 ranges code point".
        if 39419 < pointer < 189000 or pointer > 1237575:
            return None
        if pointer == 7457:
            return 0xE7C7
        i = bisect.bisect_right(self.ptrs, pointer) - 1
        return self.cps[i] + pointer - self.ptrs[i]

    def pointer(self, cp: int) -> int:
        # §5 "index gb18030 ranges pointer".
        if cp == 0xE7C7:
            return 7457
        i = bisect.bisect_right(self.cps, cp) - 1
        return self.ptrs[i] + cp - self.cps[i]


_RANGES: list[_Ranges] = []


def _ranges() -> _Ranges:
    with LOCK:
        if not _RANGES:
            _RANGES.append(_Ranges())
        return _RANGES[0]


class GB18030(MultiByte):
    name = "gb18030"
    pycodec = "gb18030"
    is_gbk = False
    _leads = frozenset(range(0x81, 0xFF))

    def _build(self) -> None:
        idx = index("gb18030")
        self.singles = {0x80: "\u20ac"}
        self.pairs = {}
        for p, cp in enumerate(idx):
            if cp is not None:
                b = ptr_gb(p)
                self.pairs[b[0] << 8 | b[1]] = chr(cp)
        self.ranges = _ranges()

    def _spec_long(self) -> dict[bytes, str]:
        # Python's BMP four-byte sequences; beyond them both sides are linear (tested).
        r = self.ranges
        out: dict[bytes, str] = {}
        for p in range(4 * 12600):
            cp = r.code_point(p)
            out[ptr_gb4(p)] = "" if cp is None else chr(cp)
        return out

    def _slow_decode(self, data: bytes, out: Out) -> None:
        # §10.2.1 gb18030 decoder, including its restore rules.
        pairs, ranges = self.pairs, self.ranges
        parts = out.parts
        n = len(data)
        i = 0
        while i < n:
            b = data[i]
            if b < 0x80:
                parts.append(chr(b))
                i += 1
            elif b == 0x80:
                parts.append("\u20ac")
                i += 1
            elif b == 0xFF:
                out.error(i)
                i += 1
            else:
                if i + 1 >= n:
                    out.error(i)
                    break
                b2 = data[i + 1]
                if 0x30 <= b2 <= 0x39:
                    if i + 2 >= n:
                        out.error(i)
                        break
                    b3 = data[i + 2]
                    if not 0x81 <= b3 <= 0xFE:
                        out.error(i)
                        i += 1  # restore « second, byte »
                        continue
                    if i + 3 >= n:
                        out.error(i)
                        break
                    b4 = data[i + 3]
                    if not 0x30 <= b4 <= 0x39:
                        out.error(i)
                        i += 1  # restore « second, third, byte »
                        continue
                    cp = ranges.code_point(
                        (b - 0x81) * 12600 + (b2 - 0x30) * 1260 + (b3 - 0x81) * 10 + b4 - 0x30
                    )
                    if cp is None:
                        out.error(i)
                    else:
                        parts.append(chr(cp))
                    i += 4
                    continue
                s = pairs.get(b << 8 | b2)
                if s is not None:
                    parts.append(s)
                    i += 2
                else:
                    out.error(i)
                    i += 1 if b2 < 0x80 else 2

    def _encode_table(self) -> dict[int, str]:
        # §10.2.2 gb18030 encoder, two-byte part; four-byte sequences come from _fallback.
        table = {
            cp: ptr_gb(p).decode("latin-1") for cp, p in first_pointers(index("gb18030")).items()
        }
        table.pop(0xE5E5, None)
        for cp, bs in _GB18030_PUA_ENCODE.items():
            table[cp] = bs.decode("latin-1")
        if self.is_gbk:
            table[0x20AC] = "\x80"
        return table

    def _fallback(self, cp: int) -> str | None:
        if self.is_gbk or cp == 0xE5E5 or cp < 0x80 or 0xD800 <= cp <= 0xDFFF:
            return None
        return ptr_gb4(_ranges().pointer(cp)).decode("latin-1")


class GBK(GB18030):
    """§10.1: GBK decodes like gb18030 and encodes with "is GBK" set."""

    name = "GBK"
    is_gbk = True
