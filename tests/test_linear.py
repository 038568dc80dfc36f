"""Standing check: every public entry point runs in linear time on adversarial input.

Each case calls one entry point (or a few that belong together, such as the methods of one
object) on input of size n and 4n and asserts that 4n takes less than 12x as long (linear
is 4x; see tests/helpers/linear_time.py for how the timing copes with a shared machine).  n is
calibrated per case so that a call at n takes several milliseconds of CPU time.

The adversarial input comes in three families, each a concatenation of long runs, so that
a quadratic algorithm on any run shows up:

* ``pct``: the ``%`` family: bare ``%``, ``%%``, ``%2``, ``%25`` nesting (``%252525…41``),
  runs of valid escapes;
* ``sep``: the form separators ``&``, ``=``, ``;``, ``+``, many tiny fields, then one huge
  field;
* ``bad``: text that does not decode: percent-encoded invalid UTF-8 runs (truncated
  sequences, encoded surrogates, ``%FF``) and raw non-ASCII (raw invalid UTF-8 where the
  entry point takes bytes);

all three in one input (``adv``, one huge field included) so that the module stays under a
minute; ``surrogates`` adds lone surrogates at the end, for the entry points that take them
(a decoder of a ``str`` stops at the first: it is not UTF-8); and ``strict``: valid escapes
with the one error at the very end, for the entry points that stop at the first error
(otherwise they would stop at position 0 and prove nothing).

The list of entry points is not kept by hand: test_every_entry_point_has_a_case walks the
``__all__`` of every public module (functions, classes, their public methods and
properties) and fails for one that has neither a case here nor a written reason in
NO_SIZE_INPUT.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import io
import sys
import warnings
from collections.abc import Callable
from typing import Any

import pytest

from helpers.linear_time import assert_linear
from helpers.public_modules import public_modules
from percent_encoding import (
    alpn,
    core,
    data_url,
    detect,
    ecmascript,
    encodings,
    form,
    fragments,
    html,
    idna,
    iri,
    legacy,
    mailto,
    oauth1,
    oauth2,
    rfc3986,
    rfc8187,
    schemes,
    sets,
    tcn,
    uritemplate,
    url,
    xpath,
)
from percent_encoding.errors import PercentEncodingError, PercentEncodingTypeError

OURS = (PercentEncodingError, PercentEncodingTypeError)


# ---------------------------------------------------------------------------
# Adversarial input, about n characters
# ---------------------------------------------------------------------------


def _register_and_forget(name: str) -> object:
    # Registration is global: leave no timing input behind for the other tests.
    from percent_encoding import sets

    try:
        return sets.register(name, sets.PATH)
    finally:
        sets._REGISTRY.pop(name, None)

def pct(n: int) -> str:
    """The '%' family: bare %, %%, %2, %25 nesting, valid escapes."""
    k = max(1, n // 14)
    return ("%" * (2 * k) + "%%" * k + "%2" * k + "%" + "25" * k + "41"
            + "%25" * k + "%41" * k)


def sep(n: int) -> str:
    """Separators (& = ; +), many tiny fields, then one huge field."""
    k = max(1, n // 10)
    return "&" * k + "=" * k + ";" * k + "+" * k + "a=b&" * k + "&a=" + "b" * (2 * k)


def bad(n: int) -> str:
    """Undecodable text: percent-encoded invalid UTF-8 runs, raw non-ASCII."""
    k = max(1, n // 24)
    return "%C3" * k + "%ED%A0%80" * k + "%FF" * k + "%F0%9F%98" * k + "é😀" * k


def surrogates(n: int) -> str:
    """The adversarial text, then lone surrogates (an encoder may stop at the first)."""
    k = max(1, n // 8)
    return adv(n - 3 * k) + "\ud800x" * k + "\udc00" * k


def strict(n: int) -> str:
    """Valid escapes, then the only error at the very end."""
    k = max(1, n // 10)
    return "%41%C3%A9" * k + "a" * k + "%"


def bad_bytes(n: int) -> bytes:
    """Raw invalid UTF-8 runs (truncated sequences, encoded surrogates, 0xFF), escapes."""
    k = max(1, n // 20)
    return b"\xc3" * k + b"\xed\xa0\x80" * k + b"\xff" * k + b"\xf0\x9f\x98" * k + b"%FF%C3" * k


def adv(n: int) -> str:
    """The three families in one input of about n characters."""
    return pct(n // 3) + sep(n // 3) + bad(n // 3)


def adv_bytes(n: int) -> bytes:
    return (pct(n // 3) + sep(n // 3)).encode() + bad_bytes(n // 3)


TEXT = {"adv": adv}
DATA = {"adv": adv_bytes}
# For the entry points that take text with lone surrogates (encoders, USV conversion): a
# decoder of a str stops at the first (it is not UTF-8), so those see "adv" alone.
TEXT_SUR = {"adv": adv, "surrogates": surrogates}


def pairs_of(make: Callable[[int], str], width: int = 4) -> Callable[[int], list[tuple[str, str]]]:
    """n/width/2 pairs cut from the text, then one pair with a huge value."""
    def build(n: int) -> list[tuple[str, str]]:
        s = make(n)
        cut = [s[i:i + width] for i in range(0, len(s) // 2, width)]
        return [*zip(cut[::2], cut[1::2], strict=False), ("huge", s[len(s) // 2:])]
    return build


def url_of(make: Callable[[int], str]) -> Callable[[int], str]:
    """An http URL with the text in its user info, path, query and fragment."""
    def build(n: int) -> str:
        q = max(1, n // 4)
        return (f"http://u:{make(q)}@a.example/{make(q)}?{make(q)}#{make(q)}")
    return build


# ---------------------------------------------------------------------------
# Cases
# ---------------------------------------------------------------------------

class Case:
    def __init__(self, covers: str | tuple[str, ...], family: str,
                 fn: Callable[[Any], Any], make: Callable[[int], Any], **opts: Any) -> None:
        self.covers = (covers,) if isinstance(covers, str) else covers
        self.family = family
        self.fn = fn
        self.make = make
        # At least 16k units: a quadratic part must be most of the time at n to show.
        self.opts = {"n0": 1 << 14, **opts}

    @property
    def id(self) -> str:
        return f"{self.covers[0].removeprefix('percent_encoding.')}[{self.family}]"


def on(covers: str | tuple[str, ...], fn: Callable[[Any], Any],
       families: dict[str, Callable[[int], Any]] = TEXT, **opts: Any) -> list[Case]:
    return [Case(covers, fam, fn, make, **opts) for fam, make in families.items()]


def _quiet(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Our errors are an answer too (only the time matters); anything else fails."""
    def call(arg: Any) -> Any:
        try:
            r = fn(arg)
            return list(r) if hasattr(r, "__next__") else r
        except OURS:
            return None
    return call


P = "percent_encoding."
STRICT = {"strict": strict}
TEXT_STRICT = {**TEXT, **STRICT}


def _search_params_all(s: str) -> None:
    p = form.URLSearchParams(s)
    q = p.copy()
    p.append("a", s[:100])
    p.set("b", "x")
    p.get("a"), p.get_all("a"), p.has("a"), p.has("a", "b"), p.size
    p.delete("zz")
    p.delete("a", "b")
    list(p.items()), list(p.keys()), list(p.values()), list(p.entries())
    p.for_each(lambda v, k, sp: None)
    p.sort()
    p.to_string()
    q.getAll("a"), q.toString()
    q.forEach(lambda v, k, sp: None)


def _paragraph(sc: detect.SpaceConvention) -> str:
    with warnings.catch_warnings():  # deprecated, still public
        warnings.simplefilter("ignore", DeprecationWarning)
        return sc.paragraph


def _form_parser(data: bytes, **kw: Any) -> Any:
    fp = form.FormParser(**kw)
    out = []
    for i in range(0, len(data), 997):  # odd chunks: cut escapes and separators
        out += fp.feed(data[i:i + 997])
    assert fp.fields >= 0 and fp.total >= 0
    return out + fp.close()


def _url_all(s: str) -> None:
    u = url.URL(s)
    _ = (u.href, u.origin, u.protocol, u.scheme, u.username, u.password, u.host, u.hostname,
         u.port, u.pathname, u.search, u.search_params, u.hash, u.has_opaque_path)
    u.replace(pathname=s[:len(s) // 2], search=s[len(s) // 2:])


def _uritemplate_vars(s: str) -> dict[str, Any]:
    return {"x": s, "list": [*s.split("&")[:1000], s], "keys": {"k": s, s[:50]: "v"}}


def _encoding_methods(data: bytes) -> None:
    for name in ("utf-8", "shift_jis", "gb18030", "iso-2022-jp", "utf-16le", "windows-1252"):
        enc = encodings.lookup(name)
        text = enc.decode(data)
        enc.encode(text, "html")
        enc.encode_segments(text)


def _cli(argv: list[str], stdin: bytes = b"") -> int | None:
    from percent_encoding import cli

    old = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8", errors="surrogateescape")
    sys.stdout = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    sys.stderr = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="backslashreplace")
    try:
        return cli.main(argv)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 1
    finally:
        sys.stdout.flush()
        sys.stdin, sys.stdout, sys.stderr = old


def cli_on(fn: Callable[[Any], Any], families: dict[str, Callable[[int], Any]] = TEXT,
           ) -> list[Case]:
    # Building the argument parser costs 2-3 ms: time enough input to outweigh it.
    return on(P + "cli.main", fn, families, target=0.012, n0=4096)


def _cli_arg(text: str) -> str:
    # An argv string cannot hold a lone surrogate that was not a byte: keep it representable.
    return text.encode("utf-8", "surrogatepass").decode("utf-8", "surrogateescape")


def _arrow_column(make: Callable[[int], Any]) -> Callable[[int], Any]:
    def build(n: int) -> Any:
        pa = pytest.importorskip("pyarrow")
        s = make(n)
        if isinstance(s, str):
            s = s.encode("utf-8", "surrogatepass")
        rows = [s[i:i + 40] for i in range(0, len(s) // 2, 40)] + [None, s[len(s) // 2:]]
        return pa.array(rows, pa.binary())
    return build


def _as_text_column(col: Any) -> Any:
    # The string column of the same rows (invalid UTF-8 replaced): decode_text/encode accept
    # binary too, form_parse and form_get read text; both types are exercised.
    import pyarrow as pa

    return pa.array([None if v is None else v.decode("utf-8", "replace")
                     for v in col.to_pylist()], pa.string())


def _cases() -> list[Case]:
    from percent_encoding import arrow

    c: list[Case] = []
    # --- core: the two kernels and their wrappers --------------------------------------
    c += on(P + "core.decode", lambda s: core.decode(s))
    c += on(P + "core.decode", lambda s: core.decode(s, plus_as_space=True), DATA)
    c += on(P + "core.decode", _quiet(lambda s: core.decode(s, strict=True)), STRICT)
    c += on(P + "core.decode_text", lambda s: core.decode_text(s, plus_as_space=True))
    c += on(P + "core.decode_text", lambda s: core.decode_text(s, encoding="shift_jis"), DATA)
    c += on(P + "core.decode_text",
            _quiet(lambda s: core.decode_text(s, errors="strict", strict=True)), TEXT_STRICT)
    c += on(P + "core.encode", lambda s: core.encode(s, errors="replace", space_as_plus=True),
            TEXT_SUR)
    c += on(P + "core.encode", lambda s: core.encode(s, "path", encoding="gb18030"), DATA)
    c += on(P + "core.encode", _quiet(lambda s: core.encode(s, "query", encoding="big5")))
    c += on(P + "core.to_usv_string", core.to_usv_string, TEXT_SUR)
    # --- forms -------------------------------------------------------------------------
    c += on(P + "form.parse", lambda s: form.parse(s, separators="&;"), TEXT_SUR)
    c += on(P + "detect.parse_form", lambda d: detect.parse_form(d, per_field=True), DATA)
    c += on(P + "legacy.whatwg_form_parse",
            lambda d: legacy.whatwg_form_parse(d, encoding="windows-1252", charset_hack=True,
                                               isindex=True), DATA)
    c += on(P + "form.parse", _quiet(lambda s: form.parse(s, errors="strict", strict=True)),
            TEXT_STRICT)
    c += on(P + "form.parse", _quiet(lambda s: form.parse(s, max_fields=1000,
                                                          max_field_size=10_000)))
    c += on(P + "form.parse_bytes", lambda d: form.parse_bytes(d, separators="&;",
                                                               strip_leading_question_mark=True),
            DATA)
    c += on(P + "form.parse_bytes", lambda s: form.parse_bytes(s, isindex=True))
    c += on((P + "form.FormParser", P + "form.FormParser.feed", P + "form.FormParser.close",
             P + "form.FormParser.fields", P + "form.FormParser.total"),
            lambda d: _form_parser(d, encoding="shift_jis", separators="&;"), DATA)
    c += on(P + "form.FormParser", lambda d: _form_parser(d), DATA)
    c += on(P + "form.FormParser", _quiet(lambda d: _form_parser(d, max_field_size=5000,
                                                                 errors="strict")), DATA)
    c += on(P + "form.serialize", lambda p: form.serialize(p, encoding="shift_jis"),
            {k: pairs_of(v) for k, v in TEXT.items()})
    c += on(P + "form.group", form.group, {k: pairs_of(v, 2) for k, v in TEXT.items()})
    for enctype in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data"):
        c += on(P + "form.html_form_body", lambda p, e=enctype: form.html_form_body(
            p, enctype=e, encoding="windows-1252", boundary="b"),
            {k: pairs_of(v) for k, v in TEXT.items()})
    c += on(P + "form.html_form_body", lambda p: form.html_form_body(
        [("isindex", p[0][1]), *p], isindex=True, mailto="headers"),
        {"sep": pairs_of(sep)})
    c += on(P + "form.html_form_body", lambda p: form.html_form_body(
        p, enctype="text/plain", mailto="body"), {"pct": pairs_of(pct)})
    c += on(P + "form.File", lambda p: form.html_form_body(
        [(n, form.File(v, v.encode("utf-8", "replace"), "text/plain")) for n, v in p],
        enctype="multipart/form-data", boundary="b"), {k: pairs_of(v) for k, v in TEXT.items()})
    c += on(P + "form.File", lambda p: form.html_form_body(
        [(n, form.File(v)) for n, v in p]), {"newlines": pairs_of(lambda n: "\r\n\"\r" * (n // 4))})
    c += on(P + "form.multipart_escape", form.multipart_escape,
            {**TEXT_SUR, "newlines": lambda n: "\r\n\"\r" * (n // 4)})
    c += on(P + "form.ParsedForm", lambda p: form.ParsedForm(
        p, detect.CharsetGuess("utf-8", 1.0, "test")), {"sep": pairs_of(sep)})
    c += on((P + "form.URLSearchParams", *(P + "form.URLSearchParams." + m for m in (
        "size", "append", "delete", "get", "get_all", "getAll", "has", "set", "sort",
        "to_string", "toString", "items", "entries", "keys", "values", "for_each", "forEach",
        "copy"))), _search_params_all, TEXT_SUR)
    c += on(P + "form.URLSearchParams", lambda p: str(form.URLSearchParams(p)),
            {"sep": pairs_of(sep, 2)})
    # --- arrow (one column of adversarial rows, then one huge row) ----------------------
    cols = {k: _arrow_column(v) for k, v in DATA.items()}
    c += on(P + "arrow.decode", lambda a: arrow.decode(a, plus_as_space=True), cols)
    c += on(P + "arrow.decode_text", lambda a: arrow.decode_text(a, errors="null"), cols)
    c += on(P + "arrow.decode_text", lambda a: arrow.decode_text(a, encoding="shift_jis"),
            cols)
    c += on(P + "arrow.encode", lambda a: arrow.encode(a, "query", space_as_plus=True), cols)
    c += on(P + "arrow.form_parse", lambda a: arrow.form_parse(_as_text_column(a)), cols)
    c += on(P + "arrow.form_get", lambda a: arrow.form_get(_as_text_column(a), "a"), cols)
    # rows of URLs: the adversarial text behind a scheme and host, cut into rows, and one
    # huge host (the C parser's host scan and the Python fallback both see it)
    url_cols = {"adv": _arrow_column(url_of(adv)),
                "host": _arrow_column(lambda n: "http://" + "a." * (n // 2) + "example/")}
    c += on(P + "arrow.url_parse", lambda a: arrow.url_parse(_as_text_column(a)), url_cols)
    c += on(P + "arrow.url_component", lambda a: arrow.url_component(
        _as_text_column(a), "hostname", "http://base.example/"), url_cols)
    c += on(P + "arrow.url_can_parse", lambda a: arrow.url_can_parse(_as_text_column(a)),
            url_cols)
    return c + _engine_cases(cols) + _other_cases()


def _engine_cases(cols: dict[str, Callable[[int], Any]]) -> list[Case]:
    """The engine adapters: each runs the arrow kernels over the same adversarial column
    (as text, so that every method applies); an engine that is not installed skips."""
    def text(make: Callable[[int], Any]) -> Callable[[int], Any]:
        return lambda n: _as_text_column(make(n))

    tcols = {k: text(v) for k, v in cols.items()}
    methods = ("decode_text", "decode", "encode", "form_get", "form_parse")

    def run_all(obj: Any) -> None:
        obj.decode_text(errors="replace")
        obj.decode(plus_as_space=True)
        obj.encode("query")
        obj.form_get("a")
        obj.form_parse()

    def polars_series(col: Any) -> None:
        pl = pytest.importorskip("polars")
        import percent_encoding.polars  # noqa: F401  (registers the namespaces)

        run_all(pl.Series("u", col).pe)

    def polars_expr(col: Any) -> None:
        pl = pytest.importorskip("polars")
        import percent_encoding.polars  # noqa: F401

        e = pl.col("u").pe
        pl.DataFrame({"u": pl.Series("u", col)}).lazy().select(
            e.decode_text().alias("t"), e.decode().alias("b"), e.encode("query").alias("e"),
            e.form_get("a").alias("g"), e.form_parse().alias("p")).collect()

    def pandas_accessor(col: Any) -> None:
        pd = pytest.importorskip("pandas")
        import percent_encoding.pandas  # noqa: F401  (registers the accessor)

        run_all(pd.Series(col.to_pylist(), dtype="string[pyarrow]").pe)

    def duckdb_functions(col: Any) -> None:
        duckdb = pytest.importorskip("duckdb")
        import pyarrow as pa

        from percent_encoding import duckdb as pe_duckdb

        con = duckdb.connect()
        pe_duckdb.register(con)
        con.register("t", pa.table({"u": col}))
        con.execute("SELECT pe_decode_text(u), pe_decode(u), pe_encode(u, 'query'), "
                    "pe_form_get(u, 'a') FROM t").fetchall()

    def dask_functions(col: Any) -> None:
        pd = pytest.importorskip("pandas")
        dd = pytest.importorskip("dask.dataframe")
        from percent_encoding import dask as pe_dask

        s = dd.from_pandas(pd.Series(col.to_pylist(), dtype="string[pyarrow]"), npartitions=2)
        for name in methods:
            args = ("a",) if name == "form_get" else ()
            getattr(pe_dask, name)(s, *args).compute(scheduler="sync")

    def url_engines(col: Any) -> None:
        # the URL column methods of the pandas accessor and the Dask functions (Polars and
        # DuckDB register theirs in the classes and functions covered above)
        pd = pytest.importorskip("pandas")
        import percent_encoding.pandas  # noqa: F401

        s = pd.Series(col.to_pylist(), dtype="string[pyarrow]")
        s.pe.url_parse()
        s.pe.url_component("hostname", "http://base.example/")
        s.pe.url_can_parse()
        dd = pytest.importorskip("dask.dataframe")
        from percent_encoding import dask as pe_dask

        d = dd.from_pandas(s, npartitions=2)
        for name in ("url_parse", "url_can_parse"):
            getattr(pe_dask, name)(d).compute(scheduler="sync")
        pe_dask.url_component(d, "host").compute(scheduler="sync")

    url_methods = ("url_parse", "url_component", "url_can_parse")
    ucols = {"adv": text(_arrow_column(url_of(adv)))}

    c: list[Case] = []
    c += on((*(P + "pandas.PercentEncodingAccessor." + m for m in url_methods),
             *(P + "dask." + m for m in url_methods)), url_engines, ucols)
    c += on((P + "polars.PercentEncodingSeries",), polars_series, tcols)
    c += on((P + "polars.PercentEncodingExpr",), polars_expr, tcols)
    c += on((P + "pandas.PercentEncodingAccessor",
             *(P + "pandas.PercentEncodingAccessor." + m for m in methods)),
            pandas_accessor, tcols)
    c += on((P + "duckdb.register",), duckdb_functions, tcols)
    c += on(tuple(P + "dask." + m for m in methods), dask_functions, tcols)
    return c


def _other_cases() -> list[Case]:
    c: list[Case] = []
    q = _quiet
    # --- detect ------------------------------------------------------------------------
    c += on(P + "detect.diagnose", lambda s: detect.diagnose(s), TEXT_SUR)
    c += on(P + "detect.diagnose", lambda s: detect.diagnose(s, context="form"), {"pct": pct})
    c += on(P + "detect.form_conformance", detect.form_conformance,
            {"pct": pct, "adv": adv, "semicolons": lambda n: ";" * n,
             "empty fields": lambda n: "=;" * (n // 2), "mid-id": lambda n: "a%ff@b.c" * (n // 8)})
    c += on((P + "detect.space_convention", P + "detect.SpaceConvention.paragraph"),
            lambda s: _paragraph(detect.space_convention(s, method="GET")),
            {k: url_of(v) for k, v in TEXT.items()})
    c += on(P + "detect.undo_double_encoding", detect.undo_double_encoding)
    c += on(P + "detect.variants", detect.variants)
    c += on(P + "detect.charset", lambda d: detect.charset(d), DATA)
    form_pairs = {k: (lambda n, v=v: form.parse_bytes(v(n))) for k, v in DATA.items()}
    c += on(P + "detect.choose_form_encoding",
            lambda p: detect.choose_form_encoding(p, probe=("a", "é")), form_pairs)
    c += on(P + "detect.form_field_charsets",
            lambda p: detect.form_field_charsets(p, content_type_charset="utf-8"), form_pairs)
    # --- encodings ---------------------------------------------------------------------
    c += on(P + "encodings.decode", lambda d: encodings.decode(d, "gb18030"), DATA)
    c += on(P + "encodings.decode", lambda d: encodings.decode(d, "iso-2022-jp"),
            {"esc": lambda n: b"\x1b$B" * (n // 3) + b"\x1b" * n})
    c += on(P + "encodings.encode", q(lambda s: encodings.encode(s, "shift_jis", errors="html")),
            TEXT_SUR)
    c += on(P + "encodings.utf8_decode_without_bom", encodings.utf8_decode_without_bom, DATA)
    c += on(P + "encodings.bom_sniff", encodings.bom_sniff, DATA)
    c += on((P + "encodings.Encoding.decode", P + "encodings.Encoding.encode",
             P + "encodings.Encoding.encode_segments"), _encoding_methods, DATA)
    c += on(P + "encodings.lookup", q(encodings.lookup),
            {"spaces": lambda n: " " * n + "utf-8" + "\t" * n, **TEXT})
    c += on(P + "encodings.index", q(encodings.index), {"long": lambda n: "x" * n})
    c += on(P + "encodings.is_utf8", q(encodings.is_utf8),
            {"spaces": lambda n: " " * n + "utf8" + "\t" * n, **TEXT})
    # --- ECMAScript (the camelCase names are the same functions) ------------------------
    for name in ("decode_uri", "decode_uri_component", "unescape"):
        c += on(P + f"ecmascript.{name}", q(getattr(ecmascript, name)), TEXT_STRICT)
    for name in ("encode_uri", "encode_uri_component", "escape"):
        c += on(P + f"ecmascript.{name}", q(getattr(ecmascript, name)),
                {**TEXT, "surrogate at end": lambda n: "😀" * n + "\ud800"})
    # --- URI Templates -----------------------------------------------------------------
    c += on(P + "uritemplate.expand", q(lambda s: uritemplate.expand(s, {"x": "%"})),
            {**TEXT, "{": lambda n: "{" * n,
             "ops": lambda n: "{+x}{#x}{.x}{/x*}{;x}{?x}" * (n // 24)})
    c += on((P + "uritemplate.UriTemplate", P + "uritemplate.UriTemplate.expand",
             P + "uritemplate.UriTemplate.level"),
            lambda s: (t := uritemplate.UriTemplate("{x}{+list*}{?keys*}{#x:30}")).expand(
                _uritemplate_vars(s)) + str(t.level))
    c += on(P + "uritemplate.UriTemplate", q(uritemplate.UriTemplate),
            {"literal %25": lambda n: "%25" * n, "vars": lambda n: "{a,b,c}" * (n // 7)})
    # --- OAuth -------------------------------------------------------------------------
    c += on(P + "oauth1.encode", q(oauth1.encode), {**TEXT_SUR, **{"bytes " + k: v
                                                          for k, v in DATA.items()}})
    c += on(P + "oauth1.decode", q(oauth1.decode), TEXT_STRICT)
    c += on(P + "oauth1.decode_bytes", q(oauth1.decode_bytes), TEXT_STRICT)
    c += on(P + "oauth1.normalize_parameters", q(oauth1.normalize_parameters),
            {k: pairs_of(v) for k, v in TEXT.items()})
    c += on(P + "oauth1.signature_base_string",
            q(lambda u: oauth1.signature_base_string("GET", u)),
            {k: (lambda n, v=v: "http://a.example/p?" + v(n)) for k, v in TEXT.items()})
    c += on(P + "oauth1.signature_base_string",
            q(lambda d: oauth1.signature_base_string("POST", "http://a.example/", body=d,
                                                     oauth_params=[("oauth_nonce", "x")])),
            DATA)
    c += on(P + "oauth1.signature_base_string",
            q(lambda p: oauth1.signature_base_string("POST", "http://a.example/?a=b", body=p,
                                                     oauth_params=p[:5])),
            {"pairs": pairs_of(sep, 2),
             "distinct pairs": lambda n: [(f"n{i * 7919 % n}", "v") for i in range(n // 8)]})
    c += on(P + "oauth1.base_string_uri", q(oauth1.base_string_uri),
            {k: url_of(v) for k, v in TEXT.items()})
    c += on(P + "oauth1.hmac_sha1_signature",
            q(lambda s: oauth1.hmac_sha1_signature(s, s, s)))
    c += on(P + "oauth1.plaintext_signature", q(lambda s: oauth1.plaintext_signature(s, s)))
    c += on(P + "oauth1.authorization_header",
            q(lambda p: oauth1.authorization_header(p, realm="r\\\"" * 100)),
            {k: pairs_of(v) for k, v in TEXT.items()})
    c += on(P + "oauth1.parse_authorization_header", q(oauth1.parse_authorization_header),
            {"quoted": lambda n: 'OAuth a="' + "\\\\\\\"" * (n // 4) + '"',
             "params": lambda n: "OAuth " + 'a="%41", ' * (n // 10) + "b=c",
             "commas": lambda n: "OAuth " + "," * n,
             **{k: (lambda n, v=v: 'OAuth a="' + v(n) + '"') for k, v in TEXT.items()}})
    c += on(P + "oauth2.encode", oauth2.encode)
    c += on(P + "oauth2.decode", q(oauth2.decode), TEXT_STRICT)
    c += on(P + "oauth2.basic_auth", q(lambda s: oauth2.basic_auth(s, s)))
    c += on(P + "oauth2.parse_basic_auth", q(oauth2.parse_basic_auth),
            {"base64": lambda n: "Basic " + "QTpC" * (n // 4), "spaces": lambda n: " " * n,
             **TEXT})
    c += on(P + "oauth2.parse_redirect", q(oauth2.parse_redirect),
            {"fields": lambda n: "https://c.example/cb?" + "a=b+c&" * (n // 6) + "code=x",
             "repeats": lambda n: "https://c.example/cb#" + "&" * n + "code=x&code=y",
             **{k: (lambda n, v=v: "https://c.example/cb?" + v(n)) for k, v in TEXT.items()},
             **{k: (lambda n, v=v: "https://c.example/cb#" + v(n)) for k, v in TEXT.items()}})
    # --- RFC 8187 / Content-Disposition ------------------------------------------------
    c += on(P + "rfc8187.encode", q(lambda s: rfc8187.encode(s, "UTF-8", language="en")), TEXT_SUR)
    c += on(P + "rfc8187.decode", q(rfc8187.decode),
            {k: (lambda n, v=v: "UTF-8'en'" + v(n)) for k, v in TEXT_STRICT.items()})
    c += on(P + "rfc8187.decode", q(lambda s: rfc8187.decode(s, errors="replace")),
            {k: (lambda n, v=v: "ISO-8859-1''" + v(n)) for k, v in TEXT.items()})
    c += on(P + "rfc8187.content_disposition", q(lambda s: rfc8187.content_disposition(s)))
    c += on((P + "rfc8187.parse_content_disposition", P + "rfc8187.ContentDisposition.type",
             P + "rfc8187.ContentDisposition.params", P + "rfc8187.ContentDisposition.filename"),
            q(lambda h: (cd := rfc8187.parse_content_disposition(h, rfc2231=True,
                                                                 decode_plain_filename=True),
                         cd.type, cd.params, cd.filename)),
            {"params": lambda n: "attachment" + "; a=b" * (n // 5),
             "continuations": lambda n: "attachment" + "".join(
                 f"; filename*{i}*=%41" for i in range(n // 18)),
             "quoted": lambda n: 'attachment; filename="' + "\\\\\\\"" * (n // 4) + '"',
             ";": lambda n: "attachment" + ";" * n,
             **{k: (lambda n, v=v: "attachment; filename*=UTF-8''" + v(n))
                for k, v in TEXT.items()}})
    c += on(P + "rfc8187.parse_content_disposition",
            q(lambda h: rfc8187.parse_content_disposition(h, strict=True)),
            {"strict": lambda n: "attachment" + "; a=b" * (n // 5) + "; a"})
    c += on(P + "rfc8187.ContentDisposition",
            q(lambda p: rfc8187.ContentDisposition("attachment", dict(p))),
            {"sep": pairs_of(sep)})
    # --- ALPN (RFC 7301 §3.1: an ID is at most 255 octets, so these stop early) ---------
    c += on(P + "alpn.decode", q(lambda s: alpn.decode(s, canonical=True)))
    c += on(P + "alpn.encode", q(alpn.encode), {**TEXT, **{"bytes " + k: v
                                                          for k, v in DATA.items()}})
    c += on(P + "alpn.equal", q(lambda s: alpn.equal(s, s)))
    c += on(P + "alpn.is_canonical", q(alpn.is_canonical))
    c += on(P + "alpn.parse_alt_svc", q(alpn.parse_alt_svc),
            {"alternatives": lambda n: 'h2=":443"; ma=1, ' * (n // 17) + 'h3=":1"',
             "params": lambda n: 'h2=":443"' + "; a=b" * (n // 5),
             "commas": lambda n: "," * n + 'h2=":1"',
             "quoted": lambda n: 'h2=":1"; a="' + '\\"' * (n // 2) + '"',
             **{k: (lambda n, v=v: v(n) + '=":1"') for k, v in TEXT.items()}})
    c += on(P + "alpn.alt_svc",
            q(lambda s: alpn.alt_svc([("h2", ":443", [("a", s), ("b", "c")])] * 4
                                     + [(s[:200] or "x", "h:1", {"q": '"' * len(s)})])),
            TEXT_SUR)
    # --- data: URLs (Fetch §6, Infra §7, MIME Sniffing §4.4) ---------------------------
    c += on(P + "data_url.parse", q(data_url.parse),
            {"base64": lambda n: "data:;base64," + "QUJD %20" * (n // 8),
             "params": lambda n: "data:text/plain" + ";a=b" * (n // 4) + ",x",
             **{k: (lambda n, v=v: "data:" + v(n)) for k, v in TEXT.items()},
             **{k: (lambda n, v=v: "data:text/plain;base64," + v(n)) for k, v in TEXT.items()}})
    c += on(P + "data_url.forgiving_base64_decode", q(data_url.forgiving_base64_decode),
            {"base64": lambda n: "QUJD \n" * (n // 6), "bad end": lambda n: "QUJD" * (n // 4)
             + "=", **TEXT})
    c += on((P + "data_url.parse_mime_type", P + "data_url.serialize_mime_type"),
            q(lambda s: (m := data_url.parse_mime_type(s)) and data_url.serialize_mime_type(m)),
            {"params": lambda n: "text/plain" + ';a="\\\\"' * (n // 8),
             "semicolons": lambda n: "text/plain" + ";" * n,
             **{k: (lambda n, v=v: "text/plain;a=" + v(n)) for k, v in TEXT.items()}})
    # --- mailto: (RFC 6068) --------------------------------------------------------------
    c += on(P + "mailto.parse", q(mailto.parse),
            {"commas": lambda n: "mailto:" + "," * n + "?to=" + "a@b," * (n // 4),
             "fields": lambda n: "mailto:?" + "a=b&" * (n // 4) + "&" * (n // 4),
             **{k: (lambda n, v=v: "mailto:" + v(n)) for k, v in TEXT.items()}})
    c += on(P + "mailto.build",
            q(lambda s: mailto.build([s, '"' + s[:len(s) // 2] + '"@x'],
                                     [("subject", s.replace("\n", " ").replace("\r", " ")),
                                      ("body", s + "\r\n\r\n" * 100)])), TEXT_SUR)
    # --- RFC 3986 ----------------------------------------------------------------------
    dots = {"/..": lambda n: "/.." * (n // 3), "/a/..": lambda n: "/a" * (n // 4) + "/.." * (
        n // 4), "./": lambda n: "./" * (n // 2) + "a"}
    c += on(P + "rfc3986.encode", q(lambda s: rfc3986.encode(s, "query")))
    c += on(P + "rfc3986.remove_dot_segments", rfc3986.remove_dot_segments, {**TEXT, **dots})
    c += on(P + "rfc3986.normalize", q(lambda s: rfc3986.normalize(s, scheme_based=True)),
            {**{k: url_of(v) for k, v in TEXT.items()},
             **{k: (lambda n, v=v: "HTTP://A.example" + v(n)) for k, v in dots.items()}})
    c += on(P + "rfc3986.normalize_percent_encoding", q(rfc3986.normalize_percent_encoding))
    c += on(P + "rfc3986.requote", rfc3986.requote)
    c += on(P + "rfc3986.split", q(rfc3986.split),
            {**TEXT, **{k: url_of(v) for k, v in TEXT.items()}, "?": lambda n: "?" * n,
             "//": lambda n: "//" + "@" * n + "[" * n})
    c += on(P + "rfc3986.split_authority", q(rfc3986.split_authority),
            {"@": lambda n: "@" * n, "[": lambda n: "[" * n, ":": lambda n: ":" * n, **TEXT})
    c += on((P + "rfc3986.recompose", P + "rfc3986.Components.recompose"),
            lambda s: (rfc3986.recompose(rfc3986.split(s)), rfc3986.split(s).recompose()),
            {k: url_of(v) for k, v in TEXT.items()})
    c += on(P + "rfc3986.resolve", q(lambda s: rfc3986.resolve("http://a/b/c/d;p?q", s)),
            {**TEXT, **dots})
    c += on(P + "rfc3986.resolve", q(lambda s: rfc3986.resolve(s, "../g")),
            {k: url_of(v) for k, v in TEXT.items()})
    c += on(P + "rfc3986.equivalent", q(lambda s: rfc3986.equivalent(s, s.lower())),
            {k: url_of(v) for k, v in TEXT.items()})
    # --- IRI / XPath / HTML ------------------------------------------------------------
    c += on(P + "iri.iri_to_uri", q(iri.iri_to_uri), TEXT_SUR)
    c += on(P + "iri.iri_to_uri", q(lambda s: iri.iri_to_uri(s, strict=True)),
            {"bidi at end": lambda n: "é" * n + "\u202e"})
    c += on(P + "iri.uri_to_iri", q(iri.uri_to_iri))
    # IDNA: Punycode is quadratic in one label (RFC 3492 §6.3), and a label is short in
    # a real name, so the growing input is the number of labels (and their errors).
    labels = {"labels": lambda n: "bü." * (n // 3), "ascii": lambda n: "a." * (n // 2),
              "xn--": lambda n: "xn--mnchen-3ya." * (n // 15),
              "errors": lambda n: "a\u200db." * (n // 5) + "\u0300",
              "forbidden": lambda n: "é." * (n // 2) + "<"}
    c += on(P + "idna.to_ascii", q(idna.to_ascii), {**TEXT, **labels})
    c += on(P + "idna.to_ascii", q(lambda s: idna.to_ascii(s, url_rules=False, be_strict=True)),
            labels)
    c += on(P + "idna.to_unicode", q(lambda s: idna.to_unicode(s, strict=True)),
            {**TEXT, **labels})
    c += on(P + "iri.iri_to_uri", q(lambda s: iri.iri_to_uri(s, hosts="idna")),
            {k: (lambda n, f=f: "http://" + f(n) + "x/p") for k, f in labels.items()})
    c += on(P + "iri.uri_to_iri", q(lambda s: iri.uri_to_iri(s, hosts="unicode")),
            {k: (lambda n, f=f: "http://" + f(n) + "x/p") for k, f in labels.items()})
    # --- RFC 2295 / RFC 2506 -------------------------------------------------------------
    for fn in (tcn.encode_description, tcn.encode_feature_tag, tcn.encode_feature_value):
        c += on(P + f"tcn.{fn.__name__}", q(fn), TEXT_SUR)
    c += on(P + "tcn.decode_description", q(tcn.decode_description), TEXT_STRICT)
    c += on(P + "tcn.decode_description", q(lambda s: tcn.decode_description(
        '"' + s.replace("\\", "").replace('"', "") + '"', strict=True, errors="strict")),
        {**TEXT, "pairs": lambda n: '\\"' * (n // 2)})
    c += on(P + "tcn.decode_feature_tag", q(tcn.decode_feature_tag), TEXT_STRICT)
    c += on(P + "tcn.decode_feature_value", q(tcn.decode_feature_value),
            {**TEXT, "quoted": lambda n: '"' + '\\"' * (n // 2) + '"'})
    # RFC 2533 §4.1 string values: no escape, so long valid ones (backslashes and '%'
    # included, which stand for themselves) as well as the usual adversarial text
    printable = {"printable": lambda n: "a\\%=( )" * (n // 8)}
    c += on(P + "tcn.encode_feature_string", q(tcn.encode_feature_string),
            {**TEXT_SUR, **printable})
    c += on(P + "tcn.decode_feature_string", q(tcn.decode_feature_string),
            {**TEXT_STRICT, **{k: (lambda n, f=f: '"' + f(n) + '"')
                               for k, f in printable.items()}})
    c += on(P + "xpath.encode_for_uri", q(xpath.encode_for_uri), TEXT_SUR)
    c += on(P + "xpath.iri_to_uri", xpath.iri_to_uri)
    c += on(P + "xpath.escape_html_uri", xpath.escape_html_uri)
    c += on(P + "html.protocol_handler_url",
            q(lambda s: html.protocol_handler_url("https://h.example/?u=%s", s)),
            {k: url_of(v) for k, v in TEXT.items()})
    # (A growing template is one str.replace: at 4M characters the call is a 16 MB copy
    # whose time is the VM's page faults on fresh memory, 30x that of 1M: a case on it
    # measured the allocator, so the url argument above is the growing input.)
    # --- URL ---------------------------------------------------------------------------
    urls = {**{k: url_of(v) for k, v in TEXT_SUR.items()},
            "host": lambda n: "http://" + "a." * (n // 2) + "example/",
            "host %41": lambda n: "http://" + "%41" * (n // 3) + "/",
            "ipv6": lambda n: "http://[" + "1:" * (n // 2) + "]/",
            "path ..": lambda n: "http://a.example" + "/.." * (n // 3) + "/a" * (n // 2),
            "opaque": lambda n: "web+x:" + pct(n)}
    c += on(P + "url.parse", q(url.parse), urls)
    c += on(P + "url.parse", q(lambda s: url.parse(s, "http://a.example/b/",
                                                 encoding="windows-1252")),
            {k: v for k, v in TEXT.items()})
    few = {k: urls[k] for k in ("adv", "host %41", "path ..")}
    c += on(P + "url.parse", q(lambda s: url.parse(s, edition="2016-01-14")),
            {**few, "fragment": lambda n: "http://h/a%2eb#" + "é <" * (n // 3)})
    c += on(P + "url.can_parse", url.can_parse, few)
    c += on(P + "url.explain", q(url.explain), few, n0=4096)  # ~5 µs a character
    c += on((P + "url.URL", *(P + "url.URL." + m for m in (
        "origin", "protocol", "scheme", "username", "password", "host", "hostname",
        "port", "pathname", "search", "search_params", "hash", "has_opaque_path",
        "replace"))), q(_url_all), few)
    # --- legacy ------------------------------------------------------------------------
    for name in ("cgi_encode", "dotnet_escape_data_string", "go_path_escape",
                 "go_query_escape", "html4_form_encode_component", "java_urlencode",
                 "php_rawurlencode", "php_urlencode", "rfc1738_encode", "rfc2396_encode",
                 "rfc2732_encode", "ruby_cgi_escape", "ruby_encode_www_form_component",
                 "slug_encode", "xforms_encode_component"):
        c += on(P + f"legacy.{name}", q(getattr(legacy, name)), TEXT_SUR)
    for name in ("dotnet_unescape_data_string", "go_path_unescape", "go_query_unescape",
                 "java_urldecode", "php_rawurldecode", "php_urldecode", "ruby_cgi_unescape",
                 "ruby_decode_www_form_component", "rfc_decode", "cgi_decode", "slug_decode",
                 "cgi_search_words", "html4_form_decode"):
        c += on(P + f"legacy.{name}", q(getattr(legacy, name)), TEXT_STRICT)
    for fn in (legacy.rfc_decode, legacy.cgi_decode, legacy.slug_decode):
        c += on(P + f"legacy.{fn.__name__}", q(lambda s, f=fn: f(s, strict=True)), TEXT_STRICT)
    c += on(P + "legacy.cgi_path_info", q(lambda s: legacy.cgi_path_info("/" + s)),
            {**TEXT, "params": lambda n: "/a;p=%2F" * (n // 8),
             "slashes": lambda n: "/%2F" * (n // 4)})
    c += on(P + "legacy.cgi_path_info", q(lambda s: legacy.cgi_path_info(
        "/" + s, encoded_slash="keep", parameters="keep")),
            {**TEXT, "slashes": lambda n: "/%2F;x" * (n // 6)})
    c += on(P + "legacy.php_parse_str",
            q(lambda s: legacy.php_parse_str(s, max_input_vars=10**9)),
            {**TEXT, "brackets": lambda n: "a" + "[" * n + "=1",
             "arrays": lambda n: "a[]=1&" * (n // 6), "keys": lambda n: "".join(
                 f"a[{i}]=1&" for i in range(n // 8))})
    for name in ("html4_form_encode", "xforms_urlencode"):
        c += on(P + f"legacy.{name}", q(getattr(legacy, name)),
                {k: pairs_of(v) for k, v in TEXT.items()})
    c += on(P + "legacy.http_build_query", q(lambda p: legacy.http_build_query(dict(p))),
            {k: pairs_of(v) for k, v in TEXT.items()})
    c += on(P + "legacy.http_build_query", q(legacy.http_build_query),
            {"nested": lambda n: {"a": [[str(i), {"b": "%"}] for i in range(n // 10)]}})
    # --- registries --------------------------------------------------------------------
    every = [s for s in schemes.all_schemes()]
    c += on(P + "schemes.Scheme", q(lambda s: [sc.encode(s) for sc in every]), {"pct": pct})
    c += on(P + "schemes.Scheme", q(lambda s: [sc.decode(s) for sc in every if sc.decode]),
            {"pct": pct, "sep": sep})
    c += on(P + "schemes.Scheme",
            q(lambda p: [sc.encode_pairs(p) for sc in every if sc.encode_pairs]),
            {"sep": pairs_of(sep)})
    c += on(P + "schemes.get", q(schemes.get), {"long name": lambda n: "whatwg-" * (n // 7),
                                                **TEXT})
    c += on(P + "schemes.compare", q(schemes.compare),
            {"names": lambda n: schemes.names() * (n // 4096 + 1)}, n0=4096)
    c += on(P + "schemes.pairs_arg", q(schemes.pairs_arg), {"sep": pairs_of(sep)})
    c += on(P + "sets.get", q(sets.get), {"long name": lambda n: "whatwg-" * (n // 7), **TEXT})
    c += on(P + "sets.resolve", q(sets.resolve),
            {"long name": lambda n: "whatwg-" * (n // 7), **TEXT})
    c += on(P + "sets.compare", q(lambda names: sets.compare(*names)),
            {"names": lambda n: sets.names() * (n // 4096 + 1)}, n0=4096)
    c += on(P + "sets.register", q(_register_and_forget),
            {"long name": lambda n: "x" * n, **TEXT})
    c += on((P + "sets.EncodeSet", P + "sets.EncodeSet.from_allowed", P + "sets.EncodeSet.named",
             P + "sets.EncodeSet.encodes", P + "sets.EncodeSet.add", P + "sets.EncodeSet.remove"),
            q(lambda s: (sets.EncodeSet(s).add(s).remove(s), sets.EncodeSet.from_allowed(s),
                         sets.PATH.named(s[:200] or "x"), sets.PATH.encodes(len(s) % 256))))
    # --- the command line (in-process; stdin streamed line by line) ---------------------
    c += cli_on(lambda s: _cli(["decode", "--", _cli_arg(s)]))
    c += cli_on(lambda d: _cli(["decode"], d + b"\n" + d), DATA)
    c += cli_on(lambda d: _cli(["encode"], d), DATA)
    c += cli_on(lambda d: _cli(["form", "parse", "--json"], d), DATA)
    c += cli_on(lambda d: _cli(["form", "parse", "--lines"], d.replace(b"&", b"\n")),
            {"sep": lambda n: sep(n).encode()})
    c += cli_on(lambda s: _cli(["detect", "--json", "--", _cli_arg(s)]))
    c += cli_on(lambda s: _cli(["url", "--json", "--", _cli_arg(s)]),
            {k: url_of(v) for k, v in TEXT.items()})
    c += cli_on(lambda s: _cli(["encode", "--all", "--", _cli_arg(s)]),
            {"pct": pct})
    c += cli_on(lambda p: _cli(["form", "build", *(
        f"{_cli_arg(k)}={_cli_arg(v)}" for k, v in p)]), {"sep": pairs_of(sep)})
    return c


def _issue43_seeds1_cases() -> list[Case]:
    """The seeds' historic variants (legacy) and other specs' forms (form), issue 43."""
    q = _quiet
    c: list[Case] = []
    for name in ("rfc1630_encode", "rfc1808_encode"):
        c += on(P + f"legacy.{name}", q(getattr(legacy, name)), TEXT_SUR)
    c += on(P + "legacy.rfc1630_decode", q(legacy.rfc1630_decode), TEXT_STRICT)
    for name in ("firefox2_decode_uri_component", "opera9_decode_uri_component"):
        c += on(P + f"legacy.{name}", q(getattr(legacy, name)),
                {**TEXT_STRICT, "nul": lambda n: "%00a" * (n // 4) + "%E3",
                 "nonchar": lambda n: "%EF%BF%BE" * (n // 9)})
    c += on(P + "legacy.rfc1808_resolve", q(lambda s: legacy.rfc1808_resolve("http://a/b/c", s)),
            {**TEXT, "dots": lambda n: "a/" * (n // 5) + "../" * (n // 5) + "g",
             "params": lambda n: ";" * (n // 2) + "?" * (n // 2)})
    c += on((P + "legacy.ftp_split_typecode", P + "legacy.ftp_join_typecode"),
            q(lambda s: legacy.ftp_join_typecode(legacy.ftp_split_typecode(s)[0], "a")),
            {**TEXT, "marks": lambda n: ";type=a/" * (n // 8) + "f"})
    c += on((P + "legacy.parse_uri_encoding_header", P + "legacy.build_uri_encoding_header"),
            q(lambda s: legacy.parse_uri_encoding_header(s)),
            {**TEXT, "spaces": lambda n: " " * n + "utf-8" + " " * n + "x",
             "label": lambda n: "charset=" + "a" * n})
    c += on(P + "legacy.decode_with_uri_encoding",
            q(lambda s: legacy.decode_with_uri_encoding(s, "shift_jis")), TEXT)
    c += on(P + "form.post_to_data", q(lambda s: form.post_to_data("data:,%%%%" + s, s)),
            {**TEXT, "pct": lambda n: "%" * n})
    c += on((P + "form.sgml_form_serialize", P + "form.sgml_form_parse"),
            q(lambda p: form.sgml_form_parse(form.sgml_form_serialize(p))),
            {"sep": pairs_of(sep)})
    c += on(P + "form.wsdl_urlencode", q(form.wsdl_urlencode),
            {"names": lambda n: [("a" * (n // 2), "b" * (n // 2))], "sep": pairs_of(sep)})
    c += on((P + "form.sparql_query_request", P + "form.sparql_update_request",
             P + "form.sparql_parse", P + "form.SparqlRequest"),
            q(lambda s: (form.sparql_parse(form.sparql_query_request(s, named_graph_uri=[s])),
                         form.sparql_parse(form.sparql_update_request(s)))), TEXT)
    c += on(P + "form.sparql_parse", q(form.sparql_parse),
            {**TEXT, "graphs": lambda n: "query=x" + "&named-graph-uri=g" * (n // 18)})
    c += on((P + "form.openurl_kev", P + "form.openurl_kev_parse"),
            q(lambda p: form.openurl_kev_parse(form.openurl_kev(p))), {"sep": pairs_of(sep)})
    c += on(P + "form.openurl_kev_parse", q(form.openurl_kev_parse), TEXT)
    c += on((P + "form.xproc_www_form_urlencode", P + "form.xproc_www_form_urldecode"),
            q(lambda p: form.xproc_www_form_urldecode(form.xproc_www_form_urlencode(p))),
            {"names": lambda n: [("a" * n, "b c" * (n // 3))] * 2})
    c += on(P + "form.xproc_www_form_urldecode", q(form.xproc_www_form_urldecode),
            {**TEXT, "fields": lambda n: "a=b&" * (n // 4)})
    return c


def _issue43_seeds2_cases() -> list[Case]:
    """Fragment identifiers of media types, forms by e-mail, the XML IRI-like
    converters and URL rendering (issue 43)."""
    q = _quiet
    F = P + "fragments."
    c: list[Case] = []
    media = {**TEXT, "dims": lambda n: "t=1,2&xywh=1,2,3,4&track=a&id=b&" * (n // 34),
             "bad": lambda n: "t=npt:" + "9" * n + "&xywh=" + ",".join("1" * (n // 2))}
    c += on((F + "parse_media", F + "build_media", F + "decode_media_pairs"),
            q(lambda s: fragments.build_media(fragments.parse_media(s))), media)
    text = {**TEXT, "parts": lambda n: "line=1,2;length=9;md5=" + "a" * n,
            "many": lambda n: "char=" + "1" * n + ";" * (n // 2)}
    c += on((F + "parse_text_plain", F + "build_text_plain"),
            q(lambda s: (r := fragments.parse_text_plain(s, strict=False)) is None
              or fragments.build_text_plain(r)), text)
    csv = {**TEXT, "sel": lambda n: "row=" + "1-2;" * (n // 4) + "*",
           "cells": lambda n: "cell=" + "1,2-3,4;" * (n // 8)}
    c += on((F + "parse_csv", F + "build_csv"),
            q(lambda s: (r := fragments.parse_csv(s, strict=False)) is None
              or fragments.build_csv(r)), csv)
    pdf = {**TEXT, "params": lambda n: "page=1&zoom=2,3,4&" * (n // 18),
           "search": lambda n: 'search="' + "a%20" * (n // 4) + '"'}
    c += on((F + "parse_pdf", F + "build_pdf"),
            q(lambda s: fragments.build_pdf(fragments.parse_pdf(s, strict=False))), pdf)
    c += on((P + "mailto.form_email", P + "mailto.read_form_email"),
            q(lambda pairs: mailto.read_form_email(
                mailto.form_email(pairs, "a@example.com").as_bytes())),
            {"pairs": pairs_of(adv), "sep": pairs_of(sep)})
    for name in ("leiri_to_uri", "xlink_href_to_uri", "any_uri_to_uri"):
        c += on(P + f"iri.{name}", q(getattr(iri, name)), TEXT_SUR)
    c += on(P + "iri.xml_system_id_to_uri",
            q(lambda s: iri.xml_system_id_to_uri(s, strict=False)), TEXT_SUR)
    c += on(P + "url.URL.display", q(lambda s: url.parse(s).display()),
            {"url": url_of(adv), "host": lambda n: "http://" + "ab." * (n // 3) + "com/"})
    return c


# Public names with no input whose size can grow, and why (a name here needs no case).
NO_SIZE_INPUT = {
    P + "cli.build_parser": "takes no argument",
    P + "encodings.names": "takes no argument",
    P + "encodings.Encoding": "a record of a name and its labels (its methods have cases)",
    P + "encodings.Encoding.output_encoding": "a constant of the encoding",
    P + "sets.names": "takes no argument",
    P + "sets.deprecated_names": "takes no argument",
    P + "schemes.names": "takes no argument",
    P + "schemes.aliases": "takes no argument",
    P + "schemes.all_schemes": "takes no argument",
    P + "schemes.Scheme.describe": "describes one registered scheme (fixed size)",
    P + "arrow.set_threads": "an integer setting",
    P + "spark.check_executors": "asks each Spark executor one question (no input of the caller's)",
    P + "spark.udf": "needs a Spark session (minutes to start); runs the arrow kernels per "
                     "batch, which the arrow cases time",
    P + "spark.map_in_arrow": "needs a Spark session (minutes to start); runs the arrow "
                              "kernels per batch, which the arrow cases time",
    P + "iri.is_bidi_formatting": "one character",
    P + "detect.CharsetGuess": "a result record",
    P + "detect.Finding": "a result record",
    P + "detect.FormConformance": "a result record",
    P + "detect.SpaceConvention": "a result record (paragraph has a case)",
    P + "rfc8187.Finding": "a result record",
    P + "url.ComponentReport": "a result record",
    P + "mailto.Mailto": "a result record",
    P + "alpn.AltService": "a result record (parse_alt_svc and alt_svc have cases)",
    P + "data_url.DataURL": "a result record",
    P + "fragments.CSVFragment": "a result record",
    P + "fragments.CSVSelection": "a result record",
    P + "fragments.IntegrityCheck": "a result record",
    P + "fragments.MediaFragment": "a result record",
    P + "fragments.PDFFragment": "a result record",
    P + "fragments.SMPTETime": "a result record",
    P + "fragments.SpatialRegion": "a result record",
    P + "fragments.TemporalRange": "a result record",
    P + "fragments.TextPlainFragment": "a result record",
    P + "data_url.MIMEType": "a result record (serialize_mime_type has a case)",
    P + "url.ValidationError": "a result record",
    P + "rfc3986.Components": "a named tuple of five strings (recompose has a case)",
    P + "web.server.make_server": "binds a socket; each request's size caps are checked in "
                                  "tests/test_web_limits.py",
    P + "web.server.serve": "runs a server until stopped (see make_server)",
}

CASES = _cases() + _issue43_seeds1_cases() + _issue43_seeds2_cases()
# The cases that reach the kernels directly run on both twins (the pure kernels are where
# a Python-level quadratic would hide); the others run once, on the default twin (the pure
# arrow twin is the per-string API row by row, timed through core and form).
TWIN_MODULES = ("core.", "form.")


def _twin(case: Case) -> bool:
    return case.covers[0].removeprefix(P).startswith(TWIN_MODULES)


def _run(case: Case) -> None:
    assert_linear(case.fn, case.make, label=case.id, **case.opts)


@pytest.mark.parametrize("case", [x for x in CASES if _twin(x)], ids=lambda x: x.id)
def test_linear_twins(case: Case) -> None:
    _run(case)


@pytest.mark.one_impl
@pytest.mark.parametrize("case", [x for x in CASES if not _twin(x)], ids=lambda x: x.id)
def test_linear(case: Case) -> None:
    _run(case)


# ---------------------------------------------------------------------------
# Long hosts: one label of n code points, many of them distinct (issue 39)
# ---------------------------------------------------------------------------
# RFC 3492 §6.3 as written scans the label once per distinct code point: with n // 4
# distinct ones that is n^2 / 4 steps, so 4n costs 16x.  The pool: the code points
# UTS #46 keeps as they are from U+20000 up (CJK Extensions B to J, about 74,000): no
# step between two of them is wide enough, with at most 4n code points below, to
# overflow the encoder (§6.4), so every call does the whole work.  n is 64K, fixed
# (no calibration): each entry point's one road, on both twins.

LONG_HOST_N = 1 << 16


@functools.lru_cache(maxsize=1)
def _host_pool() -> list[int]:
    from percent_encoding.url import _uts46_data as d

    i, out = 0, []
    for cp in range(0x20000, 0x34000):
        while i + 1 < len(d.MAP_STARTS) and d.MAP_STARTS[i + 1] <= cp:
            i += 1
        if d.MAP_STATUS[i] == "V":
            out.append(cp)
    return out


@functools.lru_cache(maxsize=4)
def long_host(n: int) -> str:
    pool = _host_pool()
    distinct = max(1, n // 4)
    assert distinct <= len(pool)
    return "".join([chr(pool[i % distinct]) for i in range(n)])


@functools.lru_cache(maxsize=4)
def long_xn_host(n: int) -> str:
    # The Punycode of n distinct code points in descending order: RFC 3492's decoder
    # inserts each one at the front of all it has decoded (n^2 / 2 moves).  (Decoding
    # needs no valid code point: ToUnicode decodes, then finds U+0100 not valid.)
    from percent_encoding.url import _idna

    return "xn--" + _idna.punycode_encode("".join([chr(0x100 + n - 1 - i) for i in range(n)]))


def _long_host_column(n: int) -> Any:
    pa = pytest.importorskip("pyarrow")
    return pa.array(["http://a.example/", "http://" + long_host(n) + "/", None])


def _long_host_cli(host: str) -> None:
    assert _cli(["url", "http://" + host + "/"]) == 0


def _long_host_web(host: str) -> None:
    # The deployed tool refuses URLs over MAX_URL_INPUT (64 Ki characters: 413) before
    # parsing; the handler behind that check is timed here past it, at n and 4n.
    from percent_encoding.web import server

    cap = server.MAX_URL_INPUT
    server.MAX_URL_INPUT = 1 << 20
    try:
        assert "error" not in server.api_url("http://" + host + "/")
    finally:
        server.MAX_URL_INPUT = cap


def _uncached(fn: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """fn after emptying the host caches: each timed call does the work (the helper
    times the same host again, and a cache that kept it would time a lookup)."""
    from percent_encoding.url import _host, _idna

    def call(arg: Any) -> Any:
        for cached in (url._c_host, _host._ascii_strict_ok, _idna.domain_to_ascii_checked,
                       _host._host_outcome):
            cached.cache_clear()
        return fn(arg)
    return call


def _long_host_cases() -> list[tuple[str, Callable[[Any], Any], Callable[[int], Any]]]:
    from percent_encoding import arrow

    def href(n: int) -> str:
        return "http://" + long_host(n) + "/"

    base = url.parse("http://x.example/p")
    return [
        ("url.parse", url.parse, href),
        ("url.can_parse", url.can_parse, href),
        ("url.parse xn--", url.parse, lambda n: "http://" + long_xn_host(n) + "/"),
        ("URL.replace(host=)", lambda h: base.replace(host=h), long_host),
        ("URL.replace(hostname=)", lambda h: base.replace(hostname=h), long_host),
        ("arrow.url_can_parse", arrow.url_can_parse, _long_host_column),
        ("arrow.url_parse", arrow.url_parse, _long_host_column),
        ("arrow.url_component", lambda c: arrow.url_component(c, "hostname"),
         _long_host_column),
        ("percent url", _long_host_cli, long_host),
        ("web /api/url", _long_host_web, long_host),
    ]


@pytest.mark.parametrize("case", _long_host_cases(), ids=lambda c: c[0])
def test_long_hosts_linear(case: tuple[str, Callable[[Any], Any], Callable[[int], Any]]) -> None:
    # (on both twins: the C parser takes a long non-ASCII host through its host hook)
    _long_host_linear(*case)


# idna's functions are UTS #46 in Python on either twin (no kernel: the marker checks it),
# so they run once.
@pytest.mark.one_impl
@pytest.mark.no_kernels
@pytest.mark.parametrize("case", [("idna.to_ascii", idna.to_ascii, long_host),
                                  ("idna.to_unicode", idna.to_unicode, long_xn_host)],
                         ids=lambda c: c[0])
def test_long_hosts_linear_idna(
        case: tuple[str, Callable[[Any], Any], Callable[[int], Any]]) -> None:
    _long_host_linear(*case)


def _long_host_linear(label: str, fn: Callable[[Any], Any], make: Callable[[int], Any]) -> None:
    g = assert_linear(_uncached(fn), make, label=f"{label} on a host of n code points",
                      n=LONG_HOST_N, k=1)
    assert g.n >= 1 << 16


# ---------------------------------------------------------------------------
# Completeness: every public entry point has a case (or a reason)
# ---------------------------------------------------------------------------

def entry_points() -> dict[tuple[int, str], list[str]]:
    """Every public callable, keyed by identity, with every name it is listed under.

    Functions; classes (their constructor) other than exceptions; each class's own public
    methods and properties.  Re-exports and aliases (``percent_encoding.decode``,
    ``ecmascript.decodeURI``) are one entry point with several names.
    """
    found: dict[tuple[int, str], list[str]] = {}
    for modname in public_modules():
        mod = importlib.import_module(modname)
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isclass(obj):
                if issubclass(obj, BaseException):
                    continue
                found.setdefault((id(obj), ""), []).append(f"{modname}.{name}")
                for attr, val in vars(obj).items():
                    if attr.startswith("_"):
                        continue
                    # (the URL type's getters are C descriptors when the C twin is built)
                    if (isinstance(val, (property, classmethod, staticmethod)) or callable(val)
                            or type(val).__name__ == "URLGetter"):
                        found.setdefault((id(obj), attr), []).append(f"{modname}.{name}.{attr}")
            elif callable(obj):
                found.setdefault((id(obj), ""), []).append(f"{modname}.{name}")
    return found


def _uncovered(covered: set[str]) -> list[str]:
    return sorted(names[0] for names in entry_points().values()
                  if not set(names) & (covered | set(NO_SIZE_INPUT)))


@pytest.mark.one_impl
def test_every_entry_point_has_a_case() -> None:
    covered = {name for case in CASES for name in case.covers}
    eps = entry_points()
    all_names = {n for names in eps.values() for n in names}
    missing = _uncovered(covered)
    assert missing == [], "give these a case in tests/test_linear.py (or a NO_SIZE_INPUT reason)"
    stale = sorted((covered | set(NO_SIZE_INPUT)) - all_names)
    assert stale == [], "these names are not public entry points (any more)"
    both = sorted(covered & set(NO_SIZE_INPUT))
    assert both == [], "a name with a case needs no NO_SIZE_INPUT reason"


@pytest.mark.one_impl
def test_the_check_fails_for_a_quadratic(monkeypatch: pytest.MonkeyPatch) -> None:
    """The helper fails a call whose time grows 16x for 4x the input, retries included,
    and passes one that grows 4x.  The clock is simulated (time proportional to n^2 or n
    of the argument's length): a real timing self-test was blurred under pytest-xdist by
    the state earlier cases leave in the worker."""
    from helpers import linear_time

    now = [0.0]
    power = [2]

    def fake_clock() -> float:
        return now[0]

    def fn(s: str) -> None:
        now[0] += (len(s) / 1e6) ** power[0]  # seconds

    monkeypatch.setattr(linear_time, "CLOCK", fake_clock)
    make = lambda n: "a" * n  # noqa: E731
    with pytest.raises(AssertionError, match="not linear"):
        assert_linear(fn, make, label="quadratic")
    power[0] = 1
    g = assert_linear(fn, make, label="linear")
    assert 3.9 < g.ratio < 4.1


@pytest.mark.one_impl
def test_the_yardstick_forgives_memory_not_a_quadratic(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a machine where fresh memory costs more CPU at the larger size (page faults and
    reclaim under pressure), a linear call's ratio can pass 12x; the yardstick, filling the
    same sizes of memory in the same moment, grows as much and the call passes.  A
    quadratic call set against a quiet yardstick (4x) still fails.  Simulated clock."""
    from helpers import linear_time

    now = [0.0]
    pressure = [True]

    def cost(units: float) -> float:
        # 1 s a million units; past 3M units every unit costs 3.2x (a page-fault step)
        return units / 1e6 * (3.2 if pressure[0] and units > 3e6 else 1.0)

    def fn(s: str) -> None:
        now[0] += cost(len(s))

    def fill(nbytes: int) -> bytes:
        now[0] += cost(nbytes / 4)
        return b""

    monkeypatch.setattr(linear_time, "CLOCK", lambda: now[0])
    monkeypatch.setattr(linear_time, "_fill", fill)
    make = lambda n: "a" * n  # noqa: E731
    # n = 1M: 4n grows 12.8x, past 12x, at 1M and 2M; the yardstick grows as much
    g = assert_linear(fn, make, label="linear under pressure", n=1 << 20)
    assert g.ratio > 12
    pressure[0] = False

    def quadratic(s: str) -> None:
        now[0] += (len(s) / 1e6) ** 2

    with pytest.raises(AssertionError, match="not linear"):
        assert_linear(quadratic, make, label="quadratic", n=1 << 20)


@pytest.mark.one_impl
def test_a_new_public_function_needs_a_case(monkeypatch: pytest.MonkeyPatch) -> None:
    # The completeness check sees a name added to a module's __all__, and a new method.
    monkeypatch.setattr(alpn, "brand_new", lambda token: token, raising=False)
    monkeypatch.setattr(alpn, "__all__", [*alpn.__all__, "brand_new"])
    monkeypatch.setattr(form.FormParser, "brand_new_method", lambda self: None, raising=False)
    covered = {name for case in CASES for name in case.covers}
    assert _uncovered(covered) == [P + "alpn.brand_new", P + "form.FormParser.brand_new_method"]
