"""Robustness of the web tool over HTTP: never a 500 on random API input, never a
desynchronized connection when a route leaves a request body unread."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from helpers.fuzzing import FUZZ, text_any

# ---------------------------------------------------------------------------
# The web tool over HTTP: never a 500, never a desynchronized connection
# ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def web_port(web_server: Any) -> int:
    """The port of the shared ``web_server`` fixture (tests/helpers/web.py)."""
    return int(web_server.server_address[1])


def _http(port: int, method: str, path: str, body: bytes | None = None,
          conn: Any = None) -> tuple[int, str, bytes]:
    import http.client

    c = conn or http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    headers = {"Content-Type": "application/json"} if body is not None else {}
    c.request(method, path, body=body, headers=headers)
    r = c.getresponse()
    data = r.read()
    if conn is None:
        c.close()
    return r.status, r.getheader("Content-Type") or "", data


@pytest.mark.one_impl  # the HTTP layer; test_robustness.py fuzzes the kernels
@pytest.mark.parametrize("path", ["/", "/api/schemes", "/api/compare", "/lab/form", "/nope"])
def test_web_unread_body_does_not_desync(web_port: int, path: str) -> None:
    """A POST body the route does not read must not be parsed as the next request."""
    import http.client

    conn = http.client.HTTPConnection("127.0.0.1", web_port, timeout=30)
    try:
        smuggled = b"GET /api/schemes HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        _http(web_port, "POST", path, smuggled, conn=conn)
        try:
            status, ctype, _ = _http(web_port, "GET", "/static/app.css", conn=conn)
        except (http.client.RemoteDisconnected, ConnectionError):
            return  # the server closed the connection instead: that is fine too
        except http.client.HTTPException as e:
            raise AssertionError(f"POST {path} with an unread body, then GET /static/app.css "
                                 f"on the same connection: unparseable answer {e!r}") from e
        assert status == 200 and ctype.startswith("text/css"), (
            f"POST {path} with an unread body, then GET /static/app.css on the same "
            f"connection answered {status} {ctype}: the body was read as a request"
        )
    finally:
        conn.close()


@pytest.mark.one_impl
@FUZZ
@given(
    path=st.sampled_from(["/api/encode", "/api/decode", "/api/compare", "/lab/form",
                          "/lab/echo/shift_jis/-", "/lab/echo/utf-8/utf-8", "/lab/echo/x/-"]),
    params=st.dictionaries(
        st.sampled_from(["input", "scheme", "encoding", "context", "schemes", "charset",
                         "accept", "method", "value", "auto"]),
        st.one_of(text_any, st.sampled_from(["auto", "sjis", "bogus", "path", "component",
                                             "php-urlencode", "utf-16le", "replacement"])),
        max_size=5,
    ),
    as_json=st.booleans(),
)
def test_web_api_never_500(web_port: int, path: str, params: dict[str, str],
                           as_json: bool) -> None:
    import json
    import urllib.parse

    if as_json and path.startswith("/api/"):
        status, ctype, data = _http(web_port, "POST", path, json.dumps(params).encode())
    else:
        query = urllib.parse.urlencode(
            {k: v.encode("utf-8", "surrogatepass") for k, v in params.items()})
        status, ctype, data = _http(web_port, "GET", f"{path}?{query}")
    assert status < 500, f"{path} {params!r} -> {status}: {data[:300]!r}"
    if path.startswith("/api/") and ctype.startswith("application/json"):
        json.loads(data)


# ---------------------------------------------------------------------------
# Headers from other pages and broken clients: a 4xx (never a 500), and never an
# answer to a request another page made
# ---------------------------------------------------------------------------

_HEADER_VALUES = st.one_of(
    st.sampled_from(["", " ", "null", "cross-site", "same-site", "same-origin", "none",
                     "navigate", "document", "image", "no-cors", "http://evil.example",
                     "http://127.0.0.1:{port}", "http://localhost:{port}", "127.0.0.1:{port}",
                     "localhost:{port}", "application/json", "text/plain", "0", "5", "-1",
                     "5, 6", "99999999999999999999"]),
    st.text(st.characters(min_codepoint=0x20, max_codepoint=0xFF,
                          blacklist_characters="\r\n"), max_size=20),
)


@pytest.mark.one_impl
@FUZZ
@given(
    method=st.sampled_from(["GET", "POST", "HEAD"]),
    path=st.sampled_from(["/", "/url", "/api/encode", "/api/url", "/api/schemes",
                          "/lab/echo/UTF-8/-", "/static/app.css"]),
    headers=st.lists(
        st.tuples(st.sampled_from(["Host", "Origin", "Sec-Fetch-Site", "Sec-Fetch-Mode",
                                   "Sec-Fetch-Dest", "Content-Type", "Content-Length"]),
                  _HEADER_VALUES),
        max_size=6),
)
def test_web_headers_never_500_and_foreign_never_served(
    web_port: int, method: str, path: str, headers: list[tuple[str, str]]
) -> None:
    import socket

    body = b'{"input": "a"}'
    lines = "".join(f"{k}: {v.replace('{port}', str(web_port))}\r\n" for k, v in headers)
    if not any(k == "Content-Length" for k, _ in headers) and method == "POST":
        lines += f"Content-Length: {len(body)}\r\n"
    data = f"{method} {path} HTTP/1.1\r\n{lines}Connection: close\r\n\r\n".encode("latin-1")
    with socket.create_connection(("127.0.0.1", web_port), timeout=30) as c:
        c.sendall(data + (body if method == "POST" else b""))
        c.shutdown(socket.SHUT_WR)
        buf = b""
        while chunk := c.recv(1 << 16):
            buf += chunk
    assert buf.startswith(b"HTTP/1.1 "), buf[:100]
    status = int(buf.split(b" ", 2)[1])
    assert status < 500, buf[:300]
    # Another page's request: an Origin that is neither of the tool's names, or a site
    # other than the tool's (a link to a page aside) is never answered with content.
    own = {f"http://127.0.0.1:{web_port}", f"http://localhost:{web_port}"}
    values = [(k, v.replace("{port}", str(web_port)).strip().lower()) for k, v in headers]
    foreign = any(k == "Origin" and v not in own for k, v in values) or (any(
        k == "Sec-Fetch-Site" and v in ("cross-site", "same-site") for k, v in values
    ) and path not in ("/", "/url"))
    if foreign:
        assert status >= 400, (headers, buf[:300])
