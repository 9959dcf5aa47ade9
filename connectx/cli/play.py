"""Play one game in kaggle-environments (A moves first), show the final board and the result, and record it.

The game is played as a match plays each of its games, in a watched process of its own, and is
recorded as a one-game run: DIR/run.json, DIR/games.jsonl and its replay in DIR/replays/, so
`connectx replay DIR --game 0` shows it and anything that reads a match's games reads it too.
--html and --json also write the Kaggle viewer's page and the replay JSON where you say.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import textwrap
from pathlib import Path
from typing import Any

from connectx.agents.agent_spec import HUMAN
from connectx.agents.core.fault_words import error_lines
from connectx.agents.core.position import Position
from connectx.cli.options import (
    INTERRUPTED,
    InputError,
    add_board_arguments,
    add_watchdog_arguments,
    agent_specs,
    board_config,
    check_output_file,
    run_directory,
    watchdog,
)
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game import play_isolated
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.replays import rebuilt_environment, replay_html
from connectx.evaluation.results_store import ResultsStore
from connectx.play.session import default_run_directory
from connectx.play.terminal import play_in_terminal

NAME = "play"
HELP = "play one game, show the result, and write its record and HTML replay"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "first",
        metavar="A",
        help="agent moving first: a registry name[:params], kaggle:NAME, a .py file, or human (you, at this terminal)",
    )
    parser.add_argument("second", metavar="B", help="agent moving second")
    add_board_arguments(parser)
    parser.add_argument(
        "--seed",
        type=int,
        default=None,
        help="game seed: each seat's agent (kaggle's built-ins included) gets a seed derived from it; "
        "the game with seed S is game seed S of a match (default: a random seed, recorded)",
    )
    parser.add_argument("--out", type=Path, help="directory for the game's record (default: out/play/<agents>-<time>)")
    parser.add_argument("--html", type=Path, help="also write the Kaggle viewer's HTML replay here")
    parser.add_argument("--json", type=Path, help="also write the replay JSON here")
    add_watchdog_arguments(parser)


def run(args: argparse.Namespace) -> int:
    config = board_config(args)
    if HUMAN in (args.first, args.second):
        return play_as_person(args, config)
    first, second = agent_specs([args.first, args.second], config)
    seed = args.seed if args.seed is not None else random.randrange(2**31)
    plan = {"kind": "play", "first": first.text, "second": second.text, "config": config.to_json(), "seed": seed}
    outputs = [(path, option) for path, option in ((args.html, "html"), (args.json, "json")) if path is not None]
    for path, option in outputs:
        check_output_file(path, option)
    out, _ = run_directory(NAME, args.out, False, [first, second], plan)
    try:
        record = play_isolated(GameSpec(0, (first, second), config, seed, keep_replay=True), watchdog(args))
    except KeyboardInterrupt:
        print("\nconnectx play: interrupted; nothing was recorded", file=sys.stderr)
        return INTERRUPTED
    store = ResultsStore(out)
    store.open(plan, resume=False)
    store.append(record)
    print(final_position(record))
    print(result_line(record))
    if record.offender is not None:
        print(textwrap.indent(error_lines(record.detail), "    "))
    texts = {"html": lambda: replay_html(record), "json": lambda: json.dumps(replay_of(record))}
    for path, option in outputs:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(texts[option](), encoding="utf-8")
        except OSError as error:
            raise InputError(
                f"--{option} {path} could not be written ({error.strerror}); choose another path"
            ) from None
        print(f"wrote {path}")
    print(f"recorded in {out}/ (connectx replay {out} --game 0 shows it)")
    if not record.scored:
        print(f"connectx play: the game was aborted, not finished: {record.detail}", file=sys.stderr)
        return 1
    return 0


def play_as_person(args: argparse.Namespace, config: BoardConfig) -> int:
    """A person at this terminal against the other agent (or another person, for ``human human``)."""
    seat = 0 if args.first == HUMAN else 1
    other = args.second if seat == 0 else args.first
    return play_in_terminal(
        None if other == HUMAN else other,
        seat,
        config,
        args.out or default_run_directory(),
        args.html,
        args.json,
        seed=args.seed,
    )


def final_position(record: GameRecord) -> Position:
    """The board after every move the record holds."""
    return Position.replayed(record.config, record.moves)


def result_line(record: GameRecord) -> str:
    """Who won and how, after how many moves (a move that faulted counts: it was played and lost the game)."""
    moves = len(record.moves) + (record.offender is not None)
    names = record.agents
    if not record.scored:
        return f"No result: the game was aborted after {moves} moves."
    if record.winner is None:
        return f"Draw after {moves} moves."
    how = "" if record.offender is None else f" ({names[record.offender]} ended in {record.cause})"
    return f"{names[record.winner]} (player {record.winner + 1}) wins{how} after {moves} moves."


def replay_of(record: GameRecord) -> dict[str, Any]:
    """The game's replay JSON: Kaggle's own, or rebuilt from the moves when the watchdog ended the game."""
    if record.replay is not None:
        return record.replay
    return dict(rebuilt_environment(record).toJSON())
