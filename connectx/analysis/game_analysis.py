"""The analysis of a game: at every ply, the proven value of every column, and the moves that threw an outcome away.

Scores are the side to move's, in the benchmark files' convention (positive wins, larger sooner;
0 draws; negative loses). A column's value is minus the score of the position it leads to, so
each ply searches the positions one move ahead, each within a share of the ply's time limit; a
search the limit cuts short leaves the range it proved. The plies are searched in the order
they were played: the position a move reached is then already cached with the value found for
the column played, which narrows the next ply's value before any search (analysing from the
last ply back was measured no faster). Once every ply is searched, the whole game's values are
made to agree (``agreement``), and only then are the plies handed on. Each flagged move gets the
line that punishes it: best play for both sides from there, as far as the proofs reach. Every
question goes to the solver through one ``CachedSolver``, so the same analysis again searches
nothing.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from connectx.agents.core.position import Geometry, Position
from connectx.agents.core.scores import win_score
from connectx.analysis.agreement import bound_columns, reconcile, show_known_value, value_of
from connectx.analysis.cached_solver import CachedSolver
from connectx.analysis.games import Game
from connectx.analysis.solved_cache import Estimate, SolvedCache
from connectx.solver.interface import Solver, make_solver
from connectx.solver.score_range import ScoreRange, describe

DEFAULT_SECONDS = 3.0
"""The default time limit of one position (one ply): the searches of all its columns share it."""
LINE_PLIES = 8
"""The moves of a flagged move's punishing line shown at most."""
ESTIMATE_SECONDS = 0.05
"""Time of the depth-limited search that estimates a column whose outcome the proofs left open."""

Progress = Callable[[int, int], None]
"""``progress(plies_done, plies_total)``, called after each ply (a progress bar's update)."""


def open_columns(values: Sequence[ScoreRange | None], known: ScoreRange | None = None) -> tuple[int, ...]:
    """The playable columns that may still be best: none of them is proven worse than what the position is
    proven to reach (the best column's floor, or ``known``, the position's own value proven elsewhere)."""
    ranges = [value for value in values if value is not None]
    if not ranges:
        return ()
    floor = max(value.lower for value in ranges)
    if known is not None:
        floor = max(floor, known.lower)
    return tuple(column for column, value in enumerate(values) if value is not None and value.upper >= floor)


def best_columns(values: Sequence[ScoreRange | None], known: ScoreRange | None = None) -> tuple[int, ...]:
    """The columns proven best: each open column whose proven floor no other open column can beat.

    With exact scores these are the columns of the highest score. Where a search ran out of time,
    a column proven to lose is never called best while an unproven one might not lose: then no
    column is best, and ``open_columns`` says which are still in question.
    """
    candidates = open_columns(values, known)
    chosen = []
    for column in candidates:
        value = values[column]
        assert value is not None
        if all(
            value.lower >= rival.upper
            for other in candidates
            if other != column and (rival := values[other]) is not None
        ):
            chosen.append(column)
    return tuple(chosen)


@dataclass(frozen=True)
class PlyAnalysis:
    """The position before move ``ply`` (counted from 0), the ``column`` played there (0-based), and
    ``values``: the proven range of playing each column, the side to move's view, None for a full column.
    ``known`` is the position's own value as proven elsewhere (the book, an earlier analysis), which
    columns whose searches ran out of time may not show."""

    ply: int
    column: int
    values: tuple[ScoreRange | None, ...]
    known: ScoreRange | None = None
    line: tuple[int, ...] = ()
    """For a flagged move: the columns of best play for both sides after it, the opponent's first."""

    @property
    def ranges(self) -> list[ScoreRange]:
        """The values of the playable columns."""
        return [value for value in self.values if value is not None]

    @property
    def exact(self) -> bool:
        """Whether every playable column's score is exact."""
        return all(value.exact for value in self.ranges)

    @property
    def scores(self) -> tuple[int | None, ...]:
        """Every column's exact score; None for a full column or a score only bounded."""
        return tuple(value.score if value is not None else None for value in self.values)

    @property
    def before(self) -> ScoreRange:
        """The value of the position before the move: its best column's, narrowed by what was known of it."""
        return value_of(self.values, self.known)

    @property
    def after(self) -> ScoreRange:
        """The value of the move played (still the mover's view)."""
        value = self.values[self.column]
        assert value is not None, "the column played was playable"
        return value

    @property
    def open_columns(self) -> tuple[int, ...]:
        """The columns that may still be best on what is proven (see ``open_columns``)."""
        return open_columns(self.values, self.known)

    @property
    def best_columns(self) -> tuple[int, ...]:
        """The columns proven best (see ``best_columns``); empty while the proofs leave it open."""
        return best_columns(self.values, self.known)

    def describe_best(self, shape: Geometry) -> str:
        """The best columns for people, 1-based with their values (``4 (win in 3), 5 (win in 3)``), or the open ones."""
        best = self.best_columns
        if not best:
            return "not proven yet; still open: " + ", ".join(str(column + 1) for column in self.open_columns)
        return ", ".join(
            f"{column + 1} ({describe(value, shape, self.ply)})"
            for column in best
            if (value := self.values[column]) is not None
        )

    @property
    def changed_outcome(self) -> bool:
        """Whether the move provably lowered the outcome: a win thrown to a draw or a loss, a draw to a loss.

        With exact scores: the move's score has a lower sign than the best column's.
        """
        return self.after.highest_outcome < self.before.lowest_outcome

    def to_json(self) -> dict[str, Any]:
        """The ply as the ``--json`` schema gives it; ``bounds`` (``[lower, upper]`` per column) only when not exact."""
        data: dict[str, Any] = {
            "ply": self.ply,
            "column": self.column,
            "scores": list(self.scores),
            "exact": self.exact,
            "changed_outcome": self.changed_outcome,
            "best": list(self.best_columns),
            "open": list(self.open_columns),
        }
        if self.changed_outcome:
            data["line"] = list(self.line)
        if not self.exact:
            data["bounds"] = [[value.lower, value.upper] if value is not None else None for value in self.values]
            data["estimates"] = [
                [round(value.estimate, 3), value.depth] if value is not None and value.estimate is not None else None
                for value in self.values
            ]
        return data


@dataclass(frozen=True)
class GameAnalysis:
    """A game and the analysis of each of its plies, in order."""

    game: Game
    plies: tuple[PlyAnalysis, ...]

    @property
    def flagged(self) -> tuple[PlyAnalysis, ...]:
        """The plies whose move changed the outcome."""
        return tuple(ply for ply in self.plies if ply.changed_outcome)

    def to_json(self) -> dict[str, Any]:
        """``{"moves": "4453...", "config": {...}, "plies": [...]}``: the analysis for tools."""
        game = self.game
        return {"moves": game.digits, "config": game.board.to_kaggle(), "plies": [ply.to_json() for ply in self.plies]}


def analyze_game(
    game: Game,
    seconds: float = DEFAULT_SECONDS,
    solver: Solver | None = None,
    cache: SolvedCache | None = None,
    progress: Progress | None = None,
    first_ply: int = 0,
    on_ply: Callable[[PlyAnalysis], None] | None = None,
) -> GameAnalysis:
    """Every ply of ``game`` with every column's proven value, each position searched for at most ``seconds``.

    ``solver`` defaults to ``interface.make_solver`` for the board and ``cache`` to the persistent
    one in the user's cache directory; what this function creates, it closes. ``first_ply`` skips
    the plies before it (an opening not worth the time). ``progress`` hears of each ply searched;
    ``on_ply`` gets the plies in order once the whole game's values agree (after every ply is
    searched), each flagged one with its punishing line.
    """
    if not 0 <= first_ply <= len(game.moves):
        raise ValueError(f"first ply {first_ply}: the game has plies 0 to {len(game.moves) - 1}")
    engine = CachedSolver(
        solver if solver is not None else make_solver(game.board), cache if cache is not None else SolvedCache()
    )
    try:
        positions = game.positions()
        played = game.digits
        digits: list[str | None] = [played[:ply] for ply in range(len(positions))]
        plies: list[PlyAnalysis] = []
        for ply in range(first_ply, len(game.moves)):
            plies.append(_analyze_ply(positions[ply], ply, game.moves[ply], digits[ply], seconds, engine))
            if progress is not None:
                progress(len(plies), len(game.moves) - first_ply)
        plies = _agreed(plies, positions, digits, seconds, engine)
        for index, analysed in enumerate(plies):
            if analysed.changed_outcome:
                line = _punishing_line(positions[analysed.ply + 1], digits[analysed.ply + 1], seconds / 2, engine)
                plies[index] = analysed = replace(analysed, line=line)
            if on_ply is not None:
                on_ply(analysed)
    finally:
        if solver is None:
            engine.solver.close()
        if cache is None:
            engine.cache.close()
    return GameAnalysis(game, tuple(plies))


def position_value(position: Position, moves: str, seconds: float, solver: Solver, cache: SolvedCache) -> ScoreRange:
    """The position's own score (the side to move's): a finished game's at once, then the cache (the shipped
    exact scores included), then ``solver`` for up to ``seconds``; what it proves is cached."""
    return CachedSolver(solver, cache).bound(position, moves, seconds)


def column_values(
    position: Position,
    moves: str | None,
    seconds: float,
    solver: Solver,
    cache: SolvedCache,
    estimates: bool = True,
    on_value: Callable[[int, ScoreRange], None] | None = None,
) -> tuple[ScoreRange | None, ...]:
    """Every column's range (None for a full column): wins, losses to the opponent's next stone and full boards
    at once, then the cache, then (with ``estimates``) a quick search's estimate of each column left, then
    the solver within a share of ``seconds`` on those; ``on_value`` hears of each column's value every time
    it is settled or refined. What is found, estimates included, is cached.

    ``moves`` is the position as a move string (the C solver's input), None on a board of ten
    columns or more, where no such string exists.
    """
    return _column_values(position, moves, seconds, CachedSolver(solver, cache), estimates, on_value)


def _column_values(
    position: Position,
    moves: str | None,
    seconds: float,
    engine: CachedSolver,
    estimates: bool = True,
    on_value: Callable[[int, ScoreRange], None] | None = None,
) -> tuple[ScoreRange | None, ...]:
    values: list[ScoreRange | None] = [None] * position.geometry.columns

    def settle(column: int, value: ScoreRange) -> None:
        values[column] = value
        if on_value is not None:
            on_value(column, value)

    pending: list[tuple[int, Position]] = []
    for column in range(position.geometry.columns):
        if not position.can_play(column):
            continue
        if position.is_winning_move(column):
            settle(column, ScoreRange.exactly(win_score(position.geometry, position.moves)))
            continue
        child = position.play(column)
        if child.is_full():
            settle(column, ScoreRange.exactly(0))
            continue
        if child.winning_columns():  # the opponent wins with its next stone: no search needed to know it
            settle(column, ScoreRange.exactly(-win_score(position.geometry, child.moves)))
            continue
        settled = engine.settled(child, seconds)
        if settled is not None:
            settle(column, settled.negated())
            continue
        pending.append((column, child))
    guesses: dict[int, Estimate] = {}
    if estimates:  # first an estimate of every open column, so that something is shown at once
        for column, child in pending:
            known = engine.known(child)
            if known.outcome is None:
                guesses[column] = guess = engine.estimate(child, ESTIMATE_SECONDS)
                settle(column, known.negated().estimated(-guess.value, guess.depth))
    deadline = time.perf_counter() + seconds  # after the lookups: the first one may load the book's index
    for index, (column, child) in enumerate(pending):
        now = time.perf_counter()
        # Up to half of what is left (all of it for the last column): one hard column cannot starve
        # the others, and an easy one leaves its time to them. Equal shares were worse: the C
        # solver's worker is killed at a deadline, losing its table, and small shares made every
        # column of a middling position time out in turn, each from a cold table.
        share = now + max(0.0, deadline - now) / (1 if index == len(pending) - 1 else 2)
        proven = engine.bound(child, moves + str(column + 1) if moves is not None else None, seconds, deadline=share)
        first = guesses.get(column)
        settle(column, proven.negated() if first is None else proven.negated().estimated(-first.value, first.depth))
    cached = engine.cache.get(position)
    if cached is not None:  # the position's own value, known: it bounds every column, and some column shows it
        value = value_of(tuple(values), cached.range)
        agreed = bound_columns(tuple(values), value)
        agreed = show_known_value(position, moves, agreed, value_of(agreed, value), engine, seconds, deadline)
        for column, (old, new) in enumerate(zip(values, agreed, strict=True)):
            if new is not None and new != old:
                settle(column, new)
    for column, left_open in enumerate(values):  # columns the cache left open still get an estimate
        if estimates and left_open is not None and left_open.outcome is None and left_open.estimate is None:
            guess = engine.estimate(position.play(column), ESTIMATE_SECONDS)
            settle(column, left_open.estimated(-guess.value, guess.depth))
    return tuple(values)


def _punishing_line(
    position: Position, moves: str | None, seconds: float, engine: CachedSolver, plies: int = LINE_PLIES
) -> tuple[int, ...]:
    """Best play for both sides from ``position``: at each step a column proven best (the one nearest the
    centre), each position searched for up to ``seconds``, until the game ends, ``plies`` moves are
    shown, or the proofs no longer say which column is best."""
    line: list[int] = []
    while len(line) < plies and not position.is_over():
        best = best_columns(_column_values(position, moves, seconds, engine, estimates=False))
        if not best:
            break
        column = min(best, key=position.geometry.centre_order.index)
        line.append(column)
        position = position.play(column)
        moves = moves + str(column + 1) if moves is not None else None
    return tuple(line)


def _agreed(
    plies: list[PlyAnalysis],
    positions: Sequence[Position],
    digits: list[str | None],
    seconds: float,
    engine: CachedSolver,
) -> list[PlyAnalysis]:
    """The plies with one value per position (``agreement``): everything each proves narrows the others,
    then, where a position's value is known exactly and no column shows it, a null-window test finds the
    column that does, and what that proves flows again."""

    def reconciled(plies: list[PlyAnalysis]) -> list[PlyAnalysis]:
        rows = reconcile([(ply.values, ply.known, ply.column) for ply in plies])
        return [replace(ply, values=values, known=value) for ply, (values, value) in zip(plies, rows, strict=True)]

    agreed = reconciled(plies)
    for _ in range(2):  # test the columns that may show a known value, then agree on what the tests proved
        shown = [
            replace(
                ply,
                values=show_known_value(
                    positions[ply.ply],
                    digits[ply.ply],
                    ply.values,
                    ply.before,
                    engine,
                    seconds,
                    time.perf_counter() + seconds,
                ),
            )
            for ply in agreed
        ]
        if shown == agreed:
            break
        agreed = reconciled(shown)
    for ply in agreed:
        engine.record(positions[ply.ply], ply.before, seconds)
    return agreed


def _analyze_ply(
    position: Position, ply: int, played: int, moves: str | None, seconds: float, engine: CachedSolver
) -> PlyAnalysis:
    """One ply's column values, each searched (within a share of ``seconds``) unless the cache settles it.

    The position ``moves`` reached is cached with its value, so the ply before finds the value of
    the column played there without a search.
    """
    cached = engine.cache.get(position)
    known = cached.range if cached is not None else None
    analysis = PlyAnalysis(ply, played, _column_values(position, moves, seconds, engine), known)
    engine.record(position, analysis.before, seconds)
    return analysis
