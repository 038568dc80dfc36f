"""The ``encodings`` subcommand: the WHATWG Encoding Standard's encodings and their labels.

Every ``--encoding LABEL`` takes one of these labels (Encoding Standard §4.2 "get an
encoding": ASCII case-insensitive, surrounding ASCII whitespace ignored); ``decode`` and
``form parse`` also take ``auto``.  The list comes from
:mod:`percent_encoding.encodings`, in the Standard's order (§4.2's table).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..encodings import lookup, names
from ._term import Style, table


def cmd_encodings(args: argparse.Namespace) -> int:
    encs = [lookup(n) for n in names()]
    if args.label:
        encs = []
        for label in args.label:
            enc = lookup(label)  # an unknown label: UnknownEncodingError, exit status 2
            if enc not in encs:
                encs.append(enc)
    if args.json:
        data = {"encodings": [{"name": e.name, "labels": list(e.labels)} for e in encs]}
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    style = Style(sys.stdout)
    rows = [[e.name, ", ".join(e.labels)] for e in encs]
    print(table(rows, style, ["encoding", "labels (any of them names it; case does not matter)"]))
    return 0
