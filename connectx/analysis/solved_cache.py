"""The persistent cache of what analyses found: what one analysis searched, the next reads back at once.

One append-only JSON-lines file per board size under the cache directory (by default
``analysis/`` in the per-user cache directory, ``user_cache``). A file this version starts opens
with a header naming its format; every other line is one position's finding under its canonical
key (mirror images share it)::

    {"format": 2}                                                               the header
    {"key": 12345, "lower": 2, "upper": 2}                                      an exact score
    {"key": 67890, "lower": 0, "upper": 5, "seconds": 1.0, "solver": "native"}  a bound
    {"key": 67890, "estimate": -0.12, "depth": 8, "seconds": 0.05}              an estimate

A bound records the time limit and the solver that could not narrow it further, so a later
analysis with the same or a lower limit reuses it instead of failing again, and a larger limit or
the faster solver tries again. An estimate (the side to move's, from a depth-limited search that
proves nothing) records the time it was searched for, so the same analysis shows the same
estimate without searching. A file without a header holds format 1 (bounds and exact scores only,
read as they are); a file of a newer format than this code knows is left alone, neither read nor
written. Lines are only ever appended, one ``write`` each, so an interrupted analysis loses at
most the line being written; a line that is torn or not understood is skipped on reading. For
7x6 connect-4, the shipped table of exact opening scores (``exact_scores``) answers whatever the
file does not.
"""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TextIO

from connectx.agents.core.position import Position
from connectx.analysis.exact_scores import ExactScores
from connectx.solver.score_range import ScoreRange
from connectx.solver.user_cache import user_cache_directory

FORMAT = 2
"""The version of the file's lines this code writes; it reads every version up to it."""

SOLVER_STRENGTH = {"python": 0, "native": 1}
"""Which solver proves more in the same time: a bound left by a weaker one is worth retrying."""

Board = tuple[int, int, int]
"""rows, columns, inarow: one file each."""


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


@dataclass(frozen=True)
class Estimate:
    """A depth-limited search's view of a position, the side to move's: ``value`` strictly inside (-1, 1),
    the ``depth`` it completed, and the ``seconds`` it was given."""

    value: float
    depth: int
    seconds: float

    def better_than(self, other: Estimate) -> bool:
        """Whether this one came from the longer search (the deeper one, of two as long)."""
        return (self.seconds, self.depth) > (other.seconds, other.depth)


class SolvedCache:
    """Proven score ranges and estimates by board size and canonical position key, kept in ``directory``.

    ``directory`` is ``"user"`` for ``default_directory()`` (read when the cache is made), a
    path, or None to keep the cache in memory only. ``exact`` answers what the files do not:
    ``"shipped"`` for the package's table of exact opening scores, another ``ExactScores``, or
    None for nothing. ``hits`` and ``misses`` count lookups of ranges.
    """

    def __init__(
        self,
        directory: Path | None | Literal["user"] = "user",
        exact: ExactScores | None | Literal["shipped"] = "shipped",
    ) -> None:
        self.directory = default_directory() if directory == "user" else directory
        self.exact = ExactScores.shipped() if exact == "shipped" else exact
        self.hits = 0
        self.misses = 0
        self._ranges: dict[Board, dict[int, CachedRange]] = {}
        self._estimates: dict[Board, dict[int, Estimate]] = {}
        self._files: dict[Board, TextIO] = {}
        self._read_only: set[Board] = set()
        self._lock = threading.RLock()

    def get(self, position: Position) -> CachedRange | None:
        """What is proven of ``position``'s score, or None if nothing is."""
        key = position.canonical_key()
        with self._lock:
            known = self._board(position)[0].get(key)
        if known is not None and not _overlaps(known.range, ScoreRange.possible(position)):
            known = None  # a line no analysis of this board could have written: ignored, searched afresh
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
            ranges = self._board(position)[0]
            before = ranges.get(key)
            if before is not None:
                entry = _merged(before, entry)
                if entry == before:
                    return
            ranges[key] = entry
            data: dict[str, Any] = {"key": key, "lower": entry.range.lower, "upper": entry.range.upper}
            if not entry.range.exact:
                data.update(seconds=entry.seconds, solver=entry.solver)
            self._append(position, data)

    def estimate(self, position: Position) -> Estimate | None:
        """The estimate of ``position`` kept from an earlier search, or None."""
        with self._lock:
            return self._board(position)[1].get(position.canonical_key())

    def put_estimate(self, position: Position, estimate: Estimate) -> None:
        """Keep ``estimate`` for ``position`` unless a longer search's is kept already."""
        key = position.canonical_key()
        with self._lock:
            estimates = self._board(position)[1]
            before = estimates.get(key)
            if before is not None and not estimate.better_than(before):
                return
            estimates[key] = estimate
            self._append(
                position, {"key": key, "estimate": estimate.value, "depth": estimate.depth, "seconds": estimate.seconds}
            )

    def close(self) -> None:
        for handle in self._files.values():
            handle.close()
        self._files.clear()

    def _board(self, position: Position) -> tuple[dict[int, CachedRange], dict[int, Estimate]]:
        shape = position.geometry
        board = (shape.rows, shape.columns, shape.inarow)
        if board not in self._ranges:
            ranges: dict[int, CachedRange] = {}
            estimates: dict[int, Estimate] = {}
            if self.directory is not None and not self._read(self._path(board), ranges, estimates):
                self._read_only.add(board)
            self._ranges[board], self._estimates[board] = ranges, estimates
        return self._ranges[board], self._estimates[board]

    def _path(self, board: Board) -> Path:
        rows, columns, inarow = board
        assert self.directory is not None
        return self.directory / f"solved-{columns}x{rows}x{inarow}.jsonl"

    @staticmethod
    def _read(path: Path, ranges: dict[int, CachedRange], estimates: dict[int, Estimate]) -> bool:
        """Fill ``ranges`` and ``estimates`` from the file; False (and nothing read) if a newer format wrote it
        or it cannot be read: then it is left alone."""
        if not path.exists():
            return True
        try:
            data = path.read_bytes()
        except OSError:
            return False
        # Bytes that are not UTF-8 (a damaged disk, another program's file) become lines that are not JSON.
        for number, line in enumerate(data.decode("utf-8", errors="replace").splitlines()):
            try:
                fields = json.loads(line)
                if number == 0 and "format" in fields:
                    if int(fields["format"]) > FORMAT:
                        return False
                    continue
                key = int(fields["key"])
                if "estimate" in fields:
                    estimate = _estimate(fields)
                    before_estimate = estimates.get(key)
                    if before_estimate is None or estimate.better_than(before_estimate):
                        estimates[key] = estimate
                    continue
                proven = ScoreRange(int(fields["lower"]), int(fields["upper"]))
                entry = CachedRange(proven, float(fields.get("seconds", 0.0)), str(fields.get("solver", "")))
            except (ValueError, KeyError, TypeError):
                continue  # a line torn by an interrupt, or not understood: that position is searched again
            before = ranges.get(key)
            ranges[key] = _merged(before, entry) if before is not None else entry
        return True

    def _append(self, position: Position, data: dict[str, Any]) -> None:
        shape = position.geometry
        board = (shape.rows, shape.columns, shape.inarow)
        if self.directory is None or board in self._read_only:
            return
        handle = self._files.get(board)
        if handle is None:
            path = self._path(board)
            path.parent.mkdir(parents=True, exist_ok=True)
            handle = self._files[board] = path.open("a", encoding="utf-8")
            if handle.tell() == 0:
                handle.write(json.dumps({"format": FORMAT}) + "\n")
            elif _ends_torn(path):
                handle.write("\n")  # end a torn last line so this entry starts a line of its own
        handle.write(json.dumps(data) + "\n")
        handle.flush()


def _estimate(data: dict[str, Any]) -> Estimate:
    """An estimate line's value; ValueError for one no search could have written."""
    estimate = Estimate(float(data["estimate"]), int(data["depth"]), float(data["seconds"]))
    if not (-1 < estimate.value < 1 and estimate.depth >= 0 and estimate.seconds >= 0):
        raise ValueError(f"not an estimate: {data}")
    return estimate


def _overlaps(first: ScoreRange, second: ScoreRange) -> bool:
    return first.lower <= second.upper and second.lower <= first.upper


def _merged(before: CachedRange, after: CachedRange) -> CachedRange:
    """Both entries' proofs together; a bound keeps the largest effort spent on it. Proofs that contradict
    each other mean one was damaged: the later one stands."""
    if not _overlaps(before.range, after.range):
        return after
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
