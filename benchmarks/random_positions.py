"""Positions from seeded random games, the speed benchmarks' common test set."""

from __future__ import annotations

import random
from collections.abc import Callable

from connectx.agents.core.position import Position


def random_positions(
    count: int, seed: int, plies_of: Callable[[int, random.Random], int], board: tuple[int, int, int] = (6, 7, 4)
) -> list[Position]:
    """``count`` positions on ``board`` (rows, columns, in a row), game ``i`` of ``plies_of(i, rng)`` random
    plies; games that end or leave the mover a win at once are dropped, since a search would answer
    those without searching."""
    rng = random.Random(seed)
    positions: list[Position] = []
    while len(positions) < count:
        position = Position.initial(*board)
        for _ in range(plies_of(len(positions), rng)):
            position = position.play(rng.choice(position.legal_columns()))
            if position.is_over() or position.winning_columns():
                break
        else:
            positions.append(position)
    return positions
