"""The analysis's table of exact opening scores: every 7x6 position up to ply 6 has every column's exact value at once.

The table ships with the package (``connectx/analysis/data/exact_scores_7x6.npz``), built from the
committed checkpoints of ``book.opening_scores`` (every position of plies 5, 6 and 7) and the book's.
"""

from __future__ import annotations

import math
import time

import pytest

from book.checkpoint import read_solved
from book.opening_scores import floors, positions_of_ply
from book.opening_table import recorded_scores, with_derived_scores
from book.paths import opening_scores, opening_scores_by_ply
from connectx.agents.core.position import Position
from connectx.analysis.exact_scores import ExactScores
from connectx.analysis.game_analysis import column_values
from connectx.analysis.solved_cache import SolvedCache
from connectx.cli.main import main
from connectx.solver.python_search import PythonSolver

DEEPEST_EXACT_PLY = 6
"""Every position up to this ply has every column's exact value in the table: the next ply is solved whole."""


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


def test_every_position_up_to_ply_6_has_every_columns_exact_value_at_once() -> None:
    positions, calls, slowest = every_column_exact_up_to(DEEPEST_EXACT_PLY)
    assert positions == 1 + 4 + 25 + 121 + 568 + 2144 + 8231  # every position up to ply 6, mirror images folded
    assert calls == 0 and slowest < 1.0


def test_solve_answers_the_tables_positions_exactly_with_no_time_to_search(capsys: pytest.CaptureFixture[str]) -> None:
    table, ply_6 = ExactScores.shipped(), list(positions_of_ply(6).values())
    sample = ply_6[:: len(ply_6) // 40]
    assert main(["solve", *sample, "--time-limit", "0.01"]) == 0  # a ply-6 position takes the solver seconds
    printed = dict(line.split() for line in capsys.readouterr().out.splitlines())
    assert printed == {moves: str(table.score(Position.from_moves(moves))) for moves in sample}


def test_the_table_holds_every_position_the_checkpoint_solved() -> None:
    """What ``make opening-scores`` solved so far is in the shipped table with its score (the rebuild was run)."""
    table = ExactScores.shipped()
    # Every position of plies 5, 6 and 7, mirror images folded.
    assert {ply: len(read_solved(opening_scores(ply))) for ply in (5, 6, 7)} == {5: 2144, 6: 8231, 7: 27109}
    for record in [record for path in opening_scores_by_ply().values() for record in read_solved(path).values()]:
        assert table.score(Position.from_moves(record.moves)) == record.score, record.moves


def test_a_floor_never_exceeds_the_exact_score_and_is_it_where_the_children_are_known() -> None:
    """The solver trusts a floor blindly (it searches only above it), so a floor too high would be a wrong score."""
    ply_5 = recorded_scores(read_solved(opening_scores(5)).values())
    exact = with_derived_scores(ply_5, 5)  # plies 0-5
    from_children = floors(4, exact)
    assert {key: from_children[key] for key in positions_of_ply(4)} == {key: exact[key] for key in positions_of_ply(4)}
    from_parents = floors(5, {key: score for key, score in exact.items() if key not in ply_5})
    assert from_parents.keys() == ply_5.keys()
    assert all(from_parents[key] <= score for key, score in ply_5.items())
    assert sum(from_parents[key] == score for key, score in ply_5.items()) > len(ply_5) // 4  # each parent's best child
