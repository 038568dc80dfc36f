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


def source_tree(dest: Path) -> Path:
    """A private copy of what a build of the package reads (``pyproject.toml``,
    ``setup.py``, ``MANIFEST.in``, ``src/``, the docs' Markdown and the files the sdist
    includes), at ``dest``.  Tests that build an sdist or a wheel build from such a copy:
    builds in the checkout share its ``build/`` and ``*.egg-info`` folders, and two
    xdist workers building at once race on them."""
    import shutil

    skip = shutil.ignore_patterns("__pycache__", "*.so", "*.pyd", "*.egg-info", "api",
                                  "_build", "docs_md")
    dest.mkdir(parents=True, exist_ok=True)
    for name in ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "LICENSE",
                 "CHANGELOG.md"):
        if (ROOT / name).exists():
            shutil.copy2(ROOT / name, dest / name)
    for folder in ("src", "docs"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=skip)
    (dest / "bench").mkdir(exist_ok=True)
    shutil.copy2(ROOT / "bench" / "README.md", dest / "bench" / "README.md")
    return dest
