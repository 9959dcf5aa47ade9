"""A run's directory: its plan, one JSON line per finished game, replays, and resuming from them.

Every game is appended (and fsynced) the moment it finishes, so an interrupted run (Ctrl-C,
``kill -9``, power loss) loses only the games in flight. A torn last line, the trace of a kill
in the middle of a write, is cut off on the next open, and resuming replays no game already
recorded and counts none twice.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from evaluation.game import GameRecord

PLAN_FILE = "run.json"
GAMES_FILE = "games.jsonl"
REPLAYS_DIR = "replays"


class RunDirectoryError(ValueError):
    """A run directory that cannot be used as asked (results present without --resume, another plan)."""


class ResultsStore:
    """The files of one run under ``directory``."""

    def __init__(self, directory: Path | str) -> None:
        self.directory = Path(directory)

    @property
    def games_path(self) -> Path:
        return self.directory / GAMES_FILE

    @property
    def plan_path(self) -> Path:
        return self.directory / PLAN_FILE

    def replay_path(self, index: int) -> Path:
        return self.directory / REPLAYS_DIR / f"game-{index:05d}.json"

    def open(self, plan: dict[str, Any], resume: bool, may_change: tuple[str, ...] = ()) -> list[GameRecord]:
        """Prepare the directory for ``plan`` and return the games already recorded for it.

        Without ``resume`` the directory must hold no results; with it, the recorded plan must be
        ``plan`` (the same agents, seeds and openings) but for the keys in ``may_change`` (a match's
        number of games: its game ``i`` does not depend on it), so that no recorded game changes meaning.
        """
        self.directory.mkdir(parents=True, exist_ok=True)
        if self.plan_path.exists():
            recorded = json.loads(self.plan_path.read_text())
            if not resume:
                raise RunDirectoryError(f"{self.directory} already holds a run; pass --resume to continue it "
                                        "or choose another --out directory")
            fixed = {key: value for key, value in plan.items() if key not in may_change}
            if {key: value for key, value in recorded.items() if key not in may_change} != fixed:
                raise RunDirectoryError(f"{self.directory} holds a different run ({self.plan_path} differs from "
                                        "this one); use the same arguments to resume, or another --out directory")
        self.plan_path.write_text(json.dumps(plan, indent=2) + "\n")
        return self.load()

    def load(self) -> list[GameRecord]:
        """Every recorded game once, in file order; a torn last line is cut from the file."""
        if not self.games_path.exists():
            return []
        data = self.games_path.read_bytes()
        complete = data[:data.rfind(b"\n") + 1]
        if len(complete) != len(data):
            with open(self.games_path, "r+b") as handle:
                handle.truncate(len(complete))
        records: dict[int, GameRecord] = {}
        for number, line in enumerate(complete.decode().splitlines(), start=1):
            if not line.strip():
                continue
            try:
                record = GameRecord.from_json(json.loads(line))
            except (ValueError, KeyError, TypeError) as error:
                raise RunDirectoryError(f"{self.games_path}:{number} is not a game record ({error}); "
                                        "remove that line to resume") from None
            records.setdefault(record.index, record)
        return list(records.values())

    def append(self, record: GameRecord) -> None:
        """Write ``record`` as one line and force it to disk before returning."""
        line = json.dumps(record.to_json(), separators=(",", ":")) + "\n"
        with open(self.games_path, "a", encoding="utf-8") as handle:
            handle.write(line)
            handle.flush()
            os.fsync(handle.fileno())
        if record.replay is not None:
            path = self.replay_path(record.index)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(json.dumps(record.replay))

    def write_json(self, name: str, data: Any) -> Path:
        path = self.directory / name
        path.write_text(json.dumps(data, indent=2) + "\n")
        return path

    def write_text(self, name: str, text: str) -> Path:
        path = self.directory / name
        path.write_text(text)
        return path
