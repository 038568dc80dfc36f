"""The ``;type=`` typecode of an ``ftp:`` URL path (RFC 1738 §3.2.2).

Strategy: the typecode is the last thing in the url-path, ``;type=`` and one of
``a`` (ASCII), ``i`` (image) or ``d`` (directory listing).  Splitting finds it at
the end only; anything else after ``;type=`` is not a typecode and raises, as
does building with a typecode the RFC does not define.

Spec: RFC 1738 §3.2.2 "FTP url-path" (``ftptype = "A" | "I" | "D" | "a" | "i" |
"d"`` in §5).  RFC 1738 allows the upper-case letters; they are returned as
written.
"""

from __future__ import annotations

from typing import Final

from .. import _args
from ..errors import PercentEncodingError

_MARK: Final = ";type="
_CODES: Final = frozenset("aidAID")


def ftp_split_typecode(path: str) -> tuple[str, str | None]:
    """Split an ftp url-path into the path and its typecode (RFC 1738 §3.2.2);
    ``None`` when there is no ``;type=``.  A ``;type=`` at the end followed by
    anything but one of ``a``, ``i``, ``d`` raises
    :class:`~percent_encoding.errors.PercentEncodingError`.

    >>> ftp_split_typecode("/f;type=a")
    ('/f', 'a')
    >>> ftp_split_typecode("/pub/dir")
    ('/pub/dir', None)
    """
    p: str = _args.check_str("path", path)
    at = p.rfind(_MARK)
    if at == -1 or "/" in p[at:]:  # a ";type=" in an earlier segment is part of a name
        return p, None
    code = p[at + len(_MARK):]
    if len(code) != 1 or code not in _CODES:
        raise PercentEncodingError(
            f"{code!r:.40} at position {at + len(_MARK)} is not an ftp typecode: RFC 1738 "
            "§3.2.2 allows 'a', 'i' or 'd' after ';type='"
        )
    return p[:at], code


def ftp_join_typecode(path: str, typecode: str) -> str:
    """Append ``;type=<typecode>`` to an ftp url-path (RFC 1738 §3.2.2); the
    typecode is one of ``a``, ``i``, ``d`` (any case), else
    :class:`~percent_encoding.errors.PercentEncodingError`.  A path that already
    ends in a typecode raises too.

    >>> ftp_join_typecode("/f", "i")
    '/f;type=i'
    """
    p: str = _args.check_str("path", path)
    code: str = _args.check_str("typecode", typecode)
    if len(code) != 1 or code not in _CODES:
        raise PercentEncodingError(
            f"{code!r:.40} is not an ftp typecode: RFC 1738 §3.2.2 allows 'a', 'i' or 'd'"
        )
    if ftp_split_typecode(p)[1] is not None:
        raise PercentEncodingError(f"{p!r:.60} already ends in a ;type= typecode")
    return p + _MARK + code
