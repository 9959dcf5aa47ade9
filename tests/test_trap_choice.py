"""The two-ply trap: on hand-built 7x6 positions, the move each model of the opponent prefers, and the rules
that keep it safe (a draw kept, no win in one handed over, today's move when time runs out).

The positions were found by a seeded search of random games; each test re-proves what makes its
position a case (exact scores, the horizon search's reply) before it asserts the choice.
"""

from __future__ import annotations

import time

import pytest

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import NO_LIMIT, SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import analyze, solve
from connectx.agents.search.horizon_play import horizon_move
from connectx.agents.search.opponent_model import FLOOR, HORIZON, MARGIN, PERFECT, RANDOM, Hypothesis
from connectx.agents.search.trap_choice import candidates, choose_trap, points_for_us

LOST = Position.from_moves("1324356247161423614614")
"""Lost by a point whatever we play but column 7: random slips and thin-margin slips favour different traps."""

HORIZON_TRAP = Position.from_moves("1652157375312627516255")
"""Lost; after column 1 the opponent's only win is one a depth-4 search does not see."""

DRAWN = Position.from_moves("63771164526511117675325347")
"""Only column 2 keeps the draw; columns 4 and 6 lose, but most replies to them would hand us the game."""


TABLE = TranspositionTable()
"""One table for every test's searches: it holds proven bounds only, so sharing it changes speed, never an answer."""


def alone(hypothesis: Hypothesis) -> list[tuple[Hypothesis, float]]:
    return [(hypothesis, 1.0)]


def exact_scores(position: Position) -> dict[int, int]:
    """Every column's exact score in ``position``, searched to the end."""
    scores = analyze(position, TABLE)
    assert scores is not None  # no limit
    return scores


def today(position: Position) -> int:
    solution = solve(position, TABLE)
    assert solution is not None and solution.column is not None
    return solution.column


def test_the_case_positions_are_what_they_claim() -> None:
    assert max(exact_scores(LOST).values()) == -1 and today(LOST) == 3
    assert max(exact_scores(HORIZON_TRAP).values()) < 0 and today(HORIZON_TRAP) == 2
    drawn = exact_scores(DRAWN)
    assert [column for column, score in drawn.items() if score == 0] == [1] and drawn[3] < 0 and drawn[5] < 0


def test_the_value_of_a_move_is_the_chance_its_replies_turn_the_game() -> None:
    """Random slips at rate r: the chance of a turning reply, from the replies' exact scores by hand."""
    rate = 0.3
    choice = choose_trap(LOST, today(LOST), False, alone(Hypothesis(RANDOM, rate)), TABLE, NO_LIMIT)
    for column, value in choice.values.items():
        replies = exact_scores(LOST.play(column))
        best = max(replies.values())
        tied = sum(score == best for score in replies.values())
        chance = {
            reply: (1 - FLOOR) * ((1 - rate) * (score == best) / tied + rate / len(replies)) + FLOOR / len(replies)
            for reply, score in replies.items()
        }
        assert value == pytest.approx(sum(chance[reply] * points_for_us(score) for reply, score in replies.items()))


@pytest.mark.parametrize("hypothesis,trap", [(Hypothesis(RANDOM, 0.3), 1), (Hypothesis(MARGIN, 1.0), 5)])
def test_each_model_gets_the_trap_it_prefers(hypothesis: Hypothesis, trap: int) -> None:
    choice = choose_trap(LOST, today(LOST), False, alone(hypothesis), TABLE, NO_LIMIT)
    assert choice.column == trap != today(LOST)
    assert choice.values[trap] == max(choice.values.values()) > choice.values[today(LOST)]
    assert choice.options is not None and choice.options.scores == exact_scores(LOST.play(trap))


def test_a_horizon_player_is_led_into_the_win_it_cannot_see() -> None:
    choice = choose_trap(HORIZON_TRAP, today(HORIZON_TRAP), False, alone(Hypothesis(HORIZON, 4)), TABLE, NO_LIMIT)
    assert choice.column == 0
    after = HORIZON_TRAP.play(0)
    replies = exact_scores(after)
    reply, complete = horizon_move(after, 4)
    assert complete and max(replies.values()) > 0 >= replies[reply.column], "still lost, unless it plays its search"
    assert choice.values[0] > 0.9


def test_a_draw_is_kept_even_where_a_losing_move_promises_more() -> None:
    reckless = alone(Hypothesis(RANDOM, 1.0))  # an opponent that always moves at random
    choice = choose_trap(DRAWN, today(DRAWN), True, reckless, TABLE, NO_LIMIT)
    assert choice.column == 1 and set(choice.values) == {1}
    lost_but_promising = choose_trap(DRAWN, 3, False, reckless, TABLE, NO_LIMIT)
    assert lost_but_promising.values[3] > choice.values[1], "valued as a lost move, column 4 is worth more"


def test_a_lost_position_never_hands_over_a_win_in_one_while_another_move_is_left() -> None:
    under_threats = Position.from_moves("334455")  # the second player's row of three waits above columns 2 and 6
    assert set(under_threats.legal_columns()) - set(under_threats.non_losing_columns()) == {1, 5}
    assert sorted(candidates(under_threats, 3, drawn=False)) == [0, 2, 3, 4, 6]
    double_threat = Position.from_moves("44556")  # the first player wins at 3 or 7: every move loses at once
    assert not double_threat.non_losing_columns()
    assert sorted(candidates(double_threat, 2, drawn=False)) == list(range(7))
    assert candidates(double_threat, 2, drawn=False)[0] == 2, "today's move is valued first"


def test_the_perfect_player_alone_sees_only_the_floor() -> None:
    choice = choose_trap(LOST, today(LOST), False, alone(Hypothesis(PERFECT)), TABLE, NO_LIMIT)
    assert all(value <= FLOOR for value in choice.values.values())


def test_out_of_time_it_plays_todays_move() -> None:
    early = Position.from_moves("4453323125")  # ten stones: no exact solve of a reply finishes at once
    choice = choose_trap(
        early, 2, False, alone(Hypothesis(RANDOM, 0.3)), TranspositionTable(), SearchLimit(stop_at=time.perf_counter())
    )
    assert choice.column == 2 and choice.values == {}
