"""The version, in one place: ``pyproject.toml`` reads it from here (``[tool.setuptools.dynamic]``)
and :data:`percent_encoding.__version__` re-exports it."""

#: The package version (PEP 440), as ``percent --version`` prints it.
__version__ = "0.1.0"
