"""``./dev``: its setup is skipped when nothing it depends on changed (a second
``./dev serve`` starts at once), redone when the C sources change, and it says what it is
doing while it works.  Run on a copy of the script with a stand-in ``.venv/bin/python``
that records its calls, so no real install happens."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from pathlib import Path

import pytest

from helpers import ROOT

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]


@pytest.fixture
def checkout(tmp_path: Path) -> Path:
    shutil.copy(ROOT / "dev", tmp_path / "dev")
    (tmp_path / "pyproject.toml").write_text("[project]\n")
    (tmp_path / "setup.py").write_text("")
    (tmp_path / "src" / "csrc").mkdir(parents=True)
    (tmp_path / "src" / "csrc" / "a.c").write_text("int a;\n")
    (tmp_path / "src" / "percent_encoding").mkdir()
    (tmp_path / "src" / "percent_encoding" / "_version.py").write_text('__version__ = "0"\n')
    fake = tmp_path / ".venv" / "bin" / "python"
    fake.parent.mkdir(parents=True)
    fake.write_text('#!/bin/sh\necho "$*" >> "$(dirname "$0")/../calls"\n')
    fake.chmod(fake.stat().st_mode | stat.S_IXUSR)
    return tmp_path


def _setup(where: Path, *args: str) -> tuple[list[str], str]:
    calls = where / ".venv" / "calls"
    calls.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PERCENT_ENCODING_")}
    r = subprocess.run(["sh", str(where / "dev"), *args], capture_output=True, text=True,
                       env=env, check=True, timeout=60)
    made = calls.read_text().splitlines() if calls.exists() else []
    return made, r.stderr


def test_second_setup_installs_nothing(checkout: Path) -> None:
    made, said = _setup(checkout, "setup")
    assert any("pip install" in c for c in made)
    assert "installing percent-encoding" in said and "ready" in said
    made, said = _setup(checkout, "setup")
    assert made == [] and said == ""


def test_a_c_source_change_reinstalls(checkout: Path) -> None:
    _setup(checkout, "setup")
    (checkout / "src" / "csrc" / "a.c").write_text("int b;\n")
    made, _ = _setup(checkout, "setup")
    assert any("pip install" in c for c in made)


def test_serve_takes_the_test_install(checkout: Path) -> None:
    # `./dev serve` needs the runtime only, which a current test install holds: it goes
    # straight to starting the tool (the stand-in python has no `percent`, so only the
    # recorded calls are checked, through setup alone).
    _setup(checkout, "setup")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PERCENT_ENCODING_")}
    (checkout / ".venv" / "calls").unlink(missing_ok=True)
    script = (checkout / "dev").read_text()
    # Run the script's setup function with the runtime extras, as serve does.
    probe = script.replace('cmd=${1:-help}', 'setup ""; exit 0\ncmd=${1:-help}')
    (checkout / "dev_probe").write_text(probe)
    subprocess.run(["sh", str(checkout / "dev_probe")], check=True, env=env, timeout=60)
    assert not (checkout / ".venv" / "calls").exists()


def test_hypothesis_speed_checks_are_off() -> None:
    # A busy machine fails no test: no deadline, no too_slow health check (tests/conftest.py).
    from hypothesis import HealthCheck, settings

    assert settings.default.deadline is None
    assert HealthCheck.too_slow in settings.default.suppress_health_check
