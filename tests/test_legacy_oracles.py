"""Differential tests of percent_encoding.legacy against the real implementations.

PHP (``php`` on PATH, e.g. Debian's php-cli) and Java (``java``, single-file
source launch, JDK 11+) run here as oracles: each batch of generated inputs goes
through ONE process (JSON or hex lines in, the same out) and every answer is
compared with ours.  Each test skips cleanly when its runtime is missing.
"""

from __future__ import annotations

import base64
import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from percent_encoding import legacy as L
from percent_encoding.errors import PercentDecodeError, PercentEncodingError

pytestmark = pytest.mark.one_impl

PHP = shutil.which("php")
JAVA = shutil.which("java")
needs_php = pytest.mark.skipif(PHP is None, reason="php not installed (apt-get install php-cli)")
needs_java = pytest.mark.skipif(JAVA is None, reason="java not installed (a JDK 11+)")

_SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Text that exercises every ASCII byte, escapes, non-ASCII and astral characters.
_pct = st.sampled_from(["%", "%4", "%41", "%zz", "%C3%A9", "%e2%82%ac", "%FF", "%+1", "+", "%%"])
_chars = st.one_of(
    st.characters(min_codepoint=0, max_codepoint=0x7F),
    st.characters(min_codepoint=0x80, max_codepoint=0x10FFFF, blacklist_categories=["Cs"]),
)
_piece = st.one_of(_chars.map(str), _pct)
_text = st.lists(_piece, max_size=12).map("".join)
_batch = st.lists(_text, min_size=40, max_size=40)

# Hand-picked cases for every run, whatever hypothesis draws.
EDGE = [
    "",
    "a",
    " ",
    "+",
    "%",
    "~",
    "*",
    "-_.!'()",
    "a b&c=d/e?f#g",
    "".join(map(chr, range(128))),
    "caf\u00e9",
    "\u20ac",
    "\U0001f600",
    "\ufffd",
    "%41%42",
    "%4",
    "%zz",
    "%C3%A9",
    "%c3%a9",
    "%FF%FE",
    "%ED%A0%80",
    "%F0%9F%98",
    "%E2%82",
    "a+b%20c",
    "%+1",
    "%-1",
    "%-0",
    "100%",
    "\r\n\n\r",
    "a%+",
    "%4+",
    "a%+b",
    "%%+",
]


# ---------------------------------------------------------------------------
# PHP
# ---------------------------------------------------------------------------
_PHP_CODE = r"""
$in = json_decode(stream_get_contents(STDIN), true);
$out = [];
foreach ($in as $job) {
    $f = $job[0];
    if ($f === "hbq") {
        $out[] = http_build_query($job[1], $job[2], $job[3], $job[4]);
        continue;
    }
    $s = base64_decode($job[1]);
    switch ($f) {
        case "urlencode": $r = urlencode($s); break;
        case "rawurlencode": $r = rawurlencode($s); break;
        case "urldecode": $r = urldecode($s); break;
        case "rawurldecode": $r = rawurldecode($s); break;
        default: $r = "?";
    }
    $out[] = base64_encode($r);
}
echo json_encode($out);
"""


def _php(jobs: list[list[Any]]) -> list[Any]:
    assert PHP is not None
    proc = subprocess.run(
        [PHP, "-n", "-d", "precision=14", "-d", "arg_separator.output=&", "-r", _PHP_CODE],
        input=json.dumps(jobs).encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    result: list[Any] = json.loads(proc.stdout)
    return result


def _b64(b: bytes) -> str:
    return base64.b64encode(b).decode()


def _php_string_batch(texts: list[str]) -> None:
    raw = [t.encode("utf-8") for t in texts]
    funcs = ["urlencode", "rawurlencode", "urldecode", "rawurldecode"]
    jobs = [[f, _b64(b)] for b in raw for f in funcs]
    answers = _php(jobs)
    for i, b in enumerate(raw):
        enc, raw_enc, dec, raw_dec = (base64.b64decode(a) for a in answers[4 * i : 4 * i + 4])
        assert L.php_urlencode(b) == enc.decode(), b
        assert L.php_rawurlencode(b) == raw_enc.decode(), b
        # PHP returns bytes; ours are the same bytes read as UTF-8.
        assert L.php_urldecode(b) == dec.decode("utf-8", "replace"), b
        assert L.php_rawurldecode(b) == raw_dec.decode("utf-8", "replace"), b
        # str input is UTF-8 first, exactly like a PHP string of those bytes.
        assert L.php_urlencode(texts[i]) == enc.decode()


@needs_php
def test_php_string_functions_edge_cases() -> None:
    _php_string_batch(EDGE)


@needs_php
def test_php_every_byte() -> None:
    jobs = [[f, _b64(bytes([i]))] for i in range(256) for f in ("urlencode", "rawurlencode")]
    answers = _php(jobs)
    for i in range(256):
        assert L.php_urlencode(bytes([i])) == base64.b64decode(answers[2 * i]).decode()
        assert L.php_rawurlencode(bytes([i])) == base64.b64decode(answers[2 * i + 1]).decode()


@needs_php
@_SETTINGS
@given(_batch)
def test_php_string_functions_generated(texts: list[str]) -> None:
    _php_string_batch(texts)


# http_build_query: nested data as JSON (json_decode(..., true) gives PHP arrays).
_key = st.one_of(
    st.text(max_size=4),
    st.sampled_from(["0", "7", "-3", "007", "-0", "1e3", " 1", "a b", "x[y]", "~"]),
    st.integers(min_value=-5, max_value=50),
)
_scalar = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**40), max_value=2**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0.1 + 0.2, 1e14, 1e15, 1e-4, 1e-5, 123456789012345.678, -0.0, 1e100, 0.5]),
    _text,
)


def _unique_keys(d: dict[Any, Any]) -> dict[str, Any]:
    # JSON object keys are strings; keep the first of keys that collide as text.
    out: dict[str, Any] = {}
    for k, v in d.items():
        out.setdefault(str(k), v)
    return out


_data = st.recursive(
    _scalar,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(_key, inner, max_size=3).map(_unique_keys),
    ),
    max_leaves=8,
)
_top = st.one_of(
    st.dictionaries(_key, _data, max_size=5).map(_unique_keys), st.lists(_data, max_size=4)
)


def _hbq_batch(cases: list[tuple[Any, str, str, int]]) -> None:
    answers = _php([["hbq", d, p, sep, enc] for d, p, sep, enc in cases])
    for (d, p, sep, enc), want in zip(cases, answers, strict=True):
        got = L.http_build_query(d, numeric_prefix=p, arg_separator=sep, enc_type=enc)
        assert got == want, (d, p, sep, enc)


@needs_php
def test_php_http_build_query_examples() -> None:
    cases: list[tuple[Any, str, str, int]] = [
        ({"a": [1, 2], "b": {"c": {"d": 2}}}, "", "&", L.PHP_QUERY_RFC1738),
        ({"a b": "c d~", "e": ["x y", {"f g": True}]}, "", "&", L.PHP_QUERY_RFC3986),
        (["x", "y", None, False, True], "n_", "&amp;", L.PHP_QUERY_RFC1738),
        ({"5": "a", "-3": "b", "007": "c", "-0": "d", "k": []}, "p", ";", L.PHP_QUERY_RFC1738),
        (
            {
                "f": 0.1 + 0.2,
                "g": 1e20,
                "h": 1e14,
                "i": 1e13,
                "j": 0.0001,
                "k": 0.00001,
                "l": -0.0,
                "m": 123456789012345.678,
                "n": 1.0,
                "o": 2**53 + 0.0,
                # halfway between two 14-digit values: zend_dtoa keeps the zeros when
                # the tie rounds down, not when it rounds up (with or without a carry)
                "t1": 100000000000005.0,
                "t2": 853560480964205.0,
                "t3": -987113651880805.0,
                "t4": 100000000000015.0,
                "t5": 100000000000095.0,
                "t6": 999999999999995.0,
                "t7": 123456789012345.0,
                "t8": 100000000000001.0,
                "t9": 1000000000000050.0,
            },
            "",
            "&",
            L.PHP_QUERY_RFC1738,
        ),
        ({"nested": {"0": {"1": ["deep"]}}}, "top", "&", L.PHP_QUERY_RFC3986),
    ]
    _hbq_batch(cases)


@needs_php
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.tuples(
            _top,
            st.sampled_from(["", "n", "p_"]),
            st.sampled_from(["&", ";", "&amp;"]),
            st.sampled_from([L.PHP_QUERY_RFC1738, L.PHP_QUERY_RFC3986]),
        ),
        min_size=20,
        max_size=20,
    )
)
def test_php_http_build_query_generated(cases: list[tuple[Any, str, str, int]]) -> None:
    _hbq_batch(cases)


# ---------------------------------------------------------------------------
# Java
# ---------------------------------------------------------------------------
_JAVA_SRC = r"""
import java.io.*;
import java.net.*;
import java.nio.charset.StandardCharsets;

public class Oracle {
    static String hex(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) b.append(String.format("%04x", (int) s.charAt(i)));
        return b.toString();
    }
    static String unhex(String h) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < h.length(); i += 4)
            b.append((char) Integer.parseInt(h.substring(i, i + 4), 16));
        return b.toString();
    }
    public static void main(String[] args) throws Exception {
        BufferedReader r = new BufferedReader(
            new InputStreamReader(System.in, StandardCharsets.US_ASCII));
        PrintStream out = new PrintStream(new BufferedOutputStream(System.out), false, "US-ASCII");
        String line;
        while ((line = r.readLine()) != null) {
            String s = unhex(line.length() > 1 ? line.substring(2) : "");
            if (line.charAt(0) == 'E') {
                out.println(hex(URLEncoder.encode(s, StandardCharsets.UTF_8)));
            } else {
                try {
                    out.println(hex(URLDecoder.decode(s, StandardCharsets.UTF_8)));
                } catch (IllegalArgumentException e) {
                    out.println("ERR");
                }
            }
        }
        out.flush();
    }
}
"""


def _units_hex(s: str) -> str:
    return s.encode("utf-16-be", "surrogatepass").hex()


def _from_units_hex(h: str) -> str:
    return bytes.fromhex(h).decode("utf-16-be", "surrogatepass")


@pytest.fixture(scope="module")
def java_oracle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if JAVA is None:
        pytest.skip("java not installed (a JDK 11+)")
    d = tmp_path_factory.mktemp("java")
    src = d / "Oracle.java"
    src.write_text(_JAVA_SRC)
    return src


def _java(src: Path, lines: list[str]) -> list[str]:
    assert JAVA is not None
    proc = subprocess.run(
        [JAVA, "-Xshare:auto", "-XX:TieredStopAtLevel=1", str(src)],
        input=("\n".join(lines) + "\n").encode("ascii"),
        capture_output=True,
        timeout=120,
        check=True,
    )
    return proc.stdout.decode("ascii").splitlines()


def _java_batch(src: Path, texts: list[str]) -> None:
    lines = []
    for t in texts:
        lines += ["E " + _units_hex(t), "D " + _units_hex(t)]
    answers = _java(src, lines)
    assert len(answers) == len(lines)
    for i, t in enumerate(texts):
        enc, dec = answers[2 * i], answers[2 * i + 1]
        assert L.java_urlencode(t) == _from_units_hex(enc), t
        if dec == "ERR":
            with pytest.raises(PercentDecodeError):
                L.java_urldecode(t)
        else:
            assert L.java_urldecode(t) == _from_units_hex(dec), t


@needs_java
def test_java_edge_cases(java_oracle: Path) -> None:
    extra = [
        "\ud800",
        "a\udc00b",
        "\ud83d\ude00",
        "%\uff21\uff11",
        "%\u0661\u0662",
        "%4\U0001f600",
        "%\U0001f600",
        "%-F",
        "%+F%+f",
    ]
    _java_batch(java_oracle, EDGE + extra)


@needs_java
@_SETTINGS
@given(st.lists(st.one_of(_text, st.text(max_size=8)), min_size=60, max_size=60))
def test_java_generated(java_oracle: Path, texts: list[str]) -> None:
    _java_batch(java_oracle, texts)


# ---------------------------------------------------------------------------
# Go
# ---------------------------------------------------------------------------
GO = shutil.which("go")

_GO_SRC = r"""
package main

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
)

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for in.Scan() {
		line := in.Text()
		b, _ := hex.DecodeString(line[2:])
		s := string(b)
		var r string
		var err error
		switch line[0] {
		case 'Q':
			r = url.QueryEscape(s)
		case 'P':
			r = url.PathEscape(s)
		case 'q':
			r, err = url.QueryUnescape(s)
		case 'p':
			r, err = url.PathUnescape(s)
		}
		if err != nil {
			fmt.Fprintln(out, "ERR")
		} else {
			fmt.Fprintln(out, hex.EncodeToString([]byte(r)))
		}
	}
}
"""


@pytest.fixture(scope="module")
def go_oracle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if GO is None:
        pytest.skip("go not installed (apt-get install golang-go)")
    d = tmp_path_factory.mktemp("go")
    (d / "oracle.go").write_text(_GO_SRC)
    env = {**os.environ, "GOCACHE": str(d / "cache"), "GO111MODULE": "off", "GOFLAGS": ""}
    subprocess.run(
        [GO, "build", "-o", str(d / "oracle"), str(d / "oracle.go")],
        check=True,
        capture_output=True,
        env=env,
        timeout=300,
    )
    return d / "oracle"


def _go_batch(exe: Path, items: list[bytes]) -> None:
    lines = [f"{op} {b.hex()}" for b in items for op in "QPqp"]
    proc = subprocess.run(
        [str(exe)],
        input=("\n".join(lines) + "\n").encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    answers = proc.stdout.decode().splitlines()
    assert len(answers) == len(lines)
    for i, b in enumerate(items):
        qe, pe, qu, pu = answers[4 * i : 4 * i + 4]
        assert L.go_query_escape(b) == bytes.fromhex(qe).decode(), b
        assert L.go_path_escape(b) == bytes.fromhex(pe).decode(), b
        for f, want in ((L.go_query_unescape, qu), (L.go_path_unescape, pu)):
            if want == "ERR":
                with pytest.raises(PercentDecodeError):
                    f(b)
            else:
                assert f(b) == bytes.fromhex(want).decode("utf-8", "replace"), b


@pytest.mark.skipif(GO is None, reason="go not installed (apt-get install golang-go)")
def test_go_edge_cases(go_oracle: Path) -> None:
    _go_batch(go_oracle, [t.encode("utf-8") for t in EDGE] + [bytes([i]) for i in range(256)])


@pytest.mark.skipif(GO is None, reason="go not installed (apt-get install golang-go)")
@_SETTINGS
@given(_batch)
def test_go_generated(go_oracle: Path, texts: list[str]) -> None:
    _go_batch(go_oracle, [t.encode("utf-8") for t in texts])


# ---------------------------------------------------------------------------
# Ruby
# ---------------------------------------------------------------------------
RUBY = shutil.which("ruby")

_RUBY_CODE = r"""
require "json"; require "cgi"; require "uri"; require "base64"
jobs = JSON.parse($stdin.read)
out = jobs.map do |f, s64|
  s = Base64.strict_decode64(s64).force_encoding(Encoding::UTF_8)
  begin
    r = case f
        when "ce" then CGI.escape(s)
        when "cu" then CGI.unescape(s)
        when "we" then URI.encode_www_form_component(s)
        when "wu" then URI.decode_www_form_component(s)
        end
    Base64.strict_encode64(r.b)
  rescue ArgumentError
    "ERR"
  end
end
print JSON.generate(out)
"""


def _ruby_batch(items: list[bytes]) -> None:
    assert RUBY is not None
    jobs = [[f, _b64(b)] for b in items for f in ("ce", "cu", "we", "wu")]
    proc = subprocess.run(
        [RUBY, "-e", _RUBY_CODE],
        input=json.dumps(jobs).encode(),
        capture_output=True,
        timeout=60,
        check=True,
    )
    answers = json.loads(proc.stdout)
    for i, b in enumerate(items):
        ce, cu, we, wu = answers[4 * i : 4 * i + 4]
        assert L.ruby_cgi_escape(b) == base64.b64decode(ce).decode(), b
        assert L.ruby_cgi_unescape(b) == base64.b64decode(cu).decode("utf-8", "replace"), b
        assert L.ruby_encode_www_form_component(b) == base64.b64decode(we).decode(), b
        if wu == "ERR":
            with pytest.raises(PercentEncodingError):
                L.ruby_decode_www_form_component(b)
        else:
            assert L.ruby_decode_www_form_component(b) == base64.b64decode(wu).decode(
                "utf-8", "replace"
            ), b


@pytest.mark.skipif(RUBY is None, reason="ruby not installed (apt-get install ruby)")
def test_ruby_edge_cases() -> None:
    _ruby_batch([t.encode("utf-8") for t in EDGE] + [bytes([i]) for i in range(256)])


@pytest.mark.skipif(RUBY is None, reason="ruby not installed (apt-get install ruby)")
@_SETTINGS
@given(_batch)
def test_ruby_generated(texts: list[str]) -> None:
    _ruby_batch([t.encode("utf-8") for t in texts])


# ---------------------------------------------------------------------------
# PHP parse_str (main/php_variables.c), with php.ini's input limits
# ---------------------------------------------------------------------------
_PHP_PARSE_STR = r"""
function enc($v) {
    if (!is_array($v)) return base64_encode($v);
    $o = [];
    foreach ($v as $k => $x) $o[] = [is_int($k) ? $k : ["s", base64_encode($k)], enc($x)];
    return ["a", $o];
}
$in = json_decode(stream_get_contents(STDIN), true);
$out = [];
foreach ($in as $q) { parse_str(base64_decode($q), $r); $out[] = enc($r); }
echo json_encode($out);
"""


def _from_php(v: Any) -> Any:
    if isinstance(v, str):
        return base64.b64decode(v).decode("utf-8", "replace")
    return {
        (k if isinstance(k, int) else base64.b64decode(k[1]).decode("utf-8", "replace")):
        _from_php(x)
        for k, x in v[1]
    }


def _php_parse_str(queries: list[bytes], max_vars: int = 1000, max_nest: int = 64) -> list[Any]:
    assert PHP is not None
    proc = subprocess.run(
        [PHP, "-n", "-d", f"max_input_vars={max_vars}", "-d", f"max_input_nesting_level={max_nest}",
         "-d", "display_errors=0", "-d", "error_reporting=0", "-r", _PHP_PARSE_STR],
        input=json.dumps([_b64(q) for q in queries]).encode(),
        capture_output=True, timeout=60, check=True,
    )
    return [_from_php(r) for r in json.loads(proc.stdout)]


PARSE_STR_EDGE = [
    b"a=1&b=2", b"a[]=1&a[]=2", b"a[b][c]=1&a[b][d]=2&a[b][]=3", b"first.name=x&last name=y",
    b"a.b[c.d]=1", b"a[b=1", b"a[b.c d[e=1", b"a b[c]=1", b"a[b]c=1", b"a[b][c=1", b"a[b]]=1",
    b"[a]=1", b"=1", b"  a=1", b" =1", b"a[ ]=1", b"a[  ]=1", b"a[ b]=1", b"a%5Bb%5D=1",
    b"a%00b=1", b"a=1%002", b"a+b=c+d", b"a%2Eb=1", b"a=1&a[b]=2", b"a[b]=2&a=1",
    b"a[0]=x&a[00]=y&a[-0]=z&a[-1]=w&a[+1]=v&a[ 1]=u&a[]=t",
    b"a[-5]=1&a[]=2", b"a[]=1&a[-3]=2&a[]=3",
    b"a[9223372036854775807]=x&a[]=y", b"a[9223372036854775808]=x&a[-9223372036854775808]=y",
    b"a[-9223372036854775809]=z", b"a&b=&c", b"a==b=c", b"&&&a=1&&", b"a[][]=1&a[][]=2",
    b"a[][b]=1&a[][b]=2", b"a[b][]=1&a[b]=2", b"%ff=%fe&a[%ff]=1", b"a%=1&b=%zz%4",
    b"a\x00b=1&c=2", b"a[\xe2\x98\x83]=\xe2\x98\x83", b".=1", b"a.[b]=1", b"a[.]=1",
    b"a[b][c][d][e]=1", b"a]=1", b"a][=1", b"a[[b]]=1", b"a[b[c]]=1",
]


@needs_php
def test_php_parse_str_edge_cases() -> None:
    answers = _php_parse_str(PARSE_STR_EDGE)
    for q, want in zip(PARSE_STR_EDGE, answers, strict=True):
        assert L.php_parse_str(q) == want, q


@needs_php
def test_php_parse_str_limits() -> None:
    qs = [b"&".join(b"v%d=%d" % (i, i) for i in range(n)) for n in (3, 4, 5)]
    qs += [b"a[x]=1&" + b"a" + b"[b]" * n + b"=1&c=2" for n in (2, 3, 4)]
    qs += [b"a[x]=1&a[y][z][w][q]=2", b"a[][][][]=1&b[][][]=2"]
    answers = _php_parse_str(qs, max_vars=4, max_nest=3)
    for q, want in zip(qs, answers, strict=True):
        assert L.php_parse_str(q, max_input_vars=4, max_input_nesting_level=3) == want, q
    # the defaults are php.ini's: 1000 variables, 64 levels
    big = [b"&".join(b"v%d=1" % i for i in range(1003)),
           b"a" + b"[b]" * 64 + b"=1", b"a" + b"[b]" * 65 + b"=1&z=1"]
    for q, want in zip(big, _php_parse_str(big), strict=True):
        assert L.php_parse_str(q) == want


_name_piece = st.sampled_from(
    ["a", "b", "0", "1", "-1", "01", "[", "]", "[]", "[a]", "[0]", "[ ]", ".", " ", "+",
     "%5B", "%5D", "%2E", "%20", "%00", "é", "%FF", "="]
)
_query = st.lists(
    st.tuples(st.lists(_name_piece, max_size=6).map("".join), st.sampled_from(["", "=1", "=x+y"])),
    max_size=6,
).map(lambda ps: "&".join(n + v for n, v in ps).encode())


@needs_php
@_SETTINGS
@given(st.lists(_query, min_size=30, max_size=30))
def test_php_parse_str_generated(queries: list[bytes]) -> None:
    answers = _php_parse_str(queries, max_vars=5, max_nest=3)
    for q, want in zip(queries, answers, strict=True):
        assert L.php_parse_str(q, max_input_vars=5, max_input_nesting_level=3) == want, q
