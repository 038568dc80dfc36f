"""Reference resolution (RFC 3986 §5.2): :func:`resolve` a reference against a
base URI, with §5.2.3 merging and the §5.2.4 :func:`remove_dot_segments`.

Private: the public names are re-exported from :mod:`.rfc3986`.
"""

from __future__ import annotations

from ..errors import PercentEncodingError
from ._components import Components, need_str, recompose, split

__all__ = ["remove_dot_segments", "resolve"]


# ---------------------------------------------------------------------------
# §5.2.4
# ---------------------------------------------------------------------------
def remove_dot_segments(path: str) -> str:
    """Remove ``.`` and ``..`` segments from a path (RFC 3986 §5.2.4).

    The result is the one the section's input/output-buffer algorithm gives,
    computed in one left-to-right pass (linear time).

    >>> remove_dot_segments("/a/b/c/./../../g")
    '/a/g'
    >>> remove_dot_segments("mid/content=5/../6")
    'mid/6'
    """
    p = need_str(path, "remove_dot_segments", "path")
    if "." not in p:
        return p
    # Each output piece is one step-2E move: "/seg", or "seg" for a first
    # segment without a slash, so "remove the last segment and its
    # preceding '/'" (2C) is one pop.
    out: list[str] = []
    i, n = 0, len(p)
    while i < n:
        if p.startswith("../", i):  # 2A
            i += 3
        elif p.startswith("./", i):  # 2A
            i += 2
        elif p.startswith("/./", i):  # 2B: "/./" -> "/"
            i += 2
        elif i + 2 == n and p.startswith("/.", i):  # 2B: "/." at the end -> "/"
            out.append("/")
            break
        elif p.startswith("/../", i):  # 2C
            i += 3
            if out:
                out.pop()
        elif i + 3 == n and p.startswith("/..", i):  # 2C at the end
            if out:
                out.pop()
            out.append("/")
            break
        elif (i + 1 == n and p[i] == ".") or (i + 2 == n and p.startswith("..", i)):  # 2D
            break
        else:  # 2E
            j = p.find("/", i + 1)
            if j == -1:
                j = n
            out.append(p[i:j])
            i = j
    return "".join(out)


# ---------------------------------------------------------------------------
# §5 reference resolution
# ---------------------------------------------------------------------------


def _merge(base: Components, ref_path: str) -> str:
    # §5.2.3: an authority with an empty path merges onto "/".
    if base.authority is not None and base.path == "":
        return "/" + ref_path
    return base.path[: base.path.rfind("/") + 1] + ref_path


def resolve(base: str, reference: str) -> str:
    """Resolve ``reference`` against the absolute URI ``base`` (RFC 3986 §5.2).

    The strict parser of §5.2.2 (a reference with the base's scheme is not
    treated as relative), §5.2.3 merging, §5.2.4 dot segments and §5.3
    recomposition; nothing is percent-encoded or normalized otherwise.  For
    what a browser does with the same strings use :func:`percent_encoding.url.parse`.

    >>> resolve("http://a/b/c/d;p?q", "../g?y#s")
    'http://a/b/g?y#s'
    >>> resolve("http://a/b/c/d;p?q", "g;x=1/../y")
    'http://a/b/c/y'
    """
    b = split(need_str(base, "resolve", "base"))
    r = split(need_str(reference, "resolve", "reference"))
    if b.scheme is None:
        raise PercentEncodingError(
            f"resolve() needs an absolute base URI with a scheme (RFC 3986 §5.1), not {base!r}"
        )
    if r.scheme is not None:
        t = Components(r.scheme, r.authority, remove_dot_segments(r.path), r.query, r.fragment)
    elif r.authority is not None:
        t = Components(b.scheme, r.authority, remove_dot_segments(r.path), r.query, r.fragment)
    elif r.path == "":
        t = Components(b.scheme, b.authority, b.path,
                       r.query if r.query is not None else b.query, r.fragment)
    elif r.path.startswith("/"):
        t = Components(b.scheme, b.authority, remove_dot_segments(r.path), r.query, r.fragment)
    else:
        t = Components(b.scheme, b.authority, remove_dot_segments(_merge(b, r.path)),
                       r.query, r.fragment)
    return recompose(t)
