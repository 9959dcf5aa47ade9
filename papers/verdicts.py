"""Hold each claim of a paper against the games that test it: agrees, contradicted, or not settled.

Every claim gets one test (``papers.experiments.CLAIM_TESTS``) with a statistic z signed so that
z > 0 points the claim's way, and a two-sided p-value. The p-values of all the claims of a report
form one family, corrected by Holm's step-down method at ``ALPHA``; each test's power is that of
detecting the claim's effect size (``Claim.detectable``) at the level Holm compares it with.

- A claim of a direction *agrees* when its test rejects "no effect" in the claimed direction; it is
  *contradicted* when the test rejects it in the other direction, or when nothing is significant
  although the test had at least ``POWER_NEEDED`` power to see the claimed effect (a flat result
  that a real effect of that size would rarely have given); otherwise it is *not settled*.
- A claimed rate (93.75%) is the null hypothesis of a score test: *contradicted* when rejected,
  *agrees* when not rejected by a test with the power to reject a rate ``effect`` away, otherwise
  *not settled*.

Games are not independent: the two games of a colour-swapped pair share an opening, and
deterministic agents repeat whole games. So each cell's games are grouped into clusters (a pair,
joined with every game that repeats one of its move sequences) and every rate is a clustered
(pentanomial, for pairs) estimate with an effective number of games (``statistics.clustered_score``),
which is what the intervals, tests and powers use.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from harness import statistics
from harness.game import GameRecord
from harness.match import first_seat
from harness.statistics import ClusteredScore, Interval
from papers.experiments import Claim
from papers.runner import CellResult, ExperimentResult, MoveSample, move_samples

ALPHA = 0.05
"""The family-wise error rate over every claim of a report (Holm)."""
POWER_NEEDED = 0.8
"""The power a test needs before its silence counts against a claim (Cohen's convention)."""

AGREES, CONTRADICTED, NOT_SETTLED = "agrees", "contradicted", "not settled"
WIN, SCORE = "win", "score"
"""What a game counts: a win (the papers' winning percentage) or the score (a draw is half)."""


def win_rate(wins: int, draws: int, losses: int) -> Interval:
    """The share of games won (the papers' "winning percentage"), with its Wilson 95% interval."""
    return statistics.wilson_interval(wins, 0, draws + losses)


def percent(interval: Interval) -> str:
    return f"{100 * interval.value:.1f}% [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


def game_clusters(records: Sequence[GameRecord]) -> tuple[list[list[int]], int]:
    """The clusters of ``records`` (indices into it) and how many games repeat an earlier one move for move.

    A colour-swapped pair (games 2p and 2p + 1) is one cluster; games with the same agents in the
    same seats and the same moves are the same game, so their clusters are merged (union-find).
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
        for key in (("pair", record.index // 2), ("game", record.agents, record.moves)):
            if key in first_of:
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
    """The clustered score over several cells' games (clusters never cross cells: their games differ)."""
    outcomes: list[float] = []
    groups: list[list[int]] = []
    duplicates = 0
    for cell_result in cells:
        records = [r for r in cell_result.match.records if r.scored]
        cell_groups, cell_duplicates = game_clusters(records)
        groups += [[len(outcomes) + i for i in group] for group in cell_groups]
        outcomes += [_outcome(record, counting) for record in records]
        duplicates += cell_duplicates
    return statistics.clustered_score(outcomes, groups, duplicates)


def effective_text(score: ClusteredScore) -> str:
    """How many games a score rests on: ``n games (k repeats), worth n_eff independent ones``."""
    repeats = f", {score.duplicates} repeating another move for move" if score.duplicates else ""
    return f"{score.games} games{repeats}, worth {score.effective:.0f} independent ones"


def clustered_percent(score: ClusteredScore) -> str:
    return percent(score.interval())


@dataclass(frozen=True)
class Evidence:
    """What one claim's test measured, before the correction for testing every claim of the report."""

    ours: str
    games: int
    test: str
    z: float
    """The test statistic, positive in the claim's direction (for a claimed rate: our rate's side of it)."""
    power: Callable[[float], float]
    """The power at a significance level: of detecting the claim's effect size (``Claim.detectable``)."""
    claims_value: bool = False
    """A claimed rate (the null hypothesis is the paper's number) rather than a claimed direction."""
    duplicates: int = 0

    @property
    def p_value(self) -> float:
        return statistics.normal_p_value(self.z)


@dataclass(frozen=True)
class Verdict:
    status: str
    """``agrees``, ``contradicted`` or ``not settled``."""
    ours: str
    games: int
    test: str = ""
    p_value: float = 1.0
    adjusted: float = 1.0
    """Holm's adjusted p-value over every claim judged together."""
    level: float = ALPHA
    """The significance level Holm compares this claim's p-value with."""
    power: float = math.nan
    duplicates: int = 0


def judge_all(claims: Sequence[tuple[Claim, ExperimentResult]], alpha: float = ALPHA) -> list[Verdict]:
    """The verdict on each claim, its test corrected for all of them (Holm at ``alpha``)."""
    evidence = [measure(claim, result) for claim, result in claims]
    p_values = [e.p_value for e in evidence]
    adjusted = statistics.holm(p_values)
    levels = statistics.holm_levels(p_values, alpha)
    verdicts = []
    for e, p_adjusted, level in zip(evidence, adjusted, levels, strict=True):
        power = e.power(level)
        status = _status(e, p_adjusted < alpha, power)
        verdicts.append(Verdict(status, e.ours, e.games, e.test, e.p_value, p_adjusted, level, power, e.duplicates))
    return verdicts


def _status(evidence: Evidence, significant: bool, power: float) -> str:
    if evidence.claims_value:
        return CONTRADICTED if significant else AGREES if power >= POWER_NEEDED else NOT_SETTLED
    if significant:
        return AGREES if evidence.z > 0 else CONTRADICTED
    return CONTRADICTED if power >= POWER_NEEDED else NOT_SETTLED


def judge(claim: Claim, result: ExperimentResult) -> Verdict:
    """The verdict on ``claim`` alone (a family of one claim: no correction)."""
    return judge_all([(claim, result)])[0]


def measure(claim: Claim, result: ExperimentResult) -> Evidence:
    """Run ``claim``'s test on the games of ``result`` (see ``papers.experiments.CLAIM_TESTS``)."""
    if claim.test == "faster":
        return _speed_evidence(claim, result)
    if claim.test in ("falls_with_move", "nodes_track_time"):
        series = {s for s, _ in claim.cells}
        samples = [s for s in move_samples(result) if s.series in series]
        games = sum(len(c.match.records) for c in result.cells if (c.cell.series, c.cell.x) in set(claim.cells))
        return _move_evidence(claim, samples, games)
    cells = _cells(result, claim.cells)
    if claim.test == "win_rate":
        return _rate_evidence(claim, pooled_score(cells, WIN))
    if claim.test in ("above_half", "below_half"):
        return _half_evidence(claim, cells, pooled_score(cells, SCORE))
    return _trend_evidence(claim, result)


def _cells(result: ExperimentResult, points: Sequence[tuple[str, str]]) -> list[CellResult]:
    by_point = {(c.cell.series, c.cell.x): c for c in result.cells}
    return [by_point[point] for point in points if point in by_point]


def _no_power(level: float) -> float:
    """The power of a test that could not be run (no games, too few moves): unknown."""
    return math.nan


def _rate_evidence(claim: Claim, score: ClusteredScore) -> Evidence:
    assert claim.paper_value is not None
    claimed = claim.paper_value
    if score.games == 0:
        return Evidence("no games played", 0, "none", math.nan, _no_power, True)
    z = statistics.rate_z(score.value, claimed, score.effective)
    alternatives = [v for v in (claimed - claim.detectable, claimed + claim.detectable) if 0.0 <= v <= 1.0]

    def power(level: float) -> float:
        return min(statistics.rate_power(claimed, v, score.effective, level) for v in alternatives)

    exact = claimed in (0.0, 1.0)
    test = ("one counterexample refutes it; power: the chance of one in our games at a true rate "
            f"{100 * alternatives[0]:g}%") if exact else (
        f"score test of {100 * claimed:g}%; power against a true rate {100 * claim.detectable:g} points away")
    ours = f"won {clustered_percent(score)}, {effective_text(score)}"
    return Evidence(ours, score.games, test, z, power, True, score.duplicates)


def _half_evidence(claim: Claim, cells: Sequence[CellResult], score: ClusteredScore) -> Evidence:
    if score.games == 0:
        return Evidence("no games played", 0, "none", math.nan, _no_power)
    direction = 1.0 if claim.test == "above_half" else -1.0
    z = direction * statistics.rate_z(score.value, 0.5, score.effective)
    target = 0.5 + direction * claim.detectable

    def power(level: float) -> float:
        return statistics.rate_power(0.5, target, score.effective, level)

    ours = f"scored {clustered_percent(score)}, {effective_text(score)}"
    against = [c for c in cells if direction * (cell_score(c, SCORE).value - 0.5) < 0]
    if 0 < len(against) < len(cells):
        ours += "; cells on the other side of 50%: " + ", ".join(
            f"{c.cell.series} at {c.cell.x} {clustered_percent(cell_score(c, SCORE))}" for c in against)
    test = f"score test of 50%; power against a score of {100 * target:g}%"
    return Evidence(ours, score.games, test, z, power, False, score.duplicates)


def _trend_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """Cochran-Armitage over the series (or, with a baseline, over the two groups scored 0 and 1).

    Cells sharing a score (one T_max at several depths) are pooled into one point: the statistic is
    the same either way, and the text stays one figure per point of the axis.
    """
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
    measured = [(label, pooled_score(cells, WIN), score) for score, (label, cells) in points.items() if cells]
    measured = [(label, m, score) for label, m, score in measured if m.games]
    games = sum(m.games for _, m, _ in measured)
    duplicates = sum(m.duplicates for _, m, _ in measured)
    if len(measured) < 2:
        return Evidence("fewer than two points of the series have games", games, test, math.nan, _no_power)
    totals = [m.effective for _, m, _ in measured]
    successes = [m.value * m.effective for _, m, _ in measured]
    xs = [score for _, _, score in measured]
    z = statistics.cochran_armitage(successes, totals, xs)
    pooled = sum(successes) / sum(totals)
    effect = claim.detectable
    centre = min(max(pooled, effect / 2), 1 - effect / 2)
    low, high = min(xs), max(xs)
    alternative = [centre + effect * ((x - low) / (high - low) - 0.5) for x in xs]

    def power(level: float) -> float:
        value = statistics.trend_power(totals, xs, alternative, level)
        return 0.0 if math.isnan(value) else value

    ours = "won " + ", ".join(f"{clustered_percent(m)} at {label}" for label, m, _ in measured)
    repeats = f", {duplicates} repeating another move for move" if duplicates else ""
    ours += f" ({games} games{repeats}, worth {sum(totals):.0f} independent ones)"
    if math.isnan(z):
        # Every game won (or every game lost): no trend can be seen, and none exists in these games.
        z = 0.0
    return Evidence(ours, games, test + f"; power against a rise of {100 * effect:g} points across it",
                    z, power, False, duplicates)


def _move_evidence(claim: Claim, samples: list[MoveSample], games: int) -> Evidence:
    if len(samples) < 6:
        return Evidence(f"{len(samples)} moves with a recorded node count, too few", games, "none", math.nan,
                        _no_power)
    if claim.test == "nodes_track_time":
        timed = [s for s in samples if s.seconds == s.seconds]
        r = statistics.correlation_interval([s.nodes for s in timed], [s.seconds for s in timed])
        n, direction = len(timed), 1.0
        ours = f"Pearson r = {r.value:.2f} [{r.low:.2f}, {r.high:.2f}] over {n} moves"
        test = "Fisher's z of Pearson's r (nodes, seconds)"
    else:
        r = statistics.correlation_interval([s.move for s in samples], [math.log(max(1, s.nodes)) for s in samples])
        n, direction = len(samples), -1.0
        ours = f"Pearson r of log nodes with the move number = {r.value:.2f} [{r.low:.2f}, {r.high:.2f}] over {n} moves"
        test = "Fisher's z of Pearson's r (move number, log nodes)"
    z = direction * statistics.correlation_z(r.value, n)
    effect = claim.detectable

    def power(level: float) -> float:
        return statistics.correlation_power(effect, n, level)

    test += f"; power against r = {direction * effect:+g}; the moves of one game are not independent, so " \
            "this p-value is optimistic"
    return Evidence(ours, games, test, z, power)


def _speed_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """The claimed cells' moves against the baseline's same moves: a z test of the mean over games of the
    mean log(baseline seconds / seconds), games being the independent units.

    Two moves are the same when they have the same game index and move number in the two cells and
    the games agree move for move (the schedule gives both cells the same openings and seeds).
    """
    wanted, baseline = set(claim.cells), set(claim.baseline)
    by_key: dict[tuple[bool, int, int], MoveSample] = {}
    cell_of = {c.cell.series: (c.cell.series, c.cell.x) for c in result.cells}
    for sample in move_samples(result):
        point = cell_of[sample.series]
        if point in wanted or point in baseline:
            by_key[(point in wanted, sample.game, sample.move)] = sample
    ratios: dict[int, list[float]] = {}
    evaluations = [0, 0]
    for (claimed, game, move), fast in by_key.items():
        slow = by_key.get((False, game, move))
        if not claimed or slow is None or not fast.seconds > 0 or not slow.seconds > 0:
            continue
        ratios.setdefault(game, []).append(math.log(slow.seconds / fast.seconds))
        evaluations[0] += fast.evaluations or 0
        evaluations[1] += slow.evaluations or 0
    per_game = [sum(values) / len(values) for values in ratios.values()]
    moves = sum(len(values) for values in ratios.values())
    test = "z test of the mean over games of log(seconds without / with), paired move by move"
    if len(per_game) < 2:
        return Evidence(f"{moves} paired moves in {len(per_game)} games, too few", len(per_game), test, math.nan,
                        _no_power)
    mean = statistics.mean_interval(per_game)
    spread = max((mean.high - mean.value) / statistics.Z95, 1e-12)
    z = mean.value / spread
    effect = claim.detectable

    def power(level: float) -> float:
        normal, shift = NormalDist(), effect / spread
        critical = normal.inv_cdf(1 - level / 2)
        return normal.cdf(shift - critical) + normal.cdf(-shift - critical)

    fewer = f"; evaluations {evaluations[0]:,} against {evaluations[1]:,}" if evaluations[1] else ""
    ours = (f"{math.exp(mean.value):.2f}x as fast [{math.exp(mean.low):.2f}, {math.exp(mean.high):.2f}] over "
            f"{moves} paired moves in {len(per_game)} games{fewer}")
    return Evidence(ours, len(per_game), test + f"; power against {math.exp(effect):.2f}x as fast", z, power)
