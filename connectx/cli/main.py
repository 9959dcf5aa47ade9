"""``connectx``: the command line. Each command lives in a module of its own; this reads as the whole program.

A command module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``, and
``NEEDS`` when it imports declared dependencies beyond the command line's own ``NEEDS`` (their
distribution names); its docstring is its ``--help`` description. Every command module imports with
the command line's own dependencies alone, so ``--help`` lists them all wherever one can run.
Commands never import each other: what several share is in ``connectx.cli.options`` (options and
input checks) and ``connectx.cli.progress`` (the live progress bar and the figures of a run of games).

Bare ``connectx`` prints the help; ``connectx --version`` prints the installed version.

Every command checks its inputs before any side effect; a bad one (an unreadable option, an
agent that cannot play, a path that cannot be written) is reported as one line on stderr,
``connectx CMD: what is wrong; what to do``, with exit code 2. So is each dependency the command
needs that the installed package declares but cannot import (``connectx ladder: openskill is not
installed: pip install "openskill>=6.0"``), or installed older than it declares, checked before the
command runs; a package only other commands import is never asked for.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import NoReturn

from connectx.cli.exit_status import INTERRUPTED

COMMANDS = (
    "agents",
    "play",
    "match",
    "tournament",
    "ladder",
    "replay",
    "report",
    "build",
    "validate",
    "solve",
    "analyze",
    "serve",
)
"""Every command, in the order ``--help`` lists them: each is the module ``connectx.cli.<name>``, imported only when
it runs or the list is shown, so no command waits for every other one's libraries to load."""

NEEDS = ("kaggle-environments", "numpy")
"""The declared dependencies the command line imports whatever the command (``--help`` and ``--version`` too): the
games' engine and the statistics, both in every Kaggle image. Checked first: the command modules' imports need them."""


class UsageError(Exception):
    """Arguments argparse cannot read, with the command's name."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line instead of argparse's usage block: the problem, then where the options are listed."""
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def command_module(name: str) -> ModuleType:
    """The module of the command ``name`` (one of ``COMMANDS``)."""
    return importlib.import_module(f"connectx.cli.{name}")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole program's parser; with ``only``, one known command's (all that a run of it needs)."""
    parser = _Parser(
        prog="connectx",
        description="Kaggle ConnectX agents: play, evaluate, watch and submit them.",
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    # Not required: with no command, main prints the help (bare `connectx`) or the version.
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS if only is None else (only,):
        command = command_module(name)
        sub = subparsers.add_parser(command.NAME, help=command.HELP, description=command.__doc__)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run, needs=getattr(command, "NEEDS", ()))
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    named = next((word for word in words if not word.startswith("-")), None)
    prog = f"connectx {named}" if named in COMMANDS else "connectx"
    try:
        return _run(argv, words, named, prog)
    except KeyboardInterrupt:
        # Commands that keep partial work say where it is; any other stops with this one line, even
        # while its libraries are still loading.
        print(f"\n{prog}: interrupted", file=sys.stderr)
        return INTERRUPTED


def _run(argv: list[str] | None, words: list[str], named: str | None, prog: str) -> int:
    # Before anything imports a dependency: one missing or too old is a line naming its install, not a traceback.
    if _unmet(prog, NEEDS):
        return 2
    # Imported here, inside main's Ctrl-C handler: they load a command's libraries (a fifth of a second).
    from connectx import __version__
    from connectx.agents.registry import AgentSpecError
    from connectx.cli.options import InputError
    from connectx.evaluation.cluster import ClusterError, MissingExtra
    from connectx.evaluation.option_words import OptionError, flag_words

    parser = build_parser(named if named in COMMANDS and "--version" not in words else None)
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            where = "connectx" if args.command is None else f"connectx {args.command}"
            raise UsageError(f"{where}: unrecognized arguments: {' '.join(extras)} (see {where} --help)")
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    if args.version:
        print(f"connectx {__version__}")
        return 0
    if args.command is None:
        parser.print_help()
        return 0
    if _unmet(f"connectx {args.command}", args.needs):
        return 2
    try:
        return int(args.run(args))
    except (InputError, AgentSpecError, OptionError) as error:  # input the command cannot use
        print(f"connectx {args.command}: {flag_words(error)}", file=sys.stderr)
        return 2
    except MissingExtra as error:
        # An optional dependency the command needs is not installed: the message names the install command.
        print(f"connectx {args.command}: {error}", file=sys.stderr)
        return 2
    except ClusterError as error:
        # Not bad input: the cluster is unreachable, mismatched or gone; the message says what to do.
        print(f"connectx {args.command}: {flag_words(error)}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`connectx solve < file | head -1`): stop quietly, as Unix tools do.
        _silence_stdout()
        return 1


def _unmet(prog: str, names: tuple[str, ...]) -> bool:
    """Whether a dependency of ``names`` is missing or too old, after one line on stderr for each."""
    from connectx.cli.dependencies import unmet

    problems = unmet(names)
    for line in problems:
        print(f"{prog}: {line}", file=sys.stderr)
    return bool(problems)


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's final flush does not hit the closed pipe again."""
    try:
        descriptor = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # not a real file (tests capture stdout)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, descriptor)
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())
