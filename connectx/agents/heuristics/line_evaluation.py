"""A horizon evaluation for any board: open lines counted by length, each column's lowest threat, zugzwang.

What decides a Connect-X game that a shallow search cannot see:

* **Open lines.** A window (``inarow`` cells in a line) that holds none of the opponent's stones
  can still become a line; the more of the mover's stones it holds, the closer it is. Early in a
  game no search reaches a threat, and these counts are what tells a central, connected position
  from a scattered one.
* **The lowest threat of each column.** A threat is an empty cell that would complete a line. A
  column fills up to its lowest threat first, and whoever's threat it is, a threat above it is
  reached only after it is taken or blocked, so only the lowest counts. A threat the mover could
  play at once is left out: the mover will block it (the search never evaluates a position whose
  mover can win at once).
* **The fill-up game** (``connectx.agents.heuristics.zugzwang``): who wins when the board fills up with every threat of
  both sides as it is now (Allis 1988, generalised). It weighs more than any one threat, and the
  row parity of the threats, which decides Connect Four endgames, is its part; in play the
  evaluation with it beats the same without it. A threat is not weighed again by its parity: with
  the fill-up game in, that would count parity twice.

How the weights were chosen: exactly solved leaf-like positions of 7x7/4 and 8x7/4
(``benchmarks/evaluation_ranking.py``, which measures how well the evaluation orders them and fits
the weights). An ordinal logistic regression of the outcome on the counts weighs the open lines
ten times more than the former weights did, a threat off its owner's parity no less than one on
it, and a covered threat at nothing or below; the weights here are the fit's, rounded, and they
were checked in play against the former ones (``benchmarks/open_board_before_after.py``). Off 4 in
a row the line weights follow the same rule (14, 28, 56 on 10x8/5), unmeasured there.

The value is from the side to move's view and strictly inside (-1, 1), below every proven win
and above every proven loss of the exact search's scale, so a depth-limited search can mix both.
The window counts are bit-sliced: for each direction the windows free of the opponent are one
mask, the stones in them are added as bit planes, and straight-line code is compiled once per
board size, as ``position`` compiles its winning-cell routine.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from connectx.agents.core.position import Geometry
from connectx.agents.heuristics.zugzwang import fill_up_game

LineEvaluation = Callable[[int, int, int, int, int], float]
"""``evaluate(current, mask, moves, threats, own) -> value`` for the side to move: ``threats`` are
the opponent's winning cells and ``own`` the mover's, both of which the search already knows
(``own`` is the parent's ``threats`` less the cell just played), so neither is computed again at
every leaf."""

SHORTEST_LINE_WEIGHT = 14
"""An open window with one stone of a side (the shortest length counted on a 4-in-a-row board)."""

LINE_WEIGHT_BASE = 2
"""A window with one more stone of a side counts this many times more (14, 28, ...)."""

COUNTED_LENGTHS = 3
"""Window counts are kept for the longest this many lengths below a threat (``inarow - 2`` stones
down to ``inarow - 4``): shorter ones barely move the value and cost as much to count."""

THREAT = 120
"""The lowest threat of its column: worth several open lines of ``inarow - 2``."""

ZUGZWANG = 240
"""The fill-up game won (``connectx.agents.heuristics.zugzwang``), or lost: more than any one threat, as it weighs
them all."""


@dataclass(frozen=True)
class LineWeights:
    """What each feature is worth in raw units before the value is scaled into (-1, 1).

    ``lines[k]`` weighs an open window holding exactly ``k`` of a side's stones (0 for lengths
    not counted).
    """

    lines: tuple[int, ...]
    threat: int = THREAT
    zugzwang: int = ZUGZWANG


def line_weights(inarow: int) -> LineWeights:
    """The default weights for ``inarow``: ``SHORTEST_LINE_WEIGHT * LINE_WEIGHT_BASE ** (k - lowest)`` for
    the counted lengths ``k``."""
    lowest = max(1, inarow - 1 - COUNTED_LENGTHS)
    lines = tuple(
        SHORTEST_LINE_WEIGHT * LINE_WEIGHT_BASE ** (k - lowest) if lowest <= k <= inarow - 2 else 0
        for k in range(inarow)
    )
    return LineWeights(lines)


def raw_bound(shape: Geometry, weights: LineWeights) -> int:
    """More than the raw value can reach in magnitude, so dividing by it lands strictly inside (-1, 1)."""
    windows = len(shape.windows())
    return windows * max(weights.lines, default=0) + shape.cells * weights.threat + weights.zugzwang + 1


def reference_value(shape: Geometry, current: int, mask: int, moves: int, weights: LineWeights | None = None) -> float:
    """The evaluation counted window by window: the plain definition the compiled one must match."""
    weights = weights if weights is not None else line_weights(shape.inarow)
    opponent = current ^ mask
    raw = 0
    for window in shape.windows():
        for stones, other, sign in ((current, opponent, 1), (opponent, current, -1)):
            count = (window & stones).bit_count()
            if not window & other and count < shape.inarow:
                raw += sign * weights.lines[count]
    raw += _threat_value(shape, current, mask, weights)
    fill_up = fill_up_game(shape)(shape.winning_cells(current, mask), shape.winning_cells(opponent, mask), mask, moves)
    raw += weights.zugzwang * fill_up
    return raw / raw_bound(shape, weights)


def _threat_value(shape: Geometry, current: int, mask: int, weights: LineWeights) -> int:
    """The threats' part of ``reference_value``: each column's lowest threat not playable at once."""
    playable = shape.possible(mask)
    mine = shape.winning_cells(current, mask) & ~playable
    theirs = shape.winning_cells(current ^ mask, mask) & ~playable
    raw = 0
    for column in shape.column_masks:
        cells = [bit for bit in (1 << index for index in range(column.bit_length())) if bit & column & (mine | theirs)]
        if cells:
            raw += weights.threat * (bool(cells[0] & mine) - bool(cells[0] & theirs))
    return raw


@cache
def line_evaluator(shape: Geometry, weights: LineWeights | None = None) -> LineEvaluation:
    """The compiled evaluation for ``shape`` (see the module docstring and ``reference_value``)."""
    weights = weights if weights is not None else line_weights(shape.inarow)
    scale = 1.0 / raw_bound(shape, weights)
    open_lines = _compile_open_lines(shape, weights.lines)
    board, bottom = shape.board_mask, shape.bottom_mask
    threat, zugzwang, fill_up = weights.threat, weights.zugzwang, fill_up_game(shape)

    def evaluate(current: int, mask: int, moves: int, threats: int, own: int) -> float:
        unplayable = ~(mask + bottom)  # mask + bottom: the cell each column would take next
        mine = own & unplayable
        theirs = threats & unplayable
        either = mine | theirs
        # Adding a 1 to each column of either's complement carries up to that column's lowest
        # threat and stops there (a column without one carries into its empty sentinel bit).
        lowest = either & ((either ^ board) + bottom)
        raw = (
            open_lines(current, current ^ mask)
            + threat * ((mine & lowest).bit_count() - (theirs & lowest).bit_count())
            + zugzwang * fill_up(own, threats, mask, moves)
        )
        return raw * scale

    return evaluate


def _compile_open_lines(shape: Geometry, lines: tuple[int, ...]) -> Callable[[int, int], int]:
    """``open_lines(mine, theirs)``: sum of ``lines[k]`` over my open windows minus theirs, compiled.

    For each direction ``d``, ``w`` marks the first cell of every window free of the other side
    (a window that would cross the sentinel row or leave the board includes a cell outside
    ``board_mask`` and drops out); the side's stones shifted by ``j * d`` for ``j < inarow`` are
    added into the bit planes ``c0, c1, ...``, so each window's stone count is read off the planes.
    """
    inarow, board = shape.inarow, shape.board_mask
    counted = [k for k in range(1, inarow) if lines[k]]
    if not counted:
        return lambda mine, theirs: 0
    # No window holds inarow stones of a side in a position the search evaluates (the game would be
    # over), so inarow - 1 is the largest count and this many bit planes hold it without overflow.
    planes = max(1, (inarow - 1).bit_length())
    code = ["def open_lines(mine, theirs):", "    total = 0"]
    for stones, other, sign in (("mine", "theirs", "+"), ("theirs", "mine", "-")):
        code.append(f"    free = {board} & ~{other}")
        for d in shape.directions:
            code.append("    w = free" + "".join(f" & (free >> {j * d})" for j in range(1, inarow)))
            code.append(f"    c0 = {stones} & w" + "".join(f"; c{i} = 0" for i in range(1, planes)))
            for j in range(1, inarow):
                code.append(f"    x = ({stones} >> {j * d}) & w")
                for i in range(planes - 1):
                    code.append(f"    carry = c{i} & x; c{i} ^= x; x = carry")
                code.append(f"    c{planes - 1} |= x")
            for k in counted:
                # c0, c1, ... lie inside w already: the planes spell the count k
                exact = " & ".join(f"c{i}" if k >> i & 1 else f"~c{i}" for i in range(planes))
                weight = "" if lines[k] == 1 else f"{lines[k]} * "
                code.append(f"    total {sign}= {weight}({exact}).bit_count()")
    code.append("    return total")
    namespace: dict[str, Callable[[int, int], int]] = {}
    exec("\n".join(code), namespace)
    return namespace["open_lines"]
