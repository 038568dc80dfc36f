"""The URL API's setters (URL Standard §6.1: href, protocol, username, password,
host, hostname, port, pathname, search, hash): each takes a URL record and the
new value and returns the record the Standard's setter steps give, mostly by
running the basic URL parser (§4.4) with a state override.

Private: :meth:`percent_encoding.url.URL.replace` calls them through
``_SETTERS``.
"""

from __future__ import annotations

from ..core import encode
from ..errors import URLParseError
from ._parser import Failure, URLRecord, basic_parse

__all__: list[str] = []


def _set_href(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    try:
        return basic_parse(value, errors=errs)
    except Failure as e:
        raise URLParseError(f"invalid URL ({e.name} at {e.position})", e.name, e.position) from None


def _run(rec: URLRecord, value: str, state: str, errs: list[tuple[str, int]]) -> URLRecord:
    work = rec.copy()
    try:
        basic_parse(value, url=work, state_override=state, errors=errs)
    except Failure:
        # The Standard keeps what the run changed before it failed.
        return work
    return work


def _set_protocol(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    return _run(rec, value + ":", "scheme_start", errs)


def _set_username(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    if rec.cannot_have_credentials():
        return rec
    rec = rec.copy()
    rec.username = encode(value, "userinfo")
    return rec


def _set_password(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    if rec.cannot_have_credentials():
        return rec
    rec = rec.copy()
    rec.password = encode(value, "userinfo")
    return rec


def _set_host(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    if rec.opaque_path:
        return rec
    return _run(rec, value, "host", errs)


def _set_hostname(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    if rec.opaque_path:
        return rec
    return _run(rec, value, "hostname", errs)


def _set_port(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    if rec.cannot_have_credentials():
        return rec
    if value == "":
        rec = rec.copy()
        rec.port = None
        return rec
    return _run(rec, value, "port", errs)


def _set_pathname(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    if rec.opaque_path:
        return rec
    rec = rec.copy()
    rec.path = []
    return _run(rec, value, "path_start", errs)


def _set_after(rec: URLRecord, value: str, errs: list[tuple[str, int]], lead: str,
               field: str, state: str) -> URLRecord:
    """The search and hash setters (URL Standard §6.1): the empty string makes the
    component null; else one leading ``lead`` is dropped and the rest is parsed from
    ``state`` into an empty component."""
    rec = rec.copy()
    if value == "":
        setattr(rec, field, None)
        return rec
    if value.startswith(lead):
        value = value[1:]
    setattr(rec, field, "")
    return _run(rec, value, state, errs)


def _set_search(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    return _set_after(rec, value, errs, "?", "query", "query")


def _set_hash(rec: URLRecord, value: str, errs: list[tuple[str, int]]) -> URLRecord:
    return _set_after(rec, value, errs, "#", "fragment", "fragment")


SETTERS = {
    "href": _set_href,
    "protocol": _set_protocol,
    "username": _set_username,
    "password": _set_password,
    "host": _set_host,
    "hostname": _set_hostname,
    "port": _set_port,
    "pathname": _set_pathname,
    "search": _set_search,
    "hash": _set_hash,
}
