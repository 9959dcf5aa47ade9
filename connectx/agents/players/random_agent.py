"""``random``: a uniformly random legal column, reproducible under a seed."""

from __future__ import annotations

import random

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline
from connectx.agents.core.strategy import MoveStats


class RandomStrategy:
    """Picks uniformly among the legal columns with its own generator, never the global one."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.time_budget: float | None = None
        self.last_stats: MoveStats = {}

    def choose(self, position: Position, deadline: Deadline) -> int:
        self.last_stats = {"nodes": 0, "depth": 0, "evaluations": 0, "source": "random"}
        return self.rng.choice(sorted(position.legal_columns()))

    def reset(self) -> None:
        self.rng = random.Random(self.seed)


def make_strategy(seed: int | None = None) -> RandomStrategy:
    """A random agent; the same seed plays the same game against the same opponent."""
    return RandomStrategy(seed)
