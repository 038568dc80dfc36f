"""The Japanese encodings of the Encoding Standard (§12): Shift_JIS, EUC-JP and
ISO-2022-JP.

Strategy: Shift_JIS and EUC-JP are ``_MultiByte`` codecs over index jis0208
(and jis0212 for EUC-JP decoding); ISO-2022-JP is a state machine written
from §12.2 in pure Python (Python's codec differs in escapes, katakana and
error recovery).
"""

from __future__ import annotations

from ..errors import PercentEncodeError
from ._base import Codec, MultiByte, Out
from ._index import (
    LOCK,
    first_pointers,
    index,
    ptr_sjis,
)


class ShiftJIS(MultiByte):
    name = "Shift_JIS"
    pycodec = "cp932"
    _leads = frozenset([*range(0x81, 0xA0), *range(0xE0, 0xFD)])

    def _build(self) -> None:
        jis = index("jis0208")
        self.singles = {0x80: "\x80"} | {b: chr(0xFF61 - 0xA1 + b) for b in range(0xA1, 0xE0)}
        pairs: dict[int, str] = {}
        for p in range(11280):
            b = ptr_sjis(p)
            if 8836 <= p <= 10715:  # §12.3.1: EUDC maps to the Private Use Area
                pairs[b[0] << 8 | b[1]] = chr(0xE000 - 8836 + p)
            elif jis[p] is not None:
                pairs[b[0] << 8 | b[1]] = chr(jis[p])  # type: ignore[arg-type]
        self.pairs = pairs

    def _encode_table(self) -> dict[int, str]:
        # §12.3.2 Shift_JIS encoder with §5 "index Shift_JIS pointer" (skip 8272-8835).
        ptrs = first_pointers(index("jis0208"), lambda p: 8272 <= p <= 8835)
        table = {cp: ptr_sjis(p).decode("latin-1") for cp, p in ptrs.items()}
        table[0x80] = "\x80"
        table[0xA5] = "\\"
        table[0x203E] = "~"
        for cp in range(0xFF61, 0xFFA0):
            table[cp] = chr(cp - 0xFF61 + 0xA1)
        if 0xFF0D in table:
            table[0x2212] = table[0xFF0D]
        return table


class EUCJP(MultiByte):
    name = "EUC-JP"
    pycodec = "euc_jp"
    _leads = frozenset([0x8E, *range(0xA1, 0xFF)])

    def _build(self) -> None:
        jis = index("jis0208")
        self.singles = {}
        pairs: dict[int, str] = {}
        for p in range(94 * 94):
            cp = jis[p]
            if cp is not None:
                pairs[(p // 94 + 0xA1) << 8 | (p % 94 + 0xA1)] = chr(cp)
        for b in range(0xA1, 0xE0):
            pairs[0x8E00 | b] = chr(0xFF61 - 0xA1 + b)
        self.pairs = pairs
        j212 = index("jis0212")
        self.triples = {
            (p // 94 + 0xA1) << 8 | (p % 94 + 0xA1): chr(cp)
            for p, cp in enumerate(j212)
            if cp is not None
        }

    def _spec_long(self) -> dict[bytes, str]:
        out: dict[bytes, str] = {}
        for b2 in range(0x80, 0x100):
            for b3 in range(0x80, 0x100):
                s = self.triples.get(b2 << 8 | b3)
                out[bytes((0x8F, b2, b3))] = s if s is not None else ""
        return out

    def _slow_decode(self, data: bytes, out: Out) -> None:
        # §12.1.1 EUC-JP decoder.
        pairs, triples, leads = self.pairs, self.triples, self._leads
        parts = out.parts
        n = len(data)
        i = 0
        while i < n:
            b = data[i]
            if b < 0x80:
                parts.append(chr(b))
                i += 1
            elif b == 0x8F:
                if i + 1 >= n:
                    out.error(i)
                    break
                b2 = data[i + 1]
                if not 0xA1 <= b2 <= 0xFE:
                    out.error(i)
                    i += 1 if b2 < 0x80 else 2
                    continue
                if i + 2 >= n:
                    out.error(i)
                    break
                b3 = data[i + 2]
                s = triples.get(b2 << 8 | b3)
                if s is not None:
                    parts.append(s)
                    i += 3
                else:
                    out.error(i)
                    i += 2 if b3 < 0x80 else 3
            elif b in leads:
                if i + 1 >= n:
                    out.error(i)
                    break
                t = data[i + 1]
                s = pairs.get(b << 8 | t)
                if s is not None:
                    parts.append(s)
                    i += 2
                else:
                    out.error(i)
                    i += 1 if t < 0x80 else 2
            else:
                out.error(i)
                i += 1

    def _encode_table(self) -> dict[int, str]:
        # §12.1.2 EUC-JP encoder.
        ptrs = first_pointers(index("jis0208"))
        table = {
            cp: bytes((p // 94 + 0xA1, p % 94 + 0xA1)).decode("latin-1")
            for cp, p in ptrs.items()
            if p < 8836
        }
        table[0xA5] = "\\"
        table[0x203E] = "~"
        for cp in range(0xFF61, 0xFFA0):
            table[cp] = "\x8e" + chr(cp - 0xFF61 + 0xA1)
        if 0xFF0D in table:
            table[0x2212] = table[0xFF0D]
        return table


class ISO2022JP(Codec):
    """§12.2 ISO-2022-JP: always the pure-Python state machines (no Python codec agrees)."""

    name = "ISO-2022-JP"
    _ready = False

    def _ensure(self) -> None:
        if self._ready:
            return
        with LOCK:
            if not self._ready:
                self.jis = index("jis0208")
                self.ptrs = {cp: p for cp, p in first_pointers(self.jis).items() if p < 8836}
                self.kana = index("iso-2022-jp-katakana")
                self._ready = True

    def decode(self, data: bytes, fatal: bool) -> str:
        if data.isascii() and not any(c in data for c in b"\x0e\x0f\x1b"):
            return data.decode("ascii")
        self._ensure()
        jis = self.jis
        out = Out(fatal, self.name)
        parts = out.parts
        ASCII, ROMAN, KATAKANA, LEAD, TRAIL, ESC_START, ESC = range(7)
        state = output_state = ASCII
        lead = 0
        output_flag = False
        esc_pos = 0
        n = len(data)
        i = 0
        while True:
            b = data[i] if i < n else -1  # -1 is end-of-queue
            i += 1
            if state in (ASCII, ROMAN, KATAKANA, LEAD):
                if b == 0x1B:
                    state, esc_pos = ESC_START, i - 1
                    continue
                if b == -1:
                    break
                output_flag = False
                if state == ASCII and b <= 0x7F and b not in (0x0E, 0x0F):
                    parts.append(chr(b))
                elif state == ROMAN and b <= 0x7F and b not in (0x0E, 0x0F):
                    parts.append("\u00a5" if b == 0x5C else "\u203e" if b == 0x7E else chr(b))
                elif state == KATAKANA and 0x21 <= b <= 0x5F:
                    parts.append(chr(0xFF61 - 0x21 + b))
                elif state == LEAD and 0x21 <= b <= 0x7E:
                    lead, state = b, TRAIL
                else:
                    out.error(i - 1)
            elif state == TRAIL:
                if b == 0x1B:
                    state, esc_pos = ESC_START, i - 1
                    out.error(i - 2)
                    continue
                state = LEAD
                if 0x21 <= b <= 0x7E:
                    cp = jis[(lead - 0x21) * 94 + b - 0x21]
                    if cp is None:
                        out.error(i - 2)
                    else:
                        parts.append(chr(cp))
                    continue
                out.error(i - 2)
                if b == -1:
                    break
            elif state == ESC_START:
                if b in (0x24, 0x28):
                    lead, state = b, ESC
                    continue
                if b != -1:
                    i -= 1  # restore byte
                output_flag = False
                state = output_state
                out.error(esc_pos)
            else:  # ESC
                lead_b, lead = lead, 0
                new: int | None = None
                if lead_b == 0x28 and b == 0x42:
                    new = ASCII
                elif lead_b == 0x28 and b == 0x4A:
                    new = ROMAN
                elif lead_b == 0x28 and b == 0x49:
                    new = KATAKANA
                elif lead_b == 0x24 and b in (0x40, 0x42):
                    new = LEAD
                if new is not None:
                    state = output_state = new
                    was = output_flag
                    output_flag = True
                    if was:
                        out.error(esc_pos)
                    continue
                i -= 1 if b == -1 else 2  # restore « lead, byte » (or just lead at the end)
                output_flag = False
                state = output_state
                out.error(esc_pos)
        return "".join(parts)

    def encode(self, text: str, html: bool) -> bytes:
        if text.isascii() and not any(c in text for c in "\x0e\x0f\x1b"):
            return text.encode("ascii")
        return b"".join(self._run(text, "html" if html else "fatal"))  # type: ignore[arg-type]

    def segments(self, text: str) -> list[bytes | int]:
        if text.isascii() and not any(c in text for c in "\x0e\x0f\x1b"):
            return [text.encode("ascii")] if text else []
        return self._run(text, "mark")

    def _run(self, text: str, mode: str) -> list[bytes | int]:
        # §12.2.2 ISO-2022-JP encoder; it always ends in the ASCII state.
        self._ensure()
        result: list[bytes | int] = []
        ptrs, kana = self.ptrs, self.kana
        ASCII, ROMAN, JIS = 0, 1, 2
        state = ASCII
        out = bytearray()
        pending: list[int] = []  # code points restored to the input (stack, reversed)
        pos = 0
        n = len(text)
        while True:
            if pending:
                cp = pending.pop()
            elif pos < n:
                cp = ord(text[pos])
                pos += 1
            else:
                break
            err: int | None = None
            if state in (ASCII, ROMAN) and cp in (0x0E, 0x0F, 0x1B):
                err = 0xFFFD  # reported as U+FFFD to prevent attacks
            elif state == ASCII and cp < 0x80:
                out.append(cp)
                continue
            elif state == ROMAN and (
                (cp < 0x80 and cp not in (0x5C, 0x7E)) or cp in (0xA5, 0x203E)
            ):
                out.append(0x5C if cp == 0xA5 else 0x7E if cp == 0x203E else cp)
                continue
            elif cp < 0x80:
                pending.append(cp)
                state = ASCII
                out += b"\x1b(B"
                continue
            elif cp in (0xA5, 0x203E):
                pending.append(cp)
                state = ROMAN
                out += b"\x1b(J"
                continue
            else:
                look = cp
                if look == 0x2212:
                    look = 0xFF0D
                if 0xFF61 <= look <= 0xFF9F:
                    look = kana[look - 0xFF61]  # type: ignore[assignment]
                p = ptrs.get(look)
                if p is None:
                    if state == JIS:
                        pending.append(cp)
                        state = ASCII
                        out += b"\x1b(B"
                        continue
                    err = cp
                elif state != JIS:
                    pending.append(cp)
                    state = JIS
                    out += b"\x1b$B"
                    continue
                else:
                    out += bytes((p // 94 + 0x21, p % 94 + 0x21))
                    continue
            # Error: in html mode "&#N;" is prepended to the input (§7 "process an item").
            if mode == "mark":
                if out:
                    result.append(bytes(out))
                    out.clear()
                result.append(err)
                continue
            if mode == "fatal":
                where = pos - 1
                raise PercentEncodeError(
                    f"U+{ord(text[where]):04X} at index {where} cannot be encoded in "
                    "ISO-2022-JP (use errors='html' for &#N; references)",
                    where,
                )
            pending.extend(reversed([ord(c) for c in f"&#{err};"]))
        if state != ASCII:
            out += b"\x1b(B"
        if out:
            result.append(bytes(out))
        return result
