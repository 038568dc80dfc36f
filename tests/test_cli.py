"""The ``percent`` command (docs/cli.md): subcommands, exit codes, streaming, terminal behaviour,
and the examples in docs/cli.md."""

from __future__ import annotations

import io
import json
import os
import re
import select
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from percent_encoding import _tool, cli, schemes
from percent_encoding.cli._term import Progress, Style

pytestmark = pytest.mark.one_impl

ROOT = Path(__file__).resolve().parents[1]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def run_proc(*argv: str, stdin: bytes = b"", env: dict[str, str] | None = None,
             timeout: float = 60) -> subprocess.CompletedProcess[bytes]:
    e = dict(os.environ)
    e.update(env or {})
    return subprocess.run(
        [sys.executable, "-m", "percent_encoding", *argv], input=stdin,
        capture_output=True, timeout=timeout, env=e,
    )


def _no_traceback(err: str) -> None:
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err


# -- encode / decode with TEXT -----------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["a b&c/ü"], "a%20b%26c%2F%C3%BC"),  # default: the component set
        (["--scheme", "path", "a b/c?"], "a%20b/c%3F"),
        (["--scheme", "application/x-www-form-urlencoded", "a b+c"], "a+b%2Bc"),
        (["--scheme", "ecmascript-encodeURIComponent", "a b!'()*"], "a%20b!'()*"),
        (["--scheme", "rfc3986-unreserved", "a~b!"], "a~b%21"),
        (["-s", "whatwg-fragment", "a b`<"], "a%20b%60%3C"),
    ],
)
def test_encode_text(capsys: pytest.CaptureFixture[str], args: list[str], expected: str) -> None:
    code, out, err = run(capsys, "encode", *args)
    assert (code, out, err) == (0, expected + "\n", "")


def test_encode_legacy_encoding(capsys: pytest.CaptureFixture[str]) -> None:
    # URL Standard §1.3 percent-encode after encoding: ア is 0x83 0x41 in Shift_JIS.
    assert run(capsys, "encode", "-s", "path", "-e", "shift_jis", "ア")[:2] == (0, "%83A\n")
    # A registry scheme that is plain "set + optional plus" takes legacy encodings too.
    code, out, _ = run(capsys, "encode", "-s", "application/x-www-form-urlencoded",
                       "-e", "windows-1252", "é €")
    assert (code, out) == (0, "%E9+%80\n")


def test_encode_non_utf8_argument_as_bytes() -> None:
    # A shell argument that is not UTF-8 is percent-encoded byte for byte.
    p = subprocess.run([sys.executable, "-m", "percent_encoding", "encode", b"\xff a"],
                       capture_output=True, timeout=60)
    assert (p.returncode, p.stdout) == (0, b"%FF%20a\n")


def test_encoding_with_own_rules_scheme_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    own = [s for s in schemes.all_schemes() if _tool.plain_profile(s) is None]
    if not own:
        pytest.skip("every registered scheme is plain percent-encoding")
    code, out, err = run(capsys, "encode", "-s", own[0].name, "-e", "shift_jis", "x")
    assert code == 2 and out == ""
    assert "own encoding rules" in err
    _no_traceback(err)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["caf%C3%A9"], "café"),
        (["a+b%2"], "a+b%2"),  # invalid % kept (URL Standard §1.3), + is not a space
        (["--scheme", "application/x-www-form-urlencoded", "a+b%21"], "a b!"),
        (["--encoding", "shift_jis", "%83A"], "ア"),
        (["-e", "windows-1252", "%80"], "€"),
        (["%FF"], "\ufffd"),  # UTF-8 decode without BOM: U+FFFD
    ],
)
def test_decode_text(capsys: pytest.CaptureFixture[str], args: list[str], expected: str) -> None:
    code, out, _ = run(capsys, "decode", *args)
    assert code == 0
    assert out == expected + "\n"


def test_decode_strict_reports_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "decode", "--strict", "100%")
    assert code == 1 and out == ""
    assert "position 3" in err and err.startswith("percent decode: error:")
    _no_traceback(err)
    code, _, err = run(capsys, "decode", "--strict", "%FF")
    assert code == 1 and "0" in err  # invalid UTF-8 fails with its byte offset


def test_decode_bytes(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert cli.main(["decode", "--bytes", "%FF%00a+"]) == 0
    assert capsysbinary.readouterr().out == b"\xff\x00a+"


def test_decode_auto_uses_detect(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "decode", "--encoding", "auto", "caf%C3%A9")
    assert (code, out) == (0, "café\n")
    assert "charset: UTF-8" in err
    # Latin-1-looking bytes: detect.charset picks windows-1252 and the CLI says so.
    code, out, err = run(capsys, "decode", "-e", "auto", "caf%E9")
    assert (code, out, err) == (0, "café\n", "percent: charset: windows-1252\n")


@pytest.mark.parametrize(
    "args",
    [
        ["encode", "--scheme", "no-such-scheme", "x"],
        ["encode", "--encoding", "no-such-label", "x"],
        ["decode", "--encoding", "latin-9000", "x"],
        ["encode", "--encoding", "auto", "x"],
        ["frobnicate"],
        ["encode", "--bogus-flag"],
    ],
)
def test_usage_errors_exit_2_one_line(capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    try:
        code = cli.main(args)
    except SystemExit as e:  # argparse's own errors
        code = int(e.code or 0)
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    _no_traceback(err)


def test_unknown_scheme_suggests(capsys: pytest.CaptureFixture[str]) -> None:
    _, _, err = run(capsys, "encode", "--scheme", "ecmascript-encodeuri", "x")
    assert "ecmascript-encodeURI" in err  # the "did you mean" from the registry


def test_internal_error_is_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(_: Any) -> int:
        raise RuntimeError("kaputt")

    monkeypatch.setattr(cli, "cmd_schemes", boom)
    monkeypatch.delenv("PERCENT_DEBUG", raising=False)
    code, _, err = run(capsys, "schemes")
    assert code == 1 and "internal error: RuntimeError: kaputt" in err
    _no_traceback(err)


def test_all_table(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "encode", "--all", "a b+c")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["scheme", "encoded"]
    rows = {ln.split()[0]: ln.split(None, 1)[1] for ln in lines[1:]}
    assert set(rows) == set(schemes.names())
    assert rows["whatwg-component"] == "a%20b%2Bc"
    assert rows["application/x-www-form-urlencoded"] == "a+b%2Bc"
    code, out, _ = run(capsys, "decode", "--all", "a+b%20")
    rows = {ln.split()[0]: ln.split(None, 1)[1] for ln in out.splitlines()[1:]}
    assert rows["application/x-www-form-urlencoded"] == "a b"
    assert rows["whatwg-component"] == "a+b"


def test_version_and_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["--version"])
    assert e.value.code == 0
    # which kernels, and why (the C extension loaded, or the cause and the fix)
    assert re.match(r"percent \d+\.\d+\.\d+ \((python|c) kernels( \(slow\))?: .+\)$",
                    capsys.readouterr().out)
    for sub in (["encode"], ["decode"], ["form"], ["form", "parse"], ["form", "build"],
                ["compare"], ["schemes"], ["detect"], ["serve"], []):
        with pytest.raises(SystemExit) as e:
            cli.main([*sub, "--help"])
        assert e.value.code == 0
        out = capsys.readouterr().out
        assert "examples:" in out, sub
        assert "percent " in out


# -- streaming ------------------------------------------------------------------------


def _stream(data: bytes, fn: Any, chunk: int = 65536) -> bytes:
    out = io.BytesIO()
    cli.stream_lines(io.BytesIO(data), out, fn, chunk_size=chunk)
    return out.getvalue()


@pytest.mark.parametrize("chunk", [1, 2, 3, 7, 65536])
def test_stream_lines_keeps_line_endings(chunk: int) -> None:
    data = b"a b\r\n\nc/d\nlong " + b"x" * 50 + b"\r\nlast"
    got = _stream(data, lambda line: line.upper().replace(b" ", b"_"), chunk)
    assert got == b"A_B\r\n\nC/D\nLONG_" + b"X" * 50 + b"\r\nLAST"


@pytest.mark.parametrize("chunk", [1, 3, 5, 64, 65536])
def test_stream_blocks_equal_lines(chunk: int) -> None:
    # Decoding whole blocks must equal decoding line by line, even with bad UTF-8 cut by
    # a newline, CRLF, "+" and escapes of newlines.
    from percent_encoding import core

    data = (b"caf%C3%A9+x\r\n%E2%82\n\xe2\x82\n%0A%0D%2\r\n\n\xf0\x9f\x98%80+end"
            b"\n%C3\r\n\xc3")

    def fn(line: bytes) -> bytes:
        return core.decode_text(line, plus_as_space=True).encode("utf-8")

    per_line = _stream(data, fn, chunk)
    out = io.BytesIO()
    n = cli.stream_lines(io.BytesIO(data), out, fn, chunk_size=chunk, block_fn=fn)
    assert out.getvalue() == per_line
    assert n == data.count(b"\n") + 1
    assert per_line.startswith("café x\r\n\ufffd\n\ufffd\n\n\r%2\r\n".encode())


def test_stream_encode_subprocess_bytes_and_crlf() -> None:
    p = run_proc("encode", stdin=b"a b\r\n\xff/\nno newline")
    assert p.returncode == 0, p.stderr
    # Raw bytes are percent-encoded as they are with an encode-set name (the default).
    assert p.stdout == b"a%20b\r\n%FF%2F\nno%20newline"
    assert p.stderr == b""


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["decode"], b"a+b \xef\xbf\xbd\r\nx\n"),
        (["decode", "-s", "application/x-www-form-urlencoded"], b"a b \xef\xbf\xbd\r\nx\n"),
        (["decode", "--bytes"], b"a+b \xff\r\nx\n"),
        (["decode", "-e", "windows-1252"], "a+b ÿ\r\nx\n".encode()),
        (["decode", "-s", "ecmascript-escape"], "a+b ÿ\r\nx\n".encode()),
    ],
)
def test_stream_decode_variants(args: list[str], expected: bytes) -> None:
    p = run_proc(*args, stdin=b"a+b%20%FF\r\nx\n")
    assert (p.returncode, p.stdout, p.stderr) == (0, expected, b"")


def test_stream_decode_error_names_line() -> None:
    p = run_proc("decode", "--strict", stdin=b"ok\nbad%zz\n")
    assert p.returncode == 1
    assert p.stdout == b"ok\n"  # what came before the bad line is already out
    err = p.stderr.decode()
    assert "line 2" in err and "position 3" in err
    _no_traceback(err)


def test_stream_registry_scheme_needs_utf8() -> None:
    own = [s for s in schemes.all_schemes() if _tool.plain_profile(s) is None]
    if not own:
        pytest.skip("no scheme with its own rules")
    p = run_proc("encode", "-s", own[0].name, stdin=b"ok\n\xff\n")
    assert p.returncode == 1 and b"line 2" in p.stderr and b"not UTF-8" in p.stderr


def test_stream_is_interactive() -> None:
    """A line written to the pipe comes back before stdin is closed (output is flushed
    whenever the input pauses), as `tail -f log | percent decode` needs."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "percent_encoding", "decode"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        proc.stdin.write(b"caf%C3%A9\n")
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stdout], [], [], 20)
        assert ready, "no output while stdin is still open"
        assert proc.stdout.readline() == "café\n".encode()
    finally:
        proc.stdin.close()
        proc.wait(timeout=20)
    assert proc.returncode == 0


def test_stream_large_input_in_blocks() -> None:
    lines = b"".join(b"k%%20%d=v%%2F%d\n" % (i, i) for i in range(20000))
    p = run_proc("decode", stdin=lines)
    assert p.returncode == 0
    out = p.stdout.splitlines()
    assert len(out) == 20000 and out[123] == b"k 123=v/123"


def test_broken_pipe_is_quiet() -> None:
    p = subprocess.run(
        f"yes 'a b' | head -c 2000000 | {shlex.quote(sys.executable)} -m percent_encoding "
        "encode | head -n 1",
        shell=True, capture_output=True, timeout=60,
    )
    assert p.stdout == b"a%20b\n"
    assert b"Traceback" not in p.stderr and b"Error" not in p.stderr


# -- terminal behaviour ----------------------------------------------------------------


class _TTY(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_only_on_tty_and_not_with_no_color(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm")
    assert Style(_TTY()).red("x") == "\x1b[31mx\x1b[0m"
    assert Style(io.StringIO()).red("x") == "x"
    monkeypatch.setenv("NO_COLOR", "1")
    assert Style(_TTY()).red("x") == "x"


def test_progress_bar(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(Progress, "DELAY", 0.0)
    monkeypatch.setattr(Progress, "INTERVAL", 0.0)
    p = Progress(total=4 << 20, enabled=True)
    p.update(2 << 20)
    p.finish()
    err = capsys.readouterr().err
    assert " 50.0%" in err and "█" * 15 in err and err.endswith("\r\x1b[2K")
    q = Progress(total=100, enabled=False)
    q.update(100)
    q.finish()
    assert capsys.readouterr().err == ""


@pytest.mark.skipif(not hasattr(os, "openpty"), reason="needs a pseudo-terminal")
def test_progress_bar_on_a_real_terminal(tmp_path: Path) -> None:
    """stderr a terminal, stdout a file: the bar appears on stderr, the output is clean."""
    big = tmp_path / "in.txt"
    big.write_bytes(b"a%20b\n" * 40_000)
    master, slave = os.openpty()
    code = ("import sys, percent_encoding.cli as c, percent_encoding.cli._term as t; "
            "t.Progress.DELAY = 0; t.Progress.INTERVAL = 0; sys.exit(c.main(['decode']))")
    with open(big, "rb") as stdin:
        p = subprocess.run([sys.executable, "-c", code], stdin=stdin, stdout=subprocess.PIPE,
                           stderr=slave, timeout=120)
    os.close(slave)
    err = b""
    while select.select([master], [], [], 0.5)[0]:
        try:
            chunk = os.read(master, 65536)
        except OSError:
            break
        if not chunk:
            break
        err += chunk
    os.close(master)
    assert p.returncode == 0
    assert p.stdout.count(b"a b\n") == 40_000 and b"\x1b" not in p.stdout
    assert b"MiB" in err and b"%" in err and "█".encode() in err
    assert err.endswith(b"\r\x1b[2K")  # the bar is cleared at the end


def test_no_progress_or_colour_when_piped() -> None:
    p = run_proc("encode", "--all", "x y", env={"NO_COLOR": ""})
    assert b"\x1b[" not in p.stdout and p.stderr == b""


# -- form, compare, schemes, detect ------------------------------------------------------


def test_form_parse_formats(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "body.txt"
    f.write_bytes(b"a=1&b=x+y%21&c=tab%09here&&d\n")
    code, out, _ = run(capsys, "form", "parse", "--json", str(f))
    assert code == 0
    assert json.loads(out) == [["a", "1"], ["b", "x y!"], ["c", "tab\there"], ["d", ""]]
    code, out, _ = run(capsys, "form", "parse", "--tsv", str(f))
    assert out.splitlines() == ["a\t1", "b\tx y!", "c\ttab\\there", "d\t"]
    code, out, _ = run(capsys, "form", "parse", str(f))
    assert out.splitlines()[0].split() == ["name", "value"] and "x y!" in out


def test_form_parse_encoding_and_charset_hack(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    f = tmp_path / "sjis.txt"
    f.write_bytes(b"t=%83A")
    assert json.loads(run(capsys, "form", "parse", "--json", "-e", "shift_jis", str(f))[1]) == [
        ["t", "ア"]
    ]
    f.write_bytes(b"_charset_=shift_jis&t=%83A")
    out = run(capsys, "form", "parse", "--json", "--charset-hack", str(f))[1]
    assert json.loads(out)[1] == ["t", "ア"]
    # -e auto: form.parse chooses (here from the _charset_ field) and the CLI says why.
    code, out, err = run(capsys, "form", "parse", "--json", "-e", "auto", str(f))
    assert code == 0 and json.loads(out)[1] == ["t", "ア"]
    assert err.startswith("percent: charset: Shift_JIS (") and "_charset_" in err
    f.write_bytes(b"q=%93%FA%96%7B%8C%EA")  # no hint: detect.charset scores the bytes
    code, out, err = run(capsys, "form", "parse", "--json", "-e", "auto", str(f))
    assert (code, json.loads(out)) == (0, [["q", "日本語"]]) and "Shift_JIS" in err


def test_form_parse_per_field(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    f = tmp_path / "mixed.txt"
    f.write_bytes(b"a=%82%A0&b=%A4%A2&c=x")  # Shift_JIS and EUC-JP "\u3042"
    code, out, err = run(capsys, "form", "parse", "--json", "-e", "auto", "--per-field", str(f))
    assert code == 0
    assert json.loads(out) == [["a", "\u3042", "Shift_JIS"], ["b", "\u3042", "EUC-JP"],
                               ["c", "x", "Shift_JIS"]]
    assert "warning: fields disagree" in err
    assert "per_field" not in err and "--per-field" not in err  # it is on already
    code, out, err = run(capsys, "form", "parse", "--tsv", "-e", "auto", "--per-field", str(f))
    assert out.splitlines()[1] == "b\t\u3042\tEUC-JP"
    code, out, err = run(capsys, "form", "parse", "-e", "auto", "--per-field", str(f))
    assert code == 0 and "charset" in out and "EUC-JP" in out
    # without per-field the disagreement is still reported, with the option that helps
    code, out, err = run(capsys, "form", "parse", "--json", "-e", "auto", str(f))
    assert "warning: fields disagree" in err
    assert "(--per-field decodes each with its own guess)" in err and "per_field=" not in err
    code, _, err = run(capsys, "form", "parse", "--per-field", str(f))
    assert code == 2 and "--encoding auto" in err
    f.write_bytes(b"q=%93%FA%96%7B%8C%EA")
    code, out, err = run(capsys, "form", "parse", "--json", "-e", "auto", "--content-type",
                         'application/x-www-form-urlencoded; Charset="utf-8"', str(f))
    assert code == 0 and json.loads(out) == [["q", "日本語"]]
    assert "charset=UTF-8, but the data do not decode in it" in err
    code, _, err = run(capsys, "form", "parse", "--content-type", "x; charset=utf-8", str(f))
    assert code == 2
    _no_traceback(err)


def test_form_parse_stdin_and_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    p = run_proc("form", "parse", "--json", stdin=b"q=caf%C3%A9+au+lait\n")
    assert json.loads(p.stdout) == [["q", "café au lait"]]
    code, _, err = run(capsys, "form", "parse", "/nonexistent/file")
    assert code == 1 and "cannot read" in err
    _no_traceback(err)


def test_form_build(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "form", "build", "q=a b", "lang=ü", "flag")[1] == "q=a+b&lang=%C3%BC&flag=\n"
    assert run(capsys, "form", "build", "-e", "windows-1252", "q=café")[1] == "q=caf%E9\n"
    assert run(capsys, "form", "build", "k=a=b&c")[1] == "k=a%3Db%26c\n"


def test_compare(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare", "component", "application/x-www-form-urlencoded")
    assert code == 0
    table = out.split("char", 1)[1].splitlines()[1:]
    rows = {ln.split()[0]: ln.split()[1:] for ln in table if len(ln.split()) == 3}
    assert rows["SP"] == ["%20", "+"]
    assert rows["!"] == ["·", "%21"]  # encodeURIComponent-like component set keeps "!"
    assert "+" not in rows and "a" not in rows  # rows where both agree are hidden
    code, out, _ = run(capsys, "compare", "--json", "--all-rows", "path", "whatwg-component")
    data = json.loads(out)
    assert [s["name"] for s in data["schemes"]] == ["path", "whatwg-component"]
    assert len(data["rows"]) == 128
    assert data["rows"][ord("/")]["output"] == [None, "%2F"]
    assert run(capsys, "compare", "nope")[0] == 2
    # a scheme that cannot write a character: "!" with a note, not its message cut short
    code, out, _ = run(capsys, "compare", "rfc2533-string", "component")
    table = out.split("char", 1)[1].splitlines()[1:]
    rows = {ln.split()[0]: ln.split()[1:] for ln in table if len(ln.split()) == 3}
    assert rows['"'] == ["!", "%22"] and rows["U+0000"] == ["!", "%00"]
    assert "er…" not in out and "! rejected" in out


def test_compare_whole_registry_is_compact(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "compare")
    assert code == 0
    table = out.split("\nchar", 1)[1].splitlines()
    n = len(schemes.names())
    assert table[0].split()[-1] == str(n)
    labels = {ln.split()[0]: ln.split()[1:] for ln in table[1:] if not ln.startswith("(")}
    assert "A–Z" in labels and "a–z" in labels and "0–9" in labels  # identical rows merged
    sp = labels["SP"]
    assert len(sp) == n and set(sp) <= {"%", "+", "*", "!", "·"}
    assert sp[schemes.names().index("application/x-www-form-urlencoded")] == "+"
    assert "--wide shows the output" in out


def test_schemes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schemes")
    assert code == 0
    for name in schemes.names():
        assert name in out
    assert "rfc3986-unreserved" in out  # encode sets are listed too
    data = json.loads(run(capsys, "schemes", "--json")[1])
    assert [s["name"] for s in data["schemes"]] == schemes.names()
    assert any(s["name"] == "component" for s in data["encode_sets"])


def test_detect(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "detect", "--json", "https://example.com/?q=a+b%2")
    rep = json.loads(out)
    assert code == 0 and "available" not in rep
    assert set(rep) == {"space_convention", "charset", "findings", "variants", "errors"}
    assert rep["space_convention"]["plus_is_space"] is True
    codes = {f["code"] for f in rep["findings"]}
    assert "trailing-percent" in codes or "invalid-percent" in codes
    code, out, _ = run(capsys, "detect", "a%20b")
    assert code == 0 and "findings:" in out


def test_detect_context(capsys: pytest.CaptureFixture[str]) -> None:
    # In a path "+" is a plus sign and needs no finding; in a query it is ambiguous.
    code, out, _ = run(capsys, "detect", "--json", "--context", "path", "a+b")
    rep = json.loads(out)
    assert code == 0 and rep["space_convention"]["plus_is_space"] is False
    assert rep["findings"] == []
    rep = json.loads(run(capsys, "detect", "--json", "a+b")[1])
    assert [f["code"] for f in rep["findings"]] == ["ambiguous-plus"]
    # A form body: "+" is a space, and "&" / "=" are its own syntax, not raw characters.
    rep = json.loads(run(capsys, "detect", "--json", "--context", "form", "a=b+c&d=e")[1])
    assert rep["space_convention"]["plus_is_space"] is True and rep["findings"] == []
    # ... an empty value is obsolete by the HTML 4.01 form grammar (obs-value)
    rep = json.loads(run(capsys, "detect", "--json", "--context", "form", "a=b+c&d=")[1])
    assert [f["code"] for f in rep["findings"]] == ["obs-value"]
    # ... and a field with no "=" is one no form sends
    rep = json.loads(run(capsys, "detect", "--json", "--context", "form", "a=b+c&d")[1])
    assert [f["code"] for f in rep["findings"]] == ["missing-equals"]


def test_detect_unknown_context_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "detect", "--context", "nowhere", "a%20b")
    assert code == 2 and out == "" and "unknown encode set 'nowhere'" in err
    _no_traceback(err)


def test_detect_argument_that_is_not_utf8(capsys: pytest.CaptureFixture[str]) -> None:
    # An argument that is not UTF-8 reaches Python as a lone surrogate; detect says which
    # byte, in the user's terms (not "lone surrogate"), as a usage error.
    code, out, err = run(capsys, "detect", "--json", "a\udcffb")
    assert (code, out) == (2, "")
    assert "b'a\\xffb' is not valid UTF-8 (byte 0xFF at offset 1)" in err


@pytest.mark.parametrize("cmd", [["encode"], ["decode"], ["form", "build"], ["form", "parse"],
                                 ["detect"]])
def test_argument_with_a_lone_surrogate_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], cmd: list[str]
) -> None:
    # main() called from Python can get a str the OS never makes: a surrogate that
    # stands for no byte (not U+DC80-U+DCFF).  A usage error, not a traceback.
    code, out, err = run(capsys, *cmd, "a\ud800b")
    assert (code, out) == (2, "")
    assert "lone surrogate U+D800 at position 1" in err
    _no_traceback(err)


def test_python_dash_m_and_console_script() -> None:
    p = run_proc("encode", "a b")
    assert p.stdout == b"a%20b\n" and p.returncode == 0
    exe = Path(sys.executable).with_name("percent")
    if exe.exists():
        q = subprocess.run([str(exe), "decode", "a%20b"], capture_output=True, timeout=60)
        assert q.stdout == b"a b\n"


def test_serve_prints_url_and_stops_on_ctrl_c() -> None:
    import signal
    import urllib.request

    proc = subprocess.Popen(
        [sys.executable, "-m", "percent_encoding", "serve", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    try:
        line = proc.stdout.readline().decode()
        m = re.match(r"percent web tool: (http://127\.0\.0\.1:\d+/) ", line)
        assert m, line
        with urllib.request.urlopen(m.group(1) + "api/schemes", timeout=20) as r:
            assert r.status == 200 and json.loads(r.read())["schemes"]
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


# -- docs/cli.md: every `$ percent ...` example prints what the page says ---------------


def _doc_examples() -> list[tuple[str, str]]:
    path = ROOT / "docs" / "cli.md"
    if not path.exists():
        return []
    examples = []
    for block in re.findall(r"```console\n(.*?)```", path.read_text("utf-8"), re.S):
        cmd: str | None = None
        out: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if cmd is not None:
                    examples.append((cmd, "\n".join(out)))
                cmd, out = line[2:], []
            else:
                out.append(line)
        if cmd is not None:
            examples.append((cmd, "\n".join(out)))
    return examples


@pytest.mark.parametrize(("cmd", "expected"), _doc_examples() or [("", "")])
def test_docs_cli_examples(cmd: str, expected: str) -> None:
    if not cmd:
        pytest.skip("docs/cli.md has no console examples")
    if "percent serve" in cmd:
        pytest.skip("serve runs until Ctrl-C")
    env = dict(os.environ, NO_COLOR="1")
    bindir = str(Path(sys.executable).parent)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    p = subprocess.run(cmd, shell=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       timeout=60, env=env, cwd=ROOT)
    got = p.stdout.decode("utf-8").rstrip("\n")
    assert got == expected.rstrip("\n"), cmd


def test_cli_error_is_a_library_error() -> None:
    # Regression (found by fuzzing): CLIError is exported, so it must be catchable as the
    # library's base error, and it keeps its exit status.
    from percent_encoding.errors import PercentEncodingError

    assert issubclass(cli.CLIError, PercentEncodingError)
    e = cli.CLIError("bad option", 2)
    assert e.code == 2 and str(e) == "bad option"
    assert cli.CLIError("bad data").code == 1


@pytest.mark.parametrize("argv", [object(), 5, "encode", b"encode", ["encode", 1], [None]])
def test_main_rejects_argv_that_is_not_a_sequence_of_str(argv: Any) -> None:
    # Regression (found by fuzzing): main(object()) raised a bare TypeError; a str would have
    # been split into one-letter arguments.
    from percent_encoding.errors import PercentEncodingTypeError

    with pytest.raises(PercentEncodingTypeError, match="main"):
        cli.main(argv)


def test_main_accepts_any_iterable_of_str(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(iter(["encode", "a b"])) == 0
    assert capsys.readouterr().out == "a%20b\n"
    assert cli.main(("encode", "--scheme", "path", "a b/")) == 0
    assert capsys.readouterr().out == "a%20b/\n"


# -- what shell users type -------------------------------------------------------------------


@pytest.mark.parametrize(("short", "text", "want"), [
    ("form", "a b+c", "a+b%2Bc"),
    ("urlencoded", "a b", "a+b"),
    ("encodeURIComponent", "a b'", "a%20b'"),
    ("escape", "a b@", "a%20b@"),
])
def test_short_scheme_aliases(capsys: pytest.CaptureFixture[str], short: str, text: str,
                              want: str) -> None:
    assert run(capsys, "encode", "-s", short, text) == (0, want + "\n", "")
    assert run(capsys, "decode", "-s", short, want)[1] == text + "\n"


def test_schemes_lists_every_name_the_registry_accepts(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _err = run(capsys, "schemes")
    assert code == 0
    words = set(re.findall(r"[^\s(),]+", out))
    missing = (set(schemes.names()) | set(schemes.aliases())) - words
    assert not missing, f"not in `percent schemes`: {sorted(missing)}"
    data = json.loads(run(capsys, "schemes", "--json")[1])
    form = next(s for s in data["schemes"] if s["name"] == "application/x-www-form-urlencoded")
    assert {"form", "url-search-params"} <= set(form["aliases"])


@pytest.mark.parametrize(("port", "says"), [
    ("99999", "99999 is out of range: a TCP port is 0-65535"),
    ("-1", "-1 is out of range"),
    ("http", "'http' is not a port number"),
])
def test_bad_port_is_a_usage_error(port: str, says: str) -> None:
    r = run_proc("serve", "--port", port)
    err = r.stderr.decode()
    assert r.returncode == 2 and says in err, err
    _no_traceback(err)
    assert "internal error" not in err


def _run_bytes(*argv: bytes) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable.encode(), b"-m", b"percent_encoding", *argv],
                          capture_output=True, timeout=60, env=env)


@pytest.mark.skipif(os.name == "nt", reason="POSIX argv bytes")
def test_non_utf8_arguments_use_their_original_bytes() -> None:
    r = _run_bytes(b"encode", b"caf\xe9 x")
    assert (r.returncode, r.stdout) == (0, b"caf%E9%20x\n"), r.stderr
    r = _run_bytes(b"decode", b"-e", b"windows-1252", b"%41\xe9")
    assert (r.returncode, r.stdout) == (0, "Aé\n".encode()), r.stderr
    r = _run_bytes(b"decode", b"--bytes", b"%41\xe9")
    assert (r.returncode, r.stdout) == (0, b"A\xe9"), r.stderr
    r = _run_bytes(b"form", b"build", b"q=caf\xe9", b"x=1")
    assert (r.returncode, r.stdout) == (0, b"q=caf%E9&x=1\n"), r.stderr


@pytest.mark.skipif(os.name == "nt", reason="POSIX argv bytes")
@pytest.mark.parametrize("argv", [
    [b"detect", b"q=\xe9"],
    [b"encode", b"-s", b"\xe9", b"x"],
    [b"compare", b"component", b"\xff"],
])
def test_non_utf8_arguments_elsewhere_are_a_clear_usage_error(argv: list[bytes]) -> None:
    r = _run_bytes(*argv)
    err = r.stderr.decode()
    assert r.returncode == 2 and "is not valid UTF-8 (byte 0x" in err, err
    _no_traceback(err)
    assert "surrogate" not in err


@pytest.mark.parametrize(("label", "use"), [("latin-1", "iso-8859-1"), ("cp932", "shift_jis")])
def test_python_codec_names_suggest_the_whatwg_label(capsys: pytest.CaptureFixture[str],
                                                      label: str, use: str) -> None:
    code, _out, err = run(capsys, "encode", "--encoding", label, "x")
    assert code == 2 and f"use {use!r}" in err
    _no_traceback(err)
    assert run(capsys, "encode", "-s", "query", "--encoding", use, "é")[0] == 0


# --- percent url ---------------------------------------------------------------


def test_url_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "url", "https://Bücher.example/a b?q=ü'#x y")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "https://xn--bcher-kva.example/a%20b?q=%C3%BC%27#x%20y"
    assert any("special-query" in ln for ln in lines)
    assert "invalid-URL-unit" in out


def test_url_json_and_base(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "url", "--json", "--base", "http://h.example/a/b", "../c d")
    assert code == 0
    rep = json.loads(out)
    assert rep["href"] == "http://h.example/c%20d"
    path = next(c for c in rep["components"] if c["component"] == "path")
    assert path["encode_set"] == "path" and path["encoded"] == [[" ", "%20"]]
    assert rep["validation_errors"] == [{"name": "invalid-URL-unit", "position": 4}]


def test_url_failure_names_the_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "url", "https://h.example:99999/")
    assert code != 0 and out == ""
    assert "port-out-of-range" in err and "18" in err


def test_schemes_dates_every_historical_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "schemes")
    assert code == 0
    row = next(line for line in out.splitlines() if line.startswith("whatwg-default-2015-06-10"))
    assert "whatwg/url c296e2f" in row and "2015-06-10" in row
    assert "whatwg-2016-default, deprecated" in row
    data = json.loads(run(capsys, "schemes", "--json")[1])
    hist = [s for s in data["encode_sets"] if s["name"].startswith("whatwg-")]
    assert len(hist) == 8
    for s in hist:
        assert re.search(r"whatwg/url [0-9a-f]{7}", s["spec"])
        assert re.search(r"20\d\d-\d\d-\d\d", s["spec"])
    userinfo = next(s for s in hist if s["name"] == "whatwg-userinfo-2015-08-14")
    assert userinfo["deprecated_names"] == ["whatwg-2016-userinfo"]


def test_a_one_shot_encode_imports_only_what_it_needs() -> None:
    # Start-up is most of `percent encode x`: it must not load the encoding tables, the
    # scheme registry, forms, URLs, detection or the web tool (each costs milliseconds),
    # nor build the parsers of the other subcommands.
    code = ("import sys\nfrom percent_encoding.cli import main\nmain(['encode', 'a b'])\n"
            "print(' '.join(sorted(sys.modules)))")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    out, loaded = r.stdout.splitlines()
    assert out == "a%20b"
    mods = set(loaded.split())
    for heavy in ("percent_encoding.encodings", "percent_encoding.schemes",
                  "percent_encoding.form", "percent_encoding.url", "percent_encoding.detect",
                  "percent_encoding.web", "percent_encoding.arrow", "percent_encoding.legacy"):
        assert heavy not in mods, heavy


# --- errors name the subcommand --------------------------------------------------------


@pytest.mark.parametrize(("argv", "prog", "bad"), [
    (["encode", "--bogus", "x"], "percent encode", "--bogus"),
    (["decode", "a", "b"], "percent decode", "b"),
    (["form", "parse", "--nope"], "percent form parse", "--nope"),
    (["url", "--jsn", "http://h/"], "percent url", "--jsn"),
    (["--nope", "encode", "x"], "percent", "--nope"),
])
def test_an_unknown_argument_is_the_subcommands_error(
        capsys: pytest.CaptureFixture[str], argv: list[str], prog: str, bad: str) -> None:
    # As git, cargo and ripgrep do: the error names the command that did not take it.
    with pytest.raises(SystemExit) as e:
        cli.main(argv)
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert err == f"{prog}: error: unrecognized arguments: {bad} (see {prog} --help)\n"


# --- percent url --json: flat keys; url and detect read stdin ------------------------------


def test_url_json_has_the_getters_as_top_level_keys(capsys: pytest.CaptureFixture[str]) -> None:
    # `percent url --json URL | jq .hostname`: the URL class's getters (URL Standard §6.1)
    # are top-level keys, with the values the URL API gives (host keeps the port).
    code, out, _ = run(capsys, "url", "--json", "https://u:p@Bücher.example:8080/a b?q=1#f")
    assert code == 0
    rep = json.loads(out)
    assert {k: rep[k] for k in ("href", "origin", "protocol", "username", "password", "host",
                                "hostname", "port", "pathname", "search", "hash")} == {
        "href": "https://u:p@xn--bcher-kva.example:8080/a%20b?q=1#f",
        "origin": "https://xn--bcher-kva.example:8080", "protocol": "https:",
        "username": "u", "password": "p", "host": "xn--bcher-kva.example:8080",
        "hostname": "xn--bcher-kva.example", "port": "8080", "pathname": "/a%20b",
        "search": "?q=1", "hash": "#f"}
    assert rep["input"] == "https://u:p@Bücher.example:8080/a b?q=1#f"
    # the explanation stays, under its own keys
    assert [c["component"] for c in rep["components"]] == [
        "userinfo", "host", "port", "path", "query", "fragment"]
    assert rep["validation_errors"][0]["name"] == "invalid-credentials"
    # a default port is dropped, as the getter does; an opaque path has no host
    rep = json.loads(run(capsys, "url", "--json", "https://h.example:443/")[1])
    assert (rep["port"], rep["host"]) == ("", "h.example")
    rep = json.loads(run(capsys, "url", "--json", "mailto:a@b")[1])
    assert (rep["hostname"], rep["pathname"], rep["origin"]) == ("", "a@b", "null")


def test_url_reads_one_url_per_line_of_stdin() -> None:
    p = run_proc("url", "--json", "--base", "http://h.example/d/",
                 stdin=b"x y\r\nhttp://[::1\nhttps://B\xc3\xbccher.example/\n")
    lines = [json.loads(line) for line in p.stdout.decode().splitlines()]
    assert [x["input"] for x in lines] == ["x y", "http://[::1", "https://Bücher.example/"]
    assert lines[0]["href"] == "http://h.example/d/x%20y"
    assert lines[1]["error"]["name"] == "IPv6-unclosed" and "href" not in lines[1]
    assert lines[2]["hostname"] == "xn--bcher-kva.example"
    assert p.returncode == 1  # a line that did not parse; the lines after it still did
    text = run_proc("url", stdin=b"http://a/b c\nnope\nhttp://c/\n")
    assert text.returncode == 1
    assert text.stdout.decode().splitlines()[0] == "http://a/b%20c"
    assert "\nhttp://c/\n" in text.stdout.decode()
    assert text.stderr.decode().startswith("percent url: line 2: error: invalid URL 'nope'")
    bad = run_proc("url", stdin=b"http://a/\n\xff\n")
    assert bad.returncode == 1 and b"line 2: not valid UTF-8 (byte 0xFF" in bad.stderr


def test_detect_reads_one_text_per_line_of_stdin() -> None:
    p = run_proc("detect", "--json", "--context", "form", stdin=b"a+b\ncaf%E9\n")
    assert p.returncode == 0, p.stderr
    first, second = (json.loads(line) for line in p.stdout.decode().splitlines())
    assert first["input"] == "a+b" and first["space_convention"]["plus_is_space"] is True
    assert second["input"] == "caf%E9"
    assert second["charset"][0]["encoding"] == "windows-1252"
    assert first == {"input": "a+b", **_tool.detect_report("a+b", "form")}
    text = run_proc("detect", stdin=b"a%2\n")
    assert text.returncode == 0
    assert text.stdout.decode().splitlines()[0] == "a%2"  # each report headed by its line
    assert "trailing-percent" in text.stdout.decode()


# --- percent encodings -----------------------------------------------------------------


def test_encodings_lists_every_label(capsys: pytest.CaptureFixture[str]) -> None:
    from percent_encoding import encodings

    code, out, _ = run(capsys, "encodings")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("encoding ") and len(lines) == 1 + 40  # the Standard has 40
    rows = {ln.split()[0]: ln.split(None, 1)[1].split(", ") for ln in lines[1:]}
    assert list(rows) == list(encodings.names())  # in the Standard's order
    # Encoding Standard §4.2's table: a few labels and what they name
    assert "sjis" in rows["Shift_JIS"] and "latin1" in rows["windows-1252"]
    assert "ascii" in rows["windows-1252"] and "utf8" in rows["UTF-8"]
    data = json.loads(run(capsys, "encodings", "--json")[1])["encodings"]
    assert sum(len(e["labels"]) for e in data) == sum(len(v) for v in rows.values()) > 200
    assert all(encodings.lookup(label).name == e["name"] for e in data for label in e["labels"])
    # LABEL...: the encodings those labels name, once each
    code, out, _ = run(capsys, "encodings", " SJIS ", "ms932", "Latin1")
    assert code == 0 and [ln.split()[0] for ln in out.splitlines()[1:]] == [
        "Shift_JIS", "windows-1252"]


@pytest.mark.parametrize("argv", [
    ["encode", "-e", "bogus", "x"], ["decode", "--encoding", "bogus", "x"],
    ["form", "build", "-e", "bogus", "a=b"], ["encodings", "bogus"],
])
def test_an_unknown_label_points_at_percent_encodings(
        capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, _, err = run(capsys, *argv)
    prog = "percent " + " ".join(argv[:2] if argv[0] == "form" else argv[:1])
    assert code == 2
    assert err == (f"{prog}: error: 'bogus' is not a label in the WHATWG Encoding Standard; "
                   "`percent encodings` lists every label\n")
    assert "names()" not in err  # not a Python function
