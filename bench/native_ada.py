"""The native anchor: ada's own C++ URL parser, built here, timed with no Python.

A bench-only tool, never a dependency of the package.  It takes
``ada_url/ada.cpp`` and ``ada_url/ada.h`` (ada's single-file amalgamation) from
the ada-url sdist on PyPI
(``pip download --no-binary :all: --no-deps ada-url``, kept in
``bench/.cache/``, which git ignores), compiles them with ``bench/native_ada.cpp``
by ``g++ -O3`` (``$CXX`` if set) and runs the executable on a file of URLs, one a
line.  It reports, best of N passes, nanoseconds per row of
``ada::parse<ada::url_aggregator>`` + ``get_hostname`` and of the same parse +
the ten getters a URL column holds.  With no C++ compiler, or no sdist to be had,
``build`` returns None and says why.

    .venv/bin/python bench/native_ada.py FILE [--passes 15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
CACHE = HERE / ".cache"
SOURCE = HERE / "native_ada.cpp"


def _sdist(cache: Path) -> Path | None:
    found = sorted(cache.glob("ada_url-*.tar.gz"))
    if found:
        return found[-1]
    cmd = [sys.executable, "-m", "pip", "download", "--no-binary", ":all:", "--no-deps",
           "--quiet", "-d", str(cache), "ada-url"]
    if subprocess.run(cmd, capture_output=True, check=False).returncode != 0:
        return None
    found = sorted(cache.glob("ada_url-*.tar.gz"))
    return found[-1] if found else None


def _amalgamation(sdist: Path, cache: Path) -> Path | None:
    """The directory holding the sdist's amalgamation, ada_url/ada.cpp and
    ada_url/ada.h (extracted once)."""
    out = cache / sdist.name.removesuffix(".tar.gz")
    if (out / "ada.cpp").exists() and (out / "ada.h").exists():
        return out
    out.mkdir(parents=True, exist_ok=True)
    with tarfile.open(sdist) as tar:
        for m in tar.getmembers():
            name = Path(m.name).name
            if name in ("ada.cpp", "ada.h") and m.isfile():
                src = tar.extractfile(m)
                if src is not None:
                    (out / name).write_bytes(src.read())
    return out if (out / "ada.cpp").exists() and (out / "ada.h").exists() else None


def build(cache: Path = CACHE) -> Path | None:
    """The native executable, built when missing or older than its source; None (with a
    message on stderr) when there is no C++ compiler or no ada-url sdist."""
    cxx = os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")
    if not cxx:
        print("native ada: skipped, no C++ compiler (g++ or $CXX)", file=sys.stderr)
        return None
    cache.mkdir(parents=True, exist_ok=True)
    sdist = _sdist(cache)
    amal = _amalgamation(sdist, cache) if sdist else None
    if amal is None:
        print("native ada: skipped, no ada-url sdist (pip download ada-url failed)",
              file=sys.stderr)
        return None
    exe = amal / "native_ada"
    if exe.exists() and exe.stat().st_mtime >= SOURCE.stat().st_mtime:
        return exe
    cmd = [cxx, "-O3", "-std=c++20", "-DNDEBUG", "-I", str(amal), str(SOURCE),
           str(amal / "ada.cpp"), "-o", str(exe)]
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(f"native ada: skipped, the build failed:\n{done.stderr[-2000:]}", file=sys.stderr)
        return None
    return exe


def run(exe: Path, urls: Path, passes: int = 15) -> dict[str, float]:
    """ns per row, best of ``passes``: {"rows", "host", "ten"}."""
    out = subprocess.run([str(exe), str(urls), str(passes)], capture_output=True, text=True,
                         check=True).stdout
    return {k: float(v) for k, v in (line.split() for line in out.splitlines())}


def version(exe: Path) -> str:
    """The ada-url version the executable was built from (its sdist's name)."""
    return exe.parent.name.removeprefix("ada_url-")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("file", type=Path)
    ap.add_argument("--passes", type=int, default=15)
    a = ap.parse_args(argv)
    exe = build()
    if exe is None:
        return 0
    r = run(exe, a.file, a.passes)
    print(f"ada {version(exe)} C++ (g++ -O3), {int(r['rows']):,} rows, best of {a.passes}: "
          f"parse + hostname {r['host']:.1f} ns, parse + ten getters {r['ten']:.1f} ns")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
