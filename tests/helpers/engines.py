"""The engine adapters and the engines they need, for tests that skip without them."""

from __future__ import annotations

import pytest

# The engine adapters and the engines their examples need: importing
# percent_encoding.polars or .pandas registers a namespace, so it needs the engine.
ENGINE_MODULES: dict[str, tuple[str, ...]] = {
    "percent_encoding.polars": ("polars", "pyarrow"),
    "percent_encoding.pandas": ("pandas", "pyarrow"),
    "percent_encoding.duckdb": ("duckdb", "pyarrow"),
    "percent_encoding.dask": ("dask.dataframe", "pandas", "pyarrow"),
    "percent_encoding.spark": ("pyspark", "pandas", "pyarrow"),
}
IMPORT_NEEDS_ENGINE = {"percent_encoding.polars", "percent_encoding.pandas"}


def need_engines(module: str, *, to_import: bool = False) -> None:
    """Skip the test when an engine the adapter ``module`` needs is not installed."""
    if to_import and module not in IMPORT_NEEDS_ENGINE:
        return
    for engine in ENGINE_MODULES.get(module, ()):
        pytest.importorskip(engine, reason=f"{module} needs {engine}, which is not installed")
