"""A match between two agents: colour-swapped pairs, shared openings, statistics and SPRT.

Games come in pairs: game ``2p`` has A moving first, game ``2p + 1`` has B moving first, both
from the same random opening of ``opening_plies`` moves, so neither the first-move advantage nor
a lopsided opening favours either side. The schedule (seats, seeds, openings) is a pure function
of the plan, which is what lets an interrupted match resume without changing any game.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.position import Position
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord, GameSpec, game_seed
from connectx.evaluation.option_words import OptionError
from connectx.evaluation.run_loop import NumberedGames, PlayOptions, PreparedRun, play_prepared, prepare_run
from connectx.evaluation.statistics.elo import (
    Interval,
    SprtBounds,
    elo_interval,
    likelihood_of_superiority,
    pentanomial,
    pentanomial_elo_interval,
    sprt_decision,
    sprt_llr,
    wilson_interval,
)


@dataclass(frozen=True)
class Sprt:
    """A sequential probability ratio test of H0: Elo = ``elo0`` against H1: Elo = ``elo1`` (logistic Elo)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if self.elo0 >= self.elo1:
            raise ValueError(f"SPRT elo0 = {self.elo0} must be below elo1 = {self.elo1}")
        SprtBounds.of(self.alpha, self.beta)
        if self.alpha + self.beta >= 1:
            raise ValueError(f"SPRT alpha + beta = {self.alpha + self.beta:g}: the test needs their sum below 1")

    @property
    def bounds(self) -> SprtBounds:
        return SprtBounds.of(self.alpha, self.beta)


@dataclass(frozen=True)
class MatchPlan(NumberedGames):
    """What defines a match; its JSON form is stored with the results and checked on resume."""

    first: AgentSpec
    second: AgentSpec
    games: int
    config: BoardConfig = BoardConfig()
    seed: int = 0
    opening_plies: int = 0

    def __post_init__(self) -> None:
        if self.games < 1:
            raise OptionError(
                "{games}={count}: a match needs at least one game (an even number keeps pairs whole)", count=self.games
            )
        check_opening_plies(self.opening_plies, self.config)

    @property
    def names(self) -> tuple[str, str]:
        """A's and B's specs as text: how records, summaries and reports name them."""
        return self.first.text, self.second.text

    @property
    def specs(self) -> tuple[AgentSpec, ...]:
        return self.first, self.second

    @property
    def may_change(self) -> tuple[str, ...]:
        return MAY_CHANGE_ON_RESUME

    @property
    def total_games(self) -> int:
        return self.games

    def game_spec(self, index: int, keep_replay: bool = False) -> GameSpec:
        """Game ``index``: A first on even indices, B first on odd ones, sharing the pair's opening."""
        agents = (self.first, self.second) if index % 2 == 0 else (self.second, self.first)
        opening = random_opening(self.config, self.opening_plies, random.Random(f"opening/{self.seed}/{index // 2}"))
        return GameSpec(index, agents, self.config, game_seed(self.seed, index), opening, keep_replay)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "match",
            "first": self.first.text,
            "second": self.second.text,
            "games": self.games,
            "config": self.config.to_json(),
            "seed": self.seed,
            "opening_plies": self.opening_plies,
        }


def check_opening_plies(plies: int, config: BoardConfig) -> None:
    """OptionError unless ``plies`` random opening moves fit on the board and leave it playable."""
    if plies < 0:
        raise OptionError("{opening_plies}={plies}: the number of opening plies cannot be negative", plies=plies)
    cells = config.rows * config.columns
    if plies >= cells:
        raise OptionError(
            "{opening_plies}={plies}: a {columns}x{rows} board has {cells} cells; give fewer plies than that",
            plies=plies,
            columns=config.columns,
            rows=config.rows,
            cells=cells,
        )


def random_opening(config: BoardConfig, plies: int, rng: random.Random) -> tuple[int, ...]:
    """``plies`` uniformly random moves after which the game is open: no line, no full board, and
    no immediate win for the side to move (which would make the pair a coin toss on who moves).
    Fewer plies are returned on boards too small to hold that many such moves."""
    for _ in range(1000):
        position = Position.replayed(config)
        moves: list[int] = []
        for _ in range(plies):
            candidates = [c for c in position.legal_columns() if not position.is_winning_move(c)]
            if not candidates:
                break
            column = rng.choice(sorted(candidates))
            position = position.play(column)
            moves.append(column)
        if len(moves) == plies and not position.is_over() and not position.winning_columns():
            return tuple(moves)
    return ()


@dataclass(frozen=True)
class SeatRecord:
    """A's wins, draws and losses in one seat (or overall)."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else math.nan


@dataclass(frozen=True)
class MoveTimes:
    """Seconds per move of one agent over the match."""

    moves: int
    mean: float
    p95: float
    max: float

    @classmethod
    def of(cls, durations: Sequence[float]) -> MoveTimes:
        if not durations:
            return cls(0, math.nan, math.nan, math.nan)
        ordered = sorted(durations)
        p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
        return cls(len(ordered), sum(ordered) / len(ordered), p95, ordered[-1])


@dataclass(frozen=True)
class MatchSummary:
    """Everything a match measured, from A's point of view unless a field says otherwise."""

    first: str
    second: str
    planned: int
    total: SeatRecord
    as_first: SeatRecord
    as_second: SeatRecord
    score: Interval
    elo: Interval
    los: float
    pentanomial: tuple[int, int, int, int, int]
    pentanomial_elo: Interval
    forfeits: dict[str, dict[str, int]]
    times: dict[str, MoveTimes]
    aborted: int
    sprt: Sprt | None = None
    llr: float = 0.0
    decision: str | None = None

    def to_json(self) -> dict[str, Any]:
        def interval(value: Interval) -> dict[str, float | None]:
            return {
                k: (None if not math.isfinite(v) else round(v, 4))
                for k, v in (("value", value.value), ("low", value.low), ("high", value.high))
            }

        def seat(record: SeatRecord) -> dict[str, int]:
            return {"wins": record.wins, "draws": record.draws, "losses": record.losses}

        return {
            "first": self.first,
            "second": self.second,
            "planned_games": self.planned,
            "games": self.total.games,
            "total": seat(self.total),
            "as_first": seat(self.as_first),
            "as_second": seat(self.as_second),
            "score": interval(self.score),
            "elo": interval(self.elo),
            "los": round(self.los, 4),
            "pentanomial": list(self.pentanomial),
            "pentanomial_elo": interval(self.pentanomial_elo),
            "forfeits": self.forfeits,
            "aborted": self.aborted,
            "time_per_move": {
                name: {"moves": t.moves, "mean": _finite(t.mean), "p95": _finite(t.p95), "max": _finite(t.max)}
                for name, t in self.times.items()
            },
            "sprt": None
            if self.sprt is None
            else {
                "elo0": self.sprt.elo0,
                "elo1": self.sprt.elo1,
                "alpha": self.sprt.alpha,
                "beta": self.sprt.beta,
                "llr": round(self.llr, 4),
                "lower": round(self.sprt.bounds.lower, 4),
                "upper": round(self.sprt.bounds.upper, 4),
                "decision": self.decision,
            },
        }


def _finite(value: float) -> float | None:
    return round(value, 6) if math.isfinite(value) else None


def first_seat(record: GameRecord) -> int:
    """The seat A (the match's first agent) sat in for this game."""
    return record.index % 2


def summarize(plan: MatchPlan, records: Iterable[GameRecord], sprt: Sprt | None = None) -> MatchSummary:
    """The statistics of the recorded games of ``plan`` (a pure function of the records, in any order)."""
    tally = MatchTally(plan, sprt)
    for record in records:
        tally.add(record)
    return tally.summary()


def durations_by_agent(plan: MatchPlan, records: Iterable[GameRecord]) -> dict[str, list[float]]:
    """Every move's duration, per agent name (one list if A and B are the same spec)."""
    first, second = plan.names
    durations: dict[str, list[float]] = {first: [], second: []}
    for record in records:
        seat = first_seat(record)
        durations[first].extend(record.durations[seat])
        durations[second].extend(record.durations[1 - seat])
    return durations


@dataclass(frozen=True)
class MatchResult:
    """A finished (or stopped) match: its plan, every recorded game and the summary."""

    plan: MatchPlan
    records: tuple[GameRecord, ...]
    summary: MatchSummary
    directory: Path | None = None
    stopped_early: bool = False


OnGame = Callable[[GameRecord, Callable[[], MatchSummary]], None]
"""Called after each game with it and the function that gives the summary after it (see ``run_loop.play_prepared``)."""


class MatchTally:
    """A match's counts, each game added once in whatever order the games finish; the summary is computed from the
    counts when asked (the progress line asks now and then, not after every game).

    Each game costs the same whatever came before it, as the ladder's do: refolding every game after each
    new one would make a match of n games cost n²/2. Every index is added once (a run never plays a game twice).
    """

    def __init__(self, plan: MatchPlan, sprt: Sprt | None = None) -> None:
        self.plan = plan
        self.sprt = sprt
        self.seats: tuple[Counter[float], Counter[float]] = (Counter(), Counter())
        """A's points in each scored game, counted by the seat A sat in."""
        self.aborted = 0
        self.half_pairs: dict[int, float] = {}
        """A's points in the scored game of each pair whose other game is not scored yet."""
        self.pairs = [0, 0, 0, 0, 0]
        self.forfeits: dict[tuple[str, str], tuple[int, int]] = {}
        """(cause, offender) to (forfeits, the lowest game index with one): the summary lists them in the order of
        the games that had them first, as a fold in index order does."""
        self.durations: dict[str, list[float]] = {name: [] for name in plan.names}
        self._summary: MatchSummary | None = None

    def add(self, record: GameRecord) -> None:
        self._summary = None
        first, second = self.plan.names
        seat = first_seat(record)
        self.durations[first].extend(record.durations[seat])
        self.durations[second].extend(record.durations[1 - seat])
        if not record.scored:
            self.aborted += 1
            return
        points = record.points(seat)
        self.seats[seat][points] += 1
        pair = record.index // 2
        if pair in self.half_pairs:
            counts = pentanomial([self.half_pairs.pop(pair) + points])
            self.pairs = [total + new for total, new in zip(self.pairs, counts, strict=True)]
        else:
            self.half_pairs[pair] = points
        if record.offender is not None:
            key = (record.cause, first if record.offender == seat else second)
            count, earliest = self.forfeits.get(key, (0, record.index))
            self.forfeits[key] = (count + 1, min(earliest, record.index))

    def summary(self) -> MatchSummary:
        if self._summary is None:
            self._summary = self._summarized()
        return self._summary

    def decided(self) -> bool:
        """Whether the SPRT has decided (checked on complete pairs): no new game starts then."""
        return self.sprt is not None and self._sprt()[1] is not None

    def _sprt(self) -> tuple[float, str | None]:
        """The SPRT's log-likelihood ratio on the complete pairs, and its decision (None: play on)."""
        if self.sprt is None:
            return 0.0, None
        llr = sprt_llr({k / 4: n for k, n in enumerate(self.pairs)}, self.sprt.elo0, self.sprt.elo1)
        return llr, sprt_decision(llr, self.sprt.bounds)

    def _summarized(self) -> MatchSummary:
        plan, seats = self.plan, self.seats
        as_first = SeatRecord(seats[0][1.0], seats[0][0.5], seats[0][0.0])
        as_second = SeatRecord(seats[1][1.0], seats[1][0.5], seats[1][0.0])
        total = SeatRecord(
            as_first.wins + as_second.wins, as_first.draws + as_second.draws, as_first.losses + as_second.losses
        )
        counts = (self.pairs[0], self.pairs[1], self.pairs[2], self.pairs[3], self.pairs[4])
        forfeits: dict[str, dict[str, int]] = {}
        for (cause, name), (count, _) in sorted(self.forfeits.items(), key=lambda item: item[1][1]):
            forfeits.setdefault(cause, {})[name] = count
        times = {name: MoveTimes.of(values) for name, values in self.durations.items()}
        llr, decision = self._sprt()
        return MatchSummary(
            first=plan.first.text,
            second=plan.second.text,
            planned=plan.games,
            total=total,
            as_first=as_first,
            as_second=as_second,
            score=wilson_interval(total.wins, total.draws, total.losses),
            elo=elo_interval(total.wins, total.draws, total.losses),
            los=likelihood_of_superiority(total.wins, total.losses),
            pentanomial=counts,
            pentanomial_elo=pentanomial_elo_interval(counts),
            forfeits=forfeits,
            times=times,
            aborted=self.aborted,
            sprt=self.sprt,
            llr=llr,
            decision=decision,
        )


def play_match(
    plan: MatchPlan, options: PlayOptions | None = None, *, sprt: Sprt | None = None, on_game: OnGame | None = None
) -> MatchResult:
    """Play ``plan``'s games that are not recorded yet, as ``options`` says (``run_loop.PlayOptions``: workers,
    output directory, resume, replays, watchdog, executor, the code check).

    With ``sprt``, no new game starts once the test has decided (checked on complete pairs).
    ``on_game`` is called after each game with it and the function that gives the summary so far.
    Before anything is written, AgentSpecError for an agent that cannot play on the board, ValueError
    for ``jobs`` below 1, RunDirectoryError for the output directory, or for a resumed run whose recorded
    games were played by other code, unless ``allow_code_change``.
    """
    return play_prepared_match(prepare_run(plan, options or PlayOptions()), sprt, on_game)


def play_prepared_match(
    run: PreparedRun[MatchPlan], sprt: Sprt | None = None, on_game: OnGame | None = None
) -> MatchResult:
    """Play a match ``run_loop.prepare_run`` has checked (how the command line shows its checks' errors first)."""
    tally = MatchTally(run.plan, sprt)
    played = play_prepared(run, tally, on_game)
    records = tuple(sorted(played.records, key=lambda r: r.index))
    return MatchResult(run.plan, records, tally.summary(), run.directory, played.stopped)


MAY_CHANGE_ON_RESUME = ("games",)
"""A match's number of games may grow on resume: its game ``i`` does not depend on it."""
