"""``connectx``: the command line. Each subcommand lives in its own module; this reads as the whole program.

Every command checks its inputs before any side effect; a bad one (an unreadable option, an
agent that cannot play, a path that cannot be written) is reported as one line on stderr,
``connectx CMD: what is wrong; what to do``, with exit code 2.
"""

from __future__ import annotations

import argparse
import sys
from types import ModuleType
from typing import NoReturn

from agents.registry import AgentSpecError
from evaluation import (
    agents_command,
    match_command,
    play_command,
    replay_command,
    report_command,
    solve_command,
    tournament_command,
)
from evaluation.input_checks import InputError
from evaluation.results_store import RunDirectoryError
from submission import build_command, validate_command

COMMANDS: tuple[ModuleType, ...] = (
    agents_command, play_command, match_command, tournament_command, replay_command, report_command,
    build_command, validate_command, solve_command,
)


BAD_INPUT = (InputError, AgentSpecError, RunDirectoryError)
"""What a command raises for input it cannot use; its message says what to do instead."""


class UsageError(Exception):
    """Arguments argparse cannot read, with the command's name."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        """One line instead of argparse's usage block: the problem, then where the options are listed."""
        raise UsageError(f"{self.prog}: {message} (see {self.prog} --help)")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="connectx",
        description="Kaggle ConnectX agents: play, evaluate, watch and submit them.",
    )
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        sub = subparsers.add_parser(command.NAME, help=command.HELP, description=command.__doc__)
        command.add_arguments(sub)
        sub.set_defaults(run=command.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    try:
        args, extras = build_parser().parse_known_args(argv)
        if extras:
            prog = f"connectx {args.command}"
            raise UsageError(f"{prog}: unrecognized arguments: {' '.join(extras)} (see {prog} --help)")
    except UsageError as error:
        print(error, file=sys.stderr)
        return 2
    try:
        return int(args.run(args))
    except BAD_INPUT as error:
        print(f"connectx {args.command}: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
