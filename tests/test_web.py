"""The web tool's server (docs/web.md), over real HTTP to a server on 127.0.0.1:0 in a thread:
routes, the JSON API, limits, headers, escaping, and the form lab pages."""

from __future__ import annotations

import http.client
import json
from typing import Any
from urllib.parse import quote, urlencode

import pytest

from percent_encoding import schemes
from percent_encoding.web import server as web

pytestmark = pytest.mark.one_impl

PAYLOAD = '"><script>alert(1)</script><img src=x onerror=alert(2)>'



class Resp:
    def __init__(self, status: int, headers: dict[str, str], body: bytes) -> None:
        self.status, self.headers, self.body = status, headers, body

    def json(self) -> Any:
        return json.loads(self.body)

    @property
    def text(self) -> str:
        return self.body.decode("utf-8")


def req(web_server: web.Server, method: str, path: str, body: bytes | None = None,
        headers: dict[str, str] | None = None) -> Resp:
    conn = http.client.HTTPConnection("127.0.0.1", web_server.server_address[1], timeout=30)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return Resp(r.status, {k.lower(): v for k, v in r.getheaders()}, r.read())
    finally:
        conn.close()


def post_json(web_server: web.Server, path: str, data: dict[str, Any]) -> Resp:
    return req(web_server, "POST", path, json.dumps(data).encode(),
               {"Content-Type": "application/json"})


# -- pages and headers ------------------------------------------------------------------


def test_index_is_static_and_safe(web_server: web.Server) -> None:
    r = req(web_server, "GET", "/?input=" + quote(PAYLOAD) + "&scheme=" + quote(PAYLOAD))
    assert r.status == 200
    assert r.headers["content-type"] == "text/html; charset=utf-8"
    csp = r.headers["content-security-policy"]
    assert "default-src 'self'" in csp and "script-src 'self'" in csp
    assert "'unsafe-inline'" not in csp
    assert r.headers["x-content-type-options"] == "nosniff"
    assert r.headers["x-frame-options"] == "SAMEORIGIN"
    # The page never echoes the query: the payload is nowhere in it.
    assert b"alert" not in r.body and b"onerror" not in r.body
    # No inline scripts or styles (the CSP would block them anyway), no external resources.
    text = r.text
    assert "<script>" not in text and "style=" not in text
    assert "http://" not in text.replace("http://www.w3.org", "")
    assert "https://" not in text


@pytest.mark.parametrize(("name", "ctype"), [
    ("app.css", "text/css"), ("app.js", "text/javascript"), ("lab.js", "text/javascript"),
    ("url.js", "text/javascript"), ("url.html", "text/html"), ("favicon.svg", "image/svg+xml"),
])
def test_static_files(web_server: web.Server, name: str, ctype: str) -> None:
    r = req(web_server, "GET", f"/static/{name}")
    assert r.status == 200 and r.headers["content-type"].startswith(ctype)
    assert b"https://" not in r.body and b"http://" not in r.body.replace(b"http://www.w3.org", b"")


def test_static_js_never_uses_innerhtml(web_server: web.Server) -> None:
    for name in ("app.js", "lab.js", "url.js"):
        body = req(web_server, "GET", f"/static/{name}").text
        assert "innerHTML" not in body and "outerHTML" not in body
        assert "insertAdjacentHTML" not in body and "document.write" not in body
        assert "eval(" not in body


@pytest.mark.parametrize("path", ["/static/../server.py", "/static/%2e%2e/server.py",
                                  "/static/nope.css", "/nope", "/api/nope"])
def test_not_found(web_server: web.Server, path: str) -> None:
    r = req(web_server, "GET", path)
    assert r.status == 404
    assert b"import" not in r.body  # no source leaks


def test_head_has_no_body(web_server: web.Server) -> None:
    r = req(web_server, "HEAD", "/")
    assert r.status == 200 and r.body == b"" and int(r.headers["content-length"]) > 1000


def test_method_not_allowed(web_server: web.Server) -> None:
    r = req(web_server, "POST", "/api/schemes", b"{}", {"Content-Type": "application/json"})
    assert r.status == 405 and r.json()["status"] == 405


def test_host_header_checked(web_server: web.Server) -> None:
    # DNS rebinding: a page on evil.example resolving to 127.0.0.1 must not get answers.
    port = web_server.server_address[1]
    for host in ("evil.example", f"evil.example:{port}", "127.0.0.1", "localhost",
                 f"127.0.0.1:{port + 1}", f"[::1]:{port}", f"127.0.0.1.evil.example:{port}"):
        r = req(web_server, "GET", "/api/schemes", headers={"Host": host})
        assert r.status == 403, host
        assert "Host" in r.json()["error"]
    for host in (f"localhost:{port}", f"127.0.0.1:{port}", f"LocalHost:{port}"):
        assert req(web_server, "GET", "/api/schemes", headers={"Host": host}).status == 200


def _declare(
    web_server: web.Server, path: str, length: int, first: bytes
) -> http.client.HTTPResponse:
    # Declare a body, send only its start: the server must answer from the headers alone
    # (sending a whole big body would race with the server closing the connection).
    conn = http.client.HTTPConnection("127.0.0.1", web_server.server_address[1], timeout=30)
    conn.putrequest("POST", path)
    conn.putheader("Content-Type", "application/json")
    conn.putheader("Content-Length", str(length))
    conn.endheaders(first)
    return conn.getresponse()


def test_body_limit(web_server: web.Server) -> None:
    r = _declare(web_server, "/api/encode", web.MAX_BODY + 1, b'{"input": "aaaa')
    # In plain words: the size, the limit, and the command that has none.
    assert r.status == 413 and json.loads(r.read())["error"] == (
        "too large for the web tool: this request is 1,048,577 bytes and the tool takes "
        "up to 1,048,576 bytes (1 MiB). The percent command takes any size: "
        "percent encode < input.txt")
    r = _declare(web_server, "/lab/echo/UTF-8/-", 50 * web.MAX_BODY, b"text=")
    assert r.status == 413 and b"percent form parse &lt; body.txt" in r.read()
    # Just under the limit is fine.
    body = b"t=" + b"a" * (web.MAX_BODY - 2)
    r2 = req(web_server, "POST", "/lab/echo/UTF-8/-", body,
             {"Content-Type": "application/x-www-form-urlencoded"})
    assert r2.status == 200 and len(r2.body) > web.MAX_BODY


def test_length_required_and_bad_json(web_server: web.Server) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", web_server.server_address[1], timeout=30)
    conn.putrequest("POST", "/api/encode")
    conn.putheader("Content-Type", "application/json")
    conn.endheaders()
    assert conn.getresponse().status == 411
    conn.close()
    r = req(web_server, "POST", "/api/encode", b"[1, 2", {"Content-Type": "application/json"})
    assert r.status == 400 and "JSON" in r.json()["error"]
    r = req(web_server, "POST", "/api/encode", b"[1, 2]", {"Content-Type": "application/json"})
    assert r.status == 400


# -- the JSON API ---------------------------------------------------------------------------


def test_api_schemes(web_server: web.Server) -> None:
    data = req(web_server, "GET", "/api/schemes").json()
    assert [s["name"] for s in data["schemes"]] == schemes.names()
    assert {"name", "spec", "family", "notes"} <= set(data["schemes"][0])
    assert "component" in [s["name"] for s in data["sets"]]
    assert "Shift_JIS" in data["encodings"] and "Shift_JIS" in data["page_encodings"]
    assert "UTF-16LE" not in data["page_encodings"]
    assert data["contexts"] == ["query", "form", "path", "fragment", "component"]
    assert data["enctypes"] == ["application/x-www-form-urlencoded", "text/plain",
                                "multipart/form-data"]
    assert "detect" not in data and "available" not in data


def test_api_encode_get_and_post(web_server: web.Server) -> None:
    q = urlencode({"input": "a b&ü/", "scheme": "path"})
    got = req(web_server, "GET", f"/api/encode?{q}").json()
    posted = post_json(web_server, "/api/encode", {"input": "a b&ü/", "scheme": "path"}).json()
    assert got == posted
    assert got["primary"] == {"name": "path", "family": "encode set",
                              "spec": got["primary"]["spec"], "output": "a%20b&%C3%BC/",
                              "docs": "/docs/core.html"}  # an encode set: the core chapter
    by_name = {r["name"]: r for r in got["results"]}
    assert set(by_name) == set(schemes.names())  # every registered scheme at once
    assert by_name["whatwg-component"]["output"] == "a%20b%26%C3%BC%2F"
    assert by_name["application/x-www-form-urlencoded"]["output"] == "a+b%26%C3%BC%2F"


def test_api_encode_legacy_and_errors(web_server: web.Server) -> None:
    body = {"input": "ア", "encoding": "sjis", "scheme": "query"}
    d = post_json(web_server, "/api/encode", body).json()
    assert d["encoding"] == "Shift_JIS" and d["primary"]["output"] == "%83A"
    rows = {r["name"]: r for r in d["results"]}
    assert rows["whatwg-query"]["output"] == "%83A"
    assert all("output" in r or "na" in r or "error" in r for r in d["results"])
    r = post_json(web_server, "/api/encode", {"input": "x", "encoding": "klingon"})
    assert r.status == 400 and "klingon" in r.json()["error"]
    d = post_json(web_server, "/api/encode", {"input": "x", "scheme": PAYLOAD}).json()
    assert "unknown scheme" in d["primary"]["error"]
    d = post_json(web_server, "/api/encode", {"input": "a\ud800b"}).json()  # lone surrogate
    assert any("error" in r for r in d["results"])


def test_api_decode_with_detect(web_server: web.Server) -> None:
    body = {"input": "caf%C3%A9+x%2", "scheme": "component"}
    d = post_json(web_server, "/api/decode", body).json()
    assert d["primary"]["output"] == "café+x%2"
    rows = {r["name"]: r for r in d["results"]}
    assert rows["application/x-www-form-urlencoded"]["output"] == "café x%2"
    assert d["bytes"] == "63 61 66 c3 a9 2b 78 25 32"
    det = d["detect"]
    assert "available" not in det and det["errors"] == {}
    assert "trailing-percent" in {f["code"] for f in det["findings"]}
    assert det["charset"][0]["encoding"] == "UTF-8"
    assert d["context"] == "query"


@pytest.mark.parametrize(
    ("context", "plus_is_space", "codes"),
    [
        ("query", False, ["ambiguous-plus", "raw-character"]),  # '+' could be either; ' '
        # '+' is a space in a form body and '&' is syntax; neither field has its '=';
        # ' ' and (by the HTML 4.01 form grammar, not a uchar) '?' are raw
        ("form", True, ["missing-equals", "missing-equals", "raw-character", "raw-character"]),
        ("path", False, ["raw-character", "raw-character"]),  # '&' is fine, '?' ends a path
        ("fragment", False, ["raw-character"]),  # '?' and '&' may stay raw in a fragment
        ("component", False, ["raw-character"] * 4),  # one value: every delimiter encoded
    ],
)
def test_api_decode_context(web_server: web.Server, context: str, plus_is_space: bool,
                            codes: list[str]) -> None:
    # The page's context selector: detect.diagnose and space_convention answer for it.
    text = "a+b&c ?"
    d = post_json(web_server, "/api/decode", {"input": text, "context": context}).json()
    assert d["context"] == context
    assert d["detect"]["space_convention"]["plus_is_space"] is plus_is_space
    assert [f["code"] for f in d["detect"]["findings"]] == codes
    # The decoded results do not depend on the context.
    assert d["results"] == post_json(web_server, "/api/decode", {"input": text}).json()["results"]


def test_api_decode_unknown_context(web_server: web.Server) -> None:
    r = post_json(web_server, "/api/decode", {"input": "a", "context": "nowhere"})
    assert r.status == 400 and "unknown encode set 'nowhere'" in r.json()["error"]
    # An empty one is the default, as a missing one is.
    assert req(web_server, "GET", "/api/decode?input=a&context=").json()["context"] == "query"


def test_api_decode_lone_surrogate_is_reported_not_500(web_server: web.Server) -> None:
    d = post_json(web_server, "/api/decode", {"input": "%41\ud800"}).json()
    assert "lone surrogate" in d["bytes"]
    assert d["detect"]["charset"] is None and "lone surrogate" in d["detect"]["errors"]["charset"]


def test_api_decode_auto_reads_iso_2022_jp(web_server: web.Server) -> None:
    # 7-bit ISO-2022-JP (Encoding Standard §13.2): all its bytes are ASCII, yet it is not.
    jis = "%1B%24BF%7CK%5C8l%24N%25F%25-%259%25H%1B%28B"
    d = post_json(web_server, "/api/decode", {"input": jis, "encoding": "auto"}).json()
    assert d["primary"]["output"] == "日本語のテキスト"
    assert d["detect"]["charset"][0]["encoding"] == "ISO-2022-JP"
    plain = post_json(web_server, "/api/decode", {"input": "%1B[31m", "encoding": "auto"}).json()
    assert plain["primary"]["output"] == "\x1b[31m" and plain["detect"]["charset"] == []


def test_api_decode_skips_analysis_of_huge_input(web_server: web.Server) -> None:
    d = post_json(web_server, "/api/decode", {"input": "a" * (web.MAX_ANALYSIS + 1)}).json()
    assert set(d["detect"]) == {"skipped"} and "skipped" in d["detect"]["skipped"]
    assert d["bytes"] is None


def test_api_decode_legacy(web_server: web.Server) -> None:
    d = post_json(web_server, "/api/decode", {"input": "%83A", "encoding": "shift_jis",
                                        "scheme": "component"}).json()
    assert d["primary"]["output"] == "ア"


def test_api_compare(web_server: web.Server) -> None:
    d = req(web_server, "GET", "/api/compare").json()
    assert [s["name"] for s in d["schemes"]] == schemes.names()
    assert len(d["rows"]) == 128
    path = "/api/compare?schemes=whatwg-path,application/x-www-form-urlencoded"
    d = req(web_server, "GET", path).json()
    assert d["rows"][0x20]["output"] == ["%20", "+"]
    assert d["rows"][ord("a")]["encoded"] == [False, False]
    assert req(web_server, "GET", "/api/compare?schemes=nope").status == 400


# -- the form lab ------------------------------------------------------------------------


def test_lab_form_page_in_shift_jis(web_server: web.Server) -> None:
    q = urlencode({"charset": "sjis", "accept": "", "method": "post", "value": "ア€"})
    r = req(web_server, "GET", f"/lab/form?{q}")
    assert r.status == 200
    assert r.headers["content-type"] == "text/html; charset=Shift_JIS"
    assert b'<meta charset="Shift_JIS">' in r.body
    assert b'value="\x83A&#8364;"' in r.body  # ア in Shift_JIS, € as a reference
    assert b'action="/lab/echo/Shift_JIS/-"' in r.body and b"accept-charset" not in r.body
    assert b'name="_charset_"' in r.body


def test_lab_form_escapes_value(web_server: web.Server) -> None:
    q = urlencode({"charset": "UTF-8", "accept": "windows-1252", "value": PAYLOAD,
                   "method": "get"})
    r = req(web_server, "GET", f"/lab/form?{q}")
    assert b"<script>alert" not in r.body and b"<img" not in r.body
    assert b"&quot;&gt;&lt;script&gt;alert(1)" in r.body
    assert b'accept-charset="windows-1252"' in r.body and b'method="get"' in r.body


@pytest.mark.parametrize("q", ["charset=klingon", "charset=UTF-16LE", "charset=replacement"])
def test_lab_form_rejects_bad_charsets(web_server: web.Server, q: str) -> None:
    assert req(web_server, "GET", f"/lab/form?{q}").status == 400


def test_lab_echo_decodes_what_was_sent(web_server: web.Server) -> None:
    body = b"_charset_=Shift_JIS&text=%83A+%22%3E%3Cscript%3Ealert%281%29%3C%2Fscript%3E"
    r = req(web_server, "POST", "/lab/echo/Shift_JIS/-", body,
            {"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status == 200
    t = r.text
    assert "_charset_=Shift_JIS&amp;text=%83A+" in t  # the raw bytes, escaped as HTML
    assert "<td class='val'>ア &quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>" in t
    assert "<script>" not in t
    assert "83 41 20 22 3e" in t  # the value's bytes
    # accept-charset wins over the page encoding (HTML form submission encoding).
    r = req(web_server, "POST", "/lab/echo/UTF-8/windows-1252", b"text=%E9",
            {"Content-Type": "application/x-www-form-urlencoded"})
    assert "Decoded as windows-1252" in r.text and "<td class='val'>é</td>" in r.text


def test_lab_echo_shows_per_field_detection(web_server: web.Server) -> None:
    # Shift_JIS "\u3042" in one field, EUC-JP in the other: each read with its own guess,
    # and the page says the fields disagree.
    r = req(web_server, "POST", "/lab/echo/UTF-8/-", b"a=%82%A0&b=%A4%A2",
            {"Content-Type": "application/x-www-form-urlencoded"})
    t = r.text
    assert 'id="lab-detected"' in t and "fields disagree" in t
    assert "<td class='val'>\u3042</td><td>Shift_JIS</td>" in t
    assert "<td class='val'>\u3042</td><td>EUC-JP</td>" in t
    r = req(web_server, "POST", "/lab/echo/UTF-8/-", b"t=1\r\n", {"Content-Type": "text/plain"})
    assert 'id="lab-detected"' not in r.text  # text/plain is not urlencoded


def test_api_form_body_prediction(web_server: web.Server) -> None:
    d = post_json(web_server, "/api/form-body", {"value": "ア €", "encoding": "Shift_JIS"}).json()
    assert d == {"encoding": "Shift_JIS", "enctype": "application/x-www-form-urlencoded",
                 "body": "_charset_=Shift_JIS&text=%83A+%26%238364%3B"}
    assert req(web_server, "GET", "/api/form-body?value=x&encoding=klingon").status == 400


def test_lab_echo_get_reads_the_query(web_server: web.Server) -> None:
    r = req(web_server, "GET", "/lab/echo/EUC-JP/-?_charset_=EUC-JP&text=%A5%A2")
    assert r.status == 200 and "<td class='val'>ア</td>" in r.text
    assert req(web_server, "GET", "/lab/echo/EUC-JP").status == 404


def test_make_server_url_and_loopback_default() -> None:
    s = web.make_server(port=0)
    try:
        assert s.server_address[0] == "127.0.0.1"
        assert s.url == f"http://127.0.0.1:{s.server_address[1]}/"
    finally:
        s.server_close()


# -- the form lab: HTML's text/plain enctype ---------------------------------------------


def test_lab_form_text_plain(web_server: web.Server) -> None:
    q = urlencode({"charset": "Shift_JIS", "method": "post", "value": "ア",
                   "enctype": "text/plain"})
    r = req(web_server, "GET", f"/lab/form?{q}")
    assert r.status == 200 and b'enctype="text/plain"' in r.body
    # The default stays urlencoded; an enctype HTML does not know is refused.
    r = req(web_server, "GET", "/lab/form?charset=UTF-8")
    assert b'enctype="application/x-www-form-urlencoded"' in r.body
    for bad in ("multipart/mixed", PAYLOAD):
        r = req(web_server, "GET", "/lab/form?" + urlencode({"enctype": bad}))
        assert r.status == 400 and b"<script>" not in r.body


def test_lab_echo_text_plain(web_server: web.Server) -> None:
    # HTML's text/plain encoding: name=value CRLF lines in the form's encoding, no escaping.
    body = "_charset_=Shift_JIS\r\ntext=ア a+b=c%41\r\n".encode("shift_jis")
    r = req(web_server, "POST", "/lab/echo/Shift_JIS/-", body, {"Content-Type": "text/plain"})
    assert r.status == 200
    t = r.text
    # The raw bytes, with CR LF and non-ASCII bytes visible.
    assert "_charset_=Shift_JIS\\r\\ntext=\\x83A a+b=c%41\\r\\n</pre>" in t
    assert "(text/plain lines)" in t
    # No percent-decoding and no "+" as space: the value is the text as typed.
    assert "<td class='val'>ア a+b=c%41</td>" in t
    assert "<td><code>83 41 20 61 2b 62 3d 63 25 34 31</code></td>" in t
    # The same bytes as urlencoded would have meant something else entirely.
    r = req(web_server, "POST", "/lab/echo/Shift_JIS/-", body,
            {"Content-Type": "application/x-www-form-urlencoded"})
    assert "(form.parse)" in r.text and "<td class='val'>ア a+b=c%41</td>" not in r.text


def test_api_form_body_text_plain(web_server: web.Server) -> None:
    d = post_json(web_server, "/api/form-body", {"value": "ア €", "encoding": "Shift_JIS",
                                           "enctype": "text/plain"}).json()
    # What the echo page shows for the same submission: € is not in Shift_JIS, so &#8364;.
    assert d == {"encoding": "Shift_JIS", "enctype": "text/plain",
                 "body": "_charset_=Shift_JIS\\r\\ntext=\\x83A &#8364;\\r\\n"}
    assert post_json(web_server, "/api/form-body", {"value": "x", "enctype": "nope"}).status == 400


def test_api_form_body_multipart(web_server: web.Server) -> None:
    # With the browser's boundary (which the echo page shows), the prediction is the
    # multipart body byte for byte (RFC 7578 §4, HTML's multipart/form-data algorithm).
    b = "----WebKitFormBoundaryAbC123xyz"
    d = post_json(web_server, "/api/form-body", {"value": 'ア "€"', "encoding": "Shift_JIS",
                                           "enctype": "multipart/form-data",
                                           "boundary": b}).json()
    expected = (
        f"--{b}\r\nContent-Disposition: form-data; name=\"_charset_\"\r\n\r\n"
        f"Shift_JIS\r\n--{b}\r\nContent-Disposition: form-data; name=\"text\"\r\n\r\n"
        f"\\x83A \"&#8364;\"\r\n--{b}--\r\n"
    ).encode("latin-1")
    assert d == {"encoding": "Shift_JIS", "enctype": "multipart/form-data",
                 "boundary": b, "content_type": f"multipart/form-data; boundary={b}",
                 "body": web._show_bytes(expected.replace(b"\\x83", b"\x83"))}
    # Without a boundary: a fixed placeholder, so the answer is reproducible.
    d = req(web_server, "GET", "/api/form-body?value=x&enctype=multipart/form-data").json()
    assert d["boundary"] == "BOUNDARY" and d["body"].startswith("--BOUNDARY\\r\\n")
    assert d["body"].endswith("\\r\\n--BOUNDARY--\\r\\n")
    # Not an RFC 2046 boundary: a client error, not a crash.
    r = post_json(web_server, "/api/form-body", {"value": "x", "enctype": "multipart/form-data",
                                          "boundary": "x" * 71})
    assert r.status == 400 and "RFC 2046" in r.text
    # Other enctypes ignore it.
    d = post_json(web_server, "/api/form-body", {"value": "x", "boundary": "zz"}).json()
    assert "boundary" not in d and d["body"] == "_charset_=UTF-8&text=x"


def test_lab_form_page_multipart(web_server: web.Server) -> None:
    q = urlencode({"charset": "UTF-8", "enctype": "multipart/form-data", "value": "a"})
    r = req(web_server, "GET", f"/lab/form?{q}")
    assert r.status == 200 and b'enctype="multipart/form-data"' in r.body


def test_lab_echo_multipart(web_server: web.Server) -> None:
    b = "----WebKitFormBoundaryQ7"
    body = (f"--{b}\r\nContent-Disposition: form-data; name=\"_charset_\"\r\n\r\n"
            f"Shift_JIS\r\n--{b}\r\nContent-Disposition: form-data; name=\"te%22xt\"\r\n\r\n"
            ).encode() + b"\x83A <b>\r\n" + f"--{b}--\r\n".encode()
    r = req(web_server, "POST", "/lab/echo/Shift_JIS/-", body,
            {"Content-Type": f"multipart/form-data; boundary={b}"})
    t = r.text
    assert r.status == 200 and "(multipart/form-data parts)" in t
    assert f'<pre id="lab-raw" class="raw" data-boundary="{b}">' in t
    assert f'<code id="lab-boundary">{b}</code>' in t
    assert "<td><code>_charset_</code></td><td class='val'>Shift_JIS</td>" in t
    # The name as HTML escaped it; the value decoded as Shift_JIS, escaped for HTML.
    assert "<td><code>te%22xt</code></td><td class='val'>ア &lt;b&gt;</td>" in t
    assert "<td><code>83 41 20 3c 62 3e</code></td>" in t
    assert 'id="lab-detected"' not in t  # detection reads urlencoded bodies only
    # A quoted boundary parameter (RFC 2045 §5.1) works the same.
    r = req(web_server, "POST", "/lab/echo/Shift_JIS/-", body,
            {"Content-Type": f'multipart/form-data; boundary="{b}"'})
    assert "<td class='val'>ア &lt;b&gt;</td>" in r.text


def test_show_bytes_matches_both_sides() -> None:
    # The echo page and the prediction print bytes the same way, so the page can compare.
    assert web._show_bytes(b"a=%83A&b=+") == "a=%83A&b=+"
    assert web._show_bytes(b"a=\x83A\r\n\x00\\") == "a=\\x83A\\r\\n\\x00\\\\"


@pytest.mark.parametrize("path", ["/api/encode", "/api/decode", "/api/form-body"])
@pytest.mark.parametrize("field", ["input", "value", "encoding", "scheme", "context", "enctype"])
@pytest.mark.parametrize(("value", "kind"), [
    (5, "a number"), (True, "a boolean"), ([], "an array"), ({"a": "b"}, "an object"),
])
def test_api_json_fields_must_be_strings(web_server: web.Server, path: str, field: str, value: Any,
                                         kind: str) -> None:
    # Regression (found by fuzzing): {"input": 5} was silently encoded as "".
    r = post_json(web_server, path, {field: value})
    assert r.status == 400
    assert r.json()["error"] == f"field {field!r} must be a string, not {kind}"


def test_api_json_null_means_not_given(web_server: web.Server) -> None:
    body = {"input": "a b", "scheme": None, "encoding": None}
    d = post_json(web_server, "/api/encode", body).json()
    assert d == post_json(web_server, "/api/encode", {"input": "a b"}).json()
    assert d["input"] == "a b" and d["encoding"] == "UTF-8"
    # Without a scheme, primary is the page's default scheme (docs/web.md relies on it).
    assert d["primary"]["name"] == "component" and d["primary"]["output"] == "a%20b"


# --- the URL view ----------------------------------------------------------------


def test_api_url_reports_components() -> None:
    from percent_encoding.web.server import api_url

    rep = api_url("https://Bücher.example/a b?q=ü'#x")
    assert rep["href"] == "https://xn--bcher-kva.example/a%20b?q=%C3%BC%27#x"
    comps = {c["component"]: c for c in rep["components"]}
    assert comps["path"]["encode_set"] == "path" and comps["path"]["encoded"] == [[" ", "%20"]]
    assert comps["query"]["encode_set"] == "special-query"
    assert api_url("../c", "http://h/a/b")["href"] == "http://h/c"
    bad = api_url("https://h:99999/")
    assert bad["name"] == "port-out-of-range" and "error" in bad


# -- requests from other pages (docs/web.md, "What the server refuses") -------------------


def _own(web_server: web.Server) -> str:
    return f"http://127.0.0.1:{web_server.server_address[1]}"


@pytest.mark.parametrize("ctype", ["text/plain", "application/x-www-form-urlencoded",
                                   "multipart/form-data; boundary=x", None, "application/jsonx",
                                   "text/json"])
@pytest.mark.parametrize("path", ["/api/encode", "/api/decode", "/api/url", "/api/form-body"])
def test_api_post_takes_only_json(web_server: web.Server, path: str, ctype: str | None) -> None:
    # A "simple" cross-origin POST (text/plain, a form's enctypes) needs no CORS preflight,
    # so any page could send one blind; a JSON one cannot be sent without asking first.
    headers = {} if ctype is None else {"Content-Type": ctype}
    r = req(web_server, "POST", path, b'{"input": "a b", "value": "x"}', headers)
    assert r.status == 415 and "application/json" in r.json()["error"]


@pytest.mark.parametrize("ctype", ["application/json", "application/json; charset=utf-8",
                                   "Application/JSON"])
def test_api_post_json_content_types(web_server: web.Server, ctype: str) -> None:
    r = req(web_server, "POST", "/api/encode", b'{"input": "a b"}', {"Content-Type": ctype})
    assert r.status == 200 and r.json()["primary"]["output"] == "a%20b"


@pytest.mark.parametrize("origin", ["http://evil.example", "null", "http://127.0.0.1",
                                    "https://127.0.0.1:{port}", "http://localhost:{port}",
                                    "http://127.0.0.1:{port}.evil.example"])
@pytest.mark.parametrize(("method", "path", "body", "ctype"), [
    ("POST", "/api/encode", b'{"input": "a"}', "application/json"),
    ("GET", "/api/schemes", None, None),
    ("GET", "/", None, None),
    ("POST", "/lab/echo/UTF-8/-", b"text=a", "application/x-www-form-urlencoded"),
    ("POST", "/lab/echo/UTF-8/-", b"text=a\r\n", "text/plain"),
])
def test_a_foreign_origin_is_403(web_server: web.Server, origin: str, method: str, path: str,
                                 body: bytes | None, ctype: str | None) -> None:
    headers = {"Origin": origin.format(port=web_server.server_address[1])}
    if ctype:
        headers["Content-Type"] = ctype
    r = req(web_server, method, path, body, headers)
    assert r.status == 403, r.body[:200]
    assert b"another page" in r.body
    assert r.headers["content-security-policy"].startswith("default-src 'self'")


def test_the_tools_own_origin_is_served(web_server: web.Server) -> None:
    own = {"Origin": _own(web_server), "Sec-Fetch-Site": "same-origin"}
    r = req(web_server, "POST", "/api/encode", b'{"input": "a b"}',
            {**own, "Content-Type": "application/json"})
    assert r.status == 200
    # The form lab's own submissions, every enctype, as a browser sends them.
    for ctype, body in [("application/x-www-form-urlencoded", b"text=%83A"),
                        ("text/plain", b"text=\x83A\r\n"),
                        ("multipart/form-data; boundary=b",
                         b'--b\r\nContent-Disposition: form-data; name="text"\r\n\r\n\x83A\r\n'
                         b"--b--\r\n")]:
        r = req(web_server, "POST", "/lab/echo/Shift_JIS/-", body,
                {**own, "Content-Type": ctype})
        assert r.status == 200 and "<td class='val'>ア</td>" in r.text, ctype


def test_the_referrer_policy_lets_form_posts_say_their_origin(web_server: web.Server) -> None:
    # Under "no-referrer" a browser sends "Origin: null" with a form POST (Fetch, "append a
    # request Origin header"), which would make the form lab's own submissions foreign.
    for path in ("/", "/lab/form?charset=UTF-8"):
        assert req(web_server, "GET", path).headers["referrer-policy"] == "same-origin"


@pytest.mark.parametrize("site", ["cross-site", "same-site", "Cross-Site"])
@pytest.mark.parametrize(("path", "mode", "dest"), [
    ("/api/schemes", "no-cors", "image"),            # <img src=…> on another page
    ("/api/encode?input=x", "cors", "empty"),        # fetch() from another page
    ("/api/schemes", "navigate", "document"),        # a link to the API itself
    ("/lab/form?charset=UTF-8", "navigate", "iframe"),  # framed by another page
    ("/", "navigate", "iframe"),
    ("/static/app.js", "no-cors", "script"),
    ("/", "no-cors", "image"),
])
def test_sec_fetch_site_of_another_site_is_403(web_server: web.Server, site: str, path: str,
                                               mode: str, dest: str) -> None:
    r = req(web_server, "GET", path, headers={"Sec-Fetch-Site": site, "Sec-Fetch-Mode": mode,
                                             "Sec-Fetch-Dest": dest})
    assert r.status == 403 and b"another site" in r.body


@pytest.mark.parametrize("path", ["/?input=caf%C3%A9&scheme=path", "/url?input=http%3A%2F%2Fh%2F"])
def test_a_shared_link_from_another_site_opens_the_page(web_server: web.Server,
                                                        path: str) -> None:
    # A top-level link (a shareable link pasted anywhere) opens the page, which then runs
    # only what its user asks for; its own requests are same-origin.
    r = req(web_server, "GET", path, headers={"Sec-Fetch-Site": "cross-site",
                                             "Sec-Fetch-Mode": "navigate",
                                             "Sec-Fetch-Dest": "document"})
    assert r.status == 200 and r.headers["content-type"].startswith("text/html")
    for site in ("same-origin", "none"):
        assert req(web_server, "GET", "/api/schemes",
                   headers={"Sec-Fetch-Site": site}).status == 200
