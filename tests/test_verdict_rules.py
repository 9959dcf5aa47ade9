"""The verdicts' small rules: one agent one name, one cluster per opening position, no placeholder statistic."""

from __future__ import annotations

import math

from connectx.agents.agent_spec import AgentSpec
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game import GameRecord
from connectx.papers import verdicts


def test_a_parameter_spelled_at_its_default_names_the_same_agent() -> None:
    spelled = AgentSpec.parse("minimax:depth=4,evaluation=h1,rules=paper,features=1234")
    assert spelled.without_defaults() == AgentSpec.parse("minimax:depth=4,evaluation=h1,rules=paper")
    assert AgentSpec.parse("minimax:rules=paper,depth=4").without_defaults().text == "minimax:depth=4,rules=paper"
    assert AgentSpec.parse("minimax:features=12").without_defaults().text == "minimax:features=12"
    assert AgentSpec.parse("kaggle:negamax").without_defaults().text == "kaggle:negamax"


def record(index: int, opening: tuple[int, ...]) -> GameRecord:
    return GameRecord(index, ("a", "b"), BoardConfig(6, 7, 4), index, opening, opening + (3,), 0, ("DONE", "DONE"),
                      "line")


def test_openings_that_reach_the_same_position_are_one_cluster() -> None:
    # Kang's [0,5,1,3] and [1,5,0,3]: the same stones on the same cells, reached in another order.
    games = [record(0, (0, 5, 1, 3)), record(1, (0, 5, 1, 3)), record(2, (1, 5, 0, 3)), record(3, (1, 5, 3, 0)),
             record(4, ())]
    assert verdicts.design_clusters(games) == [[0, 1, 2], [3], [4]]


def test_a_statistic_that_cannot_be_computed_is_no_evidence_not_a_z_of_zero() -> None:
    untestable = verdicts.direction_hypotheses(math.nan)
    assert untestable.role == verdicts.FOR and untestable.p_value == 1.0
    # A claim about every cell: one untestable cell and the rest the claimed way shows nothing ...
    assert math.isnan(verdicts.weakest([2.5, math.nan, 3.0]))
    # ... while a testable cell the other way still counts against it.
    assert verdicts.weakest([2.5, math.nan, -3.0]) == -3.0
    assert verdicts.weakest([2.5, 1.0]) == 1.0
