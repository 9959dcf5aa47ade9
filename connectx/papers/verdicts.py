"""Hold each claim of a paper against the games that test it: agrees, contradicted, or not settled.

Every claim gets one test (``connectx.papers.experiments.CLAIM_TESTS``). The p-values of all the claims of a
report form one family, corrected by Holm's step-down method at ``ALPHA``; each test's power is that
of detecting the claim's effect size (``Claim.detectable``) at the level Holm holds it to
(``statistics.holm_levels``).

- A claim of a direction *agrees* when its test rejects "no effect" in the claimed direction; it is
  *contradicted* when the test rejects it in the other direction, or when nothing is significant
  although the test had at least ``POWER_NEEDED`` power to see the claimed effect (a flat result
  that a real effect of that size would rarely have given); otherwise it is *not settled*. A claim
  about every cell (``Claim.each``) is an intersection-union test: its p-value is the largest of
  the cells' (every cell must be significant the claimed way), while "some cell goes the other way"
  is a union of the cells' tests, so its p-value is the smallest of theirs times the cells (Bonferroni).
  When the words imply a size (``Claim.magnitude``) and the 95% interval of the effect we measured
  lies wholly below it (for a claim about every cell: in some cell), an agreeing verdict says so.
- A claimed rate (93.75%) is read as "within ``effect`` of the paper's number" and brings two
  hypotheses to the family: the paper's number itself (a score test; rejected: *contradicted*) and
  "further than ``effect`` from it" (two one-sided tests, TOST; rejected: *agrees*). Both rejected:
  *agrees within the margin*, the paper's exact number being ruled out. A claim of 0% or 100% falls to
  one counterexample and agrees when our games had ``POWER_NEEDED`` power to show one. Two rates
  claimed ``similar`` are tested the same way on their difference.

Games are not independent: the two games of a colour-swapped pair share an opening, deterministic
agents repeat whole games, and cells of one experiment share their openings pair by pair. So the
games are grouped into clusters (a pair, joined with every game that repeats one of its move
sequences and every game that starts from the same opening) and every rate is a clustered
(pentanomial, for pairs) estimate with an effective number of games (``statistics.clustered_score``,
each cell's games about its own mean), which is what the intervals, tests and powers use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from connectx.papers.experiments import Claim
from connectx.papers.runner import CellResult, ExperimentResult, MoveSample, move_samples
from evaluation import statistics
from evaluation.game import GameRecord
from evaluation.match import first_seat
from evaluation.statistics import ClusteredScore, Interval

ALPHA = 0.05
"""The family-wise error rate over every claim of a report (Holm)."""
POWER_NEEDED = 0.8
"""The power a test needs before its silence counts against a claim (Cohen's convention)."""

AGREES, CONTRADICTED, NOT_SETTLED = "agrees", "contradicted", "not settled"
AGREES_WITHIN = "agrees within its margin, though not at the paper's exact number"
"""A claimed rate shown to lie within the claim's margin of the paper's number, which is itself rejected."""
SMALLER = "agrees in direction; smaller than the words imply"
"""A claim whose words imply a size: significant the claimed way, but the effect's 95% interval lies below that size."""
WIN, SCORE = "win", "score"
"""What a game counts: a win (the papers' winning percentage) or the score (a draw is half)."""
DIRECTION, EXACT, EQUIVALENCE = "direction", "exact", "equivalence"
"""The kinds of claim: a direction, a rate of 0% or 100%, a rate (or two rates) within a margin."""


def win_rate(wins: int, draws: int, losses: int) -> Interval:
    """The share of games won (the papers' "winning percentage"), with its Wilson 95% interval."""
    return statistics.wilson_interval(wins, 0, draws + losses)


def percent(interval: Interval) -> str:
    return f"{100 * interval.value:.1f}% [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


def game_clusters(records: Sequence[GameRecord], cells: Sequence[int] | None = None) -> tuple[list[list[int]], int]:
    """The clusters of ``records`` (indices into it) and how many games repeat an earlier one move for move.

    ``cells[i]`` names the cell record i was played in (default: all one cell). A colour-swapped pair
    (games 2p and 2p + 1 of a cell) is one cluster; games with the same agents in the same seats and
    the same moves are the same game, and games from the same opening start from the same position
    (the cells of one experiment share their openings pair by pair), so their clusters are merged
    (union-find).
    """
    parent = list(range(len(records)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first_of: dict[object, int] = {}
    duplicates = 0
    for i, record in enumerate(records):
        cell = 0 if cells is None else cells[i]
        keys: list[tuple[object, ...]] = [("pair", cell, record.index // 2), ("game", record.agents, record.moves)]
        if record.opening:
            keys.append(("opening", record.opening))
        for key in keys:
            if key in first_of:
                if root(i) != root(first_of[key]):
                    parent[root(i)] = root(first_of[key])
                duplicates += key[0] == "game"
            else:
                first_of[key] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(records)):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values()), duplicates


def _outcome(record: GameRecord, counting: str) -> float:
    """What the game counts for the match's first agent: a win as 1 (``WIN``), or its points (``SCORE``)."""
    points = record.points(first_seat(record))
    return points if counting == SCORE else float(points == 1.0)


def cell_score(cell_result: CellResult, counting: str = WIN) -> ClusteredScore:
    """The first agent's win rate (``WIN``) or score (``SCORE``) over a cell's scored games, clustered."""
    return pooled_score([cell_result], counting)


def pooled_score(cells: Sequence[CellResult], counting: str = WIN) -> ClusteredScore:
    """The clustered score over several cells' games, each cell's about its own mean (``clustered_score``),
    with games of different cells in one cluster when they share an opening."""
    records: list[GameRecord] = []
    strata: list[int] = []
    for k, cell_result in enumerate(cells):
        scored = [r for r in cell_result.match.records if r.scored]
        records += scored
        strata += [k] * len(scored)
    groups, duplicates = game_clusters(records, strata)
    return statistics.clustered_score([_outcome(r, counting) for r in records], groups, duplicates, strata)


def effective_text(score: ClusteredScore) -> str:
    """How many games a score rests on: ``n games (k repeats), worth n_eff independent ones``."""
    repeats = f", {score.duplicates} repeating another move for move" if score.duplicates else ""
    return f"{score.games} games{repeats}, worth {_independent(score.effective)}"


def _independent(effective: float) -> str:
    """``worth`` how many independent games: ``1 independent one``, ``12 independent ones``."""
    return f"{effective:.0f} independent {'one' if round(effective) == 1 else 'ones'}"


def clustered_percent(score: ClusteredScore) -> str:
    return percent(score.interval())


@dataclass(frozen=True)
class Evidence:
    """What one claim's test measured, before the correction for testing every claim of the report."""

    ours: str
    games: int
    test: str
    p_value: float
    """Direction claims: the p-value of "no effect" (``positive`` says which way it points). Rate and
    similarity claims: that of the paper's number (of "within the margin" for a similarity), whose
    rejection contradicts."""
    power: Callable[[float], float]
    """The power at a significance level: of detecting the claim's effect size (``Claim.detectable``); for
    rate and similarity claims, of showing the margin when the claim holds exactly."""
    kind: str = DIRECTION
    positive: bool = True
    """Whether the measured effect points the claim's way (direction claims)."""
    p_equivalence: float | None = None
    """Rate and similarity claims: the TOST p-value of "further than the margin", whose rejection agrees."""
    duplicates: int = 0
    short: bool = False
    """The effect's 95% interval lies wholly below the size the claim's words imply."""


def direction_evidence(ours: str, games: int, test: str, z: float, power: Callable[[float], float], *,
                       contrary_tests: int = 1, df: float | None = None, duplicates: int = 0,
                       short: bool = False) -> Evidence:
    """Evidence of a direction from a statistic ``z`` signed the claim's way (Student's t when ``df`` is given).

    When ``z`` points the other way its p-value is multiplied by ``contrary_tests``: the cells of a
    claim about every cell are each a chance to go the other way (Bonferroni).
    """
    p = statistics.normal_p_value(z) if df is None else statistics.t_p_value(z, df)
    if z < 0:
        p = min(1.0, contrary_tests * p)
    return Evidence(ours, games, test, p, power, DIRECTION, not z < 0, duplicates=duplicates, short=short)


@dataclass(frozen=True)
class Verdict:
    status: str
    """``agrees``, ``contradicted``, ``not settled``, or ``AGREES_WITHIN`` / ``SMALLER``."""
    ours: str
    games: int
    test: str = ""
    p_value: float = 1.0
    adjusted: float = 1.0
    """Holm's adjusted p-value over every hypothesis judged together."""
    level: float = ALPHA
    """The significance level the power is stated at (``statistics.holm_levels``)."""
    power: float = math.nan
    duplicates: int = 0
    p_equivalence: float | None = None
    """Rate and similarity claims: the p-value of the margin (TOST), and its Holm-adjusted value below."""
    adjusted_equivalence: float | None = None


def judge_all(claims: Sequence[tuple[Claim, ExperimentResult]], alpha: float = ALPHA) -> list[Verdict]:
    """The verdict on each claim, its tests corrected for all of them (Holm at ``alpha``)."""
    evidence = [measure(claim, result) for claim, result in claims]
    p_values: list[float] = []
    for e in evidence:
        p_values.append(e.p_value)
        if e.p_equivalence is not None:
            p_values.append(e.p_equivalence)
    adjusted = statistics.holm(p_values)
    levels = statistics.holm_levels(p_values, alpha)
    verdicts = []
    index = 0
    for e in evidence:
        main, index = index, index + 1
        equivalence = None
        if e.p_equivalence is not None:
            equivalence, index = index, index + 1
        level = levels[main if equivalence is None else equivalence]
        power = e.power(level)
        equivalent = equivalence is not None and adjusted[equivalence] < alpha
        status = _status(e, adjusted[main] < alpha, equivalent, power)
        verdicts.append(Verdict(status, e.ours, e.games, e.test, e.p_value, adjusted[main], level, power,
                                e.duplicates, e.p_equivalence,
                                None if equivalence is None else adjusted[equivalence]))
    return verdicts


def _status(evidence: Evidence, significant: bool, equivalent: bool, power: float) -> str:
    if evidence.kind == EXACT:
        return CONTRADICTED if significant else AGREES if power >= POWER_NEEDED else NOT_SETTLED
    if evidence.kind == EQUIVALENCE:
        if equivalent:
            return AGREES_WITHIN if significant else AGREES
        return CONTRADICTED if significant else NOT_SETTLED
    if significant:
        return CONTRADICTED if not evidence.positive else SMALLER if evidence.short else AGREES
    return CONTRADICTED if power >= POWER_NEEDED else NOT_SETTLED


def judge(claim: Claim, result: ExperimentResult) -> Verdict:
    """The verdict on ``claim`` alone (a family of one claim: no correction)."""
    return judge_all([(claim, result)])[0]


def measure(claim: Claim, result: ExperimentResult) -> Evidence:
    """Run ``claim``'s test on the games of ``result`` (see ``connectx.papers.experiments.CLAIM_TESTS``)."""
    if claim.test == "faster":
        return _speed_evidence(claim, result)
    if claim.test in ("falls_with_move", "time_falls_with_move", "nodes_track_time"):
        series = {s for s, _ in claim.cells}
        samples = [s for s in move_samples(result) if s.series in series]
        games = sum(len(c.match.records) for c in result.cells if (c.cell.series, c.cell.x) in set(claim.cells))
        return _move_evidence(claim, samples, games)
    if claim.test == "similar":
        return _similar_evidence(claim, result)
    cells = _cells(result, claim.cells)
    if claim.test == "win_rate":
        return _rate_evidence(claim, pooled_score(cells, claim.counts))
    if claim.test in ("above_half", "below_half"):
        return _half_evidence(claim, cells)
    return _trend_evidence(claim, result)


def _cells(result: ExperimentResult, points: Sequence[tuple[str, str]]) -> list[CellResult]:
    by_point = {(c.cell.series, c.cell.x): c for c in result.cells}
    return [by_point[point] for point in points if point in by_point]


def _one_cell(result: ExperimentResult, points: Sequence[tuple[str, str]]) -> CellResult | None:
    """The first of ``points``' cells that ``result`` has, if any."""
    cells = _cells(result, points)
    return cells[0] if cells else None


def _no_power(level: float) -> float:
    """The power of a test that could not be run (no games, too few moves): unknown."""
    return math.nan


def _untested(ours: str, games: int, test: str, kind: str = DIRECTION) -> Evidence:
    return Evidence(ours, games, test, 1.0, _no_power, kind)


def _points(value: float) -> str:
    return f"{100 * value + 0.0:+.1f}"  # + 0.0 turns -0.0 into 0.0


def _rate_evidence(claim: Claim, score: ClusteredScore) -> Evidence:
    assert claim.paper_value is not None
    claimed, margin = claim.paper_value, claim.detectable
    what = "scored" if claim.counts == SCORE else "won"
    if score.games == 0:
        return _untested("no games played", 0, "none", EXACT if claimed in (0.0, 1.0) else EQUIVALENCE)
    ours = f"{what} {clustered_percent(score)}, {effective_text(score)}"
    z = statistics.rate_z(score.value, claimed, score.effective)
    if claimed in (0.0, 1.0):
        alternative = abs(claimed - margin)

        def exact_power(level: float) -> float:
            return statistics.rate_power(claimed, alternative, score.effective, level)

        test = ("one counterexample refutes it; power: the chance of one in our games at a true rate "
                f"{100 * alternative:g}%")
        return Evidence(ours, score.games, test, statistics.normal_p_value(z), exact_power, EXACT,
                        duplicates=score.duplicates)
    interval = score.interval()
    if not interval.low <= claimed <= interval.high:
        ours += f"; the 95% interval excludes the paper's {100 * claimed:g}%"
    equivalence = statistics.equivalence_z(score.value, claimed, margin, score.effective)

    def power(level: float) -> float:
        return statistics.equivalence_power(claimed, margin, score.effective, level)

    test = (f"score test of {100 * claimed:g}% (if rejected: contradicted) and two one-sided tests of a rate within "
            f"{100 * margin:g} points of it (if rejected: agrees); power: of showing the margin if the rate is "
            f"{100 * claimed:g}%")
    return Evidence(ours, score.games, test, statistics.normal_p_value(z), power, EQUIVALENCE,
                    p_equivalence=statistics.upper_p_value(equivalence), duplicates=score.duplicates)


def _cell_name(cell_result: CellResult) -> str:
    return f"{cell_result.cell.series} at {cell_result.cell.x}"


def _half_evidence(claim: Claim, cells: Sequence[CellResult]) -> Evidence:
    score = pooled_score(cells, claim.counts)
    if score.games == 0:
        return _untested("no games played", 0, "none")
    direction = 1.0 if claim.test == "above_half" else -1.0
    implied = claim.detectable
    target = 0.5 + direction * implied
    pooled = f"scored {clustered_percent(score)}, {effective_text(score)}"
    test = f"score test of 50%; power against a score of {100 * target:g}%"

    def effect_of(interval: Interval) -> Interval:
        """The distance from 1/2 in the claim's direction, with its interval."""
        ends = sorted(direction * (end - 0.5) for end in (interval.low, interval.high))
        return Interval(direction * (interval.value - 0.5), ends[0], ends[1])

    if claim.each:
        scores = [(c, cell_score(c, claim.counts)) for c in cells if c.match.records]
        scores = [(c, s) for c, s in scores if s.games]
        zs = [direction * statistics.rate_z(s.value, 0.5, s.effective) for _, s in scores]

        def each_power(level: float) -> float:
            return math.prod(statistics.rate_power(0.5, target, s.effective, level) for _, s in scores)

        effects = [effect_of(s.interval()) for _, s in scores]
        ours = "; ".join(f"{_cell_name(c)} scored {clustered_percent(s)}" for c, s in scores)
        ours += f" (pooled: {pooled})"
        if claim.magnitude:
            ours += (f"; the weakest cell is {_points(min(e.value for e in effects))} points from 50% the claimed "
                     f"way against the {_points(implied)} the words imply")
        short = claim.magnitude and any(e.high < implied for e in effects)
        test = (f"score test of 50% in every cell (intersection-union: the largest p; the other way: the smallest "
                f"times {len(scores)}); power: of every cell showing a score of {100 * target:g}%")
        return direction_evidence(ours, score.games, test, min(zs), each_power, contrary_tests=len(scores),
                                  duplicates=score.duplicates, short=short)
    z = direction * statistics.rate_z(score.value, 0.5, score.effective)

    def power(level: float) -> float:
        return statistics.rate_power(0.5, target, score.effective, level)

    ours = pooled
    against = [c for c in cells if direction * (cell_score(c, claim.counts).value - 0.5) < 0]
    if 0 < len(against) < len(cells):
        ours += "; cells on the other side of 50%: " + ", ".join(
            f"{_cell_name(c)} {clustered_percent(cell_score(c, claim.counts))}" for c in against)
    effect = effect_of(score.interval())
    if claim.magnitude:
        ours += (f"; {_points(effect.value)} points from 50% the claimed way [{_points(effect.low)}, "
                 f"{_points(effect.high)}] against the {_points(implied)} the words imply")
    return direction_evidence(ours, score.games, test, z, power, duplicates=score.duplicates,
                              short=claim.magnitude and effect.high < implied)


def _at_ceiling(scores: Sequence[ClusteredScore]) -> str:
    """``won`` or ``lost`` when every game of ``scores`` was won (lost), else empty."""
    values = {s.value for s in scores if s.games}
    return "won" if values == {1.0} else "lost" if values == {0.0} else ""


def _trend_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """Cochran-Armitage over the series (or, with a baseline, over the two groups scored 0 and 1).

    Cells sharing a score (one T_max at several depths) are pooled into one point: the statistic is
    the same either way, and the text stays one figure per point of the axis. Points of one
    experiment share their openings, which correlates them positively and makes the test of their
    difference conservative.
    """
    if claim.baseline and claim.each:
        return _rise_over_each(claim, result)
    points: dict[float, tuple[str, list[CellResult]]] = {}
    if claim.baseline:
        points = {0.0: ("the baseline", _cells(result, claim.baseline)),
                  1.0: ("the claimed cells", _cells(result, claim.cells))}
        test = "Cochran-Armitage (two groups: the baseline and the claimed cells)"
    else:
        for point, score in zip(claim.cells, claim.scores, strict=True):
            label, cells = points.setdefault(score, (point[1], []))
            cells += _cells(result, (point,))
        test = "Cochran-Armitage trend over the whole series"
    measured = [(label, pooled_score(cells, claim.counts), score) for score, (label, cells) in points.items() if cells]
    measured = [(label, m, score) for label, m, score in measured if m.games]
    games = sum(m.games for _, m, _ in measured)
    duplicates = sum(m.duplicates for _, m, _ in measured)
    if len(measured) < 2:
        return _untested("fewer than two points of the series have games", games, test)
    totals = [m.effective for _, m, _ in measured]
    successes = [m.value * m.effective for _, m, _ in measured]
    xs = [score for _, _, score in measured]
    ours = "won " + ", ".join(f"{clustered_percent(m)} at {label}" for label, m, _ in measured)
    repeats = f", {duplicates} repeating another move for move" if duplicates else ""
    ours += f" ({games} games{repeats}, worth {_independent(sum(totals))})"
    ceiling = _at_ceiling([m for _, m, _ in measured])
    if ceiling:
        return _untested(ours + f"; every game of the series was {ceiling}: it is at its "
                         f"{'ceiling' if ceiling == 'won' else 'floor'}, where no trend can show", games,
                         test + "; not run", DIRECTION)
    z = statistics.cochran_armitage(successes, totals, xs)
    pooled = sum(successes) / sum(totals)
    effect = claim.detectable
    centre = min(max(pooled, effect / 2), 1 - effect / 2)
    low, high = min(xs), max(xs)
    alternative = [centre + effect * ((x - low) / (high - low) - 0.5) for x in xs]

    def power(level: float) -> float:
        value = statistics.trend_power(totals, xs, alternative, level)
        return 0.0 if math.isnan(value) else value

    return direction_evidence(ours, games, test + f"; power against a rise of {100 * effect:g} points across it",
                              z, power, duplicates=duplicates)


def _rise_over_each(claim: Claim, result: ExperimentResult) -> Evidence:
    """The claimed cells against every baseline cell on its own (intersection-union of two-group tests)."""
    claimed = pooled_score(_cells(result, claim.cells), claim.counts)
    baselines = [(c, cell_score(c, claim.counts)) for c in _cells(result, claim.baseline)]
    baselines = [(c, b) for c, b in baselines if b.games]
    test = "Cochran-Armitage (two groups: the claimed cells against each baseline cell; intersection-union)"
    games = claimed.games + sum(b.games for _, b in baselines)
    duplicates = claimed.duplicates + sum(b.duplicates for _, b in baselines)
    if not claimed.games or not baselines:
        return _untested("the claimed cells or every baseline cell have no games", games, test)
    effect = claim.detectable
    ours = f"won {clustered_percent(claimed)} against " + ", ".join(
        f"{clustered_percent(b)} at {_cell_name(c)}" for c, b in baselines)
    differences = [statistics.difference_interval(claimed.interval(), b.interval()) for _, b in baselines]
    repeats = f", {duplicates} repeating another move for move" if duplicates else ""
    ours += f" ({games} games{repeats})"
    if claim.magnitude:
        ours += "; differences " + ", ".join(
            f"{_points(d.value)} [{_points(d.low)}, {_points(d.high)}]" for d in differences
        ) + f" points against the {_points(effect)} the words imply"
    ceiling = _at_ceiling([claimed] + [b for _, b in baselines])
    if ceiling:
        return _untested(ours + f"; every game was {ceiling}: no difference can show", games, test + "; not run")
    zs, groups = [], []
    for _, b in baselines:
        totals = [b.effective, claimed.effective]
        successes = [b.value * b.effective, claimed.value * claimed.effective]
        z = statistics.cochran_armitage(successes, totals, [0.0, 1.0])
        zs.append(0.0 if math.isnan(z) else z)
        pooled = sum(successes) / sum(totals)
        centre = min(max(pooled, effect / 2), 1 - effect / 2)
        groups.append((totals, [centre - effect / 2, centre + effect / 2]))

    def power(level: float) -> float:
        values = [statistics.trend_power(totals, [0.0, 1.0], alternative, level) for totals, alternative in groups]
        return math.prod(0.0 if math.isnan(v) else v for v in values)

    short = claim.magnitude and any(d.high < effect for d in differences)
    return direction_evidence(ours, games, test + f"; power: of every difference showing at {100 * effect:g} points",
                              min(zs), power, contrary_tests=len(baselines), duplicates=duplicates, short=short)


def _similar_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """Two cells' rates within ``claim.detectable`` of each other: TOST on their difference (Agresti-Caffo's
    adjusted rates, one success and one failure added to each over its effective games), and the one-sided
    test that they are further apart than that."""
    test = "two one-sided tests of a difference within the margin (Agresti-Caffo)"
    a, b = _one_cell(result, claim.cells), _one_cell(result, claim.baseline)
    if a is None or b is None:
        return _untested("a cell of the comparison has no games", 0, test, EQUIVALENCE)
    first, second = cell_score(a, claim.counts), cell_score(b, claim.counts)
    games = first.games + second.games
    if not first.games or not second.games:
        return _untested("a cell of the comparison has no games", games, test, EQUIVALENCE)
    margin = claim.detectable
    adjusted = [((s.value * s.effective + 1) / (s.effective + 2), s.effective + 2) for s in (first, second)]
    spread = math.sqrt(sum(p * (1 - p) / n for p, n in adjusted))
    difference = adjusted[0][0] - adjusted[1][0]
    equivalence = min(difference + margin, margin - difference) / spread
    beyond = (abs(difference) - margin) / spread
    measured = statistics.difference_interval(first.interval(), second.interval())
    what = "scored" if claim.counts == SCORE else "won"
    ours = (f"{_cell_name(a)} {what} {clustered_percent(first)}, {_cell_name(b)} {clustered_percent(second)}; "
            f"difference {_points(measured.value)} points [{_points(measured.low)}, {_points(measured.high)}] "
            f"({games} games, worth {_independent(first.effective + second.effective)})")
    pooled = (first.value * first.effective + second.value * second.effective) / (first.effective + second.effective)
    null_spread = math.sqrt(max(pooled * (1 - pooled), 0.01) * (1 / adjusted[0][1] + 1 / adjusted[1][1]))

    def power(level: float) -> float:
        critical = NormalDist().inv_cdf(1 - level)
        return max(0.0, 2 * NormalDist().cdf(margin / null_spread - critical) - 1)

    test += (f" of {100 * margin:g} points (if rejected: agrees) and of a difference beyond it (if rejected: "
             "contradicted); power: of showing the margin if the rates are equal")
    return Evidence(ours, games, test, statistics.upper_p_value(beyond), power, EQUIVALENCE,
                    p_equivalence=statistics.upper_p_value(equivalence),
                    duplicates=first.duplicates + second.duplicates)


def _within_series(samples: Sequence[MoveSample], x: Callable[[MoveSample], float],
                   y: Callable[[MoveSample], float]) -> tuple[list[float], list[float], int]:
    """x and y of every sample less its series' means, and the number of series: the correlation of the
    residuals is the one within each series (depth), not the one between the series' levels."""
    xs: list[float] = []
    ys: list[float] = []
    series = list(dict.fromkeys(s.series for s in samples))
    for name in series:
        mine = [s for s in samples if s.series == name]
        mean_x = sum(x(s) for s in mine) / len(mine)
        mean_y = sum(y(s) for s in mine) / len(mine)
        xs += [x(s) - mean_x for s in mine]
        ys += [y(s) - mean_y for s in mine]
    return xs, ys, len(series)


def _move_evidence(claim: Claim, samples: list[MoveSample], games: int) -> Evidence:
    if claim.test != "falls_with_move":
        samples = [s for s in samples if s.seconds > 0]
    if len(samples) < 6:
        return _untested(f"{len(samples)} moves with a recorded node count and time, too few", games, "none")
    if claim.test == "nodes_track_time":
        xs, ys, groups = _within_series(samples, lambda s: s.nodes, lambda s: s.seconds)
        direction, what = 1.0, "Pearson r of nodes and seconds"
        test = "Fisher's z of Pearson's r (nodes, seconds)"
    else:
        measure_of = "nodes" if claim.test == "falls_with_move" else "seconds"

        def value(s: MoveSample) -> float:
            return math.log(max(1, s.nodes)) if measure_of == "nodes" else math.log(s.seconds)

        xs, ys, groups = _within_series(samples, lambda s: float(s.move), value)
        direction, what = -1.0, f"Pearson r of log {measure_of} with the move number"
        test = f"Fisher's z of Pearson's r (move number, log {measure_of})"
    r = statistics.correlation_interval(xs, ys).value
    # One mean removed per series: the residuals have n - (series - 1) degrees of freedom for Fisher's z.
    n = len(samples) - (groups - 1)
    z = direction * statistics.correlation_z(r, n)
    if math.isnan(z):
        return _untested(f"{what}: undefined over {len(samples)} moves", games, test)
    spread = statistics.Z95 / math.sqrt(n - 3)
    low, high = math.tanh(math.atanh(r) - spread), math.tanh(math.atanh(r) + spread)
    within = " within each series" if groups > 1 else ""
    ours = f"{what}{within} = {r:.2f} [{low:.2f}, {high:.2f}] over {len(samples)} moves"
    effect = claim.detectable

    def power(level: float) -> float:
        return statistics.correlation_power(effect, n, level)

    test += (f"{', within each series' if groups > 1 else ''}; power against r = {direction * effect:+g}; the moves "
             "of one game are not independent, so this p-value is optimistic")
    return direction_evidence(ours, games, test, z, power)


def _speed_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """The claimed cell's games against the baseline's same games: a t test of the mean, over independent
    games, of log(baseline CPU seconds / CPU seconds) of the whole game.

    Two games are the same when they have the same index in the two cells and the same moves (the
    schedule gives both cells the same openings and seeds; a game whose moves differ is dropped and
    counted). Identical games within a cell, and the two games of a pair, are one cluster
    (``game_clusters``) whose ratios are averaged into one observation. The per-move wall-time ratio
    over the same games is printed beside it.
    """
    test = "t test of the mean over independent games of log(CPU seconds without / with), the same games"
    claimed, baseline = _one_cell(result, claim.cells), _one_cell(result, claim.baseline)
    if claimed is None or baseline is None:
        return _untested("a cell of the comparison has no games", 0, test)
    slow_by_index = {r.index: r for r in baseline.match.records if r.scored}
    pairs = [(r, slow_by_index[r.index]) for r in claimed.match.records if r.scored and r.index in slow_by_index]
    same = [(fast, slow) for fast, slow in pairs if fast.moves == slow.moves]
    diverging = len(pairs) - len(same)
    timed = [(fast, slow) for fast, slow in same if fast.cpu_seconds > 0 and slow.cpu_seconds > 0]
    groups, duplicates = game_clusters([fast for fast, _ in timed])
    units = [sum(math.log(timed[i][1].cpu_seconds / timed[i][0].cpu_seconds) for i in group) / len(group)
             for group in groups]
    dropped = f"; {diverging} game{'s' if diverging != 1 else ''} whose moves differed between the cells dropped" \
        if diverging else ""
    repeats = f"; {duplicates} repeating another move for move" if duplicates else ""
    if len(units) < 2:
        return _untested(f"{len(timed)} same games with CPU times in {len(units)} independent "
                         f"group{'s' if len(units) != 1 else ''}, too few"
                         + dropped, len(timed), test)
    n = len(units)
    mean = sum(units) / n
    deviation = math.sqrt(sum((u - mean) ** 2 for u in units) / (n - 1))
    error = max(deviation / math.sqrt(n), 1e-12)
    critical = statistics.t_quantile(0.975, n - 1)
    effect = claim.detectable

    def power(level: float) -> float:
        edge = statistics.t_quantile(1 - level / 2, n - 1)
        shift = effect / error
        return NormalDist().cdf(shift - edge) + NormalDist().cdf(-shift - edge)

    ours = (f"{math.exp(mean):.2f}x as fast [{math.exp(mean - critical * error):.2f}, "
            f"{math.exp(mean + critical * error):.2f}] in CPU seconds per game over {len(timed)} same games, "
            f"{n} independent groups (pairs and repeats){repeats}{dropped}")
    ours += _per_move_text(claimed, baseline, {fast.index for fast, _ in same}, result)
    return direction_evidence(ours, len(timed), test + f" (t, {n - 1} df); power against {math.exp(effect):.2f}x "
                              "as fast", mean / error, power, df=n - 1, duplicates=duplicates)


def _per_move_text(claimed: CellResult, baseline: CellResult, games: set[int], result: ExperimentResult) -> str:
    """The geometric mean per-move wall-time ratio over the same games, and the evaluations, as a side figure."""
    by_key: dict[tuple[str, int, int], MoveSample] = {}
    for sample in move_samples(result):
        if sample.game in games:
            by_key[(sample.series, sample.game, sample.move)] = sample
    logs: list[float] = []
    evaluations = [0, 0]
    for (series, game, move), fast in by_key.items():
        slow = by_key.get((baseline.cell.series, game, move))
        if series != claimed.cell.series or slow is None or not fast.seconds > 0 or not slow.seconds > 0:
            continue
        logs.append(math.log(slow.seconds / fast.seconds))
        evaluations[0] += fast.evaluations or 0
        evaluations[1] += slow.evaluations or 0
    if not logs:
        return ""
    text = f"; per move (wall seconds) {math.exp(sum(logs) / len(logs)):.2f}x over {len(logs)} paired moves"
    return text + (f"; evaluations {evaluations[0]:,} against {evaluations[1]:,}" if evaluations[1] else "")
