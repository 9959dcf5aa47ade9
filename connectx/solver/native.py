"""The C solver built by ``build``, loaded through ctypes: a position and a limit in, what was proven out.

``NativeSolver.search`` is the one door, for the analysis and the book alike, and it wraps the call
the agents make inside a submission (``connectx.agents.search.compiled_solver.CompiledSolver.search``),
so a change to the search is a change to all three. In go the position, a ``SearchLimit`` (an
instant, a node count) and what is already known of the score; back comes a ``NativeSearch``, the
exact score or the bounds proven when the limit came, with the best column found. The search stops
itself at its limit, or when another thread calls ``stop``, and keeps its transposition table either
way, so a solver stays warm across the related positions it is given. One solver is for one thread
at a time; threads search side by side with a solver each. The book's tools call it with no limit
through ``solve``, ``best_move`` and ``best_move_of``; the analysis through ``native_search``.
"""

from __future__ import annotations

import ctypes
import math
import time
from dataclasses import dataclass

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import NO_LIMIT, SearchLimit
from connectx.agents.search.compiled_solver import CompiledSolver
from connectx.agents.search.exact_search import Solution
from connectx.solver.build import build_library
from connectx.solver.score_range import ScoreRange

NO_FLOOR = -100
"""A floor below every score: a plain exact solve."""


@dataclass(frozen=True)
class NativeSearch:
    """What one search proved: the score's ``range`` (exact when its ends meet), the best ``column`` found
    (one that reaches ``range.lower`` once a search proved it, else the most promising move; None on no
    move), the ``nodes`` entered, and whether it ended ``complete`` rather than at its limit."""

    range: ScoreRange
    column: int | None
    nodes: int
    complete: bool


class NativeSolver:
    """One handle on the C solver and its transposition table, which persists across searches.

    Keeping the table between positions is the point: neighbouring positions share most of their
    subtrees, so later searches are much cheaper than the first. It plays one board size, 7x6 unless
    ``rows`` and ``columns`` say otherwise (ValueError for a board it does not play, see ``fits``). One
    search at a time; ``stop`` is the only call another thread may make meanwhile.
    """

    def __init__(self, log2_table_entries: int = 25, rows: int = 6, columns: int = 7) -> None:
        library = ctypes.CDLL(str(build_library(rows, columns)))
        self.compiled = CompiledSolver(library, "host", log2_table_entries, (rows, columns, 4))
        self.board = self.compiled.board
        """rows, columns, inarow, as ``Geometry`` orders them."""

    def search(
        self,
        position: Position,
        limit: SearchLimit = NO_LIMIT,
        known: ScoreRange | None = None,
        centre_first: bool = False,
    ) -> NativeSearch:
        """What can be proven of ``position``'s score within ``limit``, starting from ``known`` (a true range).

        Under a limit the outcome is settled before the exact score, so a stopped search still says
        who wins where it can. ``centre_first`` names, once the score is exact, the best column
        nearest the centre (the book's rule); otherwise the column is the search's.
        """
        known = ScoreRange.possible(position) if known is None else known
        seconds = None if math.isinf(limit.stop_at) else limit.stop_at - time.perf_counter()
        nodes = None if math.isinf(limit.max_nodes) else int(limit.max_nodes)
        found = self.compiled.search(position, seconds, nodes, known.lower, known.upper, centre_first)
        return NativeSearch(ScoreRange(found.lower, found.upper), found.column, found.nodes, found.complete)

    def stop(self) -> None:
        """Make the search under way (in another thread) return now with what it has proven, and every search
        after it until ``resume``: a stop that comes just before a search starts still stops it."""
        self.compiled.stop()

    def resume(self) -> None:
        """Let searches run to their limits again after ``stop``."""
        self.compiled.resume()

    def close(self) -> None:
        """Free the table now rather than when the solver is collected."""
        self.compiled.close()

    def solve(self, moves: str, floor: int = NO_FLOOR) -> Solution:
        """The exact score of the position reached by ``moves`` (1-based column digits), no column.

        ``floor`` is a score the position is already known to reach; it only saves work.
        """
        found = self._exact(self._position(moves), floor, centre_first=False)
        return Solution(found.range.lower, None, found.nodes)

    def best_move(self, moves: str, floor: int = NO_FLOOR) -> Solution:
        """The exact score and the best column (highest score, then nearest the centre)."""
        return self.best_move_of(self._position(moves), floor)

    def best_move_of(self, position: Position, floor: int = NO_FLOOR) -> Solution:
        """``best_move`` for a ``Position`` of this solver's board (a game's position needs no move history)."""
        found = self._exact(position, floor, centre_first=True)
        return Solution(found.range.lower, found.column, found.nodes)

    def _exact(self, position: Position, floor: int, centre_first: bool) -> NativeSearch:
        possible = ScoreRange.possible(position)
        if floor > possible.upper:
            raise ValueError(f"no move of {position!r} reaches the floor given: pass a true lower bound of its score")
        found = self.search(position, NO_LIMIT, ScoreRange(max(floor, possible.lower), possible.upper), centre_first)
        if not found.complete:
            raise RuntimeError(
                f"the search of {position!r} was stopped before its score was exact: call resume() "
                "after stop() to search to the end again"
            )
        return found

    def _position(self, moves: str) -> Position:
        rows, columns, inarow = self.board
        try:
            return Position.from_moves(moves, rows, columns, inarow)
        except ValueError as error:
            raise ValueError(f"{moves!r} is not a legal unfinished position of {self._board_name()}: {error}") from None

    def _board_name(self) -> str:
        return self.compiled.board_name()
