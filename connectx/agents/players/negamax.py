"""``negamax``: the classic depth-limited negamax baseline, on the shared bitboard core.

It searches every move to a fixed depth, scores a win by how soon it comes, and at the horizon
counts the mover's stones next to its best playable cell, the same idea and strength class as
kaggle's built-in ``negamax`` but many times faster per node. Ties are broken by a seeded
generator so that a seed fixes the game.

Scores are ``connectx.agents.core.scores``' scale moved out by ``WIN_OFFSET`` (``scores.beyond``). The depth is
reached by iterative deepening (``search_result.deepen``) on the move's clock: depth 1 always completes, and
the move of the deepest depth finished in time is played. On 7x6 depth 4 takes milliseconds, so
the clock only decides on wide boards (depth 4 over 25 columns is 400,000 nodes).
"""

from __future__ import annotations

import random
import time

from connectx.agents.core.position import Geometry, Position
from connectx.agents.core.scores import DRAW, beyond, win_score
from connectx.agents.core.search_result import SearchCounts, SearchResult, deepen, last_of
from connectx.agents.core.search_time import NO_LIMIT, Deadline, OutOfTime, SearchLimit, clock_check_mask
from connectx.agents.core.strategy import MoveStats
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES

WIN_OFFSET = 4
"""Added to every win's ``connectx.agents.core.scores`` value so that the slowest win outranks the best horizon
score (3)."""


def _adjacency(shape: Geometry, stones: int, cell: int) -> int:
    """How many of ``stones`` touch ``cell`` on the left, right or below."""
    neighbours = (cell << shape.height) | (cell >> shape.height) | (cell >> 1)  # a column right, left, a row down
    return bin(stones & neighbours & shape.board_mask).count("1")


class NegamaxSearch:
    """Depth-limited negamax without pruning, counting the nodes it visits, stopped by ``limit``.

    It recurses one frame per ply, so ``depth`` is at most ``MAX_SEARCH_PLIES``.
    """

    def __init__(self, depth: int, rng: random.Random, limit: SearchLimit = NO_LIMIT) -> None:
        if not 1 <= depth <= MAX_SEARCH_PLIES:
            raise ValueError(f"negamax depth {depth}: expected 1 to {MAX_SEARCH_PLIES}")
        self.depth = depth
        self.rng = rng
        self.limit = limit
        self.nodes = 0
        self.evaluations = 0
        self._check_mask = 0

    def best_move(self, position: Position) -> tuple[float, int] | None:
        """``(score, column)`` for the side to move (higher is better for it); None if the limit came first."""
        self._check_mask = clock_check_mask(position.geometry)
        try:
            return self._negamax(position.geometry, position.current, position.mask, position.moves, self.depth)
        except OutOfTime:
            return None

    def _negamax(self, shape: Geometry, current: int, mask: int, moves: int, depth: int) -> tuple[float, int]:
        self.nodes += 1
        if not self.nodes & self._check_mask and (
            time.perf_counter() >= self.limit.stop_at or self.nodes >= self.limit.max_nodes
        ):
            raise OutOfTime
        possible = shape.possible(mask)
        wins = shape.winning_cells(current, mask) & possible
        if wins:
            return beyond(win_score(shape, moves), WIN_OFFSET), shape.column_of(wins & -wins)
        if moves == shape.cells:
            return DRAW, -1
        best_score, best_columns = -float("inf"), []
        for column in range(shape.columns):
            move = possible & shape.column_masks[column]
            if not move:
                continue
            if depth <= 0 or moves + 1 == shape.cells:
                self.evaluations += depth <= 0
                score: float = _adjacency(shape, current, move) if depth <= 0 else 0
            else:
                score = -self._negamax(shape, current ^ mask, mask | move, moves + 1, depth - 1)[0]
            if score > best_score:
                best_score, best_columns = score, [column]
            elif score == best_score:
                best_columns.append(column)
        return best_score, self.rng.choice(best_columns)


class NegamaxStrategy:
    """Iterative deepening to ``depth`` within the move's time."""

    def __init__(self, depth: int, seed: int | None) -> None:
        if not 1 <= depth <= MAX_SEARCH_PLIES:
            raise ValueError(f"negamax depth {depth}: expected 1 or more, at most {MAX_SEARCH_PLIES}")
        self.depth = depth
        self.seed = seed
        self.rng = random.Random(seed)
        self.last_depth = 0
        self.time_budget: float | None = None
        self.last_stats: MoveStats = {}

    def choose(self, position: Position, deadline: Deadline) -> int:
        limit = deadline.limit()
        # One draw per move: every depth breaks ties with the same stream, so how many depths the
        # clock allows never shifts the tie-breaks of later moves.
        tie_seed = self.rng.getrandbits(64)
        counts = SearchCounts()

        def at_depth(depth: int, previous: SearchResult | None) -> SearchResult | None:
            search = NegamaxSearch(depth, random.Random(tie_seed), NO_LIMIT if previous is None else limit)
            found = search.best_move(position)
            counts.nodes += search.nodes
            counts.evaluations += search.evaluations
            return None if found is None else SearchResult((found[1],), found[0], depth, search.nodes)

        depths = range(1, min(self.depth, position.geometry.cells - position.moves) + 1)
        last = last_of(deepen(at_depth, depths, limit))
        self.last_depth = last.depth if last is not None else 0
        self.last_stats = {
            "nodes": counts.nodes,
            "depth": self.last_depth,
            "evaluations": counts.evaluations,
            "source": "search",
        }
        return last.column if last is not None else position.legal_columns()[0]

    def reset(self) -> None:
        self.rng = random.Random(self.seed)


def make_strategy(depth: int = 4, seed: int | None = None) -> NegamaxStrategy:
    """The baseline negamax searching up to ``depth`` plies within Kaggle's actTimeout (less the safety
    margin): depth 1 always, deeper depths while time is left. A seed fixes how it breaks ties."""
    return NegamaxStrategy(depth, seed)
