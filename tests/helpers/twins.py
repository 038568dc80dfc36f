"""The two kernel twins the suite runs against: the pure-Python one and, when it is built
(and ``PERCENT_ENCODING_NO_EXTENSIONS`` is not set), the C extension."""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Iterator
from types import ModuleType
from typing import Any

from percent_encoding import _pure, core


def _c_kernels() -> ModuleType | None:
    if os.environ.get("PERCENT_ENCODING_NO_EXTENSIONS", "") not in ("", "0"):
        return None
    try:
        m = importlib.import_module("percent_encoding._speedups")
    except ImportError:
        return None
    return m


C_KERNELS = _c_kernels()
IMPLS = ["python"] + (["c"] if C_KERNELS is not None else [])
KERNELS: dict[str, ModuleType | None] = {"python": _pure, "c": C_KERNELS}
# The C twin when it has the URL parser (``_speedups.url_parse``), else None: what
# test_url_c.py and test_url_c_full.py call directly.
C_URL: Any = C_KERNELS if C_KERNELS is not None and hasattr(C_KERNELS, "url_parse") else None


@contextlib.contextmanager
def twin(name: str) -> Iterator[None]:
    """Run the block with the twin ``name`` ("python" or "c") active."""
    old = core._use_kernels(KERNELS[name])  # type: ignore[arg-type]
    try:
        yield
    finally:
        core._use_kernels(old)


class NoKernels(ModuleType):
    """Stands in for the kernels in ``no_kernels`` tests: every kernel call is recorded
    and raises."""

    def __init__(self) -> None:
        super().__init__("no_kernels")
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)

        def reached(*args: object, **kwargs: object) -> object:
            self.calls.append(name)
            raise AssertionError(f"a no_kernels test reached the kernel {name}()")

        return reached
