"""Transparent content negotiation (RFC 2295): the description attribute and feature tags.

Strategy: four small codecs, each the escaping (or the absence of one) its RFC names, over
the core encoder and decoder.

* The ``description`` attribute of a variant description (RFC 2295 §5.1, §5.6) is a
  quoted-string whose text is UTF-8 with ``"%" HEX HEX`` escapes.
  :func:`encode_description` escapes what a quoted-string cannot hold raw (controls,
  ``"``, and ``\\``, which would start a quoted-pair), ``%`` itself and every non-ASCII
  character, and adds the quotes; :func:`decode_description` undoes quoted-pairs, then
  the escapes.
* A feature tag value (RFC 2295 §6.1.1, ``tag-value = token | quoted-string``) is
  US-ASCII: :func:`encode_feature_value` writes a token when it can and a quoted-string
  otherwise; a token and the quoted-string of the same text are equal (§6.1).
* A feature tag name registered under RFC 2506 (§2.2) holds letters, digits and
  ``:/.%-`` only; ``%`` lets a tag carry other characters as ``%XX`` (the URL tree, §3.1.3,
  names tags by URLs).  :func:`encode_feature_tag` writes the rest as UTF-8 ``%XX``.
* A string value in an RFC 2533 feature predicate (§4.1, ``string = DQUOTE *(%x20-21 /
  %x23-7E) DQUOTE``) has no escape at all: no quoted-pair (``\\`` is an ordinary
  character) and no ``%XX``.  :func:`encode_feature_string` adds the quotes to a value
  made of space and visible ASCII other than ``"``, and refuses anything else;
  :func:`decode_feature_string` reads exactly that production.

Errors: :class:`~percent_encoding.errors.PercentEncodeError` (with the position) for a
value a tag-value or an RFC 2533 string cannot hold;
:class:`~percent_encoding.errors.PercentDecodeError` (with the position) for a malformed
quoted-string or RFC 2533 string or, with ``strict=True``, a bad escape;
:class:`~percent_encoding.errors.TextDecodeError` for escapes that are not UTF-8 when
``errors="strict"``; :class:`~percent_encoding.errors.PercentEncodingTypeError` for a
non-``str``.
"""

from __future__ import annotations

import re
from typing import Literal

from . import _args
from . import core as _core
from ._scheme import Scheme
from .errors import PercentDecodeError, PercentEncodeError
from .sets import EncodeSet

__all__ = [
    "DESCRIPTION",
    "FEATURE_TAG",
    "SCHEMES",
    "decode_description",
    "decode_feature_string",
    "decode_feature_tag",
    "decode_feature_value",
    "encode_description",
    "encode_feature_string",
    "encode_feature_tag",
    "encode_feature_value",
]

# RFC 2295 §5.6 text inside a quoted-string (RFC 2068 §2.2: qdtext excludes CTLs and
# '"'; '\' starts a quoted-pair): those, '%' and non-ASCII are written as %XX.
DESCRIPTION = EncodeSet(
    "".join(map(chr, range(0x20))) + '"%\\\x7f',
    non_ascii=True,
    name="rfc2295-description",
    spec="RFC 2295 §5.6 (UTF-8 with %XX in a quoted-string: controls, '\"', '%', '\\', "
    "non-ASCII)",
)
# RFC 2506 §2.2: a media feature tag is one or more US-ASCII upper- and lower-case
# letters, digits, ":", "/", ".", "%" and "-" (nothing else: not "_", "+", "~", "*");
# "%" is kept as the escape character, so a literal "%" is written "%25".
FEATURE_TAG = EncodeSet.from_allowed(
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:/.-",
    name="rfc2506-feature-tag",
    spec="RFC 2506 §2.2 (feature tag names: letters, digits and :/.- ; the rest as %XX)",
)

# RFC 2068 §2.2 token: CHARs but CTLs and tspecials.
_TOKEN = re.compile(r"[!#$%&'*+\-.0-9A-Z^_`a-z|~]+")
_QUOTED = re.compile(r'"((?:[^"\\]|\\[\s\S])*)"')
_QUOTED_PAIR = re.compile(r"\\([\s\S])")
_NOT_QDTEXT = re.compile(r"[^\t\x20-\x7e]")
# RFC 2533 §4.1: string = DQUOTE *(%x20-21 / %x23-7E) DQUOTE, "quoted string of SP and
# VCHAR without DQUOTE".  Nothing else can be inside, and nothing is an escape: there is
# no quoted-pair (so "\" stands for itself) and no %XX.  Not even HTAB, which RFC 2068's
# qdtext (RFC 2295's tag-value) allows.
_NOT_STRING_CHAR = re.compile(r"[^\x20\x21\x23-\x7e]")


def _unquote(value: str, func: str) -> str:
    # A quoted-string's content with its quoted-pairs undone (RFC 2068 §2.2).
    m = _QUOTED.fullmatch(value)
    if m is None:
        raise PercentDecodeError(
            f"{func}(): {value[:40]!r} is not a quoted-string (RFC 2068 §2.2): it must "
            "start and end with '\"', with '\"' and '\\' inside written as quoted-pairs",
            0,
        )
    return _QUOTED_PAIR.sub(r"\1", m.group(1))


def encode_description(text: str) -> str:
    """The ``description`` attribute value for ``text``: a quoted-string (RFC 2295 §5.6).

    The text is UTF-8 with ``%XX`` escapes: controls, ``"``, ``%``, ``\\`` and every
    non-ASCII character are escaped (upper-case hex), the rest of ASCII stays.

    >>> encode_description("Version française, 100% HTML")
    '"Version fran%C3%A7aise, 100%25 HTML"'
    >>> '{"paper.2" 0.7 {type text/html} {description %s fr}}' % encode_description("Français")
    '{"paper.2" 0.7 {type text/html} {description "Fran%C3%A7ais" fr}}'
    """
    _args.check_str_input("encode_description", text)
    return '"' + _core.encode(text, DESCRIPTION) + '"'


def decode_description(
    value: str, *, strict: bool = False, errors: Literal["replace", "strict"] = "replace"
) -> str:
    """The text of a ``description`` attribute value (RFC 2295 §5.6).

    ``value`` is the quoted-string as it appears in the variant description (a bare
    value without quotes is taken as its content).  Quoted-pairs are undone, then the
    ``%XX`` escapes decoded as UTF-8.  ``strict=True`` rejects a ``%`` that starts no
    escape; ``errors="strict"`` rejects escapes that are not UTF-8.

    >>> decode_description('"Version fran%C3%A7aise, 100%25 HTML"')
    'Version française, 100% HTML'
    """
    _args.check_str_input("decode_description", value)
    _args.check_bool("strict", strict)
    _args.check_choice("errors", errors, ("replace", "strict"))
    content = _unquote(value, "decode_description") if value.startswith('"') else value
    return _core.decode_text(content, strict=strict, errors=errors)


def encode_feature_value(value: str) -> str:
    """A feature tag value as RFC 2295 §6.1.1 writes it: a token, or a quoted-string.

    Values are US-ASCII; a token is used when the value is one, else a quoted-string
    with ``"`` and ``\\`` as quoted-pairs.  A character a quoted-string cannot hold (a
    control other than tab, or non-ASCII) raises
    :class:`~percent_encoding.errors.PercentEncodeError` with its position.

    >>> encode_feature_value("A4"), encode_feature_value("A 2"), encode_feature_value('say "hi"')
    ('A4', '"A 2"', '"say \\\\"hi\\\\""')
    """
    _args.check_str_input("encode_feature_value", value)
    if _TOKEN.fullmatch(value):
        return value
    bad = _NOT_QDTEXT.search(value)
    if bad is not None:
        raise PercentEncodeError(
            f"encode_feature_value(): U+{ord(bad.group()):04X} at position {bad.start()} "
            "cannot be in a feature tag value: values are US-ASCII (RFC 2295 §6.1.1) and a "
            "quoted-string holds no control characters",
            bad.start(),
        )
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def decode_feature_value(value: str) -> str:
    """The value a feature tag value stands for: a token as is, a quoted-string unquoted.

    RFC 2295 §6.1.1: the token and quoted-string forms of the same text are equal.

    >>> decode_feature_value('"A2"'), decode_feature_value("A4")
    ('A2', 'A4')
    """
    _args.check_str_input("decode_feature_value", value)
    if value.startswith('"'):
        return _unquote(value, "decode_feature_value")
    if not _TOKEN.fullmatch(value):
        raise PercentDecodeError(
            f"decode_feature_value(): {value[:40]!r} is neither a token nor a quoted-string "
            "(RFC 2295 §6.1.1)",
            0,
        )
    return value


def _string_char_problem(who: str, text: str, i: int) -> str:
    # Why text[i] cannot be inside an RFC 2533 string value (§4.1).
    ch = text[i]
    shown = repr(ch) if " " <= ch <= "~" else f"U+{ord(ch):04X}"
    return (
        f"{who}: {shown} at position {i} cannot be in an RFC 2533 string value: §4.1 "
        "allows only space and visible US-ASCII other than '\"', and defines no escape "
        "(no quoted-pair, no %XX)"
    )


def encode_feature_string(value: str) -> str:
    """An RFC 2533 feature-predicate string value for ``value``: the text in double quotes.

    RFC 2533 §4.1: ``string = DQUOTE *(%x20-21 / %x23-7E) DQUOTE``.  The text goes in as
    it is: there is no escape, so ``\\`` stays a backslash and ``%`` a percent sign, and a
    ``"``, a control character (tab included) or a non-ASCII character cannot be written
    at all: :class:`~percent_encoding.errors.PercentEncodeError` names the first one's
    position.  (RFC 2295's :func:`encode_feature_value` differs: it escapes ``"`` and
    ``\\`` as quoted-pairs.)

    >>> encode_feature_string("x.y.z")
    '"x.y.z"'
    >>> "(dir=%s)" % encode_feature_string("C:\\\\temp 100%")
    '(dir="C:\\\\temp 100%")'
    """
    _args.check_str_input("encode_feature_string", value)
    bad = _NOT_STRING_CHAR.search(value)
    if bad is not None:
        i = bad.start()
        raise PercentEncodeError(_string_char_problem("encode_feature_string()", value, i), i)
    return '"' + value + '"'


def decode_feature_string(text: str) -> str:
    """The value an RFC 2533 string stands for: ``text`` without its double quotes.

    ``text`` must be exactly the §4.1 ``string`` production: ``"``, then space and
    visible US-ASCII other than ``"``, then ``"`` (a feature predicate may have white
    space around it; strip that first).  Nothing inside is an escape, so ``\\"`` does
    not hide a quote: the first ``"`` after the opening one ends the string.  Anything
    else raises :class:`~percent_encoding.errors.PercentDecodeError` with the position.

    >>> decode_feature_string('"x.y.z"')
    'x.y.z'
    >>> decode_feature_string('"a\\\\b"')
    'a\\\\b'
    """
    _args.check_str_input("decode_feature_string", text)
    func = "decode_feature_string()"
    if not text.startswith('"'):
        raise PercentDecodeError(
            f"{func}: {text[:40]!r} is not an RFC 2533 string value: it must start "
            "with '\"' (§4.1)",
            0,
        )
    bad = _NOT_STRING_CHAR.search(text, 1)
    if bad is None:
        raise PercentDecodeError(
            f"{func}: the string value has no closing '\"' (RFC 2533 §4.1); the text "
            f"ends at position {len(text)}",
            len(text),
        )
    i = bad.start()
    if text[i] != '"':
        raise PercentDecodeError(_string_char_problem(func, text, i), i)
    if i != len(text) - 1:
        raise PercentDecodeError(
            f"{func}: the '\"' at position {i} ends the string value, but "
            f"{text[i + 1 :][:20]!r} follows it; RFC 2533 §4.1 has no escape for a '\"' "
            "inside a string",
            i,
        )
    return text[1:i]


def encode_feature_tag(name: str) -> str:
    """A feature tag name in the characters RFC 2506 §2.2 allows, others as UTF-8 ``%XX``.

    Letters, digits and ``:/.-`` stay; ``%`` itself becomes ``%25``.  Feature tags
    compare case-insensitively (RFC 2295 §6.1), so the case of letters is kept as given.

    >>> encode_feature_tag("colordepth"), encode_feature_tag("u.http://x.example/a b#t")
    ('colordepth', 'u.http://x.example/a%20b%23t')
    """
    _args.check_str_input("encode_feature_tag", name)
    return _core.encode(name, FEATURE_TAG)


def decode_feature_tag(name: str, *, strict: bool = False) -> str:
    """A feature tag name with its ``%XX`` escapes decoded as UTF-8 (RFC 2506 §2.2).

    >>> decode_feature_tag("u.http://x.example/a%20b%23t")
    'u.http://x.example/a b#t'
    """
    _args.check_str_input("decode_feature_tag", name)
    _args.check_bool("strict", strict)
    return _core.decode_text(name, strict=strict)


# The registry rows take str or bytes, as plain schemes do.
def _description_content(text: str) -> str:
    return _core.encode(text, DESCRIPTION)


def _feature_tag_scheme(text: str) -> str:
    return _core.encode(text, FEATURE_TAG)


def _description_content_decode(text: str) -> str:
    return _core.decode_text(text)


def _string_content(
    text: str | bytes, func: str, error: type[PercentEncodeError] | type[PercentDecodeError]
) -> str:
    # The registry row's text: the inside of an RFC 2533 string, which is itself (no
    # escapes); bytes are read one character per byte, so a non-ASCII byte is refused
    # at its offset.
    checked = _args.check_text("text", text, f"rfc2533-string {func}")
    s = checked.decode("latin-1") if isinstance(checked, bytes) else checked
    bad = _NOT_STRING_CHAR.search(s)
    if bad is not None:
        raise error(_string_char_problem(f"rfc2533-string {func}", s, bad.start()), bad.start())
    return s


def _string_scheme(text: str) -> str:
    return _string_content(text, "encode", PercentEncodeError)


def _string_scheme_decode(text: str) -> str:
    return _string_content(text, "decode", PercentDecodeError)


SCHEMES: tuple[Scheme, ...] = (
    Scheme(
        name="rfc2295-description",
        spec="RFC 2295 §5.6",
        encode=_description_content,
        decode=_description_content_decode,
        encode_set=DESCRIPTION,
        notes="the text of a variant's description attribute (inside its quoted-string): "
        "UTF-8; controls, '\"', '%', '\\' and non-ASCII as %XX",
        family="HTTP header fields",
        plain=True,
        reversible=True,
    ),
    Scheme(
        name="rfc2506-feature-tag",
        spec="RFC 2506 §2.2 (RFC 2295 §6.1)",
        encode=_feature_tag_scheme,
        decode=_description_content_decode,
        encode_set=FEATURE_TAG,
        notes="media feature tag names: letters, digits and :/.- stay, the rest as UTF-8 %XX",
        family="HTTP header fields",
        plain=True,
        reversible=True,
    ),
    Scheme(
        name="rfc2533-string",
        spec="RFC 2533 §4.1 (string), §4.2.4.4",
        encode=_string_scheme,
        decode=_string_scheme_decode,
        notes="the text of a feature-predicate string value (inside its DQUOTEs): space "
        "and visible ASCII stand for themselves; there is no escape (no quoted-pair, no "
        "%XX), so '\"', controls and non-ASCII are refused",
        family="HTTP header fields",
        reversible=True,
    ),
)
