"""The form parser's guessing path: percent-decode, ask the detector, decode with its answer.

What :func:`percent_encoding.detect.parse_form` runs.  It sits above the form parser
(:mod:`percent_encoding.form`, whose checks and decoders it calls) and above the charset
detector (:mod:`percent_encoding.encodings._charset_form`), so neither of them imports
this module: the import graph stays one way.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from .. import _args
from ..encodings._detect import form_encodings
from ..errors import PercentEncodingTypeError
from ..form._input import Errors, check_errors, check_strict
from ..form._parse import ParsedForm, full_parse, lookup, parse_bytes


def parse_detected(
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
    fatal = check_errors(errors)
    check_strict(strict)
    pairs: list[tuple[str, str]] = full_parse(
        data, encoding=guess.encoding, errors=errors,
        strict=strict, isindex=isindex, separators=separators,
        strip_leading_question_mark=strip_leading_question_mark, max_fields=max_fields,
        edition=edition,
    )
    if per_field:
        mode: Literal["fatal", "replace"] = "fatal" if fatal else "replace"
        for i, ((name, value), g) in enumerate(zip(raw, fields, strict=True)):
            if g.encoding != guess.encoding:
                enc = lookup(g.encoding)
                pairs[i] = (enc.decode(name, mode), enc.decode(value, mode))
    return ParsedForm(pairs, guess, fields)
