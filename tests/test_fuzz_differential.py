"""The bounded differential fuzz run (fuzz/differential.py): the C twin against the pure
twin on mutated URL inputs (parse with and without a base, the setters, hosts, URL
columns against the per-string API), a fixed count from a fixed seed, 0 differences.

The slow tier runs about 25 s of it; a short run here keeps the harness itself working.
By hand: ``.venv/bin/python fuzz/differential.py --count 200000 --seed 7``.
"""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType

import pytest

from helpers.paths import ROOT
from helpers.twins import C_URL

pytestmark = [pytest.mark.one_impl,  # it switches the twins itself
              pytest.mark.skipif(C_URL is None, reason="the C twin is not built")]


def _fuzzer() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_differential",
                                                  ROOT / "fuzz" / "differential.py")
    assert spec is not None and spec.loader is not None
    m = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = m  # (its dataclass looks the module up)
    spec.loader.exec_module(m)
    return m


AREAS = ("parse", "parse with base", "can_parse", "setter", "host", "idna.to_ascii")


def _check(count: int, seed: int) -> None:
    rep = _fuzzer().run(count, seed)
    assert not rep.differences, "\n".join(rep.differences[:10]) + "\n" + rep.summary()
    for area in AREAS:
        assert rep.checks.get(area, 0) > 0, (area, rep.summary())
    if importlib.util.find_spec("pyarrow") is not None:
        for what in ("parse", "origin", "can_parse"):
            assert rep.checks.get(f"column {what}", 0) > 0, rep.summary()


def test_a_short_run_finds_no_difference() -> None:
    _check(64, seed=39)


@pytest.mark.slow
def test_bounded_run_finds_no_difference() -> None:
    # ~3,000 inputs: ~12,000 comparisons, about 25 s on one core
    _check(3000, seed=0)


def test_the_comparison_sees_a_difference(monkeypatch: pytest.MonkeyPatch) -> None:
    # a twin that gives another href for one input must be reported, not matched away
    m = _fuzzer()
    from percent_encoding import url

    real = url.parse

    def wrong(s: str, base: object = None) -> url.URL:
        u = real(s, base)  # type: ignore[arg-type]
        if m.core.url_parse_kernel is not None and s == "http://example.com/":
            return real("http://example.org/")
        return u

    monkeypatch.setattr(url, "parse", wrong)
    rep = m.Report()
    m.check_parse(rep, m._twins(), "http://example.com/", None)
    assert len(rep.differences) == 1 and "example.org" in rep.differences[0]
