"""One registry of every way of percent-encoding this library knows.

Strategy: a :class:`Scheme` names one variant (a spec's or a language's
function), says where it comes from, and carries its ``encode`` (and
``decode``, ``encode_pairs`` where they exist).  The WHATWG encode sets are
registered here as ``whatwg-<set>`` schemes; each feature module
(:mod:`.form`, :mod:`.ecmascript`, :mod:`.legacy`, …) declares its own schemes
in a module-level ``SCHEMES`` tuple, and this module collects them the first
time the registry is read (lazily, so importing the package stays cheap and
there is no import cycle).

The CLI and the web tool read only this registry.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import PercentEncodingTypeError, UnknownSchemeError
from .sets import EncodeSet, _display

__all__ = ["SHORT_ALIASES", "Scheme", "aliases", "all_schemes", "compare", "get", "names",
           "pairs_arg"]

# Feature modules that declare SCHEMES, in the order they are listed.
_MODULES: tuple[str, ...] = (
    "ecmascript",
    "uritemplate",
    "form",
    "rfc3986",
    "iri",
    "xpath",
    "oauth1",
    "oauth2",
    "rfc8187",
    "alpn",
    "legacy",
)

# Short names for shells (``percent encode -s form``), kept here so the CLI, the web tool
# and the library accept the same ones; ``percent schemes`` lists them with their scheme.
SHORT_ALIASES: dict[str, str] = {
    "form": "application/x-www-form-urlencoded",
    "urlencoded": "application/x-www-form-urlencoded",
    "encodeURIComponent": "ecmascript-encodeURIComponent",
    "encodeURI": "ecmascript-encodeURI",
    "escape": "ecmascript-escape",
    "php": "php-urlencode",
    "rawurlencode": "php-rawurlencode",
}


@dataclass(frozen=True)
class Scheme:
    """One named percent-encoding.

    ``encode`` takes ``str`` (and ``bytes`` too where the variant is defined
    on bytes: the WHATWG, RFC, PHP, Go and Ruby ones; the ECMAScript, IRI,
    XPath, Java and .NET ones are defined on text and refuse bytes) and
    returns the encoded ``str``; ``decode`` (``None`` when the variant defines
    no decoder) returns ``str``; ``encode_pairs`` serializes ``(name, value)``
    pairs (a mapping or an iterable of 2-item pairs, see :func:`pairs_arg`) for
    schemes that encode queries or forms.  Any other type raises
    :class:`~percent_encoding.errors.PercentEncodingTypeError`.
    """

    name: str
    spec: str
    encode: Callable[[str], str]
    decode: Callable[[str], str] | None = None
    encode_set: EncodeSet | None = None
    notes: str = ""
    encode_pairs: Callable[[Sequence[tuple[str, str]]], str] | None = field(default=None)
    family: str = ""
    aliases: tuple[str, ...] = ()

    def describe(self) -> dict[str, Any]:
        """Plain data about the scheme (for JSON output)."""
        return {
            "name": self.name,
            "spec": self.spec,
            "family": self.family,
            "notes": self.notes,
            "has_decode": self.decode is not None,
            "has_encode_pairs": self.encode_pairs is not None,
            "encode_set": self.encode_set.name if self.encode_set is not None else None,
            "aliases": list(self.aliases),
        }


def pairs_arg(
    pairs: object, what: str = "encode_pairs()"
) -> list[tuple[str | bytes, str | bytes]]:
    """Check the argument of an ``encode_pairs``: a mapping, or an iterable of
    ``(name, value)`` pairs (tuples or lists of two), names and values ``str``
    or bytes-like.  Returns a list of pairs; anything malformed raises
    :class:`~percent_encoding.errors.PercentEncodingTypeError`.
    """
    if isinstance(pairs, (str, bytes, bytearray, memoryview)) or not isinstance(
        pairs, (Mapping, Iterable)
    ):
        raise PercentEncodingTypeError(
            f"{what} takes a mapping or (name, value) pairs, not {type(pairs).__name__}"
        )
    items: Iterable[object] = pairs.items() if isinstance(pairs, Mapping) else pairs
    out: list[tuple[str | bytes, str | bytes]] = []
    for i, item in enumerate(items):
        if not isinstance(item, (tuple, list)) or len(item) != 2:
            raise PercentEncodingTypeError(
                f"{what}: item {i} is not a (name, value) pair: {item!r:.60}"
            )
        pair: list[str | bytes] = []
        for part in item:
            if isinstance(part, (bytearray, memoryview)):
                part = bytes(part)
            if not isinstance(part, (str, bytes)):
                raise PercentEncodingTypeError(
                    f"{what}: item {i} has a {type(part).__name__}; names and values are "
                    "str or bytes"
                )
            pair.append(part)
        out.append((pair[0], pair[1]))
    return out


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


def _whatwg_schemes() -> list[Scheme]:
    from . import core, sets

    def make(s: EncodeSet) -> Scheme:
        def enc(text: str) -> str:
            return core.encode(text, s)

        def dec(text: str) -> str:
            return core.decode_text(text)

        return Scheme(
            name="whatwg-" + (s.name or ""),
            spec=s.spec or "",
            encode=enc,
            decode=dec,
            encode_set=s,
            notes="UTF-8, then every byte in the set as %XX (upper-case hex)",
            family="WHATWG URL Standard",
        )

    wanted = ("c0-control", "fragment", "query", "special-query", "path", "userinfo", "component")
    return [make(sets.get(n)) for n in wanted]


def _load() -> None:
    # Build the whole registry aside and publish it at once, under a lock: two
    # threads reading it first, or a feature module failing to import, must not
    # leave a half-filled registry behind (the next call would then report
    # "registered twice" instead of the real error).
    global _loaded
    if _loaded:
        return
    with _load_lock:
        if _loaded:
            return
        registry: dict[str, Scheme] = {}
        aliases: dict[str, str] = {}
        for s in _whatwg_schemes():
            _add(s, registry, aliases)
        for mod in _MODULES:
            m = importlib.import_module(f"{__package__}.{mod}")
            for s in m.SCHEMES:
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
