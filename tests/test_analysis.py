"""Game analysis: the readers, the exact values and flagged moves, the time limit, the cache, the pages.

The values are checked against ``connectx.agents.search.exact_search.analyze`` and the benchmark files' scores; the
C solver (skipped without a compiler) against the Python one, on 7x6 and on another board.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict
from html import escape
from pathlib import Path

import pytest

from book.checkpoint import read_records
from book.paths import BOOK_POSITIONS
from connectx.agents.board_spec import BoardSpec
from connectx.agents.core.kaggle_boundary import board_of
from connectx.agents.core.position import Position, geometry
from connectx.agents.search.exact_search import analyze
from connectx.analysis.cached_solver import CachedSolver
from connectx.analysis.exact_scores import ExactScores, write_table
from connectx.analysis.game_analysis import GameAnalysis, analyze_game
from connectx.analysis.games import Game, game_from_digits, game_from_episode, game_from_record, read_episode
from connectx.analysis.html_page import render_html
from connectx.analysis.solved_cache import CachedRange, Estimate, SolvedCache
from connectx.analysis.text_report import VALUE_WIDTH, render_text
from connectx.solver.interface import make_solver, native_unavailable_reason
from connectx.solver.native_search import NativeSearchSolver
from connectx.solver.python_search import PythonSolver
from connectx.solver.score_range import ScoreRange, describe

REPOSITORY = Path(__file__).resolve().parents[1]
POSITIONS = REPOSITORY / "positions"
OTHER_BOARDS = REPOSITORY / "benchmarks" / "results" / "evaluation_positions.txt"
"""Exactly solved positions of 7x7 and 8x7: ``BOARD MOVES SCORE`` a line."""


def shared_positions(name: str, count: int) -> list[tuple[str, int]]:
    """``count`` positions spread over a benchmark file: ``(moves, score)``."""
    lines = [line.split() for line in (POSITIONS / name).read_text().splitlines() if line.strip()]
    return [(lines[i * len(lines) // count][0], int(lines[i * len(lines) // count][1])) for i in range(count)]


def last_ply(
    moves: str, column: int, solver: PythonSolver | None = None, cache: SolvedCache | None = None
) -> GameAnalysis:
    """The analysis of the single move ``column`` played in the position ``moves``."""
    game = game_from_digits(moves + str(column + 1))
    return analyze_game(
        game, math.inf, solver or PythonSolver(), cache or SolvedCache(None, None), first_ply=len(moves)
    )


def thrown_win() -> tuple[str, int, int, dict[int, int]]:
    """A won position of Test_L3_R1, a column that throws the win away, the best one, and every column's score."""
    for moves, score in shared_positions("Test_L3_R1", 50):
        if score <= 0:
            continue
        scores = analyze(Position.from_moves(moves))
        assert scores is not None and max(scores.values()) == score
        worse = [column for column, value in scores.items() if value <= 0]
        if worse:
            return moves, worse[0], max(scores, key=lambda column: scores[column]), scores
    raise AssertionError("no won position of Test_L3_R1 has a losing or drawing move")


# ---- reading games ----


def test_a_move_string_is_read_as_zero_based_columns_and_checked() -> None:
    game = game_from_digits(" 4453 ")
    assert (game.board.rows, game.board.columns, game.board.inarow, game.moves) == (6, 7, 4, (3, 3, 4, 2))
    assert game.digits == "4453"
    assert len(list(game.positions())) == 5
    with pytest.raises(ValueError, match="move 2 .* '8'"):
        game_from_digits("48")
    with pytest.raises(ValueError, match="after the game was won"):
        game_from_digits("12121212")
    with pytest.raises(ValueError, match="full column"):
        game_from_digits("1111111")


def test_a_move_string_is_replayed_once_and_its_positions_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    digits = "754474557774457553632366"
    plays: list[int] = []
    real_play = Position.play

    def counted(position: Position, column: int) -> Position:
        plays.append(column)
        return real_play(position, column)

    monkeypatch.setattr(Position, "play", counted)
    game = game_from_digits(digits)
    positions = game.positions()
    assert len(plays) == len(digits) and game.positions() is positions  # checked once, read without replaying
    assert [repr(position) for position in positions] == [
        repr(Position.from_moves(digits[:ply])) for ply in range(len(digits) + 1)
    ]


def test_a_game_value_refuses_illegal_moves_and_wide_boards() -> None:
    with pytest.raises(ValueError, match="move 2 is column 7"):
        Game(BoardSpec(6, 7, 4), (3, 7))
    with pytest.raises(ValueError, match="up to 9 columns"):
        Game(BoardSpec(6, 10, 4), ())


def test_a_harness_record_is_read_from_a_run_directory(tmp_path: Path) -> None:
    from connectx.evaluation.engine import BoardConfig
    from connectx.evaluation.game_record import GameRecord
    from connectx.evaluation.results_store import ResultsStore, RunDirectoryError

    records = [
        GameRecord(index, ("a", "b"), BoardConfig(5, 6, 4), 0, (), moves, None, ("DONE", "DONE"), "draw")
        for index, moves in ((0, (0, 1, 2)), (3, (5, 5, 0)))
    ]
    lines = [json.dumps(record.to_json()) for record in records]
    (tmp_path / "games.jsonl").write_text("\n".join(lines) + '\n{"index": 4, "mov')  # a torn last line
    game = game_from_record(ResultsStore(tmp_path).record(3).to_json())
    assert (game.board.rows, game.board.columns, game.board.inarow, game.moves) == (5, 6, 4, (5, 5, 0))
    with pytest.raises(RunDirectoryError, match=r"no game 7 .*games 0\.\.3"):
        ResultsStore(tmp_path).record(7)
    with pytest.raises(RunDirectoryError, match="holds no games.jsonl"):
        ResultsStore(tmp_path / "elsewhere").record(0)
    with pytest.raises(ValueError, match="moves must be a list"):
        game_from_record({"config": {"rows": 6, "columns": 7, "inarow": 4}, "moves": "123"})
    with pytest.raises(ValueError, match="inarow = 0: choose a whole number from 2"):
        game_from_record({"config": {"rows": 6, "columns": 7, "inarow": 0}, "moves": []})


def episode(moves: list[int]) -> dict[str, object]:
    """A minimal Kaggle episode of ``moves`` on the standard board, shaped like ``env.toJSON()``."""
    position = Position.initial()
    steps: list[list[dict[str, object]]] = [
        [
            {"action": 0, "status": "ACTIVE", "observation": {"board": board_of(position), "mark": 1}},
            {"action": 0, "status": "INACTIVE", "observation": {"mark": 2}},
        ]
    ]
    for ply, column in enumerate(moves):
        position = position.play(column)
        mover = ply % 2
        over = position.is_over()
        states: list[dict[str, object]] = [{}, {}]
        states[mover] = {"action": column, "status": "DONE" if over else "INACTIVE"}
        states[1 - mover] = {"action": 0, "status": "DONE" if over else "ACTIVE"}
        states[0]["observation"] = {"board": board_of(position), "mark": 1}
        states[1]["observation"] = {"mark": 2}
        steps.append(states)
    return {"configuration": {"rows": 6, "columns": 7, "inarow": 4, "actTimeout": 2}, "steps": steps}


def test_an_episode_gives_the_moves_of_the_active_agents_and_is_checked() -> None:
    assert game_from_episode(episode([3, 3, 4, 2])).moves == (3, 3, 4, 2)
    broken = episode([3, 3, 4])
    broken["steps"][2][1]["action"] = 9  # type: ignore[index]
    with pytest.raises(ValueError, match="step 2: agent 1 played 9"):
        game_from_episode(broken)
    wrong_board = episode([3, 3])
    wrong_board["steps"][1][0]["observation"]["board"] = [0] * 42  # type: ignore[index]
    with pytest.raises(ValueError, match="step 1: agent 0's board differs"):
        game_from_episode(wrong_board)
    with pytest.raises(ValueError, match="configuration is missing"):
        game_from_episode({"steps": []})
    with pytest.raises(ValueError, match="no steps"):
        game_from_episode({"configuration": {"rows": 6, "columns": 7, "inarow": 4}})
    with pytest.raises(ValueError, match="step 0 .* not a list of two agent states"):
        game_from_episode({"configuration": {"rows": 6, "columns": 7, "inarow": 4}, "steps": [[{}]]})


def test_a_faulted_action_is_not_a_move() -> None:
    data = episode([3, 3])
    board = board_of(Position.from_moves("44"))
    invalid = [
        {"action": 9, "status": "INVALID", "observation": {"board": board, "mark": 1}},
        {"action": 0, "status": "DONE", "observation": {"mark": 2}},
    ]
    data["steps"].append(invalid)  # type: ignore[attr-defined]
    assert game_from_episode(data).moves == (3, 3)


@pytest.mark.games
def test_an_episode_written_by_connectx_play_is_read(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from connectx.cli.main import main

    path = tmp_path / "game.json"
    assert main(["play", "random", "kaggle:random", "--seed", "4", "--json", str(path)]) == 0
    game = read_episode(path)
    data = json.loads(path.read_text())
    assert len(game.moves) == len(data["steps"]) - 1  # one move per step after the first
    final = list(game.positions())[-1]
    assert final.is_over()
    assert board_of(final) == data["steps"][-1][0]["observation"]["board"]


def test_a_file_that_is_not_an_episode_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="cannot read"):
        read_episode(tmp_path / "missing.json")
    (tmp_path / "bad.json").write_text("{")
    with pytest.raises(ValueError, match="is not JSON"):
        read_episode(tmp_path / "bad.json")
    (tmp_path / "list.json").write_text("[]")
    with pytest.raises(ValueError, match="a Kaggle episode is a JSON object"):
        read_episode(tmp_path / "list.json")


# ---- values, flags and the JSON schema ----


def test_the_json_follows_the_schema_and_flags_a_thrown_win() -> None:
    moves, thrown, best, scores = thrown_win()
    data = last_ply(moves, thrown).to_json()
    assert set(data) == {"moves", "config", "plies"}
    assert data["moves"] == moves + str(thrown + 1)
    assert data["config"] == {"rows": 6, "columns": 7, "inarow": 4}
    [ply] = data["plies"]
    assert set(ply) == {"ply", "column", "scores", "exact", "changed_outcome", "best", "open", "line"}
    assert (ply["ply"], ply["column"], ply["exact"], ply["changed_outcome"]) == (len(moves), thrown, True, True)
    assert ply["line"] and all(0 <= column < 7 for column in ply["line"])  # the move that punishes it first
    assert ply["scores"] == [scores.get(column) for column in range(7)]
    json.dumps(data)  # plain JSON types only
    kept = last_ply(moves, best).to_json()["plies"][0]
    assert kept["changed_outcome"] is False and kept["scores"] == ply["scores"] and "line" not in kept


def test_a_draw_thrown_to_a_loss_is_flagged_and_a_lost_position_never_is() -> None:
    drawn = lost = None
    for moves, score in shared_positions("Test_L3_R1", 200):
        scores = analyze(Position.from_moves(moves))
        assert scores is not None
        if score == 0 and min(scores.values()) < 0 and drawn is None:
            drawn = moves, scores
        if score < 0 and lost is None:
            lost = moves, scores
    assert drawn is not None and lost is not None
    moves, scores = drawn
    worst, keeping = min(scores, key=scores.__getitem__), max(scores, key=scores.__getitem__)
    assert last_ply(moves, worst).plies[0].changed_outcome
    assert not last_ply(moves, keeping).plies[0].changed_outcome
    moves, scores = lost
    assert not last_ply(moves, min(scores, key=scores.__getitem__)).plies[0].changed_outcome


@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1"])
def test_the_scores_are_alphabeta_analyze_s(name: str) -> None:
    for moves, score in shared_positions(name, 4):
        position = Position.from_moves(moves)
        expected = analyze(position)
        assert expected is not None
        column = position.legal_columns()[0]
        ply = last_ply(moves, column).plies[0]
        assert ply.scores == tuple(expected.get(c) for c in range(7)), moves
        assert ply.before == ScoreRange.exactly(score) and ply.after == ScoreRange.exactly(expected[column])
        assert ply.best_columns == tuple(c for c in sorted(expected) if expected[c] == score)


def test_a_whole_game_ends_with_its_winning_move_and_reports_progress() -> None:
    game = game_from_digits("2252576253462244111563365343671351441")  # Test_L3_R1's first position
    position = list(game.positions())[-1]
    while True:  # play the game to its end, each side taking a win at once
        wins = position.winning_columns()
        column = wins[0] if wins else position.legal_columns()[0]
        game = Game(BoardSpec(6, 7, 4), game.moves + (column,))
        position = position.play(column)
        if position.is_over():
            break
    calls: list[tuple[int, int]] = []
    analysis = analyze_game(
        game,
        math.inf,
        PythonSolver(),
        SolvedCache(None, None),
        progress=lambda done, total: calls.append((done, total)),
        first_ply=37,
    )
    total = len(game.moves) - 37
    assert calls == [(done, total) for done in range(1, total + 1)]
    assert [ply.ply for ply in analysis.plies] == list(range(37, len(game.moves)))
    assert all(ply.exact for ply in analysis.plies)
    for earlier, later in zip(analysis.plies, analysis.plies[1:], strict=False):
        assert earlier.after == later.before.negated()  # a move's value: the next position's, the other side's view
    assert analysis.plies[-1].after.lower > 0  # the last move won


# ---- the time limit ----


def test_a_search_cut_by_its_node_limit_leaves_a_true_bound_promptly() -> None:
    moves, score = shared_positions("Test_L1_R3", 1)[0]  # an opening position: far beyond 2,000 nodes
    cpu = time.process_time()
    analysis = last_ply(moves, Position.from_moves(moves).legal_columns()[0], PythonSolver(max_nodes=2_000))
    assert time.process_time() - cpu < 60  # 7 columns x 3 searches of ~2,000 nodes: seconds, not hours
    ply = analysis.plies[0]
    assert not ply.exact
    assert ply.before.lower <= score <= ply.before.upper
    data = ply.to_json()
    assert None in data["scores"] and len(data["bounds"]) == 7
    assert all(lower <= upper for lower, upper in data["bounds"])


@pytest.mark.skipif(native_unavailable_reason() is not None, reason=f"no C solver: {native_unavailable_reason()}")
def test_the_c_solver_stops_at_its_deadline_and_goes_on_with_its_table() -> None:
    solver = NativeSearchSolver(20)
    try:
        empty = Position.initial()
        started = time.perf_counter()
        proven = solver.bound(empty, "", ScoreRange.possible(empty), time.perf_counter() + 0.5)
        assert time.perf_counter() - started < 1.5  # the empty board takes the C solver minutes
        assert not proven.exact and proven.lower <= 1 <= proven.upper
        moves, score = shared_positions("Test_L2_R1", 1)[0]
        position = Position.from_moves(moves)
        assert solver.bound(position, moves, ScoreRange.possible(position), math.inf) == ScoreRange.exactly(score)
    finally:
        solver.close()


def test_the_c_solver_is_chosen_for_the_boards_it_plays_where_it_builds() -> None:
    assert make_solver(BoardSpec(4, 5, 3)).name == "python"  # three in a row
    assert make_solver(BoardSpec(7, 9, 4)).name == "python"  # 9 columns of 7 + 1 bits: more than 64
    assert make_solver(BoardSpec(6, 7, 4), native=False).name == "python"
    for rows, columns in ((6, 7), (5, 6), (7, 8)):
        expected = "native" if native_unavailable_reason(BoardSpec(rows, columns)) is None else "python"
        assert make_solver(BoardSpec(rows, columns)).name == expected


@pytest.mark.skipif(
    native_unavailable_reason(BoardSpec(7, 8)) is not None,
    reason=f"no C solver: {native_unavailable_reason(BoardSpec(7, 8))}",
)
def test_on_another_board_the_c_solver_and_the_python_solver_give_the_stored_scores() -> None:
    stored = [line.split()[1:] for line in OTHER_BOARDS.read_text().splitlines() if line.startswith("8x7/4")]
    native, python = make_solver(BoardSpec(7, 8, 4)), PythonSolver()
    try:
        # the latest positions: the quickest for the Python solver
        for moves, score in sorted(stored, key=lambda row: -len(row[0]))[:3]:
            position = Position.from_moves(moves, 7, 8, 4)
            possible = ScoreRange.possible(position)
            assert native.bound(position, moves, possible, math.inf) == ScoreRange.exactly(int(score)), moves
            assert python.bound(position, moves, possible, math.inf) == ScoreRange.exactly(int(score)), moves
        assert native.name == "native" and native.calls == 3
    finally:
        native.close()


@pytest.mark.skipif(native_unavailable_reason() is not None, reason=f"no C solver: {native_unavailable_reason()}")
@pytest.mark.parametrize("name", ["Test_L3_R1", "Test_L2_R1", "Test_L1_R1"])
def test_the_c_solver_and_the_python_solver_give_the_same_scores(name: str) -> None:
    native, python = NativeSearchSolver(20), PythonSolver()
    try:
        for moves, score in shared_positions(name, 5):
            position = Position.from_moves(moves)
            possible = ScoreRange.possible(position)
            from_c = native.bound(position, moves, possible, math.inf)
            assert from_c == python.bound(position, moves, possible, math.inf) == ScoreRange.exactly(score), moves
            if score > 0:  # from a proven "at least a win", as a bound left in the cache starts it
                assert native.bound(position, moves, ScoreRange(1, possible.upper), math.inf) == from_c
    finally:
        native.close()


# ---- the cache ----


def test_a_second_analysis_reads_every_value_from_the_cache(tmp_path: Path) -> None:
    moves, thrown, _, _ = thrown_win()
    game = game_from_digits(moves + str(thrown + 1))
    first_solver = PythonSolver()
    first = analyze_game(game, math.inf, first_solver, SolvedCache(tmp_path, None), first_ply=len(moves) - 3)
    assert first_solver.calls > 0
    again = PythonSolver()
    cache = SolvedCache(tmp_path, None)  # a new process would start like this: from the file alone
    second = analyze_game(game, math.inf, again, cache, first_ply=len(moves) - 3)
    assert again.calls == 0 and cache.misses == 0
    # The same values; the second run also knows each position's own value, from the first.
    assert second.to_json() == first.to_json()
    assert [ply.before for ply in second.plies] == [ply.before for ply in first.plies]


def test_bounds_are_reused_at_the_same_limit_and_retried_at_a_larger_one(tmp_path: Path) -> None:
    moves, _ = shared_positions("Test_L1_R3", 1)[0]
    column = Position.from_moves(moves).legal_columns()[0]
    game = game_from_digits(moves + str(column + 1))
    analyze_game(game, 1.0, PythonSolver(max_nodes=1_000), SolvedCache(tmp_path, None), first_ply=len(moves))
    same = PythonSolver(max_nodes=1_000)
    analyze_game(game, 1.0, same, SolvedCache(tmp_path, None), first_ply=len(moves))
    assert same.calls == 0
    larger = PythonSolver(max_nodes=1_000)
    analyze_game(game, 2.0, larger, SolvedCache(tmp_path, None), first_ply=len(moves))
    assert larger.calls > 0


def test_a_value_known_of_the_position_narrows_its_value_where_its_columns_ran_out_of_time() -> None:
    moves, score = shared_positions("Test_L1_R3", 1)[0]
    position = Position.from_moves(moves)
    column = position.legal_columns()[0]
    cache = SolvedCache(None, None)
    plain = last_ply(moves, column, PythonSolver(max_nodes=1_000), cache).plies[0]
    assert not plain.before.exact  # the capped solver proves no column exactly
    cache = SolvedCache(None, None)
    cache.put(position, ScoreRange.exactly(score))  # as the book or an earlier analysis would know it
    ply = last_ply(moves, column, PythonSolver(max_nodes=1_000), cache).plies[0]
    assert ply.before == ScoreRange.exactly(score)
    # The known value caps every column (no move is better than the position) and keeps only what was proven
    # of each; the columns still overlap, so none is proven best, and the same ones stay open.
    for known, capped in zip(plain.values, ply.values, strict=True):
        assert (known is None) == (capped is None)
        if known is not None and capped is not None:
            assert capped == ScoreRange(known.lower, min(known.upper, score))
    assert ply.best_columns == plain.best_columns == () and ply.open_columns == plain.open_columns


def test_the_cache_file_survives_a_torn_line_and_keeps_proofs(tmp_path: Path) -> None:
    position = Position.from_moves("4444")
    cache = SolvedCache(tmp_path, None)
    cache.put(position, ScoreRange(-3, 5), 1.0, "python")
    cache.put(position.play(0), ScoreRange.exactly(2))
    cache.close()
    path = next(tmp_path.glob("solved-7x6x4.jsonl"))
    path.write_text(path.read_text() + '{"key": 12, "low')  # killed in the middle of a write
    cache = SolvedCache(tmp_path, None)
    assert cache.get(position.play(0)) == CachedRange(ScoreRange.exactly(2))
    cache.put(position, ScoreRange(0, 9), 1.0, "python")  # a second proof narrows the first
    cache.put(Position.from_moves("1"), ScoreRange.exactly(-1))
    cache.close()
    lines = path.read_text().splitlines()
    assert json.loads(lines[0]) == {"format": 2}  # the header a new file opens with
    assert lines[3] == '{"key": 12, "low' and all(json.loads(line) for line in lines[4:])  # the torn line was ended
    reread = SolvedCache(tmp_path, None)
    assert reread.get(position) == CachedRange(ScoreRange(0, 5), 1.0, "python")
    assert reread.get(Position.from_moves("7")) == CachedRange(ScoreRange.exactly(-1))  # the mirror image of "1"
    assert reread.get(Position.from_moves("2")) is None


def test_estimates_are_kept_with_their_time_and_the_longer_search_wins(tmp_path: Path) -> None:
    position = Position.from_moves("4444")
    cache = SolvedCache(tmp_path, None)
    cache.put_estimate(position, Estimate(0.25, 6, 0.05))
    cache.put_estimate(Position.from_moves("4444"), Estimate(0.5, 5, 0.05))  # shallower at the same time: dropped
    cache.put_estimate(position.play(0), Estimate(-0.5, 9, 0.05))
    cache.close()
    reread = SolvedCache(tmp_path, None)
    assert reread.estimate(position) == Estimate(0.25, 6, 0.05)
    assert reread.estimate(Position.from_moves("44447")) == Estimate(-0.5, 9, 0.05)  # the mirror image
    reread.put_estimate(position, Estimate(0.125, 7, 0.1))  # a longer search's replaces it
    reread.close()
    assert SolvedCache(tmp_path, None).estimate(position) == Estimate(0.125, 7, 0.1)


def test_the_cached_solver_asks_the_solver_only_what_the_cache_cannot_answer_at_the_limit() -> None:
    moves, score = shared_positions("Test_L1_R3", 1)[0]
    position = Position.from_moves(moves)
    solver = PythonSolver(max_nodes=1_000)
    engine = CachedSolver(solver, SolvedCache(None, None))
    bound = engine.bound(position, moves, 1.0)
    assert solver.calls == 1 and not bound.exact and bound.contains(score)
    assert engine.bound(position, moves, 1.0) == bound and engine.bound(position, moves, 0.5) == bound
    assert solver.calls == 1  # the same or a lower limit: the cache answers
    engine.bound(position, moves, 1.0, known=ScoreRange(bound.lower, score))
    assert solver.calls == 1  # a lower ceiling proven elsewhere is no new question
    engine.bound(position, moves, 1.0, known=ScoreRange(score, bound.upper))
    assert solver.calls == 2  # a higher floor is (a null-window test)
    engine.bound(position, moves, 2.0)
    assert solver.calls == 3  # so is a higher limit
    assert engine.bound(Position.from_moves("1212121"), "1212121", 1.0) == ScoreRange.exactly(-18)  # over: no search
    assert solver.calls == 3


def test_a_table_of_exact_scores_seeds_the_cache_for_a_position_and_its_mirror_image(tmp_path: Path) -> None:
    records = [asdict(record) for record in read_records(BOOK_POSITIONS)[0][:41]]
    scores = {Position.from_moves(r["moves"]).canonical_key(): r["score"] for r in records[:40]}
    write_table(tmp_path / "table.npz", (6, 7, 4), scores)
    table = ExactScores(tmp_path / "table.npz")
    assert len(table) == len(scores) and table.board == (6, 7, 4)
    for record in records[:40]:
        position = Position.from_moves(record["moves"])
        mirrored = Position.from_moves(record["moves"].translate(str.maketrans("1234567", "7654321")))
        assert table.score(position) == table.score(mirrored) == record["score"], record["moves"]
    assert table.score(Position.from_moves(records[40]["moves"])) is None
    assert table.score(Position.from_moves("4", rows=5)) is None  # another board
    assert SolvedCache(None, table).get(Position.from_moves(records[4]["moves"])) == CachedRange(
        ScoreRange.exactly(records[4]["score"])
    )
    missing = ExactScores(tmp_path / "missing.npz")
    assert len(missing) == 0 and missing.score(Position.initial()) is None


def test_the_shipped_table_holds_the_opening_and_the_books_positions() -> None:
    table = ExactScores.shipped()
    assert len(table) >= 250_000
    assert [table.score(Position.from_moves(str(column))) for column in range(1, 8)] == [2, 1, 0, -1, 0, 1, 2]
    assert table.score(Position.initial()) == 1
    assert table.score(Position.from_moves("4444")) == 1 and table.score(Position.from_moves("44444")) == -1
    assert SolvedCache(None).get(Position.initial()) == CachedRange(ScoreRange.exactly(1))


def test_the_cache_lives_in_the_users_cache_directory_unless_told(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONNECTX_CACHE_DIR", str(tmp_path / "cache"))
    cache = SolvedCache()
    assert cache.directory == tmp_path / "cache" / "analysis"
    cache.put(Position.from_moves("1", 4, 5, 3), ScoreRange.exactly(-1))
    cache.close()
    assert (tmp_path / "cache" / "analysis" / "solved-5x4x3.jsonl").is_file()
    monkeypatch.delenv("CONNECTX_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert SolvedCache().directory == tmp_path / "xdg" / "connectx" / "analysis"


# ---- the pages ----


def test_the_text_and_the_page_show_the_flagged_move_and_the_best_one() -> None:
    moves, thrown, best, _ = thrown_win()
    analysis = last_ply(moves, thrown)
    ply = len(moves)
    text = render_text(analysis)
    assert f"{ply:>4}  {'XO'[ply % 2]} {thrown + 1}" in text
    assert "threw a win away" in text and f"best: {best + 1} (win" in text
    page = render_html(analysis)
    assert f'<section id="ply-{ply}" class="flagged">' in page
    assert f'<tr class="flagged"><td><a href="#ply-{ply}">{ply}</a>' in page
    assert "Changed the outcome" in page and f"Best instead: {best + 1} (win" in page
    for external in ("<link", "src=", "@import", "url("):
        assert external not in page
    # The evaluation graph twice (whole for a wide screen, in rows for a narrow one), the board before the move,
    # and the final one.
    assert page.count("<svg") == 4
    assert page.count('<circle class="flagged"') == 2  # the flagged move, marked on each of the graph's drawings


def test_the_text_and_the_page_show_bounds_where_scores_are_not_exact() -> None:
    moves, _ = shared_positions("Test_L1_R3", 1)[0]
    analysis = last_ply(moves, Position.from_moves(moves).legal_columns()[0], PythonSolver(max_nodes=500))
    [ply] = analysis.plies
    assert not ply.exact
    shape = geometry(6, 7, 4)
    before, after = describe(ply.before, shape, ply.ply), describe(ply.after, shape, ply.ply)
    assert f"{before:<{VALUE_WIDTH}}  {after}" in render_text(analysis)
    page = render_html(analysis)
    for column, value in enumerate(ply.values):
        if value is not None:
            assert f"<title>column {column + 1}: {escape(describe(value, shape, ply.ply))}</title>" in page
