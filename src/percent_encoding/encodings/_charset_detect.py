"""Guess the encoding of percent-decoded bytes: the single-input detector.

Every candidate decoder of the Encoding Standard (§§9-14, ``percent_encoding.encodings``)
is run in fatal mode (§4.1 error mode "fatal"); the survivors are ranked by the
language models of :mod:`._charset_model` plus a small prior per encoding.  Before
scoring, a ``_charset_`` hint (HTML §4.10.22.4, constructing the entry list) or a
``probe`` hint (HTML §4.10.22.5, selecting a form submission encoding, whose unmappable
characters are sent in the Encoding Standard's "html" error mode) is decisive, valid
multi-byte UTF-8 comes first, and pure ASCII is UTF-8.  The rules, in order, are in
:mod:`._detect`'s docstring; :func:`charset` is the entry point.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .. import encodings as _enc
from ..errors import (
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)
from ._charset_model import ENCODING_LANGS, LANGUAGE_NAMES, score

MAX_BYTES = 4096


@dataclass(frozen=True)
class CharsetGuess:
    """One answer of :func:`charset`: a WHATWG encoding name, a confidence in [0, 1],
    a short reason, and ``findings``: problems noticed on the way (fields that
    disagree, a value cut inside a UTF-8 sequence), each one sentence."""

    encoding: str
    confidence: float
    reason: str
    findings: tuple[str, ...] = ()


#: The encodings tried when no ``candidates`` are given: UTF-8 and the legacy encodings
#: that still turn up in form data, most common first (the order breaks exact ties).
DEFAULT_CANDIDATES: tuple[str, ...] = (
    "UTF-8", "windows-1252", "windows-1251", "Shift_JIS", "GBK", "gb18030", "EUC-KR",
    "Big5", "EUC-JP", "ISO-2022-JP", "windows-1250", "ISO-8859-2", "KOI8-R", "KOI8-U",
    "ISO-8859-5", "IBM866", "windows-1253", "ISO-8859-7", "windows-1254", "windows-1255",
    "ISO-8859-8", "windows-1256", "ISO-8859-6", "windows-1257", "ISO-8859-13",
    "ISO-8859-4", "windows-1258", "windows-874", "ISO-8859-15",
)

# Log prior per encoding (nats): roughly how often it still shows up on the web (the
# ISO-8859 encodings other than -1/-2/-15 are rare next to their windows-125x twins); it
# only breaks near-ties.
_PRIOR: dict[str, float] = {
    "windows-1252": -0.5, "windows-1251": -1.0, "Shift_JIS": -1.0, "GBK": -1.0,
    "gb18030": -1.2, "EUC-KR": -1.0, "Big5": -1.0, "EUC-JP": -1.5, "ISO-2022-JP": -1.5,
    "windows-1250": -1.5, "ISO-8859-2": -2.0, "KOI8-R": -2.0, "KOI8-U": -2.3,
    "ISO-8859-5": -3.0, "IBM866": -3.0, "windows-1253": -1.5, "ISO-8859-7": -2.0,
    "windows-1254": -1.5, "windows-1255": -1.5, "ISO-8859-8": -3.0, "windows-1256": -1.5,
    "ISO-8859-6": -3.0, "windows-1257": -2.0, "ISO-8859-13": -3.0, "ISO-8859-4": -3.0,
    "windows-1258": -2.0, "windows-874": -1.5, "ISO-8859-15": -2.5,
}
_DEFAULT_PRIOR = -3.5


# ---------------------------------------------------------------------------------------
# Decoding helpers

_NON_ASCII = re.compile(rb"[\x80-\xff]")
_ISO2022JP_ESC = re.compile(rb"\x1b(?:\$[@B]|\([BJI])")
NOT_ASCII_COMPATIBLE = frozenset(
    {"UTF-16BE", "UTF-16LE", "ISO-2022-JP", "replacement"}
)


def decode(enc: _enc.Encoding, data: bytes, cut: bool) -> str | None:
    """Fatal decode; ``None`` on error.  When we cut the input at MAX_BYTES, a sequence
    broken by the cut is forgiven."""
    try:
        return enc.decode(data, "fatal")
    except TextDecodeError as e:
        if cut and e.position >= len(data) - 4:
            try:
                return enc.decode(data[: e.position], "fatal")
            except TextDecodeError:
                return None
        return None


def resolve(candidates: Sequence[str] | None) -> list[_enc.Encoding]:
    if candidates is None:
        return [_enc.lookup(c) for c in DEFAULT_CANDIDATES]
    if isinstance(candidates, (str, bytes)) or not isinstance(candidates, Sequence | set
                                                                | frozenset):
        raise PercentEncodingTypeError(
            "candidates must be a list of encoding labels, not "
            f"{type(candidates).__name__}"
        )
    out: list[_enc.Encoding] = []
    for label in candidates:
        if not isinstance(label, str):
            raise PercentEncodingTypeError(
                f"candidates must hold str labels, not {type(label).__name__}"
            )
        e = _enc.lookup(label)
        if e not in out:
            out.append(e)
    if not out:
        raise PercentEncodingError("candidates is empty: give at least one encoding label")
    return out


def as_bytes(data: object, what: str = "data") -> bytes:
    if isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    raise PercentEncodingTypeError(
        f"{what} must be bytes (percent-decoded octets), not {type(data).__name__}"
        + ("; percent-decode it first (percent_encoding.decode)" if isinstance(data, str)
           else "")
    )


def encoding_for_label(label: object) -> _enc.Encoding | None:
    """The encoding a hint's label names (Encoding Standard §4.2, get an encoding), or
    None when it names none; a bytes label must be ASCII."""
    if isinstance(label, bytes):
        try:
            label = label.decode("ascii")
        except UnicodeDecodeError:
            return None
    if not isinstance(label, str):
        raise PercentEncodingTypeError(f"an encoding label must be str, not "
                                       f"{type(label).__name__}")
    try:
        return _enc.lookup(label)
    except LookupError:
        return None


_HINT_KEYS = frozenset({"_charset_", "probe", "charset"})


def _check_hints(hints: object) -> Mapping[str, object]:
    if hints is None:
        return {}
    if not isinstance(hints, Mapping):
        raise PercentEncodingTypeError(f"hints must be a dict, not {type(hints).__name__}")
    unknown = set(hints) - _HINT_KEYS
    if unknown:
        raise PercentEncodingError(
            f"unknown hint(s) {sorted(map(str, unknown))}: use '_charset_', 'probe', 'charset'"
        )
    return hints


def probe_bytes(enc: _enc.Encoding, char: str) -> bytes | None:
    try:
        return enc.encode(char, "html")
    except PercentEncodeError:  # lone surrogate
        return None


# ---------------------------------------------------------------------------------------
# The detector

_TEMPERATURE = 2.0  # nats; spreads confidences so that they track measured accuracy


def _ranked_guesses(
    data: bytes, encs: list[_enc.Encoding], cut: bool, bonus: str | None
) -> list[tuple[float, str, str, str]]:
    """(score, encoding name, reason, text) for every candidate that decodes ``data``."""
    scored: list[tuple[float, str, str, str]] = []
    memo: dict[tuple[str, tuple[str, ...]], tuple[float, str]] = {}
    for enc in encs:
        text = decode(enc, data, cut)
        if text is None:
            continue
        key = (text, ENCODING_LANGS.get(enc.name, ("und",)))
        found = memo.get(key)
        if found is None:
            found = memo[key] = score(text, enc.name)
        s, lang = found
        s += _PRIOR.get(enc.name, _DEFAULT_PRIOR)
        reason = f"scored as {LANGUAGE_NAMES.get(lang, lang)}"
        if bonus == enc.name:
            s += 3.0
            reason += "; Content-Type charset names it"
        scored.append((s, enc.name, reason, text))
    scored.sort(key=lambda t: -t[0])
    seen: dict[str, str] = {}
    for i, (s, name, reason, text) in enumerate(scored):
        twin = seen.setdefault(text, name)
        if twin != name:
            scored[i] = (s, name, f"{reason}; decodes the same as {twin}", text)
    return scored


def _to_guesses(scored: list[tuple[float, str, str, str]], mass: float) -> list[CharsetGuess]:
    """Confidence = the probability that decoding with this encoding gives the right text,
    so encodings that read these bytes the same (GBK and gb18030) share it."""
    if not scored:
        return []
    top = scored[0][0]
    weights = [math.exp((t[0] - top) / _TEMPERATURE) for t in scored]
    total = sum(weights)
    by_text: dict[str, float] = {}
    for t, w in zip(scored, weights, strict=True):
        by_text[t[3]] = by_text.get(t[3], 0.0) + w / total
    # best first: the most probable text, then the best-scoring encoding that reads so
    order = sorted(range(len(scored)), key=lambda i: (-by_text[scored[i][3]], i))
    return [
        CharsetGuess(name, round(min(mass * by_text[text], 1.0), 4), reason)
        for (_, name, reason, text) in (scored[i] for i in order)
    ]


def label_text(label: object) -> str:
    return label.decode("ascii", "replace") if isinstance(label, bytes) else str(label)


def _check_probe(probe: object) -> tuple[str, bytes] | None:
    if probe is None:
        return None
    if (not isinstance(probe, tuple) or len(probe) != 2 or not isinstance(probe[0], str)
            or not probe[0]):
        raise PercentEncodingTypeError(
            "hints['probe'] must be a pair (character: str, submitted_bytes: bytes)"
        )
    return probe[0], as_bytes(probe[1], "the probe's submitted bytes")


def _scaled(guesses: list[CharsetGuess], factor: float, prefix: str = "") -> list[CharsetGuess]:
    return [CharsetGuess(g.encoding, round(g.confidence * factor, 6), prefix + g.reason)
            for g in guesses]


def charset(
    data: bytes | bytearray | memoryview,
    *,
    candidates: Sequence[str] | None = None,
    hints: Mapping[str, object] | None = None,
) -> list[CharsetGuess]:
    """Guess the encoding of percent-decoded bytes; best first.

    ``candidates`` restricts the encodings tried (WHATWG labels; default
    :data:`DEFAULT_CANDIDATES`).  ``hints`` may hold ``"_charset_"`` (the value of a
    ``_charset_`` form field: decisive when it is a known label), ``"probe"`` (a pair
    ``(character, submitted_bytes)`` from a hidden field whose value is a known
    character: decisive) and ``"charset"`` (a Content-Type ``charset=`` parameter: a
    bonus only).  Candidates that cannot decode the bytes (fatal decoding) are left out;
    if none can, all are returned with confidence at most 0.05.

    A guess's ``confidence`` is the estimated probability that decoding with it gives
    the right text, so encodings that read these bytes identically (GBK and gb18030,
    windows-1252 and ISO-8859-15 for most Western text) share it.

    >>> charset("日本語".encode("utf-8"))[0].encoding
    'UTF-8'
    >>> charset(b"\\x93\\xfa\\x96\\x7b\\x8c\\xea")[0].encoding
    'Shift_JIS'
    >>> charset(b"\\xcf\\xf0\\xe8\\xe2\\xe5\\xf2")[0].encoding
    'windows-1251'
    >>> charset(b"\\xa4\\xa2", hints={"_charset_": "euc-jp"})[0].reason
    "_charset_ field says 'euc-jp'"
    """
    raw = as_bytes(data)
    encs = resolve(candidates)
    h = _check_hints(hints)
    cut = len(raw) > MAX_BYTES
    if cut:  # look at 4 KB, from a little before the first non-ASCII byte
        m = _NON_ASCII.search(raw)
        start = m.start() - 64 if m is not None and m.start() > MAX_BYTES - 64 else 0
        raw = raw[start : start + MAX_BYTES]
    hinted = encoding_for_label(h["charset"]) if h.get("charset") is not None else None
    bonus = hinted.name if hinted is not None else None

    # 1. _charset_: decisive (the browser wrote in it the encoding it used).
    declared = encoding_for_label(h["_charset_"]) if h.get("_charset_") is not None else None
    if declared is not None:
        ok = decode(declared, raw, cut) is not None
        first = CharsetGuess(
            declared.name, 0.99 if ok else 0.6,
            f"_charset_ field says {label_text(h['_charset_'])!r}"
            + ("" if ok else ", but the bytes do not decode cleanly in it"),
        )
        rest = _detect(raw, [e for e in encs if e != declared], cut, bonus)
        return [first, *_scaled(rest, 0.01)]

    # 2. probe: decisive among the candidates whose encoder gives the submitted bytes.
    probe = _check_probe(h.get("probe"))
    if probe is not None:
        char, submitted = probe
        matched = [e for e in encs if probe_bytes(e, char) == submitted]
        if matched:
            note = f"probe field matched ({char!r} was sent as {submitted!r}); "
            if raw.isascii():  # every match reads the data the same: the prior orders them
                matched.sort(key=lambda e: (e.name != "UTF-8", -_PRIOR.get(e.name, -9.0)))
                inner = [CharsetGuess(e.name, 1.0, "the data are ASCII") for e in matched]
            else:
                inner = _detect(raw, matched, cut, bonus, ascii_rule=False)
            if not inner:  # the data do not decode in any of them: trust the probe
                inner = [CharsetGuess(e.name, round(1 / len(matched), 4),
                                      "the data do not decode cleanly in it")
                         for e in matched]
            others = _detect(raw, [e for e in encs if e not in matched], cut, bonus)
            return [*_scaled(inner, 0.99, note), *_scaled(others, 0.01)]

    # 3.-5.
    return _detect(raw, encs, cut, bonus) or _fallback(raw, encs)


def _detect(
    raw: bytes, encs: list[_enc.Encoding], cut: bool, bonus: str | None,
    ascii_rule: bool = True,
) -> list[CharsetGuess]:
    names = [e.name for e in encs]

    # 3. UTF-8 with multi-byte sequences.
    if "UTF-8" in names and not raw.isascii():
        truncated = 0
        try:
            raw.decode("utf-8")
            valid = True
        except UnicodeDecodeError as e:
            at_end = e.reason == "unexpected end of data" and e.end == len(raw)
            valid = cut and e.start >= len(raw) - 4 and at_end
            if not valid and at_end and not raw[: e.start].isascii():
                # Valid UTF-8 with multi-byte sequences up to a last character that is
                # incomplete: a value cut at a byte limit (log fields), still UTF-8.
                valid, truncated = True, len(raw) - e.start
        if valid:
            multi = sum(1 for b in raw if b >= 0xC0) - (1 if truncated else 0)
            conf = 0.9 if multi == 1 else 0.97 if multi == 2 else 0.99
            reason = "valid UTF-8 with multi-byte sequences"
            findings: tuple[str, ...] = ()
            if truncated:
                conf = round(conf * 0.95, 4)
                reason += ", cut inside its last character"
                findings = (f"the data end inside a UTF-8 sequence ({truncated} byte(s) of "
                            "it): probably cut off at a length limit; the incomplete "
                            "character decodes as U+FFFD",)
            rest = _ranked_guesses(raw, [e for e in encs if e.name != "UTF-8"], cut, bonus)
            return [CharsetGuess("UTF-8", conf, reason, findings),
                    *_to_guesses(rest, 1.0 - conf)]

    # 4. ASCII.
    if raw.isascii() and ascii_rule:
        out: list[CharsetGuess] = []
        if "ISO-2022-JP" in names and _ISO2022JP_ESC.search(raw):
            text = decode(_enc.lookup("ISO-2022-JP"), raw, cut)
            if text is not None and not text.isascii():
                out.append(CharsetGuess("ISO-2022-JP", 0.99,
                                        "7-bit data with valid ISO-2022-JP escape sequences"))
        compatible = [n for n in names if n not in NOT_ASCII_COMPATIBLE]
        if compatible:
            first = bonus if bonus in compatible else "UTF-8" if "UTF-8" in compatible \
                else compatible[0]
            out.append(CharsetGuess(
                first, 0.01 if out else 0.99,
                "pure ASCII: UTF-8 and every ASCII-compatible encoding decode it the same"
                + (" (the Content-Type charset names it)" if first == bonus else ""),
            ))
        if out:
            return out

    # 5. Score every candidate that decodes the bytes.
    return _to_guesses(_ranked_guesses(raw, encs, cut, bonus), 1.0)


def _fallback(raw: bytes, encs: list[_enc.Encoding]) -> list[CharsetGuess]:
    """No candidate decodes cleanly: rank by fewest replacement characters, then score."""
    ranked = []
    for enc in encs:
        text = enc.decode(raw, "replace")
        bad = text.count("\ufffd")
        ranked.append((-bad, score(text, enc.name)[0], enc.name, bad))
    ranked.sort(reverse=True)
    return [
        CharsetGuess(name, round(0.05 / (1 + i), 4),
                     f"no candidate decodes without errors; {bad} replacement character(s)")
        for i, (_, _, name, bad) in enumerate(ranked)
    ]

