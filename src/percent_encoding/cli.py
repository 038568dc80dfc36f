"""The ``percent`` command: every percent-encoding in the registry, for shells and pipelines.

Strategy: this module parses arguments and prints; it has no encoding logic of its own.
Names become schemes and the work is done by :mod:`percent_encoding._tool` (shared with
the web tool): a registry name, or an encode-set name, which means plain UTF-8
percent-encoding with that set.  ``form`` reads :mod:`percent_encoding.form`, ``detect``
reads :mod:`percent_encoding.detect`; both, and the encoding tables, are imported inside
the subcommands that need them so that start-up stays fast.

Conventions (issue 7): errors are one line on stderr and no traceback; exit
status 2 for usage errors (unknown scheme, set or encoding label, a scheme and an
option that do not go together, bad arguments), 1 for data errors (a bad ``%`` with
``--strict``, text an encoding cannot represent, unreadable files).  Without TEXT,
``encode`` and ``decode`` stream stdin line by line in constant memory; output is
flushed whenever the input pauses, so ``tail -f log | percent decode`` is interactive
while a gigabyte file is still written in large blocks.  Colour and the progress bar
appear only on a terminal (and colour never when ``NO_COLOR`` is set).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any, NoReturn

from . import __version__, core, schemes
from . import sets as _sets
from ._tool import (
    USAGE_ERRORS,
    NotApplicableError,
    _is_utf8,
    _utf8,
    check_encoding,
    compare_data,
    decode_with,
    detect_report,
    encode_with,
    plain_profile,
    resolve_scheme,
)
from .errors import PercentEncodingError, PercentEncodingTypeError
from .schemes import Scheme

__all__ = ["CLIError", "build_parser", "main"]

DEFAULT_SCHEME = "component"


class CLIError(PercentEncodingError):
    """An error the CLI reports in one line; ``code`` is the exit status (2 usage, 1 data).

    A :class:`~percent_encoding.errors.PercentEncodingError`, so callers that catch the
    library's errors catch the CLI's too.
    """

    def __init__(self, message: str, code: int = 1) -> None:
        super().__init__(message)
        self.code = code


def _exit_code(e: PercentEncodingError) -> int:
    """2 for the errors that mean the command line is wrong, 1 for bad data."""
    return 2 if isinstance(e, USAGE_ERRORS) else 1


# ---------------------------------------------------------------------------
# Terminal helpers: colour, tables, progress.
# ---------------------------------------------------------------------------


def _colour_ok(stream: IO[Any]) -> bool:
    if os.environ.get("NO_COLOR", "") != "":
        return False
    if os.environ.get("TERM") == "dumb":
        return False
    return bool(getattr(stream, "isatty", lambda: False)())


class _Style:
    def __init__(self, stream: IO[Any]) -> None:
        self.on = _colour_ok(stream)

    def __call__(self, text: str, code: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if self.on else text

    def bold(self, t: str) -> str:
        return self(t, "1")

    def dim(self, t: str) -> str:
        return self(t, "2")

    def red(self, t: str) -> str:
        return self(t, "31")

    def green(self, t: str) -> str:
        return self(t, "32")

    def yellow(self, t: str) -> str:
        return self(t, "33")

    def cyan(self, t: str) -> str:
        return self(t, "36")


def _visible(text: str) -> str:
    """Control characters as escapes so a table cell stays on one line."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


def _table(rows: Sequence[Sequence[str]], style: _Style, header: Sequence[str] | None) -> str:
    cols = len(rows[0]) if rows else len(header or ())
    widths = [0] * cols
    for r in [header or [], *rows]:
        for i, cell in enumerate(r):
            widths[i] = max(widths[i], len(cell))
    lines = []
    if header:
        h = "  ".join(c.ljust(widths[i]) for i, c in enumerate(header)).rstrip()
        lines.append(style.bold(h))
    for r in rows:
        cells = [c.ljust(widths[i]) if i < cols - 1 else c for i, c in enumerate(r)]
        if cells:
            cells[0] = style.cyan(cells[0])
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


class _Progress:
    """A byte-count progress bar on stderr, only when stderr is a terminal and stdout is not
    (otherwise the output itself shows progress), and only after the input has taken a while."""

    DELAY = 0.4
    INTERVAL = 0.1

    def __init__(self, total: int | None, enabled: bool | None = None) -> None:
        if enabled is None:
            enabled = sys.stderr.isatty() and not sys.stdout.isatty()
        self.enabled = enabled
        self.total = total if total else None
        self.done = 0
        self.start = time.monotonic()
        self.last = 0.0
        self.shown = False

    def update(self, n: int) -> None:
        self.done += n
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.DELAY or now - self.last < self.INTERVAL:
            return
        self.last = now
        self.shown = True
        mib = self.done / 1048576
        rate = mib / max(now - self.start, 1e-6)
        if self.total:
            frac = min(self.done / self.total, 1.0)
            bar = "█" * int(frac * 30) + "░" * (30 - int(frac * 30))
            msg = f"\r{bar} {frac * 100:5.1f}%  {mib:8.1f} MiB  {rate:6.1f} MiB/s"
        else:
            msg = f"\r{mib:8.1f} MiB  {rate:6.1f} MiB/s"
        sys.stderr.write(msg)
        sys.stderr.flush()

    def finish(self) -> None:
        if self.shown:
            sys.stderr.write("\r\x1b[2K")
            sys.stderr.flush()


def _input_size(stream: IO[bytes]) -> int | None:
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, AttributeError):
        return None
    import stat

    return st.st_size if stat.S_ISREG(st.st_mode) else None


# ---------------------------------------------------------------------------
# Streaming
# ---------------------------------------------------------------------------


def stream_lines(
    inp: IO[bytes],
    out: IO[bytes],
    fn: Callable[[bytes], bytes],
    progress: _Progress | None = None,
    chunk_size: int = 65536,
    block_fn: Callable[[bytes], bytes] | None = None,
) -> int:
    """Apply ``fn`` to each line of ``inp`` (without its ``\\n`` or ``\\r\\n``, which are written
    back unchanged) in constant memory; returns the number of lines.

    ``block_fn``, when given, is applied instead to runs of whole lines (with their line
    endings) at once; it must give the same bytes as ``fn`` line by line (true of percent-
    decoding and UTF-8 decoding, which never join bytes across a newline).

    Output is flushed before every read that may block, so results of an interactive
    pipeline appear at once while a fast producer still gets large writes.
    """
    read1: Callable[[int], bytes] = getattr(inp, "read1", inp.read)
    pending: list[bytes] = []
    count = 0
    while True:
        out.flush()
        chunk = read1(chunk_size)
        if not chunk:
            break
        if progress is not None:
            progress.update(len(chunk))
        if block_fn is not None:
            cut = chunk.rfind(b"\n") + 1
            if cut == 0:
                pending.append(chunk)
                continue
            pending.append(chunk[:cut])
            block = b"".join(pending)
            pending = [chunk[cut:]] if cut < len(chunk) else []
            count += block.count(b"\n")
            out.write(block_fn(block))
            continue
        lines = chunk.split(b"\n")
        if len(lines) == 1:
            pending.append(chunk)
            continue
        if pending:
            pending.append(lines[0])
            lines[0] = b"".join(pending)
            pending = []
        last = lines.pop()
        if last:
            pending.append(last)
        parts = []
        try:
            for line in lines:
                count += 1
                if line.endswith(b"\r"):
                    parts.append(_line(fn, line[:-1], count) + b"\r\n")
                else:
                    parts.append(_line(fn, line, count) + b"\n")
        finally:  # the lines before a bad one still go out
            out.write(b"".join(parts))
    if pending:
        count += 1
        rest = b"".join(pending)
        out.write(block_fn(rest) if block_fn is not None else _line(fn, rest, count))
    out.flush()
    return count


def _line(fn: Callable[[bytes], bytes], line: bytes, n: int) -> bytes:
    try:
        return fn(line)
    except CLIError as e:
        raise CLIError(f"line {n}: {e}", e.code) from None
    except PercentEncodingError as e:
        raise CLIError(f"line {n}: {e}", _exit_code(e)) from None


def _out_bytes(text: str) -> bytes:
    return text.encode("utf-8", "backslashreplace")


def _stdin_or_file(path: str | None) -> IO[bytes]:
    if path is None or path == "-":
        return sys.stdin.buffer
    try:
        return open(path, "rb")
    except OSError as e:
        raise CLIError(f"cannot read {path}: {e.strerror}", 1) from None


# ---------------------------------------------------------------------------
# Subcommands
# ---------------------------------------------------------------------------


def _all_table(text: str, args: argparse.Namespace, decode: bool) -> str:
    style = _Style(sys.stdout)
    rows = []
    for s in schemes.all_schemes():
        try:
            if decode:
                if s.decode is None and plain_profile(s) is None:
                    continue
                out, _ = decode_with(s, text, args.encoding, strict=args.strict)
            else:
                out = encode_with(s, text, args.encoding)
            cell = _visible(out)
        except NotApplicableError as e:
            cell = style.dim("n/a: " + str(e).split(",")[0])
        except PercentEncodingError as e:
            cell = style.red(f"error: {e}")
        rows.append([s.name, cell])
    return _table(rows, style, ["scheme", "decoded" if decode else "encoded"])


def _arg_data(text: str) -> str | bytes:
    """An argument that was not valid UTF-8 (surrogate-escaped by Python) as its raw bytes."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(text)
    return text


def cmd_encode(args: argparse.Namespace) -> int:
    check_encoding(args.encoding)
    if args.encoding == "auto":
        raise CLIError("--encoding auto only applies to decode", 2)
    s = resolve_scheme(args.scheme)
    if args.text is not None:
        if args.all:
            print(_all_table(args.text, args, decode=False))
            return 0
        print(encode_with(s, _arg_data(args.text), args.encoding))
        return 0
    if args.all:

        def fn(line: bytes) -> bytes:
            return _out_bytes(_all_table(_utf8(line), args, decode=False)) + b"\n"

    else:
        encode_with(s, "", args.encoding)  # report --encoding/scheme mismatches up front
        prof = plain_profile(s)
        if prof is not None and _is_utf8(args.encoding):
            es, plus = prof

            def fn(line: bytes) -> bytes:  # the common case, without per-line checks
                return core.encode(line, es, space_as_plus=plus).encode("ascii")

        else:

            def fn(line: bytes) -> bytes:
                return encode_with(s, line, args.encoding).encode("ascii", "backslashreplace")

    return _run_stream(fn, args)


def cmd_decode(args: argparse.Namespace) -> int:
    check_encoding(args.encoding)
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
            raw = core.decode(args.text, plus_as_space=prof[1], strict=args.strict)
            sys.stdout.flush()
            sys.stdout.buffer.write(raw)
            sys.stdout.buffer.flush()
            return 0
        out, chosen = decode_with(s, args.text, args.encoding, strict=args.strict)
        if chosen is not None:
            print(f"percent: charset: {chosen}", file=sys.stderr)
        sys.stdout.flush()
        sys.stdout.buffer.write(_out_bytes(out) + b"\n")
        sys.stdout.buffer.flush()
        return 0

    if args.all:

        def fn(line: bytes) -> bytes:
            return _out_bytes(_all_table(_utf8(line), args, decode=True)) + b"\n"

    elif args.bytes:
        assert prof is not None
        plus, strict = prof[1], args.strict

        def fn(line: bytes) -> bytes:
            return core.decode(line, plus_as_space=plus, strict=strict)

        if not strict:
            # Percent-decoding never joins bytes across a newline: decode whole blocks.
            return _run_stream(fn, args, lambda block: core.decode(block, plus_as_space=plus))

    elif prof is not None and not args.strict and args.encoding != "auto" and _is_utf8(
        args.encoding
    ):
        plus = prof[1]

        def fn(line: bytes) -> bytes:
            return _out_bytes(core.decode_text(line, plus_as_space=plus))

        # Neither percent-decoding nor UTF-8 decoding (a newline byte ends any bad
        # sequence) joins bytes across lines, so whole blocks give the same result.
        return _run_stream(fn, args, fn)

    else:
        if args.encoding != "auto":
            decode_with(s, "", args.encoding)

        def fn(line: bytes) -> bytes:
            return _out_bytes(decode_with(s, line, args.encoding, strict=args.strict)[0])

    return _run_stream(fn, args)


def _run_stream(
    fn: Callable[[bytes], bytes],
    args: argparse.Namespace,
    block_fn: Callable[[bytes], bytes] | None = None,
) -> int:
    inp = sys.stdin.buffer
    if inp.isatty() and sys.stderr.isatty():
        print("percent: reading lines from the terminal (Ctrl-D to end)", file=sys.stderr)
    progress = _Progress(_input_size(inp))
    sys.stdout.flush()
    try:
        stream_lines(inp, sys.stdout.buffer, fn, progress, block_fn=block_fn)
    finally:
        progress.finish()
    return 0


def cmd_schemes(args: argparse.Namespace) -> int:
    all_s = schemes.all_schemes()
    if args.json:
        data: dict[str, Any] = {
            "schemes": [s.describe() for s in all_s],
            "encode_sets": [
                {"name": n, "spec": _sets.get(n).spec or ""} for n in _sets.names()
            ],
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    style = _Style(sys.stdout)
    by_family: dict[str, list[Scheme]] = {}
    for s in all_s:
        by_family.setdefault(s.family or "other", []).append(s)
    blocks = []
    for fam, members in by_family.items():
        rows = [[s.name, s.spec] for s in members]
        blocks.append(style.bold(style.yellow(fam)) + "\n" + _table(rows, style, None))
    set_rows = [[n, _sets.get(n).spec or ""] for n in _sets.names()]
    blocks.append(
        style.bold(style.yellow("encode sets (plain UTF-8 percent-encoding; also --scheme)"))
        + "\n"
        + _table(set_rows, style, None)
    )
    print("\n\n".join(blocks))
    return 0


_PCT_RUN = re.compile(r"(?:%[0-9A-F]{2})+")


def _mark(o: str | None) -> str:
    """One character for a compact comparison cell."""
    if o is None:
        return "·"
    if o.startswith("error"):
        return "!"
    if _PCT_RUN.fullmatch(o):
        return "%"
    return "+" if o == "+" else "*"


def cmd_compare(args: argparse.Namespace) -> int:
    names = args.schemes or schemes.names()
    data = compare_data(names)
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return 0
    style = _Style(sys.stdout)
    cols = data["schemes"]
    rows = data["rows"]
    if not args.all_rows:
        rows = [r for r in rows if len({str(o) for o in r["output"]}) > 1]
    legend = [[str(i + 1), c["name"]] for i, c in enumerate(cols)]
    print(_table(legend, style, ["#", "scheme"]))
    print()
    # Up to 8 schemes show the exact output; more show one mark per cell.
    compact = len(cols) > 8 and not args.wide
    if compact:
        width = len(str(len(cols)))
    else:
        outs = [len(str(o)) for r in rows for o in r["output"] if o is not None]
        width = max([3, *(n for n in outs if n <= 12)])
    # Consecutive rows that look the same (compact marks) are merged: "U+0000–U+001F".
    groups: list[tuple[str, list[str | None]]] = []
    last_key: tuple[str, ...] | None = None
    for r in rows:
        key = tuple(_mark(o) for o in r["output"]) if compact else None
        if key is not None and key == last_key and groups:
            first = groups[-1][0].split("–")[0]
            groups[-1] = (f"{first}–{r['char']}", groups[-1][1])
        else:
            groups.append((r["char"], r["output"]))
        last_key = key
    label_w = max([6, *(len(g[0]) for g in groups)])
    head = "char".ljust(label_w) + " " + " ".join(str(i + 1).rjust(width) for i in range(len(cols)))
    print(style.bold(head.rstrip()))
    for label, outputs in groups:
        cells = []
        for o in outputs:
            text = _mark(o) if compact else ("·" if o is None else str(o))
            if not compact and len(text) > width:
                text = text[: width - 1] + "…"
            text = text.rjust(width)
            if o is None:
                cells.append(style.dim(text))
            elif str(o).startswith("error"):
                cells.append(style.red(text))
            elif _PCT_RUN.fullmatch(str(o)):
                cells.append(style.green(text))
            else:
                cells.append(style.yellow(text))
        print(style.cyan(label.ljust(label_w)) + " " + " ".join(cells))
    notes = []
    if compact:
        notes.append("% percent-encoded, + plus, * other output, ! rejected, · unchanged; "
                     "--wide shows the output")
    if not args.all_rows:
        notes.append("rows where every scheme agrees are hidden; --all-rows shows them")
    for n in notes:
        print(style.dim(f"({n})"))
    return 0


def cmd_detect(args: argparse.Namespace) -> int:
    rep = detect_report(args.text, args.context)
    if args.json:
        print(json.dumps(rep, indent=2, ensure_ascii=False))
        return 0
    style = _Style(sys.stdout)
    sc = rep.get("space_convention")
    if isinstance(sc, dict):
        plus = sc.get("plus_is_space")
        verdict = "'+' means a space" if plus else "'+' is a literal plus"
        reason = style.dim(str(sc.get("reason", "")))
        print(f"{style.bold('space convention:')} {verdict}  {reason}")
    cs = rep.get("charset")
    if cs == []:
        print(f"{style.bold('charset:')} ASCII only (no percent-encoded non-ASCII bytes)")
    elif isinstance(cs, list):
        guesses = ", ".join(
            f"{g.get('encoding')} ({g.get('confidence', 0):.2f})" if isinstance(g, dict) else str(g)
            for g in cs[:4]
        )
        print(f"{style.bold('charset:')} {guesses}")
    findings = rep.get("findings")
    if isinstance(findings, list):
        if not findings:
            print(f"{style.bold('findings:')} {style.green('none — looks clean')}")
        else:
            print(style.bold("findings:"))
            for f in findings:
                if isinstance(f, dict):
                    where = f"[{f.get('start')}:{f.get('end')}]"
                    print(f"  {style.yellow(str(f.get('code')))} {where} {f.get('message', '')}")
                    if f.get("fix"):
                        print(f"      {style.dim('fix: ' + str(f['fix']))}")
                else:
                    print(f"  {f}")
    variants = rep.get("variants")
    if isinstance(variants, list):
        print(f"{style.bold('could come from:')} {', '.join(map(str, variants)) or '(none)'}")
    for key, err in rep.get("errors", {}).items():
        print(style.dim(f"({key}: {err})"), file=sys.stderr)
    return 0


def _escape_tsv(s: str) -> str:
    return s.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n").replace("\r", "\\r")


def cmd_form_parse(args: argparse.Namespace) -> int:
    from . import form
    enc = check_encoding(args.encoding) if args.encoding else None
    stream = _stdin_or_file(args.file)
    progress = _Progress(_input_size(stream))
    chunks = []
    try:
        while True:
            c = stream.read(1 << 20)
            if not c:
                break
            progress.update(len(c))
            chunks.append(c)
    finally:
        progress.finish()
        if stream is not sys.stdin.buffer:
            stream.close()
    body = b"".join(chunks).rstrip(b"\r\n")
    kwargs: dict[str, Any] = {}
    if enc is not None:
        kwargs["encoding"] = enc
    if args.charset_hack:
        kwargs["charset_hack"] = True
    result = form.parse(body, **kwargs)
    pairs: list[tuple[str, str]] = list(result)
    if isinstance(result, form.ParsedForm):  # encoding="auto" says what it chose, and why
        chosen = result.charset
        print(f"percent: charset: {chosen.encoding} ({chosen.reason})", file=sys.stderr)
    out = sys.stdout
    if args.json:
        out.write(json.dumps([list(p) for p in pairs], ensure_ascii=False) + "\n")
    elif args.tsv:
        for n, v in pairs:
            out.write(f"{_escape_tsv(n)}\t{_escape_tsv(v)}\n")
    else:
        style = _Style(out)
        if pairs:
            print(_table([[_visible(n), _visible(v)] for n, v in pairs], style, ["name", "value"]))
    return 0


def cmd_form_build(args: argparse.Namespace) -> int:
    from . import form
    pairs = []
    for item in args.pairs:
        name, _sep, value = item.partition("=")
        pairs.append((name, value))
    kwargs: dict[str, Any] = {}
    if args.encoding:
        kwargs["encoding"] = check_encoding(args.encoding)
    print(form.serialize(pairs, **kwargs))
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .web.server import serve

    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print(
            f"percent: warning: listening on {args.host}: anyone who can reach it can use the tool",
            file=sys.stderr,
        )
    serve(args.host, args.port, open_browser=args.open)
    return 0


# ---------------------------------------------------------------------------
# Argument parsing
# ---------------------------------------------------------------------------


class _Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_F = argparse.RawDescriptionHelpFormatter

EPILOG_MAIN = """\
examples:
  percent encode 'a b&c/ü'                        a%20b%26c%2F%C3%BC
  percent encode --scheme application/x-www-form-urlencoded 'a b'
  percent encode --scheme path --encoding shift_jis 'ア'
  percent decode 'caf%C3%A9'
  percent encode --all 'a b+c'                    every scheme side by side
  zcat access.log.gz | percent decode > plain.log  stream, constant memory
  percent form parse --json < body.txt
  percent compare component ecmascript-encodeURIComponent
  percent serve                                    the web tool on http://127.0.0.1:8000

exit status: 0 ok, 1 data error, 2 usage error.  NO_COLOR disables colour.
"""

EPILOG_ENCODE = """\
examples:
  percent encode 'a b&c'                          a%20b%26c
  percent encode --scheme path 'a b/c'            a%20b/c
  percent encode --scheme application/x-www-form-urlencoded 'a b'   a+b
  percent encode --scheme query --encoding windows-1252 'é'         %E9
  percent encode --all 'a b+c'
  printf 'a b\\nc/d\\n' | percent encode         one result per line

--scheme takes a registry name (`percent schemes`) or an encode-set name, which means
plain UTF-8 percent-encoding with that set.  Without TEXT, stdin is read line by line
(\\n or \\r\\n are kept); raw bytes are encoded as they are with an encode-set name.
"""

EPILOG_DECODE = """\
examples:
  percent decode 'caf%C3%A9'                       café
  percent decode --scheme application/x-www-form-urlencoded 'a+b'   a b
  percent decode --encoding shift_jis '%83A'       ア
  percent decode --encoding auto '%83%41%83%43'
  percent decode --strict '100%'                   error: bad % at position 3
  percent decode --bytes '%FF%00' | xxd
  percent decode < urls.txt > decoded.txt

Invalid %-sequences are kept unless --strict; invalid UTF-8 becomes U+FFFD.
"""

EPILOG_FORM = """\
examples:
  echo 'a=1&b=x+y%21' | percent form parse                table
  percent form parse --json body.txt                      [["a", "1"], ["b", "x y!"]]
  percent form parse --tsv --encoding shift_jis body.txt
  percent form parse --charset-hack body.txt              _charset_ field picks the encoding
  percent form build q='a b' lang=ü                       q=a+b&lang=%C3%BC
  percent form build --encoding windows-1252 q=café       q=caf%E9
"""

EPILOG_COMPARE = """\
examples:
  percent compare                                   every registered scheme
  percent compare component path query application/x-www-form-urlencoded
  percent compare --all-rows --json rfc3986-unreserved oauth1
  percent compare --wide php-urlencode java-URLEncoder go-QueryEscape

Each cell is what the scheme writes for that character ("·": left alone); with more
than eight schemes, one mark per cell (% encoded, + plus, * other, ! rejected).
"""

EPILOG_SCHEMES = """\
examples:
  percent schemes
  percent schemes --json | jq '.schemes[].name'
"""

EPILOG_DETECT = """\
examples:
  percent detect 'https://example.com/?q=a+b%2'
  percent detect --context path '/a%2fb%20c'
  percent detect --context form 'q=caf%E9+au+lait&x=1'
  percent detect --json 'caf%E9'
"""

EPILOG_SERVE = """\
examples:
  percent serve                    http://127.0.0.1:8000/
  percent serve --port 0 --open    any free port, open a browser
  ./dev serve                      set up the project, then serve

The server binds to 127.0.0.1 by default; stop it with Ctrl-C.
"""


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of the ``percent`` command."""
    p = _Parser(
        prog="percent",
        description="Percent-encode and decode in every scheme the library knows.",
        epilog=EPILOG_MAIN,
        formatter_class=_F,
    )
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str, help: str, epilog: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help, description=help, epilog=epilog, formatter_class=_F)

    e = add("encode", "percent-encode TEXT (or each line of stdin)", EPILOG_ENCODE)
    e.add_argument("--scheme", "-s", default=DEFAULT_SCHEME, help="scheme or encode-set name "
                   f"(default: {DEFAULT_SCHEME})")
    e.add_argument("--encoding", "-e", default="utf-8", metavar="LABEL",
                   help="WHATWG encoding label for the text (default: utf-8)")
    e.add_argument("--all", "-a", action="store_true", help="show the result in every scheme")
    e.add_argument("text", nargs="?", metavar="TEXT", help="text to encode (default: stdin)")
    e.set_defaults(func=cmd_encode)

    d = add("decode", "percent-decode TEXT (or each line of stdin)", EPILOG_DECODE)
    d.add_argument("--scheme", "-s", default=DEFAULT_SCHEME, help="scheme or encode-set name "
                   f"(default: {DEFAULT_SCHEME})")
    d.add_argument("--encoding", "-e", default="utf-8", metavar="LABEL|auto",
                   help="encoding of the decoded bytes, or 'auto' to detect it (default: utf-8)")
    d.add_argument("--strict", action="store_true",
                   help="fail on a bad %%-sequence or bytes invalid in the encoding")
    d.add_argument("--bytes", "-b", action="store_true",
                   help="write the decoded bytes as they are (no charset decoding)")
    d.add_argument("--all", "-a", action="store_true", help="show the result in every scheme")
    d.add_argument("text", nargs="?", metavar="TEXT", help="text to decode (default: stdin)")
    d.set_defaults(func=cmd_decode)

    f = add("form", "parse or build application/x-www-form-urlencoded data", EPILOG_FORM)
    fsub = f.add_subparsers(dest="form_command", metavar="ACTION", parser_class=_Parser)
    fp = fsub.add_parser("parse", help="parse a urlencoded body (FILE or stdin)",
                         description="Parse a urlencoded body (FILE or stdin).",
                         epilog=EPILOG_FORM, formatter_class=_F)
    fmt = fp.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="a JSON list of [name, value] pairs")
    fmt.add_argument("--tsv", action="store_true",
                     help="name<TAB>value lines (\\t \\n \\\\ escaped)")
    fp.add_argument("--encoding", "-e", metavar="LABEL", help="legacy encoding of the body")
    fp.add_argument("--charset-hack", action="store_true",
                    help="let a _charset_ field choose the encoding")
    fp.add_argument("file", nargs="?", metavar="FILE", help="file to read (default: stdin)")
    fp.set_defaults(func=cmd_form_parse)
    fb = fsub.add_parser("build", help="serialize NAME=VALUE pairs",
                         description="Serialize NAME=VALUE pairs as application/x-www-form-"
                         "urlencoded.", epilog=EPILOG_FORM, formatter_class=_F)
    fb.add_argument("--encoding", "-e", metavar="LABEL", help="legacy encoding for the values")
    fb.add_argument("pairs", nargs="+", metavar="NAME=VALUE")
    fb.set_defaults(func=cmd_form_build)
    f.set_defaults(func=lambda a: _usage(f))

    c = add("compare", "which ASCII characters each scheme encodes", EPILOG_COMPARE)
    c.add_argument("schemes", nargs="*", metavar="SCHEME")
    c.add_argument("--all-rows", action="store_true", help="also rows where all schemes agree")
    c.add_argument("--json", action="store_true", help="the comparison as JSON")
    c.add_argument("--wide", action="store_true",
                   help="exact output in every cell, even for many schemes")
    c.set_defaults(func=cmd_compare)

    s = add("schemes", "list every scheme and encode set, with its spec", EPILOG_SCHEMES)
    s.add_argument("--json", action="store_true", help="as JSON")
    s.set_defaults(func=cmd_schemes)

    t = add("detect", "space convention, charset and problems of a percent-encoded string",
            EPILOG_DETECT)
    t.add_argument("text", metavar="TEXT")
    t.add_argument("--context", default="query",
                   help="where the text lives: query, form, path, fragment, component, or "
                   "an encode-set name (default: query)")
    t.add_argument("--json", action="store_true", help="as JSON")
    t.set_defaults(func=cmd_detect)

    v = add("serve", "start the web tool", EPILOG_SERVE)
    v.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    v.add_argument("--port", "-p", type=int, default=8000, help="port (default: 8000; 0: any)")
    v.add_argument("--open", action="store_true", help="open the page in a browser")
    v.set_defaults(func=cmd_serve)
    return p


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def _version() -> str:
    from . import IMPLEMENTATION

    return f"percent {__version__} ({IMPLEMENTATION} kernels)"


def main(argv: Iterable[str] | None = None) -> int:
    """Run the ``percent`` command; returns the exit status.

    ``argv`` is an iterable of ``str`` (``None``: ``sys.argv[1:]``); anything else is a
    programming error and raises :class:`~percent_encoding.errors.PercentEncodingTypeError`.
    """
    parser = build_parser()
    args = parser.parse_args(_argv(argv) if argv is not None else None)
    prog = "percent" + (f" {args.command}" if getattr(args, "command", None) else "")
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except CLIError as e:
        return _fail(prog, str(e), e.code)
    except PercentEncodingError as e:
        return _fail(prog, str(e), _exit_code(e))
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
        return 141
    except OSError as e:
        return _fail(prog, f"{e.strerror or e}", 1)
    except Exception as e:  # a bug: still one line, unless PERCENT_DEBUG asks for the traceback
        if os.environ.get("PERCENT_DEBUG"):
            raise
        return _fail(prog, f"internal error: {type(e).__name__}: {e} (PERCENT_DEBUG=1 shows "
                     "the traceback; please report it)", 1)


def _argv(argv: object) -> list[str]:
    # A lone str would be split into characters by list(): refuse it, as any
    # non-iterable or an item that is not str (argparse would fail deep inside).
    if isinstance(argv, (str, bytes, bytearray)) or not hasattr(argv, "__iter__"):
        raise PercentEncodingTypeError(
            f"main() takes a sequence of str or None, not {type(argv).__name__}"
        )
    items = list(argv)
    for i, item in enumerate(items):
        if not isinstance(item, str):
            raise PercentEncodingTypeError(
                f"main(): argv[{i}] must be a str, not {type(item).__name__}"
            )
    return items


def _fail(prog: str, message: str, code: int) -> int:
    style = _Style(sys.stderr)
    one_line = " ".join(message.split())
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        pass
    print(f"{prog}: {style.red('error:')} {one_line}", file=sys.stderr)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
