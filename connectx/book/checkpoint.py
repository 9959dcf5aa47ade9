"""Solved positions on disk, one JSON line each, appended and flushed as results arrive.

An interrupted generation loses at most the positions being solved at that moment; a rerun
reads the file back and solves only what is missing.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from connectx.agents.core.position import Position
from connectx.analysis.exact_scores import canonical_key
from connectx.book.strategy import Solved


def read_solved(path: Path) -> dict[int, Solved]:
    """The solved positions recorded in ``path`` by canonical key (a torn last line is skipped)."""
    solved: dict[int, Solved] = {}
    if not path.exists():
        return solved
    complete = path.read_text().rpartition("\n")[0]
    for number, line in enumerate(complete.splitlines(), 1):
        try:
            record = Solved(**json.loads(line))
        except (ValueError, TypeError) as error:
            message = f"{path}:{number} is not a solved position ({error}): delete the file to start over"
            raise ValueError(message) from error
        solved[canonical_key(Position.from_moves(record.moves))] = record
    return solved


class Checkpoint:
    """The solved positions so far, keyed by canonical key, backed by an append-only JSONL file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.solved = read_solved(path)
        if path.exists():
            text = path.read_text()
            if text and not text.endswith("\n"):  # an interrupt cut the last line short: drop it
                path.write_text(text.rpartition("\n")[0] + "\n" if "\n" in text else "")
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: TextIO = path.open("a")

    def add(self, key: int, solved: Solved) -> None:
        """Record one result and flush it to disk at once."""
        self.solved[key] = solved
        self._file.write(json.dumps(asdict(solved)) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
