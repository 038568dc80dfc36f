"""The web tool links each scheme to its page of the docs site, and serves the built site
at ``/docs/`` from a fixed list of its files (web/_docs.py)."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.public_modules import public_modules
from helpers.web import serving
from percent_encoding import schemes
from percent_encoding.web import _docs
from percent_encoding.web.server import Server, api_convert, make_server

pytestmark = [pytest.mark.one_impl]

ROOT = Path(__file__).resolve().parents[1]


def test_every_scheme_links_to_a_page_that_the_docs_have() -> None:
    rows = api_convert("a b", decode=False)["results"]
    assert {r["name"] for r in rows} == set(schemes.names())
    for r in rows:
        link = r["docs"]
        assert link.startswith("/docs/") and link.endswith(".html"), link
        page = link[len("/docs/"):-len(".html")]
        if page.startswith("api/"):  # a module without a chapter: its API reference page
            assert page[len("api/"):] in public_modules(), link
        else:
            assert (ROOT / "docs" / f"{page}.md").is_file(), link


def test_the_link_goes_to_the_chapter_of_the_module_registering_the_scheme() -> None:
    assert _docs.docs_link("php-urlencode") == "/docs/legacy.html"
    assert _docs.docs_link("application/x-www-form-urlencoded") == "/docs/forms.html"
    assert _docs.docs_link("rfc3986-path-segment") == "/docs/rfc3986.html"
    assert _docs.docs_link("ecmascript-encodeURIComponent") == "/docs/ecmascript.html"
    assert _docs.docs_link("whatwg-component") == "/docs/core.html"


def test_a_published_site_can_be_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PERCENT_ENCODING_DOCS_URL", "https://docs.example/pe")
    assert _docs.docs_link("php-urlencode") == "https://docs.example/pe/legacy.html"
    primary = api_convert("a", decode=False, scheme="oauth1")["primary"]
    assert primary["docs"] == "https://docs.example/pe/oauth1.html"


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    site = tmp_path / "site"
    (site / "guides").mkdir(parents=True)
    (site / "index.html").write_text("<p>start</p>", "utf-8")
    (site / "guides" / "cli.html").write_text("<p>cli</p>", "utf-8")
    (site / "conf.py").write_text("secret", "utf-8")  # not a type the site is served as
    (tmp_path / "outside.html").write_text("outside", "utf-8")
    monkeypatch.setenv("PERCENT_ENCODING_DOCS_DIR", str(site))
    # its own server (the shared web_server fixture has no site): the one serving() helper
    with serving(make_server("127.0.0.1", 0)) as srv:
        yield srv


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_the_server_sends_the_built_site(server: Server) -> None:
    base = server.url
    assert _get(base + "docs/") == (200, "<p>start</p>")
    assert _get(base + "docs/guides/cli.html") == (200, "<p>cli</p>")
    # The site's pages get the theme's inline styles and script; the tool's pages do not.
    with urllib.request.urlopen(base + "docs/index.html", timeout=30) as r:
        assert r.headers["Content-Security-Policy"] == _docs.DOCS_CSP
    with urllib.request.urlopen(base, timeout=30) as r:
        assert "unsafe-inline" not in r.headers["Content-Security-Policy"]
    for path in ("docs/conf.py", "docs/../outside.html", "docs/%2E%2E/outside.html",
                 "docs/guides/../../outside.html", "docs/nothing.html"):
        status, _body = _get(base + path)
        assert status == 404, path


def test_without_a_built_site_the_answer_says_how_to_build_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PERCENT_ENCODING_DOCS_DIR", str(tmp_path / "none"))
    with serving(make_server("127.0.0.1", 0)) as srv:
        status, body = _get(srv.url + "docs/")
    assert status == 404 and "./dev docs" in body
