"""Shared test fixtures.

* Every test runs once per kernel twin (``python`` and, when it is built,
  ``c``) through the autouse ``impl`` fixture, unless it is marked
  ``one_impl`` (tests that never reach the kernels).
* A test marked ``no_kernels`` (also ``one_impl``) claims it never reaches the
  kernels: it runs with a stand-in kernel module that records any call, and fails
  if one was made.  ``./dev test``'s second, pure-twin pass of the ``one_impl``
  tests leaves these out (they would repeat exactly), the ``twins_inside`` tests
  (they run each twin themselves), the ``page_only`` browser tests of the
  page's accessibility and layout, and the ``engine_workers`` Spark tests (their columns
  are computed in Spark's Python workers; the pure twin's column functions are checked
  in-process by the Arrow tests).
* The helpers the test modules import live in ``tests/helpers/`` (``from helpers
  import data_path``; ``from helpers.twins import IMPLS``); the shared fixtures
  ``web_server``, ``browser`` and ``shots`` come from there and are registered here.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

from helpers.browser import browser, shots  # noqa: F401  (fixtures for every module)
from helpers.spark_session import SPARK_MODULES, spark_session  # noqa: F401  (a fixture)
from helpers.twins import IMPLS, KERNELS, NoKernels
from helpers.web import web_server  # noqa: F401  (a fixture for every module)
from percent_encoding import core

# The twins run the same hypothesis tests through one class instance each.  No test may
# fail because the machine is slow or busy: Hypothesis's speed checks (the too_slow health
# check and the per-example deadline) are off everywhere; timing lives in bench/ and in
# tests/test_linear.py's work ratios.
settings.register_profile(
    "twins", deadline=None,
    suppress_health_check=[HealthCheck.differing_executors, HealthCheck.too_slow])
settings.load_profile("twins")
# Fewer examples where a tier repeats or shortens the suite (pytest
# --hypothesis-profile=quick): `./dev test --quick` and tools/pythons.sh, which runs the
# twin tests on every CPython.  The full count runs in ./dev test.
settings.register_profile("quick", parent=settings.get_profile("twins"), max_examples=30)


# The modules that take longest, longest first (measured on 2 workers).  `./dev test` runs
# xdist with `--dist loadscope --no-loadscope-reorder`, which hands whole modules to
# whichever worker is free, in collection order: long modules first keeps one of them
# from starting last while the other worker idles (the browser modules sort last by name).
_LONGEST_FIRST = (
    "test_spark_archives.py", "test_spark.py", "test_extras.py",
    "test_web_a11y.py", "test_robustness.py", "test_linear.py", "test_robustness_linear.py",
    "test_long_hosts.py", "test_spark_workers.py", "test_url_columns_engines.py",
    "test_web_e2e.py",
    "test_arrow.py", "test_leaks.py", "test_rfc3986.py", "test_packaging.py",
    "test_url_c.py", "test_cli_stream.py", "test_legacy_oracles.py", "test_speedups.py",
    "test_ecmascript_node.py", "test_url.py", "test_form_chromium.py", "test_encodings.py",
    "test_duckdb.py", "test_form.py", "test_dask.py", "test_form_node.py", "test_detect.py",
)


@pytest.hookimpl(optionalhook=True)  # (xdist may be off: ./dev docs runs pytest -p no:xdist)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """``--dist loadscope`` with the in-process Spark modules as one scope, so they run on
    one worker and share its one Spark session (tests/helpers/spark_session.py)."""
    if config.getoption("dist", None) != "loadscope":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class _Scheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            scope: str = super()._split_scope(nodeid)
            return "spark" if scope.rsplit("/", 1)[-1] in SPARK_MODULES else scope

    return _Scheduling(config, log)


# `./dev test --quick` (pytest --quick): the everyday tier, under two minutes.  It leaves
# out the modules that drive browsers, engines (Dask, Spark, DuckDB), outside oracles
# (Node, PHP, Ruby, Go, Chromium) or measure time and memory, packaging builds, and the
# tests marked slow.  The full `./dev test` runs them all.
NOT_QUICK = frozenset({
    "test_web_a11y.py", "test_web_e2e.py", "test_form_chromium.py",  # browsers
    "test_dask.py", "test_spark.py", "test_duckdb.py",  # engines
    "test_ecmascript_node.py", "test_form_node.py", "test_legacy_oracles.py",  # oracles
    "test_linear.py", "test_leaks.py", "test_robustness.py",  # timing and memory
    "test_robustness_linear.py",
    "test_cli_stream.py", "test_web_limits.py", "test_packaging.py", "test_pythons.py",
    "test_docs_site.py", "test_installed_docs.py",
    "test_extras.py",  # a fresh venv per engine extra, from the package index
})


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--quick", action="store_true",
                     help="the quick tier: no browsers, engines, oracles or timing tests")


def _cap_examples(items: list[pytest.Item]) -> None:
    """Under the quick profile, no hypothesis test runs more examples than the profile's
    count: a test's own ``@settings(max_examples=...)`` would otherwise win over the
    profile (the full count still runs in ./dev test)."""
    cap = settings.get_profile("quick").max_examples
    for item in items:
        fn = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
        own = getattr(fn, "_hypothesis_internal_use_settings", None)
        if own is not None and own.max_examples > cap:
            fn._hypothesis_internal_use_settings = settings(
                own, max_examples=cap)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if settings.get_current_profile_name() == "quick":
        _cap_examples(items)
    if config.getoption("--quick"):
        keep = [i for i in items
                if i.path.name not in NOT_QUICK and i.get_closest_marker("slow") is None]
        kept = {id(i) for i in keep}
        config.hook.pytest_deselected(items=[i for i in items if id(i) not in kept])
        items[:] = keep
    rank = {name: i for i, name in enumerate(_LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: else as found


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection built (each xdist worker collects the whole suite: about
    280,000 objects of parameter lists and conformance data that live to the end).  A full
    ``gc.collect()`` then scans only what the tests make: the leak tests call it before
    every measure, and it took 0.2 s each time over the frozen objects.  (The linear-time
    helper collects nothing: it pauses the collector inside each timed call.)"""
    gc.collect()
    gc.freeze()


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "impl" in metafunc.fixturenames:
        impls = IMPLS
        if metafunc.definition.get_closest_marker("one_impl") is not None:
            impls = IMPLS[-1:]
        metafunc.parametrize("impl", impls, indirect=True, scope="module")


@pytest.fixture(autouse=True, scope="module")
def impl(request: pytest.FixtureRequest) -> Iterator[str]:
    """The kernel twin this test runs against ("python" or "c")."""
    name: str = getattr(request, "param", IMPLS[-1])
    old = core._use_kernels(KERNELS[name])  # type: ignore[arg-type]
    try:
        yield name
    finally:
        core._use_kernels(old)


@pytest.fixture
def kernels(impl: str) -> ModuleType:
    """The active kernel module itself."""
    m = KERNELS[impl]
    assert m is not None
    return m


@pytest.fixture(autouse=True)
def _no_kernels_guard(request: pytest.FixtureRequest, impl: str) -> Iterator[None]:
    if request.node.get_closest_marker("no_kernels") is None:
        yield
        return
    stand_in = NoKernels()
    old = core._use_kernels(stand_in)
    try:
        yield
    finally:
        core._use_kernels(old)
    assert not stand_in.calls, f"marked no_kernels, but called the kernels {stand_in.calls}"


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Say, without failing, which vendored test-data files differ from the copies kept
    current in ``../shared/conformance`` (``tools/refresh_vendored.py`` takes them in)."""
    if hasattr(terminalreporter.config, "workerinput"):
        return  # an xdist worker: the controller reports once
    import importlib.util

    from helpers.paths import ROOT

    spec = importlib.util.spec_from_file_location(
        "refresh_vendored", ROOT / "tools" / "refresh_vendored.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    names: list[str] = tool.differing()
    if names:
        terminalreporter.write_sep("-", "vendored test data differs from ../shared/conformance")
        for name in names:
            terminalreporter.write_line(f"tests/data/{name}: run tools/refresh_vendored.py")
