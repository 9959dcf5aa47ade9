"""How an opponent errs, learned from its own moves in the episode: a posterior over a few kinds of player.

Each ``Hypothesis`` is a law for the opponent's move in a position where the exact score of each
of its columns is known (``ReplyOptions``): a perfect player; one that keeps its result (the win,
the draw) but not its margin, as an agent that proves wins without seeking the fastest; one
that slips to a uniformly random column at some rate; one whose slips grow likelier as the gap
in exact score to the best move shrinks (``margin_probabilities``, the law ``fallible:margin`` plays); a depth-limited
search (``horizon_play.horizon_move``) that misses what lies past its depth; and a perfect
player that lapses into that search now and then (``fallible:lapse``). ``OpponentModel`` keeps
log-weights over them and adds the log-likelihood of every move it is shown.

Why the choices:

- A hypothesis gives a chance to each *score* the opponent may reach, not to each column:
  which of several equally scored columns a player picks says nothing about how it errs, and
  without this a deterministic hypothesis (the horizon search) would gain weight from every tie
  a perfect player breaks its way. With it, a move of the best score is likeliest under
  ``perfect`` (no law gives the best score more than it does), so against a perfect opponent the
  weight of ``perfect`` never falls: only a move below the best can lower it.
- Every law is mixed with ``FLOOR`` of a uniformly random column, so one surprising move never
  drives every hypothesis to zero, and no weight is ever minus infinity.
- ``PERFECT_PRIOR`` of the prior is on ``perfect``, the rest shared evenly: the agent that reads
  this model behaves as if the opponent were perfect until a mistake is seen. What it asks is
  ``untrappable_share``: the weight of the players no trap can turn (perfect, result-keeping),
  which stays at least the perfect player's, so a perfect opponent never lets it fall below
  ``PERFECT_PRIOR``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

PERFECT = "perfect"
RESULT = "result"
RANDOM = "random"
MARGIN = "margin"
HORIZON = "horizon"
LAPSE = "lapse"

UNTRAPPABLE = (PERFECT, RESULT)
"""The kinds that never give up their result, whatever we play: no trap can turn the game against them."""

SEARCHING = (HORIZON, LAPSE)
"""The kinds whose law needs the column a depth-limited search plays (``ReplyOptions.horizon``)."""

FLOOR = 0.01
"""The share of a uniformly random column mixed into every law."""

HORIZON_RATE = 0.05
"""How often a horizon hypothesis's player moves at random instead of playing its search's move."""

LAPSE_RATE = 0.1
"""How often a lapse hypothesis's perfect player plays its depth-limited search's move instead."""

PERFECT_PRIOR = 0.5
"""The prior weight of ``perfect``; the other hypotheses share the rest evenly."""


@dataclass(frozen=True)
class ReplyOptions:
    """What the opponent could do in one position: each column's exact score for it (Pons' scale),
    and for some depths the column its depth-limited search plays there."""

    scores: Mapping[int, int]
    horizon: Mapping[int, int] = field(default_factory=dict)

    def best(self) -> int:
        """The best score the opponent can reach."""
        return max(self.scores.values())


def _result(score: int) -> int:
    """1 for a win, 0 for a draw, -1 for a loss: the result a score stands for, whatever its margin."""
    return (score > 0) - (score < 0)


def margin_probabilities(scores: Mapping[int, int], temperature: float) -> dict[int, float]:
    """The thin-margin law: each column's chance, ``exp(-gap / temperature)`` normalised over the columns.

    ``gap`` is the best column's exact score less this column's (0 for every best column, so ties
    share alike). A slip to a column one point worse is ``exp(-1 / temperature)`` times as likely
    as the best move, one five points worse ``exp(-5 / temperature)`` times: the chance of a slip
    grows as the margin between the best move and the alternatives shrinks (a quantal response).
    """
    best = max(scores.values())
    weights = {column: math.exp(-(best - score) / temperature) for column, score in scores.items()}
    total = sum(weights.values())
    return {column: weight / total for column, weight in weights.items()}


@dataclass(frozen=True)
class Hypothesis:
    """One way an opponent may play: ``kind`` and its ``parameter`` (a rate, a temperature or a depth).

    ``str`` gives ``kind:parameter`` (``random:0.1``; ``perfect`` and ``result`` alone, having no
    parameter), the form move statistics record.
    """

    kind: str
    parameter: float = 0.0
    """``random``: the rate of slips; ``margin``: the temperature; ``horizon`` and ``lapse``: the depth."""

    def __str__(self) -> str:
        return self.kind if self.kind in UNTRAPPABLE else f"{self.kind}:{self.parameter:g}"

    def column_probabilities(self, options: ReplyOptions) -> dict[int, float]:
        """The chance of each column under this law alone (without ``FLOOR``)."""
        scores = options.scores
        uniform = 1.0 / len(scores)
        if self.kind == MARGIN:
            return margin_probabilities(scores, self.parameter)
        if self.kind == HORIZON:
            chosen = options.horizon[int(self.parameter)]
            return {column: (1 - HORIZON_RATE) * (column == chosen) + HORIZON_RATE * uniform for column in scores}
        best = options.best()
        if self.kind == RESULT:
            result = [column for column, score in scores.items() if _result(score) == _result(best)]
            return {column: (column in result) / len(result) for column in scores}
        tied = sum(score == best for score in scores.values())
        perfect = {column: (score == best) / tied for column, score in scores.items()}
        if self.kind == LAPSE:
            chosen = options.horizon[int(self.parameter)]
            return {
                column: (1 - LAPSE_RATE) * chance + LAPSE_RATE * (column == chosen)
                for column, chance in perfect.items()
            }
        rate = self.parameter if self.kind == RANDOM else 0.0
        return {column: (1 - rate) * chance + rate * uniform for column, chance in perfect.items()}

    def score_probabilities(self, options: ReplyOptions) -> dict[int, float]:
        """The chance that the opponent's move reaches each score, ``FLOOR`` of a random column mixed in."""
        uniform = 1.0 / len(options.scores)
        chances: dict[int, float] = {}
        for column, chance in self.column_probabilities(options).items():
            score = options.scores[column]
            chances[score] = chances.get(score, 0.0) + (1 - FLOOR) * chance + FLOOR * uniform
        return chances


HYPOTHESES: tuple[Hypothesis, ...] = (
    Hypothesis(PERFECT),
    Hypothesis(RESULT),
    *(Hypothesis(RANDOM, rate) for rate in (0.03, 0.1, 0.3)),
    *(Hypothesis(MARGIN, temperature) for temperature in (0.5, 1.0, 2.0)),
    *(Hypothesis(HORIZON, depth) for depth in (4, 6, 8)),
    *(Hypothesis(LAPSE, depth) for depth in (6, 8)),
)
"""The grid the agent weighs: perfect; result-keeping; random slips at 3%, 10% and 30% of moves;
thin-margin slips at temperatures 0.5, 1 and 2 score points; depth-limited searches of 4, 6 and 8
plies; perfect play with a tenth of the moves from a search of 6 or 8 plies."""


KINDS = (PERFECT, RESULT, RANDOM, MARGIN, HORIZON, LAPSE)


def parse_hypothesis(text: str) -> Hypothesis:
    """``kind:parameter`` (as ``str(Hypothesis)`` writes it, ``random:0.1``) as a Hypothesis; ValueError naming
    the kinds for anything else."""
    kind, _, parameter = text.partition(":")
    try:
        value = float(parameter) if parameter else 0.0
    except ValueError:
        value = -1.0
    if (
        kind not in KINDS
        or (kind in UNTRAPPABLE) != (not parameter)
        or value < 0
        or (kind in SEARCHING and not value.is_integer())
    ):
        raise ValueError(
            f"opponent kind {text!r}: expected perfect, result, random:RATE, margin:TEMPERATURE, "
            "horizon:DEPTH or lapse:DEPTH (e.g. random:0.1)"
        )
    return Hypothesis(kind, value)


class OpponentModel:
    """Log-weights over ``hypotheses``, moved by each of the opponent's moves it is shown.

    The first hypothesis is the perfect player, with ``perfect_prior`` of the prior.
    """

    def __init__(self, hypotheses: Sequence[Hypothesis] = HYPOTHESES, perfect_prior: float = PERFECT_PRIOR) -> None:
        if not hypotheses or hypotheses[0].kind != PERFECT:
            raise ValueError("the opponent model's first hypothesis must be the perfect player")
        self.hypotheses = tuple(hypotheses)
        rest = (1 - perfect_prior) / max(1, len(self.hypotheses) - 1)
        self.prior = [math.log(perfect_prior)] + [math.log(rest)] * (len(self.hypotheses) - 1)
        self.log_weights = list(self.prior)
        self.observed = 0

    def reset(self) -> None:
        """Back to the prior: a new game, perhaps a new opponent."""
        self.log_weights = list(self.prior)
        self.observed = 0

    def horizon_depths(self) -> tuple[int, ...]:
        """The depths whose search's column ``observe`` needs in its options."""
        return tuple(sorted({int(h.parameter) for h in self.hypotheses if h.kind in SEARCHING}))

    def observe(self, options: ReplyOptions, column: int) -> None:
        """Weigh in that the opponent played ``column`` where it had ``options``."""
        score = options.scores[column]
        for index, hypothesis in enumerate(self.hypotheses):
            self.log_weights[index] += math.log(hypothesis.score_probabilities(options)[score])
        self.observed += 1

    def posterior(self) -> list[tuple[Hypothesis, float]]:
        """Every hypothesis with its posterior probability, in the model's order."""
        top = max(self.log_weights)
        weights = [math.exp(weight - top) for weight in self.log_weights]  # shifted by the largest: no underflow
        total = sum(weights)
        return [(hypothesis, weight / total) for hypothesis, weight in zip(self.hypotheses, weights, strict=True)]

    def perfect_share(self) -> float:
        """The posterior probability that the opponent plays perfectly."""
        return self.posterior()[0][1]

    def untrappable_share(self) -> float:
        """The posterior probability that the opponent never gives up its result (``UNTRAPPABLE``)."""
        return sum(weight for hypothesis, weight in self.posterior() if hypothesis.kind in UNTRAPPABLE)

    def likeliest(self) -> Hypothesis:
        """The hypothesis with the largest posterior weight."""
        return max(self.posterior(), key=lambda pair: pair[1])[0]

    def mixture(self, least: float) -> list[tuple[Hypothesis, float]]:
        """The hypotheses with at least ``least`` of the posterior, renormalised: what a choice weighs."""
        kept = [(hypothesis, weight) for hypothesis, weight in self.posterior() if weight >= least]
        total = sum(weight for _, weight in kept)
        return [(hypothesis, weight / total) for hypothesis, weight in kept]
