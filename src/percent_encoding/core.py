"""The two core operations: percent-encode and percent-decode.

Strategy: this module is the boundary.  It checks argument types, resolves an
encode set or an encoding label, turns Python's codec errors into ours (with
positions), and hands the byte work to a kernel (``_speedups`` or ``_pure``,
see :mod:`._kernels`).  Everything else in the library (forms, ECMAScript, OAuth,
templates, …) is a thin layer over :func:`encode` and :func:`decode`.

Spec: WHATWG URL Standard §1.3 "Percent-encoded bytes": *percent-encode after
encoding* (:func:`encode`), *percent-decode* (:func:`decode`), and the
Encoding Standard's *UTF-8 decode without BOM (or fail)* (:func:`decode_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import lru_cache, update_wrapper
from types import ModuleType
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from . import _args, _kernels
from ._abnf import LONE_SURROGATE as _LONE_SURROGATE
from ._encode_set import REGISTRY as _REGISTRY
from .errors import (
    PercentDecodeError,
    PercentEncodeError,
)
from .sets import EncodeSet
from .sets import resolve as _resolve_set

if TYPE_CHECKING:
    from .encodings import Encoding

__all__ = [
    "decode",
    "decode_text",
    "encode",
    "percent_decode",
    "percent_encode_after_encoding",
    "to_usv_string",
]

_k: ModuleType = _kernels.kernels
_T = TypeVar("_T")

# --------------------------------------------------------------------------------------------
# The kernel seam
#
# Other modules of the package (form, arrow) reach the kernels only through these names.
# Each is the active twin's own function, not a wrapper, so a call costs what a direct one
# does; _use_kernels rebinds them together with _k (that is how the suite runs on both twins).

form_parse_kernel: Callable[[str | bytes], list[tuple[str, str]]]
form_parse_bytes_kernel: Callable[[bytes], list[tuple[bytes, bytes]]]
form_serialize_kernel: Callable[[Iterable[tuple[str | bytes, str | bytes]]], str]
# The C twin's Arrow column kernel; None with the pure twin (arrow.py maps rows itself).
arrow_map_kernel: Callable[..., Any] | None
# The C twin's URL parser ((input str, base None | str | URL) -> URL, or None to use the
# Python parser); None with the pure twin, whose url.parse runs the Python parser alone.
url_parse_kernel: Callable[..., Any] | None


def _missing_kernel(name: str) -> Callable[..., Any]:
    def missing(*args: object) -> Any:
        raise AttributeError(f"the active kernel module has no {name}")

    return missing


def _bind_seam(module: ModuleType) -> None:
    global form_parse_kernel, form_parse_bytes_kernel, form_serialize_kernel, arrow_map_kernel
    global url_parse_kernel
    form_parse_kernel = getattr(module, "form_parse", None) or _missing_kernel("form_parse")
    form_parse_bytes_kernel = getattr(module, "form_parse_bytes", None) or _missing_kernel(
        "form_parse_bytes"
    )
    form_serialize_kernel = getattr(module, "form_serialize", None) or _missing_kernel(
        "form_serialize"
    )
    arrow_map_kernel = getattr(module, "arrow_map", None)
    url_parse_kernel = getattr(module, "url_parse", None)


def compiled_kernel(name: str) -> Any:
    """The built C twin's function ``name`` whichever twin is active, or None (for set-up
    done once at import, such as the URL type's C getters)."""
    return getattr(_kernels.kernels, name, None)


def set_arrow_threads(n: int) -> None:
    """Tell the C twin's Arrow kernel how many threads a column may use (the active twin
    and the built one, so the setting holds when the suite swaps twins)."""
    for module in (_k, _kernels.kernels):
        setter = getattr(module, "arrow_set_threads", None)
        if setter is not None:
            setter(n)


_bind_seam(_k)

_UTF8_LABELS = _args.UTF8_LABELS


def _use_kernels(module: ModuleType) -> ModuleType:
    """Swap the kernel module (tests run the suite on both twins); returns the old one."""
    global _k
    old, _k = _k, module
    _bind_seam(module)
    active = getattr(_kernels.kernels, "set_entries_active", None)
    if active is not None:
        # the C entries' fast paths call the C kernels: off while another is active
        active(module is _kernels.kernels)
    return old


def to_usv_string(text: str) -> str:
    """WebIDL's USVString conversion: join surrogate pairs, lone surrogates become U+FFFD.

    >>> to_usv_string("a\\ud800b")
    'a\\ufffdb'
    """
    if type(text) is not str:
        _args.check_str_input("to_usv_string", text)
    if text.isascii() or _LONE_SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _lone_surrogate_error(text: str, start: int, what: str) -> PercentEncodeError:
    return PercentEncodeError(
        f"lone surrogate U+{ord(text[start]):04X} at position {start} cannot be {what}; "
        "pass errors='replace' to turn it into U+FFFD as browsers do",
        start,
    )


def _check_text(data: object, func: str) -> str | bytes:
    return _args.check_text("data", data, func)


@lru_cache(maxsize=64)
def _lookup_encoding(label: str) -> Encoding:
    from .encodings import lookup

    return lookup(label)


def _check_bool(value: object, name: str) -> None:
    _args.check_bool(name, value)


def _encode_checked(
    data: str | bytes,
    encode_set: EncodeSet | str = "component",
    *,
    encoding: str = "utf-8",
    space_as_plus: bool = False,
    errors: Literal["strict", "fatal", "replace"] = "strict",
) -> str:
    """Percent-encode ``data`` with ``encode_set``: the URL Standard's
    *percent-encode after encoding* (§1.3).

    ``str`` is first encoded with ``encoding`` (a WHATWG label; UTF-8 by
    default); ``bytes`` are encoded as given.  Hex digits are upper case.  In a
    legacy encoding, a character it cannot represent becomes ``%26%23N%3B``
    (``&#N;``), as browsers do.  A lone surrogate raises
    :class:`PercentEncodeError` unless ``errors="replace"`` (U+FFFD, the
    USVString conversion); ``"fatal"`` is a synonym of ``"strict"`` (see
    docs/options.md).  When nothing needs encoding the very same ``str``
    object comes back.

    >>> encode("a b/ü")
    'a%20b%2F%C3%BC'
    >>> encode("a b", "application/x-www-form-urlencoded", space_as_plus=True)
    'a+b'
    """
    # Fast path: the common call costs a few comparisons before the kernel.
    if (
        encoding == "utf-8"
        and errors == "strict"
        and (space_as_plus is False or space_as_plus is True)
        and (type(data) is str or type(data) is bytes)
    ):
        fs = _REGISTRY.get(encode_set) if type(encode_set) is str else encode_set
        if type(fs) is EncodeSet:
            try:
                return _k.encode(data, fs.table, space_as_plus)  # type: ignore[no-any-return]
            except UnicodeEncodeError:
                pass  # the checked path below says where
    s = _resolve_set(encode_set)
    if type(data) is not str and type(data) is not bytes:
        data = _check_text(data, "encode")
    _check_bool(space_as_plus, "space_as_plus")
    errors = "fatal" if _args.is_fatal(errors, _args.ENCODE_ERRORS) else "replace"
    _args.check_label("encoding", encoding)
    if encoding not in _UTF8_LABELS:
        enc = _lookup_encoding(encoding).output_encoding
        if enc.name != "UTF-8" and isinstance(data, str):
            return _encode_legacy(data, s, enc, space_as_plus, errors)
    try:
        return _k.encode(data, s.table, space_as_plus)  # type: ignore[no-any-return]
    except UnicodeEncodeError as e:
        assert isinstance(data, str)
        if errors == "replace":
            return _k.encode(to_usv_string(data), s.table, space_as_plus)  # type: ignore[no-any-return]
        raise _lone_surrogate_error(data, e.start, "UTF-8 encoded") from None


def _encode_legacy(
    text: str, s: EncodeSet, enc: Encoding, space_as_plus: bool, errors: str
) -> str:
    # URL Standard §1.3 percent-encode after encoding, with a non-UTF-8 encoder:
    # one encoder runs over the whole input (ISO-2022-JP keeps state); an
    # unencodable code point is written as "%26%23" + decimal + "%3B" whatever
    # the set, the rest is percent-encoded byte by byte.
    if errors == "replace":
        text = to_usv_string(text)
    else:
        m = _LONE_SURROGATE.search(text)
        if m is not None:
            raise _lone_surrogate_error(text, m.start(), f"encoded in {enc.name}")
    out: list[str] = []
    table = s.table
    for seg in enc.encode_segments(text):
        if isinstance(seg, int):
            out.append(f"%26%23{seg}%3B")
        else:
            out.append(_k.encode(seg, table, space_as_plus))
    return "".join(out)


def _surrogate_in_decode(data: str, e: UnicodeEncodeError) -> PercentDecodeError:
    return PercentDecodeError(
        f"lone surrogate U+{ord(data[e.start]):04X} at position {e.start} cannot be "
        "UTF-8 encoded before decoding",
        e.start,
    )


def decode(data: str | bytes, *, plus_as_space: bool = False, strict: bool = False) -> bytes:
    """Percent-decode ``data`` to bytes: the URL Standard's *percent-decode* (§1.3).

    ``%XX`` with upper- or lower-case hex becomes the byte; any other ``%`` is
    kept as is, unless ``strict=True``, which raises :class:`PercentDecodeError`
    with the position of the first bad ``%``.  ``plus_as_space`` turns ``+``
    into a space first (forms).  A ``str`` is UTF-8 encoded first.

    >>> decode("caf%C3%A9%2")
    b'caf\\xc3\\xa9%2'
    """
    # (identity checks first: the common call pays no check function)
    if type(data) is not str and type(data) is not bytes:
        data = _check_text(data, "decode")
    if plus_as_space is not False and plus_as_space is not True:
        _check_bool(plus_as_space, "plus_as_space")
    if strict is not False and strict is not True:
        _check_bool(strict, "strict")
    try:
        return _k.decode(data, plus_as_space, strict)  # type: ignore[no-any-return]
    except UnicodeEncodeError as e:
        assert isinstance(data, str)
        raise _surrogate_in_decode(data, e) from None


percent_decode = decode


def _decode_text_checked(
    data: str | bytes,
    *,
    encoding: str = "utf-8",
    errors: Literal["replace", "fatal", "strict"] = "replace",
    plus_as_space: bool = False,
    strict: bool = False,
) -> str:
    """Percent-decode, then decode the bytes as text.

    With UTF-8 (the default) this is the Encoding Standard's *UTF-8 decode
    without BOM*: a leading BOM is kept, invalid sequences become U+FFFD; with
    ``errors="fatal"`` (or its synonym ``"strict"``) it is *UTF-8 decode
    without BOM or fail*, raising :class:`TextDecodeError` with the byte
    offset.  ``errors`` is only about that bytes-to-text step: a ``%`` not
    followed by two hex digits is kept unless ``strict=True``, as in
    :func:`decode` (docs/options.md has the whole vocabulary).  Other WHATWG labels decode
    with that encoding's decoder.  A ``str`` is UTF-8 encoded before the
    escapes are decoded (URL Standard §1.3, percent-decode a string), so raw
    non-ASCII characters in it reach a legacy decoder as UTF-8 octets
    (``decode_text("é", encoding="windows-1252") == "Ã©"``); pass ``bytes``
    when they stand for octets of that encoding.

    >>> decode_text("caf%C3%A9+au+lait", plus_as_space=True)
    'café au lait'
    """
    if (
        type(data) is str
        and "%" not in data
        and plus_as_space is False
        and strict is False
        and encoding == "utf-8"
        and errors == "replace"
        and data.isascii()
    ):
        return data  # nothing to decode: the pure twin's shortcut (urllib has one too)
    if (
        encoding == "utf-8"
        and errors == "replace"
        and (plus_as_space is False or plus_as_space is True)
        and strict is False
        and (type(data) is str or type(data) is bytes)
    ):
        try:
            return _k.decode_text(data, plus_as_space, False, False)  # type: ignore[no-any-return]
        except UnicodeEncodeError:
            pass  # the checked path below says where
    if type(data) is not str and type(data) is not bytes:
        data = _check_text(data, "decode_text")
    _check_bool(plus_as_space, "plus_as_space")
    _check_bool(strict, "strict")
    _args.check_label("encoding", encoding)
    # errors= is about the bytes -> text step only; a bad "%" is strict='s business.
    errors = "strict" if _args.is_fatal(errors) else "replace"
    try:
        if encoding in _UTF8_LABELS:
            return _k.decode_text(data, plus_as_space, strict, errors == "strict")  # type: ignore[no-any-return]
        enc = _lookup_encoding(encoding)
        raw = _k.decode(data, plus_as_space, strict)
    except UnicodeEncodeError as e:
        assert isinstance(data, str)
        raise _surrogate_in_decode(data, e) from None
    return enc.decode(raw, errors="fatal" if errors == "strict" else "replace")


def _decode_text_pure(data: str | bytes, **options: Any) -> str:
    # A pure install's decode_text (no C entry): CPython fills keyword-only
    # defaults from a dict on every call, about 40 ns, more than the whole
    # nothing-to-decode answer; a call with no option skips that here.  Its
    # signature, docs and errors are the checked function's (__wrapped__).
    if not options and type(data) is str and "%" not in data and data.isascii():
        return data
    return _decode_text_checked(data, **options)


def _encode_pure(data: str | bytes, encode_set: EncodeSet | str = "component",
                 **options: Any) -> str:
    # A pure install's encode (no C entry): a call with no keyword option goes to
    # the kernel before CPython fills the keyword-only defaults (about 40 ns) and the
    # checked function tests each of them; anything else is the checked function's.
    if not options and (type(data) is str or type(data) is bytes):
        fs = _REGISTRY.get(encode_set) if type(encode_set) is str else encode_set
        if type(fs) is EncodeSet:
            try:
                return _k.encode(data, fs.table, False)  # type: ignore[no-any-return]
            except UnicodeEncodeError:
                pass  # the checked function says where
    return _encode_checked(data, encode_set, **options)


if TYPE_CHECKING:
    encode = _encode_checked
    decode_text = _decode_text_checked
else:
    encode = _kernels.make_entry("encode", _encode_checked)
    decode_text = _kernels.make_entry("decode_text", _decode_text_checked)
    if encode is _encode_checked:
        encode = update_wrapper(_encode_pure, _encode_checked)
    if decode_text is _decode_text_checked:
        decode_text = update_wrapper(_decode_text_pure, _decode_text_checked)

percent_encode_after_encoding = encode
