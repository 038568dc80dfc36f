"""The examples in README.md and docs/*.md run and print what they say
(doctest), and the module docstrings' examples too."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import percent_encoding

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_markdown_examples(path: Path) -> None:
    if path.name == "arrow.md":
        pytest.importorskip("pyarrow")  # its examples build pyarrow columns
    result = doctest.testfile(str(path), module_relative=False, optionflags=FLAGS,
                              raise_on_error=False, verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) in {path.name} failed"


def _modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(percent_encoding.__path__, "percent_encoding.")
        if not m.name.endswith(("_speedups", "__main__"))
    )


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    if name == "percent_encoding.arrow":
        pytest.importorskip("pyarrow")  # its examples build pyarrow columns
    mod = importlib.import_module(name)
    result = doctest.testmod(mod, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) in {name} failed"
