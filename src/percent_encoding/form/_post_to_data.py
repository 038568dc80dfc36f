"""The HTML5 drafts' "Post to data:" form submission: a POST form whose action is a
``data:`` URL puts the encoded form into the URL at a ``%%`` or ``%%%%`` placeholder.

Strategy: the body (the urlencoded form, or pairs to serialize first) is escaped
byte by byte, every byte that is not an RFC 3986 *unreserved* character becoming
``%XX``; for ``%%%%`` the result is escaped once more (each ``%`` as ``%25``).  The
first placeholder is replaced; an action without one is returned as it is.

Spec: WHATWG Web Applications 1.0 (the HTML5 draft), form submission algorithm,
"Post to data:" (the ``data`` row, POST column, of the scheme/method table).  It was
added in whatwg/html 0ec99b7 (2008-09-12, "WF2: Begin to define how to handle
enctype, action, method, and target attributes") and is quoted here as it stood in
whatwg/html 9131522 (2009-12-21); it cites RFC 3986 for *unreserved*.  Today's
HTML Standard no longer has the placeholders.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from .. import _args
from .. import core as _core
from .._abnf import SCHEME
from ..errors import PercentEncodingError, PercentEncodingTypeError
from ..sets import RFC3986_UNRESERVED
from ._serialize import serialize


def post_to_data(
    action: str, body: str | bytes | Iterable[tuple[str, str]] | Mapping[str, str]
) -> str:
    """The URL a historic HTML5 browser navigated to for a POST form whose action is
    a ``data:`` URL (WHATWG Web Applications 1.0, 2008-2010, "Post to data:").

    ``body`` is the encoded form (``str`` or ``bytes``), or its ``(name, value)``
    pairs, which are urlencoded first (URL Standard §5.2).  If ``action`` holds
    ``%%%%``, the first one becomes the body escaped twice (bytes outside RFC 3986
    *unreserved* as ``%XX``, then each ``%`` as ``%25``); otherwise the first ``%%``
    becomes the body escaped once; with neither, ``action`` is returned unchanged.
    An action whose scheme is not ``data`` raises
    :class:`~percent_encoding.errors.PercentEncodingError`: the drafts ran this step
    for ``data:`` actions only (an ``http:`` action's ``%%`` is no placeholder).

    >>> post_to_data("data:text/plain,%%", "a=b+c")
    'data:text/plain,a%3Db%2Bc'
    >>> post_to_data("data:text/plain,%%%%", "a=b+c")
    'data:text/plain,a%253Db%252Bc'
    """
    url: str = _args.check_str("action", action)
    # The drafts' table picks "Post to data:" for the data scheme only (RFC 3986 §3.1
    # scheme, compared ASCII case-insensitively).
    m = SCHEME.match(url)
    if m is None or url[m.end():m.end() + 1] != ":" or m.group().lower() != "data":
        raise PercentEncodingError(
            f"the action {url!r:.60} is not a data: URL: the HTML5 drafts' \"Post to data:\" "
            "step fills placeholders only in the action of a form posting to data:"
        )
    if isinstance(body, (bytearray, memoryview)):
        body = bytes(body)
    if isinstance(body, (str, bytes)):
        data: str | bytes = body
    elif isinstance(body, (Mapping, Iterable)):
        data = serialize(body)
    else:
        raise PercentEncodingTypeError(
            f"post_to_data() takes the encoded body (str or bytes) or its (name, value) "
            f"pairs, not {type(body).__name__}"
        )
    if "%%%%" in url:
        once = _core.encode(data, RFC3986_UNRESERVED)
        return url.replace("%%%%", once.replace("%", "%25"), 1)
    if "%%" in url:
        return url.replace("%%", _core.encode(data, RFC3986_UNRESERVED), 1)
    return url
