"""Moves written as a string of 1-based column digits (``"4453"``): the form of the benchmark position
files, the page's address and every command that takes or prints a position.

One digit per column is why such strings exist only for boards of up to ``MAX_DIGIT_COLUMNS`` columns;
every reader and writer of the form asks here.
"""

from __future__ import annotations

from collections.abc import Iterable

MAX_DIGIT_COLUMNS = 9
"""The widest board whose moves can be written as digits: one digit per column, 1 to 9."""


def digits_fit(columns: int) -> bool:
    """Whether moves on a board of ``columns`` columns can be written as column digits."""
    return 1 <= columns <= MAX_DIGIT_COLUMNS


def digits_of(moves: Iterable[int]) -> str:
    """0-based columns as 1-based column digits: ``(3, 3, 4, 2)`` is ``"4453"``."""
    return "".join(str(column + 1) for column in moves)


def columns_of(digits: str) -> tuple[int, ...]:
    """1-based column digits as 0-based columns, unchecked: ``Position.from_moves`` says which move is bad."""
    return tuple(int(digit) - 1 for digit in digits)
