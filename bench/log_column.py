"""The synthetic log column of the column benchmarks (``bench_arrow.py``, ``bench_columns.py``).

URLs and queries of about 60 bytes: ~30% of the elements are ``%XX`` escapes (1- to
4-byte UTF-8), some rows end in an invalid ``%``, ~2% decode to bytes that are not
UTF-8, ~1% are null.  The column tiles a pool of distinct rows (a few ms per million
rows, and no Python object per row of the whole column: the peak-memory measures
depend on it).  Each benchmark keeps its own pieces, so its published numbers keep
their column.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pyarrow as pa


def make_row(rng: random.Random, plain: Sequence[str], escaped: Sequence[str], *,
             size: int, query_share: float, separators: str) -> str | None:
    if rng.random() < 0.01:
        return None
    parts = ["/", rng.choice(plain), "?" if query_share >= 1 or rng.random() < query_share else "/"]
    n = 2
    while n < size:
        if rng.random() < 0.3:
            e = rng.choice(escaped)
        else:
            e = rng.choice(plain) + rng.choice(separators)
        parts.append(e)
        n += len(e)
    if rng.random() < 0.05:
        parts.append("%zz" if rng.random() < 0.5 else "100%")  # invalid escapes stay
    if rng.random() < 0.02:
        parts.append("%FF%C3")  # decoded bytes that are not UTF-8
    return "".join(parts)


def make_column(rows: int, plain: Sequence[str], escaped: Sequence[str], *, pool: int,
                size: int, query_share: float, separators: str, seed: int = 1) -> Any:
    """``rows`` rows tiled from ``pool`` distinct ones, as one pyarrow ``string`` array."""
    rng = random.Random(seed)
    distinct = pa.array([make_row(rng, plain, escaped, size=size, query_share=query_share,
                                  separators=separators) for _ in range(min(pool, rows))],
                        type=pa.string())
    reps, rest = divmod(rows, len(distinct))
    return pa.concat_arrays([distinct] * reps + [distinct.slice(0, rest)])
