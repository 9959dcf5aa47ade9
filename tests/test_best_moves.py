"""A column is called best only when the proofs say no other can be better; otherwise the open ones are named.

Positions whose searches are cut short (a small node budget) are checked against full solves of
the same positions: what is called best must be truly best, and every truly best column must be
named best or open.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from connectx.agents.core.position import Position, geometry
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import analyze
from connectx.analysis.game_analysis import (
    LINE_PLIES,
    PlyAnalysis,
    analyze_game,
    best_columns,
    column_values,
    open_columns,
)
from connectx.analysis.games import game_from_digits
from connectx.analysis.html_page import render_html
from connectx.analysis.solved_cache import SolvedCache
from connectx.analysis.text_report import line_text, render_text
from connectx.solver.python_search import PythonSolver
from connectx.solver.score_range import ScoreRange

POSITIONS = Path(__file__).resolve().parents[1] / "positions" / "Test_L2_R2"


def values_of(moves: str, solver: PythonSolver) -> tuple[ScoreRange | None, ...]:
    return column_values(Position.from_moves(moves), moves, math.inf, solver, SolvedCache(None, None))


def test_a_thrown_win_never_calls_a_losing_column_best() -> None:
    """As at ply 3 of ``4455`` with a short limit: the two non-losing columns unproven, the rest proven losses."""
    loss = ScoreRange.exactly(-18)
    unproven = ScoreRange(-18, 18)
    values = (loss, loss, unproven, loss, loss, unproven, loss)
    ply = PlyAnalysis(3, 4, values, known=ScoreRange(2, 2))
    assert ply.changed_outcome
    assert ply.best_columns == () and ply.open_columns == (2, 5)
    assert ply.column not in ply.best_columns + ply.open_columns
    assert ply.describe_best(geometry(6, 7, 4)) == "not proven yet; still open: 3, 6"
    assert ply.to_json()["best"] == [] and ply.to_json()["open"] == [2, 5]


@pytest.mark.parametrize(
    "values, known, best, still_open",
    [
        ((ScoreRange.exactly(3), ScoreRange.exactly(3), ScoreRange.exactly(-2), None), None, (0, 1), (0, 1)),
        ((ScoreRange(3, 5), ScoreRange.exactly(3), ScoreRange(-4, 2)), None, (0,), (0, 1)),
        ((ScoreRange(0, 5), ScoreRange.exactly(0), ScoreRange(-4, 0)), None, (0,), (0, 1, 2)),
        ((ScoreRange(-1, 5), ScoreRange.exactly(0), ScoreRange(-4, 1)), None, (), (0, 1, 2)),
        ((ScoreRange(-3, 5), ScoreRange.exactly(-1)), ScoreRange(0, 0), (0,), (0,)),
        ((ScoreRange.exactly(-1), ScoreRange.exactly(-1)), ScoreRange(-1, -1), (0, 1), (0, 1)),
    ],
)
def test_best_and_open_columns_follow_the_proofs(
    values: tuple[ScoreRange | None, ...], known: ScoreRange | None, best: tuple[int, ...], still_open: tuple[int, ...]
) -> None:
    assert best_columns(values, known) == best
    assert open_columns(values, known) == still_open


def test_against_full_solves_what_is_called_best_is_best_and_the_best_are_never_left_out() -> None:
    lines = POSITIONS.read_text().splitlines()[:12]
    undecided = 0
    for line in lines:
        moves = line.split()[0]
        truth = values_of(moves, PythonSolver())
        scores = {column: value.score for column, value in enumerate(truth) if value is not None}
        assert None not in scores.values()
        top = max(score for score in scores.values() if score is not None)
        truly_best = {column for column, score in scores.items() if score == top}
        cut = values_of(moves, PythonSolver(max_nodes=30))
        for column, value in enumerate(cut):
            assert value is None or value.contains(scores[column])  # every bound is true
        called_best = set(best_columns(cut))
        assert called_best <= truly_best, moves
        assert truly_best <= set(open_columns(cut)), moves
        undecided += not called_best
    assert undecided >= 3, "the node budget should leave some positions undecided, or this test tests nothing"


def test_a_flagged_move_shows_the_line_that_punishes_it_and_every_move_of_it_is_best() -> None:
    for line in POSITIONS.read_text().splitlines()[:12]:
        moves, score = line.split()
        position = Position.from_moves(moves)
        exact = analyze(position, TranspositionTable())
        assert exact is not None
        thrown = [
            column for column, value in exact.items() if (value > 0) - (value < 0) < (int(score) > 0) - (int(score) < 0)
        ]
        if thrown:
            break
    else:
        pytest.fail("no position of the file has a move that throws its outcome away")
    game = game_from_digits(moves + str(thrown[0] + 1))
    analysis = analyze_game(game, math.inf, PythonSolver(), SolvedCache(None, None), first_ply=len(moves))
    [ply] = analysis.flagged
    assert ply.line and ply.to_json()["line"] == list(ply.line)
    after = Position.from_moves(game.digits)
    for column in ply.line:  # each move of the line is one of the best in its position
        best = analyze(after, TranspositionTable())
        assert best is not None
        assert best[column] == max(best.values())
        after = after.play(column)
    assert after.is_over() or len(ply.line) == LINE_PLIES
    assert f"punished by {line_text(ply)}" in render_text(analysis)
    assert render_html(analysis).count('<g class="line">') == len(ply.line)
