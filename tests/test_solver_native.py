"""The C solver: its bitboard entry point agrees with its move-string one and refuses nonsense, built for
other boards it gives their exactly solved scores, and a search under a limit (a deadline, a node cap,
a stop from another thread) ends in time with bounds that hold the exact score.

The C solver needs a compiler, which the project does not require, so these tests skip without one.
"""

from __future__ import annotations

import shutil
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from connectx.agents.core.data_files import read_data
from connectx.agents.core.position import Position
from connectx.agents.core.search_time import SearchLimit
from connectx.agents.search.compiled_solver import SOURCE
from connectx.agents.search.exact_search import solve

if not (shutil.which("cc") or shutil.which("gcc")):
    pytest.skip("no C compiler: the book's C solver cannot be built", allow_module_level=True)

from connectx.solver import build  # noqa: E402
from connectx.solver.build import build_library, fits  # noqa: E402
from connectx.solver.native import NativeSolver  # noqa: E402
from connectx.solver.score_range import ScoreRange  # noqa: E402

REPOSITORY = Path(__file__).resolve().parents[1]
POSITIONS = REPOSITORY / "positions" / "Test_L2_R1"
OTHER_BOARDS = REPOSITORY / "benchmarks" / "results" / "evaluation_positions.txt"
"""Exactly solved positions of 7x7 and 8x7 (``BOARD MOVES SCORE``); their latest are checked in Python too."""


@pytest.fixture(scope="module")
def solver() -> NativeSolver:
    return NativeSolver(20)


def test_a_position_scores_the_same_from_bitboards_as_from_its_moves(solver: NativeSolver) -> None:
    for line in POSITIONS.read_text().splitlines()[:25]:
        moves, expected = line.split()
        from_moves = solver.best_move(moves)
        from_bits = solver.best_move_of(Position.from_moves(moves))
        assert (from_bits.score, from_bits.column) == (from_moves.score, from_moves.column), moves
        assert from_bits.score == int(expected), moves


def test_impossible_positions_and_other_boards_are_refused(solver: NativeSolver) -> None:
    with pytest.raises(ValueError, match="not a legal unfinished"):
        solver.best_move_of(Position.from_moves("1212121"))  # four in a column: the game is over
    floating = Position(Position.initial().geometry, 0, 1 << 1, 1)  # a stone above an empty cell
    with pytest.raises(ValueError, match="not a legal unfinished"):
        solver.best_move_of(floating)
    with pytest.raises(ValueError, match="plays 7x6 with 4 in a row only, not 6x5"):
        solver.best_move_of(Position.from_moves("", rows=5, columns=6, inarow=4))


@pytest.mark.parametrize("board,rows,columns", [("7x7/4", 7, 7), ("8x7/4", 7, 8)])
def test_built_for_another_board_it_gives_the_exactly_solved_scores(board: str, rows: int, columns: int) -> None:
    solver = NativeSolver(20, rows, columns)
    stored = [line.split()[1:] for line in OTHER_BOARDS.read_text().splitlines() if line.startswith(board)]
    for moves, score in stored[:: len(stored) // 8]:
        from_moves = solver.best_move(moves)
        from_bits = solver.best_move_of(Position.from_moves(moves, rows, columns, 4))
        assert from_moves.score == from_bits.score == int(score), moves
        assert from_moves.column == from_bits.column, moves
    with pytest.raises(ValueError, match=f"not a legal unfinished position of {columns}x{rows}"):
        solver.best_move(str(columns + 1))


@pytest.mark.parametrize("rows,columns", [(4, 4), (4, 5)])
def test_a_small_board_from_its_first_move_agrees_with_the_exhaustive_search(rows: int, columns: int) -> None:
    exhaustive = solve(Position.initial(rows, columns, 4))
    assert exhaustive is not None
    assert NativeSolver(16, rows, columns).best_move("").score == exhaustive.score


def test_boards_it_cannot_play_are_refused_before_compiling() -> None:
    assert fits(6, 7, 4) and fits(7, 8, 4) and fits(6, 9, 4)
    assert not fits(7, 9, 4) and not fits(5, 10, 4) and not fits(6, 7, 5)
    with pytest.raises(ValueError, match="cannot play a 9x7 board"):
        build_library(7, 9)


def test_it_is_compiled_once_into_the_users_cache_and_again_when_its_source_changes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CONNECTX_CACHE_DIR", str(tmp_path / "cache"))
    library = build_library(4, 4)
    assert library.parent == tmp_path / "cache" / "solver" and library.is_file()
    built = library.stat().st_mtime_ns
    assert build_library(4, 4) == library and library.stat().st_mtime_ns == built  # not compiled again
    assert not [path for path in library.parent.iterdir() if path.name.startswith(".build-")]  # nothing left over

    changed = read_data(SOURCE) + b"\n/* a changed source */\n"
    monkeypatch.setattr(build, "read_data", lambda name: changed)
    rebuilt = build_library(4, 4)
    assert rebuilt != library and rebuilt.is_file() and rebuilt.parent == library.parent


def test_without_a_compiler_it_says_so_in_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CONNECTX_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("CC", raising=False)
    with pytest.raises(RuntimeError, match=r"^no C compiler found: install gcc .* or set CC$"):
        build_library(4, 4)


# ---- the search's limit: cx_search returns what it proved when its deadline, node cap or a stop comes


def test_a_deadline_stops_the_search_in_time_with_a_true_range_and_a_legal_column() -> None:
    solver = NativeSolver(19)
    empty = Position.initial()  # the C solver takes minutes to prove its score, 1
    for seconds in (0.0, 0.05, 0.3):
        started = time.perf_counter()
        found = solver.search(empty, SearchLimit(stop_at=started + seconds))
        assert time.perf_counter() - started < seconds + 0.1  # the clock is read every 1,024 nodes
        assert not found.complete and found.range.contains(1) and found.column in range(7)


def test_a_node_cap_is_kept_exactly_and_stops_the_same_way_every_time() -> None:
    empty = Position.initial()
    first, again = (NativeSolver(19).search(empty, SearchLimit(max_nodes=5_000)) for _ in range(2))
    assert first == again and first.nodes == 5_000 and not first.complete
    assert first.range.contains(1)


@pytest.mark.parametrize("cap", [50, 500, 5_000])
def test_stopped_bounds_hold_the_exact_score_and_the_column_reaches_the_lower_bound(cap: int) -> None:
    capped, exact = NativeSolver(19), NativeSolver(19)
    for line in (REPOSITORY / "positions" / "Test_L2_R2").read_text().splitlines()[:40]:
        moves, score = line.split()
        position = Position.from_moves(moves)
        found = capped.search(position, SearchLimit(max_nodes=cap))
        assert found.range.contains(int(score)), (moves, found)
        assert found.complete == found.range.exact and found.nodes <= cap
        assert found.column is not None and position.can_play(found.column)
        if found.range.lower > ScoreRange.possible(position).lower:  # a proven bound comes with its move
            child = Position.from_moves(moves + str(found.column + 1))
            if not child.is_won():
                assert -exact.search(child).range.lower >= found.range.lower, (moves, found)


def test_what_is_known_narrows_the_search_and_a_wrong_range_is_refused() -> None:
    solver = NativeSolver(19)
    moves, score = (REPOSITORY / "positions" / "Test_L2_R2").read_text().splitlines()[0].split()
    position = Position.from_moves(moves)
    plain = NativeSolver(19).search(position)
    told = solver.search(position, known=ScoreRange(int(score), ScoreRange.possible(position).upper))
    assert plain.range == told.range == ScoreRange.exactly(int(score)) and told.nodes < plain.nodes
    with pytest.raises(ValueError, match="not in the range given"):
        NativeSolver(19).search(
            position, known=ScoreRange(int(score) + 1, ScoreRange.possible(position).upper), centre_first=True
        )


def test_a_stop_from_another_thread_ends_the_search_and_the_solver_goes_on_after_resume() -> None:
    solver = NativeSolver(19)
    empty = Position.initial()
    with ThreadPoolExecutor(1) as thread:
        running = thread.submit(solver.search, empty)
        time.sleep(0.2)
        stopped = time.perf_counter()
        solver.stop()
        found = running.result(timeout=5)
    assert time.perf_counter() - stopped < 0.5 and not found.complete and found.range.contains(1)
    assert not solver.search(Position.from_moves("4")).complete  # still stopped: a late stop is not lost
    solver.resume()
    moves, score = POSITIONS.read_text().splitlines()[0].split()
    assert solver.search(Position.from_moves(moves)).range == ScoreRange.exactly(int(score))


def test_the_source_is_standard_c_for_any_compiler(tmp_path: Path) -> None:
    """The submission will build it with whatever C compiler Kaggle has: no warning under strict C11."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    source = tmp_path / SOURCE
    source.write_bytes(read_data(SOURCE))
    command = [
        str(compiler),
        "-std=c11",
        "-pedantic",
        "-Wall",
        "-Wextra",
        "-Werror",
        "-O2",
        "-shared",
        "-fPIC",
        "-o",
        str(tmp_path / "libsolver.so"),
        str(source),
    ]
    assert subprocess.run(command, capture_output=True, text=True).stderr == ""
