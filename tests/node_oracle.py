"""An alias of ``helpers.node_oracle`` (moved to tests/helpers/): import it from there.

The old name stays while branches written before the move are merged.
"""

import sys

from helpers import node_oracle

sys.modules[__name__] = node_oracle
