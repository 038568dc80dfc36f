"""The argparse pieces of the ``percent`` command: a parser class with one-line
usage errors (exit status 2) and the examples each subcommand's ``--help``
ends with.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import NoReturn


class Parser(argparse.ArgumentParser):
    """argparse with one-line usage errors (exit status 2)."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


class SubParser(Parser):
    """A subcommand's parser: an argument it does not know is its error, named after it.

    argparse hands what a subparser leaves over back to the top parser, which then
    says ``percent: error: unrecognized arguments``; this one says
    ``percent encode: error: ...`` itself.
    """

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        ns, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return ns, extras


F = argparse.RawDescriptionHelpFormatter

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
  percent encodings                                the --encoding labels
  percent completion bash; percent man             shell completions, the man page

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
  percent decode -c url log.parquet -o out.parquet   decode a column (needs pyarrow)
  percent decode -c q -s form log.csv > out.csv      CSV in, CSV on stdout

Invalid %-sequences are kept unless --strict; invalid UTF-8 becomes U+FFFD.  On a stream,
%0A and %0D stay encoded (one line in, one line out) unless --raw; --encoding auto detects
once from the first 64 KB (--per-line: each line).  On a terminal, controls show as %XX.
--column decodes whole columns of a Parquet or CSV file batch by batch (docs/cli.md).
"""

EPILOG_FORM = """\
examples:
  echo 'a=1&b=x+y%21' | percent form parse                table
  percent form parse --json body.txt                      [["a", "1"], ["b", "x y!"]]
  percent form parse --tsv --encoding shift_jis body.txt
  percent form parse --charset-hack body.txt              _charset_ field picks the encoding
  cut -d'?' -f2 urls.txt | percent form parse --lines     one JSON array per line
  percent form parse -e auto --per-field body.txt         each field its own charset
  percent form build q='a b' lang=ü                       q=a+b&lang=%C3%BC
  percent form build --encoding windows-1252 q=café       q=caf%E9
  percent form build --enctype text/plain -e shift_jis t=€  t=&#8364; CRLF
  percent form build --enctype multipart --headers f=v    Content-Type line, body
  percent form build --isindex isindex='a b' c=d          a+b&c=d

With --enctype, --isindex, --boundary or --headers, build writes what an HTML form
submission sends; a multipart body's random boundary is shown on stderr as the
Content-Type header line (or on stdout before the body with --headers).
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

EPILOG_ENCODINGS = """\
examples:
  percent encodings                       every encoding, each with its labels
  percent encodings sjis latin1           Shift_JIS, windows-1252: what these labels name
  percent encodings --json | jq -r '.encodings[].labels[]'

The WHATWG Encoding Standard's labels (https://encoding.spec.whatwg.org/#names-and-labels):
any of an encoding's labels names it, in any case.  decode and form parse also take auto.
"""

EPILOG_DETECT = """\
examples:
  percent detect 'https://example.com/?q=a+b%2'
  percent detect --context path '/a%2fb%20c'
  percent detect --context form 'q=caf%E9+au+lait&x=1'
  percent detect --json 'caf%E9'
  cut -d'?' -f2 urls.txt | percent detect --json     one JSON object per line

Without TEXT, each line of stdin is one text (its report headed by the line).
"""

EPILOG_COMPLETION = """\
examples:
  percent completion bash > ~/.local/share/bash-completion/completions/percent
  percent completion zsh > ~/.zfunc/_percent        (~/.zfunc on $fpath, before compinit)
  percent completion fish > ~/.config/fish/completions/percent.fish
  eval "$(percent completion bash)"                 for this shell only

The script is made from this command's own parser, so it completes every subcommand and
option of this version: regenerate it after an upgrade.
"""

EPILOG_MAN = """\
examples:
  percent man | man -l -                            read it
  percent man > ~/.local/share/man/man1/percent.1   install it for `man percent`
"""

EPILOG_SERVE = """\
examples:
  percent serve                    http://127.0.0.1:8000/
  percent serve --port 0 --open    any free port, open a browser
  ./dev serve                      set up the project, then serve

The server binds to 127.0.0.1 by default; stop it with Ctrl-C.
"""
