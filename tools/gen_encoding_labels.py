"""Regenerate the label table in src/percent_encoding/encodings/_data.py from encodings.json.

Usage: python tools/gen_encoding_labels.py [path/to/encodings.json]
(default: ../shared/conformance/encoding/encodings.json next to the repository).
The table is data in the module so the library works without ../shared;
tests/conformance/test_encoding_indexes.py checks that it is still equal to the file.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MODULE = ROOT / "src" / "percent_encoding" / "encodings" / "_data.py"
DEFAULT = ROOT / ".." / "shared" / "conformance" / "encoding" / "encodings.json"
BEGIN, END = "# BEGIN GENERATED LABELS\n# fmt: off\n", "# fmt: on\n# END GENERATED LABELS\n"


def render(groups: list[dict[str, object]]) -> str:
    lines = [
        "ENCODING_GROUPS: tuple[tuple[str, tuple[tuple[str, tuple[str, ...]], ...]], ...] = ("
    ]
    for group in groups:
        lines.append("    (")
        lines.append(f"        {json.dumps(group['heading'])},")
        lines.append("        (")
        for enc in group["encodings"]:  # type: ignore[attr-defined]
            lines.append(f"            ({json.dumps(enc['name'])}, (")
            for label in enc["labels"]:
                lines.append(f"                {json.dumps(label)},")
            lines.append("            )),")
        lines.append("        ),")
        lines.append("    ),")
    lines.append(")")
    return "\n".join(lines) + "\n"


def main() -> None:
    src = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT
    groups = json.loads(src.read_text(encoding="utf-8"))
    text = MODULE.read_text(encoding="utf-8")
    start = text.index(BEGIN) + len(BEGIN)
    end = text.index(END)
    MODULE.write_text(text[:start] + render(groups) + text[end:], encoding="utf-8")
    print(f"wrote {sum(len(g['encodings']) for g in groups)} encodings to {MODULE}")


if __name__ == "__main__":
    main()
