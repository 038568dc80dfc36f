"""The version, in one place: ``pyproject.toml`` reads it from here (``[tool.setuptools.dynamic]``)
and :data:`percent_encoding.__version__` re-exports it."""

__version__ = "0.1.0"
