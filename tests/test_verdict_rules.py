"""The verdicts' small rules: one agent one name, one cluster per opening position, no placeholder statistic."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_record import GameRecord
from connectx.evaluation.statistics import hypothesis_tests as ht
from connectx.papers.claims import cell_scores, verdicts


def test_a_parameter_spelled_at_its_default_names_the_same_agent() -> None:
    spelled = AgentSpec.parse("minimax:depth=4,evaluation=h1,rules=paper,features=1234")
    assert spelled.without_defaults() == AgentSpec.parse("minimax:depth=4,evaluation=h1,rules=paper")
    assert AgentSpec.parse("minimax:rules=paper,depth=4").without_defaults().text == "minimax:depth=4,rules=paper"
    assert AgentSpec.parse("minimax:features=12").without_defaults().text == "minimax:features=12"
    assert AgentSpec.parse("kaggle:negamax").without_defaults().text == "kaggle:negamax"


def record(index: int, opening: tuple[int, ...]) -> GameRecord:
    return GameRecord(
        index, ("a", "b"), BoardConfig(6, 7, 4), index, opening, opening + (3,), 0, ("DONE", "DONE"), "line"
    )


def test_openings_that_reach_the_same_position_are_one_cluster() -> None:
    # Kang's [0,5,1,3] and [1,5,0,3]: the same stones on the same cells, reached in another order.
    games = [
        record(0, (0, 5, 1, 3)),
        record(1, (0, 5, 1, 3)),
        record(2, (1, 5, 0, 3)),
        record(3, (1, 5, 3, 0)),
        record(4, ()),
    ]
    assert cell_scores.design_clusters(games) == [[0, 1, 2], [3], [4]]


def test_a_statistic_that_cannot_be_computed_is_no_evidence_not_a_z_of_zero() -> None:
    untestable = verdicts.direction_hypotheses(math.nan)
    assert untestable.role == verdicts.FOR and untestable.p_value == 1.0
    # A claim about every cell: one untestable cell and the rest the claimed way shows nothing ...
    assert math.isnan(verdicts.weakest([2.5, math.nan, 3.0]))
    # ... while a testable cell the other way still counts against it.
    assert verdicts.weakest([2.5, math.nan, -3.0]) == -3.0
    assert verdicts.weakest([2.5, 1.0]) == 1.0


def test_every_statistic_that_cannot_be_computed_is_nan_and_every_p_value_of_nan_is_one() -> None:
    # Nothing to test (every game alike, no spread of scores, too few pairs, no margin edge, one stratum): NaN,
    # never a z of 0 that would read as "measured, and no effect".
    flat = ht.trend([5, 5], [5, 5], [0.0, 1.0])
    undefined = [
        ht.cochran_armitage([5, 5], [5, 5], [0, 1]),
        ht.cochran_armitage([2, 3], [5, 5], [1, 1]),
        ht.stratified_trend_z([flat, flat]),
        ht.stratified_trend_z([]),
        ht.correlation_z(0.4, 3),
        ht.correlation_z(math.nan, 50),
        ht.rate_z(1.0, 1.0, 100),
        ht.rate_z(0.0, 0.0, 100),
        ht.beyond_margin_z(0.5, 0.5, 0.6, 100),
        ht.heterogeneity([0.1], [0.05])[0],
        ht.heterogeneity([0.1, 0.2], [0.0, math.nan])[0],
    ]
    assert all(math.isnan(z) for z in undefined)
    assert [
        ht.normal_p_value(math.nan),
        ht.upper_p_value(math.nan),
        ht.t_p_value(math.nan, 5),
        ht.chi_square_p_value(math.nan, 3),
    ] == [1.0] * 4
    # The verdicts carry NaN through as no evidence: "no effect" and "at least the size" stay unrejected.
    assert verdicts.direction_hypotheses(verdicts.weakest([math.nan, math.nan])).p_value == 1.0
    assert verdicts.size_hypothesis([math.nan], "a rise").p_value == 1.0
    # An untestable cell is no chance to fall short: Bonferroni over the testable ones.
    assert verdicts.size_hypothesis([math.nan, -3.0], "a rise").p_value == pytest.approx(ht.upper_p_value(3.0))


def test_no_statistic_is_set_to_zero_in_place_of_nan() -> None:
    # The grep, kept: no NaN statistic is replaced by 0 (nan_to_num, "0 if isnan") anywhere a verdict reads;
    # an unknown power may be, since a power explains a verdict and never makes one.
    papers, statistics = Path(verdicts.__file__).parents[1], Path(ht.__file__).parent
    for path in [*papers.rglob("*.py"), *statistics.glob("*.py")]:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            replaced = "nan_to_num" in line or re.search(r"(?<![\w.])0(\.0)? if (math\.)?isnan\(", line)
            # The function a line belongs to, named within the few lines before it, says what it computes.
            context = "\n".join(path.read_text().splitlines()[max(0, number - 5) : number])
            assert not replaced or "def power" in context, f"{path.name}:{number}: {line.strip()}"
