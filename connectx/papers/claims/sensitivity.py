"""A claimed average over settings the paper does not state, recomputed over every range of ours and seat mix.

Sheoran's "79% on average over T_max" depends on which T_max values were averaged and how often
minimax moved first; the paper gives neither, so the report shows the average over each.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from connectx.evaluation.statistics import hypothesis_tests
from connectx.evaluation.statistics.clustered_scores import ClusteredScore
from connectx.evaluation.statistics.elo import Z95, Interval
from connectx.papers.claims.cell_scores import FIRST_AND_SECOND, WIN, cell_score
from connectx.papers.claims.verdicts import Evidence
from connectx.papers.experiments.design import Claim
from connectx.papers.experiments.runner import CellResult


def with_sensitivity(claim: Claim, cells: Sequence[CellResult], evidence: Evidence) -> Evidence:
    """``evidence`` with the claimed average described over every run of consecutive cells (T_max values) and
    seat mix (the share of games the agent moved first): how far it moves, and in how many of those unadjusted
    intervals the paper's number lies. A description beside the verdict, never a test: a search over many
    intervals for one that reaches a number finds one by chance."""
    assert claim.paper_value is not None
    table = sensitivity_table(cells, claim.counts)
    values = [interval for _, row in table for _, interval in row]
    if not values:
        return evidence
    reached = sum(interval.low <= claim.paper_value <= interval.high for interval in values)
    low, high = min(i.value for i in values), max(i.value for i in values)
    return replace(
        evidence,
        ours=evidence.ours
        + (
            f"; over every range of T_max and seat mix our rate runs from {100 * low:.1f}% to {100 * high:.1f}% (the "
            f"paper's {100 * claim.paper_value:g}% inside {reached} of those {len(values)} unadjusted intervals: a "
            "description, not a test)"
        ),
    )


SEAT_MIXES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Shares of games moving first over which a claimed average is recomputed (the papers do not give theirs)."""


def sensitivity_table(cells: Sequence[CellResult], counting: str = WIN) -> list[tuple[str, list[tuple[str, Interval]]]]:
    """The rate averaged over each run of two or more consecutive ``cells`` (equally weighted), at each seat mix.

    At a mix w the rate is sum over the cells of w (rate moving first) + (1 - w) (rate moving second),
    divided by the cells; its variance adds the cells' and seats' binomial variances over their
    effective games (the seats' games are different games), and the interval is the normal one.
    """
    by_seat = [[cell_score(c, counting, seat) for seat in FIRST_AND_SECOND] for c in cells]
    rows = []
    for first in range(len(cells)):
        for last in range(first + 1, len(cells)):
            chosen = by_seat[first : last + 1]
            if any(s.games == 0 for pair in chosen for s in pair):
                continue
            label = f"{cells[first].cell.x} to {cells[last].cell.x}"
            row = []
            for w in SEAT_MIXES:
                value = sum(w * a.value + (1 - w) * b.value for a, b in chosen) / len(chosen)
                variance = sum(w * w * _variance(a) + (1 - w) ** 2 * _variance(b) for a, b in chosen)
                spread = Z95 * math.sqrt(variance) / len(chosen)
                row.append(
                    (f"{100 * w:g}% moving first", Interval(value, max(0.0, value - spread), min(1.0, value + spread)))
                )
            rows.append((label, row))
    return rows


def _variance(score: ClusteredScore) -> float:
    """The variance of a clustered score's mean, kept off zero by pseudo-counts (a 100% cell is not certain)."""
    return hypothesis_tests.plus_four_variance(score.value, score.effective)
