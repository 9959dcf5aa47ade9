"""The report of the seed papers' experiments: Markdown beside the papers' claims, with one PNG per figure.

The report is a pure function of the recorded games plus the run's conditions: win rates and
scores with Wilson 95% intervals, nodes per move as the games' searches reported them, the
jointly fitted Elo, and the verdict on each claim (``papers.verdicts``).
"""

from __future__ import annotations

import datetime
import math
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from harness import statistics
from harness.results_text import interval_text, signed
from harness.statistics import Interval
from papers.experiments import ELO_ANCHOR, ELO_EXPERIMENTS, NODES, SEATS, Claim, Profile
from papers.runner import ExperimentResult, move_samples
from papers.verdicts import Verdict, judge, percent, win_rate

REPORT_FILE = "report.md"


def write_report(profile: Profile, results: Sequence[ExperimentResult], out: Path,
                 conditions: Sequence[str] = (), seconds: float | None = None) -> Path:
    """``out/report.md`` and one PNG per figure, from the recorded games of ``results``."""
    # matplotlib takes seconds to import; importing it here keeps every other command quick to start.
    from harness import plots

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
    samples = move_samples(result)
    nodes: dict[str, list[tuple[str | float, Interval]]] = {}
    seconds: dict[str, list[tuple[str | float, Interval]]] = {}
    if not samples:
        return ["No move of these games reported its search statistics, so there are no node counts to show."]
    lines = ["Nodes, depths and evaluations are those each move's search reported during the game.", "",
             "| series | moves searched | depth reached | mean nodes per move (95%) | mean evaluations per move "
             "(95%) | mean ms per move (95%) |", "|---|---:|---|---|---|---|"]
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
        counted = [s.evaluations for s in mine if s.evaluations is not None]
        e = statistics.mean_interval(counted) if counted else None
        lines.append(f"| {series} | {len(mine)} | {_depths([s.depth for s in mine])} | "
                     f"{n.value:.0f} [{n.low:.0f}, {n.high:.0f}] | "
                     + ("n/a" if e is None else f"{e.value:.0f} [{e.low:.0f}, {e.high:.0f}]")
                     + f" | {t.value:.1f} [{t.low:.1f}, {t.high:.1f}] |")
    title = f"{experiment.paper}, Fig. 12/13"
    node_figure = plots.interval_series_plot(nodes, out / f"{experiment.key}-nodes.png", xlabel="move number",
                                             ylabel="nodes searched (geometric mean, 95% interval)", title=title,
                                             log_y=True, unit_range=False)
    time_figure = plots.interval_series_plot(seconds, out / f"{experiment.key}-time.png", xlabel="move number",
                                             ylabel="ms per move in the game (geometric mean, 95%)", title=title,
                                             log_y=True, unit_range=False)
    return lines + ["", f"![nodes per move]({node_figure.name})", "", f"![time per move]({time_figure.name})"]


def _depths(depths: Sequence[int | None]) -> str:
    """The depths the searches completed: ``4``, ``3 to 4`` when some stopped short, ``n/a`` if none said."""
    known = [d for d in depths if d is not None]
    if not known:
        return "n/a"
    low, high = min(known), max(known)
    return str(low) if low == high else f"{low} to {high}"


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
        interval = "anchor" if rating.name == ELO_ANCHOR else interval_text(rating.low, rating.high)
        lines.append(f"| {rank} | `{rating.name}` | {signed(rating.elo)} | {interval} | {rating.games} |")
    return lines + [""]
