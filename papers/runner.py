"""Play the seed papers' experiments through the harness and write the Markdown report beside the paper's claims.

Every cell of every experiment (``paper_experiments``) is one ``run_match`` in its own directory
under ``OUT/runs/``, always resumed, so an interrupted report continues where it stopped and a
finished one is rewritten from its recorded games without playing any again. One pool of worker
processes serves all the matches. The report is a pure function of the recorded games plus the
run's conditions: win rates and scores with Wilson 95% intervals, the jointly fitted Elo, and a
verdict for each claim (agrees, disagrees, or not settled by this many games).
"""

from __future__ import annotations

import datetime
import functools
import importlib.metadata
import math
import os
import platform
import subprocess
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from agents.agent_spec import AgentSpec
from agents.kaggle_boundary import Deadline
from agents.minimax import MinimaxStrategy
from agents.position import Position
from evaluation import statistics
from evaluation.engine import seat_seed
from evaluation.game import GameRecord
from evaluation.match import MAY_CHANGE_ON_RESUME, MatchPlan, MatchResult, MatchSummary, play_match
from evaluation.paper_experiments import (
    ELO_ANCHOR,
    ELO_EXPERIMENTS,
    NODES,
    SEATS,
    Cell,
    Claim,
    Experiment,
    Profile,
    experiments,
)
from evaluation.report import signed
from evaluation.results_store import ResultsStore
from evaluation.scheduling import GameFunction, worker_pool
from evaluation.statistics import Interval

REPORT_FILE = "report.md"
RUNS_DIR = "runs"
ROUNDING = 1e-9
"""Slack when a paper's number meets an interval's end: Wilson's bound at 100% comes out as 0.99999..."""
NO_LIMIT = 1e9
"""Seconds: the clock of a re-search that counts nodes, which must reach the full depth."""


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

    @functools.cached_property
    def move_samples(self) -> list[MoveSample]:
        """Every searched move of the games with its node count: the module's ``move_samples``, computed once."""
        return move_samples(self)

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
    return MatchPlan(AgentSpec.parse(cell.first), AgentSpec.parse(cell.second), experiment.games, experiment.config,
                     profile.seed, experiment.opening_plies)


def cell_directory(out: Path, experiment: Experiment, cell: Cell) -> Path:
    return out / RUNS_DIR / experiment.key / cell.slug


def check_experiments(profile: Profile, out: Path,
                      only: Sequence[str] = ()) -> list[tuple[Experiment, list[MatchPlan]]]:
    """Every chosen cell's plan, each agent checked against its board and each run directory free for it
    (or holding the same plan, to resume), before anything is written; raises what ``play_match`` would."""
    chosen = []
    for experiment in chosen_experiments(profile, only):
        plans = [cell_plan(profile, experiment, cell) for cell in experiment.cells]
        for cell, plan in zip(experiment.cells, plans, strict=True):
            plan.first.check(plan.config.geometry)
            plan.second.check(plan.config.geometry)
            ResultsStore(cell_directory(out, experiment, cell)).check(plan.to_json(), True, MAY_CHANGE_ON_RESUME)
        chosen.append((experiment, plans))
    return chosen


def run_experiments(profile: Profile, out: Path, *, jobs: int | None = None, only: Sequence[str] = (),
                    executor: Executor | None = None, play: GameFunction | None = None,
                    on_cell: OnCell | None = None) -> tuple[ExperimentResult, ...]:
    """Play (or resume) every cell of the profile's experiments into ``out/runs/`` and return the results.

    ``only`` limits the run to the experiments with those keys. ``executor`` and ``play`` are
    those of ``play_match`` (tests pass an inline executor and a fake game); by default one pool of
    ``jobs`` workers plays every match. ``on_cell`` is called after each cell with its seconds.
    Everything is checked (``check_experiments``) before the first game.
    """
    chosen = check_experiments(profile, out, only)
    pool = executor if executor is not None or play is not None else worker_pool(jobs)
    results = []
    try:
        for experiment, plans in chosen:
            cells = []
            for cell, plan in zip(experiment.cells, plans, strict=True):
                started = time.perf_counter()
                played: list[GameRecord] = []
                match = play_match(plan, out=cell_directory(out, experiment, cell), resume=True, jobs=jobs,
                                   executor=pool, play=play, on_game=functools.partial(_collect, played))
                cells.append(CellResult(cell, match, len(played)))
                if on_cell is not None:
                    on_cell(experiment, cell, match, time.perf_counter() - started)
            results.append(ExperimentResult(experiment, tuple(cells)))
    finally:
        if pool is not executor and pool is not None:
            pool.shutdown(wait=True)
    return tuple(results)


def _collect(into: list[GameRecord], record: GameRecord, summary: MatchSummary) -> None:
    into.append(record)


def win_rate(wins: int, draws: int, losses: int) -> Interval:
    """The share of games won (the papers' "winning percentage"), with its Wilson 95% interval."""
    return statistics.wilson_interval(wins, 0, draws + losses)


def percent(interval: Interval) -> str:
    return f"{100 * interval.value:.1f}% [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


@dataclass(frozen=True)
class MoveSample:
    """One searched position of a recorded game: its move number, the nodes searched and the seconds taken."""

    series: str
    move: int
    nodes: int
    seconds: float


def move_samples(result: ExperimentResult) -> list[MoveSample]:
    """Every agent move of the experiment's games, its nodes counted by searching the position again.

    The agent is rebuilt from its recorded spec with its seat's seed and searches with no clock,
    as it did in the game (where each move's search is fresh and finished its full depth).
    """
    samples = []
    for cell_result in result.cells:
        for record in cell_result.match.records:
            config = record.config
            position = Position.initial(config.rows, config.columns, config.inarow)
            calls = [0, 0]
            specs = [AgentSpec.parse(text).with_seed(seat_seed(record.seed, seat), override=False)
                     for seat, text in enumerate(record.agents)]
            for ply, column in enumerate(record.moves):
                if ply >= len(record.opening):
                    seat = ply % 2
                    strategy = specs[seat].build().strategy
                    if not isinstance(strategy, MinimaxStrategy):
                        raise ValueError(f"{record.agents[seat]}: nodes per move are counted for minimax agents only")
                    strategy.choose(position, Deadline.after(NO_LIMIT))
                    assert strategy.last_search is not None
                    durations = record.durations[seat]
                    seconds = durations[calls[seat]] if calls[seat] < len(durations) else float("nan")
                    calls[seat] += 1
                    samples.append(MoveSample(cell_result.cell.series, ply + 1, strategy.last_search.nodes, seconds))
                position = position.play(column)
    return samples


@dataclass(frozen=True)
class Verdict:
    status: str
    """``agrees``, ``disagrees`` or ``not settled``."""
    ours: str
    games: int


def judge(claim: Claim, result: ExperimentResult) -> Verdict:
    """Hold ``claim`` against the games of ``result`` (see ``paper_experiments.CLAIM_TESTS``)."""
    wins, draws, losses = result.tally(claim.cells)
    games = wins + draws + losses
    if claim.test in ("falls_with_move", "nodes_track_time"):
        samples = [s for s in result.move_samples if s.series in {series for series, _ in claim.cells}]
        return _judge_moves(claim, samples, games)
    if games == 0:
        return Verdict("not settled", "no games played", 0)
    if claim.test == "win_rate":
        rate = win_rate(wins, draws, losses)
        assert claim.paper_value is not None
        ours = f"won {percent(rate)} of {games}"
        if rate.low - ROUNDING <= claim.paper_value <= rate.high + ROUNDING:
            return Verdict("agrees", ours + f"; the paper's {100 * claim.paper_value:g}% is inside", games)
        side = "lower" if rate.high < claim.paper_value else "higher"
        return Verdict("disagrees", ours + f"; {side} than the paper's {100 * claim.paper_value:g}%", games)
    if claim.test in ("above_half", "below_half"):
        score = statistics.wilson_interval(wins, draws, losses)
        ours = f"scored {percent(score)} (W-D-L {wins}-{draws}-{losses})"
        above, below = score.low > 0.5, score.high < 0.5
        if not above and not below:
            return Verdict("not settled", ours + "; the interval contains 50%", games)
        return Verdict("agrees" if above == (claim.test == "above_half") else "disagrees", ours, games)
    base = win_rate(*result.tally(claim.baseline))
    rate = win_rate(wins, draws, losses)
    ours = f"won {percent(rate)} against {percent(base)} at the baseline"
    if rate.low > base.high:
        return Verdict("agrees", ours, games)
    if rate.high < base.low:
        return Verdict("disagrees", ours, games)
    direction = ("same direction" if rate.value > base.value else "no difference" if rate.value == base.value
                 else "opposite direction")
    return Verdict("not settled", ours + f"; intervals overlap ({direction})", games)


def _judge_moves(claim: Claim, samples: list[MoveSample], games: int) -> Verdict:
    if len(samples) < 6:
        return Verdict("not settled", f"{len(samples)} moves searched, too few", games)
    if claim.test == "nodes_track_time":
        timed = [s for s in samples if s.seconds == s.seconds]
        r = statistics.correlation_interval([s.nodes for s in timed], [s.seconds for s in timed])
        ours = f"Pearson r = {r.value:.2f} [{r.low:.2f}, {r.high:.2f}] over {len(timed)} moves"
        status = "agrees" if r.low > 0 else "disagrees" if r.high < 0 else "not settled"
        return Verdict(status, ours, games)
    moves = sorted(s.move for s in samples)
    early_end, late_start = moves[len(moves) // 3], moves[2 * len(moves) // 3]
    early = statistics.mean_interval([s.nodes for s in samples if s.move <= early_end])
    late = statistics.mean_interval([s.nodes for s in samples if s.move >= late_start])
    ours = (f"mean nodes {early.value:.0f} [{early.low:.0f}, {early.high:.0f}] up to move {early_end}, "
            f"{late.value:.0f} [{late.low:.0f}, {late.high:.0f}] from move {late_start}")
    status = "agrees" if early.low > late.high else "disagrees" if early.high < late.low else "not settled"
    return Verdict(status, ours, games)


def run_conditions() -> list[str]:
    """The machine, versions and code a report was made with, so a rerun can match them."""
    def version(package: str) -> str:
        try:
            return importlib.metadata.version(package)
        except importlib.metadata.PackageNotFoundError:
            return "not installed"
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                                check=True, cwd=Path(__file__).parent).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown (not a git checkout)"
    load = ", ".join(f"{value:.2f}" for value in os.getloadavg())
    return [
        f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores, {platform.system()} "
        f"{platform.release()}; load averages (1, 5, 15 min) when the report was written: {load}",
        f"software: Python {platform.python_version()}, kaggle-environments {version('kaggle-environments')}, "
        f"matplotlib {version('matplotlib')}; code at commit {commit}",
    ]


def write_report(profile: Profile, results: Sequence[ExperimentResult], out: Path,
                 conditions: Sequence[str] = (), seconds: float | None = None) -> Path:
    """``out/report.md`` and one PNG per figure, from the recorded games of ``results``."""
    # matplotlib takes seconds to import; importing it here keeps every other command quick to start.
    from evaluation import plots

    out.mkdir(parents=True, exist_ok=True)
    sections, summary_rows = [], []
    for result in results:
        experiment = result.experiment
        verdicts = [(claim, judge(claim, result)) for claim in experiment.claims]
        summary_rows += [f"| {experiment.paper}, {experiment.title.split(':')[0]} | {claim.text} | "
                         f"{_paper_number(claim)} | {verdict.ours} | {verdict.games} | **{verdict.status}** |"
                         for claim, verdict in verdicts]
        sections.append(_section(result, verdicts, out, plots))
    total_games = sum(len(c.match.records) for r in results for c in r.cells)
    new_games = sum(c.played for r in results for c in r.cells)
    header = [
        "# The seed papers' experiments, reproduced",
        "",
        f"Profile **{profile.name}**: {total_games} games, every one a real kaggle-environments game, in "
        f"colour-swapped pairs (each opening played from both seats), schedule seed {profile.seed} (game "
        "seeds and openings follow from it). Intervals are 95%: Wilson for win rates and scores, normal for "
        "means, Fisher's z for correlations, the inverse Fisher information for Elo.",
        "",
        *[f"- {line}" for line in conditions],
        f"- written {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC"
        + (f"; this invocation played {new_games} of them in {seconds / 60:.1f} min of wall time"
           if seconds is not None else ""),
        f"- rerun: `connectx report{' --quick' if profile.name == 'quick' else ''} --out {out.parent}` "
        "(it resumes from the games recorded under `runs/`)",
        "",
        "The papers' figures and tables are images we cannot read; we compare with the numbers and "
        "statements in their text. A verdict is *agrees* when the paper's number lies inside our interval "
        "(or our interval lies on the stated side), *disagrees* when it lies outside, *not settled* when "
        "our interval is too wide to say.",
        "",
        "The intervals treat games as independent. Depth-limited agents are deterministic but for their "
        "seeded tie-breaks, and kaggle's agents break ties at random, so games from the same start can "
        "repeat; the Kang experiments start from random openings for that reason.",
        "",
        "MCTS and the solver stop on the wall clock, so a busy machine weakens them: the load averages "
        "above say how busy this one was. The depth-limited agents play the same moves at any speed.",
    ]
    if profile.name != "full":
        header += ["", f"**This is the {profile.name} profile, a smoke run: with this few games per point the "
                   "intervals are far too wide to confirm or refute the papers. Run `make report` for the full "
                   "profile.**"]
    header += ["", "## Every claim beside our measurement", "",
               "| source | the paper says | paper's number | ours (95%) | games | verdict |",
               "|---|---|---:|---|---:|---|", *summary_rows, ""]
    elo = _elo_section(results)
    path = out / REPORT_FILE
    path.write_text("\n".join(header + sections + elo) + "\n")
    return path


def _paper_number(claim: Claim) -> str:
    return f"{100 * claim.paper_value:g}%" if claim.paper_value is not None else "(direction only)"


def _section(result: ExperimentResult, verdicts: list[tuple[Claim, Verdict]], out: Path, plots: ModuleType) -> str:
    experiment = result.experiment
    config = experiment.config
    openings = f", from shared random {experiment.opening_plies}-ply openings" if experiment.opening_plies else ""
    lines = [f"## {experiment.paper}, {experiment.title}", "", experiment.setup,
             f"{experiment.games} games per cell{openings}; board {config.columns}x{config.rows}, {config.inarow} "
             f"in a row, actTimeout {config.act_timeout:g} s.", ""]
    if experiment.kind == SEATS:
        lines += _seats_table(result, out, plots)
    elif experiment.kind == NODES:
        lines += _nodes_figures(result, out, plots)
    else:
        lines += _series_table(result, out, plots)
    lines += ["", "What the paper says, and what we measured:", ""]
    for claim, verdict in verdicts:
        lines.append(f"- *{claim.text}*: **{verdict.status}**; ours: {verdict.ours} ({verdict.games} games)."
                     + (f" {claim.note}" if claim.note and verdict.status != "agrees" else ""))
    return "\n".join(lines) + "\n"


def _series_table(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    experiment = result.experiment
    marks = {(series, x): value for series, x, value in experiment.paper_points}
    lines = ["| series | " + experiment.x_label + " | first agent | second agent | W-D-L | win rate (95%) | "
             "score (95%) | paper |", "|---|---|---|---|---|---|---|---:|"]
    series: dict[str, list[tuple[str | float, Interval]]] = {}
    for cell_result in result.cells:
        cell, total = cell_result.cell, cell_result.match.summary.total
        rate = win_rate(total.wins, total.draws, total.losses)
        series.setdefault(cell.series, []).append((cell.x, rate))
        paper = marks.get((cell.series, cell.x))
        lines.append(f"| {cell.series} | {cell.x} | `{cell.first}` | `{cell.second}` | "
                     f"{total.wins}-{total.draws}-{total.losses} | {percent(rate)} | "
                     f"{percent(cell_result.match.summary.score)} | "
                     f"{'' if paper is None else f'{100 * paper:g}%'} |")
    figure = plots.interval_series_plot(series, out / f"{experiment.key}.png", xlabel=experiment.x_label,
                                        ylabel="win rate of the first agent (95% interval)",
                                        title=f"{experiment.paper}, {experiment.title.split(':')[0]}",
                                        reference=experiment.paper_points)
    return lines + ["", f"![{experiment.title}]({figure.name})"]


def _seats_table(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    """Kang's layout: the first mover's depth by row, the second mover's by column, both win rates."""
    experiment = result.experiment
    by_seats: dict[tuple[str, str], list[int]] = {}
    for record in (r for c in result.cells for r in c.match.records if r.scored):
        tally = by_seats.setdefault(record.agents, [0, 0, 0])
        tally[0 if record.winner == 0 else 2 if record.winner == 1 else 1] += 1
    labels = {c.first: c.series for c in experiment.cells}
    specs = list(labels)
    lines = ["First mover's win rate / second mover's win rate (95% intervals), games; rows: the first "
             "mover's depth, columns: the second mover's.", "",
             "| first \\ second | " + " | ".join(labels[s] for s in specs) + " |",
             "|---|" + "---|" * len(specs)]
    series: dict[str, list[tuple[str | float, Interval]]] = {}
    for first in specs:
        cells = []
        for second in specs:
            wins, draws, losses = by_seats.get((first, second), [0, 0, 0])
            if wins + draws + losses == 0:
                cells.append("")
                continue
            mine, theirs = win_rate(wins, draws, losses), win_rate(losses, draws, wins)
            cells.append(f"{percent(mine)} / {percent(theirs)}, {wins + draws + losses}")
            series.setdefault(f"first mover {labels[first]}", []).append((labels[second], mine))
        lines.append(f"| {labels[first]} | " + " | ".join(cells) + " |")
    first_wins, draws, second_wins = (sum(t[k] for t in by_seats.values()) for k in range(3))
    lines += ["", f"Over the whole table the first mover won {percent(win_rate(first_wins, draws, second_wins))} "
              f"and the second mover {percent(win_rate(second_wins, draws, first_wins))} of "
              f"{first_wins + draws + second_wins} games, whatever the depths."]
    figure = plots.interval_series_plot(series, out / f"{experiment.key}.png",
                                        xlabel="second mover's depth",
                                        ylabel="first mover's win rate (95% interval)",
                                        title=f"{experiment.paper}, {experiment.title.split(':')[0]}")
    return lines + ["", f"![{experiment.title}]({figure.name})"]


def _nodes_figures(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    experiment = result.experiment
    samples = result.move_samples
    nodes: dict[str, list[tuple[str | float, Interval]]] = {}
    seconds: dict[str, list[tuple[str | float, Interval]]] = {}
    lines = ["| series | moves searched | mean nodes per move (95%) | mean ms per move (95%) |", "|---|---:|---|---|"]
    for series in dict.fromkeys(s.series for s in samples):
        mine = [s for s in samples if s.series == series]
        for move in sorted({s.move for s in mine}):
            at = [s for s in mine if s.move == move]
            nodes.setdefault(series, []).append((float(move), geometric_interval([max(1, s.nodes) for s in at])))
            timed = [1000 * s.seconds for s in at if s.seconds > 0]
            if timed:
                seconds.setdefault(series, []).append((float(move), geometric_interval(timed)))
        n = statistics.mean_interval([s.nodes for s in mine])
        t = statistics.mean_interval([1000 * s.seconds for s in mine if s.seconds == s.seconds])
        lines.append(f"| {series} | {len(mine)} | {n.value:.0f} [{n.low:.0f}, {n.high:.0f}] | "
                     f"{t.value:.1f} [{t.low:.1f}, {t.high:.1f}] |")
    title = f"{experiment.paper}, Fig. 12/13"
    node_figure = plots.interval_series_plot(nodes, out / f"{experiment.key}-nodes.png", xlabel="move number",
                                             ylabel="nodes searched (geometric mean, 95% interval)", title=title,
                                             log_y=True, unit_range=False)
    time_figure = plots.interval_series_plot(seconds, out / f"{experiment.key}-time.png", xlabel="move number",
                                             ylabel="ms per move in the game (geometric mean, 95%)", title=title,
                                             log_y=True, unit_range=False)
    return lines + ["", f"![nodes per move]({node_figure.name})", "", f"![time per move]({time_figure.name})"]


def geometric_interval(values: Sequence[float]) -> Interval:
    """The geometric mean and its 95% interval (the normal interval of the logarithms, mapped back).

    Counts and times spread over orders of magnitude and never go below zero, which the
    interval of their plain mean would. The values must be positive.
    """
    logs = statistics.mean_interval([math.log(v) for v in values])
    return Interval(math.exp(logs.value), math.exp(logs.low), math.exp(logs.high))


def _elo_section(results: Sequence[ExperimentResult]) -> list[str]:
    points: dict[tuple[str, str], list[float]] = {}
    for result in results:
        if result.experiment.key not in ELO_EXPERIMENTS:
            continue
        for cell_result in result.cells:
            total = cell_result.match.summary.total
            if total.games:
                entry = points.setdefault((cell_result.cell.first, cell_result.cell.second), [0.0, 0])
                entry[0] += total.wins + total.draws / 2
                entry[1] += total.games
    if not points or ELO_ANCHOR not in {name for pair in points for name in pair}:
        return ["## Elo of every agent", "", "No games of the Sheoran or solver experiments to fit.", ""]
    ratings = statistics.fit_ratings({pair: (p, int(g)) for pair, (p, g) in points.items()}, ELO_ANCHOR)
    lines = ["## Elo of every agent, one joint fit", "",
             f"A joint maximum-likelihood (Bradley-Terry) fit of every game of {', '.join(ELO_EXPERIMENTS)}, "
             f"draws as half points, {ELO_ANCHOR} pinned at 0. When some agent won or lost every game, one "
             "virtual draw per pairing keeps the ratings finite (as BayesElo does), which pulls them "
             "toward each other a little. Kang's H1/H2 variants never meet these agents and are not rated.", "",
             "| rank | agent | Elo | 95% interval | games |", "|---:|---|---:|---|---:|"]
    for rank, rating in enumerate(ratings, start=1):
        interval = "anchor" if rating.name == ELO_ANCHOR else f"[{signed(rating.low)}, {signed(rating.high)}]"
        lines.append(f"| {rank} | `{rating.name}` | {signed(rating.elo)} | {interval} | {rating.games} |")
    return lines + [""]
