"""The C twin's units, what each uses of the others, and how long each function is.

A small lexical scan of ``src/csrc`` (no compiler needed): comments and string literals
are blanked, the top-level function definitions of each ``.c`` unit are found by their
braces, and every identifier a unit names that another unit defines (an external
function, or a global variable a header declares ``extern``) is an edge of the unit
graph. ``tests/test_architecture.py`` holds the graph to the layers declared here;
run this file to print the graph, the upward edges and the longest functions::

    python tools/c_layers.py [--all]
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

CSRC = Path(__file__).resolve().parents[1] / "src" / "csrc"

# Each unit and header, bottom to top (issue 40 part 4, ../GUIDE.md's "C layers").
# A unit may use the units and include the headers of its own layer and the ones below.
LAYERS: dict[str, int] = {
    # 0: the base of the extension: the error types, argument parsing, shared macros
    "base.c": 0, "base.h": 0,
    # 1: byte kernels: encode, decode, UTF-8, form bytes, the SIMD block decoder
    "kernels.h": 1, "encode.c": 1, "decode.c": 1, "decode_utf8.c": 1,
    "decode_short.c": 1, "form.c": 1, "_tables.h": 1,
    # 2: the WHATWG URL parser, its getters and setters
    "url.h": 2, "_idna_tables.h": 2, "url.c": 2, "url_input.c": 2, "url_state.c": 2,
    "url_file.c": 2, "url_host.c": 2, "url_idna.c": 2, "url_path.c": 2,
    "url_object.c": 2, "url_setters.c": 2, "url_replace.c": 2,
    # 3: the Arrow column drivers
    "arrow.h": 3, "arrow.c": 3, "arrow_rows.c": 3, "arrow_column.c": 3, "arrow_job.c": 3,
    "arrow_legacy.c": 3, "arrow_simd.c": 3,
    "arrow_url.h": 3, "arrow_url.c": 3, "arrow_url_parts.c": 3, "arrow_url_row.c": 3,
    # 4: the Python-facing top: the vectorcall entries, the module object
    "entry.h": 4, "entry.c": 4, "module.c": 4,
}
LAYER_NAMES = ["base", "byte kernels", "URL parser", "Arrow drivers", "entries and module"]

# The longest a function may be, in lines from its name to its closing brace.
MAX_LINES = 120

_KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "do", "else", "case",
             "defined", "_Alignof", "__attribute__", "__builtin_expect"}


@dataclass
class Function:
    name: str
    unit: str
    start: int  # line of the name
    end: int  # line of the closing brace
    static: bool

    @property
    def lines(self) -> int:
        return self.end - self.start + 1


@dataclass
class Unit:
    name: str
    text: str  # comments and strings blanked, line breaks kept
    functions: list[Function] = field(default_factory=list)
    includes: list[str] = field(default_factory=list)


_LEXEMES = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)


def strip(src: str) -> str:
    """``src`` with comments, string and character literals blanked (lines kept)."""
    def blank(m: re.Match[str]) -> str:
        t = m.group(0)
        if t[0] in "\"'":
            return t[0] + " " * (len(t) - 2) + t[0]
        return re.sub(r"[^\n\\]|\\(?!\n)", " ", t)  # a macro's line continuations stay
    return _LEXEMES.sub(blank, src)


def _blank_directives(text: str) -> str:
    """Preprocessor lines (with their continuations) blanked, lines kept."""
    lines = text.split("\n")
    cont = False
    for k, line in enumerate(lines):
        if cont or line.lstrip().startswith("#"):
            cont = line.rstrip().endswith("\\")
            lines[k] = ""
    return "\n".join(lines)


def _functions(unit: str, text: str) -> Iterator[Function]:
    code = _blank_directives(text)
    depth = 0
    start = 0  # where the current top-level statement began
    for m in re.finditer(r"[{};]", code):
        c, i = m.group(0), m.start()
        if c == "{":
            if depth == 0:
                head = code[start:i]
                h = re.search(r"\b([A-Za-z_]\w*)\s*\(([^()]|\([^()]*\))*\)\s*$", head)
                if h and h.group(1) not in _KEYWORDS and "=" not in head[: h.start()]:
                    end = _matching(code, i)
                    yield Function(
                        name=h.group(1), unit=unit,
                        start=code.count("\n", 0, start + h.start(1)) + 1,
                        end=code.count("\n", 0, end) + 1,
                        static=re.search(r"\bstatic\b", head[: h.start()]) is not None)
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                start = i + 1
        elif depth == 0:
            start = i + 1


def _matching(code: str, i: int) -> int:
    depth = 0
    for m in re.finditer(r"[{}]", code[i:]):
        depth += 1 if m.group(0) == "{" else -1
        if depth == 0:
            return i + m.start()
    raise ValueError("unbalanced braces")


def load(csrc: Path = CSRC) -> dict[str, Unit]:
    """Every ``.c`` and ``.h`` file of ``csrc``, scanned."""
    units: dict[str, Unit] = {}
    for p in sorted(csrc.glob("*.[ch]")):
        raw = p.read_text(encoding="utf-8")
        u = Unit(p.name, strip(raw))
        u.includes = re.findall(r'^\s*#\s*include\s+"([^"]+)"', raw, re.M)
        u.functions = list(_functions(p.name, u.text))
        units[p.name] = u
    return units


def _globals(units: dict[str, Unit]) -> dict[str, str]:
    """Global variables a header declares ``extern`` -> the unit that defines each."""
    names: set[str] = set()
    for u in units.values():
        if u.name.endswith(".h"):
            for decl in re.findall(r"\bextern\b([^;]*);", u.text):
                for part in re.sub(r"\[[^\]]*\]", "", decl).split(","):
                    m = re.search(r"(\w+)\s*$", part)
                    if m:
                        names.add(m.group(1))
    owner: dict[str, str] = {}
    for u in units.values():
        if not u.name.endswith(".c"):
            continue
        for line in _top_level(u.text).split("\n"):
            if "extern" in line or "(" in line:
                continue
            for m in re.finditer(r"(\w+)\s*(?:\[[^\]]*\]\s*)*(?==|;|,)", line):
                if m.group(1) in names:
                    owner[m.group(1)] = u.name
    return owner


def _top_level(text: str) -> str:
    """The text outside every brace pair (function bodies, initializers), lines kept."""
    out, depth, last = [], 0, 0
    for m in re.finditer(r"[{}]", text):
        if depth == 0:
            out.append(text[last : m.start()])
        depth += 1 if m.group(0) == "{" else -1
        if depth == 0:
            last = m.end()
        else:
            out.append("\n" * text.count("\n", m.start(), m.end()))
    out.append(text[last:] if depth == 0 else "")
    return "".join(out)


def definitions(units: dict[str, Unit]) -> dict[str, str]:
    """Every name another unit may use -> the unit that defines it."""
    owner = {f.name: f.unit for u in units.values() if u.name.endswith(".c")
             for f in u.functions if not f.static}
    owner.update(_globals(units))
    return owner


def uses(units: dict[str, Unit]) -> dict[tuple[str, str], set[str]]:
    """(user unit, defining unit) -> the names the first uses of the second.

    A header's macro or inline function counts for each unit that names it, since it is
    expanded there; a header's own edges are those of its macros and inline functions."""
    owner = definitions(units)
    items = _header_items(units)
    edges: dict[tuple[str, str], set[str]] = {}
    for u in units.values():
        if u.name.endswith(".c"):
            named = _expand(set(_IDENT.findall(u.text)), items)
        else:
            named = set().union(set(), *(v for k, v in items.items() if k[0] == u.name))
        for ident in named - {f.name for f in u.functions}:
            d = owner.get(ident)
            if d is not None and d != u.name:
                edges.setdefault((u.name, d), set()).add(ident)
    return edges


_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")


def _header_items(units: dict[str, Unit]) -> dict[tuple[str, str], set[str]]:
    """(header, macro or inline function) -> the identifiers its body names."""
    out: dict[tuple[str, str], set[str]] = {}
    for u in units.values():
        if not u.name.endswith(".h"):
            continue
        lines = u.text.split("\n")
        for f in u.functions:
            out[(u.name, f.name)] = set(_IDENT.findall("\n".join(lines[f.start - 1 : f.end])))
        name, body, cont = "", "", False
        for line in lines:
            if cont:
                body += line
            else:
                m = re.match(r"\s*#\s*define\s+(\w+)(.*)", line)
                if m is None:
                    continue
                name, body = m.group(1), m.group(2)
            cont = line.rstrip().endswith("\\")
            if not cont:
                out[(u.name, name)] = set(_IDENT.findall(body))
    return out


def _expand(named: set[str], items: dict[tuple[str, str], set[str]]) -> set[str]:
    """``named`` with what the header items it names name, transitively."""
    by_name: dict[str, set[str]] = {}
    for (_, name), body in items.items():
        by_name.setdefault(name, set()).update(body)
    todo = list(named)
    while todo:
        for ident in by_name.get(todo.pop(), ()):
            if ident not in named:
                named.add(ident)
                todo.append(ident)
    return named


def unit_graph(units: dict[str, Unit]) -> dict[str, set[str]]:
    """Each ``.c`` unit -> the units it uses (through headers' macros too)."""
    graph: dict[str, set[str]] = {n: set() for n in units if n.endswith(".c")}
    for (a, b) in uses(units):
        if a.endswith(".c"):
            graph[a].add(b)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The units that reach each other, in groups of more than one (a few dozen units:
    each unit's reach is enough)."""
    reach = {v: _reach(graph, v) for v in graph}
    groups = {tuple(sorted({v} | {w for w in reach[v] if v in reach[w]})) for v in graph}
    return sorted(list(g) for g in groups if len(g) > 1)


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for w in graph.get(todo.pop(), ()):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def upward(units: dict[str, Unit],
           layers: dict[str, int] = LAYERS) -> list[tuple[str, str, list[str]]]:
    """(user, used unit, names) where the used unit sits in a higher layer."""
    out = []
    for (a, b), names in sorted(uses(units).items()):
        if a in layers and b in layers and layers[b] > layers[a]:
            out.append((a, b, sorted(names)))
    return out


def upward_includes(units: dict[str, Unit],
                    layers: dict[str, int] = LAYERS) -> list[tuple[str, str]]:
    """(file, header) where the file includes a header of a higher layer."""
    return [(u.name, h) for u in units.values() for h in u.includes
            if u.name in layers and h in layers and layers[h] > layers[u.name]]


def long_functions(units: dict[str, Unit], limit: int = MAX_LINES) -> dict[str, int]:
    """``unit:function`` -> its lines, for every function longer than ``limit``."""
    return {f"{f.unit}:{f.name}": f.lines for u in units.values() for f in u.functions
            if f.lines > limit}


def main(argv: list[str]) -> int:
    units = load()
    graph = unit_graph(units)
    for a in sorted(graph):
        print(f"{a} [{LAYERS.get(a, '?')}] -> {', '.join(sorted(graph[a])) or '-'}")
    print("\ncycles:", cycles(graph) or "none")
    print("\nupward uses:")
    for a, b, names in upward(units):
        print(f"  {a} [{LAYERS.get(a)}] -> {b} [{LAYERS.get(b)}]: {', '.join(names)}")
    print("upward includes:", upward_includes(units) or "none")
    print("units with no layer:", sorted(n for n in units if n not in LAYERS) or "none")
    limit = 0 if "--all" in argv else MAX_LINES
    print(f"\nfunctions over {limit} lines:")
    for name, n in sorted(long_functions(units, limit).items(), key=lambda kv: -kv[1]):
        print(f"  {n:5d} {name}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
