"""The fill-up game: who a Connect-X endgame falls to when the threats already on the board decide it.

A threat is an empty cell that completes a line for its owner. Whoever plays the cell directly
below an opponent's threat hands it over, so late in a game both sides fill the other cells and
the player who runs out of them first loses (Allis 1988: zugzwang). The odd/even threat rules
of Connect Four are this count on a 7x6 board; this module plays it out on any board, with the
threats of both sides fixed as they are now:

* an empty cell not directly below a threat is a **tempo move**. Only the parity of their number
  matters (a player can answer a tempo move with another), so they are pooled as one bit;
* a column with threats stands at its **critical cell**, the one below its lowest threat (its
  safe cells below that go into the pool). Playing the critical cell under an opponent's threat
  loses; under one's own threat it makes the opponent block, which spends two cells and opens
  the column up to its next threat (a way to change the pool's parity);
* a playable threat is taken by its owner, and blocked by the other side at once; two playable
  threats of the opponent lose.

The game is solved exactly by memoised negamax over (pool parity, the columns' critical cells,
side to move): there are few, as a position has a handful of threat columns at most, and the
memo keeps them from one evaluation to the next. Its value is +1 when the side to move wins it,
-1 when the opponent does, 0 when the board fills up with no threat taken. New threats made
while filling are not foreseen: this is a horizon evaluation, not a proof.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from connectx.agents.core.position import Geometry

FillUpGame = Callable[[int, int, int, int], int]
"""``value(mine, theirs, mask, moves)``: the fill-up game's value for the side to move (see ``fill_up_game``)."""

CACHE_LIMIT = 1 << 16
"""Solved (pool, columns, side) states kept per board size before the memo is emptied."""

ColumnState = tuple[int, tuple[tuple[int, int], ...]]
"""``(row, threats)``: the row the column is played at next, and its threats above as ``(row, owner)``
with owner bit 1 for the side to move at the root and bit 2 for the other side."""


@cache
def fill_up_game(shape: Geometry) -> FillUpGame:
    """The fill-up game's value for ``shape``: ``mine`` and ``theirs`` are each side's empty winning cells."""
    rows, height, cells = shape.rows, shape.height, shape.cells
    column_masks = shape.column_masks
    memo: dict[tuple[int, tuple[ColumnState, ...], int], int] = {}

    def value(mine: int, theirs: int, mask: int, moves: int) -> int:
        either = mine | theirs
        if not either:
            return 0
        columns = []
        reserved = 0  # empty cells at or above the critical cells: out of the pool
        rest = either
        while rest:
            column = column_masks[((rest & -rest).bit_length() - 1) // height]
            rest &= ~column
            base = (column & -column).bit_length() - 1
            filled = (mask & column).bit_count()
            threats = tuple(
                (row, (1 if mine >> (base + row) & 1 else 0) | (2 if theirs >> (base + row) & 1 else 0))
                for row in range(filled, rows)
                if either >> (base + row) & 1
            )
            start = max(filled, threats[0][0] - 1)
            reserved += rows - start
            columns.append((start, threats))
        if len(memo) >= CACHE_LIMIT:
            memo.clear()
        return fill(((cells - moves - reserved) & 1), tuple(columns), 1)

    def fill(pool: int, columns: tuple[ColumnState, ...], me: int) -> int:
        key = (pool, columns, me)
        known = memo.get(key)
        if known is not None:
            return known
        them = 3 ^ me
        blocks = []
        result = None
        for index, (row, threats) in enumerate(columns):
            owner = threats[0][1] if threats[0][0] == row else 0
            if owner & me:
                result = 1  # a playable threat of the mover's: taken
                break
            if owner:
                blocks.append(index)
        if result is None:
            if len(blocks) > 1:
                result = -1  # two of the opponent's threats to block at once
            elif blocks:
                result = -fill(*played(pool, columns, blocks[0]), them)
            else:
                result = -fill(0, columns, them) if pool else -2
                for index, (row, threats) in enumerate(columns):
                    if result == 1:
                        break
                    if threats[0][0] == row + 1 and threats[0][1] & them:
                        result = max(result, -1)  # hands the opponent its threat
                    else:
                        result = max(result, -fill(*played(pool, columns, index), them))
                if result == -2:
                    result = 0  # nothing left to play: the board is full and no threat was taken
        memo[key] = result
        return result

    def played(pool: int, columns: tuple[ColumnState, ...], index: int) -> tuple[int, tuple[ColumnState, ...]]:
        """The pool and columns once column ``index`` is played: it moves on to its next critical cell."""
        row, threats = columns[index]
        row += 1
        above = tuple(threat for threat in threats if threat[0] >= row)
        if not above:
            return pool ^ ((rows - row) & 1), columns[:index] + columns[index + 1 :]
        critical = max(row, above[0][0] - 1)
        return pool ^ ((critical - row) & 1), columns[:index] + ((critical, above),) + columns[index + 1 :]

    return value
