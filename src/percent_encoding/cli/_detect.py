"""The ``detect`` subcommand: space convention, charset and problems of a
percent-encoded string, as :func:`percent_encoding._tool.detect_report`
reports them.  Without TEXT, each line of stdin is one text: one report per
line (JSON Lines with ``--json``).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from .._tool import (
    detect_report,
)
from ._lines import each_line
from ._term import Style


def cmd_detect(args: argparse.Namespace) -> int:
    if args.text is not None:
        rep = detect_report(args.text, args.context)
        if args.json:
            import json  # only here: a one-shot command should not load it

            print(json.dumps(rep, indent=2, ensure_ascii=False))
        else:
            _print(rep, Style(sys.stdout))
        return 0
    import json

    style = Style(sys.stdout)
    for n, text in each_line("detect"):
        rep = detect_report(text, args.context)
        if args.json:
            print(json.dumps({"input": text, **rep}, ensure_ascii=False))
        else:
            if n > 1:
                print()
            print(style.bold(style.cyan(text)))
            _print(rep, style)
        sys.stdout.flush()  # one report per line as it comes
    return 0


def _print(rep: dict[str, Any], style: Style) -> None:
    sc = rep.get("space_convention")
    if isinstance(sc, dict):
        plus = sc.get("plus_is_space")
        verdict = "'+' means a space" if plus else "'+' is a literal plus"
        reason = style.dim(str(sc.get("reason", "")))
        print(f"{style.bold('space convention:')} {verdict}  {reason}")
    cs = rep.get("charset")
    if cs == []:
        print(f"{style.bold('charset:')} ASCII only (no percent-encoded non-ASCII bytes)")
    elif isinstance(cs, list):
        guesses = ", ".join(
            f"{g.get('encoding')} ({g.get('confidence', 0):.2f})" if isinstance(g, dict) else str(g)
            for g in cs[:4]
        )
        print(f"{style.bold('charset:')} {guesses}")
    findings = rep.get("findings")
    if isinstance(findings, list):
        if not findings:
            print(f"{style.bold('findings:')} {style.green('none — looks clean')}")
        else:
            print(style.bold("findings:"))
            for f in findings:
                if isinstance(f, dict):
                    where = f"[{f.get('start')}:{f.get('end')}]"
                    if f.get("component"):
                        where += f" {f['component']}"
                    print(f"  {style.yellow(str(f.get('code')))} {where} {f.get('message', '')}")
                    if f.get("fix"):
                        print(f"      {style.dim('fix: ' + str(f['fix']))}")
                else:
                    print(f"  {f}")
    variants = rep.get("variants")
    if isinstance(variants, list):
        print(f"{style.bold('could come from:')} {', '.join(map(str, variants)) or '(none)'}")
    for key, err in rep.get("errors", {}).items():
        print(style.dim(f"({key}: {err})"), file=sys.stderr)
