"""What the test modules share: import it from here, never from ``conftest``.

* :mod:`helpers.paths`: ``ROOT`` (the checkout), ``DATA`` and :func:`data_path` (the
  vendored test vectors under ``tests/data``, always present) and ``SHARED`` (``../shared``,
  when it is beside the checkout); re-exported here: ``from helpers import data_path``.
* :mod:`helpers.twins`: the kernel twins (``IMPLS``, ``KERNELS``, ``C_KERNELS``, ``C_URL``) and the
  ``NoKernels`` stand-in of ``no_kernels`` tests.
* :mod:`helpers.engines`: which engine each column adapter needs (``need_engines``).
* :mod:`helpers.web` and :mod:`helpers.browser`: the ``web_server`` fixture (the web tool
  on 127.0.0.1 in a thread) and the ``browser`` fixture (headless Chromium through
  Playwright), registered for every test module by ``tests/conftest.py``.
* :mod:`helpers.linear_time`, :mod:`helpers.public_modules`, :mod:`helpers.column_cases`,
  :mod:`helpers.node_oracle`, :mod:`helpers.twin_outcome`: the timing harness, the list of
  public modules, the engine adapters' cases, the Node oracle, the twins' comparison.

Nothing here imports pytest at import time except the fixture modules, so the fuzzers
(``fuzz/``) can import the plain helpers too.
"""

from __future__ import annotations

from .paths import DATA, ROOT, SHARED, data_path

__all__ = ["DATA", "ROOT", "SHARED", "data_path"]
