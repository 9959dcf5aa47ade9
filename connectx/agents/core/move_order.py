"""The order in which the searches try moves: most winning cells created first, then centre first.

A move that creates many cells where the mover would complete a line tends to be strong, and
alpha-beta cuts soonest when the best move comes first (Pons' solver, part 9). Ties keep the
centre-first column order, since central stones take part in the most lines.
"""

from __future__ import annotations

from collections.abc import Callable

from connectx.agents.core.position import Geometry

ScoredMove = tuple[int, int, int]
"""``(winning cells created, move bit, the mover's winning cells after it)``."""


def centre_first_masks(shape: Geometry) -> tuple[int, ...]:
    """The column masks in centre-first order: the order candidate moves are scored in."""
    return tuple(shape.column_masks[column] for column in shape.centre_order)


def sorted_moves(
    winning_cells_of: Callable[[int, int], int], column_masks: tuple[int, ...], current: int, mask: int, candidates: int
) -> list[ScoredMove]:
    """The moves in ``candidates`` (one bit per column) best first, each with its winning cells.

    ``column_masks`` comes from ``centre_first_masks``. The winning cells are returned because
    they are exactly the threats the opponent faces in the child position, which the searches
    pass down instead of computing them again. Python's sort is stable, so equal counts stay
    centre first.
    """
    scored = []
    for column_mask in column_masks:
        move = candidates & column_mask
        if move:
            threats = winning_cells_of(current | move, mask | move)  # our winning cells once the stone is down
            scored.append((threats.bit_count(), move, threats))
    if len(scored) > 1:
        scored.sort(key=_threat_count, reverse=True)  # stable: equal counts keep centre-first order
    return scored


def _threat_count(scored: ScoredMove) -> int:
    return scored[0]
