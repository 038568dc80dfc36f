"""``python -m percent_encoding.cli``: the ``percent`` command."""

import sys

from . import main

sys.exit(main())
