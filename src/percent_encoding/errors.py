"""Every exception the library raises.

Strategy: one base class, :class:`PercentEncodingError`, which is a ``ValueError``
so callers that already catch ``ValueError`` keep working.  Specific errors sit
below it and carry what a caller needs to act on (a position, a field count, a
label).  Wrong *types* raise :class:`PercentEncodingTypeError`, a ``TypeError``.

Every class can be rebuilt from its message alone (``position`` is then -1):
pickling across processes (Dask, Spark workers) keeps the attributes, and an
engine that re-raises an error from a user function as ``type(e)(message)``
(Polars) still raises ours.
"""

from __future__ import annotations

__all__ = [
    "AltSvcError",
    "ArrowFormatError",
    "DataURLError",
    "FormLimitError",
    "FragmentError",
    "IDNAError",
    "MailtoError",
    "OAuth2Error",
    "OAuth2RedirectError",
    "PercentDecodeError",
    "PercentEncodeError",
    "PercentEncodingDeprecationWarning",
    "PercentEncodingError",
    "PercentEncodingTypeError",
    "TextDecodeError",
    "URIError",
    "URLParseError",
    "UnknownEncodingError",
    "UnknownSchemeError",
    "UnknownSetError",
    "UriTemplateError",
]


class PercentEncodingError(ValueError):
    """Base class of every value error this library raises."""


class PercentEncodingDeprecationWarning(DeprecationWarning):
    """Every deprecation this library announces (an old spelling that still works for a
    release); a ``DeprecationWarning``, so filters on that catch it too.  To turn only
    these into errors: ``-W error::percent_encoding.errors.PercentEncodingDeprecationWarning``.
    """


class PercentEncodingTypeError(TypeError):
    """An argument has the wrong type (for example ``int`` where text is expected)."""


class ArrowFormatError(PercentEncodingError, PercentEncodingTypeError):
    """An Arrow column whose buffers break the Arrow columnar format (offsets that go
    backwards or past the data, a negative length, a view outside its buffer, a size
    beyond any memory): the column functions of :mod:`percent_encoding.arrow`.

    ``row`` is the row it names (the chunk's first row when the fault is the whole
    chunk's).  The object is not the Arrow array it claims to be, so the error is both a
    :class:`PercentEncodingError` (a ``ValueError``) and a
    :class:`PercentEncodingTypeError` (a ``TypeError``), as NumPy's ``AxisError`` is
    both a ``ValueError`` and an ``IndexError``.
    """

    def __init__(self, message: str, row: int = -1) -> None:
        super().__init__(message)
        self.row = row


class PercentDecodeError(PercentEncodingError):
    """A ``%`` that does not start a valid ``%XX`` escape (strict decoding only).

    ``position`` is the index of the offending ``%`` in the input.
    """

    def __init__(self, message: str, position: int = -1) -> None:
        super().__init__(message)
        self.position = position


class PercentEncodeError(PercentEncodingError):
    """Text that cannot be encoded, e.g. a lone surrogate or a character the
    chosen legacy encoding cannot represent in fatal mode.

    ``position`` is the index of the offending character in the input.
    """

    def __init__(self, message: str, position: int = -1) -> None:
        super().__init__(message)
        self.position = position


class TextDecodeError(PercentEncodingError):
    """Bytes that are not valid in the chosen encoding (strict/fatal decoding).

    ``position`` is the byte offset of the first invalid byte.
    """

    def __init__(self, message: str, position: int = -1) -> None:
        super().__init__(message)
        self.position = position


class UnknownEncodingError(PercentEncodingError, LookupError):
    """A label that the WHATWG Encoding Standard does not define."""


class UnknownSetError(PercentEncodingError, KeyError):
    """An encode-set name that is not registered (also a ``KeyError``/``LookupError``)."""

    def __str__(self) -> str:  # KeyError would otherwise repr() the message
        return str(self.args[0]) if self.args else ""


class UnknownSchemeError(PercentEncodingError, KeyError):
    """A scheme name that is not in :mod:`percent_encoding.schemes`."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class FormLimitError(PercentEncodingError):
    """A form body crossed a configured limit (field count, field size, total size)."""

    def __init__(self, message: str, limit: str = "", value: int = 0) -> None:
        super().__init__(message)
        self.limit = limit
        self.value = value


class AltSvcError(PercentEncodingError):
    """An ``Alt-Svc`` field value that is not RFC 7838 §3 syntax, or alternatives that
    cannot be written as one.

    ``position`` is the index in the field value where the problem is, when there is one.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class DataURLError(PercentEncodingError):
    """A ``data:`` URL that the Fetch Standard's ``data:`` URL processor fails on, or a
    string that forgiving-base64 decode (Infra) fails on.

    ``position`` is the index in the input where the problem is, when there is one.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class FragmentError(PercentEncodingError):
    """A fragment identifier its spec does not allow, or values that cannot be written
    as one (Media Fragments URI 1.0, RFC 5147, RFC 7111, RFC 8118; see
    :mod:`percent_encoding.fragments`).

    ``position`` is the index in the fragment where the problem is, when there is one.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class MailtoError(PercentEncodingError):
    """A ``mailto:`` URL that cannot be read, or parts that cannot be written as one
    (RFC 6068 §2, §5).

    ``position`` is the index in the input where the problem is, when there is one.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class OAuth2Error(PercentEncodingError):
    """OAuth 2.0 data that is not what RFC 6749 defines (``oauth2``): an
    ``Authorization`` value that is not client credentials (§2.3.1), a redirect that
    is not an authorization response.

    ``position`` is the index in the input where the problem is, when there is one.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class OAuth2RedirectError(OAuth2Error):
    """A redirect URI that does not hold one OAuth 2.0 authorization response (RFC 6749
    §4.1.2, §4.2.2): parameters in both the query and the fragment, a parameter given
    twice (§3.1), or none of ``code``, ``access_token`` and ``error``."""


class IDNAError(PercentEncodingError):
    """A domain failed UTS #46 processing or the URL Standard's domain parser.

    ``position`` is the index in the input where the failing label starts (or of
    the offending character, when there is one); ``rule`` names the check that
    failed (``"validity 7 (ContextJ)"``, ``"bidi rule 4"``, ``"forbidden domain
    code point"``, …) and ``label`` is the index of the label.
    """

    def __init__(self, message: str, position: int = -1, rule: str = "", label: int = -1) -> None:
        super().__init__(message)
        self.position = position
        self.rule = rule
        self.label = label


class URIError(PercentEncodingError):
    """Where a JavaScript engine throws ``URIError`` (ECMA-262 §19.2.6).

    ``position`` is the UTF-16 code-unit index in the JavaScript string where the
    problem was found, when there is one.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class UriTemplateError(PercentEncodingError):
    """A malformed RFC 6570 template or an expansion the RFC forbids.

    ``position`` is the character index in the template, when known.
    """

    def __init__(self, message: str, position: int | None = None) -> None:
        super().__init__(message)
        self.position = position


class URLParseError(PercentEncodingError):
    """The URL Standard's parser returned failure (URL Standard §4.4).

    ``name`` is the Standard's validation-error name (``"host-missing"``,
    ``"port-out-of-range"``, …) and ``position`` the index in the input where
    the parser gave up.  The column functions (:func:`percent_encoding.arrow.url_parse`,
    ``errors="strict"``) also set ``row``, the row index in the column (``None``
    for a single URL).
    """

    def __init__(
        self, message: str, name: str = "", position: int | None = None, row: int | None = None
    ) -> None:
        super().__init__(message)
        self.name = name
        self.position = position
        self.row = row
