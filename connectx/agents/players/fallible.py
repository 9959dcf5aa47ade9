"""``fallible``: the perfect player with the failures real ladder opponents have, each one a parameter.

The top of a ConnectX ladder plays nearly perfectly; what separates its agents is how and when
they go wrong. This agent is ``solver`` (the opening book, then proofs and the exact solve on the
clock: perfect play wherever it proves the result) with four ways to fail, each seeded:

- ``epsilon``: with this probability a move is a uniformly random legal column (a random error,
  the model of the research on second-seat conversion);
- ``book_plies``: from this ply on (stones on the board) it stops playing perfectly and answers
  with its depth-limited search only (a book that ends, with no solver behind it); ``0`` makes it
  a plain alpha-beta player of depth ``depth`` from the first move;
- ``lapse``: with this probability a move of the perfect phase is its depth-limited search's
  instead (a perfect player whose proof did not finish in time, so its fallback moved);
- ``margin``: thin-margin slips. Past the book it proves every column's exact score (as
  ``ties=random`` does) and plays column ``c`` with probability ``exp(-gap(c) / margin)``
  normalised over the legal columns, ``gap(c)`` being the best column's exact score less
  ``c``'s (``opponent_model.margin_probabilities``, the law the solver's opponent model
  weighs): a move one point worse than the best is ``exp(-1 / margin)`` times as likely as a
  best one, so it slips where the margin is thin and almost never where it is wide; equally
  scored columns share alike. Where the clock cuts the proofs short it plays the solver's move.

The depth-limited search is ``horizon_play.horizon_move``: alpha-beta to ``depth`` plies with
the threat evaluation at the horizon, deepened one ply at a time on the move's clock, so a short
clock (``time_budget``) makes it a time-limited search. Its mistakes are the horizon's: it takes
any win and blocks any threat it sees within ``depth`` plies, and misses zugzwang and the long
threat races the exact search proves.

The random numbers are drawn at every move, whatever is played, so a seed fixes which moves
fail independently of the clock: two for ``epsilon`` and ``lapse``, and with ``margin`` on a
third (drawn only then, so the other failures' seeded games stay as they were).

``ties=random`` is no failure but the reference the second-seat benchmark measures ``solver``
against: past the book it proves every column's exact score and plays one of the best at random
(the fastest win, else a draw, else the slowest loss, with no preference among equals), falling
back to the solver's move when the clock cuts the proofs short.
"""

from __future__ import annotations

import random

from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchCounts
from connectx.agents.core.search_time import Deadline
from connectx.agents.core.strategy import MoveStats
from connectx.agents.players.solver_agent import SolverStrategy
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES, column_scores
from connectx.agents.search.horizon_play import horizon_move
from connectx.agents.search.opponent_model import margin_probabilities

DEFAULT_DEPTH = 6
"""Plies of the depth-limited search: a few milliseconds a move on 7x6 in CPython."""

TIE_BREAKS = ("order", "random")
"""How the perfect phase picks among equally scored moves: the solver's move order, or at random."""


class FallibleStrategy:
    """The solver's moves, but for a seeded share of random moves and of depth-limited answers."""

    def __init__(
        self,
        epsilon: float,
        book_plies: int | None,
        lapse: float,
        depth: int,
        seed: int | None,
        time_budget: float | None,
        max_nodes: int | None,
        ties: str = "order",
        margin: float = 0.0,
    ) -> None:
        for name, value in (("epsilon", epsilon), ("lapse", lapse)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"fallible {name}={value}: expected a probability from 0 to 1")
        if book_plies is not None and book_plies < 0:
            raise ValueError(f"fallible book_plies={book_plies}: expected a ply count of 0 or more, or none")
        if not 1 <= depth <= MAX_SEARCH_PLIES:
            raise ValueError(f"fallible depth={depth}: expected 1 to {MAX_SEARCH_PLIES} plies")
        if margin < 0:
            raise ValueError(f"fallible margin={margin}: expected a temperature of 0 (off) or more score points")
        if ties not in TIE_BREAKS:
            raise ValueError(f"fallible ties={ties}: expected {' or '.join(TIE_BREAKS)}")
        self.ties = ties
        self.margin = margin
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
        slip = self.rng.random() if self.margin > 0 else 0.0
        if errs:
            self.last_stats = {"nodes": 0, "depth": 0, "evaluations": 0, "source": "error"}
            return self.rng.choice(sorted(position.legal_columns()))
        past_book = self.book_plies is not None and position.moves >= self.book_plies
        perfect = self.perfect
        if past_book or lapses or perfect is None:
            return self._depth_limited(position, deadline, "lapse" if lapses and not past_book else "horizon")
        if self.margin > 0 and perfect.book_move(position) is None:
            column = self._margin_slip(perfect, position, deadline, slip)
            if column is not None:
                return column
        if self.ties == "random" and perfect.book_move(position) is None:
            column = self._random_best(perfect, position, deadline)
            if column is not None:
                return column
        column = perfect.choose(position, deadline)
        self.last_stats = perfect.last_stats
        return column

    def reset(self) -> None:
        self.rng = random.Random(self.seed)
        if self.perfect is not None:
            self.perfect.reset()

    def _random_best(self, perfect: SolverStrategy, position: Position, deadline: Deadline) -> int | None:
        """One of the columns with the best exact score, at random; None if the clock cut the proofs short."""
        counts = SearchCounts()
        scores = column_scores(position, perfect.table, deadline.limit(), counts)
        if scores is None:
            return None
        best = max(scores.values())
        self.last_stats = {
            "nodes": counts.nodes,
            "depth": position.geometry.cells - position.moves,
            "evaluations": 0,
            "source": "exact",
        }
        return self.rng.choice(sorted(column for column, score in scores.items() if score == best))

    def _margin_slip(self, perfect: SolverStrategy, position: Position, deadline: Deadline, slip: float) -> int | None:
        """The column the thin-margin law draws with ``slip`` (uniform in [0, 1)).

        None if the clock cut the proofs short (or the board is too big for them)."""
        counts = SearchCounts()
        scores = column_scores(position, perfect.table, deadline.limit(), counts)
        if scores is None:
            return None
        chances = margin_probabilities(scores, self.margin)
        columns = sorted(chances)
        column = columns[-1]
        for candidate in columns:  # the inverse of the cumulative distribution, columns left to right
            slip -= chances[candidate]
            if slip < 0:
                column = candidate
                break
        best = max(scores.values())
        self.last_stats = {
            "nodes": counts.nodes,
            "depth": position.geometry.cells - position.moves,
            "evaluations": 0,
            "source": "exact" if scores[column] == best else "margin",
        }
        return column

    def _depth_limited(self, position: Position, deadline: Deadline, source: str) -> int:
        """The deepest completed search up to ``depth`` plies (``horizon_move``)."""
        counts = SearchCounts()
        best, _ = horizon_move(position, self.depth, deadline.limit(), counts)
        self.last_stats = {
            "nodes": counts.nodes,
            "depth": best.depth,
            "evaluations": counts.evaluations,
            "source": source,
        }
        return best.column


def make_strategy(
    epsilon: float = 0.0,
    book_plies: int | None = None,
    lapse: float = 0.0,
    depth: int = DEFAULT_DEPTH,
    seed: int | None = None,
    time_budget: float | None = None,
    max_nodes: int | None = None,
    ties: str = "order",
    margin: float = 0.0,
) -> FallibleStrategy:
    """A fallible perfect player: ``solver`` with random errors, a book cut and lapses (module docstring).

    ``epsilon`` and ``lapse`` are probabilities per move; ``book_plies`` the ply from which only
    the depth-limited search plays (none: never); ``depth`` that search's plies. ``time_budget``
    and ``max_nodes`` are the solver's (seconds per move, nodes per move). ``ties=random`` breaks
    ties among exactly scored moves at random (the module docstring). ``margin`` is the
    temperature of thin-margin slips in score points (0: none; the module docstring gives the
    law). With all four failures off and ``ties=order`` it plays exactly as ``solver``.
    """
    return FallibleStrategy(epsilon, book_plies, lapse, depth, seed, time_budget, max_nodes, ties, margin)
