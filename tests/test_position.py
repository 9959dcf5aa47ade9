"""The bitboard core against a deliberately naive grid implementation, plus perft counts."""

from __future__ import annotations

import random

import pytest

from connectx.agents.core.position import Position, geometry

GEOMETRIES = [  # (rows, columns, inarow)
    (6, 7, 4),
    (4, 4, 3),
    (4, 5, 3),
    (7, 9, 5),
    (6, 1, 4),
    (1, 6, 4),
    (3, 3, 4),
    (2, 8, 3),
    (5, 5, 6),
    (6, 7, 1),
    (6, 7, 2),
    (8, 8, 4),
]


class NaiveBoard:
    """Connect-X the slow, obvious way: a grid of marks and a scan of every line on every query."""

    def __init__(self, rows: int, columns: int, inarow: int) -> None:
        self.rows, self.columns, self.inarow = rows, columns, inarow
        self.grid = [[0] * columns for _ in range(rows)]  # grid[0] is the bottom row
        self.moves = 0

    @property
    def to_move(self) -> int:
        return 1 if self.moves % 2 == 0 else 2

    def legal(self) -> set[int]:
        return {c for c in range(self.columns) if self.grid[self.rows - 1][c] == 0}

    def drop_row(self, column: int) -> int:
        return next(r for r in range(self.rows) if self.grid[r][column] == 0)

    def play(self, column: int) -> None:
        self.grid[self.drop_row(column)][column] = self.to_move
        self.moves += 1

    def has_line(self, mark: int) -> bool:
        for r in range(self.rows):
            for c in range(self.columns):
                for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(r + i * dr, c + i * dc) for i in range(self.inarow)]
                    if all(
                        0 <= rr < self.rows and 0 <= cc < self.columns and self.grid[rr][cc] == mark for rr, cc in cells
                    ):
                        return True
        return False

    def completes_line(self, row: int, column: int, mark: int) -> bool:
        """Whether a ``mark`` stone at (row, column) would be part of ``inarow`` in a line."""
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * dr, column + sign * dc
                while 0 <= r < self.rows and 0 <= c < self.columns and self.grid[r][c] == mark:
                    run += 1
                    r, c = r + sign * dr, c + sign * dc
            if run >= self.inarow:
                return True
        return False

    def line_cells(self, mark: int) -> set[tuple[int, int]]:
        """Empty cells (gravity ignored) where ``mark`` would complete a line."""
        return {
            (r, c)
            for r in range(self.rows)
            for c in range(self.columns)
            if self.grid[r][c] == 0 and self.completes_line(r, c, mark)
        }

    def winning_columns(self, mark: int) -> set[int]:
        return {c for c in self.legal() if self.completes_line(self.drop_row(c), c, mark)}

    def non_losing_columns(self) -> set[int]:
        safe = set()
        for column in self.legal():
            row = self.drop_row(column)
            self.grid[row][column] = self.to_move
            self.moves += 1
            if not self.winning_columns(self.to_move):
                safe.add(column)
            self.moves -= 1
            self.grid[row][column] = 0
        return safe


def cells_of(position: Position, bits: int) -> set[tuple[int, int]]:
    shape = position.geometry
    return {(r, c) for c in range(shape.columns) for r in range(shape.rows) if bits >> (c * shape.height + r) & 1}


def random_games(rows: int, columns: int, inarow: int, games: int, seed: int):
    """Yield (position, naive board) after every move of ``games`` random games, both kept in step."""
    rng = random.Random(seed)
    for _ in range(games):
        position, naive = Position.initial(rows, columns, inarow), NaiveBoard(rows, columns, inarow)
        yield position, naive
        while not position.is_over():
            column = rng.choice(position.legal_columns())
            position = position.play(column)
            naive.play(column)
            yield position, naive


@pytest.mark.parametrize("rows,columns,inarow", GEOMETRIES)
def test_core_agrees_with_naive_board_over_random_games(rows: int, columns: int, inarow: int) -> None:
    games = 250 if rows * columns <= 20 else 120 if rows * columns <= 42 else 50
    checked = 0
    for position, naive in random_games(rows, columns, inarow, games, seed=rows * 100 + columns * 10 + inarow):
        mover, other = naive.to_move, 3 - naive.to_move
        assert set(position.legal_columns()) == naive.legal()
        assert position.is_won() == naive.has_line(other)
        assert position.is_draw() == (naive.moves == rows * columns and not naive.has_line(other))
        assert position.rows_text() == "/".join(
            "".join(".xo"[naive.grid[r][c]] for c in range(columns)) for r in range(rows - 1, -1, -1)
        )
        if position.is_over():
            continue
        assert cells_of(position, position.winning_cells()) == naive.line_cells(mover)
        assert cells_of(position, position.opponent_winning_cells()) == naive.line_cells(other)
        assert set(position.winning_columns()) == naive.winning_columns(mover)
        for column in position.legal_columns():
            assert position.is_winning_move(column) == (column in naive.winning_columns(mover))
        if not position.winning_columns():
            assert set(position.non_losing_columns()) == naive.non_losing_columns()
        checked += 1
    assert checked >= games


def test_legal_columns_come_centre_first() -> None:
    assert Position.initial(6, 7).legal_columns() == [3, 2, 4, 1, 5, 0, 6]
    assert Position.initial(6, 6).legal_columns() == [2, 3, 1, 4, 0, 5]
    assert Position.from_moves("444444").legal_columns() == [2, 4, 1, 5, 0, 6]


def distinct_positions(position: Position, depth: int, seen: list[set[int]]) -> None:
    seen[position.moves].add(position.key() + (position.moves << 120))
    if depth == 0 or position.is_over():
        return
    for _, child in position.children():
        distinct_positions(child, depth - 1, seen)


def test_distinct_position_counts_match_the_known_sequence() -> None:
    """Distinct 7x6 positions after n plies: 1, 7, 49, 238, 1120, 4263, 16422 (OEIS A212693)."""
    seen: list[set[int]] = [set() for _ in range(7)]
    distinct_positions(Position.initial(), 6, seen)
    assert [len(level) for level in seen] == [1, 7, 49, 238, 1120, 4263, 16422]


def perft(position: Position, depth: int) -> int:
    if depth == 0 or position.is_over():
        return 1
    return sum(perft(child, depth - 1) for _, child in position.children())


def naive_perft(board: NaiveBoard, depth: int) -> int:
    if depth == 0 or board.has_line(3 - board.to_move) or not board.legal():
        return 1
    total = 0
    for column in board.legal():
        row = board.drop_row(column)
        board.play(column)
        total += naive_perft(board, depth - 1)
        board.grid[row][column] = 0
        board.moves -= 1
    return total


@pytest.mark.parametrize("rows,columns,inarow,depth", [(4, 4, 3, 7), (3, 5, 3, 6), (6, 7, 4, 5)])
def test_perft_matches_naive_board(rows: int, columns: int, inarow: int, depth: int) -> None:
    expected = naive_perft(NaiveBoard(rows, columns, inarow), depth)
    assert perft(Position.initial(rows, columns, inarow), depth) == expected


def test_perft_before_any_win_is_a_power_of_the_width() -> None:
    assert perft(Position.initial(), 5) == 7**5


def test_keys_are_unique_and_mirrors_agree() -> None:
    by_key: dict[int, Position] = {}
    rng = random.Random(7)
    for _ in range(3000):
        moves = "".join(str(rng.randint(1, 7)) for _ in range(rng.randint(0, 12)))
        try:
            position = Position.from_moves(moves)
        except ValueError:
            continue
        assert by_key.setdefault(position.key() + (position.moves << 64), position) == position
        mirrored = Position.from_moves("".join(str(8 - int(d)) for d in moves))
        assert mirrored.key() == position.mirrored_key()
        assert mirrored.mirrored_key() == position.key()


@pytest.mark.parametrize("moves", ["", "4", "4453", "1234567123", "44444435"])
def test_repr_round_trips(moves: str) -> None:
    position = Position.from_moves(moves)
    assert eval(repr(position), {"Position": Position}) == position
    assert eval(repr(position), {"Position": Position}).moves == position.moves


def test_rows_text_reads_back_and_refuses_boards_no_game_reaches() -> None:
    position = Position.from_moves("4453")
    assert position.rows_text().split("/")[-1] == "..oxx.."  # the bottom row comes last
    assert Position.from_rows(position.rows_text()) == position
    with pytest.raises(ValueError, match="floating"):
        Position.from_rows("x../...")
    with pytest.raises(ValueError, match="first player moves first"):
        Position.from_rows(".../oo.")
    with pytest.raises(ValueError, match="equal rows"):
        Position.from_rows("..x/..")


@pytest.mark.parametrize(
    "moves,message",
    [
        ("48", "column digit 1-7"),
        ("4x", "column digit"),
        ("1111111", "full column"),
        ("12121213", "after the game was won"),
    ],
)
def test_from_moves_rejects_bad_move_strings(moves: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Position.from_moves(moves)


def test_impossible_geometry_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        geometry(0, 7, 4)


def test_positions_are_immutable() -> None:
    position = Position.initial()
    with pytest.raises(AttributeError):
        position.moves = 3  # type: ignore[misc]
    assert position.play(3).moves == 1 and position.moves == 0


def test_a_game_is_replayed_on_any_named_board_as_its_move_string_reaches_it() -> None:
    from connectx.agents.board_spec import BoardSpec
    from connectx.evaluation.engine import BoardConfig

    reached = Position.from_moves("44536", 5, 6, 4)
    columns = (3, 3, 4, 2, 5)
    for board in (BoardSpec(5, 6, 4), BoardConfig(5, 6, 4, 1.0), reached.geometry):
        replayed = Position.replayed(board, columns)
        assert (replayed.geometry, replayed.mask, replayed.current, replayed.moves) == (
            reached.geometry,
            reached.mask,
            reached.current,
            5,
        )
    assert Position.replayed(BoardSpec()).moves == 0 and Position.replayed(BoardSpec()).geometry.cells == 42
