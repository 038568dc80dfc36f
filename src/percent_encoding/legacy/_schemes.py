"""The registry entries of the legacy variants (one :class:`Scheme` per
encoder, with its source).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .. import core as _core
from .._scheme import Scheme, pairs_arg
from ..ecmascript import encode_uri_component
from ..sets import (
    CGI as _CGI_SET,
)
from ..sets import (
    HTML4_FORM,
    RFC1738,
    RFC2396,
    RFC3986_UNRESERVED,
    XFORMS_URLENCODED,
)
from ._browsers import firefox2_decode_uri_component, opera9_decode_uri_component
from ._cgi import SLUG_SET, cgi_encode, slug_decode, slug_encode
from ._common import Text
from ._dotnet import DOTNET_SET, dotnet_escape_data_string, dotnet_unescape_data_string
from ._go import (
    GO_PATH_SET,
    GO_QUERY_SET,
    go_path_escape,
    go_path_unescape,
    go_query_escape,
    go_query_unescape,
)
from ._html4 import (
    html4_form_encode,
    html4_form_encode_component,
    xforms_encode_component,
    xforms_urlencode,
)
from ._java import JAVA_URLENCODER_SET, java_urldecode, java_urlencode
from ._php import (
    PHP_RAWURLENCODE_SET,
    PHP_URLENCODE_SET,
    php_rawurldecode,
    php_rawurlencode,
    php_urldecode,
    php_urlencode,
)
from ._rfc import RFC2732, rfc1738_encode, rfc2396_encode, rfc2732_encode, rfc_decode
from ._rfc1630 import RFC1630_PATH, RFC1630_SEARCH, rfc1630_decode, rfc1630_encode
from ._rfc1808 import RFC1808_PCHAR, rfc1808_encode
from ._ruby import (
    RUBY_CGI_SET,
    RUBY_WWW_FORM_SET,
    ruby_cgi_escape,
    ruby_cgi_unescape,
    ruby_decode_www_form_component,
    ruby_encode_www_form_component,
)


def _php_pairs(enc: Callable[[Text], str]) -> Callable[[Sequence[tuple[str, str]]], str]:
    def encode_pairs(pairs: Sequence[tuple[str, str]]) -> str:
        # What http_build_query writes for a flat array of these pairs (a
        # repeated name is kept, which a PHP array could not hold).
        return "&".join(enc(k) + "=" + enc(v) for k, v in pairs_arg(pairs))

    return encode_pairs


def _pairs_checked(func: Callable[..., str]) -> Callable[[Sequence[tuple[str, str]]], str]:
    # Registry contract: encode_pairs takes a mapping or (name, value) pairs and raises
    # PercentEncodingTypeError for anything else (schemes.pairs_arg checks it).
    def encode_pairs(pairs: Sequence[tuple[str, str]]) -> str:
        return func(pairs_arg(pairs))

    return encode_pairs


def _rfc_dec(text: str) -> str:
    return rfc_decode(text)


def _plus_dec(text: str) -> str:
    return _core.decode_text(text, plus_as_space=True)


def _s(func: Callable[[Text], str]) -> Callable[[str], str]:
    def enc(text: str) -> str:
        return func(text)

    return enc


def _rfc1630_path(text: Text) -> str:
    return rfc1630_encode(text, search=False)


def _rfc1630_path_dec(text: str) -> str:
    return rfc1630_decode(text, search=False)


def _xforms_component_rfc3986_reserved(text: Text) -> str:
    return xforms_encode_component(text, reserved="rfc3986")


def _xforms_pairs_rfc3986_reserved(pairs: Sequence[tuple[str, str]]) -> str:
    return xforms_urlencode(pairs, reserved="rfc3986")


_PHP_SRC = "https://github.com/php/php-src/blob/master/ext/standard/"
_GO_SRC = "https://github.com/golang/go/blob/master/src/net/url/url.go"

SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        "php-urlencode",
        _PHP_SRC + "url.c (php_url_encode)",
        _s(php_urlencode),
        php_urldecode,
        PHP_URLENCODE_SET,
        "alphanumerics and -_. stay; space as +; ~ encoded",
        family="PHP",
        plain=True,
        space_as_plus=True,
        reversible=True,
    ),
    Scheme(
        "php-rawurlencode",
        _PHP_SRC + "url.c (php_raw_url_encode)",
        _s(php_rawurlencode),
        php_rawurldecode,
        PHP_RAWURLENCODE_SET,
        "RFC 3986 unreserved stays; space as %20",
        family="PHP",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "php-http_build_query-rfc1738",
        _PHP_SRC + "http.c (http_build_query, PHP_QUERY_RFC1738)",
        _s(php_urlencode),
        php_urldecode,
        PHP_URLENCODE_SET,
        "urlencode for names and values; space as +; nested keys a%5Bb%5D",
        _php_pairs(php_urlencode),
        "PHP",
        plain=True,
        space_as_plus=True,
        reversible=True,
    ),
    Scheme(
        "php-http_build_query-rfc3986",
        _PHP_SRC + "http.c (http_build_query, PHP_QUERY_RFC3986)",
        _s(php_rawurlencode),
        php_rawurldecode,
        PHP_RAWURLENCODE_SET,
        "rawurlencode for names and values; space as %20; nested keys a%5Bb%5D",
        _php_pairs(php_rawurlencode),
        "PHP",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "rfc1738",
        "RFC 1738 §2.2",
        _s(rfc1738_encode),
        _rfc_dec,
        RFC1738,
        "alphanumerics and $-_.+!*'(), stay; ~ encoded (unsafe)",
        family="URL RFCs",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "rfc2396",
        "RFC 2396 §2.3-§2.4",
        _s(rfc2396_encode),
        _rfc_dec,
        RFC2396,
        "unreserved (alphanumerics and -_.!~*'()) stays",
        family="URL RFCs",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "rfc2732",
        "RFC 2732 §3",
        _s(rfc2732_encode),
        _rfc_dec,
        RFC2732,
        "as RFC 2396; [ ] are reserved (escaped in data)",
        family="URL RFCs",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "html4-form",
        "HTML 4.01 §17.13.4.1",
        _s(html4_form_encode_component),
        _plus_dec,
        HTML4_FORM,
        "space as +; line breaks as %0D%0A; every non-alphanumeric %HH",
        _pairs_checked(html4_form_encode),
        "Forms",
        space_as_plus=True,
    ),
    Scheme(
        "xforms-urlencoded",
        "XForms 1.0 §11.6",
        _s(xforms_encode_component),
        _plus_dec,
        XFORMS_URLENCODED,
        "UTF-8; space as +; line breaks as %0D%0A; RFC 2396 unreserved stays; "
        "pairs separated by ; by default",
        _pairs_checked(xforms_urlencode),
        "Forms",
        space_as_plus=True,
    ),
    Scheme(
        "xforms-urlencoded-rfc3986",
        "XForms 1.0 §11.6 with RFC 3986 §2.2 reserved",
        _s(_xforms_component_rfc3986_reserved),
        _plus_dec,
        RFC3986_UNRESERVED,
        "xforms-urlencoded reading 'reserved' as RFC 3986 does: !*'() escaped too; "
        "only A-Za-z0-9-._~ stays",
        _pairs_checked(_xforms_pairs_rfc3986_reserved),
        "Forms",
        space_as_plus=True,
    ),
    Scheme(
        "cgi",
        "RFC 3875 §2.3",
        _s(cgi_encode),
        _rfc_dec,
        _CGI_SET,
        "reserved and forbidden characters escaped; unreserved stays",
        family="CGI",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "slug",
        "RFC 5023 §9.7",
        _s(slug_encode),
        slug_decode,
        SLUG_SET,
        "UTF-8; only % and octets outside %x20-7E escaped; space stays",
        family="HTTP",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "java-URLEncoder",
        "java.net.URLEncoder.encode(s, UTF_8) / URLDecoder.decode",
        java_urlencode,
        java_urldecode,
        JAVA_URLENCODER_SET,
        "alphanumerics and .-*_ stay; space as +; decoder throws on a bad %",
        family="Other languages",
        plain=True,
        space_as_plus=True,
        reversible=True,
    ),
    Scheme(
        "go-QueryEscape",
        _GO_SRC + " (QueryEscape, QueryUnescape)",
        _s(go_query_escape),
        go_query_unescape,
        GO_QUERY_SET,
        "unreserved stays; space as +; decoder errors on a bad %",
        family="Other languages",
        plain=True,
        space_as_plus=True,
        reversible=True,
    ),
    Scheme(
        "go-PathEscape",
        _GO_SRC + " (PathEscape, PathUnescape)",
        _s(go_path_escape),
        go_path_unescape,
        GO_PATH_SET,
        "unreserved and $&+:=@ stay; space as %20",
        family="Other languages",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "dotnet-EscapeDataString",
        "System.Uri.EscapeDataString / UnescapeDataString (dotnet/runtime UriHelper.cs)",
        dotnet_escape_data_string,
        dotnet_unescape_data_string,
        DOTNET_SET,
        "RFC 3986 unreserved stays; invalid UTF-8 escapes stay escaped when decoding",
        family="Other languages",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "ruby-CGI.escape",
        "Ruby cgi/escape.rb (CGI.escape, CGI.unescape)",
        _s(ruby_cgi_escape),
        ruby_cgi_unescape,
        RUBY_CGI_SET,
        "alphanumerics and _.-~ stay; space as +",
        family="Other languages",
        plain=True,
        space_as_plus=True,
        reversible=True,
    ),
    Scheme(
        "ruby-encode_www_form_component",
        "Ruby uri/common.rb (URI.encode_www_form_component, URI.decode_www_form_component)",
        _s(ruby_encode_www_form_component),
        ruby_decode_www_form_component,
        RUBY_WWW_FORM_SET,
        "alphanumerics and *-._ stay; space as +; ~ encoded",
        family="Other languages",
        plain=True,
        space_as_plus=True,
        reversible=True,
    ),
)

# --- issue 43 (seeds1): RFC 1630, RFC 1808 and the historic browsers' decoders -------------
_HISTORIC = "Historic browsers"
_SUIKAWIKI_PE = "SuikaWiki 'percent-encoding' history notes"

SCHEMES += (
    Scheme(
        "rfc1630",
        "RFC 1630 BNF (xalpha) and 'Query strings' (the search part)",
        _s(rfc1630_encode),
        rfc1630_decode,
        RFC1630_SEARCH,
        "search part: space as +, a real + escaped; alphanumerics and $-_@.&!*\"'(), stay; "
        "an escape is the ISO Latin 1 code (nothing beyond U+00FF)",
        family="URL RFCs",
        space_as_plus=True,
        reversible=True,
    ),
    Scheme(
        "rfc1630-path",
        "RFC 1630 BNF (xpalpha)",
        _s(_rfc1630_path),
        _rfc1630_path_dec,
        RFC1630_PATH,
        "path: alphanumerics and $-_@.&+!*\"'(), stay; space as %20; an escape is the ISO "
        "Latin 1 code (nothing beyond U+00FF)",
        family="URL RFCs",
        reversible=True,
    ),
    Scheme(
        "rfc1808-pchar",
        "RFC 1808 §2.2 (pchar)",
        _s(rfc1808_encode),
        _rfc_dec,
        RFC1808_PCHAR,
        "a path segment: alphanumerics and $-_.+!*'(),:@&= stay; ; / ? escaped",
        family="URL RFCs",
        plain=True,
        reversible=True,
    ),
    Scheme(
        "firefox2-decodeURIComponent",
        _SUIKAWIKI_PE + " [145]; otherwise ECMA-262 §19.2.6.2",
        encode_uri_component,
        firefox2_decode_uri_component,
        None,
        "encodeURIComponent; the decoder gives U+FFFD for %EF%BF%BE and %EF%BF%BF",
        family=_HISTORIC,
    ),
    Scheme(
        "opera9-decodeURIComponent",
        _SUIKAWIKI_PE + " [146]; otherwise ECMA-262 §19.2.6.2",
        encode_uri_component,
        opera9_decode_uri_component,
        None,
        "encodeURIComponent; the decoder leaves %00 undecoded",
        family=_HISTORIC,
    ),
)
