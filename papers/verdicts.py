"""Hold each claim of a paper against the games that test it: agrees, disagrees, or not settled.

A claim agrees when the paper's number lies inside our 95% interval (or our interval lies on the
stated side of a half, or above the baseline's), disagrees when it lies outside, and is not
settled when our interval is too wide to say (see ``papers.experiments.CLAIM_TESTS``).
"""

from __future__ import annotations

from dataclasses import dataclass

from harness import statistics
from harness.statistics import Interval
from papers.experiments import Claim
from papers.runner import ExperimentResult, MoveSample, move_samples

ROUNDING = 1e-9
"""Slack when a paper's number meets an interval's end: Wilson's bound at 100% comes out as 0.99999..."""


def win_rate(wins: int, draws: int, losses: int) -> Interval:
    """The share of games won (the papers' "winning percentage"), with its Wilson 95% interval."""
    return statistics.wilson_interval(wins, 0, draws + losses)


def percent(interval: Interval) -> str:
    return f"{100 * interval.value:.1f}% [{100 * interval.low:.1f}, {100 * interval.high:.1f}]"


@dataclass(frozen=True)
class Verdict:
    status: str
    """``agrees``, ``disagrees`` or ``not settled``."""
    ours: str
    games: int


def judge(claim: Claim, result: ExperimentResult) -> Verdict:
    """Hold ``claim`` against the games of ``result`` (see ``paper_experiments.CLAIM_TESTS``)."""
    wins, draws, losses = result.tally(claim.cells)
    games = wins + draws + losses
    if claim.test in ("falls_with_move", "nodes_track_time"):
        samples = [s for s in move_samples(result) if s.series in {series for series, _ in claim.cells}]
        return _judge_moves(claim, samples, games)
    if games == 0:
        return Verdict("not settled", "no games played", 0)
    if claim.test == "win_rate":
        rate = win_rate(wins, draws, losses)
        assert claim.paper_value is not None
        ours = f"won {percent(rate)} of {games}"
        if rate.low - ROUNDING <= claim.paper_value <= rate.high + ROUNDING:
            return Verdict("agrees", ours + f"; the paper's {100 * claim.paper_value:g}% is inside", games)
        side = "lower" if rate.high < claim.paper_value else "higher"
        return Verdict("disagrees", ours + f"; {side} than the paper's {100 * claim.paper_value:g}%", games)
    if claim.test in ("above_half", "below_half"):
        score = statistics.wilson_interval(wins, draws, losses)
        ours = f"scored {percent(score)} (W-D-L {wins}-{draws}-{losses})"
        above, below = score.low > 0.5, score.high < 0.5
        if not above and not below:
            return Verdict("not settled", ours + "; the interval contains 50%", games)
        return Verdict("agrees" if above == (claim.test == "above_half") else "disagrees", ours, games)
    base = win_rate(*result.tally(claim.baseline))
    rate = win_rate(wins, draws, losses)
    ours = f"won {percent(rate)} against {percent(base)} at the baseline"
    if rate.low > base.high:
        return Verdict("agrees", ours, games)
    if rate.high < base.low:
        return Verdict("disagrees", ours, games)
    direction = ("same direction" if rate.value > base.value else "no difference" if rate.value == base.value
                 else "opposite direction")
    return Verdict("not settled", ours + f"; intervals overlap ({direction})", games)


def _judge_moves(claim: Claim, samples: list[MoveSample], games: int) -> Verdict:
    if len(samples) < 6:
        return Verdict("not settled", f"{len(samples)} moves with a recorded node count, too few", games)
    if claim.test == "nodes_track_time":
        timed = [s for s in samples if s.seconds == s.seconds]
        r = statistics.correlation_interval([s.nodes for s in timed], [s.seconds for s in timed])
        ours = f"Pearson r = {r.value:.2f} [{r.low:.2f}, {r.high:.2f}] over {len(timed)} moves"
        status = "agrees" if r.low > 0 else "disagrees" if r.high < 0 else "not settled"
        return Verdict(status, ours, games)
    moves = sorted(s.move for s in samples)
    early_end, late_start = moves[len(moves) // 3], moves[2 * len(moves) // 3]
    early = statistics.mean_interval([s.nodes for s in samples if s.move <= early_end])
    late = statistics.mean_interval([s.nodes for s in samples if s.move >= late_start])
    ours = (f"mean nodes {early.value:.0f} [{early.low:.0f}, {early.high:.0f}] up to move {early_end}, "
            f"{late.value:.0f} [{late.low:.0f}, {late.high:.0f}] from move {late_start}")
    status = "agrees" if early.low > late.high else "disagrees" if early.high < late.low else "not settled"
    return Verdict(status, ours, games)
