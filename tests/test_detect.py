"""detect: the seeds' space-convention rules, every diagnosis code, double
encoding and scheme variants."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers.linear_time import assert_linear
from percent_encoding import detect
from percent_encoding.core import encode
from percent_encoding.detect import _diagnose
from percent_encoding.errors import PercentEncodingError, PercentEncodingTypeError


class TestSpaceConvention:
    @pytest.mark.parametrize(
        ("url", "plus", "rule"),
        [
            ("http://example.com/?q=a+b", True, "http-query"),  # HTML §4.10.21.3
            ("HTTPS://example.com/?q=a+b", True, "http-query"),
            ("ws://example.com/chat?room=a+b", True, "http-query"),
            ("wss://example.com/chat?room=a+b", True, "http-query"),
            ("mailto:a@example.com?subject=a+b", False, "other-scheme-query"),  # RFC 6068
            ("ftp://example.com/?a+b", False, "other-scheme-query"),
            ("/relative?q=a+b", False, "no-scheme-query"),  # no scheme known
        ],
    )
    def test_query_by_scheme(self, url: str, plus: bool, rule: str) -> None:
        c = detect.space_convention(url)
        assert c.plus_is_space is plus and c.rule == rule and c.reason

    def test_paths_and_fragments_are_plain(self) -> None:
        for comp in ("path", "fragment", "userinfo", "host"):
            c = detect.space_convention("https://example.com/a+b#c+d", component=comp)
            assert c.plus_is_space is False and c.rule == "url-component"

    def test_post_body_is_a_form(self) -> None:
        c = detect.space_convention(method="POST")
        assert c.plus_is_space and c.confidence == "certain" and c.rule == "form-body"
        assert detect.space_convention(component="body").plus_is_space
        assert not detect.space_convention(method="GET").plus_is_space

    def test_rule_is_a_stable_identifier_and_paragraph_is_deprecated(self) -> None:
        seen = {detect.space_convention(u, method=m, component=c).rule for u, m, c in [
            (None, "POST", None), (None, "GET", None), ("https://x/", None, "path"),
            ("https://x/?a", None, None), ("/x?a", None, None), ("ftp://x/?a", None, None),
            ("https://x/#access_token=a+b", None, None)]}
        assert seen == set(detect.RULES)
        c = detect.space_convention("https://example.com/?q=a+b")
        with pytest.warns(DeprecationWarning, match="use .rule"):
            assert c.paragraph == "[166]"

    @pytest.mark.parametrize(
        ("url", "component"),
        [
            ("https://c.example/cb#access_token=a+b&token_type=bearer&state=x", None),
            ("https://c.example/cb#error=access_denied&error_description=a+b", "fragment"),
            ("com.example.app:/cb?code=a+b&state=x", None),  # RFC 8252 private-use scheme
            ("https://c.example/cb?app=1#access_token=a&state=x+y", "fragment"),
        ],
    )
    def test_oauth2_redirect_responses_are_form_encoded(self, url: str,
                                                        component: str | None) -> None:
        # RFC 6749 §4.1.2, §4.2.2 and Appendix B: the response is form data.
        c = detect.space_convention(url, component=component)
        assert c.plus_is_space is True and c.rule == "oauth2-redirect"
        assert "RFC 6749" in c.reason

    def test_not_oauth2(self) -> None:
        assert detect.space_convention("https://x.example/#a+b").plus_is_space is False
        assert detect.space_convention("myapp:/cb?code=a+b").plus_is_space is False
        assert detect.space_convention("mailto:a@x?code=1&state=a+b").rule == (
            "other-scheme-query")

    def test_scheme_argument(self) -> None:
        assert detect.space_convention(scheme="https").plus_is_space
        assert detect.space_convention(scheme="HTTP:").plus_is_space
        assert not detect.space_convention(scheme="data").plus_is_space

    def test_bad_arguments(self) -> None:
        with pytest.raises(PercentEncodingError, match="component"):
            detect.space_convention("http://x/", component="port")
        with pytest.raises(PercentEncodingTypeError):
            detect.space_convention(3)  # type: ignore[arg-type]


def codes(text: str, context: str = "query") -> list[str]:
    return [f.code for f in detect.diagnose(text, context=context)]


class TestDiagnose:
    def test_clean_strings_have_no_findings(self) -> None:
        assert detect.diagnose("") == []
        assert detect.diagnose("a=b&c=%E3%81%82%20x") == []
        assert detect.diagnose("/a/b%2Fc", context="path") == []
        encoded = encode("日本 語!*'()", "rfc3986-unreserved")
        assert detect.diagnose(encoded, context="component") == []

    def test_each_code(self) -> None:
        assert codes("a%zz") == ["invalid-percent"]
        assert codes("50% off") == ["invalid-percent", "raw-character"]
        assert codes("abc%") == ["trailing-percent"]
        assert codes("abc%E") == ["trailing-percent"]
        assert codes("%e3%81%82") == ["lowercase-hex"]  # only %e3 has a letter
        assert codes("%c3%a9") == ["lowercase-hex"] * 2
        assert codes("%41") == ["encoded-unreserved"]
        assert codes("%7E%2D") == ["encoded-unreserved", "encoded-unreserved"]
        assert codes("a b") == ["raw-character"]
        assert codes("日本") == ["raw-character", "raw-character"]
        assert codes("%FF%FE") == ["invalid-utf8"]  # one contiguous stretch
        assert codes("%FFa%FE") == ["invalid-utf8", "invalid-utf8"]
        assert codes("%82%A0") == ["invalid-utf8"]  # Shift_JIS あ
        assert codes("%2541") == ["double-encoded"]
        assert codes("%252541") == ["double-encoded"]
        assert codes("%u3042") == ["percent-u"]
        assert codes("a+b") == ["ambiguous-plus"]

    def test_positions_and_fixes(self) -> None:
        (f,) = detect.diagnose("abc%zz")
        assert (f.start, f.end) == (3, 4) and "%25" in f.fix
        (f,) = detect.diagnose("x%2520")
        assert (f.start, f.end) == (1, 6) and f.fix.startswith("%20")
        (f,) = detect.diagnose("é", context="query")
        assert f.fix == "%C3%A9"
        (f,) = detect.diagnose("%u3042")
        assert "%E3%81%82" in f.fix
        fs = detect.diagnose("ok%E3%81")
        assert [(x.code, x.start, x.end) for x in fs] == [("invalid-utf8", 2, 8)]

    def test_context_changes_what_is_raw(self) -> None:
        assert codes("a/b?c", "query") == []
        assert codes("a/b", "path-segment") == ["raw-character"]
        assert codes("a+b", "path") == []  # '+' is a plain sub-delim in a path
        assert codes("a=b&c=d+e", "form") == []  # & = + are a form's own syntax
        assert codes("a=b&c+d", "form") == ["missing-equals"]  # a field needs its '='
        assert codes("a=b&c+d", "query") == ["ambiguous-plus"]
        assert codes("a&b", "component") == ["raw-character"]
        assert codes("a b", "path") == ["raw-character"]
        assert codes("a^b", "path") == ["raw-character"]

    def test_lone_surrogate_is_a_finding_not_a_crash(self) -> None:
        (f,) = detect.diagnose("a\ud800")
        assert (f.code, f.start, f.fix) == ("raw-character", 1, "%EF%BF%BD")

    def test_type_errors(self) -> None:
        with pytest.raises(PercentEncodingTypeError):
            detect.diagnose(b"%41")  # type: ignore[arg-type]
        with pytest.raises(KeyError):
            detect.diagnose("x", context="nope")

    def test_linear_on_adversarial_input(self) -> None:
        n = 100_000
        assert len(detect.diagnose("%" * n)) == n
        assert detect.undo_double_encoding("%25" * n) == "%25" * n


class TestDoubleEncoding:
    def test_examples(self) -> None:
        assert detect.undo_double_encoding("%2541") == "%41"
        assert detect.undo_double_encoding("%25252F") == "%2F"
        assert detect.undo_double_encoding("100%25") == "100%25"
        assert detect.undo_double_encoding("100%25 off") == "100%25 off"
        assert detect.undo_double_encoding("a%2520b") == "a%20b"

    @settings(max_examples=200)
    @given(st.text(st.characters(exclude_categories=("Cs",))), st.integers(1, 4))
    def test_undoes_repeated_encoding(self, text: str, layers: int) -> None:
        once = encode(text, "component")
        many = once
        for _ in range(layers):
            many = encode(many, "component")
        # An escape-free "%25" in the original would be ambiguous; the
        # component set turns every "%" into an escape so this always holds.
        assert detect.undo_double_encoding(many) == detect.undo_double_encoding(once)
        assert detect.undo_double_encoding(detect.undo_double_encoding(many)) == (
            detect.undo_double_encoding(many)
        )


class TestVariants:
    def test_seed_example(self) -> None:
        v = detect.variants("a%20b!")
        assert "ecmascript-encodeURIComponent" in v
        assert "application/x-www-form-urlencoded" not in v

    def test_plus_form(self) -> None:
        v = detect.variants("a+b")
        assert "application/x-www-form-urlencoded" in v
        assert "ecmascript-encodeURIComponent" not in v  # it writes "+" as %2B

    def test_types(self) -> None:
        with pytest.raises(PercentEncodingTypeError):
            detect.variants(None)  # type: ignore[arg-type]


# --- whole URLs ------------------------------------------------------------------


@pytest.mark.parametrize(
    "u,plus,rule",
    [
        ("http://example.com/a+b/c", False, "url-component"),  # '+' in the path
        ("https://example.com/#a+b", False, "url-component"),  # in the fragment
        ("https://example.com/p?q=a+b#x+y", True, "http-query"),  # the query decides
        ("https://example.com/a+b?q=a+b", True, "http-query"),
        ("https://u+s@example.com/", False, "url-component"),
        ("https://example.com/?q=ab", True, "http-query"),  # no '+': the query's rule
    ],
)
def test_space_convention_judges_the_component_of_the_plus(u: str, plus: bool, rule: str) -> None:
    sc = detect.space_convention(u)
    assert (sc.plus_is_space, sc.rule) == (plus, rule)


def test_diagnose_url_names_components() -> None:
    u = "https://h.example/a+b%zz?q=c+d%e9#e+f%2"
    fs = detect.diagnose(u)
    got = [(f.code, f.component, f.start) for f in fs]
    assert got == [
        ("invalid-percent", "path", u.index("%zz")),
        ("ambiguous-plus", "query", u.index("c+d") + 1),
        ("lowercase-hex", "query", u.index("%e9")),
        ("invalid-utf8", "query", u.index("%e9")),
        ("trailing-percent", "fragment", u.index("%2")),
    ]
    # '#' ends the query: the '+' after it is not ambiguous.
    assert [f.code for f in detect.diagnose("http://h/?a#b+c")] == []
    # An explicit context keeps the old single-component reading.
    old = [f.code for f in detect.diagnose("http://h/#b+c", context="query")]
    assert old == ["raw-character", "ambiguous-plus"]


@pytest.mark.one_impl
@settings(max_examples=200)
@given(st.lists(st.sampled_from([*"%+aZ09-._~/?#&=éŸ ", "%25", "%2e", "%2E", "%41", "%e9",
                                 "%E9", "%FF", "%C3%A9", "%u20AC", "%7e"]),
                max_size=30).map("".join))
def test_quiet_runs_hide_no_finding(text: str) -> None:
    # The run-skipping token pattern must give what the plain one gives.
    for ctx in ("query", "path", "form", "component", "fragment"):
        fast = detect.diagnose(text, context=ctx)
        orig = _diagnose.token_re
        try:
            _diagnose.token_re = lambda *_a: _diagnose.TOKEN  # type: ignore[assignment]
            slow = detect.diagnose(text, context=ctx)
        finally:
            _diagnose.token_re = orig  # type: ignore[assignment]
        assert fast == slow, (ctx, text)


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.one_impl
@pytest.mark.parametrize("piece", ["%FF", "%ff+", "%", "+", "é", "%25%41", "a"])
def test_diagnose_is_linear(piece: str) -> None:
    # n against 4n repetitions (n calibrated, at least 5000): linear is 4x, 12x fails.
    assert_linear(detect.diagnose, lambda n: piece * n, label=f"diagnose({piece!r} * n)",
                  n0=5000)


_LAYERED_RE = re.compile(r"%(?:25)+(?=[0-9A-Fa-f]{2})")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["%", "25", "2", "5", "22", "55", "41", "z", "a", "%25"]),
                max_size=14).map("".join))
def test_undo_double_encoding_equals_the_regex(text: str) -> None:
    # The hand-written peel (linear on long %2525... runs) is the regex it replaced.
    assert detect.undo_double_encoding(text) == _LAYERED_RE.sub("%", text)


# --- context="form": what only a form body gets wrong ------------------------------


@pytest.mark.parametrize("body,want", [
    ("a=1;b=2", [("semicolon-separator", 3)]),
    ("a=1;b=2;c=3", [("semicolon-separator", 3), ("semicolon-separator", 7)]),
    # a ';' not followed by name= is just data (still encoded by a form), and an
    # obs-uchar by the seed's grammar (001 [12] rule 15)
    ("t=10;20", [("obs-uchar", 4)]),
    ("a=b=c", [("raw-equals", 3)]),
    ("a=1;b=2=3", [("semicolon-separator", 3), ("raw-equals", 7)]),
    ("a", [("missing-equals", 0)]),
    ("a=1&b", [("missing-equals", 4)]),
    ("=x", [("empty-name", 0)]),
    ("a=1&&b=2", [("empty-field", 4)]),
    ("&a=1&", [("empty-field", 0), ("empty-field", 5)]),
    ("a=x%0Ay", [("lone-newline", 3)]),
    ("a=x%0dy", [("lowercase-hex", 3), ("lone-newline", 3)]),
    ("a=x%0D%0Ay", []),
    ("a=caf\u00e9", [("raw-character", 5)]),
    ("a=b c", [("raw-character", 3)]),
    ("a=%zz", [("invalid-percent", 2)]),
    ("a=100%", [("trailing-percent", 5)]),
    ("a=%E9", [("obs-escaped-code", 2)]),  # the grammar's rule 10, not invalid-utf8
    ("q=a+b&r=%2B", []),
    ("q=a+b&r=%2B&e=", [("obs-value", 14)]),  # an empty value: rule 14
    ("", [("obs-body", 0)]),  # no field: rule 12
    ("a=%41", []),  # a valid escaped-code (rule 9), no encoded-unreserved in a form
    ("a=~'()$@*!,:", [("raw-character", 2), ("obs-uchar", 3)]),  # ',' ':' are uchar
])
def test_diagnose_form(body: str, want: list[tuple[str, int]]) -> None:
    got = [(f.code, f.start) for f in detect.diagnose(body, context="form")]
    assert got == want


@settings(max_examples=300)
@given(st.lists(st.tuples(st.text(min_size=1, max_size=8), st.text(max_size=8)), max_size=6))
def test_diagnose_form_finds_nothing_a_browser_sends(pairs: list[tuple[str, str]]) -> None:
    from percent_encoding.form import html_form_body

    body = html_form_body(pairs).decode("ascii")
    found = detect.diagnose(body, context="form")
    # Only the double-encoding guess (a value that holds "%41" is sent as %2541) and the
    # seed grammar's obs- rules may fire: a browser writes '*' raw (obs-uchar), non-ASCII
    # as escapes above 7F (obs-escaped-code), an empty value (obs-value) or no field.
    allowed = {"double-encoded", "obs-uchar", "obs-escaped-code", "obs-value", "obs-body"}
    assert {f.code for f in found} <= allowed, body
    if not any("%" in n + v for n, v in pairs):
        assert "double-encoded" not in {f.code for f in found}, body
    assert detect.form_conformance(body).level != "invalid", body


@pytest.mark.slow  # timing: the full suite, not the quick tier
def test_diagnose_form_is_linear() -> None:
    for unit in (";b=", "=", "&", "%0A", ";" * 7 + "=", "a;"):
        assert_linear(lambda s: detect.diagnose(s, context="form"),
                      lambda n, u=unit: "a=" + u * n, label=repr(unit))


# --- a raw '%' in a Message-ID (seed 000 [63]) --------------------------------------


@pytest.mark.parametrize("text,want", [
    # RFC 2392 mid: URL and RFC 5538 news: article: msg-id is id-left "@" id-right
    ("mid:foo%ab@example.com", [("raw-percent-likely", 7, 10, "%25ab")]),
    ("news:12%C0x@host.example", [("raw-percent-likely", 7, 10, "%25C0")]),
    ("http://list.example/arch?id=<a%fe%ff@x.y>",
     [("raw-character", 28, 29, "%3C"), ("raw-percent-likely", 30, 33, "%25fe"),
      ("raw-percent-likely", 33, 36, "%25ff"), ("raw-character", 40, 41, "%3E")]),
    ("mid:x%80y@[10.0.0.1]",  # id-right as a no-fold-literal (whose brackets need escapes)
     [("raw-percent-likely", 5, 8, "%2580"), ("raw-character", 10, 11, "%5B"),
      ("raw-character", 19, 20, "%5D")]),
])
def test_raw_percent_in_a_message_id(text: str, want: list[tuple[str, int, int, str]]) -> None:
    got = detect.diagnose(text)
    assert [(f.code, f.start, f.end, f.fix) for f in got] == want
    assert all("%25" in f.message and "RFC 5322" in f.message
               for f in got if f.code == "raw-percent-likely")


@pytest.mark.parametrize("text,code", [
    ("foo%ab", "invalid-utf8"),            # no '@': not a Message-ID
    ("foo%ab@", "invalid-utf8"),           # no id-right
    ("%ab@x.y", "raw-percent-likely"),     # the '%' may open id-left
    ("a@b%ab@c", "invalid-utf8"),          # two '@': not one local@domain
    ("foo%ab@x..y", "invalid-utf8"),       # id-right is not a dot-atom
    ("id%ab@x.y", "raw-percent-likely"),
    ("id/%ab@x.y", "raw-percent-likely"),  # '/' ends a mid: URL's msg-id part
    ("id%ab/x@y.z", "invalid-utf8"),       # the '%' is in the segment before the '/'
])
def test_message_id_shape(text: str, code: str) -> None:
    got = [f.code for f in detect.diagnose(text) if f.code != "lowercase-hex"]
    assert got == [code]


def test_valid_utf8_in_a_message_id_is_not_raw() -> None:
    # %C3%A9 decodes to 'é': nothing says the '%' was raw
    assert codes("mid:caf%C3%A9@example.com") == []
    # a '%' with no hex after it stays invalid-percent, as before
    assert codes("mid:a%zz@example.com") == ["invalid-percent"]
    # the likely-raw '%' gets no lower-case-hex fix (it is not an escape at all)
    assert codes("mid:a%ab@example.com") == ["raw-percent-likely"]
    assert codes("a%ab") == ["lowercase-hex", "invalid-utf8"]


@pytest.mark.slow  # timing: the full suite, not the quick tier
@pytest.mark.one_impl
@pytest.mark.parametrize("piece", ["a%ff@b.c ", "%ff@", "@%ff", "a" * 7 + "%", "x@" + "y." * 3])
def test_raw_percent_scan_is_linear(piece: str) -> None:
    assert_linear(detect.diagnose, lambda n: piece * n, label=f"diagnose({piece!r} * n)",
                  n0=5000)


# --- context="form": names a protocol owns (seed 001 [41] [45] [142]) -------------------


@pytest.mark.parametrize("body,want", [
    ("oauth_foo=1", [("oauth-reserved-name", 0, 9)]),            # RFC 5849 §3.1
    ("a=1&oauth_body_hash=x", [("oauth-reserved-name", 4, 19)]),  # an extension, not 5849
    ("oauth%5Fbar=3", [("oauth-reserved-name", 0, 11)]),          # compared decoded
    ("oauth_x+y=3", [("oauth-reserved-name", 0, 9)]),             # '+' decodes to a space
    ("oauth_x", [("missing-equals", 0, 7), ("oauth-reserved-name", 0, 7)]),
    ("openid.mode=checkid_setup", [("openid-name", 0, 11)]),     # OpenID 2.0 §4.1.3
    ("openid.ns=http%3A%2F%2Fspecs.openid.net%2Fauth%2F2.0&x=1", [("openid-name", 0, 9)]),
    ("openid%2Eclaimed_id=x", [("openid-name", 0, 19)]),
    # what RFC 5849 defines, in a request (§3.1, §2.1, §2.3) or a response (§2.1, §2.3)
    ("oauth_consumer_key=k&oauth_token=t&oauth_signature_method=HMAC-SHA1"
     "&oauth_signature=s&oauth_timestamp=1&oauth_nonce=n&oauth_version=1.0"
     "&oauth_callback=oob&oauth_verifier=v", []),
    ("oauth_token=hh5s93j4hdidpola&oauth_token_secret=hdhd0244k9j7ao03"
     "&oauth_callback_confirmed=true", []),  # the RFC's §2.1 response
    ("OAuth_x=1&oauth=2&openid=3&xopenid.a=4&oauth_token_secretx=5",  # case, no prefix
     [("oauth-reserved-name", 39, 58)]),
])
def test_diagnose_form_reserved_names(body: str, want: list[tuple[str, int, int]]) -> None:
    got = [(f.code, f.start, f.end) for f in detect.diagnose(body, context="form")]
    assert got == want
    for f in detect.diagnose(body, context="form"):
        if f.code == "oauth-reserved-name":
            assert "RFC 5849 §3.1" in f.message
        if f.code == "openid-name":
            assert "OpenID Authentication 2.0" in f.message


def test_reserved_names_only_in_a_form() -> None:
    assert codes("oauth_foo=1&openid.mode=x", "query") == []
