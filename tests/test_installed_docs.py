"""An installed copy of the web tool has no dead docs link (issue 41 §3): a wheel built from
the sdist, installed into a fresh venv outside the checkout, serves every page its docs
links reach, offline, rendered from the Markdown the wheel carries (web/_docs.py), and
every link on those pages that stays on the tool leads to a page too.

Offline: ``python -m build --no-isolation`` with the setuptools and wheel ``./dev test``
installs, and ``pip install --no-deps --no-index``; it skips cleanly without them.  The C
twin is not built (the docs do not depend on it), which keeps the build short.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.parse
import urllib.request
import venv
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.paths import source_tree

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The venv's python, with the package installed from a wheel built from the sdist."""
    if not all(importlib.util.find_spec(m) for m in ("build", "setuptools", "wheel")):
        pytest.skip("build, setuptools or wheel is not installed (./dev test installs them)")
    tmp = tmp_path_factory.mktemp("installed")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "PERCENT_ENCODING_NO_EXTENSIONS": "1"}
    env.pop("PERCENT_ENCODING_REQUIRE_EXTENSION", None)
    r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir",
                        str(tmp / "dist"), str(source_tree(tmp / "src"))],
                       capture_output=True, text=True, env=env, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    (wheel,) = (tmp / "dist").glob("*.whl")
    target = tmp / "venv"
    venv.create(target, with_pip=False)
    py = target / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    r = subprocess.run([sys.executable, "-m", "pip", "--python", str(py), "install", "-q",
                        "--no-deps", "--no-index", str(wheel)],
                       capture_output=True, text=True, env=env, timeout=300)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return py


def _outside_env() -> dict[str, str]:
    """The environment of a user of the installed copy: none of the suite's settings
    (``./dev test`` exports PERCENT_ENCODING_REQUIRE_EXTENSION; the wheel here is the pure
    twin, built without a compiler step, so it is chosen on purpose)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PERCENT_ENCODING_", "PYTHON"))}
    env["PERCENT_ENCODING_NO_EXTENSIONS"] = "1"
    return env


@pytest.fixture(scope="module")
def tool(installed: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The installed tool's URL: ``percent serve`` from the venv, run outside the checkout."""
    cwd = tmp_path_factory.mktemp("elsewhere")
    env = _outside_env()
    proc = subprocess.Popen([str(installed), "-m", "percent_encoding", "serve", "--port", "0"],
                            cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        m = re.search(r"(http://\S+/)", line)
        assert m, (line, proc.stderr.read() if proc.poll() is not None and proc.stderr else "")
        yield m.group(1)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            return r.status, r.read().decode("utf-8")
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode("utf-8", "replace")


def test_the_installed_package_is_not_the_checkout(installed: Path, tmp_path: Path) -> None:
    r = subprocess.run([str(installed), "-c", "import percent_encoding.web._docs as d; "
                        "print(d.__file__); print(d.markdown_root())"],
                       cwd=tmp_path, capture_output=True, text=True, timeout=60,
                       env=_outside_env())
    assert r.returncode == 0, r.stderr
    module, root = r.stdout.split()
    assert str(ROOT) not in module and str(installed.parents[1]) in module
    # The Markdown the wheel carries, not the checkout's.
    assert root.endswith(os.path.join("web", "docs_md")), root


def test_every_docs_link_the_tool_shows_answers_200(tool: str) -> None:
    # The links the pages show: each scheme's row and the primary result (the page fills
    # them from these API answers), in both modes, and the static pages' own links.
    links: set[str] = set()
    for mode in ("encode", "decode"):
        status, body = _get(f"{tool}api/{mode}?input=a+b")
        assert status == 200
        data = json.loads(body)
        links |= {r["docs"] for r in data["results"] if r.get("docs")}
        links.add(data["primary"]["docs"])
    for page in ("", "url"):
        status, body = _get(tool + page)
        assert status == 200
        links |= set(re.findall(r'href="(/docs/[^"]*)"', body))
    assert len(links) >= 10 and all(link.startswith("/docs/") for link in links), links
    # Then every page those reach, and every /docs/ page those link to, in turn.
    seen: dict[str, int] = {}
    todo = [*sorted(links), "/docs/", "/docs/api/index.html"]
    broken: list[str] = []
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        status, body = _get(urllib.parse.urljoin(tool, path))
        seen[path] = status
        if status != 200:
            broken.append(f"{path}: {status} {body[:200]}")
            continue
        for href in re.findall(r'href="([^"#]+)', body):
            target = urllib.parse.urljoin(path, href)
            if target.startswith("/docs/") and target not in seen:
                todo.append(target)
    assert not broken, broken
    assert len(seen) > 60, len(seen)  # the chapters, the guides and the API reference


def test_the_rendered_pages_hold_what_the_chapters_say(tool: str) -> None:
    status, body = _get(tool + "docs/forms.html")
    assert status == 200
    assert "<h1" in body and "application/x-www-form-urlencoded" in body
    assert "<pre" in body and "&gt;&gt;&gt; " in body  # a code example, escaped
    status, body = _get(tool + "docs/api/percent_encoding.mailto.html")
    assert status == 200 and 'id="percent_encoding.mailto.parse"' in body
    status, body = _get(tool + "docs/changelog.html")
    assert status == 200 and "Changelog" in body
    for bad in ("docs/../pyproject.toml", "docs/%2e%2e/setup.py", "docs/api/os.html",
                "docs/nothing.html", "docs/guides/../../CHANGELOG.md"):
        assert _get(tool + bad)[0] == 404, bad
