"""Text for people: the running line, the final match table and the Markdown reports.

The tables are Markdown, which reads as well in a terminal as in a rendered report.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING

from connectx.evaluation.match import MatchPlan, MatchSummary, SeatRecord
from connectx.evaluation.statistics.elo import Interval
from connectx.evaluation.tournament import TournamentPlan, TournamentSummary

if TYPE_CHECKING:  # only the ladder's tables read its values: a match's text never loads its rating model (openskill)
    from connectx.evaluation.ladder import LadderPlan, LadderSummary, SeatScore


def signed(value: float, digits: int = 1) -> str:
    if math.isinf(value):
        return "+inf" if value > 0 else "-inf"
    if math.isnan(value):
        return "n/a"
    return f"{round(value, digits) + 0.0:+.{digits}f}"  # + 0.0 turns a rounded -0.0 into +0.0


def elo_estimate(elo: Interval) -> str:
    """The Elo estimate alone: ``+12.3``; ``> +45.9`` after straight wins and ``< -45.9`` after
    straight losses, where the estimate is infinite and the finite end of its 95% interval is what
    the games show; ``n/a`` before any game."""
    if math.isinf(elo.low) and math.isinf(elo.high):
        return "n/a"
    if math.isinf(elo.value):
        return f"> {signed(elo.low)}" if elo.value > 0 else f"< {signed(elo.high)}"
    return signed(elo.value)


def interval_text(low: float, high: float) -> str:
    """``[-4.0, +28.6]``, or ``n/a`` when the data bound neither end (a rating no game ties to the anchor)."""
    if math.isinf(low) and math.isinf(high):
        return "n/a"
    return f"[{signed(low)}, {signed(high)}]"


def elo_text(elo: Interval) -> str:
    """``+12.3 [-4.0, +28.6]``: the estimate and its 95% interval; ``> +45.9`` alone after straight
    wins (the 95% lower bound; there is no upper one), ``< -45.9`` after straight losses."""
    if math.isinf(elo.value) or (math.isinf(elo.low) and math.isinf(elo.high)):
        return elo_estimate(elo)
    return f"{signed(elo.value)} {interval_text(elo.low, elo.high)}"


def running_line(summary: MatchSummary) -> str:
    """One line for the progress bar: A's W-D-L, score and Elo so far (and the SPRT's LLR)."""
    total = summary.total
    text = (
        f"W-D-L {total.wins}-{total.draws}-{total.losses} score {summary.score.value:.3f} "
        f"Elo {elo_estimate(summary.elo)}"
    )
    if summary.sprt is not None:
        text += f" LLR {summary.llr:+.2f} [{summary.sprt.bounds.lower:+.2f}, {summary.sprt.bounds.upper:+.2f}]"
    return text


def _seat_row(label: str, seat: SeatRecord) -> str:
    score = "n/a" if not seat.games else f"{seat.score:.3f}"
    return f"| {label} | {seat.games} | {seat.wins} | {seat.draws} | {seat.losses} | {score} |"


def match_table(summary: MatchSummary) -> str:
    """The final table: results per seat, score, Elo, LOS, pentanomial pairs, SPRT, forfeits, times."""
    a, b = summary.first, summary.second
    lines = [
        f"**{a}** vs **{b}**: {summary.total.games} games scored of {summary.planned} planned"
        + (f", {summary.aborted} aborted (not scored)" if summary.aborted else ""),
        "",
        f"| {a} | games | wins | draws | losses | score |",
        "|---|---:|---:|---:|---:|---:|",
        _seat_row("moving first", summary.as_first),
        _seat_row("moving second", summary.as_second),
        _seat_row("total", summary.total),
        "",
        "| statistic | value |",
        "|---|---|",
        f"| score (Wilson 95%) | {summary.score.value:.3f} [{summary.score.low:.3f}, {summary.score.high:.3f}] |",
        f"| Elo difference (95%) | {elo_text(summary.elo)} |",
        f"| LOS | {100 * summary.los:.1f}% |",
        f"| pairs 0/0.5/1/1.5/2 points | {' / '.join(str(n) for n in summary.pentanomial)} |",
        f"| Elo from pairs (95%) | {elo_text(summary.pentanomial_elo)} |",
    ]
    if summary.sprt is not None:
        sprt = summary.sprt
        verdict = {"H1": f"H1 accepted: Elo >= {sprt.elo1:g}", "H0": f"H0 accepted: Elo <= {sprt.elo0:g}"}.get(
            summary.decision or "", "undecided"
        )
        lines.append(
            f"| SPRT [{sprt.elo0:g}, {sprt.elo1:g}] alpha {sprt.alpha:g} beta {sprt.beta:g} | "
            f"LLR {summary.llr:+.3f} in [{sprt.bounds.lower:+.3f}, {sprt.bounds.upper:+.3f}]: {verdict} |"
        )
    forfeits = ", ".join(
        f"{name} {cause} x{count}"
        for cause, by_name in sorted(summary.forfeits.items())
        for name, count in sorted(by_name.items())
    )
    lines.append(f"| forfeits | {forfeits or 'none'} |")
    lines += ["", "| agent | moves | mean s/move | p95 | max |", "|---|---:|---:|---:|---:|"]
    for name, times in summary.times.items():
        lines.append(
            f"| {name} | {times.moves} | {_seconds(times.mean)} | {_seconds(times.p95)} | {_seconds(times.max)} |"
        )
    return "\n".join(lines) + "\n"


def _seconds(value: float) -> str:
    return "n/a" if math.isnan(value) else f"{value:.4f}"


def match_report(plan: MatchPlan, summary: MatchSummary, plots: Sequence[str] = ()) -> str:
    """The Markdown report written next to the results: the plan, the table, the plots."""
    config = plan.config
    lines = [
        f"# Match: {plan.first} vs {plan.second}",
        "",
        f"Board {config.columns} columns x {config.rows} rows, {config.inarow} in a row, actTimeout "
        f"{config.act_timeout:g}s; seed {plan.seed}; openings of {plan.opening_plies} random plies, each "
        "played from both seats; games in colour-swapped pairs, judged by kaggle-environments.",
        "",
        match_table(summary),
    ]
    lines += [f"![{name}]({name})" for name in plots]
    return "\n".join(lines) + "\n"


def ratings_table(summary: TournamentSummary) -> str:
    """The jointly fitted Elo of every agent, strongest first, with 95% intervals relative to the anchor."""
    lines = [f"| rank | agent | Elo (anchor {summary.anchor} = 0) | 95% interval | games |", "|---:|---|---:|---|---:|"]
    for rank, rating in enumerate(summary.ratings, start=1):
        interval = "anchor" if rating.name == summary.anchor else interval_text(rating.low, rating.high)
        lines.append(f"| {rank} | {rating.name} | {signed(rating.elo)} | {interval} | {rating.games} |")
    return "\n".join(lines) + "\n"


def cross_table(summary: TournamentSummary) -> str:
    """Row agent's points against each column agent, out of the games they played."""
    order = [rating.name for rating in summary.ratings] or list(summary.agents)
    order += [name for name in summary.agents if name not in order]
    short = {name: f"#{i + 1}" for i, name in enumerate(order)}
    lines = [
        "| # | agent | " + " | ".join(short[name] for name in order) + " | score |",
        "|---:|---|" + "---:|" * (len(order) + 1),
    ]
    for name in order:
        cells, points, games = [], 0.0, 0
        for opponent in order:
            result = summary.score(name, opponent) if opponent != name else None
            if result is None:
                cells.append("-" if opponent == name else "")
                continue
            cells.append(f"{result[0]:g}/{result[1]}")
            points, games = points + result[0], games + result[1]
        total = f"{points:g}/{games} ({100 * points / games:.1f}%)" if games else "-"
        lines.append(f"| {short[name]} | {name} | " + " | ".join(cells) + f" | {total} |")
    return "\n".join(lines) + "\n"


def pairings_table(summary: TournamentSummary) -> str:
    """One line per pairing: W-D-L of the first agent, score, Elo with interval, forfeits."""
    lines = ["| pairing | W-D-L | score [95%] | Elo [95%] | LOS | forfeits |", "|---|---|---|---|---:|---|"]
    for match in summary.pairings:
        total = match.total
        forfeits = (
            ", ".join(
                f"{name} {cause} x{count}"
                for cause, by_name in sorted(match.forfeits.items())
                for name, count in sorted(by_name.items())
            )
            or "none"
        )
        lines.append(
            f"| {match.first} vs {match.second} | {total.wins}-{total.draws}-{total.losses} | "
            f"{match.score.value:.3f} [{match.score.low:.3f}, {match.score.high:.3f}] | "
            f"{elo_text(match.elo)} | {100 * match.los:.1f}% | {forfeits} |"
        )
    return "\n".join(lines) + "\n"


def tournament_tables(summary: TournamentSummary) -> str:
    return "\n".join([ratings_table(summary), cross_table(summary), pairings_table(summary)])


def tournament_report(plan: TournamentPlan, summary: TournamentSummary, plots: Sequence[str] = ()) -> str:
    config = plan.config
    kind = "Gauntlet" if plan.gauntlet else "Round robin"
    lines = [
        f"# {kind}: {', '.join(plan.agents)}",
        "",
        f"{plan.games} games per pairing in colour-swapped pairs; board {config.columns} columns x {config.rows} "
        f"rows, {config.inarow} in a row, actTimeout {config.act_timeout:g}s; seed {plan.seed}; openings of "
        f"{plan.opening_plies} random plies. Ratings: joint maximum-likelihood fit (draws as half points), "
        f"{summary.anchor} pinned at 0.",
        "",
        tournament_tables(summary),
    ]
    lines += [f"![{name}]({name})" for name in plots]
    return "\n".join(lines) + "\n"


def ladder_table(summary: LadderSummary) -> str:
    """The standings, highest μ first: μ, σ, episodes, W-D-L, and the score from each seat against each kind.

    A cell reads ``first / second``: the agent's score moving first and moving second against
    that kind of opponent, with the episodes behind each (``-`` where it never sat there); the
    line under the table says so, since a terminal shows no page around it.
    """
    kinds = summary.kinds
    lines = [
        "| rank | agent | kind | μ | σ | episodes | W-D-L | " + " | ".join(f"vs {kind}" for kind in kinds) + " |",
        "|---:|---|---|---:|---:|---:|---|" + "---|" * len(kinds),
    ]
    for rank, standing in enumerate(summary.standings, start=1):
        cells = [" / ".join(_seat_score(standing.by_kind.get((kind, seat))) for seat in (0, 1)) for kind in kinds]
        lines.append(
            f"| {rank} | {standing.agent} | {standing.kind} | {standing.mu:.0f} | {standing.sigma:.0f} | "
            f"{standing.episodes} | {standing.wins}-{standing.draws}-{standing.losses} | " + " | ".join(cells) + " |"
        )
    return "\n".join(lines) + "\n\n" + LADDER_CELLS + "\n"


LADDER_CELLS = (
    "Each 'vs' cell: score moving first / score moving second against that kind of opponent "
    "(1 a win, 0.5 a draw, 0 a loss), the episodes behind each in brackets; - where it never sat there."
)
"""The legend of the ladder table's cells, e.g. ``0.50 (1) / 0.50 (3)``."""


def _seat_score(seat: SeatScore | None) -> str:
    return "-" if seat is None or not seat.games else f"{seat.points / seat.games:.2f} ({seat.games})"


def ladder_report(plan: LadderPlan, summary: LadderSummary, plots: Sequence[str] = ()) -> str:
    """The ladder's Markdown page: how it was played, the table, the plot."""
    episodes = sum(standing.episodes for standing in summary.standings) // 2
    lines = [
        f"# Ladder: {', '.join(spec.text for spec in plan.candidates) or 'the pool'} (pool {plan.pool})",
        "",
        f"{episodes} rated episodes; Kaggle's board ({plan.config.columns}x{plan.config.rows}, "
        f"{plan.config.inarow} in a row, actTimeout {plan.config.act_timeout:g}s); seed {plan.seed}. "
        f"Ratings: {summary.to_json()['model']}.",
        "",
        ladder_table(summary),
    ]
    lines += [f"![{name}]({name})" for name in plots]
    return "\n".join(lines) + "\n"
