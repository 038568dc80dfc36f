"""URI Templates: RFC 6570 expansion, all four levels.

Strategy: a template is parsed once (:class:`UriTemplate`, or the cached
parse behind :func:`expand`) into literal text, already percent-encoded, and
expressions.  Expanding walks the expressions with the operator table of
RFC 6570 Appendix A and writes each value through
:func:`percent_encoding.core.encode` with one of the RFC's two encodings:

* ``U``   (§1.5, §3.2.1): everything but *unreserved* is percent-encoded
  (``{var}``, ``{.var}``, ``{/var}``, ``{;var}``, ``{?var}``, ``{&var}``);
* ``U+R`` (§3.2.3, §3.2.4): *unreserved* and *reserved* stay, and so do
  ``%XX`` triplets already in the value; any other ``%`` becomes ``%25``
  (``{+var}``, ``{#var}``).

Values: ``str``; ``int``/``float`` (``str()``); ``bool`` (``true``/``false``);
``None`` (undefined); a ``list``/``tuple`` (a list) or a ``Mapping`` or a
``list``/``tuple`` of 2-tuples (an associative array, in the order given).
§2.3: an empty list, an empty mapping, or one whose values are all undefined,
counts as undefined; so does a list whose members are all ``None``.

Errors: a template that does not match the §2 grammar, or an expansion the
RFC forbids (a prefix on a composite value, a nested list, a value that cannot
be UTF-8 encoded), raises :class:`~percent_encoding.errors.UriTemplateError`
(a ``ValueError``) whose ``position`` is the index in the template of the
offending character (for expansion errors, of the variable's name).  A value
of an unsupported type raises :class:`PercentEncodingTypeError`.

Deliberate leniency: the §2.1 *literals* rule omits ``'`` (U+0027), yet §3.1
copies any reserved character unchanged and the RFC's own examples wrap
templates in quotes (``'{count}'``); ``'`` is accepted as a literal.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from . import core as _core
from ._abnf import BAD_PERCENT as _BAD_PERCENT
from ._abnf import RESERVED as _RESERVED
from ._abnf import UNRESERVED as _UNRESERVED
from ._scheme import Scheme, from_encode_set
from .errors import PercentEncodeError, PercentEncodingTypeError, UriTemplateError
from .sets import RFC3986_UNRESERVED, EncodeSet

__all__ = [
    "SCHEMES",
    "UNRESERVED_AND_RESERVED",
    "UNRESERVED_ONLY",
    "UriTemplate",
    "expand",
]


#: ``U``: everything but unreserved (RFC 6570 §1.5).
UNRESERVED_ONLY = RFC3986_UNRESERVED
#: ``U+R``: unreserved, reserved, and "%" (triplets kept; a stray "%" is fixed after).
UNRESERVED_AND_RESERVED = EncodeSet.from_allowed(
    _UNRESERVED + _RESERVED + "%",
    name="rfc6570-reserved",
    spec="RFC 6570 §3.2.3 (U+R: unreserved, reserved and pct-encoded stay)",
)

# A "%" in U+R output that does not start a triplet.  Kernel output after a
# "%" from the input is either the input's own next characters (kept) or a
# fresh "%XX", so a "%" followed by two hex digits here was a triplet in the
# value too.
_STRAY_PERCENT = _BAD_PERCENT

# §2.1 literals: any character except CTL, SP, DQUOTE, "'", "%" (unless part
# of a triplet), "<", ">", "\", "^", "`", "{", "|", "}"; non-ASCII only as
# ucschar or iprivate (RFC 3987).  "'" is let through (see the docstring).
_BAD_LITERAL = re.compile(
    '[\x00-\x20"<>\\\\^`{|}\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef\ufff0-\uffff'
    + "".join(f"{chr(p << 16 | 0xFFFE)}{chr(p << 16 | 0xFFFF)}" for p in range(1, 17))
    + "\U000e0000-\U000e0fff]"
    "|" + _BAD_PERCENT.pattern
)

# §2.3 varname = varchar *( ["."] varchar ); varchar = ALPHA / DIGIT / "_" / pct-encoded
_VARCHAR = "(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})"
_VARNAME = re.compile(f"{_VARCHAR}(?:\\.?{_VARCHAR})*")
# §2.4.1 max-length = %x31-39 0*3DIGIT
_MAX_LENGTH = re.compile("[1-9][0-9]{0,3}(?![0-9])")


@dataclass(frozen=True)
class _Operator:
    # The columns of RFC 6570 Appendix A.
    first: str
    sep: str
    named: bool
    ifemp: str
    reserved: bool  # allow U+R (else U)


_OPERATORS: dict[str, _Operator] = {
    "": _Operator("", ",", False, "", False),
    "+": _Operator("", ",", False, "", True),
    "#": _Operator("#", ",", False, "", True),
    ".": _Operator(".", ".", False, "", False),
    "/": _Operator("/", "/", False, "", False),
    ";": _Operator(";", ";", True, "", False),
    "?": _Operator("?", "&", True, "=", False),
    "&": _Operator("&", "&", True, "=", False),
}
# §2.2 op-reserve: reserved for future extensions, an error today.
_RESERVED_OPERATORS = "=,!@|"


@dataclass(frozen=True)
class _VarSpec:
    name: str
    prefix: int | None
    explode: bool
    position: int


@dataclass(frozen=True)
class _Expression:
    op: str
    varspecs: tuple[_VarSpec, ...]
    position: int


_Part = str | _Expression


# ---------------------------------------------------------------------------
# Parsing (§2)
# ---------------------------------------------------------------------------
def _literal(template: str, start: int, end: int) -> str:
    m = _BAD_LITERAL.search(template, start, end)
    if m is not None:
        ch = template[m.start()]
        if ch == "%":
            what = "'%' that does not start a %XX triplet (write it as %25)"
        elif ch == "}":
            what = "'}' with no '{' before it"
        else:
            what = f"character {ch!r} (U+{ord(ch):04X}), which a template may not contain"
        raise UriTemplateError(f"invalid URI template: {what} at {m.start()}", m.start())
    # §3.1: characters allowed in a URI are copied; others (ucschar, iprivate)
    # are UTF-8 percent-encoded; existing triplets stay.
    return _core.encode(template[start:end], UNRESERVED_AND_RESERVED)


def _expression(template: str, start: int, end: int) -> _Expression:
    # template[start] is "{", template[end] is "}".
    p = start + 1
    if p == end:
        raise UriTemplateError(f"invalid URI template: empty expression at {start}", start)
    op = template[p]
    if op in _OPERATORS:
        p += 1
    elif op in _RESERVED_OPERATORS:
        raise UriTemplateError(
            f"invalid URI template: operator {op!r} at {p} is reserved by RFC 6570 §2.2", p
        )
    else:
        op = ""
    specs: list[_VarSpec] = []
    while True:
        m = _VARNAME.match(template, p, end)
        if m is None:
            raise UriTemplateError(
                f"invalid URI template: expected a variable name at {p}, found "
                f"{template[p] if p < end else '}'!r} (names are letters, digits, '_', "
                "'%XX' and single inner dots)",
                p,
            )
        name_pos, q = p, m.end()
        prefix: int | None = None
        explode = False
        if q < end and template[q] == ":":
            n = _MAX_LENGTH.match(template, q + 1, end)
            if n is None:
                raise UriTemplateError(
                    f"invalid URI template: prefix length at {q + 1} must be 1 to 9999 "
                    "without leading zeros (RFC 6570 §2.4.1)",
                    q + 1,
                )
            prefix = int(n.group())
            q = n.end()
        elif q < end and template[q] == "*":
            explode = True
            q += 1
        specs.append(_VarSpec(m.group(), prefix, explode, name_pos))
        if q == end:
            break
        if template[q] != ",":
            hint = " (a name cannot end in '.' or hold '..')" if template[q] == "." else ""
            raise UriTemplateError(
                f"invalid URI template: unexpected {template[q]!r} at {q} in an expression" + hint,
                q,
            )
        p = q + 1
    return _Expression(op, tuple(specs), start)


@lru_cache(maxsize=512)
def _parse(template: str) -> tuple[_Part, ...]:
    parts: list[_Part] = []
    i, n = 0, len(template)
    while i < n:
        j = template.find("{", i)
        if j == -1:
            j = n
        if j > i:
            parts.append(_literal(template, i, j))
        if j == n:
            break
        end = template.find("}", j + 1)
        inner_open = template.find("{", j + 1, n if end == -1 else end)
        if inner_open != -1:
            raise UriTemplateError(
                f"invalid URI template: '{{' at {inner_open} inside the expression opened at {j}",
                inner_open,
            )
        if end == -1:
            raise UriTemplateError(
                f"invalid URI template: the expression opened at {j} has no closing '}}'", j
            )
        parts.append(_expression(template, j, end))
        i = end + 1
    return tuple(parts)


# ---------------------------------------------------------------------------
# Values (§2.3, §2.4)
# ---------------------------------------------------------------------------


def _scalar(value: object, spec: _VarSpec, what: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return str(value)
    if isinstance(value, (list, tuple, Mapping)):
        raise UriTemplateError(
            f"cannot expand {spec.name!r} at {spec.position}: {what} is itself a "
            f"{type(value).__name__}; RFC 6570 values nest one level only",
            spec.position,
        )
    raise PercentEncodingTypeError(
        f"cannot expand {spec.name!r}: {what} must be str, int, float, bool or None, "
        f"not {type(value).__name__}"
    )


def _is_pair(item: object) -> bool:
    return type(item) is tuple and len(item) == 2


class _Pairs(tuple[tuple[str, str], ...]):
    """The defined (name, value) pairs of an associative array, in order."""

    __slots__ = ()


def _classify(value: object, spec: _VarSpec) -> str | list[str] | _Pairs | None:
    """A string, a list of defined members, the defined pairs, or None (undefined)."""
    if isinstance(value, Mapping):
        items: Any = value.items()
    elif isinstance(value, (list, tuple)):
        if not value or not all(_is_pair(v) for v in value):
            members = [_scalar(v, spec, "a list member") for v in value]
            defined = [m for m in members if m is not None]
            return defined or None
        items = value
    else:
        return _scalar(value, spec, "the value")
    pairs: list[tuple[str, str]] = []
    for k, v in items:
        key = _scalar(k, spec, "a key")
        if key is None:
            raise UriTemplateError(
                f"cannot expand {spec.name!r} at {spec.position}: a key is None", spec.position
            )
        val = _scalar(v, spec, "a value")
        if val is not None:
            pairs.append((key, val))
    return _Pairs(pairs) or None


# ---------------------------------------------------------------------------
# Expansion (§3.2, Appendix A)
# ---------------------------------------------------------------------------
def _encode_u(text: str) -> str:
    return _core.encode(text, UNRESERVED_ONLY)


def _encode_ur(text: str) -> str:
    out = _core.encode(text, UNRESERVED_AND_RESERVED)
    if "%" in text:
        out = _STRAY_PERCENT.sub("%25", out)
    return out


def _expand_varspec(spec: _VarSpec, value: object, op: _Operator) -> str | None:
    v = _classify(value, spec)
    if v is None:
        return None
    enc = _encode_ur if op.reserved else _encode_u
    name = spec.name
    if isinstance(v, str):
        if spec.prefix is not None:
            v = v[: spec.prefix]  # §2.4.1: counted in characters (code points)
        if op.named:
            return name + (op.ifemp if not v else "=") + enc(v)
        return enc(v)
    if spec.prefix is not None:
        # §2.4.1: "Prefix modifiers are not applicable to variables that have
        # composite values."
        raise UriTemplateError(
            f"cannot expand {name!r} at {spec.position}: a prefix (:{spec.prefix}) "
            "applies to strings only, and this value is a list or a mapping",
            spec.position,
        )
    if not spec.explode:
        # §3.2.1: a list is "a,b,c", a mapping "k1,v1,k2,v2", one value.
        if isinstance(v, _Pairs):
            body = ",".join(enc(k) + "," + enc(x) for k, x in v)
        else:
            body = ",".join(enc(m) for m in v)
        return name + "=" + body if op.named else body
    # Exploded: each member or pair becomes its own item, joined by sep.
    if isinstance(v, _Pairs):
        return op.sep.join(enc(k) + (op.ifemp if not x else "=" + enc(x)) for k, x in v)
    if op.named:
        return op.sep.join(name + (op.ifemp if not m else "=" + enc(m)) for m in v)
    return op.sep.join(enc(m) for m in v)


def _expand_expression(expr: _Expression, variables: Mapping[str, Any]) -> str:
    op = _OPERATORS[expr.op]
    out: list[str] = []
    for spec in expr.varspecs:
        try:
            s = _expand_varspec(spec, variables.get(spec.name), op)
        except PercentEncodeError as e:
            raise UriTemplateError(
                f"cannot expand {spec.name!r} at {spec.position}: its value cannot be "
                f"UTF-8 encoded ({e})",
                spec.position,
            ) from None
        if s is not None:
            out.append(s)
    if not out:
        return ""
    return op.first + op.sep.join(out)


def _expand(parts: tuple[_Part, ...], variables: Mapping[str, Any]) -> str:
    return "".join(p if isinstance(p, str) else _expand_expression(p, variables) for p in parts)


def _merge(variables: Mapping[str, Any] | None, kwargs: dict[str, Any]) -> Mapping[str, Any]:
    if variables is None:
        return kwargs
    if not isinstance(variables, Mapping):
        raise PercentEncodingTypeError(
            f"variables must be a mapping of names to values, not {type(variables).__name__}"
        )
    if kwargs:
        merged = dict(variables)
        merged.update(kwargs)
        return merged
    return variables


def _check_template(template: object) -> str:
    if not isinstance(template, str):
        raise PercentEncodingTypeError(f"a URI template is a str, not {type(template).__name__}")
    return template


def expand(template: str, variables: Mapping[str, Any] | None = None, /, **kwargs: Any) -> str:
    """Expand an RFC 6570 URI template (§3, all four levels).

    ``variables`` maps names (as written in the template, ``%XX`` included)
    to values; keyword arguments add to it.  Raises :class:`UriTemplateError`
    for a malformed template or an impossible expansion.

    >>> expand("/search{?q,lang}", {"q": "URI Templates", "lang": "en"})
    '/search?q=URI%20Templates&lang=en'
    >>> expand("{/path*}{#frag}", path=["a b", "c"], frag="x/y")
    '/a%20b/c#x/y'
    """
    return _expand(_parse(_check_template(template)), _merge(variables, kwargs))


class UriTemplate:
    """A parsed RFC 6570 template, for expanding many times.

    >>> t = UriTemplate("/users/{id}/repos{?page,per_page}")
    >>> t.variables
    ('id', 'page', 'per_page')
    >>> t.expand(id="octo cat", page=2)
    '/users/octo%20cat/repos?page=2'
    """

    __slots__ = ("_parts", "template", "variables")

    template: str
    #: Every variable name, in order of first appearance.
    variables: tuple[str, ...]

    def __init__(self, template: str) -> None:
        self.template = _check_template(template)
        self._parts = _parse(template)
        names: dict[str, None] = {}
        for p in self._parts:
            if isinstance(p, _Expression):
                for spec in p.varspecs:
                    names.setdefault(spec.name, None)
        self.variables = tuple(names)

    def expand(self, variables: Mapping[str, Any] | None = None, /, **kwargs: Any) -> str:
        """Expand with ``variables`` and/or keyword arguments (see :func:`expand`)."""
        return _expand(self._parts, _merge(variables, kwargs))

    @property
    def level(self) -> int:
        """The lowest RFC 6570 level (§1.2) whose syntax this template fits in."""
        level = 1
        for p in self._parts:
            if isinstance(p, _Expression):
                if any(s.prefix is not None or s.explode for s in p.varspecs):
                    return 4
                if (p.op and p.op in "./;?&") or len(p.varspecs) > 1:
                    level = 3
                elif p.op:
                    level = max(level, 2)
        return level

    def __repr__(self) -> str:
        return f"UriTemplate({self.template!r})"

    def __str__(self) -> str:
        return self.template

    def __eq__(self, other: object) -> bool:
        if isinstance(other, UriTemplate):
            return self.template == other.template
        return NotImplemented

    def __hash__(self) -> int:
        return hash((UriTemplate, self.template))


def _scheme_encode_ur(text: str | bytes) -> str:
    # Registry contract: str or bytes in.  core.encode reads bytes as given; the
    # stray-% repair then runs on its (ASCII) output just as for text.
    if isinstance(text, (bytearray, memoryview)):
        text = bytes(text)
    out = _core.encode(text, UNRESERVED_AND_RESERVED)
    if "%" in out:
        out = _STRAY_PERCENT.sub("%25", out)
    return out


SCHEMES: tuple[Scheme, ...] = (
    from_encode_set(
        UNRESERVED_ONLY,
        name="uritemplate",
        spec="RFC 6570 §3.2.2 simple string expansion {var} (U: all but unreserved)",
        notes="UTF-8; only A-Z a-z 0-9 -._~ stay; also {.var} {/var} {;var} {?var} {&var}",
        family="URI Template (RFC 6570)",
    ),
    Scheme(
        name="uritemplate-reserved",
        spec="RFC 6570 §3.2.3 reserved expansion {+var} (U+R)",
        encode=_scheme_encode_ur,
        decode=_core.decode_text,
        encode_set=UNRESERVED_AND_RESERVED,
        notes="UTF-8; unreserved and reserved stay, %XX triplets are kept, a stray % is %25; "
        "also {#var}",
        family="URI Template (RFC 6570)",
    ),
)
