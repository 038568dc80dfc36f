"""The web tool links each scheme to its page of the docs site, and serves the built site
at ``/docs/`` from a fixed list of its files, or, without one (an installed copy), the
chapters rendered from their Markdown (web/_docs.py, web/_markdown.py)."""

from __future__ import annotations

import base64
import html as _html
import posixpath
import re
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

from helpers.public_modules import public_modules
from helpers.web import serving
from percent_encoding import schemes
from percent_encoding.web import _docs, _markdown
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
    assert _docs.docs_link("mailto-address") == "/docs/mailto.html"
    assert _docs.docs_link("rfc2533-string") == "/docs/tcn.html"


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


def test_without_a_built_site_the_chapters_are_rendered_from_their_markdown(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # An installed copy has no site/: the same paths answer, from docs/*.md (the wheel's copy,
    # or here the checkout's), with the docs' security policy.
    monkeypatch.setenv("PERCENT_ENCODING_DOCS_DIR", str(tmp_path / "none"))
    with serving(make_server("127.0.0.1", 0)) as srv:
        status, body = _get(srv.url + "docs/")
        assert status == 200 and "<h1" in body and "guides/encode.html" in body
        with urllib.request.urlopen(srv.url + "docs/forms.html", timeout=30) as r:
            assert r.headers["Content-Security-Policy"] == _docs.DOCS_CSP
            assert r.headers["Content-Type"] == "text/html; charset=utf-8"
        rows = api_convert("a b", decode=False)["results"]
        for link in sorted({r["docs"] for r in rows}):
            assert _get(srv.url + link.lstrip("/"))[0] == 200, link
        for path in ("docs/../setup.py", "docs/%2E%2E/pyproject.toml", "docs/nothing.html",
                     "docs/guides/../../README.md", "docs/api/os.html", "docs/conf.py",
                     "docs/index.md"):
            assert _get(srv.url + path)[0] == 404, path


@pytest.fixture(scope="module")
def rendered() -> dict[str, str]:
    """Every page the tool renders without a built site, by its path below /docs/."""
    root = _docs.markdown_root()
    assert root is not None
    # The API pages import their modules: the ones without an engine to import are enough
    # here (test_installed_docs.py fetches them all).
    names = [*sorted(_docs._markdown_pages(root)), "api/index.html",
             *(f"api/percent_encoding.{m}.html" for m in ("url", "mailto", "tcn", "form"))]
    pages = {}
    for name in names:
        page = _docs.rendered_page(name)
        assert page is not None, name
        pages[name] = page.decode()
    return pages


def test_every_link_between_rendered_pages_and_its_anchor_resolve(
        rendered: dict[str, str]) -> None:
    # The chapters link each other as x.md#heading; rendered, each must reach a page and
    # an id on it (the anchors follow MyST's rule, as on the built site).
    broken = []
    for name, body in rendered.items():
        ids = set(re.findall(r'\bid="([^"]+)"', body))
        for href in re.findall(r'<a href="([^"]+)"', body):
            if re.match(r"[a-z]+:", href):
                continue
            target, _, frag = href.partition("#")
            page = posixpath.normpath(posixpath.join(posixpath.dirname(name), target)) \
                if target else name
            if page not in rendered:
                if page.startswith("api/percent_encoding.") and _docs.rendered_page(page):
                    continue  # an API page rendered on demand (the fixture has a few)
                broken.append(f"{name}: {href}")
            elif frag and frag not in (ids if page == name else
                                       set(re.findall(r'\bid="([^"]+)"', rendered[page]))):
                broken.append(f"{name}: {href} (no such anchor)")
    assert not broken, broken[:20]


def test_rendered_pages_escape_what_they_show(rendered: dict[str, str]) -> None:
    forms = rendered["forms.html"]
    assert "<h1" in forms and "&gt;&gt;&gt; " in forms and "<table>" in forms
    assert "<script" not in "".join(rendered.values())
    out = _markdown.render(
        "# T <b>\n\n[x](javascript:alert(1)) [y](a.md#b) `<i>` **s** <!-- c -->\n\n"
        "| a | b |\n|---|---|\n| `p\\|q` | r |\n\n- one\n\n  ```\n  <x>\n  ```\n",
        lambda t: "L/" + t)
    assert '<h1 id="t">T &lt;b&gt;</h1>' in out
    assert "javascript" not in out and ">x<" not in out.replace("x</", "")
    assert '<a href="L/a.md#b">y</a>' in out and "<code>&lt;i&gt;</code>" in out
    assert "<strong>s</strong>" in out and "c -->" not in out
    assert "<td><code>p|q</code></td><td>r</td>" in out
    assert '<li>one\n<pre tabindex="0"><code>&lt;x&gt;</code></pre></li>' in out


def test_the_api_pages_come_from_the_docstrings(rendered: dict[str, str]) -> None:
    page = rendered["api/percent_encoding.url.html"]
    assert 'id="percent_encoding.url.parse"' in page
    from percent_encoding import url

    first_line = (url.parse.__doc__ or "").strip().splitlines()[0]
    assert _html.escape(first_line, quote=False) in page


def test_images_are_inline_figures_or_their_alt_text(rendered: dict[str, str]) -> None:
    # A figure of the chapters (docs/_static/*.svg) is shown as a data: URI, from the
    # chapter and from bench/README.md as the benchmarks page includes it (../docs/...):
    # no request the tool would have to serve, so no dead link.  Anything else, and an
    # image whose file is not there, is its alt text.
    svg = sorted((Path(_docs.markdown_root() or ".") / "docs" / "_static").glob("*.svg"))
    assert svg, "docs/_static holds the figures"
    for page in ("speed.html", "benchmarks.html"):
        imgs = re.findall(r'<img src="([^"]+)" alt="([^"]+)">', rendered[page])
        assert imgs, page
        for src, alt in imgs:
            assert src.startswith("data:image/svg+xml;base64,") and alt, page
            assert base64.b64decode(src.split(",", 1)[1]).lstrip().startswith(b"<?xml")
    out = _markdown.render("![a <b>](x.png) ![c](javascript:x) ![d](../../etc/passwd.svg)",
                           lambda t: "")
    assert out.strip() == "<p>a &lt;b&gt; c d</p>"
    assert _docs._svg_data("../../../pyproject.toml.svg", "speed.html") == ""
    assert _docs._svg_data("_static/none.svg", "speed.html") == ""
