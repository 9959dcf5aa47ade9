"""The evidence on claims about rates: a quoted rate (within a margin), a score above or below half, two similar rates.

Each builder turns a claim and its cells' games into the hypotheses the verdict rule
(``connectx.papers.claims.verdicts``) decides on, with the measurement in words and the test's power.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

from connectx.evaluation.statistics import hypothesis_tests
from connectx.evaluation.statistics.clustered_scores import ClusteredScore
from connectx.evaluation.statistics.elo import Interval
from connectx.papers.claims.cell_scores import (
    SCORE,
    adjusted_difference,
    cell_name,
    cell_score,
    clustered_percent,
    decisive_share,
    effective_text,
    independent_text,
    one_cell,
    points_text,
    pooled_score,
    subject_text,
)
from connectx.papers.claims.p_value_text import p_text
from connectx.papers.claims.verdicts import (
    AGAINST,
    ALPHA,
    FOR,
    Evidence,
    Hypothesis,
    cells_leaning,
    cells_where,
    direction_hypotheses,
    size_hypothesis,
    untested,
)
from connectx.papers.experiments.design import Claim
from connectx.papers.experiments.runner import CellResult, ExperimentResult


def rate_evidence(claim: Claim, cells: Sequence[CellResult]) -> Evidence:
    """A claimed rate within ``claim.detectable`` of the paper's number: ``FOR`` is TOST (both edges of the
    margin rejected), ``AGAINST`` the one-sided test at the nearer edge that the rate lies beyond it, over the
    pooled ``cells``; a score's variance at each edge takes off what the cells' draws do."""
    assert claim.paper_value is not None
    score = pooled_score(cells, claim.counts)
    claimed, margin = claim.paper_value, claim.detectable
    what = "scored" if claim.counts == SCORE else "won"
    test = (
        f"two one-sided score tests of a rate within {100 * margin:g} points of {100 * claimed:g}% (if "
        "rejected: agrees) and the one-sided score test at the margin's nearer edge of a rate beyond it (if "
        f"rejected: contradicted); power: of showing the margin if the rate is {100 * claimed:g}%"
    )
    if score.games == 0:
        return untested("no games played", 0, test)
    ours = f"{subject_text(claim, what)} {clustered_percent(score)}, {effective_text(score)}"
    if claimed in (0.0, 1.0):
        missed = round(abs(claimed - score.value) * score.games)
        if missed:
            ours += (
                f'; {missed} of {score.games} games {"not won" if claimed == 1.0 else "won"}, so "all" '
                "does not hold literally"
            )
    draws = 1.0 - decisive_share(cells, claim.counts)
    beyond = hypothesis_tests.beyond_margin_z(score.value, claimed, margin, score.effective, draws)
    equivalence = hypothesis_tests.equivalence_z(score.value, claimed, margin, score.effective, draws)

    def power(level: float) -> float:
        return hypothesis_tests.equivalence_power(claimed, margin, score.effective, level)

    hypotheses = (
        Hypothesis(FOR, hypothesis_tests.upper_p_value(equivalence), f"further than {100 * margin:g} points"),
        Hypothesis(AGAINST, hypothesis_tests.upper_p_value(beyond), f"within {100 * margin:g} points"),
    )
    return Evidence(ours, score.games, test, hypotheses, power)


def _even_z(score: ClusteredScore, cells: Sequence[CellResult], counting: str) -> float:
    """The score test of "even" (1/2) with the variance the games' draws imply under it: a quarter of the share of
    decided games per effective game (``decisive_share``), not a quarter, which holds only without draws."""
    share = decisive_share(cells, counting)
    if share == 0:
        return math.nan
    return (score.value - 0.5) / math.sqrt(0.25 * share / score.effective)


def half_evidence(claim: Claim, cells: Sequence[CellResult]) -> Evidence:
    score = pooled_score(cells, claim.counts)
    if score.games == 0:
        return untested("no games played", 0, "none")
    direction = 1.0 if claim.test == "above_half" else -1.0
    implied = claim.detectable
    target = 0.5 + direction * implied
    pooled = f"{subject_text(claim, 'scored')} {clustered_percent(score)}, {effective_text(score)}"
    at_least = f"a score of {100 * target:g}% or {'more' if direction > 0 else 'less'}"
    size = (
        f"the {points_text(implied)} points from 50% the words imply"
        if claim.magnitude
        else f"{at_least} (the smallest edge this report counts)"
    )

    def effect_of(interval: Interval) -> Interval:
        """The distance from 1/2 in the claim's direction, with its interval."""
        ends = sorted(direction * (end - 0.5) for end in (interval.low, interval.high))
        return Interval(direction * (interval.value - 0.5), ends[0], ends[1])

    def short_of(s: ClusteredScore) -> float:
        """How far the score falls short of the implied size, over the error at that size (one-sided z)."""
        return direction * (s.value - target) / math.sqrt(target * (1 - target) / s.effective)

    if claim.each:
        scores = [(c, cell_score(c, claim.counts)) for c in cells if c.match.records]
        scores = [(c, s) for c, s in scores if s.games]
        zs = [direction * _even_z(s, [c], claim.counts) for c, s in scores]

        def each_power(level: float) -> float:
            return math.prod(hypothesis_tests.rate_power(0.5, target, s.effective, level) for _, s in scores)

        effects = [effect_of(s.interval()) for _, s in scores]
        ours = "; ".join(f"{cell_name(c)} {subject_text(claim, 'scored')} {clustered_percent(s)}" for c, s in scores)
        ours += f" (pooled: {pooled})"
        if claim.magnitude:
            ours += (
                "; from 50% the claimed way "
                + ", ".join(f"{points_text(e.value)} [{points_text(e.low)}, {points_text(e.high)}]" for e in effects)
                + f" points against the {points_text(implied)} the words imply"
            )
        test = (
            f"score test of 50% in every cell, its variance from the share of decided games "
            f"(intersection-union: the largest p; the other way: the smallest times {len(scores)}) and of a "
            f"score {points_text(implied)} points from it; power: of every cell "
            f"showing a score of {100 * target:g}%"
        )
        shortfalls = [short_of(s) for _, s in scores]
        hypotheses = (
            direction_hypotheses(min(zs), contrary_tests=len(scores)),
            size_hypothesis(shortfalls, at_least + " in some cell"),
        )
        # A cell fails when it alone would reject what the claim's hypotheses reject for the claim: the other
        # way, or (words with a size) the size ruled out, each at ALPHA over the cells (Bonferroni).
        fails = [
            direction_hypotheses(z, contrary_tests=len(scores)).role == AGAINST
            and direction_hypotheses(z, contrary_tests=len(scores)).p_value < ALPHA
            or claim.magnitude
            and size_hypothesis([short], "").p_value * len(scores) < ALPHA
            for z, short in zip(zs, shortfalls, strict=True)
        ]
        shown = [direction_hypotheses(z).role == FOR and direction_hypotheses(z).p_value < ALPHA for z in zs]
        leaning = cells_leaning(zs, fails, shown)
        values = sorted(100 * s.value for _, s in scores)
        subject = claim.subject.split(" (")[0]
        headline = (
            f"{subject + ' ' if subject else ''}scored {values[0]:.1f}% to {values[-1]:.1f}% in the "
            f"{len(scores)} cells; pooled {clustered_percent(score)}"
        )
        return Evidence(
            ours,
            score.games,
            test,
            hypotheses,
            each_power,
            size,
            holds_over=cells_where([cell_name(c) for c, _ in scores], fails, shown),
            leaning=leaning,
            leans=1 if leaning else 0,
            headline=headline,
        )
    z = direction * _even_z(score, cells, claim.counts)

    def power(level: float) -> float:
        return hypothesis_tests.rate_power(0.5, target, score.effective, level)

    ours = pooled
    against = [c for c in cells if direction * (cell_score(c, claim.counts).value - 0.5) < 0]
    if 0 < len(against) < len(cells):
        ours += "; cells on the other side of 50%: " + ", ".join(
            f"{cell_name(c)} {clustered_percent(cell_score(c, claim.counts))}" for c in against
        )
    effect = effect_of(score.interval())
    if claim.magnitude:
        ours += (
            f"; {points_text(effect.value)} points from 50% the claimed way [{points_text(effect.low)}, "
            f"{points_text(effect.high)}] against the {points_text(implied)} the words imply"
        )
    test = (
        f"score test of 50% (its variance from the share of decided games) and of a score of {100 * target:g}%; "
        f"power against a score of {100 * target:g}%"
    )
    return Evidence(
        ours, score.games, test, (direction_hypotheses(z), size_hypothesis([short_of(score)], at_least)), power, size
    )


def similar_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """Two cells' rates within ``claim.detectable`` of each other: TOST on their difference (Agresti-Caffo's
    adjusted rates, one success and one failure added to each over its effective games), and the one-sided
    test that they are further apart than that."""
    test = "two one-sided tests of a difference within the margin (Agresti-Caffo)"
    a, b = one_cell(result, claim.cells), one_cell(result, claim.baseline)
    if a is None or b is None:
        return untested("a cell of the comparison has no games", 0, test)
    first, second = cell_score(a, claim.counts), cell_score(b, claim.counts)
    games = first.games + second.games
    if not first.games or not second.games:
        return untested("a cell of the comparison has no games", games, test)
    margin = claim.detectable
    difference, spread = adjusted_difference(first, second)
    equivalence, beyond = hypothesis_tests.difference_margin_z(difference, spread, margin)
    measured = hypothesis_tests.difference_interval(first.interval(), second.interval())
    what = "scored" if claim.counts == SCORE else "won"
    ours = (
        f"{cell_name(a)} {what} {clustered_percent(first)}, {cell_name(b)} {clustered_percent(second)}; "
        f"difference {points_text(measured.value)} points "
        f"[{points_text(measured.low)}, {points_text(measured.high)}] "
        f"({games} games, {first.distinct + second.distinct} distinct, worth "
        f"{independent_text(first.effective + second.effective)})"
    )
    pooled = (first.value * first.effective + second.value * second.effective) / (first.effective + second.effective)
    null_spread = math.sqrt(max(pooled * (1 - pooled), 0.01) * (1 / (first.effective + 2) + 1 / (second.effective + 2)))

    def power(level: float) -> float:
        critical = NormalDist().inv_cdf(1 - level)
        return max(0.0, 2 * NormalDist().cdf(margin / null_spread - critical) - 1)

    test += (
        f" of {100 * margin:g} points (if rejected: agrees) and of a difference beyond it (if rejected: "
        "contradicted); power: of showing the margin if the rates are equal"
    )
    hypotheses = (
        Hypothesis(FOR, hypothesis_tests.upper_p_value(equivalence), f"further apart than {100 * margin:g} points"),
        Hypothesis(AGAINST, hypothesis_tests.upper_p_value(beyond), f"within {100 * margin:g} points"),
    )
    counts = [round(s.value * s.games) for s in (first, second)]
    fisher = hypothesis_tests.fisher_exact_p(counts[0], first.games, counts[1], second.games)
    ours += f"; Fisher's exact test of equal rates over the games (unclustered): p = {p_text(fisher)}"
    differ = measured.low > 0 or measured.high < 0
    leaning = (
        f"{points_text(measured.value)} points apart [{points_text(measured.low)}, "
        f"{points_text(measured.high)}], Fisher's p {p_text(fisher)}; not shown beyond {100 * margin:g} points"
        if differ
        else ""
    )
    edges = [(i.low, i.high) for i in (first.interval(), second.interval())]
    at_floor = all(high < margin for _, high in edges) or all(low > 1 - margin for low, _ in edges)
    floor = (
        f"{counts[0]} and {counts[1]} of {first.games} {what}, alike only in "
        f"{'losing' if edges[0][1] < margin else 'winning'}"
        if at_floor
        else ""
    )
    headline = f"{a.cell.x} {what} {clustered_percent(first)}, {b.cell.x} {clustered_percent(second)}"
    return Evidence(
        ours, games, test, hypotheses, power, leaning=leaning, leans=-1 if differ else 0, floor=floor, headline=headline
    )
