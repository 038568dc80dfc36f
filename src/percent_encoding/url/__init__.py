"""Whole URLs as browsers parse them: the WHATWG URL Standard's URL parser.

Strategy: :func:`parse` runs the URL Standard's basic URL parser (§4.4, in
``url._parser``; hosts in ``url._host``) and returns an immutable, hashable
:class:`URL` with the URL API's attributes in snake case.  Each component is
percent-encoded with the set the Standard names for it (``sets.USERINFO``,
``sets.PATH``, ``sets.QUERY`` or ``sets.SPECIAL_QUERY``, ``sets.FRAGMENT``,
``sets.C0_CONTROL`` for opaque paths and hosts) through the library's kernels.
Failure raises :class:`~percent_encoding.errors.URLParseError` with the
Standard's validation-error name and the position in the input; the
non-fatal validation errors stay on the result (``url.validation_errors``).
:func:`explain` says, component by component, which set applied and what it
changed.

    >>> from percent_encoding import url
    >>> u = url.parse("https://EXAMPLE.com:443/a b/ü?q=ü'#x y")
    >>> u.href
    'https://example.com/a%20b/%C3%BC?q=%C3%BC%27#x%20y'
    >>> u.hostname, u.port, u.search
    ('example.com', '', '?q=%C3%BC%27')
    >>> url.parse("../c?d", base="http://h/a/b").href
    'http://h/c?d'

The setters that :meth:`URL.replace` runs (§6.1) are in ``url._setters``.
"""

from __future__ import annotations

from abc import ABCMeta
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from .. import _args, _kernels, core
from .._abnf import LONE_SURROGATE
from ..core import encode, to_usv_string
from ..errors import PercentEncodingTypeError, URLParseError
from ..form import URLSearchParams
from ..sets import EncodeSet
from ..sets import get as _get_set
from . import _offsets as _O
from ._display import render as _render
from ._host import HOST_CACHE_MAX as _HOST_CACHE_MAX
from ._host import HostError as _HostError
from ._host import parse_host as _parse_host
from ._host import serialize_host as _serialize_host
from ._parser import Failure as _Failure
from ._parser import URLRecord as _URLRecord
from ._parser import basic_parse as _basic_parse
from ._parser import serialize as _serialize
from ._parser import serialize_path as _serialize_path
from ._record import parts_of as _parts_of
from ._record import record_of as _record_of
from ._setters import SETTERS as _SETTERS

__all__ = [
    "URL",
    "ComponentReport",
    "URLParseError",
    "ValidationError",
    "can_parse",
    "explain",
    "parse",
]


class ValidationError(NamedTuple):
    """A validation error the URL Standard names (§4.4), at a position of the input."""

    name: str
    position: int


def _check_str(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise PercentEncodingTypeError(f"{what} must be str, not {type(value).__name__}")
    return value


_TUPLE_ORIGIN = frozenset(("ftp", "http", "https", "ws", "wss"))


def _origin(rec: _URLRecord) -> str:
    # URL Standard §4.7 "Origin", serialized as HTML says.
    if rec.scheme == "blob":
        try:
            inner = _basic_parse(_serialize_path(rec))
        except _Failure:
            return "null"
        if inner.scheme in ("http", "https", "file"):
            return _origin(inner)
        return "null"
    if rec.scheme in ("ftp", "http", "https", "ws", "wss"):
        assert rec.host is not None
        out = rec.scheme + "://" + _serialize_host(rec.host)
        if rec.port is not None:
            out += ":" + str(rec.port)
        return out
    return "null"


class URL(metaclass=ABCMeta):
    """An immutable URL record with the URL API's getters (URL Standard §6.1).

    ``str(url) == url.href``; equal URLs have equal hrefs.  Setters are
    :meth:`replace`, which returns a new URL.  With the C twin active, ``URL(...)``
    and :func:`parse` give its C type (``percent_encoding._speedups.URL``, a
    virtual subclass of this class: ``isinstance(u, URL)`` holds for both), which
    has this API and these results.

        >>> u = parse("http://user:pa ss@h.example:8080/p?q#f")
        >>> u.username, u.password, u.host, u.pathname, u.hash
        ('user', 'pa%20ss', 'h.example:8080', '/p', '#f')
        >>> u.replace(port="80", hash="").href
        'http://user:pa%20ss@h.example/p?q'
    """

    # A URL holds its href and either its record (``_r``, with ``_parts``
    # None: the pure twin's parser, the setters) or, when the C parser built it,
    # the component offsets into the href (``_parts``, laid out as url/_offsets.py
    # draws them): the getters then slice the href, and the record is made on
    # first use (replace, origin).
    # (The C twin's type, src/csrc/url_object.c, always holds the offsets.)
    __slots__ = {
        "_parts": None,
        "_r": None,
        "href": "The serialized URL.",
        "validation_errors": "The validation errors the parser recorded (name, position).",
    }

    _r: _URLRecord
    _parts: tuple[int, ...] | None
    href: str
    validation_errors: tuple[ValidationError, ...]

    def __new__(cls, input: str, base: str | URL | None = None) -> URL:
        # With the C twin active, URL(...) is its type (which this __init__ leaves).
        if cls is URL and core.url_parse_kernel is not None:
            return _c_url(input, base)
        return object.__new__(cls)

    def __init__(self, input: str, base: str | URL | None = None) -> None:
        fast = core.url_parse_kernel
        if fast is not None:
            # (a subclass, with the C twin active: the C URL's href and offsets)
            u = URL(input, base)
            _set = object.__setattr__
            _set(self, "href", u.href)
            _set(self, "_parts", u._parts)
            _set(self, "validation_errors", u.validation_errors)
            return
        rec, errs, href = _api_parse(input, base)
        self._init(rec, errs, href)

    def _init(self, rec: _URLRecord, errs: tuple[ValidationError, ...], href: str | None) -> None:
        _set = object.__setattr__
        _set(self, "_r", rec)
        _set(self, "_parts", None)
        _set(self, "href", _serialize(rec) if href is None else href)
        _set(self, "validation_errors", errs)

    @property
    def _rec(self) -> _URLRecord:
        try:
            return self._r
        except AttributeError:
            assert self._parts is not None
            rec = _record_of(self.href, self._parts)
            object.__setattr__(self, "_r", rec)
            return rec

    @classmethod
    def _from_record(
        cls, rec: _URLRecord, errs: tuple[ValidationError, ...] = (), href: str | None = None
    ) -> URL:
        self = object.__new__(cls)
        self._init(rec, errs, href)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("URL is immutable; use url.replace(...)")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("URL is immutable")

    # -- getters (URL Standard §6.1) ----------------------------------------
    # With _parts: the offsets into href that url/_offsets.py describes.
    @property
    def origin(self) -> str:
        """The serialized origin (``"null"`` for an opaque origin)."""
        p = self._parts
        if p is not None and self.href[: p[_O.SCHEME_END]] in _TUPLE_ORIGIN:
            return (self.href[: p[_O.SCHEME_END] + 3]
                    + self.href[p[_O.HOST_START] : p[_O.PATH_START]])
        return _origin_of(self)

    @property
    def protocol(self) -> str:
        """The scheme followed by ``:``."""
        p = self._parts
        if p is not None:
            return self.href[: p[_O.SCHEME_END] + 1]
        return self._r.scheme + ":"

    @property
    def scheme(self) -> str:
        """The scheme, without ``:``."""
        p = self._parts
        if p is not None:
            return self.href[: p[_O.SCHEME_END]]
        return self._r.scheme

    @property
    def username(self) -> str:
        """The percent-encoded username."""
        p = self._parts
        if p is not None:
            s_end = p[_O.SCHEME_END]
            return self.href[s_end + 3 : p[_O.USERNAME_END]] if p[_O.HOST_START] > s_end + 3 else ""
        return self._r.username

    @property
    def password(self) -> str:
        """The percent-encoded password."""
        p = self._parts
        if p is not None:
            h_start = p[_O.HOST_START]
            if h_start > p[_O.SCHEME_END] + 3:
                return self.href[p[_O.USERNAME_END] + 1 : h_start - 1]
            return ""
        return self._r.password

    @property
    def host(self) -> str:
        """Host and port (``host:port``), or ``""`` when there is no host."""
        p = self._parts
        if p is not None:
            return self.href[p[_O.HOST_START] : p[_O.PATH_START]]
        rec = self._r
        if rec.host is None:
            return ""
        if rec.port is None:
            return _serialize_host(rec.host)
        return _serialize_host(rec.host) + ":" + str(rec.port)

    @property
    def hostname(self) -> str:
        """The serialized host, without the port."""
        p = self._parts
        if p is not None:
            return self.href[p[_O.HOST_START] : p[_O.HOST_END]]
        rec = self._r
        return "" if rec.host is None else _serialize_host(rec.host)

    @property
    def port(self) -> str:
        """The port as a string, ``""`` when absent or the scheme's default."""
        p = self._parts
        if p is not None:
            return self.href[p[_O.HOST_END] + 1 : p[_O.PATH_START]]
        return "" if self._r.port is None else str(self._r.port)

    @property
    def pathname(self) -> str:
        """The serialized path."""
        p = self._parts
        if p is not None:
            q, f = p[_O.QUERY_START], p[_O.FRAGMENT_START]
            end = q if q >= 0 else f if f >= 0 else len(self.href)
            return self.href[p[_O.PATH_START] : end]
        return _serialize_path(self._r)

    @property
    def search(self) -> str:
        """``"?"`` and the query, or ``""`` when the query is null or empty."""
        p = self._parts
        if p is not None:
            qs, fs = p[_O.QUERY_START], p[_O.FRAGMENT_START]
            end = fs if fs >= 0 else len(self.href)
            return self.href[qs:end] if qs >= 0 and end - qs > 1 else ""
        q = self._r.query
        return "" if not q else "?" + q

    @property
    def search_params(self) -> URLSearchParams:
        """A new :class:`URLSearchParams` over the query (changing it leaves the URL).

        URL Standard §6.1 (the URL constructor's step "set this's query object
        to ... the result of parsing query"): the list is made from the query
        as it is, so a query that starts with ``?`` keeps it as its first code
        point; only the delimiter before the query is left out.  ``search`` is
        that delimiter and the query, and the constructor removes exactly one
        leading ``?``.

        >>> str(parse("http://x/??a=b").search_params)
        '%3Fa=b'
        """
        return URLSearchParams(self.search)

    @property
    def hash(self) -> str:
        """``"#"`` and the fragment, or ``""`` when it is null or empty."""
        p = self._parts
        if p is not None:
            fs = p[_O.FRAGMENT_START]
            return self.href[fs:] if 0 <= fs < len(self.href) - 1 else ""
        f = self._r.fragment
        return "" if not f else "#" + f

    @property
    def has_opaque_path(self) -> bool:
        """Whether the path is opaque (``mailto:``, ``data:``, …; §4.1)."""
        p = self._parts
        if p is not None:
            return p[_O.HOST_KIND] == _O.HOST_NONE
        return self._r.opaque_path

    # -- setters (URL Standard §6.1), as a copy ------------------------------
    def replace(self, **changes: str) -> URL:
        """A new URL with the API setters run in the order given.

        Keys are the getter names (``href``, ``protocol``, ``username``,
        ``password``, ``host``, ``hostname``, ``port``, ``pathname``,
        ``search``, ``hash``).  A setter the Standard makes do nothing (an
        invalid port, a host on an opaque path, …) does nothing here too;
        ``href`` raises :class:`URLParseError` when it does not parse.

            >>> parse("https://a.example/x").replace(pathname="/a b", search="q=1").href
            'https://a.example/a%20b?q=1'
        """
        # (the C twin's type runs its setters in C and this for what they leave)
        rec = self._rec.copy()
        errs: list[tuple[str, int]] = []
        for name, value in changes.items():
            setter = _SETTERS.get(name)
            if setter is None:
                raise PercentEncodingTypeError(f"URL.replace() got an unknown component {name!r}")
            value = to_usv_string(_check_str(value, name))
            rec = setter(rec, value, errs)
        return _make(rec, tuple(ValidationError(*e) for e in errs))

    # -- rendering (URL Standard §4.8) --------------------------------------
    def display(
        self,
        *,
        scheme: bool = True,
        credentials: bool = False,
        host_only: bool = False,
        query: bool = True,
        fragment: bool = True,
        max_length: int | None = None,
        isolate: bool = False,
    ) -> str:
        """The URL as a person should see it (URL Standard §4.8 "URL rendering").

        The host is shown with domain to Unicode; percent-encoded UTF-8 in the
        other components is shown decoded unless that hides it or changes the
        meaning (controls, spaces, bidi and other format characters, and
        reserved ASCII such as ``%2F`` or ``%25`` stay encoded); username and
        password are left out unless ``credentials=True``.  ``scheme``,
        ``query`` and ``fragment`` set to ``False`` leave those out;
        ``host_only=True`` shows the host alone.  With ``max_length``, the host
        loses whole labels from the lowest level first (never below two) and
        the rest is elided in its middle with ``…``.  ``isolate=True`` wraps the
        result in U+2066 LEFT-TO-RIGHT ISOLATE … U+2069, so that it is laid
        out left to right whatever text surrounds it.  For display only: the
        result is not meant to be parsed again.

            >>> parse("https://user:pw@xn--bcher-kva.example/caf%C3%A9?q=%E2%80%AE").display()
            'https://bücher.example/café?q=%E2%80%AE'
            >>> parse("https://examplecorp.com.evil.com/a/long/path").display(max_length=24)
            'https://…com.evil.com/…h'
        """
        # (the C twin's type calls this method with its own URL as self)
        _args.check_bool("scheme", scheme)
        _args.check_bool("credentials", credentials)
        _args.check_bool("host_only", host_only)
        _args.check_bool("query", query)
        _args.check_bool("fragment", fragment)
        _args.check_bool("isolate", isolate)
        if max_length is not None and (type(max_length) is not int or max_length < 0):
            raise PercentEncodingTypeError(
                f"max_length must be a non-negative int or None, not {max_length!r}")
        return _render(self._rec, self.href, scheme=scheme, credentials=credentials,
                       host_only=host_only, query=query, fragment=fragment,
                       max_length=max_length, isolate=isolate)

    # -- Python protocol ----------------------------------------------------
    def __str__(self) -> str:
        return self.href

    def __repr__(self) -> str:
        return f"URL({self.href!r})"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, URL):
            return self.href == other.href
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("URL", self.href))

    def __reduce__(self) -> tuple[Any, ...]:
        return (URL, (self.href,))


def _origin_of(u: URL) -> str:
    # The origin of a URL whose scheme is not one of a tuple origin's (blob: too).
    return _origin(u._rec)


def _make(
    rec: _URLRecord, errs: tuple[ValidationError, ...] = (), href: str | None = None
) -> URL:
    # The active twin's URL of a record the Python parser or setters built: the C
    # type (its href and offsets) while the C twin is active, else the pure class.
    if core.url_parse_kernel is not None and _url_from_parts is not None:
        text, parts = _parts_of(rec, href)
        u: URL = _url_from_parts(text, parts, errs)
        return u
    return URL._from_record(rec, errs, href)


def _c_url(input: str, base: str | URL | None) -> URL:
    # URL(input, base) with the C twin active: its parser, the Python one for what it leaves.
    if type(input) is str:
        u: URL | None = core.url_parse_kernel(input, base, True)  # type: ignore[misc]
        if u is not None:
            return u
    rec, errs, href = _api_parse(input, base)
    return _make(rec, errs, href)


@lru_cache(maxsize=2048)
def _c_host(
    text: str,
) -> (tuple[str, int, tuple[tuple[str, int], ...]] | tuple[str, int]
      | tuple[str, int, tuple[tuple[str, int], ...], None]):
    # The C parser's host hook (src/csrc/url_host.c): a special URL's host
    # that is not ASCII after percent-decoding (an ASCII one with an xn--
    # label only when the C twin runs without the GIL or without is_nfc), through
    # the host parser (URL Standard §3.5).  (serialized host, host kind as
    # url/_offsets.py names it, validation errors as (name, offset)), or on failure
    # (name, offset), or (name, offset, the validation errors before it, None)
    # when there were some (the setters keep them).
    found: list[tuple[str, int]] = []
    try:
        host = _parse_host(text, False, lambda name, pos: found.append((name, pos)))
    except _HostError as e:
        if found:
            return e.name, e.position, tuple(found), None
        return e.name, e.position
    kind = (_O.HOST_IPV4 if isinstance(host, int) else _O.HOST_IPV6 if isinstance(host, tuple)
            else _O.HOST_DOMAIN)
    return _serialize_host(host), kind, tuple(found)


def _c_host_hook(
    text: str,
) -> (tuple[str, int, tuple[tuple[str, int], ...]] | tuple[str, int]
      | tuple[str, int, tuple[tuple[str, int], ...], None]):
    # The host hook the C parser calls: _c_host, cached for the short hosts only.
    return _c_host(text) if len(text) <= _HOST_CACHE_MAX else _c_host.__wrapped__(text)


_url_setup = core.compiled_kernel("url_setup")
_url_from_parts = core.compiled_kernel("url_from_parts")
_url_can_parse = core.compiled_kernel("url_can_parse")
if _url_setup is not None:
    from ._idna import is_nfc as _is_nfc

    # is_nfc: the pure twin's own NFC test, for the C twin's xn-- labels (url_idna.c).
    _url_setup(URL, ValidationError, _c_host_hook, URLParseError, _is_nfc)
    # The C twin's URL type (src/csrc/url_object.c): what it leaves to Python, and
    # isinstance(u, URL) for its objects.
    # (URL.replace and URL.display take the C type's URL as self: they read its
    # href and _rec only)
    core.compiled_kernel("url_type_setup")(_record_of, _origin_of, URL.display, URL.replace,
                                           URLSearchParams)
    URL.register(core.compiled_kernel("URL"))


# --- entry points ----------------------------------------------------------


def _lone_surrogate_probe(input: str) -> str | None:
    r"""The input as a USVString with U+FDD0 for each lone surrogate, or None without one.

    WebIDL's USVString conversion joins surrogate pairs and writes a lone
    surrogate as U+FFFD; this keeps the positions that conversion gives but
    puts a noncharacter, not a URL code point (URL Standard §4.3), where the
    lone surrogates were.

        >>> _lone_surrogate_probe("a\ud800b\ud83d\ude00c\udc00")
        'a\ufdd0b\U0001f600c\ufdd0'
        >>> _lone_surrogate_probe("a\ud83d\ude00") is None
        True
    """
    joined = input.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    probe = LONE_SURROGATE.sub("\ufdd0", joined)
    return None if probe == joined else probe


# The longest base string whose record _base_record keeps.
_BASE_CACHE_MAX = 2048


@lru_cache(maxsize=256)
def _base_record(text: str) -> _URLRecord:
    # A base string's record, remembered: a crawler resolves every link of a page
    # against the page's URL, and the parser only reads a base, never changes it.
    return _basic_parse(text)


def _input_failure(input: str, e: _Failure) -> URLParseError:
    return URLParseError(
        f"invalid URL {input!r}: {e.name} at position {e.position}", e.name, e.position)


def _api_parse(
    input: str,
    base: str | URL | None,
    raw: dict[str, str] | None = None,
    encoding: str = "utf-8",
) -> tuple[_URLRecord, tuple[ValidationError, ...], str | None]:
    # URL Standard §6.1 "API URL parser": the base is parsed first.
    if type(input) is str and input.isascii():
        # (the commonest input: a USVString already, with no lone surrogate)
        text = input
        probe = None
    else:
        text = to_usv_string(_check_str(input, "input"))
        probe = None if text is input else _lone_surrogate_probe(input)
    base_rec: _URLRecord | None = None
    if base is None:
        pass
    elif isinstance(base, URL):
        base_rec = base._rec
    else:
        b = to_usv_string(_check_str(base, "base"))
        try:
            base_rec = _base_record(b) if len(b) <= _BASE_CACHE_MAX else _basic_parse(b)
        except _Failure as e:
            raise URLParseError(
                f"invalid base URL ({e.name} at {e.position})", e.name, e.position
            ) from None
    errs: list[tuple[str, int]] = []
    try:
        if raw is None and encoding == "utf-8":
            rec = _basic_parse(text, base_rec, errors=errs)
        else:
            rec = _basic_parse(text, base_rec, errors=errs, raw=raw, encoding=encoding)
    except _Failure as e:
        raise _input_failure(input, e) from None
    if probe is not None:
        # A lone surrogate is U+FFFD in the USVString, a URL code point, but what
        # the caller gave there is not one (§4.3).  The probe holds a noncharacter
        # in its place, which the parser treats as it treats U+FFFD in every
        # state but one: where the Standard checks URL code points, it records
        # invalid-URL-unit.  So the probe's errors are the ones to report, in the
        # parser's order (the C twin reports them as it encodes: url_path.c).
        errs = []
        _basic_parse(probe, base_rec, errors=errs, encoding=encoding)
    return rec, tuple([ValidationError(*e) for e in errs]) if errs else (), None


def _parse(
    input: str, base: str | URL | None = None, *, encoding: str = "utf-8",
    edition: str = "current",
) -> URL:
    """Parse ``input`` (against ``base``) as a browser does (URL Standard §4.4).

    ``encoding`` is the document encoding HTML passes for the query of a
    special, non-ws URL; any WHATWG label.  Raises :class:`URLParseError`.

    ``edition`` replays two rules the Standard had for a while, by the date of
    the whatwg/url commit that brought them: ``"2014-12-15"`` (05cbe06) and
    ``"2016-10-28"`` (fbff683) write the fragment as given, U+0000 dropped;
    ``"2016-01-14"`` (bee5ad8) also decodes every ``%2e`` in a path to ``.``;
    ``"2016-12-09"`` (373dbed) encodes the fragment with the simple (C0
    control) set; ``"2017-12-05"`` (7a3c69f) with today's fragment set, U+0000
    still dropped (until 3d57401, 2020-04-27).  The rest is today's parser; the
    base counts as parsed in the same edition.

        >>> parse("HTTP://Example.COM/./a/../b?c d").href
        'http://example.com/b?c%20d'
        >>> parse("http://h/?ü", encoding="windows-1252").search
        '?%FC'
        >>> parse("http://h/a%2eb#ü x", edition="2016-01-14").href
        'http://h/a.b#ü x'
    """
    if edition != "current":
        from ._history import apply_edition, check_edition

        check_edition(edition)
        if isinstance(base, str):
            base = _parse(base, encoding=encoding, edition=edition)
        text = to_usv_string(_check_str(input, "input"))
        plain = _parse(input, base, encoding=encoding)
        return _make(apply_edition(plain._rec, text, edition), plain.validation_errors)
    if encoding != "utf-8":
        from ..encodings import is_utf8, lookup

        # §4.3 get an output encoding: UTF-16 and replacement give UTF-8
        if is_utf8(_check_str(encoding, "encoding"), output=True):
            encoding = "utf-8"
        else:
            encoding = lookup(encoding).name
    if base is None and encoding == "utf-8" and type(input) is str and input.isascii():
        # (the commonest call, _api_parse's steps for it: an ASCII str is a USVString)
        found: list[tuple[str, int]] = []
        try:
            rec = _basic_parse(input, None, errors=found)
        except _Failure as e:
            raise _input_failure(input, e) from None
        errs = tuple([ValidationError(*e) for e in found]) if found else ()
    else:
        rec, errs, _ = _api_parse(input, base, encoding=encoding)
    if core.url_parse_kernel is not None:
        return _make(rec, errs)  # the C twin's type (a URL the C parser left to this one)
    # (URL._from_record, with the slots' own setters: the pure twin's hot path)
    u = _new_url(URL)
    _set_r(u, rec)
    _set_parts(u, None)
    _set_href(u, _serialize(rec))
    _set_errors(u, errs)
    return u


_new_url = object.__new__
_set_r = URL.__dict__["_r"].__set__
_set_parts = URL.__dict__["_parts"].__set__
_set_href = URL.__dict__["href"].__set__
_set_errors = URL.__dict__["validation_errors"].__set__


if TYPE_CHECKING:
    parse = _parse
else:
    # With the C twin active, parse(s, base) (UTF-8) is src/csrc/url*.c, which
    # builds the URL or raises URLParseError itself; a legacy encoding, and the
    # rare input it leaves (see docs/url.md), run _parse.
    parse = _kernels.make_entry("url_parse", _parse, "parse")


def _can_parse(input: str, base: str | URL | None = None) -> bool:
    """Whether :func:`parse` would succeed (the URL API's ``canParse``, §6.1).

        >>> can_parse("/x"), can_parse("/x", "https://a.example")
        (False, True)
    """
    if core.url_parse_kernel is not None:
        if type(input) is str:
            # the C twin's parser without the URL object (src/csrc/url_object.c)
            ok: bool | None = _url_can_parse(input, base)
            if ok is not None:
                return ok
    try:
        _api_parse(input, base)
    except URLParseError:
        return False
    return True


if TYPE_CHECKING:
    can_parse = _can_parse
else:
    # With the C twin active, can_parse(s, base) is src/csrc/url_object.c's check, which
    # builds no URL; what it leaves (a lone surrogate, a host the hook declines) runs
    # _can_parse.
    can_parse = _kernels.make_entry("url_can_parse", _can_parse, "can_parse")

# --- explain ---------------------------------------------------------------


class ComponentReport(NamedTuple):
    """What the parser did to one component (see :func:`explain`)."""

    component: str
    input: str
    output: str
    encode_set: str | None
    encoded: tuple[tuple[str, str], ...]
    reason: str


def _changes(raw: str, eset: EncodeSet) -> tuple[tuple[str, str], ...]:
    seen: dict[str, str] = {}
    for ch in raw:
        if ch in eset and ch not in seen:
            seen[ch] = encode(ch, eset, errors="replace")
    return tuple(seen.items())


_REASONS = {
    "userinfo": "the userinfo percent-encode set (URL Standard §1.3), authority state",
    "path": "the path percent-encode set (URL Standard §1.3), path state",
    "opaque-path": "the C0 control percent-encode set, opaque path state (URL Standard §4.4)",
    "query": "the query percent-encode set (URL Standard §1.3), query state",
    "special-query": "the special-query percent-encode set: special schemes also encode ' "
    "(URL Standard §1.3)",
    "fragment": "the fragment percent-encode set (URL Standard §1.3), fragment state",
    "host": "the host parser: percent-decoded, domain to ASCII (UTS #46), IPv4/IPv6 "
    "serialized (URL Standard §3.5)",
    "opaque-host": "the opaque-host parser: the C0 control percent-encode set (URL Standard §3.5)",
}
# RFC 6068 §5: in a mailto: query a space is %20 and "+" is a plus sign.
_MAILTO_QUERY = ("; in a mailto: URL the query holds header fields where '+' is a plus sign, "
                 "not a space (a space is %20, RFC 6068 §5): read it with mailto.parse()")


def explain(input: str, base: str | URL | None = None) -> dict[str, Any]:
    """Component by component: the encode set applied, what it changed and why.

    Returns ``{"href", "components": [ComponentReport…], "validation_errors"}``;
    raises :class:`URLParseError` when the input does not parse.

        >>> r = explain("https://h.example/a b?x=' y")
        >>> [(c.component, c.encode_set) for c in r["components"]]
        [('host', None), ('path', 'path'), ('query', 'special-query')]
        >>> r["components"][2].encoded
        (("'", '%27'), (' ', '%20'))
    """
    raw: dict[str, str] = {}
    rec, errs, _ = _api_parse(input, base, raw=raw)
    u = URL._from_record(rec, errs)
    comps: list[ComponentReport] = []
    if "userinfo" in raw:
        ui = raw["userinfo"][:-1]
        out = rec.username + (":" + rec.password if rec.password else "")
        comps.append(ComponentReport("userinfo", ui, out, "userinfo",
                                     _changes(ui.replace("@", "\x00"), _get_set("userinfo")),
                                     _REASONS["userinfo"]))
    if rec.host is not None:
        kind = "opaque-host" if not rec.special else "host"
        comps.append(ComponentReport("host", raw.get("host", ""), u.hostname,
                                     "c0-control" if kind == "opaque-host" else None, (),
                                     _REASONS[kind]))
    if "port" in raw:
        comps.append(ComponentReport("port", raw["port"], u.port, None, (),
                                     "decimal, default port for the scheme dropped "
                                     "(URL Standard §4.4 port state)"))
    if rec.opaque_path:
        p = raw.get("path", "")
        comps.append(ComponentReport("path", p, u.pathname, "c0-control",
                                     _changes(p, _get_set("c0-control")),
                                     _REASONS["opaque-path"]))
    else:
        p = raw.get("path", "")
        comps.append(ComponentReport("path", p, u.pathname, "path",
                                     _changes(p, _get_set("path")), _REASONS["path"]))
    if rec.query is not None:
        q = raw.get("query", "")
        qset = "special-query" if rec.special else "query"
        why = _REASONS[qset]
        if rec.scheme == "mailto":
            why += _MAILTO_QUERY
        comps.append(ComponentReport("query", q, rec.query, qset, _changes(q, _get_set(qset)),
                                     why))
    if rec.fragment is not None:
        f = raw.get("fragment", "")
        comps.append(ComponentReport("fragment", f, rec.fragment, "fragment",
                                     _changes(f, _get_set("fragment")), _REASONS["fragment"]))
    return {"href": u.href, "components": comps, "validation_errors": list(errs)}
