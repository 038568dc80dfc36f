"""application/x-www-form-urlencoded parsing: ``parse``, ``parse_bytes``, ``ParsedForm``.

Strategy: the default path (UTF-8, ``&``, lossy decoding) goes straight to the
kernels (``core.form_parse_kernel`` / ``form_parse_bytes_kernel``).  Every option is a
small rewrite of the input before the kernel (``;`` becomes ``&``, a leading
``?`` is dropped, the isindex field is swapped) or a different text decoder
after it (a legacy encoding, strict decoding).  Bad input raises one of the
library's errors with a position into the input; limits raise
:class:`FormLimitError`, never truncate.  The input checks, rewrites and the limits
scan are in :mod:`._input`, field decoding (legacy encodings, strict mode, the
``_charset_`` flag) in :mod:`._fields`; both are shared by the rest of the package
and re-exported here.

Specs: URL Standard §5.1 "application/x-www-form-urlencoded parser"; the URL
Standard before 2016 (``_charset_`` and isindex flags) and HTML 4.01 §B.2.2
(``;`` as a separator) for the options that reproduce older clients.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, TypedDict, cast

from .. import _args, _kernels
from .. import core as _core
from .._abnf import LONE_SURROGATE
from ..errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)
from ._fields import decode_fields as decode_fields
from ._fields import encoding_or_none as encoding_or_none
from ._fields import lookup as lookup
from ._fields import sniff_charset
from ._input import Errors as Errors
from ._input import Pair as Pair
from ._input import Text as Text
from ._input import (
    check_data,
    check_flag,
    check_limits,
    count_fields,
    isindex_first,
    to_ampersands,
    unify_separators,
)
from ._input import check_errors as check_errors
from ._input import check_limit as check_limit
from ._input import check_separators as check_separators
from ._input import check_strict as check_strict
from ._input import main_separator as main_separator
from ._input import usv as usv

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..encodings._detect import CharsetGuess


class _MovedOptions(TypedDict, total=False):
    """The keywords :func:`parse` no longer takes but still accepts, deprecated."""

    charset_hack: bool
    isindex: bool
    edition: Literal["current", "2014"]
    probe: tuple[str, str] | None
    content_type_charset: str | None
    per_field: bool
    echo_fields: Sequence[str] | None


# --------------------------------------------------------------------------------------------
# Parsing


def parse(
    data: str | bytes | bytearray | memoryview,
    *,
    encoding: str | None = None,
    separators: str = "&",
    strip_leading_question_mark: bool = False,
    max_fields: int | None = None,
    max_field_size: int | None = None,
    max_total: int | None = None,
    errors: Errors = "replace",
    strict: bool | None = None,
    **deprecated: Unpack[_MovedOptions],
) -> list[tuple[str, str]]:
    """Parse an application/x-www-form-urlencoded string or body into (name, value) pairs.

    URL Standard §5.1: split on ``&``, drop empty fields, split each at the
    first ``=`` (no ``=``: the value is empty), ``+`` is a space, percent-decode,
    then *UTF-8 decode without BOM* (U+FFFD for invalid bytes; a BOM is kept).
    A ``str`` is UTF-8 encoded first, as the spec's string parser does.

    Options (all off by default, which is what browsers do today):

    * ``encoding``: a WHATWG label whose decoder replaces UTF-8.
    * ``separators``: characters that separate fields, e.g. ``"&;"`` (HTML 4).
    * ``strip_leading_question_mark``: drop one leading ``?``.
    * ``max_fields``, ``max_field_size`` (UTF-8 bytes of one ``name=value``),
      ``max_total`` (UTF-8 bytes of the body): crossing one raises
      :class:`FormLimitError`, as :class:`FormParser` does; the fields are
      counted while scanning, so the error costs no more than the limit.
    * ``errors="fatal"`` (or its synonym ``"strict"``): undecodable bytes
      raise :class:`TextDecodeError`, with positions into ``data``.
    * ``strict=True``: an invalid ``%`` raises :class:`PercentDecodeError`
      (position into ``data``), as in :func:`percent_encoding.decode`.  Left
      at ``None``, it follows ``errors`` as it always has (fatal errors
      reject a bad ``%`` too, now with a :class:`DeprecationWarning`); a
      later release makes ``None`` mean ``False``, so that ``errors`` covers
      text decoding only, as everywhere else.

    The encoding guessing that ``encoding="auto"`` did (with ``probe``,
    ``content_type_charset``, ``per_field`` and ``echo_fields``) is
    :func:`percent_encoding.detect.parse_form`; the pre-2016 modes (``charset_hack``,
    ``isindex``, ``edition="2014"``) are :func:`percent_encoding.legacy.whatwg_form_parse`.
    The old keywords still work here for one release, with a
    :class:`~percent_encoding.errors.PercentEncodingDeprecationWarning` naming the new call.

    >>> parse("a=1&b=caf%C3%A9+au+lait&c")
    [('a', '1'), ('b', 'café au lait'), ('c', '')]
    >>> parse("q=%93%FA%96%7B", encoding="shift_jis")
    [('q', '日本')]
    """
    if (
        not deprecated
        and encoding is None
        and separators == "&"
        and strip_leading_question_mark is False
        and max_fields is None
        and max_field_size is None
        and max_total is None
        and errors == "replace"
        and (strict is None or strict is False)
    ):
        if type(data) is bytes:
            return _core.form_parse_kernel(data)
        if type(data) is str and (data.isascii() or LONE_SURROGATE.search(data) is None):
            return _core.form_parse_kernel(data)
    if deprecated or (_names_auto(encoding)):
        _warn_moved(encoding, deprecated)
    return full_parse(
        data, encoding=encoding, separators=separators,
        strip_leading_question_mark=strip_leading_question_mark, max_fields=max_fields,
        max_field_size=max_field_size, max_total=max_total, errors=errors, strict=strict,
        **deprecated,
    )


def _names_auto(encoding: object) -> bool:
    """Whether ``encoding`` is the string ``"auto"`` (any case, spaces around), the old
    spelling of :func:`percent_encoding.detect.parse_form`'s encoding guessing."""
    return type(encoding) is str and encoding.strip().lower() == "auto"


# The keywords parse() took until this release, and where each went (for one release
# more they still work here, with a warning).
_MOVED = {
    "charset_hack": "legacy.whatwg_form_parse",
    "isindex": "legacy.whatwg_form_parse",
    "edition": "legacy.whatwg_form_parse",
    "probe": "detect.parse_form",
    "content_type_charset": "detect.parse_form",
    "per_field": "detect.parse_form",
    "echo_fields": "detect.parse_form",
}


def _warn_moved(encoding: object, deprecated: Mapping[str, object]) -> None:
    for name in deprecated:
        if name not in _MOVED:
            raise PercentEncodingTypeError(f"parse() got an unexpected keyword argument {name!r}")
    moved = [f"{name}=" for name in deprecated]
    targets = sorted({_MOVED[name] for name in deprecated})
    if _names_auto(encoding):
        moved.insert(0, "encoding='auto'")
        if "detect.parse_form" not in targets:
            targets.insert(0, "detect.parse_form")
    _args.warn_deprecated(
        f"form.parse({', '.join(moved)}) is deprecated; use "
        + " or ".join(f"{t}()" for t in targets)
    )


def full_parse(
    data: str | bytes | bytearray | memoryview,
    *,
    encoding: str | None = None,
    charset_hack: bool = False,
    isindex: bool = False,
    separators: str = "&",
    strip_leading_question_mark: bool = False,
    max_fields: int | None = None,
    max_field_size: int | None = None,
    max_total: int | None = None,
    errors: Errors = "replace",
    strict: bool | None = None,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    per_field: bool = False,
    echo_fields: Sequence[str] | None = None,
    edition: Literal["current", "2014"] = "current",
) -> list[tuple[str, str]]:
    """:func:`parse` with every option it ever had: the spec's, the encoding guessing
    (``encoding="auto"`` and its hints, for :func:`percent_encoding.detect.parse_form`)
    and the pre-2016 flags (for :func:`percent_encoding.legacy.whatwg_form_parse`)."""
    if _names_auto(encoding):
        # The guessing path lives above the form parser (detect/_parse_form.py); the old
        # spelling form.parse(encoding="auto") reaches it by name, so the import graph
        # stays one way (tests/test_architecture.py lists this exception and why).
        guessing = importlib.import_module("percent_encoding.detect._parse_form")
        return guessing.parse_detected(  # type: ignore[no-any-return]
            data,
            isindex=isindex,
            separators=separators,
            strip_leading_question_mark=strip_leading_question_mark,
            max_fields=max_fields,
            max_field_size=max_field_size,
            max_total=max_total,
            errors=errors,
            strict=strict,
            probe=probe,
            content_type_charset=content_type_charset,
            per_field=per_field,
            echo_fields=echo_fields,
            edition=edition,
        )
    if probe is not None or content_type_charset is not None or echo_fields is not None:
        raise PercentEncodingError(
            "probe=, content_type_charset= and echo_fields= are hints for encoding='auto'; "
            "pass encoding='auto' to use them"
        )
    if per_field is not False:
        raise PercentEncodingError("per_field=True needs encoding='auto'")
    if edition != "current":  # (the check costs more than the rest of a small parse)
        _args.check_choice("edition", edition, ("current", "2014"))
    fatal = check_errors(errors)
    percent_strict = check_strict(strict)
    check_flag(charset_hack, "charset_hack")
    check_flag(isindex, "isindex")
    check_flag(strip_leading_question_mark, "strip_leading_question_mark")
    text = usv(check_data(data, "parse"), fatal)
    base = 0
    if strip_leading_question_mark and text[:1] in ("?", b"?"):
        text = text[1:]
        base = 1
    sep = "&"
    if separators != "&":
        sep = main_separator(check_separators(separators))
        text = unify_separators(text, separators, sep)
    limits = check_limits(max_fields, max_field_size, max_total)
    if limits != (None, None, None):
        count_fields(text, limits[0], sep, limits[1], limits[2])
    enc = encoding_or_none(encoding)
    if edition == "2014" and enc is not None:
        # URL Standard 2014-2016, urlencoded parser step 2: an encoding override
        # other than utf-8 and a byte above 0x7F in the input: return failure.
        at = _first_non_ascii(text)
        if at is not None:
            raise TextDecodeError(
                f"byte above 0x7F at {base + at} with encoding override {enc.name}: "
                "the 2014-2016 URL Standard parser fails here (the current one decodes)",
                base + at,
            )
    if charset_hack:
        sniffed = sniff_charset(text, sep)
        if sniffed is not None:
            enc = None if sniffed.name == "UTF-8" else sniffed
    swap = isindex and isindex_first(text, sep)
    pairs = decode_fields(text, enc, fatal, base, sep, percent_strict)
    if swap:
        # Pre-2016 URL Standard §5.1: with the isindex flag, "=" is prepended
        # to a first field that has none, so it is all value.
        pairs[0] = ("", pairs[0][0])
    return pairs


if not TYPE_CHECKING:
    # With the C twin active, form.parse(data) with no option goes from its C entry
    # (src/csrc/entry.c) straight to the kernel; every other call runs the above.
    parse = _kernels.make_entry("form_parse", parse, "parse")


_NON_ASCII_STR = re.compile("[^\x00-\x7f]")
_NON_ASCII_BYTES = re.compile(b"[^\x00-\x7f]")


def _first_non_ascii(text: str | bytes) -> int | None:
    m = _NON_ASCII_STR.search(text) if isinstance(text, str) else _NON_ASCII_BYTES.search(text)
    return None if m is None else m.start()


class ParsedForm(list[tuple[str, str]]):
    """The pairs :func:`percent_encoding.detect.parse_form` found, plus ``.charset``:
    the :class:`~percent_encoding.detect.CharsetGuess` for the whole form (its
    ``.encoding``, ``.confidence``, ``.reason`` and ``.findings``), and with
    ``per_field=True`` ``.fields``: one guess per pair, each pair decoded with its
    own (empty otherwise)."""

    charset: CharsetGuess
    fields: list[CharsetGuess]

    def __init__(
        self,
        pairs: Iterable[tuple[str, str]],
        charset: CharsetGuess,
        fields: list[CharsetGuess] | None = None,
    ) -> None:
        # Duck-typed: the form parser sits below the detector that makes a CharsetGuess
        # (detect.parse_form builds a ParsedForm; nothing here imports it).
        if not all(hasattr(charset, a) for a in ("encoding", "confidence", "reason")):
            raise PercentEncodingTypeError(
                f"charset must be a CharsetGuess, not {type(charset).__name__}"
            )
        super().__init__(pairs)
        self.charset = charset
        self.fields = [] if fields is None else fields

    def __repr__(self) -> str:
        return f"ParsedForm({list.__repr__(self)}, encoding={self.charset.encoding!r})"


def parse_bytes(
    data: bytes | bytearray | memoryview | str,
    *,
    isindex: bool = False,
    separators: str = "&",
    strip_leading_question_mark: bool = False,
    max_fields: int | None = None,
    max_field_size: int | None = None,
    max_total: int | None = None,
) -> list[tuple[bytes, bytes]]:
    """Parse like :func:`parse` but keep names and values as bytes (no text decoding).

    For bodies whose charset is unknown or mixed: decode each value yourself.
    The options and limits are those of :func:`parse`.

    >>> parse_bytes(b"a=%93%FA&b=caf%C3%A9+x")
    [(b'a', b'\\x93\\xfa'), (b'b', b'caf\\xc3\\xa9 x')]
    """
    raw = check_data(data, "parse_bytes")
    check_flag(isindex, "isindex")
    check_flag(strip_leading_question_mark, "strip_leading_question_mark")
    b = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if strip_leading_question_mark and b[:1] == b"?":
        b = b[1:]
    sep = "&"
    if separators != "&":
        sep = main_separator(check_separators(separators))
        b = cast(bytes, unify_separators(b, separators, sep))
    limits = check_limits(max_fields, max_field_size, max_total)
    if limits != (None, None, None):
        count_fields(b, limits[0], sep, limits[1], limits[2])
    pairs = _core.form_parse_bytes_kernel(cast(bytes, to_ampersands(b, sep)))
    if isindex and isindex_first(b, sep):
        pairs[0] = (b"", pairs[0][0])
    return pairs
