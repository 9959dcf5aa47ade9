"""One score scale for every search: who wins, and how soon (Pons' convention, the scale of ``positions/``).

0 is a draw. Winning with the stone played when ``moves`` stones are on the board scores
``(cells + 1 - moves) // 2`` (one more than the winner's stones still unplayed then), so a sooner
win scores higher and the slowest possible win scores 1; a loss is the opponent's win, negated.
Every decided score is at least 1 in magnitude and at most ``(cells + 1) // 2``.

A search that scores undecided positions keeps the scale as it is when its evaluation stays
strictly inside (-1, 1) (the exact solver's horizon evaluation). A search whose evaluations are
larger numbers (the paper heuristics' window counts and features) moves every decided score out
by an offset above its largest evaluation (``beyond``): that keeps the order of decided scores,
and every win above every evaluation. The exact search's transposition table packs the scale into
one int per entry (``transposition_table``), which needs the bound ``max_score`` gives.
"""

from __future__ import annotations

from connectx.agents.core.position import Geometry, Position

DRAW = 0


def win_score(shape: Geometry, moves: int) -> int:
    """The score of winning with the stone played when ``moves`` stones are on the board."""
    return (shape.cells + 1 - moves) // 2


def loss_score(shape: Geometry, moves: int) -> int:
    """The score of the side to move, with ``moves`` stones on the board, when the opponent wins with its next stone."""
    return -win_score(shape, moves + 1)


def max_score(shape: Geometry) -> int:
    """The largest magnitude of any score on ``shape``: a win with the first stone."""
    return win_score(shape, 0)


def beyond(score: int, offset: int) -> int:
    """A decided ``score`` moved ``offset`` further from 0, for searches whose evaluations reach ``offset``."""
    return score + offset if score > 0 else score - offset


def finished_score(position: Position) -> int | None:
    """The mover's score in a game that is already over (lost or drawn), None if it goes on."""
    if position.is_won():
        return -win_score(position.geometry, position.moves - 1)
    if position.is_full():
        return DRAW
    return None
