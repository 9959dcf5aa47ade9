"""Each experiment's table and figure in the paper's layout: series by x, Kang's table by seat, Table 9's heat map,
nodes and time per move."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from connectx.evaluation.statistics import hypothesis_tests
from connectx.evaluation.statistics.elo import Interval
from connectx.papers.claims.cell_scores import WIN, cell_score, clustered_percent, percent, win_rate
from connectx.papers.claims.move_claims import depths_searched
from connectx.papers.experiments.design import Experiment
from connectx.papers.experiments.runner import ExperimentResult, move_samples, simulations_per_move
from connectx.papers.writing.report_format import APPENDIX_FILE


def series_table(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    """An experiment's cells, one row each (the report's short table: the agents and the games by seat are in the
    appendix, ``cells_table``), and its figure."""
    experiment = result.experiment
    series: dict[str, list[tuple[str | float, Interval]]] = {}
    for cell_result in result.cells:
        cell = cell_result.cell
        x = cell.value if experiment.log_x and cell.value is not None else cell.x
        series.setdefault(cell.series, []).append((x, cell_score(cell_result, WIN).interval()))
    reference = [(name, _placed(experiment, name, x), value) for name, x, value in experiment.paper_points]
    figure = plots.interval_series_plot(
        series,
        out / f"{experiment.key}.png",
        xlabel=experiment.x_label,
        ylabel="win rate of the first agent (95% interval)",
        title=f"{experiment.paper}, {experiment.title}",
        reference=reference,
        lines=experiment.paper_lines,
        log_x=experiment.log_x,
        x_unit="ms" if experiment.log_x else "",
        connect=experiment.ordered_x,
    )
    note = f"Agents and seats: [appendix]({APPENDIX_FILE}#{experiment.key}-cells)."
    if any(simulations_per_move(c) for c in result.cells):
        note += " Simulations: the MCTS agent's mean per move."
    return _cell_rows(result, full=False) + ["", note, "", f"![{experiment.title}]({figure.name})"]


def cells_table(result: ExperimentResult) -> list[str]:
    """Every cell of an experiment in full: its two agents and its games by seat, for the appendix."""
    experiment = result.experiment
    return [
        f'<a id="{experiment.key}-cells"></a>',
        "",
        f"### {experiment.source}",
        "",
        *_cell_rows(result, full=True),
        "",
    ]


def _cell_rows(result: ExperimentResult, full: bool) -> list[str]:
    """The cells' table: W-D-L, win rate and score (where a game was drawn), simulations per move (where an
    MCTS reported them) and the paper's number (where it gives one); ``full`` adds the agents and the W-D-L
    from each seat."""
    experiment = result.experiment
    marks = {(series, x): value for series, x, value in experiment.paper_points}
    simulations = [simulations_per_move(c) for c in result.cells]
    show_simulations = any(simulations)
    # Without a draw the score is the win rate: its column would repeat it.
    show_score = any(c.match.summary.total.draws for c in result.cells)
    show_paper = bool(marks)
    heads = (
        ["series", experiment.x_label]
        + (["first agent", "second agent"] if full else [])
        + ["W-D-L"]
        + (["W-D-L moving first", "W-D-L moving second"] if full else [])
        + ["win rate (95%)"]
        + (["score (95%)"] if show_score else [])
        + (["simulations per move"] if show_simulations else [])
        + (["paper"] if show_paper else [])
    )
    numeric = show_simulations + show_paper
    lines = ["| " + " | ".join(heads) + " |", "|" + "---|" * (len(heads) - numeric) + "---:|" * numeric]
    for cell_result, sims in zip(result.cells, simulations, strict=True):
        cell, summary = cell_result.cell, cell_result.match.summary
        total, first, second = summary.total, summary.as_first, summary.as_second
        paper = marks.get((cell.series, cell.x))
        row = (
            [cell.series, cell.x]
            + ([f"`{cell.first}`", f"`{cell.second}`"] if full else [])
            + [f"{total.wins}-{total.draws}-{total.losses}"]
            + (
                [f"{first.wins}-{first.draws}-{first.losses}", f"{second.wins}-{second.draws}-{second.losses}"]
                if full
                else []
            )
            + [clustered_percent(cell_score(cell_result, WIN))]
            + ([clustered_percent(cell_score(cell_result, "score"))] if show_score else [])
            + ([", ".join(f"{value:.0f}" for value in sims.values()) or "n/a"] if show_simulations else [])
            + (["" if paper is None else f"{100 * paper:g}%"] if show_paper else [])
        )
        lines.append("| " + " | ".join(row) + " |")
    return lines


def _placed(experiment: Experiment, series: str, x: str) -> str | float:
    """Where the figure puts cell (series, x): its number on a log axis, else its label."""
    cell = experiment.cell(series, x)
    return cell.value if experiment.log_x and cell.value is not None else x


def seats_table(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    """Kang's layout: the first mover's depth by column, the second mover's by row, both win rates."""
    experiment = result.experiment
    by_seats: dict[tuple[str, str], list[int]] = {}
    for record in (r for c in result.cells for r in c.match.records if r.scored):
        tally = by_seats.setdefault(record.agents, [0, 0, 0])
        tally[0 if record.winner == 0 else 2 if record.winner == 1 else 1] += 1
    labels = {c.first: c.series for c in experiment.cells}
    specs = list(labels)
    lines = [
        "As the paper's Table 6: columns are the first mover's depth, rows the second mover's; each cell "
        "gives the first mover's win rate / the second mover's and the games of that seat order (a "
        "colour-swapped match sits in mirrored cells); the heat map gives each cell's plain Wilson interval.",
        "",
        "| second \\ first | " + " | ".join(labels[s] for s in specs) + " |",
        "|---|" + "---|" * len(specs),
    ]
    grid: list[list[Interval | None]] = []
    notes: list[list[str]] = []
    for second in specs:
        cells: list[str] = []
        row: list[Interval | None] = []
        row_notes: list[str] = []
        for first in specs:
            wins, draws, losses = by_seats.get((first, second), [0, 0, 0])
            if wins + draws + losses == 0:
                cells.append("")
                row.append(None)
                row_notes.append("")
                continue
            mine, theirs = win_rate(wins, draws, losses), win_rate(losses, draws, wins)
            cells.append(f"{100 * mine.value:.0f}% / {100 * theirs.value:.0f}%, {wins + draws + losses}")
            row.append(mine)
            row_notes.append(f"2nd {100 * theirs.value:.0f}%, n={wins + draws + losses}")
        lines.append(f"| {labels[second]} | " + " | ".join(cells) + " |")
        grid.append(row)
        notes.append(row_notes)
    first_wins, draws, second_wins = (sum(t[k] for t in by_seats.values()) for k in range(3))
    lines += [
        "",
        f"Over the whole table the first mover won {percent(win_rate(first_wins, draws, second_wins))} "
        f"and the second mover {percent(win_rate(second_wins, draws, first_wins))} of "
        f"{first_wins + draws + second_wins} games, whatever the depths.",
    ]
    depth_labels = [labels[s] for s in specs]
    figure = plots.heat_map(
        grid,
        out / f"{experiment.key}.png",
        rows=depth_labels,
        columns=depth_labels,
        xlabel="first mover's depth",
        ylabel="second mover's depth",
        title=f"{experiment.paper}, {experiment.title.split(':')[0]}: first mover's win rate",
        colour_label="first mover's win rate",
        notes=notes,
    )
    return lines + ["", f"![{experiment.title}]({figure.name})"]


def heat_table(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    """Table 9 as the paper lays it out: one row per heuristic, one column per depth, each side's win rate."""
    experiment = result.experiment
    lines = series_table(result, out, plots)[:-1]
    columns = list(dict.fromkeys(c.cell.x for c in result.cells))
    series = list(dict.fromkeys(c.cell.series for c in result.cells))
    labels: list[str] = []
    rows: list[list[Interval | None]] = []
    notes: list[list[str]] = []
    for name in series:
        # A series "H1 vs H2 (ours)" gives the rows "H1 (ours)" and "H2 (ours)".
        first, _, rest = name.partition(" vs ")
        second, suffix = rest.split(" ", 1) if " " in rest else (rest, "")
        labels += [f"{first} {suffix}".strip(), f"{second} {suffix}".strip()]
        by_x = {c.cell.x: c for c in result.cells if c.cell.series == name}
        mine: list[Interval | None] = []
        theirs: list[Interval | None] = []
        mine_notes, their_notes = [], []
        for x in columns:
            cell_result = by_x.get(x)
            if cell_result is None:
                mine.append(None)
                theirs.append(None)
                mine_notes.append("")
                their_notes.append("")
                continue
            total = cell_result.match.summary.total
            mine.append(win_rate(total.wins, total.draws, total.losses))
            theirs.append(win_rate(total.losses, total.draws, total.wins))
            mine_notes.append(f"n={total.games}")
            their_notes.append(f"draws {total.draws}")
        rows += [mine, theirs]
        notes += [mine_notes, their_notes]
    figure = plots.heat_map(
        rows,
        out / f"{experiment.key}.png",
        rows=labels,
        columns=columns,
        xlabel="search depth of both",
        ylabel="heuristic",
        colour_label="win rate",
        notes=notes,
        title=f"{experiment.paper}, {experiment.title.split(':')[0]}: win rate of each heuristic",
    )
    return lines + [
        f"![{experiment.title}]({figure.name})",
        "",
        "The heat map gives each side's plain Wilson interval over its games.",
    ]


def nodes_figures(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    experiment = result.experiment
    samples = move_samples(result)
    nodes: dict[str, list[tuple[str | float, Interval]]] = {}
    seconds: dict[str, list[tuple[str | float, Interval]]] = {}
    if not samples:
        return ["No move of these games reported its search statistics, so there are no node counts to show."]
    lines = [
        "Nodes, depths and evaluations are those each move's search reported during the game.",
        "",
        "| series | moves searched | depth reached | mean nodes per move (95%) | mean evaluations per move "
        "(95%) | mean ms per move (95%) |",
        "|---|---:|---|---|---|---|",
    ]
    for series in dict.fromkeys(s.series for s in samples):
        mine = [s for s in samples if s.series == series]
        for move in sorted({s.move for s in mine}):
            at = [s for s in mine if s.move == move]
            nodes.setdefault(series, []).append(
                (float(move), hypothesis_tests.geometric_interval([max(1, s.nodes) for s in at]))
            )
            timed = [1000 * s.seconds for s in at if s.seconds > 0]
            if timed:
                seconds.setdefault(series, []).append((float(move), hypothesis_tests.geometric_interval(timed)))
        n = hypothesis_tests.mean_interval([s.nodes for s in mine])
        t = hypothesis_tests.mean_interval([1000 * s.seconds for s in mine if s.seconds == s.seconds])
        counted = [s.evaluations for s in mine if s.evaluations is not None]
        e = hypothesis_tests.mean_interval(counted) if counted else None
        lines.append(
            f"| {series} | {len(mine)} | {_depths([s.depth for s in mine])} | "
            f"{n.value:.0f} [{n.low:.0f}, {n.high:.0f}] | "
            + ("n/a" if e is None else f"{e.value:.0f} [{e.low:.0f}, {e.high:.0f}]")
            + f" | {t.value:.1f} [{t.low:.1f}, {t.high:.1f}] |"
        )
    title = f"{experiment.paper}, {experiment.title.split(':')[0]}"
    node_figure = plots.interval_series_plot(
        nodes,
        out / f"{experiment.key}-nodes.png",
        xlabel="move number",
        ylabel="nodes searched (geometric mean, 95% interval)",
        title=title,
        log_y=True,
        unit_range=False,
    )
    time_figure = plots.interval_series_plot(
        seconds,
        out / f"{experiment.key}-time.png",
        xlabel="move number",
        ylabel="ms per move in the game (geometric mean, 95%)",
        title=title,
        log_y=True,
        unit_range=False,
    )
    return lines + ["", f"![nodes per move]({node_figure.name})", "", f"![time per move]({time_figure.name})"]


def _depths(depths: Sequence[int | None]) -> str:
    """The depths the searches completed: ``4``, ``3 to 4`` when some stopped short, ``n/a`` if none said."""
    known = [d for d in depths if d is not None]
    if not known:
        return "n/a"
    low, high = min(known), max(known)
    return str(low) if low == high else f"{low} to {high}"


def depth_figure(result: ExperimentResult, out: Path, plots: ModuleType) -> list[str]:
    """An experiment of two agents on one clock (``DEPTHS``): its games' table, the depth each agent reached at each
    move number (the quantity its claim tests, capped at the empty cells), and each agent's mean over the moves the
    test counts."""
    experiment = result.experiment
    every: dict[str, dict[int, list[int]]] = {}
    tested: dict[str, list[int]] = {}
    for cell_result in result.cells:
        cell = cell_result.cell
        # The series names the two sides (``table vs no table``); without a "vs", their specs do.
        first, second = cell.series.split(" vs ") if " vs " in cell.series else (cell.first, cell.second)
        names = {cell.first: first, cell.second: second}
        for record in cell_result.match.records:
            for seat in (0, 1):
                name = names[record.agents[seat]]
                for move, depth in depths_searched(record, seat, every_move=True):
                    every.setdefault(name, {}).setdefault(move, []).append(depth)
                tested.setdefault(name, []).extend(depth for _, depth in depths_searched(record, seat))
    series = {
        name: [
            (float(move), hypothesis_tests.mean_interval(values))
            for move, values in sorted(moves.items())
            if len(values) > 1
        ]
        for name, moves in every.items()
    }
    title = f"{experiment.paper}, {experiment.title.split(':')[0]}"
    figure = plots.interval_series_plot(
        series,
        out / f"{experiment.key}.png",
        xlabel="move number",
        ylabel="plies reached per move (mean, 95%)",
        title=title,
        unit_range=False,
    )
    rows = ["| agent | moves with half the board or more empty | mean depth reached per move (95%) |", "|---|---:|---|"]
    for name, depths in tested.items():
        mean = hypothesis_tests.mean_interval(depths)
        rows.append(f"| {name} | {len(depths)} | {mean.value:.2f} [{mean.low:.2f}, {mean.high:.2f}] |")
    note = (
        f"Agents and seats: [appendix]({APPENDIX_FILE}#{experiment.key}-cells). Depths are those each move's "
        "search reported during the game, capped at the cells still empty; the table's intervals treat moves "
        "as independent (the claim's test takes one difference per opening)."
    )
    return _cell_rows(result, full=False) + ["", *rows, "", note, "", f"![depth reached per move]({figure.name})"]
