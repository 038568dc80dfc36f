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
    _INDEX_FIXES,
    _INDEX_NULL_RANGES,
    _MULTI_BYTE_CODECS,
    _SINGLE_BYTE_CODECS,
    _SINGLE_BYTE_INDEX,
)


def _fixed(name: str, raw: list[int | None]) -> list[int | None]:
    """Apply the generated corrections to an index derived from a Python codec."""
    for lo, hi in _INDEX_NULL_RANGES.get(name, ()):
        for p in range(lo, hi + 1):
            raw[p] = None
    for p, cp in _INDEX_FIXES.get(name, {}).items():
        raw[p] = cp
    return raw


def _py_char(data: bytes, codec: str) -> int | None:
    try:
        s = data.decode(codec)
    except UnicodeDecodeError:
        return None
    return ord(s) if len(s) == 1 else None


# Pointer -> bytes for the byte layout each index is read with (§10-§13 decoders).
def _ptr_sjis(p: int) -> bytes:
    lead, trail = divmod(p, 188)
    return bytes((lead + (0x81 if lead < 0x1F else 0xC1), trail + (0x40 if trail < 0x3F else 0x41)))


def _ptr_euc_jp_0212(p: int) -> bytes:
    return bytes((0x8F, p // 94 + 0xA1, p % 94 + 0xA1))


def _ptr_euc_kr(p: int) -> bytes:
    return bytes((p // 190 + 0x81, p % 190 + 0x41))


def _ptr_big5(p: int) -> bytes:
    lead, trail = divmod(p, 157)
    return bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x62)))


def _ptr_gb(p: int) -> bytes:
    lead, trail = divmod(p, 190)
    return bytes((lead + 0x81, trail + (0x40 if trail < 0x3F else 0x41)))


def _ptr_gb4(p: int) -> bytes:
    b1, p = divmod(p, 12600)
    b2, p = divmod(p, 1260)
    b3, b4 = divmod(p, 10)
    return bytes((b1 + 0x81, b2 + 0x30, b3 + 0x81, b4 + 0x30))


_INDEX_LAYOUT: dict[str, tuple[int, Callable[[int], bytes]]] = {
    "jis0208": (11280, _ptr_sjis),
    "jis0212": (8836, _ptr_euc_jp_0212),
    "euc-kr": (23940, _ptr_euc_kr),
    "big5": (19782, _ptr_big5),
    "gb18030": (23940, _ptr_gb),
}


def python_index(name: str) -> list[int | None]:
    """The index ``name`` as Python's codec sees it, *before* corrections (for the tools)."""
    if name == "iso-2022-jp-katakana":
        out: list[int | None] = []
        for i in range(63):
            s = unicodedata.normalize("NFKC", chr(0xFF61 + i))
            out.append(ord(s) if len(s) == 1 else None)
        return out
    if name in _MULTI_BYTE_CODECS:
        size, layout = _INDEX_LAYOUT[name]
        codec = _MULTI_BYTE_CODECS[name]
        return [_py_char(layout(p), codec) for p in range(size)]
    for enc_name, idx_name in _SINGLE_BYTE_INDEX.items():
        if idx_name == name:
            codec = _SINGLE_BYTE_CODECS[enc_name]
            return [_py_char(bytes((0x80 + i,)), codec) for i in range(128)]
    raise KeyError(name)


_INDEX_CACHE: dict[str, list[int | None]] = {}
_LOCK = threading.RLock()


def index(name: str) -> list[int | None]:
    """The Standard's index ``name`` (e.g. ``"jis0208"``), derived and corrected; cached.

    ``index(name)[pointer]`` is the index code point (§5) or ``None``.
    """
    with _LOCK:
        got = _INDEX_CACHE.get(name)
        if got is None:
            got = _INDEX_CACHE[name] = _fixed(name, python_index(name))
        return got


def _first_pointers(
    idx: list[int | None], skip: Callable[[int], bool] | None = None
) -> dict[int, int]:
    """§5 "index pointer": the first pointer for each code point."""
    out: dict[int, int] = {}
    for p, cp in enumerate(idx):
        if cp is not None and cp not in out and (skip is None or not skip(p)):
            out[cp] = p
    return out
