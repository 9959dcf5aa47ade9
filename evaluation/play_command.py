"""Play one game in kaggle-environments (A moves first), show the final board and write the replay."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from agents.position import Position
from agents.registry import AgentSpecError
from evaluation.engine import BoardConfig, Outcome, run_game

NAME = "play"
HELP = "play one game and write its HTML replay"


def add_board_arguments(parser: argparse.ArgumentParser) -> None:
    """--rows/--columns/--inarow/--act-timeout, shared by every command that plays games."""
    parser.add_argument("--rows", type=int, default=6, help="board rows (default 6)")
    parser.add_argument("--columns", type=int, default=7, help="board columns (default 7)")
    parser.add_argument("--inarow", type=int, default=4, help="stones in a row to win (default 4)")
    parser.add_argument("--act-timeout", type=float, default=2.0,
                        help="seconds per move, Kaggle's actTimeout (default 2)")


def board_config(args: argparse.Namespace) -> BoardConfig:
    return BoardConfig(args.rows, args.columns, args.inarow, args.act_timeout)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("first", metavar="A",
                        help="agent moving first: a registry name[:params], kaggle:NAME or a .py file")
    parser.add_argument("second", metavar="B", help="agent moving second")
    add_board_arguments(parser)
    parser.add_argument("--seed", type=int, default=None, help="seed for kaggle's built-in agents' random choices")
    parser.add_argument("--html", type=Path, help="write the Kaggle viewer's HTML replay here")
    parser.add_argument("--json", type=Path, help="write the replay JSON here")


def run(args: argparse.Namespace) -> int:
    try:
        config = board_config(args)
        env = run_game([args.first, args.second], config, args.seed)
    except (AgentSpecError, ValueError) as error:
        print(f"connectx play: {error}", file=sys.stderr)
        return 2
    outcome = Outcome.of(env)
    final_board = env.steps[-1][0].observation.board
    print(Position.from_board(final_board, config.rows, config.columns, config.inarow))
    names = (args.first, args.second)
    if outcome.winner is None:
        print(f"Draw after {len(env.steps) - 1} moves.")
    else:
        how = "" if outcome.cause == "line" else f" ({names[1 - outcome.winner]} ended in {outcome.cause})"
        print(f"{names[outcome.winner]} (player {outcome.winner + 1}) wins{how} after {len(env.steps) - 1} moves.")
    for path, text in ((args.html, lambda: env.render(mode="html")), (args.json, lambda: json.dumps(env.toJSON()))):
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text())
            print(f"wrote {path}")
    return 0
