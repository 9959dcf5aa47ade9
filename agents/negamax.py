"""``negamax``: the classic depth-limited negamax baseline, on the shared bitboard core.

It searches every move to a fixed depth, scores a win by how soon it comes, and at the horizon
counts the mover's stones next to its best playable cell, the same idea and strength class as
kaggle's built-in ``negamax`` but many times faster per node. Ties are broken by a seeded
generator so that a seed fixes the game.
"""

from __future__ import annotations

import random

from agents.kaggle_boundary import Deadline, GuardedAgent
from agents.position import Geometry, Position

WIN_BASE = 4
"""Added to every win score so that the slowest win still outranks the best horizon score (3)."""


def _adjacency(shape: Geometry, stones: int, cell: int) -> int:
    """How many of ``stones`` touch ``cell`` on the left, right or below."""
    neighbours = (cell << shape.height) | (cell >> shape.height) | (cell >> 1)
    return bin(stones & neighbours & shape.board_mask).count("1")


class NegamaxSearch:
    """Depth-limited negamax without pruning, counting the nodes it visits."""

    def __init__(self, depth: int, rng: random.Random) -> None:
        self.depth = depth
        self.rng = rng
        self.nodes = 0

    def best_move(self, position: Position) -> tuple[float, int]:
        """``(score, column)`` for the side to move; higher scores are better for it."""
        return self._negamax(position.geometry, position.current, position.mask, position.moves, self.depth)

    def _negamax(self, shape: Geometry, current: int, mask: int, moves: int, depth: int) -> tuple[float, int]:
        self.nodes += 1
        possible = shape.possible(mask)
        wins = shape.winning_cells(current, mask) & possible
        if wins:
            return WIN_BASE + (shape.cells + 1 - moves) // 2, shape.column_of(wins & -wins)
        if moves == shape.cells:
            return 0, -1
        best_score, best_columns = -float("inf"), []
        for column in range(shape.columns):
            move = possible & shape.column_masks[column]
            if not move:
                continue
            if depth <= 0 or moves + 1 == shape.cells:
                score: float = _adjacency(shape, current, move) if depth <= 0 else 0
            else:
                score = -self._negamax(shape, current ^ mask, mask | move, moves + 1, depth - 1)[0]
            if score > best_score:
                best_score, best_columns = score, [column]
            elif score == best_score:
                best_columns.append(column)
        return best_score, self.rng.choice(best_columns)


class NegamaxStrategy:
    def __init__(self, depth: int, seed: int | None) -> None:
        if depth < 1:
            raise ValueError(f"negamax depth {depth}: expected 1 or more")
        self.depth = depth
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, position: Position, deadline: Deadline) -> int:
        return NegamaxSearch(self.depth, self.rng).best_move(position)[1]

    def reset(self) -> None:
        self.rng = random.Random(self.seed)


def make_agent(depth: int = 4, seed: int | None = None) -> GuardedAgent:
    """The baseline negamax searching ``depth`` plies; a seed fixes how it breaks ties."""
    return GuardedAgent("negamax", NegamaxStrategy(depth, seed))
