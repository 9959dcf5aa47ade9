"""The one loop every run of games goes through: a match, a tournament, a ladder and each cell of the papers' report.

A run is a plan (what to play: its agents, its board, its schedule and its JSON form, stored
and compared on resume) and a tally (what its games add up to, kept one game at a time). The
loop does the rest once for all of them, so a fix made here is made for every mode:

* ``prepare_run`` checks everything before anything is written: each agent once against the
  board, the number of workers, the output directory, and that the games recorded there were
  played by the code playing now (``allow_code_change`` lets them mix);
* ``play_prepared`` writes the plan, feeds the recorded games to the tally, plays the rest on
  the executor in the plan's order, appends each finished game to ``games.jsonl`` at once, hands
  ``on_game`` the game and the tally's summary to ask for, and stops starting games once the tally has decided.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass, replace
from functools import cached_property, partial
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game import DEFAULT_WATCHDOG, Watchdog, play_isolated
from connectx.evaluation.game_record import GameRecord, GameSpec
from connectx.evaluation.provenance import code_digest
from connectx.evaluation.results_store import ResultsStore, check_same_code
from connectx.evaluation.scheduling import GameFunction, check_jobs, play_schedule

Summary = TypeVar("Summary", covariant=True)


class Tally(Protocol[Summary]):
    """What a run's games add up to, updated one game at a time (never refolded from the start): adding a game costs
    the same however many came before it, and what a summary needs beyond counts (a fit) waits for ``summary``."""

    def add(self, record: GameRecord) -> None:
        """Count ``record``, the next game in the order the run recorded it."""

    def summary(self) -> Summary:
        """The summary of the games counted so far."""

    def decided(self) -> bool:
        """Whether the run should start no more games (a match's SPRT has decided)."""


class RunPlan(Protocol):
    """What a mode's plan gives the loop."""

    @property
    def config(self) -> BoardConfig: ...

    @property
    def specs(self) -> tuple[AgentSpec, ...]:
        """Every agent that may play, each checked once against the board before the run."""

    @property
    def may_change(self) -> tuple[str, ...]:
        """The keys of ``to_json`` a resumed run may change (a match's number of games)."""

    def to_json(self) -> dict[str, Any]: ...

    def belongs(self, record: GameRecord) -> bool:
        """Whether a recorded game is one of this plan's (a match resumed with fewer games leaves some out)."""

    def left(self, recorded: Sequence[GameRecord]) -> int:
        """How many games remain to play after ``recorded``."""

    def schedule(self, recorded: Sequence[GameRecord], tally: Any, keep_replays: bool) -> Iterable[GameSpec]:
        """The games still to play after ``recorded``, read one at a time as workers free up: a ladder
        pairs each from ``tally``'s ratings as they stand then."""


class NumberedGames:
    """The schedule of a plan whose games are numbered 0 to ``total_games - 1`` and played in that order (a
    match, a tournament): a base for the plan's dataclass, which gives ``total_games`` and ``game_spec``."""

    @property
    def total_games(self) -> int:
        raise NotImplementedError

    def game_spec(self, index: int, keep_replay: bool = False) -> GameSpec:
        raise NotImplementedError

    def belongs(self, record: GameRecord) -> bool:
        """Whether a recorded game is one of this plan's (a match resumed with a smaller -n keeps the later ones)."""
        return record.index < self.total_games

    def left(self, recorded: Sequence[GameRecord]) -> int:
        return self.total_games - len({record.index for record in recorded})

    def schedule(self, recorded: Sequence[GameRecord], tally: object, keep_replays: bool) -> list[GameSpec]:
        """Every game not recorded yet, in index order."""
        done = {record.index for record in recorded}
        return [self.game_spec(index, keep_replays) for index in range(self.total_games) if index not in done]


@dataclass(frozen=True)
class ListedGames:
    """A plan that is a list of games numbered as its script likes (a benchmark's schedule), played in that order.

    ``kind`` and ``parameters`` make its JSON form; ``may_change`` names the parameters a resumed run may change
    (how many seeds, which opponents: a run that grows keeps its games' numbers, so its recorded games stay its own).
    """

    kind: str
    games: tuple[GameSpec, ...]
    parameters: tuple[tuple[str, Any], ...] = ()
    may_change: tuple[str, ...] = ()
    config: BoardConfig = BoardConfig()

    @property
    def specs(self) -> tuple[AgentSpec, ...]:
        return tuple(dict.fromkeys(agent for game in self.games for agent in game.agents))

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, **dict(self.parameters)}

    def belongs(self, record: GameRecord) -> bool:
        return record.index in self._indices

    def left(self, recorded: Sequence[GameRecord]) -> int:
        return len(self._indices - {record.index for record in recorded})

    def schedule(self, recorded: Sequence[GameRecord], tally: object, keep_replays: bool) -> list[GameSpec]:
        done = {record.index for record in recorded}
        return [replace(game, keep_replay=keep_replays) for game in self.games if game.index not in done]

    @cached_property
    def _indices(self) -> frozenset[int]:
        return frozenset(game.index for game in self.games)


class GameCount:
    """The tally of a run whose script reads the records itself (a benchmark): it counts them and never stops a run."""

    def __init__(self) -> None:
        self.games = 0

    def add(self, record: GameRecord) -> None:
        self.games += 1

    def summary(self) -> int:
        return self.games

    def decided(self) -> bool:
        return False


@dataclass(frozen=True)
class PlayOptions:
    """How a run's games are played and kept, the same for every mode.

    ``executor`` plays the games (default: ``jobs`` isolated worker processes, one per core);
    ``play`` replaces the game function (tests pass a fake one); ``out`` keeps the run
    (``keep_replays`` adds each game's replay) and ``resume`` continues the run there;
    ``allow_code_change`` lets a resumed run add games played by other code than those recorded.
    """

    jobs: int | None = None
    out: Path | str | None = None
    resume: bool = False
    keep_replays: bool = False
    watchdog: Watchdog = DEFAULT_WATCHDOG
    executor: Executor | None = None
    play: GameFunction | None = None
    allow_code_change: bool = False


Plan = TypeVar("Plan", bound=RunPlan)


@dataclass(frozen=True)
class PreparedRun(Generic[Plan]):
    """A run checked and ready: nothing written yet, the plan's recorded games read once (in file order)."""

    plan: Plan
    options: PlayOptions
    recorded: tuple[GameRecord, ...]

    @property
    def directory(self) -> Path | None:
        return None if self.options.out is None else Path(self.options.out)

    def played_on(self, executor: Executor | None, jobs: int | None) -> PreparedRun[Plan]:
        """This run, its games played on ``executor`` with ``jobs`` at once: a cluster is started only once
        everything else has been checked."""
        check_jobs(jobs)
        return replace(self, options=replace(self.options, executor=executor, jobs=jobs))


def prepare_run(plan: Plan, options: PlayOptions) -> PreparedRun[Plan]:
    """``plan`` checked for ``options`` without writing anything.

    AgentSpecError for an agent that cannot play on the board, ValueError for ``jobs`` below 1,
    RunDirectoryError for ``out`` (a run there without ``resume``, another plan), or for recorded
    games played by other code when games are left to add to them, unless ``allow_code_change``.
    """
    for spec in plan.specs:
        spec.check(plan.config.geometry)
    check_jobs(options.jobs)
    recorded: list[GameRecord] = []
    if options.out is not None:
        stored = ResultsStore(options.out).check(plan.to_json(), options.resume, plan.may_change)
        recorded = [record for record in stored if plan.belongs(record)]
    if recorded and plan.left(recorded) and not options.allow_code_change:  # a finished run is read back as it is
        check_same_code(recorded, code_digest())
    return PreparedRun(plan, options, tuple(recorded))


@dataclass(frozen=True)
class RunRecords:
    """Every game of a run in the order it was recorded (the file's, then as they finished), and whether the
    tally stopped it before its schedule ran out."""

    records: tuple[GameRecord, ...]
    stopped: bool


OnGame = Callable[[GameRecord, Callable[[], Any]], None]
"""Called after each game with it and the tally's ``summary``: a summary (a tournament's joint Elo fit) is computed
only when it is called, so a progress line drawn now and then costs a fit now and then, not one per game."""


def play_prepared(run: PreparedRun[Plan], tally: Tally[Any], on_game: OnGame | None = None) -> RunRecords:
    """Play ``run``'s games that are not recorded yet, counting every game in ``tally``.

    With an output directory the plan is written first and each game is appended the moment it
    finishes, so an interrupted run loses only the games in flight. ``on_game`` gets each new game
    and the tally's ``summary``, to call for the summary after it. Any exception (Ctrl-C included)
    abandons the games in flight.
    """
    options = run.options
    store = None if options.out is None else ResultsStore(options.out)
    if store is not None:
        store.start(run.plan.to_json())
    records = list(run.recorded)
    for record in records:
        tally.add(record)
    if tally.decided():
        return RunRecords(tuple(records), True)

    def recorded(game: GameRecord) -> bool:
        records.append(game)
        if store is not None:
            store.append(game)
        tally.add(game)
        if on_game is not None:
            on_game(game, tally.summary)
        return tally.decided()

    game_function = options.play if options.play is not None else partial(play_isolated, watchdog=options.watchdog)
    stopped = play_schedule(
        run.plan.schedule(run.recorded, tally, options.keep_replays),
        game_function,
        recorded,
        options.jobs,
        options.executor,
    )
    return RunRecords(tuple(records), stopped)
