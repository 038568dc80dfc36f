"""application/x-www-form-urlencoded: parse, serialize, incremental parsing,
``URLSearchParams`` and what an HTML form submission sends.

Strategy: the default path (UTF-8, ``&``, lossy decoding) goes straight to the
kernels (``core.form_parse_kernel`` / ``form_parse_bytes_kernel`` /
``form_serialize_kernel``), which the C twin speeds up.  Every option is a
small rewrite of the input before the kernel (``;`` becomes ``&``, a leading
``?`` is dropped, the isindex field is swapped) or a different text decoder
after it (a legacy encoding, strict decoding).  Bad input raises one of the library's errors with
a position into the input; limits raise :class:`FormLimitError`, never
truncate.

Specs:

* URL Standard §5 "application/x-www-form-urlencoded": §5.1 parser, §5.2
  serializer (https://url.spec.whatwg.org/#application/x-www-form-urlencoded).
* URL Standard §6.2 "URLSearchParams class".
* HTML 4.01 §B.2.2 (``;`` as a separator): an option that reproduces what older
  clients send.  The URL Standard's parser before 2016 (the ``_charset_`` and isindex
  flags, removed in whatwg/url c85fb5d) is ``legacy.whatwg_form_parse``.
* HTML §4.10.22 "Form submission": *constructing the entry list* (the
  ``_charset_`` hidden field), *selecting a form submission encoding*,
  *converting an entry list to a list of name-value pairs* (CRLF),
  *text/plain encoding algorithm*, *mail with headers* / *mail as body*.

The ``charset=`` parameter of a ``Content-Type`` header is not part of the
format: URL Standard §5.1 always decodes as UTF-8 and HTML's form submission
never sends the parameter.  Only ``detect.parse_form`` looks at it, as one hint
among others (``content_type_charset=``) for guessing a legacy encoding
(docs/detect.md).

Layout, one module per concept: ``_parse`` (parse, parse_bytes, ParsedForm,
``parse_with``, and the argument helpers the others share), ``_options``
(``FormOptions``: every option as one frozen value), ``_serialize`` (serialize),
``_incremental`` (FormParser), ``_search_params`` (URLSearchParams),
``_html`` (html_form_body, File, multipart_escape), ``_group`` (group),
``_schemes`` (the registry entries); the other specs' form variants, one module
each: ``_post_to_data`` (the HTML5 drafts' "Post to data:"), ``_sgml`` (Lynx's
application/sgml-form-urlencoded), ``_wsdl`` (WSDL 2.0 Adjuncts §6.8.2), ``_sparql``
(SPARQL 1.1 Protocol), ``_openurl`` (Z39.88-2004 KEV), ``_xproc`` (XProc's
p:www-form-urlencode/-urldecode).
"""

from __future__ import annotations

from .._scheme import Scheme as Scheme

# Names the single-module ``form`` had in its namespace (docs/forms.md catches
# ``form.TextDecodeError``): kept importable from here.
from ..core import to_usv_string as to_usv_string
from ..errors import FormLimitError as FormLimitError
from ..errors import PercentDecodeError as PercentDecodeError
from ..errors import PercentEncodingError as PercentEncodingError
from ..errors import PercentEncodingTypeError as PercentEncodingTypeError
from ..errors import TextDecodeError as TextDecodeError
from ..sets import FORM_URLENCODED as FORM_URLENCODED
from ..sets import PATH as PATH
from ._group import group
from ._html import File, html_form_body, multipart_escape
from ._incremental import FormParser
from ._openurl import Z39_88_2004 as Z39_88_2004
from ._openurl import openurl_kev, openurl_kev_parse

# FormOptions and parse_with are what the sibling packages take from form, and only from
# here: detect.parse_form (the guessing path) and legacy.whatwg_form_parse (the pre-2016
# flags) build one FormOptions and pass it to parse_with.
from ._options import FormOptions as FormOptions
from ._parse import Errors as Errors
from ._parse import Pair as Pair
from ._parse import ParsedForm, parse, parse_bytes
from ._parse import Text as Text
from ._parse import parse_with as parse_with
from ._post_to_data import post_to_data
from ._schemes import SCHEMES
from ._search_params import URLSearchParams
from ._serialize import serialize
from ._sgml import SGML_FORM_URLENCODED as SGML_FORM_URLENCODED
from ._sgml import sgml_form_parse, sgml_form_serialize
from ._sparql import SparqlRequest, sparql_parse, sparql_query_request, sparql_update_request
from ._wsdl import wsdl_urlencode
from ._xproc import xproc_www_form_urldecode, xproc_www_form_urlencode

__all__ = [
    "SCHEMES",
    "SGML_FORM_URLENCODED",
    "Z39_88_2004",
    "File",
    "FormParser",
    "ParsedForm",
    "SparqlRequest",
    "URLSearchParams",
    "group",
    "html_form_body",
    "multipart_escape",
    "openurl_kev",
    "openurl_kev_parse",
    "parse",
    "parse_bytes",
    "post_to_data",
    "serialize",
    "sgml_form_parse",
    "sgml_form_serialize",
    "sparql_parse",
    "sparql_query_request",
    "sparql_update_request",
    "wsdl_urlencode",
    "xproc_www_form_urldecode",
    "xproc_www_form_urlencode",
]
