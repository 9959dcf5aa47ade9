"""One value per position: a ply's "after" is the next ply's "before", a known value shows on a column, and
what a parent or a child proves settles the other."""

from __future__ import annotations

import pytest

from connectx.agents.board_spec import BoardSpec
from connectx.analysis.agreement import bound_columns, reconcile, value_of
from connectx.analysis.game_analysis import GameAnalysis, analyze_game
from connectx.analysis.games import game_from_digits
from connectx.analysis.solved_cache import SolvedCache
from connectx.analysis.text_report import render_text
from connectx.solver.interface import make_solver, native_unavailable_reason
from connectx.solver.score_range import ScoreRange, describe

native = pytest.mark.skipif(
    native_unavailable_reason() is not None, reason=f"no C solver: {native_unavailable_reason()}"
)


def exactly(score: int) -> ScoreRange:
    return ScoreRange.exactly(score)


def test_a_parents_value_caps_its_columns_and_settles_the_only_one_that_can_reach_it() -> None:
    values = (exactly(-18), ScoreRange(-18, 18, 0.0, 7), exactly(-18), None)
    agreed = bound_columns(values, exactly(1))
    assert agreed == (exactly(-18), exactly(1), exactly(-18), None)  # the 1212121 case: the last column is the win
    two_open = (ScoreRange(-18, 18), ScoreRange(-5, 18))
    assert bound_columns(two_open, exactly(1)) == (ScoreRange(-18, 1), ScoreRange(-5, 1))  # capped, none settled


def test_a_childs_value_settles_its_parents_column_and_flows_back() -> None:
    # Ply 0: column 0 played, only a bound proven; ply 1 (the position it led to) proven exactly -3.
    rows = [((ScoreRange(-10, 10), exactly(-4)), None, 0), ((exactly(-3), exactly(-5)), None, 1)]
    (first, first_value), (second, second_value) = reconcile(rows)
    assert first[0] == exactly(3) and first_value == exactly(3)
    assert second_value == exactly(-3) == first[0].negated()


def test_one_estimate_per_position_the_deeper_search() -> None:
    rows = [
        ((ScoreRange(-10, 10, 0.3, 9), exactly(-12)), None, 0),
        ((ScoreRange(-10, 10, 0.1, 4), exactly(-12)), None, 0),
    ]
    (first, _), (_, second_value) = reconcile(rows)
    assert first[0].estimate == 0.3 and first[0].depth == 9
    assert second_value.estimate == -0.3 and second_value.depth == 9
    assert value_of((ScoreRange(-10, 10, 0.1, 4),), ScoreRange(-10, 10, 0.5, 8)).estimate == 0.5


def assert_agrees(analysis: GameAnalysis, shown: bool) -> None:
    """Every ply's "after" is the next ply's "before" seen by the other side, in the text too; an estimate never
    stands beside an exact value of the same position; with ``shown``, an exact value has a column showing it
    (the null-window test that finds it needs the time: an early position's can outlast the limit)."""
    shape = analysis.game.board.geometry
    text = render_text(analysis)
    for ply, following in zip(analysis.plies, analysis.plies[1:], strict=False):
        assert ply.after == following.before.negated(), (ply.ply, ply.after, following.before)
        assert (ply.after.estimate is None) == (following.before.estimate is None)
        words = describe(ply.after, shape, ply.ply)
        assert f"{ply.ply:>4}  " in text and words in text
    for ply in analysis.plies:
        if ply.before.exact:
            assert ply.before.estimate is None
            assert not shown or ply.before in [value for value in ply.values if value is not None], ply.ply


@native
@pytest.mark.parametrize("moves", ["1212121", "1771662233", "44444433"])
def test_every_position_has_one_value_in_the_text_and_the_json(moves: str) -> None:
    solver = make_solver(BoardSpec())
    try:
        analysis = analyze_game(game_from_digits(moves), 3.0, solver, SolvedCache(None, "shipped"))
    finally:
        solver.close()
    assert_agrees(analysis, shown=moves == "1212121")
    plies = analysis.to_json()["plies"]
    if moves == "1212121":  # O must block column 1; the table knows the win, so column 1 is proven to be it
        assert plies[5]["scores"][0] == 1 and plies[5]["best"] == [0] and plies[5]["exact"]
