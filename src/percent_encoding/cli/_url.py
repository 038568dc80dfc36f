"""The ``url`` subcommand: what a browser requests for a URL, and why.

It runs the WHATWG URL Standard's parser (:mod:`percent_encoding.url`) and
prints the href, each component with the percent-encode set that encoded it
and what that changed, and the validation errors (URL Standard §4.4).

``--json`` gives one object whose top-level keys are the URL class's getters
(URL Standard §6.1: ``href``, ``origin``, ``protocol``, ``username``,
``password``, ``host``, ``hostname``, ``port``, ``pathname``, ``search``,
``hash``), so ``jq .hostname`` reads one; beside them ``input`` (the text
given), ``components`` (how each component was percent-encoded) and
``validation_errors``.  Without URL, each line of stdin is one URL: one
report per line, JSON Lines with ``--json``; a line that is not a URL is
reported (``{"input": ..., "error": ...}`` in JSON) and the rest go on, with
exit status 1 at the end.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from .._tool import url_report
from ..errors import URLParseError
from ._lines import each_line
from ._term import Style

#: The URL class's getters (URL Standard §6.1), the flat keys of ``--json``.
GETTERS = ("href", "origin", "protocol", "username", "password", "host", "hostname", "port",
           "pathname", "search", "hash")


def report(text: str, base: str | None) -> dict[str, Any]:
    """The ``--json`` object for ``text``: the getters, flat, then the explanation."""
    from ..url import parse

    u = parse(text, base)
    rep = url_report(text, base)
    flat: dict[str, Any] = {"input": text}
    flat.update((g, getattr(u, g)) for g in GETTERS)
    flat["components"] = rep["components"]
    flat["validation_errors"] = rep["validation_errors"]
    return flat


def cmd_url(args: argparse.Namespace) -> int:
    if args.url is None:
        return _stream(args)
    rep = report(args.url, args.base)
    if args.json:
        print(json.dumps(rep, indent=2, ensure_ascii=False))
    else:
        _print(rep, Style(sys.stdout))
    return 0


def _stream(args: argparse.Namespace) -> int:
    style = Style(sys.stdout)
    failed = 0
    for n, text in each_line("url"):
        try:
            rep = report(text, args.base)
        except URLParseError as e:
            failed += 1
            if args.json:
                print(json.dumps({"input": text, "error": {
                    "name": e.name, "position": e.position, "message": str(e)}},
                    ensure_ascii=False))
            else:
                print(f"percent url: line {n}: {style.red('error:')} {e}", file=sys.stderr)
            continue
        if args.json:
            print(json.dumps(rep, ensure_ascii=False))
        else:
            if n > 1:
                print()
            _print(rep, style)
        sys.stdout.flush()  # one result per line as it comes (tail -f | percent url)
    return 1 if failed else 0


def _print(rep: dict[str, Any], style: Style) -> None:
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
