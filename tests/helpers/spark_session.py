"""One local Spark session per test process, shared by the modules that use Spark in
process (``tests/test_spark.py``, ``tests/test_url_columns_engines.py``).

A JVM takes seconds of CPU to start; the suite starts one per process, not one per
module.  ``tests/conftest.py`` keeps these modules on one pytest-xdist worker
(``SPARK_MODULES``), so the session is started once per run.  The modules that need a
Spark of their own (a fresh environment, other settings) start it in a subprocess.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

import pytest

# The driver JVM of a test session skips the optimising JIT and uses the serial GC: the
# jobs are short, and this halves the JVM's CPU time on 2 cores (test_spark_archives.py
# passes the same to spark-submit).
QUICK_JVM = "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC"

# The test modules that use the shared session: one xdist scope (tests/conftest.py).
SPARK_MODULES = frozenset({"test_spark.py", "test_url_columns_engines.py"})


@pytest.fixture(scope="session")
def spark_session() -> Iterator[Any]:
    """A ``local[1]`` session whose Python workers run this interpreter."""
    pytest.importorskip("pyspark", reason="PySpark is not installed")
    from pyspark.sql import SparkSession

    # The executors' Python workers must run this interpreter (the one with the package),
    # not whatever "python3" is first on PATH.
    old = os.environ.get("PYSPARK_PYTHON")
    os.environ["PYSPARK_PYTHON"] = sys.executable
    session = (SparkSession.builder.master("local[1]").appName("percent-encoding-tests")
               .config("spark.ui.enabled", "false")
               .config("spark.driver.extraJavaOptions", QUICK_JVM)
               .config("spark.sql.shuffle.partitions", "1").getOrCreate())
    try:
        yield session
    finally:
        session.stop()
        if old is None:
            os.environ.pop("PYSPARK_PYTHON", None)
        else:
            os.environ["PYSPARK_PYTHON"] = old
