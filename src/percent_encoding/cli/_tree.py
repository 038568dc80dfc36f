"""The ``percent`` command as data: what :mod:`._completion` and :mod:`._man` are made from.

Strategy: the one argparse parser (:func:`percent_encoding.cli.build_parser`) is walked at
run time into a tree of :class:`Command` (its options, positionals and subcommands, with
their help), so the shell completions and the man page are never a hand-kept copy: a new
option appears in both as soon as the parser has it.  argparse keeps its actions in
``_actions`` and a subcommand's help in ``_choices_actions``, both undocumented but stable
since Python 3.2; they are read here only.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Option:
    """An option: its flags, its help, and the value it takes (``metavar`` None: none)."""

    flags: tuple[str, ...]
    help: str
    metavar: str | None
    #: The words its value can be (argparse ``choices``, or the library's names).
    values: tuple[str, ...] = ()
    #: Whether its value is a file name.
    files: bool = False
    #: Whether it can be given more than once.
    repeat: bool = False


@dataclass(frozen=True)
class Positional:
    """A positional argument; ``nargs`` as argparse has it (None: exactly one)."""

    metavar: str
    help: str
    nargs: str | None
    files: bool = False
    #: The words it can be (the library's names: schemes, encoding labels).
    values: tuple[str, ...] = ()


@dataclass(frozen=True)
class Command:
    """``percent`` or one of its subcommands (``path``: ``()``, ``("form", "parse")``)."""

    path: tuple[str, ...]
    help: str
    description: str
    epilog: str
    usage: str
    options: tuple[Option, ...]
    positionals: tuple[Positional, ...]
    subcommands: tuple[Command, ...]

    @property
    def prog(self) -> str:
        return " ".join(("percent", *self.path))

    def walk(self) -> list[Command]:
        """This command and every subcommand below it, depth first."""
        return [self, *(c for s in self.subcommands for c in s.walk())]

    def value_options(self) -> list[Option]:
        return [o for o in self.options if o.metavar is not None]


# Metavars and argument names whose value is a file.
_FILE_WORDS = frozenset({"FILE", "OUT", "file", "output"})


def walk(parser: argparse.ArgumentParser,
         values: Mapping[str, tuple[str, ...]] | None = None) -> Command:
    """The tree of ``parser``.  ``values`` maps an option's ``dest`` to the words its value
    can be, for options with no argparse ``choices`` (``encoding``: the encoding names)."""
    return _command(parser, (), "", values or {})


def _command(parser: argparse.ArgumentParser, path: tuple[str, ...], help: str,
             values: Mapping[str, tuple[str, ...]]) -> Command:
    options: list[Option] = []
    positionals: list[Positional] = []
    subcommands: list[Command] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            for name, sub in action.choices.items():
                subcommands.append(_command(sub, (*path, name), helps.get(name, ""), values))
        elif action.option_strings:
            options.append(_option(parser, action, values))
        elif action.help is not argparse.SUPPRESS:
            metavar = str(action.metavar or action.dest)
            positionals.append(Positional(
                metavar, _help(parser, action),
                None if action.nargs is None else str(action.nargs),
                metavar in _FILE_WORDS or action.dest in _FILE_WORDS,
                tuple(str(c) for c in action.choices) if action.choices is not None
                else tuple(values.get(action.dest, ()))))
    usage = " ".join(parser.format_usage().split())
    usage = usage.removeprefix("usage: ")
    return Command(path, help, parser.description or help, parser.epilog or "", usage,
                   tuple(options), tuple(positionals), tuple(subcommands))


def _option(parser: argparse.ArgumentParser, action: argparse.Action,
            values: Mapping[str, tuple[str, ...]]) -> Option:
    takes_value = action.nargs != 0
    metavar: str | None = None
    words: tuple[str, ...] = ()
    if takes_value:
        if action.choices is not None:
            words = tuple(str(c) for c in action.choices)
        else:
            words = tuple(values.get(action.dest, ()))
        metavar = str(action.metavar or ("{" + ",".join(words) + "}" if action.choices
                                         else action.dest.upper()))
        if "auto" in metavar.split("|") and "auto" not in words and words:
            words = (*words, "auto")
    files = takes_value and (metavar in _FILE_WORDS or action.dest in _FILE_WORDS)
    return Option(tuple(action.option_strings), _help(parser, action), metavar, words, files,
                  isinstance(action, (argparse._AppendAction, argparse._CountAction)))


def _help(parser: argparse.ArgumentParser, action: argparse.Action) -> str:
    """The help text as ``--help`` shows it (``%%`` and ``%(default)s`` expanded)."""
    text = action.help or ""
    if text is argparse.SUPPRESS:
        return ""
    params = {**vars(action), "prog": parser.prog}
    try:
        text = text % params
    except (KeyError, TypeError, ValueError):
        text = text.replace("%%", "%")
    return " ".join(text.split())
