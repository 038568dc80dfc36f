"""Robustness: no silent loss, no silent change of meaning.

The incremental form parser, fed random chunks, equals the one-shot parser; transforms
that only re-encode (requote, IRI/URI conversions) keep what the string percent-decodes to.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from helpers.fuzzing import (
    FUZZ_TWIN,
    _import,
    call_checked,
)

# ---------------------------------------------------------------------------
# No silent loss at chunk boundaries: the incremental parser equals the one-shot one
# ---------------------------------------------------------------------------

FORM_PIECES = [
    b"a", b"=", b"&", b";", b"%", b"%4", b"%41", b"%C3%A9", b"%82%A0", b"\x82\xa0", b"\xc3\xa9",
    b"+", b"\xff", b"\x1b$B", b"\x1b(B", b"%1B%24B", b"_charset_", b"=shift_jis", b"\xed\xa0\x80",
]


@FUZZ_TWIN
@given(
    body=st.lists(st.sampled_from(FORM_PIECES), max_size=16).map(b"".join),
    cuts=st.lists(st.integers(0, 80), max_size=8),
    encoding=st.sampled_from([None, "utf-8", "shift_jis", "iso-2022-jp", "utf-16le",
                              "windows-1252"]),
    separators=st.sampled_from(["&", "&;"]),
)
def test_form_parser_chunks_equal_parse(body: bytes, cuts: list[int], encoding: str | None,
                                        separators: str) -> None:
    from percent_encoding import form

    parser = form.FormParser(encoding=encoding, separators=separators)
    got: list[tuple[str, str]] = []
    prev = 0
    for cut in [*sorted({c for c in cuts if c <= len(body)}), len(body)]:
        got += parser.feed(body[prev:cut])
        prev = cut
    got += parser.close()
    assert got == form.parse(body, encoding=encoding, separators=separators)


# ---------------------------------------------------------------------------
# No silent change of meaning: transforms that only re-encode keep the decoded bytes
# ---------------------------------------------------------------------------

URI_PIECES = [
    "%", "%25", "%41", "%4", "%1", "%zz", "%C3%A9", "%c3%a9", "%C3", "%E2%80%AE", "%ED%A0%80",
    "a", "1", "/", ".", "?", "#", "@", "[", "]", " ", "é", "😀", "+", "=", "&", "%2F", "%7e",
    "~", "\u202e", "<", '"', "%20",
]
# name -> transform; each may re-encode or decode characters, never change what the
# string percent-decodes to.  (A '%' that does not start an escape decodes to itself, so
# '%1%41' means the bytes '%1A': turning it into '%1A' would mean the byte 0x1A.)
MEANING_PRESERVING: dict[str, Callable[[str], str]] = {
    "rfc3986.requote": lambda s: _strip_dot_slash(s, _import("percent_encoding.rfc3986")
                                                  .requote(s)),
    "rfc3986.normalize_percent_encoding":
        lambda s: _import("percent_encoding.rfc3986").normalize_percent_encoding(s),
    "iri.uri_to_iri": lambda s: _import("percent_encoding.iri").uri_to_iri(s),
    "iri.iri_to_uri": lambda s: _import("percent_encoding.iri").iri_to_uri(s),
    "xpath.iri_to_uri": lambda s: _import("percent_encoding.xpath").iri_to_uri(s),
    "xpath.escape_html_uri": lambda s: _import("percent_encoding.xpath").escape_html_uri(s),
}


def _strip_dot_slash(before: str, after: str) -> str:
    """requote may prefix './' to a relative path whose first segment has a ':' (§4.2)."""
    if after.startswith("./") and not before.startswith("./"):
        return after[2:]
    return after


@pytest.mark.parametrize("name", sorted(MEANING_PRESERVING))
@FUZZ_TWIN
@given(text=st.lists(st.sampled_from(URI_PIECES), max_size=10).map("".join))
@example(text="%1%41")
@example(text="%%4141")
def test_reencoding_keeps_meaning(name: str, text: str) -> None:
    from percent_encoding import core

    ok, out = call_checked(name, MEANING_PRESERVING[name], (text,))
    if ok:
        assert core.decode(out) == core.decode(text), (
            f"{name}({text!r}) = {out!r}: decodes to {core.decode(out)!r}, "
            f"the input to {core.decode(text)!r}"
        )
