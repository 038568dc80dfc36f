"""Each engine extra works on its own: ``pip install 'percent-encoding[duckdb]'`` into a fresh
venv, and the adapter's first example in docs/columns.md runs there as written.

One wheel of this checkout serves the run (tests/helpers/builds.py); each extra is then
installed alone, with its requirements from the package index (pip's cache keeps what
it downloaded for the next run), into a venv made without pip (the suite's pip
installs into it with ``--python``).  The examples are the docs' own blocks: a doctest
block runs as a doctest, Spark's plain block runs after a local session is started.

Spark's extra pulls PySpark (about 450 MB) and needs Java, so by default the spark case
resolves the extra's requirements (``pip install --dry-run --report``: what a real
install would bring) and imports the adapter with those of them that are light;
``PERCENT_ENCODING_EXTRAS_SPARK=full`` (with ``java`` on PATH) installs the extra and runs
the docs' first Spark example in a local session whose ``python3`` on PATH lacks the
package, as the other extras run theirs.  Packages are installed with ``--no-compile``
(no .pyc files for a venv used once).  Skips cleanly when the package index cannot be
reached.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import socket
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from helpers.builds import built_dists

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
DOCS = (ROOT / "docs" / "columns.md").read_text("utf-8")
SECTIONS = {"polars": "Polars", "pandas": "pandas", "duckdb": "DuckDB", "dask": "Dask",
            "spark": "Spark"}


def first_example(extra: str) -> str:
    """The first ```python block of the extra's section in docs/columns.md (Spark's first
    two: which Python the workers run, then the first use)."""
    heading = f"\n## {SECTIONS[extra]}\n"
    assert heading in DOCS, heading
    section = DOCS.split(heading, 1)[1].split("\n## ", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    assert blocks, f"no python block under {heading.strip()}"
    return "".join(blocks[:2]) if extra == "spark" else blocks[0]


def test_every_extra_has_a_first_example() -> None:
    for extra in SECTIONS:
        block = first_example(extra)
        # each one stands alone: it imports what it uses
        assert "import" in block, extra


# What runs in the fresh venv: a doctest block through doctest; a plain block (Spark's)
# after a local session, then its DataFrame collected and checked row by row.
RUNNER = r"""
import doctest, sys
block = open(sys.argv[1], encoding="utf-8").read()
if ">>> " in block:
    test = doctest.DocTestParser().get_doctest(block, {}, "example", "columns.md", 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    failed, tried = runner.summarize(verbose=False)
    print(f"doctest {tried - failed}/{tried}")
    sys.exit(1 if failed or not tried else 0)
from pyspark.sql import SparkSession
spark = (SparkSession.builder.master("local[1]").appName("extras")
         .config("spark.ui.enabled", "false").getOrCreate())
# The session is up before the block runs, with no PYSPARK_PYTHON and a PATH whose
# python3 lacks the package: the helpers must point the workers at this Python.
scope = {"spark": spark}
exec(compile(block, "columns.md", "exec"), scope)
from percent_encoding import spark as pe_spark
assert set(pe_spark.check_executors(spark).values()) == {"c"}
rows = scope["df"].collect()
import pyarrow as pa
import percent_encoding as pe
from percent_encoding import arrow
urls = [r["url"] for r in rows]
assert [r["q"] for r in rows] == [pe.decode_text(u, plus_as_space=True) for u in urls], rows
assert [bytes(r["raw"]) for r in rows] == [pe.decode(u) for u in urls], rows
assert [r["field"] for r in rows] == arrow.form_get(pa.array(urls), "q").to_pylist(), rows
print("spark", len(rows))
spark.stop()
"""


def _index_reachable() -> bool:
    if os.environ.get("PIP_INDEX_URL") or os.environ.get("PIP_NO_INDEX"):
        return not os.environ.get("PIP_NO_INDEX")
    try:
        socket.create_connection(("pypi.org", 443), timeout=5).close()
    except OSError:
        return False
    return True


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not _index_reachable():
        pytest.skip("the package index cannot be reached")
    return built_dists(tmp_path_factory)[1]  # one build for the run (helpers/builds.py)


def _pip(*args: str, timeout: float = 900) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "PIP_NO_CACHE_DIR"}
    return subprocess.run([sys.executable, "-m", "pip", *args], capture_output=True,
                          text=True, timeout=timeout, env=env)


def _clean_env(tmp_path: Path) -> dict[str, str]:
    # Nothing of this checkout or its venv leaks into the fresh one, which runs unactivated:
    # the python3 on PATH is one that cannot run the package (as a system Python cannot).
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "PERCENT_ENCODING_NO_EXTENSIONS",
            "PYSPARK_PYTHON", "PYSPARK_DRIVER_PYTHON", "PYTHONPYCACHEPREFIX")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # a venv used once (./dev test's cache is its own)
    bindir = tmp_path / "other-bin"
    bindir.mkdir(exist_ok=True)
    fake = bindir / "python3"  # this Python without its site-packages (-S)
    fake.write_text(f'#!/bin/sh\nexec {shlex.quote(os.path.realpath(sys.executable))} -S "$@"\n')
    fake.chmod(0o755)
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    return env


def _spark_light() -> bool:
    # The full Spark case took 3.5 minutes on the 2-core machine under load (installing
    # PySpark, starting a JVM); the resolved requirements and the import take seconds.
    # tests/test_spark.py and tests/test_spark_workers.py run Spark itself where PySpark
    # is installed (CI adds it).
    return (os.environ.get("PERCENT_ENCODING_EXTRAS_SPARK", "") != "full"
            or shutil.which("java") is None)


@pytest.mark.parametrize("extra", ["polars", "pandas", "duckdb", "dask", "spark"])
def test_extra_alone_runs_its_first_docs_example(extra: str, wheel: Path,
                                                 tmp_path: Path) -> None:
    target = tmp_path / "venv"
    venv.create(target, with_pip=False)
    py = target / "bin" / "python"
    requirement = f"{wheel}[{extra}]"
    if extra == "spark" and _spark_light():
        _spark_resolved(requirement, py, tmp_path)
        return
    r = _pip("--python", str(py), "install", "-q", "--no-compile", requirement)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    example = tmp_path / "example.txt"
    example.write_text(first_example(extra), encoding="utf-8")
    runner = tmp_path / "runner.py"
    runner.write_text(RUNNER, encoding="utf-8")
    # Run from tmp_path with the venv's python, not activated (Spark's workers included:
    # percent_encoding.spark points them at this interpreter).
    r = subprocess.run([str(py), str(runner), str(example)], capture_output=True, text=True,
                       timeout=600, cwd=tmp_path, env=_clean_env(tmp_path))
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    assert r.stdout.startswith("spark 4" if extra == "spark" else "doctest "), r.stdout
    if extra != "spark":
        done, tried = r.stdout.split()[1].split("/")
        assert done == tried and int(tried) >= 3, r.stdout


def _spark_resolved(requirement: str, py: Path, tmp_path: Path) -> None:
    """The spark extra without PySpark's 450 MB: what it resolves to, and an import."""
    report = tmp_path / "report.json"
    r = _pip("--python", str(py), "install", "--dry-run", "--quiet", "--ignore-installed",
             "--report", str(report), requirement)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    resolved = {item["metadata"]["name"].lower(): item["metadata"]["version"]
                for item in json.loads(report.read_text("utf-8"))["install"]}
    # everything the adapter and its executors import
    for need in ("pyspark", "pyarrow", "pandas", "numpy", "percent-encoding"):
        assert need in resolved, (need, resolved)
    assert int(resolved["pandas"].split(".")[0]) < 3  # PySpark 3.5-4.x support pandas 2
    # the light part for real: the adapter imports, and its operations are checked, without
    # PySpark (it is imported only when a function runs)
    light = [f"{n}=={v}" for n, v in resolved.items() if n in ("pyarrow", "percent-encoding")]
    light = [x if not x.startswith("percent-encoding") else requirement.split("[")[0]
             for x in light]
    r = _pip("--python", str(py), "install", "-q", "--no-compile", "--no-deps", *light)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    probe = ("from percent_encoding import spark\n"
             "import pyarrow as pa\n"
             "call = spark._operation('decode_text', {'plus_as_space': True})\n"
             "print(call(pa.array(['caf%C3%A9+au+lait'])).to_pylist())\n")
    r = subprocess.run([str(py), "-c", probe], capture_output=True, text=True, timeout=120,
                       cwd=tmp_path, env=_clean_env(tmp_path))
    assert (r.returncode, r.stdout) == (0, "['café au lait']\n"), r.stderr[-3000:]
