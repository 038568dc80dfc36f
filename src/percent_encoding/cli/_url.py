"""The ``url`` subcommand: what a browser requests for a URL, and why.

It runs the WHATWG URL Standard's parser (:mod:`percent_encoding.url`) and
prints the href, each component with the percent-encode set that encoded it
and what that changed, and the validation errors (URL Standard §4.4).
"""

from __future__ import annotations

import argparse
import json
import sys

from .._tool import url_report
from ._term import Style


def cmd_url(args: argparse.Namespace) -> int:
    rep = url_report(args.url, args.base)
    if args.json:
        print(json.dumps(rep, indent=2, ensure_ascii=False))
        return 0
    style = Style(sys.stdout)
    print(rep["href"])
    for c in rep["components"]:
        changed = ", ".join(f"{ch!r}→{r}" for ch, r in c["encoded"])
        head = f"  {style.bold(c['component'] + ':'):<12} {c['output']}"
        print(head)
        detail = (c["encode_set"] and f"set {c['encode_set']}") or c["reason"]
        print(style.dim(f"      {detail}" + (f"; changed {changed}" if changed else "")))
    errs = rep["validation_errors"]
    if errs:
        print(style.bold("validation errors:"))
        for e in errs:
            print(f"  {style.yellow(e['name'])} at {e['position']}")
    return 0
