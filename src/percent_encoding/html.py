"""HTML's custom scheme handlers: the URL a ``registerProtocolHandler`` handler is sent to.

Strategy: HTML "Custom scheme handlers" (system-state.html#custom-handlers,
*translate a handler URL*): the URL being handled loses its username and
password, is serialized, then UTF-8 percent-encoded with the URL Standard's
*component percent-encode set* (on scalar values it escapes what
``encodeURIComponent`` escapes: ``%``, ``+``, ``&``, ``=``, ``:``, ``/``,
``?``, ``#`` and the rest), and that replaces the first ``%s`` in the
handler's template.  Registration already refuses a
template without ``%s`` (a ``SyntaxError`` in the browser); here it raises
:class:`~percent_encoding.errors.PercentEncodingError`.

``url`` is taken as a serialized URL (what a browser holds after parsing the
link); credentials are removed from its ``scheme://user:pass@`` authority,
where a serialized URL keeps them.  The result is the string the browser
then parses as the URL to navigate to.
"""

from __future__ import annotations

import re

from . import core as _core
from .errors import PercentEncodingError, PercentEncodingTypeError
from .sets import COMPONENT

__all__ = ["protocol_handler_url"]

# A serialized URL's authority: "scheme://" then up to the first "/", "?" or "#".
# In a serialized URL an "@" inside the userinfo is escaped, so the authority's
# only "@" ends the credentials.
_CREDENTIALS = re.compile(r"^([A-Za-z][A-Za-z0-9+.\-]*://)[^/?#@]*@")


def protocol_handler_url(template: str, url: str) -> str:
    """The URL a custom scheme handler is sent to (HTML, translate a handler URL).

    The first ``%s`` of ``template`` is replaced by ``url`` without its
    credentials, UTF-8 percent-encoded with the component percent-encode set
    (URL Standard §1.3).

    >>> protocol_handler_url("https://example.com/?uri=%s", "web+coffee:latte?size=big&milk")
    'https://example.com/?uri=web%2Bcoffee%3Alatte%3Fsize%3Dbig%26milk'
    >>> protocol_handler_url("https://h.example/%s?again=%s", "mailto:café@example.org")
    'https://h.example/mailto%3Acaf%C3%A9%40example.org?again=%s'
    >>> protocol_handler_url("https://h.example/?u=%s", "web+x://user:pw@host/p")
    'https://h.example/?u=web%2Bx%3A%2F%2Fhost%2Fp'
    """
    if not isinstance(template, str) or not isinstance(url, str):
        raise PercentEncodingTypeError(
            "protocol_handler_url() takes str template and url, not "
            f"{type(template).__name__} and {type(url).__name__}"
        )
    if "%s" not in template:
        raise PercentEncodingError(
            f"handler template {template[:60]!r} has no %s to replace "
            "(HTML: registerProtocolHandler() refuses it with a SyntaxError)"
        )
    # HTML: "set the username" and "set the password" to the empty string.
    bare = _CREDENTIALS.sub(r"\1", url, count=1)
    encoded = _core.encode(bare, COMPONENT)
    return template.replace("%s", encoded, 1)
