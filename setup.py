"""Build the optional C kernels (``percent_encoding._speedups``).

The extension is optional: when there is no compiler, or the build fails, the
package installs with its pure-Python twin and says so (the markupsafe model).
``PERCENT_ENCODING_NO_EXTENSIONS=1`` skips the build.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

# One extension module, several translation units by concept (see speedups.h).
SRC_DIR = Path("src/percent_encoding/_speedups")
SOURCES = sorted(str(p) for p in SRC_DIR.glob("*.c"))


class OptionalBuildExt(build_ext):
    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            print(f"percent-encoding: C speedups not built ({e}); using pure Python",
                  file=sys.stderr)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:
            print(f"percent-encoding: C speedups not built ({e}); using pure Python",
                  file=sys.stderr)


ext_modules = []
if SOURCES and os.environ.get("PERCENT_ENCODING_NO_EXTENSIONS", "") in ("", "0"):
    ext_modules.append(
        Extension(
            "percent_encoding._speedups",
            SOURCES,
            depends=sorted(str(p) for p in SRC_DIR.glob("*.h")),
            extra_compile_args=["-O3", "-std=c99"] if os.name != "nt" else [],
        )
    )

setup(ext_modules=ext_modules, cmdclass={"build_ext": OptionalBuildExt})
