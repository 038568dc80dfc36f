"""Robustness: linear time on adversarial input.

Adversarial inputs (``%%%%``, ``%%41``, ``&&&&``, ``====``, ``%25%25``, ``{{{{``,
``/../..``) go through every decoder and parser at size n and 4n (n calibrated, at least
50k characters): 4n must take less than 12x the time of n (tests/helpers/linear_time.py);
results are checked exactly at both sizes where that is easy.  Bad input still gets one of
our exceptions, never another one.  tests/test_linear.py does the same for every public
entry point.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from helpers.fuzzing import (
    OURS,
    _import,
    _short,
    check_error,
)
from helpers.linear_time import assert_linear
from percent_encoding.errors import (
    PercentDecodeError,
    PercentEncodeError,
    TextDecodeError,
)

# ---------------------------------------------------------------------------
# Linear time on adversarial input: size n against 4n
# ---------------------------------------------------------------------------

N = 200_000  # the cases' default size (their ids); the timing starts at N // 4 and grows


def _outcome(fn: Callable[[], Any]) -> tuple[bool, Any]:
    """(True, result) or (False, our exception); anything else fails (no alarm: the
    n-against-4n timing is what catches a slow algorithm)."""
    try:
        result = fn()
        if inspect.isgenerator(result) or isinstance(result, Iterator):
            result = list(result)
    except OURS as e:
        check_error(e, "adversarial input")
        return False, e
    except (KeyboardInterrupt, SystemExit, pytest.skip.Exception):
        raise
    except BaseException as e:
        raise AssertionError(
            f"adversarial input raised {type(e).__module__}.{type(e).__qualname__}: "
            f"{_short(str(e), 300)} (expected PercentEncodingError or PercentEncodingTypeError)"
        ) from e
    return True, result


def _raises(exc: type[BaseException], fn: Callable[[], Any], position: int | None = None) -> Any:
    ok, res = _outcome(fn)
    assert not ok and isinstance(res, exc), f"expected {exc.__name__}, got {_short(res)}"
    if position is not None:
        assert getattr(res, "position", None) == position, (
            f"{type(res).__name__}.position is {getattr(res, 'position', None)}, "
            f"expected {position}"
        )
    return res


def _feed_bytewise(data: bytes, **kw: Any) -> list[tuple[str, str]]:
    from percent_encoding import form

    parser = form.FormParser(**kw)
    out: list[tuple[str, str]] = []
    for i in range(len(data)):
        out += parser.feed(data[i:i + 1])
    return out + parser.close()


@functools.lru_cache(maxsize=2)  # n and 4n of the case being timed
def _linear_cases(N: int = N) -> list[Any]:  # the size N, as the cases spell it
    # Imports are lazy so that a module that does not import skips only its own cases.
    K3 = N // 3  # repetitions of a 3-character unit
    K4 = N // 4
    def core() -> Any:
        return _import("percent_encoding.core")

    def mod(name: str) -> Any:
        try:
            return _import(f"percent_encoding.{name}")
        except Exception as e:
            pytest.skip(f"percent_encoding.{name} does not import: {type(e).__name__}: {e}")

    from percent_encoding.errors import (
        FormLimitError,
        URIError,
        UriTemplateError,
    )

    # (label, the call, None or a thunk of the exact result): the results are built only
    # for the case being checked, at its two sizes, not for every case at every size.
    cases: list[tuple[str, Callable[[], Any], Callable[[], Any] | None]] = [
        # core: percent-decode keeps every invalid %, so the output equals the input
        ("core.decode %", lambda: core().decode("%" * N), lambda: b"%" * N),
        ("core.decode %%41", lambda: core().decode("%%41" * K4), lambda: b"%A" * K4),
        ("core.decode %25", lambda: core().decode("%25" * K3), lambda: b"%" * K3),
        ("core.decode + as space", lambda: core().decode("+" * N, plus_as_space=True),
         lambda: b" " * N),
        ("core.decode bytes %%", lambda: core().decode(b"%%" * K4 + b"%4"),
         lambda: b"%%" * K4 + b"%4"),
        ("core.decode strict at end",
         lambda: _raises(PercentDecodeError, lambda: core().decode("%41" * K3 + "%",
                                                                   strict=True), 3 * K3), None),
        ("core.decode strict %",
         lambda: _raises(PercentDecodeError, lambda: core().decode("%" * N, strict=True), 0),
         None),
        ("core.decode_text %C3", lambda: core().decode_text("%C3" * K3), lambda: "\ufffd" * K3),
        ("core.decode_text %C3%A9", lambda: core().decode_text("%C3%A9" * (N // 6)),
         lambda: "é" * (N // 6)),
        ("core.decode_text %ED%A0%80 (surrogate)",
         lambda: core().decode_text("%ED%A0%80" * (N // 9)), lambda: "\ufffd" * 3 * (N // 9)),
        ("core.decode_text strict at end",
         lambda: _raises(TextDecodeError, lambda: core().decode_text(
             "a" * N + "%FF", errors="strict"), N), None),
        ("core.encode %", lambda: core().encode("%" * N), lambda: "%25" * N),
        ("core.encode lone surrogates replace",
         lambda: core().encode("\ud800" * N, errors="replace"), lambda: "%EF%BF%BD" * N),
        ("core.encode lone surrogate at end",
         lambda: _raises(PercentEncodeError, lambda: core().encode("é" * N + "\udc00"), N),
         None),
        ("core.encode shift_jis ncr",
         lambda: core().encode("€" * (N // 4), encoding="shift_jis"),
         lambda: "%26%238364%3B" * (N // 4)),
        # forms
        ("form.parse &", lambda: mod("form").parse("&" * N), lambda: []),
        ("form.parse =", lambda: mod("form").parse("=" * N), lambda: [("", "=" * (N - 1))]),
        ("form.parse a=b&", lambda: mod("form").parse("a=b&" * K4), lambda: [("a", "b")] * K4),
        ("form.parse %", lambda: mod("form").parse("%" * N), lambda: [("%" * N, "")]),
        ("form.parse %%41=", lambda: mod("form").parse("%%41" * K4 + "="),
         lambda: [("%A" * K4, "")]),
        ("form.parse +", lambda: mod("form").parse("+" * N), lambda: [(" " * N, "")]),
        ("form.parse ;", lambda: mod("form").parse(";" * N, separators="&;"), lambda: []),
        ("form.parse shift_jis %82", lambda: mod("form").parse("a=" + "%82" * K3,
                                                                encoding="shift_jis"),
         None),
        ("detect.parse_form shift_jis", lambda: list(mod("detect").parse_form(
            "a=" + "%82%A0" * (N // 6))), lambda: [("a", "あ" * (N // 6))]),
        ("form.parse max_fields",
         lambda: _raises(FormLimitError, lambda: mod("form").parse("a&" * K4, max_fields=10)),
         None),
        ("form.parse_bytes &=", lambda: mod("form").parse_bytes(b"&=" * K4),
         lambda: [(b"", b"")] * K4),
        ("form.parse_bytes %25", lambda: mod("form").parse_bytes(b"a=" + b"%25" * K3),
         lambda: [(b"a", b"%" * K3)]),
        ("form.URLSearchParams &", lambda: str(mod("form").URLSearchParams("&" * N)), lambda: ""),
        ("form.URLSearchParams =", lambda: len(mod("form").URLSearchParams("a=b&" * K4)),
         lambda: K4),
        ("form.URLSearchParams sort",
         lambda: str(_sorted(mod("form").URLSearchParams([(str(i % 97), "x") for i in
                                                          range(N // 10)])))[:12],
         lambda: "0=x&0=x&0=x&"),
        ("form.serialize %", lambda: mod("form").serialize([("%" * N, "&" * N)]),
         lambda: "%25" * N + "=" + "%26" * N),
        ("form.FormParser one field, bytewise", lambda: _feed_bytewise(b"a=" + b"b" * (N // 2)),
         lambda: [("a", "b" * (N // 2))]),
        ("form.FormParser %, bytewise", lambda: _feed_bytewise(b"%" * (N // 2)),
         lambda: [("%" * (N // 2), "")]),
        ("form.FormParser &, bytewise", lambda: _feed_bytewise(b"&" * (N // 2)), lambda: []),
        ("form.FormParser max_field_size",
         lambda: _raises(FormLimitError, lambda: _feed_bytewise(b"a" * (N // 2),
                                                                max_field_size=1000)), None),
        # ECMAScript
        ("ecmascript.decodeURIComponent %",
         lambda: _raises(URIError, lambda: mod("ecmascript").decode_uri_component("%" * N), 0),
         None),
        ("ecmascript.decodeURIComponent % at end",
         lambda: _raises(URIError, lambda: mod("ecmascript").decode_uri_component(
             "%41" * K3 + "%"), 3 * K3), None),
        ("ecmascript.decodeURIComponent %25",
         lambda: mod("ecmascript").decode_uri_component("%25" * K3), lambda: "%" * K3),
        ("ecmascript.decodeURI %23 kept", lambda: mod("ecmascript").decode_uri("%23" * K3),
         lambda: "%23" * K3),
        ("ecmascript.decodeURI %E2%82",
         lambda: _raises(URIError, lambda: mod("ecmascript").decode_uri("%E2%82" * (N // 6)),
                         0), None),
        ("ecmascript.unescape %u", lambda: mod("ecmascript").unescape("%u" * (N // 2)),
         lambda: "%u" * (N // 2)),
        ("ecmascript.unescape %u0025", lambda: mod("ecmascript").unescape("%u0025" * (N // 6)),
         lambda: "%" * (N // 6)),
        ("ecmascript.unescape %", lambda: mod("ecmascript").unescape("%" * N), lambda: "%" * N),
        ("ecmascript.escape surrogates", lambda: mod("ecmascript").escape("\ud800" * N),
         lambda: "%uD800" * N),
        ("ecmascript.encodeURIComponent lone surrogate at end",
         lambda: _raises(URIError, lambda: mod("ecmascript").encode_uri_component(
             "😀" * N + "\ud800"), 2 * N), None),
        # URI Templates
        ("uritemplate {", lambda: _raises(UriTemplateError,
                                          lambda: mod("uritemplate").expand("{" * N, {})), None),
        ("uritemplate }", lambda: _raises(UriTemplateError,
                                          lambda: mod("uritemplate").expand("}" * N, {})), None),
        # RFC 6570 §2.1: a '%' in a literal must start a pct-encoded triplet
        ("uritemplate %", lambda: _raises(UriTemplateError, lambda: mod("uritemplate").expand(
            "%" * N, {}), 0), None),
        ("uritemplate %25", lambda: mod("uritemplate").expand("%25" * K3, {}), lambda: "%25" * K3),
        ("uritemplate {x} x%", lambda: mod("uritemplate").expand("{x}" * (N // 30), {"x": "%"}),
         lambda: "%25" * (N // 30)),
        ("uritemplate prefix", lambda: mod("uritemplate").expand("{x:9999}", {"x": "%" * N}),
         lambda: "%25" * 9999),
        ("uritemplate explode list",
         lambda: mod("uritemplate").expand("{/x*}", {"x": ["%"] * (N // 10)}),
         lambda: "/%25" * (N // 10)),
        ("uritemplate UriTemplate {",
         lambda: _raises(UriTemplateError, lambda: mod("uritemplate").UriTemplate("{" * N)),
         None),
        # OAuth 1.0
        ("oauth1.decode %25", lambda: mod("oauth1").decode("%25" * K3), lambda: "%" * K3),
        ("oauth1.decode %",
         lambda: _raises(PercentDecodeError, lambda: mod("oauth1").decode("%" * N), 0), None),
        ("oauth1.normalize_parameters",
         lambda: mod("oauth1").normalize_parameters([("a", "%")] * (N // 10)),
         lambda: "&".join(["a=%25"] * (N // 10))),
        ("oauth1.signature_base_string &",
         lambda: mod("oauth1").signature_base_string("GET", "http://a.example/?" + "&" * N),
         lambda: "GET&http%3A%2F%2Fa.example%2F&"),
        ("oauth1.parse_authorization_header \\",
         lambda: mod("oauth1").parse_authorization_header('OAuth a="' + "\\\\" * K4 + '"'),
         None),
        # RFC 8187 / Content-Disposition
        ("rfc8187.decode %25", lambda: mod("rfc8187").decode("UTF-8''" + "%25" * K3),
         lambda: ("%" * K3, "")),
        ("rfc8187.decode %", lambda: _raises(PercentDecodeError,
                                             lambda: mod("rfc8187").decode("UTF-8''" + "%" * N)),
         None),
        ("rfc8187.parse_content_disposition ;",
         lambda: _call_quiet(lambda: mod("rfc8187").parse_content_disposition(
             "attachment" + ";" * N)), None),
        ("rfc8187.parse_content_disposition quoted \\",
         lambda: mod("rfc8187").parse_content_disposition(
             'attachment; filename="' + "\\\\" * K4 + '"'),
         lambda: ("attachment", {"filename": "\\" * K4})),
        ("rfc8187.content_disposition %", lambda: len(mod("rfc8187").content_disposition(
            "%" * N)) > N, lambda: True),
        # ALPN
        ("alpn.decode %", lambda: _raises(PercentDecodeError,
                                          lambda: mod("alpn").decode("%" * N)), None),
        # RFC 7301 §3.1: a protocol ID is at most 255 octets
        ("alpn.encode %", lambda: _raises(PercentEncodeError, lambda: mod("alpn").encode(
            "%" * N)), None),
        # RFC 3986
        ("rfc3986.remove_dot_segments /..", lambda: mod("rfc3986").remove_dot_segments(
            "/.." * K3), lambda: "/"),
        ("rfc3986.remove_dot_segments /a then /..",
         lambda: mod("rfc3986").remove_dot_segments("/a" * (N // 5) + "/.." * (N // 5)),
          lambda: "/"),
        ("rfc3986.remove_dot_segments /a/..", lambda: mod("rfc3986").remove_dot_segments(
            "/a/.." * (N // 5)), lambda: "/"),
        ("rfc3986.remove_dot_segments ./", lambda: mod("rfc3986").remove_dot_segments(
            "./" * (N // 2) + "a"), lambda: "a"),
        ("rfc3986.normalize %41", lambda: mod("rfc3986").normalize("HTTP://A.example/" +
                                                                   "%41" * K3),
         lambda: "http://a.example/" + "A" * K3),
        ("rfc3986.normalize %", lambda: _call_quiet(
            lambda: mod("rfc3986").normalize("http://a.example/" + "%" * N)), None),
        ("rfc3986.requote %", lambda: mod("rfc3986").requote("%" * N), lambda: "%25" * N),
        ("rfc3986.requote %%41", lambda: mod("rfc3986").requote("%%41" * K4),
         lambda: "%25%41" * K4),
        ("rfc3986.split ?", lambda: mod("rfc3986").split("?" * N).query, lambda: "?" * (N - 1)),
        ("rfc3986.split_authority @", lambda: _call_quiet(
            lambda: mod("rfc3986").split_authority("@" * N)), None),
        ("rfc3986.split_authority [", lambda: _call_quiet(
            lambda: mod("rfc3986").split_authority("[" * N)), None),
        ("rfc3986.normalize_percent_encoding %c3",
         lambda: mod("rfc3986").normalize_percent_encoding("%c3" * K3), lambda: "%C3" * K3),
        # IRI / XPath
        ("iri.uri_to_iri %C3%A9", lambda: mod("iri").uri_to_iri("%C3%A9" * (N // 6)),
         lambda: "é" * (N // 6)),
        ("iri.uri_to_iri %C3", lambda: mod("iri").uri_to_iri("%C3" * K3), lambda: "%C3" * K3),
        ("iri.uri_to_iri %", lambda: _call_quiet(lambda: mod("iri").uri_to_iri("%" * N)), None),
        ("iri.iri_to_uri é", lambda: mod("iri").iri_to_uri("é" * N), lambda: "%C3%A9" * N),
        ("xpath.encode_for_uri %", lambda: mod("xpath").encode_for_uri("%" * N), lambda: "%25" * N),
        ("xpath.iri_to_uri %", lambda: mod("xpath").iri_to_uri("%" * N), lambda: "%" * N),
        ("xpath.escape_html_uri é", lambda: mod("xpath").escape_html_uri("é" * N),
         lambda: "%C3%A9" * N),
        # legacy decoders
        ("legacy.php_urldecode %", lambda: mod("legacy").php_urldecode("%" * N), lambda: "%" * N),
        ("legacy.php_urldecode %%41", lambda: mod("legacy").php_urldecode("%%41" * K4),
         lambda: "%A" * K4),
        ("legacy.php_rawurldecode %25", lambda: mod("legacy").php_rawurldecode("%25" * K3),
         lambda: "%" * K3),
        ("legacy.go_query_unescape %", lambda: _raises(
            PercentDecodeError, lambda: mod("legacy").go_query_unescape("%" * N), 0), None),
        ("legacy.go_query_unescape % at end", lambda: _raises(
            PercentDecodeError, lambda: mod("legacy").go_query_unescape("+" * N + "%"), N),
         None),
        ("legacy.java_urldecode %25", lambda: mod("legacy").java_urldecode("%25" * K3),
         lambda: "%" * K3),
        ("legacy.dotnet_unescape_data_string %",
         lambda: mod("legacy").dotnet_unescape_data_string("%" * N), lambda: "%" * N),
        ("legacy.ruby_cgi_unescape %", lambda: mod("legacy").ruby_cgi_unescape("%" * N),
         lambda: "%" * N),
        ("legacy.html4_form_decode &;", lambda: mod("legacy").html4_form_decode("&;" * K4),
         lambda: []),
        ("legacy.cgi_decode %25", lambda: mod("legacy").cgi_decode("%25" * K3), lambda: "%" * K3),
        ("legacy.cgi_search_words +", lambda: _call_quiet(
            lambda: mod("legacy").cgi_search_words("+" * N)), None),
        ("legacy.slug_decode %", lambda: _call_quiet(
            lambda: mod("legacy").slug_decode("%" * N)), None),
        ("legacy.rfc_decode %25", lambda: mod("legacy").rfc_decode("%25" * K3), lambda: "%" * K3),
        ("legacy.http_build_query wide",
         lambda: len(mod("legacy").http_build_query({str(i): "%" for i in range(N // 10)})),
         None),
        # analysis
        ("detect.diagnose %%%%", lambda: len(mod("detect").diagnose("%" * (N // 4))),
         lambda: N // 4),
        ("detect.diagnose \"", lambda: _call_quiet(
            lambda: mod("detect").diagnose('"' * (N // 8))), None),
        ("detect.undo_double_encoding %252525", lambda: mod("detect").undo_double_encoding(
            "%" + "25" * (N // 2) + "41"), lambda: "%41"),
        ("detect.undo_double_encoding %25 runs", lambda: mod("detect").undo_double_encoding(
            "%2541" * (N // 5)), lambda: "%41" * (N // 5)),
        ("detect.variants %%41", lambda: _call_quiet(
            lambda: mod("detect").variants("%%41" * (N // 16))), None),
        ("detect.space_convention ?", lambda: _call_quiet(
            lambda: mod("detect").space_convention("http://a.example/?" + "+" * N)), None),
        ("detect.charset \\x82", lambda: _call_quiet(
            lambda: mod("detect").charset(b"\x82" * (N // 20))), None),
        # encodings
        ("encodings.decode iso-2022-jp ESC", lambda: _call_quiet(
            lambda: mod("encodings").decode(b"\x1b" * N, "iso-2022-jp")), None),
        ("encodings.decode iso-2022-jp ESC $ B", lambda: _call_quiet(
            lambda: mod("encodings").decode(b"\x1b$B" * K3, "iso-2022-jp")), None),
        ("encodings.decode shift_jis lead bytes",
         lambda: len(mod("encodings").decode(b"\xa0" * N, "shift_jis")), lambda: N),
        ("encodings.decode gb18030 four-byte",
         lambda: mod("encodings").decode(b"\x81\x30\x81\x30" * K4, "gb18030"), lambda: "\x80" * K4),
        ("encodings.decode big5 lead bytes",
         lambda: mod("encodings").decode(b"\x81" * N, "big5"), lambda: "\ufffd" * (N // 2)),
        ("encodings.decode utf-16le lone surrogates",
         lambda: mod("encodings").decode(b"\x00\xd8" * (N // 2), "utf-16le"),
         lambda: "\ufffd" * (N // 2)),
        ("encodings.decode utf-8 fatal at end", lambda: _raises(
            TextDecodeError, lambda: mod("encodings").decode(b"a" * N + b"\xff", "utf-8",
                                                             errors="fatal"), N), None),
        ("encodings.encode shift_jis html",
         lambda: mod("encodings").encode("€" * (N // 4), "shift_jis", errors="html"),
         lambda: b"&#8364;" * (N // 4)),
    ]
    return [pytest.param(fn, expected, id=label) for label, fn, expected in cases]


def _linear_split(kernel_free: bool) -> list[str]:
    return [c.id for c in _linear_cases() if c.id.startswith("encodings.") == kernel_free]


def _linear_case(label: str, size: int) -> tuple[Callable[[], Any], Callable[[], Any] | None]:
    """The case ``label`` built for ``size`` characters: (call, None or a thunk of the
    expected result)."""
    for c in _linear_cases(size):
        if c.id == label:
            fn, expected = c.values
            return fn, expected
    raise KeyError(label)


def _sorted(p: Any) -> Any:
    p.sort()
    return p


def _call_quiet(fn: Callable[[], Any]) -> None:
    """Only the exception type and the time matter for these cases."""
    _outcome(fn)


@pytest.mark.parametrize("label", _linear_split(kernel_free=False))
def test_linear_time(label: str) -> None:
    """Adversarial input of size 4n takes less than 12x the time of size n (linear is 4x),
    with the exact result at both sizes where it is known."""
    _linear(label)


@pytest.mark.one_impl
@pytest.mark.parametrize("label", _linear_split(kernel_free=True))
def test_linear_time_once(label: str) -> None:
    """As test_linear_time, for the encodings (they never reach the kernels)."""
    _linear(label)


def _linear(label: str) -> None:
    # (n_max above the default: a call as fast as CPython's UTF-8 decoder is still under a
    # millisecond at 1M, where a page-fault step alone can pass the 12x bound)
    g = assert_linear(lambda fn: _outcome(fn), lambda n: _linear_case(label, n)[0],
                      label=label, n0=N // 4, n_max=1 << 22)
    for size in (g.n, 4 * g.n):
        fn, expect = _linear_case(label, size)
        ok, result = _outcome(fn)
        assert ok, f"adversarial input of size {size} raised {result!r}"
        if expect is not None:
            expected = expect()
            assert result == expected, (
                f"size {size}: got {_short(result)}, expected {_short(expected)}")
