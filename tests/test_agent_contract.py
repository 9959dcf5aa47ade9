"""The contract every registered agent keeps, checked over the whole registry.

A new agent joins the registry and is held to this test without writing a line of it. The
contract (``contract_violations``): through Kaggle's call, every answer is a legal ``int``, no
move is slower than ``actTimeout``, and the agent's guard recorded no fault (an exception, an
illegal answer replaced by a fallback, an unreadable observation, a late answer), since a guard
that absorbs a fault would otherwise let a broken agent pass.

Agents that take a ``time_budget`` get 0.2 s and Kaggle's ``actTimeout`` of 2 s, 1.8 s to spare,
so a late move is a real fault, not a busy machine. The others (negamax, minimax) search to
Kaggle's deadline, actTimeout less the guard's 0.3 s margin, so they are asked with an actTimeout
of 1 s (to keep the suite quick): the 0.3 s margin is their slack, as on Kaggle, where a late
move loses the game. Agents with a node or simulation cap get a small one for the determinism
check, since a clock is never reproducible.

The papers' agents as written are registry parameters (``FAITHFUL``), held to the same contract:
Sheoran's unoptimised and optimised minimax and plain UCB1 MCTS (on the wall and on the CPU clock),
Kang's H1 (all features and a combination) and H2. They are not asked to take a win or block a
loss: the papers' depth 1 minimax does not block, and plain MCTS finds tactics only by sampling.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import Any

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.kaggle_boundary import GuardedAgent, board_of, mark_of
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline
from connectx.agents.core.strategy import MoveStats
from connectx.agents.registry import REGISTRY
from connectx.evaluation.engine import BoardConfig, Outcome, make_environment, resolve_agent


def built(text: str) -> GuardedAgent:
    """A fresh agent from its spec's text, as the harness builds one."""
    return AgentSpec.parse(text).build()


AGENTS = sorted(REGISTRY)
SEARCHERS = [name for name in AGENTS if name != "random"]
FAITHFUL = [
    "minimax:rules=paper,memo=false,depth=3",
    "minimax:rules=paper",
    "minimax:rules=paper,evaluation=h1,depth=4",
    "minimax:rules=paper,evaluation=h1,features=34,depth=4",
    "minimax:rules=paper,evaluation=h2,depth=4",
    "mcts:proofs=false,reuse=false",
    "mcts:proofs=false,reuse=false,clock=cpu",
]
"""The papers' agents as written (see ``make_strategy`` in ``connectx.agents.players.minimax`` and
``connectx.agents.players.mcts``)."""
OPTIONS = ["solver:trap=true", "fallible:margin=1", "fallible:ties=random"]
"""Options that change how an agent chooses: the second seat's trap, thin-margin slips, random ties."""
VARIANTS = AGENTS + FAITHFUL + OPTIONS
GEOMETRIES = [
    (6, 7, 4),
    (4, 4, 3),
    (4, 5, 3),
    (7, 9, 5),
    (6, 1, 4),
    (1, 6, 4),
    (3, 3, 4),
    (5, 5, 6),
    (6, 25, 4),
    (12, 12, 5),
    (40, 40, 40),
]
"""``(rows, columns, inarow)``: Kaggle's board, small and odd ones, one-row and one-column ones, boards
where no line fits, and wide and large ones (where a fixed-depth search or an unbounded recursion fails)."""
WIDE_AND_LARGE = [(6, 25, 4), (12, 12, 5), (40, 40, 40)]
CAPS = {"simulations": 300, "max_nodes": 3000}
ACT_TIMEOUT = 2.0
ACT_TIMEOUT_ON_KAGGLES_CLOCK = 1.0
"""For agents without a time_budget: the search gets 0.7 s, the guard's 0.3 s margin is the slack."""


def registered(variant: str) -> str:
    """The registry name of a variant (``mcts`` for ``mcts:proofs=false``)."""
    return variant.partition(":")[0]


def act_timeout_for(variant: str) -> float:
    return ACT_TIMEOUT if "time_budget" in REGISTRY[registered(variant)].parameters() else ACT_TIMEOUT_ON_KAGGLES_CLOCK


def spec(variant: str, seed: int = 1, capped: bool = False) -> str:
    """``variant`` (a registry name, or a name with parameters) with a seed, the contract's time
    budget where the agent takes one, and with ``capped`` its node or simulation cap."""
    name, _, given = variant.partition(":")
    params = REGISTRY[name].parameters()
    parts = [given] if given else []
    parts.append(f"seed={seed}")
    if "time_budget" in params:
        parts.append("time_budget=0.2")
    if capped:
        parts += [f"{key}={value}" for key, value in CAPS.items() if key in params]
    return f"{name}:{','.join(parts)}"


def at_defaults(variant: str) -> str:
    """``variant`` as it plays by default: no time budget, except where its clock needs one (the CPU clock)."""
    return f"{variant},time_budget=0.1" if "clock=cpu" in variant else variant


def ask(agent: Any, position: Position, act_timeout: float = ACT_TIMEOUT, overage: float = 60.0) -> Any:
    """The agent's answer, asked exactly as Kaggle asks it."""
    shape = position.geometry
    observation = {"board": board_of(position), "mark": mark_of(position), "remainingOverageTime": overage}
    config = {"rows": shape.rows, "columns": shape.columns, "inarow": shape.inarow, "actTimeout": act_timeout}
    return agent(observation, config)


def contract_violations(
    agent: GuardedAgent, positions: list[Position], act_timeout: float = ACT_TIMEOUT, overage: float = 60.0
) -> list[str]:
    """What ``agent`` did wrong answering ``positions``: answers that are not a legal ``int``, moves
    slower than ``act_timeout`` (timed here, around Kaggle's call), and every fault its guard recorded."""
    violations = []
    for position in positions:
        started = time.perf_counter()
        column = ask(agent, position, act_timeout, overage)
        elapsed = time.perf_counter() - started
        if type(column) is not int or column not in position.legal_columns():
            violations.append(f"answered {column!r} in {position!r}")
        if elapsed > act_timeout:
            violations.append(f"took {elapsed:.3f} s, past actTimeout {act_timeout} s, in {position!r}")
    return violations + [f"{fault.kind.value} fault: {fault.detail}" for fault in agent.faults]


def random_positions(rows: int, columns: int, inarow: int, count: int, seed: int) -> Iterator[Position]:
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


def half_full(rows: int, columns: int, inarow: int, seed: int) -> Position | None:
    """Half the cells filled by random moves that neither win nor leave the opponent a win at once
    (a position where a search has work to do), or None if random tries find none."""
    rng = random.Random(seed)
    for _ in range(20):
        position = Position.initial(rows, columns, inarow)
        while position.moves < position.geometry.cells // 2:
            candidates = position.legal_columns()
            rng.shuffle(candidates)
            quiet = next(
                (c for c in candidates if not position.is_winning_move(c) and not position.play(c).winning_columns()),
                None,
            )
            if quiet is None:
                break
            position = position.play(quiet)
        else:
            return position
    return None


def contract_positions(rows: int, columns: int, inarow: int) -> list[Position]:
    """The empty board, a half-full one and two random positions of one geometry."""
    seed = rows * columns + inarow
    half = half_full(rows, columns, inarow, seed)
    return (
        [Position.initial(rows, columns, inarow)]
        + ([half] if half is not None else [])
        + list(random_positions(rows, columns, inarow, 2, seed))
    )


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("rows,columns,inarow", GEOMETRIES)
def test_keeps_the_contract_on_every_geometry(name: str, rows: int, columns: int, inarow: int) -> None:
    agent = built(spec(name))
    assert contract_violations(agent, contract_positions(rows, columns, inarow), act_timeout_for(name)) == []


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("rows,columns,inarow", WIDE_AND_LARGE)
def test_keeps_kaggles_clock_at_its_defaults_on_wide_and_large_boards(
    name: str, rows: int, columns: int, inarow: int
) -> None:
    """The registry defaults (no time_budget) with a short actTimeout of 0.5 s: the search gets 0.2 s and
    the guard's margin of 0.3 s is all the slack, as on Kaggle. The bank is empty, so no move may draw."""
    agent = built(at_defaults(name))
    positions = [Position.initial(rows, columns, inarow), half_full(rows, columns, inarow, seed=rows + columns)]
    assert contract_violations(agent, [p for p in positions if p is not None], act_timeout=0.5, overage=0.0) == []


def nearly_full_boards(count: int, seed: int, empty: int = 3) -> Iterator[Position]:
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


@pytest.mark.parametrize("name", VARIANTS)
def test_keeps_the_contract_on_nearly_full_boards(name: str) -> None:
    agent = built(spec(name))
    assert contract_violations(agent, list(nearly_full_boards(4, seed=5)), act_timeout_for(name)) == []


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize("moves,rows,columns,inarow", [("445566", 6, 7, 4), ("1213", 4, 4, 3), ("121213", 5, 6, 4)])
def test_takes_an_immediate_win(name: str, moves: str, rows: int, columns: int, inarow: int) -> None:
    position = Position.from_moves(moves, rows, columns, inarow)
    assert position.winning_columns(), "the test position must offer a win"
    agent = built(spec(name))
    assert ask(agent, position) in position.winning_columns() and agent.faults == []


@pytest.mark.parametrize("name", SEARCHERS)
@pytest.mark.parametrize(
    "moves,rows,columns,inarow",
    [
        ("17171", 6, 7, 4),
        ("11213", 6, 7, 4),
        ("112", 4, 5, 3),
        ("11213", 5, 6, 4),
    ],
)
def test_blocks_an_immediate_loss(name: str, moves: str, rows: int, columns: int, inarow: int) -> None:
    position = Position.from_moves(moves, rows, columns, inarow)
    forced = position.non_losing_columns()
    assert not position.winning_columns() and len(forced) == 1, "the test position must force one block"
    agent = built(spec(name))
    assert ask(agent, position) == forced[0] and agent.faults == []


@pytest.mark.parametrize("name", VARIANTS)
def test_reports_each_moves_search_statistics_in_a_fresh_dict(name: str) -> None:
    agent = built(spec(name, capped=True))
    seen = []
    for position in random_positions(6, 7, 4, 3, seed=13):
        ask(agent, position)
        stats = agent.last_stats
        assert all(type(stats[key]) is int and stats[key] >= 0 for key in ("nodes", "depth", "evaluations")), stats
        assert all(stats is not earlier for earlier in seen)
        seen.append(stats)
    if name not in ("random",):
        assert any(stats["nodes"] > 0 for stats in seen)


@pytest.mark.parametrize("name", VARIANTS)
def test_is_deterministic_under_a_seed(name: str) -> None:
    first, second = built(spec(name, capped=True)), built(spec(name, capped=True))
    positions = list(random_positions(6, 7, 4, 5, seed=11))
    assert [ask(first, p) for p in positions] == [ask(second, p) for p in positions]
    assert first.faults == second.faults == []


@pytest.mark.games
@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize(
    "opponent,config,first",
    [
        ("kaggle:random", BoardConfig(), True),
        ("kaggle:negamax", BoardConfig(rows=4, columns=5, inarow=3), False),
    ],
)
def test_plays_full_games_in_kaggle_environments(name: str, opponent: str, config: BoardConfig, first: bool) -> None:
    agent = built(spec(name))
    builtin = resolve_agent(AgentSpec.parse(opponent), config)
    players = [agent, builtin] if first else [builtin, agent]
    names = [spec(name), opponent] if first else [opponent, spec(name)]
    env = make_environment(config, names)
    random.seed(3)  # kaggle's built-in agents draw from the global generator
    env.run(players)
    assert Outcome.of(env).statuses == ("DONE", "DONE")
    assert agent.faults == []


class Scripted:
    """A strategy with a fault: it raises, answers an illegal column, or sleeps before a legal one."""

    time_budget: float | None = None
    last_stats: MoveStats = {}

    def __init__(self, fault: str) -> None:
        self.fault = fault

    def choose(self, position: Position, deadline: Deadline) -> int:
        if self.fault == "raises":
            raise RuntimeError("a bug on every move")
        if self.fault == "sleeps":
            time.sleep(0.1)
        return position.geometry.columns if self.fault == "illegal" else position.legal_columns()[0]

    def reset(self) -> None:
        pass


@pytest.mark.parametrize("fault", ["raises", "illegal"])
def test_a_strategy_whose_faults_the_guard_hides_breaks_the_contract(fault: str) -> None:
    """The guard answers legally for it every time, so only the faults it recorded reveal the bug."""
    positions = contract_positions(6, 7, 4)
    violations = contract_violations(GuardedAgent(fault, Scripted(fault)), positions)
    kind = "raised" if fault == "raises" else "illegal"
    assert len(violations) == len(positions) and all(v.startswith(f"{kind} fault") for v in violations), violations


def test_a_slow_strategy_breaks_the_contract() -> None:
    violations = contract_violations(GuardedAgent("slow", Scripted("sleeps")), [Position.initial()], act_timeout=0.05)
    assert len(violations) == 2, violations
    assert violations[0].startswith("took") and violations[1].startswith("late fault"), violations


def test_a_fault_free_strategy_keeps_the_contract() -> None:
    assert contract_violations(GuardedAgent("fine", Scripted("none")), contract_positions(6, 7, 4)) == []
