"""The one way the analysis asks about a position: the cache first, a search only for what it cannot answer.

A game's analysis, the page's and the terminal's column values and ``connectx solve`` all bound
positions and estimate them through a ``CachedSolver``. Each question is asked under a time
``limit`` (the analysis's per-position limit): the cache answers it when a search under the same
or a larger limit was made before (or the score is exact), the solver searches otherwise, and
what the search finds is kept under that limit, so the same analysis again searches nothing. A
caller that knows more than the cache (a null-window test's floor) asks a new question, and gets
a search.
"""

from __future__ import annotations

import time

from connectx.agents.core.position import Position
from connectx.agents.core.scores import finished_score
from connectx.agents.core.search_result import last_of
from connectx.agents.core.search_time import SearchLimit
from connectx.agents.search.anytime_search import iterative_deepening
from connectx.analysis.solved_cache import Estimate, SolvedCache
from connectx.solver.interface import Solver
from connectx.solver.score_range import ScoreRange

PROVEN_SIGN = 0.99
"""The largest estimate kept: the horizon evaluations lie strictly inside (-1, 1)."""


class CachedSolver:
    """``solver`` behind ``cache``: bounds and estimates answered from the cache where it can, searched and
    kept where it cannot. Cheap to make: it holds nothing but the two."""

    def __init__(self, solver: Solver, cache: SolvedCache) -> None:
        self.solver = solver
        self.cache = cache

    @property
    def name(self) -> str:
        """The solver's name (``"native"`` or ``"python"``)."""
        return self.solver.name

    def known(self, position: Position) -> ScoreRange:
        """Every score ``position`` may still have on what the cache (the shipped scores included) proves."""
        possible = ScoreRange.possible(position)
        cached = self.cache.get(position)
        return possible if cached is None else possible.intersect(cached.range)

    def settled(self, position: Position, limit: float) -> ScoreRange | None:
        """What the cache proves of ``position`` when a search under ``limit`` would add nothing (exact, or
        searched under as long a limit by as strong a solver), else None."""
        cached = self.cache.get(position)
        if cached is None or not cached.settles(limit, self.name):
            return None
        return ScoreRange.possible(position).intersect(cached.range)

    def bound(
        self,
        position: Position,
        moves: str | None,
        limit: float,
        known: ScoreRange | None = None,
        deadline: float | None = None,
    ) -> ScoreRange:
        """``position``'s score (the side to move's): a finished game's at once, the cache's where it settles
        the question at ``limit``, else the solver's search until ``deadline`` (``limit`` seconds from now
        unless given), kept under ``limit``.

        ``moves`` is the position as 1-based digits (the C solver's input; None where no such string
        exists). ``known`` is what the caller proved elsewhere; a floor above the cache's asks anew.
        """
        over = finished_score(position)
        if over is not None:
            return ScoreRange.exactly(over)
        possible = ScoreRange.possible(position)
        cached = self.cache.get(position)
        found = possible if cached is None else possible.intersect(cached.range)
        asked = found if known is None else found.intersect(known)
        # Only a higher floor is a new question (a null-window test's); a lower ceiling proven elsewhere is not.
        if cached is not None and cached.settles(limit, self.name) and asked.lower == found.lower:
            return asked
        stop = deadline if deadline is not None else time.perf_counter() + limit
        proven = asked
        if not asked.exact and time.perf_counter() < stop:
            proven = self.solver.bound(position, moves or "", asked, stop)
        # Kept under the limit even when the deadline was a share of it or had passed before the search:
        # the same analysis would do no better next time, and must be instant.
        self.cache.put(position, proven, limit, self.name)
        return proven

    def record(self, position: Position, value: ScoreRange, limit: float) -> None:
        """Keep ``value``, proven of ``position`` by other means (its columns, the game's agreement), as found
        under ``limit``."""
        self.cache.put(position, value, limit, self.name)

    def estimate(self, position: Position, seconds: float) -> Estimate:
        """A depth-limited search's view of ``position`` (not over), the side to move's: the cache's if one
        as long was kept, else a search of ``seconds``, kept."""
        kept = self.cache.estimate(position)
        if kept is not None and kept.seconds >= seconds:
            return kept
        found = search_estimate(position, seconds)
        self.cache.put_estimate(position, found)
        return found


def search_estimate(position: Position, seconds: float) -> Estimate:
    """Iterative deepening with the agents' horizon evaluation for ``seconds``: the deepest completed depth's
    value for the side to move, kept strictly inside (-1, 1)."""
    limit = SearchLimit(stop_at=time.perf_counter() + seconds)
    result = last_of(iterative_deepening(position, exact_limit=limit, heuristic_limit=limit))
    if result is None:
        return Estimate(0.0, 0, seconds)
    # A depth that reached the end of the game scores on the decided scale (>= 1): only its sign is kept.
    return Estimate(max(-PROVEN_SIGN, min(PROVEN_SIGN, result.score)), result.depth, seconds)
