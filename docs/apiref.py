"""The API reference, generated from the package itself: one page per public module, one
entry per name in its ``__all__``.

``docs/conf.py`` writes the pages into ``docs/api/`` (ignored by git) before every build, so
a new public module or name appears without being listed anywhere.  ``tests/test_docs_api.py``
imports this file (no Sphinx needed) to check that every public name gets an entry with a
docstring and a spec line.

Functions and classes are documented by autodoc (signature and docstring from the object);
constants by a ``py:data`` entry whose text is the doc comment (``#:`` lines above the
assignment, or a string literal right after it) in the source, or, for an encode set, its
name, spec and members, or, for a module's ``SCHEMES``, the scheme names it registers.
"""

from __future__ import annotations

import ast
import functools
import importlib
import inspect
import pkgutil
import re
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

PACKAGE = "percent_encoding"

# A spec citation in a docstring: the standards and RFCs the library follows, and the other
# languages' manuals it reproduces.
_CITATION = re.compile(
    r"(?:WHATWG )?(?:URL|Encoding|HTML|Infra|Fetch|WebIDL)(?: Standard(?: §[\d.]+)?| §[\d.]+)"
    r"|RFC \d+(?: §[\d.]+)?|ECMA-262(?: §[\dA-Z.]+)?|§[\d.]+|UTS #\d+|RFC\d+"
    r"|XPath and XQuery Functions and Operators[^.;)]*|XForms 1\.0|HTML 4\.01"
    r"|(?:PHP|Java|Go|\.NET|Ruby)(?:'s)? [A-Za-z_.]+\(?\)?"
)
OWN_API = "none: this is the library's own API (no standard governs it)"


@dataclass(frozen=True)
class Entry:
    module: str  # the public module whose __all__ lists it
    name: str
    kind: str  # "function", "class", "exception", "data", "module"
    doc: str  # the docstring (or, for data, the doc comment); "" when there is none
    spec: str  # the spec citation shown with the entry
    canonical: str  # "module.name" of the entry that is indexed (the others link to it)


def public_modules() -> list[str]:
    """Every public module (no part after ``percent_encoding`` starts with ``_``), sorted."""
    pkg = importlib.import_module(PACKAGE)
    names = [PACKAGE]
    for info in pkgutil.walk_packages(pkg.__path__, PACKAGE + "."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)


def _kind(obj: object) -> str:
    if inspect.ismodule(obj):
        return "module"
    if inspect.isclass(obj):
        return "exception" if issubclass(obj, BaseException) else "class"
    if callable(obj):
        return "function"
    return "data"


def _module_sources(mod: ModuleType) -> list[Path]:
    # Where a re-exported constant may be defined: the module, its package's private
    # submodules, then every other source file of the package.
    assert mod.__file__ is not None
    own = Path(mod.__file__)
    root = Path(importlib.import_module(PACKAGE).__file__ or "").parent
    rest = sorted(p for p in root.rglob("*.py") if p != own)
    return [own, *sorted(own.parent.glob("_*.py")), *rest]


@functools.cache
def _doc_comments(path: Path) -> dict[str, str]:
    """The docs of the top-level assignments in ``path``: a string literal right after one,
    or the ``#:`` comment lines right above it."""
    text = path.read_text("utf-8")
    if "#:" not in text and '"""' not in text:
        return {}
    lines = text.splitlines()
    body = ast.parse(text).body
    docs: dict[str, str] = {}
    for i, node in enumerate(body):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        names = [t.id for t in targets if isinstance(t, ast.Name)]
        if not names:
            continue
        nxt = body[i + 1] if i + 1 < len(body) else None
        doc = ""
        if (isinstance(nxt, ast.Expr) and isinstance(nxt.value, ast.Constant)
                and isinstance(nxt.value.value, str)):
            doc = inspect.cleandoc(nxt.value.value)
        else:
            above: list[str] = []
            j = node.lineno - 2
            while j >= 0 and lines[j].lstrip().startswith("#:"):
                above.insert(0, lines[j].lstrip()[2:].strip())
                j -= 1
            doc = " ".join(above)
        for n in names:
            if doc and n not in docs:
                docs[n] = doc
    return docs


def _data_doc(mod: ModuleType, name: str, obj: object) -> str:
    for path in _module_sources(mod):
        doc = _doc_comments(path).get(name, "")
        if doc:
            return doc
    from percent_encoding.sets import EncodeSet

    if isinstance(obj, EncodeSet):
        return f"The encode set ``{obj.name or name}``, which encodes::\n\n    {obj!r}"
    if name == "SCHEMES" and isinstance(obj, tuple):
        names = ", ".join(f"``{s.name}``" for s in obj)
        return f"The schemes this module adds to :mod:`percent_encoding.schemes`: {names}."
    return ""


def rst_escape(text: str) -> str:
    """``text`` as reStructuredText that shows it as it is."""
    return re.sub(r"([\\`*_|\[\]<>])", r"\\\1", text)


def _citation(doc: str) -> str:
    m = _CITATION.search(doc)
    return m.group().strip() if m else ""


def _canonical(obj: object, listed_in: list[str]) -> str:
    # The public submodule whose name is the longest prefix of where the object is
    # defined; failing that, any submodule that lists it, before the root package.
    home = getattr(obj, "__module__", None) or ""
    def score(m: str) -> tuple[int, int]:
        prefix = m != PACKAGE and (home == m or home.startswith(m + "."))
        return (len(m) if prefix else 0, 0 if m == PACKAGE else 1)
    return max(listed_in, key=score)


def entries() -> list[Entry]:
    """Every public name of every public module, as reference entries."""
    modules = {m: importlib.import_module(m) for m in public_modules()}
    listed: dict[int, list[str]] = {}
    for m, mod in modules.items():
        for n in getattr(mod, "__all__", ()):
            obj = getattr(mod, n, None)
            if _kind(obj) in ("function", "class", "exception"):
                listed.setdefault(id(obj), []).append(m)
    module_spec = {m: _citation(mod.__doc__ or "") for m, mod in modules.items()}
    module_spec[PACKAGE] = ""  # the root is an umbrella: its docstring's citation is the core's
    out = []
    for m, mod in modules.items():
        for n in getattr(mod, "__all__", ()):
            obj = getattr(mod, n, None)
            kind = _kind(obj)
            canon = m
            if kind in ("function", "class", "exception"):
                canon = _canonical(obj, listed[id(obj)])
            if kind == "module":
                assert isinstance(obj, ModuleType)
                doc = (obj.__doc__ or "").strip()
            elif kind == "data":
                doc = _data_doc(mod, n, obj)
            else:
                doc = inspect.getdoc(obj) or ""
            # Without a citation of its own, a name has its home module's (a re-exported
            # error is not the URL Standard's because the root package cites it).
            home_spec = module_spec[canon]
            spec = _citation(doc) or home_spec or OWN_API
            if spec.startswith("§") and home_spec and not home_spec.startswith("§"):
                # a bare "§4.3": of the module's standard
                spec = f"{re.sub(r' §.*', '', home_spec)} {spec}"
            set_spec = getattr(obj, "spec", None) if kind == "data" else None
            if isinstance(set_spec, str) and set_spec:
                spec = set_spec  # an encode set says its own
            out.append(Entry(m, n, kind, doc, spec, f"{canon}.{n}"))
    return out


def _indent(text: str, by: str = "   ") -> str:
    return "\n".join(by + line if line.strip() else "" for line in text.splitlines())


def page(module: str, items: list[Entry]) -> str:
    """The MyST source of one module's reference page."""
    mod = importlib.import_module(module)
    rst = [f".. py:module:: {module}", ""]
    summary = (mod.__doc__ or "").strip()
    if summary:
        rst += [f".. automodule:: {module}", "   :no-members:", "   :no-index:", ""]
    for e in items:
        full = f"{module}.{e.name}"
        also = f"*Also available as* :py:obj:`{e.canonical}`." if e.canonical != full else ""
        spec_line = f"*Spec:* {rst_escape(e.spec)}"
        if e.kind in ("function", "class", "exception"):
            directive = {"function": "autofunction", "class": "autoclass",
                         "exception": "autoexception"}[e.kind]
            rst.append(f".. {directive}:: {full}")
            if e.kind != "function":
                rst += ["   :members:", "   :show-inheritance:"]
            if also:
                rst.append("   :no-index:")
            rst += ["", f"   {spec_line}", "", *([f"   {also}", ""] if also else [])]
        else:
            obj = getattr(mod, e.name)
            rst.append(f".. py:data:: {e.name}")  # in the page's current module
            if e.kind == "module":  # indexed as the module itself, on its own page
                rst += ["   :no-index:", "", f"   The module :mod:`{obj.__name__}`.", ""]
            else:
                rst += [f"   :type: {type(obj).__name__}", ""]
                rst += [_indent(e.doc), ""]
            rst += [f"   {spec_line}", ""]
    return (f"# `{module}`\n\n```{{eval-rst}}\n" + "\n".join(rst).rstrip() + "\n```\n")


def write(out_dir: Path) -> list[Path]:
    """Write the reference pages and their index into ``out_dir``; returns the pages."""
    out_dir.mkdir(parents=True, exist_ok=True)
    by_module: dict[str, list[Entry]] = {}
    for e in entries():
        by_module.setdefault(e.module, []).append(e)
    written = []
    for module in public_modules():
        path = out_dir / f"{module}.md"
        text = page(module, by_module.get(module, []))
        if not path.exists() or path.read_text("utf-8") != text:
            path.write_text(text, "utf-8")  # unchanged pages keep their time: no rebuild
        written.append(path)
    lines = ["# API reference", "",
             "Every public module, and in each every name its `__all__` lists, generated",
             "from the package's docstrings (signatures, docstrings, spec citations).", "",
             "```{toctree}", ":maxdepth: 1", "", *[p.stem for p in written], "```", ""]
    index = out_dir / "index.md"
    text = "\n".join(lines)
    if not index.exists() or index.read_text("utf-8") != text:
        index.write_text(text, "utf-8")
    for stale in set(out_dir.glob("*.md")) - {*written, index}:
        stale.unlink()  # a module that went away
    return written
