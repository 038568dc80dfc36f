"""``python -m percent_encoding``: the ``percent`` command (see :mod:`percent_encoding.cli`)."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
