"""What the ``percent`` command and the web tool share: names to schemes, encode and decode
with options, charset guesses and the analysis report, as plain functions of plain data.

Strategy: neither front end has encoding logic of its own.  A name resolves to a
:class:`~percent_encoding.schemes.Scheme` (a registry name, else an encode-set name, which
means plain UTF-8 percent-encoding with that set: URL Standard §1.3 "percent-encode after
encoding").  A scheme declared plain (``Scheme.plain``: exactly percent-encoding with its
encode set, a fact each scheme states and a test checks) also takes a legacy ``encoding``
(Encoding Standard §4.2 labels), strict decoding and raw bytes; any other scheme has its
own rules, and asking for a legacy encoding with it is a :class:`NotApplicableError`.

:mod:`percent_encoding.cli` (argument parsing and output) and
:mod:`percent_encoding.web.server` (HTTP and the page) call these functions.  Every error
is one of the library's: :class:`~percent_encoding.errors.PercentEncodingTypeError` for a
wrong argument type, a :class:`~percent_encoding.errors.PercentEncodingError` subclass for
the rest; the CLI turns the usage kinds (:data:`USAGE_ERRORS`) into exit status 2 and the
others into 1, the web tool into "n/a" cells, error cells or HTTP 400.

``detect`` and ``encodings`` are imported inside the functions that need them, so that
``percent --version`` and the streaming paths start without building their tables.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

from . import core
from . import sets as _sets
from ._args import UTF8_LABELS
from .errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownEncodingError,
    UnknownSchemeError,
    UnknownSetError,
)

if TYPE_CHECKING:
    from ._scheme import Scheme

# _scheme (a dataclass, so `dataclasses` and `inspect`, 5-7 ms) is imported where a
# Scheme is built or checked: `percent encode x` with an encode-set name needs none.

__all__ = [
    "USAGE_ERRORS",
    "NotApplicableError",
    "check_encoding",
    "compare_data",
    "decode_plain",
    "decode_with",
    "detect_report",
    "encode_plain",
    "encode_with",
    "guess_charset",
    "plain_profile",
    "resolve_scheme",
    "set_profile",
]


class NotApplicableError(PercentEncodingError):
    """A scheme and an option that do not go together (a legacy encoding with a scheme
    that has its own charset rules, decoding with a scheme that defines no decoder)."""


#: Errors that mean "the request is wrong", not "the data is bad" (CLI exit status 2).
USAGE_ERRORS: tuple[type[PercentEncodingError], ...] = (
    NotApplicableError,
    UnknownEncodingError,
    UnknownSchemeError,
    UnknownSetError,
)


def _check(value: object, types: type | tuple[type, ...], what: str, func: str) -> None:
    if not isinstance(value, types):
        names = " or ".join(t.__name__ for t in (types if isinstance(types, tuple) else (types,)))
        raise PercentEncodingTypeError(
            f"{func}(): {what} must be {names}, not {type(value).__name__}"
        )


# ---------------------------------------------------------------------------
# Scheme resolution: the registry first, then encode-set names.
# ---------------------------------------------------------------------------


@cache
def _set_scheme(set_name: str) -> Scheme:
    from ._scheme import from_encode_set

    return from_encode_set(
        _sets.get(set_name),
        name=set_name,
        notes=f"UTF-8, then every byte in the {set_name!r} encode set as %XX",
        family="encode set",
    )


#: Encode-set names that are also registry names or aliases (the registry's scheme wins).
#: Any other set name resolves without loading the registry, which imports every feature
#: module: that keeps a one-shot ``percent encode x`` fast.  A test checks this list.
REGISTRY_SET_NAMES = frozenset({
    "alpn", "application/x-www-form-urlencoded", "cgi", "ecmascript-encodeURI",
    "ecmascript-encodeURIComponent", "ecmascript-escape", "html4-form", "oauth1", "rfc1738",
    "rfc2396", "rfc3986-fragment", "rfc3986-path", "rfc3986-path-segment", "rfc3986-query",
    "rfc3986-unreserved", "rfc3986-userinfo", "rfc8187", "xforms-urlencoded",
})


def set_profile(name: str) -> tuple[_sets.EncodeSet, bool] | None:
    """``(encode_set, False)`` when ``name`` resolves to plain percent-encoding with an
    encode set of that name (no registry scheme has the name), else ``None``: what
    ``plain_profile(resolve_scheme(name))`` gives for such a name, without building the
    scheme.

    >>> set_profile("path")[0].name, set_profile("php-urlencode")
    ('path', None)
    """
    _check(name, str, "name", "set_profile")
    if name not in REGISTRY_SET_NAMES and name in _sets.names():
        return _sets.get(name), False
    return None


def resolve_scheme(name: str) -> Scheme:
    """A registry scheme by name or alias, else plain percent-encoding with the named encode set.

    Raises :class:`~percent_encoding.errors.UnknownSchemeError` when ``name`` is neither.

    >>> resolve_scheme("php-urlencode").family == resolve_scheme("path").family
    False
    >>> resolve_scheme("path").encode("a b/c")
    'a%20b/c'
    """
    _check(name, str, "name", "resolve_scheme")
    if set_profile(name) is not None:
        return _set_scheme(name)
    from . import schemes  # the registry imports every feature module: only when needed

    try:
        return schemes.get(name)
    except UnknownSchemeError as e:
        try:
            return _set_scheme(name)
        except UnknownSetError:
            raise UnknownSchemeError(
                f"{e} and no encode set has that name either (see `percent schemes`)"
            ) from None


def plain_profile(s: Scheme) -> tuple[_sets.EncodeSet, bool] | None:
    """``(encode_set, space_as_plus)`` when ``s`` is declared plain percent-encoding with
    that set (:attr:`Scheme.plain <percent_encoding.schemes.Scheme>`), else ``None``.

    Such schemes can be combined with any legacy ``encoding``, strict decoding and raw bytes.

    >>> plain_profile(resolve_scheme("application/x-www-form-urlencoded"))[1]
    True
    >>> plain_profile(resolve_scheme("ecmascript-escape")) is None
    True
    """
    from ._scheme import Scheme

    _check(s, Scheme, "s", "plain_profile")
    if not s.plain or s.encode_set is None:
        return None
    return s.encode_set, s.space_as_plus


# ---------------------------------------------------------------------------
# Encodings
# ---------------------------------------------------------------------------


def utf8_output(label: str) -> bool:
    """Whether ``label``'s output encoding is UTF-8 (``encodings.is_utf8(label, output=True)``),
    answered for the usual spellings without loading the encoding tables."""
    if label in UTF8_LABELS:
        return True
    from .encodings import is_utf8

    return is_utf8(label, output=True)


def check_encoding(label: str) -> str:
    """The canonical WHATWG name of ``label`` (``auto`` stays ``auto``).

    Raises :class:`~percent_encoding.errors.UnknownEncodingError` for an unknown label.

    >>> check_encoding(" SJIS "), check_encoding("auto")
    ('Shift_JIS', 'auto')
    """
    _check(label, str, "label", "check_encoding")
    if label == "auto":
        return label
    if label in UTF8_LABELS:
        return "UTF-8"
    from .encodings import lookup

    return lookup(label).name


def _own_charset(s: Scheme) -> NotApplicableError:
    return NotApplicableError(
        f"scheme {s.name!r} has its own encoding rules, so --encoding other than UTF-8 does "
        "not apply; use an encode-set name (e.g. --scheme application/x-www-form-urlencoded)"
    )


def utf8_text(data: bytes) -> str:
    """``data`` as UTF-8 text, or a TextDecodeError at the first bad byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise TextDecodeError(
            f"input is not UTF-8 (byte 0x{data[e.start]:02X} at offset {e.start}); "
            "use an encode-set name to percent-encode raw bytes",
            e.start,
        ) from None


def encode_with(s: Scheme, data: str | bytes, encoding: str = "utf-8") -> str:
    """Encode ``data`` with scheme ``s``; a legacy ``encoding`` applies to plain-set schemes.

    ``bytes`` are percent-encoded as they are by plain-set schemes, and read as UTF-8 by
    the others.

    >>> encode_with(resolve_scheme("query"), "é", "windows-1252")
    '%E9'
    """
    from ._scheme import Scheme

    _check(s, Scheme, "s", "encode_with")
    _check(data, (str, bytes), "data", "encode_with")
    _check(encoding, str, "encoding", "encode_with")
    prof = plain_profile(s)
    if prof is not None and (isinstance(data, bytes) or not utf8_output(encoding)):
        return encode_plain(prof, data, encoding)
    if not utf8_output(encoding):
        raise _own_charset(s)
    return s.encode(utf8_text(data) if isinstance(data, bytes) else data)


def encode_plain(
    prof: tuple[_sets.EncodeSet, bool], data: str | bytes, encoding: str = "utf-8"
) -> str:
    """``encode_with`` for a plain scheme given as its :func:`plain_profile`:
    ``bytes`` are percent-encoded as they are with UTF-8 output, and read as UTF-8
    text before a legacy ``encoding``.

    >>> encode_plain(set_profile("query"), "é", "windows-1252")
    '%E9'
    """
    es, plus = prof
    if utf8_output(encoding):
        return core.encode(data, es, space_as_plus=plus)
    text = utf8_text(data) if isinstance(data, bytes) else data
    return core.encode(text, es, encoding=encoding, space_as_plus=plus)


def guess_charset(raw: bytes) -> tuple[str, float | None]:
    """The best charset for percent-decoded ``raw`` bytes and its confidence, from
    :func:`percent_encoding.detect.charset` (``("UTF-8", 1.0)`` for ASCII without ESC).

    >>> guess_charset(b"caf\\xc3\\xa9")[0]
    'UTF-8'
    """
    _check(raw, bytes, "raw", "guess_charset")
    if raw.isascii() and b"\x1b" not in raw:  # ESC: maybe ISO-2022-JP, which is 7-bit
        return "UTF-8", 1.0
    from . import detect

    guesses = detect.charset(raw)
    if not guesses:
        return "UTF-8", None
    return guesses[0].encoding, guesses[0].confidence


def decode_with(
    s: Scheme,
    data: str | bytes,
    encoding: str = "utf-8",
    *,
    strict: bool = False,
) -> tuple[str, str | None]:
    """Decode ``data`` with scheme ``s``; returns ``(text, charset chosen by "auto")``.

    ``encoding`` is a WHATWG label or ``"auto"`` (:func:`guess_charset` on the bytes).
    ``strict`` makes a bad ``%`` and bytes invalid in the encoding errors with positions.

    >>> decode_with(resolve_scheme("component"), "%83A", "shift_jis")
    ('ア', None)
    >>> decode_with(resolve_scheme("component"), "caf%E9", "auto")
    ('café', 'windows-1252')
    """
    from ._scheme import Scheme

    _check(s, Scheme, "s", "decode_with")
    _check(data, (str, bytes), "data", "decode_with")
    _check(encoding, str, "encoding", "decode_with")
    prof = plain_profile(s)
    if prof is not None:
        return decode_plain(prof, data, encoding, strict=strict,
                            text_decoder=s.decode or _no_decoder(s))
    if strict:
        core.decode(data, strict=True)  # a bad % is reported with its position
    if encoding == "auto":
        chosen, _conf = guess_charset(core.decode(data))
        if chosen == "UTF-8" and s.decode is not None:
            return s.decode(utf8_text(data) if isinstance(data, bytes) else data), chosen
        raise _own_charset(s)
    if not utf8_output(encoding):
        raise _own_charset(s)
    if s.decode is None:
        return _no_decoder(s)(""), None
    return s.decode(utf8_text(data) if isinstance(data, bytes) else data), None


def _no_decoder(s: Scheme) -> Callable[[str], str]:
    def refuse(_text: str) -> str:
        raise NotApplicableError(f"scheme {s.name!r} defines no decoder")

    return refuse


def decode_plain(
    prof: tuple[_sets.EncodeSet, bool],
    data: str | bytes,
    encoding: str = "utf-8",
    *,
    strict: bool = False,
    text_decoder: Callable[[str], str] | None = None,
) -> tuple[str, str | None]:
    """``decode_with`` for a plain scheme given as its :func:`plain_profile`.

    ``text_decoder`` is the scheme's own decoder, used for UTF-8 text when given
    (a plain scheme's decoder gives what ``core.decode_text`` gives).

    >>> decode_plain(set_profile("component"), "%83A", "shift_jis")
    ('ア', None)
    """
    plus = prof[1]
    errors: Literal["strict", "replace"] = "strict" if strict else "replace"
    if strict:
        core.decode(data, strict=True)  # a bad % is reported with its position
    if encoding == "auto":
        chosen, _conf = guess_charset(core.decode(data, plus_as_space=plus))
        return core.decode_text(data, encoding=chosen, plus_as_space=plus, errors=errors), chosen
    if strict or not utf8_output(encoding) or isinstance(data, bytes):
        return (
            core.decode_text(data, encoding=encoding, plus_as_space=plus, strict=strict,
                             errors=errors),
            None,
        )
    if text_decoder is not None:
        return text_decoder(data), None
    return core.decode_text(data, plus_as_space=plus), None


# ---------------------------------------------------------------------------
# Comparison and analysis
# ---------------------------------------------------------------------------


def compare_data(names: Sequence[str]) -> dict[str, Any]:
    """``schemes.compare`` for registry names; encode-set names are accepted too.

    >>> compare_data(["path", "application/x-www-form-urlencoded"])["rows"][0x20]["output"]
    ['%20', '+']
    """
    if isinstance(names, str) or not isinstance(names, (list, tuple)):
        raise PercentEncodingTypeError(
            f"compare_data(): names must be a list of str, not {type(names).__name__}"
        )
    for n in names:
        _check(n, str, "each name", "compare_data")
    from . import schemes

    return schemes.compare([resolve_scheme(n) for n in names])


def _jsonable(obj: Any) -> Any:
    import dataclasses

    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {k: _jsonable(v) for k, v in dataclasses.asdict(obj).items()}
    if isinstance(obj, dict):
        return {str(k): _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, (str, int, float, bool)) or obj is None:
        return obj
    return str(obj)


#: diagnose() contexts that name a part of a URL (or a form body) for space_convention().
_SPACE_COMPONENT = {
    "query": "query",
    "form": "body",
    "path": "path",
    "path-segment": "path",
    "fragment": "fragment",
    "userinfo": "userinfo",
    "host": "host",
}


def detect_report(text: str, context: str = "auto") -> dict[str, Any]:
    """Everything :mod:`percent_encoding.detect` says about ``text``, as JSON-ready data.

    ``context`` is where the text lives, as :func:`~percent_encoding.detect.diagnose`
    takes it ("auto", "url", "query", "form", "path", "fragment", "component", … or an
    encode-set name); an unknown one raises :class:`~percent_encoding.errors.UnknownSetError`.
    With "auto" (the default) a text that starts like ``scheme://`` is a whole URL:
    each component is judged by its own rules.
    Keys: ``space_convention`` (for that context, or for the URL when ``text`` is
    one), ``charset`` (guesses, best first; ``[]`` when the escaped bytes are ASCII),
    ``findings``, ``variants`` (registered schemes that could have written it), and
    ``errors``: an analysis that raises one of the library's errors on this text is
    ``None``, with the message under its key here.

    >>> rep = detect_report("a+b%2", "query")
    >>> rep["space_convention"]["plus_is_space"], [f["code"] for f in rep["findings"]]
    (False, ['ambiguous-plus', 'trailing-percent'])
    >>> detect_report("a+b", "form")["space_convention"]["plus_is_space"]
    True
    """
    _check(text, str, "text", "detect_report")
    _check(context, str, "context", "detect_report")
    from . import detect
    from .detect._for_siblings import LOOKS_LIKE_URL

    detect.diagnose("", context=context)  # an unknown context is a usage error, up front
    report: dict[str, Any] = {"errors": {}}

    def attempt(key: str, fn: Callable[[], Any]) -> None:
        try:
            report[key] = _jsonable(fn())
        except PercentEncodingError as e:  # e.g. a lone surrogate: report it, go on
            report[key] = None
            report["errors"][key] = str(e)

    looks_like_url = "://" in text or (text.split(":", 1)[0].isalpha() and ":" in text[:12])
    if context == "auto":
        context = "url" if LOOKS_LIKE_URL.match(text) else "query"
    component = _SPACE_COMPONENT.get(context)
    attempt(
        "space_convention",
        lambda: detect.space_convention(text if looks_like_url else None, component=component),
    )

    def charset() -> list[Any]:
        part = text
        if looks_like_url:  # the query: after the first '?', before the '#'
            part = text.split("#", 1)[0].split("?", 1)[-1] if "?" in text else ""
        raw = core.decode(part, plus_as_space=True)
        if raw.isascii() and b"\x1b" not in raw:
            return []
        guesses = list(detect.charset(raw))
        # 7-bit data is "ASCII only" unless it holds ISO-2022-JP's escape sequences.
        return [] if raw.isascii() and guesses[0].encoding == "UTF-8" else guesses

    attempt("charset", charset)
    attempt("findings", lambda: detect.diagnose(text, context=context))
    attempt("variants", lambda: detect.variants(text))
    return report


def url_report(text: str, base: str | None = None) -> dict[str, Any]:
    """What :func:`percent_encoding.url.explain` says, JSON-ready (``percent url``, the web tool).

    >>> url_report("http://h/a b")["components"][1]["encoded"]
    [[' ', '%20']]
    """
    from .url import explain

    r = explain(text, base)
    return {
        "href": r["href"],
        "components": [
            {
                "component": c.component,
                "input": c.input,
                "output": c.output,
                "encode_set": c.encode_set,
                "encoded": [[ch, rep] for ch, rep in c.encoded],
                "reason": c.reason,
            }
            for c in r["components"]
        ],
        "validation_errors": [{"name": e.name, "position": e.position}
                              for e in r["validation_errors"]],
    }
