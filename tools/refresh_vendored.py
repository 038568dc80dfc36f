"""Refresh the vendored test data in tests/data/ from ../shared/conformance/.

The suite reads only tests/data/ (a clone tests itself); ../shared/conformance/, when it
is beside the checkout, holds the copies the project keeps current.  This script copies
each vendored file whose shared copy differs, or with ``--check`` only lists them
(exit 0 either way).  ``tests/conftest.py`` prints the same list at the end of every
test run.  Only the files already vendored are compared: a new upstream file is taken in
by copying it once by hand and adding it to the folder's README.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENDORED = ROOT / "tests" / "data"
SHARED = ROOT.parent / "shared" / "conformance"
FOLDERS = ("wpt", "encoding", "uritemplate")


def differing(vendored: Path = VENDORED, shared: Path = SHARED) -> list[str]:
    """The vendored data files (``folder/name``) whose copy in ``shared`` differs; empty
    when ``shared`` is absent."""
    out: list[str] = []
    if not shared.is_dir():
        return out
    for folder in FOLDERS:
        if not (vendored / folder).is_dir():
            continue
        for mine in sorted(f for f in (vendored / folder).iterdir()
                           if f.suffix in (".json", ".txt")):
            theirs = shared / folder / mine.name
            if theirs.is_file() and theirs.read_bytes() != mine.read_bytes():
                out.append(f"{folder}/{mine.name}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="list the differences, copy nothing")
    args = ap.parse_args(argv)
    if not SHARED.is_dir():
        print(f"{SHARED} not found: nothing to compare", file=sys.stderr)
        return 0
    names = differing()
    for name in names:
        if args.check:
            print(f"differs: tests/data/{name} (../shared/conformance/{name} is newer)")
        else:
            shutil.copyfile(SHARED / name, VENDORED / name)
            (VENDORED / name).chmod(0o644)
            print(f"refreshed tests/data/{name}; update its blob SHA-1 in the folder's README")
    if not names:
        print("the vendored test data equals ../shared/conformance")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
