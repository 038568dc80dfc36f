"""``mailto:`` URLs: RFC 6068.

Strategy: a ``mailto:`` URL is a list of addresses and a list of header
fields, each percent-encoded UTF-8 (RFC 6068 §2)::

    mailtoURI = "mailto:" [ to ] [ hfields ]
    to        = addr-spec *( "," addr-spec )
    hfields   = "?" hfield *( "&" hfield )
    hfield    = hfname "=" hfvalue

:func:`parse` splits on the delimiters first and percent-decodes each piece
afterwards, so an escaped ``%2C``, ``%26`` or ``%3D`` stays inside its
address or value.  ``+`` is a plus sign everywhere (RFC 6068 §5: only ``%20``
is a space), and the fragment is ignored (§2).  Addresses given in ``to=``
fields are appended to :attr:`Mailto.to`, as §2 says the two spellings are
equivalent.  Text that is not UTF-8 raises :class:`MailtoError`.

:func:`build` writes the URL: every character RFC 6068 §2 lists is escaped
(those a URI cannot hold, ``%``, the gen-delims but ``@`` and ``:``, and
``&``, ``;``, ``=``), a ``,`` inside an address too (it separates
addresses), a space as ``%20``, never ``+``; a literal ``+`` stays as it is
(§5 allows ``%2B`` but does not require it, and ``+`` marks sub-addresses
such as ``bill+ietf@example.org``).  Line breaks in the body become
``%0D%0A`` whatever their input spelling (§5); in any other field they
raise :class:`MailtoError` (§5: "SHOULD NOT be used"; they would let a value
add header fields).  An ``@`` inside the local part is written ``%40``, as
in the RFC's own examples (§6.2), so the only raw ``@`` of an address is the
one before its domain.

:func:`form_email` and :func:`read_form_email` carry an HTML form by e-mail:
the body of a ``message/rfc822`` message typed
``application/x-www-form-urlencoded`` with ``Content-Transfer-Encoding:
quoted-printable`` (the MIME and quoted-printable work is Python's ``email``
package).  HTML's form submission to a ``mailto:`` action ("mail as body",
HTML §4.10.22.3) hands the same urlencoded body to the mail client; a form
that reaches a mailbox arrives as this message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from . import _args
from . import core as _core
from . import form as _form
from ._abnf import UNRESERVED
from ._args import type_name
from ._scheme import Scheme
from .errors import MailtoError, PercentEncodingTypeError
from .sets import EncodeSet

if TYPE_CHECKING:
    from email.message import EmailMessage, Message

__all__ = [
    "ADDRESS",
    "HFIELD",
    "SCHEMES",
    "Mailto",
    "MailtoError",
    "build",
    "form_email",
    "parse",
    "read_form_email",
]

# RFC 6068 §2: qchar = unreserved / pct-encoded / some-delims, and some-delims are
# "!$'()*+,;:@".  The prose also requires ";" to be escaped (it lists "&", ";" and "="
# for addr-spec, and hfname/hfvalue need "the same characters"), so ";" is escaped.
HFIELD = EncodeSet.from_allowed(
    UNRESERVED + "!$'()*+,:@",
    name="mailto-hfield",
    spec="RFC 6068 §2 (hfname, hfvalue: qchar, with ';' escaped as the prose requires)",
)
# An address also escapes ",": it separates the addresses of "to" (RFC 6068 §2).
ADDRESS = EncodeSet.from_allowed(
    UNRESERVED + "!$'()*+:@",
    name="mailto-address",
    spec="RFC 6068 §2 (addr-spec: qchar less ',' and ';')",
)
_ADDRESS_LOCAL = EncodeSet.from_allowed(UNRESERVED + "!$'()*+:", name="mailto-local-part")

_SCHEME = re.compile(r"mailto:", re.IGNORECASE)
_NEWLINE = re.compile(r"\r\n|\r|\n")
_CR_LF = re.compile(r"[\r\n]")


@dataclass(frozen=True)
class Mailto:
    """What a ``mailto:`` URL holds (see :func:`parse`).

    ``to``: the addresses, decoded, those of ``to=`` fields appended; ``headers``:
    every ``(name, value)`` field in order, decoded (``to``, ``subject`` and
    ``body`` included; names as written, they compare case-insensitively);
    ``subject`` and ``body``: the value of the first such field, or ``None``.
    """

    to: list[str]
    headers: list[tuple[str, str]]
    subject: str | None
    body: str | None


def _decode(raw: str, where: int, url: str) -> str:
    # Percent-decode, then UTF-8 (RFC 6068 §2: "percent-encoded based on UTF-8").
    # A "%" without two hex digits is kept, as the URL Standard's percent-decode does.
    octets = _core.decode(raw)
    try:
        return octets.decode("utf-8")
    except UnicodeDecodeError:
        raise MailtoError(
            f"the text at position {where} of the mailto: URL is not UTF-8 once "
            f"percent-decoded ({raw[:40]!r}); RFC 6068 §2 encodes text as UTF-8",
            where,
        ) from None


def _addresses(raw: str, start: int, url: str) -> list[str]:
    out = []
    at = start
    for piece in raw.split(","):
        if piece:
            out.append(_decode(piece, at, url))
        at += len(piece) + 1
    return out


def parse(url: str) -> Mailto:
    """Read a ``mailto:`` URL (RFC 6068 §2): its addresses and header fields, decoded.

    The scheme name may be in any case; the fragment is ignored (§2); ``+`` is a
    plus sign (§5).  Raises :class:`MailtoError` for another scheme or text
    that is not UTF-8.

    >>> m = parse("mailto:joe@example.com?cc=bob@example.com&body=hello")
    >>> m.to, m.headers, m.subject, m.body
    (['joe@example.com'], [('cc', 'bob@example.com'), ('body', 'hello')], None, 'hello')
    >>> parse("mailto:gorby%25kremvax@example.com").to
    ['gorby%kremvax@example.com']
    >>> parse("mailto:bill+ietf@example.org?subject=1+1").subject
    '1+1'
    """
    if not isinstance(url, str):
        raise PercentEncodingTypeError(f"mailto.parse() takes a str, not {type_name(url)}")
    if not _SCHEME.match(url):
        raise MailtoError(f"not a mailto: URL: {url[:40]!r}", 0)
    hash_at = url.find("#")
    end = len(url) if hash_at == -1 else hash_at
    q = url.find("?", 0, end)
    to_end = end if q == -1 else q
    to = _addresses(url[7:to_end], 7, url)
    headers: list[tuple[str, str]] = []
    subject: str | None = None
    body: str | None = None
    if q != -1:
        at = q + 1
        for field in url[at:end].split("&"):
            if field:
                raw_name, eq, raw_value = field.partition("=")
                name = _decode(raw_name, at, url)
                value_at = at + len(raw_name) + len(eq)
                value = _decode(raw_value, value_at, url)
                headers.append((name, value))
                key = name.lower()
                if key == "to":
                    to += _addresses(raw_value, value_at, url)
                elif key == "subject" and subject is None:
                    subject = value
                elif key == "body" and body is None:
                    body = value
            at += len(field) + 1
    return Mailto(to, headers, subject, body)


def _local_part_end(address: str) -> int:
    # Where the local part ends (RFC 5322 §3.4.1 addr-spec): after the closing quote
    # of a quoted-string, otherwise at the first "@" (a dot-atom holds none).
    if address.startswith('"'):
        i = 1
        n = len(address)
        while i < n:
            c = address[i]
            if c == "\\":
                i += 2
                continue
            if c == '"':
                return i + 1
            i += 1
        return n
    at = address.find("@")
    return len(address) if at == -1 else at


def _encode_address(address: str, i: int) -> str:
    if not address:
        raise MailtoError(f"address {i} is empty", None)
    m = _CR_LF.search(address)
    if m is not None:
        raise MailtoError(
            f"address {i} has a line break at position {m.start()}; an address cannot "
            "hold one (RFC 6068 §5)",
            m.start(),
        )
    cut = _local_part_end(address)
    # RFC 6068 §6.2 writes an "@" inside a quoted local part as %40.
    return _core.encode(address[:cut], _ADDRESS_LOCAL) + _core.encode(address[cut:], ADDRESS)


def _address_list(to: object) -> list[str]:
    if isinstance(to, str):
        return [to]
    if isinstance(to, (bytes, bytearray, memoryview, Mapping)) or not isinstance(to, Iterable):
        raise PercentEncodingTypeError(
            f"mailto.build() takes the addresses as a str or a list of str, not {type_name(to)}"
        )
    out = []
    for i, a in enumerate(to):
        if not isinstance(a, str):
            raise PercentEncodingTypeError(
                f"mailto.build(): address {i} is a {type_name(a)}, not a str"
            )
        out.append(a)
    return out


def _header_list(headers: object) -> list[tuple[str, str]]:
    if isinstance(headers, (str, bytes, bytearray, memoryview)) or not isinstance(
        headers, Iterable
    ):
        raise PercentEncodingTypeError(
            "mailto.build() takes headers as a mapping or (name, value) pairs, not "
            f"{type_name(headers)}"
        )
    items: Iterable[object] = headers.items() if isinstance(headers, Mapping) else headers
    out = []
    for i, item in enumerate(items):
        if (not isinstance(item, (tuple, list)) or len(item) != 2
                or not isinstance(item[0], str) or not isinstance(item[1], str)):
            raise PercentEncodingTypeError(
                f"mailto.build(): header {i} is not a (name, value) pair of str: {item!r:.60}"
            )
        out.append((item[0], item[1]))
    return out


def build(to: str | Sequence[str], headers: Mapping[str, str] | Iterable[tuple[str, str]] = (),
          ) -> str:
    """Write a ``mailto:`` URL (RFC 6068 §2) for ``to`` and ``headers``, escaped as §2 and §5 say.

    ``to`` is one address or a list of them; ``headers`` a mapping or
    ``(name, value)`` pairs, written in order (``subject``, ``body``, ``cc``,
    ...).  A space becomes ``%20``, a ``+`` stays, line breaks in ``body``
    become ``%0D%0A``.  An empty address, an empty header name, or a line
    break in an address, a name or a field other than ``body`` raises
    :class:`MailtoError`.

    >>> build(["gorby%kremvax@example.com"])
    'mailto:gorby%25kremvax@example.com'
    >>> build("infobot@example.com", [("body", "send current-issue\\nsend index")])
    'mailto:infobot@example.com?body=send%20current-issue%0D%0Asend%20index'
    >>> build(['"not@me"@example.org', "bill+ietf@example.org"], {"subject": "a&b=c?"})
    'mailto:%22not%40me%22@example.org,bill+ietf@example.org?subject=a%26b%3Dc%3F'
    """
    addresses = _address_list(to)
    fields = _header_list(headers)
    out = "mailto:" + ",".join(_encode_address(a, i) for i, a in enumerate(addresses))
    parts = []
    for i, (name, value) in enumerate(fields):
        if not name:
            raise MailtoError(f"header {i} has an empty name", None)
        m = _CR_LF.search(name)
        if m is not None:
            raise MailtoError(f"header {i}'s name holds a line break at position {m.start()}",
                              m.start())
        if name.lower() == "body":
            # RFC 6068 §5: line breaks in the body are %0D%0A.
            value = _NEWLINE.sub("\r\n", value)
        else:
            m = _CR_LF.search(value)
            if m is not None:
                raise MailtoError(
                    f"header {name!r} has a line break at position {m.start()}; RFC 6068 §5 "
                    "allows them only in the body (elsewhere they could add header fields)",
                    m.start(),
                )
        parts.append(_core.encode(name, HFIELD) + "=" + _core.encode(value, HFIELD))
    if parts:
        out += "?" + "&".join(parts)
    return out


# ---------------------------------------------------------------------------
# Forms by e-mail
# ---------------------------------------------------------------------------
_FORM_TYPE = "application/x-www-form-urlencoded"


def form_email(
    fields: Iterable[tuple[str, str]],
    to: str | Sequence[str],
    *,
    encoding: str = "utf-8",
    enctype: str = "application/x-www-form-urlencoded",
) -> EmailMessage:
    """An e-mail whose body is the form ``fields``, quoted-printable (HTML "mail as body").

    The body is the URL Standard's urlencoded serializer (§5.2) run on
    ``fields`` with ``encoding`` (a WHATWG label), which is what HTML's "mail
    as body" sends for a ``mailto:`` form of that enctype (HTML §4.10.22.3).
    It is typed ``application/x-www-form-urlencoded`` with no ``charset``
    parameter (the URL Standard defines none) and sent with
    ``Content-Transfer-Encoding: quoted-printable`` (RFC 2045 §6.7): a
    urlencoded body is one long ASCII line, and quoted-printable breaks it
    into lines of 76 characters that the reader joins again.

    ``to`` is an address, a list of them, or the form's ``mailto:`` action URL
    (RFC 6068): its addresses go to ``To`` and its other header fields (``cc``,
    ``subject``, …; not ``body``, which the form replaces) onto the message.

    With ``enctype="text/plain"`` the body is HTML's text/plain encoding
    algorithm (§4.10.22.9: ``name=value`` and CR LF per field, newlines in
    names and values normalized to CR LF), typed ``text/plain;
    charset=utf-8``: "mail as body" always sends that text as UTF-8, whatever
    ``encoding`` says.  It is for people to read; :func:`read_form_email` reads
    it back only where no name holds ``=`` and no value a line break.

    >>> m = form_email([("name", "Zoë"), ("msg", "1+1=2")], "mailto:f@example.org?subject=Hi")
    >>> m["To"], m["Subject"], m["Content-Transfer-Encoding"]
    ('f@example.org', 'Hi', 'quoted-printable')
    >>> m.get_payload()
    'name=3DZo%C3%AB&msg=3D1%2B1%3D2'
    >>> read_form_email(m.as_bytes())
    [('name', 'Zoë'), ('msg', '1+1=2')]
    """
    from ._scheme import pairs_arg

    _args.check_choice("enctype", enctype, (_FORM_TYPE, "text/plain"))
    pairs = pairs_arg(fields, "form_email()")
    if enctype == "text/plain":
        # HTML "mail as body", text/plain: the text/plain encoding algorithm, then
        # UTF-8 (the body is UTF-8 percent-encoded into the URL, whatever the
        # form's encoding; the mail client sends the text it stands for).
        str_pairs = []
        for name, value in pairs:
            if not isinstance(name, str) or not isinstance(value, str):
                raise PercentEncodingTypeError(
                    "form_email(enctype='text/plain') takes str names and values")
            str_pairs.append((name, value))
        text = _form.html_form_body(str_pairs, enctype="text/plain", encoding="utf-8")
    else:
        body = _form.serialize(pairs, encoding=encoding)
    headers: list[tuple[str, str]] = []
    if isinstance(to, str) and _SCHEME.match(to):
        action = parse(to)
        addresses = action.to
        headers = [(n, v) for n, v in action.headers if n.lower() not in ("to", "body")]
    else:
        addresses = _address_list(to)
    if not addresses:
        raise MailtoError("form_email() needs at least one address", None)
    from email.message import EmailMessage  # the email package loads on first use
    for i, a in enumerate(addresses):
        if not a or _CR_LF.search(a):
            raise MailtoError(f"address {i} is empty or holds a line break: {a[:40]!r}", None)
    msg = EmailMessage()
    for name, value in headers:
        if _CR_LF.search(name) or _CR_LF.search(value):
            raise MailtoError(f"header {name[:40]!r} holds a line break", None)
    # The email package parses address and other structured fields as they are set, and
    # raises its own errors (or an IndexError) on what RFC 5322 does not allow.
    field = "To"
    try:
        msg[field] = ", ".join(addresses)
        for name, value in headers:
            # Field names are case-insensitive; written in their usual capitals.
            field = "-".join(w.capitalize() for w in name.split("-"))
            msg[field] = value
    except (ValueError, IndexError, TypeError) as e:  # HeaderParseError is a ValueError
        raise MailtoError(
            f"the {field} field cannot be written into a message (RFC 5322): {e}", None
        ) from e
    if enctype == "text/plain":
        msg.set_content(text.decode("utf-8"), subtype="plain", charset="utf-8",
                        cte="quoted-printable")
    else:
        msg.set_content(body.encode("ascii"), maintype="application",
                        subtype="x-www-form-urlencoded", cte="quoted-printable")
    return msg


def read_form_email(
    message_bytes: bytes | bytearray | memoryview | Message,
    *,
    encoding: str = "utf-8",
) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of a form sent by e-mail (the inverse of :func:`form_email`).

    The message (bytes, or an already parsed :class:`email.message.Message`)
    is read with Python's ``email`` package; its body, or its first part typed
    ``application/x-www-form-urlencoded``, is decoded from its
    Content-Transfer-Encoding (quoted-printable, base64, 7bit, …), the line
    breaks mail transport added are removed (a urlencoded body holds none of
    its own: it writes them ``%0D%0A``), and the result is parsed with the URL
    Standard's urlencoded parser (§5.1) and ``encoding``.  A ``charset``
    parameter is ignored, as the URL Standard and HTML say.  A message whose
    body is ``text/plain`` is read as HTML's text/plain form encoding (one
    ``name=value`` a line, in the message's own charset).  A message with
    neither raises :class:`MailtoError`.

    >>> raw = (b"To: f@example.org\\r\\nMIME-Version: 1.0\\r\\n"
    ...        b"Content-Type: application/x-www-form-urlencoded\\r\\n"
    ...        b"Content-Transfer-Encoding: quoted-printable\\r\\n\\r\\n"
    ...        b"a=3Db+c&d=3D%E2%82=\\r\\n%AC\\r\\n")
    >>> read_form_email(raw)
    [('a', 'b c'), ('d', '€')]
    """
    _args.check_label("encoding", encoding)
    from email import policy
    from email.message import Message
    from email.parser import BytesParser

    if isinstance(message_bytes, Message):
        msg = message_bytes
    elif isinstance(message_bytes, (bytes, bytearray, memoryview)):
        msg = BytesParser(policy=policy.default).parsebytes(bytes(message_bytes))
    else:
        raise PercentEncodingTypeError(
            "read_form_email() takes the message as bytes or an email.message.Message, "
            f"not {type_name(message_bytes)}"
        )
    part = next((p for p in msg.walk() if p.get_content_type() == _FORM_TYPE), None)
    if part is None and msg.get_content_type() == "text/plain":
        # HTML's text/plain enctype (§4.10.22.9): one "name=value" a line.  Its
        # charset parameter, unlike urlencoded's, is MIME's and says how to read it.
        from .encodings import decode as _decode_bytes

        raw = msg.get_payload(decode=True)
        text = _decode_bytes(raw if isinstance(raw, bytes) else b"",
                             msg.get_content_charset() or "utf-8")
        lines = _NEWLINE.split(text)
        if lines and lines[-1] == "":
            lines.pop()
        out: list[tuple[str, str]] = []
        for line in lines:
            name, eq, value = line.partition("=")
            if not eq:
                raise MailtoError(f"the text/plain form line {line[:40]!r} has no '='", None)
            out.append((name, value))
        return out
    if part is None:
        raise MailtoError(
            f"the message holds no {_FORM_TYPE} body (its type is {msg.get_content_type()})",
            None,
        )
    payload = part.get_payload(decode=True)
    body = payload if isinstance(payload, bytes) else b""
    return _form.parse(body.replace(b"\r", b"").replace(b"\n", b""), encoding=encoding)


def _scheme_encode(data: str | bytes) -> str:
    return _core.encode(data, HFIELD)


def _scheme_decode(data: str | bytes) -> str:
    return _core.decode_text(data)


def _scheme_encode_address(data: str | bytes) -> str:
    return _core.encode(data, ADDRESS)


SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="mailto",
        spec="RFC 6068 §2, §5 (mailto: header field names and values)",
        encode=_scheme_encode,
        decode=_scheme_decode,
        encode_set=HFIELD,
        notes=(
            "UTF-8; qchar stays but ';' (the prose requires it escaped); space is %20 and "
            "'+' a plus sign (§5); mailto.build() also writes body line breaks as %0D%0A"
        ),
        family="mailto: URLs",
        aliases=("rfc6068",),
        plain=True,
        reversible=True,
    ),
    Scheme(
        name="mailto-address",
        spec="RFC 6068 §2 (an addr-spec in a mailto: URL)",
        encode=_scheme_encode_address,
        decode=_scheme_decode,
        encode_set=ADDRESS,
        notes=(
            "as 'mailto', and ',' (it separates addresses) is escaped too; mailto.build() "
            "also writes an '@' inside the local part as %40 (§6.2)"
        ),
        family="mailto: URLs",
        plain=True,
        reversible=True,
    ),
)
