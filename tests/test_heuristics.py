"""The evaluations: the papers' numbers where they give them, antisymmetry everywhere."""

from __future__ import annotations

import random

import pytest

from connectx.agents.core.position import Position, geometry
from connectx.agents.heuristics.paper_heuristics import (
    H1_BROKEN_THREE,
    H1_FEATURES,
    H1_HALF_OPEN_THREE,
    H1_OPEN_THREE,
    H1_OPEN_TWO,
    H1_ROOM,
    H1_SINGLE,
    cell_values,
    h1,
    h2,
    parse_features,
    parse_window_weights,
    window_score,
    window_weights,
)

PAPER_MATRIX = [  # Kang, Wang & Hu (2019), heuristic 2, top row first
    [3, 4, 5, 7, 5, 4, 3],
    [4, 6, 8, 10, 8, 6, 4],
    [5, 8, 11, 13, 11, 8, 5],
    [5, 8, 11, 13, 11, 8, 5],
    [4, 6, 8, 10, 8, 6, 4],
    [3, 4, 5, 7, 5, 4, 3],
]


def random_positions(rows: int, columns: int, inarow: int, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = Position.initial(rows, columns, inarow)
        for _ in range(rng.randrange(position.geometry.cells + 1)):
            if position.is_over():
                break
            position = position.play(rng.choice(position.legal_columns()))
        positions.append(position)
    return positions


def test_h2_cell_values_on_seven_by_six_are_the_papers_matrix() -> None:
    shape = geometry(6, 7, 4)
    value_of = {}
    for value, cells in cell_values(shape):
        for column in range(7):
            for row in range(6):
                if cells >> (column * shape.height + row) & 1:
                    value_of[(column, row)] = value
    assert [[value_of[(c, r)] for c in range(7)] for r in range(5, -1, -1)] == PAPER_MATRIX


def test_window_weights_follow_the_paper() -> None:
    assert window_weights(4) == (0, 1, 3, 9, 81)
    assert window_weights(3) == (0, 1, 3, 27)
    assert window_weights(5) == (0, 1, 3, 9, 27, 243)


def test_parse_window_weights_reads_slashes_and_explains_mistakes() -> None:
    assert parse_window_weights("1/3/9/81") == (1, 3, 9, 81)
    with pytest.raises(ValueError, match="separated by '/'"):
        parse_window_weights("1,3,9,81")


@pytest.mark.parametrize("rows, columns, inarow", [(6, 7, 4), (4, 5, 3), (7, 9, 5), (6, 1, 4), (4, 4, 2)])
def test_every_evaluation_is_antisymmetric_when_the_sides_swap(rows: int, columns: int, inarow: int) -> None:
    shape = geometry(rows, columns, inarow)
    weights = window_weights(inarow)
    for position in random_positions(rows, columns, inarow, 40, seed=rows + columns + inarow):
        mine, theirs = position.current, position.current ^ position.mask
        assert h1(shape, mine, theirs) == -h1(shape, theirs, mine)
        assert h2(shape, mine, theirs) == -h2(shape, theirs, mine)
        assert window_score(shape, mine, theirs, weights) == -window_score(shape, theirs, mine, weights)
        if mine == theirs == 0:
            assert h1(shape, mine, theirs) == h2(shape, mine, theirs) == 0


def score_h1(moves: str) -> int:
    position = Position.from_moves(moves)
    return h1(position.geometry, position.current, position.current ^ position.mask)


def test_h1_values_an_isolated_stone_by_its_column() -> None:
    # One X stone, O to move: the score is minus X's single-stone value.
    assert score_h1("4") == -H1_SINGLE[0]
    assert score_h1("3") == score_h1("5") == -H1_SINGLE[1]
    assert score_h1("1") == score_h1("7") == -H1_SINGLE[3]


def test_h1_two_with_both_ends_playable() -> None:
    # X d1 e1, O d2 e2, X to move. X's two has c1 and f1 playable; O's two has c2 and f2 above
    # empty cells, so neither end is playable: no room score. Vertical pairs are mixed colours.
    assert score_h1("4455") == H1_OPEN_TWO


def test_h1_open_and_half_open_threes() -> None:
    # X d1 e1 f1 with c1 and g1 playable: an open three. O (to move) has d2 e2 with f2 now
    # playable and g2 empty beyond it: two cells of room on one side.
    assert score_h1("44556") == -H1_OPEN_THREE + 2 * H1_ROOM
    # X e1 f1 g1: only d1 is playable beside it (the board ends after g1), a half-open three.
    # O's e2 f2 has d2 over an empty d1 (not playable) and g2 playable with no cell beyond: room 1.
    assert score_h1("55667") == -H1_HALF_OPEN_THREE + H1_ROOM


def test_h1_scores_the_broken_three_of_the_papers_figure_8() -> None:
    """x holds b1 c2 e4 with d3 empty (Kang et al., Figure 8): Feature 2's special case, 900,000 to x,
    though d3 cannot be played yet. o (c1 d2 e1 e2 e3) has no three that can grow: its runs are blocked."""
    position = Position.from_rows("......./......./....x../....o../..xoo../.xoxo.x")
    assert position.moves % 2 == 0  # x to move
    shape, x, o = position.geometry, position.current, position.current ^ position.mask
    assert h1(shape, x, o, frozenset({2})) == H1_BROKEN_THREE
    assert H1_BROKEN_THREE == 900_000
    filled = Position.from_rows("......./......./....x../...oo../..xoo../.xoxoxx")  # d3 taken by o: no threat left
    assert h1(filled.geometry, filled.current, filled.current ^ filled.mask, frozenset({2})) == 0


@pytest.mark.parametrize("rows, columns, inarow", [(6, 7, 4), (4, 5, 3), (7, 9, 5)])
def test_h1_is_the_sum_of_its_features_switched_on_one_at_a_time(rows: int, columns: int, inarow: int) -> None:
    """Each feature switch removes exactly that feature's values (Kang et al.'s Tables 7 and 8 rely on it)."""
    shape = geometry(rows, columns, inarow)
    for position in random_positions(rows, columns, inarow, 40, seed=rows * columns):
        mine, theirs = position.current, position.current ^ position.mask
        singles = [h1(shape, mine, theirs, frozenset({f})) for f in H1_FEATURES]
        assert h1(shape, mine, theirs) == sum(singles)
        assert h1(shape, mine, theirs, frozenset({3, 4})) == singles[2] + singles[3]


def test_parse_features_reads_digits_and_explains_mistakes() -> None:
    assert parse_features("1234") == H1_FEATURES
    assert parse_features("34") == frozenset({3, 4})
    for text in ("", "5", "1,2", "11"):
        with pytest.raises(ValueError, match="digits of H1's features"):
            parse_features(text)
