"""Which Python a Spark session's workers run: the helpers of percent_encoding.spark point a
local session's workers at the interpreter running them, unless the user chose one.

PySpark starts its Python workers with ``PYSPARK_PYTHON``, else plain ``python3`` from
PATH: with a venv used without activating it, every task then fails with
``ModuleNotFoundError``.  The logic is checked on a stand-in SparkContext (no PySpark
needed); the real case, a local session whose PATH ``python3`` cannot run a task, runs
where PySpark and Java are installed (slow: a JVM starts).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from percent_encoding import spark as pe_spark

pytestmark = pytest.mark.one_impl


class Conf:
    def __init__(self, values: dict[str, str]) -> None:
        self.values = values

    def get(self, key: str, default: Any = None) -> Any:
        return self.values.get(key, default)


class Context:
    """What _use_this_python reads of a SparkContext."""

    def __init__(self, master: str, conf: dict[str, str] | None = None,
                 exec_: str = "python3") -> None:
        self.master = master
        self.conf = Conf(conf or {})
        self.pythonExec = exec_

    def getConf(self) -> Conf:
        return self.conf


@pytest.mark.parametrize(("master", "conf", "exec_", "env", "expected"), [
    ("local[2]", {}, "python3", None, sys.executable),  # the fix
    ("local", {}, "python3", None, sys.executable),
    ("local-cluster[1,1,1024]", {}, "python3", None, sys.executable),  # same machine
    # PYSPARK_PYTHON set when the session started is in pythonExec; set after, it is taken
    ("local[2]", {}, "/opt/py/bin/python", "/opt/py/bin/python", "/opt/py/bin/python"),
    ("local[2]", {}, "python3", "/opt/py/bin/python", "/opt/py/bin/python"),
    ("local[2]", {}, "python3", "python3", "python3"),  # python3 on purpose
    ("local[2]", {"spark.pyspark.python": "/x/python"}, "python3", None, "python3"),
    ("local[2]", {}, "/their/python", None, "/their/python"),  # already chosen
    ("yarn", {}, "python3", None, "python3"),  # a cluster: the executors' Python is theirs
    ("spark://h:7077", {}, "python3", None, "python3"),
])
def test_a_local_session_runs_this_python_unless_told_otherwise(
        monkeypatch: pytest.MonkeyPatch, master: str, conf: dict[str, str], exec_: str,
        env: str | None, expected: str) -> None:
    if env is None:
        monkeypatch.delenv("PYSPARK_PYTHON", raising=False)
    else:
        monkeypatch.setenv("PYSPARK_PYTHON", env)
    sc = Context(master, conf, exec_)
    pe_spark._use_this_python(sc)
    assert sc.pythonExec == expected


def test_spark_connect_and_no_session_are_left_alone() -> None:
    class Connect:  # Spark Connect: no SparkContext behind the session
        @property
        def sparkContext(self) -> Any:
            raise RuntimeError("not supported in Spark Connect")

    assert pe_spark._context_of(Connect()) is None
    pe_spark._use_this_python(None)  # nothing to point, no error


def bare_python3(bindir: Path) -> Path:
    """A ``python3`` in ``bindir``: this interpreter with no site-packages (``-S``)."""
    fake = bindir / "python3"
    fake.write_text(f'#!/bin/sh\nexec {shlex.quote(os.path.realpath(sys.executable))} -S "$@"\n')
    fake.chmod(0o755)
    probe = subprocess.run([str(fake), "-c", "import percent_encoding"], capture_output=True,
                           timeout=60)
    assert probe.returncode != 0  # it cannot import the package
    return fake


_JOB = """
import os, sys
os.environ.pop("PYSPARK_PYTHON", None)
from pyspark.sql import SparkSession
from percent_encoding import spark as pe_spark
spark = (SparkSession.builder.master("local[1]").appName("workers")
         .config("spark.ui.enabled", "false")
         # (a shorter run: the driver JVM without the optimising JIT, as in conftest's)
         .config("spark.driver.extraJavaOptions",
                 "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC").getOrCreate())
df = spark.createDataFrame([("caf%C3%A9+au+lait",), ("%zz",)], "url string")
df = pe_spark.map_in_arrow(df, "url", "decode_text", output="q", plus_as_space=True)
print([r["q"] for r in df.collect()])
print(sorted(set(pe_spark.check_executors(spark).values())))
spark.stop()
"""


# no_kernels: this process never calls the kernels; the job's driver and workers are
# subprocesses, and the twin they load is not what is checked (./dev test's pure-twin pass
# does not repeat the JVM this starts).
@pytest.mark.slow
@pytest.mark.no_kernels
def test_a_local_session_started_without_pyspark_python_runs_its_tasks(tmp_path: Path) -> None:
    pytest.importorskip("pyspark", reason="PySpark is not installed")
    pytest.importorskip("pyarrow", reason="percent_encoding.spark needs pyarrow")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs Java (no java on PATH, no JAVA_HOME)")
    # The `python3` on PATH is a Python without the package (this interpreter without its
    # site-packages, as a system Python): PySpark's own tasks run there, ours would fail
    # with ModuleNotFoundError but for the fix.
    bindir = tmp_path / "bin"
    bindir.mkdir()
    bare_python3(bindir)
    env = {k: v for k, v in os.environ.items() if k not in ("PYSPARK_PYTHON",
                                                          "PYSPARK_DRIVER_PYTHON")}
    env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
    r = subprocess.run([sys.executable, "-c", _JOB], capture_output=True, text=True,
                       timeout=600, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr[-4000:]
    decoded, twins = r.stdout.splitlines()[-2:]
    assert decoded == "['café au lait', '%zz']"
    assert twins in ("['c']", "['python']")
