"""Differential fuzzer: the C twin against the pure twin, on every kernel.

atheris (libFuzzer for Python) drives arbitrary str (lone surrogates and
astral characters included), bytes, and escaped UTF-8 of arbitrary text
into ``encode`` (named and random encode sets, both space modes),
``decode``, ``decode_text`` (every flag), ``form_parse``,
``form_parse_bytes`` and ``form_serialize``; and URL-shaped text into the C
URL parser (``url_parse``), whose result must be the Python state machine's
(href, record, validation errors) whenever it does not decline.  Any difference in
result, type, exception type, message or position is a finding (the harness
raises, libFuzzer saves the input).  Pure-Python code is instrumented for
coverage; run it on an ASan build (tools/asan.sh's recipe) to catch memory
errors too.

    .venv/bin/python fuzz/fuzz_twins.py -max_total_time=600          # 10 minutes
    .venv/bin/python fuzz/fuzz_twins.py fuzz/corpus -max_total_time=3600

bench/README.md records how long it has run without a finding.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from helpers.twin_outcome import ESCAPE_ALPHABET, outcome

with atheris.instrument_imports():
    from percent_encoding import _pure, sets, url
    from percent_encoding.core import to_usv_string
    from percent_encoding.url._parser import Failure, basic_parse, serialize

from percent_encoding import _speedups as C

_NAMED = [sets.get(n).table for n in sets.names()]


def check(name: str, *args: Any) -> None:
    py = outcome(getattr(_pure, name), *args)
    c = outcome(getattr(C, name), *args)
    if py != c:
        raise AssertionError(f"{name}{args!r}:\n  pure: {py!r}\n  C:    {c!r}")


def _text(fdp: atheris.FuzzedDataProvider) -> str | bytes:
    n = fdp.ConsumeIntInRange(0, 64)
    mode = fdp.ConsumeIntInRange(0, 4)
    # Sometimes a pad that takes the input near or past the C twin's
    # 512-byte stack buffer.
    pad = 500 if fdp.ConsumeIntInRange(0, 3) == 0 else 0
    if mode == 0:
        return b"a" * pad + fdp.ConsumeBytes(n)
    if mode == 1:
        return "a" * pad + fdp.ConsumeUnicode(n)  # any code point, lone surrogates included
    if mode == 2:
        # bytes spelled as a str of escapes and delimiters: deep in the decoders
        alphabet = ESCAPE_ALPHABET
        return "a" * pad + "".join(
            alphabet[fdp.ConsumeIntInRange(0, len(alphabet) - 1)] for _ in range(n))
    if mode == 3:
        return "a" * pad + fdp.ConsumeUnicodeNoSurrogates(n)
    # valid UTF-8 of any text, each byte escaped or (ASCII) left raw, with the
    # odd bad escape: the one-pass short decoder's widening from Latin-1 to
    # UCS-2 and UCS-4, and its hand-over to the general path
    out = []
    for b in fdp.ConsumeUnicodeNoSurrogates(n).encode("utf-8"):
        pick = fdp.ConsumeIntInRange(0, 15)
        out.append(chr(b) if b < 0x80 and pick < 4 else f"%{b:02X}")
        if pick == 15:
            out.append("%" if fdp.ConsumeBool() else "%C3")
    s = "a" * pad + "".join(out)
    return s.encode("ascii") if fdp.ConsumeBool() else s


_URL_HEADS = ["http://", "https://", "HTTP://", "ws://", "ftp://", "file:///", "mailto:",
              "foo:", "http://u:p@", "https://[", "http://1.2.3.", ""]
_URL_ALPHABET = "aZ09.-_:/?#@[]%2eE \t\n\\'\"<>`{}|^~\x00\x7fü日\U0001f600\ud800\ufdd0"


def check_url(s: str) -> None:
    u = C.url_parse(s)
    if u is None:
        return
    errs: list[tuple[str, int]] = []
    try:
        rec = basic_parse(to_usv_string(s), errors=errs)
    except Failure as e:
        raise AssertionError(
            f"url_parse({s!r}) took it, the state machine fails: {e.name}"
        ) from None
    got = (u.href, u._rec, [tuple(e) for e in u.validation_errors], u.host, u.pathname,
           u.search, u.hash, u.username, u.password, u.port)
    ref = url.URL._from_record(rec, tuple(url.ValidationError(*e) for e in errs))
    want = (serialize(rec), rec, errs, ref.host, ref.pathname, ref.search, ref.hash,
            ref.username, ref.password, ref.port)
    if got != want:
        raise AssertionError(f"url_parse({s!r}):\n  C:      {got!r}\n  Python: {want!r}")


def _url_text(fdp: atheris.FuzzedDataProvider) -> str:
    head = _URL_HEADS[fdp.ConsumeIntInRange(0, len(_URL_HEADS) - 1)]
    n = fdp.ConsumeIntInRange(0, 48)
    if fdp.ConsumeBool():
        body = "".join(_URL_ALPHABET[fdp.ConsumeIntInRange(0, len(_URL_ALPHABET) - 1)]
                       for _ in range(n))
    else:
        body = fdp.ConsumeUnicode(n)
    return head + body


def TestOneInput(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    which = fdp.ConsumeIntInRange(0, 6)
    if which == 6:
        check_url(_url_text(fdp))
        return
    if which == 0:
        if fdp.ConsumeBool():
            table = _NAMED[fdp.ConsumeIntInRange(0, len(_NAMED) - 1)]
        else:
            table = sets.EncodeSet(
                mask=fdp.ConsumeIntInRange(0, (1 << 128) - 1), non_ascii=fdp.ConsumeBool()
            ).table
        check("encode", _text(fdp), table, fdp.ConsumeBool())
    elif which == 1:
        check("decode", _text(fdp), fdp.ConsumeBool(), fdp.ConsumeBool())
    elif which == 2:
        check("decode_text", _text(fdp), fdp.ConsumeBool(), fdp.ConsumeBool(), fdp.ConsumeBool())
    elif which == 3:
        check("form_parse", _text(fdp))
    elif which == 4:
        check("form_parse_bytes", fdp.ConsumeBytes(fdp.ConsumeIntInRange(0, 64)))
    else:
        pairs = [(_text(fdp), _text(fdp)) for _ in range(fdp.ConsumeIntInRange(0, 4))]
        check("form_serialize", pairs)


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
