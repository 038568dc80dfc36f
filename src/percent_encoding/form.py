"""application/x-www-form-urlencoded: parse, serialize, incremental parsing,
``URLSearchParams`` and what an HTML form submission sends.

Strategy: the default path (UTF-8, ``&``, lossy decoding) goes straight to the
kernels (``core._k.form_parse`` / ``form_parse_bytes`` / ``form_serialize``),
which the C twin speeds up.  Every option is a small rewrite of the input
before the kernel (``;`` becomes ``&``, a leading ``?`` is dropped, the
isindex field is swapped) or a different text decoder after it (a legacy
encoding, strict decoding).  Bad input raises one of the library's errors with
a position into the input; limits raise :class:`FormLimitError`, never
truncate.

Specs:

* URL Standard §5 "application/x-www-form-urlencoded": §5.1 parser, §5.2
  serializer (https://url.spec.whatwg.org/#application/x-www-form-urlencoded).
* URL Standard §6.2 "URLSearchParams class".
* URL Standard before 2016 (the ``_charset_`` and isindex flags of the
  parser, removed in whatwg/url c85fb5d) and HTML 4.01 §B.2.2 (``;`` as a
  separator): options that reproduce what older clients send.
* HTML §4.10.22 "Form submission": *constructing the entry list* (the
  ``_charset_`` hidden field), *selecting a form submission encoding*,
  *converting an entry list to a list of name-value pairs* (CRLF),
  *text/plain encoding algorithm*, *mail with headers* / *mail as body*.

The ``charset=`` parameter of a ``Content-Type`` header has no part in any of
this: URL Standard §5.1 always decodes as UTF-8 and HTML's form submission
never sends the parameter, so this module never reads it (docs/forms.md).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Literal, cast

from . import core as _core
from .core import to_usv_string
from .errors import (
    FormLimitError,
    PercentDecodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)
from .schemes import Scheme
from .sets import FORM_URLENCODED, PATH

if TYPE_CHECKING:
    from ._charset import CharsetGuess
    from .encodings import Encoding

__all__ = [
    "SCHEMES",
    "FormParser",
    "ParsedForm",
    "URLSearchParams",
    "html_form_body",
    "parse",
    "parse_bytes",
    "serialize",
]

Errors = Literal["replace", "strict"]
Text = str | bytes
Pair = tuple[str, str]

_UTF8_LABELS = _core._UTF8_LABELS
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_ASTRAL = re.compile("[\U00010000-\U0010ffff]")
_BAD_PCT_STR = re.compile(r"%(?![0-9A-Fa-f]{2})")
_BAD_PCT_BYTES = re.compile(rb"%(?![0-9A-Fa-f]{2})")
_CHARSET_STR = re.compile("_charset_", re.IGNORECASE)
_CHARSET_BYTES = re.compile(b"_charset_", re.IGNORECASE)
_NEWLINES = re.compile("\r\n|\r|\n")
_PAIR_TYPES = frozenset({tuple, list})
_HEX_PAIR_STR = re.compile("[0-9A-Fa-f]{2}")
_HEX_PAIR_BYTES = re.compile(b"[0-9A-Fa-f]{2}")
# Characters a separator may not be: they mean something inside a field.
_NOT_SEPARATORS = frozenset("=+%") | frozenset("0123456789ABCDEFabcdef")


# --------------------------------------------------------------------------------------------
# Argument helpers


def _check_data(data: object, func: str) -> Text:
    if type(data) is str or type(data) is bytes:
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    if isinstance(data, str):
        return str(data)
    if isinstance(data, bytes):
        return bytes(data)
    raise PercentEncodingTypeError(f"{func}() takes str or bytes, not {type(data).__name__}")


def _check_errors(errors: str) -> bool:
    if errors == "replace":
        return False
    if errors == "strict":
        return True
    if not isinstance(errors, str):
        raise PercentEncodingTypeError(f"errors must be a str, not {type(errors).__name__}")
    raise PercentEncodingError(f"errors must be 'replace' or 'strict', not {errors!r}")


def _check_separators(separators: str) -> str:
    if not isinstance(separators, str):
        raise PercentEncodingTypeError("separators must be a str of separator characters")
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
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool):
        raise PercentEncodingTypeError(f"{name} must be an int or None, not {type(value).__name__}")
    if value < 0:
        raise PercentEncodingError(f"{name} must be non-negative, not {value}")
    return value


def _usv(text: Text, strict: bool) -> Text:
    # The string parser UTF-8 encodes its input (URL Standard §5.1), which
    # needs scalar values: a lone surrogate becomes U+FFFD (the USVString
    # conversion), or is an error in strict mode.
    if type(text) is str and not text.isascii():
        m = _LONE_SURROGATE.search(text)
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


def _count_fields(data: Text, max_fields: int, sep: str = "&") -> None:
    amp = _amp(data, sep)
    if data.count(amp) < max_fields:  # type: ignore[arg-type]
        return  # at most count + 1 <= max_fields fields
    n = sum(1 for seq in data.split(amp) if seq)  # type: ignore[arg-type, misc]
    if n > max_fields:
        raise FormLimitError(
            f"the form has {n} fields, more than max_fields={max_fields}",
            "max_fields",
            n,
        )


def _lookup(label: str | Encoding) -> Encoding:
    from .encodings import lookup

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
    from .encodings import lookup

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
    data: Text, enc: Encoding | None, strict: bool, base: int, sep: str = "&"
) -> list[Pair]:
    """URL Standard §5.1 over ``&``-separated ``data`` with any decoder; positions
    in errors are ``base`` + the index into ``data``."""
    if strict:
        m = (_BAD_PCT_STR if isinstance(data, str) else _BAD_PCT_BYTES).search(data)  # type: ignore[arg-type]
        if m is not None:
            pos = m.start()
            raise PercentDecodeError(
                f"invalid percent-encoding {data[pos:pos + 3]!r} at position {base + pos}: "
                "'%' must be followed by two hex digits (a literal '%' is %25)",
                base + pos,
            )
    if not strict:
        data = _to_ampersands(data, sep)
        if enc is None:
            return _core._k.form_parse(data)  # type: ignore[no-any-return]
        raw = _core._k.form_parse_bytes(
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


def parse(
    data: str | bytes | bytearray | memoryview,
    *,
    encoding: str | None = None,
    charset_hack: bool = False,
    isindex: bool = False,
    separators: str = "&",
    strip_leading_question_mark: bool = False,
    max_fields: int | None = None,
    errors: Errors = "replace",
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
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
    * ``max_fields``: more non-empty fields raise :class:`FormLimitError`.
    * ``errors="strict"``: an invalid ``%`` raises :class:`PercentDecodeError`
      and undecodable bytes raise :class:`TextDecodeError`, with positions
      into ``data``.
    * ``encoding="auto"``: choose the encoding from the data — a ``_charset_``
      field, then the ``probe`` field (``(name, expected_char)``: a hidden field
      whose value is a known character), then :func:`detect.charset` on the
      non-ASCII names and values (``content_type_charset``, a Content-Type
      ``charset=`` parameter, only adds weight).  The result is a
      :class:`ParsedForm`, a list whose ``.charset`` says what was chosen and why.

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
            errors=errors,
            probe=probe,
            content_type_charset=content_type_charset,
        )
    if probe is not None or content_type_charset is not None:
        raise PercentEncodingError(
            "probe= and content_type_charset= are hints for encoding='auto'; "
            "pass encoding='auto' to use them"
        )
    if (
        encoding is None
        and not charset_hack
        and not isindex
        and separators == "&"
        and not strip_leading_question_mark
        and max_fields is None
        and errors == "replace"
    ):
        if type(data) is bytes:
            return _core._k.form_parse(data)  # type: ignore[no-any-return]
        if type(data) is str and (data.isascii() or _LONE_SURROGATE.search(data) is None):
            return _core._k.form_parse(data)  # type: ignore[no-any-return]
    strict = _check_errors(errors)
    text = _usv(_check_data(data, "parse"), strict)
    base = 0
    if strip_leading_question_mark and text[:1] in ("?", b"?"):
        text = text[1:]
        base = 1
    sep = "&"
    if separators != "&":
        sep = _main_separator(_check_separators(separators))
        text = _unify_separators(text, separators, sep)
    limit = _check_limit(max_fields, "max_fields")
    if limit is not None:
        _count_fields(text, limit, sep)
    enc = _encoding_or_none(encoding)
    if charset_hack:
        sniffed = _sniff_charset(text, sep)
        if sniffed is not None:
            enc = None if sniffed.name == "UTF-8" else sniffed
    swap = isindex and _isindex_first(text, sep)
    pairs = _decode_fields(text, enc, strict, base, sep)
    if swap:
        # Pre-2016 URL Standard §5.1: with the isindex flag, "=" is prepended
        # to a first field that has none, so it is all value.
        pairs[0] = ("", pairs[0][0])
    return pairs


class ParsedForm(list[tuple[str, str]]):
    """The pairs :func:`parse` found with ``encoding="auto"``, plus ``.charset``:
    the :class:`~percent_encoding.detect.CharsetGuess` it decoded with (its
    ``.encoding``, ``.confidence`` and ``.reason``)."""

    charset: CharsetGuess

    def __init__(self, pairs: Iterable[tuple[str, str]], charset: CharsetGuess) -> None:
        super().__init__(pairs)
        self.charset = charset

    def __repr__(self) -> str:
        return f"ParsedForm({list.__repr__(self)}, encoding={self.charset.encoding!r})"


def _parse_auto(
    data: str | bytes | bytearray | memoryview,
    *,
    isindex: bool,
    separators: str,
    strip_leading_question_mark: bool,
    max_fields: int | None,
    errors: Errors,
    probe: tuple[str, str] | None,
    content_type_charset: str | None,
) -> ParsedForm:
    # Percent-decode once to bytes, let detect choose (hints first, then
    # scoring), then decode with the chosen encoding through the normal path.
    from .detect import choose_form_encoding

    if probe is not None and not (
        isinstance(probe, tuple) and len(probe) == 2 and all(isinstance(x, str) for x in probe)
    ):
        raise PercentEncodingTypeError("probe must be a (field name, expected character) tuple")
    if content_type_charset is not None and not isinstance(content_type_charset, str):
        raise PercentEncodingTypeError("content_type_charset must be a str")
    options = {
        "isindex": isindex,
        "separators": separators,
        "strip_leading_question_mark": strip_leading_question_mark,
        "max_fields": max_fields,
    }
    raw = parse_bytes(data, **options)  # type: ignore[arg-type]
    guess = choose_form_encoding(
        raw, probe=probe, content_type_charset=content_type_charset
    )
    pairs = parse(data, encoding=guess.encoding, errors=errors, **options)  # type: ignore[arg-type]
    return ParsedForm(pairs, guess)


def parse_bytes(
    data: bytes | bytearray | memoryview | str,
    *,
    isindex: bool = False,
    separators: str = "&",
    strip_leading_question_mark: bool = False,
    max_fields: int | None = None,
) -> list[tuple[bytes, bytes]]:
    """Parse like :func:`parse` but keep names and values as bytes (no text decoding).

    For bodies whose charset is unknown or mixed: decode each value yourself.

    >>> parse_bytes(b"a=%93%FA&b=caf%C3%A9+x")
    [(b'a', b'\\x93\\xfa'), (b'b', b'caf\\xc3\\xa9 x')]
    """
    raw = _check_data(data, "parse_bytes")
    b = raw.encode("utf-8", "surrogatepass") if isinstance(raw, str) else raw
    if strip_leading_question_mark and b[:1] == b"?":
        b = b[1:]
    sep = "&"
    if separators != "&":
        sep = _main_separator(_check_separators(separators))
        b = cast(bytes, _unify_separators(b, separators, sep))
    limit = _check_limit(max_fields, "max_fields")
    if limit is not None:
        _count_fields(b, limit, sep)
    pairs: list[tuple[bytes, bytes]] = _core._k.form_parse_bytes(_to_ampersands(b, sep))
    if isindex and _isindex_first(b, sep):
        pairs[0] = (b"", pairs[0][0])
    return pairs


# --------------------------------------------------------------------------------------------
# Serializing


def _check_pair(pair: object, index: int) -> tuple[Text, Text]:
    if isinstance(pair, (str, bytes)):
        raise PercentEncodingTypeError(f"pair {index} is a string, not a (name, value) pair")
    if isinstance(pair, tuple):
        items: tuple[object, ...] = pair
    else:
        try:
            items = tuple(pair)  # type: ignore[arg-type]
        except TypeError:
            raise PercentEncodingTypeError(
                f"pair {index} is a {type(pair).__name__}, not a (name, value) pair"
            ) from None
    if len(items) != 2:
        raise PercentEncodingTypeError(
            f"pair {index} has {len(items)} items; a pair is (name, value)"
        )
    name, value = items
    if not isinstance(name, (str, bytes)) or not isinstance(value, (str, bytes)):
        bad = "name" if not isinstance(name, (str, bytes)) else "value"
        raise PercentEncodingTypeError(
            f"the {bad} of pair {index} is a "
            f"{type(name if bad == 'name' else value).__name__}; names and values are "
            "str (or bytes, written as given)"
        )
    return name, value


def _pairs_list(pairs: object) -> list[tuple[Text, Text]]:
    if isinstance(pairs, Mapping):
        return list(pairs.items())
    if type(pairs) is list:
        return pairs
    if isinstance(pairs, (str, bytes)):
        raise PercentEncodingTypeError(
            "serialize() takes (name, value) pairs; to re-encode a query string parse it first"
        )
    try:
        return list(pairs)  # type: ignore[call-overload, no-any-return]
    except TypeError:
        raise PercentEncodingTypeError(
            f"serialize() takes an iterable of (name, value) pairs, not {type(pairs).__name__}"
        ) from None


def _serialize_checked(pairs: list[tuple[Text, Text]], encoding: str) -> str:
    out: list[str] = []
    enc = _core.encode
    for i, pair in enumerate(pairs):
        name, value = _check_pair(pair, i)
        out.append(
            enc(name, FORM_URLENCODED, encoding=encoding, space_as_plus=True)
            + "="
            + enc(value, FORM_URLENCODED, encoding=encoding, space_as_plus=True)
        )
    return "&".join(out)


def _serialize(
    pairs: Iterable[tuple[str | bytes, str | bytes]] | Mapping[str, str],
    *,
    encoding: str = "utf-8",
) -> str:
    """Serialize (name, value) pairs as application/x-www-form-urlencoded.

    URL Standard §5.2: each name and value is *percent-encoded after encoding*
    with the application/x-www-form-urlencoded set, space as ``+``, upper-case
    hex; pairs are joined with ``&``.  ``encoding`` is a WHATWG label: its
    output encoding is used (UTF-16 and replacement give UTF-8), and what it
    cannot represent is sent as ``&#N;`` (``%26%23N%3B``).  ``bytes`` names or
    values are percent-encoded as given.  A lone surrogate raises
    :class:`PercentEncodeError` (:class:`URLSearchParams` converts them to
    U+FFFD first, as WebIDL does).

    >>> serialize([("q", "café au lait"), ("x", "1+1=2")])
    'q=caf%C3%A9+au+lait&x=1%2B1%3D2'
    >>> serialize([("q", "€ ☃")], encoding="windows-1252")
    'q=%80+%26%239731%3B'
    """
    lst = _pairs_list(pairs)
    if type(encoding) is not str or encoding not in _UTF8_LABELS:
        if not isinstance(encoding, str):
            raise PercentEncodingTypeError("encoding must be a str label")
        name = _lookup(encoding).output_encoding.name
        if name != "UTF-8":
            return _serialize_checked(lst, name)
    if not set(map(type, lst)) <= _PAIR_TYPES:
        # a 2-character str would unpack as a pair in the kernel
        return _serialize_checked(lst, "utf-8")
    try:
        return _core._k.form_serialize(lst)  # type: ignore[no-any-return]
    except (TypeError, ValueError):
        # a name or value of another type, a pair of another length, a lone
        # surrogate: the checked path raises our error, with the pair's index
        return _serialize_checked(lst, "utf-8")


# With the C twin, serialize is a C entry: a list or tuple of (str | bytes)
# pairs in UTF-8 goes straight to the kernel, any other call to _serialize.
if TYPE_CHECKING:
    serialize = _serialize
else:
    serialize = _core._make_entry("serialize", _serialize)


# --------------------------------------------------------------------------------------------
# HTML form submission


_ENCTYPES = ("application/x-www-form-urlencoded", "text/plain")


def _normalize_newlines(s: str) -> str:
    # HTML §4.10.22.6: a CR not followed by LF and an LF not preceded by CR
    # each become CRLF.
    if "\r" not in s and "\n" not in s:
        return s
    return _NEWLINES.sub("\r\n", s)


def html_form_body(
    entries: Iterable[tuple[str, str]] | Mapping[str, str],
    *,
    encoding: str = "utf-8",
    enctype: str = "application/x-www-form-urlencoded",
    mailto: Literal["headers", "body"] | None = None,
) -> bytes:
    """The bytes an HTML form submission sends for ``entries`` (HTML §4.10.22).

    ``encoding`` is the form's encoding (the document's, or the first known
    label of ``accept-charset``); its output encoding is used, so UTF-16
    gives UTF-8.  The entry list becomes name-value pairs as HTML says: lone
    surrogates become U+FFFD, newlines become CRLF, and an entry named
    ``_charset_`` (any case; in HTML a hidden input) gets the encoding's
    name.  Then:

    * ``enctype="application/x-www-form-urlencoded"``: the URL Standard
      serializer (unencodable characters as ``%26%23N%3B``).  This is also
      the query of a GET submission.
    * ``enctype="text/plain"``: ``name=value`` CRLF lines, encoded with the
      encoding (unencodable characters as ``&#N;``).
    * ``mailto="headers"`` (a GET to ``mailto:``): the serializer with ``+``
      replaced by ``%20``; ``mailto="body"`` (a POST to ``mailto:``): the
      value that follows ``body=``; for text/plain that is the lines
      UTF-8 percent-encoded with the path set.

    >>> html_form_body([("name", "A B"), ("_charset_", "")], encoding="latin1")
    b'name=A+B&_charset_=windows-1252'
    >>> html_form_body([("t", "1\\n2")], enctype="text/plain")
    b't=1\\r\\n2\\r\\n'
    """
    if not isinstance(enctype, str):
        raise PercentEncodingTypeError(f"enctype must be a str, not {type(enctype).__name__}")
    kind = enctype.strip().lower()
    if kind not in _ENCTYPES:
        raise PercentEncodingError(
            f"unsupported enctype {enctype!r}: use 'application/x-www-form-urlencoded' "
            "or 'text/plain' (multipart/form-data is not a percent-encoding)"
        )
    if mailto is not None and not isinstance(mailto, str):
        raise PercentEncodingTypeError(f"mailto must be a str or None, not {type(mailto).__name__}")
    if mailto not in (None, "headers", "body"):
        raise PercentEncodingError(f"mailto must be None, 'headers' or 'body', not {mailto!r}")
    if not isinstance(encoding, str):
        raise PercentEncodingTypeError("encoding must be a str label")
    # HTML §4.10.22.5: the form's encoding is always an output encoding.
    enc = _lookup(encoding).output_encoding
    pairs: list[tuple[str, str]] = []
    for i, pair in enumerate(_pairs_list(entries)):
        name, value = _check_pair(pair, i)
        if not isinstance(name, str) or not isinstance(value, str):
            raise PercentEncodingTypeError(f"entry {i}: names and values must be str")
        # Entries hold scalar value strings (HTML "create an entry").
        name = to_usv_string(name)
        value = to_usv_string(value)
        if name.isascii() and name.lower() == "_charset_":
            # HTML §4.10.22.4: a hidden `_charset_` field sends the encoding's name.
            value = enc.name
        pairs.append((_normalize_newlines(name), _normalize_newlines(value)))
    if mailto == "headers":
        # HTML "mail with headers": enctype does not matter.
        return serialize(pairs, encoding=enc.name).replace("+", "%20").encode("ascii")
    if kind == "text/plain":
        # HTML §4.10.22.9 text/plain encoding algorithm.
        text = "".join(f"{n}={v}\r\n" for n, v in pairs)
        if mailto == "body":
            # HTML "mail as body": UTF-8 percent-encode with the default
            # (now: path) percent-encode set, whatever the form's encoding.
            return _core.encode(text, PATH).encode("ascii")
        if enc.name == "UTF-8":
            return text.encode("utf-8")
        return enc.encode(text, errors="html")
    return serialize(pairs, encoding=enc.name).encode("ascii")


# --------------------------------------------------------------------------------------------
# Incremental parsing


class FormParser:
    """An incremental (sans-IO) application/x-www-form-urlencoded parser.

    Feed it the body in chunks of any size; each :meth:`feed` returns the
    pairs completed so far, :meth:`close` the rest.  The result is exactly
    :func:`parse` of the whole body, however it is chunked.  Only the field
    being read is buffered, so memory is bounded by the largest field.

    Limits raise :class:`FormLimitError` in the :meth:`feed` call that
    crosses them: ``max_fields`` (non-empty fields; raised when a field past
    the limit starts), ``max_field_size`` (bytes of one ``name=value``) and
    ``max_total`` (bytes of the body).

    >>> p = FormParser()
    >>> p.feed(b"a=1&b=caf%C3")
    [('a', '1')]
    >>> p.feed(b"%A9&c")
    [('b', 'café')]
    >>> p.close()
    [('c', '')]
    """

    __slots__ = (
        "_buf",
        "_closed",
        "_enc",
        "_fields",
        "_max_field_size",
        "_max_fields",
        "_max_total",
        "_offset",
        "_sep",
        "_seps",
        "_strict",
        "_total",
    )

    def __init__(
        self,
        *,
        encoding: str | None = None,
        max_fields: int | None = None,
        max_field_size: int | None = None,
        max_total: int | None = None,
        separators: str = "&",
        errors: Errors = "replace",
    ) -> None:
        self._enc = _encoding_or_none(encoding)
        self._strict = _check_errors(errors)
        self._seps = _check_separators(separators)
        self._sep = _main_separator(separators).encode("ascii")
        self._max_fields = _check_limit(max_fields, "max_fields")
        self._max_field_size = _check_limit(max_field_size, "max_field_size")
        self._max_total = _check_limit(max_total, "max_total")
        self._buf = bytearray()
        self._fields = 0  # non-empty fields completed
        self._total = 0  # bytes fed
        self._offset = 0  # stream offset of _buf[0]
        self._closed = False

    @property
    def fields(self) -> int:
        """How many non-empty fields have been completed."""
        return self._fields

    @property
    def total(self) -> int:
        """How many bytes have been fed."""
        return self._total

    def _limit(self, what: str, limit: int, value: int, unit: str) -> FormLimitError:
        self._closed = True
        return FormLimitError(
            f"{what} exceeds {unit}={limit} (at {value}, byte {self._total} of the body)",
            unit,
            value,
        )

    def _check_partial(self) -> None:
        n = len(self._buf)
        if not n:
            return
        if self._max_field_size is not None and n > self._max_field_size:
            raise self._limit(
                f"field {self._fields + 1} ({n} bytes so far)",
                self._max_field_size,
                n,
                "max_field_size",
            )
        if self._max_fields is not None and self._fields >= self._max_fields:
            raise self._limit(
                f"field {self._fields + 1}", self._max_fields, self._fields + 1, "max_fields"
            )

    def _complete(self, head: bytes) -> list[Pair]:
        seqs = None
        if self._max_field_size is not None and len(head) > self._max_field_size:
            seqs = head.split(self._sep)
            for s in seqs:
                if len(s) > self._max_field_size:
                    raise self._limit(
                        f"a field of {len(s)} bytes", self._max_field_size, len(s),
                        "max_field_size",
                    )
        if self._max_fields is not None:
            if seqs is None:
                seqs = head.split(self._sep)
            n = sum(1 for s in seqs if s)
            if self._fields + n > self._max_fields:
                raise self._limit(
                    f"field {self._max_fields + 1}",
                    self._max_fields,
                    self._max_fields + 1,
                    "max_fields",
                )
        pairs = _decode_fields(
            head, self._enc, self._strict, self._offset, self._sep.decode("ascii")
        )
        self._fields += len(pairs)
        self._offset += len(head) + 1
        return pairs

    def feed(self, chunk: bytes | bytearray | memoryview | str) -> list[tuple[str, str]]:
        """Add the next chunk of the body; returns the pairs it completed."""
        if self._closed:
            raise PercentEncodingError("FormParser.feed() after close() or after an error")
        if isinstance(chunk, str):
            b = str(_usv(chunk, self._strict)).encode("utf-8")
        elif isinstance(chunk, bytes):
            b = chunk
        elif isinstance(chunk, (bytearray, memoryview)):
            b = bytes(chunk)
        else:
            raise PercentEncodingTypeError(
                f"feed() takes bytes, not {type(chunk).__name__}"
            )
        if not b:
            return []
        self._total += len(b)
        if self._max_total is not None and self._total > self._max_total:
            raise self._limit("the body", self._max_total, self._total, "max_total")
        if self._seps != "&":
            for ch in self._seps:
                sb = ch.encode("ascii")
                if sb != self._sep:
                    b = b.replace(sb, self._sep)
        i = b.rfind(self._sep)
        if i < 0:
            self._buf += b
            self._check_partial()
            return []
        head = bytes(self._buf) + b[:i] if self._buf else b[:i]
        self._buf = bytearray(b[i + 1 :])
        pairs = self._complete(head)
        self._check_partial()
        return pairs

    def close(self) -> list[tuple[str, str]]:
        """End of body: returns the pairs of the last field (if any)."""
        if self._closed:
            raise PercentEncodingError("FormParser.close() called twice or after an error")
        head = bytes(self._buf)
        self._buf = bytearray()
        pairs = self._complete(head) if head else []
        self._closed = True
        return pairs


# --------------------------------------------------------------------------------------------
# URLSearchParams


def _usv_arg(x: object, what: str) -> str:
    if type(x) is str:
        return x if x.isascii() else to_usv_string(x)
    if isinstance(x, str):
        return to_usv_string(str(x))
    raise PercentEncodingTypeError(
        f"URLSearchParams {what} must be str, not {type(x).__name__} "
        "(JavaScript would stringify it; call str() first)"
    )


class URLSearchParams:
    """The URL Standard's ``URLSearchParams`` (§6.2), with Python names.

    Construct it from a query string (one leading ``?`` is dropped), a
    mapping (a record), an iterable of (name, value) pairs or another
    instance.  Strings are converted to USVStrings (lone surrogates become
    U+FFFD), as WebIDL does.

    >>> p = URLSearchParams("?b=2&a=1&b=3")
    >>> p.get("b"), p.get_all("b"), p.has("a", "1"), len(p)
    ('2', ['2', '3'], True, 3)
    >>> p.append("c", "x y"); p.sort(); str(p)
    'a=1&b=2&b=3&c=x+y'
    """

    __slots__ = ("_list",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(
        self,
        init: str | Mapping[str, str] | Iterable[Sequence[str]] | URLSearchParams | None = None,
    ) -> None:
        self._list: list[Pair]
        if init is None:
            self._list = []
        elif isinstance(init, str):
            # §6.2 constructor: a leading "?" is removed, then the string parser.
            s = str(init)
            self._list = parse(s[1:] if s[:1] == "?" else s)
        elif isinstance(init, URLSearchParams):
            self._list = list(init._list)
        elif isinstance(init, Mapping):
            # A record<USVString, USVString>: keys converted first, a repeated
            # key keeps the first position and the last value (WebIDL).
            rec: dict[str, str] = {}
            for k, v in init.items():
                rec[_usv_arg(k, "names")] = _usv_arg(v, "values")
            self._list = list(rec.items())
        elif isinstance(init, (bytes, bytearray, memoryview)):
            raise PercentEncodingTypeError(
                "URLSearchParams takes a str; parse a body with form.parse(data) and pass "
                "the pairs"
            )
        else:
            self._list = []
            try:
                items = iter(init)
            except TypeError:
                raise PercentEncodingTypeError(
                    f"URLSearchParams() takes a str, a mapping or pairs, not "
                    f"{type(init).__name__}"
                ) from None
            for i, item in enumerate(items):
                if isinstance(item, (str, bytes)):
                    raise PercentEncodingTypeError(
                        f"item {i} is a string, not a (name, value) pair"
                    )
                try:
                    pair = tuple(item)
                except TypeError:
                    raise PercentEncodingTypeError(
                        f"item {i} is a {type(item).__name__}, not a (name, value) pair"
                    ) from None
                if len(pair) != 2:
                    # §6.2 constructor step: each pair must have exactly two items.
                    raise PercentEncodingTypeError(
                        f"item {i} has {len(pair)} items; each pair needs exactly 2"
                    )
                self._list.append((_usv_arg(pair[0], "names"), _usv_arg(pair[1], "values")))

    # -- §6.2 methods -------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """The number of (name, value) pairs."""
        return len(self._list)

    def append(self, name: str, value: str) -> None:
        """Add a pair at the end."""
        self._list.append((_usv_arg(name, "names"), _usv_arg(value, "values")))

    def delete(self, name: str, value: str | None = None) -> None:
        """Remove every pair named ``name`` (and, if given, whose value is ``value``)."""
        n = _usv_arg(name, "names")
        if value is None:
            self._list[:] = [p for p in self._list if p[0] != n]
        else:
            v = _usv_arg(value, "values")
            self._list[:] = [p for p in self._list if p[0] != n or p[1] != v]

    def get(self, name: str) -> str | None:
        """The value of the first pair named ``name``, or None."""
        n = _usv_arg(name, "names")
        for k, v in self._list:
            if k == n:
                return v
        return None

    def get_all(self, name: str) -> list[str]:
        """The values of every pair named ``name``, in order."""
        n = _usv_arg(name, "names")
        return [v for k, v in self._list if k == n]

    getAll = get_all  # the JavaScript name

    def has(self, name: str, value: str | None = None) -> bool:
        """Whether a pair named ``name`` (with value ``value``, if given) exists."""
        n = _usv_arg(name, "names")
        if value is None:
            return any(k == n for k, _ in self._list)
        v = _usv_arg(value, "values")
        return (n, v) in self._list

    def set(self, name: str, value: str) -> None:
        """Set the first pair named ``name`` to ``value`` and remove the others
        (append when there is none)."""
        n = _usv_arg(name, "names")
        v = _usv_arg(value, "values")
        out: list[Pair] = []
        found = False
        for p in self._list:
            if p[0] != n:
                out.append(p)
            elif not found:
                out.append((n, v))
                found = True
        if not found:
            out.append((n, v))
        self._list[:] = out

    def sort(self) -> None:
        """Sort the pairs by name, stably, comparing UTF-16 code units (§6.2 sort)."""
        lst = self._list
        # Code point order equals UTF-16 code unit order unless a name has an
        # astral character (its surrogates sort below U+E000-U+FFFF).
        if any(not k.isascii() and _ASTRAL.search(k) for k, _ in lst):
            lst.sort(key=lambda p: p[0].encode("utf-16-be"))
        else:
            lst.sort(key=itemgetter(0))

    def __str__(self) -> str:
        """The application/x-www-form-urlencoded serialization (§6.2 stringifier)."""
        return _core._k.form_serialize(self._list)  # type: ignore[no-any-return]

    def to_string(self) -> str:
        """Same as ``str(self)``."""
        return str(self)

    toString = to_string  # the JavaScript name

    # -- iteration (a WebIDL pair iterator: live, index-based) --------------------------------

    def __iter__(self) -> Iterator[tuple[str, str]]:
        i = 0
        while i < len(self._list):
            yield self._list[i]
            i += 1

    def items(self) -> Iterator[tuple[str, str]]:
        """The (name, value) pairs (a live iterator, like JavaScript's ``entries()``)."""
        return iter(self)

    entries = items

    def keys(self) -> Iterator[str]:
        """The names, in order (live)."""
        return (k for k, _ in self)

    def values(self) -> Iterator[str]:
        """The values, in order (live)."""
        return (v for _, v in self)

    def for_each(self, callback: Callable[[str, str, URLSearchParams], object]) -> None:
        """Call ``callback(value, name, self)`` for each pair, as JavaScript's ``forEach``."""
        if not callable(callback):
            raise PercentEncodingTypeError(
                f"forEach() needs a callable, not {type(callback).__name__}"
            )
        for k, v in self:
            callback(v, k, self)

    forEach = for_each  # the JavaScript name

    def __len__(self) -> int:
        return len(self._list)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.has(name)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URLSearchParams):
            return self._list == other._list
        return NotImplemented

    def __repr__(self) -> str:
        return f"URLSearchParams({self._list!r})"

    def copy(self) -> URLSearchParams:
        """An independent copy."""
        return URLSearchParams(self)


# --------------------------------------------------------------------------------------------
# Schemes


def _form_encode(text: str | bytes) -> str:
    return _core.encode(text, FORM_URLENCODED, space_as_plus=True)


def _form_decode(text: str | bytes) -> str:
    return _core.decode_text(text, plus_as_space=True)


def _mailto_encode(text: str | bytes) -> str:
    return _core.encode(text, FORM_URLENCODED)


def _mailto_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    return serialize(pairs).replace("+", "%20")


def _mailto_decode(text: str | bytes) -> str:
    return _core.decode_text(text)


_URL_FORM = "https://url.spec.whatwg.org/#concept-urlencoded-serializer"

SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="application/x-www-form-urlencoded",
        spec="URL Standard §5.2 " + _URL_FORM,
        encode=_form_encode,
        decode=_form_decode,
        encode_set=FORM_URLENCODED,
        notes="UTF-8, space as '+', everything but ASCII alphanumerics and *-._ as %XX; "
        "URLSearchParams and HTML forms use it; '+' decodes to a space",
        encode_pairs=serialize,
        family="WHATWG URL Standard",
        aliases=("url-search-params",),
    ),
    Scheme(
        name="html-form-mailto",
        spec="HTML §4.10.22.3 'mail with headers' "
        "https://html.spec.whatwg.org/multipage/form-control-infrastructure.html"
        "#submit-mailto-headers",
        encode=_mailto_encode,
        decode=_mailto_decode,
        encode_set=FORM_URLENCODED,
        notes="a form GET to a mailto: URL: the urlencoded serializer with '+' replaced "
        "by %20, since mail clients do not read '+' as a space",
        encode_pairs=_mailto_pairs,
        family="WHATWG HTML",
    ),
)
