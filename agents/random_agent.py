"""``random``: a uniformly random legal column, reproducible under a seed."""

from __future__ import annotations

import random

from agents.kaggle_boundary import GuardedAgent
from agents.position import Position
from agents.search_time import Deadline


class RandomStrategy:
    """Picks uniformly among the legal columns with its own generator, never the global one."""

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, position: Position, deadline: Deadline) -> int:
        return self.rng.choice(sorted(position.legal_columns()))

    def reset(self) -> None:
        self.rng = random.Random(self.seed)


def make_agent(seed: int | None = None) -> GuardedAgent:
    """A random agent; the same seed plays the same game against the same opponent."""
    return GuardedAgent("random", RandomStrategy(seed))
