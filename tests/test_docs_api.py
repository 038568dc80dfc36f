"""The generated API reference (``docs/apiref.py``, built by ``./dev docs``) documents every
public name: each name in each public module's ``__all__`` has an entry, a docstring (or a
doc comment, for a constant) and a spec line.  The generator is checked without Sphinx; the
built site's inventory is checked when Sphinx is installed (``./dev docs`` checks the site it
just built, through ``PERCENT_ENCODING_DOCS_SITE``; otherwise the test builds one)."""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from helpers.engines import IMPORT_NEEDS_ENGINE, need_engines
from helpers.public_modules import public_modules

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]

ROOT = Path(__file__).resolve().parents[1]


def _apiref() -> ModuleType:
    for module in IMPORT_NEEDS_ENGINE:  # the adapters that need their engine to import
        need_engines(module)
    spec = importlib.util.spec_from_file_location("apiref", ROOT / "docs" / "apiref.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules["apiref"] = mod  # its dataclass looks its module up
    spec.loader.exec_module(mod)
    return mod


def _public_names() -> set[str]:
    names = set()
    for m in public_modules():
        mod = importlib.import_module(m)
        names |= {f"{m}.{n}" for n in mod.__all__}
    return names


def test_the_generator_walks_the_same_modules_as_the_tests() -> None:
    assert _apiref().public_modules() == public_modules()


def test_every_public_name_has_an_entry_with_a_docstring_and_a_spec_line() -> None:
    apiref = _apiref()
    entries = apiref.entries()
    got = {f"{e.module}.{e.name}" for e in entries}
    assert got == _public_names()
    no_doc = [f"{e.module}.{e.name}" for e in entries if not e.doc.strip()]
    assert not no_doc, f"public names without a docstring or doc comment: {no_doc}"
    assert all(e.spec for e in entries)
    # A wrong generator would drop a name from its page: each page holds each entry.
    for m in public_modules():
        text = apiref.page(m, [e for e in entries if e.module == m])
        missing = [e.name for e in entries if e.module == m
                   and f":: {m}.{e.name}\n" not in text and f"py:data:: {e.name}\n" not in text]
        assert not missing, f"{m}: no entry on its page for {missing}"


def test_spec_citations_are_found_where_the_docstring_has_one() -> None:
    apiref = _apiref()
    by_name = {f"{e.module}.{e.name}": e for e in apiref.entries()}
    assert by_name["percent_encoding.rfc3986.resolve"].spec.startswith("RFC 3986")
    assert by_name["percent_encoding.form.parse"].spec.startswith(("URL Standard", "WHATWG"))
    assert "url.spec.whatwg.org" in by_name["percent_encoding.sets.PATH"].spec
    # A bare "§4.3" in a docstring is completed with the module's standard.
    assert by_name["percent_encoding.encodings.encode"].spec.endswith("Standard §4.3")
    # A function documented in two modules is indexed once, under the module defining it.
    assert by_name["percent_encoding.encode"].canonical == "percent_encoding.core.encode"
    assert by_name["percent_encoding.EncodeSet"].canonical == "percent_encoding.sets.EncodeSet"


def _inventory(site: Path) -> set[str]:
    from sphinx.util.inventory import InventoryFile

    with open(site / "objects.inv", "rb") as f:
        inv = InventoryFile.load(f, "", lambda base, uri: uri)
    return {name for kind, objs in inv.items() if kind.startswith("py:") for name in objs}


@pytest.mark.slow  # builds the docs site with Sphinx: full tier (and ./dev docs) only
def test_the_built_site_indexes_every_public_name(tmp_path: Path) -> None:
    pytest.importorskip("sphinx", reason="the docs tools are not installed (pip install .[docs])")
    pytest.importorskip("furo")
    pytest.importorskip("myst_parser")
    apiref = _apiref()
    site_env = os.environ.get("PERCENT_ENCODING_DOCS_SITE")
    if site_env:
        site = Path(site_env)
    else:
        site = tmp_path / "site"
        subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", "-W",
                        "--keep-going", str(ROOT / "docs"), str(site)], check=True)
    indexed = _inventory(site)
    missing = sorted({e.canonical for e in apiref.entries()} - indexed)
    assert not missing, f"not in the built reference: {missing}"
    for m in public_modules():
        assert (site / "api" / f"{m}.html").is_file(), m
    # Offline: the search index is a local file, and no page loads a script, a stylesheet or
    # a font from elsewhere.
    assert (site / "searchindex.js").is_file() and (site / "search.html").is_file()
    remote = re.compile(r"<(?:script|link|img)\b[^>]*\b(?:src|href)=[\"'](?:https?:)?//", re.I)
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 30
    loads = [p.name for p in pages if remote.search(p.read_text("utf-8"))]
    assert not loads, f"pages that load something from the network: {loads}"


def test_the_start_page_sends_each_user_to_every_guide_in_one_click() -> None:
    start = (ROOT / "docs" / "index.md").read_text("utf-8")
    guides = sorted(p.name for p in (ROOT / "docs" / "guides").glob("*.md"))
    assert len(guides) >= 8
    assert not [g for g in guides if f"](guides/{g})" not in start], "a guide the start page misses"
    assert "## Which one do I need?" in start


def test_the_readme_is_short_and_keeps_the_quick_start() -> None:
    readme = (ROOT / "README.md").read_text("utf-8")
    assert len(readme.splitlines()) <= 200
    quick = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    assert re.search(r"^\./dev serve\s", quick, re.M) and re.search(r"^\./dev test\s", quick, re.M)
    assert "](docs/index.md)" in readme  # the docs, for reading on a code host
