"""The exact scores the opening book's generation already proved, looked up by position.

``connectx/book/checkpoint/solved.jsonl`` holds some 250,000 solved 7x6 positions as move strings.
Replaying every one takes seconds, so the first lookup builds an index (canonical keys sorted,
with their scores) and saves it next to the analysis cache, stamped with the checkpoint's size
and modification time; later processes load that index in milliseconds and rebuild it only when
the checkpoint changes.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import numpy as np

from agents.core.position import Geometry, Position

REPOSITORY = Path(__file__).resolve().parent.parent
CHECKPOINT = REPOSITORY / "book" / "checkpoint" / "solved.jsonl"
BOOK_BOARD = (6, 7, 4)
"""rows, columns, inarow of the book's positions."""
_RECORD = re.compile(r'"moves": "(\d*)", "score": (-?\d+)')
"""The two fields needed, read without a JSON parse of each line (the checkpoint's writer fixes their order)."""


def canonical_key(position: Position) -> int:
    """A position's key, the same for it and its mirror image (their scores are equal)."""
    return min(position.key(), position.mirrored_key())


class BookScores:
    """Exact scores of the book's solved positions by canonical key, loaded on the first lookup."""

    def __init__(self, checkpoint: Path = CHECKPOINT, index_directory: Path | None = None) -> None:
        self.checkpoint = checkpoint
        self.index_path = index_directory / "book-index.npz" if index_directory is not None else None
        self._keys: np.ndarray | None = None
        self._scores: np.ndarray | None = None

    def score(self, position: Position) -> int | None:
        """The exact score of ``position`` if the book's generation solved it (or its mirror image)."""
        shape = position.geometry
        if (shape.rows, shape.columns, shape.inarow) != BOOK_BOARD:
            return None
        if self._keys is None or self._scores is None:
            self._keys, self._scores = self._load()
        key = canonical_key(position)
        slot = int(np.searchsorted(self._keys, np.uint64(key)))
        if slot < len(self._keys) and int(self._keys[slot]) == key:
            return int(self._scores[slot])
        return None

    def __len__(self) -> int:
        if self._keys is None or self._scores is None:
            self._keys, self._scores = self._load()
        return len(self._keys)

    def _load(self) -> tuple[np.ndarray, np.ndarray]:
        if not self.checkpoint.exists():
            return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int8)
        stats = self.checkpoint.stat()
        stamp = np.array([stats.st_size, stats.st_mtime_ns], dtype=np.int64)
        if self.index_path is not None and self.index_path.exists():
            try:
                with np.load(self.index_path) as saved:
                    if np.array_equal(saved["stamp"], stamp):
                        return saved["keys"], saved["scores"]
            except (OSError, ValueError, KeyError):
                pass  # a damaged index is rebuilt below
        keys, scores = self._read_checkpoint()
        if self.index_path is not None:
            self.index_path.parent.mkdir(parents=True, exist_ok=True)
            partial = self.index_path.with_name(f"{self.index_path.stem}.{os.getpid()}.tmp.npz")
            np.savez(partial, keys=keys, scores=scores, stamp=stamp)
            partial.replace(self.index_path)  # atomic: a reader sees the old index or the new one
        return keys, scores

    def _read_checkpoint(self) -> tuple[np.ndarray, np.ndarray]:
        shape = Position.initial(*BOOK_BOARD).geometry
        found: dict[int, int] = {}
        reached: dict[str, tuple[int, int]] = {"": (0, 0)}
        for number, line in enumerate(self.checkpoint.read_text().splitlines(), start=1):
            match = _RECORD.search(line)
            if match is None:
                try:
                    record = json.loads(line)
                    moves, score = str(record["moves"]), int(record["score"])
                except (ValueError, KeyError, TypeError):
                    continue  # a torn last line, or no position: nothing to learn from it
            else:
                moves, score = match.group(1), int(match.group(2))
            try:
                current, mask = _replay(shape, moves, reached)
            except ValueError as error:
                raise ValueError(f"{self.checkpoint}:{number}: {error}") from None
            found[canonical_key(Position(shape, current, mask, len(moves)))] = score
        keys = np.array(sorted(found), dtype=np.uint64)
        scores = np.array([found[int(key)] for key in keys], dtype=np.int8)
        return keys, scores


def _replay(shape: Geometry, moves: str, reached: dict[str, tuple[int, int]]) -> tuple[int, int]:
    """``(current, mask)`` after ``moves``, played on from the longest prefix in ``reached`` (which it extends).

    Book positions share long prefixes, so this plays about one move per position instead of
    sixteen, on bare ints: ``Position`` objects and their checks made the first build take half a
    minute. Only the stacking is checked: the generator never stores a finished game.
    """
    known = len(moves)
    while moves[:known] not in reached:
        known -= 1
    current, mask = reached[moves[:known]]
    for end in range(known + 1, len(moves) + 1):
        column = ord(moves[end - 1]) - ord("1")
        if not 0 <= column < shape.columns or mask & shape.top_bits[column]:
            raise ValueError(f"move {end} of {moves!r} is not a playable column")
        current, mask = current ^ mask, mask | (mask + shape.bottom_bits[column])
        reached[moves[:end]] = (current, mask)
    return current, mask
