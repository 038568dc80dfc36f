"""A small Markdown-to-HTML renderer for the docs pages the web tool serves without Sphinx.

An installed copy of the tool (``pip install``, ``pipx``, a wheel) has no built docs site:
it carries the chapters' Markdown instead (``docs/*.md``, copied into the wheel by
``setup.py``), and :mod:`._docs` renders them with this module when a docs link is
followed.  It covers the subset of CommonMark (https://spec.commonmark.org/) the chapters
use, plus GitHub's pipe tables and the two MyST directives ``{toctree}`` and
``{include}``: ATX headings (with the anchors ``docs/conf.py`` gives them), paragraphs,
fenced code, bullet and ordered lists with nested blocks, block quotes, tables, code spans,
emphasis, links and autolinks.  Everything from the source goes through
:func:`html.escape`; a link's target is kept only when it is relative or ``http(s)``.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

# A link target relative to the page ("guides/cli.md#x"), returned as the page's href.
LinkFn = Callable[[str], str]
# A directive's body and argument, returned as HTML ({include}, {toctree}).
DirectiveFn = Callable[[str, str, list[str]], str]

_FENCE = re.compile(r"^( {0,3})(`{3,}|~{3,}|:{3,})\s*(.*)$")
_HEADING = re.compile(r"^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^( {0,3})([-*+]|\d{1,9}[.)])(\s+|$)")
_RULE = re.compile(r"^ {0,3}([-*_])(\s*\1){2,}\s*$")
_TABLE_SEP = re.compile(r"^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$")
_COMMENT = re.compile(r"<!--.*?-->", re.S)


def slug(text: str) -> str:
    """The anchor of a heading, as MyST's ``myst_heading_anchors`` makes it (GitHub's rule:
    lower case, punctuation dropped, spaces to ``-``)."""
    text = re.sub(r"<[^>]+>", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _safe_href(target: str) -> str | None:
    # Relative links, in-page anchors and http(s)/mailto URLs; nothing else (javascript:...).
    scheme = re.match(r"([A-Za-z][A-Za-z0-9+.-]*):", target)
    if scheme and scheme.group(1).lower() not in ("http", "https", "mailto"):
        return None
    return target


# One pass, leftmost first: a code span (nothing inside is markup), a link (its label may
# hold code) or an image, an autolink, or MyST's {doc}`label <target>` role.
_INLINE = re.compile(
    r"(?<!\\)(?P<ticks>`+)(?P<code>.+?)(?<!`)(?P=ticks)(?!`)"
    r"|(?P<bang>!?)\[(?P<label>(?:[^\[\]]|\[[^\]]*\])*)\]\((?P<target>[^()\s]*(?:\([^()\s]*\))?[^()\s]*)\)"
    r"|<(?P<auto>https?://[^>\s]+)>"
    r"|\{doc\}`(?P<doclabel>[^`<]*?)\s*<(?P<doc>[^`>]+)>`",
    re.S,
)


def _inline(text: str, link: LinkFn) -> str:
    out: list[str] = []
    pos = 0
    for m in _INLINE.finditer(text):
        out.append(_emphasis(html.escape(_unescape_md(text[pos:m.start()]), quote=False)))
        pos = m.end()
        if m.group("code") is not None:
            code = m.group("code")
            if code.startswith(" ") and code.endswith(" ") and code.strip():
                code = code[1:-1]
            out.append(f"<code>{html.escape(code)}</code>")
            continue
        if m.group("auto") is not None:
            url = html.escape(m.group("auto"))
            out.append(f'<a href="{url}">{url}</a>')
            continue
        if m.group("doc") is not None:
            inner, target = html.escape(m.group("doclabel")), m.group("doc") + ".md"
        else:
            inner, target = _inline(m.group("label"), link), m.group("target")
        href = _safe_href(target)
        if m.group("bang"):
            # An image: its alt text alone unless ``link`` gives a source for it.
            src = link(href) if href is not None and not re.match(
                r"[A-Za-z][A-Za-z0-9+.-]*:|#", href) else ""
            alt = html.escape(m.group("label"))
            out.append(f'<img src="{html.escape(src)}" alt="{alt}">' if src else alt)
            continue
        if href is None:
            out.append(inner)
            continue
        if not re.match(r"[A-Za-z][A-Za-z0-9+.-]*:|#", href):
            href = link(href)
        out.append(f'<a href="{html.escape(href)}">{inner}</a>')
    out.append(_emphasis(html.escape(_unescape_md(text[pos:]), quote=False)))
    return "".join(out)


def _unescape_md(text: str) -> str:
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def _emphasis(escaped: str) -> str:
    escaped = re.sub(r"\*\*(?=\S)(.+?)(?<=\S)\*\*", r"<strong>\1</strong>", escaped)
    escaped = re.sub(r"(?<![\w*])\*(?=[^\s*])(.+?)(?<=[^\s*])\*(?![\w*])", r"<em>\1</em>",
                     escaped)
    return re.sub(r"(?<![\w])_(?=\S)([^_]+?)(?<=\S)_(?![\w])", r"<em>\1</em>", escaped)


def _cells(row: str) -> list[str]:
    row = row.strip()
    row = row[1:] if row.startswith("|") else row
    row = row[:-1] if row.endswith("|") and not row.endswith("\\|") else row
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row)]


def _is_block_start(line: str) -> bool:
    return bool(_FENCE.match(line) or _HEADING.match(line) or _BULLET.match(line)
                or line.lstrip().startswith(">") or _RULE.match(line))


def render(source: str, link: LinkFn, directive: DirectiveFn | None = None) -> str:
    """The HTML of ``source`` (Markdown): ``link`` maps each relative link target to an href,
    ``directive(name, argument, body_lines)`` renders a MyST directive (empty when None)."""
    return _blocks(_COMMENT.sub("", source).splitlines(), link, directive)


def _blocks(lines: list[str], link: LinkFn, directive: DirectiveFn | None) -> str:
    out: list[str] = []
    i = 0
    n = len(lines)
    while i < n:
        line = lines[i]
        if not line.strip():
            i += 1
            continue
        if m := _FENCE.match(line):
            indent, fence, info = m.groups()
            body: list[str] = []
            i += 1
            while i < n and not re.match(
                    rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*$", lines[i]):
                body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i])
                i += 1
            i += 1  # the closing fence
            name = re.match(r"\{([\w-]+)\}\s*(.*)", info)
            if name:
                if directive is not None:
                    out.append(directive(name.group(1), name.group(2).strip(), body))
            else:
                lang = info.split()[0] if info.split() else ""
                cls = f' class="language-{html.escape(lang)}"' if lang else ""
                out.append(f'<pre tabindex="0"><code{cls}>'
                           f"{html.escape(chr(10).join(body))}</code></pre>")
            continue
        if m := _HEADING.match(line):
            level = len(m.group(1))
            text = m.group(2)
            out.append(f'<h{level} id="{html.escape(slug(text))}">{_inline(text, link)}'
                       f"</h{level}>")
            i += 1
            continue
        if _RULE.match(line):
            out.append("<hr>")
            i += 1
            continue
        if line.lstrip().startswith("|") and i + 1 < n and _TABLE_SEP.match(lines[i + 1]):
            head = _cells(line)
            i += 2
            rows = []
            while i < n and lines[i].lstrip().startswith("|"):
                rows.append(_cells(lines[i]))
                i += 1
            th = "".join(f"<th>{_inline(c, link)}</th>" for c in head)
            trs = "".join("<tr>" + "".join(f"<td>{_inline(c, link)}</td>" for c in r) + "</tr>"
                          for r in rows)
            out.append(f'<div class="table" tabindex="0"><table><thead><tr>{th}</tr></thead>'
                       f"<tbody>{trs}</tbody></table></div>")
            continue
        if line.lstrip().startswith(">"):
            quoted: list[str] = []
            while i < n and lines[i].strip() and (lines[i].lstrip().startswith(">") or quoted):
                if _is_block_start(lines[i]) and not lines[i].lstrip().startswith(">"):
                    break
                quoted.append(re.sub(r"^\s*> ?", "", lines[i]))
                i += 1
            out.append(f"<blockquote>{_blocks(quoted, link, directive)}</blockquote>")
            continue
        if m := _BULLET.match(line):
            i = _list(lines, i, out, link, directive)
            continue
        para = [line.strip()]
        i += 1
        while i < n and lines[i].strip() and not _is_block_start(lines[i]):
            para.append(lines[i].strip())
            i += 1
        out.append(f"<p>{_inline(chr(10).join(para), link)}</p>")
    return "\n".join(out)


def _list(lines: list[str], i: int, out: list[str], link: LinkFn,
          directive: DirectiveFn | None) -> int:
    first = _BULLET.match(lines[i])
    assert first is not None
    ordered = first.group(2)[0].isdigit()
    items: list[list[str]] = []
    n = len(lines)
    while i < n:
        m = _BULLET.match(lines[i])
        if m is None or m.group(2)[0].isdigit() != ordered:
            break
        width = len(m.group(0)) if m.group(3) else len(m.group(0)) + 1
        item = [lines[i][width:]]
        i += 1
        in_fence = bool(_FENCE.match(item[0]))
        while i < n:
            nxt = lines[i]
            indented = len(nxt) - len(nxt.lstrip()) >= width
            if in_fence or indented or not nxt.strip():
                if not nxt.strip():
                    # A blank line ends the item unless indented content follows it.
                    j = i
                    while j < n and not lines[j].strip():
                        j += 1
                    if not in_fence and (j == n or len(lines[j]) - len(lines[j].lstrip())
                                         < width):
                        i = j
                        break
                item.append(nxt[width:] if indented else nxt.strip())
                if _FENCE.match(nxt[width:] if indented else nxt):
                    in_fence = not in_fence
                i += 1
                continue
            if _is_block_start(nxt):
                break
            item.append(nxt.strip())  # a lazy continuation line of the paragraph
            i += 1
        items.append(item)
    tag = "ol" if ordered else "ul"
    inner = []
    for item in items:
        body = _blocks(item, link, directive)
        if body.startswith("<p>") and body.count("<p>") == 1:
            body = body[3:].replace("</p>", "", 1)  # a tight item: no paragraph around it
        inner.append(f"<li>{body}</li>")
    out.append(f"<{tag}>{''.join(inner)}</{tag}>")
    return i
