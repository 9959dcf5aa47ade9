"""A run's directory: its plan, one JSON line per finished game, replays, and resuming from them.

Every game is appended (and fsynced) the moment it finishes, so an interrupted run (Ctrl-C,
``kill -9``, power loss) loses only the games in flight. A torn last line, the trace of a kill
in the middle of a write, is ignored when reading and cut off on the next open, and resuming
replays no game already recorded and counts none twice. ``check`` tells whether a directory can
take a run without writing anything, so a command can refuse bad input before any side effect.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.option_words import OptionError

PLAN_FILE = "run.json"
GAMES_FILE = "games.jsonl"
REPLAYS_DIR = "replays"


class RunDirectoryError(OptionError):
    """A run directory that cannot be used as asked (a run there and no ``resume``, another plan, other code)."""


def check_same_code(recorded: Iterable[GameRecord], code: str, allow_change: bool = False) -> None:
    """RunDirectoryError when a game of ``recorded`` was played by other code than ``code`` (a code digest,
    ``provenance.code_digest``), unless ``allow_change``: a run's games should come from one version of the
    agents, or its statistics mix two. Games recorded before their code was kept are not held against it."""
    if allow_change:
        return
    others = Counter(r.provenance.code for r in recorded if r.provenance is not None and r.provenance.code != code)
    if others:
        found = ", ".join(f"{digest} ({games} games)" for digest, games in others.most_common())
        raise RunDirectoryError(
            "the games recorded here were played by other code ({found}) than this run's ({code}); play into "
            "another {out} directory, or pass {allow_code_change} to mix them",
            found=found,
            code=code,
        )


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

    def check(self, plan: dict[str, Any], resume: bool, may_change: tuple[str, ...] = ()) -> list[GameRecord]:
        """The games already recorded for ``plan``, or RunDirectoryError if the directory cannot hold it.

        Without ``resume`` the directory must hold no run; with it, the recorded plan must be
        ``plan`` (the same agents, seeds and openings) but for the keys in ``may_change`` (a match's
        number of games: its game ``i`` does not depend on it), so that no recorded game changes
        meaning. Reads only: nothing is created or written.
        """
        if not self.directory.exists():
            return []
        if not self.directory.is_dir():
            raise RunDirectoryError(
                "{path} is a file, not a run directory; choose another {out} directory", path=self.directory
            )
        if self.plan_path.exists():
            recorded = self._recorded_plan()
            if not resume:
                raise RunDirectoryError(
                    "{path} already holds a run; pass {resume} to continue it or choose another {out} directory",
                    path=self.directory,
                )
            fixed = {key: value for key, value in plan.items() if key not in may_change}
            if {key: value for key, value in recorded.items() if key not in may_change} != fixed:
                raise RunDirectoryError(
                    "{path} holds a different run ({plan} differs from this one); use the same plan to resume, "
                    "or another {out} directory",
                    path=self.directory,
                    plan=self.plan_path,
                )
        elif self.games_path.exists():
            raise RunDirectoryError(
                "{path} holds {games} but no {plan}, so its games belong to no known run; choose another {out} "
                "directory",
                path=self.directory,
                games=GAMES_FILE,
                plan=PLAN_FILE,
            )
        return self.load()

    def open(self, plan: dict[str, Any], resume: bool, may_change: tuple[str, ...] = ()) -> list[GameRecord]:
        """``check``, then ``start``: the games already recorded for ``plan``, the directory ready for more."""
        records = self.check(plan, resume, may_change)
        self.start(plan)
        return records

    def start(self, plan: dict[str, Any]) -> None:
        """Prepare the directory, already ``check``-ed, for ``plan``: the plan written, a torn last line cut."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self._cut_torn_line()
        self.plan_path.write_text(json.dumps(plan, indent=2) + "\n")

    def _recorded_plan(self) -> dict[str, Any]:
        try:
            recorded = json.loads(self.plan_path.read_bytes().decode("utf-8"))
        except (OSError, ValueError) as error:
            raise RunDirectoryError(
                "{plan} is not a run's plan ({error}); choose another {out} directory", plan=self.plan_path, error=error
            ) from None
        if not isinstance(recorded, dict):
            raise RunDirectoryError("{plan} is not a run's plan; choose another {out} directory", plan=self.plan_path)
        return recorded

    def load(self) -> list[GameRecord]:
        """Every recorded game once, in file order, ignoring a torn last line (``open`` cuts it off).

        RunDirectoryError names the line of anything else that is not a game record.
        """
        if not self.games_path.exists():
            return []
        try:
            data = self.games_path.read_bytes()
        except OSError as error:
            raise RunDirectoryError(
                "{games} cannot be read ({why})", games=self.games_path, why=error.strerror
            ) from None
        records: dict[int, GameRecord] = {}
        for number, line in enumerate(data[: data.rfind(b"\n") + 1].splitlines(), start=1):
            if not line.strip():
                continue
            try:
                data = json.loads(line.decode("utf-8"))
                if not isinstance(data, dict):
                    raise ValueError("not a JSON object")
                record = GameRecord.from_json(data)
            except (ValueError, KeyError, TypeError, IndexError) as error:
                raise RunDirectoryError(
                    "{games}:{number} is not a game record ({error}); remove that line to resume",
                    games=self.games_path,
                    number=number,
                    error=error,
                ) from None
            records.setdefault(record.index, record)
        return list(records.values())

    def record(self, index: int) -> GameRecord:
        """Game ``index`` of this run: the one reader of a recorded game (replays, the analysis); RunDirectoryError
        when the run holds no such game, naming the ones it holds."""
        if not self.games_path.is_file():
            raise RunDirectoryError(
                "{path} holds no {games}: no game of a run is recorded there", path=self.directory, games=GAMES_FILE
            )
        records = {record.index: record for record in self.load()}
        if index not in records:
            known = f"games {min(records)}..{max(records)}" if records else "no game recorded yet"
            raise RunDirectoryError(
                "no game {index} in {games} ({known})", index=index, games=self.games_path, known=known
            )
        return records[index]

    def _cut_torn_line(self) -> None:
        """Cut a last line without its newline, the trace of a kill in the middle of a write."""
        if not self.games_path.exists():
            return
        data = self.games_path.read_bytes()
        complete = data.rfind(b"\n") + 1
        if complete != len(data):
            with open(self.games_path, "r+b") as handle:
                handle.truncate(complete)

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
