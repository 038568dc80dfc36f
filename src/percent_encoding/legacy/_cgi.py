"""CGI and the Atom ``Slug`` header.

Strategy: thin layers over the core encoder and decoder with the RFCs' sets;
``cgi_search_words`` splits an ISINDEX-style query into its search words.

Specs: RFC 3875 §2.3 (URL encoding in CGI), §4.1.5 (PATH_INFO) and §4.4 (the
search-string command line); RFC 5023 §9.7 (the ``Slug`` header).
"""

from __future__ import annotations

import re
from typing import Final, Literal

from .. import _args
from .. import core as _core
from ..errors import (
    PercentDecodeError,
    PercentEncodingError,
    TextDecodeError,
)
from ..sets import (
    CGI as _CGI_SET,
)
from ..sets import (
    EncodeSet,
)
from ._common import C0, Text, check, str_arg
from ._rfc import minus

# RFC 3875 §2.3: reserved characters are drawn from RFC 2396's set plus the
# two RFC 2732 added; in a given context only some are reserved and the rest
# of this set MUST NOT be encoded.  Everything outside unreserved and this set
# ("forbidden") is always encoded.
_CGI_RESERVED = ";/?:@&=+$,[]"


@_args.renamed_keyword("text", "data")
def cgi_encode(data: Text, *, reserved: str = _CGI_RESERVED) -> str:
    """URL-encode for CGI as RFC 3875 §2.3 says: reserved and forbidden
    characters become ``%XX``; characters of the reserved set that are *not*
    reserved in this context (those missing from ``reserved``) stay as they are.

    >>> cgi_encode("a b/c=d")
    'a%20b%2Fc%3Dd'
    >>> cgi_encode("a b/c=d", reserved="&=+")
    'a%20b/c%3Dd'
    """
    str_arg(reserved, "reserved", "cgi_encode")
    if not set(reserved) <= set(_CGI_RESERVED):
        raise PercentEncodingError(
            f"reserved must be a subset of {_CGI_RESERVED!r}, not {reserved!r}"
        )
    keep = "".join(c for c in _CGI_RESERVED if c not in reserved)
    return _core.encode(check(data, "cgi_encode"), minus(_CGI_SET, keep))


@_args.renamed_keyword("text", "data")
def cgi_decode(data: Text, *, strict: bool = False) -> str:
    """RFC 3875 §2.3 URL-decoding: each ``%XX`` becomes its octet, ``+`` stays.

    >>> cgi_decode("a%20b+c")
    'a b+c'
    """
    return _core.decode_text(check(data, "cgi_decode"), strict=strict)


_ENCODED_SLASH = re.compile("%2[fF]")
_PARAMS = re.compile(";[^/]*")


def cgi_path_info(
    path: Text,
    *,
    encoded_slash: Literal["reject", "keep", "decode"] = "reject",
    parameters: Literal["strip", "keep"] = "strip",
    encoding: str = "utf-8",
    errors: Literal["replace", "strict"] = "replace",
) -> str:
    """The PATH_INFO a server derives from the extra path of a request URI (RFC 3875 §4.1.5).

    ``path`` is what follows the script's own part of the URI path
    (SCRIPT_NAME), ``""`` or starting with ``/``.  PATH_INFO is not
    URL-encoded and holds no path-segment parameters, so: each segment's
    ``;parameters`` are dropped (``parameters="keep"`` keeps them, as some
    servers do), then every ``%XX`` is decoded and the octets read as
    ``encoding`` (§4.1.5 leaves non-ASCII to the system; UTF-8 here).

    An encoded ``/`` would become a separator the script cannot tell from a
    real one, and §4.1.5 lets a server refuse it: by default ``%2F`` raises
    :class:`~percent_encoding.errors.PercentDecodeError` with its position
    (as Apache's ``AllowEncodedSlashes Off`` answers 404);
    ``encoded_slash="keep"`` leaves it as ``%2F`` (``NoDecode``) and
    ``"decode"`` decodes it.  A ``%`` that starts no escape stays as it is.
    The inverse, building the Script-URI's extra path, is
    :func:`cgi_encode` with ``reserved="?;"`` (``/`` stays a separator).

    >>> cgi_path_info("/caf%C3%A9/a%20b;v=1/x")
    '/café/a b/x'
    >>> cgi_path_info("/a%2Fb", encoded_slash="keep")
    '/a%2Fb'
    """
    _args.check_choice("encoded_slash", encoded_slash, ("reject", "keep", "decode"))
    _args.check_choice("parameters", parameters, ("strip", "keep"))
    _args.check_choice("errors", errors, ("replace", "strict"))
    p = check(path, "cgi_path_info")
    s = p if isinstance(p, str) else p.decode("latin-1")
    if s and not s.startswith("/"):
        raise PercentEncodingError(
            f"cgi_path_info(): PATH_INFO is empty or starts with '/' (RFC 3875 §4.1.5), "
            f"not {s[:40]!r}")
    if encoded_slash == "reject":
        for m in _ENCODED_SLASH.finditer(s):
            pos = m.start()
            # one inside a ";parameter" that is dropped does not count
            if parameters == "strip" and s.find(";", s.rfind("/", 0, pos) + 1, pos) != -1:
                continue
            raise PercentDecodeError(
                f"cgi_path_info(): an encoded '/' at position {pos} would be decoded "
                "into PATH_INFO (RFC 3875 §4.1.5 lets a server refuse it); pass "
                "encoded_slash='keep' or 'decode'", pos)
    if parameters == "strip" and ";" in s:
        s = _PARAMS.sub("", s)

    def dec(piece: str) -> str:
        raw: Text = piece.encode("latin-1") if isinstance(p, bytes) else piece
        return _core.decode_text(raw, encoding=encoding, errors=errors)

    if encoded_slash == "keep":
        # Decode around each %2F so it reaches the script as the three characters.
        return "%2F".join(dec(piece) for piece in _ENCODED_SLASH.split(s))
    return dec(s)


def cgi_search_words(query_string: Text) -> list[str] | None:
    """RFC 3875 §4.4: a QUERY_STRING without an unencoded ``=`` is a search
    string; its words are separated by ``+`` and each is URL-decoded.  Returns
    ``None`` when the query string is not a search string.

    >>> cgi_search_words("percent+encoding%2Bmore")
    ['percent', 'encoding+more']
    >>> cgi_search_words("a=1") is None
    True
    """
    q = check(query_string, "cgi_search_words")
    s = q if isinstance(q, str) else q.decode("latin-1")
    if "=" in s or not s:
        return None
    return [_core.decode_text(w) for w in s.split("+")]


# ---------------------------------------------------------------------------
# Slug header (RFC 5023 §9.7)
# ---------------------------------------------------------------------------
# slugtext = %x20-7E | LWS; the value is the percent-encoded UTF-8 of the text,
# so octets outside %x20-7E and "%" itself (which would start an escape) are
# encoded.  HTAB (LWS) is encoded too: intermediaries may fold whitespace.
SLUG_SET: Final = EncodeSet(
    C0 + "\x7f%", name="slug", spec="RFC 5023 §9.7 (everything outside %x20-7E, and %)"
)


@_args.renamed_keyword("text", "data")
def slug_encode(data: Text) -> str:
    """The value of an AtomPub ``Slug`` header (RFC 5023 §9.7): UTF-8, then
    ``%`` and every octet outside ``%x20-7E`` as ``%XX``; spaces stay.

    >>> slug_encode("The Beach at Sète")
    'The Beach at S%C3%A8te'
    """
    return _core.encode(check(data, "slug_encode"), SLUG_SET)


@_args.renamed_keyword("value", "data")
def slug_decode(
    data: Text,
    *,
    strict: bool = False,
    errors: Literal["replace", "fatal", "strict"] | None = None,
) -> str:
    """Read a ``Slug`` header: reverse the percent-encoding, then UTF-8
    decode (RFC 5023 §9.7).  With ``strict=True`` a bad ``%`` raises
    :class:`PercentDecodeError`; with ``errors="fatal"`` invalid UTF-8 raises
    :class:`TextDecodeError` (``"replace"``: U+FFFD).  ``errors=None`` follows
    ``strict``, as before the two were separate; ``strict=True`` raising on
    invalid UTF-8 without ``errors="fatal"`` is deprecated.

    >>> slug_decode("The Beach at S%C3%A8te")
    'The Beach at Sète'
    """
    text = check(data, "slug_decode")
    _args.check_bool("strict", strict)
    if errors is not None:
        return _core.decode_text(text, strict=strict, errors=errors)
    if not strict:
        return _core.decode_text(text)
    try:
        return _core.decode_text(text, strict=True, errors="fatal")
    except TextDecodeError:
        _args.warn_deprecated(
            "slug_decode(strict=True) raising on invalid UTF-8 is deprecated: strict= is "
            "about bad '%' escapes; pass errors='fatal' as well to keep that"
        )
        raise
