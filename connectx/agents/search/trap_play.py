"""``solver`` once a position is proven lost or drawn: read the opponent, set the trap it likeliest falls into.

Each move (``choose``), after the solver has found its own move and proved its exact score:

1. the opponent's last move is weighed into the ``OpponentModel``, given the exact scores of
   the replies it had (kept from the last trap choice, else read from the opening's scores
   file, else proved now, within the observing limit; a move whose options are not known in
   time is skipped);
2. while the model still gives the players no trap can turn (perfect, or keeping its result) at
   least ``GATE`` of its weight, the solver's move is played: against a perfect, result-keeping
   or unknown opponent nothing changes. Since only a move below the best score lowers the
   perfect player's weight (``opponent_model``), a perfect opponent never opens the gate;
3. once it is open, ``trap_choice.choose_trap`` picks among the moves that keep the outcome,
   under the hypotheses holding at least ``RELEVANT`` of the posterior, falling back to the
   solver's move where the values are not known in time.

Time: observing takes what is left of the move's own time (the solver's search returns early
once it has the exact score, which is when any of this runs); the trap choice that and a slice
of the overage bank (``TRAP_OVERAGE_SHARE`` of it, ``MAX_TRAP_OVERAGE`` at most), drawn only
when a trap is being chosen. Under a node cap (reproducible games) every exact solve of both
gets the cap instead, and no clock is read.

Won positions are left to the solver as they are: nothing here can improve a proven win.

In the opening, where no search proves anything in time, ``opening_result`` gives the solver
the exact result the file knows (the book's move with the position's score, or off the book the
best column by its children's scores), so the model reads the opponent from the first move;
while the book answers, its move is played (``choose``'s ``booked``).
"""

from __future__ import annotations

from connectx.agents.core.opening_scores import OpeningScores
from connectx.agents.core.position import Position
from connectx.agents.core.search_result import SearchCounts, SearchResult
from connectx.agents.core.search_time import Deadline, SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.opponent_model import Hypothesis, OpponentModel, ReplyOptions
from connectx.agents.search.trap_choice import choose_trap, reply_options, with_horizon

GATE = 0.1
"""The trap is set only once the posterior of the players no trap can turn has fallen below this."""

TRAP_OVERAGE_SHARE = 0.1
"""Share of the remaining overage bank one trap choice may take."""

MAX_TRAP_OVERAGE = 2.0
"""Seconds of overage one trap choice may take at most: the bank must last the solver's own proofs too."""

RELEVANT = 0.01
"""Hypotheses with less of the posterior than this are left out of a trap choice (each horizon one costs searches)."""


class TrapPlay:
    """The opponent model of one game and the position it is to answer next, with what it may do there."""

    def __init__(
        self,
        model: OpponentModel | None = None,
        opening: OpeningScores | None = None,
        assumed: Hypothesis | None = None,
    ) -> None:
        self.model = model if model is not None else OpponentModel()
        self.opening = opening
        self.assumed = assumed
        """Set: the opponent is taken to be this kind from the first move, unread and with no gate (the ceiling
        the learned model is measured against, or the choice of a user who knows the opponent)."""
        self._after: Position | None = None
        self._options: ReplyOptions | None = None
        self.last_source = ""

    def reset(self) -> None:
        self.model.reset()
        self._after, self._options = None, None

    def played(self, position: Position, column: int) -> None:
        """Remember a move the solver made without this module (the book's), so the reply can be read."""
        self._after, self._options = position.play(column), None

    def reading(self) -> dict[str, str | float]:
        """What the model makes of the opponent so far, for the move's statistics: its likeliest kind, and the
        weight of the players no trap can turn (the trap is set once it is below ``GATE``)."""
        if self.assumed is not None:
            return {"opponent": str(self.assumed), "untrappable": 0.0}
        return {"opponent": str(self.model.likeliest()), "untrappable": round(self.model.untrappable_share(), 3)}

    def opening_result(self, position: Position, booked: int | None) -> SearchResult | None:
        """The exact result of ``position`` from the opening's scores: ``booked`` (the book's move) with the
        position's score, else the best column by its children's scores (centre first among equals); None
        where the file does not know enough."""
        if self.opening is None or position.is_over():
            return None
        if booked is not None:
            score = self.opening.score(position)
            return None if score is None else SearchResult((booked,), score, 0, exact=True, proven=True)
        best = self.opening.best(position)
        if best is None:
            return None
        return SearchResult((best[0],), best[1], 0, exact=True, proven=True)

    def choose(
        self,
        position: Position,
        today: SearchResult,
        table: TranspositionTable,
        deadline: Deadline,
        max_nodes: int | None = None,
        counts: SearchCounts | None = None,
        booked: bool = False,
    ) -> int:
        """The move to play in ``position``, where the solver's own search found ``today``.

        ``max_nodes`` caps each exact solve instead of the clock; ``counts`` gets the searches'
        nodes. ``last_source`` says what chose the move: ``trap`` when the trap replaced the solver's.
        ``booked``: ``today`` is the opening book's move, which is kept (the opponent is still read):
        the book follows no other move, and off it the pure-Python search cannot keep the longest
        loss, which costs more than any trap gains (``benchmarks/second_seat.py``, the ceiling).
        """
        self.last_source = ""
        column = today.column
        if not today.exact or today.score > 0:
            self.played(position, column)
            return column
        capped = SearchLimit(max_nodes=max_nodes) if max_nodes is not None else None
        if self.assumed is None:
            self._observe(position, table, capped or deadline.limit(), counts)
        options = None
        if not booked and (self.assumed is not None or self.model.untrappable_share() < GATE):
            limit = capped or deadline.extended(min(MAX_TRAP_OVERAGE, TRAP_OVERAGE_SHARE * deadline.overage)).limit()
            mixture = [(self.assumed, 1.0)] if self.assumed is not None else self.model.mixture(RELEVANT)
            choice = choose_trap(position, column, today.score == 0, mixture, table, limit, counts, self.opening)
            if choice.column != column:
                self.last_source = "trap"
            column, options = choice.column, choice.options
        self._after, self._options = position.play(column), options
        return column

    def _observe(
        self, position: Position, table: TranspositionTable, limit: SearchLimit, counts: SearchCounts | None
    ) -> None:
        """Weigh the opponent's move from ``_after`` to ``position`` into the model, if its options are known in time.

        A move is skipped when they are not (and when ``position`` does not follow ``_after``)."""
        after = self._after
        if after is None or after.is_over() or position.moves != after.moves + 1:
            return
        column = next((c for c in after.legal_columns() if after.play(c) == position), None)
        if column is None:
            return  # not the game we were playing
        depths = self.model.horizon_depths()
        known = self._options
        options = (
            reply_options(after, table, limit, depths, counts, self.opening)
            if known is None
            else with_horizon(after, known, depths, limit, counts)
        )
        if options is not None:
            self.model.observe(options, column)
