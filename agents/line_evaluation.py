"""A horizon evaluation for any board: open lines counted by length, threats weighed by row parity, zugzwang.

What decides a Connect-X game that a shallow search cannot see:

* **Open lines.** A window (``inarow`` cells in a line) that holds none of the opponent's stones
  can still become a line; the more of the mover's stones it holds, the closer it is. Early in a
  game no search reaches a threat, and these counts are what tells a central, connected position
  from a scattered one.
* **Threats and zugzwang** (Allis 1988, generalised). A threat is an empty cell that would
  complete a line. When the board fills up and neither side may play under the other's threat,
  the player who must play beneath a threat hands it over. With every other column full, the
  stone below a threat on row ``r`` (1-based from the bottom) is played after
  ``cells - rows + r - 2`` stones, so a threat is the first player's to keep when
  ``cells - rows + r`` is odd, the second player's when it is even: on 7x6 the first player's
  odd rows and the second player's even rows, as Allis has it, and the other way round on boards
  such as 8x7 where ``cells - rows`` is odd.
* **The lowest threat of a column** is the one that counts: its column fills up to it first, and
  whoever's threat it is, a threat above it is reached only after it is taken or blocked. So the
  lowest threat weighs most on its owner's parity, less on the other, and a threat above another
  (either side's) in its column weighs little. A threat the mover could play at once is left out:
  the mover will block it (the search never evaluates a position whose mover can win at once).
  Measured at 0.25 s a move: with a bonus for the side whose lowest threats alone sit on its
  parity, this beat counting every threat alike by 55-1-24 in 80 games on 8x7/4 and 9x7/4; then,
  on 8x7/4, the same without the bonus beat it 23-1-16 and a larger bonus lost 17-1-22, so there
  is none.
* **The fill-up game** (``agents.zugzwang``) plays the zugzwang out with every threat of both
  sides at once: who wins when the board fills up with the threats as they are. It weighs more
  than any single threat. On 654 exactly solved positions of 26 to 36 empty cells (7x7/4, 8x7/4,
  9x7/4, from benchmark games), the evaluation without it ranked 0.736 of the pairs of positions
  with different values in the right order, the fill-up game alone 0.765, and both 0.806. In play
  at 0.5 s a move, the evaluation with it beat the same without it 91-12-57 in 160 colour-swapped
  games from random 2-ply openings, 40 on each of 7x7/4, 8x7/4, 9x7/4 and 10x8/5 (0.606, Wilson
  95% [0.529, 0.679]; 0.76 on 8x7/4, 0.60 on 7x7/4, 0.54 on 9x7/4, 0.53 on 10x8/5).

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

from agents.position import Geometry
from agents.zugzwang import fill_up_game

LineEvaluation = Callable[[int, int, int, int, int], float]
"""``evaluate(current, mask, moves, threats, own) -> value`` for the side to move: ``threats`` are
the opponent's winning cells and ``own`` the mover's, both of which the search already knows
(``own`` is the parent's ``threats`` less the cell just played), so neither is computed again at
every leaf."""

LINE_WEIGHT_BASE = 4
"""A window with one more stone of a side counts this many times more (1, 4, 16, ...)."""

COUNTED_LENGTHS = 3
"""Window counts are kept for the longest this many lengths below a threat (``inarow - 2`` stones
down to ``inarow - 4``): shorter ones barely move the value and cost as much to count."""

GOOD_THREAT = 120
"""The lowest threat of its column on its owner's parity: worth several open lines of ``inarow - 2``."""

OTHER_THREAT = 24
"""The lowest threat of its column on the other parity: it still forces the opponent's play in its column."""

COVERED_THREAT = 8
"""A threat above another in its column: reached only once the lower one is taken or blocked."""

ZUGZWANG = 240
"""The fill-up game won (``agents.zugzwang``), or lost: more than any one threat, as it weighs them all."""


@dataclass(frozen=True)
class LineWeights:
    """What each feature is worth in raw units before the value is scaled into (-1, 1).

    ``lines[k]`` weighs an open window holding exactly ``k`` of a side's stones (0 for lengths
    not counted).
    """

    lines: tuple[int, ...]
    good_threat: int = GOOD_THREAT
    other_threat: int = OTHER_THREAT
    covered_threat: int = COVERED_THREAT
    zugzwang: int = ZUGZWANG


def line_weights(inarow: int) -> LineWeights:
    """The default weights for ``inarow``: ``LINE_WEIGHT_BASE ** (k - lowest)`` for the counted lengths."""
    lowest = max(1, inarow - 1 - COUNTED_LENGTHS)
    lines = tuple(LINE_WEIGHT_BASE ** (k - lowest) if lowest <= k <= inarow - 2 else 0 for k in range(inarow))
    return LineWeights(lines)


def first_player_rows(shape: Geometry) -> int:
    """The cells whose threats the first player keeps in a zugzwang (see the module docstring)."""
    rows = 0
    for row in range(shape.rows):  # 0-based row, so the docstring's r is row + 1
        if (shape.cells - shape.rows + row + 1) % 2 == 1:
            for bottom in shape.bottom_bits:
                rows |= bottom << row
    return rows


def raw_bound(shape: Geometry, weights: LineWeights) -> int:
    """More than the raw value can reach in magnitude, so dividing by it lands strictly inside (-1, 1)."""
    windows = len(shape.windows())
    threat = max(weights.good_threat, weights.other_threat, weights.covered_threat)
    return windows * max(weights.lines, default=0) + shape.cells * threat + weights.zugzwang + 1


def reference_value(shape: Geometry, current: int, mask: int, moves: int,
                    weights: LineWeights | None = None) -> float:
    """The evaluation counted window by window: the plain definition the compiled one must match."""
    weights = weights if weights is not None else line_weights(shape.inarow)
    opponent = current ^ mask
    raw = 0
    for window in shape.windows():
        for stones, other, sign in ((current, opponent, 1), (opponent, current, -1)):
            count = (window & stones).bit_count()
            if not window & other and count < shape.inarow:
                raw += sign * weights.lines[count]
    raw += _threat_value(shape, current, mask, moves, weights)
    fill_up = fill_up_game(shape)(shape.winning_cells(current, mask), shape.winning_cells(opponent, mask), mask, moves)
    raw += weights.zugzwang * fill_up
    return raw / raw_bound(shape, weights)


def _threat_value(shape: Geometry, current: int, mask: int, moves: int, weights: LineWeights) -> int:
    """The threats' part of ``reference_value``, column by column from the bottom."""
    first_rows = first_player_rows(shape)
    own_rows = first_rows if moves % 2 == 0 else shape.board_mask ^ first_rows
    playable = shape.possible(mask)
    mine = shape.winning_cells(current, mask) & ~playable
    theirs = shape.winning_cells(current ^ mask, mask) & ~playable
    raw = 0
    for column in shape.column_masks:
        cells = [bit for bit in (1 << index for index in range(column.bit_length())) if bit & column & (mine | theirs)]
        for place, cell in enumerate(cells):
            for stones, sign, parity in ((mine, 1, own_rows), (theirs, -1, shape.board_mask ^ own_rows)):
                if cell & stones:
                    weight = weights.covered_threat if place else \
                        weights.good_threat if cell & parity else weights.other_threat
                    raw += sign * weight
    return raw


@cache
def line_evaluator(shape: Geometry, weights: LineWeights | None = None) -> LineEvaluation:
    """The compiled evaluation for ``shape`` (see the module docstring and ``reference_value``)."""
    weights = weights if weights is not None else line_weights(shape.inarow)
    scale = 1.0 / raw_bound(shape, weights)
    first_rows = first_player_rows(shape)
    second_rows = shape.board_mask ^ first_rows
    open_lines = _compile_open_lines(shape, weights.lines)
    board, bottom = shape.board_mask, shape.bottom_mask
    good, other, covered = weights.good_threat, weights.other_threat, weights.covered_threat
    zugzwang, fill_up = weights.zugzwang, fill_up_game(shape)

    def evaluate(current: int, mask: int, moves: int, threats: int, own: int) -> float:
        own_rows, their_rows = (first_rows, second_rows) if moves % 2 == 0 else (second_rows, first_rows)
        unplayable = ~(mask + bottom)  # mask + bottom: the cell each column would take next
        mine = own & unplayable
        theirs = threats & unplayable
        either = mine | theirs
        # Adding a 1 to each column of either's complement carries up to that column's lowest
        # threat and stops there (a column without one carries into its empty sentinel bit).
        lowest = either & ((either ^ board) + bottom)
        my_lowest, their_lowest = mine & lowest, theirs & lowest
        my_good = (my_lowest & own_rows).bit_count()
        their_good = (their_lowest & their_rows).bit_count()
        raw = (open_lines(current, current ^ mask)
               + good * (my_good - their_good)
               + other * (my_lowest.bit_count() - my_good - their_lowest.bit_count() + their_good)
               + covered * ((mine & ~lowest).bit_count() - (theirs & ~lowest).bit_count())
               + zugzwang * fill_up(own, threats, mask, moves))
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
