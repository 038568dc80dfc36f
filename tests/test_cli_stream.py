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
    # 24 MB of tiny fields: reading the body whole and building every pair cost ~50x.
    f = tmp_path / "body.txt"
    f.write_bytes(b"a=b&" * (6 << 20))
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
