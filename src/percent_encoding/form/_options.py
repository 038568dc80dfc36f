"""The form parser's options as one frozen value, built once per call and passed once.

The public parsers (:func:`percent_encoding.form.parse`,
:func:`percent_encoding.detect.parse_form`, :func:`percent_encoding.legacy.whatwg_form_parse`)
keep their documented keywords; each builds one :class:`FormOptions` from them and hands it
to :func:`percent_encoding.form.parse_with`, so the options are declared here and nowhere
else.  The model is rust-url's ``ParseOptions``: one value instead of keywords forwarded by
name through every layer.

Specs: URL Standard §5.1 "application/x-www-form-urlencoded parser" (the default
options); the URL Standard before 2016 (``charset_hack``, ``isindex``, ``edition``) and
HTML 4.01 §B.2.2 (``;`` as a separator) for the options that reproduce older clients.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ._input import Errors


@dataclass(frozen=True, slots=True)
class FormOptions:
    """Every option of the form parser; the defaults are the URL Standard's §5.1 parser.

    The values are checked where they are used (by :func:`percent_encoding.form.parse_with`),
    so a default call pays for no check.

    >>> FormOptions(separators="&;").separators
    '&;'
    """

    encoding: str | None = None
    separators: str = "&"
    strip_leading_question_mark: bool = False
    max_fields: int | None = None
    max_field_size: int | None = None
    max_total: int | None = None
    errors: Errors = "replace"
    strict: bool | None = None
    # The URL Standard before 2016 (legacy.whatwg_form_parse only).
    charset_hack: bool = False
    isindex: bool = False
    edition: Literal["current", "2014"] = "current"


DEFAULT_OPTIONS = FormOptions()
