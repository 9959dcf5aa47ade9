"""The analysis's table of exact opening scores: every 7x6 position up to ply 4 is answered exactly, at once,
and up to ply 6 once ``make opening-scores`` has solved every position of ply 7.

The table ships with the package (``connectx/analysis/data/exact_scores_7x6.npz``), built from the
committed checkpoints of ``book.opening_scores`` (every position of plies 5 and 7) and the book's.
"""

from __future__ import annotations

import math
import time

import pytest

from book.checkpoint import read_solved
from book.opening_scores import positions_of_ply
from book.paths import opening_scores
from connectx.agents.core.position import Position
from connectx.analysis.exact_scores import ExactScores
from connectx.analysis.game_analysis import column_values
from connectx.analysis.solved_cache import SolvedCache
from connectx.solver.python_search import PythonSolver

DEEPEST_EXACT_PLY = 4
"""Every position up to this ply has every column's exact value in the table."""
CHILDREN = positions_of_ply(DEEPEST_EXACT_PLY + 1)
PLY_7 = 27_109
"""The 7x6 positions of ply 7, mirror images and transpositions folded: ``make opening-scores`` solves them all."""


def every_column_exact_up_to(deepest: int) -> tuple[int, int, float]:
    """(positions checked, solver calls, slowest seconds) over every position up to ``deepest``, each asserted to
    have every column's exact value from the shipped table alone."""
    cache = SolvedCache(None, "shipped")
    solver = PythonSolver(max_nodes=0)  # the table alone must answer: no search gets a single node
    assert ExactScores.shipped().board == (6, 7, 4)  # the table loads here, outside the timing
    slowest, positions = 0.0, 0
    for ply in range(deepest + 1):
        for moves in positions_of_ply(ply).values():
            started = time.perf_counter()
            values = column_values(Position.from_moves(moves), moves, math.inf, solver, cache, estimates=False)
            slowest = max(slowest, time.perf_counter() - started)
            assert all(value is None or value.exact for value in values), moves
            positions += 1
    return positions, solver.calls, slowest


def test_every_position_up_to_ply_4_has_every_columns_exact_value_at_once() -> None:
    positions, calls, slowest = every_column_exact_up_to(DEEPEST_EXACT_PLY)
    assert positions == 1 + 4 + 25 + 121 + 568  # every position up to ply 4, mirror images folded
    assert calls == 0 and slowest < 1.0


def test_every_position_up_to_ply_6_has_every_columns_exact_value_once_ply_7_is_solved() -> None:
    solved = len(read_solved(opening_scores(7)))
    if solved < PLY_7:
        pytest.skip(f"make opening-scores has solved {solved:,} of the {PLY_7:,} positions of ply 7 so far")
    positions, calls, slowest = every_column_exact_up_to(6)
    assert positions == 1 + 4 + 25 + 121 + 568 + 2144 + len(positions_of_ply(6))
    assert calls == 0 and slowest < 1.0


def test_the_table_holds_every_position_the_checkpoint_solved() -> None:
    """What ``make opening-scores`` solved so far is in the shipped table with its score (the rebuild was run)."""
    solved = read_solved(opening_scores(5))
    table = ExactScores.shipped()
    assert len(solved) == len(CHILDREN) == 2144  # every ply-5 position, mirror images folded
    for record in [*solved.values(), *read_solved(opening_scores(7)).values()]:
        assert table.score(Position.from_moves(record.moves)) == record.score, record.moves
