"""The report's ratings: a joint Elo fit of the agents the papers' games can place, how well it fits, and a figure.

The Sheoran agents and the solver share opponents, so one scale links them; Kang's H1 and H2
variants meet only each other and get a scale of their own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.match import first_seat
from connectx.evaluation.results_text import interval_text, signed
from connectx.evaluation.statistics import rated_group
from connectx.evaluation.statistics.elo import Z95, Interval, Rating, fit_ratings
from connectx.papers.claims.p_value_text import p_value_text
from connectx.papers.experiments.catalogue import ELO_ANCHOR, ELO_EXPERIMENTS
from connectx.papers.experiments.kang import h_spec
from connectx.papers.experiments.runner import ExperimentResult
from connectx.papers.writing.report_format import APPENDIX_FILE, sentence_lines

KANG_ELO_EXPERIMENTS = ("kang-table6", "kang-table7", "kang-table8", "kang-table9")
"""Kang's H1/H2 variants meet only each other: their games make a scale of their own."""


def elo_section(results: Sequence[ExperimentResult], out: Path, plots: ModuleType, unrated: list[str]) -> list[str]:
    lines = [
        "## Elo of every agent the games can rate",
        "",
        "A joint maximum-likelihood (Bradley-Terry) fit, draws as half points, every game counted once, of the "
        f"agents that won and lost at least {rated_group.MIN_DECISIVE_POINTS:g} points along some chain of "
        "games (the others are listed with the reason). Intervals are 95% profile-likelihood ones, relative to "
        "the anchor. An agent's rank is 1 plus the agents rated significantly higher (a z test of the "
        "difference at 5%, with the two ratings' covariance from the fit, widened by the dispersion where the "
        "intervals are), never less than the rank above it.",
        "",
    ]
    lines += _elo_table(
        results, ELO_EXPERIMENTS, ELO_ANCHOR, "The Sheoran agents and the solver", out / "elo.png", plots, unrated
    )
    lines += _elo_table(
        results,
        KANG_ELO_EXPERIMENTS,
        h_spec(2, "h1"),
        "Kang's H1 and H2, on a scale of their own (no game ties them to the agents above)",
        out / "kang-elo.png",
        plots,
        unrated,
    )
    return lines


def _elo_table(
    results: Sequence[ExperimentResult],
    keys: Sequence[str],
    anchor: str,
    title: str,
    figure: Path,
    plots: ModuleType,
    unrated: list[str],
) -> list[str]:
    """One fit's goodness of fit and table, the agents it cannot rate (why, into ``unrated``, for the appendix) and
    ``figure`` of its ratings by depth and T_max."""
    points = _points_once(results, keys)
    lines = [f"### {title}", ""]
    rated = rated_group.rankable_players(points, anchor)
    if not rated:
        return lines + [
            f"No two agents of these experiments both won and lost {rated_group.MIN_DECISIVE_POINTS:g} "
            "points against each other: nothing to rate.",
            "",
        ]
    if anchor not in rated:
        anchor = max(sorted(rated), key=lambda name: sum(g for pair, (_, g) in points.items() if name in pair))
    inside = {pair: value for pair, value in points.items() if pair[0] in rated and pair[1] in rated}
    ratings = fit_ratings(inside, anchor, profile=True)
    fit = rated_group.rating_fit(inside, ratings)
    fit_text = f"Goodness of fit: deviance {fit.deviance:.1f} on {fit.df} df, p = {p_value_text(fit.p_value)}"
    dispersion = 1.0
    if fit.fails:
        dispersion = fit.dispersion
        ratings = fit_ratings(inside, anchor, z=Z95 * math.sqrt(dispersion), profile=True)
        fit_text += (
            ": **the model does not fit**, "
            + _misfit_text(inside, ratings, fit.deviance, anchor)
            + f" The intervals below are quasi-likelihood ones, widened by the square root of the dispersion "
            f"factor {dispersion:.1f} (deviance / df)."
        )
    else:
        fit_text += ": the model fits (one Elo per agent explains the games within their chance)."
    fit_text += " " + _tested_text(inside, results, keys)
    lines += [
        *sentence_lines(fit_text),
        "",
        f"`{anchor}` is pinned at 0.",
        "",
        "| rank | agent | Elo | 95% interval | games |",
        "|---:|---|---:|---|---:|",
    ]
    ranks = rated_group.difference_ranks(inside, ratings, anchor, dispersion)
    for rank, rating in zip(ranks, ratings, strict=True):
        interval = "anchor" if rating.name == anchor else interval_text(rating.low, rating.high)
        lines.append(f"| {rank} | `{rating.name}` | {signed(rating.elo)} | {interval} | {rating.games} |")
    outside = sorted({name for pair in points for name in pair} - rated)
    if outside:
        lines += ["", "Not rated ([why](" + APPENDIX_FILE + "#not-rated)): " + ", ".join(f"`{n}`" for n in outside)]
        unrated += [f"- `{name}`: {_why_unrated(name, points, rated)}" for name in outside]

    panels: list[tuple[str, dict[str, list[tuple[str | float, Interval]]], bool]] = []
    for axis, log_x, series in zip(
        ("minimax depth", "MCTS time per move (ms)", "search depth"),
        (False, True, False),
        elo_series(ratings),
        strict=True,
    ):
        if series:
            panels.append(
                (
                    axis,
                    {
                        label: [(x, Interval(r.elo, r.low, r.high)) for x, r in rated_points]
                        for label, rated_points in series.items()
                    },
                    log_x,
                )
            )
    if panels:
        caption = "Elo by depth" + (" and by time per move" if any(log_x for _, _, log_x in panels) else "")
        plots.elo_panels_plot(panels, figure, f"{caption} ({anchor} = 0)")
        lines += ["", f"![{caption}]({figure.name})"]
    return lines + [""]


def _tested_text(
    points: dict[tuple[str, str], tuple[float, int]], results: Sequence[ExperimentResult], keys: Sequence[str]
) -> str:
    """Which games the goodness of fit can test: a pairing on no cycle of the graph of who met whom (a bridge: an
    agent that meets one opponent only, or a group joined to the rest by one pairing) is fitted exactly, its
    ratings free to absorb it, so the deviance rests on the pairings that lie on a cycle."""
    tested = {pair for pair in points if _on_cycle(pair, points)}
    if len(tested) == len(points):
        return "Every pairing lies on a cycle of agents who met, so every one bears on the fit."
    sources = sorted(
        {
            result.experiment.source
            for result in results
            if result.experiment.key in keys
            for cell in result.cells
            if (
                AgentSpec.parse(cell.cell.first).without_defaults().text,
                AgentSpec.parse(cell.cell.second).without_defaults().text,
            )
            in tested
        }
    )
    return (
        f"It can test only the pairings on a cycle of agents who met: {len(points) - len(tested)} of the "
        f"{len(points)} pairings join an agent (or a group) to the rest alone, so the ratings fit them exactly "
        f"and they test nothing; the deviance rests on the other {len(tested)}"
        + (f", all of them in {' and '.join(sources)}" if sources else "")
        + "."
    )


def _on_cycle(pair: tuple[str, str], points: dict[tuple[str, str], tuple[float, int]]) -> bool:
    """Whether the two agents of ``pair`` are still joined by other pairings when it is taken away (not a bridge)."""
    start, goal = pair
    seen, frontier = {start}, [start]
    while frontier:
        name = frontier.pop()
        for a, b in points:
            if (a, b) == pair or name not in (a, b):
                continue
            other = b if name == a else a
            if other == goal:
                return True
            if other not in seen:
                seen.add(other)
                frontier.append(other)
    return False


def _points_once(results: Sequence[ExperimentResult], keys: Sequence[str]) -> dict[tuple[str, str], tuple[float, int]]:
    """Each pairing's points and games over the experiments ``keys`` names, every game counted once: a cell of one
    experiment that plays the same games as a cell of another (Kang's Table 8 all-features cell is Table 9's
    depth-4 one) adds nothing, and an agent spelling a default out is the agent that leaves it out."""
    points: dict[tuple[str, str], tuple[float, int]] = {}
    seen: set[tuple[tuple[str, str], int, int, tuple[int, ...]]] = set()
    for result in results:
        if result.experiment.key not in keys:
            continue
        for cell_result in result.cells:
            pair = (
                AgentSpec.parse(cell_result.cell.first).without_defaults().text,
                AgentSpec.parse(cell_result.cell.second).without_defaults().text,
            )
            if pair[0] == pair[1]:
                continue
            for record in cell_result.match.records:
                seat = first_seat(record)
                game = (pair, record.index, seat, record.moves)
                if not record.scored or game in seen:
                    continue
                seen.add(game)
                score, games = points.get(pair, (0.0, 0))
                points[pair] = (score + record.points(seat), games + 1)
    return points


def _misfit_text(
    points: dict[tuple[str, str], tuple[float, int]], ratings: Sequence[Rating], deviance: float, anchor: str
) -> str:
    """Where one Elo per agent misfits: the pairings carrying most of the deviance, whether any triangle of
    results is a cycle, and the fit without the agent whose pairings carry most of it."""
    misfits = rated_group.pairing_misfits(points, ratings)
    top = misfits[:2]
    pairs = "; ".join(
        f"`{m.first}` against `{m.second}`, {100 * m.observed:.1f}% observed against "
        f"{100 * m.fitted:.1f}% fitted over {m.games} games ({100 * m.deviance / deviance:.0f}% of the "
        "deviance)"
        for m in top
    )
    closed, cyclic = rated_group.cyclic_triangles(points)
    share: dict[str, float] = {}
    for m in misfits:
        for name in (m.first, m.second):
            share[name] = share.get(name, 0.0) + m.deviance
    outlier = max((name for name in share if name != anchor), key=lambda name: share[name])
    kept = {pair: value for pair, value in points.items() if outlier not in pair}
    text = (
        f"and the misfit is in the margins, not the order: of the {closed} triangles of agents that played all "
        f'three pairings, {cyclic} {"is a cycle" if cyclic == 1 else "are cycles"} of "scored more than half '
        f'against", while {len(top)} pairings carry {100 * sum(m.deviance for m in top) / deviance:.0f}% of the '
        f"deviance: {pairs}."
    )
    group = rated_group.rankable_players(kept, anchor)
    inside = {pair: value for pair, value in kept.items() if pair[0] in group and pair[1] in group}
    if anchor in group and inside:
        refit = rated_group.rating_fit(inside, fit_ratings(inside, anchor))
        text += (
            f" Without `{outlier}` (whose pairings carry {100 * share[outlier] / deviance:.0f}% of it, counted "
            f"once per pairing) the fit's deviance is {refit.deviance:.1f} on {refit.df} df, p = "
            f"{p_value_text(refit.p_value)}."
        )
    return text


EloSeries = dict[str, list[tuple[str | float, Rating]]]


def elo_series(ratings: Sequence[Rating]) -> tuple[EloSeries, EloSeries, EloSeries]:
    """The ratings that form a series, by label: minimax by depth, MCTS by T_max (ms), Kang's H1 and H2 by depth.

    Each paper's agent as written and our enhanced one are separate series (the papers' curves
    are about theirs); an agent with any other parameter (Kang's feature switches, a memo turned
    off at depth 4/5) is a point of no series.
    """
    by_depth: EloSeries = {}
    by_time: EloSeries = {}
    by_heuristic: EloSeries = {}
    for rating in ratings:
        spec = AgentSpec.parse(rating.name)
        parameters = spec.kwargs
        paper = parameters.pop("rules", None) == "paper"
        if (
            spec.name == "minimax"
            and parameters.get("evaluation") in ("h1", "h2")
            and set(parameters) == {"depth", "evaluation"}
        ):
            label = parameters["evaluation"].upper() + ("" if paper else " (ours)")
            by_heuristic.setdefault(label, []).append((float(parameters["depth"]), rating))
        # Sheoran's minimax as written has no table at depths 1-3 (memo=false) and one at 4/5; ours always has one
        elif (
            spec.name == "minimax"
            and set(parameters) <= {"depth", "memo"}
            and parameters.get("memo", True) == ("depth" not in parameters or not paper)
        ):
            label = "Sheoran's minimax" if paper else "our minimax"
            depth = str(parameters["depth"]) if "depth" in parameters else "4/5"
            by_depth.setdefault(label, []).append((depth, rating))
        elif spec.name == "mcts" and set(parameters) - {"clock", "proofs", "reuse"} == {"time_budget"}:
            plain = parameters.get("proofs") is False and parameters.get("reuse") is False
            ours = "proofs" not in parameters and "reuse" not in parameters
            if plain or ours:
                label = "Sheoran's MCTS (plain UCB1)" if plain else "our MCTS"
                by_time.setdefault(label, []).append((1000 * float(parameters["time_budget"]), rating))
    for series in (by_depth, by_time, by_heuristic):
        for points in series.values():
            points.sort(key=lambda point: point[0])
    return by_depth, by_time, by_heuristic


def _why_unrated(name: str, points: dict[tuple[str, str], tuple[float, int]], rated: set[str]) -> str:
    """Why ``name`` is outside the rated group: it won, or lost, every game against it (or never met it)."""
    scored = games = 0.0
    for (a, b), (score, played) in points.items():
        if a == name and b in rated:
            scored, games = scored + score, games + played
        elif b == name and a in rated:
            scored, games = scored + played - score, games + played
    if games == 0:
        return "played only agents outside the rated group"
    if 0 < scored < games and min(scored, games - scored) < rated_group.MIN_DECISIVE_POINTS:
        return (
            f"won {scored:g} and lost {games - scored:g} of {games:.0f} points against the rated agents: fewer "
            f"than {rated_group.MIN_DECISIVE_POINTS:g} won or lost, too few to place it"
        )
    if scored == games:
        return f"won every one of its {games:.0f} games against the rated agents (its Elo is unbounded above)"
    if scored == 0:
        return f"lost every one of its {games:.0f} games against the rated agents (its Elo is unbounded below)"
    return "tied to the rated agents only through agents that won or lost every game"
