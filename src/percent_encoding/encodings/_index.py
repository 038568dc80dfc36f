"""The Encoding Standard's indexes (§5), derived from Python's codecs.

Strategy: ``python_index(name)`` reads the index out of the matching Python
codec (one pointer at a time, in the byte layout the Standard's decoder uses
for it); ``index(name)`` applies the generated corrections of
``_data`` and caches the result.  ``_first_pointers`` is §5's "index
pointer" (the first pointer of each code point), which the encoders use.
"""

from __future__ import annotations

import threading
import unicodedata
from collections.abc import Callable

from ._data import (
    INDEX_FIXES,
    INDEX_NULL_RANGES,
    MULTI_BYTE_CODECS,
    SINGLE_BYTE_CODECS,
    SINGLE_BYTE_INDEX,
)


def _fixed(name: str, raw: list[int | None]) -> list[int | None]:
    """Apply the generated corrections to an index derived from a Python codec."""
    for lo, hi in INDEX_NULL_RANGES.get(name, ()):
        for p in range(lo, hi + 1):
            raw[p] = None
    for p, cp in INDEX_FIXES.get(name, {}).items():
        raw[p] = cp
    return raw


def py_char(data: bytes, codec: str) -> int | None:
    try:
        s = data.decode(codec)
    except UnicodeDecodeError:
        return None
    return ord(s) if len(s) == 1 else None


# Pointer -> bytes for the byte layout each index is read with (§10-§13 decoders).
def ptr_sjis(p: int) -> bytes:
    lead, trail = divmod(p, 188)
    return bytes((lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)))


def _ptr_euc_jp_0212(p: int) -> bytes:
    return bytes((0x8F, p // 94 + 0xA1, p % 94 + 0xA1))


def ptr_euc_kr(p: int) -> bytes:
    return bytes((p // 190 + 0x81, p % 190 + 0x41))


def ptr_big5(p: int) -> bytes:
    lead, trail = divmod(p, 157)
    return bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)))


def ptr_gb(p: int) -> bytes:
    lead, trail = divmod(p, 190)
    return bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)))


def ptr_gb4(p: int) -> bytes:
    b1, p = divmod(p, 12600)
    b2, p = divmod(p, 1260)
    b3, b4 = divmod(p, 10)
    return bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))


INDEX_LAYOUT: dict[str, tuple[int, Callable[[int], bytes]]] = {
    "jis0208": (11280, ptr_sjis),
    "jis0212": (8836, _ptr_euc_jp_0212),
    "euc-kr": (23940, ptr_euc_kr),
    "big5": (19782, ptr_big5),
    "gb18030": (23940, ptr_gb),
}


def python_index(name: str) -> list[int | None]:
    """The index ``name`` as Python's codec sees it, *before* corrections (for the tools)."""
    if name == "iso-2022-jp-katakana":
        out: list[int | None] = []
        for i in range(63):
            s = unicodedata.normalize("NFKC", chr(0xFF61 + i))
            out.append(ord(s) if len(s) == 1 else None)
        return out
    if name in MULTI_BYTE_CODECS:
        size, layout = INDEX_LAYOUT[name]
        codec = MULTI_BYTE_CODECS[name]
        return [py_char(layout(p), codec) for p in range(size)]
    for enc_name, idx_name in SINGLE_BYTE_INDEX.items():
        if idx_name == name:
            codec = SINGLE_BYTE_CODECS[enc_name]
            return [py_char(bytes((0x80 + i,)), codec) for i in range(128)]
    raise KeyError(name)


_INDEX_CACHE: dict[str, list[int | None]] = {}
LOCK = threading.RLock()


def index(name: str) -> list[int | None]:
    """The Standard's index ``name`` (e.g. ``"jis0208"``), derived and corrected; cached.

    ``index(name)[pointer]`` is the index code point (§5) or ``None``.
    """
    with LOCK:
        got = _INDEX_CACHE.get(name)
        if got is None:
            got = _INDEX_CACHE[name] = _fixed(name, python_index(name))
        return got


def first_pointers(
    idx: list[int | None], skip: Callable[[int], bool] | None = None
) -> dict[int, int]:
    """§5 "index pointer": the first pointer for each code point."""
    out: dict[int, int] = {}
    for p, cp in enumerate(idx):
        if cp is not None and cp not in out and (skip is None or not skip(p)):
            out[cp] = p
    return out
