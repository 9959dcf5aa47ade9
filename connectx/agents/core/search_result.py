"""What the searches report, and the one loop of iterative deepening they all use.

``SearchResult`` is one completed search: its best columns, their score on ``connectx.agents.core.scores``'
scale (or a search's offset form of it), the depth and nodes. ``deepen`` runs ever deeper
searches until a limit and yields each completed one, so a caller plays the last result it got
(sunfish's shape: the search yields, the caller owns the clock). ``SearchCounts`` adds up the
work of every search of a move, the one a limit cut short included.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from connectx.agents.core.search_time import NO_LIMIT, OutOfTime, SearchLimit


@dataclass(frozen=True)
class SearchResult:
    """The outcome of one completed search.

    ``columns`` are the best columns found, the preferred one first (``column``); a search that
    keeps ties lists them all. ``score`` is the value for the side to move: exact when ``exact``;
    a score ``column`` is proven to reach at least when ``proven`` (always so when exact);
    otherwise a depth-limited value. ``depth`` is the number of plies searched, ``nodes`` the
    positions this search entered.
    """

    columns: tuple[int, ...]
    score: float
    depth: int
    nodes: int = 0
    exact: bool = False
    proven: bool = False

    @property
    def column(self) -> int:
        """The column to play."""
        return self.columns[0]


@dataclass
class SearchCounts:
    """Nodes entered and static evaluations made, added up over every search of one move.

    Mutable on purpose: a strategy hands one to each search it starts, and a search cut short by
    its limit still adds what it did, so a move's statistics count all the work that chose it.
    """

    nodes: int = 0
    evaluations: int = 0


SearchAtDepth = Callable[[int, SearchResult | None], SearchResult | None]
"""``search(depth, previous)``: one depth, trying ``previous``' best move first; None when cut short."""


def deepen(search: SearchAtDepth, depths: Iterable[int], limit: SearchLimit = NO_LIMIT) -> Iterator[SearchResult]:
    """The result of every depth in ``depths`` that completes, shallowest first: iterative deepening.

    A depth the search's own limit cuts short (it returns None or raises ``OutOfTime``) ends the
    loop, and so does ``limit``'s clock passing before a deeper depth starts; the first depth
    always starts. The caller plays the last result it received, and may stop early (a proof).
    """
    previous: SearchResult | None = None
    for depth in depths:
        if previous is not None and limit.expired():
            return
        try:
            result = search(depth, previous)
        except OutOfTime:
            return
        if result is None:
            return
        yield result
        previous = result


def last_of(results: Iterable[SearchResult]) -> SearchResult | None:
    """The last of ``results`` (the deepest search that completed), None if there was none."""
    last = None
    for last in results:  # noqa: B007 (the loop runs the searches; the last one is the answer)
        pass
    return last
