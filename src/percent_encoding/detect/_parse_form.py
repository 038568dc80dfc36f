"""The form parser's guessing path: split and percent-decode once, ask the detector, decode.

What :func:`percent_encoding.detect.parse_form` runs.  It sits above the form parser
(:mod:`percent_encoding.form`, whose ``parse_with`` and ``FormOptions`` it takes from the
package itself) and above the charset detector (:mod:`percent_encoding.encodings`), so
neither of them imports this module: the import graph stays one way.  The form parser
splits the body once and hands the percent-decoded pairs to the detector through a
callback, then decodes those same pairs with the encodings it chose.

Spec: URL Standard §5.1 "application/x-www-form-urlencoded parser", with the encoding
chosen from the bytes instead of given (HTML §4.10.22's ``_charset_`` field is one hint).
"""

from __future__ import annotations

from collections.abc import Sequence

from .. import _args
from ..encodings._for_siblings import CharsetGuess, form_encodings
from ..errors import PercentEncodingTypeError
from ..form import FormOptions, ParsedForm, parse_with


def parse_detected(
    data: str | bytes | bytearray | memoryview,
    options: FormOptions,
    *,
    probe: tuple[str, str] | None,
    content_type_charset: str | None,
    per_field: bool,
    echo_fields: Sequence[str] | None,
) -> ParsedForm:
    """The pairs of ``data`` (parsed with ``options``), decoded with the guessed encoding."""
    if probe is not None and not (
        isinstance(probe, tuple) and len(probe) == 2 and all(isinstance(x, str) for x in probe)
    ):
        raise PercentEncodingTypeError("probe must be a (field name, expected character) tuple")
    _args.check_str("content_type_charset", content_type_charset, none=True)
    _args.check_bool("per_field", per_field)
    guesses: list[tuple[CharsetGuess, list[CharsetGuess]]] = []

    def choose(raw: list[tuple[bytes, bytes]]) -> tuple[str, Sequence[str] | None]:
        guess, fields = form_encodings(
            raw, probe=probe, content_type_charset=content_type_charset,
            echo_fields=echo_fields, per_field=per_field,
        )
        guesses.append((guess, fields))
        return guess.encoding, [g.encoding for g in fields] if per_field else None

    pairs = parse_with(data, options, choose)
    guess, fields = guesses[0]
    return ParsedForm(pairs, guess, fields)
