"""The solver agent: it converts won positions, consults the opening book, keeps to its clock and its bank.

Times are bounded in CPU seconds or node counts (a loaded machine stretches wall time, never CPU
time); a wall-clock bound appears only as a lower bound, which load cannot break.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import pytest

from connectx.agents.core.kaggle_boundary import GuardedAgent, board_of, mark_of
from connectx.agents.core.opening_scores import load_opening_scores
from connectx.agents.core.position import Position, geometry
from connectx.agents.core.search_time import Deadline, SearchLimit, clock_check_mask
from connectx.agents.players import solver_agent
from connectx.agents.players.opening_book import OpeningBook
from connectx.agents.players.solver_agent import SolverStrategy
from connectx.agents.registry import REGISTRY
from connectx.agents.search.anytime_search import iterative_deepening
from connectx.agents.search.compiled_solver import new_compiled_solver
from connectx.agents.search.exact_search import MAX_SEARCH_PLIES, SearchTooDeep, analyze, solve
from connectx.agents.search.trap_play import GATE
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_in_process import play_game
from connectx.evaluation.game_record import GameSpec


def make_agent(**params: Any) -> GuardedAgent:
    """The solver agent as the registry builds it: its strategy inside Kaggle's guard."""
    return REGISTRY["solver"].build(params)


POSITIONS = Path(__file__).resolve().parents[1] / "positions"


def ask(agent, position: Position, overage: float = 0.0) -> int:
    shape = position.geometry
    observation = {"board": board_of(position), "mark": mark_of(position), "remainingOverageTime": overage}
    configuration = {"rows": shape.rows, "columns": shape.columns, "inarow": shape.inarow, "actTimeout": 2.0}
    return agent(observation, configuration)


PROOF_NODES = 100_000
"""What a won opening may take to solve (about half a second of CPU on 7x6), and so what the agent gets
per move to convert it: node counts make the games the same on any machine."""


def play_out(position: Position, rng: random.Random) -> Position:
    """The game from ``position`` with the solver to move and a random opponent, to the end."""
    agent = make_agent(max_nodes=PROOF_NODES, use_book=False)
    mover_parity = position.moves % 2
    while not position.is_over():
        if position.moves % 2 == mover_parity:
            column = ask(agent, position)
        else:
            column = rng.choice(position.legal_columns())
        position = position.play(column)
    return position


def won_openings(rng: random.Random, rows: int, columns: int, inarow: int, plies: int, count: int) -> list[Position]:
    """Random openings that the side to move is proven to win (solved within ``PROOF_NODES`` each)."""
    found = []
    while len(found) < count:
        position = Position.initial(rows, columns, inarow)
        for _ in range(plies):
            if position.is_over():
                break
            position = position.play(rng.choice(position.legal_columns()))
        if position.is_over() or position.winning_columns():
            continue
        solution = solve(position, limit=SearchLimit(max_nodes=PROOF_NODES))
        if solution is not None and solution.score > 0:
            found.append(position)
    return found


@pytest.mark.parametrize("rows,columns,inarow,plies,count", [(6, 7, 4, 16, 4), (4, 5, 3, 2, 5), (5, 4, 4, 6, 4)])
def test_converts_won_positions_into_wins_against_a_random_opponent(
    rows: int, columns: int, inarow: int, plies: int, count: int
) -> None:
    rng = random.Random(rows * columns * inarow + plies)
    for opening in won_openings(rng, rows, columns, inarow, plies, count):
        final = play_out(opening, rng)
        assert final.is_won() and final.moves % 2 != opening.moves % 2, f"lost the win in {opening!r}"


def test_converts_the_shared_won_positions() -> None:
    lines = [line.split() for line in (POSITIONS / "Test_L2_R1").read_text().splitlines()[:40]]
    rng = random.Random(4)
    won = [Position.from_moves(moves) for moves, score in lines if int(score) > 0][:6]
    for opening in won:
        final = play_out(opening, rng)
        assert final.is_won() and final.moves % 2 != opening.moves % 2, f"lost the win in {opening!r}"


def book_answering(position: Position, column: int) -> OpeningBook:
    """A real ``OpeningBook`` that knows one position (as its canonical key), to see the agent consult it."""
    key, mirrored = position.key(), position.mirrored_key()
    stored = column if key <= mirrored else position.geometry.columns - 1 - column
    shape = position.geometry
    return OpeningBook(
        shape.rows, shape.columns, shape.inarow, position.moves, position.moves, [min(key, mirrored)], bytes([stored])
    )


@pytest.fixture
def python_core(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure-Python search, as a submission plays where no compiled solver loads (``CONNECTX_CORE=python``)."""
    monkeypatch.setattr(solver_agent, "new_compiled_solver", lambda: None)


def test_plays_the_book_move_on_its_geometry_and_searches_elsewhere(
    monkeypatch: pytest.MonkeyPatch, python_core: None
) -> None:
    opening = Position.from_moves("44")
    monkeypatch.setattr(solver_agent, "load_opening_book", lambda: book_answering(opening, 0))
    agent = make_agent(time_budget=0.2)
    assert ask(agent, opening) == 0, "column 1 is a poor move no search picks: only the book says it"
    assert agent.last_stats == {"nodes": 0, "depth": 0, "evaluations": 0, "source": "book"}
    other = Position.from_moves("44", rows=6, columns=7, inarow=5)
    assert ask(make_agent(time_budget=0.2), other) != 0
    searcher = make_agent(time_budget=0.2, use_book=False)
    assert ask(searcher, opening) != 0
    assert searcher.last_stats["source"] in ("search", "proof", "exact") and searcher.last_stats["nodes"] > 0
    assert searcher.last_stats["depth"] >= 1 and searcher.last_stats["evaluations"] > 0


def test_ignores_a_book_move_into_a_full_column(monkeypatch: pytest.MonkeyPatch) -> None:
    full = Position.from_moves("111111")
    monkeypatch.setattr(solver_agent, "load_opening_book", lambda: book_answering(full, 0))
    assert ask(make_agent(time_budget=0.2), full) in full.legal_columns()


def test_plays_on_without_a_book(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> OpeningBook:
        raise FileNotFoundError("agents/data/opening_book_7x6x4.bin is missing")

    monkeypatch.setattr(solver_agent, "load_opening_book", missing)
    agent = make_agent(time_budget=0.2)
    assert ask(agent, Position.initial()) == 3
    assert ask(agent, Position.from_moves("4")) in range(7)


def test_the_shipped_book_is_followed_when_it_exists() -> None:
    try:
        book = solver_agent.load_opening_book()
    except FileNotFoundError:
        pytest.skip("agents/data/opening_book_7x6x4.bin is not generated yet")
    empty = Position.initial()
    expected = book.move_for(6, 7, 4, empty.current, empty.mask)
    assert expected is not None
    assert ask(make_agent(time_budget=0.2), empty) == expected


def timed_choice(strategy: SolverStrategy, position: Position, deadline: Deadline) -> tuple[int, float, float]:
    """The strategy's column, and the wall and CPU seconds it took."""
    wall, cpu = time.perf_counter(), time.process_time()
    column = strategy.choose(position, deadline)
    return column, time.perf_counter() - wall, time.process_time() - cpu


def test_keeps_to_its_time_budget_when_nothing_can_be_proven() -> None:
    """The guard caps the move's 1.7 s (actTimeout 2 s less the margin) and the overage at the budget."""
    agent = make_agent(time_budget=0.3, use_book=False)
    deadlines: list[Deadline] = []
    choose = agent.strategy.choose
    agent.strategy.choose = lambda position, deadline: deadlines.append(deadline) or choose(position, deadline)
    wall, cpu = time.perf_counter(), time.process_time()
    column = ask(agent, Position.from_moves("4"), overage=60.0)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert column in range(7)
    assert wall >= 0.3 - 0.01 and cpu <= 0.3 + 0.4, "it uses the budget, and no more"
    assert deadlines[0].bank.drawn == 0, "never the overage bank with a time_budget"


def test_the_compiled_solver_dips_into_the_bank_for_a_proof_it_could_not_finish_in_the_move() -> None:
    """A draw the C search settles in about 2 s: not within the move's 0.3 s, within a quarter of a 20 s bank."""
    drawn = Position.from_moves("54431")
    strategy = SolverStrategy(use_book=False)
    deadline = Deadline.after(0.3, overage=20.0)
    column = strategy.choose(drawn, deadline)
    assert deadline.bank.drawn == pytest.approx(5.0), "a quarter of the 20 s bank"
    assert strategy.last_stats["core"] == "binary" and strategy.last_stats["source"] in ("exact", "proof")
    checker = new_compiled_solver()
    assert checker is not None
    assert checker.search(drawn.play(column)).lower == 0, "the column keeps the draw"


def test_dips_into_the_overage_bank_for_a_midgame_proof_on_kaggles_clock(python_core: None) -> None:
    hard = Position.from_moves("573154743")  # 9 stones: minutes of CPython search to prove
    strategy = SolverStrategy(use_book=False)
    deadline = Deadline.after(0.3, overage=2.0)
    _, wall, cpu = timed_choice(strategy, hard, deadline)
    assert deadline.bank.drawn == pytest.approx(0.5), "a quarter of the 2 s bank"
    assert wall >= 0.3 + 0.5 - 0.01 and cpu <= 0.3 + 0.5 + 0.4, "spent on top of the move's 0.3 s, and no more"
    opening = Deadline.after(0.3, overage=2.0)
    _, _, cpu = timed_choice(strategy, Position.from_moves("4"), opening)
    assert opening.bank.drawn == 0 and cpu <= 0.3 + 0.3, "the opening is left to the book and the heuristic"


@pytest.mark.parametrize("rows,columns,inarow", [(6, 25, 4), (12, 12, 5), (40, 40, 40)])
def test_keeps_to_kaggles_clock_on_wide_and_large_boards(rows: int, columns: int, inarow: int) -> None:
    """Before the searches were bounded, 40x40 overflowed the recursion limit and the exact search read the
    clock once a second there; now every board is answered within the move's time and the bank's slice."""
    strategy = SolverStrategy(use_book=False)
    for position in (Position.initial(rows, columns, inarow), Position.from_moves("1" * rows, rows, columns, inarow)):
        deadline = Deadline.after(0.3, overage=2.0)
        column, _, cpu = timed_choice(strategy, position, deadline)
        assert column in position.legal_columns()
        assert cpu <= 0.3 + deadline.bank.drawn + 0.4


def test_no_search_recurses_past_its_bound() -> None:
    huge = Position.initial(40, 40, 40)
    with pytest.raises(SearchTooDeep):
        solve(huge)
    results = list(iterative_deepening(huge, exact_limit=SearchLimit(max_nodes=300)))
    assert results and all(not result.proven for result in results), "depths only: no proof on 1600 empty cells"
    tall = Position.initial(MAX_SEARCH_PLIES, 1, 2)  # one column of alternating stones: one move per ply, a draw
    solution = solve(tall)
    assert solution is not None and solution.score == 0, "the deepest allowed solve fits the default recursion limit"


def test_the_clock_is_read_every_1024_nodes_on_7x6_and_more_often_where_nodes_cost_more() -> None:
    assert clock_check_mask(geometry(6, 7, 4)) == 1023
    assert clock_check_mask(geometry(4, 5, 3)) == 1023
    assert clock_check_mask(geometry(6, 25, 4)) < clock_check_mask(geometry(6, 7, 4))
    assert clock_check_mask(geometry(40, 40, 40)) == 0


def test_a_node_cap_makes_moves_reproducible() -> None:
    positions = [Position.from_moves(moves) for moves in ("", "4", "435", "3344", "2617")]
    first = [ask(make_agent(max_nodes=3000, use_book=False), p) for p in positions]
    second = [ask(make_agent(max_nodes=3000, use_book=False), p) for p in positions]
    assert first == second


@pytest.mark.parametrize("params,message", [({"time_budget": 0.0}, "time_budget"), ({"max_nodes": 0}, "max_nodes")])
def test_refuses_impossible_limits(params: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make_agent(**params)


@pytest.mark.games
@pytest.mark.parametrize(
    "agents,seat",
    [
        (("solver", "kaggle:random"), 0),
        (("solver", "kaggle:negamax"), 0),
        (("kaggle:random", "solver"), 1),
        (("kaggle:negamax", "solver"), 1),
    ],
)
def test_wins_real_kaggle_games_from_the_empty_board_in_either_seat(agents: tuple[str, str], seat: int) -> None:
    record = play_game(GameSpec(0, agents, seed=5))
    assert record.cause == "line" and record.winner == seat, (record.cause, record.detail, record.moves)
    # A move that drew on the bank would take 8 s here; twice actTimeout leaves a loaded machine room.
    assert max(record.durations[seat]) < 2 * 2.0, "no move drew on the overage bank"


THIN_LOSS = tuple(int(digit) - 1 for digit in "347214124771141135")
"""18 stones, the first player to move: it wins, but only with its last stone, so the second seat is lost
for a long game with many choices of how to lose (found by a seeded search of random openings)."""

TRAP_NODES = 400_000
"""Nodes per solve: enough to prove every position of the game from ``THIN_LOSS`` exactly, so each move is
a function of the position alone (the solver's exact move is the first best one in move order)."""

SLOW_CLOCK = BoardConfig(6, 7, 4, act_timeout=60.0)
"""Node caps replace the clock in these games; a minute a move keeps a loaded machine from timing them out."""


def test_the_trap_is_off_by_default() -> None:
    assert solver_agent.make_strategy().trap_play is None
    assert solver_agent.make_strategy(trap=True).trap_play is not None


def test_told_the_opponents_kind_the_trap_is_set_without_reading_and_the_book_is_kept() -> None:
    """``assume``: no gate, no reading; where the book answers, its move all the same."""
    opening = Position.from_moves("44444")
    told = solver_agent.make_strategy(trap=True, assume="margin:1", max_nodes=TRAP_NODES)
    assert told.choose(opening, Deadline.after(30.0)) == told.book_move(opening) == 3
    assert told.last_stats["source"] == "book" and told.last_stats["opponent"] == "margin:1"
    drawn = Position.from_moves("44725741263676746331").play(4).play(4)
    unread = solver_agent.make_strategy(trap=True, max_nodes=TRAP_NODES)
    assert unread.choose(drawn, Deadline.after(30.0)) == 6, "unread: today's move"
    assert told.choose(drawn, Deadline.after(30.0)) == 3 and told.last_stats["source"] == "trap"
    assert told.trap_play is not None and told.trap_play.model.observed == 0
    with pytest.raises(ValueError, match="add trap=true"):
        solver_agent.make_strategy(assume="random:0.1")
    with pytest.raises(ValueError, match="random:RATE"):
        solver_agent.make_strategy(trap=True, assume="random")


@pytest.mark.games
def test_with_the_trap_on_a_perfect_opponent_gets_exactly_todays_moves() -> None:
    """It watched every move (``opponent`` in its statistics), saw no mistake, and so never set a trap."""
    first = f"solver:max_nodes={TRAP_NODES}"
    today = play_game(GameSpec(0, (first, first), SLOW_CLOCK, seed=3, opening=THIN_LOSS))
    trapping = play_game(
        GameSpec(1, (first, f"solver:trap=true,max_nodes={TRAP_NODES}"), SLOW_CLOCK, seed=3, opening=THIN_LOSS)
    )
    assert today.cause == trapping.cause == "line" and today.winner == trapping.winner == 0
    assert trapping.moves == today.moves
    ours = [trapping.stats(1, call) for call in range(len(trapping.search_stats[1]))]
    assert ours and all(stats.get("opponent") == "perfect" and stats.get("source") != "trap" for stats in ours)


def test_after_the_opponent_gives_up_its_win_the_trap_replaces_the_solvers_move() -> None:
    """A solver with the trap off plays its first drawing move; with it on, once it has seen the opponent
    throw a win, a drawing move that gives the opponent more chances to throw the draw too."""
    start = Position.from_moves("44725741263676746331")
    on = SolverStrategy(max_nodes=TRAP_NODES, use_book=False, trap=True)
    off = SolverStrategy(max_nodes=TRAP_NODES, use_book=False)
    assert on.choose(start, Deadline.after(60.0)) == off.choose(start, Deadline.after(60.0)) == 4
    assert on.trap_play is not None and on.trap_play.model.untrappable_share() >= GATE
    replies = analyze(start.play(4))
    assert replies is not None and max(replies.values()) > 0 == replies[4], "column 5 throws the opponent's win"
    slipped = start.play(4).play(4)
    drawing = solve(slipped)
    assert drawing is not None and drawing.score == 0
    assert off.choose(slipped, Deadline.after(60.0)) == drawing.column == 6
    assert on.choose(slipped, Deadline.after(60.0)) == 3
    assert on.last_stats["source"] == "trap" and on.trap_play.model.untrappable_share() < GATE
    ours = analyze(slipped)
    assert ours is not None and ours[3] == 0, "the trap keeps the draw"
    on.reset()
    assert on.trap_play.model.observed == 0 and on.trap_play.model.untrappable_share() >= GATE


LOST_BY_FOUR = tuple(int(digit) - 1 for digit in "437765722126266226")
"""18 stones, the first player to move wins with four stones to spare: random slips often leave it winning,
so the second seat has moves to read them from (found like ``THIN_LOSS``)."""


@pytest.mark.games
def test_a_trap_setting_second_seat_plays_a_real_game_against_a_fallible_first_player_to_the_end() -> None:
    """On Kaggle's clock, from a lost second seat, against random slips: no fault, every move the strategy's own."""
    record = play_game(GameSpec(0, ("fallible:epsilon=0.3", "solver:trap=true"), seed=1, opening=LOST_BY_FOUR))
    assert record.cause in ("line", "draw"), (record.cause, record.detail, record.moves)
    calls = len(record.durations[1])
    assert calls and all(record.stats(1, call).get("source") for call in range(calls)), "no guard fallback"


@pytest.mark.games
def test_the_second_seat_reads_random_slips_in_a_real_game() -> None:
    """Node caps make the game the same on any machine: the opponent's slip is seen, and it is read as random."""
    record = play_game(
        GameSpec(
            0,
            (f"fallible:epsilon=0.3,max_nodes={TRAP_NODES}", f"solver:trap=true,max_nodes={TRAP_NODES}"),
            SLOW_CLOCK,
            seed=1,
            opening=LOST_BY_FOUR,
        )
    )
    assert record.cause in ("line", "draw"), (record.cause, record.detail, record.moves)
    readings = [record.stats(1, call).get("opponent") for call in range(len(record.durations[1]))]
    assert readings[0] == "perfect" and readings[-1] == "random:0.3", readings


def test_off_the_book_the_shipped_scores_keep_the_value_with_no_search() -> None:
    """A 5-stone position the book does not hold: each of its children (6 stones) has its exact score in
    the file the agent ships, so the move keeps the position's value, played through kaggle-environments
    with a node cap of 1, which no search could prove anything within."""
    scores = load_opening_scores()
    probe = SolverStrategy(max_nodes=1)
    rng = random.Random(3)
    while True:
        moves = []
        position = Position.initial()
        for _ in range(5):
            moves.append(rng.choice(position.legal_columns()))
            position = position.play(moves[-1])
        if not position.is_over() and probe.book_move(position) is None:
            break
    value = scores.score(position)
    assert value is not None
    record = play_game(GameSpec(0, ("random", "solver:max_nodes=1"), BoardConfig(), seed=1, opening=tuple(moves)))
    column = record.moves[len(moves)]
    child = scores.score(position.play(column))
    assert child is not None and -child == value, f"{position!r}: {column} gave the value away"
    assert dict(record.search_stats[1][0])["source"] == "scores" and dict(record.search_stats[1][0])["nodes"] == 0
