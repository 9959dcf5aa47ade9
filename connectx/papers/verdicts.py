"""The papers' verdict rule: from the hypotheses a claim's test brings, and which of them Holm rejects, its verdict.

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
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from connectx.papers import hypothesis_tests
from connectx.papers.design import Claim

ALPHA = 0.05
"""The family-wise error rate over every claim of a report (Holm)."""

AGREES, CONTRADICTED, NOT_SETTLED = "agrees", "contradicted", "not settled"
SMALLER = "agrees in direction; smaller than the words imply"
"""A claim whose words imply a size: shown the claimed way, and that size ruled out."""
PARTLY = "agrees only in part"
"""A trend shown across its whole range that one end's step carries: not shown over the rest of the range."""
NOT_COMPARABLE = "not comparable"
"""A claimed average over settings the paper does not state, reached by some of ours."""


FOR, AGAINST, SIZE = "for", "against", "size"
"""The roles of a claim's hypotheses (see the module's docstring)."""


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


def decide(measured: Sequence[tuple[Claim, Evidence]], alpha: float = ALPHA) -> list[Verdict]:
    """The verdict on each measured claim, its hypotheses corrected for all of them (Holm at ``alpha``)."""
    p_values = [h.p_value for _, e in measured for h in e.hypotheses]
    adjusted = hypothesis_tests.holm(p_values)
    levels = hypothesis_tests.holm_levels(p_values, alpha)
    verdicts = []
    index = 0
    for claim, e in measured:
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


def no_power(level: float) -> float:
    """The power of a test that could not be run (no games, too few moves): unknown."""
    return math.nan


def untested(ours: str, games: int, test: str) -> Evidence:
    return Evidence(ours, games, test, (), no_power)
