"""The fill-up game: Allis' odd and even threats on 7x6, other boards, and its agreement with exact values."""

from __future__ import annotations

import random

import pytest

from connectx.agents.core.position import Position, geometry
from connectx.agents.heuristics.zugzwang import fill_up_game
from connectx.agents.search.exact_search import solve

SEVEN_BY_SIX = geometry(6, 7, 4)


def cell(column: int, row: int, rows: int = 6) -> int:
    """The bit of ``column``'s 0-based ``row`` on a board of ``rows`` rows."""
    return 1 << (column * (rows + 1) + row)


def value(mine: int, theirs: int, mask: int = 0, moves: int = 0) -> int:
    return fill_up_game(SEVEN_BY_SIX)(mine, theirs, mask, moves)


def test_no_threat_decides_nothing() -> None:
    assert value(0, 0) == 0


@pytest.mark.parametrize("row,first_player_wins", [(0, True), (2, True), (4, True), (1, False), (3, False), (5, False)])
def test_on_7x6_a_lone_threat_of_the_first_player_wins_on_an_odd_row(row: int, first_player_wins: bool) -> None:
    # Allis' rule with rows counted from 1: 0-based rows 0, 2, 4 are the odd ones (a row-0 threat is
    # playable at once, and the first player to move takes it).
    assert value(cell(3, row), 0, 0, 0) == (1 if first_player_wins else 0)
    if row:  # the second player to move (one stone elsewhere) loses to it; a row-0 threat it would just block
        assert value(0, cell(3, row), 0, 1) == (-1 if first_player_wins else 0)


@pytest.mark.parametrize("row,second_player_wins", [(1, True), (3, True), (5, True), (2, False), (4, False)])
def test_on_7x6_a_lone_threat_of_the_second_player_wins_on_an_even_row(row: int, second_player_wins: bool) -> None:
    assert value(0, cell(3, row), 0, 0) == (-1 if second_player_wins else 0)


def test_a_lower_threat_in_the_same_column_comes_first() -> None:
    # The second player's even threat below the first player's odd one: the column fills up to it
    # first, and the first player, out of tempo moves, must play under it.
    assert value(cell(3, 4), cell(3, 1), 0, 0) == -1
    assert value(cell(3, 2), cell(3, 3), 0, 0) == 1


def test_two_threats_one_above_the_other_win_for_their_owner_whoever_moves() -> None:
    # Their owner plays below them: the opponent's block of the lower one hands over the upper one.
    stacked = cell(3, 1) | cell(3, 2)
    assert value(stacked, 0, 0, 0) == 1
    assert value(stacked, 0, 0, 1) == 1
    assert value(0, stacked, 0, 0) == -1


def test_the_board_size_sets_the_parity() -> None:
    # On 8x7 the first player's stones make the 56 cells even and 7 rows odd: its second-row threat
    # (0-based row 1) is the one that wins, where on 7x6 it would be the second player's.
    eight_by_seven = fill_up_game(geometry(7, 8, 4))
    assert eight_by_seven(cell(3, 1, rows=7), 0, 0, 0) == 1
    assert eight_by_seven(cell(3, 2, rows=7), 0, 0, 0) == 0


def test_the_fill_up_game_mostly_agrees_with_the_exact_value_where_it_decides() -> None:
    # Late positions of random games on 6x5/4 (no immediate win for the mover): where the fill-up
    # game names a winner, the exact solver mostly names the same one. New threats made while
    # filling are what it cannot see, so not always; a swapped sign would agree in few.
    rng = random.Random(5)
    shape = geometry(5, 6, 4)
    agree = decided = 0
    while decided < 60:
        position = Position.initial(5, 6, 4)
        target = shape.cells - rng.randint(10, 14)
        while position.moves < target:
            quiet = [
                c
                for c in position.legal_columns()
                if not position.play(c).is_over() and not position.play(c).winning_columns()
            ]
            if not quiet:
                break
            position = position.play(rng.choice(quiet))
        if position.moves < target:
            continue
        mine = shape.winning_cells(position.current, position.mask)
        theirs = shape.winning_cells(position.current ^ position.mask, position.mask)
        verdict = fill_up_game(shape)(mine, theirs, position.mask, position.moves)
        if verdict:
            exact = solve(position)
            assert exact is not None
            decided += 1
            agree += exact.score * verdict > 0
    assert agree >= 0.8 * decided
