"""The C twin (``_speedups``) against the pure twin (``_pure``).

The rest of the suite runs once per twin through the ``impl`` fixture; this
module compares the two directly on arbitrary input (hypothesis): the same
results, the same object back when nothing needs doing, and the same
exceptions with the same positions.  It also checks that a normal install
really loaded the C twin and that ``_tables.h`` is current.
"""

from __future__ import annotations

import copy
import gc
import importlib.util
import inspect
import os
import pickle
import sys
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import percent_encoding
from helpers.twin_outcome import ESCAPE_ALPHABET, outcome
from percent_encoding import _encode_set, _pure, sets
from percent_encoding._kernels import checked as _checked
from percent_encoding.form._serialize import checked_serialize

pytestmark = pytest.mark.one_impl

ROOT = Path(__file__).resolve().parents[1]
FORCED_PURE = os.environ.get("PERCENT_ENCODING_NO_EXTENSIONS", "") not in ("", "0")


def _load_c() -> ModuleType | None:
    if FORCED_PURE:
        return None
    try:
        from percent_encoding import _speedups
    except ImportError:
        return None
    return _speedups


C = _load_c()
needs_c = pytest.mark.skipif(C is None, reason="C twin not built (see test_c_twin_is_loaded)")


def test_c_twin_is_loaded() -> None:
    # A normal install (pip install -e ., as ./dev and CI do) must build the
    # extension; only the env var may turn it off.  A silent build failure
    # falls back to pure Python and would otherwise go unnoticed.
    if FORCED_PURE:
        pytest.skip("PERCENT_ENCODING_NO_EXTENSIONS is set: the pure twin is expected")
    assert C is not None, "percent_encoding._speedups did not build or import"
    assert percent_encoding.IMPLEMENTATION == "c"
    from percent_encoding import _kernels

    assert _kernels.kernels is C


def test_tables_header_is_current() -> None:
    spec = importlib.util.spec_from_file_location("gen_tables", ROOT / "tools" / "gen_tables.py")
    assert spec is not None and spec.loader is not None
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    header = ROOT / "src" / "csrc" / "_tables.h"
    assert header.read_text(encoding="utf-8") == gen.render(), (
        "src/csrc/_tables.h is stale: run python tools/gen_tables.py"
    )


def test_tables_header_matches_sets() -> None:
    # The generated form table really is the set's (a wrong generator would
    # still be "current").
    header = ROOT / "src" / "csrc" / "_tables.h"
    text = header.read_text(encoding="utf-8")
    body = text.split("PE_FORM_URLENCODED[256] = {", 1)[1].split("};", 1)[0]
    values = [int(tok) for line in body.splitlines() for tok in line.split("*/")[-1].split(",")
              if tok.strip()]
    assert bytes(values) == sets.FORM_URLENCODED.table


# -- comparing outcomes --------------------------------------------------------


def same(name: str, *args: Any) -> tuple[Any, ...]:
    assert C is not None
    py = outcome(getattr(_pure, name), *args)
    c = outcome(getattr(C, name), *args)
    assert c == py, f"{name}{args!r}"
    return py


# Characters that exercise every branch: escapes in both cases, bad escapes,
# the form delimiters, ASCII that some sets encode, 2/3/4-byte UTF-8, lone
# surrogates (both halves), U+FFFD itself.
_ALPHABET = st.sampled_from(
    [*"%%%%+&=& aAfFgG09zZ/?#:@!*'()~-._\x00\x7f\t",
     "é", "ÿ", "\x80", "ü", "日", "本", "\ufffd", "\ud800", "\udfff", "\U0001f600", "\U0010ffff"]
)
_HEXISH = st.sampled_from(list(ESCAPE_ALPHABET + "G\ud83d"))
texts = st.one_of(
    st.text(_ALPHABET, max_size=40),
    st.text(_HEXISH, max_size=40),
    st.text(max_size=30),
    st.text(st.characters(max_codepoint=0x7F), max_size=40),
)
_BYTE_ALPHABET = st.sampled_from(
    [b"%", b"%", b"+", b"&", b"=", b"a", b"F", b"f", b"0", b"9", b"g", b" ", b"\x80", b"\xc3",
     b"\xa9", b"\xed", b"\xa0", b"\xf0", b"\x9f", b"\xff", b"\xe6", b"\x97"]
)
byteses = st.one_of(st.lists(_BYTE_ALPHABET, max_size=40).map(b"".join), st.binary(max_size=40))
data = st.one_of(texts, byteses)

_NAMED_TABLES = [sets.get(n).table for n in sets.names()]
tables = st.one_of(
    st.sampled_from(_NAMED_TABLES),
    st.builds(
        lambda mask, na: sets.EncodeSet(mask=mask, non_ascii=na).table,
        st.integers(0, (1 << 128) - 1),
        st.booleans(),
    ),
)
SETTINGS = settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@needs_c
@SETTINGS
@given(data, tables, st.booleans())
def test_encode_twins(d: str | bytes, table: bytes, plus: bool) -> None:
    res = same("encode", d, table, plus)
    if res[0] == "ok" and isinstance(d, str) and res[2] == d:
        assert C is not None
        assert C.encode(d, table, plus) is d  # nothing to do: the input itself


@needs_c
@SETTINGS
@given(data, st.booleans(), st.booleans())
def test_decode_twins(d: str | bytes, plus: bool, strict: bool) -> None:
    same("decode", d, plus, strict)


@needs_c
@SETTINGS
@given(data, st.booleans(), st.booleans(), st.booleans())
def test_decode_text_twins(d: str | bytes, plus: bool, strict: bool, utf8_strict: bool) -> None:
    res = same("decode_text", d, plus, strict, utf8_strict)
    if res[0] == "ok" and isinstance(d, str) and "%" not in d and (not plus or "+" not in d):
        assert C is not None
        assert C.decode_text(d, plus, strict, utf8_strict) is d


@needs_c
@SETTINGS
@given(st.binary(max_size=24))
def test_decode_text_replacement_is_maximal_subparts(raw: bytes) -> None:
    # Every byte escaped: the text decode sees arbitrary bytes, and U+FFFD
    # must replace each maximal subpart exactly as Python's "replace" does.
    assert C is not None
    escaped = "".join(f"%{b:02x}" for b in raw)
    assert C.decode_text(escaped, False, True, False) == raw.decode("utf-8", "replace")
    same("decode_text", escaped, False, True, True)


@needs_c
@SETTINGS
@given(st.text(max_size=60) | st.binary(max_size=60), st.randoms(use_true_random=False),
       st.sampled_from([0, 1, 7, 8, 15, 16, 250, 505, 509, 510, 511, 512, 513]), st.booleans(),
       st.booleans(), st.booleans())
def test_decode_text_across_buffer_boundaries(src: str | bytes, rng: Any, pad: int, as_bytes: bool,
                                          plus: bool, strict: bool) -> None:
    # Pads move the same payload across the C decoder's boundaries: its
    # 8-byte copy loop, the 16-byte UTF-8 scan, the 512-byte stack buffer
    # (longer output goes to the heap).  Bytes are escaped at random (raw
    # UTF-8 stays raw in bytes input), so multi-byte sequences mix escapes
    # and raw bytes, and runs of one sequence length break off anywhere.
    raw = src.encode("utf-8", "surrogatepass") if isinstance(src, str) else src
    out = []
    for b in raw:
        if rng.random() < 0.5 or (b >= 0x80 and not as_bytes) or b in b"%+":
            out.append(f"%{b:02{rng.choice('xX')}}")
        else:
            out.append(chr(b))
        if rng.random() < 0.05:
            out.append(rng.choice(["%", "%4", "+", "%zz", "%%41"]))
    text = "a" * pad + "".join(out)
    d: str | bytes = text.encode("latin-1") if as_bytes else text
    for utf8_strict in (False, True):
        same("decode_text", d, plus, strict, utf8_strict)
    same("form_parse", d)


# The C decode_text takes a byte buffer of up to 512 bytes in one pass: it
# writes Latin-1 while it can and widens what it wrote to UCS-2, then UCS-4,
# when a code point needs it.  These texts put each kind's first character
# anywhere (after a pad that moves them across the 512-byte limit too), mix
# valid escaped UTF-8 with bad escapes, and check the text itself, not only
# twin agreement.  Equality of str checks most of the kind: CPython compares
# kinds first, so a UCS-2 str of Latin-1 text would not be equal.
_KIND_ALPHABET = st.sampled_from(
    ["a", "Z", " ", "+", "\x00", "\x7f", "\x80", "é", "ÿ", "\u0100", "я", "日", "\uffff",
     "\U00010000", "\U0001f600", "\U0010ffff"]
)


@needs_c
@SETTINGS
@given(st.text(_KIND_ALPHABET, max_size=120), st.sampled_from([0, 1, 7, 300, 480, 511, 512, 513]),
       st.booleans(), st.booleans(), st.booleans())
def test_decode_text_one_pass_kinds(text: str, pad: int, escape_all: bool, as_bytes: bool,
                                    plus: bool) -> None:
    assert C is not None
    table = sets.FORM_URLENCODED.table if escape_all else sets.COMPONENT.table
    escaped = "a" * pad + _pure.encode(text, table, False)
    d: str | bytes = escaped.encode("ascii") if as_bytes else escaped
    want = "a" * pad + text
    res = same("decode_text", d, plus, True, True)
    assert res == ("ok", str, want)
    # ASCII and Latin-1 share a kind, so also compare the flag and the size.
    got = C.decode_text(d, plus, True, True)
    assert got.isascii() == want.isascii()
    assert _size(got) == _size(want)
    # form_parse decodes each name and value of ASCII input the same way
    body = escaped + "=" + escaped[:40] + "&" + escaped
    pairs = same("form_parse", body.encode("ascii") if as_bytes else body)
    for name, value in pairs[2]:
        assert _size(name) == _size(name.encode().decode())
        assert _size(value) == _size(value.encode("utf-8", "surrogatepass")
                                     .decode("utf-8", "surrogatepass"))


def _size(s: str) -> int | None:
    """sys.getsizeof, which shows the kind and the ASCII flag; None for the strings
    CPython shares (the empty one and the 256 one-character Latin-1 strings), whose
    size also counts a UTF-8 copy that any earlier caller may have cached in them."""
    if len(s) == 0 or (len(s) == 1 and ord(s) < 256):
        return None
    return sys.getsizeof(s)


@needs_c
@pytest.mark.parametrize("tail", ["%C3", "%C3%", "%C3%A", "%C3%a9%", "%E6%97", "%F0%9F%98",
                                  "%C3+", "%C3%41", "%C0%80", "%ED%A0%80", "%F4%90%80%80",
                                  "%E0%9F%BF", "%F0%8F%BF%BF", "%80", "%FF", "%C3%ZZ", "%e6%97%a5"])
@pytest.mark.parametrize("head", ["", "x", "\u00e9", "%C3%A9", "%E6%97%A5", "%F0%9F%98%80"])
def test_decode_text_one_pass_bad_utf8_goes_general(head: str, tail: str) -> None:
    # Every way an escaped UTF-8 sequence can be cut short or be invalid, after
    # text of each kind: the one-pass decoder must hand these to the general
    # path, whose U+FFFD (or TextDecodeError, or PercentDecodeError) is the
    # pure twin's.  head is escaped UTF-8 except the raw é, which bytes input
    # cannot hold, so only the str form is tried there.
    assert C is not None
    for d in ([head + tail] if head == "\u00e9" else [head + tail, (head + tail).encode()]):
        for strict in (False, True):
            for utf8_strict in (False, True):
                same("decode_text", d, False, strict, utf8_strict)
        same("form_parse", d)
        same("form_parse", d + (b"=" if isinstance(d, bytes) else "=") + d)


@needs_c
@pytest.mark.parametrize(("d", "want"), [
    ("%C3%A9%C3", "é\ufffd"),                  # truncated after Latin-1
    ("%E6%97%A5%E6%97", "日\ufffd"),            # truncated after UCS-2: one U+FFFD
    ("%F0%9F%98%80%C3x", "\U0001f600\ufffdx"),
    ("%ED%A0%80", "\ufffd\ufffd\ufffd"),       # an escaped surrogate: three
    ("%C3%A9%zz%E6%97%A5", "é%zz日"),
    ("a+b%2B%C3%A9", "a+b+é"),
])
def test_decode_text_one_pass_results(d: str, want: str) -> None:
    assert C is not None
    assert C.decode_text(d, False, False, False) == want
    assert C.decode_text(d.encode(), False, False, False) == want


@needs_c
@SETTINGS
@given(st.one_of(texts, byteses))
def test_form_parse_twins(d: str | bytes) -> None:
    same("form_parse", d)


@needs_c
@SETTINGS
@given(byteses)
def test_form_parse_bytes_twins(d: bytes) -> None:
    same("form_parse_bytes", d)


pair_items = st.one_of(texts, byteses)


@needs_c
@SETTINGS
@given(st.lists(st.tuples(pair_items, pair_items), max_size=6))
def test_form_serialize_twins(pairs: list[tuple[str | bytes, str | bytes]]) -> None:
    same("form_serialize", pairs)
    same("form_serialize", tuple(pairs))
    assert C is not None
    assert outcome(C.form_serialize, iter(pairs)) == outcome(_pure.form_serialize, iter(pairs))
    same("form_serialize", [list(p) for p in pairs])


@needs_c
@pytest.mark.parametrize(
    "pairs",
    [
        [("a",)],
        [("a", "b", "c")],
        [5],
        ["ab"],
        [("a", 1)],
        [(None, "x")],
        [("ok", "fine"), ("bad\ud800", "x")],
        [("a\ud800", "%")],
        [],
        [("", "")],
    ],
)
def test_form_serialize_odd_input(pairs: list[Any]) -> None:
    same("form_serialize", pairs)


@needs_c
@pytest.mark.parametrize(
    "d",
    [
        "%", "%4", "%4g", "%G1", "abc%", "ab%zz", "é%zz", "é%4", "日%é1", "\U0001f600%1\U0001f600",
        "%zz\ud800", "\ud800%zz", "%41%4a%4A%aF%Af%fa", b"%", b"%4", b"%\xff1", b"a%zz",
        "+%2B+", b"+%2b+",
    ],
)
def test_decode_errors_and_positions(d: str | bytes) -> None:
    for plus in (False, True):
        for strict in (False, True):
            same("decode", d, plus, strict)
            for utf8_strict in (False, True):
                same("decode_text", d, plus, strict, utf8_strict)


@needs_c
@pytest.mark.parametrize(
    "d",
    [
        "a=\ud800", "a\ud800=%41", "x=1&\ud800%41=2", "\ud800+%41", "a+\udfff=b+c",
        "é=ü&%C3%A9=%FC", "&&a&&=&=b&", "a=b=c", "\U0001f600=%F0%9F%98%80",
        b"a=%ff&\xff=\xc3", b"&&", b"",
    ],
)
def test_form_parse_edge_cases(d: str | bytes) -> None:
    same("form_parse", d)
    if isinstance(d, bytes):
        same("form_parse_bytes", d)


@needs_c
def test_encode_keeps_input_object_and_kinds() -> None:
    assert C is not None
    comp = sets.COMPONENT.table
    iri = sets.EncodeSet(" ", non_ascii=False).table
    for s in ["plain", "é-only-latin1", "日本", "\U0001f600", ""]:
        expect_same = s.isascii()
        r = C.encode(s, comp, False)
        assert (r is s) == expect_same
        assert C.encode(s, iri, False) is s
    # Non-ASCII kept with some ASCII encoded: the result keeps each kind.
    for s in ["é x", "日 x", "\U0001f600 x"]:
        same("encode", s, iri, False)
        assert C.encode(s, iri, True) == s.replace(" ", "+")
    with pytest.raises(UnicodeEncodeError) as ei:
        C.encode("ab\ud800\udc00c", comp, False)
    assert (ei.value.start, ei.value.end) == (2, 4)
    assert C.encode("a\ud800 b", iri, False) == "a\ud800%20b"


@needs_c
def test_encode_table_argument_checked() -> None:
    assert C is not None
    with pytest.raises(TypeError):
        C.encode("a", b"\x00" * 10, False)
    with pytest.raises(TypeError):
        C.encode("a", bytearray(256), False)
    with pytest.raises(TypeError):
        C.encode(5, sets.COMPONENT.table, False)
    # Keyword arguments work as in the pure twin.
    assert C.encode(data="a b", table=sets.COMPONENT.table, space_as_plus=True) == "a+b"


@needs_c
def test_table_cache_is_by_content_not_only_identity() -> None:
    assert C is not None
    # Many distinct tables in turn (more than the cache holds), each right.
    for i in range(40):
        t = sets.EncodeSet(chr(0x21 + i)).table
        assert C.encode("".join(map(chr, range(0x20, 0x7F))), t, False) == _pure.encode(
            "".join(map(chr, range(0x20, 0x7F))), t, False
        )


@needs_c
def test_large_inputs_agree() -> None:
    text = ("日本語のテキスト a+b=c&d %E6%97%A5 %zz \U0001f600 " * 3000)
    table = sets.COMPONENT.table
    same("encode", text, table, False)
    enc = _pure.encode(text, table, True)
    same("decode", enc, True, False)
    same("decode_text", enc, True, False, True)
    same("form_parse", text)
    same("form_parse", text.encode())
    same("form_parse_bytes", text.encode())
    body = "&".join(f"k{i}=v%20{i}+日" for i in range(5000))
    same("form_parse", body)
    same("form_serialize", _pure.form_parse(body))


# core.encode / core.decode_text are C entries (make_entry) when the C twin is
# built: the common call goes straight to the kernel, every other call to the
# checked Python function.  Both must give the same results and errors.

class _Str(str):
    pass


_SET_ARGS = st.one_of(
    st.sampled_from(sorted(sets.names())),
    st.sampled_from([sets.get(n) for n in sets.names()]),
    st.sampled_from(["nope", "", _Str("component"), 5, None, b"component"]),
    st.builds(lambda m: sets.EncodeSet(mask=m), st.integers(0, (1 << 128) - 1)),
)
_FLAG_ARGS = st.sampled_from([True, False, 0, 1, None, "yes"])
_ENC_ARGS = st.sampled_from(["utf-8", "UTF-8", "utf8", _Str("utf-8"), "latin1", "shift_jis", 8])
_ODD_DATA = st.sampled_from([bytearray(b"a b"), memoryview(b"%41 "), _Str("a b%41"), 5, None])
entry_data = st.one_of(data, _ODD_DATA)


def _kwargs(draw: Any, names: dict[str, Any]) -> dict[str, Any]:
    return {k: draw(v) for k, v in names.items() if draw(st.booleans())}


def _same_entry(public: Callable[..., Any], checked: Callable[..., Any], *a: Any,
                **kw: Any) -> tuple[Any, ...]:
    c = outcome(lambda: public(*a, **kw))
    py = outcome(lambda: checked(*a, **kw))
    assert c == py, f"{public.__name__}(*{a!r}, **{kw!r})"
    return c


@needs_c
def test_encode_entry_set_name_cache() -> None:
    # The encode entry remembers the last set name it looked up (by object):
    # names alternating, an equal name in another str object, a set object in
    # between, the default, and a name registered after the cache was filled
    # must each still get their own set.
    enc = percent_encoding.encode
    text = "a b/c?d~é"
    want = {n: _pure.encode(text, sets.get(n).table, False) for n in ("path", "component", "query")}
    equal_name = "".join(["comp", "onent"])
    assert equal_name is not "component"  # noqa: F632 - another object on purpose
    for _ in range(3):
        assert enc(text, "path") == want["path"]
        assert enc(text) == want["component"]
        assert enc(text, "query") == want["query"]
        assert enc(text, equal_name) == want["component"]
        assert enc(text, sets.get("path")) == want["path"]
        assert enc(text, "path") == want["path"]
    name = f"test-cache-{os.getpid()}-{id(text)}"
    with pytest.raises(sets.UnknownSetError):
        enc(text, name)
    sets.register(name, sets.EncodeSet(mask=1 << ord("a")))
    try:
        assert enc(text, name) == "%61 b/c?d~%C3%A9"
    finally:  # keep sets.names() as the rest of the suite knows it
        del sets._REGISTRY[name]
        assert enc(text, "path") == want["path"]


def _plain_signature(f: Callable[..., Any]) -> inspect.Signature:
    sig = inspect.signature(f)
    return sig.replace(parameters=[p.replace(annotation=inspect.Parameter.empty)
                                   for p in sig.parameters.values()],
                       return_annotation=inspect.Signature.empty)


def test_entries_wrap_the_checked_functions() -> None:
    from percent_encoding import _kernels, core, form, url
    from percent_encoding.form import _parse

    for public, checked, name in [
        (core.encode, core._encode_checked, "encode"),
        (core.decode_text, core._decode_text_checked, "decode_text"),
        (form.serialize, checked_serialize, "serialize"),
        (form.parse, _parse.parse if C is None else _kernels.checked(form.parse), "parse"),
        (url.parse, _kernels.checked(url.parse), "parse"),
        (url.can_parse, _kernels.checked(url.can_parse), "can_parse"),
    ]:
        assert public.__name__ == public.__qualname__ == name
        assert public.__doc__ == checked.__doc__
        assert public.__module__ == checked.__module__
        # what inspect, help() and IDEs read: the checked function's parameters,
        # kinds and defaults (a built-in function's text signature has no annotations)
        assert _plain_signature(public) == _plain_signature(checked)
        assert pickle.loads(pickle.dumps(public)) is public
        assert copy.deepcopy(public) is public
        if C is not None:
            assert public is not checked
            assert _kernels.checked(public) is checked
            # a built-in function (CPython specializes calls of exactly this type)
            # whose self is the entry's state, a module (so no "Type." in its
            # qualified name, and pickle finds it by module and name)
            assert type(public) is types.BuiltinFunctionType
            assert isinstance(public.__self__, types.ModuleType)  # type: ignore[attr-defined]
            assert repr(public) == f"<built-in function {name}>"
        else:
            assert _kernels.checked(public) is public or public is core.decode_text
    assert percent_encoding.form.serialize is form.serialize
    assert core.percent_encode_after_encoding is core.encode
    assert percent_encoding.encode is core.encode
    assert percent_encoding.decode_text is core.decode_text


@needs_c
def test_make_entry_refuses_bad_arguments() -> None:
    def f(data: str) -> str:
        return data

    good = ("decode_text", f, _encode_set.REGISTRY, sets.EncodeSet, "f", "f(data)\n--\n\n")
    assert C.make_entry(*good)("a%41") == "aA"
    for i, bad in [(0, "nope"), (1, len), (2, []), (3, 5), (4, b"f"), (5, None)]:
        args = list(good)
        args[i] = bad
        with pytest.raises((TypeError, ValueError)):
            C.make_entry(*args)
    # a default a text signature cannot hold is refused when the entry is made
    def g(data: str, flag: object = object()) -> str:
        return data

    with pytest.raises(TypeError, match="text signature"):
        percent_encoding._kernels.make_entry("decode_text", g)
    # the state lives as long as the function: made, dropped, collected, made again
    for _ in range(3):
        e = C.make_entry(*good)
        assert e.__name__ == "f" and e("%41") == "A" and e(b"%41") == "A"
        del e
        gc.collect()


@needs_c
@SETTINGS
@given(st.data())
def test_encode_entry_twins(draw: st.DataObject) -> None:
    from percent_encoding import core

    d = draw.draw(entry_data)
    pos: list[Any] = [d]
    kw = _kwargs(draw.draw, {"encoding": _ENC_ARGS, "space_as_plus": _FLAG_ARGS,
                             "errors": st.sampled_from(["strict", "replace", "ignore", 1])})
    es = draw.draw(st.one_of(st.none(), _SET_ARGS))
    if es is not None:
        if draw.draw(st.booleans()):
            pos.append(es)
        else:
            kw["encode_set"] = es
    if draw.draw(st.booleans()) and len(pos) == 1 and "encode_set" not in kw:
        kw["data"] = pos.pop()
    _same_entry(core.encode, core._encode_checked, *pos, **kw)


@needs_c
@SETTINGS
@given(st.data())
def test_decode_text_entry_twins(draw: st.DataObject) -> None:
    from percent_encoding import core

    d = draw.draw(entry_data)
    kw = _kwargs(draw.draw, {
        "encoding": _ENC_ARGS,
        "errors": st.sampled_from(["replace", "strict", "fatal", "ignore", None]),
        "plus_as_space": _FLAG_ARGS,
        "strict": _FLAG_ARGS,
    })
    if draw.draw(st.booleans()):
        _same_entry(core.decode_text, core._decode_text_checked, d, **kw)
    else:
        _same_entry(core.decode_text, core._decode_text_checked, data=d, **kw)


class _Tuple(tuple):  # type: ignore[type-arg]
    pass


_ODD_ITEMS = st.sampled_from([
    "ab", b"ab", ("a",), ("a", "b", "c"), ["a", "b", "c"], _Tuple(("a", "b")), ("a", 1),
    (None, "b"), ("a", bytearray(b"b")), (_Str("a b"), "c"), ("a", _Str("+")), 7, None,
])
_SERIALIZE_ENC = st.sampled_from(["utf-8", "UTF-8", "utf8", _Str("utf-8"), "windows-1252",
                                  "shift_jis", "utf-16le", "nope", None, 8])


@st.composite
def _serialize_pairs(draw: Any) -> Any:
    item = st.one_of(
        st.tuples(pair_items, pair_items),
        st.lists(pair_items, min_size=2, max_size=2),
        _ODD_ITEMS,
    )
    items = draw(st.lists(item, max_size=6))
    shape = draw(st.sampled_from(["list", "tuple", "iter", "dict", "str", "none"]))
    if shape == "tuple":
        return tuple(items)
    if shape == "iter":
        return iter(items)
    if shape == "dict":
        return {str(i): v for i, v in enumerate(items) if isinstance(v, str)}
    if shape == "str":
        return "a=b"
    if shape == "none":
        return None
    return items


@needs_c
@SETTINGS
@given(st.data())
def test_serialize_entry_twins(draw: st.DataObject) -> None:
    # form.serialize (the C entry) and checked_serialize (the checked function
    # it falls back to) agree on every shape of call: results, error types
    # and messages.
    from percent_encoding import form

    pairs = draw.draw(_serialize_pairs())
    if isinstance(pairs, Iterator):
        pairs = list(pairs)
        make: Callable[[], Any] = lambda: iter(pairs)  # noqa: E731
    else:
        make = lambda: pairs  # noqa: E731
    kw = _kwargs(draw.draw, {"encoding": _SERIALIZE_ENC})
    if draw.draw(st.booleans()):
        c = outcome(lambda: form.serialize(make(), **kw))
        py = outcome(lambda: checked_serialize(make(), **kw))
    else:
        c = outcome(lambda: form.serialize(pairs=make(), **kw))
        py = outcome(lambda: checked_serialize(pairs=make(), **kw))
    assert c == py, f"serialize({pairs!r}, **{kw!r})"


@needs_c
def test_serialize_entry_fast_path_results() -> None:
    # The shapes the fast path takes, against the spec's output written out.
    from percent_encoding import form
    from percent_encoding.errors import PercentEncodeError, PercentEncodingTypeError

    assert form.serialize([("a b", "c&d"), (b"\xff", "é")]) == "a+b=c%26d&%FF=%C3%A9"
    assert form.serialize((["x", "*-._~"], ("", ""))) == "x=*-._%7E&="
    assert form.serialize([], encoding="UTF-8") == ""
    assert form.serialize(pairs=[("k", "日")]) == "k=%E6%97%A5"
    with pytest.raises(PercentEncodeError, match="position 1"):
        form.serialize([("k", "a\ud800")])
    # A value the kernel refuses (an int) takes the checked path: str() of it, as urlencode.
    assert form.serialize([("k", "v"), ("k", 5)]) == "k=v&k=5"
    with pytest.raises(PercentEncodingTypeError, match="pair 1"):
        form.serialize([("k", "v"), ("k", "v", "x")])
    with pytest.raises(PercentEncodingTypeError):
        form.serialize("a=b")


@needs_c
def test_entries_bad_calls_match() -> None:
    from percent_encoding import form

    for a, kw in [((), {}), (([], "utf-8"), {}), (([],), {"bogus": 1}), (([],), {"pairs": []}),
                  ((), {"encoding": "utf-8"})]:
        _same_entry(form.serialize, checked_serialize, *a, **kw)
    from percent_encoding import core

    for a, kw in [((), {}), (("a", "path", "x"), {}), (("a",), {"bogus": 1}),
                  (("a",), {"data": "b"}), (("a", "path"), {"encode_set": "path"})]:
        _same_entry(core.encode, core._encode_checked, *a, **kw)
    for a, kw in [((), {}), (("a", "b"), {}), (("a",), {"data": "b"}), (("a",), {"bogus": 1}),
                  ((), {"plus_as_space": True})]:
        _same_entry(core.decode_text, core._decode_text_checked, *a, **kw)


_FORM_DATA = st.one_of(
    data, st.sampled_from(["a=1&b=%41+c", "?x=\ud800", "a=\udc00&b", b"a=\xff&%zz", "k=\u00e9",
                           bytearray(b"a=1"), memoryview(b"a=1"), _Str("a=1"), 5, None]))
_FORM_KW = {
    "encoding": st.sampled_from([None, "utf-8", "windows-1252", "auto", "nope", 5]),
    "separators": st.sampled_from(["&", "&;", "", 5]),
    "strip_leading_question_mark": _FLAG_ARGS,
    "isindex": _FLAG_ARGS,
    "errors": st.sampled_from(["replace", "fatal", "strict", "bogus"]),
    "strict": st.sampled_from([None, False, True, 0]),
    "max_fields": st.sampled_from([None, 1, 100, -1]),
    "edition": st.sampled_from(["current", "2014", "bogus"]),
    "per_field": _FLAG_ARGS,
}


@needs_c
@SETTINGS
@given(st.data())
def test_form_parse_entry_twins(draw: st.DataObject) -> None:
    # form.parse (a C entry: the call with no option goes straight to the kernel) and
    # the checked function it falls back to agree: results, error types and messages.
    from percent_encoding import form

    d = draw.draw(_FORM_DATA)
    kw = _kwargs(draw.draw, _FORM_KW)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        _same_entry(form.parse, _checked(form.parse), d, **kw)
        if not kw:
            _same_entry(form.parse, _checked(form.parse), data=d)


@needs_c
def test_form_parse_entry_bad_calls_match() -> None:
    from percent_encoding import form

    assert form.parse.__name__ == "parse" and _checked(form.parse) is not form.parse
    for a, kw in [((), {}), (("a", "b"), {}), (("a",), {"data": "b"}), (("a",), {"bogus": 1})]:
        _same_entry(form.parse, _checked(form.parse), *a, **kw)


@needs_c
def test_entries_follow_the_kernel_swap() -> None:
    # The fixture that runs the suite on the pure twin swaps core._k: the
    # entries must then route every call through it.
    from percent_encoding import core

    calls: list[str] = []
    spy = ModuleType("spy")

    def spying(name: str) -> Callable[..., Any]:
        f = getattr(_pure, name)

        def wrap(*a: Any) -> Any:
            calls.append(name)
            return f(*a)

        return wrap

    from percent_encoding import form

    for name in ("encode", "decode", "decode_text", "form_serialize"):
        setattr(spy, name, spying(name))
    old = core._use_kernels(spy)
    try:
        assert core.encode("a b") == "a%20b"
        assert core.encode(b"a b", "path", space_as_plus=False) == "a%20b"
        assert core.decode_text("a%20b") == "a b"
        assert core.decode_text(b"a+b", plus_as_space=True) == "a b"
        assert form.serialize([("a", "b c")]) == "a=b+c"
    finally:
        core._use_kernels(old)
    expected = ["encode", "encode", "decode_text", "decode_text", "form_serialize"]
    assert calls == expected
    assert core.encode("a b") == "a%20b"
    assert form.serialize([("a", "b c")]) == "a=b+c"
    assert calls == expected


@needs_c
def test_entries_keep_identity_and_errors() -> None:
    from percent_encoding import core
    from percent_encoding.errors import PercentDecodeError, PercentEncodeError

    s = "plain-text"
    assert core.encode(s) is s
    assert core.decode_text(s) is s
    with pytest.raises(PercentEncodeError, match="position 2"):
        core.encode("ab\ud800")
    assert core.encode("ab\ud800", errors="replace") == "ab%EF%BF%BD"
    with pytest.raises(PercentDecodeError):
        core.decode_text("%zz", strict=True)
    with pytest.raises(PercentDecodeError, match="lone surrogate U\\+D800 at position 1"):
        core.decode_text("a\ud800%41")


# -- the encode entry's set-name cache follows the registry ----------------------------------

def _rebound_case(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    from percent_encoding import core

    name = sys.intern("path")
    assert core.encode("a/b c", name) == "a/b%20c"  # warm the entry's cache on this str
    component = sets.get("component")
    registry = _encode_set.REGISTRY  # the one registry: sets, core and the C entry read it
    if how == "name":  # a name rebound in the registry, behind register()'s back
        monkeypatch.setitem(registry, "path", component)
    else:  # the registry emptied and refilled (undone item by item)
        saved = dict(registry)
        for key in reversed(saved):  # undone last-in first-out: the order comes back as it was
            monkeypatch.delitem(registry, key)
        for key, value in saved.items():
            monkeypatch.setitem(registry, key, component if key == "path" else value)


@pytest.mark.parametrize("how", ["name", "registry"])
def test_encode_name_cache_follows_a_rebind(monkeypatch: pytest.MonkeyPatch, how: str) -> None:
    from percent_encoding import core

    order = list(_encode_set.REGISTRY)
    _rebound_case(monkeypatch, how)
    # The fast path (same interned str, default arguments) and the checked
    # function (reached through a keyword the fast path leaves alone) agree.
    fast = core.encode("a/b c", "path")
    checked = core.encode("a/b c", "path", errors="replace")
    assert fast == checked == "a%2Fb%20c"
    monkeypatch.undo()
    assert core.encode("a/b c", "path") == "a/b%20c"  # and back again after the undo
    assert list(_encode_set.REGISTRY) == order  # (the registry's order is what names() lists)


# -- decode_text of a UCS-2 str in one pass ---------------------------------------------------

_UCS2_PIECES = ["日", "本", "語", "ß", "é", "a", " ", "+", "%", "%2", "%zz", "%41", "%C3%A9",
                "%E6%97%A5", "%E6%97", "%ED%A0%80", "%E0%80%80", "%F0%9F%98%80", "%FF", "%C2",
                "\ud800", "\U0001f600", "%c3%a9"]


@needs_c
@SETTINGS
@given(st.lists(st.sampled_from(_UCS2_PIECES), max_size=40).map("".join),
       st.booleans(), st.booleans(), st.booleans())
def test_decode_text_ucs2_one_pass(d: str, plus: bool, strict: bool, utf8_strict: bool) -> None:
    # The one-pass decoder for UCS-2 text hands anything unusual (surrogates,
    # invalid or astral escaped UTF-8, a Latin-1 result, a bad '%' when strict)
    # to the general path: every case agrees with the pure twin.
    same("decode_text", d, plus, strict, utf8_strict)
    same("decode_text", "日" + d, plus, strict, utf8_strict)  # always UCS-2 input


# The kernels' contract: the C twin has every kernel of the pure twin, with the same
# positional parameters (none has a default), and gives the same result.
_KERNEL_CALLS: dict[str, tuple[Any, ...]] = {
    "encode": ("a b/é", sets.COMPONENT.table, True),
    "decode": ("a%20b+%zz", True, False),
    "decode_text": (b"a%C3%A9+", True, False, True),
    "form_parse": ("a=b+c&&d=%41",),
    "form_parse_bytes": (b"a=b+c&&d=%FF",),
    "form_serialize": ([("a b", "c&d"), (b"\xff", "\xe9")],),
}


@needs_c
@pytest.mark.one_impl
def test_c_kernels_have_the_pure_signatures() -> None:
    assert C is not None
    pure_kernels = {
        n for n, f in vars(_pure).items()
        if inspect.isfunction(f) and not n.startswith("_") and f.__module__ == _pure.__name__
    }
    assert pure_kernels == set(_KERNEL_CALLS), "a new kernel: add a call to _KERNEL_CALLS"
    for name, args in _KERNEL_CALLS.items():
        py, c = getattr(_pure, name), getattr(C, name)
        params = list(inspect.signature(py).parameters.values())
        assert len(params) == len(args), name
        assert all(p.default is inspect.Parameter.empty for p in params), name
        assert c(*args) == py(*args), name
        for wrong in (args[:-1], (*args, None)):
            with pytest.raises(TypeError):
                c(*wrong)
            with pytest.raises(TypeError):
                py(*wrong)


_ENTRY_REQUIRED: dict[str, tuple[Any, ...]] = {
    "encode": ("a b+é",),
    "decode_text": ("a%20b+%C3%A9",),
    "serialize": ([("a b", "é")],),
}


@needs_c
@pytest.mark.one_impl
def test_c_entries_bind_arguments_as_the_python_signature_says() -> None:
    # The C entries bind their own arguments (for speed); each parameter of the checked
    # Python function, read from its signature, must be accepted the same way: by keyword
    # and, where the signature allows it, by position, its default giving the default's
    # result; a keyword-only one passed by position, or an unknown keyword, is the same
    # TypeError.  A parameter added to the Python function and not to C fails here.
    from percent_encoding import core, form

    for public, checked in [
        (core.encode, core._encode_checked),
        (core.decode_text, core._decode_text_checked),
        (form.serialize, checked_serialize),
    ]:
        required = _ENTRY_REQUIRED[checked.__name__]
        base = _same_entry(public, checked, *required)
        assert base[0] == "ok", base
        params = list(inspect.signature(checked).parameters.values())
        assert len([p for p in params if p.default is inspect.Parameter.empty]) == len(required)
        for i, p in enumerate(params):
            if p.default is inspect.Parameter.empty:
                kw = {p.name: required[i]}
                assert _same_entry(public, checked, *required[:i], **kw) == base, p.name
                continue
            assert _same_entry(public, checked, *required, **{p.name: p.default}) == base, p.name
            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
                assert _same_entry(public, checked, *required, p.default) == base, p.name
            else:
                got = _same_entry(public, checked, *required, p.default)
                assert got[0] != "ok", f"{p.name} is keyword-only"
            _same_entry(public, checked, *required, **{p.name: p.default, "bogus": 1})
        _same_entry(public, checked, *required, *[p.default for p in params[len(required):]])


# What only the C twin has: the Arrow column kernels, their thread count and the block
# decoder switch (arrow.py maps rows in Python with the pure twin; the URL columns'
# twin is url/_columns.py's per-row url.parse, tests/test_arrow_url.py), the entries'
# machinery (core._make_entry), and the URL fast path with its set-up and canParse (the
# pure twin's url.parse is the Python parser alone, which the fast path must agree
# with: tests/test_url_c.py), and the URL setters (url/_setters.py is their twin:
# tests/test_url_setters_c.py).
_C_ONLY = {"URL", "arrow_map", "arrow_set_blocks", "arrow_set_threads", "arrow_url", "make_entry",
           "set_entries_active", "url_can_parse", "url_from_parts", "url_parse", "url_replace",
           "url_setup", "url_type_setup"}


@needs_c
@pytest.mark.one_impl
def test_c_kernels_declare_the_pure_parameters() -> None:
    # The C kernels carry text signatures: the same parameter names, in the same order,
    # none with a default, as their pure twins; and C has no kernel the pure twin lacks
    # beyond the C-only machinery above.
    assert C is not None
    c_names = {n for n in dir(C) if not n.startswith("_") and callable(getattr(C, n))}
    assert c_names - set(_KERNEL_CALLS) == _C_ONLY
    for name in _KERNEL_CALLS:
        py = inspect.signature(getattr(_pure, name)).parameters
        c = inspect.signature(getattr(C, name)).parameters
        assert list(c) == list(py), name
        assert all(p.default is inspect.Parameter.empty for p in c.values()), name
        assert all(p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD for p in py.values()), name


@pytest.mark.one_impl
def test_kernel_seam_follows_the_twin_swap() -> None:
    from percent_encoding import core

    active = core._k
    try:
        core._use_kernels(_pure)
        assert core.form_parse_kernel is _pure.form_parse
        assert core.form_parse_bytes_kernel is _pure.form_parse_bytes
        assert core.form_serialize_kernel is _pure.form_serialize
        assert core.arrow_map_kernel is None  # the pure twin maps Arrow rows in arrow.py
    finally:
        core._use_kernels(active)
    assert core.form_parse_kernel is active.form_parse
    assert core.form_serialize_kernel is active.form_serialize
    assert core.arrow_map_kernel is getattr(active, "arrow_map", None)


# -- decode_text of long input: the AVX2 block decoder ---------------------------------------
# From 1,024 bytes on, decode_text of bytes or ASCII text (with strict=False) percent-decodes
# with the Arrow kernels' block decoder (arrow_simd.c) when the CPU has AVX2, and turns
# the bytes it found to be UTF-8 into a str with a fill that does not check them again.
# Against the portable path (the block decoder switched off) and the pure twin: results
# and errors, on input around the threshold and the 32-byte block edges.

_BLOCK_PIECES = ["a", "Z", "+", " ", "%", "%4", "%41", "%2B", "%zz", "%%", "%C3%A9", "%c3%a9",
                 "%E6%97%A5", "%F0%9F%98%80", "%F4%8F%BF%BF", "%C3", "%80", "%ED%A0%80",
                 "%F4%90%80%80", "%C0%AF", "%E0%80%80", "%EF%BF%BD", "%FF"]


@st.composite
def _long_escaped(draw: Any) -> bytes:
    unit = "".join(draw(st.lists(st.sampled_from(_BLOCK_PIECES), min_size=1, max_size=24)))
    size = draw(st.sampled_from([1000, 1023, 1024, 1025, 1056, 1087, 2048 + 31, 4099, 8191,
                                 8192, 9001, 16411]))
    head = "x" * draw(st.integers(0, 40))  # shifts the escapes against the 32-byte blocks
    tail = draw(st.sampled_from(["", "%", "%4", "%C3", "%F0%9F%98", "%E6%97%A5", "é"]))
    body = head + unit * (size // len(unit) + 1)
    return (body[: size - len(tail)] + tail).encode()


@needs_c
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_long_escaped(), st.booleans(), st.booleans(), st.sampled_from([b"", b"\xff", b"\xe6\x97"]))
def test_decode_text_block_decoder_matches(raw: bytes, plus: bool, fatal: bool,
                                           junk: bytes) -> None:
    assert C is not None
    raw = raw.replace(b"Z", junk) if junk else raw  # raw bytes, valid UTF-8 or not
    inputs: list[str | bytes] = [raw]
    if raw.isascii():
        inputs.append(raw.decode("ascii"))
    for d in inputs:
        args = (d, plus, False, fatal)
        py = outcome(_pure.decode_text, *args)
        on = outcome(C.decode_text, *args)
        old = C.arrow_set_blocks(False)
        try:
            off = outcome(C.decode_text, *args)
        finally:
            C.arrow_set_blocks(old)
        assert on == off == py, (args[1:], d[:80])


@needs_c
def test_decode_text_block_decoder_on_multibyte_text() -> None:
    # Long text with escaped 2- to 4-byte characters (the kind 1, 2 and 4 results),
    # the escapes at every offset of a 32-byte block.
    assert C is not None
    for chars in (["é", "ÿ"], ["é", "日"], ["é", "日", "\U0001f600"], ["\U0010ffff"]):
        for shift in range(33):
            # (past 8 KB the fill runs four parts of the text side by side)
            many = 120 if shift % 4 else 700
            text = "a" * shift + "".join(f"{c}bcdefghij{'k' * (i % 7)}" for i, c in
                                         enumerate(chars * many))
            enc = _pure.encode(text, sets.COMPONENT.table, False)
            assert len(enc) >= 1024
            assert C.decode_text(enc, False, False, False) == text
            assert C.decode_text(enc.encode(), False, False, False) == text
    # The four parts are cut at a quarter, a half and three quarters of the decoded
    # bytes, each moved on to the start of a sequence: text of only 2-, 3- or 4-byte
    # characters after a few ASCII ones puts those points on every byte of a sequence.
    for char in ("é", "日", "\U0001f600"):
        for lead in range(12):
            for count in (8192 // len(char.encode()) + 1, 3001, 4099):
                text = "a" * lead + char * count + "z"
                enc = _pure.encode(text, sets.COMPONENT.table, False)
                assert C.decode_text(enc, False, False, False) == text, (char, lead, count)


@pytest.mark.one_impl
def test_the_stub_lists_every_function_the_extension_exports() -> None:
    # The written C contract (_speedups.pyi): every exported function and type, and the six
    # kernels with a pure twin in _pure with the same parameters.
    import ast

    stub = Path(percent_encoding.__file__).with_name("_speedups.pyi")
    tree = ast.parse(stub.read_text("utf-8"))
    declared = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    classes = {c.name for c in tree.body if isinstance(c, ast.ClassDef)}
    twins = {n for n, f in declared.items() if "NO PURE TWIN" not in (ast.get_docstring(f) or "")}
    assert twins == {"encode", "decode", "decode_text", "form_parse", "form_parse_bytes",
                     "form_serialize"}
    for name in twins:
        params = [a.arg for a in declared[name].args.args]
        assert params == list(inspect.signature(getattr(_pure, name)).parameters), name
    try:
        from percent_encoding import _speedups as c
    except ImportError:
        pytest.skip("the C twin is not built here")
    exported = {n for n in dir(c) if not n.startswith("_") and callable(getattr(c, n))}
    assert exported == set(declared) | classes
    assert classes == {"URL"} and isinstance(c.URL, type)
    for name in twins:  # the C docstring signature names the same parameters
        doc = (getattr(c, name).__text_signature__ or "").strip("()").split(", ")
        assert doc == [a.arg for a in declared[name].args.args], name
