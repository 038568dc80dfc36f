"""The registry entries this package declares: the urlencoded serializer and an
HTML form GET to a mailto: URL.

Specs: URL Standard §5.2; HTML §4.10.22.3 "mail with headers".
"""

from __future__ import annotations

from collections.abc import Iterable

from .. import core as _core
from ..schemes import Scheme
from ..sets import FORM_URLENCODED
from ._serialize import serialize


def _form_encode(text: str | bytes) -> str:
    return _core.encode(text, FORM_URLENCODED, space_as_plus=True)


def _form_decode(text: str | bytes) -> str:
    return _core.decode_text(text, plus_as_space=True)


def _mailto_encode(text: str | bytes) -> str:
    return _core.encode(text, FORM_URLENCODED)


def _mailto_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    return serialize(pairs).replace("+", "%20")


def _mailto_decode(text: str | bytes) -> str:
    return _core.decode_text(text)


_URL_FORM = "https://url.spec.whatwg.org/#concept-urlencoded-serializer"

SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="application/x-www-form-urlencoded",
        spec="URL Standard §5.2 " + _URL_FORM,
        encode=_form_encode,
        decode=_form_decode,
        encode_set=FORM_URLENCODED,
        notes="UTF-8, space as '+', everything but ASCII alphanumerics and *-._ as %XX; "
        "URLSearchParams and HTML forms use it; '+' decodes to a space",
        encode_pairs=serialize,
        family="WHATWG URL Standard",
        aliases=("url-search-params",),
    ),
    Scheme(
        name="html-form-mailto",
        spec="HTML §4.10.22.3 'mail with headers' "
        "https://html.spec.whatwg.org/multipage/form-control-infrastructure.html"
        "#submit-mailto-headers",
        encode=_mailto_encode,
        decode=_mailto_decode,
        encode_set=FORM_URLENCODED,
        notes="a form GET to a mailto: URL: the urlencoded serializer with '+' replaced "
        "by %20, since mail clients do not read '+' as a space",
        encode_pairs=_mailto_pairs,
        family="WHATWG HTML",
    ),
)
