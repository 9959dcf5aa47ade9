"""The static evaluation at the search horizon: who has the better threats, strictly inside (-1, 1).

A threat is an empty cell where a player would complete a line. Threats decide Connect-X
endgames, and the row a threat sits on matters (Allis' zugzwang rule): when the board fills up
column by column the first player gets the cells of odd rows counted from 1 at the bottom, the
second player those of even rows, so a threat on a player's own parity counts double.

The value stays strictly between -1 and 1, below every proven win (>= 1) and above every proven
loss (<= -1) of ``exact_search``'s score scale, so the depth-limited search can mix both.
"""

from __future__ import annotations

from collections.abc import Callable

from connectx.agents.core.position import Geometry

Evaluation = Callable[[int, int, int, int], float]
"""``evaluate(current, mask, moves, threats) -> value`` for the side to move (see ``evaluator``)."""


def threat_unit(shape: Geometry) -> float:
    """What one threat more than the opponent's is worth (a threat on the player's own row parity counts two):
    small enough that no balance of threats on ``shape`` reaches 1."""
    return 1.0 / (4 * shape.cells + 1)


def evaluator(shape: Geometry) -> Evaluation:
    """The horizon evaluation for ``shape``, with its row masks computed once.

    ``threats`` are the opponent's winning cells, which the search already knows.
    """
    winning_cells_of = shape.winning_cells_of
    first_player_rows = 0
    for row in range(0, shape.rows, 2):
        for bottom in shape.bottom_bits:
            first_player_rows |= bottom << row
    second_player_rows = shape.board_mask ^ first_player_rows
    scale = threat_unit(shape)

    def evaluate(current: int, mask: int, moves: int, threats: int) -> float:
        own_rows, their_rows = (
            (first_player_rows, second_player_rows) if moves % 2 == 0 else (second_player_rows, first_player_rows)
        )
        mine = winning_cells_of(current, mask)
        balance = (
            mine.bit_count() + (mine & own_rows).bit_count() - threats.bit_count() - (threats & their_rows).bit_count()
        )
        return balance * scale

    return evaluate
