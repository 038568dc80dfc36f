"""Bounded work and memory: limits counted while scanning, linear time on
adversarial input, no silent loss at the edges (docs/limits.md).

Memory is measured as peak RSS in a fresh subprocess (``ru_maxrss``), not by
wall time; linearity compares the work at n and 4n with a generous factor.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

from percent_encoding import detect, form, iri, legacy
from percent_encoding.errors import FormLimitError, PercentEncodingTypeError


def _peak_extra_mb(code: str) -> float:
    """Run ``code`` (which builds ``setup`` data, then ``run()``) in a subprocess and
    return how many MB the peak RSS grew during ``run()``.  VmHWM, not ``ru_maxrss``:
    Linux carries the parent's peak into ``ru_maxrss`` across exec."""
    prog = textwrap.dedent(
        """
        import sys
        def hwm():
            with open("/proc/self/status") as f:
                return int([ln for ln in f if ln.startswith("VmHWM")][0].split()[1])
        {code}
        base = hwm()
        run()
        print((hwm() - base) / 1024)
        """
    ).format(code=textwrap.dedent(code))
    r = subprocess.run([sys.executable, "-c", prog], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return float(r.stdout.split()[-1])


# --------------------------------------------------------------------------------------------
# form.parse / parse_bytes: limits counted while scanning


@pytest.mark.one_impl
@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="reads VmHWM (Linux)")
@pytest.mark.parametrize("func", ["parse", "parse_bytes"])
def test_max_fields_error_costs_no_more_than_the_limit(func: str) -> None:
    # 40 MB of tiny fields: splitting first cost ~15x the body (600 MB) before the error.
    extra = _peak_extra_mb(
        f"""
        from percent_encoding import form
        from percent_encoding.errors import FormLimitError
        body = b"a=b&" * (10 << 20)
        def run():
            try:
                form.{func}(body, max_fields=10)
            except FormLimitError as e:
                assert e.limit == "max_fields" and e.value == 11, e
            else:
                raise AssertionError("no FormLimitError")
        """
    )
    assert extra < 30, f"{extra:.0f} MB"


@pytest.mark.parametrize("data", ["a=1&b=2&&c=3", b"a=1&b=2&&c=3"])
def test_max_fields(data: str | bytes) -> None:
    assert len(form.parse(data, max_fields=3)) == 3
    with pytest.raises(FormLimitError) as ei:
        form.parse(data, max_fields=2)
    assert (ei.value.limit, ei.value.value) == ("max_fields", 3)
    with pytest.raises(FormLimitError):
        form.parse_bytes(data, max_fields=2)


@pytest.mark.parametrize("func", [form.parse, form.parse_bytes])
def test_max_field_size_and_max_total_match_form_parser(func: object) -> None:
    body = "a=1&name=caf%C3%A9&x=\u00e9\u00e9"  # the last field is 6 UTF-8 bytes
    parse = func  # type: ignore[assignment]
    assert parse(body, max_field_size=14, max_total=len(body.encode()))  # type: ignore[operator]
    for kw, limit in [("max_field_size", 13), ("max_total", len(body.encode()) - 1)]:
        with pytest.raises(FormLimitError) as ei:
            parse(body, **{kw: limit})  # type: ignore[operator]
        p = form.FormParser(**{kw: limit})  # type: ignore[arg-type]
        with pytest.raises(FormLimitError) as ej:
            p.feed(body)
            p.close()
        assert ei.value.limit == ej.value.limit == kw
    # UTF-8 bytes, not code points: "x=éé" is 4 characters but 6 bytes.
    with pytest.raises(FormLimitError) as ei:
        parse("x=\u00e9\u00e9", max_field_size=5)  # type: ignore[operator]
    assert ei.value.value == 6
    assert parse("x=\u00e9\u00e9", max_field_size=6)  # type: ignore[operator]
    with pytest.raises(FormLimitError):
        parse("x=\u00e9\u00e9", max_total=5)  # type: ignore[operator]


def test_limits_with_options() -> None:
    assert form.parse("a;b;c", separators="&;", max_fields=3) == [("a", ""), ("b", ""), ("c", "")]
    with pytest.raises(FormLimitError):
        form.parse("a;b;c", separators="&;", max_fields=2)
    with pytest.raises(FormLimitError):
        form.parse("a=1;bbbbbb=2", separators=";", max_field_size=5)
    assert detect.parse_form("a=%C3%A9", max_total=8) == [("a", "\u00e9")]
    with pytest.raises(FormLimitError):
        detect.parse_form("a=%C3%A9", max_total=7)


@pytest.mark.parametrize("kw", ["max_field_size", "max_total"])
def test_limit_types(kw: str) -> None:
    with pytest.raises(PercentEncodingTypeError):
        form.parse("a", **{kw: "3"})  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        form.parse_bytes(b"a", **{kw: -1})  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------------
# Keyword flags are type-checked


@pytest.mark.parametrize("kw", ["isindex", "charset_hack", "strip_leading_question_mark"])
@pytest.mark.parametrize("value", [object(), None, 1, "yes", []])
def test_form_flags_type_checked(kw: str, value: object) -> None:
    # isindex=object() used to swap a name and value silently; [] was ignored.
    parse = form.parse if kw == "strip_leading_question_mark" else legacy.whatwg_form_parse
    with pytest.raises(PercentEncodingTypeError):
        parse("a&b=1", **{kw: value})  # type: ignore[arg-type]
    if kw != "charset_hack":
        with pytest.raises(PercentEncodingTypeError):
            form.parse_bytes(b"a&b=1", **{kw: value})  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [None, 0, "", object()])
def test_iri_to_uri_strict_type_checked(value: object) -> None:
    with pytest.raises(PercentEncodingTypeError):
        iri.iri_to_uri("http://example.com/\u00e9", strict=value)  # type: ignore[arg-type]


def test_parsed_form_charset_type_checked() -> None:
    with pytest.raises(PercentEncodingTypeError):
        form.ParsedForm([("a", "b")], charset=None)  # type: ignore[arg-type]
    guess = detect.parse_form("a=%C3%A9").charset
    assert form.ParsedForm([("a", "b")], guess).charset is guess
