"""percent-encoding: every percent-encoding, spec-exact.

The core is the WHATWG URL Standard's percent-encode and percent-decode
(:func:`encode`, :func:`decode`, :func:`decode_text`) over named encode sets
(:mod:`percent_encoding.sets`).  Forms, URLSearchParams, legacy encodings and
the other variants live in their own modules.
"""

from __future__ import annotations

from . import sets
from ._impl import IMPLEMENTATION
from ._version import __version__
from .core import (
    decode,
    decode_text,
    encode,
    percent_decode,
    percent_encode_after_encoding,
    to_usv_string,
)
from .errors import (
    FormLimitError,
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
    UnknownEncodingError,
    UnknownSchemeError,
    UnknownSetError,
    URIError,
    UriTemplateError,
)
from .form import URLSearchParams
from .sets import EncodeSet

__all__ = [
    "IMPLEMENTATION",
    "EncodeSet",
    "FormLimitError",
    "PercentDecodeError",
    "PercentEncodeError",
    "PercentEncodingError",
    "PercentEncodingTypeError",
    "TextDecodeError",
    "URIError",
    "URLSearchParams",
    "UnknownEncodingError",
    "UnknownSchemeError",
    "UnknownSetError",
    "UriTemplateError",
    "__version__",
    "decode",
    "decode_text",
    "encode",
    "percent_decode",
    "percent_encode_after_encoding",
    "sets",
    "to_usv_string",
]
