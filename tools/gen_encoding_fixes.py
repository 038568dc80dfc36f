"""Regenerate the index corrections in src/percent_encoding/encodings/_data.py.

encodings/_index.py derives each index of the Encoding Standard from a Python codec at first use
(``python_index``) and then applies ``INDEX_NULL_RANGES`` and ``INDEX_FIXES``.  This
script compares ``python_index(name)`` with the Standard's indexes.json and writes the
differences (facts about the Standard, not a copy of its index files).

Usage: python tools/gen_encoding_fixes.py [path/to/indexes.json]
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from percent_encoding.encodings._index import python_index  # noqa: E402

MODULE = ROOT / "src" / "percent_encoding" / "encodings" / "_data.py"
DEFAULT = ROOT / ".." / "shared" / "conformance" / "encoding" / "indexes.json"
BEGIN, END = "# BEGIN GENERATED FIXES\n# fmt: off\n", "# fmt: on\n# END GENERATED FIXES\n"
MIN_RUN = 8  # runs of this many spec-unmapped pointers are written as ranges


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    indexes = json.loads(src.read_text(encoding="utf-8"))
    ranges: dict[str, list[tuple[int, int]]] = {}
    fixes: dict[str, dict[int, int | None]] = {}
    for name, spec in indexes.items():
        if name == "gb18030-ranges":
            continue  # derived algorithmically; see _Ranges
        have = python_index(name)
        size = max(len(spec), len(have))
        spec = spec + [None] * (size - len(spec))
        have = have + [None] * (size - len(have))
        diff = {p: spec[p] for p in range(size) if spec[p] != have[p]}
        # Collapse long runs of "Python maps it, the Standard does not" into ranges.
        runs: list[tuple[int, int]] = []
        p = 0
        while p < size:
            if p in diff and diff[p] is None:
                q = p
                while q + 1 in diff and diff[q + 1] is None:
                    q += 1
                if q - p + 1 >= MIN_RUN:
                    runs.append((p, q))
                    for r in range(p, q + 1):
                        del diff[r]
                p = q + 1
            else:
                p += 1
        if runs:
            ranges[name] = runs
        if diff:
            fixes[name] = diff
        print(f"{name}: {len(diff)} fixes, {len(runs)} null ranges")
    out = ["INDEX_NULL_RANGES: dict[str, tuple[tuple[int, int], ...]] = {"]
    for name, runs in ranges.items():
        out.append(f"    {name!r}: ({', '.join(f'({a}, {b})' for a, b in runs)},),")
    out.append("}")
    out.append("INDEX_FIXES: dict[str, dict[int, int | None]] = {")
    for name, diff in fixes.items():
        out.append(f"    {name!r}: {{")
        items = [f"{p}: {'None' if cp is None else hex(cp)}" for p, cp in sorted(diff.items())]
        line = "       "
        for item in items:
            if len(line) + len(item) + 2 > 96:
                out.append(line)
                line = "       "
            line += f" {item},"
        out.append(line)
        out.append("    },")
    out.append("}")
    text = MODULE.read_text(encoding="utf-8")
    start = text.index(BEGIN) + len(BEGIN)
    end = text.index(END)
    MODULE.write_text(text[:start] + "\n".join(out) + "\n" + text[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
