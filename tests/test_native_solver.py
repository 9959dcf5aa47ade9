"""The book's C solver: its bitboard entry point agrees with its move-string one and refuses nonsense.

The C solver needs a compiler, which the project does not require, so these tests skip without one.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from agents.position import Position

if not (shutil.which("cc") or shutil.which("gcc")):
    pytest.skip("no C compiler: the book's C solver cannot be built", allow_module_level=True)

from book.native import NativeSolver  # noqa: E402

POSITIONS = Path(__file__).resolve().parents[1] / "positions" / "Test_L2_R1"


@pytest.fixture(scope="module")
def solver() -> NativeSolver:
    return NativeSolver(20)


def test_a_position_scores_the_same_from_bitboards_as_from_its_moves(solver: NativeSolver) -> None:
    for line in POSITIONS.read_text().splitlines()[:25]:
        moves, expected = line.split()
        from_moves = solver.best_move(moves)
        from_bits = solver.best_move_of(Position.from_moves(moves))
        assert (from_bits.score, from_bits.column) == (from_moves.score, from_moves.column), moves
        assert from_bits.score == int(expected), moves


def test_impossible_positions_and_other_boards_are_refused(solver: NativeSolver) -> None:
    with pytest.raises(ValueError, match="not a legal unfinished"):
        solver.best_move_of(Position.from_moves("1212121"))  # four in a column: the game is over
    floating = Position(Position.initial().geometry, 0, 1 << 1, 1)  # a stone above an empty cell
    with pytest.raises(ValueError, match="not a legal unfinished"):
        solver.best_move_of(floating)
    with pytest.raises(ValueError, match="7x6 connect-4 only"):
        solver.best_move_of(Position.from_moves("", rows=5, columns=6, inarow=4))
