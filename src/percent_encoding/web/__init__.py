"""The web tool behind ``percent serve``: one local page over the scheme registry.

:mod:`.server` is a standard-library HTTP server (``http.server``), so the
library keeps zero runtime dependencies; ``static/`` holds the page, its CSS
and JavaScript (no external resources: the tool works offline).
"""

from __future__ import annotations

from .server import make_server, serve

__all__ = ["make_server", "serve"]
