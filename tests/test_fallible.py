"""``fallible``: which moves fail, how, and that a seed fixes them (the contract test covers the rest)."""

from __future__ import annotations

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline
from connectx.agents.players.fallible import make_strategy
from connectx.agents.players.solver_agent import make_strategy as make_solver
from connectx.agents.registry import AgentSpecError

MIDGAME = Position.from_moves("4453323")  # past the opening, where the book still answers


def sources(strategy, position: Position, moves: int = 20) -> list[str]:
    found = []
    for _ in range(moves):
        strategy.choose(position, Deadline.after(1.0))
        found.append(strategy.last_stats["source"])
    return found


def test_without_failures_it_plays_as_the_solver():
    fallible, solver = make_strategy(max_nodes=20_000), make_solver(max_nodes=20_000)
    for moves in ("", "4", "44", "4453323", "445332312"):
        position = Position.from_moves(moves)
        assert fallible.choose(position, Deadline.after(1.0)) == solver.choose(position, Deadline.after(1.0))


def test_epsilon_one_plays_random_legal_columns_reproducibly():
    first, second = make_strategy(epsilon=1.0, seed=7), make_strategy(epsilon=1.0, seed=7)
    columns = [first.choose(MIDGAME, Deadline.after(1.0)) for _ in range(30)]
    assert columns == [second.choose(MIDGAME, Deadline.after(1.0)) for _ in range(30)]
    assert set(columns) == set(MIDGAME.legal_columns())
    assert first.last_stats["source"] == "error"
    first.reset()
    assert [first.choose(MIDGAME, Deadline.after(1.0)) for _ in range(30)] == columns


def test_a_book_cut_hands_every_later_move_to_the_depth_limited_search():
    strategy = make_strategy(book_plies=4, depth=4)
    strategy.choose(Position.from_moves("445"), Deadline.after(1.0))
    assert strategy.last_stats["source"] == "book"
    strategy.choose(MIDGAME, Deadline.after(1.0))
    assert strategy.last_stats == {**strategy.last_stats, "source": "horizon", "depth": 4}


def test_lapses_come_at_their_rate():
    found = sources(make_strategy(lapse=0.5, seed=3, max_nodes=5_000), MIDGAME, 200)
    assert 70 <= found.count("lapse") <= 130
    assert set(found) - {"lapse"} <= {"book", "proof", "search", "exact"}


def test_the_depth_limited_search_takes_a_win_and_blocks_one():
    strategy = make_strategy(book_plies=0, depth=2)
    assert strategy.choose(Position.from_moves("112233"), Deadline.after(1.0)) == 3  # completes 4 in the bottom row
    assert strategy.choose(Position.from_moves("11223"), Deadline.after(1.0)) == 3  # blocks it


@pytest.mark.parametrize("text", ["fallible:epsilon=1.5", "fallible:lapse=-0.1", "fallible:book_plies=-1",
                                  "fallible:depth=0"])
def test_bad_parameters_say_what_is_expected(text: str):
    with pytest.raises(AgentSpecError, match="fallible"):
        AgentSpec.parse(text).build(None)


def test_random_ties_play_one_of_the_best_exactly_scored_columns():
    from connectx.agents.search.exact_search import analyze

    position = Position.from_moves("62755537116154432712")  # past the book; columns 3 and 6 both win in 4
    scores = analyze(position)
    best = {column for column, score in scores.items() if score == max(scores.values())}
    assert best == {2, 5}
    chosen = {make_strategy(ties="random", seed=seed).choose(position, Deadline.after(5.0)) for seed in range(12)}
    assert chosen == best
