"""Release packaging: one version, an sdist that carries (and builds) the C sources, a wheel
that works once installed into a fresh venv (not the checkout), and a ``./dev serve`` that
installs the runtime alone.

The build test runs offline: ``python -m build --no-isolation`` with the setuptools and
wheel that ``./dev test`` installs, and ``pip install --no-deps --no-index`` of the wheel it
made.  It skips cleanly when those build tools are missing.
"""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
import tarfile
import venv
from pathlib import Path

import pytest

import percent_encoding
from helpers.builds import built_dists
from helpers.paths import source_tree

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]
tomllib = pytest.importorskip("tomllib", reason="tomllib is Python 3.11+")

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))


def test_version_has_one_source() -> None:
    project = PYPROJECT["project"]
    assert "version" not in project and "version" in project["dynamic"]
    attr = PYPROJECT["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "percent_encoding._version.__version__"
    assert re.fullmatch(r"\d+\.\d+\.\d+(?:[ab]\d+|rc\d+)?", percent_encoding.__version__)
    from percent_encoding import _version

    assert percent_encoding.__version__ == _version.__version__


def test_changelog_names_the_current_version() -> None:
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    assert f"## {percent_encoding.__version__}" in text


def test_runtime_has_no_dependencies_and_serve_installs_no_extras() -> None:
    assert PYPROJECT["project"]["dependencies"] == []
    dev = (ROOT / "dev").read_text("utf-8")
    # The web tool runs on the standard library: `./dev serve` must not pull in the test
    # tools (Playwright alone is 165 MB); `./dev test` must.
    assert re.search(r'^\s*serve\) setup ""', dev, re.M)
    assert re.search(r"^\s*setup test$", dev, re.M)
    assert "playwright" in " ".join(PYPROJECT["project"]["optional-dependencies"]["test"])


def test_engine_extras_install_what_the_docs_use() -> None:
    extras = PYPROJECT["project"]["optional-dependencies"]
    names = {k: {re.split(r"[\[<>=!~ ]", d, maxsplit=1)[0] for d in v} for k, v in extras.items()}
    assert {"dask", "distributed"} <= names["dask"]  # docs/columns.md uses LocalCluster
    assert "numpy" in names["duckdb"]  # DuckDB's Arrow UDFs need it and DuckDB lacks it
    spark_pandas = [d for d in extras["spark"] if d.startswith("pandas")]
    assert spark_pandas and "<3" in spark_pandas[0]  # PySpark 3.5-4.x support pandas 2
    assert "pyspark" in names["spark"] and "pyarrow" in names["spark"]
    assert "Java 17" in (ROOT / "docs" / "columns.md").read_text("utf-8")
    assert 'PERCENT_ENCODING_TEST_ALSO="pyspark' in (ROOT / ".ci" / "run").read_text("utf-8")


def test_cibuildwheel_is_configured() -> None:
    cfg = PYPROJECT["tool"]["cibuildwheel"]
    assert "cp311-*" in cfg["build"]
    assert "IMPLEMENTATION" in cfg["test-command"]
    for plat in ("linux", "macos", "windows"):
        assert cfg[plat]["archs"]


def _have_build_tools() -> bool:
    return all(importlib.util.find_spec(m) for m in ("build", "setuptools", "wheel"))


@pytest.mark.slow
def test_built_wheel_installs_and_runs_outside_the_checkout(
        tmp_path: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    if not _have_build_tools():
        pytest.skip("build, setuptools or wheel is not installed (./dev test installs them)")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("PERCENT_ENCODING_NO_EXTENSIONS", None)
    # build makes the sdist, then the wheel from that sdist: the sdist must hold the C
    # sources (one build for the run, shared with the other modules that install a wheel).
    sdist, wheel = built_dists(tmp_path_factory)
    assert f"-{percent_encoding.__version__}" in wheel.name
    with tarfile.open(sdist) as tf:
        names = {n.split("/", 1)[1] for n in tf.getnames() if "/" in n}
    c_sources = sorted(
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "src" / "csrc").iterdir()
        if p.suffix in (".c", ".h")
    )
    assert "src/csrc/module.c" in c_sources
    for need in ("setup.py", "pyproject.toml", "README.md", "LICENSE", *c_sources,
                 "src/percent_encoding/web/static/index.html"):
        assert need in names, f"{need} is missing from the sdist"

    target = tmp_path / "venv"
    venv.create(target, with_pip=False)
    py = target / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    r = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(py), "install", "-q", "--no-deps",
         "--no-index", str(wheel)],
        capture_output=True, text=True, env=env, timeout=300,
    )
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]

    smoke = (
        "import percent_encoding as pe, sys;"
        "print(pe.__file__); print(pe.IMPLEMENTATION); print(pe.__version__);"
        "print(pe.encode('a b/\u00fc'))"
    )
    # Run from tmp_path, with no PYTHONPATH: the checkout's src/ must not be what is found.
    clean = {k: v for k, v in env.items() if k != "PYTHONPATH"}
    r = subprocess.run([str(py), "-c", smoke], capture_output=True, text=True,
                       cwd=tmp_path, env=clean, timeout=60)
    assert r.returncode == 0, r.stderr
    where, impl, version, encoded = r.stdout.splitlines()
    assert Path(where).is_relative_to(target), where
    assert impl == "c"  # the wheel carries the compiled kernels
    assert version == percent_encoding.__version__
    assert encoded == "a%20b%2F%C3%BC"
    script = target / ("Scripts/percent.exe" if os.name == "nt" else "bin/percent")
    r = subprocess.run([str(script), "form", "build", "q=a b", "lang=ja"],
                       capture_output=True, text=True, cwd=tmp_path, env=clean, timeout=60)
    assert (r.returncode, r.stdout) == (0, "q=a+b&lang=ja\n"), r.stderr


@pytest.mark.slow
def test_sdist_without_a_compiler_installs_the_pure_twin(tmp_path: Path) -> None:
    # Where no C compiler exists, installing from the sdist still works: setup.py catches
    # the failed build and the package runs on its pure-Python twin.
    if not _have_build_tools() or os.name == "nt":
        pytest.skip("build, setuptools or wheel is not installed (./dev test installs them)")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "CC": "/bin/false",
           "LDSHARED": "/bin/false"}
    env.pop("PERCENT_ENCODING_NO_EXTENSIONS", None)
    env.pop("PERCENT_ENCODING_REQUIRE_EXTENSION", None)
    dist = tmp_path / "dist"
    r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--sdist", "--outdir",
                        str(dist), str(source_tree(tmp_path / "src"))],
                       capture_output=True, text=True, env=env,
                       timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (sdist,) = dist.glob("*.tar.gz")
    r = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                        "--no-build-isolation", "--no-index", "-w", str(dist), str(sdist)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (wheel,) = dist.glob("*.whl")
    # Loud, never silent: asked to require the extension, the same build fails.
    r2 = subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps",
                         "--no-build-isolation", "--no-index", "-w", str(tmp_path / "no"),
                         str(sdist)], capture_output=True, text=True,
                        env={**env, "PERCENT_ENCODING_REQUIRE_EXTENSION": "1"}, timeout=300)
    assert r2.returncode != 0
    assert "PERCENT_ENCODING_REQUIRE_EXTENSION is set" in r2.stdout + r2.stderr
    target = tmp_path / "venv"
    venv.create(target, with_pip=False)
    py = target / "bin/python"
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q",
                        "--no-deps", "--no-index", str(wheel)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    r = subprocess.run([str(py), "-c", "import percent_encoding as pe; "
                        "print(pe.IMPLEMENTATION, pe.encode('a b/\u00fc'))"],
                       capture_output=True, text=True, cwd=tmp_path, env=env, timeout=60)
    assert (r.returncode, r.stdout) == (0, "python a%20b%2F%C3%BC\n"), r.stderr
    # ... and says so: --version names the twin and the cause, and the first column
    # operation warns once (pyarrow reached through PYTHONPATH: the fresh venv has none).
    r = subprocess.run([str(target / "bin/percent"), "--version"], capture_output=True,
                       text=True, cwd=tmp_path, env=env, timeout=60)
    assert "python kernels (slow): the C extension did not import" in r.stdout, r
    assert "percent_encoding._speedups was not built (" in r.stdout, r
    assert "circular" not in r.stdout, r
    if importlib.util.find_spec("pyarrow") is not None:
        site = str(Path(importlib.util.find_spec("pyarrow").origin or "").parents[1])
        probe = ("import warnings, pyarrow as pa; warnings.simplefilter('always')\n"
                 "from percent_encoding import arrow\n"
                 "with warnings.catch_warnings(record=True) as w:\n"
                 "    arrow.decode(pa.array(['a'])); arrow.decode(pa.array(['b']))\n"
                 "print(len(w), w[0].category.__name__, w[0].message)")
        r = subprocess.run([str(py), "-c", probe], capture_output=True, text=True,
                           cwd=tmp_path, env={**env, "PYTHONPATH": site}, timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout.startswith("1 RuntimeWarning "), r.stdout
        assert "was not built" in r.stdout and "compiler" in r.stdout
