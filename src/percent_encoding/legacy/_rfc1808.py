"""Relative URLs as RFC 1808 (June 1995) resolved them, before RFC 2396 and RFC 3986.

Strategy: split both URLs the way §2.4 does (fragment, scheme, net_loc, query,
params, then the path with a remembered leading slash), inherit components as §4
steps 2-5 say, and apply the §4 step 6 dot-segment rules (a)-(d) to the merged
path in one pass over its segments, so the time is linear in the input.

What RFC 1808 gives that RFC 3986 §5.2 does not: ``;params`` of the last path
segment are a component of their own, so ``;x`` keeps the base path
(``http://a/b/c/d;x``), ``?y`` keeps the base params (``http://a/b/c/d;p?y``), an
empty reference is the whole base with its fragment, a ``..`` that climbs above
the root is kept (``http://a/../g``), and a reference with the base's scheme is
absolute (``http:g`` stays ``http:g``).

:func:`rfc1808_encode` escapes a path segment with §2.2's ``pchar`` set.

Spec: RFC 1808 §2.2 (syntax), §2.4 (parsing), §4 (resolving), §5.1 and §5.2
(the examples).
"""

from __future__ import annotations

import re
from typing import Final, NamedTuple

from .. import _args
from .. import core as _core
from ..errors import PercentEncodingError
from ..sets import RFC1738

# §2.4.2: a scheme is alphanumerics, "+", "." and "-" before the first ":".
_SCHEME = re.compile(r"[A-Za-z0-9+.\-]+:")


class _Parts(NamedTuple):
    scheme: str | None
    net_loc: str | None
    slash: bool  # §2.4.6: whether the path was preceded by "/"
    path: str
    params: str
    query: str
    fragment: str


def _parse(url: str) -> _Parts:
    rest = url
    fragment = ""
    # §2.4.1: everything after the first "#" (an empty one is no fragment).
    hash_at = rest.find("#")
    if hash_at != -1:
        rest, fragment = rest[:hash_at], rest[hash_at + 1:]
    scheme = None
    m = _SCHEME.match(rest)
    if m is not None:  # §2.4.2
        scheme, rest = rest[: m.end() - 1], rest[m.end():]
    net_loc = None
    if rest.startswith("//"):  # §2.4.3: up to the next "/"
        end = rest.find("/", 2)
        end = len(rest) if end == -1 else end
        net_loc, rest = rest[2:end], rest[end:]
    query = ""
    q_at = rest.find("?")
    if q_at != -1:  # §2.4.4
        rest, query = rest[:q_at], rest[q_at + 1:]
    params = ""
    p_at = rest.find(";")
    if p_at != -1:  # §2.4.5
        rest, params = rest[:p_at], rest[p_at + 1:]
    slash = rest.startswith("/")  # §2.4.6
    return _Parts(scheme, net_loc, slash, rest[1:] if slash else rest, params, query, fragment)


def _recombine(p: _Parts) -> str:
    # §4 step 7; §2.2's syntax writes an empty component as nothing at all.
    out = []
    if p.scheme is not None:
        out.append(p.scheme + ":")
    if p.net_loc is not None:
        out.append("//" + p.net_loc)
    out.append(("/" if p.slash else "") + p.path)
    if p.params:
        out.append(";" + p.params)
    if p.query:
        out.append("?" + p.query)
    if p.fragment:
        out.append("#" + p.fragment)
    return "".join(out)


def _dot_segments(path: str) -> str:
    # §4 step 6 (a)-(d) on a relative path (no leading "/").
    segs = path.split("/")
    last = segs.pop()
    # (a) every "./" goes; (b) a final "." goes, leaving its slash.
    segs = [s for s in segs if s != "."]
    if last == ".":
        last = ""
    # (c) "<segment>/../" with <segment> not "..", leftmost first, until none is left:
    # the same result as a stack where a ".." followed by "/" cancels the segment below.
    stack: list[str] = []
    for s in segs:
        if s == ".." and stack and stack[-1] != "..":
            stack.pop()
        else:
            stack.append(s)
    # (d) a final "<segment>/.." goes too.
    if last == ".." and stack and stack[-1] != "..":
        stack.pop()
        last = ""
    return "".join(s + "/" for s in stack) + last


def rfc1808_resolve(base: str, reference: str) -> str:
    """Resolve ``reference`` against ``base`` as RFC 1808 §4 did (the 1995 rules).

    ``base`` must have a scheme (§3.3 requires an absolute base URL); anything
    else raises :class:`~percent_encoding.errors.PercentEncodingError`.
    Where §4 leaves the path of a base with a net_loc and no path, the merged
    path starts with ``/`` so that it stays a path.

    >>> rfc1808_resolve("http://a/b/c/d;p?q#f", ";x")
    'http://a/b/c/d;x'
    >>> rfc1808_resolve("http://a/b/c/d;p?q#f", "../../../g")
    'http://a/../g'
    """
    b_text: str = _args.check_str("base", base)
    r_text: str = _args.check_str("reference", reference)
    b = _parse(b_text)
    if b.scheme is None:
        raise PercentEncodingError(
            f"the base URL {b_text!r:.60} has no scheme: RFC 1808 §3.3 resolves only "
            "against an absolute base URL"
        )
    if r_text == "":  # step 2a: the whole base, fragment and all
        return b_text
    r = _parse(r_text)
    if r.scheme is not None:  # step 2b: absolute, even when it is the base's scheme
        return r_text
    if r.net_loc:  # step 3: a non-empty net_loc inherits only the scheme
        return _recombine(r._replace(scheme=b.scheme))
    r = r._replace(scheme=b.scheme, net_loc=b.net_loc)
    if r.slash:  # step 4: an absolute path is taken as it is
        return _recombine(r)
    if r.path == "":  # step 5: the base path, then its params and query if absent
        r = r._replace(slash=b.slash, path=b.path)
        if not r.params:
            r = r._replace(params=b.params)
            if not r.query:
                r = r._replace(query=b.query)
        return _recombine(r)
    # Step 6: the base path without its last segment, then the reference's path.
    merged = b.path[: b.path.rfind("/") + 1] + r.path
    slash = b.slash or b.net_loc is not None
    return _recombine(r._replace(slash=slash, path=_dot_segments(merged)))


#: What RFC 1808 §2.2 escapes in a path segment: everything but ``pchar``
#: (alphanumerics, *safe* ``$-_.+``, *extra* ``!*'(),`` and ``:@&=``).
RFC1808_PCHAR: Final = RFC1738.remove(":@&=").named(
    "rfc1808-pchar", "RFC 1808 §2.2 (everything but pchar: alphanumerics, $-_.+!*'(),:@&=)"
)


def rfc1808_encode(text: str | bytes, *, encoding: str = "utf-8") -> str:
    """Escape ``text`` for one path segment of a relative URL as RFC 1808 §2.2
    writes it: ``pchar`` stays; ``;`` (params), ``/``, ``?``, ``#``, space, ``%``,
    controls and the *national* and *punctuation* characters become ``%XX``.

    >>> rfc1808_encode("a;b/c d@e")
    'a%3Bb%2Fc%20d@e'
    """
    data = _args.check_text("text", text, "rfc1808_encode")
    return _core.encode(data, RFC1808_PCHAR, encoding=_args.check_label("encoding", encoding))
