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



def _exchange(srv: web.Server, data: bytes) -> bytes:
    """Send raw bytes, half-close, and read everything the server answers."""
    with socket.create_connection(("127.0.0.1", srv.server_address[1]), timeout=60) as c:
        c.sendall(data)
        c.shutdown(socket.SHUT_WR)
        buf = b""
        while chunk := c.recv(1 << 16):
            buf += chunk
    return buf


def raw(web_server: web.Server, data: bytes) -> tuple[int, dict[str, str], bytes]:
    """Send raw bytes; the status, headers and body of the answer."""
    buf = _exchange(web_server, data)
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


# -- bad HTTP gets 400 (RFC 9112), never an HTTP/0.9 answer or a 500 ---------------------


@pytest.mark.parametrize("line", [b"GET /", b"GET /api/schemes", b"POST /api/encode"])
def test_request_line_without_version_is_400_not_http_0_9(web_server: web.Server,
                                                          line: bytes) -> None:
    # An HTTP/0.9 answer would be the bare page: no status line, no headers at all.
    buf = _exchange(web_server, line + b"\r\n\r\n")
    assert buf.startswith(b"HTTP/1.1 400 "), buf[:80]
    head = buf.partition(b"\r\n\r\n")[0].decode("latin-1").lower()
    assert "content-security-policy: default-src 'self'" in head
    assert b"no HTTP version" in buf


def test_a_bad_request_line_after_a_good_request_still_gets_headers(
    web_server: web.Server
) -> None:
    # The second request on a kept-alive connection must not inherit the first's state.
    host = f"127.0.0.1:{web_server.server_address[1]}".encode()
    buf = _exchange(web_server, b"GET /api/schemes HTTP/1.1\r\nHost: " + host + b"\r\n\r\n"
                    b"GET /\r\n\r\n")
    first, _, rest = buf.partition(b"\r\n\r\n")
    assert first.startswith(b"HTTP/1.1 200 ")
    assert b"HTTP/1.1 400 " in rest and b"no HTTP version" in rest


def _post_headers(srv: web.Server, headers: list[str], body: bytes = b'{"input": "a b"}'
                  ) -> tuple[int, dict[str, str], bytes]:
    lines = "".join(h + "\r\n" for h in headers)
    return raw(srv, f"POST /api/encode HTTP/1.1\r\n{lines}Content-Type: application/json"
               "\r\n\r\n".encode() + body)


@pytest.mark.parametrize("lengths", [["16", "17"], ["16, 17"], ["17", "16"], ["+16"],
                                     ["16", ""], ["0x10"], ["١٦"]])
def test_differing_or_malformed_content_lengths_are_400(web_server: web.Server,
                                                        lengths: list[str]) -> None:
    host = f"Host: 127.0.0.1:{web_server.server_address[1]}"
    status, headers, body = _post_headers(
        web_server, [host] + [f"Content-Length: {n}" for n in lengths])
    assert status == 400, body[:200]
    assert headers.get("connection") == "close"  # where the next request starts is unsure
    assert "Content-Length" in json.loads(body)["error"]


def test_repeated_equal_content_lengths_are_one(web_server: web.Server) -> None:
    # RFC 9112 §6.3 lets a recipient take a repeated, identical value as the one length.
    host = f"Host: 127.0.0.1:{web_server.server_address[1]}"
    for lengths in (["16", "16"], ["16, 16"]):
        status, _, body = _post_headers(
            web_server, [host, "Connection: close"] + [f"Content-Length: {n}" for n in lengths])
        assert status == 200 and json.loads(body)["primary"]["output"] == "a%20b"


@pytest.mark.parametrize("hosts", [[], ["127.0.0.1:{port}", "127.0.0.1:{port}"],
                                   ["127.0.0.1:{port}", "evil.example"]])
def test_no_host_or_two_hosts_are_400(web_server: web.Server, hosts: list[str]) -> None:
    port = web_server.server_address[1]
    lines = "".join(f"Host: {h.format(port=port)}\r\n" for h in hosts)
    for version in ("HTTP/1.1", "HTTP/1.0"):
        status, headers, body = raw(web_server,
                                    f"GET /api/schemes {version}\r\n{lines}\r\n".encode())
        assert status == 400, (version, body[:200])
        assert "Host" in json.loads(body)["error"]
        _secure(headers)


@pytest.mark.parametrize("body", [b"[" * 100_000, b'{"a":' * 100_000,
                                  b'{"input": ' + b"[" * 50_000 + b"]" * 50_000 + b"}"])
def test_json_nested_thousands_deep_is_400(web_server: web.Server, body: bytes) -> None:
    host = f"Host: 127.0.0.1:{web_server.server_address[1]}"
    status, _, answer = _post_headers(
        web_server, [host, f"Content-Length: {len(body)}", "Connection: close"], body)
    assert status == 400, answer[:200]
    assert "JSON" in json.loads(answer)["error"] or "nested" in json.loads(answer)["error"]


# -- the listen backlog -----------------------------------------------------------------


def test_listen_backlog_holds_a_burst_of_connections() -> None:
    # While no thread accepts (all busy), the kernel queues up to the backlog's count of
    # connections; one past it waits for a SYN retry (1 s and more). With the standard
    # library's backlog of 5 the 7th connection here would time out.
    assert web.Server.request_queue_size >= 128
    srv = web.make_server("127.0.0.1", 0)
    conns: list[socket.socket] = []
    try:
        for _ in range(150):
            conns.append(socket.create_connection(("127.0.0.1", srv.server_address[1]),
                                                  timeout=5))
        # Every queued connection is then served, once the server accepts.
        t = threading.Thread(target=srv.serve_forever, daemon=True)
        t.start()
        host = f"127.0.0.1:{srv.server_address[1]}"
        for c in conns:
            c.sendall(f"GET /api/schemes HTTP/1.1\r\nHost: {host}\r\nConnection: close"
                      "\r\n\r\n".encode())
        for c in conns:
            assert c.recv(12) == b"HTTP/1.1 200"
    finally:
        for c in conns:
            c.close()
        srv.shutdown()
        srv.server_close()


# -- every answer is bounded ------------------------------------------------------------


def test_url_validation_errors_are_capped_with_their_count() -> None:
    # '%' x 1 MiB gave a 55.5 MB answer and 467 MiB of memory: every error, uncapped.
    rep = web.api_url("http://h/" + "%" * 20_000)
    assert len(rep["validation_errors"]) == web.MAX_LISTED == 100
    assert rep["validation_error_count"] == 20_000
    assert rep["validation_errors"][0] == {"name": "invalid-URL-unit", "position": 9}
    assert len(json.dumps(rep)) < 200_000
    small = web.api_url("http://h/a b%")
    assert small["validation_error_count"] == len(small["validation_errors"]) == 2


def test_url_changed_characters_are_capped_with_their_count() -> None:
    cjk = "".join(chr(0x4E00 + i) for i in range(500))
    rep = web.api_url("http://h/?" + cjk)
    query = next(c for c in rep["components"] if c["component"] == "query")
    assert len(query["encoded"]) == 100 and query["encoded_count"] == 500
    assert query["encoded"][0] == ["\u4e00", "%E4%B8%80"]


def test_url_input_over_the_limit_is_413_in_plain_words(web_server: web.Server) -> None:
    status, headers, body = post(web_server, "/api/url", {"input": "%" * (1 << 19)})
    assert status == 413
    err = json.loads(body)["error"]
    assert "65,536 characters" in err and "524,288" in err and "percent url --json" in err
    _secure(headers)
    status, _, body = post(web_server, "/api/url",
                           {"input": "/a", "base": "http://h/" + "a" * web.MAX_URL_INPUT})
    assert status == 413 and "this base has" in json.loads(body)["error"]


def test_decode_findings_are_capped_with_their_count() -> None:
    d = web.api_convert("a " * 3000, decode=True, context="query")
    det = d["detect"]
    assert len(det["findings"]) == 100 and det["findings_count"] == 3000
    assert {f["code"] for f in det["findings"]} == {"raw-character"}


def test_every_scheme_results_stop_at_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # 64K emoji encoded as Shift_JIS are 15 characters each (&#128512; percent-encoded) in
    # every scheme: a 44 MB answer before the budget.
    monkeypatch.setattr(web, "RESULTS_BUDGET", 50_000)
    d = web.api_convert("\U0001F600" * 1000, decode=False, encoding="Shift_JIS")
    n = len(d["results"])
    assert 1 < n < len(web.schemes.names())
    assert sum(len(r.get("output", "")) for r in d["results"][:-1]) <= 50_000
    assert d["results_skipped"].startswith(f"{len(web.schemes.names()) - n} of ")
    assert "percent encode --all" in d["results_skipped"]
    assert d["primary"]["output"].startswith("%26%23128512%3B")


@pytest.mark.parametrize(("path", "field", "text"), [
    ("/api/decode", "input", "\x01" * 170_000),  # JSON writes each as \u0001
    ("/api/encode", "input", "\x01" * 60_000),
    ("/api/decode", "input", "%01" * 20_000),
    ("/api/url", "input", "http://h/?" + "%" * 60_000),
    ("/api/form-body", "value", "&" * 1_000_000),
    ("/api/encode", "scheme", "\x01" * 170_000),  # an unknown scheme, named twice
])
def test_every_answer_stays_under_max_response(web_server: web.Server, path: str, field: str,
                                               text: str) -> None:
    status, _, body = post(web_server, path, {field: text})
    # Each route's own limits keep it well under the last line (MAX_RESPONSE, 16 MiB).
    assert status == 200 and len(body) <= web.MAX_RESPONSE // 2


def test_an_answer_over_max_response_is_refused_not_sent(web_server: web.Server,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(web, "MAX_RESPONSE", 1000)
    monkeypatch.setattr(web.Handler, "log_error", lambda *a: None)
    status, _, body = post(web_server, "/api/encode", {"input": "a" * 2000})
    assert status == 500 and len(body) < 1000
    assert "over the 1,000-byte limit" in json.loads(body)["error"]


def test_lab_echo_lists_the_first_fields_and_counts_the_rest(web_server: web.Server) -> None:
    body = b"&".join(b"f%d=%%82%%A0" % i for i in range(1000))
    host = f"127.0.0.1:{web_server.server_address[1]}"
    status, _, page = raw(web_server, f"POST /lab/echo/UTF-8/- HTTP/1.1\r\nHost: {host}\r\n"
                          "Content-Type: application/x-www-form-urlencoded\r\n"
                          f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode()
                          + body)
    text = page.decode()
    assert status == 200
    assert text.count("<td><code>f") == 2 * web.MAX_LISTED  # both tables: 100 rows each
    assert "<td><code>f99</code>" in text and "<td><code>f100</code>" not in text
    assert "… and 900 more fields (1,000 in all; the first 100 are shown)" in text
    assert "the first 100 of 1,000 fields" in text


@pytest.mark.parametrize(("extra", "status"), [
    (["Content-Length: 16", "Content-Length: 17"], b"400"),
    (["Content-Length: 16", "Origin: http://evil.example"], b"403"),
    (["Content-Length: 16", "Sec-Fetch-Site: cross-site"], b"403"),
])
def test_a_refused_request_gets_no_100_continue(web_server: web.Server, extra: list[str],
                                                status: bytes) -> None:
    # The client waits for "100 Continue" before sending its body: a request refused
    # anyway gets its final answer first (RFC 9110 §10.1.1), and its body is never sent.
    host = f"Host: 127.0.0.1:{web_server.server_address[1]}"
    lines = "".join(h + "\r\n" for h in [host, "Content-Type: application/json",
                                          "Expect: 100-continue", *extra])
    buf = _exchange(web_server, f"POST /api/encode HTTP/1.1\r\n{lines}\r\n".encode())
    assert buf.startswith(b"HTTP/1.1 " + status + b" "), buf[:100]
    assert b"100 Continue" not in buf


def test_an_accepted_request_gets_100_continue(web_server: web.Server) -> None:
    host = f"127.0.0.1:{web_server.server_address[1]}"
    with socket.create_connection(("127.0.0.1", web_server.server_address[1]), timeout=30) as c:
        c.sendall(f"POST /api/encode HTTP/1.1\r\nHost: {host}\r\nContent-Type: "
                  "application/json\r\nContent-Length: 16\r\nExpect: 100-continue\r\n"
                  "Connection: close\r\n\r\n".encode())
        assert c.recv(25).startswith(b"HTTP/1.1 100 Continue")
        c.sendall(b'{"input": "a b"}')
        buf = b""
        while chunk := c.recv(1 << 16):
            buf += chunk
    assert b"HTTP/1.1 200 " in buf and b'"a%20b"' in buf
