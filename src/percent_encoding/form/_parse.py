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

import functools
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Literal, TypedDict, cast

from .. import _args, _kernels
from .. import core as _core
from .._abnf import LONE_SURROGATE
from ..errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)
from ._fields import check_percents, sniff_charset
from ._fields import decode_fields as decode_fields
from ._fields import encoding_or_none as encoding_or_none
from ._fields import lookup as lookup
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
from ._options import DEFAULT_OPTIONS, FormOptions

if TYPE_CHECKING:
    from typing_extensions import Unpack

    from ..encodings._detect import CharsetGuess


class _MovedOptions(TypedDict, total=False):
    """The pre-2016 keywords :func:`parse` no longer takes but still accepts, deprecated."""

    charset_hack: bool
    isindex: bool
    edition: Literal["current", "2014"]


# The default objects, compared by identity first (one option check per call).
_AMP = "&"
_REPLACE = "replace"


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

    Guessing the encoding is :func:`percent_encoding.detect.parse_form`: the old
    ``encoding="auto"`` (and its ``probe``, ``content_type_charset``, ``per_field`` and
    ``echo_fields``) raises :class:`~percent_encoding.errors.PercentEncodingError` naming it.
    The pre-2016 modes (``charset_hack``, ``isindex``, ``edition="2014"``) are
    :func:`percent_encoding.legacy.whatwg_form_parse`; those keywords still work here for
    one release, with a :class:`~percent_encoding.errors.PercentEncodingDeprecationWarning`.

    >>> parse("a=1&b=caf%C3%A9+au+lait&c")
    [('a', '1'), ('b', 'café au lait'), ('c', '')]
    >>> parse("q=%93%FA%96%7B", encoding="shift_jis")
    [('q', '日本')]
    """
    if (
        not deprecated
        and encoding is None
        and separators is _AMP
        and strip_leading_question_mark is False
        and max_fields is None
        and max_field_size is None
        and max_total is None
        and errors is _REPLACE
        and (strict is None or strict is False)
    ):
        if type(data) is bytes:
            return _core.form_parse_kernel(data)
        if type(data) is str and (data.isascii() or LONE_SURROGATE.search(data) is None):
            return _core.form_parse_kernel(data)
    if deprecated or _names_auto(encoding):
        _check_moved(encoding, deprecated)
        return parse_with(data, FormOptions(
            encoding, separators, strip_leading_question_mark, max_fields, max_field_size,
            max_total, errors, strict, **deprecated,
        ))
    args = (encoding, separators, strip_leading_question_mark, max_fields, max_field_size,
            max_total, errors, strict)
    try:
        options = _options(*args)
    except TypeError:  # an unhashable value, wrong anyway: parse_with's checks name it
        options = FormOptions(*args)
    return parse_with(data, options)


# A frozen dataclass costs about a microsecond to build; the few option sets a program
# uses are built once each (typed: 1 and True stay apart, so each value is still checked).
_options = functools.lru_cache(maxsize=64, typed=True)(FormOptions)


def _names_auto(encoding: object) -> bool:
    """Whether ``encoding`` is the string ``"auto"`` (any case, spaces around), the old
    spelling of :func:`percent_encoding.detect.parse_form`'s encoding guessing."""
    return type(encoding) is str and encoding.strip().lower() == "auto"


# The pre-2016 keywords parse() took until 0.x, now legacy.whatwg_form_parse's (for one
# release more they still work here, with a warning).
_MOVED = ("charset_hack", "isindex", "edition")
# The guessing keywords, gone with encoding="auto": the guessing path sits above this
# parser (detect.parse_form), and nothing here reaches it.
_GUESSING = ("probe", "content_type_charset", "per_field", "echo_fields")


def _check_moved(encoding: object, deprecated: Mapping[str, object]) -> None:
    guessing = [f"{name}=" for name in deprecated if name in _GUESSING]
    if _names_auto(encoding) or guessing:
        spelled = ([f"encoding={encoding!r}"] if _names_auto(encoding) else []) + guessing
        raise PercentEncodingError(
            f"form.parse() no longer guesses the encoding ({', '.join(spelled)}): "
            "use detect.parse_form(), which takes the same options and returns the guess"
        )
    for name in deprecated:
        if name not in _MOVED:
            raise PercentEncodingTypeError(f"parse() got an unexpected keyword argument {name!r}")
    _args.warn_deprecated(
        f"form.parse({', '.join(f'{name}=' for name in deprecated)}) is deprecated; "
        "use legacy.whatwg_form_parse()"
    )


# The guessing path's hook: given the percent-decoded pairs, the encoding for the whole
# form and, or None, one encoding per pair (detect.parse_form passes its detector).
Choose = Callable[[list[tuple[bytes, bytes]]], tuple[str, Sequence[str] | None]]


def parse_with(
    data: str | bytes | bytearray | memoryview,
    options: FormOptions = DEFAULT_OPTIONS,
    choose: Choose | None = None,
) -> list[tuple[str, str]]:
    """:func:`parse` with its options as one :class:`FormOptions` value (the door the
    guessing and pre-2016 parsers share); ``choose``, when given, picks the encodings
    from the percent-decoded pairs of the one split (``options.encoding`` is then unused).

    >>> parse_with("a=1;b=2", FormOptions(separators="&;"))
    [('a', '1'), ('b', '2')]
    """
    o = options
    if o.edition != "current":  # (the check costs more than the rest of a small parse)
        _args.check_choice("edition", o.edition, ("current", "2014"))
    fatal = check_errors(o.errors)
    percent_strict = check_strict(o.strict)
    check_flag(o.charset_hack, "charset_hack")
    check_flag(o.isindex, "isindex")
    check_flag(o.strip_leading_question_mark, "strip_leading_question_mark")
    text = usv(check_data(data, "parse"), fatal)
    base = 0
    if o.strip_leading_question_mark and text[:1] in ("?", b"?"):
        text = text[1:]
        base = 1
    sep = "&"
    if o.separators != "&":
        sep = main_separator(check_separators(o.separators))
        text = unify_separators(text, o.separators, sep)
    limits = check_limits(o.max_fields, o.max_field_size, o.max_total)
    if limits != (None, None, None):
        count_fields(text, limits[0], sep, limits[1], limits[2])
    swap = o.isindex and isindex_first(text, sep)
    if choose is not None:
        pairs = _decode_guessed(text, base, sep, fatal, percent_strict, choose)
    else:
        pairs = _decode_with(text, base, sep, fatal, percent_strict, o)
    if swap:
        # Pre-2016 URL Standard §5.1: with the isindex flag, "=" is prepended
        # to a first field that has none, so it is all value.
        pairs[0] = ("", pairs[0][0])
    return pairs


def _decode_with(
    text: Text, base: int, sep: str, fatal: bool, percent_strict: bool | None,
    o: FormOptions,
) -> list[Pair]:
    enc = encoding_or_none(o.encoding)
    if o.edition == "2014" and enc is not None:
        # URL Standard 2014-2016, urlencoded parser step 2: an encoding override
        # other than utf-8 and a byte above 0x7F in the input: return failure.
        at = _first_non_ascii(text)
        if at is not None:
            raise TextDecodeError(
                f"byte above 0x7F at {base + at} with encoding override {enc.name}: "
                "the 2014-2016 URL Standard parser fails here (the current one decodes)",
                base + at,
            )
    if o.charset_hack:
        sniffed = sniff_charset(text, sep)
        if sniffed is not None:
            enc = None if sniffed.name == "UTF-8" else sniffed
    return decode_fields(text, enc, fatal, base, sep, percent_strict)


def _decode_guessed(
    text: Text, base: int, sep: str, fatal: bool, percent_strict: bool | None,
    choose: Choose,
) -> list[Pair]:
    # One split: the percent-decoded pairs feed the guess and then the decoders.
    b = text.encode("utf-8") if isinstance(text, str) else text  # USVs: no surrogates left
    raw = _core.form_parse_bytes_kernel(cast(bytes, to_ampersands(b, sep)))
    whole, each = choose(raw)
    check_percents(text, fatal, base, percent_strict)
    mode: Literal["fatal", "replace"] = "fatal" if fatal else "replace"
    encs = [lookup(e) for e in each] if each is not None else [lookup(whole)] * len(raw)
    try:
        return [(e.decode(n, mode), e.decode(v, mode)) for (n, v), e in zip(raw, encs, strict=True)]
    except TextDecodeError:
        # The error with its position into ``data``: only the text path knows it (a
        # second split, on the way to raising).
        decode_fields(text, encoding_or_none(whole), True, base, sep, False)
        raise


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
