"""Long hosts and long Punycode labels: exact on both twins, and the same as the oracles.

The URL Standard's domain to ASCII (§3.3) runs UTS #46 ToASCII with VerifyDnsLength
false, so a host of thousands of code points is valid unless something else fails; only
the strict run reports it (the domain-to-ASCII validation error).  Its labels go through
RFC 3492 Punycode, whose sample strings (§7.1) are checked here both ways, on the
Punycode functions and through the URL parser of each twin (the C twin decodes an
``xn--`` label itself, src/csrc/url_idna.c).  Long labels of random distinct code points
(the input that made the RFC's one-scan-per-code-point encoder quadratic, issue 39) are
compared between the twins, with a plain transcription of RFC 3492 §6.3 (overflow
checks included), and with ada (Node's URL, the ``ada_url`` or ``can_ada`` packages)
where present.  The timing side is in tests/test_linear.py (test_long_hosts_linear).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from helpers.node_oracle import NODE, run_node
from helpers.twins import IMPLS, twin
from percent_encoding import idna, url
from percent_encoding.errors import IDNAError, PercentEncodingError, URLParseError
from percent_encoding.url import _idna

# each test runs both twins itself: the pure-twin pass of ./dev test leaves them out
pytestmark = [pytest.mark.one_impl, pytest.mark.twins_inside]

# RFC 3492 §7.1 sample strings (A to S) and their Punycode.  (I) is printed in the RFC
# with one digit in upper case ("baDot", the mixed-case annotation of Appendix A); an
# encoder writes its digits in lower case, and a decoder reads both.
RFC3492_SAMPLES = [
    ("A", "\u0644\u064a\u0647\u0645\u0627\u0628\u062a\u0643\u0644\u0645\u0648\u0634\u0639"
          "\u0631\u0628\u064a\u061f", "egbpdaj6bu4bxfgehfvwxn"),
    ("B", "\u4ed6\u4eec\u4e3a\u4ec0\u4e48\u4e0d\u8bf4\u4e2d\u6587", "ihqwcrb4cv8a8dqg056pqjye"),
    ("C", "\u4ed6\u5011\u7232\u4ec0\u9ebd\u4e0d\u8aaa\u4e2d\u6587",
     "ihqwctvzc91f659drss3x8bo0yb"),
    ("D", "Pro\u010dprost\u011bnemluv\u00ed\u010desky", "Proprostnemluvesky-uyb24dma41a"),
    ("E", "\u05dc\u05de\u05d4\u05d4\u05dd\u05e4\u05e9\u05d5\u05d8\u05dc\u05d0\u05de\u05d3"
          "\u05d1\u05e8\u05d9\u05dd\u05e2\u05d1\u05e8\u05d9\u05ea",
     "4dbcagdahymbxekheh6e0a7fei0b"),
    ("F", "\u092f\u0939\u0932\u094b\u0917\u0939\u093f\u0928\u094d\u0926\u0940\u0915\u094d"
          "\u092f\u094b\u0902\u0928\u0939\u0940\u0902\u092c\u094b\u0932\u0938\u0915\u0924"
          "\u0947\u0939\u0948\u0902", "i1baa7eci9glrd9b2ae1bj0hfcgg6iyaf8o0a1dig0cd"),
    ("G", "\u306a\u305c\u307f\u3093\u306a\u65e5\u672c\u8a9e\u3092\u8a71\u3057\u3066\u304f"
          "\u308c\u306a\u3044\u306e\u304b", "n8jok5ay5dzabd5bym9f0cm5685rrjetr6pdxa"),
    ("H", "\uc138\uacc4\uc758\ubaa8\ub4e0\uc0ac\ub78c\ub4e4\uc774\ud55c\uad6d\uc5b4\ub97c"
          "\uc774\ud574\ud55c\ub2e4\uba74\uc5bc\ub9c8\ub098\uc88b\uc744\uae4c",
     "989aomsvi5e83db1d2a355cv1e0vak1dwrv93d5xbh15a0dt30a5jpsd879ccm6fea98c"),
    ("I", "\u043f\u043e\u0447\u0435\u043c\u0443\u0436\u0435\u043e\u043d\u0438\u043d\u0435"
          "\u0433\u043e\u0432\u043e\u0440\u044f\u0442\u043f\u043e\u0440\u0443\u0441\u0441"
          "\u043a\u0438", "b1abfaaepdrnnbgefbaDotcwatmq2g4l"),
    ("J", "Porqu\u00e9nopuedensimplementehablarenEspa\u00f1ol",
     "PorqunopuedensimplementehablarenEspaol-fmd56a"),
    ("K", "T\u1ea1isaoh\u1ecdkh\u00f4ngth\u1ec3ch\u1ec9n\u00f3iti\u1ebfngVi\u1ec7t",
     "TisaohkhngthchnitingVit-kjcr8268qyxafd2f1b9g"),
    ("L", "3\u5e74B\u7d44\u91d1\u516b\u5148\u751f", "3B-ww4c5e180e575a65lsy2b"),
    ("M", "\u5b89\u5ba4\u5948\u7f8e\u6075-with-SUPER-MONKEYS",
     "-with-SUPER-MONKEYS-pc58ag80a8qai00g7n9n"),
    ("N", "Hello-Another-Way-\u305d\u308c\u305e\u308c\u306e\u5834\u6240",
     "Hello-Another-Way--fc4qua05auwb3674vfr0b"),
    ("O", "\u3072\u3068\u3064\u5c4b\u6839\u306e\u4e0b2", "2-u9tlzr9756bt3uc0v"),
    ("P", "Maji\u3067Koi\u3059\u308b5\u79d2\u524d", "MajiKoi5-783gue6qz075azm5e"),
    ("Q", "\u30d1\u30d5\u30a3\u30fcde\u30eb\u30f3\u30d0", "de-jg4avhby1noc0d"),
    ("R", "\u305d\u306e\u30b9\u30d4\u30fc\u30c9\u3067", "d9juau41awczczp"),
    ("S", "-> $1.00 <-", "-> $1.00 <--"),
]


# --- RFC 3492 §7.1 -----------------------------------------------------------------


def _encoded(puny: str) -> str:
    # What an encoder writes: the basic code points as they are, digits in lower case.
    d = puny.rfind("-")
    return puny[:d + 1] + puny[d + 1:].lower()


@pytest.mark.parametrize("letter,text,puny", RFC3492_SAMPLES, ids=[s[0] for s in RFC3492_SAMPLES])
def test_rfc3492_samples_both_ways(letter: str, text: str, puny: str) -> None:
    assert _idna.punycode_encode(text) == _encoded(puny)
    assert _idna.punycode_decode(puny) == text
    assert _idna.punycode_decode(_encoded(puny)) == text


@pytest.mark.parametrize("letter,text,puny", RFC3492_SAMPLES[:-1],
                         ids=[s[0] for s in RFC3492_SAMPLES[:-1]])
def test_rfc3492_samples_as_hosts_on_both_twins(letter: str, text: str, puny: str) -> None:
    # A to R are hosts: UTS #46 maps the upper-case letters to lower case, which
    # changes no delta (every basic code point is below n), so the host is the sample's
    # Punycode in lower case; and that xn-- host gives the same record back (the C
    # twin decodes it in url_idna.c for the strict run, the pure one in url/_idna.py).
    want = "xn--" + puny.lower()
    seen = []
    for name in IMPLS:
        with twin(name):
            u = url.parse(f"http://{text}/")
            v = url.parse(f"http://{want}/")
            seen.append((u.href, u.validation_errors, v.href, v.validation_errors))
    assert seen[0][0] == seen[0][2] == f"http://{want}/"
    assert seen[0][1] == seen[0][3]
    # only H is longer than 63 octets: the strict run's VerifyDnsLength reports it
    assert bool(seen[0][1]) == (letter == "H")
    assert len(set(map(repr, seen))) == 1, seen


def test_rfc3492_sample_s_is_not_a_host() -> None:
    for name in IMPLS:
        with twin(name), pytest.raises(URLParseError):
            url.parse("http://-> $1.00 <-/")


# --- long labels against RFC 3492 §6.3 as written ------------------------------------

_MAXINT = 0x7FFFFFFF


def _rfc_encode(text: str) -> str | None:
    # RFC 3492 §6.3 step by step (one scan of the input per distinct code point), with
    # the §6.4 overflow checks at maxint 2^31 - 1; None on overflow.
    cps = [ord(c) for c in text]
    out = [c for c in text if ord(c) < 0x80]
    b = h = len(out)
    if b:
        out.append("-")
    n, delta, bias = 128, 0, 72
    while h < len(cps):
        m = min(c for c in cps if c >= n)
        if m - n > (_MAXINT - delta) // (h + 1):
            return None
        delta += (m - n) * (h + 1)
        n = m
        for c in cps:
            if c < n:
                delta += 1
                if delta > _MAXINT:
                    return None
            if c == n:
                q, k = delta, 36
                while True:
                    t = 1 if k <= bias else 26 if k >= bias + 26 else k - bias
                    if q < t:
                        break
                    out.append("abcdefghijklmnopqrstuvwxyz0123456789"[t + (q - t) % (36 - t)])
                    q, k = (q - t) // (36 - t), k + 36
                out.append("abcdefghijklmnopqrstuvwxyz0123456789"[q])
                delta //= 2 if h != b else 700
                delta += delta // (h + 1)
                k = 0
                while delta > 455:
                    delta, k = delta // 35, k + 36
                bias = k + 36 * delta // (delta + 38)
                delta = 0
                h += 1
        delta += 1
        n += 1
    return "".join(out)


def _labels(rng: random.Random, size: int) -> list[str]:
    # distinct code points close together, far apart, and with ASCII and repeats
    bmp = [c for c in range(0x80, 0x10000) if not 0xD800 <= c <= 0xDFFF]
    return [
        "".join(map(chr, rng.sample(range(0x4E00, 0xA000), size))),
        "".join(map(chr, rng.sample(bmp, size))),
        "".join(map(chr, rng.sample(range(0x80, 0x110000), size))),
        "".join(rng.choice("ab-9\u00e9\u4e00\U00020000") for _ in range(size)),
        "x" * (size - 1) + "\U0010ffff",
    ]


@pytest.mark.parametrize("size", [63, 64, 65, 253, 254,
                                  pytest.param(1000, marks=pytest.mark.slow),
                                  pytest.param(3000, marks=pytest.mark.slow)])
def test_long_labels_as_rfc3492_writes_them(size: int) -> None:
    # (the reference and the stdlib codec scan once per code point: quadratic)
    rng = random.Random(size)
    for label in _labels(rng, size):
        want = _rfc_encode(label)
        if want is None:
            with pytest.raises(PercentEncodingError, match="overflow"):
                _idna.punycode_encode(label)
            continue
        assert _idna.punycode_encode(label) == want
        assert _idna.punycode_decode(want) == label
        assert want == label.encode("punycode").decode("ascii")  # the stdlib codec too


def test_encoder_overflow_is_an_idna_error() -> None:
    # 20,000 basic code points, then U+30000: delta passes 2^31 - 1 (RFC 3492 §6.4), an
    # error UTS #46 ToASCII records (§4.2 step 3): the URL fails, as in ada and Node.
    host = "a" * 20000 + "\U00030000"
    with pytest.raises(IDNAError) as ei:
        idna.to_ascii(host)
    assert ei.value.rule == "4.2 (Punycode)"
    for name in IMPLS:
        with twin(name):
            assert not url.can_parse(f"http://{host}/")
            with pytest.raises(URLParseError) as pe:
                url.parse(f"http://{host}/")
            assert (pe.value.name, pe.value.position) == ("domain-to-ASCII", 7)
    # one basic code point fewer per step stays below: 5,000 then U+30000 encodes
    assert idna.to_ascii("a" * 5000 + "\U00030000").endswith("-9w73231f")


# --- long hosts: the twins, and ada ---------------------------------------------------

# CJK ideographs of Unicode 3.0 to 6.0 (URO, Extension A, B and C) and Hangul
# syllables: valid in UTS #46 and known to every Node's ada.
_URO, _EXT_A, _HANGUL = range(0x4E00, 0x9FA6), range(0x3400, 0x4DB6), range(0xAC00, 0xD7A4)
_EXT_BC = [*range(0x20000, 0x2A6D7), *range(0x2A700, 0x2B735)]
_POOL = [*_EXT_A, *_URO, *_HANGUL, *_EXT_BC]
# A label of any sample of these stays below RFC 3492's overflow (§6.4): the one wide
# step, from the URO to Extension B, times at most 20,902 code points below it, is
# less than 2^31.
_VALID = [*_URO, *_EXT_BC]


def _hosts(size: int) -> list[str]:
    rng = random.Random(size)
    out = ["".join(map(chr, rng.sample(_VALID, size))),
           ".".join("".join(map(chr, rng.sample(_POOL, 40))) for _ in range(size // 41 or 1)),
           "".join(map(chr, rng.sample(range(0x80, 0x30000), size))),
           "xn--" + _idna.punycode_encode("".join(map(chr, rng.sample(_VALID, size)))),
           "".join(map(chr, rng.sample(_POOL, size)))]
    # lone surrogates out: a URL string is a USVString (the setter converts them)
    return ["".join(c for c in h if not 0xD800 <= ord(c) <= 0xDFFF) for h in out]


def _outcomes(host: str, every: bool) -> dict[str, Any]:
    href = f"http://{host}/"
    got: dict[str, Any] = {}
    try:
        u = url.parse(href)
        got["parse"] = (u.href, u.validation_errors)
    except URLParseError as e:
        got["parse"] = (e.name, e.position)
    got["can_parse"] = url.can_parse(href)
    base = url.parse("http://x.example/p")
    got["host setter"] = base.replace(host=host).href
    got["hostname setter"] = base.replace(hostname=host).href if every else got["host setter"]
    if every:
        try:
            got["to_ascii"] = idna.to_ascii(host)
        except IDNAError as e:
            got["to_ascii"] = e.rule
    return got


def _column(hrefs: list[str]) -> Any:
    pa = pytest.importorskip("pyarrow")
    from percent_encoding import arrow

    col = pa.array(hrefs)
    return (arrow.url_can_parse(col).to_pylist(),
            arrow.url_component(col, "href").to_pylist())


def _check_hosts(size: int, which: tuple[int, ...] = (0, 1, 2, 3, 4)) -> None:
    hosts = [h for i, h in enumerate(_hosts(size)) if i in which]
    results = []
    for name in IMPLS:
        with twin(name):
            results.append(([_outcomes(h, size < 5000) for h in hosts],
                            _column([f"http://{h}/" for h in hosts])))
    assert all(r == results[0] for r in results), size
    per_host, (can, hrefs) = results[0]
    for got, ok, href in zip(per_host, can, hrefs, strict=True):
        assert got["can_parse"] == ok == (href is not None)
        if ok:
            assert got["parse"][0] == href
            # a long host is valid; the strict run (VerifyDnsLength) reports it
            assert ("domain-to-ASCII", 7) in [tuple(e) for e in got["parse"][1]]
            assert got["host setter"] == got["hostname setter"] == href + "p"
        else:
            assert got["host setter"] == got["hostname setter"] == "http://x.example/p"
    # the valid CJK hosts parse, at every length
    assert all(ok for i, ok in zip(which, can, strict=True) if i in (0, 1, 3)), size


@pytest.mark.parametrize("size", [253, 254, 1000])
def test_long_hosts_twins_agree(size: int) -> None:
    _check_hosts(size)


@pytest.mark.slow
def test_64k_hosts_twins_agree() -> None:
    _check_hosts(1 << 16, (0, 3, 4))


def _ours(hrefs: list[str]) -> list[str | None]:
    out: list[str | None] = []
    for h in hrefs:
        try:
            out.append(url.parse(h).href)
        except URLParseError:
            out.append(None)
    return out


_NODE_SCRIPT = r"""
const rl = require("readline").createInterface({input: process.stdin});
rl.on("line", (line) => {
  let out = null;
  try { out = new URL(JSON.parse(line)).href; } catch (e) { out = null; }
  process.stdout.write(JSON.stringify(out) + "\n");
});
"""


def _oracle_hrefs() -> list[str]:
    hrefs = []
    for size in (253, 254, 1000, 5000):
        hrefs += [f"http://{h}/" for h in _hosts(size)]
    hrefs.append(f"http://{_hosts(1 << 14)[0]}/")  # (ada's encoder scans once a code point)
    # the overflow boundary of RFC 3492 §6.4
    hrefs += [f"http://{'a' * k}\U00030000/" for k in (5000, 10000, 20000)]
    return hrefs


@pytest.mark.slow
@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_long_hosts_against_node() -> None:
    hrefs = _oracle_hrefs()
    theirs = run_node(_NODE_SCRIPT, hrefs)
    for name in IMPLS:
        with twin(name):
            assert _ours(hrefs) == theirs


@pytest.mark.slow
@pytest.mark.parametrize("module", ["ada_url", "can_ada"])
def test_long_hosts_against_ada_packages(module: str) -> None:
    ada = pytest.importorskip(module, reason=f"{module} is not installed")
    parse: Callable[[str], Any] = ada.URL if module == "ada_url" else ada.parse
    # ada 3 and later refuse a non-ASCII domain over 16,384 UTF-8 bytes
    # (max_domain_input_bytes in include/ada/ada_idna.h, against heap growth): a limit
    # of that implementation, which the URL Standard does not have.
    hrefs = [h for h in _oracle_hrefs() if len(h.encode("utf-8", "surrogatepass")) <= 16384]
    theirs: list[str | None] = []
    for h in hrefs:
        try:
            theirs.append(parse(h).href)
        except ValueError:
            theirs.append(None)
    for name in IMPLS:
        with twin(name):
            assert _ours(hrefs) == theirs


@pytest.mark.parametrize("dot", ["", "."])
def test_ascii_xn_hosts_at_the_dns_length(dot: str) -> None:
    # VerifyDnsLength in the strict run (UTS #46 §4.2): 253 octets pass, 254 fail, the
    # root label's dot aside; the C twin decides without decoding past 253, the pure
    # one too.
    for total in (252, 253, 254, 255, 1000):
        labels = ["xn--bcher-kva"] * (total // 14)
        host = ".".join(labels)
        host += "." + "a" * (total - len(host) - 1) if total - len(host) > 1 else ""
        host = host.ljust(total, "b")
        assert len(host) == total
        seen = []
        for name in IMPLS:
            with twin(name):
                u = url.parse(f"http://{host}{dot}/")
                seen.append((u.href, u.validation_errors))
        assert seen[0][0] == f"http://{host}{dot}/"
        assert all(s == seen[0] for s in seen)
        # a final dot is an empty root label, which fails the strict run too
        assert bool(seen[0][1]) == (total > 253 or dot == "."), total


def test_long_hosts_are_not_cached() -> None:
    # The host caches keep short hosts only: distinct long ones would each hold
    # megabytes (a web tool's requests, a column of long hosts).
    from percent_encoding.url import _host

    caches = (url._c_host, _host._ascii_strict_ok, _idna.domain_to_ascii_checked,
              _host._host_outcome)
    long_ones = ["\u4e00" * 2000, "xn--" + "a" * 2000, "\u4e00" * (_host.HOST_CACHE_MAX + 1)]
    for name in IMPLS:
        with twin(name):
            before = [c.cache_info().currsize for c in caches]
            for h in long_ones:
                assert url.can_parse(f"http://{h}/")
                url.parse("http://x.example/").replace(host=h)
            assert [c.cache_info().currsize for c in caches] == before
            # a short host is cached as before
            url.parse("http://\u4e00\u4e01.example/")
            assert _idna.domain_to_ascii_checked.cache_info().currsize >= 1
