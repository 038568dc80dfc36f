"""The option vocabulary: docs/options.md against the code, and the shared argument checks.

* The table in docs/options.md lists every option word with its default and
  the entry points that take it.  Both directions are checked: every listed
  entry point has the option with that default (``inspect.signature``), and
  every option of every public function or class is listed.
* ``errors`` and ``strict`` mean one thing each everywhere: "fatal" and
  "strict" are synonyms in every ``errors``; ``strict`` is about the ``%``
  syntax, ``errors`` about the text codec.
* The deprecated spellings still work and warn.
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import importlib
import inspect
import re
import warnings
from pathlib import Path
from typing import Any

import pytest

import percent_encoding as pe
from helpers.public_modules import public_modules
from percent_encoding import _args, encodings, form, legacy, oauth1, oauth2, rfc3986, rfc8187
from percent_encoding.errors import (
    PercentDecodeError,
    PercentEncodeError,
    PercentEncodingDeprecationWarning,
    PercentEncodingError,
    PercentEncodingTypeError,
    TextDecodeError,
)

DOC = Path(__file__).resolve().parent.parent / "docs" / "options.md"

# The library's public modules, less the programs (the CLI and the local web tool), the
# exceptions and the engine adapters (their options are the arrow functions', passed on).
NOT_API = {"percent_encoding.cli", "percent_encoding.web", "percent_encoding.web.server",
           "percent_encoding.errors", "percent_encoding.polars", "percent_encoding.pandas",
           "percent_encoding.duckdb", "percent_encoding.dask", "percent_encoding.spark"}
MODULES = tuple(m for m in public_modules() if m not in NOT_API)

# Result records: their constructor parameters are fields, documented with the record.
RECORDS = {
    "detect.CharsetGuess",
    "detect.Finding",
    "form.File",
    "form.ParsedForm",
    "fragments.IntegrityCheck",
    "fragments.MediaFragment",
    "fragments.PDFFragment",
    "fragments.SMPTETime",
    "fragments.TextPlainFragment",
    "rfc8187.ContentDisposition",
    "schemes.Scheme",
}
# Helpers for scheme authors, not options of an operation.
NOT_OPTIONS = {
    "schemes.pairs_arg": "`what` names the caller in its error messages",
    # Builders whose keywords are the fields of the fragment they write (the record's
    # fields, documented with it in docs/fragments.md), not options of an operation.
    "fragments.build_media": "keywords are the dimensions of a MediaFragment",
    "fragments.build_text_plain": "keywords are the parts of an RFC 5147 fragment",
    "fragments.build_csv": "its arguments are the kind and selections of a CSVFragment",
    "fragments.build_pdf": "keywords are the fields of a PDFFragment",
}


def _short(module: str, name: str) -> str:
    prefix = module.split(".", 1)[1] if "." in module else ""
    return f"{name}" if prefix in ("", "core") else f"{prefix}.{name}"


def option_entries() -> dict[str, list[tuple[str, Any]]]:
    """option word -> [(entry point, default)]: every parameter with a default,
    except the first one (the data) and positional-only ones, of every public
    function and class constructor."""
    rows: dict[str, list[tuple[str, Any]]] = {}
    seen: set[int] = set()
    for module_name in MODULES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if not callable(obj) or id(obj) in seen:
                continue
            if inspect.isclass(obj) and issubclass(obj, BaseException):
                continue
            if not getattr(obj, "__module__", "").startswith("percent_encoding"):
                continue
            seen.add(id(obj))
            entry = _short(module_name, name)
            if entry in RECORDS or entry in NOT_OPTIONS:
                continue
            try:
                params = list(inspect.signature(obj).parameters.values())
            except (TypeError, ValueError):
                continue
            for i, p in enumerate(params):
                if i == 0 and p.kind is not p.KEYWORD_ONLY:
                    continue  # the data the call is about, not an option
                if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD, p.POSITIONAL_ONLY):
                    continue
                if p.default is p.empty:
                    continue
                rows.setdefault(p.name, []).append((entry, p.default))
    return rows


_ENTRY = re.compile(r"`([\w.]+)`(?: \(`([^`]*)`\))?")


def read_table() -> dict[str, tuple[Any, dict[str, Any]]]:
    """option -> (default, {entry point: its default}) from docs/options.md."""
    table: dict[str, tuple[Any, dict[str, Any]]] = {}
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index("| option | meaning | values | default | entry points |")
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 5, line
        option = cells[0].strip("`")
        default = ast.literal_eval(cells[3].strip("`"))
        entries = {
            m.group(1): default if m.group(2) is None else ast.literal_eval(m.group(2))
            for m in _ENTRY.finditer(cells[4])
        }
        assert option not in table, f"{option} is listed twice"
        table[option] = (default, entries)
    return table


def _resolve(entry: str) -> Any:
    obj: Any = pe
    for part in entry.split("."):
        if not hasattr(obj, part):
            obj = importlib.import_module(f"{obj.__name__}.{part}")
        else:
            obj = getattr(obj, part)
    return obj


@pytest.mark.one_impl
def test_every_listed_entry_point_takes_the_option_with_that_default() -> None:
    table = read_table()
    assert {"errors", "strict", "encoding", "plus_as_space", "space_as_plus"} <= set(table)
    for option, (_default, entries) in table.items():
        assert entries, f"{option}: no entry point listed"
        for entry, default in entries.items():
            params = inspect.signature(_resolve(entry)).parameters
            assert option in params, f"{entry} has no {option}="
            got = params[option].default
            assert got == default and type(got) is type(default), (
                f"{entry}({option}=...) defaults to {got!r}, the table says {default!r}"
            )


@pytest.mark.one_impl
def test_every_option_of_the_public_api_is_in_the_table() -> None:
    table = read_table()
    missing = []
    for option, entries in option_entries().items():
        listed = table.get(option, (None, {}))[1]
        for entry, _default in entries:
            if entry not in listed:
                missing.append(f"{entry}({option}=)")
    assert not missing, "not in docs/options.md: " + ", ".join(missing)


@pytest.mark.one_impl
def test_options_are_keyword_only_where_the_table_says_so() -> None:
    # Options of the core functions, forms and encodings are keyword-only.  What may be
    # positional is what the call is about: the encode set of encode() (it names the
    # operation) and the encoding of a codec call, as in bytes.decode and str.encode.
    essential = {"encode_set", "encoding"}
    for func, second in ((pe.decode, None), (pe.decode_text, None), (form.parse, None),
                         (form.parse_bytes, None), (encodings.decode, "encoding"),
                         (encodings.encode, "encoding"),
                         (encodings.utf8_decode_without_bom, None),
                         (rfc8187.encode, "encoding"), (legacy.http_build_query, None),
                         (pe.encode, "encode_set")):
        params = list(inspect.signature(func).parameters.values())
        rest = params[1:]
        if func is form.parse:  # its old keywords, deprecated: a catch-all for one release
            assert rest[-1].kind is rest[-1].VAR_KEYWORD and rest[-1].name == "deprecated"
            rest = rest[:-1]
        if second is not None:
            assert second in essential
            assert rest[0].name == second and rest[0].kind is rest[0].POSITIONAL_OR_KEYWORD
            rest = rest[1:]
        for p in rest:
            assert p.kind is p.KEYWORD_ONLY, f"{func.__name__}({p.name}) is not keyword-only"


# --------------------------------------------------------------------------------------------
# errors= and strict=: one meaning each


FATAL_UTF8 = "a=%FF"


@pytest.mark.parametrize("mode", ["fatal", "strict"])
def test_fatal_and_strict_are_synonyms_everywhere(mode: str) -> None:
    with pytest.raises(TextDecodeError) as e1:
        pe.decode_text("a%FF", errors=mode)  # type: ignore[arg-type]
    assert e1.value.position == 1
    with pytest.raises(TextDecodeError):
        form.parse(FATAL_UTF8, errors=mode, strict=False)  # type: ignore[arg-type]
    with pytest.raises(TextDecodeError):
        encodings.decode(b"\xff", errors=mode)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodeError):
        encodings.encode("\u2603", encoding="windows-1252", errors=mode)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodeError) as e2:
        pe.encode("a\ud800", errors=mode)  # type: ignore[arg-type]
    assert e2.value.position == 1
    with pytest.raises(rfc8187.ExtValueError):
        rfc8187.decode("UTF-8''%FF", errors=mode)
    with pytest.raises(TextDecodeError):
        legacy.slug_decode("%FF", errors=mode)  # type: ignore[arg-type]
    p = form.FormParser(errors=mode, strict=False)  # type: ignore[arg-type]
    with pytest.raises(TextDecodeError):
        p.feed(b"a=%FF&")
    # the legacy encoder (unencodable -> &#N;) and replace keep their meaning
    assert pe.encode("\u2603", encoding="windows-1252", errors=mode) == "%26%239731%3B"  # type: ignore[arg-type]
    assert pe.encode("a\ud800", errors="replace") == "a%EF%BF%BD"


def test_unknown_errors_modes_name_the_allowed_ones() -> None:
    for call in (
        lambda: pe.encode("x", errors="ignore"),  # type: ignore[arg-type]
        lambda: pe.decode_text("x", errors="ignore"),  # type: ignore[arg-type]
        lambda: form.parse("x", errors="ignore"),  # type: ignore[arg-type]
        lambda: rfc8187.decode("UTF-8''x", errors="ignore"),
        lambda: encodings.decode(b"x", errors="ignore"),  # type: ignore[arg-type]
    ):
        with pytest.raises(
            PercentEncodingError, match=r"errors must be one of .*'fatal', 'strict'.*not 'ignore'"
        ):
            call()
    for call in (
        lambda: pe.encode("x", errors=None),  # type: ignore[arg-type]
        lambda: pe.decode_text("x", errors=1),  # type: ignore[arg-type]
        lambda: form.parse("x", errors=b"strict"),  # type: ignore[arg-type]
        lambda: rfc8187.decode("UTF-8''x", errors=None),  # type: ignore[arg-type]
    ):
        with pytest.raises(PercentEncodingTypeError, match="errors must be one of"):
            call()


def test_strict_is_about_percent_syntax_and_errors_about_text() -> None:
    # decode_text: errors="fatal" alone accepts a bad "%" (it is about UTF-8) ...
    assert pe.decode_text("%zz", errors="fatal") == "%zz"
    with pytest.raises(PercentDecodeError) as e:
        pe.decode_text("a%zz", strict=True)
    assert e.value.position == 1
    # ... and so does form.parse once strict= is given.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert form.parse("a=%zz", errors="fatal", strict=False) == [("a", "%zz")]
        assert form.parse("a=%FF", strict=True) == [("a", "\ufffd")]
        with pytest.raises(PercentDecodeError) as e2:
            form.parse("b=1&a=%zz", strict=True)
        assert e2.value.position == 6
        with pytest.raises(PercentDecodeError):
            form.parse("a=%zz", errors="replace", strict=True)
        # no warning either when a fatal parse meets no bad "%"
        assert form.parse("a=%C3%A9", errors="strict") == [("a", "é")]
    with pytest.raises(PercentEncodingTypeError, match="strict must be True or False"):
        form.parse("a", strict=1)  # type: ignore[arg-type]


def test_errors_strict_rejecting_bad_percent_in_forms_is_deprecated_but_kept() -> None:
    for mode in ("strict", "fatal"):
        with pytest.warns(DeprecationWarning, match="strict=True"):
            with pytest.raises(PercentDecodeError) as e:
                form.parse("a=%zz", errors=mode)  # type: ignore[arg-type]
        assert e.value.position == 2
        p = form.FormParser(errors=mode)  # type: ignore[arg-type]
        with pytest.warns(DeprecationWarning, match="strict=True"):
            with pytest.raises(PercentDecodeError):
                p.feed(b"a=%zz&")


def test_slug_decode_strict_alone_raising_on_utf8_is_deprecated_but_kept() -> None:
    with pytest.raises(PercentDecodeError):
        legacy.slug_decode("%zz", strict=True)
    with pytest.warns(DeprecationWarning, match="errors='fatal'"):
        with pytest.raises(TextDecodeError):
            legacy.slug_decode("%FF", strict=True)
    assert legacy.slug_decode("%FF", strict=True, errors="replace") == "\ufffd"
    assert legacy.slug_decode("%zz%FF") == "%zz\ufffd"


# --------------------------------------------------------------------------------------------
# encoding=, keyword-only options, renamed parameters: the old spellings warn and work


def test_codec_encoding_is_positional_and_errors_by_position_is_deprecated() -> None:
    # The encoding of a codec call is essential (bytes.decode, codecs.decode, str.encode):
    # by position it works and does not warn; errors= stays an option, keyword-only.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert encodings.decode(b"\x82\xa0", "shift_jis") == "あ"
        assert encodings.decode(b"\x82\xa0", encoding="shift_jis") == "あ"
        assert encodings.encode("\u3042", "shift_jis") == b"\x82\xa0"
        assert encodings.encode("\u2603", "windows-1252", errors="html") == b"&#9731;"
        assert rfc8187.encode("£", "ISO-8859-1") == "ISO-8859-1''%A3"
        assert rfc8187.encode("£", "ISO-8859-1", language="en") == "ISO-8859-1'en'%A3"
    with pytest.warns(DeprecationWarning, match=r"errors to encodings\.encode\(\) by position"):
        assert encodings.encode("\u2603", "windows-1252", "html") == b"&#9731;"  # type: ignore[misc]
    with pytest.warns(DeprecationWarning, match="pass errors= by keyword"):
        assert encodings.decode(b"\xff", "utf-8", "replace") == "\ufffd"  # type: ignore[misc]
    with pytest.warns(DeprecationWarning):
        assert encodings.utf8_decode_without_bom(b"\xff", "replace") == "\ufffd"  # type: ignore[misc]
    with pytest.raises(TypeError, match="multiple values"):
        encodings.decode(b"a", "utf-8", encoding="utf-8")  # type: ignore[misc]
    with pytest.raises(PercentEncodingTypeError, match="at most"):
        encodings.decode(b"a", "utf-8", "replace", "x")  # type: ignore[misc]


def test_rfc8187_encode_takes_encoding_and_charset_is_deprecated() -> None:
    assert rfc8187.encode("£", encoding="ISO-8859-1") == "ISO-8859-1''%A3"
    with pytest.warns(DeprecationWarning, match=r"charset=\.\.\.\) is deprecated; use encoding="):
        assert rfc8187.encode("£", charset="ISO-8859-1") == "ISO-8859-1''%A3"  # type: ignore[call-arg]
    with pytest.warns(DeprecationWarning, match="passing language to rfc8187.encode.. by position"):
        assert rfc8187.encode("£", "ISO-8859-1", "en") == "ISO-8859-1'en'%A3"  # type: ignore[misc]
    with pytest.raises(PercentEncodingTypeError, match="both encoding= and its old name charset="):
        rfc8187.encode("£", charset="UTF-8", encoding="UTF-8")  # type: ignore[call-arg]
    with pytest.raises(PercentEncodingTypeError, match=r"encoding must be an encoding label"):
        rfc8187.encode("£", encoding=1)  # type: ignore[arg-type]


def test_http_build_query_php_positional_order_is_deprecated() -> None:
    data = {5: "a b", "k": "v"}
    want = "n5=a%20b;k=v"
    assert legacy.http_build_query(
        data, numeric_prefix="n", arg_separator=";", enc_type=legacy.PHP_QUERY_RFC3986
    ) == want
    with pytest.warns(DeprecationWarning, match=r"legacy\.http_build_query\(\) by position"):
        assert legacy.http_build_query(data, "n", ";", legacy.PHP_QUERY_RFC3986) == want  # type: ignore[misc]


@pytest.mark.parametrize(
    ("func", "old", "arg", "want"),
    [
        (legacy.cgi_decode, "text", "a%20b", "a b"),
        (legacy.cgi_encode, "text", "a b", "a%20b"),
        (legacy.slug_decode, "value", "S%C3%A8te", "Sète"),
        (legacy.slug_encode, "text", "Sète", "S%C3%A8te"),
        (legacy.xforms_encode_component, "text", "a b", "a+b"),
        (legacy.html4_form_encode_component, "text", "a b", "a+b"),
        (oauth1.encode, "value", "a b", "a%20b"),
        (oauth1.decode, "value", "a%20b", "a b"),
        (oauth1.decode_bytes, "value", "%41", b"A"),
        (oauth2.encode, "text", "a b", "a+b"),
        (oauth2.decode, "text", "a+b", "a b"),
        (rfc3986.encode, "text", "a b", "a%20b"),
        (rfc8187.encode, "text", "a", "UTF-8''a"),
    ],
)
def test_str_or_bytes_input_is_called_data(func: Any, old: str, arg: str, want: object) -> None:
    assert next(iter(inspect.signature(func).parameters)) == "data"
    assert func(data=arg) == want
    with pytest.warns(DeprecationWarning, match=f"{old}=.*use data="):
        assert func(**{old: arg}) == want


# --------------------------------------------------------------------------------------------
# _args itself: one wording per mistake


def test_check_helpers_wording() -> None:
    assert _args.check_bool("flag", True) is True
    with pytest.raises(PercentEncodingTypeError, match=r"^flag must be True or False, not int$"):
        _args.check_bool("flag", 1)
    with pytest.raises(PercentEncodingTypeError, match=r"^sep must be a str, not bytes$"):
        _args.check_str("sep", b"&")
    assert _args.check_str("sep", None, none=True) is None
    with pytest.raises(PercentEncodingError, match=r"^sep must not be empty$"):
        _args.check_str("sep", "", empty=False)
    assert _args.check_choice("mode", "b", ("a", "b")) == "b"
    with pytest.raises(PercentEncodingError, match=r"^mode must be one of 'a', 'b', not 'c'$"):
        _args.check_choice("mode", "c", ("a", "b"))
    with pytest.raises(PercentEncodingTypeError, match=r"^mode must be one of 'a', 'b', not int$"):
        _args.check_choice("mode", 1, ("a", "b"))
    assert _args.check_errors("strict") == "fatal"
    assert _args.check_errors("replace") == "replace"
    assert _args.check_int_limit("n", None) is None
    assert _args.check_int_limit("n", 0) == 0
    with pytest.raises(PercentEncodingTypeError, match=r"^n must be an int or None, not bool$"):
        _args.check_int_limit("n", True)
    with pytest.raises(PercentEncodingError, match=r"^n must be non-negative, not -1$"):
        _args.check_int_limit("n", -1)
    with pytest.raises(PercentEncodingError, match=r"^n must be at least 1, not 0$"):
        _args.check_int_limit("n", 0, minimum=1)
    assert _args.check_text("data", bytearray(b"a")) == b"a"
    with pytest.raises(PercentEncodingTypeError, match=r"^f\(\) takes str or bytes, not int$"):
        _args.check_text("data", 1, "f")


def test_same_mistake_same_words_across_modules() -> None:
    msgs = set()
    for call in (
        lambda: pe.decode("a", plus_as_space=1),  # type: ignore[arg-type]
        lambda: legacy.whatwg_form_parse("a", isindex=1),  # type: ignore[arg-type]
        lambda: legacy.rfc1738_encode("a", allow_unsafe=1),  # type: ignore[arg-type]
        lambda: rfc8187.parse_content_disposition("a", strict=1),  # type: ignore[arg-type]
        lambda: legacy.php_parse_str("a", strict=1),  # type: ignore[arg-type]
    ):
        with pytest.raises(PercentEncodingTypeError) as e:
            call()
        msgs.add(re.sub(r"^\w+ ", "", str(e.value)))
    assert msgs == {"must be True or False, not int"}
    labels = set()
    for call in (
        lambda: pe.encode("a", encoding=1),  # type: ignore[arg-type]
        lambda: pe.decode_text("a", encoding=1),  # type: ignore[arg-type]
        lambda: form.parse("a", encoding=1),  # type: ignore[arg-type]
        lambda: form.serialize([("a", "b")], encoding=1),  # type: ignore[arg-type]
        lambda: form.html_form_body([("a", "b")], encoding=1),  # type: ignore[arg-type]
        lambda: encodings.encode("a", encoding=1),  # type: ignore[arg-type]
        lambda: rfc8187.encode("a", encoding=1),  # type: ignore[arg-type]
        lambda: legacy.php_parse_str("a", encoding=1),  # type: ignore[arg-type]
        lambda: legacy.rfc_decode("a", encoding=1),  # type: ignore[arg-type]
        lambda: legacy.html4_form_encode_component("a", encoding=1),  # type: ignore[arg-type]
    ):
        with pytest.raises(PercentEncodingTypeError) as e:
            call()
        labels.add(str(e.value))
    assert labels == {"encoding must be an encoding label (str), not int"}


def test_errors_vocabulary_is_documented_once() -> None:
    text = DOC.read_text(encoding="utf-8")
    for mode in _args.ERRORS:
        assert f'`"{mode}"`' in text
    from percent_encoding import detect

    assert dataclasses.is_dataclass(detect.CharsetGuess)  # a record, skipped above


def test_arrow_errors_fatal_is_strict() -> None:
    pa = pytest.importorskip("pyarrow")
    from percent_encoding import arrow

    col = pa.array(["ok", "%FF", None])
    for mode in ("fatal", "strict"):
        with pytest.raises(TextDecodeError) as e:
            arrow.decode_text(col, errors=mode)  # type: ignore[arg-type]
        assert e.value.row == 1  # type: ignore[attr-defined]
    assert arrow.decode_text(col, errors="null").to_pylist() == ["ok", None, None]
    with pytest.raises(PercentEncodingError, match="'null', 'fatal', 'strict'"):
        arrow.decode_text(col, errors="html")  # type: ignore[arg-type]


def test_deprecation_warnings_point_at_the_caller() -> None:
    # Python shows a DeprecationWarning by default only when it is attributed to __main__,
    # so each must name the caller's line, however deep in the package it was raised.
    calls = (
        lambda: form.parse("a=%zz", errors="strict"),
        lambda: form.FormParser(errors="fatal").feed(b"a=%zz&"),
        lambda: encodings.decode(b"a", "utf-8", "replace"),  # type: ignore[misc]
        lambda: rfc8187.encode("a", charset="UTF-8"),  # type: ignore[call-arg]
        lambda: legacy.http_build_query({"a": 1}, "n"),  # type: ignore[misc]
        lambda: legacy.slug_decode("%FF", strict=True),
    )
    for call in calls:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            with contextlib.suppress(PercentEncodingError):
                call()
        assert [w.category for w in seen] == [PercentEncodingDeprecationWarning]
        assert issubclass(seen[0].category, DeprecationWarning)
        assert seen[0].filename == __file__, seen[0].filename
