"""Solved positions on disk, one JSON line each, appended and flushed as results arrive.

An interrupted generation loses at most the positions being solved at that moment; a rerun
reads the file back and solves only what is missing.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path
from typing import TextIO

from agents.position import Position
from book.strategy import Solved, canonical_key


class Checkpoint:
    """The solved positions so far, keyed by canonical key, backed by an append-only JSONL file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.solved: dict[int, Solved] = {}
        if path.exists():
            text = path.read_text()
            complete, _, torn = text.rpartition("\n")
            if torn:  # an interrupt cut the last line short: drop it so appends start clean
                path.write_text(complete + "\n" if complete else "")
            for number, line in enumerate(complete.splitlines(), 1):
                try:
                    record = Solved(**json.loads(line))
                except (ValueError, TypeError) as error:
                    raise ValueError(f"{path}:{number} is not a solved position ({error}): delete the file to start over")
                self.solved[canonical_key(Position.from_moves(record.moves))] = record
        path.parent.mkdir(parents=True, exist_ok=True)
        self._file: TextIO = path.open("a")

    def add(self, key: int, solved: Solved) -> None:
        """Record one result and flush it to disk at once."""
        self.solved[key] = solved
        self._file.write(json.dumps(asdict(solved)) + "\n")
        self._file.flush()

    def close(self) -> None:
        self._file.close()
