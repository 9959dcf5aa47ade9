"""The depth-limited player's move: alpha-beta to a fixed depth with the threat evaluation, deepened on a clock.

One loop for two readers: ``fallible``'s horizon failures play it, and the opponent model's
horizon hypotheses predict it, so what the model expects of "a search of depth D" is exactly
what the benchmark's depth-D opponents do. It takes any win and blocks any threat within its
depth, and misses zugzwang and the long threat races only the exact search sees.
"""

from __future__ import annotations

from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchCounts
from connectx.agents.core.search_time import NO_LIMIT, SearchLimit
from connectx.agents.search.exact_search import Estimate, search_depth


def horizon_move(
    position: Position, depth: int, limit: SearchLimit = NO_LIMIT, counts: SearchCounts | None = None
) -> tuple[Estimate, bool]:
    """The deepest completed search of ``position`` up to ``depth`` plies, and whether it is the full answer.

    Depths 1, 2, ... ``depth``, each searching the previous best first, stopping early once a depth
    proves the result (deeper ones cannot change a proven win or loss). Depth 1 runs without a
    limit, so there is always a move; the flag is False when ``limit`` cut the deepening short,
    so the move is not what the full search to ``depth`` would play. ``position`` is not over.
    """
    best = search_depth(position, 1, counts=counts)
    assert best is not None  # depth 1 has no limit
    for next_depth in range(2, min(depth, position.geometry.cells - position.moves) + 1):
        if best.exact or abs(best.score) >= 1:
            break  # the game's end is in sight: deeper searches cannot change a proven result
        estimate = search_depth(position, next_depth, limit, best.column, counts)
        if estimate is None:
            return best, False
        best = estimate
    return best, True
