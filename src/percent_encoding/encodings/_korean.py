"""The Korean encoding of the Encoding Standard (§13): EUC-KR, a ``_MultiByte``
codec over index EUC-KR (Python's ``cp949`` has the same index).
"""

from __future__ import annotations

from ._base import MultiByte
from ._index import (
    first_pointers,
    index,
    ptr_euc_kr,
)


class EUCKR(MultiByte):
    name = "EUC-KR"
    pycodec = "cp949"
    _leads = frozenset(range(0x81, 0xFF))

    def _build(self) -> None:
        idx = index("euc-kr")
        self.singles = {}
        self.pairs = {
            (p // 190 + 0x81) << 8 | (p % 190 + 0x41): chr(cp)
            for p, cp in enumerate(idx)
            if cp is not None
        }

    def _encode_table(self) -> dict[int, str]:
        # §13.1.2 EUC-KR encoder: first pointer.
        return {
            cp: ptr_euc_kr(p).decode("latin-1")
            for cp, p in first_pointers(index("euc-kr")).items()
        }
