"""Hold each claim of a paper against the games that test it, by one rule: agrees, contradicted, or not settled.

Every claim is a statement about an effect, signed so that the claim says it is positive (a rate
above 50%, a rise along a series, a correlation the claimed way), or, for a claimed rate (93.75%)
or two rates claimed similar, that it lies within a margin. Its test brings up to two hypotheses
to one family with every other claim's, corrected by Holm's step-down method at ``ALPHA``:

- ``FOR``, whose rejection shows the claim: "no effect" rejected the claimed way (a two-sided
  test, its sign telling the way), or, for a rate, "further than the margin" rejected (two
  one-sided tests, TOST);
- ``AGAINST``, whose rejection shows the opposite: "no effect" rejected the other way (the same
  two-sided test: one p-value serves as ``FOR`` or ``AGAINST`` by its sign), or, for a rate,
  "within the margin" rejected (the one-sided test at the margin's nearer edge);
- ``SIZE``, for a direction, whose rejection rules out an effect as large as the size the words
  imply ("much", "easily", "dominates"; for words without a size, the smallest effect the report
  counts, ``Claim.detectable``): the one-sided test of "the effect is at least that size".

The verdict follows from which hypotheses Holm rejects, and only from that: ``AGAINST`` rejected is
*contradicted*; ``FOR`` rejected is *agrees*, or *agrees in direction; smaller than the words imply*
when the words imply a size and ``SIZE`` is rejected too; ``SIZE`` rejected alone is *contradicted*
(the effect that would make the claim true is ruled out); nothing rejected is *not settled*. A
claim about every cell (``Claim.each``) is an intersection-union test: ``FOR``'s p-value is the
largest of the cells', ``AGAINST``'s and ``SIZE``'s the smallest times the cells (Bonferroni), as
either holds when any cell shows it. A claim of an average over settings the paper does not state
(``Claim.sensitivity``: the T_max values, the seats) is *not comparable* when some range of our
settings and some seat mix gives the paper's number inside its 95% interval, and is judged by the
rule otherwise. The power printed is that of the ``FOR`` test against the claim's size, at the level
Holm held it to (``hypothesis_tests.holm_levels``); it explains a verdict, it does not make one.

Games are independent draws when their seeds are independent, even when deterministic agents
repeat a whole game move for move; only the design ties games together: the two games of a
colour-swapped pair played from a shared random opening, and the games of every cell of an
experiment played from that same opening. Those are the clusters (``design_clusters``), and every
rate is a clustered estimate with an effective number of games (``clustered_scores.clustered_score``,
each cell's games about its own mean, with the CR1 small-sample correction). Games move for move
alike are counted (``distinct``) but do not change the estimate.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from statistics import NormalDist

from connectx.agents.core.position import Position
from connectx.evaluation import statistics
from connectx.evaluation.game import GameRecord
from connectx.evaluation.match import first_seat
from connectx.evaluation.statistics import Interval
from connectx.papers import clustered_scores, hypothesis_tests
from connectx.papers.clustered_scores import ClusteredScore
from connectx.papers.experiments import Claim
from connectx.papers.runner import CellResult, ExperimentResult, MoveSample, move_samples

ALPHA = 0.05
"""The family-wise error rate over every claim of a report (Holm)."""

AGREES, CONTRADICTED, NOT_SETTLED = "agrees", "contradicted", "not settled"
SMALLER = "agrees in direction; smaller than the words imply"
"""A claim whose words imply a size: shown the claimed way, and that size ruled out."""
PARTLY = "agrees only in part"
"""A trend shown across its whole range that one end's step carries: not shown over the rest of the range."""
NOT_COMPARABLE = "not comparable"
"""A claimed average over settings the paper does not state, reached by some of ours."""
WIN, SCORE = "win", "score"
"""What a game counts: a win (the papers' winning percentage) or the score (a draw is half)."""
FOR, AGAINST, SIZE = "for", "against", "size"
"""The roles of a claim's hypotheses (see the module's docstring)."""
SEATS = (0, 1)
"""The first agent's seat in a game: 0 when it moved first, 1 when it moved second."""


def win_rate(wins: int, draws: int, losses: int) -> Interval:
    """The share of games won (the papers' "winning percentage"), with its Wilson 95% interval."""
    return statistics.wilson_interval(wins, 0, draws + losses)


def percent(interval: Interval) -> str:
    return f"{100 * interval.value:.1f}% [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


def design_clusters(records: Sequence[GameRecord], cells: Sequence[int] | None = None) -> list[list[int]]:
    """The clusters of ``records`` (indices into it) the design made: one per shared opening, one per game else.

    ``cells[i]`` names the cell record i was played in (default: all one cell). A game played from a
    random opening shares it with its colour-swapped twin and, when cells are pooled, with the
    games of the other cells played from the same opening; two openings that reach the same position
    by different move orders are one opening. A game without one is independent.
    """
    groups: dict[tuple[object, ...], list[int]] = {}
    for i, record in enumerate(records):
        key = ("opening", _opening_position(record)) if record.opening else (
            "game", 0 if cells is None else cells[i], record.index)
        groups.setdefault(key, []).append(i)
    return list(groups.values())


def _opening_position(record: GameRecord) -> tuple[int, int, int, int, int]:
    """The board and the position an opening reaches (Kang's [0,5,1,3] and [1,5,0,3] are one position)."""
    config = record.config
    position = Position.initial(config.rows, config.columns, config.inarow)
    for column in record.opening:
        position = position.play(column)
    return config.rows, config.columns, config.inarow, position.mask, position.current


def _outcome(record: GameRecord, counting: str) -> float:
    """What the game counts for the match's first agent: a win as 1 (``WIN``), or its points (``SCORE``)."""
    points = record.points(first_seat(record))
    return points if counting == SCORE else float(points == 1.0)


def cell_score(cell_result: CellResult, counting: str = WIN, seat: int | None = None) -> ClusteredScore:
    """The first agent's win rate (``WIN``) or score (``SCORE``) over a cell's scored games, clustered; with
    ``seat``, over the games it played from that seat only."""
    return pooled_score([cell_result], counting, seat)


def pooled_score(cells: Sequence[CellResult], counting: str = WIN, seat: int | None = None) -> ClusteredScore:
    """The clustered score over several cells' games, each cell's about its own mean (``clustered_score``),
    with games of different cells in one cluster when they share an opening; with ``seat``, only the games
    the first agent played from that seat."""
    records: list[GameRecord] = []
    strata: list[int] = []
    for k, cell_result in enumerate(cells):
        scored = [r for r in cell_result.match.records if r.scored and (seat is None or first_seat(r) == seat)]
        records += scored
        strata += [k] * len(scored)
    distinct = len({(r.agents, r.moves) for r in records})
    return clustered_scores.clustered_score([_outcome(r, counting) for r in records], design_clusters(records, strata),
                                      strata, distinct)


def effective_text(score: ClusteredScore) -> str:
    """How many games a score rests on: ``n games (d distinct), ...`` and what they are worth."""
    text = f"{score.games} games ({score.distinct} distinct)"
    if score.clusters == score.games:
        return text + ", independent"
    text += f" from {score.clusters} shared openings, worth {_independent(score.effective)}"
    return text + (f" (fewer than {clustered_scores.ENOUGH_CLUSTERS} clusters: a rough variance)" if score.few_clusters
                   else "")


def _independent(effective: float) -> str:
    """``worth`` how many independent games: ``1 independent one``, ``12 independent ones``."""
    return f"{effective:.0f} independent {'one' if round(effective) == 1 else 'ones'}"


def clustered_percent(score: ClusteredScore) -> str:
    return percent(score.interval())


@dataclass(frozen=True)
class Hypothesis:
    """One hypothesis a claim brings to the report's family: its role (``FOR``, ``AGAINST``, ``SIZE``), its
    p-value before Holm's correction and a few words naming it."""

    role: str
    p_value: float
    name: str


@dataclass(frozen=True)
class Evidence:
    """What one claim's test measured, before the correction for testing every claim of the report."""

    ours: str
    games: int
    test: str
    hypotheses: tuple[Hypothesis, ...]
    power: Callable[[float], float]
    """The power of the ``FOR`` test at a significance level, against the claim's size (``Claim.detectable``);
    for a rate or a similarity, of showing the margin when the claim holds exactly."""
    size: str = ""
    """The size ``SIZE`` rules out, in words (``the +15 points the words imply``)."""
    reached: str = ""
    """For a claimed average over unstated settings: where ours reach the paper's number (empty: nowhere)."""
    short_of_range: str = ""
    """For a trend: where it is not shown once one end's step is left out (empty: it holds across the range)."""
    holds_over: str = ""
    """``short_of_range`` in a few words for the verdict: where the trend holds and where it is not shown
    (``10 to 100 ms; not shown 100 to 1000 ms``)."""


def direction_hypotheses(z: float, *, contrary_tests: int = 1, df: float | None = None) -> Hypothesis:
    """"No effect" from a statistic ``z`` signed the claim's way (Student's t when ``df`` is given): ``FOR`` when
    it points the claimed way, else ``AGAINST`` with its p-value times ``contrary_tests`` (Bonferroni over
    the cells of a claim about every cell, each a chance to go the other way). A NaN statistic (every game
    alike) is no evidence either way: ``FOR`` with p = 1, never a placeholder z of 0."""
    if math.isnan(z):
        return Hypothesis(FOR, 1.0, "no effect (untestable: every game alike)")
    p = hypothesis_tests.normal_p_value(z) if df is None else hypothesis_tests.t_p_value(z, df)
    if z < 0:
        return Hypothesis(AGAINST, min(1.0, contrary_tests * p), "no effect (the other way)")
    return Hypothesis(FOR, p, "no effect")


def weakest(zs: Sequence[float]) -> float:
    """The statistic an intersection-union test rests on: the smallest; NaN when a cell cannot be tested and no
    testable cell goes the other way (a claim about every cell is not shown by the cells that could be)."""
    known = [z for z in zs if not math.isnan(z)]
    if not known or (len(known) < len(zs) and min(known) >= 0):
        return math.nan
    return min(known)


def size_hypothesis(zs: Sequence[float], name: str) -> Hypothesis:
    """"The effect is at least the claim's size" (``name`` says which) from one-sided statistics ``zs`` (one per
    cell), each (estimate - size) / error: rejected when some cell falls clearly short (the smallest
    p-value times the cells)."""
    known = [z for z in zs if not math.isnan(z)]
    p = min(1.0, len(known) * min(1.0 - hypothesis_tests.upper_p_value(z) for z in known)) if known else 1.0
    return Hypothesis(SIZE, p, name)


@dataclass(frozen=True)
class Verdict:
    status: str
    """``agrees``, ``contradicted``, ``not settled``, ``SMALLER`` or ``NOT_COMPARABLE``."""
    ours: str
    games: int
    test: str = ""
    hypotheses: tuple[Hypothesis, ...] = ()
    adjusted: tuple[float, ...] = ()
    """Holm's adjusted p-value of each hypothesis, over every hypothesis of the report."""
    level: float = ALPHA
    """The significance level the ``FOR`` test's power is stated at (``hypothesis_tests.holm_levels``)."""
    power: float = math.nan
    reason: str = ""
    """Which hypotheses Holm rejected, in words: why the verdict is what it is."""
    holds_over: str = ""
    """For a trend that agrees only in part: where it holds and where not (``Evidence.holds_over``)."""

    @property
    def summary(self) -> str:
        """The verdict in at most a dozen words, for the report's first screen."""
        if self.status == PARTLY and self.holds_over:
            return f"agrees {self.holds_over}"
        return self.status

    @property
    def p_value(self) -> float:
        """The p-value of the claim's first hypothesis ("no effect", or the margin), before Holm."""
        return self.hypotheses[0].p_value if self.hypotheses else 1.0


def judge_all(claims: Sequence[tuple[Claim, ExperimentResult]], alpha: float = ALPHA) -> list[Verdict]:
    """The verdict on each claim, its hypotheses corrected for all of them (Holm at ``alpha``)."""
    evidence = [measure(claim, result) for claim, result in claims]
    p_values = [h.p_value for e in evidence for h in e.hypotheses]
    adjusted = hypothesis_tests.holm(p_values)
    levels = hypothesis_tests.holm_levels(p_values, alpha)
    verdicts = []
    index = 0
    for (claim, _), e in zip(claims, evidence, strict=True):
        mine = range(index, index + len(e.hypotheses))
        index += len(e.hypotheses)
        rejected = {h.role for h, i in zip(e.hypotheses, mine, strict=True) if adjusted[i] < alpha}
        first = next((i for h, i in zip(e.hypotheses, mine, strict=True) if h.role != SIZE), None)
        level = alpha if first is None else levels[first]
        status, reason = _status(claim, e, rejected)
        verdicts.append(Verdict(status, e.ours, e.games, e.test, e.hypotheses, tuple(adjusted[i] for i in mine),
                                level, e.power(level), reason, e.holds_over))
    return verdicts


def _status(claim: Claim, evidence: Evidence, rejected: set[str]) -> tuple[str, str]:
    """The one rule (see the module's docstring): the verdict and why, from the roles Holm rejected."""
    if claim.sensitivity and evidence.reached:
        return NOT_COMPARABLE, f"our settings reach the paper's number {evidence.reached}"
    margin = claim.test in ("win_rate", "similar")
    if AGAINST in rejected:
        return CONTRADICTED, ("further from the paper's number than the margin" if margin
                              else "significant the other way")
    if FOR in rejected:
        if SIZE in rejected and claim.magnitude:
            return SMALLER, f"significant the claimed way, and {evidence.size} ruled out"
        if evidence.short_of_range:
            return PARTLY, f"significant the claimed way over the whole range, but {evidence.short_of_range}"
        return AGREES, "within the margin" if margin else "significant the claimed way"
    if SIZE in rejected:
        if claim.magnitude:
            return CONTRADICTED, f"{evidence.size} ruled out"
        return NOT_SETTLED, (f"no effect not ruled out; {evidence.size} ruled out, but the words state no size, so "
                             "a smaller effect would still bear them out")
    alone = [f"{h.name} (p = {h.p_value:.2g})" for h in evidence.hypotheses if h.p_value < ALPHA]
    if alone:
        return NOT_SETTLED, (f"rejected alone at {ALPHA:g}, not after Holm's correction for the whole report: "
                             + "; ".join(alone))
    return NOT_SETTLED, "no hypothesis rejected"


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
        evidence = _rate_evidence(claim, pooled_score(cells, claim.counts))
        if claim.sensitivity:
            return _with_sensitivity(claim, cells, evidence)
        return evidence
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


def _untested(ours: str, games: int, test: str) -> Evidence:
    return Evidence(ours, games, test, (), _no_power)


def _points(value: float) -> str:
    return f"{100 * value + 0.0:+.1f}"  # + 0.0 turns -0.0 into 0.0


def _subject(claim: Claim, verb: str) -> str:
    """``scored`` or, where the claim's words name the other side, ``the shallower H1 scored``."""
    return f"{claim.subject} {verb}" if claim.subject else verb


def _rate_evidence(claim: Claim, score: ClusteredScore) -> Evidence:
    """A claimed rate within ``claim.detectable`` of the paper's number: ``FOR`` is TOST (both edges of the
    margin rejected), ``AGAINST`` the one-sided test at the nearer edge that the rate lies beyond it."""
    assert claim.paper_value is not None
    claimed, margin = claim.paper_value, claim.detectable
    what = "scored" if claim.counts == SCORE else "won"
    test = (f"two one-sided score tests of a rate within {100 * margin:g} points of {100 * claimed:g}% (if "
            "rejected: agrees) and the one-sided score test at the margin's nearer edge of a rate beyond it (if "
            f"rejected: contradicted); power: of showing the margin if the rate is {100 * claimed:g}%")
    if score.games == 0:
        return _untested("no games played", 0, test)
    ours = f"{_subject(claim, what)} {clustered_percent(score)}, {effective_text(score)}"
    if claimed in (0.0, 1.0):
        missed = round(abs(claimed - score.value) * score.games)
        if missed:
            ours += (f"; {missed} of {score.games} games {'not won' if claimed == 1.0 else 'won'}, so \"all\" "
                     "does not hold literally")
    beyond = hypothesis_tests.beyond_margin_z(score.value, claimed, margin, score.effective)
    equivalence = hypothesis_tests.equivalence_z(score.value, claimed, margin, score.effective)

    def power(level: float) -> float:
        return hypothesis_tests.equivalence_power(claimed, margin, score.effective, level)

    hypotheses = (Hypothesis(FOR, hypothesis_tests.upper_p_value(equivalence), f"further than {100 * margin:g} points"),
                  Hypothesis(AGAINST, hypothesis_tests.upper_p_value(beyond),
                             f"within {100 * margin:g} points"))
    return Evidence(ours, score.games, test, hypotheses, power)


def _with_sensitivity(claim: Claim, cells: Sequence[CellResult], evidence: Evidence) -> Evidence:
    """The claimed average over every run of consecutive cells (T_max values) and seat mix (the share of games
    the agent moved first): where the paper's number lies inside the 95% interval, our settings reach it."""
    assert claim.paper_value is not None
    table = sensitivity_table(cells, claim.counts)
    reached = [f"{label} at {mix}" for label, row in table for mix, interval in row
               if interval.low <= claim.paper_value <= interval.high]
    values = [interval.value for _, row in table for _, interval in row]
    ours = evidence.ours + (f"; over every range of T_max and seat mix our rate runs from {100 * min(values):.1f}% "
                            f"to {100 * max(values):.1f}%" if values else "")
    where = ""
    if reached:
        where = f"in {len(reached)} of {len(values)} ranges and mixes, e.g. {'; '.join(reached[:3])}"
    return Evidence(ours, evidence.games, evidence.test, evidence.hypotheses, evidence.power, evidence.size, where)


SEAT_MIXES = (0.0, 0.25, 0.5, 0.75, 1.0)
"""Shares of games moving first over which a claimed average is recomputed (the papers do not give theirs)."""


def sensitivity_table(cells: Sequence[CellResult], counting: str = WIN) -> list[tuple[str, list[tuple[str, Interval]]]]:
    """The rate averaged over each run of two or more consecutive ``cells`` (equally weighted), at each seat mix.

    At a mix w the rate is sum over the cells of w (rate moving first) + (1 - w) (rate moving second),
    divided by the cells; its variance adds the cells' and seats' binomial variances over their
    effective games (the seats' games are different games), and the interval is the normal one.
    """
    by_seat = [[cell_score(c, counting, seat) for seat in SEATS] for c in cells]
    rows = []
    for first in range(len(cells)):
        for last in range(first + 1, len(cells)):
            chosen = by_seat[first:last + 1]
            if any(s.games == 0 for pair in chosen for s in pair):
                continue
            label = f"{cells[first].cell.x} to {cells[last].cell.x}"
            row = []
            for w in SEAT_MIXES:
                value = sum(w * a.value + (1 - w) * b.value for a, b in chosen) / len(chosen)
                variance = sum(w * w * _variance(a) + (1 - w) ** 2 * _variance(b) for a, b in chosen)
                spread = statistics.Z95 * math.sqrt(variance) / len(chosen)
                row.append((f"{100 * w:g}% moving first", Interval(value, max(0.0, value - spread),
                                                                   min(1.0, value + spread))))
            rows.append((label, row))
    return rows


def _variance(score: ClusteredScore) -> float:
    """The variance of a clustered score's mean, kept off zero by pseudo-counts (a 100% cell is not certain)."""
    return hypothesis_tests.plus_four_variance(score.value, score.effective)


@dataclass(frozen=True)
class SharedGames:
    """Two cells of different experiments that played largely the same games, and the claims resting on either."""

    first: str
    second: str
    common: int
    games: int
    """The smaller cell's games: ``common`` of them are the same in the other cell."""
    claims: tuple[Claim, ...]


def shared_games(results: Sequence[ExperimentResult], least: float = 0.5) -> list[SharedGames]:
    """Cells of different experiments at least ``least`` of whose games are the same games: the same schedule
    slot, the first agent in the same seat and the same moves (the same agents under two names)."""
    cells = []
    for result in results:
        for c in result.cells:
            games = {(r.index, first_seat(r), r.moves) for r in c.match.records if r.scored}
            claims = tuple(claim for claim in result.experiment.claims
                           if (c.cell.series, c.cell.x) in set(claim.cells + claim.baseline))
            cells.append((result.experiment, c, games, claims))
    found = []
    for i, (experiment, cell, mine, claims) in enumerate(cells):
        for other_experiment, other, theirs, other_claims in cells[i + 1:]:
            smaller = min(len(mine), len(theirs))
            common = len(mine & theirs)
            if experiment.key != other_experiment.key and smaller and common >= least * smaller:
                found.append(SharedGames(f"{experiment.title.split(':')[0]} {_cell_name(cell)}",
                                         f"{other_experiment.title.split(':')[0]} {_cell_name(other)}",
                                         common, smaller, claims + other_claims))
    return found


def _cell_name(cell_result: CellResult) -> str:
    return f"{cell_result.cell.series} at {cell_result.cell.x}"


def _half_evidence(claim: Claim, cells: Sequence[CellResult]) -> Evidence:
    score = pooled_score(cells, claim.counts)
    if score.games == 0:
        return _untested("no games played", 0, "none")
    direction = 1.0 if claim.test == "above_half" else -1.0
    implied = claim.detectable
    target = 0.5 + direction * implied
    pooled = f"{_subject(claim, 'scored')} {clustered_percent(score)}, {effective_text(score)}"
    at_least = f"a score of {100 * target:g}% or {'more' if direction > 0 else 'less'}"
    size = (f"the {_points(implied)} points from 50% the words imply" if claim.magnitude
            else f"{at_least} (the smallest edge this report counts)")

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
        zs = [direction * hypothesis_tests.rate_z(s.value, 0.5, s.effective) for _, s in scores]

        def each_power(level: float) -> float:
            return math.prod(hypothesis_tests.rate_power(0.5, target, s.effective, level) for _, s in scores)

        effects = [effect_of(s.interval()) for _, s in scores]
        ours = "; ".join(f"{_cell_name(c)} {_subject(claim, 'scored')} {clustered_percent(s)}" for c, s in scores)
        ours += f" (pooled: {pooled})"
        if claim.magnitude:
            ours += "; from 50% the claimed way " + ", ".join(
                f"{_points(e.value)} [{_points(e.low)}, {_points(e.high)}]" for e in effects
            ) + f" points against the {_points(implied)} the words imply"
        test = (f"score test of 50% in every cell (intersection-union: the largest p; the other way: the smallest "
                f"times {len(scores)}) and of a score {_points(implied)} points from it; power: of every cell "
                f"showing a score of {100 * target:g}%")
        hypotheses = (direction_hypotheses(min(zs), contrary_tests=len(scores)),
                      size_hypothesis([short_of(s) for _, s in scores], at_least + " in some cell"))
        return Evidence(ours, score.games, test, hypotheses, each_power, size)
    z = direction * hypothesis_tests.rate_z(score.value, 0.5, score.effective)

    def power(level: float) -> float:
        return hypothesis_tests.rate_power(0.5, target, score.effective, level)

    ours = pooled
    against = [c for c in cells if direction * (cell_score(c, claim.counts).value - 0.5) < 0]
    if 0 < len(against) < len(cells):
        ours += "; cells on the other side of 50%: " + ", ".join(
            f"{_cell_name(c)} {clustered_percent(cell_score(c, claim.counts))}" for c in against)
    effect = effect_of(score.interval())
    if claim.magnitude:
        ours += (f"; {_points(effect.value)} points from 50% the claimed way [{_points(effect.low)}, "
                 f"{_points(effect.high)}] against the {_points(implied)} the words imply")
    test = f"score test of 50% and of a score of {100 * target:g}%; power against a score of {100 * target:g}%"
    return Evidence(ours, score.games, test, (direction_hypotheses(z), size_hypothesis([short_of(score)], at_least)),
                    power, size)


def _at_ceiling(scores: Sequence[ClusteredScore]) -> str:
    """``won`` or ``lost`` when every game of ``scores`` was won (lost), else empty."""
    values = {s.value for s in scores if s.games}
    return "won" if values == {1.0} else "lost" if values == {0.0} else ""


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
        return Interval(rise, rise - statistics.Z95 * error, rise + statistics.Z95 * error)

    def change(self) -> Interval:
        """The change of the first agent's rate from the stratum's first point to its last, as the cells are listed
        (a fall is negative, whichever way the claim runs), by the fitted trend, with its 95% interval."""
        if len(self.points) < 2 or self.trend.error != self.trend.error:
            return Interval(math.nan, math.nan, math.nan)
        distance = self.points[-1][0] - self.points[0][0]
        change, error = self.trend.slope * distance, self.trend.error * abs(distance)
        return Interval(change, change - statistics.Z95 * error, change + statistics.Z95 * error)

    def within(self, kept: Sequence[float]) -> Stratum:
        """This stratum over the points at the axis values ``kept`` only (a sub-range), its trend refitted."""
        points = tuple((x, s) for x, s in self.points if x in kept)
        if len(points) < 2:
            return Stratum(self.series, self.seat, points, hypothesis_tests.Trend(math.nan, math.nan, 0.0, 0.0), 0.0)
        trend = hypothesis_tests.trend([s.value * s.effective for _, s in points], [s.effective for _, s in points],
                                       [x for x, _ in points])
        return Stratum(self.series, self.seat, points, trend, max(x for x, _ in points) - min(x for x, _ in points))


def trend_strata(claim: Claim, result: ExperimentResult) -> list[Stratum]:
    """The claim's cells by series and seat, each a stratum of points (its cells' scores along the axis)."""
    span = max(claim.scores) - min(claim.scores)
    strata = []
    for series in dict.fromkeys(name for name, _ in claim.cells):
        for seat in SEATS:
            points = []
            for point, x in zip(claim.cells, claim.scores, strict=True):
                cell = _one_cell(result, (point,)) if point[0] == series else None
                if cell is not None:
                    score = cell_score(cell, claim.counts, seat)
                    if score.games:
                        points.append((x, score))
            if len(points) < 2:
                continue
            trend = hypothesis_tests.trend([s.value * s.effective for _, s in points], [s.effective for _, s in points],
                                     [x for x, _ in points])
            strata.append(Stratum(series, seat, tuple(points), trend, span))
    return strata


def _trend_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
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
        return _untested("fewer than two points of the series have games", games, test)
    by_x: dict[float, list[ClusteredScore]] = {}
    for stratum in strata:
        for x, score in stratum.points:
            by_x.setdefault(x, []).append(score)
    labels = {x: point[1] for point, x in zip(claim.cells, claim.scores, strict=True)}
    pooled = {x: pooled_score(_cells(result, [p for p, px in zip(claim.cells, claim.scores, strict=True) if px == x]),
                              claim.counts) for x in by_x}
    ours = "won " + ", ".join(f"{clustered_percent(pooled[x])} at {labels[x]}" for x in dict.fromkeys(claim.scores)
                              if x in pooled and pooled[x].games)
    ours += f" ({sum(p.games for p in pooled.values())} games, {sum(p.distinct for p in pooled.values())} distinct)"
    ceiling = _at_ceiling(list(pooled.values()))
    if ceiling:
        return _untested(ours + f"; every game of the series was {ceiling}: it is at its "
                         f"{'ceiling' if ceiling == 'won' else 'floor'}, where no trend can show", games,
                         test + "; not run")
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
    ours += f"; change from {first_label} to {last_label} " + "; ".join(
        f"{st.label} {_points(st.change().value)} [{_points(st.change().low)}, {_points(st.change().high)}]"
        for st in strata) + " points"
    if df:
        ours += f"; the strata differ: Cochran's Q = {q:.1f} on {df} df, p {_p_text(p_q)}" if p_q < ALPHA else \
            f"; no sign the strata differ: Cochran's Q = {q:.1f} on {df} df, p {_p_text(p_q)}"
    ours += (f"; the claimed way (95% interval) in {', '.join(holds) if holds else 'no stratum'}"
             + (f"; the other way in {', '.join(fails)}" if fails else ""))
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
    test += (f"{each}, and of a rise of {100 * effect:g} points or more across it; heterogeneity by Cochran's Q; "
             f"power against a rise of {100 * effect:g} points (unstratified)")
    size = f"a rise of {_points(effect)} points across the series (the smallest this report counts)"
    hypotheses = (direction_hypotheses(weakest(zs), contrary_tests=len(zs)),
                  size_hypothesis([(rise - effect) / error for rise, error in rises],
                                  f"a rise of {100 * effect:g} points or more"))
    missing, holds_over = _short_of_range(claim, groups)
    return Evidence(ours, games, test, hypotheses, power, size, short_of_range=missing, holds_over=holds_over)


def _short_of_range(claim: Claim, groups: Sequence[Sequence[Stratum]]) -> tuple[str, str]:
    """Where a trend is not shown once the step at one end of its range is left out, in words (empty: nowhere),
    and, in a few words, where it holds and where it is not shown.

    The words ("as T_max grows") cover the whole range, so a trend that one step carries does not bear them
    out beyond that step: with its first point left out, and with its last, the stratified trend of each
    group must still be significant the claimed way at ``ALPHA`` (two-sided, uncorrected: a condition on
    a verdict already shown, not a hypothesis of its own).
    """
    labels = {x: point[1] for point, x in zip(claim.cells, claim.scores, strict=True)}
    order = list(dict.fromkeys(claim.scores))
    if len(order) < 3:
        return "", ""
    critical = NormalDist().inv_cdf(1 - ALPHA / 2)
    missing: list[str] = []
    carried: list[str] = []
    for kept, words in ((order[1:], f"not shown from {labels[order[1]]} to {labels[order[-1]]} (without the step "
                                    f"from {labels[order[0]]})"),
                        (order[:-1], f"not shown from {labels[order[0]]} to {labels[order[-2]]} (without the step "
                                     f"to {labels[order[-1]]})")):
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
    if not carried:
        return "", ""
    first, last = _span(labels[order[0]], labels[order[1]]), _span(labels[order[-2]], labels[order[-1]])
    if carried == ["first"]:
        holds_over = f"{first}; not shown {_span(labels[order[1]], labels[order[-1]])}"
    elif carried == ["last"]:
        holds_over = f"{last}; not shown {_span(labels[order[0]], labels[order[-2]])}"
    else:
        inner = _span(labels[order[1]], labels[order[-2]]) if len(order) > 3 else "between them"
        holds_over = f"{first} and {last}; not shown {inner}"
    return "; ".join(missing), holds_over


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
    return hypothesis_tests.inverse_variance_mean([st.trend.slope * st.span for st in kept],
                                            [st.trend.error * st.span for st in kept])


def _p_text(value: float) -> str:
    """``< 0.0001`` or ``= 0.051``: a p-value with its relation, to follow a ``p``."""
    return "< 0.0001" if value < 1e-4 else f"= {value:.2g}"


def _rise_over_baseline(claim: Claim, result: ExperimentResult) -> Evidence:
    """The claimed cells against the baseline's (pooled, or each baseline cell on its own with ``Claim.each``:
    intersection-union), each difference by a two-group Cochran-Armitage test and its size by the
    one-sided test of a difference of ``claim.detectable`` (Agresti-Caffo's adjusted rates)."""
    claimed = pooled_score(_cells(result, claim.cells), claim.counts)
    baseline_cells = _cells(result, claim.baseline)
    baselines: list[tuple[CellResult | None, ClusteredScore]] = (
        [(c, cell_score(c, claim.counts)) for c in baseline_cells] if claim.each
        else [(None, pooled_score(baseline_cells, claim.counts))])
    baselines = [(c, b) for c, b in baselines if b.games]
    test = ("Cochran-Armitage (two groups: the claimed cells against "
            + ("each baseline cell; intersection-union)" if claim.each else "the baseline)"))
    games = claimed.games + sum(b.games for _, b in baselines)
    if not claimed.games or not baselines:
        return _untested("the claimed cells or every baseline cell have no games", games, test)
    effect = claim.detectable
    ours = f"won {clustered_percent(claimed)} against " + ", ".join(
        f"{clustered_percent(b)}" + (f" at {_cell_name(c)}" if c is not None else " (the baseline)")
        for c, b in baselines)
    differences = [hypothesis_tests.difference_interval(claimed.interval(), b.interval()) for _, b in baselines]
    ours += f" ({games} games, {claimed.distinct + sum(b.distinct for _, b in baselines)} distinct)"
    words = "the words imply" if claim.magnitude else "this report counts"
    ours += "; differences " + ", ".join(
        f"{_points(d.value)} [{_points(d.low)}, {_points(d.high)}]" for d in differences
    ) + f" points against the {_points(effect)} {words}"
    unreachable = [b.value for _, b in baselines if b.value + effect > 1]
    if unreachable:
        ours += (f"; a baseline at {100 * max(unreachable):.1f}% leaves no room for a difference of "
                 f"{100 * effect:g} points")
    ceiling = _at_ceiling([claimed] + [b for _, b in baselines])
    if ceiling:
        return _untested(ours + f"; every game was {ceiling}: no difference can show", games, test + "; not run")
    zs, groups, shortfalls = [], [], []
    for _, b in baselines:
        totals = [b.effective, claimed.effective]
        successes = [b.value * b.effective, claimed.value * claimed.effective]
        zs.append(hypothesis_tests.cochran_armitage(successes, totals, [0.0, 1.0]))
        # The power is against the observed baseline and that baseline plus the claimed size (at most 100%).
        groups.append((totals, [b.value, min(1.0, b.value + effect)]))
        difference, error = _adjusted_difference(claimed, b)
        shortfalls.append((difference - effect) / error)

    def power(level: float) -> float:
        values = [hypothesis_tests.trend_power(totals, [0.0, 1.0], alternative, level)
                  for totals, alternative in groups]
        return math.prod(0.0 if math.isnan(v) else v for v in values)

    test += (f" and of a difference of {100 * effect:g} points or more; power: of every difference showing against "
             f"the observed baseline plus {100 * effect:g} points")
    size = f"the {_points(effect)} points {words}"
    hypotheses = (direction_hypotheses(weakest(zs), contrary_tests=len(baselines)),
                  size_hypothesis(shortfalls, f"a difference of {100 * effect:g} points or more"))
    return Evidence(ours, games, test, hypotheses, power, size)


def _adjusted_difference(a: ClusteredScore, b: ClusteredScore) -> tuple[float, float]:
    """``a``'s rate less ``b``'s and its standard error by Agresti-Caffo over their effective games."""
    return hypothesis_tests.agresti_caffo_difference(a.value * a.effective, a.effective, b.value * b.effective,
                                                     b.effective)


def _similar_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """Two cells' rates within ``claim.detectable`` of each other: TOST on their difference (Agresti-Caffo's
    adjusted rates, one success and one failure added to each over its effective games), and the one-sided
    test that they are further apart than that."""
    test = "two one-sided tests of a difference within the margin (Agresti-Caffo)"
    a, b = _one_cell(result, claim.cells), _one_cell(result, claim.baseline)
    if a is None or b is None:
        return _untested("a cell of the comparison has no games", 0, test)
    first, second = cell_score(a, claim.counts), cell_score(b, claim.counts)
    games = first.games + second.games
    if not first.games or not second.games:
        return _untested("a cell of the comparison has no games", games, test)
    margin = claim.detectable
    difference, spread = _adjusted_difference(first, second)
    equivalence, beyond = hypothesis_tests.difference_margin_z(difference, spread, margin)
    measured = hypothesis_tests.difference_interval(first.interval(), second.interval())
    what = "scored" if claim.counts == SCORE else "won"
    ours = (f"{_cell_name(a)} {what} {clustered_percent(first)}, {_cell_name(b)} {clustered_percent(second)}; "
            f"difference {_points(measured.value)} points [{_points(measured.low)}, {_points(measured.high)}] "
            f"({games} games, {first.distinct + second.distinct} distinct, worth "
            f"{_independent(first.effective + second.effective)})")
    pooled = (first.value * first.effective + second.value * second.effective) / (first.effective + second.effective)
    null_spread = math.sqrt(max(pooled * (1 - pooled), 0.01) * (1 / (first.effective + 2) + 1 / (second.effective + 2)))

    def power(level: float) -> float:
        critical = NormalDist().inv_cdf(1 - level)
        return max(0.0, 2 * NormalDist().cdf(margin / null_spread - critical) - 1)

    test += (f" of {100 * margin:g} points (if rejected: agrees) and of a difference beyond it (if rejected: "
             "contradicted); power: of showing the margin if the rates are equal")
    hypotheses = (Hypothesis(FOR, hypothesis_tests.upper_p_value(equivalence),
                             f"further apart than {100 * margin:g} points"),
                  Hypothesis(AGAINST, hypothesis_tests.upper_p_value(beyond), f"within {100 * margin:g} points"))
    return Evidence(ours, games, test, hypotheses, power)


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
    r = hypothesis_tests.correlation_interval(xs, ys).value
    # One mean removed per series: the residuals have n - (series - 1) degrees of freedom for Fisher's z.
    n = len(samples) - (groups - 1)
    z = direction * hypothesis_tests.correlation_z(r, n)
    if math.isnan(z):
        return _untested(f"{what}: undefined over {len(samples)} moves", games, test)
    spread = statistics.Z95 / math.sqrt(n - 3)
    low, high = math.tanh(math.atanh(r) - spread), math.tanh(math.atanh(r) + spread)
    within = " within each series" if groups > 1 else ""
    ours = f"{what}{within} = {r:.2f} [{low:.2f}, {high:.2f}] over {len(samples)} moves"
    effect = claim.detectable

    def power(level: float) -> float:
        return hypothesis_tests.correlation_power(effect, n, level)

    test += (f"{', within each series' if groups > 1 else ''}, and of r = {direction * effect:+g} or further the "
             f"claimed way; power against r = {direction * effect:+g}; the moves of one game are not independent, so "
             "these p-values are optimistic")
    shortfall = (direction * math.atanh(max(-0.999999, min(0.999999, r))) - math.atanh(effect)) * math.sqrt(n - 3)
    size = f"a correlation of {direction * effect:+g} or further the claimed way (the smallest this report counts)"
    hypotheses = (direction_hypotheses(z), size_hypothesis([shortfall], f"|r| of {effect:g} or more"))
    return Evidence(ours, games, test, hypotheses, power, size)


def _speed_evidence(claim: Claim, result: ExperimentResult) -> Evidence:
    """The claimed cell's games against the baseline's same games: a t test of the mean, over independent
    games, of log(baseline CPU seconds / CPU seconds) of the whole game.

    Two games are the same when they have the same index in the two cells and the same moves (the
    schedule gives both cells the same openings and seeds; a game whose moves differ is dropped and
    counted). The games of one opening (a colour-swapped pair, ``design_clusters``) are one cluster
    whose ratios are averaged into one observation. The per-move wall-time ratio over the same games
    is printed beside it.
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
    groups = design_clusters([fast for fast, _ in timed])
    distinct = len({fast.moves for fast, _ in timed})
    units = [sum(math.log(timed[i][1].cpu_seconds / timed[i][0].cpu_seconds) for i in group) / len(group)
             for group in groups]
    dropped = f"; {diverging} game{'s' if diverging != 1 else ''} whose moves differed between the cells dropped" \
        if diverging else ""
    if len(units) < 2:
        return _untested(f"{len(timed)} same games with CPU times in {len(units)} independent "
                         f"group{'s' if len(units) != 1 else ''}, too few"
                         + dropped, len(timed), test)
    n = len(units)
    mean = sum(units) / n
    deviation = math.sqrt(sum((u - mean) ** 2 for u in units) / (n - 1))
    error = max(deviation / math.sqrt(n), 1e-12)
    critical = hypothesis_tests.t_quantile(0.975, n - 1)
    effect = claim.detectable

    def power(level: float) -> float:
        edge = hypothesis_tests.t_quantile(1 - level / 2, n - 1)
        shift = effect / error
        return NormalDist().cdf(shift - edge) + NormalDist().cdf(-shift - edge)

    ours = (f"{math.exp(mean):.2f}x as fast [{math.exp(mean - critical * error):.2f}, "
            f"{math.exp(mean + critical * error):.2f}] in CPU seconds per game over {len(timed)} same games, "
            f"{distinct} distinct, from {n} independent openings{dropped}")
    ours += _per_move_text(claimed, baseline, {fast.index for fast, _ in same}, result)
    test += f" (t, {n - 1} df), and of {math.exp(effect):.2f}x or more; power against {math.exp(effect):.2f}x as fast"
    shortfall = (mean - effect) / error
    # The size test is one-sided: P(T <= t) from the two-sided tail of |t|.
    tail = hypothesis_tests.t_p_value(shortfall, n - 1) / 2
    size = Hypothesis(SIZE, tail if shortfall < 0 else 1 - tail, f"{math.exp(effect):.2f}x as fast or more")
    return Evidence(ours, len(timed), test, (direction_hypotheses(mean / error, df=n - 1), size), power,
                    f"a speed-up of {math.exp(effect):.2f}x (the smallest this report counts)")


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
