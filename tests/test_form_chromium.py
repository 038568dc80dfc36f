"""Oracle test: html_form_body against what Chromium really sends.

A local ``http.server`` on 127.0.0.1 serves one page per case, in a document
whose encoding comes from ``<meta charset>`` (and, for some cases, a form
``accept-charset``).  The page's script builds a POST form of hidden inputs
from JSON (so names and values hold exactly the intended code units: CR, LF,
lone surrogates, astral characters), Playwright clicks its submit button in
/usr/bin/chromium, and the server records the raw request body and
Content-Type (for GET forms: the query string).  Each must equal
``html_form_body(entries, encoding=..., enctype=...)`` byte for byte, and the
Content-Type must carry no ``charset`` parameter.  All cases run in ONE
browser session (about 20 s).

Skips cleanly when chromium or playwright is missing or cannot start.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from helpers.web import serving
from percent_encoding.form import File, html_form_body

pytestmark = pytest.mark.one_impl

URLENC = "application/x-www-form-urlencoded"
PLAIN = "text/plain"
MULTIPART = "multipart/form-data"

# Entries every encoding gets: spaces, reserved characters, every newline
# form, the _charset_ field, a lone surrogate, an astral character and a
# character most legacy encodings cannot represent.
COMMON: list[tuple[str, str]] = [
    ("name", "two words"),
    ("a&b=c", "1+1=2;%/?#[]@!$'()*,~-._"),
    ("nl", "l1\nl2\rl3\r\nl4\n\rend"),
    ("_charset_", "replaced"),
    ("_Charset_", ""),
    ("lone", "x\ud800y\udfff"),
    ("astral", "\U0001f600"),
    ("snow", "\u2603\u00a0"),
    ("ascii", "".join(chr(c) for c in range(0x20, 0x7F))),
    ("ctl", "\x00\x01\x1f\x7f\t"),
]

SAMPLES: dict[str, str] = {
    "Shift_JIS": "日本語ｱｲ－～①\u00a5\u203e\u2212",
    "EUC-JP": "日本語ｱ－～\u00a5\u203e",
    "ISO-2022-JP": "日本語ｱｲｳ\u00a5\u203eＡ",
    "gb18030": "中文€\u00e9\ue5e5\U00020000",
    "GBK": "中文€\u00e9",
    "Big5": "中文\u2550\u5341",
    "EUC-KR": "한국어\u00e9",
    "windows-1252": "café €Ÿ\u0081",
    "ISO-8859-2": "Łódź",
    "windows-1251": "Привет",
    "KOI8-R": "Привет",
    "ISO-8859-7": "Ελλάδα",
    "windows-874": "ภาษาไทย",
    "UTF-8": "日本語 한국어 €",
}


def _cases() -> list[dict[str, Any]]:
    cases: list[dict[str, Any]] = []
    for charset, sample in SAMPLES.items():
        entries = [*COMMON, ("sample", sample), (sample, "as name")]
        cases.append({"charset": charset, "accept": None, "enctype": URLENC,
                      "entries": entries, "encoding": charset})
    for charset in ("Shift_JIS", "windows-1252", "gb18030", "ISO-2022-JP", "UTF-8"):
        entries = [*COMMON, ("sample", SAMPLES[charset])]
        cases.append({"charset": charset, "accept": None, "enctype": PLAIN,
                      "entries": entries, "encoding": charset})
    # multipart/form-data: names escaped (" CR LF), &#N; for unencodable
    # characters; the browser's boundary comes from its Content-Type.
    for charset in ("UTF-8", "Shift_JIS", "windows-1252", "gb18030", "ISO-2022-JP", "EUC-KR"):
        entries = [*COMMON, ("sample", SAMPLES[charset]), (SAMPLES[charset], "as name"),
                   ('q"uo\nte\r%22', 'v"al\r')]
        cases.append({"charset": charset, "accept": None, "enctype": MULTIPART,
                      "entries": entries, "encoding": charset})
    # GET: the same serializer output becomes the action URL's query (HTML
    # "mutate action URL")
    for charset in ("Shift_JIS", "windows-1252", "EUC-KR"):
        entries = [*COMMON, ("sample", SAMPLES[charset])]
        cases.append({"charset": charset, "accept": None, "enctype": URLENC,
                      "entries": entries, "encoding": charset, "method": "get"})
    # accept-charset: the first label that names an encoding wins; UTF-16
    # submits as UTF-8 (its output encoding)
    for accept, expected in (("bogus shift_jis euc-kr", "shift_jis"), ("utf-16", "utf-16"),
                             ("latin1", "latin1"), ("nonsense", "utf-8")):
        entries = [*COMMON, ("sample", "日本 café")]
        cases.append({"charset": "UTF-8", "accept": accept, "enctype": URLENC,
                      "entries": entries, "encoding": expected})
    # File inputs (HTML "constructing the entry list"): Playwright's set_input_files
    # selects the files; multipart sends them as parts, the rest send their names.
    files = [("notes.txt", "text/plain", b"hello\r\nworld\n"),
             ('q"u\rx\ny.bin', "application/x-custom", bytes(range(256))),
             ("caf\u00e9 \u2603.dat", "", b"")]
    for charset, enctype in (("UTF-8", MULTIPART), ("windows-1252", MULTIPART),
                             ("UTF-8", URLENC), ("windows-1252", PLAIN)):
        cases.append({"charset": charset, "accept": None, "enctype": enctype,
                      "entries": [("before", "x\ny")], "encoding": charset,
                      "files": files})
    cases.append({"charset": "UTF-8", "accept": None, "enctype": MULTIPART,
                  "entries": [("before", "x")], "encoding": "UTF-8", "files": []})
    return cases


CASES = _cases()


def _expected_entries(case: dict[str, Any]) -> list[tuple[str, Any]]:
    entries: list[tuple[str, Any]] = list(case["entries"])
    if "files" in case:
        chosen = case["files"] or [("", "application/octet-stream", b"")]
        entries += [("upload", File(n, c, t)) for n, t, c in chosen]
    return entries


def _page(i: int, case: dict[str, Any]) -> bytes:
    accept = (
        f' accept-charset="{case["accept"]}"' if case["accept"] is not None else ""
    )
    # ensure_ascii: lone surrogates travel as \\uD800 escapes, so the page is
    # pure ASCII whatever its declared encoding.
    data = json.dumps(case["entries"], ensure_ascii=True)
    html = f"""<!DOCTYPE html>
<html><head><meta charset="{case['charset']}"><title>case {i}</title></head>
<body><form id="f" method="{case.get('method', 'post')}" action="/submit/{i}"
 enctype="{case['enctype']}"{accept}>
<button id="go" type="submit">go</button></form>
<script>
const f = document.getElementById("f");
for (const [n, v] of {data}) {{
  const inp = document.createElement("input");
  inp.type = "hidden"; inp.name = n; inp.value = v;
  f.insertBefore(inp, document.getElementById("go"));
}}
if ({"true" if "files" in case else "false"}) {{
  const inp = document.createElement("input");
  inp.type = "file"; inp.name = "upload"; inp.multiple = true; inp.id = "up";
  f.insertBefore(inp, document.getElementById("go"));
}}
</script></body></html>"""
    return html.encode("ascii")


class _Recorder:
    def __init__(self) -> None:
        self.bodies: dict[int, tuple[bytes, str]] = {}
        self.lock = threading.Lock()


def _handler(rec: _Recorder) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def _send(self, body: bytes) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:
            if self.path.startswith("/form/"):
                i = int(self.path.rsplit("/", 1)[1])
                self._send(_page(i, CASES[i]))
            elif self.path.startswith("/submit/"):
                path, _, query = self.path.partition("?")
                i = int(path.rsplit("/", 1)[1])
                with rec.lock:
                    rec.bodies[i] = (query.encode("ascii"), "")
                self._send(b"<!DOCTYPE html><title>done</title>ok")
            else:
                self.send_error(404)

        def do_POST(self) -> None:
            n = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(n)
            i = int(self.path.rsplit("/", 1)[1])
            with rec.lock:
                rec.bodies[i] = (body, self.headers.get("Content-Type", ""))
            self._send(b"<!DOCTYPE html><title>done</title>ok")

    return Handler


@pytest.fixture(scope="module")
def chromium_bodies(browser: Any) -> Iterator[dict[int, tuple[bytes, str]]]:
    rec = _Recorder()
    with serving(ThreadingHTTPServer(("127.0.0.1", 0), _handler(rec))) as server:
        base = f"http://127.0.0.1:{server.server_address[1]}"
        page = browser.new_page()
        try:
            for i in range(len(CASES)):
                page.goto(f"{base}/form/{i}", wait_until="load", timeout=15_000)
                if CASES[i].get("files"):
                    page.set_input_files("#up", [
                        {"name": n, "mimeType": t, "buffer": c}
                        for n, t, c in CASES[i]["files"]])
                with page.expect_navigation(url=f"**/submit/{i}*", timeout=15_000):
                    page.click("#go")
        finally:
            page.close()
        yield rec.bodies


def _case_id(case: dict[str, Any]) -> str:
    acc = f"+accept={case['accept']}" if case["accept"] is not None else ""
    how = "GET" if case.get("method") == "get" else case["enctype"].split("/")[-1]
    files = f"+{len(case['files'])}files" if "files" in case else ""
    return f"{case['charset']}{acc}-{how}{files}"


@pytest.mark.parametrize("i", range(len(CASES)), ids=[_case_id(c) for c in CASES])
def test_chromium_form_body(i: int, chromium_bodies: dict[int, tuple[bytes, str]]) -> None:
    case = CASES[i]
    body, content_type = chromium_bodies[i]
    boundary = None
    if case["enctype"] == MULTIPART:
        kind, _, param = content_type.partition("; boundary=")
        assert kind == MULTIPART
        boundary = param
        content_type = kind
    expected = html_form_body(
        _expected_entries(case), encoding=case["encoding"], enctype=case["enctype"],
        boundary=boundary,
    )
    assert body == expected
    if case.get("method") == "get":
        return  # the body was the query string
    # HTML sends no charset parameter (and a parser must not need one)
    assert content_type == case["enctype"]


def test_all_cases_submitted(chromium_bodies: dict[int, tuple[bytes, str]]) -> None:
    assert sorted(chromium_bodies) == list(range(len(CASES)))
