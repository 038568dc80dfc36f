"""The column kernels' UTF-8 check of ``string`` rows (Encoding Standard §8.1.1).

A ``string`` row that is not UTF-8 breaks the Arrow format, and the kernels read it
as the per-string API reads text: ``row.decode("utf-8", "replace")`` first.  The C
kernels check the data a window at a time (the encoders), or the decoded result with
the places where raw bytes meet escapes (the block decoder), instead of each row's
bytes alone; these tests hold every way of checking to the per-string answer, with
bad bytes at every position of a block, at the ends of rows and of the buffer, and
across the windows' edges, for ``string``, ``large_string`` and ``string_view``."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding import form

pa = pytest.importorskip("pyarrow")
from percent_encoding import arrow as A  # noqa: E402

TYPES = ["string", "large_string", "string_view"]

# Byte sequences that are not UTF-8, each a way the check can go wrong.
BAD = [
    b"\x80", b"\xbf",  # a lone continuation byte
    b"\xc3", b"\xe6\x97", b"\xf0\x9f\x98",  # truncated sequences
    b"\xc0\xaf", b"\xc1\xbf", b"\xe0\x80\xaf", b"\xe0\x9f\xbf", b"\xf0\x80\x80\xaf",  # overlong
    b"\xed\xa0\x80", b"\xed\xbf\xbf",  # surrogates encoded in UTF-8
    b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xff", b"\xfe",  # beyond U+10FFFF, never bytes
    b"\xe6\x97\xa5\xa5", b"\xc3\xa9\x80",  # one continuation byte too many
]
GOOD = ["é".encode(), "日".encode(), "😀".encode(), "\U0010ffff".encode(), "\ud7ff".encode(),
        "\ue000".encode(), b"\x7f"]
# where raw bytes meet escapes: raw lead then escaped continuation, and the reverse
JOINS = [b"\xc3%A9", b"%C3\xa9", b"\xe6%97%A5", b"%E6\x97\xa5", b"\xe6\x97%A5", b"%E6%97\xa5",
         b"%C3%A9", b"%E6%97%A5", b"%FF", b"%80"]


def column(rows: list[bytes | None], t: str) -> Any:
    binary = {"string": pa.binary(), "large_string": pa.large_binary(),
              "string_view": pa.binary_view()}[t]
    return pa.array(rows, type=binary).view(getattr(pa, t)())


def text(b: bytes) -> str:
    return b.decode("utf-8", "replace")  # the Encoding Standard's UTF-8 decode


def check_ops(rows: list[bytes | None], t: str, *, plus: bool = False,
              all_ops: bool = True) -> None:
    """Every op on the column gives, row by row, the per-string answer on the text."""
    col = column(rows, t)
    per = [None if r is None else text(r) for r in rows]
    assert A.decode_text(col, plus_as_space=plus).to_pylist() == [
        None if r is None else pe.decode_text(r, plus_as_space=plus) for r in per]
    if not all_ops:
        return
    assert A.decode(col, plus_as_space=plus).to_pylist() == [
        None if r is None else pe.decode(r, plus_as_space=plus) for r in per]
    assert A.encode(col, "path", space_as_plus=plus).to_pylist() == [
        None if r is None else pe.encode(r, "path", space_as_plus=plus) for r in per]
    assert A.form_get(col, "a").to_pylist() == [None if r is None else dict(
        reversed(form.parse(r, strip_leading_question_mark=True))).get("a") for r in per]
    assert A.decode_text(col, encoding="windows-1252").to_pylist() == [
        None if r is None else pe.decode_text(r, encoding="windows-1252") for r in per]


@pytest.mark.parametrize("t", TYPES)
def test_one_bad_sequence_at_every_position_of_a_64_byte_window(t: str) -> None:
    rows: list[bytes | None] = []
    for k in range(64):
        for bad in BAD:
            rows.append(b"a" * k + bad + b"b" * (64 - k))
            rows.append(b"%41" * (k % 5) + b"x" * k + bad + "é".encode() * 20)
        for good in GOOD:
            rows.append(b"a" * k + good + b"b" * (64 - k))  # no false alarm
        for j in JOINS:
            rows.append(b"q" * k + j + b"=" + b"r" * (40 - k % 40))
            rows.append("日".encode() * (k // 3) + b"a" * (k % 3) + j)
    check_ops(rows, t)


@pytest.mark.parametrize("t", TYPES)
def test_truncated_at_the_end_of_a_row_and_of_the_buffer(t: str) -> None:
    for cut in (b"\xc3", b"\xe6", b"\xe6\x97", b"\xf0", b"\xf0\x9f", b"\xf0\x9f\x98"):
        for k in (0, 1, 29, 30, 31, 32, 33, 63, 64, 65, 100):
            check_ops([b"a" * k + cut, b"ok", b"a" * k + cut], t)  # the last row ends the data
            check_ops([b"a" * k + cut], t)
            # a character split between two rows: each row alone is not UTF-8
            whole = b"a" * k + "😀".encode() + b"z"
            for s in range(k + 1, k + 4):
                check_ops([whole[:s], whole[s:]], t)


@pytest.mark.parametrize("t", ["string", "large_string"])
def test_bad_bytes_across_many_windows(t: str) -> None:
    # more data than several of the kernels' 16 KiB windows, a bad byte now and then,
    # so windows end at bad bytes and rows straddle their edges; sliced, so the
    # first offset is not 0
    rows: list[bytes | None] = []
    for i in range(6000):
        r = (b"/p?q=" + b"%E6%97%A5" * (i % 3) + "日本".encode() * (i % 4) + b"&x=" +
             b"v" * (i % 37))
        if i % 97 == 0:
            r = r[:7] + BAD[i % len(BAD)] + r[7:]
        if i % 211 == 0:
            r = r + b"\xe6\x97"  # truncated at the row's end
        rows.append(None if i % 53 == 0 else r)
    check_ops(rows, t)
    col = column(rows, t)
    for s in (1, 4097, 5000):
        part = col.slice(s)
        assert A.decode_text(part).to_pylist() == [
            None if r is None else pe.decode_text(text(r)) for r in rows[s:]]
        assert A.encode(part, "path").to_pylist() == [
            None if r is None else pe.encode(text(r), "path") for r in rows[s:]]


def test_a_null_row_may_hold_bytes_that_are_not_utf8() -> None:
    # a null row's bytes are never read as text, but they lie in the checked data
    data = b"ab\xff\xfecd" + "é".encode()
    offsets = pa.py_buffer(bytes(b"".join(x.to_bytes(4, "little") for x in (0, 2, 4, 6, 8))))
    validity = pa.py_buffer(bytes([0b1011]))
    col = pa.Array.from_buffers(pa.string(), 4, [validity, offsets, pa.py_buffer(data)],
                                null_count=1)
    assert A.decode_text(col).to_pylist() == ["ab", "\ufffd\ufffd", None, "é"]
    bad = pa.Array.from_buffers(pa.string(), 4, [None, offsets, pa.py_buffer(data)])
    assert A.decode_text(bad).to_pylist() == ["ab", "\ufffd\ufffd", "cd", "é"]


def _mostly_ascii(draw: Any) -> bytes:
    n = draw(st.integers(0, 80))
    k = draw(st.integers(0, n))
    body = draw(st.text(st.characters(min_codepoint=0x20, max_codepoint=0x7e), min_size=n,
                        max_size=n)).encode()
    return body[:k] + draw(st.sampled_from(BAD + GOOD + JOINS)) + body[k:]


ROW = st.one_of(
    st.text(max_size=60).map(lambda s: s.encode("utf-8", "surrogatepass")),  # surrogates too
    st.binary(max_size=60),
    st.composite(_mostly_ascii)(),
    st.lists(st.sampled_from(BAD + GOOD + JOINS + [b"a", b"%", b"+", b"&a="]), max_size=20)
    .map(b"".join),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.none(), ROW), max_size=40), st.sampled_from(TYPES),
       st.booleans())
def test_random_rows_match_the_per_string_api(rows: list[bytes | None], t: str,
                                              plus: bool) -> None:
    check_ops(rows, t, plus=plus)


@pytest.mark.one_impl
def test_the_portable_kernels_check_the_same() -> None:
    # without the AVX2 block decoder every op checks the data a window at a time
    try:
        from percent_encoding import _speedups
    except ImportError:
        pytest.skip("the C extension is not built")
    rows: list[bytes | None] = []
    for k in range(0, 64, 3):
        for bad in BAD + JOINS:
            rows.append(b"a" * k + bad + "é".encode() * (k % 7) + b"b" * 20)
    rows = rows * 8  # past a window
    on = _speedups.arrow_set_blocks(False)
    try:
        for t in TYPES:
            check_ops(rows, t)
            check_ops([*rows[:-1], b"z" * 40 + b"\xf0\x9f"], t)
    finally:
        _speedups.arrow_set_blocks(on)
