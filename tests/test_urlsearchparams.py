"""percent_encoding.URLSearchParams: the URL Standard §6.2 API with Python names."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import percent_encoding
from percent_encoding import PercentEncodingTypeError, URLSearchParams
from percent_encoding.form import parse, serialize


def test_exported() -> None:
    assert percent_encoding.URLSearchParams is URLSearchParams
    assert "URLSearchParams" in percent_encoding.__all__


def test_constructor_forms() -> None:
    assert list(URLSearchParams()) == []
    assert list(URLSearchParams("")) == []
    assert list(URLSearchParams("?a=1&b")) == [("a", "1"), ("b", "")]
    # only one "?" is removed
    assert list(URLSearchParams("??a")) == [("?a", "")]
    assert list(URLSearchParams({"a": "1", "b": "2"})) == [("a", "1"), ("b", "2")]
    assert list(URLSearchParams([("a", "1"), ["b", "2"]])) == [("a", "1"), ("b", "2")]
    assert list(URLSearchParams(iter([("x", "y")]))) == [("x", "y")]
    src = URLSearchParams("a=1")
    copy = URLSearchParams(src)
    copy.append("b", "2")
    assert str(src) == "a=1" and str(copy) == "a=1&b=2"
    assert src.copy() == src and src.copy() is not src


def test_constructor_type_errors() -> None:
    for bad in ([("a",)], [("a", "b", "c")], ["ab"], [b"ab"], [1], [("a", 1)], 5, b"a=b"):
        with pytest.raises(TypeError):
            URLSearchParams(bad)  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingTypeError):
            URLSearchParams(bad)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        URLSearchParams({"a": 1})


def test_usvstring_conversion() -> None:
    p = URLSearchParams([("a\ud800", "\udc00b")])
    assert list(p) == [("a\ufffd", "\ufffdb")]
    # a record whose keys collapse to the same USVString keeps the first
    # position and the last value (WebIDL record conversion)
    p = URLSearchParams(dict([("\ud835x", "1"), ("xx", "2"), ("\ud83dx", "3")]))
    assert list(p) == [("\ufffdx", "3"), ("xx", "2")]
    p = URLSearchParams("a\ud800=b")
    assert list(p) == [("a\ufffd", "b")]
    p.append("\udfff", "\ud800")
    assert p.get("\udfff") == "\ufffd"
    assert p.has("\ufffd", "\ufffd")
    assert str(p) == "a%EF%BF%BD=b&%EF%BF%BD=%EF%BF%BD"
    # a surrogate *pair* is one astral character, not two replacements
    assert list(URLSearchParams([("\U0001f4a9", "")])) == [("\U0001f4a9", "")]


def test_methods() -> None:
    p = URLSearchParams("a=1&b=2&a=3&c")
    assert p.size == len(p) == 4
    assert p.get("a") == "1" and p.get("z") is None and p.get("c") == ""
    assert p.get_all("a") == ["1", "3"] == p.getAll("a")
    assert p.get_all("z") == []
    assert p.has("a") and not p.has("z")
    assert p.has("a", "3") and not p.has("a", "2")
    assert "b" in p and "z" not in p and 3 not in p
    p.set("a", "x")
    assert list(p) == [("a", "x"), ("b", "2"), ("c", "")]
    p.set("d", "y")
    assert list(p)[-1] == ("d", "y")
    p.append("a", "z")
    p.delete("a", "x")
    assert p.get_all("a") == ["z"]
    p.delete("a")
    assert not p.has("a")
    p.delete("nothing")
    assert list(p.keys()) == ["b", "c", "d"]
    assert list(p.values()) == ["2", "", "y"]
    assert list(p.items()) == list(p.entries()) == list(p)
    seen: list[tuple[str, str]] = []
    p.forEach(lambda v, k, obj: seen.append((k, v)) if obj is p else None)
    assert seen == list(p)
    assert repr(p) == "URLSearchParams([('b', '2'), ('c', ''), ('d', 'y')])"


def test_serialization() -> None:
    p = URLSearchParams()
    p.append("a b", "1+1=2&é")
    p.append("", "")
    assert str(p) == "a+b=1%2B1%3D2%26%C3%A9&=" == p.to_string() == p.toString()
    # no newline normalization in URLSearchParams (unlike HTML forms)
    p = URLSearchParams([("t", "a\nb\rc")])
    assert str(p) == "t=a%0Ab%0Dc"


def test_sort_utf16_code_units_stable() -> None:
    p = URLSearchParams("z=1&\uffff=2&\U0001f308=3&a=4&z=0&\ue000=5")
    p.sort()
    # U+1F308 is D83C DF08 in UTF-16: it sorts before U+E000 and U+FFFF
    assert [k for k, _ in p] == ["a", "z", "z", "\U0001f308", "\ue000", "\uffff"]
    assert p.get_all("z") == ["1", "0"]  # stable
    q = URLSearchParams("b=1&a=2&b=0&a=9")
    q.sort()
    assert str(q) == "a=2&a=9&b=1&b=0"


def test_equality_and_hash() -> None:
    assert URLSearchParams("a=1&b=2") == URLSearchParams([("a", "1"), ("b", "2")])
    assert URLSearchParams("a=1&b=2") != URLSearchParams("b=2&a=1")
    assert URLSearchParams("a=1") != "a=1"
    with pytest.raises(TypeError):
        hash(URLSearchParams())


def test_live_iteration() -> None:
    # a WebIDL pair iterator: deleting the current item skips the next one
    p = URLSearchParams("a=1&b=2&c=3&d=4")
    seen = []
    for k, _ in p:
        seen.append(k)
        if k == "a":
            p.delete("a")
    assert seen == ["a", "c", "d"]
    p = URLSearchParams("x=1")
    it = p.keys()
    p.append("y", "2")
    assert list(it) == ["x", "y"]


def test_append_type_errors() -> None:
    p = URLSearchParams()
    with pytest.raises(TypeError):
        p.append("a", 1)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        p.get(None)  # type: ignore[arg-type]


pairs_strategy = st.lists(
    st.tuples(st.text(max_size=8), st.text(max_size=8)), max_size=8
)


@settings(max_examples=150, deadline=None)
@given(pairs_strategy)
def test_round_trip_and_sort_matches_spec(pairs: list[tuple[str, str]]) -> None:
    p = URLSearchParams(pairs)
    usv = [(k.encode("utf-16", "surrogatepass").decode("utf-16", "replace"),
            v.encode("utf-16", "surrogatepass").decode("utf-16", "replace")) for k, v in pairs]
    assert list(p) == usv
    assert list(URLSearchParams(str(p))) == usv
    assert str(p) == serialize(usv)
    assert parse(str(p)) == usv
    p.sort()
    # reference: sort by the sequence of UTF-16 code units, stably
    def units(s: str) -> list[int]:
        b = s.encode("utf-16-be")
        return [int.from_bytes(b[i : i + 2], "big") for i in range(0, len(b), 2)]
    assert list(p) == sorted(usv, key=lambda kv: units(kv[0]))
