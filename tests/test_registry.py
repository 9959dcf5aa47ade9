"""Agent specs: names with typed parameters, and errors that say what is valid."""

from __future__ import annotations

import pytest

from agents.registry import REGISTRY, AgentSpecError, create_agent, parse_spec


def test_specs_carry_typed_parameters() -> None:
    entry, params = parse_spec("negamax:depth=5,seed=3")
    assert entry.name == "negamax" and params == {"depth": 5, "seed": 3}
    assert parse_spec("random")[1] == {}
    assert parse_spec("random:seed=none")[1] == {"seed": None}


def test_created_agents_carry_their_spec_as_name() -> None:
    assert create_agent("negamax:depth=2").name == "negamax:depth=2"


def test_every_factory_parameter_has_a_usable_type() -> None:
    for entry in REGISTRY.values():
        assert all(kind in (int, float, bool, str) for kind in entry.parameters().values()), entry.name


@pytest.mark.parametrize("spec,message", [
    ("nope", "registered agents: random, negamax"),
    ("negamax:deep=5", "parameters: depth=<int>, seed=<int>"),
    ("negamax:depth", "does not take"),
    ("negamax:depth=five", "not a int"),
    ("negamax:depth=0", "expected 1 or more"),
])
def test_bad_specs_explain_what_is_valid(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        create_agent(spec)
