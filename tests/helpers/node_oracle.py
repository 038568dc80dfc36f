"""Run a batch of JSON values through one Node process (the differential tests' oracle).

The script reads one JSON value per line on stdin and writes one JSON line per
input.  Inputs travel with ensure_ascii, so every non-ASCII code unit, lone
surrogates included, is a ``\\uXXXX`` escape the transport cannot alter; Node's
JSON.stringify escapes lone surrogates on the way back, and json.loads turns
them into lone surrogates again.  Output is split on "\\n" only: U+2028 and
U+0085 travel raw inside the JSON.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Sequence
from typing import Any

NODE = shutil.which("node")


def run_node(script: str, items: Sequence[Any]) -> list[Any]:
    assert NODE is not None
    payload = "".join(json.dumps(x, ensure_ascii=True) + "\n" for x in items)
    proc = subprocess.run(
        [NODE, "-e", script],
        input=payload.encode("ascii"),
        capture_output=True,
        timeout=120,
        check=True,
    )
    lines = proc.stdout.decode("utf-8").split("\n")[:-1]
    assert len(lines) == len(items)
    return [json.loads(line) for line in lines]
