"""Differential test: percent_encoding.ecmascript against Node's own six functions.

A seeded generator (and hypothesis, in batches) builds JavaScript strings that
stress every rule: lone and paired surrogates, astral characters, every class
of malformed escape (``%``, ``%E0%A4``, ``%ED%A0%80``, ``%F4%90%80%80``,
``%C0%AF``, ``%u12`` …), reserved escapes in both cases.  Each batch goes to
ONE ``node`` process as JSON lines (lone surrogates travel as ``\\uD800``
escapes, which ``JSON.parse`` turns back into lone code units); Node answers
each line with the six results or the name of the error thrown.  The test
compares results and which calls throw.  Nothing Node says is stored.
"""

from __future__ import annotations

import random
import shutil
from collections.abc import Callable, Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from helpers.node_oracle import run_node as _run_node
from percent_encoding import URIError, ecmascript

NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="node is not installed")

FUNCS: list[tuple[str, Callable[[str], str]]] = [
    ("encodeURI", ecmascript.encode_uri),
    ("encodeURIComponent", ecmascript.encode_uri_component),
    ("decodeURI", ecmascript.decode_uri),
    ("decodeURIComponent", ecmascript.decode_uri_component),
    ("escape", ecmascript.escape),
    ("unescape", ecmascript.unescape),
]

# Reads one JSON string per line; writes one JSON array per line: for each
# function either {"ok": result} or {"err": error name}.
NODE_SCRIPT = r"""
const fns = [encodeURI, encodeURIComponent, decodeURI, decodeURIComponent, escape, unescape];
let buf = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (d) => { buf += d; });
process.stdin.on("end", () => {
  const out = [];
  for (const line of buf.split("\n")) {
    if (!line) continue;
    const s = JSON.parse(line);
    out.push(JSON.stringify(fns.map((f) => {
      try { return { ok: f(s) }; } catch (e) { return { err: e.name }; }
    })));
  }
  process.stdout.write(out.join("\n") + "\n");
});
"""

Outcome = dict[str, str]


def run_node(inputs: Sequence[str]) -> list[list[Outcome]]:
    return _run_node(NODE_SCRIPT, inputs)  # type: ignore[no-any-return]


def ours(s: str) -> list[Outcome]:
    out: list[Outcome] = []
    for _, f in FUNCS:
        try:
            out.append({"ok": f(s)})
        except URIError as e:
            assert isinstance(e.position, int) and e.position >= 0
            out.append({"err": "URIError"})
    return out


def js_equal(a: str, b: str) -> bool:
    """Equal as JavaScript strings (pairs joined or not)."""
    return a.encode("utf-16-le", "surrogatepass") == b.encode("utf-16-le", "surrogatepass")


def compare(inputs: Sequence[str]) -> None:
    theirs = run_node(inputs)
    mismatches = []
    for s, t in zip(inputs, theirs, strict=True):
        o = ours(s)
        for (name, _), mine, node in zip(FUNCS, o, t, strict=True):
            if "err" in node or "err" in mine:
                same = mine == node
            else:
                # Results must be the same JS string AND come back normalized:
                # valid pairs joined into one code point.
                same = js_equal(mine["ok"], node["ok"]) and mine["ok"] == node["ok"]
            if not same:
                mismatches.append((name, ascii(s), mine, node))
    assert not mismatches, mismatches[:10]


# ---------------------------------------------------------------------------
# The generator
# ---------------------------------------------------------------------------
HEX = "0123456789abcdefABCDEF"

ATOMS = [
    # plain and reserved characters, both encoders' edge sets
    "a",
    "Z",
    "0",
    "-",
    "_",
    ".",
    "!",
    "~",
    "*",
    "'",
    "(",
    ")",
    " ",
    "+",
    "/",
    "@",
    ";",
    "?",
    ":",
    "&",
    "=",
    "$",
    ",",
    "#",
    "[",
    "]",
    "%",
    "\x00",
    "\x7f",
    "\t",
    # non-ASCII: Latin-1, BMP, astral (joined and as a written-out pair), lone halves
    "é",
    "\xff",
    "\x80",
    "€",
    "\u0100",
    "\uffff",
    "\ufffd",
    "😀",
    "\U0010ffff",
    "\ud83d\ude00",
    "\ud800",
    "\udbff",
    "\udc00",
    "\udfff",
    # escapes, well-formed
    "%41",
    "%7e",
    "%7E",
    "%25",
    "%23",
    "%2f",
    "%2F",
    "%3B",
    "%3b",
    "%40",
    "%2B",
    "%24",
    "%2C",
    "%3A",
    "%3D",
    "%3F",
    "%26",
    "%20",
    "%C3%A9",
    "%c3%a9",
    "%E2%82%AC",
    "%F0%9F%98%80",
    "%f4%8f%bf%bf",
    "%EF%BF%BF",
    "%ED%9F%BF",
    "%EE%80%80",
    # escapes, malformed: truncated, bad hex, bad lead, overlong, surrogates, > U+10FFFF
    "%",
    "%4",
    "%G0",
    "%E0%A4",
    "%E0%A4%",
    "%C3",
    "%C3%",
    "%C3%4",
    "%C3%41",
    "%80",
    "%BF",
    "%ED%A0%80",
    "%ED%BF%BF",
    "%F4%90%80%80",
    "%F5%80%80%80",
    "%FF",
    "%C0%AF",
    "%C1%BF",
    "%E0%80%AF",
    "%F0%80%80%AF",
    "%F8%88%80%80%80",
    "%C3%C3%A9",
    "%E2%82",
    "%E2%28%A1",
    "%F0%9F%98",
    "%C3%23",
    "%E2%82%3B",
    # escape/unescape forms
    "%u0041",
    "%u20ac",
    "%u20AC",
    "%uD83D%uDE00",
    "%uD800",
    "%uDC00",
    "%u12",
    "%u",
    "%U0041",
    "%u00e9",
    "%uFFFF",
    "%uZZZZ",
]


def generate(seed: int, count: int) -> list[str]:
    rng = random.Random(seed)
    out = list(ATOMS)
    for _ in range(count):
        n = rng.randint(0, 8)
        parts = []
        for _ in range(n):
            r = rng.random()
            if r < 0.6:
                parts.append(rng.choice(ATOMS))
            elif r < 0.75:
                parts.append("%" + "".join(rng.choice(HEX) for _ in range(rng.randint(0, 2))))
            elif r < 0.85:
                # a random escape byte: any lead/continuation byte at all
                parts.append(f"%{rng.randrange(256):02X}")
            elif r < 0.95:
                parts.append(chr(rng.randrange(0x110000)))  # may be a lone surrogate
            else:
                parts.append(chr(rng.randrange(0x20, 0x7F)))
        out.append("".join(parts))
    return out


def test_generated_strings_match_node() -> None:
    compare(generate(seed=6570, count=3000))


def test_every_utf8_lead_byte_with_continuations_matches_node() -> None:
    # Exhaustive over lead bytes, with continuation bytes at the edges of
    # every valid range: where overlong, surrogate and > U+10FFFF begin.
    edges = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
    inputs = []
    for lead in range(256):
        inputs.append(f"%{lead:02X}")
        for c1 in edges:
            inputs.append(f"%{lead:02X}%{c1:02X}")
            inputs.append(f"%{lead:02X}%{c1:02X}%80")
            inputs.append(f"x%{lead:02X}%{c1:02X}%BF%BF")
    compare(inputs)


js_strings = st.lists(
    st.one_of(
        st.sampled_from(ATOMS),
        st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=()),
        st.text(alphabet="%uU0123456789abcdefABCDEFxyz", max_size=6),
    ),
    max_size=12,
).map("".join)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(js_strings, min_size=50, max_size=200))
def test_hypothesis_batches_match_node(batch: list[str]) -> None:
    compare(batch)
