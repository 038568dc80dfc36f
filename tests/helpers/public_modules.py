"""The package's public modules, found by walking it: every module and package whose
dotted name has no part (after ``percent_encoding``) starting with ``_``.  The tests that
cover every public module (fuzzing, linear time, the option vocabulary, ``__all__``) take
their list from here, so a new module is covered without being listed anywhere."""

from __future__ import annotations

import pkgutil

import percent_encoding


def public_modules() -> list[str]:
    """The public module names, sorted; ``percent_encoding`` itself included."""
    names = ["percent_encoding"]
    for info in pkgutil.walk_packages(percent_encoding.__path__, "percent_encoding."):
        if not any(part.startswith("_") for part in info.name.split(".")[1:]):
            names.append(info.name)
    return sorted(names)
