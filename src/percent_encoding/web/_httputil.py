"""HTTP pieces the web tool's server and its form lab share.

:class:`HTTPError` is an error answer with its status (RFC 9110 §15); :data:`CSP` is the
Content-Security-Policy every response carries (CSP Level 3); :data:`STATIC` and
:func:`_static_files` are the fixed list of files the server may send, by name only,
with their media types (RFC 9110 §8.3), so no request path can reach another file.
"""

from __future__ import annotations

from http import HTTPStatus
from pathlib import Path

STATIC = Path(__file__).resolve().parent / "static"
# Lists in an answer stop at this many items, with the total beside them.
MAX_LISTED = 100
TYPES = {
    ".html": "text/html; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
}
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'self'; base-uri 'none'; "
    "object-src 'none'"
)


class HTTPError(Exception):
    def __init__(self, status: HTTPStatus, message: str) -> None:
        super().__init__(message)
        self.status = status



def json_type(value: object) -> str:
    """The JSON name of a decoded JSON value's type, for error messages."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, list):
        return "an array"
    return "an object"


def static_files() -> dict[str, Path]:
    return {p.name: p for p in STATIC.iterdir() if p.is_file() and p.suffix in TYPES}

