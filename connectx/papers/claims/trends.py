"""The evidence on claims about trends: a rate that rises along a series, or the claimed cells above a baseline.

A rise is looked for within each series and seat (a stratified Cochran-Armitage test), so that the
first mover's advantage and a depth's level do not pass for a trend; a trend over a range must
still show with the step at either end left out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

from connectx.evaluation.statistics import hypothesis_tests
from connectx.evaluation.statistics.clustered_scores import ClusteredScore
from connectx.evaluation.statistics.elo import Z95, Interval
from connectx.papers.claims.cell_scores import (
    FIRST_AND_SECOND,
    SCORE,
    adjusted_difference,
    at_ceiling,
    cell_name,
    cell_score,
    cells_at,
    clustered_percent,
    one_cell,
    points_text,
    pooled_score,
)
from connectx.papers.claims.p_value_text import p_text
from connectx.papers.claims.verdicts import (
    AGAINST,
    ALPHA,
    FOR,
    Evidence,
    cells_leaning,
    cells_where,
    direction_hypotheses,
    size_hypothesis,
    untested,
    weakest,
)
from connectx.papers.experiments.design import Claim
from connectx.papers.experiments.runner import CellResult, ExperimentResult


@dataclass(frozen=True)
class Stratum:
    """One series at one seat of a trend claim: its points along the axis and their linear trend."""

    series: str
    seat: int
    points: tuple[tuple[float, ClusteredScore], ...]
    trend: hypothesis_tests.Trend
    span: float
    """The axis' range over the claim (the trend's slope times it is the rise across the series)."""

    @property
    def label(self) -> str:
        return f"{self.series}, {'moving first' if self.seat == 0 else 'moving second'}"

    def rise(self) -> Interval:
        """The rise across the series the claimed way (the axis' scores are signed so that the claim is a rise),
        with its normal 95% interval."""
        rise, error = self.trend.slope * self.span, self.trend.error * self.span
        return Interval(rise, rise - Z95 * error, rise + Z95 * error)

    def change(self) -> Interval:
        """The change of the first agent's rate from the stratum's first point to its last, as the cells are listed
        (a fall is negative, whichever way the claim runs), by the fitted trend, with its 95% interval."""
        if len(self.points) < 2 or self.trend.error != self.trend.error:
            return Interval(math.nan, math.nan, math.nan)
        distance = self.points[-1][0] - self.points[0][0]
        change, error = self.trend.slope * distance, self.trend.error * abs(distance)
        return Interval(change, change - Z95 * error, change + Z95 * error)

    def within(self, kept: Sequence[float]) -> Stratum:
        """This stratum over the points at the axis values ``kept`` only (a sub-range), its trend refitted."""
        points = tuple((x, s) for x, s in self.points if x in kept)
        if len(points) < 2:
            return Stratum(self.series, self.seat, points, hypothesis_tests.Trend(math.nan, math.nan, 0.0, 0.0), 0.0)
        trend = hypothesis_tests.trend(
            [s.value * s.effective for _, s in points], [s.effective for _, s in points], [x for x, _ in points]
        )
        return Stratum(self.series, self.seat, points, trend, max(x for x, _ in points) - min(x for x, _ in points))


def trend_strata(claim: Claim, result: ExperimentResult) -> list[Stratum]:
    """The claim's cells by series and seat, each a stratum of points (its cells' scores along the axis)."""
    span = max(claim.scores) - min(claim.scores)
    strata = []
    for series in dict.fromkeys(name for name, _ in claim.cells):
        for seat in FIRST_AND_SECOND:
            points = []
            for point, x in zip(claim.cells, claim.scores, strict=True):
                cell = one_cell(result, (point,)) if point[0] == series else None
                if cell is not None:
                    score = cell_score(cell, claim.counts, seat)
                    if score.games:
                        points.append((x, score))
            if len(points) < 2:
                continue
            trend = hypothesis_tests.trend(
                [s.value * s.effective for _, s in points], [s.effective for _, s in points], [x for x, _ in points]
            )
            strata.append(Stratum(series, seat, tuple(points), trend, span))
    return strata


def trend_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """A trend over the series, within each series and seat (a stratified Cochran-Armitage test), or, with a
    baseline, the claimed cells against the baseline's (``_rise_over_baseline``).

    Seats and series are strata: the first mover's advantage and a depth's level are fixed by the
    design, so a trend is only looked for within them, and their trends are compared (Cochran's Q of
    the slopes) to say where the claim holds. A claim about every series (``Claim.each``) needs the
    trend in each (intersection-union).
    """
    if claim.baseline:
        return _rise_over_baseline(claim, result)
    test = "Cochran-Armitage trend stratified by series and seat"
    strata = trend_strata(claim, result)
    games = sum(s.games for st in strata for _, s in st.points)
    if not strata:
        return untested("fewer than two points of the series have games", games, test)
    by_x: dict[float, list[ClusteredScore]] = {}
    for stratum in strata:
        for x, score in stratum.points:
            by_x.setdefault(x, []).append(score)
    labels = {x: point[1] for point, x in zip(claim.cells, claim.scores, strict=True)}
    pooled = {
        x: pooled_score(
            cells_at(result, [p for p, px in zip(claim.cells, claim.scores, strict=True) if px == x]), claim.counts
        )
        for x in by_x
    }
    verb = "scored " if claim.counts == SCORE else "won "
    ours = verb + ", ".join(
        f"{clustered_percent(pooled[x])} at {labels[x]}"
        for x in dict.fromkeys(claim.scores)
        if x in pooled and pooled[x].games
    )
    ours += f" ({sum(p.games for p in pooled.values())} games, {sum(p.distinct for p in pooled.values())} distinct)"
    ceiling = at_ceiling(list(pooled.values()))
    if ceiling:
        return untested(
            ours + f"; every game of the series was {ceiling}: it is at its "
            f"{'ceiling' if ceiling == 'won' else 'floor'}, where no trend can show",
            games,
            test + "; not run",
            ceiling=f"all {games} games {ceiling}",
        )
    groups = [[st for st in strata if st.series == series] for series in dict.fromkeys(st.series for st in strata)]
    if not claim.each:
        groups = [strata]
    zs = [hypothesis_tests.stratified_trend_z([st.trend for st in group]) for group in groups]
    effect = claim.detectable
    rises = [_combined_rise(group) for group in groups]
    q, df, p_q = hypothesis_tests.heterogeneity([st.trend.slope for st in strata], [st.trend.error for st in strata])
    holds = [st.label for st in strata if st.rise().low > 0]
    fails = [st.label for st in strata if st.rise().high < 0]
    first_label, last_label = labels[claim.scores[0]], labels[claim.scores[-1]]
    changes = [(st.label, st.change()) for st in strata]
    ours += (
        f"; change from {first_label} to {last_label} "
        + "; ".join(
            f"{label} {points_text(change.value)} [{points_text(change.low)}, {points_text(change.high)}]"
            for label, change in changes
        )
        + " points"
    )
    if df:
        ours += (
            f"; the strata differ: Cochran's Q = {q:.1f} on {df} df, p {p_text(p_q)}"
            if p_q < ALPHA
            else f"; no sign the strata differ: Cochran's Q = {q:.1f} on {df} df, p {p_text(p_q)}"
        )
    ours += f"; the claimed way (95% interval) in {', '.join(holds) if holds else 'no stratum'}" + (
        f"; the other way in {', '.join(fails)}" if fails else ""
    )
    totals = [sum(s.effective for s in scores) for scores in by_x.values()]
    successes = [sum(s.value * s.effective for s in scores) for scores in by_x.values()]
    xs = list(by_x)
    pooled_rate = sum(successes) / sum(totals)
    centre = min(max(pooled_rate, effect / 2), 1 - effect / 2)
    low, high = min(xs), max(xs)
    alternative = [centre + effect * ((x - low) / (high - low) - 0.5) for x in xs]

    def power(level: float) -> float:
        value = hypothesis_tests.trend_power(totals, xs, alternative, level)
        return 0.0 if math.isnan(value) else value

    each = " in every series (intersection-union)" if claim.each else ""
    test += (
        f"{each}, and of a rise of {100 * effect:g} points or more across it; heterogeneity by Cochran's Q; "
        f"power against a rise of {100 * effect:g} points (unstratified)"
    )
    size = f"a rise of {points_text(effect)} points across the series (the smallest this report counts)"
    hypotheses = (
        direction_hypotheses(weakest(zs), contrary_tests=len(zs)),
        size_hypothesis(
            [(rise - effect) / error for rise, error in rises], f"a rise of {100 * effect:g} points or more"
        ),
    )
    missing, holds_over, reverses = _short_of_range(claim, groups)
    return Evidence(
        ours, games, test, hypotheses, power, size, short_of_range=missing, holds_over=holds_over, reverses=reverses
    )


def _short_of_range(claim: Claim, groups: Sequence[Sequence[Stratum]]) -> tuple[str, str, str]:
    """Where a trend is not shown once the step at one end of its range is left out, in words (empty: nowhere);
    in a few words, where it holds and where not; and where it goes the other way (empty: nowhere).

    The words ("as T_max grows") cover the whole range, so a trend that one step carries does not bear them
    out beyond that step: with its first point left out, and with its last, the stratified trend of each
    group must still be significant the claimed way at ``ALPHA`` (two-sided, uncorrected: a condition on
    a verdict already shown, not a hypothesis of its own). Over that rest of the range, a stratum (a
    series at a seat) whose own trend is significant the other way at ``ALPHA`` over the strata
    (Bonferroni) is a reversal: the words are contradicted there.
    """
    labels = {x: point[1] for point, x in zip(claim.cells, claim.scores, strict=True)}
    order = list(dict.fromkeys(claim.scores))
    if len(order) < 3:
        return "", "", ""
    critical = NormalDist().inv_cdf(1 - ALPHA / 2)
    strata = [st for group in groups for st in group]
    reversal = NormalDist().inv_cdf(1 - ALPHA / (2 * len(strata)))
    missing: list[str] = []
    carried: list[str] = []
    reversed_in: dict[str, list[str]] = {}
    for kept, words in (
        (
            order[1:],
            f"not shown from {labels[order[1]]} to {labels[order[-1]]} (without the step from {labels[order[0]]})",
        ),
        (
            order[:-1],
            f"not shown from {labels[order[0]]} to {labels[order[-2]]} (without the step to {labels[order[-1]]})",
        ),
    ):
        failing = []
        for group in groups:
            trends = [st.within(kept).trend for st in group if len(st.within(kept).points) >= 2]
            z = hypothesis_tests.stratified_trend_z(trends) if trends else math.nan
            if math.isnan(z) or z < critical:
                failing.append(group[0].series)
        if failing:
            where = f" for {', '.join(dict.fromkeys(failing))}" if len(groups) > 1 else ""
            missing.append(words + where)
            carried.append("first" if kept == order[1:] else "last")
            span = _span(labels[kept[0]], labels[kept[-1]])
            for st in strata:
                trend = st.within(kept).trend
                if trend.error > 0 and trend.slope / trend.error < -reversal:
                    reversed_in.setdefault(span, []).append(st.label)
    if not carried:
        return "", "", ""
    first, last = _span(labels[order[0]], labels[order[1]]), _span(labels[order[-2]], labels[order[-1]])
    if reversed_in:
        span, reversing = next(iter(reversed_in.items()))
        held = first if span == _span(labels[order[1]], labels[order[-1]]) else last
        reverses = "; ".join(f"the other way {stretch} in {', '.join(names)}" for stretch, names in reversed_in.items())
        return "; ".join(missing), f"{held}; the other way {span} ({'; '.join(reversing)})", reverses
    if carried == ["first"]:
        holds_over = f"{first}; not shown {_span(labels[order[1]], labels[order[-1]])}"
    elif carried == ["last"]:
        holds_over = f"{last}; not shown {_span(labels[order[0]], labels[order[-2]])}"
    else:
        inner = _span(labels[order[1]], labels[order[-2]]) if len(order) > 3 else "between them"
        holds_over = f"{first} and {last}; not shown {inner}"
    return "; ".join(missing), holds_over, ""


def _span(start: str, end: str) -> str:
    """A stretch of a claim's axis in few words: ``10 to 100 ms`` when both ends share a unit, else
    ``F3+F4 to F2+F3+F4``."""
    start_words, end_words = start.rsplit(" ", 1), end.rsplit(" ", 1)
    if len(start_words) == len(end_words) == 2 and start_words[1] == end_words[1]:
        return f"{start_words[0]} to {end}"
    return f"{start} to {end}"


def _combined_rise(strata: Sequence[Stratum]) -> tuple[float, float]:
    """The strata's rises across the series combined by inverse variance: the rise and its standard error."""
    kept = [st for st in strata if st.trend.error > 0]
    if not kept:
        return math.nan, math.nan
    return hypothesis_tests.inverse_variance_mean(
        [st.trend.slope * st.span for st in kept], [st.trend.error * st.span for st in kept]
    )


def _rise_over_baseline(claim: Claim, result: ExperimentResult) -> Evidence:
    """The claimed cells against the baseline's (pooled, or each baseline cell on its own with ``Claim.each``:
    intersection-union), each difference by a two-group Cochran-Armitage test and its size by the
    one-sided test of a difference of ``claim.detectable`` (Agresti-Caffo's adjusted rates)."""
    claimed = pooled_score(cells_at(result, claim.cells), claim.counts)
    baseline_cells = cells_at(result, claim.baseline)
    baselines: list[tuple[CellResult | None, ClusteredScore]] = (
        [(c, cell_score(c, claim.counts)) for c in baseline_cells]
        if claim.each
        else [(None, pooled_score(baseline_cells, claim.counts))]
    )
    baselines = [(c, b) for c, b in baselines if b.games]
    test = "Cochran-Armitage (two groups: the claimed cells against " + (
        "each baseline cell; intersection-union)" if claim.each else "the baseline)"
    )
    games = claimed.games + sum(b.games for _, b in baselines)
    if not claimed.games or not baselines:
        return untested("the claimed cells or every baseline cell have no games", games, test)
    effect = claim.detectable
    ours = f"won {clustered_percent(claimed)} against " + ", ".join(
        f"{clustered_percent(b)}" + (f" at {cell_name(c)}" if c is not None else " (the baseline)")
        for c, b in baselines
    )
    differences = [hypothesis_tests.difference_interval(claimed.interval(), b.interval()) for _, b in baselines]
    ours += f" ({games} games, {claimed.distinct + sum(b.distinct for _, b in baselines)} distinct)"
    words = "the words imply" if claim.magnitude else "this report counts"
    ours += (
        "; differences "
        + ", ".join(f"{points_text(d.value)} [{points_text(d.low)}, {points_text(d.high)}]" for d in differences)
        + f" points against the {points_text(effect)} {words}"
    )
    unreachable = [b.value for _, b in baselines if b.value + effect > 1]
    if unreachable:
        ours += (
            f"; a baseline at {100 * max(unreachable):.1f}% leaves no room for a difference of {100 * effect:g} points"
        )
    ceiling = at_ceiling([claimed] + [b for _, b in baselines])
    if ceiling:
        return untested(
            ours + f"; every game was {ceiling}: no difference can show",
            games,
            test + "; not run",
            ceiling=f"all {games} games {ceiling}",
        )
    zs, groups, shortfalls = [], [], []
    for _, b in baselines:
        totals = [b.effective, claimed.effective]
        successes = [b.value * b.effective, claimed.value * claimed.effective]
        zs.append(hypothesis_tests.cochran_armitage(successes, totals, [0.0, 1.0]))
        # The power is against the observed baseline and that baseline plus the claimed size (at most 100%).
        groups.append((totals, [b.value, min(1.0, b.value + effect)]))
        difference, error = adjusted_difference(claimed, b)
        shortfalls.append((difference - effect) / error)

    def power(level: float) -> float:
        values = [
            hypothesis_tests.trend_power(totals, [0.0, 1.0], alternative, level) for totals, alternative in groups
        ]
        return math.prod(0.0 if math.isnan(v) else v for v in values)

    test += (
        f" and of a difference of {100 * effect:g} points or more; power: of every difference showing against "
        f"the observed baseline plus {100 * effect:g} points"
    )
    size = f"the {points_text(effect)} points {words}"
    hypotheses = (
        direction_hypotheses(weakest(zs), contrary_tests=len(baselines)),
        size_hypothesis(shortfalls, f"a difference of {100 * effect:g} points or more"),
    )
    fails = [
        direction_hypotheses(z, contrary_tests=len(zs)).role == AGAINST
        and direction_hypotheses(z, contrary_tests=len(zs)).p_value < ALPHA
        for z in zs
    ]
    shown = [direction_hypotheses(z).role == FOR and direction_hypotheses(z).p_value < ALPHA for z in zs]
    names = [cell_name(c) if c is not None else "the baseline" for c, _ in baselines]
    if not claim.each:
        return Evidence(ours, games, test, hypotheses, power, size)
    leaning = cells_leaning(zs, fails, shown)
    at_same = _at_same_x(claim, result, baselines, shown)
    return Evidence(
        ours,
        games,
        test,
        hypotheses,
        power,
        size,
        holds_over=cells_where(names, fails, shown),
        leaning=leaning + (f"; at equal {claim_axis(result)}, {at_same}" if leaning and at_same else ""),
        leans=1 if leaning else 0,
    )


def _at_same_x(
    claim: Claim,
    result: ExperimentResult,
    baselines: Sequence[tuple[CellResult | None, ClusteredScore]],
    shown: Sequence[bool],
) -> str:
    """For the baseline cells a claim about every cell does not show itself against, each claimed cell at the same
    x less that baseline cell (``depth 4/5 less depth 2 at 250 ms: -2.8 points``): the comparison at equal
    settings (equal time per move), a description beside the test, which pools the claimed cells."""
    claimed = {c.cell.x: c for c in cells_at(result, claim.cells)}
    by_pair: dict[str, list[str]] = {}
    for (cell, score), ok in zip(baselines, shown, strict=True):
        mine = claimed.get(cell.cell.x) if cell is not None else None
        if ok or cell is None or mine is None:
            continue
        difference = cell_score(mine, claim.counts).value - score.value
        by_pair.setdefault(f"{mine.cell.series} less {cell.cell.series}", []).append(
            f"{points_text(difference)} points at {cell.cell.x}"
        )
    return "; ".join(f"{pair}: {', '.join(values)}" for pair, values in by_pair.items())


def claim_axis(result: ExperimentResult) -> str:
    """The experiment's x axis in a word or two (``T_max``), for a comparison at equal x."""
    label = result.experiment.x_label
    return "T_max" if "T_max" in label else label
