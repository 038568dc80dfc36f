"""Arrow columns that break the Arrow format: malformed buffers and string rows
that are not UTF-8.  A malformed array raises PercentEncodingError naming the
row (never a crash, never heap bytes in the result); a ``string`` row that is
not UTF-8 reads as the per-string API reads text (U+FFFD, Encoding Standard
§8.1.1), in every op and both twins."""

from __future__ import annotations

import ctypes
import struct
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding as pe
from percent_encoding import form
from percent_encoding.errors import PercentEncodingError

pa = pytest.importorskip("pyarrow")
from percent_encoding import arrow as A  # noqa: E402

# -- a hand-built ArrowArray through the PyCapsule interface -----------------


class _Schema(ctypes.Structure):
    pass


_Schema._fields_ = [
    ("format", ctypes.c_char_p), ("name", ctypes.c_char_p), ("metadata", ctypes.c_char_p),
    ("flags", ctypes.c_int64), ("n_children", ctypes.c_int64),
    ("children", ctypes.c_void_p), ("dictionary", ctypes.c_void_p),
    ("release", ctypes.c_void_p), ("private_data", ctypes.c_void_p),
]


class _Array(ctypes.Structure):
    _fields_ = [
        ("length", ctypes.c_int64), ("null_count", ctypes.c_int64), ("offset", ctypes.c_int64),
        ("n_buffers", ctypes.c_int64), ("n_children", ctypes.c_int64),
        ("buffers", ctypes.c_void_p), ("children", ctypes.c_void_p),
        ("dictionary", ctypes.c_void_p), ("release", ctypes.c_void_p),
        ("private_data", ctypes.c_void_p),
    ]


def _released(p: Any) -> None:
    p.contents.release = None  # the C Data Interface: a released struct has no release


_RELEASE_S = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Schema))(_released)
_RELEASE_A = ctypes.CFUNCTYPE(None, ctypes.POINTER(_Array))(_released)
_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]


class Crafted:
    """An Arrow array exactly as given: format, fields and raw buffers (None: NULL)."""

    def __init__(self, fmt: str, length: int, buffers: list[bytes | None], *,
                 offset: int = 0, null_count: int = 0, n_buffers: int | None = None) -> None:
        self.keep: list[Any] = []
        ptrs = (ctypes.c_void_p * max(1, len(buffers)))()
        for k, b in enumerate(buffers):
            if b is not None:
                cb = ctypes.create_string_buffer(b, len(b))
                self.keep.append(cb)
                ptrs[k] = ctypes.addressof(cb)
        self.keep.append(ptrs)
        self.fmt = fmt.encode()
        self.schema = _Schema(format=self.fmt, release=ctypes.cast(_RELEASE_S, ctypes.c_void_p))
        self.array = _Array(
            length=length, null_count=null_count, offset=offset,
            n_buffers=len(buffers) if n_buffers is None else n_buffers,
            buffers=ctypes.addressof(ptrs), release=ctypes.cast(_RELEASE_A, ctypes.c_void_p))

    def __arrow_c_array__(self, requested_schema: object = None) -> tuple[Any, Any]:
        return (_capsule_new(ctypes.addressof(self.schema), b"arrow_schema", None),
                _capsule_new(ctypes.addressof(self.array), b"arrow_array", None))


def off32(*offsets: int) -> bytes:
    return struct.pack(f"<{len(offsets)}i", *offsets)


def off64(*offsets: int) -> bytes:
    return struct.pack(f"<{len(offsets)}q", *offsets)


def view(length: int, data: bytes = b"", buf: int = 0, off: int = 0) -> bytes:
    if length <= 12:
        return struct.pack("<i", length) + data.ljust(12, b"\0")
    return struct.pack("<i4sii", length, data[:4].ljust(4, b"\0"), buf, off)


OPS: list[Any] = [
    lambda c: A.decode_text(c),
    lambda c: A.decode_text(c, errors="strict"),
    lambda c: A.decode_text(c, encoding="windows-1252"),
    lambda c: A.decode(c),
    lambda c: A.encode(c),
    lambda c: A.form_get(c, "a"),
]

DATA = b"a=1&b=%41%42" * 4  # 48 bytes

MALFORMED_C: list[tuple[str, Crafted, int]] = [
    ("offsets go backwards", Crafted("u", 3, [None, off32(0, 10, 4, 20), DATA]), 1),
    ("an offset beyond the last", Crafted("u", 3, [None, off32(0, 4, 1000, 20), DATA]), 1),
    ("a negative offset inside", Crafted("u", 3, [None, off32(0, -100, 4, 20), DATA]), 0),
    ("a negative first offset", Crafted("u", 2, [None, off32(-8, 4, 20), DATA]), 0),
    ("last below first", Crafted("U", 2, [None, off64(20, 30, 4), DATA]), 0),
    ("large: backwards", Crafted("Z", 3, [None, off64(0, 8, 2, 9), DATA]), 1),
    ("sliced: backwards after the offset",
     Crafted("u", 2, [None, off32(0, 4, 8, 2, 12), DATA], offset=2), 0),
    ("no data buffer", Crafted("u", 2, [None, off32(0, 4, 8), None]), 0),
    ("no offsets buffer", Crafted("u", 2, [None, None, DATA]), 0),
    ("too few buffers", Crafted("u", 2, [None, off32(0, 4, 8)]), 0),
    ("negative length", Crafted("u", -5, [None, off32(0, 4, 8), DATA]), 0),
    ("negative offset", Crafted("u", 1, [None, off32(0, 4, 8), DATA], offset=-1), 0),
    ("nulls but no bitmap", Crafted("u", 2, [None, off32(0, 4, 8), DATA], null_count=1), 0),
    ("null_count above length", Crafted("u", 2, [b"\x03", off32(0, 4, 8), DATA],
                                        null_count=5), 0),
    ("view: buffer index out of range",
     Crafted("vu", 2, [None, view(3, b"abc") + view(20, DATA, buf=1), DATA, off64(48)]), 1),
    ("view: negative buffer index",
     Crafted("vu", 1, [None, view(20, DATA, buf=-1), DATA, off64(48)]), 0),
    ("view: span beyond its buffer",
     Crafted("vu", 2, [None, view(3, b"abc") + view(40, DATA, off=20), DATA, off64(48)]), 1),
    ("view: negative offset", Crafted("vu", 1, [None, view(20, DATA, off=-4), DATA, off64(48)]), 0),
    ("view: negative length", Crafted("vu", 1, [None, struct.pack("<i", -3) + bytes(12), DATA,
                                                off64(48)]), 0),
    ("view: no sizes buffer", Crafted("vu", 1, [None, view(20, DATA), DATA, None]), 0),
]


def _c_twin(impl: str) -> None:
    # The pure twin reads columns through pyarrow, whose import of a
    # hand-built malformed array is pyarrow's own business (it may abort).
    if impl != "c":
        pytest.skip("the hand-built arrays go straight to the C kernels")


@pytest.mark.parametrize("case", MALFORMED_C, ids=[c[0] for c in MALFORMED_C])
@pytest.mark.parametrize("op", range(len(OPS)))
def test_malformed_array_raises_naming_the_row(
        case: tuple[str, Crafted, int], op: int, impl: str) -> None:
    _c_twin(impl)
    _, col, row = case
    with pytest.raises(PercentEncodingError, match=f"malformed Arrow array at row {row}:") as info:
        OPS[op](col)
    assert info.value.row == row  # type: ignore[attr-defined]


@pytest.mark.parametrize("threads", [2, 3])
def test_malformed_row_deep_in_a_threaded_run(threads: int, impl: str) -> None:
    _c_twin(impl)
    n = 200_000
    offsets = list(range(0, 4 * n + 1, 4))
    offsets[150_001] = 10**9  # row 150,000 ends beyond the last offset; row 150,001 goes back
    col = Crafted("u", n, [None, off32(*offsets), b"a%41b" * n])
    old = A.set_threads(threads)
    try:
        for f in (A.decode_text, A.decode, A.encode):
            with pytest.raises(PercentEncodingError, match="at row 150000:"):
                f(col)
    finally:
        A.set_threads(old)


def test_well_formed_crafted_arrays_still_work(impl: str) -> None:
    _c_twin(impl)
    # the same builder, honest buffers: no false alarm (slices, nulls, views, empty data)
    col = Crafted("u", 2, [b"\x02", off32(0, 4, 8, 12), DATA], offset=1, null_count=1)
    assert A.decode_text(col).to_pylist() == [pe.decode_text(DATA[4:8]), None]
    assert A.decode_text(Crafted("u", 2, [None, off32(0, 0, 0), None])).to_pylist() == ["", ""]
    views = Crafted("vu", 2, [None, view(3, b"%41") + view(20, DATA, off=28), DATA, off64(48)])
    assert A.decode_text(views).to_pylist() == ["A", pe.decode_text(DATA[28:48])]
    assert A.decode_text(Crafted("u", 0, [None, None, None])).to_pylist() == []
    # null_count -1 (not computed) with no bitmap: every row is valid
    col = Crafted("u", 1, [None, off32(0, 3), b"%41"], null_count=-1)
    assert A.decode_text(col).to_pylist() == ["A"]


def from_buffers(t: Any, n: int, offsets: bytes, data: bytes) -> Any:
    return pa.Array.from_buffers(t, n, [None, pa.py_buffer(offsets), pa.py_buffer(data)])


MALFORMED_PA: list[tuple[str, Any, Any, int, bytes, int]] = [
    # pyarrow's own from_buffers checks only the last offset against the data's size
    # (the last item: the row both twins name)
    ("decreasing", pa.string, off32, 3, off32(0, 10, 4, 20), 1),
    ("beyond the data", pa.string, off32, 3, off32(0, 4, 1000, 20), 1),
    ("negative inside", pa.string, off32, 3, off32(0, -100, 4, 20), 0),
    ("large: decreasing", pa.large_string, off64, 3, off64(0, 10, 4, 20), 1),
    ("binary: beyond the data", pa.binary, off32, 3, off32(0, 4, 1000, 20), 1),
]


@pytest.mark.parametrize("case", MALFORMED_PA, ids=[c[0] for c in MALFORMED_PA])
@pytest.mark.parametrize("op", range(len(OPS) + 3))
def test_malformed_pyarrow_array_raises(case: tuple[str, Any, Any, int, bytes, int],
                                        op: int) -> None:
    _, t, _, n, offsets, row = case
    try:
        col = from_buffers(t(), n, offsets, DATA)
    except pa.ArrowException:  # pragma: no cover - a pyarrow that checks more
        pytest.skip("this pyarrow refuses to build the array")
    ops = [*OPS, A.form_parse, A.url_can_parse, lambda c: A.url_component(c, "host")]
    if op >= len(OPS) + 1 and t is pa.binary:
        pytest.skip("the URL functions take string columns")
    with pytest.raises(PercentEncodingError, match=f"malformed Arrow array at row {row}:") as info:
        ops[op](col)
    assert info.value.row == row  # type: ignore[attr-defined]


def test_view_index_and_span_from_pyarrow() -> None:
    if not hasattr(pa, "string_view"):  # pragma: no cover
        pytest.skip("pyarrow without string_view")
    data = pa.py_buffer(DATA)
    for v in (view(20, DATA, buf=3), view(40, DATA, off=20)):
        try:
            col = pa.Array.from_buffers(pa.string_view(), 1, [None, pa.py_buffer(v), data])
        except pa.ArrowException:  # pragma: no cover
            continue
        with pytest.raises(PercentEncodingError, match="malformed Arrow array"):
            A.decode_text(col)


# -- string rows that are not UTF-8 -------------------------------------------

PIECES = [b"a", b"%", b"%41", b"%C3%A9", b"%E6%97%A5", b"%97%A5", b"%FF", b"+", b"=", b"&",
          "é".encode(), "日".encode(), b"\xff", b"\xc3", b"\xe6", b"\xe6\x97", b"\xed\xa0\x80",
          b"\x80", b"\xf0\x9f\x98", b"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"]


def bad_rows() -> st.SearchStrategy[list[bytes | None]]:
    row = st.lists(st.sampled_from(PIECES), max_size=16).map(b"".join)
    return st.lists(st.one_of(st.none(), row), max_size=16)


def as_text_column(rows: list[bytes | None], t: str) -> Any:
    binary = {"string": pa.binary(), "large_string": pa.large_binary(),
              "string_view": pa.binary_view()}[t]
    return pa.array(rows, type=binary).view(getattr(pa, t)())


def text(b: bytes) -> str:
    return b.decode("utf-8", "replace")  # the Encoding Standard's UTF-8 decode


@settings(max_examples=200, deadline=None)
@given(bad_rows(), st.sampled_from(["string", "large_string", "string_view"]), st.booleans())
def test_invalid_utf8_string_rows_read_as_the_per_string_api_reads_text(
        rows: list[bytes | None], t: str, plus: bool) -> None:
    col = as_text_column(rows, t)
    per = [None if r is None else text(r) for r in rows]
    out = A.decode_text(col, plus_as_space=plus).to_pylist()
    assert out == [None if r is None else pe.decode_text(r, plus_as_space=plus) for r in per]
    out = A.decode_text(col, errors="null").to_pylist()
    want = []
    for r in per:
        try:
            want.append(None if r is None else pe.decode_text(r, errors="strict"))
        except PercentEncodingError:
            want.append(None)
    assert out == want
    assert A.decode(col, plus_as_space=plus).to_pylist() == [
        None if r is None else pe.decode(r, plus_as_space=plus) for r in per]
    assert A.encode(col, space_as_plus=plus).to_pylist() == [
        None if r is None else pe.encode(r, space_as_plus=plus) for r in per]
    assert A.encode(col, "path").to_pylist() == [
        None if r is None else pe.encode(r, "path") for r in per]
    got = A.form_get(col, "a").to_pylist()
    assert got == [None if r is None else dict(
        reversed(form.parse(r, strip_leading_question_mark=True))).get("a") for r in per]
    pairs = A.form_parse(col).to_pylist()
    assert pairs == [None if r is None else [{"name": n, "value": v} for n, v in form.parse(
        r, strip_leading_question_mark=True)] for r in per]
    for enc in ("windows-1252", "shift_jis"):
        assert A.decode_text(col, encoding=enc).to_pylist() == [
            None if r is None else pe.decode_text(r, encoding=enc) for r in per]


def test_invalid_utf8_examples() -> None:
    # a raw lead byte whose continuation bytes are escapes: two U+FFFD, not one character
    col = as_text_column([b"\xe6%97%A5", b"x\xff", b"\xc3%A9", b"ok%41"], "string")
    assert A.decode_text(col).to_pylist() == ["\ufffd\ufffd\ufffd", "x\ufffd", "\ufffd\ufffd",
                                              "okA"]
    assert A.decode(col.slice(1, 1)).to_pylist() == [b"x\xef\xbf\xbd"]
    assert A.encode(col.slice(1, 1), "path").to_pylist() == ["x%EF%BF%BD"]
    # the result is a valid string column (Polars panicked on the old one)
    A.decode_text(col).validate(full=True)
    A.encode(col, "path").validate(full=True)


def test_invalid_utf8_long_rows_through_the_block_decoder() -> None:
    # rows long enough for 32-byte blocks, the bad byte at each position of a block
    rows = []
    for k in range(70):
        rows.append(b"%41" * 3 + b"a" * k + b"\xe6\x97" + b"b" * 40)
        rows.append(b"a" * k + "日".encode() + b"\xa5" + b"%20" * 12)
        rows.append(b"x" * k + "é".encode() * 10)  # valid: no false alarm
    col = as_text_column(rows, "string")
    assert A.decode_text(col).to_pylist() == [pe.decode_text(text(r)) for r in rows]


@pytest.mark.one_impl
@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.none(), st.lists(st.sampled_from(PIECES), max_size=24)
                          .map(b"".join)), max_size=12), st.booleans())
def test_invalid_utf8_block_decoder_matches_portable_decoder(
        rows: list[bytes | None], plus: bool) -> None:
    try:
        from percent_encoding import _speedups
    except ImportError:
        pytest.skip("the C extension is not built")
    col = as_text_column(rows, "string")
    for enc in ("utf-8", "windows-1252", "shift_jis"):
        want = [None if r is None else pe.decode_text(text(r), encoding=enc, plus_as_space=plus)
                for r in rows]
        on = _speedups.arrow_set_blocks(True)
        try:
            got = [A.decode_text(col, encoding=enc, plus_as_space=plus).to_pylist()]
            _speedups.arrow_set_blocks(False)
            got.append(A.decode_text(col, encoding=enc, plus_as_space=plus).to_pylist())
        finally:
            _speedups.arrow_set_blocks(on)
        assert got == [want, want]
    want = [None if r is None else pe.decode(text(r), plus_as_space=plus) for r in rows]
    on = _speedups.arrow_set_blocks(True)
    try:
        got = [A.decode(col, plus_as_space=plus).to_pylist()]
        _speedups.arrow_set_blocks(False)
        got.append(A.decode(col, plus_as_space=plus).to_pylist())
    finally:
        _speedups.arrow_set_blocks(on)
    assert got == [want, want]


# -- legacy encodings in the C kernels (no Python call a row) ------------------

LEGACY = ["windows-1252", "shift_jis", "windows-874", "iso-8859-8", "koi8-u", "x-user-defined",
          "euc-jp", "gbk"]
LEGACY_PIECES = [b"a", b"%", b"%41", b"%E9", b"%82%A0", b"%81", b"%FF", b"%80", b"%DF",
                 b"%F0%40", b"%EF%FC", b"%82", b"%82A", b"+", "é".encode(), b"\xff", b"%A1"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.lists(st.sampled_from(LEGACY_PIECES), max_size=10)
                          .map(b"".join)), max_size=12),
       st.sampled_from(LEGACY), st.sampled_from(["string", "binary", "large_string",
                                                 "string_view"]),
       st.booleans())
def test_legacy_decode_text_matches_per_string(
        rows: list[bytes | None], encoding: str, t: str, plus: bool) -> None:
    col = (pa.array(rows, type=pa.binary()) if t == "binary" else as_text_column(rows, t))
    per: list[Any] = [None if r is None else (r if t == "binary" else text(r)) for r in rows]
    got = A.decode_text(col, encoding=encoding, plus_as_space=plus).to_pylist()
    assert got == [None if r is None else pe.decode_text(r, encoding=encoding,
                                                         plus_as_space=plus) for r in per]
    want_null: list[Any] = []
    first_bad = None
    for k, r in enumerate(per):
        try:
            want_null.append(None if r is None else pe.decode_text(
                r, encoding=encoding, plus_as_space=plus, errors="strict"))
        except PercentEncodingError:
            want_null.append(None)
            first_bad = k if first_bad is None else first_bad
    assert A.decode_text(col, encoding=encoding, plus_as_space=plus,
                         errors="null").to_pylist() == want_null
    if first_bad is None:
        assert A.decode_text(col, encoding=encoding, plus_as_space=plus,
                             errors="strict").to_pylist() == want_null
    else:
        with pytest.raises(PercentEncodingError, match=f"row {first_bad}:"):
            A.decode_text(col, encoding=encoding, plus_as_space=plus, errors="strict")


def test_legacy_examples() -> None:
    col = pa.array(["caf%E9", "%82%A0%82%A2", "%82A", "%81", "x%FFy", None, "é"])
    assert A.decode_text(col, encoding="windows-1252").to_pylist() == [
        "café", "\u201a\xa0\u201a\xa2", "\u201aA", "\x81", "x\xffy", None, "Ã©"]
    # §12.3.1: a lead byte then ASCII gives U+FFFD and the ASCII byte again
    assert A.decode_text(col, encoding="shift_jis").to_pylist() == [
        "caf\ufffd", "あい", "\ufffdA", "\ufffd", "x\ufffdy", None, "ﾃｩ"]
    assert A.decode_text(col, encoding="shift_jis", errors="null").to_pylist() == [
        None, "あい", None, None, None, None, "ﾃｩ"]
    # windows-874 has bytes without a code point
    assert A.decode_text(pa.array(["%DB%41"]), encoding="windows-874").to_pylist() == [
        "\ufffdA"]


ENCODE_PIECES = ["a", " ", "+", "%", "/", "\\", "~", "é", "€", "日", "ア", "😀", "\ufffd", "ÿ",
                 "Ŵ", "ก", "\x80", "Ю", "¥", "‾", "−", "－", "ｱ", "\ue000", "髙", "∵"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.one_of(st.none(), st.lists(st.sampled_from(ENCODE_PIECES), max_size=10)
                          .map("".join)), max_size=12),
       st.sampled_from([*LEGACY, "koi8-r", "iso-8859-2", "utf-16le", "replacement"]),
       st.sampled_from(["component", "path", "application/x-www-form-urlencoded"]),
       st.booleans(), st.booleans())
def test_legacy_encode_matches_per_string(rows: list[str | None], encoding: str, encode_set: str,
                                          plus: bool, binary: bool) -> None:
    # (UTF-16 and replacement encode as UTF-8: their output encoding, Encoding Standard §4.3)
    if binary:
        col = pa.array([None if r is None else r.encode() for r in rows], type=pa.binary())
        per: list[Any] = [None if r is None else r.encode() for r in rows]
    else:
        col = pa.array(rows, type=pa.string())
        per = list(rows)
    got = A.encode(col, encode_set, encoding=encoding, space_as_plus=plus).to_pylist()
    assert got == [None if r is None else pe.encode(r, encode_set, encoding=encoding,
                                                    space_as_plus=plus) for r in per]


def test_legacy_encode_examples() -> None:
    col = pa.array(["café €", "日", "a b", None])
    assert A.encode(col, encoding="windows-1252").to_pylist() == [
        "caf%E9%20%80", "%26%2326085%3B", "a%20b", None]
    assert A.encode(col, encoding="shift_jis").to_pylist() == [
        "caf%26%23233%3B%20%26%238364%3B", "%93%FA", "a%20b", None]
    # §12.3.2: U+00A5 is byte 0x5C, then the set decides (the path set keeps "\\")
    yen = pa.array(["¥", "‾", "−", "ｱ"])
    assert A.encode(yen, "path", encoding="shift_jis").to_pylist() == ["\\", "~", "%81|", "%B1"]
    assert A.encode(yen, encoding="shift_jis").to_pylist() == ["%5C", "~", "%81%7C", "%B1"]
    # a string row that is not UTF-8 is text with U+FFFD, which windows-1252 lacks
    bad = as_text_column([b"a\xffb"], "string")
    assert A.encode(bad, encoding="windows-1252").to_pylist() == ["a%26%2365533%3Bb"]


# -- sizes a raw producer cannot have (issue 39) ----------------------------------------
#
# The C Data Interface gives no buffer sizes: an offsets layout's data buffer is as long
# as its last offset says, a view column's data buffers as long as its size list says.
# A size beyond any memory (an offset near 2**62) is a malformed array naming the row,
# never a read of memory the process does not have.  A hand-built array goes to the C
# kernels as it is and, for the URL functions (and the pure twin), through pyarrow's
# import (which takes the sizes the same way); pyarrow moves the struct it imports, so
# each call gets a fresh one.  A crash here would end the test run, so the cases run in
# a child process.

WILD = 1 << 62

WILD_CASES: dict[str, tuple[Any, int]] = {
    # (a fresh column, the row the error names)
    "last offset near 2**62": (lambda: Crafted("U", 2, [None, off64(0, 4, WILD), DATA]), 1),
    "first offset near 2**62":
        (lambda: Crafted("U", 1, [None, off64(WILD, WILD + 4), DATA]), 0),
    "last offset 2**63 - 1": (lambda: Crafted("U", 3, [None, off64(0, 4, 8, 2**63 - 1),
                                                        DATA]), 2),
    "after a null row": (lambda: Crafted("U", 3, [b"\x05", off64(0, 4, WILD, WILD + 4), DATA],
                                         null_count=1), 2),
    "view: a data buffer's size near 2**62":
        (lambda: Crafted("vu", 2, [None, view(3, b"abc") + view(20, DATA), DATA, off64(WILD)]),
         1),
}
# Sizes below the address ceiling that still name memory the process does not have:
# Linux's mincore(2) sees the unmapped page (the C twin; pyarrow's import reads it first).
UNMAPPED_CASES: dict[str, tuple[Any, int]] = {
    "last offset 2**40": (lambda: Crafted("U", 2, [None, off64(0, 4, 1 << 40), DATA]), 1),
    "view: a data buffer of 2**40":
        (lambda: Crafted("vu", 1, [None, view(20, DATA), DATA, off64(1 << 40)]), 0),
}
# every C kernel op: the UTF-8 ones, a table decoder (decode_sb), a code point map
# encoder (encode_map), the per-row call (call_text), the URL driver; and form_parse
WILD_OPS = ["decode_text", "decode", "encode", "form_get", "decode_text_1252", "encode_1252",
            "decode_text_euc_jp", "form_parse", "url_can_parse", "url_component", "url_parse"]


def run_wild(op: str, col: Any) -> Any:
    if op.startswith("url"):
        args = ("host",) if op == "url_component" else ()
        return getattr(A, op)(col, *args)
    for suffix, encoding in (("_1252", "windows-1252"), ("_euc_jp", "euc-jp")):
        if op.endswith(suffix):
            return getattr(A, op.removesuffix(suffix))(col, encoding=encoding)
    return getattr(A, op)(col, *(("a",) if op == "form_get" else ()))


_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
import test_arrow_malformed as T
from helpers.twins import KERNELS
from percent_encoding import core
core._use_kernels(KERNELS[sys.argv[2]])
cases = dict(T.WILD_CASES, **(T.UNMAPPED_CASES if sys.argv[3] == "1" else {}))
for name, (make, row) in cases.items():
    for op in T.WILD_OPS:
        if op == "form_parse" and name in T.UNMAPPED_CASES:
            continue  # pure Python in both twins: only the address ceiling is checked there
        print("start", name, op, file=sys.stderr, flush=True)
        try:
            T.run_wild(op, make())
            got = ["ok", None, ""]
        except Exception as e:
            got = [type(e).__name__, getattr(e, "row", None), str(e)]
        print(json.dumps([name, op, row, *got]), flush=True)
"""


def _wild_results(impl: str, unmapped: bool) -> list[list[Any]]:
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parent
    r = subprocess.run([sys.executable, "-c", _CHILD, str(here), impl, "1" if unmapped else "0"],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, f"the child died ({r.returncode}) at {r.stderr[-400:]}"
    import json

    return [json.loads(line) for line in r.stdout.splitlines()]


def test_sizes_beyond_memory_raise_naming_the_row(impl: str) -> None:
    import sys

    results = _wild_results(impl, unmapped=sys.platform == "linux" and impl == "c")
    assert len(results) >= len(WILD_CASES) * len(WILD_OPS)
    for name, op, row, kind, got_row, msg in results:
        assert kind == "ArrowFormatError", (name, op, kind, msg)
        assert got_row == row and f"at row {row}:" in msg, (name, op, got_row, msg)


def test_arrow_format_error_is_both_a_value_and_a_type_error() -> None:
    from percent_encoding.errors import ArrowFormatError, PercentEncodingTypeError

    with pytest.raises(ArrowFormatError) as info:
        A.decode(from_buffers(pa.string(), 2, off32(0, 9, 4), b"a%41b"))
    assert isinstance(info.value, PercentEncodingError)
    assert isinstance(info.value, PercentEncodingTypeError)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)


NEGATIVE_LENGTH_OPS = [*OPS, lambda c: A.url_can_parse(c), lambda c: A.url_parse(c),
                       lambda c: A.url_component(c, "href"), lambda c: A.form_parse(c)]


@pytest.mark.parametrize("op", range(len(NEGATIVE_LENGTH_OPS)))
@pytest.mark.parametrize("fmt", ["u", "U", "vu", "z"])
def test_negative_length_is_a_type_error_naming_the_row(op: int, fmt: str, impl: str) -> None:
    from percent_encoding.errors import PercentEncodingTypeError

    if fmt == "z" and op >= len(OPS):
        pytest.skip("the URL functions take string columns; form_parse any")
    buffers = ([None, view(3, b"a=1"), DATA, off64(48)] if fmt == "vu" else
               [None, off64(0, 4, 8) if fmt == "U" else off32(0, 4, 8), DATA])
    with pytest.raises(PercentEncodingTypeError, match="at row 0") as info:
        NEGATIVE_LENGTH_OPS[op](Crafted(fmt, -5, buffers))
    assert isinstance(info.value, PercentEncodingError)  # also the malformed-array error
    assert info.value.row == 0  # type: ignore[attr-defined]
