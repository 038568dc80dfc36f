"""Historical and other-language percent-encodings, each exactly as its source defines it.

Strategy: every variant here is a thin layer over :func:`percent_encoding.encode`
and :func:`percent_encoding.decode` with its own encode set (an
:class:`~percent_encoding.sets.EncodeSet`) and its own small rules (space as
``+``, CRLF line breaks, how a bad ``%`` is treated, what happens to lone
surrogates).  Encoders return ASCII ``str``; decoders return ``str``.  Where the
original raises on a malformed ``%`` (Java, Go, Ruby's ``URI``) ours raises
:class:`~percent_encoding.PercentDecodeError` with the position; where it keeps
it (PHP, Ruby's ``CGI``, .NET) ours keeps it too.

Families and their sources (see ``docs/legacy.md`` for the long form):

* URL/URI RFCs: RFC 1630 (encoding rules; ``+`` is a space in the search part),
  RFC 1738 §2.2 and §3.2.2 (ftp ``;type=`` typecodes), RFC 1808 §4 (resolving
  relative URLs), RFC 2396 §2 (unreserved = alphanum | mark; the
  excluded characters of §2.4.3 must always be escaped), RFC 2732 §3 (``[`` and
  ``]`` move from *unwise* to *reserved*), RFC 3875 §2.3 and §4.4 (CGI),
  RFC 5023 §9.7 (the ``Slug`` header).
* The URL Standard's form parser before 2016 (the ``_charset_`` and isindex flags,
  the 2014-2016 failure on non-ASCII input with an encoding override).
* Forms: HTML 4.01 §17.13.4.1 (``application/x-www-form-urlencoded``) and
  XForms 1.0 §11.6 (urlencoded serialization; separator attribute §3.3.3).
* PHP 8 ``ext/standard/url.c`` (``urlencode``, ``rawurlencode``, ``urldecode``,
  ``rawurldecode``) and ``ext/standard/http.c`` (``http_build_query``).
* Historic browsers: Firefox 2's and Opera 9's ``decodeURIComponent`` quirks
  (SuikaWiki percent-encoding [145] [146]).
* draft-montenegro-httpbis-uri-encoding-00 (a header declaring the charset of a
  request target).
* Java ``java.net.URLEncoder`` / ``URLDecoder``; Go ``net/url`` (``shouldEscape``,
  ``QueryEscape``, ``PathEscape``, ``unescape``); .NET ``System.Uri``
  (``UriHelper.EscapeString``, ``PercentEncodingHelper``); Ruby ``CGI::Escape``
  (``cgi/escape.rb``) and ``URI.encode_www_form_component`` (``uri/common.rb``).

Layout, one module per origin: ``_rfc`` (RFC 1738, 2396, 2732), ``_rfc1630``,
``_rfc1808``, ``_ftp`` (RFC 1738 typecodes), ``_browsers`` (Firefox 2, Opera 9),
``_uri_encoding`` (the draft's header), ``_cgi``
(CGI and Slug), ``_html4`` (HTML 4.01 and XForms), ``_php``, ``_php_input``
(``parse_str``), ``_java``,
``_go``, ``_dotnet``, ``_ruby``, ``_whatwg`` (the URL Standard's form parser before
2016); ``_common`` holds the shared argument checks
and ``_schemes`` the registry entries.
"""

from __future__ import annotations

from .._scheme import Scheme as Scheme
from .._scheme import pairs_arg as pairs_arg

# Names the single-module ``legacy`` had in its namespace: kept importable from here.
from ..errors import PercentDecodeError as PercentDecodeError
from ..errors import PercentEncodingError as PercentEncodingError
from ..errors import PercentEncodingTypeError as PercentEncodingTypeError
from ..errors import TextDecodeError as TextDecodeError
from ..sets import FORM_URLENCODED as FORM_URLENCODED
from ..sets import HTML4_FORM as HTML4_FORM
from ..sets import RFC1738 as RFC1738
from ..sets import RFC2396 as RFC2396
from ..sets import RFC3986_UNRESERVED as RFC3986_UNRESERVED
from ..sets import XFORMS_URLENCODED as XFORMS_URLENCODED
from ..sets import EncodeSet as EncodeSet
from ._browsers import firefox2_decode_uri_component, opera9_decode_uri_component
from ._cgi import SLUG_SET as SLUG_SET
from ._cgi import (
    cgi_decode,
    cgi_encode,
    cgi_path_info,
    cgi_search_words,
    slug_decode,
    slug_encode,
)
from ._dotnet import DOTNET_SET as DOTNET_SET
from ._dotnet import dotnet_escape_data_string, dotnet_unescape_data_string
from ._ftp import ftp_join_typecode, ftp_split_typecode
from ._go import (
    GO_PATH_SET as GO_PATH_SET,
)
from ._go import (
    GO_QUERY_SET as GO_QUERY_SET,
)
from ._go import (
    go_path_escape,
    go_path_unescape,
    go_query_escape,
    go_query_unescape,
)
from ._html4 import (
    html4_form_decode,
    html4_form_encode,
    html4_form_encode_component,
    xforms_encode_component,
    xforms_urlencode,
)
from ._java import JAVA_URLENCODER_SET as JAVA_URLENCODER_SET
from ._java import java_urldecode, java_urlencode
from ._php import (
    PHP_QUERY_RFC1738,
    PHP_QUERY_RFC3986,
    http_build_query,
    php_rawurldecode,
    php_rawurlencode,
    php_urldecode,
    php_urlencode,
)
from ._php import (
    PHP_RAWURLENCODE_SET as PHP_RAWURLENCODE_SET,
)
from ._php import (
    PHP_URLENCODE_SET as PHP_URLENCODE_SET,
)
from ._php_input import php_parse_str
from ._rfc import RFC2732 as RFC2732
from ._rfc import rfc1738_encode, rfc2396_encode, rfc2732_encode, rfc_decode
from ._rfc1630 import RFC1630_PATH as RFC1630_PATH
from ._rfc1630 import RFC1630_SEARCH as RFC1630_SEARCH
from ._rfc1630 import rfc1630_decode, rfc1630_encode
from ._rfc1808 import RFC1808_PCHAR as RFC1808_PCHAR
from ._rfc1808 import rfc1808_encode, rfc1808_resolve
from ._ruby import (
    RUBY_CGI_SET as RUBY_CGI_SET,
)
from ._ruby import (
    RUBY_WWW_FORM_SET as RUBY_WWW_FORM_SET,
)
from ._ruby import (
    ruby_cgi_escape,
    ruby_cgi_unescape,
    ruby_decode_www_form_component,
    ruby_encode_www_form_component,
)
from ._schemes import SCHEMES
from ._uri_encoding import (
    build_uri_encoding_header,
    decode_with_uri_encoding,
    parse_uri_encoding_header,
)
from ._whatwg import whatwg_form_parse

__all__ = [
    "DOTNET_SET",
    "GO_PATH_SET",
    "GO_QUERY_SET",
    "JAVA_URLENCODER_SET",
    "PHP_QUERY_RFC1738",
    "PHP_QUERY_RFC3986",
    "PHP_RAWURLENCODE_SET",
    "PHP_URLENCODE_SET",
    "RFC1630_PATH",
    "RFC1630_SEARCH",
    "RFC1808_PCHAR",
    "RFC2732",
    "RUBY_CGI_SET",
    "RUBY_WWW_FORM_SET",
    "SCHEMES",
    "SLUG_SET",
    "build_uri_encoding_header",
    "cgi_decode",
    "cgi_encode",
    "cgi_path_info",
    "cgi_search_words",
    "decode_with_uri_encoding",
    "dotnet_escape_data_string",
    "dotnet_unescape_data_string",
    "firefox2_decode_uri_component",
    "ftp_join_typecode",
    "ftp_split_typecode",
    "go_path_escape",
    "go_path_unescape",
    "go_query_escape",
    "go_query_unescape",
    "html4_form_decode",
    "html4_form_encode",
    "html4_form_encode_component",
    "http_build_query",
    "java_urldecode",
    "java_urlencode",
    "opera9_decode_uri_component",
    "parse_uri_encoding_header",
    "php_parse_str",
    "php_rawurldecode",
    "php_rawurlencode",
    "php_urldecode",
    "php_urlencode",
    "rfc1630_decode",
    "rfc1630_encode",
    "rfc1738_encode",
    "rfc1808_encode",
    "rfc1808_resolve",
    "rfc2396_encode",
    "rfc2732_encode",
    "rfc_decode",
    "ruby_cgi_escape",
    "ruby_cgi_unescape",
    "ruby_decode_www_form_component",
    "ruby_encode_www_form_component",
    "slug_decode",
    "slug_encode",
    "whatwg_form_parse",
    "xforms_encode_component",
    "xforms_urlencode",
]
