"""The ``schemes`` and ``compare`` subcommands: the registry as a table or
JSON, and which ASCII characters each scheme encodes, side by side.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from .. import schemes
from .. import sets as _sets
from .._tool import (
    compare_data,
)
from ..schemes import Scheme
from ._term import Style, table


def cmd_schemes(args: argparse.Namespace) -> int:
    all_s = schemes.all_schemes()
    also: dict[str, list[str]] = {}
    for alias, target in schemes.aliases().items():
        also.setdefault(target, []).append(alias)
    old_names: dict[str, list[str]] = {}
    for old, new in _sets.deprecated_names().items():
        old_names.setdefault(new, []).append(old)
    if args.json:
        data: dict[str, Any] = {
            "schemes": [{**s.describe(), "aliases": also.get(s.name, [])} for s in all_s],
            "encode_sets": [
                {
                    "name": n,
                    "spec": _sets.get(n).spec or "",
                    "deprecated_names": old_names.get(n, []),
                }
                for n in _sets.names()
            ],
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    style = Style(sys.stdout)
    by_family: dict[str, list[Scheme]] = {}
    for s in all_s:
        by_family.setdefault(s.family or "other", []).append(s)
    blocks = []
    for fam, members in by_family.items():
        # Every name the registry accepts is listed: aliases beside their scheme.
        rows = [[s.name + (f" ({', '.join(also[s.name])})" if s.name in also else ""), s.spec]
                for s in members]
        blocks.append(style.bold(style.yellow(fam)) + "\n" + table(rows, style, None))
    set_rows = [
        [n + "".join(f" ({o}, deprecated)" for o in old_names.get(n, [])), _sets.get(n).spec or ""]
        for n in _sets.names()
    ]
    blocks.append(
        style.bold(style.yellow("encode sets (plain UTF-8 percent-encoding; also --scheme)"))
        + "\n"
        + table(set_rows, style, None)
    )
    print("\n\n".join(blocks))
    return 0


_PCT_RUN = re.compile(r"(?:%[0-9A-F]{2})+")


def _mark(o: str | None) -> str:
    """One character for a compact comparison cell."""
    if o is None:
        return "·"
    if o.startswith("error"):
        return "!"
    if _PCT_RUN.fullmatch(o):
        return "%"
    return "+" if o == "+" else "*"


def cmd_compare(args: argparse.Namespace) -> int:
    names = args.schemes or schemes.names()
    data = compare_data(names)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    style = Style(sys.stdout)
    cols = data["schemes"]
    rows = data["rows"]
    if not args.all_rows:
        rows = [r for r in rows if len({str(o) for o in r["output"]}) > 1]
    legend = [[str(i + 1), c["name"]] for i, c in enumerate(cols)]
    print(table(legend, style, ["#", "scheme"]))
    print()
    # Up to 8 schemes show the exact output; more show one mark per cell.
    compact = len(cols) > 8 and not args.wide
    if compact:
        width = len(str(len(cols)))
    else:
        outs = [len(str(o)) for r in rows for o in r["output"] if o is not None]
        width = max([3, *(n for n in outs if n <= 12)])
    # Consecutive rows that look the same (compact marks) are merged: "U+0000–U+001F".
    groups: list[tuple[str, list[str | None]]] = []
    last_key: tuple[str, ...] | None = None
    for r in rows:
        key = tuple(_mark(o) for o in r["output"]) if compact else None
        if key is not None and key == last_key and groups:
            first = groups[-1][0].split("–")[0]
            groups[-1] = (f"{first}–{r['char']}", groups[-1][1])
        else:
            groups.append((r["char"], r["output"]))
        last_key = key
    label_w = max([6, *(len(g[0]) for g in groups)])
    head = "char".ljust(label_w) + " " + " ".join(str(i + 1).rjust(width) for i in range(len(cols)))
    print(style.bold(head.rstrip()))
    for label, outputs in groups:
        cells = []
        for o in outputs:
            # (a refusal is "!" in both modes: its message, cut to the column, read "er…")
            text = _mark(o) if compact or o is None or o.startswith("error") else o
            if not compact and len(text) > width:
                text = text[: width - 1] + "…"
            text = text.rjust(width)
            if o is None:
                cells.append(style.dim(text))
            elif str(o).startswith("error"):
                cells.append(style.red(text))
            elif _PCT_RUN.fullmatch(str(o)):
                cells.append(style.green(text))
            else:
                cells.append(style.yellow(text))
        print(style.cyan(label.ljust(label_w)) + " " + " ".join(cells))
    notes = []
    if compact:
        notes.append("% percent-encoded, + plus, * other output, ! rejected, · unchanged; "
                     "--wide shows the output")
    elif any(str(o).startswith("error") for _, outs in groups for o in outs):
        notes.append("! rejected: the scheme cannot write the character")
    if not args.all_rows:
        notes.append("rows where every scheme agrees are hidden; --all-rows shows them")
    for n in notes:
        print(style.dim(f"({n})"))
    return 0
