"""The web tool's per-request bounds and error headers (docs/web.md, "Safety"):
a large input costs bounded work and a bounded response that says what it left out;
every error, the standard library's included, carries the security headers."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from percent_encoding.web import server as web

pytestmark = pytest.mark.one_impl



def raw(web_server: web.Server, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes; the status, headers and body of the answer."""
    with socket.create_connection(("127.0.0.1", web_server.server_address[1]), timeout=60) as c:
        c.sendall(data)
        c.shutdown(socket.SHUT_WR)
        buf = b""
        while chunk := c.recv(1 << 16):
            buf += chunk
    head, _, body = buf.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    headers = {k.lower(): v.strip() for k, _, v in (ln.partition(":") for ln in lines[1:])}
    return int(lines[0].split()[1]), headers, body


def post(
    web_server: web.Server, path: str, data: dict[str, str]
) -> tuple[int, dict[str, str], bytes]:
    body = json.dumps(data).encode()
    host = f"127.0.0.1:{web_server.server_address[1]}"
    return raw(web_server, f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
               f"\r\nContent-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body)


def _secure(headers: dict[str, str]) -> None:
    assert headers.get("content-security-policy", "").startswith("default-src 'self'")
    assert headers.get("x-content-type-options") == "nosniff"


@pytest.mark.parametrize("text", ["%" * 1_000_000, "a%C3%A9" * 140_000])
def test_large_decode_is_bounded(web_server: web.Server, text: str) -> None:
    # 1 MB of "%" used to give a 36 MB response (every scheme's copy of the input).
    status, headers, body = post(web_server, "/api/decode", {"input": text})
    assert status == 200
    assert len(body) < 3 * len(text)
    data = json.loads(body)
    assert data["results"] == [] and "65,536" in data["results_skipped"]
    assert data["primary"]["output"] == (text if text[0] == "%" else "a\u00e9" * 140_000)
    _secure(headers)


def test_small_input_gets_every_scheme(web_server: web.Server) -> None:
    data = json.loads(post(web_server, "/api/decode", {"input": "a%20b"})[2])
    assert len(data["results"]) > 10 and "results_skipped" not in data


def test_primary_output_truncated_says_so(web_server: web.Server, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    monkeypatch.setattr(web, "MAX_OUTPUT", 10)
    data = web.api_convert("\u00e9" * 10, decode=False)
    assert data["primary"]["output"] == "%C3%A9%C3%A9%C3%A9%C"[:10]
    assert "cut at 10 of 60" in data["primary"]["truncated"]


def test_page_stays_responsive_during_a_large_request(web_server: web.Server) -> None:
    done: list[float] = []

    def big() -> None:
        post(web_server, "/api/encode", {"input": "\u00e9" * 300_000})
        done.append(time.monotonic())

    t = threading.Thread(target=big)
    t.start()
    start = time.monotonic()
    host = f"127.0.0.1:{web_server.server_address[1]}"
    status, _, _ = raw(web_server, f"GET /api/schemes HTTP/1.1\r\nHost: {host}\r\n"
                       "Connection: close\r\n\r\n".encode())
    small = time.monotonic() - start
    t.join(60)
    assert status == 200 and small < 5


@pytest.mark.parametrize("request_line", [
    b"PUT / HTTP/1.1", b"DELETE /api/decode HTTP/1.1", b"BREW /pot HTTP/1.1",
    b"OPTIONS * HTTP/1.1", b"GET / HTTP/9.9", b"GARBAGE",
    b"GET /" + b"a" * 70000 + b" HTTP/1.1",
])
def test_every_error_carries_security_headers(web_server: web.Server, request_line: bytes) -> None:
    host = f"127.0.0.1:{web_server.server_address[1]}".encode()
    status, headers, body = raw(web_server, request_line + b"\r\nHost: " + host + b"\r\n\r\n")
    assert status >= 400
    _secure(headers)
    assert b"<script" not in body


def test_app_errors_carry_security_headers(web_server: web.Server) -> None:
    host = f"127.0.0.1:{web_server.server_address[1]}"
    for req in [f"GET /nope HTTP/1.1\r\nHost: {host}\r\n\r\n",
                "GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n",
                f"POST /api/decode HTTP/1.1\r\nHost: {host}\r\nContent-Length: 9999999\r\n\r\n"]:
        status, headers, _ = raw(web_server, req.encode())
        assert status >= 400
        _secure(headers)


def test_internal_error_is_500_with_security_headers(web_server: web.Server,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # A bug in a handler answers 500 (not a dropped connection), with the same headers.
    def boom() -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(web, "api_schemes", boom)
    monkeypatch.setattr(web.Handler, "log_error", lambda *a: None)
    host = f"127.0.0.1:{web_server.server_address[1]}"
    status, headers, body = raw(web_server, f"GET /api/schemes HTTP/1.1\r\nHost: {host}\r\n"
                                     "Connection: close\r\n\r\n".encode())
    assert status == 500
    _secure(headers)
    assert headers.get("x-frame-options") == "SAMEORIGIN"
    assert b"<script" not in body


def test_over_max_body_is_413_before_reading(web_server: web.Server) -> None:
    # The body is never sent: the 413 must come from Content-Length alone.
    host = f"127.0.0.1:{web_server.server_address[1]}"
    status, headers, _ = raw(web_server, f"POST /api/decode HTTP/1.1\r\nHost: {host}\r\n"
                                  "Content-Type: application/json\r\n"
                                  f"Content-Length: {web.MAX_BODY + 1}\r\n\r\n".encode())
    assert status == 413
    _secure(headers)


def test_long_get_query_is_414(web_server: web.Server) -> None:
    host = f"127.0.0.1:{web_server.server_address[1]}"
    q = "a" * (web.MAX_QUERY_INPUT * 4 + 1)
    status, headers, _ = raw(web_server, f"GET /api/decode?input={q} HTTP/1.1\r\nHost: {host}\r\n"
                                  "Connection: close\r\n\r\n".encode())
    assert status == 414
    _secure(headers)
    # The standard library's 65,536-byte request line comes first: under it, answered.
    q = "a" * 60_000
    status, _, _ = raw(web_server, f"GET /api/decode?input={q} HTTP/1.1\r\nHost: {host}\r\n"
                            "Connection: close\r\n\r\n".encode())
    assert status == 200



def _trickle(srv: web.Server, prefix: bytes, data: bytes, every: float,
             budget: float) -> tuple[float, bool]:
    """Send ``prefix`` at once, then ``data`` a byte at a time, ``every`` seconds apart,
    for at most ``budget`` seconds (a bounded client); (seconds from the first trickled
    byte until the server cut the connection off, whether it did)."""
    with socket.create_connection(("127.0.0.1", srv.server_address[1]), timeout=budget) as c:
        c.sendall(prefix)
        start = time.monotonic()
        for b in data:
            if time.monotonic() - start > budget:
                break
            try:
                c.sendall(bytes([b]))
            except OSError:  # reset: cut off
                return time.monotonic() - start, True
            c.settimeout(every)
            try:
                if c.recv(1 << 16) == b"":  # closed by the server
                    return time.monotonic() - start, True
            except TimeoutError:
                pass  # still open; send the next byte
            except OSError:
                return time.monotonic() - start, True
    return time.monotonic() - start, False


@pytest.mark.parametrize("where", ["headers", "body"])
def test_a_trickling_client_is_cut_off_at_the_request_deadline(
    web_server: web.Server, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    # Each byte arrives well inside the per-read timeout, so only a deadline over the
    # whole request stops it (the client: a byte every 5 s against 30 s, scaled
    # here to a byte every 0.4 s against a 2 s deadline).
    monkeypatch.setattr(web_server, "request_deadline", 2.0)
    host = f"127.0.0.1:{web_server.server_address[1]}"
    body = b'{"input": "' + b"a" * 200 + b'"}'
    head = (f"POST /api/encode HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json"
            f"\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    if where == "headers":
        elapsed, cut = _trickle(web_server, b"", head + body, every=0.4, budget=15)
    else:  # the headers at once, then the body trickles
        elapsed, cut = _trickle(web_server, head + body[:5], body[5:], every=0.4, budget=15)
    assert cut, f"still connected after {elapsed:.1f} s"
    assert elapsed < 8, elapsed  # the 2 s deadline, the 2 s lingering close, and slack
    # and a request that arrives in time is still answered
    status, _, _ = post(web_server, "/api/encode", {"input": "a b"})
    assert status == 200
