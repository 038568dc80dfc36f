"""Draw the URL speed figure of docs/speed.md and bench/README.md from the benches' JSON.

Reads what ``bench_url_columns.py --only native --json F`` wrote (the URL columns on one
thread against ada's own C++, per corpus) and, when given, what ``bench_url.py
--datasets DIR --json F`` wrote (per string against can_ada), and writes one SVG: each
bar is "how many times the anchor's speed", with the issue's target drawn as a line.
matplotlib is a bench-only dependency (the ``bench`` extra).

    .venv/bin/python bench/plot.py --native native.json [--strings strings.json] \\
        [--out docs/_static/url-speed.svg]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parents[1] / "docs" / "_static" / "url-speed.svg"


def _bars(ax: Any, groups: list[str], series: dict[str, list[float]], target: dict[str, float],
          title: str) -> None:
    width = 0.8 / max(1, len(series))
    for i, (label, values) in enumerate(series.items()):
        xs = [g + (i - (len(series) - 1) / 2) * width for g in range(len(groups))]
        bars = ax.bar(xs, values, width, label=label)
        ax.bar_label(bars, labels=[f"{v:.2f}x" for v in values], fontsize=7, padding=2)
        if label in target:
            ax.hlines(target[label], xs[0] - width / 2, xs[-1] + width / 2,
                      colors=bars.patches[0].get_facecolor(), linestyles="dashed", linewidth=1)
    ax.axhline(1.0, color="black", linewidth=0.6)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_title(title, fontsize=9)
    ax.set_ylabel("times the anchor's speed (dashed: target)", fontsize=8)
    ax.legend(fontsize=7, loc="upper left")


def draw(native: dict[str, Any], strings: dict[str, Any] | None, out: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "percent-encoding"  # the same file for the same data
    import matplotlib.pyplot as plt

    panels = 2 if strings else 1
    fig, axes = plt.subplots(1, panels, figsize=(5.2 * panels, 3.6), squeeze=False)
    rows = native["rows"]
    _bars(axes[0][0], [r["corpus"] for r in rows], {
        "url_component(col, 'hostname')": [r["ada_host_ns"] / r["host_ns"] for r in rows],
        "url_parse(col), ten fields": [r["ada_ten_ns"] / r["parse_ns"] for r in rows],
    }, {"url_component(col, 'hostname')": 1.0, "url_parse(col), ten fields": 0.5},
        "URL columns, one thread, against ada's C++ (g++ -O3)")
    if strings:
        srows = strings["rows"]
        label = {"parse+href": "url.parse(s).href", "parse+hostname": "url.parse(s).hostname",
                 "can_parse": "url.can_parse(s)"}
        _bars(axes[0][1], [Path(r["corpus"]).stem for r in srows],
              {label.get(k, k): [r[k] for r in srows] for k in strings["series"]},
              {label.get(k, k): 2.0 for k in strings["series"]},
              "Per string, against can_ada")
    fig.tight_layout()
    out.parent.mkdir(parents=True, exist_ok=True)
    kind = out.suffix.lstrip(".") or "svg"
    fig.savefig(out, format=kind, metadata={"Date": None} if kind == "svg" else None)
    print(f"wrote {out}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--native", type=Path, required=True,
                    help="bench_url_columns.py --only native --json output")
    ap.add_argument("--strings", type=Path, help="bench_url.py --json output")
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    strings = json.loads(a.strings.read_text()) if a.strings else None
    draw(json.loads(a.native.read_text()), strings, a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
