"""Which requests the web tool refuses before any route runs, and why.

Two kinds, each a plain function of the request's headers so it can be tested without a
socket:

- **Malformed framing** (answered 400, and the connection closed, since where the next
  request starts is no longer certain): no ``Host`` header or more than one (RFC 9112
  §3.2), ``Content-Length`` values that are not all the same number (RFC 9112 §6.3, RFC
  9110 §8.6).  :func:`framing_error`.
- **Requests from other pages** (answered 403).  The tool listens on loopback, but any
  page open in the same browser can send requests there.  A ``Host`` header other than
  the address the tool is bound to, or ``localhost``, with its port, is a page on a
  name that was made to resolve to 127.0.0.1 (DNS rebinding): :func:`allowed_hosts`.
  An ``Origin`` header (RFC 6454 §7) that is not the tool's own, or a
  ``Sec-Fetch-Site`` (Fetch Metadata Request Headers §2.1) of ``cross-site`` or
  ``same-site``, is a request another page made: :func:`foreign_request`.  The one
  request another page may make is a plain link to the page or the URL view (a
  top-level navigation: ``Sec-Fetch-Mode: navigate``, ``Sec-Fetch-Dest: document``):
  the page then runs only what the person using it asks for.

The API's third guard, a JSON ``Content-Type`` on every ``POST`` (:func:`is_json`), is
what makes the ``Origin`` check complete: a page can send a cross-origin "simple"
request (HTML form enctypes and ``text/plain``) without asking first, but a JSON one
only after a CORS preflight (Fetch §3.2.3, "CORS-safelisted request-header"), which this
server never grants.

Note that the tool's pages are sent with ``Referrer-Policy: same-origin``, not
``no-referrer``: under ``no-referrer`` a browser sends ``Origin: null`` with a form
``POST`` (Fetch §3.1, "append a request `Origin` header"), and the form lab's own
submissions would then look foreign.
"""

from __future__ import annotations

from email.message import Message

# The tool's pages that a link from elsewhere may open (shareable links).
LINKABLE_PAGES = frozenset({"/", "/url"})
# Addresses that listen on every interface: the Host a client uses cannot be known.
_WILDCARD = frozenset({"", "0.0.0.0", "::"})


def framing_error(headers: Message) -> str | None:
    """Why the request's framing is malformed (answer 400 and close), or ``None``.

    >>> from email.message import Message
    >>> m = Message(); m["Host"] = "127.0.0.1:8000"; m["Content-Length"] = "5"
    >>> framing_error(m) is None
    True
    >>> m["Content-Length"] = "6"
    >>> framing_error(m)
    'the request has differing Content-Length values 5 and 6 (RFC 9112 §6.3)'
    """
    hosts = headers.get_all("Host") or []
    if not hosts:
        return "the request has no Host header (RFC 9112 §3.2)"
    if len(hosts) > 1:
        return "the request has more than one Host header (RFC 9112 §3.2)"
    # A list ("5, 5") counts as repeated fields (RFC 9110 §5.3); all must agree.
    values = [v.strip() for field in headers.get_all("Content-Length") or []
              for v in field.split(",")]
    for v in values:
        if not (v.isascii() and v.isdigit()):  # RFC 9110 §8.6: 1*DIGIT
            return f"Content-Length {v!r} is not a number of bytes (RFC 9110 §8.6)"
    distinct = sorted({int(v) for v in values})
    if len(distinct) > 1:
        return (f"the request has differing Content-Length values "
                f"{' and '.join(map(str, distinct))} (RFC 9112 §6.3)")
    return None


def allowed_hosts(bound: str, given: str, port: int) -> frozenset[str] | None:
    """The ``Host`` values a server bound to ``bound`` (``given`` as the user wrote it)
    on ``port`` answers: that address and ``localhost``, with the port (and without it
    on port 80, where clients leave it out). ``None`` (any) for a wildcard address.

    >>> sorted(allowed_hosts("127.0.0.1", "127.0.0.1", 8000))
    ['127.0.0.1:8000', 'localhost:8000']
    >>> sorted(allowed_hosts("::1", "::1", 8000))
    ['[::1]:8000', 'localhost:8000']
    """
    if bound in _WILDCARD or given in _WILDCARD:
        return None
    names = {n if ":" not in n else f"[{n}]" for n in (bound, given, "localhost")}
    hosts = {f"{n.lower()}:{port}" for n in names}
    if port == 80:
        hosts |= {n.lower() for n in names}
    return frozenset(hosts)


def foreign_request(headers: Message, method: str, path: str) -> str | None:
    """Why this request was made by another page (answer 403), or ``None``.

    The tool's own origin is ``http://`` and the ``Host`` header (checked against
    :func:`allowed_hosts` first).

    >>> from email.message import Message
    >>> m = Message(); m["Host"] = "127.0.0.1:8000"; m["Origin"] = "http://127.0.0.1:8000"
    >>> foreign_request(m, "POST", "/api/url") is None
    True
    >>> m.replace_header("Origin", "https://evil.example")
    >>> foreign_request(m, "POST", "/api/url")
    "a request from another page (Origin 'https://evil.example') is refused"
    """
    own = "http://" + (headers.get("Host") or "").strip().lower()
    # Every value counts: a browser sends one, so a second is no reason to look away.
    for origin in headers.get_all("Origin") or []:
        if origin.strip().lower() != own:
            return f"a request from another page (Origin {origin.strip()!r}) is refused"
    sites = {s.strip().lower() for s in headers.get_all("Sec-Fetch-Site") or []}
    other = sorted(sites & {"cross-site", "same-site"})
    if other:
        site = other[0]
        navigation = ((headers.get("Sec-Fetch-Mode") or "").strip().lower() == "navigate"
                      and (headers.get("Sec-Fetch-Dest") or "").strip().lower() == "document")
        if method in ("GET", "HEAD") and path in LINKABLE_PAGES and navigation:
            return None  # a link to the page: it runs only what its user then asks for
        return f"a request from another site (Sec-Fetch-Site: {site}) is refused"
    return None


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` header names JSON (RFC 8259 §11), parameters aside.

    >>> is_json("application/json; charset=utf-8"), is_json("text/plain")
    (True, False)
    """
    return (content_type or "").split(";", 1)[0].strip().lower() == "application/json"
