"""The scheme record: what every feature module declares, and what the registry holds.

Strategy: data flows one way.  This module sits below the feature modules
(:mod:`.form`, :mod:`.ecmascript`, :mod:`.legacy`, …), which import it to declare
their schemes as data (a module-level ``SCHEMES`` tuple of :class:`Scheme`);
:mod:`.schemes` sits above them, imports them and assembles the registry; the
front ends (:mod:`._tool`, the CLI, the web tool) read it.  Nothing below
:mod:`.schemes` imports it.

A :class:`Scheme` carries its own properties (``plain``, ``space_as_plus``,
``reversible``) as declared facts, so a reader never has to run a scheme to
learn what it is; a test checks every declaration against the scheme's
behaviour.  :func:`from_encode_set` is the one way to build a scheme that is
plain percent-encoding with an encode set (URL Standard §1.3 "percent-encode
after encoding", UTF-8).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from . import core as _core
from .errors import PercentEncodingError, PercentEncodingTypeError
from .sets import EncodeSet

__all__ = ["Scheme", "from_encode_set", "pairs_arg"]


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

    Declared properties:

    * ``plain``: ``encode`` is exactly UTF-8 percent-encoding with ``encode_set``
      (space as ``+`` when ``space_as_plus``), and ``decode`` its inverse, so the
      scheme also works with a legacy encoding, strict decoding and raw bytes.
    * ``space_as_plus``: a space is written as ``+`` (and ``+`` decodes to a space).
    * ``reversible``: ``decode(encode(x)) == x`` for every ``x`` that ``encode``
      accepts (``False`` when there is no decoder, or when the encoder keeps a
      ``%`` or maps two inputs to one output).
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
    plain: bool = False
    space_as_plus: bool = False
    reversible: bool = False

    def __post_init__(self) -> None:
        if self.plain and self.encode_set is None:
            raise PercentEncodingError(f"scheme {self.name!r} is plain but has no encode set")
        if self.reversible and self.decode is None:
            raise PercentEncodingError(f"scheme {self.name!r} is reversible but has no decoder")

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
            "plain": self.plain,
            "space_as_plus": self.space_as_plus,
            "reversible": self.reversible,
        }


def from_encode_set(
    encode_set: EncodeSet,
    *,
    name: str | None = None,
    spec: str | None = None,
    notes: str = "",
    family: str = "",
    space_as_plus: bool = False,
    encode_pairs: Callable[[Sequence[tuple[str, str]]], str] | None = None,
    aliases: tuple[str, ...] = (),
) -> Scheme:
    """The scheme that is plain UTF-8 percent-encoding with ``encode_set``.

    ``name`` and ``spec`` default to the set's own.  It decodes with
    :func:`~percent_encoding.core.decode_text` (``+`` as a space when
    ``space_as_plus``).  It is reversible when the set encodes ``%`` (and ``+``
    when a space is written as ``+``): only then is every ``%`` in the output an
    escape the encoder wrote.
    """
    s = encode_set

    def enc(text: str) -> str:
        return _core.encode(text, s, space_as_plus=space_as_plus)

    def dec(text: str) -> str:
        return _core.decode_text(text, plus_as_space=space_as_plus)

    return Scheme(
        name=(s.name or "") if name is None else name,
        spec=(s.spec or "") if spec is None else spec,
        encode=enc,
        decode=dec,
        encode_set=s,
        notes=notes,
        encode_pairs=encode_pairs,
        family=family,
        aliases=aliases,
        plain=True,
        space_as_plus=space_as_plus,
        reversible="%" in s and (not space_as_plus or "+" in s),
    )


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
