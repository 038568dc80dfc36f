"""Sphinx configuration of the docs site (``./dev docs`` builds it into ``site/``).

The chapters are the Markdown pages of ``docs/`` (MyST); the API reference is generated
before each build by ``docs/apiref.py`` into ``docs/api/`` from every public module's
``__all__``.  Everything works offline: no intersphinx, no remote assets.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

# The reference documents the pure twin's functions: the C twin binds a few public
# names (encode, decode_text, form.parse, form.serialize, url.parse) to built-in
# functions, whose signatures carry no type annotations; the pure twin's are the same
# functions with them.
os.environ["PERCENT_ENCODING_NO_EXTENSIONS"] = "1"

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import apiref  # noqa: E402

import percent_encoding  # noqa: E402

project = "percent-encoding"
author = "the percent-encoding authors"
copyright = "the percent-encoding authors, MIT License"
release = version = percent_encoding.__version__

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon"]
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]
# Only the pages' own headings get anchors; links like cli.md#columns-of-... use them.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
suppress_warnings = ["myst.header"]  # chapters may start below h1 level in places

html_theme = "furo"
html_title = f"percent-encoding {release}"
html_static_path: list[str] = []
html_show_sourcelink = False
html_copy_source = False

autodoc_typehints = "signature"
autodoc_member_order = "bysource"
autodoc_default_options = {"undoc-members": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = False

apiref.write(HERE / "api")

# Pages link to files beside docs/ (bench/README.md) so that the links work when reading
# docs/ on a code host; on the site those files are pages of their own (benchmarks.md
# includes bench/README.md), so the links are pointed there as each page is read.
_OUTSIDE = {"../bench/README.md": "benchmarks.md"}


def _point_links_inside(app: object, docname: str, source: list[str]) -> None:
    depth = docname.count("/")
    for target, page in _OUTSIDE.items():
        source[0] = source[0].replace(f"]({'../' * depth}{target}", f"]({'../' * depth}{page}")


def setup(app: object) -> None:
    app.connect("source-read", _point_links_inside)  # type: ignore[attr-defined]
