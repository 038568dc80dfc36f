"""Build the optional C kernels (``percent_encoding._speedups``).

The extension is optional: when there is no compiler, or the build fails, the
package installs with its pure-Python twin and says so (the markupsafe model);
the library then warns on its first column operation.
``PERCENT_ENCODING_NO_EXTENSIONS=1`` skips the build;
``PERCENT_ENCODING_REQUIRE_EXTENSION=1`` makes a failed build fail the install
(``./dev setup``, ``./dev test`` and CI set it).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# One extension module, several translation units by concept (see src/csrc/speedups.h).
# The folder is not named like the extension, so an unbuilt checkout has no empty
# ``percent_encoding._speedups`` namespace package to import by mistake.
SRC_DIR = Path("src/csrc")
SOURCES = sorted(str(p) for p in SRC_DIR.glob("*.c"))


def _flag(name: str) -> bool:
    return os.environ.get(name, "") not in ("", "0")


REQUIRED = _flag("PERCENT_ENCODING_REQUIRE_EXTENSION")


def _failed(e: Exception) -> None:
    if REQUIRED:
        raise SystemExit(
            f"percent-encoding: the C extension failed to build ({e}) and "
            "PERCENT_ENCODING_REQUIRE_EXTENSION is set; install a C compiler and the "
            "Python headers (e.g. gcc and python3-dev) and retry"
        ) from e
    print(f"percent-encoding: C speedups not built ({e}); using pure Python "
          "(set PERCENT_ENCODING_REQUIRE_EXTENSION=1 to make this an error)",
          file=sys.stderr)


class OptionalBuildExt(build_ext):
    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            _failed(e)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:
            _failed(e)


ext_modules = []
if REQUIRED and not SOURCES:
    raise SystemExit(f"percent-encoding: no C sources in {SRC_DIR} and "
                     "PERCENT_ENCODING_REQUIRE_EXTENSION is set")
if SOURCES and not _flag("PERCENT_ENCODING_NO_EXTENSIONS"):
    ext_modules.append(
        Extension(
            "percent_encoding._speedups",
            SOURCES,
            depends=sorted(str(p) for p in SRC_DIR.glob("*.h")),
            extra_compile_args=["-O3", "-std=c99"] if os.name != "nt" else [],
        )
    )

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalBuildExt})
