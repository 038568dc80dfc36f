"""One build of this checkout's sdist and wheel (with the C twin) for the whole test run.

Three slow modules install the package as a user would (tests/test_packaging.py,
tests/test_extras.py, tests/test_spark_archives.py).  Each used to build its own wheel,
a C build of every unit; they now share one: ``python -m build`` makes the sdist, then the
wheel from that sdist (so the sdist must carry the C sources), once per run.  Under
pytest-xdist the workers share the run's base temporary folder; a file lock lets the first
worker build while the others wait, then they take its result.
"""

from __future__ import annotations

import fcntl
import os
import subprocess
import sys
from pathlib import Path

import pytest

from helpers.paths import source_tree


def _run_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for this run alone, shared by its xdist workers."""
    base = tmp_path_factory.getbasetemp()
    # under xdist each worker's base is <run>/popen-gwN; without it, the base is the run's
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def built_dists(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(sdist, wheel) of this checkout, the wheel built from the sdist with the C twin
    required (a build without a compiler fails here instead of giving a pure wheel)."""
    folder = _run_folder(tmp_path_factory) / "built-dists"
    folder.mkdir(exist_ok=True)
    dist = folder / "dist"
    with open(folder / "lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not (folder / "done").exists():
            env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1",
                   "PERCENT_ENCODING_REQUIRE_EXTENSION": "1"}
            env.pop("PERCENT_ENCODING_NO_EXTENSIONS", None)
            env.pop("PYTHONPATH", None)
            r = subprocess.run(
                [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(dist),
                 str(source_tree(folder / "src"))],
                capture_output=True, text=True, env=env, timeout=600)
            assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
            (folder / "done").write_text("")
    (sdist,) = dist.glob("*.tar.gz")
    (wheel,) = dist.glob("*.whl")
    return sdist, wheel
