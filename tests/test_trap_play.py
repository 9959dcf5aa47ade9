"""``TrapPlay``: what it observes, when it sets a trap, and what it takes from the overage bank."""

from __future__ import annotations

import pytest

from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchCounts, SearchResult
from connectx.agents.core.search_time import Deadline
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import solve
from connectx.agents.search.trap_play import GATE, MAX_TRAP_OVERAGE, TRAP_OVERAGE_SHARE, TrapPlay

START = Position.from_moves("44725741263676746331")
"""Lost for the side to move, which plays column 5; the opponent's column 5 then throws its win (a draw)."""


def exact(position: Position, table: TranspositionTable) -> SearchResult:
    """The solver's exact result for ``position``, as its search reports one."""
    solution = solve(position, table)
    assert solution is not None and solution.column is not None
    return SearchResult((solution.column,), solution.score, position.geometry.cells - position.moves, exact=True,
                        proven=True)


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
