"""The ``serve`` subcommand: start the local web tool (warning when it listens
beyond this machine).
"""

from __future__ import annotations

import argparse
import sys


def cmd_serve(args: argparse.Namespace) -> int:
    from ..web.server import serve

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"percent: warning: listening on {args.host}: anyone who can reach it can use the tool",
            file=sys.stderr,
        )
    serve(args.host, args.port, open_browser=args.open)
    return 0
