"""The web tool's server for the tests that talk to it over HTTP: one fixture,
``web_server`` (registered by ``tests/conftest.py``), and :func:`serving` for a test
that runs a server of its own."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from socketserver import BaseServer
from typing import TYPE_CHECKING, TypeVar

import pytest

if TYPE_CHECKING:
    from percent_encoding.web.server import Server

_S = TypeVar("_S", bound=BaseServer)


@contextmanager
def serving(server: _S) -> Iterator[_S]:
    """Serve ``server`` in a daemon thread for the ``with`` block, then shut it down."""
    t = threading.Thread(target=server.serve_forever, daemon=True)
    t.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        t.join(timeout=10)


@pytest.fixture(scope="module")
def web_server() -> Iterator[Server]:
    """The web tool (``percent serve``) on 127.0.0.1 at a free port, one per test module."""
    from percent_encoding.web.server import make_server

    with serving(make_server("127.0.0.1", 0)) as s:
        yield s
