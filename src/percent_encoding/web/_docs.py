"""The links from the web tool to the docs site, and the docs it serves at ``/docs/``.

Each scheme links to the chapter of the module that registers it (``form`` schemes to
``forms.html``, the ``legacy`` ones to ``legacy.html``...), or, for a module without a
chapter of its own, to its page of the API reference.  The links start with
``PERCENT_ENCODING_DOCS_URL`` (a published copy of the site), by default ``/docs/``: the
server then sends the site that ``./dev docs`` built into the checkout's ``site/`` (or the
folder ``PERCENT_ENCODING_DOCS_DIR`` names), from a fixed list of its files made at start,
so that no request path reaches any other file.

Without a built site (an installed copy: ``pip install``, ``pipx``, a wheel), the same
paths are answered from the chapters' Markdown, which the wheel carries (``setup.py``
copies ``docs/``, ``bench/README.md`` and ``CHANGELOG.md`` into ``web/docs_md/``),
rendered by :mod:`._markdown`; the API reference pages are made from the installed
modules' own docstrings.  So every docs link works offline wherever the tool runs
(docs/web.md says why this and not the built site in the wheel).
"""

from __future__ import annotations

import base64
import html
import importlib
import inspect
import os
import pkgutil
import re
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path

from ._httputil import TYPES
from ._markdown import render

# The site's pages are the docs build's own static output (no request data in them); its
# theme sets its icons' and colour scheme's styles inline and reads the saved colour scheme
# in an inline script, so those two are allowed there and nothing else is.
DOCS_CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'self'; "
    "base-uri 'none'; object-src 'none'"
)

# The modules whose chapter in docs/ has another name than the module, or none.
_CHAPTER = {"form": "forms", "percent_encoding": "core", "schemes": "schemes", "sets": "core"}
_CHAPTERS = {"url", "forms", "legacy", "encodings", "ecmascript", "rfc3986", "iri", "xpath",
             "uritemplate", "oauth1", "oauth2", "html", "rfc8187", "alpn", "core", "schemes",
             "detect", "arrow", "mailto", "tcn", "data_url", "idna"}
# What the site holds besides _TYPES: its search index and inventory, fonts.
_SITE_TYPES = {**TYPES, ".inv": "application/octet-stream", ".txt": "text/plain; charset=utf-8",
               ".woff2": "font/woff2", ".woff": "font/woff", ".ico": "image/x-icon"}


def docs_base() -> str:
    """Where the docs site is: ``PERCENT_ENCODING_DOCS_URL``, else ``/docs/`` (this server)."""
    base = os.environ.get("PERCENT_ENCODING_DOCS_URL", "").strip() or "/docs/"
    return base if base.endswith("/") else base + "/"


@cache
def _module_of_scheme() -> dict[str, str]:
    # Each public module lists the schemes it registers in SCHEMES.
    from .. import schemes

    schemes.all_schemes()  # imports every module that registers one
    owner: dict[str, str] = {}
    for name, mod in sorted(sys.modules.items()):
        if not name.startswith("percent_encoding") or any(
                p.startswith("_") for p in name.split(".")[1:]):
            continue
        for s in getattr(mod, "SCHEMES", ()) or ():
            owner.setdefault(getattr(s, "name", ""), name)
    return owner


def docs_link(scheme: str) -> str:
    """The docs page about the scheme named ``scheme`` (its module's chapter)."""
    module = _module_of_scheme().get(scheme, "percent_encoding")
    short = module.rsplit(".", 1)[-1]
    chapter = _CHAPTER.get(short, short)
    if chapter in _CHAPTERS:
        return f"{docs_base()}{chapter}.html"
    return f"{docs_base()}api/{module}.html"


def site_dir() -> Path | None:
    """The built docs site: ``PERCENT_ENCODING_DOCS_DIR``, else the checkout's ``site/``."""
    env = os.environ.get("PERCENT_ENCODING_DOCS_DIR")
    d = Path(env) if env else Path(__file__).resolve().parents[3] / "site"
    return d if (d / "index.html").is_file() else None


def site_files() -> dict[str, Path]:
    """The site's files by their path below ``/docs/`` (empty when it is not built)."""
    d = site_dir()
    if d is None:
        return {}
    return {p.relative_to(d).as_posix(): p for p in d.rglob("*")
            if p.is_file() and p.suffix in _SITE_TYPES and not p.is_symlink()}


def site_type(path: Path) -> str:
    """The media type the server sends a site file with."""
    return _SITE_TYPES[path.suffix]


# --- without a built site: the Markdown, rendered here ---------------------------------------

_CHECKOUT = Path(__file__).resolve().parents[3]
# Pages that sit outside docs/ in the checkout and are pages of the site (docs/conf.py).
_OUTSIDE = {"bench/README.md": "benchmarks.md"}
_PAGE_NAME = re.compile(r"(?:[a-z0-9_-]+/)*[a-z0-9_-]+\.html|api/percent_encoding[a-z0-9_.]*\.html")
_STYLE = (
    "body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:0 auto;padding:1rem;"
    "color:#1a1a1a;background:#fff}a{color:#0645ad}code,pre{font:14px/1.4 ui-monospace,"
    "monospace}pre{background:#f4f4f4;padding:.6rem;overflow:auto}table{border-collapse:"
    "collapse}td,th{border:1px solid #ccc;padding:.2rem .4rem;vertical-align:top}"
    ".table{overflow:auto}header{border-bottom:1px solid #ccc;margin-bottom:1rem}"
    "@media (prefers-color-scheme:dark){body{color:#e8e8e8;background:#161616}"
    "a{color:#8ab4f8}pre{background:#262626}}"
)


def markdown_root() -> Path | None:
    """The folder holding ``docs/`` (the chapters' Markdown): the copy the wheel carries,
    else the checkout's."""
    for root in (Path(__file__).resolve().parent / "docs_md", _CHECKOUT):
        if (root / "docs" / "index.md").is_file():
            return root
    return None


@cache
def _markdown_pages(root: Path) -> dict[str, Path]:
    # Each chapter by the path the site gives its page (guides/cli.md -> guides/cli.html).
    # docs/api/ is the docs build's generated reference (setup.py leaves it out of the
    # wheel too): the tool makes the api/ pages from the docstrings itself.
    docs = root / "docs"
    return {p.relative_to(docs).with_suffix(".html").as_posix(): p
            for p in docs.rglob("*.md")
            if not p.is_symlink() and p.relative_to(docs).parts[0] != "api"}


def _relative(target: str, page: str) -> str:
    # An href from ``page`` (e.g. "guides/cli.html") to the site path ``target``.
    return "../" * page.count("/") + target


def _svg_data(path: str, page: str) -> str:
    # An SVG figure of the chapters (docs/_static/*.svg, which the wheel carries), as a
    # data: URI: the page shows it with no request the tool would have to serve.  The path
    # is relative to the page's folder under docs/ (as Sphinx reads it, also for the
    # pages that include a file from outside docs/); "" when it is not there.
    root = markdown_root()
    if root is None:
        return ""
    docs = (root / "docs").resolve()
    f = (docs / Path(page).parent / path).resolve()
    if not f.is_relative_to(docs) or not f.is_file():
        return ""
    return "data:image/svg+xml;base64," + base64.b64encode(f.read_bytes()).decode("ascii")


def _page_link(page: str) -> Callable[[str], str]:
    def link(target: str) -> str:
        path, _, frag = target.partition("#")
        if path.endswith(".svg"):
            return _svg_data(path, page)
        for outside, inside in _OUTSIDE.items():
            if path.endswith(outside):
                path = _relative(inside, page)
        if path.endswith(".md"):
            path = path[:-3] + ".html"
        return path + ("#" + frag if frag else "")
    return link


def _wrap(title: str, body: str, page: str) -> bytes:
    up = _relative("", page)
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)} - percent-encoding</title><style>{_STYLE}</style>"
        f'</head><body><header><nav aria-label="docs"><a href="{up}index.html">'
        f'percent-encoding docs</a> · <a href="{up}api/index.html">API reference</a>'
        "</nav></header><main>"
        f"{body}</main><footer><p><small>The docs as the installed tool carries them: "
        "the chapters' Markdown, rendered offline.</small></p></footer></body></html>\n"
    ).encode()


def _directive(source: Path, page: str) -> Callable[[str, str, list[str]], str]:
    def directive(name: str, argument: str, body: list[str]) -> str:
        if name == "include":
            included = (source.parent / argument).resolve()
            root = markdown_root()
            if root is None or not included.is_relative_to(root.resolve()) \
                    or not included.is_file():
                return ""
            text = included.read_text("utf-8")
            # MyST's :relative-docs: PREFIX: the included file's links "PREFIX/x.md" are
            # pages of the site ("x.md" from the including page).
            prefix = next((ln.split(":", 2)[2].strip() for ln in body
                           if ln.startswith(":relative-docs:")), "")
            link = _page_link(page)
            return render(text, lambda t: link(t.removeprefix(prefix) if prefix else t),
                          directive)
        if name == "toctree":
            caption = next((ln.split(":", 2)[2].strip() for ln in body
                            if ln.startswith(":caption:")), "")
            entries = [ln.strip() for ln in body if ln.strip() and not ln.startswith(":")]
            items = "".join(f'<li><a href="{html.escape(e)}.html">{html.escape(_entry_title(e))}'
                            "</a></li>" for e in entries)
            head = f"<h2>{html.escape(caption)}</h2>" if caption else ""
            return f"{head}<ul>{items}</ul>"
        return ""
    return directive


def _entry_title(docname: str) -> str:
    # A toctree entry's label: its page's title, as on the built site.
    if docname == "api/index":
        return "API reference"
    root = markdown_root()
    source = _markdown_pages(root).get(docname + ".html") if root else None
    if source is None:
        return docname
    return _title(source, docname)


def _title(source: Path, fallback: str) -> str:
    # The page's h1, or that of the file it includes first (changelog.md: CHANGELOG.md's).
    text = source.read_text("utf-8")
    m = re.search(r"^# (.+)$", text, re.M)
    if m:
        return re.sub(r"[`*]", "", m.group(1)).strip()
    inc = re.search(r"^```\{include\}\s*(\S+)", text, re.M)
    root = markdown_root()
    if inc and root:
        included = (source.parent / inc.group(1)).resolve()
        if included.is_relative_to(root.resolve()) and included.is_file():
            return _title(included, fallback)
    return fallback


def _api_modules() -> list[str]:
    from .. import __path__ as package_path

    names = ["percent_encoding"]
    for info in pkgutil.walk_packages(package_path, "percent_encoding."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def _api_page(module: str, page: str) -> bytes:
    # A module's reference from its docstrings: what the built site's API page shows.
    try:
        mod = importlib.import_module(module)
    except ImportError as e:
        body = (f"<h1>{html.escape(module)}</h1><p>This module needs a package that is not "
                f"installed here: {html.escape(str(e))}.</p>")
        return _wrap(module, body, page)
    parts = [f"<h1>{html.escape(module)}</h1>"]
    short = module.rsplit(".", 1)[-1]
    chapter = _CHAPTER.get(short, short) + ".html"
    root = markdown_root()
    if root is not None and chapter in _markdown_pages(root):
        parts.append(f'<p>The chapter, with the rules and examples: <a href="../{chapter}">'
                     f"{html.escape(_entry_title(chapter[:-5]))}</a>.</p>")
    parts.append(f'<pre tabindex="0">{html.escape(inspect.getdoc(mod) or "")}</pre>')
    for name in getattr(mod, "__all__", ()):
        obj = getattr(mod, name, None)
        try:
            sig = str(inspect.signature(obj)) if callable(obj) else ""
        except (TypeError, ValueError):
            sig = ""
        doc = inspect.getdoc(obj) if callable(obj) or inspect.ismodule(obj) else ""
        parts.append(f'<h2 id="{html.escape(module)}.{html.escape(name)}">'
                     f"<code>{html.escape(name + sig)}</code></h2>")
        if doc:
            parts.append(f'<pre tabindex="0">{html.escape(doc)}</pre>')
    return _wrap(module, "".join(parts), page)


def rendered_page(name: str) -> bytes | None:
    """The page at ``/docs/<name>`` made from the Markdown (or, for ``api/``, the
    docstrings), or None when there is no such page."""
    name = name or "index.html"
    if name.endswith("/"):
        name += "index.html"
    if not _PAGE_NAME.fullmatch(name):
        return None
    if name == "api/index.html":
        items = "".join(f'<li><a href="{m}.html"><code>{m}</code></a></li>'
                        for m in _api_modules())
        return _wrap("API reference", f"<h1>API reference</h1><ul>{items}</ul>", name)
    if name.startswith("api/"):
        module = name[len("api/"):-len(".html")]
        return _api_page(module, name) if module in _api_modules() else None
    root = markdown_root()
    if root is None:
        return None
    source = _markdown_pages(root).get(name)
    if source is None:
        return None
    body = render(source.read_text("utf-8"), _page_link(name), _directive(source, name))
    return _wrap(_title(source, name), body, name)
