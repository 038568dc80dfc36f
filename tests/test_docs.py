"""The examples in README.md and docs/*.md run and print what they say (doctest for
Python, including the web API's; the `percent` transcripts by running them; the web API's
`curl` lines against a live server), and the module docstrings' examples too."""

from __future__ import annotations

import doctest
import importlib
import os
import pkgutil
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import percent_encoding
from helpers.engines import need_engines

ROOT = Path(__file__).resolve().parents[1]
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_markdown_examples(path: Path) -> None:
    if path.name == "arrow.md":
        pytest.importorskip("pyarrow")  # its examples build pyarrow columns
    if path.name == "columns.md":  # one example per engine (Spark's are not run: a JVM)
        for engine in ("pyarrow", "polars", "pandas", "duckdb", "dask.dataframe"):
            pytest.importorskip(engine, reason=f"docs/columns.md runs {engine}, not installed")
    result = doctest.testfile(str(path), module_relative=False, optionflags=FLAGS,
                              raise_on_error=False, verbose=False)
    assert result.failed == 0, f"{result.failed} example(s) in {path.name} failed"


def _modules() -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(percent_encoding.__path__, "percent_encoding.")
        if not m.name.endswith(("_speedups", "__main__"))
    )


@pytest.mark.parametrize("name", _modules())
def test_docstring_examples(name: str) -> None:
    if name == "percent_encoding.arrow":
        pytest.importorskip("pyarrow")  # its examples build pyarrow columns
    need_engines(name)  # the engine adapters' examples run on their engines
    mod = importlib.import_module(name)
    result = doctest.testmod(mod, optionflags=FLAGS, verbose=False)
    assert result.failed == 0, f"{result.failed} docstring example(s) in {name} failed"


# --- the shell examples ---------------------------------------------------------------------
# ```console blocks are transcripts: `$ percent ARGS` and then what it prints (stdout and
# stderr together).  In ```sh blocks, a comment `# → TEXT` is the exact output; other
# comments are prose.  Commands with pipes or redirections, and `serve`, are not run.

_SKIP = re.compile(r"[|<>]|\bserve\b")


def _console_cases() -> list[tuple[str, str, str]]:
    cases = []
    for path in DOCS:
        for block in re.findall(r"```console\n(.*?)```", path.read_text("utf-8"), re.S):
            cmd: str | None = None
            out: list[str] = []
            for line in [*block.splitlines(), "$ "]:
                if line.startswith("$ "):
                    if cmd is not None and not _SKIP.search(cmd):
                        cases.append((path.name, cmd, "\n".join(out)))
                    cmd, out = line[2:], []
                elif cmd is not None:
                    out.append(line)
        for block in re.findall(r"```sh\n(.*?)```", path.read_text("utf-8"), re.S):
            for line in block.splitlines():
                m = re.match(r"(percent .*?)\s+# → (.*)$", line)
                if m and not _SKIP.search(m.group(1)):
                    cases.append((path.name, m.group(1), m.group(2)))
    return cases


def _sh_commands_without_output() -> list[tuple[str, str]]:
    # `percent ...` lines in ```sh blocks whose comment is prose, not the output: they
    # must still run (exit 0), so a renamed option or scheme cannot hide there.
    cases = []
    for path in DOCS:
        for block in re.findall(r"```sh\n(.*?)```", path.read_text("utf-8"), re.S):
            for line in block.splitlines():
                if line.startswith("percent ") and "# →" not in line:
                    cmd = line.split(" #", 1)[0].strip()
                    if not _SKIP.search(cmd):
                        cases.append((path.name, cmd))
    return cases


def _run_percent(cmd: str, cwd: Path | None = None) -> tuple[int, str]:
    argv = shlex.split(cmd)
    assert argv[0] == "percent"
    r = subprocess.run([sys.executable, "-m", "percent_encoding", *argv[1:]],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                       encoding="utf-8", timeout=60, cwd=cwd,
                       env={**os.environ, "NO_COLOR": "1", "COLUMNS": "100"})
    return r.returncode, r.stdout.rstrip("\n")


@pytest.mark.one_impl
@pytest.mark.parametrize(("doc", "cmd", "expected"), _console_cases(),
                         ids=lambda x: x if len(x) < 60 else x[:57] + "...")
def test_shell_examples_print_what_the_docs_say(doc: str, cmd: str, expected: str) -> None:
    _code, got = _run_percent(cmd)
    if "..." in expected or "…" in expected:
        pattern = ".*?".join(re.escape(p) for p in re.split(r"\.\.\.|…", expected))
        assert re.fullmatch(pattern, got, re.S), f"{doc}: {cmd}\n--- got:\n{got}"
    else:
        assert got == expected, f"{doc}: {cmd}\n--- got:\n{got}\n--- docs say:\n{expected}"


@pytest.mark.one_impl
def test_relative_links_resolve() -> None:
    # A link from one doc to another file of the checkout must point at a file that exists.
    broken = []
    for path in DOCS:
        prose = re.sub(r"```.*?```|`[^`\n]*`", "", path.read_text("utf-8"), flags=re.S)
        for target in re.findall(r"\]\(([^)\s]+)\)", prose):
            if re.match(r"[a-z][a-z0-9+.-]*:", target) or target.startswith("#"):
                continue  # an absolute URL or a link inside the page
            if not (path.parent / target.split("#", 1)[0]).exists():
                broken.append(f"{path.name}: {target}")
    assert not broken, broken


@pytest.mark.one_impl
def test_docs_cite_specs_not_the_projects_source_notes() -> None:
    # Users read specs (URL Standard, HTML, RFCs), not the notes this project grew from:
    # no "seed 001 [27]" or "the seeds say" in README, CHANGELOG or docs/ (a path to the
    # benchmark's optional corpus is fine).
    found = []
    for path in [*DOCS, ROOT / "CHANGELOG.md"]:
        text = path.read_text("utf-8").replace("shared/seeds", "")
        found += [f"{path.name}: {m.group()}" for m in re.finditer(r"\bseeds?\b.{0,20}", text)]
    assert not found, found


# ```sh lines `curl ... | jq PATH  # OUTPUT` in docs/web.md call the web tool's JSON API.
# They run here against a server on a free port: curl's -s/-d and a jq path of plain
# field names are replayed with urllib (no curl or jq needed).


def _curl_cases() -> list[tuple[str, str, str]]:
    cases = []
    for path in DOCS:
        for block in re.findall(r"```sh\n(.*?)```", path.read_text("utf-8"), re.S):
            for line in block.splitlines():
                m = re.match(r"(curl .*?)\s+#\s+(.*)$", line)
                if m:
                    cases.append((path.name, m.group(1), m.group(2)))
    return cases


def _replay_curl(cmd: str, base: str) -> object:
    import json
    import urllib.request

    curl, _, jq = cmd.partition("|")
    argv = shlex.split(curl)
    assert argv[0] == "curl"
    data: bytes | None = None
    url = None
    args = iter(argv[1:])
    for a in args:
        if a == "-s":
            continue
        if a == "-d":
            data = next(args).encode()
        elif a.startswith("http://127.0.0.1:8000/"):
            url = base + a[len("http://127.0.0.1:8000/"):]
        else:
            raise AssertionError(f"curl option {a!r} is not replayed by this test")
    assert url is not None
    # curl -d sends application/x-www-form-urlencoded; the API reads the body as JSON.
    req = urllib.request.Request(url, data=data)
    with urllib.request.urlopen(req, timeout=30) as r:
        result: object = json.load(r)
    jq_argv = shlex.split(jq)
    assert jq_argv[0] == "jq" and len(jq_argv) == 2, jq
    for key in filter(None, jq_argv[1].split(".")):
        assert isinstance(result, dict), (jq, result)
        result = result[key]
    return result


@pytest.mark.one_impl
def test_curl_examples_print_what_the_docs_say() -> None:
    import json
    import threading

    from percent_encoding.web.server import make_server

    cases = _curl_cases()
    assert any(doc == "web.md" for doc, _c, _e in cases)  # the collector still finds them
    srv = make_server("127.0.0.1", 0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        for doc, cmd, expected in cases:
            got = json.dumps(_replay_curl(cmd, srv.url), ensure_ascii=False)
            assert got == expected, f"{doc}: {cmd}\n--- got: {got}\n--- docs say: {expected}"
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.one_impl
@pytest.mark.parametrize(("doc", "cmd"), _sh_commands_without_output(),
                         ids=lambda x: x if len(x) < 60 else x[:57] + "...")
def test_shell_examples_without_output_run(doc: str, cmd: str, tmp_path: Path) -> None:
    cwd = None
    if re.search(r"\s(-c|--column)\s", cmd):
        cwd = _column_files(tmp_path)  # the files the column examples name
    code, got = _run_percent(cmd, cwd)
    out = re.search(r"\s-o (\S+)", cmd)
    if cwd is not None and out:  # writes a file, prints nothing
        assert code == 0 and (cwd / out.group(1)).stat().st_size > 0, f"{doc}: {cmd}\n{got}"
    else:
        assert code == 0 and got, f"{doc}: {cmd}\n--- got:\n{got}"


def _column_files(d: Path) -> Path:
    pa = pytest.importorskip("pyarrow")
    import gzip

    import pyarrow.parquet as pq

    rows = ["/a%20b?q=caf%C3%A9", "%FF%zz", None, "q=a+b"]
    pq.write_table(pa.table({"url": rows}), d / "access.parquet")
    pq.write_table(pa.table({"q": rows}), d / "big.parquet")
    (d / "logs.csv").write_text("path,query\n/a%20b,q=a+b\n/%E9,x=%zz\n", "utf-8")
    with gzip.open(d / "old.csv.gz", "wt", encoding="ascii") as f:
        f.write("url\ncaf%E9\n/a%20b\n")
    return d


def test_shell_examples_are_found() -> None:
    # The collector must keep finding the transcripts (a format change would skip them all).
    docs = {d for d, _c, _e in _console_cases()}
    assert {"README.md", "cli.md"} <= docs
