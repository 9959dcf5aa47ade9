"""``connectx``: the command line. Each subcommand lives in its own module; this reads as the whole program."""

from __future__ import annotations

import argparse
import sys
from types import ModuleType

from evaluation import (
    agents_command,
    match_command,
    play_command,
    replay_command,
    report_command,
    solve_command,
    tournament_command,
)
from submission import build_command, validate_command

COMMANDS: tuple[ModuleType, ...] = (
    agents_command, play_command, match_command, tournament_command, replay_command, report_command,
    build_command, validate_command, solve_command,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
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
    args = build_parser().parse_args(argv)
    return int(args.run(args))


if __name__ == "__main__":
    sys.exit(main())
