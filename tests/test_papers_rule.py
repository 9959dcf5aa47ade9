"""The papers' verdict rule: stated in docs/papers.md under the version the code applies, its labels, its error
controls and families, and the committed reports produced by it from their stored games."""

from __future__ import annotations

import dataclasses
import math
import re
from pathlib import Path

import pytest

from connectx.evaluation.scheduling import InlineExecutor
from connectx.papers.claims import claim_tests, verdicts
from connectx.papers.claims.verdicts import AGAINST, FOR, SIZE, Evidence, Hypothesis
from connectx.papers.experiments.catalogue import PROFILES
from connectx.papers.experiments.design import DEFAULT_EFFECTS, Claim
from connectx.papers.experiments.runner import ExperimentResult, run_experiments
from connectx.papers.writing.answer_section import number_claims

REPO = Path(__file__).resolve().parents[1]


def evidence(*hypotheses: tuple[str, float], power: float = 0.9, **fields: str) -> Evidence:
    return Evidence(
        "ours", 100, "test", tuple(Hypothesis(role, p, role) for role, p in hypotheses), lambda level: power, **fields
    )


CLAIM = Claim("H1 wins", "above_half")
SIZED = Claim("H1 wins easily", "above_half", effect=0.15, magnitude=True)


def test_the_docs_state_the_rule_the_code_applies() -> None:
    page = (REPO / "docs" / "papers.md").read_text()
    rule = " ".join(page[page.index("## The rule") : page.index("## The words")].split())
    assert f"**Version {verdicts.RULE_VERSION}**" in rule
    assert f"tested at {verdicts.ALPHA:g}" in rule and f"at least {100 * verdicts.POWER_FLOOR:g}% power" in rule
    for label in (
        verdicts.AGREES,
        verdicts.SMALLER,
        verdicts.PARTLY,
        verdicts.REVERSES,
        verdicts.NOT_SETTLED,
        verdicts.CANNOT_TEST,
        verdicts.AT_FLOOR,
        verdicts.LEANS_FOR,
        verdicts.LEANS_AGAINST,
        verdicts.CEILING,
    ):
        assert f"*{label[0].upper() + label[1:]}*" in rule or f"*{label}*" in rule, label
    assert "Holm" in rule and "Benjamini-Hochberg" in rule
    # The margins and sizes the words are given are the ones the claims' tests use.
    effects = DEFAULT_EFFECTS
    assert f"A quoted rate: within {100 * effects['win_rate']:g} points" in rule
    assert f'two rates "similar": within {100 * effects["similar"]:g} points' in rule
    assert f"a score of {100 * (0.5 + effects['above_half']):g}% ({100 * (0.5 - effects['below_half']):g}%)" in rule
    assert f"a rise of {100 * effects['rises']:g} points across the series" in rule
    assert f"a correlation: {effects['falls_with_move']:g}" in rule
    assert f'"faster": {math.exp(effects["faster"]):.1f} times' in rule
    assert f"fewer nodes: {math.exp(effects['fewer_nodes']):.1f} times" in rule
    assert f'"deeper": {"half a ply" if effects["deeper"] == 0.5 else effects["deeper"]} per move' in rule


def test_each_label_follows_from_what_is_rejected_and_the_power() -> None:
    def status(claim: Claim, e: Evidence) -> str:
        return verdicts.decide([(claim, e)])[0].status

    assert status(CLAIM, evidence((AGAINST, 0.01), (SIZE, 0.01))) == verdicts.CONTRADICTED
    assert status(CLAIM, evidence((FOR, 0.01), (SIZE, 0.6))) == verdicts.AGREES
    assert status(SIZED, evidence((FOR, 0.01), (SIZE, 0.01))) == verdicts.SMALLER
    assert status(SIZED, evidence((FOR, 0.3), (SIZE, 0.01))) == verdicts.CONTRADICTED
    assert status(CLAIM, evidence((FOR, 0.3), (SIZE, 0.01))) == verdicts.NOT_SETTLED  # no size in the words
    # Nothing rejected: open when the test could have shown the claim, untestable at this size when it could not.
    assert status(CLAIM, evidence((FOR, 0.3), (SIZE, 0.6), power=0.8)) == verdicts.NOT_SETTLED
    assert status(CLAIM, evidence((FOR, 0.3), (SIZE, 0.6), power=0.2)) == verdicts.CANNOT_TEST
    assert status(CLAIM, evidence()) == verdicts.CANNOT_TEST  # no test can run, and no ceiling says why
    # A trend shown over its range that goes the other way over part of it reverses, and counts as contradicted.
    reversal = verdicts.decide(
        [
            (
                CLAIM,
                evidence(
                    (FOR, 0.001),
                    reverses="the other way 100 to 1000 ms",
                    holds_over="10 to 100 ms; the other way 100 to 1000 ms",
                ),
            )
        ]
    )[0]
    assert reversal.status == verdicts.REVERSES and reversal.group == verdicts.CONTRADICTED
    assert reversal.summary == "reverses: agrees 10 to 100 ms; the other way 100 to 1000 ms"
    # A claim about every cell: the cells that go the other way follow the verdict, or, when its size is ruled out
    # with no cell the other way, the cells that do not show it.
    each = dataclasses.replace(SIZED, each=True)
    other_way = verdicts.decide([(each, evidence((AGAINST, 0.01), holds_over="at a; the other one as claimed"))])[0]
    assert other_way.summary == "contradicted at a; the other one as claimed"
    short = verdicts.decide([(each, evidence((FOR, 0.3), (SIZE, 0.01), holds_over="not shown at b"))])[0]
    assert short.summary == "contradicted: not shown at b"
    low = verdicts.decide([(CLAIM, evidence((FOR, 0.3), power=0.36))])[0]
    assert low.summary == "cannot be tested at this size (power 36%)"


def test_version_4_says_what_the_games_show_where_a_test_settles_nothing() -> None:
    def verdict(claim: Claim, e: Evidence) -> verdicts.Verdict:
        return verdicts.decide([(claim, e)])[0]

    # Every game one way: at its ceiling, counted apart from "cannot be tested at this size".
    ceiling = verdict(CLAIM, verdicts.untested("won 100%", 600, "trend", ceiling="all 600 games won"))
    assert (ceiling.status, ceiling.group, ceiling.summary) == (
        verdicts.CEILING,
        verdicts.CEILING,
        "at its ceiling: all 600 games won",
    )
    # Too little power, but part of the claim shown: it leans, with its figure; with power it is not settled.
    leaning = dict(leaning="all 15 cells the claimed way, 12 significantly")
    low = verdict(CLAIM, evidence((FOR, 0.2), (SIZE, 0.9), power=0.0, leans=1, **leaning))  # type: ignore[arg-type]
    assert low.status == verdicts.LEANS_FOR and low.group == verdicts.LEANS
    assert low.summary == "leans the claimed way (power 0%): all 15 cells the claimed way, 12 significantly"
    against = verdict(CLAIM, evidence((FOR, 0.6), power=0.38, leans=-1, leaning="+12.0 points apart"))  # type: ignore[arg-type]
    assert against.summary == "leans against the words (power 38%): +12.0 points apart"
    assert verdict(CLAIM, evidence((FOR, 0.2), power=0.8, leans=1, **leaning)).status == verdicts.NOT_SETTLED  # type: ignore[arg-type]
    assert verdict(CLAIM, evidence((FOR, 0.2), power=0.2)).status == verdicts.CANNOT_TEST
    # Shown within a margin while both rates sit at 0%: agrees only at the floor, still an agreement.
    floor = verdict(CLAIM, evidence((FOR, 0.001), (AGAINST, 1.0), floor="1 and 0 of 100 won, alike only in losing"))
    assert floor.status == verdicts.AT_FLOOR and floor.group == verdicts.AGREES
    assert floor.summary == "agrees only at the floor: 1 and 0 of 100 won, alike only in losing"
    # A claim whose direction cannot fail agrees by its size.
    sized = verdict(SIZED, evidence((FOR, 0.001), (SIZE, 1.0), shown_as="more than 2x fewer nodes"))
    assert sized.summary == "agrees by its size: more than 2x fewer nodes shown"
    # A companion reading's verdict follows the claim's own, never replacing it.
    assert dataclasses.replace(sized, companion="as a rise: agrees").summary == (
        "agrees by its size: more than 2x fewer nodes shown; as a rise: agrees"
    )


def test_a_claim_about_every_cell_names_the_cells_that_fail() -> None:
    names = ["depth 1", "depth 2", "depth 3"]
    assert verdicts.cells_where(names, [True, False, False], [False, True, True]) == (
        "at depth 1; the other 2 as claimed"
    )
    assert verdicts.cells_where(names, [False] * 3, [True, False, False]) == (
        "not shown at depth 2, depth 3; the other one as claimed"
    )
    assert verdicts.cells_where(names, [True] * 3, [False] * 3) == "at every cell"
    assert verdicts.cells_where(names, [False] * 3, [True] * 3) == ""


def test_each_claim_is_held_to_its_own_level_and_the_corrections_are_the_sensitivity_line() -> None:
    # One claim at p = 0.01 among ten at p = 0.5: rejected on its own, not over the family (0.01 x 11 = 0.11 under
    # Holm, and 0.01 x 11 / 1 under Benjamini-Hochberg too).
    measured = [(CLAIM, evidence((AGAINST, 0.01)))] + [(CLAIM, evidence((FOR, 0.5)))] * 10
    assert verdicts.decide(measured)[0].status == verdicts.CONTRADICTED
    for control in (verdicts.HOLM, verdicts.BH):
        assert verdicts.decide(measured, control)[0].status == verdicts.NOT_SETTLED
        assert verdicts.decide(measured, control)[0].adjusted == pytest.approx((0.11,))
    # With five claims all at p = 0.04, BH rejects every one (0.04 x 5 / 5) and Holm none (0.04 x 5 = 0.2).
    five = [(CLAIM, evidence((FOR, 0.04)))] * 5
    assert {v.status for v in verdicts.decide(five, verdicts.BH)} == {verdicts.AGREES}
    assert {v.status for v in verdicts.decide(five, verdicts.HOLM)} == {verdicts.NOT_SETTLED}


def test_the_projects_own_claims_form_no_part_of_the_papers_family(monkeypatch: pytest.MonkeyPatch) -> None:
    ours = Claim("our agent wins", "above_half", own=True)
    measured = {id(CLAIM): evidence((FOR, 0.02)), id(ours): evidence((FOR, 0.0001))}
    monkeypatch.setattr(claim_tests, "measure", lambda claim, result: measured[id(claim)])
    result = ExperimentResult.__new__(ExperimentResult)
    judged = claim_tests.judge_every_control([(CLAIM, result), (ours, result)])
    # Alone in the papers' family, Holm leaves the paper's p = 0.02 as it is: ours did not enter it.
    assert judged[verdicts.HOLM][0].adjusted == pytest.approx((0.02,))
    assert [v.status for v in judged[verdicts.PER_CLAIM]] == [verdicts.AGREES, verdicts.AGREES]
    # Numbered the papers' first.
    entries = number_claims([(ours, None, {}), (CLAIM, None, {})])  # type: ignore[list-item]
    assert [e.number for e in entries] == [2, 1]


def refuse(*args: object, **kwargs: object) -> None:
    raise AssertionError("a game the report rests on is not stored")


@pytest.mark.parametrize("profile", ["quick", "full"])
def test_the_committed_report_is_the_rule_applied_to_its_stored_games(profile: str) -> None:
    # Read back every stored game (a game not stored fails the test rather than being played) and judge again.
    results = run_experiments(
        PROFILES[profile], REPO / "reports" / profile, executor=InlineExecutor(), play=refuse, allow_code_change=True
    )
    claims = [(claim, result) for result in results for claim in result.experiment.claims]
    judged = claim_tests.judge_every_control(claims)
    entries = number_claims(
        [(claim, result.experiment, {c: judged[c][i] for c in judged}) for i, (claim, result) in enumerate(claims)]
    )
    text = (REPO / "reports" / profile / "report.md").read_text()
    rows = {int(m.group(1)): m.group(2) for m in re.finditer(r"^\| \[(\d+)\]\(.*\*\*(.+?)\*\* \|$", text, re.M)}
    assert rows == {e.number: e.verdict.summary for e in entries}
