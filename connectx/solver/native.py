"""The C solver built by ``build``, loaded through ctypes: a position and a limit in, what was proven out.

``NativeSolver.search`` is the one door: the position, a ``SearchLimit`` (an instant, a node count)
and what is already known of the score; back comes a ``NativeSearch``, the exact score or the
bounds proven when the limit came, with the best column found. The search stops itself at its
limit, or when another thread calls ``stop``, and keeps its transposition table either way, so a
solver stays warm across the related positions it is given. One solver is for one thread at a time;
threads search side by side with a solver each. The book's tools call it with no limit
through ``solve``, ``best_move`` and ``best_move_of``; the analysis through ``native_search``.
"""

from __future__ import annotations

import ctypes
import math
import time
import weakref
from dataclasses import dataclass

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import NO_LIMIT, SearchLimit
from connectx.agents.search.exact_search import Solution
from connectx.solver.build import build_library
from connectx.solver.score_range import ScoreRange

COMPLETE, STOPPED, INVALID_POSITION, BOUNDS_WRONG = 0, 1, -1, -2
"""``cx_search``'s answers (solver.c)."""
NO_FLOOR = -100
"""A floor below every score: a plain exact solve."""


class _Request(ctypes.Structure):
    _fields_ = [("lower", ctypes.c_int), ("upper", ctypes.c_int), ("seconds", ctypes.c_double),
                ("nodes", ctypes.c_uint64), ("centre_first", ctypes.c_int)]


class _Result(ctypes.Structure):
    _fields_ = [("lower", ctypes.c_int), ("upper", ctypes.c_int), ("column", ctypes.c_int),
                ("nodes", ctypes.c_uint64)]


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
        self.board = (rows, columns, 4)
        """rows, columns, inarow, as ``Geometry`` orders them."""
        library.cx_solver_new.restype = ctypes.c_void_p
        library.cx_solver_new.argtypes = [ctypes.c_int]
        library.cx_solver_free.argtypes = [ctypes.c_void_p]
        library.cx_solver_stop.argtypes = [ctypes.c_void_p]
        library.cx_solver_resume.argtypes = [ctypes.c_void_p]
        library.cx_search.argtypes = [ctypes.c_void_p, ctypes.c_uint64, ctypes.c_uint64,
                                      ctypes.POINTER(_Request), ctypes.POINTER(_Result)]
        handle = library.cx_solver_new(log2_table_entries)
        if not handle:
            raise MemoryError(f"the C solver could not allocate 2^{log2_table_entries} table entries: "
                              "use a smaller table")
        self._library = library
        self._handle = handle
        self._free = weakref.finalize(self, library.cx_solver_free, handle)

    def search(self, position: Position, limit: SearchLimit = NO_LIMIT, known: ScoreRange | None = None,
               centre_first: bool = False) -> NativeSearch:
        """What can be proven of ``position``'s score within ``limit``, starting from ``known`` (a true range).

        Under a limit the outcome is settled before the exact score, so a stopped search still says
        who wins where it can. ``centre_first`` names, once the score is exact, the best column
        nearest the centre (the book's rule); otherwise the column is the search's.
        """
        shape = position.geometry
        if (shape.rows, shape.columns, shape.inarow) != self.board:
            raise ValueError(f"this C solver plays {self._board_name()} only, not "
                             f"{shape.columns}x{shape.rows} with {shape.inarow} in a row")
        possible = ScoreRange.possible(position)
        known = possible if known is None else known
        seconds = math.inf if math.isinf(limit.stop_at) else max(0.0, limit.stop_at - time.perf_counter())
        nodes = 2**64 - 1 if math.isinf(limit.max_nodes) else max(0, int(limit.max_nodes))
        request = _Request(known.lower, known.upper, seconds, nodes, int(centre_first))
        result = _Result()
        status = self._library.cx_search(self._handle, position.current, position.mask, ctypes.byref(request),
                                         ctypes.byref(result))
        if status == INVALID_POSITION:
            raise ValueError(f"{position!r} is not a legal unfinished position of {self._board_name()}")
        if status == BOUNDS_WRONG:
            raise ValueError(f"the score of {position!r} is not in the range given, {known.lower}..{known.upper}: "
                             "pass what is proven of it")
        column = result.column if result.column >= 0 else None
        return NativeSearch(ScoreRange(result.lower, result.upper), column, result.nodes, status == COMPLETE)

    def stop(self) -> None:
        """Make the search under way (in another thread) return now with what it has proven, and every search
        after it until ``resume``: a stop that comes just before a search starts still stops it."""
        self._library.cx_solver_stop(self._handle)

    def resume(self) -> None:
        """Let searches run to their limits again after ``stop``."""
        self._library.cx_solver_resume(self._handle)

    def close(self) -> None:
        """Free the table now rather than when the solver is collected."""
        self._free()

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
            raise RuntimeError(f"the search of {position!r} was stopped before its score was exact: call resume() "
                               "after stop() to search to the end again")
        return found

    def _position(self, moves: str) -> Position:
        rows, columns, inarow = self.board
        try:
            return Position.from_moves(moves, rows, columns, inarow)
        except ValueError as error:
            raise ValueError(f"{moves!r} is not a legal unfinished position of {self._board_name()}: {error}") from None

    def _board_name(self) -> str:
        rows, columns, inarow = self.board
        return f"{columns}x{rows} with {inarow} in a row"
