"""Every case of the vendored tests/data/uritemplate/*.json (uritemplate-test).

``expected`` is a string (exact), a list of strings (any one; used where the
RFC leaves a mapping's order open) or ``false`` (expansion must raise
:class:`UriTemplateError`).  Files are read at test time, never copied.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from helpers import data_path
from percent_encoding import UriTemplateError
from percent_encoding.uritemplate import UriTemplate, expand

FILES = [
    "spec-examples.json",
    "spec-examples-by-section.json",
    "extended-tests.json",
    "negative-tests.json",
]


def _load(name: str) -> dict[str, Any]:
    path: Path = data_path("uritemplate", name)
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _check(template: str, variables: dict[str, Any], expected: Any) -> None:
    if expected is False:
        with pytest.raises(UriTemplateError) as info:
            expand(template, variables)
        pos = info.value.position
        assert pos is not None and 0 <= pos < len(template), (template, pos)
        return
    got = expand(template, variables)
    # the parsed-once object must agree with the one-shot function
    assert UriTemplate(template).expand(variables) == got
    if isinstance(expected, list):
        assert got in expected, (template, got, expected)
    else:
        assert got == expected, (template, got, expected)


@pytest.mark.parametrize("name", FILES)
def test_suite_file(name: str) -> None:
    data = _load(name)
    count = 0
    failures = []
    for group, spec in data.items():
        variables = spec["variables"]
        for template, expected in spec["testcases"]:
            count += 1
            try:
                _check(template, variables, expected)
            except AssertionError as e:
                failures.append((group, template, str(e)[:200]))
    assert count > 0
    assert not failures, failures


def test_suite_totals() -> None:
    # tests/data/uritemplate/README.md counts 270 cases; all of them run above.
    total = sum(len(s["testcases"]) for name in FILES for s in _load(name).values())
    assert total >= 270
