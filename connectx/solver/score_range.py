"""A proven range of a score, in the convention of the benchmark position files.

A search stopped by its deadline still proves something (say, "at least a draw"); keeping the
range instead of a bare score is what lets an analysis show every bound it proved and still
decide that a move threw a win away when the exact scores are not known.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from connectx.agents.core.position import Geometry, Position
from connectx.agents.core.scores import win_score
from connectx.agents.heuristics.horizon_evaluation import threat_unit

LEANING_THREATS = 2
"""The balance of threats (the horizon evaluation's unit) a search's estimate must show to read as a likely
win or loss rather than balanced: one threat on the player's own row parity, which tends to decide the
fill-up game."""


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


@dataclass(frozen=True)
class ScoreRange:
    """The score lies in ``[lower, upper]``: positive wins (larger sooner), 0 draws, negative loses.

    Where the range does not settle the outcome, ``estimate`` may hold what a depth-limited search
    (``depth`` plies) thinks of it, strictly inside (-1, 1) for the same side: never a proof, so
    ranges compare, intersect and are cached without it.
    """

    lower: int
    upper: int
    estimate: float | None = field(default=None, compare=False)
    depth: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        if self.lower > self.upper:
            raise ValueError(f"empty score range [{self.lower}, {self.upper}]")

    @classmethod
    def exactly(cls, score: int) -> ScoreRange:
        return cls(score, score)

    @classmethod
    def possible(cls, position: Position) -> ScoreRange:
        """Every score a game still going on at ``position`` can end with (nothing proven yet)."""
        cells, moves = position.geometry.cells, position.moves
        return cls(-((cells - moves) // 2), (cells + 1 - moves) // 2)

    @property
    def exact(self) -> bool:
        return self.lower == self.upper

    @property
    def score(self) -> int | None:
        """The exact score, or None while only a range is proven."""
        return self.lower if self.exact else None

    @property
    def lowest_outcome(self) -> int:
        """The worst outcome proven possible: 1 a win, 0 a draw, -1 a loss."""
        return _sign(self.lower)

    @property
    def highest_outcome(self) -> int:
        """The best outcome still possible: 1 a win, 0 a draw, -1 a loss."""
        return _sign(self.upper)

    @property
    def outcome(self) -> int | None:
        """1 a win, 0 a draw, -1 a loss, once the range proves it; None while it does not."""
        return self.lowest_outcome if self.lowest_outcome == self.highest_outcome else None

    def negated(self) -> ScoreRange:
        """The same range seen by the opponent (a child's score is minus its parent's move score)."""
        estimate = -self.estimate if self.estimate is not None else None
        return ScoreRange(-self.upper, -self.lower, estimate, self.depth)

    def estimated(self, estimate: float, depth: int) -> ScoreRange:
        """This range with a search's ``estimate`` at ``depth`` plies, kept only while the outcome is open."""
        return self if self.outcome is not None else ScoreRange(self.lower, self.upper, estimate, depth)

    def narrowed(self, target: int, holds: bool) -> ScoreRange:
        """The range after proving that the score is (``holds``) or is not at least ``target``."""
        return ScoreRange(target, self.upper) if holds else ScoreRange(self.lower, target - 1)

    def contains(self, score: int) -> bool:
        return self.lower <= score <= self.upper

    def intersect(self, other: ScoreRange) -> ScoreRange:
        """Both ranges' proofs together (they are both true, so they overlap)."""
        return ScoreRange(max(self.lower, other.lower), min(self.upper, other.upper))


def describe(value: ScoreRange | None, shape: Geometry, moves: int, compact: bool = False) -> str:
    """A value for people, the one notation of every front; ``moves`` stones are on the board, the mover's view.

    "win in 3" (the mover's third move from here, this one included, completes a line), "draw",
    "loss in 2" (the opponent's second move from here does); where only a bound is proven, the
    best one ("win in <=5", "draw or win", "draw or loss"); where not even the outcome is, the
    search's estimate ("likely win, estimate at depth 8"). ``compact`` spells the same for a narrow
    label ("win 3", "<=draw", "~win d8"). None is a full column.
    """
    if value is None:
        return "full"
    win_now = win_score(shape, moves)  # the value of winning with this very stone
    lose_next = (shape.cells - moves) // 2  # minus the value of losing to the opponent's next stone
    if value.lower > 0:
        wins_by = win_now + 1 - value.lower
        return f"win {'' if compact else 'in '}{'' if value.exact else '<='}{wins_by}"
    if value.upper < 0:
        # The slowest loss the range allows: the opponent's n-th move wins, n = lose_next + 1 + value.
        loses_by = lose_next + 1 + value.upper
        return f"loss {'' if compact else 'in '}{'' if value.exact else '<='}{loses_by}"
    if value.exact:
        return "draw"
    if value.lower == 0:
        return ">=draw" if compact else "draw or win"
    if value.upper == 0:
        return "<=draw" if compact else "draw or loss"
    if value.estimate is None:
        return "open" if compact else "not proven yet"
    leaning_from = LEANING_THREATS * threat_unit(shape)
    leaning = "win" if value.estimate >= leaning_from else "loss" if value.estimate <= -leaning_from else "even"
    if compact:
        return f"~{leaning} d{value.depth}"
    return f"{'balanced' if leaning == 'even' else 'likely ' + leaning}, estimate at depth {value.depth}"


def best_of(ranges: list[ScoreRange]) -> ScoreRange:
    """The range of the best of several moves: the position's own score range (with the best estimate, if any)."""
    best = ScoreRange(max(r.lower for r in ranges), max(r.upper for r in ranges))
    estimated = [r for r in ranges if r.estimate is not None and r.upper >= best.lower]
    if not estimated:
        return best
    guess = max(estimated, key=lambda r: r.estimate if r.estimate is not None else -1.0)
    assert guess.estimate is not None
    return best.estimated(guess.estimate, guess.depth)
