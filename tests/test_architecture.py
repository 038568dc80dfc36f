"""The package's shape: data flows one way, and every import is one a reader can see.

A small AST scan builds the import graph of src/percent_encoding (every runtime
import, at module level or inside a function; ``if TYPE_CHECKING:`` blocks are
left out since they never run) and checks:

* no module loads another by a string (``importlib.import_module``,
  ``__import__``) except the exceptions listed below with their reason;
* the graph has no cycle, lazy imports included (a string import is no edge of it:
  form._parse's, listed below, closes form -> detect -> form at run time);
* the scheme registry sits above the feature modules: none of them reaches
  ``percent_encoding.schemes``;
* charset detection sits below the form parser (bytes in, a guess out), so
  ``detect.parse_form`` never goes form -> detect -> form by an import statement;
* the kernels are reached through one seam, ``core`` (``_kernels`` picks the twin);
* every module that a comment, a docstring or a ``:mod:`` role names exists;
* the C twin (src/csrc, read by tools/c_layers.py) stands in layers: base, byte kernels,
  the URL parser, the Arrow drivers, then entry.c and module.c.  No unit uses one above it,
  no header is included below its layer, the unit graph has no cycle, and no function is
  longer than tools/c_layers.py's MAX_LINES but the listed drivers being split.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import io
import re
import sys
import tokenize
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]

SRC = Path(__file__).resolve().parents[1] / "src"
PKG = SRC / "percent_encoding"

# Module -> why it must load a module by name.  Empty: the kernel twin selector
# (_kernels) imports ``_speedups`` with a plain ``from . import _speedups``, and the
# optional engines (pyarrow) with plain ``import`` statements.
STRING_IMPORT_EXCEPTIONS: dict[str, str] = {
    "percent_encoding.web._docs": (
        "an installed copy's API reference page documents the public module its path names "
        "(one of the walked list of public modules), imported only when that page is asked for"
    ),
}

# Cycles that remain, as sorted module lists -> the reason (each must be lazy).
ALLOWED_CYCLES: dict[tuple[str, ...], str] = {}


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for p in sorted(PKG.rglob("*.py")):
        parts = list(p.relative_to(SRC).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts.pop()
        out[".".join(parts)] = (p, is_pkg)
    return out


MODULES = _modules()


def _is_module(name: str) -> bool:
    # A .py module, or the compiled extension (_speedups, built from src/csrc).
    return name in MODULES or any(SRC.joinpath(*name.split(".")).parent.glob(
        name.rsplit(".", 1)[-1] + ".pyi"))


def _imports(mod: str) -> Iterator[tuple[str, int]]:
    """(imported module, line) for every runtime import in ``mod``."""
    path, is_pkg = MODULES[mod]
    return _imports_in(path, mod, is_pkg)


def _imports_in(path: Path, mod: str, is_pkg: bool) -> Iterator[tuple[str, int]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))

    def walk(node: ast.AST) -> Iterator[tuple[str, int]]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for c in child.orelse:
                    yield from walk_one(c)
                continue
            yield from walk_one(child)

    def walk_one(child: ast.AST) -> Iterator[tuple[str, int]]:
        if isinstance(child, ast.ImportFrom):
            if child.level:
                base = mod.split(".")
                if not is_pkg:
                    base.pop()
                base = base[: len(base) - (child.level - 1)]
                target = ".".join(base + ([child.module] if child.module else []))
            else:
                target = child.module or ""
            if target.split(".")[0] == "percent_encoding":
                for a in child.names:
                    sub = f"{target}.{a.name}"
                    yield (sub if _is_module(sub) else target), child.lineno
        elif isinstance(child, ast.Import):
            for a in child.names:
                if a.name.split(".")[0] == "percent_encoding":
                    yield a.name, child.lineno
        yield from walk(child)

    yield from walk(tree)


GRAPH: dict[str, set[str]] = {
    m: {t for t, _ in _imports(m) if t != m} for m in MODULES
}


def _reachable(start: str) -> dict[str, str]:
    """Every module ``start`` imports, directly or not -> the module that imports it."""
    seen: dict[str, str] = {}
    todo = [start]
    while todo:
        m = todo.pop()
        for t in GRAPH.get(m, ()):
            if t not in seen and t != start:
                seen[t] = m
                todo.append(t)
    return seen


def _path(start: str, goal: str) -> list[str]:
    via = _reachable(start)
    chain = [goal]
    while chain[-1] != start:
        chain.append(via[chain[-1]])
    return chain[::-1]


def _cycles(graph: dict[str, set[str]] = GRAPH) -> list[tuple[str, ...]]:
    # Tarjan's strongly connected components; each one with more than a module is a cycle.
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[tuple[str, ...]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(tuple(sorted(comp)))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_the_scan_sees_imports() -> None:
    # The scan itself: known edges, module level and lazy.
    assert "percent_encoding.core" in GRAPH["percent_encoding.form._parse"]
    assert "percent_encoding.detect._parse_form" in GRAPH["percent_encoding.detect"]  # lazy
    assert "percent_encoding.legacy" in GRAPH["percent_encoding.schemes"]  # in _sources()
    assert "percent_encoding._speedups" in GRAPH["percent_encoding._kernels"]



def test_the_scan_leaves_out_type_checking_imports(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text("from typing import TYPE_CHECKING\nfrom . import core\n"
                 "if TYPE_CHECKING:\n    from .form import parse\nelse:\n    import x\n"
                 "def f():\n    from .legacy import _php\n")
    assert sorted(_imports_in(p, "percent_encoding.m", False)) == [
        ("percent_encoding.core", 2), ("percent_encoding.legacy._php", 8)]


def _string_imports(path: Path) -> Iterator[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(
                f, ast.Name) else ""
            if name in ("import_module", "__import__"):
                yield node.lineno, ast.unparse(node)
        elif isinstance(node, ast.Import) and any(a.name == "importlib" for a in node.names):
            yield node.lineno, "import importlib"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("importlib"):
            if any(a.name == "import_module" for a in node.names):
                yield node.lineno, f"from {node.module} import import_module"


def test_no_module_is_loaded_by_a_string() -> None:
    found = {}
    for mod, (path, _) in MODULES.items():
        hits = list(_string_imports(path))
        if hits and mod not in STRING_IMPORT_EXCEPTIONS:
            found[mod] = hits
    assert not found, (
        "import modules with a plain import statement (lazily inside a function if need "
        f"be), so the import graph stays visible: {found}"
    )
    assert set(STRING_IMPORT_EXCEPTIONS) <= set(MODULES)  # no stale exception


def test_the_string_import_check_can_fail(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text("import importlib\ndef f():\n    return importlib.import_module('x')\n"
                 "g = __import__('y')\n")
    assert sorted(line for line, _ in _string_imports(p)) == [1, 3, 4]


def test_the_import_graph_has_no_cycles() -> None:
    cycles = _cycles()
    unexplained = [c for c in cycles if c not in ALLOWED_CYCLES]
    assert not unexplained, f"import cycles: {unexplained}"
    assert set(ALLOWED_CYCLES) <= set(cycles)  # no stale exception


def test_the_cycle_finder_can_fail() -> None:
    graph = {m: set(t) for m, t in GRAPH.items()}
    graph["percent_encoding.core"].add("percent_encoding.form")
    assert any("percent_encoding.core" in c and "percent_encoding.form._parse" in c
               for c in _cycles(graph))


# The modules whose SCHEMES the registry assembles (what schemes._sources imports).
FEATURES = sorted(
    t for t in GRAPH["percent_encoding.schemes"]
    if t not in ("percent_encoding._scheme", "percent_encoding.errors", "percent_encoding.sets")
)


def test_features_are_what_the_registry_imports() -> None:
    assert {"percent_encoding.form", "percent_encoding.legacy", "percent_encoding.oauth1",
            "percent_encoding.ecmascript"} <= set(FEATURES)


@pytest.mark.parametrize("feature", FEATURES)
def test_no_feature_module_imports_the_registry(feature: str) -> None:
    # One way: schemes above the features, the Scheme record (_scheme) below them.
    below = [feature] + [m for m in MODULES if m.startswith(feature + ".")]
    for m in below:
        reach = _reachable(m)
        assert "percent_encoding.schemes" not in reach, _path(m, "percent_encoding.schemes")
    assert "percent_encoding.schemes" not in _reachable("percent_encoding._scheme")


def test_detection_is_below_the_form_parser() -> None:
    # The form parser's guessing path (detect.parse_form goes through it) asks _charset
    # (bytes in, a guess out); the public detect module sits above form and may use it,
    # never the other way round.
    for m in (m for m in MODULES if m.startswith("percent_encoding.form")):
        reach = _reachable(m)
        assert "percent_encoding.detect" not in reach, _path(m, "percent_encoding.detect")
    charset = _reachable("percent_encoding.encodings._detect")
    assert not any(m.startswith("percent_encoding.form") for m in charset)


# Where the twins may be named: the selector, the seam, the twins themselves.
_SEAM = {"percent_encoding._kernels", "percent_encoding.core", "percent_encoding._pure"}
_TWINS = {"_pure", "_speedups", "kernels"}


def _kernel_reach(path: Path) -> Iterator[tuple[int, str]]:
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and (
            node.attr == "_k" or (node.attr in _TWINS and isinstance(node.value, ast.Name)
                                  and node.value.id in ("_kernels", "percent_encoding"))
        ):
            yield node.lineno, ast.unparse(node)
        elif isinstance(node, ast.ImportFrom) and any(a.name in _TWINS for a in node.names):
            yield node.lineno, ast.unparse(node)
        elif isinstance(node, (ast.ImportFrom, ast.Import)):
            names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                a.name for a in node.names]
            if any(n.split(".")[-1] in _TWINS for n in names):
                yield node.lineno, ast.unparse(node)


def test_the_kernels_have_one_seam() -> None:
    found = [
        f"{mod}:{no}: {code}"
        for mod, (path, _) in MODULES.items()
        if mod not in _SEAM
        for no, code in _kernel_reach(path)
    ]
    assert not found, "reach the kernels through core's seam names:\n" + "\n".join(found)


def test_the_seam_check_can_fail(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text("from . import core, _kernels\nfrom ._pure import form_parse\n"
                 "x = core._k.encode\ny = _kernels.kernels\n")
    assert sorted(line for line, _ in _kernel_reach(p)) == [2, 3, 4]


# -- families in packages, private names private (h11's rule) ---------------------------------

# The private modules that stay at the top of the package, each with why it is not in a family.
TOP_LEVEL_PRIVATE = {
    "_abnf": "the grammar pieces (RFC 5234 core rules, RFC 3986 classes) every family shares",
    "_args": "the option vocabulary: one check and one wording per argument, for every module",
    "_encode_set": "the EncodeSet type and the registry dict, below sets and the kernels",
    "_kernels": "the one seam: picks the C or the pure twin, binds the kernel names",
    "_pure": "the pure-Python twin of the C kernels (the reference for src/csrc)",
    "_scheme": "the Scheme record every feature module declares, below the registry",
    "_tool": "the service layer the CLI and the web tool share",
    "_version": "the version, in one place (pyproject reads it)",
}
MAX_TOP_LEVEL_PRIVATE = 8

# Private names one module takes from another (``from .x import _y`` or ``x._y``), with why.
# h11's rule: a private module may hold public names; a ``_name`` stays in its own module.
CROSS_MODULE_PRIVATE = {
    ("percent_encoding._speedups", "percent_encoding._kernels"):
        "the compiled extension itself: only the seam imports it",
    ("percent_encoding.arrow._with_views", "percent_encoding.polars"):
        "Polars asks for view-typed results; not an option users should set",
}
MAX_CROSS_MODULE_PRIVATE = 10


def _private_uses(paths: dict[str, tuple[Path, bool]]) -> set[tuple[str, str]]:
    """(private thing, module using it) for every private name taken across modules."""
    found: set[tuple[str, str]] = set()
    for mod, (path, is_pkg) in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module_alias: dict[str, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                if node.level:
                    base = base[: len(base) - (node.level - 1)]
                    target = ".".join(base + ([node.module] if node.module else []))
                else:
                    target = node.module or ""
                if target.split(".")[0] != "percent_encoding":
                    continue
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    if _is_module(sub):
                        module_alias[a.asname or a.name] = sub
                        # A private .py module may hold public names (that is how a
                        # package shares them); the compiled extension counts as private.
                        if sub not in MODULES and a.name.startswith("_"):
                            found.add((sub, mod))
                    elif a.name.startswith("_") and not a.name.startswith("__") and target != mod:
                        found.add((f"{target}.{a.name}", mod))
            elif isinstance(node, ast.Import):
                for a in node.names:
                    if a.name.split(".")[0] == "percent_encoding" and a.asname:
                        module_alias[a.asname] = a.name
        for node in ast.walk(tree):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                    and node.value.id in module_alias and node.attr.startswith("_")
                    and not node.attr.startswith("__")
                    and module_alias[node.value.id] != mod):
                found.add((f"{module_alias[node.value.id]}.{node.attr}", mod))
    return found


def test_few_private_modules_at_the_top() -> None:
    top = {p.stem for p in PKG.glob("_*.py") if p.stem not in ("__init__", "__main__")}
    assert top == set(TOP_LEVEL_PRIVATE), "a private module belongs in its family's package"
    assert len(top) <= MAX_TOP_LEVEL_PRIVATE


def test_families_are_packages() -> None:
    for family in ("url", "rfc3986", "detect", "rfc8187", "form", "legacy", "encodings"):
        assert (PKG / family / "__init__.py").is_file(), family


def test_private_names_stay_private() -> None:
    found = _private_uses(MODULES)
    assert found == set(CROSS_MODULE_PRIVATE), (
        "give what a sibling needs a public name in a private module:\n"
        + "\n".join(f"{t} <- {m}" for t, m in sorted(found - set(CROSS_MODULE_PRIVATE)))
    )
    assert len(found) <= MAX_CROSS_MODULE_PRIVATE


def test_the_private_name_check_can_fail(tmp_path: Path) -> None:
    pkg = tmp_path / "percent_encoding"
    pkg.mkdir()
    (pkg / "a.py").write_text("from .core import _secret\nfrom . import core\nx = core._other\n")
    found = _private_uses({"percent_encoding.a": (pkg / "a.py", False)})
    assert found == {("percent_encoding.core._secret", "percent_encoding.a"),
                     ("percent_encoding.core._other", "percent_encoding.a")}


def test_the_architecture_page_names_every_package_and_public_module() -> None:
    page = (SRC.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    public = {m.split(".")[1] for m in MODULES
              if m.count(".") >= 1 and not m.split(".")[1].startswith("_")}
    missing = sorted(n for n in public if f"`{n}`" not in page and f"`{n}/`" not in page)
    assert not missing, f"docs/architecture.md does not name {missing}"


# -- true words: every module a comment or docstring names exists -----------------------------

ROOT = SRC.parent
_PROSE_DIRS = ("src", "tests", "bench", "tools")
_ROLE = re.compile(r":mod:`[~!]?([\w.]+)`")
# a source path: url/_parser.py, _speedups.pyi, src/csrc/url.h
_FILE = re.compile(r"(?<![\w/.-])((?:[\w-]+/)*[\w-]+\.(?:py|pyi|c|h))(?![\w/])")
_DOTTED = re.compile(r"(?<![\w.])percent_encoding(?:\.\w+)+")
# a private name used as a module: "_name.attr", "_name's", "module _name", "the _name module"
_PRIVATE = re.compile(r"(?<![\w./])(_[a-z][a-z0-9_]*)(?=\.[a-z_]\w*|'s\b|\s+module\b)"
                      r"|\bmodules?\s+`*(_[a-z][a-z0-9_]*)")


# Top-level folders and files of the checkout (and of the package) that a path may start
# with; any other path is another project's (php-src's ext/standard/url.c, ...).
_OURS = ("src", "tests", "bench", "tools", "docs", "fuzz", "csrc", "percent_encoding",
         *(p.name for p in PKG.iterdir() if p.is_dir() and not p.name.startswith("_")))
# Named files that are no module of ours, with what they are.
_NOT_OURS = {"job.py": "the user's Spark job that tests/test_spark_archives.py writes"}


def _sources(root: Path) -> Iterator[Path]:
    for d in _PROSE_DIRS:
        for p in sorted((root / d).rglob("*")):
            # not a hidden folder's: bench/.cache holds ada's sources for the native bench
            if (p.suffix in (".py", ".pyi", ".c", ".h") and "data" not in p.parts
                    and not any(part.startswith(".") for part in p.relative_to(root).parts)):
                yield p


_C_COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
_PY_COMMENT = re.compile(r"#[^\n]*")


def _comment_lines(path: Path) -> set[int]:
    text = path.read_text(encoding="utf-8")
    return {tok.start[0] for tok in tokenize.generate_tokens(io.StringIO(text).readline)
            if tok.type == tokenize.COMMENT}


# A docstring: a triple-quoted string that opens the file (after comments) or follows a
# line ending in ':' (a def or class header).  Matches what ast finds in this tree, in a
# tenth of the time.
_DOCSTRING = re.compile(r'(?:\A(?:[ \t]*#[^\n]*\n|[ \t]*\n)*|:[ \t]*(?:#[^\n]*)?\n)'
                        r'[ \t]*[rRuU]?("""|\'\'\')(.*?)\1', re.S)


def _split(path: Path) -> tuple[list[tuple[int, str]], str]:
    """A Python or C source as (line, text) of each comment and docstring, and the rest."""
    text = path.read_text(encoding="utf-8")
    if path.suffix in (".c", ".h"):
        return [(text.count("\n", 0, m.start()) + 1, m.group())
                for m in _C_COMMENT.finditer(text)], _C_COMMENT.sub(" ", text)
    # A '#' to the end of the line: every comment, and the tail of the odd string that
    # holds a '#' (_stale_module_names asks the tokenizer about a line only when it has a hit).
    prose = [(text.count("\n", 0, m.start()) + 1, m.group())
             for m in _PY_COMMENT.finditer(text)]
    prose += [(text.count("\n", 0, m.start(2)) + 1, m.group(2))
              for m in _DOCSTRING.finditer(text)]
    return prose, _PY_COMMENT.sub(" ", _DOCSTRING.sub(" ", text))


def _importable(name: str) -> bool:
    if name.split(".")[0] == "percent_encoding":
        return _is_module(name)
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _role_resolves(role: str, path: Path, root: Path) -> bool:
    if not role.startswith(".") and _importable(role):
        return True
    role = role if role.startswith(".") else "." + role
    # Relative: from the package the source sits in, then each package above it.
    rel = path.relative_to(root / "src").with_suffix("").parts if path.is_relative_to(
        root / "src") else ("percent_encoding",)
    pkg = list(rel if rel[-1] == "__init__" else rel[:-1])
    pkg = [p for p in pkg if p != "__init__"] or ["percent_encoding"]
    while pkg:
        if _importable(".".join(pkg) + role):
            return True
        pkg.pop()
    return False


def _dotted_resolves(dotted: str) -> bool:
    # The longest prefix that is a module, then (at most) one attribute of it.
    parts = dotted.rstrip(".").split(".")
    for n in range(len(parts), 0, -1):
        if _importable(".".join(parts[:n])):
            if n == len(parts):
                return True
            return hasattr(importlib.import_module(".".join(parts[:n])), parts[n])
    return False


def _stale_module_names(root: Path) -> list[tuple[str, int, str]]:
    paths = list(_sources(root))
    files = {p.relative_to(root).as_posix() for d in ("docs", "fuzz") for p in
             (root / d).rglob("*.py")} | {p.relative_to(root).as_posix() for p in paths}
    files |= {p.name for p in root.glob("*.py")}
    split = {p: _split(p) for p in paths}
    # What the code (not its prose) names: identifiers, and every module's stem.
    names = {p.stem for p in paths}
    for _, code in split.values():
        names.update(re.findall(r"(?<!\w)_\w+", code))
    stale = []
    for path, (prose, _) in split.items():
        for line, text in prose:
            bad = [r for r in _ROLE.findall(text) if not _role_resolves(r, path, root)]
            bad += [f for f in _FILE.findall(text) if f not in _NOT_OURS
                    and ("/" not in f or f.split("/")[0] in _OURS)
                    and not any(g == f or g.endswith("/" + f) for g in files)]
            bad += [d for d in _DOTTED.findall(text) if not _dotted_resolves(d)]
            bad += [a or b for a, b in _PRIVATE.findall(text) if (a or b) not in names]
            if bad and text.startswith("#") and line not in _comment_lines(path):
                continue  # a '#' inside a string
            stale += [(path.relative_to(root).as_posix(), line, b) for b in bad]
    return stale


def test_comments_and_docstrings_name_modules_that_exist() -> None:
    stale = _stale_module_names(ROOT)
    assert not stale, "\n".join(f"{p}:{n}: {name}" for p, n, name in stale)


def test_the_module_name_check_can_fail(tmp_path: Path) -> None:
    # The stale names of the 0.x restructures, one of each form, and a true one of each.
    url = tmp_path / "src" / "percent_encoding" / "url"
    url.mkdir(parents=True)
    (url / "_fast.py").write_text(
        '"""Falls back to :mod:`._url_parser`; see :mod:`percent_encoding.url._record`."""\n'
        "# the href and offsets (_url_fast.fast_href); percent_encoding.url.parse is one\n"
        "# twin is _arrow_url's per-row url.parse; url/_fast.py is this file\n"
        "x = 1  # percent_encoding._url_record.record_of, percent_encoding.url.nothing\n")
    csrc = tmp_path / "src" / "csrc"
    csrc.mkdir()
    (csrc / "url.h").write_text("/* see url.py's _record_of */\n"
                                "// the _url_parser's pos_map, in the _uri_resolve module\n")
    stale = _stale_module_names(tmp_path)
    assert sorted((p.rsplit("/", 1)[-1], n, name) for p, n, name in stale) == [
        ("_fast.py", 1, "._url_parser"), ("_fast.py", 2, "_url_fast"),
        ("_fast.py", 3, "_arrow_url"), ("_fast.py", 4, "percent_encoding._url_record.record_of"),
        ("_fast.py", 4, "percent_encoding.url.nothing"),
        ("url.h", 1, "url.py"), ("url.h", 2, "_uri_resolve"), ("url.h", 2, "_url_parser")]


# -- package walls: a sibling takes what it needs from the package's own door ---------------

# The one module through which a package hands its siblings what is not its public API
# (the package's ``__init__`` is the other door).  Importing it does not count below.
DOOR = "_for_siblings"

# Imports of another package's private module (importer, imported), each with its reason.
CROSS_PACKAGE_PRIVATE = {
    ("percent_encoding.cli._codec", "percent_encoding.encodings._data"):
        "`percent encodings` lists the §9 single-byte indexes; through the door it would "
        "load the charset detector as well, for a table",
}
MAX_CROSS_PACKAGE_PRIVATE = 3


def _family(mod: str) -> str:
    parts = mod.split(".")
    return parts[1] if len(parts) > 1 else ""


def _cross_package_private(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """(importer, imported) for every import of a private module of another package."""
    found = set()
    for mod, targets in graph.items():
        for t in targets:
            parts = t.split(".")
            inner = parts[2:]  # below percent_encoding.<family>
            if (inner and _family(mod) != parts[1] and inner != [DOOR]
                    and any(p.startswith("_") for p in inner)):
                found.add((mod, t))
    return found


def test_packages_hand_siblings_things_through_a_door() -> None:
    found = _cross_package_private(GRAPH)
    assert found == set(CROSS_PACKAGE_PRIVATE), (
        "take what a sibling package needs from its __init__ or its "
        f"{DOOR} module:\n" + "\n".join(f"{m} -> {t}" for m, t in sorted(found))
    )
    assert len(found) <= MAX_CROSS_PACKAGE_PRIVATE


def test_doors_are_packages_own() -> None:
    doors = sorted(m for m in MODULES if m.rsplit(".", 1)[-1] == DOOR)
    assert doors and all(m.count(".") == 2 for m in doors), doors  # one per package, at its top
    # A door only re-exports: it defines nothing of its own.
    for m in doors:
        tree = ast.parse(MODULES[m][0].read_text(encoding="utf-8"))
        own = [n for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef, ast.Assign))]
        assert not own, f"{m} defines {[getattr(n, 'name', '=') for n in own]}"


def test_the_form_parser_is_reached_through_its_package() -> None:
    # detect and legacy take FormOptions and parse_with from percent_encoding.form itself.
    for mod in MODULES:
        if _family(mod) in ("detect", "legacy"):
            assert not [t for t in GRAPH[mod] if t.startswith("percent_encoding.form.")], mod
    assert not any(t.startswith("percent_encoding.detect")
                   for m in MODULES if _family(m) == "form" for t in _reachable(m))


def test_the_wall_check_can_fail() -> None:
    graph = {m: set(t) for m, t in GRAPH.items()}
    graph["percent_encoding.oauth1"].add("percent_encoding.rfc8187._http")
    graph["percent_encoding.legacy._whatwg"].add("percent_encoding.form._parse")
    graph["percent_encoding.arrow"].add("percent_encoding.url._for_siblings")
    graph["percent_encoding.url._host"].add("percent_encoding.url._idna")
    assert _cross_package_private(graph) - _cross_package_private(GRAPH) == {
        ("percent_encoding.oauth1", "percent_encoding.rfc8187._http"),
        ("percent_encoding.legacy._whatwg", "percent_encoding.form._parse"),
    }


# -- form options: one value (rust-url's ParseOptions), declared once --------------------------

# The signatures that take the form parser's options by keyword: the documented public ones
# only (tests/test_args.py holds them to docs/options.md).  Below them the options travel as
# one FormOptions value, never as keywords forwarded by name.
FORM_OPTION_SIGNATURES = {
    ("percent_encoding.form._parse", "parse"),
    ("percent_encoding.form._parse", "parse_bytes"),
    ("percent_encoding.detect", "parse_form"),
    ("percent_encoding.legacy._whatwg", "whatwg_form_parse"),
}


def _form_option_declarations(paths: dict[str, tuple[Path, bool]]) -> set[tuple[str, str]]:
    found = set()
    for mod, (path, _) in paths.items():
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(n, ast.FunctionDef) and "strip_leading_question_mark" in {
                    a.arg for a in n.args.args + n.args.kwonlyargs}:
                found.add((mod, n.name))
            elif isinstance(n, ast.ClassDef) and "strip_leading_question_mark" in {
                    x.target.id for x in n.body
                    if isinstance(x, ast.AnnAssign) and isinstance(x.target, ast.Name)}:
                found.add((mod, n.name))
    return found


def test_form_options_are_declared_once() -> None:
    found = _form_option_declarations(MODULES)
    assert found - FORM_OPTION_SIGNATURES == {("percent_encoding.form._options", "FormOptions")}
    assert FORM_OPTION_SIGNATURES <= found


def test_the_form_option_check_can_fail(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text("def full_parse(data, *, strip_leading_question_mark=False):\n    pass\n")
    assert _form_option_declarations({"m": (p, False)}) == {("m", "full_parse")}


# -- C in layers (issue 40 part 4): src/csrc read by tools/c_layers.py --------------------------

def _c_layers() -> Any:
    spec = importlib.util.spec_from_file_location("c_layers", ROOT / "tools" / "c_layers.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("c_layers", mod)  # dataclasses look their module up by name
    spec.loader.exec_module(mod)
    return mod


CL = _c_layers()
CSRC = ROOT / "src" / "csrc"
C_UNITS = CL.load(CSRC)

# The functions over CL.MAX_LINES lines, and their length when the list was made: the Arrow
# drivers that are being split (msgspec's driver only dispatches).  The list may only shrink:
# none of these may grow, and one that fits the limit leaves the list.
KNOWN_LONG_C_FUNCTIONS = {
}


def test_every_c_file_has_one_layer() -> None:
    assert sorted(C_UNITS) == sorted(CL.LAYERS), "add the file to tools/c_layers.py's LAYERS"
    # base at the bottom; entry.c and module.c on top of all
    assert CL.LAYERS["base.c"] == 0
    top = max(CL.LAYERS.values())
    assert {f for f, k in CL.LAYERS.items() if k == top} == {"entry.h", "entry.c", "module.c"}


def test_no_c_unit_calls_a_layer_above_it() -> None:
    assert CL.upward(C_UNITS) == []


def test_each_c_header_is_included_by_its_layer_and_above() -> None:
    assert CL.upward_includes(C_UNITS) == []
    # one header per layer's concept, none for all
    assert not (CSRC / "speedups.h").exists()
    for u in C_UNITS.values():
        if u.name.endswith(".c"):
            assert u.includes, f"{u.name} includes no header of its layer"


def test_the_c_unit_graph_has_no_cycle() -> None:
    graph = CL.unit_graph(C_UNITS)
    assert CL.cycles(graph) == []
    # the graph is seen: the layers use each other downwards
    assert {"base.c", "encode.c", "url.c"} <= graph["entry.c"]
    assert "url_state.c" in graph["arrow_url_row.c"]


def test_no_c_function_is_too_long() -> None:
    long = CL.long_functions(C_UNITS)
    assert set(long) <= set(KNOWN_LONG_C_FUNCTIONS), "split it: check, pick, run, build"
    for name, was in KNOWN_LONG_C_FUNCTIONS.items():
        assert name in long, f"{name} fits {CL.MAX_LINES} lines now: remove it from the list"
        assert long[name] <= was, f"{name} grew from {was} to {long[name]} lines"


def _write_c(tmp: Path, files: dict[str, str]) -> Any:
    tmp.mkdir()
    for name, text in files.items():
        (tmp / name).write_text(text)
    return CL.load(tmp)


def test_the_c_layer_checks_can_fail(tmp_path: Path) -> None:
    # a kernel that calls the module's helper (upward), which calls the kernel back (a cycle),
    # and includes the top's header
    units = _write_c(tmp_path / "a", {
        "base.h": "int helper(void);\nextern int flag;\n",
        "entry.h": '#include "base.h"\n#define CALL_KERNEL() kernel()\n',
        "decode.c": '#include "entry.h"\n/* helper() in a comment is no call */\n'
                    'int kernel(void)\n{\n    return helper() + flag;\n}\n',
        "module.c": '#include "entry.h"\nint flag = 1;\n'
                    'static const char *s = "kernel()";\n'
                    'int\nhelper(void)\n{\n    return CALL_KERNEL();\n}\n',
    })
    layers = {"base.h": 0, "decode.c": 1, "entry.h": 4, "module.c": 4}
    assert CL.upward(units, layers) == [("decode.c", "module.c", ["flag", "helper"])]
    assert CL.upward_includes(units, layers) == [("decode.c", "entry.h")]
    graph = CL.unit_graph(units)
    assert graph == {"decode.c": {"module.c"}, "module.c": {"decode.c"}}
    assert CL.cycles(graph) == [["decode.c", "module.c"]]


def test_the_c_length_check_can_fail(tmp_path: Path) -> None:
    body = "".join(f"    x += {i};\n" for i in range(CL.MAX_LINES))
    units = _write_c(tmp_path / "b", {
        "long.c": "static int\nlong_one(int x)\n{\n" + body + "    return x;\n}\n"
                  "int\nshort_one(void)\n{\n    return 0;\n}\n",
    })
    assert CL.long_functions(units) == {"long.c:long_one": CL.MAX_LINES + 4}
    f = {f.name: f for f in units["long.c"].functions}
    assert f["long_one"].static and not f["short_one"].static and f["short_one"].lines == 4


# --- one URL parser per twin, offsets by name -------------------------------------------

# The pure twin's one URL parser (issue 40): the only module that defines states of
# the URL Standard's basic URL parser (§4.4: methods named ``s_<state>``) or matches
# input against the special schemes' names.  Its shortcuts are steps inside it.
PURE_URL_PARSER = "percent_encoding.url._parser"
_SPECIAL_SCHEMES = re.compile(r"https\?.*wss\?|wss\?.*https\?")


def _url_parser_modules(paths: dict[str, tuple[Path, bool]]) -> set[str]:
    found = set()
    for mod, (path, _) in paths.items():
        for n in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name.startswith("s_"):
                found.add(mod)
            elif (isinstance(n, ast.Constant) and isinstance(n.value, str) and "://" in n.value
                  and _SPECIAL_SCHEMES.search(n.value)):
                found.add(mod)
    return found


def test_the_pure_twin_has_one_url_parser() -> None:
    assert _url_parser_modules(MODULES) == {PURE_URL_PARSER}


def test_the_url_parser_check_can_fail(tmp_path: Path) -> None:
    states = tmp_path / "a.py"
    states.write_text("class P:\n    def s_path(self, c):\n        pass\n")
    fast = tmp_path / "b.py"
    fast.write_text('import re\nR = re.compile(r"((?i:https?|wss?|ftp))://([a-z.]+)")\n')
    other = tmp_path / "c.py"
    other.write_text('R = "https?://"\ndef path(s):\n    return s\n')
    assert _url_parser_modules({"a": (states, False), "b": (fast, False),
                                "c": (other, False)}) == {"a", "b"}


# What holds component offsets (url/_offsets.py): a URL's ``_parts``, a name given
# its value, and a parameter typed as offsets (``Parts``, ``tuple[int, ...]``).
_OFFSET_TYPES = re.compile(r"\bParts\b|tuple\[int, \.\.\.\]")


def _holds_offsets(node: ast.expr, held: set[str]) -> bool:
    if isinstance(node, ast.Attribute):
        return node.attr == "_parts"
    return isinstance(node, ast.Name) and node.id in held


def _is_int(node: ast.expr) -> bool:
    if isinstance(node, ast.UnaryOp):
        node = node.operand
    return isinstance(node, ast.Constant) and type(node.value) is int


def _bare_offset_reads(paths: dict[str, tuple[Path, bool]]) -> list[tuple[str, int, str]]:
    """Offsets read by position: ``parts[5]``, ``p = u._parts; p[0]``, a tuple of names
    unpacked from the offsets, ``kind == 5``."""
    out = []
    for mod, (path, _) in paths.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for scope in ast.walk(tree):
            if not isinstance(scope, ast.FunctionDef | ast.AsyncFunctionDef | ast.Module):
                continue
            held: set[str] = set()
            if not isinstance(scope, ast.Module):
                args = scope.args
                held |= {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs
                         if a.annotation is not None
                         and _OFFSET_TYPES.search(ast.unparse(a.annotation))}
            for n in ast.walk(scope):
                if isinstance(n, ast.Assign) and any(
                        isinstance(x, ast.Attribute) and x.attr == "_parts"
                        for x in ast.walk(n.value)):
                    held |= {t.id for t in n.targets if isinstance(t, ast.Name)}
            for n in ast.walk(scope):
                bad = (
                    (isinstance(n, ast.Subscript) and _is_int(n.slice)
                     and _holds_offsets(n.value, held))
                    or (isinstance(n, ast.Assign) and _holds_offsets(n.value, held)
                        and any(isinstance(t, ast.Tuple) for t in n.targets))
                    or (isinstance(n, ast.Compare) and isinstance(n.left, ast.Name)
                        and n.left.id in ("kind", "host_kind")
                        and any(_is_int(c) for c in n.comparators)))
                if bad:
                    out.append((mod, getattr(n, "lineno", 0), ast.unparse(n)[:60]))
    return sorted(set(out))


def test_offsets_are_read_by_name() -> None:
    assert _bare_offset_reads(MODULES) == []


def test_the_offset_check_can_fail(tmp_path: Path) -> None:
    p = tmp_path / "m.py"
    p.write_text(
        "def a(u):\n    p = u._parts\n    return u.href[p[0]:p[5]]\n"
        "def b(parts: tuple[int, ...]):\n    s_end, u_end = parts\n    return parts[-1]\n"
        "def c(kind):\n    return kind == 5\n"
        "def d(u, O):\n    p = u._parts\n    return p[O.SCHEME_END], kind == O.HOST_NONE\n"
        "def e(xs, parts):\n    return xs[0], parts[0]\n")
    got = [(line, text) for _, line, text in _bare_offset_reads({"m": (p, False)})]
    assert [line for line, _ in got] == [3, 3, 5, 6, 8], got
