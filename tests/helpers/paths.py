"""Where the checkout is, and where the vendored third-party test data lives."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
"""The checkout (the folder holding ``src/``, ``tests/`` and ``docs/``)."""

DATA = ROOT / "tests" / "data"
"""The vendored test vectors (wpt, the Encoding Standard, uritemplate-test), each folder
with its license and provenance: a clone with nothing beside it tests itself."""

SHARED = ROOT.parent / "shared"
"""``../shared`` beside the checkout, when it is there: the copies of the conformance data
the project keeps current (``tools/refresh_vendored.py``) and the seed documents."""


def data_path(*parts: str) -> Path:
    """A vendored file under ``tests/data`` (it is always there: a missing one is an error
    of the checkout, not a reason to skip)."""
    p = DATA.joinpath(*parts)
    if not p.is_file():
        raise FileNotFoundError(f"tests/data/{'/'.join(parts)} is missing from the checkout")
    return p
