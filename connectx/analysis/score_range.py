"""A proven range of a score, in the convention of the benchmark position files.

A search stopped by its deadline still proves something (say, "at least a draw"); keeping the
range instead of a bare score is what lets an analysis show every bound it proved and still
decide that a move threw a win away when the exact scores are not known.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.core.position import Position


def _sign(value: int) -> int:
    return (value > 0) - (value < 0)


@dataclass(frozen=True)
class ScoreRange:
    """The score lies in ``[lower, upper]``: positive wins (larger sooner), 0 draws, negative loses."""

    lower: int
    upper: int

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
        return ScoreRange(-self.upper, -self.lower)

    def narrowed(self, target: int, holds: bool) -> ScoreRange:
        """The range after proving that the score is (``holds``) or is not at least ``target``."""
        return ScoreRange(target, self.upper) if holds else ScoreRange(self.lower, target - 1)

    def contains(self, score: int) -> bool:
        return self.lower <= score <= self.upper

    def intersect(self, other: ScoreRange) -> ScoreRange:
        """Both ranges' proofs together (they are both true, so they overlap)."""
        return ScoreRange(max(self.lower, other.lower), min(self.upper, other.upper))

    def describe(self) -> str:
        """Short text for people: ``win +3``, ``draw``, ``loss -2``, or the proven bound."""
        if self.exact:
            return "draw" if self.lower == 0 else f"win +{self.lower}" if self.lower > 0 else f"loss {self.lower}"
        if self.lower > 0:
            return f"win (>= +{self.lower})"
        if self.upper < 0:
            return f"loss (<= {self.upper})"
        if self.lower == 0:
            return "draw or win" if self.upper > 0 else "draw"
        if self.upper == 0:
            return "draw or loss"
        return "unknown"


def best_of(ranges: list[ScoreRange]) -> ScoreRange:
    """The range of the best of several moves: the position's own score range."""
    return ScoreRange(max(r.lower for r in ranges), max(r.upper for r in ranges))
