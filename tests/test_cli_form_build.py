"""``percent form build --enctype/--isindex/--boundary/--headers``: the body an HTML form
submission sends (HTML §4.10.22), byte for byte equal to ``form.html_form_body``."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from percent_encoding import cli, form

pytestmark = pytest.mark.one_impl

ENTRIES = [("_charset_", ""), ('a "q"', "ア € 😀\nx"), ("n", "1&2=3")]
ARGS = [f"{n}={v}" for n, v in ENTRIES]


def run_bytes(*argv: str) -> subprocess.CompletedProcess[bytes]:
    # A real process: stdout is a binary pipe, as in a shell.
    return subprocess.run([sys.executable, "-m", "percent_encoding", *argv],
                          capture_output=True, timeout=60, env=dict(os.environ))


@pytest.mark.parametrize("encoding", ["utf-8", "shift_jis"])
@pytest.mark.parametrize(("arg", "enctype"), [
    ("text/plain", "text/plain"),
    ("TEXT/PLAIN", "text/plain"),
    ("multipart", "multipart/form-data"),
    ("multipart/form-data", "multipart/form-data"),
])
def test_body_is_html_form_body(encoding: str, arg: str, enctype: str) -> None:
    extra = ["--boundary", "b0und"] if enctype.startswith("multipart") else []
    p = run_bytes("form", "build", "--enctype", arg, "-e", encoding, *extra, *ARGS)
    assert p.returncode == 0, p.stderr
    expected = form.html_form_body(ENTRIES, encoding=encoding, enctype=enctype,
                                   boundary="b0und" if extra else None)
    assert p.stdout == expected
    assert p.stderr == b""
    if encoding == "shift_jis":
        # Shift_JIS has ア but no € or 😀: browsers send &#N; for them.
        assert b"\x83A &#8364; &#128512;\r\nx" in p.stdout
        assert b"_charset_=Shift_JIS\r\n" in p.stdout or b"\r\n\r\nShift_JIS\r\n" in p.stdout


@pytest.mark.parametrize("arg", ["urlencoded", "application/x-www-form-urlencoded"])
@pytest.mark.parametrize("encoding", ["utf-8", "shift_jis"])
def test_urlencoded_is_one_line(arg: str, encoding: str) -> None:
    p = run_bytes("form", "build", "--enctype", arg, "-e", encoding, *ARGS)
    body = form.html_form_body(ENTRIES, encoding=encoding)
    assert p.returncode == 0 and p.stdout == body + b"\n"
    if encoding == "shift_jis":
        assert b"=%83A+%26%238364%3B+%26%23128512%3B%0D%0Ax&" in p.stdout


def test_multipart_default_boundary_is_shown_on_stderr() -> None:
    p = run_bytes("form", "build", "--enctype", "multipart", "a=1")
    assert p.returncode == 0
    m = re.fullmatch(rb"percent: Content-Type: multipart/form-data; boundary=(\S+)\n", p.stderr)
    assert m is not None, p.stderr
    boundary = m.group(1).decode()
    assert p.stdout == form.html_form_body([("a", "1")], enctype="multipart/form-data",
                                           boundary=boundary)
    # A fresh one each time.
    assert run_bytes("form", "build", "--enctype", "multipart", "a=1").stderr != p.stderr


def test_headers_precede_the_body(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    assert cli.main(["form", "build", "--enctype", "multipart", "--boundary", "XyZ",
                     "--headers", "f=v"]) == 0
    out, err = capsysbinary.readouterr()
    assert err == b""
    assert out == (b"Content-Type: multipart/form-data; boundary=XyZ\r\n\r\n"
                   + form.html_form_body([("f", "v")], enctype="multipart/form-data",
                                         boundary="XyZ"))
    assert cli.main(["form", "build", "--enctype", "text/plain", "--headers", "f=v"]) == 0
    assert capsysbinary.readouterr()[0] == b"Content-Type: text/plain\r\n\r\nf=v\r\n"
    # An HTTP message: no newline after a urlencoded body either, and the random
    # boundary is in the header, not on stderr.
    assert cli.main(["form", "build", "--enctype", "urlencoded", "--headers", "f=v w"]) == 0
    assert capsysbinary.readouterr() == (
        b"Content-Type: application/x-www-form-urlencoded\r\n\r\nf=v+w", b"")
    assert cli.main(["form", "build", "--enctype", "multipart", "--headers", "f=v"]) == 0
    out, err = capsysbinary.readouterr()
    head, _, body = out.partition(b"\r\n\r\n")
    boundary = head.removeprefix(b"Content-Type: multipart/form-data; boundary=").decode()
    assert err == b"" and body == form.html_form_body(
        [("f", "v")], enctype="multipart/form-data", boundary=boundary)


def test_isindex(capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    args = ["isindex=ア b", "c=d"]
    assert cli.main(["form", "build", "--isindex", "-e", "shift_jis", *args]) == 0
    out = capsysbinary.readouterr()[0]
    assert out == form.html_form_body([("isindex", "ア b"), ("c", "d")], encoding="shift_jis",
                                      isindex=True) + b"\n"
    assert out == b"%83A+b&c=d\n"
    # Not first: an ordinary field.
    assert cli.main(["form", "build", "--isindex", "c=d", "isindex=x"]) == 0
    assert capsysbinary.readouterr()[0] == b"c=d&isindex=x\n"


def test_without_enctype_the_url_serializer_as_before(
        capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    # No HTML steps: no CRLF normalization, _charset_ left as given.
    assert cli.main(["form", "build", "_charset_=", "t=1\n2"]) == 0
    assert capsysbinary.readouterr()[0] == b"_charset_=&t=1%0A2\n"


def test_non_utf8_argument_is_a_usage_error() -> None:
    # Without --enctype such bytes are percent-encoded as they are; a form's entries
    # are text, so with it they are refused, and shown as the bytes they were.
    p = subprocess.run([sys.executable, "-m", "percent_encoding", "form", "build",
                        "--enctype", "text/plain", os.fsdecode(b"a=\xff")],
                       capture_output=True, timeout=60)
    assert p.returncode == 2 and p.stdout == b""
    assert b"b'a=\\xff' is not valid UTF-8" in p.stderr


@pytest.mark.parametrize(("argv", "message"), [
    (["--enctype", "form-data"], "'form-data' is not a form enctype"),
    (["--enctype", ""], "is not a form enctype"),
    (["--boundary", "x"], "--boundary needs --enctype multipart"),
    (["--enctype", "text/plain", "--isindex"], "--isindex applies to the urlencoded"),
    (["--enctype", "multipart", "--boundary", "bad boundary "], "RFC 2046"),
    (["--enctype", "multipart", "--boundary", "x" * 71], "RFC 2046"),
    (["--enctype", "text/plain", "-e", "nope"], "nope"),
])
def test_usage_errors(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    # argparse's errors exit; the command's own return the status.
    try:
        code: object = cli.main(["form", "build", *argv, "a=1"])
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
