"""Each column's proven value in a position, within a time limit, and the words people read for it.

Values are ``analysis`` score ranges from the side to move's view (positive wins, larger sooner;
0 draws; negative loses); a column's value is minus the score of the position it leads to. For
people a value reads "win in 3" (the mover's third move from here, this one included, completes
a line), "draw", "loss in 2" (the opponent's second move from here wins), or, where the time
limit left only a bound, the best bound proven ("win in <=5", "draw or win", ...).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Sequence

from agents.alphabeta import win_score
from agents.position import Geometry, Position, geometry
from analysis.game_analysis import DEFAULT_SECONDS, GameAnalysis, analyze_game
from analysis.games import Game
from analysis.score_range import ScoreRange
from analysis.solved_cache import SolvedCache
from analysis.solvers import Solver, make_solver

SOLVERS_KEPT = 2
"""Board sizes whose solver (and its transposition table, up to about 100 MB) stays alive between calls."""


class ColumnAnalyst:
    """Bounds every column of positions one at a time, sharing a cache of solved positions.

    One solver per board size is kept for the next position (the few most recent sizes), so the
    positions of one game reuse its table; a lock makes the analyst safe to share between threads.
    ``cache`` defaults to the persistent one in ``out/analysis-cache/`` (7x6 answers from the
    opening book included); ``native`` lets a 7x6x4 board use the C solver.
    """

    def __init__(self, cache: SolvedCache | None = None, native: bool = True) -> None:
        self.cache = cache if cache is not None else SolvedCache()
        self.native = native
        self._solvers: OrderedDict[tuple[int, int, int], Solver] = OrderedDict()
        self._lock = threading.Lock()

    def values(self, shape: Geometry, moves: Sequence[int], seconds: float = DEFAULT_SECONDS) -> tuple[
            ScoreRange | None, ...]:
        """The proven value of playing each column after ``moves`` (0-based), None for a full column.

        The searches of all columns share ``seconds``; ValueError if ``moves`` ended the game.
        """
        position = Position.initial(shape.rows, shape.columns, shape.inarow)
        for column in moves:
            position = position.play(column)
        if position.is_over():
            raise ValueError("the game is over: no column can be played")
        digits = "".join(str(column + 1) for column in moves) if shape.columns <= 9 else None
        with self._lock:
            return _column_values(position, digits, seconds, self._solver(shape), self.cache)

    def analyze_game(self, game: Game, seconds: float = DEFAULT_SECONDS) -> GameAnalysis:
        """``analysis.game_analysis.analyze_game`` with this analyst's solver and cache: every ply, ``seconds`` each."""
        with self._lock:
            return analyze_game(game, seconds, self._solver(geometry(game.rows, game.columns, game.inarow)), self.cache)

    def _solver(self, shape: Geometry) -> Solver:
        board = (shape.rows, shape.columns, shape.inarow)
        solver = self._solvers.pop(board, None) or make_solver(*board, native=self.native)
        self._solvers[board] = solver
        while len(self._solvers) > SOLVERS_KEPT:
            self._solvers.popitem(last=False)[1].close()
        return solver

    def close(self) -> None:
        with self._lock:
            for solver in self._solvers.values():
                solver.close()
            self._solvers.clear()
            self.cache.close()


def _column_values(position: Position, digits: str | None, seconds: float, solver: Solver,
                   cache: SolvedCache) -> tuple[ScoreRange | None, ...]:
    """Every column's range: wins and full boards at once, then the cache, then the solver on what is left.

    Each search gets half of the time left (all of it for the last): one hard column cannot starve
    the others, as in ``analysis.game_analysis``. ``digits`` are the moves as a move string, None
    on a board too wide to write one.
    """
    shape = position.geometry
    values: list[ScoreRange | None] = [None] * shape.columns
    pending: list[tuple[int, Position, ScoreRange]] = []
    for column in range(shape.columns):
        if not position.can_play(column):
            continue
        if position.is_winning_move(column):
            values[column] = ScoreRange.exactly(win_score(shape, position.moves))
            continue
        child = position.play(column)
        if child.is_full():
            values[column] = ScoreRange.exactly(0)
            continue
        known = ScoreRange.possible(child)
        cached = cache.get(child)
        if cached is not None:
            known = known.intersect(cached.range)
            if cached.settles(seconds, solver.name):
                values[column] = known.negated()
                continue
        pending.append((column, child, known))
    deadline = time.perf_counter() + seconds
    for index, (column, child, known) in enumerate(pending):
        proven = known
        now = time.perf_counter()
        if now < deadline:
            share = now + (deadline - now) / (1 if index == len(pending) - 1 else 2)
            # Move strings are digits (the C solver's input): none for boards of ten columns or more.
            child_digits = digits + str(column + 1) if digits is not None else ""
            proven = solver.bound(child, child_digits, known, share)
        cache.put(child, proven, seconds, solver.name)
        values[column] = proven.negated()
    return tuple(values)


def describe(value: ScoreRange | None, shape: Geometry, moves: int) -> str:
    """A column's value for people, in the position with ``moves`` stones: "win in 3", "draw", "loss in 2",
    "full", or the best bound proven ("win in <=5", "loss in <=4", "draw or win", "draw or loss", "unknown")."""
    if value is None:
        return "full"
    win_now = win_score(shape, moves)  # the value of winning with this very stone
    lose_next = (shape.cells - moves) // 2  # minus the value of losing to the opponent's next stone
    if value.lower > 0:
        wins_by = win_now + 1 - value.lower
        return f"win in {wins_by}" if value.exact else f"win in <={wins_by}"
    if value.upper < 0:
        # The slowest loss the range allows: the opponent's n-th move wins, n = lose_next + 1 + value.
        loses_by = lose_next + 1 + value.upper
        return f"loss in {loses_by}" if value.exact else f"loss in <={loses_by}"
    if value.exact:
        return "draw"
    if value.lower == 0:
        return "draw or win"
    if value.upper == 0:
        return "draw or loss"
    return "unknown"
