"""An alias of ``helpers.column_cases`` (moved to tests/helpers/): import it from there.

The old name stays while branches written before the move are merged.
"""

import sys

from helpers import column_cases

sys.modules[__name__] = column_cases
