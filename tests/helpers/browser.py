"""Headless Chromium for the browser tests: Debian's ``/usr/bin/chromium`` driven by
Playwright (never ``playwright install``).  One fixture, ``browser`` (registered by
``tests/conftest.py``), skips the test cleanly when Playwright or Chromium is missing
or Chromium does not start; ``shots`` and :func:`shoot` keep screenshots (also in
``$PERCENT_SCREENSHOTS`` when it is set)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or (
    "/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None
)
ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
LAUNCH_TIMEOUT_MS = 30_000


def playwright_api() -> Any:
    """``playwright.sync_api``, or skip when Playwright or Chromium is not installed."""
    api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    if CHROMIUM is None:
        pytest.skip("chromium is not installed", allow_module_level=True)
    return api


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """A headless Chromium for the test module (a new context per page keeps tests apart)."""
    api = playwright_api()
    with api.sync_playwright() as p:
        try:
            b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True,
                                  timeout=LAUNCH_TIMEOUT_MS)
        except api.Error as e:
            pytest.skip(f"chromium did not start: {str(e).splitlines()[0]}")
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def shots(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary folder for the module's screenshots."""
    return tmp_path_factory.mktemp(f"{request.module.__name__.rpartition('.')[2]}-shots")


def shoot(page: Any, shots: Path, name: str, **kw: Any) -> Path:
    """Screenshot ``page`` into ``shots`` (and into ``$PERCENT_SCREENSHOTS`` when set)."""
    path = shots / f"{name}.png"
    page.screenshot(path=str(path), **kw)
    keep = os.environ.get("PERCENT_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(path, Path(keep) / path.name)
    return path
