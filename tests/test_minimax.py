"""minimax: alpha-beta against plain minimax, memoisation and pruning change nothing but the work, the depth rule."""

from __future__ import annotations

import random
from typing import Any

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.kaggle_boundary import GuardedAgent
from connectx.agents.core.position import Position, geometry
from connectx.agents.core.scores import beyond, win_score
from connectx.agents.core.search_time import Deadline
from connectx.agents.heuristics.paper_heuristics import h1, h2, window_score, window_weights
from connectx.agents.players.minimax import WIN_OFFSET, MinimaxSearch, MinimaxStrategy, adaptive_depth, check_board
from connectx.agents.registry import REGISTRY
from connectx.evaluation.engine import BoardConfig, Outcome, run_game


def built(text: str) -> GuardedAgent:
    """A fresh agent from its spec's text, as the harness builds one."""
    return AgentSpec.parse(text).build()


def make_agent(**params: Any) -> GuardedAgent:
    """The minimax agent as the registry builds it: its strategy inside Kaggle's guard."""
    return REGISTRY["minimax"].build(params)


def static(position: Position, evaluation: str) -> int:
    shape, mine, theirs = position.geometry, position.current, position.current ^ position.mask
    if evaluation == "h1":
        return h1(shape, mine, theirs)
    if evaluation == "h2":
        return h2(shape, mine, theirs)
    return window_score(shape, mine, theirs, window_weights(shape.inarow))


def plain_minimax(position: Position, depth: int, evaluation: str) -> int:
    """Textbook negamax over every move, no pruning, no tables, with the agent's terminal rules."""
    if position.is_won():
        return beyond(-win_score(position.geometry, position.moves - 1), WIN_OFFSET)
    if position.winning_columns():
        return beyond(win_score(position.geometry, position.moves), WIN_OFFSET)
    if position.is_full():
        return 0
    if depth == 0:
        return static(position, evaluation)
    return max(-plain_minimax(child, depth - 1, evaluation) for _, child in position.children())


def paper_minimax(position: Position, depth: int, evaluation: str) -> int:
    """Textbook negamax as the papers wrote it: a leaf when the depth is spent or the game is over,
    every leaf scored by the evaluation (H2, which has no term for a line, scores a line as a loss)."""
    if position.is_won() and evaluation == "h2":
        return beyond(-win_score(position.geometry, position.moves - 1), WIN_OFFSET)
    if depth == 0 or position.is_over():
        return static(position, evaluation)
    return max(-paper_minimax(child, depth - 1, evaluation) for _, child in position.children())


def random_positions(rows: int, columns: int, inarow: int, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        position = Position.initial(rows, columns, inarow)
        for _ in range(rng.randrange(position.geometry.cells - 2)):
            position = position.play(rng.choice(position.legal_columns()))
            if position.is_won():
                break
        if not position.is_over():
            positions.append(position)
    return positions


@pytest.mark.parametrize(
    "rows, columns, inarow, depth, evaluation",
    [
        (6, 7, 4, 1, "window"),
        (6, 7, 4, 2, "window"),
        (6, 7, 4, 3, "window"),
        (4, 5, 3, 3, "window"),
        (4, 4, 3, 4, "window"),
        (6, 7, 4, 3, "h1"),
        (6, 7, 4, 3, "h2"),
        (5, 5, 2, 3, "window"),
    ],
)
def test_alpha_beta_gives_plain_minimax_values_and_moves(
    rows: int, columns: int, inarow: int, depth: int, evaluation: str
) -> None:
    for position in random_positions(rows, columns, inarow, 12, seed=depth * 7 + rows):
        expected = {column: -plain_minimax(child, depth - 1, evaluation) for column, child in position.children()}
        best = max(expected.values())
        result = MinimaxSearch(position, evaluation).search(depth)
        assert result.score == best, repr(position)
        assert set(result.columns) == {c for c, value in expected.items() if value == best}, repr(position)


@pytest.mark.parametrize(
    "rows, columns, inarow, depth, evaluation, memo",
    [
        (6, 7, 4, 1, "window", False),
        (6, 7, 4, 2, "window", False),
        (6, 7, 4, 3, "window", False),
        (6, 7, 4, 3, "window", True),
        (4, 5, 3, 4, "window", True),
        (6, 7, 4, 3, "h1", True),
        (6, 7, 4, 3, "h2", True),
    ],
)
def test_the_papers_rules_give_the_papers_plain_minimax(
    rows: int, columns: int, inarow: int, depth: int, evaluation: str, memo: bool
) -> None:
    """Under ``rules=paper`` alpha-beta returns what the papers' plain minimax returns, leaf by leaf."""
    for position in random_positions(rows, columns, inarow, 12, seed=depth * 11 + rows):
        expected = {column: -paper_minimax(child, depth - 1, evaluation) for column, child in position.children()}
        best = max(expected.values())
        result = MinimaxSearch(position, evaluation, memo=memo, rules="paper").search(depth)
        assert result.score == best, repr(position)
        assert set(result.columns) == {c for c, value in expected.items() if value == best}, repr(position)


def test_at_depth_one_only_our_rules_block_the_opponents_line() -> None:
    """Moves 1 5 2 2 4: x holds a1 b1 d1 and wins at c1 next unless o blocks there. Our extra rule
    (never hand the opponent a line) makes even depth 1 block; the paper's depth 1 scores only the
    board after its own move (the window count), where d2 counts for more, and plays into the loss."""
    position = Position.from_moves("15224")
    assert position.non_losing_columns() == [2]
    assert MinimaxSearch(position, rules="ours").search(1).columns == (2,)
    paper = MinimaxSearch(position, rules="paper").search(1)
    assert paper.columns == (3,)
    assert position.play(3).winning_columns() == [2]
    block, chosen = (-static(position.play(c), "window") for c in (2, 3))
    assert paper.score == chosen > block
    assert MinimaxSearch(position, rules="paper").search(2).columns == (2,)  # one ply deeper it sees the line


def test_the_papers_rules_score_a_finished_line_by_the_evaluation() -> None:
    """With x to win at once, the paper's depth 1 values the win as the window count of the board with
    the line (81 points per full window), not as a decided win beyond every evaluation."""
    position = Position.from_moves("445566")
    paper = MinimaxSearch(position, rules="paper").search(1)
    wins = position.winning_columns()
    assert set(paper.columns) <= set(wins)
    assert paper.score == max(-static(position.play(c), "window") for c in wins) < WIN_OFFSET
    assert MinimaxSearch(position, rules="ours").search(1).score > WIN_OFFSET


def test_the_papers_depth_4_5_agent_and_the_unoptimised_one_choose_alike() -> None:
    """Sheoran's optimisation (the table and the memo) changes the work only: same columns, fewer evaluations."""
    for position in random_positions(6, 7, 4, 4, seed=9):
        optimised = MinimaxSearch(position, rules="paper")
        unoptimised = MinimaxSearch(position, rules="paper", memo=False)
        assert optimised.deepen(4) == unoptimised.deepen(4)
        assert optimised.evaluations < unoptimised.evaluations


def full_tree(position: Position, depth: int) -> int:
    """Every position the papers' search to ``depth`` enters: this one, and below it unless it is a leaf."""
    if depth == 0 or position.is_over():
        return 1
    return 1 + sum(full_tree(child, depth - 1) for _, child in position.children())


@pytest.mark.parametrize(
    "evaluation, rules",
    [
        ("window", "paper"),
        ("h1", "paper"),
        ("h2", "paper"),
        ("window", "ours"),
    ],
)
def test_without_pruning_the_same_moves_from_more_nodes(evaluation: str, rules: str) -> None:
    """Kang's baseline: no cut at beta, so every value is exact and the best columns are alpha-beta's."""
    pruned_nodes = full_nodes = 0
    for position in random_positions(6, 7, 4, 6, seed=13):
        pruned = MinimaxSearch(position, evaluation, rules=rules)
        full = MinimaxSearch(position, evaluation, rules=rules, pruning=False)
        with_cuts, without = pruned.deepen(4), full.deepen(4)
        assert (with_cuts.columns, with_cuts.score, with_cuts.depth) == (without.columns, without.score, without.depth)
        assert full.nodes >= pruned.nodes
        pruned_nodes, full_nodes = pruned_nodes + pruned.nodes, full_nodes + full.nodes
    assert full_nodes > 2 * pruned_nodes


def test_without_pruning_the_search_enters_the_whole_tree() -> None:
    for position in random_positions(4, 4, 3, 6, seed=2) + [Position.initial(4, 4, 3)]:
        for depth in (1, 2, 3, 4):
            search = MinimaxSearch(position, rules="paper", pruning=False)
            search.search(depth)
            assert search.nodes == full_tree(position, depth), (repr(position), depth)
    search = MinimaxSearch(Position.initial(4, 4, 3), rules="paper")
    search.search(4)
    assert search.nodes < full_tree(Position.initial(4, 4, 3), 4)


def test_the_agent_without_pruning_plays_alpha_betas_move() -> None:
    for position in random_positions(6, 7, 4, 4, seed=21):
        pruned = MinimaxStrategy(depth=4, rules="paper", seed=1)
        full = MinimaxStrategy(depth=4, rules="paper", seed=1, pruning=False)
        assert pruned.choose(position, Deadline.after(30)) == full.choose(position, Deadline.after(30))
        assert pruned.last_search is not None and full.last_search is not None
        assert full.last_search.nodes >= pruned.last_search.nodes
    strategy = built("minimax:rules=paper,pruning=false").strategy
    assert isinstance(strategy, MinimaxStrategy) and not strategy.pruning


def test_the_rules_and_features_are_checked() -> None:
    with pytest.raises(ValueError, match="rules=both: expected one of ours, paper"):
        make_agent(rules="both")
    with pytest.raises(ValueError, match="only with evaluation=h1"):
        make_agent(features="34")
    with pytest.raises(ValueError, match="features=5"):
        make_agent(evaluation="h1", features="5")
    assert built("minimax:evaluation=h1,features=34,rules=paper").strategy.features == frozenset({3, 4})


@pytest.mark.parametrize("evaluation", ["window", "h1", "h2"])
def test_memoisation_changes_the_work_not_the_result(evaluation: str) -> None:
    for position in random_positions(6, 7, 4, 6, seed=5):
        fresh, memoised = MinimaxSearch(position, evaluation, memo=False), MinimaxSearch(position, evaluation)
        assert fresh.deepen(4) == memoised.deepen(4)
        assert fresh.nodes == memoised.nodes
        assert memoised.evaluations <= fresh.evaluations


def test_memo_evaluates_no_position_twice() -> None:
    search = MinimaxSearch(Position.from_moves("4453"))
    search.deepen(5)
    assert search.evaluations == len(search.cache)
    fresh = MinimaxSearch(Position.from_moves("4453"), memo=False)
    fresh.deepen(5)
    assert fresh.evaluations > search.evaluations


def test_the_depth_switches_exactly_at_one_third_empty() -> None:
    rng = random.Random(3)
    for rows, columns in [(6, 7), (4, 5), (7, 9), (3, 3)]:
        cells = rows * columns
        position = Position.initial(rows, columns, cells + 1)  # no line ever forms: any filling is legal
        for moves in range(cells):
            empty = cells - moves
            assert adaptive_depth(position) == (4 if empty * 3 > cells else 5), (rows, columns, moves)
            position = position.play(rng.choice(position.legal_columns()))
    seven_by_six = Position.initial(6, 7, 43)
    for _ in range(27):
        seven_by_six = seven_by_six.play(seven_by_six.legal_columns()[0])
    assert adaptive_depth(seven_by_six) == 4  # 15 of 42 empty
    assert adaptive_depth(seven_by_six.play(seven_by_six.legal_columns()[0])) == 5  # 14 of 42: one third


def test_the_strategy_searches_to_the_adaptive_depth() -> None:
    strategy = MinimaxStrategy(seed=1)
    early = late = Position.initial(6, 7, 43)  # no line ever forms, so any filling is a position
    for _ in range(28):
        late = late.play(late.legal_columns()[-1])
    for position in (early, late):
        strategy.choose(position, Deadline.after(30))
        assert strategy.last_result is not None
        assert strategy.last_result.depth == adaptive_depth(position)
    assert (adaptive_depth(early), adaptive_depth(late)) == (4, 5)


def test_an_expired_deadline_still_yields_a_legal_move_from_depth_one() -> None:
    strategy = MinimaxStrategy(depth=8, seed=1)
    position = Position.from_moves("4453")
    column = strategy.choose(position, Deadline.after(0))
    assert strategy.last_result is not None and strategy.last_result.depth == 1
    assert column in position.legal_columns()


def test_takes_a_win_and_blocks_a_loss() -> None:
    strategy = MinimaxStrategy(seed=1)
    assert strategy.choose(Position.from_moves("445566"), Deadline.after(30)) in (2, 6)  # c1 or g1
    assert strategy.choose(Position.from_moves("43546"), Deadline.after(30)) == 6  # block g1


def test_weights_are_checked_against_inarow() -> None:
    agent = built("minimax:weights=1/3/9/81,seed=1")
    assert agent.strategy.weights == (1, 3, 9, 81)
    with pytest.raises(ValueError, match="one weight per stone count"):
        MinimaxSearch(Position.initial(4, 5, 3), weights=(1, 3, 9, 81))
    check_board({"weights": "1/3/9"}, geometry(4, 5, 3))
    check_board({"weights": None}, geometry(4, 5, 3))
    with pytest.raises(ValueError, match="weights=1/3/9: expected 4 positive integers separated by '/'"):
        check_board({"weights": "1/3/9"}, geometry(6, 7, 4))


@pytest.mark.parametrize("weights", ["1,3", "1/x/9/81", "1/-3/9/81", "0/3/9/81", "", "1//9/81"])
def test_weights_not_in_the_form_are_refused_when_the_agent_is_made(weights: str) -> None:
    with pytest.raises(ValueError, match="expected positive integers separated by '/'"):
        make_agent(weights=weights)


def test_a_seed_fixes_the_choice_among_equal_moves() -> None:
    position = Position.initial()
    first = [MinimaxStrategy(seed=7).choose(position, Deadline.after(30)) for _ in range(3)]
    assert len(set(first)) == 1
    choices = {MinimaxStrategy(seed=seed).choose(position, Deadline.after(30)) for seed in range(12)}
    assert choices == set(MinimaxSearch(position).deepen(4).columns)


@pytest.mark.games
def test_beats_kaggle_random_in_kaggle_environments() -> None:
    for seed, specs, seat in [(1, ["minimax:seed=1", "kaggle:random"], 0), (2, ["kaggle:random", "minimax:seed=2"], 1)]:
        outcome = Outcome.of(run_game(specs, BoardConfig(), seed=seed))
        assert outcome.winner == seat, outcome


def test_h1_without_feature_1_does_not_see_a_line_under_the_papers_rules() -> None:
    """Kang's Table 7 plays H1 with single features; without Feature 1 a finished line is just another
    board to score, so the value of every root move is minus H1 (features 3 and 4) of the child."""
    features = frozenset({3, 4})
    position = Position.from_moves("445566")
    result = MinimaxSearch(position, "h1", rules="paper", features=features).search(1)
    expected = {
        c: -h1(child.geometry, child.current, child.current ^ child.mask, features) for c, child in position.children()
    }
    assert result.score == max(expected.values()) < WIN_OFFSET
    assert set(result.columns) == {c for c, v in expected.items() if v == result.score}
