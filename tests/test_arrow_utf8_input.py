"""The column kernels' UTF-8 check of ``string`` rows (Encoding Standard §8.1.1).

A ``string`` row that is not UTF-8 breaks the Arrow format, and the kernels read it
as the per-string API reads text: ``row.decode("utf-8", "replace")`` first.  The C
kernels check the data a window at a time (encode, decode to bytes, the portable
decoder; view rows in order), the decoded result with the places where raw bytes
meet escapes (the block decoder's decode_text), or a row as it is encoded (a short
view), instead of each row's bytes alone; these tests hold every way of checking to
the per-string answer, with bad bytes at every position of a block, at the ends of
rows and of the buffer, and across the windows' edges, for ``string``,
``large_string`` and ``string_view``."""

from __future__ import annotations

import struct
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


# -- the block-wise UTF-8 check of long stretches ------------------------------
# The C kernels check a string column's data 128 bytes a step (32-byte blocks,
# an all-ASCII step skipped), then 32 bytes a step, the last block overlapping;
# view rows in order share a window, rows out of order are checked one by one,
# and encode checks a row it cannot vouch for as it encodes it.  The pieces below
# land on every side of those edges.

# near-valid sequences: each one byte away from a valid character
NEAR = [b"\xc2\x7f", b"\xdf\xc0", b"\xe0\x9f\x80", b"\xe0\xa0\x7f", b"\xed\x9f\xbf",
        b"\xed\xa0\x80", b"\xee\x80\x80", b"\xf0\x8f\xbf\xbf", b"\xf0\x90\x80\x80",
        b"\xf4\x8f\xbf\xbf", b"\xf4\x90\x80\x80", b"\xf1\x80\x80", b"\xc2", b"\xef\xbf\xbf"]


@st.composite
def _long_row(draw: Any) -> bytes:
    """A row of 0-400 bytes with a (near-)valid sequence placed just before, on or
    just after a 32- or 128-byte edge, in ASCII or in multi-byte text."""
    filler = draw(st.sampled_from([b"a", "é".encode(), "日".encode(), "😀".encode(), b"%41"]))
    edge = draw(st.sampled_from([0, 32, 64, 96, 128, 160, 256, 288, 384]))
    at = max(0, edge + draw(st.integers(-4, 4)))
    body = (filler * (at // len(filler) + 1))[:at]
    piece = draw(st.sampled_from(NEAR + BAD + GOOD + JOINS))
    tail = draw(st.sampled_from([b"", b"z" * draw(st.integers(0, 140)),
                                 "日本".encode() * draw(st.integers(0, 40))]))
    return body + piece + tail


def _expected_bad_rows(rows: list[bytes | None]) -> list[int]:
    bad = []
    for i, r in enumerate(rows):
        if r is not None:
            try:
                r.decode("utf-8")
            except UnicodeDecodeError:
                bad.append(i)
    return bad


def _check_long(rows: list[bytes | None], t: str) -> None:
    check_ops(rows, t)
    # the rows read with U+FFFD (their bytes to binary differ from the raw bytes
    # percent-decoded) are exactly those Python's UTF-8 decode rejects
    got = A.decode(column(rows, t)).to_pylist()
    fixed = [i for i, (r, g) in enumerate(zip(rows, got, strict=True))
             if r is not None and g != pe.decode(r)]
    assert fixed == _expected_bad_rows(rows)


def _levels() -> list[int]:
    """The C kernels' levels (arrow_set_blocks): 2 AVX-512 for the window check
    where the CPU has it, 1 AVX2 only, 0 the portable kernels."""
    try:
        from percent_encoding import _speedups
    except ImportError:
        return [2]
    return [2, 1, 0] if hasattr(_speedups, "arrow_set_blocks") else [2]


def _check_long_at(level: int, rows: list[bytes | None], t: str) -> None:
    if level == 2:
        _check_long(rows, t)
        return
    from percent_encoding import _speedups
    old = _speedups.arrow_set_blocks(level)
    try:
        _check_long(rows, t)
    finally:
        _speedups.arrow_set_blocks(old)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.none(), _long_row()), min_size=1, max_size=60),
       st.sampled_from(TYPES), st.integers(1, 40), st.sampled_from(_levels()))
def test_long_rows_near_valid_sequences_at_block_edges(rows: list[bytes | None], t: str,
                                                       times: int, level: int) -> None:
    # repeated past the 16 KiB window the kernels check at a time; the rows a
    # kernel reads with U+FFFD are exactly those bytes.decode("utf-8") rejects
    _check_long_at(level, rows * times, t)


def test_an_ascii_step_after_a_cut_character_is_still_checked() -> None:
    # a 128-byte all-ASCII step is skipped unless the bytes before it end inside a
    # character: here they do, right where a step starts (the kernels check from a
    # window's start, here the row's: 32 bytes, then 128 a step)
    for t in TYPES:
        for cut in (b"\xc3", b"\xe6\x97", b"\xf0\x9f\x98", b"\xe6"):
            for end in (32, 160, 288):
                for head in (b"x", "\u00e9".encode()):
                    body = (head * end)[:end - len(cut)]
                    row = body + cut + b"a" * 300
                    for level in _levels():
                        _check_long_at(level, [row], t)
                        _check_long_at(level, [row, row, b"", row], t)


def _views_in_order(rows: list[bytes | None], order: list[int]) -> Any:
    """A string_view column of rows[order[0]], rows[order[1]], ...: its long rows'
    views point into one data buffer that holds the rows in their first order."""
    data, at = bytearray(), []
    for r in rows:
        at.append(len(data))
        data += r or b""
    views, validity = bytearray(), 0
    for j, i in enumerate(order):
        r = rows[i]
        if r is None:
            views += bytes(16)
            continue
        validity |= 1 << j
        if len(r) <= 12:
            views += struct.pack("<i", len(r)) + r.ljust(12, b"\0")
        else:
            views += struct.pack("<i4sii", len(r), r[:4], 0, at[i])
    bitmap = pa.py_buffer(validity.to_bytes((len(order) + 7) // 8 or 1, "little"))
    return pa.Array.from_buffers(pa.string_view(), len(order),
                                 [bitmap, pa.py_buffer(bytes(views)), pa.py_buffer(bytes(data))])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.none(), _long_row(), ROW), min_size=2, max_size=80),
       st.randoms(use_true_random=False))
def test_view_rows_out_of_order(rows: list[bytes | None], rnd: Any) -> None:
    # views that point into the data in another order than the rows': each row is
    # checked by itself (a window of the data is only opened for rows in order),
    # and gives the per-string answer
    order = list(range(len(rows)))
    rnd.shuffle(order)
    col = _views_in_order(rows, order)
    per = [rows[i] for i in order]
    assert A.decode(col).to_pylist() == [None if r is None else pe.decode(text(r)) for r in per]
    assert A.decode_text(col).to_pylist() == [
        None if r is None else pe.decode_text(text(r)) for r in per]
    assert A.encode(col, "path").to_pylist() == [
        None if r is None else pe.encode(text(r), "path") for r in per]
    # and the same rows in order, sharing windows
    col = _views_in_order(rows, list(range(len(rows))))
    assert A.decode(col).to_pylist() == [None if r is None else pe.decode(text(r)) for r in rows]


def test_short_view_rows_are_checked_as_they_are_encoded() -> None:
    # a view row of up to 12 bytes lies inline in the view: encode checks it
    # byte by byte as it encodes it
    rows: list[bytes | None] = []
    for bad in BAD + NEAR + GOOD:
        for k in range(0, 13 - len(bad)):
            rows.append(b"a" * k + bad)
            rows.append(bad + b"b" * k)
    for t in TYPES:
        col = column(rows, t)
        assert A.encode(col, "path").to_pylist() == [
            None if r is None else pe.encode(text(r), "path") for r in rows]
        assert A.encode(col, "component", space_as_plus=True).to_pylist() == [
            None if r is None else pe.encode(text(r), "component", space_as_plus=True)
            for r in rows]
