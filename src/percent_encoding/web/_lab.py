"""The web tool's form lab: a real HTML form in a chosen page encoding, and what came back.

:func:`_lab_form_page` serves one form in the chosen encoding (unmappable characters as
``&#N;``, the Encoding Standard's "html" error mode, §7); the browser then does HTML's
form submission (HTML §4.10.22: selecting a form submission encoding from
``accept-charset`` or the page, constructing the entry list with the ``_charset_``
field, the urlencoded, text/plain or multipart/form-data encoding algorithm), and
:func:`_lab_echo_page` shows the raw bytes it sent, decoded by ``form.parse`` (URL
Standard §5.1), as text/plain lines or as RFC 7578 parts, and what charset detection
makes of them.  A multipart body's boundary is the browser's choice: the echo page
shows it (``data-boundary``) so the tool predicts the body with the same one.  Everything from the
request reaches the HTML through :func:`html.escape`.
"""

from __future__ import annotations

import html
import re
from http import HTTPStatus

from .. import core
from ..errors import PercentEncodingError
from ._httputil import MAX_LISTED, HTTPError

# HTML §4.10.21.7 "form submission": the form's enctype states.
ENCTYPES = ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data")
# RFC 7578 §4.1 / RFC 2046 §5.1.1: the Content-Type's boundary parameter, maybe quoted.
_BOUNDARY_PARAM = re.compile(r';\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))', re.IGNORECASE)
# RFC 7578 §4.2: the part's field name (HTML escapes '"' in it as %22, so no quotes inside).
_PART_NAME = re.compile(rb'^content-disposition:[^\r\n]*?;\s*name="([^"]*)"',
                        re.IGNORECASE | re.MULTILINE)
# Encodings a page can be served in: UTF-16 pages submit UTF-8 and "replacement"
# cannot encode anything (Encoding Standard §4.3), so the lab leaves them out.
NOT_FOR_PAGES = frozenset({"replacement", "UTF-16BE", "UTF-16LE"})


def page_encoding(label: str | None, default: str | None = "UTF-8") -> str | None:
    if not label or label == "-":
        return default
    from ..encodings import lookup

    try:
        name = lookup(label).name
    except PercentEncodingError as e:
        raise HTTPError(HTTPStatus.BAD_REQUEST, str(e)) from None
    if name in NOT_FOR_PAGES:
        raise HTTPError(HTTPStatus.BAD_REQUEST, f"the lab cannot serve a page in {name}")
    return name


def enctype(value: str | None) -> str:
    kind = (value or ENCTYPES[0]).strip().lower()
    if kind not in ENCTYPES:
        raise HTTPError(
            HTTPStatus.BAD_REQUEST, f"enctype must be one of {', '.join(ENCTYPES)}, not {value!r}"
        )
    return kind


_SHOWN = {0x5C: "\\\\", 0x0D: "\\r", 0x0A: "\\n"}


def show_bytes(raw: bytes) -> str:
    """Bytes as text a person can compare: printable ASCII as it is; CR, LF and backslash
    as ``\\r``, ``\\n`` and ``\\\\`` (an HTML page would fold CRLF into LF); any other
    byte as ``\\xHH``."""
    if raw.isascii() and raw.decode("ascii").isprintable() and b"\\" not in raw:
        return raw.decode("ascii")
    return "".join(
        chr(b) if 0x20 <= b < 0x7F and b != 0x5C else _SHOWN.get(b, f"\\x{b:02x}") for b in raw
    )


def lab_form_page(
    charset: str,
    accept: str | None,
    method: str,
    value: str,
    auto: bool,
    enctype: str = "application/x-www-form-urlencoded",
) -> bytes:
    """An HTML page encoded in ``charset`` (with ``<meta charset>``) holding one form that
    submits ``value`` and a ``_charset_`` field to ``/lab/echo``; its bytes.

    ``charset``/``accept`` are canonical names (:func:`_page_encoding`) and ``enctype`` one
    of :data:`ENCTYPES` (:func:`_enctype`): the request handler checks them first.
    """
    from ..encodings import encode as encode_text

    e = html.escape
    method = "get" if method.lower() == "get" else "post"
    action = f"/lab/echo/{charset}/{accept or '-'}"
    accept_attr = f' accept-charset="{e(accept)}"' if accept else ""
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="{e(charset)}">
<title>form lab: {e(charset)}</title>
<link rel="stylesheet" href="/static/app.css">
<script src="/static/lab.js" defer></script>
</head><body class="lab-page" data-auto="{'1' if auto else '0'}">
<p class="lab-note">This page is encoded in <b>{e(charset)}</b>{
        f"; the form says <code>accept-charset=&quot;{e(accept)}&quot;</code>" if accept else ""}{
        f" and <code>enctype=&quot;{e(enctype)}&quot;</code>" if enctype != ENCTYPES[0] else ""}.
Submitting it sends what a browser really sends.</p>
<form id="labform" method="{method}" action="{e(action)}"{accept_attr}
      enctype="{e(enctype)}">
<input type="hidden" name="_charset_">
<label>text <input name="text" value="{e(value)}" size="30"></label>
<button type="submit">Submit ({method.upper()})</button>
</form>
</body></html>
"""
    # Characters the page's encoding lacks become &#N; references (Encoding
    # Standard §7 "html" error mode), which the browser turns back into characters.
    return encode_text(page, encoding=charset, errors="html")


Rows = list[tuple[str, str, bytes, str]]


def _urlencoded_fields(raw: bytes) -> list[bytes]:
    # The URL Standard's parser (§5.1) skips empty sequences between "&"s, so the
    # non-empty ones are the fields, in order.
    return [seq for seq in raw.split(b"&") if seq]


def _urlencoded_rows(raw: bytes, encoding: str) -> tuple[Rows, int]:
    """(name, value, value bytes, value read as UTF-8) for each of the first
    :data:`MAX_LISTED` fields of a urlencoded body, and how many fields it has."""
    from ..form import parse

    seqs = _urlencoded_fields(raw)
    shown = b"&".join(seqs[:MAX_LISTED])  # the parser splits on "&": same first fields
    pairs = parse(shown, encoding=encoding)
    utf8_pairs = parse(shown, encoding="UTF-8")
    rows = [
        (name, value, core.decode(seq.partition(b"=")[2], plus_as_space=True), v8)
        for (name, value), (_n8, v8), seq in zip(pairs, utf8_pairs, seqs, strict=False)
    ]
    return rows, len(seqs)


def _text_plain_rows(raw: bytes, encoding: str) -> tuple[Rows, int]:
    """The same for a text/plain body: HTML's text/plain encoding algorithm writes
    ``name=value`` CRLF lines in the form's encoding, with no escaping at all (so a value
    holding "=" or a newline cannot be read back unambiguously: HTML says as much)."""
    from ..encodings import lookup

    enc = lookup(encoding)
    utf8 = lookup("UTF-8")
    lines = [line for line in raw.split(b"\r\n") if line]
    rows: Rows = []
    for line in lines[:MAX_LISTED]:
        name, _, value = line.partition(b"=")
        rows.append((enc.decode(name), enc.decode(value), value, utf8.decode(value)))
    return rows, len(lines)


def _multipart_boundary(content_type: str) -> str | None:
    """The ``boundary`` parameter of a multipart Content-Type header, or ``None``."""
    m = _BOUNDARY_PARAM.search(content_type)
    return (m.group(1) or m.group(2)) if m else None


def _multipart_rows(raw: bytes, boundary: str, encoding: str) -> tuple[Rows, int]:
    """The same for a multipart/form-data body (RFC 7578 §4, RFC 2046 §5.1.1): each part
    between the ``--boundary`` delimiters, its name from Content-Disposition (still
    escaped as HTML's multipart algorithm wrote it: ``%22``, ``%0D``, ``%0A``)."""
    from ..encodings import lookup

    enc = lookup(encoding)
    utf8 = lookup("UTF-8")
    delimiter = b"--" + boundary.encode("latin-1")
    rows: Rows = []
    parts = 0
    # Parts follow CRLF delimiter lines; the body starts with the first delimiter.
    for chunk in (b"\r\n" + raw).split(b"\r\n" + delimiter)[1:]:
        if chunk.startswith(b"--"):
            break  # the close delimiter
        head, sep, value = chunk.partition(b"\r\n\r\n")
        if not sep:
            continue
        parts += 1
        if len(rows) < MAX_LISTED:
            m = _PART_NAME.search(head)
            name = m.group(1) if m else b""
            rows.append((enc.decode(name), enc.decode(value), value, utf8.decode(value)))
    return rows, parts


def lab_echo_page(
    method: str, raw: bytes, content_type: str, page: str, accept: str | None
) -> bytes:
    """The page showing the raw bytes a form submission carried and how they decode (UTF-8).

    ``page``/``accept`` are canonical encoding names (the request handler checks them).
    """
    e = html.escape
    # HTML §4.10.21.5: the submission encoding is accept-charset's first known
    # label, else the document's encoding; a UTF-16 or replacement one is UTF-8.
    used = accept or page
    sent = show_bytes(raw)
    # A GET submission always puts the urlencoded form in the query, whatever the enctype.
    kind = content_type.split(";")[0].strip().lower() if method == "POST" else ""
    boundary = _multipart_boundary(content_type) if kind == "multipart/form-data" else None
    plain = kind in ("text/plain", "multipart/form-data")
    if boundary is not None:
        (fields, total), how = _multipart_rows(raw, boundary, used), "multipart/form-data parts"
    elif plain:
        (fields, total), how = _text_plain_rows(raw, used), "text/plain lines"
    else:
        (fields, total), how = _urlencoded_rows(raw, used), "form.parse"
    boundary_note = raw_attr = ""
    if boundary is not None:
        boundary_note = ('<p class="lab-note">The browser chose the multipart boundary '
                         f'<code id="lab-boundary">{e(boundary)}</code>.</p>\n')
        raw_attr = f' data-boundary="{e(boundary)}"'
    rows = [
        f"<tr><td><code>{e(name)}</code></td><td class='val'>{e(value)}</td>"
        f"<td><code>{e(value_bytes.hex(' '))}</code></td><td class='moji'>{e(v8)}</td></tr>"
        for name, value, value_bytes, v8 in fields
    ]
    if total > len(fields):
        rows.append(f"<tr><td colspan='4' id='lab-more'>… and {total - len(fields):,} more "
                    f"fields ({total:,} in all; the first {len(fields)} are shown)</td></tr>")
    doc = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>form lab: what the browser sent</title>
<link rel="stylesheet" href="/static/app.css"></head>
<body class="lab-page">
<dl class="lab-facts">
<dt>page encoding</dt><dd id="lab-page-enc">{e(page)}</dd>
<dt>accept-charset</dt><dd>{e(accept) if accept else "(none)"}</dd>
<dt>method</dt><dd>{e(method)}</dd>
<dt>Content-Type</dt><dd><code>{e(content_type) or "(none)"}</code></dd>
</dl>
<h3>The browser sent</h3>
{boundary_note}<pre id="lab-raw" class="raw"{raw_attr}>{e(sent)}</pre>
<h3>Decoded as {e(used)} <small>({e(how)})</small></h3>
<table class="lab-table"><thead><tr><th>name</th><th>value</th><th>bytes</th>
<th>same bytes read as UTF-8</th></tr></thead>
<tbody id="lab-pairs">{"".join(rows)}</tbody></table>
{"" if plain else _lab_detected(raw, content_type, total)}
</body></html>
"""
    return doc.encode("utf-8")


def _lab_detected(raw: bytes, content_type: str, total: int) -> str:
    """What charset detection makes of the submission, field by field
    (``detect.parse_form(per_field=True)``, with the Content-Type's
    ``charset=`` as a hint when there is one), as an HTML section; of the first
    :data:`MAX_LISTED` of its ``total`` fields when it has more."""
    from .. import detect

    e = html.escape
    m = re.search(r';\s*charset\s*=\s*"?([^";\s]+)', content_type, re.IGNORECASE)
    if total > MAX_LISTED:  # per-field detection of 300K fields: seconds and megabytes
        raw = b"&".join(_urlencoded_fields(raw)[:MAX_LISTED])
    try:
        found = detect.parse_form(raw, per_field=True,
                                  content_type_charset=m.group(1) if m else None)
    except PercentEncodingError as exc:
        return f"<p class='lab-note'>detection failed: {e(str(exc))}</p>"
    whole = found.charset
    rows = "".join(
        f"<tr><td><code>{e(n)}</code></td><td class='val'>{e(v)}</td>"
        f"<td>{e(g.encoding)}</td><td>{e(g.reason)}</td></tr>"
        for (n, v), g in zip(found, found.fields, strict=True)
    )
    notes = "".join(f"<li>{e(f)}</li>" for f in whole.findings)
    which = f", the first {MAX_LISTED} of {total:,} fields" if total > MAX_LISTED else ""
    return f"""<h3>Detected without being told <small>(detect.parse_form,
per_field=True{which})</small></h3>
<p id="lab-detected">{e(whole.encoding)} (confidence {whole.confidence:.2f}): {e(whole.reason)}</p>
{f'<ul id="lab-findings">{notes}</ul>' if notes else ""}
<table class="lab-table"><thead><tr><th>name</th><th>value</th><th>charset</th>
<th>why</th></tr></thead><tbody id="lab-detected-pairs">{rows}</tbody></table>"""

