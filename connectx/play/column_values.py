"""Each column's proven value in a position, within a time limit, for the page and the terminal's hint.

Values are ``analysis`` score ranges from the side to move's view (positive wins, larger sooner;
0 draws; negative loses); a column's value is minus the score of the position it leads to.
``score_range.describe`` words them for people.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence

from connectx.agents.board_spec import BoardSpec
from connectx.agents.core.move_string import digits_fit, digits_of
from connectx.agents.core.position import Geometry, Position
from connectx.analysis.game_analysis import DEFAULT_SECONDS, GameAnalysis, PlyAnalysis, analyze_game, column_values
from connectx.analysis.games import Game
from connectx.analysis.solved_cache import SolvedCache
from connectx.solver.interface import Solver, make_solver
from connectx.solver.score_range import ScoreRange

SOLVERS_KEPT = 2
"""Board sizes whose solver (and its transposition table, up to about 150 MB) stays alive between calls."""


class ColumnAnalyst:
    """Bounds every column of positions one at a time, sharing a cache of solved positions.

    One solver per board size is kept for the next position (the few most recent sizes), so the
    positions of one game reuse its table; a lock makes the analyst safe to share between threads.
    ``cache`` defaults to the persistent one in the user's cache directory (7x6 answers from the
    shipped exact scores included); ``native`` lets the boards the C solver plays use it.
    """

    def __init__(self, cache: SolvedCache | None = None, native: bool = True) -> None:
        self.cache = cache if cache is not None else SolvedCache()
        self.native = native
        self._solvers: OrderedDict[BoardSpec, Solver] = OrderedDict()
        self._lock = threading.Lock()

    def values(
        self,
        shape: Geometry,
        moves: Sequence[int],
        seconds: float = DEFAULT_SECONDS,
        on_value: Callable[[int, ScoreRange], None] | None = None,
    ) -> tuple[ScoreRange | None, ...]:
        """The proven value of playing each column after ``moves`` (0-based), None for a full column.

        The searches of all columns share ``seconds``; ``on_value`` hears of each column's value as it is
        settled or refined; ValueError if ``moves`` ended the game.
        """
        position = Position.replayed(shape, moves)
        if position.is_over():
            raise ValueError("the game is over: no column can be played")
        digits = digits_of(moves) if digits_fit(shape.columns) else None
        with self._lock:
            solver = self._solver(BoardSpec(shape.rows, shape.columns, shape.inarow))
            return column_values(position, digits, seconds, solver, self.cache, on_value=on_value)

    def analyze_game(
        self, game: Game, seconds: float = DEFAULT_SECONDS, on_ply: Callable[[PlyAnalysis], None] | None = None
    ) -> GameAnalysis:
        """``game_analysis.analyze_game`` with this analyst's solver and cache: every ply, ``seconds`` each,
        ``on_ply`` told of each in order once every ply is searched and the whole game's values agree."""
        with self._lock:
            solver = self._solver(game.board)
            return analyze_game(game, seconds, solver, self.cache, on_ply=on_ply)

    def _solver(self, board: BoardSpec) -> Solver:
        solver = self._solvers.pop(board, None) or make_solver(board, native=self.native)
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
