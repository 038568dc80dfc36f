"""Where the checkout is, and the one place that locates ``../shared`` beside it."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout (the folder holding ``src/``, ``tests/`` and ``docs/``)."""

SHARED = ROOT.parent / "shared"
"""``../shared`` beside the checkout: the conformance data and the seed documents."""


def shared_path(*parts: str) -> Path:
    """A path under ``../shared/conformance``, or skip the test when it is missing."""
    p = SHARED.joinpath("conformance", *parts)
    if not p.exists():
        import pytest

        where = "/".join(parts)
        pytest.skip(f"../shared/conformance/{where} not found (clone with ../shared beside it)")
    return p
