"""Static evaluations for the ``minimax`` agent, each scored for the side to move.

Every evaluation here is ``side(mine) - side(theirs)``, so swapping the sides negates it:

- ``window``: Sheoran et al. (2021), weights x (my windows - their windows) counted per number
  of stones (the incremental form lives in ``window_table``; ``window_score`` recounts it).
- ``h2``: Kang, Wang & Hu (2019) heuristic 2, a value per cell summed over a side's stones: the
  number of windows through the cell, which on 7x6 is exactly the paper's matrix
  (3 4 5 7 5 4 3 / 4 6 8 10 8 6 4 / 5 8 11 13 11 8 5, mirrored).
- ``h1``: Kang, Wang & Hu (2019) heuristic 1, features of connected stones (see ``h1``), each of
  its four features switchable (``H1_FEATURES``) for the paper's Tables 7 and 8.
"""

from __future__ import annotations

from functools import cache

from connectx.agents.core.position import Geometry
from connectx.agents.heuristics.window_table import count_windows, window_layout

H1_LINE = 10**10
"""Feature 1, a completed line: the paper's "infinity" (finite so sums stay comparable)."""
H1_OPEN_THREE = 10**9
"""Feature 2, inarow-1 connected with both extension cells playable now: also "infinity" in the paper."""
H1_HALF_OPEN_THREE = 900_000
"""Feature 2 with one extension cell playable now: the paper's value."""
H1_BROKEN_THREE = 900_000
"""Feature 2's special case (the paper's Figure 8, b1-c2-e4): inarow-1 stones of one side in a window
of inarow cells whose one empty cell lies inside it, not at an end; the paper gives it 900,000
("red's win can be stopped"), whether or not the empty cell is playable now."""
H1_OPEN_TWO = 50_000
"""Feature 3 (2 .. inarow-2 connected) with both extension cells playable now. Our value: the paper
orders the cases (both open > one open, more room better > none) without printing the numbers."""
H1_ROOM = 10_000
"""Feature 3 with one extension cell playable now: this much per empty cell of room on that side,
counting at most the cells the run still needs, so it stays below ``H1_OPEN_TWO``; 0 with none."""
H1_SINGLE = (200, 120, 70, 40)
"""Feature 4, an isolated stone, by distance from the centre column (centre first; further out
takes the last value). Our values, in the order the paper gives: d > c, e > b, f > a, g."""
H1_FEATURES = frozenset((1, 2, 3, 4))
"""H1's features by the paper's numbers: 1 a completed line, 2 inarow-1 connected (and the broken
three), 3 two up to inarow-2 connected, 4 an isolated stone. Tables 7 and 8 switch them off."""


def window_weights(inarow: int) -> tuple[int, ...]:
    """The paper's weights by stones in a window, index j = 0..inarow: 0, 1, 3, 9, 81 for inarow 4.

    Powers of 3 below a full window (3^(j-1)); a full window, a win, weighs 3^inarow (81 for 4).
    """
    return (0,) + tuple(3 ** (j - 1) for j in range(1, inarow)) + (3**inarow,)


def parse_window_weights(text: str) -> tuple[int, ...]:
    """Window weights for 1, 2, ... stones written ``1/3/9/81`` (slashes: spec values cannot hold commas)."""
    try:
        return tuple(int(part) for part in text.split("/"))
    except ValueError:
        raise ValueError(f"weights {text!r}: expected integers separated by '/', like 1/3/9/81") from None


def window_score(shape: Geometry, mine: int, theirs: int, weights: tuple[int, ...]) -> int:
    """The window evaluation counted from scratch (the reference the incremental table must match)."""
    own, other = count_windows(shape, mine, theirs), count_windows(shape, theirs, mine)
    return sum(weight * (own[j] - other[j]) for j, weight in enumerate(weights))


@cache
def cell_values(shape: Geometry) -> tuple[tuple[int, int], ...]:
    """``(value, cells)`` pairs: the cells through which exactly ``value`` windows pass."""
    groups: dict[int, int] = {}
    for cell, indices in window_layout(shape).through.items():
        groups[len(indices)] = groups.get(len(indices), 0) | cell
    return tuple(sorted(groups.items()))


def h2(shape: Geometry, mine: int, theirs: int) -> int:
    """Heuristic 2: the cell values under my stones minus those under theirs."""
    return sum(
        value * ((mine & cells).bit_count() - (theirs & cells).bit_count()) for value, cells in cell_values(shape)
    )


@cache
def _single_masks(shape: Geometry) -> tuple[tuple[int, int], ...]:
    """``(value, cells)`` pairs for feature 4: the columns at each distance from the centre."""
    centre = (shape.columns - 1) / 2
    groups: dict[int, int] = {}
    for column in range(shape.columns):
        value = H1_SINGLE[min(int(abs(column - centre)), len(H1_SINGLE) - 1)]
        groups[value] = groups.get(value, 0) | shape.column_masks[column]
    return tuple(sorted(groups.items()))


def _h1_side(shape: Geometry, stones: int, playable: int, empty: int, features: frozenset[int]) -> int:
    """Heuristic 1 for one side's ``stones``: the sum of the values of its ``features``.

    Runs are maximal lines of the side's stones along one direction. A run's extension cells are
    the cells just before and after it; "playable" means a stone could be dropped there now.
    Feature 2 includes its special case, the broken three (``H1_BROKEN_THREE``), as the paper does.
    """
    inarow = shape.inarow
    score = 0
    for direction in shape.directions:
        run = stones & ~(stones << direction)
        for length in range(1, inarow):
            exact = run & ~(stones >> (length * direction))
            run &= stones >> (length * direction)
            if length < 2 and inarow > 2 or not exact:
                continue
            after = exact & (playable >> (length * direction))
            before = exact & (playable << direction)
            both = (after & before).bit_count()
            if length == inarow - 1:
                if 2 in features:
                    score += H1_OPEN_THREE * both + H1_HALF_OPEN_THREE * (
                        after.bit_count() + before.bit_count() - 2 * both
                    )
                continue
            if 3 not in features:
                continue
            score += H1_OPEN_TWO * both
            open_both = after & before
            after ^= open_both
            before ^= open_both
            for step in range(1, inarow - length + 1):
                score += H1_ROOM * (after.bit_count() + before.bit_count())
                after &= empty >> ((length + step) * direction)
                before &= empty << ((step + 1) * direction)
        if 1 in features:
            score += H1_LINE * run.bit_count()
        if 2 in features and inarow > 2:
            score += H1_BROKEN_THREE * _broken_windows(stones, empty, direction, inarow)
    if 4 in features and inarow > 2:
        neighbours = 0
        for direction in shape.directions:
            neighbours |= (stones << direction) | (stones >> direction)
        isolated = stones & ~neighbours
        score += sum(value * (isolated & cells).bit_count() for value, cells in _single_masks(shape))
    return score


def _broken_windows(stones: int, empty: int, direction: int, inarow: int) -> int:
    """Windows along ``direction`` holding ``inarow - 1`` of ``stones`` and one empty cell inside them.

    A window is named by its first cell; its cells are that one and the next ``inarow - 1`` along
    ``direction``. Stones and empty cells are never on the sentinel row, so no window wraps.
    """
    count = 0
    for gap in range(1, inarow - 1):
        starts = empty >> (gap * direction)
        for step in range(inarow):
            if step != gap:
                starts &= stones >> (step * direction)
        count += starts.bit_count()
    return count


def h1(shape: Geometry, mine: int, theirs: int, features: frozenset[int] = H1_FEATURES) -> int:
    """Heuristic 1: my features minus theirs, counting only ``features`` (see ``_h1_side`` and the H1_* values)."""
    mask = mine | theirs
    playable = shape.possible(mask)
    empty = shape.board_mask ^ mask
    return _h1_side(shape, mine, playable, empty, features) - _h1_side(shape, theirs, playable, empty, features)


def parse_features(text: str) -> frozenset[int]:
    """H1's ``features`` parameter, digits of the features in use (``1234`` all, ``34`` features 3 and 4)."""
    digits = text.strip()
    if not digits or any(d not in "1234" for d in digits) or len(set(digits)) != len(digits):
        raise ValueError(
            f"features={text}: expected the digits of H1's features in use, each once, "
            "from 1234 (all four) to a single one, like 34"
        )
    return frozenset(int(d) for d in digits)
