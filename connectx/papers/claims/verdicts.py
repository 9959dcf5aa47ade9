"""The papers' verdict rule, version 4: a verdict from the hypotheses a claim's test brings and which it rejects.

The rule was written down (``docs/papers.md``, "The rule") before it was applied to the games; a
change to it is a new version with its own sensitivity line, never an edit. Every claim is a
statement about an effect, signed so that the claim says it is positive (a rate above 50%, a rise
along a series, a correlation the claimed way), or, for a claimed rate (93.75%) or two rates
claimed similar, that it lies within a margin. Its test brings up to three hypotheses:

- ``FOR``, whose rejection shows the claim: "no effect" rejected the claimed way (a two-sided
  test, its sign telling the way), or, for a rate, "further than the margin" rejected (two
  one-sided tests, TOST);
- ``AGAINST``, whose rejection shows the opposite: "no effect" rejected the other way (the same
  two-sided test: one p-value serves as ``FOR`` or ``AGAINST`` by its sign), or, for a rate,
  "within the margin" rejected (the one-sided test at the margin's nearer edge);
- ``SIZE``, for a direction, whose rejection rules out an effect as large as the size the words
  imply ("much", "easily", "dominates"; for words without a size, the smallest effect the report
  counts, ``Claim.detectable``): the one-sided test of "the effect is at least that size".

At most one of a claim's nulls can be true at once ("no effect", "at least the size" and the two
sides of a margin exclude each other), so testing each at ``ALPHA`` keeps the chance of a false
verdict on that claim at most ``ALPHA`` (``PER_CLAIM``): the report states the expected number of
false verdicts, at most ``ALPHA`` times the claims. Holm's and Benjamini-Hochberg's corrections over
the papers' claims (``HOLM``, ``BH``) are the sensitivity line; the project's own claims form no part
of the papers' family.

The verdict follows from which hypotheses are rejected: ``AGAINST`` is *contradicted* (a claim about
every cell says which cells); ``FOR`` is *agrees*, or *agrees in direction; smaller than the words
imply* when the words imply a size and ``SIZE`` is rejected too, or, for a trend over a range,
*agrees only in part* when one end's step carries it and *reverses* when some stretch of the range
goes the other way (a contradiction over that stretch); ``SIZE`` alone contradicts words that imply
a size and leaves others *not settled*. Nothing rejected is *not settled* when the test had at least
``POWER_FLOOR`` power to show the claim, and *cannot be tested at this size* below it, or when no
test can run at all (every game won: *at its ceiling*). Version 4 says what such games do show: a test
below the power floor whose cells, or whose difference, are significant the claimed way without settling
the words (some cells of a claim about every cell) *leans the claimed way*, and one that shows what the
words deny (two rates claimed similar that differ) *leans against the words*, each with its figure (the
claim's ``Evidence.leaning``); two rates shown similar only because both sit at 0% or 100% *agree only at
the floor*. A claim about every cell (``Claim.each``) is an
intersection-union test: ``FOR``'s p-value is the largest of the cells', ``AGAINST``'s and
``SIZE``'s the smallest times the cells (Bonferroni).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from connectx.evaluation.statistics import hypothesis_tests
from connectx.papers.experiments.design import Claim

RULE_VERSION = 4
"""The version of the rule below; ``docs/papers.md`` states it in words under the same number."""
ALPHA = 0.05
"""The level each claim is tested at: the chance of a false verdict on one claim."""
POWER_FLOOR = 0.5
"""Below this power to show the claim, a test that rejects nothing cannot be told from no test at all."""
PER_CLAIM, HOLM, BH = "per claim", "Holm", "Benjamini-Hochberg"
"""The error controls: the rule's own (each claim at ``ALPHA``), and the two of its sensitivity line (Holm's
family-wise and Benjamini-Hochberg's false discovery rate, each over the papers' claims)."""
CONTROLS = (PER_CLAIM, HOLM, BH)

AGREES, CONTRADICTED, NOT_SETTLED = "agrees", "contradicted", "not settled"
SMALLER = "agrees in direction; smaller than the words imply"
"""A claim whose words imply a size: shown the claimed way, and that size ruled out."""
PARTLY = "agrees only in part"
"""A trend shown across its whole range that one end's step carries: not shown over the rest of the range."""
REVERSES = "reverses"
"""A trend shown across its whole range that goes significantly the other way over a stretch of it."""
AT_FLOOR = "agrees only at the floor"
"""Two rates shown within the margin of each other only because both lie within it of 0% (or of 100%)."""
CANNOT_TEST = "cannot be tested at this size"
"""Nothing rejected by a test of too little power (below ``POWER_FLOOR``), and nothing the games show either way."""
LEANS_FOR = "leans the claimed way"
"""Nothing rejected by a test below ``POWER_FLOOR``, but part of the claim (some of its cells) shown the claimed way
and none of it the other way."""
LEANS_AGAINST = "leans against the words"
"""Nothing rejected by a test below ``POWER_FLOOR``, but the games show what the words deny (rates claimed similar
that differ), not by the margin that would contradict them."""
CEILING = "at its ceiling"
"""No test can run: every game went one way, so no number of games could show a rise (or a difference)."""
LEANS = "leans one way"
"""The first screen's answer for both ``LEANS_FOR`` and ``LEANS_AGAINST``."""
GROUPS = {
    AGREES: AGREES,
    SMALLER: AGREES,
    PARTLY: AGREES,
    AT_FLOOR: AGREES,
    CONTRADICTED: CONTRADICTED,
    REVERSES: CONTRADICTED,
    NOT_SETTLED: NOT_SETTLED,
    LEANS_FOR: LEANS,
    LEANS_AGAINST: LEANS,
    CEILING: CEILING,
    CANNOT_TEST: CANNOT_TEST,
}
"""Which of the first screen's answers each verdict is counted as."""


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
    short_of_range: str = ""
    """For a trend: where it is not shown once one end's step is left out (empty: it holds across the range)."""
    holds_over: str = ""
    """Where the claim holds and where not, in a few words for the verdict: for a trend, ``short_of_range``
    or ``reverses`` shortened (``10 to 100 ms; not shown 100 to 1000 ms``); for a claim about every cell, the
    cells that go the other way (``at depth 1; depths 2, 3 as claimed``)."""
    reverses: str = ""
    """For a trend: where it goes significantly the other way once one end's step is left out (empty: nowhere)."""
    leaning: str = ""
    """What the games show when the claim's own test settles nothing, with its figure (``the claimed way in 12 of
    15 cells``), or empty when they show nothing either way."""
    leans: int = 0
    """Which way ``leaning`` points: +1 the claimed way, -1 against the words, 0 neither."""
    ceiling: str = ""
    """Why no test could run when every game went one way (``every game won``); empty otherwise."""
    floor: str = ""
    """For two rates claimed similar: both within the margin of 0% or of 100%, in words (``1 and 0 of 100 won``)."""
    headline: str = ""
    """Our measurement in a few words with its figure, for the first screen, where the start of ``ours`` would not
    carry one (a claim about many cells, a ratio per depth); empty: the start of ``ours``."""
    shown_as: str = ""
    """What the claim's ``FOR`` rejection shows, in words, where the claim rests on a size (``2x fewer nodes or
    more``): the verdict says so, since the direction alone could not have failed."""


def direction_hypotheses(z: float, *, contrary_tests: int = 1, df: float | None = None) -> Hypothesis:
    """ "No effect" from a statistic ``z`` signed the claim's way (Student's t when ``df`` is given): ``FOR`` when
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
    """ "The effect is at least the claim's size" (``name`` says which) from one-sided statistics ``zs`` (one per
    cell), each (estimate - size) / error: rejected when some cell falls clearly short (the smallest
    p-value times the cells)."""
    known = [z for z in zs if not math.isnan(z)]
    p = min(1.0, len(known) * min(1.0 - hypothesis_tests.upper_p_value(z) for z in known)) if known else 1.0
    return Hypothesis(SIZE, p, name)


@dataclass(frozen=True)
class Verdict:
    status: str
    """One of ``GROUPS``' keys."""
    ours: str
    games: int
    test: str = ""
    hypotheses: tuple[Hypothesis, ...] = ()
    adjusted: tuple[float, ...] = ()
    """Each hypothesis's p-value as the control compares it with ``ALPHA`` (per claim: as it is)."""
    level: float = ALPHA
    """The significance level the ``FOR`` test's power is stated at."""
    power: float = math.nan
    reason: str = ""
    """Which hypotheses were rejected, in words: why the verdict is what it is."""
    holds_over: str = ""
    """Where the claim holds and where not (``Evidence.holds_over``)."""
    control: str = PER_CLAIM
    """The error control the verdict was reached under (``CONTROLS``)."""
    leaning: str = ""
    """What the games show when the verdict leans one way or sits at a floor or ceiling (``Evidence``)."""
    companion: str = ""
    """The verdict on the claim's companion reading (``Claim.companion``) in a few words, never counted."""
    headline: str = ""
    """Our measurement in a few words with its figure (``Evidence.headline``)."""
    shown_as: str = ""
    """What an agreement shows where the claim rests on a size (``Evidence.shown_as``)."""

    @property
    def group(self) -> str:
        """Which of the four answers the first screen counts this verdict as."""
        return GROUPS[self.status]

    @property
    def summary(self) -> str:
        """The verdict in a few words, for the report's first screen: where it holds, what the games lean to, and
        the claim's companion reading when it has one."""
        words = self._words()
        return f"{words}; {self.companion}" if self.companion else words

    def _words(self) -> str:
        if self.status == PARTLY and self.holds_over:
            return f"agrees {self.holds_over}"
        if self.status == REVERSES:
            return f"reverses: agrees {self.holds_over}"
        if self.status in (LEANS_FOR, LEANS_AGAINST):
            return f"{self.status} (power {100 * self.power:.0f}%): {self.leaning}"
        if self.status in (AT_FLOOR, CEILING):
            return f"{self.status}: {self.leaning}"
        if self.status == AGREES and self.shown_as:
            return f"agrees by its size: {self.shown_as} shown"
        status = self.status
        if self.status == CANNOT_TEST and not math.isnan(self.power):
            status += f" (power {100 * self.power:.0f}%)"
        if not self.holds_over or self.status == AGREES:
            return status
        return f"{status} {self.holds_over}" if self.holds_over.startswith("at ") else f"{status}: {self.holds_over}"

    @property
    def p_value(self) -> float:
        """The p-value of the claim's first hypothesis ("no effect", or the margin), before Holm."""
        return self.hypotheses[0].p_value if self.hypotheses else 1.0


def decide(measured: Sequence[tuple[Claim, Evidence]], control: str = PER_CLAIM, alpha: float = ALPHA) -> list[Verdict]:
    """The verdict on each measured claim under ``control``: each claim at ``alpha`` (``PER_CLAIM``), or every
    hypothesis of ``measured`` as one family (``HOLM``: family-wise; ``BH``: false discovery rate)."""
    p_values = [h.p_value for _, e in measured for h in e.hypotheses]
    adjusted = (
        p_values
        if control == PER_CLAIM
        else hypothesis_tests.holm(p_values)
        if control == HOLM
        else hypothesis_tests.benjamini_hochberg(p_values)
    )
    levels = hypothesis_tests.holm_levels(p_values, alpha) if control == HOLM else [alpha] * len(p_values)
    verdicts = []
    index = 0
    for claim, e in measured:
        mine = range(index, index + len(e.hypotheses))
        index += len(e.hypotheses)
        rejected = {h.role for h, i in zip(e.hypotheses, mine, strict=True) if adjusted[i] < alpha}
        first = next((i for h, i in zip(e.hypotheses, mine, strict=True) if h.role != SIZE), None)
        level = alpha if first is None else levels[first]
        power = e.power(level)
        status, reason = _status(claim, e, rejected, power)
        leaning = (
            e.leaning
            if status in (LEANS_FOR, LEANS_AGAINST)
            else e.floor
            if status == AT_FLOOR
            else e.ceiling
            if status == CEILING
            else ""
        )
        verdicts.append(
            Verdict(
                status,
                e.ours,
                e.games,
                e.test,
                e.hypotheses,
                tuple(adjusted[i] for i in mine),
                level,
                power,
                reason,
                _where(status, e),
                control,
                leaning,
                headline=e.headline,
                shown_as=e.shown_as,
            )
        )
    return verdicts


def _where(status: str, evidence: Evidence) -> str:
    """Where the claim holds and where not, for the verdict's words: a trend's range only when one end's step
    carries it or part of it reverses, the cells of a claim about every cell whenever it is not shown in all."""
    if evidence.short_of_range or evidence.reverses:
        return evidence.holds_over if status in (PARTLY, REVERSES) else ""
    return evidence.holds_over if status != AGREES else ""


def _status(claim: Claim, evidence: Evidence, rejected: set[str], power: float) -> tuple[str, str]:
    """The one rule (see the module's docstring): the verdict and why, from the roles rejected."""
    margin = claim.test in ("win_rate", "similar")
    if AGAINST in rejected:
        return CONTRADICTED, (
            "further from the paper's number than the margin" if margin else "significant the other way"
        )
    if FOR in rejected:
        if SIZE in rejected and claim.magnitude:
            return SMALLER, f"significant the claimed way, and {evidence.size} ruled out"
        if evidence.reverses:
            return REVERSES, f"significant the claimed way over the whole range, but {evidence.reverses}"
        if evidence.short_of_range:
            return PARTLY, f"significant the claimed way over the whole range, but {evidence.short_of_range}"
        if evidence.shown_as:
            return AGREES, f"{evidence.shown_as} shown, the size the words imply (the direction alone could not fail)"
        if evidence.floor:
            return AT_FLOOR, f"within the margin, both rates within it of 0% or 100% ({evidence.floor})"
        return AGREES, "within the margin" if margin else "significant the claimed way"
    if SIZE in rejected:
        if claim.magnitude:
            return CONTRADICTED, f"{evidence.size} ruled out"
        return NOT_SETTLED, (
            f"no effect not ruled out; {evidence.size} ruled out, but the words state no size, so "
            "a smaller effect would still bear them out"
        )
    if not evidence.hypotheses:
        if evidence.ceiling:
            return CEILING, f"no test can run: {evidence.ceiling}"
        return CANNOT_TEST, "no test can run on these games"
    if not power >= POWER_FLOOR:
        if evidence.leans:
            return (LEANS_FOR if evidence.leans > 0 else LEANS_AGAINST), (
                f"no hypothesis of the claim rejected, by a test with {_power_words(power)} to show it, but "
                f"{evidence.leaning}"
            )
        return CANNOT_TEST, (
            f"no hypothesis rejected, by a test with {_power_words(power)} to show the claim, below "
            f"the {100 * POWER_FLOOR:g}% this report needs to call a claim open"
        )
    return NOT_SETTLED, f"no hypothesis rejected, by a test with {_power_words(power)} to show the claim"


def _power_words(power: float) -> str:
    return "unknown power" if math.isnan(power) else f"{100 * power:.0f}% power"


def cells_where(names: Sequence[str], fails: Sequence[bool], shown: Sequence[bool]) -> str:
    """For a claim about every cell, where it fails, in a few words: the cells that go the other way (``at depth 1
    at 10 ms``) or, when none does, those that do not show it (``not shown at ...``), then how many show it
    (``the other 2 as claimed``); empty when every cell shows it."""
    failing = [name for name, failed in zip(names, fails, strict=True) if failed]
    missing = [name for name, failed, ok in zip(names, fails, shown, strict=True) if not failed and not ok]
    claimed = [name for name, failed, ok in zip(names, fails, shown, strict=True) if ok and not failed]
    if not failing and not missing:
        return ""
    if len(failing) == len(names):
        return "at every cell"
    parts = [f"at {', '.join(failing)}" if failing else f"not shown at {', '.join(missing)}"]
    others = "the other one" if len(claimed) == 1 else f"the other {len(claimed)}"
    return "; ".join(parts + ([f"{others} as claimed"] if claimed else []))


def cells_leaning(zs: Sequence[float], fails: Sequence[bool], shown: Sequence[bool]) -> str:
    """For a claim about every cell that no cell contradicts, what its cells show (``the claimed way in all 15
    cells, 12 significantly``); empty when some cell fails or none is significant the claimed way."""
    if any(fails) or not any(shown):
        return ""
    ahead = sum(z > 0 for z in zs)
    where = f"all {len(zs)} cells" if ahead == len(zs) else f"{ahead} of {len(zs)} cells"
    return f"{where} the claimed way, {sum(shown)} significantly"


def no_power(level: float) -> float:
    """The power of a test that could not be run (no games, too few moves): unknown."""
    return math.nan


def untested(ours: str, games: int, test: str, ceiling: str = "") -> Evidence:
    """Evidence no test could be run on; ``ceiling`` says why when every game went one way."""
    return Evidence(ours, games, test, (), no_power, ceiling=ceiling)
