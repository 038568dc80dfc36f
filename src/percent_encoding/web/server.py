"""A small local HTTP server for the web tool (``percent serve``).

Strategy: the standard library's :class:`http.server.ThreadingHTTPServer` and a
hand-written router of a dozen routes — the library keeps zero runtime
dependencies and there is nothing a framework would add here.  The page
(``static/index.html``) is a static file; its JavaScript fills it from the JSON
API, setting user data with ``textContent``/``value`` only, so no user input
ever reaches HTML unescaped.  The only server-generated HTML is the form lab's
(:func:`_lab_form_page`, :func:`_lab_echo_page`), where everything from the
request goes through :func:`html.escape`.  Every conversion and analysis is
:mod:`percent_encoding._tool`'s, shared with the CLI.

Routes::

    GET  /                         the page (state from ?input=&scheme=&mode=&encoding=)
    GET  /static/<file>            CSS, JavaScript, icon
    GET  /api/schemes              registry, encode sets, encodings
    GET|POST /api/encode           {input, encoding?, scheme?} -> every scheme's result
    GET|POST /api/decode           same, decoding; plus what percent_encoding.detect says
                                   about it in {context?} (query, form, path, fragment, ...)
    GET  /api/compare[?schemes=a,b]  schemes.compare (the ASCII x schemes grid)
    GET  /url                      the URL view (static/url.html)
    GET|POST /api/url              {input, base?} -> the URL parser's components, sets, errors
    GET|POST /api/form-body        {value, encoding, enctype?, boundary?} ->
                                   form.html_form_body's prediction
    GET  /lab/form?charset=&accept=&method=&enctype=&value=&auto=   a real HTML form in
                                   that charset
    GET|POST /lab/echo/<charset>/<accept>   the raw bytes the browser sent, decoded

Safety (docs/web.md, "What the server refuses"): binds 127.0.0.1 by default;
malformed framing gets 400 (no version on the request line, no or two ``Host`` headers,
differing ``Content-Length`` s, JSON nested too deep); a ``Host`` that is not the bound
address or ``localhost`` with the port (DNS rebinding), an ``Origin`` that is not the
tool's own and a ``Sec-Fetch-Site`` of another site get 403 (:mod:`._guard`); an API
``POST`` must be ``application/json`` (415), which no other page can send without asking
first (CORS); request bodies over :data:`MAX_BODY` get 413; inputs over
:data:`MAX_EVERY_SCHEME` characters get the chosen scheme's result only, cut at
:data:`MAX_OUTPUT` with a note; every list in an answer stops at :data:`MAX_LISTED`
items plus a count, so no answer exceeds :data:`MAX_RESPONSE` bytes; every response,
errors from the standard library's request parsing included, carries a strict
Content-Security-Policy (``default-src 'self'``), ``X-Content-Type-Options: nosniff`` and
``X-Frame-Options: SAMEORIGIN``.

This module holds the JSON API (plain functions of plain data), the router and the
server; the form lab's pages are in :mod:`._lab` and the shared HTTP pieces (the error
type, the security policy, the static files) in :mod:`._httputil`, re-exported here.
"""

from __future__ import annotations

import html
import io
import json
import signal
import socket
import sys
import threading
import time
import traceback
import webbrowser
from functools import lru_cache
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from .. import __version__, core, schemes
from .. import sets as _sets
from .._tool import (
    NotApplicableError,
    compare_data,
    decode_with,
    detect_report,
    encode_with,
    plain_profile,
    resolve_scheme,
    url_report,
)
from ..errors import PercentEncodingError, UnknownSchemeError
from ._docs import DOCS_CSP, docs_link, rendered_page, site_files, site_type
from ._guard import allowed_hosts as _allowed_hosts
from ._guard import foreign_request as _foreign_request
from ._guard import framing_error as _framing_error
from ._guard import is_json as _is_json
from ._httputil import CSP as CSP
from ._httputil import MAX_LISTED as MAX_LISTED
from ._httputil import STATIC as STATIC
from ._httputil import TYPES as _TYPES
from ._httputil import HTTPError as HTTPError
from ._httputil import json_type as _json_type
from ._httputil import static_files as _static_files
from ._lab import ENCTYPES as ENCTYPES
from ._lab import (
    NOT_FOR_PAGES as _NOT_FOR_PAGES,
)
from ._lab import (
    enctype as _enctype,
)
from ._lab import (
    lab_echo_page as _lab_echo_page,
)
from ._lab import (
    lab_form_page as _lab_form_page,
)
from ._lab import (
    page_encoding as _page_encoding,
)
from ._lab import (
    show_bytes as _show_bytes,
)

__all__ = ["MAX_BODY", "make_server", "serve"]

#: The largest request body the web tool reads, in bytes (larger ones get 413).
MAX_BODY = 1 << 20  # 1 MiB: far above any text a person pastes, far below a memory problem
MAX_QUERY_INPUT = 64 * 1024
MAX_ANALYSIS = 50_000  # characters; percent_encoding.detect on more is left to the CLI
# Work and response per request: every scheme's result (dozens of them) only for
# inputs up to MAX_EVERY_SCHEME characters; the chosen scheme's for any body, its
# output cut at MAX_OUTPUT characters with a note saying so (docs/limits.md).
MAX_EVERY_SCHEME = 64 * 1024
MAX_OUTPUT = 1 << 20
# Every scheme's results together: once their JSON passes this many bytes, the rest
# are left out (and not computed), with a note.
RESULTS_BUDGET = 2 << 20
#: The URL view's largest input (and base), in characters: its report holds the URL
#: several times over (href, components) and the parser keeps every validation error.
MAX_URL_INPUT = 64 * 1024
# Every list in an answer (validation errors, findings, changed characters, the form
# lab's fields) shows its first MAX_LISTED items (from ._httputil) and the total.
#: No answer is larger than this many bytes (the limits above keep each route under it;
#: this is the last line, should one of them ever miss).
MAX_RESPONSE = 16 << 20
# Where a form's data lives, for the analysis (detect.diagnose's contexts); the page
# offers these, the API takes any context diagnose knows.
CONTEXTS = ("query", "form", "path", "fragment", "component")


# ---------------------------------------------------------------------------
# The API: plain functions of plain data (tested without HTTP as well)
# ---------------------------------------------------------------------------


def _encoding_names() -> list[str]:
    from ..encodings import names

    return list(names())


def api_schemes() -> dict[str, Any]:
    """The registry, the encode-set names and the encodings, for the page's menus."""
    return {
        "version": __version__,
        "schemes": [s.describe() for s in schemes.all_schemes()],
        "sets": [{"name": n, "spec": _sets.get(n).spec or ""} for n in _sets.names()],
        "encodings": _encoding_names(),
        "page_encodings": [n for n in _encoding_names() if n not in _NOT_FOR_PAGES],
        "contexts": list(CONTEXTS),
        "enctypes": list(ENCTYPES),
        # The page checks a request's size before sending it, and says what to use instead.
        "limits": {"max_body": MAX_BODY, "max_url_input": MAX_URL_INPUT},
    }


def _label(encoding: str | None) -> str:
    enc = (encoding or "utf-8").strip() or "utf-8"
    if enc == "auto":
        return enc
    from ..encodings import lookup

    try:
        return lookup(enc).name
    except PercentEncodingError as e:
        raise HTTPError(HTTPStatus.BAD_REQUEST, str(e)) from None


def _cli_hint(path: str) -> str:
    """The ``percent`` command that does what ``path`` does, for any size of input."""
    return {
        "/api/encode": "percent encode < input.txt",
        "/api/decode": "percent decode < input.txt",
        "/api/url": "percent url --json 'URL'",
        "/api/form-body": "percent form build 'text=VALUE'",
    }.get(path, "percent form parse < body.txt")  # the form lab's echo


def _listed(items: list[Any]) -> list[Any]:
    return items[:MAX_LISTED]


def _one(s: schemes.Scheme, text: str, encoding: str, decode: bool) -> dict[str, Any]:
    row: dict[str, Any] = {"name": s.name, "family": s.family, "spec": s.spec,
                           "docs": docs_link(s.name)}
    try:
        if decode:
            out, chosen = decode_with(s, text, encoding)
            row["output"] = out
            if chosen:
                row["charset"] = chosen
        else:
            row["output"] = encode_with(s, text, encoding)
    except NotApplicableError as e:
        row["na"] = str(e)
    except PercentEncodingError as e:
        row["error"] = str(e)
    return row


def api_convert(
    text: str, *, decode: bool, encoding: str = "utf-8", scheme: str | None = None,
    context: str = "query",
) -> dict[str, Any]:
    """Every registered scheme's result for ``text``, and the chosen ``scheme``'s as
    ``primary`` (``component``, the page's default, when none is given)."""
    enc = _label(encoding)
    if enc == "auto" and not decode:
        raise HTTPError(HTTPStatus.BAD_REQUEST, "encoding 'auto' only applies to decoding")
    results: list[dict[str, Any]] = []
    out: dict[str, Any] = {"mode": "decode" if decode else "encode",
                           "encoding": enc, "results": results}
    if len(text) <= MAX_EVERY_SCHEME:
        out["input"] = text  # the page compares each result with it
        every = [s for s in schemes.all_schemes()
                 if not (decode and s.decode is None and plain_profile(s) is None)]
        spent = 0
        for s in every:
            if spent > RESULTS_BUDGET:  # e.g. 64K emoji as Shift_JIS: 15 characters each
                out["results_skipped"] = (
                    f"{len(every) - len(results)} of {len(every)} schemes' results are left "
                    "out: with them the answer would be too large (choose a scheme to see its "
                    "result above; the percent command shows them all: "
                    f"percent {'decode' if decode else 'encode'} --all)")
                break
            row = _one(s, text, enc, decode)
            spent += len(json.dumps(row.get("output", ""), ensure_ascii=False))
            results.append(row)
    else:  # dozens of results of a large input: seconds of work and tens of MB to send
        out["results_skipped"] = (
            f"every scheme's result is shown for inputs up to {MAX_EVERY_SCHEME:,} "
            f"characters; this one has {len(text):,} (the chosen scheme's result is above; "
            "the percent command does any size)")
    scheme = scheme or "component"
    try:
        out["primary"] = _one(resolve_scheme(scheme), text, enc, decode)
    except UnknownSchemeError as e:
        out["primary"] = {"name": scheme, "error": str(e)}
    primary_out = out["primary"].get("output")
    if isinstance(primary_out, str) and len(primary_out) > MAX_OUTPUT:
        out["primary"]["output"] = primary_out[:MAX_OUTPUT]
        out["primary"]["truncated"] = (
            f"output cut at {MAX_OUTPUT:,} of {len(primary_out):,} characters "
            "(the percent command writes all of it)")
    if decode:
        out["context"] = context
        try:
            out["bytes"] = core.decode(text).hex(" ") if len(text) <= 4096 else None
        except PercentEncodingError as e:  # a lone surrogate has no UTF-8 bytes
            out["bytes"] = f"({e})"
        if len(text) <= MAX_ANALYSIS:
            try:
                out["detect"] = det = detect_report(text, context)
            except PercentEncodingError as e:  # an unknown context
                raise HTTPError(HTTPStatus.BAD_REQUEST, str(e)) from None
            findings = det.get("findings")
            if isinstance(findings, list):  # one a character at worst: list the first ones
                det["findings"], det["findings_count"] = _listed(findings), len(findings)
        else:  # the analysis is linear but not cheap; keep big pastes responsive
            out["detect"] = {"skipped": f"analysis skipped: the input is over "
                             f"{MAX_ANALYSIS:,} characters (percent detect does any size)"}
    return out


@lru_cache(maxsize=8)
def _compare_cached(names: tuple[str, ...]) -> dict[str, Any]:
    return compare_data(list(names))


def api_url(text: str, base: str | None = None) -> dict[str, Any]:
    """GET|POST /api/url: the URL parser's report (``percent url --json``), or its error.

    The lists stop at :data:`MAX_LISTED` items: ``validation_error_count`` and each
    component's ``encoded_count`` say how many there are in all.
    """
    from ..errors import URLParseError

    for name, value in (("input", text), ("base", base or "")):
        if len(value) > MAX_URL_INPUT:
            raise HTTPError(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                f"the URL view takes URLs of up to {MAX_URL_INPUT:,} characters; this "
                f"{name} has {len(value):,}. The percent command takes any length: "
                f"{_cli_hint('/api/url')}")
    try:
        rep = url_report(text, base)
    except URLParseError as e:
        return {"error": str(e), "name": e.name, "position": e.position}
    errors = rep["validation_errors"]
    rep["validation_errors"], rep["validation_error_count"] = _listed(errors), len(errors)
    for c in rep["components"]:
        c["encoded"], c["encoded_count"] = _listed(c["encoded"]), len(c["encoded"])
    return rep


def api_compare(names: list[str] | None = None) -> dict[str, Any]:
    """``schemes.compare`` for the named schemes (every registered one by default)."""
    chosen = tuple(names) if names else tuple(schemes.names())
    try:
        return _compare_cached(chosen)
    except PercentEncodingError as e:
        raise HTTPError(HTTPStatus.BAD_REQUEST, str(e)) from None


def api_form_body(
    value: str,
    encoding: str,
    enctype: str = "application/x-www-form-urlencoded",
    boundary: str | None = None,
) -> dict[str, Any]:
    """What :func:`percent_encoding.form.html_form_body` predicts the lab's form sends;
    ``body`` is shown as the echo page shows what the browser sent (:func:`_show_bytes`).

    A multipart body is predicted with ``boundary``, the one the browser chose (the echo
    page shows it); without one, with the placeholder ``BOUNDARY``.
    """
    from ..form import html_form_body

    enc = _page_encoding(encoding)
    assert enc is not None
    kind = _enctype(enctype)
    if kind != "multipart/form-data":
        boundary = None
    elif not boundary:
        boundary = "BOUNDARY"
    try:
        body = html_form_body([("_charset_", ""), ("text", value)], encoding=enc,
                              enctype=kind, boundary=boundary)
    except PercentEncodingError as e:  # a boundary RFC 2046 does not allow
        raise HTTPError(HTTPStatus.BAD_REQUEST, str(e)) from None
    out: dict[str, Any] = {"encoding": enc, "enctype": kind, "body": _show_bytes(body)}
    if boundary is not None:
        out["boundary"] = boundary
        out["content_type"] = f"{kind}; boundary={boundary}"
    return out



# ---------------------------------------------------------------------------
# HTTP
# ---------------------------------------------------------------------------


def _warm_up_detect() -> None:
    from .. import detect

    detect.charset("caf\u00e9 \u30a2".encode())



class _DeadlineReader(io.RawIOBase):
    """The request socket, read against one deadline for the whole request.

    The socket's own timeout bounds each read; a client that trickles a byte
    every few seconds would pass every read's test and hold its thread for
    ever.  Each read here waits only for what is left of the request's
    deadline (set per request in :meth:`Handler.handle_one_request`), so a
    request line, its headers and its body arrive within it or the
    connection is cut off (``TimeoutError``).
    """

    def __init__(self, sock: socket.socket, handler: Handler) -> None:
        super().__init__()
        self._sock = sock
        self._handler = handler

    def readable(self) -> bool:
        return True

    def readinto(self, buf: Any) -> int:
        deadline = self._handler.deadline
        if deadline is None:
            return self._sock.recv_into(buf)
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("the request did not arrive within the server's deadline")
        old = self._sock.gettimeout()
        self._sock.settimeout(left)
        try:
            return self._sock.recv_into(buf)
        finally:
            self._sock.settimeout(old)


class Handler(BaseHTTPRequestHandler):
    """Routes requests; see the module docstring for the list."""

    server_version = f"percent/{__version__}"

    def version_string(self) -> str:
        return self.server_version
    protocol_version = "HTTP/1.1"
    timeout = 30  # a stalled client cannot hold a thread for ever
    # A whole request (line, headers, body) must arrive within this many seconds of
    # the server starting to wait for it (Server.request_deadline overrides).
    request_deadline = 30.0
    deadline: float | None = None
    raw_requestline: bytes  # set by the standard library's handle_one_request

    def setup(self) -> None:
        super().setup()
        plain, self.rfile = self.rfile, io.BufferedReader(_DeadlineReader(self.connection, self))
        plain.close()  # the socket stays open: only the standard reader's handle goes

    def handle_one_request(self) -> None:
        limit = getattr(self.server, "request_deadline", self.request_deadline)
        self.deadline = time.monotonic() + limit
        # Nothing of an earlier request on this connection counts for this one.
        self._parsed, self.path = False, ""
        try:
            super().handle_one_request()
        finally:
            self.deadline = None

    def parse_request(self) -> bool:
        """The standard library's parsing, less HTTP/0.9 and with the framing checked.

        A request line of two words (``GET /``) is an HTTP/0.9 request, which the
        standard library would answer with a bare body and no status line or headers:
        it gets a 400 here (RFC 9112 §3 wants ``HTTP-version`` on the line).  Malformed
        framing (:func:`._guard.framing_error`) gets a 400 and ends the connection.
        """
        words = self.raw_requestline.split()
        if len(words) == 2:
            self.requestline = str(self.raw_requestline, "latin-1").rstrip("\r\n")
            self.command, self.path = "", str(words[1], "latin-1")
            self.request_version, self.close_connection = "HTTP/1.1", True
            self.send_error(HTTPStatus.BAD_REQUEST,
                            "the request line has no HTTP version (HTTP/0.9 is not served)")
            return False
        if not super().parse_request():
            return False
        self._parsed = True
        why = _framing_error(self.headers)
        if why is not None:
            self.close_connection = True
            self.send_error(HTTPStatus.BAD_REQUEST, why)
            return False
        return True

    # -- plumbing ---------------------------------------------------------
    def log_message(self, format: str, *args: Any) -> None:
        if getattr(self.server, "verbose", False):
            super().log_message(format, *args)

    def log_error(self, format: str, *args: Any) -> None:
        super().log_message(format, *args)

    def _headers(self, status: int, ctype: str, length: int, extra: dict[str, str]) -> None:
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(length))
        self.send_header("Content-Security-Policy", extra.pop("Content-Security-Policy", CSP))
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("X-Frame-Options", "SAMEORIGIN")
        # Not no-referrer: under it a browser sends "Origin: null" with a form POST, and
        # the form lab's own submissions would be refused as foreign (web/_guard.py).
        self.send_header("Referrer-Policy", "same-origin")
        self.send_header("Cross-Origin-Opener-Policy", "same-origin")
        if self._unread_body():
            # A body this route did not read would be parsed as the next request on the
            # connection (request smuggling): end the connection after this answer.
            self.send_header("Connection", "close")
        for k, v in extra.items():
            self.send_header(k, v)
        self.end_headers()

    def _send(
        self, status: int, body: bytes, ctype: str, extra: dict[str, str] | None = None
    ) -> None:
        self._headers(status, ctype, len(body), extra or {})
        if self.command != "HEAD":
            self.wfile.write(body)

    def _json(self, data: Any, status: int = 200) -> None:
        try:
            body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate in the input: JSON's \uXXXX escapes
            body = json.dumps(data).encode("ascii")
        if len(body) > MAX_RESPONSE:  # a route's own limits missed: a bug, not the input's
            raise RuntimeError(f"the answer would be {len(body):,} bytes, over the "
                               f"{MAX_RESPONSE:,}-byte limit of every answer")
        self._send(status, body, "application/json; charset=utf-8", {"Cache-Control": "no-store"})

    def _error(self, status: HTTPStatus, message: str) -> None:
        if getattr(self, "path", "").startswith("/api/"):
            self._json({"error": message, "status": int(status)}, int(status))
        else:
            body = (
                f"<!doctype html><meta charset=utf-8><title>{int(status)}</title>"
                f"<p>{int(status)} {html.escape(status.phrase)}: {html.escape(message)}</p>"
            ).encode()
            self._send(int(status), body, "text/html; charset=utf-8")

    def send_error(self, code: int, message: str | None = None,
                   explain: str | None = None) -> None:
        """The standard library's errors (unknown method, bad request line, headers
        too long) answered like ours: with the security headers."""
        try:
            status = HTTPStatus(code)
        except ValueError:
            status = HTTPStatus.INTERNAL_SERVER_ERROR
        if not getattr(self, "_parsed", False):
            # The request line itself was bad: answer in HTTP/1.1 (an HTTP/0.9 answer
            # would have no headers at all) and close the connection.
            self.request_version = "HTTP/1.1"
            self.close_connection = True
        self._error(status, message or status.phrase)

    def handle_expect_100(self) -> bool:
        """``Expect: 100-continue``: a request that is refused anyway gets its final answer
        instead of an invitation to send the body (RFC 9110 §10.1.1)."""
        self._parsed = True  # the headers are parsed: answer in the request's version
        why = _framing_error(self.headers)
        if why is not None:
            self.close_connection = True
            self.send_error(HTTPStatus.BAD_REQUEST, why)
            return False
        try:
            self._check_origin()
        except HTTPError as e:
            self.close_connection = True  # the body was not sent: nothing to read past
            self._error(e.status, str(e))
            return False
        return super().handle_expect_100()

    def _check_origin(self) -> None:
        """403 for a request another page made (web/_guard.py says which)."""
        allowed = getattr(self.server, "allowed_hosts", None)
        host = (self.headers.get("Host") or "").strip().lower()
        if allowed is not None and host not in allowed:
            raise HTTPError(HTTPStatus.FORBIDDEN,
                            f"Host {host!r} is not this tool's address (DNS rebinding?)")
        why = _foreign_request(self.headers, self.command, urlsplit(self.path).path)
        if why is not None:
            raise HTTPError(HTTPStatus.FORBIDDEN, why)

    def _unread_body(self) -> bool:
        if getattr(self, "_body_read", False):
            return False
        if not getattr(self, "_parsed", False):  # no request parsed (send_error)
            return False
        chunked = self.headers.get("Transfer-Encoding", "").lower() not in ("", "identity")
        return chunked or self.headers.get("Content-Length", "").strip() not in ("", "0")

    def _body(self) -> bytes:
        if self.headers.get("Transfer-Encoding", "").lower() not in ("", "identity"):
            raise HTTPError(HTTPStatus.LENGTH_REQUIRED, "send a Content-Length, not chunks")
        length_h = self.headers.get("Content-Length")
        if length_h is None:
            raise HTTPError(HTTPStatus.LENGTH_REQUIRED, "a Content-Length header is required")
        try:  # "16, 16" is one length (parse_request refused differing ones)
            length = int(length_h.split(",")[0])
        except ValueError:
            raise HTTPError(HTTPStatus.BAD_REQUEST, "bad Content-Length") from None
        if length < 0:
            raise HTTPError(HTTPStatus.BAD_REQUEST, "bad Content-Length")
        if length > MAX_BODY:
            self.close_connection = True
            raise HTTPError(
                HTTPStatus.REQUEST_ENTITY_TOO_LARGE,
                f"too large for the web tool: this request is {length:,} bytes and the tool "
                f"takes up to {MAX_BODY:,} bytes (1 MiB). The percent command takes any "
                f"size: {_cli_hint(urlsplit(self.path).path)}",
            )
        data = self.rfile.read(length)
        self._body_read = True
        return data

    def _dispatch(self) -> None:
        self._body_read = False
        try:
            self._check_origin()
            self._route()
        except HTTPError as e:
            self._error(e.status, str(e))
        except PercentEncodingError as e:  # the library's verdict on the request's data
            self._error(HTTPStatus.BAD_REQUEST, str(e))
        except (ConnectionError, TimeoutError):
            self.close_connection = True
        except Exception as e:
            # The server's one top-level handler (as main() is the CLI's): a bug answers
            # 500 instead of dropping the connection, and its traceback goes to the log.
            self.log_error("internal error on %s:\n%s", self.path, traceback.format_exc())
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"{type(e).__name__}: {e}")

    def do_GET(self) -> None:
        self._dispatch()

    def do_HEAD(self) -> None:
        self._dispatch()

    def do_POST(self) -> None:
        self._dispatch()

    # -- routes -----------------------------------------------------------
    def _params(self) -> dict[str, str]:
        query = urlsplit(self.path).query
        if len(query) > MAX_QUERY_INPUT * 4:
            raise HTTPError(HTTPStatus.REQUEST_URI_TOO_LONG, "query too long; POST instead")
        params = dict(parse_qsl(query, keep_blank_values=True))
        if self.command == "POST" and urlsplit(self.path).path.startswith("/api/"):
            # Only JSON: a form or text/plain POST is what another page can send blind.
            if not _is_json(self.headers.get("Content-Type")):
                raise HTTPError(HTTPStatus.UNSUPPORTED_MEDIA_TYPE,
                                "the API takes a JSON body: send Content-Type: application/json")
            raw = self._body()
            try:
                data = json.loads(raw.decode("utf-8")) if raw else {}
            except (UnicodeDecodeError, json.JSONDecodeError) as e:
                raise HTTPError(HTTPStatus.BAD_REQUEST, f"body is not UTF-8 JSON: {e}") from None
            except RecursionError:  # [[[[... thousands deep: the decoder's stack, not a 500
                raise HTTPError(HTTPStatus.BAD_REQUEST,
                                "body is nested too deep (the API takes an object of strings)"
                                ) from None
            if not isinstance(data, dict):
                raise HTTPError(HTTPStatus.BAD_REQUEST, "body must be a JSON object")
            for k, v in data.items():
                # Every field of every API is a string; null means "not given".  Any
                # other type is refused rather than silently read as the default.
                if v is None:
                    continue
                if not isinstance(v, str):
                    raise HTTPError(
                        HTTPStatus.BAD_REQUEST,
                        f"field {k!r} must be a string, not {_json_type(v)}",
                    )
                params[str(k)] = v
        return params

    def _route(self) -> None:
        path = urlsplit(self.path).path
        get_like = self.command in ("GET", "HEAD")
        if path == "/" and get_like:
            return self._static("index.html")
        if path.startswith("/static/") and get_like:
            return self._static(path[len("/static/"):])
        if path.startswith("/docs/") and get_like:
            return self._docs(path[len("/docs/"):] or "index.html")
        if path == "/favicon.ico" and get_like:
            return self._static("favicon.svg")
        if path == "/api/schemes" and get_like:
            return self._json(api_schemes())
        if path in ("/api/encode", "/api/decode"):
            p = self._params()
            return self._json(
                api_convert(
                    p.get("input", ""),
                    decode=path == "/api/decode",
                    encoding=p.get("encoding", "utf-8"),
                    scheme=p.get("scheme") or None,
                    context=p.get("context") or "query",
                )
            )
        if path == "/api/form-body":
            p = self._params()
            return self._json(api_form_body(
                p.get("value", ""), p.get("encoding", "UTF-8"), p.get("enctype", ENCTYPES[0]),
                p.get("boundary") or None,
            ))
        if path == "/url" and get_like:
            return self._static("url.html")
        if path == "/api/url":
            p = self._params()
            return self._json(api_url(p.get("input", ""), p.get("base") or None))
        if path == "/api/compare" and get_like:
            names = [n for n in self._params().get("schemes", "").split(",") if n]
            return self._json(api_compare(names))
        if path == "/lab/form" and get_like:
            p = self._params()
            charset = _page_encoding(p.get("charset"))
            assert charset is not None
            accept = _page_encoding(p.get("accept"), None)
            body = _lab_form_page(
                charset, accept, p.get("method", "post"), p.get("value", ""), p.get("auto") == "1",
                _enctype(p.get("enctype")),
            )
            return self._send(200, body, f"text/html; charset={charset}",
                              {"Cache-Control": "no-store"})
        if path.startswith("/lab/echo/"):
            parts = path[len("/lab/echo/"):].split("/")
            if len(parts) != 2:
                raise HTTPError(HTTPStatus.NOT_FOUND, "use /lab/echo/<page>/<accept-charset>")
            page = _page_encoding(parts[0])
            assert page is not None
            accept = _page_encoding(parts[1], None)
            if self.command == "POST":
                raw = self._body()
            else:
                raw = urlsplit(self.path).query.encode("latin-1", "replace")
            body = _lab_echo_page(
                self.command, raw, self.headers.get("Content-Type", ""), page, accept
            )
            return self._send(200, body, "text/html; charset=utf-8", {"Cache-Control": "no-store"})
        if path in ("/", "/api/schemes", "/api/compare", "/lab/form") or path.startswith(
            "/static/"
        ):
            raise HTTPError(HTTPStatus.METHOD_NOT_ALLOWED, f"{self.command} is not allowed here")
        raise HTTPError(HTTPStatus.NOT_FOUND, f"no such page: {path}")

    def _static(self, name: str) -> None:
        files: dict[str, Path] = getattr(self.server, "static_files", {})
        p = files.get(name)  # a fixed list: no path traversal is possible
        if p is None:
            raise HTTPError(HTTPStatus.NOT_FOUND, f"no such file: {name}")
        ctype = _TYPES[p.suffix]
        self._send(200, p.read_bytes(), ctype, {"Cache-Control": "no-cache"})


    def _docs(self, name: str) -> None:
        # The built docs site (web/_docs.py), from the list of its files made at start.
        files: dict[str, Path] = getattr(self.server, "docs_files", {})
        p = files.get(name.removesuffix("/") + "/index.html" if name.endswith("/") else name)
        if p is None:
            # No built site (an installed copy): the chapters' Markdown, rendered here.
            page = None if files else rendered_page(name)
            if page is None:
                raise HTTPError(HTTPStatus.NOT_FOUND, f"no such page: /docs/{name}")
            return self._send(200, page, "text/html; charset=utf-8",
                              {"Cache-Control": "no-cache", "Content-Security-Policy": DOCS_CSP})
        self._send(200, p.read_bytes(), site_type(p),
                   {"Cache-Control": "no-cache", "Content-Security-Policy": DOCS_CSP})


class Server(ThreadingHTTPServer):
    """ThreadingHTTPServer with the tool's settings."""

    daemon_threads = True
    allow_reuse_address = True
    # The listen backlog (socketserver's default is 5): connections the kernel holds
    # while every thread is busy accepting; 250 clients at once lost requests to resets
    # with 5 and none with 256.
    request_queue_size = 256
    #: Seconds a whole request (line, headers, body) may take to arrive; a client
    #: still sending after that is cut off (Handler.handle_one_request).
    request_deadline = Handler.request_deadline

    def shutdown_request(self, request: Any) -> None:
        # Lingering close (RFC 9112 §9.6): stop writing, then read (bounded, briefly) what
        # the client is still sending before closing. Closing a socket with unread input
        # resets the connection, and the reset can destroy an answer the client has not
        # read yet, such as the 414 or 413 for a request it is still uploading.
        try:
            request.shutdown(socket.SHUT_WR)
            # 2 s in all (not per read: a client trickling bytes must not hold the thread)
            end = time.monotonic() + 2.0
            left = 4 << 20
            while left > 0 and (wait := end - time.monotonic()) > 0:
                request.settimeout(wait)
                chunk = request.recv(1 << 16)
                if not chunk:
                    break
                left -= len(chunk)
        except OSError:
            pass
        self.close_request(request)

    def __init__(self, address: tuple[str, int], verbose: bool = False) -> None:
        if ":" in address[0]:
            import socket

            self.address_family = socket.AF_INET6
        super().__init__(address, Handler)
        # Fill the registry before the first request: handler threads then only read it.
        schemes.names()
        # Charset detection builds its tables on first use (seconds); do that now, in
        # the background, rather than on the user's first keystroke in Decode mode.
        threading.Thread(target=_warm_up_detect, daemon=True).start()
        self.verbose = verbose
        self.static_files = _static_files()
        self.docs_files = site_files()
        bound = self.server_address[0]
        self.allowed_hosts: frozenset[str] | None = _allowed_hosts(
            bound.decode() if isinstance(bound, bytes) else str(bound), address[0],
            self.server_address[1])

    @property
    def url(self) -> str:
        raw_host, port = self.server_address[0], self.server_address[1]
        host = raw_host.decode() if isinstance(raw_host, bytes) else str(raw_host)
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"


def make_server(host: str = "127.0.0.1", port: int = 8000, verbose: bool = False) -> Server:
    """A ready server bound to ``host:port`` (``port=0``: any free port; see ``.url``)."""
    return Server((host, port), verbose=verbose)


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def serve(host: str = "127.0.0.1", port: int = 8000, *, open_browser: bool = False) -> None:
    """Serve the web tool until Ctrl-C, printing its URL first."""
    try:
        server = make_server(host, port)
    except OSError as e:  # the CLI prints strerror as its one-line error
        raise OSError(e.errno, f"cannot listen on {host}:{port}: {e.strerror or e}") from None
    print(f"percent web tool: {server.url}  (Ctrl-C to stop)", flush=True)
    if threading.current_thread() is threading.main_thread():
        # A process manager's SIGTERM stops the server as cleanly as Ctrl-C.
        signal.signal(signal.SIGTERM, _interrupt)
    if open_browser:
        threading.Thread(target=webbrowser.open, args=(server.url,), daemon=True).start()
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("\nstopped", file=sys.stderr)
    finally:
        server.server_close()
