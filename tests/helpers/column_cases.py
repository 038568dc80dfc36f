"""Random columns and the per-string reference, shared by the engine adapter tests
(tests/test_polars.py, test_pandas.py, test_duckdb.py, test_dask.py, test_spark.py).

Rows are built from pieces that reach every branch of the kernels: valid and
invalid escapes, a lone ``%``, ``+``, form separators, a leading ``?``,
multi-byte text, escapes of invalid UTF-8 (``%FF``, a cut sequence, an encoded
surrogate) and, in binary rows, raw bytes that are not UTF-8.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding import form
from percent_encoding.errors import TextDecodeError

PIECES = ["a", "Z", "0", " ", "%", "%2", "%41", "%zz", "%C3%A9", "%E6%97%A5", "%FF", "%C3",
          "%ED%A0%80", "+", "=", "&", "?", "q=", "é", "日", "😀", "%25", "%2B", "%00"]
BAD_BYTES = [b"\xff", b"\xc3", b"\xe6\x97", b"\xed\xa0\x80"]
ENCODINGS = ["utf-8", "windows-1252", "shift_jis"]
SETS = ["component", "path", "query", "application/x-www-form-urlencoded", "userinfo"]
NAMES = ["q", "a", "", "é"]


def row_text() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(PIECES), max_size=10).map("".join)


def row_bytes() -> st.SearchStrategy[bytes]:
    piece = st.one_of(st.sampled_from(PIECES).map(lambda s: s.encode()),
                      st.sampled_from(BAD_BYTES))
    return st.lists(piece, max_size=10).map(b"".join)


def text_rows(max_size: int = 25) -> st.SearchStrategy[list[str | None]]:
    """A column of str rows with nulls and empty strings."""
    return st.lists(st.one_of(st.none(), st.just(""), row_text()), max_size=max_size)


def byte_rows(max_size: int = 25) -> st.SearchStrategy[list[bytes | None]]:
    return st.lists(st.one_of(st.none(), st.just(b""), row_bytes()), max_size=max_size)


def per_row(rows: list[Any], f: Any) -> list[Any]:
    return [None if r is None else f(r) for r in rows]


def strict_or_none(r: Any, **kw: Any) -> Any:
    try:
        return pe.decode_text(r, errors="strict", **kw)
    except TextDecodeError:
        return None


def form_get(r: Any, name: str, encoding: str = "utf-8") -> Any:
    for n, v in form.parse(r, encoding=encoding, strip_leading_question_mark=True):
        if n == name:
            return v
    return None


def form_pairs(r: Any, encoding: str = "utf-8") -> list[dict[str, str]]:
    return [{"name": n, "value": v}
            for n, v in form.parse(r, encoding=encoding, strip_leading_question_mark=True)]
