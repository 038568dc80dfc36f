"""The ``encode`` and ``decode`` subcommands.

Strategy: TEXT (or each line of stdin) goes through
:func:`percent_encoding._tool.encode_with` / ``decode_with`` for the chosen
scheme or encode set; ``--all`` prints a table of every scheme.  A bad ``%``
with ``--strict`` or text the encoding cannot represent is a data error
(exit status 1).
"""

from __future__ import annotations

import argparse
import codecs
import os
import re
import sys
from collections.abc import Callable
from typing import IO, Any, cast

from .. import core
from .._tool import (
    NotApplicableError,
    check_encoding,
    decode_plain,
    decode_with,
    encode_plain,
    encode_with,
    guess_charset,
    plain_profile,
    resolve_scheme,
    set_profile,
    utf8_output,
    utf8_text,
)
from ..errors import PercentDecodeError, PercentEncodingError, TextDecodeError
from ..sets import EncodeSet
from ._stream import (
    Step,
    escape_cut,
    keep_crlf_encoded,
    out_bytes,
    stream_lines,
    terminal_safe,
)
from ._term import CLIError, Progress, Style, input_size, table, visible


def _all_table(text: str, args: argparse.Namespace, decode: bool) -> str:
    from .. import schemes  # the whole registry: only for --all

    style = Style(sys.stdout)
    rows = []
    for s in schemes.all_schemes():
        try:
            if decode:
                if s.decode is None and plain_profile(s) is None:
                    continue
                out, _ = decode_with(s, text, args.encoding, strict=args.strict)
            else:
                out = encode_with(s, text, args.encoding)
            cell = visible(out)
        except NotApplicableError as e:
            cell = style.dim("n/a: " + str(e).split(",")[0])
        except PercentEncodingError as e:
            cell = style.red(f"error: {e}")
        rows.append([s.name, cell])
    return table(rows, style, ["scheme", "decoded" if decode else "encoded"])


def arg_data(text: str) -> str | bytes:
    """An argument that was not valid UTF-8 (surrogate-escaped by Python) as its raw bytes.

    main() has refused any argument os.fsencode cannot take (cli._not_utf8)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text)
    return text


def cmd_encode(args: argparse.Namespace) -> int:
    check_encoding(args.encoding)
    if args.encoding == "auto":
        raise CLIError("--encoding auto only applies to decode", 2)
    if args.text is not None and not args.all:
        # An encode-set name needs no Scheme (nor the dataclass machinery behind it).
        prof = set_profile(args.scheme)
        if prof is not None:
            print(encode_plain(prof, arg_data(args.text), args.encoding))
            return 0
    s = resolve_scheme(args.scheme)
    if args.text is not None:
        if args.all:
            print(_all_table(args.text, args, decode=False))
            return 0
        print(encode_with(s, arg_data(args.text), args.encoding))
        return 0
    if args.all:

        def fn(line: bytes) -> bytes:
            return out_bytes(_all_table(utf8_text(line), args, decode=False)) + b"\n"

    else:
        encode_with(s, "", args.encoding)  # report --encoding/scheme mismatches up front
        prof = plain_profile(s)
        if prof is not None and utf8_output(args.encoding):
            es, plus = prof

            def fn(line: bytes) -> bytes:  # the common case, without per-line checks
                return core.encode(line, es, space_as_plus=plus).encode("ascii")

            # Byte by byte: a long line can be cut anywhere.
            return _run_stream(fn, args, step_factory=lambda: lambda b, final: fn(b))

        else:

            def fn(line: bytes) -> bytes:
                return encode_with(s, line, args.encoding).encode("ascii", "backslashreplace")

            if prof is not None:
                # A legacy encoding's encoder is per character (Encoding Standard §4.3's
                # encoders other than ISO-2022-JP keep no state), so a long line goes in
                # pieces cut at character boundaries: bounded memory.  ISO-2022-JP's
                # pieces end where its encoder is in the ASCII state (_ascii_state_end).
                es, plus = prof
                enc = args.encoding
                return _run_stream(
                    fn, args, step_factory=lambda: _legacy_encode_step(es, plus, enc))

    return _run_stream(fn, args)


def _stateful(encoding: str) -> bool:
    from ..encodings import lookup

    return lookup(encoding).name == "ISO-2022-JP"


# Encoding Standard §12.2.2, the ISO-2022-JP encoder: U+00A5 and U+203E switch it to the
# Roman state; "\", "~" and a code point it encodes through jis0208 leave Roman, and after
# them ASCII is in the ASCII state.  Other ASCII, and a code point it cannot encode (an
# error, which leaves Roman as it is), change nothing of that: they are "neutral".
_ASCII = re.compile(r"[\x00-\x7f]")
_NOT_NEUTRAL = re.compile(r"[^\x00-\x5b\x5d-\x7d\x7f]")
_JIS: dict[str, bool] = {}


def _jis0208(ch: str) -> bool:
    """Whether the ISO-2022-JP encoder writes ``ch`` in its jis0208 state."""
    got = _JIS.get(ch)
    if got is None:
        from ..encodings import lookup

        try:
            got = lookup("ISO-2022-JP").encode(ch).startswith(b"\x1b$B")
        except PercentEncodingError:
            got = False
        _JIS[ch] = got
    return got


def _ascii_state_end(text: str) -> int:
    """The longest prefix of ``text`` (begun in the ASCII state) that leaves the ISO-2022-JP
    encoder in the ASCII state: it ends with an ASCII code point that is "\" or "~", or
    whose last code point before it that is not neutral is not U+00A5 or U+203E.  One
    backward pass (over the reversed text)."""
    rev, pos, n = text[::-1], 0, len(text)
    while True:
        a = _ASCII.search(rev, pos)
        if a is None:
            return 0
        i = a.start()
        if rev[i] in "\\~":
            return n - i
        k = _NOT_NEUTRAL.search(rev, i + 1)
        while k is not None and rev[k.start()] not in "\\~\u00a5\u203e" and not _jis0208(
                rev[k.start()]):
            k = _NOT_NEUTRAL.search(rev, k.start() + 1)  # an error: neutral
        if k is None or rev[k.start()] not in "\u00a5\u203e":
            return n - i
        pos = k.start() + 1  # Roman from that U+00A5 or U+203E up to here: look before it


def _legacy_encode_step(es: str | EncodeSet, plus: bool, encoding: str) -> Step:
    """A long line's pieces: UTF-8 read incrementally, each whole character encoded (for
    ISO-2022-JP, the text up to where its encoder is back in the ASCII state)."""
    dec = codecs.getincrementaldecoder("utf-8")("strict")
    seen = 0  # bytes of the line before this piece
    stateful = _stateful(encoding)
    pending = ""  # ISO-2022-JP: text after the last point in the ASCII state

    def step(data: bytes, final: bool) -> bytes:
        nonlocal seen, pending
        held = len(dec.getstate()[0])  # a character's first bytes from the last piece
        try:
            text = dec.decode(data, final)
        except UnicodeDecodeError as e:
            at = seen - held + e.start
            raise TextDecodeError(
                f"input is not UTF-8 (byte 0x{e.object[e.start]:02X} at offset {at}); "
                "use an encode-set name to percent-encode raw bytes", at) from None
        seen += len(data)
        if stateful:
            text = pending + text
            cut = len(text) if final else _ascii_state_end(text)
            text, pending = text[:cut], text[cut:]
        return core.encode(text, es, encoding=encoding, space_as_plus=plus).encode("ascii")

    return step


def cmd_decode(args: argparse.Namespace) -> int:
    if getattr(args, "column", None):
        from ._columns import cmd_decode_columns  # imported on use: pyarrow is optional

        return cmd_decode_columns(args)
    for flag in ("output", "format", "output_format", "errors", "threads"):
        if getattr(args, flag, None) is not None:
            raise CLIError(f"--{flag.replace('_', '-')} applies only with --column", 2)
    check_encoding(args.encoding)
    if args.text is not None and not args.all and not args.bytes:
        # An encode-set name needs no Scheme (nor the dataclass machinery behind it).
        set_prof = set_profile(args.scheme)
        if set_prof is not None:
            return _print_decoded(
                *decode_plain(set_prof, arg_data(args.text), args.encoding, strict=args.strict))
    s = resolve_scheme(args.scheme)
    prof = plain_profile(s)
    if args.bytes and prof is None:
        raise CLIError(f"--bytes needs a plain percent-encoding; {s.name!r} is not one", 2)
    if args.bytes and args.all:
        raise CLIError("--bytes and --all do not go together", 2)
    if args.text is not None:
        if args.all:
            print(_all_table(args.text, args, decode=True))
            return 0
        if args.bytes:
            assert prof is not None
            raw = core.decode(arg_data(args.text), plus_as_space=prof[1], strict=args.strict)
            sys.stdout.flush()
            sys.stdout.buffer.write(terminal_safe(raw) if sys.stdout.isatty() else raw)
            sys.stdout.buffer.flush()
            return 0
        return _print_decoded(
            *decode_with(s, arg_data(args.text), args.encoding, strict=args.strict))

    inp: IO[bytes] = sys.stdin.buffer
    encoding = args.encoding
    if encoding == "auto" and not (args.per_line or args.all or args.bytes):
        inp, encoding = _sample_charset(inp, prof[1] if prof is not None else False)
    tty = sys.stdout.isatty()
    # Line mode keeps the line structure: a %0A or %0D stays encoded unless --raw.
    protect = (lambda b: b) if args.raw else keep_crlf_encoded
    step_factory: Callable[[], Step] | None = None
    block_fn: Callable[[bytes], bytes] | None = None

    if args.all:

        def fn(line: bytes) -> bytes:
            return out_bytes(_all_table(utf8_text(line), args, decode=True)) + b"\n"

    elif prof is not None and not args.strict and (args.bytes or (
            encoding != "auto" and utf8_output(encoding))):
        plus, as_text = prof[1], not args.bytes

        def fn(line: bytes) -> bytes:
            if as_text:
                return out_bytes(core.decode_text(protect(line), plus_as_space=plus))
            return core.decode(protect(line), plus_as_space=plus)

        # Neither percent-decoding nor UTF-8 decoding (a newline byte ends any bad
        # sequence) joins bytes across lines, so whole blocks give the same result.
        block_fn = fn

        def step_factory() -> Step:
            return _decode_step(plus, as_text, protect)

    elif args.bytes:
        assert prof is not None
        plus = prof[1]

        def fn(line: bytes) -> bytes:
            out = core.decode(line, plus_as_space=plus, strict=True)
            return out if args.raw else out.replace(b"\r", b"%0D").replace(b"\n", b"%0A")

        raw_bytes = args.raw

        def step_factory() -> Step:
            return _strict_decode_step(plus, raw_bytes, as_text=False)

    else:
        if encoding != "auto":
            decode_with(s, "", encoding)

        def fn(line: bytes) -> bytes:
            text = decode_with(s, line, encoding, strict=args.strict)[0]
            if not args.raw:
                text = text.replace("\r", "%0D").replace("\n", "%0A")
            return out_bytes(text)

        if prof is not None and not args.strict and encoding != "auto" and (
                legacy_cut_safe(encoding)):
            plus, raw_out = prof[1], args.raw

            def step_factory() -> Step:
                return _legacy_decode_step(plus, encoding, raw_out)

        elif prof is not None and args.strict and encoding != "auto" and _is_utf8(encoding):
            plus, raw_out = prof[1], args.raw

            def step_factory() -> Step:
                return _strict_decode_step(plus, raw_out)

    if tty:  # what is shown on a terminal cannot drive it (%1B stays visible as %1B)
        block_fn = None
        line_fn, step_make = fn, step_factory

        def fn(line: bytes) -> bytes:
            return terminal_safe(line_fn(line))

        if step_make is not None:

            def step_factory() -> Step:
                inner = step_make()
                return lambda data, final: terminal_safe(inner(data, final))

    return _run_stream(fn, args, block_fn, step_factory, inp)


def _print_decoded(out: str, chosen: str | None) -> int:
    if chosen is not None:
        print(f"percent: charset: {chosen}", file=sys.stderr)
    sys.stdout.flush()
    shown = out_bytes(out)
    sys.stdout.buffer.write((terminal_safe(shown) if sys.stdout.isatty() else shown) + b"\n")
    sys.stdout.buffer.flush()
    return 0


def _decode_step(plus: bool, as_text: bool, protect: Callable[[bytes], bytes]) -> Step:
    """Percent-decode (and UTF-8 decode) one long line in pieces: a split ``%XX`` is
    carried to the next piece, a split UTF-8 sequence stays in the incremental
    decoder, so the pieces give exactly what the whole line gives."""
    carry = b""
    text = codecs.getincrementaldecoder("utf-8")("replace") if as_text else None

    def step(data: bytes, final: bool) -> bytes:
        nonlocal carry
        buf = carry + data
        cut = len(buf) if final else escape_cut(buf)
        carry = buf[cut:]
        raw = core.decode(protect(buf[:cut]), plus_as_space=plus)
        return raw if text is None else out_bytes(text.decode(raw, final))

    return step


# Encoding Standard §9-§13: the decoders that are back in their first state after any
# byte below 0x30, whatever came before (a byte there is never a trail byte, so a lead
# before it is an error and it is read again as ASCII; gb18030's four-byte sequences
# use 0x30-0x39, hence 0x30).  ISO-2022-JP keeps a mode, UTF-16 pairs, and replacement
# gives one U+FFFD for the whole input: their long lines stay whole.
_CUT_AFTER_LOW_BYTE = frozenset({"Shift_JIS", "EUC-JP", "EUC-KR", "Big5", "GBK", "gb18030"})
_NOT_LOW = bytes(range(0x30, 0x100))


def legacy_cut_safe(encoding: str) -> bool:
    """Whether a long line in this (non-UTF-8) encoding can be decoded in pieces."""
    from ..encodings import lookup
    from ..encodings._data import SINGLE_BYTE_INDEX  # the §9 encodings

    name = lookup(encoding).name
    return name in _CUT_AFTER_LOW_BYTE or name in SINGLE_BYTE_INDEX or name == "x-user-defined"


def _legacy_decode_step(plus: bool, encoding: str, raw: bool) -> Step:
    """Percent-decode a long line in pieces, then decode its bytes in a legacy encoding.

    A split ``%XX`` is carried to the next piece; the decoded bytes are cut after
    their last byte below 0x30, where the decoder is in its first state (see
    ``_CUT_AFTER_LOW_BYTE``; a single-byte decoder keeps no state), so the pieces
    give exactly what the whole line gives.  CR and LF come out as ``%0D``/``%0A``
    unless ``raw``."""
    from ..encodings import lookup

    enc = lookup(encoding)
    multi = enc.name in _CUT_AFTER_LOW_BYTE
    carry = b""
    held = b""  # decoded bytes after the last safe cut

    def step(data: bytes, final: bool) -> bytes:
        nonlocal carry, held
        buf = carry + data
        cut = len(buf) if final else escape_cut(buf)
        carry = buf[cut:]
        got = held + core.decode(buf[:cut], plus_as_space=plus)
        end = len(got)
        if multi and not final:
            end = len(got.rstrip(_NOT_LOW))  # just after the last byte below 0x30
        held = got[end:]
        text = enc.decode(got[:end])
        if not raw:
            text = text.replace("\r", "%0D").replace("\n", "%0A")
        return out_bytes(text)

    return step


def _is_utf8(encoding: str) -> bool:
    from ..encodings import lookup

    return lookup(encoding).name == "UTF-8"


def _strict_decode_step(plus: bool, raw: bool, as_text: bool = True) -> Step:
    """``decode --strict`` (UTF-8, or ``--bytes``: ``as_text`` False) of a long line in
    pieces, with the whole line's error.

    A split ``%XX`` is carried to the next piece and a split UTF-8 sequence stays in the
    incremental decoder.  The whole line reports a bad ``%`` before any byte that is not
    UTF-8 (decode_with checks the escapes first), so a UTF-8 error is held, the output
    stops, and the rest of the line is still checked for a bad ``%``; the UTF-8 error
    (with the four bytes from where it starts, as the kernels show them) is raised at the
    line's end.  Positions count from the line's start."""
    carry = b""
    seen_in = 0  # input bytes before this piece
    seen_out = 0  # decoded bytes fed to the UTF-8 decoder before this piece
    dec = codecs.getincrementaldecoder("utf-8")("strict")
    bad: list[Any] = []  # [reason, byte offset, the bytes from there (up to 4)]
    # the first bad %: [its message, the bytes shown in it, position in the line, the
    # bytes from there (up to 3: a piece may end right after the %)]
    pct: list[Any] = []

    def pct_error() -> PercentDecodeError:
        msg, shown, at, full = pct
        return PercentDecodeError(msg.replace(f"{shown!r} at position", f"{full!r} at position",
                                              1), at)

    def step(data: bytes, final: bool) -> bytes:
        nonlocal carry, seen_in, seen_out
        if pct:
            pct[3] += data[: 3 - len(pct[3])]
            if final or len(pct[3]) == 3:
                raise pct_error()
            return b""
        buf = carry + data
        cut = len(buf) if final else escape_cut(buf)
        carry = buf[cut:]
        try:
            got = core.decode(buf[:cut], plus_as_space=plus, strict=True)
        except PercentDecodeError as e:
            at = seen_in + e.position
            shown = buf[e.position : min(cut, e.position + 3)]
            pct.extend([str(e).replace(f" at position {e.position}:", f" at position {at}:", 1),
                        shown, at, buf[e.position : e.position + 3]])
            if final or len(pct[3]) == 3:
                raise pct_error() from None
            return b""
        seen_in += cut
        if not as_text:
            return got if raw else got.replace(b"\r", b"%0D").replace(b"\n", b"%0A")
        if bad:
            bad[2] += got[: 4 - len(bad[2])]
            text = ""
        else:
            held = len(dec.getstate()[0])
            try:
                text = dec.decode(got, final)
            except UnicodeDecodeError as e:
                both = e.object
                bad.extend([e.reason, seen_out - held + e.start, both[e.start : e.start + 4]])
                text = ""
            seen_out += len(got)
        if final and bad:
            raise TextDecodeError(f"percent-decoded bytes are not valid UTF-8: {bad[0]} at "
                                  f"byte {bad[1]} ({bytes(bad[2])!r})", bad[1])
        if not raw:
            text = text.replace("\r", "%0D").replace("\n", "%0A")
        return out_bytes(text)

    return step


def _sample_charset(inp: IO[bytes], plus: bool) -> tuple[IO[bytes], str]:
    """``--encoding auto`` on a stream: detect once from the first 64 KB (reported on
    stderr), then decode every line with that encoding."""
    read1: Callable[[int], bytes] = getattr(inp, "read1", inp.read)
    parts: list[bytes] = []
    size = 0
    while size < SAMPLE:
        c = read1(SAMPLE - size)
        if not c:
            break
        parts.append(c)
        size += len(c)
    sample = b"".join(parts)
    raw = core.decode(sample, plus_as_space=plus)
    chosen, conf = guess_charset(raw)
    if chosen != "UTF-8":
        # Log lines cut at a byte limit end inside a UTF-8 character; one such line is
        # UTF-8 to the detector, so judge the sample without those incomplete tails.
        trimmed = b"\n".join(_without_cut_utf8(line) for line in raw.splitlines())
        if not trimmed.isascii() and trimmed != b"\n".join(raw.splitlines()):
            again = guess_charset(trimmed)
            if again[0] == "UTF-8":
                chosen, conf = again
    how = "no guess" if conf is None else f"confidence {conf:.2f}"
    print(f"percent: charset: {chosen} ({how}, detected once from the first {size} bytes; "
          "--per-line detects each line)", file=sys.stderr)
    return cast(IO[bytes], _Prefixed(sample, inp)), chosen


SAMPLE = 1 << 16


def _without_cut_utf8(line: bytes) -> bytes:
    """``line`` without an incomplete UTF-8 sequence at its very end (if that is its
    only flaw)."""
    try:
        line.decode("utf-8")
    except UnicodeDecodeError as e:
        if e.reason == "unexpected end of data" and e.end == len(line):
            return line[: e.start]
    return line


class _Prefixed:
    """A byte stream that gives ``head`` first, then the rest of ``inp``."""

    def __init__(self, head: bytes, inp: IO[bytes]) -> None:
        self._head = head
        self._inp = inp
        self._read1: Callable[[int], bytes] = getattr(inp, "read1", inp.read)

    def read1(self, n: int = -1) -> bytes:
        if self._head:
            h, self._head = self._head, b""
            return h
        return self._read1(n)

    read = read1

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self._inp.fileno()


def _run_stream(
    fn: Callable[[bytes], bytes],
    args: argparse.Namespace,
    block_fn: Callable[[bytes], bytes] | None = None,
    step_factory: Callable[[], Step] | None = None,
    inp: IO[bytes] | None = None,
) -> int:
    if inp is None:
        inp = sys.stdin.buffer
    if inp.isatty() and sys.stderr.isatty():
        print("percent: reading lines from the terminal (Ctrl-D to end)", file=sys.stderr)
    progress = Progress(input_size(inp))
    sys.stdout.flush()
    try:
        stream_lines(inp, sys.stdout.buffer, fn, progress, block_fn=block_fn,
                     step_factory=step_factory)
    finally:
        progress.finish()
    return 0
