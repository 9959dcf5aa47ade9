"""One value per position: what is proven about a position anywhere in an analysis, shown everywhere.

A game's analysis proves things about each position in two places: its own columns (the best
one bounds its value) and the row before it (the column played there is minus its value). Its
value can also come from the shipped table or the cache. These facts flow both ways:

* a child's value settles its parent's column, and that column's value its parent's, move by
  move back to the start (``reconcile``);
* a parent's value bounds every column from above (no move is better than the position), and
  when only one column can still reach the parent's floor, it holds that floor: the 1212121
  case, where every other column loses at once, so the last one *is* the win the table knows;
* where a position's exact value is known but no column shows it, a null-window test of the
  open columns against that value finds the one that does (``show_known_value``): the C
  solver's floor argument, or the Python search's proof, answers just "is it this value?".

Ranges only ever narrow, so the fixed point is reached after a few passes; an estimate stays on
a column only while its outcome is open, never stands for a value that is known, and reaches
every ply its position's value shows on.
"""

from __future__ import annotations

from collections.abc import Sequence

from connectx.agents.core.position import Position
from connectx.analysis.cached_solver import CachedSolver
from connectx.solver.score_range import ScoreRange, best_of

Values = tuple[ScoreRange | None, ...]


def narrow(value: ScoreRange, proven: ScoreRange) -> ScoreRange:
    """``value`` with ``proven`` added, its estimate kept while the outcome is still open."""
    narrowed = value.intersect(proven)
    return narrowed.estimated(value.estimate, value.depth) if value.estimate is not None else narrowed


def value_of(values: Values, known: ScoreRange | None) -> ScoreRange:
    """A position's value from its columns (the best one's range) and what is ``known`` of it elsewhere; of
    two estimates, the deeper search's."""
    best = best_of([value for value in values if value is not None])
    if known is None:
        return best
    combined = best.intersect(known)
    guess = deeper(best, known)
    return combined.estimated(guess.estimate, guess.depth) if guess.estimate is not None else combined


def deeper(first: ScoreRange, second: ScoreRange) -> ScoreRange:
    """Of two values of one position, the one whose estimate comes from the deeper search (either if neither)."""
    if second.estimate is not None and (first.estimate is None or second.depth > first.depth):
        return second
    return first


def bound_columns(values: Values, value: ScoreRange) -> Values:
    """The columns as the position's ``value`` bounds them: none above its ceiling, and the floor on the
    one column that can still reach it when every other is proven below it."""
    capped = [
        None if column is None else narrow(column, ScoreRange(column.lower, min(column.upper, value.upper)))
        for column in values
    ]
    reaching = [index for index, column in enumerate(capped) if column is not None and column.upper >= value.lower]
    if len(reaching) == 1:
        (index,) = reaching
        column = capped[index]
        assert column is not None
        capped[index] = narrow(column, ScoreRange(value.lower, column.upper))
    return tuple(capped)


def reconcile(rows: Sequence[tuple[Values, ScoreRange | None, int]]) -> list[tuple[Values, ScoreRange]]:
    """Consecutive plies' ``(values, known, column played)`` made to agree: each position's value, and each
    column, narrowed by everything the others prove, to the fixed point; each ply's values and value.

    Rows are consecutive positions of one game: the column played in one leads to the next.
    """
    values = [row[0] for row in rows]
    known: list[ScoreRange | None] = [row[1] for row in rows]
    played = [row[2] for row in rows]
    changed = True
    while changed:
        changed = False
        for index in range(len(values)):
            value = value_of(values[index], known[index])
            if index > 0:
                before = values[index - 1][played[index - 1]]
                assert before is not None, "the column played was playable"
                # The move that led here is worth minus this position: one range, and one estimate (the deeper).
                guess = deeper(value, before.negated())
                value = value.intersect(before.negated())
                if guess.estimate is not None:
                    value = value.estimated(guess.estimate, guess.depth)
                settled = narrow(value.negated(), before)
                changed |= _differs(settled, before)
                values[index - 1] = _replaced(values[index - 1], played[index - 1], settled)
            bounded = bound_columns(values[index], value)
            previous = known[index]
            changed |= bounded != values[index] or previous is None or _differs(previous, value)
            values[index], known[index] = bounded, value
    return [(row, value_of(row, value)) for row, value in zip(values, known, strict=True)]


def show_known_value(
    position: Position,
    moves: str | None,
    values: Values,
    value: ScoreRange,
    engine: CachedSolver,
    limit: float,
    deadline: float,
) -> Values:
    """``values`` with a column proven to hold the position's exact ``value`` when none shows it yet: the
    columns that may (centre first) are tested against that score alone until one shows it or a test ends
    without an exact score (``deadline`` cut it, or had passed), each test kept in the cache under ``limit``.

    Stopping on what a test found rather than on the clock asks the same tests again when the cache
    answers them at once: a repeated analysis finds them all kept.
    """
    if not value.exact or any(column is not None and column == value for column in values):
        return values
    assert value.score is not None
    for index in position.geometry.centre_order:
        column = values[index]
        if column is None or column.upper < value.score:
            continue
        child = position.play(index)
        # The column is at most the position's value, so the child is at least minus it: the search only
        # has to answer whether the child is exactly that (the C solver's floor at -score is that test).
        child_range = ScoreRange(-value.score, -column.lower)
        proven = engine.bound(
            child, moves + str(index + 1) if moves is not None else None, limit, child_range, deadline
        )
        values = _replaced(values, index, narrow(column, proven.negated()))
        if proven.score == -value.score or not proven.exact:  # shown, or out of time
            break
    return values


def _differs(first: ScoreRange, second: ScoreRange) -> bool:
    """Whether two values differ in their range or their estimate (``==`` compares ranges only).

    The loop above ends: ranges only narrow, and an estimate only gives way to a deeper search's or,
    at equal depth, to the one its position's columns show, which flows back one ply a pass.
    """
    return first != second or (first.estimate, first.depth) != (second.estimate, second.depth)


def _replaced(values: Values, index: int, value: ScoreRange) -> Values:
    return tuple(value if place == index else old for place, old in enumerate(values))
