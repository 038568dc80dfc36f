"""The vendored test data (tests/data): present with its license and provenance, read by
the suite instead of ../shared, and compared with ../shared/conformance by the refresh
tool (tools/refresh_vendored.py)."""

from __future__ import annotations

import importlib.util
import json
import re
import subprocess
from pathlib import Path
from types import ModuleType

import pytest

from helpers import DATA, ROOT

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels]


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "refresh_vendored", ROOT / "tools" / "refresh_vendored.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("folder", ["wpt", "encoding", "uritemplate"])
def test_each_folder_has_license_and_provenance(folder: str) -> None:
    here = DATA / folder
    license_text = (here / "LICENSE").read_text("utf-8")
    assert {"wpt": "BSD", "encoding": "CC BY 4.0", "uritemplate": "Apache License"}[
        folder] in license_text
    readme = (here / "README.md").read_text("utf-8")
    for f in sorted(x for x in here.iterdir() if x.suffix in (".json", ".txt")):
        if f.suffix == ".json":
            json.loads(f.read_text("utf-8"))  # well-formed
        assert f"`{f.name}`" in readme, f"{f.name} is not in {folder}/README.md"
        # The README's blob SHA-1 (first 12 digits) is the file's.
        blob = subprocess.run(["git", "hash-object", str(f)], capture_output=True,
                              text=True, check=True).stdout.strip()
        row = next(line for line in readme.splitlines() if f"`{f.name}`" in line)
        assert re.search(rf"`{blob[:12]}`", row), f"{f.name}: blob {blob[:12]} not in its row"


def test_no_test_reads_shared_conformance() -> None:
    # A clone with nothing beside it runs every test: the data comes from tests/data.
    offenders = [p.name for p in (ROOT / "tests").rglob("*.py")
                 if p.name != "test_vendored.py"
                 and re.search(r"""["']conformance["']|shared_path\(""",
                               p.read_text("utf-8"))]
    assert offenders == []


def test_refresh_lists_and_copies_differences(tmp_path: Path) -> None:
    tool = _tool()
    mine, theirs = tmp_path / "data", tmp_path / "shared"
    for root in (mine, theirs):
        (root / "wpt").mkdir(parents=True)
    (mine / "wpt" / "a.json").write_text("[1]")
    (theirs / "wpt" / "a.json").write_text("[1, 2]")
    (mine / "wpt" / "b.json").write_text("[]")
    (theirs / "wpt" / "b.json").write_text("[]")
    (mine / "wpt" / "c.json").write_text("[]")  # not in shared: not a difference
    assert tool.differing(mine, theirs) == ["wpt/a.json"]
    assert tool.differing(mine, tmp_path / "absent") == []
