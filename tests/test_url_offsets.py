"""The component offsets' names (url/_offsets.py) against the C struct UrlParts (url.h).

The C twin writes a URL as its href and the nine integers of ``UrlParts``; Python reads
them by the names that ``url/_offsets.py`` defines.  These tests read ``src/csrc/url.h``
as text, so that a field added, dropped or moved on either side fails here; and they
hold the module's drawing to what the C parser writes.
"""

from __future__ import annotations

import re

import pytest

from helpers import ROOT
from helpers.twins import C_URL
from percent_encoding.url import _offsets as O

pytestmark = pytest.mark.one_impl  # (reads the header and the offsets' module)

_HEADER = ROOT / "src" / "csrc" / "url.h"
_NAMES = ("SCHEME_END", "USERNAME_END", "HOST_START", "HOST_END", "PORT", "PATH_START",
          "QUERY_START", "FRAGMENT_START", "HOST_KIND")
_KINDS = ("HOST_NONE", "HOST_DOMAIN", "HOST_IPV4", "HOST_IPV6", "HOST_EMPTY", "HOST_NULL")


def _struct_fields(header: str) -> list[str]:
    """The fields of ``typedef struct {...} UrlParts;`` in declaration order."""
    m = re.search(r"typedef\s+struct\s*\{([^{}]*)\}\s*UrlParts\s*;", header)
    assert m is not None, "url.h declares no UrlParts"
    body = re.sub(r"/\*.*?\*/|//[^\n]*", "", m.group(1), flags=re.DOTALL)
    fields: list[str] = []
    for decl in body.split(";"):
        decl = decl.strip()
        if not decl:
            continue
        # "Py_ssize_t a, b, c" or "int host_kind": the names after the type
        names = re.sub(r"^\s*[A-Za-z_]\w*\s+", "", decl, count=1)
        fields += [n.strip().lstrip("*") for n in names.split(",")]
    return fields


def _enum_values(header: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for body in re.findall(r"enum\s*\{([^{}]*)\}", header):
        for name, value in re.findall(r"\b(HOST_[A-Z0-9]+)\s*=\s*(\d+)", body):
            out[name] = int(value)
    return out


def test_the_names_are_the_struct_fields_in_order() -> None:
    fields = _struct_fields(_HEADER.read_text("utf-8"))
    assert fields == list(O.C_FIELDS)
    assert [getattr(O, n) for n in _NAMES] == list(range(len(fields)))


def test_the_host_kinds_are_the_enum() -> None:
    enum = _enum_values(_HEADER.read_text("utf-8"))
    assert {n: getattr(O, n) for n in _KINDS} == enum


def test_the_header_reader_can_fail() -> None:
    moved = "typedef struct {\n    Py_ssize_t u_end, s_end; /* x */\n    int kind;\n} UrlParts;"
    assert _struct_fields(moved) == ["u_end", "s_end", "kind"]
    assert _struct_fields(moved) != list(O.C_FIELDS)
    assert _enum_values("enum { HOST_NONE = 0, HOST_DOMAIN = 2 };") == {
        "HOST_NONE": 0, "HOST_DOMAIN": 2}


@pytest.mark.skipif(C_URL is None, reason="the C twin is not built")
def test_the_drawing_is_what_the_c_parser_writes() -> None:
    from percent_encoding import url

    u = url.parse("https://user:pass@example.com:8080/a/b?q=1#top")
    p = u._parts
    assert p is not None
    drawn = {"SCHEME_END": 5, "USERNAME_END": 12, "HOST_START": 18, "HOST_END": 29,
             "PORT": 8080, "PATH_START": 34, "QUERY_START": 38, "FRAGMENT_START": 42,
             "HOST_KIND": O.HOST_DOMAIN}
    assert {n: p[getattr(O, n)] for n in _NAMES} == drawn
    # the module docstring draws these same numbers
    doc = O.__doc__ or ""
    for n, v in drawn.items():
        if n not in ("PORT", "HOST_KIND"):
            assert re.search(rf"{n}\s+{v}\b", doc), n
    # no host: the host offsets sit at the path start, empty
    q = url.parse("mailto:a?b")._parts
    assert q is not None
    assert q[O.HOST_KIND] == O.HOST_NONE
    assert q[O.USERNAME_END] == q[O.HOST_START] == q[O.HOST_END] == q[O.PATH_START]
    r = url.parse("sc:/a")._parts
    assert r is not None and r[O.HOST_KIND] == O.HOST_NULL
