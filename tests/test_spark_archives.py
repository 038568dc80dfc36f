"""The C twin on Spark executors through a packed venv, as docs/columns.md tells a user to.

The steps are the docs' commands: build this checkout's wheel, install it with pyarrow
and pandas into a fresh venv, pack it with venv-pack, and run a job with
``spark-submit --archives pe_env.tar.gz#environment`` and
``PYSPARK_PYTHON=./environment/bin/python``.  The master is
``local-cluster[1,1,1024]`` (a standalone master and worker on this machine, whose
executor JVM unpacks the archive into its working directory as YARN, Kubernetes and
standalone executors do): plain ``local[N]`` runs the Python workers in the driver's
directory, where ``./environment`` does not exist.  A venv is not relocatable on its
own: its ``bin/python`` points at the base interpreter, which these executors find
because they run on the same machine (docs/columns.md says what clusters need).

The job then asks the executors which twin they loaded (``check_executors``), where
their interpreter and package came from (the unpacked archive, not this checkout), and
decodes rows with ``map_in_arrow`` and ``udf``.  Marked slow like tests/test_spark.py;
without PySpark or Java it skips with the reason.  pip needs the index (or its cache)
for pyarrow, pandas and venv-pack, as ``./dev setup`` does.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path
from typing import Any

import pytest

from helpers.builds import built_dists
from helpers.paths import ROOT

# no_kernels: this process never calls the kernels (the executors do, with the archive's
# twin), so ./dev test's pure-twin pass does not repeat the minute this takes.
pytestmark = [pytest.mark.slow, pytest.mark.one_impl, pytest.mark.no_kernels]

pyspark = pytest.importorskip("pyspark", reason="PySpark is not installed (pip install "
                              "'percent-encoding[spark]'; not in the test extra: ~450 MB)")
pytest.importorskip("pyarrow", reason="percent_encoding.spark needs pyarrow")
if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
    pytest.skip("Spark needs Java (no java on PATH, no JAVA_HOME)", allow_module_level=True)

from pyspark.sql import functions as F  # noqa: E402

ROWS = ["caf%C3%A9+au+lait", "100%", "%zz", "%FF", "caf%E9", "?q=a+b%2B", None]
# decode_text(plus_as_space=True) and form_get(name="q") of each row: the URL Standard's
# percent-decode (§1.3: a "%" that starts no escape stays), then the Encoding Standard's
# UTF-8 decode without BOM (bytes that are not UTF-8 become U+FFFD); the URL Standard's
# application/x-www-form-urlencoded parser (§5.1) for "q".
TEXT = ["café au lait", "100%", "%zz", "\ufffd", "caf\ufffd", "?q=a b+", None]
FORM_Q = [None, None, None, None, None, "a b+", None]

# The job spark-submit runs: what a user's job.py would call, printed as one JSON line.
JOB = '''
import json, os, sys
from pyspark.sql import SparkSession
from percent_encoding import spark as pe_spark

spark = SparkSession.builder.appName("percent-encoding-archives").getOrCreate()
found = pe_spark.check_executors(spark, require_c=True)

def where(batches):
    import pyarrow as pa
    import percent_encoding
    for _ in batches:
        pass
    yield pa.RecordBatch.from_pydict({"python": [sys.executable],
                                      "package": [percent_encoding.__file__],
                                      "cwd": [os.getcwd()]})

paths = [r.asDict() for r in spark.range(0, 2, 1, 2).mapInArrow(
    where, "python string, package string, cwd string").collect()]
rows = json.loads(sys.argv[1])
df = spark.createDataFrame(list(enumerate(rows)), "i long, url string")
df = pe_spark.map_in_arrow(df, "url", "decode_text", output="text", plus_as_space=True)
df = df.withColumn("q", pe_spark.udf("form_get", name="q")("url"))
got = sorted((r.asDict() for r in df.collect()), key=lambda r: r["i"])
print("RESULT " + json.dumps({"found": found, "paths": paths, "rows": got}))
spark.stop()
'''


def _run(cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    return r


@pytest.fixture(scope="module")
def packed_env(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The docs' steps: a wheel of this checkout in a fresh venv, packed by venv-pack."""
    tmp = tmp_path_factory.mktemp("archives")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.pop("PERCENT_ENCODING_NO_EXTENSIONS", None)
    # The run's one wheel of this checkout (helpers/builds.py), built with the C twin
    # required: without a compiler it would silently hold only the pure twin.
    wheel = built_dists(tmp_path_factory)[1]
    target = tmp / "pe_env"
    venv.create(target, with_pip=True)  # python -m venv pe_env
    py = str(target / "bin" / "python")
    # pandas only where udf is a pandas UDF (Spark before 4.1 has no arrow_udf)
    pandas = [] if hasattr(F, "arrow_udf") else ["pandas>=2.2,<3"]
    _run([py, "-m", "pip", "install", "-q", "--only-binary", ":all:", str(wheel),
          "pyarrow>=14", *pandas, "venv-pack"], env=env)
    _run([str(target / "bin" / "venv-pack"), "-p", str(target), "-o",
          str(tmp / "pe_env.tar.gz"), "-q"], cwd=tmp, env=env)
    return tmp / "pe_env.tar.gz"


@pytest.fixture(scope="module")
def job(packed_env: Path) -> dict[str, Any]:
    """spark-submit --archives pe_env.tar.gz#environment job.py, on a local standalone cluster."""
    tmp = packed_env.parent
    (tmp / "job.py").write_text(JOB, encoding="utf-8")
    # a user's cluster has neither; the pure-twin switch would reach the executors
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "PERCENT_ENCODING_NO_EXTENSIONS")}
    env["PYSPARK_DRIVER_PYTHON"] = sys.executable  # the driver: this venv (client mode)
    env["PYSPARK_PYTHON"] = "./environment/bin/python"  # the executors: the archive's
    submit = Path(pyspark.__file__).parent / "bin" / "spark-submit"
    # Beside the docs' command, only settings that shorten the run: no web UI, and JVMs
    # that skip the optimising JIT (a short job; this halves their CPU time on 2 cores).
    quick = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"
    r = _run([str(submit), "--master", "local-cluster[1,1,1024]",
              "--conf", "spark.ui.enabled=false",
              "--conf", f"spark.driver.extraJavaOptions={quick}",
              "--conf", f"spark.executor.extraJavaOptions={quick}",
              "--archives", "pe_env.tar.gz#environment", "job.py", json.dumps(ROWS)],
             cwd=tmp, env=env, timeout=600)
    lines = [ln for ln in r.stdout.splitlines() if ln.startswith("RESULT ")]
    assert lines, f"the job printed no result:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}"
    result: dict[str, Any] = json.loads(lines[-1][len("RESULT "):])
    # local-cluster's worker keeps each application's directory (the unpacked archive)
    # under PySpark's install, SPARK_HOME/work; remove this one.
    for app in {Path(p["cwd"]).parent for p in result["paths"]}:
        if app.name.startswith("app-") and app.parent.name == "work":
            shutil.rmtree(app, ignore_errors=True)
            with contextlib.suppress(OSError):
                app.parent.rmdir()
    return result


def test_executors_load_the_c_twin_from_the_packed_env(job: dict[str, Any]) -> None:
    assert job["found"] and set(job["found"].values()) == {"c"}, job["found"]
    for p in job["paths"]:
        # the archive's interpreter and package, unpacked beside the executor
        home = Path(p["cwd"]) / "environment"
        assert Path(p["python"]).parent == home / "bin", p
        assert Path(p["package"]).is_relative_to(home / "lib"), p
        assert not Path(p["package"]).is_relative_to(ROOT / "src"), p  # not this checkout


def test_columns_decode_through_the_packed_env(job: dict[str, Any]) -> None:
    got = job["rows"]
    assert [r["url"] for r in got] == ROWS
    assert [r["text"] for r in got] == TEXT
    assert [r["q"] for r in got] == FORM_Q
