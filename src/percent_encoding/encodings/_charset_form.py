"""Choose the encoding of a whole urlencoded form (and of each of its fields).

A form's names and values are judged together: a ``_charset_`` field naming a known
label is decisive (HTML §4.10.22.4, constructing the entry list: the browser fills it
with the encoding it used); then a probe field whose bytes are a known character in a
candidate encoding (HTML §4.10.22.5, selecting a form submission encoding); then a
field that echoes the page's charset (:data:`ECHO_CHARSET_FIELDS`); then the
detector of :mod:`._charset_detect` over every non-ASCII name and value.  Fields that
read differently on their own, a value cut inside a UTF-8 sequence and a Content-Type
``charset=`` the data do not decode in become findings on the guess.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .. import encodings as _enc
from ..errors import PercentEncodingTypeError
from ._charset_detect import (
    NOT_ASCII_COMPATIBLE,
    CharsetGuess,
    as_bytes,
    charset,
    decode,
    encoding_for_label,
    label_text,
    probe_bytes,
    resolve,
)

#: Field names whose value real forms fill with the page's (so the input's) charset:
#: Google and Baidu ``ie``, Yahoo ``ei``, ``inputEncoding``/``input_encoding`` (search
#: appliances, OpenSearch-style forms), ``charset``/``encoding``/``enc`` (many CMSs), and
#: ``oe`` (Google's output encoding, which pages set to their own charset too).  Matched
#: case-insensitively, in this order; ``echo_fields=`` replaces the list.
ECHO_CHARSET_FIELDS: tuple[str, ...] = (
    "ie", "ei", "inputEncoding", "input_encoding", "charset", "encoding", "enc", "oe",
)


def choose_form_encoding(
    raw_pairs: Sequence[tuple[bytes, bytes]],
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    candidates: Sequence[str] | None = None,
    echo_fields: Sequence[str] | None = None,
) -> CharsetGuess:
    """Choose the encoding of a urlencoded form's percent-decoded names and values.

    In order: a ``_charset_`` field (any case) naming a known label, as HTML's hidden
    ``_charset_`` field sends it; a probe field ``probe=(field_name, expected_char)``
    whose submitted bytes are that character in a candidate encoding; a field that
    echoes the input charset (:data:`ECHO_CHARSET_FIELDS`, e.g. ``ie=Shift_JIS``) when
    the data decode in it; then :func:`charset` over every non-ASCII name and value
    joined with newlines (ISO-2022-JP's escape sequences count as non-ASCII), with
    ``content_type_charset`` as a hint.  The reason says which rule decided; fields that
    read differently on their own lower the confidence and add a finding, and so does
    a value cut inside a UTF-8 sequence.

    >>> choose_form_encoding([(b"_charset_", b"Shift_JIS"), (b"q", b"\\x83e")]).encoding
    'Shift_JIS'
    >>> g = choose_form_encoding([(b"p", b"\\x81E"), (b"q", b"\\x83e")], probe=("p", "・"))
    >>> g.encoding, g.reason[:20]
    ('Shift_JIS', "probe field 'p' matc")
    >>> choose_form_encoding([(b"q", "привет".encode("koi8-r"))]).encoding
    'KOI8-R'
    >>> choose_form_encoding([(b"ie", b"EUC-JP"), (b"q", b"\\xa4\\xa2")]).reason
    "field 'ie' echoes the input charset: 'EUC-JP'"
    """
    return form_encodings(
        raw_pairs, probe=probe, content_type_charset=content_type_charset,
        candidates=candidates, echo_fields=echo_fields, per_field=False,
    )[0]


def _utf8_cut(value: bytes) -> int | None:
    """Where a value that is valid UTF-8 but for a sequence cut at its end is cut."""
    try:
        value.decode("utf-8")
        return None
    except UnicodeDecodeError as e:
        if e.reason == "unexpected end of data" and e.end == len(value):
            try:
                value[: e.start].decode("utf-8")
            except UnicodeDecodeError:
                return None
            return e.start
        return None


def _needs_detection(b: bytes) -> bool:
    return not b.isascii() or b"\x1b" in b


def _reads(enc_name: str, b: bytes) -> str:
    return _enc.lookup(enc_name).decode(b, "replace")


_SURE = 0.6  # a field guess this confident on its own can contradict the whole form
_MAX_FIELD_CHECK = 64  # fields checked one by one for disagreement (linear cost bound)


def _field_names(echo_fields: object) -> tuple[str, ...]:
    """echo_fields as a tuple of names; a str, a non-iterable or a non-str item is refused."""
    names: tuple[object, ...] | None = None
    if isinstance(echo_fields, Iterable) and not isinstance(echo_fields, (str, bytes)):
        names = tuple(echo_fields)
    if names is None or not all(isinstance(f, str) for f in names):
        raise PercentEncodingTypeError("echo_fields must be a sequence of field names (str)")
    return tuple(str(f) for f in names)


def form_encodings(
    raw_pairs: Sequence[tuple[bytes, bytes]],
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    candidates: Sequence[str] | None = None,
    echo_fields: Sequence[str] | None = None,
    per_field: bool = False,
) -> tuple[CharsetGuess, list[CharsetGuess]]:
    """The whole-form guess of :func:`choose_form_encoding`, and with ``per_field`` one
    guess per (name, value) pair (a pair that is ASCII gets the whole-form guess)."""
    if isinstance(raw_pairs, (str, bytes)) or not isinstance(raw_pairs, Sequence):
        raise PercentEncodingTypeError(
            f"raw_pairs must be a list of (bytes, bytes), not {type(raw_pairs).__name__}"
        )
    pairs: list[tuple[bytes, bytes]] = []
    for item in raw_pairs:
        if not isinstance(item, tuple) or len(item) != 2:
            raise PercentEncodingTypeError("raw_pairs must hold (name, value) pairs of bytes")
        pairs.append((as_bytes(item[0], "a name"), as_bytes(item[1], "a value")))
    if content_type_charset is not None and not isinstance(content_type_charset, str):
        raise PercentEncodingTypeError("content_type_charset must be a str label")
    if probe is not None and (not isinstance(probe, tuple) or len(probe) != 2
                              or not all(isinstance(p, str) for p in probe) or not probe[1]):
        raise PercentEncodingTypeError("probe must be a pair (field_name, expected_char)")
    echo = ECHO_CHARSET_FIELDS if echo_fields is None else _field_names(echo_fields)

    whole = _whole_form(pairs, probe, content_type_charset, candidates, echo)
    if not per_field:
        return whole, []
    out: list[CharsetGuess] = []
    for name, value in pairs:
        if not (_needs_detection(name) or _needs_detection(value)):
            out.append(CharsetGuess(whole.encoding, whole.confidence,
                                    "ASCII field: read with the whole form's encoding"))
            continue
        out.append(_field_guess(name, value, candidates, content_type_charset))
    return whole, out


def _field_guess(
    name: bytes, value: bytes, candidates: Sequence[str] | None, ct: str | None
) -> CharsetGuess:
    hints = {"charset": ct} if ct is not None else {}
    cut = _utf8_cut(value)
    if cut is not None and not name.isascii():
        cut = None if _utf8_cut(name) is not None else cut
    if cut is not None:
        head = value[:cut]
        if not head.isascii() and not (b"\n".join((name, head))).isascii():
            g = charset(b"\n".join((name, head)), candidates=candidates, hints=hints)[0]
            if g.encoding == "UTF-8":
                return CharsetGuess("UTF-8", round(g.confidence * 0.95, 4),
                                    f"{g.reason} (the value is cut inside a UTF-8 sequence)",
                                    (_cut_finding(name, value, cut),))
    g = charset(b"\n".join((name, value)), candidates=candidates, hints=hints)[0]
    return CharsetGuess(g.encoding, g.confidence, g.reason)


def _cut_finding(name: bytes, value: bytes, cut: int) -> str:
    return (f"the value of {label_text(name)!r} ends inside a UTF-8 sequence "
            f"({len(value) - cut} byte(s) of it): it was probably cut off at a length "
            "limit; the incomplete character decodes as U+FFFD")


def _whole_form(
    pairs: list[tuple[bytes, bytes]],
    probe: tuple[str, str] | None,
    content_type_charset: str | None,
    candidates: Sequence[str] | None,
    echo: tuple[str, ...],
) -> CharsetGuess:
    # HTML "constructing the entry list" (and the pre-2016 URL Standard's _charset_ flag).
    for name, value in pairs:
        if name.lower() == b"_charset_":
            enc = encoding_for_label(value.strip())
            if enc is not None:
                return CharsetGuess(enc.name, 0.99,
                                    f"_charset_ field says {label_text(value)!r}")

    fields: list[bytes] = []
    owners: list[bytes] = []  # the field name each of `fields` belongs to
    for name, value in pairs:
        for part in (name, value):
            if _needs_detection(part):
                fields.append(part)
                owners.append(name)
    n = len(fields)
    hints: dict[str, object] = {}
    if content_type_charset is not None:
        hints["charset"] = content_type_charset
    notes = ""
    if probe is not None:
        body = b"\n".join(fields)
        pname = probe[0].encode("utf-8")
        submitted = next((v for k, v in pairs if k == pname), None)
        if submitted is None:
            notes = f" (no probe field {probe[0]!r} in the form)"
        else:
            encs = resolve(candidates)
            matched = {e.name for e in encs if probe_bytes(e, probe[1]) == submitted}
            if matched:
                g = charset(body, candidates=candidates,
                            hints={**hints, "probe": (probe[1], submitted)})[0]
                return CharsetGuess(g.encoding, g.confidence,
                                    f"probe field {probe[0]!r} {g.reason[len('probe field '):]}")
            notes = f" (probe field {probe[0]!r} matched no candidate)"

    # Fields that echo the page's charset (ie=UTF-8 and the like): trusted when every
    # name and value decodes in the named encoding.
    wanted = {f.lower().encode("utf-8") for f in echo}
    for name, value in pairs:
        if name.lower() in wanted and value.strip().isascii():
            enc = encoding_for_label(value.strip())
            if enc is None:
                continue
            if all(decode(enc, f, False) is not None for f in fields):
                return CharsetGuess(enc.name, 0.95,
                                    f"field {label_text(name)!r} echoes the input charset: "
                                    f"{label_text(value.strip())!r}{notes}")
            notes += (f" (field {label_text(name)!r} says {label_text(value.strip())!r}, "
                      "but the data do not decode in it)")

    if not n:
        declared = encoding_for_label(content_type_charset) if content_type_charset else None
        if declared is not None and declared.name not in NOT_ASCII_COMPATIBLE:
            return CharsetGuess(declared.name, 0.99,
                                "every name and value is ASCII; the Content-Type charset "
                                f"says {declared.name}{notes}")
        return CharsetGuess("UTF-8", 0.99,
                            "every name and value is ASCII: UTF-8 and every "
                            f"ASCII-compatible encoding decode them the same{notes}")

    findings: list[str] = []
    # A value cut inside a UTF-8 sequence (a length-limited log field): judge the
    # data without the broken tails; if that is UTF-8, the form is UTF-8.
    cuts = {i: c for i, f in enumerate(fields) if (c := _utf8_cut(f)) is not None}
    g = charset(b"\n".join(fields), candidates=candidates, hints=hints)[0]
    if cuts and (g.encoding != "UTF-8" or g.findings):  # (charset() notes a cut at the end)
        trimmed = [f[: cuts[i]] if i in cuts else f for i, f in enumerate(fields)]
        body = b"\n".join(trimmed)
        if not body.isascii():
            t = charset(body, candidates=candidates, hints=hints)[0]
            if t.encoding == "UTF-8":
                for i in cuts:
                    findings.append(_cut_finding(owners[i], fields[i], cuts[i]))
                g = CharsetGuess("UTF-8", round(t.confidence * 0.95, 4), t.reason)

    conf, reason = g.confidence, f"detected from {n} non-ASCII name(s)/value(s): {g.reason}"
    enc_name = g.encoding
    # Fields that read differently on their own: the form was put together from
    # several sources (or one guess is wrong).  Say so rather than be confidently wrong.
    own = [(name, value) for name, value in pairs
           if _needs_detection(name) or _needs_detection(value)][:_MAX_FIELD_CHECK]
    if len(own) >= 2:
        guesses = [_field_guess(k, v, candidates, content_type_charset) for k, v in own]
        options = [enc_name, *dict.fromkeys(x.encoding for x in guesses)]

        def agrees(e: str, k: bytes, v: bytes, x: CharsetGuess) -> bool:
            # A field too short to be sure of on its own (its own guess below
            # _SURE) does not contradict the form (measured in bench/README.md).
            return x.confidence < _SURE or _reads(e, k + b"\n" + v) == _reads(x.encoding,
                                                                               k + b"\n" + v)

        def agreeing(e: str) -> int:
            return sum(1 for (k, v), x in zip(own, guesses, strict=True) if agrees(e, k, v, x))

        best = max(options, key=agreeing)  # max keeps the first on ties: the whole guess
        agree = agreeing(best)
        if agree < len(own):
            others = ", ".join(
                f"{label_text(k)!r} reads as {x.encoding}"
                for (k, v), x in zip(own, guesses, strict=True)
                if not agrees(best, k, v, x)
            )
            findings.append(
                f"fields disagree: {agree} of {len(own)} non-ASCII field(s) read the same "
                f"in {best}, but {others}; the form may mix charsets "
                "(parse with per_field=True)"
            )
            if best != enc_name:
                reason = (f"the encoding most fields agree on ({agree} of {len(own)}); "
                          f"the joined data scored {enc_name}")
                enc_name = best
            conf = round(min(conf, 0.9) * agree / len(own), 4)
    declared = encoding_for_label(content_type_charset) if content_type_charset else None
    if declared is not None:
        if declared.name == enc_name:
            if "Content-Type charset" not in reason:
                reason += "; the Content-Type charset says so too"
        elif decode(declared, b"\n".join(fields), False) is None:
            findings.append(f"the Content-Type header says charset={declared.name}, "
                            "but the data do not decode in it")
        elif _reads(declared.name, b"\n".join(fields)) != _reads(enc_name, b"\n".join(fields)):
            findings.append(f"the Content-Type header says charset={declared.name}, "
                            f"but the data read better as {enc_name}")
    return CharsetGuess(enc_name, conf, reason + notes, tuple(findings))

