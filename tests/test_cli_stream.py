"""The ``percent`` command on streams (docs/cli.md): ``form parse`` streamed
through FormParser and ``--lines``; ``decode``/``encode`` in bounded chunks
inside a line; line structure and terminal safety; ``--encoding auto`` on a
stream; write failures.  Memory is peak RSS of a subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from percent_encoding import cli

pytestmark = pytest.mark.one_impl
needs_proc = pytest.mark.skipif(not os.path.exists("/proc/self/status"),
                                reason="peak RSS is read from /proc/self/status (Linux)")


def run_proc(*argv: str, stdin: bytes = b"", env: dict[str, str] | None = None
             ) -> subprocess.CompletedProcess[bytes]:
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "percent_encoding", *argv], input=stdin,
                          capture_output=True, timeout=120, env=e)


# VmHWM, not ru_maxrss: Linux carries the parent's peak into ru_maxrss across exec.
_RSS = """
import sys
from percent_encoding import cli
sys.stdout = open(os.devnull, "w")
code = cli.main(sys.argv[1:])
hwm = [ln for ln in open("/proc/self/status") if ln.startswith("VmHWM")][0]
print(code, int(hwm.split()[1]) // 1024, file=sys.stderr)
"""


def peak_rss_mb(*argv: str) -> int:
    """Peak RSS (MB) of ``percent ARGV`` in a fresh interpreter, output discarded."""
    r = subprocess.run([sys.executable, "-c", "import os\n" + _RSS, *argv],
                       capture_output=True, text=True, timeout=300)
    code, mb = r.stderr.split()[-2:]
    assert code == "0", r.stderr
    return int(mb)


# -- form parse ----------------------------------------------------------------------------


@needs_proc
@pytest.mark.slow
@pytest.mark.parametrize("fmt", ["--json", "--tsv"])
def test_form_parse_memory_bounded_by_field(tmp_path: Path, fmt: str) -> None:
    # 8 MB of tiny fields (2M pairs): building every pair before writing takes ~420 MB.
    f = tmp_path / "body.txt"
    f.write_bytes(b"a=b&" * (2 << 20))
    assert peak_rss_mb("form", "parse", fmt, str(f)) < 60


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 65536])
def test_form_parse_streamed_equals_parse(monkeypatch: pytest.MonkeyPatch, chunk: int,
                                          capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    from percent_encoding import form
    from percent_encoding.cli import _form

    body = b"a=1&b=x+y%21&c=tab%09here&&d&e=caf%C3%A9\r\n\r\nf=\xc3\xa9&g=%\r\n\n"
    f = tmp_path / "body.txt"
    f.write_bytes(body)
    real = _form._chunks

    def small(stream, progress):  # type: ignore[no-untyped-def]
        for c in real(stream, progress):
            for i in range(0, len(c), chunk):
                yield c[i:i + chunk]

    monkeypatch.setattr(_form, "_chunks", small)
    expected = form.parse(body.rstrip(b"\r\n"))
    assert cli.main(["form", "parse", "--json", str(f)]) == 0
    out = capsys.readouterr().out
    assert out == json.dumps([list(p) for p in expected], ensure_ascii=False) + "\n"
    assert cli.main(["form", "parse", "--tsv", str(f)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == len(expected)


def test_form_parse_lines() -> None:
    p = run_proc("form", "parse", "--lines",
                 stdin=b"a=1&b=x+y%21\n\nq=caf%C3%A9\r\nz")
    assert p.returncode == 0, p.stderr
    rows = [json.loads(line) for line in p.stdout.decode().split("\n")[:-1]]
    assert rows == [[["a", "1"], ["b", "x y!"]], [], [["q", "café"]], [["z", ""]]]
    assert p.stdout.endswith(b"\n")
    p = run_proc("form", "parse", "--lines", "-e", "shift_jis", stdin=b"t=%83A\n")
    assert json.loads(p.stdout) == [["t", "ア"]]
    p = run_proc("form", "parse", "--lines", "--tsv", stdin=b"a\n")
    assert p.returncode == 2 and b"--lines" in p.stderr


def test_form_parse_lines_interactive() -> None:
    # Streaming: a line's result comes out before the input ends.
    import select

    proc = subprocess.Popen([sys.executable, "-m", "percent_encoding", "form", "parse",
                             "--lines"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"a=1\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 30)
        assert ready, "no output before end of input"
        assert proc.stdout.readline() == b'[["a", "1"]]\n'
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


# -- no silent loss ------------------------------------------------------------------------


@pytest.mark.parametrize("argv", [["encode", "abc"], ["encode"], ["decode"],
                                  ["form", "parse", "--json"]])
def test_closed_stdout_is_an_error(argv: list[str]) -> None:
    # `percent encode abc >&-` used to exit 0 having written nothing.
    cmd = " ".join([sys.executable, "-m", "percent_encoding", *argv]) + " >&-"
    p = subprocess.run(["sh", "-c", cmd], input=b"a=b c\n", capture_output=True, timeout=60)
    assert p.returncode == 1, p
    assert b"standard output is closed" in p.stderr
    assert b"Traceback" not in p.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("argv", [["encode", "abc"], ["decode"], ["form", "parse", "--tsv"],
                                  ["form", "build", "a=1"]])
def test_write_failure_is_an_error(argv: list[str]) -> None:
    with open("/dev/full", "wb") as full:
        p = subprocess.run([sys.executable, "-m", "percent_encoding", *argv], input=b"a=b\n",
                           stdout=full, stderr=subprocess.PIPE, timeout=60)
    assert p.returncode == 1
    assert p.stderr.count(b"\n") == 1 and b"No space left" in p.stderr, p.stderr


def test_detect_undecodable_argument_reported_as_bytes() -> None:
    # Python hands a non-UTF-8 argument over as a lone surrogate (U+DCFF); the
    # message must name the byte the user typed, not the surrogate.
    p = subprocess.run([os.fsencode(sys.executable), b"-m", b"percent_encoding", b"detect",
                        b"\xff%FF"], capture_output=True, timeout=60)
    assert p.returncode == 2
    assert b"0xFF" in p.stderr and b"surrogate" not in p.stderr.lower()
    assert b"DCFF" not in p.stderr.upper()


# -- decode / encode: bounded chunks inside a line ---------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from percent_encoding import core  # noqa: E402
from percent_encoding.cli import _codec, _stream  # noqa: E402
from percent_encoding.sets import COMPONENT  # noqa: E402

_ALPHABET = [b"%", b"0", b"a", b"A", b"D", b"2", b"+", b"\r", b"\n", b"x", b"\xc3", b"\xa9",
             b"\xe2", b"\x82", b"\xac", b"\xff", b"\xf0", b"%C3", b"%A9", b"%E2%82", b"%0A",
             b"%0d", b"%1B"]


def _pipe(data: bytes, fn, step_factory=None, block_fn=None,  # type: ignore[no-untyped-def]
            chunk: int = 65536, long_line: int = 1 << 30) -> bytes:
    import io

    out = io.BytesIO()

    class Slow(io.BytesIO):
        def read1(self, n: int = -1) -> bytes:
            return super().read1(min(n, chunk))

    _stream.stream_lines(Slow(data), out, fn, chunk_size=chunk, block_fn=block_fn,
                         step_factory=step_factory, long_line=long_line)
    return out.getvalue()


@given(data=st.lists(st.sampled_from(_ALPHABET), max_size=60).map(b"".join),
       chunk=st.integers(1, 9), long_line=st.integers(1, 12), plus=st.booleans(),
       as_text=st.booleans(), raw=st.booleans(), block=st.booleans())
def test_decode_long_lines_in_pieces_byte_identical(data: bytes, chunk: int, long_line: int,
                                                    plus: bool, as_text: bool, raw: bool,
                                                    block: bool) -> None:
    protect = (lambda b: b) if raw else _stream.keep_crlf_encoded

    def fn(line: bytes) -> bytes:
        if as_text:
            return _stream.out_bytes(core.decode_text(protect(line), plus_as_space=plus))
        return core.decode(protect(line), plus_as_space=plus)

    expected = _pipe(data, fn)  # whole lines, as before
    got = _pipe(data, fn, lambda: _codec._decode_step(plus, as_text, protect),
                  fn if block else None, chunk=chunk, long_line=long_line)
    assert got == expected


@given(data=st.lists(st.sampled_from(_ALPHABET), max_size=60).map(b"".join),
       chunk=st.integers(1, 9), long_line=st.integers(1, 12))
def test_encode_long_lines_in_pieces_byte_identical(data: bytes, chunk: int,
                                                    long_line: int) -> None:
    def fn(line: bytes) -> bytes:
        return core.encode(line, COMPONENT).encode("ascii")

    assert _pipe(data, fn, lambda: lambda b, final: fn(b), chunk=chunk,
                   long_line=long_line) == _pipe(data, fn)


# Escapes of lead and trail bytes of the legacy encodings, bytes below 0x30 (where a
# piece may end), and line ends.
_LEGACY_ALPHABET = [b"%82", b"%A0", b"%81", b"%30", b"%8E", b"%8F", b"%A1", b"%FE", b"%FF",
                    b"%80", b"%40", b"%7E", b"%39", b"%20", b"%2F", b"%0A", b"%0D", b"a", b"9",
                    b"%", b"%2", b"+", b" ", b"\n", b"\r\n", b"\x82"]


@settings(deadline=None)  # (an encoding's tables load on first use)
@given(data=st.lists(st.sampled_from(_LEGACY_ALPHABET), max_size=60).map(b"".join),
       chunk=st.integers(1, 9), long_line=st.integers(1, 12), plus=st.booleans(),
       raw=st.booleans(),
       encoding=st.sampled_from(["windows-1252", "shift_jis", "gb18030", "euc-kr", "euc-jp",
                                 "big5", "gbk", "x-user-defined", "koi8-u"]))
def test_legacy_decode_long_lines_in_pieces_byte_identical(
        data: bytes, chunk: int, long_line: int, plus: bool, raw: bool, encoding: str) -> None:
    # A long line decoded in a legacy encoding goes in pieces cut after a byte below 0x30
    # (the decoders' first state): the result is the whole line's, U+FFFD for U+FFFD.
    from percent_encoding._tool import decode_with, resolve_scheme

    scheme = resolve_scheme("form" if plus else "component")

    def fn(line: bytes) -> bytes:
        text = decode_with(scheme, line, encoding)[0]
        if not raw:
            text = text.replace("\r", "%0D").replace("\n", "%0A")
        return _stream.out_bytes(text)

    assert _codec.legacy_cut_safe(encoding)
    got = _pipe(data, fn, lambda: _codec._legacy_decode_step(plus, encoding, raw),
                chunk=chunk, long_line=long_line)
    assert got == _pipe(data, fn)


_STRICT_ALPHABET = [b"%C3", b"%A9", b"%E6", b"%97", b"%A5", b"%F0", b"%9F", b"%98", b"%80",
                    b"%FF", b"%ED", b"%A0", b"%41", b"%0A", b"%0D", b"%", b"%z", b"%2", b"a",
                    b"+", b" ", b"\xc3", b"\xa9", b"\n", b"\r\n"]


@settings(deadline=None)
@given(data=st.lists(st.sampled_from(_STRICT_ALPHABET), max_size=50).map(b"".join),
       chunk=st.integers(1, 9), long_line=st.integers(1, 12), plus=st.booleans(),
       raw=st.booleans(), as_text=st.booleans())
def test_strict_decode_long_lines_in_pieces_same_result_and_error(
        data: bytes, chunk: int, long_line: int, plus: bool, raw: bool, as_text: bool) -> None:
    # decode --strict (and --bytes --strict) of a long line in pieces: the whole line's
    # result, or its error (a bad % before any bad UTF-8, anywhere in the line), with
    # line-wide positions
    from percent_encoding._tool import decode_with, resolve_scheme
    from percent_encoding.cli._term import CLIError

    scheme = resolve_scheme("form" if plus else "component")

    def fn(line: bytes) -> bytes:
        if not as_text:  # cmd_decode's --bytes --strict
            out = core.decode(line, plus_as_space=plus, strict=True)
            return out if raw else out.replace(b"\r", b"%0D").replace(b"\n", b"%0A")
        text = decode_with(scheme, line, "utf-8", strict=True)[0]
        if not raw:
            text = text.replace("\r", "%0D").replace("\n", "%0A")
        return _stream.out_bytes(text)

    def run(**kw: object) -> bytes | str:
        try:
            return _pipe(data, fn, chunk=chunk, **kw)  # type: ignore[arg-type]
        except CLIError as e:
            return str(e)

    got = run(step_factory=lambda: _codec._strict_decode_step(plus, raw, as_text),
              long_line=long_line)
    assert got == run()


def test_legacy_decoders_that_keep_state_stay_whole() -> None:
    # ISO-2022-JP's mode, UTF-16's pairs and replacement's one U+FFFD for the whole
    # input would change if a line were cut
    for encoding in ("iso-2022-jp", "utf-16le", "utf-16be", "replacement", "utf-8"):
        assert not _codec.legacy_cut_safe(encoding)


_TEXT_ALPHABET = ["a", " ", "é", "€", "日", "本", "☃", "\U0001F600", "%", "+", "\r\n", "\n",
                  "ア", "ß", "\x80", "¥", "‾", "\\", "~", "\x0e", "ｱ", "\u2212"]


@given(text=st.lists(st.sampled_from(_TEXT_ALPHABET), max_size=40).map("".join),
       bad=st.one_of(st.none(), st.integers(0, 200)),
       chunk=st.integers(1, 9), long_line=st.integers(1, 12),
       encoding=st.sampled_from(["windows-1252", "shift_jis", "gb18030", "euc-kr",
                                 "iso-2022-jp", "iso-2022-jp"]))
def test_legacy_encode_long_lines_in_pieces_byte_identical(
        text: str, bad: int | None, chunk: int, long_line: int, encoding: str) -> None:
    # A long line in a legacy encoding goes in pieces cut inside UTF-8 characters (for
    # ISO-2022-JP, where its encoder is in the ASCII state: U+00A5 and U+203E switch it to
    # Roman, "\\" and "~" back); the result (or the error, with its line and byte offset)
    # is the whole line's.
    from percent_encoding.cli._term import CLIError

    data = text.encode()
    if bad is not None:  # a byte that is not UTF-8 somewhere
        data = data[:bad] + b"\xff" + data[bad:]

    def fn(line: bytes) -> bytes:
        from percent_encoding._tool import encode_with, resolve_scheme

        return encode_with(resolve_scheme("component"), line, encoding).encode("ascii")

    def run(**kw: object) -> bytes | str:
        try:
            return _pipe(data, fn, chunk=chunk, **kw)  # type: ignore[arg-type]
        except CLIError as e:
            return str(e)

    assert run(step_factory=lambda: _codec._legacy_encode_step("component", False, encoding),
               long_line=long_line) == run()


@needs_proc
@pytest.mark.slow
@pytest.mark.parametrize(("argv", "mb"), [
    (["encode"], 24), (["decode"], 24), (["encode", "-e", "windows-1252"], 6),
    (["encode", "-e", "shift_jis"], 6), (["encode", "-e", "iso-2022-jp"], 6),
    (["decode", "-e", "windows-1252"], 24),
    (["decode", "-e", "shift_jis"], 6), (["decode", "-e", "gb18030"], 6),
    (["decode", "--strict"], 24), (["decode", "--bytes", "--strict"], 24)])
def test_one_long_line_of_multibyte_text_in_bounded_memory(
        tmp_path: Path, argv: list[str], mb: int) -> None:
    # One line of multi-byte text without a newline (the case was 90 MB: UTF-8
    # peaked at 185 MB, windows-1252 at 2.7 GB); scaled here to 24 MB (6 MB for the
    # legacy encodings, whose encoder is slower), the peak must stay flat.
    text = ("café ☃ 日本語 €uro ß " * ((mb << 20) // 32)).encode()
    if argv[0] == "decode":  # (a legacy decode read the whole line: 4-6x it)
        # (cut at a character's end: valid UTF-8 for --strict)
        text = core.encode(text[: (mb << 20) // 3].decode("utf-8", "ignore"), "component").encode()
    f = tmp_path / "line.txt"
    f.write_bytes(text)
    code = ("import os, sys\nsys.stdin = open(sys.argv.pop(1))\n" + _RSS)
    r = subprocess.run([sys.executable, "-c", code, str(f), *argv], capture_output=True,
                       text=True, timeout=300)
    rc, peak = r.stderr.split()[-2:]
    assert rc == "0", r.stderr
    assert int(peak) < 60, (argv, peak)


@needs_proc
@pytest.mark.slow
@pytest.mark.parametrize("argv", [["decode"], ["decode", "--bytes"], ["encode"]])
def test_one_long_line_in_constant_memory(tmp_path: Path, argv: list[str]) -> None:
    # 48 MB without a newline: reading the line whole cost 3-4x (~150-200 MB).
    f = tmp_path / "line.txt"
    f.write_bytes(b"caf%C3%A9+%E2%82%AC%" * ((48 << 20) // 20))
    code = ("import os, sys\nsys.stdin = open(sys.argv.pop(1))\n" + _RSS)
    r = subprocess.run([sys.executable, "-c", code, str(f), *argv], capture_output=True,
                       text=True, timeout=300)
    rc, mb = r.stderr.split()[-2:]
    assert rc == "0", r.stderr
    assert int(mb) < 60


# -- decode: line structure and terminal safety -------------------------------------------


@pytest.mark.parametrize("extra", [[], ["-s", "form"], ["-e", "windows-1252"], ["--strict"],
                                   ["--bytes"], ["-s", "ecmascript-encodeURIComponent"]])
def test_decode_stream_keeps_line_structure(extra: list[str]) -> None:
    # A %0A or %0D would split one log line into two (forged entries).
    p = run_proc("decode", *extra, stdin=b"user=a%0Aadmin%0d=1\r\nnext\n")
    assert p.returncode == 0, p.stderr
    assert p.stdout.count(b"\n") == 2 and p.stdout.split(b"\r\n")[1] == b"next\n"
    assert p.stdout.split(b"\r\n")[0].replace(b"%0d", b"%0D") == b"user=a%0Aadmin%0D=1"
    raw = run_proc("decode", "--raw", *extra, stdin=b"a%0Ab\n")
    assert raw.stdout == b"a\nb\n"


def test_decode_text_argument_decodes_everything() -> None:
    assert run_proc("decode", "a%0Ab").stdout == b"a\nb\n"


def _on_terminal(*argv: str, stdin: bytes = b"") -> bytes:
    pty = pytest.importorskip("pty")
    master, slave = pty.openpty()
    try:
        p = subprocess.run([sys.executable, "-m", "percent_encoding", *argv], input=stdin,
                           stdout=slave, stderr=subprocess.PIPE, timeout=60)
        assert p.returncode == 0, p.stderr
        os.close(slave)
        slave = -1
        out = b""
        while True:
            try:
                c = os.read(master, 4096)
            except OSError:
                break
            if not c:
                break
            out += c
        return out
    finally:
        if slave >= 0:
            os.close(slave)
        os.close(master)


@pytest.mark.parametrize("argv,stdin", [(["decode", "%1B[31mred%7F%C2%9B"], b""),
                                        (["decode"], b"%1B[31mred%7F%C2%9B\n"),
                                        (["decode", "--raw"], b"%1B[31mred%7F%C2%9B\n"),
                                        (["decode", "--bytes", "%1B[31mred%7F"], b"")])
def test_terminal_output_shows_controls_escaped(argv: list[str], stdin: bytes) -> None:
    out = _on_terminal(*argv, stdin=stdin)
    assert b"\x1b" not in out and b"\x7f" not in out and b"\xc2\x9b" not in out
    assert out.startswith(b"%1B[31mred%7F")


def test_pipe_output_is_not_escaped() -> None:
    assert run_proc("decode", "%1Bx").stdout == b"\x1bx\n"


# -- decode --encoding auto on a stream ----------------------------------------------------


def test_auto_detects_once_from_a_sample() -> None:
    lines = b"".join(b"q=caf%%E9&n=%d\n" % i for i in range(6000)) + b"q=%C3%A9\n"
    p = run_proc("decode", "-e", "auto", stdin=lines)
    assert p.returncode == 0
    assert p.stderr.count(b"\n") == 1 and b"charset: windows-1252 (confidence" in p.stderr
    assert b"from the first 65536 bytes" in p.stderr
    out = p.stdout.decode().splitlines()
    assert out[0] == "q=café&n=0" and out[-1] == "q=Ã©"  # one encoding for the whole stream
    per = run_proc("decode", "-e", "auto", "--per-line", stdin=b"q=caf%E9\nq=%C3%A9\n")
    assert per.stdout.decode().splitlines() == ["q=café", "q=é"]


# ISO-2022-JP is 7-bit: its escaped bytes are all ASCII, so "no byte above 0x7F" must not
# end detection early (Encoding Standard §13.2; the form parser already reads it).
JIS = "%1B%24BF%7CK%5C8l%24N%25F%25-%259%25H%1B%28B"  # 日本語のテキスト


@pytest.mark.parametrize("extra", [[], ["--per-line"]])
def test_auto_reads_iso_2022_jp_on_a_stream(extra: list[str]) -> None:
    p = run_proc("decode", "-e", "auto", *extra, stdin=(JIS + "\n" + JIS + "\n").encode())
    assert p.returncode == 0, p.stderr
    assert p.stdout.decode().splitlines() == ["日本語のテキスト"] * 2
    if not extra:  # detected once: the choice is reported
        assert b"charset: ISO-2022-JP (confidence 0.99" in p.stderr


def test_auto_reads_iso_2022_jp_in_an_argument_and_detect_names_it() -> None:
    p = run_proc("decode", "-e", "auto", JIS)
    assert (p.returncode, p.stdout.decode(), p.stderr) == (
        0, "日本語のテキスト\n", b"percent: charset: ISO-2022-JP\n")
    d = run_proc("detect", "--json", JIS)
    assert d.returncode == 0, d.stderr
    assert json.loads(d.stdout)["charset"][0]["encoding"] == "ISO-2022-JP"
    # An ESC that starts no ISO-2022-JP sequence (a terminal escape) is still plain ASCII.
    assert json.loads(run_proc("detect", "--json", "%1B[31m").stdout)["charset"] == []
    assert run_proc("decode", "-e", "auto", "%1B[31m").stderr == b"percent: charset: UTF-8\n"


def test_auto_keeps_a_utf8_line_cut_inside_a_character_utf8() -> None:
    # A log field cut at a byte limit, inside its last character: still UTF-8.
    cut = "%D0%9F%D1%80%D0%B8%D0%B2%D0%B5%D1%82%20%D0%BC%D0%B8%D1"  # "Привет ми" + 1 byte
    p = run_proc("decode", "-e", "auto", cut)
    assert (p.returncode, p.stdout.decode(), p.stderr) == (
        0, "Привет ми\ufffd\n", b"percent: charset: UTF-8\n")
    s = run_proc("decode", "-e", "auto", stdin=(cut + "\n").encode())
    assert s.stdout.decode() == "Привет ми\ufffd\n" and b"charset: UTF-8" in s.stderr
    # A line whose only non-ASCII byte is its last is a legacy byte, not a cut character.
    legacy = run_proc("decode", "-e", "auto", stdin=b"caf%E9\n")
    assert legacy.stdout.decode() == "café\n" and b"windows-1252" in legacy.stderr
