"""The solver off 7x6: the open-line and threat evaluation, the principal-variation search, small boards solved.

Times are bounded by node counts or CPU time, never by wall-clock bounds a loaded machine could break.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest

from connectx.agents.core.kaggle_boundary import GuardedAgent, board_of
from connectx.agents.core.position import Position, geometry
from connectx.agents.core.search_result import SearchCounts, SearchResult, last_of
from connectx.agents.core.search_time import Deadline, SearchLimit, clock_check_mask
from connectx.agents.core.transposition_table import TranspositionTable
from connectx.agents.heuristics.line_evaluation import (
    LineWeights,
    line_evaluator,
    line_weights,
    raw_bound,
    reference_value,
)
from connectx.agents.players import solver_agent
from connectx.agents.registry import REGISTRY
from connectx.agents.search.anytime_search import iterative_deepening
from connectx.agents.search.exact_search import analyze, solve
from connectx.agents.search.open_board_play import OpenBoardPlay
from connectx.agents.search.principal_variation import PROVEN, VariationTable, deepening
from connectx.evaluation.engine import BoardConfig
from connectx.evaluation.game_in_process import play_game
from connectx.evaluation.game_record import GameSpec

BOARDS = [(6, 7, 4), (7, 8, 4), (7, 9, 4), (5, 6, 4), (8, 10, 5), (4, 4, 3), (5, 5, 4), (6, 7, 2), (3, 3, 1), (6, 7, 6)]
"""Rows, columns, inarow: Kaggle's board, the open-board benchmark's boards, small ones and the edge cases of inarow."""


def random_position(rng: random.Random, rows: int, columns: int, inarow: int, stones: int) -> Position:
    """A position after up to ``stones`` random moves, still open: a move that would end the game is not played."""
    position = Position.initial(rows, columns, inarow)
    for _ in range(stones):
        options = [c for c in position.legal_columns() if not position.play(c).is_over()]
        if not options:
            break
        position = position.play(rng.choice(options))
    return position


def evaluate(position: Position, weights: LineWeights | None = None) -> float:
    return line_evaluator(position.geometry, weights)(
        position.current, position.mask, position.moves, position.opponent_winning_cells(), position.winning_cells()
    )


@pytest.mark.parametrize("rows,columns,inarow", BOARDS)
def test_the_compiled_evaluation_counts_what_the_plain_definition_counts(rows: int, columns: int, inarow: int) -> None:
    rng = random.Random(rows * 100 + columns * 10 + inarow)
    for _ in range(40):
        position = random_position(rng, rows, columns, inarow, rng.randrange(rows * columns))
        value = evaluate(position)
        assert value == pytest.approx(
            reference_value(position.geometry, position.current, position.mask, position.moves), abs=1e-12
        )
        assert -1 < value < 1


@pytest.mark.parametrize("rows,columns,inarow", BOARDS)
def test_the_lines_and_threats_are_the_same_position_seen_from_the_other_side_negated(
    rows: int, columns: int, inarow: int
) -> None:
    # The fill-up game is left out: who moves next is what decides it, so it has no such symmetry.
    rng = random.Random(rows + columns + inarow)
    evaluation = line_evaluator(geometry(rows, columns, inarow), replace(line_weights(inarow), zugzwang=0))
    for _ in range(30):
        position = random_position(rng, rows, columns, inarow, rng.randrange(rows * columns))
        opponent = position.current ^ position.mask
        mine = position.winning_cells()
        theirs = position.opponent_winning_cells()
        seen_by_mover = evaluation(position.current, position.mask, position.moves, theirs, mine)
        seen_by_opponent = evaluation(opponent, position.mask, position.moves + 1, mine, theirs)
        assert seen_by_opponent == pytest.approx(-seen_by_mover, abs=1e-12)


def bottom_row(shape_rows: int, shape_columns: int, columns: list[int]) -> tuple[int, int]:
    """``(stones, mask)`` of stones on the bottom row of ``columns`` of a ``shape_rows`` x ``shape_columns`` board."""
    shape = geometry(shape_rows, shape_columns, 4)
    stones = sum(1 << (column * shape.height) for column in columns)
    return stones, stones


def test_stones_in_one_open_line_are_worth_more_than_the_same_stones_apart() -> None:
    shape = geometry(6, 7, 4)
    evaluation = line_evaluator(shape)
    together, mask = bottom_row(6, 7, [2, 3])
    apart, apart_mask = bottom_row(6, 7, [0, 6])
    assert evaluation(together, mask, 0, 0, 0) > evaluation(apart, apart_mask, 0, 0, 0) > 0


@pytest.mark.parametrize("rows,columns,first_keeps_second_row", [(6, 7, False), (7, 9, False), (7, 8, True)])
def test_a_threat_on_its_owners_parity_wins_the_fill_up_game(
    rows: int, columns: int, first_keeps_second_row: bool
) -> None:
    # The mover's three stones on the second row threaten the fourth cell of it, whose column is
    # empty below; the opponent's bottom-row threat is playable at once, so it is left out. The
    # threat itself counts alike for either side: the fill-up game says whose it is in a zugzwang
    # (the second player's on 7x6, as Allis has it, and the first player's on 8x7, where the
    # other columns hold an odd number of cells).
    shape = geometry(rows, columns, 4)
    stones = sum(1 << (column * shape.height + 1) for column in range(3))
    mask = stones | sum(1 << (column * shape.height) for column in range(3))
    own = shape.winning_cells(stones, mask)
    threats_only = replace(line_weights(4), zugzwang=0)
    without = line_evaluator(shape, threats_only)
    assert without(stones, mask, 0, 0, own) == pytest.approx(without(stones, mask, 1, 0, own), abs=1e-12)
    weights = line_weights(4)
    evaluation = line_evaluator(shape, weights)
    gap = (evaluation(stones, mask, 0, 0, own) - evaluation(stones, mask, 1, 0, own)) * raw_bound(shape, weights)
    # The fill-up game is won by the player who keeps second-row threats and drawn for the other.
    assert gap == pytest.approx(weights.zugzwang if first_keeps_second_row else -weights.zugzwang)


def test_a_columns_lowest_threat_counts_and_a_threat_above_it_does_not() -> None:
    # 7x6, the first player to move: its stones on the second row threaten column 3's second row
    # (both sides' bottom-row threats there are playable, so left out); the opponent's three stones on
    # the third row threaten the cell above it, which counts for nothing.
    shape = geometry(6, 7, 4)
    weights = replace(line_weights(4), zugzwang=0)

    def at(column: int, row: int) -> int:
        return 1 << (column * shape.height + row)

    def raw_threats(current: int, mask: int) -> float:
        with_threats = reference_value(shape, current, mask, 0, weights) * raw_bound(shape, weights)
        lines_only = LineWeights(weights.lines, 0, 0)
        return with_threats - reference_value(shape, current, mask, 0, lines_only) * raw_bound(shape, lines_only)

    mine = sum(at(column, 1) for column in (0, 1, 2, 4, 5, 6)) | sum(at(column, 0) for column in (4, 5, 6))
    theirs = sum(at(column, 0) for column in (0, 1, 2)) | sum(at(column, 2) for column in (4, 5, 6))
    assert shape.winning_cells(mine, mine | theirs) == at(3, 0) | at(3, 1)
    assert shape.winning_cells(theirs, mine | theirs) == at(3, 0) | at(3, 2)
    assert raw_threats(mine, mine | theirs) == pytest.approx(weights.threat)


def plain_depth_value(position: Position, depth: int) -> float:
    """Negamax over every move to ``depth`` with the same evaluation and proven scores: no pruning, no table."""
    shape = position.geometry
    if position.winning_columns():
        return (shape.cells + 1 - position.moves) // 2
    if position.is_full():
        return 0.0
    safe = position.non_losing_columns()
    if not safe:
        return -((shape.cells - position.moves) // 2)
    if position.moves >= shape.cells - 2:
        return 0.0
    if depth == 0:
        return evaluate(position)
    return max(-plain_depth_value(position.play(column), depth - 1) for column in safe)


@pytest.mark.parametrize("rows,columns,inarow,depth", [(4, 4, 3, 3), (5, 5, 4, 3), (6, 7, 4, 2)])
def test_each_depth_is_worth_what_plain_negamax_finds(rows: int, columns: int, inarow: int, depth: int) -> None:
    rng = random.Random(depth * rows)
    for _ in range(6):
        position = random_position(rng, rows, columns, inarow, rng.randrange(2, rows * columns // 2))
        if not position.non_losing_columns() or position.winning_columns():
            continue
        at_depth = next(
            (
                result
                for result in deepening(position, VariationTable(), SearchLimit(max_nodes=10**6), reductions=False)
                if result.depth >= depth
            ),
            None,
        )
        if at_depth is None or at_depth.depth != depth:  # a forced move, or proven before this depth
            continue
        expected = max(-plain_depth_value(position.play(c), depth - 1) for c in position.non_losing_columns())
        assert at_depth.score == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("rows,columns,inarow", [(4, 4, 3), (5, 4, 3)])
def test_searched_to_the_end_the_value_is_the_exact_solvers(rows: int, columns: int, inarow: int) -> None:
    rng = random.Random(rows * columns)
    checked = 0
    for _ in range(60):
        position = random_position(rng, rows, columns, inarow, rng.randrange(2, rows * columns - 4))
        if position.is_over():
            continue
        last = list(deepening(position, VariationTable(), SearchLimit(max_nodes=10**7)))[-1]
        exact = solve(position)
        assert exact is not None
        if last.depth == 0:  # an immediate win, a loss, or a forced move: nothing searched
            continue
        assert last.proven
        assert math.copysign(1, last.score) == math.copysign(1, exact.score) or exact.score == last.score == 0
        if last.exact:
            assert last.score == exact.score
        checked += 1
    assert checked >= 10


def test_proofs_made_with_a_table_kept_for_the_whole_game_hold() -> None:
    # As in play: one table for the game, deeper depths and reductions from earlier moves in it,
    # a search cut short at a node cap, and a third of the moves not the search's own.
    rng = random.Random(5)
    exact_table = TranspositionTable()
    checked = 0
    for _ in range(4):
        position, table = Position.initial(5, 6, 4), VariationTable()
        while not position.is_over():
            last = None
            for last in deepening(position, table, SearchLimit(max_nodes=rng.randrange(2_000, 20_000))):  # noqa: B007
                pass
            if last is not None and last.proven and last.depth > 0:
                scores = analyze(position, exact_table)
                assert scores is not None
                exact, played = max(scores.values()), scores[last.column]
                if last.exact:
                    assert last.score == exact == played
                else:  # a proven win is won by its column; a proven loss is lost whatever is played
                    assert math.copysign(1, last.score) == math.copysign(1, exact) == math.copysign(1, played)
                checked += 1
            ours = last.column if last is not None and rng.random() < 0.7 else None
            position = position.play(ours if ours is not None else rng.choice(position.legal_columns()))
    assert checked >= 20


def test_late_move_reductions_reach_a_depth_with_fewer_nodes() -> None:
    rng = random.Random(13)
    nodes = {True: 0, False: 0}
    positions = (random_position(rng, 7, 8, 4, 8) for _ in range(100))
    undecided = [
        position for position in positions if not position.winning_columns() and len(position.non_losing_columns()) > 1
    ]
    for position in undecided[:4]:
        for reductions in nodes:
            for result in deepening(position, VariationTable(), reductions=reductions):
                nodes[reductions] += result.nodes
                if result.depth >= 9:
                    break
    assert nodes[True] < 0.8 * nodes[False]


def test_finds_the_win_a_few_moves_away_and_the_only_defence_against_one() -> None:
    # Player 1 has columns 4 and 5 of the bottom row: a third stone on either side leaves two open ends.
    position = Position.from_moves("4151", rows=7, columns=8, inarow=4)
    won = list(deepening(position, VariationTable(), SearchLimit(max_nodes=50_000)))[-1]
    assert won.score >= PROVEN
    assert won.column in (2, 4)
    defence = Position.from_moves("415", rows=7, columns=8, inarow=4)  # only c1 or f1 stops that now
    blocked = list(deepening(defence, VariationTable(), SearchLimit(max_nodes=50_000)))[-1]
    assert blocked.column in (2, 5)


def test_a_node_cap_makes_the_move_the_same_every_time() -> None:
    rng = random.Random(3)
    for _ in range(3):
        position = random_position(rng, 7, 9, 4, 8)
        moves = {
            GuardedAgent("open", OpenBoardPlay(max_nodes=20_000)).strategy.choose(position, Deadline.after(60.0))
            for _ in range(2)
        }
        assert len(moves) == 1


def test_the_solvers_table_size_bounds_its_tables_on_other_boards_too() -> None:
    strategy = REGISTRY["solver"].build({"table_size": 64, "max_nodes": 5_000}, None).strategy
    position = Position.initial(7, 8, 4).play(3).play(4)
    column = strategy.choose(position, Deadline.after(60.0))
    assert column in position.legal_columns()
    open_board = strategy.open_board
    assert open_board.table.capacity == open_board.exact_table.capacity == 64
    # the table is emptied when found full, which the search looks at with the clock
    assert len(open_board.table) <= 64 + clock_check_mask(position.geometry) + 1


FORCED_10X8 = "....oo..../....xo...x/x.o.oxxx.x/o.x.ooooxo/o.o.xxxooo/x.xooooxxx/oxoxxxxoox/xxxoxoxxoo"
"""10x8/5 with 23 empty cells (within the proofs' reach) and a single move that does not hand the opponent a line."""

PROVABLE_10X8 = "...oxo..x./...xxo.oox/...ooo.xxo/...xxo.oxo/..ooox.xox/..xoxo.oxo/xoxoox.xxo/xooxxxxoxx"
"""10x8/5 with 25 empty cells: within the proofs' reach, but no proof finishes in a fraction of a second."""


def test_the_search_weighs_only_the_root_columns_it_is_given() -> None:
    position = Position.initial(6, 7, 4)
    for columns in ([0], [1, 5], [6, 2, 4]):
        results = list(deepening(position, limit=SearchLimit(max_nodes=20_000), columns=columns))
        assert results and all(result.column in columns for result in results)


def test_a_proven_draw_is_kept_and_the_evaluation_chooses_among_the_moves_that_keep_it() -> None:
    # Drawn 6x5/4 positions within the proofs' reach: the move must keep the draw, and it is not
    # always the one the exact solve would play (the first drawing move in its order).
    rng = random.Random(11)
    table = TranspositionTable()
    kept = differed = 0
    while kept < 12:
        position = random_position(rng, 5, 6, 4, rng.randrange(8, 16))
        if position.is_over() or position.winning_columns() or len(position.non_losing_columns()) < 2:
            continue
        exact = solve(position, table)
        assert exact is not None
        drawing = [c for c in position.non_losing_columns() if -solve(position.play(c), table).score == 0]
        if exact.score != 0 or len(drawing) < 2:
            continue
        play = OpenBoardPlay(max_nodes=400_000)
        column = play.choose(position, Deadline.after(60.0))
        assert column in drawing
        kept += 1
        differed += column != exact.column
    assert differed > 0


def test_a_forced_move_is_answered_without_searching_or_drawing_on_the_bank() -> None:
    position = Position.from_rows(FORCED_10X8, inarow=5)
    assert len(position.non_losing_columns()) == 1
    play = OpenBoardPlay()
    deadline = Deadline.after(0.3, 3.0)
    assert play.choose(position, deadline) == position.non_losing_columns()[0]
    assert deadline.bank.drawn == 0
    assert play.last_stats["nodes"] == 0


def test_when_the_banks_proof_fails_the_move_is_the_deep_searchs() -> None:
    position = Position.from_rows(PROVABLE_10X8, inarow=5)
    play = OpenBoardPlay()
    deadline = Deadline.after(0.4, 0.5)  # a 0.05 s slice of the bank: too little for a proof here
    play.choose(position, deadline)
    assert deadline.bank.drawn > 0
    if play.last_stats["source"] == "search":  # (on a machine fast enough to prove it, nothing to check)
        assert play.last_stats["depth"] >= 3
        assert play.last_stats["evaluations"] > 0


@pytest.mark.parametrize("best_by_depth,draws", [((2, 3, 2, 3), False), ((4, 4, 4, 1), True), ((4, 1), False)])
def test_the_bank_pays_for_one_more_depth_only_when_the_best_move_changed_since_the_same_parity(
    monkeypatch: pytest.MonkeyPatch, best_by_depth: tuple[int, ...], draws: bool
) -> None:
    from connectx.agents.search import open_board_play

    def scripted(position: Position, *args: object) -> Iterator[SearchResult]:
        for depth, column in enumerate(best_by_depth, start=1):
            yield SearchResult((column,), 0.0, depth, 1)

    monkeypatch.setattr(open_board_play, "deepening", scripted)
    play = OpenBoardPlay()
    deadline = Deadline.after(30.0, 10.0)  # the script ends long before the clock: only the rule decides a draw
    play.choose(Position.initial(7, 8, 4).play(3), deadline)
    assert (deadline.bank.drawn > 0) == draws


def exhaustive_outcome(
    position: Position, memo: dict[tuple[int, int], tuple[int, int]], alpha: int = -1, beta: int = 1
) -> int:
    """-1, 0 or 1 for the side to move: every move tried (alpha-beta over the three outcomes only),
    with a table of the proven bounds; written from the rules alone, sharing nothing with the searches."""
    key = (position.current, position.mask)
    if key in memo:
        low, high = memo[key]
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        alpha, beta = max(alpha, low), min(beta, high)
    window = (alpha, beta)
    best = -1
    for column in position.legal_columns():
        child = position.play(column)
        if child.is_won():
            value = 1
        elif child.is_full():
            value = 0
        else:
            value = -exhaustive_outcome(child, memo, -beta, -alpha)
        best = max(best, value)
        alpha = max(alpha, value)
        if alpha >= beta:
            break
    memo[key] = (best, 1) if best >= window[1] else (-1, best) if best <= window[0] else (best, best)
    return best


@pytest.mark.parametrize("rows,columns,inarow", [(4, 4, 3), (4, 5, 4)])
def test_small_boards_are_played_perfectly_from_the_first_move(rows: int, columns: int, inarow: int) -> None:
    agent = REGISTRY["solver"].build({})
    position = Position.initial(rows, columns, inarow)
    observation = {"board": board_of(position), "mark": 1, "remainingOverageTime": 60.0}
    configuration = {"rows": rows, "columns": columns, "inarow": inarow, "actTimeout": 2.0}
    column = agent(observation, configuration)
    memo: dict[tuple[int, int], tuple[int, int]] = {}
    best = exhaustive_outcome(position, memo)
    child = position.play(column)
    value = 1 if child.is_won() else -exhaustive_outcome(child, memo)
    assert value == best
    assert not agent.faults


def test_seven_by_six_keeps_the_book_and_the_proofs_and_other_boards_take_the_open_board_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On 7x6 the pure-Python search, as where no compiled solver loads (``CONNECTX_CORE=python``)."""
    monkeypatch.setattr(solver_agent, "new_compiled_solver", lambda: None)
    positions = [Position.from_moves(moves) for moves in ("", "4", "4455", "3344", "2617")]
    for position in positions:
        strategy = solver_agent.SolverStrategy(max_nodes=3000, use_book=False)
        heuristic_nodes = int(solver_agent.HEURISTIC_SHARE * 3000)
        counts = SearchCounts()
        limits = SearchLimit(max_nodes=3000 - heuristic_nodes), SearchLimit(max_nodes=heuristic_nodes)
        last = last_of(iterative_deepening(position, TranspositionTable(), *limits, counts=counts))
        assert last is not None
        assert strategy.choose(position, Deadline.after(60.0)) == last.column
        assert strategy.last_stats["nodes"] == counts.nodes
        assert strategy.open_board.last_stats == {}  # the open-board play never searched
    wide = Position.from_moves("45", rows=7, columns=8, inarow=4)
    strategy = solver_agent.SolverStrategy(max_nodes=3000)
    expected = OpenBoardPlay(max_nodes=3000).choose(wide, Deadline.after(60.0))
    assert strategy.choose(wide, Deadline.after(60.0)) == expected
    assert strategy.last_stats["source"] == "search"


@pytest.mark.games
@pytest.mark.parametrize("rows,columns,inarow", [(4, 4, 3), (4, 5, 4)])
@pytest.mark.parametrize("seat", [0, 1])
def test_small_boards_solved_through_kaggle_never_score_below_their_value(
    rows: int, columns: int, inarow: int, seat: int
) -> None:
    memo: dict[tuple[int, int], tuple[int, int]] = {}
    first_player_value = exhaustive_outcome(Position.initial(rows, columns, inarow), memo)
    agents = ("solver", "kaggle:negamax") if seat == 0 else ("kaggle:negamax", "solver")
    record = play_game(GameSpec(0, agents, BoardConfig(rows, columns, inarow), seed=7))
    assert record.cause in ("line", "draw"), (record.cause, record.detail)
    outcome = 0 if record.winner is None else 1 if record.winner == seat else -1
    assert outcome >= (first_player_value if seat == 0 else -first_player_value), record.moves
