"""``percent completion bash|zsh|fish`` and ``percent man``: made from the parser, and they work.

The bash script is sourced in bash and driven as bash drives it (``COMP_WORDS``,
``COMP_CWORD``, then ``_percent``); the fish script is loaded in fish and asked with
``complete -C``; the zsh script is syntax-checked (``zsh -n``) and registered with
``compinit``.  The man page is rendered by groff and man when present (no warning
allowed) and checked for its sections, every subcommand and every option.  The lists to
compare with come from each subcommand's ``--help`` text, not from the generator.
Shells and groff that are not installed skip cleanly.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from percent_encoding import __version__, cli

pytestmark = pytest.mark.one_impl


def _output(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    code = cli.main(list(argv))
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err
    return out


def _help(capsys: pytest.CaptureFixture[str], *path: str) -> str:
    with pytest.raises(SystemExit):
        cli.main([*path, "--help"])
    return capsys.readouterr().out


def _commands() -> list[tuple[str, ...]]:
    """Every subcommand path that takes options: ("encode",), ("form", "parse"), ..."""
    parser = cli.build_parser()
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    paths = []
    for name, p in sub.choices.items():  # type: ignore[union-attr]
        nested = [a for a in p._actions if a.dest == "form_command"]
        if nested:
            paths += [(name, n) for n in nested[0].choices]  # type: ignore[union-attr]
        else:
            paths.append((name,))
    return paths


def _flags(help_text: str) -> set[str]:
    """The option flags a --help lists: the lines '  -s SCHEME, --scheme SCHEME  help'."""
    flags = set()
    for m in re.finditer(r"^  (-\S.*?)(?: {2,}|$)", help_text, re.M):
        flags |= {part.split()[0] for part in m.group(1).split(", ")}
    return flags


@pytest.fixture(scope="module")
def scripts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("completion")
    out = {}
    for shell in ("bash", "zsh", "fish"):
        r = subprocess.run([*_percent(), "completion", shell], capture_output=True,
                           text=True, timeout=60)
        assert r.returncode == 0, r.stderr
        out[shell] = folder / f"percent.{shell}"
        out[shell].write_text(r.stdout, encoding="utf-8")
    return out


def _percent() -> list[str]:
    import sys

    return [sys.executable, "-m", "percent_encoding"]


# --- bash --------------------------------------------------------------------------------


def _bash(script: Path, *cases: list[str]) -> list[list[str]]:
    """COMPREPLY for each command line (its last word is the one under the cursor)."""
    if shutil.which("bash") is None:
        pytest.skip("bash is not installed")
    lines = [f"source {script}"]
    for words in cases:
        quoted = " ".join("'" + w.replace("'", "'\\''") + "'" for w in words)
        lines += [f"COMP_WORDS=({quoted}); COMP_CWORD={len(words) - 1}; _percent",
                  "printf '%s\\n' \"${COMPREPLY[@]}\"; echo '<end>'"]
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", "\n".join(lines)],
                       capture_output=True, text=True, timeout=60, cwd=script.parent)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    blocks = r.stdout.split("<end>\n")[:-1]
    return [sorted(x for x in b.split("\n") if x) for b in blocks]


def test_bash_completes_subcommands_options_and_values(scripts: dict[str, Path]) -> None:
    folder = scripts["bash"].parent
    (folder / "my log.csv").write_text("u\n")
    (folder / "mine.parquet").write_text("")
    got = _bash(
        scripts["bash"],
        ["percent", ""], ["percent", "en"], ["percent", "encode", "--s"],
        ["percent", "decode", "--format", ""], ["percent", "decode", "-e", "shift"],
        ["percent", "form", ""], ["percent", "form", "parse", "my"],
        ["percent", "decode", "-o", "m"], ["percent", "encode", "-s", "form", "--a"],
        ["percent", "encode", "-s", "application/x-www-form"],
        ["percent", "completion", ""], ["percent", "url", "--errors", ""],
        ["percent", "encode", "-s", "path", ""],
    )
    assert got[0] == sorted(["compare", "completion", "decode", "detect", "encode",
                             "encodings", "form", "man", "schemes", "serve", "url"])
    assert got[1] == ["encode", "encodings"]
    assert got[2] == ["--scheme"]
    assert got[3] == ["csv", "parquet"]  # argparse choices
    assert got[4] == ["shift_jis"]  # the encoding names (Encoding Standard §4.2)
    assert got[5] == ["build", "parse"]
    assert got[6] == ["my log.csv"]  # FILE: file names, a space kept inside one word
    assert got[7] == ["mine.parquet", "my log.csv"]  # -o OUT
    assert got[8] == ["--all"]  # "form" was -s's value, not the form subcommand
    assert got[9] == ["application/x-www-form-urlencoded"]  # the scheme registry's names
    assert got[10] == ["bash", "fish", "zsh"]
    assert got[11] == ["null", "strict"]
    assert got[12] == []  # TEXT: free text, nothing to offer


def test_bash_offers_every_option_each_help_lists(capsys: pytest.CaptureFixture[str],
                                                  scripts: dict[str, Path]) -> None:
    paths = [(), *_commands()]
    got = _bash(scripts["bash"], *[["percent", *p, "-"] for p in paths])
    for path, offered in zip(paths, got, strict=True):
        expected = _flags(_help(capsys, *path))
        assert "-h" in expected and "--help" in expected
        assert set(offered) == expected, path


# --- fish and zsh ------------------------------------------------------------------------


def _need(shell: str) -> str:
    exe = shutil.which(shell)
    if exe is None:
        pytest.skip(f"{shell} is not installed")
    return exe


def test_fish_script_parses_and_completes(scripts: dict[str, Path]) -> None:
    fish = _need("fish")
    r = subprocess.run([fish, "--no-config", "-n", str(scripts["fish"])], capture_output=True,
                       text=True, timeout=60)
    assert (r.returncode, r.stderr) == (0, "")

    def ask(line: str) -> list[str]:
        r = subprocess.run([fish, "--no-config", "-c",
                            f"source {scripts['fish']}; complete -C {line!r}"],
                           capture_output=True, text=True, timeout=60,
                           cwd=scripts["fish"].parent)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        return sorted(x.split("\t")[0] for x in r.stdout.splitlines())

    assert "encodings" in ask("percent enc") and "encode" in ask("percent enc")
    assert ask("percent decode --format ") == ["csv", "parquet"]
    assert ask("percent encode --a") == ["--all"]
    assert ask("percent encode -s form --a") == ["--all"]  # -s's value, not a subcommand
    assert ask("percent form ") == ["build", "parse"]
    assert "shift_jis" in ask("percent decode -e ")
    assert ask("percent url --err") == ["--errors"]


def test_zsh_script_parses_and_registers(scripts: dict[str, Path]) -> None:
    zsh = _need("zsh")
    r = subprocess.run([zsh, "-n", str(scripts["zsh"])], capture_output=True, text=True,
                       timeout=60)
    assert (r.returncode, r.stderr) == (0, "")
    probe = (f"autoload -Uz compinit; compinit -u -D; source {scripts['zsh']}; "
             "print -r -- $_comps[percent]; "
             "for f in _percent _percent_encode _percent_form _percent_form_parse "
             "_percent_url; do whence -w $f; done")
    r = subprocess.run([zsh, "-f", "-c", probe], capture_output=True, text=True, timeout=60,
                       cwd=scripts["zsh"].parent)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines[0] == "_percent"  # compdef ran: `percent` completes with _percent
    assert all(ln.endswith(": function") for ln in lines[1:]) and len(lines) == 6
    text = scripts["zsh"].read_text("utf-8")
    assert text.startswith("#compdef percent\n")
    assert "'(--format)--format[input format (default: from the file'\\''s extension)]" \
           ":{parquet,csv}:(parquet csv)'" in text


def test_completion_names_an_unknown_shell(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        cli.main(["completion", "tcsh"])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("percent completion: error: argument SHELL: invalid choice: 'tcsh'")


# --- man -------------------------------------------------------------------------------


def test_man_page_has_every_section_subcommand_and_option(
        capsys: pytest.CaptureFixture[str]) -> None:
    page = _output(capsys, "man")
    lines = page.splitlines()
    assert lines[1] == f'.TH PERCENT 1 "" "percent\\-encoding {__version__}" "User Commands"'
    sections = [ln[4:] for ln in lines if ln.startswith(".SH ")]
    assert sections == ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "EXAMPLES",
                        "EXIT STATUS", "ENVIRONMENT", "SEE ALSO"]
    assert lines[lines.index(".SH NAME") + 1].startswith("percent \\- ")
    subsections = {ln[4:] for ln in lines if ln.startswith(".SS ")}
    assert page.isascii()  # non-ASCII as \[uXXXX], for groff and mandoc alike
    for path in _commands():
        assert "percent " + " ".join(path) in subsections, path
        block = page.split(f".SS percent {' '.join(path)}\n", 1)[1].split("\n.SS ", 1)[0]
        for flag in _flags(_help(capsys, *path)):
            roff = flag.replace("-", "\\-")
            assert f"\\fB{roff}\\fR" in block, (path, flag)
    assert "\\fB\\-\\-version\\fR" in page
    # Every line that roff reads as a request is one of the page's macros: no text line
    # (an example starting with "." or "'") is taken for one.
    requests = {ln.split()[0] for ln in lines if ln.startswith((".", "'"))}
    assert requests <= {'.\\"', ".TH", ".SH", ".SS", ".PP", ".TP", ".RS", ".RE", ".nf", ".fi",
                        ".br"}, requests


def test_man_page_renders_without_warnings(capsys: pytest.CaptureFixture[str],
                                          tmp_path: Path) -> None:
    page = tmp_path / "percent.1"
    page.write_text(_output(capsys, "man"), encoding="ascii")
    groff = shutil.which("groff")
    man = shutil.which("man")
    if groff is None and man is None:
        pytest.skip("neither groff nor man is installed (the page is checked structurally)")
    if groff is not None:
        r = subprocess.run([groff, "-man", "-Tutf8", "-ww", "-z", str(page)],
                           capture_output=True, text=True, timeout=60)
        assert (r.returncode, r.stderr) == (0, "")
    if man is not None:
        r = subprocess.run([man, "-l", str(page)], capture_output=True, text=True,
                           timeout=60, env={"MANWIDTH": "100", "PATH": "/usr/bin:/bin",
                                            "LANG": "C.UTF-8", "MANPAGER": "cat",
                                            "PAGER": "cat"})
        assert r.returncode == 0, r.stderr
        text = re.sub(r".\x08", "", r.stdout)  # overstrike bold
        assert "percent - percent-encode and decode" in text
        assert "percent encode 'a b&c/ü'" in text  # \[u00FC] rendered back
        assert "--encoding LABEL|auto" in text and "EXIT STATUS" in text


def test_completion_and_man_follow_the_parser(capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    # Generated at run time: an option the parser gains is in both at once.
    real = cli.build_parser

    def more() -> object:
        p = real()
        (sub,) = [a for a in p._actions if a.dest == "command"]
        sub.choices["encode"].add_argument(  # type: ignore[index]
            "--brand-new", choices=("x-one", "x-two"), help="a new option")
        return p

    monkeypatch.setattr(cli, "build_parser", more)
    assert "'encode|--brand-new') COMPREPLY=($(compgen -W 'x-one x-two'" in _output(
        capsys, "completion", "bash")
    assert "-l brand-new -x -a 'x-one x-two' -d 'a new option'" in _output(
        capsys, "completion", "fish")
    assert "\\fB\\-\\-brand\\-new\\fR \\fI{x\\-one,x\\-two}\\fR\na new option" in _output(
        capsys, "man")
