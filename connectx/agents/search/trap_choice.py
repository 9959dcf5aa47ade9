"""The trap: of the moves that keep a lost or drawn position's outcome, the one likeliest to turn the game.

A two-ply expectimax. For each candidate move it proves the exact score of every reply the
opponent then has (``reply_options``), asks each hypothesis of the opponent model how likely
each reply's score is, and values the candidate at the points we can expect after the reply:
1 where the reply leaves us winning, a half where it leaves a draw, 0 where we still lose,
weighted by the posterior. Two plies, because the gain is in the move after which the opponent
must find its one good reply, and every further ply multiplies the exact solves by the columns
(docs/agents.md says what was measured).

Which moves are candidates:

- drawn: only the moves that keep the draw (a draw is never thrown for a chance at a win);
- lost: every move but those that let the opponent win at once (while any other is left):
  every player the agent meets takes a win in one, so such a move only hastens the loss.

The candidate tried first is the caller's (today's move: the slowest loss, or the solver's
drawing move), and another replaces it only when it is worth strictly more, so a model that
sees no trap anywhere plays today's move. When ``limit`` runs out the choice is made among the
candidates valued by then, today's always among them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from connectx.agents.core.opening_scores import OpeningScores
from connectx.agents.core.position import Position
from connectx.agents.core.scores import finished_score
from connectx.agents.core.search_result import SearchCounts
from connectx.agents.core.search_time import SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.exact_search import column_scores
from connectx.agents.search.horizon_play import horizon_move
from connectx.agents.search.opponent_model import SEARCHING, Hypothesis, ReplyOptions

TIE = 1e-9
"""How much more a candidate must be worth than the best one before it to replace it (rounding, not value)."""


@dataclass(frozen=True)
class TrapChoice:
    """The column to play, every valued candidate's expected points, and the replies the chosen one allows.

    ``options`` is None when the chosen move ends the game (or nothing was valued).
    """

    column: int
    values: dict[int, float]
    options: ReplyOptions | None


def reply_options(
    after: Position,
    table: TranspositionTable,
    limit: SearchLimit,
    depths: Sequence[int] = (),
    counts: SearchCounts | None = None,
    opening: OpeningScores | None = None,
) -> ReplyOptions | None:
    """The exact score of each of the opponent's columns in ``after`` (not over), and the column its search
    plays at each of ``depths``; None if ``limit`` came first. The scores are read from ``opening`` (the
    opening's file) where it holds them all, else proved; ``counts`` gets the searches' nodes."""
    scores = opening.column_scores(after) if opening is not None else None
    if scores is None:
        scores = column_scores(after, table, limit, counts)
    if scores is None:
        return None
    return with_horizon(after, ReplyOptions(scores), depths, limit, counts)


def with_horizon(
    after: Position,
    options: ReplyOptions,
    depths: Sequence[int],
    limit: SearchLimit,
    counts: SearchCounts | None = None,
) -> ReplyOptions | None:
    """``options`` with the column of the search to each of ``depths`` it lacks; None if ``limit`` came first."""
    horizon = dict(options.horizon)
    for depth in depths:
        if depth in horizon:
            continue
        estimate, complete = horizon_move(after, depth, limit, counts)
        if not complete:
            return None
        horizon[depth] = estimate.column
    return ReplyOptions(options.scores, horizon)


def points_for_us(opponent_score: int) -> float:
    """Our points if the game goes on from a position whose exact score for the opponent is ``opponent_score``."""
    return 1.0 if opponent_score < 0 else 0.5 if opponent_score == 0 else 0.0


def expected_points(options: ReplyOptions, mixture: Sequence[tuple[Hypothesis, float]]) -> float:
    """Our expected points after the opponent's reply, under the posterior ``mixture``."""
    return sum(
        weight * chance * points_for_us(score)
        for hypothesis, weight in mixture
        for score, chance in hypothesis.score_probabilities(options).items()
    )


def candidates(position: Position, today: int, drawn: bool) -> list[int]:
    """The moves worth valuing, ``today`` first, the rest centre first (drawn: the draw is checked later)."""
    legal = position.legal_columns()
    safe = legal if drawn else (position.non_losing_columns() or legal)
    return [today] + [column for column in safe if column != today]


def choose_trap(
    position: Position,
    today: int,
    drawn: bool,
    mixture: Sequence[tuple[Hypothesis, float]],
    table: TranspositionTable,
    limit: SearchLimit,
    counts: SearchCounts | None = None,
    opening: OpeningScores | None = None,
) -> TrapChoice:
    """The candidate with the most expected points under ``mixture`` (module docstring); ``today`` on ties.

    ``drawn`` says the position's exact score is 0 (else it is lost). The hypotheses in ``mixture``
    that search (horizon, lapse) get their search's column for every candidate, so keep to the
    weighty ones.
    ``counts`` gets the searches' nodes; ``opening`` gives the opening's scores without a search.
    """
    depths = tuple(sorted({int(h.parameter) for h, _ in mixture if h.kind in SEARCHING}))
    values: dict[int, float] = {}
    known: dict[int, ReplyOptions | None] = {}
    for column in candidates(position, today, drawn):
        after = position.play(column)
        if after.is_over():
            over = finished_score(after)
            values[column] = points_for_us(-over if over is not None else 0)
            known[column] = None
            continue
        options = reply_options(after, table, limit, depths, counts, opening)
        if options is None:
            break  # out of time: choose among the candidates valued so far
        if drawn and options.best() != 0:
            continue  # this move loses the draw
        values[column] = expected_points(options, mixture)
        known[column] = options
    if not values:
        return TrapChoice(today, values, None)
    best = today if today in values else next(iter(values))
    for column, value in values.items():
        if value > values[best] + TIE:
            best = column
    return TrapChoice(best, values, known[best])
