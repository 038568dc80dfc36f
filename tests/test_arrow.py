"""percent_encoding.arrow: each column function against the per-string API, row by row.

Runs on both kernel twins (the autouse ``impl`` fixture); skips cleanly
without pyarrow.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding import form
from percent_encoding.errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownEncodingError,
)

pa = pytest.importorskip("pyarrow")
from percent_encoding import arrow as A  # noqa: E402

TYPES = ["string", "large_string", "string_view", "binary", "large_binary"]
LARGE = {"large_string", "large_binary"}

# Pieces that reach every branch of the kernels: escapes (valid, bad, split),
# '+', form separators, a leading '?', multi-byte text, raw invalid UTF-8.
PIECES = ["a", "Z", "0", " ", "%", "%2", "%41", "%zz", "%C3%A9", "%E6%97%A5", "%FF", "%C3",
          "%ED%A0%80", "+", "=", "&", "?", "é", "日", "😀", "%25", "%2B", "\ufeff"]
BAD_BYTES = [b"\xff", b"\xc3", b"\xe6\x97", b"\xed\xa0\x80"]


def row_text() -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


def row_bytes() -> st.SearchStrategy[bytes]:
    piece = st.one_of(st.sampled_from(PIECES).map(lambda s: s.encode()), st.sampled_from(BAD_BYTES))
    return st.lists(piece, max_size=12).map(b"".join)


@st.composite
def columns(draw: Any) -> tuple[Any, list[Any]]:
    """(an Arrow column of a random type, possibly sliced or chunked; its rows)."""
    t = draw(st.sampled_from(TYPES))
    binary = "binary" in t
    value = row_bytes() if binary else row_text()
    rows = draw(st.lists(st.one_of(st.none(), value), max_size=20))
    arr = pa.array(rows, type=getattr(pa, t)())
    shape = draw(st.sampled_from(["plain", "slice", "chunked"]))
    if shape == "slice" and rows:
        start = draw(st.integers(0, len(rows)))
        stop = draw(st.integers(start, len(rows)))
        return arr.slice(start, stop - start), rows[start:stop]
    if shape == "chunked":
        cut = draw(st.integers(0, len(rows)))
        return pa.chunked_array([arr.slice(0, cut), arr.slice(cut)], type=arr.type), rows
    return arr, rows


def values(result: Any) -> list[Any]:
    return result.to_pylist()  # type: ignore[no-any-return]


def _per_row(rows: list[Any], f: Any) -> list[Any]:
    return [None if r is None else f(r) for r in rows]


@settings(max_examples=150, deadline=None)
@given(columns(), st.booleans(), st.sampled_from(["utf-8", "windows-1252", "shift_jis"]))
def test_decode_text_matches_per_string(col: Any, plus: bool, encoding: str) -> None:
    arr, rows = col
    got = values(A.decode_text(arr, encoding=encoding, plus_as_space=plus))
    assert got == _per_row(rows, lambda r: pe.decode_text(r, encoding=encoding, plus_as_space=plus))


def _strict_or_none(r: Any, encoding: str, plus: bool) -> Any:
    try:
        return pe.decode_text(r, encoding=encoding, plus_as_space=plus, errors="strict")
    except TextDecodeError:
        return None


@settings(max_examples=100, deadline=None)
@given(columns(), st.booleans(), st.sampled_from(["utf-8", "euc-jp"]))
def test_decode_text_errors_null(col: Any, plus: bool, encoding: str) -> None:
    arr, rows = col
    got = values(A.decode_text(arr, encoding=encoding, plus_as_space=plus, errors="null"))
    assert got == _per_row(rows, lambda r: _strict_or_none(r, encoding, plus))


@settings(max_examples=100, deadline=None)
@given(columns())
def test_decode_text_errors_strict_names_row_and_offset(col: Any) -> None:
    arr, rows = col
    first_bad = None
    for i, r in enumerate(rows):
        if r is None:
            continue
        try:
            pe.decode_text(r, errors="strict")
        except TextDecodeError as e:
            first_bad = (i, e.position)
            break
    if first_bad is None:
        assert values(A.decode_text(arr, errors="strict")) == _per_row(rows, pe.decode_text)
        return
    with pytest.raises(TextDecodeError) as info:
        A.decode_text(arr, errors="strict")
    assert info.value.row == first_bad[0]  # type: ignore[attr-defined]
    assert info.value.position == first_bad[1]
    assert f"row {first_bad[0]}" in str(info.value)


# Where decoded escapes meet raw multi-byte text: a run of escapes that stops
# inside a sequence, a raw character right after or before it, a run split by a
# '+' or a bad '%', a surrogate or overlong form made of escapes.
RUN_EDGES = ["%C3\u00e9", "\u00e9%A9", "%C3%A9\u00e9", "%E6%97\u00e9", "a%F0%9F%98%80b",
             "%F0%9F%98\u00e9%80", "%C3+%A9", "%C3%zz", "%E6%97%A5%E6%9C", "\u65e5%E6%97%A5",
             "%ED%A0%80\u65e5", "%C0%80", "%F4%90%80%80", "%EF%BB%BF\ufeff", "\U0001f600%9F",
             "x%C3", "%C3", "%A9\u00e9", "100%\u00e9%C3%A9"]


@pytest.mark.parametrize("t", ["string", "large_string", "string_view", "binary"])
@pytest.mark.parametrize("errors", ["replace", "null"])
def test_decode_text_escape_runs_next_to_raw_text(t: str, errors: str) -> None:
    rows = [r.encode() if "binary" in t else r for r in RUN_EDGES]
    arr = pa.array(rows, type=getattr(pa, t)())
    for plus in (False, True):
        got = values(A.decode_text(arr, plus_as_space=plus, errors=errors))  # type: ignore[arg-type]
        if errors == "null":
            assert got == [_strict_or_none(r, "utf-8", plus) for r in rows]
        else:
            assert got == [pe.decode_text(r, plus_as_space=plus) for r in rows]


@pytest.mark.parametrize("t", ["string", "large_string"])
def test_decode_text_rows_end_where_the_next_escape_starts(t: str) -> None:
    # Plain rows of every length up to 40 (the kernel reads plain runs 16 bytes at
    # a time, reaching into the next row), each followed by a row that starts with
    # an escape or '+', and plain runs of every length between escapes and '+':
    # a row's end is never taken for part of its text.
    rows: list[Any] = []
    text = "abcdefghijklmnopqrstuvwxyz0123456789ABCDE"
    for n in range(41):
        rows += [text[:n], "%41+b", "+%C3%A9", "%", "é" * (n % 4),
                 "%41" + text[:n] + "+" + text[n:] + "%", text[:n] + "%E6%97%A5" + text[:n]]
    arr = pa.array(rows, type=getattr(pa, t)())
    for plus in (False, True):
        want = [pe.decode_text(r, plus_as_space=plus) for r in rows]
        assert values(A.decode_text(arr, plus_as_space=plus)) == want
        assert values(A.decode_text(arr.slice(3), plus_as_space=plus)) == want[3:]
        assert values(A.decode_text(arr.slice(0, 50), plus_as_space=plus)) == want[:50]


# The C kernel decodes a string column's rows 32 bytes at a time with AVX2
# where the CPU has it (arrow_simd.c), and byte by byte elsewhere.  Both must
# give the same rows; the tests below run the block decoder against the
# portable one, and against the per-string decoder at every block offset.
def _speedups() -> Any:
    try:
        from percent_encoding import _speedups
    except ImportError:
        pytest.skip("the C extension is not built")
    if not _speedups.arrow_set_blocks(True):
        _speedups.arrow_set_blocks(False)
        pytest.skip("this CPU has no AVX2: only the portable decoder runs here")
    return _speedups


@st.composite
def long_string_columns(draw: Any) -> tuple[Any, list[Any]]:
    """Rows of up to 60 pieces (several 16-byte blocks), sliced at random."""
    rows = draw(st.lists(st.one_of(st.none(), st.lists(st.sampled_from(PIECES), max_size=60)
                                   .map("".join)), max_size=12))
    t = draw(st.sampled_from(["string", "large_string", "string_view"]))
    arr = pa.array(rows, type=getattr(pa, t)())
    start = draw(st.integers(0, len(rows)))
    return arr.slice(start), rows[start:]


@pytest.mark.one_impl
@settings(max_examples=300, deadline=None)
@given(long_string_columns(), st.booleans(), st.sampled_from(["replace", "null"]))
def test_block_decoder_matches_portable_decoder(col: Any, plus: bool, errors: str) -> None:
    sp = _speedups()
    arr, rows = col
    try:
        blocks = values(A.decode_text(arr, plus_as_space=plus, errors=errors))  # type: ignore[arg-type]
        sp.arrow_set_blocks(False)
        portable = values(A.decode_text(arr, plus_as_space=plus, errors=errors))  # type: ignore[arg-type]
    finally:
        sp.arrow_set_blocks(True)
    assert blocks == portable
    if errors == "null":
        assert blocks == _per_row(rows, lambda r: _strict_or_none(r, "utf-8", plus))
    else:
        assert blocks == _per_row(rows, lambda r: pe.decode_text(r, plus_as_space=plus))


@st.composite
def long_byte_columns(draw: Any) -> tuple[Any, list[Any]]:
    """Rows of up to 60 pieces, raw bytes that are not UTF-8 among them in the
    binary types, sliced at random."""
    t = draw(st.sampled_from(["string", "large_string", "string_view", "binary",
                              "large_binary"]))
    piece = st.sampled_from(PIECES).map(str.encode)
    if "binary" in t:
        piece = st.one_of(piece, st.sampled_from(BAD_BYTES))
    rows = draw(st.lists(st.one_of(st.none(), st.lists(piece, max_size=60).map(b"".join)),
                         max_size=12))
    if "binary" not in t:
        rows = [None if r is None else r.decode() for r in rows]
    arr = pa.array(rows, type=getattr(pa, t)())
    start = draw(st.integers(0, len(rows)))
    return arr.slice(start), rows[start:]


@pytest.mark.one_impl
@settings(max_examples=200, deadline=None)
@given(long_byte_columns(), st.booleans())
def test_block_decoder_decodes_to_bytes_like_the_portable_decoder(col: Any, plus: bool) -> None:
    """decode (to bytes) uses the block decoder on every column type, whatever
    its UTF-8 check says."""
    sp = _speedups()
    arr, rows = col
    try:
        blocks = values(A.decode(arr, plus_as_space=plus))
        sp.arrow_set_blocks(False)
        portable = values(A.decode(arr, plus_as_space=plus))
    finally:
        sp.arrow_set_blocks(True)
    assert blocks == portable == _per_row(rows, lambda r: pe.decode(r, plus_as_space=plus))


def _tight_column(rows: list[str], view: bool) -> Any:
    """A string column whose data buffer ends right after its last row (a bytes
    object's own memory, which AddressSanitizer bounds under tools/asan.sh):
    the block decoders read ahead of a row only within that buffer."""
    data = "".join(rows).encode()
    offsets, at = [0], 0
    for r in rows:
        at += len(r.encode())
        offsets.append(at)
    if not view:
        offs = pa.py_buffer(b"".join(o.to_bytes(4, "little") for o in offsets))
        return pa.StringArray.from_buffers(len(rows), offs, pa.py_buffer(data))
    views = b""
    for a, b in itertools.pairwise(offsets):
        n = b - a
        if n <= 12:
            views += n.to_bytes(4, "little") + data[a:b].ljust(12, b"\0")
        else:
            views += n.to_bytes(4, "little") + data[a:a + 4] + bytes(4) + a.to_bytes(4, "little")
    return pa.Array.from_buffers(pa.string_view(), len(rows),
                                 [None, pa.py_buffer(views), pa.py_buffer(data)])


@pytest.mark.parametrize("view", [False, True])
def test_block_decoder_reads_stay_in_the_buffers(view: bool) -> None:
    # Rows of every length up to 70 at the end of the data, ending in an escape,
    # a cut-short escape or text, after a long row (so earlier rows have room).
    for n in range(71):
        for end in ("", "%", "%4", "%41", "%C3%A9", "\u00e9", "+"):
            last = ("ab%2F" * 20)[:n] + end
            rows = ["x%41" * 20, last]
            col = _tight_column(rows, view)
            for plus in (False, True):
                want = [pe.decode_text(r, plus_as_space=plus) for r in rows]
                assert values(A.decode_text(col, plus_as_space=plus)) == want
                raw = [pe.decode(r, plus_as_space=plus) for r in rows]
                assert values(A.decode(col, plus_as_space=plus)) == raw


# Escape runs that are whole UTF-8, cut short, or never UTF-8 (surrogate,
# overlong, above U+10FFFF, a stray continuation byte), after every length of
# prefix, so that each run crosses a 16-byte block edge at every point, and
# then the row's end or more text.  The result must be UTF-8 exactly when each
# run is: the block decoder checks the runs as it goes.
UTF8_RUNS = ["%F0%90%80%80", "%F0%90%80", "%F0%90", "%F0", "%E6%97%A5", "%E6%97", "%E6",
             "%C3%A9", "%C3", "%A9", "%80%80", "%ED%A0%80", "%ED%9F%BF", "%E0%80%80",
             "%E0%A0%80", "%F4%8F%BF%BF", "%F4%90%80%80", "%C0%80", "%C2%80", "%F5%80%80%80",
             "%E6%97%A5%C3", "%41%C3%A9%42", "%DF%BF%DF"]
UTF8_AFTER = ["", "x", "xyz", "\u00e9", "%41", "%", "%4", "abcdefghijklmnopqr", "%C3%A9", "%A9"]


@pytest.mark.parametrize("errors", ["replace", "null"])
def test_decode_text_utf8_runs_at_every_block_offset(errors: str) -> None:
    rows = [lead + run + after
            for n in range(68)
            for lead in ("a" * n, "%41" * (n // 3) + "b" * (n % 3))
            for run in UTF8_RUNS for after in UTF8_AFTER]
    if errors == "null":
        want = [_strict_or_none(r, "utf-8", False) for r in rows]
    else:
        want = [pe.decode_text(r) for r in rows]
    bad = [w is None or "\ufffd" in w for w in want]
    assert any(bad) and not all(bad)
    arr = pa.array(rows)
    assert values(A.decode_text(arr, errors=errors)) == want  # type: ignore[arg-type]
    assert values(A.decode_text(arr.slice(1), errors=errors)) == want[1:]  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(columns(), st.booleans())
def test_decode_matches_per_string(col: Any, plus: bool) -> None:
    arr, rows = col
    got = values(A.decode(arr, plus_as_space=plus))
    assert got == _per_row(rows, lambda r: pe.decode(r, plus_as_space=plus))


@settings(max_examples=100, deadline=None)
@given(columns(),
       st.sampled_from(["component", "path", "query", "application/x-www-form-urlencoded"]),
       st.booleans())
def test_encode_matches_per_string(col: Any, encode_set: str, plus: bool) -> None:
    arr, rows = col
    got = values(A.encode(arr, encode_set, space_as_plus=plus))
    assert got == _per_row(rows, lambda r: pe.encode(r, encode_set, space_as_plus=plus))


def _form_get(r: Any, name: str, encoding: str) -> Any:
    for n, v in form.parse(r, encoding=encoding, strip_leading_question_mark=True):
        if n == name:
            return v
    return None


@settings(max_examples=100, deadline=None)
@given(columns(), st.sampled_from(["a", "", "é", "a b", "=", "?a"]),
       st.sampled_from(["utf-8", "windows-1252"]))
def test_form_get_matches_form_parse(col: Any, name: str, encoding: str) -> None:
    arr, rows = col
    got = values(A.form_get(arr, name, encoding=encoding))
    assert got == _per_row(rows, lambda r: _form_get(r, name, encoding))


@settings(max_examples=100, deadline=None)
@given(columns(), st.sampled_from(["utf-8", "windows-1252"]))
def test_form_parse_matches_form_parse(col: Any, encoding: str) -> None:
    arr, rows = col
    got = values(A.form_parse(arr, encoding=encoding))
    want = _per_row(rows, lambda r: [
        {"name": n, "value": v}
        for n, v in form.parse(r, encoding=encoding, strip_leading_question_mark=True)
    ])
    assert got == want


def test_examples_a_wrong_kernel_would_get_wrong() -> None:
    arr = pa.array(["?utm_source=a%20b&utm_source=2", "%FFx", None, "", "a+b%2B"])
    assert values(A.form_get(arr, "utm_source")) == ["a b", None, None, None, None]
    assert values(A.decode_text(arr, plus_as_space=True)) == [
        "?utm_source=a b&utm_source=2", "\ufffdx", None, "", "a b+"]
    assert values(A.decode_text(arr, errors="null")) == [
        "?utm_source=a b&utm_source=2", None, None, "", "a+b+"]
    with pytest.raises(TextDecodeError, match="row 1") as info:
        A.decode_text(arr, errors="strict")
    assert info.value.position == 0
    # a slice: row numbers and the validity bitmap count from the slice's start
    with pytest.raises(TextDecodeError, match="row 0"):
        A.decode_text(arr.slice(1), errors="strict")
    assert values(A.decode(arr.slice(3))) == [b"", b"a+b+"]


def test_result_types() -> None:
    assert A.decode_text(pa.array(["a"])).type == pa.string()
    assert A.decode_text(pa.array(["a"], pa.large_binary())).type == pa.large_string()
    assert A.decode(pa.array(["a"], pa.string_view())).type == pa.binary()
    assert A.decode(pa.array(["a"], pa.large_string())).type == pa.large_binary()
    chunked = A.encode(pa.chunked_array([["a b"], ["c"]]))
    assert isinstance(chunked, pa.ChunkedArray) and chunked.num_chunks == 2
    assert A.form_parse(pa.array(["a=1"])).type == pa.list_(
        pa.struct([("name", pa.string()), ("value", pa.string())]))


def test_bad_arguments() -> None:
    arr = pa.array(["a"])
    with pytest.raises(PercentEncodingTypeError):
        A.decode_text([1, 2])
    with pytest.raises(PercentEncodingTypeError):
        A.decode_text(pa.array([1, 2]))
    with pytest.raises(PercentEncodingError):
        A.decode_text(arr, errors="fatal-ish")  # type: ignore[arg-type]
    with pytest.raises(UnknownEncodingError):
        A.decode_text(arr, encoding="no-such-encoding")
    with pytest.raises(PercentEncodingTypeError):
        A.decode(arr, plus_as_space=1)  # type: ignore[arg-type]
    with pytest.raises(KeyError):
        A.encode(arr, "no-such-set")
    with pytest.raises(PercentEncodingTypeError):
        A.form_get(arr, b"a")  # type: ignore[arg-type]


def test_polars_series_round_trip() -> None:
    pl = pytest.importorskip("polars")
    s = pl.Series("url", ["a%20b", None, "%E6%97%A5"])
    out = A.decode_text(s)
    back = pl.Series(out)
    assert back.to_list() == ["a b", None, "日"]


@pytest.mark.slow  # the full tier (./dev test); the quick tier leaves it out
def test_large_column_across_threads(impl: str) -> None:
    """Long columns are split across threads (C twin): the join keeps row order,
    offsets, nulls and the first strict failure."""
    from percent_encoding import _kernels

    # (the C twin's threads take parts of 65,536 rows or more; the pure twin, on one
    # thread, checks the same shapes on a tenth of the rows)
    size = 300_000 if impl == "c" else 30_000
    rows = [None if i % 97 == 0 else f"r{i}%41%{'FF' if i % 1009 == 0 else '42'}/%E6%97%A5"
            for i in range(size)]
    arr = pa.array(rows).slice(3)
    rows = rows[3:]
    setter = getattr(_kernels.kernels, "arrow_set_threads", None)
    old = setter(2) if setter is not None else None
    try:
        got = A.decode_text(arr, errors="null")
        assert values(got) == [None if r is None else _strict_or_none(r, "utf-8", False)
                               for r in rows]
        first_bad = next(i for i, r in enumerate(rows) if r is not None and "%FF" in r)
        with pytest.raises(TextDecodeError) as info:
            A.decode_text(arr, errors="strict")
        assert info.value.row == first_bad  # type: ignore[attr-defined]
        assert values(A.encode(arr)) == [None if r is None else pe.encode(r) for r in rows]
        # string_view rows (inline up to 12 bytes, else in a data buffer): the parts are
        # sized from the views' lengths, so the threaded run and its join are the same
        view = arr.cast(pa.string_view()).slice(5)
        assert values(A.decode_text(view, errors="null")) == values(got)[5:]
        assert values(A.encode(view)) == [None if r is None else pe.encode(r) for r in rows[5:]]
        at = size * 14 // 15 + 1  # 280,001: a later round
        late = pa.array(["ok%41"] * at + ["%FF"] + [None] * 9)
        with pytest.raises(TextDecodeError) as info:
            A.decode_text(late, errors="strict")
        assert info.value.row == at  # type: ignore[attr-defined]
        assert values(A.decode_text(late, errors="null"))[at - 1:at + 2] == ["okA", None, None]
        # raw bytes that are not UTF-8 triple in size as U+FFFD: a part outgrows its region
        raw = pa.array([b"\xff\xfe" * 20] * size, type=pa.binary())
        assert values(A.decode_text(raw))[::size // 10 - 1] == ["\ufffd" * 40] * 11
    finally:
        if setter is not None:
            setter(old)


@st.composite
def threaded_columns(draw: Any) -> tuple[Any, list[Any]]:
    """A column long enough to be split across threads (65,536 rows or more in a
    chunk): a few random rows of any input type, tiled, then sliced."""
    t = draw(st.sampled_from(TYPES))
    value = row_bytes() if "binary" in t else row_text()
    pool = draw(st.lists(st.one_of(st.none(), value), min_size=1, max_size=9))
    n = draw(st.integers(65_536, 120_000))
    rows = (pool * (n // len(pool) + 1))[:n]
    start = draw(st.integers(0, 20))
    return pa.array(rows, type=getattr(pa, t)()).slice(start), rows[start:]


_THREAD_OPS: list[tuple[str, dict[str, Any]]] = [
    ("decode_text", {}), ("decode_text", {"errors": "null", "plus_as_space": True}),
    ("decode_text", {"errors": "strict"}), ("decode_text", {"encoding": "windows-1252"}),
    ("decode", {}), ("encode", {}), ("encode", {"encode_set": "path", "space_as_plus": True}),
    ("form_get", {"name": "a"}),
]


def _run(f: Any, arr: Any, kwargs: dict[str, Any], views: bool) -> Any:
    try:
        return A._with_views(f, arr, **kwargs) if views else f(arr, **kwargs)
    except TextDecodeError as e:
        return ("strict", e.row)  # type: ignore[attr-defined]


@pytest.mark.one_impl
@settings(max_examples=40, deadline=None)
@given(threaded_columns(), st.sampled_from(_THREAD_OPS), st.booleans(), st.sampled_from([2, 3]))
def test_threaded_runs_match_one_thread(col: Any, op: tuple[str, dict[str, Any]], views: bool,
                                        threads: int) -> None:
    """Two threads (part 0 written back to front so that it ends where part 1
    begins) and three (parts joined after each round) give the one-thread
    result to the byte: the same buffers (offsets from 0, no unused bytes
    before the first row or between the parts), and under errors="strict" the
    same first bad row."""
    from percent_encoding import _kernels

    setter = getattr(_kernels.kernels, "arrow_set_threads", None)
    if setter is None:
        pytest.skip("the pure twin runs on one thread")
    arr, _rows = col
    f = getattr(A, op[0])
    old = setter(1)
    try:
        one = _run(f, arr, op[1], views)
        setter(threads)
        many = _run(f, arr, op[1], views)
    finally:
        setter(old)
    if isinstance(one, tuple):
        assert many == one
        return
    assert not isinstance(many, tuple)
    many.validate(full=True)
    assert many.type == one.type
    assert many.null_count == one.null_count
    assert _buffers(many) == _buffers(one)
    assert values(many) == values(one)


def _buffers(a: Any) -> list[bytes | None]:
    return [None if b is None else b.to_pybytes() for b in a.buffers()]


def test_two_threads_when_part_0_outgrows_its_input_a_little(impl: str) -> None:
    """A raw byte that is not UTF-8 turns into U+FFFD (3 bytes): one such row in the
    first half makes that half's output 2 bytes longer than its input, which its
    blocks' room absorbs but the space reserved below them does not.  The run must
    notice before the first block (rows 0-2047) would be written below the
    buffer's start, and give the one-thread result (tools/asan.sh reports the
    write below the buffer if the check is taken out)."""
    from percent_encoding import _kernels

    setter = getattr(_kernels.kernels, "arrow_set_threads", None)
    rows = [b"abc"] * 70_000  # no escapes: every other row is as long decoded
    rows[30_000] = b"x\xffy"
    arr = pa.array(rows, type=pa.binary())
    old = setter(2) if setter is not None else None
    try:
        got = A.decode_text(arr)
        viewed = A._with_views(A.decode_text, arr)
    finally:
        if setter is not None:
            setter(old)
    got.validate(full=True)
    expected = ["abc"] * 70_000
    expected[30_000] = "x\ufffdy"
    assert values(got) == values(viewed) == expected


def test_c_result_exports_capsules_without_pyarrow_objects(impl: str) -> None:
    """What the C kernel returns before pyarrow wraps it: the PyCapsule interface."""
    if impl != "c":
        pytest.skip("the C twin's own result object")
    from percent_encoding import _speedups as S

    col = S.arrow_map(pa.array(["a%20b", None]), "decode_text", None, False, "replace", False)
    assert type(col).__name__ == "ArrowColumn"
    schema, array = col.__arrow_c_array__()
    assert pa.array(col).to_pylist() == ["a b", None]
    assert pa.chunked_array(col).to_pylist() == ["a b", None]
    assert pa.DataType._import_from_c_capsule(col.__arrow_c_schema__()) == pa.string()
    del schema, array  # unconsumed capsules release themselves
    # a strict failure names the row instead of building a column
    failed = S.arrow_map(pa.array(["ok", "%FF"]), "decode_text", None, False, "strict", False)
    assert failed == (1, "%FF")


# -- view-typed results (what the Polars adapter asks for) -----------------

_VIEW_OPS: list[tuple[str, dict[str, Any]]] = [
    ("decode_text", {}), ("decode_text", {"errors": "null", "plus_as_space": True}),
    ("decode_text", {"encoding": "windows-1252"}), ("decode", {}), ("encode", {}),
    ("form_get", {"name": "a"}),
]


def _check_views(plain: Any, views: Any, input_type: Any) -> None:
    """views holds plain's rows, typed string_view/binary_view unless the input
    had 64-bit offsets, and is valid Arrow (views within their data buffer)."""
    chunks = views.chunks if isinstance(views, pa.ChunkedArray) else [views]
    for chunk in chunks:
        chunk.validate(full=True)
    if str(input_type) in LARGE:
        assert views.type == plain.type
    else:
        assert views.type == {pa.string(): pa.string_view(),
                              pa.binary(): pa.binary_view()}[plain.type]
    assert values(views) == values(plain)


@settings(max_examples=100, deadline=None)
@given(columns(), st.sampled_from(_VIEW_OPS))
def test_view_results_hold_the_same_rows(col: Any, op: tuple[str, dict[str, Any]]) -> None:
    arr, _rows = col
    f = getattr(A, op[0])
    _check_views(f(arr, **op[1]), A._with_views(f, arr, **op[1]), arr.type)


@pytest.mark.slow  # the full tier (./dev test); the quick tier leaves it out
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_view_results_inline_short_rows_and_join_threads(impl: str, threads: int) -> None:
    """Rows of 12 bytes or fewer sit inside their view, longer ones point into the
    data; a threaded run (C twin) shifts each part's views when it joins the parts."""
    from percent_encoding import _kernels

    if impl == "python" and threads > 1:
        pytest.skip("the pure twin runs on one thread: threads=1 is the same run")
    pieces = ["%41" * k for k in range(16)] + ["%E6%97%A5" * 4, "%FF%FE", None, ""]
    size = 300_000 if impl == "c" else 30_000  # (the pure twin: one thread, the same shapes)
    rows = [pieces[i % len(pieces)] if i % 7 else f"row{i}-%41%42" for i in range(size)]
    arr = pa.array(rows).slice(11)
    setter = getattr(_kernels.kernels, "arrow_set_threads", None)
    old = setter(threads) if setter is not None else None
    try:
        for errors in ("replace", "null"):
            _check_views(A.decode_text(arr, errors=errors),
                         A._with_views(A.decode_text, arr, errors=errors), arr.type)
        _check_views(A.encode(arr), A._with_views(A.encode, arr), arr.type)
        big = pa.array([b"\xff\xfe" * 8] * (size * 2 // 3), type=pa.binary())  # grows 3x
        _check_views(A.decode_text(big), A._with_views(A.decode_text, big), big.type)
    finally:
        if setter is not None:
            setter(old)


def test_view_results_of_an_empty_stream(impl: str) -> None:
    empty = pa.chunked_array([], type=pa.string())
    assert A._with_views(A.decode_text, empty).type == pa.string_view()
    assert A._with_views(A.decode, empty).type == pa.binary_view()
    assert A.decode_text(empty).type == pa.string()


def test_views_end_with_the_call() -> None:
    """The view setting holds inside _with_views only, also when the call raises."""
    arr = pa.array(["a%20b"])
    with pytest.raises(TextDecodeError):
        A._with_views(A.decode_text, pa.array(["%FF"]), errors="strict")
    assert A.decode_text(arr).type == pa.string()
    assert A._with_views(A.decode_text, arr).type == pa.string_view()


def test_c_view_column_exports_capsules(impl: str) -> None:
    if impl != "c":
        pytest.skip("the C twin's own result object")
    from percent_encoding import _speedups as S

    col = S.arrow_map(pa.array(["a%20b", None, "x" * 13 + "%41"]), "decode_text", None, False,
                      "replace", True)
    assert pa.DataType._import_from_c_capsule(col.__arrow_c_schema__()) == pa.string_view()
    out = pa.array(col)
    out.validate(full=True)
    assert out.to_pylist() == ["a b", None, "x" * 13 + "A"]
    pl = pytest.importorskip("polars")
    assert pl.Series(col).to_list() == ["a b", None, "x" * 13 + "A"]


@pytest.mark.one_impl
def test_without_pyarrow_the_c_twin_returns_a_capsule_column() -> None:
    """No pyarrow at run time: a Polars column in, a capsule-exporting column out,
    which Polars imports again."""
    pytest.importorskip("polars")
    from helpers.twins import C_KERNELS

    if C_KERNELS is None:
        pytest.skip("the C twin is not built")
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['pyarrow'] = None\n"
        "import polars as pl\n"
        "from percent_encoding import arrow\n"
        "out = arrow.decode_text(pl.Series(['a%20b', None, '%FF']), errors='null')\n"
        "assert type(out).__name__ == 'ArrowColumn', type(out)\n"
        "print(pl.Series(out).to_list())\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['a b', None, None]"


def test_c_columns_do_not_leak(impl: str) -> None:
    """Each result's buffers are freed with it, through pyarrow or not, on
    success and on a strict failure (RSS over 400 calls of ~1 MB results)."""
    if impl != "c":
        pytest.skip("the C twin's buffers")
    import gc
    import os

    if "asan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("AddressSanitizer keeps freed memory in quarantine: RSS says nothing")

    from percent_encoding import _speedups as S

    arr = pa.array([f"/p%E6%97%A5?q={i}&x=%FF" for i in range(20_000)])

    def rss() -> int:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * 4096

    def work() -> None:
        A.decode_text(arr)
        S.arrow_map(arr, "decode", None, False, "replace", False)
        S.arrow_map(arr, "decode_text", None, False, "strict", False)
        col = S.arrow_map(arr, "encode", pe.sets.get("path").table, False, "replace", False)
        col.__arrow_c_stream__()  # an unconsumed stream capsule releases itself
        pa.array(S.arrow_map(arr, "decode_text", None, False, "replace", True))  # views

    for _ in range(20):
        work()
    gc.collect()
    before = rss()
    for _ in range(100):
        work()
    gc.collect()
    assert rss() - before < 30 * 2**20
