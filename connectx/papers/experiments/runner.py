"""Play the seed papers' experiments through the harness, and read what their games measured.

Every cell of every experiment (``connectx.papers.experiments.catalogue``) is one match in its own
directory under ``OUT/runs/``, always resumed, so an interrupted report continues where it
stopped and a finished one is rebuilt from its recorded games without playing any again. One
pool of worker processes serves all the matches. What a move's search cost (nodes, depth,
evaluations) is read from the game records, where the harness stored what the agent reported
as it played: nothing is searched again afterwards.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import platform
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.match import MatchPlan, MatchResult, MatchSummary, play_prepared_match
from connectx.evaluation.provenance import Provenance, code_digest, cpu_model, current_checkout
from connectx.evaluation.run_loop import PlayOptions, PreparedRun, prepare_run
from connectx.evaluation.scheduling import GameFunction, worker_pool
from connectx.papers.experiments.catalogue import experiments
from connectx.papers.experiments.design import Cell, Experiment, Profile

RUNS_DIR = "runs"


@dataclass(frozen=True)
class CellResult:
    cell: Cell
    match: MatchResult
    played: int = 0
    """Games played by this invocation (the rest were recorded by an earlier one)."""


@dataclass(frozen=True)
class ExperimentResult:
    experiment: Experiment
    cells: tuple[CellResult, ...]

    def tally(self, points: Iterable[tuple[str, str]]) -> tuple[int, int, int]:
        """The first agents' wins, draws and losses pooled over the cells at ``points``."""
        wanted = set(points)
        totals = [c.match.summary.total for c in self.cells if (c.cell.series, c.cell.x) in wanted]
        return sum(t.wins for t in totals), sum(t.draws for t in totals), sum(t.losses for t in totals)


OnCell = Callable[[Experiment, Cell, MatchResult, float], None]


def chosen_experiments(profile: Profile, only: Sequence[str] = ()) -> list[Experiment]:
    """The profile's experiments, or those whose keys are in ``only``; ValueError for an unknown key."""
    unknown = set(only) - {e.key for e in experiments(profile)}
    if unknown:
        keys = ", ".join(e.key for e in experiments(profile))
        raise ValueError(f"unknown experiment {', '.join(sorted(unknown))}; the experiments are {keys}")
    return [e for e in experiments(profile) if not only or e.key in only]


def cell_plan(profile: Profile, experiment: Experiment, cell: Cell) -> MatchPlan:
    """The match a cell plays: its two agents on the experiment's board, the profile's schedule seed."""
    return MatchPlan(
        AgentSpec.parse(cell.first),
        AgentSpec.parse(cell.second),
        experiment.games_of(cell),
        experiment.config,
        profile.seed,
        experiment.opening_plies,
    )


def cell_directory(out: Path, experiment: Experiment, cell: Cell) -> Path:
    return out / RUNS_DIR / experiment.key / cell.slug


CheckedExperiments = list[tuple[Experiment, list[PreparedRun[MatchPlan]]]]
"""Each chosen experiment with its cells' matches, checked and ready to play, in the experiment's cell order."""


def check_experiments(
    profile: Profile,
    out: Path,
    only: Sequence[str] = (),
    *,
    allow_code_change: bool = False,
    play: GameFunction | None = None,
) -> CheckedExperiments:
    """Every chosen cell's match checked (``run_loop.prepare_run``: its agents on its board, its run directory
    free for it or holding it, its recorded games played by this code unless ``allow_code_change``) before
    anything is written. ``play`` replaces the game function (tests pass a fake one)."""
    chosen = []
    for experiment in chosen_experiments(profile, only):
        runs = [
            prepare_run(
                cell_plan(profile, experiment, cell),
                PlayOptions(
                    out=cell_directory(out, experiment, cell),
                    resume=True,
                    play=play,
                    allow_code_change=allow_code_change,
                ),
            )
            for cell in experiment.cells
        ]
        chosen.append((experiment, runs))
    return chosen


def run_experiments(
    profile: Profile,
    out: Path,
    *,
    jobs: int | None = None,
    only: Sequence[str] = (),
    executor: Executor | None = None,
    play: GameFunction | None = None,
    on_cell: OnCell | None = None,
    allow_code_change: bool = False,
) -> tuple[ExperimentResult, ...]:
    """Play (or resume) every cell of the profile's experiments into ``out/runs/`` and return the results.

    ``only`` limits the run to the experiments with those keys; ``check_experiments`` checks them all
    before the first game, and ``play_experiments`` plays them.
    """
    chosen = check_experiments(profile, out, only, allow_code_change=allow_code_change, play=play)
    return play_experiments(chosen, jobs=jobs, executor=executor, on_cell=on_cell)


def play_experiments(
    chosen: CheckedExperiments,
    *,
    jobs: int | None = None,
    executor: Executor | None = None,
    on_cell: OnCell | None = None,
) -> tuple[ExperimentResult, ...]:
    """Play the checked experiments' cells, one match each, in order.

    ``executor`` plays the games (tests pass an inline one); by default one pool of ``jobs`` workers
    plays every match, unless the cells play with a fake game function. ``on_cell`` is called after
    each cell with its seconds.
    """
    fake = any(run.options.play is not None for _, runs in chosen for run in runs)
    pool = executor if executor is not None or fake else worker_pool(jobs)
    results = []
    try:
        for experiment, runs in chosen:
            cells = []
            for cell, run in zip(experiment.cells, runs, strict=True):
                started = time.perf_counter()
                played: list[GameRecord] = []
                match = play_prepared_match(run.played_on(pool, jobs), on_game=functools.partial(_collect, played))
                cells.append(CellResult(cell, match, len(played)))
                if on_cell is not None:
                    on_cell(experiment, cell, match, time.perf_counter() - started)
            results.append(ExperimentResult(experiment, tuple(cells)))
    finally:
        if pool is not executor and pool is not None:
            pool.shutdown(wait=True)
    return tuple(results)


def _collect(into: list[GameRecord], record: GameRecord, summary: Callable[[], MatchSummary]) -> None:
    into.append(record)


@dataclass(frozen=True)
class MoveSample:
    """One searched move of a recorded game: its move number, the seconds it took, and what its search reported."""

    series: str
    move: int
    nodes: int
    seconds: float
    depth: int | None = None
    evaluations: int | None = None
    simulations: int | None = None
    game: int = -1
    """The game's index in its cell's match (the same index in two cells is the same schedule slot)."""


def move_samples(result: ExperimentResult) -> list[MoveSample]:
    """Every agent move of the experiment's games whose search reported its node count.

    The counts are the game's own (``GameRecord.search_stats``, stored by the harness after each
    move), so they belong to the search that chose the move, whatever depth it reached; moves of
    agents that report nothing are left out.
    """
    samples = []
    for cell_result in result.cells:
        for record in cell_result.match.records:
            calls = [0, 0]
            for ply in range(len(record.opening), len(record.moves)):
                seat = ply % 2
                call, calls[seat] = calls[seat], calls[seat] + 1
                stats = record.stats(seat, call)
                nodes = stats.get("nodes")
                if not isinstance(nodes, int):
                    continue
                durations = record.durations[seat]
                seconds = durations[call] if call < len(durations) else float("nan")
                depth, evaluations = stats.get("depth"), stats.get("evaluations")
                simulations = stats.get("simulations")
                samples.append(
                    MoveSample(
                        cell_result.cell.series,
                        ply + 1,
                        nodes,
                        seconds,
                        depth if isinstance(depth, int) else None,
                        evaluations if isinstance(evaluations, int) else None,
                        simulations if isinstance(simulations, int) else None,
                        record.index,
                    )
                )
    return samples


def simulations_per_move(cell_result: CellResult) -> dict[str, float]:
    """Each agent's mean MCTS simulations per move over the cell's games, for agents that reported them."""
    counts: dict[str, list[int]] = {}
    for record in cell_result.match.records:
        for seat in (0, 1):
            for call in range(len(record.search_stats[seat])):
                simulations = record.stats(seat, call).get("simulations")
                if isinstance(simulations, int):
                    counts.setdefault(record.agents[seat], []).append(simulations)
    return {agent: sum(values) / len(values) for agent, values in counts.items()}


@dataclass(frozen=True)
class PlayConditions:
    """How busy the machine was while an experiment's games were played, read from the game records."""

    games: int
    recorded: int
    """Games whose record holds the load average and CPU seconds (records from before they were kept do not)."""
    load_median: float
    load_max: float
    cpu_share_median: float
    """The median over games of CPU seconds / wall seconds of the game's process: near 1 when the game had a
    core to itself, lower when it waited for one."""
    slowest_move: float
    """The longest single move of any agent, in seconds."""
    game_seconds: float
    """The games' wall seconds summed (the playing time one game at a time would take)."""
    provenance: tuple[tuple[Provenance | None, int], ...] = ()
    """Each provenance the games recorded (None: recorded before it was kept) and how many games had it."""


def play_conditions(result: ExperimentResult) -> PlayConditions:
    """The conditions ``result``'s games were played under, from what each game recorded."""
    records = [r for c in result.cells for r in c.match.records]
    measured = [r for r in records if r.load_average is not None and r.cpu_seconds > 0 and r.wall_seconds > 0]
    loads = sorted(value for r in measured for value in r.load_average or ())
    shares = sorted(r.cpu_seconds / r.wall_seconds for r in measured)
    slowest = max((d for r in records for seat in r.durations for d in seat), default=float("nan"))
    nan = float("nan")
    origins = Counter(r.provenance for r in records)
    return PlayConditions(
        len(records),
        len(measured),
        loads[len(loads) // 2] if loads else nan,
        loads[-1] if loads else nan,
        shares[len(shares) // 2] if shares else nan,
        slowest,
        sum(r.wall_seconds for r in records),
        tuple(origins.most_common()),
    )


def run_conditions() -> list[str]:
    """The machine, versions and code a report was made with, so a rerun can match them."""

    def version(package: str) -> str:
        try:
            return importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"

    checkout = current_checkout()
    commit = "an unknown commit (not a git checkout)" if checkout is None else checkout.text
    return [
        f"machine writing the report: {cpu_model()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()} (the code, CPU and concurrency each game was played with, and how busy the "
        "machine was, are read from the game records, per experiment)",
        f"software: Python {platform.python_version()}, kaggle-environments {version('kaggle-environments')}, "
        f"matplotlib {version('matplotlib')}; code at {commit} (digest of the code that plays games "
        f"{code_digest()})",
    ]
