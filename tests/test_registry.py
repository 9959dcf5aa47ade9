"""Agent specs: parsed once into typed values whose text round-trips, and errors that say what is valid."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from connectx.agents.agent_spec import AgentKind, AgentSpec
from connectx.agents.core.position import geometry
from connectx.agents.players.random_agent import make_strategy as make_random
from connectx.agents.registry import REGISTRY, AgentEntry, AgentSpecError

KAGGLE_BOARD = geometry(6, 7, 4)


def test_specs_carry_typed_parameters() -> None:
    spec = AgentSpec.parse("negamax:depth=5,seed=3")
    assert (spec.kind, spec.name, spec.kwargs) == (AgentKind.REGISTRY, "negamax", {"depth": 5, "seed": 3})
    assert AgentSpec.parse("random").kwargs == {}
    assert AgentSpec.parse("random:seed=none").kwargs == {"seed": None}
    assert AgentSpec.parse("mcts:time_budget=1,reuse=no").kwargs == {"time_budget": 1.0, "reuse": False}


@pytest.mark.parametrize(
    "text, kind, name",
    [
        ("kaggle:negamax", AgentKind.KAGGLE, "negamax"),
        ("minimax:weights=1/3/9/81", AgentKind.REGISTRY, "minimax"),
        ("minimax:weights=1/3/9/81,depth=2", AgentKind.REGISTRY, "minimax"),
        ("some/folder/agent.py", AgentKind.FILE, "some/folder/agent.py"),
        ("agent.py", AgentKind.FILE, "agent.py"),
    ],
)
def test_the_text_says_the_kind_and_a_slash_in_a_value_is_no_path(text: str, kind: AgentKind, name: str) -> None:
    spec = AgentSpec.parse(text)
    assert (spec.kind, spec.name) == (kind, name)


def test_an_existing_file_is_an_agent_file_whatever_its_name_but_a_registry_name_wins(
    tmp_path: Path, monkeypatch
) -> None:
    (tmp_path / "bot").write_text("def agent(obs, config):\n    return 0\n")
    (tmp_path / "random").write_text("def agent(obs, config):\n    return 0\n")
    monkeypatch.chdir(tmp_path)
    assert AgentSpec.parse("bot").kind is AgentKind.FILE
    assert AgentSpec.parse("random").kind is AgentKind.REGISTRY
    assert AgentSpec.parse("./random").kind is AgentKind.FILE


@pytest.mark.parametrize(
    "text",
    [
        "negamax",
        "negamax:depth=5,seed=3",
        "minimax:weights=1/3/9/81,memo=false",
        "random:seed=none",
        "mcts:time_budget=0.25,exploration=1.5",
        "mcts:time_budget=1",
        "solver:time_budget=1e-05,use_book=true",
        "kaggle:random",
        "path/to/agent.py",
    ],
)
def test_the_text_round_trips(text: str) -> None:
    spec = AgentSpec.parse(text)
    assert spec.text == text and str(spec) == text
    assert AgentSpec.parse(spec.text) == spec
    assert eval(repr(spec)) == spec  # a repr that pastes back into a test
    assert pickle.loads(pickle.dumps(spec)) == spec  # specs travel to worker processes


def test_the_text_is_canonical() -> None:
    assert AgentSpec.parse(" negamax : depth = 5 , seed=3 ").text == "negamax:depth=5,seed=3"
    assert AgentSpec.parse("minimax:memo=False,seed=None").text == "minimax:memo=false,seed=none"
    assert AgentSpec.parse("mcts:time_budget=2.0").text == "mcts:time_budget=2"
    assert AgentSpec.parse("negamax:").text == "negamax"
    assert AgentSpec.parse("kaggle: random").text == "kaggle:random"


def test_seed_budget_and_cap_use_the_parameters_each_entry_declares() -> None:
    assert AgentSpec.parse("negamax:depth=2").with_seed(42).text == "negamax:depth=2,seed=42"
    assert AgentSpec.parse("negamax:seed=1,depth=2").with_seed(42).text == "negamax:seed=42,depth=2"
    assert AgentSpec.parse("negamax:seed=1").with_seed(42, override=False).text == "negamax:seed=1"
    assert AgentSpec.parse("negamax:seed=none").with_seed(42, override=False).seed is None
    assert AgentSpec.parse("negamax").with_seed(42, override=False).seed == 42
    assert AgentSpec.parse("mcts").with_time_budget(0.2).with_cap(300).text == "mcts:time_budget=0.2,simulations=300"
    assert AgentSpec.parse("solver").with_time_budget(1).with_cap(3000).text == "solver:time_budget=1,max_nodes=3000"
    assert REGISTRY["solver"].cap == "max_nodes" and REGISTRY["mcts"].cap == "simulations"


@pytest.mark.parametrize("text", ["kaggle:random", "agent.py", "negamax", "random"])
def test_a_role_an_agent_lacks_is_a_no_op(text: str) -> None:
    spec = AgentSpec.parse(text)
    assert spec.with_time_budget(0.5) == spec and spec.with_cap(100) == spec
    assert not spec.takes_time_budget and not spec.takes_cap
    if spec.kind is not AgentKind.REGISTRY:
        assert spec.with_seed(3) == spec and not spec.takes_seed and spec.seed is None


def test_every_entry_declares_roles_its_factory_takes() -> None:
    for entry in REGISTRY.values():
        accepted = entry.parameters()
        for role in (entry.seed, entry.time_budget, entry.cap):
            assert role is None or role in accepted, (entry.name, role)
        assert all(kind in (int, float, bool, str) for kind in accepted.values()), entry.name
    with pytest.raises(TypeError, match="no parameter 'budget'"):
        AgentEntry("x", make_random, "x", time_budget="budget")


def test_set_parameters_are_checked_like_parsed_ones() -> None:
    assert AgentSpec.registered("negamax", depth=3).text == "negamax:depth=3"
    with pytest.raises(AgentSpecError, match="does not take 'deep'"):
        AgentSpec.registered("negamax", deep=3)
    with pytest.raises(AgentSpecError, match="is not a whole number"):
        AgentSpec.parse("negamax").with_parameters(depth="3")
    with pytest.raises(AgentSpecError, match="is not a whole number"):
        AgentSpec.parse("negamax").with_parameters(seed=True)
    with pytest.raises(AgentSpecError, match="takes no parameters"):
        AgentSpec.parse("kaggle:random").with_parameters(seed=1)


def test_built_agents_are_fresh_and_carry_their_spec_as_name() -> None:
    spec = AgentSpec.parse("negamax:depth=2")
    first, second = spec.build(), spec.build()
    assert first is not second and first.name == "negamax:depth=2"
    assert AgentSpec.parse("negamax:depth=2").build().name == "negamax:depth=2"
    with pytest.raises(AgentSpecError, match="kaggle-environments builds it"):
        AgentSpec.parse("kaggle:negamax").build()


@pytest.mark.parametrize(
    "spec,message",
    [
        ("nope", "registered agents: random, negamax"),
        ("", "empty agent spec"),
        ("kaggle:alphazero", "kaggle's agents: kaggle:random, kaggle:negamax"),
        ("negamax:deep=5", "parameters: depth=<int>, seed=<int>"),
        ("negamax:depth", "does not take"),
        ("negamax:depth=five", "is not a whole number"),
    ],
)
def test_bad_specs_explain_what_is_valid(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        AgentSpec.parse(spec)


@pytest.mark.parametrize(
    "spec,message",
    [
        ("negamax:depth=0", "expected 1 or more"),
        ("minimax:weights=1/3", "expected 4 positive integers separated by '/'"),
        ("minimax:weights=1/3/x/81", "expected positive integers separated by '/'"),
        ("minimax:weights=1/0/9/81", "expected positive integers separated by '/'"),
        ("mcts:time_budget=0", "time_budget"),
    ],
)
def test_values_are_checked_when_the_agent_is_built_against_the_board(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message) as error:
        AgentSpec.parse(spec).check(KAGGLE_BOARD)
    assert "\n" not in str(error.value)


def test_weights_fit_one_board_and_not_another() -> None:
    spec = AgentSpec.parse("minimax:weights=1/3/81")
    spec.check(geometry(4, 5, 3))
    spec.build()  # no board: the count cannot be checked yet
    with pytest.raises(AgentSpecError, match="expected 4 positive"):
        spec.check(KAGGLE_BOARD)


def test_agent_files_are_checked_readable_utf8_python(tmp_path: Path) -> None:
    good, latin, broken = tmp_path / "good.py", tmp_path / "latin.py", tmp_path / "broken.py"
    good.write_text("def agent(obs, config):\n    return 0\n")
    latin.write_bytes(b"# caf\xe9\ndef agent(obs, config):\n    return 0\n")
    broken.write_text("def agent(obs, config)\n    return 0\n")
    AgentSpec.parse(str(good)).check(KAGGLE_BOARD)
    for path, message in (
        (tmp_path / "gone.py", "does not exist"),
        (latin, "not UTF-8"),
        (broken, "not valid Python \\(line 1"),
    ):
        with pytest.raises(AgentSpecError, match=message):
            AgentSpec.parse(str(path)).check(KAGGLE_BOARD)
