"""The window-count table of Sheoran et al. (2021), kept up to date one stone at a time.

A *window* is a line of ``inarow`` cells (``Geometry.windows``). The table has one row per
player (0 moves first, 1 second) and ``inarow + 1`` columns: ``rows[p][j]`` is how many windows
hold exactly j stones of player p and none of the other player. The paper recomputed these
counts by scanning the board at every leaf; here only the windows through the cell just played
change, so a search places and removes stones on one table instead of rescanning anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from connectx.agents.core.position import Geometry, Position


@dataclass(frozen=True)
class WindowLayout:
    """The windows of one board size and, for every cell bit, the windows passing through it."""

    windows: tuple[int, ...]
    through: dict[int, tuple[int, ...]]


@cache
def window_layout(shape: Geometry) -> WindowLayout:
    """The shared, cached windows of ``shape``."""
    windows = shape.windows()
    through: dict[int, list[int]] = {}
    for index, window in enumerate(windows):
        bits = window
        while bits:
            cell = bits & -bits
            through.setdefault(cell, []).append(index)
            bits ^= cell
    return WindowLayout(windows, {cell: tuple(indices) for cell, indices in through.items()})


def count_windows(shape: Geometry, mine: int, theirs: int) -> list[int]:
    """One table row from scratch: windows with j of ``mine`` and none of ``theirs``, j = 0..inarow."""
    row = [0] * (shape.inarow + 1)
    for window in window_layout(shape).windows:
        if not window & theirs:
            row[(window & mine).bit_count()] += 1
    return row


def player_stones(position: Position) -> tuple[int, int]:
    """``(stones of player 0, stones of player 1)``, player 0 being the one who moved first."""
    mover, other = position.current, position.current ^ position.mask
    return (mover, other) if position.moves % 2 == 0 else (other, mover)


class WindowTable:
    """The two-row window-count table of one search, updated by ``place`` and undone by ``remove``.

    Mutable on purpose: a search owns one table and walks it down and up the tree. ``stones``
    keeps, per player, how many of its stones each window holds.
    """

    __slots__ = ("layout", "stones", "rows")

    def __init__(self, position: Position) -> None:
        shape = position.geometry
        self.layout = window_layout(shape)
        pieces = player_stones(position)
        self.stones = [[(window & pieces[p]).bit_count() for window in self.layout.windows] for p in (0, 1)]
        self.rows = [count_windows(shape, pieces[p], pieces[1 - p]) for p in (0, 1)]

    def place(self, cell: int, player: int) -> None:
        """Record a stone of ``player`` (0 or 1) on the single-bit ``cell``."""
        own, other = self.stones[player], self.stones[1 - player]
        own_row, other_row = self.rows[player], self.rows[1 - player]
        for index in self.layout.through.get(cell, ()):
            had = own[index]
            own[index] = had + 1
            theirs = other[index]
            if not theirs:  # still only ours: it moves up one count in our row
                own_row[had] -= 1
                own_row[had + 1] += 1
                if not had:  # it was empty, counted in the other row's 0 as well
                    other_row[0] -= 1
            elif not had:  # the other player's window is now blocked: it no longer counts for them
                other_row[theirs] -= 1

    def remove(self, cell: int, player: int) -> None:
        """Undo ``place(cell, player)``."""
        own, other = self.stones[player], self.stones[1 - player]
        own_row, other_row = self.rows[player], self.rows[1 - player]
        for index in self.layout.through.get(cell, ()):
            had = own[index] - 1
            own[index] = had
            theirs = other[index]
            if not theirs:
                own_row[had + 1] -= 1
                own_row[had] += 1
                if not had:
                    other_row[0] += 1
            elif not had:
                other_row[theirs] += 1

    def score(self, player: int, weights: tuple[int, ...]) -> int:
        """sum_j weights[j] * (rows[player][j] - rows[other][j]): the paper's evaluation for ``player``."""
        own, other = self.rows[player], self.rows[1 - player]
        return sum(weight * (own[j] - other[j]) for j, weight in enumerate(weights))
