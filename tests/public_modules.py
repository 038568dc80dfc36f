"""An alias of ``helpers.public_modules`` (moved to tests/helpers/): import it from there.

The old name stays while branches written before the move are merged.
"""

import sys

from helpers import public_modules

sys.modules[__name__] = public_modules
