"""application/x-www-form-urlencoded parsing: ``parse``, ``parse_bytes``, ``ParsedForm``.

Strategy: the default path (UTF-8, ``&``, lossy decoding) goes straight to the
kernels (``core.form_parse_kernel`` / ``form_parse_bytes_kernel``).  Every option is a
small rewrite of the input before the kernel (``;`` becomes ``&``, a leading
``?`` is dropped, the isindex field is swapped) or a different text decoder
after it (a legacy encoding, strict decoding).  Bad input raises one of the
library's errors with a position into the input; limits raise
:class:`FormLimitError`, never truncate.  The argument helpers and field
decoding here are shared by the rest of the package.

Specs: URL Standard §5.1 "application/x-www-form-urlencoded parser"; the URL
Standard before 2016 (``_charset_`` and isindex flags) and HTML 4.01 §B.2.2
(``;`` as a separator) for the options that reproduce older clients.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Literal, cast, overload

from .. import _args
from .. import core as _core
from .._abnf import BAD_PERCENT, BAD_PERCENT_BYTES, LONE_SURROGATE
from ..core import to_usv_string
from ..errors import (
    FormLimitError,
    PercentDecodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)

if TYPE_CHECKING:
    from .._charset import CharsetGuess
    from ..encodings import Encoding


Errors = _args.DecodeErrors
Text = str | bytes
Pair = tuple[str, str]

_UTF8_LABELS = _core._UTF8_LABELS
_CHARSET_STR = re.compile("_charset_", re.IGNORECASE)
_CHARSET_BYTES = re.compile(b"_charset_", re.IGNORECASE)
_HEX_PAIR_STR = re.compile("[0-9A-Fa-f]{2}")
_HEX_PAIR_BYTES = re.compile(b"[0-9A-Fa-f]{2}")
# Characters a separator may not be: they mean something inside a field.
_NOT_SEPARATORS = frozenset("=+%") | frozenset("0123456789ABCDEFabcdef")


# --------------------------------------------------------------------------------------------
# Argument helpers


def _check_data(data: object, func: str) -> Text:
    return _args.check_text("data", data, func)


def _check_errors(errors: str) -> bool:
    """True for "fatal" (or its synonym "strict"), False for "replace"."""
    if errors == "replace":
        return False
    return _args.is_fatal(errors)


def _check_strict(strict: bool | None) -> bool | None:
    # strict= is the %-syntax switch everywhere (docs/options.md).  Before it
    # existed here, errors="strict" covered a bad "%" too; strict=None keeps
    # that for now (with a DeprecationWarning when a bad "%" is actually met)
    # and will mean False in a later release.
    return None if strict is None else _args.check_bool("strict", strict)


_BAD_PERCENT_UNDER_ERRORS = (
    "a bad '%' raising because of errors='fatal'/'strict' is deprecated: errors= is "
    "about text decoding only; pass strict=True to keep rejecting bad escapes "
    "(or strict=False to keep them as they are)"
)


def _check_separators(separators: str) -> str:
    _args.check_str("separators", separators)
    if not separators:
        raise PercentEncodingError(
            "separators must name at least one character, e.g. '&' or '&;'"
        )
    for ch in separators:
        if not ch.isascii() or ch in _NOT_SEPARATORS:
            raise PercentEncodingError(
                f"{ch!r} cannot be a separator: use ASCII characters other than "
                "'=', '+', '%' and hex digits (e.g. '&;')"
            )
    return separators


def _check_limit(value: int | None, name: str) -> int | None:
    return _args.check_int_limit(name, value)  # type: ignore[no-any-return]


def _check_flag(value: object, name: str) -> bool:
    # A flag that is not a bool is a mistake (isindex=object() would swap a
    # name and value silently), as the core functions' flags are checked.
    return _args.check_bool(name, value)


def _check_limits(
    max_fields: int | None, max_field_size: int | None, max_total: int | None
) -> tuple[int | None, int | None, int | None]:
    return (
        _check_limit(max_fields, "max_fields"),
        _check_limit(max_field_size, "max_field_size"),
        _check_limit(max_total, "max_total"),
    )


def _usv(text: Text, strict: bool) -> Text:
    # The string parser UTF-8 encodes its input (URL Standard §5.1), which
    # needs scalar values: a lone surrogate becomes U+FFFD (the USVString
    # conversion), or is an error in strict mode.
    if type(text) is str and not text.isascii():
        m = LONE_SURROGATE.search(text)
        if m is not None:
            if strict:
                raise PercentDecodeError(
                    f"lone surrogate U+{ord(m.group()):04X} at position {m.start()} cannot "
                    "be UTF-8 encoded; pass errors='replace' to read it as U+FFFD",
                    m.start(),
                )
            return to_usv_string(text)
    return text


def _main_separator(separators: str) -> str:
    return "&" if "&" in separators else separators[0]


def _amp(data: Text, sep: str = "&") -> Text:
    return sep if isinstance(data, str) else sep.encode("ascii")


def _unify_separators(data: Text, separators: str, sep: str) -> Text:
    # Every separator means the same, and none survives in a name or value,
    # so they are all rewritten to one (length-preserving, so positions hold).
    for ch in separators:
        if ch != sep:
            if isinstance(data, str):
                data = data.replace(ch, sep)
            else:
                data = data.replace(ch.encode("ascii"), sep.encode("ascii"))
    return data


def _to_ampersands(data: Text, sep: str) -> Text:
    # For the "&" kernels when "&" is not a separator: a literal "&" and
    # "%26" decode alike, so escape it, then make the separator "&".
    if sep == "&":
        return data
    if isinstance(data, str):
        return data.replace("&", "%26").replace(sep, "&")
    return data.replace(b"&", b"%26").replace(sep.encode("ascii"), b"&")


def _isindex_first(data: Text, sep: str = "&") -> bool:
    """Whether the isindex rule applies: the first field is non-empty and has no '='."""
    amp = _amp(data, sep)
    end = data.find(amp)  # type: ignore[arg-type]
    first = data if end < 0 else data[:end]
    eq = "=" if isinstance(data, str) else b"="
    return bool(first) and eq not in first  # type: ignore[operator]


_FIELD_RE: dict[tuple[str, bool], re.Pattern[str] | re.Pattern[bytes]] = {}


def _field_re(sep: str, as_bytes: bool) -> re.Pattern[str] | re.Pattern[bytes]:
    key = (sep, as_bytes)
    pat = _FIELD_RE.get(key)
    if pat is None:
        src = "[^" + re.escape(sep) + "]+"
        pat = re.compile(src.encode("ascii")) if as_bytes else re.compile(src)
        _FIELD_RE[key] = pat
    return pat


def _utf8_len(text: Text, limit: int) -> int:
    """The UTF-8 length of ``text``, exact when it is at most ``limit`` + 1."""
    n = len(text)
    if isinstance(text, bytes) or n > limit or 4 * n <= limit or text.isascii():
        return n
    return len(text.encode("utf-8", "surrogatepass"))


def _count_fields(
    data: Text,
    max_fields: int | None,
    sep: str = "&",
    max_field_size: int | None = None,
    max_total: int | None = None,
) -> None:
    # Counted while scanning, stopping at the first field past a limit: the
    # limits bound the work and memory spent before the error, not just the
    # result (a split() first would cost ~15x the body).  Sizes are UTF-8 bytes
    # of the body and of one name=value, as FormParser counts them.
    if max_total is not None:
        total = _utf8_len(data, max_total)
        if total > max_total:
            raise FormLimitError(
                f"the body ({total} bytes) exceeds max_total={max_total}", "max_total", total
            )
    if max_field_size is not None and _utf8_len(data, max_field_size) <= max_field_size:
        max_field_size = None  # no field can be longer than the whole body
    if max_fields is not None and max_field_size is None:
        if data.count(_amp(data, sep)) < max_fields:  # type: ignore[arg-type]
            return  # at most count + 1 <= max_fields fields
    elif max_field_size is None:
        return
    n = 0
    for m in _field_re(sep, isinstance(data, bytes)).finditer(data):  # type: ignore[arg-type]
        n += 1
        if max_fields is not None and n > max_fields:
            raise FormLimitError(
                f"the form has more than max_fields={max_fields} fields "
                f"(field {n} starts at position {m.start()})",
                "max_fields",
                n,
            )
        if max_field_size is not None:
            size = m.end() - m.start()
            if size <= max_field_size < 4 * size and isinstance(data, str):
                size = _utf8_len(m.group(), max_field_size)
            if size > max_field_size:
                raise FormLimitError(
                    f"field {n} ({size} bytes, at position {m.start()}) exceeds "
                    f"max_field_size={max_field_size}",
                    "max_field_size",
                    size,
                )


def _lookup(label: str | Encoding) -> Encoding:
    from ..encodings import lookup

    return lookup(label)


def _encoding_or_none(encoding: str | Encoding | None) -> Encoding | None:
    """None for UTF-8 (the kernels' own decoder), else the Encoding."""
    if encoding is None or (type(encoding) is str and encoding in _UTF8_LABELS):
        return None
    enc = _lookup(encoding)
    return None if enc.name == "UTF-8" else enc


# --------------------------------------------------------------------------------------------
# Decoding fields (the general path: legacy encodings, strict mode, positions)


def _input_offset(piece: Text, k: int) -> int:
    """Index in ``piece`` (the raw field text) of byte ``k`` of its percent-decoded bytes."""
    i = 0
    n = len(piece)
    if isinstance(piece, str):
        while i < n and k > 0:
            c = piece[i]
            if c == "%" and _HEX_PAIR_STR.match(piece, i + 1):
                i += 3
                k -= 1
                continue
            w = 1 if c < "\x80" else len(c.encode("utf-8"))
            if k < w:
                return i
            k -= w
            i += 1
    else:
        while i < n and k > 0:
            if piece[i] == 0x25 and _HEX_PAIR_BYTES.match(piece, i + 1):
                i += 3
            else:
                i += 1
            k -= 1
    return i


def _text_decoder(enc: Encoding | None, strict: bool) -> Callable[[bytes], str]:
    if enc is None:
        if not strict:
            return lambda b: b.decode("utf-8", "replace")

        def utf8_strict(b: bytes) -> str:
            try:
                return b.decode("utf-8")
            except UnicodeDecodeError as e:
                raise TextDecodeError(f"invalid UTF-8 ({e.reason})", e.start) from None

        return utf8_strict
    mode: Literal["fatal", "replace"] = "fatal" if strict else "replace"
    return lambda b: enc.decode(b, errors=mode)


def _sniff_charset(data: Text, sep: str = "&") -> Encoding | None:
    # Pre-2016 URL Standard §5.1 step "use _charset_ flag": the first field
    # named `_charset_` (compared after "+" -> space, before percent-decoding)
    # whose value is a known label sets the encoding.  The old parser compared
    # bytes exactly; HTML sends the hidden field's name in any case (§4.10.22.4
    # matches it ASCII case-insensitively), so any case matches here.
    if isinstance(data, str):
        if _CHARSET_STR.search(data) is None:
            return None
        bdata = data.encode("utf-8")
    else:
        if _CHARSET_BYTES.search(data) is None:
            return None
        bdata = data
    from ..encodings import lookup

    for seq in bdata.split(sep.encode("ascii")):
        name, _, value = seq.partition(b"=")
        if name.replace(b"+", b" ").lower() != b"_charset_":
            continue
        label = _core.decode(value, plus_as_space=True).decode("latin-1")
        try:
            return lookup(label)
        except LookupError:
            continue
    return None


def _decode_fields(
    data: Text,
    enc: Encoding | None,
    strict: bool,
    base: int,
    sep: str = "&",
    percent_strict: bool | None = None,
) -> list[Pair]:
    """URL Standard §5.1 over ``&``-separated ``data`` with any decoder; positions
    in errors are ``base`` + the index into ``data``.  ``strict``: fatal text
    decoding; ``percent_strict`` (None: follow ``strict``, deprecated): a bad
    ``%`` raises."""
    if strict if percent_strict is None else percent_strict:
        m = (BAD_PERCENT if isinstance(data, str) else BAD_PERCENT_BYTES).search(data)  # type: ignore[arg-type]
        if m is not None:
            if percent_strict is None:
                _args.warn_deprecated(_BAD_PERCENT_UNDER_ERRORS)
            pos = m.start()
            raise PercentDecodeError(
                f"invalid percent-encoding {data[pos:pos + 3]!r} at position {base + pos}: "
                "'%' must be followed by two hex digits (a literal '%' is %25)",
                base + pos,
            )
    if not strict:
        data = _to_ampersands(data, sep)
        if enc is None:
            return _core.form_parse_kernel(data)
        raw = _core.form_parse_bytes_kernel(
            data.encode("utf-8") if isinstance(data, str) else data
        )
        dec = enc.decode
        return [(dec(n), dec(v)) for n, v in raw]
    decode_text = _text_decoder(enc, True)
    out: list[Pair] = []
    amp = _amp(data, sep)
    pos = 0
    for seq in data.split(amp):  # type: ignore[arg-type]
        start = pos
        pos += len(seq) + 1
        if not seq:
            continue
        eq = seq.find("=" if isinstance(seq, str) else b"=")  # type: ignore[arg-type]
        parts = (seq, seq[:0]) if eq < 0 else (seq[:eq], seq[eq + 1 :])
        offsets = (start, start + eq + 1)
        texts: list[str] = []
        for piece, off, what in zip(parts, offsets, ("name", "value"), strict=True):
            raw_b = _core.decode(piece, plus_as_space=True)
            try:
                texts.append(decode_text(raw_b))
            except TextDecodeError as e:
                p = base + off + _input_offset(piece, e.position)
                label = enc.name if enc is not None else "UTF-8"
                raise TextDecodeError(
                    f"the {what} of field {len(out) + 1} is not valid {label} at position {p} "
                    f"({e}); pass errors='replace' to get U+FFFD instead",
                    p,
                ) from None
        out.append((texts[0], texts[1]))
    return out


# --------------------------------------------------------------------------------------------
# Parsing


@overload
def parse(
    data: str | bytes | bytearray | memoryview,
    *,
    encoding: Literal["auto"],
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
) -> ParsedForm: ...
@overload
def parse(
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
) -> list[tuple[str, str]]: ...
def parse(
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
    """Parse an application/x-www-form-urlencoded string or body into (name, value) pairs.

    URL Standard §5.1: split on ``&``, drop empty fields, split each at the
    first ``=`` (no ``=``: the value is empty), ``+`` is a space, percent-decode,
    then *UTF-8 decode without BOM* (U+FFFD for invalid bytes; a BOM is kept).
    A ``str`` is UTF-8 encoded first, as the spec's string parser does.

    Options (all off by default, which is what browsers do today):

    * ``encoding``: a WHATWG label whose decoder replaces UTF-8.
    * ``charset_hack``: the value of the first ``_charset_`` field that names a
      known encoding chooses the decoder for every field (pre-2016 URL
      Standard; it beats ``encoding``).
    * ``isindex``: a first field without ``=`` is a value with an empty name.
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
    * ``edition="2014"``: the URL Standard of 2014-2016, whose parser failed
      when an encoding override other than UTF-8 met input holding a byte
      above 0x7F (a raw byte, not a ``%XX``): that raises
      :class:`TextDecodeError` at the first such byte (for ``str``, the first
      non-ASCII character).
    * ``encoding="auto"``: choose the encoding from the data — a ``_charset_``
      field, then the ``probe`` field (``(name, expected_char)``: a hidden field
      whose value is a known character), then :func:`detect.charset` on the
      non-ASCII names and values (``content_type_charset``, a Content-Type
      ``charset=`` parameter, only adds weight).  The result is a
      :class:`ParsedForm`, a list whose ``.charset`` says what was chosen and why.
      A field that echoes the page's charset (``ie=UTF-8`` and the like, see
      :data:`percent_encoding.detect.ECHO_CHARSET_FIELDS`; ``echo_fields``
      replaces the list) is used after the probe.  ``per_field=True`` decodes
      each field with its own guess (forms put together from several
      sources); ``.fields`` holds one guess per pair.

    >>> parse("a=1&b=caf%C3%A9+au+lait&c")
    [('a', '1'), ('b', 'café au lait'), ('c', '')]
    >>> parse("q=%93%FA%96%7B", encoding="shift_jis")
    [('q', '日本')]
    """
    if type(encoding) is str and encoding.strip().lower() == "auto":
        return _parse_auto(
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
    _args.check_choice("edition", edition, ("current", "2014"))
    if (
        encoding is None
        and charset_hack is False
        and isindex is False
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
    fatal = _check_errors(errors)
    percent_strict = _check_strict(strict)
    _check_flag(charset_hack, "charset_hack")
    _check_flag(isindex, "isindex")
    _check_flag(strip_leading_question_mark, "strip_leading_question_mark")
    text = _usv(_check_data(data, "parse"), fatal)
    base = 0
    if strip_leading_question_mark and text[:1] in ("?", b"?"):
        text = text[1:]
        base = 1
    sep = "&"
    if separators != "&":
        sep = _main_separator(_check_separators(separators))
        text = _unify_separators(text, separators, sep)
    limits = _check_limits(max_fields, max_field_size, max_total)
    if limits != (None, None, None):
        _count_fields(text, limits[0], sep, limits[1], limits[2])
    enc = _encoding_or_none(encoding)
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
        sniffed = _sniff_charset(text, sep)
        if sniffed is not None:
            enc = None if sniffed.name == "UTF-8" else sniffed
    swap = isindex and _isindex_first(text, sep)
    pairs = _decode_fields(text, enc, fatal, base, sep, percent_strict)
    if swap:
        # Pre-2016 URL Standard §5.1: with the isindex flag, "=" is prepended
        # to a first field that has none, so it is all value.
        pairs[0] = ("", pairs[0][0])
    return pairs


_NON_ASCII_STR = re.compile("[^\x00-\x7f]")
_NON_ASCII_BYTES = re.compile(b"[^\x00-\x7f]")


def _first_non_ascii(text: str | bytes) -> int | None:
    m = _NON_ASCII_STR.search(text) if isinstance(text, str) else _NON_ASCII_BYTES.search(text)
    return None if m is None else m.start()


class ParsedForm(list[tuple[str, str]]):
    """The pairs :func:`parse` found with ``encoding="auto"``, plus ``.charset``:
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
        from .._charset import CharsetGuess as _Guess

        if not isinstance(charset, _Guess):
            raise PercentEncodingTypeError(
                f"charset must be a CharsetGuess, not {type(charset).__name__}"
            )
        super().__init__(pairs)
        self.charset = charset
        self.fields = [] if fields is None else fields

    def __repr__(self) -> str:
        return f"ParsedForm({list.__repr__(self)}, encoding={self.charset.encoding!r})"


def _parse_auto(
    data: str | bytes | bytearray | memoryview,
    *,
    isindex: bool,
    separators: str,
    strip_leading_question_mark: bool,
    max_fields: int | None,
    max_field_size: int | None,
    max_total: int | None,
    errors: Errors,
    strict: bool | None,
    probe: tuple[str, str] | None,
    content_type_charset: str | None,
    per_field: bool = False,
    echo_fields: Sequence[str] | None = None,
    edition: Literal["current", "2014"] = "current",
) -> ParsedForm:
    # Percent-decode once to bytes, let detect choose (hints first, then
    # scoring), then decode with the chosen encoding through the normal path.
    from .._charset import form_encodings

    if probe is not None and not (
        isinstance(probe, tuple) and len(probe) == 2 and all(isinstance(x, str) for x in probe)
    ):
        raise PercentEncodingTypeError("probe must be a (field name, expected character) tuple")
    _args.check_str("content_type_charset", content_type_charset, none=True)
    options = {
        "isindex": isindex,
        "separators": separators,
        "strip_leading_question_mark": strip_leading_question_mark,
        "max_fields": max_fields,
        "max_field_size": max_field_size,
        "max_total": max_total,
    }
    _args.check_bool("per_field", per_field)
    raw = parse_bytes(data, **options)  # type: ignore[arg-type]
    guess, fields = form_encodings(
        raw, probe=probe, content_type_charset=content_type_charset,
        echo_fields=echo_fields, per_field=per_field,
    )
    fatal = _check_errors(errors)
    _check_strict(strict)
    pairs: list[tuple[str, str]] = parse(
        data, encoding=guess.encoding, errors=errors,
        strict=strict, isindex=isindex, separators=separators,
        strip_leading_question_mark=strip_leading_question_mark, max_fields=max_fields,
        edition=edition,
    )
    if per_field:
        mode: Literal["fatal", "replace"] = "fatal" if fatal else "replace"
        for i, ((name, value), g) in enumerate(zip(raw, fields, strict=True)):
            if g.encoding != guess.encoding:
                enc = _lookup(g.encoding)
                pairs[i] = (enc.decode(name, mode), enc.decode(value, mode))
    return ParsedForm(pairs, guess, fields)


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
    raw = _check_data(data, "parse_bytes")
    _check_flag(isindex, "isindex")
    _check_flag(strip_leading_question_mark, "strip_leading_question_mark")
    b = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if strip_leading_question_mark and b[:1] == b"?":
        b = b[1:]
    sep = "&"
    if separators != "&":
        sep = _main_separator(_check_separators(separators))
        b = cast(bytes, _unify_separators(b, separators, sep))
    limits = _check_limits(max_fields, max_field_size, max_total)
    if limits != (None, None, None):
        _count_fields(b, limits[0], sep, limits[1], limits[2])
    pairs = _core.form_parse_bytes_kernel(cast(bytes, _to_ampersands(b, sep)))
    if isindex and _isindex_first(b, sep):
        pairs[0] = (b"", pairs[0][0])
    return pairs
