"""percent_encoding.arrow's URL columns: every row against url.parse, on both twins.

The shared URL suites (wpt) become columns (with their bases as a base
column), ada's url-various-datasets files are read from
``$PERCENT_ENCODING_URL_DATASETS`` (a directory; skipped when absent), and
hypothesis draws columns of every layout with per-row bases.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import data_path
from percent_encoding import url
from percent_encoding.errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    URLParseError,
)

pa = pytest.importorskip("pyarrow")
from percent_encoding import arrow as A  # noqa: E402

COMPONENTS = ["href", "protocol", "username", "password", "host", "hostname", "port",
              "pathname", "search", "hash"]
ALL = [*COMPONENTS, "origin"]
LAYOUTS = ["string", "large_string", "string_view"]


def expected(value: str | None, base: Any = None, *, base_column: bool = False) -> Any:
    """What url.parse gives for one row: a dict of the 11 getters, or None."""
    if value is None or (base_column and base is None):
        return None
    try:
        u = url.parse(value, base)
    except URLParseError:
        return None
    return {name: getattr(u, name) for name in ALL}


def column(rows: list[Any], layout: str = "string", shape: str = "plain") -> Any:
    arr = pa.array(rows, type=getattr(pa, layout)())
    if shape == "chunked":
        cut = len(rows) // 3
        return pa.chunked_array([arr.slice(0, cut), arr.slice(cut)], type=arr.type)
    if shape == "slice":
        padded = pa.array(["x:", *rows, None], type=arr.type)
        return padded.slice(1, len(rows))
    return arr


def check(rows: list[Any], base: Any = None, layout: str = "string",
          shape: str = "plain") -> None:
    """url_parse, url_component (each of the 11) and url_can_parse, row by row."""
    col = column(rows, layout, shape)
    base_column = base is not None and not isinstance(base, str)
    base_rows = base if base_column else [base] * len(rows)
    b = column(base, layout, shape) if base_column else base
    want = [expected(v, bv, base_column=base_column)
            for v, bv in zip(rows, base_rows, strict=True)]
    parsed = A.url_parse(col, b).to_pylist()
    assert parsed == [None if w is None else {k: w[k] for k in COMPONENTS} for w in want]
    for name in ALL:
        got = A.url_component(col, name, b).to_pylist()
        assert got == [None if w is None else w[name] for w in want], name
    can = A.url_can_parse(col, b).to_pylist()
    assert can == [None if v is None or (base_column and bv is None) else w is not None
                   for v, bv, w in zip(rows, base_rows, want, strict=True)]


def _usv(s: str) -> bool:
    return not any(0xD800 <= ord(ch) <= 0xDFFF for ch in s)


def _wpt_cases() -> list[dict[str, Any]]:
    data = json.loads(data_path("wpt", "urltestdata.json").read_text(encoding="utf-8"))
    return [c for c in data if isinstance(c, dict) and _usv(c["input"])
            and (c.get("base") is None or _usv(c["base"]))]


@pytest.mark.parametrize("layout", LAYOUTS)
def test_wpt_urltestdata_as_columns(layout: str) -> None:
    cases = _wpt_cases()
    with_base = [c for c in cases if c.get("base") is not None]
    without = [c for c in cases if c.get("base") is None]
    check([c["input"] for c in with_base], [c["base"] for c in with_base], layout)
    check([c["input"] for c in without], None, layout)


def test_wpt_urltestdata_expected_values() -> None:
    """The columns give wpt's own expected values (not only url.parse's)."""
    cases = [c for c in _wpt_cases() if c.get("base") is not None]
    col = A.url_parse(pa.array([c["input"] for c in cases]), pa.array([c["base"] for c in cases]))
    origins = A.url_component(pa.array([c["input"] for c in cases]), "origin",
                              pa.array([c["base"] for c in cases])).to_pylist()
    for c, got, origin in zip(cases, col.to_pylist(), origins, strict=True):
        if c.get("failure"):
            assert got is None, c["input"]
        else:
            assert got == {k: c[k] for k in COMPONENTS}, c["input"]
            if "origin" in c:
                assert origin == c["origin"], c["input"]


@pytest.mark.slow  # the full tier (./dev test); the quick tier leaves it out
def test_wpt_one_base_for_every_row() -> None:
    """A str base (parsed once), per base: the same rows as url.parse(row, base)."""
    cases = _wpt_cases()
    inputs = [c["input"] for c in cases]
    for base in sorted({c["base"] for c in cases if c.get("base")})[:12]:
        if url.can_parse(base):
            check(inputs, base)


def test_wpt_other_suites_as_columns() -> None:
    hosts = json.loads(data_path("wpt", "toascii.json").read_text(encoding="utf-8"))
    rows = [f"https://{c['input']}/x" for c in hosts if isinstance(c, dict) and _usv(c["input"])]
    setters = json.loads(data_path("wpt", "setters_tests.json").read_text(encoding="utf-8"))
    rows += [c["href"] for name, cs in setters.items() if name != "comment" for c in cs]
    pct = json.loads(data_path("wpt", "percent-encoding.json").read_text(encoding="utf-8"))
    rows += [f"https://doesnotmatter.invalid/?{c['input']}#{c['input']}" for c in pct
             if isinstance(c, dict) and _usv(c["input"])]
    check(rows, None, "string", "chunked")


def _datasets() -> list[Path]:
    where = os.environ.get("PERCENT_ENCODING_URL_DATASETS")
    if not where:
        pytest.skip("set PERCENT_ENCODING_URL_DATASETS to a directory of ada's "
                    "url-various-datasets files (kasztp.txt, userbait.txt, ...)")
    # a flat folder of the files or a checkout of the repository (others/, files/)
    files = sorted(Path(where).rglob("*.txt"))
    if not files:
        pytest.skip(f"no .txt files in {where}")
    return files


def test_ada_datasets() -> None:
    for path in _datasets():
        rows = path.read_text(encoding="utf-8", errors="replace").splitlines()
        check(rows, None, "string", "chunked")
        check(rows[:3000], "https://example.com/a/b?c#d", "string_view")


# -- random columns ---------------------------------------------------------

PIECES = ["http", "https", "file", "blob", "foo", "mailto", ":", "//", "/", "\\", "?", "#",
          "@", ":8080", ":0", ":99999", "[::1]", "1.2.3.4", "0x7f.1", "a", "B", "é", "日",
          "%41", "%zz", "%", ".", "..", " ", "\t", "xn--", "EXAMPLE.com", "user:pw@", "'"]


@st.composite
def url_columns(draw: Any) -> tuple[list[Any], Any, str, str]:
    rows = draw(st.lists(st.one_of(st.none(), st.lists(st.sampled_from(PIECES), max_size=10)
                                   .map("".join)), max_size=16))
    which = draw(st.sampled_from(["none", "one", "column"]))
    base: Any = None
    if which == "one":
        base = draw(st.sampled_from(["http://h.example/a/b?c#d", "file:///C:/x/", "foo://h/p",
                                     "https://[::1]:8443/"]))
    elif which == "column":
        base = draw(st.lists(st.one_of(st.none(), st.sampled_from(
            ["http://h.example/a/b", "sc:opaque", "not a base", "file:///x", "https://a.b/"])),
            min_size=len(rows), max_size=len(rows)))
    return rows, base, draw(st.sampled_from(LAYOUTS)), draw(
        st.sampled_from(["plain", "slice", "chunked"]))


@settings(max_examples=120, deadline=None)
@given(url_columns())
def test_random_columns_match_url_parse(case: tuple[list[Any], Any, str, str]) -> None:
    rows, base, layout, shape = case
    check(rows, base, layout, shape)


@settings(max_examples=60, deadline=None)
@given(url_columns(), st.lists(st.sampled_from(ALL), min_size=1, max_size=4, unique=True))
def test_url_parse_components_is_a_struct_of_those_getters(
        case: tuple[list[Any], Any, str, str], names: list[str]) -> None:
    """url_parse(col, components=[...]): only those fields, in that order, from one
    parse of each row; a row that is not a URL (or is null) is a null struct."""
    rows, base, layout, shape = case
    col = column(rows, layout, shape)
    b = column(base, layout, shape) if isinstance(base, list) else base
    got = A.url_parse(col, b, components=names)
    large = layout == "large_string"
    want_type = pa.struct([(n, pa.large_string() if large else pa.string()) for n in names])
    assert got.type == want_type
    bases = base if isinstance(base, list) else [base] * len(rows)
    want = [None if e is None else {n: e[n] for n in names} for e in
            (expected(v, bv, base_column=isinstance(base, list))
             for v, bv in zip(rows, bases, strict=True))]
    assert got.to_pylist() == want


def test_url_parse_components_arguments() -> None:
    col = pa.array(["http://a/"])
    with pytest.raises(PercentEncodingError, match="unknown URL component 'path'"):
        A.url_parse(col, components=["host", "path"])
    with pytest.raises(PercentEncodingError, match="named twice"):
        A.url_parse(col, components=["host", "host"])
    with pytest.raises(PercentEncodingError, match="at least one"):
        A.url_parse(col, components=[])
    with pytest.raises(PercentEncodingTypeError, match="list or tuple"):
        A.url_parse(col, components="host")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError, match="each must be a str"):
        A.url_parse(col, components=["host", 7])  # type: ignore[list-item]


# -- arguments, errors, results ----------------------------------------------

def test_strict_names_the_row() -> None:
    col = pa.chunked_array([["http://a/"], [None, "http://b/", "http://[::1"]])
    with pytest.raises(URLParseError) as e:
        A.url_parse(col, errors="strict")
    assert e.value.row == 3
    assert e.value.name == "IPv6-unclosed"
    assert e.value.position is not None
    assert "row 3" in str(e.value)
    with pytest.raises(URLParseError) as e:
        A.url_component(pa.array(["/x", "http://a"]), "host", errors="strict")
    assert e.value.row == 0 and e.value.name == "missing-scheme-non-relative-URL"


def test_strict_bad_base_in_a_base_column() -> None:
    with pytest.raises(URLParseError) as e:
        A.url_parse(pa.array(["a", "b"]), pa.array(["http://h/", "nope"]), errors="strict")
    assert e.value.row == 1 and "base" in str(e.value)


def test_null_base_row_is_null_and_null_rows_stay_null() -> None:
    col = pa.array(["http://a/", "/rel", None])
    base = pa.array([None, "http://h/", "http://h/"])
    assert A.url_parse(col, base).to_pylist()[0] is None
    assert A.url_component(col, "href", base).to_pylist() == [None, "http://h/rel", None]
    assert A.url_can_parse(col, base).to_pylist() == [None, True, None]
    assert A.url_can_parse(col).to_pylist() == [True, False, None]


def test_bad_arguments() -> None:
    col = pa.array(["http://a/"])
    with pytest.raises(PercentEncodingError, match="unknown URL component 'path'"):
        A.url_component(col, "path")
    with pytest.raises(PercentEncodingTypeError):
        A.url_component(col, 3)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingError, match="same length"):
        A.url_parse(col, pa.array(["http://h/", "http://h/"]))
    with pytest.raises(URLParseError, match="invalid base URL"):
        A.url_parse(col, "not a url")
    with pytest.raises(PercentEncodingTypeError, match="base must be"):
        A.url_parse(col, 42)
    with pytest.raises(PercentEncodingError, match="'null' or 'strict'"):
        A.url_parse(col, errors="replace")  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError, match="string"):
        A.url_parse(pa.array([b"http://a/"]))
    with pytest.raises(PercentEncodingTypeError, match="Arrow string column"):
        A.url_parse(["http://a/"])


def test_result_types() -> None:
    r = A.url_parse(pa.array(["http://a/"], pa.large_string()))
    assert r.type == pa.struct([(n, pa.large_string()) for n in COMPONENTS])
    assert A.url_parse(pa.array(["http://a/"])).type.field(0).type == pa.string()
    assert A.url_component(pa.array(["http://a/"], pa.string_view()), "host").type == pa.string()
    assert A.url_can_parse(pa.array(["http://a/"])).type == pa.bool_()
    empty = A.url_parse(pa.chunked_array([], pa.string()))
    assert isinstance(empty, pa.ChunkedArray) and len(empty) == 0
    assert A.url_component(pa.chunked_array([["http://a/"], []]), "host").num_chunks == 2


def test_url_base_object_and_nanoarrow_like_input() -> None:
    class Capsules:  # only the PyCapsule interface, as nanoarrow or Polars offer it
        def __init__(self, arr: Any) -> None:
            self.arr = arr

        def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
            return self.arr.__arrow_c_array__()

    col = Capsules(pa.array(["../c", None]))
    assert A.url_component(col, "href", url.parse("http://h/a/b")).to_pylist() == [
        "http://h/c", None]


# -- the twins against each other -------------------------------------------

def _both_twins(f: Any) -> tuple[Any, Any]:
    """f() with the pure twin active, then with the C twin (skip without it)."""
    from helpers.twins import KERNELS
    from percent_encoding import core

    if KERNELS["c"] is None:
        pytest.skip("the C twin is not built")
    results = []
    for name in ("python", "c"):
        old = core._use_kernels(KERNELS[name])
        try:
            results.append(f())
        finally:
            core._use_kernels(old)
    return results[0], results[1]


@pytest.mark.one_impl
def test_c_and_pure_twins_agree_on_wpt() -> None:
    cases = _wpt_cases()
    col = pa.array([c["input"] for c in cases])
    bases = pa.array([c.get("base") for c in cases])
    for base in (None, bases, "https://example.org/a/b?c#d"):
        pure, c = _both_twins(lambda: A.url_parse(col, base).to_pylist())  # noqa: B023
        assert pure == c
        pure, c = _both_twins(lambda: A.url_component(col, "origin", base).to_pylist())  # noqa: B023
        assert pure == c
        pure, c = _both_twins(lambda: A.url_can_parse(col, base).to_pylist())  # noqa: B023
        assert pure == c


@pytest.mark.one_impl
@settings(max_examples=40, deadline=None)
@given(url_columns())
def test_c_and_pure_twins_agree_on_random_columns(case: tuple[list[Any], Any, str, str]) -> None:
    rows, base, layout, shape = case
    col = column(rows, layout, shape)
    b = column(base, layout, shape) if isinstance(base, list) else base
    pure, c = _both_twins(lambda: A.url_parse(col, b).to_pylist())
    assert pure == c


def test_malformed_offsets_raise_naming_the_row(impl: str) -> None:
    # offsets that go backwards at row 2 (pyarrow's from_buffers does not check them);
    # the pure twin raised SystemError (pyarrow's to_pylist on them) and names the row too
    data = pa.py_buffer(b"http://a/http://b/http://c/")
    for bad in ([0, 9, 18, 4, 27], [0, 9, 18, 40, 27]):
        offsets = pa.py_buffer(pa.array(bad, pa.int32()).buffers()[1])
        col = pa.Array.from_buffers(pa.string(), 4, [None, offsets, data])
        for f in (lambda c: A.url_component(c, "host"), A.url_parse, A.url_can_parse):
            with pytest.raises(PercentEncodingError, match="malformed Arrow array at row 2") \
                    as info:
                f(col)
            assert info.value.row == 2  # type: ignore[attr-defined]


def test_rows_that_are_not_utf8_read_with_replacement(impl: str) -> None:
    # a row that is not UTF-8 reads as text does (U+FFFD), as in the other kernels
    raw = [b"http://a/\xff/x", b"http://\xc3\xa9.example/\xe2\x82", b"https://b/ok"]
    offs = [0]
    for r in raw:
        offs.append(offs[-1] + len(r))
    col = pa.Array.from_buffers(pa.string(), 3, [None, pa.py_buffer(
        pa.array(offs, pa.int32()).buffers()[1]), pa.py_buffer(b"".join(raw))])
    got = A.url_component(col, "href").to_pylist()
    assert got == [url.parse(r.decode("utf-8", "replace")).href for r in raw]
    assert got[0] == "http://a/%EF%BF%BD/x"
    # (the pure twin read such a row with pyarrow's to_pylist, which raised
    # UnicodeDecodeError: found by fuzz/differential.py)
    assert A.url_can_parse(col).to_pylist() == [True, True, True]
    for t in ("large_string", "string_view"):
        other = pa.array(raw, type=pa.binary() if t == "large_string" else pa.binary_view())
        other = other.cast(pa.large_binary()) if t == "large_string" else other
        assert A.url_component(other.view(getattr(pa, t)()), "href").to_pylist() == got
    # a base column with a row that is not UTF-8: the base reads with U+FFFD too
    bases = pa.array([b"http://h/\xff/", b"http://h/", None], pa.binary()).view(pa.string())
    rel = pa.array(["x", "y", "z"])
    assert A.url_component(rel, "href", bases).to_pylist() == [
        "http://h/%EF%BF%BD/x", "http://h/y", None]


@pytest.mark.slow  # the full tier (./dev test); the quick tier leaves it out
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_long_columns_on_threads_match_url_parse(impl: str, threads: int) -> None:
    # long enough to be split over threads and windows: rows the GIL-free pass
    # takes, rows for the host hook (IDNA), the Python parser, a blob: origin,
    # invalid rows, nulls, and per-row bases
    if impl == "python" and threads > 1:
        pytest.skip("the pure twin runs on one thread: threads=1 is the same run")
    pool = ["https://a.example/x?y#z", "http://ÉXAMPLE.com/", "http://xn--9ca.com/p",
            "blob:https://b.example/u", "not a url", None, "/rel?q", "http://[::1]:80/",
            "file:///C:/a/../b", "http://a%F0%9F%98%80b/", "foo://h:1/p", "https://u:p@h:444/"]
    bases = ["http://base.example/d/e", None, "https://other/", "no base"]
    rows = [pool[(i * 7) % len(pool)] for i in range(150_000)]
    base_col = [bases[(i // 3) % len(bases)] for i in range(len(rows))]
    old = A.set_threads(threads)
    try:
        col = pa.array(rows, pa.string())
        got = A.url_component(col, "origin").to_pylist()
        got_can = A.url_can_parse(col, pa.array(base_col)).to_pylist()
        got_href = A.url_component(col, "href", pa.array(base_col)).to_pylist()
    finally:
        A.set_threads(old)
    memo: dict[Any, Any] = {}
    for i, v in enumerate(rows[:20_000] + rows[-20_000:]):
        j = i if i < 20_000 else len(rows) - 40_000 + i
        b = base_col[j]
        if (v, b) not in memo:
            memo[v, b] = (expected(v), expected(v, b, base_column=True))
        e, eb = memo[v, b]
        assert got[j] == (None if e is None else e["origin"]), (j, v)
        assert got_href[j] == (None if eb is None else eb["href"]), (j, v, b)
        can = None if v is None or b is None else eb is not None
        assert got_can[j] == can, (j, v, b)


@pytest.mark.slow  # the full tier (./dev test); the quick tier leaves it out
@pytest.mark.parametrize("layout", LAYOUTS)
def test_threads_give_one_threads_columns_row_for_row(impl: str, layout: str) -> None:
    # The GIL-free pass parses windows of 32,768 rows a thread in parts of 8,192;
    # a whole part is copied into the result on the threads while they parse the
    # next window, a part with rows for Python row by row with the GIL.  Here the
    # parts of rows 70,000-90,000 have such rows (IDNA hosts, blob: origins) and
    # the others not, so both kinds alternate in one window; the slice starts at
    # an offset that is not a multiple of 8 (the validity bits of two parts).
    if impl != "c":
        pytest.skip("set_threads splits the C kernel's work; the pure twin has one path")
    plain = ["https://a.example/x?y#z", None, "not a url", "/rel?q", "http://[::1]:80/",
             "file:///C:/a/../b", "foo://h:1/p", "https://u:p@h:444/", "HTTP://EX%41MPLE.com",
             "https://h/" + "p/" * 400, "http://1.2.3.4:0/", "wss://h/#", "https://h?",
             "mailto:x@y", "http://0x7f.1/"]
    python = ["http://ÉXAMPLE.com/", "http://xn--9ca.com/p", "blob:https://b.example/u",
              "https://a.example/ok"]
    rows = [python[i % len(python)] if 70_000 <= i < 90_000 else plain[(i * 7) % len(plain)]
            for i in range(260_003)]
    col = pa.array(rows, getattr(pa, layout)()).slice(3)
    got: dict[int, tuple[Any, ...]] = {}
    for threads in (1, 2, 3, 4):
        old = A.set_threads(threads)
        try:
            got[threads] = (A.url_component(col, "hostname").to_pylist(),
                            A.url_component(col, "origin").to_pylist(),
                            A.url_can_parse(col).to_pylist(),
                            A.url_parse(col).to_pylist() if threads <= 2 else None)
        finally:
            A.set_threads(old)
    for threads in (2, 3, 4):
        for k in range(3):
            assert got[threads][k] == got[1][k], (threads, k)
    assert got[2][3] == got[1][3]
    memo: dict[Any, Any] = {}
    for i, v in enumerate(rows[3:]):
        if v not in memo:
            memo[v] = expected(v)
        e = memo[v]
        assert got[1][0][i] == (None if e is None else e["hostname"]), (i, v)
        assert got[1][1][i] == (None if e is None else e["origin"]), (i, v)
        assert got[1][2][i] == (None if v is None else e is not None), (i, v)
        assert got[1][3][i] == (None if e is None else {k: e[k] for k in COMPONENTS}), (i, v)


@pytest.mark.parametrize("layout", LAYOUTS)
def test_calls_in_a_row_with_other_fields_give_the_same_rows(impl: str, layout: str) -> None:
    # The C kernel keeps its parts' buffers from one call to the next, and a part
    # holds one field's bytes (url_component) or each row's href and offsets
    # (url_parse): calls that alternate between them, over columns of several
    # parts (8,192 rows), sliced at an odd row, with ASCII parts (no UTF-8 check)
    # and a part with non-ASCII rows, give what url.parse gives, row for row.
    if impl != "c":
        pytest.skip("the C kernel's parts; the pure twin has one path (the tests above)")
    pool = ["https://u:p@a.example:8443/x/y?q=1#f", "HTTP://EX%41MPLE.com/a b", "not a url",
            None, "http://[::1]/", "file:///C|/d", "foo://h/p?q", "wss://h/", "blob:https://b/u",
            "http://1.2.3.4:0/?#", "https://h/" + "p" * 300]
    rows = [pool[(i * 5) % len(pool)] for i in range(9_003)]
    rows[8_500:8_510] = ["http://ÉXAMPLE.com/é?ü#ö"] * 10  # one part not ASCII
    col = pa.array(rows, getattr(pa, layout)()).slice(3)
    memo: dict[Any, Any] = {}
    for _ in range(2):
        host = A.url_component(col, "hostname").to_pylist()
        parsed = A.url_parse(col).to_pylist()
        origin = A.url_component(col, "origin").to_pylist()
        for i, v in enumerate(rows[3:]):
            if v not in memo:
                memo[v] = expected(v)
            e = memo[v]
            assert host[i] == (None if e is None else e["hostname"]), (i, v)
            assert origin[i] == (None if e is None else e["origin"]), (i, v)
            assert parsed[i] == (None if e is None else {k: e[k] for k in COMPONENTS}), (i, v)
