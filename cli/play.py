"""Play one game in kaggle-environments (A moves first), show the final board and write the replay."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from agents.position import Position
from evaluation.engine import BoardConfig, Outcome, run_game
from evaluation.input_checks import (
    InputError,
    agent_specs,
    check_output_file,
    positive_int,
    positive_seconds,
)

NAME = "play"
HELP = "play one game and write its HTML replay"


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """--rows/--columns/--inarow/--act-timeout, shared by every command that plays games."""
    parser.add_argument("--rows", type=positive_int, default=6, help="board rows (default 6)")
    parser.add_argument("--columns", type=positive_int, default=7, help="board columns (default 7)")
    parser.add_argument("--inarow", type=positive_int, default=4, help="stones in a row to win (default 4)")
    parser.add_argument("--act-timeout", type=positive_seconds, default=2.0,
                        help="seconds per move, Kaggle's actTimeout (default 2)")


def board_config(args: argparse.Namespace) -> BoardConfig:
    """The board the options describe; InputError for an impossible one."""
    try:
        return BoardConfig(args.rows, args.columns, args.inarow, args.act_timeout)
    except ValueError as error:
        raise InputError(f"{error}; check --rows, --columns, --inarow and --act-timeout") from None


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", metavar="A",
                        help="agent moving first: a registry name[:params], kaggle:NAME or a .py file")
    parser.add_argument("second", metavar="B", help="agent moving second")
    add_board_arguments(parser)
    parser.add_argument("--seed", type=int, default=None,
                        help="game seed: each seat's agent (kaggle's built-ins included) gets a seed derived from it")
    parser.add_argument("--html", type=Path, help="write the Kaggle viewer's HTML replay here")
    parser.add_argument("--json", type=Path, help="write the replay JSON here")


def run(args: argparse.Namespace) -> int:
    config = board_config(args)
    first, second = agent_specs([args.first, args.second], config)
    outputs = [(path, option) for path, option in ((args.html, "--html"), (args.json, "--json")) if path is not None]
    for path, option in outputs:
        check_output_file(path, option)
    env = run_game([first, second], config, args.seed)
    outcome = Outcome.of(env)
    final_board = env.steps[-1][0].observation.board
    print(Position.from_board(final_board, config.rows, config.columns, config.inarow))
    names = (first.text, second.text)
    if outcome.winner is None:
        print(f"Draw after {len(env.steps) - 1} moves.")
    else:
        how = "" if outcome.cause == "line" else f" ({names[1 - outcome.winner]} ended in {outcome.cause})"
        print(f"{names[outcome.winner]} (player {outcome.winner + 1}) wins{how} after {len(env.steps) - 1} moves.")
    texts = {"--html": lambda: env.render(mode="html"), "--json": lambda: json.dumps(env.toJSON())}
    for path, option in outputs:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(texts[option](), encoding="utf-8")
        except OSError as error:
            raise InputError(f"{option} {path} could not be written ({error.strerror}); choose another path") from None
        print(f"wrote {path}")
    return 0
