"""The :class:`EncodeSet` value type of :mod:`.sets`: an immutable set of code
points to percent-encode (the URL Standard §1.3 percent-encode sets, as data:
a 128-bit ASCII mask plus a non-ASCII flag), its set algebra, and how it
pickles.

Private: :class:`EncodeSet` is re-exported from :mod:`.sets`, which also
holds the registry of named sets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from . import _args
from .errors import PercentEncodingError, PercentEncodingTypeError

__all__ = ["EncodeSet"]


FULL_MASK = (1 << 128) - 1
_BIT_BYTES = bytes.maketrans(b"01", b"\x00\x01")


def mask_of(chars: str | Iterable[int]) -> int:
    if isinstance(chars, (bytes, bytearray)):
        chars = list(chars)
    try:
        items = iter(chars)
    except TypeError:
        raise PercentEncodingTypeError(
            f"expected ASCII characters (a str) or code points, got {type(chars).__name__}"
        ) from None
    mask = 0
    for c in items:
        if isinstance(c, str) and len(c) == 1:
            cp = ord(c)
        elif isinstance(c, int) and not isinstance(c, bool):
            cp = c
        else:
            raise PercentEncodingTypeError(
                f"expected single characters or int code points, got {c!r}"
            )
        if not 0 <= cp < 128:
            raise PercentEncodingError(
                f"encode sets hold ASCII code points only, got U+{cp:04X}"
            )
        mask |= 1 << cp
    return mask


def as_mask(chars: str | EncodeSet) -> int:
    if isinstance(chars, EncodeSet):
        return chars.mask
    if isinstance(chars, str):
        return mask_of(chars)
    raise PercentEncodingTypeError(
        f"expected a str of ASCII characters or an EncodeSet, got {type(chars).__name__}"
    )


class EncodeSet:
    """An immutable set of code points that a percent-encoding encodes.

    ``mask`` has bit *n* set when ASCII code point *n* is encoded; ``non_ascii``
    says whether code points above U+007F are encoded (for byte input: whether
    bytes 0x80–0xFF are).

    >>> from percent_encoding.sets import COMPONENT
    >>> "/" in COMPONENT, "a" in COMPONENT
    (True, False)
    >>> (COMPONENT - "/").encodes(ord("/"))
    False
    """

    __slots__ = ("mask", "name", "non_ascii", "spec", "table")

    mask: int
    non_ascii: bool
    name: str | None
    spec: str | None
    #: 256 bytes, 1 where that byte value (or, below 128, code point) is encoded:
    #: the form in which the kernels (pure and C) take a set.
    table: bytes

    def __init__(
        self,
        encoded: str | Iterable[int] = "",
        *,
        non_ascii: bool = True,
        name: str | None = None,
        spec: str | None = None,
        mask: int | None = None,
    ) -> None:
        _args.check_int_limit("mask", mask, minimum=None)
        _args.check_str("name", name, none=True)
        _args.check_str("spec", spec, none=True)
        m = mask_of(encoded) if mask is None else mask
        if not 0 <= m <= FULL_MASK:
            raise PercentEncodingError("mask must be a 128-bit non-negative integer")
        object.__setattr__(self, "mask", m)
        object.__setattr__(self, "non_ascii", bool(non_ascii))
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "spec", spec)
        # The 128 bits of the mask, lowest first, as 0/1 bytes (done in C: the import
        # builds some ninety sets, and a per-bit generator cost milliseconds of start-up).
        low = format(m, "0128b")[::-1].encode("ascii").translate(_BIT_BYTES)
        object.__setattr__(self, "table", low + (b"\x01" if non_ascii else b"\x00") * 128)

    # -- construction -----------------------------------------------------
    @classmethod
    def from_allowed(
        cls,
        allowed: str,
        *,
        non_ascii: bool = True,
        name: str | None = None,
        spec: str | None = None,
    ) -> EncodeSet:
        """The set that encodes every ASCII code point *not* in ``allowed``."""
        return cls(mask=FULL_MASK & ~mask_of(allowed), non_ascii=non_ascii, name=name, spec=spec)

    def named(self, name: str, spec: str | None = None) -> EncodeSet:
        """This set under a (new) name and spec citation."""
        return EncodeSet(mask=self.mask, non_ascii=self.non_ascii, name=name, spec=spec)

    # -- immutability -----------------------------------------------------
    def __setattr__(self, key: str, value: object) -> None:
        raise AttributeError("EncodeSet is immutable")

    def __delattr__(self, key: str) -> None:
        raise AttributeError("EncodeSet is immutable")

    def __reduce__(self) -> tuple[Any, ...]:
        # A pickle names the public path, percent_encoding.sets.EncodeSet._from_pickle
        # (the class's __module__ is set below), never this private module.
        return (EncodeSet._from_pickle, (self.mask, self.non_ascii, self.name, self.spec))

    @classmethod
    def _from_pickle(
        cls, mask: int, non_ascii: bool, name: str | None, spec: str | None
    ) -> EncodeSet:
        return cls(mask=mask, non_ascii=non_ascii, name=name, spec=spec)

    # -- membership -------------------------------------------------------
    def encodes(self, cp: int) -> bool:
        """Whether code point ``cp`` (or byte value, for byte input) is encoded."""
        if not isinstance(cp, int) or isinstance(cp, bool):
            raise PercentEncodingTypeError(f"encodes() takes an int, not {type(cp).__name__}")
        if cp < 0:
            raise PercentEncodingError("code points are non-negative")
        if cp < 128:
            return bool(self.mask >> cp & 1)
        return self.non_ascii

    def __contains__(self, item: object) -> bool:
        if isinstance(item, str):
            if len(item) != 1:
                raise PercentEncodingTypeError("membership takes one character")
            return self.encodes(ord(item))
        if isinstance(item, int):
            return self.encodes(item)
        raise PercentEncodingTypeError(
            f"membership takes a character or a code point, got {type(item).__name__}"
        )

    def __iter__(self) -> Iterator[str]:
        """The ASCII characters this set encodes, in code point order."""
        m = self.mask
        return (chr(i) for i in range(128) if m >> i & 1)

    def __len__(self) -> int:
        """How many ASCII code points are encoded (non-ASCII is not counted)."""
        return bin(self.mask).count("1")

    # -- algebra ----------------------------------------------------------
    def __or__(self, other: EncodeSet | str) -> EncodeSet:
        if isinstance(other, EncodeSet):
            return EncodeSet(
                mask=self.mask | other.mask, non_ascii=self.non_ascii or other.non_ascii
            )
        if isinstance(other, str):
            return self.add(other)
        return NotImplemented

    def __sub__(self, other: EncodeSet | str) -> EncodeSet:
        if isinstance(other, EncodeSet):
            return EncodeSet(
                mask=self.mask & ~other.mask, non_ascii=self.non_ascii and not other.non_ascii
            )
        if isinstance(other, str):
            return self.remove(other)
        return NotImplemented

    def __and__(self, other: EncodeSet) -> EncodeSet:
        if isinstance(other, EncodeSet):
            return EncodeSet(
                mask=self.mask & other.mask, non_ascii=self.non_ascii and other.non_ascii
            )
        return NotImplemented

    def add(self, chars: str | EncodeSet) -> EncodeSet:
        """A new set that also encodes ``chars``."""
        return EncodeSet(mask=self.mask | as_mask(chars), non_ascii=self.non_ascii)

    def remove(self, chars: str | EncodeSet) -> EncodeSet:
        """A new set that leaves ``chars`` alone."""
        return EncodeSet(mask=self.mask & ~as_mask(chars), non_ascii=self.non_ascii)

    # -- identity ---------------------------------------------------------
    def __eq__(self, other: object) -> bool:
        if isinstance(other, EncodeSet):
            return self.mask == other.mask and self.non_ascii == other.non_ascii
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.mask, self.non_ascii))

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        parts = []
        ctrl = [c for c in self if ord(c) < 0x20]
        if len(ctrl) == 32:
            parts.append("C0 controls")
        elif ctrl:
            parts.append(" ".join(f"U+{ord(c):04X}" for c in ctrl))
        printable = "".join(c for c in self if 0x20 < ord(c) < 0x7F)
        if " " in self:
            parts.append("space")
        if printable:
            parts.append(repr(printable))
        if "\x7f" in self:
            parts.append("DEL")
        parts.append("non-ASCII" if self.non_ascii else "not non-ASCII")
        return f"<EncodeSet{label}: {', '.join(parts)}>"



def display(cp: int) -> str:
    """How a table shows ASCII code point ``cp``: U+XXXX for a control, SP, DEL or itself."""
    if cp < 0x20:
        return f"U+{cp:04X}"
    if cp == 0x20:
        return "SP"
    if cp == 0x7F:
        return "DEL"
    return chr(cp)


#: The named sets, name -> EncodeSet (filled by :mod:`percent_encoding.sets`); the C
#: entries take it as an argument (``_kernels.make_entry``) to look up ``encode_set="path"``.
REGISTRY: dict[str, EncodeSet] = {}



def _rebuild(mask: int, non_ascii: bool, name: str | None, spec: str | None) -> EncodeSet:
    # Pickles written before EncodeSet pickled through percent_encoding.sets name this.
    return EncodeSet(mask=mask, non_ascii=non_ascii, name=name, spec=spec)


# Users meet the type as percent_encoding.sets.EncodeSet: say so to pickle, repr and docs.
EncodeSet.__module__ = "percent_encoding.sets"
