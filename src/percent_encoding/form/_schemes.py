"""The registry entries this package declares: the urlencoded serializer, an
HTML form GET to a mailto: URL, and the other specs' form variants (Lynx's
application/sgml-form-urlencoded, WSDL 2.0, SPARQL 1.1 Protocol, OpenURL KEV,
XProc).

Specs: URL Standard §5.2; HTML §4.10.22.3 "mail with headers"; the variants' own,
in their rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .. import core as _core
from .._scheme import Scheme, from_encode_set, pairs_arg
from ..sets import FORM_URLENCODED, RFC2396, RFC3986_UNRESERVED
from ._serialize import serialize
from ._sgml import sgml_form_serialize
from ._xproc import XPROC_URLENCODE


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

# --- issue 43 (seeds1): other specs' form variants ------------------------------------------
def _sgml_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    return sgml_form_serialize(pairs_arg(pairs, "application/sgml-form-urlencoded encode_pairs()"))


def _unreserved_pairs(what: str) -> Callable[[Iterable[tuple[str, str]]], str]:
    def encode_pairs(pairs: Iterable[tuple[str, str]]) -> str:
        return "&".join(
            _core.encode(k, RFC3986_UNRESERVED) + "=" + _core.encode(v, RFC3986_UNRESERVED)
            for k, v in pairs_arg(pairs, what)
        )

    return encode_pairs


def _kev_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    return "&".join(_core.encode(k, RFC2396) + "=" + _core.encode(v, RFC2396)
                    for k, v in pairs_arg(pairs, "openurl-kev encode_pairs()"))


def _xproc_pairs(pairs: Iterable[tuple[str, str]]) -> str:
    # The registry's contract: any names (XProc's NCName rule is xproc_www_form_urlencode's).
    return "&".join(_core.encode(k, XPROC_URLENCODE, space_as_plus=True) + "="
                    + _core.encode(v, XPROC_URLENCODE, space_as_plus=True)
                    for k, v in pairs_arg(pairs, "xproc-www-form-urlencode encode_pairs()"))


SCHEMES += (
    from_encode_set(
        FORM_URLENCODED,
        name="application/sgml-form-urlencoded",
        spec="Lynx's form enctype (';' between pairs; cf. HTML 4.01 §B.2.2)",
        notes="urlencoded names and values (space as '+'), pairs separated by ';' not '&'",
        space_as_plus=True,
        encode_pairs=_sgml_pairs,
        family="Forms",
        aliases=("lynx-sgml-form-urlencoded",),
    ),
    from_encode_set(
        RFC3986_UNRESERVED,
        name="wsdl20-http-urlencoded",
        spec="WSDL 2.0 Part 2: Adjuncts (W3C REC 2007-06-26) §6.8.2 "
        "http://www.w3.org/TR/2007/REC-wsdl20-adjuncts-20070626/#_http_x-www-form-urlencoded",
        notes="element local names and values, UTF-8, all but RFC 3986 unreserved as %XX "
        "(space %20); pairs joined by the {http query parameter separator}, '&' by default",
        encode_pairs=_unreserved_pairs("wsdl20-http-urlencoded encode_pairs()"),
        family="Forms",
    ),
    from_encode_set(
        RFC3986_UNRESERVED,
        name="sparql11-protocol",
        spec="SPARQL 1.1 Protocol (W3C REC 2013-03-21) §2.1.1, §2.1.2, §2.2.1 "
        "http://www.w3.org/TR/2013/REC-sparql11-protocol-20130321/#query-via-post-urlencoded",
        notes="query= or update= with the dataset IRIs; UTF-8, all but RFC 3986 unreserved "
        "as %XX (space %20, as the Protocol's examples write it)",
        encode_pairs=_unreserved_pairs("sparql11-protocol encode_pairs()"),
        family="Forms",
    ),
    from_encode_set(
        RFC2396,
        name="openurl-kev",
        spec="ANSI/NISO Z39.88-2004 Part 3, KEV ContextObject Format (info:ofi/fmt:kev)",
        notes="key=value pairs joined by '&'; url_ver/ctx_ver Z39.88-2004, values in the "
        "ctx_enc charset (UTF-8), all but RFC 2396 unreserved as %XX",
        encode_pairs=_kev_pairs,
        family="Forms",
        aliases=("z39.88-kev",),
    ),
    from_encode_set(
        RFC3986_UNRESERVED,
        name="html5-post-to-data",
        spec="WHATWG Web Applications 1.0 (HTML5 draft, 2008-09-12 .. 2010), form submission "
        "'Post to data:' (whatwg/html 0ec99b7, 9131522)",
        notes="the urlencoded body put into a data: action at '%%': every byte but RFC 3986 "
        "unreserved as %XX (at '%%%%' escaped once more); form.post_to_data",
        family="WHATWG HTML",
    ),
    from_encode_set(
        XPROC_URLENCODE,
        name="xproc-www-form-urlencode",
        spec="XProc 1.0 (W3C REC 2010-05-11) p:www-form-urlencode / p:www-form-urldecode "
        "http://www.w3.org/TR/2010/REC-xproc-20100511/#c.www-form-urlencode",
        notes="names are xs:NCNames; UTF-8, space as '+', RFC 3986 unreserved and reserved "
        "stay but & and + (as XML Calabash writes it); the decoder's errors are err:XC0037 "
        "and err:XC0061",
        space_as_plus=True,
        encode_pairs=_xproc_pairs,
        family="Forms",
    ),
)
