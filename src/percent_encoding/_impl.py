"""Pick the kernel implementation: the C twin when it is built, else pure Python.

``PERCENT_ENCODING_NO_EXTENSIONS=1`` (any non-empty value but ``0``) forces the
pure twin.  Type checkers see the pure twin's signatures (the yarl model).
"""

from __future__ import annotations

import os
from types import ModuleType
from typing import TYPE_CHECKING

from . import _pure

#: Which twin runs the kernels: ``"c"`` (the C extension) or ``"python"`` (the pure twin,
#: also when ``PERCENT_ENCODING_NO_EXTENSIONS=1``).  Both give the same results.
IMPLEMENTATION: str
kernels: ModuleType

if TYPE_CHECKING:
    kernels = _pure
    IMPLEMENTATION = "python"
else:
    _forced_pure = os.environ.get("PERCENT_ENCODING_NO_EXTENSIONS", "") not in ("", "0")
    if _forced_pure:
        kernels = _pure
        IMPLEMENTATION = "python"
    else:
        try:
            from . import _speedups as kernels

            # Without a built extension, the C sources' directory _speedups/
            # imports as an empty namespace package: that is no C twin.
            if not hasattr(kernels, "decode"):
                raise ImportError("percent_encoding._speedups is not built")
        except ImportError:
            kernels = _pure
            IMPLEMENTATION = "python"
        else:
            IMPLEMENTATION = "c"
