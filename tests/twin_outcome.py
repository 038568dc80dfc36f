"""An alias of ``helpers.twin_outcome`` (moved to tests/helpers/): import it from there.

The old name stays while branches written before the move are merged.
"""

import sys

from helpers import twin_outcome

sys.modules[__name__] = twin_outcome
