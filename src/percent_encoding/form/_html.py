"""What an HTML form submission sends: ``html_form_body``.

Strategy: newlines are normalized to CRLF, then the entry list is encoded as
the form's enctype says (urlencoded through :func:`serialize`, text/plain, or
multipart/form-data with HTML's escaping of names), or as a mailto: URL's
headers or body.  Returns bytes, as a browser sends them.

Spec: HTML §4.10.22 "Form submission": constructing the entry list (the
``_charset_`` field), selecting a form submission encoding, converting an
entry list to a list of name-value pairs, the text/plain encoding algorithm,
the multipart/form-data encoding algorithm (with RFC 7578), mail with headers
and mail as body.  HTML before 2016 (the urlencoded algorithm's isindex step).
"""

from __future__ import annotations

import re
import secrets
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, TypeAlias

from .. import _args
from .. import core as _core
from ..core import to_usv_string
from ..errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
)
from ..sets import PATH
from ._parse import lookup
from ._serialize import check_pair, pairs_list, serialize

_ENCTYPES = ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data")
_MULTIPART_ESCAPES = str.maketrans({"\n": "%0A", "\r": "%0D", '"': "%22"})
# RFC 2046 §5.1.1: 1-70 characters from bchars, not ending in a space.
_BOUNDARY = re.compile(r"[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]")


@dataclass(frozen=True)
class File:
    """A file in a form's entry list: what a file input contributes (HTML §4.10.22.4).

    ``filename`` is the file's name (``""`` for a file input with no file
    selected, which HTML still submits), ``content`` its bytes and
    ``content_type`` its type; an empty type is sent as
    ``application/octet-stream`` (HTML §4.10.22.8).  :func:`html_form_body`
    sends a multipart part with the content, or, for urlencoded and
    text/plain, just the file's name (HTML "convert to a list of name-value
    pairs").

    >>> File("notes.txt", b"hi", "text/plain")
    File(filename='notes.txt', content=b'hi', content_type='text/plain')
    """

    filename: str
    content: bytes = b""
    content_type: str = "application/octet-stream"

    def __post_init__(self) -> None:
        if not isinstance(self.filename, str):
            raise PercentEncodingTypeError(
                f"File filename must be a str, not {type(self.filename).__name__}")
        if not isinstance(self.content, (bytes, bytearray, memoryview)):
            raise PercentEncodingTypeError(
                f"File content must be bytes, not {type(self.content).__name__}")
        if not isinstance(self.content_type, str):
            raise PercentEncodingTypeError(
                f"File content_type must be a str, not {type(self.content_type).__name__}")
        bad = re.search(r"[\x00-\x1f\x7f]|[^\x00-\x7f]", self.content_type)
        if bad is not None:
            raise PercentEncodingError(
                f"File content_type {self.content_type!r}: a header value cannot hold "
                f"U+{ord(bad.group()):04X} (position {bad.start()})")


FormValue: TypeAlias = str | File


def multipart_escape(name: str) -> str:
    """A multipart/form-data field name or filename escaped as HTML says.

    HTML §4.10.22.8 (multipart/form-data encoding algorithm): LF becomes
    ``%0A``, CR ``%0D`` and ``"`` ``%22``; nothing else is escaped (not even
    ``%`` or ``\\``).  :func:`html_form_body` also turns lone CR and LF into
    CRLF first, so a name there holds ``%0D%0A``; it escapes the encoded
    bytes, which differs from this for ISO-2022-JP (a kanji's bytes may
    include 0x22).

    >>> multipart_escape('a "b"\\r\\nc%22')
    'a %22b%22%0D%0Ac%22'
    """
    _args.check_str_input("multipart_escape", name)
    return name.translate(_MULTIPART_ESCAPES)


def _multipart(pairs: list[tuple[str, FormValue]], enc_name: str, boundary: str) -> bytes:
    # HTML §4.10.22.8 and RFC 7578 §4: one part per entry, in order, names
    # and values in the form's encoding with &#N; for what it cannot encode
    # (the same encoder as text/plain).  Names are escaped on the encoded
    # bytes: in ISO-2022-JP a kanji's bytes can hold 0x22, and it is escaped.
    from ..encodings import lookup

    enc = lookup(enc_name)

    def encode(text: str) -> bytes:
        if enc.name == "UTF-8":
            return text.encode("utf-8")
        return enc.encode(text, errors="html")

    def escape(text: str) -> bytes:
        return encode(text).replace(b"\n", b"%0A").replace(b"\r", b"%0D").replace(b'"', b"%22")

    delimiter = b"--" + boundary.encode("ascii")
    out: list[bytes] = []
    for name, value in pairs:
        out += [delimiter, b'\r\nContent-Disposition: form-data; name="', escape(name)]
        if isinstance(value, File):
            # A file part: its filename escaped like a name, its type (or
            # application/octet-stream when it has none), its bytes as they are.
            out += [
                b'"; filename="',
                escape(value.filename),
                b'"\r\nContent-Type: ',
                (value.content_type or "application/octet-stream").encode("ascii"),
                b"\r\n\r\n",
                bytes(value.content),
                b"\r\n",
            ]
        else:
            out += [b'"\r\n\r\n', encode(value), b"\r\n"]
    out += [delimiter, b"--\r\n"]
    return b"".join(out)


def _normalize_newlines(s: str) -> str:
    # HTML §4.10.22.6: a CR not followed by LF and an LF not preceded by CR
    # each become CRLF.
    if "\r" not in s and "\n" not in s:
        return s
    return _NEWLINES.sub("\r\n", s)


def html_form_body(
    entries: Iterable[tuple[str, FormValue]] | Mapping[str, FormValue],
    *,
    encoding: str = "utf-8",
    enctype: str = "application/x-www-form-urlencoded",
    mailto: Literal["headers", "body"] | None = None,
    isindex: bool = False,
    boundary: str | None = None,
) -> bytes:
    """The bytes an HTML form submission sends for ``entries`` (HTML §4.10.22).

    ``encoding`` is the form's encoding (the document's, or the first known
    label of ``accept-charset``); its output encoding is used, so UTF-16
    gives UTF-8.  The entry list becomes name-value pairs as HTML says: lone
    surrogates become U+FFFD, newlines become CRLF, and an entry named
    ``_charset_`` (any case; in HTML a hidden input) gets the encoding's
    name.  Then:

    * ``enctype="application/x-www-form-urlencoded"``: the URL Standard
      serializer (unencodable characters as ``%26%23N%3B``).  This is also
      the query of a GET submission.
    * ``enctype="text/plain"``: ``name=value`` CRLF lines, encoded with the
      encoding (unencodable characters as ``&#N;``).
    * ``mailto="headers"`` (a GET to ``mailto:``): the serializer with ``+``
      replaced by ``%20``; ``mailto="body"`` (a POST to ``mailto:``): the
      value that follows ``body=``; for text/plain that is the lines
      UTF-8 percent-encoded with the path set.
    * ``enctype="multipart/form-data"``: RFC 7578 parts separated by
      ``boundary`` (a fresh random one when ``None``: the body's first line
      is ``--`` and the boundary), names escaped by :func:`multipart_escape`
      and encoded like text/plain; the Content-Type to send is
      ``multipart/form-data; boundary=...``.
    * ``isindex=True``: HTML before 2016, for urlencoded: when the first
      entry is named ``isindex`` (it was a text field), only its encoded
      value is sent, with no name and no ``=``.

    A value may be a :class:`File` (a file input's entry): multipart sends
    it as a part with ``filename="..."`` (escaped like a name: ``"``, CR and
    LF as ``%22``, ``%0D``, ``%0A``), its ``Content-Type`` and its bytes;
    every other encoding sends only its filename, as browsers do (HTML
    "convert to a list of name-value pairs").  An image button's click is two
    ordinary entries, ``name.x`` and ``name.y`` (HTML §4.10.5.1.18).

    >>> html_form_body([("name", "A B"), ("_charset_", "")], encoding="latin1")
    b'name=A+B&_charset_=windows-1252'
    >>> html_form_body([("t", "1\\n2")], enctype="text/plain")
    b't=1\\r\\n2\\r\\n'
    >>> html_form_body([("up", File("a b.txt", b"hi", "text/plain"))])
    b'up=a+b.txt'
    """
    _args.check_str("enctype", enctype)
    kind = enctype.strip().lower()
    if kind not in _ENCTYPES:
        raise PercentEncodingError(
            f"unsupported enctype {enctype!r}: use 'application/x-www-form-urlencoded' "
            "'text/plain' or 'multipart/form-data'"
        )
    _args.check_str("boundary", boundary, none=True)
    _args.check_bool("isindex", isindex)
    if kind == "multipart/form-data" and mailto is None:
        if boundary is None:
            boundary = "----PercentEncodingFormBoundary" + secrets.token_hex(8)
        elif not _BOUNDARY.fullmatch(boundary):
            raise PercentEncodingError(
                f"boundary {boundary[:80]!r} is not an RFC 2046 §5.1.1 boundary "
                "(1-70 of letters, digits and '()+_,-./:=? space, not ending in a space)"
            )
    if mailto is not None:
        _args.check_choice("mailto", mailto, ("headers", "body"))
    _args.check_label("encoding", encoding)
    # HTML §4.10.22.5: the form's encoding is always an output encoding.
    enc = lookup(encoding).output_encoding
    pairs: list[tuple[str, str]] = []
    parts: list[tuple[str, FormValue]] = []  # multipart keeps the files
    for i, pair in enumerate(pairs_list(entries)):
        file: File | None = None
        if isinstance(pair, (tuple, list)) and len(pair) == 2 and isinstance(pair[1], File):
            file = pair[1]
            name, value = check_pair((pair[0], file.filename), i)
        else:
            name, value = check_pair(pair, i)
        if not isinstance(name, str) or not isinstance(value, str):
            raise PercentEncodingTypeError(f"entry {i}: names must be str, values str or File")
        # Entries hold scalar value strings (HTML "create an entry").
        name = to_usv_string(name)
        value = to_usv_string(value)
        if file is None and name.isascii() and name.lower() == "_charset_":
            # HTML §4.10.22.4: a hidden `_charset_` field sends the encoding's name.
            value = enc.name
        name = _normalize_newlines(name)
        if file is not None:
            # HTML §4.10.22.8: a file's name keeps its newlines in multipart;
            # as a name-value pair (every other encoding) it is normalized.
            parts.append((name, File(value, file.content, file.content_type)))
        else:
            parts.append((name, _normalize_newlines(value)))
        pairs.append((name, _normalize_newlines(value)))
    if mailto == "headers":
        # HTML "mail with headers": enctype does not matter.
        return serialize(pairs, encoding=enc.name).replace("+", "%20").encode("ascii")
    if kind == "multipart/form-data" and mailto is None:
        assert boundary is not None
        return _multipart(parts, enc.name, boundary)
    if isindex and kind != "text/plain" and pairs and pairs[0][0] == "isindex":
        # HTML before 2016, urlencoded algorithm: an isindex text field that
        # is the first entry contributes its encoded value alone.
        first = serialize([("", pairs[0][1])], encoding=enc.name)[1:]
        rest = serialize(pairs[1:], encoding=enc.name)
        return (first + ("&" + rest if rest else "")).encode("ascii")
    if kind == "text/plain":
        # HTML §4.10.22.9 text/plain encoding algorithm.
        text = "".join(f"{n}={v}\r\n" for n, v in pairs)
        if mailto == "body":
            # HTML "mail as body": UTF-8 percent-encode with the default
            # (now: path) percent-encode set, whatever the form's encoding.
            return _core.encode(text, PATH).encode("ascii")
        if enc.name == "UTF-8":
            return text.encode("utf-8")
        return enc.encode(text, errors="html")
    return serialize(pairs, encoding=enc.name).encode("ascii")

_NEWLINES = re.compile("\r\n|\r|\n")


