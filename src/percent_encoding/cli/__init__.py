"""The ``percent`` command: every percent-encoding in the registry, for shells and pipelines.

Strategy: this module parses arguments and prints; it has no encoding logic of its own.
Names become schemes and the work is done by :mod:`percent_encoding._tool` (shared with
the web tool): a registry name, or an encode-set name, which means plain UTF-8
percent-encoding with that set.  ``form`` reads :mod:`percent_encoding.form`, ``detect``
reads :mod:`percent_encoding.detect`; both, and the encoding tables, are imported inside
the subcommands that need them so that start-up stays fast.

Conventions: errors are one line on stderr, named after the subcommand
(``percent encode: error: ...``), and no traceback; exit
status 2 for usage errors (unknown scheme, set or encoding label, a scheme and an
option that do not go together, bad arguments), 1 for data errors (a bad ``%`` with
``--strict``, text an encoding cannot represent, unreadable files).  Without TEXT,
``encode`` and ``decode`` stream stdin line by line in constant memory; output is
flushed whenever the input pauses, so ``tail -f log | percent decode`` is interactive
while a gigabyte file is still written in large blocks; ``url`` and ``detect``
take one argument per line.  Colour and the progress bar
appear only on a terminal (and colour never when ``NO_COLOR`` is set).

Layout, one module per subcommand: ``_codec`` (encode, decode), ``_form``
(form parse, form build), ``_schemes`` (schemes, compare), ``_encodings``,
``_detect``, ``_url``, ``_serve``; ``_columns`` and ``_url_columns`` the
``--column`` modes; ``_completion`` (completion) and ``_man`` (man) write what
``_tree`` reads from the parser.  ``_term`` (errors, colour, tables, progress),
``_stream`` (line streaming) and ``_lines`` (one argument per stdin line) are what
they share, ``_parser`` the argparse pieces.  This module builds the parser and
runs :func:`main`; it looks the subcommands up in its own namespace, so they can be
replaced here.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, cast

from .. import __version__
from ..errors import PercentEncodingError, PercentEncodingTypeError, UnknownEncodingError
from ._codec import cmd_decode, cmd_encode
from ._detect import cmd_detect
from ._form import cmd_form_build, cmd_form_parse
from ._form import enctype_arg as _enctype_arg
from ._parser import (
    EPILOG_COMPARE,
    EPILOG_COMPLETION,
    EPILOG_DECODE,
    EPILOG_DETECT,
    EPILOG_ENCODE,
    EPILOG_ENCODINGS,
    EPILOG_FORM,
    EPILOG_MAIN,
    EPILOG_MAN,
    EPILOG_SCHEMES,
    EPILOG_SERVE,
)
from ._parser import (
    F as _F,
)
from ._parser import (
    Parser as _Parser,
)
from ._parser import (
    SubParser as _SubParser,
)
from ._serve import cmd_serve
from ._stream import stream_lines as stream_lines
from ._term import DEFAULT_SCHEME, CLIError
from ._term import Style as _Style
from ._term import exit_code as _exit_code

if TYPE_CHECKING:
    from ._tree import Command as _Command

__all__ = ["CLIError", "build_parser", "main"]



# The schemes and compare commands load the whole registry (every feature
# module): imported when they run, so other one-shot commands start fast.
def cmd_compare(args: argparse.Namespace) -> int:
    from ._schemes import cmd_compare as run

    return run(args)


def cmd_schemes(args: argparse.Namespace) -> int:
    from ._schemes import cmd_schemes as run

    return run(args)


def _command_tree() -> _Command:
    """The whole parser as data, with the library's names as the values of its options."""
    from .. import schemes, sets
    from ..encodings import lookup, names
    from ._tree import walk

    scheme_names = tuple(dict.fromkeys(
        [s.name for s in schemes.all_schemes()] + list(sets.names())))
    # Each encoding by its name in lower case, which is one of its labels (Encoding
    # Standard §4.2), but "replacement", which no label names.
    labels = tuple(n.lower() for n in names() if n.lower() in lookup(n).labels)
    return walk(build_parser(), {"encoding": labels, "scheme": scheme_names,
                                 "schemes": scheme_names})


def cmd_completion(args: argparse.Namespace) -> int:
    from ._completion import script

    sys.stdout.write(script(args.shell, _command_tree()))
    return 0


def cmd_man(args: argparse.Namespace) -> int:
    from ._man import page

    sys.stdout.write(page(_command_tree(), __version__))
    return 0


def cmd_encodings(args: argparse.Namespace) -> int:
    from ._encodings import cmd_encodings as run  # the encoding tables: loaded on use

    return run(args)


_COMMANDS = frozenset({"encode", "decode", "form", "compare", "schemes", "encodings", "detect",
                       "url", "serve", "completion", "man"})


class _Skipped:
    """Stands in for the subcommand parsers a run does not need (every call a no-op)."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self


def build_parser() -> argparse.ArgumentParser:
    """The argparse parser of the ``percent`` command."""
    return _build_parser(None)


def _build_parser(only: str | None) -> argparse.ArgumentParser:
    # only: the one subcommand to build (main knows it from argv[0]); building the
    # other dozen parsers was a fifth of a one-shot `percent encode x`.
    p = _Parser(
        prog="percent",
        description="Percent-encode and decode in every scheme the library knows.",
        epilog=EPILOG_MAIN,
        formatter_class=_F,
    )
    p.add_argument("--version", action="version", version=_version())
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_SubParser)

    def add(name: str, help: str, epilog: str) -> argparse.ArgumentParser:
        if only is not None and name != only:
            return cast(argparse.ArgumentParser, _Skipped())
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
    d.add_argument("--raw", action="store_true",
                   help="on a stream, decode %%0A and %%0D too (by default they stay encoded, "
                   "so one input line stays one output line)")
    d.add_argument("--per-line", action="store_true",
                   help="with --encoding auto on a stream: detect each line's encoding "
                   "(default: once, from the first 64 KB)")
    d.add_argument("text", nargs="?", metavar="TEXT", help="text to decode (default: stdin); "
                   "with --column, the Parquet or CSV file to read")
    col = d.add_argument_group("columns of a Parquet or CSV file (needs pyarrow)")
    col.add_argument("--column", "-c", action="append", metavar="NAME",
                     help="decode this column of the file TEXT names (repeatable)")
    col.add_argument("--output", "-o", metavar="OUT",
                     help="file to write (required unless the output is CSV: stdout)")
    col.add_argument("--format", choices=("parquet", "csv"),
                     help="input format (default: from the file's extension)")
    col.add_argument("--output-format", choices=("parquet", "csv"),
                     help="output format (default: from OUT's extension, else the input's)")
    col.add_argument("--errors", choices=("replace", "null", "strict"),
                     help="bytes invalid in the encoding: U+FFFD (default), a null row, or "
                     "an error naming the row (--strict also fails on a bad %%)")
    col.add_argument("--batch-size", type=int, default=65536, metavar="ROWS",
                     help="rows per batch; memory is bounded by one batch (default: 65536)")
    col.add_argument("--threads", type=int, metavar="N",
                     help="threads for the column kernel, 1-8 (default: 1)")
    d.set_defaults(func=cmd_decode)

    f = add("form", "parse or build application/x-www-form-urlencoded data", EPILOG_FORM)
    fsub = f.add_subparsers(dest="form_command", metavar="ACTION", parser_class=_SubParser)
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
    fp.add_argument("--lines", action="store_true",
                    help="one query or body per line; one JSON array per line (JSON Lines)")
    fp.add_argument("--content-type", metavar="HEADER",
                    help="with -e auto: the body's Content-Type header; its charset= "
                    "parameter is a hint")
    fp.add_argument("--per-field", action="store_true",
                    help="with -e auto: decode each field with its own guessed charset "
                    "(a third column says which)")
    fp.add_argument("file", nargs="?", metavar="FILE", help="file to read (default: stdin)")
    fp.set_defaults(func=cmd_form_parse)
    fb = fsub.add_parser("build", help="serialize NAME=VALUE pairs",
                         description="Serialize NAME=VALUE pairs as application/x-www-form-"
                         "urlencoded, or as the body an HTML form submission sends "
                         "(--enctype).", epilog=EPILOG_FORM, formatter_class=_F)
    fb.add_argument("--encoding", "-e", metavar="LABEL",
                    help="the form's encoding (any WHATWG label; characters it lacks are "
                    "sent as &#N;, as browsers do)")
    fb.add_argument("--enctype", type=_enctype_arg, metavar="TYPE",
                    help="urlencoded, text/plain or multipart (or the full MIME type): write "
                    "the body an HTML form with this enctype sends (newlines become CRLF, a "
                    "_charset_ field gets the encoding's name); text/plain and multipart "
                    "bodies are written byte for byte, with no newline added")
    fb.add_argument("--isindex", action="store_true",
                    help="HTML before 2016: a first pair named isindex sends its value "
                    "alone (urlencoded only)")
    fb.add_argument("--boundary", metavar="STRING",
                    help="multipart boundary (default: a random one, shown on stderr)")
    fb.add_argument("--headers", action="store_true",
                    help="write the Content-Type header line and a blank line before the "
                    "body (CRLF), as in an HTTP request")
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

    n = add("encodings", "list the WHATWG encoding labels that --encoding takes",
            EPILOG_ENCODINGS)
    n.add_argument("label", nargs="*", metavar="LABEL",
                   help="show only the encodings these labels name")
    n.add_argument("--json", action="store_true", help="as JSON")
    n.set_defaults(func=cmd_encodings)

    t = add("detect", "space convention, charset and problems of a percent-encoded string",
            EPILOG_DETECT)
    t.add_argument("text", metavar="TEXT", nargs="?",
                   help="the text to look at (default: each line of stdin)")
    t.add_argument("--context", default="auto",
                   help="where the text lives: url, query, form, path, fragment, component, "
                   "or an encode-set name (default: auto: url for 'scheme://…', else query)")
    t.add_argument("--json", action="store_true", help="as JSON (JSON Lines on stdin)")
    t.set_defaults(func=cmd_detect)

    u = add("url", "what a browser requests for URL: href, components, encode sets, errors",
            EPILOG_URL)
    u.add_argument("url", metavar="URL", nargs="?",
                   help="the URL (default: each line of stdin; with --column: the Parquet "
                   "or CSV file)")
    u.add_argument("--base", metavar="URL", help="base URL for a relative URL")
    u.add_argument("--json", action="store_true",
                   help="as JSON: the URL's getters as top-level keys (href, hostname, ...), "
                   "then components and validation_errors; JSON Lines on stdin")
    ucol = u.add_argument_group("columns (needs pyarrow)")
    ucol.add_argument("--column", "-c", metavar="NAME",
                      help="parse this column of the file URL names and add its components "
                      "as columns NAME_href, NAME_host, ...")
    ucol.add_argument("--output", "-o", metavar="OUT",
                      help="file to write (required unless the output is CSV: stdout)")
    ucol.add_argument("--format", choices=("parquet", "csv"),
                      help="input format (default: from the file's extension)")
    ucol.add_argument("--output-format", choices=("parquet", "csv"),
                      help="output format (default: from OUT's extension, else the input's)")
    ucol.add_argument("--components", metavar="LIST",
                      help="comma-separated components to add (default: href, protocol, "
                      "username, password, host, hostname, port, pathname, search, hash; "
                      "origin too)")
    ucol.add_argument("--prefix", metavar="TEXT",
                      help="names of the new columns: TEXT + component (default: NAME_)")
    ucol.add_argument("--can-parse", action="store_true",
                      help="also add NAME_ok: whether the row is a URL")
    ucol.add_argument("--errors", choices=("null", "strict"), default="null",
                      help="a row that is not a URL: nulls (default), or stop with its row")
    ucol.add_argument("--batch-size", type=int, default=65536, metavar="ROWS",
                      help="rows per batch; memory is bounded by one batch (default: 65536)")
    u.set_defaults(func=_cmd_url)

    k = add("completion", "print the shell completion script for bash, zsh or fish",
            EPILOG_COMPLETION)
    k.add_argument("shell", choices=("bash", "zsh", "fish"), metavar="SHELL",
                   help="bash, zsh or fish")
    k.set_defaults(func=cmd_completion)

    m = add("man", "print the man page (roff)", EPILOG_MAN)
    m.set_defaults(func=cmd_man)

    v = add("serve", "start the web tool", EPILOG_SERVE)
    v.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1)")
    v.add_argument("--port", "-p", type=_port, default=8000,
                   help="port, 0-65535 (default: 8000; 0: any free port)")
    v.add_argument("--open", action="store_true", help="open the page in a browser")
    v.set_defaults(func=cmd_serve)
    return p


EPILOG_URL = """examples:
  percent url 'https://Bücher.example/a b?q=ü#x'
  percent url --base https://h.example/a/b '../c d'
  percent url --json 'http://[::1]:80/%zz'
  percent url --json 'https://Bücher.example/' | jq -r .hostname   xn--bcher-kva.example
  percent url --json < urls.txt | jq -r .pathname    one JSON object per line
  percent url --column url access.parquet -o parsed.parquet

The WHATWG URL Standard's parser, as browsers run it. A URL that does not
parse exits 1 with the Standard's validation-error name and position.
Without URL, each line of stdin is one URL; a line that does not parse is
reported and the others go on (exit status 1 at the end).
--column adds a column of URLs' components as columns of a Parquet or CSV
file, batch by batch (docs/cli.md)."""


def _cmd_url(args: argparse.Namespace) -> int:
    if args.column is not None:
        from ._url_columns import cmd_url_columns  # imported on use: pyarrow is optional

        return cmd_url_columns(args)
    from ._url import cmd_url  # imported on use: keeps `percent encode` start-up small
    from ._url_columns import check_column_args

    check_column_args(args)
    return cmd_url(args)


def _usage(p: argparse.ArgumentParser) -> int:
    p.print_help(sys.stderr)
    return 2


def _port(text: str) -> int:
    """A TCP port number for ``--port`` (argparse reports the error in one line, exit 2)."""
    try:
        port = int(text, 10)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(
            f"{port} is out of range: a TCP port is 0-65535 (0 picks any free port)"
        )
    return port


def _not_utf8(args: argparse.Namespace) -> str | None:
    """The first argument that is not valid UTF-8 in the locale (Python hands it over
    surrogate-escaped), described; ``None`` when all are.  The TEXT of ``encode`` and
    ``decode`` and the pairs of ``form build`` are exempt: they take the original bytes.
    No argument may hold a surrogate that stands for no byte (main() called from
    Python; the OS never makes one)."""
    exempt = {"text"} if args.command in ("encode", "decode") else (
        {"pairs"} if getattr(args, "form_command", None) == "build" else set())
    for key, value in sorted(vars(args).items()):
        for v in value if isinstance(value, list) else [value]:
            if isinstance(v, str):
                try:
                    raw = os.fsencode(v)
                except UnicodeEncodeError as e:
                    return (f"{key.replace('_', '-')} has a lone surrogate "
                            f"U+{ord(v[e.start]):04X} at position {e.start}: not text, and "
                            "not an undecodable byte")
                if key in exempt:
                    continue
                try:
                    raw.decode("utf-8")
                except UnicodeDecodeError as e:
                    return (f"{key.replace('_', '-')} {raw!r} is not valid UTF-8 (byte "
                            f"0x{raw[e.start]:02X} at offset {e.start}); give it as UTF-8 text "
                            "or percent-encoded")
    return None


def _version() -> str:
    from .._kernels import describe

    return f"percent {__version__} ({describe()})"


def main(argv: Iterable[str] | None = None) -> int:
    """Run the ``percent`` command; returns the exit status.

    ``argv`` is an iterable of ``str`` (``None``: ``sys.argv[1:]``); anything else is a
    programming error and raises :class:`~percent_encoding.errors.PercentEncodingTypeError`.
    """
    items = _argv(argv) if argv is not None else sys.argv[1:]
    # The first word names the subcommand (options come after it); anything else, such
    # as --help or --version first, gets the whole parser.
    parser = _build_parser(items[0] if items and items[0] in _COMMANDS else None)
    args = parser.parse_args(items)
    prog = " ".join(["percent", *(w for w in (getattr(args, "command", None),
                                            getattr(args, "form_command", None)) if w)])
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        bad = _not_utf8(args)
        if bad:
            raise CLIError(bad, 2)
        if sys.stdout is None:  # started with fd 1 closed (`>&-`): nothing could be written
            raise CLIError("standard output is closed; nothing can be written", 1)
        code = int(args.func(args))
        sys.stdout.flush()  # a write that fails here (disk full) is an error, not exit 0
        return code
    except CLIError as e:
        return _fail(prog, str(e), e.code)
    except UnknownEncodingError as e:
        # The library's message points at a Python function; a shell user gets the command
        # (a Python codec name already gets the label to use instead).
        message, sep, _ = str(e).partition(" (see percent_encoding.encodings.names())")
        return _fail(prog, message + ("; `percent encodings` lists every label" if sep else ""),
                     _exit_code(e))
    except PercentEncodingError as e:
        return _fail(prog, str(e), _exit_code(e))
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        return 130
    except BrokenPipeError:
        # The reader went away (e.g. `| head`): stop quietly, as Unix tools do.
        _stdout_to_devnull()
        return 141
    except OSError as e:
        _stdout_to_devnull()  # what could not be written must not fail again at exit
        return _fail(prog, f"cannot write the output: {e.strerror or e}"
                     if e.filename is None else f"{e.strerror or e}", 1)
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


def _stdout_to_devnull() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass


def _fail(prog: str, message: str, code: int) -> int:
    style = _Style(sys.stderr)
    one_line = " ".join(message.split())
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        pass
    print(f"{prog}: {style.red('error:')} {one_line}", file=sys.stderr)
    return code

