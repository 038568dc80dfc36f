"""wpt conformance for percent_encoding.form (the vendored tests/data/wpt).

* ``urlencoded-parser.json``: every vector, through ``parse`` (str and bytes),
  ``URLSearchParams``, ``FormParser`` and ``parse`` with the ``charset=``
  labels wpt puts in the Content-Type (they must not matter: we never read
  them, so the same call must hold).
* ``urlsearchparams.json``: every test that needs no URL parser, run by an
  interpreter of the ops the README describes.
* ``percent-encoding.json``: every (input, encoding) column through
  ``encode(input, "special-query", encoding=E)``, and the UTF-8 column also
  through the fragment set (the ``a.hash`` half of the wpt test).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import data_path
from percent_encoding import PercentEncodingTypeError, core, form
from percent_encoding.form import FormParser, URLSearchParams


def _load(name: str) -> Any:
    p: Path = data_path("wpt", name)
    return json.loads(p.read_text(encoding="utf-8"))


def _parser_vectors() -> list[dict[str, Any]]:
    return _load("urlencoded-parser.json")["tests"]  # type: ignore[no-any-return]


def _usp_tests() -> list[dict[str, Any]]:
    tests = _load("urlsearchparams.json")["tests"]
    return [t for t in tests if not t["needs_url_parser"]]


def _pe_cases() -> list[tuple[str, str, str]]:
    data = _load("percent-encoding.json")
    return [
        (item["input"], enc, out)
        for item in data
        if isinstance(item, dict)
        for enc, out in item["output"].items()
    ]


PARSER = _parser_vectors()
USP = _usp_tests()
PE = _pe_cases()


def test_files_present() -> None:
    # The parametrized lists below are not silently empty.
    _load("urlencoded-parser.json")
    assert len(PARSER) == 35
    assert len(USP) == 68
    assert len(PE) == 16


# --------------------------------------------------------------------------------------------
# urlencoded-parser.json


def _expected(v: dict[str, Any]) -> list[tuple[str, str]]:
    return [(n, val) for n, val in v["output"]]


@pytest.mark.parametrize("v", PARSER, ids=lambda v: repr(v["input"]))
def test_urlencoded_parser(v: dict[str, Any]) -> None:
    expected = _expected(v)
    data: str = v["input"]
    assert form.parse(data) == expected
    assert form.parse(data.encode("utf-8")) == expected
    assert list(URLSearchParams(data)) == expected


@pytest.mark.parametrize("v", PARSER, ids=lambda v: repr(v["input"]))
def test_urlencoded_parser_general_path(v: dict[str, Any]) -> None:
    # Options that change nothing for these inputs still go through the
    # general (non-kernel) path; it must agree.
    expected = _expected(v)
    data: str = v["input"]
    assert form.parse(data, max_fields=1000) == expected
    assert form.parse(data.encode("utf-8"), encoding="utf-8", separators="&") == expected


@pytest.mark.parametrize("v", PARSER, ids=lambda v: repr(v["input"]))
def test_urlencoded_parser_incremental(v: dict[str, Any]) -> None:
    expected = _expected(v)
    body = v["input"].encode("utf-8")
    p = FormParser()
    got = []
    for i in range(len(body)):
        got += p.feed(body[i : i + 1])
    got += p.close()
    assert got == expected


@pytest.mark.parametrize("v", PARSER, ids=lambda v: repr(v["input"]))
def test_urlencoded_parser_ignores_content_type_charset(v: dict[str, Any]) -> None:
    # wpt runs each vector through Request/Response.formData() with
    # Content-Type charset=windows-1252 / shift_jis: the parameter must be
    # ignored, so the parse without any option is the answer.  The same
    # vectors decoded *with* those encodings would differ (%C2x shows it).
    expected = _expected(v)
    assert form.parse(v["input"].encode("utf-8")) == expected
    if v["input"] == "%C2x":
        assert form.parse(b"%C2x", encoding="windows-1252") != expected


# --------------------------------------------------------------------------------------------
# urlsearchparams.json: an interpreter for the ops in wpt/README.md


def _construct(init: Any, objs: dict[str, URLSearchParams]) -> URLSearchParams:
    if init is None:
        return URLSearchParams()
    if "string" in init:
        return URLSearchParams(init["string"])
    if "pairs" in init:
        return URLSearchParams([list(p) for p in init["pairs"]])
    if "record" in init:
        # JSON keeps the record's order; a dict keeps insertion order and a
        # repeated key keeps its first position, like a JS record.  Keys
        # that differ only in lone surrogates stay distinct here and collapse
        # inside the constructor, which is the behaviour under test.
        rec: dict[str, str] = {}
        for k, val in init["record"]:
            rec[k] = val
        return URLSearchParams(rec)
    if "copy_of" in init:
        return URLSearchParams(objs[init["copy_of"]])
    raise AssertionError(f"unknown init {init!r}")


def _run_steps(test: dict[str, Any]) -> int:
    objs: dict[str, URLSearchParams] = {}
    checks = 0
    for step in test["steps"]:
        op = step["op"]
        name = step.get("obj", "p")
        args = step.get("args", [])
        if op == "new":
            if step.get("throws"):
                assert step["throws"] == "TypeError"
                with pytest.raises(TypeError):
                    _construct(step["init"], objs)
                with pytest.raises(PercentEncodingTypeError):
                    _construct(step["init"], objs)
                checks += 1
                continue
            objs[name] = _construct(step["init"], objs)
            continue
        p = objs[name]
        if op == "append":
            p.append(*args)
        elif op == "set":
            p.set(*args)
        elif op == "delete":
            p.delete(*args)
        elif op == "sort":
            p.sort()
        elif op == "get":
            assert p.get(*args) == step["expect"], step
            checks += 1
        elif op == "getAll":
            assert p.getAll(*args) == step["expect"], step
            assert p.get_all(*args) == step["expect"], step
            checks += 1
        elif op == "has":
            assert p.has(*args) is step["expect"], step
            checks += 1
        elif op == "toString":
            assert str(p) == step["expect"], step
            assert p.toString() == step["expect"]
            checks += 1
        elif op == "size":
            assert p.size == step["expect"] == len(p), step
            checks += 1
        elif op == "entries":
            assert [list(e) for e in p] == step["expect"], step
            assert [list(e) for e in p.entries()] == step["expect"]
            checks += 1
        elif op == "iterate":
            seen: list[list[str]] = []
            action = step["on_each"]
            for k, val in p:
                seen.append([k, val])
                if "delete_seen_name" in action:
                    p.delete(k)
                elif "delete_when_name" in action:
                    for when, target in action["delete_when_name"].items():
                        if k == when:
                            p.delete(target)
                else:
                    raise AssertionError(f"on_each needs a URL: {action!r}")
            assert seen == step["expect_seen"], step
            checks += 1
        else:
            raise AssertionError(f"op {op!r} needs a URL parser")
    return checks


@pytest.mark.parametrize("test", USP, ids=lambda t: t["id"])
def test_urlsearchparams(test: dict[str, Any]) -> None:
    assert _run_steps(test) > 0


def test_urlsearchparams_check_count() -> None:
    total = 0
    for t in USP:
        total += _run_steps(t)
    # Every check of the 68 URL-free tests ran (the README counts 229 checks
    # over all 89 tests; the 21 URL tests hold the other 37).
    assert total == 192


# --------------------------------------------------------------------------------------------
# percent-encoding.json


@pytest.mark.parametrize("case", PE, ids=lambda c: f"{c[1]}:{c[0]!r}")
def test_percent_encoding_special_query(case: tuple[str, str, str]) -> None:
    text, enc, expected = case
    assert core.encode(text, "special-query", encoding=enc) == expected
    if enc == "utf-8":
        # the fragment half (a.hash) is always UTF-8 with the fragment set
        assert core.encode(text, "fragment") == expected
