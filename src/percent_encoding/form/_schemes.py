"""The registry entries this package declares: the urlencoded serializer and an
HTML form GET to a mailto: URL.

Specs: URL Standard §5.2; HTML §4.10.22.3 "mail with headers".
"""

from __future__ import annotations

from collections.abc import Iterable

from .._scheme import Scheme, from_encode_set, pairs_arg
from ..sets import FORM_URLENCODED
from ._serialize import serialize


def _form_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    # The registry's contract: names and values are str or bytes, for every scheme alike
    # (form.serialize itself also takes urlencode's looser input).
    return serialize(pairs_arg(pairs, "application/x-www-form-urlencoded encode_pairs()"))


def _mailto_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    return serialize(pairs_arg(pairs, "html-form-mailto encode_pairs()")).replace("+", "%20")


_URL_FORM = "https://url.spec.whatwg.org/#concept-urlencoded-serializer"

SCHEMES: tuple[Scheme, ...] = (
    from_encode_set(
        FORM_URLENCODED,
        name="application/x-www-form-urlencoded",
        spec="URL Standard §5.2 " + _URL_FORM,
        notes="UTF-8, space as '+', everything but ASCII alphanumerics and *-._ as %XX; "
        "URLSearchParams and HTML forms use it; '+' decodes to a space",
        space_as_plus=True,
        encode_pairs=_form_pairs,
        family="WHATWG URL Standard",
        aliases=("url-search-params",),
    ),
    from_encode_set(
        FORM_URLENCODED,
        name="html-form-mailto",
        spec="HTML §4.10.22.3 'mail with headers' "
        "https://html.spec.whatwg.org/multipage/form-control-infrastructure.html"
        "#submit-mailto-headers",
        notes="a form GET to a mailto: URL: the urlencoded serializer with '+' replaced "
        "by %20, since mail clients do not read '+' as a space",
        encode_pairs=_mailto_pairs,
        family="WHATWG HTML",
    ),
)
