"""One registry of every way of percent-encoding this library knows.

Strategy: data flows one way.  A :class:`Scheme` (declared in :mod:`._scheme`,
below every feature module) names one variant (a spec's or a language's
function), says where it comes from, carries its ``encode`` (and ``decode``,
``encode_pairs`` where they exist) and its properties as data.  The WHATWG
encode sets are registered here as ``whatwg-<set>`` schemes; each feature
module (:mod:`.form`, :mod:`.ecmascript`, :mod:`.legacy`, …) declares its own
schemes in a module-level ``SCHEMES`` tuple; this module, above them all,
imports them and assembles the registry the first time it is read (the imports
sit in :func:`_sources`, so importing the package or this module stays cheap).
No feature module imports this one (a test checks the import graph).

The CLI and the web tool read only this registry.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from typing import Any

from ._encode_set import display as _display
from ._scheme import Scheme, from_encode_set, pairs_arg
from .errors import PercentEncodingTypeError, UnknownSchemeError
from .sets import get as _get_set

__all__ = ["SHORT_ALIASES", "Scheme", "aliases", "all_schemes", "compare", "get", "names",
           "pairs_arg"]

#: Short names for shells (``percent encode -s form``), kept here so the CLI, the web tool
#: and the library accept the same ones; ``percent schemes`` lists them with their scheme.
SHORT_ALIASES: dict[str, str] = {
    "form": "application/x-www-form-urlencoded",
    "urlencoded": "application/x-www-form-urlencoded",
    "encodeURIComponent": "ecmascript-encodeURIComponent",
    "encodeURI": "ecmascript-encodeURI",
    "escape": "ecmascript-escape",
    "php": "php-urlencode",
    "rawurlencode": "php-rawurlencode",
}


_registry: dict[str, Scheme] = {}
_aliases: dict[str, str] = {}
_loaded = False
_load_lock = threading.RLock()


def _add(
    scheme: Scheme, registry: dict[str, Scheme] = _registry, aliases: dict[str, str] = _aliases
) -> None:
    if scheme.name in registry or scheme.name in aliases:
        raise ValueError(f"scheme {scheme.name!r} is registered twice")
    registry[scheme.name] = scheme
    for a in scheme.aliases:
        if a in registry or a in aliases:
            raise ValueError(f"scheme alias {a!r} is registered twice")
        aliases[a] = scheme.name


#: The WHATWG sets registered as ``whatwg-<set>`` schemes (URL Standard §1.3).
_WHATWG_SETS = ("c0-control", "fragment", "query", "special-query", "path", "userinfo",
                "component")


def _whatwg_schemes() -> tuple[Scheme, ...]:
    return tuple(
        from_encode_set(
            _get_set(n),
            name="whatwg-" + n,
            notes="UTF-8, then every byte in the set as %XX (upper-case hex)",
            family="WHATWG URL Standard",
        )
        for n in _WHATWG_SETS
    )


def _sources() -> tuple[Sequence[Scheme], ...]:
    """Every declared scheme, in listing order: the WHATWG sets, then each feature
    module's ``SCHEMES``."""
    from . import (
        alpn,
        ecmascript,
        form,
        fragments,
        iri,
        legacy,
        mailto,
        oauth1,
        oauth2,
        rfc3986,
        rfc8187,
        tcn,
        uritemplate,
        xpath,
    )

    return (
        _whatwg_schemes(),
        ecmascript.SCHEMES,
        uritemplate.SCHEMES,
        form.SCHEMES,
        rfc3986.SCHEMES,
        iri.SCHEMES,
        xpath.SCHEMES,
        oauth1.SCHEMES,
        oauth2.SCHEMES,
        rfc8187.SCHEMES,
        alpn.SCHEMES,
        mailto.SCHEMES,
        tcn.SCHEMES,
        legacy.SCHEMES,
        fragments.SCHEMES,
    )


def _load() -> None:
    # Build the whole registry aside and publish it at once, under a lock: two
    # threads reading it first, or a bad declaration, must not leave a
    # half-filled registry behind (the next call would then report
    # "registered twice" instead of the real error).
    global _loaded
    if _loaded:
        return
    with _load_lock:
        if _loaded:
            return
        registry: dict[str, Scheme] = {}
        aliases: dict[str, str] = {}
        for source in _sources():
            for s in source:
                _add(s, registry, aliases)
        for short, target in SHORT_ALIASES.items():
            if short in registry or short in aliases or target not in registry:
                raise ValueError(f"short alias {short!r} clashes or has no scheme {target!r}")
            aliases[short] = target
        _registry.update(registry)
        _aliases.update(aliases)
        _loaded = True


def get(name: str) -> Scheme:
    """The scheme registered under ``name`` (or one of its aliases).

    Raises :class:`UnknownSchemeError` (a ``KeyError``) for an unknown name.
    """
    if not isinstance(name, str):
        raise PercentEncodingTypeError(f"a scheme name is a str, not {type(name).__name__}")
    _load()
    s = _registry.get(name) or _registry.get(_aliases.get(name, ""))
    if s is None:
        close = [n for n in _registry if name.lower() in n.lower()][:5]
        hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
        raise UnknownSchemeError(
            f"unknown scheme {name!r}{hint} (percent_encoding.schemes.names() lists them)"
        )
    return s


def aliases() -> dict[str, str]:
    """Every alias and the registry name it stands for (``"form"`` for
    ``"application/x-www-form-urlencoded"``, ``"rfc5849"`` for ``"oauth1"``, ...).

    >>> aliases()["form"]
    'application/x-www-form-urlencoded'
    """
    _load()
    return dict(_aliases)


def names() -> list[str]:
    """Every registered scheme name."""
    _load()
    return list(_registry)


def all_schemes() -> list[Scheme]:
    """Every registered scheme, in registration order."""
    _load()
    return list(_registry.values())


def compare(scheme_names: Sequence[str | Scheme] | None = None) -> dict[str, Any]:
    """Which ASCII characters each scheme changes, side by side (the seeds' table).

    ``scheme_names`` holds registry names or :class:`Scheme` objects (``None``:
    every registered scheme).

    Each cell is what the scheme writes for that one character (``None``
    when it leaves it alone), found by running the scheme itself, so schemes
    without an encode set compare too::

        {"schemes": [{"name", "spec"}...],
         "rows": [{"code_point", "char", "encoded": [bool...], "output": [str|None...]}]}
    """
    if scheme_names is not None and (
        isinstance(scheme_names, (str, bytes, bytearray, memoryview))
        or not isinstance(scheme_names, Iterable)
    ):
        raise PercentEncodingTypeError(
            "compare() takes a list of scheme names or None, not "
            f"{type(scheme_names).__name__}"
        )
    chosen = (
        [n if isinstance(n, Scheme) else get(n) for n in scheme_names]
        if scheme_names
        else all_schemes()
    )
    rows = []
    for cp in range(128):
        ch = chr(cp)
        outs: list[str | None] = []
        for s in chosen:
            try:
                out = s.encode(ch)
            except ValueError as e:  # e.g. a scheme that rejects controls
                out = f"error: {e}"
            outs.append(None if out == ch else out)
        rows.append(
            {
                "code_point": cp,
                "char": _display(cp),
                "encoded": [o is not None for o in outs],
                "output": outs,
            }
        )
    return {"schemes": [{"name": s.name, "spec": s.spec} for s in chosen], "rows": rows}
