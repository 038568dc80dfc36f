"""Analysis: reading percent-encoded data whose conventions nobody wrote down.

Strategy: four questions, four functions, each returning plain data.

* :func:`space_convention` — does ``+`` mean a space here?  The decision
  procedure: a POST body sent by a form is application/x-www-form-urlencoded
  (HTML §4.10.21.3, URL Standard §5); the query of an http, https, ws or wss
  URL most likely is (HTML forms write GET queries that way); an OAuth 2.0
  authorization response in a redirect URI's query or fragment is form data
  (RFC 6749 §4.1.2, §4.2.2); a ``mailto:`` query is not (RFC 6068 §5); other
  schemes' queries, paths and fragments are plain percent-encoding, where ``+``
  is a plus sign (RFC 3986 §2.2, §3.4).
* :func:`charset` — which encoding are these percent-decoded bytes in (see
  :mod:`percent_encoding.encodings._detect`; valid UTF-8 first, then the legacy
  encodings of forms).
* :func:`diagnose` — what is wrong with this string: bad or truncated
  escapes, lower-case hex, needless escapes, raw characters, invalid UTF-8,
  double encoding, ``%uXXXX``, an ambiguous ``+``.  Each finding has a
  position and a fix.
* :func:`form_conformance` — is this form body valid, obsolete or invalid by
  an ABNF reading of HTML 4.01 §17.13.4 with RFC 1738's escapes?
* :func:`undo_double_encoding` and :func:`variants` — peel ``%25`` layers;
  list the registered schemes that could have written a string.

Everything here is linear in the input.  :func:`diagnose` and its
:class:`Finding` live in :mod:`._diagnose` and are re-exported here.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .. import _args
from ..encodings._for_siblings import ECHO_CHARSET_FIELDS as ECHO_CHARSET_FIELDS
from ..encodings._for_siblings import CharsetGuess
from ..errors import PercentEncodingError
from ._diagnose import Finding, FormConformance, diagnose, form_conformance
from ._diagnose import url_spans as _url_spans

if TYPE_CHECKING:
    from ..form import ParsedForm

__all__ = [
    "ECHO_CHARSET_FIELDS",
    "RULES",
    "CharsetGuess",
    "Finding",
    "FormConformance",
    "SpaceConvention",
    "charset",
    "choose_form_encoding",
    "diagnose",
    "form_conformance",
    "form_field_charsets",
    "parse_form",
    "space_convention",
    "undo_double_encoding",
    "variants",
]

_FORM_SCHEMES = frozenset({"http", "https", "ws", "wss"})


@dataclass(frozen=True)
class SpaceConvention:
    """The answer of :func:`space_convention`.

    ``plus_is_space`` is the decision; ``confidence`` is "certain", "likely"
    or "probably"; ``reason`` says why, citing the specs; ``rule`` names the rule that
    fired with a stable identifier, one of :data:`RULES` (``"form-body"``,
    ``"no-form-body"``, ``"url-component"``, ``"http-query"``, ``"no-scheme-query"``,
    ``"other-scheme-query"``, ``"oauth2-redirect"``).
    """

    plus_is_space: bool
    reason: str
    confidence: Literal["certain", "likely", "probably"]
    rule: str

    @property
    def paragraph(self) -> str:
        """Deprecated: the bracketed paragraph number that ``rule`` held in 0.1.0 (``"[166]"``).

        Use :attr:`rule`, a stable identifier.
        """
        _args.warn_deprecated(
            "SpaceConvention.paragraph is deprecated; use .rule, a stable identifier"
        )
        return _OLD_RULES[self.rule]


#: The values of :attr:`SpaceConvention.rule`.
RULES = ("form-body", "no-form-body", "url-component", "http-query", "no-scheme-query",
         "other-scheme-query", "oauth2-redirect")
_OLD_RULES = {"form-body": "[160]", "no-form-body": "[163]", "url-component": "[164]",
              "http-query": "[166]", "no-scheme-query": "[168]", "other-scheme-query": "[168]",
              "oauth2-redirect": ""}  # (new after 0.1.0: no paragraph)

def _oauth2_response(part: str) -> bool:
    # RFC 6749 §4.1.2, §4.2.2: a token or an error, or a code with its state, marks an
    # OAuth 2.0 authorization response in a redirect URI's query or fragment.
    names = {f.partition("=")[0] for f in part.split("&") if "=" in f}
    return bool(names & {"access_token", "error", "id_token"}) or {"code", "state"} <= names


def _scheme_of(url: str) -> str | None:
    m = re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", url.strip(" \t\n\r\f\x00"))
    return m.group()[:-1].lower() if m else None


def space_convention(
    url: str | None = None,
    *,
    scheme: str | None = None,
    component: str | None = None,
    method: str | None = None,
) -> SpaceConvention:
    """Decide whether ``+`` stands for a space in a piece of percent-encoded data.

    ``component`` is "query" (the default when a URL or scheme is given),
    "path", "fragment", "userinfo", "host" or "body".  A ``method`` of POST
    with no component (or "body") means a form body.

    >>> space_convention("https://example.com/search?q=a+b").plus_is_space
    True
    >>> space_convention("mailto:a@example.com?subject=a+b").plus_is_space
    False
    """
    for name, value in (("url", url), ("scheme", scheme), ("component", component),
                        ("method", method)):
        _args.check_str(name, value, none=True)
    comp = component.lower() if component else None
    meth = method.upper() if method else None
    if comp == "body" or (comp is None and url is None and scheme is None and meth is not None):
        if meth in (None, "POST", "PUT", "PATCH"):
            return SpaceConvention(
                True,
                "a request body sent by an HTML form is application/x-www-form-urlencoded, "
                "where '+' is a space (HTML §4.10.21.3, URL Standard §5); certain only when "
                "its Content-Type says so",
                "likely" if comp == "body" and meth is None else "certain",
                "form-body",
            )
        return SpaceConvention(
            False,
            f"a {meth} request has no form body; nothing says '+' is a space",
            "probably",
            "no-form-body",
        )
    sch = scheme.lower().rstrip(":") if scheme else (_scheme_of(url) if url else None)
    if comp is None and url is not None and "+" in url:
        # A whole URL: judge the component the '+' is in (RFC 3986 §3; the
        # query ends at '#').  A '+' in the query decides; else the first one.
        spans = _url_spans(url)
        plus_in = [name for name, a, b in spans if "+" in url[a:b]]
        if plus_in and "query" not in plus_in:
            comp = plus_in[0]
    if comp is None:
        comp = "query"
    if comp not in ("query", "path", "fragment", "userinfo", "host"):
        raise PercentEncodingError(
            f"unknown component {component!r}: use query, path, fragment, userinfo, host or body"
        )
    if url is not None and comp in ("query", "fragment") and sch != "mailto":
        span = [url[a:b] for name, a, b in _url_spans(url) if name == comp]
        if span and _oauth2_response(span[0]):
            where = ("fragment (implicit grant, RFC 6749 §4.2.2)" if comp == "fragment"
                     else "query (authorization code grant, RFC 6749 §4.1.2)")
            return SpaceConvention(
                True,
                f"an OAuth 2.0 authorization response in the redirect URI's {where} is "
                "application/x-www-form-urlencoded (RFC 6749 Appendix B), where '+' is a "
                "space; read it with oauth2.parse_redirect()",
                "likely",
                "oauth2-redirect",
            )
    if comp != "query":
        return SpaceConvention(
            False,
            f"the {comp} of a URL is plain percent-encoding: '+' is a plus sign and a space "
            "is %20 (RFC 3986 §2.2; URL Standard §4.4 gives '+' no meaning there)",
            "probably",
            "url-component",
        )
    if sch in _FORM_SCHEMES:
        return SpaceConvention(
            True,
            f"the query of an {sch}: URL is most likely application/x-www-form-urlencoded "
            "(HTML forms submit GET queries that way), where '+' is a space; the server "
            "alone decides for sure (HTML §4.10.21.3, URL Standard §5)",
            "likely",
            "http-query",
        )
    if sch is None:
        return SpaceConvention(
            False,
            "no scheme is known: a query is plain percent-encoding unless its server "
            "treats it as a form (RFC 3986 §3.4); pass the URL or scheme to decide",
            "probably",
            "no-scheme-query",
        )
    if sch == "mailto":
        # RFC 6068 §5: a space in a mailto: URL is %20; a '+' is a plus sign (it marks
        # sub-addresses such as bill+ietf@example.org).
        return SpaceConvention(
            False,
            "the query of a mailto: URL holds header fields where '+' is a plus sign and a "
            "space is %20 (RFC 6068 §5: a '+' written for a space cannot be told from a "
            "real one); read it with mailto.parse()",
            "certain",
            "other-scheme-query",
        )
    return SpaceConvention(
        False,
        f"the query of a {sch}: URL is plain percent-encoding: '+' is a plus sign "
        "(RFC 3986 §3.4)",
        "probably",
        "other-scheme-query",
    )


def charset(
    data: bytes | bytearray | memoryview,
    *,
    candidates: Sequence[str] | None = None,
    hints: Mapping[str, object] | None = None,
) -> list[CharsetGuess]:
    """Guess the encoding of percent-decoded bytes, best first.

    Valid UTF-8 comes first; otherwise each legacy encoding that decodes the
    bytes is scored by a small per-language model.  ``hints`` may hold
    ``"_charset_"`` (a form's ``_charset_`` value: decisive), ``"probe"``
    (``(char, submitted_bytes)``: decisive) and ``"charset"`` (a Content-Type
    parameter: adds weight only).  See ``docs/detect.md`` for the accuracy
    table by input length.

    >>> from percent_encoding import decode
    >>> charset(decode("%93%FA%96%7B%8C%EA"))[0].encoding
    'Shift_JIS'
    """
    from ..encodings._for_siblings import charset as _impl

    return _impl(data, candidates=candidates, hints=hints)


def choose_form_encoding(
    raw_pairs: Sequence[tuple[bytes, bytes]],
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    candidates: Sequence[str] | None = None,
    echo_fields: Sequence[str] | None = None,
) -> CharsetGuess:
    """Pick the encoding of a form's percent-decoded names and values: a
    ``_charset_`` field, then a probe field ``(name, expected_char)``, then a
    field echoing the charset (:data:`ECHO_CHARSET_FIELDS`, or ``echo_fields``),
    then detection; the answer's ``.reason`` says which rule decided and its
    ``.findings`` what looked wrong (fields that disagree, a cut UTF-8 value)."""
    from ..encodings._for_siblings import choose_form_encoding as _impl

    return _impl(
        raw_pairs,
        probe=probe,
        content_type_charset=content_type_charset,
        candidates=candidates,
        echo_fields=echo_fields,
    )


def form_field_charsets(
    raw_pairs: Sequence[tuple[bytes, bytes]],
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    candidates: Sequence[str] | None = None,
    echo_fields: Sequence[str] | None = None,
) -> tuple[CharsetGuess, list[CharsetGuess]]:
    """The whole-form guess of :func:`choose_form_encoding` and one guess per pair.

    For :func:`percent_encoding.form.parse_bytes` output, when fields may come in
    different charsets: decode each pair with its own guess (an ASCII pair gets the
    whole-form one).  :func:`parse_form` with ``per_field=True`` does this.

    >>> whole, fields = form_field_charsets([(b"a", b"\\x82\\xa0"), (b"b", b"\\xa4\\xa2")])
    >>> [g.encoding for g in fields], whole.findings[0][:15]
    (['Shift_JIS', 'EUC-JP'], 'fields disagree')
    """
    from ..encodings._for_siblings import form_encodings

    return form_encodings(
        raw_pairs, probe=probe, content_type_charset=content_type_charset,
        candidates=candidates, echo_fields=echo_fields, per_field=True,
    )


def parse_form(
    data: str | bytes | bytearray | memoryview,
    *,
    probe: tuple[str, str] | None = None,
    content_type_charset: str | None = None,
    echo_fields: Sequence[str] | None = None,
    per_field: bool = False,
    separators: str = "&",
    strip_leading_question_mark: bool = False,
    max_fields: int | None = None,
    max_field_size: int | None = None,
    max_total: int | None = None,
    errors: Literal["replace", "fatal", "strict"] = "replace",
    strict: bool | None = None,
) -> ParsedForm:
    """Parse a form body whose encoding nobody said: guess it, then decode (URL Standard §5.1).

    The fields are split and percent-decoded as :func:`percent_encoding.form.parse` does
    (``separators``, ``strip_leading_question_mark``, the limits, ``errors`` and
    ``strict`` are its options); the encoding is chosen from the decoded bytes by
    :func:`choose_form_encoding`: a ``_charset_`` field, then the ``probe`` field
    ``(name, expected_char)``, then a field that echoes the page's charset
    (:data:`ECHO_CHARSET_FIELDS`, or ``echo_fields``), then detection
    (``content_type_charset``, the Content-Type ``charset=`` parameter, only adds weight).
    The result is a :class:`~percent_encoding.form.ParsedForm`: the pairs, and
    ``.charset``, the guess (its ``.encoding``, ``.reason`` and ``.findings``).
    ``per_field=True`` decodes each field with its own guess (forms put together from
    several sources); ``.fields`` then holds one guess per pair.

    >>> r = parse_form("q=%93%FA%96%7B%8C%EA%82%CC%83e%83L%83X%83g")
    >>> list(r), r.charset.encoding
    ([('q', '日本語のテキスト')], 'Shift_JIS')
    >>> parse_form("ie=EUC-JP&q=%A4%A2").charset.reason
    "field 'ie' echoes the input charset: 'EUC-JP'"
    """
    from ..form import FormOptions
    from ._parse_form import parse_detected

    options = FormOptions(
        None, separators, strip_leading_question_mark, max_fields, max_field_size,
        max_total, errors, strict,
    )
    return parse_detected(
        data, options, probe=probe, content_type_charset=content_type_charset,
        per_field=per_field, echo_fields=echo_fields,
    )


_TWOS_AND_FIVES = re.compile(r"[25]*")  # one-character repeat: no backtracking state
_HEX = frozenset("0123456789ABCDEFabcdef")


def _peel(text: str) -> str:
    # Replaces every match of %(?:25)+(?=[0-9A-Fa-f]{2}) by "%", without the regex: CPython's
    # engine keeps state per repetition of a group, which made long "%2525...41" runs
    # superlinear.  Per "%25": p = the "25" pairs that follow; an escape after them
    # peels all p; otherwise p-1 (the last "25" is the escape); p == 1: a real "%25".
    out: list[str] = []
    done = 0
    i = text.find("%25")
    while i != -1:
        a = i + 1
        run = _TWOS_AND_FIVES.match(text, a).end()  # type: ignore[union-attr]
        stop = run  # the alternating 2525... prefix ends before a "22" or "55"
        for pair in ("22", "55"):
            j = text.find(pair, a, run)
            if j != -1:
                stop = min(stop, j + 1)
        e = a + 2 * ((stop - a) // 2)
        if text[e:e + 1] in _HEX and text[e + 1:e + 2] in _HEX:  # ("" is not in _HEX)
            cut = e
        else:
            cut = e - 2 if e - a >= 4 else -1
        if cut == -1:
            i = text.find("%25", a)
            continue
        out += (text[done:i], "%")
        done = cut
        i = text.find("%25", cut)
    out.append(text[done:])
    return "".join(out)


def undo_double_encoding(text: str) -> str:
    """Peel ``%25`` layers until every escape is single: ``%252541`` → ``%41``.

    A ``%25`` that introduces no escape (``100%25`` followed by non-hex) is a
    real percent sign and stays.

    >>> undo_double_encoding("a%2520b%25zz")
    'a%20b%25zz'
    """
    _args.check_str_input("undo_double_encoding", text)
    return _peel(text)


def variants(text: str) -> list[str]:
    """The registered schemes that could have written ``text``.

    A scheme qualifies when decoding ``text`` with it and encoding the result
    again gives ``text`` back exactly.

    >>> "ecmascript-encodeURIComponent" in variants("a%20b!")
    True
    >>> "application/x-www-form-urlencoded" in variants("a%20b!")
    False
    """
    _args.check_str_input("variants", text)
    from .. import schemes

    out = []
    for s in schemes.all_schemes():
        if s.decode is None:
            continue
        try:
            if s.encode(s.decode(text)) == text:
                out.append(s.name)
        except (ValueError, TypeError):
            continue
    return out
