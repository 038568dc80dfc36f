"""The web tool end to end in real headless Chromium (Debian's /usr/bin/chromium driven by
Playwright; never ``playwright install``): typing, scheme switching, copy buttons, the grid,
the form lab in Shift_JIS (urlencoded, GET and multipart), and an injection payload in a
shared link.

Screenshots go to a temporary directory (and also to $PERCENT_SCREENSHOTS when set).
One browser for the whole module keeps it to a few seconds per test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

import helpers.browser
from helpers.browser import playwright_api
from percent_encoding import schemes

pytestmark = pytest.mark.one_impl

expect = playwright_api().expect  # skips the module without Playwright or Chromium

from percent_encoding.web.server import Server  # noqa: E402

TIMEOUT_MS = 15000


def shoot(page: Any, shots: Path, name: str, **kw: Any) -> Path:
    path = helpers.browser.shoot(page, shots, name, **kw)
    assert path.stat().st_size > 5000  # something was drawn
    return path


@pytest.fixture
def page(browser: Any, web_server: Server) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    origin = web_server.url.rstrip("/")
    ctx.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
    pg = ctx.new_page()
    pg.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.errors = errors
    yield pg
    ctx.close()
    assert not errors, errors


def open_tool(page: Any, web_server: Server, query: str = "") -> None:
    page.goto(web_server.url + query)
    page.wait_for_selector("body[data-ready='1']")


def primary(page: Any) -> str:
    return str(page.locator("#primary-output").text_content())


def wait_primary(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => document.getElementById('primary-output').textContent === t", arg=text
    )


def wait_clipboard(page: Any, pred: Any) -> str:
    text = ""
    for _ in range(50):
        text = str(page.evaluate("navigator.clipboard.readText()"))
        if pred(text):
            return text
        page.wait_for_timeout(100)
    raise AssertionError(f"clipboard holds {text!r}")


def row_output(page: Any, name: str) -> str:
    return str(page.locator(f"#results tr[data-scheme='{name}'] td.out").text_content())


def test_typing_updates_every_scheme(page: Any, web_server: Server, shots: Path) -> None:
    open_tool(page, web_server)
    page.locator("#input").press_sequentially("a b/ü&")
    wait_primary(page, "a%20b%2F%C3%BC%26")
    assert row_output(page, "whatwg-path") == "a%20b/%C3%BC&"
    form_out = "#results tr[data-scheme='application/x-www-form-urlencoded'] td.out"
    expect(page.locator(form_out)).to_have_text("a+b%2F%C3%BC%26")
    names = page.locator("#results tr[data-scheme]").evaluate_all(
        "rows => rows.map(r => r.dataset.scheme)"
    )
    assert set(names) == set(schemes.names())
    # The address bar is the shareable state.
    assert "input=a+b%2F%C3%BC%26" in page.url or "input=a%20b%2F%C3%BC%26" in page.url
    shoot(page, shots, "encode-light")


def test_scheme_switching_and_decode_mode(page: Any, web_server: Server, shots: Path) -> None:
    open_tool(page, web_server, "?input=" + quote("a b+c"))
    wait_primary(page, "a%20b%2Bc")
    page.select_option("#scheme", "application/x-www-form-urlencoded")
    wait_primary(page, "a+b%2Bc")
    assert "scheme=application%2Fx-www-form-urlencoded" in page.url
    assert page.locator(
        "#results tr.selected[data-scheme='application/x-www-form-urlencoded']"
    ).count() == 1
    # Clicking a scheme name in the table selects it too.
    page.locator("#results tr[data-scheme='whatwg-path'] button.linkish").click()
    wait_primary(page, "a%20b+c")
    assert page.locator("#scheme").input_value() == "whatwg-path"
    # Decode mode: results decode, the analysis panel appears.
    page.click("#mode-decode")
    page.fill("#input", "caf%C3%A9+au+lait%2")
    wait_primary(page, "café+au+lait%2")
    assert page.locator("#detect").is_visible()
    assert "63 61 66 c3 a9" in str(page.locator("#detect-bytes").text_content())
    page.select_option("#scheme", "application/x-www-form-urlencoded")
    wait_primary(page, "café au lait%2")
    assert "mode=decode" in page.url
    shoot(page, shots, "decode-light")


def test_decode_context_selector(page: Any, web_server: Server, shots: Path) -> None:
    # Where the text lives decides what detect.diagnose flags and what "+" means.
    open_tool(page, web_server, "?mode=decode&input=" + quote("q=cafe+au+lait&x=1"))
    findings = page.locator("#detect-findings li .code")
    expect(findings.first).to_have_text("ambiguous-plus")  # a query: "+" could be either
    assert page.locator("#context").input_value() == "query"
    page.select_option("#context", "form")
    expect(page.locator("#detect-chips")).to_contain_text("“+” means a space")
    # In a form body "&" and "=" are syntax and "+" is a space: nothing to report
    # (every field has its "=", as a browser writes it; the form grammar would report a
    # raw "?" or the escapes of "é", obs-escaped-code).
    expect(page.locator("#detect-findings li.ok")).to_have_text("No problems found.")
    assert "context=form" in page.url
    page.select_option("#context", "component")
    expect(page.locator("#detect-chips")).to_contain_text("“+” is a plus sign")
    expect(findings).to_have_count(5)  # one value: "+" twice, "&", "=" twice
    # The input, the chosen scheme's result and the analysis panel, in one picture.
    top = page.locator("#convert").bounding_box()
    bottom = page.locator("#detect").bounding_box()
    assert top is not None and bottom is not None
    clip = {"x": top["x"], "y": top["y"], "width": top["width"],
            "height": bottom["y"] + bottom["height"] - top["y"] + 12}
    page.screenshot(path=str(shots / "decode-context.png"), clip=clip, full_page=True)
    keep = os.environ.get("PERCENT_SCREENSHOTS")
    if keep:
        Path(keep).mkdir(parents=True, exist_ok=True)
        shutil.copy(shots / "decode-context.png", Path(keep) / "decode-context.png")
    # The link restores the context.
    open_tool(page, web_server, "?mode=decode&context=path&input=a%2Bb")
    assert page.locator("#context").input_value() == "path"


def test_shared_link_restores_state(page: Any, web_server: Server) -> None:
    # The link's input is itself percent-encoded: %2583A is the text "%83A".
    open_tool(page, web_server, "?input=%2583A&scheme=component&mode=decode&encoding=sjis")
    wait_primary(page, "ア")
    assert page.locator("#mode-decode").get_attribute("aria-pressed") == "true"
    assert page.locator("#encoding").input_value() == "Shift_JIS"


def test_copy_buttons(page: Any, web_server: Server) -> None:
    open_tool(page, web_server, "?input=" + quote("x y") + "&scheme=path")
    wait_primary(page, "x%20y")
    page.click("#primary-copy")
    expect(page.locator("#primary-copy")).to_have_text("Copied ✓")
    assert wait_clipboard(page, lambda t: t == "x%20y") == "x%20y"
    btn = page.locator(
        "#results tr[data-scheme='application/x-www-form-urlencoded'] button.copy"
    )
    btn.click()
    wait_clipboard(page, lambda t: t == "x+y")
    page.click("#share")
    link = wait_clipboard(page, lambda t: "input=x" in t)
    assert link.startswith(web_server.url + "?input=x") and "scheme=path" in link


def test_samples_and_swap(page: Any, web_server: Server) -> None:
    open_tool(page, web_server)
    page.locator("#samples button.sample", has_text="café au lait").click()
    wait_primary(page, "caf%C3%A9%20au%20lait")
    page.click("#swap")  # the result becomes the input, and encode becomes decode
    wait_primary(page, "café au lait")
    assert page.locator("#input").input_value() == "caf%C3%A9%20au%20lait"
    assert page.locator("#mode-decode").get_attribute("aria-pressed") == "true"
    # Decode-mode samples: a double-encoded euro sign decodes one layer.
    page.locator("#samples button.sample", has_text="%25E2%2582%25AC").click()
    wait_primary(page, "%E2%82%AC")


def test_grid(page: Any, web_server: Server, shots: Path) -> None:
    open_tool(page, web_server)
    page.wait_for_selector("body[data-grid='1']")
    rows = page.locator("#grid-table tr.row")
    assert rows.count() == len(schemes.names())
    headers = page.locator("#grid-table thead th").all_text_contents()
    assert "SP" in headers and "+" in headers and "A–Z" in headers
    col = headers.index("SP")
    form_row = page.locator("#grid-table tr.row[data-scheme='application/x-www-form-urlencoded']")
    cell = form_row.locator("td").nth(col - 1)
    assert "other" in str(cell.get_attribute("class"))  # space -> "+": written differently
    assert cell.text_content() == "+"
    comp = page.locator("#grid-table tr.row[data-scheme='whatwg-component'] td").nth(col - 1)
    assert "enc" in str(comp.get_attribute("class")) and "%20" in str(comp.get_attribute("title"))
    # Show every column, then click a row to select its scheme.
    page.uncheck("#grid-diff")
    assert len(page.locator("#grid-table thead th").all_text_contents()) > len(headers)
    form_row.locator("th.sname").click()
    expect(page.locator("#scheme")).to_have_value("application/x-www-form-urlencoded")
    page.check("#grid-diff")
    page.locator("#grid").screenshot(path=str(shots / "grid.png"))
    keep = os.environ.get("PERCENT_SCREENSHOTS")
    if keep:
        shutil.copy(shots / "grid.png", Path(keep) / "grid.png")


def test_form_lab_shift_jis(page: Any, web_server: Server, shots: Path) -> None:
    open_tool(page, web_server)
    page.select_option("#lab-charset", "Shift_JIS")
    page.fill("#lab-value", "ア")
    page.click("#lab-send")
    frame = page.frame_locator("#lab-frame")
    raw = frame.locator("#lab-raw")
    raw.wait_for()
    # What Chromium itself sent from a Shift_JIS page: ア is the two bytes 0x83 0x41.
    assert raw.text_content() == "_charset_=Shift_JIS&text=%83A"
    assert frame.locator("#lab-pairs td.val").all_text_contents() == ["Shift_JIS", "ア"]
    # The library predicts the very bytes Chromium sent.
    expect(page.locator("#lab-verdict.same")).to_contain_text("predicts exactly these bytes")
    page.locator("#lab").scroll_into_view_if_needed()
    page.locator("#lab").screenshot(path=str(shots / "lab.png"))
    keep = os.environ.get("PERCENT_SCREENSHOTS")
    if keep:
        shutil.copy(shots / "lab.png", Path(keep) / "lab.png")
    # accept-charset overrides the page encoding; € is not in Shift_JIS but is in windows-1252.
    page.select_option("#lab-accept", "windows-1252")
    page.select_option("#lab-method", "get")
    page.fill("#lab-value", "€ ア")
    page.click("#lab-send")
    page.wait_for_function(
        "() => { const d = document.getElementById('lab-frame').contentDocument;"
        " const r = d && d.getElementById('lab-raw');"
        " return r && r.textContent.includes('windows-1252'); }"
    )
    # ア is not in windows-1252: the browser sends &#12450; percent-encoded.
    assert frame.locator("#lab-raw").text_content() == (
        "_charset_=windows-1252&text=%80+%26%2312450%3B"
    )
    expect(page.locator("#lab-verdict.same")).to_contain_text("windows-1252")


def test_form_lab_multipart(page: Any, web_server: Server) -> None:
    from percent_encoding.form import html_form_body
    from percent_encoding.web.server import _show_bytes

    open_tool(page, web_server)
    page.select_option("#lab-charset", "Shift_JIS")
    page.select_option("#lab-method", "post")
    page.select_option("#lab-enctype", "multipart/form-data")
    # A quote (escaped only in names), a character Shift_JIS lacks (sent as &#8364;).
    value = 'ア "€" a&b=c'
    page.fill("#lab-value", value)
    page.click("#lab-send")
    frame = page.frame_locator("#lab-frame")
    raw = frame.locator("#lab-raw")
    raw.wait_for()
    # Chromium chose the boundary; everything else is what html_form_body predicts.
    boundary = raw.get_attribute("data-boundary")
    assert boundary and boundary.startswith("----WebKitFormBoundary")
    assert frame.locator("#lab-boundary").text_content() == boundary
    expected = html_form_body([("_charset_", ""), ("text", value)], encoding="Shift_JIS",
                              enctype="multipart/form-data", boundary=boundary)
    assert raw.text_content() == _show_bytes(expected)
    assert frame.locator("#lab-pairs td.val").all_text_contents() == [
        "Shift_JIS", 'ア "&#8364;" a&b=c']
    expect(page.locator("#lab-verdict.same")).to_contain_text("predicts exactly these bytes")
    expect(page.locator("#lab-verdict.same code").last).to_have_text(boundary)


def test_injection_payload_never_runs(page: Any, web_server: Server, shots: Path) -> None:
    dialogs: list[str] = []

    def on_dialog(d: Any) -> None:
        dialogs.append(d.message)
        d.dismiss()

    page.on("dialog", on_dialog)
    payload = '"><script>window.__pwned=1;alert(1)</script><img src=x onerror="window.__pwned=2">'
    open_tool(
        page, web_server,
        "?input=" + quote(payload) + "&scheme=" + quote(payload) + "&encoding=" + quote(payload),
    )
    expect(page.locator("#primary-note")).to_contain_text("unknown scheme")
    assert page.locator("#input").input_value() == payload  # shown as text, in the box
    assert page.evaluate("window.__pwned") is None
    assert page.locator("img[src=x]").count() == 0
    assert page.locator("script:not([src])").count() == 0
    # The payload shows encoded in every scheme.
    assert row_output(page, "whatwg-component").startswith("%22%3E%3Cscript%3Ewindow.__pwned")
    # The unknown "scheme" is an <option> whose text is the payload, not markup.
    assert page.locator("#scheme option").last.text_content() == payload
    # Typing it is just as harmless, in the form lab as well.
    page.fill("#input", payload + "<svg onload=alert(3)>")
    page.fill("#lab-value", payload)
    page.click("#lab-send")
    page.frame_locator("#lab-frame").locator("#lab-raw").wait_for()
    page.wait_for_timeout(300)
    assert page.evaluate("window.__pwned") is None
    assert page.frame_locator("#lab-frame").locator("#lab-pairs td.val").last.text_content() == (
        payload
    )
    assert dialogs == []
    shoot(page, shots, "injection")


def test_dark_mode_screenshot(browser: Any, web_server: Server, shots: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    try:
        pg = ctx.new_page()
        pg.goto(web_server.url + "?input=" + quote("café & crème/brûlée?") + "&scheme=component")
        pg.wait_for_selector("body[data-grid='1']")
        bg = pg.evaluate("getComputedStyle(document.body).backgroundColor")
        assert bg == "rgb(18, 19, 26)"  # the dark palette applied
        shoot(pg, shots, "top-dark")
    finally:
        ctx.close()


# --- large input (issue 41 §5) and other pages (issue 39 §2) ----------------------------


def test_large_input_says_the_limit_and_the_command(page: Any, web_server: Server) -> None:
    # ~1 MB of non-ASCII text: over the 1 MiB request limit once UTF-8 encoded. The page
    # says so in plain words with the command to use, and puts no 1.9 MB link anywhere.
    open_tool(page, web_server, "?scheme=path")
    sent: list[str] = []
    page.on("request", lambda r: sent.append(r.url) if "/api/encode" in r.url else None)
    page.fill("#input", "é" * 531_276)  # 1,062,552 bytes of UTF-8
    page.wait_for_function(
        "() => document.getElementById('primary-note').textContent.includes('percent command')")
    note = str(page.text_content("#primary-note"))
    assert "This text is 1.06 MB and the web tool takes up to 1.05 MB (1 MiB)" in note
    assert note.endswith("percent encode --scheme path < input.txt > output.txt")
    assert "too large" in str(page.text_content("#status"))
    assert "too long to put in a link" in str(page.text_content("#input-stats"))
    assert not sent  # nothing was sent to be refused
    assert len(page.url) < 200 and "input=" not in page.url and "scheme=path" in page.url
    page.click("#share")
    link = wait_clipboard(page, lambda t: t.startswith(web_server.url))
    assert "input=" not in link and len(link) < 200
    # A text of a few KB still goes into the link; a little more does not.
    page.fill("#input", "é" * 2048)  # 4,096 bytes
    wait_primary(page, "%C3%A9" * 2048)
    assert "input=" in page.url
    page.fill("#input", "é" * 2049)
    page.wait_for_function("() => !location.search.includes('input=')")


def test_url_view_large_input(page: Any, web_server: Server) -> None:
    page.goto(web_server.url + "url")
    page.wait_for_selector("#url-table tbody tr")
    page.fill("#url-input", "http://h/?" + "%" * 70_000)
    page.press("#url-input", "Enter")
    page.wait_for_function(
        "() => document.getElementById('url-href').textContent.includes('65,536 characters')")
    assert "percent url --json" in str(page.text_content("#url-href"))
    assert "input=" not in page.url
    # Under the limit: the first 100 validation errors and how many there are.
    page.fill("#url-input", "http://h/?" + "%" * 5000)
    page.press("#url-input", "Enter")
    page.wait_for_function("() => document.querySelectorAll('#url-errors li').length === 101")
    assert "… and 4900 more (5000 in all" in str(page.text_content("#url-errors li.more"))


def test_another_page_cannot_drive_the_tool(page: Any, web_server: Server,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    # A page on another origin (another port of 127.0.0.1) tries what any page open in
    # the browser could: a blind text/plain POST, an <img> GET, a form POST to the lab.
    # The tool answers each with 403 (or, for the preflighted JSON fetch, not at all).
    import http.server

    from helpers.web import serving
    from percent_encoding.web import server as web

    seen: list[tuple[str, str, int]] = []

    def log_request(self: Any, code: Any = "-", size: Any = "-") -> None:
        seen.append((self.command, self.path, int(code)))

    monkeypatch.setattr(web.Handler, "log_request", log_request)
    tool = web_server.url
    evil_page = f"""<!doctype html><html><body>
<img src="{tool}api/schemes?from=img">
<form id="f" method="post" action="{tool}lab/echo/UTF-8/-?from=form" target="fr">
<input name="text" value="x"></form><iframe name="fr"></iframe>
<script>
fetch("{tool}api/encode?from=plain", {{method: "POST", mode: "no-cors",
      headers: {{"Content-Type": "text/plain"}}, body: '{{"input": "x"}}'}}).catch(() => 0);
fetch("{tool}api/encode?from=json", {{method: "POST",
      headers: {{"Content-Type": "application/json"}}, body: '{{"input": "x"}}'}}).catch(() => 0);
document.getElementById("f").submit();
</script></body></html>""".encode()

    class Evil(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Content-Length", str(len(evil_page)))
            self.end_headers()
            self.wfile.write(evil_page)

        def log_message(self, *a: Any) -> None:
            pass

    with serving(http.server.HTTPServer(("127.0.0.1", 0), Evil)) as evil:
        page.goto(f"http://127.0.0.1:{evil.server_address[1]}/")
        want = {"img", "plain", "form"}
        for _ in range(100):
            if want <= {p.rpartition("from=")[2] for _m, p, _c in seen}:
                break
            page.wait_for_timeout(100)
    got = {p.rpartition("from=")[2]: code for _m, p, code in seen if "from=" in p}
    assert {k: got.get(k) for k in want} == {"img": 403, "plain": 403, "form": 403}, seen
    # The JSON fetch needed a CORS preflight (OPTIONS), which is never granted.
    assert got.get("json") in (None, 501), seen
    page.errors.clear()  # the other page's own failed fetches are not the tool's errors
