"""The contract every registered agent keeps, checked over the whole registry.

A new agent joins the registry and is held to this test without writing a line of it. Agents
that search on a clock get ``time_budget=0.2``; agents with a node or simulation cap get a small
one for the determinism check, since a clock is never reproducible.
"""

from __future__ import annotations

import random

import pytest

from agents.position import Position
from agents.registry import REGISTRY, create_agent
from harness.engine import BoardConfig, Outcome, run_game

AGENTS = sorted(REGISTRY)
SEARCHERS = [name for name in AGENTS if name != "random"]
GEOMETRIES = [(6, 7, 4), (4, 4, 3), (4, 5, 3), (7, 9, 5), (6, 1, 4), (1, 6, 4), (3, 3, 4), (5, 5, 6)]
CAPS = {"simulations": 300, "max_nodes": 3000}


def spec(name: str, seed: int = 1, capped: bool = False) -> str:
    params = REGISTRY[name].parameters()
    parts = [f"seed={seed}"]
    if "time_budget" in params:
        parts.append("time_budget=0.2")
    if capped:
        parts += [f"{key}={value}" for key, value in CAPS.items() if key in params]
    return f"{name}:{','.join(parts)}"


def ask(agent, position: Position, act_timeout: float = 2.0) -> int:
    shape = position.geometry
    observation = {"board": position.to_board(), "mark": position.mark, "remainingOverageTime": 60}
    config = {"rows": shape.rows, "columns": shape.columns, "inarow": shape.inarow, "actTimeout": act_timeout}
    return agent(observation, config)


def random_positions(rows: int, columns: int, inarow: int, count: int, seed: int):
    """Positions of random games, cut at random plies, with the game still on."""
    rng = random.Random(seed)
    found = 0
    while found < count:
        position = Position.initial(rows, columns, inarow)
        stop = rng.randint(0, position.geometry.cells - 1)
        while position.moves < stop and not position.is_over():
            position = position.play(rng.choice(position.legal_columns()))
        if not position.is_over():
            found += 1
            yield position


@pytest.mark.parametrize("name", AGENTS)
@pytest.mark.parametrize("rows,columns,inarow", GEOMETRIES)
def test_answers_a_legal_int_on_random_positions(name: str, rows: int, columns: int, inarow: int) -> None:
    agent = create_agent(spec(name))
    for position in random_positions(rows, columns, inarow, 3, seed=rows * columns + inarow):
        column = ask(agent, position)
        assert type(column) is int and column in position.legal_columns(), repr(position)


def nearly_full_boards(count: int, seed: int, empty: int = 3):
    """7x6 positions with ``empty`` cells left, reached by random moves that never complete a line."""
    rng = random.Random(seed)
    while count:
        position = Position.initial()
        while position.geometry.cells - position.moves > empty:
            quiet = [c for c in position.legal_columns() if not position.is_winning_move(c)]
            if not quiet:
                break
            position = position.play(rng.choice(quiet))
        else:
            count -= 1
            yield position


@pytest.mark.parametrize("name", AGENTS)
def test_answers_a_legal_int_on_nearly_full_boards(name: str) -> None:
    agent = create_agent(spec(name))
    for position in nearly_full_boards(4, seed=5):
        assert ask(agent, position) in position.legal_columns(), repr(position)


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("moves,rows,columns,inarow", [("445566", 6, 7, 4), ("1213", 4, 4, 3), ("121213", 5, 6, 4)])
def test_takes_an_immediate_win(name: str, moves: str, rows: int, columns: int, inarow: int) -> None:
    position = Position.from_moves(moves, rows, columns, inarow)
    assert position.winning_columns(), "the test position must offer a win"
    assert ask(create_agent(spec(name)), position) in position.winning_columns()


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("moves,rows,columns,inarow", [
    ("17171", 6, 7, 4), ("11213", 6, 7, 4), ("112", 4, 5, 3), ("11213", 5, 6, 4),
])
def test_blocks_an_immediate_loss(name: str, moves: str, rows: int, columns: int, inarow: int) -> None:
    position = Position.from_moves(moves, rows, columns, inarow)
    forced = position.non_losing_columns()
    assert not position.winning_columns() and len(forced) == 1, "the test position must force one block"
    assert ask(create_agent(spec(name)), position) == forced[0]


@pytest.mark.parametrize("name", AGENTS)
def test_is_deterministic_under_a_seed(name: str) -> None:
    first, second = create_agent(spec(name, capped=True)), create_agent(spec(name, capped=True))
    positions = list(random_positions(6, 7, 4, 5, seed=11))
    assert [ask(first, p) for p in positions] == [ask(second, p) for p in positions]


@pytest.mark.parametrize("name", AGENTS)
@pytest.mark.parametrize("opponent,config,first", [
    ("kaggle:random", BoardConfig(), True),
    ("kaggle:negamax", BoardConfig(rows=4, columns=5, inarow=3), False),
])
def test_plays_full_games_in_kaggle_environments(name: str, opponent: str, config: BoardConfig, first: bool) -> None:
    specs = [spec(name), opponent] if first else [opponent, spec(name)]
    env = run_game(specs, config, seed=3)
    assert Outcome.of(env).statuses == ("DONE", "DONE")
