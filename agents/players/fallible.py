"""``fallible``: the perfect player with the failures real ladder opponents have, each one a parameter.

The top of a ConnectX ladder plays nearly perfectly; what separates its agents is how and when
they go wrong. This agent is ``solver`` (the opening book, then proofs and the exact solve on the
clock: perfect play wherever it proves the result) with three ways to fail, each seeded:

- ``epsilon``: with this probability a move is a uniformly random legal column (a random error,
  the model of the research on second-seat conversion);
- ``book_plies``: from this ply on (stones on the board) it stops playing perfectly and answers
  with its depth-limited search only (a book that ends, with no solver behind it); ``0`` makes it
  a plain alpha-beta player of depth ``depth`` from the first move;
- ``lapse``: with this probability a move of the perfect phase is its depth-limited search's
  instead (a perfect player whose proof did not finish in time, so its fallback moved).

The depth-limited search is the solver's own: alpha-beta to ``depth`` plies with the threat
evaluation at the horizon, deepened one ply at a time on the move's clock, so a short clock
(``time_budget``) makes it a time-limited search. Its mistakes are the horizon's: it takes any
win and blocks any threat it sees within ``depth`` plies, and misses zugzwang and the long
threat races the exact search proves.

Both random numbers are drawn at every move, whatever is played, so a seed fixes which moves
fail independently of the clock.
"""

from __future__ import annotations

import random

from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchCounts
from connectx.agents.core.search_time import Deadline
from connectx.agents.core.strategy import MoveStats
from connectx.agents.players.solver_agent import SolverStrategy
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES, Estimate, search_depth

DEFAULT_DEPTH = 6
"""Plies of the depth-limited search: a few milliseconds a move on 7x6 in CPython."""


class FallibleStrategy:
    """The solver's moves, but for a seeded share of random moves and of depth-limited answers."""

    def __init__(self, epsilon: float, book_plies: int | None, lapse: float, depth: int, seed: int | None,
                 time_budget: float | None, max_nodes: int | None) -> None:
        for name, value in (("epsilon", epsilon), ("lapse", lapse)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"fallible {name}={value}: expected a probability from 0 to 1")
        if book_plies is not None and book_plies < 0:
            raise ValueError(f"fallible book_plies={book_plies}: expected a ply count of 0 or more, or none")
        if not 1 <= depth <= MAX_SEARCH_PLIES:
            raise ValueError(f"fallible depth={depth}: expected 1 to {MAX_SEARCH_PLIES} plies")
        self.epsilon = epsilon
        self.book_plies = book_plies
        self.lapse = lapse
        self.depth = depth
        self.seed = seed
        self.rng = random.Random(seed)
        self.time_budget = time_budget
        # Never consulted from ply 0 on: without it a plain alpha-beta player skips the book's loading (0.3 s).
        self.perfect = SolverStrategy(time_budget, max_nodes) if book_plies != 0 else None
        self.last_stats: MoveStats = {}

    def choose(self, position: Position, deadline: Deadline) -> int:
        errs, lapses = self.rng.random() < self.epsilon, self.rng.random() < self.lapse
        if errs:
            self.last_stats = {"nodes": 0, "depth": 0, "evaluations": 0, "source": "error"}
            return self.rng.choice(sorted(position.legal_columns()))
        past_book = self.book_plies is not None and position.moves >= self.book_plies
        if past_book or lapses or self.perfect is None:
            return self._depth_limited(position, deadline, "lapse" if lapses and not past_book else "horizon")
        column = self.perfect.choose(position, deadline)
        self.last_stats = self.perfect.last_stats
        return column

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
        if self.perfect is not None:
            self.perfect.reset()

    def _depth_limited(self, position: Position, deadline: Deadline, source: str) -> int:
        """The deepest completed search up to ``depth`` plies; depth 1 runs without a limit, so there is always one."""
        counts = SearchCounts()
        best: Estimate | None = search_depth(position, 1, counts=counts)
        limit = deadline.limit()
        for depth in range(2, min(self.depth, position.geometry.cells - position.moves) + 1):
            if best is None or best.exact or abs(best.score) >= 1:
                break  # the game's end is in sight: deeper searches cannot change a proven result
            estimate = search_depth(position, depth, limit, best.column, counts)
            if estimate is None:
                break
            best = estimate
        assert best is not None  # depth 1 has no limit
        self.last_stats = {"nodes": counts.nodes, "depth": best.depth, "evaluations": counts.evaluations,
                           "source": source}
        return best.column


def make_strategy(epsilon: float = 0.0, book_plies: int | None = None, lapse: float = 0.0,
                  depth: int = DEFAULT_DEPTH, seed: int | None = None, time_budget: float | None = None,
                  max_nodes: int | None = None) -> FallibleStrategy:
    """A fallible perfect player: ``solver`` with random errors, a book cut and lapses (module docstring).

    ``epsilon`` and ``lapse`` are probabilities per move; ``book_plies`` the ply from which only
    the depth-limited search plays (none: never); ``depth`` that search's plies. ``time_budget``
    and ``max_nodes`` are the solver's (seconds per move, nodes per move). With all three
    failures off it plays exactly as ``solver``.
    """
    return FallibleStrategy(epsilon, book_plies, lapse, depth, seed, time_budget, max_nodes)
