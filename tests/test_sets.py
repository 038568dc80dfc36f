"""Encode sets: the WHATWG sets exactly as the URL Standard lists them, the
other named sets against their specs, algebra, registry and compare()."""

from __future__ import annotations

import pickle
import re
import string

import pytest

import percent_encoding
from percent_encoding import sets
from percent_encoding.errors import PercentEncodingTypeError, UnknownSetError
from percent_encoding.sets import EncodeSet

pytestmark = pytest.mark.one_impl

C0 = {chr(i) for i in range(0x20)}


def ascii_encoded(s: EncodeSet) -> set[str]:
    return set(s)


def test_whatwg_chain_matches_url_standard_1_3() -> None:
    # Each set is written out from the URL Standard's definitions.
    assert ascii_encoded(sets.C0_CONTROL) == C0 | {"\x7f"}
    assert ascii_encoded(sets.FRAGMENT) == C0 | {"\x7f"} | set(' "<>`')
    assert ascii_encoded(sets.QUERY) == C0 | {"\x7f"} | set(' "#<>')
    assert ascii_encoded(sets.SPECIAL_QUERY) == ascii_encoded(sets.QUERY) | {"'"}
    assert ascii_encoded(sets.PATH) == ascii_encoded(sets.QUERY) | set("?^`{}")
    assert ascii_encoded(sets.USERINFO) == ascii_encoded(sets.PATH) | set("/:;=@[\\]^|")
    assert ascii_encoded(sets.COMPONENT) == ascii_encoded(sets.USERINFO) | set("$%&+,")
    assert ascii_encoded(sets.FORM_URLENCODED) == ascii_encoded(sets.COMPONENT) | set("!'()~")
    for s in (sets.C0_CONTROL, sets.FRAGMENT, sets.PATH, sets.FORM_URLENCODED):
        assert s.non_ascii


def test_form_urlencoded_leaves_only_alnum_and_four_marks() -> None:
    kept = {chr(i) for i in range(128)} - ascii_encoded(sets.FORM_URLENCODED)
    assert kept == set(string.ascii_letters + string.digits + "*-._")


def test_path_gained_caret_in_2025_but_history_keeps_old_set() -> None:
    assert "^" in sets.PATH
    assert "^" not in sets.get("path-before-2025")
    assert sets.get("path-before-2025") == sets.PATH - "^"


def test_whatwg_historical_sets_by_commit_date() -> None:
    base = C0 | {"\x7f"}
    # whatwg/url c296e2f (2015-06-10) added { and } to the default encode set.
    before = sets.get("whatwg-default-before-2015-06-10")
    assert ascii_encoded(before) == base | set(' "#<>?`')
    default = sets.get("whatwg-default-2015-06-10")
    assert ascii_encoded(default) == base | set(' "#<>?`{}')
    assert default == sets.get("path-before-2025")
    # f54c44d (2015-06-10): the query state stopped encoding the backtick.
    assert ascii_encoded(sets.get("whatwg-query-before-2015-06-10")) == base | set(' "#<>`')
    assert sets.get("whatwg-query-2015-06-10") == sets.QUERY
    # 9ca26e5 (2015-08-14): username/password sets became one userinfo set.
    assert ascii_encoded(sets.get("whatwg-username-before-2015-08-14")) == (
        ascii_encoded(default) | set("/:@\\")
    )
    assert ascii_encoded(sets.get("whatwg-password-before-2015-08-14")) == (
        ascii_encoded(default) | set("/@\\")
    )
    userinfo = sets.get("whatwg-userinfo-2015-08-14")
    assert ascii_encoded(userinfo) == ascii_encoded(default) | set("/:;=@[\\]^|")
    assert userinfo == sets.USERINFO
    assert sets.get("whatwg-simple-before-2017-02-14") == sets.C0_CONTROL
    # Every historical set says when and by which commit.
    for name in sets.names():
        if name.startswith("whatwg-") or "before" in name:
            spec = sets.get(name).spec or ""
            assert re.search(r"\b20[12][0-9]-[01][0-9]-[0-3][0-9]\b", spec), name
            assert re.search(r"whatwg/url [0-9a-f]{7}\b", spec), name


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("whatwg-2016-simple", "whatwg-simple-before-2017-02-14"),
        ("whatwg-2016-default", "whatwg-default-2015-06-10"),
        ("whatwg-2016-userinfo", "whatwg-userinfo-2015-08-14"),
    ],
)
def test_whatwg_2016_names_are_deprecated_aliases(old: str, new: str) -> None:
    with pytest.warns(DeprecationWarning, match=new):
        assert sets.get(old) is sets.get(new)
    assert old not in sets.names()
    with pytest.warns(DeprecationWarning):
        assert percent_encoding.encode("{ }", old) == percent_encoding.encode("{ }", new)


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("rfc3986-unreserved", string.ascii_letters + string.digits + "-._~"),
        ("oauth1", string.ascii_letters + string.digits + "-._~"),
        ("ecmascript-encodeURIComponent", string.ascii_letters + string.digits + "-_.!~*'()"),
        (
            "ecmascript-encodeURI",
            string.ascii_letters + string.digits + "-_.!~*'()" + ";/?:@&=+$,#",
        ),
        ("ecmascript-escape", string.ascii_letters + string.digits + "@*_+-./"),
        ("rfc8187", string.ascii_letters + string.digits + "!#$&+-.^_`|~"),
        ("alpn", string.ascii_letters + string.digits + "!#$&'*+-.^_`|~"),
        (
            "rfc3986-path-segment",
            string.ascii_letters + string.digits + "-._~" + "!$&'()*+,;=" + ":@",
        ),
        ("rfc3986-reg-name", string.ascii_letters + string.digits + "-._~" + "!$&'()*+,;="),
    ],
)
def test_sets_keep_exactly_what_their_spec_allows(name: str, kept: str) -> None:
    s = sets.get(name)
    assert {chr(i) for i in range(128)} - set(s) == set(kept)
    assert s.non_ascii


def test_which_sets_leave_percent_alone() -> None:
    # Only the WHATWG sets below "component" (where "%" in a URL is left for the
    # URL parser to judge) and the bare character classes keep a raw "%".
    keep = {n for n in sets.names() if "%" not in sets.get(n)}
    assert keep == {
        "c0-control", "fragment", "query", "special-query", "path", "userinfo",
        "whatwg-simple-before-2017-02-14", "whatwg-default-before-2015-06-10",
        "whatwg-default-2015-06-10", "whatwg-query-before-2015-06-10", "whatwg-query-2015-06-10",
        "whatwg-username-before-2015-08-14", "whatwg-password-before-2015-08-14",
        "whatwg-userinfo-2015-08-14", "path-before-2025",
        "rfc3986-gen-delims", "rfc3986-sub-delims", "rfc3986-reserved",
        "rfc2396-reserved", "rfc2396-unwise", "rfc1738-reserved",
        "rfc2732-reserved", "rfc2732-unwise",
    }


def test_membership_iteration_len() -> None:
    s = sets.COMPONENT
    assert "/" in s and ord("/") in s and "a" not in s
    assert "é" in s and 0x10FFFF in s
    assert list(EncodeSet("ba")) == ["a", "b"]
    assert len(EncodeSet("abc", non_ascii=False)) == 3
    with pytest.raises(PercentEncodingTypeError):
        _ = "ab" in s
    with pytest.raises(PercentEncodingTypeError):
        _ = 1.5 in s  # type: ignore[operator]


def test_algebra_and_immutability() -> None:
    a = EncodeSet("ab", non_ascii=False)
    b = EncodeSet("bc", non_ascii=True)
    assert set(a | b) == {"a", "b", "c"} and (a | b).non_ascii
    assert set(b - a) == {"c"} and (b - a).non_ascii
    assert set(a & b) == {"b"} and not (a & b).non_ascii
    assert set(a.add("z")) == {"a", "b", "z"}
    assert set(a.remove("a")) == {"b"}
    assert a | "z" == a.add("z") and a - "a" == a.remove("a")
    with pytest.raises(AttributeError):
        a.mask = 0  # type: ignore[misc]
    with pytest.raises(ValueError, match="ASCII"):
        EncodeSet("é")


def test_hash_eq_pickle_ignore_name() -> None:
    renamed = sets.COMPONENT.named("mine")
    assert renamed == sets.COMPONENT and hash(renamed) == hash(sets.COMPONENT)
    assert {sets.COMPONENT: 1}[renamed] == 1
    back = pickle.loads(pickle.dumps(sets.PATH))
    assert back == sets.PATH and back.name == "path" and back.table == sets.PATH.table


def test_table_is_the_kernel_view() -> None:
    t = sets.QUERY.table
    assert len(t) == 256
    assert t[ord("#")] == 1 and t[ord("?")] == 0 and t[0x80] == 1 and t[0xFF] == 1
    assert EncodeSet("a", non_ascii=False).table[0x80] == 0


def test_repr_is_readable() -> None:
    r = repr(sets.COMPONENT)
    assert "'component'" in r and "C0 controls" in r and "space" in r and "non-ASCII" in r
    assert "not non-ASCII" in repr(EncodeSet("a", non_ascii=False))


def test_registry() -> None:
    names = sets.names()
    for required in (
        "c0-control", "fragment", "query", "special-query", "path", "userinfo", "component",
        "application/x-www-form-urlencoded", "rfc3986-unreserved", "ecmascript-encodeURI",
        "ecmascript-encodeURIComponent", "ecmascript-escape", "oauth1", "alpn", "rfc8187",
        "cgi", "xforms-urlencoded", "html4-form", "rfc1738", "rfc2396",
    ):
        assert required in names
    assert len(names) == len(set(names))
    assert sets.get("path") is sets.PATH
    assert sets.get(sets.PATH) is sets.PATH
    with pytest.raises(UnknownSetError, match="did you mean 'path'") as ei:
        sets.get("pat")
    assert isinstance(ei.value, KeyError) and isinstance(ei.value, LookupError)
    with pytest.raises(PercentEncodingTypeError):
        sets.get(3)  # type: ignore[arg-type]
    for n in names:
        assert sets.get(n).spec, n


def test_compare_table() -> None:
    data = sets.compare("component", "path", sets.FORM_URLENCODED)
    assert [s["name"] for s in data["sets"]] == ["component", "path",
                                                 "application/x-www-form-urlencoded"]
    assert len(data["rows"]) == 128
    slash = data["rows"][ord("/")]
    assert slash["char"] == "/" and slash["encoded"] == [True, False, True]
    tilde = data["rows"][ord("~")]
    assert tilde["encoded"] == [False, False, True]
    assert data["rows"][0x20]["char"] == "SP" and data["rows"][0]["char"] == "U+0000"
    assert len(sets.compare()["sets"]) == len(sets.names())


def test_bad_input_raises_our_errors() -> None:
    from percent_encoding.errors import PercentEncodingError

    for bad in (lambda: EncodeSet([("a",)]), lambda: EncodeSet(mask=1.5),  # type: ignore[arg-type]
                lambda: EncodeSet.from_allowed(None),  # type: ignore[arg-type]
                lambda: sets.PATH.encodes(None),  # type: ignore[arg-type]
                lambda: EncodeSet(name=object()),  # type: ignore[arg-type]
                lambda: sets.register(None, sets.PATH)):  # type: ignore[arg-type]
        with pytest.raises(PercentEncodingTypeError):
            bad()
    for bad in (lambda: EncodeSet("é"), lambda: EncodeSet(mask=-1),
                lambda: EncodeSet.from_allowed("é"), lambda: sets.PATH | "é",
                lambda: sets.PATH.encodes(-1),
                lambda: sets.register("component", sets.COMPONENT)):
        with pytest.raises(PercentEncodingError):
            bad()
    assert "nope" not in sets.names() and sets.get("path") is sets.PATH
