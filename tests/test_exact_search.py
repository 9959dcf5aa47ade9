"""The exact and depth-limited searches: scores from the shared files, agreement with a plain search."""

from __future__ import annotations

import gc
import random
from functools import cache
from pathlib import Path

import pytest

from connectx.agents.core.position import Position
from connectx.agents.core.scores import finished_score
from connectx.agents.core.search_time import SearchLimit
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.search.anytime_search import iterative_deepening, proofs
from connectx.agents.search.exact_search import Solution, analyze, prove_at_least, search_depth, solve

POSITIONS = Path(__file__).resolve().parents[1] / "positions"


def shared_sample(name: str, count: int) -> list[tuple[str, int]]:
    lines = [line.split() for line in (POSITIONS / name).read_text().splitlines() if line.strip()]
    return [(lines[i * len(lines) // count][0], int(lines[i * len(lines) // count][1])) for i in range(count)]


def plain_scores(rows: int, columns: int, inarow: int):
    """A deliberately plain exact search: every move, no pruning, no ordering, memoised by position.

    It scores a position the way the shared files do, from the rules alone: a win with the stone
    played when ``moves`` stones are down is worth ``(cells + 1 - moves) // 2``.
    """
    cells = rows * columns

    @cache
    def score(position: Position) -> int:
        best = None
        for column in position.legal_columns():
            child = position.play(column)
            if child.is_won():
                value = (cells + 1 - position.moves) // 2
            elif child.is_full():
                value = 0
            else:
                value = -score(child)
            best = value if best is None else max(best, value)
        assert best is not None
        return best

    return score


def random_position(rng: random.Random, rows: int, columns: int, inarow: int, plies: int) -> Position | None:
    position = Position.initial(rows, columns, inarow)
    for _ in range(plies):
        if position.is_over():
            return None
        position = position.play(rng.choice(position.legal_columns()))
    return None if position.is_over() else position


@pytest.mark.parametrize("name,count", [("Test_L3_R1", 40), ("Test_L2_R1", 25), ("Test_L1_R1", 8)])
def test_solves_the_shared_positions_exactly(name: str, count: int) -> None:
    for moves, expected in shared_sample(name, count):
        solution = solve(Position.from_moves(moves))
        assert solution is not None and solution.score == expected, moves


@pytest.mark.parametrize(
    "rows,columns,inarow,plies", [(4, 4, 3, 3), (4, 5, 3, 6), (3, 5, 3, 3), (5, 4, 4, 8), (2, 6, 3, 2), (4, 4, 5, 6)]
)
def test_agrees_with_a_plain_search_on_small_boards(rows: int, columns: int, inarow: int, plies: int) -> None:
    plain = plain_scores(rows, columns, inarow)
    rng = random.Random(rows * 100 + columns * 10 + inarow)
    checked = 0
    table = TranspositionTable()  # shared on purpose: bounds from one position must hold for the next
    while checked < 12:
        position = random_position(rng, rows, columns, inarow, plies + rng.randint(0, 3))
        if position is None:
            continue
        checked += 1
        solution = solve(position, table)
        assert solution is not None and solution.score == plain(position), repr(position)
        scores = analyze(position, table)
        assert scores is not None
        for column, value in scores.items():
            child = position.play(column)
            expected = finished_score(child)
            expected = -expected if expected is not None else -plain(child)
            assert value == expected, (repr(position), column)
        assert scores[solution.column] == solution.score, "the chosen column must achieve the score"


@pytest.mark.parametrize("rows,columns,inarow,plies", [(4, 5, 3, 6), (5, 4, 4, 8), (6, 7, 4, 30)])
def test_proofs_agree_with_the_exact_score_and_their_moves_keep_the_outcome(
    rows: int, columns: int, inarow: int, plies: int
) -> None:
    rng = random.Random(plies)
    checked = 0
    while checked < 15:
        position = random_position(rng, rows, columns, inarow, plies + rng.randint(0, 3))
        if position is None:
            continue
        checked += 1
        solution = solve(position)
        assert solution is not None
        for target in (1, 0):
            proof = prove_at_least(position, target)
            assert proof is not None and proof.holds == (solution.score >= target), (repr(position), target)
            if proof.holds:
                assert proof.column is not None
                if not position.is_winning_move(proof.column):
                    child = solve(position.play(proof.column))
                    assert child is not None and -child.score >= target, (repr(position), target)


def test_proofs_yield_the_proven_outcome_before_the_exact_score() -> None:
    won, drawn = Position.from_moves("32164625"), Position.from_moves("2737772244262123677516643354")  # 11, 0
    won_steps = list(proofs(won, TranspositionTable()))
    assert [(step.score, step.proven, step.exact) for step in won_steps] == [(1.0, True, False), (11, True, True)]
    drawn_steps = list(proofs(drawn, TranspositionTable()))
    assert [(step.score, step.proven, step.exact) for step in drawn_steps] == [(0.0, True, False), (0, True, True)]


def test_finished_positions_score_from_the_rules() -> None:
    won = Position.from_moves("1212121")
    assert finished_score(won) == -((42 + 2 - 7) // 2)
    assert solve(won) == Solution(finished_score(won), None, 0)
    assert finished_score(Position.from_moves("12")) is None


def test_a_win_in_one_scores_fastest_and_an_open_three_loses_next_move() -> None:
    solution = solve(Position.from_moves("112233"))  # first player's 1-2-3 on the bottom row
    assert solution is not None and (solution.score, solution.column) == ((42 + 1 - 6) // 2, 3)
    facing = solve(Position.from_moves("27374"))  # 2-3-4 with both ends open, second player to move
    assert facing is not None and facing.score == -((42 + 1 - 6) // 2)
    assert facing.column in (0, 4), "it still blocks one of the two threats"


def test_an_aborted_search_returns_none_and_leaves_only_true_bounds() -> None:
    rng = random.Random(5)
    table = TranspositionTable()
    aborted = 0
    for _ in range(4):
        position = random_position(rng, 4, 5, 4, rng.randint(0, 2))
        if position is not None and solve(position, table, SearchLimit(max_nodes=2048)) is None:
            aborted += 1
    assert aborted and len(table) > 0
    by_key = {}
    for _ in range(3000):
        position = random_position(rng, 4, 5, 4, rng.randint(3, 10))
        if position is not None and not position.winning_columns():
            by_key[position.key()] = position
    checked = 0
    for key in table.entries:
        if key in by_key and checked < 40:
            lower, upper = table.bounds(key)
            solution = solve(by_key[key])  # a fresh table, checked against the plain search above
            assert solution is not None
            assert lower is None or solution.score >= lower
            assert upper is None or solution.score <= upper
            checked += 1
    assert checked >= 10


def test_a_past_deadline_stops_at_once_and_the_collector_is_restored() -> None:
    collections = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            collections.append(info)

    gc.callbacks.append(record)
    try:
        assert gc.isenabled()
        assert solve(Position.from_moves("44"), limit=SearchLimit(stop_at=0.0)) is None
        assert gc.isenabled()
        solution = solve(Position.from_moves("32164625"))
        assert solution is not None and solution.nodes > 5000
        assert not collections, "no collection may run while the search allocates"
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(record)


def test_a_tiny_table_is_emptied_but_scores_stay_exact() -> None:
    table = TranspositionTable(capacity=64)
    for moves, expected in shared_sample("Test_L1_R1", 3):
        solution = solve(Position.from_moves(moves), table)
        assert solution is not None and solution.score == expected
        assert len(table) <= 64 + 1024


def test_depth_limited_search_is_exact_once_it_sees_the_end() -> None:
    plain = plain_scores(4, 4, 3)
    rng = random.Random(8)
    for _ in range(8):
        position = random_position(rng, 4, 4, 3, 5)
        if position is None:
            continue
        remaining = position.geometry.cells - position.moves
        estimate = search_depth(position, remaining)
        assert estimate is not None and estimate.exact
        assert estimate.score == plain(position)
        shallow = search_depth(position, 1)
        assert shallow is not None
        if position.non_losing_columns() and remaining > 1:
            assert not shallow.exact


def test_horizon_values_stay_strictly_between_a_loss_and_a_win() -> None:
    rng = random.Random(2)
    for _ in range(30):
        position = random_position(rng, 6, 7, 4, rng.randint(0, 12))
        if position is None or position.winning_columns():
            continue
        estimate = search_depth(position, 2)
        assert estimate is not None
        assert estimate.score == int(estimate.score) or -1 < estimate.score < 1


def test_iterative_deepening_yields_deeper_results_then_the_exact_one() -> None:
    results = list(iterative_deepening(Position.from_moves("32164625")))
    depths = [r.depth for r in results]
    assert depths == sorted(depths) and depths[0] == 1
    assert results[-1].exact and results[-1].score == 11
    assert all(not r.exact for r in results[:-1])
    assert results[-2].proven and results[-2].score == 1, "the win is proven before its exact score"


def test_iterative_deepening_under_a_node_limit_is_reproducible() -> None:
    position = Position.from_moves("4")
    runs = [
        list(
            iterative_deepening(
                position, TranspositionTable(), SearchLimit(max_nodes=4000), SearchLimit(max_nodes=3000)
            )
        )
        for _ in range(2)
    ]
    assert runs[0] == runs[1]
    assert runs[0] and not runs[0][-1].exact


def test_a_proven_win_is_the_last_result_when_the_exact_score_is_out_of_reach() -> None:
    hard = Position.from_moves("444446666151422221")  # won, but only with the last stones (score 1)
    results = list(
        iterative_deepening(hard, TranspositionTable(), SearchLimit(max_nodes=300_000), SearchLimit(max_nodes=20_000))
    )
    assert results[-1].proven and not results[-1].exact and results[-1].score == 1
    child = solve(hard.play(results[-1].column))
    assert child is not None and child.score < 0, "the proven move keeps the win"
