"""Render a recorded game of a play, match or tournament directory as an HTML page in Kaggle's viewer.

A game saved with its replay (every `connectx play` game, match games with --replays) is shown
from its replay JSON, agent logs included; any other game is rebuilt by stepping its recorded
moves through kaggle-environments, ending with the recorded fault (an INVALID column, an ERROR or
a TIMEOUT) so the viewer shows how it really ended.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from connectx.cli.options import InputError, check_output_file, non_negative_int
from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.option_words import flag_words
from connectx.evaluation.replays import replay_html
from connectx.evaluation.results_store import ResultsStore, RunDirectoryError

NAME = "replay"
HELP = "render a recorded game of a play, match or tournament as an HTML replay"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("directory", type=Path, help="the --out directory of a play, match or tournament")
    parser.add_argument(
        "--game", type=non_negative_int, required=True, help="the game's index (the 'index' field in games.jsonl)"
    )
    parser.add_argument("-o", "--output", type=Path, help="HTML file to write (default: DIR/game-<index>.html)")


def recorded_game(directory: Path, index: int) -> GameRecord:
    """Game ``index`` of the run in ``directory``; InputError says why there is none."""
    try:
        return ResultsStore(directory).record(index)
    except RunDirectoryError as error:
        raise InputError(
            f"{flag_words(error)}; give the --out directory of a play, match or tournament and one of "
            "its recorded --game"
        ) from None


def saved_replay(directory: Path, index: int) -> dict[str, Any] | None:
    """The replay JSON saved with --replays for game ``index``, if there is one; InputError if it is unreadable."""
    path = ResultsStore(directory).replay_path(index)
    if not path.exists():
        return None
    try:
        replay = json.loads(path.read_bytes().decode("utf-8"))
    except (OSError, ValueError) as error:
        raise InputError(f"{path} is not a replay ({error}); delete it to rebuild the game from games.jsonl") from None
    if not isinstance(replay, dict) or not {"configuration", "steps"} <= replay.keys():
        raise InputError(
            f"{path} is not a replay (no configuration and steps); delete it to rebuild the game from games.jsonl"
        )
    return replay


def run(args: argparse.Namespace) -> int:
    record = recorded_game(args.directory, args.game)
    replay = saved_replay(args.directory, args.game)
    output = args.output or args.directory / f"game-{args.game}.html"
    check_output_file(output, "output")
    html = replay_html(record, replay)
    output.parent.mkdir(parents=True, exist_ok=True)
    output.write_text(html, encoding="utf-8")
    print(f"wrote {output}")
    return 0
