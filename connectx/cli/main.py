"""``connectx``: the command line. Each command lives in a module of its own; this reads as the whole program.

A command module has ``NAME``, ``HELP``, ``add_arguments(parser)`` and ``run(args) -> int``; its
docstring is its ``--help`` description. Commands never import each other: what several share
is in ``connectx.cli.options`` (options and input checks) and ``connectx.cli.progress`` (the live progress bar).

Bare ``connectx`` prints the help; ``connectx --version`` prints the installed version.

Every command checks its inputs before any side effect; a bad one (an unreadable option, an
agent that cannot play, a path that cannot be written) is reported as one line on stderr,
``connectx CMD: what is wrong; what to do``, with exit code 2. So is each dependency the installed
package declares but cannot import (``connectx: numpy is not installed: pip install "numpy>=1.26"``),
or installed older than it declares, checked before any command runs.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from types import ModuleType
from typing import NoReturn

from connectx.cli.exit_status import INTERRUPTED

COMMANDS = ("agents", "play", "match", "tournament", "ladder", "replay", "report", "build", "validate", "solve",
            "analyze", "serve")
"""Every command, in the order ``--help`` lists them: each is the module ``connectx.cli.<name>``, imported only when
it runs or the list is shown, so no command waits for every other one's libraries to load."""

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
        sub.set_defaults(run=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    named = next((word for word in words if not word.startswith("-")), None)
    try:
        return _run(argv, words, named)
    except KeyboardInterrupt:
        # Commands that keep partial work say where it is; any other stops with this one line, even
        # while its libraries are still loading.
        print(f"\nconnectx{f' {named}' if named in COMMANDS else ''}: interrupted", file=sys.stderr)
        return INTERRUPTED


def _run(argv: list[str] | None, words: list[str], named: str | None) -> int:
    # Before anything imports a dependency: one missing or too old is a line naming its install, not a traceback.
    from connectx.cli.dependencies import declared_requirements, problem_lines

    problems = problem_lines(declared_requirements())
    for line in problems:
        print(f"connectx: {line}", file=sys.stderr)
    if problems:
        return 2
    # Imported here, inside main's Ctrl-C handler: they load a command's libraries (a fifth of a second).
    from connectx import __version__
    from connectx.agents.registry import AgentSpecError
    from connectx.cli.options import InputError
    from connectx.evaluation.cluster import ClusterError, MissingExtra
    from connectx.evaluation.results_store import RunDirectoryError

    parser = build_parser(named if named in COMMANDS and "--version" not in words else None)
    try:
        args, extras = parser.parse_known_args(argv)
        if extras:
            prog = "connectx" if args.command is None else f"connectx {args.command}"
            raise UsageError(f"{prog}: unrecognized arguments: {' '.join(extras)} (see {prog} --help)")
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    if args.version:
        print(f"connectx {__version__}")
        return 0
    if args.command is None:
        parser.print_help()
        return 0
    try:
        return int(args.run(args))
    except (InputError, AgentSpecError, RunDirectoryError) as error:  # input the command cannot use
        print(f"connectx {args.command}: {error}", file=sys.stderr)
        return 2
    except MissingExtra as error:
        # An optional dependency the command needs is not installed: the message names the install command.
        print(f"connectx {args.command}: {error}", file=sys.stderr)
        return 2
    except ClusterError as error:
        # Not bad input: the cluster is unreachable, mismatched or gone; the message says what to do.
        print(f"connectx {args.command}: {error}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        # The reader went away (`connectx solve < file | head -1`): stop quietly, as Unix tools do.
        _silence_stdout()
        return 1


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
