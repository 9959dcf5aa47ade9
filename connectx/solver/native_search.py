"""Bound a connect-4 position's score before a deadline with the C solver (on the boards ``build.fits``).

The C search stops itself at its deadline (``native.NativeSolver.search``) and keeps its
transposition table, so one solver serves every position of a game, warm after the first. Each
search runs on a thread of the solver's own while the caller waits: the caller's thread stays
interruptible, and a Ctrl-C there stops the search (an engine's "stop", not a kill) before it
propagates.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor

from connectx.agents.core.position import Position
from connectx.agents.core.search_time import SearchLimit
from connectx.solver.native import NativeSolver
from connectx.solver.score_range import ScoreRange

TABLE_LOG2 = 19
"""Each solver's table: 2^19 entries of 8 bytes (4 MB; 16 bytes above 49 bitboard bits). Small on purpose: a
table that stays in the processor's caches makes each node several times cheaper, which outweighs the
extra nodes a small table costs, even on the hardest openings of the shared position files
(docs/benchmarks.md)."""


class NativeSearchSolver:
    """The C solver behind ``bound``, for one board (7x6 unless told; ``interface.make_solver`` checks that it
    plays it): ``python_search.PythonSolver``'s counterpart.

    ``max_nodes`` caps each search besides the deadline (a bound reproducible on any machine);
    ``calls`` counts the positions searched.
    """

    name = "native"
    fallback: str | None = None

    def __init__(
        self, table_log2: int = TABLE_LOG2, rows: int = 6, columns: int = 7, max_nodes: float = math.inf
    ) -> None:
        self.native = NativeSolver(table_log2, rows, columns)
        self.max_nodes = max_nodes
        self.calls = 0
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="c-solver")

    def bound(self, position: Position, moves: str, known: ScoreRange, deadline: float) -> ScoreRange:
        """The tightest range proven for ``position`` by ``deadline`` (a ``time.perf_counter`` instant).

        ``known`` is what is already proven; ``moves`` (its 1-based digits) is unused here.
        """
        self.calls += 1
        if known.exact:
            return known
        limit = SearchLimit(stop_at=deadline, max_nodes=self.max_nodes)
        running = self._thread.submit(self.native.search, position, limit, known)
        try:
            return running.result().range
        except BaseException:
            self.native.stop()  # interrupted: end the search, then let the interruption go on
            running.exception()
            self.native.resume()
            raise

    def stop(self) -> None:
        """End the search under way in another thread, and those after it: from now on ``bound`` answers
        what it is given (for a caller that is shutting down)."""
        self.native.stop()

    def close(self) -> None:
        self.native.stop()
        self._thread.shutdown()
        self.native.close()
