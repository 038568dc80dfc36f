"""Other specs' form variants in ``form`` (issue 43): the HTML5 drafts' "Post to data:",
Lynx's application/sgml-form-urlencoded, WSDL 2.0's HTTP binding serialization, the
SPARQL 1.1 Protocol's URL-encoded requests, OpenURL KEV and XProc's
p:www-form-urlencode/-urldecode; each with its spec's examples and its registry row."""

from __future__ import annotations

import pytest

from percent_encoding import form, schemes
from percent_encoding.errors import (
    PercentEncodingError,
    PercentEncodingTypeError,
    UnknownEncodingError,
)


# ---------------------------------------------------------------------------
# "Post to data:" (WHATWG Web Applications 1.0, 2008-2010)
# ---------------------------------------------------------------------------
def test_post_to_data_replaces_the_first_double_percent() -> None:
    # Every byte outside RFC 3986 unreserved is escaped once.
    assert form.post_to_data("data:text/plain,%%", "a=b+c") == "data:text/plain,a%3Db%2Bc"
    assert form.post_to_data("data:,%%|%%", "x y") == "data:,x%20y|%%"
    assert form.post_to_data("data:,%%", "a-b_c.d~e") == "data:,a-b_c.d~e"


def test_post_to_data_escapes_twice_for_four_percents() -> None:
    assert form.post_to_data("data:text/plain,%%%%", "a=b+c") == (
        "data:text/plain,a%253Db%252Bc"
    )
    # "%%%%" wins over an earlier "%%"; only its first occurrence is replaced.
    assert form.post_to_data("data:,%%-%%%%-%%%%", "=") == "data:,%%-%253D-%%%%"


def test_post_to_data_without_a_placeholder_and_from_pairs() -> None:
    assert form.post_to_data("data:text/html,<p>hi", "a=b") == "data:text/html,<p>hi"
    assert form.post_to_data("data:,%%", [("q", "caf\u00e9 au lait")]) == (
        "data:,q%3Dcaf%25C3%25A9%2Bau%2Blait"
    )
    assert form.post_to_data("data:,%%", b"a=%C3%A9") == "data:,a%3D%25C3%25A9"
    assert form.post_to_data("data:,%%", {"a": "1"}) == "data:,a%3D1"
    with pytest.raises(PercentEncodingTypeError):
        form.post_to_data("data:,%%", 3)  # type: ignore[arg-type]
    with pytest.raises(PercentEncodingTypeError):
        form.post_to_data(None, "a")  # type: ignore[arg-type]
    row = schemes.get("html5-post-to-data")
    assert "data:," + row.encode("a=b+c") == form.post_to_data("data:,%%", "a=b+c")


def test_post_to_data_applies_only_to_data_actions() -> None:
    # The drafts' table runs "Post to data:" for a POST form whose action's scheme is
    # data (compared ASCII case-insensitively); an http action's "%%" is not a
    # placeholder (its body goes in the request), so asking for it is an error.
    assert form.post_to_data("DATA:,%%", "a=b") == "DATA:,a%3Db"
    assert form.post_to_data("Data:text/plain,%%%%", "a b") == "Data:text/plain,a%2520b"
    for action in ("http://example.com/%%", "https://x/?q=%%%%", "%%", "mailto:a@b?body=%%",
                   "data", " data:,%%"):
        with pytest.raises(PercentEncodingError, match="data:"):
            form.post_to_data(action, "a=b")


# ---------------------------------------------------------------------------
# Lynx application/sgml-form-urlencoded
# ---------------------------------------------------------------------------
def test_sgml_form_urlencoded_uses_semicolons() -> None:
    pairs = [("a", "1 2"), ("b", "x;y&z")]
    body = form.sgml_form_serialize(pairs)
    assert body == "a=1+2;b=x%3By%26z"
    assert form.sgml_form_parse(body) == pairs
    assert form.sgml_form_parse("a=1&b=2") == [("a", "1&b=2")]  # "&" is data here
    assert form.SGML_FORM_URLENCODED == "application/sgml-form-urlencoded"
    row = schemes.get("application/sgml-form-urlencoded")
    assert row.encode_pairs is not None and row.encode_pairs(pairs) == body
    assert schemes.get("lynx-sgml-form-urlencoded") is row


# ---------------------------------------------------------------------------
# WSDL 2.0 Adjuncts §6.8.2
# ---------------------------------------------------------------------------
def test_wsdl_urlencode() -> None:
    assert form.wsdl_urlencode([("city", "S\u00e3o Paulo"), ("n", "1&2")]) == (
        "city=S%C3%A3o%20Paulo&n=1%262"
    )
    assert form.wsdl_urlencode([("a", "1;2"), ("b", "2")], separator=";") == "a=1%3B2;b=2"
    assert form.wsdl_urlencode([]) == ""
    for bad in ("", "&&", "a", "~", "=", "%"):
        with pytest.raises(PercentEncodingError):
            form.wsdl_urlencode([("a", "1")], separator=bad)
    for name in ("1a", "a:b", "a b", ""):
        with pytest.raises(PercentEncodingError, match="NCName"):
            form.wsdl_urlencode([(name, "1")])
    row = schemes.get("wsdl20-http-urlencoded")
    assert row.encode("a b~") == "a%20b~"


# ---------------------------------------------------------------------------
# SPARQL 1.1 Protocol §2.1 and §2.2
# ---------------------------------------------------------------------------
QUERY = "PREFIX dc: <http://purl.org/dc/elements/1.1/> \nSELECT ?book ?who \n" \
    "WHERE { ?book dc:creator ?who }\n"
# §3.1.1 "SELECT with service-supplied RDF Dataset" sends this query string.
QUERY_ENCODED = (
    "query=PREFIX%20dc%3A%20%3Chttp%3A%2F%2Fpurl.org%2Fdc%2Felements%2F1.1%2F%3E%20%0A"
    "SELECT%20%3Fbook%20%3Fwho%20%0AWHERE%20%7B%20%3Fbook%20dc%3Acreator%20%3Fwho%20%7D%0A"
)


def test_sparql_query_request_matches_the_protocol_example() -> None:
    assert form.sparql_query_request(QUERY) == QUERY_ENCODED
    r = form.sparql_parse(QUERY_ENCODED)
    assert (r.operation, r.text, r.graphs, r.named_graphs) == ("query", QUERY, (), ())


def test_sparql_the_protocols_other_examples() -> None:
    # §3.1.2: the same query with a default-graph-uri.
    assert form.sparql_query_request(
        QUERY, default_graph_uri=["http://www.other.example/books"]
    ) == QUERY_ENCODED + "&default-graph-uri=http%3A%2F%2Fwww.other.example%2Fbooks"
    # §3.1.13 "SELECT with internationalization": UTF-8.
    kanji = ("PREFIX foaf: <http://xmlns.com/foaf/0.1/>\n"
             "PREFIX \u98df: <http://www.w3.org/2001/sw/DataAccess/tests/data/i18n/kanji.ttl#>\n"
             "SELECT ?name ?food \n"
             "WHERE { [ foaf:name ?name ; \u98df:\u98df\u3079\u308b ?food ] . }")
    assert form.sparql_query_request(kanji) == (
        "query=PREFIX%20foaf%3A%20%3Chttp%3A%2F%2Fxmlns.com%2Ffoaf%2F0.1%2F%3E%0APREFIX%20"
        "%E9%A3%9F%3A%20%3Chttp%3A%2F%2Fwww.w3.org%2F2001%2Fsw%2FDataAccess%2Ftests%2Fdata%2F"
        "i18n%2Fkanji.ttl%23%3E%0ASELECT%20%3Fname%20%3Ffood%20%0AWHERE%20%7B%20%5B%20foaf%3A"
        "name%20%3Fname%20%3B%20%E9%A3%9F%3A%E9%A3%9F%E3%81%B9%E3%82%8B%20%3Ffood%20%5D%20.%20%7D"
    )
    # §3.2.4's multi-operation update body.
    multi = "DELETE DATA { <a> <p> <old> } ;\nINSERT DATA { <a> <p> <new> }"
    body = ("update=DELETE%20DATA%20%7B%20%3Ca%3E%20%3Cp%3E%20%3Cold%3E%20%7D%20%3B%0AINSERT"
            "%20DATA%20%7B%20%3Ca%3E%20%3Cp%3E%20%3Cnew%3E%20%7D")
    assert form.sparql_update_request(multi) == body
    assert form.sparql_parse(body).text == multi
    # §3.2.5: the dataset parameters before the update, as the example sends them.
    r = form.sparql_parse(
        "using-named-graph-uri=http%3A%2F%2Flocalhost%3A8888%2Falice%2Ffoaf.rdf&"
        "using-named-graph-uri=http%3A%2F%2Flocalhost%3A8888%2Feve%2Ffoaf.rdf&update=PREFIX"
        "%20foaf%3A%20%3Chttp%3A%2F%2Fxmlns.com%2Ffoaf%2F0.1%2F%3E%0AINSERT%20%7B%20GRAPH%20"
        "%3Chttp%3A%2F%2Flocalhost%3A8888%2Fpeople%3E%20%7B%20%3Fperson%20%3Fproperty%20"
        "%3Fvalue%20%7D%20%7D%0AWHERE%20%7B%20GRAPH%20%3Fg%20%7B%20%3Fperson%20%3Fproperty"
        "%20%3Fvalue%20%3B%20foaf%3AgivenName%20%27Fred%27%20%7D%20%7D"
    )
    assert r.operation == "update" and r.text.endswith("foaf:givenName 'Fred' } }")
    assert r.named_graphs == ("http://localhost:8888/alice/foaf.rdf",
                              "http://localhost:8888/eve/foaf.rdf")


def test_sparql_dataset_and_update() -> None:
    body = form.sparql_query_request(
        "ASK {}", default_graph_uri=["http://a/g1", "http://a/g2"], named_graph_uri=["urn:x"]
    )
    assert body == ("query=ASK%20%7B%7D&default-graph-uri=http%3A%2F%2Fa%2Fg1"
                    "&default-graph-uri=http%3A%2F%2Fa%2Fg2&named-graph-uri=urn%3Ax")
    r = form.sparql_parse(body)
    assert r.graphs == ("http://a/g1", "http://a/g2") and r.named_graphs == ("urn:x",)
    up = form.sparql_update_request("CLEAR ALL", using_named_graph_uri=["urn:g"])
    assert up == "update=CLEAR%20ALL&using-named-graph-uri=urn%3Ag"
    r = form.sparql_parse(up + "&timeout=5")
    assert (r.operation, r.text, r.named_graphs, r.other) == (
        "update", "CLEAR ALL", ("urn:g",), (("timeout", "5"),)
    )
    assert form.sparql_parse("query=ASK+%7B%7D").text == "ASK {}"  # a form body's "+"


@pytest.mark.parametrize("body", [
    "", "default-graph-uri=x", "query=a&query=b", "query=a&update=b",
    "update=x&default-graph-uri=g", "query=x&using-graph-uri=g",
])
def test_sparql_parse_refuses_what_the_protocol_forbids(body: str) -> None:
    with pytest.raises(PercentEncodingError):
        form.sparql_parse(body)


def test_sparql_arguments() -> None:
    with pytest.raises(PercentEncodingTypeError):
        form.sparql_query_request("ASK {}", default_graph_uri="http://g")
    with pytest.raises(PercentEncodingTypeError):
        form.sparql_update_request(b"CLEAR ALL")  # type: ignore[arg-type]
    assert schemes.get("sparql11-protocol").encode("?s ?p") == "%3Fs%20%3Fp"


# ---------------------------------------------------------------------------
# OpenURL Z39.88-2004 KEV
# ---------------------------------------------------------------------------
def test_openurl_kev_writes_the_version_keys_first() -> None:
    kev = form.openurl_kev([("rft_val_fmt", "info:ofi/fmt:kev:mtx:journal"),
                            ("rft.atitle", "Isolation of a common receptor"),
                            ("rft.aulast", "M\u00fcller")])
    assert kev == (
        "url_ver=Z39.88-2004&ctx_ver=Z39.88-2004&ctx_enc=info%3Aofi%2Fenc%3AUTF-8"
        "&rft_val_fmt=info%3Aofi%2Ffmt%3Akev%3Amtx%3Ajournal"
        "&rft.atitle=Isolation%20of%20a%20common%20receptor&rft.aulast=M%C3%BCller"
    )
    assert form.openurl_kev_parse(kev)[-1] == ("rft.aulast", "M\u00fcller")
    # Keys already there are not repeated.
    assert form.openurl_kev([("url_ver", "Z39.88-2004"), ("ctx_ver", "Z39.88-2004"),
                             ("ctx_enc", "info:ofi/enc:UTF-8")]).count("url_ver") == 1
    latin = form.openurl_kev([("rft.au", "M\u00fcller")], encoding="iso-8859-1")
    assert latin.endswith("ctx_enc=info%3Aofi%2Fenc%3Awindows-1252&rft.au=M%FCller")
    assert form.openurl_kev_parse(latin)[-1] == ("rft.au", "M\u00fcller")


def test_openurl_kev_parse_reads_ctx_enc_and_checks_versions() -> None:
    assert form.openurl_kev_parse("ctx_enc=info%3Aofi%2Fenc%3AISO-8859-1&rft.au=M%FCller") == [
        ("ctx_enc", "info:ofi/enc:ISO-8859-1"), ("rft.au", "M\u00fcller")]
    assert form.openurl_kev_parse("rft.au=M%C3%BCller")[0][1] == "M\u00fcller"  # UTF-8
    with pytest.raises(PercentEncodingError, match="url_ver"):
        form.openurl_kev_parse("url_ver=Z39.88-2003&a=b")
    with pytest.raises(PercentEncodingError, match="ctx_ver"):
        form.openurl_kev_parse("ctx_ver=0.1")
    # The bare IANA name, as the KEV ContextObject matrix describes the value, works too.
    assert form.openurl_kev_parse("ctx_enc=ISO-8859-1&a=%FC") == [
        ("ctx_enc", "ISO-8859-1"), ("a", "\u00fc")]
    with pytest.raises(PercentEncodingError, match="ctx_enc"):
        form.openurl_kev_parse("ctx_enc=UTF-8&ctx_enc=ISO-8859-1")
    # "+" is a space, as resolvers read KEV strings that travel as form data.
    assert form.openurl_kev_parse("rft.atitle=On+the+Electrodynamics")[0][1] == (
        "On the Electrodynamics")
    with pytest.raises(UnknownEncodingError):
        form.openurl_kev_parse("ctx_enc=info:ofi/enc:x-nope")
    assert form.Z39_88_2004 == "Z39.88-2004"
    assert schemes.get("openurl-kev").encode("a:b c") == "a%3Ab%20c"
    assert schemes.get("z39.88-kev").name == "openurl-kev"


# ---------------------------------------------------------------------------
# XProc p:www-form-urlencode / p:www-form-urldecode
# ---------------------------------------------------------------------------
def test_xproc_encode_and_decode() -> None:
    assert form.xproc_www_form_urlencode([("q", "a b"), ("lang", "en&fr")]) == (
        "q=a+b&lang=en%26fr"
    )
    assert form.xproc_www_form_urldecode("q=a+b&lang=en%26fr&q=2") == [
        ("q", "a b"), ("lang", "en&fr"), ("q", "2")]
    assert form.xproc_www_form_urldecode("") == []
    # As XML Calabash writes it: reserved characters stay, but "&" and "+"; a parameter
    # set holds a name once, the later value at its place.
    assert form.xproc_www_form_urlencode(
        [("q", "a b+c"), ("url", "http://x/?y=1&z#f"), ("q", "\u00e9")]
    ) == "url=http://x/?y=1%26z#f&q=%C3%A9"
    assert form.xproc_www_form_urlencode([("a", "!$'()*,;=:@[]/?<>\"{}|^`%")]) == (
        "a=!$'()*,;=:@[]/?%3C%3E%22%7B%7D%7C%5E%60%25")
    assert form.xproc_www_form_urldecode("a=&b=%C3%A9") == [("a", ""), ("b", "\u00e9")]


@pytest.mark.parametrize(("value", "code"), [
    ("a=%zz", "XC0037"), ("a=%", "XC0037"), ("a", "XC0037"), ("a=%FF", "XC0037"),
    ("1a=b", "XC0061"), ("a%3Ab=c", "XC0061"), ("=x", "XC0061"),
])
def test_xproc_decode_errors(value: str, code: str) -> None:
    with pytest.raises(PercentEncodingError, match="err:" + code):
        form.xproc_www_form_urldecode(value)


def test_xproc_encode_refuses_names_that_are_not_ncnames() -> None:
    with pytest.raises(PercentEncodingError, match="err:XC0061"):
        form.xproc_www_form_urlencode([("a:b", "c")])
    row = schemes.get("xproc-www-form-urlencode")
    assert row.encode("a b*~") == "a+b*~" and row.space_as_plus


def test_the_rows_are_forms() -> None:
    names = ["application/sgml-form-urlencoded", "wsdl20-http-urlencoded",
             "sparql11-protocol", "openurl-kev", "xproc-www-form-urlencode"]
    for n in names:
        row = schemes.get(n)
        assert row.family == "Forms" and row.encode_pairs is not None
    table = schemes.compare(names)
    assert table["rows"][ord(" ")]["output"] == ["+", "%20", "%20", "%20", "+"]
    assert table["rows"][ord("~")]["output"] == ["%7E", None, None, None, None]
    assert table["rows"][ord("!")]["output"] == ["%21", "%21", "%21", None, None]
    assert table["rows"][ord("&")]["output"] == ["%26", "%26", "%26", "%26", "%26"]
