"""The built docs site (Sphinx, ``./dev docs``) as its readers meet it, in real headless
Chromium (Debian's /usr/bin/chromium driven by Playwright; never ``playwright install``):

- axe-core finds no critical or serious violation on any page;
- no page logs a console error or fails a request when opened from ``file://``, the search
  page included (it lists results there without fetching other files);
- each code block has a Copy button that copies the code without prompts or output;
- the site has a tutorial, how-to guides, reference and explanation, and the changelog;
  no two pages share a title.

The site: ``PERCENT_ENCODING_DOCS_SITE``.  ``./dev docs`` passes the one it just built,
and CI runs ``./dev docs`` after ``./dev test``, with Chromium and the test tools present.
Without it the module skips (a build and axe over 70 pages take minutes: not for every
``./dev test``), and the browser tests skip cleanly when Playwright, Chromium or axe-core
(``axe-playwright-python``) are missing.
"""

from __future__ import annotations

import html
import importlib.util
import os
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import percent_encoding
from helpers.web import serving

pytestmark = [pytest.mark.one_impl, pytest.mark.no_kernels, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[1]
TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def site() -> Path:
    given = os.environ.get("PERCENT_ENCODING_DOCS_SITE")
    if not given:
        # Not built here: a build and axe over every page take minutes, more than the whole
        # suite's budget; `./dev docs` builds the site and runs this module on it (CI too).
        pytest.skip("no built docs site: ./dev docs builds one and runs these tests on it "
                    "(or set PERCENT_ENCODING_DOCS_SITE to a built site)")
    assert (Path(given) / "index.html").is_file(), f"no built site in {given}"
    return Path(given).resolve()


def _pages(site: Path) -> list[Path]:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 30
    return pages


def _title(page: Path) -> str:
    m = re.search(r"<title>(.*?)</title>", page.read_text("utf-8"), re.S)
    assert m, page
    return m.group(1).strip()


def test_no_two_pages_share_a_title(site: Path) -> None:
    titles = Counter(_title(p) for p in _pages(site))
    assert not [t for t, n in titles.items() if n > 1], titles.most_common(3)


def test_the_site_has_the_four_kinds_of_documentation_and_the_changelog(site: Path) -> None:
    start = (site / "index.html").read_text("utf-8")
    captions = re.findall(r'<span class="caption-text">([^<]*)</span>', start)
    assert captions[:4] == ["Tutorial", "How-to guides", "Reference", "Explanation"], captions
    assert 'href="tutorial.html"' in start and 'href="changelog.html"' in start
    changelog = (site / "changelog.html").read_text("utf-8")
    headings = [re.sub(r"[`*]", "", h) for h in re.findall(
        r"^#{2,3} (.+)$", (ROOT / "CHANGELOG.md").read_text("utf-8"), re.M)]
    assert any(h.startswith(percent_encoding.__version__) for h in headings)
    # (Sphinx prints ' as a typographic apostrophe.)
    shown = {html.unescape(re.sub(r"<[^>]+>|¶", "", h)).replace("\u2019", "'").strip()
             for h in re.findall(
        r"<h[23]>(.*?)</h[23]>", changelog, re.S)}
    assert not [h for h in headings if h not in shown], "headings of CHANGELOG.md not shown"
    # The changelog's links to chapters (docs/x.md in CHANGELOG.md) lead to the site's pages.
    assert 'href="columns.html"' in changelog and 'href="docs/' not in changelog


def test_the_whole_urls_guide_shows_every_component(site: Path) -> None:
    page = (site / "guides" / "whole-urls.html").read_text("utf-8")
    # Each component of the URL Standard's API (§6.1) is named in the guide's table.
    for attr in ("href", "protocol", "username", "password", "hostname", "port", "host",
                 "pathname", "search", "hash", "origin", "search_params"):
        assert f'<span class="pre">{attr}</span>' in page, attr
    text = re.sub(r"<[^>]+>", "", page)
    assert "u.hostname" in text and "xn--bcher-kva.example" in text


def test_every_code_block_is_focusable_and_every_caption_has_a_level(site: Path) -> None:
    # What axe checks below in the browser, checked in the HTML too (fast, and it says where).
    for page in _pages(site):
        text = page.read_text("utf-8")
        assert "<pre>" not in text, f"{page.name}: a code block keyboard users cannot scroll"
        headings = re.findall(r'<[^>]*\brole="heading"[^>]*>', text)
        assert not [t for t in headings if "aria-level=" not in t], page.name


# --- in the browser ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def axe_js() -> Path:
    spec = importlib.util.find_spec("axe_playwright_python")
    if spec is None or spec.origin is None:
        pytest.skip("axe-playwright-python (for axe.min.js) is not installed")
    return Path(spec.origin).with_name("axe.min.js")


def _open(ctx: Any, url: str) -> tuple[Any, list[str]]:
    page = ctx.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}")
            if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.goto(url)
    page.wait_for_load_state("load")
    return page, problems


def test_every_page_from_file_urls_passes_axe_with_no_console_error(
        site: Path, browser: Any, axe_js: Path) -> None:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    failures: list[str] = []
    try:
        for path in _pages(site):
            name = path.relative_to(site).as_posix()
            page, problems = _open(ctx, path.as_uri())
            page.wait_for_timeout(100)  # scripts that run after load (furo, copybutton)
            failures += [f"{name}: {p}" for p in problems]
            # Injected after the console check; preload off: axe would fetch the
            # stylesheets itself, which file:// refuses (its errors, not the page's).
            page.add_script_tag(path=str(axe_js))
            violations = page.evaluate(
                "async () => (await axe.run(document, {resultTypes: ['violations'], "
                "preload: false})).violations")
            failures += [
                f"{name}: {v['impact']} {v['id']} x{len(v['nodes'])} {v['nodes'][0]['target']}"
                for v in violations if v["impact"] in ("critical", "serious")]
            page.close()
    finally:
        ctx.close()
    assert not failures, "\n".join(failures[:40])


def test_search_works_from_a_file_url_without_errors(site: Path, browser: Any) -> None:
    ctx = browser.new_context()
    try:
        page, problems = _open(ctx, (site / "search.html").as_uri() + "?q=hostname")
        page.wait_for_selector("#search-results li a")
        page.wait_for_timeout(500)  # a summary fetch, if one were made, fails by now
        links = page.locator("#search-results li a").all_text_contents()
        assert any("hostname" in t for t in links), links
        assert not problems, problems
    finally:
        ctx.close()


def test_copy_buttons_copy_the_code_without_prompts(
        site: Path, browser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    # Over HTTP (the web tool serving the site at /docs/), where the clipboard may be read.
    monkeypatch.setenv("PERCENT_ENCODING_DOCS_DIR", str(site))
    from percent_encoding.web.server import make_server

    with serving(make_server("127.0.0.1", 0)) as srv:
        ctx = browser.new_context()
        ctx.grant_permissions(["clipboard-read", "clipboard-write"],
                              origin=srv.url.rstrip("/"))
        try:
            page, problems = _open(ctx, srv.url + "docs/tutorial.html")
            blocks = page.locator("div.highlight")
            buttons = page.locator("div.highlight button.copybtn")
            assert blocks.count() > 5 and buttons.count() == blocks.count()
            first = blocks.nth(0)
            first.hover()
            first.locator("button.copybtn").click()
            text = ""
            for _ in range(50):
                text = str(page.evaluate("navigator.clipboard.readText()"))
                if text:
                    break
                page.wait_for_timeout(100)
            # The block is `pip install percent-encoding`; the Python ones lose >>> and output.
            assert text == "pip install percent-encoding", text
            second = blocks.nth(1)
            second.hover()
            second.locator("button.copybtn").click()
            for _ in range(50):
                text = str(page.evaluate("navigator.clipboard.readText()"))
                if text.startswith("import"):
                    break
                page.wait_for_timeout(100)
            want = 'import percent_encoding as pe\npe.encode("Crème brûlée & co")'
            assert text.rstrip("\n") == want, text
            assert not problems, problems
        finally:
            ctx.close()

