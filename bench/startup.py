"""Start-up cost of a one-shot ``percent`` command, next to ``python -c pass``.

Runs each command N times as a subprocess (after warm-up runs that also write the
bytecode caches, as an installed package has them), alternating the commands so that
machine noise hits them alike, and prints the medians side by side with the overhead
over ``python -c pass``.  The goal: ``percent encode x`` at most 40 ms over it.

    .venv/bin/python bench/startup.py [-n 31] [--python PATH]

No hyperfine needed; ``--json`` prints the numbers for scripts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

GOAL_MS = 40.0


def commands(py: str) -> dict[str, list[str]]:
    return {
        "python -c pass": [py, "-c", "pass"],
        "python -c 'import percent_encoding'": [py, "-c", "import percent_encoding"],
        "percent --version": [py, "-m", "percent_encoding", "--version"],
        "percent encode x": [py, "-m", "percent_encoding", "encode", "x"],
        "percent decode %41": [py, "-m", "percent_encoding", "decode", "%41"],
        "percent encode -s form 'a b'": [py, "-m", "percent_encoding", "encode", "-s", "form",
                                         "a b"],
        "percent form build q=x": [py, "-m", "percent_encoding", "form", "build", "q=x"],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("-n", type=int, default=31, help="runs per command (default 31)")
    ap.add_argument("--python", default=sys.executable, help="the interpreter to time")
    ap.add_argument("--json", action="store_true", help="print JSON")
    args = ap.parse_args(argv)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    cmds = commands(args.python)
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(3):  # warm-up: page cache, __pycache__
        for cmd in cmds.values():
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
                           check=True)
    for _ in range(args.n):
        for name, cmd in cmds.items():
            t0 = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, env=env, check=True)
            times[name].append((time.perf_counter() - t0) * 1000)
    med = {k: statistics.median(v) for k, v in times.items()}
    base = med["python -c pass"]
    if args.json:
        print(json.dumps({"median_ms": med, "base_ms": base, "goal_over_base_ms": GOAL_MS}))
        return 0
    print(f"{'command':40} {'median':>9} {'over pass':>10}   ({args.n} runs each)")
    for k, v in med.items():
        print(f"{k:40} {v:7.1f}ms {v - base:+8.1f}ms")
    over = med["percent encode x"] - base
    verdict = "meets" if over <= GOAL_MS else "misses"
    print(f"\npercent encode x: {over:+.1f} ms over python -c pass; {verdict} the goal "
          f"(<= {GOAL_MS:.0f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
