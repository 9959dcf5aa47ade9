"""Each claim held against its games: its test run (``measure``), then the verdict rule over all of them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from connectx.papers.claims.cell_scores import cells_at
from connectx.papers.claims.move_claims import depth_evidence, move_evidence, nodes_evidence, speed_evidence
from connectx.papers.claims.p_value_text import p_text
from connectx.papers.claims.rate_claims import half_evidence, rate_evidence, similar_evidence
from connectx.papers.claims.sensitivity import with_sensitivity
from connectx.papers.claims.trends import trend_evidence
from connectx.papers.claims.verdicts import (
    AGREES,
    CONTRADICTED,
    CONTROLS,
    PER_CLAIM,
    POWER_FLOOR,
    Evidence,
    Verdict,
    decide,
)
from connectx.papers.experiments.design import Claim
from connectx.papers.experiments.runner import ExperimentResult, move_samples


def judge_all(claims: Sequence[tuple[Claim, ExperimentResult]], control: str = PER_CLAIM) -> list[Verdict]:
    """The verdict on each claim under ``control`` (``verdicts.decide``), the papers' claims one family and the
    project's own (``Claim.own``) another."""
    return judge_every_control(claims, (control,))[control]


def judge_every_control(
    claims: Sequence[tuple[Claim, ExperimentResult]], controls: Sequence[str] = CONTROLS
) -> dict[str, list[Verdict]]:
    """The verdicts under each of ``controls``, every claim's test run once: the rule's own and its sensitivity
    line. The papers' claims are one family and the project's own another, so ours never move a paper's."""
    measured = [(claim, measure(claim, result)) for claim, result in claims]
    judged: dict[str, list[Verdict]] = {}
    for control in controls:
        verdicts: dict[int, Verdict] = {}
        for own in (False, True):
            family = [i for i, (claim, _) in enumerate(measured) if claim.own == own]
            verdicts.update(zip(family, decide([measured[i] for i in family], control), strict=True))
        judged[control] = [verdicts[i] for i in range(len(measured))]
    companions = {i: companion_text(claim, result) for i, (claim, result) in enumerate(claims) if claim.companion}
    return {
        control: [replace(v, companion=companions.get(i, "")) for i, v in enumerate(verdicts)]
        for control, verdicts in judged.items()
    }


def companion_text(claim: Claim, result: ExperimentResult) -> str:
    """The verdict on ``claim``'s companion reading (``Claim.companion``), tested alone at the rule's own level, in
    a few words with its first figure: stated beside the claim's verdict, counted in no family."""
    assert claim.companion is not None
    verdict = judge(claim.companion, result)
    figure = verdict.ours.split("; ")[0].split(" (")[0]
    if figure.count("[") > 1:  # several cells: their rates alone, the intervals are in the appendix
        figure = re.sub(r" \[[^\]]*\]", "", figure)
    p = verdict.hypotheses[0].p_value if verdict.hypotheses else float("nan")
    settled = verdict.group in (AGREES, CONTRADICTED)
    power = f", power {100 * verdict.power:.0f}%" if not settled and verdict.power < POWER_FLOOR else ""
    return f"{claim.companion_words}: {verdict.status} ({figure}; p {p_text(p)}{power})"


def judge(claim: Claim, result: ExperimentResult) -> Verdict:
    """The verdict on ``claim`` alone."""
    return judge_all([(claim, result)])[0]


def measure(claim: Claim, result: ExperimentResult) -> Evidence:
    """Run ``claim``'s test on the games of ``result`` (see ``connectx.papers.experiments.design.CLAIM_TESTS``)."""
    if claim.test == "faster":
        return speed_evidence(claim, result)
    if claim.test == "fewer_nodes":
        return nodes_evidence(claim, result)
    if claim.test == "deeper":
        return depth_evidence(claim, result)
    if claim.test in ("falls_with_move", "time_falls_with_move", "nodes_track_time"):
        series = {s for s, _ in claim.cells}
        samples = [s for s in move_samples(result) if s.series in series]
        games = sum(len(c.match.records) for c in result.cells if (c.cell.series, c.cell.x) in set(claim.cells))
        return move_evidence(claim, samples, games)
    if claim.test == "similar":
        return similar_evidence(claim, result)
    cells = cells_at(result, claim.cells)
    if claim.test == "win_rate":
        evidence = rate_evidence(claim, cells)
        if claim.sensitivity:
            return with_sensitivity(claim, cells, evidence)
        return evidence
    if claim.test in ("above_half", "below_half"):
        return half_evidence(claim, cells)
    return trend_evidence(claim, result)
