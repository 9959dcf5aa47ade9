"""The persistent cache of solved positions: what one analysis proved, the next reads back at once.

One append-only JSON-lines file per board size under the cache directory (by default
``analysis/`` in the per-user cache directory, ``user_cache``). Each line is one position's
proven range under its canonical key (mirror images share it)::

    {"key": 12345, "lower": 2, "upper": 2}                                      exact
    {"key": 67890, "lower": 0, "upper": 5, "seconds": 1.0, "solver": "native"}  a bound

A bound also records the time limit and the solver that could not finish it, so a later analysis
with the same limit reuses it instead of failing again, and a larger limit or the faster solver
tries again. Lines are only ever appended, one ``write`` each, so an interrupted analysis loses
at most the line being written (a torn last line is skipped on reading). For 7x6 connect-4, the
shipped table of exact opening scores (``exact_scores``) answers whatever the file does not.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TextIO

from connectx.agents.core.position import Position
from connectx.analysis.exact_scores import ExactScores
from connectx.solver.score_range import ScoreRange
from connectx.solver.user_cache import user_cache_directory

SOLVER_STRENGTH = {"python": 0, "native": 1}
"""Which solver proves more in the same time: a bound left by a weaker one is worth retrying."""


def default_directory() -> Path:
    """Where analyses keep their solved positions unless told otherwise: ``analysis/`` of the user's cache."""
    return user_cache_directory() / "analysis"


@dataclass(frozen=True)
class CachedRange:
    """A proven range, and for a bound the time limit and solver that could not narrow it further."""

    range: ScoreRange
    seconds: float = 0.0
    solver: str = ""

    def settles(self, seconds: float, solver: str) -> bool:
        """Whether searching again with ``seconds`` and ``solver`` is pointless: exact, or tried as hard."""
        if self.range.exact:
            return True
        return seconds <= self.seconds and SOLVER_STRENGTH.get(solver, 0) <= SOLVER_STRENGTH.get(self.solver, 0)


class SolvedCache:
    """Proven score ranges by board size and canonical position key, kept in ``directory``.

    ``directory`` is ``"user"`` for ``default_directory()`` (read when the cache is made), a
    path, or None to keep the cache in memory only. ``exact`` answers what the files do not:
    ``"shipped"`` for the package's table of exact opening scores, another ``ExactScores``, or
    None for nothing. ``hits`` and ``misses`` count lookups.
    """

    def __init__(self, directory: Path | None | Literal["user"] = "user",
                 exact: ExactScores | None | Literal["shipped"] = "shipped") -> None:
        self.directory = default_directory() if directory == "user" else directory
        self.exact = ExactScores.shipped() if exact == "shipped" else exact
        self.hits = 0
        self.misses = 0
        self._ranges: dict[tuple[int, int, int], dict[int, CachedRange]] = {}
        self._files: dict[tuple[int, int, int], TextIO] = {}
        self._lock = threading.RLock()

    def get(self, position: Position) -> CachedRange | None:
        """What is known of ``position``'s score, or None if nothing is."""
        key = position.canonical_key()
        with self._lock:
            known = self._board(position).get(key)
        if known is None or not known.range.exact:
            score = self.exact.score(position) if self.exact is not None else None
            if score is not None:
                known = CachedRange(ScoreRange.exactly(score))
        if known is None:
            self.misses += 1
        else:
            self.hits += 1
        return known

    def put(self, position: Position, proven: ScoreRange, seconds: float = 0.0, solver: str = "") -> None:
        """Record ``proven`` for ``position`` (with the effort behind a bound), merged with what was known."""
        key = position.canonical_key()
        entry = CachedRange(proven) if proven.exact else CachedRange(proven, seconds, solver)
        with self._lock:  # solvers on several threads share one cache (connectx solve)
            ranges = self._board(position)
            before = ranges.get(key)
            if before is not None:
                entry = _merged(before, entry)
                if entry == before:
                    return
            ranges[key] = entry
            self._append(position, key, entry)

    def close(self) -> None:
        for handle in self._files.values():
            handle.close()
        self._files.clear()

    def _board(self, position: Position) -> dict[int, CachedRange]:
        shape = position.geometry
        board = (shape.rows, shape.columns, shape.inarow)
        if board not in self._ranges:
            self._ranges[board] = self._read(self._path(board)) if self.directory is not None else {}
        return self._ranges[board]

    def _path(self, board: tuple[int, int, int]) -> Path:
        rows, columns, inarow = board
        assert self.directory is not None
        return self.directory / f"solved-{columns}x{rows}x{inarow}.jsonl"

    @staticmethod
    def _read(path: Path) -> dict[int, CachedRange]:
        ranges: dict[int, CachedRange] = {}
        if not path.exists():
            return ranges
        for line in path.read_text().splitlines():
            try:
                data = json.loads(line)
                proven = ScoreRange(int(data["lower"]), int(data["upper"]))
                entry = CachedRange(proven, float(data.get("seconds", 0.0)), str(data.get("solver", "")))
                key = int(data["key"])
            except (ValueError, KeyError, TypeError):
                continue  # a line torn by an interrupt: that position is solved again
            before = ranges.get(key)
            ranges[key] = _merged(before, entry) if before is not None else entry
        return ranges

    def _append(self, position: Position, key: int, entry: CachedRange) -> None:
        if self.directory is None:
            return
        shape = position.geometry
        board = (shape.rows, shape.columns, shape.inarow)
        handle = self._files.get(board)
        if handle is None:
            path = self._path(board)
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = self._files[board] = path.open("a", encoding="utf-8")
            if _ends_torn(path):
                handle.write("\n")  # end a torn last line so this entry starts a line of its own
        data: dict[str, object] = {"key": key, "lower": entry.range.lower, "upper": entry.range.upper}
        if not entry.range.exact:
            data.update(seconds=entry.seconds, solver=entry.solver)
        handle.write(json.dumps(data) + "\n")
        handle.flush()


def _merged(before: CachedRange, after: CachedRange) -> CachedRange:
    """Both entries' proofs together; a bound keeps the largest effort spent on it."""
    proven = before.range.intersect(after.range)
    if proven.exact:
        return CachedRange(proven)
    stronger = max(before.solver, after.solver, key=lambda name: SOLVER_STRENGTH.get(name, -1))
    return CachedRange(proven, max(before.seconds, after.seconds), stronger)


def _ends_torn(path: Path) -> bool:
    """Whether ``path`` ends in the middle of a line (an interrupt cut the last write short)."""
    with path.open("rb") as handle:
        if handle.seek(0, 2) == 0:
            return False
        handle.seek(-1, 2)
        return handle.read(1) != b"\n"
