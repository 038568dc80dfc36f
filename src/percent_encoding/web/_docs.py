"""The links from the web tool to the docs site, and the built site it serves at ``/docs/``.

Each scheme links to the chapter of the module that registers it (``form`` schemes to
``forms.html``, the ``legacy`` ones to ``legacy.html``...), or, for a module without a
chapter of its own, to its page of the API reference.  The links start with
``PERCENT_ENCODING_DOCS_URL`` (a published copy of the site), by default ``/docs/``: the
server then sends the site that ``./dev docs`` built into the checkout's ``site/`` (or the
folder ``PERCENT_ENCODING_DOCS_DIR`` names), from a fixed list of its files made at start,
so that no request path reaches any other file.
"""

from __future__ import annotations

import os
import sys
from functools import cache
from pathlib import Path

from ._httputil import TYPES

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
             "detect", "arrow"}
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
