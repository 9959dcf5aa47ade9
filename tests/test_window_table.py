"""The incremental window-count table against a count from scratch, on many board sizes."""

from __future__ import annotations

import random

import pytest

from connectx.agents.core.position import Position, geometry
from connectx.agents.heuristics.window_table import WindowTable, count_windows, player_stones

GEOMETRIES = [  # (rows, columns, inarow)
    (6, 7, 4),
    (4, 4, 3),
    (4, 5, 3),
    (7, 9, 5),
    (6, 1, 4),
    (1, 6, 4),
    (4, 5, 6),
    (6, 7, 1),
    (5, 5, 2),
]


def naive_windows(rows: int, columns: int, inarow: int) -> set[frozenset[tuple[int, int]]]:
    """Every line of inarow cells as a set of (column, row) pairs, by walking coordinates."""
    found = set()
    for c in range(columns):
        for r in range(rows):
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + i * dc, r + i * dr) for i in range(inarow)]
                if all(0 <= cc < columns and 0 <= rr < rows for cc, rr in cells):
                    found.add(frozenset(cells))
    return found


@pytest.mark.parametrize("rows, columns, inarow", GEOMETRIES)
def test_windows_are_the_lines_of_the_board(rows: int, columns: int, inarow: int) -> None:
    shape = geometry(rows, columns, inarow)
    as_cells = {
        frozenset(
            (bit // shape.height, bit % shape.height)
            for bit in range(shape.columns * shape.height)
            if window >> bit & 1
        )
        for window in shape.windows()
    }
    assert len(shape.windows()) == len(as_cells)
    assert as_cells == naive_windows(rows, columns, inarow)


def test_seven_by_six_has_the_sixty_nine_windows_of_connect_four() -> None:
    # 4 x 6 horizontal + 7 x 3 vertical + 2 x (4 x 3) diagonal
    assert len(geometry(6, 7, 4).windows()) == 4 * 6 + 7 * 3 + 2 * 4 * 3


def fresh_rows(position: Position) -> list[list[int]]:
    first, second = player_stones(position)
    return [count_windows(position.geometry, first, second), count_windows(position.geometry, second, first)]


@pytest.mark.parametrize("rows, columns, inarow", GEOMETRIES)
def test_incremental_table_matches_a_fresh_count_after_every_move(rows: int, columns: int, inarow: int) -> None:
    rng = random.Random(rows * 100 + columns * 10 + inarow)
    for _ in range(8):
        position = Position.initial(rows, columns, inarow)
        table = WindowTable(position)
        played = []
        while not position.is_full():
            column = rng.choice(position.legal_columns())
            cell = position.move_bit(column)
            table.place(cell, position.moves % 2)
            played.append((cell, position.moves % 2))
            position = position.play(column)
            assert table.rows == fresh_rows(position), f"after {len(played)} moves of {position!r}"
        for cell, player in reversed(played):
            table.remove(cell, player)
        assert table.rows == fresh_rows(Position.initial(rows, columns, inarow))


def test_a_table_built_mid_game_counts_from_the_position() -> None:
    position = Position.from_moves("4453627")
    assert WindowTable(position).rows == fresh_rows(position)


def test_count_windows_on_a_hand_checked_position() -> None:
    # X on d1 and e1, O on d2: exactly three windows hold both X stones and no O, the row-1
    # windows b1-e1, c1-f1 and d1-g1; the naive enumeration gives every other entry.
    position = Position.from_moves("445")
    first, second = player_stones(position)
    row = count_windows(position.geometry, first, second)
    expected = [0] * 5
    for window in naive_windows(6, 7, 4):
        x = sum(1 for c, r in window if (c, r) in {(3, 0), (4, 0)})
        o = sum(1 for c, r in window if (c, r) == (3, 1))
        if not o:
            expected[x] += 1
    assert row == expected
    assert row[2] == 3
