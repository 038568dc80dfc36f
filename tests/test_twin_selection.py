"""Which kernel twin a process runs: the CLI, the web tool and the test suite's own
subprocesses follow ``PERCENT_ENCODING_NO_EXTENSIONS`` (``./dev test`` runs the
``one_impl`` tests a second time with it set, on the pure twin).
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

import percent_encoding
from helpers.twins import C_KERNELS, IMPLS
from percent_encoding import _kernels, core

pytestmark = pytest.mark.one_impl

VAR = "PERCENT_ENCODING_NO_EXTENSIONS"
FORCED = os.environ.get(VAR, "") not in ("", "0")

# What a process reports: the CLI's --version line, and, with the web tool's server
# running in that process, the kernel module core calls and the result of an API request.
_PROBE = """
import json, threading, urllib.request
from percent_encoding import IMPLEMENTATION, core
from percent_encoding.web import server
s = server.make_server("127.0.0.1", 0)
threading.Thread(target=s.serve_forever, daemon=True).start()
req = urllib.request.Request(s.url + "api/encode", data=json.dumps(
    {"input": "a b", "scheme": "component"}).encode(),
    headers={"Content-Type": "application/json"})
with urllib.request.urlopen(req, timeout=30) as r:
    body = r.read().decode()
s.shutdown()
print(IMPLEMENTATION, core._k.__name__, "a%20b" in body)
"""


def _child(env_value: str | None) -> tuple[str, str, str]:
    env = dict(os.environ)
    env.pop(VAR, None)
    if env_value is not None:
        env[VAR] = env_value
    version = subprocess.run(
        [sys.executable, "-m", "percent_encoding", "--version"],
        capture_output=True, text=True, timeout=60, env=env, check=True,
    ).stdout.strip()
    out = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True,
                         timeout=60, env=env)
    assert out.returncode == 0, out.stderr[-2000:]
    impl, module, answered = out.stdout.split()
    assert answered == "True", out.stdout  # the web tool encoded with that twin
    return version, impl, module


def test_this_process_runs_the_twin_the_variable_asks_for() -> None:
    if FORCED:
        assert percent_encoding.IMPLEMENTATION == "python"
        assert _kernels.kernels is percent_encoding._pure
        assert IMPLS == ["python"]  # every test, one_impl ones included, on the pure twin
    else:
        assert IMPLS[-1] == percent_encoding.IMPLEMENTATION  # one_impl tests run on it
    assert (C_KERNELS is None) == (IMPLS == ["python"])
    assert core._k is _kernels.kernels  # a one_impl test runs on the process's own twin


def test_subprocesses_inherit_the_twin() -> None:
    # What the suite's CLI and web subprocesses do: keep the parent's environment.
    version, impl, module = _child(os.environ.get(VAR))
    assert impl == percent_encoding.IMPLEMENTATION
    assert f"({impl} kernels" in version, version
    assert module == ("percent_encoding._pure" if impl == "python"
                      else "percent_encoding._speedups")


def test_the_variable_forces_the_pure_twin_in_cli_and_web() -> None:
    version, impl, module = _child("1")
    assert (impl, module) == ("python", "percent_encoding._pure")
    assert "(python kernels: PERCENT_ENCODING_NO_EXTENSIONS is set)" in version, version


def _c_is_built() -> bool:
    try:
        from percent_encoding import _speedups  # noqa: F401
    except ImportError:
        return False
    return True


def test_without_the_variable_the_built_c_twin_runs() -> None:
    if not _c_is_built():
        pytest.skip("the C twin is not built here")
    for value in (None, "0", ""):
        version, impl, module = _child(value)
        assert (impl, module) == ("c", "percent_encoding._speedups"), value
        assert "(c kernels: " in version, version


def test_the_no_kernels_guard_catches_a_kernel_call() -> None:
    from helpers.twins import NoKernels

    stand_in = NoKernels()
    old = core._use_kernels(stand_in)
    try:
        with pytest.raises(AssertionError, match="reached the kernel"):
            core.encode("a b", "component")
        with pytest.raises(AssertionError):
            core.form_parse_kernel("a=b")
    finally:
        core._use_kernels(old)
    assert stand_in.calls == ["encode", "form_parse"]
    assert core.encode("a b", "component") == "a%20b"


# A process whose C extension fails to import (as after an install without a compiler):
# sys.modules maps the name to None, so `from . import _speedups` raises ImportError.
_BROKEN = """
import sys, warnings
sys.modules["percent_encoding._speedups"] = None
warnings.simplefilter("always")
with warnings.catch_warnings(record=True) as caught:
    import percent_encoding as pe
    from percent_encoding import arrow
    import pyarrow as pa
    for _ in range(3):
        assert arrow.decode_text(pa.array(["a%20b"])).to_pylist() == ["a b"]
    pe.encode("a b")
print(pe.IMPLEMENTATION)
for w in caught:
    print(w.category.__name__, w.message)
"""


def _broken_child(**extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items()
           if k not in (VAR, "PERCENT_ENCODING_REQUIRE_EXTENSION")}
    env.update(extra)
    return subprocess.run([sys.executable, "-c", _BROKEN], capture_output=True, text=True,
                          timeout=60, env=env)


def test_a_missing_c_twin_warns_once_on_the_first_column_operation() -> None:
    pytest.importorskip("pyarrow")
    r = _broken_child()
    assert r.returncode == 0, r.stderr[-2000:]
    impl, *warned = r.stdout.splitlines()
    assert impl == "python"
    assert len(warned) == 1, warned  # once, not per call; the per-string API stays quiet
    w = warned[0]
    assert w.startswith("RuntimeWarning ")
    assert "did not import: sys.modules blocks percent_encoding._speedups" in w  # the cause
    assert "PERCENT_ENCODING_NO_EXTENSIONS=1" in w and "compiler" in w  # the fixes


def test_a_chosen_pure_twin_does_not_warn() -> None:
    pytest.importorskip("pyarrow")
    r = _broken_child(**{VAR: "1"})
    assert (r.returncode, r.stdout) == (0, "python\n"), r.stderr[-2000:]


def test_require_extension_turns_a_missing_c_twin_into_an_import_error() -> None:
    r = _broken_child(PERCENT_ENCODING_REQUIRE_EXTENSION="1")
    assert r.returncode == 1
    assert "ImportError: percent_encoding: PERCENT_ENCODING_REQUIRE_EXTENSION is set" in r.stderr
    version = subprocess.run(
        [sys.executable, "-c", "import sys; sys.modules['percent_encoding._speedups'] = None\n"
         "from percent_encoding.cli import main; main(['--version'])"],
        capture_output=True, text=True, timeout=60,
        env={k: v for k, v in os.environ.items()
             if k not in (VAR, "PERCENT_ENCODING_REQUIRE_EXTENSION")},
    )
    assert "(python kernels (slow): the C extension did not import" in version.stdout, version


def _copy_without_extension(tmp: os.PathLike[str], stand_in: bytes | None) -> str:
    """The package copied to ``tmp`` with no compiled extension (or a broken one)."""
    import shutil
    from pathlib import Path

    src = Path(percent_encoding.__file__).parent
    dest = Path(tmp) / "percent_encoding"
    shutil.copytree(src, dest, ignore=shutil.ignore_patterns(
        "_speedups*.so", "_speedups*.pyd", "__pycache__"))
    if stand_in is not None:
        import sysconfig

        (dest / f"_speedups{sysconfig.get_config_var('EXT_SUFFIX')}").write_bytes(stand_in)
    return str(tmp)


@pytest.mark.parametrize(("stand_in", "says"), [
    (None, "the C extension did not import: percent_encoding._speedups was not built ("),
    (b"not a shared object", "the C extension did not import: "),
])
def test_version_names_the_real_cause_of_the_pure_twin(
        tmp_path: os.PathLike[str], stand_in: bytes | None, says: str) -> None:
    # Without its compiled file, `from . import _speedups` fails with Python's "partially
    # initialized module ... circular import", which is never the cause: --version says
    # the extension was not built (or, present but broken, why it does not load).
    env = {k: v for k, v in os.environ.items()
           if k not in (VAR, "PERCENT_ENCODING_REQUIRE_EXTENSION")}
    env["PYTHONPATH"] = _copy_without_extension(tmp_path, stand_in)
    r = subprocess.run([sys.executable, "-m", "percent_encoding", "--version"],
                       capture_output=True, text=True, timeout=60, env=env, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "python kernels (slow): " in r.stdout and says in r.stdout, r.stdout
    assert "circular" not in r.stdout
    if stand_in is not None:
        assert "_speedups" in r.stdout and "is there but does not load here (" in r.stdout
    if stand_in is None:  # and what this machine has to build it, as far as it can tell
        assert ("no C compiler" in r.stdout or "no Python headers" in r.stdout
                or "a compiler and the Python headers are here now" in r.stdout), r.stdout
