"""mcts: solver proofs, the final-choice rule on fabricated trees, the clock, seeds and tree reuse.

The clock is checked in CPU seconds against a limit far from the one that must stop the search (a
loaded machine stretches wall time, never CPU time); wall time appears only as a lower bound.
"""

from __future__ import annotations

import random
import time

import pytest

from connectx.agents.core.kaggle_boundary import board_of, mark_of
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline
from connectx.agents.players import mcts
from connectx.agents.players.mcts import DRAW, LOSS, WIN, MctsStrategy, Node, TreeSearch, choose_child, rollout, ucb
from connectx.agents.registry import REGISTRY


def forced_wins_in_two(position: Position) -> set[int]:
    """Columns after which every reply leaves the mover an immediate win, found by brute force."""
    found = set()
    for column, child in position.children():
        if child.is_won():
            continue
        if all(not reply.is_won() and reply.winning_columns() for _, reply in child.children()):
            found.add(column)
    return found


def test_finds_a_forced_win_in_two() -> None:
    # X c1 d1, O c2 d2, X to move: b1 or e1 makes a three that cannot be blocked at both ends.
    position = Position.from_moves("3344")
    assert not position.winning_columns()
    expected = forced_wins_in_two(position)
    assert expected == {1, 4}
    strategy = MctsStrategy(simulations=3000, seed=1)
    column = strategy.choose(position, Deadline.after(60))
    assert column in expected
    assert strategy.tree is not None and strategy.tree.root.proven == WIN


def test_proves_the_root_and_stops_early_when_the_game_is_decided() -> None:
    strategy = MctsStrategy(simulations=100_000, seed=1)
    tree = strategy.search(Position.from_moves("3344"), Deadline.after(60))
    assert tree.root.proven == LOSS  # the player who moved into the root (O) has lost
    assert tree.simulations < 100_000


def test_takes_an_immediate_win_and_blocks_one() -> None:
    assert MctsStrategy(simulations=50, seed=1).choose(Position.from_moves("445566"), Deadline.after(60)) in (2, 6)
    assert MctsStrategy(simulations=50, seed=1).choose(Position.from_moves("43546"), Deadline.after(60)) == 6


def timed_choice(strategy: MctsStrategy, position: Position, deadline: Deadline) -> tuple[int, float, float]:
    """The strategy's column, and the wall and CPU seconds since the deadline started."""
    cpu = time.process_time()
    column = strategy.choose(position, deadline)
    return column, time.perf_counter() - deadline.started_at, time.process_time() - cpu


def test_respects_a_short_time_budget() -> None:
    """The guard caps the move (a minute of actTimeout) at the agent's budget."""
    agent = REGISTRY["mcts"].build({"time_budget": 0.2, "seed": 1})
    for moves in ("", "4453", "71"):
        position = Position.from_moves(moves)
        wall, cpu = time.perf_counter(), time.process_time()
        agent(
            {"board": board_of(position), "mark": mark_of(position)},
            {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 60.3},
        )
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        assert wall >= 0.2 and cpu < 0.2 + 0.3, (moves, wall, cpu)  # one simulation is ~0.1 ms; a minute was allowed


def test_the_hard_deadline_wins_over_a_larger_budget() -> None:
    _, wall, cpu = timed_choice(MctsStrategy(time_budget=60.0, seed=1), Position.initial(), Deadline.after(0.1))
    assert wall >= 0.1 and cpu < 0.1 + 0.3


@pytest.mark.parametrize("rows,columns,inarow", [(6, 25, 4), (40, 40, 40)])
def test_keeps_to_the_deadline_on_wide_and_large_boards(rows: int, columns: int, inarow: int) -> None:
    """A rollout on 40x40 fills up to 1600 cells (about 15 ms); the clock is read between simulations.
    (The contract test asks every agent on these boards half full as well.)"""
    position = Position.initial(rows, columns, inarow)
    column, wall, cpu = timed_choice(MctsStrategy(seed=1), position, Deadline.after(0.2))
    assert column in position.legal_columns()
    assert wall >= 0.2 and cpu < 0.2 + 0.3


def play_game(strategy: MctsStrategy, replies: list[int]) -> list[int]:
    position, chosen = Position.initial(), []
    for reply in replies:
        column = strategy.choose(position, Deadline.after(60))
        chosen.append(column)
        position = position.play(column)
        if position.is_over() or not position.can_play(reply):
            break
        position = position.play(reply)
    return chosen


def test_a_seed_and_a_simulation_cap_fix_every_choice() -> None:
    replies = [3, 2, 4, 3, 1, 5]
    first = play_game(MctsStrategy(simulations=400, seed=5), replies)
    again = play_game(MctsStrategy(simulations=400, seed=5), replies)
    assert first == again
    tree_a = MctsStrategy(simulations=400, seed=5).search(Position.initial(), Deadline.after(60))
    tree_b = MctsStrategy(simulations=400, seed=5).search(Position.initial(), Deadline.after(60))
    assert [(c.column, c.visits, c.total) for c in tree_a.root.children] == [
        (c.column, c.visits, c.total) for c in tree_b.root.children
    ]


def fabricated(*children: tuple[int, int, float, float | None]) -> Node:
    """A root whose children have the given (column, visits, total, proven)."""
    root = Node(Position.initial(), untried=[])
    for column, visits, total, proven in children:
        child = Node(Position.initial().play(column), column, untried=[])
        child.visits, child.total, child.proven = visits, total, proven
        root.children.append(child)
    root.visits = sum(child.visits for child in root.children)
    return root


def test_the_final_choice_rule_on_fabricated_trees() -> None:
    assert choose_child(fabricated((3, 50, 40.0, None), (2, 80, 30.0, None))).column == 2  # most visited
    assert choose_child(fabricated((3, 80, 40.0, None), (2, 80, 60.0, None))).column == 2  # then higher mean
    assert choose_child(fabricated((3, 80, 40.0, None), (2, 80, 40.0, None))).column == 3  # then the first made
    assert choose_child(fabricated((3, 500, 400.0, None), (2, 3, 3.0, WIN))).column == 2  # a proven win first
    assert choose_child(fabricated((3, 500, 400.0, LOSS), (2, 20, 5.0, None))).column == 2  # never a proven loss
    assert choose_child(fabricated((3, 10, 0.0, LOSS), (2, 30, 0.0, LOSS))).column == 2  # all lose: most visited


def test_ucb_is_mean_plus_exploration_term() -> None:
    child = fabricated((3, 10, 7.0, None)).children[0]
    assert ucb(child, 100, 2.0) == pytest.approx(0.7 + 2.0 * (4.605170185988092 / 10) ** 0.5)


def test_proofs_propagate_up_the_tree() -> None:
    # O to move after X's open three on row 1: every O reply leaves X a win, so the root is lost for O
    # (proven as a loss for the player who moved into the children) and X's reply tree is settled.
    position = Position.from_moves("44556")
    tree = TreeSearch(position, 2.0, random.Random(1))
    while tree.root.proven is None:
        tree.simulate()
    assert tree.root.proven == WIN  # the player who moved into the root, X, has won
    assert all(child.proven == LOSS for child in tree.root.children)
    assert tree.simulations < 200


def test_rollouts_report_the_result_for_the_player_who_moved_in() -> None:
    rng = random.Random(1)
    assert rollout(Position.initial(3, 1, 1), rng) == LOSS  # the next stone completes a line of one
    assert rollout(Position.initial(3, 1, 2), rng) == DRAW  # one column, alternating colours: no pair
    assert rollout(Position.initial(3, 1, 1).play(0), rng) == LOSS


def test_the_tree_is_reused_when_the_game_continues() -> None:
    strategy = MctsStrategy(simulations=300, seed=2)
    position = Position.initial()
    column = strategy.choose(position, Deadline.after(60))
    assert strategy.tree is not None
    kept = strategy.tree.root.children[0]
    next_position = position.play(column).play(kept.column)
    tree = strategy.search(next_position, Deadline.after(60))
    assert tree.root is kept and tree.root.visits > 300
    fresh = MctsStrategy(simulations=300, seed=2, reuse=False)
    fresh.choose(position, Deadline.after(60))
    assert fresh.search(next_position, Deadline.after(60)).root.visits == 300


def test_a_new_game_starts_a_new_tree() -> None:
    strategy = MctsStrategy(simulations=100, seed=2)
    strategy.choose(Position.from_moves("44"), Deadline.after(60))
    tree = strategy.search(Position.from_moves("1"), Deadline.after(60))
    assert tree.root.position == Position.from_moves("1") and tree.root.visits == 100


def proven_nodes(node: Node) -> int:
    return (node.proven is not None) + sum(proven_nodes(child) for child in node.children)


def test_without_proofs_nothing_is_proven_and_the_forced_win_is_found_less_often() -> None:
    """The paper's plain UCB1 (``proofs=false``) only averages rollouts: in 3344 (b1 or e1 wins by force)
    the solver proves the win within 100 simulations for every seed, while plain UCB1, which must see
    the win through random rollouts, finds it for only some seeds."""
    position = Position.from_moves("3344")
    plain = [MctsStrategy(simulations=100, seed=seed, proofs=False, reuse=False) for seed in range(20)]
    solver = [MctsStrategy(simulations=100, seed=seed) for seed in range(20)]
    plain_found = sum(s.choose(position, Deadline.after(60)) in (1, 4) for s in plain)
    solver_found = sum(s.choose(position, Deadline.after(60)) in (1, 4) for s in solver)
    assert solver_found == 20 and plain_found < 18, (solver_found, plain_found)
    tree = MctsStrategy(simulations=2000, seed=1, proofs=False).search(position, Deadline.after(60))
    assert proven_nodes(tree.root) == 0 and tree.simulations == 2000  # no proof ends the search early


def test_without_proofs_a_finished_game_backs_up_its_result() -> None:
    """A leaf where the game is over is scored as it stands: x to play g1 wins, so that child's mean is 1."""
    tree = TreeSearch(Position.from_moves("445566"), 2.0, random.Random(1), proofs=False)
    for _ in range(200):
        tree.simulate()
    winning = [child for child in tree.root.children if child.position.is_won()]
    assert winning and all(child.mean() == WIN and not child.children for child in winning)


def test_the_cpu_clock_counts_the_processs_cpu_seconds_not_the_wall(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``clock=cpu`` the budget is read on ``time.process_time``, and the guard leaves the wall
    deadline at Kaggle's. A fake CPU clock that advances 1 ms per reading ends a 0.05 s budget at its
    50th reading (one starts the move, one precedes each simulation): 49 simulations, whatever the wall."""
    strategy = REGISTRY["mcts"].build({"time_budget": 0.05, "clock": "cpu", "seed": 1}).strategy
    assert strategy.time_budget is None and strategy.cpu_budget == 0.05
    ticks = iter(range(10**6))
    monkeypatch.setattr(mcts.time, "process_time", lambda: next(ticks) / 1000)
    strategy.choose(Position.initial(), Deadline.after(60))
    assert strategy.last_stats["nodes"] == strategy.last_stats["simulations"] == 49


def test_the_cpu_clock_spends_its_budget_in_cpu_seconds() -> None:
    agent = REGISTRY["mcts"].build({"time_budget": 0.2, "clock": "cpu", "seed": 1})
    position = Position.from_moves("4453")
    cpu = time.process_time()
    agent(
        {"board": board_of(position), "mark": mark_of(position)},
        {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 60.3},
    )
    cpu = time.process_time() - cpu
    assert 0.2 <= cpu < 0.2 + 0.3 and agent.faults == []


def test_rejects_meaningless_settings() -> None:
    with pytest.raises(ValueError, match="time_budget"):
        MctsStrategy(time_budget=0)
    with pytest.raises(ValueError, match="simulations"):
        MctsStrategy(simulations=0)
    with pytest.raises(ValueError, match="clock=moon"):
        MctsStrategy(time_budget=1, clock="moon")
    with pytest.raises(ValueError, match="clock=cpu needs a time_budget"):
        MctsStrategy(clock="cpu")
