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

# sphinx_copybutton: a Copy button on every code block; its script and stylesheet are
# files of the site (no network), and it copies what the button is next to, with the
# prompts (``>>>``, ``...``, ``$``) and the output lines of an interactive session left out.
extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.napoleon", "sphinx_copybutton"]
copybutton_prompt_text = r">>> |\.\.\. |\$ "
copybutton_prompt_is_regexp = True
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md"]
# Only the pages' own headings get anchors; links like cli.md#columns-of-... use them.
myst_heading_anchors = 4
myst_enable_extensions = ["colon_fence"]
suppress_warnings = ["myst.header"]  # chapters may start below h1 level in places

html_theme = "furo"
html_title = f"percent-encoding {release}"
html_static_path = ["_static"]
# Opened from file://, a browser refuses the search page's fetch() of each result page
# (for the summary under it): there the results are listed without summaries.
html_js_files = ["file-search.js"]
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


def _translator() -> type:
    from docutils import nodes
    from sphinx.writers.html5 import HTML5Translator

    class Translator(HTML5Translator):
        """Sphinx's HTML, with what assistive technology needs (axe: no critical or
        serious violation, tests/test_docs_site.py)."""

        def starttag(self, node: nodes.Element, tagname: str, suffix: str = "\n",
                     empty: bool = False, **attributes: object) -> str:
            # The sidebar's toctree captions are role=heading; ARIA requires a level
            # (WAI-ARIA 1.2 §5.3 "heading": aria-level).  The page title is the h1.
            if attributes.get("ROLE") == "heading":
                attributes["aria-level"] = "2"
            # A table wider than the page scrolls inside its wrapper: a keyboard user must
            # be able to focus it to scroll it (WCAG 2.1.1).
            if tagname == "div" and "table-wrapper" in node.get("classes", ()):
                attributes["tabindex"] = "0"
            return str(super().starttag(node, tagname, suffix, empty, **attributes))

        def visit_literal_block(self, node: nodes.Element) -> None:
            # Code blocks scroll sideways when a line is long: focusable, like the tables.
            start = len(self.body)
            try:
                super().visit_literal_block(node)
            finally:
                for i in range(start, len(self.body)):
                    self.body[i] = self.body[i].replace("<pre>", '<pre tabindex="0">', 1)

    return Translator


def setup(app: object) -> None:
    app.connect("source-read", _point_links_inside)  # type: ignore[attr-defined]
    app.set_translator("html", _translator())  # type: ignore[attr-defined]
