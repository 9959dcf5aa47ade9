"""Exact scores of 7x6 opening positions, shipped with the package: what the analysis never has to search.

The table (``data/exact_scores_7x6.npz``, written by ``python -m book.opening_table``)
holds every position the opening book's generation solved, every position of the first plies
(solved, or derived from their children), each under its canonical key (``canonical_key``: a
position and its mirror image share it, and their scores are equal). It is read through
``importlib.resources``, so an installed wheel has it wherever it lives.

The file is an ``np.savez_compressed`` archive of three arrays: ``board`` (rows, columns, inarow),
``key_deltas`` (the sorted keys as differences from the previous key, which compress to about
half the size of the keys themselves) and ``scores`` (int8, the side to move's score in the
position files' convention, ``solver.c``'s comment).
"""

from __future__ import annotations

from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

from connectx.agents.core.key_deltas import key_index
from connectx.agents.core.position import Position

SHIPPED_TABLE = "data/exact_scores_7x6.npz"
"""The table's resource in the ``connectx.analysis`` package."""


def write_table(path: Path, board: tuple[int, int, int], scores_by_key: dict[int, int]) -> None:
    """Write ``{canonical_key: score}`` of the board ``(rows, columns, inarow)`` as the table ``ExactScores`` reads."""
    import numpy as np  # only where a table is read or written: numpy costs a tenth of a second to import

    keys = np.array(sorted(scores_by_key), dtype=np.uint64)
    scores = np.array([scores_by_key[int(key)] for key in keys], dtype=np.int8)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        np.savez_compressed(
            handle, board=np.array(board, dtype=np.int64), key_deltas=np.diff(keys, prepend=np.uint64(0)), scores=scores
        )


class ExactScores:
    """A table of exact scores by canonical key for one board, read on the first lookup.

    ``source`` is the table file (a path, or a package resource); ``shipped()`` is the one the
    package holds. A missing file is an empty table: the analysis then searches every position.
    """

    def __init__(self, source: Traversable | Path) -> None:
        self.source = source
        self._loaded = False
        self._board: tuple[int, int, int] | None = None
        self._keys: list[int] = []
        self._scores: list[int] = []

    @staticmethod
    @cache
    def shipped() -> ExactScores:
        """The package's own table, one object a process (it loads when first asked)."""
        return ExactScores(resources.files("connectx.analysis").joinpath(SHIPPED_TABLE))

    def score(self, position: Position) -> int | None:
        """The exact score of ``position`` (or of its mirror image) if the table holds it."""
        shape = position.geometry
        if (shape.rows, shape.columns, shape.inarow) != self.board:
            return None
        slot = key_index(self._keys, position.canonical_key())
        return None if slot is None else self._scores[slot]

    @property
    def board(self) -> tuple[int, int, int] | None:
        """rows, columns, inarow of the table's positions (None for a missing table)."""
        self._load()
        return self._board

    def __len__(self) -> int:
        self._load()
        return len(self._keys)

    def _load(self) -> None:
        if self._loaded:
            return
        self._loaded = True
        if not self.source.is_file():
            return
        import numpy as np  # only where a table is read or written: numpy costs a tenth of a second to import

        with self.source.open("rb") as handle, np.load(handle) as table:
            rows, columns, inarow = (int(value) for value in table["board"])
            self._keys = np.cumsum(table["key_deltas"], dtype=np.uint64).tolist()
            self._scores = table["scores"].tolist()
        self._board = (rows, columns, inarow)
