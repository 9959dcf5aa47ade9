"""``TrapPlay``: what it observes, when it sets a trap, and what it takes from the overage bank."""

from __future__ import annotations

import pytest

from connectx.agents.core.opening_scores import load_opening_scores
from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchCounts, SearchResult
from connectx.agents.core.search_time import Deadline
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.players.opening_book import load_opening_book
from connectx.agents.search.exact_search import solve
from connectx.agents.search.trap_play import GATE, MAX_TRAP_OVERAGE, TRAP_OVERAGE_SHARE, TrapPlay

START = Position.from_moves("44725741263676746331")
"""Lost for the side to move, which plays column 5; the opponent's column 5 then throws its win (a draw)."""


def exact(position: Position, table: TranspositionTable) -> SearchResult:
    """The solver's exact result for ``position``, as its search reports one."""
    solution = solve(position, table)
    assert solution is not None and solution.column is not None
    return SearchResult(
        (solution.column,), solution.score, position.geometry.cells - position.moves, exact=True, proven=True
    )


def test_it_reads_the_opponent_and_draws_on_the_bank_only_to_set_a_trap() -> None:
    table, trap = TranspositionTable(), TrapPlay()
    quiet = Deadline.after(30.0, overage=30.0)
    assert trap.choose(START, exact(START, table), table, quiet) == 4
    assert quiet.bank.drawn == 0 and trap.model.observed == 0, "nothing seen yet: the solver's move, no overage"
    slipped = START.play(4).play(4)
    counts = SearchCounts()
    setting = Deadline.after(30.0, overage=30.0)
    column = trap.choose(slipped, exact(slipped, table), table, setting, counts=counts)
    assert trap.model.observed == 1 and trap.model.untrappable_share() < GATE
    assert column == 3 and trap.last_source == "trap" and counts.nodes > 0
    assert setting.bank.drawn == pytest.approx(min(MAX_TRAP_OVERAGE, TRAP_OVERAGE_SHARE * 30.0))


def test_a_won_position_is_the_solvers_and_teaches_nothing() -> None:
    table, trap = TranspositionTable(), TrapPlay()
    trap.choose(START, exact(START, table), table, Deadline.after(30.0))
    won = START.play(4).play(2)  # the opponent throws its win, and the draw
    result = exact(won, table)
    assert result.score > 0
    assert trap.choose(won, result, table, Deadline.after(30.0)) == result.column
    assert trap.model.observed == 0 and trap.last_source == ""


def test_a_move_that_does_not_follow_the_last_one_is_not_read() -> None:
    table, trap = TranspositionTable(), TrapPlay()
    trap.choose(START, exact(START, table), table, Deadline.after(30.0))
    elsewhere = START.play(2).play(3)  # not the move it answered with
    result = exact(elsewhere, table)
    assert result.score <= 0, "a position it would read the opponent in, had it followed"
    trap.choose(elsewhere, result, table, Deadline.after(30.0))
    assert trap.model.observed == 0


OPENING = Position.from_moves("44444")
"""Lost for the second player, whose book plays the centre; the first player's columns 2 and 6 then throw its win
(a draw), and no pure-Python search proves any of it within a move's time."""


def test_in_the_opening_it_reads_the_opponent_from_the_shipped_scores() -> None:
    table, trap = TranspositionTable(), TrapPlay(opening=load_opening_scores())
    book = trap.opening_result(OPENING, 3)
    assert book is not None and book.exact and book.score < 0 and book.column == 3
    assert trap.choose(OPENING, book, table, Deadline.after(30.0), booked=True) == 3 and trap.last_source == ""
    slipped = OPENING.play(3).play(1)
    booked = load_opening_book().move_for(6, 7, 4, slipped.current, slipped.mask)
    drawn = trap.opening_result(slipped, booked)
    assert drawn is not None and drawn.score == 0, "the book's move, with the position's score from the file"
    column = trap.choose(slipped, drawn, table, Deadline.after(30.0), booked=True)
    assert trap.model.observed == 1 and trap.model.untrappable_share() < GATE
    assert column == booked and trap.last_source == "", "the book's move: off the book nothing keeps the draw"


def test_without_the_shipped_scores_the_opening_is_left_to_the_solver() -> None:
    assert TrapPlay().opening_result(OPENING, 3) is None
    assert TrapPlay(opening=load_opening_scores()).opening_result(Position.from_moves("4" * 6 + "3" * 5), None) is None
