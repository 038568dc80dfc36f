"""The URL Standard's application/x-www-form-urlencoded parser as it was before 2016.

Strategy: today's parser (:func:`percent_encoding.form.parse`) with the flags the
Standard had then, each a small step around the same field splitting and decoding:
the ``_charset_`` flag picks the decoder from the body, the isindex flag turns a first
field without ``=`` into a value, and the 2014-2016 edition fails on a raw byte above
0x7F when an encoding override other than UTF-8 is given.

Specs: URL Standard, "application/x-www-form-urlencoded parsing", as published
2014-2016 (the ``use _charset_ flag``, the ``isindex flag`` and, in the 2014-2016
text, step 2's failure on non-ASCII input with an override).
"""

from __future__ import annotations

from typing import Literal

from ..errors import PercentEncodingError
from ..form import Errors, FormOptions, parse_with


def whatwg_form_parse(
    data: str | bytes | bytearray | memoryview,
    *,
    encoding: str | None = None,
    charset_hack: bool = False,
    isindex: bool = False,
    edition: Literal["current", "2014"] = "current",
    separators: str = "&",
    strip_leading_question_mark: bool = False,
    max_fields: int | None = None,
    max_field_size: int | None = None,
    max_total: int | None = None,
    errors: Errors = "replace",
    strict: bool | None = None,
) -> list[tuple[str, str]]:
    """Parse a form body as the URL Standard did before 2016 (its §5.1 with the old flags).

    Everything :func:`percent_encoding.form.parse` does, plus the historic modes:

    * ``charset_hack=True``: the value of the first ``_charset_`` field that names a
      known encoding chooses the decoder for every field (it beats ``encoding``).
    * ``isindex=True``: a first field without ``=`` is a value with an empty name
      (``<isindex>`` queries).
    * ``edition="2014"``: the 2014-2016 text, whose parser failed when an encoding
      override other than UTF-8 met a raw byte above 0x7F (not a ``%XX``): that raises
      :class:`~percent_encoding.errors.TextDecodeError` at the first such byte (for a
      ``str``, the first non-ASCII character).

    >>> whatwg_form_parse(b"a=%93%FA&_charset_=shift_jis", charset_hack=True)
    [('a', '日'), ('_charset_', 'shift_jis')]
    >>> whatwg_form_parse("hello+world&lang=en", isindex=True)
    [('', 'hello world'), ('lang', 'en')]
    """
    if isinstance(encoding, str) and encoding.strip().lower() == "auto":
        raise PercentEncodingError(
            "whatwg_form_parse() takes an encoding label; to guess the encoding use "
            "detect.parse_form()"
        )
    return parse_with(data, FormOptions(
        encoding, separators, strip_leading_question_mark, max_fields, max_field_size,
        max_total, errors, strict, charset_hack, isindex, edition,
    ))
