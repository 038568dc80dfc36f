"""percent-encoding: every percent-encoding, spec-exact.

The core is the WHATWG URL Standard's percent-encode and percent-decode
(:func:`encode`, :func:`decode`, :func:`decode_text`) over named encode sets
(:mod:`percent_encoding.sets`).  Forms, URLSearchParams, legacy encodings and
the other variants live in their own modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import sets
from ._kernels import IMPLEMENTATION
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
from .sets import EncodeSet

if TYPE_CHECKING:
    from .form import URLSearchParams


def __getattr__(name: str) -> object:
    # URLSearchParams lives in the form package, which a one-shot
    # `percent encode x` does not need: load it on first use (PEP 562).
    if name == "URLSearchParams":
        from .form import URLSearchParams

        globals()["URLSearchParams"] = URLSearchParams
        return URLSearchParams
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

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
