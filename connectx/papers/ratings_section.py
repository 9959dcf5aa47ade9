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
from connectx.evaluation import statistics
from connectx.evaluation.results_text import interval_text, signed
from connectx.evaluation.statistics import Interval
from connectx.papers import rated_group
from connectx.papers.experiments import ELO_ANCHOR, ELO_EXPERIMENTS
from connectx.papers.kang import h_spec
from connectx.papers.report_format import APPENDIX_FILE, p_value_text
from connectx.papers.runner import ExperimentResult

KANG_ELO_EXPERIMENTS = ("kang-table6", "kang-table7", "kang-table8", "kang-table9")
"""Kang's H1/H2 variants meet only each other: their games make a scale of their own."""


def elo_section(results: Sequence[ExperimentResult], out: Path, plots: ModuleType,
                 unrated: list[str]) -> list[str]:
    lines = ["## Elo of every agent the games can rate", "",
             "A joint maximum-likelihood (Bradley-Terry) fit, draws as half points, of the agents the games can "
             "place: each took points from, and gave points to, the others along some chain of games, winning and "
             f"losing at least {rated_group.MIN_DECISIVE_POINTS:g} points (the others are listed with the reason). "
             "Intervals are 95% profile-likelihood ones, relative to the anchor.", ""]
    lines += _elo_table(results, ELO_EXPERIMENTS, ELO_ANCHOR, "The Sheoran agents and the solver",
                        out / "elo.png", plots, unrated)
    lines += _elo_table(results, KANG_ELO_EXPERIMENTS, h_spec(2, "h1"),
                        "Kang's H1 and H2, on a scale of their own (no game ties them to the agents above)",
                        out / "kang-elo.png", plots, unrated)
    return lines


def _elo_table(results: Sequence[ExperimentResult], keys: Sequence[str], anchor: str, title: str, figure: Path,
               plots: ModuleType, unrated: list[str]) -> list[str]:
    """One fit's goodness of fit and table, the agents it cannot rate (why, into ``unrated``, for the appendix) and
    ``figure`` of its ratings by depth and T_max."""
    points: dict[tuple[str, str], tuple[float, int]] = {}
    for result in results:
        if result.experiment.key not in keys:
            continue
        for cell_result in result.cells:
            total = cell_result.match.summary.total
            # One agent, one name: a spec spelling a default out is the same agent as one that leaves it out.
            pair = (AgentSpec.parse(cell_result.cell.first).without_defaults().text,
                    AgentSpec.parse(cell_result.cell.second).without_defaults().text)
            if total.games and pair[0] != pair[1]:
                score, games = points.get(pair, (0.0, 0))
                points[pair] = (score + total.wins + total.draws / 2, games + total.games)
    lines = [f"### {title}", ""]
    rated = rated_group.rankable_players(points, anchor)
    if not rated:
        return lines + [f"No two agents of these experiments both won and lost {rated_group.MIN_DECISIVE_POINTS:g} "
                        "points against each other: nothing to rate.", ""]
    if anchor not in rated:
        anchor = max(sorted(rated), key=lambda name: sum(g for pair, (_, g) in points.items() if name in pair))
    inside = {pair: value for pair, value in points.items() if pair[0] in rated and pair[1] in rated}
    ratings = statistics.fit_ratings(inside, anchor, profile=True)
    fit = rated_group.rating_fit(inside, ratings)
    fit_text = f"Goodness of fit: deviance {fit.deviance:.1f} on {fit.df} df, p = {p_value_text(fit.p_value)}"
    if fit.fails:
        ratings = statistics.fit_ratings(inside, anchor, z=statistics.Z95 * math.sqrt(fit.dispersion), profile=True)
        fit_text += (f": **the model does not fit**. One Elo per agent does not explain these games: the results "
                     "are not transitive (an agent can beat a second that beats a third and still lose to the third), "
                     "so the scale orders the agents only roughly. The intervals below are quasi-likelihood ones, "
                     f"widened by the square root of the dispersion factor {fit.dispersion:.1f} (deviance / df) to "
                     "the spread the games really show.")
    else:
        fit_text += ": the model fits (one Elo per agent explains the games within their chance)."
    lines += [fit_text, "", f"`{anchor}` is pinned at 0. Agents whose intervals overlap share a rank (the rank is "
              "1 plus the agents whose interval lies wholly above).", "",
              "| rank | agent | Elo | 95% interval | games |", "|---:|---|---:|---|---:|"]
    for rank, rating in zip(rated_group.competition_ranks(ratings), ratings, strict=True):
        interval = "anchor" if rating.name == anchor else interval_text(rating.low, rating.high)
        lines.append(f"| {rank} | `{rating.name}` | {signed(rating.elo)} | {interval} | {rating.games} |")
    outside = sorted({name for pair in points for name in pair} - rated)
    if outside:
        lines += ["", "Not rated ([why](" + APPENDIX_FILE + "#not-rated)): " + ", ".join(f"`{n}`" for n in outside)]
        unrated += [f"- `{name}`: {_why_unrated(name, points, rated)}" for name in outside]

    panels: list[tuple[str, dict[str, list[tuple[str | float, Interval]]], bool]] = []
    for axis, log_x, series in zip(("minimax depth", "MCTS time per move (ms)", "search depth"), (False, True, False),
                                   elo_series(ratings), strict=True):
        if series:
            panels.append((axis, {label: [(x, Interval(r.elo, r.low, r.high)) for x, r in rated_points]
                                  for label, rated_points in series.items()}, log_x))
    if panels:
        caption = "Elo by depth" + (" and by time per move" if any(log_x for _, _, log_x in panels) else "")
        plots.elo_panels_plot(panels, figure, f"{caption} ({anchor} = 0)")
        lines += ["", f"![{caption}]({figure.name})"]
    return lines + [""]


EloSeries = dict[str, list[tuple[str | float, statistics.Rating]]]


def elo_series(ratings: Sequence[statistics.Rating]) -> tuple[EloSeries, EloSeries, EloSeries]:
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
        if spec.name == "minimax" and parameters.get("evaluation") in ("h1", "h2") and set(parameters) == {
                "depth", "evaluation"}:
            label = parameters["evaluation"].upper() + ("" if paper else " (ours)")
            by_heuristic.setdefault(label, []).append((float(parameters["depth"]), rating))
        # Sheoran's minimax as written has no table at depths 1-3 (memo=false) and one at 4/5; ours always has one
        elif spec.name == "minimax" and set(parameters) <= {"depth", "memo"} and \
                parameters.get("memo", True) == ("depth" not in parameters or not paper):
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
        return (f"won {scored:g} and lost {games - scored:g} of {games:.0f} points against the rated agents: fewer "
                f"than {rated_group.MIN_DECISIVE_POINTS:g} won or lost, too few to place it")
    if scored == games:
        return f"won every one of its {games:.0f} games against the rated agents (its Elo is unbounded above)"
    if scored == 0:
        return f"lost every one of its {games:.0f} games against the rated agents (its Elo is unbounded below)"
    return "tied to the rated agents only through agents that won or lost every game"
