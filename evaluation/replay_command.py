"""Render a recorded game of a match or tournament directory as an HTML page in Kaggle's viewer.

A game saved with --replays is shown from its replay JSON, agent logs included; any other game is
rebuilt by stepping its recorded moves through kaggle-environments, ending with the recorded
fault (an INVALID column, an ERROR or a TIMEOUT) so the viewer shows how it really ended.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from evaluation.engine import deadline_exceeded, kaggle_environments, make_environment
from evaluation.game import GameRecord
from evaluation.results_store import ResultsStore, RunDirectoryError

NAME = "replay"
HELP = "render a recorded game of a match or tournament as an HTML replay"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", type=Path, help="the --out directory of a match or tournament")
    parser.add_argument("--game", type=int, required=True, help="the game's index (the 'index' field in games.jsonl)")
    parser.add_argument("-o", "--output", type=Path, help="HTML file to write (default: DIR/game-<index>.html)")


def rebuilt_environment(record: GameRecord) -> Any:
    """A finished Kaggle environment that replays ``record``'s moves and ending."""
    env = make_environment(record.config, list(record.agents))
    for ply, column in enumerate(record.moves):
        env.step([column, None] if ply % 2 == 0 else [None, column])
    if record.offender is not None and not env.done:
        fault: Any = {"INVALID": record.config.columns, "ERROR": RuntimeError(record.detail or "error"),
                      "TIMEOUT": deadline_exceeded()}.get(record.cause)
        if fault is not None:
            env.step([fault, None] if record.offender == 0 else [None, fault])
    return env


def saved_environment(replay: dict[str, Any]) -> Any:
    """The environment of a saved replay JSON (as ``env.toJSON()`` wrote it)."""
    return kaggle_environments().make("connectx", configuration=replay["configuration"], steps=replay["steps"],
                                      info=replay.get("info", {}))


def replay_html(directory: Path, index: int) -> str:
    """The Kaggle viewer's HTML for game ``index`` of the run in ``directory``."""
    store = ResultsStore(directory)
    records = {record.index: record for record in store.load()}
    if index not in records:
        known = f"{min(records)}..{max(records)}" if records else "none recorded yet"
        raise KeyError(f"no game {index} in {store.games_path} (games: {known})")
    saved = store.replay_path(index)
    env = saved_environment(json.loads(saved.read_text())) if saved.exists() else rebuilt_environment(records[index])
    return env.render(mode="html")


def run(args: argparse.Namespace) -> int:
    if not (args.directory / "games.jsonl").exists():
        print(f"connectx replay: {args.directory} has no games.jsonl; give the --out directory of a match "
              "or tournament", file=sys.stderr)
        return 2
    try:
        html = replay_html(args.directory, args.game)
    except (KeyError, RunDirectoryError) as error:
        print(f"connectx replay: {error.args[0]}", file=sys.stderr)
        return 2
    output = args.output or args.directory / f"game-{args.game}.html"
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(html)
    print(f"wrote {output}")
    return 0
