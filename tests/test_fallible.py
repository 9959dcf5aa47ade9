"""``fallible``: which moves fail, how, and that a seed fixes them (the contract test covers the rest)."""

from __future__ import annotations

import pytest

from connectx.agents.agent_spec import AgentSpec
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import Deadline
from connectx.agents.players.fallible import make_strategy
from connectx.agents.players.solver_agent import make_strategy as make_solver
from connectx.agents.registry import AgentSpecError
from connectx.agents.search.exact_search import analyze
from connectx.agents.search.opponent_model import margin_probabilities

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


@pytest.mark.parametrize(
    "text",
    ["fallible:epsilon=1.5", "fallible:lapse=-0.1", "fallible:book_plies=-1", "fallible:depth=0", "fallible:margin=-1"],
)
def test_bad_parameters_say_what_is_expected(text: str):
    with pytest.raises(AgentSpecError, match="fallible"):
        AgentSpec.parse(text).build(None)


def test_random_ties_play_one_of_the_best_exactly_scored_columns():
    position = Position.from_moves("62755537116154432712")  # past the book; columns 3 and 6 both win in 4
    scores = analyze(position)
    best = {column for column, score in scores.items() if score == max(scores.values())}
    assert best == {2, 5}
    chosen = {make_strategy(ties="random", seed=seed).choose(position, Deadline.after(5.0)) for seed in range(12)}
    assert chosen == best


THIN = Position.from_moves("3511625745273725327354")
"""Past the book; one best column (a win scoring 9) and four a point worse: a thin margin."""

WIDE = Position.from_moves("6216474312113677157126")
"""Past the book; one winning column (1) and every other a loss (-10): a wide margin."""


def exact_scores(position: Position) -> dict[int, int]:
    """Every column's exact score in ``position``, searched to the end."""
    scores = analyze(position)
    assert scores is not None  # no limit
    return scores


def slip_share(strategy, position: Position, moves: int) -> float:
    """The share of ``moves`` answers in ``position`` that are not among its best exactly scored columns."""
    scores = exact_scores(position)
    best = {column for column, score in scores.items() if score == max(scores.values())}
    columns = [strategy.choose(position, Deadline.after(5.0)) for _ in range(moves)]
    return sum(column not in best for column in columns) / moves


def test_the_margin_positions_have_the_scores_they_claim() -> None:
    assert analyze(THIN) == {0: 9, 1: 8, 2: 8, 3: -10, 4: 8, 5: -9, 6: 8}
    assert analyze(WIDE) == {1: -10, 2: -10, 3: -10, 4: -10, 5: 1, 6: -10}


def test_thin_margin_slips_come_at_the_laws_rate_where_the_margin_is_thin_and_not_where_it_is_wide() -> None:
    moves = 200
    expected = margin_probabilities(exact_scores(THIN), 1.0)
    thin_rate = 1 - expected[0]  # about 0.6: four columns one point worse, each exp(-1) times as likely
    thin = slip_share(make_strategy(margin=1.0, seed=5), THIN, moves)
    assert abs(thin - thin_rate) < 4 * (thin_rate * (1 - thin_rate) / moves) ** 0.5
    assert slip_share(make_strategy(margin=1.0, seed=5), WIDE, moves) == 0.0  # exp(-11) a move: never in 200
    assert slip_share(make_strategy(margin=0.25, seed=5), THIN, moves) < thin / 2, "a lower temperature slips less"


def test_margin_slips_are_seeded_and_labelled() -> None:
    first, second = make_strategy(margin=1.0, seed=9), make_strategy(margin=1.0, seed=9)
    columns = [first.choose(THIN, Deadline.after(5.0)) for _ in range(20)]
    assert columns == [second.choose(THIN, Deadline.after(5.0)) for _ in range(20)]
    assert len(set(columns)) > 1
    first.reset()
    labels = []
    for expected in columns:
        assert first.choose(THIN, Deadline.after(5.0)) == expected
        labels.append((expected, first.last_stats["source"]))
    assert all(source == ("exact" if column == 0 else "margin") for column, source in labels)


def test_margin_slips_wait_for_the_end_of_the_book() -> None:
    strategy = make_strategy(margin=4.0, seed=1)
    assert strategy.choose(Position.from_moves("445"), Deadline.after(1.0)) == make_solver().choose(
        Position.from_moves("445"), Deadline.after(1.0)
    )
    assert strategy.last_stats["source"] == "book"


@pytest.mark.parametrize("params", [{"margin": 1.0}, {"ties": "random"}])
def test_the_exact_scores_count_their_nodes_and_a_board_too_big_for_them_gets_the_solvers_move(params) -> None:
    strategy = make_strategy(seed=2, **params)
    strategy.choose(THIN, Deadline.after(5.0))
    assert strategy.last_stats["source"] in ("exact", "margin") and strategy.last_stats["nodes"] > 0
    huge = Position.from_moves("1", 40, 40, 40)  # 1599 empty cells: past what an exact search may recurse
    column = strategy.choose(huge, Deadline.after(0.3))
    assert huge.can_play(column) and strategy.last_stats["source"] not in ("exact", "margin")
