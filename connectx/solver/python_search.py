"""Bound a position's score before a deadline with the pure-Python exact search (any board size).

The outcome is proved first, then the exact score: two null-window proofs ("at least a win?",
"at least a draw?") are far cheaper than the full narrowing, and when the deadline cuts the
narrowing short the proofs already done still say who wins.
"""

from __future__ import annotations

import math

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import prove_at_least, solve
from connectx.solver.score_range import ScoreRange

TABLE_CAPACITY = 1 << 20
"""Entries of the table kept across the positions of an analysis (about 100 MB at most)."""


class PythonSolver:
    """``connectx.agents.search.exact_search`` with one transposition table shared by every position it bounds.

    ``max_nodes`` caps each search besides the deadline: it makes a bound reproducible on any
    machine (tests use it). ``calls`` counts the positions searched; ``fallback`` is why the C solver
    was asked for and could not be had (``interface.make_solver``), if it was.
    """

    name = "python"

    def __init__(
        self, max_nodes: float = math.inf, table_capacity: int = TABLE_CAPACITY, fallback: str | None = None
    ) -> None:
        self.max_nodes = max_nodes
        self.fallback = fallback
        self.table = TranspositionTable(table_capacity)
        self.calls = 0
        self._stopped = False

    def bound(self, position: Position, moves: str, known: ScoreRange, deadline: float) -> ScoreRange:
        """The tightest range proven for ``position`` by ``deadline`` (a ``time.perf_counter`` instant).

        ``known`` is what is already proven; ``moves`` (its 1-based digits) is unused here.
        """
        self.calls += 1
        if self._stopped:
            return known
        limit = SearchLimit(stop_at=deadline, max_nodes=self.max_nodes)
        lower, upper = known.lower, known.upper
        for target in (1, 0):
            if lower < target <= upper:
                proof = prove_at_least(position, target, self.table, limit)
                if proof is None:
                    return ScoreRange(lower, upper)
                lower, upper = (target, upper) if proof.holds else (lower, target - 1)
        if lower < upper:
            solution = solve(position, self.table, limit)
            if solution is not None:
                lower = upper = solution.score
        return ScoreRange(lower, upper)

    def stop(self) -> None:
        """Answer what is given from the next ``bound`` on (the search under way, in pure Python, runs on to
        its deadline)."""
        self._stopped = True

    def close(self) -> None:
        self.table.clear()
